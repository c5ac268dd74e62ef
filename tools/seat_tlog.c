/*
 * seat_tlog.c - camelog seat logged: a seat's check that the host's
 * public log holds its game's start (before the seat gives entropy) or
 * its end, with an inclusion proof made from the log's tiles and checked
 * against its signed checkpoint; and that the checkpoint extends the last
 * one the seat kept, with a consistency proof.  A checkpoint that does
 * not is printed beside the one it contradicts: two notes signed by the
 * host's key that cannot both be one log.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <sodium.h>

#include "cli.h"
#include "host_tlog.h"
#include "seat_tlog.h"

#define NOTE_MAX    65536
#define SEEN_PREFIX "checkpoint."

struct note {
    char *text;
    size_t len;
    struct rpl_tlog_checkpoint cp;
    char path[4200];
};

static void
b64(char out[45], const uint8_t h[32])
{
    sodium_bin2base64(out, 45, h, 32, sodium_base64_VARIANT_ORIGINAL);
}

/* Reads and verifies a checkpoint file with the pinned key. */
static int
read_note(const char *path, const struct rpl_pubkey *pin, struct note *n)
{
    struct rpl_error err;
    int rc;

    snprintf(n->path, sizeof(n->path), "%s", path);
    rc = cli_read_file(path, NOTE_MAX, &n->text, &n->len);
    if (rc == 1) {
        cli_file_msg(path, 0, "checkpoint: over %d bytes", NOTE_MAX);
        return CLI_EXIT_INVALID;
    }
    if (rc != 0) {
        cli_file_msg(path, 0, "%s", cli_input_errtext(errno));
        return CLI_EXIT_USAGE;
    }
    const enum rpl_status st =
        rpl_tlog_checkpoint_parse(n->text, n->len, pin, NULL, &n->cp, &err);
    return st == RPL_OK ? CLI_EXIT_OK : cli_file_error(path, st, &err);
}

/* The number of the last checkpoint kept in seen (0: none). */
static int
last_seen(const char *seen, unsigned long *last)
{
    DIR *d = opendir(seen);
    struct dirent *de;

    *last = 0;
    if (!d) {
        cli_file_msg(seen, 0, "%s", strerror(errno));
        return CLI_EXIT_USAGE;
    }
    while ((de = readdir(d))) {
        const size_t pl = sizeof(SEEN_PREFIX) - 1;
        char *end;

        if (strncmp(de->d_name, SEEN_PREFIX, pl) != 0 || de->d_name[pl] < '1' ||
            de->d_name[pl] > '9')
            continue;
        errno = 0;
        const unsigned long v = strtoul(de->d_name + pl, &end, 10);
        if (!errno && !*end && v > *last)
            *last = v;
    }
    closedir(d);
    return CLI_EXIT_OK;
}

static int
open_wait(struct rpl_ctx *ctx, const char *dir, struct rpl_tlog **t)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    struct rpl_error err;
    enum rpl_status st;

    /* A seat reads a copy of the served files; given the host's own
     * directory it waits out the host's appends. */
    for (int waited = 0;; waited += 10) {
        st = rpl_tlog_open(ctx, t, dir, &err);
        if (st != RPL_E_BUSY || waited >= 5000)
            break;
        nanosleep(&tick, NULL);
    }
    return st == RPL_OK ? CLI_EXIT_OK : cli_file_error(dir, st, &err);
}

static void
print_fork(const struct note *old, const struct note *now, const char *why,
           bool is_json)
{
    if (is_json) {
        return;
    }
    printf("FORK: %s does not extend %s: %s\n", now->path, old->path, why);
    printf("-- %s\n%.*s", old->path, (int)old->len, old->text);
    printf("-- %s\n%.*s", now->path, (int)now->len, now->text);
}

