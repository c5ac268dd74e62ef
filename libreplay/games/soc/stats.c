/*
 * stats.c - the reading side of Shadows over Camelot in the archive: its
 * statistics (the "soc" object of camelog-archive(1), its text section
 * and its chart) and its names for the sides in the filter --side, from
 * the rows index.c wrote, which the archive reads back as data (struct
 * rpl__read) and the statistics count in C, one game at a time, over
 * the selected games of Shadows over Camelot (struct rpl__stats,
 * games/game.h).  Its knights are not Avalon's good side: every figure
 * here counts its own games only.
 */
#include <string.h>

#include "soc.h"

/* The statistics count these rows of each selected game, read in this
 * order (the game's row first). */
enum { R_GAME, R_SOC_GAME, R_ACCUSATIONS, R_QUESTS, R_SEATS, NR };

static const struct rpl__col game_cols[] = {
    {"players", RPL__CELL_INT},
    {"winner", RPL__CELL_TEXT},
    {"reason", RPL__CELL_TEXT},
};
static const struct rpl__col soc_game_cols[] = {
    {"traitor", RPL__CELL_INT},
    {"revealed", RPL__CELL_TEXT},
};
static const struct rpl__col accusation_cols[] = {{"shown", RPL__CELL_TEXT}};
static const struct rpl__col quest_cols[] = {
    {"quest", RPL__CELL_TEXT},
    {"result", RPL__CELL_TEXT},
};
/* seat.side is "good" for a loyal knight, "evil" for the traitor */
static const struct rpl__col seat_cols[] = {
    {"name", RPL__CELL_TEXT},
    {"side", RPL__CELL_TEXT},
};
static const char *const by_line[] = {"line", NULL};
static const char *const by_n[] = {"n", NULL};
static const char *const by_seat[] = {"seat", NULL};

static const struct rpl__read stats_reads[NR] = {
    {"game", game_cols, RPL__NCOLS(game_cols), NULL},
    {"soc_game", soc_game_cols, RPL__NCOLS(soc_game_cols), NULL},
    {"soc_accusation", accusation_cols, RPL__NCOLS(accusation_cols), by_line},
    {"soc_quest", quest_cols, RPL__NCOLS(quest_cols), by_n},
    {"seat", seat_cols, RPL__NCOLS(seat_cols), by_seat},
};

/* The totals of the games that have their row of soc_game. */
enum {
    T_GAMES,
    T_KNIGHTS,
    T_EVIL,
    T_ABORTED,
    T_ENDED, /* a reason */
    T_DEALT, /* a traitor dealt */
    T_NONE,  /* nobody dealt the traitor */
    T_UNKNOWN,
    T_ACCUSATION, /* how the traitor came out */
    T_FATE,
    T_LAST,
    T_FLIP,
    T_NEVER,
    NT
};
static const char *const revealed_name[] = {"accusation", "fate", "last",
                                            "flip", "never"};

/* The accusations. */
enum { A_MADE, A_RIGHT, A_WRONG, NA };

/* The v[] of a group of players (by player count), of quests. */
enum { P_GAMES, P_KNIGHTS, P_EVIL, P_DEALT };
enum { Q_PLAYED, Q_WON, Q_LOST };

/* The figures, as the games go by; of the game being read, its row of
 * game and of soc_game. */
struct soc_stats {
    uint64_t total[NT], acc[NA];
    struct rpl__groups reasons, players, quests, records;
    int64_t n, traitor;
    const char *winning_side;
    bool knights, evil, aborted, ended, has_soc_game, has_traitor;
    int revealed; /* the index of revealed_name, -1 for none */
};

static bool
is(const char *s, const char *t)
{
    return s && strcmp(s, t) == 0;
}

static enum rpl_status
game_row(struct soc_stats *x, const struct rpl__cell *c, struct rpl_error *err)
{
    const char *winner = rpl__cell_s(&c[1]), *reason = rpl__cell_s(&c[2]);

    x->n = rpl__cell_i(&c[0]);
    x->knights = is(winner, "knights");
    x->evil = is(winner, "evil");
    x->aborted = is(winner, "aborted");
    x->ended = !!reason;
    x->winning_side = rpl__winning_side(winner);
    return rpl__stats_reason(&x->reasons, winner, reason, err);
}

