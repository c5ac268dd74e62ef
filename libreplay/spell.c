/*
 * spell.c - the one spelling of every line and message of camelog(5)
 * that more than one part of the library (or a program) writes: the
 * messages a seal, a sig and a delivery's signature sign ("Byte-exact
 * definitions"), the lines a seat or the dealer adds of a value (entropy,
 * pledge, pledged, abandoned, sig, seal, reveal), the two forms of a
 * delivery, written and read, and the names of a game's progress in the
 * outputs.  No other file holds these strings:
 * tests/layout.sh fails on a second spelling.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"

/* The domains of camelog(5) "Byte-exact definitions", without their NUL. */
static const char SEAL_DOMAIN[] = "camelog seal v1";
static const char SIG_DOMAIN[] = "camelog sig v1";
static const char DELIVERY_DOMAIN[] = "camelog delivery v1";

_Static_assert(RPL__SEAL_MSG_LEN == sizeof(SEAL_DOMAIN) - 1 + RPL__HASH,
               "a seal message is the domain and a head");
_Static_assert(RPL__SIG_MSG_MAX ==
                   sizeof(SIG_DOMAIN) - 1 + RPL__HASH + RPL_MAX_LINE,
               "a sig message is the domain, a base and a whole line");
_Static_assert(RPL_SIG_MESSAGE_MAX >= RPL__SIG_MSG_MAX,
               "the public bound holds every sig message");
_Static_assert(RPL_DELIVERY_MESSAGE_MAX >=
                   sizeof(DELIVERY_DOMAIN) - 1 + 16 + 8 + 63 + 1 + 191 + 1 + 32,
               "a delivery message holds the longest label and value");

/* ----------------------------------------------------------- messages */

void
rpl__seal_message(uint8_t out[RPL__SEAL_MSG_LEN], const uint8_t head[RPL__HASH])
{
    memcpy(out, SEAL_DOMAIN, sizeof(SEAL_DOMAIN) - 1);
    memcpy(out + sizeof(SEAL_DOMAIN) - 1, head, RPL__HASH);
}

size_t
rpl__sig_message(uint8_t out[RPL__SIG_MSG_MAX], const uint8_t base[RPL__HASH],
                 const char *line, size_t len)
{
    size_t n = sizeof(SIG_DOMAIN) - 1;

    memcpy(out, SIG_DOMAIN, n);
    memcpy(out + n, base, RPL__HASH);
    n += RPL__HASH;
    memcpy(out + n, line, len);
    return n + len;
}

enum rpl_status
rpl_sig_message(const uint8_t base[32], const char *line, size_t len,
                uint8_t *msg, size_t cap, size_t *msg_len,
                struct rpl_error *err)
{
    const size_t n = sizeof(SIG_DOMAIN) - 1 + RPL__HASH + len;

    rpl__err_clear(err);
    if (len > RPL_MAX_LINE)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "line of %zu bytes: at most %u (RPL_MAX_LINE)", len,
                        RPL_MAX_LINE);
    if (n > cap)
        return rpl__err(err, RPL_E_ARG, 0,
                        "the message needs %zu bytes, the buffer has %zu", n,
                        cap);
    *msg_len = rpl__sig_message(msg, base, line, len);
    return RPL_OK;
}

void
rpl_delivery_message(const uint8_t id[16], const struct rpl_delivery *d,
                     uint8_t msg[RPL_DELIVERY_MESSAGE_MAX], size_t *len)
{
    const size_t ll = strnlen(d->label, sizeof(d->label) - 1);
    const size_t vl = strnlen(d->value, sizeof(d->value) - 1);
    size_t n = 0;
    uint64_t line = d->line;

    memcpy(msg, DELIVERY_DOMAIN, sizeof(DELIVERY_DOMAIN) - 1);
    n += sizeof(DELIVERY_DOMAIN) - 1;
    memcpy(msg + n, id, 16);
    n += 16;
    for (int i = 0; i < 8; i++)
        msg[n++] = (uint8_t)(line >> (8 * i));
    memcpy(msg + n, d->label, ll);
    n += ll;
    msg[n++] = 0;
    memcpy(msg + n, d->value, vl);
    n += vl;
    msg[n++] = 0;
    memcpy(msg + n, d->nonce, 32);
    n += 32;
    *len = n;
}

/* -------------------------------------------------------------- lines */

/* The base64 of a signature (88 characters and NUL). */
static void
sig_b64(char out[RPL__SIG_B64], const uint8_t sig[64])
{
    sodium_bin2base64(out, RPL__SIG_B64, sig, 64,
                      sodium_base64_VARIANT_ORIGINAL);
}

