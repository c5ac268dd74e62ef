# export --as pK --deliveries: a seat's view of a game without its reveal,
# from the seat's own deliveries (both forms), is its view of the complete
# log from its deal on; refusals.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --key dealer.key \
    -o game.camelog --deliveries seats >/dev/null
camelog cat game.camelog >game.txt
r=$(grep -n '^reveal ' game.txt | cut -d: -f1)
head -n $((r - 1)) game.txt >pre.txt
for k in 1 2 3 4 5; do
    deal=$(grep -n "^deal p$k " game.txt | cut -d: -f1)
    camelog export --as "p$k" --deliveries "seats/p$k.deliveries" - \
        <pre.txt >mine.jsonl
    camelog export --as "p$k" - <game.camelog |
        sed 's/,"omniscient":.*}$/}/' | head -n $((r - 1)) >full.jsonl
    sed -E 's/^delivery ([0-9]+) ("[^"]*") ("[^"]*") ([0-9a-f]{64}) ([A-Za-z0-9+\/]{86}==)$/{"seat":'"$k"',"line":\1,"label":\2,"value":\3,"nonce":"\4","sig":"\5"}/' \
        "seats/p$k.deliveries" >"p$k.json"
    camelog export --as "p$k" --deliveries "p$k.json" - <pre.txt |
        cmp -s - mine.jsonl && same_json=yes || same_json=no
    tail -n +"$deal" mine.jsonl >a
    tail -n +"$deal" full.jsonl >b
    cmp -s a b && same=yes || same=no
    hidden=$(head -n $((deal - 1)) mine.jsonl | grep -c '"seat":{.*"known":{"revealed":false}')
    echo "p$k: deal at line $deal; same as the complete log from it: $same;" \
        "unknown before it: $hidden of $((deal - 1)); JSON form: $same_json"
done
echo "== what p5 knows after the last line"
tail -n 1 mine.jsonl | sed 's/.*"seat":\({"assassination[^}]*}\),.*"known":\({.*}\),"lady_on".*/\2/'
echo "== refusals"
camelog export --as p3 pre.txt
echo "exit $?"
camelog export --deliveries seats/p3.deliveries pre.txt
echo "exit $?"
camelog export --as p2 --deliveries seats/p3.deliveries pre.txt >/dev/null
echo "exit $?"
head -n 40 pre.txt >short.txt
camelog export --as p3 --deliveries seats/p3.deliveries short.txt >/dev/null
echo "exit $?"
sed '1s/"deal p3"/"deal p4"/' seats/p3.deliveries >bad.deliveries
camelog export --as p3 --deliveries bad.deliveries pre.txt >/dev/null
echo "exit $?"
head -n 1 p3.json >mixed.deliveries
sed -n 2p seats/p3.deliveries >>mixed.deliveries
camelog export --as p3 --deliveries mixed.deliveries pre.txt >/dev/null
echo "exit $?"
camelog export --as p9 --deliveries seats/p3.deliveries pre.txt >/dev/null
echo "exit $?"
