// m3go adjudication board. Everything is decided by the engine through /api/*; this script only
// keeps the position's text, sends it, and shows the answers. The board is m3go's own SVG figure,
// each point a <rect class="point" data-point="LABEL"> (the Chinese label, whatever the labels
// shown). Every text with points in it comes from the server in the chosen label system: the
// page rewrites no text.
"use strict";

const $ = (id) => document.getElementById(id);
const LABELS_ZH = "IHGFEDCBAO一二三四五六七八九";
const SVGNS = "http://www.w3.org/2000/svg";

const state = {
  options: null,       // /api/options
  size: 9,
  grid: [],            // rows of ".", "X", "O", "#": the judged position's direct board
  move: 1,
  rules: null,         // the full rules object
  yaml: "",            // the position's text: the one thing the server judges
  layer: "holographic",
  undo: [],            // earlier states: { yaml, report, played, start, at }
  analysis: null,
  report: null,        // the last move's cascade shown: { shown, notation, before }
  record: null,        // { id, text, name, mechanical, moves, first, last, at, startYaml }
  start: null,         // the position text the played moves start from (for exporting a game)
  played: [],          // moves played from `start` (notation)
  playedFromRecord: false, // `start` is a position of the loaded record
  cursor: null,        // the point the keyboard cursor is on
  shown: {},           // Chinese label -> the label shown (latin labels)
};

// ---- labels -------------------------------------------------------------------------------
function labelsOf() {
  return $("labels").value;
}
function labelAt(r, c, n) {
  const h = (n - 1) / 2;
  return LABELS_ZH[c - h + 9] + LABELS_ZH[h - r + 9];
}
function cellOf(label, n) {
  const h = (n - 1) / 2;
  const x = LABELS_ZH.indexOf(label[0]) - 9, y = LABELS_ZH.indexOf(label[1]) - 9;
  return [h - y, x + h];
}

// ---- talking to the engine ------------------------------------------------------------------
// This tab's client token (128 random bits, kept for the tab in sessionStorage): the server keeps
// the records this page loads for it alone (X-M3go-Client).
const CLIENT = (() => {
  let t = null;
  try { t = sessionStorage.getItem("m3go-client"); } catch (e) { /* storage off */ }
  if (!t || !/^[0-9a-f]{32}$/.test(t)) {
    const bits = new Uint8Array(16);
    crypto.getRandomValues(bits);
    t = Array.from(bits, (b) => b.toString(16).padStart(2, "0")).join("");
    try { sessionStorage.setItem("m3go-client", t); } catch (e) { /* storage off */ }
  }
  return t;
})();
async function api(name, body) {
  const opts = body === undefined ? { headers: { "X-M3go-Client": CLIENT } } : {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-M3go-Client": CLIENT },
    body: JSON.stringify(body),
  };
  const res = await fetch("/api/" + name, opts);
  const data = await res.json();
  if (!res.ok) {
    const e = new Error(data.error || ("HTTP " + res.status));
    e.status = res.status;
    throw e;
  }
  return data;
}
// The error box floats over the page (it never moves the board under the pointer).
function showError(e) {
  const box = $("error");
  if (e) {
    $("error-text").textContent = "error: " + e.message;
    box.hidden = false;
  } else {
    box.hidden = true;
    $("error-text").textContent = "";
  }
}
function busy(text) {
  $("status").textContent = text;
}
function notice(text) {
  $("notice").textContent = text;
}

// ---- the position as text -------------------------------------------------------------------
function rulesOverrides() {
  const presetName = $("preset").value;
  const preset = state.options.presets.find((p) => p.name === presetName).rules;
  const out = { preset: presetName };
  for (const o of state.options.options) {
    const v = state.rules[o.name];
    if (v !== null && v !== undefined && JSON.stringify(v) !== JSON.stringify(preset[o.name])) {
      out[o.name] = v;
    }
  }
  return out;
}
function buildYaml(grid = state.grid, extra = "") {
  const rows = grid.map((r) => "  " + r.join(" ")).join("\n");
  return "rules: " + JSON.stringify(rulesOverrides()) + "\nsize: " + grid.length +
    "\nmove: " + state.move + "\ndiagram: |\n" + rows + "\n" + extra;
}
function emptyGrid(n) {
  return Array.from({ length: n }, () => Array.from({ length: n }, () => "."));
}
// The dead stones of the judged position (its `dead:` list, as m3go writes it).
function deadOf(yaml) {
  const m = yaml.match(/^dead:\n((?:- .*\n)*)/m);
  return m ? m[1].split("\n").filter((l) => l.startsWith("- ")).map((l) => l.slice(2).replace(/^'|'$/g, "")) : [];
}
function withDead(yaml, dead) {
  const bare = yaml.replace(/^dead:\n(?:- .*\n)*/m, "");
  return dead.length ? bare + "dead: " + JSON.stringify(dead) + "\n" : bare;
}

