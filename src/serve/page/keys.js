// Which key does what: one table (the help overlay lists it) and the decision for a key press
// (`keyAction`), pure: tested under node (tests/keys.test.mjs). keyboard.js does what it decides.

// The tools, in the order of their radio buttons: the digit keys 1–7 choose them.
export const TOOLS = ["black", "white", "flower", "empty", "play", "dead", "explain"];

// Every key of the page, as the help overlay lists it.
export const KEYS = [
  { keys: "← / →", what: "the record's previous / next move" },
  { keys: "PgUp / PgDn", what: "ten moves back / on" },
  { keys: "Home / End", what: "the record's start / last move" },
  { keys: "↑ / ↓", what: "in the move list: the previous / next move (the list is one Tab stop)" },
  { keys: "← → ↑ ↓ on the board", what: "move the cursor" },
  { keys: "Enter or Space on the board", what: "click the cursor's point" },
  { keys: "p", what: "pass" },
  { keys: "u", what: "undo" },
  { keys: "1 – 7", what: "choose the tool: " + TOOLS.map((t, k) => (k + 1) + " " + (t === "dead" ? "mark dead" : t)).join(", ") },
  { keys: "?", what: "this help" },
  { keys: "Escape", what: "close this help" },
];

const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
const STEPS = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };

// Where a key is pressed, from its target: "typing" (a text field, a list box), "board",
// "movelist" (a move of the list), "tools" (a tool radio button), "help" (the help is open), or
// "page". `t`: { tagName, type, id, inMovelist, inTools }; `helpOpen`: the overlay is shown.
export function placeOf(t, helpOpen) {
  if (helpOpen) return "help";
  if (!t) return "page";
  if (t.tagName === "TEXTAREA" || t.tagName === "SELECT") return "typing";
  if (t.tagName === "INPUT") {
    if (t.inTools && t.type === "radio") return "tools";
    if (!["checkbox", "radio", "button", "file"].includes(t.type)) return "typing";
  }
  if (t.id === "board") return "board";
  if (t.inMovelist) return "movelist";
  return "page";
}

// What a key press does: null (nothing: the browser's own action), or { do, prevent, ... }:
// "cursor" (dr, dc), "click" (the cursor's point), "step" (by), "go" (to: a move or "last"),
// "pass", "undo", "tool" (tool), "help", "close-help", or "none" (a key kept from the
// browser: an arrow on a tool radio never changes the tool).
// `e`: { key, altKey, ctrlKey, metaKey }; `place`: placeOf's; `hasRecord`: a record is loaded.
export function keyAction(e, place, hasRecord) {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  if (place === "help") return e.key === "Escape" || e.key === "?" ? { do: "close-help", prevent: true } : null;
  if (place === "typing") return null;
  if (e.key === "?") return { do: "help", prevent: true };
  if (place === "board") {
    const d = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
    if (d) return { do: "cursor", dr: d[0], dc: d[1], prevent: true };
    if (e.key === "Enter" || e.key === " ") return { do: "click", prevent: true };
  }
  if (place === "movelist" && hasRecord && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
    return { do: "step", by: e.key === "ArrowUp" ? -1 : 1, prevent: true };
  }
  if (e.key in STEPS && hasRecord && !(place === "tools" && (e.key === "ArrowUp" || e.key === "ArrowDown"))) {
    return { do: "step", by: STEPS[e.key], prevent: true };
  }
  if (e.key === "Home" && hasRecord) return { do: "go", to: 0, prevent: true };
  if (e.key === "End" && hasRecord) return { do: "go", to: "last", prevent: true };
  if (e.key === "p") return { do: "pass", prevent: true };
  if (e.key === "u") return { do: "undo", prevent: true };
  const k = "1234567".indexOf(e.key);
  if (e.key.length === 1 && k >= 0) return { do: "tool", tool: TOOLS[k], prevent: true };
  if (place === "tools" && ARROWS.includes(e.key)) return { do: "none", prevent: true };
  return null;
}

// The board cursor after a move by (dr, dc) from `rc` (or from the centre), kept on the board.
export function cursorMoved(rc, dr, dc, n) {
  const [r, c] = rc || [(n - 1) / 2, (n - 1) / 2];
  return [Math.min(n - 1, Math.max(0, r + dr)), Math.min(n - 1, Math.max(0, c + dc))];
}
