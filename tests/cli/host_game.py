#!/usr/bin/env python3
"""tests/cli/host_game.py - plays one deterministic Avalon game through
`camelog host` for the host_*.sh tests and the transcript of
camelog-host(1).  Not a test itself (tests/cli/run.sh runs *.sh only).

    host_game.py play OUT [--journal J] [--keys p1,p2,...] [--transcript T]
                          [--kill-after N] [--no-fsync] [--check]
                          [--kill-every] [--tlog DIR] [--sign-entropy]
    host_game.py crash-all OUT        kill after every request, in turn

--check       every delivery is checked the moment it arrives by the seat
              it is for, with `camelog seat check --pubkey dealer.pub
              --as pK` against the journal as it is then, and every line
              that commits a seat's secret (deal, card, lady) must have
              reached that seat; needs --journal
--kill-every  the host is killed (SIGKILL) after every request of the
              game, the write excepted, and a new one resumes the journal
--tlog DIR    the host appends to the public log DIR (crash-all: a new
              log DIR-K for the run killed after request K, each checked
              to hold the game's start and end once)
--sign-entropy  each keyed seat signs its pledge and its value, as
              `camelog seat commit` and `camelog seat reveal` would: the
              pledge against the chain through the commit line, the value
              against the chain through the sealed start (camelog(5)
              "Entropy"); without it both go unsigned

The seats' keys are KEYS/pK.key (made by the calling test with
`camelog keygen --seed`); the dealer's key is dealer.key; the game id,
the dealer secret and the seats' entropy are fixed, so the same call
writes the same file.  The policy: the leader proposes itself and the
seats after it, everybody approves, every card is a success, the
Assassin names the first seat it may.  Signatures are made over the
host's message with minisign's legacy mode (plain Ed25519), cached per
message: the test is of the host, not of the seat.
"""
import base64
import hashlib
import json
import os
import re
import signal
import subprocess
import sys

CAMELOG = os.environ.get("CAMELOG_BIN", "camelog")
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]
GAME_ID = "0123456789abcdef0123456789abcdef"
SECRET = "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2"
SIGS = {}


def cut(s):
    """Long hex and base64, and the padding of a value, shortened for the
    transcript."""
    s = re.sub(r"\.{4,}", "...", s)
    out = []
    for w in s.split(" "):
        long = len(w) > 40 and re.fullmatch("[A-Za-z0-9+/=]+", w)
        out.append(w[:16] + "..." if long else w)
    return " ".join(out)


def cut_json(o):
    if isinstance(o, str):
        return cut(o)
    if isinstance(o, list):
        return [cut_json(x) for x in o]
    if isinstance(o, dict):
        return {k: cut_json(v) for k, v in o.items()}
    return o


class Host:
    def __init__(self, args, journal, kill_after, transcript,
                 kill_every=False):
        self.args = args
        self.journal = journal
        self.kill_after = kill_after
        self.kill_every = kill_every
        self.transcript = transcript
        self.n = 0
        self.kills = 0
        self.shown_state = False
        self.start()

    def start(self):
        # A host after a kill may refuse the resume (a closed journal):
        # its detail on stderr is not the test's.
        self.p = subprocess.Popen([CAMELOG, "host", *self.args],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL if self.kills
                                  else None, text=True)
        self.hello = self.p.stdout.readline()
        if self.transcript and self.n == 0:
            self.transcript.write("< " + self.hello)

    def send(self, req):
        line = json.dumps(req, separators=(",", ":"))
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        r = self.p.stdout.readline()
        if not r:
            sys.exit("host_game: the host died")
        if self.transcript and (req["op"] != "state" or not self.shown_state):
            # The driver asks for the state before every move; the
            # transcript shows the first public and the first seat's.
            if req["op"] == "state" and req["viewer"] != "public":
                self.shown_state = True
            self.transcript.write("> " + json.dumps(cut_json(req), separators=(",", ":")) + "\n")
            self.transcript.write("< " + json.dumps(cut_json(json.loads(r)), separators=(",", ":")) + "\n")
        return json.loads(r)

    def ask(self, **req):
        self.n += 1
        r = self.send(req)
        if self.n == self.kill_after or (self.kill_every and
                                         req["op"] != "write"):
            self.p.kill()  # SIGKILL
            self.p.wait()
            self.kills += 1
            self.start()
            rr = self.send({"op": "resume", "journal": self.journal,
                            "dealer": "dealer.key"})
            if req["op"] == "write" and r["ok"]:
                # A written game's journal is closed: no host resumes it.
                if rr["ok"] or rr["code"] != "finished":
                    sys.exit("host_game: a closed journal resumed: %s" % rr)
                self.closed = True
            elif not rr["ok"]:
                sys.exit("host_game: resume refused: %s" % rr)
        return r

    def close(self):
        self.p.stdin.close()
        return self.p.wait()


