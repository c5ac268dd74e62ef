#!/bin/sh
# deps/install.sh - install the Debian packages of the named lists.
#
#   sh deps/install.sh LIST...        install what is missing (as root)
#   sh deps/install.sh --list LIST... print the lists' packages, one a line
#
# A LIST is a file of this folder: one Debian package a line, '#' starts
# a comment.  The Makefile (make deps, demo, check, fuzz, fresh) and
# .ci/run read the lists through this script alone, so that what a target
# installs and what CI installs cannot drift apart.
#
# A package counts as present when dpkg says it is installed.  When some
# are missing: as root, 'apt-get update' (once) and 'apt-get install' of
# the missing ones, then a check that each is installed; otherwise the
# exact apt-get line to run as root, and exit status 1.
set -eu

here=$(dirname "$0")
list=
if [ "${1-}" = --list ]; then
    list=1
    shift
fi
if [ $# -eq 0 ]; then
    echo "usage: sh deps/install.sh [--list] LIST..." >&2
    exit 2
fi

pkgs=
for name in "$@"; do
    file=$here/$name
    if [ ! -f "$file" ]; then
        echo "deps: no list '$name' in $here" >&2
        exit 2
    fi
    for p in $(sed 's/#.*//' "$file"); do
        case " $pkgs " in
        *" $p "*) ;;
        *) pkgs="$pkgs $p" ;;
        esac
    done
done

if [ -n "$list" ]; then
    printf '%s\n' $pkgs
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system (no dpkg-query); install the" \
        "equivalents of:$pkgs" >&2
    exit 0
fi

missing_of() {
    out=
    for p in $pkgs; do
        st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null) ||
            st=
        [ "$st" = installed ] || out="$out $p"
    done
    echo "$out"
}

missing=$(missing_of)
[ -z "$missing" ] && exit 0

echo "deps ($*): missing:$missing" >&2
if [ "$(id -u)" -ne 0 ]; then
    echo "deps: as root, run:" >&2
    echo "apt-get update && apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi
echo "+ apt-get update"
apt-get update
echo "+ apt-get install -y --no-install-recommends$missing"
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    $missing
still=$(missing_of)
if [ -n "$still" ]; then
    echo "deps: still missing after apt-get install:$still" >&2
    exit 1
fi
