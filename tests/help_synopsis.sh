#!/usr/bin/env bash
# tests/help_synopsis.sh - each command's usage is its man page SYNOPSIS,
# word for word.
#
# For man/man1/camelog-CMD.1 it compares the SYNOPSIS section (rendered
# by mandoc) with the usage block of `camelog CMD --help`; for camelog.1,
# with `camelog --help`.  The usage block is what --help prints before
# its first empty line, without the leading `usage:`; both sides are
# compared as sequences of words, so line breaks and indentation do not
# matter.  --help must exit 0.
#
# The binary is $CAMELOG (default build/camelog).  Exits 1 if any page
# differs from its command or a page's command does not answer --help,
# 2 if it cannot run at all.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "$here/.." && pwd)
camelog=${CAMELOG:-$srcdir/build/camelog}

if [ ! -x "$camelog" ]; then
    echo "help-synopsis: $camelog not found: build it with make" >&2
    exit 2
fi
if ! command -v mandoc >/dev/null; then
    echo "help-synopsis: mandoc not found: run make deps" >&2
    exit 2
fi

# The SYNOPSIS of man page $1 as words, one a line.  mandoc -T ascii
# draws bold and underline by overstriking (c BS c, _ BS c); sed removes
# the first character and the backspace of each pair.
synopsis_words() {
    mandoc -T ascii -O width=1000 "$1" | sed -e 's/.\x08//g' |
        awk '/^[A-Z]/ { in_syn = ($0 == "SYNOPSIS"); next } in_syn' |
        tr -s '[:blank:]' '[\n*]' | sed -e '/^$/d'
}

# The usage block of `camelog $@ --help` as words, one a line.
usage_words() {
    LC_ALL=C "$camelog" "$@" --help </dev/null |
        awk '/^$/ { exit } { print }' |
        tr -s '[:blank:]' '[\n*]' | sed -e '/^$/d' | sed -e '1{/^usage:$/d;}'
}

pages=("$srcdir"/man/man1/camelog.1 "$srcdir"/man/man1/camelog-*.1)
checked=0
failed=()
for page in "${pages[@]}"; do
    [ -e "$page" ] || continue
    base=$(basename "$page" .1)
    if [ "$base" = camelog ]; then
        cmd=()
        what="camelog --help"
    else
        cmd=("${base#camelog-}")
        what="camelog ${cmd[0]} --help"
    fi
    checked=$((checked + 1))

    help_out=$(LC_ALL=C "$camelog" "${cmd[@]}" --help 2>&1 </dev/null)
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL $base: '$what' exited with status $status:"
        printf '%s\n' "$help_out" | sed -e 's/^/  /' | head -5
        failed+=("$base")
        continue
    fi
    first=$(LC_ALL=C "$camelog" "${cmd[@]}" --help </dev/null | head -n 1)
    case $first in
    "usage: "*) ;;
    *)
        echo "FAIL $base: '$what' does not start with 'usage: ': $first"
        failed+=("$base")
        continue
        ;;
    esac

    want=$(synopsis_words "$page")
    got=$(usage_words "${cmd[@]}")
    if [ -z "$want" ]; then
        echo "FAIL $base: $page has no SYNOPSIS"
        failed+=("$base")
    elif [ "$want" != "$got" ]; then
        echo "FAIL $base: '$what' differs from the SYNOPSIS of $page"
        echo "  SYNOPSIS: $(printf '%s\n' "$want" | tr '\n' ' ')"
        echo "  --help:   $(printf '%s\n' "$got" | tr '\n' ' ')"
        diff -u --label SYNOPSIS --label usage \
            <(printf '%s\n' "$want") <(printf '%s\n' "$got") |
            sed -e 1,2d -e 's/^/    /'
        failed+=("$base")
    fi
done

if [ "$checked" -eq 0 ]; then
    echo "help-synopsis: no man/man1 pages yet"
    exit 0
fi
echo "help-synopsis: $checked man1 pages checked, ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
[ ${#failed[@]} -eq 0 ]
