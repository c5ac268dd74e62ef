/*
 * fuzz_log.c - libFuzzer target for everything that reads a log: the
 * gzip container (the input as a file's bytes), the canonical and the
 * lenient text parsers, verification, and on a valid log every replay
 * call (seek, views, descriptions, events, reveal, digest); and the one
 * pass of rpl_log_verify_walk(), whose verdict must be the verify's.
 *
 * Build and run: make fuzz (FUZZ_SECONDS=20 by default, as the Makefile
 * and README.md say).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* rpl_log_verify_walk(), which replays a complete log knowing its deal
 * ahead, against rpl_log_verify(): the same verdict, the same coverage,
 * and the views and marks of the first and last lines those of
 * rpl_log_seek() and rpl_log_mark(). */
static void
check_walk(struct rpl_ctx *ctx, const uint8_t *data, size_t size,
           struct rpl_log *verified, enum rpl_status want)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_line_view lv;
    uint64_t bits[RPL_COVERAGE_WORDS], ref[RPL_COVERAGE_WORDS];
    const struct rpl_walk_opts walk = {
        .views = true,
        .seats = 1u,
        .describe = true,
        .marks = true,
        .bits = bits,
    };
    const size_t n = rpl_log_lines(verified);
    char *view = NULL;

    if (rpl_log_parse(ctx, &log, (const char *)data, size, false, NULL) !=
        RPL_OK)
        abort();
    if (rpl_log_verify_walk(log, NULL, &walk, &rep) != want)
        abort(); /* a verdict the verify does not give */
    if (want == RPL_OK) {
        if (rpl_log_coverage(verified, ref, NULL) != RPL_OK ||
            memcmp(bits, ref, sizeof(bits)) != 0)
            abort();
        for (size_t no = 1; no <= n; no += n > 1 ? n - 1 : 1) {
            unsigned kept = 0, found = 0;

            if (rpl_log_mark(log, no, &kept, NULL) != RPL_OK ||
                rpl_log_mark(verified, no, &found, NULL) != RPL_OK ||
                kept != found)
                abort();
            if (rpl_log_line_view(log, no, RPL_VIEW_PUBLIC, &lv, NULL) !=
                    RPL_OK ||
                rpl_log_seek(verified, no, NULL) != RPL_OK ||
                rpl_log_view_json(verified, RPL_VIEW_PUBLIC, &view, NULL) !=
                    RPL_OK ||
                strcmp(view, lv.view) != 0)
                abort();
            rpl_free(ctx, view);
        }
    }
    rpl_log_free(log);
}

static void
check_text(struct rpl_ctx *ctx, const uint8_t *data, size_t size, bool lenient)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    enum rpl_status st;

    if (rpl_log_parse(ctx, &log, (const char *)data, size, lenient, NULL) !=
        RPL_OK)
        return;
    st = rpl_log_verify(log, NULL, &rep);
    if (st != RPL_OK && rep.error.code == RPL_OK)
        abort(); /* a failure must say what failed */
    if (!lenient)
        check_walk(ctx, data, size, log, st);
    if (st == RPL_OK)
        replay_all(ctx, log);
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
