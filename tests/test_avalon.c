/*
 * test_avalon.c - the Avalon module driven directly through rpl__avalon:
 * the tables, the configuration rules, every rejection of
 * rules/avalon.md §12, the deal test vector of camelog(5), reveals and
 * opens (tampered logs included), seeded games played by the bots and
 * replayed in public mode, and views that must not leak.
 *
 * The harness plays the log layer's part: it numbers lines, appends
 * commitments (rpl__commit with the game's seed), calls learn() before a
 * card line and keeps the lines for replays.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <jansson.h>
#include <sodium.h>

#include "games/avalon/avalon.h"
#include "internal.h"
#include "suites.h"

#define LINE_MAX_LEN 400
#define MAX_LINES    1024

/* A passing ck_assert() records its place through Check's channel (a
 * write per call); the hot paths of the seeded games check with this,
 * which costs nothing unless it fails. */
#define REQUIRE(cond, ...)                                                     \
    do {                                                                       \
        if (!(cond))                                                           \
            ck_abort_msg(__VA_ARGS__);                                         \
    } while (0)

static const uint8_t tv_id[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
                                  0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
                                  0xcc, 0xdd, 0xee, 0xff};

static const char *const names[RPL_MAX_SEATS + 1] = {
    "",    "Alice", "Bob",  "Carol", "Dave", "Eve",
    "Fay", "Gus",   "Hana", "Ivan",  "Jo",
};

/* One game under test. */
struct game {
    struct rpl_ctx *ctx;
    struct rpl__env env;
    uint8_t seed[32];
    size_t commitments;
    char warn[8][RPL_ERRMSG_MAX];
    size_t nwarn;
    struct av_state *st;
    size_t no; /* number of the last line */
    struct rpl_error err;
    char (*lines)[LINE_MAX_LEN]; /* the game lines applied, in order */
    size_t nlines;
};

static void
collect(void *w, size_t line, const char *msg)
{
    struct game *g = w;

    (void)line;
    if (g->nwarn < 8)
        snprintf(g->warn[g->nwarn], sizeof(g->warn[0]), "%s", msg);
    g->nwarn++;
}

static void
seed_of(uint8_t seed[32], unsigned tag)
{
    uint8_t in[4];

    rpl__store_le32(in, tag);
    rpl__hash(seed, NULL, in, sizeof(in));
}

/* A fresh game: the rules line (line 5), and with knowing the deal from
 * the seed (setup).  The seed is kept either way for commitments. */
static enum rpl_status
g_open(struct game *g, const char *rules, bool knowing, unsigned tag)
{
    struct rpl__line ln;
    size_t seats = 0;
    enum rpl_status rc;

    memset(g, 0, sizeof(*g));
    REQUIRE(rpl_ctx_new(&g->ctx, NULL, NULL) == RPL_OK, "no context");
    seed_of(g->seed, tag);
    g->env.ctx = g->ctx;
    g->env.id = tv_id;
    g->env.names = names;
    g->env.commitments = &g->commitments;
    g->env.warn = collect;
    g->env.w = g;
    g->st = calloc(1, rpl__avalon.state_size);
    g->lines = malloc((size_t)MAX_LINES * LINE_MAX_LEN);
    REQUIRE(g->st && g->lines, "out of memory");
    g->no = 19;
    rc = rpl__line_split(&ln, rules, strlen(rules), 5, &g->err);
    if (rc == RPL_OK)
        rc = rpl__avalon.play->rules(g->st, &ln, &g->env, &seats, &g->err);
    if (rc != RPL_OK)
        return rc;
    g->env.seats = seats;
    if (knowing) {
        g->env.seed = g->seed;
        rc = rpl__avalon.play->setup(g->st, &g->env, &g->err);
    }
    return rc;
}

static void
g_close(struct game *g)
{
    free(g->st);
    free(g->lines);
    rpl_ctx_free(g->ctx);
}

/* A knowing game with a fixed deal (roles of p1..pN, comma-separated). */
static void
g_fixed(struct game *g, const char *rules, const char *deal, unsigned leader)
{
    char buf[256];
    const char *roles[RPL_MAX_SEATS];
    size_t n = 0;

    ck_assert_int_eq(g_open(g, rules, false, 1), RPL_OK);
    snprintf(buf, sizeof(buf), "%s", deal);
    for (char *p = strtok(buf, ","); p; p = strtok(NULL, ","))
        roles[n++] = p;
    ck_assert_int_eq(rpl__avalon_deal(g->st, roles, n, leader, &g->err),
                     RPL_OK);
    g->env.seed = g->seed;
}

static void
hex_commit(const struct game *g, const char *label, const char *value,
           char out[65])
{
    uint8_t c[32];

    rpl__commit(c, NULL, g->seed, tv_id, label, value, 1);
    rpl__hex(out, c, 32);
}

/* Applies one line as the next line; keeps it when accepted. */
static enum rpl_status
g_apply_text(struct game *g, const char *text)
{
    struct rpl__line ln;
    struct rpl__applied out;
    enum rpl_status rc;

    rpl__err_clear(&g->err);
    rc = rpl__line_split(&ln, text, strlen(text), ++g->no, &g->err);
    if (rc == RPL_OK)
        rc = rpl__avalon.play->apply(g->st, &ln, &g->env, &out, &g->err);
    if (rc == RPL_OK) {
        REQUIRE(g->nlines < MAX_LINES, "too many lines");
        snprintf(g->lines[g->nlines++], LINE_MAX_LEN, "%s", text);
    } else {
        g->no--;
    }
    return rc;
}

static enum rpl_status RPL__PRINTF(2, 3)
    g_raw(struct game *g, const char *fmt, ...)
{
    char text[LINE_MAX_LEN];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    return g_apply_text(g, text);
}

/* The line of an emit, with its commitment. */
static void
emit_text(const struct game *g, const struct rpl__emit *e, char *out)
{
    if (e->label[0]) {
        char hex[65];

        hex_commit(g, e->label, e->value, hex);
        snprintf(out, LINE_MAX_LEN, "%s %s", e->line, hex);
    } else {
        snprintf(out, LINE_MAX_LEN, "%s", e->line);
    }
}

/* A private-form action, as the recorder writes it. */
static enum rpl_status RPL__PRINTF(2, 3)
    g_act(struct game *g, const char *fmt, ...)
{
    char action[LINE_MAX_LEN];
    char text[LINE_MAX_LEN];
    struct rpl__emit e;
    enum rpl_status rc;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(action, sizeof(action), fmt, ap);
    va_end(ap);
    rc = rpl__avalon.live->action(g->st, &g->env, action, &e, &g->err);
    if (rc != RPL_OK)
        return rc;
    if (strncmp(e.label, "card ", 5) == 0) {
        rc = rpl__avalon.play->learn(g->st, e.label, e.value, &g->err);
        if (rc != RPL_OK)
            return rc;
    }
    emit_text(g, &e, text);
    return g_apply_text(g, text);
}

/* Writes the dealer's lines while there are any. */
static void
g_dealer(struct game *g)
{
    struct rpl__emit e;
    char text[LINE_MAX_LEN];

    while (rpl__avalon.play->pending(g->st, &g->env, &e)) {
        emit_text(g, &e, text);
        ck_assert_msg(g_apply_text(g, text) == RPL_OK, "%s: %s", text,
                      g->err.msg);
    }
}

/* The leader proposes team ("p1,p2" or "q4 p1,p2"). */
static void
g_propose(struct game *g, const char *team)
{
    const size_t leader = rpl__avalon.play->turn(g->st);

    ck_assert_uint_gt(leader, 0);
    ck_assert_msg(g_act(g, "propose p%zu %s", leader, team) == RPL_OK,
                  "propose %s: %s", team, g->err.msg);
}

/* Every seat votes ('y' or 'n' per seat), then the dealer tallies. */
static void
g_votes(struct game *g, const char *votes)
{
    for (size_t k = 1; k <= strlen(votes); k++)
        ck_assert_msg(g_act(g, "vote p%zu %s", k,
                            votes[k - 1] == 'y' ? "yes" : "no") == RPL_OK,
                      "vote p%zu: %s", k, g->err.msg);
    g_dealer(g);
}

/* Team members play ('s' or 'f' each, ascending), then the dealer. */
static void
g_cards(struct game *g, const char *cards)
{
    for (size_t i = 0; i < strlen(cards); i++) {
        const size_t k = rpl__avalon.play->turn(g->st);

        ck_assert_msg(g_act(g, "card p%zu %s", k,
                            cards[i] == 'f' ? "fail" : "success") == RPL_OK,
                      "card p%zu: %s", k, g->err.msg);
    }
    g_dealer(g);
}

/* Checks that the line is refused with code, that the message contains
 * want, names the line and that the state did not change. */
static void
g_refuse(struct game *g, enum rpl_status code, const char *want,
         const char *text)
{
    uint8_t *before = malloc(rpl__avalon.state_size);
    enum rpl_status rc;

    ck_assert_ptr_nonnull(before);
    memcpy(before, g->st, rpl__avalon.state_size);
    rc = g_apply_text(g, text);
    ck_assert_msg(rc == code, "%s: got %d (%s), want %d", text, (int)rc,
                  g->err.msg, (int)code);
    ck_assert_msg(strstr(g->err.msg, want), "%s: \"%s\" lacks \"%s\"", text,
                  g->err.msg, want);
    ck_assert_uint_eq(g->err.line, g->no + 1);
    ck_assert_msg(memcmp(before, g->st, rpl__avalon.state_size) == 0,
                  "%s changed the state", text);
    free(before);
}

static char *
g_view(struct game *g, int viewer)
{
    struct rpl__buf b;
    char *text = NULL;

    rpl__buf_init(&b, g->ctx);
    rpl__avalon.views->view(g->st, &g->env, viewer, &b);
    ck_assert_int_eq(rpl__buf_take(&b, &text, NULL), RPL_OK);
    return text;
}

static char *
g_view_json(struct game *g, int viewer)
{
    struct rpl__buf b;
    char *text = NULL;

    rpl__buf_init(&b, g->ctx);
    rpl__avalon.views->view_json(g->st, &g->env, viewer, &b);
    ck_assert_int_eq(rpl__buf_take(&b, &text, NULL), RPL_OK);
    return text;
}

static char *
g_describe(struct game *g, size_t idx, int viewer)
{
    struct rpl__buf b;
    struct rpl__line ln;
    char *text = NULL;
    const char *line = g->lines[idx];

    ck_assert_int_eq(rpl__line_split(&ln, line, strlen(line),
                                     g->no - (g->nlines - 1 - idx), NULL),
                     RPL_OK);
    rpl__buf_init(&b, g->ctx);
    rpl__avalon.views->describe(g->st, &g->env, &ln, viewer, &b);
    ck_assert_int_eq(rpl__buf_take(&b, &text, NULL), RPL_OK);
    return text;
}

static const char *
g_last(const struct game *g)
{
    return g->nlines ? g->lines[g->nlines - 1] : "";
}

static const char rules7[] = "rules players=7 "
                             "roles=merlin,percival,servant,servant,"
                             "assassin,morgana,mordred lady=on targeting=off";
static const char deal7[] =
    "merlin,percival,servant,servant,assassin,morgana,mordred";

/* A started 7-seat game: p1 merlin, p2 percival, p3-p4 servants, p5
 * assassin, p6 morgana, p7 mordred; leader p1, lady on p7. */
static void
g_seven(struct game *g)
{
    g_fixed(g, rules7, deal7, 1);
    g_dealer(g);
    ck_assert_str_eq(g->lines[0], "start leader=p1 lady=p7");
    ck_assert_uint_eq(rpl__avalon.play->turn(g->st), 1);
}

/* ------------------------------------------------------------ tables */

static const unsigned t_good[6] = {3, 4, 4, 5, 6, 6};
static const unsigned t_evil[6] = {2, 2, 3, 3, 3, 4};
static const unsigned t_team[6][5] = {
    {2, 3, 2, 3, 3}, {2, 3, 4, 3, 4}, {2, 3, 3, 4, 4},
    {3, 4, 4, 5, 5}, {3, 4, 4, 5, 5}, {3, 4, 4, 5, 5},
};

/* A basic configuration for n seats: merlin, servants, assassin,
 * minions. */
static void
basic_rules(char *out, size_t cap, unsigned n, unsigned good, unsigned evil,
            const char *lady, const char *targeting)
{
    size_t len = (size_t)snprintf(out, cap, "rules players=%u roles=merlin", n);

    for (unsigned i = 1; i < good; i++)
        len += (size_t)snprintf(out + len, cap - len, ",servant");
    len += (size_t)snprintf(out + len, cap - len, ",assassin");
    for (unsigned i = 1; i < evil; i++)
        len += (size_t)snprintf(out + len, cap - len, ",minion");
    snprintf(out + len, cap - len, " lady=%s targeting=%s", lady, targeting);
}

/* The deal of basic_rules: goods first, then the assassin, minions. */
static void
basic_deal(char *out, size_t cap, unsigned good, unsigned evil)
{
    size_t len = (size_t)snprintf(out, cap, "merlin");

    for (unsigned i = 1; i < good; i++)
        len += (size_t)snprintf(out + len, cap - len, ",servant");
    len += (size_t)snprintf(out + len, cap - len, ",assassin");
    for (unsigned i = 1; i < evil; i++)
        len += (size_t)snprintf(out + len, cap - len, ",minion");
}

/* T1: the side split of every player count; one more good is H-2. */
START_TEST(test_t1_sides)
{
    const unsigned n = 5 + (unsigned)_i;
    char rules[256];
    struct game g;

    basic_rules(rules, sizeof(rules), n, t_good[_i], t_evil[_i], "off", "off");
    ck_assert_int_eq(g_open(&g, rules, true, 7), RPL_OK);
    g_close(&g);
    basic_rules(rules, sizeof(rules), n, t_good[_i] + 1, t_evil[_i] - 1, "off",
                "off");
    ck_assert_int_eq(g_open(&g, rules, true, 7), RPL_E_RULES);
    ck_assert_msg(strncmp(g.err.msg, "H-2: ", 5) == 0, "%s", g.err.msg);
    g_close(&g);
    basic_rules(rules, sizeof(rules), n, t_good[_i] - 1, t_evil[_i] + 1, "off",
                "off");
    ck_assert_int_eq(g_open(&g, rules, true, 7), RPL_E_RULES);
    ck_assert_msg(strncmp(g.err.msg, "H-2: ", 5) == 0, "%s", g.err.msg);
    g_close(&g);
}
END_TEST

/* T2: the team size of every slot (Targeting reaches slots 1-4 in round
 * 1; slot 5 after two successes). */
