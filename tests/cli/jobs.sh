# -j: verify and archive add give the same output, byte for byte, and
# the same exit status for -j 1 and -j 4 on many files, good and bad
# (tampered, truncated, missing, a second dealer, a log the archive
# refuses), in the order of the operands.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog keygen --seed 1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100 -o other >/dev/null
camelog simulate --game avalon --players 7 --lady --seed 01 --count 30 \
    --key dealer.key -o a >/dev/null
camelog simulate --game avalon --players 5 --seed 02 --count 6 \
    --key other.key -o b >/dev/null
cp "$TESTDATA/flipped.camelog" "$TESTDATA/truncated.camelog" \
    "$TESTDATA/bad-vote.camelog" "$TESTDATA/forged-seal.camelog" .
camelog cat a/game-000003.camelog | head -n 30 | gzip -n >progress.camelog
files=
for i in $(seq 1 30); do
    files="$files a/game-$(printf %06d "$i").camelog"
    case $i in
    3) files="$files flipped.camelog progress.camelog" ;;
    7) files="$files missing.camelog b/game-000001.camelog" ;;
    11) files="$files truncated.camelog bad-vote.camelog" ;;
    20) files="$files b/game-000002.camelog forged-seal.camelog" ;;
    esac
done

# runs "$@" with -j 1 and -j 4 and says whether stdout and stderr
# agree; the database $name.db of each run is kept as $name.J.db (and
# starts as $name.J.db when that exists)
same() {
    name=$1
    shift
    for j in 1 4; do
        if [ -e "$name.$j.db" ]; then mv "$name.$j.db" "$name.db"; fi
        "$@" -j $j >"$name.$j.out" 2>"$name.$j.err"
        echo "$name: -j $j exit $?"
        if [ -e "$name.db" ]; then mv "$name.db" "$name.$j.db"; fi
    done
    cmp -s "$name.1.out" "$name.4.out" && echo "$name: stdout identical"
    cmp -s "$name.1.err" "$name.4.err" && echo "$name: stderr identical"
}

same verify camelog verify $files
cat verify.1.out
cat verify.1.err
same verify-json camelog verify --json --pubkey dealer.pub $files
wc -l <verify-json.1.out
same verify-q camelog verify -q --require complete $files
same add camelog archive add -q add.db $files
cat add.1.out add.1.err
same add-json camelog archive add -q --json add-json.db $files
grep -c '"added"' add-json.1.out
camelog archive query add.1.db >q1
camelog archive query add.4.db >q4
cmp -s q1 q4 && echo "query: identical, $(wc -l <q1) games"
cp add.1.db again.1.db
cp add.1.db again.4.db
same again camelog archive add -q --json again.db $files
grep -c '"present"' again.1.out
echo "== -j: a bad count"
camelog verify -j 0 a/game-000001.camelog
echo "exit $?"
camelog archive query add.1.db -j 2
echo "exit $?"
