/*
 * test_spell.c - the one spelling of the format's messages (spell.c)
 * and of verify's report (verdict.c): each against the bytes camelog(5)
 * and camelog-verify(1) define, written out here independently.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "internal.h"
#include "suites.h"

static const char *const NAMES[] = {"Ann", "Ben", "Cy", "Di", "Ed"};

START_TEST(sig_message_bytes)
{
    uint8_t base[32], msg[RPL_SIG_MESSAGE_MAX];
    static const char line[] = "vote p1 yes";
    size_t n = 0;
    struct rpl_error err;

    for (size_t i = 0; i < sizeof(base); i++)
        base[i] = (uint8_t)i;
    ck_assert_int_eq(
        rpl_sig_message(base, line, strlen(line), msg, sizeof(msg), &n, &err),
        RPL_OK);
    ck_assert_uint_eq(n, 14 + 32 + strlen(line));
    ck_assert_int_eq(memcmp(msg, "camelog sig v1", 14), 0);
    ck_assert_int_eq(memcmp(msg + 14, base, 32), 0);
    ck_assert_int_eq(memcmp(msg + 46, line, strlen(line)), 0);
    /* The library's own signatures sign the same bytes. */
    {
        uint8_t inner[RPL__SIG_MSG_MAX];

        ck_assert_uint_eq(rpl__sig_message(inner, base, line, strlen(line)), n);
        ck_assert_int_eq(memcmp(inner, msg, n), 0);
    }
    ck_assert_int_eq(
        rpl_sig_message(base, line, strlen(line), msg, n - 1, &n, &err),
        RPL_E_ARG);
}
END_TEST

START_TEST(sig_message_limit)
{
    uint8_t base[32] = {0};
    uint8_t *msg = malloc(RPL_SIG_MESSAGE_MAX + 8);
    char *line = malloc(RPL_MAX_LINE + 2);
    size_t n = 0;
    struct rpl_error err;

    ck_assert_ptr_nonnull(msg);
    ck_assert_ptr_nonnull(line);
    memset(line, 'a', RPL_MAX_LINE + 1);
    line[RPL_MAX_LINE + 1] = '\0';
    ck_assert_int_eq(rpl_sig_message(base, line, RPL_MAX_LINE, msg,
                                     RPL_SIG_MESSAGE_MAX, &n, &err),
                     RPL_OK);
    ck_assert_uint_eq(n, RPL_SIG_MESSAGE_MAX);
    ck_assert_int_eq(rpl_sig_message(base, line, RPL_MAX_LINE + 1, msg,
                                     RPL_SIG_MESSAGE_MAX + 8, &n, &err),
                     RPL_E_LIMIT);
    free(line);
    free(msg);
}
END_TEST

START_TEST(seal_message_bytes)
{
    uint8_t head[RPL__HASH], msg[RPL__SEAL_MSG_LEN];

    memset(head, 0x5a, sizeof(head));
    rpl__seal_message(msg, head);
    ck_assert_int_eq(memcmp(msg, "camelog seal v1", 15), 0);
    ck_assert_int_eq(memcmp(msg + 15, head, 32), 0);
}
END_TEST

