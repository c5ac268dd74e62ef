#!/bin/sh
# lib/web/deps.sh - zlib, libsodium and jansson for wasm32-wasi, from
# Debian's source packages, for make wasm.
#
#   sh lib/web/deps.sh OUT
#
# OUT/src holds the source packages (apt-get source --download-only,
# then dpkg-source -x, which applies Debian's patches); OUT/sysroot the
# headers and static libraries built from them with clang's wasm32
# target and wasi-libc (deps/wasm).  Nothing but Debian's source
# packages is downloaded, and nothing again once OUT/src has them.
#
# apt-get source needs a deb-src line for bookworm: as root the script
# adds one (/etc/apt/sources.list.d/camelog-deb-src.sources) and runs
# apt-get update, once; otherwise it prints what to run.
set -eu

out=${1:?usage: sh lib/web/deps.sh OUT}
CC_WASM=${CC_WASM:-clang-14}
AR_WASM=${AR_WASM:-llvm-ar-14}
JOBS=${JOBS:-2}
SYSROOT=${WASI_SYSROOT:-/usr}
PKGS="zlib libsodium jansson"

src=$out/src
sys=$out/sysroot
mkdir -p "$src" "$sys/include" "$sys/lib"
src=$(cd "$src" && pwd)
sys=$(cd "$sys" && pwd)

# ------------------------------------------------------------- sources

has_sources() {
    for p in $PKGS; do
        ls "$src/$p"_*.dsc >/dev/null 2>&1 || return 1
    done
}

deb_src_list=/etc/apt/sources.list.d/camelog-deb-src.sources
deb_src_ready() {
    apt-get indextargets 'Identifier: Sources' 2>/dev/null | grep -q .
}

if ! has_sources; then
    if ! deb_src_ready; then
        if [ "$(id -u)" -ne 0 ]; then
            echo "wasm: apt has no deb-src line; as root, run:" >&2
            echo "  sh lib/web/deps.sh $out" >&2
            echo "(it adds $deb_src_list for bookworm and runs apt-get update)" >&2
            exit 1
        fi
        echo "+ adding $deb_src_list"
        cat >"$deb_src_list" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
        echo "+ apt-get update"
        apt-get update
    fi
    echo "+ apt-get source --download-only $PKGS"
    (cd "$src" && apt-get source --download-only $PKGS)
    has_sources || {
        echo "wasm: apt-get source left no .dsc for each of: $PKGS" >&2
        exit 1
    }
fi

# The unpacked tree of package p (dpkg-source -x of its .dsc, once).
tree_of() {
    dsc=$(ls "$src/$1"_*.dsc | tail -n 1)
    dir=$src/$(basename "$dsc" .dsc).tree
    if [ ! -d "$dir" ]; then
        rm -rf "$dir.tmp"
        dpkg-source --no-check -x "$dsc" "$dir.tmp" >/dev/null
        mv "$dir.tmp" "$dir"
    fi
    echo "$dir"
}

# ------------------------------------------------------------- build

CFLAGS_WASM="--target=wasm32-wasi --sysroot=$SYSROOT -Oz -ffunction-sections \
-fdata-sections -w"

