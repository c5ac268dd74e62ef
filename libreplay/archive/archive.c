/*
 * archive.c - the SQLite archive: many logs in one database, each stored
 * as its gzip file and indexed for queries and statistics.
 *
 * The schema is schema/archive.sql, embedded by the build as archive_sql[]
 * (one string per line).  It is a sequence of steps ("-- version N");
 * opening an archive runs, in one write transaction, the steps after its
 * PRAGMA user_version and sets it to the last.
 *
 * Adding a log first reads everything the index needs out of the log
 * (struct ix: the header, the public lines of the game, for Shadows over
 * Camelot the board where the log ends as the module's public view, and
 * once the log is complete its reveal as the module's JSON) without
 * touching the database; then one SAVEPOINT stores it, so a failed add
 * changes nothing, inside a batch or not.  `check` rebuilds the index of every
 * stored log into temporary tables (temp.chk_*) with the same code and
 * compares them with the stored rows.
 *
 * Every value reaches SQLite as a bound parameter; the only SQL text built
 * at run time is made of constant fragments (schema prefixes, the
 * filter's clauses) and of our own integers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "archive_sql.h"
#include "internal.h"
#include "log.h"

/* A minute: long enough for another process's batch to commit. */
#define BUSY_TIMEOUT_MS 60000

#define NSEATS          RPL_MAX_SEATS
#define MAX_QUESTS      5
#define MAX_CARDS       25
#define MAX_LADIES      3
#define SOC_QUESTS_MIN  16 /* quests held before the array grows */

/* ------------------------------------------------------------ handle */

/* Where index rows go: the archive, or the temporary tables of check. */
enum target { T_MAIN = 0, T_CHECK = 1 };
#define NTARGETS 2

static const char *const target_prefix[NTARGETS] = {"main.", "temp.chk_"};

/* Cached statements. */
enum stmt {
    /* Index inserts: one per target (see ins_sql). */
    S_INS_GAME,
    S_INS_LOG,
    S_INS_RULE,
    S_INS_SEAT,
    S_INS_QUEST,
    S_INS_CARD,
    S_INS_LADY,
    S_INS_ASSN,
    S_INS_SOC_GAME,
    S_INS_SOC_QUEST,
    S_INS_SOC_ACC,
    S_INS_SOC_SEAT,
    S_NINS,
    /* Main only. */
    S_FIND = S_NINS,
    S_SAME_ID,
    S_DELETE,
    S_SEATS_OF,
    S_QUESTS_OF,
    S_ASSN_OF,
    S_EXPORT,
    S_NSTMT
};

/* After "INSERT INTO " and the target's prefix. */
static const char *const ins_sql[S_NINS] = {
    "game (gid, game, id, seal, created, rules, players, "
    "dealer, progress, imported, winner, reason, leader, rounds, proposals, "
    "lines, seals, sigs, source, source_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
    "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
    "log (gid, text_len, gz) VALUES (?1, ?2, ?3)",
    "rule (gid, key, value) VALUES (?1, ?2, ?3)",
    "seat (gid, seat, name, key, role, side) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    "quest (gid, round, slot, leader, team, result, fails) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    "card (gid, round, seat, card) VALUES (?1, ?2, ?3, ?4)",
    "lady (gid, round, holder, target, result) "
    "VALUES (?1, ?2, ?3, ?4, ?5)",
    "assassination (gid, assassin, target, hit) "
    "VALUES (?1, ?2, ?3, ?4)",
    "soc_game (gid, white, black, siege, won, lost, traitor, revealed, "
    "revealed_line) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    "soc_quest (gid, n, line, quest, result, swords, relic) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    "soc_accusation (gid, line, accuser, accused, shown) "
    "VALUES (?1, ?2, ?3, ?4, ?5)",
    "soc_seat (gid, seat, knight, loyalty, died) VALUES (?1, ?2, ?3, ?4, ?5)",
};

static const char *const main_sql[S_NSTMT - S_NINS] = {
    /* S_FIND */
    "SELECT gid FROM main.game WHERE id = ?1 AND seal = ?2",
    /* S_SAME_ID: other logs of the game, with their text */
    "SELECT g.gid, l.gz FROM main.game g JOIN main.log l USING (gid) "
    "WHERE g.id = ?1 AND g.game = ?2 ORDER BY g.gid",
    /* S_DELETE: the other tables follow (ON DELETE CASCADE) */
    "DELETE FROM main.game WHERE gid = ?1",
    /* S_SEATS_OF */
    "SELECT seat, name, key, role, side FROM main.seat WHERE gid = ?1 "
    "ORDER BY seat",
    /* S_QUESTS_OF: failed is NULL until the cards are opened */
    "SELECT q.round, q.slot, q.leader, q.fails, q.team, q.result, "
    "(SELECT count(*) FROM main.card c WHERE c.gid = q.gid "
    "AND c.round = q.round), "
    "(SELECT group_concat('p' || seat, ',') FROM (SELECT c.seat FROM "
    "main.card c WHERE c.gid = q.gid AND c.round = q.round AND c.card = "
    "'fail' ORDER BY c.seat)) "
    "FROM main.quest q WHERE q.gid = ?1 ORDER BY q.round",
    /* S_ASSN_OF */
    "SELECT assassin, target FROM main.assassination WHERE gid = ?1",
    /* S_EXPORT */
    "SELECT l.gz FROM main.game g JOIN main.log l USING (gid) "
    "WHERE g.id = ?1 AND g.seal = ?2",
};

/* The index tables, compared by check (log is checked apart). */
static const char *const index_tables[] = {
    "game",      "rule",           "seat",          "quest",
    "card",      "lady",           "assassination", "soc_game",
    "soc_quest", "soc_accusation", "soc_seat",
};
#define NINDEX (sizeof(index_tables) / sizeof(index_tables[0]))

struct rpl_archive {
    struct rpl_ctx *ctx;
    sqlite3 *db;
    unsigned version;
    bool is_readonly;
    bool in_batch;
    sqlite3_stmt *ins[NTARGETS][S_NINS];
    sqlite3_stmt *st[S_NSTMT];
};

/* A failed SQLite call as our status, at the place it happened. */
static enum rpl_status
db_fail(const struct rpl_archive *ar, struct rpl_error *err, int rc,
        const char *what)
{
    const int prim = rc & 0xff;
    enum rpl_status code = RPL_E_IO;

    if (prim == SQLITE_NOMEM)
        code = RPL_E_NOMEM;
    else if (prim == SQLITE_NOTADB)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "not a camelog archive (not an SQLite database)");
    return rpl__err(err, code, 0, "%s: %s", what,
                    ar->db && sqlite3_errcode(ar->db) == rc
                        ? sqlite3_errmsg(ar->db)
                        : sqlite3_errstr(rc));
}

/* Runs constant SQL without parameters (transactions, schema). */
static enum rpl_status
db_exec(struct rpl_archive *ar, const char *sql, const char *what,
        struct rpl_error *err)
{
    const int rc = sqlite3_exec(ar->db, sql, NULL, NULL, NULL);

    if (rc != SQLITE_OK)
        return db_fail(ar, err, rc, what);
    return RPL_OK;
}

static enum rpl_status
prepare(struct rpl_archive *ar, const char *sql, sqlite3_stmt **out,
        bool is_cached, struct rpl_error *err)
{
    const int rc = sqlite3_prepare_v3(
        ar->db, sql, -1, is_cached ? SQLITE_PREPARE_PERSISTENT : 0, out, NULL);

    if (rc != SQLITE_OK) {
        *out = NULL;
        return db_fail(ar, err, rc, "cannot prepare a statement");
    }
    return RPL_OK;
}

/* A cached statement, prepared on first use and reset after each use by
 * its caller (done()). */
static enum rpl_status
stmt(struct rpl_archive *ar, enum stmt which, sqlite3_stmt **out,
     struct rpl_error *err)
{
    if (!ar->st[which]) {
        const enum rpl_status rc =
            prepare(ar, main_sql[which - S_NINS], &ar->st[which], true, err);

        if (rc != RPL_OK)
            return rc;
    }
    *out = ar->st[which];
    return RPL_OK;
}

static enum rpl_status
ins_stmt(struct rpl_archive *ar, enum target t, enum stmt which,
         sqlite3_stmt **out, struct rpl_error *err)
{
    if (!ar->ins[t][which]) {
        struct rpl__buf b;
        char *sql = NULL;
        enum rpl_status rc;

        rpl__buf_init(&b, ar->ctx);
        rpl__buf_puts(&b, "INSERT INTO ");
        rpl__buf_puts(&b, target_prefix[t]);
        rpl__buf_puts(&b, ins_sql[which]);
        rc = rpl__buf_take(&b, &sql, err);
        if (rc == RPL_OK)
            rc = prepare(ar, sql, &ar->ins[t][which], true, err);
        rpl_free(ar->ctx, sql);
        if (rc != RPL_OK)
            return rc;
    }
    *out = ar->ins[t][which];
    return RPL_OK;
}

/* Resets a statement after use (its error, if any, was reported). */
static void
done(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

/* Steps a statement that returns no row, then resets it. */
static enum rpl_status
step_done(struct rpl_archive *ar, sqlite3_stmt *st, const char *what,
          struct rpl_error *err)
{
    const int rc = sqlite3_step(st);
    enum rpl_status status = RPL_OK;

    if (rc != SQLITE_DONE)
        status = db_fail(ar, err, rc, what);
    done(st);
    return status;
}

static void
bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static void
bind_uint(sqlite3_stmt *st, int i, size_t v)
{
    sqlite3_bind_int64(st, i, (sqlite3_int64)v);
}

/* A column as text, "" for NULL. */
static const char *
col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);

    return s ? (const char *)s : "";
}

/* A column as text, NULL for NULL. */
static const char *
col_text_or_null(sqlite3_stmt *st, int i)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return NULL;
    return (const char *)sqlite3_column_text(st, i);
}

static size_t
col_uint(sqlite3_stmt *st, int i)
{
    const sqlite3_int64 v = sqlite3_column_int64(st, i);

    return v < 0 ? 0 : (size_t)v;
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

    rc = prepare(ar,
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
        rc = db_fail(ar, err, src, "cannot read the archive");
    }
    sqlite3_finalize(st);
    return rc;
}

static enum rpl_status reindex_game(struct rpl_archive *ar, const char *game,
                                    struct rpl_error *err);

