# host: examples/host.py, a game server with five seat processes, each
# with its own key pair, signing its own lines and checking every
# delivery it receives; three wrong submissions are refused and the game
# goes on; the file written verifies with the pinned dealer key.
python3 "$SRCDIR/examples/host.py" --camelog camelog --dir work 2>stderr.txt |
    sed -e 's/^\(game over: \)[a-z]* ([a-z]*)/\1WINNER (REASON)/' \
        -e 's/\(complete, \)[0-9]* lines/\1N lines/' \
        -e 's/\(ok (complete, \)[0-9]* seals, [0-9]* sigs/\1S seals, N sigs/' \
        -e 's/; [0-9]* deliveries checked/; N deliveries checked/'
echo "exit ${PIPESTATUS[0]}"
grep -v '^camelog: request [0-9]*: ' stderr.txt || echo "stderr: the dealer's detail only"
