/*
 * test_log.c - the log layer: recording, verification verdicts and the
 * line each error names, tampering, limits, lenient text, resealing and
 * allocation failures.  Logs are made with the recorder and Avalon's
 * seeded players; a dealer who cheats is modelled by editing the text
 * and re-sealing it with the dealer's own key.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "entropy2.h"
#include "failalloc.h"
#include "games/game.h"
#include "log.h"
#include "suites.h"

static const char *const NAMES[] = {"Alice", "Bob",   "Carol", "Dave", "Erin",
                                    "Frank", "Grace", "Heidi", "Ivan", "Judy"};
static const char RULES7[] = "players=7 "
                             "roles=merlin,percival,servant,servant,assassin,"
                             "morgana,mordred lady=on targeting=off";

struct game_opts {
    const char *rules;
    size_t seats;
    bool entropy;
    bool sigs;
    bool reveal;
    uint8_t bot_seed;
};

/* The DESIGN.md test-vector id and S. */
static void
vector_id_secret(uint8_t id[16], uint8_t s[32])
{
    for (int i = 0; i < 16; i++)
        id[i] = (uint8_t)(i * 0x11);
    for (int i = 0; i < 32; i++)
        s[i] = (uint8_t)(i + 1);
}

/* A seven-seat Avalon game of RULES7 with the test-vector id and S (id
 * and s are filled), dealt by dealer. */
static void
avalon7_config(struct rpl_rec_config *cfg, const struct rpl_seckey *dealer,
               uint8_t id[16], uint8_t s[32])
{
    vector_id_secret(id, s);
    memset(cfg, 0, sizeof(*cfg));
    cfg->game = "avalon";
    cfg->rules = RULES7;
    cfg->seats = 7;
    cfg->names = NAMES;
    cfg->dealer = dealer;
    cfg->id = id;
    cfg->secret = s;
}

static struct rpl_seckey *
key_from(struct rpl_ctx *ctx, uint8_t tag)
{
    uint8_t seed[32];
    struct rpl_seckey *sk = NULL;

    memset(seed, tag, sizeof(seed));
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, NULL), RPL_OK);
    return sk;
}

/* Records a whole game with seeded random players; returns its text
 * (malloc'ed) and, with deliv, its deliveries (at most cap, *ndeliv of
 * them). */
static char *
record_deliv(struct rpl_ctx *ctx, const struct game_opts *o, size_t *len,
             struct rpl_delivery *deliv, size_t cap, size_t *ndeliv)
{
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_seckey *seat_sk[RPL_MAX_SEATS + 1] = {0};
    struct rpl_pubkey seat_pk[RPL_MAX_SEATS + 1];
    const struct rpl_pubkey *keys[RPL_MAX_SEATS] = {0};
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t id[16], s[32], bot[32];
    const char *text;
    char *copy;
    size_t turn;

    vector_id_secret(id, s);
    memset(bot, o->bot_seed, sizeof(bot));
    for (size_t k = 1; k <= o->seats; k++) {
        if (!o->sigs)
            break;
        seat_sk[k] = key_from(ctx, (uint8_t)k);
        rpl_seckey_pubkey(seat_sk[k], &seat_pk[k]);
        keys[k - 1] = &seat_pk[k];
    }
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "avalon";
    cfg.rules = o->rules;
    cfg.seats = o->seats;
    cfg.names = NAMES;
    cfg.seat_keys = keys;
    cfg.dealer = dealer;
    cfg.id = id;
    cfg.secret = s;
    cfg.created = "2026-11-29T11:32:18Z";
    ck_assert_msg(rpl_rec_new(ctx, &rec, &cfg, &err) == RPL_OK, "%s", err.msg);
    if (o->entropy) {
        uint8_t e[2][32];
        const size_t who[2] = {1, 3};
        struct rpl_seckey *sks[2] = {seat_sk[1], seat_sk[3]};

        memset(e[0], 0xaa, sizeof(e[0]));
        memset(e[1], 0xbb, sizeof(e[1]));
        two_rounds(rec, id, 2, who, (const uint8_t(*)[32])e, sks);
    }
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    while ((turn = rpl_rec_dealer_turn(rec)) != 0)
        ck_assert_msg(rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, seat_sk[turn],
                                  &err) == RPL_OK,
                      "line %zu: %s", err.line, err.msg);
    if (o->reveal)
        ck_assert_msg(rpl_rec_reveal(rec, &err) == RPL_OK, "%s", err.msg);
    else
        ck_assert_int_eq(rpl_rec_seal(rec, &err), RPL_OK);
    if (deliv) {
        *ndeliv = rpl_rec_deliveries(rec);
        ck_assert_uint_le(*ndeliv, cap);
        for (size_t i = 0; i < *ndeliv; i++)
            ck_assert_int_eq(rpl_rec_delivery(rec, i, &deliv[i], &err), RPL_OK);
    }
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    text = rpl_log_text(log, len);
    copy = malloc(*len + 1);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, text, *len + 1);
    rpl_log_free(log);
    rpl_rec_free(rec);
    for (size_t k = 0; k <= RPL_MAX_SEATS; k++)
        rpl_seckey_free(seat_sk[k]);
    rpl_seckey_free(dealer);
    return copy;
}

static char *
record(struct rpl_ctx *ctx, const struct game_opts *o, size_t *len)
{
    return record_deliv(ctx, o, len, NULL, 0, NULL);
}

static const struct game_opts VECTOR_GAME = {RULES7, 7, true, true, true, 1};
/* Without seat signatures: a dealer who rewrites history is caught by the
 * commitments alone (with them, the seats' sigs fail first). */
static const struct game_opts UNSIGNED_GAME = {RULES7, 7, true, false, true, 1};

static enum rpl_status
verify_text(struct rpl_ctx *ctx, const char *text, size_t len,
            const struct rpl_pubkey *pin, struct rpl_report *rep)
{
    struct rpl_log *log = NULL;
    struct rpl_verify_opts opts = {.pubkey = pin};
    struct rpl_error err;
    enum rpl_status rc;

    rc = rpl_log_parse(ctx, &log, text, len, false, &err);
    if (rc != RPL_OK) {
        memset(rep, 0, sizeof(*rep));
        rep->error = err;
        return rc;
    }
    rc = rpl_log_verify(log, &opts, rep);
    rpl_log_free(log);
    return rc;
}

static struct rpl_ctx *
new_ctx(void)
{
    struct rpl_ctx *ctx = NULL;

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    return ctx;
}

/* Line number (1-based) of the first line starting with prefix. */
static size_t
find_line(const char *text, const char *prefix)
{
    size_t no = 1;
    const size_t n = strlen(prefix);

    for (const char *p = text; *p; no++) {
        if (strncmp(p, prefix, n) == 0)
            return no;
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    return 0;
}

/* Replaces line no with repl; returns the new text (malloc'ed). */
static char *
replace_line(const char *text, size_t no, const char *repl, size_t *len)
{
    const char *p = text;
    const char *e;
    char *out;

    for (size_t i = 1; i < no; i++)
        p = strchr(p, '\n') + 1;
    e = strchr(p, '\n');
    out = malloc(strlen(text) + strlen(repl) + 2);
    ck_assert_ptr_nonnull(out);
    memcpy(out, text, (size_t)(p - text));
    strcpy(out + (p - text), repl);
    strcat(out, e);
    *len = strlen(out);
    return out;
}

/* The dealer rewrites the text and seals it again with its own key. */
static char *
reseal(struct rpl_ctx *ctx, const char *text, size_t *len)
{
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_log *log = NULL;
    struct rpl_error err;
    const char *t;
    char *out;

    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, *len, false, &err), RPL_OK);
    ck_assert_msg(rpl_log_reseal(log, dealer, &err) == RPL_OK, "%s", err.msg);
    t = rpl_log_text(log, len);
    out = malloc(*len + 1);
    memcpy(out, t, *len + 1);
    rpl_log_free(log);
    rpl_seckey_free(dealer);
    return out;
}

START_TEST(recorded_game_is_complete)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);

    ck_assert_msg(verify_text(ctx, text, len, NULL, &rep) == RPL_OK,
                  "line %zu: %s", rep.error.line, rep.error.msg);
    ck_assert_int_eq(rep.progress, RPL_PROGRESS_COMPLETE);
    ck_assert_uint_ge(rep.seals, 2);
    ck_assert_uint_gt(rep.sigs, 7);
    ck_assert_uint_ge(rep.commitments, 8);
    ck_assert_str_eq(rep.game, "avalon");
    ck_assert_str_eq(rep.id, "00112233445566778899aabbccddeeff");
    ck_assert(rep.winner[0] != '\0');
    ck_assert(!rep.is_key_pinned);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* Review: the marks of each line, and a seat's board that shows its
 * role only from the line that deals it. */