/* Brings the schema to this library's version, in one transaction. */
static enum rpl_status
migrate(struct rpl_archive *ar, unsigned want, struct rpl_error *err)
{
    sqlite3_int64 version = 0;
    sqlite3_int64 objects = 0;
    char *sql = NULL;
    char set[64];
    enum rpl_status rc;

    rc = db_exec(ar, "BEGIN IMMEDIATE", "cannot lock the archive", err);
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
        rc = db_exec(ar, sql, "cannot create the schema", err);
    /* Version 2 indexes Shadows over Camelot: the games a version 1
     * archive holds are indexed again from their logs. */
    if (rc == RPL_OK && version >= 1 && version < 2)
        rc = reindex_game(ar, "soc", err);
    snprintf(set, sizeof(set), "PRAGMA main.user_version = %u", want);
    if (rc == RPL_OK)
        rc = db_exec(ar, set, "cannot set the schema version", err);
    if (rc == RPL_OK)
        rc = db_exec(ar, "COMMIT", "cannot commit the schema", err);
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

        rc = prepare(ar, "PRAGMA main.journal_mode", &st, false, err);
        if (rc != RPL_OK)
            return rc;
        src = sqlite3_step(st);
        if (src == SQLITE_ROW)
            is_wal = strcmp(col_text(st, 0), "wal") == 0;
        sqlite3_finalize(st);
        if (is_wal)
            return RPL_OK;
        src = sqlite3_exec(ar->db, "PRAGMA main.journal_mode = WAL", NULL, NULL,
                           NULL);
        if (src == SQLITE_OK)
            continue; /* read the mode back */
        if (((src & 0xff) != SQLITE_BUSY && (src & 0xff) != SQLITE_LOCKED) ||
            waited >= BUSY_TIMEOUT_MS)
            return db_fail(ar, err, src, "cannot use a write-ahead log");
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
    sqlite3_busy_timeout(ar->db, BUSY_TIMEOUT_MS);
    rc = db_exec(ar,
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
            rc = db_exec(ar, "PRAGMA main.page_size = 8192",
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
    for (size_t t = 0; t < NTARGETS; t++)
        for (size_t i = 0; i < S_NINS; i++)
            sqlite3_finalize(ar->ins[t][i]);
    for (size_t i = 0; i < S_NSTMT; i++)
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

/* ------------------------------------------------------------ batches */

static enum rpl_status
need_writable(const struct rpl_archive *ar, struct rpl_error *err)
{
    if (ar->is_readonly)
        return rpl__err(err, RPL_E_STATE, 0, "the archive is open read-only");
    return RPL_OK;
}

enum rpl_status
rpl_archive_begin(struct rpl_archive *ar, struct rpl_error *err)
{
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = need_writable(ar, err);
    if (rc != RPL_OK)
        return rc;
    if (ar->in_batch)
        return rpl__err(err, RPL_E_STATE, 0, "a batch is already open");
    rc = db_exec(ar, "BEGIN IMMEDIATE", "cannot lock the archive", err);
    if (rc == RPL_OK)
        ar->in_batch = true;
    return rc;
}

enum rpl_status
rpl_archive_commit(struct rpl_archive *ar, struct rpl_error *err)
{
    enum rpl_status rc;

    rpl__err_clear(err);
    if (!ar->in_batch)
        return rpl__err(err, RPL_E_STATE, 0, "no batch is open");
    rc = db_exec(ar, "COMMIT", "cannot commit", err);
    if (rc != RPL_OK) {
        /* Leave nothing half done: the batch is lost as a whole. */
        sqlite3_exec(ar->db, "ROLLBACK", NULL, NULL, NULL);
    }
    ar->in_batch = false;
    return rc;
}

enum rpl_status
rpl_archive_rollback(struct rpl_archive *ar, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    rpl__err_clear(err);
    if (!ar->in_batch)
        return rpl__err(err, RPL_E_STATE, 0, "no batch is open");
    if (sqlite3_get_autocommit(ar->db) == 0)
        rc = db_exec(ar, "ROLLBACK", "cannot roll back", err);
    ar->in_batch = false;
    return rc;
}

/* -------------------------------------------------------------- index */

struct ix_seat {
    const char *name;
    char key[RPL_PUBKEY_B64_LEN + 1]; /* "" when none */
    char role[16];                    /* "" until revealed */
    char side[16];
};

struct ix_quest {
    unsigned round, slot, leader, fails;
    char team[4 * RPL_MAX_SEATS];
    char result[8];
};

struct ix_card {
    unsigned round, seat;
    char value[8];
};

struct ix_lady {
    unsigned round, holder, target;
    char result[8]; /* "" until revealed */
};

struct ix_kv {
    const char *key, *value;
    size_t key_len, value_len;
};

/* Shadows over Camelot (camelog-soc(7)). */
struct ix_soc_quest {
    unsigned line, swords, relic;
    char quest[16];
    bool is_won;
};

struct ix_soc_acc {
    unsigned line, accuser, accused;
    bool is_answered;
    bool is_traitor; /* what the accused showed */
};

struct ix_soc {
    bool is_soc;
    bool has_start;
    bool has_board;
    long white, black, siege;
    int traitor;          /* the traitor's seat, 0 for none, -1 unknown */
    const char *revealed; /* how he came out, NULL while unknown */
    unsigned revealed_line;
    unsigned won, lost;
    char knight[NSEATS + 1][16];
    char loyalty[NSEATS + 1][8]; /* "" while unknown */
    unsigned died[NSEATS + 1];
    size_t nquests, quest_cap;
    struct ix_soc_quest *quest; /* on the context: ix_release() */
    size_t nacc;
    struct ix_soc_acc acc[NSEATS];
    char prev[16]; /* the keyword of the last line of play */
};

/* Everything the index says about one log. */
struct ix {
    const char *game;
    const char *id;
    uint8_t seal[RPL__HASH];
    char created[24]; /* "" when absent */
    const char *rules;
    size_t rules_len;
    size_t nrules;
    struct ix_kv rule[RPL_MAX_TOKENS];
    size_t players;
    char dealer[RPL_PUBKEY_B64_LEN + 1];
    const char *progress;
    bool is_imported;
    char source[RPL_MAX_LINE]; /* the `import` line's tokens, "" if none */
    char source_id[RPL_MAX_LINE];
    const char *winner; /* NULL before end */
    const char *reason;
    unsigned leader; /* 0 before start */
    size_t rounds, proposals, lines, seals, sigs;
    struct ix_seat seat[NSEATS + 1];
    struct ix_quest quest[MAX_QUESTS];
    size_t ncards;
    struct ix_card card[MAX_CARDS];
    size_t nladies;
    struct ix_lady lady[MAX_LADIES];
    unsigned assassin, target;
    struct ix_soc soc;
};

/* Frees what an ix holds besides itself. */
static void
ix_release(struct rpl_ctx *ctx, struct ix *x)
{
    if (!x)
        return;
    rpl__free(ctx, x->soc.quest);
    x->soc.quest = NULL;
    x->soc.nquests = x->soc.quest_cap = 0;
}

static const char *
progress_name(enum rpl_progress p)
{
    switch (p) {
    case RPL_PROGRESS_IN_PROGRESS:
        return "in_progress";
    case RPL_PROGRESS_FINISHED:
        return "finished";
    case RPL_PROGRESS_COMPLETE:
        return "complete";
    }
    return "in_progress";
}

static void
tok_copy(char *out, size_t cap, const struct rpl__tok *t)
{
    const size_t n = t->n < cap - 1 ? t->n : cap - 1;

    memcpy(out, t->p, n);
    out[n] = '\0';
}

static enum rpl_status
bad_line(const struct rpl__line *ln, struct rpl_error *err)
{
    return rpl__err(err, RPL_E_SYNTAX, ln->no,
                    "the archive cannot index this line");
}

/* The public lines of an Avalon game, as camelog-avalon(7) writes them
 * (the log has verified, so each line is well formed). */
static enum rpl_status
index_avalon_line(struct ix *x, const struct rpl__line *ln,
                  unsigned *team_leader, char *team, size_t team_cap,
                  struct rpl_error *err)
{
    const struct rpl__tok *tok = ln->tok;
    struct rpl__tok v;
    size_t a = 0, b = 0;
    unsigned long n = 0;

    if (rpl__tok_is(&tok[0], "start")) {
        if (ln->ntok < 2 || !rpl__tok_kv(&tok[1], "leader", &v) ||
            !rpl__tok_seat(&v, x->players, &a))
            return bad_line(ln, err);
        x->leader = (unsigned)a;
    } else if (rpl__tok_is(&tok[0], "propose")) {
        const struct rpl__tok *t = &tok[ln->ntok - 1];

        if (ln->ntok < 3 || !rpl__tok_seat(&tok[1], x->players, &a))
            return bad_line(ln, err);
        x->proposals++;
        *team_leader = (unsigned)a;
        tok_copy(team, team_cap, t);
    } else if (rpl__tok_is(&tok[0], "quest")) {
        struct ix_quest *q;

        if (x->rounds >= MAX_QUESTS || ln->ntok != 4 ||
            !rpl__tok_uint(&tok[1], 5, &n) ||
            !rpl__tok_kv(&tok[3], "fails", &v))
            return bad_line(ln, err);
        q = &x->quest[x->rounds++];
        q->round = (unsigned)x->rounds;
        q->slot = (unsigned)n;
        if (!rpl__tok_uint(&v, 10, &n))
            return bad_line(ln, err);
        q->fails = (unsigned)n;
        q->leader = *team_leader;
        snprintf(q->team, sizeof(q->team), "%s", team);
        tok_copy(q->result, sizeof(q->result), &tok[2]);
    } else if (rpl__tok_is(&tok[0], "lady")) {
        struct ix_lady *l;

        if (x->nladies >= MAX_LADIES || ln->ntok < 3 ||
            !rpl__tok_seat(&tok[1], x->players, &a) ||
            !rpl__tok_seat(&tok[2], x->players, &b))
            return bad_line(ln, err);
        l = &x->lady[x->nladies++];
        l->round = (unsigned)x->rounds;
        l->holder = (unsigned)a;
        l->target = (unsigned)b;
    } else if (rpl__tok_is(&tok[0], "assassinate")) {
        if (ln->ntok != 3 || !rpl__tok_seat(&tok[1], x->players, &a) ||
            !rpl__tok_seat(&tok[2], x->players, &b))
            return bad_line(ln, err);
        x->assassin = (unsigned)a;
        x->target = (unsigned)b;
    }
    return RPL_OK;
}

static void
set_loyalty(struct ix *x, unsigned k, bool is_traitor)
{
    snprintf(x->soc.loyalty[k], sizeof(x->soc.loyalty[k]), "%s",
             is_traitor ? "traitor" : "loyal");
}

/* The public lines of a game of Shadows over Camelot, as camelog-soc(7)
 * writes them (the log has verified): the knights, every quest that
 * ended, the accusations and what the accused showed, the traitor when
 * he comes out, the deaths. */
static enum rpl_status
index_soc_line(struct ix *x, struct rpl_ctx *ctx, const struct rpl__line *ln,
               struct rpl_error *err)
{
    struct ix_soc *so = &x->soc;
    const struct rpl__tok *tok = ln->tok;
    struct rpl__tok v;
    size_t a = 0, b = 0;
    unsigned long n = 0;

    if (rpl__tok_is(&tok[0], "sig") || rpl__tok_is(&tok[0], "seal") ||
        rpl__tok_is(&tok[0], "entropy") || rpl__tok_is(&tok[0], "reveal") ||
        rpl__tok_is(&tok[0], "open"))
        return RPL_OK;
    if (rpl__tok_is(&tok[0], "start")) {
        const char *p;
        size_t left, k = 1;

        if (ln->ntok != 3 || !rpl__tok_kv(&tok[1], "knights", &v))
            return bad_line(ln, err);
        p = v.p;
        left = v.n;
        while (left && k <= x->players) {
            const char *comma = memchr(p, ',', left);
            const size_t len = comma ? (size_t)(comma - p) : left;

            if (len >= sizeof(so->knight[k]))
                return bad_line(ln, err);
            memcpy(so->knight[k], p, len);
            so->knight[k][len] = '\0';
            k++;
            p += len + (comma ? 1 : 0);
            left -= len + (comma ? 1 : 0);
        }
        if (!rpl__tok_kv(&tok[2], "first", &v) ||
            !rpl__tok_seat(&v, x->players, &a) || k != x->players + 1)
            return bad_line(ln, err);
        x->leader = (unsigned)a;
        so->has_start = true;
    } else if (rpl__tok_is(&tok[0], "quest")) {
        struct ix_soc_quest *q;

        if (ln->ntok < 4 || ln->ntok > 5 ||
            !rpl__tok_kv(&tok[3], "swords", &v) || !rpl__tok_uint(&v, 99, &n) ||
            tok[1].n >= sizeof(q->quest))
            return bad_line(ln, err);
        if (so->nquests == so->quest_cap) {
            const size_t cap =
                so->quest_cap ? 2 * so->quest_cap : SOC_QUESTS_MIN;
            void *grown = rpl__realloc(ctx, so->quest, cap * sizeof(*q));

            if (!grown)
                return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            so->quest = grown;
            so->quest_cap = cap;
        }
        q = &so->quest[so->nquests++];
        memset(q, 0, sizeof(*q));
        q->line = (unsigned)ln->no;
        q->swords = (unsigned)n;
        q->is_won = rpl__tok_is(&tok[2], "won");
        tok_copy(q->quest, sizeof(q->quest), &tok[1]);
        if (ln->ntok == 5) {
            if (!rpl__tok_kv(&tok[4], "relic", &v) ||
                !rpl__tok_seat(&v, x->players, &a))
                return bad_line(ln, err);
            q->relic = (unsigned)a;
        }
        if (q->is_won)
            so->won++;
        else
            so->lost++;
    } else if (rpl__tok_is(&tok[0], "accuse")) {
        struct ix_soc_acc *c;

        if (ln->ntok != 3 || so->nacc >= NSEATS ||
            !rpl__tok_seat(&tok[1], x->players, &a) ||
            !rpl__tok_seat(&tok[2], x->players, &b))
            return bad_line(ln, err);
        c = &so->acc[so->nacc++];
        memset(c, 0, sizeof(*c));
        c->line = (unsigned)ln->no;
        c->accuser = (unsigned)a;
        c->accused = (unsigned)b;
    } else if (rpl__tok_is(&tok[0], "shows")) {
        const bool is_traitor =
            ln->ntok == 3 && rpl__tok_is(&tok[2], "traitor");

        if (ln->ntok != 3 || !rpl__tok_seat(&tok[1], x->players, &a))
            return bad_line(ln, err);
        set_loyalty(x, (unsigned)a, is_traitor);
        if (strcmp(so->prev, "accuse") == 0 && so->nacc) {
            so->acc[so->nacc - 1].is_answered = true;
            so->acc[so->nacc - 1].is_traitor = is_traitor;
        }
        if (is_traitor) {
            so->traitor = (int)a;
            so->revealed_line = (unsigned)ln->no;
            so->revealed = strcmp(so->prev, "accuse") == 0    ? "accusation"
                           : strcmp(so->prev, "special") == 0 ? "fate"
                                                              : "last";
        }
    } else if (rpl__tok_is(&tok[0], "flip")) {
        if (ln->ntok != 2)
            return bad_line(ln, err);
        if (rpl__tok_is(&tok[1], "none")) {
            so->traitor = 0;
        } else {
            if (!rpl__tok_seat(&tok[1], x->players, &a))
                return bad_line(ln, err);
            so->traitor = (int)a;
            so->revealed = "flip";
            so->revealed_line = (unsigned)ln->no;
            set_loyalty(x, (unsigned)a, true);
        }
    } else if (rpl__tok_is(&tok[0], "dies")) {
        if (ln->ntok != 2 || !rpl__tok_seat(&tok[1], x->players, &a))
            return bad_line(ln, err);
        so->died[a] = (unsigned)ln->no;
    }
    tok_copy(so->prev, sizeof(so->prev), &tok[0]);
    return RPL_OK;
}

/* Where a game of Shadows over Camelot stands at the end of its log:
 * swords and siege engines, from the module's public view (keys in
 * camelog-export(1)). */
static enum rpl_status
index_soc_board(struct ix *x, struct rpl_log *log, struct rpl_error *err)
{
    char *text = NULL;
    json_t *root, *swords;
    enum rpl_status rc;

    rc = rpl_log_seek(log, log->nlines, err);
    if (rc == RPL_OK)
        rc = rpl_log_view_json(log, RPL_VIEW_PUBLIC, &text, err);
    if (rc != RPL_OK)
        return rc;
    root = json_loads(text, 0, NULL);
    rpl_free(log->ctx, text);
    swords = json_object_get(root, "swords");
    if (!root || !json_is_object(swords)) {
        json_decref(root);
        return rpl__err(err, root ? RPL_E_UNSUPPORTED : RPL_E_NOMEM, 0,
                        "the archive does not understand the board of this "
                        "game");
    }
    x->soc.white = (long)json_integer_value(json_object_get(swords, "white"));
    x->soc.black = (long)json_integer_value(json_object_get(swords, "black"));
    x->soc.siege = (long)json_integer_value(json_object_get(root, "siege"));
    x->soc.has_board = true;
    json_decref(root);
    return RPL_OK;
}

/* The header: created, rules and its options, seats, dealer. */
static enum rpl_status
index_header(struct ix *x, const struct rpl_log *log, struct rpl_error *err)
{
    struct rpl__line ln;
    enum rpl_status rc;

    for (size_t no = 1; no <= log->header_end; no++) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc != RPL_OK)
            return rc;
        if (rpl__tok_is(&ln.tok[0], "created") && ln.ntok == 2) {
            tok_copy(x->created, sizeof(x->created), &ln.tok[1]);
        } else if (rpl__tok_is(&ln.tok[0], "import") && ln.ntok == 3) {
            tok_copy(x->source, sizeof(x->source), &ln.tok[1]);
            tok_copy(x->source_id, sizeof(x->source_id), &ln.tok[2]);
        } else if (rpl__tok_is(&ln.tok[0], "rules")) {
            x->rules = text + 6;
            x->rules_len = len > 6 ? len - 6 : 0;
            for (size_t i = 1; i < ln.ntok; i++) {
                const struct rpl__tok *t = &ln.tok[i];
                const char *eq = memchr(t->p, '=', t->n);
                struct ix_kv *kv;

                if (!eq || x->nrules == RPL_MAX_TOKENS)
                    continue;
                kv = &x->rule[x->nrules++];
                kv->key = t->p;
                kv->key_len = (size_t)(eq - t->p);
                kv->value = eq + 1;
                kv->value_len = t->n - kv->key_len - 1;
            }
        }
    }
    for (size_t k = 1; k <= log->seats; k++) {
        x->seat[k].name = log->names[k];
        if (log->has_seat_key[k])
            rpl_pubkey_format(&log->seat_key[k], x->seat[k].key);
    }
    rpl_pubkey_format(&log->dealer, x->dealer);
    return RPL_OK;
}

static const char *
jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));

    return s ? s : "";
}

