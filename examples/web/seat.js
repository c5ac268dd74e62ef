// seat.js - one seat of an Avalon game played through bridge.py
// (examples/web/README.md).  Every check is libreplay's, through
// camelog.js (camelog-web(7)):
//   - the seat's key is made in the page and kept in localStorage; only
//     its public key is sent;
//   - each batch of public lines is verified with what came before
//     (chain, the dealer's seals under the pinned key, the seats'
//     signatures, the rules), and each delivery is checked against the
//     log the moment it arrives, before the page shows any of it;
//   - the seat's pledge and reveal are made here, and the value kept
//     here between the two;
//   - a sign request is signed only if its line is the player's own
//     click (for a quest card: its commitment is that of the card the
//     player chose);
//   - at the end the finished file is verified here and must begin with
//     every line this page was shown.
// A failed check stops the page: a red banner with the library's
// message, and nothing more is signed.
import { load } from "./camelog.js";

const params = new URLSearchParams(location.search);
const seat = Number(params.get("seat"));
const dealer = params.get("dealer") || "";
const me = `p${seat}`;
const store = `camelog-table/${me}`;
const $ = (id) => document.getElementById(id);

const ROLE_NAMES = {
  merlin: "Merlin", percival: "Percival", servant: "Loyal Servant of Arthur",
  assassin: "the Assassin", morgana: "Morgana", mordred: "Mordred",
  oberon: "Oberon", minion: "Minion of Mordred",
};
const EVIL = new Set(["assassin", "morgana", "mordred", "oberon", "minion"]);

let camelog = null;
let key = null;
let token = null;
let log = null;          // the SeatLog of every line seen, verified
const lines = [];        // every public line this seat was shown
const names = {};        // p1 -> "Alice", from the verified header
// The player's last click, and the line it was signed for: one click
// signs one line (the same line again, should the host ask with a new
// base), never a later one.
let choice = null;       // { action, line }
let lastTurn = null;     // the last turn drawn: [public, actions]
let pledgeValue = null;  // the 32 bytes pledged, until the reveal
let deliveries = 0;
let failed = false;

function fail(what, message) {
  failed = true;
  document.body.dataset.state = "failed";
  $("banner-what").textContent = what;
  $("banner-message").textContent = message;
  $("banner").hidden = false;
  $("actions").replaceChildren();
  $("prompt").textContent = "Stopped: this page signs nothing more.";
  $("checks").className = "bad";
  $("checks").textContent = `\u2717 Stopped at the failed check above, ` +
    `after ${lines.length} lines and ${deliveries} private messages that ` +
    "passed. Keep what you were shown: it is your evidence.";
  downloads([["the history you were shown", `${me}.txt`,
    new TextEncoder().encode(text())]]);
  document.title = `FAILED - ${me} - camelog seat`;
}

function downloads(files) {
  const dl = $("downloads");
  dl.replaceChildren();
  for (const [name, file, data] of files) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([data]));
    a.download = file;
    a.textContent = `Download ${name}`;
    dl.append(a, " ");
  }
}

function setStatus(text) {
  $("status").textContent = text;
}

function post(path, body) {
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seat, token, ...body }),
  });
}

function submit(body) {
  if (!failed) {
    post("/submit", body);
  }
}

function text() {
  return lines.map((l) => `${l}\n`).join("");
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function unhex(h) {
  return Uint8Array.from(h.match(/../g), (x) => parseInt(x, 16));
}

function who(p) {
  return names[p] ? `${p} (${names[p]})` : p;
}

// ------------------------------------------------------------ the log

function onLines(first, batch) {
  if (first !== lines.length + 1) {
    fail("The host skipped or repeated lines.",
      `expected line ${lines.length + 1}, the host sent line ${first}`);
    return;
  }
  lines.push(...batch);
  // Kept as shown, a failing batch too: it is the evidence.
  localStorage.setItem(`${store}/history`, text());
  const next = camelog.open(new TextEncoder().encode(text()),
    { pubkey: dealer, live: true });
  if (log) {
    log.close();
  }
  log = next;
  if (!log.report.valid) {
    // A seat's signature that fails over the lines this seat was shown:
    // that seat signed other lines, so the host shows the seats
    // different histories.
    const signer = log.report.code === "sig"
      ? /signature of (p\d+)/.exec(log.report.error)?.[1] : null;
    fail(`The history the host showed this seat does not verify at line ${
      log.report.line}.${signer ? ` ${who(signer)} signed other lines than ` +
      "these: the host is showing the seats different histories." : ""}`,
    log.report.error);
    return;
  }
  for (const l of batch) {
    const m = /^seat (p\d+) "([^"]*)"/.exec(l);
    if (m) {
      names[m[1]] = m[2];
    }
    if (l.startsWith("id ")) {
      $("title").textContent = `${who(me)} - Avalon game ${l.slice(3, 11)}`;
    }
  }
  $("title").textContent = `${who(me)} - Avalon`;
  showLines(first, batch);
  showChecks();
}

