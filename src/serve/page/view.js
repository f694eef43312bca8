// What the other modules share of the page's controls, below all of them: the URL, the rules
// chosen, and the rule options' inputs. It imports only the bottom modules (api, position,
// links, state); what it must call above it (a rule option changed: the position set up again) is a
// handler main.js registers.
import { $, labelsOf } from "./api.js";
import { deadOf, rulesOverrides, withDead } from "./position.js";
import { viewHash } from "./links.js";
import { state } from "./state.js";

// ---- the URL: the view (links.js's form) --------------------------------------------------------
// The view shown, as a link rebuilds it: the record (packed into the link, links.js) at its move
// with the moves played after it, or the position (its object packed, links.js); the dead marks
// and the scoring phase; the layer and the labels.
export function currentView() {
  const v = {
    layer: state.layer, labels: labelsOf(), dead: deadOf(state.setup),
    scoring: state.scoring === "accepted" ? "accepted" : null,
  };
  const rec = state.record;
  if (rec && (state.inRecord || (state.playedFromRecord && state.start !== null))) {
    Object.assign(v, {
      record: rec.name, data: rec.packed, line: rec.line, at: rec.at, mechanical: rec.mechanical,
      rules: rec.mechanical ? rec.rulesSent : null, moves: state.inRecord ? [] : state.played,
    });
  } else {
    // packed when the position was judged (board.js); else its object, without the marks
    v.position = state.packedSetup || (state.setup && withDead(state.setup, []));
  }
  return v;
}
// A view a referee would come back to (a record loaded, a jump to a move, a position set up or
// played, a layer): the next saveUrl makes a new history entry (back/forward return to it);
// other changes (a step, a redraw) replace the current entry.
let pushNext = false;
export function markVisit(on = true) {
  pushNext = on;
}
let written = null;
export function saveUrl() {
  const hash = "#" + viewHash(currentView());
  written = hash;
  // the view unchanged (yet: a set-up leaves the record after it is judged) keeps the mark
  if (hash === location.hash) return;
  const push = pushNext;
  pushNext = false;
  if (push && location.hash.length > 1) history.pushState(null, "", hash);
  else history.replaceState(null, "", hash);
}
// Whether the URL's fragment is the one this page wrote last (a hashchange or popstate of its
// own, or the user's: a link pasted, back or forward).
export function urlIsOurs() {
  return location.hash === written;
}

// The rules chosen (state.chosen: never the rules of a record's own replay shown) as their
// preset and the options changed from it: what a mechanical replay is sent.
export function chosenRules() {
  return rulesOverrides(state.options, state.chosen.preset, state.chosen);
}

// ---- the rule options -------------------------------------------------------------------------
// What a changed option does (controls.js's ruleOptionChanged, registered by main.js).
let onOptionChange = () => {};
export function onRuleOption(handler) {
  onOptionChange = handler;
}
export function drawOptions() {
  const box = $("options");
  box.innerHTML = "";
  const preset = state.options.presets.find((p) => p.name === state.rules.preset);
  let changed = 0;
  for (const o of state.options.options) {
    const label = document.createElement("label");
    label.title = o.meaning + (o.register.length ? " (" + o.register.join(", ") + ")" : "");
    label.append(document.createTextNode(o.name));
    let input;
    const v = state.rules[o.name];
    if (o.values) {
      input = document.createElement("select");
      for (const val of o.values) {
        const opt = document.createElement("option");
        opt.value = val;
        opt.textContent = val;
        input.appendChild(opt);
      }
      input.value = String(v);
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.step = o.name === "komi" ? "0.25" : "1";
      input.size = 6;
      input.value = v === null || v === undefined ? "" : String(v);
    }
    input.id = "opt-" + o.name;
    input.addEventListener("change", () => {
      let val = input.value;
      if (!o.values) val = val === "" ? null : Number(val);
      else if (val === "true" || val === "false") val = val === "true";
      onOptionChange(o.name, val);
    });
    if (preset && JSON.stringify(preset.rules[o.name]) !== JSON.stringify(v)) {
      label.classList.add("changed");
      changed++;
    }
    label.appendChild(input);
    box.appendChild(label);
  }
  $("options-count").textContent = changed ? " (" + changed + " changed from the preset)" : "";
}
