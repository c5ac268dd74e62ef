# seat_live: the log a seat has seen so far is judged by camelog seat
# exactly as `camelog verify --pubkey K --live` judges it: prefixes of a
# game that end after the last seal (its lines not sealed yet), one
# whose lines break a rule, and one sealed by another key are each
# accepted or refused alike by verify --live, seat check and seat
# history (as the seen log), while verify --pubkey alone refuses every
# unsealed one, and seat history refuses an unsealed final file.  And
# seat sign of a line that names another seat exits 2, whether or not
# the line could come next; the seat's own line that cannot exits 1.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog keygen --seed 0f0e0d0c0b0a09080706050403020100000102030405060708090a0b0c0d0e0f -o other >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --sigs --entropy \
    --key dealer.key -o game.camelog --deliveries seats >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --sigs --entropy \
    --key other.key -o other.camelog >/dev/null
camelog cat game.camelog >game.txt
camelog cat other.camelog >other.txt
n=$(wc -l <game.txt)
grep -m 1 '^delivery 25 ' seats/p3.deliveries >deal.p3
seal=$(grep -n '^seal ' game.txt | head -n 1 | cut -d: -f1)
echo "first seal at line $seal of $n"
for cut in 30 60 "$seal" $((seal + 5)) "$n"; do
    head -n "$cut" game.txt >"cut-$cut.txt"
done
# A rule broken in the unsealed tail: the last line of cut 60 twice.
{ cat cut-60.txt; tail -n 1 cut-60.txt; } >broken.txt
head -n 60 other.txt >other-60.txt
status() {
    "$@" >/dev/null 2>&1
    echo $?
}
printf '%-14s %8s %8s %6s %8s %8s\n' log verify "--live" check history final
for f in cut-30.txt cut-60.txt "cut-$seal.txt" "cut-$((seal + 5)).txt" "cut-$n.txt" \
    broken.txt other-60.txt; do
    v=$(status camelog verify -q --pubkey dealer.pub "$f")
    l=$(status camelog verify -q --pubkey dealer.pub --live "$f")
    c=$(status camelog seat check --pubkey dealer.pub --as p3 "$f" deal.p3)
    h=$(status camelog seat history --pubkey dealer.pub "$f" game.camelog)
    fin=$(status camelog seat history --pubkey dealer.pub cut-30.txt "$f")
    agree=agree
    [ "$l" = "$c" ] && [ "$l" = "$h" ] || agree=DISAGREE
    printf '%-14s %8s %8s %6s %8s %8s  %s\n' "${f%.txt}" "$v" "$l" "$c" "$h" "$fin" "$agree"
done
echo "# what verify --live says of a log in progress"
camelog verify --pubkey dealer.pub --live cut-60.txt
camelog verify --pubkey dealer.pub --live other-60.txt
echo "exit $?"
camelog verify --live cut-60.txt
echo "exit $?"
echo "# seat sign: a line of another seat"
# The log up to the first proposal: the votes come next, p1's first.
prop=$(grep -n '^propose ' game.txt | head -n 1 | cut -d: -f1)
head -n "$prop" game.txt >proposed.txt
tail -n 1 proposed.txt
sign() {
    camelog seat sign --key "seats/$1.key" proposed.txt "$2" >/dev/null
    echo "$1 signs '$2': exit $?"
}
sign p1 "vote p2 yes"
sign p1 "vote p5 no"
sign p2 "vote p1 yes"
sign p1 "$(tail -n 1 proposed.txt)"
sign p1 "card p3 success"
sign p1 "vote p1 maybe"
sign p2 "vote p2 yes"
