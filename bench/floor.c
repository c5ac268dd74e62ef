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
#include <string.h>

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
