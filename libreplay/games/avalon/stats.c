/*
 * stats.c - Avalon's half of the archive's reading side: its statistics
 * (the "avalon" object of camelog-archive(1), its text section and its
 * chart) and the quests and assassination of struct rpl_archive_game,
 * from the rows index.c wrote.  The archive prepares the constant
 * statements below and hands their rows back (struct rpl__stats and
 * struct rpl__details, games/game.h); sel holds the selected Avalon
 * games.
 */
#include <string.h>

#include "avalon.h"

enum { Q_TOTALS, Q_REASONS, Q_PLAYERS, Q_ROLE_SETS, Q_ROLES, Q_RECORDS, NQ };
_Static_assert(NQ == AV_NSTATS_SQL, "avalon.h counts the statements");

const char *const rpl__av_stats_sql[AV_NSTATS_SQL] = {
    "SELECT count(*), coalesce(sum(g.winner = 'good'), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), "
    "coalesce(sum(g.winner = 'aborted'), 0), "
    "coalesce(sum(g.reason IN ('assassination', 'missed')), 0), "
    "coalesce(sum(g.reason = 'assassination'), 0), "
    "coalesce(sum(g.reason IS NOT NULL), 0) "
    "FROM main.game g JOIN sel USING (gid)",

    "SELECT g.winner, g.reason, count(*) FROM main.game g "
    "JOIN sel USING (gid) WHERE g.reason IS NOT NULL "
    "GROUP BY g.winner, g.reason ORDER BY count(*) DESC, g.winner, g.reason",

    "SELECT g.players, count(*), coalesce(sum(g.winner = 'good'), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), "
    "coalesce(sum(g.reason IN ('assassination', 'missed')), 0), "
    "coalesce(sum(g.reason = 'assassination'), 0) "
    "FROM main.game g JOIN sel USING (gid) GROUP BY g.players "
    "ORDER BY g.players",

    "SELECT r.value, g.players, count(*), "
    "coalesce(sum(g.winner = 'good'), 0), "
    "coalesce(sum(g.winner = 'evil'), 0) "
    "FROM main.game g JOIN sel USING (gid) "
    "JOIN main.rule r ON r.gid = g.gid AND r.key = 'roles' "
    "GROUP BY r.value, g.players ORDER BY g.players, count(*) DESC, r.value",

    "SELECT s.role, count(*), coalesce(sum(s.won), 0), count(s.won) "
    "FROM main.seat_result s JOIN sel USING (gid) "
    "WHERE s.role IS NOT NULL GROUP BY s.role ORDER BY count(*) DESC, s.role",

    "SELECT s.name, count(*), count(s.side), coalesce(sum(s.won), 0), "
    "count(s.won), coalesce(sum(s.side = 'good'), 0), "
    "coalesce(sum(s.side = 'good' AND s.won), 0), "
    "coalesce(sum(s.side = 'evil'), 0), "
    "coalesce(sum(s.side = 'evil' AND s.won), 0) "
    "FROM main.seat_result s JOIN sel USING (gid) "
    "GROUP BY s.name ORDER BY count(*) DESC, s.name",
};

/* The keys of the "avalon" object that the document also had before
 * each game had its own object; they are the same values. */
static const char *const top_key[] = {
    "good",           "evil",     "aborted",  "evil_rate",
    "assassinations", "hits",     "hit_rate", "reasons",
    "by_players",     "by_roles", "roles",    "records",
};

static json_t *
jstr(const char *s)
{
    return rpl__jtext(s);
}

/* Reads the rows of query q, each made into an object by one(), into
 * the array o[key]. */
static enum rpl_status
rows_array(const struct rpl__stats *s, size_t q, const char *key,
           json_t *(*one)(const struct rpl__stats *s), json_t *o,
           struct rpl_error *err)
{
    json_t *a = json_array();
    bool has_row = false;
    enum rpl_status rc;

    while ((rc = s->rows.step(s->rows.a, q, &has_row, err)) == RPL_OK &&
           has_row)
        rpl__japp(s->jb, a, one(s));
    rpl__jset(s->jb, o, key, a);
    return rc;
}

#define COL(i)  s->rows.count(s->rows.a, (i))
#define TEXT(i) jstr(s->rows.text(s->rows.a, (i)))
#define N(v)    rpl__jcount(v)