static void
soc_game_row(struct soc_stats *x, const struct rpl__cell *c)
{
    const char *revealed = rpl__cell_s(&c[1]);

    x->has_soc_game = true;
    x->has_traitor = c[0].kind == RPL__CELL_INT;
    x->traitor = rpl__cell_i(&c[0]);
    x->revealed = -1;
    for (size_t i = 0; i < RPL__NCOLS(revealed_name); i++)
        if (is(revealed, revealed_name[i]))
            x->revealed = (int)i;
}

static enum rpl_status
quest_row(struct soc_stats *x, const struct rpl__cell *c, struct rpl_error *err)
{
    const char *result = rpl__cell_s(&c[1]);
    struct rpl__group *g =
        rpl__group_get(&x->quests, rpl__cell_s(&c[0]), NULL, 0, err);

    if (!g)
        return RPL_E_NOMEM;
    g->v[Q_PLAYED]++;
    g->v[Q_WON] += is(result, "won");
    g->v[Q_LOST] += is(result, "lost");
    return RPL_OK;
}

static enum rpl_status
stats_row(void *ud, size_t q, const struct rpl__cell *c, size_t n,
          struct rpl_error *err)
{
    struct soc_stats *x = ud;

    (void)n;
    switch (q) {
    case R_GAME:
        return game_row(x, c, err);
    case R_SOC_GAME:
        soc_game_row(x, c);
        return RPL_OK;
    case R_ACCUSATIONS:
        x->acc[A_MADE]++;
        x->acc[A_RIGHT] += is(rpl__cell_s(&c[0]), "traitor");
        x->acc[A_WRONG] += is(rpl__cell_s(&c[0]), "loyal");
        return RPL_OK;
    case R_QUESTS:
        return quest_row(x, c, err);
    default:
        return rpl__stats_record(&x->records, rpl__cell_s(&c[0]),
                                 rpl__cell_s(&c[1]), x->winning_side, err);
    }
}

/* The totals and player counts count the games with their row of
 * soc_game. */
static enum rpl_status
stats_end(void *ud, struct rpl_error *err)
{
    struct soc_stats *x = ud;
    const bool dealt = x->has_traitor && x->traitor > 0;
    struct rpl__group *g = NULL;

    if (x->has_soc_game) {
        x->total[T_GAMES]++;
        x->total[T_KNIGHTS] += x->knights;
        x->total[T_EVIL] += x->evil;
        x->total[T_ABORTED] += x->aborted;
        x->total[T_ENDED] += x->ended;
        x->total[T_DEALT] += dealt;
        x->total[T_NONE] += x->has_traitor && x->traitor == 0;
        x->total[T_UNKNOWN] += !x->has_traitor;
        if (x->revealed >= 0)
            x->total[T_ACCUSATION + x->revealed]++;
        g = rpl__group_get(&x->players, NULL, NULL, x->n, err);
        if (!g)
            return RPL_E_NOMEM;
        g->v[P_GAMES]++;
        g->v[P_KNIGHTS] += x->knights;
        g->v[P_EVIL] += x->evil;
        g->v[P_DEALT] += dealt;
    }
    x->n = x->traitor = 0;
    x->winning_side = NULL;
    x->knights = x->evil = x->aborted = x->ended = false;
    x->has_soc_game = x->has_traitor = false;
    x->revealed = -1;
    return RPL_OK;
}

/* The loyalty cards name the sides of the common rows. */
const char *
rpl__soc_side_of(const char *name)
{
    if (strcmp(name, "loyal") == 0)
        return "good";
    if (strcmp(name, "traitor") == 0)
        return "evil";
    return NULL;
}

#define N(v) rpl__jcount(v)

static uint64_t
n_of(const struct rpl__group *g)
{
    return g->n < 0 ? 0 : (uint64_t)g->n;
}

/* json_pack() with "o" steals each value, also when it fails. */
static json_t *
reason_one(const struct rpl__group *g)
{
    return json_pack("{s:o,s:o,s:o}", "winner", rpl__jtext(g->k[0]), "reason",
                     rpl__jtext(g->k[1]), "games", N(g->v[0]));
}

static json_t *
players_one(const struct rpl__group *g)
{
    const uint64_t *v = g->v;

    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "players", N(n_of(g)),
                     "games", N(v[P_GAMES]), "knights", N(v[P_KNIGHTS]), "evil",
                     N(v[P_EVIL]), "traitor_dealt", N(v[P_DEALT]),
                     "knights_rate",
                     rpl__jrate(v[P_KNIGHTS], v[P_KNIGHTS] + v[P_EVIL]));
}

