/*
 * stmt.c - the archive's statement helpers over the backend door
 * (backend.h): errors as our statuses, transactions, prepared and cached
 * statements, binding and reading columns, and the tables of the schema,
 * which name the tables a game writes its rows to.
 */
#include <stdio.h>
#include <string.h>

#include "archive.h"

/* After "INSERT INTO " and the target's prefix. */
static const char *const ins_sql[RPL__AR_NINS] = {
    "game (gid, game, id, seal, created, rules, players, "
    "dealer, progress, imported, winner, reason, leader, rounds, proposals, "
    "lines, seals, sigs, source, source_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
    "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
    /* RPL__AR_INS_GAME_AUTO: the same but gid, which the row returns */
    "game (game, id, seal, created, rules, players, "
    "dealer, progress, imported, winner, reason, leader, rounds, proposals, "
    "lines, seals, sigs, source, source_id) VALUES (?2, ?3, ?4, ?5, ?6, "
    "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20) "
    "RETURNING gid",
    "log (gid, text_len, gz) VALUES (?1, ?2, ?3)",
    "rule (gid, key, value) VALUES (?1, ?2, ?3)",
    "seat (gid, seat, name, key, role, side) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    "game_variant (gid, n, variant) VALUES (?1, ?2, ?3)",
};

static const char *const main_sql[RPL__AR_NSTMT - RPL__AR_NINS] = {
    /* RPL__AR_FIND */
    "SELECT gid FROM main.game WHERE id = ?1 AND seal = ?2",
    /* RPL__AR_SAME_ID: other logs of the game, where they end */
    "SELECT g.gid, g.lines, g.seal, g.dealer FROM main.game g "
    "WHERE g.id = ?1 AND g.game = ?2 ORDER BY g.gid",
    /* RPL__AR_DELETE: the other tables follow (ON DELETE CASCADE) */
    "DELETE FROM main.game WHERE gid = ?1",
    /* RPL__AR_SEATS_OF */
    "SELECT seat, name, key, role, side FROM main.seat WHERE gid = ?1 "
    "ORDER BY seat",
    /* RPL__AR_EXPORT */
    "SELECT l.gz FROM main.game g JOIN main.log l USING (gid) "
    "WHERE g.id = ?1 AND g.seal = ?2",
    /* RPL__AR_LOG_OF */
    "SELECT gz FROM main.log WHERE gid = ?1",
    /* RPL__AR_VARIANTS_OF */
    "SELECT variant FROM main.game_variant WHERE gid = ?1 ORDER BY n",
};

enum rpl_status
rpl__ar_fail(const struct rpl_archive *ar, struct rpl_error *err, int rc,
             const char *what)
{
    return ar->be->fail(ar, err, rc, what);
}

/* Runs constant SQL without parameters (transactions, schema). */
enum rpl_status
rpl__ar_exec(struct rpl_archive *ar, const char *sql, const char *what,
             struct rpl_error *err)
{
    const int rc = ar->be->exec(ar, sql);

    if (rc != RPL__DB_OK)
        return rpl__ar_fail(ar, err, rc, what);
    return RPL_OK;
}

enum rpl_status
rpl__ar_begin_write(struct rpl_archive *ar, struct rpl_error *err)
{
    return rpl__ar_exec(ar, ar->be->begin_write, "cannot lock the archive",
                        err);
}

enum rpl_status
rpl__ar_begin_read(struct rpl_archive *ar, struct rpl_error *err)
{
    return rpl__ar_exec(ar, ar->be->begin_read, "cannot read the archive", err);
}

void
rpl__ar_end(struct rpl_archive *ar, bool is_commit)
{
    if (ar->be->in_tx(ar))
        (void)ar->be->exec(ar, is_commit ? "COMMIT" : "ROLLBACK");
}

enum rpl_status
rpl__ar_prepare(struct rpl_archive *ar, const char *sql, struct rpl__st **out,
                bool is_cached, struct rpl_error *err)
{
    const int rc = ar->be->prepare(ar, sql, is_cached, out);

    if (rc != RPL__DB_OK) {
        *out = NULL;
        return rpl__ar_fail(ar, err, rc, "cannot prepare a statement");
    }
    return RPL_OK;
}

/* A cached statement, prepared on first use and reset after each use by
 * its caller (rpl__ar_done()). */
