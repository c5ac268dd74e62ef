/*
 * note.c - checkpoints as C2SP signed notes (tlog-checkpoint,
 * signed-note): the body "<origin>\n<size>\n<base64 root>\n" and any
 * extension lines, an empty line, then one line per signature,
 * "\u2014 <key name> <base64 of key hash[4] || Ed25519 signature[64]>".
 * The key hash is the first four bytes of SHA-256(name || 0x0A || 0x01 ||
 * public key); the signature covers the body.  Parsing is bounded and
 * accepts only what the specifications allow.
 */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "tlog.h"

/* U+2014 EM DASH and a space begin every signature line. */
static const char dash[] = "\xe2\x80\x94 ";
#define DASH_LEN 4
/* The most signature lines a note may carry (witnesses included). */
#define MAX_SIGS 100

bool
rpl__tlog_origin_ok(const char *s, size_t n)
{
    if (n == 0 || n > RPL_TLOG_ORIGIN_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)s[i];

        if (c <= 0x20 || c >= 0x7f || c == '+')
            return false;
    }
    return true;
}

static void
key_hash(uint8_t out[4], const char *name, const struct rpl_pubkey *pk)
{
    crypto_hash_sha256_state st;
    uint8_t h[32];
    const uint8_t sep[2] = {0x0a, 0x01};

    crypto_hash_sha256_init(&st);
    crypto_hash_sha256_update(&st, (const uint8_t *)name, strlen(name));
    crypto_hash_sha256_update(&st, sep, 2);
    crypto_hash_sha256_update(&st, pk->key, 32);
    crypto_hash_sha256_final(&st, h);
    memcpy(out, h, 4);
}

