// Links that rebuild a view: the record itself travels in the URL's fragment (compressed with
// deflate-raw, then base64url), with the move, the moves played after it, the layer, the labels
// and the rules of a mechanical replay; a position travels as its JSON object, packed the same
// way; either with its dead marks and an accepted count (scoring.js's parameters). Pure (no DOM,
// no page state): tested under node (tests/links.test.mjs).
import { scoreParams, setScoreParams } from "./scoring.js";

// The longest compressed record a link carries, in characters of its fragment. Chromium opens
// URLs of up to 2 MB; mail and chat programs cut long links far sooner, so a link carries a
// record of at most 64 K characters packed (some 150 KB of SGF: the Ke Jie game is 1.3 K). A
// larger record's link names it and its move; the page that opens it asks for the file.
export const LINK_RECORD_MAX = 65536;

// Bytes as base64url (RFC 4648 §5, no padding) and back; null for text that is not base64url.
export function toBase64url(bytes) {
  let bin = "";
  for (let k = 0; k < bytes.length; k += 0x8000) bin += String.fromCharCode(...bytes.subarray(k, k + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
export function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

// The most bytes a link's text unpacks to: the server's limit of a request (1 MiB), so no
// record it could not read is unpacked. Unpacking stops there: a link of a few hundred K
// characters can inflate to gigabytes (a 1.39 M-character one to 1 GB, 42 s and 3 GB of the
// browser's memory before this bound).
export const LINK_UNPACKED_MAX = 1 << 20;

async function through(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}
// Bytes inflated (deflate-raw), chunk by chunk, at most `max` of them: null past that (the rest
// is not inflated).
async function inflateAtMost(bytes, max) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
// A text packed for a link: its UTF-8, deflate-raw, base64url.
export async function packText(text) {
  return toBase64url(await through(new TextEncoder().encode(text), new CompressionStream("deflate-raw")));
}
// A packed text back; an error naming the link's parameter (`what`) when it is not one this
// page packed, or unpacks to more than LINK_UNPACKED_MAX bytes.
export async function unpackText(packed, what = "the record (`data=`)") {
  const bytes = fromBase64url(packed);
  if (!bytes) throw new Error("link: " + what + " is not base64url: the link was cut or changed");
  let text = null;
  try {
    text = await inflateAtMost(bytes, LINK_UNPACKED_MAX);
    if (text !== null) return new TextDecoder("utf-8", { fatal: true }).decode(text);
  } catch (e) {
    throw new Error("link: " + what + " does not unpack (deflate-raw): the link was cut or changed");
  }
  throw new Error("link: " + what + " unpacks to more than " + LINK_UNPACKED_MAX / 1024 +
    " KiB (1 MiB, the most the server reads): not unpacked further; the link was not made by this page");
}

// A position's object packed for a link, its dead marks left out (the link's `dead=` carries
// them, as for a record's move).
export function packPosition(setup) {
  const { dead, ...bare } = setup;
  return packText(JSON.stringify(bare));
}
// A link's position back: the object of a packed position; a link of an older page gives the
// position's JSON text (its object) or its YAML text (the text, which the server reads).
export async function unpackPosition(sent) {
  if (/^[A-Za-z0-9_-]+$/.test(sent)) {
    const text = await unpackText(sent, "the position (`position=`)");
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new Error("link: the position (`position=`) does not unpack to a position's JSON: the link was cut or changed");
    }
  }
  if (sent.trim().startsWith("{")) {
    try { return JSON.parse(sent); } catch (e) { return sent; }
  }
  return sent;
}

// A view as the fragment's parameters (in this order), and back. A view: { record: name,
// data: the packed record or null (too large), line: the line of an SGF's tree shown (data
// packs the whole file; 0: its main line), at, moves: [notation], mechanical, rules: JSON
// text or null; or position: the packed position (packPosition) or, not packed, its object;
// dead: [label], scoring: null or "accepted", layer, labels }; defaults are left out. The dead
// marks and the scoring are scoring.js's parameters.
export function viewHash(v) {
  const p = new URLSearchParams();
  if (v.record !== undefined && v.record !== null) {
    p.set("record", v.record);
    p.set("at", String(v.at || 0));
    if (v.moves && v.moves.length) p.set("moves", v.moves.join(" "));
    if (v.mechanical) p.set("mechanical", "1");
    if (v.rules) p.set("rules", v.rules);
    if (v.data) p.set("data", v.data);
    if (v.line) p.set("line", String(v.line));
  } else if (v.position) {
    p.set("position", typeof v.position === "string" ? v.position : JSON.stringify(v.position));
  }
  setScoreParams(p, v.dead || [], v.scoring || null);
  if (v.layer && v.layer !== "holographic") p.set("layer", v.layer);
  if (v.labels && v.labels !== "chinese") p.set("labels", v.labels);
  return p.toString();
}
export function parseHash(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const v = { layer: p.get("layer") || "holographic", labels: p.get("labels") || "chinese" };
  if (p.get("record") !== null) {
    v.record = p.get("record");
    v.at = Math.max(0, Math.floor(Number(p.get("at")) || 0));
    v.moves = (p.get("moves") || "").split(" ").filter((m) => m);
    v.mechanical = p.get("mechanical") === "1";
    v.rules = p.get("rules");
    v.data = p.get("data");
    if (p.get("line") !== null) v.line = Math.max(0, Math.floor(Number(p.get("line")) || 0));
  } else if (p.get("position") !== null) {
    v.position = p.get("position");
  }
  const s = scoreParams(p);
  v.dead = s.dead;
  v.scoring = s.accepted ? "accepted" : null;
  return v;
}

// What the page says when a link names a record it does not carry (too large, or an old link).
export function missingRecordMessage(name, at) {
  return "this link names the record “" + name + "” at move " + at + " but does not carry it (a link carries a record of at most " +
    LINK_RECORD_MAX / 1024 + " K characters compressed): open the file with “open a record” below to see it";
}
// What the page says of a record too large for a link, when it is loaded.
export function tooLargeNote(packedLength) {
  return "this record is " + Math.ceil(packedLength / 1024) + " K characters compressed, more than a link carries (" +
    LINK_RECORD_MAX / 1024 + " K): links to it name the file and the move, and whoever opens one must open the file";
}