static json_t *
quest_one(const struct rpl__group *g)
{
    const uint64_t *v = g->v;

    return json_pack("{s:o,s:o,s:o,s:o}", "quest", rpl__jtext(g->k[0]), "won",
                     N(v[Q_WON]), "lost", N(v[Q_LOST]), "won_rate",
                     rpl__jrate(v[Q_WON], v[Q_WON] + v[Q_LOST]));
}

static json_t *
record_one(const struct rpl__group *g)
{
    return rpl__stats_record_json(g, "loyal", "traitor");
}

/* Sorts gs as order and sets json[key] to the array of one() of each. */
static void
groups_array(const struct rpl__stats *s, struct rpl__groups *gs,
             enum rpl__group_order order, const char *key,
             json_t *(*one)(const struct rpl__group *g))
{
    json_t *a = json_array();

    rpl__groups_sort(gs, order);
    for (size_t i = 0; i < gs->n; i++)
        rpl__japp(s->jb, a, one(gs->g[i]));
    rpl__jset(s->jb, s->json, key, a);
}

static void
heads(const struct rpl__stats *s, const uint64_t *v, const uint64_t *acc)
{
    rpl__jset(s->jb, s->json, "games", N(v[T_GAMES]));
    rpl__jset(s->jb, s->json, "knights", N(v[T_KNIGHTS]));
    rpl__jset(s->jb, s->json, "evil", N(v[T_EVIL]));
    rpl__jset(s->jb, s->json, "aborted", N(v[T_ABORTED]));
    rpl__jset(s->jb, s->json, "knights_rate",
              rpl__jrate(v[T_KNIGHTS], v[T_KNIGHTS] + v[T_EVIL]));
    rpl__jset(s->jb, s->json, "traitor",
              json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "dealt",
                        N(v[T_DEALT]), "none", N(v[T_NONE]), "unknown",
                        N(v[T_UNKNOWN]), "accusation", N(v[T_ACCUSATION]),
                        "fate", N(v[T_FATE]), "last", N(v[T_LAST]), "flip",
                        N(v[T_FLIP]), "never", N(v[T_NEVER])));
    rpl__jset(s->jb, s->json, "accusations",
              json_pack("{s:o,s:o,s:o,s:o}", "made", N(acc[A_MADE]), "right",
                        N(acc[A_RIGHT]), "wrong", N(acc[A_WRONG]), "right_rate",
                        rpl__jrate(acc[A_RIGHT], acc[A_MADE])));
}

#undef N

