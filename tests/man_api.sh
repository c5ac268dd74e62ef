#!/usr/bin/env bash
# tests/man_api.sh SO PAGE - every function the shared library exports
# (rpl_ and a letter or digit) is documented in libreplay(3): declared in
# its SYNOPSIS (.Fn name) and named again in its DESCRIPTION; and every
# function the SYNOPSIS declares is exported.  Fails naming each one.
set -u
so=$1
page=$2
exported=$(nm -D --defined-only "$so" | awk '$2 == "T" { print $NF }' |
    grep '^rpl_[a-z0-9]' | sort -u)
synopsis=$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh DESCRIPTION/p' "$page" |
    awk '$1 == ".Fn" || $1 == ".Fo" { print $2 }' | sort -u)
described=$(sed -n '/^\.Sh DESCRIPTION/,/^\.Sh SEE ALSO/p' "$page" |
    grep -o '^\.Fn rpl_[a-z0-9_]*' | awk '{ print $2 }' | sort -u)
failed=0
for f in $(comm -23 <(printf '%s\n' "$exported") <(printf '%s\n' "$synopsis")); do
    echo "man-api: $f is exported but not in the SYNOPSIS of $page" >&2
    failed=$((failed + 1))
done
for f in $(comm -23 <(printf '%s\n' "$exported") <(printf '%s\n' "$described")); do
    echo "man-api: $f is exported but the DESCRIPTION of $page never names it" >&2
    failed=$((failed + 1))
done
for f in $(comm -13 <(printf '%s\n' "$exported") <(printf '%s\n' "$synopsis")); do
    echo "man-api: $page declares $f, which the library does not export" >&2
    failed=$((failed + 1))
done
n=$(printf '%s\n' "$exported" | grep -c .)
echo "man-api: $n exported functions, $failed not documented as exported"
[ "$failed" -eq 0 ]