static json_t *
reason_row(const struct rpl__stats *s)
{
    return json_pack("{s:o,s:o,s:o}", "winner", TEXT(0), "reason", TEXT(1),
                     "games", N(COL(2)));
}

static json_t *
players_row(const struct rpl__stats *s)
{
    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "players", N(COL(0)),
                     "games", N(COL(1)), "good", N(COL(2)), "evil", N(COL(3)),
                     "evil_rate", rpl__jrate(COL(3), COL(2) + COL(3)),
                     "assassinations", N(COL(4)), "hits", N(COL(5)), "hit_rate",
                     rpl__jrate(COL(5), COL(4)));
}

static json_t *
role_set_row(const struct rpl__stats *s)
{
    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "roles", TEXT(0), "players",
                     N(COL(1)), "games", N(COL(2)), "good", N(COL(3)), "evil",
                     N(COL(4)), "evil_rate",
                     rpl__jrate(COL(4), COL(3) + COL(4)));
}

static json_t *
role_row(const struct rpl__stats *s)
{
    return json_pack("{s:o,s:o,s:o,s:o}", "role", TEXT(0), "seats", N(COL(1)),
                     "wins", N(COL(2)), "win_rate", rpl__jrate(COL(2), COL(3)));
}

static json_t *
record_row(const struct rpl__stats *s)
{
    const uint64_t wins = COL(3), decided = COL(4);

    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "name",
                     TEXT(0), "games", N(COL(1)), "revealed", N(COL(2)), "wins",
                     N(wins), "losses", N(decided >= wins ? decided - wins : 0),
                     "win_rate", rpl__jrate(wins, decided), "good", N(COL(5)),
                     "good_wins", N(COL(6)), "evil", N(COL(7)), "evil_wins",
                     N(COL(8)));
}

/* json_pack() with "o" steals each value, also when it fails: the rows
 * and the totals below never leak. */
static enum rpl_status
totals(const struct rpl__stats *s, uint64_t *ended, struct rpl_error *err)
{
    bool has_row = false;
    enum rpl_status rc;
    uint64_t v[7] = {0};

    rc = s->rows.step(s->rows.a, Q_TOTALS, &has_row, err);
    for (int i = 0; rc == RPL_OK && has_row && i < 7; i++)
        v[i] = COL(i);
    while (rc == RPL_OK && has_row)
        rc = s->rows.step(s->rows.a, Q_TOTALS, &has_row, err);
    if (rc != RPL_OK)
        return rc;
    *ended = v[6];
    rpl__jset(s->jb, s->json, "games", N(v[0]));
    rpl__jset(s->jb, s->json, "good", N(v[1]));
    rpl__jset(s->jb, s->json, "evil", N(v[2]));
    rpl__jset(s->jb, s->json, "aborted", N(v[3]));
    rpl__jset(s->jb, s->json, "evil_rate", rpl__jrate(v[2], v[1] + v[2]));
    rpl__jset(s->jb, s->json, "assassinations", N(v[4]));
    rpl__jset(s->jb, s->json, "hits", N(v[5]));
    rpl__jset(s->jb, s->json, "hit_rate", rpl__jrate(v[5], v[4]));
    return RPL_OK;
}

#undef COL
#undef TEXT
#undef N

