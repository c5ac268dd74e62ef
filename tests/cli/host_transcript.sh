# host_transcript: the session of camelog-host(1), "A complete game", is
# the one the tool gives today: tests/cli/host_game.py plays it again
# (format 2: pledges, the sealed start, the values, the game; p1 keyed,
# signing its pledge and its value), and its transcript must be the
# page's display byte for byte, mdoc's escapes undone.  The file written
# verifies with the dealer's key and p1's key pinned, every keyed seat in
# the seed and every line of p1 signed.
camelog keygen --seed 5555555555555555555555555555555555555555555555555555555555555555 -o dealer >/dev/null
mkdir keys
camelog keygen --seed "$(printf "a1%.0s" $(seq 32))" -o keys/p1 >/dev/null
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/host_game.py" play g.camelog \
    --keys p1 --sign-entropy --transcript tool.txt --no-fsync
sed -n '/^\.Ss A complete game/,/^\.Ed/p' "$SRCDIR/man/man1/camelog-host.1" |
    sed -e '1,/^\.Bd -literal/d' -e '$d' -e 's/\\e/\\/g' >page.txt
if cmp -s page.txt tool.txt; then
    echo "camelog-host(1): the session is the tool's, $(wc -l <tool.txt) lines"
else
    echo "camelog-host(1): the session differs from the tool's:"
    diff page.txt tool.txt | head -n 20
fi
echo "ops: $(sed -n 's/^> {"op":"\([a-z]*\)".*/\1/p' tool.txt | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')"
camelog verify --pubkey dealer.pub --seat-key p1=keys/p1.pub \
    --require complete,entropy,signatures g.camelog