START_TEST(test_t2_team_sizes)
{
    const unsigned n = 5 + (unsigned)_i;
    char rules[256];
    char deal[256];

    basic_rules(rules, sizeof(rules), n, t_good[_i], t_evil[_i], "off", "on");
    basic_deal(deal, sizeof(deal), t_good[_i], t_evil[_i]);
    for (unsigned slot = 1; slot <= 5; slot++) {
        const unsigned size = t_team[_i][slot - 1];
        struct game g;
        char text[128];
        char want[64];
        char team[64];
        size_t len = 0;

        g_fixed(&g, rules, deal, 1);
        g_dealer(&g);
        if (slot == 5) {
            char two[32];

            /* two successful quests first: slots 1 and 2, good teams */
            for (unsigned q = 1; q <= 2; q++) {
                len = (size_t)snprintf(two, sizeof(two), "q%u p1", q);
                for (unsigned k = 2; k <= t_team[_i][q - 1]; k++)
                    len += (size_t)snprintf(two + len, sizeof(two) - len,
                                            ",p%u", k);
                g_propose(&g, two);
                g_votes(&g, "yyyyyyyyyy" + (10 - n));
                g_cards(&g, "sssss" + (5 - t_team[_i][q - 1]));
            }
        }
        len = 0;
        team[0] = '\0';
        for (unsigned k = 1; k < size; k++)
            len += (size_t)snprintf(team + len, sizeof(team) - len, "%sp%u",
                                    k > 1 ? "," : "", k);
        snprintf(text, sizeof(text), "propose p%zu q%u %s",
                 rpl__avalon.play->turn(g.st), slot, team);
        snprintf(want, sizeof(want), "team for quest %u needs %u seats, got %u",
                 slot, size, size - 1);
        g_refuse(&g, RPL_E_RULES, want, text);
        snprintf(text, sizeof(text), "propose p%zu q%u %s,p%u,p%u",
                 rpl__avalon.play->turn(g.st), slot, team, size, size + 1);
        snprintf(want, sizeof(want), "needs %u seats, got %u", size, size + 1);
        g_refuse(&g, RPL_E_RULES, want, text);
        snprintf(text, sizeof(text), "propose p%zu q%u %s,p%u",
                 rpl__avalon.play->turn(g.st), slot, team, size);
        ck_assert_msg(g_apply_text(&g, text) == RPL_OK, "%s: %s", text,
                      g.err.msg);
        g_close(&g);
    }
}
END_TEST

/* T3: one fail fails every quest except slot 4 from 7 players. */
START_TEST(test_t3_fails_needed)
{
    const unsigned n = 5 + (unsigned)_i;
    char rules[256];
    char deal[256];

    basic_rules(rules, sizeof(rules), n, t_good[_i], t_evil[_i], "off", "on");
    basic_deal(deal, sizeof(deal), t_good[_i], t_evil[_i]);
    for (unsigned slot = 1; slot <= 4; slot++) {
        const unsigned size = t_team[_i][slot - 1];
        const unsigned assassin = t_good[_i] + 1;
        const bool two = slot == 4 && n >= 7;
        struct game g;
        char team[64];
        char cards[8] = "";
        char want[64];
        size_t len;

        g_fixed(&g, rules, deal, 1);
        g_dealer(&g);
        /* goods p1.. then the assassin, who fails */
        len = (size_t)snprintf(team, sizeof(team), "q%u p1", slot);
        for (unsigned k = 2; k < size; k++)
            len += (size_t)snprintf(team + len, sizeof(team) - len, ",p%u", k);
        snprintf(team + len, sizeof(team) - len, ",p%u", assassin);
        g_propose(&g, team);
        g_votes(&g, "yyyyyyyyyy" + (10 - n));
        for (unsigned k = 0; k + 1 < size; k++)
            cards[k] = 's';
        cards[size - 1] = 'f';
        for (size_t i = 0; i < size; i++) {
            const size_t k = rpl__avalon.play->turn(g.st);

            ck_assert_int_eq(g_act(&g, "card p%zu %s", k,
                                   cards[i] == 'f' ? "fail" : "success"),
                             RPL_OK);
        }
        /* the wrong result is refused, the right one accepted */
        snprintf(team, sizeof(team), "quest %u %s fails=1", slot,
                 two ? "fail" : "success");
        snprintf(want, sizeof(want), "expected \"quest %u %s fails=1\"", slot,
                 two ? "success" : "fail");
        g_refuse(&g, RPL_E_RULES, want, team);
        g_dealer(&g);
        snprintf(want, sizeof(want), "quest %u %s fails=1", slot,
                 two ? "success" : "fail");
        ck_assert_str_eq(g.lines[g.nlines - 1], want);
        g_close(&g);
    }
}
END_TEST

/* T4: approvals needed; a tie rejects. */
START_TEST(test_t4_approvals)
{
    const unsigned n = 5 + (unsigned)_i;
    const unsigned need = n / 2 + 1;
    char rules[256];
    char deal[256];
    char votes[16];

    static const unsigned t4[6] = {3, 4, 4, 5, 5, 6};

    ck_assert_uint_eq(need, t4[_i]);
    basic_rules(rules, sizeof(rules), n, t_good[_i], t_evil[_i], "off", "off");
    basic_deal(deal, sizeof(deal), t_good[_i], t_evil[_i]);
    for (unsigned yes = need - 1; yes <= need; yes++) {
        struct game g;
        char text[32];
        char team[32];

        g_fixed(&g, rules, deal, 1);
        g_dealer(&g);
        snprintf(team, sizeof(team), "%s",
                 t_team[_i][0] == 2 ? "p1,p2" : "p1,p2,p3");
        g_propose(&g, team);
        for (unsigned k = 0; k < n; k++)
            votes[k] = k < yes ? 'y' : 'n';
        votes[n] = '\0';
        for (unsigned k = 1; k <= n; k++)
            ck_assert_int_eq(
                g_act(&g, "vote p%u %s", k, votes[k - 1] == 'y' ? "yes" : "no"),
                RPL_OK);
        snprintf(text, sizeof(text), "team %s %u-%u",
                 yes >= need ? "rejected" : "approved", yes, n - yes);
        g_refuse(&g, RPL_E_RULES, "expected \"team", text);
        snprintf(text, sizeof(text), "team %s %u-%u",
                 yes >= need ? "approved" : "rejected", yes, n - yes);
        ck_assert_int_eq(g_apply_text(&g, text), RPL_OK);
        g_close(&g);
    }
}
END_TEST

/* ------------------------------------------------------- night views */

struct view_case {
    const char *rules;
    const char *deal;
    const char *views[11];
};

static const struct view_case view_cases[] = {
    {"rules players=10 roles=merlin,percival,servant,servant,servant,"
     "servant,assassin,morgana,mordred,oberon lady=on targeting=off",
     "merlin,percival,servant,servant,servant,servant,assassin,morgana,"
     "mordred,oberon",
     {NULL, "role=merlin sees=p7,p8,p10", "role=percival sees=p1,p8",
      "role=servant", "role=servant", "role=servant", "role=servant",
      "role=assassin sees=p8,p9", "role=morgana sees=p7,p9",
      "role=mordred sees=p7,p8", "role=oberon"}},
    /* minions see each other; Percival without Morgana sees Merlin */
    {"rules players=9 roles=merlin,percival,servant,servant,servant,"
     "servant,assassin,minion,minion lady=off targeting=off",
     "minion,servant,merlin,servant,assassin,percival,servant,minion,"
     "servant",
     {NULL, "role=minion sees=p5,p8", "role=servant",
      "role=merlin sees=p1,p5,p8", "role=servant", "role=assassin sees=p1,p8",
      "role=percival sees=p3", "role=servant", "role=minion sees=p1,p5",
      "role=servant"}},
    /* Merlin does not see Mordred; Oberon is seen by Merlin only */
    {"rules players=7 roles=merlin,servant,servant,servant,assassin,"
     "mordred,oberon lady=off targeting=off",
     "oberon,mordred,servant,merlin,servant,assassin,servant",
     {NULL, "role=oberon", "role=mordred sees=p6", "role=servant",
      "role=merlin sees=p1,p6", "role=servant", "role=assassin sees=p2",
      "role=servant"}},
};

START_TEST(test_night_views)
{
    const struct view_case *c = &view_cases[_i];
    struct game g;
    struct rpl__emit e;
    char *v;
    char want[128];

    g_fixed(&g, c->rules, c->deal, 2);
    ck_assert(rpl__avalon.play->pending(g.st, &g.env, &e)); /* start */
    g_dealer(&g);
    for (size_t k = 1; k <= g.env.seats; k++) {
        char label[16];
        char hex[65];

        /* the deal line's commitment holds the view */
        snprintf(label, sizeof(label), "deal p%zu", k);
        hex_commit(&g, label, c->views[k], hex);
        snprintf(want, sizeof(want), "deal p%zu %s", k, hex);
        ck_assert_str_eq(g.lines[k], want);
        /* the seat's view shows it */
        v = g_view(&g, (int)k);
        snprintf(want, sizeof(want), "\nyou: p%zu %s\n", k, c->views[k]);
        ck_assert_msg(strstr(v, want), "%s lacks %s", v, want);
        rpl_free(g.ctx, v);
    }
    v = g_view(&g, RPL_VIEW_ALL);
    for (size_t k = 1; k <= g.env.seats; k++) {
        snprintf(want, sizeof(want), "\np%zu %s\n", k, c->views[k]);
        ck_assert_msg(strstr(v, want), "%s lacks %s", v, want);
    }
    rpl_free(g.ctx, v);
    g_close(&g);
}
END_TEST

/* --------------------------------------------------- configurations */

struct rules_case {
    const char *line;
    enum rpl_status code;
    const char *msg; /* prefix of the message, or of the first warning */
    size_t nwarn;
};

static const struct rules_case rules_cases[] = {
    {"rules players=4 roles=merlin,servant,assassin,minion lady=off "
     "targeting=off",
     RPL_E_RULES, "H-1: ", 0},
    {"rules players=11 roles=merlin,servant,servant,servant,servant,servant,"
     "servant,assassin,minion,minion,minion lady=off targeting=off",
     RPL_E_RULES, "H-1: ", 0},
    {"rules players=5 roles=merlin,servant,servant,servant,assassin "
     "lady=off targeting=off",
     RPL_E_RULES, "H-2: ", 0},
    {"rules players=5 roles=merlin,servant,assassin,minion lady=off "
     "targeting=off",
     RPL_E_RULES, "H-2: ", 0},
    {"rules players=5 roles=merlin,merlin,servant,assassin,minion lady=off "
     "targeting=off",
     RPL_E_RULES, "H-3: at most one merlin", 0},
    {"rules players=7 roles=merlin,servant,servant,servant,assassin,"
     "oberon,oberon lady=off targeting=off",
     RPL_E_RULES, "H-3: at most one oberon", 0},
    {"rules players=5 roles=merlin,servant,servant,minion,minion lady=off "
     "targeting=off",
     RPL_E_RULES, "H-4: merlin needs an assassin", 0},
    {"rules players=5 roles=percival,servant,servant,assassin,minion "
     "lady=off targeting=off",
     RPL_E_RULES, "H-5: percival needs merlin", 0},
    {"rules players=5 roles=merlin,servant,lancelot,assassin,minion "
     "lady=off targeting=off",
     RPL_E_RULES, "H-6: unsupported role \"lancelot\"", 0},
    {"rules players=5 roles=merlin,percival,servant,assassin,oberon "
     "lady=off targeting=off",
     RPL_OK, "O-1: ", 1},
    {"rules players=6 roles=merlin,servant,servant,servant,assassin,minion "
     "lady=on targeting=off",
     RPL_OK, "O-2: ", 1},
    {"rules players=7 roles=merlin,servant,servant,servant,assassin,"
     "morgana,minion lady=off targeting=off",
     RPL_OK, "W-1: ", 1},
    {"rules players=5 roles=servant,servant,servant,mordred,minion "
     "lady=off targeting=off",
     RPL_OK, "W-2: ", 2},
    {"rules players=5 roles=servant,servant,servant,minion,minion "
     "lady=off targeting=off",
     RPL_OK, "W-3: ", 1},
    {"rules players=10 roles=servant,servant,servant,servant,servant,"
     "servant,minion,minion,minion,minion lady=off targeting=off",
     RPL_OK, "W-3: ", 2},
    {"rules players=7 roles=merlin,percival,servant,servant,assassin,"
     "morgana,mordred lady=on targeting=on",
     RPL_OK, "", 0},
    /* declared variants (camelog-avalon(7), Variants) */
    {"rules players=5 roles=merlin,servant,servant,mordred,minion "
     "lady=off targeting=off variants=assassin-mordred",
     RPL_OK, "", 0},
    {"rules players=5 roles=merlin,servant,servant,morgana,oberon "
     "lady=off targeting=off variants=assassin-oberon",
     RPL_OK, "W-1: ", 1},
    {"rules players=5 roles=percival,servant,servant,morgana,minion "
     "lady=off targeting=off variants=percival-alone",
     RPL_OK, "W-3: ", 1},
    {"rules players=5 roles=merlin,servant,servant,assassin,minion "
     "lady=off targeting=off variants=assassin-names-evil",
     RPL_OK, "", 0},
    {"rules players=7 roles=merlin,percival,servant,servant,morgana,"
     "mordred,minion lady=off targeting=off "
     "variants=assassin-mordred,assassin-names-evil",
     RPL_OK, "", 0},
    {"rules players=5 roles=merlin,servant,servant,mordred,minion "
     "lady=off targeting=off variants=assassin-lancelot",
     RPL_E_RULES, "V-1: unknown variant \"assassin-lancelot\"", 0},
    {"rules players=5 roles=merlin,servant,servant,morgana,mordred "
     "lady=off targeting=off variants=assassin-morgana,assassin-mordred",
     RPL_E_RULES, "V-2: ", 0},
    {"rules players=5 roles=merlin,servant,servant,assassin,mordred "
     "lady=off targeting=off variants=assassin-mordred",
     RPL_E_RULES, "V-3: assassin-mordred needs mordred", 0},
    {"rules players=5 roles=merlin,servant,servant,assassin,minion "
     "lady=off targeting=off variants=assassin-morgana",
     RPL_E_RULES, "V-3: assassin-morgana needs morgana", 0},
    {"rules players=5 roles=merlin,percival,servant,assassin,morgana "
     "lady=off targeting=off variants=percival-alone",
     RPL_E_RULES, "V-4: ", 0},
    {"rules players=5 roles=servant,servant,servant,assassin,minion "
     "lady=off targeting=off variants=assassin-names-evil",
     RPL_E_RULES, "V-5: ", 0},
    {"rules players=5 roles=merlin,servant,servant,mordred,minion "
     "lady=off targeting=off",
     RPL_E_RULES, "H-4: merlin needs an assassin", 0},
    {"rules players=5 roles=merlin,servant,servant,mordred,minion "
     "lady=off targeting=off variants=",
     RPL_E_SYNTAX, "expected a variant name", 0},
    {"rules players=5 roles=merlin,servant,servant,mordred,minion "
     "lady=off targeting=off variants=assassin-names-evil,assassin-mordred",
     RPL_E_SYNTAX, "variants not in canonical order", 0},
    {"rules players=5 roles=merlin,servant,servant,mordred,minion "
     "lady=off targeting=off variants=assassin-mordred,assassin-mordred",
     RPL_E_SYNTAX, "variants not in canonical order", 0},
    {"rules players=5 roles=merlin,servant,servant,mordred,minion "
     "lady=off variants=assassin-mordred targeting=off",
     RPL_E_SYNTAX, "expected \"rules players=N", 0},
    /* non-canonical spellings */
    {"rules players=5 roles=servant,merlin,servant,assassin,minion "
     "lady=off targeting=off",
     RPL_E_SYNTAX, "roles not in canonical order", 0},
    {"rules players=5 roles=merlin,servant,servant,minion,assassin "
     "lady=off targeting=off",
     RPL_E_SYNTAX, "roles not in canonical order", 0},
    {"rules players=5 roles=Merlin,servant,servant,assassin,minion "
     "lady=off targeting=off",
     RPL_E_SYNTAX, "expected a lowercase role name", 0},
    {"rules players=5 roles=merlin,,servant,assassin,minion lady=off "
     "targeting=off",
     RPL_E_SYNTAX, "expected a lowercase role name", 0},
    {"rules roles=merlin,servant,servant,assassin,minion players=5 "
     "lady=off targeting=off",
     RPL_E_SYNTAX, "expected \"rules players=N", 0},
    {"rules players=05 roles=merlin,servant,servant,assassin,minion "
     "lady=off targeting=off",
     RPL_E_SYNTAX, "expected \"rules players=N", 0},
    {"rules players=5 roles=merlin,servant,servant,assassin,minion lady=yes "
     "targeting=off",
     RPL_E_SYNTAX, "expected \"rules players=N", 0},
    {"rules players=5 roles=merlin,servant,servant,assassin,minion lady=off",
     RPL_E_SYNTAX, "expected \"rules players=N", 0},
};

