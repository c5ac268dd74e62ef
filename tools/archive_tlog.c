/*
 * archive_tlog.c - what an archive checks against a host's public log
 * of games: that each file it is given has its start (and, once ended,
 * its end) in the log, proved by an inclusion proof against the signed
 * checkpoint; and the abandonment report of the log, per host and per
 * seat, where a host that restarts the deals it dislikes shows.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "archive_tlog.h"
#include "cli.h"
#include "host_tlog.h"

#define NOTE_MAX 65536
/* The most seats a start entry lists (camelog(5) "Limits"). */
#define SEATS_MAX 16

struct leaf {
    uint8_t h[RPL_TLOG_HASH_LEN];
    uint64_t index;
};

struct archive_tlog {
    struct rpl_ctx *ctx;
    const char *dir;
    struct rpl_tlog *t;
    char *note;
    size_t note_len;
    struct rpl_pubkey pin;
    bool has_pin;
    struct rpl_pubkey cp_key; /* the key cp was verified with */
    bool has_cp;
    struct rpl_tlog_checkpoint cp;
    struct leaf *leaves; /* sorted by hash */
    uint64_t size;
};

static int
leaf_cmp(const void *a, const void *b)
{
    return memcmp(a, b, RPL_TLOG_HASH_LEN);
}

void
archive_tlog_free(struct archive_tlog *x)
{
    if (!x)
        return;
    rpl_tlog_close(x->t);
    free(x->note);
    free(x->leaves);
    free(x);
}

int
archive_tlog_open(struct rpl_ctx *ctx, const char *dir,
                  const struct rpl_pubkey *pin, struct archive_tlog **out)
{
    struct archive_tlog *x = calloc(1, sizeof(*x));
    struct rpl_error err;
    char path[4200];
    enum rpl_status st;
    int rc;

    *out = NULL;
    if (!x) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    x->ctx = ctx;
    x->dir = dir;
    if (pin) {
        x->pin = *pin;
        x->has_pin = true;
    }
    st = rpl_tlog_open(ctx, &x->t, dir, &err);
    if (st != RPL_OK) {
        archive_tlog_free(x);
        return cli_file_error(dir, st, &err);
    }
    snprintf(path, sizeof(path), "%s/checkpoint", dir);
    rc = cli_read_file(path, NOTE_MAX, &x->note, &x->note_len);
    if (rc != 0) {
        if (rc == 1)
            cli_file_msg(path, 0, "checkpoint: over %d bytes", NOTE_MAX);
        else
            cli_file_msg(path, 0, "%s", cli_input_errtext(errno));
        archive_tlog_free(x);
        return rc == 1 ? CLI_EXIT_INVALID : CLI_EXIT_USAGE;
    }
    x->size = rpl_tlog_size(x->t);
    x->leaves = calloc(x->size ? x->size : 1, sizeof(*x->leaves));
    if (!x->leaves) {
        cli_msg("out of memory");
        archive_tlog_free(x);
        return CLI_EXIT_USAGE;
    }
    for (uint64_t i = 0; i < x->size; i++) {
        const uint8_t *data;
        size_t len;

        st = rpl_tlog_entry(x->t, i, x->size, &data, &len, &err);
        if (st != RPL_OK) {
            archive_tlog_free(x);
            return cli_file_error(dir, st, &err);
        }
        rpl_tlog_leaf_hash(data, len, x->leaves[i].h);
        x->leaves[i].index = i;
    }
    qsort(x->leaves, x->size, sizeof(*x->leaves), leaf_cmp);
    *out = x;
    return CLI_EXIT_OK;
}

/* The checkpoint, verified with pk (once per key). */
static int
verify_cp(struct archive_tlog *x, const struct rpl_pubkey *pk, bool is_quiet)
{
    struct rpl_error err;
    char path[4200];

    if (x->has_cp && memcmp(&x->cp_key, pk, sizeof(*pk)) == 0)
        return CLI_EXIT_OK;
    const enum rpl_status st =
        rpl_tlog_checkpoint_parse(x->note, x->note_len, pk, NULL, &x->cp, &err);
    if (st != RPL_OK) {
        x->has_cp = false;
        if (is_quiet)
            return CLI_EXIT_INVALID;
        snprintf(path, sizeof(path), "%s/checkpoint", x->dir);
        return cli_file_error(path, st, &err);
    }
    x->cp_key = *pk;
    x->has_cp = true;
    return CLI_EXIT_OK;
}

