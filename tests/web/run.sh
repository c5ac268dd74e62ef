#!/usr/bin/env bash
# tests/web/run.sh - make web-test: the WebAssembly verifier agrees with
# camelog verify (tests/web/agree.mjs) on every file of samples/ and
# tests/data/, on a corpus simulated here (Avalon with and without the
# Lady, entropy and seat signatures; Shadows over Camelot with them),
# its logs also with the dealer key pinned, and on tampered copies of
# every valid log; then the seat calls (tests/web/seat.mjs,
# tests/web/choice.mjs); then pages
# of camelog html --wasm that verify themselves in headless Chromium
# (tests/web/test_selfcheck.py).
#
#   CAMELOG=build/camelog WASM_DIR=build/wasm bash tests/web/run.sh
set -eu

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
camelog=$(cd "$(dirname "${CAMELOG:?}")" && pwd)/$(basename "$CAMELOG")
wasm_dir=$(cd "${WASM_DIR:?}" && pwd)
node=${NODE:-node}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/camelog-web.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$camelog" keygen -o "$tmp/dealer" >/dev/null
sim() { # sim DIR ARGS...: simulated games into $tmp/corpus/DIR
    local dir=$1
    shift
    "$camelog" simulate -q -j 2 --key "$tmp/dealer.key" \
        -o "$tmp/corpus/$dir" "$@" >/dev/null
}
mkdir -p "$tmp/corpus"
sim avalon-7 --game avalon --players 7 --count 60 --seed 5eed01
sim avalon-lady --game avalon --players 8 --lady --entropy --sigs \
    --count 30 --seed 5eed02 --roles merlin,percival,servant,servant,servant,assassin,morgana,mordred
sim avalon-random --game avalon --players 5 --bot random --count 30 \
    --seed 5eed03
sim soc-5 --game soc --players 5 --entropy --sigs --count 20 --seed 5eed04
sim soc-random --game soc --players 4 --bot random --count 20 --seed 5eed05

cd "$srcdir"
"$node" "$here/agree.mjs" "$camelog" "$wasm_dir" "$tmp/work" \
    "$tmp/dealer.pub" samples tests/data \
    "$tmp/corpus/avalon-7=pin" "$tmp/corpus/avalon-lady=pin" \
    "$tmp/corpus/avalon-random=pin" "$tmp/corpus/soc-5=pin" \
    "$tmp/corpus/soc-random=pin"

# The seat calls, on one signed game of each kind with its deliveries.
for g in "avalon --players 7 --lady --roles merlin,percival,servant,servant,assassin,morgana,mordred" \
    "soc --players 5"; do
    name=${g%% *}
    # shellcheck disable=SC2086
    "$camelog" simulate -q --game $g --entropy --sigs --seed 5eed10 \
        --deliveries "$tmp/dl-$name" --key "$tmp/dealer.key" \
        -o "$tmp/$name.camelog" >/dev/null
    mkdir -p "$tmp/seat-$name"
    "$node" "$here/seat.mjs" "$camelog" "$wasm_dir" "$tmp/$name.camelog" \
        "$tmp/dl-$name" "$tmp/dealer.pub" "$tmp/seat-$name"
done
# The calls the example table's pages make too: signing the seat's own
# choice, and the history against the final file.
"$node" "$here/choice.mjs" "$camelog" "$wasm_dir" "$tmp/avalon.camelog" \
    "$tmp/dl-avalon" "$tmp/dealer.pub" "$tmp/seat-avalon"

# Pages of camelog html --wasm verify themselves in headless Chromium.
BROWSER_REQUIRED=${BROWSER_REQUIRED-1} CAMELOG=$camelog WASM_DIR=$wasm_dir \
    "${BROWSER_PYTHON:-/usr/bin/python3}" "$here/test_selfcheck.py"
