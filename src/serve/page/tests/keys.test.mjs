// Which key does what (keys.js), decided without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { KEYS, TOOLS, cursorMoved, keyAction, placeOf } from "../keys.js";

const key = (k, mods = {}) => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, ...mods });
const radio = { tagName: "INPUT", type: "radio", id: "", inTools: true, inMovelist: false };

test("placeOf: text fields type, the radios are the tools, the board and the move list", () => {
  assert.equal(placeOf({ tagName: "INPUT", type: "number" }, false), "typing");
  assert.equal(placeOf({ tagName: "INPUT", type: "text" }, false), "typing");
  assert.equal(placeOf({ tagName: "TEXTAREA" }, false), "typing");
  assert.equal(placeOf({ tagName: "SELECT" }, false), "typing");
  assert.equal(placeOf(radio, false), "tools");
  assert.equal(placeOf({ tagName: "INPUT", type: "checkbox" }, false), "page");
  assert.equal(placeOf({ tagName: "DIV", id: "board" }, false), "board");
  assert.equal(placeOf({ tagName: "BUTTON", id: "", inMovelist: true }, false), "movelist");
  assert.equal(placeOf(null, false), "page");
  assert.equal(placeOf(radio, true), "help");
});

test("an arrow on a tool radio never changes the tool", () => {
  for (const k of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]) {
    for (const hasRecord of [false, true]) {
      const a = keyAction(key(k), "tools", hasRecord);
      assert.ok(a && a.prevent, `${k} with a record ${hasRecord}: ${JSON.stringify(a)}`);
      assert.notEqual(a.do, "tool");
    }
  }
  // ←/→ step the record there as anywhere; ↑/↓ do nothing
  assert.deepEqual(keyAction(key("ArrowRight"), "tools", true), { do: "step", by: 1, prevent: true });
  assert.deepEqual(keyAction(key("ArrowUp"), "tools", true), { do: "none", prevent: true });
});

test("the move list: ↑/↓ step through the moves, Home/End go to the ends", () => {
  assert.deepEqual(keyAction(key("ArrowDown"), "movelist", true), { do: "step", by: 1, prevent: true });
  assert.deepEqual(keyAction(key("ArrowUp"), "movelist", true), { do: "step", by: -1, prevent: true });
  assert.deepEqual(keyAction(key("Home"), "movelist", true), { do: "go", to: 0, prevent: true });
  assert.deepEqual(keyAction(key("End"), "movelist", true), { do: "go", to: "last", prevent: true });
});

test("the record's keys step only with a record; PgUp/PgDn are ten", () => {
  assert.deepEqual(keyAction(key("PageDown"), "page", true), { do: "step", by: 10, prevent: true });
  assert.deepEqual(keyAction(key("PageUp"), "board", true), { do: "step", by: -10, prevent: true });
  assert.equal(keyAction(key("ArrowLeft"), "page", false), null);
  assert.equal(keyAction(key("Home"), "page", false), null);
});

test("the board: arrows move the cursor, Enter and Space click", () => {
  assert.deepEqual(keyAction(key("ArrowLeft"), "board", true), { do: "cursor", dr: 0, dc: -1, prevent: true });
  assert.deepEqual(keyAction(key("ArrowDown"), "board", false), { do: "cursor", dr: 1, dc: 0, prevent: true });
  assert.deepEqual(keyAction(key("Enter"), "board", false), { do: "click", prevent: true });
  assert.deepEqual(keyAction(key(" "), "board", false), { do: "click", prevent: true });
  assert.equal(keyAction(key("Enter"), "page", false), null);
});

test("pass, undo, the tools by digit, and the help", () => {
  assert.equal(keyAction(key("p"), "page", false).do, "pass");
  assert.equal(keyAction(key("u"), "movelist", true).do, "undo");
  TOOLS.forEach((t, k) => assert.deepEqual(keyAction(key(String(k + 1)), "page", false), { do: "tool", tool: t, prevent: true }));
  assert.equal(keyAction(key("8"), "page", false), null);
  assert.equal(keyAction(key("?"), "tools", false).do, "help");
  assert.equal(keyAction(key("Escape"), "help", false).do, "close-help");
  assert.equal(keyAction(key("?"), "help", false).do, "close-help");
  assert.equal(keyAction(key("p"), "help", false), null);
});

test("typing and modified keys are the browser's", () => {
  for (const k of ["p", "u", "?", "1", "ArrowLeft", "Home"]) {
    assert.equal(keyAction(key(k), "typing", true), null, k);
    assert.equal(keyAction(key(k, { ctrlKey: true }), "page", true), null, k);
    assert.equal(keyAction(key(k, { altKey: true }), "board", true), null, k);
  }
});

test("the help lists every key keyAction answers", () => {
  const listed = KEYS.map((k) => k.keys).join(" | ");
  for (const k of ["←", "→", "↑", "↓", "PgUp", "PgDn", "Home", "End", "Enter", "Space", "p", "u", "1 – 7", "?", "Escape"]) {
    assert.ok(listed.includes(k), `${k} not in the help: ${listed}`);
  }
  const all = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", "Enter", " ",
    "p", "u", "?", "Escape", "1", "7", "a", "x", "Tab"];
  const answered = new Set();
  for (const k of all) {
    for (const place of ["page", "board", "movelist", "tools", "help"]) {
      if (keyAction(key(k), place, true)) answered.add(k);
    }
  }
  // the keys answered are those listed (and only those): Tab and letters stay the browser's
  assert.deepEqual([...answered].sort(), all.filter((k) => !["a", "x", "Tab"].includes(k)).sort());
});

test("the cursor starts in the centre and stays on the board", () => {
  assert.deepEqual(cursorMoved(null, 0, 1, 9), [4, 5]);
  assert.deepEqual(cursorMoved([0, 0], -1, 0, 9), [0, 0]);
  assert.deepEqual(cursorMoved([8, 8], 1, 0, 9), [8, 8]);
  assert.deepEqual(cursorMoved([3, 2], 0, -1, 5), [3, 1]);
});
