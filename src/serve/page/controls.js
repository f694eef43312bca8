// The position's controls: a redraw, a rule option changed, files and the export.
import { $, api, labelsOf, showError } from "./api.js";
import { judge, showAnalysis } from "./board.js";
import { withVariations } from "./branches.js";
import { buildPosition, setUp } from "./edit.js";
import { deadOf } from "./position.js";
import { exportName } from "./recordtext.js";
import { loadRecord, recordTo, recordToDead } from "./records.js";
import { setChosen, setRuleOption, setRules, state } from "./state.js";

// The page again, after a change of layer, labels or move numbers.
export async function rerender() {
  if (state.analysis) showAnalysis(state.analysis);
  if (!state.setup) return;
  // a record's move with dead marks keeps them
  const dead = deadOf(state.setup);
  if (state.record && state.inRecord) return dead.length ? recordToDead(state.record.at, dead) : recordTo(state.record.at);
  return judge(state.setup);
}

// ---- export -----------------------------------------------------------------------------------
export async function exportAs(format) {
  const link = $("download");
  link.hidden = true;
  link.removeAttribute("href");
  $("export-text").value = "";
  try {
    const body = { format, layer: state.layer, labels: labelsOf(), position: state.setup };
    let name = null;
    if (format === "sgf" || format === "game") {
      const rec = state.record;
      if (rec && rec.startSetup && (state.inRecord || state.playedFromRecord)) {
        // a replayed position: the record's moves up to here, then the moves played after it,
        // with the record's game information (not a Go record's own result, komi and rules in a
        // mechanical replay) and comments; named after the record
        const upTo = rec.moves.filter((m) => m.number <= rec.at);
        body.start = rec.startSetup;
        body.moves = [...upTo.map((m) => m.chinese), ...(state.inRecord ? [] : state.played)];
        body.info = (rec.info || []).filter((i) => !i.go_only).map((i) => ({ key: i.key, value: i.value }));
        body.comments = upTo.map((m) => m.comment || null);
        name = exportName(rec.name, rec.at, state.inRecord ? 0 : state.played.length, rec.last);
      } else {
        body.start = state.start || state.setup;
        body.moves = state.start ? state.played : [];
      }
    }
    const a = await api("export", body);
    // a record's SGF with its variations (the file's other lines, the moves played from it)
    if (format === "sgf" && state.record && body.start === state.record.startSetup) a.text = await withVariations(a.text);
    $("export-text").value = a.text;
    link.href = URL.createObjectURL(new Blob([a.text], { type: "text/plain" }));
    link.download = name ? name + (format === "sgf" ? ".sgf" : ".txt") : a.filename;
    link.textContent = "download " + link.download;
    link.hidden = false;
    showError(null);
  } catch (e) {
    showError(e);
  }
}

// ---- the rule options -------------------------------------------------------------------------
// A rule option changed in its input (view.js draws them; main.js registers this there).
// Browsing a mechanical replay, the record is replayed again under the rules changed.
export function ruleOptionChanged(name, value) {
  const keep = [state.rules, state.chosen];
  setRuleOption(name, value);
  const undo = (ok) => {
    if (ok) return;
    setRules(keep[0]);
    setChosen(keep[1]);
  };
  if (state.record && state.inRecord && state.record.mechanical) return loadRecord(state.record.text, state.record.name).then(undo);
  return setUp(buildPosition(), "rule option changed").then(undo);
}

// ---- files ------------------------------------------------------------------------------------
// A file as text; a file that is not text (a PNG, say) is refused with its name.
export function readText(file, then) {
  const reader = new FileReader();
  reader.onload = () => {
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(reader.result);
    } catch (e) {
      text = null;
    }
    if (text === null || text.includes("\u0000")) {
      showError(new Error(file.name + " is not a text file: expected an SGF record or a game file"));
      return;
    }
    then(text);
  };
  reader.readAsArrayBuffer(file);
}
export function readFile(input, then) {
  const f = input.files[0];
  if (!f) return;
  readText(f, (t) => then(t, f.name));
  // the same file chosen again is a change too
  input.value = "";
}