static unsigned
jseat(const json_t *o, const char *key, size_t seats)
{
    const json_int_t v = json_integer_value(json_object_get(o, key));

    return v >= 1 && (size_t)v <= seats ? (unsigned)v : 0;
}

/* The secrets of a complete log, from the module's reveal JSON (keys in
 * camelog-reveal(1)): seats [{seat, role, side}], quests [{round, cards
 * [{seat, value}]}], lady [{round, holder, target, side}]. */
static enum rpl_status
index_reveal(struct ix *x, struct rpl_log *log, struct rpl_error *err)
{
    char *text = NULL;
    json_t *root = NULL;
    const json_t *a, *e;
    size_t i;
    enum rpl_status rc;

    rc = rpl_log_reveal_json(log, &text, err);
    if (rc != RPL_OK)
        return rc;
    root = json_loads(text, 0, NULL);
    rpl_free(log->ctx, text);
    if (!root || !json_is_array(json_object_get(root, "seats"))) {
        rc = rpl__err(err, root ? RPL_E_UNSUPPORTED : RPL_E_NOMEM, 0,
                      "the archive does not understand the reveal of this "
                      "game");
        goto out;
    }
    json_array_foreach(json_object_get(root, "seats"), i, e)
    {
        const unsigned k = jseat(e, "seat", x->players);
        const char *loyalty = jstr(e, "loyalty");

        if (!k)
            continue;
        /* Avalon: role and side.  Shadows over Camelot: the knight, and
         * the loyalty card (the traitor is on the evil side). */
        snprintf(x->seat[k].role, sizeof(x->seat[k].role), "%s",
                 json_object_get(e, "role") ? jstr(e, "role")
                                            : jstr(e, "knight"));
        if (json_object_get(e, "side"))
            snprintf(x->seat[k].side, sizeof(x->seat[k].side), "%s",
                     jstr(e, "side"));
        else if (loyalty[0])
            snprintf(x->seat[k].side, sizeof(x->seat[k].side), "%s",
                     strcmp(loyalty, "traitor") == 0 ? "evil" : "good");
    }
    /* Shadows over Camelot: the seat dealt the traitor card, 0 for none;
     * a traitor who never came out was never revealed. */
    if (x->soc.is_soc && json_is_integer(json_object_get(root, "traitor"))) {
        const json_int_t t =
            json_integer_value(json_object_get(root, "traitor"));

        x->soc.traitor = t >= 1 && (size_t)t <= x->players ? (int)t : 0;
        for (size_t k = 1; k <= x->players; k++)
            if (!x->seat[k].side[0])
                continue;
            else
                set_loyalty(x, (unsigned)k,
                            strcmp(x->seat[k].side, "evil") == 0);
        if (x->soc.traitor > 0 && !x->soc.revealed)
            x->soc.revealed = "never";
    }
    a = json_object_get(root, "quests");
    json_array_foreach(a, i, e)
    {
        const json_int_t round =
            json_integer_value(json_object_get(e, "round"));
        const json_t *c;
        size_t j;

        json_array_foreach(json_object_get(e, "cards"), j, c)
        {
            struct ix_card *card;
            const unsigned k = jseat(c, "seat", x->players);

            if (!k || round < 1 || round > MAX_QUESTS || x->ncards >= MAX_CARDS)
                continue;
            card = &x->card[x->ncards++];
            card->round = (unsigned)round;
            card->seat = k;
            snprintf(card->value, sizeof(card->value), "%s", jstr(c, "value"));
        }
    }
    a = json_object_get(root, "lady");
    json_array_foreach(a, i, e)
    {
        const unsigned h = jseat(e, "holder", x->players);
        const unsigned t = jseat(e, "target", x->players);

        for (size_t l = 0; l < x->nladies; l++)
            if (x->lady[l].holder == h && x->lady[l].target == t)
                snprintf(x->lady[l].result, sizeof(x->lady[l].result), "%s",
                         jstr(e, "side"));
    }
out:
    json_decref(root);
    return rc;
}

/* The rules line of Shadows over Camelot: with traitor=off every seat
 * is loyal and nobody holds the traitor card, publicly. */
static void
soc_rules(struct ix *x)
{
    for (size_t i = 0; i < x->nrules; i++) {
        const struct ix_kv *kv = &x->rule[i];

        if (kv->key_len == 7 && memcmp(kv->key, "traitor", 7) == 0 &&
            kv->value_len == 3 && memcmp(kv->value, "off", 3) == 0) {
            x->soc.traitor = 0;
            for (size_t k = 1; k <= x->players; k++)
                set_loyalty(x, (unsigned)k, false);
        }
    }
}

/* The seats of Shadows over Camelot in the common table: the knight is
 * public from `start`, the side follows the loyalty card once known. */
static void
soc_seats(struct ix *x)
{
    for (size_t k = 1; k <= x->players; k++) {
        if (x->soc.has_start)
            snprintf(x->seat[k].role, sizeof(x->seat[k].role), "%s",
                     x->soc.knight[k]);
        if (x->soc.loyalty[k][0])
            snprintf(x->seat[k].side, sizeof(x->seat[k].side), "%s",
                     strcmp(x->soc.loyalty[k], "traitor") == 0 ? "evil"
                                                               : "good");
    }
}

/* Reads everything the index needs from a verified log. */
static enum rpl_status
index_log(struct ix *x, struct rpl_log *log, struct rpl_error *err)
{
    const struct rpl_report *rep = &log->rep;
    struct rpl__line ln;
    char team[4 * RPL_MAX_SEATS] = "";
    unsigned team_leader = 0;
    size_t len = 0;
    const char *last;
    enum rpl_status rc;
    const bool is_avalon = strcmp(rep->game, "avalon") == 0;
    const bool is_soc = strcmp(rep->game, "soc") == 0;

    memset(x, 0, sizeof(*x));
    x->soc.is_soc = is_soc;
    x->soc.traitor = -1;
    x->game = rep->game;
    x->id = rep->id;
    x->players = log->seats;
    x->progress = progress_name(rep->progress);
    x->is_imported = rep->is_imported;
    x->winner = rep->winner[0] ? rep->winner : NULL;
    x->reason = rep->reason[0] ? rep->reason : NULL;
    x->lines = rep->lines;
    x->seals = rep->seals;
    x->sigs = rep->sigs;
    last = rpl__log_line(log, log->nlines, &len);
    rpl__hash(x->seal, NULL, last, len);
    rc = index_header(x, log, err);
    if (rc == RPL_OK && is_soc)
        soc_rules(x);
    for (size_t no = log->header_end + 1;
         rc == RPL_OK && (is_avalon || is_soc) && no <= log->nlines; no++) {
        const char *text = rpl__log_line(log, no, &len);

        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc == RPL_OK && is_avalon)
            rc = index_avalon_line(x, &ln, &team_leader, team, sizeof(team),
                                   err);
        else if (rc == RPL_OK)
            rc = index_soc_line(x, log->ctx, &ln, err);
    }
    if (rc == RPL_OK && is_soc)
        rc = index_soc_board(x, log, err);
    if (rc == RPL_OK && rep->progress == RPL_PROGRESS_COMPLETE)
        rc = index_reveal(x, log, err);
    if (rc == RPL_OK && is_soc)
        soc_seats(x);
    return rc;
}

/* The rows of a game of Shadows over Camelot. */
static enum rpl_status
insert_soc(struct rpl_archive *ar, enum target t, const struct ix *x,
           sqlite3_int64 gid, struct rpl_error *err)
{
    const struct ix_soc *so = &x->soc;
    sqlite3_stmt *st = NULL;
    enum rpl_status rc;

    rc = ins_stmt(ar, t, S_INS_SOC_GAME, &st, err);
    if (rc != RPL_OK)
        return rc;
    sqlite3_bind_int64(st, 1, gid);
    sqlite3_bind_int64(st, 2, so->white);
    sqlite3_bind_int64(st, 3, so->black);
    sqlite3_bind_int64(st, 4, so->siege);
    bind_uint(st, 5, so->won);
    bind_uint(st, 6, so->lost);
    if (so->traitor >= 0)
        sqlite3_bind_int(st, 7, so->traitor);
    if (so->traitor > 0 && so->revealed)
        bind_text(st, 8, so->revealed);
    if (so->traitor > 0 && so->revealed_line)
        bind_uint(st, 9, so->revealed_line);
    rc = step_done(ar, st, "cannot add the game of Shadows over Camelot", err);
    if (rc == RPL_OK)
        rc = ins_stmt(ar, t, S_INS_SOC_QUEST, &st, err);
    for (size_t i = 0; rc == RPL_OK && i < so->nquests; i++) {
        const struct ix_soc_quest *q = &so->quest[i];

        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, i + 1);
        bind_uint(st, 3, q->line);
        bind_text(st, 4, q->quest);
        bind_text(st, 5, q->is_won ? "won" : "lost");
        bind_uint(st, 6, q->swords);
        if (q->relic)
            bind_uint(st, 7, q->relic);
        rc = step_done(ar, st, "cannot add a quest", err);
    }
    if (rc == RPL_OK)
        rc = ins_stmt(ar, t, S_INS_SOC_ACC, &st, err);
    for (size_t i = 0; rc == RPL_OK && i < so->nacc; i++) {
        const struct ix_soc_acc *c = &so->acc[i];

        if (!c->is_answered)
            continue; /* the log stops before the answer */
        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, c->line);
        bind_uint(st, 3, c->accuser);
        bind_uint(st, 4, c->accused);
        bind_text(st, 5, c->is_traitor ? "traitor" : "loyal");
        rc = step_done(ar, st, "cannot add an accusation", err);
    }
    if (rc == RPL_OK && so->has_start)
        rc = ins_stmt(ar, t, S_INS_SOC_SEAT, &st, err);
    for (size_t k = 1; rc == RPL_OK && so->has_start && k <= x->players; k++) {
        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, k);
        bind_text(st, 3, so->knight[k]);
        bind_text(st, 4, so->loyalty[k][0] ? so->loyalty[k] : NULL);
        if (so->died[k])
            bind_uint(st, 5, so->died[k]);
        rc = step_done(ar, st, "cannot add a knight", err);
    }
    return rc;
}

