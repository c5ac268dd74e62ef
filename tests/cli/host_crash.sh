# host: a crash loses nothing.  A whole 5-seat game, every seat with a key
# (so entropy, proposals, votes, cards and the assassination all wait for
# signatures), is played once without interruption; then once for every
# request N of that game (every request, not a sample): the host is
# killed with SIGKILL right after its response to request N, a new host
# resumes from the journal and the game goes on.  Each final file is
# byte-identical to the uninterrupted one, which verifies with the
# pinned key.  The journal is fsynced as in production (the fsync is for
# a crash of the machine, which a test cannot make; a killed process
# loses nothing the kernel holds either way).
camelog keygen --seed 5555555555555555555555555555555555555555555555555555555555555555 -o dealer >/dev/null
mkdir keys
for k in 1 2 3 4 5; do
    camelog keygen --seed "$(printf "a$k%.0s" $(seq 32))" -o keys/p$k >/dev/null
done
CAMELOG_BIN=camelog python3 "$SRCDIR/tests/cli/host_game.py" crash-all game.camelog \
    --keys p1,p2,p3,p4,p5
echo "exit $?"
camelog verify --pubkey dealer.pub game.camelog
camelog verify --pubkey dealer.pub ref.journal
