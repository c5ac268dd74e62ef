/*
 * host_tlog.c - camelog host --tlog: the host appends each game's start
 * entry once the header is written (before any seat gives entropy) and
 * its end entry once it ended and was sealed, each followed by a new
 * checkpoint signed with the dealer key.
 *
 * Exactly once across crashes: with a journal, <journal>.tlog holds the
 * line "start N" (then "end M"), the log's size when the append was
 * about to happen, written durably before the append and under the log's
 * lock.  The entry, if the append happened, is at N or after; a resumed
 * host looks for its bytes there and appends only when they are absent.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "host_tlog.h"

/* How long a host waits for another host's append to the same log. */
#define WAIT_MS 30000

static enum rpl_status
fail(struct rpl_error *err, enum rpl_status code, const char *fmt, ...)
{
    va_list ap;

    err->code = code;
    err->line = 0;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return code;
}

/* Opens dir for appending, waiting while another writer holds it. */
static enum rpl_status
open_wait(struct rpl_ctx *ctx, const char *dir, struct rpl_tlog **t,
          struct rpl_error *err)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    enum rpl_status st;

    for (int waited = 0;; waited += 10) {
        st = rpl_tlog_open(ctx, t, dir, err);
        if (st != RPL_E_BUSY || waited >= WAIT_MS)
            break;
        nanosleep(&tick, NULL);
    }
    if (st == RPL_OK) {
        char path[4200];

        snprintf(path, sizeof(path), "%s/camelog-tlog", dir);
        if (access(path, F_OK) != 0) {
            rpl_tlog_close(*t);
            *t = NULL;
            return fail(err, RPL_E_STATE,
                        "%s: a copy of a log (no camelog-tlog state) cannot "
                        "be appended to",
                        dir);
        }
    }
    return st;
}

/* The checkpoint of t's directory, if any, is sk's. */
static enum rpl_status
check_key(const char *dir, const struct rpl_seckey *sk, struct rpl_error *err)
{
    struct rpl_tlog_checkpoint cp;
    struct rpl_pubkey pk;
    char path[4200], *text = NULL;
    size_t len = 0;
    enum rpl_status st;

    snprintf(path, sizeof(path), "%s/checkpoint", dir);
    const int rc = cli_read_file(path, 65536, &text, &len);
    if (rc == 2 && errno == ENOENT)
        return RPL_OK; /* a new log: the first checkpoint is ours */
    if (rc != 0) {
        free(text);
        return fail(err, RPL_E_IO, "%s: cannot be read", path);
    }
    rpl_seckey_pubkey(sk, &pk);
    st = rpl_tlog_checkpoint_parse(text, len, &pk, NULL, &cp, err);
    free(text);
    if (st == RPL_E_SEAL)
        return fail(err, RPL_E_KEY,
                    "%s: not signed by this dealer key: one key per log", path);
    return st;
}

/* The end entry: abandoned by the dealer for the abort line, by the seat
 * the game names when one abandoned it, else finished or revealed. */
static enum rpl_status
end_entry(struct rpl_ctx *ctx, const struct rpl_log *log, char **out,
          size_t *len, struct rpl_error *err)
{
    const size_t n = rpl_log_lines(log);
    bool is_abandoned = false;
    size_t by = 0;

    for (size_t no = n; no > 0; no--) {
        size_t l;
        const char *p = rpl_log_line(log, no, &l);

        if (p && l == 11 && memcmp(p, "end aborted", 11) == 0)
            is_abandoned = true;
        if (p && l > 11 && memcmp(p, "abandoned p", 11) == 0) {
            /* "abandoned pK": seat K withheld its entropy. */
            char seat[8];
            size_t k = 10, m = 0;

            while (k < l && p[k] != ' ' && m + 1 < sizeof(seat))
                seat[m++] = p[k++];
            seat[m] = '\0';
            if (cli_parse_seat(seat, &by))
                is_abandoned = true;
        }
    }
    return rpl_tlog_entry_end(ctx, log, is_abandoned, by, out, len, err);
}

enum rpl_status
host_tlog_entry(struct rpl_ctx *ctx, const struct rpl_log *log,
                enum host_tlog_kind kind, char **out, size_t *len,
                struct rpl_error *err)
{
    return kind == HOST_TLOG_START
               ? rpl_tlog_entry_start(ctx, log, out, len, err)
               : end_entry(ctx, log, out, len, err);
}

