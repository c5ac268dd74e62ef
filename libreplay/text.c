/*
 * text.c - the strict tokenizer for canonical lines and the token readers
 * and printers every line parser shares.
 *
 * A canonical line is tokens separated by single spaces, none leading or
 * trailing, valid UTF-8 without control characters.  A token starting
 * with '"' is a quoted string that runs to its closing quote, with \" and
 * \\ as the only escapes (seat names).  Every reader accepts one spelling
 * only: lowercase hex, padded base64, decimals without leading zeros.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"

/* Length of the UTF-8 sequence at s (n bytes left) and its code point;
 * 0 when it is not valid (overlong, surrogate, > U+10FFFF, cut). */
static size_t
utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    uint32_t c = s[0];
    size_t len;
    uint32_t min;

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        c &= 0x1f;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        c &= 0x0f;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        c &= 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}

size_t
rpl__utf8_len(const char *s, size_t n)
{
    uint32_t cp;

    return n ? utf8_next((const unsigned char *)s, n, &cp) : 0;
}

static bool
is_cc(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/* The code points a name may not hold (camelog(5) Seat names), as
 * ranges: the controls (Cc), every format character (Cf) of Unicode 15,
 * the line and paragraph separators (Zl, Zp), and the characters that
 * show nothing and are no space: the Hangul fillers, the combining
 * grapheme joiner, the Khmer inherent vowels, the variation selectors. */
static const struct {
    uint32_t lo, hi;
} hidden_cps[] = {
    {0x0000, 0x001f},   {0x007f, 0x009f},   {0x00ad, 0x00ad},
    {0x034f, 0x034f},   {0x0600, 0x0605},   {0x061c, 0x061c},
    {0x06dd, 0x06dd},   {0x070f, 0x070f},   {0x0890, 0x0891},
    {0x08e2, 0x08e2},   {0x115f, 0x1160},   {0x17b4, 0x17b5},
    {0x180b, 0x180f},   {0x200b, 0x200f},   {0x2028, 0x202e},
    {0x2060, 0x2064},   {0x2066, 0x206f},   {0x3164, 0x3164},
    {0xfe00, 0xfe0f},   {0xfeff, 0xfeff},   {0xffa0, 0xffa0},
    {0xfff9, 0xfffb},   {0x110bd, 0x110bd}, {0x110cd, 0x110cd},
    {0x13430, 0x1343f}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
    {0xe0001, 0xe0001}, {0xe0020, 0xe007f}, {0xe0100, 0xe01ef},
};

bool
rpl__cp_is_hidden(uint32_t cp)
{
    for (size_t i = 0; i < sizeof(hidden_cps) / sizeof(hidden_cps[0]); i++)
        if (cp >= hidden_cps[i].lo && cp <= hidden_cps[i].hi)
            return true;
    return false;
}

bool
rpl__name_ok(const char *s, size_t n, uint32_t *bad)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    while (i < n) {
        uint32_t cp;
        const size_t len = utf8_next(p + i, n - i, &cp);

        if (!len) {
            *bad = UINT32_MAX;
            return false;
        }
        if (rpl__cp_is_hidden(cp)) {
            *bad = cp;
            return false;
        }
        i += len;
    }
    return true;
}

