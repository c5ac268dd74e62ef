/*
 * fuzz_log.c - libFuzzer target for everything that reads a log: the
 * gzip container (the input as a file's bytes), the canonical and the
 * lenient text parsers, verification, and on a valid log every replay
 * call (seek, views, descriptions, events, reveal, digest).
 *
 * Build and run: make fuzz (FUZZ_SECONDS=20 by default, as the Makefile
 * and README.md say).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "replay.h"

static void
replay_all(struct rpl_ctx *ctx, struct rpl_log *log)
{
    const size_t n = rpl_log_lines(log);
    uint8_t digest[32];
    char *out = NULL;

    for (size_t no = 1; no <= n; no++) {
        if (rpl_log_describe(log, no, RPL_VIEW_PUBLIC, &out, NULL) == RPL_OK)
            rpl_free(ctx, out);
        if (rpl_log_events_json(log, no, &out, NULL) == RPL_OK)
            rpl_free(ctx, out);
    }
    for (int viewer = RPL_VIEW_ALL; viewer <= (int)rpl_log_seats(log);
         viewer++) {
        if (rpl_log_view(log, viewer, &out, NULL) == RPL_OK)
            rpl_free(ctx, out);
        if (rpl_log_view_json(log, viewer, &out, NULL) == RPL_OK)
            rpl_free(ctx, out);
    }
    if (rpl_log_reveal_text(log, &out, NULL) == RPL_OK)
        rpl_free(ctx, out);
    if (rpl_log_reveal_json(log, &out, NULL) == RPL_OK)
        rpl_free(ctx, out);
    if (rpl_log_seek(log, n / 2, NULL) == RPL_OK &&
        rpl_log_digest(log, digest, NULL) != RPL_OK)
        abort();
}

static void
check_text(struct rpl_ctx *ctx, const uint8_t *data, size_t size, bool lenient)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;

    if (rpl_log_parse(ctx, &log, (const char *)data, size, lenient, NULL) !=
        RPL_OK)
        return;
    if (rpl_log_verify(log, NULL, &rep) == RPL_OK)
        replay_all(ctx, log);
    else if (rep.error.code == RPL_OK)
        abort(); /* a failure must say what failed */
    rpl_log_free(log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_log *log = NULL;

    if (rpl_ctx_new(&ctx, NULL, NULL) != RPL_OK)
        abort();
    check_text(ctx, data, size, false);
    check_text(ctx, data, size, true);
    if (rpl_log_read_mem(ctx, &log, data, size, NULL) == RPL_OK) {
        struct rpl_report rep;

        if (rpl_log_verify(log, NULL, &rep) == RPL_OK)
            replay_all(ctx, log);
        rpl_log_free(log);
    }
    rpl_ctx_free(ctx);
    return 0;
}
