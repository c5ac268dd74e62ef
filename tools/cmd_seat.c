/*
 * cmd_seat.c - camelog seat: the player's side of a live game
 * (camelog-seat(1)).  entropy makes a seat's signed contribution to the
 * seed; check holds each delivery against the commitment on its public
 * line; sign makes the sig line of the seat's own line; history proves
 * that the final file extends the history the seat saw.  Logs are read as
 * .camelog files or as the canonical text of a host journal, and verified
 * before anything else, with the dealer key pinned where it matters.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "replay.h"
#include "seat_due.h"
#include "seat_log.h"
#include "seat_tlog.h"

static const char usage[] =
    "usage: camelog seat commit [--json] --key file --state dir\n"
    "                           --pubkey key|file [--tlog dir --seen dir]\n"
    "                           log\n"
    "       camelog seat reveal [--json] --key file --state dir\n"
    "                           --pubkey key|file log\n"
    "       camelog seat starts [--json] --state dir\n"
    "       camelog seat entropy [--json] --key file --log log\n"
    "                            [--pubkey key|file --tlog dir --seen dir]\n"
    "       camelog seat check [--json] --pubkey key|file --as seat\n"
    "                          [--seat-key key|file] log delivery ...\n"
    "       camelog seat due [--json] --pubkey key|file --as seat\n"
    "                        [--seat-key key|file] log [delivery ...]\n"
    "       camelog seat sign [--json] --key file [--action text |\n"
    "                         --choice value] [--label label --nonce hex]\n"
    "                         log line\n"
    "       camelog seat history [--json] --pubkey key|file\n"
    "                            [--seat-key key|file] [--state dir]\n"
    "                            seen final\n"
    "       camelog seat logged [--json] [--end] --pubkey key|file --tlog dir\n"
    "                           --seen dir log\n";

static const char options[] =
    "options:\n"
    "  --key file         commit, reveal, entropy, sign: the seat's secret\n"
    "                     key (its public key is on the seat's line of the\n"
    "                     header)\n"
    "  --state dir        commit, reveal, starts, history: the seat's\n"
    "                     directory for this table (its values, the\n"
    "                     sealed starts it saw)\n"
    "  --log log          entropy (format 1): the log so far (up to\n"
    "                     commit, or the entropy of an earlier seat)\n"
    "  --pubkey key|file  commit, reveal, check, due, history, logged "
    "(entropy\n"
    "                     with --tlog): the dealer's public key, pinned\n"
    "  --seat-key key|file  check, due, history: the seat's own public key,\n"
    "                     which must be its key in the header\n"
    "  --as seat          check, due: who receives the deliveries (p1, p2,\n"
    "                     ...)\n"
    "  --action text      sign: the seat's own action in private form; a\n"
    "                     line that is not that action is refused\n"
    "  --choice value     sign: the seat's secret choice on a line that\n"
    "                     commits (a quest card: success or fail)\n"
    "  --label label      sign: the sign request's label (a secret choice)\n"
    "  --nonce hex        sign: the sign request's nonce (64 hex digits)\n"
    "  --tlog dir         logged, commit, entropy: the host's public log (a\n"
    "                     copy of its files), which must hold the game's\n"
    "                     start\n"
    "  --seen dir         logged, commit, entropy: the checkpoints this seat\n"
    "                     has seen\n"
    "  --end              logged: check the game's end, not its start\n"
    "  --json             JSON Lines (keys in camelog-seat(1))\n"
    "  -h, --help         this help\n";

/* camelog(5) "Limits": the whole text, a line, the number of lines. */
#define TEXT_MAX  (16u * 1024u * 1024u)
#define LINE_MAX_ 4096u
#define LINES_MAX 100000u

struct args {
    const char *sub;
    const char *key;
    const char *log;
    const char *pubkey;
    const char *as;
    const char *state;
    const char *seat_key;
    const char *action;
    const char *choice;
    const char *label;
    const char *nonce;
    const char *tlog;
    const char *seen;
    bool is_end;
    bool is_json;
    char **rest;
    int nrest;
};

static int
load_key(struct rpl_ctx *ctx, const char *file, struct rpl_seckey **sk)
{
    struct rpl_error err;
    const enum rpl_status st = rpl_seckey_load(ctx, sk, file, &err);

    if (st != RPL_OK) {
        return cli_worst(CLI_EXIT_USAGE, cli_file_error(file, st, &err));
    }
    return CLI_EXIT_OK;
}

/* Reports the failure of the seat that holds the key, or that no seat
 * does. */
static int
no_seat(const char *file, enum rpl_status st, const struct rpl_error *err,
        bool any_seat)
{
    if (!any_seat) {
        cli_file_msg(file, 0,
                     "the key is not the key of any seat in the "
                     "header");
        return CLI_EXIT_INVALID;
    }
    return cli_file_error(file, st, err);
}

/* ------------------------------------------------------------ entropy */