/* The text section, from the object. */
static void
write_text(const json_t *o, struct rpl__buf *b)
{
    char p1[32], p2[32], t1[512];
    const json_t *a, *e;
    size_t i;
    const uint64_t good = rpl__stats_uint(o, "good"),
                   evil = rpl__stats_uint(o, "evil");

    rpl__buf_printf(b, "\navalon: %llu games\n",
                    (unsigned long long)rpl__stats_uint(o, "games"));
    rpl__buf_printf(b, "wins: good %llu (%s), evil %llu (%s), aborted %llu\n",
                    (unsigned long long)good,
                    rpl__percent(p1, sizeof(p1), good, good + evil),
                    (unsigned long long)evil,
                    rpl__percent(p2, sizeof(p2), evil, good + evil),
                    (unsigned long long)rpl__stats_uint(o, "aborted"));
    rpl__buf_printf(b, "assassination: %llu hits in %llu attempts (%s)\n",
                    (unsigned long long)rpl__stats_uint(o, "hits"),
                    (unsigned long long)rpl__stats_uint(o, "assassinations"),
                    rpl__percent(p1, sizeof(p1), rpl__stats_uint(o, "hits"),
                                 rpl__stats_uint(o, "assassinations")));
    rpl__stats_reasons_text(o, b);
    a = json_object_get(o, "by_players");
    if (json_array_size(a) > 0) {
        rpl__buf_puts(b, "\nby player count:\n");
        rpl__buf_printf(b, "  %7s %6s %6s %6s %9s %13s\n", "players", "games",
                        "good", "evil", "evil wins", "assassin hits");
        json_array_foreach(a, i, e)
        {
            const uint64_t g = rpl__stats_uint(e, "good"),
                           v = rpl__stats_uint(e, "evil");

            rpl__buf_printf(b, "  %7llu %6llu %6llu %6llu %9s %13s\n",
                            (unsigned long long)rpl__stats_uint(e, "players"),
                            (unsigned long long)rpl__stats_uint(e, "games"),
                            (unsigned long long)g, (unsigned long long)v,
                            rpl__percent(p1, sizeof(p1), v, g + v),
                            rpl__percent(p2, sizeof(p2),
                                         rpl__stats_uint(e, "hits"),
                                         rpl__stats_uint(e, "assassinations")));
        }
    }
    a = json_object_get(o, "by_roles");
    if (json_array_size(a) > 0) {
        rpl__buf_puts(b, "\nby role set:\n");
        rpl__buf_printf(b, "  %7s %6s %9s  %s\n", "players", "games",
                        "evil wins", "roles");
        json_array_foreach(a, i, e)
        {
            const uint64_t g = rpl__stats_uint(e, "good"),
                           v = rpl__stats_uint(e, "evil");

            rpl__buf_printf(b, "  %7llu %6llu %9s  %s\n",
                            (unsigned long long)rpl__stats_uint(e, "players"),
                            (unsigned long long)rpl__stats_uint(e, "games"),
                            rpl__percent(p1, sizeof(p1), v, g + v),
                            rpl__stats_text(e, "roles", t1, sizeof(t1)));
        }
    }
    a = json_object_get(o, "roles");
    if (json_array_size(a) > 0) {
        rpl__buf_puts(b, "\nby role (revealed seats):\n");
        rpl__buf_printf(b, "  %-10s %6s %6s %6s\n", "role", "seats", "wins",
                        "win");
        json_array_foreach(a, i, e)
        {
            rpl__buf_printf(b, "  %-10s %6llu %6llu %6s\n",
                            rpl__stats_text(e, "role", t1, sizeof(t1)),
                            (unsigned long long)rpl__stats_uint(e, "seats"),
                            (unsigned long long)rpl__stats_uint(e, "wins"),
                            rpl__percent(p1, sizeof(p1),
                                         rpl__stats_uint(e, "wins"),
                                         rpl__stats_uint(e, "seats")));
        }
    }
    rpl__stats_records_text(o, "good", "evil", b);
}

enum rpl_status
rpl__av_stats(const struct rpl__stats *s, struct rpl_error *err)
{
    uint64_t ended = 0;
    enum rpl_status rc;
    json_t *e;
    size_t i;

    rc = totals(s, &ended, err);
    if (rc == RPL_OK)
        rc = rows_array(s, Q_REASONS, "reasons", reason_row, s->json, err);
    /* A reason's share is over the games that ended. */
    json_array_foreach(json_object_get(s->json, "reasons"), i, e) rpl__jset(
        s->jb, e, "share", rpl__jrate(rpl__stats_uint(e, "games"), ended));
    if (rc == RPL_OK)
        rc = rows_array(s, Q_PLAYERS, "by_players", players_row, s->json, err);
    if (rc == RPL_OK)
        rc = rows_array(s, Q_ROLE_SETS, "by_roles", role_set_row, s->json, err);
    if (rc == RPL_OK)
        rc = rows_array(s, Q_ROLES, "roles", role_row, s->json, err);
    if (rc == RPL_OK)
        rc = s->records(s, Q_RECORDS, record_row, err);
    if (rc != RPL_OK)
        return rc;
    for (i = 0; i < sizeof(top_key) / sizeof(top_key[0]); i++)
        rpl__jset(s->jb, s->top, top_key[i],
                  json_incref(json_object_get(s->json, top_key[i])));
    if (s->format == RPL__STATS_TEXT && s->out)
        write_text(s->json, s->out);
    else if (s->format == RPL__STATS_SVG)
        rpl__stats_chart(s, "Avalon: win rate by player count", "evil", "good");
    return RPL_OK;
}

