# pack's canonicalizer leaves quoted strings (seat names) as they are: a
# 32-digit hex word inside a name with spaces keeps its case (so does a
# quoted 64-digit one), and \\ before the closing quote is an escaped
# backslash, so the quote closes the name and the blanks after it
# collapse.
seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
camelog keygen --seed $seed -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
camelog cat game.camelog >game.txt
pk=$(sed -n 2p dealer.pub)
hex32=DEADBEEFDEADBEEFDEADBEEFDEADBEEF
hex64=$hex32$hex32
sed -e "s/^seat p1 \"Alice\"\$/seat   p1   \"Ann $hex32 Lee\"/" \
    -e "s|^seat p2 \"Bob\"\$|seat p2 \"Bob\\\\\\\\\"  key=$pk|" \
    -e "s/^seat p3 \"Carol\"\$/seat\tp3 \t\"$hex64\"/" \
    -e "s/^seat p4 \"Dave\"\$/seat p4 \"D  \\\\\" $hex32\"/" \
    game.txt >hand.txt
grep '^seat' hand.txt
camelog pack --key dealer.key hand.txt -o hand.camelog
echo "exit $?"
camelog cat hand.camelog | grep '^seat'