# compile LIB OBJDIR CFLAGS FILE...: each FILE into OBJDIR, JOBS at a
# time, then LIB (an archive with its symbol index).
compile() {
    lib=$1 objdir=$2 flags=$3
    shift 3
    rm -rf "$objdir"
    mkdir -p "$objdir"
    # shellcheck disable=SC2016
    printf '%s\n' "$@" | xargs -P "$JOBS" -I {} sh -c '
        o="$1/$(printf %s "$3" | tr / _).o"
        $4 $2 -c "$3" -o "$o"' sh "$objdir" "$CFLAGS_WASM $flags" {} \
        "$CC_WASM"
    rm -f "$lib"
    "$AR_WASM" rcs "$lib" "$objdir"/*.o
}

{
    t=$(tree_of zlib)
    echo "+ zlib for wasm32 ($t)"
    cp "$t/zlib.h" "$t/zconf.h" "$sys/include/"
    compile "$sys/lib/libz.a" "$out/obj/zlib" "-I$t" \
        "$t/adler32.c" "$t/crc32.c" "$t/deflate.c" "$t/inflate.c" \
        "$t/inffast.c" "$t/inftrees.c" "$t/trees.c" "$t/zutil.c"
}

{
    t=$(tree_of jansson)
    echo "+ jansson for wasm32 ($t)"
    # What jansson's configure finds on wasi-libc; its hash seed comes
    # from the clock (no /dev/urandom to open).
    sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' \
        -e 's/@json_have_localeconv@/0/' \
        -e 's/@json_have_atomic_builtins@/1/' \
        -e 's/@json_have_sync_builtins@/1/' \
        "$t/src/jansson_config.h.in" >"$sys/include/jansson_config.h"
    cp "$t/src/jansson.h" "$sys/include/"
    mkdir -p "$out/obj/jansson-config"
    printf '/* Written by lib/web/deps.sh: the defines are on the command line. */\n' \
        >"$out/obj/jansson-config/jansson_private_config.h"
    compile "$sys/lib/libjansson.a" "$out/obj/jansson" \
        "-I$sys/include -I$out/obj/jansson-config -DHAVE_STDINT_H=1 -DHAVE_ATOMIC_BUILTINS=1 \
-DHAVE_SYNC_BUILTINS=1 -DINITIAL_HASHTABLE_ORDER=3" \
        $(for f in dump error hashtable hashtable_seed load memory \
            pack_unpack strbuffer strconv utf value version; do
            echo "$t/src/$f.c"
        done)
}

{
    t=$(tree_of libsodium)
    s=$t/src/libsodium
    echo "+ libsodium for wasm32 ($t)"
    ver=$(sed -n 's/^AC_INIT(\[libsodium\],\[\([0-9.]*\)\].*/\1/p' \
        "$t/configure.ac")
    major=$(sed -n 's/^SODIUM_LIBRARY_VERSION_MAJOR=//p' "$t/configure.ac")
    minor=$(sed -n 's/^SODIUM_LIBRARY_VERSION_MINOR=//p' "$t/configure.ac")
    [ -n "$ver" ] && [ -n "$major" ] && [ -n "$minor" ] || {
        echo "wasm: cannot read libsodium's version from configure.ac" >&2
        exit 1
    }
    mkdir -p "$sys/include/sodium"
    cp "$s/include/sodium.h" "$sys/include/"
    cp "$s"/include/sodium/*.h "$sys/include/sodium/"
    sed -e "s/@VERSION@/$ver/" \
        -e "s/@SODIUM_LIBRARY_VERSION_MAJOR@/$major/" \
        -e "s/@SODIUM_LIBRARY_VERSION_MINOR@/$minor/" \
        -e 's/@SODIUM_LIBRARY_MINIMAL_DEF@//' \
        "$s/include/sodium/version.h.in" >"$sys/include/sodium/version.h"
    # configure's findings for wasm32-wasi: little-endian; randomness
    # from arc4random_buf(), i.e. WASI's random_get; posix_memalign()
    # but no mmap, mprotect or mlock, so sodium_malloc() keeps its
    # canaries and sodium_free() its wipe, and sodium_mprotect_*() fail
    # with ENOSYS (a linear memory has no pages to protect).  signal.h
    # is included for a raise() that is never reached.
    compile "$sys/lib/libsodium.a" "$out/obj/sodium" \
        "-I$sys/include/sodium -I$s/include/sodium \
-I$s/include/sodium/private -DCONFIGURED=1 -DNATIVE_LITTLE_ENDIAN=1 \
-DHAVE_WEAK_SYMBOLS=1 -DHAVE_POSIX_MEMALIGN=1 -DHAVE_SYSCONF=1 \
-D_WASI_EMULATED_SIGNAL" \
        $(cd "$s" && find . -name '*.c' | sort | sed "s|^\./|$s/|")
}
touch "$sys/done"
echo "wasm: zlib, jansson and libsodium for wasm32 in $sys"
