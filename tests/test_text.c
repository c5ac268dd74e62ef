/*
 * test_text.c - the canonical line tokenizer and the token readers: each
 * accepts exactly one spelling.
 */
#include <stdio.h>
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

/* The tokenizer reads 8 bytes at a time: a bad byte, a multibyte
 * character and a space are each found at every offset of a line, with
 * the same message as byte by byte. */
static const struct {
    const char *bytes;
    const char *msg; /* before " at byte N"; NULL: accepted */
} at_offset[] = {
    {"\x01", "control character U+0001"},
    {"\x1f", "control character U+001F"},
    {"\x7f", "control character U+007F"},
    {"\xc2\x85", "control character U+0085"},
    {"\x80", "invalid UTF-8"},
    {"\xff", "invalid UTF-8"},
    {"\xc3", "invalid UTF-8"},
    {"\xc3\xa9", NULL},
    {"\xe2\x82\xac", NULL},
    {"\xf0\x9f\x83\x8f", NULL},
    {"~", NULL},
};

START_TEST(split_every_offset)
{
    const size_t blen = strlen(at_offset[_i].bytes);

    for (size_t at = 0; at < 40; at++) {
        char line[64];
        char want[64];
        struct rpl__line ln;
        struct rpl_error err;
        enum rpl_status rc;

        memset(line, 'x', sizeof(line));
        memcpy(line + at, at_offset[_i].bytes, blen);
        rc = rpl__line_split(&ln, line, 40 + blen, 3, &err);
        if (!at_offset[_i].msg) {
            ck_assert_int_eq(rc, RPL_OK);
            ck_assert_uint_eq(ln.ntok, 1);
            ck_assert_uint_eq(ln.tok[0].n, 40 + blen);
            continue;
        }
        snprintf(want, sizeof(want), "%s at byte %zu", at_offset[_i].msg,
                 at + 1);
        ck_assert_int_eq(rc, RPL_E_SYNTAX);
        ck_assert_str_eq(err.msg, want);
        ck_assert_uint_eq(err.line, 3);
    }
}
END_TEST

/* Tokens of every length from 1 to 20, each split where a byte loop
 * splits them; a control character after the last space still wins
 * over the spaces before it. */
START_TEST(split_token_lengths)
{
    for (size_t a = 1; a <= 20; a++) {
        for (size_t b = 1; b <= 20; b++) {
            char line[64];
            struct rpl__line ln;
            struct rpl_error err;

            memset(line, 'a', a);
            line[a] = ' ';
            memset(line + a + 1, 'b', b);
            ck_assert_int_eq(rpl__line_split(&ln, line, a + 1 + b, 1, &err),
                             RPL_OK);
            ck_assert_uint_eq(ln.ntok, 2);
            ck_assert_uint_eq(ln.tok[0].n, a);
            ck_assert_ptr_eq(ln.tok[1].p, line + a + 1);
            ck_assert_uint_eq(ln.tok[1].n, b);
            line[a + 1] = ' ';
            ck_assert_int_eq(rpl__line_split(&ln, line, a + 1 + b, 1, &err),
                             RPL_E_SYNTAX);
            ck_assert(strstr(err.msg, "two spaces in a row"));
            line[a + b] = '\t';
            ck_assert_int_eq(rpl__line_split(&ln, line, a + 1 + b, 1, &err),
                             RPL_E_SYNTAX);
            ck_assert(strstr(err.msg, "control character U+0009"));
        }
    }
}
END_TEST

