// captures.js: the captures count in words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { capturesText } from "../captures.js";

test("each player's captured stones", () => {
  assert.equal(capturesText({ black: 1, white: 12 }), "captures: black 1 · white 12");
  assert.equal(capturesText({ black: 0, white: 0 }), "captures: black 0 · white 0");
});
