# import: hand-made records, one for each reason to refuse a game (a
# broken rule, a record that contradicts itself), two good games, two
# that the site's house rules change (imported with their variants) and
# one whose names camelog(5) does not allow (imported with their safe
# forms).  Nothing is written for a refused record.
ln -s "$TESTDATA/import" data
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o importer >/dev/null
camelog import --from avalongame --seed 01 --key importer.key -o games \
    data/good-*.json data/house-*.json data/map-*.json data/refuse-*.json
echo "exit $?"
ls games
camelog verify -q --pubkey importer.pub games/*.camelog
echo "exit $?"
echo "== names are quoted on the seat lines"
camelog cat games/good-5-names.camelog | grep '^seat'
echo "== names holding a control, format or invisible character: their safe form"
# A tab, U+200B, U+202E and U+0085 are written \xHH or \u{XXXX}, and a
# backslash of such a name doubled; DA\VE holds none and stays.
camelog cat games/map-names.camelog | grep '^seat'
camelog replay games/map-names.camelog | python3 -c '
import sys
t = sys.stdin.read()
print("replay: %d raw hidden characters, %d safe names" % (
    sum(t.count(c) for c in "\t\u200b\u202e\u0085"), t.count("\\u{")))'
echo "== --json names the category and the JSON path"
camelog import --from avalongame --json -q --seed 01 --key importer.key \
    -o games data/refuse-proposer.json data/refuse-two-assassins.json \
    data/refuse-unknown-player.json 2>/dev/null
echo "exit $?"
echo "== --json: an imported game names its variants"
camelog import --from avalongame --json -q --force --seed 01 \
    --key importer.key -o games data/house-assassin-morgana.json
echo "exit $?"
echo "== -q: no summary"
camelog import --from avalongame -q --seed 01 --key importer.key -o games \
    data/refuse-good-fail.json
echo "exit $?"