/* Writes the index rows of x into target t; gid 0 lets the archive pick
 * it (main), and *out_gid tells which. */
static enum rpl_status
insert_index(struct rpl_archive *ar, enum target t, const struct ix *x,
             sqlite3_int64 gid, sqlite3_int64 *out_gid, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    enum rpl_status rc;

    rc = ins_stmt(ar, t, S_INS_GAME, &st, err);
    if (rc != RPL_OK)
        return rc;
    if (gid)
        sqlite3_bind_int64(st, 1, gid);
    bind_text(st, 2, x->game);
    bind_text(st, 3, x->id);
    sqlite3_bind_blob(st, 4, x->seal, sizeof(x->seal), SQLITE_STATIC);
    bind_text(st, 5, x->created[0] ? x->created : NULL);
    sqlite3_bind_text(st, 6, x->rules, (int)x->rules_len, SQLITE_STATIC);
    bind_uint(st, 7, x->players);
    bind_text(st, 8, x->dealer);
    bind_text(st, 9, x->progress);
    sqlite3_bind_int(st, 10, x->is_imported ? 1 : 0);
    bind_text(st, 11, x->winner);
    bind_text(st, 12, x->reason);
    if (x->leader)
        bind_uint(st, 13, x->leader);
    bind_uint(st, 14, x->soc.is_soc ? x->soc.nquests : x->rounds);
    bind_uint(st, 15, x->proposals);
    bind_uint(st, 16, x->lines);
    bind_uint(st, 17, x->seals);
    bind_uint(st, 18, x->sigs);
    bind_text(st, 19, x->source[0] ? x->source : NULL);
    bind_text(st, 20, x->source_id[0] ? x->source_id : NULL);
    rc = step_done(ar, st, "cannot add the game", err);
    if (rc != RPL_OK)
        return rc;
    if (!gid)
        gid = sqlite3_last_insert_rowid(ar->db);
    *out_gid = gid;

    rc = ins_stmt(ar, t, S_INS_RULE, &st, err);
    for (size_t i = 0; rc == RPL_OK && i < x->nrules; i++) {
        sqlite3_bind_int64(st, 1, gid);
        sqlite3_bind_text(st, 2, x->rule[i].key, (int)x->rule[i].key_len,
                          SQLITE_STATIC);
        sqlite3_bind_text(st, 3, x->rule[i].value, (int)x->rule[i].value_len,
                          SQLITE_STATIC);
        rc = step_done(ar, st, "cannot add the rules", err);
    }
    if (rc == RPL_OK)
        rc = ins_stmt(ar, t, S_INS_SEAT, &st, err);
    for (size_t k = 1; rc == RPL_OK && k <= x->players; k++) {
        const struct ix_seat *s = &x->seat[k];

        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, k);
        bind_text(st, 3, s->name);
        bind_text(st, 4, s->key[0] ? s->key : NULL);
        bind_text(st, 5, s->role[0] ? s->role : NULL);
        bind_text(st, 6, s->side[0] ? s->side : NULL);
        rc = step_done(ar, st, "cannot add a seat", err);
    }
    if (rc == RPL_OK)
        rc = ins_stmt(ar, t, S_INS_QUEST, &st, err);
    for (size_t i = 0; rc == RPL_OK && i < x->rounds; i++) {
        const struct ix_quest *q = &x->quest[i];

        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, q->round);
        bind_uint(st, 3, q->slot);
        bind_uint(st, 4, q->leader);
        bind_text(st, 5, q->team);
        bind_text(st, 6, q->result);
        bind_uint(st, 7, q->fails);
        rc = step_done(ar, st, "cannot add a quest", err);
    }
    if (rc == RPL_OK)
        rc = ins_stmt(ar, t, S_INS_CARD, &st, err);
    for (size_t i = 0; rc == RPL_OK && i < x->ncards; i++) {
        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, x->card[i].round);
        bind_uint(st, 3, x->card[i].seat);
        bind_text(st, 4, x->card[i].value);
        rc = step_done(ar, st, "cannot add a quest card", err);
    }
    if (rc == RPL_OK)
        rc = ins_stmt(ar, t, S_INS_LADY, &st, err);
    for (size_t i = 0; rc == RPL_OK && i < x->nladies; i++) {
        const struct ix_lady *l = &x->lady[i];

        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, l->round);
        bind_uint(st, 3, l->holder);
        bind_uint(st, 4, l->target);
        bind_text(st, 5, l->result[0] ? l->result : NULL);
        rc = step_done(ar, st, "cannot add a use of the Lady", err);
    }
    if (rc == RPL_OK && x->assassin) {
        rc = ins_stmt(ar, t, S_INS_ASSN, &st, err);
        if (rc == RPL_OK) {
            sqlite3_bind_int64(st, 1, gid);
            bind_uint(st, 2, x->assassin);
            bind_uint(st, 3, x->target);
            if (x->reason && strcmp(x->reason, "assassination") == 0)
                sqlite3_bind_int(st, 4, 1);
            else if (x->reason && strcmp(x->reason, "missed") == 0)
                sqlite3_bind_int(st, 4, 0);
            rc = step_done(ar, st, "cannot add the assassination", err);
        }
    }
    if (rc == RPL_OK && x->soc.is_soc)
        rc = insert_soc(ar, t, x, gid, err);
    return rc;
}

/* Indexes stored log gid again: its rows are replaced by what the log
 * says now, under the same gid.  A log that no longer verifies keeps its
 * rows (check reports it). */
static enum rpl_status
reindex_one(struct rpl_archive *ar, sqlite3_int64 gid, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error e;
    struct ix *x = NULL;
    uint8_t *gz = NULL;
    char *text = NULL;
    size_t gz_len = 0, len = 0;
    sqlite3_int64 out_gid = 0;
    enum rpl_status rc;
    int src;

    rc = prepare(ar, "SELECT gz FROM main.log WHERE gid = ?1", &st, false, err);
    if (rc != RPL_OK)
        return rc;
    sqlite3_bind_int64(st, 1, gid);
    src = sqlite3_step(st);
    if (src == SQLITE_ROW) {
        gz_len = (size_t)sqlite3_column_bytes(st, 0);
        gz = rpl__alloc(ar->ctx, gz_len ? gz_len : 1);
        if (!gz)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        else if (gz_len)
            memcpy(gz, sqlite3_column_blob(st, 0), gz_len);
    } else if (src != SQLITE_DONE) {
        rc = db_fail(ar, err, src, "cannot read the archive");
    }
    sqlite3_finalize(st);
    st = NULL;
    if (rc != RPL_OK || !gz)
        goto out;
    if (rpl__gz_inflate(ar->ctx, gz, gz_len, &text, &len, &e) != RPL_OK ||
        rpl_log_parse(ar->ctx, &log, text, len, false, &e) != RPL_OK ||
        rpl_log_verify(log, NULL, &rep) != RPL_OK)
        goto out;
    x = rpl__calloc(ar->ctx, 1, sizeof(*x));
    if (!x) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    if (index_log(x, log, &e) != RPL_OK)
        goto out;
    rc = prepare(ar, "DELETE FROM main.game WHERE gid = ?1", &st, false, err);
    if (rc == RPL_OK) {
        sqlite3_bind_int64(st, 1, gid);
        src = sqlite3_step(st);
        if (src != SQLITE_DONE)
            rc = db_fail(ar, err, src, "cannot index the archive again");
        sqlite3_finalize(st);
        st = NULL;
    }
    if (rc == RPL_OK)
        rc = insert_index(ar, T_MAIN, x, gid, &out_gid, err);
    if (rc == RPL_OK)
        rc = prepare(ar,
                     "INSERT INTO main.log (gid, text_len, gz) "
                     "VALUES (?1, ?2, ?3)",
                     &st, false, err);
    if (rc == RPL_OK) {
        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, len);
        sqlite3_bind_blob64(st, 3, gz, gz_len, SQLITE_STATIC);
        src = sqlite3_step(st);
        if (src != SQLITE_DONE)
            rc = db_fail(ar, err, src, "cannot index the archive again");
        sqlite3_finalize(st);
    }
out:
    ix_release(ar->ctx, x);
    rpl__free(ar->ctx, x);
    rpl_log_free(log);
    rpl__free(ar->ctx, text);
    rpl__free(ar->ctx, gz);
    return rc;
}

/* Indexes every stored log of one game kind again (a migration). */
static enum rpl_status
reindex_game(struct rpl_archive *ar, const char *game, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    sqlite3_int64 *gids = NULL;
    size_t n = 0, cap = 0;
    enum rpl_status rc;
    int src;

    rc = prepare(ar, "SELECT gid FROM main.game WHERE game = ?1 ORDER BY gid",
                 &st, false, err);
    if (rc != RPL_OK)
        return rc;
    bind_text(st, 1, game);
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            const size_t grown = cap ? 2 * cap : 64;
            sqlite3_int64 *g =
                rpl__realloc(ar->ctx, gids, grown * sizeof(*gids));

            if (!g) {
                rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                break;
            }
            gids = g;
            cap = grown;
        }
        gids[n++] = sqlite3_column_int64(st, 0);
    }
    if (rc == RPL_OK && src != SQLITE_DONE)
        rc = db_fail(ar, err, src, "cannot read the archive");
    sqlite3_finalize(st);
    for (size_t i = 0; rc == RPL_OK && i < n; i++)
        rc = reindex_one(ar, gids[i], err);
    rpl__free(ar->ctx, gids);
    return rc;
}

/* ---------------------------------------------------------------- add */

/* Whether a is a prefix of b (a shorter), as texts of whole lines. */
static bool
is_prefix(const char *a, size_t a_len, const char *b, size_t b_len)
{
    return a_len < b_len && memcmp(a, b, a_len) == 0;
}

/* Compares the log with the other stored logs of its game: sets
 * *replace to the gid of an earlier log it extends, or *superseded when
 * a stored log extends it. */
static enum rpl_status
find_relatives(struct rpl_archive *ar, const struct rpl_log *log,
               sqlite3_int64 *replace, bool *superseded, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    enum rpl_status rc;
    int src;

    *replace = 0;
    *superseded = false;
    rc = stmt(ar, S_SAME_ID, &st, err);
    if (rc != RPL_OK)
        return rc;
    bind_text(st, 1, log->rep.id);
    bind_text(st, 2, log->rep.game);
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        const void *gz = sqlite3_column_blob(st, 1);
        const size_t gz_len = (size_t)sqlite3_column_bytes(st, 1);
        char *text = NULL;
        size_t text_len = 0;

        rc = rpl__gz_inflate(ar->ctx, gz, gz_len, &text, &text_len, err);
        if (rc != RPL_OK)
            break;
        if (is_prefix(text, text_len, log->text, log->len))
            *replace = sqlite3_column_int64(st, 0);
        else if (is_prefix(log->text, log->len, text, text_len))
            *superseded = true;
        rpl__free(ar->ctx, text);
    }
    if (rc == RPL_OK && src != SQLITE_DONE)
        rc = db_fail(ar, err, src, "cannot read the archive");
    done(st);
    return rc;
}

