#!/usr/bin/env python3
"""host_soc.py - whole Shadows over Camelot games through `camelog host`,
for the host_soc*.sh tests.  Not a test itself (tests/cli/run.sh runs
*.sh only).

    host_soc.py play OUT [--keys] [--check] [--informed] [--kill-every]
                         [--seed HEX]

Each seat's state (viewer pK) offers its legal actions in private form;
the seat that has one plays the first, preferring the moves that hand
cards to another seat (King Arthur's exchange, the Messenger), so that
the game has them.  The game is then revealed and written to OUT, with
the journal OUT.journal.

--keys      every seat has its own key (keys/pK.key, made by the calling
            test): every line a seat authors waits for its signature,
            made over the host's message with minisign's legacy mode
--check     every delivery is checked the moment it arrives, by the seat
            it is for, with `camelog seat check --pubkey dealer.pub --as
            pK` against the journal as it is then; and every line that
            hands cards over must have reached both its author and its
            receiver
--informed  with --keys, every line is signed by its seat with `camelog
            seat sign --action`, from the journal as it is then and the
            action the seat chose (for a secret choice, the sign
            request's label and nonce), never over the host's message
--kill-every  the host is killed with SIGKILL after every request and a
            new one resumes the journal

Prints what a test can compare: every refusal (there should be none),
the number of actions, of cards handed over, of deliveries checked, the
end, and the replies of reveal and write.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

import host_game  # its minisign signer, beside this file

CAMELOG = os.environ.get("CAMELOG_BIN", "camelog")
SEATS = ["Alice", "Bob", "Carol", "Dave"]


def sign(seat, message_hex):
    return host_game.sign("keys", seat, message_hex)


class Host:
    def __init__(self, journal, kill_every):
        self.journal = journal
        self.kill_every = kill_every
        self.kills = 0
        self.start()

    def start(self):
        self.p = subprocess.Popen([CAMELOG, "host", "--no-fsync"],
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        self.p.stdout.readline()  # hello

    def send(self, o):
        self.p.stdin.write(json.dumps(o) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            sys.exit("host_soc: the host died at %s" % json.dumps(o))
        return json.loads(line)

    def req(self, o):
        r = self.send(o)
        if self.kill_every and o["op"] != "write":
            self.p.kill()
            self.p.wait()
            self.kills += 1
            self.start()
            rr = self.send({"op": "resume", "journal": self.journal,
                            "dealer": "dealer.key"})
            if not rr["ok"]:
                sys.exit("host_soc: resume refused: %s" % rr)
        return r

    def close(self):
        self.p.stdin.close()
        return self.p.wait()


class Checker:
    """Each seat's check of its deliveries, as they arrive."""

    def __init__(self, journal, on):
        self.journal = journal
        self.on = on
        self.checked = 0
        self.got = {}  # line number -> seats that got its delivery
        self.failed = 0

    def deliveries(self, r):
        for seat, ds in sorted(r["deliveries"].items()):
            for d in ds:
                if ("p%d" % d["seat"]) != seat:
                    print("delivery under %s for seat %d" % (seat, d["seat"]))
                    self.failed += 1
                self.got.setdefault(d["line"], set()).add(seat)
                if not self.on:
                    continue
                with open("delivery.json", "w") as f:
                    f.write(json.dumps(d, separators=(",", ":")) + "\n")
                c = subprocess.run([CAMELOG, "seat", "check", "--pubkey",
                                    "dealer.pub", "--as", seat, self.journal,
                                    "delivery.json"],
                                   capture_output=True, text=True)
                self.checked += 1
                if c.returncode != 0:
                    self.failed += 1
                    print("%s: seat check refused %s: %s" %
                          (seat, d["label"], (c.stdout + c.stderr).strip()))


def handover(line):
    """The author and the receiver of a line that hands cards over."""
    t = line.split()
    if t[0] == "swap" and len(t) == 4:
        return t[1], t[2]
    if t[0] == "special" and len(t) == 6 and t[2] == "messenger":
        return t[1], t[3]
    return None


def informed_sign(journal, req, own):
    """The seat's own signature, made by `camelog seat sign` from what it
    chose; exits on a refusal."""
    args = [CAMELOG, "seat", "sign", "--key", "keys/%s.key" % req["seat"],
            "--action", own]
    if req.get("nonce"):
        args += ["--label", req["label"], "--nonce", req["nonce"]]
    p = subprocess.run(args + [journal, req["text"]], capture_output=True,
                       text=True)
    if p.returncode != 0:
        print("seat sign refused %s: %s" % (req["text"], p.stderr.strip()))
        sys.exit(1)
    return p.stdout.strip()