START_TEST(board_and_marks)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    size_t len = 0, turns = 0, quests = 0, ends = 0, deal = 0, header = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    char *board = NULL;

    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert_int_eq(rep.progress, RPL_PROGRESS_COMPLETE);
    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        size_t n = 0;
        const char *line = rpl_log_line(log, no, &n);
        unsigned m = 0;

        ck_assert_int_eq(rpl_log_mark(log, no, &m, NULL), RPL_OK);
        /* the header is a prefix that ends with the commit line */
        ck_assert(!(m & RPL_MARK_HEADER) || no == header + 1);
        if (m & RPL_MARK_HEADER)
            header = no;
        ck_assert_int_eq((m & RPL_MARK_DETAIL) != 0,
                         n > 5 && memcmp(line, "vote ", 5) == 0);
        if (m & RPL_MARK_TURN)
            ck_assert(n > 8 && memcmp(line, "propose ", 8) == 0);
        if (m & RPL_MARK_QUEST)
            ck_assert(n > 6 && memcmp(line, "quest ", 6) == 0);
        turns += (m & RPL_MARK_TURN) != 0;
        quests += (m & RPL_MARK_QUEST) != 0;
        ends += (m & RPL_MARK_END) != 0;
        if (n > 8 && memcmp(line, "deal p1 ", 8) == 0)
            deal = no;
    }
    ck_assert_uint_ge(turns, 3);
    ck_assert_uint_ge(quests, 3);
    ck_assert_uint_eq(ends, 1);
    ck_assert_uint_gt(deal, header);
    ck_assert_uint_gt(header, 5);
    ck_assert_int_eq(rpl_log_mark(log, 0, &(unsigned){0}, NULL), RPL_E_ARG);
    ck_assert_int_eq(rpl_log_seek(log, deal - 1, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_board(log, 1, &board, NULL), RPL_OK);
    ck_assert(strstr(board, "quest") && strstr(board, "fails needed"));
    ck_assert(!strstr(board, "you are"));
    rpl_free(ctx, board);
    ck_assert_int_eq(rpl_log_seek(log, deal, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_board(log, 1, &board, NULL), RPL_OK);
    ck_assert(strstr(board, "you are"));
    rpl_free(ctx, board);
    ck_assert_int_eq(rpl_log_board(log, 99, &board, NULL), RPL_E_ARG);
    rpl_log_free(log);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* camelog(5)'s format 2 test vector (EXAMPLES), as the recorder writes
 * it: the same id, S and values as format 1's vector (p1 32 x aa, p3
 * 32 x bb), now pledged, sealed and revealed; seed and commitments
 * computed independently with Python's hashlib. */
START_TEST(recorded_test_vectors)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    static const uint8_t seed[32] = {
        0xa9, 0x80, 0xd1, 0x87, 0xcf, 0x52, 0x67, 0xc2, 0xf8, 0xd3, 0x38,
        0x05, 0x99, 0x03, 0x70, 0x09, 0x64, 0xc0, 0x56, 0x57, 0xff, 0x73,
        0xac, 0x8f, 0x06, 0xb1, 0x55, 0xa3, 0x19, 0x41, 0x10, 0x28};

    ck_assert_msg(strstr(text, "\ncommit 04500d15bc88a106d38cb14f1d2f78d7cb63f"
                               "ec1ccbbe685da95141002075980\n"),
                  "commit");
    ck_assert(strstr(text, "\npledge p1 27def96522a4def66af505930eb851c71738"
                           "9af9c4a720e623159750e05619a4\n"));
    ck_assert(strstr(text, "\npledge p3 9de96767470485b5c416c33f22b3a6de75df"
                           "84dcf71e5c2d56788c433888a16a\n"));
    ck_assert(strstr(text, "\npledged p1,p3\nseal "));
    ck_assert(strstr(text, "\nstart leader=p6 lady=p5\n"));
    /* The padded views' commitments (camelog(5), "Padding"). */
    ck_assert(strstr(text, "\ndeal p1 250bbae36b91b910666444f15ca067cf8ea8cd9"
                           "109f1ec42a6a123b6772e5296\n"));
    ck_assert(strstr(text, "\ndeal p3 0b6f32177b195f4afdee20eb9b58392e17f65b1"
                           "a8dac438c320d64ad066c4caf\n"));
    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert_mem_eq(log->seed, seed, sizeof(seed));
    ck_assert_uint_eq(rep.pledged, 5u);
    ck_assert_uint_eq(rep.pledge_signed, 5u);
    ck_assert_uint_eq(rep.revealed, 5u);
    ck_assert_uint_eq(rep.reveal_signed, 5u);
    rpl_log_free(log);
    ck_assert(strstr(text, "\nreveal 0102030405060708090a0b0c0d0e0f1011121314"
                           "15161718191a1b1c1d1e1f20\n"));
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* Parse then print is the identity on canonical text. */
START_TEST(round_trip)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    size_t len = 0, len2 = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const char *again;

    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, NULL), RPL_OK);
    again = rpl_log_text(log, &len2);
    ck_assert_uint_eq(len, len2);
    ck_assert_mem_eq(text, again, len);
    rpl_log_free(log);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(pinned_key)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_seckey *other = key_from(ctx, 0xd1);
    struct rpl_pubkey pk;
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);

    rpl_seckey_pubkey(dealer, &pk);
    ck_assert_int_eq(verify_text(ctx, text, len, &pk, &rep), RPL_OK);
    ck_assert(rep.is_key_pinned);
    rpl_seckey_pubkey(other, &pk);
    ck_assert_int_eq(verify_text(ctx, text, len, &pk, &rep), RPL_E_KEY);
    ck_assert_uint_eq(rep.error.line, find_line(text, "dealer "));
    /* The message names both key ids, the expected one first. */
    {
        struct rpl_pubkey found;
        char want[80];
        uint64_t a = 0, b = 0;

        rpl_seckey_pubkey(dealer, &found);
        for (int i = 7; i >= 0; i--) {
            a = a << 8 | pk.id[i];
            b = b << 8 | found.id[i];
        }
        snprintf(want, sizeof(want),
                 "expected key id %" PRIX64 ", found key id %" PRIX64, a, b);
        ck_assert_msg(strstr(rep.error.msg, want), "%s", rep.error.msg);
    }
    rpl_seckey_free(dealer);
    rpl_seckey_free(other);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* A log cut anywhere after `commit` is a game in progress with W-tail;
 * cut inside the header, it is invalid at the first missing line. */
START_TEST(every_cut)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t commit = find_line(text, "commit ");
    size_t no = 0;

    for (size_t cut = 0; cut < len; cut++) {
        enum rpl_status rc;

        if (cut > 0 && text[cut - 1] != '\n')
            continue;
        no++; /* lines kept: no - 1 */
        rc = verify_text(ctx, text, cut, NULL, &rep);
        if (no - 1 < commit) {
            ck_assert_int_eq(rc, RPL_E_SYNTAX);
            ck_assert_uint_eq(rep.error.line, no);
            continue;
        }
        ck_assert_msg(rc == RPL_OK, "cut after line %zu: line %zu: %s", no - 1,
                      rep.error.line, rep.error.msg);
        ck_assert_int_ne(rep.progress, RPL_PROGRESS_COMPLETE);
        if (no - 1 < find_line(text, "end "))
            ck_assert_int_eq(rep.progress, RPL_PROGRESS_IN_PROGRESS);
    }
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* With a pinned key, every line must be under a seal: a log cut anywhere
 * after `commit` is valid only when its last line is a seal, and
 * otherwise invalid at the first line after the last seal (line 1 when
 * there is no seal at all), however well formed. */
START_TEST(pinned_key_needs_seals)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_pubkey pk;
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t commit = find_line(text, "commit ");
    size_t no = 0;
    size_t last_seal = 0;
    size_t tested = 0;

    rpl_seckey_pubkey(dealer, &pk);
    for (size_t cut = 0; cut < len; cut++) {
        enum rpl_status rc;

        if (cut > 0 && text[cut - 1] != '\n')
            continue;
        no++; /* lines kept: no - 1 */
        if (cut >= 94 && strncmp(text + cut - 94, "seal ", 5) == 0)
            last_seal = no - 1;
        if (no - 1 < commit)
            continue;
        rc = verify_text(ctx, text, cut, &pk, &rep);
        if (last_seal == no - 1) {
            ck_assert_msg(rc == RPL_OK, "cut after line %zu: %s", no - 1,
                          rep.error.msg);
            ck_assert_uint_eq(rep.unsealed_from, 0);
            continue;
        }
        tested++;
        ck_assert_msg(rc == RPL_E_SEAL, "cut after line %zu: %d", no - 1,
                      (int)rc);
        ck_assert_uint_eq(rep.error.line, last_seal + 1);
        ck_assert_uint_eq(rep.unsealed_from, last_seal + 1);
        ck_assert_msg(strstr(rep.error.msg, "not covered by a seal of the "
                                            "pinned dealer key"),
                      "%s", rep.error.msg);
        /* Unpinned, the same cut is a valid log with W-tail. */
        ck_assert_int_eq(verify_text(ctx, text, cut, NULL, &rep), RPL_OK);
    }
    ck_assert_uint_gt(tested, 50);
    rpl_seckey_free(dealer);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

static enum rpl_status
verify_require(struct rpl_ctx *ctx, const char *text, size_t len,
               enum rpl_progress require, struct rpl_report *rep)
{
    struct rpl_log *log = NULL;
    struct rpl_verify_opts opts = {.require = require};
    enum rpl_status rc;

    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, NULL), RPL_OK);
    rc = rpl_log_verify(log, &opts, rep);
    rpl_log_free(log);
    return rc;
}

/* opts.require: a log short of the progress asked is RPL_E_INCOMPLETE at
 * its number of lines plus one; at it or beyond, valid. */
START_TEST(require_progress)
{
    static const enum rpl_progress levels[] = {
        RPL_PROGRESS_IN_PROGRESS, RPL_PROGRESS_FINISHED, RPL_PROGRESS_COMPLETE};
    const struct game_opts finished_game = {RULES7, 7, true, false, false, 1};
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t lens[3] = {0};
    char *texts[3];

    texts[2] = record(ctx, &VECTOR_GAME, &lens[2]);
    texts[1] = record(ctx, &finished_game, &lens[1]);
    /* In progress: up to the first game line after `start`. */
    texts[0] = strdup(texts[2]);
    ck_assert_ptr_nonnull(texts[0]);
    lens[0] = (size_t)(strstr(texts[0], "\nstart") - texts[0]) + 1;
    for (size_t have = 0; have < 3; have++) {
        ck_assert_int_eq(verify_require(ctx, texts[have], lens[have],
                                        RPL_PROGRESS_IN_PROGRESS, &rep),
                         RPL_OK);
        ck_assert_int_eq(rep.progress, levels[have]);
        for (size_t want = 0; want < 3; want++) {
            const enum rpl_status rc = verify_require(
                ctx, texts[have], lens[have], levels[want], &rep);

            if (have >= want) {
                ck_assert_int_eq(rc, RPL_OK);
                continue;
            }
            ck_assert_int_eq(rc, RPL_E_INCOMPLETE);
            ck_assert_uint_eq(rep.error.line, rep.lines + 1);
            ck_assert_msg(strstr(rep.error.msg, " is required"), "%s",
                          rep.error.msg);
        }
    }
    for (size_t i = 0; i < 3; i++)
        free(texts[i]);
    rpl_ctx_free(ctx);
}
END_TEST

/* The report says where the seed came from: how many seats gave entropy
 * and how many of those lines are signed; none means the dealer alone. */
START_TEST(seed_provenance)
{
    const struct game_opts dealer_only = {RULES7, 7, false, true, true, 1};
    const struct {
        const struct game_opts *o;
        size_t entropy, signed_;
    } cases[] = {
        {&VECTOR_GAME, 2, 2},
        {&UNSIGNED_GAME, 2, 0},
        {&dealer_only, 0, 0},
    };
    struct rpl_ctx *ctx = new_ctx();

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct rpl_report rep;
        size_t len = 0;
        char *text = record(ctx, cases[i].o, &len);

        ck_assert_int_eq(verify_text(ctx, text, len, NULL, &rep), RPL_OK);
        ck_assert_uint_eq(rep.seats, 7);
        ck_assert_uint_eq(rep.entropy_seats, cases[i].entropy);
        ck_assert_uint_eq(rep.entropy_signed, cases[i].signed_);
        free(text);
    }
    rpl_ctx_free(ctx);
}
END_TEST

/* The last line must be a seal for a finished log: without it, in
 * progress with the W-tail warning naming the uncovered lines. */
START_TEST(missing_final_seal)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    size_t line = 0;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const char *w;
    char want[64];
    size_t n;

    /* Drop the final seal. */
    len -= 94;
    ck_assert_int_eq(strncmp(text + len, "seal ", 5), 0);
    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert_int_eq(rep.progress, RPL_PROGRESS_IN_PROGRESS);
    n = rpl_log_lines(log);
    w = rpl_log_warning(log, rep.warnings - 1, &line);
    ck_assert_ptr_nonnull(w);
    snprintf(want, sizeof(want), "W-tail: lines %zu-%zu", line, n);
    ck_assert_msg(strncmp(w, want, strlen(want)) == 0, "%s", w);
    rpl_log_free(log);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* A seal inside the reveal block (before the last open) is invalid. */
