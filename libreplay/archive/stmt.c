/*
 * stmt.c - the archive's SQLite helpers: errors as our statuses, prepared
 * and cached statements, binding and reading columns, and the tables of
 * the embedded schema, which name the tables a game writes its rows to.
 */
#include <stdio.h>
#include <string.h>

#include "archive.h"

static const char *const target_prefix[RPL__AR_NTARGETS] = {"main.",
                                                            "temp.chk_"};

/* After "INSERT INTO " and the target's prefix. */
static const char *const ins_sql[RPL__AR_NINS] = {
    "game (gid, game, id, seal, created, rules, players, "
    "dealer, progress, imported, winner, reason, leader, rounds, proposals, "
    "lines, seals, sigs, source, source_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
    "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
    "log (gid, text_len, gz) VALUES (?1, ?2, ?3)",
    "rule (gid, key, value) VALUES (?1, ?2, ?3)",
    "seat (gid, seat, name, key, role, side) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    "game_variant (gid, n, variant) VALUES (?1, ?2, ?3)",
};

static const char *const main_sql[RPL__AR_NSTMT - RPL__AR_NINS] = {
    /* RPL__AR_FIND */
    "SELECT gid FROM main.game WHERE id = ?1 AND seal = ?2",
    /* RPL__AR_SAME_ID: other logs of the game, with their text */
    "SELECT g.gid, l.gz, lower(hex(g.seal)) FROM main.game g JOIN main.log l "
    "USING (gid) WHERE g.id = ?1 AND g.game = ?2 ORDER BY g.gid",
    /* RPL__AR_DELETE: the other tables follow (ON DELETE CASCADE) */
    "DELETE FROM main.game WHERE gid = ?1",
    /* RPL__AR_SEATS_OF */
    "SELECT seat, name, key, role, side FROM main.seat WHERE gid = ?1 "
    "ORDER BY seat",
    /* RPL__AR_EXPORT */
    "SELECT l.gz FROM main.game g JOIN main.log l USING (gid) "
    "WHERE g.id = ?1 AND g.seal = ?2",
};

enum rpl_status
rpl__ar_fail(const struct rpl_archive *ar, struct rpl_error *err, int rc,
             const char *what)
{
    const int prim = rc & 0xff;
    enum rpl_status code = RPL_E_IO;

    if (prim == SQLITE_NOMEM)
        code = RPL_E_NOMEM;
    else if (prim == SQLITE_INTERRUPT && ar->is_over_budget)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: the statement ran over its budget of %llu "
                        "steps (RPL_MAX_SQL_STEPS, RPL_MAX_SQL_STEPS_PER_PAGE)",
                        what, (unsigned long long)ar->budget);
    else if (prim == SQLITE_INTERRUPT && ar->is_over_heap)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: the statement took over %u MiB of memory "
                        "(RPL_MAX_SQL_HEAP)",
                        what, RPL_MAX_SQL_HEAP / (1024u * 1024u));
    else if (prim == SQLITE_INTERRUPT && ar->is_over_time)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: the statement ran over %u seconds "
                        "(RPL_MAX_SQL_SECONDS)",
                        what, RPL_MAX_SQL_SECONDS);
    else if (prim == SQLITE_TOOBIG)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%s: a string or blob over %u bytes "
                        "(RPL_MAX_SQL_VALUE)",
                        what, RPL_MAX_SQL_VALUE);
    else if (prim == SQLITE_NOTADB)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "not a camelog archive (not an SQLite database)");
    return rpl__err(err, code, 0, "%s: %s", what,
                    ar->db && sqlite3_errcode(ar->db) == rc
                        ? sqlite3_errmsg(ar->db)
                        : sqlite3_errstr(rc));
}

/* Runs constant SQL without parameters (transactions, schema). */
enum rpl_status
rpl__ar_exec(struct rpl_archive *ar, const char *sql, const char *what,
             struct rpl_error *err)
{
    const int rc = sqlite3_exec(ar->db, sql, NULL, NULL, NULL);

    if (rc != SQLITE_OK)
        return rpl__ar_fail(ar, err, rc, what);
    return RPL_OK;
}

enum rpl_status
rpl__ar_prepare(struct rpl_archive *ar, const char *sql, sqlite3_stmt **out,
                bool is_cached, struct rpl_error *err)
{
    const int rc = sqlite3_prepare_v3(
        ar->db, sql, -1, is_cached ? SQLITE_PREPARE_PERSISTENT : 0, out, NULL);

    if (rc != SQLITE_OK) {
        *out = NULL;
        return rpl__ar_fail(ar, err, rc, "cannot prepare a statement");
    }
    return RPL_OK;
}

