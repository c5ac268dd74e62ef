/*
 * stats.c - the reading side of Shadows over Camelot in the archive: its
 * statistics (the "soc" object of camelog-archive(1), its text section
 * and its chart) and its names for the sides in the filter --side, from
 * the rows index.c wrote.  The archive prepares the constant statements
 * below and hands their rows back (struct rpl__stats, games/game.h); sel
 * holds the selected games of Shadows over Camelot.  Its knights are not
 * Avalon's good side: every figure here counts its own games only.
 */
#include <string.h>

#include "soc.h"

enum { Q_TOTALS, Q_ACCUSATIONS, Q_REASONS, Q_PLAYERS, Q_QUESTS, Q_RECORDS, NQ };
_Static_assert(NQ == SOC_NSTATS_SQL, "soc.h counts the statements");

const char *const rpl__soc_stats_sql[SOC_NSTATS_SQL] = {
    "SELECT count(*), coalesce(sum(g.winner = 'knights'), 0), "
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

    "SELECT count(*), coalesce(sum(a.shown = 'traitor'), 0), "
    "coalesce(sum(a.shown = 'loyal'), 0) "
    "FROM main.soc_accusation a JOIN sel USING (gid)",

    "SELECT g.winner, g.reason, count(*) FROM main.game g "
    "JOIN sel USING (gid) WHERE g.reason IS NOT NULL "
    "GROUP BY g.winner, g.reason ORDER BY count(*) DESC, g.winner, g.reason",

    "SELECT g.players, count(*), coalesce(sum(g.winner = 'knights'), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), coalesce(sum(x.traitor > 0), 0) "
    "FROM main.game g JOIN sel USING (gid) "
    "JOIN main.soc_game x ON x.gid = g.gid GROUP BY g.players "
    "ORDER BY g.players",

    "SELECT q.quest, coalesce(sum(q.result = 'won'), 0), "
    "coalesce(sum(q.result = 'lost'), 0) "
    "FROM main.soc_quest q JOIN sel USING (gid) GROUP BY q.quest "
    "ORDER BY count(*) DESC, q.quest",

    /* seat.side is "good" for a loyal knight, "evil" for the traitor */
    "SELECT s.name, count(*), count(s.side), coalesce(sum(s.won), 0), "
    "count(s.won), coalesce(sum(s.side = 'good'), 0), "
    "coalesce(sum(s.side = 'good' AND s.won), 0), "
    "coalesce(sum(s.side = 'evil'), 0), "
    "coalesce(sum(s.side = 'evil' AND s.won), 0) "
    "FROM main.seat_result s JOIN sel USING (gid) "
    "GROUP BY s.name ORDER BY count(*) DESC, s.name",
};

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

static json_t *
jstr(const char *s)
{
    return rpl__jtext(s);
}

#define COL(i)  s->rows.count(s->rows.a, (i))
#define TEXT(i) jstr(s->rows.text(s->rows.a, (i)))
#define N(v)    rpl__jcount(v)

/* json_pack() with "o" steals each value, also when it fails. */
static json_t *
reason_row(const struct rpl__stats *s)
{
    return json_pack("{s:o,s:o,s:o}", "winner", TEXT(0), "reason", TEXT(1),
                     "games", N(COL(2)));
}

static json_t *
players_row(const struct rpl__stats *s)
{
    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "players", N(COL(0)), "games",
                     N(COL(1)), "knights", N(COL(2)), "evil", N(COL(3)),
                     "traitor_dealt", N(COL(4)), "knights_rate",
                     rpl__jrate(COL(2), COL(2) + COL(3)));
}

static json_t *
quest_row(const struct rpl__stats *s)
{
    return json_pack("{s:o,s:o,s:o,s:o}", "quest", TEXT(0), "won", N(COL(1)),
                     "lost", N(COL(2)), "won_rate",
                     rpl__jrate(COL(1), COL(1) + COL(2)));
}

static json_t *
record_row(const struct rpl__stats *s)
{
    const uint64_t wins = COL(3), decided = COL(4);

    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "name",
                     TEXT(0), "games", N(COL(1)), "revealed", N(COL(2)), "wins",
                     N(wins), "losses", N(decided >= wins ? decided - wins : 0),
                     "win_rate", rpl__jrate(wins, decided), "loyal", N(COL(5)),
                     "loyal_wins", N(COL(6)), "traitor", N(COL(7)),
                     "traitor_wins", N(COL(8)));
}

