# A named input that is not a regular file (a FIFO here) is refused at
# once, naming the file, instead of waiting for a writer for ever; "-"
# (standard input) may still be a pipe.  timeout turns a hang into 124.
seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
camelog keygen --seed $seed -o dealer >/dev/null
camelog simulate --game avalon --players 5 --seed 05 \
    --key dealer.key -o game.camelog >/dev/null
camelog cat game.camelog >game.txt
mkfifo fifo
chmod 600 fifo # check_mode must refuse it for what it is, not its mode
t() {
    timeout 20 camelog "$@"
    echo "exit $?"
}
echo "== pack --key FIFO"
t pack --key fifo game.txt -o a.camelog
echo "== pack FIFO"
t pack fifo -o b.camelog
echo "== verify FIFO"
t verify fifo
echo "== verify --pubkey FIFO"
t verify --pubkey fifo game.camelog
echo "== simulate --key FIFO"
t simulate --game avalon --players 5 --seed 05 --key fifo -o c.camelog
echo "== cat, replay, diff FIFO"
t cat fifo
t replay fifo
t diff game.camelog fifo
echo "== archive stats FIFO"
t archive stats fifo
echo "== a character device is not a regular file either"
t verify /dev/null
echo "== standard input may be a pipe"
cat dealer.key | timeout 20 camelog pack --key - game.txt -o d.camelog
echo "exit $?"
cat game.camelog | timeout 20 camelog verify - >/dev/null
echo "exit $?"
cat game.txt | timeout 20 camelog pack - -o e.camelog
echo "exit $?"
ls
