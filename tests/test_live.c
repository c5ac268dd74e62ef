/*
 * test_live.c - the games' side of live games (LIVE.md): screen(),
 * step_seats() and state_json() of both games, and the leak test: every
 * refusal is worded alike in two games that differ only in secrets (same
 * seats, same public history, a different deal or different hands), and
 * so is the state for the public and for a seat that cannot tell the
 * two games apart.
 *
 * The harness plays the recorder's part (rules, setup or a fixed deal,
 * pending, action, learn, apply), as test_avalon.c does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "games/avalon/avalon.h"
#include "games/soc/soc.h"
#include "internal.h"
#include "suites.h"

static const uint8_t id16[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};

struct g {
    const struct rpl__game *game;
    struct rpl_ctx *ctx;
    struct rpl__env env;
    uint8_t seed[32];
    void *st;
    size_t no;
    struct rpl_error err;
};

static void
g_rules(struct g *g, const struct rpl__game *game, const char *rules,
        unsigned tag)
{
    struct rpl__line ln;
    uint8_t in[4];
    size_t seats = 0;

    memset(g, 0, sizeof(*g));
    g->game = game;
    ck_assert_int_eq(rpl_ctx_new(&g->ctx, NULL, NULL), RPL_OK);
    rpl__store_le32(in, tag);
    rpl__hash(g->seed, NULL, in, sizeof(in));
    g->env.ctx = g->ctx;
    g->env.id = id16;
    g->st = calloc(1, game->state_size);
    ck_assert_ptr_nonnull(g->st);
    g->no = 19;
    ck_assert_int_eq(rpl__line_split(&ln, rules, strlen(rules), 5, &g->err),
                     RPL_OK);
    ck_assert_int_eq(game->play->rules(g->st, &ln, &g->env, &seats, &g->err),
                     RPL_OK);
    g->env.seats = seats;
    g->env.seed = g->seed;
}

static void
g_close(struct g *g)
{
    free(g->st);
    rpl_ctx_free(g->ctx);
}

static void
g_write(struct g *g, const struct rpl__emit *e)
{
    char text[512];
    struct rpl__line ln;
    struct rpl__applied out;

    if (e->label[0]) {
        uint8_t c[32];
        char hex[65];

        rpl__commit(c, NULL, g->seed, id16, e->label, e->value, 1);
        rpl__hex(hex, c, 32);
        snprintf(text, sizeof(text), "%s %s", e->line, hex);
    } else {
        snprintf(text, sizeof(text), "%s", e->line);
    }
    ck_assert_int_eq(rpl__line_split(&ln, text, strlen(text), ++g->no, &g->err),
                     RPL_OK);
    ck_assert_msg(g->game->play->apply(g->st, &ln, &g->env, &out, &g->err) ==
                      RPL_OK,
                  "%s: %s", text, g->err.msg);
}

static void
g_dealer(struct g *g)
{
    struct rpl__emit e;

    while (g->game->play->pending(g->st, &g->env, &e))
        g_write(g, &e);
}

/* A seat's action through screen (which must let it through), action,
 * learn and apply, then the dealer's lines. */
static void RPL__PRINTF(3, 4)
    g_act(struct g *g, size_t seat, const char *fmt, ...)
{
    char action[256];
    struct rpl_refusal why;
    struct rpl__emit e;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(action, sizeof(action), fmt, ap);
    va_end(ap);
    memset(&why, 0, sizeof(why));
    ck_assert_msg(g->game->live->screen(g->st, &g->env, seat, action, &why) ==
                      RPL_OK,
                  "%s: screened out: %s %s", action, why.code, why.text);
    ck_assert_msg(g->game->live->action(g->st, &g->env, action, &e, &g->err) ==
                      RPL_OK,
                  "%s: %s", action, g->err.msg);
    if (e.label[0])
        ck_assert_int_eq(g->game->play->learn(g->st, e.label, e.value, &g->err),
                         RPL_OK);
    g_write(g, &e);
    g_dealer(g);
}

static char *
g_state(struct g *g, int viewer)
{
    struct rpl__buf b;
    char *s = NULL;

    rpl__buf_init(&b, g->ctx);
    g->game->live->state_json(g->st, &g->env, viewer, &b);
    ck_assert_int_eq(rpl__buf_take(&b, &s, NULL), RPL_OK);
    return s;
}

/* The same submission refused alike in a and b, with code; returns the
 * text (static storage of the last call). */
