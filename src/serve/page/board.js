// The board and the analysis shown beside it. The board is m3go's own SVG figure, each point a
// <rect class="point" data-point="LABEL"> (the Chinese label, whatever the labels shown). Every
// text with points in it comes from the server in the chosen label system: the page rewrites no
// text.
import { $, api, busy, labelsOf, li, showError } from "./api.js";
import { pointText } from "./describe.js";
import { packPosition } from "./links.js";
import { cellOf, deadOf, shownName } from "./position.js";
import { scoringIntoView, showScore, showScoring } from "./score.js";
import { proposalToMark } from "./proposal.js";
import { samePosition } from "./scoring.js";
import { adoptAnswer, setCursor, setDrawnRules, state } from "./state.js";
import { drawOptions, saveUrl } from "./view.js";

const SVGNS = "http://www.w3.org/2000/svg";
const name = (n) => shownName(state.shown, n);

// Judges `position` (the position file's object, or a pasted file's text); on success the page
// takes it as the position, on failure nothing changes (the board, the controls and the state
// stay those of the last judged position). `file`: the name of the file it was read from, for
// the server's messages.
export async function judge(position, file) {
  busy("judging…");
  try {
    const a = await api("analyze", {
      position, layer: state.layer, labels: labelsOf(), numbers: $("numbers").checked, ...(file ? { file } : {}),
    });
    await packed(a);
    show(a);
    showError(null);
    busy("");
    return true;
  } catch (e) {
    showError(e);
    busy("");
    return false;
  }
}
// An analysis answer with its position packed for a link (the URL is written as it is shown).
export async function packed(a) {
  a.packed = await packPosition(a.setup);
  return a;
}
// Each answer shown, with its position when the scoring phase opened on it unmarked (else null):
// main.js registers what marks the proposal.
let onOpen = null;
export function onScoringOpens(f) {
  onOpen = f;
}
// Each figure drawn: main.js registers what draws the variations' letters and list on it.
let onDrawn = null;
export function onBoardDrawn(f) {
  onDrawn = f;
}
export function show(a) {
  const [was, prev] = [state.scoring, state.setup];
  adoptAnswer(a);
  const opened = state.scoring === "marking" && (was === null || !samePosition(prev, a.setup));
  if (onOpen) onOpen(opened && proposalToMark(deadOf(a.setup), state.proposal) ? a.setup : null);
  adopt(a.analysis);
  drawBoard(a.svg, a.at);
  showScoring();
  // the board first; the lists once it is painted
  const shownNow = a.analysis;
  requestAnimationFrame(() => setTimeout(() => {
    if (state.analysis === shownNow) showAnalysis(shownNow);
  }, 0));
  saveUrl();
}
// The controls follow the judged position.
function adopt(an) {
  $("size").value = String(an.size);
  $("move").value = String(an.move);
  $("preset").value = an.rules.preset;
  const rules = JSON.stringify(an.rules);
  if (rules !== state.drawnRules) {
    setDrawnRules(rules);
    drawOptions();
  }
}
export function toolOf() {
  return document.querySelector("input[name=tool]:checked").value;
}
export function chooseTool(tool) {
  document.querySelector(`input[name=tool][value=${tool}]`).checked = true;
}
export function drawBoard(svg, at) {
  const board = $("board");
  board.innerHTML = svg;
  board.dataset.at = at === undefined ? "" : String(at);
  if (at === undefined) board.dataset.analysed = "";
  board.dataset.layer = state.layer;
  for (const b of document.querySelectorAll("#layers button")) {
    b.classList.toggle("on", b.dataset.layer === state.layer);
    b.setAttribute("aria-pressed", String(b.dataset.layer === state.layer));
  }
  const svgEl = board.querySelector("svg");
  if (svgEl) {
    svgEl.setAttribute("role", "img");
    // a figure scaled to the height it is given keeps its top at the top (style.css)
    svgEl.setAttribute("preserveAspectRatio", "xMidYMin meet");
    svgEl.setAttribute("aria-label", "board, " + state.size + "×" + state.size);
    fitLegend(svgEl);
  }
  // the legend again as text below the figure: a phone hides the figure's own (style.css)
  const legend = $("legend");
  legend.textContent = "";
  for (const t of board.querySelectorAll("text.legend")) li(legend, t.textContent);
  if (state.cursor) placeCursor(state.cursor);
  if (onDrawn) onDrawn();
}
// A small board's legend is wider than its figure (on 5×5 up to x 700 of 680): the view box
// widened to hold it, the figure scaled down a little (a phone's hidden legend measures 0).
function fitLegend(svgEl) {
  const g = svgEl.querySelector("g.legend");
  const v = svgEl.viewBox.baseVal;
  if (!g || !v || state.size >= 19) return;
  const b = g.getBBox();
  const w = Math.ceil(b.x + b.width + 10);
  if (b.width === 0 || w <= v.width) return;
  svgEl.setAttribute("viewBox", "0 0 " + w + " " + v.height);
  svgEl.setAttribute("width", String(w));
}
// The hover label and the preview of the stone the schedule places next (黑/白/华/花).
export function hoverPoint(label) {
  const old = document.querySelector("#board .preview");
  if (old) old.remove();
  if (!label) {
    $("hover").textContent = "";
    return;
  }
  const rect = document.querySelector(`#board rect.point[data-point='${label}']`);
  $("hover").textContent = name(label);
  const an = state.analysis;
  if (!rect || !an || toolOf() !== "play" || an.game_over) return;
  const [r, c] = cellOf(label, state.size);
  if (state.grid[r] && state.grid[r][c] !== ".") return;
  const x = Number(rect.getAttribute("x")), y = Number(rect.getAttribute("y"));
  const w = Number(rect.getAttribute("width"));
  const g = document.createElementNS(SVGNS, "circle");
  g.setAttribute("class", "preview preview-" + (an.to_move.kind === "flower" ? "flower" : an.to_move.player));
  g.setAttribute("cx", String(x + w / 2));
  g.setAttribute("cy", String(y + w / 2));
  g.setAttribute("r", String(w * 0.46));
  const fill = an.to_move.kind === "flower" ? "url(#flower)" : an.to_move.player === "black" ? "#111" : "#f8f8f8";
  g.setAttribute("fill", fill);
  g.setAttribute("fill-opacity", "0.5");
  g.setAttribute("stroke", "#333");
  g.setAttribute("pointer-events", "none");
  g.dataset.symbol = an.to_move.symbol;
  rect.parentNode.insertBefore(g, rect);
}
// The keyboard cursor: a square outline on the point, moved by the arrow keys on the board.
export function placeCursor(label) {
  setCursor(label);
  const old = document.querySelector("#board .cursor");
  if (old) old.remove();
  const rect = document.querySelector(`#board rect.point[data-point='${label}']`);
  if (!rect) return;
  const c = rect.cloneNode(false);
  c.setAttribute("class", "cursor");
  c.removeAttribute("data-point");
  c.setAttribute("fill", "none");
  c.setAttribute("stroke", "#0a84ff");
  c.setAttribute("stroke-width", "3");
  c.setAttribute("pointer-events", "none");
  rect.parentNode.appendChild(c);
  $("board").setAttribute("aria-activedescendant", "");
  // the live region says what is on the point, not only its name
  $("hover").textContent = pointText(state.analysis, label, name, deadOf(state.setup));
}
export function showAnalysis(an) {
  const t = an.to_move;
  $("tomove").textContent = "to play: " + t.symbol + an.move + " (" + t.player + ", " + t.kind + ")" +
    (an.game_over ? " — the game is over" : "");
  $("summary").textContent = an.size + "×" + an.size + ", rules " + an.rules.preset + ", " +
    an.legal_moves.length + " legal moves";
  const eyes = $("eyes");
  eyes.innerHTML = "";
  for (const s of an.strings) {
    for (const e of s.private_eyes) {
      li(eyes, s.colour + " " + name(s.name) + ": private eye " + e.points.map(name).join(" "), s.colour + "-eye");
    }
  }
  if (!eyes.children.length) li(eyes, "none");
  const flowers = $("flowers");
  flowers.innerHTML = "";
  for (const f of an.flowers) {
    const e = li(flowers, name(f.name) + ": " + f.attribute + " (Hs=" + f.hs + " Hw=" + f.hw + " Bs=" + f.bs +
      " Bw=" + f.bw + "; " + f.clause + ")");
    e.dataset.flower = f.name;
    e.dataset.attribute = f.attribute;
  }
  if (!flowers.children.length) li(flowers, "none");
  const forb = $("forbidden");
  forb.innerHTML = "";
  for (const [who, list] of [["black's 华 (■)", an.forbidden.black], ["white's 花 (▲)", an.forbidden.white]]) {
    for (const f of list) {
      li(forb, name(f.point) + " to " + who + ": " + f.reason + (f.owner ? " of " + f.owner : "") + " (" + f.clause + ")");
    }
  }
  if (!forb.children.length) li(forb, "none");
  showScore(an);
  scoringIntoView();
}
