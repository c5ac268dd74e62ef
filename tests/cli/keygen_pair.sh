# keygen writes both files or neither: the pair goes to temporary files
# first and is put in place only when both are written.  Here the .pub
# cannot be replaced (a directory stands in its place, --force given):
# no dealer.key is left without its public half, and no temporary file.
seed=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
mkdir dealer.pub
camelog keygen --seed $seed --force -o dealer
echo "exit $?"
ls -A
echo "== the other way round: the .key cannot be replaced"
rmdir dealer.pub
mkdir other.key
camelog keygen --seed $seed --force -o other
echo "exit $?"
ls -A
