/*
 * db.c - opening and closing an archive: the connection and its pragmas,
 * the write-ahead log, and the schema.
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

#include "archive.h"
#include "archive_sql.h"

/* The schema's tables are the lines "CREATE TABLE name (" of
 * schema/archive.sql, in its order. */
enum rpl_status
rpl__ar_tables(struct rpl_archive *ar, struct rpl_error *err)
{
    static const char create[] = "CREATE TABLE ";

    ar->ntables = 0;
    for (size_t i = 0; i < sizeof(archive_sql) / sizeof(archive_sql[0]); i++) {
        const char *s = archive_sql[i];
        size_t n = 0;

        if (strncmp(s, create, sizeof(create) - 1) != 0)
            continue;
        s += sizeof(create) - 1;
        while ((s[n] >= 'a' && s[n] <= 'z') || s[n] == '_')
            n++;
        if (n == 0 || n >= RPL__AR_TABLE_NAME ||
            ar->ntables == RPL__AR_MAX_TABLES)
            return rpl__err(err, RPL_E_STATE, 0,
                            "the archive's schema has a table it cannot "
                            "name");
        memcpy(ar->table[ar->ntables], s, n);
        ar->table[ar->ntables][n] = '\0';
        ar->ntables++;
    }
    return RPL_OK;
}

/* ------------------------------------------------------- open, schema */

/* The version of the schema this library writes: the last step. */
static unsigned
schema_version(void)
{
    unsigned last = 0;

    for (size_t i = 0; i < sizeof(archive_sql) / sizeof(archive_sql[0]); i++) {
        unsigned v;
        char tail;

        if (sscanf(archive_sql[i], "-- version %u%c", &v, &tail) == 1)
            last = v;
    }
    return last;
}

/* The SQL of the steps after version from up to version to, one
 * statement text. */
static enum rpl_status
schema_steps(struct rpl_ctx *ctx, unsigned from, unsigned to, char **out,
             struct rpl_error *err)
{
    struct rpl__buf b;
    unsigned step = 0;

    rpl__buf_init(&b, ctx);
    for (size_t i = 0; i < sizeof(archive_sql) / sizeof(archive_sql[0]); i++) {
        unsigned v;
        char tail;

        if (sscanf(archive_sql[i], "-- version %u%c", &v, &tail) == 1)
            step = v;
        if (step > from && step <= to) {
            rpl__buf_puts(&b, archive_sql[i]);
            rpl__buf_add(&b, "\n", 1);
        }
    }
    return rpl__buf_take(&b, out, err);
}

/* The schema version and the number of schema objects, read in one
 * statement (one read transaction): read apart, another process creating
 * the archive could commit between the two reads, and a new archive
 * would look like a database with other tables. */
