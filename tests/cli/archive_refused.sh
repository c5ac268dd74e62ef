# archive add: a corrupt or tampered file among good ones is refused
# alone, with its line; the others are added; the worst status wins.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog keygen --seed 1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100 -o other >/dev/null
camelog simulate --game avalon --players 6 --count 4 --seed 41 \
    --key dealer.key -o ok >/dev/null
# A vote changed after the game was sealed.
zcat ok/game-000001.camelog | sed 's/^vote p2 yes$/vote p2 no/;
    s/^vote p2 no$/vote p2 yes/' | gzip -n >tampered.camelog
# Cut in the middle of its gzip stream.
head -c 300 ok/game-000002.camelog >truncated.camelog
# The reveal without its final seal: lines not covered by a seal.
zcat ok/game-000003.camelog | sed '$d' | gzip -n >unsealed.camelog
# Sealed with another key than the pinned one.
camelog simulate --game avalon --players 6 --seed 42 \
    --key other.key -o foreign.camelog >/dev/null
echo "== add"
camelog archive add games.db ok/game-000001.camelog tampered.camelog \
    truncated.camelog ok/game-000002.camelog unsealed.camelog \
    ok/game-000003.camelog
echo "exit $?"
camelog archive query games.db | cut -c1-32
echo "== pinned key"
camelog archive add games.db --pubkey dealer.pub foreign.camelog \
    ok/game-000004.camelog
echo "exit $?"
echo "== a missing file too: exit 2"
camelog archive add games.db --json missing.camelog tampered.camelog \
    ok/game-000004.camelog
echo "exit $?"
camelog archive check games.db