START_TEST(value_lines)
{
    uint8_t v[32], sig[64];
    char line[RPL_SIG_LINE_MAX], b64[RPL__SIG_B64];
    char want[RPL_SIG_LINE_MAX];
    uint8_t back[64];

    memset(v, 0xab, sizeof(v));
    for (size_t i = 0; i < sizeof(sig); i++)
        sig[i] = (uint8_t)(255 - i);
    ck_assert_uint_eq(rpl__entropy_line(line, sizeof(line), 10, v), 76);
    ck_assert_str_eq(line, "entropy p10 "
                           "abababababababababababababababab"
                           "abababababababababababababababab");
    ck_assert_uint_eq(rpl__pledge_line(line, sizeof(line), 3, v), 74);
    ck_assert_int_eq(strncmp(line, "pledge p3 abab", 14), 0);
    ck_assert_uint_eq(rpl__pledged_line(line, sizeof(line), 0x205u), 17);
    ck_assert_str_eq(line, "pledged p1,p3,p10");
    rpl__abandoned_line(line, sizeof(line), 4);
    ck_assert_str_eq(line, "abandoned p4");
    rpl__reveal_line(line, sizeof(line), v);
    ck_assert_int_eq(strncmp(line, "reveal abab", 11), 0);
    ck_assert_uint_eq(strlen(line), 7 + 64);
    sodium_bin2base64(b64, sizeof(b64), sig, 64,
                      sodium_base64_VARIANT_ORIGINAL);
    rpl__seal_line(line, sizeof(line), sig);
    snprintf(want, sizeof(want), "seal %s", b64);
    ck_assert_str_eq(line, want);
    ck_assert_uint_eq(rpl__sig_line(line, sizeof(line), 7, sig), 7 + 88);
    snprintf(want, sizeof(want), "sig p7 %s", b64);
    ck_assert_str_eq(line, want);
    /* And read back: for its own seat only, whole. */
    ck_assert(rpl_sig_line_parse(line, strlen(line), 7, back));
    ck_assert_int_eq(memcmp(back, sig, 64), 0);
    ck_assert(!rpl_sig_line_parse(line, strlen(line), 1, back));
    ck_assert(!rpl_sig_line_parse(line, strlen(line) - 1, 7, back));
    line[10] = '*';
    ck_assert(!rpl_sig_line_parse(line, strlen(line), 7, back));
}
END_TEST

START_TEST(names)
{
    ck_assert_str_eq(rpl_progress_name(RPL_PROGRESS_IN_PROGRESS),
                     "in_progress");
    ck_assert_str_eq(rpl_progress_name(RPL_PROGRESS_COMPLETE), "complete");
    ck_assert_str_eq(rpl_progress_text(RPL_PROGRESS_IN_PROGRESS),
                     "in progress");
    ck_assert_str_eq(rpl_progress_text(RPL_PROGRESS_FINISHED),
                     "finished, not revealed");
    ck_assert_str_eq(rpl_status_name(RPL_OK), "ok");
    ck_assert_str_eq(rpl_status_name(RPL_E_FAIRNESS), "fairness");
    ck_assert_str_eq(rpl_status_name(RPL_E_BUSY), "busy");
    ck_assert_str_eq(rpl_status_name((enum rpl_status)(RPL_E_BUSY + 1)),
                     "unknown");
}
END_TEST

START_TEST(delivery_json_in_buf)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_delivery d;
    struct rpl__buf b;
    char text[RPL_DELIVERY_MAX];
    char *out = NULL;
    static const char djson[] = "{\"seat\":2,\"line\":9,\"label\":\"role p2\","
                                "\"value\":\"say \\\"hi\\\"\",\"nonce\":\"1111";

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    memset(&d, 0, sizeof(d));
    d.seat = 2;
    d.line = 9;
    snprintf(d.label, sizeof(d.label), "role p2");
    snprintf(d.value, sizeof(d.value), "say \"hi\"");
    memset(d.nonce, 0x11, sizeof(d.nonce));
    rpl__buf_init(&b, ctx);
    rpl__delivery_json(&b, &d);
    ck_assert_int_eq(rpl__buf_take(&b, &out, NULL), RPL_OK);
    ck_assert_uint_gt(rpl_delivery_format_json(&d, text, sizeof(text)), 0);
    ck_assert_str_eq(out, text);
    ck_assert_int_eq(strncmp(out, djson, strlen(djson)), 0);
    rpl_free(ctx, out);
    /* Not a delivery: null, so the JSON around it stays whole. */
    d.line = 0;
    rpl__buf_init(&b, ctx);
    rpl__delivery_json(&b, &d);
    ck_assert_int_eq(rpl__buf_take(&b, &out, NULL), RPL_OK);
    ck_assert_str_eq(out, "null");
    rpl_free(ctx, out);
    rpl_ctx_free(ctx);
}
END_TEST

/* A seeded game of the first game the library knows, for 5 seats:
 * revealed, or only sealed after its end (finished). */
static struct rpl_log *
record(struct rpl_ctx *ctx, bool reveal)
{
    const struct rpl_game_info *gi = rpl_game_info(0);
    struct rpl_seckey *dealer = NULL;
    struct rpl_recorder *rec = NULL;
    struct rpl_rec_config cfg;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t seed[32], bot[32], id[16], secret[32];
    char *rules = NULL;
    size_t guard = 0;

