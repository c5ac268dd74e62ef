/*
 * stats.c - Avalon's half of the archive's reading side: its statistics
 * (the "avalon" object of camelog-archive(1), its text section and its
 * chart) and the quests and assassination of struct rpl_archive_game,
 * from the rows index.c wrote, which the archive reads back as data
 * (struct rpl__read): the statistics count them in C, one game at a
 * time, over the selected Avalon games (struct rpl__stats, games/game.h),
 * and details reads those of one game (struct rpl__details).
 */
#include <string.h>

#include "avalon.h"

/* The statistics count these rows of each selected game, read in this
 * order (the game's row first). */
enum { R_GAME, R_SEATS, R_RULES, NR };

static const struct rpl__col game_cols[] = {
    {"players", RPL__CELL_INT},
    {"winner", RPL__CELL_TEXT},
    {"reason", RPL__CELL_TEXT},
};
static const struct rpl__col seat_cols[] = {
    {"name", RPL__CELL_TEXT},
    {"role", RPL__CELL_TEXT},
    {"side", RPL__CELL_TEXT},
};
static const struct rpl__col rule_cols[] = {
    {"key", RPL__CELL_TEXT},
    {"value", RPL__CELL_TEXT},
};
static const char *const by_seat[] = {"seat", NULL};
static const char *const by_key[] = {"key", NULL};

static const struct rpl__read stats_reads[NR] = {
    {"game", game_cols, RPL__NCOLS(game_cols), NULL},
    {"seat", seat_cols, RPL__NCOLS(seat_cols), by_seat},
    {"rule", rule_cols, RPL__NCOLS(rule_cols), by_key},
};

/* The totals of the games (v of struct av_stats). */
enum {
    T_GAMES,
    T_GOOD,
    T_EVIL,
    T_ABORTED,
    T_ASSASSINATIONS, /* reason assassination or missed */
    T_HITS,           /* reason assassination */
    T_ENDED,          /* a reason */
    NT
};

/* The v[] of a group of players (by player count) and role sets
 * (P_ASSASSINATIONS, P_HITS: players only), and of roles. */
enum { P_GAMES, P_GOOD, P_EVIL, P_ASSASSINATIONS, P_HITS };
enum { ROLE_SEATS, ROLE_WINS, ROLE_DECIDED };

/* The figures, as the games go by; of the game being read, its player
 * count, its winner's side and its winner. */
struct av_stats {
    uint64_t total[NT];
    struct rpl__groups reasons, players, role_sets, roles, records;
    int64_t n;
    const char *winning_side;
    bool good, evil;
};

static bool
is(const char *s, const char *t)
{
    return s && strcmp(s, t) == 0;
}

static enum rpl_status
game_row(struct av_stats *x, const struct rpl__cell *c, struct rpl_error *err)
{
    const char *winner = rpl__cell_s(&c[1]), *reason = rpl__cell_s(&c[2]);
    const bool assassination = is(reason, "assassination"),
               attempt = assassination || is(reason, "missed");
    struct rpl__group *g;

    x->n = rpl__cell_i(&c[0]);
    x->good = is(winner, "good");
    x->evil = is(winner, "evil");
    x->winning_side = rpl__winning_side(winner);
    x->total[T_GAMES]++;
    x->total[T_GOOD] += x->good;
    x->total[T_EVIL] += x->evil;
    x->total[T_ABORTED] += is(winner, "aborted");
    x->total[T_ASSASSINATIONS] += attempt;
    x->total[T_HITS] += assassination;
    x->total[T_ENDED] += !!reason;
    g = rpl__group_get(&x->players, NULL, NULL, x->n, err);
    if (!g)
        return RPL_E_NOMEM;
    g->v[P_GAMES]++;
    g->v[P_GOOD] += x->good;
    g->v[P_EVIL] += x->evil;
    g->v[P_ASSASSINATIONS] += attempt;
    g->v[P_HITS] += assassination;
    return rpl__stats_reason(&x->reasons, winner, reason, err);
}

