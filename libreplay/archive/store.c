/*
 * store.c - writing the index: adding a log (its rows and its gzip file)
 * or replacing an earlier log of the same game, indexing stored logs
 * again, and batches of adds in one transaction.
 *
 * Adding a log first reads everything the index needs out of the log
 * (index.c) and compresses it (gz.c) without touching the database: its
 * entry, which another thread may make; then one SAVEPOINT stores it, so
 * a failed add changes nothing, inside a batch or not.  A run of entries
 * shares one savepoint while none fails (SQLite copies each page it
 * changes into a savepoint's journal, once per savepoint): a failure
 * rolls the run back and adds the entries before it again, each alone.
 */
#include <stdio.h>
#include <string.h>

#include "archive.h"

static enum rpl_status
need_writable(const struct rpl_archive *ar, struct rpl_error *err)
{
    if (ar->is_readonly)
        return rpl__err(err, RPL_E_STATE, 0, "the archive is open read-only");
    return RPL_OK;
}

/* Writes the index rows of x into target t; gid 0 lets the archive pick
 * it (main), and *out_gid tells which. */
enum rpl_status
rpl__ar_insert(struct rpl_archive *ar, enum rpl__ar_target t,
               const struct ix *x, int64_t gid, int64_t *out_gid,
               struct rpl_error *err)
{
    const struct rpl__rows *g = &x->rows;
    struct rpl__st *st = NULL;
    char what[RPL__AR_TABLE_NAME + 32];
    size_t nvariants = 0;
    enum rpl_status rc;
    int src;

    rc = rpl__ar_ins(ar, t, gid ? RPL__AR_INS_GAME : RPL__AR_INS_GAME_AUTO, &st,
                     err);
    if (rc != RPL_OK)
        return rc;
    if (gid)
        rpl__st_bind_int(st, 1, gid);
    rpl__ar_bind_text(st, 2, x->game);
    rpl__ar_bind_text(st, 3, x->id);
    rpl__st_bind_blob(st, 4, x->seal, sizeof(x->seal));
    rpl__ar_bind_text(st, 5, x->created[0] ? x->created : NULL);
    rpl__st_bind_textn(st, 6, x->rules, x->rules_len);
    rpl__ar_bind_uint(st, 7, x->players);
    rpl__ar_bind_text(st, 8, x->dealer);
    rpl__ar_bind_text(st, 9, x->progress);
    rpl__st_bind_int(st, 10, x->is_imported ? 1 : 0);
    rpl__ar_bind_text(st, 11, x->winner);
    rpl__ar_bind_text(st, 12, x->reason);
    if (g->leader)
        rpl__ar_bind_uint(st, 13, g->leader);
    rpl__ar_bind_uint(st, 14, g->rounds);
    rpl__ar_bind_uint(st, 15, g->proposals);
    rpl__ar_bind_uint(st, 16, x->lines);
    rpl__ar_bind_uint(st, 17, x->seals);
    rpl__ar_bind_uint(st, 18, x->sigs);
    if (x->source) {
        rpl__st_bind_textn(st, 19, x->source, x->source_len);
        rpl__st_bind_textn(st, 20, x->source_id, x->source_id_len);
    }
    if (gid) {
        rc = rpl__ar_step(ar, st, "cannot add the game", err);
    } else {
        /* The archive picks the gid, and the row returns it. */
        src = rpl__st_step(st);
        if (src == RPL__DB_ROW)
            gid = rpl__st_int(st, 0);
        else
            rc = rpl__ar_fail(ar, err, src, "cannot add the game");
        rpl__ar_done(st);
    }
    if (rc != RPL_OK)
        return rc;
    *out_gid = gid;

