#!/usr/bin/env python3
"""tests/cli/dishonest_host.py - a dishonest host for tests/cli/dishonest.sh.
Not a test itself (tests/cli/run.sh runs *.sh only).

    dishonest_host.py CHEAT

It runs `camelog host` as a game server would, with five honest seats
that use nothing but `camelog seat`, `camelog verify` and `camelog
diff`, each keyed (keys/pK.key, made by the calling test with `camelog
keygen --seed`), and performs one cheat, as the server or the dealer
(whose key it holds: dealer.key, from the seed in DEALER_SEED; the
tool dealer-forge signs with it).  For each cheat it prints who caught
it, with which command, at which step, the message, and whether the
evidence is a proof, something the catching seat could not have made.

Cheats: honest, flip, lie-impossible, lie-unrevealed, fork, fork-unsealed,
frame, secrets, lengths.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

CAMELOG = os.environ.get("CAMELOG_BIN", "camelog")
FORGE = os.environ.get("DEALER_FORGE", "dealer-forge")
DEALER_SEED = os.environ.get("DEALER_SEED", "42" * 32)
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]
GAME_ID = "d15e0e57d15e0e57d15e0e57d15e0e57"
SECRET = "5e" * 32
EVIL = ("assassin", "minion", "morgana", "mordred", "oberon")


def run(*args):
    p = subprocess.run(list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr.strip()


def report(cheat, caught, by, command, step, message, proof):
    print("%s: caught %s; by %s; command %s; step %s; proof %s" %
          (cheat, caught, by, command, step, proof))
    print("  message: %s" % (message or "(none)"))


# ------------------------------------------------------------ the chain

def chain(lines):
    h = bytes(32)
    for ln in lines:
        h = hashlib.blake2b(h + ln.encode(), digest_size=32).digest()
    return h


def seal_line(lines):
    """The dealer's seal over lines, made with its own key."""
    msg = b"camelog seal v1" + chain(lines)
    _, out, _ = run(FORGE, "sign", DEALER_SEED, msg.hex())
    return "seal " + out.strip()


def unpad(v):
    return v.rstrip(".")


# ---------------------------------------------------------------- seats

