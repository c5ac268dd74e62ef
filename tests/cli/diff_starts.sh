# diff_starts: a dealer that starts one table twice (the first start
# sealed, every seat's value revealed, then the game dropped and a new
# one begun) leaves each seat two sealed starts; camelog diff of the two
# says that they are two starts of one table, each sealed by the dealer:
# its proof that it started the table twice.  Two games of one table
# played to their end are said to be so; a start without the dealer's
# seal is no proof; logs of two tables, and a log and its own beginning,
# are not two starts.
camelog keygen --seed 7777777777777777777777777777777777777777777777777777777777777777 -o dealer >/dev/null
for k in 1 2 3 4 5; do
    camelog keygen --seed "$(printf "0$k%.0s" $(seq 32))" -o "p$k" >/dev/null
done
seats() {
    printf '['
    for k in 1 2 3 4 5; do
        [ "$k" = 1 ] || printf ','
        printf '{"name":"%s%s","key":"%s"}' "$1" "$k" "$(sed -n 2p "p$k.pub")"
    done
    printf ']'
}
# The lines the host wrote, from its replies (a resume's reply repeats
# every line so far: left out).
lines() {
    python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("id") not in (2, 9):
        for t in r.get("lines", []):
            print(t)' "$1"
}
# A start of the table named $2 with id $3: the header, every seat's
# pledge (seat commit), the sealed start, every seat's value (seat
# reveal, which keeps the sealed start in tK/starts); with $4 "play" the
# dealer deals, then aborts the game and writes it, else it drops the
# game there.
start() {
    g=$1
    echo "{\"id\":1,\"op\":\"new\",\"game\":\"avalon\",\"seats\":$(seats "$2"),\"dealer\":\"dealer.key\",\"journal\":\"$g.journal\",\"game_id\":\"$3\",\"secret\":\"$(printf '5a%.0s' $(seq 32))\"}" |
        camelog host --no-fsync >"$g.r1"
    lines "$g.r1" >"$g.txt"
    {
        echo "{\"id\":2,\"op\":\"resume\",\"journal\":\"$g.journal\",\"dealer\":\"dealer.key\"}"
        for k in 1 2 3 4 5; do
            camelog seat commit --key "p$k.key" --state "t$k" --pubkey dealer.pub "$g.txt" \
                2>>"$g.warnings" >"$g.p$k"
            echo "{\"id\":$((2 + k)),\"op\":\"pledge\",\"seat\":\"p$k\",\"hex\":\"$(sed -n 1p "$g.p$k" | cut -d' ' -f3)\",\"sig\":\"$(sed -n 2p "$g.p$k")\"}"
        done
        echo '{"id":8,"op":"pledged"}'
    } | camelog host --no-fsync >"$g.r2"
    lines "$g.r2" >>"$g.txt"
    {
        echo "{\"id\":9,\"op\":\"resume\",\"journal\":\"$g.journal\",\"dealer\":\"dealer.key\"}"
        for k in 1 2 3 4 5; do
            camelog seat reveal --key "p$k.key" --state "t$k" --pubkey dealer.pub "$g.txt" >"$g.e$k"
            echo "{\"id\":$((9 + k)),\"op\":\"entropy\",\"seat\":\"p$k\",\"hex\":\"$(sed -n 1p "$g.e$k" | cut -d' ' -f3)\",\"sig\":\"$(sed -n 2p "$g.e$k")\"}"
        done
        if [ "$4" = play ]; then
            echo '{"id":15,"op":"start"}'
            echo '{"id":16,"op":"abort"}'
            echo "{\"id\":17,\"op\":\"write\",\"path\":\"$g.camelog\"}"
        fi
    } | camelog host --no-fsync >"$g.r3"
    lines "$g.r3" >>"$g.txt"
}
a=000000000000000000000000000000a1
b=000000000000000000000000000000b2
c=000000000000000000000000000000c3
start first Knight "$a"
start second Knight "$b" play
start other Squire "$c"
echo "# what the seats kept"
ls t1/starts
echo "# p1 was warned when it pledged to the second start"
cat second.warnings | sort -u
echo "# the two sealed starts p1 kept"
camelog diff "t1/starts/$a.camelog" "t1/starts/$b.camelog"
echo "exit $?"
camelog diff --json "t3/starts/$a.camelog" "t3/starts/$b.camelog"
echo "exit $?"
echo "# the first start against the second game as it was written (aborted)"
camelog diff "t2/starts/$a.camelog" second.camelog >out
echo "exit $?"
tail -n 4 out
echo "# a start without the dealer's seal (the header alone)"
gzip -n <first.txt >first-all.camelog
head -n 11 second.txt | gzip -n >second-header.camelog
camelog diff first-all.camelog second-header.camelog >out
echo "exit $?"
tail -n 4 out
echo "# two tables: other seat names"
camelog diff "t1/starts/$a.camelog" "t1/starts/$c.camelog"
echo "exit $?"
echo "# one start and its own beginning: not two starts"
# (the seats' values are random: shown as <hex>)
camelog diff "t1/starts/$b.camelog" second.camelog >out
echo "exit $?"
sed 's/ [0-9a-f]\{64\}$/ <hex>/' out
echo "# two games of one table played to their end"
camelog simulate --game avalon --players 5 --seed 01 --key dealer.key -o g1.camelog >/dev/null
camelog simulate --game avalon --players 5 --seed 02 --key dealer.key -o g2.camelog >/dev/null
camelog diff g1.camelog g2.camelog >out
echo "exit $?"
tail -n 3 out
