/*
 * backend_sqlite.c - the archive's embedded backend (backend.h): one
 * SQLite file.  Opening it: the connection and its pragmas, limits and
 * step budget, the write-ahead log, and the schema; the statement calls
 * of the door; the schema compared with this library's; SQLite's own
 * checks.  The read-only SQL mode is backend_sqlite_sql.c.
 *
 * The schema is schema/archive.sql, embedded by the build as archive_sql[]
 * (one string per line).  It is a sequence of steps ("-- version N");
 * opening an archive runs, in one write transaction, the steps after its
 * PRAGMA user_version and sets it to the last, and indexes the stored logs
 * again (store.c) when the archive had logs of an older version.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "archive_sql.h"
#include "backend_sqlite.h"

#define NSCHEMA (sizeof(archive_sql) / sizeof(archive_sql[0]))
#define DB(ar)  (rpl__sq(ar)->db)

/* ------------------------------------------------------- statements */

/* A statement of this backend. */
struct sq_st {
    struct rpl__st base;
    sqlite3_stmt *st;
    struct rpl_ctx *ctx;
};

static sqlite3_stmt *
raw(struct rpl__st *st)
{
    return ((struct sq_st *)st)->st;
}

static int
sq_exec(struct rpl_archive *ar, const char *sql)
{
    return sqlite3_exec(rpl__sq(ar)->db, sql, NULL, NULL, NULL);
}

static bool
sq_in_tx(const struct rpl_archive *ar)
{
    const struct rpl__sq *q = ar->db;

    return q && q->db && sqlite3_get_autocommit(q->db) == 0;
}

static int
sq_prepare(struct rpl_archive *ar, const char *sql, bool is_cached,
           struct rpl__st **out)
{
    struct sq_st *s = rpl__calloc(ar->ctx, 1, sizeof(*s));
    int rc;

    *out = NULL;
    if (!s)
        return SQLITE_NOMEM;
    rc = sqlite3_prepare_v3(rpl__sq(ar)->db, sql, -1,
                            is_cached ? SQLITE_PREPARE_PERSISTENT : 0, &s->st,
                            NULL);
    if (rc != SQLITE_OK || !s->st) {
        sqlite3_finalize(s->st);
        rpl__free(ar->ctx, s);
        return rc != SQLITE_OK ? rc : SQLITE_MISUSE;
    }
    s->base.be = &rpl__backend_sqlite;
    s->ctx = ar->ctx;
    *out = &s->base;
    return SQLITE_OK;
}

static int
sq_param_index(struct rpl__st *st, const char *name)
{
    return sqlite3_bind_parameter_index(raw(st), name);
}

static int
sq_nparams(struct rpl__st *st)
{
    return sqlite3_bind_parameter_count(raw(st));
}

static void
sq_bind_null(struct rpl__st *st, int i)
{
    sqlite3_bind_null(raw(st), i);
}

static void
sq_bind_int(struct rpl__st *st, int i, int64_t v)
{
    sqlite3_bind_int64(raw(st), i, (sqlite3_int64)v);
}

static void
sq_bind_text(struct rpl__st *st, int i, const char *s, size_t n)
{
    sqlite3_bind_text64(raw(st), i, s, n, SQLITE_STATIC, SQLITE_UTF8);
}

static void
sq_bind_blob(struct rpl__st *st, int i, const void *p, size_t n)
{
    sqlite3_bind_blob64(raw(st), i, p, n, SQLITE_STATIC);
}

static int
sq_step(struct rpl__st *st)
{
    return sqlite3_step(raw(st));
}

static void
sq_reset(struct rpl__st *st)
{
    sqlite3_reset(raw(st));
    sqlite3_clear_bindings(raw(st));
}

static void
sq_finalize(struct rpl__st *st)
{
    struct sq_st *s = (struct sq_st *)st;

    sqlite3_finalize(s->st);
    rpl__free(s->ctx, s);
}

static int
sq_ncols(struct rpl__st *st)
{
    return sqlite3_column_count(raw(st));
}

static bool
sq_is_null(struct rpl__st *st, int i)
{
    return sqlite3_column_type(raw(st), i) == SQLITE_NULL;
}

