// m3go adjudication board. Everything is decided by the engine through /api/*; this script only
// keeps the position's text, sends it, and shows the answers. The board is m3go's own SVG figure,
// each point a <rect class="point" data-point="LABEL">.
"use strict";

const $ = (id) => document.getElementById(id);
const LABELS_ZH = "IHGFEDCBAO一二三四五六七八九";
const LABELS_LA = "ihgfedcba0123456789";

const state = {
  options: null,       // /api/options
  size: 9,
  grid: [],            // rows of ".", "X", "O", "#"
  move: 1,
  rules: null,         // the full rules object
  yaml: "",            // the position's text: the one thing the server judges
  layer: "holographic",
  undo: [],            // earlier position texts
  analysis: null,
  record: null,        // { text, mechanical, moves, first, last, at }
  start: null,         // the position text the played moves start from (for exporting a game)
  played: [],          // moves played from `start`
};

// ---- labels -------------------------------------------------------------------------------
function latin(label) {
  return [...label].map((ch) => {
    const k = LABELS_ZH.indexOf(ch);
    return k >= 0 ? LABELS_LA[k] : ch;
  }).join("");
}
function shown(label) {
  return $("labels").value === "latin" ? latin(label) : label;
}
function shownText(text) {
  return $("labels").value === "latin" ? text.replace(/[IHGFEDCBAO一二三四五六七八九]{2}\*?/g, (m) => latin(m)) : text;
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
async function api(name, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const res = await fetch("/api/" + name, opts);
  const data = await res.json();
  if (!res.ok) {
    throw new Error(data.error || ("HTTP " + res.status));
  }
  return data;
}
function showError(e) {
  const box = $("error");
  if (e) {
    box.textContent = "error: " + e.message;
    box.hidden = false;
  } else {
    box.hidden = true;
    box.textContent = "";
  }
}
function busy(text) {
  $("status").textContent = text;
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
function buildYaml() {
  const rows = state.grid.map((r) => "  " + r.join(" ")).join("\n");
  return "rules: " + JSON.stringify(rulesOverrides()) + "\nsize: " + state.size +
    "\nmove: " + state.move + "\ndiagram: |\n" + rows + "\n";
}
function emptyGrid(n) {
  return Array.from({ length: n }, () => Array.from({ length: n }, () => "."));
}

// ---- showing an analysis ---------------------------------------------------------------------
async function judge(yaml, { pushUndo = true } = {}) {
  busy("judging…");
  try {
    const a = await api("analyze", { position: yaml, layer: state.layer, labels: $("labels").value });
    if (pushUndo && state.yaml && state.yaml !== a.position) {
      state.undo.push(state.yaml);
    }
    state.yaml = a.position;
    state.analysis = a.analysis;
    adopt(a.analysis);
    drawBoard(a.svg);
    showAnalysis(a.analysis);
    showError(null);
    busy("");
    return true;
  } catch (e) {
    showError(e);
    busy("");
    return false;
  }
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
  drawOptions();
}
function drawBoard(svg) {
  const board = $("board");
  board.innerHTML = svg;
  board.dataset.layer = state.layer;
  for (const b of document.querySelectorAll("#layers button")) {
    b.classList.toggle("on", b.dataset.layer === state.layer);
  }
  for (const rect of board.querySelectorAll("rect.point")) {
    rect.addEventListener("click", () => clickPoint(rect.dataset.point));
    rect.addEventListener("mouseenter", () => {
      $("hover").textContent = rect.dataset.point + " = " + latin(rect.dataset.point);
    });
  }
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
  const eyes = $("eyes");
  eyes.innerHTML = "";
  for (const s of an.strings) {
    for (const e of s.private_eyes) {
      li(eyes, s.colour + " " + shown(s.name) + ": private eye " + e.points.map(shown).join(" "), s.colour + "-eye");
    }
  }
  if (!eyes.children.length) li(eyes, "none");
  const flowers = $("flowers");
  flowers.innerHTML = "";
  for (const f of an.flowers) {
    const e = li(flowers, shown(f.name) + ": " + f.attribute + " (Hs=" + f.hs + " Hw=" + f.hw + " Bs=" + f.bs +
      " Bw=" + f.bw + "; " + f.clause + ")");
    e.dataset.flower = f.name;
    e.dataset.attribute = f.attribute;
  }
  if (!flowers.children.length) li(flowers, "none");
  const forb = $("forbidden");
  forb.innerHTML = "";
  for (const [who, list] of [["black's 华", an.forbidden.black], ["white's 花", an.forbidden.white]]) {
    for (const f of list) {
      li(forb, shown(f.point) + " to " + who + ": " + f.reason + (f.owner ? " of " + f.owner : "") + " (" + f.clause + ")");
    }
  }
  if (!forb.children.length) li(forb, "none");
  showScore(an);
}
function showScore(an) {
  const box = $("score");
  box.innerHTML = "";
  if (!an.score) {
    box.textContent = an.score_error || "not scored";
    return;
  }
  const s = an.score;
  const p = document.createElement("p");
  p.textContent = "black " + s.black + " · white " + s.white + " · neutral " + s.neutral +
    " (half-points), komi " + s.komi_quarters / 4 + " → " + s.winner;
  box.appendChild(p);
  const owner = {};
  for (const e of s.points) owner[e.point] = [e.owner, e.clause];
  const table = document.createElement("table");
  for (let r = 0; r < an.size; r++) {
    const tr = document.createElement("tr");
    for (let c = 0; c < an.size; c++) {
      const label = labelAt(r, c, an.size);
      const td = document.createElement("td");
      const o = owner[label];
      if (o) {
        td.className = o[0];
        td.title = shown(label) + ": " + o[0] + " (" + o[1] + ")";
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
  const tool = document.querySelector("input[name=tool]:checked").value;
  if (tool === "explain") {
    $("target").value = label;
    return explain(label);
  }
  if (tool === "play") {
    return play(label);
  }
  const [r, c] = cellOf(label, state.size);
  state.grid[r][c] = { black: "X", white: "O", flower: "#", empty: "." }[tool];
  state.start = null;
  state.played = [];
  await judge(buildYaml());
}
async function explain(target, position) {
  if (!target) return;
  busy("explaining…");
  try {
    const a = await api("explain", { position: position || state.yaml, target });
    $("trace").textContent = shownText(a.trace);
    const box = $("clauses");
    box.innerHTML = "";
    for (const c of a.clauses) {
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
      box.appendChild(d);
    }
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
    const a = await api("play", { position: before, moves: [move] });
    if (state.start === null) {
      state.start = before;
      state.played = [];
    }
    state.played.push(a.reports[0].notation);
    await judge(a.position);
    showReport(a.reports[0], before);
  } catch (e) {
    showError(e);
    busy("");
  }
}
// The cascade of a move, one step at a time; a click on the move gives its clause trace on the
// position it was played on.
function showReport(r, before) {
  const list = $("report");
  list.innerHTML = "";
  const lines = [r.notation, ...r.steps];
  if (r.captured.length) lines.push("captured: " + r.captured.join(" "));
  for (const e of r.eyes_made) lines.push("private eye made: " + e.string);
  for (const e of r.eyes_lost) lines.push("private eye lost: " + e.string);
  for (const c of r.attribute_changes) lines.push("flower " + c.string + ": " + c.from + " → " + c.to);
  if (r.game_over) lines.push("the game is over");
  lines.forEach((text, k) => {
    setTimeout(() => {
      const e = li(list, shownText(text));
      if (k === 0) {
        e.className = "move-link";
        e.title = "the clause trace of this move";
        e.addEventListener("click", () => {
          $("target").value = r.notation;
          explain(r.notation, before);
        });
      }
    }, 150 * k);
  });
}

// ---- readings ---------------------------------------------------------------------------------
async function readings() {
  busy("judging under every reading…");
  const target = $("target").value.trim();
  try {
    const a = await api("readings", { position: state.yaml, target: target || null });
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
      h.innerHTML = "";
      const o = document.createElement("span");
      o.className = "opt";
      o.textContent = r.option + ": " + r.value;
      h.append(o, document.createTextNode(" (now " + r.base_value + ")" + (reg ? " — register " + reg : "")));
      d.appendChild(h);
      const table = document.createElement("table");
      for (const c of r.changes.slice(0, 40)) {
        const tr = document.createElement("tr");
        for (const t of [c.kind, shownText(c.subject), shownText(c.base), "→", shownText(c.reading)]) {
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
        pre.textContent = shownText(r.trace);
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
async function loadRecord(text) {
  state.record = { text, mechanical: $("mechanical").checked, at: 0 };
  await recordTo(null);
}
async function recordTo(to) {
  const rec = state.record;
  if (!rec) return;
  busy("replaying…");
  try {
    const body = { record: rec.text, mechanical: $("mechanical").checked };
    if (to !== null) body.to = Math.max(0, to);
    const a = await api("replay", body);
    rec.moves = a.moves;
    rec.first = a.first || 1;
    rec.at = a.last || 0;
    if (to === null) {
      // a freshly loaded record shows its start; the whole replay told how long it is
      rec.end = a.last || 0;
      return recordTo(0);
    }
    $("record-to").value = String(rec.at);
    $("record-status").textContent = "move " + rec.at + " of " + rec.end + (body.mechanical ? " (mechanical)" : "");
    $("record-log").textContent = shownText(a.log);
    state.start = null;
    state.played = [];
    await judge(a.position);
  } catch (e) {
    showError(e);
  }
  busy("");
}

// ---- export -----------------------------------------------------------------------------------
async function exportAs(format) {
  try {
    const body = { format, layer: state.layer, labels: $("labels").value, position: state.yaml };
    if (format === "sgf" || format === "game") {
      body.start = state.start || state.yaml;
      body.moves = state.start ? state.played : [];
    }
    const a = await api("export", body);
    $("export-text").value = a.text;
    const link = $("download");
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
      state.rules[o.name] = val;
      judge(buildYaml());
    });
    if (preset && JSON.stringify(preset.rules[o.name]) !== JSON.stringify(v)) label.classList.add("changed");
    label.appendChild(input);
    box.appendChild(label);
  }
}
function readFile(input, then) {
  const f = input.files[0];
  if (!f) return;
  const reader = new FileReader();
  reader.onload = () => then(String(reader.result));
  reader.readAsText(f);
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
    state.grid = emptyGrid(state.size);
    judge(buildYaml());
  });
  $("move").addEventListener("change", () => {
    state.move = Math.max(1, Number($("move").value) || 1);
    judge(buildYaml());
  });
  $("preset").addEventListener("change", () => {
    state.rules = { ...state.options.presets.find((p) => p.name === $("preset").value).rules };
    judge(buildYaml());
  });
  $("labels").addEventListener("change", async () => {
    if (state.analysis) showAnalysis(state.analysis);
    if (!state.yaml) return;
    try {
      const a = await api("render", { position: state.yaml, layer: state.layer, labels: $("labels").value });
      drawBoard(a.svg);
    } catch (e) {
      showError(e);
    }
  });
  $("clear").addEventListener("click", () => {
    state.grid = emptyGrid(state.size);
    judge(buildYaml());
  });
  for (const b of document.querySelectorAll("#layers button")) {
    b.addEventListener("click", async () => {
      state.layer = b.dataset.layer;
      try {
        const a = await api("render", { position: state.yaml, layer: state.layer, labels: $("labels").value });
        drawBoard(a.svg);
      } catch (e) {
        showError(e);
      }
    });
  }
  $("undo").addEventListener("click", () => {
    const prev = state.undo.pop();
    if (prev !== undefined) {
      if (state.played.length) state.played.pop();
      judge(prev, { pushUndo: false });
    }
  });
  $("explain-btn").addEventListener("click", () => explain($("target").value.trim()));
  $("target").addEventListener("keydown", (e) => { if (e.key === "Enter") explain($("target").value.trim()); });
  $("readings-btn").addEventListener("click", readings);
  $("position-load").addEventListener("click", () => judge($("position-text").value));
  $("position-file").addEventListener("change", () => readFile($("position-file"), (t) => {
    $("position-text").value = t;
    judge(t);
  }));
  $("record-file").addEventListener("change", () => readFile($("record-file"), (t) => {
    $("record-text").value = t;
    loadRecord(t);
  }));
  $("record-load").addEventListener("click", () => loadRecord($("record-text").value));
  $("mechanical").addEventListener("change", () => state.record && loadRecord(state.record.text));
  $("record-go").addEventListener("click", () => recordTo(Number($("record-to").value) || 0));
  $("record-to").addEventListener("keydown", (e) => { if (e.key === "Enter") recordTo(Number($("record-to").value) || 0); });
  $("first").addEventListener("click", () => recordTo(0));
  $("prev").addEventListener("click", () => state.record && recordTo(state.record.at - 1));
  $("next").addEventListener("click", () => state.record && recordTo(state.record.at + 1));
  $("last").addEventListener("click", () => state.record && recordTo(state.record.end));
  for (const b of document.querySelectorAll("[data-export]")) {
    b.addEventListener("click", () => exportAs(b.dataset.export));
  }
  await judge(buildYaml(), { pushUndo: false });
  document.body.dataset.ready = "1";
}

main().catch(showError);