/* ------------------------------------------------------------ details */

enum { D_CARDS, D_QUESTS, D_ASSASSINATION, ND };
_Static_assert(ND == AV_NDETAILS_READS, "avalon.h counts the reads");

static const struct rpl__col card_cols[] = {
    {"round", RPL__CELL_INT},
    {"seat", RPL__CELL_INT},
    {"card", RPL__CELL_TEXT},
};
static const struct rpl__col quest_cols[] = {
    {"round", RPL__CELL_INT},  {"slot", RPL__CELL_INT},
    {"leader", RPL__CELL_INT}, {"fails", RPL__CELL_INT},
    {"team", RPL__CELL_TEXT},  {"result", RPL__CELL_TEXT},
};
static const struct rpl__col assassination_cols[] = {
    {"assassin", RPL__CELL_INT},
    {"target", RPL__CELL_INT},
};
static const char *const by_round_seat[] = {"round", "seat", NULL};
static const char *const by_round[] = {"round", NULL};

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

const struct rpl__read rpl__av_details_reads[AV_NDETAILS_READS] = {
    {"card", card_cols, NCOLS(card_cols), by_round_seat},
    {"quest", quest_cols, NCOLS(quest_cols), by_round},
    {"assassination", assassination_cols, NCOLS(assassination_cols), NULL},
};

const char *const rpl__av_fact_groups[2] = {"assassination", NULL};

/* The cells of a read as numbers (negatives and NULL as 0) and texts
 * (NULL for NULL). */
static uint64_t
cell_u64(const struct rpl__cell *c)
{
    return c->kind == RPL__CELL_INT && c->i > 0 ? (uint64_t)c->i : 0;
}

static const char *
cell_text(const struct rpl__cell *c)
{
    return c->kind == RPL__CELL_TEXT ? c->s : NULL;
}

/* What details() gathers of one game: the quest cards of each round
 * (rounds past AV_DETAIL_ROUNDS and seats past 63 are not told), the
 * assassination. */
#define AV_DETAIL_ROUNDS 16
struct av_details {
    struct rpl__details *d;
    bool has_cards[AV_DETAIL_ROUNDS];
    uint64_t failed[AV_DETAIL_ROUNDS]; /* bit k: seat k played Fail */
    uint64_t assassin, target;
};

static enum rpl_status
card_row(void *ud, const struct rpl__cell *c, size_t n, struct rpl_error *err)
{
    struct av_details *x = ud;
    const uint64_t round = cell_u64(&c[0]), seat = cell_u64(&c[1]);
    const char *card = cell_text(&c[2]);

    (void)n;
    (void)err;
    if (c[0].kind != RPL__CELL_INT || c[0].i < 0 || round >= AV_DETAIL_ROUNDS)
        return RPL_OK;
    x->has_cards[round] = true;
    if (card && strcmp(card, "fail") == 0 && c[1].kind == RPL__CELL_INT &&
        seat < 64)
        x->failed[round] |= (uint64_t)1u << seat;
    return RPL_OK;
}

/* The seats that played Fail on a quest, "p2,p4" ("" for none), or NULL
 * until its cards are opened. */
static const char *
failed_text(const struct av_details *x, const struct rpl__cell *round,
            char *buf, size_t cap)
{
    size_t len = 0;

    if (round->kind != RPL__CELL_INT || round->i < 0 ||
        round->i >= AV_DETAIL_ROUNDS || !x->has_cards[round->i])
        return NULL;
    buf[0] = '\0';
    for (unsigned k = 0; k < 64; k++) {
        int w;

        if (!(x->failed[round->i] & ((uint64_t)1u << k)))
            continue;
        w = snprintf(buf + len, cap - len, "%sp%u", len ? "," : "", k);
        if (w < 0 || (size_t)w >= cap - len)
            break;
        len += (size_t)w;
    }
    return buf;
}

static enum rpl_status
quest_row(void *ud, const struct rpl__cell *c, size_t n, struct rpl_error *err)
{
    struct av_details *x = ud;
    struct rpl_archive_quest q;
    const char *team = cell_text(&c[4]), *result = cell_text(&c[5]);
    char failed[4 * 64];

    (void)n;
    memset(&q, 0, sizeof(q));
    q.round = (unsigned)cell_u64(&c[0]);
    q.slot = (unsigned)cell_u64(&c[1]);
    q.leader = (unsigned)cell_u64(&c[2]);
    q.fails = (unsigned)cell_u64(&c[3]);
    q.team = team ? team : "";
    q.result = result ? result : "";
    q.failed = failed_text(x, &c[0], failed, sizeof(failed));
    return x->d->quest(x->d->a, &q, err);
}

