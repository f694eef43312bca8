// A record's text as the page reads it before the server does: an SGF's lines of play (the main
// line and each variation, as an SGF of its own, so that any line can be replayed) and the notes
// of what a replay does not use. Pure: tested under node (tests/recordtext.test.mjs).

// The most lines of play listed (a record with more lists the first ones, in tree order).
export const MAX_LINES = 200;

// The first game tree of an SGF as { nodes: [node text], children: [tree] }, or null when the
// text is not one (the server names the fault when it is loaded).
export function sgfTree(text) {
  let k = text.indexOf("(");
  if (k < 0) return null;
  const root = { nodes: [], children: [] };
  const stack = [];
  let tree = null;
  let node = null;
  for (; k < text.length; k++) {
    const ch = text[k];
    if (ch === "[") {
      // a property value, to its closing bracket (a backslash escapes the next character)
      let j = k + 1;
      while (j < text.length && text[j] !== "]") j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length || node === null) return null;
      tree.nodes[tree.nodes.length - 1] += text.slice(k, j + 1);
      k = j;
    } else if (ch === "(") {
      const t = tree === null ? root : { nodes: [], children: [] };
      if (tree !== null) tree.children.push(t);
      stack.push(t);
      tree = t;
      node = null;
    } else if (ch === ")") {
      stack.pop();
      if (!stack.length) return root;
      tree = stack[stack.length - 1];
      node = null;
    } else if (ch === ";") {
      if (tree === null) return null;
      tree.nodes.push(";");
      node = tree.nodes.length - 1;
    } else if (node !== null && !/\s/.test(ch)) {
      tree.nodes[node] += ch;
    }
  }
  return null;
}

// Whether an SGF node plays a move (a B or W property, the record's moves).
const isMove = (n) => /(^|[\];])\s*[BW]\s*\[/.test(n);

// Every line of play of an SGF's first game, the main line first: { text: the line as an SGF
// of its own, from: the move where it leaves the line before it (0 for the main line), moves }.
// An SGF with no variation, or text that is not SGF, gives [].
export function sgfLines(text) {
  const root = sgfTree(text);
  if (!root) return [];
  const lines = [];
  // depth-first, the first child first: the main line is the first line found
  const walk = (t, before, movesBefore, from) => {
    if (lines.length >= MAX_LINES) return;
    const nodes = [...before, ...t.nodes];
    const moves = movesBefore + t.nodes.filter(isMove).length;
    if (!t.children.length) {
      lines.push({ text: "(" + nodes.join("") + ")", from, moves });
      return;
    }
    t.children.forEach((c, k) => {
      // a variation leaves at its first move
      walk(c, nodes, moves, k === 0 ? from : moves + 1);
    });
  };
  walk(root, [], 0, 0);
  return lines.length > 1 ? lines : [];
}
// The name of line `k` of `lines` in the line chooser.
export function lineName(lines, k) {
  const l = lines[k];
  if (k === 0) return "main line (" + l.moves + " moves)";
  return "variation " + k + ": from move " + l.from + " (" + l.moves + " moves)";
}

// The note of a mechanical replay's Go-only information (the record's `info` as the `record`
// API answers it: key, property, value, go_only), worded as the CLI's `replay --save` and
// `convert` say it; null when there is none.
// `rules`: the rules replayed under, whose komi the note names.
export function goOnlyNote(info, rules) {
  const list = (info || []).filter((e) => e.go_only).map((e) => (e.property || e.key) + "[" + e.value + "]");
  if (!list.length) return null;
  const komi = rules && typeof rules.komi === "number" ? ", " + rules.komi : "";
  return "the Go record's own result, rules and komi, which do not hold for the three-colour game replayed: " +
    list.join(", ") + " (the rules are m3go's: the komi is the rules' komi" + komi + ")";
}

// The name of a record's export (without its extension): the file loaded, and the move it ends
// at when that is not the record's last (with the moves played after it).
export function exportName(recordName, at, played, last) {
  const stem = String(recordName).replace(/\.[^.]*$/, "").replace(/[^\w.\u4e00-\u9fff-]+/g, "_") || "record";
  if (at === last && !played) return stem;
  return stem + "-move-" + at + (played ? "+" + played : "");
}