    rc = rpl__ar_ins(ar, t, RPL__AR_INS_RULE, &st, err);
    for (size_t i = 0; rc == RPL_OK && i < x->nrules; i++) {
        rpl__st_bind_int(st, 1, gid);
        rpl__st_bind_textn(st, 2, x->rule[i].key, x->rule[i].key_len);
        rpl__st_bind_textn(st, 3, x->rule[i].value, x->rule[i].value_len);
        rc = rpl__ar_step(ar, st, "cannot add the rules", err);
    }
    if (rc == RPL_OK)
        rc = rpl__ar_ins(ar, t, RPL__AR_INS_SEAT, &st, err);
    for (size_t k = 1; rc == RPL_OK && k <= x->players; k++) {
        rpl__st_bind_int(st, 1, gid);
        rpl__ar_bind_uint(st, 2, k);
        rpl__ar_bind_text(st, 3, x->name[k]);
        rpl__ar_bind_text(st, 4, x->key[k][0] ? x->key[k] : NULL);
        rpl__ar_bind_text(st, 5, g->role[k]);
        rpl__ar_bind_text(st, 6, g->side[k]);
        rc = rpl__ar_step(ar, st, "cannot add a seat", err);
    }
    /* The variants, one row each in the rules line's order. */
    if (rc == RPL_OK && x->variants[0] != '\0')
        rc = rpl__ar_ins(ar, t, RPL__AR_INS_VARIANT, &st, err);
    for (const char *v = x->variants; rc == RPL_OK && *v != '\0';) {
        const size_t len = strcspn(v, ",");

        rpl__st_bind_int(st, 1, gid);
        rpl__ar_bind_uint(st, 2, ++nvariants);
        rpl__st_bind_textn(st, 3, v, len);
        rc = rpl__ar_step(ar, st, "cannot add a variant", err);
        v += len;
        if (*v == ',')
            v++;
    }
    /* The game's rows, cell by cell. */
    for (size_t i = 0; rc == RPL_OK && i < x->nrows; i++) {
        const struct ix_row *r = &x->row[i];

        rc = rpl__ar_ins_table(ar, t, r->table, r->n + 1, &st, err);
        if (rc != RPL_OK)
            break;
        rpl__st_bind_int(st, 1, gid);
        for (size_t c = 0; c < r->n; c++) {
            const struct ix_cell *cell = &x->cell[r->first + c];
            const int col = (int)c + 2;

            if (cell->kind == RPL__CELL_INT)
                rpl__st_bind_int(st, col, cell->i);
            else if (cell->kind == RPL__CELL_TEXT)
                rpl__ar_bind_text(st, col, x->text.p + cell->off);
        }
        /* The message only on failure: snprintf() per row costs. */
        src = rpl__st_step(st);
        if (src != RPL__DB_DONE) {
            snprintf(what, sizeof(what), "cannot add a row to %s",
                     ar->table[r->table]);
            rc = rpl__ar_fail(ar, err, src, what);
        }
        rpl__ar_done(st);
    }
    return rc;
}

/* Indexes stored log gid again: its rows are replaced by what the log
 * says now, under the same gid.  A log that no longer verifies keeps its
 * rows (check reports it). */
