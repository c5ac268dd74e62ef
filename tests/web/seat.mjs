// seat.mjs - the seat calls of lib/web/camelog.js against the C, on a
// game simulated with --sigs --entropy --deliveries:
//   - the key of each seat, made from the 32-byte seed inside its key
//     file, has the public key of its .pub file;
//   - every seat line of the log is signed again in the wasm, from the
//     log before it, and the sig equals the next line of the log byte
//     for byte (Ed25519 is deterministic);
//   - signing with another seat's key fails as camelog seat sign does;
//   - entropy: the pledge and sig lines the wasm makes for each seat
//     extend the log into one that the C and the wasm both verify, and
//     a reveal before the sealed start is refused;
//   - each seat's deliveries check out as camelog seat check --json
//     says, and so do the tampered ones (a value's first byte changed,
//     another seat), with the same code and message.
//
//   node tests/web/seat.mjs CAMELOG WASM_DIR LOG DELIVERIES_DIR DEALER_PUB WORK
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { start } from "./harness.mjs";

const h = await start("seat");
const { camelog, wasmDir, logFile, dlDir, dealerPub, work, lib, expect, c } = h;

const text = gunzipSync(readFileSync(logFile)).toString("utf8");
const lines = text.split("\n");
lines.pop();
const enc = (s) => new TextEncoder().encode(s);
const prefix = (n) => lines.slice(0, n).join("\n") + "\n"; // lines 1..n

// Keys: the seed is bytes 62..94 of the minisign secret key (its
// Ed25519 secret key, seed || public key).
const seats = lines.filter((l) => l.startsWith("seat ")).length;
const keys = [null];
for (let s = 1; s <= seats; s++) {
  const raw = Buffer.from(
    readFileSync(join(dlDir, `p${s}.key`), "utf8").trim().split("\n").pop(),
    "base64");
  const k = lib.key(new Uint8Array(raw.subarray(62, 94)));
  const pub = readFileSync(join(dlDir, `p${s}.pub`), "utf8").trim()
    .split("\n").pop();
  expect(k.pubkey === pub, `p${s}: key ${k.pubkey}, .pub ${pub}`);
  expect(lib.key(k.toText()).pubkey === pub, `p${s}: key from its text`);
  keys.push(k);
}
const fresh = lib.keygen();
expect(/^RW[A-Za-z0-9+/]{54}$/.test(fresh.pubkey), `keygen: ${fresh.pubkey}`);
expect(lib.key(fresh.toText()).pubkey === fresh.pubkey, "keygen: round trip");
expect(lib.keygen().pubkey !== fresh.pubkey, "keygen: two keys differ");

// Signatures: line i (0-based) followed by "sig pK ...".
let signed = 0;
for (let i = 1; i + 1 < lines.length; i++) {
  const m = /^sig p(\d+) /.exec(lines[i + 1]);
  if (!m || lines[i].startsWith("sig ")) {
    continue;
  }
  const seat = Number(m[1]);
  const log = lib.open(enc(prefix(i)), { live: true });
  if (/^(pledge|entropy) /.test(lines[i])) {
    // Format 2: a seat makes these itself (pledge, reveal below) and
    // signs none handed to it.
    const r = log.sign(seat, keys[seat], lines[i]);
    expect(!r.ok && r.code === "arg",
      `line ${i + 1} "${lines[i]}" signed when handed: ${JSON.stringify(r)}`);
    log.close();
    continue;
  }
  const r = log.sign(seat, keys[seat], lines[i]);
  expect(r.ok && r.sig === lines[i + 1],
    `line ${i + 1} "${lines[i]}": wasm ${JSON.stringify(r)}, log "${
      lines[i + 1]}"`);
  if (signed === 0) {
    // Another seat signing this seat's line: refused, as the C (which
    // takes the seat from the key) refuses it; and a key that is not
    // the seat's.
    const other = seat % seats + 1;
    const wk = log.sign(seat, keys[other], lines[i]);
    expect(!wk.ok && wk.code === "key", `wrong key: ${JSON.stringify(wk)}`);
    const w = log.sign(other, keys[other], lines[i]);
    const pre = join(work, "prefix.txt");
    writeFileSync(pre, prefix(i));
    const cr = c(["seat", "sign", "--key", join(dlDir, `p${other}.key`), pre,
      lines[i]]);
    const cmsg = cr.stderr.trim().replace(/^camelog: [^:]*:(\d+:)? ?/, "");
    expect(!w.ok && cr.status !== 0 && w.error === cmsg,
      `wrong key: wasm ${JSON.stringify(w)}, C (${cr.status}) ${cr.stderr}`);
  }
  log.close();
  signed++;
}
expect(signed > 10, `only ${signed} seat lines signed`);

