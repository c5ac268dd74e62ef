# The dataset's figures through the archive: import the corpus directory,
# add the logs to an archive, and archive stats --json must give the games,
# evil's wins and the Merlins assassinated that tests/avalongame_figures.py
# computes from the JSON records alone, the records refused aside (the
# import summary names them).  Then the
# variant filters split the same games, and --top, --min-games and
# --limit cut the lists.
ln -s "$TESTDATA/avalongame" corpus
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o importer >/dev/null
echo "== the records' figures"
python3 "$SRCDIR/tests/avalongame_figures.py" corpus/*.json >expected
grep -E '^(records|refused|imported|evil_wins|merlin_assassinated) |^refusal ' expected
echo "== import, add, stats"
# -q: what import says is the refused records, named (on stderr).
camelog import --from avalongame -q --seed 01 --key importer.key \
    -o games corpus/*.json >/dev/null
echo "import exit $?"
camelog archive add -q --pubkey importer.pub games.db games/*.camelog
echo "add exit $?"
camelog archive stats games.db --json >stats.json
echo "stats exit $?"
python3 - <<'PY'
import json
want = {}
for line in open("expected"):
    k, _, v = line.strip().partition(" ")
    want.setdefault(k, v)
s = json.load(open("stats.json"))
a = s["avalon"]
got = {"imported": a["games"], "evil_wins": a["evil"],
       "merlin_assassinated": a["hits"]}
for k, v in got.items():
    print(k, v, "same" if str(v) == want[k] else "DIFFERENT from " + want[k])
print("games", s["games"], "=", int(want["records"]) - int(want["refused"]),
      "records - refused")
print("variants", s["variants"], "games with house rules")
PY
echo "== --official and --variant split the games"
camelog archive stats games.db --official | head -1
camelog archive stats games.db --variant assassin-mordred | head -1
camelog archive stats games.db --variant assassin-mordred --variant percival-alone | head -1
camelog archive query games.db --variant percival-alone --json |
    python3 -c 'import json,sys; [print(o["source_id"], o["variants"]) for o in map(json.loads, sys.stdin)]'
camelog archive query games.db --official --variant percival-alone
echo "exit $?"
camelog archive query games.db --variant assassin-names-good
echo "exit $?"
echo "== --top, --min-games, --limit"
camelog archive stats games.db | sed -n '/^players/,$p' | tail -2
camelog archive stats games.db --top 3 | sed -n '/^players/,$p'
camelog archive stats games.db --top 0 --json | python3 -c 'import json,sys; a=json.load(sys.stdin)["avalon"]; print(len(a["records"]), a["records_total"])'
camelog archive stats games.db --top 0 --min-games 5 --json | python3 -c 'import json,sys; a=json.load(sys.stdin)["avalon"]; print(len(a["records"]), min(r["games"] for r in a["records"]))'
camelog archive query games.db --limit 2 | wc -l
camelog archive query games.db --top 2
echo "exit $?"
