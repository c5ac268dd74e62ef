// wasm.mjs - make bench's figures of the WebAssembly build (make wasm):
// the bytes a page loads, gzipped, and verify's speed in the module
// against camelog verify on the same files.
//
//   node bench/wasm.mjs CAMELOG WASM_DIR DIR...
//
// Each DIR holds .camelog files, measured apart.  Three rounds, each a pair run back to
// back (in turn which goes first): camelog verify -q -j 1 over all the
// files (wall time, one process) and the module's verify() over the same
// files, already in memory, one call each (wall time, this process).
// The ratio printed is the median of the three pairs.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const [camelog, wasmDir, ...dirs] = process.argv.slice(2);
if (!globalThis.crypto?.getRandomValues) {
  globalThis.crypto = (await import("node:crypto")).webcrypto;
}
const { load } = await import(
  pathToFileURL(resolve(wasmDir, "camelog.js")).href);
const wasm = readFileSync(join(wasmDir, "camelog.wasm"));
const js = readFileSync(join(wasmDir, "camelog.js"));
const gz = (b) => gzipSync(b, { level: 9 }).length;

let t0 = performance.now();
const lib = await load(wasm);
const loadMs = performance.now() - t0;

console.log(`wasm: camelog.wasm ${wasm.length} bytes (${gz(wasm)} gzipped), ` +
  `camelog.js ${js.length} bytes (${gz(js)} gzipped): ` +
  `${gz(wasm) + gz(js)} bytes gzipped a page loads [target < 409600, ` +
  `${gz(wasm) + gz(js) < 409600 ? "met" : "NOT met"}]`);
console.log(`wasm: compile and instantiate ${loadMs.toFixed(0)} ms ` +
  `(node ${process.version}, V8 ${process.versions.v8})`);

for (const dir of dirs) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".camelog")).sort()
    .map((f) => join(dir, f));
  const bytes = files.map((f) => readFileSync(f));
  const total = bytes.reduce((n, b) => n + b.length, 0);

  const nativeRun = () => {
    const t = performance.now();
    const r = spawnSync(camelog, ["verify", "-q", "-j", "1", ...files],
      { stdio: "ignore" });
    if (r.status !== 0) {
      throw new Error(`camelog verify exited with ${r.status}`);
    }
    return performance.now() - t;
  };
  const wasmRun = () => {
    const t = performance.now();
    for (const b of bytes) {
      if (!lib.verify(b).valid) {
        throw new Error("a log of the bench did not verify");
      }
    }
    return performance.now() - t;
  };

  wasmRun(); // the first run warms the engine up: not counted
  const pairs = [];
  for (let round = 0; round < 3; round++) {
    let n, w;
    if (round % 2 === 0) {
      n = nativeRun();
      w = wasmRun();
    } else {
      w = wasmRun();
      n = nativeRun();
    }
    pairs.push({ n, w, r: w / n });
  }
  pairs.sort((a, b) => a.r - b.r);
  const mid = pairs[1];
  const rate = (ms) => (files.length / (ms / 1000)).toFixed(0);
  console.log(`wasm: verify, ${basename(dir)}: ${files.length} logs ` +
    `(${(total / 1024).toFixed(0)} KiB): module ${rate(mid.w)} games/s, ` +
    `camelog verify -j 1 ${rate(mid.n)} games/s; module / native time ` +
    `${mid.r.toFixed(2)}x (pairs ${pairs.map((p) => p.r.toFixed(2))
      .join(", ")})`);
}
