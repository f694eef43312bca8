// The pure helpers of position.js: labels, the position's object, the cascade, clause ids.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  cascadeLines, cellOf, clauseParts, deadOf, emptyGrid, labelAt, positionObject, recordStatus, rulesText,
  rulesOverrides, shownName, toggledDead, withDead,
} from "../position.js";

test("labelAt and cellOf are inverse on every odd size", () => {
  for (let n = 3; n <= 19; n += 2) {
    const seen = new Set();
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const label = labelAt(r, c, n);
        assert.equal(label.length, 2);
        assert.deepEqual(cellOf(label, n), [r, c]);
        seen.add(label);
      }
    }
    assert.equal(seen.size, n * n);
  }
});

test("the centre is OO, the top left corner of 9x9 is D四", () => {
  assert.equal(labelAt(4, 4, 9), "OO");
  assert.equal(labelAt(0, 0, 9), "D四");
  assert.deepEqual(cellOf("OO", 19), [9, 9]);
});

test("shownName maps a point and a string name, keeping the star", () => {
  const shown = { "七A": "7a" };
  assert.equal(shownName(shown, "七A"), "7a");
  assert.equal(shownName(shown, "七A*"), "7a*");
  assert.equal(shownName(shown, "一O"), "一O");
});

const options = {
  presets: [
    { name: "p1", rules: { komi: 7.5, ko: "super" } },
    { name: "p2", rules: { komi: 0, ko: "simple" } },
  ],
  options: [{ name: "komi" }, { name: "ko" }],
};

test("rulesOverrides keeps the options that differ from the preset named", () => {
  assert.deepEqual(rulesOverrides(options, "p1", { komi: 7.5, ko: "super" }), { preset: "p1" });
  assert.deepEqual(rulesOverrides(options, "p1", { komi: 6, ko: "super" }), { preset: "p1", komi: 6 });
  assert.deepEqual(rulesOverrides(options, "p2", { komi: 7.5, ko: null }), { preset: "p2", komi: 7.5 });
});

test("positionObject is the position file's object: rules, size, move and diagram", () => {
  const grid = emptyGrid(3);
  grid[1][1] = "X";
  const p = positionObject({ preset: "p1", komi: 2 }, grid, 4);
  assert.deepEqual(p, { rules: { preset: "p1", komi: 2 }, size: 3, move: 4, diagram: ". . .\n. X .\n. . .\n" });
  // nothing but JSON: it goes to the server as it is
  assert.deepEqual(JSON.parse(JSON.stringify(p)), p);
});

test("deadOf reads the dead list; withDead sets and removes it without changing its argument", () => {
  const setup = { size: 5, move: 3, diagram: "x", dead: ["一二", "二二"] };
  assert.deepEqual(deadOf(setup), ["一二", "二二"]);
  assert.deepEqual(deadOf({ size: 5 }), []);
  assert.deepEqual(deadOf(null), []);
  const bare = withDead(setup, []);
  assert.deepEqual(bare, { size: 5, move: 3, diagram: "x" });
  assert.deepEqual(setup.dead, ["一二", "二二"]);
  const one = withDead(bare, ["一二"]);
  assert.deepEqual(one.dead, ["一二"]);
  assert.equal(bare.dead, undefined);
});

test("toggledDead marks a whole string dead, and alive again", () => {
  const string = ["一二", "一三"];
  const dead = toggledDead(["OO"], "一二", string);
  assert.deepEqual(dead, ["OO", "一二", "一三"]);
  assert.deepEqual(toggledDead(dead, "一三", string), ["OO"]);
});

test("cascadeLines shows a step said twice in a row once, with its count", () => {
  const r = {
    notation: "黑291.七A",
    steps: ["GO-CASCADE: recomputed", "GO-CASCADE: recomputed", "GO-CASCADE: recomputed", "done"],
    captured: ["五O*"], eyes_made: [{ string: "一一*" }], eyes_lost: [],
    attribute_changes: [{ string: "六六*", from: "weak", to: "strong" }], game_over: true,
  };
  assert.deepEqual(cascadeLines(r), [
    "黑291.七A", "GO-CASCADE: recomputed (×3)", "done", "captured: 五O*",
    "private eye made: 一一*", "flower 六六*: weak → strong", "the game is over",
  ]);
});

test("clauseParts cuts out whole clause ids only", () => {
  assert.deepEqual(clauseParts("see M20-SCORE and M20-SCORE-AREA.", ["M20-SCORE"]), [
    "see ", { clause: "M20-SCORE" }, " and M20-SCORE-AREA.",
  ]);
  assert.deepEqual(clauseParts("no ids", []), ["no ids"]);
  // an id that is not a plain word is never made a pattern
  assert.deepEqual(clauseParts("a (b", ["(b"]), ["a (b"]);
});

test("recordStatus names the move, the last move and the rules", () => {
  const rec = { at: 3, last: 9, mechanical: false, rules: "cn" };
  assert.equal(recordStatus(rec), "move 3 of 9 (cn)");
  assert.equal(recordStatus(rec, true), "move 3 of 9");
  assert.equal(recordStatus({ ...rec, mechanical: true }, true), "move 3 of 9 (mechanical, cn)");
  // the rules actually used, when known, with the options changed from the preset
  assert.equal(recordStatus({ ...rec, mechanical: true, rulesText: "cn, komi 7.5" }), "move 3 of 9 (mechanical, cn, komi 7.5)");
});

test("rulesText names the preset and each option changed from it", () => {
  const options = { presets: [{ name: "cn", rules: { preset: "cn", komi: 0, schedule: "cycle10" } }], options: [{ name: "komi" }, { name: "schedule" }] };
  assert.equal(rulesText(options, { preset: "cn", komi: 0, schedule: "cycle10" }, "cn"), "cn");
  assert.equal(rulesText(options, { preset: "cn", komi: 7.5, schedule: "alternate" }, "cn"), "cn, komi 7.5, schedule alternate");
  assert.equal(rulesText(options, null, "cn"), "cn");
});
