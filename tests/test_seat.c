/*
 * test_seat.c - the seat's side of a live game (seat.c): deliveries in
 * both forms, their checks against the commitments of a recorded game
 * (honest, and lied about on purpose), the chain heads, and the seat's
 * own signatures, which must equal the recorder's byte for byte.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "internal.h"
#include "suites.h"

static const char *const NAMES[] = {"Alice", "Bob",   "Carol", "Dave",
                                    "Erin",  "Frank", "Grace"};
static const char RULES7[] = "players=7 "
                             "roles=merlin,percival,servant,servant,assassin,"
                             "morgana,mordred lady=on targeting=off";

static struct rpl_seckey *
key_from(struct rpl_ctx *ctx, uint8_t tag)
{
    uint8_t seed[32];
    struct rpl_seckey *sk = NULL;

    memset(seed, tag, sizeof(seed));
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, NULL), RPL_OK);
    return sk;
}

/* A recorded game: its text and every delivery. */
struct game {
    struct rpl_ctx *ctx;
    char *text;
    size_t len;
    struct rpl_delivery deliv[256];
    size_t ndeliv;
};

static void
record(struct game *g, bool entropy)
{
    struct rpl_seckey *dealer;
    struct rpl_seckey *seat_sk[8] = {0};
    struct rpl_pubkey seat_pk[8];
    const struct rpl_pubkey *keys[7] = {0};
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t bot[32];
    const char *text;
    size_t turn;

    memset(g, 0, sizeof(*g));
    ck_assert_int_eq(rpl_ctx_new(&g->ctx, NULL, NULL), RPL_OK);
    dealer = key_from(g->ctx, 0xd0);
    memset(bot, 3, sizeof(bot));
    for (size_t k = 1; k <= 7; k++) {
        seat_sk[k] = key_from(g->ctx, (uint8_t)k);
        rpl_seckey_pubkey(seat_sk[k], &seat_pk[k]);
        keys[k - 1] = &seat_pk[k];
    }
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "avalon";
    cfg.rules = RULES7;
    cfg.seats = 7;
    cfg.names = NAMES;
    cfg.seat_keys = keys;
    cfg.dealer = dealer;
    ck_assert_int_eq(rpl_rec_new(g->ctx, &rec, &cfg, &err), RPL_OK);
    if (entropy) {
        uint8_t e[32];

        memset(e, 0xaa, sizeof(e));
        ck_assert_int_eq(rpl_rec_entropy(rec, 2, e, seat_sk[2], &err), RPL_OK);
    }
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    while ((turn = rpl_rec_dealer_turn(rec)) != 0)
        ck_assert_msg(rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, seat_sk[turn],
                                  &err) == RPL_OK,
                      "line %zu: %s", err.line, err.msg);
    ck_assert_msg(rpl_rec_reveal(rec, &err) == RPL_OK, "%s", err.msg);
    g->ndeliv = rpl_rec_deliveries(rec);
    ck_assert_uint_le(g->ndeliv, 256);
    for (size_t i = 0; i < g->ndeliv; i++)
        ck_assert_int_eq(rpl_rec_delivery(rec, i, &g->deliv[i], &err), RPL_OK);
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    text = rpl_log_text(log, &g->len);
    g->text = malloc(g->len + 1);
    ck_assert_ptr_nonnull(g->text);
    memcpy(g->text, text, g->len + 1);
    rpl_log_free(log);
    rpl_rec_free(rec);
    for (size_t k = 0; k < 8; k++)
        rpl_seckey_free(seat_sk[k]);
    rpl_seckey_free(dealer);
}

static void
game_free(struct game *g)
{
    free(g->text);
    sodium_memzero(g->deliv, sizeof(g->deliv));
    rpl_ctx_free(g->ctx);
}

/* The first `lines` lines of text, parsed and verified. */
static struct rpl_log *
prefix(const struct game *g, size_t lines)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    size_t n = 0;

    for (size_t i = 0; i < lines; i++) {
        const char *lf = memchr(g->text + n, '\n', g->len - n);

        ck_assert_ptr_nonnull(lf);
        n = (size_t)(lf - g->text) + 1;
    }
    ck_assert_int_eq(rpl_log_parse(g->ctx, &log, g->text, n, false, &err),
                     RPL_OK);
    ck_assert_msg(rpl_log_verify(log, NULL, &rep) == RPL_OK, "line %zu: %s",
                  rep.error.line, rep.error.msg);
    return log;
}

