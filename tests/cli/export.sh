# export: one JSON object per line of the log, with its events, the
# public state and (complete logs only) the omniscient state.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
camelog export game.camelog >game.jsonl
echo "exit $?"
# One object per line of the log.
wc -l <game.jsonl
camelog cat game.camelog | wc -l
# The header, the start, the first vote and quest, the end, the last seal.
n() { camelog cat game.camelog | grep -n -m1 "$1" | cut -d: -f1; }
sed -n "1p;$(n '^start ')p;$(n '^vote ')p;$(n '^quest ')p;$(n '^end ')p;\$p" \
    game.jsonl
# --json is the same output.
camelog export --json game.camelog | cmp - game.jsonl && echo "--json: same"
echo "== in progress: no omniscient state"
camelog cat game.camelog | head -n 14 | gzip -n >progress.camelog
camelog export progress.camelog | sed -n '14p'
echo "== two files, one invalid: the valid one is exported"
zcat game.camelog | sed 's/^vote p1 no$/vote p1 yes/' | gzip -n >bad.camelog
camelog export bad.camelog progress.camelog | wc -l
echo "exit ${PIPESTATUS[0]}"
camelog export missing.camelog
echo "exit $?"
camelog export bad.camelog >/dev/null