function showLines(first, batch) {
  const ol = $("lines");
  batch.forEach((l, i) => {
    const li = document.createElement("li");
    li.value = first + i;
    li.textContent = l.length > 90 ? `${l.slice(0, 87)}...` : l;
    if (/^(seal|sig|pledge|entropy|commit|dealer|seat) /.test(l)) {
      li.className = "crypto";
    }
    ol.append(li);
  });
  ol.lastElementChild?.scrollIntoView({ block: "nearest" });
}

function showChecks() {
  const r = log.report;
  $("checks").textContent = `\u2713 ${lines.length} lines verified in this ` +
    `browser: ${r.summary}; ${deliveries} private message` +
    `${deliveries === 1 ? "" : "s"} checked.`;
}

// ------------------------------------------------------- deliveries

function onDelivery(d) {
  const r = log.checkDelivery(seat, JSON.stringify(d));
  if (!r.valid) {
    fail(`The dealer's private message for line ${d.line} ("${d.label}") ` +
      "failed this seat's check: it is not what the dealer committed to " +
      "and signed.", r.error);
    return;
  }
  deliveries++;
  const value = r.value.replace(/\.+$/, "");
  const li = document.createElement("li");
  if (r.label.startsWith("deal ")) {
    const role = /role=(\w+)/.exec(value)?.[1];
    const sees = /sees=([p0-9,]+)/.exec(value)?.[1];
    const side = EVIL.has(role) ? "evil" : "good";
    const p = $("role");
    p.replaceChildren();
    p.dataset.role = role;
    p.className = side;
    const b = document.createElement("strong");
    b.textContent = ROLE_NAMES[role] || role;
    p.append("You are ", b, ` (${side}).`);
    if (sees) {
      p.append(` You see: ${sees.split(",").map(who).join(", ")}.`);
    }
    li.textContent = `Line ${r.line}, your deal: ${value} (checked)`;
  } else {
    li.textContent = `Line ${r.line}, ${r.label}: ${value} (checked)`;
  }
  $("private").append(li);
  localStorage.setItem(`${store}/deliveries`,
    (localStorage.getItem(`${store}/deliveries`) || "") +
    `${JSON.stringify(d)}\n`);
  showChecks();
}

// ----------------------------------------------------------- entropy

function gameId() {
  return lines.find((l) => l.startsWith("id "))?.slice(3) || "";
}

function onPledge() {
  // One value a game, kept until the reveal (a reloaded page pledges
  // the same).
  const kept = localStorage.getItem(`${store}/pledge/${gameId()}`);
  const value = kept ? unhex(kept) : new Uint8Array(32);
  if (!kept) {
    crypto.getRandomValues(value);
    localStorage.setItem(`${store}/pledge/${gameId()}`, hex(value));
  }
  pledgeValue = value;
  const r = log.pledge(seat, key, value);
  if (!r.ok) {
    fail("This seat could not pledge its share of the seed.", r.error);
    return;
  }
  $("prompt").textContent = "Your share of the seed is pledged; waiting " +
    "for the dealer to seal every pledge.";
  submit({ kind: "pledge", hex: r.pledge.split(" ")[2], sig: r.sig });
}

function onReveal() {
  const kept = localStorage.getItem(`${store}/pledge/${gameId()}`);
  const r = log.reveal(seat, key, pledgeValue || unhex(kept || ""));
  if (!r.ok) {
    fail("This seat will not reveal its share of the seed.", r.error);
    return;
  }
  $("prompt").textContent = "Your share of the seed is revealed; the " +
    "dealer deals.";
  submit({ kind: "reveal", hex: r.entropy.split(" ")[2], sig: r.sig });
}

// ------------------------------------------------------------ turns

function label(action) {
  const w = action.split(" ");
  switch (w[0]) {
    case "propose":
      return `the team ${w[2].split(",").map(who).join(", ")}`;
    case "vote":
      return w[2] === "yes" ? "Approve the team" : "Reject the team";
    case "card":
      return w[2] === "success" ? "Play Success" : "Play Fail";
    case "assassinate":
      return `Assassinate ${who(w[2])}`;
    default:
      return action;
  }
}