// ---- the undo stack -------------------------------------------------------------------------
function snapshot() {
  return {
    yaml: state.yaml, report: state.report, played: [...state.played], start: state.start,
    playedFromRecord: state.playedFromRecord,
    record: state.record ? state.record.at : null, inRecord: state.inRecord,
  };
}
function pushUndo() {
  if (state.yaml) state.undo.push(snapshot());
}

// ---- showing an analysis ---------------------------------------------------------------------
// Judges `yaml`; on success the page takes it as the position, on failure nothing changes
// (the board, the controls and the state stay those of the last judged position).
async function judge(yaml) {
  busy("judging…");
  try {
    const a = await api("analyze", {
      position: yaml, layer: state.layer, labels: labelsOf(), numbers: $("numbers").checked,
    });
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
// A point or string name (`七A`, `七九*`) in the labels shown (the server's `shown` map).
function shownName(n) {
  const star = n.endsWith("*");
  const core = star ? n.slice(0, -1) : n;
  return (state.shown[core] || core) + (star ? "*" : "");
}
// A position set up by the controls (size, move, rules, clear, a pasted position): judged, and
// if it is taken while browsing a record, the record is left, and the status says so.
async function setUp(yaml, why) {
  const inRecord = state.record && state.inRecord;
  const before = snapshot();
  const ok = await judge(yaml);
  if (ok) {
    state.undo.push(before);
    state.start = null;
    state.played = [];
    state.playedFromRecord = false;
    setReport(null);
    if (inRecord) leaveRecord(why + ": the position left the record");
    drawMoveList();
    saveUrl();
  }
  return ok;
}
function show(a) {
  state.shown = a.shown || {};
  state.yaml = a.position;
  state.analysis = a.analysis;
  adopt(a.analysis);
  drawBoard(a.svg, a.at);
  // the board first; the lists once it is painted
  const shownNow = a.analysis;
  requestAnimationFrame(() => setTimeout(() => {
    if (state.analysis === shownNow) showAnalysis(shownNow);
  }, 0));
  saveUrl();
}
// The controls follow the judged position.
function adopt(an) {
  state.size = an.size;
  state.move = an.move;
  state.grid = an.boards.direct.map((row) => row.trim().split(/\s+/));
  state.rules = an.rules;
  $("size").value = String(an.size);
  $("move").value = String(an.move);
  $("preset").value = an.rules.preset;
  const rules = JSON.stringify(an.rules);
  if (rules !== state.drawnRules) {
    state.drawnRules = rules;
    drawOptions();
  }
}
function toolOf() {
  return document.querySelector("input[name=tool]:checked").value;
}
function drawBoard(svg, at) {
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
    svgEl.setAttribute("aria-label", "board, " + state.size + "×" + state.size);
  }
  if (state.cursor) placeCursor(state.cursor);
}
// The hover label and the preview of the stone the schedule places next (黑/白/华/花).
function hoverPoint(label) {
  const old = document.querySelector("#board .preview");
  if (old) old.remove();
  if (!label) {
    $("hover").textContent = "";
    return;
  }
  const rect = document.querySelector(`#board rect.point[data-point='${label}']`);
  $("hover").textContent = shownName(label);
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
function placeCursor(label) {
  state.cursor = label;
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
  $("hover").textContent = shownName(label);
}
function li(parent, text, cls) {
  const e = document.createElement("li");
  e.textContent = text;
  if (cls) e.className = cls;
  parent.appendChild(e);
  return e;
}
function showAnalysis(an) {
  const t = an.to_move;
  $("tomove").textContent = "to play: " + t.symbol + an.move + " (" + t.player + ", " + t.kind + ")" +
    (an.game_over ? " — the game is over" : "");
  $("summary").textContent = an.size + "×" + an.size + ", rules " + an.rules.preset + ", " +
    an.legal_moves.length + " legal moves";
  const name = shownName;
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
}
function showScore(an) {
  const box = $("score");
  box.innerHTML = "";
  const dead = deadOf(state.yaml);
  if (dead.length) {
    const d = document.createElement("p");
    d.id = "dead-list";
    d.textContent = "marked dead: " + dead.length + " stone" + (dead.length > 1 ? "s" : "");
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
  const owner = {};
  for (const e of s.points) owner[e.point] = [e.owner, e.clause];
  const table = document.createElement("table");
  table.setAttribute("aria-label", "the owner of each point");
  for (let r = 0; r < an.size; r++) {
    const tr = document.createElement("tr");
    for (let c = 0; c < an.size; c++) {
      const label = labelAt(r, c, an.size);
      const td = document.createElement("td");
      const o = owner[label];
      if (o) {
        td.className = o[0];
        td.title = label + ": " + o[0] + " (" + o[1] + ")";
        td.textContent = o[0] === "seki" ? "s" : o[0][0];
      }
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  box.appendChild(table);
}

// ---- clicking ---------------------------------------------------------------------------------
async function clickPoint(label) {
  const tool = toolOf();
  if (tool === "explain") {
    $("target").value = label;
    return explain(label);
  }
  if (tool === "play") {
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
  if (await judge(buildYaml(grid))) {
    state.undo.push(before);
    state.start = null;
    state.played = [];
    state.playedFromRecord = false;
    setReport(null);
    if (leaving) leaveRecord("edited " + label + ": the position left the record (its earlier boards, for ko, are dropped)");
  }
}
// Dead-stone marking for the score: a click on a stone marks its whole string dead (or alive).
async function toggleDead(label) {
  const an = state.analysis;
  const s = an && an.strings.find((x) => x.points.includes(label));
  const pts = s ? s.points : [label];
  const [r, c] = cellOf(label, state.size);
  if (!s && state.grid[r][c] === ".") return;
  let dead = deadOf(state.yaml);
  dead = dead.includes(label) ? dead.filter((p) => !pts.includes(p)) : [...dead, ...pts.filter((p) => !dead.includes(p))];
  const before = snapshot();
  if (await judge(withDead(state.yaml, dead))) state.undo.push(before);
}
// A register clause (id, seed, quote, reading) as the clause view shows it.
function clauseBox(c) {
  const d = document.createElement("div");
  d.className = "clause";
  d.dataset.clause = c.id;
  const id = document.createElement("div");
  id.className = "id";
  id.textContent = c.id + " (" + c.seed + ")";
  const q = document.createElement("div");
  q.className = "quote";
  q.textContent = c.quote;
  const rd = document.createElement("div");
  rd.className = "reading";
  rd.textContent = c.reading;
  d.append(id, q, rd);
  return d;
}
async function explain(target, position) {
  if (!target) return;
  busy("explaining…");
  try {
    const a = await api("explain", { position: position || state.yaml, target, labels: labelsOf() });
    $("trace").textContent = a.trace;
    const box = $("clauses");
    box.innerHTML = "";
    for (const c of a.clauses) box.appendChild(clauseBox(c));
    for (const rect of document.querySelectorAll("#board rect.point")) {
      rect.classList.toggle("selected", rect.dataset.point === target.replace("*", ""));
    }
    showError(null);
  } catch (e) {
    showError(e);
  }
  busy("");
}
async function play(move) {
  busy("playing…");
  try {
    const before = state.yaml;
    const undoEntry = snapshot();
    const a = await api("play", { position: before, moves: [move], labels: labelsOf() });
    const a2 = await api("analyze", {
      position: a.position, layer: state.layer, labels: labelsOf(), numbers: $("numbers").checked,
    });
    state.undo.push(undoEntry);
    if (state.start === null) {
      state.start = before;
      state.played = [];
      // moves played from a record's move export with the record's moves before them
      state.playedFromRecord = !!(state.record && state.inRecord);
    }
    state.played.push(a.reports[0].notation);
    if (state.record && state.inRecord) leaveRecord("played " + a.shown[0].notation + " from move " + state.record.at + " of the record");
    show(a2);
    showError(null);
    setReport({ shown: a.shown[0], notation: a.reports[0].notation, before });
    drawMoveList();
  } catch (e) {
    showError(e);
  }
  busy("");
}
function setReport(r) {
  state.report = r;
  showReport(r);
}
// The cascade of a move, one step at a time; a click on the move gives its clause trace on the
// position it was played on.
function showReport(rep) {
  const list = $("report");
  list.innerHTML = "";
  if (!rep) return;
  const r = rep.shown;
  const lines = [r.notation];
  for (const s of r.steps) {
    // a step said twice in a row (two rounds of recomputing) is shown once, with its count
    const last = lines[lines.length - 1];
    const m = last.match(/^(.*) \(×(\d+)\)$/);
    if (last === s) lines[lines.length - 1] = s + " (×2)";
    else if (m && m[1] === s) lines[lines.length - 1] = s + " (×" + (Number(m[2]) + 1) + ")";
    else lines.push(s);
  }
  if (r.captured.length) lines.push("captured: " + r.captured.join(" "));
  for (const e of r.eyes_made) lines.push("private eye made: " + e.string);
  for (const e of r.eyes_lost) lines.push("private eye lost: " + e.string);
  for (const c of r.attribute_changes) lines.push("flower " + c.string + ": " + c.from + " → " + c.to);
  if (r.game_over) lines.push("the game is over");
  lines.forEach((text, k) => {
    const e = li(list, text);
    if (k === 0) {
      e.className = "move-link";
      e.tabIndex = 0;
      e.title = "the clause trace of this move";
      const go = () => {
        $("target").value = rep.notation;
        explain(rep.notation, rep.before);
      };
      e.addEventListener("click", go);
      e.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
    }
  });
}

// ---- readings ---------------------------------------------------------------------------------
async function readings() {
  busy("judging under every reading…");
  const target = $("target").value.trim();
  try {
    const a = await api("readings", { position: state.yaml, target: target || null, labels: labelsOf() });
    const box = $("readings");
    box.innerHTML = "";
    const deciding = a.readings.filter((r) => r.changes.length || r.trace);
    const head = document.createElement("p");
    head.textContent = deciding.length
      ? deciding.length + " of " + a.readings.length + " readings change a verdict" + (target ? " (target " + target + ")" : "")
      : "no reading changes any verdict: the dispute is about the position, not the rules text";
    box.appendChild(head);
    for (const r of deciding) {
      const d = document.createElement("div");
      d.className = "reading-entry";
      d.dataset.option = r.option;
      d.dataset.value = r.value;
      const h = document.createElement("div");
      const reg = r.register.map((id) => id + (a.register[id] ? " " + a.register[id] : "")).join("; ");
      const o = document.createElement("span");
      o.className = "opt";
      o.textContent = r.option + ": " + r.value;
      h.append(o, document.createTextNode(" (now " + r.base_value + ")" + (reg ? " — register " + reg : "")));
      d.appendChild(h);
      const table = document.createElement("table");
      for (const c of r.changes.slice(0, 40)) {
        const tr = document.createElement("tr");
        for (const t of [c.kind, c.subject, c.base, "→", c.reading]) {
          const td = document.createElement("td");
          td.textContent = t;
          tr.appendChild(td);
        }
        table.appendChild(tr);
      }
      d.appendChild(table);
      if (r.changes.length > 40) d.appendChild(document.createTextNode("… and " + (r.changes.length - 40) + " more"));
      if (r.trace) {
        const pre = document.createElement("pre");
        pre.textContent = r.trace;
        d.appendChild(pre);
      }
      box.appendChild(d);
    }
    const rest = a.readings.filter((r) => !(r.changes.length || r.trace)).map((r) => r.option + ": " + r.value);
    if (rest.length) {
      const p = document.createElement("p");
      p.className = "hint";
      p.textContent = "no change: " + rest.join(", ") + ". Not varied (numeric): " + a.not_varied.map((n) => n.option).join(", ") + ".";
      box.appendChild(p);
    }
    showError(null);
  } catch (e) {
    showError(e);
  }
  busy("");
}

// ---- records ----------------------------------------------------------------------------------
// A record is replayed once by the server (`record`), which keeps every position; stepping
// asks for a kept position (`record-move`), and the answers are cached here too.
const cache = new Map();   // "id/at/layer/labels/numbers" -> answer
const CACHE_MAX = 24;
async function loadRecord(text, name) {
  busy("replaying the record…");
  const mechanical = $("mechanical").checked;
  const body = { record: text, mechanical, labels: labelsOf() };
  // the rules chosen above apply to the mechanical replay (a go record names none of its own)
  if (mechanical) body.rules = JSON.stringify(rulesOverrides());
  try {
    const a = await api("record", body);
    state.record = {
      id: a.id, text, name: name || "pasted record", mechanical, moves: a.moves,
      first: a.first || 1, last: a.last || 0, at: 0, rules: a.rules, variations: a.variations,
      info: a.info || [], clauses: a.clauses || [],
    };
    state.inRecord = true;
    cache.clear();
    $("record-log").textContent = a.log;
    showInfo(state.record);
    // browsing a record, a click plays a move: it never edits the position by accident
    document.querySelector("input[name=tool][value=play]").checked = true;
    const notes = [];
    if (a.variations) notes.push("this SGF has " + a.variations + " variation" + (a.variations > 1 ? "s" : "") +
      " beside the main line: only the main line is replayed");
    // an SGF collection's further games (the properties not kept are not worth a word here)
    const further = (a.dropped || []).filter((d) => /collection/.test(d));
    if (further.length) notes.push("not read: " + further.join("; "));
    notice(notes.join(". "));
    try { localStorage.setItem("m3go-record", JSON.stringify({ text, name: state.record.name, mechanical, rules: body.rules || null })); } catch (e) { /* storage full or off */ }
    showError(null);
    busy("");
    return await recordTo(0);
  } catch (e) {
    showError(e);
    if (state.record) {
      $("record-status").textContent = "the record was not loaded; still showing move " + state.record.at + " of the earlier one";
    }
    busy("");
    return false;
  }
}
function leaveRecord(why) {
  state.inRecord = false;
  saveUrl();
  $("record-status").textContent = why;
  for (const e of document.querySelectorAll("#movelist .current")) e.classList.remove("current");
}
// Stepping: each request names the move wanted; clicks while one is on the way move the wanted
// move on (they are coalesced, never lost), and the newest wanted move is fetched when the
// answer comes.
const nav = { want: null, running: false };
function step(delta) {
  const rec = state.record;
  if (!rec) return;
  const from = nav.want !== null ? nav.want : rec.at;
  go(from + delta);
}
function go(to) {
  const rec = state.record;
  if (!rec) return;
  nav.want = Math.max(0, Math.min(rec.last, to));
  if (!nav.running) runNav();
}
async function runNav() {
  nav.running = true;
  try {
    while (nav.want !== null) {
      const to = nav.want;
      const ok = await recordTo(to);
      if (nav.want === to || !ok) nav.want = null;
    }
  } finally {
    nav.running = false;
  }
}
function cacheKey(rec, to) {
  return [rec.id, to, state.layer, labelsOf(), $("numbers").checked].join("/");
}
// The kept position after move `to`, from the cache or the server (the same request is never
// sent twice at once: a step waits for the prefetch of its move).
const inflight = new Map();
function fetchMove(rec, to) {
  const key = cacheKey(rec, to);
  if (cache.has(key)) return Promise.resolve(cache.get(key));
  if (inflight.has(key)) return inflight.get(key);
  const body = { id: rec.id, to, layer: state.layer, labels: labelsOf(), numbers: $("numbers").checked };
  const p = api("record-move", body).then((a) => {
    cache.set(key, a);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value);
    return a;
  }).finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}
// After a step, the moves either side are fetched ahead, so that the next step reads a kept
// answer.
function prefetch(rec) {
  for (const to of [rec.at + 1, rec.at - 1]) {
    if (to >= 0 && to <= rec.last && !cache.has(cacheKey(rec, to))) {
      fetchMove(rec, to).catch(() => { /* shown when the step itself asks */ });
    }
  }
}
// One step: the board of the move first (its figure only, quick), then its analysis; a step
// wanted meanwhile skips the analysis of this one.
async function recordTo(to) {
  const rec = state.record;
  if (!rec) return false;
  const t0 = performance.now();
  try {
    let a = cache.get(cacheKey(rec, to));
    if (!a) {
      busy("move " + to + "…");
      let fig;
      try {
        fig = await api("record-move", { id: rec.id, to, layer: state.layer, labels: labelsOf(), numbers: $("numbers").checked, analysis: false });
      } catch (e) {
        if (e.status !== 404) throw e;
        // the server forgot the record (restarted, or too many loaded): load it again
        const again = await api("record", { record: rec.text, mechanical: rec.mechanical, labels: labelsOf(), rules: rec.mechanical ? JSON.stringify({ preset: rec.rules }) : undefined });
        rec.id = again.id;
        return recordTo(to);
      }
      atMove(rec, fig);
      state.shown = fig.shown || {};
      state.yaml = fig.position;
      state.move = fig.move;
      $("move").value = String(fig.move);
      drawBoard(fig.svg, fig.at);
      noteStep(t0);
      if (nav.want !== null && nav.want !== to) return true;
      // the analysis follows; the next step does not wait for it
      busy("analysing move " + to + "…");
      const key = cacheKey(rec, to);
      const still = () => state.record === rec && state.inRecord && rec.at === fig.at && cacheKey(rec, to) === key &&
        (nav.want === null || nav.want === to);
      fetchMove(rec, to).then((full) => {
        if (still()) analysed(rec, full);
      }, (e) => {
        if (still()) {
          showError(e);
          busy("");
        }
      });
      return true;
    }
    atMove(rec, a);
    analysed(rec, a);
    noteStep(t0);
    return true;
  } catch (e) {
    showError(e);
    busy("");
    return false;
  }
}
function analysed(rec, a) {
  show(a);
  $("board").dataset.analysed = String(a.at);
  showError(null);
  busy("");
  if (nav.want === null) prefetch(rec);
}
// The record's state at the move an answer is for (status, move box, move list).
function atMove(rec, a) {
  if (a.at === 0) rec.startYaml = a.position;
  rec.at = a.at;
  state.inRecord = true;
  state.start = null;
  state.played = [];
  state.undo = [];
  setReport(null);
  $("record-to").value = String(rec.at);
  $("record-status").textContent = "move " + rec.at + " of " + rec.last + (rec.mechanical ? " (mechanical, " + rec.rules + ")" : " (" + rec.rules + ")");
  drawMoveList();
  showComment(rec);
}
// The record's game information (players, result, event…) above the move list; its comments
// (the root's, the game comment) show with the moves. Everything is inserted as text: records
// and their comments come from programs.
function showInfo(rec) {
  const box = $("record-info");
  box.textContent = "";
  const shown = rec.info.filter((e) => e.key !== "comment" && e.key !== "game-comment");
  shown.forEach((e, k) => {
    if (k) box.appendChild(document.createTextNode(" · "));
    const key = document.createElement("span");
    key.className = "key";
    key.textContent = e.key + (e.go_only ? " (of the Go game, not the replay)" : "") + ": ";
    const v = document.createElement("span");
    v.dataset.info = e.key;
    v.textContent = e.value;
    box.append(key, v);
  });
  box.hidden = !shown.length;
}
function infoOf(rec, key) {
  const e = rec.info.find((x) => x.key === key);
  return e ? e.value : null;
}
// The comment at the move reached: the record's opening comment at the start, the move's own
// comment, and the game comment at the last move.
function showComment(rec) {
  const box = $("comment");
  box.textContent = "";
  const parts = [];
  if (rec.at === 0 && infoOf(rec, "comment")) parts.push(["before move " + rec.first, infoOf(rec, "comment")]);
  const m = rec.moves.find((x) => x.number === rec.at);
  if (m && m.comment) parts.push([m.notation, m.comment]);
  if (rec.at === rec.last && infoOf(rec, "game-comment")) parts.push(["game", infoOf(rec, "game-comment")]);
  for (const [at, text] of parts) {
    const p = document.createElement("div");
    p.className = "said";
    const head = document.createElement("span");
    head.className = "at";
    head.textContent = at + ": ";
    p.appendChild(head);
    withClauses(p, text, rec);
    box.appendChild(p);
  }
  box.hidden = !parts.length;
}
// `text` appended to `el` as text, each clause id the record cites (rec.clauses) a button that
// shows the clause in the clause view.
function withClauses(el, text, rec) {
  const ids = rec.clauses.map((c) => c.id).filter((id) => /^[A-Za-z0-9-]+$/.test(id));
  if (!ids.length) {
    el.appendChild(document.createTextNode(text));
    return;
  }
  const re = new RegExp("(?<![A-Za-z0-9-])(" + ids.join("|") + ")(?![A-Za-z0-9-])", "g");
  let from = 0;
  for (const m of text.matchAll(re)) {
    el.appendChild(document.createTextNode(text.slice(from, m.index)));
    const c = rec.clauses.find((x) => x.id === m[1]);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "clause-ref";
    b.dataset.clause = c.id;
    b.title = c.quote + " — " + c.reading;
    const code = document.createElement("code");
    code.textContent = c.id;
    b.appendChild(code);
    b.addEventListener("click", () => showClause(c, text));
    el.appendChild(b);
    from = m.index + m[0].length;
  }
  el.appendChild(document.createTextNode(text.slice(from)));
}
// A clause cited by the record, in the clause view beside the board.
function showClause(c, said) {
  $("trace").textContent = said;
  const box = $("clauses");
  box.textContent = "";
  box.appendChild(clauseBox(c));
  $("why-box").open = true;
  $("why-box").scrollIntoView({ block: "nearest" });
}
function noteStep(t0) {
  state.lastStepMs = performance.now() - t0;
  document.body.dataset.stepMs = String(Math.round(state.lastStepMs));
}
// The move list: the record's moves (and the moves played after leaving it), the current one
// highlighted; a click goes to that move.
function drawMoveList() {
  const box = $("movelist");
  const rec = state.record;
  const built = rec ? rec.id + "/" + rec.moves.length : "";
  if (box.dataset.built !== built) {
    box.innerHTML = "";
    box.dataset.built = built;
    for (const m of rec ? rec.moves : []) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mv" + (m.replaced ? " replaced" : "") + (m.comment ? " commented" : "");
      b.dataset.move = String(m.number);
      b.textContent = m.notation;
      b.title = m.line + (m.comment ? "\n" + m.comment : "");
      b.setAttribute("aria-label", "go to move " + m.number + " " + m.notation);
      b.addEventListener("click", () => go(m.number));
      box.appendChild(b);
    }
  }
  for (const e of box.querySelectorAll(".current")) {
    e.classList.remove("current");
    e.removeAttribute("aria-current");
  }
  for (const e of box.querySelectorAll(".played")) e.remove();
  if (rec) {
    const cur = state.inRecord ? box.querySelector(`.mv[data-move="${rec.at}"]`) : null;
    if (cur) {
      cur.classList.add("current");
      cur.setAttribute("aria-current", "step");
      if (box.scrollHeight > box.clientHeight) {
        box.scrollTop = Math.max(0, cur.offsetTop - box.offsetTop - box.clientHeight / 2);
      }
    }
  }
  state.played.forEach((m, k) => {
    const b = document.createElement("span");
    b.className = "mv played" + (k === state.played.length - 1 ? " current" : "");
    b.textContent = m;
    box.appendChild(b);
  });
}

// ---- the URL: the position (or the record and its move) and the layer --------------------------
function saveUrl() {
  const p = new URLSearchParams();
  if (state.record && state.inRecord) {
    p.set("record", state.record.name);
    p.set("at", String(state.record.at));
  } else {
    p.set("position", state.yaml);
  }
  if (state.layer !== "holographic") p.set("layer", state.layer);
  if (labelsOf() !== "chinese") p.set("labels", labelsOf());
  history.replaceState(null, "", "#" + p.toString());
}
async function restoreUrl() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (p.get("layer")) state.layer = p.get("layer");
  if (p.get("labels")) $("labels").value = p.get("labels");
  if (p.get("record")) {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem("m3go-record") || "null"); } catch (e) { saved = null; }
    if (saved && saved.name === p.get("record")) {
      $("mechanical").checked = saved.mechanical;
      const at = Number(p.get("at")) || 0;
      if (await loadRecord(saved.text, saved.name)) await recordTo(at);
      return true;
    }
  }
  if (p.get("position")) return judge(p.get("position"));
  return false;
}

// ---- export -----------------------------------------------------------------------------------
async function exportAs(format) {
  const link = $("download");
  link.hidden = true;
  link.removeAttribute("href");
  $("export-text").value = "";
  try {
    const body = { format, layer: state.layer, labels: labelsOf(), position: state.yaml };
    if (format === "sgf" || format === "game") {
      const rec = state.record;
      if (rec && rec.startYaml && (state.inRecord || state.playedFromRecord)) {
        // a replayed position: the record's moves up to here, then the moves played after it
        body.start = rec.startYaml;
        body.moves = [...rec.moves.filter((m) => m.number <= rec.at).map((m) => m.chinese), ...(state.inRecord ? [] : state.played)];
      } else {
        body.start = state.start || state.yaml;
        body.moves = state.start ? state.played : [];
      }
    }
    const a = await api("export", body);
    $("export-text").value = a.text;
    link.href = URL.createObjectURL(new Blob([a.text], { type: "text/plain" }));
    link.download = a.filename;
    link.textContent = "download " + a.filename;
    link.hidden = false;
    showError(null);
  } catch (e) {
    showError(e);
  }
}

// ---- controls ---------------------------------------------------------------------------------
function drawOptions() {
  const box = $("options");
  box.innerHTML = "";
  const preset = state.options.presets.find((p) => p.name === state.rules.preset);
  let changed = 0;
  for (const o of state.options.options) {
    const label = document.createElement("label");
    label.title = o.meaning + (o.register.length ? " (" + o.register.join(", ") + ")" : "");
    label.append(document.createTextNode(o.name));
    let input;
    const v = state.rules[o.name];
    if (o.values) {
      input = document.createElement("select");
      for (const val of o.values) {
        const opt = document.createElement("option");
        opt.value = val;
        opt.textContent = val;
        input.appendChild(opt);
      }
      input.value = String(v);
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.step = o.name === "komi" ? "0.25" : "1";
      input.size = 6;
      input.value = v === null || v === undefined ? "" : String(v);
    }
    input.id = "opt-" + o.name;
    input.addEventListener("change", () => {
      let val = input.value;
      if (!o.values) val = val === "" ? null : Number(val);
      else if (val === "true" || val === "false") val = val === "true";
      const keep = state.rules[o.name];
      state.rules[o.name] = val;
      setUp(buildYaml(), "rule option changed").then((ok) => { if (!ok) state.rules[o.name] = keep; });
    });
    if (preset && JSON.stringify(preset.rules[o.name]) !== JSON.stringify(v)) {
      label.classList.add("changed");
      changed++;
    }
    label.appendChild(input);
    box.appendChild(label);
  }
  $("options-count").textContent = changed ? " (" + changed + " changed from the preset)" : "";
}
// A file as text; a file that is not text (a PNG, say) is refused with its name.
function readText(file, then) {
  const reader = new FileReader();
  reader.onload = () => {
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(reader.result);
    } catch (e) {
      text = null;
    }
    if (text === null || text.includes("\u0000")) {
      showError(new Error(file.name + " is not a text file: expected an SGF record or a game file"));
      return;
    }
    then(text);
  };
  reader.readAsArrayBuffer(file);
}
function readFile(input, then) {
  const f = input.files[0];
  if (!f) return;
  readText(f, (t) => then(t, f.name));
  // the same file chosen again is a change too
  input.value = "";
}