size_t
rpl_text_escape(const char *s, char *out, size_t cap)
{
    static const char hexd[] = "0123456789ABCDEF";
    const unsigned char *p = (const unsigned char *)s;
    const size_t n = strlen(s);
    size_t len = 0;

    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        const size_t clen = utf8_next(p + i, n - i, &cp);
        char esc[16];
        size_t elen = 0;

        if (!clen || cp < 0x80) {
            const unsigned c = p[i];

            if (clen && c == '\\') {
                esc[elen++] = '\\';
                esc[elen++] = '\\';
            } else if (!clen || c < 0x20 || c == 0x7f) {
                esc[elen++] = '\\';
                esc[elen++] = 'x';
                esc[elen++] = hexd[c >> 4];
                esc[elen++] = hexd[c & 15];
            } else {
                esc[elen++] = (char)c;
            }
            i++;
        } else if (rpl__cp_is_hidden(cp)) {
            elen =
                (size_t)snprintf(esc, sizeof(esc), "\\u{%04X}", (unsigned)cp);
            i += clen;
        } else {
            memcpy(esc, p + i, clen);
            elen = clen;
            i += clen;
        }
        /* Whole sequences only, so a cut output is still UTF-8. */
        if (cap > 0 && len + elen < cap)
            memcpy(out + len, esc, elen);
        else if (cap > 0 && len < cap)
            cap = len + 1;
        len += elen;
    }
    if (cap > 0)
        out[len < cap ? len : cap - 1] = '\0';
    return len;
}

bool
rpl__utf8_ok(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;

    while (i < n) {
        uint32_t cp;
        const size_t len = utf8_next(p + i, n - i, &cp);

        if (!len || is_cc(cp))
            return false;
        i += len;
    }
    return true;
}

/* Whether the word x holds a byte that is not printable ASCII
 * (0x20..0x7e), as high bits: in t = x - 0x20.., a byte below 0x20
 * wraps to 0xe0 and up, and t + 0x21 has its high bit set for a byte
 * from 0x7f up.  A borrow or carry can flag a good byte next to a bad
 * one, never a word without a bad byte: zero means all 8 are good. */
static uint64_t
ascii8_bad(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101u;
    const uint64_t t = x - 0x20 * ones;

    return (t | (t + 0x21 * ones)) & (0x80 * ones);
}

/* Whether s[0..n) is all printable ASCII, 8 bytes at a time; the last
 * word may overlap the one before it. */
static bool
ascii_ok(const unsigned char *s, size_t n)
{
    uint64_t bad = 0;

    if (n < 8) {
        for (size_t i = 0; i < n; i++)
            if (s[i] < 0x20 || s[i] >= 0x7f)
                return false;
        return true;
    }
    for (size_t i = 0; i + 8 <= n; i += 8)
        bad |= ascii8_bad(rpl__load_le64(s + i));
    return !(bad | ascii8_bad(rpl__load_le64(s + n - 8)));
}

/* The spaces of the word x, each as the high bit of its byte, exactly:
 * in y = x ^ 0x20.., the high bit of ((y & 0x7f..) + 0x7f..) | y is clear
 * for a zero byte only, and no carry crosses a byte. */
static uint64_t
spaces8(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101u;
    const uint64_t y = x ^ (0x20 * ones);

    return ~(((y & 0x7f * ones) + 0x7f * ones) | y) & (0x80 * ones);
}

/* The offset of the first space in text[i..len), len when none: 8 bytes
 * at a time (byte k of a word is its bits 8k..8k+7), the last word
 * ending at len and shifted past the bytes before i. */
static size_t
next_space(const char *text, size_t i, size_t len)
{
    const uint8_t *p = (const uint8_t *)text;
    uint64_t m;

    for (; len - i >= 8; i += 8) {
        m = spaces8(rpl__load_le64(p + i));
        if (m)
            return i + (size_t)__builtin_ctzll(m) / 8;
    }
    if (i == len)
        return len;
    if (len < 8) {
        while (i < len && text[i] != ' ')
            i++;
        return i;
    }
    m = spaces8(rpl__load_le64(p + len - 8)) >> (8 * (8 - (len - i)));
    return m ? i + (size_t)__builtin_ctzll(m) / 8 : len;
}