static int
run_entropy(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_log *log = NULL;
    struct rpl_seckey *sk = NULL;
    struct rpl_error err, first;
    char eline[RPL_ENTROPY_LINE_MAX], sline[RPL_SIG_LINE_MAX];
    enum rpl_status st = RPL_E_KEY;
    bool any_seat = false;
    size_t seat, seats;
    struct rpl_pubkey pin;
    int rc = a->tlog ? cli_load_pubkey(a->pubkey, &pin) : CLI_EXIT_OK;

    if (rc == CLI_EXIT_OK) {
        rc = seat_open_log(ctx, a->log, a->tlog ? &pin : NULL, true, &log);
    }
    if (rc == CLI_EXIT_OK) {
        rc = load_key(ctx, a->key, &sk);
    }
    /* With the host's public log: no entropy for a start it lacks. */
    if (rc == CLI_EXIT_OK && a->tlog) {
        rc = seat_logged(ctx, &pin, log, a->log, false, a->tlog, a->seen, false,
                         true);
    }
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    /* Keys may be shared between seats: the first seat with this key
     * that may give entropy now. */
    memset(&first, 0, sizeof(first));
    seats = rpl_log_seats(log);
    for (seat = 1; seat <= seats; seat++) {
        st = rpl_seat_entropy(log, seat, sk, eline, sline, &err);
        if (st == RPL_OK) {
            break;
        }
        if (st != RPL_E_KEY && !any_seat) {
            any_seat = true;
            first = err;
        }
    }
    if (st != RPL_OK) {
        rc = no_seat(a->log, any_seat ? first.code : st, &first, any_seat);
        goto out;
    }
    if (a->is_json) {
        json_t *o = json_object();
        bool ok = true;

        ok &= cli_json_set(o, "seat", cli_json_size(seat));
        ok &= cli_json_set(o, "entropy", json_string(eline));
        ok &= cli_json_set(o, "sig", json_string(sline));
        rc = ok ? cli_json_print(o) : CLI_EXIT_USAGE;
        json_decref(o);
    } else {
        printf("%s\n%s\n", eline, sline);
    }
out:
    rpl_seckey_free(sk);
    rpl_log_free(log);
    return rc;
}

/* ------------------------------------------------- commit and reveal */

/* The game id of a verified log (its third line, "id <hex>"). */
static bool
log_id(const struct rpl_log *log, char id[33])
{
    size_t len = 0;
    const char *s = rpl_log_line(log, 3, &len);

    if (!s || len != 35 || memcmp(s, "id ", 3) != 0) {
        return false;
    }
    memcpy(id, s + 3, 32);
    id[32] = '\0';
    return true;
}

/* The first seat of log whose key in the header is sk's, 0 if none. */
static size_t
seat_of_key(const struct rpl_log *log, const struct rpl_seckey *sk)
{
    char eline[RPL_ENTROPY_LINE_MAX], sline[RPL_SIG_LINE_MAX];
    uint8_t zero[32] = {0};
    struct rpl_error err;

    /* rpl_seat_pledge() checks the key first (RPL_E_KEY when it is not
     * the seat's); any other outcome means the key is the seat's. */
    for (size_t k = 1; k <= rpl_log_seats(log); k++) {
        if (rpl_seat_pledge(log, k, sk, zero, eline, sline, &err) !=
            RPL_E_KEY) {
            return k;
        }
    }
    return 0;
}

/* The seat's value for game id: made once, kept in dir/<id>.pK.value
 * (0600), the same on every later call. */
static int
seat_value(const char *dir, const char *id, size_t seat, uint8_t v[32])
{
    char path[4096], hex[65];
    char *buf = NULL;
    size_t len = 0, n = 0;
    int fd, rc;

    snprintf(path, sizeof(path), "%s/%s.p%zu.value", dir, id, seat);
    rc = cli_read_file(path, 128, &buf, &len);
    if (rc == CLI_EXIT_OK) {
        const bool ok = len == 65 && buf[64] == '\n' &&
                        (buf[64] = '\0', cli_parse_hex(buf, v, 32, &n)) &&
                        n == 32;

        sodium_memzero(buf, len);
        free(buf);
        if (!ok) {
            cli_file_msg(path, 1, "expected 64 lowercase hex digits");
            return CLI_EXIT_INVALID;
        }
        return CLI_EXIT_OK;
    }
    if (errno != ENOENT) {
        cli_file_msg(path, 0, "%s", strerror(errno));
        return CLI_EXIT_USAGE;
    }
    randombytes_buf(v, 32);
    cli_hex(v, 32, hex);
    hex[64] = '\n';
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, hex, 65) != 65 || fsync(fd) != 0) {
        cli_file_msg(path, 0, "%s", strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        sodium_memzero(hex, sizeof(hex));
        return CLI_EXIT_USAGE;
    }
    close(fd);
    sodium_memzero(hex, sizeof(hex));
    return CLI_EXIT_OK;
}