/* The body of add, inside its savepoint. */
static enum rpl_status
add_rows(struct rpl_archive *ar, struct rpl_log *log, const struct ix *x,
         const uint8_t *gz, size_t gz_len, enum rpl_archive_added *what,
         struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    sqlite3_int64 gid = 0, replace = 0;
    bool superseded = false;
    enum rpl_status rc;
    int src;

    rc = stmt(ar, S_FIND, &st, err);
    if (rc != RPL_OK)
        return rc;
    bind_text(st, 1, x->id);
    sqlite3_bind_blob(st, 2, x->seal, sizeof(x->seal), SQLITE_STATIC);
    src = sqlite3_step(st);
    done(st);
    if (src == SQLITE_ROW) {
        *what = RPL_ARCHIVE_PRESENT;
        return RPL_OK;
    }
    if (src != SQLITE_DONE)
        return db_fail(ar, err, src, "cannot read the archive");
    rc = find_relatives(ar, log, &replace, &superseded, err);
    if (rc != RPL_OK)
        return rc;
    if (superseded) {
        *what = RPL_ARCHIVE_SUPERSEDED;
        return RPL_OK;
    }
    if (replace) {
        rc = stmt(ar, S_DELETE, &st, err);
        if (rc != RPL_OK)
            return rc;
        sqlite3_bind_int64(st, 1, replace);
        rc = step_done(ar, st, "cannot replace the earlier log", err);
        if (rc != RPL_OK)
            return rc;
    }
    rc = insert_index(ar, T_MAIN, x, 0, &gid, err);
    if (rc == RPL_OK)
        rc = ins_stmt(ar, T_MAIN, S_INS_LOG, &st, err);
    if (rc == RPL_OK) {
        sqlite3_bind_int64(st, 1, gid);
        bind_uint(st, 2, log->len);
        sqlite3_bind_blob64(st, 3, gz, gz_len, SQLITE_STATIC);
        rc = step_done(ar, st, "cannot store the log", err);
    }
    if (rc == RPL_OK)
        *what = replace ? RPL_ARCHIVE_REPLACED : RPL_ARCHIVE_ADDED;
    return rc;
}

/* The line of the last seal, 0 when none. */
static size_t
last_seal(const struct rpl_log *log)
{
    for (size_t no = log->nlines; no > log->header_end; no--) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        if (len > 5 && memcmp(text, "seal ", 5) == 0)
            return no;
    }
    return 0;
}

enum rpl_status
rpl_archive_add(struct rpl_archive *ar, struct rpl_log *log,
                enum rpl_archive_added *what, struct rpl_error *err)
{
    struct ix *x = NULL;
    uint8_t *gz = NULL;
    size_t gz_len = 0;
    enum rpl_archive_added result = RPL_ARCHIVE_PRESENT;
    enum rpl_status rc;
    bool has_tx = false, has_savepoint = false;
    size_t seal;

    rpl__err_clear(err);
    rc = need_writable(ar, err);
    if (rc != RPL_OK)
        return rc;
    if (!log->is_verified || log->rep.error.code != RPL_OK)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log must verify before it is archived");
    seal = last_seal(log);
    if (seal != log->nlines)
        return rpl__err(err, RPL_E_INCOMPLETE, seal + 1,
                        seal ? "lines %zu-%zu are not covered by a seal: the "
                               "archive keeps sealed logs"
                             : "no seal in the log (lines %zu-%zu): the "
                               "archive keeps sealed logs",
                        seal + 1, log->nlines);
    x = rpl__calloc(ar->ctx, 1, sizeof(*x));
    if (!x)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    rc = index_log(x, log, err);
    if (rc == RPL_OK)
        rc = rpl__gz_deflate(ar->ctx, log->text, log->len, &gz, &gz_len, err);
    if (rc == RPL_OK && gz_len > RPL_MAX_COMPRESSED)
        rc = rpl__err(err, RPL_E_LIMIT, 0,
                      "the compressed log is over %u bytes "
                      "(RPL_MAX_COMPRESSED)",
                      RPL_MAX_COMPRESSED);
    if (rc != RPL_OK)
        goto out;
    if (!ar->in_batch) {
        rc = db_exec(ar, "BEGIN IMMEDIATE", "cannot lock the archive", err);
        if (rc != RPL_OK)
            goto out;
        has_tx = true;
    }
    rc = db_exec(ar, "SAVEPOINT rpl_add", "cannot add to the archive", err);
    if (rc != RPL_OK)
        goto out;
    has_savepoint = true;
    rc = add_rows(ar, log, x, gz, gz_len, &result, err);
    if (rc != RPL_OK)
        goto out;
    rc = db_exec(ar, "RELEASE rpl_add", "cannot add to the archive", err);
    if (rc != RPL_OK)
        goto out;
    has_savepoint = false;
    if (has_tx) {
        rc = db_exec(ar, "COMMIT", "cannot commit", err);
        if (rc == RPL_OK)
            has_tx = false;
    }
out:
    if (has_savepoint) {
        sqlite3_exec(ar->db, "ROLLBACK TO rpl_add", NULL, NULL, NULL);
        sqlite3_exec(ar->db, "RELEASE rpl_add", NULL, NULL, NULL);
    }
    if (has_tx && sqlite3_get_autocommit(ar->db) == 0)
        sqlite3_exec(ar->db, "ROLLBACK", NULL, NULL, NULL);
    if (ar->in_batch && sqlite3_get_autocommit(ar->db) != 0) {
        /* SQLite rolled the whole batch back (e.g. a full disk). */
        ar->in_batch = false;
    }
    rpl__free(ar->ctx, gz);
    ix_release(ar->ctx, x);
    rpl__free(ar->ctx, x);
    if (rc == RPL_OK && what)
        *what = result;
    return rc;
}

/* ------------------------------------------------------------- filter */

static bool
is_hex_prefix(const char *s, size_t max)
{
    const size_t n = strlen(s);

    if (n == 0 || n > max)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, a real date. */
static bool
is_date(const char *s)
{
    char full[24];
    struct rpl__tok t;
    const size_t n = strlen(s);

    if (n == 10)
        snprintf(full, sizeof(full), "%sT00:00:00Z", s);
    else if (n == 20)
        snprintf(full, sizeof(full), "%s", s);
    else
        return false;
    t.p = full;
    t.n = 20;
    return rpl__tok_time(&t);
}

static enum rpl_status
check_filter(const struct rpl_archive_filter *f, struct rpl_error *err)
{
    if (!f)
        return RPL_OK;
    if (f->id && !is_hex_prefix(f->id, 32))
        return rpl__err(err, RPL_E_ARG, 0,
                        "id: expected 1 to 32 lowercase hex digits, got "
                        "\"%.40s\"",
                        f->id);
    if (f->since && !is_date(f->since))
        return rpl__err(err, RPL_E_ARG, 0,
                        "since: expected YYYY-MM-DD or "
                        "YYYY-MM-DDTHH:MM:SSZ, got \"%.40s\"",
                        f->since);
    if (f->until && !is_date(f->until))
        return rpl__err(err, RPL_E_ARG, 0,
                        "until: expected YYYY-MM-DD or "
                        "YYYY-MM-DDTHH:MM:SSZ, got \"%.40s\"",
                        f->until);
    return RPL_OK;
}

/* The side a filter asks for: Shadows over Camelot's loyalty cards name
 * its sides, "loyal" the good side and "traitor" the evil one, in its
 * games only (*is_soc). */
static const char *
filter_side(const char *side, bool *is_soc)
{
    *is_soc = false;
    if (side && strcmp(side, "loyal") == 0) {
        *is_soc = true;
        return "good";
    }
    if (side && strcmp(side, "traitor") == 0) {
        *is_soc = true;
        return "evil";
    }
    return side;
}

/* The WHERE clause of a filter over `main.game g`, with named
 * parameters bound by bind_filter(). */
static void
filter_where(struct rpl__buf *b, const struct rpl_archive_filter *f)
{
    rpl__buf_puts(b, " WHERE 1");
    if (!f)
        return;
    if (f->game)
        rpl__buf_puts(b, " AND g.game = :game");
    if (f->id)
        rpl__buf_puts(b, " AND g.id GLOB :id");
    if (f->winner)
        rpl__buf_puts(b, " AND g.winner = :winner");
    if (f->reason)
        rpl__buf_puts(b, " AND g.reason = :reason");
    if (f->players)
        rpl__buf_puts(b, " AND g.players = :players");
    if (f->since)
        rpl__buf_puts(b, " AND g.created >= :since");
    if (f->until)
        rpl__buf_puts(b, " AND g.created < :until");
    if (f->side) {
        bool is_soc;

        filter_side(f->side, &is_soc);
        if (is_soc)
            rpl__buf_puts(b, " AND g.game = 'soc'");
    }
    if (f->player || f->role || f->side) {
        /* Not correlated: the seat index finds the games once. */
        rpl__buf_puts(b, " AND g.gid IN (SELECT s.gid FROM main.seat s "
                         "WHERE 1");
        if (f->player)
            rpl__buf_puts(b, " AND s.name = :player");
        if (f->role)
            rpl__buf_puts(b, " AND s.role = :role");
        if (f->side)
            rpl__buf_puts(b, " AND s.side = :side");
        rpl__buf_puts(b, ")");
    }
}

static void
bind_named(sqlite3_stmt *st, const char *name, const char *value)
{
    const int i = sqlite3_bind_parameter_index(st, name);

    if (i > 0 && value)
        sqlite3_bind_text(st, i, value, -1, SQLITE_TRANSIENT);
}

static void
bind_filter(sqlite3_stmt *st, const struct rpl_archive_filter *f)
{
    char glob[40];
    bool is_soc;
    int i;

    if (!f)
        return;
    bind_named(st, ":game", f->game);
    if (f->id) {
        snprintf(glob, sizeof(glob), "%s*", f->id);
        bind_named(st, ":id", glob);
    }
    bind_named(st, ":winner", f->winner);
    bind_named(st, ":reason", f->reason);
    i = sqlite3_bind_parameter_index(st, ":players");
    if (i > 0)
        bind_uint(st, i, f->players);
    bind_named(st, ":since", f->since);
    bind_named(st, ":until", f->until);
    bind_named(st, ":player", f->player);
    bind_named(st, ":role", f->role);
    bind_named(st, ":side", filter_side(f->side, &is_soc));
}

/* Prepares head || filter || tail with the filter bound. */
static enum rpl_status
prepare_filtered(struct rpl_archive *ar, const char *head,
                 const struct rpl_archive_filter *f, const char *tail,
                 sqlite3_stmt **out, struct rpl_error *err)
{
    struct rpl__buf b;
    char *sql = NULL;
    enum rpl_status rc;

    rpl__buf_init(&b, ar->ctx);
    rpl__buf_puts(&b, head);
    filter_where(&b, f);
    rpl__buf_puts(&b, tail);
    rc = rpl__buf_take(&b, &sql, err);
    if (rc != RPL_OK)
        return rc;
    rc = prepare(ar, sql, out, false, err);
    rpl_free(ar->ctx, sql);
    if (rc == RPL_OK)
        bind_filter(*out, f);
    return rc;
}

/* -------------------------------------------------------------- query */

static enum rpl_progress
progress_of(const char *s)
{
    if (strcmp(s, "complete") == 0)
        return RPL_PROGRESS_COMPLETE;
    if (strcmp(s, "finished") == 0)
        return RPL_PROGRESS_FINISHED;
    return RPL_PROGRESS_IN_PROGRESS;
}

/* The strings of a game's seats and quests, copied out of their
 * statements (SQLite's text lives until the next step). */
struct game_strings {
    struct rpl__buf b;
    size_t seat[NSEATS][4];      /* name, key, role, side; SIZE_MAX: NULL */
    size_t quest[MAX_QUESTS][3]; /* team, result, failed */
};

static size_t
keep(struct rpl__buf *b, const char *s)
{
    const size_t off = b->len;

    if (!s)
        return SIZE_MAX;
    rpl__buf_add(b, s, strlen(s) + 1);
    return off;
}

static const char *
kept(const struct rpl__buf *b, size_t off)
{
    return off == SIZE_MAX ? NULL : b->p + off;
}

/* Fills g's seats, quests and assassination for game gid. */
static enum rpl_status
game_details(struct rpl_archive *ar, sqlite3_int64 gid,
             struct rpl_archive_game *g, struct game_strings *gs,
             struct rpl_archive_seat *seats, struct rpl_archive_quest *quests,
             struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    size_t nseats = 0, nquests = 0;
    enum rpl_status rc;
    int src;

    gs->b.len = 0;
    gs->b.failed = false;
    memset(seats, 0, sizeof(*seats) * NSEATS);
    memset(quests, 0, sizeof(*quests) * MAX_QUESTS);
    rc = stmt(ar, S_SEATS_OF, &st, err);
    if (rc != RPL_OK)
        return rc;
    sqlite3_bind_int64(st, 1, gid);
    while ((src = sqlite3_step(st)) == SQLITE_ROW && nseats < NSEATS) {
        for (int c = 0; c < 4; c++)
            gs->seat[nseats][c] = keep(&gs->b, col_text_or_null(st, c + 1));
        nseats++;
    }
    done(st);
    if (src != SQLITE_ROW && src != SQLITE_DONE)
        return db_fail(ar, err, src, "cannot read the seats");
    rc = stmt(ar, S_QUESTS_OF, &st, err);
    if (rc != RPL_OK)
        return rc;
    sqlite3_bind_int64(st, 1, gid);
    while ((src = sqlite3_step(st)) == SQLITE_ROW && nquests < MAX_QUESTS) {
        struct rpl_archive_quest *q = &quests[nquests];
        const bool is_opened = sqlite3_column_int64(st, 6) > 0;

        q->round = (unsigned)col_uint(st, 0);
        q->slot = (unsigned)col_uint(st, 1);
        q->leader = (unsigned)col_uint(st, 2);
        q->fails = (unsigned)col_uint(st, 3);
        gs->quest[nquests][0] = keep(&gs->b, col_text(st, 4));
        gs->quest[nquests][1] = keep(&gs->b, col_text(st, 5));
        gs->quest[nquests][2] =
            is_opened ? keep(&gs->b, col_text(st, 7)) : SIZE_MAX;
        nquests++;
    }
    done(st);
    if (src != SQLITE_ROW && src != SQLITE_DONE)
        return db_fail(ar, err, src, "cannot read the quests");
    rc = stmt(ar, S_ASSN_OF, &st, err);
    if (rc != RPL_OK)
        return rc;
    sqlite3_bind_int64(st, 1, gid);
    src = sqlite3_step(st);
    g->assassin = 0;
    g->target = 0;
    if (src == SQLITE_ROW) {
        g->assassin = (unsigned)col_uint(st, 0);
        g->target = (unsigned)col_uint(st, 1);
    }
    done(st);
    if (src != SQLITE_ROW && src != SQLITE_DONE)
        return db_fail(ar, err, src, "cannot read the assassination");
    if (gs->b.failed)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    for (size_t k = 0; k < nseats; k++) {
        seats[k].name = kept(&gs->b, gs->seat[k][0]);
        seats[k].key = kept(&gs->b, gs->seat[k][1]);
        seats[k].role = kept(&gs->b, gs->seat[k][2]);
        seats[k].side = kept(&gs->b, gs->seat[k][3]);
        if (!seats[k].name)
            seats[k].name = "";
    }
    for (size_t i = 0; i < nquests; i++) {
        quests[i].team = kept(&gs->b, gs->quest[i][0]);
        quests[i].result = kept(&gs->b, gs->quest[i][1]);
        quests[i].failed = kept(&gs->b, gs->quest[i][2]);
    }
    /* A damaged index may hold fewer seats than players. */
    if (g->players > nseats)
        g->players = nseats;
    g->seats = seats;
    g->nquests = nquests;
    g->quests = quests;
    return RPL_OK;
}

enum rpl_status
rpl_archive_query(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  bool (*each)(void *ud, const struct rpl_archive_game *g),
                  void *ud, struct rpl_error *err)
{
    static const char head[] =
        "SELECT g.gid, g.game, g.id, lower(hex(g.seal)), g.created, g.rules, "
        "g.dealer, g.winner, g.reason, g.progress, g.imported, g.players, "
        "g.proposals, g.lines, g.source, g.source_id FROM main.game g";
    struct rpl_archive_seat *seats = NULL;
    struct rpl_archive_quest *quests = NULL;
    struct game_strings *gs = NULL;
    sqlite3_stmt *st = NULL;
    enum rpl_status rc;
    int src;

    rpl__err_clear(err);
    rc = check_filter(f, err);
    if (rc != RPL_OK)
        return rc;
    seats = rpl__calloc(ar->ctx, NSEATS, sizeof(*seats));
    quests = rpl__calloc(ar->ctx, MAX_QUESTS, sizeof(*quests));
    gs = rpl__calloc(ar->ctx, 1, sizeof(*gs));
    if (!seats || !quests || !gs) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    rpl__buf_init(&gs->b, ar->ctx);
    rc = prepare_filtered(ar, head, f, " ORDER BY g.gid", &st, err);
    if (rc != RPL_OK)
        goto out;
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        struct rpl_archive_game g;

        memset(&g, 0, sizeof(g));
        g.game = col_text(st, 1);
        g.id = col_text(st, 2);
        g.seal = col_text(st, 3);
        g.created = col_text_or_null(st, 4);
        g.rules = col_text(st, 5);
        g.dealer = col_text(st, 6);
        g.winner = col_text_or_null(st, 7);
        g.reason = col_text_or_null(st, 8);
        g.progress = progress_of(col_text(st, 9));
        g.is_imported = sqlite3_column_int(st, 10) != 0;
        g.players = col_uint(st, 11);
        g.proposals = col_uint(st, 12);
        g.lines = col_uint(st, 13);
        g.source = col_text_or_null(st, 14);
        g.source_id = col_text_or_null(st, 15);
        rc = game_details(ar, sqlite3_column_int64(st, 0), &g, gs, seats,
                          quests, err);
        if (rc != RPL_OK || !each(ud, &g))
            break;
    }
    if (rc == RPL_OK && src != SQLITE_ROW && src != SQLITE_DONE)
        rc = db_fail(ar, err, src, "cannot read the archive");
out:
    sqlite3_finalize(st);
    if (gs)
        rpl__buf_release(&gs->b);
    rpl__free(ar->ctx, gs);
    rpl__free(ar->ctx, quests);
    rpl__free(ar->ctx, seats);
    return rc;
}

