// m3go adjudication board. Everything is decided by the engine through /api/*; the page only
// keeps the position's object, sends it, and shows the answers. The modules:
//   state.js     the state, and the only place it changes (named updates)
//   position.js  labels, the position's object, formatting (pure)
//   keys.js      which key does what (pure)      keyboard.js  doing it, the help overlay
//   api.js       requests, the error box          board.js     the board and its analysis
//   edit.js      set-up, play, pass, undo         explain.js   clause traces, the cascade, readings
//   score.js     the count, its trace, the scoring phase   scoring.js  the same's pure part
//   proposal.js  the dead stones the engine proposes when the phase opens (pure)
//   branches.js  variations as a tree: the branches at a move, their letters, the SGF's
//   variations.js  the same's pure part
//   records.js   loading and stepping a record    movelist.js  the moves, information, comments
//   controls.js  a redraw, a rule option changed, files, export
//   share.js     the URL read back (links, back/forward), the ruling saved and read back
//   links.js     a view as a link, the record or the position packed into it (pure)
//   ruling.js    the ruling's HTML (pure)     recordtext.js  an SGF's lines, replay notes (pure)
//   describe.js  what is on a point, for the cursor's live region (pure)
//   captures.js  the stones each player has captured in the record browsed
//   view.js      the URL saved, the rules chosen, the rule options' inputs
//   main.js      this: wiring the controls
// The imports point one way, down: main.js → keyboard.js, share.js, controls.js → edit.js → records.js →
// board.js, movelist.js → view.js, explain.js → api.js, position.js, state.js, keys.js, and the
// pure links.js → scoring.js. Where a
// lower module calls up (a move clicked in the list, a rule option changed), main.js registers
// the function with it.
import { $, api, noteCjkFont, showError } from "./api.js";
import { hoverPoint, judge, onBoardDrawn, onScoringOpens, placeCursor } from "./board.js";
import { drawBranches } from "./branches.js";
import { exportAs, readFile, readText, rerender, ruleOptionChanged } from "./controls.js";
import { buildPosition, clickPoint, confirmPending, holdProposal, markProposal, pass, setUp, undo } from "./edit.js";
import { explain, readings } from "./explain.js";
import { installKeys } from "./keyboard.js";
import { onMoveClick } from "./movelist.js";
import { cellOf, emptyGrid, labelAt } from "./position.js";
import { chooseLine, clearCache, go, loadRecord, relabel, step } from "./records.js";
import { acceptScore } from "./score.js";
import { listenUrl, openView, positionText, rulingOpened, saveRuling } from "./share.js";
import { setChosen, setLayer, setMove, setOptions, setRules, setSize, state } from "./state.js";
import { markVisit, onRuleOption } from "./view.js";

// For the browser test and the console: the state (to read) and the labels' cells.
window.state = state;
window.cellOf = cellOf;

// A jump to a move (not a step) is a view a referee comes back to: a history entry.
const jump = (to) => {
  markVisit();
  go(to);
};
// The calls up from the lower modules.
onMoveClick(jump);
onRuleOption(ruleOptionChanged);
onScoringOpens(markProposal);
onBoardDrawn(drawBranches);

const presetRules = (name) => ({ ...state.options.presets.find((p) => p.name === name).rules });

