#!/usr/bin/env bash
# grammar_sync.sh - the grammar displays of camelog(5) and
# camelog-avalon(7) are copies of schema/camelog.abnf: camelog(5) carries
# the whole file, camelog-avalon(7) its Avalon part (from the line that
# starts "; The four keys" to the end).  Fails naming the page when a copy
# drifted; with --write, regenerates both displays from the ABNF file.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

abnf=schema/camelog.abnf
avalon_from='^; The four keys'

# The mdoc display of ABNF text on stdin: \ becomes \e, and a line that
# starts with a dot or a quote is protected with \&.
to_mdoc() {
    sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

# The display between the markers of page $1, back as ABNF text.
display() {
    sed -n '/GRAMMAR-BEGIN/,/GRAMMAR-END/p' "$1" |
        sed -e '1,2d' -e '$d' | sed -e '$d' -e 's/^\\&//' -e 's/\\e/\\/g'
}

avalon_part() {
    sed -n "/$avalon_from/,\$p" "$abnf"
}

# Replaces the display of page $1 with the ABNF text on stdin.
write_display() {
    local page=$1 tmp
    tmp=$(mktemp)
    awk -v body="$(to_mdoc)" '
        /GRAMMAR-BEGIN/ { print; print ".Bd -literal"; print body;
                          print ".Ed"; skip = 1; next }
        /GRAMMAR-END/ { skip = 0 }
        !skip { print }' "$page" >"$tmp"
    cat "$tmp" >"$page"
    rm -f "$tmp"
}

if [ "${1:-}" = --write ]; then
    write_display man/man5/camelog.5 <"$abnf"
    avalon_part | write_display man/man7/camelog-avalon.7
    echo "grammar: displays written from $abnf"
    exit 0
fi

status=0
if ! diff -u "$abnf" <(display man/man5/camelog.5) >/dev/null; then
    echo "grammar: man/man5/camelog.5 differs from $abnf" \
        "(tests/grammar_sync.sh --write):" >&2
    diff -u "$abnf" <(display man/man5/camelog.5) | head -20 >&2 || true
    status=1
fi
if ! diff -u <(avalon_part) <(display man/man7/camelog-avalon.7) \
    >/dev/null; then
    echo "grammar: man/man7/camelog-avalon.7 differs from the Avalon part" \
        "of $abnf (tests/grammar_sync.sh --write):" >&2
    diff -u <(avalon_part) <(display man/man7/camelog-avalon.7) |
        head -20 >&2 || true
    status=1
fi
[ "$status" -ne 0 ] || echo "grammar: man page copies match $abnf"
exit "$status"
