/*
 * test_games.c - the registry's public door: rpl_game_count(),
 * rpl_game_info() and rpl_game_rules().  The seat range each game
 * announces is checked against its own rules check, so the two cannot
 * drift apart; the default role sets and the role order likewise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "failalloc.h"
#include "games/game.h"
#include "suites.h"

static const char *const names[] = {
    "Alice", "Bob",   "Carol", "Dave", "Erin",  "Frank",
    "Grace", "Heidi", "Ivan",  "Judy", "Kevin", "Laura",
};

static struct rpl_ctx *
new_ctx(void)
{
    struct rpl_ctx *ctx = NULL;

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    return ctx;
}

/* Whether the recorder takes the rules line: RPL_OK or its status. */
static enum rpl_status
try_rules(struct rpl_ctx *ctx, const char *game, const char *rules,
          size_t seats, struct rpl_error *err)
{
    static const uint8_t seed[32] = {1};
    struct rpl_seckey *dealer = NULL;
    struct rpl_recorder *rec = NULL;
    struct rpl_rec_config cfg;
    enum rpl_status st;

    ck_assert_uint_le(seats, sizeof(names) / sizeof(names[0]));
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &dealer, seed, NULL), RPL_OK);
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = game;
    cfg.rules = rules;
    cfg.seats = seats;
    cfg.names = names;
    cfg.dealer = dealer;
    st = rpl_rec_new(ctx, &rec, &cfg, err);
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    return st;
}

START_TEST(test_list)
{
    const size_t n = rpl_game_count();

    ck_assert_uint_ge(n, 2);
    ck_assert_ptr_null(rpl_game_info(n));
    ck_assert_ptr_null(rpl_game_info((size_t)-1));
    for (size_t i = 0; i < n; i++) {
        const struct rpl_game_info *const g = rpl_game_info(i);
        const struct rpl__game *const m =
            rpl__game_find(g->name, strlen(g->name));

        ck_assert_ptr_nonnull(m);
        ck_assert_ptr_eq(m->info, g);
        ck_assert_str_eq(m->name, g->name);
        ck_assert_uint_gt(strlen(g->title), 0);
        ck_assert_ptr_null(strchr(g->title, '\n'));
        ck_assert_uint_ge(g->min_seats, 1);
        ck_assert_uint_le(g->min_seats, g->max_seats);
        ck_assert_uint_le(g->max_seats, RPL_MAX_SEATS);
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(rpl_game_info(j)->name, g->name);
    }
    ck_assert_str_eq(rpl_game_info(0)->name, "avalon");
    ck_assert_str_eq(rpl_game_info(1)->name, "soc");
}
END_TEST

/* Every game's default line is taken from min_seats to max_seats, and
 * refused one seat outside the range, by the builder or by the rules. */
START_TEST(test_seat_range)
{
    struct rpl_ctx *ctx = new_ctx();

    for (size_t i = 0; i < rpl_game_count(); i++) {
        const struct rpl_game_info *const g = rpl_game_info(i);

        for (size_t k = g->min_seats - 1; k <= g->max_seats + 1; k++) {
            const bool inside = k >= g->min_seats && k <= g->max_seats;
            struct rpl_error err;
            char *line = NULL;
            enum rpl_status st;

            if (k == 0 || k > sizeof(names) / sizeof(names[0]))
                continue;
            st = rpl_game_rules(ctx, g->name, k, NULL, NULL, &line, &err);
            if (st == RPL_OK)
                st = try_rules(ctx, g->name, line, k, &err);
            if (inside)
                ck_assert_msg(st == RPL_OK, "%s, %zu seats: %s", g->name, k,
                              err.msg);
            else
                ck_assert_msg(st == RPL_E_ARG || st == RPL_E_RULES,
                              "%s, %zu seats: status %d", g->name, k, (int)st);
            rpl_free(ctx, line);
        }
    }
    rpl_ctx_free(ctx);
}
END_TEST

static void
check_rules(const char *game, size_t players, const char *roles,
            const char *options, const char *expected)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_error err;
    char *line = NULL;

    ck_assert_int_eq(
        rpl_game_rules(ctx, game, players, roles, options, &line, &err),
        RPL_OK);
    ck_assert_str_eq(line, expected);
    rpl_free(ctx, line);
    rpl_ctx_free(ctx);
}

