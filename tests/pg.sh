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

# The games' tables, written by the backend from the games' data, are
# the ones the released steps of version 3 made (the schema's own steps,
# then tests/data/archive_pg-v3-games.sql, the text those steps held
# before the games declared their tables): the same columns, types,
# collations, constraints and indexes in main; and an archive made so is
# added to and checked clean as it is.
catalog() {
    "$PG_BIN/psql" -X -A -t -q -v ON_ERROR_STOP=1 "$1" -c "
        SELECT c.relname, a.attnum, a.attname, format_type(a.atttypid,
               a.atttypmod), a.attnotnull, coalesce(l.collname, '')
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
          LEFT JOIN pg_collation l ON l.oid = a.attcollation
         WHERE n.nspname = 'main' AND c.relkind IN ('r', 'v')
        UNION ALL
        SELECT t.relname, 0, o.conname, pg_get_constraintdef(o.oid), true, ''
          FROM pg_constraint o JOIN pg_class t ON t.oid = o.conrelid
          JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = 'main'
        UNION ALL
        SELECT i.tablename, 0, i.indexname, i.indexdef, true, ''
          FROM pg_indexes i WHERE i.schemaname = 'main'
         ORDER BY 1, 2, 3, 4"
}
released=$(pg_uri schema__released)
fresh=$(pg_uri schema__fresh)
schema_ok=1
{ echo 'BEGIN;'; cat "$srcdir/schema/archive_pg.sql" \
    "$srcdir/tests/data/archive_pg-v3-games.sql"
  echo "COMMENT ON SCHEMA main IS 'camelog archive, schema version 3';"
  echo 'COMMIT;'; } | "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 "$released" \
    >/dev/null || schema_ok=0
"$PG_CAMELOG" archive add -q "$fresh" "$srcdir"/samples/*.camelog \
    >/dev/null || schema_ok=0
if ! diff <(catalog "$released") <(catalog "$fresh") >&2; then
    echo "pg: the games' tables differ from version 3's (above)" >&2
    schema_ok=0
fi
"$PG_CAMELOG" archive add -q "$released" "$srcdir"/samples/*.camelog \
    >/dev/null || schema_ok=0
if ! "$PG_CAMELOG" archive check "$released" >/dev/null; then
    echo "pg: an archive of version 3 is not checked clean" >&2
    schema_ok=0
fi
if [ $schema_ok = 1 ]; then
    echo "pg: the games' tables are version 3's"
else
    status=1
fi
echo "pg: ${#tests[@]} archive tests on PostgreSQL $("$PG_BIN/postgres" -V | awk '{ print $3 }'), left out $(grep -c . <<<"$left_out") (SQLite's alone)"
exit $status
