# simulate: same arguments, byte-identical files; the summary line; rule
# warnings and errors; the dealer key's permissions; existing files.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 7 --lady --seed 01 \
    --key dealer.key -o a.camelog
echo "exit $?"
camelog simulate --game avalon --players 7 --lady --seed 01 \
    --key dealer.key -o b.camelog
echo "exit $?"
cmp a.camelog b.camelog && echo "same seed, same file"
camelog simulate --game avalon --players 7 --lady --seed 02 \
    --key dealer.key -o c.camelog >/dev/null
cmp -s a.camelog c.camelog || echo "another seed, another file"
# The header, from the options.
camelog cat a.camelog | sed -n '1,4p;12,13p'
gzip -t a.camelog && echo "gzip -t: ok"
# Seat entropy, seat signatures and a created line.
camelog simulate --game avalon --players 5 --roles mordred,merlin,percival,assassin,servant \
    --entropy --sigs --created 2026-11-29T12:00:00Z --seed 03 \
    --key dealer.key -o sigs.camelog
echo "exit $?"
camelog cat sigs.camelog | grep -c '^sig '
camelog cat sigs.camelog | sed -n '3,6p;12,15p' | cut -c1-72
camelog verify -q sigs.camelog
# To standard output.
camelog simulate --game avalon --players 7 --lady --seed 01 \
    --key dealer.key -o - | cmp - a.camelog && echo "-o - writes the same file"
# A configuration the rules advise against is recorded with a warning.
camelog simulate --game avalon --players 5 --lady --seed 04 \
    --key dealer.key -o lady5.camelog
echo "exit $?"
# One they refuse is not.
camelog simulate --game avalon --players 5 --roles merlin,merlin,servant,assassin,minion \
    --seed 04 --key dealer.key -o bad.camelog
echo "exit $?"
camelog simulate --game avalon --players 5 --roles merlin,servant,servant,assassin,witch \
    --seed 04 --key dealer.key -o bad.camelog
echo "exit $?"
test -e bad.camelog || echo "nothing written"
# The output exists.
camelog simulate --game avalon --players 7 --lady --seed 01 \
    --key dealer.key -o a.camelog
echo "exit $?"
camelog simulate --game avalon --players 7 --lady --seed 01 --force \
    --key dealer.key -o a.camelog
echo "exit $?"
# A dealer key readable by others is refused.
chmod 644 dealer.key
camelog simulate --game avalon --players 7 --seed 01 --key dealer.key -o d.camelog
echo "exit $?"
camelog simulate --game avalon --players 7 --seed 01 --key missing.key -o d.camelog
echo "exit $?"