function keyNav(e) {
  const t = e.target;
  const typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT");
  if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
  const onBoard = t === $("board");
  if (onBoard && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", " "].includes(e.key)) {
    e.preventDefault();
    const n = state.size;
    let [r, c] = state.cursor ? cellOf(state.cursor, n) : [(n - 1) / 2, (n - 1) / 2];
    if (e.key === "ArrowLeft") c = Math.max(0, c - 1);
    if (e.key === "ArrowRight") c = Math.min(n - 1, c + 1);
    if (e.key === "ArrowUp") r = Math.max(0, r - 1);
    if (e.key === "ArrowDown") r = Math.min(n - 1, r + 1);
    if (e.key === "Enter" || e.key === " ") {
      if (state.cursor) clickPoint(state.cursor);
      return;
    }
    placeCursor(labelAt(r, c, n));
    return;
  }
  const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
  if (e.key in moves && state.record) {
    e.preventDefault();
    step(moves[e.key]);
  } else if (e.key === "Home" && state.record) {
    e.preventDefault();
    go(0);
  } else if (e.key === "End" && state.record) {
    e.preventDefault();
    go(state.record.last);
  }
}

async function rerender() {
  if (state.analysis) showAnalysis(state.analysis);
  if (!state.yaml) return;
  if (state.record && state.inRecord) return recordTo(state.record.at);
  return judge(state.yaml);
}

