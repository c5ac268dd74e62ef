# import: usage and environment errors exit 2 before any record is read.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o importer >/dev/null
good=$TESTDATA/import/good-5.json
camelog import --help | head -n 2
echo "exit $?"
camelog import --key importer.key -o out "$good"
echo "exit $?"
camelog import --from lichess --key importer.key -o out "$good"
echo "exit $?"
camelog import --from avalongame -o out "$good"
echo "exit $?"
camelog import --from avalongame --key importer.key "$good"
echo "exit $?"
camelog import --from avalongame --key importer.key -o out
echo "exit $?"
camelog import --from avalongame --key importer.key -o out - <"$good"
echo "exit $?"
camelog import --from avalongame --seed xyz --key importer.key -o out "$good"
echo "exit $?"
camelog import --from avalongame --bogus --key importer.key -o out "$good"
echo "exit $?"
camelog import --from avalongame --key missing.key -o out "$good"
echo "exit $?"
chmod 644 importer.key
camelog import --from avalongame --key importer.key -o out "$good"
echo "exit $?"
chmod 600 importer.key
touch file
camelog import --from avalongame --key importer.key -o file "$good"
echo "exit $?"
test -e out || echo "nothing written"