/* The text section, from the object. */
static void
write_text(const json_t *o, struct rpl__buf *b)
{
    const json_t *t = json_object_get(o, "traitor");
    const json_t *acc = json_object_get(o, "accusations");
    const uint64_t knights = rpl__stats_uint(o, "knights"),
                   evil = rpl__stats_uint(o, "evil");
    char p1[32], p2[32], t1[512];
    const json_t *a, *e;
    size_t i;

    rpl__buf_printf(b, "\nsoc: %llu games\n",
                    (unsigned long long)rpl__stats_uint(o, "games"));
    rpl__buf_printf(b,
                    "wins: knights %llu (%s), evil %llu (%s), aborted %llu\n",
                    (unsigned long long)knights,
                    rpl__percent(p1, sizeof(p1), knights, knights + evil),
                    (unsigned long long)evil,
                    rpl__percent(p2, sizeof(p2), evil, knights + evil),
                    (unsigned long long)rpl__stats_uint(o, "aborted"));
    rpl__buf_printf(
        b,
        "traitor: dealt in %llu, none in %llu, unknown in %llu; came out "
        "by accusation %llu, fate %llu, last %llu, flip %llu, never %llu\n",
        (unsigned long long)rpl__stats_uint(t, "dealt"),
        (unsigned long long)rpl__stats_uint(t, "none"),
        (unsigned long long)rpl__stats_uint(t, "unknown"),
        (unsigned long long)rpl__stats_uint(t, "accusation"),
        (unsigned long long)rpl__stats_uint(t, "fate"),
        (unsigned long long)rpl__stats_uint(t, "last"),
        (unsigned long long)rpl__stats_uint(t, "flip"),
        (unsigned long long)rpl__stats_uint(t, "never"));
    rpl__buf_printf(b, "accusations: %llu right in %llu (%s)\n",
                    (unsigned long long)rpl__stats_uint(acc, "right"),
                    (unsigned long long)rpl__stats_uint(acc, "made"),
                    rpl__percent(p1, sizeof(p1), rpl__stats_uint(acc, "right"),
                                 rpl__stats_uint(acc, "made")));
    rpl__stats_reasons_text(o, b);
    a = json_object_get(o, "by_players");
    if (json_array_size(a) > 0) {
        rpl__buf_puts(b, "\nby player count:\n");
        rpl__buf_printf(b, "  %7s %6s %7s %6s %12s %13s\n", "players", "games",
                        "knights", "evil", "knights wins", "traitor dealt");
        json_array_foreach(a, i, e)
        {
            const uint64_t k = rpl__stats_uint(e, "knights"),
                           v = rpl__stats_uint(e, "evil");

            rpl__buf_printf(
                b, "  %7llu %6llu %7llu %6llu %12s %13llu\n",
                (unsigned long long)rpl__stats_uint(e, "players"),
                (unsigned long long)rpl__stats_uint(e, "games"),
                (unsigned long long)k, (unsigned long long)v,
                rpl__percent(p1, sizeof(p1), k, k + v),
                (unsigned long long)rpl__stats_uint(e, "traitor_dealt"));
        }
    }
    a = json_object_get(o, "quests");
    if (json_array_size(a) > 0) {
        rpl__buf_puts(b, "\nquests (most played first):\n");
        rpl__buf_printf(b, "  %-14s %6s %6s %6s\n", "quest", "won", "lost",
                        "won");
        json_array_foreach(a, i, e)
        {
            rpl__buf_printf(b, "  %-14s %6llu %6llu %6s\n",
                            rpl__stats_text(e, "quest", t1, sizeof(t1)),
                            (unsigned long long)rpl__stats_uint(e, "won"),
                            (unsigned long long)rpl__stats_uint(e, "lost"),
                            rpl__percent(p1, sizeof(p1),
                                         rpl__stats_uint(e, "won"),
                                         rpl__stats_uint(e, "won") +
                                             rpl__stats_uint(e, "lost")));
        }
    }
    rpl__stats_records_text(o, "loyal", "traitor", b);
}

static void
release(struct soc_stats *x)
{
    rpl__groups_release(&x->reasons);
    rpl__groups_release(&x->players);
    rpl__groups_release(&x->quests);
    rpl__groups_release(&x->records);
}

enum rpl_status
rpl__soc_stats(const struct rpl__stats *s, struct rpl_error *err)
{
    struct soc_stats *x = rpl__calloc(s->ctx, 1, sizeof(*x));
    struct rpl__scan sc;
    enum rpl_status rc;
    json_t *e;
    size_t i;

    if (!x)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    x->reasons.ctx = x->players.ctx = x->quests.ctx = x->records.ctx = s->ctx;
    x->revealed = -1;
    sc.reads = stats_reads;
    sc.nreads = NR;
    sc.row = stats_row;
    sc.end = stats_end;
    sc.ud = x;
    rc = s->scan(s->a, &sc, err);
    if (rc != RPL_OK)
        goto out;
    heads(s, x->total, x->acc);
    groups_array(s, &x->reasons, RPL__BY_COUNT, "reasons", reason_one);
    /* A reason's share is over the games that ended. */
    json_array_foreach(json_object_get(s->json, "reasons"), i, e)
        rpl__jset(s->jb, e, "share",
                  rpl__jrate(rpl__stats_uint(e, "games"), x->total[T_ENDED]));
    groups_array(s, &x->players, RPL__BY_N, "by_players", players_one);
    groups_array(s, &x->quests, RPL__BY_COUNT, "quests", quest_one);
    rpl__groups_sort(&x->records, RPL__BY_COUNT);
    s->records(s, &x->records, record_one);
    if (s->format == RPL__STATS_TEXT && s->out)
        write_text(s->json, s->out);
    else if (s->format == RPL__STATS_SVG)
        rpl__stats_chart(s, "Shadows over Camelot: win rate by player count",
                         "evil", "knights");
out:
    release(x);
    rpl__free(s->ctx, x);
    return rc;
}