static enum rpl_status
reindex_one(struct rpl_archive *ar, int64_t gid, struct rpl_error *err)
{
    struct rpl__st *st = NULL;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error e;
    struct ix *x = NULL;
    uint8_t *gz = NULL;
    char *text = NULL;
    size_t gz_len = 0, len = 0;
    int64_t out_gid = 0;
    enum rpl_status rc;
    int src;

    rc = rpl__ar_prepare(ar, "SELECT gz FROM main.log WHERE gid = ?1", &st,
                         false, err);
    if (rc != RPL_OK)
        return rc;
    rpl__st_bind_int(st, 1, gid);
    src = rpl__st_step(st);
    if (src == RPL__DB_ROW) {
        const void *blob = rpl__st_blob(st, 0, &gz_len);

        gz = rpl__alloc(ar->ctx, gz_len ? gz_len : 1);
        if (!gz)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        else if (gz_len)
            memcpy(gz, blob, gz_len);
    } else if (src != RPL__DB_DONE) {
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
    }
    rpl__st_finalize(st);
    st = NULL;
    if (rc != RPL_OK || !gz)
        goto out;
    if (rpl__gz_inflate(ar->ctx, gz, gz_len, &text, &len, &e) != RPL_OK ||
        rpl_log_parse(ar->ctx, &log, text, len, false, &e) != RPL_OK)
        goto out;
    x = rpl__calloc(ar->ctx, 1, sizeof(*x));
    if (!x) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    if (rpl__ar_index_verify(x, log, NULL, &rep) != RPL_OK ||
        rpl__ar_resolve(ar, x, &e) != RPL_OK)
        goto out;
    rc = rpl__ar_prepare(ar, "DELETE FROM main.game WHERE gid = ?1", &st, false,
                         err);
    if (rc == RPL_OK) {
        rpl__st_bind_int(st, 1, gid);
        src = rpl__st_step(st);
        if (src != RPL__DB_DONE)
            rc = rpl__ar_fail(ar, err, src, "cannot index the archive again");
        rpl__st_finalize(st);
        st = NULL;
    }
    if (rc == RPL_OK)
        rc = rpl__ar_insert(ar, RPL__AR_MAIN, x, gid, &out_gid, err);
    if (rc == RPL_OK)
        rc = rpl__ar_prepare(ar,
                             "INSERT INTO main.log (gid, text_len, gz) "
                             "VALUES (?1, ?2, ?3)",
                             &st, false, err);
    if (rc == RPL_OK) {
        rpl__st_bind_int(st, 1, gid);
        rpl__ar_bind_uint(st, 2, len);
        rpl__st_bind_blob(st, 3, gz, gz_len);
        src = rpl__st_step(st);
        if (src != RPL__DB_DONE)
            rc = rpl__ar_fail(ar, err, src, "cannot index the archive again");
        rpl__st_finalize(st);
    }
out:
    rpl__ar_ix_release(ar->ctx, x);
    rpl__free(ar->ctx, x);
    rpl_log_free(log);
    rpl__free(ar->ctx, text);
    rpl__free(ar->ctx, gz);
    return rc;
}

