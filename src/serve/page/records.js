// Records: a record is replayed once by the server (`record`), which keeps every position;
// stepping asks for a kept position (`record-move`), and the answers are cached here too.
import { $, api, busy, labelsOf, notice, showError } from "./api.js";
import { chooseTool, drawBoard, judge, show } from "./board.js";
import { showCaptures } from "./captures.js";
import { setReport } from "./explain.js";
import { drawMoveList, showComment, showInfo } from "./movelist.js";
import { recordStatus, rulesText, withDead } from "./position.js";
import { adoptFigure, atRecordMove, leaveRecord as leave, noteStepMs, relabelRecord, setChosen, setRecord, setRecordId, state } from "./state.js";
import { LINK_RECORD_MAX, packText, tooLargeNote } from "./links.js";
import { goOnlyNote, lineName, sgfLines } from "./recordtext.js";
import { chosenRules, markVisit, saveUrl } from "./view.js";

const cache = new Map();   // "id/at/layer/labels/numbers" -> answer
const CACHE_MAX = 24;
export function clearCache() {
  cache.clear();
}
// `opts`: { mechanical, rules } of a link (else the page's controls'); `quiet`: no history entry;
// `line`, `file`: a line of the SGF `file` (the link carries the file, so its tree, and the line).
export async function loadRecord(text, name, opts = {}) {
  busy("replaying the record…");
  const mechanical = opts.mechanical !== undefined ? opts.mechanical : $("mechanical").checked;
  $("mechanical").checked = mechanical;
  const body = { record: text, mechanical, labels: labelsOf() };
  // the rules chosen above apply to the mechanical replay (a go record names none of its own)
  if (mechanical) body.rules = opts.rules || JSON.stringify(chosenRules());
  try {
    const [a, packed] = await Promise.all([api("record", body), packText(opts.file || text)]);
    if (!opts.quiet) markVisit();
    setRecord({
      id: a.id, text, name: name || "pasted record", mechanical, moves: a.moves,
      first: a.first || 1, last: a.last || 0, at: 0, rules: a.rules, variations: a.variations,
      info: a.info || [], clauses: a.clauses || [], rulesSent: body.rules || null,
      rulesText: rulesText(state.options, a.rules_used || null, a.rules),
      packed: packed.length <= LINK_RECORD_MAX ? packed : null, line: opts.file ? opts.line || 0 : 0,
    });
    cache.clear();
    $("steps").hidden = false;
    // a mechanical replay's rules (a link's, say) are the rules chosen from then on
    if (mechanical && a.rules_used) setChosen(a.rules_used);
    $("record-log").textContent = a.log;
    showInfo(state.record);
    // browsing a record, a click plays a move: it never edits the position by accident
    chooseTool("play");
    const notes = [];
    if (a.variations) notes.push("this SGF has " + a.variations + " variation" + (a.variations > 1 ? "s" : "") +
      " beside the main line: only the line chosen is replayed");
    // an SGF collection's further games (the properties not kept are not worth a word here)
    const further = (a.dropped || []).filter((d) => /collection/.test(d));
    if (further.length) notes.push("not read: " + further.join("; "));
    // what a mechanical replay does not use of a Go record (its komi, its result), as the CLI says
    const goOnly = goOnlyNote(state.record.info, a.rules_used);
    if (goOnly) notes.push("not used by the replay: " + goOnly);
    if (packed.length > LINK_RECORD_MAX) notes.push(tooLargeNote(packed.length));
    notice(notes.join(". "));
    showLines(text, name);
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
// The lines of play of the SGF loaded (the main line and its variations), in a chooser: each
// is replayed as a record of its own. A line chosen keeps the list of the file it came from.
let lineSet = { name: "", lines: [] };
function showLines(text, name) {
  const k = lineSet.lines.findIndex((l) => l.text === text);
  if (k < 0) lineSet = { name: name || "pasted record", lines: sgfLines(text), text };
  const box = $("lines");
  box.textContent = "";
  lineSet.lines.forEach((l, j) => {
    const o = document.createElement("option");
    o.value = String(j);
    o.textContent = lineName(lineSet.lines, j);
    box.appendChild(o);
  });
  box.value = String(Math.max(0, k));
  $("lines-box").hidden = lineSet.lines.length < 2;
}
// The labels changed: the record's moves again in them (the move list names its points in the
// labels shown); the server replays it once more, as it was replayed.
export async function relabel() {
  const rec = state.record;
  if (!rec) return;
  try {
    const a = await api("record", { record: rec.text, mechanical: rec.mechanical, labels: labelsOf(), rules: rec.rulesSent || undefined });
    relabelRecord(rec, a.id, a.moves);
    cache.clear();
  } catch (e) {
    showError(e);
  }
}
export function chooseLine(k, opts = {}) {
  const l = lineSet.lines[k];
  const name = k ? lineSet.name + " (variation " + k + ")" : lineSet.name;
  return l ? loadRecord(l.text, name, { ...opts, line: k, file: lineSet.text }) : Promise.resolve(false);
}
// Line `k` of the SGF `file` a link names (`name`: the line's name), its lines listed again.
export function loadLine(file, k, name, opts) {
  const lines = sgfLines(file);
  if (!lines[k]) return loadRecord(file, name, opts);
  lineSet = { name: name.replace(/ \(variation \d+\)$/, ""), lines, text: file };
  return chooseLine(k, opts);
}
// The lines of play of the SGF loaded ({ name, lines, text: the file's }: no lines for a record
// of one line).
export function linesOf() {
  return lineSet;
}
export function leaveRecord(why) {
  leave();
  showCaptures(null);
  saveUrl();
  $("record-status").textContent = why;
  for (const e of document.querySelectorAll("#movelist .current")) e.classList.remove("current");
}
// Stepping: each request names the move wanted; clicks while one is on the way move the wanted
// move on (they are coalesced, never lost), and the newest wanted move is fetched when the
// answer comes.
const nav = { want: null, running: false };
export function step(delta) {
  const rec = state.record;
  if (!rec) return;
  const from = nav.want !== null ? nav.want : rec.at;
  go(from + delta);
}
export function go(to) {
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
function noteStep(t0) {
  noteStepMs(performance.now() - t0);
  document.body.dataset.stepMs = String(Math.round(state.lastStepMs));
}
// One step: the board of the move first (its figure only, quick), then its analysis; a step
// wanted meanwhile skips the analysis of this one.
export async function recordTo(to) {
  const rec = state.record;
  if (!rec) return false;
  const t0 = performance.now();
  try {
    const a = cache.get(cacheKey(rec, to));
    if (!a) {
      busy("move " + to + "…", true);
      let fig;
      try {
        fig = await api("record-move", { id: rec.id, to, layer: state.layer, labels: labelsOf(), numbers: $("numbers").checked, analysis: false });
      } catch (e) {
        if (e.status !== 404) throw e;
        // the server forgot the record (restarted, or too many loaded): load it again
        // under the rules it was replayed under (sent again: the server kept nothing)
        const again = await api("record", { record: rec.text, mechanical: rec.mechanical, labels: labelsOf(), rules: rec.rulesSent || undefined });
        setRecordId(rec, again.id);
        return recordTo(to);
      }
      atMove(rec, fig);
      adoptFigure(fig);
      $("move").value = String(fig.move);
      drawBoard(fig.svg, fig.at);
      noteStep(t0);
      if (nav.want !== null && nav.want !== to) return true;
      // the analysis follows; the next step does not wait for it
      busy("analysing move " + to + "…", true);
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
// The record's move `to` with the strings through `dead` marked dead (a link's marks, or the
// page shown again): its analysis first, then the marks judged on it.
export async function recordToDead(to, dead) {
  const rec = state.record;
  if (!rec) return false;
  try {
    const a = await fetchMove(rec, to);
    atMove(rec, a);
    return await judge(withDead(a.setup, dead));
  } catch (e) {
    showError(e);
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
  atRecordMove(rec, a.at, a.setup);
  setReport(null);
  $("record-to").value = String(rec.at);
  $("record-status").textContent = recordStatus(rec);
  drawMoveList();
  showComment(rec);
  showCaptures(a.captures);
}
