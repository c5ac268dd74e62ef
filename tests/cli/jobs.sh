# -j: verify, archive add and import give the same output, byte for
# byte, and the same exit status for -j 1 and -j 4 on many files, good
# and bad (tampered, truncated, missing, a second dealer, a log the
# archive refuses, a record given twice), in the order of the operands;
# simulate --count writes the same files.
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
echo "== simulate --count: the same files and manifest"
camelog simulate --game soc --players 4 --seed 03 --count 12 -j 1 \
    --key dealer.key -o s1
camelog simulate --game soc --players 4 --seed 03 --count 12 -j 4 \
    --key dealer.key -o s4
diff -r s1 s4 >/dev/null && echo "simulate: identical, $(ls s1 | wc -l) files"
camelog simulate --game avalon --players 5 --seed 03 -j 2 \
    --key dealer.key -o one.camelog
echo "exit $?"
echo "== import: the same output and logs, a record given twice"
dup=$TESTDATA/avalongame/2019-03-13T22-31-15.519Z_WJE.json
for j in 1 4; do
    camelog import --from avalongame --seed 07 --key dealer.key -j $j \
        -o imp$j "$TESTDATA"/avalongame/*.json "$dup" >imp$j.out 2>imp$j.err
    echo "import: -j $j exit $?"
    camelog import --from avalongame --seed 07 --key dealer.key -j $j \
        --json -o impj$j "$TESTDATA"/avalongame/*.json "$dup" >impj$j.out \
        2>impj$j.err
    echo "import --json: -j $j exit $?"
done
sed -i 's/imp[14]/impN/g' imp1.out imp4.out imp1.err imp4.err
sed -i 's/impj[14]/impN/g' impj1.out impj4.out
cmp -s imp1.out imp4.out && echo "import: stdout identical"
cmp -s imp1.err imp4.err && echo "import: stderr identical"
sed -i 's/impj[14]/impN/g' impj1.err impj4.err
cmp -s impj1.out impj4.out && echo "import --json: stdout identical"
cmp -s impj1.err impj4.err && echo "import --json: stderr identical"
diff -r imp1 imp4 >/dev/null && echo "import: identical, $(ls imp1 | wc -l) logs"
grep -c exists imp1.err
