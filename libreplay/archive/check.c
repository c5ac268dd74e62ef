/*
 * check.c - camelog archive check: the database's own checks (the
 * backend's), then every stored log verified and its index rebuilt
 * (index.c, store.c) into temporary tables (the backend's temp_prefix:
 * temp.chk_* on SQLite) and compared with the stored rows, table by
 * table.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "archive.h"

/* -------------------------------------------------------------- check */

struct check {
    struct rpl_archive *ar;
    void (*each)(void *ud, const char *id, const struct rpl_error *problem);
    void *ud;
    struct rpl_error first;
    size_t problems;
    /* The index tables: every table of the schema but log. */
    size_t n;
    const char *name[RPL__AR_MAX_TABLES];
    struct rpl__st *cmp[RPL__AR_MAX_TABLES];
    struct rpl__st *clear[RPL__AR_MAX_TABLES];
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
    const char *tmp = ar->be->temp_prefix;
    char sql[512];
    enum rpl_status rc = RPL_OK;

    c->n = 0;
    for (size_t i = 0; i < ar->ntables; i++)
        if (rpl__ar_is_index(ar, i))
            c->name[c->n++] = ar->table[i];
    for (size_t i = 0; rc == RPL_OK && i < c->n; i++) {
        const char *t = c->name[i];

        snprintf(sql, sizeof(sql),
                 "CREATE TEMP TABLE chk_%s AS SELECT * FROM main.%s "
                 "WHERE 1 = 0",
                 t, t);
        rc = rpl__ar_exec(ar, sql, "cannot check the archive", err);
        snprintf(sql, sizeof(sql),
                 "SELECT (SELECT count(*) FROM (SELECT * FROM main.%s "
                 "WHERE gid = ?1 EXCEPT SELECT * FROM %s%s WHERE "
                 "gid = ?1) a) + (SELECT count(*) FROM (SELECT * FROM "
                 "%s%s WHERE gid = ?1 EXCEPT SELECT * FROM main.%s "
                 "WHERE gid = ?1) b)",
                 t, tmp, t, tmp, t, t);
        if (rc == RPL_OK)
            rc = rpl__ar_prepare(ar, sql, &c->cmp[i], true, err);
        snprintf(sql, sizeof(sql), "DELETE FROM %s%s", tmp, t);
        if (rc == RPL_OK)
            rc = rpl__ar_prepare(ar, sql, &c->clear[i], true, err);
    }
    return rc;
}

static void
check_release(struct check *c)
{
    struct rpl_archive *ar = c->ar;
    char sql[128];

    for (size_t i = 0; i < c->n; i++) {
        rpl__st_finalize(c->cmp[i]);
        rpl__st_finalize(c->clear[i]);
    }
    for (size_t i = 0; i < RPL__AR_NINS; i++) {
        rpl__st_finalize(ar->ins[RPL__AR_CHECK][i]);
        ar->ins[RPL__AR_CHECK][i] = NULL;
    }
    for (size_t i = 0; i < RPL__AR_MAX_TABLES; i++) {
        rpl__st_finalize(ar->ins_table[RPL__AR_CHECK][i]);
        ar->ins_table[RPL__AR_CHECK][i] = NULL;
    }
    for (size_t i = 0; i < c->n; i++) {
        snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS temp.chk_%s",
                 c->name[i]);
        (void)ar->be->exec(ar, sql);
    }
}

/* One stored log: it verifies, is the game its row names, and its index
 * rebuilt equals the stored one.  Problems of the log go to c; the
 * return value is for failures of the check itself. */
