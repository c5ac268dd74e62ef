/*
 * query.c - reading the index: the filter that query and stats share
 * (every value a bound parameter, the clauses constant), the games that
 * match it with their seats and, through their game (struct
 * rpl__details, games/game.h), quests and facts, the groups of the
 * games' facts, and the export of one stored log as its file.
 */
#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "games/game.h"

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

enum rpl_status
rpl_archive_check_filter(const struct rpl_archive_filter *f,
                         struct rpl_error *err)
{
    rpl__err_clear(err);
    if (!f)
        return RPL_OK;
    if (rpl__ar_filter_values(f, err) != RPL_OK)
        return err ? err->code : RPL_E_ARG;
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
    if (f->nvariants > RPL_ARCHIVE_MAX_VARIANTS)
        return rpl__err(err, RPL_E_ARG, 0,
                        "variant: at most %d variants, got %zu",
                        RPL_ARCHIVE_MAX_VARIANTS, f->nvariants);
    if (f->is_official && f->nvariants > 0)
        return rpl__err(err, RPL_E_ARG, 0,
                        "official: a game under the official rules declares "
                        "no variant, so none can be asked for");
    return RPL_OK;
}

/* The side a filter asks for: a game may name its sides in its own
 * terms (struct rpl__game_archive's side_of), which then select its
 * games only (*of_game, else NULL) and stand for the side of the common
 * rows. */
static const char *
filter_side(const char *side, const char **of_game)
{
    const struct rpl__game *game;

    *of_game = NULL;
    for (size_t i = 0; side && (game = rpl__game_at(i)); i++) {
        const struct rpl__game_archive *ar = rpl__archive_hooks(game);
        const char *common = ar->side_of ? ar->side_of(side) : NULL;

        if (common) {
            *of_game = game->name;
            return common;
        }
    }
    return side;
}

/* The WHERE clause of a filter over `main.game g`, with named
 * parameters bound by bind_filter(). */
static void
filter_where(struct rpl__buf *b, const struct rpl_archive_filter *f)
{
    /* A game counts once: of two logs of one game (a fork, in an archive
     * add did not write), the first stored. */
    rpl__buf_puts(b, " WHERE NOT EXISTS (SELECT 1 FROM main.game f WHERE "
                     "f.id = g.id AND f.game = g.game AND f.gid < g.gid)");
    if (!f)
        return;
    if (f->game)
        rpl__buf_puts(b, " AND g.game = :game");
    if (f->id)
        rpl__buf_puts(b, " AND substr(g.id, 1, :id_len) = :id");
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
        const char *of_game;

        filter_side(f->side, &of_game);
        if (of_game)
            rpl__buf_puts(b, " AND g.game = :side_game");
    }
    if (f->is_official)
        rpl__buf_puts(b, " AND NOT EXISTS (SELECT 1 FROM main.game_variant v "
                         "WHERE v.gid = g.gid)");
    for (size_t i = 0; i < f->nvariants; i++)
        rpl__buf_printf(b,
                        " AND g.gid IN (SELECT v.gid FROM main.game_variant v "
                        "WHERE v.variant = :variant%zu)",
                        i);
    if (f->player || f->role || f->side) {
        /* Not correlated: the seat index finds the games once. */
        rpl__buf_puts(b, " AND g.gid IN (SELECT s.gid FROM main.seat s "
                         "WHERE 1 = 1");
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
bind_filter(struct rpl__st *st, const struct rpl_archive_filter *f)
{
    const char *side, *of_game;

    if (!f)
        return;
    rpl__ar_bind_named(st, ":game", f->game);
    if (f->id) {
        rpl__ar_bind_named(st, ":id", f->id);
        rpl__ar_bind_named_int(st, ":id_len", (int64_t)strlen(f->id));
    }
    rpl__ar_bind_named(st, ":winner", f->winner);
    rpl__ar_bind_named(st, ":reason", f->reason);
    rpl__ar_bind_named_int(st, ":players", (int64_t)f->players);
    rpl__ar_bind_named(st, ":since", f->since);
    rpl__ar_bind_named(st, ":until", f->until);
    rpl__ar_bind_named(st, ":player", f->player);
    rpl__ar_bind_named(st, ":role", f->role);
    side = filter_side(f->side, &of_game);
    rpl__ar_bind_named(st, ":side", side);
    rpl__ar_bind_named(st, ":side_game", of_game);
    for (size_t k = 0; k < f->nvariants; k++) {
        char name[32];

        snprintf(name, sizeof(name), ":variant%zu", k);
        rpl__ar_bind_named(st, name, f->variants[k]);
    }
}

enum rpl_status
rpl__ar_prepare_filtered(struct rpl_archive *ar, const char *head,
                         const struct rpl_archive_filter *f, const char *tail,
                         struct rpl__st **out, struct rpl_error *err)
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
    rc = rpl__ar_prepare(ar, sql, out, false, err);
    rpl_free(ar->ctx, sql);
    if (rc == RPL_OK)
        bind_filter(*out, f);
    return rc;
}

