/*
 * test_vectors.c - format 2's test vectors of camelog(5) ("Format 2:
 * pledges and seed", "A sealed log of format 2") against the library:
 * the pledges, the seed, the roles stream's key, the text the recorder
 * writes for the vector's inputs, its chain values and its verdict, and
 * the page itself, whose vector block must be that text byte for byte
 * and which must hold every value, so that the page and the code cannot
 * drift apart.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "internal.h"
#include "suites.h"

/* The inputs of camelog(5), TEST VECTORS. */
static const uint8_t tv_id[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
                                  0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
                                  0xcc, 0xdd, 0xee, 0xff};

#define PLEDGE_P1                                                              \
    "27def96522a4def66af505930eb851c717389af9c4a720e623159750e05619a4"
#define PLEDGE_P3                                                              \
    "9de96767470485b5c416c33f22b3a6de75df84dcf71e5c2d56788c433888a16a"
#define SEED2 "a980d187cf5267c2f8d338059903700964c05657ff73ac8f06b155a319411028"
#define ROLES_KEY                                                              \
    "757ac53a6fe4bf0dbbaa91665d9d7f73adb2fa833cf2131e9ad8671e1bf7907d"
#define H_14 "b1005e89fcc07dc0d0b4294cf9d6242cab7e3149a5fc616ce779865b509b6a50"
#define H_19 "3501016bf0c459ed9ef0f5d97c2d7940735eafb04eb348476aeb4e89bc381ccc"
#define H_30 "ac205cf854d01790246b87a9477f75b7d50aa5d8bc1450f07e417840da8d5c07"
#define H_31 "7fd270eac285b48b13d627d9c442a45ef728bfc1312ed3bba9d08d078cc5ee58"

/* The text of "A sealed log of format 2". */
static const char tv_log2[] =
    "camelog 2\n"
    "game avalon\n"
    "id 00112233445566778899aabbccddeeff\n"
    "created 2026-11-29T12:00:00Z\n"
    "rules players=7 roles=merlin,percival,servant,servant,assassin,morgana,"
    "mordred lady=on targeting=off\n"
    "seat p1 \"Alice\" "
    "key=RWRzMNICqkXagq3BQBH4LRxW2VaqT51z2IWDYaYGBIUl4NCMY43HXdjH\n"
    "seat p2 \"Bob\"\n"
    "seat p3 \"Carol\"\n"
    "seat p4 \"Dave\"\n"
    "seat p5 \"Eve\"\n"
    "seat p6 \"Frank\"\n"
    "seat p7 \"Grace\"\n"
    "dealer RWQRB5Bsw1n1HefxYqEL7FWa/qGV5NzoS2lWjV0ssJY+tEbAaF4rF/Lw\n"
    "commit 04500d15bc88a106d38cb14f1d2f78d7cb63fec1ccbbe685da95141002075980\n"
    "pledge p1 " PLEDGE_P1 "\n"
    "sig p1 kCA2gUAHfkKr5H9Y3gSw5hUgByrR1x5RpzedMcymxuQf73YKW1GaJrg/jfOyxYS24E"
    "TDyJTY6RbdgYr5vjz+DQ==\n"
    "pledge p3 " PLEDGE_P3 "\n"
    "pledged p1,p3\n"
    "seal au77b2LITuNtTE9c1PfpczetwE04cVpemBTG0mqoed4p4APPkoe++q9sgQsijXVsPzt"
    "FrX7YdYsnO6pj5QYsBQ==\n"
    "entropy p3 "
    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\n"
    "entropy p1 "
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
    "sig p1 QVGHITeD0N+DwYKBSJB9YfOVH3pz2RdUzE4KCA6dUWSCD71EicGgzUK9flVc4l6KeI"
    "Nedgf6TyzSzbLZ0XIUDA==\n"
    "start leader=p6 lady=p5\n"
    "deal p1 250bbae36b91b910666444f15ca067cf8ea8cd9109f1ec42a6a123b6772e5296\n"
    "deal p2 918ec175f33616006ee34ef5153d8d3002de8fb5839f9f755ff0d19c44a1871c\n"
    "deal p3 0b6f32177b195f4afdee20eb9b58392e17f65b1a8dac438c320d64ad066c4caf\n"
    "deal p4 d041942d1e01a1345211bc0fdb0a262e8355c052fc81011cd23cfc4600e2c4ce\n"
    "deal p5 b26949e40325712aaa9dac02f6e728d88171d0e024400542a262449afaf6953e\n"
    "deal p6 a0434ebaecf812024a9f22b8e32cf1ffc42b41428e0dfbc0cf8fac94f47e4460\n"
    "deal p7 3369959747deed55eb748d4e6e39de4f3031698214ef0020fcf9765e14c5a58b\n"
    "seal q+DP/6MNXZN6JJteqJfRN8bItvNtpAAaWaNpfD/qo8V+OAGXVW9Hkr0lxJlvhiO/PYu"
    "L2wAIUeZQRZniU6fjDA==\n";