START_TEST(seal_in_reveal_block)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t open = find_line(text, "open ");
    char *bad;
    char *sealed;

    ck_assert_uint_gt(open, 0);
    bad = replace_line(text, open, "seal", &len);
    {
        struct rpl_log *log = NULL;
        const char *t;

        /* A lenient bare `seal` takes a placeholder, filled by reseal. */
        ck_assert_int_eq(rpl_log_parse(ctx, &log, bad, len, true, NULL),
                         RPL_OK);
        t = rpl_log_text(log, &len);
        sealed = malloc(len + 1);
        memcpy(sealed, t, len + 1);
        rpl_log_free(log);
    }
    free(bad);
    bad = reseal(ctx, sealed, &len);
    ck_assert_int_eq(verify_text(ctx, bad, len, NULL, &rep), RPL_E_SEAL);
    ck_assert_uint_eq(rep.error.line, open);
    free(bad);
    free(sealed);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* A seal by another key fails at the seal line. */
START_TEST(forged_seal)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t seal = find_line(text, "seal ");
    char last[100];
    char *bad;

    /* Another valid-looking signature: the final seal's bytes. */
    snprintf(last, sizeof(last), "%.93s", text + len - 94);
    bad = replace_line(text, seal, last, &len);
    ck_assert_int_eq(verify_text(ctx, bad, len, NULL, &rep), RPL_E_SEAL);
    ck_assert_uint_eq(rep.error.line, seal);
    free(bad);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* A sig by another seat than the author, and a second sig. */
START_TEST(sig_by_wrong_seat)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t sig = find_line(text, "sig p1 ");
    char line[200];
    char *bad;

    ck_assert_uint_gt(sig, 0);
    {
        const char *p = text;

        for (size_t i = 1; i < sig; i++)
            p = strchr(p, '\n') + 1;
        snprintf(line, sizeof(line), "%.*s", (int)(strchr(p, '\n') - p), p);
    }
    line[5] = '2';
    bad = replace_line(text, sig, line, &len);
    free(text);
    text = reseal(ctx, bad, &len);
    ck_assert_int_eq(verify_text(ctx, text, len, NULL, &rep), RPL_E_SIG);
    ck_assert_uint_eq(rep.error.line, sig);
    ck_assert(strstr(rep.error.msg, "p2"));
    free(bad);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* The dealer reveals another S than it committed to. */
START_TEST(secret_not_matching_commit)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t reveal = find_line(text, "reveal ");
    char *bad, *sealed;

    bad = replace_line(text, reveal,
                       "reveal 0102030405060708090a0b0c0d0e0f10111213141516"
                       "1718191a1b1c1d1e1f21",
                       &len);
    sealed = reseal(ctx, bad, &len);
    ck_assert_int_eq(verify_text(ctx, sealed, len, NULL, &rep), RPL_E_FAIRNESS);
    ck_assert_uint_eq(rep.error.line, reveal);
    free(bad);
    free(sealed);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* A deal whose commitment was altered is named at its deal line. */
START_TEST(altered_deal)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &UNSIGNED_GAME, &len);
    const size_t deal = find_line(text, "deal p4 ");
    char *bad, *sealed;

    /* p1's commitment on p4's line: a valid-looking but false claim. */
    bad = replace_line(text, deal,
                       "deal p4 b6e04a650d673663df887adc0e4e105febfcfeb5b5732"
                       "f2000f6f48da083acbe",
                       &len);
    sealed = reseal(ctx, bad, &len);
    ck_assert_int_eq(verify_text(ctx, sealed, len, NULL, &rep), RPL_E_FAIRNESS);
    ck_assert_uint_eq(rep.error.line, deal);
    free(bad);
    free(sealed);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* With seat signatures, the same rewrite breaks the first signature
 * made after the altered line: the dealer cannot change history the
 * seats signed. */
START_TEST(altered_history_breaks_sigs)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t deal = find_line(text, "deal p4 ");
    char *bad, *sealed;

    bad = replace_line(text, deal,
                       "deal p4 b6e04a650d673663df887adc0e4e105febfcfeb5b5732"
                       "f2000f6f48da083acbe",
                       &len);
    sealed = reseal(ctx, bad, &len);
    ck_assert_int_eq(verify_text(ctx, sealed, len, NULL, &rep), RPL_E_SIG);
    ck_assert_uint_gt(rep.error.line, deal);
    free(bad);
    free(sealed);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* An open whose value does not match its commitment. */
START_TEST(open_not_matching)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t open = find_line(text, "open ");
    char line[128];
    char *bad, *sealed, *p;

    {
        const char *q = text;

        for (size_t i = 1; i < open; i++)
            q = strchr(q, '\n') + 1;
        snprintf(line, sizeof(line), "%.*s", (int)(strchr(q, '\n') - q), q);
    }
    p = strrchr(line, ' ') + 1;
    strcpy(p, strcmp(p, "success") == 0 ? "fail" : "success");
    bad = replace_line(text, open, line, &len);
    sealed = reseal(ctx, bad, &len);
    ck_assert_int_eq(verify_text(ctx, sealed, len, NULL, &rep), RPL_E_FAIRNESS);
    ck_assert_uint_eq(rep.error.line, open);
    free(bad);
    free(sealed);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* Entropy after start, out of seat order, or twice. */
START_TEST(entropy_order)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    const struct game_opts o = {RULES7, 7, true, false, true, 1};
    char *text = record(ctx, &o, &len);
    const size_t e3 = find_line(text, "entropy p3 ");
    char *bad;

    bad = replace_line(text, e3,
                       "entropy p1 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
                       "bbbbbbbbbbbbbbbbbbbb",
                       &len);
    ck_assert_int_eq(verify_text(ctx, bad, len, NULL, &rep), RPL_E_RULES);
    ck_assert_uint_eq(rep.error.line, e3);
    free(bad);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* Ten seats give ten entropy lines; an eleventh is out of order and must
 * not be stored first: it would land past log->entropy, over nentropy and
 * the seed (one heap object, so no sanitizer sees it). */
START_TEST(entropy_eleventh_line)
{
    static const char rules10[] =
        "players=10 roles=merlin,percival,servant,servant,servant,servant,"
        "assassin,morgana,mordred,oberon lady=on targeting=off";
    static const char extra[] =
        "entropy p10 ffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
        "ffffffff\n";
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    uint8_t id[16], s[32], e[32];
    const uint8_t zero[32] = {0};
    const char *text;
    char *bad;
    size_t len = 0;

    vector_id_secret(id, s);
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "avalon";
    cfg.rules = rules10;
    cfg.seats = 10;
    cfg.names = NAMES;
    cfg.dealer = dealer;
    cfg.id = id;
    cfg.secret = s;
    ck_assert_msg(rpl_rec_new(ctx, &rec, &cfg, &err) == RPL_OK, "%s", err.msg);
    {
        uint8_t v[10][32];
        size_t who[10];
        struct rpl_seckey *sks[10] = {0};

        for (size_t k = 1; k <= 10; k++) {
            memset(v[k - 1], (int)k, sizeof(v[0]));
            who[k - 1] = k;
        }
        (void)e;
        two_rounds(rec, id, 10, who, (const uint8_t(*)[32])v, sks);
    }
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    text = rpl_log_text(log, &len);
    bad = malloc(len + sizeof(extra));
    ck_assert_ptr_nonnull(bad);
    memcpy(bad, text, len);
    memcpy(bad + len, extra, sizeof(extra));
    rpl_log_free(log);
    log = NULL;
    ck_assert_int_eq(rpl_log_parse(ctx, &log, bad, strlen(bad), false, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_E_RULES);
    ck_assert_uint_eq(rep.error.line, rpl_log_lines(log));
    ck_assert_uint_eq((unsigned)__builtin_popcount(log->revealed), 10);
    ck_assert_mem_eq(log->seed, zero, sizeof(zero));
    rpl_log_free(log);
    free(bad);
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}
END_TEST

/* A text log where a .camelog file is expected: named as plain text, and
 * camelog pack suggested, instead of a bare gzip header error. */
START_TEST(plain_text_not_gzip)
{
    static const char text[] = "camelog 1\ngame avalon\n";
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_error err;

    ck_assert_int_eq(rpl_log_read_mem(ctx, &log, text, strlen(text), &err),
                     RPL_E_GZIP);
    ck_assert_ptr_null(log);
    ck_assert_uint_eq(err.line, 0);
    ck_assert_msg(strstr(err.msg, "plain text") &&
                      strstr(err.msg, "camelog pack"),
                  "%s", err.msg);
    /* Binary garbage is still a gzip fault of its own kind. */
    ck_assert_int_eq(rpl_log_read_mem(ctx, &log, "\x01\x02\x03", 3, &err),
                     RPL_E_GZIP);
    ck_assert_ptr_null(strstr(err.msg, "plain text"));
    rpl_ctx_free(ctx);
}
END_TEST

/* Lines after the header: each header line missing in turn is named. */
START_TEST(header_order)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const size_t dealer = find_line(text, "dealer ");
    const size_t seat2 = find_line(text, "seat p2 ");
    char *bad;

    bad = replace_line(text, seat2, "seat p2 \"Alice\"", &len);
    ck_assert_int_eq(verify_text(ctx, bad, len, NULL, &rep), RPL_E_SYNTAX);
    ck_assert_uint_eq(rep.error.line, seat2);
    free(bad);
    bad = replace_line(text, dealer, "dealer RWQ", &len);
    ck_assert_int_eq(verify_text(ctx, bad, len, NULL, &rep), RPL_E_KEY);
    ck_assert_uint_eq(rep.error.line, dealer);
    free(bad);
    bad = replace_line(text, 1, "camelog 3", &len);
    ck_assert_int_eq(verify_text(ctx, bad, len, NULL, &rep), RPL_E_UNSUPPORTED);
    ck_assert_uint_eq(rep.error.line, 1);
    ck_assert_str_eq(rep.error.msg, "format version 3 is not supported "
                                    "(expected 1 or 2)");
    free(bad);
    bad = replace_line(text, 2, "game chess", &len);
    ck_assert_int_eq(verify_text(ctx, bad, len, NULL, &rep), RPL_E_UNSUPPORTED);
    ck_assert_uint_eq(rep.error.line, 2);
    free(bad);
    bad = replace_line(text, 4, "created 2026-02-30T11:32:18Z", &len);
    ck_assert_int_eq(verify_text(ctx, bad, len, NULL, &rep), RPL_E_SYNTAX);
    ck_assert_uint_eq(rep.error.line, 4);
    free(bad);
    /* No LF at the end: named at the last line. */
    {
        size_t lines = 0;

        for (size_t i = 0; i < len; i++)
            lines += text[i] == '\n';
        ck_assert_int_eq(verify_text(ctx, text, len - 1, NULL, &rep),
                         RPL_E_SYNTAX);
        ck_assert_uint_eq(rep.error.line, lines);
    }
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* Limits of limits.h at their value and one past. */
START_TEST(limits)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_error err;
    char *big = malloc(RPL_MAX_TEXT + 2);
    size_t n;

    ck_assert_ptr_nonnull(big);
    /* RPL_MAX_LINES lines, then one more. */
    for (n = 0; n < 2 * RPL_MAX_LINES; n += 2) {
        big[n] = 'x';
        big[n + 1] = '\n';
    }
    ck_assert_int_eq(rpl_log_parse(ctx, &log, big, n, false, &err), RPL_OK);
    ck_assert_uint_eq(rpl_log_lines(log), RPL_MAX_LINES);
    rpl_log_free(log);
    big[n] = 'x';
    big[n + 1] = '\n';
    ck_assert_int_eq(rpl_log_parse(ctx, &log, big, n + 2, false, &err),
                     RPL_E_LIMIT);
    ck_assert_uint_eq(err.line, 0);
    ck_assert(strstr(err.msg, "RPL_MAX_LINES"));
    /* A line of RPL_MAX_LINE bytes, then one more. */
    memset(big, 'x', RPL_MAX_LINE);
    big[RPL_MAX_LINE] = '\n';
    ck_assert_int_eq(
        rpl_log_parse(ctx, &log, big, RPL_MAX_LINE + 1, false, &err), RPL_OK);
    rpl_log_free(log);
    memset(big, 'x', RPL_MAX_LINE + 1);
    big[RPL_MAX_LINE + 1] = '\n';
    ck_assert_int_eq(
        rpl_log_parse(ctx, &log, big, RPL_MAX_LINE + 2, false, &err),
        RPL_E_LIMIT);
    ck_assert(strstr(err.msg, "RPL_MAX_LINE"));
    ck_assert(strstr(err.msg, "line 1 "));
    /* The line count comes first: a long second line, then too many. */
    big[0] = 'x';
    big[1] = '\n';
    memset(big + 2, 'x', RPL_MAX_LINE + 1);
    n = RPL_MAX_LINE + 4;
    big[n - 1] = '\n';
    for (size_t k = 2; k <= RPL_MAX_LINES; k++) {
        big[n++] = 'x';
        big[n++] = '\n';
    }
    ck_assert_int_eq(rpl_log_parse(ctx, &log, big, n, false, &err),
                     RPL_E_LIMIT);
    ck_assert(strstr(err.msg, "RPL_MAX_LINES"));
    ck_assert_int_eq(rpl_log_parse(ctx, &log, big, n - 2, false, &err),
                     RPL_E_LIMIT);
    ck_assert_str_eq(err.msg,
                     "line 2 is longer than 4096 bytes (RPL_MAX_LINE)");
    /* RPL_MAX_TEXT bytes, then one more. */
    for (n = 0; n < RPL_MAX_TEXT; n++)
        big[n] = (n % 4000 == 3999) ? '\n' : 'x';
    big[RPL_MAX_TEXT - 1] = '\n';
    ck_assert_int_eq(rpl_log_parse(ctx, &log, big, RPL_MAX_TEXT, false, &err),
                     RPL_OK);
    rpl_log_free(log);
    big[RPL_MAX_TEXT] = '\n';
    ck_assert_int_eq(
        rpl_log_parse(ctx, &log, big, RPL_MAX_TEXT + 1, false, &err),
        RPL_E_LIMIT);
    ck_assert(strstr(err.msg, "RPL_MAX_TEXT"));
    free(big);
    rpl_ctx_free(ctx);
}
END_TEST