START_TEST(test_rules_line)
{
    const struct rules_case *c = &rules_cases[_i];
    struct game g;
    const enum rpl_status rc = g_open(&g, c->line, false, 1);

    ck_assert_msg(rc == c->code, "%s: %d %s", c->line, (int)rc, g.err.msg);
    if (rc != RPL_OK) {
        ck_assert_msg(strncmp(g.err.msg, c->msg, strlen(c->msg)) == 0 ||
                          strstr(g.err.msg, c->msg),
                      "%s: %s", c->line, g.err.msg);
        ck_assert_uint_eq(g.err.line, 5);
        /* a refused rules line leaves the zeroed state */
        for (size_t i = 0; i < rpl__avalon.state_size; i++)
            ck_assert_uint_eq(((uint8_t *)g.st)[i], 0);
    } else {
        ck_assert_uint_eq(g.nwarn, c->nwarn);
        if (c->nwarn) {
            bool found = false;

            for (size_t i = 0; i < g.nwarn && i < 8; i++)
                found |= strncmp(g.warn[i], c->msg, strlen(c->msg)) == 0;
            ck_assert_msg(found, "%s: no %s warning", c->line, c->msg);
        }
    }
    g_close(&g);
}
END_TEST

/* Every W and O rule at once, each warning starting with its id. */
START_TEST(test_rules_warning_ids)
{
    struct game g;

    ck_assert_int_eq(
        g_open(&g,
               "rules players=9 roles=servant,servant,servant,servant,servant,"
               "servant,morgana,mordred,minion lady=off targeting=off",
               false, 1),
        RPL_OK);
    ck_assert_uint_eq(g.nwarn, 4);
    ck_assert(strncmp(g.warn[0], "W-1: ", 5) == 0);
    ck_assert(strncmp(g.warn[1], "W-2: ", 5) == 0);
    ck_assert(strncmp(g.warn[2], "W-3: ", 5) == 0);
    ck_assert(strncmp(g.warn[3], "W-4: ", 5) == 0);
    ck_assert_uint_eq(g.env.seats, 9);
    g_close(&g);
    ck_assert_int_eq(
        g_open(&g,
               "rules players=5 roles=merlin,percival,servant,assassin,minion "
               "lady=on targeting=off",
               false, 1),
        RPL_OK);
    ck_assert_uint_eq(g.nwarn, 2);
    ck_assert(strncmp(g.warn[0], "O-1: ", 5) == 0);
    ck_assert(strncmp(g.warn[1], "O-2: ", 5) == 0);
    g_close(&g);
}
END_TEST

/* ---------------------------------------------- §12 rejections, each */

START_TEST(test_reject_unknown_keyword)
{
    struct game g;

    g_seven(&g);
    g_refuse(&g, RPL_E_SYNTAX, "unknown keyword \"excalibur\"",
             "excalibur p1 p2");
    g_refuse(&g, RPL_E_SYNTAX, "expected \"propose p1 pA,pB,...\"",
             "propose p1 p1;p2");
    g_refuse(&g, RPL_E_SYNTAX, "expected \"vote pK yes|no\"", "vote p3 maybe");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_propose_phase)
{
    struct game g;

    g_seven(&g);
    g_propose(&g, "p1,p2");
    g_refuse(&g, RPL_E_RULES,
             "expected \"vote p1 yes|no\", got \"propose p1 p1,p2\"",
             "propose p1 p1,p2");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_propose_leader)
{
    struct game g;

    g_seven(&g);
    g_refuse(&g, RPL_E_RULES, "p2 proposes but the leader is p1",
             "propose p2 p1,p2");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_propose_size)
{
    struct game g;

    g_seven(&g);
    g_refuse(&g, RPL_E_RULES, "team for quest 1 needs 2 seats, got 3",
             "propose p1 p1,p2,p3");
    g_refuse(&g, RPL_E_RULES, "team for quest 1 needs 2 seats, got 1",
             "propose p1 p4");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_propose_distinct)
{
    struct game g;

    g_seven(&g);
    g_refuse(&g, RPL_E_RULES, "p2 appears twice in the team",
             "propose p1 p2,p2");
    /* distinct but not ascending is not canonical */
    g_refuse(&g, RPL_E_SYNTAX, "expected \"propose p1", "propose p1 p3,p2");
    g_refuse(&g, RPL_E_SYNTAX, "expected \"propose p1", "propose p1 p3,p9");
    g_close(&g);
}
END_TEST

static const char rules7t[] = "rules players=7 "
                              "roles=merlin,percival,servant,servant,"
                              "assassin,morgana,mordred lady=off "
                              "targeting=on";

START_TEST(test_reject_propose_slot_played)
{
    struct game g;

    g_fixed(&g, rules7t, deal7, 1);
    g_dealer(&g);
    g_propose(&g, "q3 p1,p2,p3");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "sss");
    ck_assert_str_eq(g_last(&g), "quest 3 success fails=0");
    g_refuse(&g, RPL_E_RULES, "quest slot 3 has been played",
             "propose p2 q3 p1,p2,p3");
    /* a rejected proposal uses no slot (A-28) */
    g_propose(&g, "q2 p1,p2,p3");
    g_votes(&g, "nnnnnnn");
    g_propose(&g, "q2 p1,p2,p3");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_propose_slot5_lock)
{
    struct game g;

    g_fixed(&g, rules7t, deal7, 1);
    g_dealer(&g);
    g_refuse(&g, RPL_E_RULES, "slot 5 needs two successful quests, got 0",
             "propose p1 q5 p1,p2,p3,p4");
    g_propose(&g, "q1 p1,p2");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ss");
    /* a failed quest does not count (A-29) */
    g_propose(&g, "q2 p1,p2,p5");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssf");
    ck_assert_str_eq(g_last(&g), "quest 2 fail fails=1");
    g_refuse(&g, RPL_E_RULES, "slot 5 needs two successful quests, got 1",
             "propose p3 q5 p1,p2,p3,p4");
    g_propose(&g, "q3 p1,p2,p3");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "sss");
    /* two successes: slot 5 opens, with its own size */
    g_refuse(&g, RPL_E_RULES, "team for quest 5 needs 4 seats, got 3",
             "propose p4 q5 p1,p2,p3");
    g_propose(&g, "q5 p1,p2,p3,p4");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssss");
    ck_assert_str_eq(g_last(&g), "quest 5 success fails=0");
    ck_assert_uint_eq(g.st->phase, AV_PH_ASSASSIN);
    g_close(&g);
}
END_TEST

START_TEST(test_reject_vote_phase)
{
    struct game g;

    g_seven(&g);
    g_refuse(&g, RPL_E_RULES, "expected \"propose p1 pA,pB,...\"",
             "vote p1 yes");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_vote_order)
{
    struct game g;

    g_seven(&g);
    g_propose(&g, "p1,p2");
    g_refuse(&g, RPL_E_RULES, "expected \"vote p1 yes|no\", got \"vote p2 yes",
             "vote p2 yes");
    ck_assert_int_eq(g_act(&g, "vote p1 yes"), RPL_OK);
    /* twice */
    g_refuse(&g, RPL_E_RULES, "expected \"vote p2 yes|no\", got \"vote p1 no",
             "vote p1 no");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_team_tally)
{
    struct game g;

    g_seven(&g);
    g_propose(&g, "p1,p2");
    for (unsigned k = 1; k <= 7; k++)
        ck_assert_int_eq(g_act(&g, "vote p%u %s", k, k <= 4 ? "yes" : "no"),
                         RPL_OK);
    g_refuse(&g, RPL_E_RULES, "expected \"team approved 4-3\"",
             "team approved 5-2");
    g_refuse(&g, RPL_E_RULES, "expected \"team approved 4-3\"",
             "team rejected 4-3");
    g_refuse(&g, RPL_E_SYNTAX, "expected \"team approved 4-3\"",
             "team approved 4:3");
    g_refuse(&g, RPL_E_RULES, "expected \"team approved 4-3\"",
             "propose p2 p1,p2");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_card_phase)
{
    struct game g;
    char hex[65];
    char text[128];

    g_seven(&g);
    hex_commit(&g, "card 1 p1", "success", hex);
    snprintf(text, sizeof(text), "card p1 %s", hex);
    g_refuse(&g, RPL_E_RULES, "expected \"propose p1 pA,pB,...\"", text);
    g_close(&g);
}
END_TEST

START_TEST(test_reject_card_member)
{
    struct game g;
    char hex[65];
    char text[128];

    g_seven(&g);
    g_propose(&g, "p2,p4");
    g_votes(&g, "yyyyyyy");
    hex_commit(&g, "card 1 p3", "success", hex);
    snprintf(text, sizeof(text), "card p3 %s", hex);
    g_refuse(&g, RPL_E_RULES, "expected \"card p2 <commitment>\"", text);
    /* members in ascending order */
    hex_commit(&g, "card 1 p4", "success", hex);
    snprintf(text, sizeof(text), "card p4 %s", hex);
    g_refuse(&g, RPL_E_RULES, "expected \"card p2 <commitment>\"", text);
    ck_assert_int_eq(g_act(&g, "card p2 success"), RPL_OK);
    /* exactly once */
    hex_commit(&g, "card 1 p2", "success", hex);
    snprintf(text, sizeof(text), "card p2 %s", hex);
    g_refuse(&g, RPL_E_RULES, "expected \"card p4 <commitment>\"", text);
    g_close(&g);
}
END_TEST

START_TEST(test_reject_card_good_fail)
{
    struct game g;
    struct rpl__emit e;
    char text[LINE_MAX_LEN];
    uint8_t *before = malloc(rpl__avalon.state_size);

    g_seven(&g);
    g_propose(&g, "p2,p5");
    g_votes(&g, "yyyyyyy");
    /* the recorder learns the card, then applies its line */
    ck_assert_int_eq(
        rpl__avalon.live->action(g.st, &g.env, "card p2 fail", &e, &g.err),
        RPL_OK);
    ck_assert_str_eq(e.line, "card p2");
    ck_assert_str_eq(e.label, "card 1 p2");
    ck_assert_str_eq(e.value, "fail");
    ck_assert_int_eq(rpl__avalon.play->learn(g.st, e.label, e.value, &g.err),
                     RPL_OK);
    emit_text(&g, &e, text);
    memcpy(before, g.st, rpl__avalon.state_size);
    g_refuse(&g, RPL_E_RULES, "p2 is good and cannot play fail", text);
    ck_assert(memcmp(before, g.st, rpl__avalon.state_size) == 0);
    /* evil may fail (A-16) */
    ck_assert_int_eq(g_act(&g, "card p2 success"), RPL_OK);
    ck_assert_int_eq(g_act(&g, "card p5 fail"), RPL_OK);
    g_dealer(&g);
    ck_assert_str_eq(g_last(&g), "quest 1 fail fails=1");
    free(before);
    g_close(&g);
}
END_TEST

START_TEST(test_reject_quest_line)
{
    struct game g;

    g_seven(&g);
    g_propose(&g, "p2,p5");
    g_votes(&g, "yyyyyyy");
    ck_assert_int_eq(g_act(&g, "card p2 success"), RPL_OK);
    ck_assert_int_eq(g_act(&g, "card p5 fail"), RPL_OK);
    g_refuse(&g, RPL_E_RULES, "quest 1 had 2 cards, got fails=3",
             "quest 1 fail fails=3");
    g_refuse(&g, RPL_E_RULES, "expected \"quest 1 fail fails=1\"",
             "quest 1 success fails=1");
    g_refuse(&g, RPL_E_RULES, "quest 1 had 1 fail card, got fails=2",
             "quest 1 fail fails=2");
    g_refuse(&g, RPL_E_RULES, "expected \"quest 1 fail fails=1\"",
             "quest 2 fail fails=1");
    g_refuse(&g, RPL_E_SYNTAX, "expected \"quest 1 fail fails=1\"",
             "quest 1 fail 1");
    ck_assert_int_eq(g_raw(&g, "quest 1 fail fails=1"), RPL_OK);
    g_close(&g);
}
END_TEST

/* Plays a 7-seat game to the first Lady (after round 2). */
static void
g_seven_to_lady(struct game *g)
{
    g_seven(g);
    g_propose(g, "p1,p2");
    g_votes(g, "yyyyyyy");
    g_cards(g, "ss");
    g_propose(g, "p1,p2,p3");
    g_votes(g, "yyyyyyy");
    g_cards(g, "sss");
    ck_assert_uint_eq(g->st->phase, AV_PH_LADY);
    ck_assert_uint_eq(rpl__avalon.play->turn(g->st), 7);
}

START_TEST(test_reject_lady_phase)
{
    struct game g;
    char hex[65];
    char text[128];

    g_seven(&g);
    g_propose(&g, "p1,p2");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ss");
    /* no Lady after round 1 */
    hex_commit(&g, "lady 1 p7 p1", "good", hex);
    snprintf(text, sizeof(text), "lady p7 p1 %s", hex);
    g_refuse(&g, RPL_E_RULES, "expected \"propose p2 pA,pB,...\"", text);
    g_close(&g);
}
END_TEST

START_TEST(test_reject_lady_holder)
{
    struct game g;
    char hex[65];
    char text[128];

    g_seven_to_lady(&g);
    hex_commit(&g, "lady 2 p6 p1", "good", hex);
    snprintf(text, sizeof(text), "lady p6 p1 %s", hex);
    g_refuse(&g, RPL_E_RULES, "p6 examines but the lady of the lake is with p7",
             text);
    g_close(&g);
}
END_TEST

START_TEST(test_reject_lady_self)
{
    struct game g;
    char hex[65];
    char text[128];

    g_seven_to_lady(&g);
    hex_commit(&g, "lady 2 p7 p7", "evil", hex);
    snprintf(text, sizeof(text), "lady p7 p7 %s", hex);
    g_refuse(&g, RPL_E_RULES, "p7 cannot examine themself", text);
    g_close(&g);
}
END_TEST

/* The immunity chain: p7 -> p1 -> p5 -> p2; earlier holders are immune
 * (A-07), the initial one included. */
