// The dead stones proposed when the scoring phase opens (as OGS's auto-score): the strings the
// engine's analysis judges dead (`dead_proposal` of the server's answer: Score::proposed_dead,
// 000's 死棋状态 read locally, register D31 item 6), marked at once as the referee's proposal to
// accept or edit. Pure (no DOM): tested under node (tests/proposal.test.mjs).

// Every point of the proposal (a list of strings, each a list of labels), in its order.
export function proposedPoints(proposal) {
  return (proposal || []).flat();
}
// Where the dead marks stand towards the proposal: "none" (no proposal: the game goes on),
// "proposed" (the marks are the proposal's), "edited" (the referee changed them), with the
// points the referee added and removed.
export function proposalVerdict(dead, proposal) {
  if (!proposal) return { state: "none", added: [], removed: [] };
  const proposed = proposedPoints(proposal);
  const added = dead.filter((p) => !proposed.includes(p));
  const removed = proposed.filter((p) => !dead.includes(p));
  return { state: added.length || removed.length ? "edited" : "proposed", added, removed };
}
const stones = (n) => n + " stone" + (n === 1 ? "" : "s");
const strings = (n) => n + " string" + (n === 1 ? "" : "s");
// The proposal's line in the scoring panel and the ruling (`name`: a label to the one shown).
export function proposalText(dead, proposal, name = (p) => p) {
  const v = proposalVerdict(dead, proposal);
  if (v.state === "none") return "";
  const n = proposedPoints(proposal).length;
  const what = n ? strings(proposal.length) + ", " + stones(n) + " (" + proposedPoints(proposal).map(name).join(" ") + ")" : "no dead stones";
  if (v.state === "proposed") return "dead stones as proposed by the engine's analysis: " + what + "; click a stone to change them";
  const changes = [
    v.added.length ? "added " + v.added.map(name).join(" ") : "",
    v.removed.length ? "removed " + v.removed.map(name).join(" ") : "",
  ].filter(Boolean).join(", ");
  return "dead stones edited by the referee from the engine's proposal (" + what + "): " + changes;
}
// Whether the phase opening on this answer gets the proposal marked: the game over, nothing
// marked yet, something proposed.
export function proposalToMark(deadNow, proposal) {
  return deadNow.length === 0 && proposedPoints(proposal).length > 0;
}
