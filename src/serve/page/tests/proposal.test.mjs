// The dead-stone proposal's pure part (proposal.js): the verdict against the marks, the line
// shown and in the ruling, when the phase marks it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { proposalText, proposalToMark, proposalVerdict, proposedPoints } from "../proposal.js";

const proposal = [["OO", "O一"], ["三三"]];

test("proposedPoints flattens the strings in order", () => {
  assert.deepEqual(proposedPoints(proposal), ["OO", "O一", "三三"]);
  assert.deepEqual(proposedPoints(null), []);
});

test("proposalVerdict: as proposed, or edited with what was added and removed", () => {
  assert.equal(proposalVerdict([], null).state, "none");
  assert.equal(proposalVerdict(["三三", "OO", "O一"], proposal).state, "proposed");
  const v = proposalVerdict(["OO", "O一", "A二"], proposal);
  assert.equal(v.state, "edited");
  assert.deepEqual(v.added, ["A二"]);
  assert.deepEqual(v.removed, ["三三"]);
  assert.equal(proposalVerdict([], []).state, "proposed");
  assert.equal(proposalVerdict(["OO"], []).state, "edited");
});

test("proposalText names the proposal and the referee's changes, in the labels shown", () => {
  const t = proposalText(["OO", "O一", "三三"], proposal, (p) => "<" + p + ">");
  assert.equal(t, "dead stones as proposed by the engine's analysis: 2 strings, 3 stones (<OO> <O一> <三三>); click a stone to change them");
  const e = proposalText(["OO", "O一"], proposal);
  assert.equal(e, "dead stones edited by the referee from the engine's proposal (2 strings, 3 stones (OO O一 三三)): removed 三三");
  assert.match(proposalText([], []), /as proposed by the engine's analysis: no dead stones/);
  assert.equal(proposalText([], null), "");
  assert.match(proposalText([], [["OO"]]), /1 string, 1 stone \(OO\)/);
});

test("proposalToMark: only an unmarked position with something proposed", () => {
  assert.equal(proposalToMark([], proposal), true);
  assert.equal(proposalToMark(["OO"], proposal), false);
  assert.equal(proposalToMark([], []), false);
  assert.equal(proposalToMark([], null), false);
});
