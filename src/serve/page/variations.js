// Variations as a tree, the pure part (no DOM; tests/variations.test.mjs): the branches at a
// move of a record — the lines of the SGF loaded that leave the line shown there, and the moves a
// referee played from an earlier move — each with its letter (A, B, …) and the point of its next
// move, and the SGF written with its variations (the lines merged into one game tree at the
// moves where they part).
import { sgfTree } from "./recordtext.js";
import { labelAt } from "./position.js";

// The move of an SGF node as a key: its B or W property, and FL (m3go's flower stone); null for
// a node that plays no move (the root's game information, a set-up node).
export function moveKey(node) {
  const m = node.match(/(?:^|[\];])\s*([BW])\s*\[([^\]]*)\]/);
  if (!m) return null;
  return m[1] + "[" + m[2] + "]" + (/(^|[\];])\s*FL\s*\[/.test(node) ? "FL" : "");
}
// The moves of a line of play (an SGF with no variation), as keys, in order.
export function lineMoves(text) {
  const t = sgfTree(text);
  return t ? t.nodes.map(moveKey).filter((k) => k !== null) : [];
}
// The label of an SGF move key's point on a board of `size` (null: a pass).
export function keyPoint(key, size) {
  const m = key && key.match(/^[BW]\[([a-s])([a-s])\]/);
  if (!m) return null;
  const c = m[1].charCodeAt(0) - 97, r = m[2].charCodeAt(0) - 97;
  return c < size && r < size ? labelAt(r, c, size) : null;
}
// The point of a move in notation (黑35.OO, 华9.一九): after the dot; null for a pass.
export function notationPoint(n) {
  const m = String(n).match(/\.([^.\s]+)$/);
  return m ? m[1] : null;
}
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const letter = (k) => (k < LETTERS.length ? LETTERS[k] : "Z" + (k - LETTERS.length + 2));

// The branches after `n` moves of line `k` of `lines` ([{ moves: [key] }]): the line's own next
// move first, then each other line with the same first `n` moves and another next move (the
// first line of each such move), then `played` ([{ moves: [notation] }], the referee's own
// lines from here). Each: { letter, kind ("line" or "played"), index, point, move }.
export function branchesAt(lines, k, n, size, played = []) {
  const out = [];
  const seen = new Set();
  const own = lines[k] ? lines[k].moves : [];
  const order = [k, ...lines.map((_, j) => j).filter((j) => j !== k)];
  for (const j of order) {
    const m = lines[j] ? lines[j].moves : [];
    if (m.length <= n || seen.has(m[n])) continue;
    let same = true;
    for (let i = 0; i < n && same; i++) same = m[i] === own[i];
    if (!same) continue;
    seen.add(m[n]);
    out.push({ kind: "line", index: j, move: m[n], point: keyPoint(m[n], size) });
  }
  played.forEach((p, j) => {
    if (p.moves.length) out.push({ kind: "played", index: j, move: p.moves[0], point: notationPoint(p.moves[0]) });
  });
  return out.map((b, j) => ({ ...b, letter: letter(j) }));
}

// ---- the SGF with its variations ----------------------------------------------------------------
// One game tree from linear SGFs (each a line of play from the same start): the first is the
// main line, whose root node (the game information) is kept; each other line joins it where its
// moves part from those already there (nodes compared by their move: a line written by m3go and
// the file's own agree on B[..]/W[..] whatever else a node holds), the rest of it a variation.
export function mergeLines(texts) {
  const trees = texts.map(sgfTree).filter(Boolean);
  if (!trees.length) return null;
  const root = { text: trees[0].nodes[0] || ";", children: [] };
  for (const t of trees) {
    let at = root;
    for (const node of t.nodes.slice(1)) {
      const key = moveKey(node) || node;
      let next = at.children.find((c) => c.key === key);
      if (!next) {
        next = { text: node, key, children: [] };
        at.children.push(next);
      }
      at = next;
    }
  }
  return "(" + written(root) + ")\n";
}
// A node and what follows it: one line of nodes while it does not branch, each variation in
// parentheses where it does (one node a line, as m3go writes an SGF).
function written(node) {
  let out = node.text;
  let at = node;
  while (at.children.length === 1) {
    at = at.children[0];
    out += "\n" + at.text;
  }
  if (at.children.length > 1) out += at.children.map((c) => "\n(" + written(c) + ")").join("");
  return out;
}
