# host_soc: whole Shadows over Camelot games through camelog host, every
# seat with its own key, each move the first legal action a seat's state
# offers (a move that hands cards over first).  Every delivery is checked
# by the seat it is for, with camelog seat check, as it arrives; every
# line that hands cards over (King Arthur's exchange and the card back,
# the Messenger's gift) reaches its author and its receiver.  The files
# written verify with the pinned dealer key, and so do the journals as
# text.  The first game is played again with the host killed (SIGKILL)
# after every request and resumed, every delivery checked the same way:
# the file is byte-identical; and again with every line signed by
# `camelog seat sign --action`, as a seat signs what it chose:
# byte-identical too.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
mkdir keys
for k in 1 2 3 4; do
    camelog keygen --seed "$(printf "b$k%.0s" $(seq 32))" -o keys/p$k >/dev/null
done
echo "# a game with King Arthur's exchanges and a Messenger"
python3 "$SRCDIR/tests/cli/host_soc.py" play soc.camelog --keys --check \
    --seed 9999999999999999999999999999999999999999999999999999999999999999
echo "exit $?"
echo "messenger lines: $(grep -c ' messenger ' soc.camelog.journal)," \
    "exchanges: $(grep -c '^swap p[0-9]* p' soc.camelog.journal)"
camelog verify -q --pubkey dealer.pub soc.camelog
camelog verify -q --pubkey dealer.pub soc.camelog.journal
echo "# the same game, killed after every request"
mkdir crash
cd crash
ln -s ../keys keys
cp ../dealer.key ../dealer.pub .
python3 "$SRCDIR/tests/cli/host_soc.py" play soc.camelog --keys --check --kill-every \
    --seed 9999999999999999999999999999999999999999999999999999999999999999
echo "exit $?"
cmp soc.camelog ../soc.camelog && echo "byte-identical to the uninterrupted game"
cd ..
echo "# the same game, each line signed by its seat with camelog seat sign"
echo "# --action from the journal and its own choice (a secret choice with"
echo "# its sign request's label and nonce)"
mkdir informed
cd informed
ln -s ../keys keys
cp ../dealer.key ../dealer.pub .
python3 "$SRCDIR/tests/cli/host_soc.py" play soc.camelog --keys --check \
    --informed \
    --seed 9999999999999999999999999999999999999999999999999999999999999999
echo "exit $?"
cmp soc.camelog ../soc.camelog && echo "byte-identical to the game signed over the host's messages"