START_TEST(test_lady_immunity_chain)
{
    struct game g;
    struct rpl__emit e;
    char hex[65];
    char text[128];

    g_seven_to_lady(&g);
    ck_assert_int_eq(
        rpl__avalon.live->action(g.st, &g.env, "lady p7 p1", &e, &g.err),
        RPL_OK);
    ck_assert_str_eq(e.label, "lady 2 p7 p1");
    ck_assert_str_eq(e.value, "good");
    ck_assert_int_eq(g_act(&g, "lady p7 p1"), RPL_OK);
    /* round 3, leader p3: the third success, no Lady after it */
    g_propose(&g, "p1,p2,p3");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "sss");
    ck_assert_uint_eq(g.st->phase, AV_PH_ASSASSIN);
    g_close(&g);

    /* the same with failures, so the game lasts */
    g_seven(&g);
    g_propose(&g, "p1,p5");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "sf");
    g_propose(&g, "p1,p2,p3");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "sss");
    ck_assert_int_eq(g_act(&g, "lady p7 p1"), RPL_OK);
    g_propose(&g, "p3,p5,p6");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "sff");
    ck_assert_str_eq(g_last(&g), "quest 3 fail fails=2");
    ck_assert_uint_eq(rpl__avalon.play->turn(g.st), 1);
    hex_commit(&g, "lady 3 p1 p7", "evil", hex);
    snprintf(text, sizeof(text), "lady p1 p7 %s", hex);
    g_refuse(&g, RPL_E_RULES,
             "p7 has held the lady of the lake and cannot be examined", text);
    ck_assert_int_eq(
        rpl__avalon.live->action(g.st, &g.env, "lady p1 p5", &e, &g.err),
        RPL_OK);
    ck_assert_str_eq(e.value, "evil");
    ck_assert_int_eq(g_act(&g, "lady p1 p5"), RPL_OK);
    /* round 4 (two fails needed at 7) */
    g_propose(&g, "p1,p2,p3,p4");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssss");
    ck_assert_uint_eq(rpl__avalon.play->turn(g.st), 5);
    hex_commit(&g, "lady 4 p5 p1", "good", hex);
    snprintf(text, sizeof(text), "lady p5 p1 %s", hex);
    g_refuse(&g, RPL_E_RULES,
             "p1 has held the lady of the lake and cannot be examined", text);
    hex_commit(&g, "lady 4 p5 p7", "evil", hex);
    snprintf(text, sizeof(text), "lady p5 p7 %s", hex);
    g_refuse(&g, RPL_E_RULES,
             "p7 has held the lady of the lake and cannot be examined", text);
    ck_assert_int_eq(g_act(&g, "lady p5 p2"), RPL_OK);
    /* no Lady after round 5 */
    g_propose(&g, "p2,p3,p4,p5");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssss");
    ck_assert_uint_eq(g.st->phase, AV_PH_ASSASSIN);
    ck_assert_uint_eq(g.st->nladies, 3);
    g_close(&g);
}
END_TEST

START_TEST(test_reject_assassinate_phase)
{
    struct game g;

    g_seven(&g);
    g_refuse(&g, RPL_E_RULES, "expected \"propose p1 pA,pB,...\"",
             "assassinate p5 p1");
    g_close(&g);
}
END_TEST

static const char rules5[] = "rules players=5 roles=merlin,servant,servant,"
                             "assassin,minion lady=off targeting=off";

/* Three successes at 5 seats: p1 merlin, p2-p3 servants, p4 assassin,
 * p5 minion, leader p1. */
static void
g_five_to_assassin(struct game *g, bool knowing)
{
    if (knowing) {
        g_fixed(g, rules5, "merlin,servant,servant,assassin,minion", 1);
        g_dealer(g);
    } else {
        char hex[65];

        ck_assert_int_eq(g_open(g, rules5, false, 1), RPL_OK);
        ck_assert_int_eq(g_raw(g, "start leader=p1"), RPL_OK);
        memset(hex, 'a', 64);
        hex[64] = '\0';
        for (unsigned k = 1; k <= 5; k++)
            ck_assert_int_eq(g_raw(g, "deal p%u %s", k, hex), RPL_OK);
    }
    for (unsigned r = 1; r <= 3; r++) {
        char hex[65];

        memset(hex, 'b', 64);
        hex[64] = '\0';
        ck_assert_int_eq(
            g_raw(g, "propose p%u %s", r, r == 2 ? "p1,p2,p3" : "p2,p3"),
            RPL_OK);
        for (unsigned k = 1; k <= 5; k++)
            ck_assert_int_eq(g_raw(g, "vote p%u yes", k), RPL_OK);
        ck_assert_int_eq(g_raw(g, "team approved 5-0"), RPL_OK);
        for (unsigned k = r == 2 ? 1 : 2; k <= 3; k++) {
            if (knowing) {
                char label[16];

                snprintf(label, sizeof(label), "card %u p%u", r, k);
                ck_assert_int_eq(
                    rpl__avalon.play->learn(g->st, label, "success", &g->err),
                    RPL_OK);
                hex_commit(g, label, "success", hex);
            }
            ck_assert_int_eq(g_raw(g, "card p%u %s", k, hex), RPL_OK);
        }
        ck_assert_int_eq(g_raw(g, "quest %u success fails=0", r), RPL_OK);
    }
    ck_assert_uint_eq(g->st->phase, AV_PH_ASSASSIN);
}

START_TEST(test_reject_assassinate_actor)
{
    struct game g;

    g_five_to_assassin(&g, true);
    ck_assert_uint_eq(rpl__avalon.play->turn(g.st), 4);
    g_refuse(&g, RPL_E_RULES, "p5 is not the assassin (p4 is)",
             "assassinate p5 p1");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_assassinate_self)
{
    struct game g;

    g_five_to_assassin(&g, false);
    g_refuse(&g, RPL_E_RULES, "p3 cannot name themself", "assassinate p3 p3");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_assassinate_known_evil)
{
    struct game g;

    g_five_to_assassin(&g, true);
    g_refuse(&g, RPL_E_RULES,
             "p4 cannot name p5, whom the assassin saw as "
             "evil",
             "assassinate p4 p5");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_end)
{
    struct game g;

    /* not before start */
    g_fixed(&g, rules7, deal7, 1);
    g_refuse(&g, RPL_E_RULES, "expected \"start leader=p1 lady=p7\"",
             "end aborted");
    g_dealer(&g);
    /* not decided */
    g_refuse(&g, RPL_E_RULES,
             "the game is not decided: expected \"propose p1 pA,pB,...\"",
             "end good quests");
    g_refuse(&g, RPL_E_SYNTAX,
             "expected \"end <winner> <reason>|end "
             "aborted\"",
             "end good failures");
    ck_assert_int_eq(g_raw(&g, "end aborted"), RPL_OK);
    ck_assert(rpl__avalon.play->is_over(g.st));
    g_refuse(&g, RPL_E_RULES, "the game is over", "propose p1 p1,p2");
    g_refuse(&g, RPL_E_RULES, "the game is over", "end aborted");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_wrong_leader_knowing)
{
    struct game g;

    g_fixed(&g, rules7, deal7, 3);
    g_refuse(&g, RPL_E_RULES, "the seed gives the first leader p3, got p1",
             "start leader=p1 lady=p7");
    g_refuse(&g, RPL_E_RULES,
             "the lady of the lake starts on p2, on the right of leader p3, "
             "got p7",
             "start leader=p3 lady=p7");
    g_refuse(&g, RPL_E_SYNTAX, "expected \"start leader=p3 lady=p2\"",
             "start leader=p3");
    g_close(&g);
}
END_TEST

START_TEST(test_reject_deal_order)
{
    struct game g;
    char hex[65];
    char text[128];

    g_fixed(&g, rules7, deal7, 1);
    ck_assert_int_eq(g_raw(&g, "start leader=p1 lady=p7"), RPL_OK);
    memset(hex, 'c', 64);
    hex[64] = '\0';
    snprintf(text, sizeof(text), "deal p2 %s", hex);
    g_refuse(&g, RPL_E_RULES, "expected \"deal p1 <commitment>\"", text);
    snprintf(text, sizeof(text), "deal p1 %.63s", hex);
    g_refuse(&g, RPL_E_SYNTAX, "expected \"deal p1 <commitment>\"", text);
    g_close(&g);
}
END_TEST

/* --------------------------------------------------------- scenarios */

/* Four rejections in round 1 do not carry into round 2 (A-11); the
 * fifth rejection of round 2 ends the game (A-12). */
START_TEST(test_rejection_counter)
{
    struct game g;
    struct rpl__emit e;
    char *v;

    g_seven(&g);
    for (unsigned i = 0; i < 4; i++) {
        g_propose(&g, "p1,p2");
        g_votes(&g, "yyynnnn"); /* 3 of 7: rejected */
        ck_assert_str_eq(g_last(&g), "team rejected 3-4");
    }
    ck_assert_uint_eq(g.st->rejections, 4);
    ck_assert_uint_eq(rpl__avalon.play->turn(g.st), 5); /* p1..p4 led */
    g_propose(&g, "p1,p2");
    g_votes(&g, "yyyynnn");
    ck_assert_str_eq(g_last(&g), "team approved 4-3");
    g_cards(&g, "ss");
    ck_assert_uint_eq(g.st->rejections, 0);
    ck_assert_uint_eq(g.st->round, 2);
    ck_assert_uint_eq(rpl__avalon.play->turn(g.st), 6);
    for (unsigned i = 0; i < 4; i++) {
        g_propose(&g, "p1,p2,p3");
        g_votes(&g, "nnnnnnn");
    }
    v = g_view(&g, RPL_VIEW_PUBLIC);
    ck_assert_msg(strstr(v, "round 2, leader p3, rejections 4"), "%s", v);
    rpl_free(g.ctx, v);
    ck_assert(!rpl__avalon.play->is_over(g.st));
    g_propose(&g, "p1,p2,p3");
    for (unsigned k = 1; k <= 7; k++)
        ck_assert_int_eq(g_act(&g, "vote p%u no", k), RPL_OK);
    ck_assert_int_eq(g_raw(&g, "team rejected 0-7"), RPL_OK);
    ck_assert_uint_eq(rpl__avalon.play->turn(g.st), 0);
    ck_assert(rpl__avalon.play->pending(g.st, &g.env, &e));
    ck_assert_str_eq(e.line, "end evil rejections");
    g_refuse(&g, RPL_E_RULES, "expected \"end evil rejections\"",
             "propose p4 p1,p2,p3");
    g_refuse(&g, RPL_E_RULES, "expected \"end evil rejections\"",
             "end aborted");
    g_refuse(&g, RPL_E_RULES, "expected \"end evil rejections\"",
             "end evil failures");
    g_dealer(&g);
    ck_assert(rpl__avalon.play->is_over(g.st));
    {
        const char *w, *r;

        rpl__avalon.play->outcome(g.st, &w, &r);
        ck_assert_str_eq(w, "evil");
        ck_assert_str_eq(r, "rejections");
    }
    ck_assert_uint_eq(g.st->nprops, 10);
    g_close(&g);
}
END_TEST

/* Slot 4: one fail fails it at 6 seats, not at 7 (A-17). */
START_TEST(test_two_fail_quest)
{
    struct game g;

    g_fixed(&g,
            "rules players=6 roles=merlin,percival,servant,servant,assassin,"
            "morgana lady=off targeting=off",
            "merlin,percival,servant,servant,assassin,morgana", 1);
    g_dealer(&g);
    g_propose(&g, "p1,p2");
    g_votes(&g, "yyyyyy");
    g_cards(&g, "ss");
    g_propose(&g, "p1,p2,p5");
    g_votes(&g, "yyyyyy");
    g_cards(&g, "ssf");
    g_propose(&g, "p1,p2,p3,p6");
    g_votes(&g, "yyyyyy");
    g_cards(&g, "sssf");
    ck_assert_str_eq(g_last(&g), "quest 3 fail fails=1");
    g_propose(&g, "p1,p2,p5");
    g_votes(&g, "yyyyyy");
    g_cards(&g, "ssf");
    ck_assert_str_eq(g.lines[g.nlines - 2], "quest 4 fail fails=1");
    ck_assert_str_eq(g_last(&g), "end evil failures");
    g_close(&g);

    g_seven(&g);
    g_propose(&g, "p1,p2");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ss");
    g_propose(&g, "p1,p2,p5");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssf");
    ck_assert_int_eq(g_act(&g, "lady p7 p1"), RPL_OK);
    g_propose(&g, "p1,p2,p6");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssf");
    ck_assert_int_eq(g_act(&g, "lady p1 p5"), RPL_OK);
    /* round 4 = slot 4: one fail is a success */
    g_propose(&g, "p1,p2,p5,p6");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssfs");
    ck_assert_str_eq(g_last(&g), "quest 4 success fails=1");
    ck_assert_uint_eq(g.st->successes, 2);
    ck_assert_int_eq(g_act(&g, "lady p5 p2"), RPL_OK);
    g_propose(&g, "p1,p2,p5,p6");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssff");
    ck_assert_str_eq(g_last(&g), "end evil failures");
    g_close(&g);

    /* two fails on slot 4 at 7 seats (Targeting) */
    g_fixed(&g, rules7t, deal7, 1);
    g_dealer(&g);
    g_propose(&g, "q4 p1,p2,p5,p6");
    g_votes(&g, "yyyyyyy");
    g_cards(&g, "ssff");
    ck_assert_str_eq(g_last(&g), "quest 4 fail fails=2");
    g_close(&g);
}
END_TEST

START_TEST(test_assassination_hit_and_miss)
{
    for (unsigned hit = 0; hit <= 1; hit++) {
        struct game g;
        struct rpl__emit e;
        const char *w, *r;

        g_five_to_assassin(&g, true);
        ck_assert(!rpl__avalon.play->pending(g.st, &g.env, &e));
        ck_assert_int_eq(g_act(&g, "assassinate p4 %s", hit ? "p1" : "p3"),
                         RPL_OK);
        ck_assert(rpl__avalon.play->pending(g.st, &g.env, &e));
        ck_assert_str_eq(e.line,
                         hit ? "end evil assassination" : "end good missed");
        g_refuse(&g, RPL_E_RULES, "expected",
                 hit ? "end good missed" : "end evil assassination");
        g_refuse(&g, RPL_E_RULES, "expected", "end aborted");
        g_dealer(&g);
        rpl__avalon.play->outcome(g.st, &w, &r);
        ck_assert_str_eq(w, hit ? "evil" : "good");
        ck_assert_str_eq(r, hit ? "assassination" : "missed");
        g_close(&g);

        /* public: either end is accepted until the reveal */
        g_five_to_assassin(&g, false);
        ck_assert_uint_eq(rpl__avalon.play->turn(g.st), 0);
        ck_assert_int_eq(g_raw(&g, "assassinate p4 %s", hit ? "p1" : "p3"),
                         RPL_OK);
        g_refuse(&g, RPL_E_RULES, "end evil assassination|end good missed",
                 "end good quests");
        ck_assert_int_eq(
            g_raw(&g, "%s", hit ? "end good missed" : "end evil assassination"),
            RPL_OK);
        g_close(&g);
    }
}
END_TEST

