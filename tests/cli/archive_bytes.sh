# archive_bytes: the archive stores a file in a canonical container (one
# gzip member, no header flag, MTIME 0) as it is, whatever compressed it,
# and compresses the text again for any other container; every stored
# file holds the same text as the file added.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --count 3 --seed 41 \
    --key dealer.key -o g >/dev/null
mkdir in
# g/1: as camelog wrote it; g/2: level 1 of gzip(1), -n (canonical);
# g/3: gzip(1) keeping a name and a time (not canonical).
set -- g/*.camelog
cp "$1" in/a.camelog
zcat "$2" | gzip -1n >in/b.camelog
zcat "$3" >in/c.txt
touch -d 2026-11-24T20:00:00Z in/c.txt
gzip -9 in/c.txt
mv in/c.txt.gz in/c.camelog
cmp -s "$2" in/b.camelog || echo "b: recompressed, other bytes"
od -An -tx1 -N10 in/b.camelog
od -An -tx1 -N10 in/c.camelog
camelog archive add games.db in/*.camelog
echo "exit $?"
camelog archive export games.db -o out
echo "exit $?"
for f in in/*.camelog; do
    id=$(camelog cat "$f" | sed -n 's/^id //p')
    if cmp -s "$f" "out/$id.camelog"; then
        echo "$f: stored as it is"
    else
        echo "$f: stored compressed again"
    fi
    zcat "$f" | cmp - <(zcat "out/$id.camelog") && echo "$f: same text"
done
camelog verify -q out/*.camelog
echo "exit $?"
camelog archive check games.db
echo "exit $?"