static enum rpl_status
check_game(struct check *c, struct rpl__st *row, struct rpl_error *err)
{
    struct rpl_archive *ar = c->ar;
    const int64_t gid = rpl__st_int(row, 0);
    const char *id = rpl__ar_col_text(row, 1);
    const char *game = rpl__ar_col_text(row, 2);
    size_t seal_len = 0, gz_len = 0;
    const void *seal = rpl__st_blob(row, 3, &seal_len);
    const size_t text_len = rpl__ar_col_uint(row, 4);
    const void *gz = rpl__st_blob(row, 5, &gz_len);
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error e;
    struct ix *x = NULL;
    char *text = NULL;
    size_t len = 0;
    int64_t out_gid = 0;
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
    x = rpl__calloc(ar->ctx, 1, sizeof(*x));
    if (!x) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    if (rpl__ar_index_verify(x, log, NULL, &rep) != RPL_OK) {
        problem(c, id, &rep.error);
        goto out;
    }
    if (rpl__ar_resolve(ar, x, &e) != RPL_OK) {
        problem(c, id, &e);
        goto out;
    }
    if (strcmp(rep.id, id) != 0 || strcmp(rep.game, game) != 0) {
        problem_msg(c, id, RPL_E_STATE, "the stored log is of game %s", rep.id);
        goto out;
    }
    if (seal_len != sizeof(x->seal) || memcmp(seal, x->seal, seal_len) != 0 ||
        rpl__ar_last_seal(log) != log->nlines) {
        problem_msg(c, id, RPL_E_STATE,
                    "the stored log does not end with the seal its row "
                    "names");
        goto out;
    }
    rc = rpl__ar_insert(ar, RPL__AR_CHECK, x, gid, &out_gid, err);
    for (size_t i = 0; rc == RPL_OK && i < c->n; i++) {
        int src;

        rpl__st_bind_int(c->cmp[i], 1, gid);
        src = rpl__st_step(c->cmp[i]);
        if (src != RPL__DB_ROW)
            rc = rpl__ar_fail(ar, err, src, "cannot check the archive");
        else if (rpl__st_int(c->cmp[i], 0) != 0)
            problem_msg(c, id, RPL_E_STATE,
                        "the index table %s does not match the log",
                        c->name[i]);
        rpl__ar_done(c->cmp[i]);
    }
out:
    for (size_t i = 0; i < c->n; i++)
        if (rc == RPL_OK)
            rc = rpl__ar_step(ar, c->clear[i], "cannot check the archive", err);
    rpl__ar_ix_release(ar->ctx, x);
    rpl__free(ar->ctx, x);
    rpl_log_free(log);
    rpl__free(ar->ctx, text);
    return rc;
}

static void
schema_problem(void *ud, const char *msg)
{
    struct check *c = ud;
    struct rpl_error e;

    rpl__err(&e, RPL_E_UNSUPPORTED, 0, "%s", msg);
    problem(c, NULL, &e);
}

/* Two logs of one game (an archive written by an older library, or by
 * hand): a fork when neither is a prefix of the other, else a log that
 * should have replaced the other.  Each log is compared with the one
 * before it of the same game. */
static enum rpl_status
check_forks(struct check *c, struct rpl_error *err)
{
    struct rpl_archive *ar = c->ar;
    struct rpl__st *st = NULL;
    char *prev = NULL, *text = NULL;
    size_t prev_len = 0, text_len = 0;
    char prev_id[33] = "", prev_seal[65] = "";
    enum rpl_status rc;
    int src;

    rc = rpl__ar_prepare(
        ar,
        "SELECT g.id, g.seal, l.gz FROM main.game g JOIN "
        "main.log l USING (gid) WHERE (g.id, g.game) IN (SELECT id, game "
        "FROM main.game GROUP BY id, game HAVING count(*) > 1) "
        "ORDER BY g.game, g.id, g.gid",
        &st, false, err);
    if (rc != RPL_OK)
        return rc;
    while ((src = rpl__st_step(st)) == RPL__DB_ROW) {
        const char *id = rpl__ar_col_text(st, 0);
        size_t gz_len = 0;
        const void *gz = rpl__st_blob(st, 2, &gz_len);
        char seal[65];
        struct rpl_error e;

        rpl__ar_col_hex32(st, 1, seal);
        if (rpl__gz_inflate(ar->ctx, gz, gz_len, &text, &text_len, &e) !=
            RPL_OK) {
            text = NULL;
            text_len = 0;
        }
        if (prev && text && strcmp(prev_id, id) == 0) {
            size_t line = 1, i = 0;

            while (i < prev_len && i < text_len && prev[i] == text[i])
                if (prev[i++] == '\n')
                    line++;
            if (i < prev_len && i < text_len)
                problem_msg(c, id, RPL_E_SEAL,
                            "a fork: the logs of seals %.16s... and "
                            "%.16s... part at line %zu",
                            prev_seal, seal, line);
            else
                problem_msg(c, id, RPL_E_STATE,
                            "two logs of the game (seals %.16s... and "
                            "%.16s...), one a prefix of the other",
                            prev_seal, seal);
        }
        rpl__free(ar->ctx, prev);
        prev = text;
        prev_len = text_len;
        text = NULL;
        snprintf(prev_id, sizeof(prev_id), "%.32s", id);
        snprintf(prev_seal, sizeof(prev_seal), "%.64s", seal);
    }
    if (src != RPL__DB_DONE)
        rc = rpl__ar_fail(ar, err, src, "cannot check the archive");
    rpl__st_finalize(st);
    rpl__free(ar->ctx, prev);
    return rc;
}

