// Talking to the engine (/api/*), and the page's error box and status line.

export const $ = (id) => document.getElementById(id);

// This tab's client token (128 random bits, kept for the tab in sessionStorage): the server keeps
// the records this page loads for it alone (X-M3go-Client). Made on the first request.
let client = null;
export function clientToken() {
  if (client) return client;
  let t = null;
  try { t = sessionStorage.getItem("m3go-client"); } catch (e) { /* storage off */ }
  if (!t || !/^[0-9a-f]{32}$/.test(t)) {
    const bits = new Uint8Array(16);
    crypto.getRandomValues(bits);
    t = Array.from(bits, (b) => b.toString(16).padStart(2, "0")).join("");
    try { sessionStorage.setItem("m3go-client", t); } catch (e) { /* storage off */ }
  }
  client = t;
  return t;
}
// The error of a refused request: the server's message (`{ error }`), or the HTTP status.
export function apiError(status, data) {
  const e = new Error((data && data.error) || ("HTTP " + status));
  e.status = status;
  return e;
}
// GET /api/NAME without a body, POST with `body` as JSON; the answer's JSON, or its error thrown.
export async function api(name, body) {
  const opts = body === undefined ? { headers: { "X-M3go-Client": clientToken() } } : {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-M3go-Client": clientToken() },
    body: JSON.stringify(body),
  };
  const res = await fetch("/api/" + name, opts);
  const data = await res.json();
  if (!res.ok) throw apiError(res.status, data);
  return data;
}
// The error box floats over the page (it never moves the board under the pointer).
export function showError(e) {
  const box = $("error");
  if (e) {
    $("error-text").textContent = "error: " + e.message;
    box.hidden = false;
  } else {
    box.hidden = true;
    $("error-text").textContent = "";
  }
}
// The status line shows what the page waits for; it is no live region (a step said it twice a
// move): a wait longer than a moment is said in #announce, a step's (`quiet`) never — the
// record's status, a live region, names the move reached.
let saying = null;
export function busy(text, quiet = false) {
  $("status").textContent = text;
  clearTimeout(saying);
  if (!text) $("announce").textContent = "";
  else if (!quiet) saying = setTimeout(() => { if ($("status").textContent === text) $("announce").textContent = text; }, 1000);
}
// Whether the machine has a CJK font of its own: a glyph of the rule texts outside the page's
// subset (规) drawn wider than a character no font has (U+10FFFD). Without one, a note says the
// quoted rule texts need one.
export function noteCjkFont() {
  const c = document.createElement("canvas").getContext("2d");
  c.font = "40px sans-serif";
  const none = c.measureText("\u{10FFFD}").width;
  $("cjk-note").hidden = Math.abs(c.measureText("规").width - none) > 0.5;
}
export function notice(text) {
  $("notice").textContent = text;
}
export function labelsOf() {
  return $("labels").value;
}
export function li(parent, text, cls) {
  const e = document.createElement("li");
  e.textContent = text;
  if (cls) e.className = cls;
  parent.appendChild(e);
  return e;
}
