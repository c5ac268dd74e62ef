/*
 * seat_due.c - camelog seat due: the deliveries due to a seat, from the
 * public log alone (every line that commits a private message to it),
 * and which of them the seat holds and checked; each one missing is
 * named with its line, which is all a seat can show of a delivery the
 * dealer withheld.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "cli.h"
#include "replay.h"
#include "seat_due.h"
#include "seat_log.h"

/* What the seat holds for one line due to it. */
struct due {
    size_t line;
    const char *file; /* the delivery's file, NULL: none received */
    size_t no;        /* its line in that file */
    struct rpl_error err;
};

/* The line's text without its commitment ("deal p3"). */
static int
due_text_len(const struct rpl_log *log, size_t line, const char **text)
{
    size_t len = 0;

    *text = rpl_log_line(log, line, &len);
    if (!*text) {
        *text = "";
        return 0;
    }
    return len > 65 ? (int)(len - 65) : (int)len;
}

/* Records the deliveries of file against the lines due (sorted by line);
 * reports and counts those that match no line due, or fail. */
static int
due_file(bool is_json, const struct rpl_log *log, size_t as, const char *file,
         struct due *due, size_t ndue, json_t *extra)
{
    struct rpl_delivery *d = NULL;
    size_t n = 0;
    int rc = cli_read_deliveries(file, &d, &n);

    for (size_t i = 0; rc != CLI_EXIT_USAGE && i < n; i++) {
        struct rpl_error err;
        struct due *at = NULL;
        size_t lo = 0, hi = ndue;
        enum rpl_status st;

        memset(&err, 0, sizeof(err));
        if (d[i].seat != 0 && d[i].seat != as) {
            st = RPL_E_FAIRNESS;
            err.code = st;
            err.line = d[i].line;
            snprintf(err.msg, sizeof(err.msg),
                     "the delivery of line %zu is marked for p%zu, not for "
                     "p%zu",
                     d[i].line, d[i].seat, as);
        } else {
            d[i].seat = as;
            st = rpl_seat_check_delivery(log, &d[i], &err);
            err.code = st;
        }
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;

            if (due[mid].line < d[i].line) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo < ndue && due[lo].line == d[i].line) {
            at = &due[lo];
        }
        /* The first delivery of a line due, or a good one after a bad. */
        if (at && (!at->file || (at->err.code != RPL_OK && st == RPL_OK))) {
            at->file = file;
            at->no = i + 1;
            at->err = err;
            continue;
        }
        if (st == RPL_OK && at) {
            continue; /* the same line again, and it checks */
        }
        if (st == RPL_OK) {
            cli_file_msg(file, i + 1, "line %zu is not due to p%zu", d[i].line,
                         as);
        } else {
            cli_file_msg(file, i + 1, "%s", cli_error_text(st, &err));
        }
        rc = cli_worst(rc, CLI_EXIT_INVALID);
        if (is_json) {
            json_t *o = json_object();
            bool ok = true;

            ok &= cli_json_set(o, "file", cli_json_str(file));
            ok &= cli_json_set(o, "delivery", cli_json_size(i + 1));
            ok &= cli_json_set(o, "line", cli_json_size(d[i].line));
            ok &= cli_json_set(o, "label", cli_json_str(d[i].label));
            ok &= cli_json_set(o, "valid", json_boolean(st == RPL_OK));
            ok &= cli_json_set(o, "code", json_string(rpl_status_name(st)));
            ok &= cli_json_set(o, "error",
                               st == RPL_OK
                                   ? json_null()
                                   : cli_json_str(cli_error_text(st, &err)));
            if (json_array_append_new(extra, o) != 0 || !ok) {
                rc = CLI_EXIT_USAGE;
            }
        } else {
            printf("%s:%zu: line %zu \"%s\": %s\n", file, i + 1, d[i].line,
                   d[i].label, st == RPL_OK ? "not due" : "FAILED");
        }
    }
    if (d) {
        sodium_memzero(d, n * sizeof(*d));
        free(d);
    }
    return rc;
}

