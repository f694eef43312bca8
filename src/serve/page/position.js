// The position's object, labels and the other pure helpers the page formats with. No DOM here:
// tested under node (tests/position.test.mjs).

export const LABELS_ZH = "IHGFEDCBAO一二三四五六七八九";

// The Chinese label of row `r`, column `c` of an `n`×`n` board, and back.
export function labelAt(r, c, n) {
  const h = (n - 1) / 2;
  return LABELS_ZH[c - h + 9] + LABELS_ZH[h - r + 9];
}
export function cellOf(label, n) {
  const h = (n - 1) / 2;
  const x = LABELS_ZH.indexOf(label[0]) - 9, y = LABELS_ZH.indexOf(label[1]) - 9;
  return [h - y, x + h];
}
export function emptyGrid(n) {
  return Array.from({ length: n }, () => Array.from({ length: n }, () => "."));
}
// A point or string name (`七A`, `七九*`) in the labels shown (the server's `shown` map).
export function shownName(shown, n) {
  const star = n.endsWith("*");
  const core = star ? n.slice(0, -1) : n;
  return (shown[core] || core) + (star ? "*" : "");
}

// The rules as the preset named and the options that differ from it.
export function rulesOverrides(options, presetName, rules) {
  const preset = options.presets.find((p) => p.name === presetName).rules;
  const out = { preset: presetName };
  for (const o of options.options) {
    const v = rules[o.name];
    if (v !== null && v !== undefined && JSON.stringify(v) !== JSON.stringify(preset[o.name])) {
      out[o.name] = v;
    }
  }
  return out;
}
// A position file as its JSON object (spec/schema/position.schema.json): the rules (the preset
// and the options changed), the size, the move number and the diagram. No YAML: the server
// takes the object as it is.
export function positionObject(overrides, grid, move) {
  return { rules: overrides, size: grid.length, move, diagram: grid.map((r) => r.join(" ")).join("\n") + "\n" };
}
// The dead stones the position marks (its `dead` list).
export function deadOf(setup) {
  return (setup && Array.isArray(setup.dead)) ? setup.dead : [];
}
// The position with `dead` as its dead list (none: no `dead` field); `setup` is not changed.
export function withDead(setup, dead) {
  const out = { ...setup };
  if (dead.length) out.dead = [...dead];
  else delete out.dead;
  return out;
}
// The dead list after a click on a stone of the string `pts` (`label` the point clicked): the
// whole string marked dead, or alive again.
export function toggledDead(dead, label, pts) {
  return dead.includes(label) ? dead.filter((p) => !pts.includes(p)) : [...dead, ...pts.filter((p) => !dead.includes(p))];
}

// The lines of a move's cascade: a step said twice in a row (two rounds of recomputing) is
// shown once, with its count.
export function cascadeLines(r) {
  const lines = [r.notation];
  for (const s of r.steps) {
    const last = lines[lines.length - 1];
    const m = last.match(/^(.*) \(×(\d+)\)$/);
    if (last === s) lines[lines.length - 1] = s + " (×2)";
    else if (m && m[1] === s) lines[lines.length - 1] = s + " (×" + (Number(m[2]) + 1) + ")";
    else lines.push(s);
  }
  if (r.captured.length) lines.push("captured: " + r.captured.join(" "));
  for (const e of r.eyes_made) lines.push("private eye made: " + e.string);
  for (const e of r.eyes_lost) lines.push("private eye lost: " + e.string);
  for (const c of r.attribute_changes) lines.push("flower " + c.string + ": " + c.from + " → " + c.to);
  if (r.game_over) lines.push("the game is over");
  return lines;
}

// `text` cut into plain parts (strings) and the clause ids of `ids` it cites ({ clause: id }),
// an id counting only as a whole word.
export function clauseParts(text, ids) {
  const ok = ids.filter((id) => /^[A-Za-z0-9-]+$/.test(id));
  if (!ok.length) return [text];
  const re = new RegExp("(?<![A-Za-z0-9-])(" + ok.join("|") + ")(?![A-Za-z0-9-])", "g");
  const parts = [];
  let from = 0;
  for (const m of text.matchAll(re)) {
    parts.push(text.slice(from, m.index));
    parts.push({ clause: m[1] });
    from = m.index + m[0].length;
  }
  parts.push(text.slice(from));
  return parts;
}

// The rules used, as the status names them: the preset and every option that differs from it
// (`name` alone when the whole rules are not known).
export function rulesText(options, rules, name) {
  if (!rules || !options || !options.presets.some((p) => p.name === rules.preset)) return name;
  const changed = Object.entries(rulesOverrides(options, rules.preset, rules)).filter(([k]) => k !== "preset");
  return rules.preset + changed.map(([k, v]) => ", " + k + " " + v).join("");
}
// The record's status line at its move (`short`: the rules only for a mechanical replay).
export function recordStatus(rec, short = false) {
  const used = rec.rulesText || rec.rules;
  const rules = rec.mechanical ? " (mechanical, " + used + ")" : short ? "" : " (" + used + ")";
  return "move " + rec.at + " of " + rec.last + rules;
}