static const char *
same_refusal(struct g *a, struct g *b, size_t seat, const char *action,
             const char *code)
{
    static struct rpl_refusal ra;
    struct rpl_refusal rb;
    enum rpl_status sa, sb;

    memset(&ra, 0, sizeof(ra));
    memset(&rb, 0, sizeof(rb));
    sa = a->game->live->screen(a->st, &a->env, seat, action, &ra);
    sb = b->game->live->screen(b->st, &b->env, seat, action, &rb);
    ck_assert_msg(sa != RPL_OK, "p%zu %s: accepted", seat, action);
    ck_assert_msg(sa == sb && strcmp(ra.code, rb.code) == 0 &&
                      strcmp(ra.text, rb.text) == 0,
                  "p%zu %s: %s \"%s\" vs %s \"%s\"", seat, action, ra.code,
                  ra.text, rb.code, rb.text);
    ck_assert_msg(strcmp(ra.code, code) == 0, "p%zu %s: %s \"%s\", want %s",
                  seat, action, ra.code, ra.text, code);
    /* never the submission itself (a card's value), never a role */
    ck_assert(!action[0] || !strstr(ra.text, action));
    ck_assert_ptr_null(strstr(ra.text, "assassin "));
    ck_assert_ptr_null(strstr(ra.text, "merlin"));
    return ra.text;
}

static void
same_state(struct g *a, struct g *b, int viewer)
{
    char *sa = g_state(a, viewer), *sb = g_state(b, viewer);

    ck_assert_msg(strcmp(sa, sb) == 0, "viewer %d:\n%s\n%s", viewer, sa, sb);
    rpl_free(a->ctx, sa);
    rpl_free(b->ctx, sb);
}

static void
has_state(struct g *g, int viewer, const char *want)
{
    char *s = g_state(g, viewer);

    ck_assert_msg(strstr(s, want), "viewer %d: %s lacks %s", viewer, s, want);
    rpl_free(g->ctx, s);
}

/* ------------------------------------------------------------- Avalon */

static const char av_rules[] =
    "rules players=7 roles=merlin,percival,servant,servant,assassin,morgana,"
    "mordred lady=on targeting=off";

/* Two deals with p3 and p4 servants in both (neither sees anyone), the
 * leader p1 and the lady on p7. */
static const char *const deal_a[] = {"merlin",  "percival", "servant",
                                     "servant", "assassin", "morgana",
                                     "mordred"};
static const char *const deal_b[] = {"assassin", "morgana", "servant",
                                     "servant",  "merlin",  "mordred",
                                     "percival"};

static void
av_open(struct g *g, const char *const *deal, unsigned tag)
{
    g_rules(g, &rpl__avalon, av_rules, tag);
    ck_assert_int_eq(rpl__avalon_deal(g->st, deal, 7, 1, &g->err), RPL_OK);
    g_dealer(g);
}

