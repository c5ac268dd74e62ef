#!/usr/bin/env bash
# grammar_sync.sh - the grammar displays of camelog(5), camelog-avalon(7)
# and camelog-soc(7) are copies of schema/camelog.abnf: camelog(5)
# carries the whole file, camelog-avalon(7) its Avalon part (from the
# line that starts "; The four keys" to the last line before the next
# section's banner), camelog-soc(7) its Shadows over Camelot part (from
# the line that starts "; The three keys" to the end of the file).
# Fails naming the page when a copy drifted; with --write, regenerates
# the three displays from the ABNF file.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

abnf=schema/camelog.abnf
avalon_from='^; The four keys'
soc_from='^; The three keys'
# A section banner, "; ----...": where a game's part ends.
banner='^; -----'

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

# The lines of $abnf from the first line matching $1 to the last line
# before the next banner (or to the end), without the empty lines that
# end it.
part() {
    awk -v from="$1" -v banner="$banner" '
        !on && $0 ~ from { on = 1 }
        on && $0 ~ banner { exit }
        on { lines[++n] = $0 }
        END {
            while (n > 0 && lines[n] == "") n--
            for (i = 1; i <= n; i++) print lines[i]
        }' "$abnf"
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

# Each part must be there: a missing start line would copy nothing.
for from in "$avalon_from" "$soc_from"; do
    if ! grep -q "$from" "$abnf"; then
        echo "grammar: $abnf has no line matching '$from'" >&2
        exit 1
    fi
done

if [ "${1:-}" = --write ]; then
    write_display man/man5/camelog.5 <"$abnf"
    part "$avalon_from" | write_display man/man7/camelog-avalon.7
    part "$soc_from" | write_display man/man7/camelog-soc.7
    echo "grammar: displays written from $abnf"
    exit 0
fi

status=0
# check PAGE WHAT: the display of PAGE against the ABNF text on stdin.
check() {
    local page=$1 what=$2 want
    want=$(cat)
    if ! diff -u <(printf '%s\n' "$want") <(display "$page") >/dev/null; then
        echo "grammar: $page differs from $what" \
            "(tests/grammar_sync.sh --write):" >&2
        diff -u <(printf '%s\n' "$want") <(display "$page") |
            head -20 >&2 || true
        status=1
    fi
}
check man/man5/camelog.5 "$abnf" <"$abnf"
part "$avalon_from" | check man/man7/camelog-avalon.7 "the Avalon part of $abnf"
part "$soc_from" | check man/man7/camelog-soc.7 \
    "the Shadows over Camelot part of $abnf"
[ "$status" -ne 0 ] || echo "grammar: man page copies match $abnf"
exit "$status"
