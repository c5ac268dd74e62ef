# keygen writes NAME.key (0600) and NAME.pub, prints the public key, and
# refuses to overwrite without --force.
seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
camelog keygen --seed $seed -o dealer
echo "exit $?"
stat -c '%a %n' dealer.key dealer.pub
sed -n 2p dealer.pub
camelog keygen --seed $seed -o dealer
echo "exit $?"
camelog keygen --seed $seed --force -o dealer
echo "exit $?"
# Only the .pub exists: neither file is written.
mv dealer.key kept.key
camelog keygen -o dealer
echo "exit $?"
ls
camelog keygen --seed 0011 -o short
echo "exit $?"
camelog keygen -o no/such/dir/dealer
echo "exit $?"
# A fresh random key is a different key.
camelog keygen -o random >random.out
echo "exit $?"
cmp -s random.out <(sed -n 2p dealer.pub) || echo "random key differs"
