#!/usr/bin/env bash
# bench/wasm.sh - make bench's wasm figures (bench/wasm.mjs, and
# bench/web_page.py in headless Chromium) on three
# simulated sets: Avalon (7 seats, the plausible bot) dealt by the dealer
# alone; the same with every seat contributing entropy and signing its
# lines; Shadows over Camelot (5 seats) with them.
#
#   CAMELOG=build/camelog WASM_DIR=build/wasm bash bench/wasm.sh [scale]
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scale=${1:-1}
count() { # count N: N times the scale, at least 5
    awk -v s="$scale" -v n="$1" 'BEGIN { n = int(n * s); print n < 5 ? 5 : n }'
}
n_plain=$(count 1000)
n_signed=$(count 200)
n_soc=$(count 50)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/camelog-wasm-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$CAMELOG" keygen -o "$tmp/dealer" >/dev/null
sim() { # sim DIR COUNT ARGS...
    local dir=$1 n=$2
    shift 2
    "$CAMELOG" simulate -q -j 2 --count "$n" --key "$tmp/dealer.key" \
        -o "$tmp/$dir" "$@" >/dev/null
}
sim avalon "$n_plain" --game avalon --players 7 --seed 5eedb0
sim avalon-signed "$n_signed" --game avalon --players 7 --entropy --sigs \
    --seed 5eedb1
sim soc-signed "$n_soc" --game soc --players 5 --entropy --sigs \
    --seed 5eedb2
node "$here/wasm.mjs" "$CAMELOG" "$WASM_DIR" "$tmp/avalon" \
    "$tmp/avalon-signed" "$tmp/soc-signed"
# The seat page's bytes, and the same verify in headless Chromium.
CAMELOG=$CAMELOG WASM_DIR=$WASM_DIR "${BROWSER_PYTHON:-/usr/bin/python3}" \
    "$here/web_page.py" "$tmp/avalon" "$tmp/avalon-signed" "$tmp/soc-signed"
