// Changing the position: setting it up (the controls, a click with a stone tool), marking dead
// stones, playing a move or a pass, undoing.
import { $, api, busy, labelsOf, showError } from "./api.js";
import { judge, packed, show, toolOf } from "./board.js";
import { explain, setReport } from "./explain.js";
import { drawMoveList } from "./movelist.js";
import { cellOf, deadOf, positionObject, recordStatus, toggledDead, withDead } from "./position.js";
import { proposedPoints } from "./proposal.js";
import { samePosition } from "./scoring.js";
import { leaveRecord } from "./records.js";
import { clearPlayed, playedMove, popUndo, pushUndo, restore, setPending, snapshot, state } from "./state.js";
import { chosenRules, markVisit, saveUrl } from "./view.js";

// The position the controls set up: the rules chosen, the grid, the move number (an object).
export function buildPosition(grid = state.grid) {
  return positionObject(chosenRules(), grid, state.move);
}
// A position set up by the controls (size, move, rules, clear, a pasted position): judged, and
// if it is taken while browsing a record, the record is left, and the status says so.
export async function setUp(position, why, file) {
  const inRecord = state.record && state.inRecord;
  const before = snapshot();
  markVisit();
  const ok = await judge(position, file);
  // a refused set-up is no view to come back to
  if (!ok) markVisit(false);
  if (ok) {
    pushUndo(before);
    clearPlayed();
    setReport(null);
    if (inRecord) leaveRecord(why + ": the position left the record");
    drawMoveList();
    saveUrl();
  }
  return ok;
}
export async function clickPoint(label) {
  const tool = toolOf();
  // in the scoring phase a click on a stone marks (or unmarks) its string dead, whatever the tool
  // (explain too: the banner says a click marks; the clause trace is one "explain" away)
  if (state.scoring === "marking") {
    return toggleDead(label);
  }
  if (tool === "explain") {
    $("target").value = label;
    return explain(label);
  }
  if (tool === "play") {
    // with "confirm moves" (a phone's tap is easily misplaced), a first tap selects the point
    // and a second tap on it, or the play button, plays it
    if ($("confirm-moves").checked && state.pending !== label) return selectPending(label);
    return play(label);
  }
  if (tool === "dead") {
    return toggleDead(label);
  }
  const [r, c] = cellOf(label, state.size);
  const grid = state.grid.map((row) => [...row]);
  grid[r][c] = { black: "X", white: "O", flower: "#", empty: "." }[tool];
  const before = snapshot();
  const leaving = state.record && state.inRecord;
  if (await judge(buildPosition(grid))) {
    pushUndo(before);
    clearPlayed();
    setReport(null);
    if (leaving) leaveRecord("edited " + label + ": the position left the record (its earlier boards, for ko, are dropped)");
  }
}
// Dead-stone marking for the score: a click on a stone marks its whole string dead (or alive):
// the string of the upper layer, attributed flowers with it, as the count removes it.
async function toggleDead(label) {
  const an = state.analysis;
  const s = an && (an.upper_strings || an.strings).find((x) => x.points.includes(label));
  const pts = s ? s.points : [label];
  const [r, c] = cellOf(label, state.size);
  if (!s && state.grid[r][c] === ".") return;
  const dead = toggledDead(deadOf(state.setup), label, pts);
  const before = snapshot();
  if (await judge(withDead(state.setup, dead))) pushUndo(before);
}
// The dead stones the engine proposes, marked when the scoring phase opens on `setup` (one undo
// takes them off); not on a link's or a ruling's view read back (its marks are the referee's:
// `held`, until another position is shown, its analysis may come after the reading ends), nor
// when the view moved on before the answer came. `setup` null: another answer shown.
let holding = false;
let held = null;
export function holdProposal(on) {
  holding = on;
  if (!on) held = state.setup;
}
export async function markProposal(setup) {
  if (!setup) {
    if (!samePosition(held, state.setup)) held = null;
    return;
  }
  if (holding || samePosition(held, setup)) return;
  const before = snapshot();
  try {
    const a = await api("analyze", {
      position: withDead(setup, proposedPoints(state.proposal)), layer: state.layer, labels: labelsOf(),
      numbers: $("numbers").checked,
    });
    if (state.setup !== setup || state.scoring !== "marking") return;
    pushUndo(before);
    show(await packed(a));
  } catch (e) {
    showError(e);
  }
}
// The point a tap selected, with "confirm moves": outlined on the board, named on the button.
function selectPending(label) {
  setPending(label);
  for (const e of document.querySelectorAll("#board rect.point.pending")) e.classList.remove("pending");
  const rect = document.querySelector(`#board rect.point[data-point='${label}']`);
  if (rect) rect.classList.add("pending");
  const b = $("confirm-play");
  b.textContent = "play " + (state.shown[label] || label);
  b.hidden = false;
}
export function confirmPending() {
  if (state.pending) return play(state.pending);
}
// A move played (`quiet`: read back from a link, no history entry).
export async function play(move, quiet = false) {
  setPending(null);
  $("confirm-play").hidden = true;
  busy("playing…");
  if (!quiet) markVisit();
  try {
    const before = state.setup;
    const undoEntry = snapshot();
    // one request a move: the play answer carries the next position's analysis
    const a = await api("play", {
      position: before, moves: [move], labels: labelsOf(),
      analysis: true, layer: state.layer, numbers: $("numbers").checked,
    });
    const a2 = await packed(a.analysis);
    pushUndo(undoEntry);
    playedMove(before, a.reports[0].notation);
    if (state.record && state.inRecord) leaveRecord("played " + a.shown[0].notation + " from move " + state.record.at + " of the record");
    else if (state.record && state.playedFromRecord) namePlayed(a.shown[0].notation);
    show(a2);
    showError(null);
    setReport({ shown: a.shown[0], notation: a.reports[0].notation, before });
    drawMoveList();
  } catch (e) {
    showError(e);
  }
  busy("");
}
// The record's status after a further move played from it: every move played is named.
function namePlayed(notation) {
  const st = $("record-status");
  const m = st.textContent.match(/^played (.*) from move (\d+) of the record$/);
  if (m) st.textContent = "played " + m[1] + ", " + notation + " from move " + m[2] + " of the record";
}
export function pass() {
  return play("pass");
}
// Back to the position before the last change.
export async function undo() {
  const prev = popUndo();
  if (prev === undefined) return;
  if (await judge(prev.setup)) {
    const inRecord = restore(prev);
    setReport(prev.report);
    if (inRecord) $("record-status").textContent = recordStatus(state.record, true);
    drawMoveList();
    // the URL follows the view restored (back in the record, say)
    saveUrl();
  } else {
    pushUndo(prev);
  }
}