/* ------------------------------------------------------------- export */

enum rpl_status
rpl_archive_export(struct rpl_archive *ar, const char *id, const char *seal,
                   const char *path, bool force, struct rpl_error *err)
{
    uint8_t hash[RPL__HASH];
    const struct rpl__tok t = {seal, strlen(seal)};
    sqlite3_stmt *st = NULL;
    enum rpl_status rc;
    int src;

    rpl__err_clear(err);
    if (strlen(id) != 32 || !is_hex_prefix(id, 32))
        return rpl__err(err, RPL_E_ARG, 0,
                        "a game id is 32 lowercase hex digits");
    if (!rpl__tok_hex(&t, hash, sizeof(hash)))
        return rpl__err(err, RPL_E_ARG, 0,
                        "a seal hash is 64 lowercase hex digits");
    rc = stmt(ar, S_EXPORT, &st, err);
    if (rc != RPL_OK)
        return rc;
    bind_text(st, 1, id);
    sqlite3_bind_blob(st, 2, hash, sizeof(hash), SQLITE_STATIC);
    src = sqlite3_step(st);
    if (src == SQLITE_ROW)
        rc = rpl__file_write_atomic(path, sqlite3_column_blob(st, 0),
                                    (size_t)sqlite3_column_bytes(st, 0), 0644,
                                    force, err);
    else if (src == SQLITE_DONE)
        rc = rpl__err(err, RPL_E_ARG, 0,
                      "no log of game %s with seal %.16s "
                      "in the archive",
                      id, seal);
    else
        rc = db_fail(ar, err, src, "cannot read the archive");
    done(st);
    return rc;
}

/* -------------------------------------------------------------- stats */

static void
json_str(struct rpl__buf *b, const char *s)
{
    rpl__buf_add(b, "\"", 1);
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\') {
            rpl__buf_add(b, "\\", 1);
            rpl__buf_add(b, s, 1);
        } else if (c < 0x20) {
            rpl__buf_printf(b, "\\u%04x", c);
        } else {
            rpl__buf_add(b, s, 1);
        }
    }
    rpl__buf_add(b, "\"", 1);
}

/* num / den as a decimal with four places, rounded half up; null when
 * den is 0.  Integers only: the text is the same everywhere. */
static void
json_rate(struct rpl__buf *b, uint64_t num, uint64_t den)
{
    uint64_t r;

    if (den == 0 || num > den) {
        rpl__buf_puts(b, "null");
        return;
    }
    r = (num * 10000u + den / 2u) / den;
    rpl__buf_printf(b, "%u.%04u", (unsigned)(r / 10000u),
                    (unsigned)(r % 10000u));
}

static uint64_t
col_u64(sqlite3_stmt *st, int i)
{
    const sqlite3_int64 v = sqlite3_column_int64(st, i);

    return v < 0 ? 0 : (uint64_t)v;
}

/* The statistics queries, after "WITH sel AS (SELECT g.gid FROM
 * main.game g WHERE <filter>". */
enum {
    Q_TOTALS,
    Q_REASONS,
    Q_PLAYERS,
    Q_ROLE_SETS,
    Q_ROLES,
    Q_RECORDS,
    /* Shadows over Camelot, the "soc" object. */
    Q_SOC_TOTALS,
    Q_SOC_ACCUSATIONS,
    Q_SOC_REASONS,
    Q_SOC_PLAYERS,
    Q_SOC_QUESTS,
    NQ
};

static const char *const stats_sql[NQ] = {
    ") SELECT count(*), coalesce(sum(g.progress = 'in_progress'), 0), "
    "coalesce(sum(g.progress = 'finished'), 0), "
    "coalesce(sum(g.progress = 'complete'), 0), "
    "coalesce(sum(g.imported), 0), coalesce(sum(g.winner IN ('good', "
    "'knights')), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), "
    "coalesce(sum(g.winner = 'aborted'), 0), "
    "coalesce(sum(g.reason IN ('assassination', 'missed')), 0), "
    "coalesce(sum(g.reason = 'assassination'), 0), "
    "coalesce(sum(g.reason IS NOT NULL), 0) "
    "FROM main.game g JOIN sel USING (gid)",

    ") SELECT g.winner, g.reason, count(*) FROM main.game g "
    "JOIN sel USING (gid) WHERE g.reason IS NOT NULL "
    "GROUP BY g.winner, g.reason ORDER BY count(*) DESC, g.winner, g.reason",

    ") SELECT g.players, count(*), coalesce(sum(g.winner IN ('good', "
    "'knights')), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), "
    "coalesce(sum(g.reason IN ('assassination', 'missed')), 0), "
    "coalesce(sum(g.reason = 'assassination'), 0) "
    "FROM main.game g JOIN sel USING (gid) GROUP BY g.players "
    "ORDER BY g.players",

    ") SELECT r.value, g.players, count(*), "
    "coalesce(sum(g.winner IN ('good', 'knights')), 0), "
    "coalesce(sum(g.winner = 'evil'), 0) "
    "FROM main.game g JOIN sel USING (gid) "
    "JOIN main.rule r ON r.gid = g.gid AND r.key = 'roles' "
    "GROUP BY r.value, g.players ORDER BY g.players, count(*) DESC, r.value",

    ") SELECT s.role, count(*), coalesce(sum(s.won), 0), count(s.won) "
    "FROM main.seat_result s JOIN sel USING (gid) "
    "WHERE s.role IS NOT NULL GROUP BY s.role ORDER BY count(*) DESC, s.role",

    ") SELECT s.name, count(*), count(s.side), coalesce(sum(s.won), 0), "
    "count(s.won), coalesce(sum(s.side = 'good'), 0), "
    "coalesce(sum(s.side = 'good' AND s.won), 0), "
    "coalesce(sum(s.side = 'evil'), 0), "
    "coalesce(sum(s.side = 'evil' AND s.won), 0) "
    "FROM main.seat_result s JOIN sel USING (gid) "
    "GROUP BY s.name ORDER BY count(*) DESC, s.name",

    ") SELECT count(*), coalesce(sum(g.winner = 'knights'), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), "
    "coalesce(sum(g.winner = 'aborted'), 0), "
    "coalesce(sum(g.reason IS NOT NULL), 0), "
    "coalesce(sum(x.traitor > 0), 0), coalesce(sum(x.traitor = 0), 0), "
    "coalesce(sum(x.traitor IS NULL), 0), "
    "coalesce(sum(x.revealed = 'accusation'), 0), "
    "coalesce(sum(x.revealed = 'fate'), 0), "
    "coalesce(sum(x.revealed = 'last'), 0), "
    "coalesce(sum(x.revealed = 'flip'), 0), "
    "coalesce(sum(x.revealed = 'never'), 0) "
    "FROM main.game g JOIN sel USING (gid) "
    "JOIN main.soc_game x ON x.gid = g.gid",

    ") SELECT count(*), coalesce(sum(a.shown = 'traitor'), 0), "
    "coalesce(sum(a.shown = 'loyal'), 0) "
    "FROM main.soc_accusation a JOIN sel USING (gid)",

    ") SELECT g.winner, g.reason, count(*) FROM main.game g "
    "JOIN sel USING (gid) WHERE g.game = 'soc' AND g.reason IS NOT NULL "
    "GROUP BY g.winner, g.reason ORDER BY count(*) DESC, g.winner, g.reason",

    ") SELECT g.players, count(*), coalesce(sum(g.winner = 'knights'), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), coalesce(sum(x.traitor > 0), 0) "
    "FROM main.game g JOIN sel USING (gid) "
    "JOIN main.soc_game x ON x.gid = g.gid GROUP BY g.players "
    "ORDER BY g.players",

    ") SELECT q.quest, coalesce(sum(q.result = 'won'), 0), "
    "coalesce(sum(q.result = 'lost'), 0) "
    "FROM main.soc_quest q JOIN sel USING (gid) GROUP BY q.quest "
    "ORDER BY count(*) DESC, q.quest",
};

