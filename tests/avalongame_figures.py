#!/usr/bin/env python3
"""tests/avalongame_figures.py - the expected figures of the avalongame
corpus, computed from the JSON records alone, without camelog: which
records contradict themselves, how many games evil wins, how often Merlin
is assassinated, and how many games use each house rule (the variants of
camelog-avalon(7)).  tests/cli/import_figures.sh compares them with what
camelog import, verify and reveal say.

    avalongame_figures.py FILE.json...

Prints one "key value" line per figure, and "contradiction FILE REASON"
for each refused record.
"""
import json
import os
import sys

EVIL = {"EVIL MINION", "ASSASSIN", "MORGANA", "MORDRED", "OBERON"}
POWER_VARIANT = {"MORGANA": "assassin-morgana", "MORDRED": "assassin-mordred",
                 "OBERON": "assassin-oberon"}
VARIANTS = ["assassin-morgana", "assassin-mordred", "assassin-oberon",
            "percival-alone", "assassin-names-evil"]


def contradiction(d):
    """Why the record contradicts itself, or None."""
    n = len(d["players"])
    roles = {r["name"]: r for r in d["outcome"]["roles"]}
    flags = [r for r in d["outcome"]["roles"] if r["assassin"]]
    if len(flags) > 1:
        return "%d seats have the assassin flag" % len(flags)
    if flags and flags[0]["role"] not in EVIL:
        return "the assassin flag is on a good role"
    if any(r["role"] == "ASSASSIN" and not r["assassin"] for r in roles.values()):
        return "an ASSASSIN without the flag"
    played = 0
    for m in d["missions"]:
        for p in m["proposals"]:
            approved = len(p["votes"]) > n // 2
            if approved != (p["state"] == "APPROVED"):
                return "a tally against its votes"
        if m["state"] == "PENDING":
            continue
        cards = d["outcome"]["votes"][played]
        played += 1
        fails = sum(1 for v in cards.values() if v is False)
        if fails != m["numFails"]:
            return "numFails against the cards"
        if (fails >= m["failsRequired"]) != (m["state"] == "FAIL"):
            return "a quest result against its cards"
    return None


def variants(d):
    roles = {r["name"]: r for r in d["outcome"]["roles"]}
    names = {r["role"] for r in roles.values()}
    out = set()
    flag = [r for r in roles.values() if r["assassin"]]
    if flag and flag[0]["role"] in POWER_VARIANT:
        out.add(POWER_VARIANT[flag[0]["role"]])
    if "PERCIVAL" in names and "MERLIN" not in names:
        out.add("percival-alone")
    shot = d["outcome"].get("assassinated")
    if flag and shot in roles and shot != flag[0]["name"]:
        # Every evil role but Oberon sees the others but Oberon.
        target = roles[shot]["role"]
        if target in EVIL and target != "OBERON" and flag[0]["role"] != "OBERON":
            out.add("assassin-names-evil")
    return out


def main(files):
    figures = {"records": 0, "contradictory": 0, "imported": 0,
               "evil_wins": 0, "merlin_assassinated": 0}
    for v in VARIANTS:
        figures["variant " + v] = 0
    refused = []
    for f in sorted(files):
        with open(f, encoding="utf-8") as fh:
            d = json.load(fh)
        figures["records"] += 1
        why = contradiction(d)
        if why is not None:
            figures["contradictory"] += 1
            refused.append((os.path.basename(f), why))
            continue
        figures["imported"] += 1
        o = d["outcome"]
        if o["state"] == "EVIL_WIN":
            figures["evil_wins"] += 1
        roles = {r["name"]: r["role"] for r in o["roles"]}
        if roles.get(o.get("assassinated")) == "MERLIN":
            figures["merlin_assassinated"] += 1
        for v in variants(d):
            figures["variant " + v] += 1
    for k, v in figures.items():
        print(k, v)
    for name, why in refused:
        print("contradiction", name, why)


if __name__ == "__main__":
    main(sys.argv[1:])