static enum rpl_status
assassination_row(void *ud, const struct rpl__cell *c, size_t n,
                  struct rpl_error *err)
{
    struct av_details *x = ud;

    (void)n;
    (void)err;
    x->assassin = cell_u64(&c[0]);
    x->target = cell_u64(&c[1]);
    return RPL_OK;
}

enum rpl_status
rpl__av_details(struct rpl__details *d, struct rpl_error *err)
{
    struct av_details x;
    enum rpl_status rc;

    memset(&x, 0, sizeof(x));
    x.d = d;
    rc = d->read(d->a, D_CARDS, card_row, &x, err);
    if (rc == RPL_OK)
        rc = d->read(d->a, D_QUESTS, quest_row, &x, err);
    if (rc == RPL_OK)
        rc = d->read(d->a, D_ASSASSINATION, assassination_row, &x, err);
    /* The assassination: the seats of the assassin and the target. */
    if (rc == RPL_OK && x.assassin != 0)
        rc = d->fact(d->a, rpl__av_fact_groups[0], "assassin",
                     (int64_t)x.assassin, err);
    if (rc == RPL_OK && x.assassin != 0)
        rc = d->fact(d->a, rpl__av_fact_groups[0], "target", (int64_t)x.target,
                     err);
    return rc;
}

/* ------------------------------------------------------------- audit */

/* The deal audit (struct rpl__audit, games/game.h).  A role held by m
 * seats of n in each game (the servants, the minions) lands on each seat
 * with probability m / n, but the m seats of one game are drawn without
 * replacement: the Pearson statistic is then (n - m) / (n - 1) times a
 * chi-square, and the factor undoes it.  The strata are the player count,
 * the role and m.  Roles are known all at once, at the reveal.  Each
 * table scans the selected games' common rows (the game's player count
 * and first leader, its seats) and tallies its cells in C. */

/* The distinct roles of a game's seats and how many seats hold each. */
struct av_roles {
    size_t n;
    const char *role[RPL__AUDIT_SEATS];
    int64_t m[RPL__AUDIT_SEATS];
};

static void
count_roles(const struct rpl__audit_game *x, struct av_roles *r)
{
    r->n = 0;
    for (size_t i = 0; i < x->nseats; i++) {
        size_t k = 0;

        if (!x->seat[i].has_role)
            continue;
        while (k < r->n && strcmp(r->role[k], x->seat[i].role) != 0)
            k++;
        if (k == r->n) {
            r->role[k] = x->seat[i].role;
            r->m[k] = 0;
            r->n++;
        }
        r->m[k]++;
    }
}

/* count / n of a cell counted once a game, m seats of n holding it. */
static double
share(uint64_t count, int64_t m, int64_t n)
{
    return n == 0 ? 0.0 : (double)((int64_t)count * m) / (double)n;
}

static void
seat_key(char *out, size_t cap, int64_t seat)
{
    snprintf(out, cap, "%020lld", (long long)seat);
}

/* role_seat: stratum (players, role, m), a cell per seat. */
static enum rpl_status
role_seat_game(struct rpl__audit_game *x, struct rpl_error *err)
{
    struct av_roles ro;

    count_roles(x, &ro);
    for (size_t k = 0; k < ro.n; k++) {
        char skey[128], stratum[160];

        snprintf(skey, sizeof(skey), "%020lld\001%s\001%020lld",
                 (long long)x->players, ro.role[k], (long long)ro.m[k]);
        if (ro.m[k] > 1)
            snprintf(stratum, sizeof(stratum), "%s (%lld a game), %lld players",
                     ro.role[k], (long long)ro.m[k], (long long)x->players);
        else
            snprintf(stratum, sizeof(stratum), "%s, %lld players", ro.role[k],
                     (long long)x->players);
        for (size_t i = 0; i < x->nseats; i++) {
            const struct rpl__seat_row *s = &x->seat[i];
            char ckey[32], label[32];
            struct rpl__tally_entry *e;

            seat_key(ckey, sizeof(ckey), s->seat);
            snprintf(label, sizeof(label), "p%lld", (long long)s->seat);
            e = rpl__tally_get(&x->t, skey, ckey, stratum, label, x->players,
                               ro.m[k], err);
            if (!e)
                return RPL_E_NOMEM;
            e->count++;
            if (s->has_role && strcmp(s->role, ro.role[k]) == 0)
                e->observed++;
        }
    }
    return RPL_OK;
}

