// Variations as a tree on the page (as Sabaki's): at a record's move, the branches that leave it
// — the record's own next move (A), the SGF's other lines that part from it there, and the moves
// the referee played from it (kept when the record is taken up again) — listed as buttons under
// the steps (Tab reaches them) and marked on the board by their letters; a branch chosen is
// followed (its line loaded, its moves played). The SGF export writes them as variations.
import { $, api, labelsOf } from "./api.js";
import { play } from "./edit.js";
import { chooseLine, go, linesOf, loadRecord, recordTo } from "./records.js";
import { shownName } from "./position.js";
import { state } from "./state.js";
import { branchesAt, lineMoves, mergeLines, notationPoint } from "./variations.js";

const SVGNS = "http://www.w3.org/2000/svg";
// The referee's lines, each left from a record's move: { text and name of the record it leaves,
// at (the record's move), prefix (the record's moves to there, notation), start (the record's
// start position), moves (notation) }.
const played = [];
// Each line's moves (SGF move keys), by its text.
const movesCache = new Map();
function movesOf(text) {
  if (!movesCache.has(text)) {
    if (movesCache.size > 400) movesCache.clear();
    movesCache.set(text, lineMoves(text));
  }
  return movesCache.get(text);
}
// The record's line among the SGF's: its index (the file itself is its main line, 0; -1: a
// record of one line) and its text as a line (the key of the moves played from it).
function lineOf(rec) {
  const set = linesOf();
  let own = set.lines.findIndex((l) => l.text === rec.text);
  if (own < 0 && set.lines.length && set.text === rec.text) own = 0;
  return { set, own, text: own >= 0 ? set.lines[own].text : rec.text };
}
// How many of the record's moves are played at its move `at`.
const movesTo = (rec, at) => rec.moves.findIndex((m) => m.number === at) + 1;

// The moves played from the record kept as a line (the last one played from a move, by its first
// move: a line played again from there replaces it).
function keepPlayed() {
  const rec = state.record;
  if (!rec || state.inRecord || !state.playedFromRecord || !state.played.length) return;
  const first = state.played[0];
  const text = lineOf(rec).text;
  let p = played.find((x) => x.text === text && x.at === rec.at && x.moves[0] === first);
  if (!p) {
    const upTo = rec.moves.slice(0, movesTo(rec, rec.at));
    p = { text, name: rec.name, at: rec.at, prefix: upTo.map((m) => m.chinese), start: rec.startSetup, moves: [] };
    played.push(p);
  }
  p.moves = [...state.played];
}
// The branches at the record's move shown (none off the record).
function branchesHere() {
  const rec = state.record;
  if (!rec || !state.inRecord) return [];
  const { set, own, text } = lineOf(rec);
  // a record of one line: its SGF moves, or (a game file) its moves' notation
  const single = movesOf(rec.text).length ? movesOf(rec.text) : rec.moves.map((m) => m.chinese);
  const lines = own >= 0 ? set.lines.map((l) => ({ moves: movesOf(l.text) })) : [{ moves: single }];
  const n = movesTo(rec, rec.at);
  const mine = played.filter((p) => p.text === text && p.at === rec.at);
  const list = branchesAt(lines, Math.max(0, own), n, state.size, mine);
  // the record's own next move: its point as replayed (a game file has no SGF keys)
  if (list.length && list[0].kind === "line" && rec.moves[n]) list[0].point = notationPoint(rec.moves[n].chinese);
  return list.map((b) => ({ ...b, played: b.kind === "played" ? mine[b.index] : null }));
}
// The list under the steps and the letters on the board (board.js calls this after each figure).
export function drawBranches() {
  keepPlayed();
  for (const e of document.querySelectorAll("#board .branch-marker")) e.remove();
  const box = $("branches");
  const list = branchesHere();
  box.hidden = list.length < 2;
  box.textContent = "";
  if (box.hidden) return;
  const rec = state.record;
  const n = movesTo(rec, rec.at);
  const name = (p) => (p ? shownName(state.shown, p) : "pass");
  const title = document.createElement("span");
  title.textContent = "variations here:";
  box.appendChild(title);
  for (const b of list) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "branch";
    button.dataset.letter = b.letter;
    const what = b.kind === "played" ? "played from here (" + b.played.moves.length + " moves)" :
      b.index === 0 ? "main line" : "variation " + b.index;
    button.textContent = b.letter + " " + name(b.point) + " · " + what;
    button.setAttribute("aria-label", "variation " + b.letter + ": " + name(b.point) + ", " + what);
    button.addEventListener("click", () => follow(b, n));
    box.appendChild(button);
    if (b.point) mark(b.point, b.letter);
  }
}
// A branch's letter on its next move's point (two branches on one point share it: "A/B").
function mark(point, letter) {
  const rect = document.querySelector(`#board rect.point[data-point='${point}']`);
  if (!rect) return;
  const old = document.querySelector(`#board .branch-marker[data-point='${point}']`);
  if (old) {
    old.textContent += "/" + letter;
    return;
  }
  const w = Number(rect.getAttribute("width"));
  const t = document.createElementNS(SVGNS, "text");
  t.setAttribute("class", "branch-marker");
  t.dataset.point = point;
  t.setAttribute("x", String(Number(rect.getAttribute("x")) + w / 2));
  t.setAttribute("y", String(Number(rect.getAttribute("y")) + w / 2));
  t.setAttribute("font-size", String(w * 0.6));
  t.setAttribute("text-anchor", "middle");
  t.setAttribute("dominant-baseline", "central");
  t.setAttribute("pointer-events", "none");
  t.textContent = letter;
  rect.parentNode.appendChild(t);
}
// A branch followed: its line loaded if it is another one, then its next move (a line) or the
// moves played (the referee's line, as a link's moves are played back).
async function follow(b, n) {
  if (b.kind === "line") {
    const { set, own } = lineOf(state.record);
    if (set.lines.length && b.index !== own && !(await chooseLine(b.index))) return;
    const m = state.record.moves[n];
    if (m) go(m.number);
    return;
  }
  const p = b.played;
  if (lineOf(state.record).text !== p.text && !(await loadRecord(p.text, p.name))) return;
  if (!(await recordTo(p.at))) return;
  for (const m of p.moves) await play(m, true);
}

// ---- the SGF export with its variations ---------------------------------------------------------
// The SGF `text` exported of the record's line (its start, its moves to the move shown and those
// played after it) with the record's other lines and the referee's lines as variations: the
// SGF's lines as the file writes them (not for a mechanical replay, whose moves are not the
// file's), the referee's as the server writes them.
export async function withVariations(text) {
  const rec = state.record;
  if (!rec) return text;
  const { set, own, text: line } = lineOf(rec);
  const others = rec.mechanical || own < 0 ? [] : set.lines.map((l) => l.text);
  for (const p of played.filter((x) => x.text === line || (own >= 0 && set.lines.some((l) => l.text === x.text)))) {
    const a = await api("export", { format: "sgf", labels: labelsOf(), start: p.start, moves: [...p.prefix, ...p.moves] });
    others.push(a.text);
  }
  return others.length ? mergeLines([text, ...others]) : text;
}
