# archive add from two processes at once, over overlapping sets of
# files: nothing is lost and nothing is stored twice.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 6 --count 600 --seed 81 -q \
    --key dealer.key -o corpus >/dev/null
camelog archive add -q games.db corpus/game-000[0-3]*.camelog >a.out 2>&1 &
a=$!
camelog archive add -q games.db corpus/game-000[2-6]*.camelog >b.out 2>&1 &
b=$!
wait "$a"
echo "first: exit $?"
wait "$b"
echo "second: exit $?"
cat a.out b.out | grep -v ' added, '
camelog archive sql games.db 'SELECT count(*) AS games,
    count(DISTINCT id) AS ids FROM game'
camelog archive check games.db
