#!/usr/bin/env bash
# generate.sh - remakes the bad logs of tests/data/ from samples/ with the
# built tool (see README for what each one shows).  From the top of the
# tree, after `make` and `bash samples/generate.sh`:
#     bash tests/data/generate.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

camelog=${CAMELOG:-build/camelog}
src=samples/avalon-5.camelog
out=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp samples/dealer.key "$tmp/dealer.key"
chmod 600 "$tmp/dealer.key"

"$camelog" cat "$src" >"$tmp/text"
n=$(wc -l <"$tmp/text")

# The compressed file cut after 200 bytes.
head -c 200 "$src" >"$out/truncated.camelog"

# One byte of the deflate data flipped (byte 300).
cp "$src" "$out/flipped.camelog"
printf '\xff' | dd of="$out/flipped.camelog" bs=1 seek=300 conv=notrunc \
    status=none

# The final seal replaced by the seal after `end` (a valid signature of
# another head).
first_seal=$(grep -m1 '^seal ' "$tmp/text")
{ head -n $((n - 1)) "$tmp/text"; echo "$first_seal"; } | gzip -n \
    >"$out/forged-seal.camelog"

# A line one byte over RPL_MAX_LINE (4096 bytes).
{ head -n 3 "$tmp/text"; printf 'x%.0s' $(seq 4097); echo; } | gzip -n \
    >"$out/long-line.camelog"

# A vote that is neither yes nor no, re-sealed by the dealer.
sed '0,/^vote p3 yes$/s//vote p3 maybe/;0,/^vote p3 no$/s//vote p3 maybe/' \
    "$tmp/text" >"$tmp/vote"
"$camelog" pack --unchecked --force --key "$tmp/dealer.key" "$tmp/vote" \
    -o "$out/bad-vote.camelog" 2>/dev/null || [ $? -eq 1 ]

# p2's deal commitment on p1's line, re-sealed by the dealer: a false claim
# the reveal exposes.
deal2=$(sed -n 's/^deal p2 //p' "$tmp/text")
sed "s/^deal p1 .*/deal p1 $deal2/" "$tmp/text" >"$tmp/deal"
"$camelog" pack --unchecked --force --key "$tmp/dealer.key" "$tmp/deal" \
    -o "$out/wrong-deal.camelog" 2>/dev/null || [ $? -eq 1 ]
echo "generate: bad logs written to $out/"
