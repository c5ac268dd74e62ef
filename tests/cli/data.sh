# The bad logs of tests/data: each refused, naming its line.
for f in truncated flipped forged-seal long-line bad-vote wrong-deal; do
    cp "$TESTDATA/$f.camelog" .
    camelog verify -q --pubkey "$SAMPLES/dealer.pub" "$f.camelog"
    echo "$f: exit $?"
done