static int64_t
sq_col_int(struct rpl__st *st, int i)
{
    return sqlite3_column_int64(raw(st), i);
}

static double
sq_col_double(struct rpl__st *st, int i)
{
    return sqlite3_column_double(raw(st), i);
}

static const char *
sq_col_text(struct rpl__st *st, int i)
{
    return (const char *)sqlite3_column_text(raw(st), i);
}

static const void *
sq_col_blob(struct rpl__st *st, int i, size_t *n)
{
    const void *p = sqlite3_column_blob(raw(st), i);

    *n = (size_t)sqlite3_column_bytes(raw(st), i);
    return p;
}

/* ------------------------------------------------------- open, schema */

/* The schema version and the number of schema objects, read in one
 * statement (one read transaction): read apart, another process creating
 * the archive could commit between the two reads, and a new archive
 * would look like a database with other tables. */
static enum rpl_status
read_version(struct rpl_archive *ar, sqlite3_int64 *version,
             sqlite3_int64 *objects, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    enum rpl_status rc = RPL_OK;
    int src;

    src =
        sqlite3_prepare_v2(DB(ar),
                           "SELECT user_version, (SELECT count(*) FROM "
                           "main.sqlite_schema) FROM main.pragma_user_version",
                           -1, &st, NULL);
    if (src != SQLITE_OK)
        return rpl__sq_fail(ar, err, src, "cannot prepare a statement");
    src = sqlite3_step(st);
    if (src == SQLITE_ROW) {
        *version = sqlite3_column_int64(st, 0);
        *objects = sqlite3_column_int64(st, 1);
    } else {
        rc = rpl__sq_fail(ar, err, src, "cannot read the archive");
    }
    sqlite3_finalize(st);
    return rc;
}

/* Brings the schema to this library's version, in one transaction. */
static enum rpl_status
migrate(struct rpl_archive *ar, unsigned want, struct rpl_error *err)
{
    sqlite3_int64 version = 0;
    sqlite3_int64 objects = 0;
    char *sql = NULL;
    char set[64];
    enum rpl_status rc;

    rc = rpl__ar_exec(ar, "BEGIN IMMEDIATE", "cannot lock the archive", err);
    if (rc != RPL_OK)
        return rc;
    /* Another process may have migrated it while we waited. */
    rc = read_version(ar, &version, &objects, err);
    if (rc != RPL_OK)
        goto out;
    if (version == 0 && objects > 0) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      "not a camelog archive (a database with other tables)");
        goto out;
    }
    if (version >= want) {
        ar->version = (unsigned)version;
        goto out;
    }
    rc = rpl__ar_schema_steps(ar->ctx, &rpl__backend_sqlite, (unsigned)version,
                              want, &sql, err);
    if (rc == RPL_OK)
        rc = rpl__ar_exec(ar, sql, "cannot create the schema", err);
    /* A step may add index tables (version 2 did, for a game): the logs
     * an older archive holds are indexed again, under the same gid. */
    if (rc == RPL_OK && version >= 1)
        rc = rpl__ar_reindex_all(ar, err);
    snprintf(set, sizeof(set), "PRAGMA main.user_version = %u", want);
    if (rc == RPL_OK)
        rc = rpl__ar_exec(ar, set, "cannot set the schema version", err);
    if (rc == RPL_OK)
        rc = rpl__ar_exec(ar, "COMMIT", "cannot commit the schema", err);
    if (rc == RPL_OK)
        ar->version = want;
out:
    rpl_free(ar->ctx, sql);
    if (rc != RPL_OK || sqlite3_get_autocommit(DB(ar)) == 0)
        sqlite3_exec(DB(ar), rc == RPL_OK ? "COMMIT" : "ROLLBACK", NULL, NULL,
                     NULL);
    return rc;
}

/* Switches the archive to a write-ahead log, once.  The switch needs
 * the file to itself and SQLite does not wait for it: two processes
 * creating one archive at once both try, and the one refused retries
 * until it sees the other's switch, up to the busy timeout. */
