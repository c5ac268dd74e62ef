# archive add killed while it works: the archive keeps every chunk stored
# before the kill and nothing of the one in progress, check passes, and
# adding again completes it.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 9 --count 1000 --seed 71 \
    --roles merlin,percival,servant,servant,servant,servant,assassin,morgana,mordred \
    --lady -q --key dealer.key -o corpus >/dev/null
camelog archive add -q games.db corpus/game-00000[1-4].camelog >/dev/null
camelog archive add -q games.db corpus/*.camelog >add.out 2>&1 &
pid=$!
# Kill it once its write-ahead log holds a change, or after a while;
# whenever the kill lands, the same must hold.
for _ in $(seq 200); do
    [ -s games.db-wal ] && break
    sleep 0.01
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
n=$(camelog archive sql games.db 'SELECT count(*) FROM game' | tail -n 1)
# 4 before the run; the run stores chunks of 256 files (the first 4 of
# them already there), so a whole number of chunks or everything.
if [ "$n" -eq 4 ] || [ $((n % 256)) -eq 0 ] || [ "$n" -eq 1000 ]; then
    echo "consistent after the kill"
else
    echo "inconsistent: $n games"
fi
camelog archive check games.db | sed 's/([0-9]* games)/(N games)/'
echo "exit ${PIPESTATUS[0]}"
camelog archive add -q games.db corpus/*.camelog | sed 's/[0-9]* added, //;
    s/[0-9]* already present, //'
camelog archive check games.db