_Static_assert(RPL__SIG_B64 ==
                   sodium_base64_ENCODED_LEN(64,
                                             sodium_base64_VARIANT_ORIGINAL),
               "88 base64 digits and a NUL");

/* snprintf()'s length, 0 for an output error. */
static size_t
done(int n)
{
    return n < 0 ? 0 : (size_t)n;
}

/* "<word> pK <64 hex digits>". */
static size_t
seat_value(char *out, size_t cap, const char *word, size_t seat,
           const uint8_t v[32])
{
    char hex[2 * 32 + 1];
    int n;

    rpl__hex(hex, v, 32);
    n = snprintf(out, cap, "%s p%zu %s", word, seat, hex);
    sodium_memzero(hex, sizeof(hex));
    return done(n);
}

size_t
rpl__entropy_line(char *out, size_t cap, size_t seat, const uint8_t v[32])
{
    return seat_value(out, cap, "entropy", seat, v);
}

size_t
rpl__pledge_line(char *out, size_t cap, size_t seat, const uint8_t pledge[32])
{
    return seat_value(out, cap, "pledge", seat, pledge);
}

size_t
rpl__pledged_line(char *out, size_t cap, uint32_t seats)
{
    size_t n = done(snprintf(out, cap, "pledged "));

    for (size_t k = 1; k <= RPL_MAX_SEATS && n < cap; k++)
        if (seats & (1u << (k - 1)))
            n += done(snprintf(out + n, cap - n, "%sp%zu",
                               out[n - 1] == ' ' ? "" : ",", k));
    return n;
}

size_t
rpl__abandoned_line(char *out, size_t cap, size_t seat)
{
    return done(snprintf(out, cap, "abandoned p%zu", seat));
}

size_t
rpl__sig_line(char *out, size_t cap, size_t seat, const uint8_t sig[64])
{
    char b64[RPL__SIG_B64];

    sig_b64(b64, sig);
    return done(snprintf(out, cap, "sig p%zu %s", seat, b64));
}

bool
rpl_sig_line_parse(const char *line, size_t len, size_t seat, uint8_t sig[64])
{
    char prefix[32];
    const int n = snprintf(prefix, sizeof(prefix), "sig p%zu ", seat);
    const char *end = NULL;
    size_t got = 0;

    if (n <= 0 || len != (size_t)n + 88 || memcmp(line, prefix, (size_t)n))
        return false;
    return sodium_base642bin(sig, 64, line + n, 88, NULL, &got, &end,
                             sodium_base64_VARIANT_ORIGINAL) == 0 &&
           got == 64 && end == line + len;
}

size_t
rpl__seal_line(char *out, size_t cap, const uint8_t sig[64])
{
    char b64[RPL__SIG_B64];

    sig_b64(b64, sig);
    return done(snprintf(out, cap, "seal %s", b64));
}

size_t
rpl__reveal_line(char *out, size_t cap, const uint8_t secret[32])
{
    char hex[2 * 32 + 1];
    int n;

    rpl__hex(hex, secret, 32);
    n = snprintf(out, cap, "reveal %s", hex);
    sodium_memzero(hex, sizeof(hex));
    return done(n);
}

/* --------------------------------------------------------- deliveries */

/* Whether s is 1..max bytes of UTF-8 without control characters. */
static bool
text_ok(const char *s, size_t max, bool may_be_empty)
{
    const size_t n = strnlen(s, max + 1);

    if (n > max || (n == 0 && !may_be_empty))
        return false;
    return rpl__utf8_ok(s, n);
}

bool
rpl__delivery_ok(const struct rpl_delivery *d)
{
    return d->line > 0 && d->seat <= RPL_MAX_SEATS &&
           text_ok(d->label, sizeof(d->label) - 1, false) &&
           text_ok(d->value, sizeof(d->value) - 1, true);
}

/* Appends the quoted form of s ("\"" and "\\" escaped) at buf[*n];
 * false when it does not fit in cap (with the NUL). */
static bool
put_quoted(char *buf, size_t cap, size_t *n, const char *s)
{
    if (*n + 1 >= cap)
        return false;
    buf[(*n)++] = '"';
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') {
            if (*n + 1 >= cap)
                return false;
            buf[(*n)++] = '\\';
        }
        if (*n + 1 >= cap)
            return false;
        buf[(*n)++] = *s;
    }
    if (*n + 1 >= cap)
        return false;
    buf[(*n)++] = '"';
    buf[*n] = '\0';
    return true;
}