static struct rpl_log *
whole(const struct game *g)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;

    ck_assert_int_eq(rpl_log_parse(g->ctx, &log, g->text, g->len, false, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    return log;
}

/* Line no of log as a NUL-terminated string in out. */
static void
line_of(const struct rpl_log *log, size_t no, char *out, size_t cap)
{
    size_t len = 0;
    const char *s = rpl_log_line(log, no, &len);

    ck_assert_ptr_nonnull(s);
    ck_assert_uint_lt(len, cap);
    memcpy(out, s, len);
    out[len] = '\0';
}

START_TEST(test_format_parse)
{
    struct rpl_delivery d, back;
    struct rpl_error err;
    char buf[RPL_DELIVERY_MAX];
    size_t n;

    memset(&d, 0, sizeof(d));
    d.seat = 3;
    d.line = 23;
    strcpy(d.label, "deal p3");
    strcpy(d.value, "role=merlin \"q\" back\\slash");
    for (int i = 0; i < 32; i++)
        d.nonce[i] = (uint8_t)(0x9a + i);
    n = rpl_delivery_format(&d, buf, sizeof(buf));
    ck_assert_uint_eq(n, strlen(buf));
    ck_assert_str_eq(buf, "delivery 23 \"deal p3\" \"role=merlin \\\"q\\\" "
                          "back\\\\slash\" "
                          "9a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3"
                          "b4b5b6b7b8b9");
    ck_assert_int_eq(rpl_delivery_parse(buf, n, &back, &err), RPL_OK);
    ck_assert_uint_eq(back.seat, 0);
    ck_assert_uint_eq(back.line, 23);
    ck_assert_str_eq(back.label, d.label);
    ck_assert_str_eq(back.value, d.value);
    ck_assert_mem_eq(back.nonce, d.nonce, 32);

    n = rpl_delivery_format_json(&d, buf, sizeof(buf));
    ck_assert_uint_eq(n, strlen(buf));
    ck_assert_str_eq(buf, "{\"seat\":3,\"line\":23,\"label\":\"deal p3\","
                          "\"value\":\"role=merlin \\\"q\\\" back\\\\slash\","
                          "\"nonce\":\"9a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacad"
                          "aeafb0b1b2b3b4b5b6b7b8b9\"}");
    buf[n] = '\n';
    ck_assert_int_eq(rpl_delivery_parse(buf, n + 1, &back, &err), RPL_OK);
    ck_assert_uint_eq(back.seat, 3);
    ck_assert_str_eq(back.value, d.value);

    /* Too small a buffer, and not a delivery. */
    ck_assert_uint_eq(rpl_delivery_format(&d, buf, 20), 0);
    ck_assert_str_eq(buf, "");
    d.line = 0;
    ck_assert_uint_eq(rpl_delivery_format(&d, buf, sizeof(buf)), 0);
    d.line = 1;
    d.label[0] = '\0';
    ck_assert_uint_eq(rpl_delivery_format_json(&d, buf, sizeof(buf)), 0);
}
END_TEST

#define NONCE                                                                  \
    "00000000000000000000000000000000"                                         \
    "00000000000000000000000000000000"

static const char *const bad_deliveries[] = {
    "",
    "delivery",
    "delivery 0 \"deal p1\" \"x\" " NONCE,
    "delivery 01 \"deal p1\" \"x\" " NONCE,
    "delivery 1  \"deal p1\" \"x\" " NONCE,
    "delivery 1 \"\" \"x\" " NONCE,
    "delivery 1 \"deal p1\" \"x\" " NONCE " ",
    "delivery 1 \"deal p1\" \"x\" " NONCE "0",
    "delivery 1 \"deal p1\" \"x\" 0000",
    "delivery 1 \"deal p1\" \"x\" "
    "ABCDEF0000000000000000000000000000"
    "000000000000000000000000000000",
    "delivery 1 \"deal \\p1\" \"x\" " NONCE,
    "delivery 1 \"deal p1\" \"x\ty\" " NONCE,
    "delivery 1 \"deal p1\" x " NONCE,
    "delivery 1 \"deal p1 \"x\" " NONCE,
    "Delivery 1 \"deal p1\" \"x\" " NONCE,
    "delivery 99999999999999999999999 \"deal p1\" \"x\" " NONCE,
    "{\"seat\":0,\"line\":1,\"label\":\"a\",\"value\":\"\",\"nonce\":\"" NONCE
    "\"}",
    "{\"seat\":11,\"line\":1,\"label\":\"a\",\"value\":\"\",\"nonce\":\"" NONCE
    "\"}",
    "{\"line\":1,\"seat\":1,\"label\":\"a\",\"value\":\"\",\"nonce\":\"" NONCE
    "\"}",
    "{\"seat\":1, \"line\":1,\"label\":\"a\",\"value\":\"\",\"nonce\":\"" NONCE
    "\"}",
    "{\"seat\":1,\"line\":1,\"label\":\"a\",\"value\":\"\",\"nonce\":\"" NONCE
    "\"} ",
    "{\"seat\":1,\"line\":1,\"label\":\"a\",\"value\":\"\\u0041\",\"nonce\":"
    "\"" NONCE "\"}",
};

START_TEST(test_parse_bad)
{
    const char *s = bad_deliveries[_i];
    struct rpl_delivery d;
    struct rpl_error err;

    ck_assert_msg(rpl_delivery_parse(s, strlen(s), &d, &err) == RPL_E_SYNTAX,
                  "accepted: %s", s);
    ck_assert_uint_eq(err.line, 0);
}
END_TEST

START_TEST(test_parse_limits)
{
    struct rpl_delivery d;
    struct rpl_error err;
    char *big = malloc(RPL_MAX_LINE + 2);
    char label[80], line[512];

    ck_assert_ptr_nonnull(big);
    memset(big, 'a', RPL_MAX_LINE + 1);
    ck_assert_int_eq(rpl_delivery_parse(big, RPL_MAX_LINE + 1, &d, &err),
                     RPL_E_LIMIT);
    free(big);
    /* A label of 63 bytes fits; 64 does not. */
    memset(label, 'l', 64);
    label[63] = '\0';
    snprintf(line, sizeof(line), "delivery 1 \"%s\" \"\" %s", label, NONCE);
    ck_assert_int_eq(rpl_delivery_parse(line, strlen(line), &d, &err), RPL_OK);
    ck_assert_str_eq(d.value, "");
    label[63] = 'l';
    label[64] = '\0';
    snprintf(line, sizeof(line), "delivery 1 \"%s\" \"\" %s", label, NONCE);
    ck_assert_int_eq(rpl_delivery_parse(line, strlen(line), &d, &err),
                     RPL_E_SYNTAX);
}
END_TEST

/* An honest game: each delivery matches at every prefix that holds its
 * line, and is "not yet" before. */
START_TEST(test_check_honest)
{
    struct game g;
    struct rpl_error err;

    record(&g, true);
    ck_assert_uint_gt(g.ndeliv, 7);
    for (size_t i = 0; i < g.ndeliv; i++) {
        const struct rpl_delivery *d = &g.deliv[i];
        struct rpl_log *at = prefix(&g, d->line);
        struct rpl_log *before = prefix(&g, d->line - 1);
        char buf[RPL_DELIVERY_MAX];
        struct rpl_delivery back;
        const size_t n = rpl_delivery_format(d, buf, sizeof(buf));

        ck_assert_msg(rpl_seat_check_delivery(at, d, &err) == RPL_OK,
                      "delivery %zu (%s): %s", i, d->label, err.msg);
        ck_assert_int_eq(rpl_seat_check_delivery(before, d, &err),
                         RPL_E_INCOMPLETE);
        ck_assert_uint_eq(err.line, d->line);
        /* Through the text form (no seat). */
        ck_assert_int_eq(rpl_delivery_parse(buf, n, &back, &err), RPL_OK);
        ck_assert_int_eq(rpl_seat_check_delivery(at, &back, &err), RPL_OK);
        rpl_log_free(at);
        rpl_log_free(before);
    }
    game_free(&g);
}
END_TEST

START_TEST(test_check_lies)
{
    struct game g;
    struct rpl_log *log;
    struct rpl_delivery d;
    struct rpl_error err;
    size_t other = 0;

    record(&g, false);
    log = whole(&g);
    /* A changed value. */
    d = g.deliv[0];
    ck_assert_str_eq(d.label, "deal p1");
    d.value[0] = d.value[0] == 'r' ? 'R' : 'r';
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_uint_eq(err.line, d.line);
    ck_assert_ptr_nonnull(strstr(err.msg, "does not match the commitment"));
    /* A changed nonce. */
    d = g.deliv[0];
    d.nonce[5] ^= 1;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    /* Another seat's delivery, true in itself, sent to p1. */
    d = g.deliv[1];
    ck_assert_str_eq(d.label, "deal p2");
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_OK);
    d.seat = 1;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_uint_eq(err.line, g.deliv[1].line);
    ck_assert_ptr_nonnull(strstr(err.msg, "addressed to p2, not to p1"));
    /* p2's label on p1's line. */
    d = g.deliv[1];
    d.line = g.deliv[0].line;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_uint_eq(err.line, g.deliv[0].line);
    ck_assert_ptr_nonnull(strstr(err.msg, "is not the one line"));
    /* A line without commitment, a header line, a line past the end. */
    d = g.deliv[0];
    d.line = 2;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_ptr_nonnull(strstr(err.msg, "carries no commitment"));
    d.line = rpl_log_lines(log);
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    d.line = rpl_log_lines(log) + 1;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_INCOMPLETE);
    /* A card nonce is its author's. */
    for (size_t i = 0; i < g.ndeliv && !other; i++)
        if (strncmp(g.deliv[i].label, "card ", 5) == 0)
            other = i;
    ck_assert_uint_gt(other, 0);
    d = g.deliv[other];
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_OK);
    d.seat = d.seat % 7 + 1;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    rpl_log_free(log);
    game_free(&g);
}
END_TEST

