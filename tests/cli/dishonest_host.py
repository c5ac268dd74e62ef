#!/usr/bin/env python3
"""tests/cli/dishonest_host.py - a dishonest host for tests/cli/dishonest.sh.
Not a test itself (tests/cli/run.sh runs *.sh only).

    dishonest_host.py CHEAT
    dishonest_host.py summary

It runs `camelog host` as a game server would, with five honest seats
that use nothing but `camelog seat`, `camelog verify` and `camelog
diff`, each keyed (keys/pK.key, made by the calling test with `camelog
keygen --seed`), and performs one cheat, as the server or the dealer
(whose key it holds: dealer.key, from the seed in DEALER_SEED; the
tool dealer-forge signs with it).  For each cheat it prints who caught
it, with which command, at which step, the message, and whether the
evidence is a proof, something the catching seat could not have made;
and appends the verdict to summary.jsonl, of which `summary` prints
the table.

Cheats: honest, honest-soc, flip, lie-impossible, lie-unrevealed, fork,
fork-unsealed, frame, secrets, lengths, drop, grind, restart,
substitute, unsigned, hostkey, withheld.
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
SUMMARY = "summary.jsonl"


def run(*args):
    p = subprocess.run(list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr.strip()


def yn(b):
    return "n/a" if b is None else ("yes" if b else "no")


def report(cheat, caught, how, by, command, step, message, proof, why):
    """caught and proof (None: not applicable) are what the run found;
    how and why say more.  The verdict goes to the summary too."""
    print("%s: %s%s; by %s; command %s; step %s; proof %s%s" %
          (cheat, "caught" if caught else "NOT CAUGHT",
           " (%s)" % how if how else "", by, command, step, yn(proof),
           " (%s)" % why if why else ""))
    print("  message: %s" % (message or "(none)"))
    with open(SUMMARY, "a") as f:
        f.write(json.dumps({"cheat": cheat, "caught": caught, "by": by,
                            "command": command, "step": step,
                            "proof": proof}) + "\n")


def summary():
    """The table of every verdict in summary.jsonl, in run order."""
    with open(SUMMARY) as f:
        rows = [json.loads(x) for x in f]
    head = ("cheat", "caught by", "command", "step", "proof")
    cells = [head] + [(r["cheat"], r["by"] if r["caught"] else "NOT CAUGHT",
                       r["command"], r["step"], yn(r["proof"]))
                      for r in rows]
    width = [max(len(c[i]) for c in cells) for i in range(len(head))]
    for c in cells:
        print(" | ".join(x.ljust(w) for x, w in zip(c, width)).rstrip())
    print("%d rows, %d caught, %d with a proof" %
          (len(rows), sum(r["caught"] for r in rows),
           sum(bool(r["proof"]) for r in rows)))


def first_err(err):
    """The first line of a command's standard error."""
    return err.splitlines()[0] if err else ""


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


def write_text(path, lines):
    with open(path, "w") as f:
        f.write("".join(x + "\n" for x in lines))


def sealed_start(s, path):
    """Seat s's history through the seal after the pledged line, the
    sealed start, written to path: (verify's exit, its message)."""
    at = next(i for i, x in enumerate(s.lines) if x.startswith("pledged "))
    write_text(path, s.lines[:at + 2])
    return verify(path)


def unpad(v):
    return v.rstrip(".")


def pledge_of(game_id, k, value_hex):
    """A seat's pledge of its value (camelog(5) "Entropy")."""
    return hashlib.blake2b(b"camelog pledge" + bytes.fromhex(game_id) +
                           bytes([k]) + bytes.fromhex(value_hex),
                           digest_size=32).hexdigest()


# ---------------------------------------------------------------- seats