def pledge(game_id, k, value_hex):
    """A seat's pledge of its value (camelog(5) "Entropy")."""
    return hashlib.blake2b(b"camelog pledge" + bytes.fromhex(game_id) +
                           bytes([k]) + bytes.fromhex(value_hex),
                           digest_size=32).hexdigest()


class Checker:
    """Each seat's check of its deliveries, as they arrive."""

    def __init__(self, journal):
        self.journal = journal
        self.checked = 0
        self.failed = 0
        self.got = {}  # line number -> the seats its deliveries reached

    def deliveries(self, r):
        for seat, ds in sorted(r["deliveries"].items()):
            for d in ds:
                self.got.setdefault(d["line"], set()).add(seat)
                with open("delivery.json", "w") as f:
                    f.write(json.dumps(d, separators=(",", ":")) + "\n")
                c = subprocess.run([CAMELOG, "seat", "check", "--pubkey",
                                    "dealer.pub", "--as", seat, self.journal,
                                    "delivery.json"],
                                   capture_output=True, text=True)
                self.checked += 1
                if c.returncode != 0 or ("p%d" % d["seat"]) != seat:
                    self.failed += 1
                    print("%s: seat check refused %s: %s" %
                          (seat, d["label"], (c.stdout + c.stderr).strip()))

    def missed(self):
        """The lines committing a seat's secret whose delivery did not
        reach that seat."""
        out = []
        with open(self.journal) as f:
            for no, line in enumerate(f.read().splitlines(), 1):
                t = line.split()
                if t[0] in ("deal", "card", "lady") and len(t) >= 3 and \
                        re.fullmatch("p[0-9]+", t[1]):
                    if t[1] not in self.got.get(no, set()):
                        out.append("%d %s" % (no, t[0]))
        return out


def chain(lines):
    """The chain value after lines (camelog(5) "Chain")."""
    h = bytes(32)
    for line in lines:
        h = hashlib.blake2b(h + line.encode(), digest_size=32).digest()
    return h


def sig_message(base, line):
    """The bytes a seat signs for line against base, in hex."""
    return (b"camelog sig v1" + base + line.encode()).hex()


def sign(keys, seat, message_hex):
    if message_hex in SIGS:
        return SIGS[message_hex]
    path = "msg.%s.bin" % seat
    with open(path, "wb") as f:
        f.write(bytes.fromhex(message_hex))
    subprocess.run(["minisign", "-S", "-l", "-s", os.path.join(keys, seat + ".key"),
                    "-m", path, "-x", path + ".sig"], check=True,
                   capture_output=True, input=b"\n")
    with open(path + ".sig") as f:
        raw = base64.b64decode(f.read().splitlines()[1])
    os.remove(path)
    os.remove(path + ".sig")
    SIGS[message_hex] = raw[10:74].hex()
    return SIGS[message_hex]


def play(out, journal=None, keyed=(), kill_after=0, no_fsync=False,
         transcript=None, keys="keys", check=False, kill_every=False,
         tlog=None, sign_entropy=False):
    args = ["--no-fsync"] if no_fsync else []
    if tlog:
        args += ["--tlog", tlog]
    host = Host(args, journal, kill_after, transcript, kill_every)
    checker = Checker(journal) if check else None
    host.checker = checker
    seats = []
    for i, name in enumerate(NAMES):
        seat = "p%d" % (i + 1)
        if seat in keyed:
            with open(os.path.join(keys, seat + ".pub")) as f:
                seats.append({"name": name, "key": f.read().splitlines()[1]})
        else:
            seats.append(name)

    wrote = [False]
    lines = []  # every line the host wrote, in order

    def ok(r):
        """Checks r, then answers every sign request in turn; wrote[0] says
        whether any of the responses appended lines."""
        if not r["ok"]:
            sys.exit("host_game: refused: %s" % json.dumps(r))
        wrote[0] = bool(r["lines"])
        lines.extend(r["lines"])
        if checker:
            checker.deliveries(r)
        while r["sign"]:
            req = next(iter(r["sign"].values()))
            r = host.ask(op="sign", seat=req["seat"],
                         sig=sign(keys, req["seat"], req["message"]))
            if not r["ok"]:
                sys.exit("host_game: sign refused: %s" % json.dumps(r))
            wrote[0] = wrote[0] or bool(r["lines"])
            lines.extend(r["lines"])
            if checker:
                checker.deliveries(r)
        return r

    new = {"op": "new", "game": "avalon", "seats": seats,
           "dealer": "dealer.key", "game_id": GAME_ID, "secret": SECRET}
    if journal:
        new["journal"] = journal
    ok(host.ask(**new))
    # camelog(5) "Entropy": every pledge, the dealer's seal, then the
    # values (unsigned here: a seat signs its own with camelog seat).
    def entropy(op, k, value_hex, base):
        seat = "p%d" % k
        req = {"op": op, "seat": seat, "hex": value_hex}
        if sign_entropy and seat in keyed:
            req["sig"] = sign(keys, seat, sig_message(
                base, "%s %s %s" % (op, seat, value_hex)))
        ok(host.ask(**req))

    base = chain(lines)  # through the commit line
    for k in range(1, 6):
        entropy("pledge", k, pledge(GAME_ID, k, ("%02x" % k) * 32), base)
    ok(host.ask(op="pledged"))
    base = chain(lines)  # through the seal of the sealed start
    for k in range(1, 6):
        entropy("entropy", k, ("%02x" % k) * 32, base)
    ok(host.ask(op="start"))
    queued = set()
    for _ in range(1000):
        st = ok(host.ask(op="state", viewer="public"))["state"]
        if st["winner"]:
            break
        acting = ["p%d" % k for k in st["seats"]] \
            if st["act"] in ("seat", "step") else \
            ["p%d" % k for k in range(1, 6)]
        for seat in acting:
            if seat in queued:
                continue
            acts = ok(host.ask(op="state", viewer=seat))["state"]["actions"]
            if not acts:
                continue
            a = acts[0]
            if a.startswith("propose "):
                size = a.split()[2].count(",") + 1
                n = int(seat[1:])
                team = sorted(((n - 1 + i) % 5 + 1) for i in range(size))
                a = "propose %s %s" % (seat, ",".join("p%d" % t for t in team))
            else:
                for want in ("yes", "success"):
                    a = next((x for x in acts if x.endswith(" " + want)), a)
            ok(host.ask(op="act", seat=seat, action=a))
            # A vote or a card waits, unwritten, for the rest of its step.
            queued = set() if wrote[0] else queued | {seat}
            break
    ok(host.ask(op="reveal"))
    w = ok(host.ask(op="write", path=out))
    host.close()
    return host, w


