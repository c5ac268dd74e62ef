# seat: commit, reveal, check, sign and history on an honest game recorded by
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
head -n 50 game.txt | camelog seat check --pubkey dealer.pub --as p3 - seats/p3.deliveries
echo "exit $?"
echo "== sign: the recorder's own sig lines, made again by each seat"
same=0 total=0
for no in $(grep -n '^sig p' game.txt | cut -d: -f1); do
    k=$(sed -n "${no}p" game.txt | cut -c6- | cut -d' ' -f1)
    # A pledge or an entropy line is signed only as the seat makes it
    # (seat commit, seat reveal), below.
    case $(sed -n "$((no - 1))p" game.txt) in pledge* | entropy*) continue ;; esac
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
echo "== commit and reveal: accepted by verify"
zero=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==
camelog seat commit --key seats/p2.key --state t2 --pubkey dealer.pub header.txt >pledge2.txt
echo "exit $?"
cut -d' ' -f1,2 pledge2.txt
camelog seat commit --key seats/p2.key --state t2 --pubkey dealer.pub header.txt | cmp - pledge2.txt &&
    echo "committed twice: the same pledge (the value is kept)"
stat -c '%a' t2/*.p2.value
camelog seat commit --json --key seats/p4.key --state t4 --pubkey dealer.pub header.txt >pledge4.json
cut -c1-22 pledge4.json
python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); print(o["pledge"]); print(o["sig"])' pledge4.json >pledge4.txt
cat header.txt pledge2.txt pledge4.txt >pledges.txt
echo "-- reveal before the sealed start: refused"
camelog seat reveal --key seats/p2.key --state t2 --pubkey dealer.pub pledges.txt
echo "exit $?"
{ cat pledges.txt; echo "pledged p2,p4"; echo "seal $zero"; } >start.txt
camelog pack --key dealer.key start.txt -o start.camelog 2>/dev/null
camelog seat reveal --key seats/p2.key --state t2 --pubkey dealer.pub start.camelog >reveal2.txt
echo "exit $?"
cut -d' ' -f1,2 reveal2.txt
ls t2/starts
camelog seat reveal --key seats/p4.key --state t4 --pubkey dealer.pub start.camelog >reveal4.txt
{ camelog cat start.camelog; cat reveal2.txt reveal4.txt; } >revealed.txt
gzip -n <revealed.txt >revealed.camelog
camelog verify --json revealed.camelog 2>/dev/null |
    grep -o '"valid":true\|"sigs":4\|"signed":2'
echo "-- p3 made no pledge: nothing to reveal"
camelog seat reveal --key seats/p3.key --state t3 --pubkey dealer.pub start.camelog
echo "exit $?"
echo "-- sign refuses an entropy line handed to it; entropy refuses format 2"
camelog seat sign --key seats/p2.key start.camelog "$(head -n 1 reveal2.txt)"
echo "exit $?"
camelog seat entropy --key seats/p1.key --log header.txt
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