/* Whether entry[0..len) is in the checkpoint's tree, by its proof. */
static int
prove(struct archive_tlog *x, const char *entry, size_t len, const char *file,
      const char *what)
{
    struct rpl_tlog_proof *proof;
    struct rpl_error err;
    struct leaf key, *hit;
    enum rpl_status st;

    rpl_tlog_leaf_hash(entry, len, key.h);
    hit = x->size
              ? bsearch(&key, x->leaves, x->size, sizeof(*x->leaves), leaf_cmp)
              : NULL;
    if (!hit || hit->index >= x->cp.size) {
        cli_file_msg(file, 0,
                     "its %s is not in the public log %s (%" PRIu64 " entries)",
                     what, x->dir, x->cp.size);
        return CLI_EXIT_INVALID;
    }
    proof = malloc(sizeof(*proof));
    if (!proof) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    st = rpl_tlog_prove_inclusion(x->t, hit->index, x->cp.size, proof, &err);
    if (st == RPL_OK)
        st = rpl_tlog_verify_inclusion(&x->cp, proof, entry, len, &err);
    free(proof);
    if (st != RPL_OK) {
        cli_file_msg(file, 0, "its %s, entry %" PRIu64 " of %s: %s", what,
                     hit->index, x->dir, cli_error_text(st, &err));
        return CLI_EXIT_INVALID;
    }
    return CLI_EXIT_OK;
}

int
archive_tlog_check(struct archive_tlog *x, const struct rpl_log *log,
                   const char *file)
{
    struct rpl_pubkey pk;
    struct rpl_error err;
    char *entry = NULL;
    size_t len = 0;
    enum rpl_status st;
    int rc;

    if (x->has_pin)
        pk = x->pin;
    else if (!rpl_log_dealer(log, &pk)) {
        cli_file_msg(file, 0, "no dealer key: it cannot be in a public log");
        return CLI_EXIT_INVALID;
    }
    rc = verify_cp(x, &pk, false);
    if (rc != CLI_EXIT_OK)
        return rc;
    st = host_tlog_entry(x->ctx, log, HOST_TLOG_START, &entry, &len, &err);
    if (st != RPL_OK)
        return cli_file_error(file, st, &err);
    rc = prove(x, entry, len, file, "start");
    rpl_free(x->ctx, entry);
    entry = NULL;
    if (rc != CLI_EXIT_OK)
        return rc;
    st = host_tlog_entry(x->ctx, log, HOST_TLOG_END, &entry, &len, &err);
    if (st == RPL_E_INCOMPLETE)
        return CLI_EXIT_OK; /* in progress: no end yet */
    if (st != RPL_OK)
        return cli_file_error(file, st, &err);
    rc = prove(x, entry, len, file, "end");
    rpl_free(x->ctx, entry);
    return rc;
}

/* ---------------------------------------------------------- the report */

struct tally {
    char *name; /* a dealer key, or a seat's "name"[ key=...] */
    uint64_t games, finished, revealed, by_dealer, never, by_seat;
};

struct table {
    struct tally *v;
    size_t n, cap;
};

static struct tally *
tally_of(struct table *tb, const char *name, size_t len)
{
    for (size_t i = 0; i < tb->n; i++) {
        if (strlen(tb->v[i].name) == len &&
            memcmp(tb->v[i].name, name, len) == 0)
            return &tb->v[i];
    }
    if (tb->n == tb->cap) {
        const size_t cap = tb->cap ? 2 * tb->cap : 16;
        struct tally *v = realloc(tb->v, cap * sizeof(*v));

        if (!v)
            return NULL;
        tb->v = v;
        tb->cap = cap;
    }
    struct tally *t = &tb->v[tb->n];
    memset(t, 0, sizeof(*t));
    t->name = malloc(len + 1);
    if (!t->name)
        return NULL;
    memcpy(t->name, name, len);
    t->name[len] = '\0';
    tb->n++;
    return t;
}

static void
table_free(struct table *tb)
{
    for (size_t i = 0; i < tb->n; i++)
        free(tb->v[i].name);
    free(tb->v);
}

/* A game of the log: its start, its seats' tallies, its end. */
struct game {
    char id[33];
    size_t host; /* index in the hosts' table */
    size_t seat[SEATS_MAX];
    size_t seats;
    int outcome; /* -1: never ended */
    size_t by;
};

struct games {
    struct game *v;
    size_t n, cap;
};

static int
game_cmp(const void *a, const void *b)
{
    return strcmp(((const struct game *)a)->id, ((const struct game *)b)->id);
}

static double
rate(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The seats of a start entry ("seat pK <rest>" lines) into g. */
static bool
read_seats(const uint8_t *data, size_t len, struct table *seats, struct game *g)
{
    const char *p = (const char *)data, *end = p + len;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        const char *sp = n > 6 && memcmp(p, "seat p", 6) == 0
                             ? memchr(p + 6, ' ', n - 6)
                             : NULL;

        if (sp && g->seats < SEATS_MAX) {
            struct tally *t = tally_of(seats, sp + 1, (size_t)(p + n - sp - 1));

            if (!t)
                return false;
            g->seat[g->seats++] = (size_t)(t - seats->v);
        }
        p += n + 1;
    }
    return true;
}

