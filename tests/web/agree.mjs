// agree.mjs - the WebAssembly verifier (lib/web/camelog.js over
// camelog.wasm) against the C one (camelog verify), file by file.
//
//   node tests/web/agree.mjs CAMELOG WASM_DIR WORK PUB FILE|DIR...
//
// Every regular file under the arguments is verified both ways, and so
// are the files this script writes into WORK: from each valid log among
// them, tampered copies (a byte of the gzip flipped, a character of a
// line changed, a line dropped, the text cut short: each recompressed
// but the first) and the log as canonical text, untouched; and a few
// files at the edges of reading (empty, over the size limit).  For each
// file the two must give the same JSON object (camelog verify --json
// less "file"), and the text line of verify (after "FILE: ") must be
// the wasm's "summary".  The logs of DIRs named with a trailing "=pin"
// are verified a second time with the dealer key PUB pinned, and so are
// the files written.  Prints the count of files that agreed, how many
// of them failed by code, the bytes of the module gzipped and the
// verify time of both on the valid logs.
import { spawnSync } from "node:child_process";
import {
  readdirSync, readFileSync, statSync, writeFileSync, mkdirSync,
} from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";

const [camelog, wasmDir, work, pubFile, ...inputs] = process.argv.slice(2);
if (!inputs.length) {
  console.error("usage: node agree.mjs CAMELOG WASM_DIR WORK PUB FILE|DIR...");
  process.exit(2);
}
// Node 18 (Debian 12's) has Web Crypto but not yet as a global.
if (!globalThis.crypto?.getRandomValues) {
  globalThis.crypto = (await import("node:crypto")).webcrypto;
}
const { load } = await import(
  pathToFileURL(resolve(wasmDir, "camelog.js")).href);
const wasmBytes = readFileSync(join(wasmDir, "camelog.wasm"));
const lib = await load(wasmBytes);

function walk(p, out) {
  const st = statSync(p);
  if (st.isDirectory()) {
    for (const e of readdirSync(p).sort()) {
      walk(join(p, e), out);
    }
  } else if (st.isFile()) {
    out.push(p);
  }
  return out;
}

// A small fixed PRNG (xorshift32): the tampered files are the same on
// every run.
let rngState = 0x2545f491;
function rand(n) {
  rngState ^= rngState << 13;
  rngState >>>= 0;
  rngState ^= rngState >>> 17;
  rngState ^= rngState << 5;
  rngState >>>= 0;
  return rngState % n;
}

function isGzip(b) {
  return b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;
}

// Tampered copies of one valid gzip log.
let tamperNo = 0;
function tamper(file, bytes, dir) {
  const out = [];
  const name = `${++tamperNo}-${basename(file).replace(/\.camelog$/, "")}`;
  const put = (tag, data) => {
    const p = join(dir, `${name}.${tag}.camelog`);
    writeFileSync(p, data);
    out.push(p);
  };
  const flipped = Buffer.from(bytes);
  const at = 10 + rand(flipped.length - 10);
  flipped[at] ^= 1 << rand(8);
  put("byte", flipped);

  const text = gunzipSync(bytes).toString("latin1");
  const lines = text.split("\n");
  lines.pop(); // the empty string after the last LF
  const line = 1 + rand(lines.length - 1); // never the first line
  const l = lines[line];
  if (l.length > 0) {
    const c = rand(l.length);
    const alphabet = "0123456789abcdefp yesnoxq";
    const changed = lines.slice();
    let ch = alphabet[rand(alphabet.length)];
    if (ch === l[c]) {
      ch = ch === "x" ? "y" : "x";
    }
    changed[line] = l.slice(0, c) + ch + l.slice(c + 1);
    put("char", gzipSync(Buffer.from(changed.join("\n") + "\n", "latin1")));
  }
  const dropped = lines.slice();
  dropped.splice(line, 1);
  put("drop", gzipSync(Buffer.from(dropped.join("\n") + "\n", "latin1")));
  const cut = text.slice(0, rand(text.length));
  put("cut", gzipSync(Buffer.from(cut, "latin1")));
  // Not tampered: the same log as canonical text, as a host journal is.
  put("text", Buffer.from(text, "latin1"));
  return out;
}

// camelog verify over files: {file: [json, text]}.
function native(files, pin) {
  const pinArgs = pin ? ["--pubkey", pubFile] : [];
  const run = (args) => {
    const r = spawnSync(camelog, ["verify", "-q", "-j", "1", ...pinArgs,
      ...args, ...files], { maxBuffer: 1 << 30, encoding: "utf8" });
    if (r.status !== 0 && r.status !== 1) {
      throw new Error(`camelog verify exited with ${r.status}: ${r.stderr}`);
    }
    return r;
  };
  const t0 = performance.now();
  const json = run(["--json"]);
  const ms = performance.now() - t0;
  const text = run([]);
  const res = new Map();
  for (const l of json.stdout.split("\n").filter((s) => s)) {
    const o = JSON.parse(l);
    res.set(o.file, [o, null]);
  }
  // One line a file, in the order given (the seed's provenance, a
  // second line of the text form, is camelog-verify(1)'s own).
  const lines = text.stdout
    .split("\n")
    .filter((s) => s && !/: seed provenance: /.test(s));
  files.forEach((f, i) => {
    const l = lines[i] ?? "";
    if (!l.startsWith(`${f}: `) || !res.has(f)) {
      throw new Error(`camelog verify: line ${i + 1} is not of ${f}: ${l}`);
    }
    res.get(f)[1] = l.slice(f.length + 2);
  });
  return { res, ms };
}