static enum rpl_status
use_wal(struct rpl_archive *ar, struct rpl_error *err)
{
    enum { PAUSE_MS = 20 };

    for (int waited = 0;; waited += PAUSE_MS) {
        sqlite3_stmt *st = NULL;
        bool is_wal = false;
        int src;

        src = sqlite3_prepare_v2(DB(ar), "PRAGMA main.journal_mode", -1, &st,
                                 NULL);
        if (src != SQLITE_OK)
            return rpl__sq_fail(ar, err, src, "cannot prepare a statement");
        src = sqlite3_step(st);
        if (src == SQLITE_ROW && sqlite3_column_text(st, 0))
            is_wal =
                strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
        sqlite3_finalize(st);
        if (is_wal)
            return RPL_OK;
        src = sqlite3_exec(DB(ar), "PRAGMA main.journal_mode = WAL", NULL, NULL,
                           NULL);
        if (src == SQLITE_OK)
            continue; /* read the mode back */
        if (((src & 0xff) != SQLITE_BUSY && (src & 0xff) != SQLITE_LOCKED) ||
            waited >= RPL__AR_BUSY_TIMEOUT_MS)
            return rpl__sq_fail(ar, err, src, "cannot use a write-ahead log");
        sqlite3_sleep(PAUSE_MS);
    }
}

/* ------------------------------------------------- the connection */

/* Every statement's step budget (limits.h, set at open from the size of
 * the file): the progress handler (backend_sqlite_sql.c) counts the
 * steps, and a statement that starts while no other is running (on_stmt)
 * starts a new budget; the statements run while another is (a query's
 * seats, check's rows) share its budget. */
static int
on_stmt(unsigned type, void *ud, void *p, void *x)
{
    struct rpl__sq *q = ud;
    const char *sql = x;

    /* "-- TRIGGER name": a trigger of the running statement. */
    if (type != SQLITE_TRACE_STMT || (sql && sql[0] == '-' && sql[1] == '-'))
        return 0;
    for (sqlite3_stmt *st = sqlite3_next_stmt(q->db, NULL); st;
         st = sqlite3_next_stmt(q->db, st))
        if (st != p && sqlite3_stmt_busy(st))
            return 0;
    q->steps = 0;
    q->is_over_budget = false;
    return 0;
}

/* What every connection gets, whoever made the file: no functions with
 * side effects in the schema, no writing to it directly, no tokenizer
 * pointers (fts3_tokenizer() hands out an address of libsqlite3), no
 * extensions, the limits of limits.h and a step budget. */
static void
configure(struct rpl_archive *ar)
{
    static const struct {
        int id;
        int value;
    } limit[] = {
        {SQLITE_LIMIT_LENGTH, (int)RPL_MAX_SQL_VALUE},
        {SQLITE_LIMIT_SQL_LENGTH, (int)RPL_MAX_SQL_TEXT},
        {SQLITE_LIMIT_COLUMN, (int)RPL_MAX_SQL_COLUMNS},
        {SQLITE_LIMIT_EXPR_DEPTH, (int)RPL_MAX_SQL_DEPTH},
        {SQLITE_LIMIT_COMPOUND_SELECT, (int)RPL_MAX_SQL_COMPOUND},
        {SQLITE_LIMIT_VDBE_OP, (int)RPL_MAX_SQL_OPS},
        {SQLITE_LIMIT_FUNCTION_ARG, (int)RPL_MAX_SQL_ARGS},
        {SQLITE_LIMIT_ATTACHED, 0},
        {SQLITE_LIMIT_LIKE_PATTERN_LENGTH, (int)RPL_MAX_SQL_PATTERN},
        {SQLITE_LIMIT_VARIABLE_NUMBER, (int)RPL_MAX_SQL_PARAMS},
        {SQLITE_LIMIT_TRIGGER_DEPTH, 1},
        {SQLITE_LIMIT_WORKER_THREADS, 0},
    };
    struct rpl__sq *q = rpl__sq(ar);
    sqlite3 *db = q->db;

    sqlite3_extended_result_codes(db, 1);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
    for (size_t i = 0; i < sizeof(limit) / sizeof(limit[0]); i++)
        sqlite3_limit(db, limit[i].id, limit[i].value);
    q->tick = RPL_SQL_STEP_TICK;
    sqlite3_progress_handler(db, (int)q->tick, rpl__sq_on_progress, q);
    sqlite3_trace_v2(db, SQLITE_TRACE_STMT, on_stmt, q);
    sqlite3_busy_timeout(db, RPL__AR_BUSY_TIMEOUT_MS);
}