static enum rpl_status
seat_row(struct av_stats *x, const struct rpl__cell *c, struct rpl_error *err)
{
    const char *role = rpl__cell_s(&c[1]), *side = rpl__cell_s(&c[2]);

    if (role) {
        struct rpl__group *g = rpl__group_get(&x->roles, role, NULL, 0, err);
        const int won = rpl__seat_won(side, x->winning_side);

        if (!g)
            return RPL_E_NOMEM;
        g->v[ROLE_SEATS]++;
        g->v[ROLE_WINS] += won > 0;
        g->v[ROLE_DECIDED] += won >= 0;
    }
    return rpl__stats_record(&x->records, rpl__cell_s(&c[0]), side,
                             x->winning_side, err);
}

static enum rpl_status
rule_row(struct av_stats *x, const struct rpl__cell *c, struct rpl_error *err)
{
    struct rpl__group *g;

    if (!is(rpl__cell_s(&c[0]), "roles"))
        return RPL_OK;
    g = rpl__group_get(&x->role_sets, rpl__cell_s(&c[1]), NULL, x->n, err);
    if (!g)
        return RPL_E_NOMEM;
    g->v[P_GAMES]++;
    g->v[P_GOOD] += x->good;
    g->v[P_EVIL] += x->evil;
    return RPL_OK;
}

static enum rpl_status
stats_row(void *ud, size_t q, const struct rpl__cell *c, size_t n,
          struct rpl_error *err)
{
    struct av_stats *x = ud;

    (void)n;
    switch (q) {
    case R_GAME:
        return game_row(x, c, err);
    case R_SEATS:
        return seat_row(x, c, err);
    default:
        return rule_row(x, c, err);
    }
}

static enum rpl_status
stats_end(void *ud, struct rpl_error *err)
{
    struct av_stats *x = ud;

    (void)err;
    x->n = 0;
    x->winning_side = NULL;
    x->good = x->evil = false;
    return RPL_OK;
}

/* The keys of the "avalon" object that the document also had before
 * each game had its own object; they are the same values. */
static const char *const top_key[] = {
    "good",           "evil",     "aborted",  "evil_rate",
    "assassinations", "hits",     "hit_rate", "reasons",
    "by_players",     "by_roles", "roles",    "records",
};

#define N(v) rpl__jcount(v)

static uint64_t
n_of(const struct rpl__group *g)
{
    return g->n < 0 ? 0 : (uint64_t)g->n;
}

/* json_pack() with "o" steals each value, also when it fails: the
 * groups and the totals below never leak. */
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

    return json_pack(
        "{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "players", N(n_of(g)), "games",
        N(v[P_GAMES]), "good", N(v[P_GOOD]), "evil", N(v[P_EVIL]), "evil_rate",
        rpl__jrate(v[P_EVIL], v[P_GOOD] + v[P_EVIL]), "assassinations",
        N(v[P_ASSASSINATIONS]), "hits", N(v[P_HITS]), "hit_rate",
        rpl__jrate(v[P_HITS], v[P_ASSASSINATIONS]));
}

static json_t *
role_set_one(const struct rpl__group *g)
{
    const uint64_t *v = g->v;

    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "roles", rpl__jtext(g->k[0]),
                     "players", N(n_of(g)), "games", N(v[P_GAMES]), "good",
                     N(v[P_GOOD]), "evil", N(v[P_EVIL]), "evil_rate",
                     rpl__jrate(v[P_EVIL], v[P_GOOD] + v[P_EVIL]));
}

static json_t *
role_one(const struct rpl__group *g)
{
    return json_pack("{s:o,s:o,s:o,s:o}", "role", rpl__jtext(g->k[0]), "seats",
                     N(g->v[ROLE_SEATS]), "wins", N(g->v[ROLE_WINS]),
                     "win_rate",
                     rpl__jrate(g->v[ROLE_WINS], g->v[ROLE_DECIDED]));
}

