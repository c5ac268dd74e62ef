# archive: add verified games, query them with filters, read-only SQL,
# statistics, export byte for byte, check.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --count 6 --seed 31 \
    --key dealer.key -o five >/dev/null
camelog simulate --game avalon --players 7 --lady --count 6 --seed 32 \
    --bot random \
    --roles merlin,percival,servant,servant,assassin,morgana,mordred \
    --created 2026-11-24T20:00:00Z --key dealer.key -o seven >/dev/null
echo "== add"
camelog archive add games.db five/*.camelog seven/*.camelog
echo "exit $?"
echo "== again: nothing changes"
camelog archive add games.db five/*.camelog
echo "exit $?"
camelog archive sql games.db "SELECT count(*) AS games,
    sum(progress = 'complete') AS complete FROM game"
echo "== query"
camelog archive query games.db --players 7
echo "exit $?"
camelog archive query games.db --player Alice --role merlin
camelog archive query games.db --since 2026-11-24 --until 2026-11-25 \
    --winner good | cut -c1-70
camelog archive query games.db --side evil --reason missed
camelog archive query games.db --player Mallory
echo "exit $?"
camelog archive query games.db --players 5 --json | head -n 1
echo "== sql"
camelog archive sql games.db "SELECT s.name, count(*) AS fails
    FROM card c JOIN seat s ON s.gid = c.gid AND s.seat = c.seat
    WHERE c.card = 'fail' GROUP BY s.name ORDER BY fails DESC, s.name"
camelog archive sql games.db --json \
    "SELECT players, count(*) AS n, NULL AS none, 0.5 AS half,
     x'00ff' AS bytes FROM game GROUP BY players"
echo "== stats"
camelog archive stats games.db
echo "exit $?"
camelog archive stats games.db --players 5 --json
echo "== export"
camelog archive export games.db --players 7 -o out
echo "exit $?"
ls out | wc -l
camelog archive export games.db -o out 2>&1 | sed 's/[0-9a-f]\{32\}/ID/' | sort -u
echo "exit ${PIPESTATUS[0]}"
camelog archive export games.db -f -o out
for f in five/*.camelog seven/*.camelog; do
    id=$(camelog cat "$f" | sed -n 's/^id //p')
    cmp "$f" "out/$id.camelog" || echo "$f differs"
done
echo "== check"
camelog archive check games.db
echo "exit $?"
camelog archive check games.db --json