/* "start N" and "end M" of the side file (each UINT64_MAX when absent). */
static enum rpl_status
read_side(const char *path, uint64_t at[2], struct rpl_error *err)
{
    char *text = NULL;
    size_t len = 0;

    at[0] = at[1] = UINT64_MAX;
    const int rc = cli_read_file(path, 256, &text, &len);
    if (rc == 2 && errno == ENOENT)
        return RPL_OK;
    if (rc != 0) {
        free(text);
        return fail(err, RPL_E_IO, "%s: cannot be read", path);
    }
    for (char *p = text, *nl; (nl = memchr(p, '\n', len - (size_t)(p - text)));
         p = nl + 1) {
        uint64_t v;
        int used = 0;

        *nl = '\0';
        if (sscanf(p, "start %" SCNu64 "%n", &v, &used) == 1 && !p[used])
            at[0] = v;
        else if (sscanf(p, "end %" SCNu64 "%n", &v, &used) == 1 && !p[used])
            at[1] = v;
        else {
            free(text);
            return fail(err, RPL_E_SYNTAX, "%s: not \"start N\" or \"end N\"",
                        path);
        }
    }
    free(text);
    return RPL_OK;
}

static enum rpl_status
write_side(const char *path, const uint64_t at[2], struct rpl_error *err)
{
    char text[64];
    int n = 0;

    if (at[0] != UINT64_MAX)
        n += snprintf(text + n, sizeof(text) - (size_t)n, "start %" PRIu64 "\n",
                      at[0]);
    if (at[1] != UINT64_MAX)
        n += snprintf(text + n, sizeof(text) - (size_t)n, "end %" PRIu64 "\n",
                      at[1]);
    return rpl_file_write(path, text, (size_t)n, 0644, true, err);
}

/* Whether entry[0..len) is in t at from or after; *at its index. */
static enum rpl_status
find_entry(struct rpl_tlog *t, uint64_t from, const char *entry, size_t len,
           uint64_t *at, bool *found, struct rpl_error *err)
{
    const uint64_t size = rpl_tlog_size(t);

    *found = false;
    for (uint64_t i = from; i < size; i++) {
        const uint8_t *data;
        size_t n;
        const enum rpl_status st = rpl_tlog_entry(t, i, size, &data, &n, err);

        if (st != RPL_OK)
            return st;
        if (n == len && memcmp(data, entry, len) == 0) {
            *found = true;
            *at = i;
            return RPL_OK;
        }
    }
    return RPL_OK;
}

enum rpl_status
host_tlog_add(struct rpl_ctx *ctx, const char *dir, const char *journal,
              const struct rpl_seckey *sk, const struct rpl_log *log,
              enum host_tlog_kind kind, uint64_t *index, struct rpl_error *err)
{
    struct rpl_tlog *t = NULL;
    char *entry = NULL, *side = NULL;
    size_t len = 0;
    uint64_t at[2], where = 0;
    bool found = false;
    enum rpl_status st;

    st = host_tlog_entry(ctx, log, kind, &entry, &len, err);
    if (st != RPL_OK)
        return st;
    st = open_wait(ctx, dir, &t, err);
    if (st == RPL_OK)
        st = check_key(dir, sk, err);
    if (st == RPL_OK && journal) {
        const size_t n = strlen(journal) + sizeof(".tlog");

        side = malloc(n);
        if (!side) {
            st = fail(err, RPL_E_NOMEM, "out of memory");
            goto out;
        }
        snprintf(side, n, "%s.tlog", journal);
        st = read_side(side, at, err);
        if (st == RPL_OK && at[kind] != UINT64_MAX)
            st = find_entry(t, at[kind], entry, len, &where, &found, err);
        if (st == RPL_OK && !found) {
            at[kind] = rpl_tlog_size(t);
            st = write_side(side, at, err);
        }
    }
    if (st == RPL_OK && !found) {
        const void *ptr = entry;

        where = rpl_tlog_size(t);
        st = rpl_tlog_append(t, &ptr, &len, 1, err);
    }
    if (st == RPL_OK)
        st = rpl_tlog_sign(t, sk, NULL, err);
    if (st == RPL_OK && index)
        *index = where;
out:
    rpl_tlog_close(t);
    free(side);
    rpl_free(ctx, entry);
    return st;
}

bool
host_tlog_step(struct rpl_ctx *ctx, const char *dir, const char *journal,
               const struct rpl_seckey *sk, const struct rpl_recorder *rec,
               const struct rpl_log *log, enum host_tlog_kind kind,
               size_t request)
{
    struct rpl_error err;
    struct rpl_log *own = NULL;
    enum rpl_status st = RPL_OK;

    if (!dir)
        return true;
    if (!log) {
        st = rpl_rec_log(rec, &own, &err);
        log = own;
    }
    if (st == RPL_OK)
        st = host_tlog_add(ctx, dir, journal, sk, log, kind, NULL, &err);
    rpl_log_free(own);
    if (st != RPL_OK)
        cli_msg("request %zu: public log: %s", request,
                cli_error_text(st, &err));
    return st == RPL_OK;
}