/* "file:" URI of path with immutable=1: the file is read as it is,
 * without its -wal and -shm (read-only media, where they cannot be
 * made). */
static char *
immutable_uri(struct rpl_ctx *ctx, const char *path)
{
    static const char hexd[] = "0123456789ABCDEF";
    struct rpl__buf b;
    char *uri = NULL;

    rpl__buf_init(&b, ctx);
    rpl__buf_puts(&b, path[0] == '/' ? "file://" : "file:");
    for (const char *p = path; *p; p++) {
        const unsigned char c = (unsigned char)*p;

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || c == '/' || c == '.' || c == '-' ||
            c == '_' || c == '~') {
            rpl__buf_add(&b, p, 1);
        } else {
            const char esc[3] = {'%', hexd[c >> 4], hexd[c & 15]};

            rpl__buf_add(&b, esc, 3);
        }
    }
    rpl__buf_puts(&b, "?immutable=1");
    if (rpl__buf_take(&b, &uri, NULL) != RPL_OK)
        return NULL;
    return uri;
}

/* Opens the connection and sets it up. */
static enum rpl_status
connect_db(struct rpl_archive *ar, const char *name, int flags,
           struct rpl_error *err)
{
    /* A handle is used by one thread at a time (replay.h): its
     * connection needs no mutex of its own. */
    const int src =
        sqlite3_open_v2(name, &DB(ar), flags | SQLITE_OPEN_NOMUTEX, NULL);

    if (src != SQLITE_OK) {
        if (!DB(ar))
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        return rpl__err(err, RPL_E_IO, 0, "cannot open the archive: %s",
                        sqlite3_errmsg(DB(ar)));
    }
    configure(ar);
    /* Read handles keep check's temporary tables in memory: the media
     * may be read-only, or the disk full. */
    return rpl__ar_exec(ar,
                        ar->is_readonly ? "PRAGMA foreign_keys = ON; "
                                          "PRAGMA temp_store = MEMORY; "
                                          "PRAGMA query_only = ON"
                                        : "PRAGMA foreign_keys = ON",
                        "cannot open the archive", err);
}

/* Whether a read failed because the file cannot be written beside: no
 * -shm can be made (read-only media, a full disk). */
static bool
needs_immutable(struct rpl_archive *ar)
{
    const int src = sqlite3_exec(
        DB(ar), "SELECT count(*) FROM main.sqlite_schema", NULL, NULL, NULL);
    const int prim = src & 0xff;

    return prim == SQLITE_CANTOPEN || prim == SQLITE_READONLY ||
           prim == SQLITE_IOERR || prim == SQLITE_FULL || prim == SQLITE_PERM;
}

/* ---------------------------------------------------- schema objects */

/* An object of sqlite_schema: type, name and normalized SQL. */
struct object {
    char *type, *name, *sql;
    bool is_seen;
};

/* The SQL text with its comments dropped and every run of white space
 * outside quotes made one space: sqlite_schema keeps the text as it was
 * written, and what a table is does not depend on how its text was laid
 * out or commented (a game's table written by schema.c from its data is
 * the one the schema's step of its version wrote as text). */
static char *
normalize(struct rpl_ctx *ctx, const char *sql)
{
    const size_t n = sql ? strlen(sql) : 0;
    char *out = rpl__alloc(ctx, n + 1);
    char quote = 0;
    size_t k = 0;

    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const char c = sql[i];
        bool is_space = c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
                        c == '\f' || c == '\v';

        if (!quote && c == '-' && sql[i + 1] == '-') {
            while (i + 1 < n && sql[i + 1] != '\n')
                i++;
            is_space = true;
        } else if (!quote && c == '/' && sql[i + 1] == '*') {
            const char *end = strstr(sql + i + 2, "*/");

            i = end ? (size_t)(end - sql) + 1 : n;
            is_space = true;
        }
        if (quote) {
            out[k++] = c;
            if (c == quote)
                quote = 0;
        } else if (is_space) {
            if (k > 0 && out[k - 1] != ' ')
                out[k++] = ' ';
        } else {
            if (c == '\'' || c == '"' || c == '`')
                quote = c;
            else if (c == '[')
                quote = ']';
            out[k++] = c;
        }
    }
    while (k > 0 && out[k - 1] == ' ')
        k--;
    out[k] = '\0';
    return out;
}

