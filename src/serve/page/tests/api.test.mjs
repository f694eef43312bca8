// The API client (api.js) against a stand-in fetch: the request sent, the answer, the error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { api, apiError, clientToken } from "../api.js";

test("apiError takes the server's message, or the HTTP status", () => {
  const e = apiError(400, { error: "position: expected a size" });
  assert.equal(e.message, "position: expected a size");
  assert.equal(e.status, 400);
  assert.equal(apiError(502, null).message, "HTTP 502");
});

test("the client token is 128 random bits in hex, the same for every request", () => {
  const t = clientToken();
  assert.match(t, /^[0-9a-f]{32}$/);
  assert.equal(clientToken(), t);
});

test("a GET and a POST: the path, the method, the JSON body, the token; an error thrown", async () => {
  const sent = [];
  const answers = [
    { ok: true, status: 200, body: { presets: [] } },
    { ok: true, status: 200, body: { svg: "<svg/>" } },
    { ok: false, status: 413, body: { error: "request body too large" } },
  ];
  globalThis.fetch = async (url, opts) => {
    sent.push([url, opts]);
    const a = answers.shift();
    return { ok: a.ok, status: a.status, json: async () => a.body };
  };
  assert.deepEqual(await api("options"), { presets: [] });
  assert.deepEqual(await api("analyze", { position: "size: 3" }), { svg: "<svg/>" });
  await assert.rejects(api("analyze", { position: "x" }), (e) => e.status === 413 && e.message === "request body too large");
  assert.equal(sent[0][0], "/api/options");
  assert.equal(sent[0][1].method, undefined);
  assert.equal(sent[0][1].headers["X-M3go-Client"], clientToken());
  assert.equal(sent[1][0], "/api/analyze");
  assert.equal(sent[1][1].method, "POST");
  assert.equal(sent[1][1].headers["Content-Type"], "application/json");
  assert.deepEqual(JSON.parse(sent[1][1].body), { position: "size: 3" });
});