def main(argv):
    cmd, out = argv[0], argv[1]
    opts = {"journal": None, "keys": "", "transcript": None,
            "kill-after": "0", "no-fsync": False, "check": False,
            "kill-every": False, "tlog": None, "sign-entropy": False}
    i = 2
    while i < len(argv):
        k = argv[i][2:]
        if k in ("no-fsync", "check", "kill-every", "sign-entropy"):
            opts[k] = True
            i += 1
        else:
            opts[k] = argv[i + 1]
            i += 2
    keyed = [s for s in opts["keys"].split(",") if s]
    if cmd == "play":
        t = open(opts["transcript"], "w") if opts["transcript"] else None
        host, w = play(out, opts["journal"], keyed, int(opts["kill-after"]),
                       opts["no-fsync"], t, check=opts["check"],
                       kill_every=opts["kill-every"], tlog=opts["tlog"],
                       sign_entropy=opts["sign-entropy"])
        print("%s: %s, %d lines, %d requests" % (out, w["progress"], w["total"],
                                                 host.n))
        rc = 0
        if opts["kill-every"]:
            print("killed after every request and resumed: %d kills" %
                  host.kills)
        if host.checker:
            missed = host.checker.missed()
            print("deliveries checked by their seats: %s of %d" %
                  ("all" if host.checker.failed == 0 else
                   "%d failed" % host.checker.failed,
                   host.checker.checked))
            print("lines whose seat got no delivery: %s" %
                  (", ".join(missed) or "none"))
            if host.checker.failed or missed:
                rc = 1
        return rc
    if cmd == "crash-all":
        ref, _ = None, None
        host, w = play(out, "ref.journal", keyed, 0, opts["no-fsync"],
                       tlog=opts["tlog"])
        with open(out, "rb") as f:
            ref = f.read()
        n = host.n
        same = 0
        for k in range(1, n + 1):
            j = "crash-%d.journal" % k
            o = "crash-%d.camelog" % k
            log = None
            if opts["tlog"]:
                log = "%s-%d" % (opts["tlog"], k)
                subprocess.run([CAMELOG, "tlog", "init", "--origin",
                                "example.org/games", log], check=True)
            h, _ = play(o, j, keyed, k, opts["no-fsync"], tlog=log)
            with open(o, "rb") as f:
                is_same = f.read() == ref
            if log:
                # The start and the end, once each, and nothing else.
                games = subprocess.run([CAMELOG, "tlog", "games", log],
                                       capture_output=True, text=True)
                tail = games.stdout.splitlines()[-1:]
                if tail != ["1 starts, 1 ends, 0 never ended"]:
                    print("after request %d: the log has %s" % (k, tail))
                    is_same = False
                subprocess.run(["rm", "-r", log, j + ".tlog"], check=True)
            if is_same:
                same += 1
            else:
                print("after request %d: the file differs" % k)
            os.remove(o)
            os.remove(j)
            os.remove(j + ".secrets")
        print("%d requests, %d journal lines: killed after each, resumed, "
              "%d of %d files byte-identical" % (n, w["total"], same, n))
        return 0 if same == n else 1
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