/* Whether now extends old; prints the fork otherwise. */
static int
check_extends(struct rpl_tlog *t, const struct note *old,
              const struct note *now, bool is_json, char *why, size_t cap)
{
    struct rpl_tlog_proof *proof = NULL;
    struct rpl_error err;
    uint8_t prefix[32];
    char a[45], b[45];
    enum rpl_status st;

    why[0] = '\0';
    if (strcmp(old->cp.origin, now->cp.origin) != 0) {
        snprintf(why, cap, "another log (origin %s, not %s)", now->cp.origin,
                 old->cp.origin);
    } else if (now->cp.size < old->cp.size) {
        snprintf(why, cap,
                 "the log shrank from %" PRIu64 " to %" PRIu64 " entries",
                 old->cp.size, now->cp.size);
    } else if (now->cp.size == old->cp.size) {
        if (memcmp(now->cp.root, old->cp.root, 32) != 0) {
            b64(a, old->cp.root);
            b64(b, now->cp.root);
            snprintf(why, cap,
                     "two trees of %" PRIu64 " entries, roots %s and %s",
                     now->cp.size, a, b);
        }
    } else if (old->cp.size > 0) {
        proof = malloc(sizeof(*proof));
        if (!proof) {
            cli_msg("out of memory");
            return CLI_EXIT_USAGE;
        }
        st = rpl_tlog_prove_consistency(t, old->cp.size, now->cp.size, proof,
                                        &err);
        if (st == RPL_OK)
            st = rpl_tlog_verify_consistency(&old->cp, &now->cp, proof, &err);
        if (st != RPL_OK &&
            rpl_tlog_root(t, old->cp.size, prefix, &err) == RPL_OK) {
            b64(a, old->cp.root);
            b64(b, prefix);
            snprintf(why, cap,
                     "its first %" PRIu64 " entries have the root %s, not %s",
                     old->cp.size, b, a);
        } else if (st != RPL_OK) {
            snprintf(why, cap, "no consistency proof: %s",
                     cli_error_text(st, &err));
        }
        free(proof);
    }
    if (!why[0])
        return CLI_EXIT_OK;
    cli_file_msg(now->path, 0, "does not extend %s: %s", old->path, why);
    print_fork(old, now, why, is_json);
    return CLI_EXIT_INVALID;
}

/* Index of entry[0..len) in the tree of size entries, searched from the
 * newest; -1 when absent. */
static int
find_entry(struct rpl_tlog *t, uint64_t size, const char *entry, size_t len,
           uint64_t *at, const char *dir)
{
    struct rpl_error err;

    for (uint64_t i = size; i-- > 0;) {
        const uint8_t *data;
        size_t n;
        const enum rpl_status st = rpl_tlog_entry(t, i, size, &data, &n, &err);

        if (st != RPL_OK)
            return cli_file_error(dir, st, &err);
        if (n == len && memcmp(data, entry, len) == 0) {
            *at = i;
            return CLI_EXIT_OK;
        }
    }
    return -1;
}

