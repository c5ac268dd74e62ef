#!/usr/bin/env python3
"""bench/host_cost.py - what format 2 costs a host (BENCHMARKS.md).

    python3 bench/host_cost.py CAMELOG [GAMES] [-- HOST-OPTIONS ...]

Plays GAMES (default 20) five-seat games of Avalon through `camelog host`
with a journal, the policy of tests/cli/host_game.py (the leader takes
itself and the seats after it, everybody approves, every card is a
success), no seat keyed, for each set of host options: the default sets
are --seal=end and --seal=step, each with and without --no-fsync (the
options of a camelog before format 2 are given after --).  The seed
is taken as the host's format asks (its header's first line): format 2
in two rounds (every pledge, pledged, every value), format 1 in one.
Prints the format, the requests and the actions (act requests) a
second (wall time, so the fsyncs count) and, per game, the requests,
the actions, the lines, and the bytes of the file, the journal and its
secrets file.  Runs in a temporary directory.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time


def game(camelog, args, gid):
    for f in ("g.journal", "g.journal.secrets", "g.camelog"):
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.Popen([camelog, "host", *args], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    p.stdout.readline()
    n = [0]

    nact = [0]

    def ask(**r):
        n[0] += 1
        nact[0] += r["op"] == "act"
        p.stdin.write(json.dumps(r) + "\n")
        p.stdin.flush()
        x = json.loads(p.stdout.readline())
        if not x["ok"]:
            sys.exit("host_cost: refused: %s" % x)
        return x

    game_id = "%032x" % gid
    r = ask(op="new", game="avalon", seats=["A", "B", "C", "D", "E"],
            dealer="dealer.key", journal="g.journal", game_id=game_id,
            secret="%064x" % (gid + 7))
    version = int(r["lines"][0].split()[1])
    if version >= 2:
        # Format 2's seed in two rounds: every pledge, the sealed start,
        # then every value.
        for k in range(1, 6):
            ask(op="pledge", seat="p%d" % k,
                hex=pledge(game_id, k, ("%02x" % k) * 32))
        ask(op="pledged")
    for k in range(1, 6):
        ask(op="entropy", seat="p%d" % k, hex=("%02x" % k) * 32)
    ask(op="start")
    queued = set()
    while True:
        st = ask(op="state", viewer="public")["state"]
        if st["winner"]:
            break
        acting = ["p%d" % k for k in st["seats"]] \
            if st["act"] in ("seat", "step") else \
            ["p%d" % k for k in range(1, 6)]
        for s in acting:
            if s in queued:
                continue
            acts = ask(op="state", viewer=s)["state"]["actions"]
            if not acts:
                continue
            a = acts[0]
            if a.startswith("propose "):
                size = a.split()[2].count(",") + 1
                k = int(s[1:])
                team = sorted((k - 1 + i) % 5 + 1 for i in range(size))
                a = "propose %s %s" % (s, ",".join("p%d" % t for t in team))
            else:
                for w in ("yes", "success"):
                    a = next((x for x in acts if x.endswith(" " + w)), a)
            r = ask(op="act", seat=s, action=a)
            queued = set() if r["lines"] else queued | {s}
            break
    ask(op="reveal")
    w = ask(op="write", path="g.camelog")
    p.stdin.close()
    p.wait()
    return (n[0], w["total"], os.path.getsize("g.camelog"),
            os.path.getsize("g.journal"), os.path.getsize("g.journal.secrets"),
            nact[0], version)


def pledge(game_id, k, value_hex):
    """A seat's pledge of its value (camelog(5), Entropy)."""
    return hashlib.blake2b(b"camelog pledge" + bytes.fromhex(game_id) +
                           bytes([k]) + bytes.fromhex(value_hex),
                           digest_size=32).hexdigest()


def main(argv):
    camelog = os.path.abspath(argv[0])
    games = int(argv[1]) if len(argv) > 1 and argv[1] != "--" else 20
    sets = [["--seal=end", "--no-fsync"], ["--seal=step", "--no-fsync"],
            ["--seal=end"], ["--seal=step"]]
    if "--" in argv:
        sets = [argv[argv.index("--") + 1:]]
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)
        subprocess.run([camelog, "keygen", "-o", "dealer"], check=True,
                       capture_output=True)
        for args in sets:
            t = time.time()
            tot = [0] * 6
            for g in range(games):
                one = game(camelog, args, g)
                version = one[6]
                tot = [a + b for a, b in zip(tot, one[:6])]
            dt = time.time() - t
            print("format %d %-20s %5.0f requests/s, %4.0f actions/s; a "
                  "game: %.1f requests, %.1f actions, %.1f lines, %.0f "
                  "bytes of file, %.0f of journal, %.0f of secrets" %
                  (version, " ".join(args) or "(none)", tot[0] / dt,
                   tot[5] / dt, tot[0] / games, tot[5] / games,
                   tot[1] / games, tot[2] / games, tot[3] / games,
                   tot[4] / games))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
