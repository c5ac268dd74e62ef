/*
 * proof.c - proofs as text (camelog-tlog(1), "Proofs"):
 *
 *   camelog-tlog inclusion        camelog-tlog consistency
 *   size <entries>                old <entries>
 *   index <entry>                 size <entries>
 *   leaf <base64 hash>            <base64 hash>   (one a line, in
 *   <base64 hash>  ...                             RFC 6962 order)
 *
 * Decimal without leading zeros, padded standard base64 of 32 bytes, LF
 * after every line, nothing else.
 */
#include <sodium.h>
#include <string.h>

#include "tlog.h"

#define B64_LEN 44

static void
add_hash(struct rpl__buf *b, const uint8_t h[32])
{
    char s[B64_LEN + 1];

    sodium_bin2base64(s, sizeof(s), h, 32, sodium_base64_VARIANT_ORIGINAL);
    rpl__buf_add(b, s, B64_LEN);
    rpl__buf_add(b, "\n", 1);
}

enum rpl_status
rpl_tlog_proof_format(struct rpl_ctx *ctx, const struct rpl_tlog_proof *proof,
                      char **text, struct rpl_error *err)
{
    struct rpl__buf b;

    rpl__err_clear(err);
    *text = NULL;
    if (proof->count > RPL_TLOG_PROOF_MAX)
        return rpl__err(err, RPL_E_ARG, 0, "a proof of too many hashes");
    rpl__buf_init(&b, ctx);
    if (proof->kind == RPL_TLOG_INCLUSION) {
        rpl__buf_printf(&b,
                        "camelog-tlog inclusion\nsize %llu\nindex %llu\n"
                        "leaf ",
                        (unsigned long long)proof->size,
                        (unsigned long long)proof->index);
        add_hash(&b, proof->leaf);
    } else if (proof->kind == RPL_TLOG_CONSISTENCY) {
        rpl__buf_printf(&b, "camelog-tlog consistency\nold %llu\nsize %llu\n",
                        (unsigned long long)proof->old_size,
                        (unsigned long long)proof->size);
    } else {
        rpl__buf_release(&b);
        return rpl__err(err, RPL_E_ARG, 0, "not a proof");
    }
    for (size_t i = 0; i < proof->count; i++)
        add_hash(&b, proof->hash[i]);
    return rpl__buf_take(&b, text, err);
}

static bool
parse_hash(const char *s, size_t n, uint8_t out[32])
{
    char again[B64_LEN + 1];
    size_t got = 0;

    if (n != B64_LEN ||
        sodium_base642bin(out, 32, s, n, NULL, &got, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        got != 32)
        return false;
    sodium_bin2base64(again, sizeof(again), out, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    return memcmp(again, s, n) == 0;
}

/* "<key> <decimal>" into *v (at most 2^63 - 1). */
static bool
parse_kv(const char *l, size_t n, const char *key, uint64_t *v)
{
    const size_t k = strlen(key);
    uint64_t x = 0;

    if (n <= k + 1 || memcmp(l, key, k) != 0 || l[k] != ' ')
        return false;
    const char *s = l + k + 1;
    const size_t d = n - k - 1;
    if (d > 19 || (d > 1 && s[0] == '0'))
        return false;
    for (size_t i = 0; i < d; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        const uint64_t dig = (uint64_t)(s[i] - '0');
        if (x > (UINT64_C(0x7fffffffffffffff) - dig) / 10)
            return false;
        x = x * 10 + dig;
    }
    *v = x;
    return true;
}

static enum rpl_status
bad(struct rpl_error *err, size_t line, const char *want)
{
    return rpl__err(err, RPL_E_SYNTAX, line, "proof: expected %s", want);
}

enum rpl_status
rpl_tlog_proof_parse(const char *text, size_t len, struct rpl_tlog_proof *proof,
                     struct rpl_error *err)
{
    struct rpl__tlog_cursor c = {text, text + len, 0};
    struct rpl_tlog_proof *p = proof;
    const char *l;
    size_t n;

    rpl__err_clear(err);
    if (len > RPL_MAX_TLOG_PROOF_TEXT)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "proof: over RPL_MAX_TLOG_PROOF_TEXT (%u bytes)",
                        RPL_MAX_TLOG_PROOF_TEXT);
    memset(p, 0, sizeof(*p));
    if (!rpl__tlog_next_line(&c, &l, &n))
        return bad(err, 1, "\"camelog-tlog inclusion|consistency\"");
    if (n == 22 && memcmp(l, "camelog-tlog inclusion", 22) == 0) {
        p->kind = RPL_TLOG_INCLUSION;
        if (!rpl__tlog_next_line(&c, &l, &n) ||
            !parse_kv(l, n, "size", &p->size))
            return bad(err, c.no, "\"size <entries>\"");
        if (!rpl__tlog_next_line(&c, &l, &n) ||
            !parse_kv(l, n, "index", &p->index))
            return bad(err, c.no, "\"index <entry>\"");
        if (!rpl__tlog_next_line(&c, &l, &n) || n < 5 ||
            memcmp(l, "leaf ", 5) != 0 || !parse_hash(l + 5, n - 5, p->leaf))
            return bad(err, c.no, "\"leaf <base64 hash>\"");
    } else if (n == 24 && memcmp(l, "camelog-tlog consistency", 24) == 0) {
        p->kind = RPL_TLOG_CONSISTENCY;
        if (!rpl__tlog_next_line(&c, &l, &n) ||
            !parse_kv(l, n, "old", &p->old_size))
            return bad(err, c.no, "\"old <entries>\"");
        if (!rpl__tlog_next_line(&c, &l, &n) ||
            !parse_kv(l, n, "size", &p->size))
            return bad(err, c.no, "\"size <entries>\"");
    } else {
        return bad(err, 1, "\"camelog-tlog inclusion|consistency\"");
    }
    while (rpl__tlog_next_line(&c, &l, &n)) {
        if (p->count >= RPL_TLOG_PROOF_MAX)
            return rpl__err(err, RPL_E_LIMIT, c.no,
                            "proof: more than RPL_TLOG_PROOF_MAX (%u) hashes",
                            RPL_TLOG_PROOF_MAX);
        if (!parse_hash(l, n, p->hash[p->count]))
            return bad(err, c.no, "a base64 hash");
        p->count++;
    }
    if (c.p != c.end)
        return bad(err, c.no + 1, "a line ending with LF");
    return RPL_OK;
}