static bool
put_str(char *buf, size_t cap, size_t *n, const char *s)
{
    const size_t len = strlen(s);

    if (*n + len >= cap)
        return false;
    memcpy(buf + *n, s, len + 1);
    *n += len;
    return true;
}

size_t
rpl_delivery_format(const struct rpl_delivery *d, char *buf, size_t cap)
{
    char num[32];
    char hex[2 * 32 + 1];
    size_t n = 0;

    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (!rpl__delivery_ok(d))
        return 0;
    snprintf(num, sizeof(num), "delivery %zu ", d->line);
    rpl__hex(hex, d->nonce, sizeof(d->nonce));
    if (!put_str(buf, cap, &n, num) || !put_quoted(buf, cap, &n, d->label) ||
        !put_str(buf, cap, &n, " ") || !put_quoted(buf, cap, &n, d->value) ||
        !put_str(buf, cap, &n, " ") || !put_str(buf, cap, &n, hex)) {
        buf[0] = '\0';
        return 0;
    }
    if (d->has_sig) {
        char b64[RPL__SIG_B64];

        sig_b64(b64, d->sig);
        if (!put_str(buf, cap, &n, " ") || !put_str(buf, cap, &n, b64)) {
            buf[0] = '\0';
            return 0;
        }
    }
    return n;
}

size_t
rpl_delivery_format_json(const struct rpl_delivery *d, char *buf, size_t cap)
{
    char num[64];
    char hex[2 * 32 + 1];
    size_t n = 0;

    if (cap == 0)
        return 0;
    buf[0] = '\0';
    if (!rpl__delivery_ok(d))
        return 0;
    snprintf(num, sizeof(num), "{\"seat\":%zu,\"line\":%zu,\"label\":", d->seat,
             d->line);
    rpl__hex(hex, d->nonce, sizeof(d->nonce));
    /* Without control characters, JSON's escapes are the text form's. */
    if (!put_str(buf, cap, &n, num) || !put_quoted(buf, cap, &n, d->label) ||
        !put_str(buf, cap, &n, ",\"value\":") ||
        !put_quoted(buf, cap, &n, d->value) ||
        !put_str(buf, cap, &n, ",\"nonce\":\"") ||
        !put_str(buf, cap, &n, hex)) {
        buf[0] = '\0';
        return 0;
    }
    if (d->has_sig) {
        char b64[RPL__SIG_B64];

        sig_b64(b64, d->sig);
        if (!put_str(buf, cap, &n, "\",\"sig\":\"") ||
            !put_str(buf, cap, &n, b64)) {
            buf[0] = '\0';
            return 0;
        }
    }
    if (!put_str(buf, cap, &n, "\"}")) {
        buf[0] = '\0';
        return 0;
    }
    return n;
}

/* A cursor over the delivery being parsed. */
struct cur {
    const char *p;
    size_t left;
};

static bool
eat(struct cur *c, const char *s)
{
    const size_t n = strlen(s);

    if (n > c->left || memcmp(c->p, s, n) != 0)
        return false;
    c->p += n;
    c->left -= n;
    return true;
}

/* Decimal without leading zeros, at most max. */
static bool
eat_uint(struct cur *c, size_t max, size_t *v)
{
    size_t x = 0, i = 0;

    while (i < c->left && c->p[i] >= '0' && c->p[i] <= '9') {
        const size_t digit = (size_t)(c->p[i] - '0');

        if (i == 1 && c->p[0] == '0')
            return false;
        if (x > (max - digit) / 10)
            return false;
        x = x * 10 + digit;
        i++;
    }
    if (i == 0)
        return false;
    c->p += i;
    c->left -= i;
    *v = x;
    return true;
}

/* A quoted string with only \" and \\ escaped, into out (cap with NUL). */
static bool
eat_quoted(struct cur *c, char *out, size_t cap, bool may_be_empty)
{
    size_t n = 0;

    if (!eat(c, "\""))
        return false;
    for (;;) {
        char ch;

        if (c->left == 0)
            return false;
        ch = *c->p++;
        c->left--;
        if (ch == '"')
            break;
        if (ch == '\\') {
            if (c->left == 0 || (*c->p != '"' && *c->p != '\\'))
                return false;
            ch = *c->p++;
            c->left--;
        }
        if (n + 1 >= cap)
            return false;
        out[n++] = ch;
    }
    out[n] = '\0';
    if (n == 0 && !may_be_empty)
        return false;
    return rpl__utf8_ok(out, n);
}