/* Whether a verified log holds an `abandoned` line: its game ended
 * before its start. */
static bool
log_abandoned(const struct rpl_log *log)
{
    const size_t n = rpl_log_lines(log);

    for (size_t no = 1; no <= n; no++) {
        size_t len = 0;
        const char *s = rpl_log_line(log, no, &len);

        if (len > 10 && memcmp(s, "abandoned ", 10) == 0) {
            return true;
        }
    }
    return false;
}

/* The line of the seal after `pledged`, 0 if the log has none. */
static size_t
start_seal_line(const struct rpl_log *log)
{
    const size_t n = rpl_log_lines(log);

    for (size_t no = 1; no < n; no++) {
        size_t len = 0, l2 = 0;
        const char *s = rpl_log_line(log, no, &len);
        const char *t = rpl_log_line(log, no + 1, &l2);

        if (len > 8 && memcmp(s, "pledged ", 8) == 0) {
            return l2 > 5 && memcmp(t, "seal ", 5) == 0 ? no + 1 : 0;
        }
    }
    return 0;
}

/* Keeps the sealed start of log (its lines through the seal after
 * pledged) as dir/starts/<id>.camelog. */
static int
keep_start(struct rpl_ctx *ctx, const char *dir, const char *id,
           const struct rpl_log *log, size_t upto)
{
    char path[4096];
    struct rpl_log *start = NULL;
    struct rpl_error err;
    char *text = NULL;
    size_t len = 0, cap = 0;
    enum rpl_status st;
    int rc;

    snprintf(path, sizeof(path), "%s/starts", dir);
    rc = cli_make_dir(path);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    for (size_t no = 1; no <= upto; no++) {
        size_t n = 0;
        const char *s = rpl_log_line(log, no, &n);
        char *grown;

        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            grown = realloc(text, cap);
            if (!grown) {
                free(text);
                cli_msg("out of memory");
                return CLI_EXIT_USAGE;
            }
            text = grown;
        }
        memcpy(text + len, s, n);
        len += n;
        text[len++] = '\n';
    }
    snprintf(path, sizeof(path), "%s/starts/%s.camelog", dir, id);
    st = rpl_log_parse(ctx, &start, text, len, false, &err);
    free(text);
    if (st == RPL_OK) {
        st = rpl_log_write(start, path, true, &err);
    }
    rpl_log_free(start);
    if (st != RPL_OK) {
        return cli_worst(CLI_EXIT_USAGE, cli_file_error(path, st, &err));
    }
    return CLI_EXIT_OK;
}

/* The games of the table's directory whose start the seat kept and that
 * it did not see finish (no dir/<id>.done), other than id. */
static size_t
unfinished_starts(const char *dir, const char *id, char (*out)[33], size_t cap)
{
    char path[4096];
    DIR *d;
    struct dirent *e;
    size_t n = 0;

    snprintf(path, sizeof(path), "%s/starts", dir);
    d = opendir(path);
    if (!d) {
        return 0;
    }
    while ((e = readdir(d))) {
        const size_t len = strlen(e->d_name);
        struct stat sb;

        if (len != 32 + 8 || strcmp(e->d_name + 32, ".camelog") != 0 ||
            strncmp(e->d_name, id, 32) == 0) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%.32s.done", dir, e->d_name);
        if (stat(path, &sb) == 0) {
            continue;
        }
        if (n < cap) {
            memcpy(out[n], e->d_name, 32);
            out[n][32] = '\0';
        }
        n++;
    }
    closedir(d);
    /* Directory order is the file system's: sort for stable output. */
    for (size_t i = 1; i < n && i < cap; i++) {
        for (size_t j = i; j > 0 && strcmp(out[j - 1], out[j]) > 0; j--) {
            char t[33];

            memcpy(t, out[j], 33);
            memcpy(out[j], out[j - 1], 33);
            memcpy(out[j - 1], t, 33);
        }
    }
    return n;
}

/* Warns of the table's earlier starts that did not finish. */
static void
warn_restarts(const char *dir, const char *id)
{
    char other[16][33];
    const size_t n = unfinished_starts(dir, id, other, 16);

    for (size_t i = 0; i < n && i < 16; i++) {
        cli_file_warn(dir, 0,
                      "this table was started before: game %s, whose "
                      "sealed start is in %s/starts/%s.camelog, did not "
                      "finish",
                      other[i], dir, other[i]);
    }
}

