# simulate --count: a reproducible corpus with its manifest, written by
# two worker processes; game 1 is the game a single run records.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 6 --count 9 --seed 2a \
    --key dealer.key -o corpus
echo "exit $?"
ls corpus
cut -f1,3,4 corpus/MANIFEST.tsv
cut -f2 corpus/MANIFEST.tsv | sort | uniq -c
# Every digest is 64 hex digits.
cut -f5 corpus/MANIFEST.tsv | sed 1d | grep -c '^[0-9a-f]\{64\}$'
camelog verify --pubkey dealer.pub corpus/*.camelog
echo "exit $?"
# The same run again: the same files.
camelog simulate --game avalon --players 6 --count 9 --seed 2a \
    --key dealer.key -o again
diff -r corpus again && echo "same corpus"
camelog simulate --game avalon --players 6 --seed 2a \
    --key dealer.key -o single.camelog >/dev/null
cmp single.camelog corpus/game-000001.camelog && echo "game 1 = single game"
# The manifest is not overwritten without --force.
camelog simulate --game avalon --players 6 --count 2 --seed 2b \
    --key dealer.key -o corpus
echo "exit $?"
# A game file that exists stops the run; no manifest is written.  (The
# other worker may have written a game or two meanwhile.)
mkdir part
cp corpus/game-000002.camelog part/
camelog simulate --game avalon --players 6 --count 4 --seed 2a \
    --key dealer.key -o part
echo "exit $?"
test -e part/MANIFEST.tsv || echo "no manifest"
ls -a part | grep -c 'tmp'
# -o names a file, not a directory.
camelog simulate --game avalon --players 6 --count 2 --seed 2a \
    --key dealer.key -o single.camelog
echo "exit $?"
