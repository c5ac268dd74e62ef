/*
 * test_text.c - the canonical line tokenizer and the token readers: each
 * accepts exactly one spelling.
 */
#include <string.h>

#include <check.h>

#include "internal.h"
#include "suites.h"

static struct rpl__tok
tok(const char *s)
{
    struct rpl__tok t = {s, strlen(s)};

    return t;
}

static enum rpl_status
split(struct rpl__line *ln, const char *s, struct rpl_error *err)
{
    return rpl__line_split(ln, s, strlen(s), 7, err);
}

START_TEST(split_canonical)
{
    struct rpl__line ln;
    struct rpl_error err;

    ck_assert_int_eq(split(&ln, "seat p1 \"Mary \\\"Ann\\\"\" key=abc", &err),
                     RPL_OK);
    ck_assert_uint_eq(ln.ntok, 4);
    ck_assert(rpl__tok_is(&ln.tok[0], "seat"));
    ck_assert(rpl__tok_is(&ln.tok[2], "\"Mary \\\"Ann\\\"\""));
    ck_assert(rpl__tok_is(&ln.tok[3], "key=abc"));
    ck_assert_uint_eq(ln.no, 7);
}
END_TEST

/* Every non-canonical spelling is refused, naming the line. */
static const char *const bad_lines[] = {
    "",         " vote p1 yes",  "vote  p1 yes", "vote p1 yes ",
    "vote\tp1", "vote p1 yes\r", "seat p1 \"x",  "seat p1 \"x\"y",
    "a\x01z",   "caf\xc3",       "\xc0\xaf",     "x \xed\xa0\x80",
    "\xc2\x85",
};

START_TEST(split_rejects)
{
    struct rpl__line ln;
    struct rpl_error err;

    ck_assert_int_eq(split(&ln, bad_lines[_i], &err), RPL_E_SYNTAX);
    ck_assert_uint_eq(err.line, 7);
    ck_assert(strlen(err.msg) > 0);
}
END_TEST

START_TEST(split_token_limit)
{
    char line[2 * RPL_MAX_TOKENS + 2];
    struct rpl__line ln;
    struct rpl_error err;
    size_t n = 0;

    for (size_t i = 0; i < RPL_MAX_TOKENS; i++) {
        line[n++] = 'a';
        line[n++] = ' ';
    }
    line[n - 1] = '\0';
    ck_assert_int_eq(split(&ln, line, &err), RPL_OK);
    ck_assert_uint_eq(ln.ntok, RPL_MAX_TOKENS);
    line[n - 1] = ' ';
    line[n] = 'a';
    line[n + 1] = '\0';
    ck_assert_int_eq(split(&ln, line, &err), RPL_E_LIMIT);
    ck_assert(strstr(err.msg, "RPL_MAX_TOKENS"));
}
END_TEST

START_TEST(seat_tokens)
{
    size_t seat = 0;
    struct rpl__tok t;

    t = tok("p1");
    ck_assert(rpl__tok_seat(&t, 10, &seat) && seat == 1);
    t = tok("p10");
    ck_assert(rpl__tok_seat(&t, 10, &seat) && seat == 10);
    t = tok("p11");
    ck_assert(!rpl__tok_seat(&t, 10, &seat));
    t = tok("p0");
    ck_assert(!rpl__tok_seat(&t, 10, &seat));
    t = tok("p01");
    ck_assert(!rpl__tok_seat(&t, 10, &seat));
    t = tok("P1");
    ck_assert(!rpl__tok_seat(&t, 10, &seat));
    t = tok("p");
    ck_assert(!rpl__tok_seat(&t, 10, &seat));
}
END_TEST

START_TEST(seat_lists)
{
    uint8_t s[10];
    size_t n = 0;
    struct rpl__tok t;

    t = tok("p1,p3,p10");
    ck_assert(rpl__tok_seats(&t, 10, s, 10, &n));
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(s[2], 10);
    t = tok("p3,p1");
    ck_assert(!rpl__tok_seats(&t, 10, s, 10, &n));
    t = tok("p1,p1");
    ck_assert(!rpl__tok_seats(&t, 10, s, 10, &n));
    t = tok("p1,");
    ck_assert(!rpl__tok_seats(&t, 10, s, 10, &n));
    t = tok(",p1");
    ck_assert(!rpl__tok_seats(&t, 10, s, 10, &n));
    t = tok("p1,p2,p3");
    ck_assert(!rpl__tok_seats(&t, 10, s, 2, &n));
}
END_TEST

