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

#include "entropy2.h"
#include "failalloc.h"
#include "internal.h"
#include "log.h"
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
        uint8_t e[1][32];
        const size_t who[1] = {2};
        struct rpl_seckey *sks[1] = {seat_sk[2]};

        memset(e[0], 0xaa, sizeof(e[0]));
        two_rounds(rec, NULL, 1, who, (const uint8_t(*)[32])e, sks);
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

/* The dealer's signature of d made again, as a dishonest dealer signs
 * the lie it tells (the key of record()). */
static void
resign(struct rpl_delivery *d, const struct rpl_log *log)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *dealer;
    uint8_t id[16], msg[RPL_DELIVERY_MESSAGE_MAX];
    size_t len = 0;

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    dealer = key_from(ctx, 0xd0);
    memcpy(id, log->id, sizeof(id));
    rpl_delivery_message(id, d, msg, &len);
    rpl__sign(dealer, msg, len, d->sig);
    d->has_sig = true;
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}

START_TEST(test_check_lies)
{
    struct game g;
    struct rpl_log *log;
    struct rpl_delivery d;
    struct rpl_error err;
    size_t other = 0;

    record(&g, false);
    log = whole(&g);
    /* A changed value: not the dealer's, then signed by the dealer. */
    d = g.deliv[0];
    ck_assert_str_eq(d.label, "deal p1");
    ck_assert(d.has_sig);
    d.value[0] = d.value[0] == 'r' ? 'R' : 'r';
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_uint_eq(err.line, d.line);
    ck_assert_ptr_nonnull(strstr(err.msg, "signature of the delivery"));
    resign(&d, log);
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_uint_eq(err.line, d.line);
    ck_assert_ptr_nonnull(strstr(err.msg, "does not match the commitment"));
    /* Unsigned, in format 2. */
    d = g.deliv[0];
    d.has_sig = false;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_ptr_nonnull(strstr(err.msg, "carries no signature"));
    /* Not padded, though signed. */
    d = g.deliv[0];
    d.value[rpl__unpad_len(d.value)] = '\0';
    resign(&d, log);
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_ptr_nonnull(strstr(err.msg, "not padded"));
    /* A changed nonce. */
    d = g.deliv[0];
    d.nonce[5] ^= 1;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    resign(&d, log);
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_ptr_nonnull(strstr(err.msg, "does not match the commitment"));
    /* Another seat's delivery, true in itself, sent to p1. */
    d = g.deliv[1];
    ck_assert_str_eq(d.label, "deal p2");
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_OK);
    d.seat = 1;
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_uint_eq(err.line, g.deliv[1].line);
    ck_assert_ptr_nonnull(strstr(err.msg, "addressed to p2, not to p1"));
    /* p2's label on p1's line, signed so. */
    d = g.deliv[1];
    d.line = g.deliv[0].line;
    resign(&d, log);
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_uint_eq(err.line, g.deliv[0].line);
    ck_assert_ptr_nonnull(strstr(err.msg, "is not the one line"));
    /* A line without commitment, a header line, a line past the end. */
    d = g.deliv[0];
    d.line = 2;
    resign(&d, log);
    ck_assert_int_eq(rpl_seat_check_delivery(log, &d, &err), RPL_E_FAIRNESS);
    ck_assert_ptr_nonnull(strstr(err.msg, "carries no commitment"));
    d.line = rpl_log_lines(log);
    resign(&d, log);
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

/* The deliveries due to each seat, from the public log alone, are the
 * lines of the recorder's deliveries to it, in order, at the end and at
 * every prefix (those of lines written so far). */
