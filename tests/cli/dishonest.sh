# dishonest: a dishonest host and dealer (tests/cli/dishonest_host.py, a
# test double that runs camelog host and holds the dealer's key) against
# five honest seats, each keyed, that use only camelog seat, verify and
# diff.  For each cheat: caught or not, by which seat and command, at
# which step, with which message, and whether the evidence is a proof
# (something the catching seat could not have made itself); then the
# table of every verdict, computed from the runs.
bin=${CAMELOG_TEST_BIN:-$SRCDIR/build/tests}
export DEALER_FORGE=$bin/dealer-forge
export DEALER_SEED=4242424242424242424242424242424242424242424242424242424242424242
camelog keygen --seed "$DEALER_SEED" -o dealer >/dev/null
mkdir keys
for k in 1 2 3 4 5; do
    camelog keygen --seed "$(printf "0$k%.0s" $(seq 32))" -o keys/p$k >/dev/null
done
for cheat in honest honest-soc flip lie-impossible lie-unrevealed fork \
    fork-unsealed frame secrets lengths drop grind restart substitute \
    unsigned hostkey withheld; do
    echo "== $cheat"
    rm -rf seat
    python3 "$SRCDIR/tests/cli/dishonest_host.py" "$cheat"
    echo "exit $?"
done
echo "== summary"
python3 "$SRCDIR/tests/cli/dishonest_host.py" summary
