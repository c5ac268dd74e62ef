# host_soc: a whole Shadows over Camelot game through camelog host, each
# move the first legal action a seat's state offers; the file written
# verifies with the pinned dealer key, and so does the journal as text.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
python3 "$SRCDIR/tests/cli/host_soc.py"
echo "exit $?"
camelog verify -q --pubkey dealer.pub soc.camelog
echo "exit $?"
camelog verify -q soc.journal
echo "exit $?"
