#!/usr/bin/env bash
# tests/pg.sh - the archive's CLI tests on PostgreSQL (make check's
# `pg`): starts a server of its own in a temporary directory
# (tests/pg_server.sh) and runs the tests/cli/archive*.sh below through
# tests/cli/run.sh with camelog as tests/pg_camelog makes it, every
# archive a database of that server; each must print what it prints on
# SQLite (its .out and .err) and exit alike.  The server is stopped on
# every way out.  PostgreSQL absent is a failure: make deps installs it.
#
# The tests left out look at the archive as a file (its bytes, its
# permissions, its -wal, a damaged or foreign SQLite file, SQLite's own
# SQL and its bounds); they say so below.
set -u
srcdir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$srcdir/tests/pg_server.sh"

# name: why it is SQLite's alone
left_out='
archive_check: copies the file and damages its bytes
archive_kill: watches the file'"'"'s -wal to kill a writer in a chunk
archive_escapes: writes hostile names into the file with Python'"'"'s sqlite3
archive_relatives: damages the stored text in the file with Python'"'"'s sqlite3
archive_sql_bounds: the bounds of SQLite'"'"'s own SQL (printf, memory, steps)
archive_usage: a missing file, a text file, SQLite'"'"'s PRAGMA and ATTACH
'

pg_start || exit 1
trap pg_stop EXIT
export PG_DIR PG_SOCK PG_BIN PG_USER
export PG_CAMELOG=${CAMELOG:-$srcdir/build/camelog}
case $PG_CAMELOG in
/*) ;;
*) PG_CAMELOG=$srcdir/$PG_CAMELOG ;;
esac

tests=()
for f in "$srcdir"/tests/cli/archive*.sh; do
    name=$(basename "$f" .sh)
    if grep -q "^$name:" <<<"$left_out"; then
        continue
    fi
    tests+=("$name")
done
CAMELOG=$srcdir/tests/pg_camelog "$srcdir/tests/cli/run.sh" "${tests[@]}"
status=$?
echo "pg: ${#tests[@]} archive tests on PostgreSQL $("$PG_BIN/postgres" -V | awk '{ print $3 }'), left out $(grep -c . <<<"$left_out") (SQLite's alone)"
exit $status
