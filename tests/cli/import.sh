# import: the avalongame.online corpus (53 games of the site's public
# dataset): every game under the official rules imports and verifies as
# imported; each refused one names the rule it breaks; the summary
# counts them.  The same seed writes the same files; the game id comes
# from the record alone.
ln -s "$TESTDATA/avalongame" corpus
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o importer >/dev/null
echo "== import the corpus"
camelog import --from avalongame --seed 01 --key importer.key -o games \
    corpus/*.json
echo "exit $?"
echo "== every log written verifies, as imported, with the importer's key"
ls games | wc -l
camelog verify -q --pubkey importer.pub games/*.camelog
echo "exit $?"
camelog verify --pubkey importer.pub games/2020-04-04T03-15-18.034Z_GBN.camelog
echo "== the header says where the game comes from"
camelog cat games/2020-04-04T03-15-18.034Z_GBN.camelog | sed -n '1,6p'
camelog cat games/2020-04-04T03-15-18.034Z_GBN.camelog | grep '^open role'
echo "== same seed, same files; without --force nothing is overwritten"
camelog import --from avalongame --seed 01 --key importer.key -o again \
    corpus/*.json >/dev/null 2>&1
for f in games/*.camelog; do
    cmp "$f" "again/${f#games/}" || echo "$f differs"
done
camelog import --from avalongame -q --seed 01 --key importer.key -o games \
    corpus/2020-03-23T00-13-48.562Z_BWB.json
echo "exit $?"
camelog import --from avalongame -q --force --seed 01 --key importer.key \
    -o games corpus/2020-03-23T00-13-48.562Z_BWB.json
echo "exit $?"
echo "== a random secret: other commitments, the same game id"
camelog import --from avalongame -q --key importer.key -o random \
    corpus/2020-03-23T00-13-48.562Z_BWB.json >/dev/null
cmp -s random/2020-03-23T00-13-48.562Z_BWB.camelog \
    games/2020-03-23T00-13-48.562Z_BWB.camelog || echo "the files differ"
for d in random games; do
    camelog cat "$d/2020-03-23T00-13-48.562Z_BWB.camelog" | sed -n 3p
done
echo "== --json: one object per record"
camelog import --from avalongame --json -q --force --seed 01 \
    --key importer.key -o games \
    corpus/2020-04-25T03-02-47.544Z_EVV.json \
    corpus/2020-05-24T00-36-05.730Z_LBF.json
echo "exit $?"