START_TEST(test_avalon_lines)
{
    check_rules("avalon", 5, NULL, NULL,
                "players=5 roles=merlin,servant,servant,assassin,minion "
                "lady=off targeting=off");
    check_rules("avalon", 10, NULL, "targeting,lady",
                "players=10 roles=merlin,servant,servant,servant,servant,"
                "servant,assassin,minion,minion,minion lady=on "
                "targeting=on");
    check_rules("avalon", 7,
                "mordred,morgana,assassin,servant,servant,"
                "percival,merlin",
                "",
                "players=7 roles=merlin,percival,servant,servant,assassin,"
                "morgana,mordred lady=off targeting=off");
    /* Unknown roles go last, in the order given. */
    check_rules("avalon", 5, "zed,minion,merlin,abc", "lady",
                "players=5 roles=merlin,minion,zed,abc lady=on "
                "targeting=off");
    /* No seat check when the roles are given: the rules do it. */
    check_rules("avalon", 3, "merlin,assassin,servant", NULL,
                "players=3 roles=merlin,servant,assassin lady=off "
                "targeting=off");
}
END_TEST

/* Every role in the reverse of the module's order comes out in an order
 * the module's rules check takes. */
START_TEST(test_avalon_order)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_error err;
    char *line = NULL;

    ck_assert_int_eq(rpl_game_rules(ctx, "avalon", 10,
                                    "oberon,mordred,morgana,assassin,"
                                    "servant,servant,servant,servant,"
                                    "percival,merlin",
                                    NULL, &line, &err),
                     RPL_OK);
    ck_assert_msg(try_rules(ctx, "avalon", line, 10, &err) == RPL_OK, "%s",
                  err.msg);
    rpl_free(ctx, line);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(test_soc_lines)
{
    check_rules("soc", 3, NULL, NULL, "players=3 traitor=on brave=on own=on");
    check_rules("soc", 7, NULL, "", "players=7 traitor=on brave=off own=on");
}
END_TEST

static void
check_refused(const char *game, size_t players, const char *roles,
              const char *options, enum rpl_status code, const char *msg)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_error err;
    static char unchanged[] = "unchanged";
    char *line = unchanged;

    ck_assert_int_eq(
        rpl_game_rules(ctx, game, players, roles, options, &line, &err), code);
    ck_assert_ptr_null(line);
    ck_assert_int_eq(err.code, code);
    ck_assert_str_eq(err.msg, msg);
    rpl_ctx_free(ctx);
}

START_TEST(test_refused)
{
    check_refused("chess", 2, NULL, NULL, RPL_E_UNSUPPORTED,
                  "unknown game \"chess\" (expected avalon or soc)");
    check_refused("avalon", 4, NULL, NULL, RPL_E_ARG,
                  "Avalon needs 5 to 10 players");
    check_refused("avalon", 11, NULL, NULL, RPL_E_ARG,
                  "Avalon needs 5 to 10 players");
    check_refused("avalon", 5, "merlin,,minion", NULL, RPL_E_ARG,
                  "bad role list 'merlin,,minion'");
    check_refused("avalon", 5, "merlin,", NULL, RPL_E_ARG,
                  "bad role list 'merlin,'");
    check_refused("avalon", 5, "", NULL, RPL_E_ARG, "bad role list ''");
    check_refused("avalon", 5, NULL, "lady,excalibur", RPL_E_ARG,
                  "Avalon has no option 'excalibur' (lady, targeting)");
    check_refused("avalon", 5, NULL, ",", RPL_E_ARG,
                  "Avalon has no option '' (lady, targeting)");
    check_refused("soc", 4, "merlin", NULL, RPL_E_ARG,
                  "Shadows over Camelot deals no roles to choose");
    check_refused("soc", 4, NULL, "lady", RPL_E_ARG,
                  "Shadows over Camelot has no option 'lady'");
}
END_TEST

