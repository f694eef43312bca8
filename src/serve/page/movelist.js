// The record browser's lists: the moves (one Tab stop: the current move has tabindex 0, the
// others -1; ↑/↓ step through them, keyboard.js), the game information and the comments.
import { $ } from "./api.js";
import { showClause } from "./explain.js";
import { clauseParts } from "./position.js";
import { state } from "./state.js";

// A click on a move goes to it: records.js's `go`, registered by main.js (records.js is above
// this module, which it draws with).
let goTo = () => {};
export function onMoveClick(go) {
  goTo = go;
}
// The move list: the record's moves (and the moves played after leaving it), the current one
// highlighted; a click goes to that move.
export function drawMoveList() {
  const box = $("movelist");
  const rec = state.record;
  const built = rec ? rec.id + "/" + rec.moves.length : "";
  if (box.dataset.built !== built) {
    box.innerHTML = "";
    box.dataset.built = built;
    for (const m of rec ? rec.moves : []) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "mv" + (m.replaced ? " replaced" : "") + (m.comment ? " commented" : "");
      b.dataset.move = String(m.number);
      b.textContent = m.notation;
      b.title = m.line + (m.comment ? "\n" + m.comment : "");
      b.setAttribute("aria-label", "go to move " + m.number + " " + m.notation);
      b.tabIndex = -1;
      b.addEventListener("click", () => goTo(m.number));
      box.appendChild(b);
    }
  }
  for (const e of box.querySelectorAll(".current")) {
    e.classList.remove("current");
    e.removeAttribute("aria-current");
  }
  for (const e of box.querySelectorAll(".played")) e.remove();
  let cur = null;
  if (rec) {
    cur = state.inRecord ? box.querySelector(`.mv[data-move="${rec.at}"]`) : null;
    if (cur) {
      cur.classList.add("current");
      cur.setAttribute("aria-current", "step");
      if (box.scrollHeight > box.clientHeight) {
        box.scrollTop = Math.max(0, cur.offsetTop - box.offsetTop - box.clientHeight / 2);
      }
    }
  }
  rovingStop(box, cur || (rec && box.querySelector(`.mv[data-move="${rec.at}"]`)) || box.querySelector("button.mv"));
  state.played.forEach((m, k) => {
    const b = document.createElement("span");
    b.className = "mv played" + (k === state.played.length - 1 ? " current" : "");
    b.textContent = m;
    box.appendChild(b);
  });
}
// The list's one Tab stop moves to `stop`; the focus follows it when it was in the list.
function rovingStop(box, stop) {
  for (const e of box.querySelectorAll("button.mv[tabindex='0']")) if (e !== stop) e.tabIndex = -1;
  if (!stop) return;
  stop.tabIndex = 0;
  if (box.contains(document.activeElement) && document.activeElement !== stop) stop.focus({ preventScroll: true });
}
// The record's game information (players, result, event…) above the move list; its comments
// (the root's, the game comment) show with the moves. Everything is inserted as text: records
// and their comments come from programs.
export function showInfo(rec) {
  const box = $("record-info");
  box.textContent = "";
  const shown = rec.info.filter((e) => e.key !== "comment" && e.key !== "game-comment");
  shown.forEach((e, k) => {
    if (k) box.appendChild(document.createTextNode(" · "));
    const key = document.createElement("span");
    key.className = "key";
    key.textContent = e.key + (e.go_only ? " (of the Go game, not the replay)" : "") + ": ";
    const v = document.createElement("span");
    v.dataset.info = e.key;
    v.textContent = e.value;
    box.append(key, v);
  });
  box.hidden = !shown.length;
}
function infoOf(rec, key) {
  const e = rec.info.find((x) => x.key === key);
  return e ? e.value : null;
}
// The comment at the move reached: the record's opening comment at the start, the move's own
// comment, and the game comment at the last move.
export function showComment(rec) {
  const box = $("comment");
  box.textContent = "";
  const parts = [];
  if (rec.at === 0 && infoOf(rec, "comment")) parts.push(["before move " + rec.first, infoOf(rec, "comment")]);
  const m = rec.moves.find((x) => x.number === rec.at);
  if (m && m.comment) parts.push([m.notation, m.comment]);
  if (rec.at === rec.last && infoOf(rec, "game-comment")) parts.push(["game", infoOf(rec, "game-comment")]);
  for (const [at, text] of parts) {
    const p = document.createElement("div");
    p.className = "said";
    const head = document.createElement("span");
    head.className = "at";
    head.textContent = at + ": ";
    p.appendChild(head);
    withClauses(p, text, rec);
    box.appendChild(p);
  }
  box.hidden = !parts.length;
}
// `text` appended to `el` as text, each clause id the record cites (rec.clauses) a button that
// shows the clause in the clause view.
function withClauses(el, text, rec) {
  for (const part of clauseParts(text, rec.clauses.map((c) => c.id))) {
    if (typeof part === "string") {
      el.appendChild(document.createTextNode(part));
      continue;
    }
    const c = rec.clauses.find((x) => x.id === part.clause);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "clause-ref";
    b.dataset.clause = c.id;
    b.title = c.quote + " — " + c.reading;
    const code = document.createElement("code");
    code.textContent = c.id;
    b.appendChild(code);
    b.addEventListener("click", () => showClause(c, text));
    el.appendChild(b);
  }
}
