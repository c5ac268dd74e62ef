#!/usr/bin/env python3
"""tests/cli/restarting_host.py - a game server that cheats: it drives
`camelog host --tlog LOG` through GAMES games of 5-seat Avalon and, unless
--honest, restarts every deal it dislikes (one where its friend, seat p1,
is not on the evil side) under a new game id: two times in three it
aborts the game and writes it (the log's end says abandoned by the
dealer), else it drops the game unwritten (the log has its start and no
end).  The deals it likes are played to the end, revealed and written to
OUT/<id>.camelog with the aborted ones.  Not a test itself
(tests/cli/run.sh runs *.sh only).

    restarting_host.py DEALER_KEY LOG OUT GAMES [--honest] [--seed N]

The game ids, dealer secrets and entropy come from a generator seeded
with N, so the same call writes the same log.  Prints one line per game
started and the counts.
"""
import json
import os
import random
import subprocess
import sys

from host_game import pledge

CAMELOG = os.environ.get("CAMELOG_BIN", "camelog")
NAMES = ["Mallory", "Bob", "Carol", "Dave", "Erin"]
EVIL = {"assassin", "minion", "morgana", "mordred", "oberon"}


class Host:
    def __init__(self, log):
        self.p = subprocess.Popen([CAMELOG, "host", "--no-fsync", "--tlog", log],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)
        self.p.stdout.readline()  # hello

    def ask(self, **req):
        self.p.stdin.write(json.dumps(req) + "\n")
        self.p.stdin.flush()
        r = json.loads(self.p.stdout.readline())
        if not r["ok"]:
            sys.exit("restarting_host: refused: %s" % json.dumps(r))
        return r

    def close(self):
        self.p.stdin.close()
        return self.p.wait()


def play_out(host):
    """Plays the game to its end line: the leader proposes itself and the
    seats after it, everybody approves, every card is a success."""
    queued = set()
    for _ in range(1000):
        st = host.ask(op="state", viewer="public")["state"]
        if st["winner"]:
            return
        acting = ["p%d" % k for k in st["seats"]] \
            if st["act"] in ("seat", "step") else \
            ["p%d" % k for k in range(1, 6)]
        for seat in acting:
            if seat in queued:
                continue
            acts = host.ask(op="state", viewer=seat)["state"]["actions"]
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
            r = host.ask(op="act", seat=seat, action=a)
            queued = set() if r["lines"] else queued | {seat}
            break
    sys.exit("restarting_host: the game did not end")


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    dealer, log, out, games = argv[0], argv[1], argv[2], int(argv[3])
    honest = "--honest" in argv
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    played = aborted = dropped = 0
    while played < games:
        gid = "%032x" % rng.getrandbits(128)
        host = Host(log)
        host.ask(op="new", game="avalon", seats=NAMES, dealer=dealer,
                 game_id=gid, secret="%064x" % rng.getrandbits(256))
        # camelog(5) "Entropy": every pledge, the sealed start, then
        # every value.
        values = ["%064x" % rng.getrandbits(256) for _ in range(5)]
        for k, v in enumerate(values, 1):
            host.ask(op="pledge", seat="p%d" % k, hex=pledge(gid, k, v))
        host.ask(op="pledged")
        for k, v in enumerate(values, 1):
            host.ask(op="entropy", seat="p%d" % k, hex=v)
        deal = host.ask(op="start")["deliveries"]["p1"][0]["value"]
        role = deal.split()[0].split("=")[1]
        path = os.path.join(out, gid + ".camelog")
        if not honest and role not in EVIL:
            if rng.randrange(3) < 2:
                host.ask(op="abort")
                host.ask(op="write", path=path)
                aborted += 1
                print("%s: p1 is %s: aborted" % (gid, role))
            else:
                dropped += 1
                print("%s: p1 is %s: dropped" % (gid, role))
            host.close()
            continue
        play_out(host)
        host.ask(op="reveal")
        host.ask(op="write", path=path)
        host.close()
        played += 1
        print("%s: p1 is %s: played" % (gid, role))
    print("%d played, %d aborted, %d dropped" % (played, aborted, dropped))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