async function main() {
  for (let n = 3; n <= 19; n += 2) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = n + "×" + n;
    $("size").appendChild(o);
  }
  state.options = await api("options");
  for (const p of state.options.presets) {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = p.name;
    $("preset").appendChild(o);
  }
  state.rules = state.options.presets[0].rules;
  state.grid = emptyGrid(state.size);
  $("size").value = "9";

  $("size").addEventListener("change", () => {
    state.size = Number($("size").value);
    setUp(buildYaml(emptyGrid(state.size)), "new board");
  });
  $("move").addEventListener("change", () => {
    state.move = Math.max(1, Number($("move").value) || 1);
    setUp(buildYaml(), "move number set");
  });
  $("preset").addEventListener("change", () => {
    // browsing a mechanical replay, the rules chosen are those it is replayed under
    if (state.record && state.inRecord && state.record.mechanical) {
      state.rules = { ...state.options.presets.find((p) => p.name === $("preset").value).rules };
      return loadRecord(state.record.text, state.record.name);
    }
    const keep = state.rules;
    state.rules = { ...state.options.presets.find((p) => p.name === $("preset").value).rules };
    setUp(buildYaml(), "rules changed").then((ok) => { if (!ok) state.rules = keep; });
  });
  $("labels").addEventListener("change", async () => {
    cache.clear();
    await rerender();
    if ($("trace").textContent && $("target").value.trim()) explain($("target").value.trim());
  });
  $("numbers").addEventListener("change", rerender);
  $("clear").addEventListener("click", () => setUp(buildYaml(emptyGrid(state.size)), "board cleared"));
  for (const b of document.querySelectorAll("#layers button")) {
    b.addEventListener("click", async () => {
      state.layer = b.dataset.layer;
      await rerender();
    });
  }
  $("undo").addEventListener("click", async () => {
    const prev = state.undo.pop();
    if (prev === undefined) return;
    if (await judge(prev.yaml)) {
      state.played = prev.played;
      state.start = prev.start;
      state.playedFromRecord = prev.playedFromRecord;
      setReport(prev.report);
      if (state.record && prev.inRecord) {
        state.inRecord = true;
        $("record-status").textContent = "move " + state.record.at + " of " + state.record.last + (state.record.mechanical ? " (mechanical, " + state.record.rules + ")" : "");
      }
      drawMoveList();
    } else {
      state.undo.push(prev);
    }
  });
  $("pass").addEventListener("click", () => play("pass"));
  $("error-close").addEventListener("click", () => showError(null));
  $("explain-btn").addEventListener("click", () => explain($("target").value.trim()));
  $("target").addEventListener("keydown", (e) => { if (e.key === "Enter") explain($("target").value.trim()); });
  $("readings-btn").addEventListener("click", readings);
  $("position-load").addEventListener("click", () => setUp($("position-text").value, "position loaded"));
  $("position-file").addEventListener("change", () => readFile($("position-file"), (t) => {
    $("position-text").value = t;
    setUp(t, "position loaded");
  }));
  $("record-file").addEventListener("change", () => readFile($("record-file"), (t, name) => {
    $("record-text").value = t;
    loadRecord(t, name);
  }));
  $("record-load").addEventListener("click", () => loadRecord($("record-text").value, "pasted record"));
  $("mechanical").addEventListener("change", () => state.record && loadRecord(state.record.text, state.record.name));
  $("record-go").addEventListener("click", () => go(Number($("record-to").value) || 0));
  $("record-to").addEventListener("keydown", (e) => { if (e.key === "Enter") go(Number($("record-to").value) || 0); });
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("last").addEventListener("click", () => state.record && go(state.record.last));
  for (const b of document.querySelectorAll("[data-export]")) {
    b.addEventListener("click", () => exportAs(b.dataset.export));
  }
  document.addEventListener("keydown", keyNav);
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
  if (!(await restoreUrl())) await judge(buildYaml());
  document.body.dataset.ready = "1";
}

main().catch(showError);
