/*
 * backend.h - the archive's backend door: what a database must do for
 * the archive, as a table of operations (struct rpl__backend), the way
 * SQLite's VFS is a door for files.  The archive's operations (add,
 * query, stats, audit, check, export, report, sql) are written once over
 * it, in SQL that every backend accepts:
 *   - parameters are written ?1, ?2, ... or :name, and the backend
 *     translates them (PostgreSQL: $1, $2, ...);
 *   - no function of one database alone: hex digits, lists and text
 *     patterns are made in C, and where the dialects differ the door
 *     has a named hook (temp_prefix, begin_write, begin_read,
 *     lock_game, integrity);
 *   - the tables live in a schema named main (SQLite's own name for the
 *     file; a PostgreSQL schema there), with the same columns in the
 *     same order in every backend; each backend has its own schema file
 *     and migrations (schema/archive.sql, schema/archive_pg.sql), and
 *     writes the games' tables, which the games declare as data, in its
 *     own dialect (struct rpl__sql_dialect, schema.c).
 *
 * A game's rows are read as data (read_rows: a table, columns and an
 * order, never SQL), which each backend turns into its own reads; the
 * SQL backends share backend_sql.c for it.
 *
 * Backends: backend_sqlite.c and backend_sqlite_sql.c (the embedded
 * default: a file), backend_pg.c (libpq: a postgresql:// or postgres://
 * URI).  A third backend implements this table in a file of its own
 * and is named in db.c's list; nothing else changes.
 *
 * A statement begins with struct rpl__st, which says whose it is; its
 * texts and blobs live until its next step, reset or finalize.  step()
 * returns RPL__DB_ROW, RPL__DB_DONE or a backend's own error code, which
 * only that backend's fail() reads.
 */
#ifndef LIBREPLAY_ARCHIVE_BACKEND_H
#define LIBREPLAY_ARCHIVE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/game.h"
#include "replay.h"

/* The status codes every backend shares (SQLite's numbers). */
#define RPL__DB_OK   0
#define RPL__DB_ROW  100
#define RPL__DB_DONE 101

struct rpl_archive;
struct rpl__backend;

struct rpl__st {
    const struct rpl__backend *be;
};

/* How a backend writes a game's table (struct rpl__table, games/game.h)
 * in its SQL (schema.c): the types of gid (game (gid)'s), of an integer
 * and of a text; whether a table keyed by more than gid is WITHOUT ROWID;
 * whether the database keeps the text of a table, and so the game's docs
 * as comments in it. */
struct rpl__sql_dialect {
    const char *gid_type, *int_type, *text_type;
    bool is_without_rowid;
    bool has_docs;
};

struct rpl__backend {
    const char *name; /* "sqlite", "postgresql" */
    /* The lines of the backend's schema, with its "-- version N" steps,
     * and how it writes the games' tables in them (schema.c). */
    const char *const *schema;
    size_t nschema;
    const struct rpl__sql_dialect *dialect;
    /* Hook: the prefix of check's temporary copy of a table. */
    const char *temp_prefix;
    /* Hook: the statements that open a write transaction (waiting for
     * other writers) and a read transaction of one snapshot. */
    const char *begin_write, *begin_read;

    /* Whether where (a path or a URI) is this backend's. */
    bool (*claims)(const char *where);
    /* Connects ar->db, brings the schema to this library's version
     * (a writer; the migrations are the backend's own) and sets
     * ar->version, ar->nforeign and ar->warning. */
    enum rpl_status (*open)(struct rpl_archive *ar, const char *where,
                            enum rpl_archive_mode mode, struct rpl_error *err);
    void (*close)(struct rpl_archive *ar);
    /* A failed call (rc from exec, prepare or step) as our status. */
    enum rpl_status (*fail)(const struct rpl_archive *ar, struct rpl_error *err,
                            int rc, const char *what);
    /* Runs constant SQL without parameters. */
    int (*exec)(struct rpl_archive *ar, const char *sql);
    /* Whether a transaction is open. */
    bool (*in_tx)(const struct rpl_archive *ar);

