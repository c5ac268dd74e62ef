# archive: usage errors (exit 2), statements sql refuses (exit 2),
# databases that are not archives (exit 1).
camelog archive
echo "exit $?"
camelog archive frobnicate games.db
echo "exit $?"
camelog archive add
echo "exit $?"
camelog archive add games.db
echo "exit $?"
camelog archive add games.db --player Alice x.camelog
echo "exit $?"
camelog archive query games.db --players 0
echo "exit $?"
camelog archive query games.db --bogus
echo "exit $?"
camelog archive sql games.db
echo "exit $?"
camelog archive export games.db
echo "exit $?"
camelog archive check games.db extra
echo "exit $?"
echo "== no archive yet"
camelog archive query games.db
echo "exit $?"
camelog archive audit games.db
echo "exit $?"
ls
echo "== an empty archive"
camelog archive add games.db 2>/dev/null
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 61 \
    --key dealer.key -o game.camelog >/dev/null
camelog archive add -q games.db game.camelog
camelog archive query games.db --since yesterday
echo "exit $?"
camelog archive stats games.db --id XYZ
echo "exit $?"
echo "== sql: one statement that reads"
camelog archive sql games.db 'DELETE FROM game'
echo "exit $?"
camelog archive sql games.db 'UPDATE seat SET role = NULL'
echo "exit $?"
camelog archive sql games.db "ATTACH 'x.db' AS x"
echo "exit $?"
camelog archive sql games.db 'PRAGMA user_version = 0'
echo "exit $?"
camelog archive sql games.db 'SELECT 1; SELECT 2'
echo "exit $?"
camelog archive sql games.db 'SELECT nothing FROM nowhere'
echo "exit $?"
camelog archive sql games.db 'PRAGMA user_version'
echo "exit $?"
ls
echo "== not an archive"
echo "hello" >text.db
camelog archive query text.db
echo "exit $?"
camelog archive add text.db game.camelog
echo "exit $?"