enum rpl_status
rpl_tlog_vkey(const struct rpl_pubkey *pk, const char *name,
              char out[RPL_TLOG_VKEY_MAX], struct rpl_error *err)
{
    uint8_t kh[4], typed[33];
    char b64[sodium_base64_ENCODED_LEN(33, sodium_base64_VARIANT_ORIGINAL)];

    rpl__err_clear(err);
    if (!rpl__tlog_origin_ok(name, strlen(name)))
        return rpl__err(err, RPL_E_ARG, 0,
                        "a key name is 1 to %u printable ASCII bytes, no "
                        "space or '+'",
                        RPL_TLOG_ORIGIN_MAX);
    key_hash(kh, name, pk);
    typed[0] = 0x01;
    memcpy(typed + 1, pk->key, 32);
    sodium_bin2base64(b64, sizeof(b64), typed, sizeof(typed),
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(out, RPL_TLOG_VKEY_MAX, "%s+%02x%02x%02x%02x+%s", name, kh[0],
             kh[1], kh[2], kh[3], b64);
    return RPL_OK;
}

enum rpl_status
rpl__tlog_note_sign(struct rpl_ctx *ctx, const struct rpl_seckey *sk,
                    const struct rpl_tlog_checkpoint *cp, char **out,
                    size_t *len, struct rpl_error *err)
{
    struct rpl_pubkey pk;
    struct rpl__buf b;
    char root[sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_ORIGINAL)];
    char sigb64[sodium_base64_ENCODED_LEN(68, sodium_base64_VARIANT_ORIGINAL)];
    uint8_t sig[68];
    enum rpl_status rc;

    rpl_seckey_pubkey(sk, &pk);
    sodium_bin2base64(root, sizeof(root), cp->root, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    rpl__buf_init(&b, ctx);
    rpl__buf_printf(&b, "%s\n%llu\n%s\n", cp->origin,
                    (unsigned long long)cp->size, root);
    if (b.failed) {
        rpl__buf_release(&b);
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    key_hash(sig, cp->origin, &pk);
    rpl__sign(sk, (const uint8_t *)b.p, b.len, sig + 4);
    sodium_bin2base64(sigb64, sizeof(sigb64), sig, sizeof(sig),
                      sodium_base64_VARIANT_ORIGINAL);
    rpl__buf_printf(&b, "\n%s%s %s\n", dash, cp->origin, sigb64);
    const size_t n = b.len;
    rc = rpl__buf_take(&b, out, err);
    if (rc == RPL_OK)
        *len = n;
    return rc;
}

/* Decimal without leading zeros, at most 2^63 - 1 (what Go's ParseInt
 * and every int64 reader take). */
static bool
parse_u63(const char *s, size_t n, uint64_t *v)
{
    uint64_t x = 0;

    if (n == 0 || n > 19 || (n > 1 && s[0] == '0'))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        const uint64_t d = (uint64_t)(s[i] - '0');
        if (x > (UINT64_C(0x7fffffffffffffff) - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *v = x;
    return true;
}

/* Canonical padded base64 of exactly n bytes (n <= 68). */
static bool
parse_b64(const char *s, size_t len, uint8_t *out, size_t n)
{
    char again[sodium_base64_ENCODED_LEN(68, sodium_base64_VARIANT_ORIGINAL)];
    size_t got = 0;

    if (len != sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL) - 1)
        return false;
    if (sodium_base642bin(out, n, s, len, NULL, &got, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        got != n)
        return false;
    sodium_bin2base64(again, sizeof(again), out, n,
                      sodium_base64_VARIANT_ORIGINAL);
    return memcmp(again, s, len) == 0;
}

static enum rpl_status
bad(struct rpl_error *err, size_t line, const char *what)
{
    return rpl__err(err, RPL_E_SYNTAX, line, "checkpoint: %s", what);
}

/* Checks the note's shape and reads its body; with pk, verifies pk's
 * signature under name (NULL: the origin). */
static enum rpl_status
note_parse(const char *text, size_t len, const struct rpl_pubkey *pk,
           const char *name, struct rpl_tlog_checkpoint *cp,
           struct rpl_error *err)
{
    struct rpl_tlog_checkpoint c;
    size_t body_len = 0, line = 1;

    if (len > RPL_MAX_TLOG_NOTE)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "checkpoint: over RPL_MAX_TLOG_NOTE (%u bytes)",
                        RPL_MAX_TLOG_NOTE);
    if (len == 0 || text[len - 1] != '\n')
        return bad(err, 0, "the last line does not end with a newline");
    for (size_t i = 0; i < len; i++) {
        const unsigned char ch = (unsigned char)text[i];

        if ((ch < 0x20 && ch != '\n') || ch == 0x7f)
            return bad(err, 0, "a control character");
    }
    /* Body and signatures part at the last empty line. */
    for (size_t i = len - 1; i > 0; i--) {
        if (text[i] == '\n' && text[i - 1] == '\n') {
            body_len = i; /* the body ends with text[i - 1] */
            break;
        }
    }
    if (body_len == 0)
        return bad(err, 0, "no empty line before the signatures");
    if (body_len < 2)
        return bad(err, 1, "no body");

    /* The body: origin, size, root, then extension lines. */
    const char *p = text, *const end = text + body_len;
    const char *fields[3];
    size_t flen[3];
    for (size_t k = 0; p < end; k++, line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const size_t n = (size_t)(nl - p);

        if (n == 0)
            return bad(err, line, "an empty line in the body");
        if (!rpl__utf8_ok(p, n))
            return bad(err, line, "not UTF-8");
        if (k < 3) {
            fields[k] = p;
            flen[k] = n;
        }
        p = nl + 1;
    }
    if (line <= 3)
        return bad(err, line, "expected an origin, a size and a root hash");
    if (!rpl__tlog_origin_ok(fields[0], flen[0]))
        return bad(err, 1,
                   "expected an origin of printable ASCII, no space or '+'");
    memcpy(c.origin, fields[0], flen[0]);
    c.origin[flen[0]] = '\0';
    if (!parse_u63(fields[1], flen[1], &c.size))
        return bad(err, 2, "expected the tree size in decimal");
    if (!parse_b64(fields[2], flen[2], c.root, 32))
        return bad(err, 3, "expected the root hash in base64");

    /* The signature lines. */
    const char *const key_name = name ? name : c.origin;
    uint8_t want[4];
    bool is_verified = false, is_bad = false;
    size_t sigs = 0;
    if (pk)
        key_hash(want, key_name, pk);
    p = text + body_len + 1;
    line++;
    for (; p < text + len; line++) {
        const char *nl = memchr(p, '\n', (size_t)(text + len - p));
        const size_t n = (size_t)(nl - p);
        uint8_t sig[68];

        if (++sigs > MAX_SIGS)
            return rpl__err(err, RPL_E_LIMIT, line,
                            "checkpoint: more than %d signatures", MAX_SIGS);
        if (n < DASH_LEN || memcmp(p, dash, DASH_LEN) != 0)
            return bad(err, line, "expected a signature line");
        const char *nm = p + DASH_LEN;
        const char *sp = memchr(nm, ' ', (size_t)(nl - nm));
        if (!sp || !rpl__utf8_ok(nm, (size_t)(nl - nm)))
            return bad(err, line, "expected \"\u2014 <name> <signature>\"");
        const size_t nm_len = (size_t)(sp - nm),
                     b64_len = (size_t)(nl - sp - 1);
        if (nm_len == 0 || memchr(nm, '+', nm_len) || b64_len == 0 ||
            memchr(sp + 1, ' ', b64_len))
            return bad(err, line, "expected \"\u2014 <name> <signature>\"");
        const bool is_ours = pk && nm_len == strlen(key_name) &&
                             memcmp(nm, key_name, nm_len) == 0;
        if (is_ours && parse_b64(sp + 1, b64_len, sig, 68) &&
            memcmp(sig, want, 4) == 0) {
            if (rpl__verify(pk, (const uint8_t *)text, body_len, sig + 4))
                is_verified = true;
            else
                is_bad = true;
        }
        p = nl + 1;
    }
    if (pk && is_bad)
        return rpl__err(err, RPL_E_SEAL, 0,
                        "checkpoint: the signature by %s does not verify",
                        key_name);
    if (pk && !is_verified)
        return rpl__err(err, RPL_E_SEAL, 0,
                        "checkpoint: no signature by the key %s+%02x%02x%02x"
                        "%02x",
                        key_name, want[0], want[1], want[2], want[3]);
    if (name && strcmp(name, c.origin) != 0)
        return rpl__err(err, RPL_E_SEAL, 1,
                        "checkpoint: origin \"%s\", expected \"%s\"", c.origin,
                        name);
    *cp = c;
    return RPL_OK;
}

enum rpl_status
rpl_tlog_checkpoint_parse(const char *text, size_t len,
                          const struct rpl_pubkey *pk, const char *origin,
                          struct rpl_tlog_checkpoint *cp, struct rpl_error *err)
{
    rpl__err_clear(err);
    return note_parse(text, len, pk, origin, cp, err);
}

enum rpl_status
rpl__tlog_note_peek(const char *text, size_t len,
                    struct rpl_tlog_checkpoint *cp, struct rpl_error *err)
{
    return note_parse(text, len, NULL, NULL, cp, err);
}
