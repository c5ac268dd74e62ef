/*
 * index.c - what the archive's index says about one verified log (struct
 * ix), read without touching the database: the header (created, import,
 * rules and its options, the variants it declares, seats, dealer), the report's
 * figures, and the game's own part through its index hook (struct rpl__game,
 * games/game.h).
 *
 * The archive knows no game.  It replays the log line by line and lends
 * the game's index() the state after each game line and a generic row
 * sink (struct rpl__rows), which keeps each row in memory until store.c
 * binds it; a game names a table of the schema, and the SQL names it only
 * with the schema's own copy of the name.
 */
#include <string.h>

#include "archive.h"

/* Rows and cells held before the arrays grow. */
#define ROWS_MIN  32
#define CELLS_MIN 128

void
rpl__ar_ix_release(struct rpl_ctx *ctx, struct ix *x)
{
    if (!x)
        return;
    rpl__free(ctx, x->row);
    rpl__free(ctx, x->cell);
    x->row = NULL;
    x->cell = NULL;
    x->nrows = x->row_cap = x->ncells = x->cell_cap = 0;
    if (x->text.ctx)
        rpl__buf_release(&x->text);
}

/* The row sink of struct rpl__rows: the table's name is kept with the
 * cells, and named by its place in the schema once an archive is at hand
 * (rpl__ar_resolve()). */
static enum rpl_status
keep_row(void *a, const char *table, const struct rpl__cell *cells, size_t n,
         struct rpl_error *err)
{
    struct ix *x = a;
    struct rpl_ctx *ctx = x->text.ctx;
    struct ix_row *r;

    if (n > RPL_MAX_TOKENS)
        return rpl__err(err, RPL_E_ARG, 0, "a row of %zu cells", n);
    if (x->nrows == x->row_cap) {
        const size_t cap = x->row_cap ? 2 * x->row_cap : ROWS_MIN;
        void *grown = rpl__realloc(ctx, x->row, cap * sizeof(*x->row));

        if (!grown)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        x->row = grown;
        x->row_cap = cap;
    }
    while (x->ncells + n > x->cell_cap) {
        const size_t cap = x->cell_cap ? 2 * x->cell_cap : CELLS_MIN;
        void *grown = rpl__realloc(ctx, x->cell, cap * sizeof(*x->cell));

        if (!grown)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        x->cell = grown;
        x->cell_cap = cap;
    }
    r = &x->row[x->nrows++];
    r->table = SIZE_MAX;
    r->name_off = x->text.len;
    rpl__buf_add(&x->text, table, strlen(table) + 1);
    r->first = x->ncells;
    r->n = n;
    for (size_t i = 0; i < n; i++) {
        struct ix_cell *c = &x->cell[x->ncells++];

        c->kind = cells[i].kind;
        c->i = cells[i].i;
        c->off = 0;
        if (c->kind == RPL__CELL_TEXT) {
            c->off = x->text.len;
            rpl__buf_add(&x->text, cells[i].s, strlen(cells[i].s) + 1);
        }
    }
    if (x->text.failed)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    return RPL_OK;
}

enum rpl_status
rpl__ar_resolve(const struct rpl_archive *ar, struct ix *x,
                struct rpl_error *err)
{
    size_t t = 0;

    for (size_t i = 0; i < x->nrows; i++) {
        struct ix_row *r = &x->row[i];
        const char *table = x->text.p + r->name_off;

        /* Rows of one table come in runs: try the last table first. */
        if (t >= ar->ntables || strcmp(ar->table[t], table) != 0)
            for (t = 0; t < ar->ntables && strcmp(ar->table[t], table) != 0;)
                t++;
        if (t == ar->ntables || rpl__ar_is_own(ar, t))
            return rpl__err(err, RPL_E_ARG, 0,
                            "the archive has no table %.32s for a game", table);
        r->table = t;
    }
    return RPL_OK;
}

