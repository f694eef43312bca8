// The captures count, as Sabaki and OGS show it beside each player: the stones each player has
// taken off the board so far in the record browsed (the server's `captures`, read from the
// engine's report of each move). Hidden off the record (a position set up has no history).
import { $ } from "./api.js";

// The count in words, short enough for the steps' bar (pure; tests/captures.test.mjs): `c` is
// { black, white }.
export function capturesText(c) {
  return "captures: black " + c.black + " · white " + c.white;
}
// Shows `c` (a record-move answer's `captures`), or hides the count (null: no record move).
export function showCaptures(c) {
  const box = $("captures");
  box.hidden = !c;
  box.textContent = c ? capturesText(c) : "";
  if (c) {
    box.dataset.black = String(c.black);
    box.dataset.white = String(c.white);
  }
}
