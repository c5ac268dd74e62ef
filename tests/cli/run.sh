#!/usr/bin/env bash
# tests/cli/run.sh - run the CLI tests: tests/cli/<name>.sh, each with
# <name>.out, <name>.err and <name>.exit beside it.
#
#   tests/cli/run.sh            every test
#   tests/cli/run.sh NAME...    some (NAME, NAME.sh or a path to it)
#
# Each script runs under bash, in a fresh temporary directory as its cwd,
# with stdin from /dev/null and this environment:
#   PATH      starts with a directory whose `camelog` execs the built
#             binary ($CAMELOG, default build/camelog), or runs it under
#             valgrind when VALGRIND=1
#   SAMPLES   absolute path of samples/
#   TESTDATA  absolute path of tests/data/
#   SRCDIR    absolute path of the repository
#   LC_ALL=C  TZ=UTC
# (the runner's own variables CAMELOG, VALGRIND, CLI_TIMEOUT and make's
# MAKEFLAGS, MFLAGS, MAKELEVEL are removed; the rest is inherited, so the
# sanitizers' ASAN_OPTIONS and UBSAN_OPTIONS reach camelog).
# Its stdout must equal <name>.out and its stderr <name>.err, byte for
# byte (a missing file means empty), and its exit status the number in
# <name>.exit (missing means 0).  A test running longer than
# CLI_TIMEOUT seconds (default 120, 600 under valgrind) fails.  With
# CLI_UPDATE=1 a failing test whose exit status is right takes its
# actual stdout and stderr as the expected files (review the diff first).
# Prints a diff for each failure and a count; exits 1 if any test failed,
# 2 if the tests could not run at all.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
camelog=${CAMELOG:-$srcdir/build/camelog}
case $camelog in
/*) ;;
*) camelog=$PWD/$camelog ;;
esac
valgrind=${VALGRIND:-}
if [ -n "$valgrind" ] && [ "$valgrind" != 0 ]; then
    timeout_s=${CLI_TIMEOUT:-600}
else
    valgrind=
    timeout_s=${CLI_TIMEOUT:-120}
fi

if [ ! -x "$camelog" ]; then
    echo "cli: $camelog not found: build it with make" >&2
    exit 2
fi
if [ -n "$valgrind" ] && ! command -v valgrind >/dev/null; then
    echo "cli: VALGRIND=1 but valgrind is not installed" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/camelog-cli.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
{
    echo '#!/bin/sh'
    if [ -n "$valgrind" ]; then
        printf 'exec valgrind --error-exitcode=99 --leak-check=full'
        printf ' --errors-for-leak-kinds=definite,indirect -q'
        printf " '%s' \"\$@\"\n" "$camelog"
    else
        printf "exec '%s' \"\$@\"\n" "$camelog"
    fi
} >"$work/bin/camelog"
chmod 755 "$work/bin/camelog"

tests=()
if [ $# -eq 0 ]; then
    for f in "$here"/*.sh; do
        [ -e "$f" ] || continue
        name=$(basename "$f" .sh)
        [ "$name" = run ] && continue
        tests+=("$name")
    done
else
    for arg in "$@"; do
        tests+=("$(basename "$arg" .sh)")
    done
fi
if [ ${#tests[@]} -eq 0 ]; then
    echo "cli: no tests yet"
    exit 0
fi

# Prints a unified diff of expected file $1 (or empty) against actual $2.
show_diff() {
    local expected=$1 actual=$2 what=$3
    if [ -e "$expected" ]; then
        diff -u --label "expected $what" --label "actual $what" \
            "$expected" "$actual"
    else
        diff -u --label "expected $what (none)" --label "actual $what" \
            /dev/null "$actual"
    fi
}

pass=0
fail=0
failed=()
for name in "${tests[@]}"; do
    script=$here/$name.sh
    if [ ! -f "$script" ]; then
        echo "FAIL $name: no such test ($script)"
        fail=$((fail + 1))
        failed+=("$name")
        continue
    fi
    dir=$work/$name
    mkdir -p "$dir/cwd"
    (
        cd "$dir/cwd" &&
            exec env -u CAMELOG -u VALGRIND -u CLI_TIMEOUT -u MAKEFLAGS \
                -u MFLAGS -u MAKELEVEL -u CLI_UPDATE \
                PATH="$work/bin:$PATH" SAMPLES="$srcdir/samples" \
                TESTDATA="$srcdir/tests/data" SRCDIR="$srcdir" \
                LC_ALL=C TZ=UTC \
                timeout -k 10 "$timeout_s" bash "$script" \
                >"$dir/out" 2>"$dir/err" </dev/null
    )
    status=$?

    expected_exit=0
    if [ -f "$here/$name.exit" ]; then
        expected_exit=$(tr -d ' \t\n' <"$here/$name.exit")
    fi
    ok=1
    msgs=()
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        ok=0
        msgs+=("timed out after ${timeout_s}s (status $status)")
    elif [ "$status" != "$expected_exit" ]; then
        ok=0
        msgs+=("exit status $status, expected $expected_exit")
    fi
    for stream in out err; do
        expected=$here/$name.$stream
        if [ -e "$expected" ]; then
            cmp -s "$expected" "$dir/$stream" || ok=0
        elif [ -s "$dir/$stream" ]; then
            ok=0
        fi
    done

    if [ $ok -eq 1 ]; then
        pass=$((pass + 1))
        rm -rf "$dir"
        continue
    fi
    # CLI_UPDATE=1 takes the actual output as the expected one (after the
    # diff below is printed): for a change of behaviour already reviewed.
    if [ -n "${CLI_UPDATE:-}" ] && [ "$status" = "$expected_exit" ]; then
        for stream in out err; do
            if [ -s "$dir/$stream" ]; then
                cp "$dir/$stream" "$here/$name.$stream"
            else
                rm -f "$here/$name.$stream"
            fi
        done
        echo "UPDATED $name"
    fi
    fail=$((fail + 1))
    failed+=("$name")
    echo "FAIL $name"
    for m in "${msgs[@]}"; do
        echo "  $m"
    done
    for stream in out err; do
        expected=$here/$name.$stream
        if [ -e "$expected" ]; then
            cmp -s "$expected" "$dir/$stream" && continue
        elif [ ! -s "$dir/$stream" ]; then
            continue
        fi
        show_diff "$expected" "$dir/$stream" "std$stream"
    done
    rm -rf "$dir"
done

echo "cli: $((pass + fail)) tests, $pass passed, $fail failed${failed[*]:+: ${failed[*]}}"
[ "$fail" -eq 0 ]