enum rpl_status
rpl__ar_reindex_all(struct rpl_archive *ar, struct rpl_error *err)
{
    struct rpl__st *st = NULL;
    int64_t *gids = NULL;
    size_t n = 0, cap = 0;
    enum rpl_status rc;
    int src;

    rc = rpl__ar_prepare(ar, "SELECT gid FROM main.game ORDER BY gid", &st,
                         false, err);
    if (rc != RPL_OK)
        return rc;
    while ((src = rpl__st_step(st)) == RPL__DB_ROW) {
        if (n == cap) {
            const size_t grown = cap ? 2 * cap : 64;
            int64_t *g = rpl__realloc(ar->ctx, gids, grown * sizeof(*gids));

            if (!g) {
                rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                break;
            }
            gids = g;
            cap = grown;
        }
        gids[n++] = rpl__st_int(st, 0);
    }
    if (rc == RPL_OK && src != RPL__DB_DONE)
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
    rpl__st_finalize(st);
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

/* The line where two texts of whole lines part: 1 + the lines they
 * share.  Neither is a prefix of the other. */
static size_t
parting_line(const char *a, size_t a_len, const char *b, size_t b_len)
{
    size_t line = 1;

    for (size_t i = 0; i < a_len && i < b_len && a[i] == b[i]; i++)
        if (a[i] == '\n')
            line++;
    return line;
}

/* Whether the stored log that ends at line `lines` with the seal line
 * whose hash is seal, sealed by dealer, is a prefix of log, known from
 * the chain alone: log verified, so its line `lines`, when it is that
 * very seal line, is the dealer's signature of the same chain value, and
 * one chain value is one sequence of lines.  False says nothing: the
 * texts decide (compare_text()). */
static bool
is_sealed_prefix(const struct rpl_log *log, const struct ix *x, size_t lines,
                 const void *seal, size_t seal_len, const char *dealer)
{
    uint8_t h[RPL__HASH];
    size_t len = 0;
    const char *text;

    if (lines == 0 || lines >= log->nlines || seal_len != sizeof(h) ||
        !dealer || strcmp(dealer, x->dealer) != 0)
        return false;
    text = rpl__log_line(log, lines, &len);
    if (len < 5 || memcmp(text, "seal ", 5) != 0)
        return false;
    rpl__hash(h, NULL, text, len);
    return memcmp(h, seal, sizeof(h)) == 0;
}

/* Compares the log with stored log gid, text against text: sets *replace
 * or *superseded, or refuses a fork (RPL_E_SEAL) naming its seal. */
static enum rpl_status
compare_text(struct rpl_archive *ar, const struct rpl_log *log, int64_t gid,
             const char *seal, int64_t *replace, bool *superseded,
             struct rpl_error *err)
{
    struct rpl__st *st = NULL;
    char *text = NULL;
    size_t text_len = 0;
    enum rpl_status rc;
    int src;

    rc = rpl__ar_stmt(ar, RPL__AR_LOG_OF, &st, err);
    if (rc != RPL_OK)
        return rc;
    rpl__st_bind_int(st, 1, gid);
    src = rpl__st_step(st);
    if (src == RPL__DB_ROW) {
        size_t gz_len = 0;
        const void *gz = rpl__st_blob(st, 0, &gz_len);

        rc = rpl__gz_inflate(ar->ctx, gz, gz_len, &text, &text_len, err);
    } else if (src != RPL__DB_DONE) {
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
    }
    rpl__ar_done(st);
    if (rc != RPL_OK || !text)
        return rc;
    if (is_prefix(text, text_len, log->text, log->len)) {
        *replace = gid;
    } else if (is_prefix(log->text, log->len, text, text_len)) {
        *superseded = true;
    } else {
        const size_t line = parting_line(text, text_len, log->text, log->len);

        rc = rpl__err(err, RPL_E_SEAL, line,
                      "a fork of game %s: the archive holds another log "
                      "of it (seal %.64s) that parts from this one here; "
                      "not stored",
                      log->rep.id, seal);
    }
    rpl__free(ar->ctx, text);
    return rc;
}

/* Compares the log with the other stored logs of its game: sets
 * *replace to the gid of an earlier log it extends, or *superseded when
 * a stored log extends it.  A stored log that is neither a prefix of
 * this one nor extends it is another history of the same game, both
 * sealed by its dealer: a fork, which the archive refuses (RPL_E_SEAL,
 * at the line where they part) rather than count the game twice.  An
 * earlier log this one extends is known by where it ends and its seal,
 * without its text; only the others are inflated. */
static enum rpl_status
find_relatives(struct rpl_archive *ar, const struct rpl_log *log,
               const struct ix *x, int64_t *replace, bool *superseded,
               struct rpl_error *err)
{
    struct rpl__st *st = NULL;
    enum rpl_status rc;
    int src = RPL__DB_DONE;

    *replace = 0;
    *superseded = false;
    rc = rpl__ar_stmt(ar, RPL__AR_SAME_ID, &st, err);
    if (rc != RPL_OK)
        return rc;
    rpl__ar_bind_text(st, 1, log->rep.id);
    rpl__ar_bind_text(st, 2, log->rep.game);
    while (rc == RPL_OK && (src = rpl__st_step(st)) == RPL__DB_ROW) {
        const int64_t gid = rpl__st_int(st, 0);
        size_t seal_len = 0;
        const void *seal = rpl__st_blob(st, 2, &seal_len);
        char seal_hex[65];

        if (is_sealed_prefix(log, x, rpl__ar_col_uint(st, 1), seal, seal_len,
                             rpl__ar_col_text_or_null(st, 3))) {
            *replace = gid;
            continue;
        }
        rpl__ar_col_hex32(st, 2, seal_hex);
        rc = compare_text(ar, log, gid, seal_hex, replace, superseded, err);
    }
    if (rc == RPL_OK && src != RPL__DB_DONE)
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
    rpl__ar_done(st);
    return rc;
}

/* The body of add, inside its savepoint. */
static enum rpl_status
add_rows(struct rpl_archive *ar, struct rpl_log *log, const struct ix *x,
         const uint8_t *gz, size_t gz_len, enum rpl_archive_added *what,
         struct rpl_error *err)
{
    struct rpl__st *st = NULL;
    int64_t gid = 0, replace = 0;
    bool superseded = false;
    enum rpl_status rc;
    int src;

    /* Two writers of one game wait for each other (the backends whose
     * write transaction does not already make them). */
    if (ar->be->lock_game) {
        rc = ar->be->lock_game(ar, x->id, err);
        if (rc != RPL_OK)
            return rc;
    }
    rc = rpl__ar_stmt(ar, RPL__AR_FIND, &st, err);
    if (rc != RPL_OK)
        return rc;
    rpl__ar_bind_text(st, 1, x->id);
    rpl__st_bind_blob(st, 2, x->seal, sizeof(x->seal));
    src = rpl__st_step(st);
    rpl__ar_done(st);
    if (src == RPL__DB_ROW) {
        *what = RPL_ARCHIVE_PRESENT;
        return RPL_OK;
    }
    if (src != RPL__DB_DONE)
        return rpl__ar_fail(ar, err, src, "cannot read the archive");
    rc = find_relatives(ar, log, x, &replace, &superseded, err);
    if (rc != RPL_OK)
        return rc;
    if (superseded) {
        *what = RPL_ARCHIVE_SUPERSEDED;
        return RPL_OK;
    }
    if (replace) {
        rc = rpl__ar_stmt(ar, RPL__AR_DELETE, &st, err);
        if (rc != RPL_OK)
            return rc;
        rpl__st_bind_int(st, 1, replace);
        rc = rpl__ar_step(ar, st, "cannot replace the earlier log", err);
        if (rc != RPL_OK)
            return rc;
    }
    rc = rpl__ar_insert(ar, RPL__AR_MAIN, x, 0, &gid, err);
    if (rc == RPL_OK)
        rc = rpl__ar_ins(ar, RPL__AR_MAIN, RPL__AR_INS_LOG, &st, err);
    if (rc == RPL_OK) {
        rpl__st_bind_int(st, 1, gid);
        rpl__ar_bind_uint(st, 2, log->len);
        rpl__st_bind_blob(st, 3, gz, gz_len);
        rc = rpl__ar_step(ar, st, "cannot store the log", err);
    }
    if (rc == RPL_OK)
        *what = replace ? RPL_ARCHIVE_REPLACED : RPL_ARCHIVE_ADDED;
    return rc;
}

/* What rpl_archive_add() reads from a log before it touches the
 * database (index.c, gz.c), made in the log's thread. */
struct rpl_archive_entry {
    struct rpl_ctx *ctx; /* the log's */
    struct rpl_log *log;
    struct ix x;
    uint8_t *gz; /* the log's own bytes (log->gz), or compressed here */
    size_t gz_len;
};

/* Archived logs are sealed to their last line. */
static enum rpl_status
need_sealed(const struct rpl_log *log, struct rpl_error *err)
{
    const size_t seal = rpl__ar_last_seal(log);

    if (seal == log->nlines)
        return RPL_OK;
    return rpl__err(err, RPL_E_INCOMPLETE, seal + 1,
                    seal ? "lines %zu-%zu are not covered by a seal: the "
                           "archive keeps sealed logs"
                         : "no seal in the log (lines %zu-%zu): the "
                           "archive keeps sealed logs",
                    seal + 1, log->nlines);
}

/* The file the archive stores: the bytes the log was read from when they
 * are the canonical container, else the text compressed. */
static enum rpl_status
entry_pack(struct rpl_archive_entry *e, struct rpl_ctx *keep,
           struct rpl_error *err)
{
    const struct rpl_log *log = e->log;
    enum rpl_status rc = RPL_OK;

    if (log->gz) {
        e->gz_len = log->gz_len;
        return RPL_OK;
    }
    rc = rpl__gz_pack(log->ctx, keep, log->text, log->len, &e->gz, &e->gz_len,
                      err);
    if (rc == RPL_OK && e->gz_len > RPL_MAX_COMPRESSED)
        rc = rpl__err(err, RPL_E_LIMIT, 0,
                      "the compressed log is over %u bytes "
                      "(RPL_MAX_COMPRESSED)",
                      RPL_MAX_COMPRESSED);
    return rc;
}

static struct rpl_archive_entry *
entry_alloc(struct rpl_log *log)
{
    struct rpl_archive_entry *e = rpl__calloc(log->ctx, 1, sizeof(*e));

    if (e) {
        e->ctx = log->ctx;
        e->log = log;
    }
    return e;
}

static const uint8_t *
entry_gz(const struct rpl_archive_entry *e)
{
    return e->gz ? e->gz : e->log->gz;
}

enum rpl_status
rpl_archive_entry_new(struct rpl_log *log, struct rpl_ctx *keep,
                      struct rpl_archive_entry **out, struct rpl_error *err)
{
    struct rpl_archive_entry *e = NULL;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    if (!log->is_verified || log->rep.error.code != RPL_OK)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log must verify before it is archived");
    rc = need_sealed(log, err);
    if (rc != RPL_OK)
        return rc;
    e = entry_alloc(log);
    if (!e)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    rc = rpl__ar_index(&e->x, log, err);
    if (rc == RPL_OK)
        rc = entry_pack(e, keep, err);
    if (rc != RPL_OK) {
        rpl_archive_entry_free(e);
        return rc;
    }
    *out = e;
    return RPL_OK;
}

enum rpl_status
rpl_archive_entry_verify(struct rpl_log *log,
                         const struct rpl_verify_opts *opts,
                         struct rpl_report *rep, struct rpl_ctx *keep,
                         struct rpl_archive_entry **out, struct rpl_error *err)
{
    struct rpl_archive_entry *e = NULL;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    e = entry_alloc(log);
    if (!e) {
        memset(rep, 0, sizeof(*rep));
        rpl__err(&rep->error, RPL_E_NOMEM, 0, "out of memory");
        *err = rep->error;
        return RPL_E_NOMEM;
    }
    rc = rpl__ar_index_verify(&e->x, log, opts, rep);
    if (rc != RPL_OK)
        *err = rep->error;
    if (rc == RPL_OK)
        rc = need_sealed(log, err);
    if (rc == RPL_OK)
        rc = entry_pack(e, keep, err);
    if (rc != RPL_OK) {
        rpl_archive_entry_free(e);
        return rc;
    }
    *out = e;
    return RPL_OK;
}

void
rpl_archive_entry_free(struct rpl_archive_entry *e)
{
    if (!e)
        return;
    rpl__free(e->ctx, e->gz);
    rpl__ar_ix_release(e->ctx, &e->x);
    rpl__free(e->ctx, e);
}

enum rpl_status
rpl_archive_add_entry(struct rpl_archive *ar, struct rpl_archive_entry *e,
                      enum rpl_archive_added *what, struct rpl_error *err)
{
    enum rpl_archive_added result = RPL_ARCHIVE_PRESENT;
    enum rpl_status rc;
    bool has_tx = false, has_savepoint = false;

    rpl__err_clear(err);
    rc = need_writable(ar, err);
    if (rc == RPL_OK)
        rc = rpl__ar_resolve(ar, &e->x, err);
    if (rc != RPL_OK)
        return rc;
    if (!ar->in_batch) {
        rc = rpl__ar_begin_write(ar, err);
        if (rc != RPL_OK)
            goto out;
        has_tx = true;
    }
    rc =
        rpl__ar_exec(ar, "SAVEPOINT rpl_add", "cannot add to the archive", err);
    if (rc != RPL_OK)
        goto out;
    has_savepoint = true;
    rc = add_rows(ar, e->log, &e->x, entry_gz(e), e->gz_len, &result, err);
    if (rc != RPL_OK)
        goto out;
    rc = rpl__ar_exec(ar, "RELEASE rpl_add", "cannot add to the archive", err);
    if (rc != RPL_OK)
        goto out;
    has_savepoint = false;
    if (has_tx) {
        rc = rpl__ar_exec(ar, "COMMIT", "cannot commit", err);
        if (rc == RPL_OK)
            has_tx = false;
    }
out:
    if (has_savepoint) {
        (void)ar->be->exec(ar, "ROLLBACK TO rpl_add");
        (void)ar->be->exec(ar, "RELEASE rpl_add");
    }
    if (has_tx && ar->be->in_tx(ar))
        (void)ar->be->exec(ar, "ROLLBACK");
    if (ar->in_batch && !ar->be->in_tx(ar)) {
        /* The database rolled the whole batch back (e.g. a full disk). */
        ar->in_batch = false;
    }
    if (rc == RPL_OK && what)
        *what = result;
    return rc;
}

/* Adds e[0..n) inside the savepoint rpl_adds, each without one of its
 * own; *k gets the number added before a failure. */
static enum rpl_status
add_run(struct rpl_archive *ar, struct rpl_archive_entry *const *e, size_t n,
        enum rpl_archive_added *what, size_t *k, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    for (*k = 0; *k < n; ++*k) {
        struct rpl_archive_entry *one = e[*k];

        rc = rpl__ar_resolve(ar, &one->x, err);
        if (rc == RPL_OK)
            rc = add_rows(ar, one->log, &one->x, entry_gz(one), one->gz_len,
                          &what[*k], err);
        if (rc != RPL_OK)
            break;
    }
    return rc;
}

enum rpl_status
rpl_archive_add_entries(struct rpl_archive *ar,
                        struct rpl_archive_entry *const *e, size_t n,
                        enum rpl_archive_added *what, size_t *done,
                        struct rpl_error *err)
{
    enum rpl_status rc;
    size_t k = 0;

    rpl__err_clear(err);
    *done = 0;
    rc = need_writable(ar, err);
    if (rc != RPL_OK)
        return rc;
    if (!ar->in_batch)
        return rpl__err(err, RPL_E_STATE, 0, "no batch is open");
    rc = rpl__ar_exec(ar, "SAVEPOINT rpl_adds", "cannot add to the archive",
                      err);
    if (rc != RPL_OK)
        goto out;
    rc = add_run(ar, e, n, what, &k, err);
    if (rc == RPL_OK)
        rc = rpl__ar_exec(ar, "RELEASE rpl_adds", "cannot add to the archive",
                          err);
    if (rc == RPL_OK) {
        *done = n;
        goto out;
    }
    /* e[k] failed (or the release): undo the run, then add those before
     * it again, each in a savepoint of its own, as rpl_archive_add()
     * does: the same rows under the same gids, and should one fail now,
     * those before it stay. */
    if (ar->be->in_tx(ar)) {
        struct rpl_error again;
        size_t redone = 0;

        (void)ar->be->exec(ar, "ROLLBACK TO rpl_adds");
        (void)ar->be->exec(ar, "RELEASE rpl_adds");
        for (; redone < k && ar->in_batch; redone++) {
            const enum rpl_status again_rc =
                rpl_archive_add_entry(ar, e[redone], &what[redone], &again);

            if (again_rc != RPL_OK) {
                if (err)
                    *err = again;
                rc = again_rc;
                break;
            }
        }
        *done = redone;
    }
out:
    if (!ar->be->in_tx(ar)) {
        /* The database rolled the whole batch back (e.g. a full disk). */
        ar->in_batch = false;
    }
    return rc;
}

enum rpl_status
rpl_archive_add(struct rpl_archive *ar, struct rpl_log *log,
                enum rpl_archive_added *what, struct rpl_error *err)
{
    struct rpl_archive_entry *e = NULL;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = need_writable(ar, err);
    /* The archive's context keeps the deflate stream: the thread is the
     * archive's. */
    if (rc == RPL_OK)
        rc = rpl_archive_entry_new(log, ar->ctx, &e, err);
    if (rc == RPL_OK)
        rc = rpl_archive_add_entry(ar, e, what, err);
    rpl_archive_entry_free(e);
    return rc;
}

/* ------------------------------------------------------------ batches */

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
    rc = rpl__ar_begin_write(ar, err);
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
    rc = rpl__ar_exec(ar, "COMMIT", "cannot commit", err);
    if (rc != RPL_OK) {
        /* Leave nothing half done: the batch is lost as a whole. */
        (void)ar->be->exec(ar, "ROLLBACK");
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
    if (ar->be->in_tx(ar))
        rc = rpl__ar_exec(ar, "ROLLBACK", "cannot roll back", err);
    ar->in_batch = false;
    return rc;
}
