#!/usr/bin/env python3
"""examples/host.py - a game server that records a live Avalon game with
`camelog host` (camelog-host(1)).  Python 3 standard library only.

    python3 examples/host.py [--camelog PATH] [--dir DIR]

The server runs `camelog host` and five seat processes (this script with
--seat K).  Each seat:
  - makes its own key pair with `camelog keygen` and sends only the
    public key to the server;
  - keeps its own copy of the public log (seen.txt), fed with the lines
    the server forwards, and checks every delivery it receives with
    `camelog seat check` against that copy, the moment it arrives;
  - takes part in the seed in two rounds: it pledges its value with
    `camelog seat commit` (the value stays in its own directory) and
    reveals it with `camelog seat reveal` only once the dealer has sealed
    every pledge, which that command checks, keeping the sealed start;
  - signs every line it authors with `camelog seat sign`, from its own
    copy of the log and with the action it chose itself (--action): it
    never signs the host's message blindly, and for a quest card it
    recomputes the commitment of its own card from the sign request's
    label and nonce;
  - chooses its actions from the legal actions of its own state.
The server sees deliveries only to route them, never reads them, and
tries three wrong submissions (an illegal team, an out-of-turn
proposal, a vote on behalf of another seat): each is refused and the
game goes on.  At the end it writes DIR/game.camelog, and
`camelog verify --pubkey` checks it.  Exits 0 when all went as expected.
"""
import json
import os
import subprocess
import sys
import tempfile

PLAYERS = 5
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]