/* The views of "Format 2: pledges and seed", p1 to p7. */
static const char *const tv_views2[7] = {
    "role=morgana sees=p4,p5",
    "role=percival sees=p1,p3",
    "role=merlin sees=p1,p4",
    "role=assassin sees=p1,p5",
    "role=mordred sees=p1,p4",
    "role=servant",
    "role=servant",
};

static void
ck_hex(const uint8_t *got, size_t n, const char *want)
{
    char hex[2 * 32 + 1];

    ck_assert_uint_le(n, 32);
    sodium_bin2hex(hex, sizeof(hex), got, n);
    ck_assert_str_eq(hex, want);
}

static void
tv_values(uint8_t s[32], uint8_t v1[32], uint8_t v3[32])
{
    for (int i = 0; i < 32; i++)
        s[i] = (uint8_t)(i + 1);
    memset(v1, 0xaa, 32);
    memset(v3, 0xbb, 32);
}

/* The key pair of the Ed25519 seed made of the bytes first, first+1,
 * ... (the dealer's 0x21 to 0x40, p1's 0x41 to 0x60). */
static struct rpl_seckey *
tv_key(struct rpl_ctx *ctx, unsigned first)
{
    struct rpl_seckey *sk = NULL;
    uint8_t seed[32];

    for (unsigned i = 0; i < 32; i++)
        seed[i] = (uint8_t)(first + i);
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, NULL), RPL_OK);
    return sk;
}

START_TEST(test_pledges)
{
    uint8_t s[32], v1[32], v3[32], c[32];

    tv_values(s, v1, v3);
    ck_assert_int_eq(rpl_entropy_pledge(tv_id, 1, v1, c), RPL_OK);
    ck_hex(c, 32, PLEDGE_P1);
    ck_assert_int_eq(rpl_entropy_pledge(tv_id, 3, v3, c), RPL_OK);
    ck_hex(c, 32, PLEDGE_P3);
    /* The seat's number is in the hash: p1's value is not p3's pledge. */
    ck_assert_int_eq(rpl_entropy_pledge(tv_id, 3, v1, c), RPL_OK);
    {
        char hex[65];

        sodium_bin2hex(hex, sizeof(hex), c, 32);
        ck_assert_str_ne(hex, PLEDGE_P1);
    }
    ck_assert_int_eq(rpl_entropy_pledge(tv_id, 0, v1, c), RPL_E_ARG);
    ck_assert_int_eq(rpl_entropy_pledge(tv_id, 11, v1, c), RPL_E_ARG);
}
END_TEST

START_TEST(test_seed2)
{
    uint8_t s[32], v1[32], v3[32], seed[32], key[32], again[32];
    uint8_t value[RPL_MAX_SEATS + 1][32];
    static const char tag[] = "stream roles";

    tv_values(s, v1, v3);
    memset(value, 0, sizeof(value));
    memcpy(value[1], v1, 32);
    memcpy(value[3], v3, 32);
    rpl__seed2(seed, tv_id, s, (const uint8_t(*)[32])value, 0x5u);
    ck_hex(seed, 32, SEED2);
    /* The seats' numbers are hashed too: the same bytes in seats 1 and
     * 2 make another seed. */
    memset(value[3], 0, 32);
    memcpy(value[2], v3, 32);
    rpl__seed2(again, tv_id, s, (const uint8_t(*)[32])value, 0x3u);
    ck_assert_mem_ne(again, seed, 32);
    rpl__hash(key, seed, tag, sizeof(tag) - 1);
    ck_hex(key, 32, ROLES_KEY);
}
END_TEST

/* The recorder writes the sealed log of format 2 from the vector's
 * inputs (p3 reveals first), it verifies with the pinned dealer key and
 * p1's pinned key with every signature required, and its chain values
 * are the page's. */