/* commit (is_reveal false) and reveal: the seat's two rounds. */
static int
run_round(const struct args *a, struct rpl_ctx *ctx, bool is_reveal)
{
    struct rpl_pubkey pin;
    struct rpl_log *log = NULL;
    struct rpl_seckey *sk = NULL;
    struct rpl_error err;
    char line[RPL_ENTROPY_LINE_MAX], sline[RPL_SIG_LINE_MAX], id[33];
    const char *file = a->rest[0];
    uint8_t v[32];
    size_t seat = 0;
    enum rpl_status st;
    int rc = cli_load_pubkey(a->pubkey, &pin);

    if (rc == CLI_EXIT_OK) {
        rc = seat_open_log(ctx, file, &pin, true, &log);
    }
    if (rc == CLI_EXIT_OK) {
        rc = load_key(ctx, a->key, &sk);
    }
    if (rc == CLI_EXIT_OK) {
        rc = cli_make_dir(a->state);
    }
    /* With the host's public log: no pledge for a start it lacks, since
     * a start the log does not hold is one the host can abandon unseen. */
    if (rc == CLI_EXIT_OK && a->tlog && !is_reveal) {
        rc = seat_logged(ctx, &pin, log, file, false, a->tlog, a->seen, false,
                         true);
    }
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    seat = seat_of_key(log, sk);
    if (seat == 0 || !log_id(log, id)) {
        rc = no_seat(file, RPL_E_KEY, NULL, false);
        goto out;
    }
    rc = seat_value(a->state, id, seat, v);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (is_reveal) {
        st = rpl_seat_reveal(log, seat, sk, v, line, sline, &err);
        if (st == RPL_OK) {
            /* The sealed start, kept before the value leaves the seat. */
            rc = keep_start(ctx, a->state, id, log, start_seal_line(log));
        }
    } else {
        st = rpl_seat_pledge(log, seat, sk, v, line, sline, &err);
        if (st == RPL_OK) {
            warn_restarts(a->state, id);
        }
    }
    sodium_memzero(v, sizeof(v));
    if (st != RPL_OK) {
        rc = cli_file_error(file, st, &err);
        goto out;
    }
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (a->is_json) {
        json_t *o = json_object();
        bool ok = true;

        ok &= cli_json_set(o, "seat", cli_json_size(seat));
        ok &= cli_json_set(o, is_reveal ? "entropy" : "pledge",
                           json_string(line));
        ok &= cli_json_set(o, "sig", json_string(sline));
        rc = ok ? cli_json_print(o) : CLI_EXIT_USAGE;
        json_decref(o);
    } else {
        printf("%s\n%s\n", line, sline);
    }
out:
    rpl_seckey_free(sk);
    rpl_log_free(log);
    return rc;
}

/* starts: the sealed starts the seat kept for this table. */
static int
run_starts(const struct args *a, struct rpl_ctx *ctx)
{
    char ids[64][33];
    const size_t n = unfinished_starts(a->state, "", ids, 64);
    char path[4096];
    DIR *d;
    struct dirent *e;
    size_t total = 0;
    int rc = CLI_EXIT_OK;

    (void)ctx;
    snprintf(path, sizeof(path), "%s/starts", a->state);
    d = opendir(path);
    if (d) {
        while ((e = readdir(d))) {
            total += strlen(e->d_name) == 40 &&
                     strcmp(e->d_name + 32, ".camelog") == 0;
        }
        closedir(d);
    }
    if (a->is_json) {
        json_t *o = json_object();
        json_t *list = json_array();
        bool ok = o && list;

        for (size_t i = 0; ok && i < n && i < 64; i++) {
            ok &= json_array_append_new(list, json_string(ids[i])) == 0;
        }
        ok &= cli_json_set(o, "starts", cli_json_size(total));
        ok &= cli_json_set(o, "unfinished", list);
        ok &= cli_json_set(o, "restarted", json_boolean(total > 1 && n > 0));
        rc = ok ? cli_json_print(o) : CLI_EXIT_USAGE;
        json_decref(o);
    } else {
        printf("%s: %zu sealed %s, %zu not finished\n", a->state, total,
               total == 1 ? "start" : "starts", n);
        for (size_t i = 0; i < n && i < 64; i++) {
            printf("%s: not finished: game %s (%s/starts/%s.camelog)\n",
                   a->state, ids[i], a->state, ids[i]);
        }
    }
    if (total > 1 && n > 0) {
        cli_file_msg(a->state, 0,
                     "the dealer started this table %zu times and %zu of "
                     "the games did not finish: each sealed start is the "
                     "dealer's signed proof",
                     total, n);
        rc = cli_worst(rc, CLI_EXIT_INVALID);
    }
    return rc;
}

/* --------------------------------------------------------------- sign */

