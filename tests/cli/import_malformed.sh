# import: records that are not what the site writes (truncated, wrong
# types, missing keys, another root, bad bytes, too deep, too large):
# each is refused with the file and the JSON path or the parser's
# position, and the import goes on.
ln -s "$TESTDATA/import" data
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o importer >/dev/null
camelog import --from avalongame --seed 01 --key importer.key -o games \
    data/malformed-*.json
echo "exit $?"
test -e games/malformed-truncated.camelog || echo "nothing written"
echo "== 1 MiB is read; one byte more is not"
{
    cat data/good-5.json
    head -c $((1048576 - $(wc -c <data/good-5.json))) /dev/zero | tr '\0' ' '
} >exact.json
cp exact.json over.json
echo >>over.json
wc -c exact.json over.json
camelog import --from avalongame --seed 01 --key importer.key -o games \
    exact.json over.json
echo "exit $?"
echo "== nesting deeper than the parser's limit"
{
    head -c 100000 /dev/zero | tr '\0' '['
    head -c 100000 /dev/zero | tr '\0' ']'
} >deep.json
camelog import --from avalongame --seed 01 --key importer.key -o games \
    deep.json
echo "exit $?"
echo "== file names that cannot be an original id; unreadable files"
cp data/good-5.json 'two words.json'
cp data/good-5.json 'a"b.json'
long=$(printf 'x%.0s' $(seq 129))
cp data/good-5.json "$long.json"
mkdir dir.json
camelog import --from avalongame --seed 01 --key importer.key -o games \
    'two words.json' 'a"b.json' "$long.json" missing.json dir.json \
    data/good-5.json
echo "exit $?"