/* The recorder writes format 2; a log whose first line says 1 reads as
 * version 1, and both versions are told apart by the API and the report. */
START_TEST(format_version)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    size_t len = 0;
    /* Unsigned: the seats' signatures would not survive the edit; no
     * entropy: format 1 has no pledges. */
    static const struct game_opts plain = {RULES7, 7, false, false, true, 1};
    char *text = record(ctx, &plain, &len);
    char *v1;

    ck_assert(strncmp(text, "camelog 2\n", 10) == 0);
    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, &err), RPL_OK);
    ck_assert_uint_eq(rpl_log_version(log), 0);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert_uint_eq(rpl_log_version(log), RPL_FORMAT_VERSION);
    ck_assert_uint_eq(rep.version, 2);
    rpl_log_free(log);
    v1 = replace_line(text, 1, "camelog 1", &len);
    free(text);
    text = reseal(ctx, v1, &len);
    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, &err), RPL_OK);
    /* Read by the rules of version 1, the padded commitments of version
     * 2 no longer hold: the first deal line is at fault. */
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_E_FAIRNESS);
    ck_assert_uint_eq(rpl_log_version(log), 1);
    ck_assert_uint_eq(rep.version, 1);
    {
        size_t n = 0;
        const char *at = rpl_log_line(log, rep.error.line, &n);

        ck_assert(at && n > 6 && strncmp(at, "deal p", 6) == 0);
    }
    rpl_log_free(log);
    /* A first line that fails leaves the version 0. */
    free(v1);
    v1 = replace_line(text, 1, "camelog 3", &len);
    ck_assert_int_eq(rpl_log_parse(ctx, &log, v1, len, false, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_E_UNSUPPORTED);
    ck_assert_uint_eq(rpl_log_version(log), 0);
    ck_assert_uint_eq(rep.version, 0);
    rpl_log_free(log);
    free(v1);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* Empty text (found by the fuzzer: it leaked) is a file that ends
 * before its first line. */
START_TEST(empty_text)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;

    ck_assert_int_eq(verify_text(ctx, "", 0, NULL, &rep), RPL_E_SYNTAX);
    ck_assert_uint_eq(rep.error.line, 1);
    ck_assert(strstr(rep.error.msg, "camelog 2"));
    rpl_ctx_free(ctx);
}
END_TEST

/* Lenient text becomes the canonical text. */
START_TEST(lenient)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    const char *in = "# a hand-written log\r\n"
                     "camelog   1\r\n"
                     "\n"
                     "  game\tavalon  \n"
                     "id 00112233445566778899AABBCCDDEEFF\n"
                     "seat p1 \"Mary  Ann\"";
    const char *want = "camelog 1\ngame avalon\n"
                       "id 00112233445566778899aabbccddeeff\n"
                       "seat p1 \"Mary  Ann\"\n";
    const char *out;
    size_t len = 0;

    ck_assert_int_eq(rpl_log_parse(ctx, &log, in, strlen(in), true, NULL),
                     RPL_OK);
    out = rpl_log_text(log, &len);
    ck_assert_str_eq(out, want);
    rpl_log_free(log);
    rpl_ctx_free(ctx);
}
END_TEST

/* Write and read back through gzip; the file is byte-identical text. */
START_TEST(write_read)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL, *back = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    char dir[] = "/tmp/camelog-test-XXXXXX";
    char path[64];
    size_t len = 0, len2 = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    const char *t;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/g.camelog", dir);
    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_write(log, path, false, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_write(log, path, false, &err), RPL_E_EXISTS);
    ck_assert_int_eq(rpl_log_write(log, path, true, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_read(ctx, &back, path, &err), RPL_OK);
    t = rpl_log_text(back, &len2);
    ck_assert_uint_eq(len, len2);
    ck_assert_mem_eq(t, text, len);
    ck_assert_int_eq(rpl_log_verify(back, NULL, &rep), RPL_OK);
    ck_assert_int_eq(rep.progress, RPL_PROGRESS_COMPLETE);
    rpl_log_free(back);
    rpl_log_free(log);
    unlink(path);
    rmdir(dir);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* Every single-byte change of the compressed file is rejected, or
 * leaves the text identical (gzip header fields the format ignores:
 * MTIME, XFL, OS); every truncation is rejected. */
START_TEST(tamper_compressed)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_error err;
    const struct game_opts o = {"players=5 roles=merlin,servant,servant,"
                                "assassin,minion lady=off targeting=off",
                                5,
                                false,
                                false,
                                true,
                                3};
    size_t len = 0;
    char *text = record(ctx, &o, &len);
    uint8_t *gz = NULL;
    size_t gz_len = 0;
    char dir[] = "/tmp/camelog-tamper-XXXXXX";
    char path[64];
    size_t rejected = 0, same = 0, redundant = 0;

    ck_assert_int_eq(rpl__gz_deflate(ctx, text, len, &gz, &gz_len, &err),
                     RPL_OK);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/t.camelog", dir);
    for (size_t i = 0; i <= gz_len; i++) {
        for (int flip = 0; flip < 2; flip++) {
            struct rpl_log *log = NULL;
            struct rpl_report rep;
            const uint8_t mask = flip ? 0xff : 0x01;
            const size_t n = i == gz_len ? (flip ? 0 : gz_len - 1) : gz_len;
            FILE *f;

            if (i < gz_len)
                gz[i] ^= mask;
            f = fopen(path, "wb");
            ck_assert_ptr_nonnull(f);
            ck_assert_uint_eq(fwrite(gz, 1, n, f), n);
            fclose(f);
            if (rpl_log_read(ctx, &log, path, &err) != RPL_OK) {
                ck_assert(rpl_status_is_invalid_input(err.code) ||
                          err.code == RPL_E_IO);
                rejected++;
            } else if (rpl_log_verify(log, NULL, &rep) != RPL_OK) {
                rejected++;
            } else {
                size_t tl = 0;
                const char *t = rpl_log_text(log, &tl);

                ck_assert_msg(tl == len && memcmp(t, text, len) == 0,
                              "byte %zu changed the text and was accepted", i);
                /* FTEXT (bit 0 of FLG), MTIME, XFL and OS carry no
                 * content.  Inside the deflate stream a change can also
                 * leave the text whole (a code length of a symbol the
                 * data never uses, in a dynamic block's header): rare,
                 * and harmless, since the seals cover the text. */
                if (!((i >= 4 && i <= 9) || (i == 3 && mask == 1)))
                    redundant++;
                same++;
            }
            rpl_log_free(log);
            if (i < gz_len)
                gz[i] ^= mask;
        }
    }
    /* Truncations: every shorter prefix. */
    for (size_t n = 0; n < gz_len; n++) {
        struct rpl_log *log = NULL;
        FILE *f = fopen(path, "wb");

        ck_assert_uint_eq(fwrite(gz, 1, n, f), n);
        fclose(f);
        ck_assert_msg(rpl_log_read(ctx, &log, path, &err) != RPL_OK,
                      "prefix of %zu bytes accepted", n);
    }
    ck_assert_uint_gt(rejected + redundant, 2 * (gz_len - 6));
    ck_assert_uint_le(redundant, 2);
    unlink(path);
    rmdir(dir);
    rpl_free(ctx, gz);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* Each allocation of reading, verifying and replaying fails in turn: the
 * call reports RPL_E_NOMEM and nothing leaks. */
START_TEST(allocation_failures)
{
    struct rpl_ctx *plain = new_ctx();
    size_t len = 0;
    char *text = record(plain, &VECTOR_GAME, &len);
    bool done = false;

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
            rc = rpl_log_parse(ctx, &log, text, len, false, &err);
        if (rc == RPL_OK) {
            rc = rpl_log_verify(log, NULL, &rep);
            err = rep.error;
        }
        if (rc == RPL_OK)
            rc = rpl_log_seek(log, rpl_log_lines(log), &err);
        if (rc == RPL_OK)
            rc = rpl_log_view(log, 1, &view, &err);
        if (rc == RPL_OK) {
            done = true;
            rpl_free(ctx, view);
        } else {
            ck_assert_msg(rc == RPL_E_NOMEM, "allocation %ld: %s", nth,
                          err.msg);
        }
        rpl_log_free(log);
        rpl_ctx_free(ctx);
        ck_assert_int_eq(f.live, 0);
    }
    free(text);
    rpl_ctx_free(plain);
}
END_TEST

