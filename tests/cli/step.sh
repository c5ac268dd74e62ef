# step: an interactive session driven through a pipe.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
printf 'n\nn\ns\nq\n' | camelog step game.camelog
echo "exit $?"
echo "== jump, back, view as a seat, state, reveal, help, mistakes"
printf '%s\n' 'j 24' 'b 6' 'v p1' 's' 'v' 'n 3' 'x' 'n 1000' 'n' 'b 1000' 'b' \
    'j 999' 'v p9' '' 'r' 'h' 'q' 'n' | camelog step game.camelog
echo "exit $?"
echo "== as a seat from the start; the end of the input ends the session"
printf 'j 13\n' | camelog step --as p5 game.camelog
echo "exit $?"
echo "== a game in progress"
camelog cat game.camelog | head -n 20 | gzip -n >progress.camelog
printf 'j 20\nv p1\nr\n' | camelog step progress.camelog
echo "exit $?"
camelog step --as p1 progress.camelog </dev/null
echo "exit $?"
camelog step --as p7 game.camelog </dev/null
echo "== by turn and by quest, the start and the end, omniscient"
printf '%s\n' t t ']' T '[' G g a | camelog step game.camelog
echo "exit $?"
echo "== a seat's role only from the line that deals it"
printf 'n 2\nn 5\n' | camelog step --as p3 game.camelog | grep -E '^(line|you)'
echo "exit $?"
echo "== search (spaces and all, any case, again with / alone, from the start after the end) and the nth quest"
printf '%s\n' '/ Quest 2 FAILS' '/' 'Q 4' '/ Bob (p2) votes' '/' 'Q 9' 'Q' '/ nothing like this' '/' \
    | camelog step game.camelog | grep -E '^(line|quest|Bob)'
echo "exit $?"
