#!/usr/bin/env bash
# tests/install/check.sh - make install into a temporary DESTDIR with
# PREFIX=/usr, compare the installed files with the expected list (and
# their modes and links), build version.c against them with
# `pkg-config --cflags --libs libreplay` (shared) and `--static`, run it,
# then make uninstall and check that nothing is left.
#
# Run by `make install-test` from the top of the tree, which passes CC,
# SAN_FLAGS (the sanitizer flags of the build under test), PKG_CONFIG,
# VERSION, SOVERSION and MAN_PAGES; the make below inherits the caller's
# MAKEFLAGS (and so its build directory).
set -euo pipefail

: "${CC:=cc}" "${SAN_FLAGS:=}" "${PKG_CONFIG:=pkg-config}"
: "${VERSION:?}" "${SOVERSION:?}" "${MAN_PAGES=}"
make=${MAKE:-make}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/camelog-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
fail=0
say_fail() {
    echo "install-test: $*" >&2
    fail=1
}

"$make" --no-print-directory -s install DESTDIR="$root" PREFIX=/usr \
    >"$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log" >&2
    echo "install-test: make install failed" >&2
    exit 1
}

# What must be there: mode (or link target) and path.
{
    echo "755 usr/bin/camelog"
    echo "644 usr/include/libreplay/replay.h"
    echo "644 usr/lib/libreplay.a"
    echo "-> libreplay.so.$SOVERSION usr/lib/libreplay.so"
    echo "-> libreplay.so.$VERSION usr/lib/libreplay.so.$SOVERSION"
    echo "755 usr/lib/libreplay.so.$VERSION"
    echo "644 usr/lib/pkgconfig/libreplay.pc"
    for page in $MAN_PAGES; do
        echo "644 usr/share/${page}"
    done
} | sort -k 2 >"$tmp/expected"
(
    cd "$root"
    find . \( -type f -o -type l \) -printf '%P\n' | sort | while read -r f; do
        if [ -L "$f" ]; then
            echo "-> $(readlink "$f") $f"
        else
            echo "$(stat -c %a "$f") $f"
        fi
    done
) | sort -k 2 >"$tmp/actual"
if ! cmp -s "$tmp/expected" "$tmp/actual"; then
    say_fail "installed files differ from the expected list:"
    diff -u --label expected --label installed "$tmp/expected" \
        "$tmp/actual" >&2 || true
fi

# A program outside the tree, through pkg-config: the installed .pc says
# prefix=/usr, so the sysroot puts the paths under DESTDIR.
export PKG_CONFIG_PATH=$root/usr/lib/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$root
if ! "$PKG_CONFIG" --exists libreplay; then
    say_fail "pkg-config does not find libreplay in $PKG_CONFIG_PATH"
    exit 1
fi
pc_version=$("$PKG_CONFIG" --modversion libreplay)
[ "$pc_version" = "$VERSION" ] ||
    say_fail "libreplay.pc says version $pc_version, expected $VERSION"
read -r -a cflags <<<"$("$PKG_CONFIG" --cflags libreplay)"
read -r -a libs <<<"$("$PKG_CONFIG" --libs libreplay)"
read -r -a static_libs <<<"$("$PKG_CONFIG" --static --libs libreplay)"
read -r -a san <<<"$SAN_FLAGS"
# --static lists the private dependencies too; libreplay itself is taken
# from the archive, the system libraries as usual.
static_link=()
for word in "${static_libs[@]}"; do
    if [ "$word" = -lreplay ]; then
        static_link+=("-Wl,-Bstatic" -lreplay "-Wl,-Bdynamic")
    else
        static_link+=("$word")
    fi
done
echo "+ cc version.c ${cflags[*]} ${libs[*]}" | sed -e "s|$root|\$DESTDIR|g"

cp "$here/version.c" "$tmp/version.c"
(
    cd "$tmp"
    "$CC" -std=c11 -Wall -Wextra -Werror ${san[@]+"${san[@]}"} version.c \
        "${cflags[@]}" "${libs[@]}" -o version
    "$CC" -std=c11 -Wall -Wextra -Werror ${san[@]+"${san[@]}"} version.c \
        "${cflags[@]}" "${static_link[@]}" -o version-static
) || {
    say_fail "version.c does not build against the installed library"
    exit 1
}

# The shared build must load the installed .so through its soname.
out=$(LD_LIBRARY_PATH=$root/usr/lib "$tmp/version") ||
    say_fail "version (shared) failed"
[ "${out:-}" = "$VERSION" ] ||
    say_fail "version (shared) printed '${out:-}', expected $VERSION"
# (ldd's output is read whole: grep -q could end the pipe early.)
loaded=$(LD_LIBRARY_PATH=$root/usr/lib ldd "$tmp/version" || true)
case $loaded in
*"libreplay.so.$SOVERSION => $root/usr/lib/libreplay.so.$SOVERSION "*) ;;
*) say_fail "version (shared) does not load" \
    "$root/usr/lib/libreplay.so.$SOVERSION:" "$loaded" ;;
esac
out=$("$tmp/version-static") || say_fail "version (static) failed"
[ "${out:-}" = "$VERSION" ] ||
    say_fail "version (static) printed '${out:-}', expected $VERSION"
loaded=$(ldd "$tmp/version-static" || true)
case $loaded in
*libreplay*) say_fail "version (static) loads a shared libreplay" ;;
esac

"$make" --no-print-directory -s uninstall DESTDIR="$root" PREFIX=/usr \
    >"$tmp/uninstall.log" 2>&1 || {
    cat "$tmp/uninstall.log" >&2
    say_fail "make uninstall failed"
}
left=$(cd "$root" && find . \( -type f -o -type l \) -printf '%P\n')
[ -z "$left" ] || say_fail "make uninstall left:" "$left"

if [ "$fail" -eq 0 ]; then
    echo "install-test: $(wc -l <"$tmp/expected") files installed," \
        "version.c built (shared and static) and ran: $VERSION;" \
        "uninstall left nothing"
fi
exit "$fail"