static int
run_sign(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_log *log = NULL;
    struct rpl_seckey *sk = NULL;
    struct rpl_error err, first;
    char sline[RPL_SIG_LINE_MAX];
    char action[2 * 4096 + 2];
    uint8_t nonce[32];
    enum rpl_status st = RPL_E_KEY;
    const char *file = a->rest[0];
    const char *line = a->rest[1];
    bool any_seat = false;
    size_t seat, seats;
    int rc = seat_open_log(ctx, file, NULL, true, &log);

    if (rc == CLI_EXIT_OK) {
        rc = load_key(ctx, a->key, &sk);
    }
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    memset(&first, 0, sizeof(first));
    seats = rpl_log_seats(log);
    if (a->choice) {
        const char *sp = strrchr(line, ' ');

        if (!sp || strlen(sp) != 65) {
            cli_file_msg(file, 0,
                         "--choice is for a line that ends in a commitment");
            rc = CLI_EXIT_USAGE;
            goto out;
        }
        if (snprintf(action, sizeof(action), "%.*s %s", (int)(sp - line), line,
                     a->choice) >= (int)sizeof(action)) {
            cli_file_msg(file, 0, "the choice is too long");
            rc = CLI_EXIT_USAGE;
            goto out;
        }
    } else if (a->action) {
        snprintf(action, sizeof(action), "%s", a->action);
    }
    if (a->nonce) {
        size_t bin_len = 0;

        if (strlen(a->nonce) != 64 ||
            sodium_hex2bin(nonce, sizeof(nonce), a->nonce, 64, NULL, &bin_len,
                           NULL) != 0 ||
            bin_len != 32) {
            rc = cli_usage_error("seat", "--nonce takes 64 hex digits");
            goto out;
        }
    }
    for (seat = 1; seat <= seats; seat++) {
        if (a->action || a->choice) {
            st = rpl_seat_sign_action(log, seat, sk, line, action, a->label,
                                      a->nonce ? nonce : NULL, sline, &err);
        } else {
            st = rpl_seat_sign(log, seat, sk, line, sline, &err);
        }
        if (st == RPL_OK) {
            break;
        }
        /* A seat whose key this is, but not the line's author: another
         * seat with the same key may be. */
        if (st != RPL_E_KEY && (!any_seat || first.code == RPL_E_ARG)) {
            any_seat = true;
            first = err;
        }
    }
    if (st != RPL_OK) {
        rc = no_seat(file, any_seat ? first.code : st, &first, any_seat);
        goto out;
    }
    if (a->is_json) {
        json_t *o = json_object();
        bool ok = true;

        ok &= cli_json_set(o, "seat", cli_json_size(seat));
        ok &= cli_json_set(o, "line", cli_json_str(line));
        ok &= cli_json_set(o, "sig", json_string(sline));
        rc = ok ? cli_json_print(o) : CLI_EXIT_USAGE;
        json_decref(o);
    } else {
        printf("%s\n", sline);
    }
out:
    rpl_seckey_free(sk);
    rpl_log_free(log);
    return rc;
}

/* -------------------------------------------------------------- check */

static int
print_check(const struct args *a, const char *file, size_t no,
            const struct rpl_delivery *d, enum rpl_status st,
            const struct rpl_error *err)
{
    if (st != RPL_OK) {
        cli_file_msg(file, no, "%s", cli_error_text(st, err));
    }
    if (a->is_json) {
        json_t *o = json_object();
        bool ok = true;

        ok &= cli_json_set(o, "file", cli_json_str(file));
        ok &= cli_json_set(o, "delivery", cli_json_size(no));
        ok &= cli_json_set(o, "line", d ? cli_json_size(d->line) : json_null());
        ok &=
            cli_json_set(o, "label", d ? cli_json_str(d->label) : json_null());
        ok &= cli_json_set(o, "valid", json_boolean(st == RPL_OK));
        ok &= cli_json_set(o, "code", json_string(rpl_status_name(st)));
        ok &= cli_json_set(
            o, "error",
            st == RPL_OK ? json_null() : cli_json_str(cli_error_text(st, err)));
        const int prc = ok ? cli_json_print(o) : CLI_EXIT_USAGE;

        json_decref(o);
        if (prc != CLI_EXIT_OK) {
            return prc;
        }
    } else if (d) {
        printf("%s:%zu: line %zu \"%s\": %s\n", file, no, d->line, d->label,
               st == RPL_OK ? "ok, matches its commitment" : "FAILED");
    } else {
        printf("%s:%zu: FAILED\n", file, no);
    }
    return st == RPL_OK ? CLI_EXIT_OK : cli_exit_status(st);
}