enum rpl_status
rpl__line_split(struct rpl__line *ln, const char *text, size_t len, size_t no,
                struct rpl_error *err)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t i = 0;

    ln->no = no;
    ln->text = text;
    ln->len = len;
    ln->ntok = 0;
    if (len == 0)
        return rpl__err(err, RPL_E_SYNTAX, no, "empty line");
    /* The whole line is checked before its tokens, so that a bad byte
     * is reported wherever it is: at once when it is printable ASCII,
     * else character by character. */
    if (!ascii_ok(p, len)) {
        while (i < len) {
            uint32_t cp;
            const size_t clen = utf8_next(p + i, len - i, &cp);

            if (!clen)
                return rpl__err(err, RPL_E_SYNTAX, no,
                                "invalid UTF-8 at byte %zu", i + 1);
            if (is_cc(cp))
                return rpl__err(err, RPL_E_SYNTAX, no,
                                "control character U+%04X at byte %zu",
                                (unsigned)cp, i + 1);
            i += clen;
        }
    }
    for (i = 0; i < len;) {
        const size_t start = i;

        if (text[i] == ' ')
            return rpl__err(err, RPL_E_SYNTAX, no,
                            i == 0 ? "line starts with a space"
                                   : "two spaces in a row at byte %zu",
                            i + 1);
        if (ln->ntok == RPL_MAX_TOKENS)
            return rpl__err(err, RPL_E_LIMIT, no,
                            "more than %u tokens (RPL_MAX_TOKENS)",
                            RPL_MAX_TOKENS);
        if (text[i] == '"') {
            for (i++; i < len && text[i] != '"'; i++)
                if (text[i] == '\\' && i + 1 < len)
                    i++;
            if (i >= len)
                return rpl__err(err, RPL_E_SYNTAX, no,
                                "quoted string not closed");
            i++;
            if (i < len && text[i] != ' ')
                return rpl__err(err, RPL_E_SYNTAX, no,
                                "expected a space after the closing quote");
        } else {
            i = next_space(text, i, len);
        }
        ln->tok[ln->ntok].p = text + start;
        ln->tok[ln->ntok].n = i - start;
        ln->ntok++;
        if (i < len) {
            i++; /* the single space */
            if (i == len)
                return rpl__err(err, RPL_E_SYNTAX, no,
                                "line ends with a space");
        }
    }
    return RPL_OK;
}

