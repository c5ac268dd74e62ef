#!/usr/bin/env python3
"""examples/web/bridge.py - five browsers play one Avalon game against a
real `camelog host` (camelog-host(1)).  Python 3 standard library only.

    python3 examples/web/bridge.py [--camelog PATH] [--wasm DIR]
                                   [--port N] [--dir DIR] [--lie MODE]

It serves, on 127.0.0.1 only, the seat page (seat.html, seat.js,
seat.css beside this file) and camelog.js with camelog.wasm (make wasm,
build/wasm/), makes a dealer key, prints the five URLs to open, one a
seat, and waits for the five pages to join.  Then it runs `camelog
host` and passes its JSON lines on: the public lines to every page, each
delivery and each sign request to its own seat's page only, and each
page's pledge, reveal, action and signature back to the host.

The bridge holds no seat key and never signs for a seat: a page joins
with its public key alone (the secret stays in the browser's storage),
and every line a seat authors waits for the signature the page makes
of the player's own choice.  The pages check what the bridge tells
them; the bridge is the party they need not trust.

Talking to a page is HTTP on loopback: POST /join {seat, pubkey} gives
a token; GET /events?seat=K&token=T&since=N waits (long poll, up to 20
seconds) for the seat's events from the N-th on; POST /submit {seat,
token, kind, ...} hands the host a pledge, a reveal, an action or a
signature.  The finished file is GET /final.camelog.

--lie MODE makes the bridge a dishonest host, for the test of the
example (tests/web/test_table.py) only: delivery (the first deal
delivery to p1 has another value), flip (the first Success card of a
seat that may play Fail is submitted as Fail), fork (the seat after the
first leader is shown another deal line of the leader than every other
seat, with the dealer's seals made again over it).  What it changed is
written to DIR/lie.json.
"""
import argparse
import gzip
import http.server
import json
import os
import queue
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLAYERS = 5
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]
STATIC = {
    "/seat.html": (HERE, "seat.html", "text/html; charset=utf-8"),
    "/seat.js": (HERE, "seat.js", "text/javascript; charset=utf-8"),
    "/seat.css": (HERE, "seat.css", "text/css; charset=utf-8"),
}
POLL_SECONDS = 20


def log(msg):
    sys.stderr.write("bridge: %s\n" % msg)
    sys.stderr.flush()


def die(msg):
    """Ends the bridge from any thread."""
    log(msg)
    os._exit(1)


class Seat:
    """What the bridge knows of a seat: its public key, the token of its
    page, and the events for that page, oldest first."""

    def __init__(self, k):
        self.k = k
        self.name = "p%d" % k
        self.pubkey = None
        self.token = None
        self.events = []
        self.last_turn = None
        self.actions = []
        self.seen = []  # the lines this seat was shown


