// links.js: the record packed into a link and back, and a view as the fragment and back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LINK_RECORD_MAX, LINK_UNPACKED_MAX, fromBase64url, packPosition, packText, parseHash, toBase64url, unpackPosition, unpackText, viewHash } from "../links.js";

test("base64url round-trips every byte, without padding or +/", () => {
  const bytes = Uint8Array.from({ length: 256 }, (_, k) => k);
  const t = toBase64url(bytes);
  assert.match(t, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(fromBase64url(t), bytes);
  assert.equal(fromBase64url("a+b/"), null);
  assert.equal(fromBase64url("abcde"), null);
});

test("a record packs and unpacks to the same text; the Ke Jie game fits a link", async () => {
  const sgf = readFileSync(new URL("../../../../spec/records/kejie-alphago-2017-g1.sgf", import.meta.url), "utf8");
  const packed = await packText(sgf);
  assert.equal(await unpackText(packed), sgf);
  assert.ok(packed.length < sgf.length, packed.length + " vs " + sgf.length);
  assert.ok(packed.length < LINK_RECORD_MAX);
  const cjk = "黑1.七六 白2.六F 华9.七F";
  assert.equal(await unpackText(await packText(cjk)), cjk);
});

test("a cut or changed link is refused naming the record's parameter", async () => {
  const packed = await packText("(;GM[1]SZ[9];B[ee])");
  await assert.rejects(unpackText(packed.slice(0, 5)), /data=.*cut or changed/);
  await assert.rejects(unpackText("%%%"), /not base64url/);
});

test("a view goes into the fragment and comes back, with its dead marks and an accepted count", () => {
  const v = {
    record: "g 1.sgf", data: "abc-_", at: 288, moves: ["pass", "黑290.七六"], mechanical: true, rules: '{"preset":"m3go-2020"}',
    dead: ["七六", "六F"], scoring: "accepted", layer: "upper", labels: "latin",
  };
  const hash = viewHash(v);
  assert.ok(hash.includes("dead=") && hash.includes("scoring=accepted"), hash);
  assert.deepEqual(parseHash("#" + hash), v);
  const p = parseHash("#" + viewHash({ position: "eJwrzq", dead: [], layer: "holographic", labels: "chinese" }));
  assert.deepEqual(p, { position: "eJwrzq", dead: [], scoring: null, layer: "holographic", labels: "chinese" });
  // defaults are left out of the link
  assert.equal(viewHash({ record: "r", at: 0, data: null, moves: [], layer: "holographic", labels: "chinese" }), "record=r&at=0");
  // an old link (the record's name only) reads with no data, no marks
  assert.equal(parseHash("#record=x.sgf&at=5").data, null);
  assert.deepEqual(parseHash("#record=x.sgf&at=5").dead, []);
  assert.equal(parseHash("#record=x.sgf&at=-3").at, 0);
  // a line of an SGF's tree: the file packed, the line named (none: the main line)
  const line = { ...v, line: 2 };
  assert.ok(viewHash(line).includes("line=2"));
  assert.deepEqual(parseHash("#" + viewHash(line)), line);
  assert.equal(viewHash({ ...v, line: 0 }), hash);
});

test("a position travels packed without its marks, and links of older pages still read", async () => {
  const setup = { rules: { preset: "m3go-2020" }, size: 3, move: 2, diagram: ". X .\n. . .\n. . .\n", dead: ["二B"] };
  const packed = await packPosition(setup);
  assert.match(packed, /^[A-Za-z0-9_-]+$/);
  const { dead, ...bare } = setup;
  assert.deepEqual(await unpackPosition(packed), bare);
  assert.deepEqual(setup.dead, dead, "the object given is not changed");
  // an unpacked object goes as its JSON text, which reads back as the object
  const v = parseHash("#" + viewHash({ position: bare }));
  assert.deepEqual(await unpackPosition(v.position), bare);
  // an older page's links: the position's YAML text (the server reads it) or its JSON
  const yaml = "size: 3\nmove: 1\n";
  assert.equal(await unpackPosition(parseHash("#" + new URLSearchParams({ position: yaml })).position), yaml);
  assert.deepEqual(await unpackPosition(JSON.stringify(bare)), bare);
  await assert.rejects(unpackPosition(packed.slice(0, 7)), /position=.*cut or changed/);
});

test("a link is unpacked to at most LINK_UNPACKED_MAX bytes, and refused past that with the bound", async () => {
  const { deflateRawSync } = await import("node:zlib");
  const packedOf = (bytes) => toBase64url(deflateRawSync(bytes, { level: 9 }));
  // exactly the bound unpacks
  const at = "a".repeat(LINK_UNPACKED_MAX);
  assert.equal(await unpackText(packedOf(Buffer.from(at))), at);
  // one byte more, and a bomb (64 MiB in some 64 K characters), are refused naming the bound
  for (const size of [LINK_UNPACKED_MAX + 1, 64 << 20]) {
    const packed = packedOf(Buffer.alloc(size, 0x61));
    assert.ok(packed.length < 100000, packed.length);
    await assert.rejects(unpackText(packed), (e) => {
      assert.match(e.message, /data=.*unpacks to more than 1024 KiB \(1 MiB/);
      return true;
    });
  }
  // a position's link alike
  await assert.rejects(unpackPosition(packedOf(Buffer.alloc(4 << 20, 0x20))), /position=.*unpacks to more than 1024 KiB/);
});