class Seat:
    """An honest seat: its key, its copy of the log, its own choices."""

    def __init__(self, k):
        self.k = k
        self.name = "p%d" % k
        self.dir = os.path.join("seat", self.name)
        os.makedirs(self.dir, exist_ok=True)
        self.seen = os.path.join(self.dir, "seen.txt")
        open(self.seen, "w").close()
        self.lines = []
        self.key = os.path.join("keys", self.name + ".key")
        with open(os.path.join("keys", self.name + ".pub")) as f:
            self.pub = f.read().splitlines()[1]
        self.entropy = "entropy %s %s" % (self.name, ("%02x" % self.k) * 32)
        self.keyed_key = self.key
        self.action = None
        self.role = None
        self.nd = 0

    def show(self, lines):
        self.lines += lines
        with open(self.seen, "a") as f:
            for ln in lines:
                f.write(ln + "\n")

    def check(self, d):
        """Checks one delivery the moment it arrives: (exit, message)."""
        self.nd += 1
        path = os.path.join(self.dir, "d%d.jsonl" % self.nd)
        with open(path, "w") as f:
            f.write(json.dumps(d, separators=(",", ":")) + "\n")
        if d["label"].startswith("deal "):
            self.role = unpad(d["value"]).split()[0][5:]
        rc, _, err = run(CAMELOG, "seat", "check", "--pubkey", "dealer.pub",
                         "--as", self.name, self.seen, path)
        return rc, err

    def round(self, verb):
        """seat commit or seat reveal, with this seat's fixed value kept
        in its table's directory as seat commit keeps one."""
        table = os.path.join(self.dir, "table")
        os.makedirs(table, exist_ok=True)
        value = os.path.join(table, "%s.%s.value" % (GAME_ID, self.name))
        if not os.path.exists(value):
            fd = os.open(value, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.write(fd, (self.entropy.split()[2] + "\n").encode())
            os.close(fd)
        if self.keyed_key is None:
            return 1, []
        rc, out, err = run(CAMELOG, "seat", verb, "--key", self.keyed_key,
                           "--state", table, "--pubkey", "dealer.pub",
                           self.seen)
        if rc != 0:
            sys.exit("dishonest_host: seat %s: %s" % (verb, err))
        return rc, out.splitlines()

    def sign(self, req):
        """Signs a request with what this seat chose: (exit, sig, msg)."""
        own = self.entropy if req["text"].startswith("entropy ") \
            else self.action
        args = [CAMELOG, "seat", "sign", "--key", self.key, "--action", own]
        if req.get("nonce"):
            args += ["--label", req["label"], "--nonce", req["nonce"]]
        rc, out, err = run(*args, self.seen, req["text"])
        return rc, out.strip(), err


# --------------------------------------------------------------- server

class Game:
    """The server: a `camelog host`, the seats, and the routing."""

    def __init__(self, seal="step", journal=None, secret=SECRET, keyed=True):
        self.p = subprocess.Popen([CAMELOG, "host", "--no-fsync",
                                   "--seal=" + seal],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        self.p.stdout.readline()
        self.seats = [Seat(k) for k in range(1, 6)]
        self.replies = []  # the bytes of every reply, for the lengths
        self.caught = None
        self.journal = journal
        self.secret = secret
        self.keyed = keyed
        self.step = "header"
        # cheat hooks: the lines shown to a seat, the action submitted
        self.show_hook = None
        self.act_hook = None

    def ask(self, **req):
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        self.replies.append(len(line))
        r = json.loads(line)
        if not r["ok"]:
            sys.exit("dishonest_host: refused: %s" % line)
        return r

    def route(self, r):
        """Shows the lines, hands each delivery to its seat (which checks
        it), then asks for each signature; stops at the first catch."""
        for s in self.seats:
            lines = self.show_hook(s, r["lines"]) if self.show_hook \
                else r["lines"]
            s.show(lines)
        for name, ds in r["deliveries"].items():
            s = self.seats[int(name[1:]) - 1]
            for d in ds:
                rc, err = s.check(d)
                if rc != 0 and not self.caught:
                    self.caught = (s.name, "seat check", self.step, err)
        if self.caught:
            return r
        for req in r["sign"].values():
            if req["line"] != r["total"] + 1 and \
                    not req["text"].startswith("vote "):
                continue
            s = self.seats[int(req["seat"][1:]) - 1]
            rc, sig, err = s.sign(req)
            if rc != 0:
                self.caught = (s.name, "seat sign", self.step, err)
                return r
            return self.route(self.ask(op="sign", seat=req["seat"], sig=sig))
        return r

    def start(self):
        seats = [{"name": NAMES[i], "key": self.seats[i].pub} if self.keyed
                 else NAMES[i] for i in range(5)]
        new = {"op": "new", "game": "avalon", "seats": seats,
               "dealer": "dealer.key", "game_id": GAME_ID,
               "secret": self.secret}
        if self.journal:
            new["journal"] = self.journal
        self.route(self.ask(**new))
        # The seed in two rounds (camelog(5) "Entropy"): each seat
        # pledges its value with seat commit, the dealer seals every
        # pledge, then each seat reveals with seat reveal.
        self.step = "pledge"
        for s in self.seats:
            rc, out = s.round("commit")
            self.route(self.ask(op="pledge", seat=s.name, hex=out[0].split()[2],
                                sig=out[1]) if self.keyed else
                       self.ask(op="pledge", seat=s.name,
                                hex=out[0].split()[2]))
        self.route(self.ask(op="pledged"))
        self.step = "reveal"
        for s in self.seats:
            rc, out = s.round("reveal")
            self.route(self.ask(op="entropy", seat=s.name,
                                hex=out[0].split()[2], sig=out[1])
                       if self.keyed else
                       self.ask(op="entropy", seat=s.name,
                                hex=out[0].split()[2]))
        self.step = "deal"
        return self.route(self.ask(op="start"))

    def play(self, until=None):
        """Plays until the end, a catch, or until(state) says stop: the
        leader takes itself and the seats after it, everybody approves,
        every card is a success, the Assassin names Merlin."""
        queued = set()
        for _ in range(2000):
            if self.caught:
                return
            st = self.ask(op="state", viewer="public")["state"]
            if st["winner"] or (until and until(st)):
                return
            self.step = "%s %d" % (st["phase"], st["round"])
            acting = ["p%d" % k for k in st["seats"]] \
                if st["act"] in ("seat", "step") else \
                ["p%d" % k for k in range(1, 6)]
            for name in acting:
                if name in queued:
                    continue
                s = self.seats[int(name[1:]) - 1]
                acts = self.ask(op="state", viewer=name)["state"]["actions"]
                if not acts:
                    continue
                a = acts[0]
                if a.startswith("propose "):
                    size = a.split()[2].count(",") + 1
                    team = sorted((s.k - 1 + i) % 5 + 1 for i in range(size))
                    a = "propose %s %s" % (name,
                                          ",".join("p%d" % t for t in team))
                elif a.startswith("assassinate "):
                    merlin = next(x for x in self.seats if x.role == "merlin")
                    a = "assassinate %s %s" % (name, merlin.name)
                else:
                    for want in ("yes", "success"):
                        a = next((x for x in acts if x.endswith(" " + want)),
                                 a)
                s.action = a
                sent = self.act_hook(s, a) if self.act_hook else a
                r = self.route(self.ask(op="act", seat=name, action=sent))
                queued = set() if r["lines"] else queued | {name}
                break

    def finish(self, out="game.camelog"):
        self.route(self.ask(op="reveal"))
        self.ask(op="write", path=out, force=True)
        self.p.stdin.close()
        self.p.wait()

    def stop(self):
        self.p.stdin.close()
        self.p.wait()


def verify(*args):
    rc, out, err = run(CAMELOG, "verify", "-q", "--pubkey", "dealer.pub", *args)
    return rc, (out + " " + err).strip()


# --------------------------------------------------------------- cheats

def honest():
    g = Game()
    g.start()
    g.play()
    g.finish()
    rc, msg = verify("--require=reveal", "game.camelog")
    hist = [run(CAMELOG, "seat", "history", "--pubkey", "dealer.pub",
                s.seen, "game.camelog")[0] for s in g.seats]
    checked = sum(s.nd for s in g.seats)
    print("honest: caught %s; %d deliveries checked, every one ok, every "
          "line signed by its seat with seat sign --action; verify "
          "--require=reveal exit %d; seat history exit %s" %
          (g.caught, checked, rc, ",".join(map(str, hist))))
    print("  %s" % msg)


def flip():
    """The host submits Fail for an evil seat that played Success."""
    g = Game()

    def act_hook(s, a):
        if a.startswith("card ") and a.endswith(" success") and \
                s.role in EVIL:
            return a[:-len("success")] + "fail"
        return a

    g.act_hook = act_hook
    g.start()
    g.play()
    g.stop()
    who, cmd, step, msg = g.caught
    report("flip", "yes (refused: the seat does not sign)", who, cmd, step,
           msg, "no (the flipped card never gets the seat's signature)")


def lie(impossible):
    """The dealer commits, on the deal line of a servant, to a lie, and
    tells that seat the lie, signed with its key; for the plausible lie
    it ends the game there and never reveals."""
    g = Game()
    lies = {}

    def show_hook(s, lines):
        out = []
        for ln in lines:
            if lies and ln.startswith("deal %s " % lies["seat"]):
                d = lies["d"]
                _, c, _ = run(FORGE, "commit", GAME_ID, d["label"],
                              unpad(d["value"]), d["nonce"])
                ln = "deal %s %s" % (lies["seat"], c.strip())
            if ln.startswith("seal "):
                ln = seal_line(s.lines + out)
            out.append(ln)
        return out

    orig_route = g.route

    def route_start(rr):
        ds = {k: v[0] for k, v in rr["deliveries"].items()
              if v and v[0]["label"].startswith("deal ")}
        if ds:
            roles = {k: unpad(d["value"]).split()[0][5:] for k, d in ds.items()}
            seat = min((k for k, r in roles.items() if r == "servant"),
                       key=lambda k: int(k[1:]))
            d = ds[seat]
            if impossible:
                # A servant who sees a seat: no deal gives that view.
                value = "role=servant sees=%s" % ("p1" if seat != "p1"
                                                  else "p2")
            else:
                # Merlin's view, as many seats as Merlin sees.
                seen = sorted(int(k[1:]) for k, r in roles.items()
                              if r in EVIL and r != "mordred")
                value = "role=merlin sees=" + ",".join("p%d" % k
                                                       for k in seen)
            _, out, _ = run(FORGE, "delivery", DEALER_SEED, GAME_ID,
                            seat[1:], str(d["line"]), d["label"], value,
                            d["nonce"])
            lies.update(seat=seat, d=json.loads(out))
            rr["deliveries"][seat] = [lies["d"]]
        return orig_route(rr)

    g.show_hook = show_hook
    g.route = route_start
    g.start()
    g.route = orig_route
    g.stop()
    told = g.seats[int(lies["seat"][1:]) - 1]
    if impossible:
        who, cmd, step, msg = g.caught
        report("lie-impossible", "yes", who, cmd, step, msg,
               "yes (the dealer's signed delivery and the rules line show "
               "an impossible view)")
        return
    # A plausible lie passes the seat's check; the dealer then ends the
    # game (end aborted), seals, and never reveals.
    print("lie-unrevealed: %s, a servant, is told \"%s\"; seat check: %s" %
          (told.name, unpad(lies["d"]["value"]),
           "ok" if g.caught is None else g.caught[3]))
    lines = told.lines + ["end aborted"]
    lines.append(seal_line(lines))
    with open("unrevealed.txt", "w") as f:
        f.write("".join(x + "\n" for x in lines))
    rc0, msg0 = verify("unrevealed.txt")
    rc1, msg1 = verify("--require=reveal", "unrevealed.txt")
    report("lie-unrevealed", "not by seat check (the lie is possible); "
           "verify warns (exit %d), verify --require=reveal refuses "
           "(exit %d)" % (rc0, rc1), "any seat", "verify --require=reveal",
           "the end", msg1,
           "no (until the reveal; the seat keeps the dealer's signed "
           "delivery)")
    print("  verify without --require: %s" % msg0)
    # Revealed, the dealer's own secret refutes the lie at its line.
    lines = lines + ["reveal " + SECRET]
    lines.append(seal_line(lines))
    with open("revealed.txt", "w") as f:
        f.write("".join(x + "\n" for x in lines))
    rc2, msg2 = verify("revealed.txt")
    report("lie-revealed", "yes (exit %d)" % rc2, "any seat", "verify",
           "the reveal", msg2,
           "yes (the dealer's seals and reveal, and the seat's signed "
           "delivery)")


def fork(seal):
    """The dealer shows p2 another deal of p5 than it shows p1."""
    g = Game(seal=seal)

    def show_hook(s, lines):
        if s.name != "p2":
            return lines
        out = []
        for ln in lines:
            if ln.startswith("deal p5 "):
                ln = "deal p5 " + "0" * 64
            if ln.startswith("seal "):
                ln = seal_line(s.lines + out)
            out.append(ln)
        return out

    g.show_hook = show_hook
    g.start()
    g.stop()
    a, b = g.seats[0].seen, g.seats[1].seen
    rc, out, err = run(CAMELOG, "diff", a, b)
    proof = [x for x in out.splitlines() if x.startswith(("proof", "claim"))]
    name = "fork" if seal == "step" else "fork-unsealed"
    report(name, "parting seen, exit %d" % rc, "p1 and p2", "diff",
           "deal", proof[0] if proof else "the histories part; nothing "
           "sealed past the parting line",
           "yes (two dealer seals)" if proof and proof[0].startswith("proof")
           else "no")


def frame():
    """p3 makes up a history: the honest one to its vote, then a vote it
    did not make, signed with its own key, and claims the dealer showed
    it that."""
    g = Game()
    g.start()
    g.play()
    g.finish()
    p3 = g.seats[2]
    text = p3.lines
    at = next(i for i, x in enumerate(text) if x.startswith("vote p3 "))
    made = text[:at]
    fake = "vote p3 no" if text[at] == "vote p3 yes" else "vote p3 yes"
    with open("framed.txt", "w") as f:
        f.write("".join(x + "\n" for x in made))
    _, sig, _ = run(CAMELOG, "seat", "sign", "--key", p3.key, "--action",
                    fake, "framed.txt", fake)
    with open("framed.txt", "a") as f:
        f.write(fake + "\n" + sig.strip() + "\n")
    rc, out, err = run(CAMELOG, "diff", "framed.txt", "game.camelog")
    verdict = [x for x in out.splitlines() if x.startswith(("proof", "claim"))]
    report("frame", "as a claim only, exit %d" % rc, "p3 (the framer)", "diff",
           "vote", verdict[0] if verdict else "(none)",
           "no (a seat's own signature is its word)")


def resume(journal):
    p = subprocess.run([CAMELOG, "host"], input=json.dumps(
        {"op": "resume", "journal": journal, "dealer": "dealer.key"}) + "\n",
        capture_output=True, text=True)
    r = json.loads(p.stdout.splitlines()[1])
    detail = p.stderr.strip().replace("camelog: request 1: ", "")
    return ("ok" if r["ok"] else r["code"]), detail


def secrets():
    """The secrets file of a live game, written to by someone without the
    dealer's secret key (its public key suffices to seal a record)."""
    for j, secret in (("a.journal", SECRET), ("b.journal", "b0" * 32)):
        for s in ("seat",):
            shutil.rmtree(s, ignore_errors=True)
        g = Game(seal="step", journal=j, secret=secret)
        g.start()
        g.play(until=lambda st: st["round"] >= 2)
        g.stop()
    with open("a.journal.secrets") as f:
        a = f.read().splitlines(keepends=True)
    with open("b.journal.secrets") as f:
        b = f.read().splitlines(keepends=True)
    cases = [
        ("a record of another game appended", a + [b[3]]),
        ("the dealer secret S replaced (another game's first record)",
         [b[0]] + a[1:]),
        ("a record withheld (the third)", a[:2] + a[3:]),
        ("one byte of a record changed", a[:4] + [a[4][:10] +
                                                  ("A" if a[4][10] != "A"
                                                   else "B") + a[4][11:]]
         + a[5:]),
    ]
    for what, recs in cases:
        shutil.copy("a.journal", "t.journal")
        with open("t.journal.secrets", "w") as f:
            f.write("".join(recs))
        code, detail = resume("t.journal")
        report("secrets: " + what, "yes (%s)" % code, "the host",
               "resume", "resume", detail, "n/a (the host's own files)")
        os.remove("t.journal")
        os.remove("t.journal.secrets")
    shutil.copy("a.journal", "t.journal")
    shutil.copy("a.journal.secrets", "t.journal.secrets")
    code, _ = resume("t.journal")
    print("secrets: the files as written: resume %s" % code)


def lengths():
    """Two games that differ only in their deal, then two that differ
    only in the first card of the first quest (an evil seat's success or
    fail): the bytes of every reply, the journal and the secrets file."""
    def game(secret, tag, card="success"):
        shutil.rmtree("seat", ignore_errors=True)
        g = Game(journal="len-%s.journal" % tag, secret=secret)
        played = []

        def act_hook(s, a):
            if a.startswith("card "):
                if not played and s.role in EVIL:
                    s.action = a = a.rsplit(" ", 1)[0] + " " + card
                played.append(s.name)
            return a
        g.act_hook = act_hook
        g.start()
        g.play(until=lambda st: st["phase"] == "cards" and
               (card is None or played))
        g.stop()
        return (g.replies, os.path.getsize("len-%s.journal" % tag),
                os.path.getsize("len-%s.journal.secrets" % tag),
                [s.role for s in g.seats], played)
    a = game(SECRET, "a", None)
    b = game("a1" * 32, "b", None)
    print("lengths: two deals: %s and %s" % (",".join(a[3]), ",".join(b[3])))
    print("  replies equal in length: %s (%d replies); journal %d and %d "
          "bytes; secrets %d and %d bytes" %
          (a[0] == b[0], len(a[0]), a[1], b[1], a[2], b[2]))
    def vote(v, tag):
        shutil.rmtree("seat", ignore_errors=True)
        g = Game(journal="len-%s.journal" % tag)
        voted = []

        def act_hook(s, a):
            if a.startswith("vote ") and not voted:
                s.action = a = "vote %s %s" % (s.name, v)
                voted.append(s.name)
            return a
        g.act_hook = act_hook
        g.start()
        # Until the first vote is in, held with its sign request.
        g.play(until=lambda st: bool(voted))
        g.stop()
        return g.replies, voted
    e, who = vote("yes", "e")
    f, _ = vote("no", "f")
    print("lengths: the first vote, held with its sign request (%s): yes "
          "or no" % who[0])
    print("  replies equal in length: %s (%d replies)" % (e == f, len(e)))
    c = game(SECRET, "c", "success")
    d = game(SECRET, "d", "fail")
    print("lengths: the first card of quest 1 (%s, %s): success or fail" %
          (c[4][0], c[3][int(c[4][0][1:]) - 1]))
    print("  replies equal in length: %s (%d replies); journal %d and %d "
          "bytes; secrets %d and %d bytes" %
          (c[0] == d[0], len(c[0]), c[1], d[1], c[2], d[2]))


def main(argv):
    if not argv:
        sys.exit(__doc__)
    cheat = argv[0]
    if cheat == "honest":
        honest()
    elif cheat == "flip":
        flip()
    elif cheat == "lie-impossible":
        lie(True)
    elif cheat == "lie-unrevealed":
        lie(False)
    elif cheat == "fork":
        fork("step")
    elif cheat == "fork-unsealed":
        fork("end")
    elif cheat == "frame":
        frame()
    elif cheat == "secrets":
        secrets()
    elif cheat == "lengths":
        lengths()
    else:
        sys.exit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
