/*
 * floor.c - the floor of verify for `make bench`: what no verifier of a
 * sealed log can skip.  It reads and inflates a file, chains every line
 * and checks every seal (one Ed25519 verification each) against the
 * chain head before it, exactly that; no parsing beyond finding the
 * seal lines, no rules, no commitments.  verify's overhead is measured
 * against it, on the same files in the same run.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "floor.h"
#include "internal.h"

bool
bench_floor_check(struct rpl_ctx *ctx, const char *path,
                  const struct rpl_pubkey *dealer, size_t *seals)
{
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    char *text = NULL;
    size_t len = 0, nseals = 0;
    uint8_t head[32] = {0};
    uint8_t sig[64];
    const char *p;
    bool ok = false;
    struct rpl__tok t;

    if (rpl__file_read(ctx, path, RPL_MAX_COMPRESSED, &raw, &raw_len, NULL) !=
            RPL_OK ||
        rpl__gz_inflate(ctx, raw, raw_len, &text, &len, NULL) != RPL_OK)
        goto out;
    for (p = text; p < text + len;) {
        const char *nl = memchr(p, '\n', (size_t)(text + len - p));

        if (!nl)
            goto out;
        if (strncmp(p, "seal ", 5) == 0) {
            t.p = p + 5;
            t.n = (size_t)(nl - t.p);
            if (!rpl__tok_b64(&t, sig, sizeof(sig)) ||
                !rpl__seal_verify(dealer, head, sig))
                goto out;
            nseals++;
        }
        rpl__chain(head, p, (size_t)(nl - p));
        p = nl + 1;
    }
    ok = nseals > 0;
    *seals = nseals;
out:
    rpl__free(ctx, raw);
    rpl__free(ctx, text);
    return ok;
}

/* The commitments of one file: each card line's, by round and seat. */
struct cards {
    uint8_t commit[6][RPL_MAX_SEATS + 1][32];
    bool has[6][RPL_MAX_SEATS + 1];
};

static bool
seat_of(const char *p, size_t n, unsigned *k)
{
    if (n < 2 || n > 3 || p[0] != 'p' || p[1] < '1' || p[1] > '9')
        return false;
    *k = (unsigned)(p[1] - '0');
    if (n == 3)
        *k = *k * 10 + (unsigned)(p[2] - '0');
    return *k <= RPL_MAX_SEATS;
}

bool
bench_floor_full(struct rpl_ctx *ctx, const char *path,
                 const struct rpl_pubkey *dealer, size_t *seals,
                 size_t *commitments)
{
    static const char pad[] = "servant,p1,p2"; /* a deal's typical length */
    struct cards *cards = rpl__calloc(ctx, 1, sizeof(*cards));
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    char *text = NULL;
    size_t len = 0, nseals = 0, ncommits = 0;
    uint8_t head[32] = {0}, sig[64], c[32], id[16], commit[32], secret[32];
    uint8_t seed[32];
    unsigned round = 1, version = 0;
    bool has_seed = false, ok = false;
    struct rpl__tok t;

    if (!cards ||
        rpl__file_read(ctx, path, RPL_MAX_COMPRESSED, &raw, &raw_len, NULL) !=
            RPL_OK ||
        rpl__gz_inflate(ctx, raw, raw_len, &text, &len, NULL) != RPL_OK)
        goto out;
    for (const char *p = text; p < text + len;) {
        const char *nl = memchr(p, '\n', (size_t)(text + len - p));
        const size_t n = nl ? (size_t)(nl - p) : 0;
        const char *sp = nl ? memchr(p, ' ', n) : NULL;
        unsigned k = 0;

        if (!nl)
            goto out;
        t.p = sp ? sp + 1 : p;
        t.n = sp ? (size_t)(nl - t.p) : 0;
        if (n == 9 && memcmp(p, "camelog ", 8) == 0) {
            version = (unsigned)(p[8] - '0');
        } else if (n > 3 && memcmp(p, "id ", 3) == 0) {
            if (!rpl__tok_hex(&t, id, sizeof(id)))
                goto out;
        } else if (n > 7 && memcmp(p, "commit ", 7) == 0) {
            if (!rpl__tok_hex(&t, commit, sizeof(commit)))
                goto out;
        } else if (n > 5 && memcmp(p, "seal ", 5) == 0) {
            if (!rpl__tok_b64(&t, sig, sizeof(sig)) ||
                !rpl__seal_verify(dealer, head, sig))
                goto out;
            nseals++;
        } else if (n > 6 && memcmp(p, "quest ", 6) == 0) {
            round++;
        } else if (n > 70 && (memcmp(p, "deal ", 5) == 0 ||
                              memcmp(p, "card ", 5) == 0)) {
            /* "deal pK HEX", "card pK HEX": a deal's value is the
             * rules' to know, so its commitment is computed, not
             * compared; a card's is compared when it is opened. */
            const char *sp2 = memchr(t.p, ' ', t.n);
            struct rpl__tok hex;

            if (!sp2 || !seat_of(t.p, (size_t)(sp2 - t.p), &k) || round > 5)
                goto out;
            hex.p = sp2 + 1;
            hex.n = (size_t)(nl - hex.p);
            if (p[0] == 'c') {
                if (!rpl__tok_hex(&hex, cards->commit[round][k], 32))
                    goto out;
                cards->has[round][k] = true;
            } else {
                if (!rpl__tok_hex(&hex, c, sizeof(c)))
                    goto out;
                cards->has[0][k] = true;
            }
        } else if (n > 7 && memcmp(p, "reveal ", 7) == 0) {
            if (!rpl__tok_hex(&t, secret, sizeof(secret)))
                goto out;
            rpl__secret_commit(c, id, secret);
            if (memcmp(c, commit, 32) != 0)
                goto out;
            ncommits++;
            if (version >= 2)
                rpl__seed2(seed, id, secret, NULL, 0);
            else
                rpl__seed(seed, id, secret, NULL, 0);
            has_seed = true;
            for (k = 1; k <= RPL_MAX_SEATS; k++) {
                char label[16];

                if (!cards->has[0][k])
                    continue;
                snprintf(label, sizeof(label), "deal p%u", k);
                rpl__commit(c, NULL, seed, id, label, pad, version);
                ncommits++;
            }
        } else if (n > 12 && memcmp(p, "open card ", 10) == 0 && has_seed) {
            /* "open card R pK VALUE" */
            char label[16], value[16];
            const char *r = p + 10;
            const char *v = memchr(r + 2, ' ', (size_t)(nl - r - 2));
            const unsigned rr = (unsigned)(r[0] - '0');

            if (!v || rr < 1 || rr > 5 || r[1] != ' ' ||
                !seat_of(r + 2, (size_t)(v - r - 2), &k) ||
                !cards->has[rr][k] || (size_t)(nl - v - 1) >= sizeof(value))
                goto out;
            memcpy(value, v + 1, (size_t)(nl - v - 1));
            value[nl - v - 1] = '\0';
            snprintf(label, sizeof(label), "card %u p%u", rr, k);
            rpl__commit(c, NULL, seed, id, label, value, version);
            if (memcmp(c, cards->commit[rr][k], 32) != 0)
                goto out;
            ncommits++;
        }
        rpl__chain(head, p, n);
        p = nl + 1;
    }
    ok = nseals > 0 && has_seed;
    *seals = nseals;
    *commitments = ncommits;
out:
    sodium_memzero(secret, sizeof(secret));
    sodium_memzero(seed, sizeof(seed));
    rpl__free(ctx, cards);
    rpl__free(ctx, raw);
    rpl__free(ctx, text);
    return ok;
}