/* Checks every delivery of file against log, as seat `as`. */
static int
check_file(const struct args *a, const struct rpl_log *log, size_t as,
           const char *file)
{
    char *buf = NULL;
    size_t len = 0, no = 0;
    int form = 0; /* 1 text, 2 JSON */
    int rc = cli_read_file(file, TEXT_MAX, &buf, &len);
    char *p;

    if (rc == CLI_EXIT_INVALID) {
        cli_file_msg(file, 0, "larger than %u bytes", TEXT_MAX);
        return rc;
    }
    if (rc != CLI_EXIT_OK) {
        cli_file_msg(file, 0, "%s", strerror(errno));
        return rc;
    }
    for (p = buf; p < buf + len;) {
        char *lf = memchr(p, '\n', (size_t)(buf + len - p));
        const size_t n = lf ? (size_t)(lf - p) : (size_t)(buf + len - p);
        struct rpl_delivery d;
        struct rpl_error err;
        enum rpl_status st;
        const int this_form = n > 0 && p[0] == '{' ? 2 : 1;

        no++;
        memset(&err, 0, sizeof(err));
        if (no > LINES_MAX) {
            err.code = RPL_E_LIMIT;
            snprintf(err.msg, sizeof(err.msg),
                     "more than %u deliveries (RPL_MAX_LINES)", LINES_MAX);
            rc = cli_worst(rc,
                           print_check(a, file, no, NULL, RPL_E_LIMIT, &err));
            break;
        }
        if (!lf) {
            err.code = RPL_E_SYNTAX;
            snprintf(err.msg, sizeof(err.msg),
                     "the last line does not end with LF");
            rc = cli_worst(rc,
                           print_check(a, file, no, NULL, RPL_E_SYNTAX, &err));
            break;
        }
        if (n > LINE_MAX_) {
            st = RPL_E_LIMIT;
            snprintf(err.msg, sizeof(err.msg),
                     "a line of %zu bytes: at most %u (RPL_MAX_LINE)", n,
                     LINE_MAX_);
        } else if (form != 0 && this_form != form) {
            st = RPL_E_SYNTAX;
            snprintf(err.msg, sizeof(err.msg),
                     "text and JSON deliveries mixed in one file");
        } else {
            form = this_form;
            st = rpl_delivery_parse(p, n, &d, &err);
        }
        if (st != RPL_OK) {
            err.code = st;
            rc = cli_worst(rc, print_check(a, file, no, NULL, st, &err));
        } else {
            if (d.seat != 0 && d.seat != as) {
                st = RPL_E_FAIRNESS;
                err.code = st;
                err.line = d.line;
                snprintf(err.msg, sizeof(err.msg),
                         "the delivery of line %zu is marked for p%zu, not "
                         "for p%zu",
                         d.line, d.seat, as);
            } else {
                d.seat = as;
                st = rpl_seat_check_delivery(log, &d, &err);
            }
            rc = cli_worst(rc, print_check(a, file, no, &d, st, &err));
        }
        memset(&d, 0, sizeof(d));
        p = lf + 1;
    }
    free(buf);
    return rc;
}

static int
run_check(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_pubkey pin;
    struct rpl_log *log = NULL;
    size_t as = 0;
    int i, rc = cli_load_pubkey(a->pubkey, &pin);

    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    rc = seat_open_log(ctx, a->rest[0], &pin, true, &log);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (!cli_parse_seat(a->as, &as) || as > rpl_log_seats(log)) {
        const size_t seats = rpl_log_seats(log);

        rpl_log_free(log);
        return cli_usage_error("seat",
                               "--as names a seat of the game, p1 to "
                               "p%zu, not '%s'",
                               seats, a->as);
    }
    if (a->seat_key) {
        size_t found = 0;

        rc = seat_own_key(a->rest[0], log, a->seat_key, as, &found);
        if (rc != CLI_EXIT_OK) {
            rpl_log_free(log);
            return rc;
        }
    }
    for (i = 1; i < a->nrest; i++) {
        rc = cli_worst(rc, check_file(a, log, as, a->rest[i]));
    }
    rpl_log_free(log);
    return rc;
}

/* ------------------------------------------------------------- logged */

static int
run_logged(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_pubkey pin;
    struct rpl_log *log = NULL;
    int rc = cli_load_pubkey(a->pubkey, &pin);

    if (rc == CLI_EXIT_OK) {
        rc = seat_open_log(ctx, a->rest[0], &pin, !a->is_end, &log);
    }
    if (rc == CLI_EXIT_OK) {
        rc = seat_logged(ctx, &pin, log, a->rest[0], a->is_end, a->tlog,
                         a->seen, a->is_json, false);
    }
    rpl_log_free(log);
    return rc;
}

/* ------------------------------------------------------------ history */

static json_t *
line_json(const struct rpl_log *log, size_t no)
{
    size_t len = 0;
    const char *s = rpl_log_line(log, no, &len);

    return s ? json_stringn(s, len) : json_null();
}

static void
print_line(const char *file, const struct rpl_log *log, size_t no)
{
    size_t len = 0;
    const char *s = rpl_log_line(log, no, &len);

    if (!s) {
        printf("%s:%zu: (end of log)\n", file, no);
    } else {
        printf("%s:%zu: %.*s\n", file, no, (int)len, s);
    }
}

