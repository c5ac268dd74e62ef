# tlog interop: Go's golang.org/x/mod/sumdb/tlog and sumdb/note (Debian's
# golang-golang-x-mod-dev, built by make as $CAMELOG_TEST_BIN/tlog-interop)
# read our tiles, bundles and checkpoints, recompute the roots, check our
# note signatures and our proofs, and make proofs of their own that our
# verifier accepts.  Trees of 0 to 66,000 entries: partial and full tiles
# at levels 0, 1 and 2.
go=${CAMELOG_TEST_BIN:-$SRCDIR/build/tests}/tlog-interop
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o host >/dev/null
camelog tlog init --origin example.org/camelog-games log
vkey=$(camelog tlog vkey --pubkey host.pub example.org/camelog-games)
echo "$vkey"
for i in 0 1 2 3 4 5 6 7 8 9; do printf 'entry %s\n' "$i" >e$i; done
: >empty
size=0
grow() { # grow N: add entries until the log has N
    local want=$1 batch
    while [ "$size" -lt "$want" ]; do
        batch=()
        while [ "$size" -lt "$want" ] && [ "${#batch[@]}" -lt 1000 ]; do
            if [ $((size % 11)) -eq 5 ]; then batch+=(empty)
            else batch+=("e$((size % 10))"); fi
            size=$((size + 1))
        done
        camelog tlog add log "${batch[@]}" >/dev/null || exit 1
    done
}
prev=
for n in 0 1 2 3 7 8 255 256 257 511 513 1000 65535 65536 66000; do
    grow $n
    camelog tlog checkpoint --key host.key log
    cp log/checkpoint cp.$n
    "$go" host.pub log verify "$vkey" || echo "go refused the log at $n"
    [ "$n" -eq 0 ] && continue
    for i in 0 1 $((n / 2)) $((n - 1)); do
        [ "$i" -ge "$n" ] && continue
        camelog tlog prove log $i >ours || exit 1
        "$go" host.pub log inclusion ours >/dev/null ||
            echo "go refused our inclusion proof of $i in $n"
        "$go" host.pub log prove-inclusion $i >theirs
        cmp -s ours theirs || echo "the proofs of $i in $n differ"
        camelog tlog verify --pubkey host.pub --checkpoint log/checkpoint \
            theirs >/dev/null || echo "we refused go's proof of $i in $n"
    done
    for m in $prev; do
        camelog tlog prove --old $m log >ours || exit 1
        "$go" host.pub log consistency cp.$m ours >/dev/null ||
            echo "go refused our consistency proof $m -> $n"
        "$go" host.pub log prove-consistency $m >theirs
        cmp -s ours theirs || echo "the proofs $m -> $n differ"
        camelog tlog verify --pubkey host.pub --checkpoint log/checkpoint \
            --old cp.$m theirs >/dev/null ||
            echo "we refused go's consistency proof $m -> $n"
    done
    prev="$prev $n"
    [ "$n" -eq 0 ] && prev=
done
echo "== the files go read: full tiles, and the partial ones at 66,000"
find log -type f -path '*/tile/*' ! -path '*.p/*' | sed 's|/[^/]*$||' |
    sort | uniq -c
find log -type f -path '*.p/*' | sort
camelog tlog verify --pubkey host.pub log
echo "== go refuses a changed tile byte and a forged signature"
cp -r log bad
printf '\001' | dd of=bad/tile/0/000 bs=1 seek=8 conv=notrunc 2>/dev/null
"$go" host.pub bad verify "$vkey" 2>&1 | grep -v "^go: "
sed '$s/^\(.\{40\}\)./\1A/' log/checkpoint >bad/checkpoint
cmp -s log/checkpoint bad/checkpoint && sed -i '$s/^\(.\{40\}\)./\1B/' bad/checkpoint
"$go" host.pub bad verify "$vkey" 2>&1 | sed 's/note: .*/note: .../'