/* An assassination may still be aborted: it is the line that decides. */
START_TEST(test_abort_during_assassination)
{
    struct game g;

    g_five_to_assassin(&g, false);
    ck_assert_int_eq(g_raw(&g, "end aborted"), RPL_OK);
    ck_assert(rpl__avalon.play->is_over(g.st));
    g_close(&g);
}
END_TEST

/* Without Merlin good wins on the third success (A-21, W-3). */
START_TEST(test_no_merlin)
{
    struct game g;
    const char *w, *r;

    g_fixed(&g,
            "rules players=5 roles=servant,servant,servant,assassin,minion "
            "lady=off targeting=off",
            "servant,servant,servant,assassin,minion", 1);
    ck_assert_uint_eq(g.nwarn, 1);
    ck_assert(strncmp(g.warn[0], "W-3: ", 5) == 0);
    g_dealer(&g);
    g_propose(&g, "p1,p2");
    g_votes(&g, "yyyyy");
    g_cards(&g, "ss");
    g_propose(&g, "p1,p2,p3");
    g_votes(&g, "yyyyy");
    g_cards(&g, "sss");
    g_propose(&g, "p1,p4");
    g_votes(&g, "yyyyy");
    g_cards(&g, "ss"); /* the assassin plays along */
    ck_assert_str_eq(g.lines[g.nlines - 2], "quest 3 success fails=0");
    ck_assert_str_eq(g_last(&g), "end good quests");
    rpl__avalon.play->outcome(g.st, &w, &r);
    ck_assert_str_eq(w, "good");
    ck_assert_str_eq(r, "quests");
    g_close(&g);

    /* public mode decides the same at once */
    ck_assert_int_eq(
        g_open(&g,
               "rules players=5 roles=servant,servant,servant,minion,minion "
               "lady=off targeting=off",
               false, 1),
        RPL_OK);
    ck_assert_int_eq(g_raw(&g, "start leader=p2"), RPL_OK);
    for (unsigned k = 1; k <= 5; k++)
        ck_assert_int_eq(g_raw(&g, "deal p%u %064x", k, 0), RPL_OK);
    for (unsigned r2 = 1; r2 <= 3; r2++) {
        const unsigned size = t_team[0][r2 - 1];

        ck_assert_int_eq(g_raw(&g, "propose p%u %s", r2 + 1,
                               size == 2 ? "p1,p2" : "p1,p2,p3"),
                         RPL_OK);
        for (unsigned k = 1; k <= 5; k++)
            ck_assert_int_eq(g_raw(&g, "vote p%u yes", k), RPL_OK);
        ck_assert_int_eq(g_raw(&g, "team approved 5-0"), RPL_OK);
        for (unsigned k = 1; k <= size; k++)
            ck_assert_int_eq(g_raw(&g, "card p%u %064x", k, k), RPL_OK);
        ck_assert_int_eq(g_raw(&g, "quest %u success fails=0", r2), RPL_OK);
    }
    g_refuse(&g, RPL_E_RULES, "expected \"end good quests\"",
             "assassinate p4 p1");
    ck_assert_int_eq(g_raw(&g, "end good quests"), RPL_OK);
    g_close(&g);
}
END_TEST

/* --------------------------------------------------- the test vector */

START_TEST(test_vector_deal)
{
    static const char *const views[8] = {
        NULL,
        "role=merlin sees=p2,p4",
        "role=morgana sees=p3,p4",
        "role=mordred sees=p2,p4",
        "role=assassin sees=p2,p3",
        "role=servant",
        "role=percival sees=p1,p2",
        "role=servant",
    };
    static const char *const roles[8] = {
        NULL,       "merlin",  "morgana",  "mordred",
        "assassin", "servant", "percival", "servant",
    };
    struct game g;
    struct rpl__emit e;
    uint8_t secret[32];
    uint8_t entropy[2][32];
    uint8_t nonce[32];
    uint8_t c[32];
    char hex[65];

    ck_assert_int_eq(g_open(&g, rules7, false, 0), RPL_OK);
    for (int i = 0; i < 32; i++)
        secret[i] = (uint8_t)(i + 1);
    memset(entropy[0], 0xaa, 32);
    memset(entropy[1], 0xbb, 32);
    rpl__seed(g.seed, tv_id, secret, (const uint8_t(*)[32])entropy, 2);
    rpl__hex(hex, g.seed, 32);
    ck_assert_str_eq(
        hex,
        "3e402299f37cbe232c97152132827a41e0363571c99ef345bfd164ca5d86eeb9");
    g.env.seed = g.seed;
    ck_assert_int_eq(rpl__avalon.play->setup(g.st, &g.env, &g.err), RPL_OK);
    for (size_t k = 1; k <= 7; k++)
        ck_assert_str_eq(rpl__avalon_role(g.st, k), roles[k]);
    ck_assert(rpl__avalon.play->pending(g.st, &g.env, &e));
    ck_assert_str_eq(e.line, "start leader=p3 lady=p2");
    ck_assert_str_eq(e.label, "");
    g_dealer(&g);
    for (size_t k = 1; k <= 7; k++) {
        char label[16];

        snprintf(label, sizeof(label), "deal p%zu", k);
        ck_assert_int_eq(strncmp(g.lines[k], label, strlen(label)), 0);
        rpl__commit(c, nonce, g.seed, tv_id, label, views[k], 1);
        rpl__hex(hex, c, 32);
        ck_assert_str_eq(g.lines[k] + strlen(label) + 1, hex);
        if (k == 1) {
            ck_assert_str_eq(hex, "b6e04a650d673663df887adc0e4e105febfcfeb5b57"
                                  "32f2000f6f48da083acbe");
            rpl__hex(hex, nonce, 32);
            ck_assert_str_eq(hex, "d9ae85afb43706eaafd14c64c53e0d18577bf35a24a"
                                  "0847c0b277fd845a6bf9c");
        }
        if (k == 4) {
            ck_assert_str_eq(hex, "289d81c55f6f792c7717c328baa4b95fc0ce5b3ee1b"
                                  "ff99d92b894f4052babc1");
            rpl__hex(hex, nonce, 32);
            ck_assert_str_eq(hex, "61bf96a1547ba5d8e31cb6bebb5590f5cacbc752946"
                                  "d07ee3e941ace56ca4a76");
        }
    }
    /* the first card of the vector: p2's success in round 1 */
    g_propose(&g, "p2,p5");
    g_votes(&g, "yyyyyyy");
    ck_assert_int_eq(g_act(&g, "card p2 success"), RPL_OK);
    rpl__hex(hex, g.st->card[0].commit, 32);
    ck_assert_str_eq(
        hex,
        "5080561e8bb44f12f9ae5dec9a696637a7f45a42a4085da5dc158af068b6ab3c");
    g_close(&g);
}
END_TEST

/* ------------------------------------------------- reveal and opens */

/* A public game whose lines come from a knowing twin (same seed): the
 * start and deal lines are real; the rest is written by the test. */
struct pair {
    struct game pub;
    struct game know;
};

static void
pair_open(struct pair *p, const char *rules, unsigned tag)
{
    struct rpl__emit e;
    char text[LINE_MAX_LEN];

    ck_assert_int_eq(g_open(&p->know, rules, true, tag), RPL_OK);
    ck_assert_int_eq(g_open(&p->pub, rules, false, tag), RPL_OK);
    while (rpl__avalon.play->pending(p->know.st, &p->know.env, &e)) {
        emit_text(&p->know, &e, text);
        ck_assert_int_eq(g_apply_text(&p->know, text), RPL_OK);
        ck_assert_int_eq(g_apply_text(&p->pub, text), RPL_OK);
    }
}

static void
pair_close(struct pair *p)
{
    g_close(&p->pub);
    g_close(&p->know);
}

/* A seat of the given side in the knowing twin. */
static unsigned
seat_of_side(const struct game *g, bool evil, unsigned skip)
{
    for (unsigned k = 1; k <= g->st->n; k++)
        if (k != skip && av_is_evil(g->st->role[k]) == evil)
            return k;
    return 0;
}

static enum rpl_status
pub_reveal(struct game *g)
{
    g->env.seed = g->seed;
    rpl__err_clear(&g->err);
    return rpl__avalon.play->reveal(g->st, &g->env, ++g->no, &g->err);
}

static enum rpl_status RPL__PRINTF(2, 3)
    pub_open(struct game *g, const char *fmt, ...)
{
    char text[LINE_MAX_LEN];
    struct rpl__line ln;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    rpl__err_clear(&g->err);
    REQUIRE(rpl__line_split(&ln, text, strlen(text), ++g->no, &g->err) ==
                RPL_OK,
            "%s", text);
    return rpl__avalon.play->open(g->st, &ln, &g->env, &g->err);
}

/* A quest of the public game: the leader proposes team (a mask), all
 * vote yes, member k plays val[k] (commitments of the real seed), then
 * the quest line when not NULL. */
static void
pub_quest(struct pair *p, uint16_t team, const char *const val[],
          const char *quest)
{
    struct game *g = &p->pub;
    const unsigned n = g->st->n;
    char list[64] = "";
    size_t len = 0;

    for (unsigned k = 1; k <= n; k++)
        if (team & (1u << k))
            len += (size_t)snprintf(list + len, sizeof(list) - len, "%sp%u",
                                    len ? "," : "", k);
    ck_assert_int_eq(g_raw(g, "propose p%u %s", av_leader(g->st), list),
                     RPL_OK);
    for (unsigned k = 1; k <= n; k++)
        ck_assert_int_eq(g_raw(g, "vote p%u yes", k), RPL_OK);
    ck_assert_int_eq(g_raw(g, "team approved %u-0", n), RPL_OK);
    for (unsigned k = 1; k <= n; k++) {
        char label[16];
        char hex[65];

        if (!(team & (1u << k)))
            continue;
        snprintf(label, sizeof(label), "card %u p%u", g->st->round, k);
        hex_commit(g, label, val[k], hex);
        ck_assert_int_eq(g_raw(g, "card p%u %s", k, hex), RPL_OK);
    }
    if (quest)
        ck_assert_int_eq(g_raw(g, "%s", quest), RPL_OK);
}

START_TEST(test_reveal_good_fail_names_card)
{
    struct pair p;
    unsigned good, evil;
    size_t card_line;

    const char *val[11] = {NULL};

    pair_open(&p, rules5, 11);
    good = seat_of_side(&p.know, false, 0);
    evil = seat_of_side(&p.know, true, 0);
    val[good] = "fail";
    val[evil] = "success";
    pub_quest(&p, (uint16_t)(1u << good | 1u << evil), val,
              "quest 1 fail fails=1");
    card_line = p.pub.st->card[good < evil ? 0 : 1].line;
    ck_assert_int_eq(g_raw(&p.pub, "end aborted"), RPL_OK);
    ck_assert_int_eq(pub_reveal(&p.pub), RPL_OK);
    ck_assert_uint_eq(p.pub.commitments, 5);
    ck_assert_uint_eq(rpl__avalon.play->opens_left(p.pub.st), 2);
    if (good < evil) {
        ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u fail", good),
                         RPL_E_RULES);
    } else {
        ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u success", evil),
                         RPL_OK);
        ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u fail", good),
                         RPL_E_RULES);
    }
    ck_assert_uint_eq(p.pub.err.line, card_line);
    ck_assert_msg(strstr(p.pub.err.msg, "is good and cannot play fail"), "%s",
                  p.pub.err.msg);
    pair_close(&p);
}
END_TEST

START_TEST(test_reveal_fail_count_names_quest)
{
    struct pair p;
    unsigned good, evil;
    size_t quest_line;

    const char *val[11] = {NULL};

    pair_open(&p, rules5, 12);
    good = seat_of_side(&p.know, false, 0);
    evil = seat_of_side(&p.know, true, 0);
    /* both play success, the quest line says one fail */
    val[good] = val[evil] = "success";
    pub_quest(&p, (uint16_t)(1u << good | 1u << evil), val,
              "quest 1 fail fails=1");
    quest_line = p.pub.no;
    ck_assert_int_eq(g_raw(&p.pub, "end aborted"), RPL_OK);
    ck_assert_int_eq(pub_reveal(&p.pub), RPL_OK);
    ck_assert_int_eq(
        pub_open(&p.pub, "open card 1 p%u success", good < evil ? good : evil),
        RPL_OK);
    ck_assert_int_eq(
        pub_open(&p.pub, "open card 1 p%u success", good < evil ? evil : good),
        RPL_E_RULES);
    ck_assert_uint_eq(p.pub.err.line, quest_line);
    ck_assert_str_eq(p.pub.err.msg, "quest 1 had 0 fail cards, got fails=1");
    pair_close(&p);
}
END_TEST

START_TEST(test_open_order_and_commitment)
{
    struct pair p;
    unsigned good, evil, lo, hi;
    uint8_t *before = malloc(rpl__avalon.state_size);

    const char *val[11] = {NULL};
    uint16_t goods = 0;

    pair_open(&p, rules5, 13);
    good = seat_of_side(&p.know, false, 0);
    evil = seat_of_side(&p.know, true, 0);
    lo = good < evil ? good : evil;
    hi = good < evil ? evil : good;
    val[good] = "success";
    val[evil] = "fail";
    pub_quest(&p, (uint16_t)(1u << good | 1u << evil), val,
              "quest 1 fail fails=1");
    /* an unfinished second quest (the three good seats): its cards are
     * opened too */
    for (unsigned k = 1; k <= 5; k++)
        if (!av_is_evil(p.know.st->role[k])) {
            goods |= (uint16_t)(1u << k);
            val[k] = "success";
        }
    pub_quest(&p, goods, val, NULL);
    ck_assert_int_eq(g_raw(&p.pub, "end aborted"), RPL_OK);
    ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u success", lo),
                     RPL_E_STATE);
    ck_assert_int_eq(pub_reveal(&p.pub), RPL_OK);
    ck_assert_uint_eq(rpl__avalon.play->opens_left(p.pub.st), 5);
    memcpy(before, p.pub.st, rpl__avalon.state_size);
    /* not the next card */
    ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u success", hi),
                     RPL_E_RULES);
    ck_assert_uint_eq(p.pub.err.line, p.pub.no);
    {
        char want[96];

        snprintf(want, sizeof(want),
                 "expected \"open card 1 p%u success|fail\", got \"open card "
                 "1 p%u success\"",
                 lo, hi);
        ck_assert_str_eq(p.pub.err.msg, want);
    }
    /* the wrong value does not match the commitment */
    ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u %s", lo,
                              lo == evil ? "success" : "fail"),
                     RPL_E_FAIRNESS);
    ck_assert_uint_eq(p.pub.err.line, p.pub.no);
    ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u succes", lo),
                     RPL_E_SYNTAX);
    ck_assert(memcmp(before, p.pub.st, rpl__avalon.state_size) == 0);
    ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u %s", lo,
                              lo == evil ? "fail" : "success"),
                     RPL_OK);
    ck_assert_int_eq(pub_open(&p.pub, "open card 1 p%u %s", hi,
                              hi == evil ? "fail" : "success"),
                     RPL_OK);
    ck_assert_uint_eq(rpl__avalon.play->opens_left(p.pub.st), 3);
    for (unsigned i = 2; i < 5; i++) {
        const struct av_card *c = &p.pub.st->card[i];

        ck_assert_int_eq(
            pub_open(&p.pub, "open card 2 p%u success", (unsigned)c->seat),
            RPL_OK);
    }
    ck_assert_uint_eq(rpl__avalon.play->opens_left(p.pub.st), 0);
    ck_assert_int_eq(pub_open(&p.pub, "open card 2 p1 success"), RPL_E_RULES);
    ck_assert_uint_eq(p.pub.commitments, 5 + 5);
    free(before);
    pair_close(&p);
}
END_TEST

