#!/usr/bin/env python3
"""tests/avalongame_figures.py - the expected figures of the avalongame
corpus, computed from the JSON records alone, without camelog: which
records are refused (they contradict themselves or the official rules, or
several seats hold the assassin flag and one of them named the target),
how many games evil wins, how often Merlin is assassinated, and how many
games use each house rule (the variants of camelog-avalon(7)).
tests/cli/import_figures.sh compares them with what camelog import,
verify and reveal say.

    avalongame_figures.py FILE...

Prints one "key value" line per figure, and "refusal FILE REASON" for
each refused record.
"""
import json
import os
import sys

EVIL = {"EVIL MINION", "ASSASSIN", "MORGANA", "MORDRED", "OBERON"}
POWER_VARIANT = {"MORGANA": "assassin-morgana", "MORDRED": "assassin-mordred",
                 "OBERON": "assassin-oberon"}
VARIANTS = ["assassin-morgana", "assassin-mordred", "assassin-oberon",
            "percival-alone", "assassin-names-evil"]


def fails_needed(n, quest):
    """The official rules: two Fail cards on the fourth quest with seven
    or more players, else one (the record's failsRequired is not used)."""
    return 2 if quest == 3 and n >= 7 else 1


def power(d):
    """The seat holding the Assassin's power: of several flags, the first
    EVIL MINION or ASSASSIN flagged in seat order, else the first seat
    flagged (camelog-import(1)); None without a flag."""
    roles = {r["name"]: r for r in d["outcome"]["roles"]}
    flagged = [roles[p["name"]] for p in d["players"]
               if roles[p["name"]]["assassin"]]
    for r in flagged:
        if r["role"] in ("EVIL MINION", "ASSASSIN"):
            return r
    return flagged[0] if flagged else None


def refusal(d):
    """Why camelog refuses the record, or None."""
    n = len(d["players"])
    roles = {r["name"]: r for r in d["outcome"]["roles"]}
    flags = [r for r in d["outcome"]["roles"] if r["assassin"]]
    if any(r["role"] not in EVIL for r in flags):
        return "the assassin flag is on a good role"
    if any(r["role"] == "ASSASSIN" and not r["assassin"] for r in roles.values()):
        return "an ASSASSIN without the flag"
    played = 0
    successes = 0
    for m in d["missions"]:
        for p in m["proposals"]:
            approved = len(p["votes"]) > n // 2
            if approved != (p["state"] == "APPROVED"):
                return "a tally against its votes"
        if m["state"] == "PENDING":
            continue
        cards = d["outcome"]["votes"][played]
        fails = sum(1 for v in cards.values() if v is False)
        if fails != m["numFails"]:
            return "numFails against the cards"
        if (fails >= fails_needed(n, played)) != (m["state"] == "FAIL"):
            return "quest %d: a result against its cards" % (played + 1)
        played += 1
        successes += m["state"] == "SUCCESS"
    merlin = any(r["role"] == "MERLIN" for r in roles.values())
    if len(flags) > 1 and merlin and successes == 3:
        return "%d seats have the assassin flag and one named the target" % len(flags)
    return None


def variants(d):
    roles = {r["name"]: r for r in d["outcome"]["roles"]}
    names = {r["role"] for r in roles.values()}
    out = set()
    holder = power(d)
    if holder and holder["role"] in POWER_VARIANT:
        out.add(POWER_VARIANT[holder["role"]])
    if "PERCIVAL" in names and "MERLIN" not in names:
        out.add("percival-alone")
    shot = d["outcome"].get("assassinated")
    if holder and shot in roles and shot != holder["name"]:
        # Every evil role but Oberon sees the others but Oberon.
        target = roles[shot]["role"]
        if target in EVIL and target != "OBERON" and holder["role"] != "OBERON":
            out.add("assassin-names-evil")
    return out


def main(files):
    figures = {"records": 0, "refused": 0, "imported": 0,
               "evil_wins": 0, "merlin_assassinated": 0}
    for v in VARIANTS:
        figures["variant " + v] = 0
    refused = []
    for f in sorted(files):
        with open(f, encoding="utf-8") as fh:
            d = json.load(fh)
        figures["records"] += 1
        why = refusal(d)
        if why is not None:
            figures["refused"] += 1
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
        print("refusal", name, why)


if __name__ == "__main__":
    main(sys.argv[1:])