def play(out, keyed, check, kill_every, secret, informed=False):
    journal = out + ".journal"
    host = Host(journal, kill_every)
    checker = Checker(journal, check)
    lines = []
    seats = []
    own = {}  # seat -> what it chose last (its entropy, then its action)
    for i, name in enumerate(SEATS):
        if keyed:
            with open("keys/p%d.pub" % (i + 1)) as f:
                seats.append({"name": name, "key": f.read().splitlines()[1]})
        else:
            seats.append(name)

    def ok(r):
        if not r["ok"]:
            print("refused", r["code"], r["reason"])
            sys.exit(1)
        while True:
            lines.extend(r["lines"])
            checker.deliveries(r)
            if not r["sign"]:
                return r
            s = next(iter(r["sign"].values()))
            sig = informed_sign(journal, s, own[s["seat"]]) if informed \
                else sign(s["seat"], s["message"])
            r = host.req({"op": "sign", "seat": s["seat"], "sig": sig})
            if not r["ok"]:
                print("sign refused", r["code"], r["reason"])
                sys.exit(1)

    ok(host.req({"op": "new", "game": "soc", "seats": seats,
                 "dealer": "dealer.key", "journal": journal,
                 "game_id": "0123456789abcdef0123456789abcdef",
                 "secret": secret}))
    for k in range(1, len(SEATS) + 1):
        value = ("%02x" % (k + 0x43)) * 32
        ok(host.req({"op": "pledge", "seat": "p%d" % k,
                     "hex": hashlib.blake2b(
                         b"camelog pledge" +
                         bytes.fromhex("0123456789abcdef0123456789abcdef") +
                         bytes([k]) + bytes.fromhex(value),
                         digest_size=32).hexdigest()}))
    ok(host.req({"op": "pledged"}))
    for k in range(1, len(SEATS) + 1):
        ok(host.req({"op": "entropy", "seat": "p%d" % k,
                     "hex": ("%02x" % (k + 0x43)) * 32}))
    ok(host.req({"op": "start"}))
    acted = 0
    state = None
    while True:
        actions = []
        for k in range(1, len(SEATS) + 1):
            state = host.req({"op": "state", "viewer": "p%d" % k})["state"]
            actions += state.get("actions") or []
        if state.get("winner") or not actions:
            break
        hand = [a for a in actions
                if a.startswith("swap ") or " messenger " in a]
        a = (hand or actions)[0]
        own[a.split()[1]] = a
        r = host.req({"op": "act", "seat": a.split()[1], "action": a})
        if not r["ok"]:
            print("refused", a, r["code"], r["reason"])
            break
        ok(r)
        acted += 1
    ok(host.req({"op": "reveal"}))
    w = host.req({"op": "write", "path": out})
    host.close()
    # The line numbers of the lines handed over, from the journal.
    with open(journal) as f:
        text = f.read().splitlines()
    handed = 0
    arthur = None
    for no, line in enumerate(text, 1):
        h = handover(line)
        t = line.split()
        if h and t[0] == "swap":
            arthur = h[0]
        elif t[0] == "swap" and len(t) == 3 and arthur:
            h = (t[1], arthur)  # the card back, to King Arthur
        if not h:
            continue
        handed += 1
        if not checker.got.get(no, set()) >= set(h):
            print("line %d (%s): delivered to %s, not to both %s and %s" %
                  (no, re.sub(r" [0-9a-f]{64}$", " <C>", line),
                   sorted(checker.got.get(no, ())), h[0], h[1]))
            checker.failed += 1
    print("actions", acted, "end", state.get("winner"), state.get("reason"))
    print("cards handed over: %d lines" % handed)
    if check:
        print("deliveries checked by their seats: %s" %
              ("all" if checker.failed == 0 else
               "%d failed" % checker.failed))
    if kill_every:
        print("killed after every request and resumed:", host.kills > 0)
    print("write", w["ok"], w.get("progress"))
    return 0 if checker.failed == 0 and w["ok"] else 1


def main(argv):
    if len(argv) < 2 or argv[0] != "play":
        sys.exit(__doc__)
    out = argv[1]
    flags = set(a for a in argv[2:] if a.startswith("--"))
    secret = "11" * 32
    if "--seed" in argv:
        secret = argv[argv.index("--seed") + 1]
    return play(out, "--keys" in flags, "--check" in flags,
                "--kill-every" in flags, secret, "--informed" in flags)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