/* A cached statement, prepared on first use and reset after each use by
 * its caller (rpl__ar_done()). */
enum rpl_status
rpl__ar_stmt(struct rpl_archive *ar, enum rpl__ar_stmt which,
             sqlite3_stmt **out, struct rpl_error *err)
{
    if (!ar->st[which]) {
        const enum rpl_status rc = rpl__ar_prepare(
            ar, main_sql[which - RPL__AR_NINS], &ar->st[which], true, err);

        if (rc != RPL_OK)
            return rc;
    }
    *out = ar->st[which];
    return RPL_OK;
}

enum rpl_status
rpl__ar_ins(struct rpl_archive *ar, enum rpl__ar_target t,
            enum rpl__ar_stmt which, sqlite3_stmt **out, struct rpl_error *err)
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
            rc = rpl__ar_prepare(ar, sql, &ar->ins[t][which], true, err);
        rpl_free(ar->ctx, sql);
        if (rc != RPL_OK)
            return rc;
    }
    *out = ar->ins[t][which];
    return RPL_OK;
}

/* Resets a statement after use (its error, if any, was reported). */
void
rpl__ar_done(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

/* Steps a statement that returns no row, then resets it. */
enum rpl_status
rpl__ar_step(struct rpl_archive *ar, sqlite3_stmt *st, const char *what,
             struct rpl_error *err)
{
    const int rc = sqlite3_step(st);
    enum rpl_status status = RPL_OK;

    if (rc != SQLITE_DONE)
        status = rpl__ar_fail(ar, err, rc, what);
    rpl__ar_done(st);
    return status;
}

void
rpl__ar_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

void
rpl__ar_bind_uint(sqlite3_stmt *st, int i, size_t v)
{
    sqlite3_bind_int64(st, i, (sqlite3_int64)v);
}

/* A column as text, "" for NULL. */
const char *
rpl__ar_col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);

    return s ? (const char *)s : "";
}

/* A column as text, NULL for NULL. */
const char *
rpl__ar_col_text_or_null(sqlite3_stmt *st, int i)
{
    if (sqlite3_column_type(st, i) == SQLITE_NULL)
        return NULL;
    return (const char *)sqlite3_column_text(st, i);
}

size_t
rpl__ar_col_uint(sqlite3_stmt *st, int i)
{
    const sqlite3_int64 v = sqlite3_column_int64(st, i);

    return v < 0 ? 0 : (size_t)v;
}

enum rpl_status
rpl__ar_ins_table(struct rpl_archive *ar, enum rpl__ar_target t, size_t i,
                  size_t ncols, sqlite3_stmt **out, struct rpl_error *err)
{
    sqlite3_stmt *st = ar->ins_table[t][i];

    if (!st) {
        struct rpl__buf b;
        char *sql = NULL;
        enum rpl_status rc;

        /* The table's name is the schema's; the values are parameters. */
        rpl__buf_init(&b, ar->ctx);
        rpl__buf_puts(&b, "INSERT INTO ");
        rpl__buf_puts(&b, target_prefix[t]);
        rpl__buf_puts(&b, ar->table[i]);
        rpl__buf_puts(&b, " VALUES (");
        for (size_t c = 1; c <= ncols; c++)
            rpl__buf_printf(&b, "%s?%zu", c > 1 ? ", " : "", c);
        rpl__buf_puts(&b, ")");
        rc = rpl__buf_take(&b, &sql, err);
        if (rc == RPL_OK)
            rc = rpl__ar_prepare(ar, sql, &st, true, err);
        rpl_free(ar->ctx, sql);
        if (rc != RPL_OK)
            return rc;
        ar->ins_table[t][i] = st;
    }
    if ((size_t)sqlite3_bind_parameter_count(st) != ncols)
        return rpl__err(err, RPL_E_STATE, 0,
                        "table %s: a row of %zu columns, expected %d",
                        ar->table[i], ncols, sqlite3_bind_parameter_count(st));
    *out = st;
    return RPL_OK;
}

bool
rpl__ar_is_own(const struct rpl_archive *ar, size_t i)
{
    static const char *const own[] = {"game", "log", "rule", "seat",
                                      "game_variant"};

    for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
        if (strcmp(ar->table[i], own[k]) == 0)
            return true;
    return false;
}

bool
rpl__ar_is_index(const struct rpl_archive *ar, size_t i)
{
    return strcmp(ar->table[i], "log") != 0;
}