int
seat_logged(struct rpl_ctx *ctx, const struct rpl_pubkey *pin,
            const struct rpl_log *log, const char *logname, bool is_end,
            const char *dir, const char *seen, bool is_json, bool is_quiet)
{
    struct rpl_tlog *t = NULL;
    struct rpl_tlog_proof *proof = NULL;
    struct rpl_tlog_game g;
    struct rpl_error err;
    struct note now, old;
    char *entry = NULL, path[4200], why[640];
    size_t len = 0;
    unsigned long last = 0;
    uint64_t index = 0;
    uint8_t root[32];
    bool has_old = false, is_new = true;
    enum rpl_status st;
    int rc;

    memset(&now, 0, sizeof(now));
    memset(&old, 0, sizeof(old));
    why[0] = '\0';
    st = host_tlog_entry(ctx, log, is_end ? HOST_TLOG_END : HOST_TLOG_START,
                         &entry, &len, &err);
    if (st == RPL_OK)
        st = rpl_tlog_game_parse(entry, len, &g, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(logname, st, &err);
        goto out;
    }
    rc = open_wait(ctx, dir, &t);
    if (rc == CLI_EXIT_OK) {
        snprintf(path, sizeof(path), "%s/checkpoint", dir);
        rc = read_note(path, pin, &now);
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_make_dir(seen);
    if (rc == CLI_EXIT_OK)
        rc = last_seen(seen, &last);
    if (rc != CLI_EXIT_OK)
        goto out;
    /* The tiles served are those of the checkpoint. */
    if (now.cp.size > rpl_tlog_size(t)) {
        cli_file_msg(dir, 0,
                     "the checkpoint has %" PRIu64
                     " entries, the tiles %" PRIu64,
                     now.cp.size, rpl_tlog_size(t));
        rc = CLI_EXIT_INVALID;
        goto out;
    }
    st = rpl_tlog_root(t, now.cp.size, root, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(dir, st, &err);
        goto out;
    }
    if (memcmp(root, now.cp.root, 32) != 0) {
        cli_file_msg(dir, 0, "the tiles do not lead to the root of %s",
                     now.path);
        rc = CLI_EXIT_INVALID;
        goto out;
    }
    if (last > 0) {
        snprintf(path, sizeof(path), "%s/" SEEN_PREFIX "%lu", seen, last);
        rc = read_note(path, pin, &old);
        if (rc != CLI_EXIT_OK)
            goto out;
        has_old = true;
        rc = check_extends(t, &old, &now, is_json, why, sizeof(why));
        if (rc != CLI_EXIT_OK)
            goto json;
        is_new = old.len != now.len || memcmp(old.text, now.text, now.len) != 0;
    }
    /* A checkpoint that extends the last is kept, the game's entry in it
     * or not. */
    if (is_new) {
        snprintf(path, sizeof(path), "%s/" SEEN_PREFIX "%lu", seen, last + 1);
        rc = cli_write_file(path, now.text, now.len, 0644, false);
        if (rc != CLI_EXIT_OK)
            goto out;
    }
    rc = find_entry(t, now.cp.size, entry, len, &index, dir);
    if (rc == -1) {
        cli_file_msg(now.path, 0,
                     "the %s of game %s is not among its %" PRIu64 " entries",
                     is_end ? "end" : "start", g.id, now.cp.size);
        rc = CLI_EXIT_INVALID;
        goto json;
    }
    if (rc != CLI_EXIT_OK)
        goto out;
    proof = malloc(sizeof(*proof));
    if (!proof) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    st = rpl_tlog_prove_inclusion(t, index, now.cp.size, proof, &err);
    if (st == RPL_OK)
        st = rpl_tlog_verify_inclusion(&now.cp, proof, entry, len, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(dir, st, &err);
        goto out;
    }
json:
    if (is_quiet) {
        /* The verdict is the exit status. */
    } else if (is_json) {
        json_t *o = json_object();
        bool ok = true;
        const bool is_fork = why[0] != '\0';
        const bool is_in = rc == CLI_EXIT_OK;

        ok &= cli_json_set(o, "log", cli_json_str(logname));
        ok &= cli_json_set(o, "entry", json_string(is_end ? "end" : "start"));
        ok &= cli_json_set(o, "id", json_string(g.id));
        ok &= cli_json_set(o, "checkpoint", cli_json_str(now.path));
        ok &= cli_json_set(o, "size", json_integer((json_int_t)now.cp.size));
        ok &= cli_json_set(
            o, "index", is_in ? json_integer((json_int_t)index) : json_null());
        ok &= cli_json_set(o, "seen",
                           has_old ? json_integer((json_int_t)old.cp.size)
                                   : json_null());
        ok &= cli_json_set(o, "extends", json_boolean(!is_fork));
        ok &= cli_json_set(o, "fork",
                           is_fork ? json_pack("{s:s%,s:s%,s:s}", "seen",
                                               old.text, old.len, "checkpoint",
                                               now.text, now.len, "reason", why)
                                   : json_null());
        const int prc = ok ? cli_json_print(o) : CLI_EXIT_USAGE;
        json_decref(o);
        rc = cli_worst(rc, prc);
    } else if (rc == CLI_EXIT_OK) {
        printf("%s: the %s of game %s is entry %" PRIu64 " of %s (%" PRIu64
               " entries)",
               logname, is_end ? "end" : "start", g.id, index, now.path,
               now.cp.size);
        if (has_old)
            printf(", which extends %s (%" PRIu64 " entries)\n", old.path,
                   old.cp.size);
        else
            printf(", the first checkpoint seen\n");
    }
out:
    free(proof);
    free(now.text);
    free(old.text);
    rpl_free(ctx, entry);
    rpl_tlog_close(t);
    return rc;
}
