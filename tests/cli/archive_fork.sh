# archive add: two logs of one game, both sealed by its dealer, neither
# a prefix of the other (a fork), are not both stored: the second is
# refused at the line where they part, in either order, and the game
# counts once.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 61 --key dealer.key \
    -o full.camelog >/dev/null
# The same game sealed after its second quest: another history, which
# has a seal where the full one goes on.
camelog cat full.camelog | awk '{ print } /^quest / && ++n == 2 { exit }' >part.txt
echo seal >>part.txt
camelog pack --key dealer.key part.txt -o part.camelog >/dev/null
camelog verify -q part.camelog full.camelog
echo "== full, then part"
camelog archive add games.db full.camelog part.camelog
echo "exit $?"
camelog archive sql games.db 'SELECT count(*) AS logs, min(progress) AS progress FROM game'
echo "== part, then full"
camelog archive add other.db part.camelog
camelog archive add other.db full.camelog
echo "exit $?"
camelog archive stats other.db --json | grep -o '^{"games":[0-9]*'
camelog archive check games.db
camelog archive check other.db
