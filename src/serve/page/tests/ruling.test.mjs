// ruling.js: the ruling's HTML, its text escaped, its position read back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { escapeHtml, rulingHtml, rulingPhase, rulingPosition, scoreOwners } from "../ruling.js";

// the position's object (a text in it that would close the data's script if not escaped)
const POSITION = { rules: { preset: "m3go-2020" }, size: 3, move: 2, diagram: ". X .\n. . .\n. . .\n</script><script>alert(1)</script>\n" };
// a ruling of an older page carried the position file's text
const TEXT = "size: 3\nmove: 2\ndiagram: |\n  . X .\n  . . .\n  . . .\n# </script>\n";
const ruling = (position = POSITION) => rulingHtml({
  version: "0.1.0", title: "m3go ruling: 3×3 <b>", svg: "<svg viewBox=\"0 0 10 10\"><rect class=\"point\"/></svg>",
  position, rules: { preset: "m3go-2020", komi: 0 }, view: { record: "a.sgf", at: 1 }, link: "http://x/#record=a.sgf&at=1",
  summary: "to play: 白2", lists: [{ title: "Private eyes", items: ["black A一*: <eye>"] }],
  verdicts: [{ target: "OO", trace: "OO: M20-FORBID-EYE", clauses: [{ id: "M20-FORBID-EYE", seed: "003", quote: "一气眼 <q>", reading: "r" }] }],
  score: { line: "black 3 · white 0", owners: scoreOwners([{ point: "OO", owner: "black", clause: "M20-SCORE-AREA" }, { point: "AA", owner: "black", clause: "M20-SCORE-AREA" }, { point: "BB", owner: "neutral", clause: "M20-SCORE-NEUTRAL" }]) },
});

test("the ruling holds the figure inline, the verdicts, the score, the rules and the version, as text", () => {
  const h = ruling();
  assert.ok(h.startsWith("<!doctype html>"));
  assert.ok(h.includes("<svg viewBox=\"0 0 10 10\"><rect class=\"point\"/></svg>"));
  assert.ok(h.includes("m3go 0.1.0"));
  assert.ok(h.includes("一气眼 &lt;q&gt;"));
  assert.ok(h.includes("&lt;b&gt;") && !h.includes("3×3 <b>"));
  assert.ok(h.includes("<td>black</td><td>M20-SCORE-AREA</td><td>2: OO AA</td>"));
  assert.ok(h.includes("&quot;komi&quot;: 0"));
  // nothing in the position closes the data's script early
  assert.equal(h.split("</script>").length, 2);
});

test("the position comes back from the ruling; other text is no ruling", () => {
  assert.deepEqual(rulingPosition(ruling(), "r.html"), POSITION);
  assert.equal(rulingPosition(ruling(TEXT), "r.html"), TEXT);
  assert.equal(ruling(TEXT).split("</script>").length, 2);
  assert.ok(ruling().includes("&quot;size&quot;: 3"), "the position shown as its JSON");
  assert.equal(rulingPosition("size: 3\n", "p.yaml"), null);
  assert.throws(() => rulingPosition('<script type="application/json" id="m3go-ruling">{"format":"other"}</script>', "r.html"), /r\.html: .*m3go-ruling\/1/);
  assert.throws(() => rulingPosition('<script type="application/json" id="m3go-ruling">{</script>', "r.html"), /not JSON/);
  assert.throws(() => rulingPosition('<script type="application/json" id="m3go-ruling">{"format":"m3go-ruling/1","position":[1]}</script>', "r.html"), /with a position/);
});

test("escapeHtml escapes the five characters", () => {
  assert.equal(escapeHtml("<a href=\"x\" title='y'>&</a>"), "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
});

test("a finished game's ruling holds the count accepted, the dead stones, the trace and the players; the phase comes back", () => {
  const h = rulingHtml({
    version: "0.1.0", title: "t", svg: "<svg></svg>", position: POSITION, rules: {}, view: null, summary: "", verdicts: [], lists: [],
    score: null, game: [{ key: "black", value: "Ke <Jie>" }, { key: "white", value: "AlphaGo" }],
    scoring: {
      phase: "accepted", text: "count accepted: black 3 · white 0, 1 dead stone removed", dead: ["二B"],
      trace: [{ owner: "white", text: "二B: removed dead", clauses: ["M20-SCORE-AREA", "M20-SCORE-DEAD"] }],
    },
  });
  assert.ok(h.includes("count accepted: black 3"));
  assert.ok(h.includes("dead stones: 1: 二B"));
  assert.ok(h.includes("M20-SCORE-DEAD"));
  assert.ok(h.includes("<th>black</th><td>Ke &lt;Jie&gt;</td>"));
  assert.equal(rulingPhase(h), "accepted");
  assert.equal(rulingPhase(ruling()), null);
  assert.equal(rulingPhase("size: 3\n"), null);
});