class Seat:
    """An honest seat: its key, its copy of the log, its own choices."""

    def __init__(self, k, game_id=GAME_ID):
        self.k = k
        self.name = "p%d" % k
        self.dir = os.path.join("seat", self.name)
        os.makedirs(self.dir, exist_ok=True)
        self.table = os.path.join(self.dir, "table")
        self.key = os.path.join("keys", self.name + ".key")
        self.pubfile = os.path.join("keys", self.name + ".pub")
        with open(self.pubfile) as f:
            self.pub = f.read().splitlines()[1]
        self.value = ("%02x" % self.k) * 32
        self.nd = 0
        self.new_game(game_id)

    def new_game(self, game_id):
        """A new game at the same table: a new history, the same table
        directory (its kept values and sealed starts)."""
        self.game_id = game_id
        self.seen = os.path.join(self.dir, "seen.txt" if game_id == GAME_ID
                                 else "seen-%s.txt" % game_id[:8])
        open(self.seen, "w").close()
        self.lines = []
        self.action = None
        self.role = None
        self.revealed = None

    def show(self, lines):
        self.lines += lines
        with open(self.seen, "a") as f:
            for ln in lines:
                f.write(ln + "\n")

    def check(self, d, seat_key=False):
        """Checks one delivery the moment it arrives: (exit, message)."""
        self.nd += 1
        path = os.path.join(self.dir, "d%d.jsonl" % self.nd)
        with open(path, "w") as f:
            f.write(json.dumps(d, separators=(",", ":")) + "\n")
        if d["label"].startswith("deal ") and \
                unpad(d["value"]).startswith("role="):
            self.role = unpad(d["value"]).split()[0][5:]
        args = [CAMELOG, "seat", "check", "--pubkey", "dealer.pub",
                "--as", self.name]
        if seat_key:
            args += ["--seat-key", self.pubfile]
        rc, _, err = run(*args, self.seen, path)
        return rc, err

    def round(self, verb, key=None):
        """seat commit or seat reveal: (exit, lines, message).  The first
        game's value is fixed, written where seat commit keeps one, so
        that the test's output is the same at every run."""
        os.makedirs(self.table, exist_ok=True)
        value = os.path.join(self.table, "%s.%s.value" % (self.game_id,
                                                          self.name))
        if self.game_id == GAME_ID and not os.path.exists(value):
            fd = os.open(value, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.write(fd, (self.value + "\n").encode())
            os.close(fd)
        rc, out, err = run(CAMELOG, "seat", verb, "--key", key or self.key,
                           "--state", self.table, "--pubkey", "dealer.pub",
                           self.seen)
        return rc, out.splitlines(), err

    def sign(self, req, key=None):
        """Signs a request with what this seat chose: (exit, sig, msg)."""
        args = [CAMELOG, "seat", "sign", "--key", key or self.key,
                "--action", self.action]
        if req.get("nonce"):
            args += ["--label", req["label"], "--nonce", req["nonce"]]
        rc, out, err = run(*args, self.seen, req["text"])
        return rc, out.strip(), err

    def live(self, require, seats=()):
        """verify --live of the history so far (and of those of seats),
        every seat's key pinned."""
        pins = []
        for k in range(1, 6):
            pins += ["--seat-key", "p%d=keys/p%d.pub" % (k, k)]
        return verify("--live", "-j1", "--require=" + require, *pins,
                      *[s.seen for s in seats or (self,)])


# --------------------------------------------------------------- server

class Game:
    """The server: a `camelog host`, the seats, and the routing."""

    def __init__(self, seal="step", journal=None, secret=SECRET, keyed=True,
                 game="avalon", seats=None, game_id=GAME_ID, nseats=5):
        self.p = subprocess.Popen([CAMELOG, "host", "--no-fsync",
                                   "--seal=" + seal],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        self.p.stdout.readline()
        self.game = game
        self.game_id = game_id
        if seats:
            for s in seats:
                s.new_game(game_id)
            self.seats = seats
        else:
            self.seats = [Seat(k, game_id) for k in range(1, nseats + 1)]
        self.replies = []  # the bytes of every reply, for the lengths
        self.caught = None
        # every seat check that failed; the first stops the game unless
        # stop_on_catch is off
        self.catches = []
        self.stop_on_catch = True
        self.seat_key_check = False
        self.journal = journal
        self.secret = secret
        self.keyed = keyed
        self.step = "header"
        self.refused = None
        # cheat hooks: the lines shown to a seat, the action submitted,
        # the deliveries handed out, the sign requests answered
        self.show_hook = None
        self.act_hook = None
        self.deliver_hook = None
        self.sign_hook = None
        # with step_checks, every seat verifies its history after every
        # response that wrote lines, each seat's key pinned
        self.step_checks = None
        self.checks = 0
        self.distinct = 0
        self.check_failed = []

    def ask(self, **req):
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        self.replies.append(len(line))
        r = json.loads(line)
        if not r["ok"]:
            sys.exit("dishonest_host: refused: %s" % line)
        return r

    def try_ask(self, **req):
        """A request the host may refuse: the response, ok or not."""
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def seat(self, name):
        return self.seats[int(name[1:]) - 1]

    def route(self, r):
        """Shows the lines, hands each delivery to its seat (which checks
        it), then asks for each signature; stops at the first catch."""
        for s in self.seats:
            lines = self.show_hook(s, r["lines"]) if self.show_hook \
                else r["lines"]
            s.show(lines)
        for name, ds in r["deliveries"].items():
            s = self.seat(name)
            if self.deliver_hook:
                ds = self.deliver_hook(s, ds)
            for d in ds:
                rc, err = s.check(d, self.seat_key_check)
                if rc != 0:
                    self.catches.append((s.name, "seat check", self.step,
                                         err))
                if rc != 0 and self.stop_on_catch and not self.caught:
                    self.caught = self.catches[-1]
        if r["lines"] and self.step_checks:
            # The histories that differ, one file of each, in one verify:
            # a history byte for byte another's has the other's verdict.
            distinct = {}
            for s in self.seats:
                distinct.setdefault("\n".join(s.lines), s)
            rc, msg = self.seats[0].live(self.step_checks,
                                         list(distinct.values()))
            self.checks += len(self.seats)
            self.distinct = max(self.distinct, len(distinct))
            if rc != 0:
                self.check_failed.append(("a seat", self.step, msg))
        if self.caught:
            return r
        for req in r["sign"].values():
            if req["line"] != r["total"] + 1 and \
                    not req["text"].startswith("vote "):
                continue
            s = self.seat(req["seat"])
            if self.sign_hook:
                rc, sig, err = self.sign_hook(s, req)
            else:
                rc, sig, err = s.sign(req)
            if rc != 0:
                self.caught = (s.name, "seat sign", self.step, err)
                return r
            return self.route(self.ask(op="sign", seat=req["seat"], sig=sig))
        return r

    def new(self):
        seats = [{"name": NAMES[i], "key": s.pub} if self.keyed
                 else NAMES[i] for i, s in enumerate(self.seats)]
        new = {"op": "new", "game": self.game, "seats": seats,
               "dealer": "dealer.key", "game_id": self.game_id,
               "secret": self.secret}
        if self.journal:
            new["journal"] = self.journal
        return self.route(self.ask(**new))

    def pledge(self, s, out):
        """Submits seat s's pledge, as seat commit printed it."""
        req = {"op": "pledge", "seat": s.name, "hex": out[0].split()[2]}
        if self.keyed:
            req["sig"] = out[1]
        return self.route(self.ask(**req))

    def reveal(self, s, out):
        req = {"op": "entropy", "seat": s.name, "hex": out[0].split()[2]}
        if self.keyed:
            req["sig"] = out[1]
        return self.route(self.ask(**req))

    def pledges(self, skip=()):
        """The first round: each seat pledges with seat commit; the
        dealer seals them (the sealed start).  Returns each seat's
        commit: (exit, lines, message)."""
        self.step = "pledge"
        made = {}
        for s in self.seats:
            made[s.name] = rc, out, err = s.round("commit")
            if rc != 0:
                sys.exit("dishonest_host: %s seat commit: %s" % (s.name, err))
            if s.name not in skip:
                self.pledge(s, out)
        self.route(self.ask(op="pledged"))
        return made

    def reveals(self, skip=()):
        """The second round: each seat reveals with seat reveal."""
        self.step = "reveal"
        made = {}
        for s in self.seats:
            made[s.name] = rc, out, err = s.round("reveal")
            if rc == 0:
                s.revealed = out
            if rc == 0 and s.name not in skip:
                self.reveal(s, out)
        return made

    def start(self):
        self.new()
        # The seed in two rounds (camelog(5) "Entropy"): each seat
        # pledges its value with seat commit, the dealer seals every
        # pledge, then each seat reveals with seat reveal.
        self.pledges()
        self.reveals()
        self.step = "deal"
        return self.route(self.ask(op="start"))

    def play(self, until=None):
        if self.game == "soc":
            return self.play_soc()
        return self.play_avalon(until)

    def play_avalon(self, until=None):
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
                s = self.seat(name)
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

    def play_soc(self):
        """Each move the first legal action a seat's state offers, one
        that hands cards over first (as tests/cli/host_soc.py plays)."""
        for _ in range(5000):
            if self.caught:
                return
            actions = []
            for s in self.seats:
                st = self.ask(op="state", viewer=s.name)["state"]
                actions += st.get("actions") or []
            if st.get("winner") or not actions:
                return
            hand = [a for a in actions
                    if a.startswith("swap ") or " messenger " in a]
            a = (hand or actions)[0]
            s = self.seat(a.split()[1])
            self.step = "%s %s" % (st.get("phase"), a.split()[0])
            s.action = a
            self.route(self.ask(op="act", seat=s.name, action=a))
        sys.exit("dishonest_host: the game did not end")

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


def history(s, final, *extra):
    return run(CAMELOG, "seat", "history", "--pubkey", "dealer.pub", *extra,
               s.seen, final)


# --------------------------------------------------------------- cheats

def honest(game="avalon"):
    """An honest game, every seat keyed: every delivery checked as it
    arrives, every line signed by its seat with seat sign --action, and
    after every step that wrote lines, every seat's history verified
    with every seat's key pinned and signatures required (entropy too
    from the deal on); at the end the file is verified with every
    requirement and every seat's history holds."""
    g = Game(game=game)
    g.step_checks = "signatures"
    g.new()
    g.pledges()
    g.reveals()
    g.step = "deal"
    g.step_checks = "entropy,signatures"
    g.route(g.ask(op="start"))
    g.play()
    g.finish()
    pins = []
    for s in g.seats:
        pins += ["--seat-key", "%s=%s" % (s.name, s.pubfile)]
    rc, msg = verify("--require=complete,reveal,entropy,signatures", *pins,
                     "game.camelog")
    hist = [history(s, "game.camelog", "--seat-key", s.pubfile,
                    "--state", s.table)[0] for s in g.seats]
    starts = [run(CAMELOG, "seat", "starts", "--state", s.table)[0]
              for s in g.seats]
    checked = sum(s.nd for s in g.seats)
    name = "honest" if game == "avalon" else "honest-soc"
    ok = not g.caught and not g.check_failed and rc == 0 and \
        not any(hist) and not any(starts)
    print("%s: %s; %d deliveries checked, every one ok; every line signed "
          "by its seat with seat sign --action; %d step checks (verify "
          "--live, keys pinned, signatures required; %s), %d failed; "
          "verify "
          "--require=complete,reveal,entropy,signatures exit %d; seat "
          "history --seat-key exit %s; seat starts exit %s" %
          (name, "every check passed" if ok else "A CHECK FAILED", checked,
           g.checks, "the five histories alike at every step"
           if g.distinct == 1 else "at most %d histories differing at a "
           "step" % g.distinct, len(g.check_failed), rc,
           ",".join(map(str, hist)), ",".join(map(str, starts))))
    for who, step, m in g.check_failed[:3]:
        print("  %s at %s: %s" % (who, step, m))
    if g.caught:
        print("  caught: %s" % (g.caught,))
    print("  %s" % msg)
    with open(SUMMARY, "a") as f:
        f.write(json.dumps({"cheat": name + " (no cheat)", "caught": ok,
                            "by": "every check passed" if ok else
                            "A CHECK FAILED",
                            "command": "seat check, sign, verify, history",
                            "step": "every step", "proof": None}) + "\n")


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
    who, cmd, step, msg = g.caught or ("nobody", "-", "-", "")
    report("flip", bool(g.caught), "refused: the seat does not sign", who,
           cmd, step, msg, False,
           "the flipped card never gets the seat's signature")


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
    told = g.seat(lies["seat"])
    if impossible:
        who, cmd, step, msg = g.caught or ("nobody", "-", "-", "")
        report("lie-impossible", bool(g.caught), None, who, cmd, step, msg,
               "proves it" in msg,
               "the dealer's signed delivery and the rules line show an "
               "impossible view")
        return
    # A plausible lie passes the seat's check; the dealer then ends the
    # game (end aborted), seals, and never reveals.
    print("lie-unrevealed: %s, a servant, is told \"%s\"; seat check: %s" %
          (told.name, unpad(lies["d"]["value"]),
           "ok" if g.caught is None else g.caught[3]))
    lines = told.lines + ["end aborted"]
    lines.append(seal_line(lines))
    write_text("unrevealed.txt", lines)
    rc0, msg0 = verify("unrevealed.txt")
    rc1, msg1 = verify("--require=reveal", "unrevealed.txt")
    report("lie-unrevealed", rc1 != 0 and g.caught is None,
           "not by seat check, the lie being possible; verify warns (exit "
           "%d), verify --require=reveal refuses (exit %d)" % (rc0, rc1),
           "any seat", "verify --require=reveal", "the end", msg1, False,
           "until the reveal; the seat keeps the dealer's signed delivery")
    print("  verify without --require: %s" % msg0)
    # Revealed, the dealer's own secret refutes the lie at its line.
    lines = lines + ["reveal " + SECRET]
    lines.append(seal_line(lines))
    write_text("revealed.txt", lines)
    rc2, msg2 = verify("revealed.txt")
    report("lie-revealed", rc2 != 0, "exit %d" % rc2, "any seat", "verify",
           "the reveal", msg2, rc2 != 0,
           "the dealer's seals and reveal, and the seat's signed delivery")


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
    is_proof = bool(proof) and proof[0].startswith("proof")
    report(name, rc == 1, "parting seen, exit %d" % rc, "p1 and p2", "diff",
           "deal", proof[0] if proof else "the histories part; nothing "
           "sealed past the parting line", is_proof,
           "two dealer seals" if is_proof else
           "no seal covers the parting")


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
    write_text("framed.txt", made)
    _, sig, _ = run(CAMELOG, "seat", "sign", "--key", p3.key, "--action",
                    fake, "framed.txt", fake)
    with open("framed.txt", "a") as f:
        f.write(fake + "\n" + sig.strip() + "\n")
    rc, out, err = run(CAMELOG, "diff", "framed.txt", "game.camelog")
    verdict = [x for x in out.splitlines() if x.startswith(("proof", "claim"))]
    claim = bool(verdict) and verdict[0].startswith("claim")
    report("frame", claim, "reported as a claim only, exit %d" % rc,
           "diff (p3 is the framer)", "diff", "vote",
           verdict[0] if verdict else "(none)", False,
           "a seat's own signature is its word")


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
        shutil.rmtree("seat", ignore_errors=True)
        g = Game(seal="step", journal=j, secret=secret)
        g.start()
        g.play(until=lambda st: st["round"] >= 2)
        g.stop()
    with open("a.journal.secrets") as f:
        a = f.read().splitlines(keepends=True)
    with open("b.journal.secrets") as f:
        b = f.read().splitlines(keepends=True)
    cases = [
        ("a record of another game appended", "appended", a + [b[3]]),
        ("the dealer secret S replaced (another game's first record)",
         "S replaced", [b[0]] + a[1:]),
        ("a record withheld (the third)", "withheld", a[:2] + a[3:]),
        ("one byte of a record changed", "changed",
         a[:4] + [a[4][:10] + ("A" if a[4][10] != "A" else "B") + a[4][11:]]
         + a[5:]),
    ]
    for what, short, recs in cases:
        shutil.copy("a.journal", "t.journal")
        with open("t.journal.secrets", "w") as f:
            f.write("".join(recs))
        code, detail = resume("t.journal")
        report("secrets: " + what, code == "bad-journal", code, "the host",
               "resume", "resume", detail, None,
               "the host's own files; the record is refused")
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
    equal = a[0] == b[0] and a[1:3] == b[1:3] and e == f and \
        c[0] == d[0] and c[1:3] == d[1:3]
    with open(SUMMARY, "a") as f:
        f.write(json.dumps({"cheat": "lengths", "caught": equal,
                            "by": "padding: every length equal" if equal
                            else "A LENGTH DIFFERS",
                            "command": "-", "step": "replies, journal, "
                            "secrets file", "proof": None}) + "\n")


# ------------------------------------------------------ the seed's cheats

def drop():
    """The dealer drops seat p3's part in the seed: first its pledge (the
    sealed start leaves p3 out, and the game is played without it), then,
    in another game, its reveal (the dealer, who has the value, ends the
    game as if p3 withheld it)."""
    g = Game()
    g.new()
    g.pledges(skip=("p3",))
    made = g.reveals()
    rc, _, err = made["p3"]
    p3 = g.seat("p3")
    # The sealed start p3 holds is the dealer's word: it verifies with
    # the pinned key, and the pledged line leaves p3 out.
    rcs, _ = sealed_start(p3, "p3-start.txt")
    pledged = next(x for x in p3.lines if x.startswith("pledged "))
    report("drop: p3's pledge left out of the sealed start", rc != 0,
           "seat reveal exit %d, nothing revealed" % rc, "p3", "seat reveal",
           "reveal", first_err(err), rc != 0 and rcs == 0,
           "p3's history through the sealed start verifies with the pinned "
           "key and says '%s'" % pledged)
    g.step = "deal"
    g.route(g.ask(op="start"))
    g.play()
    g.finish()
    rc0, msg0 = verify("game.camelog")
    rc1, msg1 = verify("--require=entropy", "game.camelog")
    report("drop: the game played without p3's part", rc1 != 0,
           "verify exit %d, verify --require=entropy exit %d" % (rc0, rc1),
           "any seat", "verify --require=entropy", "the end", msg1, rc1 != 0,
           "the dealer's seals over a start that leaves a keyed seat out")
    print("  verify: %s" % msg0)

    # p3's pledge written, and the pledged line naming the others only.
    shutil.rmtree("seat")
    g = Game()

    def show_hook(s, lines):
        out = []
        for ln in lines:
            if ln.startswith("pledged "):
                ln = "pledged p1,p2,p4,p5"
            if ln.startswith("seal "):
                ln = seal_line(s.lines + out)
            out.append(ln)
        return out

    g.show_hook = show_hook
    g.new()
    g.pledges()
    g.show_hook = None
    g.stop()
    p3 = g.seat("p3")
    rc, _, err = p3.round("reveal")
    found = [(s.name,) + verify("--live", s.seen) for s in g.seats]
    caught = [n for n, x, _ in found if x != 0]
    report("drop: p3's pledge written, left off the pledged line",
           rc != 0 and len(caught) == 5,
           "seat reveal exit %d; verify --live fails for %d of 5 seats" %
           (rc, len(caught)), "every seat", "verify --live, seat reveal",
           "pledged", found[2][2], len(caught) == 5,
           "the dealer's seal over a pledged line that leaves out a pledge "
           "it holds")

    shutil.rmtree("seat")
    g = Game()
    g.new()
    g.pledges()
    made = g.reveals(skip=("p3",))
    gave = made["p3"][0] == 0
    g.step = "reveal"
    g.route(g.ask(op="abandon", seat="p3"))
    g.ask(op="write", path="dropped.camelog", force=True)
    g.stop()
    rc, msg = verify("dropped.camelog")
    blamed = "p3 did not reveal" in msg
    report("drop: p3's reveal dropped, p3 blamed", gave and blamed,
           "as a claim only: p3 ran seat reveal (exit %d) and gave its "
           "value; the sealed file says it did not" % made["p3"][0],
           "p3", "verify", "reveal", msg, False,
           "the file is the dealer's word against p3's; p3's signed reveal "
           "is its own making, but p3 keeps the sealed start, so a restart "
           "after it shows (see restart)")


def shadow_role(game_id, secret, values, seat):
    """The role the deal of these values gives seat: what a seat that
    knows S computes before it reveals (a host of its own, the same id,
    S and values)."""
    p = subprocess.Popen([CAMELOG, "host", "--no-fsync"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    p.stdout.readline()
    reqs = [{"op": "new", "game": "avalon", "seats": NAMES,
             "dealer": "dealer.key", "game_id": game_id, "secret": secret}]
    reqs += [{"op": "pledge", "seat": "p%d" % k,
              "hex": pledge_of(game_id, k, values[k - 1])}
             for k in range(1, 6)]
    reqs += [{"op": "pledged"}]
    reqs += [{"op": "entropy", "seat": "p%d" % k, "hex": values[k - 1]}
             for k in range(1, 6)]
    reqs += [{"op": "start"}]
    r = None
    for q in reqs:
        p.stdin.write(json.dumps(q) + "\n")
        p.stdin.flush()
        r = json.loads(p.stdout.readline())
    p.stdin.close()
    p.wait()
    return unpad(r["deliveries"][seat][0]["value"]).split()[0][5:]


def grind():
    """p2 colludes with the dealer and knows S.  The pledges are sealed
    before any value is known, so all it can try is its own pledged
    value or none: it reveals last, computes the deal, dislikes it (it
    wants to be evil) and withholds; the dealer can only end the game
    naming p2."""
    g = Game()
    g.new()
    g.pledges()
    made = g.reveals(skip=("p2",))
    values = [made[s.name][1][0].split()[2] for s in g.seats]
    role = shadow_role(GAME_ID, SECRET, values, "p2")
    withheld = role not in EVIL
    print("grind: p2, knowing S and the other four values, computes its "
          "role: %s; it %s" % (role, "withholds its reveal" if withheld
                               else "reveals"))
    if not withheld:
        g.reveal(g.seat("p2"), made["p2"][1])
        g.stop()
        report("grind", False, "the deal suited p2", "nobody", "-", "reveal",
               "", False, "")
        return
    g.route(g.ask(op="abandon", seat="p2"))
    g.ask(op="write", path="ground.camelog", force=True)
    g.stop()
    rc, msg = verify("ground.camelog")
    rc1, msg1 = verify("--require=entropy", "ground.camelog")
    named = "p2 did not reveal" in msg
    report("grind", named,
           "the game ends 'abandoned p2', naming p2; verify exit %d, verify "
           "--require=entropy exit %d" % (rc, rc1), "every seat", "verify",
           "reveal", msg, named,
           "the dealer's seal over the abandoned line naming p2; what p2 "
           "bought is one public end, not a deal of its choice")
    print("  verify --require=entropy: %s" % msg1)


def game_value(k, game_id):
    """The fixed value of seat k for a game other than the first, so
    that the output is the same at every run."""
    return hashlib.blake2b(bytes([k]) + bytes.fromhex(game_id),
                           digest_size=32).hexdigest()


def fixed_values(seats, game_id):
    for s in seats:
        os.makedirs(s.table, exist_ok=True)
        path = os.path.join(s.table, "%s.%s.value" % (game_id, s.name))
        with open(path, "w") as f:
            f.write(game_value(s.k, game_id) + "\n")
        os.chmod(path, 0o600)


def restart():
    """The dealer deals, dislikes the deal, "crashes" and starts the
    table again under a new id and a new S; then it does it again
    without a crash: it drops p3's reveal, ends that game as if p3 had
    withheld it, and writes it.  The seats, whose table directories keep
    the sealed start of every game, see both."""
    first = Game()
    first.start()
    roles = ",".join(s.role for s in first.seats)
    first.p.kill()
    first.p.wait()
    print("restart: game %s dealt %s; the dealer kills its host and starts "
          "again" % (GAME_ID, roles))
    # The second game: every value revealed to the host, p3's dropped.
    second = "a9a1a9a1a9a1a9a1a9a1a9a1a9a1a9a1"
    fixed_values(first.seats, second)
    g = Game(secret="a7" * 32, game_id=second, seats=first.seats)
    g.new()
    made = g.pledges()
    warned = [n for n, (_, _, err) in made.items() if "started before" in err]
    print("  seat commit of game %s: %d of 5 seats warn; p1: %s" %
          (second, len(warned), first_err(made["p1"][2])))
    g.reveals(skip=("p3",))
    g.route(g.ask(op="abandon", seat="p3"))
    g.ask(op="write", path="abandoned.camelog", force=True)
    g.stop()
    hist = [history(s, "abandoned.camelog", "--state", s.table)
            for s in g.seats]
    print("  game %s written 'abandoned p3'; seat history --state: exit %s" %
          (second, ",".join(str(h[0]) for h in hist)))
    # The third game, played to the end.
    third = "a9a2a9a2a9a2a9a2a9a2a9a2a9a2a9a2"
    fixed_values(first.seats, third)
    g = Game(secret="a8" * 32, game_id=third, seats=first.seats)
    g.new()
    made = g.pledges()
    warned = [n for n, (_, _, err) in made.items() if "started before" in err]
    print("  seat commit of game %s: %d of 5 seats warn, %s times each" %
          (third, len(warned),
           made["p1"][2].count("started before")))
    g.reveals()
    g.step = "deal"
    g.route(g.ask(op="start"))
    g.play()
    g.finish()
    hist = [history(s, "game.camelog", "--state", s.table) for s in g.seats]
    print("  seat history --state: exit %s; %d of 5 seats warn; p1: %s" %
          (",".join(str(h[0]) for h in hist),
           sum("started before" in h[2] for h in hist), hist[0][1].strip()))
    for ln in hist[0][2].splitlines():
        print("  %s" % ln)
    starts = [run(CAMELOG, "seat", "starts", "--state", s.table)
              for s in g.seats]
    caught = [s.name for s, r in zip(g.seats, starts) if r[0] == 1]
    kept = [os.path.join(g.seats[0].table, "starts", i + ".camelog")
            for i in (GAME_ID, second)]
    rcs = [verify(k)[0] for k in kept]
    rck = max(rcs)
    print("  p1's seat starts: %s" % starts[0][1].strip().replace(
        "\n", "\n  "))
    print("  the starts kept, verified with the pinned key: exit %s" %
          ",".join(map(str, rcs)))
    report("restart", len(caught) == 5,
           "seat starts exits 1 for %d of 5 seats" % len(caught),
           "every seat", "seat starts", "the next game's pledge",
           first_err(starts[0][2]), rck == 0,
           "each kept start verifies with the pinned key")


def substitute():
    """The host puts another value than p3's in p3's place: through
    camelog host, then written by the dealer itself, then in p3's pledge;
    and asks p3 to sign an entropy line that is not its own."""
    g = Game()
    g.new()
    g.pledges()
    # Each seat makes its reveal; the host holds them all.
    made = g.reveals(skip=[s.name for s in g.seats])
    other = "ee" * 32
    r = g.try_ask(op="entropy", seat="p3", hex=other)
    print("substitute: camelog host given another value for p3: %s (%s)" %
          ("accepted" if r["ok"] else "refused, " + r["code"],
           r.get("reason", "")))
    g.stop()
    # p3 asked to sign the other value.
    p3 = g.seat("p3")
    rc, out, err = run(CAMELOG, "seat", "sign", "--key", p3.key,
                       "--action", "entropy p3 " + other, p3.seen,
                       "entropy p3 " + other)
    report("substitute: p3 asked to sign another value", rc != 0,
           "refused, exit %d: nothing signed" % rc, "p3", "seat sign",
           "reveal", first_err(err), False, "nothing to prove: refused")
    # The dealer writes the line itself, with the reveals of the others,
    # and seals it.
    lines = list(p3.lines)
    for s in g.seats:
        out = made[s.name][1]
        lines += ["entropy p3 " + other] if s is p3 else out
    lines.append(seal_line(lines))
    shown = lines[len(p3.lines):]
    for s in g.seats:
        s.show(shown)
    found = [(s.name,) + verify("--live", s.seen) for s in g.seats]
    caught = [n for n, rc, _ in found if rc != 0]
    report("substitute: p3's value replaced in the reveal", len(caught) == 5,
           "verify --live (as seat check runs it) fails for %d of 5 seats" %
           len(caught), "every seat", "verify --live", "reveal", found[2][2],
           len(caught) == 5,
           "the dealer's seal over a value that is not the one p3's signed "
           "pledge commits")

    # The pledge itself replaced, before the dealer seals the start.
    shutil.rmtree("seat")
    g = Game()
    g.new()
    g.step = "pledge"
    for s in g.seats:
        rc, out, err = s.round("commit")
        if s.name == "p3":
            g.route(g.ask(op="pledge", seat="p3",
                          hex=pledge_of(GAME_ID, 3, other)))
        else:
            g.pledge(s, out)
    g.route(g.ask(op="pledged"))
    made = g.reveals()
    rc, _, err = made["p3"]
    rcs, _ = sealed_start(g.seat("p3"), "p3-start.txt")
    report("substitute: p3's pledge replaced in the sealed start", rc != 0,
           "seat reveal exit %d, nothing revealed" % rc, "p3", "seat reveal",
           "reveal", first_err(err), rc != 0 and rcs == 0,
           "the sealed start verifies with the pinned key and holds a "
           "pledge of p3 that p3 did not sign")
    g.stop()


# --------------------------------------------------- the seats' signatures

def unsigned():
    """The dealer writes the first proposal, a line of the keyed leader,
    with no signature, and seals it."""
    g = Game()
    g.start()
    st = g.ask(op="state", viewer="public")["state"]
    leader = g.seat("p%d" % st["leader"])
    a = g.ask(op="state", viewer=leader.name)["state"]["actions"][0]
    size = a.split()[2].count(",") + 1
    team = sorted((leader.k - 1 + i) % 5 + 1 for i in range(size))
    line = "propose %s %s" % (leader.name, ",".join("p%d" % t for t in team))
    for s in g.seats:
        s.show([line, seal_line(s.lines + [line])])
    g.stop()
    rc0, msg0 = verify(leader.seen)
    found = [(s.name,) + verify("--require=signatures", s.seen)
             for s in g.seats]
    caught = [n for n, rc, _ in found if rc != 0]
    report("unsigned: an unsigned line for a keyed seat", len(caught) == 5,
           "verify exit %d with W-unsigned; verify --require=signatures "
           "exit 1 for %d of 5 seats" % (rc0, len(caught)), "every seat",
           "verify --require=signatures", "propose 1", found[0][2],
           len(caught) == 5,
           "the dealer's seal over a line of %s's with no signature of "
           "%s's" % (leader.name, leader.name))
    print("  verify: %s" % msg0)


def hostkey():
    """The host puts its own key (the dealer's) on p3's seat line, and
    makes p3's pledge, reveal and signatures itself."""
    g = Game()
    g.stop_on_catch = False
    g.seat_key_check = True
    p3 = g.seat("p3")
    with open("dealer.pub") as f:
        host_pub = f.read().splitlines()[1]
    seats = [{"name": NAMES[i], "key": host_pub if s is p3 else s.pub}
             for i, s in enumerate(g.seats)]
    g.route(g.ask(op="new", game="avalon", seats=seats, dealer="dealer.key",
                  game_id=GAME_ID, secret=SECRET))
    g.step = "pledge"
    own = p3.round("commit")
    # The host's value for p3, fixed as the seats' are.
    os.makedirs("host-p3", exist_ok=True)
    with open(os.path.join("host-p3", GAME_ID + ".p3.value"), "w") as f:
        f.write(game_value(3, GAME_ID) + "\n")

    def as_host(verb):
        return run(CAMELOG, "seat", verb, "--key", "dealer.key", "--state",
                   "host-p3", "--pubkey", "dealer.pub", p3.seen)

    for s in g.seats:
        if s is p3:
            out = as_host("commit")[1].splitlines()
        else:
            out = s.round("commit")[1]
        g.pledge(s, out)
    g.route(g.ask(op="pledged"))
    g.step = "reveal"
    for s in g.seats:
        out = as_host("reveal")[1].splitlines() if s is p3 else \
            s.round("reveal")[1]
        g.reveal(s, out)
    g.sign_hook = lambda s, req: s.sign(req, "dealer.key" if s is p3
                                        else None)
    g.step = "deal"
    g.route(g.ask(op="start"))
    g.play()
    g.finish()
    checks = [c for c in g.catches if c[0] == "p3"]
    rch, _, errh = history(p3, "game.camelog", "--seat-key", p3.pubfile)
    rcv, msgv = verify("--seat-key", "p3=" + p3.pubfile, "game.camelog")
    report("hostkey: the host's key on p3's seat line", own[0] != 0,
           "seat commit exit %d: p3 makes no pledge" % own[0], "p3",
           "seat commit", "pledge", first_err(own[2]), False,
           "before the sealed start nothing of the dealer's is signed")
    report("hostkey: p3's deliveries with --seat-key",
           len(checks) == p3.nd and p3.nd > 0,
           "seat check --seat-key refuses %d of %d deliveries" %
           (len(checks), p3.nd), "p3", "seat check --seat-key", "deal",
           checks[0][3] if checks else "", len(checks) > 0,
           "the dealer-signed delivery and the sealed header holding "
           "another key than p3's, against p3's key known out of band")
    report("hostkey: the final file", rch != 0 and rcv != 0,
           "seat history --seat-key exit %d, verify --seat-key exit %d" %
           (rch, rcv), "p3 and any seat", "verify --seat-key p3=KEY",
           "the end", msgv, rcv != 0,
           "the dealer's seals over the header, against p3's key pinned "
           "out of band")
    print("  seat history --seat-key: %s" % first_err(errh))


# ------------------------------------------------------------ deliveries

def withheld():
    """The host never hands p3 its deal."""
    g = Game()
    g.deliver_hook = lambda s, ds: [] if s.name == "p3" else ds
    g.start()
    g.stop()
    p3 = g.seat("p3")
    no = next(i for i, x in enumerate(p3.lines, 1)
              if x.startswith("deal p3 "))
    rc, _, err = run(CAMELOG, "seat", "check", "--pubkey", "dealer.pub",
                     "--as", "p3", p3.seen)
    report("withheld: p3's deal never delivered", False,
           "no seat command lists the deliveries due; seat check needs a "
           "delivery to check (exit %d)" % rc, "-",
           "seat check (p3 holds none)", "deal",
           "the log shows line %d, 'deal p3 <commitment>', committing a "
           "delivery p3 never got" % no, False,
           "p3 can only say that it is missing")


CHEATS = {
    "honest": honest,
    "honest-soc": lambda: honest("soc"),
    "flip": flip,
    "lie-impossible": lambda: lie(True),
    "lie-unrevealed": lambda: lie(False),
    "fork": lambda: fork("step"),
    "fork-unsealed": lambda: fork("end"),
    "frame": frame,
    "secrets": secrets,
    "lengths": lengths,
    "drop": drop,
    "grind": grind,
    "restart": restart,
    "substitute": substitute,
    "unsigned": unsigned,
    "hostkey": hostkey,
    "withheld": withheld,
    "summary": summary,
}


def main(argv):
    if not argv or argv[0] not in CHEATS:
        sys.exit(__doc__)
    CHEATS[argv[0]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