static void
objects_free(struct rpl_ctx *ctx, struct object *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rpl__free(ctx, o[i].type);
        rpl__free(ctx, o[i].name);
        rpl__free(ctx, o[i].sql);
    }
    rpl__free(ctx, o);
}

static char *
dup_text(struct rpl_ctx *ctx, const char *s)
{
    const size_t n = strlen(s);
    char *d = rpl__alloc(ctx, n + 1);

    if (d)
        memcpy(d, s, n + 1);
    return d;
}

/* The objects of db's sqlite_schema. */
static enum rpl_status
objects_read(struct rpl_ctx *ctx, sqlite3 *db, struct object **out,
             size_t *nout, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    struct object *o = NULL;
    size_t n = 0, cap = 0;
    enum rpl_status rc = RPL_OK;
    int src;

    src = sqlite3_prepare_v2(db,
                             "SELECT type, name, sql FROM main.sqlite_schema "
                             "ORDER BY type, name",
                             -1, &st, NULL);
    if (src != SQLITE_OK)
        return rpl__err(
            err, (src & 0xff) == SQLITE_NOMEM ? RPL_E_NOMEM : RPL_E_IO, 0,
            "cannot read the archive's schema: %s", sqlite3_errmsg(db));
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0);
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const char *sql = (const char *)sqlite3_column_text(st, 2);

        if (n == cap) {
            const size_t grown = cap ? 2 * cap : 32;
            struct object *g = rpl__realloc(ctx, o, grown * sizeof(*o));

            if (!g) {
                rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                break;
            }
            o = g;
            cap = grown;
        }
        memset(&o[n], 0, sizeof(o[n]));
        o[n].type = dup_text(ctx, type ? type : "");
        o[n].name = dup_text(ctx, name ? name : "");
        o[n].sql = normalize(ctx, sql);
        n++;
        if (!o[n - 1].type || !o[n - 1].name || !o[n - 1].sql) {
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            break;
        }
    }
    if (rc == RPL_OK && src != SQLITE_DONE)
        rc = rpl__err(err,
                      (src & 0xff) == SQLITE_NOMEM       ? RPL_E_NOMEM
                      : (src & 0xff) == SQLITE_INTERRUPT ? RPL_E_LIMIT
                                                         : RPL_E_IO,
                      0, "cannot read the archive's schema: %s",
                      sqlite3_errmsg(db));
    sqlite3_finalize(st);
    if (rc != RPL_OK) {
        objects_free(ctx, o, n);
        return rc;
    }
    *out = o;
    *nout = n;
    return RPL_OK;
}

/* The objects this library creates at version v: the schema's steps up
 * to v, run in a database in memory. */
static enum rpl_status
objects_expected(struct rpl_ctx *ctx, unsigned v, struct object **out,
                 size_t *nout, struct rpl_error *err)
{
    sqlite3 *db = NULL;
    char *sql = NULL;
    enum rpl_status rc;
    int src;

    rc = rpl__ar_schema_steps(ctx, &rpl__backend_sqlite, 0, v, &sql, err);
    if (rc != RPL_OK)
        return rc;
    src = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL);
    if (src == SQLITE_OK)
        src = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (src != SQLITE_OK)
        rc = rpl__err(err,
                      (src & 0xff) == SQLITE_NOMEM ? RPL_E_NOMEM : RPL_E_STATE,
                      0, "cannot build the schema: %s",
                      db ? sqlite3_errmsg(db) : sqlite3_errstr(src));
    if (rc == RPL_OK)
        rc = objects_read(ctx, db, out, nout, err);
    sqlite3_close(db);
    rpl_free(ctx, sql);
    return rc;
}