/* Both games, one public action at a time. */
static void RPL__PRINTF(4, 5)
    both(struct g *a, struct g *b, size_t seat, const char *fmt, ...)
{
    char action[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(action, sizeof(action), fmt, ap);
    va_end(ap);
    g_act(a, seat, "%s", action);
    g_act(b, seat, "%s", action);
}

static void
both_states(struct g *a, struct g *b)
{
    same_state(a, b, RPL_VIEW_PUBLIC);
    same_state(a, b, 3);
    same_state(a, b, 4);
}

START_TEST(avalon_leaks)
{
    struct g a, b;

    av_open(&a, deal_a, 1);
    av_open(&b, deal_b, 2);
    both_states(&a, &b);
    has_state(&a, 3, "\"actions\":[]");
    has_state(&a, 1, "\"actions\":[\"propose p1 pA,pB\"]");
    /* propose: every refusal */
    same_refusal(&a, &b, 1, "", "malformed");
    same_refusal(&a, &b, 1, "dance p1", "malformed");
    same_refusal(&a, &b, 1, "team approved 7-0", "malformed");
    same_refusal(&a, &b, 1, "vote p1 maybe", "malformed");
    same_refusal(&a, &b, 1, "card p1 maybe", "malformed");
    same_refusal(&a, &b, 1, "lady p1", "malformed");
    same_refusal(&a, &b, 1, "propose p1 p1,p9", "malformed");
    same_refusal(&a, &b, 9, "vote p9 yes", "on-behalf");
    same_refusal(&a, &b, 2, "propose p1 p1,p2", "on-behalf");
    same_refusal(&a, &b, 2, "propose p2 p1,p2", "not-your-turn");
    same_refusal(&a, &b, 1, "vote p1 yes", "phase");
    same_refusal(&a, &b, 1, "card p1 fail", "phase");
    same_refusal(&a, &b, 1, "assassinate p1 p2", "phase");
    same_refusal(&a, &b, 1, "propose p1 p1,p2,p3", "illegal");
    same_refusal(&a, &b, 1, "propose p1 p1,p1", "illegal");
    ck_assert_uint_eq(rpl__avalon.live->step_seats(a.st), 0);
    /* round 1: team p3,p4 (servants in both), approved */
    both(&a, &b, 1, "propose p1 p3,p4");
    ck_assert_uint_eq(rpl__avalon.live->step_seats(a.st), 0xfe);
    both_states(&a, &b);
    has_state(&a, 3, "\"actions\":[\"vote p3 yes\",\"vote p3 no\"]");
    /* a vote judged as if the seats before it had voted */
    ck_assert_int_eq(
        rpl__avalon.live->screen(a.st, &a.env, 5, "vote p5 no", NULL), RPL_OK);
    both(&a, &b, 1, "vote p1 yes");
    same_refusal(&a, &b, 1, "vote p1 no", "duplicate");
    same_refusal(&a, &b, 2, "propose p2 p1,p2", "phase");
    for (size_t k = 2; k <= 7; k++)
        both(&a, &b, k, "vote p%zu yes", k);
    ck_assert_uint_eq(rpl__avalon.live->step_seats(a.st), 0x18);
    both_states(&a, &b);
    has_state(&a, 3, "\"actions\":[\"card p3 success\"]");
    same_refusal(&a, &b, 1, "card p1 success", "not-your-turn");
    same_refusal(&a, &b, 4, "card p4 fail", "not-allowed");
    both(&a, &b, 3, "card p3 success");
    same_refusal(&a, &b, 3, "card p3 success", "duplicate");
    both_states(&a, &b);
    both(&a, &b, 4, "card p4 success");
    both_states(&a, &b);
    /* round 2: p2 leads p2,p3,p4, all succeed; then the lady */
    both(&a, &b, 2, "propose p2 p2,p3,p4");
    for (size_t k = 1; k <= 7; k++)
        both(&a, &b, k, "vote p%zu yes", k);
    for (size_t k = 2; k <= 4; k++)
        both(&a, &b, k, "card p%zu success", k);
    both_states(&a, &b);
    has_state(&a, 7, "\"lady p7 p1\"");
    same_refusal(&a, &b, 1, "lady p1 p2", "not-your-turn");
    same_refusal(&a, &b, 7, "lady p7 p7", "illegal");
    same_refusal(&a, &b, 7, "lady p7 p7 p1", "malformed");
    same_refusal(&a, &b, 7, "vote p7 yes", "phase");
    both(&a, &b, 7, "lady p7 p3");
    same_state(&a, &b, RPL_VIEW_PUBLIC);
    same_refusal(&a, &b, 3, "lady p3 p7", "phase");
    /* round 3: p3 leads p3,p4,p5, all succeed: the assassination */
    both(&a, &b, 3, "propose p3 p3,p4,p5");
    for (size_t k = 1; k <= 7; k++)
        both(&a, &b, k, "vote p%zu yes", k);
    for (size_t k = 3; k <= 5; k++)
        both(&a, &b, k, "card p%zu success", k);
    ck_assert_uint_eq(a.st ? ((struct av_state *)a.st)->phase : 0,
                      AV_PH_ASSASSIN);
    same_state(&a, &b, RPL_VIEW_PUBLIC);
    same_state(&a, &b, 4);
    has_state(&a, RPL_VIEW_PUBLIC, "\"act\":\"assassin\",\"seats\":[]");
    has_state(&a, 5, "\"assassinate p5 p1\"");
    has_state(&b, 1, "\"assassinate p1 p3\"");
    same_refusal(&a, &b, 3, "assassinate p3 p1", "not-allowed");
    ck_assert_str_eq(
        same_refusal(&a, &b, 5, "assassinate p5 p6", "not-allowed"),
        "p5: this action is not allowed");
    same_refusal(&a, &b, 1, "assassinate p1 p1", "illegal");
    same_refusal(&a, &b, 1, "assassinate p1 p2 p3", "malformed");
    same_refusal(&a, &b, 1, "vote p1 yes", "phase");
    same_refusal(&a, &b, 2, "assassinate p1 p3", "on-behalf");
    /* the Assassin of each game shoots; then the game is over */
    g_act(&a, 5, "assassinate p5 p3");
    g_act(&b, 1, "assassinate p1 p3");
    same_refusal(&a, &b, 1, "vote p1 yes", "over");
    g_close(&a);
    g_close(&b);
}
END_TEST

/* ---------------------------------------------------------------- SoC */

static const char soc_rules[] = "rules players=4 traitor=on brave=off";

/* A seed tag after `from` whose deal shows the same knights and first
 * player as tag 1's (the start line is public; hands and loyalty are
 * not). */
static unsigned
soc_twin(void)
{
    struct soc_hid h1, h2;
    struct soc_rng r;
    uint8_t seed[32], in[4];

    rpl__store_le32(in, 1);
    rpl__hash(seed, NULL, in, sizeof(in));
    rpl__soc_derive(&h1, &r, 4, true, seed);
    for (unsigned tag = 2; tag < 200000; tag++) {
        rpl__store_le32(in, tag);
        rpl__hash(seed, NULL, in, sizeof(in));
        rpl__soc_derive(&h2, &r, 4, true, seed);
        if (h1.first == h2.first &&
            memcmp(h1.knight + 1, h2.knight + 1, 4) == 0)
            return tag;
    }
    return 0;
}

static void
soc_open(struct g *g, unsigned tag)
{
    g_rules(g, &rpl__soc, soc_rules, tag);
    ck_assert_int_eq(rpl__soc.play->setup(g->st, &g->env, &g->err), RPL_OK);
    g_dealer(g);
}

/* A white card that neither game's seat k holds. */
static unsigned
soc_unheld(const struct g *a, const struct g *b, unsigned k)
{
    const struct soc_state *sa = a->st, *sb = b->st;

    for (unsigned c = 0; c < SOC_NWT; c++)
        if (!sa->h.hand[k][c] && !sb->h.hand[k][c])
            return c;
    return SOC_NWT;
}

START_TEST(soc_leaks)
{
    const unsigned tag = soc_twin();
    struct g a, b;
    const struct soc_state *sa;
    unsigned k, other, c;
    char act[128];

    ck_assert_uint_gt(tag, 0);
    soc_open(&a, 1);
    soc_open(&b, tag);
    sa = a.st;
    /* the seats' hands differ: only secrets tell the games apart */
    ck_assert(memcmp(sa->h.hand, ((const struct soc_state *)b.st)->h.hand,
                     sizeof(sa->h.hand)) != 0);
    ck_assert_uint_eq(rpl__soc.live->step_seats(a.st), 0);
    k = (unsigned)rpl__soc.play->turn(a.st);
    ck_assert_uint_gt(k, 0);
    ck_assert_uint_eq(rpl__soc.play->turn(b.st), k);
    other = k % 4 + 1;
    if (getenv("LIVE_DEBUG")) {
        char *j = g_state(&a, (int)k);

        fprintf(stderr, "need %u\n%s\n", sa->p.need.kind, j);
        rpl_free(a.ctx, j);
    }
    same_state(&a, &b, RPL_VIEW_PUBLIC);
    has_state(&a, (int)other, "\"actions\":[]");
    has_state(&a, RPL_VIEW_PUBLIC, "\"act\":\"seat\"");

    same_refusal(&a, &b, k, "", "malformed");
    same_refusal(&a, &b, k, "dance p1", "malformed");
    snprintf(act, sizeof(act), "start p%u", k);
    same_refusal(&a, &b, k, act, "malformed");
    same_refusal(&a, &b, 9, "evil p9 black", "on-behalf");
    snprintf(act, sizeof(act), "evil p%u black", k);
    same_refusal(&a, &b, other, act, "on-behalf");
    snprintf(act, sizeof(act), "evil p%u black", other);
    same_refusal(&a, &b, other, act, "not-your-turn");
    if (sa->p.need.kind == SOC_N_POOL) {
        snprintf(act, sizeof(act), "evil p%u black", k);
        same_refusal(&a, &b, k, act, "phase");
        c = soc_unheld(&a, &b, k);
        ck_assert_uint_lt(c, SOC_NWT);
        snprintf(act, sizeof(act), "pool p%u %s", k, rpl__soc_card[c].tok);
        same_refusal(&a, &b, k, act, "not-allowed");
    } else {
        ck_assert_uint_eq(sa->p.need.kind, SOC_N_EVIL);
        snprintf(act, sizeof(act), "move p%u camelot", k);
        same_refusal(&a, &b, k, act, "phase");
        snprintf(act, sizeof(act), "evil p%u siege", k);
        g_act(&a, k, "%s", act);
        g_act(&b, k, "%s", act);
        same_state(&a, &b, RPL_VIEW_PUBLIC);
        snprintf(act, sizeof(act), "move p%u camelot", k);
        same_refusal(&a, &b, k, act, "illegal");
        c = soc_unheld(&a, &b, k);
        ck_assert_uint_lt(c, SOC_NWT);
        snprintf(act, sizeof(act), "play p%u %s", k, rpl__soc_card[c].tok);
        same_refusal(&a, &b, k, act, "illegal");
    }
    g_close(&a);
    g_close(&b);
}
END_TEST

/* ------------------------------------------------ rpl_rec_state_json */

START_TEST(rec_state)
{
    static const char *const names7[] = {"A", "B", "C", "D", "E", "F", "G"};
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_ctx *ctx = NULL;
    struct rpl_error err;
    uint8_t id[16] = {7}, secret[32] = {9};
    char *json = NULL;
    struct rpl_seckey *dealer = NULL;
    uint8_t dseed[32] = {0xd0};
    char want[64];

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &dealer, dseed, NULL), RPL_OK);
    memset(&cfg, 0, sizeof(cfg));
    cfg.dealer = dealer;
    cfg.game = "avalon";
    cfg.rules = av_rules + strlen("rules ");
    cfg.seats = 7;
    cfg.names = names7;
    cfg.id = id;
    cfg.secret = secret;
    cfg.created = "2026-12-02T10:00:00Z";
    ck_assert_msg(rpl_rec_new(ctx, &rec, &cfg, &err) == RPL_OK, "%s", err.msg);
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_rec_state_json(rec, 8, &json, &err), RPL_E_ARG);
    ck_assert_ptr_null(json);
    ck_assert_int_eq(rpl_rec_state_json(rec, RPL_VIEW_PUBLIC, &json, &err),
                     RPL_OK);
    ck_assert_ptr_nonnull(strstr(json, ",\"deliveries\":[]}"));
    ck_assert_ptr_null(strstr(json, "role="));
    rpl_free(ctx, json);
    ck_assert_int_eq(rpl_rec_state_json(rec, 3, &json, &err), RPL_OK);
    snprintf(want, sizeof(want), "{\"seat\":3,\"line\":");
    ck_assert_ptr_nonnull(strstr(json, want));
    ck_assert_ptr_nonnull(strstr(json, "\"label\":\"deal p3\""));
    ck_assert_ptr_null(strstr(json, "\"deal p4\""));
    rpl_free(ctx, json);
    ck_assert_int_eq(rpl_rec_state_json(rec, RPL_VIEW_ALL, &json, &err),
                     RPL_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"deal p7\""));
    rpl_free(ctx, json);
    /* Each seat's state is padded to the public one's length, less its
     * empty deliveries, plus the seat's deliveries and state_pad. */
    ck_assert_int_eq(rpl_rec_state_json(rec, RPL_VIEW_PUBLIC, &json, &err),
                     RPL_OK);
    {
        const size_t pub = strlen(json);

        rpl_free(ctx, json);
        for (int k = 1; k <= 7; k++) {
            const char *d, *pad;

            ck_assert_int_eq(rpl_rec_state_json(rec, k, &json, &err), RPL_OK);
            d = strstr(json, ",\"deliveries\":[");
            pad = strstr(json, "],\"pad\":\"...");
            ck_assert_ptr_nonnull(d);
            ck_assert_ptr_nonnull(pad);
            ck_assert_uint_eq(strlen(json), pub - 2 + (size_t)(pad + 1 - d) -
                                                strlen(",\"deliveries\":") +
                                                rpl_game_info(0)->state_pad);
            rpl_free(ctx, json);
        }
    }
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}
END_TEST

Suite *
live_suite(void)
{
    Suite *s = suite_create("live");
    TCase *tc = tcase_create("avalon");

    tcase_add_test(tc, avalon_leaks);
    suite_add_tcase(s, tc);
    tc = tcase_create("soc");
    tcase_add_test(tc, soc_leaks);
    tcase_add_test(tc, rec_state);
    suite_add_tcase(s, tc);
    return s;
}