static void
tok_copy(char *out, size_t cap, const struct rpl__tok *t)
{
    const size_t n = t->n < cap - 1 ? t->n : cap - 1;

    memcpy(out, t->p, n);
    out[n] = '\0';
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
            x->source = ln.tok[1].p;
            x->source_len = ln.tok[1].n;
            x->source_id = ln.tok[2].p;
            x->source_id_len = ln.tok[2].n;
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
        x->name[k] = log->names[k];
        if (log->has_seat_key[k])
            rpl_pubkey_format(&log->seat_key[k], x->key[k]);
    }
    rpl_pubkey_format(&log->dealer, x->dealer);
    return RPL_OK;
}

static void
ignore_warning(void *w, size_t line, const char *msg)
{
    (void)w;
    (void)line;
    (void)msg;
}

/* The log layer's own lines (camelog(5)), which no game sees. */
static bool
is_game_line(const char *text, size_t len)
{
    static const char *const own[] = {"entropy", "seal", "sig", "reveal",
                                      "open"};

    for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
        const size_t n = strlen(own[i]);

        if (len > n && memcmp(text, own[i], n) == 0 && text[n] == ' ')
            return false;
    }
    return true;
}

/* The game's part: its index() after each game line, then at the end. */
static enum rpl_status
index_game(struct ix *x, struct rpl_log *log, struct rpl_error *err)
{
    const struct rpl__game *game = log->game;
    const char *names[RPL_MAX_SEATS + 1];
    struct rpl__env env;
    struct rpl__line ln;
    void *scratch = NULL;
    enum rpl_status rc = RPL_OK;

    if (!game->index)
        return RPL_OK;
    scratch = rpl__calloc(log->ctx, 1, game->index_size ? game->index_size : 1);
    if (!scratch)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    for (size_t k = 0; k <= RPL_MAX_SEATS; k++)
        names[k] = log->names[k];
    memset(&env, 0, sizeof(env));
    env.ctx = log->ctx;
    env.id = log->id;
    env.seed = log->is_complete ? log->seed : NULL;
    env.seats = log->seats;
    env.names = names;
    env.imported = log->rep.is_imported;
    env.version = log->version;
    env.warn = ignore_warning;
    for (size_t no = log->header_end + 1; rc == RPL_OK && no <= log->nlines;
         no++) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        if (!is_game_line(text, len))
            continue;
        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc == RPL_OK)
            rc = rpl__log_seek_split(log, &ln, err);
        if (rc == RPL_OK)
            rc = game->index(scratch, log->st, &env, &ln, &x->rows, err);
    }
    if (rc == RPL_OK)
        rc = rpl_log_seek(log, log->nlines, err);
    if (rc == RPL_OK)
        rc = game->index(scratch, log->st, &env, NULL, &x->rows, err);
    rpl__free(log->ctx, scratch);
    return rc;
}

enum rpl_status
rpl__ar_index(struct ix *x, struct rpl_log *log, struct rpl_error *err)
{
    const struct rpl_report *rep = &log->rep;
    size_t len = 0;
    const char *last;
    enum rpl_status rc;

    memset(x, 0, sizeof(*x));
    rpl__buf_init(&x->text, log->ctx);
    x->rows.a = x;
    x->rows.row = keep_row;
    x->game = rep->game;
    x->id = rep->id;
    x->players = log->seats;
    x->progress = rpl_progress_name(rep->progress);
    x->is_imported = rep->is_imported;
    x->winner = rep->winner[0] ? rep->winner : NULL;
    x->reason = rep->reason[0] ? rep->reason : NULL;
    x->lines = rep->lines;
    x->seals = rep->seals;
    x->sigs = rep->sigs;
    last = rpl__log_line(log, log->nlines, &len);
    rpl__hash(x->seal, NULL, last, len);
    rc = index_header(x, log, err);
    if (rc == RPL_OK)
        rpl_log_variants(log, x->variants, sizeof(x->variants));
    if (rc == RPL_OK)
        rc = index_game(x, log, err);
    return rc;
}

size_t
rpl__ar_last_seal(const struct rpl_log *log)
{
    for (size_t no = log->nlines; no > log->header_end; no--) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        if (len > 5 && memcmp(text, "seal ", 5) == 0)
            return no;
    }
    return 0;
}