/* Reads the one row of query q into v[0..n). */
static enum rpl_status
one_row(const struct rpl__stats *s, size_t q, uint64_t *v, int n,
        struct rpl_error *err)
{
    bool has_row = false;
    enum rpl_status rc;

    memset(v, 0, sizeof(*v) * (size_t)n);
    rc = s->rows.step(s->rows.a, q, &has_row, err);
    for (int i = 0; rc == RPL_OK && has_row && i < n; i++)
        v[i] = COL(i);
    while (rc == RPL_OK && has_row)
        rc = s->rows.step(s->rows.a, q, &has_row, err);
    return rc;
}

static enum rpl_status
rows_array(const struct rpl__stats *s, size_t q, const char *key,
           json_t *(*one)(const struct rpl__stats *s), struct rpl_error *err)
{
    json_t *a = json_array();
    bool has_row = false;
    enum rpl_status rc;

    while ((rc = s->rows.step(s->rows.a, q, &has_row, err)) == RPL_OK &&
           has_row)
        rpl__japp(s->jb, a, one(s));
    rpl__jset(s->jb, s->json, key, a);
    return rc;
}

static enum rpl_status
heads(const struct rpl__stats *s, uint64_t *ended, struct rpl_error *err)
{
    uint64_t v[13], acc[3];
    enum rpl_status rc;

    rc = one_row(s, Q_TOTALS, v, 13, err);
    if (rc == RPL_OK)
        rc = one_row(s, Q_ACCUSATIONS, acc, 3, err);
    if (rc != RPL_OK)
        return rc;
    *ended = v[4];
    rpl__jset(s->jb, s->json, "games", N(v[0]));
    rpl__jset(s->jb, s->json, "knights", N(v[1]));
    rpl__jset(s->jb, s->json, "evil", N(v[2]));
    rpl__jset(s->jb, s->json, "aborted", N(v[3]));
    rpl__jset(s->jb, s->json, "knights_rate", rpl__jrate(v[1], v[1] + v[2]));
    rpl__jset(s->jb, s->json, "traitor",
              json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "dealt", N(v[5]),
                        "none", N(v[6]), "unknown", N(v[7]), "accusation",
                        N(v[8]), "fate", N(v[9]), "last", N(v[10]), "flip",
                        N(v[11]), "never", N(v[12])));
    rpl__jset(s->jb, s->json, "accusations",
              json_pack("{s:o,s:o,s:o,s:o}", "made", N(acc[0]), "right",
                        N(acc[1]), "wrong", N(acc[2]), "right_rate",
                        rpl__jrate(acc[1], acc[0])));
    return RPL_OK;
}

#undef COL
#undef TEXT
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

enum rpl_status
rpl__soc_stats(const struct rpl__stats *s, struct rpl_error *err)
{
    uint64_t ended = 0;
    enum rpl_status rc;
    json_t *e;
    size_t i;

    rc = heads(s, &ended, err);
    if (rc == RPL_OK)
        rc = rows_array(s, Q_REASONS, "reasons", reason_row, err);
    /* A reason's share is over the games that ended. */
    json_array_foreach(json_object_get(s->json, "reasons"), i, e) rpl__jset(
        s->jb, e, "share", rpl__jrate(rpl__stats_uint(e, "games"), ended));
    if (rc == RPL_OK)
        rc = rows_array(s, Q_PLAYERS, "by_players", players_row, err);
    if (rc == RPL_OK)
        rc = rows_array(s, Q_QUESTS, "quests", quest_row, err);
    if (rc == RPL_OK)
        rc = s->records(s, Q_RECORDS, record_row, err);
    if (rc != RPL_OK)
        return rc;
    if (s->format == RPL__STATS_TEXT && s->out)
        write_text(s->json, s->out);
    else if (s->format == RPL__STATS_SVG)
        rpl__stats_chart(s, "Shadows over Camelot: win rate by player count",
                         "evil", "knights");
    return RPL_OK;
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
