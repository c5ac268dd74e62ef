#!/usr/bin/env bash
# bench/archive_pg.sh - archive add's throughput on its two backends, for
# make bench: one set of simulated games added to a fresh SQLite file
# with -j 1 and -j 2, and to a fresh PostgreSQL database (a server of its
# own, tests/pg_server.sh, with fsync on) by one writer, and by four
# writers at once, each adding a quarter of the files to the one
# database.  Prints games a second, wall clock, each the best of REPEAT
# runs.
#
#   bench/archive_pg.sh CAMELOG [SCALE]
set -u
camelog=$1
scale=${2:-1}
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case $camelog in
/*) ;;
*) camelog=$PWD/$camelog ;;
esac
n=$((400 * scale))
repeat=${REPEAT:-3}
. "$srcdir/tests/pg_server.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/camelog-bench-pg.XXXXXX") || exit 2
PG_OPTS=''
trap 'pg_stop; rm -rf "$work"' EXIT
pg_start || exit 1

cd "$work" || exit 2
"$camelog" keygen --seed "$(printf '%064d' 7)" -o dealer >/dev/null || exit 1
"$camelog" simulate --game avalon --players 7 --count "$n" --seed 41 \
    --key dealer.key -o games >/dev/null || exit 1
files=(games/*.camelog)
n=${#files[@]}

now() { date +%s.%N; }

# best SECONDS...: the least.
best() { printf '%s\n' "$@" | sort -g | head -n 1; }

rate() { awk -v n="$n" -v s="$1" 'BEGIN { printf "%.0f", n / s }'; }

run_sqlite() { # jobs
    local t=() i start
    for ((i = 0; i < repeat; i++)); do
        rm -f s.db s.db-wal s.db-shm
        start=$(now)
        "$camelog" archive add -q -j "$1" s.db "${files[@]}" >/dev/null || return 1
        t+=("$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')")
    done
    best "${t[@]}"
}

run_pg() { # writers
    local t=() i w start pids
    for ((i = 0; i < repeat; i++)); do
        local uri
        uri=$(pg_uri "bench_$1_$i")
        start=$(now)
        pids=()
        for ((w = 0; w < $1; w++)); do
            local part=()
            local k
            for ((k = w; k < n; k += $1)); do
                part+=("${files[$k]}")
            done
            "$camelog" archive add -q -j 1 "$uri" "${part[@]}" >/dev/null &
            pids+=($!)
        done
        for w in "${pids[@]}"; do
            wait "$w" || return 1
        done
        t+=("$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')")
    done
    best "${t[@]}"
}

s1=$(run_sqlite 1) || { echo "archive backends: sqlite -j 1 failed"; exit 1; }
s2=$(run_sqlite 2) || { echo "archive backends: sqlite -j 2 failed"; exit 1; }
p1=$(run_pg 1) || { echo "archive backends: postgresql, 1 writer, failed"; exit 1; }
p4=$(run_pg 4) || { echo "archive backends: postgresql, 4 writers, failed"; exit 1; }
count=$("$camelog" archive sql "$(pg_uri bench_4_0)" \
    "SELECT count(*) FROM game" | tail -n 1)
ver=$("$PG_BIN/postgres" -V | awk '{ print $3 }')
echo "archive add, by backend ($n games of 7 players, wall clock, best of $repeat):"
echo "  sqlite      -j 1: $(rate "$s1") games/s"
echo "  sqlite      -j 2: $(rate "$s2") games/s"
echo "  postgresql $ver, 1 writer:  $(rate "$p1") games/s"
echo "  postgresql $ver, 4 writers: $(rate "$p4") games/s (one database; $count games in it after)"