static enum rpl_status
sq_schema_diff(struct rpl_archive *ar, void (*each)(void *ud, const char *msg),
               void *ud, size_t *n, struct rpl_error *err)
{
    struct object *want = NULL, *have = NULL;
    size_t nwant = 0, nhave = 0;
    char msg[RPL_ERRMSG_MAX];
    enum rpl_status rc;

    *n = 0;
    rc = objects_expected(ar->ctx, ar->version, &want, &nwant, err);
    if (rc == RPL_OK)
        rc = objects_read(ar->ctx, DB(ar), &have, &nhave, err);
    for (size_t i = 0; rc == RPL_OK && i < nhave; i++) {
        const struct object *h = &have[i];
        struct object *w = NULL;

        for (size_t k = 0; k < nwant && !w; k++)
            if (strcmp(want[k].type, h->type) == 0 &&
                strcmp(want[k].name, h->name) == 0)
                w = &want[k];
        if (w)
            w->is_seen = true;
        if (w && strcmp(w->sql, h->sql) == 0)
            continue;
        snprintf(msg, sizeof(msg),
                 w ? "schema: %.16s %.64s differs from this library's"
                   : "schema: %.16s %.64s is not this library's",
                 h->type, h->name);
        ++*n;
        if (each)
            each(ud, msg);
    }
    for (size_t k = 0; rc == RPL_OK && k < nwant; k++) {
        if (want[k].is_seen)
            continue;
        snprintf(msg, sizeof(msg), "schema: %.16s %.64s is missing",
                 want[k].type, want[k].name);
        ++*n;
        if (each)
            each(ud, msg);
    }
    objects_free(ar->ctx, have, nhave);
    objects_free(ar->ctx, want, nwant);
    return rc;
}

/* Keeps the first difference as the handle's warning. */
static void
keep_warning(void *ud, const char *msg)
{
    struct rpl_archive *ar = ud;

    if (!ar->warning)
        ar->warning = dup_text(ar->ctx, msg);
}

/* The version and the objects of the archive, read in one transaction
 * (another process may be creating or migrating it), and the schema
 * compared with this library's at that version. */
static enum rpl_status
inspect(struct rpl_archive *ar, sqlite3_int64 *version, sqlite3_int64 *objects,
        struct rpl_error *err)
{
    enum rpl_status rc;

    rc = rpl__ar_exec(ar, "BEGIN", "cannot read the archive", err);
    if (rc != RPL_OK)
        return rc;
    rc = read_version(ar, version, objects, err);
    if (rc == RPL_OK) {
        struct rpl__sq *q = rpl__sq(ar);
        sqlite3_stmt *st = NULL;
        sqlite3_int64 pages = 0;
        const int src = sqlite3_prepare_v2(
            q->db, "SELECT page_count FROM pragma_page_count", -1, &st, NULL);

        if (src != SQLITE_OK)
            rc = rpl__sq_fail(ar, err, src, "cannot prepare a statement");
        else if (sqlite3_step(st) == SQLITE_ROW)
            pages = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        if (pages < 0)
            pages = 0;
        if ((uint64_t)pages >
            (UINT64_MAX - RPL_MAX_SQL_STEPS) / RPL_MAX_SQL_STEPS_PER_PAGE)
            q->budget = UINT64_MAX;
        else
            q->budget = RPL_MAX_SQL_STEPS +
                        (uint64_t)pages * RPL_MAX_SQL_STEPS_PER_PAGE;
    }
    if (rc == RPL_OK && *version > 0 &&
        *version <= rpl__ar_schema_version(archive_sql, NSCHEMA)) {
        ar->version = (unsigned)*version;
        rc = sq_schema_diff(ar, keep_warning, ar, &ar->nforeign, err);
        if (rc == RPL_OK && ar->nforeign > 0 && !ar->warning)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    sqlite3_exec(DB(ar), "COMMIT", NULL, NULL, NULL);
    return rc;
}

static enum rpl_status
sq_open(struct rpl_archive *ar, const char *path, enum rpl_archive_mode mode,
        struct rpl_error *err)
{
    struct rpl_ctx *ctx = ar->ctx;
    struct rpl__sq *q = NULL;
    const unsigned want = rpl__ar_schema_version(archive_sql, NSCHEMA);
    sqlite3_int64 version = 0;
    sqlite3_int64 objects = 0;
    enum rpl_status rc = RPL_OK;
    int flags = SQLITE_OPEN_READONLY;