// Entropy, format 2's first round: each seat pledges a value of its
// own, from the log after `commit`, in seat order; the log with every
// pledge verifies alike in the wasm and the C.  A reveal before the
// dealer's sealed start is refused by both.
const commit = lines.findIndex((l) => l.startsWith("commit "));
let grown = prefix(commit + 1);
const values = [];
for (let s = 1; s <= seats; s++) {
  values[s] = new Uint8Array(32).fill(s);
  const log = lib.open(enc(grown), { live: true });
  const r = log.pledge(s, keys[s], values[s]);
  log.close();
  expect(r.ok && r.pledge.startsWith(`pledge p${s} `) &&
    r.sig.startsWith(`sig p${s} `), `pledge p${s}: ${JSON.stringify(r)}`);
  grown += `${r.pledge}\n${r.sig}\n`;
}
const ent = join(work, "pledges.txt");
writeFileSync(ent, grown);
const wv = lib.verify(enc(grown));
const cv = JSON.parse(c(["verify", "--json", "-q", ent]).stdout);
{
  const { file: _f, ...cj } = cv;
  const { summary: _s, ...wj } = wv;
  expect(wv.valid && cv.valid && wv.sigs === seats &&
    JSON.stringify(wj) === JSON.stringify(cj),
    `pledges log: wasm ${JSON.stringify(wv)}, C ${JSON.stringify(cv)}`);
}
{
  const log = lib.open(enc(grown), { live: true });
  const r = log.reveal(1, keys[1], values[1]);
  log.close();
  expect(!r.ok && r.code === "state",
    `reveal before the sealed start: ${JSON.stringify(r)}`);
}

// Deliveries, as camelog seat check --json sees them.
const final = lib.open(readFileSync(logFile), {
  pubkey: readFileSync(dealerPub, "utf8").trim().split("\n").pop(),
});
expect(final.report.valid, `final log: ${JSON.stringify(final.report)}`);
let delivered = 0;
for (let s = 1; s <= seats; s++) {
  const file = join(dlDir, `p${s}.deliveries`);
  const good = readFileSync(file, "utf8").split("\n").filter((l) => l);
  // The first byte of each value changed (its length kept).
  const bad = good.map((l) => l.replace(/^(delivery \d+ "[^"]*" ")(.)/,
    (all, head, c) => `${head}${c === "x" ? "y" : "x"}`));
  expect(bad.every((l, i) => l !== good[i]), `p${s}: deliveries not changed`);
  const badFile = join(work, `p${s}.bad`);
  writeFileSync(badFile, bad.join("\n") + "\n");
  const as = s % seats + 1; // another seat: addressed to someone else
  // unless the other seat was sent the same delivery (the two seats of
  // King Arthur's exchange in Shadows over Camelot each hold its swaps).
  const theirs = new Set(readFileSync(join(dlDir, `p${as}.deliveries`),
    "utf8").split("\n").filter((l) => l));
  for (const [f, ls, seat] of [[file, good, s], [badFile, bad, s],
    [file, good, as]]) {
    const out = c(["seat", "check", "--json", "--pubkey", dealerPub, "--as",
      `p${seat}`, logFile, f]).stdout.split("\n").filter((l) => l);
    expect(out.length === ls.length, `${f}: ${out.length} checks printed`);
    ls.forEach((l, i) => {
      const w = final.checkDelivery(seat, l);
      const { file: _f, delivery: _d, ...cj } = JSON.parse(out[i] ?? "{}");
      const { value: _v, ...wj } = w;
      expect(JSON.stringify(wj) === JSON.stringify(cj),
        `p${seat} ${l}: wasm ${JSON.stringify(wj)}, C ${JSON.stringify(cj)}`);
      expect(w.valid === (f === file && (seat === s || theirs.has(l))),
        `p${seat} ${l}: valid ${w.valid}`);
      delivered++;
    });
  }
}
final.close();
expect(delivered > seats * 3, `only ${delivered} deliveries checked`);

h.finish(
  `(${signed} signatures remade, ${seats} pledges, ${delivered} ` +
  `deliveries)`);
