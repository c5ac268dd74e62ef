/*
 * tally.c - what the games' tables of the deal audit and their
 * statistics share (games/game.h): a sorted table of the cells they
 * count from the rows of the selected games (struct rpl__tally), the
 * seats of a game as those rows give them, the groups of the statistics
 * (struct rpl__group) with their order, and the figures every game's
 * statistics count alike (end reasons, per-player records).
 */
#include <stdlib.h>
#include <string.h>

#include "games/game.h"

const struct rpl__col rpl__seat_cols[RPL__SEAT_NCOLS] = {
    {"seat", RPL__CELL_INT},
    {"name", RPL__CELL_TEXT},
    {"role", RPL__CELL_TEXT},
    {"side", RPL__CELL_TEXT},
};

int64_t
rpl__cell_i(const struct rpl__cell *c)
{
    return c->kind == RPL__CELL_INT ? c->i : 0;
}

const char *
rpl__cell_s(const struct rpl__cell *c)
{
    return c->kind == RPL__CELL_TEXT ? c->s : NULL;
}

static void
copy_text(char *out, size_t cap, const char *s)
{
    const size_t n = s ? strlen(s) : 0;
    const size_t k = n < cap ? n : cap - 1;

    if (k > 0)
        memcpy(out, s, k);
    out[k] = '\0';
}

void
rpl__seat_row(struct rpl__seat_row *s, const struct rpl__cell *cells)
{
    s->seat = rpl__cell_i(&cells[0]);
    copy_text(s->name, sizeof(s->name), rpl__cell_s(&cells[1]));
    copy_text(s->role, sizeof(s->role), rpl__cell_s(&cells[2]));
    copy_text(s->side, sizeof(s->side), rpl__cell_s(&cells[3]));
    s->has_role = !!rpl__cell_s(&cells[2]);
    s->has_side = !!rpl__cell_s(&cells[3]);
}

/* An entry and its key (skey, ckey), allocated together. */
struct keyed {
    struct rpl__tally_entry e;
    size_t slen;
    char key[]; /* skey NUL ckey NUL stratum NUL label NUL */
};

static int
cmp_key(const struct keyed *k, const char *skey, const char *ckey)
{
    const int c = strcmp(k->key, skey);

    return c != 0 ? c : strcmp(k->key + k->slen + 1, ckey);
}

