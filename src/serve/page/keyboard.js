// The keys: keys.js decides what a key press does, this does it. The help overlay (`?`) lists
// every key from keys.js's table.
import { $ } from "./api.js";
import { chooseTool, placeCursor } from "./board.js";
import { clickPoint, pass, undo } from "./edit.js";
import { KEYS, cursorMoved, keyAction, placeOf } from "./keys.js";
import { cellOf, labelAt } from "./position.js";
import { go, step } from "./records.js";
import { state } from "./state.js";
import { markVisit } from "./view.js";

// What keys.js needs to know of the element a key is pressed on.
function targetOf(t) {
  if (!t || !t.tagName) return null;
  return {
    tagName: t.tagName, type: t.type, id: t.id,
    inMovelist: !!t.closest("#movelist"), inTools: !!t.closest("#tools"),
  };
}
function onKey(e) {
  const help = $("help");
  const act = keyAction(e, placeOf(targetOf(e.target), help.open), !!state.record);
  if (!act) return;
  if (act.prevent) e.preventDefault();
  switch (act.do) {
    case "cursor": {
      const n = state.size;
      const [r, c] = cursorMoved(state.cursor ? cellOf(state.cursor, n) : null, act.dr, act.dc, n);
      placeCursor(labelAt(r, c, n));
      break;
    }
    case "click":
      if (state.cursor) clickPoint(state.cursor);
      break;
    case "step":
      step(act.by);
      break;
    case "go":
      markVisit();
      go(act.to === "last" ? state.record.last : act.to);
      break;
    case "pass":
      pass();
      break;
    case "undo":
      undo();
      break;
    case "tool":
      chooseTool(act.tool);
      break;
    case "help":
      if (!help.open) help.showModal();
      break;
    case "close-help":
      help.close();
      break;
    default:
      break;
  }
}
// The help overlay's table, and the keys listened to on the whole page.
export function installKeys() {
  const body = $("help-keys");
  for (const k of KEYS) {
    const tr = document.createElement("tr");
    const key = document.createElement("th");
    key.scope = "row";
    key.textContent = k.keys;
    const what = document.createElement("td");
    what.textContent = k.what;
    tr.append(key, what);
    body.appendChild(tr);
  }
  $("help-close").addEventListener("click", () => $("help").close());
  document.addEventListener("keydown", onKey);
}
