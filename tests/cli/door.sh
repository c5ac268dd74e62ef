# door: a game is one folder and struct rpl__game its only door.  The
# test-only game coin (tests/games/coin/) is registered in the test
# build alone: $CAMELOG_TEST_BIN (make passes $(B)/tests) holds
# camelog-games (the tools with the test registry, simulate included) and
# games-record (a seeded recorder on the public API alone).
bin=${CAMELOG_TEST_BIN:-$SRCDIR/build/tests}
games=$bin/camelog-games
record=$bin/games-record
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
echo "== record"
"$record" coin 3 "players=3 rounds=3" 0d00 dealer.key coin.camelog
echo "exit $?"
"$record" coin 4 "players=4 rounds=2" 0d01 dealer.key signed.camelog sigs
echo "exit $?"
"$games" cat coin.camelog | sed -n '4p;11,16p;27,30p'
echo "== verify"
"$games" verify --pubkey dealer.pub coin.camelog signed.camelog
echo "exit $?"
"$games" verify --json coin.camelog
echo "== replay"
"$games" replay coin.camelog
echo "exit $?"
"$games" replay --as p2 coin.camelog | head -n 5
echo "== reveal"
"$games" reveal coin.camelog
echo "exit $?"
"$games" reveal --json coin.camelog
echo "== export"
"$games" export coin.camelog | sed -n '13p;27p'
echo "exit ${PIPESTATUS[0]}"
echo "== step"
printf 'j 15\nv\nv p1\nq\n' | "$games" step coin.camelog
echo "exit $?"
echo "== diff"
"$games" diff coin.camelog coin.camelog
echo "exit $?"
"$games" diff coin.camelog signed.camelog | head -n 3
echo "== in progress"
"$games" cat coin.camelog | head -n 14 | gzip -n >progress.camelog
"$games" verify progress.camelog
echo "exit $?"
"$games" replay progress.camelog | tail -n 3
"$games" replay --as p1 progress.camelog
echo "exit $?"
"$games" reveal progress.camelog
echo "exit $?"
echo "== lies the reveal and the opens catch"
"$games" cat coin.camelog | sed 's/^flip 1 tails right=none$/flip 1 tails right=p1/' >right.txt
"$games" pack --key dealer.key right.txt -o right.camelog
echo "exit $?"
"$games" cat coin.camelog | sed 's/^flip 2 heads /flip 2 tails /' >coin.txt
"$games" pack --key dealer.key coin.txt -o lie.camelog
echo "exit $?"
echo "== archive"
"$games" archive add games.db coin.camelog signed.camelog
echo "exit $?"
"$games" archive query games.db --game coin
echo "exit $?"
"$games" archive query games.db --winner p1 --json
"$games" archive sql games.db "SELECT g.game, g.players, g.rounds,
    g.progress, g.winner, g.reason, r.key, r.value
    FROM game g JOIN rule r USING (gid) ORDER BY g.players, r.key"
"$games" archive check games.db
echo "exit $?"
echo "== the production build does not know coin"
camelog simulate --game coin --players 3 --rules "players=3 rounds=3" \
    --seed 01 --key dealer.key -o refused.camelog
echo "exit $?"
camelog verify coin.camelog
echo "exit $?"
camelog archive add prod.db coin.camelog
echo "exit $?"
for f in "$bin/../camelog" "$bin/../libreplay.a" "$bin/../libreplay.so.0" \
    "$games" "$record"; do
    syms=$(nm "$f" 2>/dev/null)
    has() { printf '%s\n' "$syms" | grep -q " rpl__$1\$" && echo yes || echo no; }
    echo "$(basename "$f"): avalon $(has avalon), coin $(has coin)"
done
echo "== camelog-games simulates coin and the production games"
"$games" simulate --game coin --players 3 --seed 01 --key dealer.key \
    -o simulated.camelog
echo "exit $?"
"$games" verify simulated.camelog
"$games" reveal simulated.camelog | tail -3
"$games" simulate --game avalon --players 5 --seed 05 -q \
    --key dealer.key -o avalon.camelog
"$games" verify avalon.camelog
