// The page's state, changed in one place: every change is a named update below. The other
// modules read `state` and call these; none assigns to its fields (tests/store.test.mjs checks).
// No DOM here: the store is tested under node.
import { emptyGrid } from "./position.js";
import { phaseAfter, samePosition } from "./scoring.js";

export const state = {
  options: null,       // /api/options
  size: 9,
  grid: [],            // rows of ".", "X", "O", "#": the judged position's direct board
  move: 1,
  rules: null,         // the full rules object
  chosen: null,        // the rules chosen with the controls (a preset, options changed by hand, a
                       // link's or a position file's): a mechanical replay's, whatever is shown
  setup: null,         // the position file's JSON object: the one thing the server judges
  packedSetup: null,   // the same without its dead marks, packed for a link (links.js), or null
  layer: "holographic",
  undo: [],            // earlier states: snapshots (below)
  analysis: null,
  report: null,        // the last move's cascade shown: { shown, notation, before }
  record: null,        // { id, text, name, mechanical, moves, first, last, at, startSetup, ... }
  inRecord: false,     // the position shown is the record's move `record.at`
  start: null,         // the position (object) the played moves start from (for exporting a game)
  played: [],          // moves played from `start` (notation)
  playedFromRecord: false, // `start` is a position of the loaded record
  cursor: null,        // the point the keyboard cursor is on
  shown: {},           // Chinese label -> the label shown (latin labels)
  drawnRules: null,    // the rules (as JSON) the rule options were last drawn for
  lastStepMs: null,    // the time of the last step through the record
  scoreTrace: null,    // the score's clause trace of the judged position (m3go-score-trace/2)
  scoreClauses: [],    // the register's clauses the trace cites
  scoring: null,       // the scoring phase: null, "marking" (dead strings marked) or "accepted"
  pending: null,       // with "confirm moves": the point a first tap selected
  proposal: null,      // a finished game's dead stones proposed by the engine (strings of labels)
};

// ---- the options and the controls -----------------------------------------------------------
export function setOptions(options) {
  state.options = options;
  state.rules = options.presets[0].rules;
  state.chosen = options.presets[0].rules;
  state.grid = emptyGrid(state.size);
}
export function setSize(n) {
  state.size = n;
}
export function setMove(n) {
  state.move = n;
}
export function setRules(rules) {
  state.rules = rules;
}
// One rule option changed (a new rules object: the old one may be restored as it was); the
// rules chosen take the change too.
export function setRuleOption(name, value) {
  state.rules = { ...state.rules, [name]: value };
  state.chosen = { ...state.chosen, [name]: value };
}
// The rules chosen (the full rules object): a preset picked, a link's or a file's rules.
export function setChosen(rules) {
  state.chosen = rules;
}
export function setLayer(layer) {
  state.layer = layer;
}
export function setCursor(label) {
  state.cursor = label;
}
export function setDrawnRules(json) {
  state.drawnRules = json;
}
export function setPending(label) {
  state.pending = label;
}
export function noteStepMs(ms) {
  state.lastStepMs = ms;
}

// ---- the judged position ----------------------------------------------------------------------
// An analysis answer (/api/analyze, or a record's move with its analysis) taken as the position.
export function adoptAnswer(a) {
  state.shown = a.shown || {};
  state.scoring = phaseAfter(state.scoring, !!a.analysis.game_over, samePosition(state.setup, a.setup));
  state.setup = a.setup;
  state.packedSetup = a.packed || null;
  state.scoreTrace = a.score_trace || null;
  state.scoreClauses = a.score_clauses || [];
  state.proposal = a.dead_proposal || null;
  state.analysis = a.analysis;
  const an = a.analysis;
  state.size = an.size;
  state.move = an.move;
  state.grid = an.boards.direct.map((row) => row.trim().split(/\s+/));
  state.rules = an.rules;
}
// A record's move without its analysis yet (its figure only).
export function adoptFigure(fig) {
  state.shown = fig.shown || {};
  if (!samePosition(state.setup, fig.setup)) state.scoring = null;
  state.setup = fig.setup;
  state.packedSetup = null;
  state.move = fig.move;
}

// ---- the undo stack and the moves played ------------------------------------------------------
export function snapshot() {
  return {
    setup: state.setup, report: state.report, played: [...state.played], start: state.start,
    playedFromRecord: state.playedFromRecord,
    record: state.record ? state.record.at : null, inRecord: state.inRecord,
  };
}
export function pushUndo(entry) {
  state.undo.push(entry);
}
export function popUndo() {
  return state.undo.pop();
}
// A position set up (not played): no moves played from it.
export function clearPlayed() {
  state.start = null;
  state.played = [];
  state.playedFromRecord = false;
}
// A move played on the position `before`.
export function playedMove(before, notation) {
  if (state.start === null) {
    state.start = before;
    state.played = [];
    // moves played from a record's move export with the record's moves before them
    state.playedFromRecord = !!(state.record && state.inRecord);
  }
  state.played = [...state.played, notation];
}
// Back to a snapshot's moves (its position is judged by the caller); whether it is in the record.
export function restore(prev) {
  state.played = prev.played;
  state.start = prev.start;
  state.playedFromRecord = prev.playedFromRecord;
  state.report = prev.report;
  if (state.record && prev.inRecord) state.inRecord = true;
  return !!(state.record && prev.inRecord);
}
export function setReport(r) {
  state.report = r;
}

// ---- the record -------------------------------------------------------------------------------
export function setRecord(rec) {
  state.record = rec;
  state.inRecord = true;
}
// The server forgot the record and replayed it again under a new id.
export function setRecordId(rec, id) {
  rec.id = id;
}
// The record replayed again for another label system: its moves written in it, under a new id.
export function relabelRecord(rec, id, moves) {
  rec.id = id;
  rec.moves = moves;
}
// The record `rec` at move `at` (`position`: its object): nothing played, nothing to undo.
export function atRecordMove(rec, at, position) {
  if (at === 0) rec.startSetup = position;
  rec.at = at;
  state.inRecord = true;
  state.start = null;
  state.played = [];
  state.undo = [];
  state.report = null;
}
// ---- the scoring phase -------------------------------------------------------------------------
// The count accepted ("accepted"), or its marks open again ("marking"); only in the phase.
export function setScoring(phase) {
  if (state.scoring !== null) state.scoring = phase;
}

export function leaveRecord() {
  state.inRecord = false;
}