/* A problem of the database as a whole (the backend's integrity). */
static void
db_problem(void *ud, const struct rpl_error *e)
{
    problem(ud, NULL, e);
}

enum rpl_status
rpl_archive_check(struct rpl_archive *ar,
                  void (*each)(void *ud, const char *id,
                               const struct rpl_error *problem),
                  void *ud, size_t *games, struct rpl_error *err)
{
    struct check c;
    struct rpl__st *st = NULL;
    size_t n = 0;
    enum rpl_status rc;
    int src = RPL__DB_DONE;

    rpl__err_clear(err);
    if (ar->in_batch)
        return rpl__err(err, RPL_E_STATE, 0,
                        "commit or roll back the batch first");
    memset(&c, 0, sizeof(c));
    c.ar = ar;
    c.each = each;
    c.ud = ud;
    /* check writes its temporary tables only. */
    rc = ar->be->temp_writes(ar, true, err);
    /* One read transaction: the logs and the index of one moment. */
    if (rc == RPL_OK)
        rc = rpl__ar_begin_read(ar, err);
    if (rc == RPL_OK)
        rc = ar->be->integrity(ar, db_problem, &c, err);
    /* Every object of the schema is this library's: a view or trigger
     * of someone else's makes the index say what it likes. */
    if (rc == RPL_OK) {
        size_t nschema = 0;

        rc = ar->be->schema_diff(ar, schema_problem, &c, &nschema, err);
    }
    if (rc == RPL_OK)
        rc = check_forks(&c, err);
    if (rc == RPL_OK)
        rc = rpl__ar_prepare(ar,
                             "SELECT g.id FROM main.game g WHERE NOT EXISTS "
                             "(SELECT 1 FROM main.log l WHERE l.gid = g.gid)",
                             &st, false, err);
    while (rc == RPL_OK && (src = rpl__st_step(st)) == RPL__DB_ROW)
        problem_msg(&c, rpl__ar_col_text(st, 0), RPL_E_STATE,
                    "the archive has no stored log for this game");
    if (rc == RPL_OK && src != RPL__DB_DONE)
        rc = rpl__ar_fail(ar, err, src, "cannot check the archive");
    rpl__st_finalize(st);
    st = NULL;
    if (rc == RPL_OK)
        rc = check_prepare(&c, err);
    if (rc == RPL_OK)
        rc = rpl__ar_prepare(
            ar,
            "SELECT g.gid, g.id, g.game, g.seal, l.text_len, l.gz "
            "FROM main.game g JOIN main.log l USING (gid) "
            "ORDER BY g.gid",
            &st, false, err);
    while (rc == RPL_OK && (src = rpl__st_step(st)) == RPL__DB_ROW) {
        rc = check_game(&c, st, err);
        n++;
    }
    if (rc == RPL_OK && src != RPL__DB_DONE)
        rc = rpl__ar_fail(ar, err, src, "cannot check the archive");
    rpl__st_finalize(st);
    check_release(&c);
    rpl__ar_end(ar, false);
    (void)ar->be->temp_writes(ar, false, NULL);
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