    memset(seed, 0xd0, sizeof(seed));
    memset(bot, 3, sizeof(bot));
    memset(id, 0x42, sizeof(id));
    memset(secret, 0x24, sizeof(secret));
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &dealer, seed, &err), RPL_OK);
    ck_assert_int_eq(rpl_game_rules(ctx, gi->name, 5, NULL, NULL, &rules, &err),
                     RPL_OK);
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = gi->name;
    cfg.rules = rules;
    cfg.seats = 5;
    cfg.names = NAMES;
    cfg.dealer = dealer;
    cfg.id = id;
    cfg.secret = secret;
    cfg.created = "2026-01-02T03:04:05Z";
    ck_assert_int_eq(rpl_rec_new(ctx, &rec, &cfg, &err), RPL_OK);
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    while (rpl_rec_dealer_turn(rec) != 0 && guard++ < 10000)
        ck_assert_msg(rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, NULL, &err) ==
                          RPL_OK,
                      "%s", err.msg);
    if (reveal)
        ck_assert_msg(rpl_rec_reveal(rec, &err) == RPL_OK, "%s", err.msg);
    else
        ck_assert_msg(rpl_rec_seal(rec, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    rpl_free(ctx, rules);
    return log;
}

START_TEST(verdict_complete)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_log *log;
    struct rpl_report rep;
    struct rpl_verdict *v = NULL;
    struct rpl_error err;
    char *text = NULL, *json = NULL;
    char want[256];
    size_t line = 9, unshown = 9;
    const char *w;
    static const char head[] =
        "{\"file\":\"g.camelog\",\"valid\":true,\"progress\":\"complete\","
        "\"line\":null,\"error\":null,\"code\":\"ok\",\"warnings\":"
        "[{\"line\":0,\"text\":\"W-seed: ";

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    log = record(ctx, true);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert_int_eq(rep.progress, RPL_PROGRESS_COMPLETE);
    ck_assert_int_eq(
        rpl_verdict_new(ctx, log, &rep, RPL_OK, RPL_VERDICT_REVEAL, &v, &err),
        RPL_OK);
    ck_assert_int_eq(rpl_verdict_status(v, &err), RPL_OK);
    snprintf(want, sizeof(want),
             "ok (complete, %zu seals, 0 sigs; seed: dealer only)", rep.seals);
    ck_assert_str_eq(rpl_verdict_summary(v), want);
    /* The dealer alone chose the seed: W-seed, after the log's none. */
    ck_assert_uint_eq(rep.warnings, 0);
    w = rpl_verdict_warning(v, 0, &line, &unshown);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(strncmp(w, "W-seed: ", 8), 0);
    ck_assert_uint_eq(line, 0);
    ck_assert_uint_eq(unshown, 0);
    ck_assert_ptr_null(rpl_verdict_warning(v, 1, &line, NULL));
    ck_assert_int_eq(rpl_verdict_text(v, "g.camelog", &text, &err), RPL_OK);
    snprintf(want, sizeof(want), "g.camelog: %s\n", rpl_verdict_summary(v));
    ck_assert_str_eq(text, want);
    ck_assert_int_eq(rpl_verdict_json(v, "g.camelog", 0, &json, &err), RPL_OK);
    ck_assert_int_eq(strncmp(json, head, strlen(head)), 0);
    ck_assert_ptr_null(strstr(json, "\"summary\""));
    ck_assert_int_eq(json[strlen(json) - 1], '}');
    rpl_free(ctx, json);
    ck_assert_int_eq(
        rpl_verdict_json(v, NULL, RPL_VERDICT_SUMMARY, &json, &err), RPL_OK);
    ck_assert_int_eq(strncmp(json, "{\"valid\":true,", 14), 0);
    snprintf(want, sizeof(want), ",\"summary\":\"%s\"}",
             rpl_verdict_summary(v));
    ck_assert_str_eq(json + strlen(json) - strlen(want), want);
    rpl_free(ctx, json);
    rpl_free(ctx, text);
    rpl_verdict_free(v);
    rpl_log_free(log);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(verdict_require_reveal)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_log *log;
    struct rpl_report rep;
    struct rpl_verdict *v = NULL;
    struct rpl_error err;
    char *json = NULL;
    char want[64];

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    log = record(ctx, false);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert_int_eq(rep.progress, RPL_PROGRESS_FINISHED);
    /* Without the flag: valid, with W-reveal after W-seed. */
    ck_assert_int_eq(rpl_verdict_new(ctx, log, &rep, RPL_OK, 0, &v, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_verdict_status(v, NULL), RPL_OK);
    ck_assert_str_eq(rpl_verdict_summary(v), "ok (finished, not revealed; "
                                             "seed: dealer only)");
    ck_assert_int_eq(
        strncmp(rpl_verdict_warning(v, 1, NULL, NULL), "W-reveal: ", 10), 0);
    rpl_verdict_free(v);
    /* With it: the game fails at its last line, the warning stays. */
    ck_assert_int_eq(
        rpl_verdict_new(ctx, log, &rep, RPL_OK, RPL_VERDICT_REVEAL, &v, &err),
        RPL_OK);
    ck_assert_int_eq(rpl_verdict_status(v, &err), RPL_E_INCOMPLETE);
    ck_assert_uint_eq(err.line, rpl_log_lines(log));
    snprintf(want, sizeof(want), "FAILED line %zu", rpl_log_lines(log));
    ck_assert_str_eq(rpl_verdict_summary(v), want);
    ck_assert_int_eq(
        strncmp(rpl_verdict_warning(v, 1, NULL, NULL), "W-reveal: ", 10), 0);
    ck_assert_int_eq(rpl_verdict_json(v, NULL, 0, &json, &err), RPL_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"valid\":false,\"progress\":null"));
    ck_assert_ptr_nonnull(strstr(json, "\"code\":\"incomplete\""));
    ck_assert_ptr_nonnull(strstr(json, "--require=reveal: "));
    rpl_free(ctx, json);
    rpl_verdict_free(v);
    rpl_log_free(log);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(verdict_unread)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_report rep;
    struct rpl_verdict *v = NULL;
    struct rpl_error err;
    char *text = NULL, *json = NULL;
    static const char head[] =
        "{\"valid\":false,\"progress\":null,\"line\":0,\"error\":\"not "
        "gzip\",\"code\":\"gzip\",\"warnings\":[],\"seals\":0,";

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    memset(&rep, 0, sizeof(rep));
    rep.error.code = RPL_E_GZIP;
    rep.error.line = 0;
    snprintf(rep.error.msg, sizeof(rep.error.msg), "not gzip");
    ck_assert_int_eq(rpl_verdict_new(ctx, NULL, &rep, RPL_E_GZIP, 0, &v, &err),
                     RPL_OK);
    ck_assert_str_eq(rpl_verdict_summary(v), "FAILED line 0");
    ck_assert_ptr_null(rpl_verdict_warning(v, 0, NULL, NULL));
    ck_assert_int_eq(rpl_verdict_text(v, "x", &text, &err), RPL_OK);
    ck_assert_str_eq(text, "x: FAILED line 0\n");
    ck_assert_int_eq(rpl_verdict_json(v, NULL, 0, &json, &err), RPL_OK);
    ck_assert_int_eq(strncmp(json, head, strlen(head)), 0);
    rpl_free(ctx, json);
    rpl_free(ctx, text);
    rpl_verdict_free(v);
    /* A failure that is not the input's: ERROR. */
    rep.error.code = RPL_E_IO;
    ck_assert_int_eq(rpl_verdict_new(ctx, NULL, &rep, RPL_E_IO, 0, &v, &err),
                     RPL_OK);
    ck_assert_str_eq(rpl_verdict_summary(v), "ERROR");
    rpl_verdict_free(v);
    rpl_ctx_free(ctx);
}
END_TEST

Suite *
spell_suite(void)
{
    Suite *s = suite_create("spell");
    TCase *tc = tcase_create("spell");

    tcase_add_test(tc, sig_message_bytes);
    tcase_add_test(tc, sig_message_limit);
    tcase_add_test(tc, seal_message_bytes);
    tcase_add_test(tc, value_lines);
    tcase_add_test(tc, names);
    tcase_add_test(tc, delivery_json_in_buf);
    tcase_add_test(tc, verdict_complete);
    tcase_add_test(tc, verdict_require_reveal);
    tcase_add_test(tc, verdict_unread);
    suite_add_tcase(s, tc);
    return s;
}
