/*
 * delivery.c - the two forms of a delivery (camelog(5), "Deliveries"): a
 * private message of the dealer to one seat, as a line of text or a JSON
 * object, written and parsed with bounds, and the message the dealer signs
 * for it.  What a delivery says is checked against the log in seat.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"

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

void
rpl_delivery_message(const uint8_t id[16], const struct rpl_delivery *d,
                     uint8_t msg[RPL_DELIVERY_MESSAGE_MAX], size_t *len)
{
    static const char domain[] = "camelog delivery v1";
    const size_t ll = strnlen(d->label, sizeof(d->label) - 1);
    const size_t vl = strnlen(d->value, sizeof(d->value) - 1);
    size_t n = 0;
    uint64_t line = d->line;

    memcpy(msg, domain, sizeof(domain) - 1);
    n += sizeof(domain) - 1;
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

_Static_assert(RPL_DELIVERY_MESSAGE_MAX >= sizeof("camelog delivery v1") - 1 +
                                               16 + 8 + 63 + 1 + 191 + 1 + 32,
               "a delivery message holds the longest label and value");

/* The base64 of a delivery's signature (88 characters and NUL). */
static void
sig_b64(char out[89], const uint8_t sig[64])
{
    sodium_bin2base64(out, 89, sig, 64, sodium_base64_VARIANT_ORIGINAL);
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
        char b64[89];

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
        char b64[89];

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
    char again[89];

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
