# host_avalon_seats: a whole Avalon game through camelog host as a
# server runs it, every seat with its own key (so entropy, proposals,
# votes, cards and the assassination wait for signatures), every
# delivery checked by the seat it is for with camelog seat check, against
# the journal as it is when the delivery arrives, and every line that
# commits a seat's secret (its deal, its cards) delivered to that seat.
# Then the same game with the host killed (SIGKILL) after every request
# and resumed from its journal, the deliveries checked the same way: the
# file is byte-identical, and both verify with the pinned dealer key.
# (host_soc is the same for Shadows over Camelot.)
camelog keygen --seed 5555555555555555555555555555555555555555555555555555555555555555 -o dealer >/dev/null
mkdir keys
for k in 1 2 3 4 5; do
    camelog keygen --seed "$(printf "a$k%.0s" $(seq 32))" -o keys/p$k >/dev/null
done
echo "# uninterrupted"
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/host_game.py" play game.camelog \
    --journal game.journal --keys p1,p2,p3,p4,p5 --check --no-fsync
echo "exit $?"
camelog verify --pubkey dealer.pub game.camelog
camelog verify --pubkey dealer.pub game.journal
echo "# killed after every request"
mkdir crash
cd crash
ln -s ../keys keys
cp ../dealer.key ../dealer.pub .
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/host_game.py" play game.camelog \
    --journal game.journal --keys p1,p2,p3,p4,p5 --check --kill-every --no-fsync
echo "exit $?"
cmp game.camelog ../game.camelog && echo "byte-identical to the uninterrupted game"
