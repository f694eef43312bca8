// The scoring phase's pure part (scoring.js): the phase, the link's parameters, the legend and
// the trace's lines.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  OWNER_LEGEND, legendText, ownerKind, ownerLetter, phaseAfter, phaseText, samePosition, scoreParams,
  setScoreParams, traceLines,
} from "../scoring.js";

test("phaseAfter: none while the game goes on, marking on a new finished position", () => {
  assert.equal(phaseAfter("accepted", false, true), null);
  assert.equal(phaseAfter(null, true, true), "marking");
  assert.equal(phaseAfter("accepted", true, false), "marking");
  assert.equal(phaseAfter("accepted", true, true), "accepted");
  assert.equal(phaseAfter("marking", true, true), "marking");
});

test("samePosition ignores the dead marks only", () => {
  const a = { diagram: "d", move: 5, trailing_passes: 2 };
  assert.ok(samePosition(a, { ...a, dead: ["OO"] }));
  assert.ok(!samePosition(a, { ...a, move: 6 }));
  assert.ok(!samePosition(a, { ...a, trailing_passes: 1 }));
  assert.ok(!samePosition(null, a));
});

test("the link carries the dead marks and the accepted count, and reads them back", () => {
  const p = new URLSearchParams("record=g.sgf&at=289");
  setScoreParams(p, ["一二", "二二"], "accepted");
  const again = new URLSearchParams(p.toString());
  assert.deepEqual(scoreParams(again), { dead: ["一二", "二二"], accepted: true });
  setScoreParams(again, [], "marking");
  assert.equal(again.toString(), "record=g.sgf&at=289");
  assert.deepEqual(scoreParams(again), { dead: [], accepted: false });
  assert.deepEqual(scoreParams(new URLSearchParams("dead=%2C%E4%B8%80%E4%BA%8C%2C")).dead, ["一二"]);
});

test("the owners' letters each have their meaning in the legend", () => {
  for (const [letter, owner] of OWNER_LEGEND) {
    assert.equal(ownerLetter(owner), letter);
    assert.ok(legendText().includes(letter + " "), letter);
  }
  assert.ok(legendText().includes("seki"));
  assert.equal(ownerLetter("nobody"), "?");
});

test("ownerKind: a halved point is dame where the trace says so, seki otherwise", () => {
  const trace = {
    regions: [
      { owner: "seki", reason: "seki", points: ["O一"] },
      { owner: "seki", reason: "dame", points: ["OO", "OA"] },
    ],
  };
  assert.equal(ownerKind("seki", "O一", trace), "seki");
  assert.equal(ownerKind("seki", "OA", trace), "dame");
  assert.equal(ownerKind("black", "OO", trace), "black");
  assert.equal(ownerKind("seki", "OO", null), "seki");
  assert.equal(ownerLetter(ownerKind("seki", "OO", trace)), "d");
  assert.ok(legendText().includes("d dame"));
});

test("traceLines: a line a region with its clauses and points shown, then komi", () => {
  const trace = {
    regions: [
      { owner: "black", reason: "territory", clause: "M20-SCORE-AREA", also: [], points: ["OO", "O一"], black: 4, white: 0, why: "empty points touching one colour only: black's" },
      { owner: "seki", reason: "dead", clause: "M20-SCORE-SEKI", also: ["M20-SCORE-DEAD"], points: ["一一"], black: 1, white: 1, why: "stones marked dead" },
      { owner: "neutral", reason: "neutral-enclosed", clause: "M20-SCORE-NEUTRAL-ENCLOSED", also: [], points: ["A一", "AO", "AA", "B一", "BO", "BA", "C一", "CO", "CA", "D一"], black: 0, white: 0, why: "enclosed" },
    ],
    komi: { clause: "M20-SCORE-KOMI", why: "komi 0 charged to black" },
  };
  const lines = traceLines(trace, (p) => p + "'", 8);
  assert.equal(lines.length, 4);
  assert.equal(lines[0].text, "OO' O一': empty points touching one colour only: black's (black +4 half-points)");
  assert.deepEqual(lines[1].clauses, ["M20-SCORE-SEKI", "M20-SCORE-DEAD"]);
  assert.ok(lines[1].text.includes("black +1, white +1"));
  assert.ok(lines[2].text.includes("… (10 points)") && !lines[2].text.includes("half-points"));
  assert.deepEqual(lines[2].points.length, 10);
  assert.deepEqual(lines[3], { owner: "komi", text: "komi 0 charged to black", clauses: ["M20-SCORE-KOMI"], points: [] });
  assert.deepEqual(traceLines(null), []);
});

test("phaseText: what to do while marking, the count once accepted", () => {
  const score = { black: 40, white: 30, winner: "black" };
  assert.equal(phaseText(null, score, 0), "");
  assert.ok(phaseText("marking", score, 0).includes("click a stone"));
  assert.equal(phaseText("accepted", score, 3), "count accepted: black 40 · white 30 (half-points) → black, 3 dead stones removed");
  assert.ok(phaseText("marking", null, 0).endsWith("not counted"));
});

test("the accepted count's dead stones in the singular and the plural", () => {
  const score = { black: 2, white: 0, winner: "black" };
  assert.match(phaseText("accepted", score, 1), /, 1 dead stone removed$/);
  assert.match(phaseText("accepted", score, 2), /, 2 dead stones removed$/);
});
