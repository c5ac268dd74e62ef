# tlog crash: appends killed with SIGKILL at many points leave a log that
# opens and resumes; every append that returned is still there, a killed
# append is all there or not at all, and the checkpoint on disk never
# covers a tile that was not written (the directory verifies after every
# kill).
camelog keygen --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f -o host >/dev/null
camelog tlog init --origin example.org/games log
for i in 0 1 2 3 4 5 6 7 8 9; do printf 'entry %s\n' "$i" >e$i; done
batch=()
for i in $(seq 0 599); do batch+=("e$((i % 10))"); done
printf 'acked\n' >acked
camelog tlog add log acked >/dev/null
camelog tlog checkpoint --key host.key log >/dev/null
size=1 bad=0 torn=0
acked_at=(0)
for k in $(seq 1 40); do
    camelog tlog add log "${batch[@]}" >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '0.%03d' $((k * 17 % 700)))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    # The log resumes: its size is the old one or the old one plus the
    # whole batch, and the checkpoint still verifies.
    now=$(camelog tlog prove log 0 | sed -n 's/^size //p')
    if [ "$now" != "$size" ] && [ "$now" != $((size + 600)) ]; then
        echo "kill $k: size $now after $size"
        torn=$((torn + 1))
    fi
    size=$now
    camelog tlog verify --pubkey host.pub log >/dev/null || bad=$((bad + 1))
    # An acknowledged append, then a checkpoint.
    camelog tlog add log acked >/dev/null || echo "kill $k: append failed"
    acked_at+=("$size")
    size=$((size + 1))
    camelog tlog checkpoint --key host.key log >/dev/null ||
        echo "kill $k: checkpoint failed"
done
echo "40 kills: $torn torn appends, $bad directories that failed to verify"
camelog tlog verify --pubkey host.pub log | sed 's/[0-9]* entries/N entries/'
lost=0
for i in "${acked_at[@]}"; do
    camelog tlog prove log "$i" >p
    camelog tlog verify --pubkey host.pub --checkpoint log/checkpoint \
        --entry acked p >/dev/null || lost=$((lost + 1))
done
echo "${#acked_at[@]} acknowledged appends, $lost lost"
