// The score beside the board and the scoring phase: the count, the owners' table with its
// legend, the clause trace of the count (why each region counts for whom, each line focusable
// and its clause ids buttons that open the clause), and the phase's panel under the board
// (mark dead strings, accept the count).
import { $, li } from "./api.js";
import { showClause } from "./explain.js";
import { deadOf, labelAt, shownName } from "./position.js";
import { proposalText } from "./proposal.js";
import { legendText, ownerKind, ownerLetter, phaseText, traceLines } from "./scoring.js";
import { setScoring, state } from "./state.js";
import { saveUrl } from "./view.js";

const name = (n) => shownName(state.shown, n);

// The phase's panel: shown while the page is in it, with what to do or the count accepted.
export function showScoring() {
  const box = $("scoring");
  const an = state.analysis;
  if (box.hidden && state.scoring) intoView = true;
  box.hidden = !state.scoring;
  box.dataset.phase = state.scoring || "";
  if (!state.scoring || !an) return;
  $("scoring-text").textContent = phaseText(state.scoring, an.score, deadOf(state.setup).length);
  $("scoring-proposal").textContent = proposalText(deadOf(state.setup), state.proposal, name);
  $("score-accept").textContent = state.scoring === "accepted" ? "change the dead marks" : "accept the count";
}
// The phase opened: its panel is brought into view once the analysis is drawn (board.js calls
// this then; a phone has the panel below the board, its steps bar over the screen's bottom).
let intoView = false;
export function scoringIntoView() {
  if (!intoView) return;
  intoView = false;
  const box = $("scoring");
  const r = box.getBoundingClientRect();
  const steps = $("steps").getBoundingClientRect();
  const bottom = getComputedStyle($("steps")).position === "sticky" ? Math.min(innerHeight, steps.top) : innerHeight;
  if (!box.hidden && (r.top < 0 || r.bottom > bottom)) box.scrollIntoView({ block: "center" });
}
// The accept button: the count accepted, or the marks open again.
export function acceptScore() {
  setScoring(state.scoring === "accepted" ? "marking" : "accepted");
  showScoring();
  saveUrl();
}

export function showScore(an) {
  const box = $("score");
  box.innerHTML = "";
  const dead = deadOf(state.setup);
  if (dead.length) {
    const d = document.createElement("p");
    d.id = "dead-list";
    d.textContent = "marked dead: " + dead.length + " stone" + (dead.length > 1 ? "s" : "") + " (" + dead.map(name).join(" ") + ")";
    box.appendChild(d);
  }
  if (!an.score) {
    box.appendChild(document.createTextNode(an.score_error || "not scored"));
    return;
  }
  const s = an.score;
  const p = document.createElement("p");
  p.id = "score-line";
  p.textContent = "black " + s.black + " · white " + s.white + " · neutral " + s.neutral +
    " (half-points), komi " + s.komi_quarters / 4 + " → " + s.winner;
  box.appendChild(p);
  box.appendChild(ownerTable(an));
  // the letters' legend, under the table (a caption would wrap to its width)
  const legend = document.createElement("p");
  legend.id = "score-legend";
  legend.className = "hint";
  legend.textContent = legendText();
  box.appendChild(legend);
  box.appendChild(traceList());
}
// The owner of each point, a letter a cell (its legend: #score-legend, under it).
function ownerTable(an) {
  const owner = {};
  for (const e of an.score.points) owner[e.point] = [e.owner, e.clause];
  const table = document.createElement("table");
  table.setAttribute("aria-label", "the owner of each point");
  table.setAttribute("aria-describedby", "score-legend");
  for (let r = 0; r < an.size; r++) {
    const tr = document.createElement("tr");
    for (let c = 0; c < an.size; c++) {
      const label = labelAt(r, c, an.size);
      const td = document.createElement("td");
      const o = owner[label];
      if (o) {
        const kind = ownerKind(o[0], label, state.scoreTrace);
        td.className = kind;
        td.title = name(label) + ": " + kind + " (" + o[1] + ")";
        td.textContent = ownerLetter(kind);
      }
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  return table;
}
// The keys of the trace's lines: ↑/↓ (Home/End) move the focus, Enter or Space opens the clause
// of the line focused.
function traceKey(e) {
  const line = e.target.closest("li");
  if (!line) return;
  const lines = [...e.currentTarget.children];
  const k = lines.indexOf(line);
  const to = { ArrowDown: k + 1, ArrowUp: k - 1, Home: 0, End: lines.length - 1 }[e.key];
  if (to !== undefined) {
    e.preventDefault();
    const next = lines[Math.max(0, Math.min(lines.length - 1, to))];
    line.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  } else if (e.key === "Enter" || e.key === " ") {
    const b = line.querySelector("button:not([disabled])");
    if (b) {
      e.preventDefault();
      b.click();
    }
  }
}
// The count's clause trace: one focusable line a region (its points lit on the board while it
// has the focus), its clause ids buttons opening the clause in the clause view.
function traceList() {
  const wrap = document.createElement("div");
  const h = document.createElement("h3");
  h.id = "score-trace-title";
  h.textContent = "why: the count region by region";
  const list = document.createElement("ol");
  list.id = "score-trace";
  list.setAttribute("aria-labelledby", "score-trace-title");
  // one Tab stop: the first line takes the focus, ↑/↓ move it, Enter opens the line's clause
  list.addEventListener("keydown", traceKey);
  for (const line of traceLines(state.scoreTrace, name)) {
    const e = li(list, "");
    e.tabIndex = list.children.length === 1 ? 0 : -1;
    e.className = "trace-" + line.owner;
    e.dataset.clauses = line.clauses.join(" ");
    e.append(document.createTextNode(line.owner + " — " + line.text + " "));
    for (const id of line.clauses) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "clause-ref";
      b.tabIndex = -1;
      b.textContent = id;
      const c = state.scoreClauses.find((x) => x.id === id);
      if (c) b.addEventListener("click", () => showClause(c, line.owner + " — " + line.text));
      else b.disabled = true;
      e.appendChild(b);
    }
    const lit = (on) => {
      for (const p of line.points) {
        const rect = document.querySelector(`#board rect.point[data-point='${p}']`);
        if (rect) rect.classList.toggle("selected", on);
      }
    };
    e.addEventListener("focusin", () => lit(true));
    e.addEventListener("focusout", () => lit(false));
    e.addEventListener("mouseenter", () => lit(true));
    e.addEventListener("mouseleave", () => lit(false));
  }
  if (!list.children.length) li(list, "no trace");
  wrap.append(h, list);
  return wrap;
}