static int
run_history(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_pubkey pin;
    struct rpl_log *seen = NULL, *final = NULL;
    const char *fseen = a->rest[0], *ffinal = a->rest[1];
    size_t no, n = 0;
    bool extends = true;
    int rc = cli_load_pubkey(a->pubkey, &pin);

    if (rc == CLI_EXIT_OK) {
        rc = seat_open_log(ctx, fseen, &pin, true, &seen);
    }
    if (rc == CLI_EXIT_OK) {
        rc = seat_open_log(ctx, ffinal, &pin, false, &final);
    }
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (a->seat_key) {
        size_t found = 0;

        rc = seat_own_key(ffinal, final, a->seat_key, 0, &found);
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
    }
    n = rpl_log_lines(seen);
    for (no = 1; no <= n; no++) {
        size_t la = 0, lb = 0;
        const char *sa = rpl_log_line(seen, no, &la);
        const char *sb = rpl_log_line(final, no, &lb);

        if (!sb || la != lb || memcmp(sa, sb, la) != 0) {
            extends = false;
            break;
        }
    }
    if (!extends) {
        cli_file_msg(ffinal, no,
                     "the final file parts from the history seen in %s at "
                     "line %zu",
                     fseen, no);
    }
    if (a->is_json) {
        json_t *o = json_object();
        bool ok = true;

        ok &= cli_json_set(o, "seen", cli_json_str(fseen));
        ok &= cli_json_set(o, "final", cli_json_str(ffinal));
        ok &= cli_json_set(o, "extends", json_boolean(extends));
        ok &= cli_json_set(o, "lines", cli_json_size(n));
        ok &=
            cli_json_set(o, "line", extends ? json_null() : cli_json_size(no));
        ok &= cli_json_set(o, "seen_text",
                           extends ? json_null() : line_json(seen, no));
        ok &= cli_json_set(o, "final_text",
                           extends ? json_null() : line_json(final, no));
        rc = ok ? cli_json_print(o) : CLI_EXIT_USAGE;
        json_decref(o);
    } else if (extends) {
        printf("%s: extends %s: its first %zu lines are the history seen\n",
               ffinal, fseen, n);
    } else {
        print_line(fseen, seen, no);
        print_line(ffinal, final, no);
    }
    if (rc == CLI_EXIT_OK && !extends) {
        rc = CLI_EXIT_INVALID;
    }
    if (rc == CLI_EXIT_OK && a->state) {
        /* The table's directory: this game finished as the seat saw it.
         * One abandoned before its start stays a start that did not
         * finish: the seat cannot tell whether the dealer, who may hold
         * every value, saw the deal. */
        char id[33], path[4096];

        if (log_id(final, id) && !log_abandoned(final)) {
            snprintf(path, sizeof(path), "%s/%s.done", a->state, id);
            rc = cli_make_dir(a->state);
            if (rc == CLI_EXIT_OK) {
                rc = cli_write_file(path, "", 0, 0600, true);
            }
            /* A restart shows at the end of the game too. */
            if (rc == CLI_EXIT_OK) {
                warn_restarts(a->state, id);
            }
        }
    }
out:
    rpl_log_free(seen);
    rpl_log_free(final);
    return rc;
}

/* --------------------------------------------------------------- main */