function onTurn(pub, actions) {
  showTable(pub);
  const box = $("actions");
  box.replaceChildren();
  $("notice").hidden = true;
  lastTurn = [pub, actions];
  const kindOf = (a) => a.split(" ")[0];
  if (choice && choice.line === null && actions.length > 0 &&
      kindOf(actions[0]) === kindOf(choice.action)) {
    // Clicked, not yet taken by the host: no second click.
    $("prompt").textContent = `You chose "${label(choice.action)}"; ` +
      "waiting for the host.";
    return;
  }
  if (!$("role").dataset.role) {
    $("prompt").textContent = "Waiting for the deal.";
    return;
  }
  if (pub.winner) {
    $("prompt").textContent = "The game is over; waiting for the dealer's " +
      "reveal and the finished file.";
    return;
  }
  if (actions.length === 0) {
    const waiting = pub.waiting?.length ? pub.waiting.map(who).join(", ")
      : "the dealer";
    $("prompt").textContent = choice
      ? `You chose "${label(choice.action)}". Waiting for ${waiting}.`
      : `Waiting for ${waiting}.`;
    return;
  }
  const kind = actions[0].split(" ")[0];
  $("prompt").textContent = {
    propose: "You lead: choose the team for this quest.",
    vote: "Vote on the proposed team.",
    card: "You are on the quest: play your card (nobody sees which).",
    assassinate: "Name the seat you believe is Merlin.",
  }[kind] || "Your move.";
  const send = (a, b) => {
    choice = { action: a, line: null };
    for (const x of box.querySelectorAll("button")) {
      x.disabled = true;
    }
    b.classList.add("chosen");
    $("prompt").textContent = `You chose "${label(a)}"; sending it.`;
    submit({ kind: "act", action: a });
  };
  if (kind === "propose") {
    // The host offers the form "propose pK A,B": as many seats as
    // letters, chosen here.
    const size = actions[0].split(" ")[2].split(",").length;
    const picked = new Set();
    const go = document.createElement("button");
    go.id = "propose";
    go.disabled = true;
    const update = () => {
      go.textContent = `Propose this team (${picked.size} of ${size})`;
      go.disabled = picked.size !== size;
    };
    for (let k = 1; k <= Object.keys(names).length; k++) {
      const b = document.createElement("button");
      b.dataset.seat = `p${k}`;
      b.className = "seat";
      b.textContent = who(`p${k}`);
      b.addEventListener("click", () => {
        if (picked.has(k)) {
          picked.delete(k);
        } else if (picked.size < size) {
          picked.add(k);
        }
        b.classList.toggle("picked", picked.has(k));
        update();
      });
      box.append(b);
    }
    go.addEventListener("click", () => {
      const team = [...picked].sort((a, b) => a - b).map((k) => `p${k}`);
      go.dataset.action = `propose ${me} ${team.join(",")}`;
      send(go.dataset.action, go);
    });
    update();
    box.append(go);
    return;
  }
  for (const a of actions) {
    const b = document.createElement("button");
    b.dataset.action = a;
    b.textContent = label(a);
    b.addEventListener("click", () => send(a, b));
    box.append(b);
  }
}

function showTable(pub) {
  const phase = {
    propose: "the leader chooses a team", vote: "everyone votes on the team",
    cards: "the team plays its cards", assassinate: "the Assassin names Merlin",
    end: "the game is over",
  }[pub.phase] || pub.phase;
  // Who leads and who proposed what, from the verified log; the leader
  // of the state is the one of the next proposal.
  const last = [...lines].reverse().find((l) => l.startsWith("propose "));
  let t = `Quest ${pub.round}: ${phase}.`;
  if (pub.phase === "propose") {
    t += ` Leader ${who(`p${pub.leader}`)}.`;
  } else if (last && (pub.phase === "vote" || pub.phase === "cards")) {
    const w = last.split(" ");
    t += ` ${who(w[1])} proposed ${w[w.length - 1].split(",").map(who)
      .join(", ")}.`;
  }
  t += ` Rejected teams in a row: ${pub.rejections}.`;
  if (pub.winner) {
    t = `The ${pub.winner} side wins (${pub.reason}).`;
  }
  $("game").textContent = t;
  const ol = $("quests");
  ol.replaceChildren();
  for (const q of pub.quests || []) {
    const li = document.createElement("li");
    li.textContent = `${q.size} seats` + (q.fails_needed > 1
      ? ` (${q.fails_needed} fails)` : "") + (q.result
      ? `: ${q.result}${q.fails ? `, ${q.fails} fail` : ""}` : "");
    li.className = q.result || "";
    ol.append(li);
  }
}

// ---------------------------------------------------------- signing

