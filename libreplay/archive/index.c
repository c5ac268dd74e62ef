/*
 * index.c - what the archive's index says about one verified log (struct
 * ix), read without touching the database: the header (created, import,
 * rules and its options, the variants it declares, seats, dealer), the report's
 * figures, and the game's own part through its index hook (struct
 * rpl__game_archive, games/game.h).
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
    rpl__free(ctx, x->scratch);
    x->scratch = NULL;
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

/* A header line: created, import, rules and its options. */
static enum rpl_status
index_header_line(void *a, const struct rpl_log *log,
                  const struct rpl__line *ln, struct rpl_error *err)
{
    struct ix *x = a;

    (void)log;
    (void)err;
    if (rpl__tok_is(&ln->tok[0], "created") && ln->ntok == 2) {
        tok_copy(x->created, sizeof(x->created), &ln->tok[1]);
    } else if (rpl__tok_is(&ln->tok[0], "import") && ln->ntok == 3) {
        x->source = ln->tok[1].p;
        x->source_len = ln->tok[1].n;
        x->source_id = ln->tok[2].p;
        x->source_id_len = ln->tok[2].n;
    } else if (rpl__tok_is(&ln->tok[0], "rules")) {
        x->rules = ln->text + 6;
        x->rules_len = ln->len > 6 ? ln->len - 6 : 0;
        for (size_t i = 1; i < ln->ntok; i++) {
            const struct rpl__tok *t = &ln->tok[i];
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
    return RPL_OK;
}

static void
ignore_warning(void *w, size_t line, const char *msg)
{
    (void)w;
    (void)line;
    (void)msg;
}

/* What the game's index() is lent: the log's header, and its seed once
 * the log is complete. */
static void
game_env(struct ix *x, const struct rpl_log *log)
{
    memset(&x->env, 0, sizeof(x->env));
    for (size_t k = 0; k <= RPL_MAX_SEATS; k++)
        x->names[k] = log->names[k];
    x->env.ctx = log->ctx;
    x->env.id = log->id;
    x->env.seed = log->is_complete ? log->seed : NULL;
    x->env.seats = log->seats;
    x->env.names = x->names;
    x->env.imported = log->rep.is_imported;
    x->env.version = log->version;
    x->env.warn = ignore_warning;
}

/* The game's index() with the state after line ln (NULL: after the
 * last line); its scratch is made, zeroed, at the first call. */
static enum rpl_status
game_index(struct ix *x, const struct rpl_log *log, const struct rpl__line *ln,
           struct rpl_error *err)
{
    const struct rpl__game_archive *ar = rpl__archive_hooks(log->game);

    if (!ar->index)
        return RPL_OK;
    if (!x->scratch) {
        x->scratch =
            rpl__calloc(log->ctx, 1, ar->index_size ? ar->index_size : 1);
        if (!x->scratch)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        game_env(x, log);
    }
    if (!ln)
        game_env(x, log); /* the seed is known now, if it will be */
    return ar->index(x->scratch, log->st, &x->env, ln, &x->rows, err);
}

/* A game line, applied. */
static enum rpl_status
index_line(void *a, const struct rpl_log *log, const struct rpl__line *ln,
           const struct rpl__applied *applied, struct rpl_error *err)
{
    (void)applied;
    return game_index(a, log, ln, err);
}

/* After the last line: the report's figures, seats and dealer, and the
 * game's index() with the final state. */
static enum rpl_status
index_end(void *a, const struct rpl_log *log, struct rpl_error *err)
{
    struct ix *x = a;
    const struct rpl_report *rep = &log->rep;
    size_t len = 0;
    const char *last;

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
    for (size_t k = 1; k <= log->seats; k++) {
        x->name[k] = log->names[k];
        if (log->has_seat_key[k])
            rpl_pubkey_format(&log->seat_key[k], x->key[k]);
    }
    rpl_pubkey_format(&log->dealer, x->dealer);
    rpl_log_variants(log, x->variants, sizeof(x->variants));
    return game_index(x, log, NULL, err);
}

static void
index_begin(struct ix *x, struct rpl_ctx *ctx)
{
    memset(x, 0, sizeof(*x));
    rpl__buf_init(&x->text, ctx);
    x->rows.a = x;
    x->rows.row = keep_row;
}

enum rpl_status
rpl__ar_index_verify(struct ix *x, struct rpl_log *log,
                     const struct rpl_verify_opts *opts, struct rpl_report *rep)
{
    const struct rpl__observer obs = {
        .a = x,
        .header = index_header_line,
        .line = index_line,
        .end = index_end,
    };

    index_begin(x, log->ctx);
    return rpl__log_verify_with(log, opts, rep, &obs);
}

enum rpl_status
rpl__ar_index(struct ix *x, struct rpl_log *log, struct rpl_error *err)
{
    struct rpl__line ln;
    enum rpl_status rc = RPL_OK;

    index_begin(x, log->ctx);
    for (size_t no = 1; rc == RPL_OK && no <= log->nlines; no++) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        if (no > log->header_end && !rpl__log_is_game_line(text, len))
            continue;
        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc != RPL_OK)
            break;
        if (no <= log->header_end) {
            rc = index_header_line(x, log, &ln, err);
            continue;
        }
        if (rpl__archive_hooks(log->game)->index) {
            rc = rpl__log_seek_split(log, &ln, err);
            if (rc == RPL_OK)
                rc = game_index(x, log, &ln, err);
        }
    }
    if (rc == RPL_OK)
        rc = rpl_log_seek(log, log->nlines, err);
    if (rc == RPL_OK)
        rc = index_end(x, log, err);
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
