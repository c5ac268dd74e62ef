# seat_due: camelog seat due lists, from the public log alone, every
# delivery due to a seat (each line that commits a private message to
# it: its night view, its quest cards, a Lady result, in Shadows over
# Camelot its loyalty, cards drawn and cards given to it) and which of
# them it holds, checked; each one missing is named with its line and
# exits 1.  Honest games: every seat of both games holds every delivery
# due at the end, and at every step of a game as it grows.  A withheld
# delivery, a tampered one and another seat's are named; the JSON form
# says the same.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 7 --lady --seed 05 --sigs --entropy \
    --key dealer.key -o game.camelog --deliveries seats >/dev/null
camelog simulate --game soc --players 5 --seed 05 --sigs --entropy \
    --key dealer.key -o soc.camelog --deliveries socseats >/dev/null
camelog cat game.camelog >game.txt
n=$(wc -l <game.txt)
echo "# honest, the final files: every seat holds every delivery due"
for k in 1 2 3 4 5 6 7; do
    camelog seat due --pubkey dealer.pub --as "p$k" --seat-key "seats/p$k.pub" \
        game.camelog "seats/p$k.deliveries" >out
    echo "exit $?: $(tail -n 1 out)"
done
for k in 1 2 3 4 5; do
    camelog seat due --pubkey dealer.pub --as "p$k" soc.camelog \
        "socseats/p$k.deliveries" >out
    echo "exit $?: $(tail -n 1 out)"
done
echo "# the receiver of a card given holds it too (Shadows over Camelot)"
camelog seat due --pubkey dealer.pub --as p1 soc.camelog socseats/p1.deliveries |
    grep -m 2 ' swap '
echo "# honest, as the log grows: p3 at each line holds what is due then"
bad=0
commit=$(grep -n '^commit ' game.txt | cut -d: -f1)
for cut in $(seq "$commit" "$n"); do
    head -n "$cut" game.txt >seen.txt
    # The deliveries of lines up to the cut: what the host has sent.
    awk -v cut="$cut" '$2 <= cut' seats/p3.deliveries >held
    c=$(wc -l <held)
    if ! camelog seat due --pubkey dealer.pub --as p3 seen.txt held >out 2>&1 ||
        ! grep -q "^seen.txt: p3: $c deliver[a-z]* due, $c received and checked" out; then
        echo "line $cut: FAILED"
        bad=$((bad + 1))
    fi
done
echo "$((n - commit + 1)) prefixes from the commit line, $bad failed"
echo "# p3 with every delivery"
camelog seat due --pubkey dealer.pub --as p3 game.camelog seats/p3.deliveries
echo "exit $?"
echo "# withheld: the host never sent p3's first card"
card=$(grep -m 1 '"card ' seats/p3.deliveries | cut -d' ' -f2)
grep -v "^delivery $card " seats/p3.deliveries >withheld
camelog seat due --pubkey dealer.pub --as p3 game.camelog withheld
echo "exit $?"
echo "# withheld at the step it is due: the log ends at the card line"
head -n "$card" game.txt >at-card.txt
awk -v cut="$card" '$2 < cut' seats/p3.deliveries >before-card
camelog seat due --pubkey dealer.pub --as p3 at-card.txt before-card
echo "exit $?"
echo "# no deliveries at all: everything due is missing"
head -n 100 game.txt >seen.txt
camelog seat due --pubkey dealer.pub --as p3 seen.txt
echo "exit $?"
echo "# tampered (a nonce changed) and another seat's delivery"
awk -v card="$card" '$2 == card {
    n = $(NF - 1); $(NF - 1) = (substr(n, 1, 1) == "0" ? "1" : "0") substr(n, 2)
} { print }' seats/p3.deliveries >tampered
cmp -s tampered seats/p3.deliveries && echo "tampered: no change"
head -n 1 seats/p4.deliveries >other
camelog seat due --pubkey dealer.pub --as p3 game.camelog tampered other
echo "exit $?"
echo "# deliveries before their lines: not due yet"
head -n 60 game.txt >seen.txt
camelog seat due --pubkey dealer.pub --as p3 seen.txt seats/p3.deliveries
echo "exit $?"
echo "# JSON"
camelog seat due --json --pubkey dealer.pub --as p3 at-card.txt before-card
echo "exit $?"
echo "# a deliveries file that does not parse is refused, naming its line"
{ head -n 1 seats/p3.deliveries; echo 'delivery 86 "card 1 p3"'; } >broken
camelog seat due --pubkey dealer.pub --as p3 at-card.txt broken
echo "exit $?"
echo "# usage"
camelog seat due --pubkey dealer.pub game.camelog
echo "exit $?"
camelog seat due --pubkey dealer.pub --as p9 game.camelog
echo "exit $?"
camelog seat due --pubkey dealer.pub --as p3 --seat-key seats/p4.pub game.camelog
echo "exit $?"
