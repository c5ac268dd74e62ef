# The public key given where the secret key belongs is named for what it
# is (its mode 0644 is right for a public key: no chmod advice).
seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
camelog keygen --seed $seed -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
camelog cat game.camelog >game.txt
camelog pack --key dealer.pub game.txt -o a.camelog
echo "exit $?"
camelog simulate --game avalon --players 5 --seed 05 --key dealer.pub \
    -o b.camelog
echo "exit $?"
chmod 600 dealer.pub
camelog pack --key dealer.pub game.txt -o a.camelog
echo "exit $?"
echo "== a secret key readable by others still gets the advice"
chmod 644 dealer.key
camelog pack --key dealer.key game.txt -o a.camelog
echo "exit $?"
ls