static json_t *
record_one(const struct rpl__group *g)
{
    return rpl__stats_record_json(g, "good", "evil");
}

/* Sorts gs as order and sets o[key] to the array of one() of each. */
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
totals(const struct rpl__stats *s, const uint64_t *v)
{
    rpl__jset(s->jb, s->json, "games", N(v[T_GAMES]));
    rpl__jset(s->jb, s->json, "good", N(v[T_GOOD]));
    rpl__jset(s->jb, s->json, "evil", N(v[T_EVIL]));
    rpl__jset(s->jb, s->json, "aborted", N(v[T_ABORTED]));
    rpl__jset(s->jb, s->json, "evil_rate",
              rpl__jrate(v[T_EVIL], v[T_GOOD] + v[T_EVIL]));
    rpl__jset(s->jb, s->json, "assassinations", N(v[T_ASSASSINATIONS]));
    rpl__jset(s->jb, s->json, "hits", N(v[T_HITS]));
    rpl__jset(s->jb, s->json, "hit_rate",
              rpl__jrate(v[T_HITS], v[T_ASSASSINATIONS]));
}

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

static void
release(struct av_stats *x)
{
    rpl__groups_release(&x->reasons);
    rpl__groups_release(&x->players);
    rpl__groups_release(&x->role_sets);
    rpl__groups_release(&x->roles);
    rpl__groups_release(&x->records);
}

enum rpl_status
rpl__av_stats(const struct rpl__stats *s, struct rpl_error *err)
{
    struct av_stats *x = rpl__calloc(s->ctx, 1, sizeof(*x));
    struct rpl__scan sc;
    enum rpl_status rc;
    json_t *e;
    size_t i;

    if (!x)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    x->reasons.ctx = x->players.ctx = x->role_sets.ctx = x->roles.ctx =
        x->records.ctx = s->ctx;
    sc.reads = stats_reads;
    sc.nreads = NR;
    sc.row = stats_row;
    sc.end = stats_end;
    sc.ud = x;
    rc = s->scan(s->a, &sc, err);
    if (rc != RPL_OK)
        goto out;
    totals(s, x->total);
    groups_array(s, &x->reasons, RPL__BY_COUNT, "reasons", reason_one);
    /* A reason's share is over the games that ended. */
    json_array_foreach(json_object_get(s->json, "reasons"), i, e)
        rpl__jset(s->jb, e, "share",
                  rpl__jrate(rpl__stats_uint(e, "games"), x->total[T_ENDED]));
    groups_array(s, &x->players, RPL__BY_N, "by_players", players_one);
    groups_array(s, &x->role_sets, RPL__BY_N, "by_roles", role_set_one);
    groups_array(s, &x->roles, RPL__BY_COUNT, "roles", role_one);
    rpl__groups_sort(&x->records, RPL__BY_COUNT);
    s->records(s, &x->records, record_one);
    for (i = 0; i < sizeof(top_key) / sizeof(top_key[0]); i++)
        rpl__jset(s->jb, s->top, top_key[i],
                  json_incref(json_object_get(s->json, top_key[i])));
    if (s->format == RPL__STATS_TEXT && s->out)
        write_text(s->json, s->out);
    else if (s->format == RPL__STATS_SVG)
        rpl__stats_chart(s, "Avalon: win rate by player count", "evil", "good");
out:
    release(x);
    rpl__free(s->ctx, x);
    return rc;
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

const struct rpl__read rpl__av_details_reads[AV_NDETAILS_READS] = {
    {"card", card_cols, RPL__NCOLS(card_cols), by_round_seat},
    {"quest", quest_cols, RPL__NCOLS(quest_cols), by_round},
    {"assassination", assassination_cols, RPL__NCOLS(assassination_cols), NULL},
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