int
cmd_seat(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"key", required_argument, NULL, 'k'},
        {"log", required_argument, NULL, 'l'},
        {"pubkey", required_argument, NULL, 'p'},
        {"as", required_argument, NULL, 'a'},
        {"state", required_argument, NULL, 's'},
        {"seat-key", required_argument, NULL, 'S'},
        {"action", required_argument, NULL, 'A'},
        {"choice", required_argument, NULL, 'C'},
        {"label", required_argument, NULL, 'L'},
        {"nonce", required_argument, NULL, 'N'},
        {"json", no_argument, NULL, 'j'},
        {"tlog", required_argument, NULL, 'T'},
        {"seen", required_argument, NULL, 'W'},
        {"end", no_argument, NULL, 'E'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct args a;
    struct rpl_ctx *ctx = NULL;
    int c, rc, want;

    memset(&a, 0, sizeof(a));
    if (argc >= 2 && argv[1][0] != '-') {
        a.sub = argv[1];
        argc--;
        argv++;
    }
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'k':
            a.key = optarg;
            break;
        case 'l':
            a.log = optarg;
            break;
        case 'p':
            a.pubkey = optarg;
            break;
        case 'a':
            a.as = optarg;
            break;
        case 's':
            a.state = optarg;
            break;
        case 'S':
            a.seat_key = optarg;
            break;
        case 'A':
            a.action = optarg;
            break;
        case 'C':
            a.choice = optarg;
            break;
        case 'L':
            a.label = optarg;
            break;
        case 'N':
            a.nonce = optarg;
            break;
        case 'j':
            a.is_json = true;
            break;
        case 'T':
            a.tlog = optarg;
            break;
        case 'W':
            a.seen = optarg;
            break;
        case 'E':
            a.is_end = true;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("seat", c, argv);
        }
    }
    a.rest = argv + optind;
    a.nrest = argc - optind;
    if (!a.sub) {
        return cli_usage_error("seat", "no subcommand (commit, reveal, "
                                       "starts, entropy, check, due, "
                                       "sign, history or logged)");
    }
    if (strcmp(a.sub, "commit") == 0 || strcmp(a.sub, "reveal") == 0) {
        want = 1;
        if (!a.key || !a.state || !a.pubkey) {
            return cli_usage_error("seat",
                                   "%s needs --key, --state and "
                                   "--pubkey",
                                   a.sub);
        }
        if (!a.tlog != !a.seen) {
            return cli_usage_error("seat",
                                   "%s takes --tlog and --seen "
                                   "together",
                                   a.sub);
        }
    } else if (strcmp(a.sub, "starts") == 0) {
        want = 0;
        if (!a.state) {
            return cli_usage_error("seat", "starts needs --state");
        }
    } else if (strcmp(a.sub, "entropy") == 0) {
        want = 0;
        if (!a.key || !a.log) {
            return cli_usage_error("seat", "entropy needs --key and --log");
        }
        if ((a.tlog || a.seen || a.pubkey) && !(a.tlog && a.seen && a.pubkey)) {
            return cli_usage_error("seat", "entropy takes --tlog, --seen and "
                                           "--pubkey together");
        }
    } else if (strcmp(a.sub, "check") == 0) {
        want = -2;
        if (!a.pubkey || !a.as) {
            return cli_usage_error("seat", "check needs --pubkey and --as");
        }
    } else if (strcmp(a.sub, "due") == 0) {
        want = -1;
        if (!a.pubkey || !a.as) {
            return cli_usage_error("seat", "due needs --pubkey and --as");
        }
    } else if (strcmp(a.sub, "sign") == 0) {
        want = 2;
        if (!a.key) {
            return cli_usage_error("seat", "sign needs --key");
        }
        if (a.action && a.choice) {
            return cli_usage_error("seat", "sign takes --action or --choice, "
                                           "not both");
        }
        if ((a.label || a.nonce) && !(a.label && a.nonce)) {
            return cli_usage_error("seat", "sign takes --label and --nonce "
                                           "together");
        }
        if (a.choice && !a.label) {
            return cli_usage_error("seat", "--choice needs --label and "
                                           "--nonce (the sign request's)");
        }
    } else if (strcmp(a.sub, "history") == 0) {
        want = 2;
        if (!a.pubkey) {
            return cli_usage_error("seat", "history needs --pubkey");
        }
    } else if (strcmp(a.sub, "logged") == 0) {
        want = 1;
        if (!a.pubkey || !a.tlog || !a.seen) {
            return cli_usage_error("seat",
                                   "logged needs --pubkey, --tlog and --seen");
        }
    } else {
        return cli_usage_error("seat", "unknown subcommand '%s'", a.sub);
    }
    if ((want >= 0 && a.nrest != want) || (want < 0 && a.nrest < -want)) {
        return cli_usage_error("seat", "wrong number of files for %s", a.sub);
    }
    const bool is_round =
        strcmp(a.sub, "commit") == 0 || strcmp(a.sub, "reveal") == 0;
    const bool is_check =
        strcmp(a.sub, "check") == 0 || strcmp(a.sub, "due") == 0;

    if ((a.key && strcmp(a.sub, "entropy") != 0 && strcmp(a.sub, "sign") != 0 &&
         !is_round) ||
        (a.log && strcmp(a.sub, "entropy") != 0) || (a.as && !is_check) ||
        (a.state && !is_round && strcmp(a.sub, "starts") != 0 &&
         strcmp(a.sub, "history") != 0) ||
        (a.seat_key && !is_check && strcmp(a.sub, "history") != 0) ||
        ((a.action || a.choice || a.label || a.nonce) &&
         strcmp(a.sub, "sign") != 0) ||
        (a.pubkey && !is_check && strcmp(a.sub, "history") != 0 &&
         strcmp(a.sub, "logged") != 0 && strcmp(a.sub, "entropy") != 0 &&
         !is_round) ||
        ((a.tlog || a.seen) && strcmp(a.sub, "logged") != 0 &&
         strcmp(a.sub, "entropy") != 0 && strcmp(a.sub, "commit") != 0) ||

        (a.is_end && strcmp(a.sub, "logged") != 0)) {
        return cli_usage_error("seat", "an option %s does not take", a.sub);
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (is_round) {
        rc = run_round(&a, ctx, strcmp(a.sub, "reveal") == 0);
    } else if (strcmp(a.sub, "starts") == 0) {
        rc = run_starts(&a, ctx);
    } else if (strcmp(a.sub, "entropy") == 0) {
        rc = run_entropy(&a, ctx);
    } else if (strcmp(a.sub, "check") == 0) {
        rc = run_check(&a, ctx);
    } else if (strcmp(a.sub, "due") == 0) {
        rc = seat_due(ctx, a.pubkey, a.as, a.seat_key, a.is_json, a.rest,
                      a.nrest);
    } else if (strcmp(a.sub, "sign") == 0) {
        rc = run_sign(&a, ctx);
    } else if (strcmp(a.sub, "logged") == 0) {
        rc = run_logged(&a, ctx);
    } else {
        rc = run_history(&a, ctx);
    }
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
