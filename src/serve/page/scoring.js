// The scoring phase and the score's trace, the pure part (no DOM; tests/scoring.test.mjs):
// when the page is in the phase, what the link carries of it, the legend of the owners' table
// and the lines of the trace.

// The phase after a position is judged: none while the game goes on; "marking" (dead strings
// marked, the count following) when a game is over and the position is a new one; otherwise
// the phase it was in ("accepted" stays accepted while its marks change nothing else).
export function phaseAfter(prev, gameOver, samePosition) {
  if (!gameOver) return null;
  if (!samePosition || prev === null) return "marking";
  return prev;
}
// Whether two position objects are the same position but for their dead marks.
export function samePosition(a, b) {
  if (!a || !b) return false;
  return a.diagram === b.diagram && a.move === b.move && (a.trailing_passes || 0) === (b.trailing_passes || 0);
}

// ---- the link -----------------------------------------------------------------------------------
// What a link carries of the scoring: `dead=` the dead marks (labels, comma-separated), and
// `scoring=accepted` once the count is accepted. `p` is the fragment's URLSearchParams.
export function setScoreParams(p, dead, phase) {
  if (dead.length) p.set("dead", dead.join(","));
  else p.delete("dead");
  if (phase === "accepted") p.set("scoring", "accepted");
  else p.delete("scoring");
}
// The dead marks and whether the count was accepted, read back from a link's parameters.
export function scoreParams(p) {
  const dead = (p.get("dead") || "").split(",").map((d) => d.trim()).filter((d) => d.length > 0);
  return { dead, accepted: p.get("scoring") === "accepted" };
}

// ---- the owners' table and the trace ----------------------------------------------------------
// The letters of the owners' table and what each means.
export const OWNER_LEGEND = [
  ["b", "black", "black's"],
  ["w", "white", "white's"],
  ["s", "seki", "halved in seki: half a point to each"],
  ["d", "dame", "dame (between two walls, no seki): halved all the same"],
  ["n", "neutral", "nobody's (neutral)"],
];
// The owners' table's word for a point: its owner, or "dame" for a halved point the count's
// trace calls dame (beside no string in seki: m3go-score-trace's reason `dame`).
export function ownerKind(owner, point, trace) {
  if (owner !== "seki" || !trace) return owner;
  return trace.regions.some((r) => r.reason === "dame" && r.points.includes(point)) ? "dame" : owner;
}
export function ownerLetter(owner) {
  const e = OWNER_LEGEND.find((x) => x[1] === owner);
  return e ? e[0] : "?";
}
// The owners' table's legend in one line.
export function legendText() {
  return OWNER_LEGEND.map(([l, , m]) => l + " " + m).join(" · ");
}

// One line of the trace per region (m3go-score-trace/2), in its order, then the komi line:
// { owner, text, clauses, points } with the points in the labels shown (`name`: a Chinese label
// to the one shown) and at most `most` of them written out.
export function traceLines(trace, name = (p) => p, most = 8) {
  if (!trace) return [];
  const lines = trace.regions.map((r) => {
    const pts = r.points.map(name);
    const listed = pts.length > most ? pts.slice(0, most).join(" ") + " … (" + pts.length + " points)" : pts.join(" ");
    const gain = [r.black ? "black +" + r.black : "", r.white ? "white +" + r.white : ""].filter(Boolean).join(", ");
    return {
      owner: r.owner,
      text: listed + ": " + r.why + (gain ? " (" + gain + " half-points)" : ""),
      clauses: [r.clause, ...r.also],
      points: r.points,
    };
  });
  lines.push({ owner: "komi", text: trace.komi.why, clauses: [trace.komi.clause], points: [] });
  return lines;
}
// The scoring phase's line: what to do, or the count accepted.
export function phaseText(phase, score, deadCount) {
  if (!phase) return "";
  const count = score ? "black " + score.black + " · white " + score.white + " (half-points) → " + score.winner : "not counted";
  if (phase === "accepted") return "count accepted: " + count + (deadCount ? ", " + deadCount + " dead stone" + (deadCount > 1 ? "s" : "") + " removed" : "");
  return "the game is over: click a stone to mark its whole string dead (again to unmark it), then accept the count. Now: " + count;
}
