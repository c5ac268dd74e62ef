# seat: entropy, check, sign and history on an honest game recorded by
# simulate --deliveries; what the seat makes, camelog verify accepts.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --sigs --entropy \
    --key dealer.key -o game.camelog --deliveries seats >/dev/null
camelog cat game.camelog >game.txt
n=$(wc -l <game.txt)
head -n 11 game.txt >header.txt
echo "== every seat's checks pass at every step"
fails=0
for k in 1 2 3 4 5; do
    while read -r _ line _; do
        # the log as it stood when the delivery arrived, and every later one
        for cut in "$line" $((line + 7)) "$n"; do
            [ "$cut" -le "$n" ] || continue
            head -n "$cut" game.txt >prefix.txt
            grep "^delivery $line " "seats/p$k.deliveries" >one.deliveries
            camelog seat check --pubkey dealer.pub --as "p$k" prefix.txt \
                one.deliveries >/dev/null || fails=$((fails + 1))
        done
    done <"seats/p$k.deliveries"
done
echo "failures: $fails"
camelog seat check --pubkey dealer.pub --as p3 game.camelog seats/p3.deliveries
camelog seat check --json --pubkey dealer.pub --as p3 - seats/p3.deliveries <game.camelog
echo "== a delivery before its line"
head -n 30 game.txt | camelog seat check --pubkey dealer.pub --as p3 - seats/p3.deliveries
echo "exit $?"
echo "== sign: the recorder's own sig lines, made again by each seat"
same=0 total=0
for no in $(grep -n '^sig p' game.txt | cut -d: -f1); do
    k=$(sed -n "${no}p" game.txt | cut -c6- | cut -d' ' -f1)
    head -n $((no - 2)) game.txt >before.txt
    got=$(camelog seat sign --key "seats/p$k.key" before.txt "$(sed -n "$((no - 1))p" game.txt)")
    total=$((total + 1))
    [ "$got" = "$(sed -n "${no}p" game.txt)" ] && same=$((same + 1))
done
echo "$same of $total sig lines identical"
vote=$(grep -n '^vote p4 ' game.txt | head -n 1 | cut -d: -f1)
head -n $((vote - 1)) game.txt >before.txt
camelog seat sign --json --key seats/p4.key before.txt "$(sed -n "${vote}p" game.txt)"
echo "== sign: not the seat's line, the dealer's line, not a seat's key"
camelog seat sign --key seats/p1.key before.txt "$(sed -n "${vote}p" game.txt)"
echo "exit $?"
camelog seat sign --key seats/p1.key header.txt "start leader=p4"
echo "exit $?"
camelog seat sign --key dealer.key before.txt "$(sed -n "${vote}p" game.txt)"
echo "exit $?"
echo "== entropy: accepted by verify"
camelog seat entropy --key seats/p2.key --log header.txt >entropy.txt
echo "exit $?"
cut -d' ' -f1,2 entropy.txt
cat header.txt entropy.txt >with-entropy.txt
gzip -n <with-entropy.txt >with-entropy.camelog
camelog verify --json with-entropy.camelog 2>/dev/null |
    grep -o '"valid":true\|"sigs":1'

camelog seat entropy --json --key seats/p3.key --log with-entropy.txt | cut -c1-20
echo "== entropy after p2's: p1 may not"
camelog seat entropy --key seats/p1.key --log with-entropy.txt
echo "exit $?"
echo "== history"
head -n 60 game.txt >seen.txt
camelog seat history --pubkey dealer.pub seen.txt game.camelog
echo "exit $?"
camelog seat history --json --pubkey dealer.pub seen.txt game.camelog
camelog seat history --pubkey dealer.pub game.camelog seen.txt
echo "exit $?"
echo "== the dealer key is pinned"
camelog keygen --seed 0f0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o other >/dev/null
camelog seat check --pubkey other.pub --as p3 game.camelog seats/p3.deliveries
echo "exit $?"
echo "== usage"
camelog seat
echo "exit $?"
camelog seat check --as p3 game.camelog seats/p3.deliveries
echo "exit $?"
camelog seat check --pubkey dealer.pub --as p9 game.camelog seats/p3.deliveries
echo "exit $?"
camelog seat sign --key seats/p1.key game.camelog
echo "exit $?"
camelog seat dance
echo "exit $?"
