# import: the corpus's figures, computed twice.  tests/avalongame_figures.py
# reads the 53 JSON records alone (no camelog) and says which are refused
# (a quest result against the official rules; four assassin flags and an
# assassination), how many games evil wins, how often Merlin is
# assassinated and how many games use each house rule; camelog import
# --json, verify --json and reveal --json of the imported logs must give
# the same.
ln -s "$TESTDATA/avalongame" corpus
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o importer >/dev/null
echo "== the records' figures"
python3 "$SRCDIR/tests/avalongame_figures.py" corpus/*.json | tee expected
camelog import --from avalongame --json -q --seed 01 --key importer.key \
    -o games corpus/*.json >import.jsonl
echo "import exit $?"
camelog verify --json --pubkey importer.pub games/*.camelog \
    >verify.jsonl 2>/dev/null
echo "verify exit $?"
for f in games/*.camelog; do
    camelog reveal --json "$f" || echo "reveal $f failed"
done >reveal.jsonl
python3 - >actual <<'PY'
import json, os
imp = [json.loads(l) for l in open("import.jsonl")]
ver = [json.loads(l) for l in open("verify.jsonl")]
rev = [json.loads(l) for l in open("reveal.jsonl")]
names = ["assassin-morgana", "assassin-mordred", "assassin-oberon",
         "percival-alone", "assassin-names-evil"]
ok = [o for o in imp if o["imported"]]
print("records", len(imp))
print("refused", sum(1 for o in imp if not o["imported"]))
print("imported", len(ok))
print("evil_wins", sum(1 for o in ver if o["valid"] and o["winner"] == "evil"))
print("merlin_assassinated",
      sum(1 for o in rev if (o.get("assassination") or {}).get("hit")))
for v in names:
    print("variant", v, sum(1 for o in ok if v in o["variants"]))
for o in imp:
    if not o["imported"]:
        print("refusal", os.path.basename(o["file"]), o["category"])
PY
echo "== camelog agrees"
# The reasons are worded differently; the files and the counts must match.
cut -d' ' -f1-2 expected >a
cut -d' ' -f1-2 actual >b
diff a b && echo "same figures"
echo "== every variant in force is declared on the rules line"
for f in games/*.camelog; do
    camelog cat "$f" | sed -n 's/^rules .* variants=//p'
done | tr ',' '\n' | sort | uniq -c