const pub = readFileSync(pubFile, "utf8").trim().split("\n").pop();
const tamperDir = join(work, "tampered");
mkdirSync(tamperDir, { recursive: true });

const sets = [];
for (const arg of inputs) {
  const pin = arg.endsWith("=pin");
  const files = walk(pin ? arg.slice(0, -4) : arg, []);
  sets.push({ files, pin: false });
  if (pin) {
    sets.push({ files: files.filter((f) => f.endsWith(".camelog")), pin: true });
  }
}
// Tampered copies of the valid logs (verified unpinned and pinned).
const plain = native(sets.filter((s) => !s.pin).flatMap((s) => s.files), false);
const tampered = [];
for (const [file, [o]] of plain.res) {
  const bytes = readFileSync(file);
  if (o.valid && isGzip(bytes)) {
    tampered.push(...tamper(file, bytes, tamperDir));
  }
}
// Files at the edges of reading: empty, a gzip header alone, text that
// opens as a log but is not one, one byte over the 16 MiB limit.
const edge = join(tamperDir, "edge");
mkdirSync(edge, { recursive: true });
writeFileSync(join(edge, "empty.camelog"), Buffer.alloc(0));
writeFileSync(join(edge, "header.camelog"), Buffer.from([0x1f, 0x8b, 8, 0]));
writeFileSync(join(edge, "opening.camelog"), "camelog 2\ngame\n");
writeFileSync(join(edge, "huge.camelog"), Buffer.alloc(16 * 1048576 + 1, 0x41));
tampered.push(...walk(edge, []));
sets.push({ files: tampered, pin: false }, { files: tampered, pin: true });

let agreed = 0, failed = 0, bad = 0;
const codes = new Map();
for (const set of sets) {
  const { res } = native(set.files, set.pin);
  for (const file of set.files) {
    const bytes = readFileSync(file);
    const w = lib.verify(bytes, { pubkey: set.pin ? pub : "" });
    const [c, text] = res.get(file) ?? [null, null];
    const { summary, ...wjson } = w;
    const cjson = c ? { ...c } : null;
    if (cjson) {
      delete cjson.file;
    }
    const same = cjson && JSON.stringify(wjson) === JSON.stringify(cjson) &&
      text === summary;
    if (!same) {
      bad++;
      if (bad <= 10) {
        console.error(`agree: ${file}${set.pin ? " (pinned)" : ""}:`);
        console.error(`  C:    ${JSON.stringify(cjson)} | ${text}`);
        console.error(`  wasm: ${JSON.stringify(wjson)} | ${summary}`);
      }
      continue;
    }
    agreed++;
    if (!w.valid) {
      failed++;
      codes.set(w.code, (codes.get(w.code) ?? 0) + 1);
    }
  }
}

// Speed: the valid logs, natively in one process and in wasm one by
// one (each read from its bytes, as a page would).
const valid = [...plain.res].filter(([, [o]]) => o.valid).map(([f]) => f);
const { ms: nativeMs } = native(valid, false);
let wasmMs = 0, bytesIn = 0;
for (const file of valid) {
  const bytes = readFileSync(file);
  bytesIn += bytes.length;
  const t0 = performance.now();
  lib.verify(bytes);
  wasmMs += performance.now() - t0;
}
const gz = (b) => gzipSync(b, { level: 9 }).length;
const jsBytes = readFileSync(join(wasmDir, "camelog.js"));
console.log(`agree: ${agreed} verifications agreed (${failed} of them failed, ` +
  `${tampered.length} files written), ${bad} disagreed`);
console.log(`agree: failures by code: ${[...codes].sort()
  .map(([c, n]) => `${c} ${n}`).join(", ")}`);
console.log(`agree: camelog.wasm ${wasmBytes.length} bytes, ${gz(wasmBytes)} ` +
  `gzipped; camelog.js ${jsBytes.length} bytes, ${gz(jsBytes)} gzipped; ` +
  `together ${gz(wasmBytes) + gz(jsBytes)} bytes gzipped`);
console.log(`agree: verify of the ${valid.length} valid logs ` +
  `(${(bytesIn / 1024).toFixed(0)} KiB): ` +
  `wasm ${wasmMs.toFixed(0)} ms (node ${process.version}), native ` +
  `${nativeMs.toFixed(0)} ms (camelog verify --json -j 1, one process ` +
  `a set); wasm/native ${(wasmMs / nativeMs).toFixed(2)}`);
process.exit(bad === 0 && agreed > 0 ? 0 : 1);
