// harness.mjs - what tests/web/seat.mjs and choice.mjs share: their
// arguments, the wasm library loaded from WASM_DIR, a camelog runner and
// a count of checks.
//
//   const h = await start("seat");
//   h.expect(cond, "what was wrong");  ...  h.finish("extra figures");
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export async function start(name) {
  const [camelog, wasmDir, logFile, dlDir, dealerPub, work] =
    process.argv.slice(2);
  if (!globalThis.crypto?.getRandomValues) {
    globalThis.crypto = (await import("node:crypto")).webcrypto;
  }
  const { load } = await import(
    pathToFileURL(resolve(wasmDir, "camelog.js")).href);
  const lib = await load(readFileSync(join(wasmDir, "camelog.wasm")));
  let failures = 0, checks = 0;
  return {
    camelog, wasmDir, logFile, dlDir, dealerPub, work, lib,
    expect(cond, what) {
      checks++;
      if (!cond) {
        failures++;
        console.error(`${name}: FAILED: ${what}`);
      }
    },
    c: (args) => spawnSync(camelog, args, { encoding: "utf8" }),
    // Prints the count and what follows it, and exits 1 on a failure.
    finish(figures) {
      console.log(`${name}: ${checks - failures} of ${checks} checks ` +
        `passed ${figures}`);
      process.exit(failures === 0 ? 0 : 1);
    },
  };
}
