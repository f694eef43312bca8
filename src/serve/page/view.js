// What the other modules share of the page's controls, below all of them: the URL, the rules
// chosen, and the rule options' inputs. It imports only the bottom modules (api, position,
// state); what it must call above it (a rule option changed: the position set up again) is a
// handler main.js registers.
import { $, labelsOf } from "./api.js";
import { deadOf, rulesOverrides } from "./position.js";
import { setScoreParams } from "./scoring.js";
import { state } from "./state.js";

// ---- the URL: the position (or the record and its move), the layer, the scoring ---------------
export function saveUrl() {
  const p = new URLSearchParams();
  if (state.record && state.inRecord) {
    p.set("record", state.record.name);
    p.set("at", String(state.record.at));
  } else {
    p.set("position", JSON.stringify(state.setup));
  }
  setScoreParams(p, deadOf(state.setup), state.scoring);
  if (state.layer !== "holographic") p.set("layer", state.layer);
  if (labelsOf() !== "chinese") p.set("labels", labelsOf());
  history.replaceState(null, "", "#" + p.toString());
}

// The rules chosen: the preset of the control and the options changed from it.
export function chosenRules() {
  return rulesOverrides(state.options, $("preset").value, state.rules);
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
