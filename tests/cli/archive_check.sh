# archive check on a damaged archive: a stored log whose bytes changed is
# found and named; the rest still checks.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --count 3 --seed a1 -q \
    --key dealer.key -o corpus >/dev/null
camelog archive add -q games.db corpus/*.camelog
camelog archive check games.db
echo "exit $?"
cp games.db damaged.db
# Flip one byte in the middle of the first stored gzip member.
at=$(grep -obUaP '\x1f\x8b\x08\x00' damaged.db | head -n 1 | cut -d: -f1)
printf '\377' | dd of=damaged.db bs=1 seek=$((at + 200)) conv=notrunc \
    2>/dev/null
# (zlib's words for the damage depend on where the byte landed.)
camelog archive check damaged.db 2>&1 |
    sed 's/game [0-9a-f]*:/game ID:/; s/corrupt gzip data (.*)/corrupt gzip data/'
echo "exit ${PIPESTATUS[0]}"
camelog archive check --json damaged.db 2>/dev/null |
    grep -o '"ok":false,"games":3'