START_TEST(test_reveal_deal_mismatch)
{
    struct pair p;
    uint8_t *before = malloc(rpl__avalon.state_size);
    char hex[65];

    /* the deal line of p3 commits to another view */
    ck_assert_int_eq(g_open(&p.pub, rules5, false, 14), RPL_OK);
    ck_assert_int_eq(g_open(&p.know, rules5, true, 14), RPL_OK);
    {
        struct rpl__emit e;
        char text[LINE_MAX_LEN];

        while (rpl__avalon.play->pending(p.know.st, &p.know.env, &e)) {
            emit_text(&p.know, &e, text);
            ck_assert_int_eq(g_apply_text(&p.know, text), RPL_OK);
            if (strcmp(e.label, "deal p3") == 0) {
                hex_commit(&p.know, "deal p3", "role=servant sees=p1", hex);
                snprintf(text, sizeof(text), "deal p3 %s", hex);
            }
            ck_assert_int_eq(g_apply_text(&p.pub, text), RPL_OK);
        }
    }
    ck_assert_int_eq(g_raw(&p.pub, "end aborted"), RPL_OK);
    memcpy(before, p.pub.st, rpl__avalon.state_size);
    ck_assert_int_eq(pub_reveal(&p.pub), RPL_E_FAIRNESS);
    ck_assert_uint_eq(p.pub.err.line, 20 + 3);
    ck_assert_str_eq(p.pub.err.msg, "deal p3 does not match its commitment");
    ck_assert_uint_eq(p.pub.commitments, 2);
    ck_assert(memcmp(before, p.pub.st, rpl__avalon.state_size) == 0);
    free(before);
    pair_close(&p);
}
END_TEST

START_TEST(test_reveal_start_leader)
{
    struct pair p;
    char text[LINE_MAX_LEN];

    pair_open(&p, rules5, 15);
    g_close(&p.pub);
    ck_assert_int_eq(g_open(&p.pub, rules5, false, 15), RPL_OK);
    /* another leader; the deals as they were */
    ck_assert_int_eq(
        g_raw(&p.pub, "start leader=p%u", p.know.st->leader0 % 5 + 1), RPL_OK);
    for (size_t i = 1; i <= 5; i++) {
        snprintf(text, sizeof(text), "%s", p.know.lines[i]);
        ck_assert_int_eq(g_apply_text(&p.pub, text), RPL_OK);
    }
    ck_assert_int_eq(g_raw(&p.pub, "end aborted"), RPL_OK);
    ck_assert_int_eq(pub_reveal(&p.pub), RPL_E_RULES);
    ck_assert_uint_eq(p.pub.err.line, 20);
    ck_assert_msg(strstr(p.pub.err.msg, "the seed gives the first leader"),
                  "%s", p.pub.err.msg);
    pair_close(&p);
}
END_TEST

/* A bot game recorded in knowing mode, then replayed publicly with one
 * line changed. */
static bool record(struct game *g, const char *rules, unsigned tag,
                   enum rpl_bot kind);
static bool step(struct game *g, enum rpl_bot kind, struct rpl__stream *rng);

static size_t
find_line(const struct game *g, const char *prefix)
{
    for (size_t i = 0; i < g->nlines; i++)
        if (strncmp(g->lines[i], prefix, strlen(prefix)) == 0)
            return i;
    return SIZE_MAX;
}

/* Replays g's lines into a public game, line idx replaced by text. */
static enum rpl_status
replay_with(const struct game *g, const char *rules, unsigned tag, size_t idx,
            const char *text, struct game *out)
{
    ck_assert_int_eq(g_open(out, rules, false, tag), RPL_OK);
    for (size_t i = 0; i < g->nlines; i++)
        ck_assert_msg(g_apply_text(out, i == idx ? text : g->lines[i]) ==
                          RPL_OK,
                      "%s: %s", i == idx ? text : g->lines[i], out->err.msg);
    return pub_reveal(out);
}

static const char rules8[] = "rules players=8 "
                             "roles=merlin,percival,servant,servant,servant,"
                             "assassin,morgana,oberon lady=on targeting=off";

START_TEST(test_reveal_lady_and_assassination)
{
    struct game g, pub;
    unsigned tag;
    bool found = false;
    size_t li, ai, ei;
    char text[LINE_MAX_LEN];
    char hex[65];

    /* a plausible game with a Lady and an assassination */
    for (tag = 100; tag < 400 && !found; tag++) {
        ck_assert(record(&g, rules8, tag, RPL_BOT_PLAUSIBLE));
        found = find_line(&g, "lady ") != SIZE_MAX &&
                find_line(&g, "assassinate ") != SIZE_MAX;
        if (!found)
            g_close(&g);
    }
    ck_assert(found);
    tag--;
    li = find_line(&g, "lady ");
    ai = find_line(&g, "assassinate ");
    ei = find_line(&g, "end ");

    /* as recorded: the reveal passes and counts every commitment */
    ck_assert_int_eq(replay_with(&g, rules8, tag, SIZE_MAX, NULL, &pub),
                     RPL_OK);
    ck_assert_uint_eq(pub.commitments, 8 + pub.st->nladies);
    g_close(&pub);

    /* the Lady's commitment to the other side */
    {
        const struct av_lady *l = &g.st->lady[0];
        char label[32];

        snprintf(label, sizeof(label), "lady %u p%u p%u", l->round, l->holder,
                 l->target);
        hex_commit(&g, label, l->side == AV_EVIL ? "good" : "evil", hex);
        snprintf(text, sizeof(text), "lady p%u p%u %s", l->holder, l->target,
                 hex);
    }
    ck_assert_int_eq(replay_with(&g, rules8, tag, li, text, &pub),
                     RPL_E_FAIRNESS);
    ck_assert_uint_eq(pub.err.line, 20 + li);
    g_close(&pub);

    /* the end contradicts the assassination */
    snprintf(text, sizeof(text), "%s",
             strcmp(g.lines[ei], "end good missed") == 0
                 ? "end evil assassination"
                 : "end good missed");
    ck_assert_int_eq(replay_with(&g, rules8, tag, ei, text, &pub), RPL_E_RULES);
    ck_assert_uint_eq(pub.err.line, 20 + ei);
    g_close(&pub);

    /* another actor: a good seat that is not the target */
    for (unsigned k = 1; k <= 8; k++) {
        if (av_is_evil(g.st->role[k]) || k == g.st->target)
            continue;
        snprintf(text, sizeof(text), "assassinate p%u p%u", k, g.st->target);
        break;
    }
    ck_assert_int_eq(replay_with(&g, rules8, tag, ai, text, &pub), RPL_E_RULES);
    ck_assert_uint_eq(pub.err.line, 20 + ai);
    ck_assert_msg(strstr(pub.err.msg, "is not the assassin"), "%s",
                  pub.err.msg);
    g_close(&pub);

    /* the assassin names morgana, a known evil seat */
    for (unsigned k = 1; k <= 8; k++)
        if (g.st->role[k] == AV_MORGANA)
            snprintf(text, sizeof(text), "assassinate p%u p%u", g.st->assassin,
                     k);
    ck_assert_int_eq(g_open(&pub, rules8, false, tag), RPL_OK);
    for (size_t i = 0; i < g.nlines; i++) {
        if (i == ei) {
            ck_assert_int_eq(g_raw(&pub, "end good missed"), RPL_OK);
            continue;
        }
        ck_assert_int_eq(g_apply_text(&pub, i == ai ? text : g.lines[i]),
                         RPL_OK);
    }
    ck_assert_int_eq(pub_reveal(&pub), RPL_E_RULES);
    ck_assert_uint_eq(pub.err.line, 20 + ai);
    ck_assert_msg(strstr(pub.err.msg, "whom the assassin saw as evil"), "%s",
                  pub.err.msg);
    g_close(&pub);

    /* naming oberon is legal and misses (A-20) */
    for (unsigned k = 1; k <= 8; k++)
        if (g.st->role[k] == AV_OBERON)
            snprintf(text, sizeof(text), "assassinate p%u p%u", g.st->assassin,
                     k);
    ck_assert_int_eq(g_open(&pub, rules8, false, tag), RPL_OK);
    for (size_t i = 0; i < g.nlines; i++) {
        if (i == ei) {
            ck_assert_int_eq(g_raw(&pub, "end good missed"), RPL_OK);
            continue;
        }
        ck_assert_int_eq(g_apply_text(&pub, i == ai ? text : g.lines[i]),
                         RPL_OK);
    }
    ck_assert_int_eq(pub_reveal(&pub), RPL_OK);
    g_close(&pub);
    g_close(&g);
}
END_TEST

/* ----------------------------------------------------- seeded games */

static void
random_rules(struct rpl__stream *r, unsigned n, char *out, size_t cap)
{
    static const char *const tok[AV_NROLES] = {
        "merlin",  "percival", "servant", "assassin",
        "morgana", "mordred",  "oberon",  "minion",
    };
    unsigned good = t_good[n - 5], evil = t_evil[n - 5];
    unsigned cnt[AV_NROLES] = {0};
    size_t len;
    bool first = true;

    if (rpl__stream_uniform(r, 5) != 0) {
        cnt[AV_MERLIN] = cnt[AV_ASSASSIN] = 1;
        good--;
        evil--;
        if (rpl__stream_uniform(r, 2)) {
            cnt[AV_PERCIVAL] = 1;
            good--;
        }
    } else if (rpl__stream_uniform(r, 2)) {
        cnt[AV_ASSASSIN] = 1;
        evil--;
    }
    for (unsigned role = AV_MORGANA; role <= AV_OBERON; role++)
        if (evil && rpl__stream_uniform(r, 2)) {
            cnt[role] = 1;
            evil--;
        }
    cnt[AV_SERVANT] = good;
    cnt[AV_MINION] = evil;
    len = (size_t)snprintf(out, cap, "rules players=%u roles=", n);
    for (unsigned role = 0; role < AV_NROLES; role++)
        for (unsigned i = 0; i < cnt[role]; i++) {
            len += (size_t)snprintf(out + len, cap - len, "%s%s",
                                    first ? "" : ",", tok[role]);
            first = false;
        }
    snprintf(out + len, cap - len, " lady=%s targeting=%s",
             rpl__stream_uniform(r, 2) ? "on" : "off",
             rpl__stream_uniform(r, 2) ? "on" : "off");
}

/* One step of a knowing game: the dealer's line, or a bot's action.
 * False when the game is over. */
/* One step of a knowing game: the dealer's line, or a bot's action.
 * False when the game is over. */
static bool
step(struct game *g, enum rpl_bot kind, struct rpl__stream *rng)
{
    struct rpl__emit e;
    char text[LINE_MAX_LEN];
    enum rpl_status rc;

    if (rpl__avalon.play->is_over(g->st))
        return false;
    if (!rpl__avalon.play->pending(g->st, &g->env, &e)) {
        REQUIRE(rpl__avalon.play->turn(g->st) > 0, "nobody to act");
        rc = rpl__avalon.live->bot(g->st, &g->env, kind, rng, &e, &g->err);
        REQUIRE(rc == RPL_OK, "bot: %s", g->err.msg);
        if (e.label[0] && strncmp(e.label, "card ", 5) == 0)
            REQUIRE(rpl__avalon.play->learn(g->st, e.label, e.value, NULL) ==
                        RPL_OK,
                    "learn %s", e.label);
    }
    emit_text(g, &e, text);
    rc = g_apply_text(g, text);
    REQUIRE(rc == RPL_OK, "%s: %s", text, g->err.msg);
    return true;
}

static bool
record(struct game *g, const char *rules, unsigned tag, enum rpl_bot kind)
{
    struct rpl__stream rng;
    uint8_t key[32];

    if (g_open(g, rules, true, tag) != RPL_OK)
        return false;
    rpl__hash(key, g->seed, "bots", 4);
    rpl__stream_init_key(&rng, key);
    for (unsigned i = 0; i < 2000 && step(g, kind, &rng); i++)
        ;
    return rpl__avalon.play->is_over(g->st);
}

/* Every private line of a seat's view is in the omniscient view, and
 * both begin with the public board. */
static void
check_views(struct game *g)
{
    char *pub = g_view(g, RPL_VIEW_PUBLIC);
    char *all = g_view(g, RPL_VIEW_ALL);
    const size_t blen = strlen(pub);

    REQUIRE(strncmp(all, pub, blen) == 0, "board differs");
    for (int k = 1; k <= (int)g->st->n; k++) {
        char *v = g_view(g, k);
        char *line;
        char *save = NULL;
        bool self = false;

        REQUIRE(strncmp(v, pub, blen) == 0, "board differs");
        for (line = strtok_r(v + blen, "\n", &save); line;
             line = strtok_r(NULL, "\n", &save)) {
            char want[160];
            const char *body = line;

            if (strncmp(line, "you: ", 5) == 0) {
                body = line + 5;
                self = true;
            }
            snprintf(want, sizeof(want), "\n%s\n", body);
            REQUIRE(strstr(all + blen - 1, want), "p%d: %s not in %s", k, body,
                    all);
        }
        REQUIRE(self, "no own line");
        rpl_free(g->ctx, v);
    }
    rpl_free(g->ctx, pub);
    rpl_free(g->ctx, all);
}

static void
check_json(struct game *g)
{
    for (int viewer = -1; viewer <= (int)g->st->n; viewer++) {
        char *text = g_view_json(g, viewer);
        json_error_t jerr;
        json_t *v = json_loads(text, 0, &jerr);

        REQUIRE(v, "%s: %s", text, jerr.text);
        REQUIRE(json_is_integer(json_object_get(v, "round")), "no round");
        REQUIRE(!json_object_get(v, "known") == !viewer, "known for %d",
                viewer);
        json_decref(v);
        rpl_free(g->ctx, text);
    }
}

static unsigned
env_games(void)
{
    const char *s = getenv("CAMELOG_AVALON_GAMES");
    unsigned long n;

    if (!s || !*s)
        return 100000;
    n = strtoul(s, NULL, 10);
    return n ? (unsigned)n : 1;
}