/* rpl__fmt() writes what snprintf() writes, at every buffer size. */
START_TEST(fmt_as_snprintf)
{
    char a[48], b[48];

    for (size_t cap = 0; cap <= sizeof(a); cap++) {
        size_t n;
        int w;

        memset(a, '#', sizeof(a));
        memset(b, '#', sizeof(b));
        n = rpl__fmt(a, cap, "open card %u p%u %s|%zu", 5u, 10u, "success",
                     (size_t)18446744073709551615u);
        w = snprintf(b, cap, "open card %u p%u %s|%zu", 5u, 10u, "success",
                     (size_t)18446744073709551615u);
        ck_assert_uint_eq(n, (size_t)w);
        ck_assert(memcmp(a, b, sizeof(a)) == 0);
        memset(a, '#', sizeof(a));
        memset(b, '#', sizeof(b));
        n = rpl__fmt(a, cap, "%s%u", "", 0u);
        w = snprintf(b, cap, "%s%u", "", 0u);
        ck_assert_uint_eq(n, (size_t)w);
        ck_assert(memcmp(a, b, sizeof(a)) == 0);
    }
    /* rpl__fmt_seats() too, against the list snprintf() writes. */
    for (size_t cap = 1; cap <= sizeof(a); cap++) {
        const uint8_t seats[] = {1, 7, 10, 255};

        memset(a, '#', sizeof(a));
        memset(b, '#', sizeof(b));
        rpl__fmt_seats(a, cap, seats, 4);
        snprintf(b, cap, "p1,p7,p10,p255");
        ck_assert(memcmp(a, b, sizeof(a)) == 0);
        rpl__fmt_seats(a, cap, seats, 0);
        ck_assert_str_eq(a, "");
    }
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
    /* 8 digits at a time, then the rest: every length up to 33 bytes
     * decodes what rpl__hex() wrote, and every byte that is no digit is
     * refused at every place. */
    for (size_t n = 1; n <= 33; n++) {
        uint8_t in[33], got[33];
        char h[67];

        for (size_t i = 0; i < n; i++)
            in[i] = (uint8_t)(37 * i + 11 * n + 5);
        rpl__hex(h, in, n);
        t.p = h;
        t.n = 2 * n;
        ck_assert(rpl__tok_hex(&t, got, n));
        ck_assert(memcmp(got, in, n) == 0);
        for (size_t at = 0; at < 2 * n; at++) {
            const char keep = h[at];

            for (unsigned c = 0; c < 256; c++) {
                const bool digit =
                    (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');

                h[at] = (char)c;
                ck_assert(!rpl__tok_hex(&t, got, n) == !digit);
            }
            h[at] = keep;
        }
    }
    /* Every byte that is no lowercase digit, at each place. */
    for (unsigned c = 0; c < 256; c++) {
        char h[5] = "0aff";
        const bool digit = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');

        for (size_t at = 0; at < 4; at++) {
            memcpy(h, "0aff", 4);
            h[at] = (char)c;
            t.p = h;
            t.n = 4;
            ck_assert(!rpl__tok_hex(&t, b, 2) == !digit);
        }
    }
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

START_TEST(escape)
{
    char out[64];

    ck_assert_uint_eq(rpl_text_escape("plain é", out, sizeof(out)), 8);
    ck_assert_str_eq(out, "plain é");
    ck_assert_uint_eq(rpl_text_escape("a\x1b[2J\x07\\\x7f", out, sizeof(out)),
                      18);
    ck_assert_str_eq(out, "a\\x1B[2J\\x07\\\\\\x7F");
    /* invalid UTF-8 byte by byte, C1 controls and format characters */
    rpl_text_escape("B\xff\xc2"
                    "b\xc2\x85",
                    out, sizeof(out));
    ck_assert_str_eq(out, "B\\xFF\\xC2b\\u{0085}");
    rpl_text_escape("D\xe2\x80\x8b\xe2\x80\xae\xe2\x80\xa8\xef\xbb\xbf", out,
                    sizeof(out));
    ck_assert_str_eq(out, "D\\u{200B}\\u{202E}\\u{2028}\\u{FEFF}");
    rpl_text_escape("\xf3\xa0\x80\x81x", out, sizeof(out));
    ck_assert_str_eq(out, "\\u{E0001}x");
    /* cut between whole sequences only, returning the whole length */
    ck_assert_uint_eq(rpl_text_escape("ab\x1b"
                                      "c",
                                      out, 5),
                      7);
    ck_assert_str_eq(out, "ab");
    ck_assert_uint_eq(rpl_text_escape("abc", NULL, 0), 3);
}
END_TEST

START_TEST(names_hidden)
{
    static const char *const refused[] = {
        "Dave\xe2\x80\x8b", /* U+200B zero width space */
        "\xe2\x80\xae"
        "evaD", /* U+202E right-to-left override */
        "a\xe2\x81\xa6"
        "b", /* U+2066 left-to-right isolate */
        "a\xe2\x80\xa8"
        "b", /* U+2028 line separator */
        "a\xe2\x80\xa9"
        "b", /* U+2029 paragraph separator */
        "\xef\xbb\xbf"
        "a", /* U+FEFF byte order mark */
        "a\xc2\xad"
        "b", /* U+00AD soft hyphen */
        "a\xe2\x81\xa0"
        "b",                 /* U+2060 word joiner */
        "\xe3\x85\xa4",      /* U+3164 Hangul filler */
        "a\xef\xb8\x8f",     /* U+FE0F variation selector */
        "a\xf3\xa0\x80\xa1", /* U+E0021 tag */
    };
    char out[RPL_MAX_NAME + 1];
    char quoted[32];
    const char *why = NULL;
    struct rpl__tok t;
    uint32_t bad = 0;

    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        snprintf(quoted, sizeof(quoted), "\"%s\"", refused[i]);
        t = tok(quoted);
        ck_assert_msg(!rpl__tok_name(&t, out, sizeof(out), &why), "%zu", i);
        ck_assert_ptr_nonnull(strstr(why, "U+"));
        ck_assert(!rpl__name_ok(refused[i], strlen(refused[i]), &bad));
        ck_assert(rpl__cp_is_hidden(bad));
    }
    /* letters, marks and spaces of other scripts stay */
    t = tok("\"Zoë Ω 李 \xd8\xb9\xd9\x84\xd9\x8a\"");
    ck_assert(rpl__tok_name(&t, out, sizeof(out), &why));
    ck_assert(rpl__name_ok("e\xcc\x81", 3, &bad)); /* e + U+0301 */
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
    tcase_add_loop_test(tc, split_every_offset, 0,
                        sizeof(at_offset) / sizeof(at_offset[0]));
    tcase_add_test(tc, split_token_lengths);
    tcase_add_test(tc, fmt_as_snprintf);
    tcase_add_test(tc, seat_tokens);
    tcase_add_test(tc, seat_lists);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, hex_one_spelling);
    tcase_add_test(tc, base64_one_spelling);
    tcase_add_test(tc, names);
    tcase_add_test(tc, names_hidden);
    tcase_add_test(tc, escape);
    tcase_add_test(tc, times);
    suite_add_tcase(s, tc);
    return s;
}
