// recordtext.js: an SGF's lines of play, and the note of what a mechanical replay does not use.
import { test } from "node:test";
import assert from "node:assert/strict";
import { exportName, goOnlyNote, lineName, sgfLines, sgfTree } from "../recordtext.js";

const SGF = "(;GM[1]SZ[5]C[a \\] bracket];B[aa];W[bb](;B[cc];W[dd])(;B[ce]C[(;not a node)])(;B[ee]))";

test("the tree keeps each node's text, escapes and brackets in values included", () => {
  const t = sgfTree(SGF);
  assert.deepEqual(t.nodes, [";GM[1]SZ[5]C[a \\] bracket]", ";B[aa]", ";W[bb]"]);
  assert.equal(t.children.length, 3);
  assert.deepEqual(t.children[1].nodes, [";B[ce]C[(;not a node)]"]);
  assert.equal(sgfTree("(;B[aa]"), null);
  assert.equal(sgfTree("rules: m3go-2020\n黑1.OO"), null);
});

test("every line is an SGF of its own, the main line first, each variation from its move", () => {
  const lines = sgfLines(SGF);
  assert.equal(lines.length, 3);
  assert.equal(lines[0].text, "(;GM[1]SZ[5]C[a \\] bracket];B[aa];W[bb];B[cc];W[dd])");
  assert.deepEqual([lines[0].from, lines[0].moves], [0, 4]);
  assert.equal(lines[1].text, "(;GM[1]SZ[5]C[a \\] bracket];B[aa];W[bb];B[ce]C[(;not a node)])");
  assert.deepEqual([lines[1].from, lines[1].moves], [3, 3]);
  assert.equal(lineName(lines, 0), "main line (4 moves)");
  assert.equal(lineName(lines, 2), "variation 2: from move 3 (3 moves)");
  // no variation: no chooser
  assert.deepEqual(sgfLines("(;GM[1];B[aa];W[bb])"), []);
  assert.deepEqual(sgfLines("黑1.OO"), []);
});

test("a mechanical replay's Go-only information is named as the CLI names it", () => {
  const info = [
    { key: "black", property: "PB", value: "Ke Jie", go_only: false },
    { key: "result", property: "RE", value: "W+0.5", go_only: true },
    { key: "komi", property: "KM", value: "7.5", go_only: true },
  ];
  const n = goOnlyNote(info);
  assert.match(n, /^the Go record's own result, rules and komi, which do not hold for the three-colour game replayed: RE\[W\+0\.5\], KM\[7\.5\]/);
  assert.equal(goOnlyNote(info.slice(0, 1)), null);
  assert.equal(goOnlyNote(undefined), null);
  // the komi the replay applies is named beside the record's own it does not use
  assert.match(goOnlyNote(info, { preset: "m3go-2020", komi: 0 }), /the komi is the rules' komi, 0\)$/);
});

test("a record's export is named after the file loaded and the move it ends at", () => {
  assert.equal(exportName("kejie-alphago-2017-g1.sgf", 289, 0, 289), "kejie-alphago-2017-g1");
  assert.equal(exportName("kejie-alphago-2017-g1.sgf", 288, 0, 289), "kejie-alphago-2017-g1-move-288");
  assert.equal(exportName("g 1.sgf", 3, 2, 9), "g_1-move-3+2");
  assert.equal(exportName("<x>.sgf", 1, 0, 1), "_x_");
});