    int (*prepare)(struct rpl_archive *ar, const char *sql, bool is_cached,
                   struct rpl__st **out);
    /* The index of parameter :name, 0 when the statement has none. */
    int (*param_index)(struct rpl__st *st, const char *name);
    int (*nparams)(struct rpl__st *st);
    void (*bind_null)(struct rpl__st *st, int i);
    void (*bind_int)(struct rpl__st *st, int i, int64_t v);
    /* n bytes of s (the backend may keep the pointer until the step). */
    void (*bind_text)(struct rpl__st *st, int i, const char *s, size_t n);
    void (*bind_blob)(struct rpl__st *st, int i, const void *p, size_t n);
    int (*step)(struct rpl__st *st);
    /* Ready to run again, bindings cleared. */
    void (*reset)(struct rpl__st *st);
    void (*finalize)(struct rpl__st *st);
    int (*ncols)(struct rpl__st *st);
    bool (*is_null)(struct rpl__st *st, int i);
    int64_t (*col_int)(struct rpl__st *st, int i);
    double (*col_double)(struct rpl__st *st, int i);
    /* NULL for SQL NULL. */
    const char *(*col_text)(struct rpl__st *st, int i);
    const void *(*col_blob)(struct rpl__st *st, int i, size_t *n);

    /* Hook: serializes writers of one game (its id) until the end of
     * the transaction; NULL where the write transaction already does. */
    enum rpl_status (*lock_game)(struct rpl_archive *ar, const char *id,
                                 struct rpl_error *err);
    /* Compares the archive's schema with this library's at ar->version:
     * each difference to each, their count in *n. */
    enum rpl_status (*schema_diff)(struct rpl_archive *ar,
                                   void (*each)(void *ud, const char *msg),
                                   void *ud, size_t *n, struct rpl_error *err);
    /* Hook: the database's own checks, in check's transaction: each
     * problem to each. */
    enum rpl_status (*integrity)(struct rpl_archive *ar,
                                 void (*each)(void *ud,
                                              const struct rpl_error *e),
                                 void *ud, struct rpl_error *err);
    /* Hook: lets a read handle write check's temporary tables (is_on)
     * and takes that back (!is_on). */
    enum rpl_status (*temp_writes)(struct rpl_archive *ar, bool is_on,
                                   struct rpl_error *err);
    /* The rows of one game in one table, as a game describes them (struct
     * rpl__read, games/game.h; its names checked against the schema by
     * rpl__ar_read()): the columns rd->col of the rows of table
     * rd->table whose gid is gid, ordered by rd->order, each to each()
     * with cells of the kinds rd->col says.  A status other than RPL_OK
     * from each() stops the read and is returned.  Reads do not nest.
     * The SQL backends share rpl__sql_read_rows() (backend_sql.c). */
    enum rpl_status (*read_rows)(struct rpl_archive *ar,
                                 const struct rpl__read *rd, int64_t gid,
                                 rpl__row_fn each, void *ud,
                                 struct rpl_error *err);
    /* The read-only SQL mode (rpl_archive_sql()). */
    enum rpl_status (*sql)(struct rpl_archive *ar, const char *sql,
                           bool (*each)(void *ud, size_t ncols,
                                        const char *const *names,
                                        const char *const *values,
                                        const enum rpl_sql_type *types),
                           void *ud, struct rpl_error *err);
};

extern const struct rpl__backend rpl__backend_sqlite;
extern const struct rpl__backend rpl__backend_pg;

/* read_rows as SELECT over the backend's own statements (backend_sql.c),
 * for the SQL backends. */
enum rpl_status rpl__sql_read_rows(struct rpl_archive *ar,
                                   const struct rpl__read *rd, int64_t gid,
                                   rpl__row_fn each, void *ud,
                                   struct rpl_error *err);

/* The statement calls, through the statement's backend. */
static inline int
rpl__st_step(struct rpl__st *st)
{
    return st->be->step(st);
}

static inline void
rpl__st_finalize(struct rpl__st *st)
{
    if (st)
        st->be->finalize(st);
}

static inline void
rpl__st_bind_int(struct rpl__st *st, int i, int64_t v)
{
    st->be->bind_int(st, i, v);
}

static inline void
rpl__st_bind_blob(struct rpl__st *st, int i, const void *p, size_t n)
{
    st->be->bind_blob(st, i, p, n);
}

static inline void
rpl__st_bind_textn(struct rpl__st *st, int i, const char *s, size_t n)
{
    st->be->bind_text(st, i, s, n);
}

static inline int
rpl__st_param(struct rpl__st *st, const char *name)
{
    return st->be->param_index(st, name);
}

static inline int64_t
rpl__st_int(struct rpl__st *st, int i)
{
    return st->be->col_int(st, i);
}

static inline double
rpl__st_double(struct rpl__st *st, int i)
{
    return st->be->col_double(st, i);
}

static inline const void *
rpl__st_blob(struct rpl__st *st, int i, size_t *n)
{
    return st->be->col_blob(st, i, n);
}

static inline int
rpl__st_ncols(struct rpl__st *st)
{
    return st->be->ncols(st);
}

#endif /* LIBREPLAY_ARCHIVE_BACKEND_H */