START_TEST(test_due_like_recorder)
{
    struct game g;
    struct rpl_error err;
    struct rpl_log *log;
    size_t lines[256], n = 0, total = 0;

    record(&g, true);
    log = whole(&g);
    for (size_t k = 1; k <= 7; k++) {
        size_t want = 0;

        ck_assert_int_eq(rpl_seat_due(log, k, lines, 256, &n, &err), RPL_OK);
        for (size_t i = 0; i < g.ndeliv; i++) {
            if (g.deliv[i].seat != k)
                continue;
            ck_assert_uint_lt(want, n);
            ck_assert_uint_eq(lines[want], g.deliv[i].line);
            want++;
        }
        ck_assert_uint_eq(n, want);
        ck_assert_uint_gt(n, 0);
        total += n;
    }
    ck_assert_uint_eq(total, g.ndeliv);
    /* Counting only, and a short array: n is the whole count. */
    ck_assert_int_eq(rpl_seat_due(log, 1, NULL, 0, &n, &err), RPL_OK);
    ck_assert_int_eq(rpl_seat_due(log, 1, lines, 1, &total, &err), RPL_OK);
    ck_assert_uint_eq(n, total);
    ck_assert_uint_gt(n, 1);
    for (size_t i = 0; i < g.ndeliv; i++)
        if (g.deliv[i].seat == 1) {
            ck_assert_uint_eq(lines[0], g.deliv[i].line);
            break;
        }
    for (size_t cut = 20; cut < rpl_log_lines(log); cut += 7) {
        struct rpl_log *at = prefix(&g, cut);

        for (size_t k = 1; k <= 7; k++) {
            size_t want = 0;

            for (size_t i = 0; i < g.ndeliv; i++)
                want += g.deliv[i].seat == k && g.deliv[i].line <= cut;
            ck_assert_int_eq(rpl_seat_due(at, k, NULL, 0, &n, &err), RPL_OK);
            ck_assert_msg(n == want, "p%zu at line %zu: %zu due, %zu sent", k,
                          cut, n, want);
        }
        rpl_log_free(at);
    }
    ck_assert_int_eq(rpl_seat_due(log, 0, lines, 256, &n, &err), RPL_E_ARG);
    ck_assert_int_eq(rpl_seat_due(log, 8, lines, 256, &n, &err), RPL_E_ARG);
    ck_assert_uint_eq(n, 0);
    rpl_log_free(log);
    log = NULL;
    ck_assert_int_eq(rpl_log_parse(g.ctx, &log, g.text, g.len, false, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_seat_due(log, 1, lines, 256, &n, &err), RPL_E_STATE);
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
        if (strncmp(signed_line, "pledge ", 7) == 0 ||
            strncmp(signed_line, "entropy ", 8) == 0) {
            /* Format 2: the seat makes both lines itself, the same bytes
             * as the recorder's, and never signs them handed to it; the
             * base is the header's chain, or the sealed start's. */
            const bool is_pledge = signed_line[0] == 'p';
            char made[RPL_MAX_LINE + 1];
            uint8_t v[32];

            memset(v, 0xaa, sizeof(v));
            ck_assert_msg(
                (is_pledge ? rpl_seat_pledge(pre, seat, sk, v, made, got, &err)
                           : rpl_seat_reveal(pre, seat, sk, v, made, got,
                                             &err)) == RPL_OK,
                "line %zu: %s", no, err.msg);
            ck_assert_str_eq(made, signed_line);
            ck_assert_str_eq(got, want);
            ck_assert_int_eq(
                rpl_seat_sign(pre, seat, sk, signed_line, got, &err),
                RPL_E_ARG);
            ck_assert_int_eq(rpl_seat_sig_base(full, no, &base, &err), RPL_OK);
            line_of(full, base, made, sizeof(made));
            ck_assert_int_eq(strncmp(made, is_pledge ? "commit " : "seal ",
                                     is_pledge ? 7 : 5),
                             0);
            if (!is_pledge) {
                line_of(full, base - 1, made, sizeof(made));
                ck_assert_int_eq(strncmp(made, "pledged ", 8), 0);
            }
            rpl_seckey_free(sk);
            rpl_log_free(pre);
            sigs++;
            continue;
        }
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
    /* Format 2: a pledge or an entropy line handed to the seat is never
     * signed (the seat makes its own: rpl_seat_pledge, rpl_seat_reveal). */
    ck_assert_int_eq(rpl_seat_sig_message(pre, 1, "entropy p1 " NONCE, msg,
                                          sizeof(msg), &n, &err),
                     RPL_E_ARG);
    ck_assert_int_eq(rpl_seat_sig_message(pre, 1, "pledge p1 " NONCE, msg,
                                          sizeof(msg), &n, &err),
                     RPL_E_ARG);
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
/* A seat signs only what it chose: its own card, recomputed from the
 * request's label and nonce; another action, or another card, is
 * refused and signs nothing. */
START_TEST(test_sign_action)
{
    struct game g;
    struct rpl_log *whole_log;
    struct rpl_error err;
    char line[RPL_MAX_LINE + 1], next[RPL_MAX_LINE + 1];
    char action[128], other[128], sig[RPL_SIG_LINE_MAX];
    size_t cards = 0, votes = 0;

    record(&g, false);
    whole_log = whole(&g);
    for (size_t i = 0; i < g.ndeliv; i++) {
        const struct rpl_delivery *d = &g.deliv[i];
        struct rpl_log *before;
        struct rpl_seckey *sk;
        char value[RPL__PAD + 1];

        if (strncmp(d->label, "card ", 5) != 0)
            continue;
        before = prefix(&g, d->line - 1);
        sk = key_from(g.ctx, (uint8_t)d->seat);
        line_of(whole_log, d->line, line, sizeof(line));
        line_of(whole_log, d->line + 1, next, sizeof(next));
        memcpy(value, d->value, sizeof(value));
        value[rpl__unpad_len(value)] = '\0';
        snprintf(action, sizeof(action), "card p%zu %s", d->seat, value);
        snprintf(other, sizeof(other), "card p%zu %s", d->seat,
                 strcmp(value, "fail") == 0 ? "success" : "fail");
        ck_assert_msg(rpl_seat_sign_action(before, d->seat, sk, line, action,
                                           d->label, d->nonce, sig,
                                           &err) == RPL_OK,
                      "%s: %s", line, err.msg);
        ck_assert_str_eq(sig, next);
        /* The host submitted the other card: the seat's is not it. */
        ck_assert_int_eq(rpl_seat_sign_action(before, d->seat, sk, line, other,
                                              d->label, d->nonce, sig, &err),
                         RPL_E_FAIRNESS);
        ck_assert_ptr_nonnull(strstr(err.msg, "something other than"));
        /* Without the request's nonce it cannot tell. */
        ck_assert_int_eq(rpl_seat_sign_action(before, d->seat, sk, line, action,
                                              NULL, NULL, sig, &err),
                         RPL_E_ARG);
        /* Another seat's label. */
        ck_assert_int_eq(rpl_seat_sign_action(before, d->seat, sk, line, action,
                                              "deal p1", d->nonce, sig, &err),
                         RPL_E_FAIRNESS);
        rpl_seckey_free(sk);
        rpl_log_free(before);
        cards++;
    }
    ck_assert_uint_gt(cards, 0);
    /* A public action: the line must be the seat's own. */
    for (size_t no = 1; no < rpl_log_lines(whole_log) && votes == 0; no++) {
        line_of(whole_log, no, line, sizeof(line));
        if (strncmp(line, "vote p1 ", 8) != 0)
            continue;
        {
            struct rpl_log *before = prefix(&g, no - 1);
            struct rpl_seckey *sk = key_from(g.ctx, 1);

            snprintf(other, sizeof(other), "vote p1 %s",
                     strcmp(line + 8, "yes") == 0 ? "no" : "yes");
            ck_assert_int_eq(rpl_seat_sign_action(before, 1, sk, line, line,
                                                  NULL, NULL, sig, &err),
                             RPL_OK);
            ck_assert_int_eq(rpl_seat_sign_action(before, 1, sk, line, other,
                                                  NULL, NULL, sig, &err),
                             RPL_E_FAIRNESS);
            ck_assert_ptr_nonnull(strstr(err.msg, "not p1's action"));
            rpl_seckey_free(sk);
            rpl_log_free(before);
        }
        votes++;
    }
    ck_assert_uint_eq(votes, 1);
    rpl_log_free(whole_log);
    game_free(&g);
}
END_TEST

START_TEST(test_entropy)
{
    struct game g;
    struct rpl_log *pre, *log = NULL;
    struct rpl_seckey *sk;
    struct rpl_error err;
    struct rpl_report rep;
    char eline[RPL_ENTROPY_LINE_MAX], sline[RPL_SIG_LINE_MAX];
    uint8_t v[32];
    char *text;
    size_t header = 1, len;
    const char *s;

    record(&g, false);
    for (s = g.text; strncmp(s, "commit ", 7) != 0; header++)
        s = strchr(s, '\n') + 1;
    pre = prefix(&g, header);
    sk = key_from(g.ctx, 3);
    /* Format 2 takes no one-round entropy. */
    ck_assert_int_eq(rpl_seat_entropy(pre, 3, sk, eline, sline, &err),
                     RPL_E_UNSUPPORTED);
    memset(v, 0x5a, sizeof(v));
    ck_assert_int_eq(rpl_seat_pledge(pre, 3, sk, v, eline, sline, &err),
                     RPL_OK);
    ck_assert_uint_eq(strlen(eline), 10 + 64);
    ck_assert_int_eq(strncmp(eline, "pledge p3 ", 10), 0);
    ck_assert_int_eq(strncmp(sline, "sig p3 ", 7), 0);
    /* No sealed start yet: nothing to reveal. */
    ck_assert_int_eq(rpl_seat_reveal(pre, 3, sk, v, eline, sline, &err),
                     RPL_E_STATE);
    ck_assert_int_eq(rpl_seat_pledge(pre, 3, sk, v, eline, sline, &err),
                     RPL_OK);
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
    ck_assert_uint_eq(rep.pledged, 1u << 2);
    ck_assert_uint_eq(rep.pledge_signed, 1u << 2);
    /* Another value for p3 than the pledge in the log: refused. */
    v[0] ^= 1;
    ck_assert_int_eq(rpl_seat_pledge(log, 3, sk, v, eline, sline, &err),
                     RPL_E_FAIRNESS);
    /* p3 pledges with p1's key: refused. */
    rpl_seckey_free(sk);
    sk = key_from(g.ctx, 1);
    ck_assert_int_eq(rpl_seat_pledge(pre, 3, sk, v, eline, sline, &err),
                     RPL_E_KEY);
    rpl_seckey_free(sk);
    free(text);
    rpl_log_free(log);
    rpl_log_free(pre);
    game_free(&g);
}
END_TEST

/* Votes are simultaneous: on a log that ends at the proposal (and its
 * sig), every seat signs its vote against the group's base, and the
 * signature is the one the final log holds. */
START_TEST(test_sign_vote_early)
{
    struct game g;
    struct rpl_log *full, *pre;
    struct rpl_error err;
    size_t checked = 0;

    record(&g, false);
    full = whole(&g);
    for (size_t no = 1; no <= rpl_log_lines(full) && checked < 12; no++) {
        char line[RPL_MAX_LINE + 1];
        size_t first;

        line_of(full, no, line, sizeof(line));
        if (strncmp(line, "propose ", 8) != 0)
            continue;
        first = no + 2; /* the propose line's sig, then p1's vote */
        line_of(full, first, line, sizeof(line));
        ck_assert_int_eq(strncmp(line, "vote p1 ", 8), 0);
        pre = prefix(&g, first - 1);
        for (size_t k = 1; k <= 7; k++) {
            char vote[RPL_MAX_LINE + 1];
            char want[RPL_MAX_LINE + 1];
            char sig[RPL_SIG_LINE_MAX];
            struct rpl_seckey *sk = key_from(g.ctx, (uint8_t)k);

            line_of(full, first + 2 * (k - 1), vote, sizeof(vote));
            line_of(full, first + 2 * (k - 1) + 1, want, sizeof(want));
            ck_assert_msg(rpl_seat_sign(pre, k, sk, vote, sig, &err) == RPL_OK,
                          "p%zu at line %zu: %s", k, no, err.msg);
            ck_assert_str_eq(sig, want);
            /* Another seat's vote is still not p(k)'s. */
            ck_assert_int_eq(rpl_seat_sign(pre, k % 7 + 1, sk, vote, sig, &err),
                             RPL_E_KEY);
            rpl_seckey_free(sk);
        }
        rpl_log_free(pre);
        checked++;
    }
    ck_assert_uint_gt(checked, 0);
    rpl_log_free(full);
    game_free(&g);
}
END_TEST

/* ------------------------------------------------------ a seat's view */

/* The first line of log that begins with prefix, 0 when none. */
static size_t
find_line(const struct rpl_log *log, const char *pfx)
{
    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        size_t len = 0;
        const char *t = rpl_log_line(log, no, &len);

        if (len >= strlen(pfx) && memcmp(t, pfx, strlen(pfx)) == 0)
            return no;
    }
    return 0;
}

/* Seat k's deliveries among d[0..n) into out (text form: no seat). */
static size_t
deliveries_of(const struct rpl_delivery *d, size_t n, size_t k,
              struct rpl_delivery *out)
{
    size_t m = 0;

    for (size_t i = 0; i < n; i++)
        if (d[i].seat == k) {
            out[m] = d[i];
            out[m++].seat = 0;
        }
    return m;
}

/* The text and JSON views and the describe of log for viewer at no. */
struct views {
    char *text;
    char *json;
    char *said;
};

static void
views_at(struct rpl_log *log, size_t no, int viewer, struct views *v)
{
    struct rpl_error err;

    ck_assert_msg(rpl_log_seek(log, no, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_log_view(log, viewer, &v->text, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_view_json(log, viewer, &v->json, &err), RPL_OK);
    v->said = NULL;
    if (no > 0)
        ck_assert_int_eq(rpl_log_describe(log, no, viewer, &v->said, &err),
                         RPL_OK);
}

static void
views_free(struct rpl_ctx *ctx, struct views *v)
{
    rpl_free(ctx, v->text);
    rpl_free(ctx, v->json);
    rpl_free(ctx, v->said);
}

static void
views_eq(const struct views *a, const struct views *b, size_t no)
{
    ck_assert_msg(strcmp(a->text, b->text) == 0, "line %zu:\n%s\n--\n%s", no,
                  a->text, b->text);
    ck_assert_msg(strcmp(a->json, b->json) == 0, "line %zu:\n%s\n--\n%s", no,
                  a->json, b->json);
    ck_assert(!a->said == !b->said);
    if (a->said)
        ck_assert_msg(strcmp(a->said, b->said) == 0, "line %zu: %s / %s", no,
                      a->said, b->said);
}

/* Every seat's view of the game without its reveal, given its deliveries,
 * is the seat's view of the complete log at every step from its deal on;
 * before it, the seat knows nothing yet.  Other viewers see what they saw
 * before. */
START_TEST(test_learn_like_complete)
{
    struct game g;
    struct rpl_delivery mine[256];
    struct rpl_error err;
    struct rpl_log *full, *pre;
    size_t reveal;

    record(&g, true);
    full = whole(&g);
    reveal = find_line(full, "reveal ");
    ck_assert_uint_gt(reveal, 0);
    for (size_t k = 1; k <= 7; k++) {
        const size_t n = deliveries_of(g.deliv, g.ndeliv, k, mine);
        char deal[16];
        size_t deal_line;
        int other = (int)(k % 7 + 1);

        snprintf(deal, sizeof(deal), "deal p%zu ", k);
        deal_line = find_line(full, deal);
        ck_assert_uint_gt(deal_line, 0);
        pre = prefix(&g, reveal - 1);
        ck_assert_msg(rpl_log_learn(pre, k, mine, n, &err) == RPL_OK,
                      "p%zu: line %zu: %s", k, err.line, err.msg);
        ck_assert_uint_eq(rpl_log_tell(pre), 0);
        for (size_t no = 0; no < reveal; no++) {
            struct views a, b, pa, pb;

            views_at(pre, no, (int)k, &a);
            views_at(full, no, (int)k, &b);
            if (no >= deal_line) {
                views_eq(&a, &b, no);
            } else {
                ck_assert_ptr_nonnull(
                    strstr(a.text, "private knowledge not revealed"));
                ck_assert_ptr_nonnull(strstr(a.json, "\"revealed\":false"));
            }
            views_free(g.ctx, &a);
            views_free(g.ctx, &b);
            /* Another seat learns nothing from k's deliveries. */
            views_at(pre, no, other, &pa);
            ck_assert_ptr_nonnull(
                strstr(pa.text, "private knowledge not revealed"));
            views_free(g.ctx, &pa);
            views_at(pre, no, RPL_VIEW_PUBLIC, &pa);
            views_at(full, no, RPL_VIEW_PUBLIC, &pb);
            views_eq(&pa, &pb, no);
            views_free(g.ctx, &pa);
            views_free(g.ctx, &pb);
        }
        /* n 0 forgets them. */
        ck_assert_int_eq(rpl_log_learn(pre, k, NULL, 0, &err), RPL_OK);
        {
            struct views a;

            views_at(pre, reveal - 1, (int)k, &a);
            ck_assert_ptr_nonnull(
                strstr(a.text, "private knowledge not revealed"));
            views_free(g.ctx, &a);
        }
        rpl_log_free(pre);
    }
    rpl_log_free(full);
    game_free(&g);
}
END_TEST

/* Refusals leave the log as it was. */
START_TEST(test_learn_refusals)
{
    struct game g;
    struct rpl_delivery mine[256];
    struct rpl_error err;
    struct rpl_log *pre, *full;
    size_t reveal, n;
    struct views before, after;

    record(&g, false);
    full = whole(&g);
    reveal = find_line(full, "reveal ");
    pre = prefix(&g, reveal - 1);
    n = deliveries_of(g.deliv, g.ndeliv, 2, mine);
    ck_assert_uint_gt(n, 0);
    ck_assert_int_eq(rpl_log_learn(pre, 2, mine, n, &err), RPL_OK);
    views_at(pre, reveal - 1, 2, &before);
    /* A lie about the deal. */
    mine[0].value[0] ^= 1;
    ck_assert_int_eq(rpl_log_learn(pre, 2, mine, n, &err), RPL_E_FAIRNESS);
    ck_assert_uint_eq(err.line, mine[0].line);
    mine[0].value[0] ^= 1;
    /* Another seat's delivery, as p2's. */
    mine[0].seat = 3;
    ck_assert_int_eq(rpl_log_learn(pre, 2, mine, n, &err), RPL_E_ARG);
    mine[0].seat = 0;
    ck_assert_int_eq(rpl_log_learn(pre, 3, mine, n, &err), RPL_E_FAIRNESS);
    ck_assert_int_eq(rpl_log_learn(pre, 0, mine, n, &err), RPL_E_ARG);
    ck_assert_int_eq(rpl_log_learn(pre, 8, mine, n, &err), RPL_E_ARG);
    ck_assert_int_eq(rpl_log_learn(pre, 2, mine, RPL_MAX_LINES + 1u, &err),
                     RPL_E_LIMIT);
    views_at(pre, reveal - 1, 2, &after);
    views_eq(&before, &after, reveal - 1);
    views_free(g.ctx, &before);
    views_free(g.ctx, &after);
    /* A delivery past the end of a shorter log. */
    rpl_log_free(pre);
    pre = prefix(&g, mine[n - 1].line - 1);
    ck_assert_int_eq(rpl_log_learn(pre, 2, mine, n, &err), RPL_E_INCOMPLETE);
    rpl_log_free(pre);
    /* On a complete log they change nothing. */
    views_at(full, 0, 2, &before);
    ck_assert_int_eq(rpl_log_learn(full, 2, mine, n, &err), RPL_OK);
    views_at(full, 0, 2, &after);
    views_eq(&before, &after, 0);
    views_free(g.ctx, &before);
    views_free(g.ctx, &after);
    rpl_log_free(full);
    game_free(&g);
}
END_TEST

/* An imported-style game with a given deal, played by a policy that reads
 * only public information: the first legal action of a fixed list. */
static void
play_dealt(struct game *g, const char *const *deal)
{
    static const uint8_t id[16] = {1, 2, 3, 4};
    static const uint8_t secret[32] = {9, 8, 7};
    struct rpl_seckey *dealer;
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    const char *text;
    size_t turn;

    memset(g, 0, sizeof(*g));
    ck_assert_int_eq(rpl_ctx_new(&g->ctx, NULL, NULL), RPL_OK);
    dealer = key_from(g->ctx, 0xd0);
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "avalon";
    cfg.rules = RULES7;
    cfg.seats = 7;
    cfg.names = NAMES;
    cfg.dealer = dealer;
    cfg.id = id;
    cfg.secret = secret;
    cfg.created = "2026-12-01T00:00:00Z";
    cfg.import_source = "example.org";
    cfg.import_id = "same";
    cfg.deal = deal;
    cfg.first = 1;
    ck_assert_int_eq(rpl_rec_new(g->ctx, &rec, &cfg, &err), RPL_OK);
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    while ((turn = rpl_rec_dealer_turn(rec)) != 0) {
        char act[128];
        bool done = false;

        snprintf(act, sizeof(act), "vote p%zu yes", turn);
        done = rpl_rec_act(rec, act, NULL, &err) == RPL_OK;
        if (!done) {
            snprintf(act, sizeof(act), "card p%zu success", turn);
            done = rpl_rec_act(rec, act, NULL, &err) == RPL_OK;
        }
        for (size_t t = 1; !done && t <= 7; t++) {
            snprintf(act, sizeof(act), "lady p%zu p%zu", turn, t);
            done = rpl_rec_act(rec, act, NULL, &err) == RPL_OK;
        }
        if (!done) {
            snprintf(act, sizeof(act), "assassinate p%zu p3", turn);
            done = rpl_rec_act(rec, act, NULL, &err) == RPL_OK;
        }
        for (size_t size = 2; !done && size <= 5; size++) {
            int w = snprintf(act, sizeof(act), "propose p%zu ", turn);

            for (size_t i = 0; i < size; i++)
                w += snprintf(act + w, sizeof(act) - (size_t)w, "%sp%zu",
                              i ? "," : "", (turn - 1 + i) % 7 + 1);
            done = rpl_rec_act(rec, act, NULL, &err) == RPL_OK;
        }
        ck_assert_msg(done, "p%zu has no action: %s", turn, err.msg);
    }
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
    rpl_seckey_free(dealer);
}

/* Two games that differ only in what p3 (a servant) cannot know (who of
 * p1 and p2 is Merlin) look the same to p3 at every step. */
START_TEST(test_learn_hides_the_rest)
{
    static const char *const deal_a[] = {"merlin",  "percival", "servant",
                                         "servant", "assassin", "morgana",
                                         "mordred"};
    static const char *const deal_b[] = {"percival", "merlin",   "servant",
                                         "servant",  "assassin", "morgana",
                                         "mordred"};
    struct game a, b;
    struct rpl_delivery da[256], db[256];
    struct rpl_error err;
    struct rpl_log *la, *lb;
    size_t na, nb, end;

    play_dealt(&a, deal_a);
    play_dealt(&b, deal_b);
    la = whole(&a);
    end = find_line(la, "reveal ") - 1;
    rpl_log_free(la);
    la = prefix(&a, end);
    lb = prefix(&b, end);
    ck_assert_uint_eq(find_line(lb, "reveal "), 0);
    na = deliveries_of(a.deliv, a.ndeliv, 3, da);
    nb = deliveries_of(b.deliv, b.ndeliv, 3, db);
    ck_assert_uint_eq(na, nb);
    ck_assert_uint_gt(na, 1);
    ck_assert_int_eq(rpl_log_learn(la, 3, da, na, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_learn(lb, 3, db, nb, &err), RPL_OK);
    for (size_t no = 0; no <= end; no++) {
        struct views va, vb;

        views_at(la, no, 3, &va);
        views_at(lb, no, 3, &vb);
        views_eq(&va, &vb, no);
        views_free(a.ctx, &va);
        views_free(b.ctx, &vb);
    }
    {
        struct views v;

        views_at(la, end, 3, &v);
        ck_assert_ptr_nonnull(strstr(v.text, "you: p3 role=servant"));
        views_free(a.ctx, &v);
    }
    rpl_log_free(la);
    rpl_log_free(lb);
    game_free(&a);
    game_free(&b);
}
END_TEST

/* Every allocation of rpl_log_learn() may fail: RPL_E_NOMEM, no leak. */
START_TEST(test_learn_nomem)
{
    struct game g;
    struct rpl_delivery mine[256];
    struct rpl_log *full;
    size_t reveal, n, cut = 0;
    bool done = false;

    record(&g, false);
    full = whole(&g);
    reveal = find_line(full, "reveal ");
    rpl_log_free(full);
    for (size_t i = 0; i + 1 < reveal; i++)
        cut = (size_t)((const char *)memchr(g.text + cut, '\n', g.len - cut) -
                       g.text) +
              1;
    n = deliveries_of(g.deliv, g.ndeliv, 2, mine);
    for (long nth = 1; !done; nth++) {
        struct failing f = {nth, 0};
        const struct rpl_allocator a = failing_allocator(&f);
        struct rpl_ctx *ctx = NULL;
        struct rpl_log *log = NULL;
        struct rpl_report rep;
        struct rpl_error err;
        enum rpl_status rc;
        char *view = NULL;

        rc = rpl_ctx_new(&ctx, &a, &err);
        if (rc == RPL_OK)
            rc = rpl_log_parse(ctx, &log, g.text, cut, false, &err);
        if (rc == RPL_OK) {
            rc = rpl_log_verify(log, NULL, &rep);
            err = rep.error;
        }
        if (rc == RPL_OK)
            rc = rpl_log_learn(log, 2, mine, n, &err);
        if (rc == RPL_OK)
            rc = rpl_log_seek(log, rpl_log_lines(log), &err);
        if (rc == RPL_OK)
            rc = rpl_log_view(log, 2, &view, &err);
        if (rc == RPL_OK) {
            done = true;
            ck_assert_ptr_nonnull(strstr(view, "you: p2 role="));
            rpl_free(ctx, view);
        } else {
            ck_assert_msg(rc == RPL_E_NOMEM, "allocation %ld: %s", nth,
                          err.msg);
        }
        rpl_log_free(log);
        rpl_ctx_free(ctx);
        ck_assert_int_eq(f.live, 0);
    }
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
    tcase_add_test(tc, test_due_like_recorder);
    tcase_add_test(tc, test_sign_like_recorder);
    tcase_add_test(tc, test_sign_refusals);
    tcase_add_test(tc, test_sign_action);
    tcase_add_test(tc, test_entropy);
    tcase_add_test(tc, test_sign_vote_early);
    tcase_add_test(tc, test_learn_like_complete);
    tcase_add_test(tc, test_learn_refusals);
    tcase_add_test(tc, test_learn_hides_the_rest);
    tcase_add_test(tc, test_learn_nomem);
    suite_add_tcase(s, tc);
    return s;
}