START_TEST(test_seeded_games)
{
    const unsigned games = env_games();
    struct game k, p;
    unsigned long ends[AV_R_ABORTED + 1] = {0};
    uint8_t *bk = malloc(4096), *bp = malloc(4096);

    ck_assert_ptr_nonnull(bk);
    ck_assert_ptr_nonnull(bp);
    for (unsigned gi = 0; gi < games; gi++) {
        struct rpl__stream rng, cfg;
        uint8_t key[32];
        char rules[256];
        const unsigned n = 5 + gi % 6;
        const unsigned mode = (gi / 6) % 3;
        unsigned quests = 0, props = 0, check_at;
        enum rpl_status rc;
        const char *w1, *r1, *w2, *r2;

        seed_of(key, gi + 1000000);
        rpl__stream_init_key(&cfg, key);
        random_rules(&cfg, n, rules, sizeof(rules));
        REQUIRE(g_open(&k, rules, true, gi) == RPL_OK, "%s", k.err.msg);
        rpl__hash(key, k.seed, "bots", 4);
        rpl__stream_init_key(&rng, key);
        check_at = 3 + rpl__stream_uniform(&cfg, 120);
        for (unsigned i = 0; i < 2000; i++) {
            enum rpl_bot kind =
                mode == 0   ? RPL_BOT_RANDOM
                : mode == 1 ? RPL_BOT_PLAUSIBLE
                            : (enum rpl_bot)rpl__stream_uniform(&rng, 2);

            if (!step(&k, kind, &rng))
                break;
            if (i == check_at && gi % 8 == 0)
                check_views(&k);
        }
        REQUIRE(rpl__avalon.play->is_over(k.st), "game %u did not end", gi);
        for (size_t i = 0; i < k.nlines; i++) {
            quests += strncmp(k.lines[i], "quest ", 6) == 0;
            props += strncmp(k.lines[i], "propose ", 8) == 0;
        }
        REQUIRE(props <= 25, "%u proposals", props);
        REQUIRE(quests <= 5, "%u quests", quests);
        if (strcmp(g_last(&k), "end evil rejections") != 0)
            REQUIRE(quests >= 3, "%u quests", quests);
        check_views(&k);
        if (gi < 300)
            check_json(&k);

        /* the same lines, public: all accepted, same outcome */
        REQUIRE(g_open(&p, rules, false, gi) == RPL_OK, "%s", p.err.msg);
        for (size_t i = 0; i < k.nlines; i++) {
            rc = g_apply_text(&p, k.lines[i]);
            REQUIRE(rc == RPL_OK, "game %u public %s: %s", gi, k.lines[i],
                    p.err.msg);
        }
        rpl__avalon.play->outcome(k.st, &w1, &r1);
        rpl__avalon.play->outcome(p.st, &w2, &r2);
        REQUIRE(strcmp(w1, w2) == 0, "winner %s %s", w1, w2);
        {
            /* the public view does not depend on what the state knows */
            char *vk = g_view(&k, RPL_VIEW_PUBLIC);
            char *vp = g_view(&p, RPL_VIEW_PUBLIC);

            REQUIRE(strcmp(vk, vp) == 0, "public views differ:\n%s\n%s", vk,
                    vp);
            rpl_free(k.ctx, vk);
            rpl_free(p.ctx, vp);
            if (gi < 300) {
                vk = g_view_json(&k, RPL_VIEW_PUBLIC);
                vp = g_view_json(&p, RPL_VIEW_PUBLIC);
                REQUIRE(strcmp(vk, vp) == 0, "public json differs");
                rpl_free(k.ctx, vk);
                rpl_free(p.ctx, vp);
            }
        }
        REQUIRE(strcmp(r1, r2) == 0, "reason %s %s", r1, r2);
        ends[k.st->reason]++;

        /* reveal and opens bring both states to the same bytes */
        REQUIRE(pub_reveal(&p) == RPL_OK, "game %u reveal: %s", gi, p.err.msg);
        REQUIRE(rpl__avalon.play->reveal(k.st, &k.env, k.no + 1, &k.err) ==
                    RPL_OK,
                "game %u knowing reveal: %s", gi, k.err.msg);
        REQUIRE(rpl__avalon.play->opens_left(p.st) == k.st->ncards, "opens");
        for (size_t i = 0; i < k.st->ncards; i++) {
            struct rpl__emit e;
            struct rpl__line ln;

            REQUIRE(rpl__avalon.play->open_line(k.st, i, &e), "open_line");
            REQUIRE(pub_open(&p, "%s", e.line) == RPL_OK, "%s: %s", e.line,
                    p.err.msg);
            REQUIRE(rpl__line_split(&ln, e.line, strlen(e.line), k.no + 2 + i,
                                    NULL) == RPL_OK,
                    "%s", e.line);
            REQUIRE(rpl__avalon.play->open(k.st, &ln, &k.env, &k.err) == RPL_OK,
                    "game %u knowing %s: %s", gi, e.line, k.err.msg);
        }
        REQUIRE(rpl__avalon.play->opens_left(p.st) == 0, "opens left");
        REQUIRE(p.commitments == n + k.st->nladies + (size_t)k.st->ncards,
                "commitments");
        {
            const size_t lk = rpl__avalon.play->serialize(k.st, bk, 4096);
            const size_t lp = rpl__avalon.play->serialize(p.st, bp, 4096);

            REQUIRE(lk == lp, "lengths");
            REQUIRE(lk <= 4096, "length");
            REQUIRE(memcmp(bk, bp, lk) == 0,
                    "game %u: states differ after the reveal", gi);
        }
        g_close(&p);
        g_close(&k);
    }
    /* the bots reach every kind of end across the games */
    if (games >= 1000)
        for (unsigned r = AV_R_QUESTS; r <= AV_R_MISSED; r++)
            REQUIRE(ends[r] > 0, "no game ended with reason %u", r);
    free(bk);
    free(bp);
}
END_TEST

/* The bots' choices depend on the stream only. */
START_TEST(test_bots_deterministic)
{
    for (unsigned kind = 0; kind <= 1; kind++) {
        struct game a, b;

        ck_assert(record(&a, rules8, 77, (enum rpl_bot)kind));
        ck_assert(record(&b, rules8, 77, (enum rpl_bot)kind));
        ck_assert_uint_eq(a.nlines, b.nlines);
        for (size_t i = 0; i < a.nlines; i++)
            ck_assert_str_eq(a.lines[i], b.lines[i]);
        g_close(&a);
        g_close(&b);
    }
}
END_TEST

/* ----------------------------------------------------------- leaks */

/* Plays the same actions in two knowing games that differ only in what
 * seat `p` cannot know, comparing p's views and descriptions after every
 * line, until the assassination (where the Assassin shows himself). The
 * actions are game a's bots', except that cards of the seats in
 * `success_only` are successes and p's Lady avoids them. */
static void
leak_check(const char *rules, const char *deal_a, const char *deal_b,
           unsigned leader, int p, uint16_t success_only, unsigned tag,
           enum rpl_bot kind)
{
    struct game a, b;
    struct rpl__stream rng;
    uint8_t key[32];
    unsigned steps = 0;

    g_fixed(&a, rules, deal_a, leader);
    g_fixed(&b, rules, deal_b, leader);
    seed_of(key, tag);
    rpl__stream_init_key(&rng, key);
    for (;;) {
        struct rpl__emit ea, eb;
        char ta[LINE_MAX_LEN], tb[LINE_MAX_LEN];
        char *va, *vb;

        if (rpl__avalon.play->is_over(a.st) || a.st->phase == AV_PH_ASSASSIN)
            break;
        if (rpl__avalon.play->pending(a.st, &a.env, &ea)) {
            ck_assert(rpl__avalon.play->pending(b.st, &b.env, &eb));
            ck_assert_str_eq(ea.line, eb.line);
        } else {
            char act[128];
            const unsigned seat = (unsigned)rpl__avalon.play->turn(a.st);

            ck_assert_uint_eq(seat, rpl__avalon.play->turn(b.st));
            ck_assert_int_eq(
                rpl__av_bot(a.st, kind, &rng, act, sizeof(act), NULL), RPL_OK);
            if (a.st->phase == AV_PH_CARDS && (success_only & (1u << seat)))
                snprintf(act, sizeof(act), "card p%u success", seat);
            if (a.st->phase == AV_PH_LADY && (int)seat == p) {
                unsigned t = 0;

                for (unsigned k2 = 1; k2 <= a.st->n && !t; k2++)
                    if (k2 != seat && !(a.st->lady_held & (1u << k2)) &&
                        !(success_only & (1u << k2)))
                        t = k2;
                if (!t)
                    break;
                snprintf(act, sizeof(act), "lady p%u p%u", seat, t);
            }
            ck_assert_int_eq(
                rpl__avalon.live->action(a.st, &a.env, act, &ea, NULL), RPL_OK);
            ck_assert_int_eq(
                rpl__avalon.live->action(b.st, &b.env, act, &eb, NULL), RPL_OK);
            if (strncmp(ea.label, "card ", 5) == 0) {
                ck_assert_int_eq(
                    rpl__avalon.play->learn(a.st, ea.label, ea.value, NULL),
                    RPL_OK);
                ck_assert_int_eq(
                    rpl__avalon.play->learn(b.st, eb.label, eb.value, NULL),
                    RPL_OK);
            }
        }
        emit_text(&a, &ea, ta);
        emit_text(&b, &eb, tb);
        ck_assert_msg(g_apply_text(&a, ta) == RPL_OK, "%s: %s", ta, a.err.msg);
        ck_assert_msg(g_apply_text(&b, tb) == RPL_OK, "%s: %s", tb, b.err.msg);
        va = g_view(&a, p);
        vb = g_view(&b, p);
        ck_assert_str_eq(va, vb);
        rpl_free(a.ctx, va);
        rpl_free(b.ctx, vb);
        va = g_view_json(&a, p);
        vb = g_view_json(&b, p);
        ck_assert_str_eq(va, vb);
        rpl_free(a.ctx, va);
        rpl_free(b.ctx, vb);
        va = g_describe(&a, a.nlines - 1, p);
        vb = g_describe(&b, b.nlines - 1, p);
        ck_assert_str_eq(va, vb);
        rpl_free(a.ctx, va);
        rpl_free(b.ctx, vb);
        steps++;
    }
    ck_assert_uint_gt(steps, 20);
    g_close(&a);
    g_close(&b);
}

static const char rules10[] =
    "rules players=10 roles=merlin,percival,servant,servant,servant,"
    "servant,assassin,morgana,mordred,oberon lady=on targeting=off";

/* A servant cannot tell which evil seat is which evil role, nor which
 * good seat is Merlin or Percival. */
START_TEST(test_no_leak_servant)
{
    leak_check(rules10,
               "merlin,percival,servant,servant,servant,servant,assassin,"
               "morgana,mordred,oberon",
               "servant,servant,servant,percival,servant,merlin,oberon,"
               "assassin,morgana,mordred",
               4, 3, 0, 500 + (unsigned)_i,
               _i % 2 ? RPL_BOT_PLAUSIBLE : RPL_BOT_RANDOM);
}
END_TEST

/* Percival cannot tell Merlin from Morgana (p1 and p6 swap). */
START_TEST(test_no_leak_percival)
{
    leak_check(rules7, deal7,
               "morgana,percival,servant,servant,assassin,merlin,mordred", 2, 2,
               (uint16_t)(1u << 1 | 1u << 6), 600 + (unsigned)_i,
               _i % 2 ? RPL_BOT_PLAUSIBLE : RPL_BOT_RANDOM);
}
END_TEST

/* An evil seat knows its fellows' seats, not their roles (A-04). */
START_TEST(test_no_leak_evil_roles)
{
    leak_check(rules10,
               "merlin,percival,servant,servant,servant,servant,assassin,"
               "morgana,mordred,oberon",
               "merlin,percival,servant,servant,servant,servant,morgana,"
               "assassin,mordred,oberon",
               5, 9, 0, 700 + (unsigned)_i,
               _i % 2 ? RPL_BOT_PLAUSIBLE : RPL_BOT_RANDOM);
}
END_TEST

/* The views of every viewer in `viewers` (a mask of seats; bit 0 for
 * the public view) are the same in both games. */
static void
same_views(struct game *a, struct game *b, uint16_t viewers)
{
    for (int v = 0; v <= (int)a->st->n; v++) {
        char *va, *vb;

        if (!(viewers & (1u << v)))
            continue;
        va = g_view(a, v);
        vb = g_view(b, v);
        ck_assert_str_eq(va, vb);
        rpl_free(a->ctx, va);
        rpl_free(b->ctx, vb);
        va = g_view_json(a, v);
        vb = g_view_json(b, v);
        ck_assert_str_eq(va, vb);
        rpl_free(a->ctx, va);
        rpl_free(b->ctx, vb);
        va = g_describe(a, a->nlines - 1, v);
        vb = g_describe(b, b->nlines - 1, v);
        ck_assert_str_eq(va, vb);
        rpl_free(a->ctx, va);
        rpl_free(b->ctx, vb);
    }
}

/* Which of two evil seats on a team played the fail is theirs to know:
 * every other seat, and the public, see the same game. */
START_TEST(test_no_leak_cards)
{
    const uint16_t others =
        (uint16_t)(1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 7);
    struct game a, b;
    char *va, *vb;

    g_seven(&a);
    g_seven(&b);
    same_views(&a, &b, 0xff);
    ck_assert_int_eq(g_act(&a, "propose p1 p5,p6"), RPL_OK);
    ck_assert_int_eq(g_act(&b, "propose p1 p5,p6"), RPL_OK);
    for (unsigned k = 1; k <= 7; k++) {
        ck_assert_int_eq(g_act(&a, "vote p%u yes", k), RPL_OK);
        ck_assert_int_eq(g_act(&b, "vote p%u yes", k), RPL_OK);
        same_views(&a, &b, 0xff);
    }
    g_dealer(&a);
    g_dealer(&b);
    ck_assert_int_eq(g_act(&a, "card p5 fail"), RPL_OK);
    ck_assert_int_eq(g_act(&b, "card p5 success"), RPL_OK);
    same_views(&a, &b, others | 1u << 6);
    ck_assert_int_eq(g_act(&a, "card p6 success"), RPL_OK);
    ck_assert_int_eq(g_act(&b, "card p6 fail"), RPL_OK);
    same_views(&a, &b, others);
    g_dealer(&a);
    g_dealer(&b);
    ck_assert_str_eq(g_last(&a), "quest 1 fail fails=1");
    ck_assert_str_eq(g_last(&b), "quest 1 fail fails=1");
    same_views(&a, &b, others);
    /* the seats themselves do see their own card */
    va = g_view(&a, 5);
    vb = g_view(&b, 5);
    ck_assert_str_ne(va, vb);
    ck_assert_msg(strstr(va, "card 1 p5 fail\n"), "%s", va);
    rpl_free(a.ctx, va);
    rpl_free(b.ctx, vb);
    /* and a Lady result is the holder's alone */
    g_propose(&a, "p1,p2,p3");
    g_propose(&b, "p1,p2,p3");
    g_votes(&a, "yyyyyyy");
    g_votes(&b, "yyyyyyy");
    g_cards(&a, "sss");
    g_cards(&b, "sss");
    ck_assert_int_eq(g_act(&a, "lady p7 p5"), RPL_OK);
    ck_assert_int_eq(g_act(&b, "lady p7 p5"), RPL_OK);
    same_views(&a, &b, others);
    va = g_view(&a, 7);
    ck_assert_msg(strstr(va, "lady 2 p7 p5 evil\n"), "%s", va);
    rpl_free(a.ctx, va);
    va = g_view(&a, 1);
    ck_assert_ptr_null(strstr(va, "lady 2"));
    rpl_free(a.ctx, va);
    g_close(&a);
    g_close(&b);
}
END_TEST

/* Public views (and the public mode itself) show no private fact; a seat
 * without the deal is told so. */
