# step --as pK --deliveries: a seat's view of a game without its reveal,
# from the seat's own deliveries; without them, or with another seat's,
# it is refused.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 --key dealer.key \
    -o game.camelog --deliveries seats >/dev/null
camelog cat game.camelog >game.txt
r=$(grep -n '^reveal ' game.txt | cut -d: -f1)
head -n $((r - 1)) game.txt | gzip -n >pre.camelog
echo "== p2 at the end, from its deliveries: what the complete log shows it"
printf 'G\nq\n' | camelog step --as p2 --deliveries seats/p2.deliveries \
    pre.camelog | grep '^you '
echo "exit ${PIPESTATUS[1]}"
printf 'G\nq\n' | camelog step --as p2 game.camelog | grep '^you '
echo "== at the start, before the deal: nothing of the seat's own"
printf 'q\n' | camelog step --as p2 --deliveries seats/p2.deliveries \
    pre.camelog | grep -c '^you '
echo "== without deliveries"
printf 'q\n' | camelog step --as p2 pre.camelog >/dev/null
echo "exit $?"
echo "== another seat's deliveries"
printf 'q\n' | camelog step --as p2 --deliveries seats/p3.deliveries \
    pre.camelog >/dev/null
echo "exit $?"
echo "== --deliveries without --as"
camelog step --deliveries seats/p2.deliveries pre.camelog </dev/null
echo "exit $?"