enum rpl_status
rpl__ar_stmt(struct rpl_archive *ar, enum rpl__ar_stmt which,
             struct rpl__st **out, struct rpl_error *err)
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
            enum rpl__ar_stmt which, struct rpl__st **out,
            struct rpl_error *err)
{
    if (!ar->ins[t][which]) {
        struct rpl__buf b;
        char *sql = NULL;
        enum rpl_status rc;

        rpl__buf_init(&b, ar->ctx);
        rpl__buf_puts(&b, "INSERT INTO ");
        rpl__buf_puts(&b, t == RPL__AR_MAIN ? "main." : ar->be->temp_prefix);
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
rpl__ar_done(struct rpl__st *st)
{
    st->be->reset(st);
}

/* Steps a statement that returns no row, then resets it. */
enum rpl_status
rpl__ar_step(struct rpl_archive *ar, struct rpl__st *st, const char *what,
             struct rpl_error *err)
{
    const int rc = rpl__st_step(st);
    enum rpl_status status = RPL_OK;

    if (rc != RPL__DB_DONE)
        status = rpl__ar_fail(ar, err, rc, what);
    rpl__ar_done(st);
    return status;
}

void
rpl__ar_bind_text(struct rpl__st *st, int i, const char *s)
{
    if (s)
        st->be->bind_text(st, i, s, strlen(s));
    else
        st->be->bind_null(st, i);
}

void
rpl__ar_bind_uint(struct rpl__st *st, int i, size_t v)
{
    st->be->bind_int(st, i, (int64_t)v);
}

void
rpl__ar_bind_named(struct rpl__st *st, const char *name, const char *value)
{
    const int i = rpl__st_param(st, name);

    if (i > 0 && value)
        st->be->bind_text(st, i, value, strlen(value));
}

void
rpl__ar_bind_named_int(struct rpl__st *st, const char *name, int64_t v)
{
    const int i = rpl__st_param(st, name);

    if (i > 0)
        st->be->bind_int(st, i, v);
}

/* A column as text, "" for NULL. */
const char *
rpl__ar_col_text(struct rpl__st *st, int i)
{
    const char *s = st->be->col_text(st, i);

    return s ? s : "";
}

/* A column as text, NULL for NULL. */
const char *
rpl__ar_col_text_or_null(struct rpl__st *st, int i)
{
    if (st->be->is_null(st, i))
        return NULL;
    return st->be->col_text(st, i);
}

size_t
rpl__ar_col_uint(struct rpl__st *st, int i)
{
    const int64_t v = st->be->col_int(st, i);

    return v < 0 ? 0 : (size_t)v;
}

void
rpl__ar_col_hex32(struct rpl__st *st, int i, char out[65])
{
    size_t n = 0;
    const void *p = st->be->col_blob(st, i, &n);

    out[0] = '\0';
    if (p && n == 32)
        rpl__hex(out, p, n);
}

enum rpl_status
rpl__ar_ins_table(struct rpl_archive *ar, enum rpl__ar_target t, size_t i,
                  size_t ncols, struct rpl__st **out, struct rpl_error *err)
{
    struct rpl__st *st = ar->ins_table[t][i];

    if (!st) {
        struct rpl__buf b;
        char *sql = NULL;
        enum rpl_status rc;

        /* The table's name is the schema's; the values are parameters. */
        rpl__buf_init(&b, ar->ctx);
        rpl__buf_puts(&b, "INSERT INTO ");
        rpl__buf_puts(&b, t == RPL__AR_MAIN ? "main." : ar->be->temp_prefix);
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
    if ((size_t)st->be->nparams(st) != ncols)
        return rpl__err(err, RPL_E_STATE, 0,
                        "table %s: a row of %zu columns, expected %d",
                        ar->table[i], ncols, st->be->nparams(st));
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

enum rpl_status
rpl__ar_read(struct rpl_archive *ar, const struct rpl__read *rd, int64_t gid,
             rpl__row_fn each, void *ud, struct rpl_error *err)
{
    size_t i = 0;

    while (i < ar->ntables &&
           strcmp(ar->table[i], rd->table ? rd->table : "") != 0)
        i++;
    if (i == ar->ntables || !rpl__ar_is_index(ar, i))
        return rpl__err(err, RPL_E_ARG, 0,
                        "a read of table \"%.40s\": not a table of the index",
                        rd->table ? rd->table : "");
    if (rd->ncols == 0 || rd->ncols > RPL__READ_MAX_COLS)
        return rpl__err(err, RPL_E_ARG, 0,
                        "a read of table %s: %zu columns, expected 1 to %d",
                        rd->table, rd->ncols, RPL__READ_MAX_COLS);
    for (size_t c = 0; c < rd->ncols; c++)
        if (!rpl__ar_is_name(rd->col[c].name))
            return rpl__err(err, RPL_E_ARG, 0,
                            "a read of table %s: column %zu is not a name",
                            rd->table, c);
    for (size_t o = 0; rd->order && rd->order[o]; o++)
        if (!rpl__ar_is_name(rd->order[o]))
            return rpl__err(err, RPL_E_ARG, 0,
                            "a read of table %s: order %zu is not a name",
                            rd->table, o);
    return ar->be->read_rows(ar, rd, gid, each, ud, err);
}
