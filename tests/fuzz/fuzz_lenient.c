/*
 * fuzz_lenient.c - libFuzzer target for the lenient text of pack
 * (rpl_log_parse with lenient): hand-written text is canonicalized, then
 * parsed.  What it gives must parse as canonical text, and a log that
 * verifies must come back unchanged through the canonicalizer (its text
 * is already canonical).
 *
 * Build and run: make fuzz.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_log *log = NULL, *strict = NULL, *again = NULL;
    struct rpl_report rep;
    const char *text, *text2;
    size_t len, len2;

    if (rpl_ctx_new(&ctx, NULL, NULL) != RPL_OK)
        abort();
    if (rpl_log_parse(ctx, &log, (const char *)data, size, true, NULL) !=
        RPL_OK)
        goto out;
    text = rpl_log_text(log, &len);
    if (rpl_log_parse(ctx, &strict, text, len, false, NULL) != RPL_OK)
        abort(); /* the canonicalizer's output is canonical */
    if (rpl_log_verify(log, NULL, &rep) != RPL_OK) {
        if (rep.error.code == RPL_OK)
            abort();
        goto out;
    }
    if (rpl_log_parse(ctx, &again, text, len, true, NULL) != RPL_OK)
        abort();
    text2 = rpl_log_text(again, &len2);
    if (len2 != len || memcmp(text, text2, len) != 0)
        abort(); /* canonical text is a fixed point */
out:
    rpl_log_free(again);
    rpl_log_free(strict);
    rpl_log_free(log);
    rpl_ctx_free(ctx);
    return 0;
}