/* The place of (skey, ckey): *found when it is there. */
static size_t
place(const struct rpl__tally *t, const char *skey, const char *ckey,
      bool *found)
{
    size_t lo = 0, hi = t->n;

    *found = false;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = cmp_key((const struct keyed *)t->e[mid], skey, ckey);

        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct rpl__tally_entry *
rpl__tally_find(const struct rpl__tally *t, const char *skey, const char *ckey)
{
    bool found;
    const size_t i = place(t, skey, ckey, &found);

    return found ? t->e[i] : NULL;
}

struct rpl__tally_entry *
rpl__tally_get(struct rpl__tally *t, const char *skey, const char *ckey,
               const char *stratum, const char *label, int64_t a, int64_t b,
               struct rpl_error *err)
{
    const size_t ls = strlen(skey), lc = strlen(ckey), lt = strlen(stratum),
                 ll = strlen(label);
    struct keyed *k;
    bool found;
    const size_t i = place(t, skey, ckey, &found);

    if (found)
        return t->e[i];
    if (t->n == t->cap) {
        const size_t cap = t->cap ? t->cap * 2 : 64;
        struct rpl__tally_entry **e =
            cap > SIZE_MAX / sizeof(*e)
                ? NULL
                : rpl__realloc(t->ctx, t->e, cap * sizeof(*e));

        if (!e) {
            rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            return NULL;
        }
        t->e = e;
        t->cap = cap;
    }
    k = rpl__calloc(t->ctx, 1, sizeof(*k) + ls + lc + lt + ll + 4);
    if (!k) {
        rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        return NULL;
    }
    k->slen = ls;
    memcpy(k->key, skey, ls + 1);
    memcpy(k->key + ls + 1, ckey, lc + 1);
    memcpy(k->key + ls + lc + 2, stratum, lt + 1);
    memcpy(k->key + ls + lc + lt + 3, label, ll + 1);
    k->e.stratum = k->key + ls + lc + 2;
    k->e.label = k->key + ls + lc + lt + 3;
    k->e.a = a;
    k->e.b = b;
    memmove(&t->e[i + 1], &t->e[i], (t->n - i) * sizeof(*t->e));
    t->e[i] = &k->e;
    t->n++;
    return &k->e;
}

void
rpl__tally_release(struct rpl__tally *t)
{
    for (size_t i = 0; i < t->n; i++)
        rpl__free(t->ctx, t->e[i]);
    rpl__free(t->ctx, t->e);
    t->e = NULL;
    t->n = t->cap = 0;
}

/* ------------------------------------------------------------- scan */

static const struct rpl__col audit_game_cols[] = {
    {"players", RPL__CELL_INT},
    {"leader", RPL__CELL_INT},
    {"progress", RPL__CELL_TEXT},
};
static const char *const by_seat[] = {"seat", NULL};

enum { A_GAME, A_SEATS, A_EXTRA };

struct audit_scan {
    struct rpl__audit_game x;
    enum rpl_status (*game)(struct rpl__audit_game *x, struct rpl_error *err);
};

static enum rpl_status
audit_row(void *ud, size_t q, const struct rpl__cell *c, size_t n,
          struct rpl_error *err)
{
    struct rpl__audit_game *x = &((struct audit_scan *)ud)->x;

    (void)n;
    if (q == A_GAME) {
        x->players = rpl__cell_i(&c[0]);
        x->leader = rpl__cell_i(&c[1]);
        copy_text(x->progress, sizeof(x->progress), rpl__cell_s(&c[2]));
    } else if (q == A_EXTRA) {
        if (!x->has_extra_row) {
            x->has_extra_row = true;
            x->has_extra = c[0].kind != RPL__CELL_NULL;
            x->extra = rpl__cell_i(&c[0]);
        }
    } else {
        if (x->nseats == RPL__AUDIT_SEATS)
            return rpl__err(err, RPL_E_LIMIT, 0,
                            "audit: a game of more than %u seats",
                            RPL__AUDIT_SEATS);
        rpl__seat_row(&x->seat[x->nseats++], c);
    }
    return RPL_OK;
}

static enum rpl_status
audit_end(void *ud, struct rpl_error *err)
{
    struct audit_scan *a = ud;
    const enum rpl_status rc = a->game(&a->x, err);

    a->x.players = a->x.leader = a->x.extra = 0;
    a->x.progress[0] = '\0';
    a->x.has_extra = a->x.has_extra_row = false;
    a->x.nseats = 0;
    return rc;
}

enum rpl_status
rpl__audit_scan(const struct rpl__audit_run *r, const struct rpl__read *extra,
                enum rpl_status (*game)(struct rpl__audit_game *x,
                                        struct rpl_error *err),
                void (*cell)(const struct rpl__audit_game *x,
                             const struct rpl__tally_entry *e, double *expected,
                             double *factor, uint64_t *games),
                struct rpl_error *err)
{
    struct rpl__read reads[3] = {
        {"game", audit_game_cols,
         sizeof(audit_game_cols) / sizeof(audit_game_cols[0]), NULL},
        {"seat", rpl__seat_cols, RPL__SEAT_NCOLS, by_seat},
    };
    struct audit_scan *a = rpl__calloc(r->ctx, 1, sizeof(*a));
    struct rpl__scan sc;
    enum rpl_status rc;

    if (!a)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    if (extra)
        reads[A_EXTRA] = *extra;
    a->x.t.ctx = r->ctx;
    a->game = game;
    sc.reads = reads;
    sc.nreads = extra ? 3 : 2;
    sc.row = audit_row;
    sc.end = audit_end;
    sc.ud = a;
    rc = r->scan(r->a, &sc, err);
    for (size_t i = 0; rc == RPL_OK && i < a->x.t.n; i++) {
        const struct rpl__tally_entry *e = a->x.t.e[i];
        double expected = 0.0, factor = 1.0;
        uint64_t games = e->count;

        if (e->a < 0)
            continue; /* a count of the table's own, not a cell */
        cell(&a->x, e, &expected, &factor, &games);
        rc = r->cell(r->a, e->stratum, e->label, e->observed, expected, factor,
                     games, err);
    }
    rpl__tally_release(&a->x.t);
    rpl__free(r->ctx, a);
    return rc;
}

/* ------------------------------------------------------------- groups */

/* A group and its texts, allocated together. */
struct grouped {
    struct rpl__group g;
    char text[]; /* k0 NUL k1 NUL */
};

int
rpl__text_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return !b - !a;
    return strcmp(a, b);
}

static int
cmp_group_key(const struct rpl__group *g, const char *k0, const char *k1,
              int64_t n)
{
    int c = rpl__text_cmp(g->k[0], k0);

    if (c == 0)
        c = rpl__text_cmp(g->k[1], k1);
    if (c == 0)
        c = g->n < n ? -1 : g->n > n;
    return c;
}

