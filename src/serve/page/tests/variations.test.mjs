// Variations as a tree, the pure part (variations.js): the move keys, the branches at a move,
// and the SGF merged from lines with its variations.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sgfLines } from "../recordtext.js";
import { branchesAt, keyPoint, letter, lineMoves, mergeLines, moveKey, notationPoint } from "../variations.js";

const TREE = "(;GM[1]SZ[5];B[cc];W[bb](;B[dd];W[db])(;B[bd]C[side])(;B[dd];W[ab]))";

test("moveKey: the B or W property, FL kept; none for a node without a move", () => {
  assert.equal(moveKey(";B[cc]C[x]"), "B[cc]");
  assert.equal(moveKey(";W[dd]FL[]"), "W[dd]FL");
  assert.equal(moveKey(";GM[1]SZ[5]PB[x]"), null);
  assert.equal(moveKey(";W[]"), "W[]");
});

test("keyPoint and notationPoint: the labels of the next moves, none for a pass", () => {
  assert.equal(keyPoint("B[cc]", 5), "OO");
  assert.equal(keyPoint("B[]", 5), null);
  assert.equal(notationPoint("黑35.OO"), "OO");
  assert.equal(notationPoint("pass"), null);
  assert.equal(letter(0), "A");
  assert.equal(letter(25), "Z");
});

test("branchesAt: the line's own next move first, the other lines parting there, the moves played", () => {
  const lines = sgfLines(TREE).map((l) => ({ moves: lineMoves(l.text) }));
  assert.equal(lines.length, 3);
  const at2 = branchesAt(lines, 0, 2, 5);
  assert.deepEqual(at2.map((b) => [b.letter, b.index, b.move]), [["A", 0, "B[dd]"], ["B", 1, "B[bd]"]]);
  // from the second line's point of view its own move is A
  assert.deepEqual(branchesAt(lines, 1, 2, 5).map((b) => b.index), [1, 0]);
  // after move 3 (B[dd]) the first and third lines part
  assert.deepEqual(branchesAt(lines, 0, 3, 5).map((b) => b.move), ["W[db]", "W[ab]"]);
  // one line only, and a move played from there: two branches
  const played = branchesAt(lines, 1, 2, 5, [{ moves: ["黑3.A二"] }]);
  assert.deepEqual(played.map((b) => [b.letter, b.kind, b.point]), [["A", "line", keyPoint("B[bd]", 5)], ["B", "line", keyPoint("B[dd]", 5)], ["C", "played", "A二"]]);
  assert.deepEqual(branchesAt(lines, 0, 0, 5).length, 1);
});

test("mergeLines: the lines of a tree written back as the same tree", () => {
  const merged = mergeLines(sgfLines(TREE).map((l) => l.text));
  // the same lines (two lines with the same move there are one branch: the tree's order)
  const lines = (t) => sgfLines(t).map((l) => lineMoves(l.text).join(" ")).sort();
  assert.deepEqual(lines(merged), lines(TREE));
  assert.match(merged, /^\(;GM\[1\]SZ\[5\]\n;B\[cc\]\n;W\[bb\]\n\(;B\[dd\]\n\(;W\[db\]\)\n\(;W\[ab\]\)\)\n\(;B\[bd\]C\[side\]\)\)\n$/);
  // a line that parts nowhere adds nothing; a linear SGF stays linear
  assert.equal(sgfLines(mergeLines(["(;SZ[5];B[cc];W[bb])", "(;SZ[5];B[cc])"])).length, 0);
});