/* More than 64 roles is refused before anything is sorted. */
START_TEST(test_long_list)
{
    char list[65 * 7 + 1] = "";

    for (int i = 0; i < 65; i++)
        strcat(list, i == 0 ? "minion" : ",minion");
    char msg[RPL_ERRMSG_MAX];

    snprintf(msg, sizeof(msg), "bad role list '%s'", list);
    check_refused("avalon", 5, list, NULL, RPL_E_ARG, msg);
    list[64 * 7 - 1] = '\0'; /* 64 roles: built, for the rules to refuse */
    struct rpl_ctx *ctx = new_ctx();
    char *line = NULL;

    ck_assert_int_eq(rpl_game_rules(ctx, "avalon", 5, list, NULL, &line, NULL),
                     RPL_OK);
    rpl_free(ctx, line);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(test_nomem)
{
    bool done = false;

    for (long nth = 1; !done; nth++) {
        struct failing f = {-1, 0};
        const struct rpl_allocator a = failing_allocator(&f);
        struct rpl_ctx *ctx = NULL;
        struct rpl_error err;
        char *line = NULL;
        enum rpl_status st;

        ck_assert_int_eq(rpl_ctx_new(&ctx, &a, NULL), RPL_OK);
        f.countdown = nth;
        st = rpl_game_rules(ctx, "avalon", 10, NULL, "lady", &line, &err);
        if (st == RPL_OK) {
            done = true;
            ck_assert_ptr_nonnull(line);
            rpl_free(ctx, line);
        } else {
            ck_assert_int_eq(st, RPL_E_NOMEM);
            ck_assert_ptr_null(line);
        }
        rpl_ctx_free(ctx);
        ck_assert_int_eq(f.live, 0);
    }
}
END_TEST

/* Every game's coverage table: ids unique and prefixed alike, each with
 * a text; every corpus rules line one the recorder takes. */
START_TEST(test_coverage_tables)
{
    struct rpl_ctx *ctx = new_ctx();

    for (size_t g = 0; g < rpl_game_count(); g++) {
        const char *const game = rpl_game_info(g)->name;
        const size_t n = rpl_coverage_count(game);
        const struct rpl_coverage_id *first = rpl_coverage_id(game, 0);
        size_t prefix = 0;

        ck_assert_uint_le(n, RPL_COVERAGE_MAX);
        ck_assert_ptr_null(rpl_coverage_id(game, n));
        if (n == 0)
            continue;
        prefix = (size_t)(strchr(first->id, '.') - first->id) + 1;
        for (size_t i = 0; i < n; i++) {
            const struct rpl_coverage_id *const a = rpl_coverage_id(game, i);

            ck_assert_ptr_nonnull(a);
            ck_assert_ptr_nonnull(a->id);
            ck_assert_ptr_nonnull(a->what);
            ck_assert_uint_gt(strlen(a->what), 0);
            ck_assert_int_eq(strncmp(a->id, first->id, prefix), 0);
            for (size_t j = 0; j < i; j++)
                ck_assert_str_ne(a->id, rpl_coverage_id(game, j)->id);
        }
        ck_assert_ptr_nonnull(rpl_coverage_rules(game, 0));
        for (size_t i = 0; rpl_coverage_rules(game, i); i++) {
            const char *const rules = rpl_coverage_rules(game, i);
            const char *const p = strstr(rules, "players=");
            struct rpl_error err;

            ck_assert_ptr_nonnull(p);
            ck_assert_msg(try_rules(ctx, game, rules, strtoul(p + 8, NULL, 10),
                                    &err) == RPL_OK,
                          "%s: %s: %s", game, rules, err.msg);
        }
    }
    ck_assert_uint_eq(rpl_coverage_count("no such game"), 0);
    ck_assert_ptr_null(rpl_coverage_id("no such game", 0));
    ck_assert_ptr_null(rpl_coverage_rules("no such game", 0));
    rpl_ctx_free(ctx);
}
END_TEST

/* rpl_log_coverage() needs a verified log. */
START_TEST(test_coverage_unverified)
{
    static const char text[] = "camelog 1\n";
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint64_t bits[RPL_COVERAGE_WORDS] = {1, 2, 3, 4};

    ck_assert_int_eq(
        rpl_log_parse(ctx, &log, text, sizeof(text) - 1, false, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_coverage(log, bits, &err), RPL_E_STATE);
    for (size_t i = 0; i < RPL_COVERAGE_WORDS; i++)
        ck_assert_uint_eq(bits[i], 0);
    rpl_log_free(log);
    rpl_ctx_free(ctx);
}
END_TEST

Suite *
games_suite(void)
{
    Suite *s = suite_create("games");
    TCase *tc = tcase_create("registry");

    tcase_add_test(tc, test_list);
    tcase_add_test(tc, test_seat_range);
    tcase_add_test(tc, test_avalon_lines);
    tcase_add_test(tc, test_avalon_order);
    tcase_add_test(tc, test_soc_lines);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_long_list);
    tcase_add_test(tc, test_nomem);
    tcase_add_test(tc, test_coverage_tables);
    tcase_add_test(tc, test_coverage_unverified);
    suite_add_tcase(s, tc);
    return s;
}