START_TEST(numbers)
{
    unsigned long v = 0;
    struct rpl__tok t;

    t = tok("0");
    ck_assert(rpl__tok_uint(&t, 5, &v) && v == 0);
    t = tok("5");
    ck_assert(rpl__tok_uint(&t, 5, &v) && v == 5);
    t = tok("6");
    ck_assert(!rpl__tok_uint(&t, 5, &v));
    t = tok("05");
    ck_assert(!rpl__tok_uint(&t, 5, &v));
    t = tok("-1");
    ck_assert(!rpl__tok_uint(&t, 5, &v));
    t = tok("99999999999");
    ck_assert(!rpl__tok_uint(&t, ~0ul, &v));
}
END_TEST

START_TEST(hex_one_spelling)
{
    uint8_t b[2];
    char out[5];
    struct rpl__tok t;

    t = tok("0aff");
    ck_assert(rpl__tok_hex(&t, b, 2) && b[0] == 0x0a && b[1] == 0xff);
    rpl__hex(out, b, 2);
    ck_assert_str_eq(out, "0aff");
    t = tok("0AFF");
    ck_assert(!rpl__tok_hex(&t, b, 2));
    t = tok("0af");
    ck_assert(!rpl__tok_hex(&t, b, 2));
    t = tok("0afg");
    ck_assert(!rpl__tok_hex(&t, b, 2));
}
END_TEST

START_TEST(base64_one_spelling)
{
    uint8_t b[2];
    struct rpl__tok t;

    t = tok("AQI=");
    ck_assert(rpl__tok_b64(&t, b, 2) && b[0] == 1 && b[1] == 2);
    t = tok("AQI");
    ck_assert(!rpl__tok_b64(&t, b, 2));
    t = tok("AQJ="); /* non-zero padding bits */
    ck_assert(!rpl__tok_b64(&t, b, 2));
    t = tok("AQI-");
    ck_assert(!rpl__tok_b64(&t, b, 2));
}
END_TEST

START_TEST(names)
{
    char out[RPL_MAX_NAME + 1];
    char long_name[RPL_MAX_NAME + 4];
    const char *why = NULL;
    struct rpl__tok t;

    t = tok("\"A \\\"b\\\" \\\\c\"");
    ck_assert(rpl__tok_name(&t, out, sizeof(out), &why));
    ck_assert_str_eq(out, "A \"b\" \\c");
    t = tok("\"\"");
    ck_assert(!rpl__tok_name(&t, out, sizeof(out), &why));
    t = tok("\"a\\nb\"");
    ck_assert(!rpl__tok_name(&t, out, sizeof(out), &why));
    t = tok("\"a\xc2\x85\"");
    ck_assert(!rpl__tok_name(&t, out, sizeof(out), &why));
    long_name[0] = '"';
    memset(long_name + 1, 'x', RPL_MAX_NAME);
    long_name[RPL_MAX_NAME + 1] = '"';
    long_name[RPL_MAX_NAME + 2] = '\0';
    t = tok(long_name);
    ck_assert(rpl__tok_name(&t, out, sizeof(out), &why));
    long_name[RPL_MAX_NAME + 1] = 'x';
    long_name[RPL_MAX_NAME + 2] = '"';
    long_name[RPL_MAX_NAME + 3] = '\0';
    t = tok(long_name);
    ck_assert(!rpl__tok_name(&t, out, sizeof(out), &why));
    ck_assert(strstr(why, "64"));
}
END_TEST

START_TEST(times)
{
    struct rpl__tok t;

    t = tok("2026-11-29T11:32:18Z");
    ck_assert(rpl__tok_time(&t));
    t = tok("2024-02-29T00:00:00Z");
    ck_assert(rpl__tok_time(&t));
    t = tok("2026-02-29T00:00:00Z");
    ck_assert(!rpl__tok_time(&t));
    t = tok("2100-02-29T00:00:00Z");
    ck_assert(!rpl__tok_time(&t));
    t = tok("2026-11-29T24:00:00Z");
    ck_assert(!rpl__tok_time(&t));
    t = tok("2026-11-29T11:32:60Z");
    ck_assert(!rpl__tok_time(&t));
    t = tok("2026-11-29 11:32:18Z");
    ck_assert(!rpl__tok_time(&t));
    t = tok("2026-11-29T11:32:18");
    ck_assert(!rpl__tok_time(&t));
}
END_TEST

Suite *
text_suite(void)
{
    Suite *s = suite_create("text");
    TCase *tc = tcase_create("text");

    tcase_add_test(tc, split_canonical);
    tcase_add_loop_test(tc, split_rejects, 0,
                        (int)(sizeof(bad_lines) / sizeof(bad_lines[0])));
    tcase_add_test(tc, split_token_limit);
    tcase_add_test(tc, seat_tokens);
    tcase_add_test(tc, seat_lists);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, hex_one_spelling);
    tcase_add_test(tc, base64_one_spelling);
    tcase_add_test(tc, names);
    tcase_add_test(tc, times);
    suite_add_tcase(s, tc);
    return s;
}
