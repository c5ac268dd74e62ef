#!/usr/bin/env python3
"""host_soc.py - a whole Shadows over Camelot game through `camelog host`:
each seat's state (viewer pK) offers its legal actions in private form,
and the seat that has one plays the first; the game is then revealed and
written.  Prints what a test can compare: every refusal (there should be
none), the number of actions, the end, and the replies of reveal and
write."""
import json
import subprocess
import sys

SEATS = ["Alice", "Bob", "Carol", "Dave"]


def main():
    host = subprocess.Popen(["camelog", "host", "--no-fsync"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)

    def req(o):
        host.stdin.write(json.dumps(o) + "\n")
        host.stdin.flush()
        line = host.stdout.readline()
        if not line:
            sys.exit("the host died at %s" % json.dumps(o))
        return json.loads(line)

    host.stdout.readline()  # hello
    r = req({"op": "new", "game": "soc", "seats": SEATS,
             "dealer": "dealer.key", "journal": "soc.journal",
             "game_id": "0123456789abcdef0123456789abcdef",
             "secret": "11" * 32})
    print("new", r["ok"])
    print("start", req({"op": "start"})["ok"])
    acted = 0
    while True:
        actions, state = [], None
        for k in range(1, len(SEATS) + 1):
            state = req({"op": "state", "viewer": "p%d" % k})["state"]
            actions += state.get("actions") or []
        if state.get("winner") or not actions:
            break
        a = actions[0]
        r = req({"op": "act", "seat": a.split()[1], "action": a})
        if not r["ok"]:
            print("refused", a, r["code"], r["reason"])
            break
        acted += 1
    print("actions", acted, "end", state.get("winner"), state.get("reason"))
    print("reveal", req({"op": "reveal"})["ok"])
    print("write", req({"op": "write", "path": "soc.camelog"})["ok"])
    host.stdin.close()
    return host.wait()


if __name__ == "__main__":
    sys.exit(main())
