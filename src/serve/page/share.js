// Sharing: the view read back from the URL (a link opened, pasted into an open tab, or reached
// by back/forward), and the ruling saved as one HTML file (ruling.js) and read back.
import { $, busy, labelsOf, notice, showError } from "./api.js";
import { judge } from "./board.js";
import { holdProposal, play } from "./edit.js";
import { missingRecordMessage, parseHash, unpackPosition, unpackText } from "./links.js";
import { deadOf, shownName, withDead } from "./position.js";
import { clearCache, loadLine, loadRecord, recordTo, recordToDead } from "./records.js";
import { rulingHtml, rulingPhase, rulingPosition, scoreOwners } from "./ruling.js";
import { proposalText } from "./proposal.js";
import { phaseText, traceLines } from "./scoring.js";
import { showScoring } from "./score.js";
import { clearPlayed, leaveRecord, setLayer, setScoring, state } from "./state.js";
import { saveUrl, urlIsOurs } from "./view.js";

const LAYERS = ["direct", "holographic", "upper"];

// The view of the URL's fragment shown, with its dead marks and an accepted count: whether
// there was one to show.
export async function restoreUrl() {
  holdProposal(true);
  try {
    return await restoreView();
  } finally {
    holdProposal(false);
  }
}
async function restoreView() {
  const v = parseHash(location.hash);
  if (LAYERS.includes(v.layer) && v.layer !== state.layer) setLayer(v.layer);
  if (["chinese", "latin", "gtp"].includes(v.labels) && v.labels !== labelsOf()) {
    $("labels").value = v.labels;
    clearCache();
  }
  const shown = v.record !== undefined ? await recordView(v) : await positionView(v);
  if (shown && v.scoring === "accepted") {
    setScoring("accepted");
    showScoring();
    saveUrl();
  }
  return shown;
}
// A position's view (back from a record, say): the record is left, nothing was played.
async function positionView(v) {
  if (!v.position) return false;
  let position;
  try {
    position = await unpackPosition(v.position);
  } catch (e) {
    showError(e);
    return false;
  }
  if (state.record && state.inRecord) leaveRecord();
  clearPlayed();
  // a link of an older page may carry the position's YAML text: judged, then marked
  if (typeof position === "string") return (await judge(position)) && (!v.dead.length || judge(withDead(state.setup, v.dead)));
  return judge(v.dead.length ? withDead(position, v.dead) : position);
}
// A record's view: the record (from the link, or already loaded, or this browser's last one),
// its move, the moves played after it, and the dead marks on the last of them.
async function recordView(v) {
  const rec = state.record;
  const same = rec && rec.name === v.record && rec.mechanical === v.mechanical &&
    (rec.rulesSent || null) === (v.rules || null) && (!v.data || rec.packed === v.data) && (rec.line || 0) === (v.line || 0);
  if (!same) {
    let text = null;
    if (v.data) {
      try {
        text = await unpackText(v.data);
      } catch (e) {
        showError(e);
        return false;
      }
    } else {
      // a link without the record (too large, or made before links carried it): this browser's
      // last record, if it is the one named
      let saved = null;
      try { saved = JSON.parse(localStorage.getItem("m3go-record") || "null"); } catch (e) { saved = null; }
      if (saved && saved.name === v.record) text = saved.text;
    }
    if (text === null) {
      notice(missingRecordMessage(v.record, v.at));
      $("record-box").open = true;
      $("record-file").focus();
      return false;
    }
    const opts = { mechanical: v.mechanical, rules: v.rules || undefined, quiet: true };
    // a line of an SGF's tree: the file rides in the link, its lines listed again
    if (!(await (v.line ? loadLine(text, v.line, v.record, opts) : loadRecord(text, v.record, opts)))) return false;
  }
  if (!v.moves.length && v.dead.length) return recordToDead(v.at, v.dead);
  if (!(await recordTo(v.at))) return false;
  for (const m of v.moves) await play(m, true);
  return !v.dead.length || judge(withDead(state.setup, v.dead));
}
// The page opened: the URL's view, or (none, or a link that could not be shown) the board
// `fallback` draws; a link's error or note stays shown over the fallback board, and the address
// keeps the link the referee was sent.
export async function openView(fallback) {
  const link = location.hash;
  const named = link.length > 1;
  if (named) {
    showError(null);
    notice("");
  }
  if (await restoreUrl()) return;
  const error = $("error").hidden ? null : $("error-text").textContent;
  const note = $("notice").textContent;
  await fallback();
  if (!named) return;
  history.replaceState(null, "", link);
  if (error) {
    $("error-text").textContent = error;
    $("error").hidden = false;
  } else if (!note) {
    showError(new Error("link: it names neither a record nor a position (`record=` or `position=`): the link was cut or changed"));
  }
}
// A link pasted into the open tab, or back/forward: the view it names (the page's own URL
// changes are not events of either kind, and are skipped when they are); the messages of the
// view before are cleared first.
export function listenUrl() {
  let showing = null;
  const onNav = () => {
    if (urlIsOurs() || location.hash === showing) return;
    showing = location.hash;
    showError(null);
    notice("");
    restoreUrl().then((shown) => {
      if (shown) saveUrl();
    }, showError).finally(() => { showing = null; });
  };
  window.addEventListener("hashchange", onNav);
  window.addEventListener("popstate", onNav);
}

