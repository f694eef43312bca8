// A ruling that travels without the server: one self-contained HTML file (the board figure
// inline, the position, the verdicts asked for with their clause traces and quoted clauses, the
// score, the rules and the m3go version) that opens offline in any browser; the position (its
// JSON object) rides in a <script type="application/json"> the page's "open a position" reads
// back. Pure (no DOM):
// tested under node (tests/ruling.test.mjs).

export const RULING_FORMAT = "m3go-ruling/1";
const DATA_ID = "m3go-ruling";

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
// JSON inside a <script>: no `<` (so no `</script>` or `<!--` ends or changes it).
function scriptJson(v) {
  return JSON.stringify(v).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

// The ruling's HTML. `r`: { version, title, svg (the figure, m3go's own SVG), position (the
// position file's JSON object), rules (object), view: { record, at } or null, link, summary,
// verdicts: [{ target, trace, clauses: [{ id, seed, quote, reading }] }], lists: [{ title,
// items: [text] }], score: { line, owners: [{ owner, clause, points: [label] }] } or null,
// and of a finished game: game: [{ key, value }] (the record's players, event, result…),
// scoring: { phase ("marking" or "accepted"), text (the phase's line), dead: [label], proposal
// (whether the dead stones are the engine's proposal or the referee's edit of it: proposal.js),
// trace: [{ owner, text, clauses: [id] }] (the count region by region) } or null }.
export function rulingHtml(r) {
  const e = escapeHtml;
  const out = [];
  out.push("<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
    "<title>" + e(r.title) + "</title>",
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="m3go ' + e(r.version) + '">',
    "<style>body{font-family:system-ui,sans-serif;max-width:60em;margin:1em auto;padding:0 1em;line-height:1.4}" +
    "figure{margin:0}figure svg{width:100%;max-width:640px;height:auto}pre{white-space:pre-wrap;background:#f6f4ee;padding:.5em}" +
    ".clause{border-left:3px solid #b08a3a;padding:.2em .6em;margin:.3em 0;background:#fbf6e9}.clause .id{font-weight:bold}" +
    "td,th{border:1px solid #ccc;padding:.1em .4em;text-align:left}table{border-collapse:collapse}" +
    "@media (prefers-color-scheme:dark){body{background:#17150f;color:#e8e2d4}pre{background:#1c1a14}.clause{background:#2a2519}" +
    "a{color:#9cf}figure svg{filter:brightness(.82)}}</style>", '<meta name="color-scheme" content="light dark">',
    "</head>", "<body>", "<h1>" + e(r.title) + "</h1>");
  out.push("<p>m3go " + e(r.version) + (r.view ? " · record " + e(r.view.record) + ", after move " + e(r.view.at) : "") +
    (r.link ? ' · <a href="' + e(r.link) + '">the view on an m3go page</a>' : "") + "</p>");
  out.push('<figure id="figure">' + r.svg + "<figcaption>" + e(r.summary || "") + "</figcaption></figure>");
  for (const v of r.verdicts || []) {
    out.push('<section class="verdict"><h2>Why: ' + e(v.target) + "</h2><pre>" + e(v.trace) + "</pre>");
    for (const c of v.clauses || []) {
      out.push('<div class="clause" data-clause="' + e(c.id) + '"><div class="id">' + e(c.id) + (c.seed ? " (" + e(c.seed) + ")" : "") +
        '</div><div class="quote">' + e(c.quote) + '</div><div class="reading">' + e(c.reading || "") + "</div></div>");
    }
    out.push("</section>");
  }
  if ((r.game || []).length) {
    out.push('<section id="game"><h2>Game</h2><table>' + r.game.map((g) => "<tr><th>" + e(g.key) + "</th><td>" + e(g.value) + "</td></tr>").join("") + "</table></section>");
  }
  if (r.scoring) out.push(scoringHtml(r.scoring));
  out.push('<section id="score"><h2>Score if the game ended now</h2>');
  if (r.score) {
    out.push("<p>" + e(r.score.line) + "</p><table><tr><th>owner</th><th>clause</th><th>points</th></tr>");
    for (const o of r.score.owners) {
      out.push("<tr><td>" + e(o.owner) + "</td><td>" + e(o.clause) + "</td><td>" + e(o.points.length + ": " + o.points.join(" ")) + "</td></tr>");
    }
    out.push("</table>");
  } else {
    out.push("<p>not scored</p>");
  }
  out.push("</section>");
  for (const l of r.lists || []) {
    out.push("<section><h2>" + e(l.title) + "</h2><ul>" + l.items.map((t) => "<li>" + e(t) + "</li>").join("") + "</ul></section>");
  }
  out.push("<section><h2>Rules</h2><pre>" + e(JSON.stringify(r.rules, null, 1)) + "</pre></section>");
  const shown = typeof r.position === "string" ? r.position : JSON.stringify(r.position, null, 1);
  out.push("<section><h2>Position</h2><pre>" + e(shown) + "</pre></section>");
  out.push('<script type="application/json" id="' + DATA_ID + '">' +
    scriptJson({
      format: RULING_FORMAT, version: r.version, position: r.position, rules: r.rules, view: r.view || null,
      scoring: r.scoring ? r.scoring.phase : null,
    }) + "</script>");
  out.push("</body>", "</html>", "");
  return out.join("\n");
}

// The scoring phase of a finished game: the count accepted (or still marked), the dead stones
// and the count's clause trace region by region.
function scoringHtml(sc) {
  const e = escapeHtml;
  const dead = sc.dead || [];
  return '<section id="scoring" data-phase="' + e(sc.phase) + '"><h2>Scoring</h2><p>' + e(sc.text) + "</p>" +
    "<p>dead stones: " + (dead.length ? e(dead.length + ": " + dead.join(" ")) : "none") + "</p>" +
    (sc.proposal ? '<p id="proposal">' + e(sc.proposal) + "</p>" : "") +
    "<h3>Why: the count region by region</h3><ol>" +
    (sc.trace || []).map((l) => "<li>" + e(l.owner + " — " + l.text) + " (" + l.clauses.map(e).join(", ") + ")</li>").join("") +
    "</ol></section>";
}
// The score's owners grouped by owner and clause, each with its points, in the order met.
export function scoreOwners(points) {
  const groups = [];
  for (const p of points) {
    let g = groups.find((x) => x.owner === p.owner && x.clause === p.clause);
    if (!g) groups.push((g = { owner: p.owner, clause: p.clause, points: [] }));
    g.points.push(p.point);
  }
  return groups;
}

// The scoring phase a ruling was saved in ("accepted", "marking"), or null (none, or no ruling).
export function rulingPhase(text) {
  const m = text.match(/<script type="application\/json" id="m3go-ruling">([\s\S]*?)<\/script>/);
  try {
    const data = m && JSON.parse(m[1]);
    return data && (data.scoring === "accepted" || data.scoring === "marking") ? data.scoring : null;
  } catch (e) {
    return null;
  }
}
// The position a ruling file carries (its object; a ruling of an older page: the position
// file's text), or null when `text` is no ruling; an error naming the file when it is one this
// page cannot read.
export function rulingPosition(text, name) {
  const m = text.match(/<script type="application\/json" id="m3go-ruling">([\s\S]*?)<\/script>/);
  if (!m) return null;
  let data;
  try {
    data = JSON.parse(m[1]);
  } catch (e) {
    throw new Error(name + ": the ruling's data (script#" + DATA_ID + ") is not JSON: " + e.message);
  }
  const p = data && data.position;
  if (!data || data.format !== RULING_FORMAT || !(typeof p === "string" || (p && typeof p === "object" && !Array.isArray(p)))) {
    throw new Error(name + ": the ruling's data is not " + RULING_FORMAT + " with a position: expected a ruling saved by m3go's page");
  }
  return data.position;
}
