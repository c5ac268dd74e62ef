# tests/pg_server.sh - a PostgreSQL server of its own for a test or a
# benchmark, sourced by bash: pg_start makes a cluster in a new temporary
# directory and starts it on a Unix socket there, with no TCP listener;
# pg_stop stops it and removes the directory (call it from a trap).
#
#   . "$SRCDIR/tests/pg_server.sh"
#   pg_start || exit 1         # sets PG_DIR, PG_SOCK, PG_USER
#   trap pg_stop EXIT
#   pg_uri NAME                # prints the URI of database NAME, made
#                              # on first use
#
# The binaries are Debian's (/usr/lib/postgresql/<major>/bin, package
# postgresql in deps/test).  PostgreSQL refuses to run as root: run as
# root, the server runs as the user postgres, which owns the directory.
# Its one superuser is camelog, trusted on the socket.  Absent binaries
# are an error, never a skip: make deps installs them.

PG_USER=camelog

pg_bin() {
    local d
    for d in /usr/lib/postgresql/*/bin; do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

# pg_as CMD...: runs a server command as the user the server runs as.
pg_as() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

pg_start() {
    local bin
    if ! bin=$(pg_bin); then
        echo "pg: PostgreSQL's initdb and pg_ctl are not installed" \
            "(Debian: postgresql, in deps/test): run 'make deps'" >&2
        return 1
    fi
    PG_BIN=$bin
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
        echo "pg: run as root, the server needs the user postgres" \
            "(made by Debian's package postgresql)" >&2
        return 1
    fi
    # A short path: a Unix socket's name has room for about 100 bytes.
    PG_DIR=$(mktemp -d /tmp/camelog-pg.XXXXXX) || return 1
    PG_SOCK=$PG_DIR
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$PG_DIR" || return 1
    fi
    if ! pg_as "$bin/initdb" -D "$PG_DIR/data" -U "$PG_USER" \
        --auth=trust --no-locale -E UTF8 >"$PG_DIR/initdb.log" 2>&1; then
        echo "pg: initdb failed:" >&2
        cat "$PG_DIR/initdb.log" >&2
        return 1
    fi
    if ! pg_as "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
        -o "-k $PG_SOCK -c listen_addresses='' ${PG_OPTS--c fsync=off}" \
        start >/dev/null 2>&1; then
        echo "pg: the server did not start:" >&2
        cat "$PG_DIR/server.log" >&2
        return 1
    fi
}

pg_stop() {
    if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ]; then
        pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop \
            >/dev/null 2>&1
    fi
    if [ -n "${PG_DIR:-}" ]; then
        rm -rf "$PG_DIR"
    fi
    PG_DIR=
}

# pg_uri NAME: the URI of database NAME (letters, digits and _), which
# is made on first use.
pg_uri() {
    local name=$1
    if [ ! -e "$PG_DIR/db.$name" ]; then
        "$PG_BIN/createdb" -h "$PG_SOCK" -U "$PG_USER" "$name" \
            >/dev/null 2>&1
        : >"$PG_DIR/db.$name"
    fi
    echo "postgresql://$PG_USER@/$name?host=$PG_SOCK"
}