def run(camelog, *args, check=True):
    p = subprocess.run([camelog, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit("seat: camelog %s: exit %d: %s" % (args[0], p.returncode, p.stderr))
    return p


# ----------------------------------------------------------------- seats

def seat_main(camelog, k, workdir):
    """One seat: reads commands from the server on stdin, one JSON object
    a line, and answers each with one JSON object on stdout."""
    me = "p%d" % k
    d = os.path.join(workdir, me)
    os.makedirs(d, exist_ok=True)
    key = os.path.join(d, "seat")
    run(camelog, "keygen", "-o", key)
    seen = os.path.join(d, "seen.txt")
    open(seen, "w").close()
    dealer_pub = None
    checked = 0
    mine = {"entropy": None, "action": None}  # what this seat chose

    def reply(obj):
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    with open(key + ".pub") as f:
        pub = f.read().splitlines()[1]
    reply({"key": pub})
    for line in sys.stdin:
        msg = json.loads(line)
        cmd = msg["cmd"]
        if cmd == "dealer":
            dealer_pub = msg["pubkey"]  # pinned out of band
            reply({})
        elif cmd == "lines":
            with open(seen, "a") as f:
                for ln in msg["lines"]:
                    f.write(ln + "\n")
            reply({})
        elif cmd == "deliveries":
            for dv in msg["deliveries"]:
                if dv["seat"] != k:
                    sys.exit("%s: got another seat's delivery" % me)
                path = os.path.join(d, "delivery.jsonl")
                with open(path, "w") as f:
                    f.write(json.dumps(dv, separators=(",", ":")) + "\n")
                p = run(camelog, "seat", "check", "--pubkey", dealer_pub,
                        "--as", me, seen, path, check=False)
                if p.returncode != 0:
                    sys.exit("%s: delivery of line %d FAILED: %s"
                             % (me, dv["line"], p.stderr.strip()))
                checked += 1
            reply({"checked": checked})
        elif cmd in ("commit", "reveal"):
            p = run(camelog, "seat", cmd, "--key", key + ".key", "--state",
                    os.path.join(d, "table"), "--pubkey", dealer_pub, seen)
            out = p.stdout.splitlines()
            reply({"hex": out[0].split()[2], "sig": out[1]})
        elif cmd == "sign":
            args = ["--action", mine["action"]]
            if msg.get("nonce"):
                args += ["--label", msg["label"], "--nonce", msg["nonce"]]
            p = run(camelog, "seat", "sign", "--key", key + ".key", *args,
                    seen, msg["text"], check=False)
            if p.returncode != 0:
                sys.exit("seat: camelog seat sign: %s" % p.stderr)
            reply({"sig": p.stdout.strip()})
        elif cmd == "act":
            mine["action"] = choose(me, msg["actions"])
            reply({"action": mine["action"]})
        elif cmd == "bye":
            # The final file extends what this seat saw, under its own
            # key; its table's directory marks the game finished.
            p = run(camelog, "seat", "history", "--pubkey", dealer_pub,
                    "--seat-key", key + ".pub", "--state",
                    os.path.join(d, "table"), seen, msg["final"], check=False)
            if p.returncode != 0:
                sys.exit("%s: history: %s" % (me, p.stderr.strip()))
            reply({"checked": checked})
            return 0
    return 1


def choose(me, actions):
    """A plain policy: propose a team starting with oneself, approve every
    team, play Fail when one may (evil), assassinate the first seat
    offered."""
    for a in actions:
        if a.startswith("propose "):
            size = a.split()[2].count(",") + 1
            n = int(me[1:])
            team = ["p%d" % ((n - 1 + i) % PLAYERS + 1) for i in range(size)]
            team.sort(key=lambda s: int(s[1:]))
            return "propose %s %s" % (me, ",".join(team))
    for want in ("yes", "fail", "success"):
        for a in actions:
            if a.endswith(" " + want):
                return a
    return actions[0]


# ---------------------------------------------------------------- server

class Host:
    def __init__(self, camelog, args):
        self.p = subprocess.Popen([camelog, "host", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.hello = json.loads(self.p.stdout.readline())
        self.n = 0

    def ask(self, **req):
        self.n += 1
        req["id"] = self.n
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        r = json.loads(self.p.stdout.readline())
        assert r["id"] == self.n, r
        return r


class Seat:
    def __init__(self, camelog, k, workdir):
        self.k = k
        self.p = subprocess.Popen([sys.executable, os.path.abspath(__file__),
                                   "--camelog", camelog, "--dir", workdir,
                                   "--seat", str(k)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)
        self.key = self.recv()["key"]

    def send(self, **msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        return self.recv()

    def recv(self):
        line = self.p.stdout.readline()
        if not line:
            sys.exit("server: seat p%d died" % self.k)
        return json.loads(line)


def server_main(camelog, workdir):
    run(camelog, "keygen", "-o", os.path.join(workdir, "dealer"))
    with open(os.path.join(workdir, "dealer.pub")) as f:
        dealer_pub = f.read().splitlines()[1]
    seats = [Seat(camelog, k, workdir) for k in range(1, PLAYERS + 1)]
    host = Host(camelog, [])
    refusals = []

    def deliver(r):
        """Forward public lines to every seat and each delivery to its seat
        only, then every pending signature request to its seat.  Returns
        whether any line was written."""
        wrote = bool(r["lines"])
        for s in seats:
            s.send(cmd="lines", lines=r["lines"])
        for name, ds in r["deliveries"].items():
            seats[int(name[1:]) - 1].send(cmd="deliveries", deliveries=ds)
        # A seat signs from its own copy of the log, so it signs the
        # request for the next line only (a vote waiting for the votes of
        # seats before it waits for their lines too).
        for req in r["sign"].values():
            if req["line"] != r["total"] + 1 and \
                    not req["text"].startswith("vote "):
                continue
            seat = seats[int(req["seat"][1:]) - 1]
            sig = seat.send(cmd="sign", text=req["text"], base=req["base"],
                            label=req.get("label"),
                            nonce=req.get("nonce"))["sig"]
            wrote = deliver(checked(host.ask(op="sign", seat=req["seat"],
                                             sig=sig))) or wrote
            break  # the next request comes with the reply to this one
        return wrote

    def checked(r):
        if not r["ok"]:
            sys.exit("server: refused: %s" % json.dumps(r))
        return r

    def expect_refusal(what, **req):
        r = host.ask(op="act", **req)
        if r["ok"]:
            sys.exit("server: %s was accepted" % what)
        refusals.append(r["code"])
        print("refused as expected (%s): %s: %s" % (what, r["code"], r["reason"]))

    for s in seats:
        s.send(cmd="dealer", pubkey=dealer_pub)
    r = checked(host.ask(op="new", game="avalon",
                         seats=[{"name": NAMES[i], "key": seats[i].key}
                                for i in range(PLAYERS)],
                         dealer=os.path.join(workdir, "dealer.key"),
                         journal=os.path.join(workdir, "game.journal")))
    deliver(r)
    # The seed in two rounds: every pledge, sealed by the dealer, then
    # every value.
    for s in seats:
        c = s.send(cmd="commit")
        deliver(checked(host.ask(op="pledge", seat="p%d" % s.k, hex=c["hex"],
                                 sig=c["sig"])))
    deliver(checked(host.ask(op="pledged")))
    for s in seats:
        e = s.send(cmd="reveal")
        deliver(checked(host.ask(op="entropy", seat="p%d" % s.k, hex=e["hex"],
                                 sig=e["sig"])))
    deliver(checked(host.ask(op="start")))

    tried = False
    queued, last_step = set(), None
    for _ in range(500):
        st = checked(host.ask(op="state", viewer="public"))["state"]
        if st["winner"]:
            break
        step = (st["phase"], st["round"], st["rejections"], st["successes"],
                st["failures"])
        if step != last_step:
            last_step, queued = step, set()
        # Who acts, as every player may know it; in the assassination
        # nobody is named, and each seat's own state says whether it acts.
        acting = ["p%d" % k for k in st["seats"]] \
            if st["act"] in ("seat", "step") else \
            ["p%d" % k for k in range(1, PLAYERS + 1)]
        if not tried and st["phase"] == "propose":
            tried = True
            leader = "p%d" % st["leader"]
            other = "p%d" % (st["leader"] % PLAYERS + 1)
            expect_refusal("a team of the wrong size", seat=leader,
                           action="propose %s p1,p2,p3,p4" % leader)
            expect_refusal("a proposal out of turn", seat=other,
                           action="propose %s p1,p2" % other)
            expect_refusal("a vote on behalf of another seat", seat=other,
                           action="vote %s yes" % leader)
        for name in acting:
            if name in queued:
                continue
            mine = checked(host.ask(op="state", viewer=name))["state"]
            if not mine["actions"]:
                continue
            seat = seats[int(name[1:]) - 1]
            action = seat.send(cmd="act", actions=mine["actions"])["action"]
            deliver(checked(host.ask(op="act", seat=name, action=action)))
            # A vote or a card waits, unwritten, for the rest of its step:
            # remember who submitted in this step.
            queued.add(name)
            break
    else:
        sys.exit("server: the game did not end")
    deliver(checked(host.ask(op="reveal")))
    out = os.path.join(workdir, "game.camelog")
    w = checked(host.ask(op="write", path=out))
    host.p.stdin.close()
    host.p.wait()
    total = 0
    for s in seats:
        total += s.send(cmd="bye", final=out)["checked"]
        s.p.wait()
    print("game over: %s (%s); %d deliveries checked by their seats"
          % (st["winner"], st["reason"], total))
    print("written: %s, %s, %d lines" % (os.path.basename(out), w["progress"],
                                         w["total"]))
    p = run(camelog, "verify", "--pubkey", os.path.join(workdir, "dealer.pub"),
            out, check=False)
    print(p.stdout.replace(workdir + "/", ""), end="")
    if p.returncode != 0 or sorted(refusals) != sorted(
            ["illegal", "not-your-turn", "on-behalf"]):
        return 1
    return 0


def main(argv):
    camelog, workdir, seat = "camelog", None, None
    i = 0
    while i < len(argv):
        if argv[i] == "--camelog":
            camelog = argv[i + 1]
        elif argv[i] == "--dir":
            workdir = argv[i + 1]
        elif argv[i] == "--seat":
            seat = int(argv[i + 1])
        else:
            sys.exit(__doc__)
        i += 2
    if seat is not None:
        return seat_main(camelog, seat, workdir)
    if workdir is None:
        with tempfile.TemporaryDirectory() as tmp:
            return server_main(camelog, tmp)
    os.makedirs(workdir, exist_ok=True)
    return server_main(camelog, os.path.abspath(workdir))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
