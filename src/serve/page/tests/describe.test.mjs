// describe.js: what the cursor's live region says of a point.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pointText } from "../describe.js";

const an = {
  strings: [{ name: "A二*", colour: "black", points: ["A二", "A一"], lower_liberties: ["B二"], private_eyes: [{ points: ["B二"] }] }],
  flowers: [{ name: "OO*", points: ["OO"], attribute: "neutral", clause: "M20-ATTR-1" }],
  forbidden: {
    black: [{ point: "B二", reason: "one-liberty-eye", owner: "black", clause: "M20-FORBID-EYE" }],
    white: [{ point: "B二", reason: "one-liberty-eye", owner: "black", clause: "M20-FORBID-EYE" }],
  },
};

test("a stone: its colour, string, stones, liberties and eyes", () => {
  assert.equal(pointText(an, "A一"), "A一, black stone, string A二* (2 stones, 1 liberty), private eye B二");
});
test("a flower: its string and attribute with the clause", () => {
  assert.equal(pointText(an, "OO"), "OO, flower, string OO*: neutral (M20-ATTR-1)");
});
test("an empty point: whose eye it is, whom it is forbidden to and why, in the labels shown", () => {
  const latin = (n) => ({ "B二": "b2", "A二*": "a2*" })[n] || n;
  assert.equal(pointText(an, "B二", latin),
    "b2, empty, private eye of black a2*, forbidden to black's 华: one-liberty-eye of black (M20-FORBID-EYE), forbidden to white's 花: one-liberty-eye of black (M20-FORBID-EYE)");
  assert.equal(pointText(an, "一一"), "一一, empty");
  assert.equal(pointText(null, "一一"), "一一");
});

test("a stone marked dead for the count is said to be", () => {
  const an = { strings: [{ colour: "black", name: "OO", points: ["OO"], lower_liberties: ["O一"], private_eyes: [] }], flowers: [], forbidden: {} };
  assert.match(pointText(an, "OO", (n) => n, ["OO"]), /, marked dead$/);
  assert.doesNotMatch(pointText(an, "OO"), /marked dead/);
});