class Table:
    def __init__(self, args):
        self.args = args
        self.seats = [Seat(k) for k in range(1, PLAYERS + 1)]
        self.cond = threading.Condition()
        self.inbox = queue.Queue()
        self.final = None
        self.dir = args.dir
        self.dealer_key = os.path.join(self.dir, "dealer.key")
        p = subprocess.run([args.camelog, "keygen", "-o",
                            os.path.join(self.dir, "dealer")],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("bridge: camelog keygen: " + p.stderr.strip())
        with open(os.path.join(self.dir, "dealer.pub")) as f:
            self.dealer_pub = f.read().splitlines()[1]
        self.host = None
        self.total = 0
        self.forwarded = set()
        self.lied = False
        self.fork_seat = None
        self.fork_line = None

    # ------------------------------------------------------ the pages

    def push(self, seat, **event):
        with self.cond:
            seat.events.append(event)
            self.cond.notify_all()

    def join(self, k, pubkey, token):
        with self.cond:
            s = self.seats[k - 1]
            if s.pubkey and s.pubkey != pubkey:
                return None, "seat p%d has joined with another key" % k
            if s.token and token != s.token:
                return None, "seat p%d has joined from another page" % k
            if not s.pubkey:
                s.pubkey = pubkey
                s.token = secrets.token_hex(16)
                log("p%d joined" % k)
                self.cond.notify_all()
            return s.token, None

    def events(self, k, token, since):
        with self.cond:
            s = self.seats[k - 1]
            if not s.token or token != s.token:
                return None
            self.cond.wait_for(lambda: len(s.events) > since, POLL_SECONDS)
            return s.events[since:]

    def submit(self, k, token, msg):
        s = self.seats[k - 1]
        if not s.token or token != s.token:
            return False
        self.inbox.put((s, msg))
        return True

    # ------------------------------------------------------ the host

    def ask(self, **req):
        self.host.stdin.write(json.dumps(req) + "\n")
        self.host.stdin.flush()
        line = self.host.stdout.readline()
        if not line:
            die("camelog host exited")
        return json.loads(line)

    def checked(self, r):
        if not r["ok"]:
            die("refused: %s" % json.dumps(r))
        return r

    def reseal(self, lines):
        """The dealer's seals over lines made again (camelog pack --key):
        what a dealer that shows one seat another history does.  Pack
        refuses a history whose seat signatures no longer verify, which a
        dealer cannot make again: those lines go as they are."""
        text = os.path.join(self.dir, "fork.txt")
        with open(text, "w") as f:
            f.write("".join(x + "\n" for x in lines))
        p = subprocess.run([self.args.camelog, "pack", "--unchecked", "--key",
                            self.dealer_key, text, "-o", "-"],
                           capture_output=True)
        if p.returncode != 0:
            log("fork: no seal made again: %s" % p.stderr.decode().strip())
            return lines
        return gzip.decompress(p.stdout).decode().split("\n")[:len(lines)]

    def show(self, s, lines):
        """The lines s is shown: the host's, or with --lie=fork for the
        forked seat another deal line and the seals made again."""
        if not lines:
            return
        if self.fork_seat is s:
            out = s.seen + [self.fork_line if ln.startswith(
                "deal p%d " % self.fork_of) else ln for ln in lines]
            if out != s.seen + lines:
                self.record(mode="fork", seat=s.k, of=self.fork_of,
                            line=self.fork_line)
            if any(ln.startswith("seal ") for ln in lines):
                out = self.reseal(out)
            lines = out[len(s.seen):]
        first = len(s.seen) + 1
        s.seen += lines
        self.push(s, t="lines", first=first, lines=lines)

    def record(self, **what):
        if self.lied:
            return
        self.lied = True
        with open(os.path.join(self.dir, "lie.json"), "w") as f:
            json.dump(what, f)
        log("lie: %s" % json.dumps(what))

    def tamper(self, s, d):
        """--lie=delivery: the first deal delivery to p1 says another role
        (its length kept)."""
        if self.args.lie != "delivery" or s.k != 1 or self.lied or \
                not d["label"].startswith("deal "):
            return d
        d = dict(d)
        value = d["value"]
        role = value.split()[0]
        other = "role=merlin" if role != "role=merlin" else "role=servant"
        new = other + value[len(role):]
        d["value"] = new.ljust(len(value), ".") if len(new) <= len(value) \
            else new[:len(value)]
        self.record(mode="delivery", seat=s.k, seen=s.seen, delivery=d)
        return d

    def route(self, r):
        """Public lines to every page, each delivery and each sign request
        to its own seat's page only."""
        for s in self.seats:
            self.show(s, r["lines"])
        for name, ds in r["deliveries"].items():
            s = self.seats[int(name[1:]) - 1]
            for d in ds:
                self.push(s, t="delivery", d=self.tamper(s, d))
        self.total = r["total"]
        # A page signs from its own copy of the log: the request for the
        # next line, or a vote's, which the library signs against the
        # base of its group before the votes ahead of it are in.
        for req in r["sign"].values():
            key = (req["seat"], req["line"], req["text"], req["base"])
            if key in self.forwarded:
                continue
            if req["line"] != self.total + 1 and \
                    not req["text"].startswith("vote "):
                continue
            self.forwarded.add(key)
            s = self.seats[int(req["seat"][1:]) - 1]
            self.push(s, t="sign", req={k: req[k] for k in (
                "seat", "line", "text", "base", "label", "nonce") if k in req})
        return r

    def wait(self):
        """The next submission of a page: (seat, message)."""
        return self.inbox.get()

    def round(self, kind, op):
        """Every seat's pledge, or every seat's reveal, in any order."""
        for s in self.seats:
            self.push(s, t=kind)
        done = set()
        while len(done) < PLAYERS:
            s, msg = self.wait()
            if msg.get("kind") != kind or s.k in done:
                continue
            r = self.ask(op=op, seat=s.name, hex=msg.get("hex", ""),
                         sig=msg.get("sig", ""))
            if r["ok"]:
                done.add(s.k)
                self.route(r)
            else:
                self.push(s, t="refused", code=r["code"], reason=r["reason"])

    def turns(self):
        """Each page's legal actions, with the public state, when they
        changed.  Returns the public state."""
        st = self.checked(self.ask(op="state", viewer="public"))["state"]
        public = {k: st[k] for k in ("phase", "round", "leader", "rejections",
                                     "successes", "failures", "quests",
                                     "proposal", "act", "seats", "winner",
                                     "reason", "waiting")}
        for s in self.seats:
            mine = self.checked(self.ask(op="state", viewer=s.name))["state"]
            turn = (json.dumps(public, sort_keys=True), mine["actions"])
            if turn != s.last_turn:
                s.last_turn = turn
                s.actions = mine["actions"]
                self.push(s, t="turn", public=public, actions=mine["actions"])
        return st

    def act(self, s, action):
        sent = action
        if self.args.lie == "flip" and not self.lied and \
                action.startswith("card ") and action.endswith(" success") \
                and action[:-len("success")] + "fail" in s.actions:
            sent = action[:-len("success")] + "fail"
            self.record(mode="flip", seat=s.k, clicked=action, sent=sent)
        return self.ask(op="act", seat=s.name, action=sent)

    def play(self):
        with self.cond:
            self.cond.wait_for(lambda: all(s.pubkey for s in self.seats))
        log("all five seats joined; the game starts")
        self.host = subprocess.Popen(
            [self.args.camelog, "host", "--no-fsync"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True)
        self.host.stdout.readline()
        self.route(self.checked(self.ask(
            op="new", game="avalon", dealer=self.dealer_key,
            seats=[{"name": NAMES[i], "key": self.seats[i].pubkey}
                   for i in range(PLAYERS)])))
        # The seed in two rounds (camelog(5), "Entropy").
        self.round("pledge", "pledge")
        self.route(self.checked(self.ask(op="pledged")))
        self.round("reveal", "entropy")
        r = self.checked(self.ask(op="start"))
        if self.args.lie == "fork":
            leader = self.checked(self.ask(op="state", viewer="public"))[
                "state"]["leader"]
            self.fork_of = leader
            self.fork_seat = self.seats[leader % PLAYERS]
            self.fork_line = "deal p%d %s" % (leader, "0" * 64)
        self.route(r)
        while True:
            st = self.turns()
            if st["winner"]:
                break
            s, msg = self.wait()
            kind = msg.get("kind")
            if kind == "act" and isinstance(msg.get("action"), str):
                r = self.act(s, msg["action"])
            elif kind == "sign" and isinstance(msg.get("sig"), str):
                r = self.ask(op="sign", seat=s.name, sig=msg["sig"])
            else:
                continue
            if r["ok"]:
                self.route(r)
            else:
                self.push(s, t="refused", code=r["code"], reason=r["reason"])
        log("game over: %s (%s)" % (st["winner"], st["reason"]))
        self.route(self.checked(self.ask(op="reveal")))
        out = os.path.join(self.dir, "game.camelog")
        w = self.checked(self.ask(op="write", path=out, force=True))
        self.route(w)
        self.host.stdin.close()
        self.host.wait()
        with open(out, "rb") as f:
            self.final = f.read()
        log("written: %s (%s, %d lines)" % (out, w["progress"], w["total"]))
        for s in self.seats:
            self.push(s, t="final", url="/final.camelog")


class Handler(http.server.BaseHTTPRequestHandler):
    table = None
    wasm = None

    def log_message(self, fmt, *args):
        pass

    def send(self, code, body, ctype="application/json"):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query)
        if url.path == "/":
            links = "".join(
                '<li><a href="%s">p%d</a></li>' % (seat_url("", k, self.table),
                                                   k)
                for k in range(1, PLAYERS + 1))
            return self.send(200, "<!doctype html><title>camelog table"
                             "</title><h1>One page a seat</h1><ul>%s</ul>"
                             % links, "text/html; charset=utf-8")
        if url.path in STATIC:
            d, name, ctype = STATIC[url.path]
            with open(os.path.join(d, name), "rb") as f:
                return self.send(200, f.read(), ctype)
        if url.path in ("/camelog.js", "/camelog.wasm"):
            ctype = "text/javascript" if url.path.endswith(".js") \
                else "application/wasm"
            with open(os.path.join(self.wasm, url.path[1:]), "rb") as f:
                return self.send(200, f.read(), ctype)
        if url.path == "/events":
            try:
                k = int(q["seat"][0])
                since = int(q.get("since", ["0"])[0])
                token = q["token"][0]
            except (KeyError, ValueError):
                return self.send(400, {"error": "seat, token and since"})
            if not 1 <= k <= PLAYERS:
                return self.send(400, {"error": "no such seat"})
            evs = self.table.events(k, token, since)
            if evs is None:
                return self.send(403, {"error": "not this seat's page"})
            return self.send(200, {"events": evs})
        if url.path == "/final.camelog" and self.table.final:
            return self.send(200, self.table.final, "application/octet-stream")
        return self.send(404, {"error": "no such page"})

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        try:
            n = int(self.headers.get("Content-Length", "0"))
            if n > 65536:
                return self.send(413, {"error": "too long"})
            msg = json.loads(self.rfile.read(n))
            k = int(msg["seat"])
        except (ValueError, KeyError, TypeError):
            return self.send(400, {"error": "a JSON object with seat"})
        if not 1 <= k <= PLAYERS:
            return self.send(400, {"error": "no such seat"})
        if url.path == "/join":
            pub = msg.get("pubkey")
            if not isinstance(pub, str) or not pub.startswith("RW") or \
                    len(pub) != 56:
                return self.send(400, {"error": "pubkey: a seat's public key"})
            token, why = self.table.join(k, pub, msg.get("token"))
            if not token:
                return self.send(409, {"error": why})
            return self.send(200, {"token": token})
        if url.path == "/submit":
            if not self.table.submit(k, msg.get("token"), msg):
                return self.send(403, {"error": "not this seat's page"})
            return self.send(200, {"ok": True})
        return self.send(404, {"error": "no such call"})


def seat_url(base, k, table):
    return "%s/seat.html?seat=%d&dealer=%s" % (
        base, k, urllib.parse.quote(table.dealer_pub, safe=""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--camelog", default=os.path.join(ROOT, "build", "camelog"))
    ap.add_argument("--wasm", default=os.path.join(ROOT, "build", "wasm"))
    ap.add_argument("--port", type=int, default=8030)
    ap.add_argument("--dir", default=None,
                    help="where the keys, the journal and the file go")
    ap.add_argument("--lie", choices=("delivery", "flip", "fork"),
                    help="for the example's test only: a dishonest host")
    args = ap.parse_args()
    for f in ("camelog.js", "camelog.wasm"):
        if not os.path.exists(os.path.join(args.wasm, f)):
            sys.exit("bridge: no %s in %s: run make wasm" % (f, args.wasm))
    tmp = None
    if args.dir is None:
        tmp = args.dir = tempfile.mkdtemp(prefix="camelog-table.")
    os.makedirs(args.dir, exist_ok=True)
    table = Table(args)
    Handler.table = table
    Handler.wasm = args.wasm
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    httpd.daemon_threads = True
    base = "http://127.0.0.1:%d" % httpd.server_address[1]
    print("bridge: open one page a seat:")
    for k in range(1, PLAYERS + 1):
        print(base + seat_url("", k, table))
    sys.stdout.flush()
    game = threading.Thread(target=table.play, daemon=True)
    game.start()
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
