# corpus: a small corpus, kept games and manifest; the same arguments
# give byte-identical corpora, with one thread or two; the per-step
# digests of the manifest are recomputed from camelog export alone (python3, hashlib.blake2b); verify
# --coverage agrees with the manifest's table; usage errors.
camelog corpus -q -k 1 --max-games 12 -j 1 -o a
echo "exit $?"
camelog corpus -q -k 1 --max-games 12 -j 2 -o b
same=yes
for f in a/*; do
    cmp -s "$f" "b/${f#a/}" || same=no
done
[ "$(ls a | wc -l)" = "$(ls b | wc -l)" ] || same=no
echo "byte-identical: $same"
camelog corpus -q -k 1 --max-games 12 --seed 01 -o c >/dev/null
cmp -s a/manifest.json c/manifest.json || echo "another seed, another corpus"
# An existing manifest is kept without --force.
camelog corpus -q -k 1 --max-games 1 -o a
echo "exit $?"
sed -n '1,2p' a/manifest.txt
grep -c '^avalon-\|^soc-' a/manifest.txt
# Every digest, from the export.
for f in a/*.camelog; do
    camelog export "$f" >"${f%.camelog}.jsonl" || echo "export failed: $f"
done
python3 - a <<'PY'
import hashlib, json, sys
d = sys.argv[1]
m = json.load(open(d + "/manifest.json"))
bad = steps = 0
for f in m["files"]:
    lines = [json.loads(l) for l in open(d + "/" + f["file"][:-8] + ".jsonl")]
    got = [hashlib.blake2b(json.dumps(l["public"], separators=(",", ":"),
                                      ensure_ascii=False).encode(),
                           digest_size=32).hexdigest() for l in lines]
    steps += len(got)
    if got != f["digests"] or len(got) != f["lines"]:
        bad += 1
print("files %d, digests %s" % (len(m["files"]), "all match" if bad == 0 and steps > 0 else "%d files differ" % bad))
ids = {t["coverage"]: {e["id"]: e["games"] for e in t["ids"]} for t in m["coverage"]}
for f in m["files"]:
    for i in f["ids"]:
        ids[f["game"]][i] -= 1
print("coverage table = sum of the files' ids:",
      all(v == 0 for t in ids.values() for v in t.values()))
PY
camelog verify -q --coverage --json a/*.camelog 2>/dev/null | python3 -c '
import json, sys
m = json.load(open("a/manifest.json"))
want = {t["coverage"]: [e["games"] for e in t["ids"]] for t in m["coverage"]}
got = {}
for l in sys.stdin:
    o = json.loads(l)
    if "coverage" in o:
        got[o["coverage"]] = [e["games"] for e in o["ids"]]
print("verify --coverage = manifest:", got == want)'
camelog verify -q --coverage a/avalon-0001.camelog 2>/dev/null | sed -n '2,3p'
# The default corpus: every id that is not unreachable has k = 3 kept
# games, abandoned games among them, and each abandoned game verifies
# as one.
camelog corpus -q -o full
python3 - full <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
for t in m["coverage"]:
    short = [e["id"] for e in t["ids"] if not e["unreachable"] and e["games"] < m["k"]]
    off = [e["id"] for e in t["ids"] if e["unreachable"]]
    print("%s: %d ids, below k: %s, unreachable: %s" % (t["coverage"], len(t["ids"]),
          " ".join(short) or "none", " ".join(off) or "none"))
bots = sorted(set(f["bot"] for f in m["files"]))
print("bots:", " ".join(bots))
# Every interpretation of camelog-soc(7) (S-nn) and camelog-avalon(7)
# (A-nn) is an id of the table, exercised k times or unreachable.
import os, re
top = os.environ["SRCDIR"]
for page, game, prefix in (("camelog-soc.7", "soc", "soc."),
                           ("camelog-avalon.7", "avalon", "av.")):
    text = open(top + "/man/man7/" + page).read()
    want = re.findall(r"^\.It ([SA]-[0-9][0-9])$", text, re.M)
    t = [x for x in m["coverage"] if x["coverage"] == game][0]
    have = {e["id"]: e for e in t["ids"]}
    missing = [w for w in want if prefix + w not in have]
    short = [w for w in want if prefix + w in have and
             not have[prefix + w]["unreachable"] and
             have[prefix + w]["games"] < m["k"]]
    print("%s: %d rule ids, not in the table: %s, below k: %s" %
          (page, len(want), " ".join(missing) or "none",
           " ".join(short) or "none"))
    if missing or short:
        sys.exit(1)
PY
echo "rule ids: exit $?"
n=0 ok=0
for f in $(awk -F'\t' '$6 == "aborted" { print $1 }' full/manifest.txt); do
    n=$((n + 1))
    camelog verify -q --json "full/$f" 2>/dev/null |
        grep -q '"reason":"aborted"' && ok=$((ok + 1))
done
echo "abandoned games: $n, verified as abandoned: $ok"
# Usage.
camelog corpus -k 0 -o x
echo "exit $?"
camelog corpus --game chess -o x
echo "exit $?"
camelog corpus -k 1
echo "exit $?"