/* ------------------------------------------------------------- audit */

/* The deal audit (struct rpl__audit, games/game.h).  The seven knights
 * are shuffled and dealt to the seats in order, King Arthur plays first
 * (a seat drawn at random when nobody is Arthur), and the traitor's card
 * is one of eight loyalty cards of which each seat takes one.  What a
 * game shows of the loyalty cards before its reveal depends on play (an
 * accusation), so the traitor's tables count complete logs only. */
static const struct rpl__col traitor_cols[] = {{"traitor", RPL__CELL_INT}};
/* The traitor's seat, as the extra of struct rpl__audit_game. */
static const struct rpl__read traitor_read = {"soc_game", traitor_cols, 1,
                                              NULL};

static void
seat_key(char *out, size_t cap, int64_t seat)
{
    snprintf(out, cap, "%020lld", (long long)seat);
}

/* Adds a cell per seat of the game to stratum (skey, stratum), counting
 * the seat `hit` as observed. */
static enum rpl_status
seat_cells(struct rpl__audit_game *x, const char *skey, const char *stratum,
           int64_t hit, struct rpl_error *err)
{
    for (size_t i = 0; i < x->nseats; i++) {
        char ckey[32], label[32];
        struct rpl__tally_entry *e;

        seat_key(ckey, sizeof(ckey), x->seat[i].seat);
        snprintf(label, sizeof(label), "p%lld", (long long)x->seat[i].seat);
        e = rpl__tally_get(&x->t, skey, ckey, stratum, label, x->players, 1,
                           err);
        if (!e)
            return RPL_E_NOMEM;
        e->count++;
        if (x->seat[i].seat == hit)
            e->observed++;
    }
    return RPL_OK;
}

/* The stratum of a player count alone. */
static enum rpl_status
players_cells(struct rpl__audit_game *x, int64_t hit, struct rpl_error *err)
{
    char skey[32], stratum[64];

    snprintf(skey, sizeof(skey), "%020lld", (long long)x->players);
    snprintf(stratum, sizeof(stratum), "%lld players", (long long)x->players);
    return seat_cells(x, skey, stratum, hit, err);
}

/* A cell expected count / n times. */
static void
one_in_n_cell(const struct rpl__audit_game *x, const struct rpl__tally_entry *e,
              double *expected, double *factor, uint64_t *games)
{
    (void)x;
    (void)factor;
    (void)games;
    *expected = e->a == 0 ? 0.0 : (double)e->count * 1.0 / (double)e->a;
}

/* A cell expected its sum, of games the count of its stratum's entry
 * (name, "") when there is one. */
static void
sum_cell(const struct rpl__audit_game *x, const struct rpl__tally_entry *e,
         double *expected, double *factor, uint64_t *games)
{
    const struct rpl__tally_entry *n = rpl__tally_find(&x->t, e->stratum, "");

    (void)factor;
    *expected = e->sum;
    if (n)
        *games = n->count;
}

static bool
is_complete(const struct rpl__audit_game *x)
{
    return strcmp(x->progress, "complete") == 0;
}

/* knight_seat: stratum (players, knight), a cell per seat. */
static enum rpl_status
knight_seat_game(struct rpl__audit_game *x, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    for (size_t k = 0; rc == RPL_OK && k < x->nseats; k++) {
        char skey[128], stratum[160];

        if (!x->seat[k].has_role)
            continue;
        snprintf(skey, sizeof(skey), "%020lld\001%s", (long long)x->players,
                 x->seat[k].role);
        snprintf(stratum, sizeof(stratum), "%s, %lld players", x->seat[k].role,
                 (long long)x->players);
        rc = seat_cells(x, skey, stratum, x->seat[k].seat, err);
    }
    return rc;
}

static enum rpl_status
knight_seat(const struct rpl__audit_run *r, struct rpl_error *err)
{
    return rpl__audit_scan(r, NULL, knight_seat_game, one_in_n_cell, err);
}

/* traitor_seat: complete logs where a seat was dealt the traitor. */
static enum rpl_status
traitor_seat_game(struct rpl__audit_game *x, struct rpl_error *err)
{
    if (!x->has_extra || x->extra <= 0 || !is_complete(x))
        return RPL_OK;
    return players_cells(x, x->extra, err);
}