/* Appends the rows of one statistics query to b. */
static enum rpl_status
stats_rows(struct rpl_archive *ar, sqlite3_stmt *st, int q, struct rpl__buf *b,
           uint64_t ended, struct rpl_error *err)
{
    static const char *const array_key[NQ] = {
        "", "reasons", "by_players", "by_roles",   "roles",  "records",
        "", "",        "reasons",    "by_players", "quests",
    };
    const bool is_array = array_key[q][0] != '\0';
    bool first = true;
    int src;

    if (is_array)
        rpl__buf_printf(b, ",\"%s\":[", array_key[q]);
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        if (is_array && !first)
            rpl__buf_add(b, ",", 1);
        first = false;
        switch (q) {
        case Q_TOTALS: {
            const uint64_t good = col_u64(st, 5), evil = col_u64(st, 6);
            const uint64_t tries = col_u64(st, 8), hits = col_u64(st, 9);

            rpl__buf_printf(
                b,
                "{\"games\":%llu,\"in_progress\":%llu,\"finished\":%llu,"
                "\"complete\":%llu,\"imported\":%llu,\"good\":%llu,"
                "\"evil\":%llu,\"aborted\":%llu,\"evil_rate\":",
                (unsigned long long)col_u64(st, 0),
                (unsigned long long)col_u64(st, 1),
                (unsigned long long)col_u64(st, 2),
                (unsigned long long)col_u64(st, 3),
                (unsigned long long)col_u64(st, 4), (unsigned long long)good,
                (unsigned long long)evil, (unsigned long long)col_u64(st, 7));
            json_rate(b, evil, good + evil);
            rpl__buf_printf(b,
                            ",\"assassinations\":%llu,\"hits\":%llu,"
                            "\"hit_rate\":",
                            (unsigned long long)tries,
                            (unsigned long long)hits);
            json_rate(b, hits, tries);
            break;
        }
        case Q_REASONS:
        case Q_SOC_REASONS: /* the same row for both games */
            rpl__buf_puts(b, "{\"winner\":");
            json_str(b, col_text(st, 0));
            rpl__buf_puts(b, ",\"reason\":");
            json_str(b, col_text(st, 1));
            rpl__buf_printf(b, ",\"games\":%llu,\"share\":",
                            (unsigned long long)col_u64(st, 2));
            json_rate(b, col_u64(st, 2), ended);
            rpl__buf_add(b, "}", 1);
            break;
        case Q_PLAYERS:
            rpl__buf_printf(b,
                            "{\"players\":%llu,\"games\":%llu,\"good\":%llu,"
                            "\"evil\":%llu,\"evil_rate\":",
                            (unsigned long long)col_u64(st, 0),
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2),
                            (unsigned long long)col_u64(st, 3));
            json_rate(b, col_u64(st, 3), col_u64(st, 2) + col_u64(st, 3));
            rpl__buf_printf(b,
                            ",\"assassinations\":%llu,\"hits\":%llu,"
                            "\"hit_rate\":",
                            (unsigned long long)col_u64(st, 4),
                            (unsigned long long)col_u64(st, 5));
            json_rate(b, col_u64(st, 5), col_u64(st, 4));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_ROLE_SETS:
            rpl__buf_puts(b, "{\"roles\":");
            json_str(b, col_text(st, 0));
            rpl__buf_printf(b,
                            ",\"players\":%llu,\"games\":%llu,\"good\":%llu,"
                            "\"evil\":%llu,\"evil_rate\":",
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2),
                            (unsigned long long)col_u64(st, 3),
                            (unsigned long long)col_u64(st, 4));
            json_rate(b, col_u64(st, 4), col_u64(st, 3) + col_u64(st, 4));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_ROLES:
            rpl__buf_puts(b, "{\"role\":");
            json_str(b, col_text(st, 0));
            rpl__buf_printf(b, ",\"seats\":%llu,\"wins\":%llu,\"win_rate\":",
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2));
            json_rate(b, col_u64(st, 2), col_u64(st, 3));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_RECORDS: {
            const uint64_t wins = col_u64(st, 3), decided = col_u64(st, 4);

            rpl__buf_puts(b, "{\"name\":");
            json_str(b, col_text(st, 0));
            rpl__buf_printf(b,
                            ",\"games\":%llu,\"revealed\":%llu,\"wins\":%llu,"
                            "\"losses\":%llu,\"win_rate\":",
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2),
                            (unsigned long long)wins,
                            (unsigned long long)(decided - wins));
            json_rate(b, wins, decided);
            rpl__buf_printf(b,
                            ",\"good\":%llu,\"good_wins\":%llu,"
                            "\"evil\":%llu,\"evil_wins\":%llu}",
                            (unsigned long long)col_u64(st, 5),
                            (unsigned long long)col_u64(st, 6),
                            (unsigned long long)col_u64(st, 7),
                            (unsigned long long)col_u64(st, 8));
            break;
        }
        case Q_SOC_TOTALS: {
            const uint64_t knights = col_u64(st, 1), evil = col_u64(st, 2);

            rpl__buf_printf(
                b,
                ",\"soc\":{\"games\":%llu,\"knights\":%llu,"
                "\"evil\":%llu,\"aborted\":%llu,"
                "\"knights_rate\":",
                (unsigned long long)col_u64(st, 0), (unsigned long long)knights,
                (unsigned long long)evil, (unsigned long long)col_u64(st, 3));
            json_rate(b, knights, knights + evil);
            rpl__buf_printf(
                b,
                ",\"traitor\":{\"dealt\":%llu,\"none\":%llu,"
                "\"unknown\":%llu,\"accusation\":%llu,\"fate\":%llu,"
                "\"last\":%llu,\"flip\":%llu,\"never\":%llu}",
                (unsigned long long)col_u64(st, 5),
                (unsigned long long)col_u64(st, 6),
                (unsigned long long)col_u64(st, 7),
                (unsigned long long)col_u64(st, 8),
                (unsigned long long)col_u64(st, 9),
                (unsigned long long)col_u64(st, 10),
                (unsigned long long)col_u64(st, 11),
                (unsigned long long)col_u64(st, 12));
            break;
        }
        case Q_SOC_ACCUSATIONS:
            rpl__buf_printf(b,
                            ",\"accusations\":{\"made\":%llu,\"right\":%llu,"
                            "\"wrong\":%llu,\"right_rate\":",
                            (unsigned long long)col_u64(st, 0),
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2));
            json_rate(b, col_u64(st, 1), col_u64(st, 0));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_SOC_PLAYERS:
            rpl__buf_printf(b,
                            "{\"players\":%llu,\"games\":%llu,"
                            "\"knights\":%llu,\"evil\":%llu,"
                            "\"traitor_dealt\":%llu,\"knights_rate\":",
                            (unsigned long long)col_u64(st, 0),
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2),
                            (unsigned long long)col_u64(st, 3),
                            (unsigned long long)col_u64(st, 4));
            json_rate(b, col_u64(st, 2), col_u64(st, 2) + col_u64(st, 3));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_SOC_QUESTS:
            rpl__buf_puts(b, "{\"quest\":");
            json_str(b, col_text(st, 0));
            rpl__buf_printf(b, ",\"won\":%llu,\"lost\":%llu,\"won_rate\":",
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2));
            json_rate(b, col_u64(st, 1), col_u64(st, 1) + col_u64(st, 2));
            rpl__buf_add(b, "}", 1);
            break;
        default:
            break;
        }
    }
    if (is_array)
        rpl__buf_add(b, "]", 1);
    if (q == Q_SOC_QUESTS)
        rpl__buf_add(b, "}", 1); /* the end of "soc" */
    if (src != SQLITE_DONE)
        return db_fail(ar, err, src, "cannot compute the statistics");
    return RPL_OK;
}

enum rpl_status
rpl_archive_stats(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  char **json, struct rpl_error *err)
{
    static const char head[] = "WITH sel AS (SELECT g.gid FROM main.game g";
    struct rpl__buf b;
    sqlite3_stmt *st = NULL;
    uint64_t ended = 0;
    enum rpl_status rc;

    rpl__err_clear(err);
    *json = NULL;
    rc = check_filter(f, err);
    if (rc != RPL_OK)
        return rc;
    rpl__buf_init(&b, ar->ctx);
    /* One read transaction: every figure counts the same games. */
    rc = ar->in_batch ? RPL_OK
                      : db_exec(ar, "BEGIN", "cannot read the archive", err);
    for (int q = 0; rc == RPL_OK && q < NQ; q++) {
        rc = prepare_filtered(ar, head, f, stats_sql[q], &st, err);
        if (rc != RPL_OK)
            break;
        if (q == Q_TOTALS || q == Q_SOC_TOTALS) {
            /* The reasons' shares need the count of ended games first. */
            if (sqlite3_step(st) == SQLITE_ROW)
                ended = col_u64(st, q == Q_TOTALS ? 10 : 4);
            sqlite3_reset(st);
        }
        rc = stats_rows(ar, st, q, &b, ended, err);
        sqlite3_finalize(st);
        st = NULL;
    }
    if (!ar->in_batch)
        sqlite3_exec(ar->db, "COMMIT", NULL, NULL, NULL);
    rpl__buf_add(&b, "}", 1);
    if (rc != RPL_OK) {
        rpl__buf_release(&b);
        return rc;
    }
    return rpl__buf_take(&b, json, err);
}

/* ---------------------------------------------------------------- sql */

/* Pragmas that only read (with an argument that names a table or an
 * index, never one that sets a value). */
static bool
pragma_reads(const char *name, const char *arg)
{
    static const char *const with_arg[] = {
        "table_info",        "table_xinfo",     "index_list",
        "index_info",        "index_xinfo",     "foreign_key_list",
        "foreign_key_check", "integrity_check", "quick_check",
    };
    static const char *const no_arg[] = {
        "user_version",   "schema_version", "application_id",  "page_count",
        "page_size",      "freelist_count", "compile_options", "database_list",
        "collation_list", "function_list",  "pragma_list",     "table_list",
        "encoding",       "journal_mode",
    };

    if (!name)
        return false;
    for (size_t i = 0; i < sizeof(with_arg) / sizeof(with_arg[0]); i++)
        if (strcmp(name, with_arg[i]) == 0)
            return true;
    if (arg)
        return false;
    for (size_t i = 0; i < sizeof(no_arg) / sizeof(no_arg[0]); i++)
        if (strcmp(name, no_arg[i]) == 0)
            return true;
    return false;
}

/* Lets a statement read and nothing else (no write, attach, schema or
 * transaction change). */
static int
authorize_read(void *ud, int action, const char *a3, const char *a4,
               const char *db, const char *trigger)
{
    (void)ud;
    (void)db;
    (void)trigger;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_PRAGMA:
        return pragma_reads(a3, a4) ? SQLITE_OK : SQLITE_DENY;
    default:
        return SQLITE_DENY;
    }
}

static bool
is_blank_sql(const char *s)
{
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ';')
            s++;
        if (s[0] == '-' && s[1] == '-') {
            s = strchr(s, '\n');
            if (!s)
                return true;
        } else if (s[0] == '/' && s[1] == '*') {
            s = strstr(s + 2, "*/");
            if (!s)
                return true;
            s += 2;
        } else {
            return *s == '\0';
        }
    }
}

enum rpl_status
rpl_archive_sql(struct rpl_archive *ar, const char *sql,
                bool (*each)(void *ud, size_t ncols, const char *const *names,
                             const char *const *values,
                             const enum rpl_sql_type *types),
                void *ud, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    const char **names = NULL;
    const char **values = NULL;
    enum rpl_sql_type *types = NULL;
    char **hex = NULL;
    size_t ncols = 0;
    enum rpl_status rc = RPL_OK;
    int src;

    rpl__err_clear(err);
    sqlite3_set_authorizer(ar->db, authorize_read, NULL);
    src = sqlite3_prepare_v2(ar->db, sql, -1, &st, &tail);
    if ((src & 0xff) == SQLITE_AUTH) {
        rc = rpl__err(err, RPL_E_ARG, 0,
                      "the archive is read-only here: only statements that "
                      "read are allowed");
        goto out;
    }
    if (src != SQLITE_OK) {
        rc = rpl__err(err,
                      (src & 0xff) == SQLITE_NOMEM ? RPL_E_NOMEM : RPL_E_ARG, 0,
                      "%s", sqlite3_errmsg(ar->db));
        goto out;
    }
    if (!st) {
        rc = rpl__err(err, RPL_E_ARG, 0, "no SQL statement");
        goto out;
    }
    if (tail && !is_blank_sql(tail)) {
        rc = rpl__err(err, RPL_E_ARG, 0, "one SQL statement at a time");
        goto out;
    }
    if (!sqlite3_stmt_readonly(st)) {
        rc = rpl__err(err, RPL_E_ARG, 0,
                      "the archive is read-only here: only statements that "
                      "read are allowed");
        goto out;
    }
    ncols = (size_t)sqlite3_column_count(st);
    names = rpl__calloc(ar->ctx, ncols + 1, sizeof(*names));
    values = rpl__calloc(ar->ctx, ncols + 1, sizeof(*values));
    types = rpl__calloc(ar->ctx, ncols + 1, sizeof(*types));
    hex = rpl__calloc(ar->ctx, ncols + 1, sizeof(*hex));
    if (!names || !values || !types || !hex) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < ncols; i++) {
        names[i] = sqlite3_column_name(st, (int)i);
        if (!names[i]) {
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            goto out;
        }
    }
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        bool go_on;

        for (size_t i = 0; i < ncols; i++) {
            const int c = (int)i;

            switch (sqlite3_column_type(st, c)) {
            case SQLITE_INTEGER:
                types[i] = RPL_SQL_INTEGER;
                break;
            case SQLITE_FLOAT:
                types[i] = RPL_SQL_REAL;
                break;
            case SQLITE_BLOB:
                types[i] = RPL_SQL_BLOB;
                break;
            case SQLITE_NULL:
                types[i] = RPL_SQL_NULL;
                break;
            default:
                types[i] = RPL_SQL_TEXT;
                break;
            }
            if (types[i] == RPL_SQL_BLOB) {
                const size_t n = (size_t)sqlite3_column_bytes(st, c);

                hex[i] = rpl__alloc(ar->ctx, 2 * n + 1);
                if (!hex[i]) {
                    rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                    break;
                }
                rpl__hex(hex[i], sqlite3_column_blob(st, c), n);
                values[i] = hex[i];
            } else if (types[i] == RPL_SQL_NULL) {
                values[i] = NULL;
            } else {
                values[i] = (const char *)sqlite3_column_text(st, c);
                if (!values[i]) {
                    rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                    break;
                }
            }
        }
        go_on = rc == RPL_OK && each(ud, ncols, names, values, types);
        for (size_t i = 0; i < ncols; i++) {
            rpl__free(ar->ctx, hex[i]);
            hex[i] = NULL;
        }
        if (!go_on)
            break;
    }
    if (rc == RPL_OK && src != SQLITE_ROW && src != SQLITE_DONE)
        rc =
            rpl__err(err, (src & 0xff) == SQLITE_NOMEM ? RPL_E_NOMEM : RPL_E_IO,
                     0, "%s", sqlite3_errmsg(ar->db));
