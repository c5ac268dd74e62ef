# archive stats --svg: a small SVG 1.1 chart of the win rates by player
# count, to a file or the standard output.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
for n in 5 6 8; do
    camelog simulate --game avalon --players $n --count 5 --seed 9$n \
        --bot random -q --key dealer.key -o p$n >/dev/null
done
camelog archive add -q games.db p*/*.camelog
camelog archive stats games.db --svg chart.svg >table.txt
echo "exit $?"
sed -n '1,4p' table.txt
head -n 3 chart.svg
grep -c '<rect' chart.svg
grep -o '[0-9]* players</text>' chart.svg
tail -n 1 chart.svg
camelog archive stats games.db --svg - | cmp - chart.svg && echo "same chart"
echo "== no games selected"
camelog archive stats games.db --players 10 --svg - | grep -o 'no games'
camelog archive stats games.db --svg nodir/chart.svg >/dev/null
echo "exit $?"