static enum rpl_status
traitor_seat(const struct rpl__audit_run *r, struct rpl_error *err)
{
    return rpl__audit_scan(r, &traitor_read, traitor_seat_game, one_in_n_cell,
                           err);
}

/* leader_seat: games without King Arthur. */
static enum rpl_status
leader_seat_game(struct rpl__audit_game *x, struct rpl_error *err)
{
    if (x->leader <= 0)
        return RPL_OK;
    for (size_t i = 0; i < x->nseats; i++)
        if (x->seat[i].has_role && strcmp(x->seat[i].role, "arthur") == 0)
            return RPL_OK;
    return players_cells(x, x->leader, err);
}

static enum rpl_status
leader_seat(const struct rpl__audit_run *r, struct rpl_error *err)
{
    return rpl__audit_scan(r, NULL, leader_seat_game, one_in_n_cell, err);
}

/* knight_player: stratum the player's name, a cell per knight of the
 * game; the player's seats with a knight are counted under (name, ""),
 * no cell (a -1). */
static enum rpl_status
knight_player_game(struct rpl__audit_game *x, struct rpl_error *err)
{
    for (size_t i = 0; i < x->nseats; i++) {
        const struct rpl__seat_row *s = &x->seat[i];
        struct rpl__tally_entry *e;

        if (!s->has_role)
            continue;
        e = rpl__tally_get(&x->t, s->name, "", "", "", -1, 0, err);
        if (!e)
            return RPL_E_NOMEM;
        e->count++;
        for (size_t k = 0; k < x->nseats; k++) {
            const struct rpl__seat_row *c = &x->seat[k];

            if (!c->has_role)
                continue;
            e = rpl__tally_get(&x->t, s->name, c->role, s->name, c->role, 0, 0,
                               err);
            if (!e)
                return RPL_E_NOMEM;
            e->count++;
            if (x->players != 0)
                e->sum += 1.0 / (double)x->players;
            if (strcmp(s->role, c->role) == 0)
                e->observed++;
        }
    }
    return RPL_OK;
}

static enum rpl_status
knight_player(const struct rpl__audit_run *r, struct rpl_error *err)
{
    return rpl__audit_scan(r, NULL, knight_player_game, sum_cell, err);
}

/* traitor_player: stratum the player's name, cells "evil" and "good". */
static enum rpl_status
traitor_player_game(struct rpl__audit_game *x, struct rpl_error *err)
{
    static const char *const v[2] = {"good", "evil"};

    if (!x->has_extra || !is_complete(x))
        return RPL_OK;
    for (size_t i = 0; i < x->nseats; i++) {
        const struct rpl__seat_row *s = &x->seat[i];

        for (size_t k = 0; k < 2; k++) {
            struct rpl__tally_entry *e =
                rpl__tally_get(&x->t, s->name, v[k], s->name, v[k], 0, 0, err);
            double t;

            if (!e)
                return RPL_E_NOMEM;
            e->count++;
            if (s->has_side && strcmp(s->side, v[k]) == 0)
                e->observed++;
            if (x->players == 0)
                continue;
            t = (x->extra > 0 ? 1.0 : 0.0) / (double)x->players;
            e->sum += k == 1 ? t : 1.0 - t;
        }
    }
    return RPL_OK;
}

static enum rpl_status
traitor_player(const struct rpl__audit_run *r, struct rpl_error *err)
{
    return rpl__audit_scan(r, &traitor_read, traitor_player_game, sum_cell,
                           err);
}

const struct rpl__audit rpl__soc_audit[SOC_NAUDIT] = {
    {"knight_seat", "each knight's seat, per player count", knight_seat, NULL},
    {"traitor_seat", "the traitor's seat, per player count", traitor_seat,
     "complete logs where a seat was dealt the traitor's card"},
    {"leader_seat", "the first player's seat, per player count", leader_seat,
     "games without King Arthur only: he plays first, so the knights' "
     "table tests the others"},
    {"knight_player", "each player's knights", knight_player,
     "a player's expected count of a knight is 1 / n for each game of n "
     "players where that knight was dealt; players whose cells expect "
     "fewer than 5 even pooled are not tested"},
    {"traitor_player", "each player's loyalty cards", traitor_player,
     "the traitor's card where one was dealt, given the games each player "
     "sat in; complete logs only"},
};
