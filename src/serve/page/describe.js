// What is on a point, in words, for the keyboard cursor's live region: the stone and its string
// (liberties, private eyes), the flower and its attribute, an empty point's private eye, and
// whom it is forbidden to and why (the clause). Pure: tested under node (tests/describe.test.mjs).

// `an`: the analysis (m3go-analysis); `label`: the point's Chinese label; `name`: a point or
// string name in the labels shown. Without an analysis (a record's move still being analysed),
// the point's name only.
// `dead`: the points marked dead for the count.
export function pointText(an, label, name = (n) => n, dead = []) {
  const parts = [name(label)];
  if (!an) return parts[0];
  const s = (an.strings || []).find((x) => x.points.includes(label));
  const f = (an.flowers || []).find((x) => x.points.includes(label));
  if (s) {
    const libs = (s.lower_liberties || []).length;
    parts.push(s.colour + " stone, string " + name(s.name) + " (" + s.points.length + " stone" + (s.points.length > 1 ? "s" : "") +
      ", " + libs + " libert" + (libs === 1 ? "y" : "ies") + ")");
    const eyes = (s.private_eyes || []).map((e) => e.points.map(name).join(" "));
    if (eyes.length) parts.push("private eye" + (eyes.length > 1 ? "s " : " ") + eyes.join(", "));
  } else if (f) {
    parts.push("flower, string " + name(f.name) + ": " + f.attribute + " (" + f.clause + ")");
  } else {
    parts.push("empty");
    for (const t of an.strings || []) {
      for (const e of t.private_eyes || []) {
        if (e.points.includes(label)) parts.push("private eye of " + t.colour + " " + name(t.name));
      }
    }
  }
  // a stone marked dead for the count (the position's `dead` list)
  if (dead.includes(label)) parts.push("marked dead");
  const forb = an.forbidden || {};
  for (const [who, list] of [["black's 华", forb.black], ["white's 花", forb.white]]) {
    const x = (list || []).find((y) => y.point === label);
    if (x) parts.push("forbidden to " + who + ": " + x.reason + (x.owner ? " of " + x.owner : "") + " (" + x.clause + ")");
  }
  return parts.join(", ");
}
