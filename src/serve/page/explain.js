// The "why": a point's, a string's or a move's clause trace, a clause cited by a record, the
// last move's cascade, and the readings (which rule option decides this).
import { $, api, busy, labelsOf, li, showError } from "./api.js";
import { cascadeLines } from "./position.js";
import { setReport as keepReport, state } from "./state.js";

// A register clause (id, seed, quote, reading) as the clause view shows it.
export function clauseBox(c) {
  const d = document.createElement("div");
  d.className = "clause";
  d.dataset.clause = c.id;
  const id = document.createElement("div");
  id.className = "id";
  id.textContent = c.id + " (" + c.seed + ")";
  const q = document.createElement("div");
  q.className = "quote";
  q.textContent = c.quote;
  const rd = document.createElement("div");
  rd.className = "reading";
  rd.textContent = c.reading;
  d.append(id, q, rd);
  return d;
}
export async function explain(target, position) {
  if (!target) return;
  busy("explaining…");
  try {
    const a = await api("explain", { position: position || state.setup, target, labels: labelsOf() });
    $("trace").textContent = a.trace;
    const box = $("clauses");
    box.innerHTML = "";
    for (const c of a.clauses) box.appendChild(clauseBox(c));
    for (const rect of document.querySelectorAll("#board rect.point")) {
      rect.classList.toggle("selected", rect.dataset.point === target.replace("*", ""));
    }
    showError(null);
  } catch (e) {
    showError(e);
  }
  busy("");
}
// A clause cited by the record, in the clause view beside the board.
export function showClause(c, said) {
  $("trace").textContent = said;
  const box = $("clauses");
  box.textContent = "";
  box.appendChild(clauseBox(c));
  $("why-box").open = true;
  $("why-box").scrollIntoView({ block: "nearest" });
}
// The last move's cascade: kept (for undo) and shown.
export function setReport(r) {
  keepReport(r);
  showReport(r);
}
// The cascade of a move, one step at a time; a click on the move gives its clause trace on the
// position it was played on.
function showReport(rep) {
  const list = $("report");
  list.innerHTML = "";
  if (!rep) return;
  cascadeLines(rep.shown).forEach((text, k) => {
    const e = li(list, text);
    if (k === 0) {
      e.className = "move-link";
      e.tabIndex = 0;
      e.title = "the clause trace of this move";
      const go = () => {
        $("target").value = rep.notation;
        explain(rep.notation, rep.before);
      };
      e.addEventListener("click", go);
      e.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
    }
  });
}

// ---- readings ---------------------------------------------------------------------------------
export async function readings() {
  busy("judging under every reading…");
  const target = $("target").value.trim();
  try {
    const a = await api("readings", { position: state.setup, target: target || null, labels: labelsOf() });
    const box = $("readings");
    box.innerHTML = "";
    const deciding = a.readings.filter((r) => r.changes.length || r.trace);
    const head = document.createElement("p");
    head.textContent = deciding.length
      ? deciding.length + " of " + a.readings.length + " readings change a verdict" + (target ? " (target " + target + ")" : "")
      : "no reading changes any verdict: the dispute is about the position, not the rules text";
    box.appendChild(head);
    for (const r of deciding) box.appendChild(readingEntry(r, a.register));
    const rest = a.readings.filter((r) => !(r.changes.length || r.trace)).map((r) => r.option + ": " + r.value);
    if (rest.length) {
      const p = document.createElement("p");
      p.className = "hint";
      p.textContent = "no change: " + rest.join(", ") + ". Not varied (numeric): " + a.not_varied.map((n) => n.option).join(", ") + ".";
      box.appendChild(p);
    }
    showError(null);
  } catch (e) {
    showError(e);
  }
  busy("");
}
// One reading that changes a verdict: the option's value, its register clauses, the changes.
function readingEntry(r, register) {
  const d = document.createElement("div");
  d.className = "reading-entry";
  d.dataset.option = r.option;
  d.dataset.value = r.value;
  const h = document.createElement("div");
  const reg = r.register.map((id) => id + (register[id] ? " " + register[id] : "")).join("; ");
  const o = document.createElement("span");
  o.className = "opt";
  o.textContent = r.option + ": " + r.value;
  h.append(o, document.createTextNode(" (now " + r.base_value + ")" + (reg ? " — register " + reg : "")));
  d.appendChild(h);
  const table = document.createElement("table");
  for (const c of r.changes.slice(0, 40)) {
    const tr = document.createElement("tr");
    for (const t of [c.kind, c.subject, c.base, "→", c.reading]) {
      const td = document.createElement("td");
      td.textContent = t;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  d.appendChild(table);
  if (r.changes.length > 40) d.appendChild(document.createTextNode("… and " + (r.changes.length - 40) + " more"));
  if (r.trace) {
    const pre = document.createElement("pre");
    pre.textContent = r.trace;
    d.appendChild(pre);
  }
  return d;
}
