#!/usr/bin/env bash
# grammar_sync.sh - the grammar displays of camelog(5) and
# camelog-avalon(7) are copies of schema/camelog.abnf: camelog(5) carries
# the whole file, camelog-avalon(7) a run of its lines.  Fails naming the
# page when a copy drifted.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

abnf=schema/camelog.abnf

# The display between the markers, with mdoc's \e turned back into \.
display() {
    sed -n '/GRAMMAR-BEGIN/,/GRAMMAR-END/p' "$1" |
        sed -e '1,2d' -e '$d' | sed -e '$d' -e 's/\\e/\\/g' -e 's/^\\&//'
}

status=0
if ! diff -u "$abnf" <(display man/man5/camelog.5) >/dev/null; then
    echo "grammar: man/man5/camelog.5 differs from $abnf:" >&2
    diff -u "$abnf" <(display man/man5/camelog.5) | head -20 >&2 || true
    status=1
fi
part=$(display man/man7/camelog-avalon.7)
if [ -z "$part" ] || ! grep -qxF -f <(printf '%s\n' "$part") "$abnf" ||
    [ "$(grep -cxF -f <(printf '%s\n' "$part") "$abnf")" -lt \
        "$(printf '%s\n' "$part" | sort -u | wc -l)" ]; then
    echo "grammar: man/man7/camelog-avalon.7 has lines not in $abnf" >&2
    status=1
fi
[ "$status" -ne 0 ] || echo "grammar: man page copies match $abnf"
exit "$status"