START_TEST(test_sealed_log2)
{
    static const char *const names[7] = {"Alice", "Bob",   "Carol", "Dave",
                                         "Eve",   "Frank", "Grace"};
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *dealer, *p1;
    struct rpl_pubkey p1_pk, dealer_pk;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    struct rpl_verify_opts opts;
    uint8_t s[32], v1[32], v3[32], c[32], h[32];
    const char *text;
    size_t len = 0;

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    dealer = tv_key(ctx, 0x21);
    p1 = tv_key(ctx, 0x41);
    rpl_seckey_pubkey(p1, &p1_pk);
    rpl_seckey_pubkey(dealer, &dealer_pk);
    tv_values(s, v1, v3);
    {
        const struct rpl_pubkey *keys[7] = {&p1_pk, NULL, NULL, NULL,
                                            NULL,   NULL, NULL};
        const struct rpl_rec_config cfg = {
            .game = "avalon",
            .rules = "players=7 roles=merlin,percival,servant,servant,"
                     "assassin,morgana,mordred lady=on targeting=off",
            .seats = 7,
            .names = names,
            .seat_keys = keys,
            .dealer = dealer,
            .id = tv_id,
            .secret = s,
            .created = "2026-11-29T12:00:00Z",
        };

        ck_assert_int_eq(rpl_rec_new(ctx, &rec, &cfg, &err), RPL_OK);
    }
    ck_assert_int_eq(rpl_entropy_pledge(tv_id, 1, v1, c), RPL_OK);
    ck_assert_msg(rpl_rec_pledge(rec, 1, c, p1, NULL, NULL, &err) == RPL_OK,
                  "%s", err.msg);
    ck_assert_int_eq(rpl_entropy_pledge(tv_id, 3, v3, c), RPL_OK);
    ck_assert_msg(rpl_rec_pledge(rec, 3, c, NULL, NULL, NULL, &err) == RPL_OK,
                  "%s", err.msg);
    ck_assert_msg(rpl_rec_pledged(rec, NULL, &err) == RPL_OK, "%s", err.msg);
    ck_assert_msg(rpl_rec_entropy(rec, 3, v3, NULL, &err) == RPL_OK, "%s",
                  err.msg);
    ck_assert_msg(rpl_rec_entropy(rec, 1, v1, p1, &err) == RPL_OK, "%s",
                  err.msg);
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_rec_seal(rec, &err), RPL_OK);
    /* The deliveries of the deal: the views of the page, padded. */
    ck_assert_uint_eq(rpl_rec_deliveries(rec), 7);
    for (size_t i = 0; i < 7; i++) {
        struct rpl_delivery d;
        char padded[192];

        ck_assert_int_eq(rpl_rec_delivery(rec, i, &d, &err), RPL_OK);
        ck_assert_uint_eq(d.line, 24 + i);
        ck_assert(rpl__pad(padded, tv_views2[i]));
        ck_assert_str_eq(d.value, padded);
        sodium_memzero(&d, sizeof(d));
    }
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    text = rpl_log_text(log, &len);
    ck_assert_uint_eq(len, sizeof(tv_log2) - 1);
    ck_assert_str_eq(text, tv_log2);
    memset(&opts, 0, sizeof(opts));
    opts.pubkey = &dealer_pk;
    opts.seat_pin[1] = &p1_pk;
    opts.require_entropy = true;
    ck_assert_msg(rpl_log_verify(log, &opts, &rep) == RPL_OK, "line %zu: %s",
                  rep.error.line, rep.error.msg);
    ck_assert_uint_eq(rep.version, 2);
    ck_assert_uint_eq(rep.pledged, 0x5u);
    ck_assert_uint_eq(rep.pledge_signed, 0x1u);
    ck_assert_uint_eq(rep.revealed, 0x5u);
    ck_assert_uint_eq(rep.reveal_signed, 0x1u);
    ck_assert_uint_eq(rep.entropy_seats, 2);
    ck_assert_uint_eq(rep.entropy_signed, 1);
    ck_assert_uint_eq(rep.seals, 2);
    ck_assert_uint_eq(rep.sigs, 2);
    ck_assert_int_eq(rep.progress, RPL_PROGRESS_IN_PROGRESS);
    ck_assert_int_eq(rpl_log_head(log, 14, h, &err), RPL_OK);
    ck_hex(h, 32, H_14);
    ck_assert_int_eq(rpl_log_head(log, 19, h, &err), RPL_OK);
    ck_hex(h, 32, H_19);
    ck_assert_int_eq(rpl_log_head(log, 30, h, &err), RPL_OK);
    ck_hex(h, 32, H_30);
    ck_assert_int_eq(rpl_log_head(log, 31, h, &err), RPL_OK);
    ck_hex(h, 32, H_31);
    /* p1's value signs against h_19, the sealed start's: its sig line is
     * line 22, and its base covers lines 1 to 19. */
    {
        size_t base_line = 0;

        ck_assert_int_eq(rpl_seat_sig_base(log, 22, &base_line, &err), RPL_OK);
        ck_assert_uint_eq(base_line, 19);
        ck_assert_int_eq(rpl_seat_sig_base(log, 16, &base_line, &err), RPL_OK);
        ck_assert_uint_eq(base_line, 14);
    }
    rpl_log_free(log);
    rpl_rec_free(rec);
    rpl_seckey_free(p1);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
}
END_TEST

