# tlog tampering: a changed tile byte, a changed or dropped entry, a
# checkpoint with a smaller size or another root, a forged or foreign
# note signature, a doctored proof: each refused (exit 1), naming what is
# wrong.
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o host >/dev/null
camelog keygen --seed 1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100 -o other >/dev/null
for i in $(seq 1 300); do printf 'entry %s\n' "$i" >e$i; done
camelog tlog init --origin example.org/games log
camelog tlog add log e1 e2 e3 >/dev/null
camelog tlog checkpoint --key host.key log
cp log/checkpoint cp3
camelog tlog add log $(seq -f 'e%g' 4 300) >/dev/null
camelog tlog checkpoint --key host.key log
cp log/checkpoint cp300
camelog tlog verify --pubkey host.pub log
try() { # try DESCRIPTION COMMAND...: the command's message and status
    echo "== $1"
    shift
    "$@"
    echo "exit $?"
}
fresh() { rm -rf bad && cp -r log bad; }

fresh
printf '\377' | dd of=bad/tile/0/001.p/44 bs=1 seek=100 conv=notrunc 2>/dev/null
try "a changed byte of a level-0 tile" camelog tlog verify --pubkey host.pub bad
fresh
printf '\377' | dd of=bad/tile/1/000.p/1 bs=1 seek=0 conv=notrunc 2>/dev/null
try "a changed byte of a level-1 tile" camelog tlog verify --pubkey host.pub bad
fresh
printf 'X' | dd of=bad/tile/entries/000 bs=1 seek=2 conv=notrunc 2>/dev/null
try "a changed byte of an entry" camelog tlog verify --pubkey host.pub bad
fresh
truncate -s -12 bad/tile/entries/001.p/44
try "a dropped entry" camelog tlog verify --pubkey host.pub bad
fresh
head -c 200 log/tile/entries/000 >bad/tile/entries/000
try "a cut bundle" camelog tlog verify --pubkey host.pub bad
fresh
rm bad/tile/0/001.p/44
try "a missing tile" camelog tlog verify --pubkey host.pub bad

echo "== a checkpoint with a smaller size"
try "shown after the larger one" camelog tlog verify --pubkey host.pub \
    --checkpoint cp3 --old cp300
# Another history of 300 entries under the same key and origin.
camelog tlog init --origin example.org/games fork
camelog tlog add fork e1 e2 e3 $(seq -f 'e%g' 5 300) e4 >/dev/null
camelog tlog checkpoint --key host.key fork
cp fork/checkpoint fork300
try "another root, same size" camelog tlog verify --pubkey host.pub \
    --checkpoint fork300 --old cp300
camelog tlog prove --old 3 log >c3
try "another root, the honest proof" camelog tlog verify --pubkey host.pub \
    --checkpoint fork300 --old cp3 c3
fresh
cp fork300 bad/checkpoint
try "another root over these tiles" camelog tlog verify --pubkey host.pub bad

echo "== note signatures"
fresh
sed -i '$s/\(.\{50\}\)\(.\)/\1A/' bad/checkpoint
cmp -s log/checkpoint bad/checkpoint && sed -i '$s/\(.\{50\}\)\(.\)/\1B/' bad/checkpoint
try "a forged signature" camelog tlog verify --pubkey host.pub bad
fresh
sed -i '2s/300/299/' bad/checkpoint
try "a changed size under the signature" camelog tlog verify --pubkey host.pub bad
try "another key" camelog tlog verify --pubkey other.pub log
camelog tlog init --origin example.org/other third
camelog tlog checkpoint --key host.key third
try "another log's checkpoint" camelog tlog verify --pubkey host.pub \
    --checkpoint third/checkpoint --old cp3
fresh
head -n 3 log/checkpoint >bad/checkpoint
try "no signature line" camelog tlog verify --pubkey host.pub bad

echo "== proofs"
camelog tlog prove log 41 >p41
try "the honest proof" camelog tlog verify --pubkey host.pub \
    --checkpoint cp300 --entry e42 p41
try "another entry" camelog tlog verify --pubkey host.pub \
    --checkpoint cp300 --entry e43 p41
sed '6s/^./A/' p41 >bad41
cmp -s p41 bad41 && sed -i '6s/^./B/' bad41
try "a changed hash" camelog tlog verify --pubkey host.pub \
    --checkpoint cp300 bad41
sed '$d' p41 >short41
try "a hash dropped" camelog tlog verify --pubkey host.pub \
    --checkpoint cp300 short41
try "against another checkpoint" camelog tlog verify --pubkey host.pub \
    --checkpoint cp3 p41
printf 'camelog-tlog inclusion\nsize 300\nindex 041\n' >junk
try "a malformed proof" camelog tlog verify --pubkey host.pub \
    --checkpoint cp300 junk
