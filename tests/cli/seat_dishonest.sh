# seat: a dishonest host, played by this script from simulate
# --deliveries output, camelog pack --unchecked and re-sealing with the
# dealer key.  Each lie is caught by the seat that can catch it, naming
# the line.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --sigs --entropy \
    --key dealer.key -o game.camelog --deliveries seats >/dev/null
camelog cat game.camelog >game.txt
seal="seal $(printf 'A%.0s' $(seq 86))=="
# seal_as NAME: the text NAME.txt, its seals signed again by the dealer.
seal_as() {
    camelog pack --unchecked --key dealer.key "$1.txt" -o "$1.camelog" >/dev/null
}

echo "== 1. one delivery's value changed: p3 catches it"
sed 's/"deal p3" "role=servant\./"deal p3" "role=merlin../' \
    seats/p3.deliveries >lie1.deliveries
camelog seat check --pubkey dealer.pub --as p3 game.camelog lie1.deliveries
echo "exit $?"

echo "== 2. p1's delivery handed to p3: p3 catches it"
head -n 1 seats/p1.deliveries >lie2.deliveries
camelog seat check --pubkey dealer.pub --as p3 game.camelog lie2.deliveries
echo "exit $?"
echo "-- and p1's label on p3's line"
sed 's/^delivery 35 /delivery 37 /' lie2.deliveries >lie2b.deliveries
camelog seat check --pubkey dealer.pub --as p3 game.camelog lie2b.deliveries
echo "exit $?"

echo "== 3. two seats shown two histories: p1 and p2 together prove it"
{ head -n 39 game.txt; echo "$seal"; } >shown-p1.txt
# The dealer's line 39 for p2 commits to another deal of p5.
sed '39s/ [0-9a-f]*$/ 0000000000000000000000000000000000000000000000000000000000000000/' \
    shown-p1.txt >shown-p2.txt
seal_as shown-p1
seal_as shown-p2
camelog verify -q --pubkey dealer.pub shown-p1.camelog shown-p2.camelog
camelog diff shown-p1.camelog shown-p2.camelog
echo "exit $?"
camelog diff --json shown-p1.camelog shown-p2.camelog
echo "-- p5, shown p2's history, finds its deal is not what it was told"
camelog seat check --pubkey dealer.pub --as p5 shown-p2.camelog seats/p5.deliveries
echo "exit $?"
echo "-- p2's history against the final file"
camelog seat history --pubkey dealer.pub shown-p2.camelog game.camelog
echo "exit $?"

echo "== 4. p3's signed vote dropped and another written: p3 catches it"
head -n 52 game.txt >seen-p3.txt
# vote p3 no (line 46, signed on line 47) becomes an unsigned yes; the
# tally follows, and every later sig, which the dealer cannot make, goes.
awk 'NR == 46 { print "vote p3 yes"; next }
     NR == 47 { next }
     NR == 52 { print "team approved 4-1"; next }
     NR > 52 && /^sig / { next }
     { print }' game.txt >forged.txt
seal_as forged
camelog verify -q --pubkey dealer.pub forged.camelog
camelog seat history --pubkey dealer.pub seen-p3.txt forged.camelog
echo "exit $?"
gzip -n <seen-p3.txt >seen-p3.camelog
camelog diff seen-p3.camelog forged.camelog
echo "exit $?"

echo "== 5. the final file replaced by a re-dealt game: every seat catches it"
camelog simulate --game avalon --players 5 --seed 06 --sigs --entropy \
    --key dealer.key -o redealt.camelog >/dev/null
for k in 1 2 3 4 5; do
    head -n $((52 + 4 * k)) game.txt >"seen-p$k.txt"
    camelog seat history --pubkey dealer.pub "seen-p$k.txt" redealt.camelog \
        >/dev/null 2>&1
    echo "p$k: exit $?"
done
camelog seat history --pubkey dealer.pub seen-p1.txt redealt.camelog
echo "-- not a proof: other ids, or one log the beginning of the other"
camelog diff game.camelog redealt.camelog | grep -c proof
gzip -n <seen-p3.txt >seen.camelog
camelog diff seen.camelog game.camelog | grep -c proof
echo "== the honest game: every seat's history holds"
for k in 1 2 3 4 5; do
    camelog seat history --pubkey dealer.pub "seen-p$k.txt" game.camelog >/dev/null
    echo "p$k: exit $?"
done
