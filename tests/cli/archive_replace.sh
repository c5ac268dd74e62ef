# archive add: a game sealed at its end, then the same game revealed;
# the revealed log replaces the earlier one, which then changes nothing.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 8 --seed 51 \
    --roles merlin,percival,servant,servant,servant,assassin,morgana,minion \
    --key dealer.key -o complete.camelog >/dev/null
# The log as it stood before the reveal: up to the seal after `end`.
zcat complete.camelog | sed '/^reveal /,$d' | gzip -n >finished.camelog
camelog verify -q finished.camelog
camelog archive add games.db finished.camelog
camelog archive query games.db
camelog archive query games.db --json | grep -o '"progress":"[a-z_]*"'
camelog archive add games.db complete.camelog
camelog archive query games.db | cut -c1-90
camelog archive add games.db finished.camelog complete.camelog
camelog archive sql games.db 'SELECT count(*) AS games, min(progress) AS progress FROM game'
camelog archive check games.db
echo "== export gives the complete log back"
camelog archive export games.db -o out >/dev/null
cmp complete.camelog out/*.camelog && echo "same file"
