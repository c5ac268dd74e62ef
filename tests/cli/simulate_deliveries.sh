# simulate --deliveries: each seat's deliveries in the text form of
# camelog(5), and with --sigs its keys.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --sigs --entropy \
    --key dealer.key -o game.camelog --deliveries seats
ls seats
stat -c '%a %n' seats/p1.key
cat seats/p1.deliveries seats/p3.deliveries
echo "== the same game without --deliveries"
camelog simulate --game avalon --players 5 --seed 05 --sigs --entropy \
    --key dealer.key -o plain.camelog
cmp game.camelog plain.camelog && echo "identical logs"
echo "== existing files need --force"
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o again.camelog --deliveries seats
echo "exit $?"
camelog simulate --game avalon --players 5 --seed 05 --force \
    --key dealer.key -o again.camelog --deliveries seats
echo "exit $?"
echo "== not with --count"
camelog simulate --game avalon --players 5 --count 2 \
    --key dealer.key -o dir --deliveries seats
echo "exit $?"