static void
role_seat_cell(const struct rpl__audit_game *x,
               const struct rpl__tally_entry *e, double *expected,
               double *factor, uint64_t *games)
{
    (void)x;
    (void)games;
    *expected = share(e->count, e->b, e->a);
    *factor = e->a == e->b ? 0.0 : (e->a - 1.0) / (double)(e->a - e->b);
}

static enum rpl_status
role_seat(const struct rpl__audit_run *r, struct rpl_error *err)
{
    return rpl__audit_scan(r, NULL, role_seat_game, role_seat_cell, err);
}

/* leader_seat: stratum the player count, a cell per seat. */
static enum rpl_status
leader_seat_game(struct rpl__audit_game *x, struct rpl_error *err)
{
    char skey[32], stratum[64];

    if (x->leader <= 0)
        return RPL_OK;
    snprintf(skey, sizeof(skey), "%020lld", (long long)x->players);
    snprintf(stratum, sizeof(stratum), "%lld players", (long long)x->players);
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
        if (x->seat[i].seat == x->leader)
            e->observed++;
    }
    return RPL_OK;
}

static void
one_in_n_cell(const struct rpl__audit_game *x, const struct rpl__tally_entry *e,
              double *expected, double *factor, uint64_t *games)
{
    (void)x;
    (void)games;
    *expected = share(e->count, 1, e->a);
    *factor = 1.0;
}

static enum rpl_status
leader_seat(const struct rpl__audit_run *r, struct rpl_error *err)
{
    return rpl__audit_scan(r, NULL, leader_seat_game, one_in_n_cell, err);
}

/* role_player: stratum the player's name, a cell per role; the player's
 * revealed seats are counted under the cell key "" of the name, an
 * entry that is no cell (a -1). */
static enum rpl_status
role_player_game(struct rpl__audit_game *x, struct rpl_error *err)
{
    struct av_roles ro;

    count_roles(x, &ro);
    for (size_t i = 0; i < x->nseats; i++) {
        const struct rpl__seat_row *s = &x->seat[i];
        struct rpl__tally_entry *e;

        if (!s->has_role)
            continue;
        e = rpl__tally_get(&x->t, s->name, "", "", "", -1, 0, err);
        if (!e)
            return RPL_E_NOMEM;
        e->count++;
        for (size_t k = 0; k < ro.n; k++) {
            e = rpl__tally_get(&x->t, s->name, ro.role[k], s->name, ro.role[k],
                               0, 0, err);
            if (!e)
                return RPL_E_NOMEM;
            e->count++;
            e->sum += x->players == 0
                          ? 0.0
                          : (double)ro.m[k] * 1.0 / (double)x->players;
            if (strcmp(s->role, ro.role[k]) == 0)
                e->observed++;
        }
    }
    return RPL_OK;
}

static void
role_player_cell(const struct rpl__audit_game *x,
                 const struct rpl__tally_entry *e, double *expected,
                 double *factor, uint64_t *games)
{
    const struct rpl__tally_entry *n = rpl__tally_find(&x->t, e->stratum, "");

    *expected = e->sum;
    *factor = 1.0;
    *games = n ? n->count : 0;
}

static enum rpl_status
role_player(const struct rpl__audit_run *r, struct rpl_error *err)
{
    return rpl__audit_scan(r, NULL, role_player_game, role_player_cell, err);
}

const struct rpl__audit rpl__av_audit[AV_NAUDIT] = {
    {"role_seat", "each role's seat, per player count", role_seat, NULL},
    {"leader_seat", "the first leader's seat, per player count", leader_seat,
     NULL},
    {"lady_seat", "the Lady of the Lake's first holder", NULL,
     "she starts on the right of the first leader (camelog-avalon(7)), so "
     "the first leader's table tests her too"},
    {"role_player", "each player's roles", role_player,
     "a player's expected count of a role sums the role's share of the "
     "seats (m / n) over the player's revealed games; players whose cells "
     "expect fewer than 5 even pooled are not tested"},
};