/* camelog(5) itself, read from the sources (SRCDIR, else "."). */
static char *
read_page(void)
{
    const char *srcdir = getenv("SRCDIR");
    char path[512];
    FILE *f;
    char *buf;
    long n;

    snprintf(path, sizeof(path), "%s/man/man5/camelog.5",
             srcdir ? srcdir : ".");
    f = fopen(path, "rb");
    ck_assert_msg(f, "cannot read %s (set SRCDIR to the sources)", path);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    n = ftell(f);
    ck_assert_int_gt(n, 0);
    rewind(f);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* hex as the page writes a 32-byte value in a display: two lines of 32
 * digits; both halves must be in the page, one after the other. */
static void
ck_page_hex(const char *page, const char *hex)
{
    char half[2][33];
    const char *a, *b;

    memcpy(half[0], hex, 32);
    half[0][32] = '\0';
    memcpy(half[1], hex + 32, 32);
    half[1][32] = '\0';
    a = strstr(page, half[0]);
    ck_assert_msg(a, "camelog(5) lacks %s", hex);
    b = strstr(a, half[1]);
    ck_assert_msg(b && b - a < 80, "camelog(5) lacks %s", hex);
}

START_TEST(test_page_holds_the_vectors)
{
    static const char begin[] = ".\\\" VECTOR-V2-BEGIN";
    static const char end[] = ".Ed\n.\\\" VECTOR-V2-END";
    char *page = read_page();
    const char *b = strstr(page, begin);
    const char *e;

    ck_assert_msg(b, "camelog(5) has no VECTOR-V2-BEGIN marker");
    b = strchr(b, '\n');
    ck_assert_ptr_nonnull(b);
    b++;
    ck_assert_int_eq(strncmp(b, ".Bd -literal\n", 13), 0);
    b += 13;
    e = strstr(b, end);
    ck_assert_msg(e, "camelog(5) has no VECTOR-V2-END marker");
    ck_assert_uint_eq((size_t)(e - b), sizeof(tv_log2) - 1);
    ck_assert_int_eq(memcmp(b, tv_log2, sizeof(tv_log2) - 1), 0);
    ck_page_hex(page, PLEDGE_P1);
    ck_page_hex(page, PLEDGE_P3);
    ck_page_hex(page, SEED2);
    ck_page_hex(page, ROLES_KEY);
    ck_page_hex(page, H_14);
    ck_page_hex(page, H_19);
    ck_page_hex(page, H_30);
    ck_page_hex(page, H_31);
    ck_assert(strstr(page, "start leader=p6 lady=p5"));
    for (size_t k = 0; k < 7; k++) {
        char row[64];

        snprintf(row, sizeof(row), "p%zu  %s\n", k + 1, tv_views2[k]);
        ck_assert_msg(strstr(page, row), "camelog(5) lacks %s", row);
    }
    free(page);
}
END_TEST

Suite *
vectors_suite(void)
{
    Suite *s = suite_create("vectors");
    TCase *tc = tcase_create("format2");

    tcase_add_test(tc, test_pledges);
    tcase_add_test(tc, test_seed2);
    tcase_add_test(tc, test_sealed_log2);
    tcase_add_test(tc, test_page_holds_the_vectors);
    suite_add_tcase(s, tc);
    return s;
}
