# seat sign on a log that ends at a proposal (and its sig): every seat's
# vote, the first voter's or not, signs as the final log has it, and the
# final log verifies.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --sigs \
    --key dealer.key -o game.camelog --deliveries seats >/dev/null
camelog cat game.camelog >game.txt
same=0 total=0
for p in $(grep -n '^propose ' game.txt | cut -d: -f1 | head -n 3); do
    head -n $((p + 1)) game.txt >before.txt
    for no in $(seq $((p + 2)) 2 $((p + 11))); do
        vote=$(sed -n "${no}p" game.txt)
        k=$(echo "$vote" | cut -d' ' -f2 | cut -c2-)
        got=$(camelog seat sign --key "seats/p$k.key" before.txt "$vote")
        total=$((total + 1))
        [ "$got" = "$(sed -n "$((no + 1))p" game.txt)" ] && same=$((same + 1))
    done
done
echo "$same of $total votes signed at the proposal as the final log has them"
camelog verify --pubkey dealer.pub game.camelog >/dev/null 2>&1 && echo "the final log verifies"
