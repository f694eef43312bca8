// The live view of a match (`m3go match … --serve`, /watch): long polling of /api/watch (each
// answer holds the games changed since the version asked for, and waits on the server when
// nothing changed: no reload, no busy loop), the games' list, a board per game redrawn as it
// changes, the forfeits with their clause, the results table as it grows, and a finished game
// opened as a record in the adjudication page (/#record=…, links.js's fragment).
import { packText, viewHash } from "./links.js";

const games = new Map();
// the boards drawn: every game in a match of up to BOARDS_ALL games, else the games playing
// and the last BOARDS_FINISHED finished
const BOARDS_ALL = 32;
const BOARDS_FINISHED = 16;
let version = 0;
let over = null;

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const k of kids) e.append(k);
  return e;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = !message;
}

// The board of a diagram (`.`, `X`, `O`, `#` rows, top row first) as SVG: each stone a circle
// with its point (`data-at="row col"`, from the top left) and its kind (`st-X`, `st-O`, `st-G`
// for the grey stone `#`).
const SVG = "http://www.w3.org/2000/svg";
function boardSvg(diagram, caption) {
  const rows = diagram.trim().split("\n").map((r) => r.trim().split(/\s+/));
  const n = rows.length;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `-1 -1 ${n + 1} ${n + 1}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", caption);
  const add = (parent, tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.append(e);
    return e;
  };
  add(svg, "rect", { x: -1, y: -1, width: n + 1, height: n + 1, class: "wood" });
  const grid = add(svg, "g", { class: "grid" });
  for (let k = 0; k < n; k++) {
    add(grid, "line", { x1: 0, y1: k, x2: n - 1, y2: k });
    add(grid, "line", { x1: k, y1: 0, x2: k, y2: n - 1 });
  }
  rows.forEach((row, r) => row.forEach((ch, c) => {
    if (ch === ".") return;
    const kind = ch === "#" ? "G" : ch;
    add(svg, "circle", { cx: c, cy: r, r: 0.46, class: "stone st-" + kind, "data-at": r + " " + c });
  }));
  return svg;
}

// A finished game's record opened in the adjudication page, at its last move.
async function openRecord(g) {
  try {
    const r = await fetch("/api/watch-record?game=" + g.game, { cache: "no-store" });
    const text = await r.text();
    if (!r.ok) throw new Error(JSON.parse(text).error);
    const data = await packText(text);
    location.assign("/#" + viewHash({ record: g.record, at: g.moves, data }));
  } catch (e) {
    showError("game " + g.game + ": the record cannot be opened: " + e.message);
  }
}

function stateText(g) {
  if (g.state === "playing") return "playing";
  if (g.state === "finished") return "finished (" + g.ending + ")";
  return g.state.replace("-", " ");
}

function row(g) {
  const tr = el("tr", { className: g.state });
  tr.dataset.game = g.game;
  const cells = [g.game, g.black, g.white, stateText(g), g.moves, g.result || ""];
  for (const c of cells) tr.append(el("td", { textContent: String(c) }));
  const rec = el("td");
  if (g.record) {
    const a = el("a", { href: "/api/watch-record?game=" + g.game, textContent: g.record, className: "open" });
    a.addEventListener("click", (e) => {
      e.preventDefault();
      openRecord(g);
    });
    rec.append(a);
  }
  tr.append(rec);
  return tr;
}

function card(g) {
  const where = g.state === "playing"
    ? "move " + g.moves + (g.last ? " " + g.last : "") + (g.to_play ? " · to play " + g.to_play : "")
    : stateText(g) + (g.result ? " " + g.result : "") + " · " + g.moves + " moves" + (g.last ? " · last " + g.last : "");
  const caption = "game " + g.game + ": " + g.black + " (black) vs " + g.white + " (white) · " + where;
  const fig = el("figure", {}, el("figcaption", { textContent: caption }));
  fig.dataset.game = g.game;
  fig.dataset.state = g.state;
  if (g.board) fig.append(boardSvg(g.board, caption));
  if (g.forfeit) fig.append(el("p", { className: "forfeit", textContent: g.forfeit }));
  if (g.error) fig.append(el("p", { className: "forfeit", textContent: g.error }));
  return fig;
}

function render(answer) {
  $("title").textContent = answer.title;
  $("table-lines").replaceChildren(...answer.table.map((t) => el("li", { textContent: t })));
  const all = [...games.values()].sort((a, b) => a.game - b.game);
  $("games").tBodies[0].replaceChildren(...all.map(row));
  let shown = all.filter((g) => g.board);
  if (all.length > BOARDS_ALL) {
    const finished = shown.filter((g) => g.state !== "playing").slice(-BOARDS_FINISHED);
    shown = shown.filter((g) => g.state === "playing").concat(finished);
  }
  $("boards").replaceChildren(...shown.map(card));
  const count = (s) => all.filter((g) => g.state === s).length;
  const done = count("finished");
  let status = done + " of " + answer.count + " games finished, " + count("playing") + " playing";
  if (over) status = over + " · " + status;
  $("status").textContent = status;
  document.body.dataset.version = String(version);
  document.body.dataset.over = over ? "1" : "";
}

async function poll() {
  for (;;) {
    let answer;
    try {
      const r = await fetch("/api/watch?since=" + version, { cache: "no-store" });
      answer = await r.json();
      if (!r.ok) {
        showError(answer.error);
        await sleep(5000);
        continue;
      }
    } catch (e) {
      // the server restarting, or gone at the match's end: try again, never in a busy loop
      showError("the match's server does not answer (" + e.message + "): trying again");
      await sleep(2000);
      continue;
    }
    showError("");
    if (answer.version < version) games.clear();
    for (const g of answer.games) games.set(g.game, g);
    version = answer.version;
    over = answer.over;
    render(answer);
    if (over && !answer.more) return;
  }
}

poll();