struct rpl__group *
rpl__group_get(struct rpl__groups *gs, const char *k0, const char *k1,
               int64_t n, struct rpl_error *err)
{
    const size_t l0 = k0 ? strlen(k0) : 0, l1 = k1 ? strlen(k1) : 0;
    size_t lo = 0, hi = gs->n;
    struct grouped *x;

    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = cmp_group_key(gs->g[mid], k0, k1, n);

        if (c == 0)
            return gs->g[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (gs->n == gs->cap) {
        const size_t cap = gs->cap ? gs->cap * 2 : 16;
        struct rpl__group **g =
            cap > SIZE_MAX / sizeof(*g)
                ? NULL
                : rpl__realloc(gs->ctx, gs->g, cap * sizeof(*g));

        if (!g) {
            rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            return NULL;
        }
        gs->g = g;
        gs->cap = cap;
    }
    x = rpl__calloc(gs->ctx, 1, sizeof(*x) + l0 + l1 + 2);
    if (!x) {
        rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        return NULL;
    }
    if (k0) {
        memcpy(x->text, k0, l0 + 1);
        x->g.k[0] = x->text;
    }
    if (k1) {
        memcpy(x->text + l0 + 1, k1, l1 + 1);
        x->g.k[1] = x->text + l0 + 1;
    }
    x->g.n = n;
    memmove(&gs->g[lo + 1], &gs->g[lo], (gs->n - lo) * sizeof(*gs->g));
    gs->g[lo] = &x->g;
    gs->n++;
    return &x->g;
}

static int
cmp_by_count(const void *pa, const void *pb)
{
    const struct rpl__group *a = *(const struct rpl__group *const *)pa;
    const struct rpl__group *b = *(const struct rpl__group *const *)pb;

    if (a->v[0] != b->v[0])
        return a->v[0] > b->v[0] ? -1 : 1;
    return cmp_group_key(a, b->k[0], b->k[1], b->n);
}

static int
cmp_by_n(const void *pa, const void *pb)
{
    const struct rpl__group *a = *(const struct rpl__group *const *)pa;
    const struct rpl__group *b = *(const struct rpl__group *const *)pb;

    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    if (a->v[0] != b->v[0])
        return a->v[0] > b->v[0] ? -1 : 1;
    return cmp_group_key(a, b->k[0], b->k[1], b->n);
}

void
rpl__groups_sort(struct rpl__groups *gs, enum rpl__group_order order)
{
    if (gs->n > 1)
        qsort(gs->g, gs->n, sizeof(*gs->g),
              order == RPL__BY_N ? cmp_by_n : cmp_by_count);
}

void
rpl__groups_release(struct rpl__groups *gs)
{
    for (size_t i = 0; i < gs->n; i++)
        rpl__free(gs->ctx, (struct grouped *)gs->g[i]);
    rpl__free(gs->ctx, gs->g);
    gs->g = NULL;
    gs->n = gs->cap = 0;
}

const char *
rpl__winning_side(const char *winner)
{
    if (!winner)
        return NULL;
    if (strcmp(winner, "evil") == 0)
        return "evil";
    if (strcmp(winner, "good") == 0 || strcmp(winner, "knights") == 0)
        return "good";
    return NULL;
}

int
rpl__seat_won(const char *side, const char *winning_side)
{
    if (!side || !winning_side)
        return -1;
    return strcmp(side, winning_side) == 0;
}

enum rpl_status
rpl__stats_reason(struct rpl__groups *gs, const char *winner,
                  const char *reason, struct rpl_error *err)
{
    struct rpl__group *g;

    if (!reason)
        return RPL_OK;
    g = rpl__group_get(gs, winner, reason, 0, err);
    if (!g)
        return RPL_E_NOMEM;
    g->v[0]++;
    return RPL_OK;
}

enum rpl_status
rpl__stats_record(struct rpl__groups *gs, const char *name, const char *side,
                  const char *winning_side, struct rpl_error *err)
{
    struct rpl__group *g = rpl__group_get(gs, name, NULL, 0, err);
    const int won = rpl__seat_won(side, winning_side);

    if (!g)
        return RPL_E_NOMEM;
    g->v[RPL__REC_GAMES]++;
    if (side)
        g->v[RPL__REC_REVEALED]++;
    if (won >= 0)
        g->v[RPL__REC_DECIDED]++;
    if (won > 0)
        g->v[RPL__REC_WINS]++;
    if (side && strcmp(side, "good") == 0) {
        g->v[RPL__REC_GOOD]++;
        if (won > 0)
            g->v[RPL__REC_GOOD_WINS]++;
    }
    if (side && strcmp(side, "evil") == 0) {
        g->v[RPL__REC_EVIL]++;
        if (won > 0)
            g->v[RPL__REC_EVIL_WINS]++;
    }
    return RPL_OK;
}

json_t *
rpl__stats_record_json(const struct rpl__group *g, const char *good,
                       const char *evil)
{
    const uint64_t *v = g->v;
    const uint64_t wins = v[RPL__REC_WINS], decided = v[RPL__REC_DECIDED];
    char good_wins[64], evil_wins[64];

    snprintf(good_wins, sizeof(good_wins), "%s_wins", good);
    snprintf(evil_wins, sizeof(evil_wins), "%s_wins", evil);
    return json_pack(
        "{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "name",
        rpl__jtext(g->k[0]), "games", rpl__jcount(v[RPL__REC_GAMES]),
        "revealed", rpl__jcount(v[RPL__REC_REVEALED]), "wins",
        rpl__jcount(wins), "losses",
        rpl__jcount(decided >= wins ? decided - wins : 0), "win_rate",
        rpl__jrate(wins, decided), good, rpl__jcount(v[RPL__REC_GOOD]),
        good_wins, rpl__jcount(v[RPL__REC_GOOD_WINS]), evil,
        rpl__jcount(v[RPL__REC_EVIL]), evil_wins,
        rpl__jcount(v[RPL__REC_EVIL_WINS]));
}
