# diff: the first line where two logs diverge; exit 0 identical, 1
# different, 2 on error.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
camelog simulate --game avalon --players 5 --seed 06 \
    --key dealer.key -o other.camelog >/dev/null
echo "== identical texts (compressed bytes differ)"
camelog cat game.camelog | gzip -9 -n >recompressed.camelog
cmp -s game.camelog recompressed.camelog || echo "the files differ"
camelog diff game.camelog recompressed.camelog
echo "exit $?"
camelog diff --json game.camelog recompressed.camelog
echo "exit $?"
echo "== a game and its beginning"
camelog cat game.camelog | head -n 30 | gzip -n >progress.camelog
camelog diff game.camelog progress.camelog
echo "exit $?"
camelog diff --json progress.camelog game.camelog
echo "exit $?"
echo "== two versions of one game: one vote differs (only the first verifies)"
zcat game.camelog | sed 's/^vote p3 yes$/vote p3 no/' | gzip -n >changed.camelog
camelog diff game.camelog changed.camelog
echo "exit $?"
echo "== two games"
camelog diff game.camelog other.camelog
echo "exit $?"
echo "== errors"
camelog diff game.camelog missing.camelog
echo "exit $?"
echo hello >text.camelog
camelog diff text.camelog game.camelog
