// The store (state.js): its named updates, and that no other module changes the state.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import * as store from "../state.js";

const { state } = store;
const answer = (move, setup, over = false) => ({
  setup,
  shown: { "OO": "e5" },
  analysis: { size: 3, move, game_over: over, rules: { preset: "p1", komi: 7.5 }, boards: { direct: [". . .", ". X .", ". . ."] } },
});

test("setOptions takes the first preset's rules and an empty board", () => {
  store.setOptions({ presets: [{ name: "p1", rules: { preset: "p1" } }], options: [] });
  assert.deepEqual(state.rules, { preset: "p1" });
  assert.equal(state.grid.length, state.size);
  assert.ok(state.grid.every((r) => r.every((x) => x === ".")));
});

test("adoptAnswer takes the position, its analysis and the controls' values", () => {
  store.adoptAnswer(answer(5, { size: 3, diagram: "d" }));
  assert.deepEqual(state.setup, { size: 3, diagram: "d" });
  assert.equal(state.size, 3);
  assert.equal(state.move, 5);
  assert.deepEqual(state.grid, [[".", ".", "."], [".", "X", "."], [".", ".", "."]]);
  assert.deepEqual(state.shown, { "OO": "e5" });
  store.adoptFigure({ setup: { size: 3, diagram: "e" }, move: 6 });
  assert.equal(state.move, 6);
  assert.deepEqual(state.shown, {});
});

test("setRuleOption makes a new rules object: the old one can be restored untouched", () => {
  const keep = state.rules;
  store.setRuleOption("komi", 0);
  assert.equal(state.rules.komi, 0);
  assert.equal(keep.komi, 7.5);
  store.setRules(keep);
  assert.equal(state.rules, keep);
});

test("moves played start from the position before the first; undo restores them", () => {
  store.clearPlayed();
  const before = store.snapshot();
  store.pushUndo(before);
  store.playedMove("P0", "黑5.OO");
  store.playedMove("P1", "白6.一一");
  assert.equal(state.start, "P0");
  assert.deepEqual(state.played, ["黑5.OO", "白6.一一"]);
  assert.equal(state.playedFromRecord, false);
  // the snapshot kept its own copy of the moves
  assert.deepEqual(before.played, []);
  const prev = store.popUndo();
  assert.equal(prev, before);
  assert.equal(store.restore(prev), false);
  assert.equal(state.start, null);
  assert.deepEqual(state.played, []);
  assert.equal(store.popUndo(), undefined);
});

test("a record: at a move nothing is played or undone; leaving it and playing from it", () => {
  const rec = { id: "r1", at: 0, last: 3, moves: [] };
  store.setRecord(rec);
  assert.equal(state.inRecord, true);
  store.pushUndo(store.snapshot());
  store.atRecordMove(rec, 0, "START");
  assert.equal(rec.startSetup, "START");
  store.atRecordMove(rec, 2, "TWO");
  assert.equal(rec.at, 2);
  assert.equal(rec.startSetup, "START");
  assert.deepEqual(state.undo, []);
  const inside = store.snapshot();
  assert.equal(inside.record, 2);
  store.playedMove("TWO", "黑3.OO");
  assert.equal(state.playedFromRecord, true);
  store.leaveRecord();
  assert.equal(state.inRecord, false);
  assert.equal(store.restore(inside), true);
  assert.equal(state.inRecord, true);
  store.setRecordId(rec, "r2");
  assert.equal(state.record.id, "r2");
});

test("no module but state.js assigns to the state's fields", () => {
  const dir = new URL("../", import.meta.url);
  const modules = readdirSync(dir).filter((f) => f.endsWith(".js") && f !== "state.js");
  assert.ok(modules.length >= 8, modules.join(" "));
  const assign = /\b(state|rec)(\.\w+|\[[^\]]*\])+\s*(=(?!=)|\+=|-=|\+\+|--)/;
  const mutate = /\bstate(\.\w+)+\.(push|pop|splice|shift|unshift|sort|reverse)\(/;
  for (const f of modules) {
    readFileSync(new URL(f, dir), "utf8").split("\n").forEach((line, k) => {
      assert.ok(!assign.test(line) && !mutate.test(line), `${f}:${k + 1} changes the state: ${line.trim()}`);
    });
  }
});

test("the scoring phase: entered when a game is over, kept while only the marks change", () => {
  const over = { size: 3, move: 9, diagram: "end", trailing_passes: 2 };
  store.adoptAnswer(answer(8, { size: 3, move: 8, diagram: "play" }));
  assert.equal(state.scoring, null);
  store.setScoring("accepted");
  assert.equal(state.scoring, null, "no phase to accept while the game goes on");
  store.adoptAnswer(answer(9, over, true));
  assert.equal(state.scoring, "marking");
  store.setScoring("accepted");
  store.adoptAnswer(answer(9, { ...over, dead: ["OO"] }, true));
  assert.equal(state.scoring, "accepted", "the same position with marks");
  store.adoptAnswer(answer(9, { ...over, diagram: "other" }, true));
  assert.equal(state.scoring, "marking", "another finished position starts the phase again");
  store.adoptFigure({ setup: { size: 3, move: 4, diagram: "step" }, move: 4 });
  assert.equal(state.scoring, null);
});
