# replay: the public narrative, one seat's, the omniscient one; --to;
# --json; what needs a complete log.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
camelog replay game.camelog
echo "exit $?"
echo "== as p1, to line 20"
camelog replay --as p1 --to 20 game.camelog
echo "exit $?"
echo "== omniscient, lines 12 to 20"
camelog replay --omniscient --to 20 game.camelog | sed -n '1,9p'
echo "== json, to line 14"
camelog replay --json --to 14 game.camelog
echo "exit $?"
echo "== two files"
camelog cat game.camelog | head -n 16 | gzip -n >progress.camelog
camelog replay --to 13 game.camelog progress.camelog
echo "exit $?"
echo "== errors"
camelog replay --as p6 game.camelog
echo "exit $?"
camelog replay missing.camelog
echo "exit $?"
echo "== a game in progress has no seat's view, nor an omniscient one"
camelog replay --as p2 progress.camelog
echo "exit $?"
camelog replay --omniscient progress.camelog
echo "exit $?"
echo "== verbose: every vote on its own line"
camelog replay --verbose --to 24 game.camelog | tail -n 7
echo "exit $?"
echo "== a log that fails verification: replayed up to the line before"
camelog cat game.camelog | sed '51s/vote p5 yes/vote p5 no/' | gzip -n >bad.camelog
camelog replay bad.camelog | tail -n 3
echo "exit ${PIPESTATUS[0]}"