out:
    sqlite3_finalize(st);
    sqlite3_set_authorizer(ar->db, NULL, NULL);
    rpl__free(ar->ctx, hex);
    rpl__free(ar->ctx, types);
    rpl__free(ar->ctx, values);
    rpl__free(ar->ctx, names);
    return rc;
}

/* -------------------------------------------------------------- check */

struct check {
    struct rpl_archive *ar;
    void (*each)(void *ud, const char *id, const struct rpl_error *problem);
    void *ud;
    struct rpl_error first;
    size_t problems;
    sqlite3_stmt *cmp[NINDEX];
    sqlite3_stmt *clear[NINDEX];
};

static void
problem(struct check *c, const char *id, const struct rpl_error *e)
{
    if (c->problems++ == 0) {
        c->first = *e;
        if (id) {
            char msg[RPL_ERRMSG_MAX + 48];
            const int n =
                snprintf(msg, sizeof(msg), "game %.32s: %s", id, e->msg);
            const size_t len = n < 0 ? 0
                               : (size_t)n < RPL_ERRMSG_MAX
                                   ? (size_t)n
                                   : RPL_ERRMSG_MAX - 1;

            memcpy(c->first.msg, msg, len);
            c->first.msg[len] = '\0';
        }
    }
    if (c->each)
        c->each(c->ud, id, e);
}

static void problem_msg(struct check *c, const char *id, enum rpl_status code,
                        const char *fmt, ...) RPL__PRINTF(4, 5);

static void
problem_msg(struct check *c, const char *id, enum rpl_status code,
            const char *fmt, ...)
{
    struct rpl_error e;
    va_list ap;

    e.code = code;
    e.line = 0;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
    va_end(ap);
    problem(c, id, &e);
}

/* The temporary tables the index of each log is rebuilt into, and the
 * statements that compare and clear them. */
static enum rpl_status
check_prepare(struct check *c, struct rpl_error *err)
{
    struct rpl_archive *ar = c->ar;
    char sql[512];
    enum rpl_status rc = RPL_OK;

    for (size_t i = 0; rc == RPL_OK && i < NINDEX; i++) {
        const char *t = index_tables[i];

        snprintf(sql, sizeof(sql),
                 "CREATE TEMP TABLE chk_%s AS SELECT * FROM main.%s "
                 "WHERE 0",
                 t, t);
        rc = db_exec(ar, sql, "cannot check the archive", err);
        snprintf(sql, sizeof(sql),
                 "SELECT (SELECT count(*) FROM (SELECT * FROM main.%s "
                 "WHERE gid = ?1 EXCEPT SELECT * FROM temp.chk_%s WHERE "
                 "gid = ?1)) + (SELECT count(*) FROM (SELECT * FROM "
                 "temp.chk_%s WHERE gid = ?1 EXCEPT SELECT * FROM main.%s "
                 "WHERE gid = ?1))",
                 t, t, t, t);
        if (rc == RPL_OK)
            rc = prepare(ar, sql, &c->cmp[i], true, err);
        snprintf(sql, sizeof(sql), "DELETE FROM temp.chk_%s", t);
        if (rc == RPL_OK)
            rc = prepare(ar, sql, &c->clear[i], true, err);
    }
    return rc;
}

static void
check_release(struct check *c)
{
    struct rpl_archive *ar = c->ar;
    char sql[128];

    for (size_t i = 0; i < NINDEX; i++) {
        sqlite3_finalize(c->cmp[i]);
        sqlite3_finalize(c->clear[i]);
    }
    for (size_t i = 0; i < S_NINS; i++) {
        sqlite3_finalize(ar->ins[T_CHECK][i]);
        ar->ins[T_CHECK][i] = NULL;
    }
    for (size_t i = 0; i < NINDEX; i++) {
        snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS temp.chk_%s",
                 index_tables[i]);
        sqlite3_exec(ar->db, sql, NULL, NULL, NULL);
    }
}

/* One stored log: it verifies, is the game its row names, and its index
 * rebuilt equals the stored one.  Problems of the log go to c; the
 * return value is for failures of the check itself. */
static enum rpl_status
check_game(struct check *c, sqlite3_stmt *row, struct rpl_error *err)
{
    struct rpl_archive *ar = c->ar;
    const sqlite3_int64 gid = sqlite3_column_int64(row, 0);
    const char *id = col_text(row, 1);
    const char *game = col_text(row, 2);
    const void *seal = sqlite3_column_blob(row, 3);
    const size_t seal_len = (size_t)sqlite3_column_bytes(row, 3);
    const size_t text_len = col_uint(row, 4);
    const void *gz = sqlite3_column_blob(row, 5);
    const size_t gz_len = (size_t)sqlite3_column_bytes(row, 5);
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error e;
    struct ix *x = NULL;
    char *text = NULL;
    size_t len = 0;
    sqlite3_int64 out_gid = 0;
    enum rpl_status rc = RPL_OK;

    if (rpl__gz_inflate(ar->ctx, gz, gz_len, &text, &len, &e) != RPL_OK) {
        problem(c, id, &e);
        goto out;
    }
    if (len != text_len)
        problem_msg(c, id, RPL_E_STATE,
                    "the stored text length does not match the log");
    if (rpl_log_parse(ar->ctx, &log, text, len, false, &e) != RPL_OK) {
        problem(c, id, &e);
        goto out;
    }
    if (rpl_log_verify(log, NULL, &rep) != RPL_OK) {
        problem(c, id, &rep.error);
        goto out;
    }
    x = rpl__calloc(ar->ctx, 1, sizeof(*x));
    if (!x) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    if (index_log(x, log, &e) != RPL_OK) {
        problem(c, id, &e);
        goto out;
    }
    if (strcmp(rep.id, id) != 0 || strcmp(rep.game, game) != 0) {
        problem_msg(c, id, RPL_E_STATE, "the stored log is of game %s", rep.id);
        goto out;
    }
    if (seal_len != sizeof(x->seal) || memcmp(seal, x->seal, seal_len) != 0 ||
        last_seal(log) != log->nlines) {
        problem_msg(c, id, RPL_E_STATE,
                    "the stored log does not end with the seal its row "
                    "names");
        goto out;
    }
    rc = insert_index(ar, T_CHECK, x, gid, &out_gid, err);
    for (size_t i = 0; rc == RPL_OK && i < NINDEX; i++) {
        int src;

        sqlite3_bind_int64(c->cmp[i], 1, gid);
        src = sqlite3_step(c->cmp[i]);
        if (src != SQLITE_ROW)
            rc = db_fail(ar, err, src, "cannot check the archive");
        else if (sqlite3_column_int64(c->cmp[i], 0) != 0)
            problem_msg(c, id, RPL_E_STATE,
                        "the index table %s does not match the log",
                        index_tables[i]);
        done(c->cmp[i]);
    }
out:
    for (size_t i = 0; i < NINDEX; i++)
        if (rc == RPL_OK)
            rc = step_done(ar, c->clear[i], "cannot check the archive", err);
    ix_release(ar->ctx, x);
    rpl__free(ar->ctx, x);
    rpl_log_free(log);
    rpl__free(ar->ctx, text);
    return rc;
}

/* SQLite's own checks: each row that is not "ok" is a problem. */
static enum rpl_status
check_pragma(struct check *c, const char *sql, struct rpl_error *err)
{
    sqlite3_stmt *st = NULL;
    enum rpl_status rc;
    int src;

    rc = prepare(c->ar, sql, &st, false, err);
    if (rc != RPL_OK)
        return rc;
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        struct rpl_error e;
        const char *what = col_text(st, 0);

        if (strcmp(what, "ok") == 0)
            continue;
        if (sqlite3_column_count(st) >= 3)
            rpl__err(&e, RPL_E_STATE, 0,
                     "row %lld of table %s refers to a missing %s row",
                     (long long)sqlite3_column_int64(st, 1), what,
                     col_text(st, 2));
        else
            rpl__err(&e, RPL_E_STATE, 0, "database: %s", what);
        problem(c, NULL, &e);
    }
    if (src != SQLITE_DONE)
        rc = db_fail(c->ar, err, src, "cannot check the archive");
    sqlite3_finalize(st);
    return rc;
}

enum rpl_status
rpl_archive_check(struct rpl_archive *ar,
                  void (*each)(void *ud, const char *id,
                               const struct rpl_error *problem),
                  void *ud, size_t *games, struct rpl_error *err)
{
    struct check c;
    sqlite3_stmt *st = NULL;
    size_t n = 0;
    enum rpl_status rc;
    int src = SQLITE_DONE;

    rpl__err_clear(err);
    if (ar->in_batch)
        return rpl__err(err, RPL_E_STATE, 0,
                        "commit or roll back the batch first");
    memset(&c, 0, sizeof(c));
    c.ar = ar;
    c.each = each;
    c.ud = ud;
    /* check writes its temporary tables only (temp.chk_*). */
    if (ar->is_readonly)
        rc = db_exec(ar, "PRAGMA query_only = OFF", "cannot check", err);
    else
        rc = RPL_OK;
    /* One read transaction: the logs and the index of one moment. */
    if (rc == RPL_OK)
        rc = db_exec(ar, "BEGIN", "cannot read the archive", err);
    if (rc == RPL_OK)
        rc = check_pragma(&c, "PRAGMA main.integrity_check", err);
    if (rc == RPL_OK)
        rc = check_pragma(&c, "PRAGMA main.foreign_key_check", err);
    if (rc == RPL_OK)
        rc = prepare(ar,
                     "SELECT g.id FROM main.game g WHERE NOT EXISTS "
                     "(SELECT 1 FROM main.log l WHERE l.gid = g.gid)",
                     &st, false, err);
    while (rc == RPL_OK && (src = sqlite3_step(st)) == SQLITE_ROW)
        problem_msg(&c, col_text(st, 0), RPL_E_STATE,
                    "the archive has no stored log for this game");
    if (rc == RPL_OK && src != SQLITE_DONE)
        rc = db_fail(ar, err, src, "cannot check the archive");
    sqlite3_finalize(st);
    st = NULL;
    if (rc == RPL_OK)
        rc = check_prepare(&c, err);
    if (rc == RPL_OK)
        rc = prepare(ar,
                     "SELECT g.gid, g.id, g.game, g.seal, l.text_len, l.gz "
                     "FROM main.game g JOIN main.log l USING (gid) "
                     "ORDER BY g.gid",
                     &st, false, err);
    while (rc == RPL_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
        rc = check_game(&c, st, err);
        n++;
    }
    if (rc == RPL_OK && src != SQLITE_DONE)
        rc = db_fail(ar, err, src, "cannot check the archive");
    sqlite3_finalize(st);
    check_release(&c);
    sqlite3_exec(ar->db, "ROLLBACK", NULL, NULL, NULL);
    if (ar->is_readonly)
        sqlite3_exec(ar->db, "PRAGMA query_only = ON", NULL, NULL, NULL);
    if (games)
        *games = n;
    if (rc != RPL_OK)
        return rc;
    if (c.problems) {
        if (err)
            *err = c.first;
        return c.first.code;
    }
    return RPL_OK;
}