int
rpl__tok_find(const struct rpl__tok *t, const char *const *names, size_t n)
{
    if (t->n == 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (names[i][0] == t->p[0] && rpl__word_is(names[i], t->p, t->n))
            return (int)i;
    return -1;
}

bool
rpl__tok_uint(const struct rpl__tok *t, unsigned long max, unsigned long *v)
{
    unsigned long x = 0;

    if (t->n == 0 || t->n > 10 || (t->n > 1 && t->p[0] == '0'))
        return false;
    for (size_t i = 0; i < t->n; i++) {
        if (t->p[i] < '0' || t->p[i] > '9')
            return false;
        x = x * 10 + (unsigned long)(t->p[i] - '0');
    }
    if (x > max)
        return false;
    *v = x;
    return true;
}

bool
rpl__tok_seat(const struct rpl__tok *t, size_t seats, size_t *seat)
{
    struct rpl__tok num;
    unsigned long k;

    if (t->n < 2 || t->p[0] != 'p')
        return false;
    if (t->n == 2) {
        /* p1..p9, most seats, without the general reader. */
        const unsigned d = (unsigned)(unsigned char)t->p[1] - '0';

        if (d == 0 || d > 9 || d > seats)
            return false;
        *seat = d;
        return true;
    }
    num.p = t->p + 1;
    num.n = t->n - 1;
    if (!rpl__tok_uint(&num, seats, &k) || k == 0)
        return false;
    *seat = (size_t)k;
    return true;
}

/* The bytes of the word x that are no lowercase hex digit, as high
 * bits (zero: all 8 are digits), and their values in *v.  For a byte b
 * below 0x80, b + (0x80 - lo) has its high bit set when b >= lo and
 * carries into no other byte; a byte from 0x80 up is flagged itself. */
static uint64_t
hex8(uint64_t x, uint64_t *v)
{
    const uint64_t ones = 0x0101010101010101u;
    const uint64_t high = 0x80 * ones;
    const uint64_t digit =
        (x + (0x80 - '0') * ones) & ~(x + (0x7f - '9') * ones);
    const uint64_t letter =
        (x + (0x80 - 'a') * ones) & ~(x + (0x7f - 'f') * ones);

    *v = (x & 0x0f * ones) + ((letter & high) >> 7) * 9;
    return (x & high) | (~(digit | letter) & high);
}

/* One more than the value of each lowercase hex digit, 0 for every
 * other byte, for the digits left over after whole words. */
static const uint8_t hex_digit[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
    ['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

bool
rpl__tok_hex(const struct rpl__tok *t, uint8_t *out, size_t n)
{
    const unsigned char *p = (const unsigned char *)t->p;
    uint64_t bad = 0;
    size_t i = 0;

    if (t->n != 2 * n)
        return false;
    /* 8 digits make 4 bytes: the value of digit 2k (byte 2k of the
     * little-endian word) is the high nibble of byte k. */
    for (; i + 4 <= n; i += 4) {
        const uint64_t lanes = 0x00ff00ff00ff00ffu;
        uint64_t v;
        uint64_t q;

        bad |= hex8(rpl__load_le64(p + 2 * i), &v);
        q = (((v & lanes) << 4) | ((v >> 8) & lanes)) & lanes;
        q = (q | q >> 8) & 0x0000ffff0000ffffu;
        q = (q | q >> 16) & 0xffffffffu;
        rpl__store_le32(out + i, (uint32_t)q);
    }
    /* A digit that is none makes its (value - 1) wrap. */
    for (; i < n; i++) {
        const unsigned hi = hex_digit[p[2 * i]];
        const unsigned lo = hex_digit[p[2 * i + 1]];

        bad |= (hi - 1) | (lo - 1);
        out[i] = (uint8_t)((hi - 1) << 4 | (lo - 1));
    }
    return bad < 16;
}

bool
rpl__tok_b64(const struct rpl__tok *t, uint8_t *out, size_t n)
{
    const int variant = sodium_base64_VARIANT_ORIGINAL;
    char again[132];
    size_t got = 0;
    const char *end = NULL;

    if (n > 96 || t->n + 1 != sodium_base64_ENCODED_LEN(n, variant))
        return false;
    if (sodium_base642bin(out, n, t->p, t->n, NULL, &got, &end, variant) != 0 ||
        got != n || end != t->p + t->n)
        return false;
    /* One spelling: the unused bits of the last digit must be zero. */
    sodium_bin2base64(again, sizeof(again), out, n, variant);
    return memcmp(again, t->p, t->n) == 0;
}

bool
rpl__tok_time(const struct rpl__tok *t)
{
    static const unsigned char mdays[12] = {31, 28, 31, 30, 31, 30,
                                            31, 31, 30, 31, 30, 31};
    /* YYYY-MM-DDTHH:MM:SSZ */
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    unsigned v[6] = {0};
    static const unsigned char at[6] = {0, 5, 8, 11, 14, 17};
    static const unsigned char width[6] = {4, 2, 2, 2, 2, 2};
    unsigned y, m, d;
    bool leap;

    if (t->n != sizeof(shape) - 1)
        return false;
    for (size_t i = 0; i < t->n; i++) {
        if (shape[i] == 'd') {
            if (t->p[i] < '0' || t->p[i] > '9')
                return false;
        } else if (t->p[i] != shape[i]) {
            return false;
        }
    }
    for (size_t f = 0; f < 6; f++)
        for (size_t i = 0; i < width[f]; i++)
            v[f] = v[f] * 10 + (unsigned)(t->p[at[f] + i] - '0');
    y = v[0];
    m = v[1];
    d = v[2];
    if (m < 1 || m > 12 || d < 1 || v[3] > 23 || v[4] > 59 || v[5] > 59)
        return false;
    leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= mdays[m - 1] + (m == 2 && leap ? 1u : 0u);
}

bool
rpl__tok_kv(const struct rpl__tok *t, const char *key, struct rpl__tok *val)
{
    const size_t k = strlen(key);

    if (t->n <= k || memcmp(t->p, key, k) != 0 || t->p[k] != '=')
        return false;
    val->p = t->p + k + 1;
    val->n = t->n - k - 1;
    return true;
}

bool
rpl__tok_seats(const struct rpl__tok *t, size_t seats, uint8_t *out, size_t max,
               size_t *count)
{
    size_t i = 0;
    size_t n = 0;

    if (t->n == 0)
        return false;
    while (i <= t->n) {
        struct rpl__tok one;
        size_t seat;
        size_t j = i;

        while (j < t->n && t->p[j] != ',')
            j++;
        one.p = t->p + i;
        one.n = j - i;
        if (n == max || !rpl__tok_seat(&one, seats, &seat))
            return false;
        if (n > 0 && seat <= out[n - 1])
            return false;
        out[n++] = (uint8_t)seat;
        i = j + 1;
    }
    *count = n;
    return true;
}

/* The reason a name holding code point cp is refused: a fixed text per
 * kind, since *why outlives the call. */
static const char *
name_refusal(uint32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
        return "name holds a control character (camelog(5), Seat names)";
    if (cp == 0x2028 || cp == 0x2029)
        return "name holds a line or paragraph separator (U+2028, U+2029)";
    if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
        cp == 0x200e || cp == 0x200f || cp == 0x061c)
        return "name holds a direction control (U+200E, U+200F, U+202A to "
               "U+202E, U+2066 to U+2069, U+061C)";
    return "name holds a format or invisible character such as U+200B or "
           "U+FEFF (camelog(5), Seat names)";
}

bool
rpl__tok_name(const struct rpl__tok *t, char *out, size_t cap, const char **why)
{
    size_t n = 0;
    uint32_t bad = 0;

    if (t->n < 2 || t->p[0] != '"' || t->p[t->n - 1] != '"') {
        *why = "expected a quoted name";
        return false;
    }
    for (size_t i = 1; i + 1 < t->n; i++) {
        char c = t->p[i];

        if (c == '"') {
            *why = "unescaped quote in name";
            return false;
        }
        if (c == '\\') {
            c = t->p[++i];
            if (i + 1 >= t->n || (c != '"' && c != '\\')) {
                *why = "only \\\" and \\\\ may be escaped in a name";
                return false;
            }
        }
        if (n + 1 >= cap || n >= RPL_MAX_NAME) {
            *why = "name longer than 64 bytes (RPL_MAX_NAME)";
            return false;
        }
        out[n++] = c;
    }
    out[n] = '\0';
    if (n == 0) {
        *why = "empty name";
        return false;
    }
    if (!rpl__name_ok(out, n, &bad)) {
        *why =
            bad == UINT32_MAX ? "name is not valid UTF-8" : name_refusal(bad);
        return false;
    }
    return true;
}

void
rpl__buf_quote(struct rpl__buf *b, const char *name)
{
    rpl__buf_add(b, "\"", 1);
    for (const char *s = name; *s; s++) {
        if (*s == '"' || *s == '\\')
            rpl__buf_add(b, "\\", 1);
        rpl__buf_add(b, s, 1);
    }
    rpl__buf_add(b, "\"", 1);
}

void
rpl__hex(char *out, const uint8_t *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";

    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

/* Appends c at out[*len] while there is room for it and the NUL; *len
 * counts every byte, as snprintf() counts. */
static void
fmt_putc(char *out, size_t cap, size_t *len, char c)
{
    if (*len + 1 < cap)
        out[*len] = c;
    (*len)++;
}

size_t
rpl__fmt(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    size_t len = 0;

    va_start(ap, fmt);
    for (const char *f = fmt; *f; f++) {
        char digits[24];
        size_t v = 0;
        size_t d = sizeof(digits);

        if (*f != '%') {
            fmt_putc(out, cap, &len, *f);
            continue;
        }
        if (f[1] == 's') {
            for (const char *str = va_arg(ap, const char *); *str; str++)
                fmt_putc(out, cap, &len, *str);
            f++;
            continue;
        }
        if (f[1] == 'u') {
            v = va_arg(ap, unsigned);
            f++;
        } else if (f[1] == 'z' && f[2] == 'u') {
            v = va_arg(ap, size_t);
            f += 2;
        } else {
            /* Our own format strings only: another conversion is a bug. */
            assert(!"rpl__fmt: only %s, %u and %zu");
            break;
        }
        do {
            digits[--d] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (d < sizeof(digits))
            fmt_putc(out, cap, &len, digits[d++]);
    }
    va_end(ap);
    if (cap > 0)
        out[len < cap ? len : cap - 1] = '\0';
    return len;
}

void
rpl__fmt_seats(char *out, size_t cap, const uint8_t *seats, size_t n)
{
    size_t len = 0;

    if (cap == 0)
        return;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++)
        len += rpl__fmt(out + len, cap - len, "%sp%u", i ? "," : "",
                        (unsigned)seats[i]);
}

void
rpl__tok_show(char *out, size_t cap, const struct rpl__tok *t)
{
    const size_t max = 60;
    size_t n = t->n > max ? max : t->n;

    if (cap == 0)
        return;
    if (n + 4 > cap)
        n = cap > 4 ? cap - 4 : 0;
    /* Never cut a UTF-8 sequence in two. */
    while (n > 0 && n < t->n && ((unsigned char)t->p[n] & 0xc0) == 0x80)
        n--;
    memcpy(out, t->p, n);
    if (n < t->n)
        memcpy(out + n, "...", 4);
    else
        out[n] = '\0';
}

bool
rpl__import_source_ok(const struct rpl__tok *t)
{
    if (t->n == 0 || t->n > 64)
        return false;
    for (size_t i = 0; i < t->n; i++) {
        const char c = t->p[i];

        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '-'))
            return false;
    }
    return true;
}

bool
rpl__import_id_ok(const struct rpl__tok *t)
{
    if (t->n == 0 || t->n > 128)
        return false;
    for (size_t i = 0; i < t->n; i++)
        if (t->p[i] < 0x21 || t->p[i] > 0x7e || t->p[i] == '"')
            return false;
    return true;
}

enum rpl_status
rpl__err_expected(struct rpl_error *err, enum rpl_status code,
                  const struct rpl__line *ln, const char *want)
{
    const struct rpl__tok all = {ln->text, ln->len};
    char got[64];

    rpl__tok_show(got, sizeof(got), &all);
    return rpl__err(err, code, ln->no, "expected \"%s\", got \"%s\"", want,
                    got);
}

bool
rpl__list_next(const char **list, const char **word, size_t *len)
{
    const char *const p = *list;

    if (!p)
        return false;
    *word = p;
    *len = strcspn(p, ",");
    *list = p[*len] == ',' ? p + *len + 1 : NULL;
    return true;
}

size_t
rpl__label_seat(const char *label, size_t seats)
{
    const char *s = strrchr(label, ' ');
    struct rpl__tok t;
    size_t seat = 0;

    s = s ? s + 1 : label;
    t.p = s;
    t.n = strlen(s);
    return rpl__tok_seat(&t, seats, &seat) ? seat : 0;
}

const char *const *
rpl_seat_default_names(void)
{
    static const char *const names[RPL_SEATS_MAX] = {
        "Alice", "Bob",   "Carol", "Dave", "Erin",
        "Frank", "Grace", "Heidi", "Ivan", "Judy",
    };

    return names;
}
