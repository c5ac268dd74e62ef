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

/* The SQL of the steps after version from, one statement text. */
static enum rpl_status
schema_steps(struct rpl_ctx *ctx, unsigned from, char **out,
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
        if (step > from) {
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
    rc = schema_steps(ar->ctx, (unsigned)version, &sql, err);
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
    int src = SQLITE_OK;

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
    /* Read-only handles open the file for writing when they may, with
     * query_only on: the last connection to close can then fold the
     * write-ahead log back into the file and remove it. */
    if (ar->is_readonly) {
        src = sqlite3_open_v2(
            path, &ar->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL);
        if (src != SQLITE_OK) {
            sqlite3_close(ar->db);
            ar->db = NULL;
        }
    }
    if (!ar->db)
        src =
            sqlite3_open_v2(path, &ar->db, flags | SQLITE_OPEN_NOFOLLOW, NULL);
    if (src != SQLITE_OK) {
        if (!ar->db)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        else if (access(path, F_OK) != 0)
            rc = rpl__err(err, RPL_E_IO, 0,
                          "cannot open the archive: no such file");
        else
            rc = rpl__err(err, RPL_E_IO, 0, "cannot open the archive: %s",
                          sqlite3_errmsg(ar->db));
        goto out;
    }
    sqlite3_extended_result_codes(ar->db, 1);
    /* An archive may come from anyone: its schema may not call functions
     * with side effects, nor be written to directly. */
    sqlite3_db_config(ar->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(ar->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    sqlite3_busy_timeout(ar->db, RPL__AR_BUSY_TIMEOUT_MS);
    rc = rpl__ar_exec(ar,
                      ar->is_readonly ? "PRAGMA foreign_keys = ON; "
                                        "PRAGMA query_only = ON"
                                      : "PRAGMA foreign_keys = ON",
                      "cannot open the archive", err);
    if (rc == RPL_OK)
        rc = read_version(ar, &version, &objects, err);
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
    rpl__free(ar->ctx, ar);
}

unsigned
rpl_archive_version(const struct rpl_archive *ar)
{
    return ar->version;
}