static enum rpl_status
read_version(struct rpl_archive *ar, sqlite3_int64 *version,
             sqlite3_int64 *objects, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    enum rpl_status rc;
    int src;

    rc = rpl__ar_prepare(ar,
                         "SELECT user_version, (SELECT count(*) FROM "
                         "main.sqlite_schema) FROM main.pragma_user_version",
                         &st, false, err);
    if (rc != RPL_OK)
        return rc;
    src = sqlite3_step(st);
    if (src == SQLITE_ROW) {
        *version = sqlite3_column_int64(st, 0);
        *objects = sqlite3_column_int64(st, 1);
    } else {
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
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
    rc = schema_steps(ar->ctx, (unsigned)version, want, &sql, err);
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
    if (rc != RPL_OK || sqlite3_get_autocommit(ar->db) == 0)
        sqlite3_exec(ar->db, rc == RPL_OK ? "COMMIT" : "ROLLBACK", NULL, NULL,
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
        enum rpl_status rc;
        int src;

        rc = rpl__ar_prepare(ar, "PRAGMA main.journal_mode", &st, false, err);
        if (rc != RPL_OK)
            return rc;
        src = sqlite3_step(st);
        if (src == SQLITE_ROW)
            is_wal = strcmp(rpl__ar_col_text(st, 0), "wal") == 0;
        sqlite3_finalize(st);
        if (is_wal)
            return RPL_OK;
        src = sqlite3_exec(ar->db, "PRAGMA main.journal_mode = WAL", NULL, NULL,
                           NULL);
        if (src == SQLITE_OK)
            continue; /* read the mode back */
        if (((src & 0xff) != SQLITE_BUSY && (src & 0xff) != SQLITE_LOCKED) ||
            waited >= RPL__AR_BUSY_TIMEOUT_MS)
            return rpl__ar_fail(ar, err, src, "cannot use a write-ahead log");
        sqlite3_sleep(PAUSE_MS);
    }
}

/* ------------------------------------------------- the connection */

/* Every statement's step budget (limits.h, set at open from the size of
 * the file): the progress handler counts the steps, and a statement that starts
 * while no other is running (on_stmt) starts a new budget; the statements run
 * while another is (a query's seats, check's rows) share its budget. */
int
rpl__ar_on_progress(void *ud)
{
    struct rpl_archive *ar = ud;

    ar->steps += ar->tick;
    if (ar->steps > ar->budget) {
        ar->is_over_budget = true;
        return 1;
    }
    if (ar->heap_cap > 0 && sqlite3_memory_used() > ar->heap_cap) {
        ar->is_over_heap = true;
        return 1;
    }
    if (ar->end_s > 0) {
        struct timespec now;

        if (clock_gettime(CLOCK_MONOTONIC, &now) == 0 &&
            (now.tv_sec > ar->end_s ||
             (now.tv_sec == ar->end_s && now.tv_nsec >= ar->end_ns))) {
            ar->is_over_time = true;
            return 1;
        }
    }
    return 0;
}

static int
on_stmt(unsigned type, void *ud, void *p, void *x)
{
    struct rpl_archive *ar = ud;
    const char *sql = x;

    /* "-- TRIGGER name": a trigger of the running statement. */
    if (type != SQLITE_TRACE_STMT || (sql && sql[0] == '-' && sql[1] == '-'))
        return 0;
    for (sqlite3_stmt *st = sqlite3_next_stmt(ar->db, NULL); st;
         st = sqlite3_next_stmt(ar->db, st))
        if (st != p && sqlite3_stmt_busy(st))
            return 0;
    ar->steps = 0;
    ar->is_over_budget = false;
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
    sqlite3 *db = ar->db;

    sqlite3_extended_result_codes(db, 1);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
    for (size_t i = 0; i < sizeof(limit) / sizeof(limit[0]); i++)
        sqlite3_limit(db, limit[i].id, limit[i].value);
    ar->tick = RPL_SQL_STEP_TICK;
    sqlite3_progress_handler(db, (int)ar->tick, rpl__ar_on_progress, ar);
    sqlite3_trace_v2(db, SQLITE_TRACE_STMT, on_stmt, ar);
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
        sqlite3_open_v2(name, &ar->db, flags | SQLITE_OPEN_NOMUTEX, NULL);

    if (src != SQLITE_OK) {
        if (!ar->db)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        return rpl__err(err, RPL_E_IO, 0, "cannot open the archive: %s",
                        sqlite3_errmsg(ar->db));
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
        ar->db, "SELECT count(*) FROM main.sqlite_schema", NULL, NULL, NULL);
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

/* The SQL text with every run of white space outside quotes made one
 * space (sqlite_schema keeps the text as it was written). */
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
        const bool is_space = c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
                              c == '\f' || c == '\v';

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

    rc = schema_steps(ctx, 0, v, &sql, err);
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

enum rpl_status
rpl__ar_schema_diff(struct rpl_archive *ar,
                    void (*each)(void *ud, const char *msg), void *ud,
                    size_t *n, struct rpl_error *err)
{
    struct object *want = NULL, *have = NULL;
    size_t nwant = 0, nhave = 0;
    char msg[RPL_ERRMSG_MAX];
    enum rpl_status rc;

    *n = 0;
    rc = objects_expected(ar->ctx, ar->version, &want, &nwant, err);
    if (rc == RPL_OK)
        rc = objects_read(ar->ctx, ar->db, &have, &nhave, err);
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
        sqlite3_stmt *st = NULL;
        sqlite3_int64 pages = 0;

        rc = rpl__ar_prepare(ar, "SELECT page_count FROM pragma_page_count",
                             &st, false, err);
        if (rc == RPL_OK && sqlite3_step(st) == SQLITE_ROW)
            pages = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        if (pages < 0)
            pages = 0;
        if ((uint64_t)pages >
            (UINT64_MAX - RPL_MAX_SQL_STEPS) / RPL_MAX_SQL_STEPS_PER_PAGE)
            ar->budget = UINT64_MAX;
        else
            ar->budget = RPL_MAX_SQL_STEPS +
                         (uint64_t)pages * RPL_MAX_SQL_STEPS_PER_PAGE;
    }
    if (rc == RPL_OK && *version > 0 && *version <= schema_version()) {
        ar->version = (unsigned)*version;
        rc = rpl__ar_schema_diff(ar, keep_warning, ar, &ar->nforeign, err);
        if (rc == RPL_OK && ar->nforeign > 0 && !ar->warning)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    sqlite3_exec(ar->db, "COMMIT", NULL, NULL, NULL);
    return rc;
}

enum rpl_status
rpl_archive_open(struct rpl_ctx *ctx, struct rpl_archive **out,
                 const char *path, enum rpl_archive_mode mode,
                 struct rpl_error *err)
{
    struct rpl_archive *ar = NULL;
    const unsigned want = schema_version();
    sqlite3_int64 version = 0;
    sqlite3_int64 objects = 0;
    enum rpl_status rc = RPL_OK;
    int flags = SQLITE_OPEN_READONLY;

    rpl__err_clear(err);
    *out = NULL;
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
    ar = rpl__calloc(ctx, 1, sizeof(*ar));
    if (!ar)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    ar->ctx = ctx;
    rc = rpl__ar_tables(ar, err);
    if (rc != RPL_OK)
        goto out;
    ar->is_readonly = mode == RPL_ARCHIVE_READ;
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
            sqlite3_close(ar->db);
            ar->db = NULL;
            rc = connect_db(ar, path, flags | SQLITE_OPEN_NOFOLLOW, err);
        }
        if (rc == RPL_OK && needs_immutable(ar)) {
            char *uri = immutable_uri(ctx, path);

            sqlite3_close(ar->db);
            ar->db = NULL;
            if (!uri) {
                rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                goto out;
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
        goto out;
    }
    rc = inspect(ar, &version, &objects, err);
    if (rc != RPL_OK)
        goto out;
    if (version > want) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      "the archive is at schema version %lld, newer than "
                      "this library's (%u)",
                      (long long)version, want);
        goto out;
    }
    if (version == 0 && objects > 0) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      "not a camelog archive (a database with other tables)");
        goto out;
    }
    if (version < want && ar->is_readonly) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      version == 0 ? "not a camelog archive (an empty "
                                     "database)"
                                   : "the archive is at schema version %lld: "
                                     "add to it once to migrate it",
                      (long long)version);
        goto out;
    }
    /* Its objects run in every statement that reads them (a view, a
     * trigger): a writer refuses a schema it did not make; a reader
     * warns (rpl_archive_warning()). */
    if (!ar->is_readonly && ar->nforeign > 0) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0,
                      "%s (%zu %s): not writing to it", ar->warning,
                      ar->nforeign,
                      ar->nforeign == 1 ? "difference" : "differences");
        goto out;
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
        if (rc != RPL_OK)
            goto out;
    }
    *out = ar;
    ar = NULL;
out:
    rpl_archive_close(ar);
    return rc;
}

const char *
rpl_archive_warning(const struct rpl_archive *ar)
{
    return ar->warning;
}

void
rpl_archive_close(struct rpl_archive *ar)
{
    if (!ar)
        return;
    for (size_t t = 0; t < RPL__AR_NTARGETS; t++)
        for (size_t i = 0; i < RPL__AR_NINS; i++)
            sqlite3_finalize(ar->ins[t][i]);
    for (size_t t = 0; t < RPL__AR_NTARGETS; t++)
        for (size_t i = 0; i < RPL__AR_MAX_TABLES; i++)
            sqlite3_finalize(ar->ins_table[t][i]);
    for (size_t i = 0; i < RPL__AR_NSTMT; i++)
        sqlite3_finalize(ar->st[i]);
    if (ar->db && sqlite3_get_autocommit(ar->db) == 0)
        sqlite3_exec(ar->db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(ar->db);
    rpl__free(ar->ctx, ar->warning);
    rpl__free(ar->ctx, ar);
}

unsigned
rpl_archive_version(const struct rpl_archive *ar)
{
    return ar->version;
}