/* Replay: seeking back and forth gives the same digest. */
START_TEST(seek_digest)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    size_t len = 0;
    char *text = record(ctx, &VECTOR_GAME, &len);
    uint8_t a[32], b[32];
    size_t n;

    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    n = rpl_log_lines(log);
    ck_assert_int_eq(rpl_log_seek(log, n / 2, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_digest(log, a, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_seek(log, n, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_digest(log, b, NULL), RPL_OK);
    ck_assert(memcmp(a, b, 32) != 0);
    ck_assert_int_eq(rpl_log_seek(log, n / 2, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_digest(log, b, NULL), RPL_OK);
    ck_assert_mem_eq(a, b, 32);
    ck_assert_uint_eq(rpl_log_tell(log), n / 2);
    rpl_log_free(log);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* An imported game: the deal comes from the record and is opened in the
 * reveal; everything else is checked as for any game. */
static char *
record_imported(struct rpl_ctx *ctx, size_t *len)
{
    static const char *const deal[] = {"servant", "assassin", "merlin",
                                       "minion", "servant"};
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t bot[32] = {7};
    const char *text;
    char *copy;

    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "avalon";
    cfg.rules = "players=5 roles=merlin,servant,servant,assassin,minion "
                "lady=off targeting=off";
    cfg.seats = 5;
    cfg.names = NAMES;
    cfg.dealer = dealer;
    cfg.import_source = "example.org";
    cfg.import_id = "game-42";
    cfg.deal = deal;
    cfg.first = 4;
    ck_assert_msg(rpl_rec_new(ctx, &rec, &cfg, &err) == RPL_OK, "%s", err.msg);
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    while (rpl_rec_dealer_turn(rec) != 0)
        ck_assert_msg(rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, NULL, &err) ==
                          RPL_OK,
                      "%s", err.msg);
    ck_assert_msg(rpl_rec_reveal(rec, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    text = rpl_log_text(log, len);
    copy = strdup(text);
    rpl_log_free(log);
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    return copy;
}

START_TEST(imported_game)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    size_t len = 0;
    char *text = record_imported(ctx, &len);
    char *view = NULL;

    ck_assert(strstr(text, "\nimport example.org game-42\n"));
    ck_assert(strstr(text, "\nstart leader=p4\n"));
    ck_assert(strstr(text, "\nopen role p3 merlin\n"));
    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, NULL), RPL_OK);
    ck_assert_msg(rpl_log_verify(log, NULL, &rep) == RPL_OK, "line %zu: %s",
                  rep.error.line, rep.error.msg);
    ck_assert(rep.is_imported);
    ck_assert_int_eq(rep.progress, RPL_PROGRESS_COMPLETE);
    ck_assert_int_eq(rpl_log_seek(log, rpl_log_lines(log), NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_view(log, RPL_VIEW_ALL, &view, NULL), RPL_OK);
    ck_assert(strstr(view, "merlin"));
    rpl_free(ctx, view);
    rpl_log_free(log);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* An opened role that disagrees with its deal commitment is named at
 * the deal line; roles that are not the rules' roles at the last open. */
START_TEST(imported_wrong_role)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_report rep;
    size_t len = 0;
    char *text = record_imported(ctx, &len);
    const size_t o1 = find_line(text, "open role p1 ");
    const size_t o3 = find_line(text, "open role p3 ");
    char *bad, *sealed, *swapped;

    /* Swap two servants' roles with Merlin's: same multiset. */
    bad = replace_line(text, o1, "open role p1 merlin", &len);
    swapped = replace_line(bad, o3, "open role p3 servant", &len);
    sealed = reseal(ctx, swapped, &len);
    ck_assert_int_eq(verify_text(ctx, sealed, len, NULL, &rep), RPL_E_FAIRNESS);
    ck_assert_uint_eq(rep.error.line, find_line(text, "deal p1 "));
    free(bad);
    free(swapped);
    free(sealed);
    bad = replace_line(text, o1, "open role p1 oberon", &len);
    sealed = reseal(ctx, bad, &len);
    ck_assert_int_eq(verify_text(ctx, sealed, len, NULL, &rep), RPL_E_RULES);
    ck_assert_uint_eq(rep.error.line, find_line(text, "open role p5 "));
    free(bad);
    free(sealed);
    free(text);
    rpl_ctx_free(ctx);
}
END_TEST

/* A game without an importer takes no imported deal: the recorder
 * refuses the configuration, as unsupported, before anything is made. */
START_TEST(imported_without_importer)
{
    static const char *const names[] = {"Ann", "Bo", "Cy"};
    static const char *const deal[] = {"loyal", "loyal", "traitor"};
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = key_from(ctx, 0xd1);
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_error err;

    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "soc";
    cfg.rules = "players=3 traitor=on brave=on";
    cfg.seats = 3;
    cfg.names = names;
    cfg.dealer = dealer;
    cfg.import_source = "example.org";
    cfg.import_id = "game-43";
    cfg.deal = deal;
    cfg.first = 1;
    ck_assert_int_eq(rpl_rec_new(ctx, &rec, &cfg, &err), RPL_E_UNSUPPORTED);
    ck_assert_ptr_null(rec);
    ck_assert_msg(strstr(err.msg, "imports no records"), "%s", err.msg);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}
END_TEST

/* The log layer's keywords: one table, camelog(5)'s header keywords then
 * the body's own; everything else is a game's. */
/* Line no as viewer sees it after the walk, against rpl_log_seek() and
 * the calls that ask each text (what camelog export and the review page
 * did before the one pass). */
static void
check_line_view(struct rpl_ctx *ctx, struct rpl_log *a, struct rpl_log *b,
                size_t no, int viewer, const char *what)
{
    struct rpl_line_view lv;
    char *events = NULL, *view = NULL, *told = NULL;
    const enum rpl_status st = rpl_log_view_json(b, viewer, &view, NULL);

    if (st != RPL_OK) {
        ck_assert_int_ne(rpl_log_line_view(a, no, viewer, &lv, NULL), RPL_OK);
        return;
    }
    ck_assert_msg(rpl_log_line_view(a, no, viewer, &lv, NULL) == RPL_OK,
                  "%s: line %zu: no view of %d", what, no, viewer);
    ck_assert_int_eq(rpl_log_events_json(b, no, &events, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_describe(b, no, viewer, &told, NULL), RPL_OK);
    ck_assert_msg(strcmp(lv.events, events) == 0, "%s: line %zu: events", what,
                  no);
    ck_assert_msg(strcmp(lv.view, view) == 0, "%s: line %zu: view of %d", what,
                  no, viewer);
    ck_assert_msg(!lv.describe == !told &&
                      (!told || strcmp(lv.describe, told) == 0),
                  "%s: line %zu: told to %d", what, no, viewer);
    rpl_free(ctx, events);
    rpl_free(ctx, view);
    rpl_free(ctx, told);
}

static void
check_line_views(struct rpl_ctx *ctx, struct rpl_log *a, struct rpl_log *b,
                 size_t no, int viewer, const char *what)
{
    ck_assert_int_eq(rpl_log_seek(b, no, NULL), RPL_OK);
    check_line_view(ctx, a, b, no, RPL_VIEW_PUBLIC, what);
    check_line_view(ctx, a, b, no, RPL_VIEW_ALL, what);
    if (viewer > 0)
        check_line_view(ctx, a, b, no, viewer, what);
}

/* The end of a check of a walked log a against b: a walk that failed
 * kept no views.  Frees both; returns sa. */
static enum rpl_status
checked(struct rpl_log *a, struct rpl_log *b, enum rpl_status sa)
{
    if (sa != RPL_OK)
        ck_assert_int_eq(rpl_log_line_view(a, 1, RPL_VIEW_PUBLIC,
                                           &(struct rpl_line_view){0}, NULL),
                         RPL_E_STATE);
    rpl_log_free(a);
    rpl_log_free(b);
    return sa;
}

/* rpl_log_verify_walk() of text against rpl_log_verify() and a replay
 * by rpl_log_seek() and rpl_log_coverage(): the same status, report and
 * error, the same views of every line and the same coverage.  Returns the
 * status. */
static enum rpl_status
check_views(struct rpl_ctx *ctx, const char *text, size_t len, int viewer,
            const char *what)
{
    struct rpl_log *a = NULL, *b = NULL;
    struct rpl_report ra, rb;
    enum rpl_status sa, sb;

    ck_assert_int_eq(rpl_log_parse(ctx, &a, text, len, false, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_parse(ctx, &b, text, len, false, NULL), RPL_OK);
    uint64_t bits_a[RPL_COVERAGE_WORDS], bits_b[RPL_COVERAGE_WORDS];
    const struct rpl_walk_opts walk = {
        .views = true,
        .seats = viewer > 0 ? 1u << (viewer - 1) : 0,
        .describe = true,
        .bits = bits_a,
    };

    sa = rpl_log_verify_walk(a, NULL, &walk, &ra);
    sb = rpl_log_verify(b, NULL, &rb);
    ck_assert_msg(sa == sb, "%s: verify_walk %d, verify %d (%s)", what, (int)sa,
                  (int)sb, sa != RPL_OK ? ra.error.msg : rb.error.msg);
    ck_assert_int_eq(ra.progress, rb.progress);
    ck_assert_uint_eq(ra.error.line, rb.error.line);
    ck_assert_str_eq(ra.error.msg, rb.error.msg);
    ck_assert_msg(ra.commitments == rb.commitments,
                  "%s: %zu commitments, not %zu", what, (size_t)ra.commitments,
                  (size_t)rb.commitments);
    if (sa == RPL_OK) {
        struct rpl_log *c = NULL;
        uint64_t bits_c[RPL_COVERAGE_WORDS];
        const struct rpl_walk_opts cover = {.bits = bits_c};

        ck_assert_int_eq(rpl_log_coverage(b, bits_b, NULL), RPL_OK);
        ck_assert_msg(memcmp(bits_a, bits_b, sizeof(bits_a)) == 0,
                      "%s: coverage", what);
        /* The coverage alone, without views. */
        ck_assert_int_eq(rpl_log_parse(ctx, &c, text, len, false, NULL),
                         RPL_OK);
        ck_assert_int_eq(rpl_log_verify_walk(c, NULL, &cover, &ra), RPL_OK);
        ck_assert_msg(memcmp(bits_c, bits_b, sizeof(bits_c)) == 0,
                      "%s: coverage without views", what);
        ck_assert_int_eq(rpl_log_line_view(c, 1, RPL_VIEW_PUBLIC,
                                           &(struct rpl_line_view){0}, NULL),
                         RPL_E_STATE);
        rpl_log_free(c);
    }
    if (sa == RPL_OK) {
        /* The walk leaves the replay where rpl_log_seek() would. */
        uint8_t da[32], db[32];

        ck_assert_int_eq(rpl_log_seek(b, rpl_log_lines(b), NULL), RPL_OK);
        ck_assert_int_eq(rpl_log_digest(b, db, NULL), RPL_OK);
        ck_assert_int_eq(rpl_log_seek(a, rpl_log_lines(a), NULL), RPL_OK);
        ck_assert_int_eq(rpl_log_digest(a, da, NULL), RPL_OK);
        ck_assert_msg(memcmp(da, db, 32) == 0, "%s: the state at the end",
                      what);
    }
    if (sa == RPL_OK) {
        /* The descriptions and marks alone, without views: the marks are
         * those rpl_log_mark() finds by replaying, and each line is told
         * as with the views. */
        struct rpl_log *d = NULL;
        const struct rpl_walk_opts told = {
            .describe = true,
            .marks = true,
            .seats = walk.seats,
        };

        ck_assert_int_eq(rpl_log_parse(ctx, &d, text, len, false, NULL),
                         RPL_OK);
        ck_assert_int_eq(rpl_log_verify_walk(d, NULL, &told, &ra), RPL_OK);
        for (size_t no = 1; no <= rpl_log_lines(b); no++) {
            unsigned md = 0, mb = 0;
            struct rpl_line_view ld, la;

            ck_assert_int_eq(rpl_log_mark(b, no, &mb, NULL), RPL_OK);
            ck_assert_int_eq(rpl_log_mark(d, no, &md, NULL), RPL_OK);
            ck_assert_msg(md == mb, "%s: line %zu: marks %u, not %u", what, no,
                          md, mb);
            ck_assert_int_eq(
                rpl_log_line_view(d, no, RPL_VIEW_PUBLIC, &ld, NULL), RPL_OK);
            ck_assert_int_eq(
                rpl_log_line_view(a, no, RPL_VIEW_PUBLIC, &la, NULL), RPL_OK);
            ck_assert(!ld.events && !ld.view);
            ck_assert_msg(
                !ld.describe == !la.describe &&
                    (!ld.describe || strcmp(ld.describe, la.describe) == 0),
                "%s: line %zu: told without views", what, no);
        }
        {
            /* A seat's views alone (walk->skip): the public's and the
             * omniscient one left out, the seat's and every text kept. */
            struct rpl_log *e = NULL;
            const struct rpl_walk_opts own = {
                .views = true,
                .skip = RPL_WALK_NO_PUBLIC | RPL_WALK_NO_ALL,
                .describe = true,
                .seats = walk.seats,
            };

            ck_assert_int_eq(rpl_log_parse(ctx, &e, text, len, false, NULL),
                             RPL_OK);
            ck_assert_int_eq(rpl_log_verify_walk(e, NULL, &own, &ra), RPL_OK);
            for (size_t no = 1; no <= rpl_log_lines(b); no++) {
                struct rpl_line_view le, la;

                ck_assert_int_eq(
                    rpl_log_line_view(e, no, RPL_VIEW_PUBLIC, &le, NULL),
                    RPL_OK);
                ck_assert_int_eq(
                    rpl_log_line_view(a, no, RPL_VIEW_PUBLIC, &la, NULL),
                    RPL_OK);
                ck_assert(!le.view && strcmp(le.events, la.events) == 0);
                ck_assert(!le.describe == !la.describe);
                if (viewer > 0 && (size_t)viewer <= rpl_log_seats(b)) {
                    ck_assert_int_eq(
                        rpl_log_line_view(e, no, viewer, &le, NULL), RPL_OK);
                    ck_assert_int_eq(
                        rpl_log_line_view(a, no, viewer, &la, NULL), RPL_OK);
                    ck_assert_msg(strcmp(le.view, la.view) == 0,
                                  "%s: line %zu: the seat's view alone", what,
                                  no);
                }
            }
            rpl_log_free(e);
        }
        {
            /* Without views too, the replay is left after the last line. */
            uint8_t dd[32], db[32];

            ck_assert_int_eq(rpl_log_seek(b, rpl_log_lines(b), NULL), RPL_OK);
            ck_assert_int_eq(rpl_log_digest(b, db, NULL), RPL_OK);
            ck_assert_int_eq(rpl_log_seek(d, rpl_log_lines(d), NULL), RPL_OK);
            ck_assert_int_eq(rpl_log_digest(d, dd, NULL), RPL_OK);
            ck_assert_msg(memcmp(dd, db, 32) == 0,
                          "%s: the state at the end, without views", what);
        }
        rpl_log_free(d);
    }
    if (sa == RPL_OK && (viewer <= 0 || (size_t)viewer <= rpl_log_seats(b)))
        for (size_t no = 1; no <= rpl_log_lines(b); no++)
            check_line_views(ctx, a, b, no, viewer, what);
    return checked(a, b, sa);
}

/* The first len bytes of text's first n lines. */
static size_t
prefix_len(const char *text, size_t n)
{
    const char *p = text;

    for (size_t i = 0; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return p ? (size_t)(p - text) : strlen(text);
}

/* Every sample, cut at a spread of lines (a game in progress, finished,
 * revealed without its last seal, complete), as seat 2 and as the
 * public: the views of the one pass are those of a replay; and every
 * sample with an `open` line of another seat or kind, or a line left
 * out, sealed again by its dealer: refused as rpl_log_verify() refuses
 * it.  An imported game takes the second walk. */
START_TEST(views_one_pass)
{
    static const char *const files[] = {
        "samples/avalon-5.camelog",
        "samples/avalon-7.camelog",
        "samples/avalon-signed.camelog",
        "samples/avalon-in-progress.camelog",
        "samples/soc-3.camelog",
        "samples/soc-flip.camelog",
        "samples/soc-excalibur-won.camelog",
    };
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = NULL;
    size_t len = 0;
    char *text;

    {
        /* The samples' dealer key, published on purpose (samples/README.md),
         * copied to a file only its owner reads, as the loader requires. */
        char path[] = "/tmp/camelog-dealer-XXXXXX";
        const int fd = mkstemp(path);
        FILE *in = fopen("samples/dealer.key", "rb");
        char key[512];
        size_t n;

        ck_assert(fd >= 0 && in);
        n = fread(key, 1, sizeof(key), in);
        fclose(in);
        ck_assert(n > 0 && write(fd, key, n) == (ssize_t)n);
        close(fd);
        ck_assert_int_eq(rpl_seckey_load(ctx, &dealer, path, NULL), RPL_OK);
        unlink(path);
    }
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        struct rpl_log *log = NULL;
        const char *t;
        size_t n;

        ck_assert_int_eq(rpl_log_read(ctx, &log, files[f], NULL), RPL_OK);
        t = rpl_log_text(log, &len);
        text = strndup(t, len);
        n = rpl_log_lines(log);
        rpl_log_free(log);
        ck_assert_int_eq(check_views(ctx, text, len, 2, files[f]), RPL_OK);
        ck_assert_int_eq(check_views(ctx, text, len, RPL_VIEW_PUBLIC, files[f]),
                         RPL_OK);
        for (size_t cut = 1; cut < n; cut += n / 9 + 1)
            check_views(ctx, text, prefix_len(text, cut), 2, files[f]);
        for (size_t cut = n > 6 ? n - 6 : 1; cut < n; cut++)
            check_views(ctx, text, prefix_len(text, cut), 2, files[f]);
        for (size_t no = 1; no <= n; no++) {
            const size_t at = prefix_len(text, no - 1);
            const size_t end = prefix_len(text, no);
            char *forged = NULL;
            size_t flen = len;

            if (strncmp(text + at, "open ", 5) == 0) {
                /* Another seat's or another kind's label. */
                forged = strndup(text, len);
                for (size_t i = at + 5; i < end; i++)
                    if (forged[i] == 'p' && forged[i + 1] >= '1' &&
                        forged[i + 1] <= '2' && forged[i - 1] == ' ') {
                        forged[i + 1] = forged[i + 1] == '1' ? '2' : '1';
                        break;
                    }
            } else if (no % 11 == 0 && strncmp(text + at, "seal ", 5) != 0) {
                forged = malloc(len + 1);
                memcpy(forged, text, at);
                memcpy(forged + at, text + end, len - end + 1);
                flen = len - (end - at);
            }
            if (!forged)
                continue;
            {
                struct rpl_log *fl = NULL;
                const char *ft;

                if (rpl_log_parse(ctx, &fl, forged, flen, false, NULL) ==
                        RPL_OK &&
                    rpl_log_reseal(fl, dealer, NULL) == RPL_OK) {
                    ft = rpl_log_text(fl, &flen);
                    check_views(ctx, ft, flen, 2, files[f]);
                }
                rpl_log_free(fl);
            }
            free(forged);
        }
        free(text);
    }
    text = record_imported(ctx, &len);
    ck_assert_int_eq(check_views(ctx, text, len, 1, "imported"), RPL_OK);
    free(text);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}
END_TEST

/* rpl_log_verify_walk() of text with seat's deliveries d[0..n) against
 * rpl_log_verify(), rpl_log_learn() and a replay by rpl_log_seek() (what
 * camelog export and html --deliveries did before the one pass): the
 * same status, the verify's report and error, rpl_log_learn()'s error,
 * and the same views of every line.  Returns the status. */
static enum rpl_status
check_learned(struct rpl_ctx *ctx, const char *text, size_t len, size_t seat,
              const struct rpl_delivery *d, size_t n, const char *what)
{
    struct rpl_log *a = NULL, *b = NULL;
    struct rpl_report ra, rb;
    struct rpl_error ea, eb;
    enum rpl_status sa, sb;
    const struct rpl_walk_opts walk = {
        .views = true,
        .seats = seat >= 1 && seat <= 32 ? 1u << (seat - 1) : 0,
        .describe = true,
        .learn_seat = seat,
        .learn = d,
        .nlearn = n,
        .learn_err = &ea,
    };

    ck_assert_int_eq(rpl_log_parse(ctx, &a, text, len, false, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_parse(ctx, &b, text, len, false, NULL), RPL_OK);
    memset(&eb, 0, sizeof(eb));
    sa = rpl_log_verify_walk(a, NULL, &walk, &ra);
    sb = rpl_log_verify(b, NULL, &rb);
    ck_assert_int_eq(ra.error.code, rb.error.code);
    ck_assert_uint_eq(ra.error.line, rb.error.line);
    ck_assert_str_eq(ra.error.msg, rb.error.msg);
    ck_assert_int_eq(ra.progress, rb.progress);
    if (sb == RPL_OK)
        sb = rpl_log_learn(b, seat, d, n, &eb);
    ck_assert_msg(sa == sb, "%s: verify_walk %d, verify and learn %d (%s)",
                  what, (int)sa, (int)sb, sa != RPL_OK ? ra.error.msg : eb.msg);
    ck_assert_int_eq(ea.code, eb.code);
    ck_assert_uint_eq(ea.line, eb.line);
    ck_assert_str_eq(ea.msg, eb.msg);
    if (sa == RPL_OK) {
        /* The log keeps the deliveries, as rpl_log_learn() leaves it. */
        char *va = NULL, *vb = NULL;

        for (size_t no = 1; no <= rpl_log_lines(b); no++)
            check_line_views(ctx, a, b, no, (int)seat, what);
        ck_assert_int_eq(rpl_log_seek(a, rpl_log_lines(a), NULL), RPL_OK);
        ck_assert_int_eq(rpl_log_seek(b, rpl_log_lines(b), NULL), RPL_OK);
        ck_assert_int_eq(rpl_log_view_json(a, (int)seat, &va, NULL), RPL_OK);
        ck_assert_int_eq(rpl_log_view_json(b, (int)seat, &vb, NULL), RPL_OK);
        ck_assert_str_eq(va, vb);
        rpl_free(ctx, va);
        rpl_free(ctx, vb);
    }
    return checked(a, b, sa);
}

/* Seat k's deliveries among d[0..n) on lines through last, into out (seat
 * 0 in odd ones: taken as k); how many. */
static size_t
deliveries_upto(const struct rpl_delivery *d, size_t n, size_t k, size_t last,
                struct rpl_delivery *out)
{
    size_t m = 0;

    for (size_t i = 0; i < n; i++)
        if (d[i].seat == k && d[i].line <= last) {
            out[m] = d[i];
            if (m % 2)
                out[m].seat = 0;
            m++;
        }
    return m;
}

/* d signed again by the dealer: a lie it stands by. */
static void
resign(const struct rpl_seckey *dealer, struct rpl_delivery *d)
{
    uint8_t msg[RPL_DELIVERY_MESSAGE_MAX];
    uint8_t id[16], s[32];
    size_t mlen = 0;

    vector_id_secret(id, s);
    rpl_delivery_message(id, d, msg, &mlen);
    rpl__sign(dealer, msg, mlen, d->sig);
}

/* A seat's deliveries in the one pass: for every seat, on the game
 * without its reveal, cut at a spread of lines (the deliveries through
 * the cut, and all of them, some past it), and complete, the views and
 * errors are those of rpl_log_learn() and a replay; so are the refusals
 * of a delivery tampered with (unsigned, or signed again by the dealer),
 * of another seat's, of a seat not in the game, of a game that cannot
 * take them, and of a log that does not verify. */
START_TEST(views_one_pass_deliveries)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_delivery all[256], mine[256];
    size_t len = 0, nall = 0, n, reveal = 0, commit = 0, lines = 0, ok = 0;
    char *text = record_deliv(ctx, &VECTOR_GAME, &len, all, 256, &nall);

    for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
        lines++;
        if (!reveal && strncmp(p, "reveal ", 7) == 0)
            reveal = lines;
        if (!commit && strncmp(p, "commit ", 7) == 0)
            commit = lines;
    }
    ck_assert_uint_gt(reveal, 0);
    ck_assert_uint_gt(commit, 0);
    for (size_t k = 1; k <= 7; k++) {
        const size_t pre = prefix_len(text, reveal - 1);

        n = deliveries_upto(all, nall, k, SIZE_MAX, mine);
        ck_assert_uint_gt(n, 0);
        ck_assert_int_eq(check_learned(ctx, text, pre, k, mine, n, "pre"),
                         RPL_OK);
        ck_assert_int_eq(check_learned(ctx, text, len, k, mine, n, "full"),
                         RPL_OK);
        ck_assert_int_eq(check_learned(ctx, text, len - 1, k, mine, n,
                                       "complete but its last LF"),
                         RPL_E_SYNTAX);
        /* Revealed, not complete (its last seal left out): the views are
         * taken again after the pass. */
        ck_assert_int_eq(check_learned(ctx, text, prefix_len(text, lines - 1),
                                       k, mine, n, "revealed"),
                         RPL_OK);
        for (size_t cut = commit; cut < reveal; cut += reveal / 7 + 1) {
            const size_t at = prefix_len(text, cut);

            n = deliveries_upto(all, nall, k, cut, mine);
            ok += check_learned(ctx, text, at, k, mine, n, "cut") == RPL_OK;
            n = deliveries_upto(all, nall, k, SIZE_MAX, mine);
            check_learned(ctx, text, at, k, mine, n, "cut, all");
        }
    }
    {
        const size_t pre = prefix_len(text, reveal - 1);

        n = deliveries_upto(all, nall, 2, SIZE_MAX, mine);
        /* Unsigned, then signed again: the commitment refuses it. */
        mine[0].value[0] ^= 1;
        ck_assert_int_eq(check_learned(ctx, text, pre, 2, mine, n, "value"),
                         RPL_E_FAIRNESS);
        resign(dealer, &mine[0]);
        ck_assert_int_eq(
            check_learned(ctx, text, pre, 2, mine, n, "value, signed"),
            RPL_E_FAIRNESS);
        ck_assert_int_eq(check_learned(ctx, text, len, 2, mine, n, "full"),
                         RPL_E_FAIRNESS);
        mine[0].value[0] ^= 1;
        resign(dealer, &mine[0]);
        ck_assert_int_eq(check_learned(ctx, text, pre, 2, mine, n, "again"),
                         RPL_OK);
        /* Another label, another line (a line that commits nothing, a
         * game line after it), signed. */
        mine[n - 1].label[0] ^= 1;
        resign(dealer, &mine[n - 1]);
        ck_assert_int_eq(check_learned(ctx, text, pre, 2, mine, n, "label"),
                         RPL_E_FAIRNESS);
        mine[n - 1].label[0] ^= 1;
        for (size_t line = 1; line < 60; line += 7) {
            const size_t was = mine[n - 1].line;

            mine[n - 1].line = line;
            resign(dealer, &mine[n - 1]);
            check_learned(ctx, text, pre, 2, mine, n, "line");
            mine[n - 1].line = was;
        }
        resign(dealer, &mine[n - 1]);
        /* Another seat's, a seat not in the game, none, too many. */
        mine[0].seat = 3;
        ck_assert_int_eq(check_learned(ctx, text, pre, 2, mine, n, "p3's"),
                         RPL_E_ARG);
        mine[0].seat = 0;
        ck_assert_int_eq(check_learned(ctx, text, pre, 3, mine, n, "as p3"),
                         RPL_E_FAIRNESS);
        ck_assert_int_eq(check_learned(ctx, text, pre, 9, mine, n, "p9"),
                         RPL_E_ARG);
        ck_assert_int_eq(check_learned(ctx, text, pre, 2, mine, 0, "none"),
                         RPL_OK);
        ck_assert_int_eq(check_learned(ctx, text, pre, 2, mine,
                                       RPL_MAX_LINES + 1u, "too many"),
                         RPL_E_LIMIT);
        /* A log that does not verify: its error first. */
        ck_assert_int_ne(check_learned(ctx, text, pre - 1, 2, mine, n, "no LF"),
                         RPL_OK);
        mine[0].seat = 3;
        ck_assert_int_ne(
            check_learned(ctx, text, pre - 1, 2, mine, n, "no LF, p3's"),
            RPL_OK);
    }
    /* Most cuts verify (a cut inside a group of votes does not). */
    ck_assert_uint_gt(ok, 7 * 4);
    free(text);
    {
        /* A game that cannot take them. */
        struct rpl_log *log = NULL;
        const char *t;
        char *soc;

        ck_assert_int_eq(rpl_log_read(ctx, &log, "samples/soc-3.camelog", NULL),
                         RPL_OK);
        t = rpl_log_text(log, &len);
        soc = strndup(t, len);
        rpl_log_free(log);
        ck_assert_int_eq(check_learned(ctx, soc, len, 2, NULL, 0, "soc"),
                         RPL_E_UNSUPPORTED);
        free(soc);
    }
    sodium_memzero(all, sizeof(all));
    sodium_memzero(mine, sizeof(mine));
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(keyword_table)
{
    static const char *const header[] = {"camelog", "game",   "id",
                                         "created", "import", "rules",
                                         "seat",    "dealer", "commit"};
    static const char *const body[] = {"entropy", "sig", "seal", "reveal",
                                       "open"};
    static const char *const others[] = {"",      "vote", "team",  "sea",
                                         "seals", "Seal", "open ", "ids"};

    for (size_t i = 0; i < sizeof(header) / sizeof(header[0]); i++) {
        const struct rpl__tok t = {header[i], strlen(header[i])};
        const enum rpl__kw kw = rpl__kw_find(&t);

        ck_assert_int_eq(kw, RPL__KW_CAMELOG + (int)i);
        ck_assert_str_eq(rpl__kw_name(kw), header[i]);
        ck_assert_int_eq(rpl__kw_body(&t), RPL__KW_NONE);
    }
    for (size_t i = 0; i < sizeof(body) / sizeof(body[0]); i++) {
        const struct rpl__tok t = {body[i], strlen(body[i])};

        ck_assert_int_eq(rpl__kw_find(&t), RPL__KW_ENTROPY + (int)i);
        ck_assert_int_eq(rpl__kw_body(&t), RPL__KW_ENTROPY + (int)i);
        ck_assert_str_eq(rpl__kw_name(rpl__kw_body(&t)), body[i]);
    }
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        const struct rpl__tok t = {others[i], strlen(others[i])};

        ck_assert_int_eq(rpl__kw_find(&t), RPL__KW_NONE);
        ck_assert_int_eq(rpl__kw_body(&t), RPL__KW_NONE);
    }
    ck_assert_str_eq(rpl__kw_name(RPL__KW_NONE), "");
}
END_TEST

/* Where the recorder says its game stands is where verify finds the log
 * rpl_rec_log() gives. */
static void
same_progress(const struct rpl_recorder *rec)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;

    ck_assert_int_eq(rpl_rec_log(rec, &log, NULL), RPL_OK);
    ck_assert_msg(rpl_log_verify(log, NULL, &rep) == RPL_OK, "line %zu: %s",
                  rep.error.line, rep.error.msg);
    ck_assert_msg(rpl_rec_progress(rec) == rep.progress,
                  "%zu lines: the recorder says %s, verify %s",
                  rpl_rec_lines(rec), rpl_progress_name(rpl_rec_progress(rec)),
                  rpl_progress_name(rep.progress));
    rpl_log_free(log);
}

/* The recorder's lines are the lines of the log rpl_rec_log() gives, and
 * its progress is verify's. */
static void
same_lines(const struct rpl_recorder *rec)
{
    struct rpl_log *log = NULL;
    size_t len = 0;

    same_progress(rec);
    ck_assert_int_eq(rpl_rec_log(rec, &log, NULL), RPL_OK);
    ck_assert_uint_eq(rpl_rec_lines(rec), rpl_log_lines(log));
    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        size_t want_len = 0;
        const char *want = rpl_log_line(log, no, &want_len);
        const char *got = rpl_rec_line(rec, no, &len);

        ck_assert_ptr_nonnull(got);
        ck_assert_uint_eq(len, want_len);
        ck_assert(memcmp(got, want, len) == 0);
    }
    len = 7;
    ck_assert_ptr_null(rpl_rec_line(rec, 0, &len));
    ck_assert_ptr_null(rpl_rec_line(rec, rpl_rec_lines(rec) + 1, &len));
    ck_assert_uint_eq(len, 7);
    rpl_log_free(log);
}

/* rpl_rec_lines() and rpl_rec_line() after every call of a signed game,
 * and after calls the recorder refuses, one of them after it had written
 * the line (a sig with another seat's key). */
START_TEST(recorder_lines)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_seckey *seat_sk[8] = {0};
    struct rpl_pubkey seat_pk[8];
    const struct rpl_pubkey *keys[7];
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_error err;
    uint8_t id[16], s[32], bot[32], e[32];
    size_t turn, n, len = 0;
    const char *line;

    memset(bot, 1, sizeof(bot));
    for (size_t k = 1; k <= 7; k++) {
        seat_sk[k] = key_from(ctx, (uint8_t)k);
        rpl_seckey_pubkey(seat_sk[k], &seat_pk[k]);
        keys[k - 1] = &seat_pk[k];
    }
    avalon7_config(&cfg, dealer, id, s);
    cfg.seat_keys = keys;
    ck_assert_int_eq(rpl_rec_new(ctx, &rec, &cfg, &err), RPL_OK);
    same_lines(rec);
    line = rpl_rec_line(rec, 1, &len);
    ck_assert_uint_eq(len, 9);
    ck_assert(memcmp(line, "camelog 2", 9) == 0);
    memset(e, 0xaa, sizeof(e));
    {
        const size_t who[1] = {1};
        struct rpl_seckey *sks[1] = {seat_sk[1]};

        two_rounds(rec, id, 1, who, (const uint8_t(*)[32])e, sks);
    }
    same_lines(rec);
    ck_assert_int_eq(rpl_rec_start(rec, &err), RPL_OK);
    same_lines(rec);
    while ((turn = rpl_rec_dealer_turn(rec)) != 0) {
        n = rpl_rec_lines(rec);
        ck_assert_int_eq(rpl_rec_act(rec, "vote p1 maybe", NULL, &err),
                         RPL_E_SYNTAX);
        ck_assert_int_eq(
            rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, seat_sk[turn % 7 + 1], &err),
            RPL_E_KEY);
        ck_assert_uint_eq(rpl_rec_lines(rec), n);
        same_lines(rec);
        ck_assert_int_eq(
            rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, seat_sk[turn], &err), RPL_OK);
        ck_assert_uint_gt(rpl_rec_lines(rec), n);
        same_lines(rec);
    }
    ck_assert_int_eq(rpl_rec_reveal(rec, &err), RPL_OK);
    same_lines(rec);
    line = rpl_rec_line(rec, rpl_rec_lines(rec), &len);
    ck_assert(len > 5 && memcmp(line, "seal ", 5) == 0);
    rpl_rec_free(rec);
    for (size_t k = 1; k <= 7; k++)
        rpl_seckey_free(seat_sk[k]);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}