    switch (mode) {
    case RPL_ARCHIVE_READ:
        break;
    case RPL_ARCHIVE_WRITE:
        flags = SQLITE_OPEN_READWRITE;
        break;
    case RPL_ARCHIVE_CREATE:
        flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    default:
        return rpl__err(err, RPL_E_ARG, 0, "unknown archive mode %d",
                        (int)mode);
    }
    q = rpl__calloc(ctx, 1, sizeof(*q));
    if (!q)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    ar->db = q;
    /* Reading writes nothing (query_only, and the authorizer of
     * rpl_archive_sql()), and works on read-only media and a full disk:
     * a read handle opens the file for writing where it may, so that
     * the last connection to close folds the write-ahead log back into
     * the file and removes it (SQLite's own housekeeping); else read-only;
     * and where not even the -wal and -shm can be made, it reads the
     * file as it is (immutable). */
    if (ar->is_readonly) {
        rc = connect_db(ar, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW,
                        err);
        if (rc != RPL_OK || needs_immutable(ar)) {
            sqlite3_close(q->db);
            q->db = NULL;
            rc = connect_db(ar, path, flags | SQLITE_OPEN_NOFOLLOW, err);
        }
        if (rc == RPL_OK && needs_immutable(ar)) {
            char *uri = immutable_uri(ctx, path);

            sqlite3_close(q->db);
            q->db = NULL;
            if (!uri) {
                return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            }
            rc = connect_db(ar, uri,
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
                                SQLITE_OPEN_NOFOLLOW,
                            err);
            rpl__free(ctx, uri);
        }
    } else {
        rc = connect_db(ar, path, flags | SQLITE_OPEN_NOFOLLOW, err);
    }
    if (rc != RPL_OK) {
        if (access(path, F_OK) != 0)
            rc = rpl__err(err, RPL_E_IO, 0,
                          "cannot open the archive: no such file");
        return rc;
    }
    rc = inspect(ar, &version, &objects, err);
    if (rc != RPL_OK)
        return rc;
    if (version > want) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      "the archive is at schema version %lld, newer than "
                      "this library's (%u)",
                      (long long)version, want);
        return rc;
    }
    if (version == 0 && objects > 0) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      "not a camelog archive (a database with other tables)");
        return rc;
    }
    if (version < want && ar->is_readonly) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      version == 0 ? "not a camelog archive (an empty "
                                     "database)"
                                   : "the archive is at schema version %lld: "
                                     "add to it once to migrate it",
                      (long long)version);
        return rc;
    }
    /* Its objects run in every statement that reads them (a view, a
     * trigger): a writer refuses a schema it did not make; a reader
     * warns (rpl_archive_warning()). */
    if (!ar->is_readonly && ar->nforeign > 0) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      "%s (%zu %s): not writing to it", ar->warning,
                      ar->nforeign,
                      ar->nforeign == 1 ? "difference" : "differences");
        return rc;
    }
    ar->version = (unsigned)version;
    if (!ar->is_readonly) {
        /* A new archive: pages of 8 KiB hold the stored logs (1 to 3 KiB
         * each) with less room lost than 4 KiB pages; the page size is
         * fixed once the first table exists. */
        if (version == 0 && objects == 0)
            rc = rpl__ar_exec(ar, "PRAGMA main.page_size = 8192",
                              "cannot create the archive", err);
        if (rc == RPL_OK)
            rc = use_wal(ar, err);
        if (rc == RPL_OK && version < want)
            rc = migrate(ar, want, err);
    }
    return rc;
}