/* The 88 base64 characters of a signature, canonical. */
static bool
eat_sig(struct cur *c, uint8_t sig[64])
{
    size_t bin_len = 0;
    char again[RPL__SIG_B64];

    if (c->left < 88)
        return false;
    if (sodium_base642bin(sig, 64, c->p, 88, NULL, &bin_len, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        bin_len != 64)
        return false;
    sig_b64(again, sig);
    if (memcmp(again, c->p, 88) != 0)
        return false;
    c->p += 88;
    c->left -= 88;
    return true;
}

static bool
eat_nonce(struct cur *c, uint8_t nonce[32])
{
    struct rpl__tok t;

    if (c->left < 64)
        return false;
    t.p = c->p;
    t.n = 64;
    if (!rpl__tok_hex(&t, nonce, 32))
        return false;
    c->p += 64;
    c->left -= 64;
    return true;
}

enum rpl_status
rpl_delivery_parse(const char *text, size_t len, struct rpl_delivery *out,
                   struct rpl_error *err)
{
    struct rpl_delivery d;
    struct cur c = {text, len};
    bool ok;

    rpl__err_clear(err);
    if (len > RPL_MAX_LINE)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "delivery of %zu bytes: at most %u (RPL_MAX_LINE)", len,
                        RPL_MAX_LINE);
    if (c.left > 0 && c.p[c.left - 1] == '\n')
        c.left--;
    memset(&d, 0, sizeof(d));
    if (c.left > 0 && c.p[0] == '{') {
        ok = eat(&c, "{\"seat\":") && eat_uint(&c, RPL_MAX_SEATS, &d.seat) &&
             d.seat > 0 && eat(&c, ",\"line\":") &&
             eat_uint(&c, SIZE_MAX, &d.line) && eat(&c, ",\"label\":") &&
             eat_quoted(&c, d.label, sizeof(d.label), false) &&
             eat(&c, ",\"value\":") &&
             eat_quoted(&c, d.value, sizeof(d.value), true) &&
             eat(&c, ",\"nonce\":\"") && eat_nonce(&c, d.nonce);
        if (ok && eat(&c, "\",\"sig\":\"")) {
            ok = eat_sig(&c, d.sig);
            d.has_sig = ok;
        }
        ok = ok && eat(&c, "\"}") && c.left == 0 && d.line > 0;
        if (!ok) {
            sodium_memzero(&d, sizeof(d));
            return rpl__err(err, RPL_E_SYNTAX, 0,
                            "expected {\"seat\":K,\"line\":N,\"label\":"
                            "\"...\",\"value\":\"...\",\"nonce\":\"<64 hex "
                            "digits>\"[,\"sig\":\"<base64>\"]}");
        }
    } else {
        ok = eat(&c, "delivery ") && eat_uint(&c, SIZE_MAX, &d.line) &&
             d.line > 0 && eat(&c, " ") &&
             eat_quoted(&c, d.label, sizeof(d.label), false) && eat(&c, " ") &&
             eat_quoted(&c, d.value, sizeof(d.value), true) && eat(&c, " ") &&
             eat_nonce(&c, d.nonce);
        if (ok && c.left > 0) {
            ok = eat(&c, " ") && eat_sig(&c, d.sig);
            d.has_sig = ok;
        }
        ok = ok && c.left == 0;
        if (!ok) {
            sodium_memzero(&d, sizeof(d));
            return rpl__err(err, RPL_E_SYNTAX, 0,
                            "expected \"delivery <line> \\\"<label>\\\" "
                            "\\\"<value>\\\" <64 hex digits> "
                            "[<base64 signature>]\"");
        }
    }
    *out = d;
    sodium_memzero(&d, sizeof(d));
    return RPL_OK;
}

void
rpl__delivery_json(struct rpl__buf *b, const struct rpl_delivery *d)
{
    char text[RPL_DELIVERY_MAX];

    if (rpl_delivery_format_json(d, text, sizeof(text)) > 0)
        rpl__buf_puts(b, text);
    else
        rpl__buf_puts(b, "null");
    sodium_memzero(text, sizeof(text));
}

/* -------------------------------------------------------------- names */

const char *
rpl_progress_name(enum rpl_progress progress)
{
    switch (progress) {
    case RPL_PROGRESS_IN_PROGRESS:
        return "in_progress";
    case RPL_PROGRESS_FINISHED:
        return "finished";
    case RPL_PROGRESS_COMPLETE:
        return "complete";
    }
    return "in_progress";
}

const char *
rpl_progress_text(enum rpl_progress progress)
{
    switch (progress) {
    case RPL_PROGRESS_IN_PROGRESS:
        return "in progress";
    case RPL_PROGRESS_FINISHED:
        return "finished, not revealed";
    case RPL_PROGRESS_COMPLETE:
        return "complete";
    }
    return "in progress";
}
