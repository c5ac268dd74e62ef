# archive audit: deals tested against uniform.  Simulated games (fixed
# seeds, random bots) pass at the 0.01 level, for Avalon (5 and 7
# players, with the Lady) and Shadows over Camelot; the imported corpus
# is audited apart.  A biased corpus (the games of a simulation where
# Alice, p1, was dealt the Assassin: a biased selection of honest deals)
# is flagged, with exit status 1.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --count 300 --seed 11 \
    --bot random -q --key dealer.key -o a5
camelog simulate --game avalon --players 7 --lady --count 300 --seed 12 \
    --bot random -q --key dealer.key -o a7
camelog simulate --game soc --players 5 --count 200 --seed 13 \
    --bot random -q --key dealer.key -o s5
ln -s "$TESTDATA/avalongame" corpus
camelog import --from avalongame -q --seed 01 --key dealer.key -o imported \
    corpus/*.json >/dev/null 2>&1
camelog archive add -q fair.db a5/*.camelog a7/*.camelog s5/*.camelog \
    imported/*.camelog
echo "== simulated games pass"
camelog archive audit fair.db
echo "exit $?"
echo "== --json: the totals, the verdicts and the first result"
camelog archive audit fair.db --json >fair.json
echo "exit $?"
sed 's/,"groups".*//' fair.json
grep -o '"verdict":"[^"]*"' fair.json
grep -o '"results":\[{[^}]*}' fair.json
echo "== filters apply"
camelog archive audit fair.db --game soc --players 5 | tail -3
echo "exit $?"
echo "== a biased corpus is flagged"
camelog simulate --game avalon --players 5 --count 500 --seed 14 \
    --bot random -q --key dealer.key -o pool
camelog archive add -q pool.db pool/*.camelog
camelog archive export pool.db --player Alice --role assassin -o biased \
    >/dev/null
camelog archive add -q bias.db biased/*.camelog
camelog archive audit bias.db
echo "exit $?"
camelog archive audit bias.db --json | grep -o '"flagged":[0-9]*,'
echo "== usage and I/O"
camelog archive audit
echo "exit $?"
camelog archive audit fair.db --svg x.svg
echo "exit $?"
camelog archive audit fair.db --role merlim
echo "exit $?"