static void
sq_close(struct rpl_archive *ar)
{
    struct rpl__sq *q = ar->db;

    if (!q)
        return;
    if (q->db && sqlite3_get_autocommit(q->db) == 0)
        sqlite3_exec(q->db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(q->db);
    rpl__free(ar->ctx, q);
    ar->db = NULL;
}

/* ------------------------------------------------------------- check */

/* SQLite's own checks: each row that is not "ok" is a problem. */
static enum rpl_status
check_pragma(struct rpl_archive *ar, const char *sql,
             void (*each)(void *ud, const struct rpl_error *e), void *ud,
             struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    int src;

    src = sqlite3_prepare_v2(DB(ar), sql, -1, &st, NULL);
    if (src != SQLITE_OK)
        return rpl__sq_fail(ar, err, src, "cannot check the archive");
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        struct rpl_error e;
        const char *what = (const char *)sqlite3_column_text(st, 0);

        if (!what || strcmp(what, "ok") == 0)
            continue;
        if (sqlite3_column_count(st) >= 3)
            rpl__err(&e, RPL_E_STATE, 0,
                     "row %lld of table %s refers to a missing %s row",
                     (long long)sqlite3_column_int64(st, 1), what,
                     sqlite3_column_text(st, 2)
                         ? (const char *)sqlite3_column_text(st, 2)
                         : "");
        else
            rpl__err(&e, RPL_E_STATE, 0, "database: %s", what);
        each(ud, &e);
    }
    sqlite3_finalize(st);
    if (src != SQLITE_DONE)
        return rpl__sq_fail(ar, err, src, "cannot check the archive");
    return RPL_OK;
}

static enum rpl_status
sq_integrity(struct rpl_archive *ar,
             void (*each)(void *ud, const struct rpl_error *e), void *ud,
             struct rpl_error *err)
{
    enum rpl_status rc =
        check_pragma(ar, "PRAGMA main.integrity_check", each, ud, err);

    if (rc == RPL_OK)
        rc = check_pragma(ar, "PRAGMA main.foreign_key_check", each, ud, err);
    return rc;
}

/* check writes its temporary tables only (temp.chk_*). */
static enum rpl_status
sq_temp_writes(struct rpl_archive *ar, bool is_on, struct rpl_error *err)
{
    if (!ar->is_readonly)
        return RPL_OK;
    return rpl__ar_exec(
        ar, is_on ? "PRAGMA query_only = OFF" : "PRAGMA query_only = ON",
        "cannot check", err);
}

static bool
sq_claims(const char *where)
{
    (void)where;
    return true; /* the default: a file */
}

/* The games' tables as schema/archive.sql writes its own: a table keyed
 * by more than gid is WITHOUT ROWID (its key is the row), and the text,
 * which SQLite keeps, carries the game's docs. */
static const struct rpl__sql_dialect sq_dialect = {
    .gid_type = "INTEGER",
    .int_type = "INTEGER",
    .text_type = "TEXT",
    .is_without_rowid = true,
    .has_docs = true,
};

const struct rpl__backend rpl__backend_sqlite = {
    .name = "sqlite",
    .schema = archive_sql,
    .nschema = NSCHEMA,
    .dialect = &sq_dialect,
    .temp_prefix = "temp.chk_",
    .begin_write = "BEGIN IMMEDIATE",
    .begin_read = "BEGIN",
    .claims = sq_claims,
    .open = sq_open,
    .close = sq_close,
    .fail = rpl__sq_fail,
    .exec = sq_exec,
    .in_tx = sq_in_tx,
    .prepare = sq_prepare,
    .param_index = sq_param_index,
    .nparams = sq_nparams,
    .bind_null = sq_bind_null,
    .bind_int = sq_bind_int,
    .bind_text = sq_bind_text,
    .bind_blob = sq_bind_blob,
    .step = sq_step,
    .reset = sq_reset,
    .finalize = sq_finalize,
    .ncols = sq_ncols,
    .is_null = sq_is_null,
    .col_int = sq_col_int,
    .col_double = sq_col_double,
    .col_text = sq_col_text,
    .col_blob = sq_col_blob,
    .lock_game = NULL,
    .schema_diff = sq_schema_diff,
    .integrity = sq_integrity,
    .temp_writes = sq_temp_writes,
    .read_rows = rpl__sql_read_rows,
    .sql = rpl__sq_sql,
};