START_TEST(test_public_view)
{
    struct game g;
    char *v;

    g_seven(&g);
    g_propose(&g, "p2,p5");
    g_votes(&g, "yyyyyyy");
    ck_assert_int_eq(g_act(&g, "card p2 success"), RPL_OK);
    v = g_view(&g, RPL_VIEW_PUBLIC);
    ck_assert_ptr_null(strstr(v, "role="));
    ck_assert_ptr_null(strstr(v, "card 1"));
    ck_assert_msg(strstr(v, "next: p5 plays a quest card"), "%s", v);
    rpl_free(g.ctx, v);
    v = g_view(&g, 2);
    ck_assert_msg(strstr(v, "card 1 p2 success\n"), "%s", v);
    rpl_free(g.ctx, v);
    v = g_view(&g, 5);
    ck_assert_ptr_null(strstr(v, "card 1 p2"));
    rpl_free(g.ctx, v);
    g_close(&g);

    g_five_to_assassin(&g, false);
    v = g_view(&g, 3);
    ck_assert_msg(strstr(v, "p3: private knowledge not revealed"), "%s", v);
    rpl_free(g.ctx, v);
    v = g_view(&g, RPL_VIEW_ALL);
    ck_assert_msg(strstr(v, "roles not revealed"), "%s", v);
    rpl_free(g.ctx, v);
    g_close(&g);
}
END_TEST

/* -------------------------------------------- describe, events, json */

START_TEST(test_describe_and_events)
{
    struct game g;
    char *t;
    struct rpl__buf b;
    struct rpl__line ln;
    json_t *v;

    g_seven(&g);
    g_propose(&g, "p2,p3");
    t = g_describe(&g, g.nlines - 1, RPL_VIEW_PUBLIC);
    ck_assert_str_eq(t, "Alice (p1) proposes Bob (p2), Carol (p3) for quest 1");
    rpl_free(g.ctx, t);
    g_votes(&g, "yyyyyyn");
    t = g_describe(&g, g.nlines - 1, RPL_VIEW_PUBLIC);
    ck_assert_str_eq(t, "team approved 6-1: yes from Alice (p1), Bob (p2), "
                        "Carol (p3), Dave (p4), Eve (p5) and Fay (p6); no "
                        "from Gus (p7)");
    rpl_free(g.ctx, t);
    ck_assert_int_eq(g_act(&g, "card p2 success"), RPL_OK);
    t = g_describe(&g, g.nlines - 1, 2);
    ck_assert_str_eq(t, "Bob (p2) plays a quest card: success");
    rpl_free(g.ctx, t);
    t = g_describe(&g, g.nlines - 1, 3);
    ck_assert_str_eq(t, "Bob (p2) plays a quest card");
    rpl_free(g.ctx, t);
    t = g_describe(&g, 1, 1);
    ck_assert_str_eq(t, "Alice (p1) is dealt a role: Merlin (good); sees "
                        "Eve (p5) and Fay (p6) as evil");
    rpl_free(g.ctx, t);
    t = g_describe(&g, 1, 2);
    ck_assert_str_eq(t, "Alice (p1) is dealt a role");
    rpl_free(g.ctx, t);
    t = g_describe(&g, 0, RPL_VIEW_PUBLIC);
    ck_assert_str_eq(t, "Alice (p1) leads first; Gus (p7) holds the lady of "
                        "the lake");
    rpl_free(g.ctx, t);

    ck_assert_int_eq(
        rpl__line_split(&ln, g.lines[8], strlen(g.lines[8]), 28, NULL), RPL_OK);
    rpl__buf_init(&b, g.ctx);
    rpl__avalon.views->events_json(g.st, &g.env, &ln, &b);
    ck_assert_int_eq(rpl__buf_take(&b, &t, NULL), RPL_OK);
    ck_assert_str_eq(t, "[{\"event\":\"propose\",\"leader\":1,\"round\":1,"
                        "\"slot\":1,\"team\":[2,3]}]");
    rpl_free(g.ctx, t);
    t = g_view_json(&g, 2);
    v = json_loads(t, 0, NULL);
    ck_assert_ptr_nonnull(v);
    ck_assert_str_eq(json_string_value(json_object_get(v, "phase")), "cards");
    ck_assert_int_eq(json_integer_value(json_object_get(v, "turn")), 3);
    ck_assert_str_eq(
        json_string_value(json_object_get(
            json_array_get(
                json_object_get(json_object_get(v, "known"), "seats"), 0),
            "role")),
        "percival");
    json_decref(v);
    rpl_free(g.ctx, t);
    g_close(&g);
}
END_TEST

START_TEST(test_reveal_text_and_json)
{
    struct game g;
    struct rpl__buf b;
    char *t;
    json_t *v;

    g_five_to_assassin(&g, true);
    ck_assert_int_eq(g_act(&g, "assassinate p4 p1"), RPL_OK);
    g_dealer(&g);
    rpl__buf_init(&b, g.ctx);
    rpl__avalon.views->reveal_text(g.st, &g.env, &b);
    ck_assert_int_eq(rpl__buf_take(&b, &t, NULL), RPL_OK);
    ck_assert_msg(strstr(t, "Alice (p1): Merlin (good); saw Dave (p4) and "
                            "Eve (p5) as evil\n"),
                  "%s", t);
    ck_assert_msg(strstr(t, "quest 2 (round 2) succeeded with 0 fail cards: "
                            "Alice (p1), Bob (p2) and Carol (p3) played "
                            "success\n"),
                  "%s", t);
    ck_assert_msg(strstr(t, "assassination: Dave (p4) named Alice (p1), who "
                            "was Merlin: hit\n"),
                  "%s", t);
    ck_assert_msg(strstr(t, "end: evil wins (assassination)\n"), "%s", t);
    rpl_free(g.ctx, t);
    rpl__buf_init(&b, g.ctx);
    rpl__avalon.views->reveal_json(g.st, &g.env, &b);
    ck_assert_int_eq(rpl__buf_take(&b, &t, NULL), RPL_OK);
    v = json_loads(t, 0, NULL);
    ck_assert_ptr_nonnull(v);
    ck_assert_uint_eq(json_array_size(json_object_get(v, "seats")), 5);
    ck_assert_uint_eq(json_array_size(json_object_get(v, "quests")), 3);
    ck_assert(json_is_true(
        json_object_get(json_object_get(v, "assassination"), "hit")));
    ck_assert_str_eq(json_string_value(json_object_get(v, "winner")), "evil");
    json_decref(v);
    rpl_free(g.ctx, t);
    g_close(&g);
}
END_TEST

/* The Lady shows the side: Oberon, Mordred and Morgana evil (A-02,
 * A-03), every good role good; the holder is told nothing more. */
START_TEST(test_lady_sides)
{
    static const char *const side[11] = {
        NULL,   "good", "good", "good", "good", "good",
        "good", "evil", "evil", "evil", "evil",
    };
    struct game g;

    g_fixed(&g, rules10,
            "merlin,percival,servant,servant,servant,servant,assassin,"
            "morgana,mordred,oberon",
            4);
    for (unsigned k = 1; k <= 10; k++) {
        struct rpl__emit e;
        char act[32];

        if (k == 3)
            continue;
        snprintf(act, sizeof(act), "lady p3 p%u", k);
        ck_assert_int_eq(rpl__avalon.live->action(g.st, &g.env, act, &e, NULL),
                         RPL_OK);
        ck_assert_str_eq(e.line, act);
        ck_assert_str_eq(e.value, side[k]);
    }
    g_close(&g);
}
END_TEST

/* Actions in their private form; bad ones are syntax errors. */
START_TEST(test_actions)
{
    struct game g;
    struct rpl__emit e;

    g_seven(&g);
    ck_assert_int_eq(
        rpl__avalon.live->action(g.st, &g.env, "propose p1 p1,p2", &e, &g.err),
        RPL_OK);
    ck_assert_str_eq(e.line, "propose p1 p1,p2");
    ck_assert_str_eq(e.label, "");
    ck_assert_int_eq(
        rpl__avalon.live->action(g.st, &g.env, "vote p3 maybe", &e, &g.err),
        RPL_E_SYNTAX);
    ck_assert_str_eq(g.err.msg,
                     "expected \"vote pK yes|no\", got \"vote p3 maybe\"");
    ck_assert_int_eq(
        rpl__avalon.live->action(g.st, &g.env, "card p2 maybe", &e, &g.err),
        RPL_E_SYNTAX);
    ck_assert_int_eq(
        rpl__avalon.live->action(g.st, &g.env, "dance", &e, &g.err),
        RPL_E_SYNTAX);
    ck_assert_int_eq(rpl__avalon.live->action(g.st, &g.env, "", &e, &g.err),
                     RPL_E_SYNTAX);
    ck_assert_int_eq(
        rpl__avalon.live->action(g.st, &g.env, "vote  p3 yes", &e, &g.err),
        RPL_E_SYNTAX);
    ck_assert_int_eq(rpl__avalon.play->learn(g.st, "card 9 p1", "fail", &g.err),
                     RPL_E_SYNTAX);
    ck_assert_int_eq(
        rpl__avalon.play->learn(g.st, "card 1 p1", "maybe", &g.err),
        RPL_E_SYNTAX);
    ck_assert_uint_eq(rpl__avalon.play->turn(g.st), 1);
    g_close(&g);
}
END_TEST

/* The digest bytes: equal for equal states, different after a line. */
START_TEST(test_serialize)
{
    struct game a, b;
    uint8_t *x = malloc(4096), *y = malloc(4096);
    size_t lx, ly;

    g_seven(&a);
    g_seven(&b);
    lx = rpl__avalon.play->serialize(a.st, x, 4096);
    ly = rpl__avalon.play->serialize(b.st, y, 4096);
    ck_assert_uint_eq(lx, ly);
    ck_assert_uint_eq(lx, rpl__avalon.play->serialize(a.st, NULL, 0));
    ck_assert(memcmp(x, y, lx) == 0);
    g_propose(&a, "p1,p2");
    ly = rpl__avalon.play->serialize(a.st, y, 4096);
    ck_assert_uint_eq(lx, ly);
    ck_assert(memcmp(x, y, lx) != 0);
    /* a short buffer gets nothing past its end */
    memset(y, 0xee, 4096);
    ck_assert_uint_eq(rpl__avalon.play->serialize(a.st, y, 10), lx);
    ck_assert_uint_eq(y[10], 0xee);
    free(x);
    free(y);
    g_close(&a);
    g_close(&b);
}
END_TEST

/* Every accepted line changes the serialized state: nothing a line
 * tells is left out of the digest. */
START_TEST(test_serialize_every_line)
{
    for (unsigned kind = 0; kind <= 1; kind++) {
        struct game g;
        struct rpl__stream rng;
        uint8_t key[32];
        uint8_t *x = malloc(4096), *y = malloc(4096);
        size_t lx, ly;

        ck_assert_int_eq(g_open(&g, rules8, true, 31 + kind), RPL_OK);
        rpl__hash(key, g.seed, "bots", 4);
        rpl__stream_init_key(&rng, key);
        lx = rpl__avalon.play->serialize(g.st, x, 4096);
        while (step(&g, (enum rpl_bot)kind, &rng)) {
            ly = rpl__avalon.play->serialize(g.st, y, 4096);
            ck_assert_uint_eq(lx, ly);
            ck_assert_msg(memcmp(x, y, lx) != 0, "%s changed nothing",
                          g_last(&g));
            memcpy(x, y, ly);
        }
        free(x);
        free(y);
        g_close(&g);
    }
}
END_TEST

Suite *
avalon_suite(void)
{
    Suite *s = suite_create("avalon");
    TCase *tc = tcase_create("tables");

    tcase_add_loop_test(tc, test_t1_sides, 0, 6);
    tcase_add_loop_test(tc, test_t2_team_sizes, 0, 6);
    tcase_add_loop_test(tc, test_t3_fails_needed, 0, 6);
    tcase_add_loop_test(tc, test_t4_approvals, 0, 6);
    tcase_add_loop_test(tc, test_night_views, 0,
                        sizeof(view_cases) / sizeof(view_cases[0]));
    tcase_add_loop_test(tc, test_rules_line, 0,
                        sizeof(rules_cases) / sizeof(rules_cases[0]));
    tcase_add_test(tc, test_rules_warning_ids);
    tcase_add_test(tc, test_vector_deal);
    suite_add_tcase(s, tc);

    tc = tcase_create("rejections");
    tcase_add_test(tc, test_reject_unknown_keyword);
    tcase_add_test(tc, test_reject_propose_phase);
    tcase_add_test(tc, test_reject_propose_leader);
    tcase_add_test(tc, test_reject_propose_size);
    tcase_add_test(tc, test_reject_propose_distinct);
    tcase_add_test(tc, test_reject_propose_slot_played);
    tcase_add_test(tc, test_reject_propose_slot5_lock);
    tcase_add_test(tc, test_reject_vote_phase);
    tcase_add_test(tc, test_reject_vote_order);
    tcase_add_test(tc, test_reject_team_tally);
    tcase_add_test(tc, test_reject_card_phase);
    tcase_add_test(tc, test_reject_card_member);
    tcase_add_test(tc, test_reject_card_good_fail);
    tcase_add_test(tc, test_reject_quest_line);
    tcase_add_test(tc, test_reject_lady_phase);
    tcase_add_test(tc, test_reject_lady_holder);
    tcase_add_test(tc, test_reject_lady_self);
    tcase_add_test(tc, test_reject_assassinate_phase);
    tcase_add_test(tc, test_reject_assassinate_actor);
    tcase_add_test(tc, test_reject_assassinate_self);
    tcase_add_test(tc, test_reject_assassinate_known_evil);
    tcase_add_test(tc, test_reject_end);
    tcase_add_test(tc, test_reject_wrong_leader_knowing);
    tcase_add_test(tc, test_reject_deal_order);
    suite_add_tcase(s, tc);

    tc = tcase_create("scenarios");
    tcase_add_test(tc, test_rejection_counter);
    tcase_add_test(tc, test_two_fail_quest);
    tcase_add_test(tc, test_assassination_hit_and_miss);
    tcase_add_test(tc, test_abort_during_assassination);
    tcase_add_test(tc, test_no_merlin);
    tcase_add_test(tc, test_lady_immunity_chain);
    tcase_add_test(tc, test_actions);
    tcase_add_test(tc, test_lady_sides);
    tcase_add_test(tc, test_serialize);
    tcase_add_test(tc, test_serialize_every_line);
    tcase_add_test(tc, test_no_leak_cards);
    tcase_add_test(tc, test_public_view);
    tcase_add_test(tc, test_describe_and_events);
    tcase_add_test(tc, test_reveal_text_and_json);
    suite_add_tcase(s, tc);

    tc = tcase_create("reveal");
    tcase_add_test(tc, test_reveal_good_fail_names_card);
    tcase_add_test(tc, test_reveal_fail_count_names_quest);
    tcase_add_test(tc, test_open_order_and_commitment);
    tcase_add_test(tc, test_reveal_deal_mismatch);
    tcase_add_test(tc, test_reveal_start_leader);
    tcase_add_test(tc, test_reveal_lady_and_assassination);
    suite_add_tcase(s, tc);

    tc = tcase_create("games");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_bots_deterministic);
    tcase_add_loop_test(tc, test_no_leak_servant, 0, 8);
    tcase_add_loop_test(tc, test_no_leak_percival, 0, 8);
    tcase_add_loop_test(tc, test_no_leak_evil_roles, 0, 8);
    tcase_add_test(tc, test_seeded_games);
    suite_add_tcase(s, tc);
    return s;
}