async function main() {
  noteCjkFont();
  for (let n = 3; n <= 19; n += 2) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = n + "×" + n;
    $("size").appendChild(o);
  }
  const options = await api("options");
  for (const p of options.presets) {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = p.name;
    $("preset").appendChild(o);
  }
  setOptions(options);
  $("size").value = "9";

  $("size").addEventListener("change", () => {
    setSize(Number($("size").value));
    setUp(buildPosition(emptyGrid(state.size)), "new board");
  });
  $("move").addEventListener("change", () => {
    setMove(Math.max(1, Number($("move").value) || 1));
    setUp(buildPosition(), "move number set");
  });
  $("preset").addEventListener("change", () => {
    const keep = [state.rules, state.chosen];
    setChosen(presetRules($("preset").value));
    setRules(state.chosen);
    const undo = (ok) => {
      if (ok) return;
      setRules(keep[0]);
      setChosen(keep[1]);
    };
    // browsing a mechanical replay, the rules chosen are those it is replayed under
    if (state.record && state.inRecord && state.record.mechanical) return loadRecord(state.record.text, state.record.name).then(undo);
    setUp(buildPosition(), "rules changed").then(undo);
  });
  $("labels").addEventListener("change", async () => {
    clearCache();
    await relabel();
    await rerender();
    if ($("trace").textContent && $("target").value.trim()) explain($("target").value.trim());
  });
  $("numbers").addEventListener("change", rerender);
  $("clear").addEventListener("click", () => setUp(buildPosition(emptyGrid(state.size)), "board cleared"));
  for (const b of document.querySelectorAll("#layers button")) {
    b.addEventListener("click", async () => {
      markVisit();
      setLayer(b.dataset.layer);
      await rerender();
    });
  }
  $("undo").addEventListener("click", undo);
  $("pass").addEventListener("click", pass);
  $("score-accept").addEventListener("click", acceptScore);
  $("error-close").addEventListener("click", () => showError(null));
  $("explain-btn").addEventListener("click", () => explain($("target").value.trim()));
  $("target").addEventListener("keydown", (e) => { if (e.key === "Enter") explain($("target").value.trim()); });
  $("readings-btn").addEventListener("click", readings);
  // a position file, or a ruling (its position read back)
  const openPosition = (t, name) => {
    let position;
    try {
      position = positionText(t, name || "pasted text");
    } catch (e) {
      return showError(e);
    }
    // a ruling's position is its object: shown as its JSON text (which a position file may be)
    $("position-text").value = typeof position === "string" ? position : JSON.stringify(position, null, 1);
    // the rules of a position loaded are the rules chosen from then on; its dead marks are
    // the referee's (no proposal)
    holdProposal(true);
    setUp(position, "position loaded", name).then((ok) => {
      holdProposal(false);
      if (!ok) return;
      setChosen(state.rules);
      rulingOpened(t);
    });
  };
  $("position-load").addEventListener("click", () => openPosition($("position-text").value));
  $("position-file").addEventListener("change", () => readFile($("position-file"), openPosition));
  $("save-ruling").addEventListener("click", saveRuling);
  $("lines").addEventListener("change", () => chooseLine(Number($("lines").value)));
  $("confirm-play").addEventListener("click", confirmPending);
  $("record-file").addEventListener("change", () => readFile($("record-file"), (t, name) => {
    $("record-text").value = t;
    loadRecord(t, name);
  }));
  $("record-load").addEventListener("click", () => loadRecord($("record-text").value, "pasted record"));
  $("mechanical").addEventListener("change", () => state.record && loadRecord(state.record.text, state.record.name));
  $("record-go").addEventListener("click", () => jump(Number($("record-to").value) || 0));
  $("record-to").addEventListener("keydown", (e) => { if (e.key === "Enter") jump(Number($("record-to").value) || 0); });
  $("first").addEventListener("click", () => jump(0));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("last").addEventListener("click", () => state.record && jump(state.record.last));
  for (const b of document.querySelectorAll("[data-export]")) {
    b.addEventListener("click", () => exportAs(b.dataset.export));
  }
  installKeys();
  // the points' clicks and hovers, listened to once on the board
  const pointOf = (e) => e.target.closest && e.target.closest("rect.point");
  $("board").addEventListener("click", (e) => {
    const r = pointOf(e);
    if (r) clickPoint(r.dataset.point);
  });
  $("board").addEventListener("mouseover", (e) => {
    const r = pointOf(e);
    hoverPoint(r ? r.dataset.point : null);
  });
  $("board").addEventListener("mouseleave", () => hoverPoint(null));
  $("board").addEventListener("focus", () => { if (!state.cursor) placeCursor(labelAt((state.size - 1) / 2, (state.size - 1) / 2, state.size)); });
  // drag and drop: an SGF (or game file) dropped anywhere on the page is loaded as the record
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dropping"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
  document.addEventListener("drop", (e) => {
    e.preventDefault();
    document.body.classList.remove("dropping");
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) {
      readText(f, (t) => {
        $("record-text").value = t;
        loadRecord(t, f.name);
      });
    }
  });
  await openView(() => judge(buildPosition()));
  listenUrl();
  document.body.dataset.ready = "1";
}

main().catch(showError);