// ---- the ruling -------------------------------------------------------------------------------
function listItems(id) {
  return [...document.querySelectorAll("#" + id + " li")].map((e) => e.textContent);
}
// The ruling of the view shown, as an HTML file to download (the export box shows its link).
export async function saveRuling() {
  const an = state.analysis;
  if (!an) return;
  busy("writing the ruling…");
  try {
    const svg = $("board").querySelector("svg").cloneNode(true);
    for (const e of svg.querySelectorAll(".cursor, .preview")) e.remove();
    const rec = state.record && state.inRecord ? { record: state.record.name, at: state.record.at } : null;
    const verdicts = [];
    if ($("trace").textContent) {
      verdicts.push({
        target: $("target").value.trim() || "the clause shown",
        trace: $("trace").textContent,
        clauses: [...document.querySelectorAll("#clauses .clause")].map((c) => ({
          id: c.dataset.clause, seed: "", quote: c.querySelector(".quote").textContent, reading: c.querySelector(".reading").textContent,
        })),
      });
    }
    const s = an.score;
    const html = rulingHtml({
      version: state.options.version || "?",
      title: "m3go ruling: " + (rec ? rec.record + ", move " + rec.at : an.size + "×" + an.size + ", move " + an.move),
      svg: svg.outerHTML,
      position: state.setup,
      rules: an.rules,
      view: rec,
      link: location.protocol.startsWith("http") ? location.href : "",
      summary: $("tomove").textContent + " · " + $("summary").textContent,
      verdicts,
      lists: [
        { title: "Last move", items: listItems("report") },
        { title: "Private eyes", items: listItems("eyes") },
        { title: "Flower strings", items: listItems("flowers") },
        { title: "Forbidden points of the flowers", items: listItems("forbidden") },
      ].filter((l) => l.items.length),
      score: s ? { line: $("score-line") ? $("score-line").textContent : "", owners: scoreOwners(s.points) } : null,
      ...finishedGame(an),
    });
    const name = "m3go-ruling-" + (rec ? rec.record.replace(/\.[^.]*$/, "") + "-" + rec.at : "move-" + an.move) + ".html";
    const link = $("download");
    link.href = URL.createObjectURL(new Blob([html], { type: "text/html" }));
    link.download = name.replace(/[^\w.\u4e00-\u9fff-]+/g, "_");
    link.textContent = "download " + link.download;
    link.hidden = false;
    $("export-text").value = html;
    showError(null);
  } catch (e) {
    showError(e);
  }
  busy("");
}
// What a ruling holds of a finished game: the record's game information (players, event,
// result…) and the scoring phase (the count accepted or not, the dead stones, the trace).
function finishedGame(an) {
  const rec = state.record && (state.inRecord || state.playedFromRecord) ? state.record : null;
  const game = rec ? (rec.info || []).map((i) => ({ key: i.key, value: i.value })) : [];
  if (!state.scoring) return { game, scoring: null };
  const name = (n) => shownName(state.shown, n);
  const dead = deadOf(state.setup);
  return {
    game,
    scoring: {
      phase: state.scoring, text: phaseText(state.scoring, an.score, dead.length), dead: dead.map(name),
      proposal: proposalText(dead, state.proposal, name),
      trace: traceLines(state.scoreTrace, name).map((l) => ({ owner: l.owner, text: l.text, clauses: l.clauses })),
    },
  };
}
// A ruling opened (its position set up): the count it had accepted is accepted again.
export function rulingOpened(text) {
  if (rulingPhase(text) !== "accepted") return;
  setScoring("accepted");
  showScoring();
  saveUrl();
}
// A position file's text, or the position a ruling file carries.
export function positionText(text, name) {
  return rulingPosition(text, name) || text;
}