/* --------------------------------------------------------------- scan */

/* The rows of one read of a scan, to its row() with the read's place. */
struct scan_read {
    const struct rpl__scan *sc;
    size_t q;
};

static enum rpl_status
scan_row(void *ud, const struct rpl__cell *cells, size_t n,
         struct rpl_error *err)
{
    const struct scan_read *r = ud;

    return r->sc->row(r->sc->ud, r->q, cells, n, err);
}

enum rpl_status
rpl__ar_scan(struct rpl_archive *ar, const struct rpl_archive_filter *f,
             const char *game, int imported, const struct rpl__scan *sc,
             struct rpl_error *err)
{
    struct rpl__st *st = NULL;
    enum rpl_status rc;
    int src;

    rc = rpl__ar_prepare_filtered(
        ar, "SELECT g.gid FROM main.game g", f,
        imported == 0 || imported == 1
            ? " AND g.game = :scan_game AND g.imported = :scan_imported "
              "ORDER BY g.gid"
            : " AND g.game = :scan_game ORDER BY g.gid",
        &st, err);
    if (rc != RPL_OK)
        return rc;
    rpl__ar_bind_named(st, ":scan_game", game);
    rpl__ar_bind_named_int(st, ":scan_imported", imported);
    while ((src = rpl__st_step(st)) == RPL__DB_ROW) {
        const int64_t gid = rpl__st_int(st, 0);

        for (size_t q = 0; rc == RPL_OK && q < sc->nreads; q++) {
            struct scan_read r = {sc, q};

            rc = rpl__ar_read(ar, &sc->reads[q], gid, scan_row, &r, err);
        }
        if (rc == RPL_OK && sc->end)
            rc = sc->end(sc->ud, err);
        if (rc != RPL_OK)
            break;
    }
    if (rc == RPL_OK && src != RPL__DB_DONE)
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
    rpl__st_finalize(st);
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
 * statements (a statement's text lives until its next step). */
struct game_strings {
    struct rpl__buf b;
    size_t seat[RPL__AR_NSEATS][4]; /* name, key, role, side; SIZE_MAX: NULL */
    size_t quest[RPL__AR_MAX_QUESTS][3]; /* team, result, failed */
    size_t variants;                     /* "a,b", "" for none */
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

#define DETAILS_FACTS 8

/* The reads and the quest and fact sinks of struct rpl__details. */
struct details_run {
    struct rpl_archive *ar;
    const struct rpl__game *game;
    int64_t gid;
    struct game_strings *gs;
    struct rpl_archive_quest *quests;
    size_t nquests;
    struct rpl_archive_fact facts[DETAILS_FACTS];
    size_t nfacts;
};

static enum rpl_status
details_read(void *a, size_t q, rpl__row_fn each, void *ud,
             struct rpl_error *err)
{
    struct details_run *r = a;
    const struct rpl__game_archive *h = rpl__archive_hooks(r->game);

    if (q >= h->ndetails_reads)
        return rpl__err(err, RPL_E_STATE, 0, "game %s: no details read %zu",
                        r->game->name, q);
    return rpl__ar_read(r->ar, &h->details_reads[q], r->gid, each, ud, err);
}

static enum rpl_status
details_quest(void *a, const struct rpl_archive_quest *q, struct rpl_error *err)
{
    struct details_run *r = a;
    struct game_strings *gs = r->gs;

    (void)err;
    if (r->nquests == RPL__AR_MAX_QUESTS)
        return RPL_OK;
    r->quests[r->nquests] = *q;
    gs->quest[r->nquests][0] = keep(&gs->b, q->team);
    gs->quest[r->nquests][1] = keep(&gs->b, q->result);
    gs->quest[r->nquests][2] = keep(&gs->b, q->failed);
    r->nquests++;
    return RPL_OK;
}

static enum rpl_status
details_fact(void *a, const char *group, const char *name, int64_t value,
             struct rpl_error *err)
{
    struct details_run *r = a;

    (void)err;
    if (r->nfacts == DETAILS_FACTS)
        return RPL_OK;
    r->facts[r->nfacts].group = group;
    r->facts[r->nfacts].name = name;
    r->facts[r->nfacts].value = value;
    r->nfacts++;
    return RPL_OK;
}

/* The game's own part of g (struct rpl__details): its quests and its
 * facts. */
static enum rpl_status
game_part(struct details_run *r, struct rpl_archive_game *g,
          struct rpl_error *err)
{
    struct rpl__details d;

    r->game = rpl__game_find(g->game, strlen(g->game));
    if (!r->game || !rpl__archive_hooks(r->game)->details)
        return RPL_OK; /* a game this library does not know: no details */
    memset(&d, 0, sizeof(d));
    d.a = r;
    d.read = details_read;
    d.quest = details_quest;
    d.fact = details_fact;
    return rpl__archive_hooks(r->game)->details(&d, err);
}

/* Fills g's seats, and through its game the rest, for game gid (g is
 * zeroed but for the columns of game). */
static enum rpl_status
game_details(struct details_run *r, int64_t gid, struct rpl_archive_game *g,
             struct rpl_archive_seat *seats, struct rpl_error *err)
{
    struct rpl_archive *ar = r->ar;
    struct game_strings *gs = r->gs;
    struct rpl__st *st = NULL;
    size_t nseats = 0;
    enum rpl_status rc;
    int src;

    gs->b.len = 0;
    gs->b.failed = false;
    memset(seats, 0, sizeof(*seats) * RPL__AR_NSEATS);
    memset(r->quests, 0, sizeof(*r->quests) * RPL__AR_MAX_QUESTS);
    r->nquests = 0;
    r->nfacts = 0;
    r->gid = gid;
    rc = rpl__ar_stmt(ar, RPL__AR_SEATS_OF, &st, err);
    if (rc != RPL_OK)
        return rc;
    rpl__st_bind_int(st, 1, gid);
    while ((src = rpl__st_step(st)) == RPL__DB_ROW && nseats < RPL__AR_NSEATS) {
        for (int c = 0; c < 4; c++)
            gs->seat[nseats][c] =
                keep(&gs->b, rpl__ar_col_text_or_null(st, c + 1));
        nseats++;
    }
    rpl__ar_done(st);
    if (src != RPL__DB_ROW && src != RPL__DB_DONE)
        return rpl__ar_fail(ar, err, src, "cannot read the seats");
    /* The variants, in the rules line's order, as "a,b". */
    rc = rpl__ar_stmt(ar, RPL__AR_VARIANTS_OF, &st, err);
    if (rc != RPL_OK)
        return rc;
    rpl__st_bind_int(st, 1, gid);
    gs->variants = gs->b.len;
    for (bool first = true; (src = rpl__st_step(st)) == RPL__DB_ROW;
         first = false) {
        if (!first)
            rpl__buf_add(&gs->b, ",", 1);
        rpl__buf_puts(&gs->b, rpl__ar_col_text(st, 0));
    }
    rpl__buf_add(&gs->b, "", 1);
    rpl__ar_done(st);
    if (src != RPL__DB_DONE)
        return rpl__ar_fail(ar, err, src, "cannot read the variants");
    rc = game_part(r, g, err);
    if (rc != RPL_OK)
        return rc;
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
    g->variants = kept(&gs->b, gs->variants);
    for (size_t i = 0; i < r->nquests; i++) {
        r->quests[i].team = kept(&gs->b, gs->quest[i][0]);
        r->quests[i].result = kept(&gs->b, gs->quest[i][1]);
        r->quests[i].failed = kept(&gs->b, gs->quest[i][2]);
    }
    /* A damaged index may hold fewer seats than players. */
    if (g->players > nseats)
        g->players = nseats;
    g->seats = seats;
    g->nquests = r->nquests;
    g->quests = r->quests;
    g->nfacts = r->nfacts;
    g->facts = r->facts;
    return RPL_OK;
}

/* Whether group is one of the fact groups of a game before game k of
 * the registry. */
static bool
is_group_before(size_t k, const char *group)
{
    for (size_t j = 0; j < k; j++) {
        const char *const *fg =
            rpl__archive_hooks(rpl__game_at(j))->fact_groups;

        for (size_t i = 0; fg && fg[i]; i++)
            if (strcmp(fg[i], group) == 0)
                return true;
    }
    return false;
}

const char *
rpl_archive_fact_group(size_t i)
{
    const struct rpl__game *game;

    for (size_t k = 0; (game = rpl__game_at(k)); k++) {
        const char *const *fg = rpl__archive_hooks(game)->fact_groups;

        for (size_t j = 0; fg && fg[j]; j++) {
            if (is_group_before(k, fg[j]))
                continue;
            if (i == 0)
                return fg[j];
            i--;
        }
    }
    return NULL;
}

enum rpl_status
rpl_archive_query(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  bool (*each)(void *ud, const struct rpl_archive_game *g),
                  void *ud, struct rpl_error *err)
{
    static const char head[] =
        "SELECT g.gid, g.game, g.id, g.seal, g.created, g.rules, "
        "g.dealer, g.winner, g.reason, g.progress, g.imported, g.players, "
        "g.proposals, g.lines, g.source, g.source_id FROM main.game g";
    struct rpl_archive_seat *seats = NULL;
    struct rpl_archive_quest *quests = NULL;
    struct game_strings *gs = NULL;
    struct details_run *dr = NULL;
    struct rpl__st *st = NULL;
    enum rpl_status rc;
    int src;

    rpl__err_clear(err);
    rc = rpl_archive_check_filter(f, err);
    if (rc != RPL_OK)
        return rc;
    seats = rpl__calloc(ar->ctx, RPL__AR_NSEATS, sizeof(*seats));
    quests = rpl__calloc(ar->ctx, RPL__AR_MAX_QUESTS, sizeof(*quests));
    gs = rpl__calloc(ar->ctx, 1, sizeof(*gs));
    dr = rpl__calloc(ar->ctx, 1, sizeof(*dr));
    if (!seats || !quests || !gs || !dr) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    rpl__buf_init(&gs->b, ar->ctx);
    dr->ar = ar;
    dr->gs = gs;
    dr->quests = quests;
    rc = rpl__ar_prepare_filtered(ar, head, f, " ORDER BY g.gid", &st, err);
    if (rc != RPL_OK)
        goto out;
    while ((src = rpl__st_step(st)) == RPL__DB_ROW) {
        struct rpl_archive_game g;
        char seal[65];

        memset(&g, 0, sizeof(g));
        rpl__ar_col_hex32(st, 3, seal);
        g.game = rpl__ar_col_text(st, 1);
        g.id = rpl__ar_col_text(st, 2);
        g.seal = seal;
        g.created = rpl__ar_col_text_or_null(st, 4);
        g.rules = rpl__ar_col_text(st, 5);
        g.dealer = rpl__ar_col_text(st, 6);
        g.winner = rpl__ar_col_text_or_null(st, 7);
        g.reason = rpl__ar_col_text_or_null(st, 8);
        g.progress = progress_of(rpl__ar_col_text(st, 9));
        g.is_imported = rpl__st_int(st, 10) != 0;
        g.players = rpl__ar_col_uint(st, 11);
        g.proposals = rpl__ar_col_uint(st, 12);
        g.lines = rpl__ar_col_uint(st, 13);
        g.source = rpl__ar_col_text_or_null(st, 14);
        g.source_id = rpl__ar_col_text_or_null(st, 15);
        rc = game_details(dr, rpl__st_int(st, 0), &g, seats, err);
        if (rc != RPL_OK || !each(ud, &g))
            break;
    }
    if (rc == RPL_OK && src != RPL__DB_ROW && src != RPL__DB_DONE)
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
out:
    rpl__st_finalize(st);
    rpl__free(ar->ctx, dr);
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
    struct rpl__st *st = NULL;
    enum rpl_status rc;
    int src;

    rpl__err_clear(err);
    if (strlen(id) != 32 || !is_hex_prefix(id, 32))
        return rpl__err(err, RPL_E_ARG, 0,
                        "a game id is 32 lowercase hex digits");
    if (!rpl__tok_hex(&t, hash, sizeof(hash)))
        return rpl__err(err, RPL_E_ARG, 0,
                        "a seal hash is 64 lowercase hex digits");
    rc = rpl__ar_stmt(ar, RPL__AR_EXPORT, &st, err);
    if (rc != RPL_OK)
        return rc;
    rpl__ar_bind_text(st, 1, id);
    rpl__st_bind_blob(st, 2, hash, sizeof(hash));
    src = rpl__st_step(st);
    if (src == RPL__DB_ROW) {
        size_t n = 0;
        const void *gz = rpl__st_blob(st, 0, &n);

        rc = rpl__file_write_atomic(path, gz, n, 0644, force, err);
    } else if (src == RPL__DB_DONE) {
        rc = rpl__err(err, RPL_E_ARG, 0,
                      "no log of game %s with seal %.16s "
                      "in the archive",
                      id, seal);
    } else {
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
    }
    rpl__ar_done(st);
    return rc;
}
