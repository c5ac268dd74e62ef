// choice.mjs - the calls of lib/web/camelog.js that the example table's
// pages make beyond seat.mjs's, against the C, on a game simulated with
// --sigs --deliveries:
//   - sign with the seat's own choice: every vote and proposal of the
//     log, signed again with its own action as the choice, gives the
//     log's sig byte for byte; with another action (the other vote) it
//     is refused (code fairness, the library's message), as camelog
//     seat sign --action refuses it;
//   - history: a prefix of the log is the start of the final file, as
//     camelog seat history --json says; the same prefix with its last
//     line changed parts from it at that line, with the same keys.
//
//   node tests/web/choice.mjs CAMELOG WASM_DIR LOG DELIVERIES_DIR DEALER_PUB WORK
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { start } from "./harness.mjs";

const h = await start("choice");
const { camelog, wasmDir, logFile, dlDir, dealerPub, work, lib, expect, c } = h;

const cMessage = (r) => r.stderr.trim().replace(/^camelog: [^:]*:(\d+:)? ?/, "");
const lines = gunzipSync(readFileSync(logFile)).toString("utf8").split("\n");
lines.pop();
const enc = (s) => new TextEncoder().encode(s);
const prefix = (n) => lines.slice(0, n).join("\n") + "\n";
const seats = lines.filter((l) => l.startsWith("seat ")).length;
const keys = [null];
for (let s = 1; s <= seats; s++) {
  const raw = Buffer.from(
    readFileSync(join(dlDir, `p${s}.key`), "utf8").trim().split("\n").pop(),
    "base64");
  keys.push(lib.key(new Uint8Array(raw.subarray(62, 94))));
}

let signed = 0, refused = 0;
for (let i = 1; i + 1 < lines.length; i++) {
  const m = /^(vote|propose) p(\d+) (.*)$/.exec(lines[i]);
  if (!m || !lines[i + 1].startsWith(`sig p${m[2]} `)) {
    continue;
  }
  const seat = Number(m[2]);
  const log = lib.open(enc(prefix(i)), { live: true });
  const r = log.sign(seat, keys[seat], lines[i], { action: lines[i] });
  expect(r.ok && r.sig === lines[i + 1],
    `line ${i + 1} "${lines[i]}" with its own action: ${JSON.stringify(r)}`);
  signed++;
  if (m[1] === "vote") {
    const other = `vote p${seat} ${m[3] === "yes" ? "no" : "yes"}`;
    const w = log.sign(seat, keys[seat], lines[i], { action: other });
    const pre = join(work, "choice.txt");
    writeFileSync(pre, prefix(i));
    const cr = c(["seat", "sign", "--key", join(dlDir, `p${seat}.key`),
      "--action", other, pre, lines[i]]);
    // camelog seat sign tries the key for each seat in turn and names
    // the first it tried in its message; the module is told the seat.
    const want = `the line to sign is not p${seat}'s action "${other}": ` +
      "not signed";
    expect(!w.ok && w.code === "fairness" && cr.status !== 0 &&
      w.error === want && cMessage(cr).endsWith(` action "${other}": not signed`),
      `line ${i + 1} "${lines[i]}" as "${other}": wasm ${JSON.stringify(w)}, ` +
      `C (${cr.status}) ${cr.stderr}`);
    refused++;
  }
  log.close();
}
expect(signed > 10 && refused > 5, `only ${signed} signed, ${refused} refused`);

// History: the first half of the log, as it was, and with its last
// line a vote turned (a history the final file does not extend).
const pin = readFileSync(dealerPub, "utf8").trim().split("\n").pop();
const final = lib.open(readFileSync(logFile), { pubkey: pin });
let compared = 0;
const half = lines.findIndex((l, i) => i > lines.length / 2 &&
  /^vote p\d+ (yes|no)$/.test(l)) + 1;
for (const turned of [false, true]) {
  const seen = lines.slice(0, half);
  if (turned) {
    seen[half - 1] = seen[half - 1].endsWith(" yes")
      ? seen[half - 1].replace(/ yes$/, " no")
      : seen[half - 1].replace(/ no$/, " yes");
  }
  const file = join(work, `seen-${turned}.txt`);
  writeFileSync(file, seen.join("\n") + "\n");
  const log = lib.open(enc(seen.join("\n") + "\n"), { live: true });
  expect(log.report.valid, `seen (${turned}): ${JSON.stringify(log.report)}`);
  const w = log.history(final);
  log.close();
  const cr = c(["seat", "history", "--json", "--pubkey", dealerPub, file,
    logFile]);
  const { seen: _s, final: _f, ...cj } = JSON.parse(cr.stdout || "{}");
  expect(JSON.stringify(w) === JSON.stringify(cj) && w.extends === !turned &&
    (turned ? w.line === half : w.lines === half),
  `history (${turned}): wasm ${JSON.stringify(w)}, C ${cr.stdout}`);
  compared++;
}
final.close();

h.finish(
  `(${signed} lines signed with their own action, ${refused} refused ` +
  `with another, ${compared} histories compared)`);