END_TEST

/* rpl_rec_progress() against verify after every call of games that end
 * otherwise: aborted in play, abandoned by a seat that withheld its
 * value, a game of Shadows over Camelot finished and then revealed. */
START_TEST(recorder_progress)
{
    static const char *const soc_names[] = {"Ann", "Bo", "Cy", "Di"};
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = key_from(ctx, 0xd0);
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_error err;
    uint8_t id[16], s[32], bot[32], v[32], c[32];
    size_t turn;

    avalon7_config(&cfg, dealer, id, s);
    memset(bot, 3, sizeof(bot));
    /* Aborted after five lines of play, then sealed. */
    ck_assert_int_eq(rpl_rec_new(ctx, &rec, &cfg, &err), RPL_OK);
    ck_assert_int_eq(rpl_rec_start(rec, &err), RPL_OK);
    same_progress(rec);
    for (int i = 0; i < 5 && rpl_rec_dealer_turn(rec) != 0; i++) {
        ck_assert_int_eq(rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, NULL, &err),
                         RPL_OK);
        same_progress(rec);
    }
    ck_assert_int_eq(rpl_rec_seal(rec, &err), RPL_OK);
    same_progress(rec);
    ck_assert_int_eq(rpl_rec_abort(rec, &err), RPL_OK);
    same_progress(rec);
    ck_assert_int_eq(rpl_rec_seal(rec, &err), RPL_OK);
    same_progress(rec);
    ck_assert_int_eq(rpl_rec_progress(rec), RPL_PROGRESS_FINISHED);
    rpl_rec_free(rec);

    /* Abandoned: p2 pledged and never gave its value. */
    ck_assert_int_eq(rpl_rec_new(ctx, &rec, &cfg, &err), RPL_OK);
    memset(v, 0x5c, sizeof(v));
    ck_assert_int_eq(rpl_entropy_pledge(id, 2, v, c), RPL_OK);
    ck_assert_int_eq(rpl_rec_pledge(rec, 2, c, NULL, NULL, NULL, &err), RPL_OK);
    same_progress(rec);
    ck_assert_int_eq(rpl_rec_pledged(rec, NULL, &err), RPL_OK);
    same_progress(rec);
    ck_assert_msg(rpl_rec_abandon(rec, 2, NULL, &err) == RPL_OK, "%s", err.msg);
    same_progress(rec);
    ck_assert_int_eq(rpl_rec_progress(rec), RPL_PROGRESS_FINISHED);
    rpl_rec_free(rec);

    /* Shadows over Camelot by its bots: finished, then complete. */
    cfg.game = "soc";
    cfg.rules = "players=4 traitor=on brave=off";
    cfg.seats = 4;
    cfg.names = soc_names;
    ck_assert_msg(rpl_rec_new(ctx, &rec, &cfg, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_rec_start(rec, &err), RPL_OK);
    for (size_t n = 0; (turn = rpl_rec_dealer_turn(rec)) != 0; n++) {
        ck_assert_msg(rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, NULL, &err) ==
                          RPL_OK,
                      "line %zu: %s", err.line, err.msg);
        if (n % 97 == 0)
            same_progress(rec);
    }
    same_progress(rec);
    ck_assert_int_eq(rpl_rec_seal(rec, &err), RPL_OK);
    same_progress(rec);
    ck_assert_int_eq(rpl_rec_progress(rec), RPL_PROGRESS_FINISHED);
    ck_assert_int_eq(rpl_rec_reveal(rec, &err), RPL_OK);
    same_progress(rec);
    ck_assert_int_eq(rpl_rec_progress(rec), RPL_PROGRESS_COMPLETE);
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}
END_TEST

