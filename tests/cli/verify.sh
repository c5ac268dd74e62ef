# verify: a complete log, with the dealer key pinned (file or base64) or
# trusted from the file; --json; -q.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o dealer >/dev/null
camelog simulate --game avalon --players 7 --lady --seed 01 \
    --key dealer.key -o game.camelog >/dev/null
camelog simulate --game avalon --players 5 --entropy --sigs --seed 03 \
    --key dealer.key -o sigs.camelog >/dev/null
camelog verify --pubkey dealer.pub game.camelog sigs.camelog
echo "exit $?"
camelog verify --pubkey "$(sed -n 2p dealer.pub)" game.camelog
echo "exit $?"
# Trusted, not pinned: said once per key.
camelog verify game.camelog sigs.camelog
echo "exit $?"
camelog verify -q game.camelog
echo "exit $?"
camelog verify --json game.camelog
echo "exit $?"
camelog verify --json --pubkey dealer.pub sigs.camelog
echo "exit $?"
# Standard input.
camelog verify --pubkey dealer.pub - <game.camelog
echo "exit $?"