static int
collect(struct archive_tlog *x, struct table *hosts, struct table *seats,
        struct games *gs)
{
    struct rpl_tlog_game *ends = NULL;
    size_t nends = 0;
    struct rpl_error err;
    int rc = CLI_EXIT_OK;

    ends = calloc(x->cp.size ? x->cp.size : 1, sizeof(*ends));
    gs->v = calloc(x->cp.size ? x->cp.size : 1, sizeof(*gs->v));
    if (!ends || !gs->v) {
        free(ends);
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    for (uint64_t i = 0; i < x->cp.size; i++) {
        struct rpl_tlog_game g;
        const uint8_t *data;
        size_t len;
        enum rpl_status st =
            rpl_tlog_entry(x->t, i, x->cp.size, &data, &len, &err);
        char where[4300];

        if (st == RPL_OK)
            st = rpl_tlog_game_parse(data, len, &g, &err);
        if (st != RPL_OK) {
            snprintf(where, sizeof(where), "%s: entry %" PRIu64, x->dir, i);
            rc = cli_worst(rc, cli_file_error(where, st, &err));
            continue;
        }
        if (g.outcome != RPL_TLOG_STARTED) {
            ends[nends++] = g;
            continue;
        }
        struct game *gm = &gs->v[gs->n++];
        struct tally *h = tally_of(hosts, g.dealer, strlen(g.dealer));

        memcpy(gm->id, g.id, sizeof(gm->id));
        gm->outcome = -1;
        if (!h || !read_seats(data, len, seats, gm)) {
            free(ends);
            cli_msg("out of memory");
            return CLI_EXIT_USAGE;
        }
        gm->host = (size_t)(h - hosts->v);
    }
    qsort(gs->v, gs->n, sizeof(*gs->v), game_cmp);
    for (size_t k = 0; k < nends; k++) {
        struct game key, *gm;

        memcpy(key.id, ends[k].id, sizeof(key.id));
        gm = gs->n ? bsearch(&key, gs->v, gs->n, sizeof(*gs->v), game_cmp)
                   : NULL;
        if (!gm) {
            cli_file_msg(x->dir, 0, "game %s ends but never started",
                         ends[k].id);
            rc = cli_worst(rc, CLI_EXIT_INVALID);
            continue;
        }
        gm->outcome = (int)ends[k].outcome;
        gm->by = ends[k].by;
    }
    free(ends);
    for (size_t k = 0; k < gs->n; k++) {
        const struct game *gm = &gs->v[k];
        struct tally *h = &hosts->v[gm->host];

        h->games++;
        for (size_t s = 0; s < gm->seats; s++)
            seats->v[gm->seat[s]].games++;
        if (gm->outcome < 0)
            h->never++;
        else if (gm->outcome == RPL_TLOG_FINISHED)
            h->finished++;
        else if (gm->outcome == RPL_TLOG_REVEALED)
            h->revealed++;
        else if (gm->by == 0)
            h->by_dealer++;
        else {
            h->by_seat++;
            if (gm->by <= gm->seats)
                seats->v[gm->seat[gm->by - 1]].by_seat++;
        }
    }
    return rc;
}

/* The checkpoint verified with the pin or the key of one of the hosts. */
static int
verify_any(struct archive_tlog *x, const struct table *hosts)
{
    struct rpl_pubkey pk;
    struct rpl_error err;

    if (x->has_pin)
        return verify_cp(x, &x->pin, false);
    for (size_t i = 0; i < hosts->n; i++) {
        if (rpl_pubkey_parse(&pk, hosts->v[i].name, strlen(hosts->v[i].name),
                             &err) == RPL_OK &&
            verify_cp(x, &pk, true) == CLI_EXIT_OK)
            return CLI_EXIT_OK;
    }
    cli_file_msg(x->dir, 0,
                 "checkpoint: signed by none of the dealer keys of its games");
    return CLI_EXIT_INVALID;
}

int
archive_tlog_report(struct archive_tlog *x, bool is_json,
                    bool (*has_id)(void *ud, const char *id), void *ud)
{
    struct table hosts = {0}, seats = {0};
    struct games gs = {0};
    struct rpl_error err;
    uint64_t ended = 0, archived = 0;
    int rc;

    /* The hosts first, from the entries as served, to know which key
     * signs; then the whole directory checked against the checkpoint. */
    x->cp.size = x->size;
    rc = collect(x, &hosts, &seats, &gs);
    if (rc == CLI_EXIT_OK)
        rc = verify_any(x, &hosts);
    if (rc == CLI_EXIT_OK) {
        const enum rpl_status st =
            rpl_tlog_audit(x->t, &x->cp_key, NULL, &x->cp, &err);

        if (st != RPL_OK)
            rc = cli_file_error(x->dir, st, &err);
    }
    if (rc == CLI_EXIT_OK && x->cp.size != x->size) {
        /* Only what the checkpoint covers. */
        table_free(&hosts);
        table_free(&seats);
        free(gs.v);
        memset(&hosts, 0, sizeof(hosts));
        memset(&seats, 0, sizeof(seats));
        memset(&gs, 0, sizeof(gs));
        rc = collect(x, &hosts, &seats, &gs);
    }
    if (rc != CLI_EXIT_OK)
        goto out;
    json_t *missing = json_array();
    for (size_t k = 0; k < gs.n; k++) {
        if (gs.v[k].outcome < 0)
            continue;
        ended++;
        if (has_id(ud, gs.v[k].id))
            archived++;
        else if (missing)
            json_array_append_new(missing, json_string(gs.v[k].id));
    }
    if (is_json) {
        json_t *o = json_object(), *jh = json_array(), *js = json_array();
        bool ok = o && jh && js && missing;

        for (size_t i = 0; ok && i < hosts.n; i++) {
            const struct tally *t = &hosts.v[i];
            ok &= json_array_append_new(
                      jh,
                      json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:f}", "dealer",
                                t->name, "started", (json_int_t)t->games,
                                "finished", (json_int_t)t->finished, "revealed",
                                (json_int_t)t->revealed, "abandoned_by_dealer",
                                (json_int_t)t->by_dealer, "never_ended",
                                (json_int_t)t->never, "abandoned_by_seats",
                                (json_int_t)t->by_seat, "host_rate",
                                rate(t->by_dealer + t->never, t->games) /
                                    100.0)) == 0;
        }
        for (size_t i = 0; ok && i < seats.n; i++) {
            const struct tally *t = &seats.v[i];
            ok &= json_array_append_new(
                      js, json_pack("{s:s,s:I,s:I,s:f}", "seat", t->name,
                                    "games", (json_int_t)t->games, "abandoned",
                                    (json_int_t)t->by_seat, "rate",
                                    rate(t->by_seat, t->games) / 100.0)) == 0;
        }
        ok &= cli_json_set(o, "tlog", cli_json_str(x->dir));
        ok &= cli_json_set(o, "entries", json_integer((json_int_t)x->cp.size));
        ok &= cli_json_set(o, "games", cli_json_size(gs.n));
        ok &= cli_json_set(o, "hosts", json_incref(jh));
        ok &= cli_json_set(o, "seats", json_incref(js));
        ok &= cli_json_set(o, "ended", json_integer((json_int_t)ended));
        ok &= cli_json_set(o, "archived", json_integer((json_int_t)archived));
        ok &= cli_json_set(o, "missing", json_incref(missing));
        rc = ok ? cli_json_print(o) : CLI_EXIT_USAGE;
        json_decref(o);
        json_decref(jh);
        json_decref(js);
    } else {
        printf("public log %s: %" PRIu64 " entries, %zu games, the checkpoint "
               "and every tile verified\n",
               x->dir, x->cp.size, gs.n);
        for (size_t i = 0; i < hosts.n; i++) {
            const struct tally *t = &hosts.v[i];

            printf("host %s: %" PRIu64 " started, %" PRIu64
                   " finished, %" PRIu64
                   " revealed; abandoned by the host %" PRIu64
                   " (%.1f%%: %" PRIu64 " by the dealer, %" PRIu64
                   " never ended); by a seat %" PRIu64 " (%.1f%%)\n",
                   t->name, t->games, t->finished, t->revealed,
                   t->by_dealer + t->never,
                   rate(t->by_dealer + t->never, t->games), t->by_dealer,
                   t->never, t->by_seat, rate(t->by_seat, t->games));
        }
        for (size_t i = 0; i < seats.n; i++) {
            const struct tally *t = &seats.v[i];

            fputs("seat ", stdout);
            cli_put_text_escaped(stdout, t->name);
            printf(": %" PRIu64 " games, abandoned %" PRIu64 " (%.1f%%)\n",
                   t->games, t->by_seat, rate(t->by_seat, t->games));
        }
        printf("ended games in the archive: %" PRIu64 " of %" PRIu64 "\n",
               archived, ended);
        for (size_t k = 0; missing && k < json_array_size(missing); k++)
            printf("not in the archive: %s\n",
                   json_string_value(json_array_get(missing, k)));
    }
    json_decref(missing);
out:
    table_free(&hosts);
    table_free(&seats);
    free(gs.v);
    return rc;
}