/* Recording with every allocation failing in turn: RPL_E_NOMEM, nothing
 * leaks, and the lines so far stay readable. */
START_TEST(recorder_allocation_failures)
{
    bool done = false;

    for (long nth = 1; !done; nth++) {
        struct failing f = {nth, 0};
        const struct rpl_allocator a = failing_allocator(&f);
        struct rpl_ctx *ctx = NULL;
        struct rpl_seckey *dealer = NULL;
        struct rpl_recorder *rec = NULL;
        struct rpl_rec_config cfg;
        struct rpl_error err;
        uint8_t id[16], s[32], seed[32], bot[32];
        enum rpl_status rc;

        avalon7_config(&cfg, NULL, id, s);
        memset(seed, 0xd0, sizeof(seed));
        memset(bot, 1, sizeof(bot));
        rc = rpl_ctx_new(&ctx, &a, &err);
        if (rc == RPL_OK)
            rc = rpl_seckey_from_seed(ctx, &dealer, seed, &err);
        cfg.dealer = dealer;
        if (rc == RPL_OK)
            rc = rpl_rec_new(ctx, &rec, &cfg, &err);
        if (rc == RPL_OK)
            rc = rpl_rec_start(rec, &err);
        while (rc == RPL_OK && rpl_rec_dealer_turn(rec) != 0)
            rc = rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, NULL, &err);
        if (rc == RPL_OK)
            rc = rpl_rec_reveal(rec, &err);
        if (rc == RPL_OK) {
            done = true;
        } else {
            ck_assert_msg(rc == RPL_E_NOMEM, "allocation %ld: %s", nth,
                          err.msg);
        }
        if (rec) {
            size_t len = 0;

            for (size_t no = 1; no <= rpl_rec_lines(rec); no++)
                ck_assert_ptr_nonnull(rpl_rec_line(rec, no, &len));
        }
        rpl_rec_free(rec);
        rpl_seckey_free(dealer);
        rpl_ctx_free(ctx);
        ck_assert_int_eq(f.live, 0);
    }
}
END_TEST