int
seat_due(struct rpl_ctx *ctx, const char *pubkey, const char *seat,
         const char *seat_key, bool is_json, char **rest, int nrest)
{
    struct rpl_pubkey pin;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    struct due *due = NULL;
    size_t *lines = NULL;
    json_t *extra = is_json ? json_array() : NULL, *list = NULL;
    const char *file = rest[0];
    size_t as = 0, ndue = 0, checked = 0, missing = 0, failed = 0;
    enum rpl_status st;
    int rc = cli_load_pubkey(pubkey, &pin);

    if (rc == CLI_EXIT_OK) {
        rc = seat_open_log(ctx, file, &pin, true, &log);
    }
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (!cli_parse_seat(seat, &as) || as > rpl_log_seats(log)) {
        rc = cli_usage_error("seat",
                             "--as names a seat of the game, p1 to p%zu, not "
                             "'%s'",
                             rpl_log_seats(log), seat);
        goto out;
    }
    if (seat_key) {
        size_t found = 0;

        rc = seat_own_key(file, log, seat_key, as, &found);
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
    }
    lines = calloc(rpl_log_lines(log) + 1, sizeof(*lines));
    due = calloc(rpl_log_lines(log) + 1, sizeof(*due));
    if (!lines || !due || (is_json && !extra)) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    st = rpl_seat_due(log, as, lines, rpl_log_lines(log) + 1, &ndue, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(file, st, &err);
        goto out;
    }
    for (size_t i = 0; i < ndue; i++) {
        due[i].line = lines[i];
    }
    for (int i = 1; i < nrest && rc != CLI_EXIT_USAGE; i++) {
        rc = cli_worst(rc,
                       due_file(is_json, log, as, rest[i], due, ndue, extra));
    }
    if (rc == CLI_EXIT_USAGE) {
        goto out;
    }
    list = is_json ? json_array() : NULL;
    for (size_t i = 0; i < ndue; i++) {
        const struct due *u = &due[i];
        const char *text;
        const int tl = due_text_len(log, u->line, &text);
        const bool ok = u->file && u->err.code == RPL_OK;

        checked += ok;
        missing += !u->file;
        failed += u->file && !ok;
        if (!u->file) {
            cli_file_msg(file, 0,
                         "line %zu: %.*s committed, no delivery "
                         "received",
                         u->line, tl, text);
        } else if (!ok) {
            cli_file_msg(u->file, u->no, "%s",
                         cli_error_text(u->err.code, &u->err));
        }
        if (list) {
            json_t *o = json_object();
            bool jok = true;

            jok &= cli_json_set(o, "line", cli_json_size(u->line));
            jok &= cli_json_set(o, "text", json_stringn(text, (size_t)tl));
            jok &= cli_json_set(o, "received", json_boolean(u->file));
            jok &= cli_json_set(o, "valid", json_boolean(ok));
            jok &= cli_json_set(o, "file",
                                u->file ? cli_json_str(u->file) : json_null());
            jok &= cli_json_set(o, "delivery",
                                u->file ? cli_json_size(u->no) : json_null());
            jok &= cli_json_set(
                o, "error",
                ok        ? json_null()
                : u->file ? cli_json_str(cli_error_text(u->err.code, &u->err))
                          : json_string("no delivery received"));
            if (json_array_append_new(list, o) != 0 || !jok) {
                rc = CLI_EXIT_USAGE;
            }
        } else if (!u->file) {
            printf("%s: line %zu: %.*s committed, no delivery received\n", file,
                   u->line, tl, text);
        } else {
            printf("%s: line %zu: %.*s committed, %s (%s:%zu)\n", file, u->line,
                   tl, text, ok ? "received and checked" : "delivery FAILED",
                   u->file, u->no);
        }
    }
    if (list) {
        json_t *o = json_object();
        bool ok = true;

        ok &= cli_json_set(o, "log", cli_json_str(file));
        ok &= cli_json_set(o, "seat", cli_json_size(as));
        ok &= cli_json_set(o, "due", cli_json_size(ndue));
        ok &= cli_json_set(o, "checked", cli_json_size(checked));
        ok &= cli_json_set(o, "missing", cli_json_size(missing));
        ok &= cli_json_set(o, "failed", cli_json_size(failed));
        ok &= cli_json_set(o, "lines", list);
        ok &= cli_json_set(o, "extra", extra);
        list = extra = NULL;
        rc = cli_worst(rc, ok ? cli_json_print(o) : CLI_EXIT_USAGE);
        json_decref(o);
    } else {
        printf("%s: p%zu: %zu %s due, %zu received and checked, %zu missing, "
               "%zu failed\n",
               file, as, ndue, ndue == 1 ? "delivery" : "deliveries", checked,
               missing, failed);
    }
    if (missing || failed) {
        rc = cli_worst(rc, CLI_EXIT_INVALID);
    }
out:
    json_decref(list);
    json_decref(extra);
    free(lines);
    free(due);
    rpl_log_free(log);
    return rc;
}