function onSign(req) {
  // Without a click of its own for this line, the seat's choice is ""
  // and the library refuses to sign.
  const own = choice && (choice.line === null || choice.line === req.line)
    ? choice.action : "";
  const r = log.sign(seat, key, req.text,
    { action: own, label: req.label, nonce: req.nonce });
  if (!r.ok) {
    fail(`The host asked this seat to sign line ${req.line}, which is not ` +
      `what you chose${own ? ` ("${label(own)}")` : ""}.`, r.error);
    return;
  }
  choice.line = req.line;
  submit({ kind: "sign", line: req.line, sig: r.sig });
}

// --------------------------------------------------------- the end

async function onFinal(url) {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const t0 = performance.now();
  const report = camelog.verify(bytes, { pubkey: dealer, require: "complete" });
  const ms = performance.now() - t0;
  if (!report.valid) {
    fail(`The finished file does not verify at line ${report.line}.`,
      report.error);
    return;
  }
  const final = camelog.open(bytes, { pubkey: dealer });
  const h = log.history(final);
  final.close();
  if (!h.extends) {
    fail("The finished file is not the history this seat was shown.",
      `the final file parts from the history seen at line ${h.line}`);
    return;
  }
  document.body.dataset.state = "done";
  $("prompt").textContent = "The game is over.";
  $("checks").textContent = `\u2713 The finished file verified in this ` +
    `browser in ${ms.toFixed(0)} ms: ${report.summary}; its first ` +
    `${h.lines} lines are the history you were shown.`;
  $("checks").dataset.final = report.summary;
  downloads([["the finished file", "game.camelog", bytes],
    ["the history you were shown", `${me}.txt`,
      new TextEncoder().encode(text())]]);
}

// ------------------------------------------------------------ events

async function handle(ev) {
  switch (ev.t) {
    case "lines":
      return onLines(ev.first, ev.lines);
    case "delivery":
      return onDelivery(ev.d);
    case "pledge":
      return onPledge();
    case "reveal":
      return onReveal();
    case "turn":
      return onTurn(ev.public, ev.actions);
    case "sign":
      return onSign(ev.req);
    case "refused":
      // The host did not take the click: it is spent, choose again.
      if (choice && choice.line === null) {
        choice = null;
        if (lastTurn) {
          onTurn(...lastTurn);
        }
      }
      $("notice").hidden = false;
      $("notice").textContent = `The host refused: ${ev.reason}`;
      return undefined;
    case "final":
      return onFinal(ev.url);
    default:
      return undefined;
  }
}

async function poll() {
  let since = 0;
  while (!failed) {
    let evs;
    try {
      const r = await fetch(`/events?seat=${seat}&token=${token}&since=${since}`);
      if (!r.ok) {
        throw new Error(`${r.status} ${(await r.json()).error}`);
      }
      evs = (await r.json()).events;
    } catch (e) {
      setStatus(`The bridge does not answer (${e.message}); retrying.`);
      await new Promise((ok) => setTimeout(ok, 1000));
      continue;
    }
    for (const ev of evs) {
      since++;
      if (failed) {
        break;
      }
      try {
        await handle(ev);
      } catch (e) {
        fail("The page could not check what the host sent.", e.message);
      }
    }
    if (!failed && document.body.dataset.state !== "done") {
      document.body.dataset.state = "playing";
    }
  }
}

async function main() {
  if (!(seat >= 1 && seat <= 5) || !/^RW[A-Za-z0-9+/]{54}$/.test(dealer)) {
    fail("This page's address is not a seat's.",
      "expected ?seat=1..5&dealer=<the dealer's public key>");
    return;
  }
  camelog = await load();
  const kept = localStorage.getItem(`${store}/key`);
  key = kept ? camelog.key(kept) : camelog.keygen();
  if (!kept) {
    localStorage.setItem(`${store}/key`, key.toText());
  }
  token = localStorage.getItem(`${store}/token`);
  const r = await post("/join", { pubkey: key.pubkey });
  const o = await r.json();
  if (!r.ok) {
    fail("The bridge would not seat this page.", o.error);
    return;
  }
  token = o.token;
  localStorage.setItem(`${store}/token`, token);
  $("title").textContent = `${me} - Avalon`;
  setStatus(`Seat ${me}; your key ${key.pubkey.slice(0, 12)}... stays in ` +
    `this browser. Dealer pinned: ${dealer.slice(0, 12)}...; libreplay ` +
    `${camelog.version()}.`);
  document.body.dataset.state = "joined";
  poll();
}

main().catch((e) => fail("The page could not start.", e.message));