/* The version number matches the version string, in header and library. */
START_TEST(version_number)
{
    unsigned major = 0, minor = 0, patch = 0;
    char end = 0;

    ck_assert_str_eq(rpl_version(), RPL_VERSION);
    ck_assert_uint_eq(rpl_version_number(), RPL_VERSION_NUMBER);
    ck_assert_int_eq(
        sscanf(RPL_VERSION, "%u.%u.%u%c", &major, &minor, &patch, &end), 3);
    ck_assert_uint_lt(minor, 100);
    ck_assert_uint_lt(patch, 100);
    ck_assert_uint_eq(RPL_VERSION_NUMBER, major * 10000 + minor * 100 + patch);
}
END_TEST

Suite *
log_suite(void)
{
    Suite *s = suite_create("log");
    TCase *tc = tcase_create("log");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, recorded_game_is_complete);
    tcase_add_test(tc, board_and_marks);
    tcase_add_test(tc, recorded_test_vectors);
    tcase_add_test(tc, round_trip);
    tcase_add_test(tc, pinned_key);
    tcase_add_test(tc, every_cut);
    tcase_add_test(tc, pinned_key_needs_seals);
    tcase_add_test(tc, require_progress);
    tcase_add_test(tc, seed_provenance);
    tcase_add_test(tc, missing_final_seal);
    tcase_add_test(tc, seal_in_reveal_block);
    tcase_add_test(tc, forged_seal);
    tcase_add_test(tc, sig_by_wrong_seat);
    tcase_add_test(tc, secret_not_matching_commit);
    tcase_add_test(tc, altered_deal);
    tcase_add_test(tc, altered_history_breaks_sigs);
    tcase_add_test(tc, open_not_matching);
    tcase_add_test(tc, entropy_order);
    tcase_add_test(tc, plain_text_not_gzip);
    tcase_add_test(tc, entropy_eleventh_line);
    tcase_add_test(tc, header_order);
    tcase_add_test(tc, limits);
    tcase_add_test(tc, empty_text);
    tcase_add_test(tc, format_version);
    tcase_add_test(tc, lenient);
    tcase_add_test(tc, write_read);
    tcase_add_test(tc, tamper_compressed);
    tcase_add_test(tc, allocation_failures);
    tcase_add_test(tc, seek_digest);
    tcase_add_test(tc, imported_game);
    tcase_add_test(tc, imported_wrong_role);
    tcase_add_test(tc, imported_without_importer);
    tcase_add_test(tc, views_one_pass);
    tcase_add_test(tc, views_one_pass_deliveries);
    tcase_add_test(tc, keyword_table);
    tcase_add_test(tc, recorder_lines);
    tcase_add_test(tc, recorder_progress);
    tcase_add_test(tc, recorder_allocation_failures);
    tcase_add_test(tc, version_number);
    suite_add_tcase(s, tc);
    return s;
}
