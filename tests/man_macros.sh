#!/usr/bin/env bash
# tests/man_macros.sh - no mdoc macro reaches the reader as a word: each
# man page given is rendered with mandoc, and a word that is the name of
# an mdoc macro (as `Ns` once was, inside a Ql whose escaped space made
# it text) fails the page.  "Ed" is left out: it is the two bytes of a
# minisign key, not only the end of a display.
set -u -o pipefail
macros='Ns|Ar|Li|Ql|Xr|Sx|Fl|Cm|Pa|Dq|Qq|Sq|Pq|Dv|Fn|Fa|Sy|Ta|Bd|Bl|El|Op|Oo|Oc|Brq|Po|Pc|Nm|Sh|Ss'
failed=0
for page in "$@"; do
    # The page as a reader sees it: mandoc's bold and underline are a
    # character, a backspace and another, of which the last is kept.
    if ! text=$(mandoc -T utf8 -O width=200 "$page" 2>/dev/null |
        sed 's/.\x08//g') || [ -z "$text" ]; then
        echo "$page: mandoc rendered nothing" >&2
        failed=$((failed + 1))
        continue
    fi
    hits=$(printf '%s\n' "$text" | grep -n -w -E "$macros")
    if [ -n "$hits" ]; then
        printf '%s\n' "$hits" | sed "s|^|$page: rendered line |" >&2
        failed=$((failed + 1))
    fi
done
echo "man-macros: $# man pages rendered, $failed with a macro shown as text"
[ "$failed" -eq 0 ]