START_TEST(test_check_unverified)
{
    struct game g;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t head[32], zero[32] = {0}, h[32] = {0};
    char line[RPL_MAX_LINE + 1];

    record(&g, false);
    ck_assert_int_eq(rpl_log_parse(g.ctx, &log, g.text, g.len, false, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_seat_check_delivery(log, &g.deliv[0], &err),
                     RPL_E_STATE);
    ck_assert_int_eq(rpl_seat_sig_message(log, 1, "vote p1 yes",
                                          (uint8_t *)line, sizeof(line),
                                          &(size_t){0}, &err),
                     RPL_E_STATE);
    /* Heads need no verification. */
    ck_assert_int_eq(rpl_log_head(log, 0, head, &err), RPL_OK);
    ck_assert_mem_eq(head, zero, 32);
    for (size_t no = 1; no <= 3; no++) {
        size_t len = 0;
        const char *s = rpl_log_line(log, no, &len);

        rpl__chain(h, s, len);
    }
    ck_assert_int_eq(rpl_log_head(log, 3, head, &err), RPL_OK);
    ck_assert_mem_eq(head, h, 32);
    ck_assert_int_eq(rpl_log_head(log, rpl_log_lines(log) + 1, head, &err),
                     RPL_E_INCOMPLETE);
    rpl_log_free(log);
    game_free(&g);
}
END_TEST

/* Every sig line of the recorder, made again by the seat from the prefix
 * before the signed line: Ed25519 is deterministic, so byte for byte. */
START_TEST(test_sign_like_recorder)
{
    struct game g;
    struct rpl_log *full;
    struct rpl_error err;
    struct rpl_report rep;
    size_t sigs = 0, votes = 0;

    record(&g, true);
    ck_assert_int_eq(rpl_log_parse(g.ctx, &full, g.text, g.len, false, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_log_verify(full, NULL, &rep), RPL_OK);
    for (size_t no = 3; no <= rpl_log_lines(full); no++) {
        char want[RPL_MAX_LINE + 1], signed_line[RPL_MAX_LINE + 1];
        char got[RPL_SIG_LINE_MAX];
        struct rpl_log *pre;
        struct rpl_seckey *sk;
        size_t seat = 0, base = 0;

        line_of(full, no, want, sizeof(want));
        if (strncmp(want, "sig p", 5) != 0)
            continue;
        seat = (size_t)strtoul(want + 5, NULL, 10);
        line_of(full, no - 1, signed_line, sizeof(signed_line));
        pre = prefix(&g, no - 2);
        sk = key_from(g.ctx, (uint8_t)seat);
        ck_assert_msg(rpl_seat_sign(pre, seat, sk, signed_line, got, &err) ==
                          RPL_OK,
                      "line %zu: %s", no, err.msg);
        ck_assert_str_eq(got, want);
        /* Another seat may not sign it (with its own key), nor the seat
         * with another key. */
        ck_assert_int_eq(
            rpl_seat_sign(pre, seat % 7 + 1, sk, signed_line, got, &err),
            RPL_E_KEY);
        rpl_seckey_free(sk);
        sk = key_from(g.ctx, (uint8_t)(seat % 7 + 1));
        ck_assert_int_eq(
            rpl_seat_sign(pre, seat % 7 + 1, sk, signed_line, got, &err),
            RPL_E_ARG);
        ck_assert_int_eq(rpl_seat_sign(pre, seat, sk, signed_line, got, &err),
                         RPL_E_KEY);
        rpl_seckey_free(sk);
        ck_assert_int_eq(rpl_seat_sig_base(full, no, &base, &err), RPL_OK);
        if (strncmp(signed_line, "vote ", 5) == 0) {
            votes++;
            ck_assert_uint_le(base, no - 2);
        } else {
            ck_assert_uint_eq(base, no - 2);
        }
        rpl_log_free(pre);
        sigs++;
    }
    ck_assert_uint_gt(sigs, 10);
    ck_assert_uint_gt(votes, 7);
    ck_assert_int_eq(rpl_seat_sig_base(full, 1, &(size_t){0}, &err), RPL_E_ARG);
    rpl_log_free(full);
    game_free(&g);
}
END_TEST

START_TEST(test_sign_refusals)
{
    struct game g;
    struct rpl_log *full, *pre;
    struct rpl_error err;
    struct rpl_report rep;
    struct rpl_seckey *sk;
    char got[RPL_SIG_LINE_MAX];
    uint8_t msg[RPL_SIG_MESSAGE_MAX];
    size_t n = 0, start = 0;

    record(&g, false);
    ck_assert_int_eq(rpl_log_parse(g.ctx, &full, g.text, g.len, false, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_log_verify(full, NULL, &rep), RPL_OK);
    for (size_t no = 1; no <= rpl_log_lines(full) && !start; no++) {
        char s[RPL_MAX_LINE + 1];

        line_of(full, no, s, sizeof(s));
        if (strncmp(s, "start ", 6) == 0)
            start = no;
    }
    sk = key_from(g.ctx, 1);
    /* A dealer's line, a seal, a line the game refuses, no such seat. */
    pre = prefix(&g, start - 1);
    ck_assert_int_eq(rpl_seat_sign(pre, 1, sk, "seal AAAA", got, &err),
                     RPL_E_ARG);
    ck_assert_int_eq(
        rpl_seat_sig_message(pre, 9, "vote p1 yes", msg, sizeof(msg), &n, &err),
        RPL_E_ARG);
    ck_assert_int_ne(rpl_seat_sig_message(pre, 1, "vote p1 maybe", msg,
                                          sizeof(msg), &n, &err),
                     RPL_OK);
    ck_assert_int_ne(
        rpl_seat_sig_message(pre, 1, "vote  p1", msg, sizeof(msg), &n, &err),
        RPL_OK);
    /* Entropy: the sig message is the domain, the head and the line. */
    {
        const char line[] = "entropy p1 " NONCE;
        uint8_t head[32];

        ck_assert_int_eq(
            rpl_seat_sig_message(pre, 1, line, msg, sizeof(msg), &n, &err),
            RPL_OK);
        ck_assert_uint_eq(n, 14 + 32 + strlen(line));
        ck_assert_int_eq(rpl_log_head(pre, rpl_log_lines(pre), head, &err),
                         RPL_OK);
        ck_assert_mem_eq(msg, "camelog sig v1", 14);
        ck_assert_mem_eq(msg + 14, head, 32);
        ck_assert_mem_eq(msg + 46, line, strlen(line));
        ck_assert_int_eq(
            rpl_seat_sig_message(pre, 2, line, msg, sizeof(msg), &n, &err),
            RPL_E_ARG);
        ck_assert_int_eq(rpl_seat_sig_message(pre, 1, line, msg, 20, &n, &err),
                         RPL_E_ARG);
    }
    rpl_log_free(pre);
    /* Entropy after the start. */
    pre = prefix(&g, start);
    ck_assert_int_eq(rpl_seat_sig_message(pre, 1, "entropy p1 " NONCE, msg,
                                          sizeof(msg), &n, &err),
                     RPL_E_RULES);
    rpl_log_free(pre);
    /* After the reveal nobody signs. */
    ck_assert_int_eq(rpl_seat_sign(full, 1, sk, "vote p1 yes", got, &err),
                     RPL_E_STATE);
    rpl_seckey_free(sk);
    rpl_log_free(full);
    game_free(&g);
}
END_TEST

/* Entropy made by the seat and appended as the host would: the log still
 * verifies, signature included. */
START_TEST(test_entropy)
{
    struct game g;
    struct rpl_log *pre, *log = NULL;
    struct rpl_seckey *sk;
    struct rpl_error err;
    struct rpl_report rep;
    char eline[RPL_ENTROPY_LINE_MAX], sline[RPL_SIG_LINE_MAX];
    char *text;
    size_t header = 1, len;
    const char *s;

    record(&g, false);
    for (s = g.text; strncmp(s, "commit ", 7) != 0; header++)
        s = strchr(s, '\n') + 1;
    pre = prefix(&g, header);
    sk = key_from(g.ctx, 3);
    ck_assert_int_eq(rpl_seat_entropy(pre, 3, sk, eline, sline, &err), RPL_OK);
    ck_assert_uint_eq(strlen(eline), 11 + 64);
    ck_assert_int_eq(strncmp(eline, "entropy p3 ", 11), 0);
    ck_assert_int_eq(strncmp(sline, "sig p3 ", 7), 0);
    len = (size_t)(s - g.text) + strlen("commit ") + 65;
    text = malloc(len + 2 * RPL_SIG_LINE_MAX + RPL_ENTROPY_LINE_MAX);
    ck_assert_ptr_nonnull(text);
    memcpy(text, g.text, len);
    len += (size_t)sprintf(text + len, "%s\n%s\n", eline, sline);
    ck_assert_int_eq(rpl_log_parse(g.ctx, &log, text, len, false, &err),
                     RPL_OK);
    ck_assert_msg(rpl_log_verify(log, NULL, &rep) == RPL_OK, "%s",
                  rep.error.msg);
    ck_assert_uint_eq(rep.sigs, 1);
    /* p2 may no longer give entropy; p3 signs with p1's key: refused. */
    rpl_seckey_free(sk);
    sk = key_from(g.ctx, 2);
    ck_assert_int_eq(rpl_seat_entropy(log, 2, sk, eline, sline, &err),
                     RPL_E_RULES);
    rpl_seckey_free(sk);
    sk = key_from(g.ctx, 1);
    ck_assert_int_eq(rpl_seat_entropy(pre, 3, sk, eline, sline, &err),
                     RPL_E_KEY);
    rpl_seckey_free(sk);
    free(text);
    rpl_log_free(log);
    rpl_log_free(pre);
    game_free(&g);
}
END_TEST

Suite *
seat_suite(void)
{
    Suite *s = suite_create("seat");
    TCase *tc = tcase_create("seat");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_format_parse);
    tcase_add_loop_test(
        tc, test_parse_bad, 0,
        (int)(sizeof(bad_deliveries) / sizeof(bad_deliveries[0])));
    tcase_add_test(tc, test_parse_limits);
    tcase_add_test(tc, test_check_honest);
    tcase_add_test(tc, test_check_lies);
    tcase_add_test(tc, test_check_unverified);
    tcase_add_test(tc, test_sign_like_recorder);
    tcase_add_test(tc, test_sign_refusals);
    tcase_add_test(tc, test_entropy);
    suite_add_tcase(s, tc);
    return s;
}
