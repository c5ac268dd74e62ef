/*
 * seat.c - the player's side of a live game (camelog(5), "The seat's
 * duties"): the chain head of a prefix, the two forms of a delivery (a
 * private message of the dealer to one seat), the check of a delivery
 * against the public commitment line, and the seat's own signatures (of
 * its lines and of its entropy) for a line appended at the end of the log
 * as the seat has seen it.  Nothing here needs the dealer's secret.
 *
 * The seat reaches the game only through struct rpl__game: it replays the
 * verified log's game lines with the module (a "walk") to learn who
 * authored each line and where a vote group began, exactly as
 * rpl_log_verify() does, and applies a candidate line on a copy of the
 * state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"
#include "log.h"

/* The commitment of (label, value) under a given nonce: H(key = nonce,
 * id || label || 0x00 || value), the second half of rpl__commit(). */
static void
commit_with_nonce(uint8_t out[RPL__HASH], const uint8_t nonce[32],
                  const uint8_t id[16], const char *label, const char *value)
{
    static const uint8_t zero = 0;
    crypto_generichash_state st;

    crypto_generichash_init(&st, nonce, 32, RPL__HASH);
    crypto_generichash_update(&st, id, 16);
    crypto_generichash_update(&st, (const uint8_t *)label, strlen(label));
    crypto_generichash_update(&st, &zero, 1);
    crypto_generichash_update(&st, (const uint8_t *)value, strlen(value));
    crypto_generichash_final(&st, out, RPL__HASH);
    sodium_memzero(&st, sizeof(st));
}

/* --------------------------------------------------------------- head */

enum rpl_status
rpl_log_head(const struct rpl_log *log, size_t upto_line, uint8_t head[32],
             struct rpl_error *err)
{
    uint8_t h[RPL__HASH] = {0};

    rpl__err_clear(err);
    if (upto_line > log->nlines)
        return rpl__err(err, RPL_E_INCOMPLETE, upto_line,
                        "line %zu does not exist yet (the log has %zu lines)",
                        upto_line, log->nlines);
    for (size_t no = 1; no <= upto_line; no++) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        rpl__chain(h, text, len);
    }
    memcpy(head, h, RPL__HASH);
    return RPL_OK;
}

/* --------------------------------------------------------------- walk */

/* The log replayed line by line with the game module: what a seat needs
 * to know about the lines so far. */
struct walk {
    const struct rpl_log *log;
    struct rpl__env env;
    void *st;                      /* the module state after the lines */
    void *tmp;                     /* a copy for a candidate line */
    uint8_t head[RPL__HASH];       /* chain after the lines walked */
    uint8_t group_base[RPL__HASH]; /* chain before the last group opened */
    size_t walked;                 /* lines walked */
    size_t entropy_seat;           /* last seat that gave entropy */
    bool started;                  /* a game line was applied */
    bool revealed;                 /* a reveal line was walked */
    /* The last line walked. */
    size_t author;        /* the seat that may sign it, 0: none */
    size_t receiver;      /* the seat its secret goes to as well, 0: none */
    const char *label_kw; /* its label's first word, NULL: its keyword */
    bool is_game;         /* a line of the game module */
    bool in_group;        /* signed against group_base */
    bool opens_group;     /* the first line of its group */
    bool group_open;      /* the last game line belongs to a group */
};

static bool
has_prefix(const char *text, size_t len, const char *prefix)
{
    const size_t n = strlen(prefix);

    return len >= n && memcmp(text, prefix, n) == 0;
}

static enum rpl_status
walk_begin(struct walk *w, const struct rpl_log *log, struct rpl_error *err)
{
    memset(w, 0, sizeof(*w));
    w->log = log;
    if (!log->is_verified || !log->game)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log must verify before a seat uses it");
    w->env.ctx = log->ctx;
    w->env.id = log->id;
    w->env.seats = log->seats;
    w->env.names = log->name_ptrs;
    w->env.imported = log->rep.is_imported;
    w->env.version = log->version;
    w->env.warn = rpl__no_warning;
    w->st = rpl__calloc(log->ctx, 1, log->game->state_size);
    w->tmp = rpl__calloc(log->ctx, 1, log->game->state_size);
    if (!w->st || !w->tmp)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    return RPL_OK;
}

static void
walk_end(struct walk *w)
{
    if (w->st)
        rpl__free(w->log->ctx, w->st);
    if (w->tmp)
        rpl__free(w->log->ctx, w->tmp);
    w->st = w->tmp = NULL;
}

/* Walks the next line. */
static enum rpl_status
walk_line(struct walk *w, struct rpl_error *err)
{
    const struct rpl_log *log = w->log;
    const size_t no = w->walked + 1;
    const struct rpl__game *g = log->game;
    struct rpl__line ln;
    size_t len = 0;
    const char *text = rpl__log_line(log, no, &len);
    enum rpl_status rc = RPL_OK;

    w->author = 0;
    w->receiver = 0;
    w->label_kw = NULL;
    w->is_game = false;
    w->in_group = false;
    w->opens_group = false;
    if (no <= log->header_end) {
        if (has_prefix(text, len, "rules ")) {
            size_t seats = 0;

            rc = rpl__line_split(&ln, text, len, no, err);
            if (rc == RPL_OK)
                rc = g->play->rules(w->st, &ln, &w->env, &seats, err);
        }
    } else if (has_prefix(text, len, "entropy ")) {
        size_t seat = 0;

        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc == RPL_OK && ln.ntok == 3 &&
            rpl__tok_seat(&ln.tok[1], log->seats, &seat)) {
            w->entropy_seat = seat;
            w->author = seat;
        }
    } else if (has_prefix(text, len, "pledge ")) {
        size_t seat = 0;

        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc == RPL_OK && ln.ntok == 3 &&
            rpl__tok_seat(&ln.tok[1], log->seats, &seat))
            w->author = seat;
    } else if (has_prefix(text, len, "pledged ") ||
               has_prefix(text, len, "abandoned ")) {
        /* The dealer's lines of format 2's entropy. */
    } else if (has_prefix(text, len, "reveal ")) {
        w->revealed = true;
    } else if (!has_prefix(text, len, "sig ") &&
               !has_prefix(text, len, "seal ") &&
               !has_prefix(text, len, "open ")) {
        struct rpl__applied applied;

        memset(&applied, 0, sizeof(applied));
        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc == RPL_OK)
            rc = g->play->apply(w->st, &ln, &w->env, &applied, err);
        if (rc == RPL_OK) {
            w->started = true;
            w->is_game = true;
            w->author = applied.author;
            w->receiver = applied.receiver;
            w->label_kw = applied.label_kw;
            w->opens_group = applied.opens_group;
            if (applied.opens_group)
                memcpy(w->group_base, w->head, RPL__HASH);
            w->in_group = applied.in_group || applied.opens_group;
            w->group_open = w->in_group;
        }
    }
    if (rc != RPL_OK)
        return rc;
    rpl__chain(w->head, text, len);
    w->walked = no;
    return RPL_OK;
}

static enum rpl_status
walk_to(struct walk *w, size_t upto, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    while (rc == RPL_OK && w->walked < upto)
        rc = walk_line(w, err);
    return rc;
}

/* ---------------------------------------------------------- deliveries */

/* Whether label can be the one line ln commits: its first word is the
 * line's keyword and each of its seats stands on the line.  (Numbers in a
 * label, such as a round, are not on the line.) */
static bool
label_fits(const char *label, const char *kw, const struct rpl__line *ln,
           size_t seats)
{
    const char *p = label;
    bool first = true;

    while (*p) {
        const char *sp = strchr(p, ' ');
        const size_t n = sp ? (size_t)(sp - p) : strlen(p);
        const struct rpl__tok t = {p, n};
        size_t seat = 0;
        bool found = false;

        if (first && kw) {
            if (strlen(kw) != n || memcmp(kw, p, n) != 0)
                return false;
        } else if (first) {
            if (ln->tok[0].n != n || memcmp(ln->tok[0].p, p, n) != 0)
                return false;
        } else if (rpl__tok_seat(&t, seats, &seat)) {
            for (size_t i = 1; i < ln->ntok && !found; i++)
                found = ln->tok[i].n == n && memcmp(ln->tok[i].p, p, n) == 0;
            if (!found)
                return false;
        }
        first = false;
        p += n;
        if (*p == ' ')
            p++;
    }
    return true;
}

/* rpl_seat_check_delivery()'s checks that need no replay: the form of
 * d, its line in the log and, in format 2, the dealer's signature of it
 * (a delivery it did not sign proves nothing, and every later failure is
 * then the dealer's word). */
static enum rpl_status
check_signed(const struct rpl_log *log, const struct rpl_delivery *d,
             struct rpl_error *err)
{
    uint8_t msg[RPL_DELIVERY_MESSAGE_MAX];
    size_t mlen = 0;

    if (!rpl__delivery_ok(d))
        return rpl__err(err, RPL_E_ARG, 0, "not a delivery");
    if (d->line > log->nlines)
        return rpl__err(err, RPL_E_INCOMPLETE, d->line,
                        "line %zu does not exist yet (the log has %zu lines)",
                        d->line, log->nlines);
    if (log->version < 2)
        return RPL_OK;
    if (!d->has_sig)
        return rpl__err(err, RPL_E_FAIRNESS, d->line,
                        "the delivery \"%s\" of line %zu carries no "
                        "signature of the dealer",
                        d->label, d->line);
    rpl_delivery_message(log->id, d, msg, &mlen);
    if (!log->has_dealer || !rpl__verify(&log->dealer, msg, mlen, d->sig))
        return rpl__err(err, RPL_E_FAIRNESS, d->line,
                        "the dealer's signature of the delivery \"%s\" of "
                        "line %zu does not verify: the dealer did not send "
                        "it",
                        d->label, d->line);
    return RPL_OK;
}

enum rpl_status
rpl__seat_check_at(const struct rpl_log *log, const struct rpl_delivery *d,
                   const void *st, const struct rpl__applied *a,
                   struct rpl_error *err)
{
    struct rpl__env env;
    struct rpl__line ln;
    uint8_t want[RPL__HASH];
    uint8_t got[RPL__HASH];
    char show[80];
    size_t len = 0, to;
    const char *text = rpl__log_line(log, d->line, &len);
    enum rpl_status rc = rpl__line_split(&ln, text, len, d->line, err);

    if (rc != RPL_OK)
        return rc;
    {
        const struct rpl__tok t = {text, len};

        rpl__tok_show(show, sizeof(show), &t);
    }
    if (!a || ln.ntok < 2 ||
        !rpl__tok_hex(&ln.tok[ln.ntok - 1], want, sizeof(want)))
        return rpl__err(err, RPL_E_FAIRNESS, d->line,
                        "line %zu carries no commitment (\"%s\")", d->line,
                        show);
    if (!label_fits(d->label, a->label_kw, &ln, log->seats))
        return rpl__err(err, RPL_E_FAIRNESS, d->line,
                        "the delivery's label \"%s\" is not the one line %zu "
                        "commits (\"%s\")",
                        d->label, d->line, show);
    to = a->author ? a->author : rpl__label_seat(d->label, log->seats);
    if (d->seat != 0 && to != 0 && d->seat != to &&
        !(a->receiver != 0 && d->seat == a->receiver))
        return rpl__err(err, RPL_E_FAIRNESS, d->line,
                        "the delivery of line %zu (\"%s\") is addressed to "
                        "p%zu, not to p%zu",
                        d->line, d->label, to, d->seat);
    if (log->version >= 2 && strlen(d->value) != RPL__PAD)
        return rpl__err(err, RPL_E_FAIRNESS, d->line,
                        "the delivery \"%s\" of line %zu is not padded to %u "
                        "bytes (camelog(5), \"Padding\")",
                        d->label, d->line, RPL__PAD);
    commit_with_nonce(got, d->nonce, log->id, d->label, d->value);
    if (sodium_memcmp(got, want, sizeof(got)) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, d->line,
                        "the delivery \"%s\" does not match the commitment of "
                        "line %zu",
                        d->label, d->line);
    /* A value the rules make impossible: the dealer's lie, which its
     * signature of the delivery proves. */
    if (log->game->play->plausible) {
        char value[sizeof(d->value)];
        const size_t n =
            log->version >= 2 ? rpl__unpad_len(d->value) : strlen(d->value);
        const size_t to_seat = d->seat ? d->seat : to;

        memcpy(value, d->value, n);
        value[n] = '\0';
        rpl__log_env(&env, log);
        rc = log->game->play->plausible(st, &env, to_seat, d->label, value,
                                        d->line, err);
        sodium_memzero(value, sizeof(value));
        if (rc != RPL_OK && err && log->version >= 2) {
            const size_t m = strlen(err->msg);

            snprintf(err->msg + m, sizeof(err->msg) - m, "%s",
                     ": the dealer's signed delivery proves it");
        }
    }
    return rc;
}

enum rpl_status
rpl_seat_check_delivery(const struct rpl_log *log, const struct rpl_delivery *d,
                        struct rpl_error *err)
{
    struct walk w;
    enum rpl_status rc;

    rpl__err_clear(err);
    if (!rpl__delivery_ok(d))
        return rpl__err(err, RPL_E_ARG, 0, "not a delivery");
    rc = walk_begin(&w, log, err);
    if (rc == RPL_OK)
        rc = check_signed(log, d, err);
    if (rc == RPL_OK)
        rc = walk_to(&w, d->line, err);
    if (rc == RPL_OK) {
        const struct rpl__applied a = {
            .author = w.author,
            .receiver = w.receiver,
            .label_kw = w.label_kw,
        };

        rc = rpl__seat_check_at(log, d, w.st, w.is_game ? &a : NULL, err);
    }
    walk_end(&w);
    return rc;
}

/* The seat a committing game line's delivery goes to besides its
 * receiver: its author, or for a line of the dealer the seat it names
 * (its last pK before the commitment: "deal p3", "white p2 3"); 0 for a
 * line that commits nothing. */
static size_t
due_to(const struct walk *w, const struct rpl__line *ln)
{
    uint8_t c[RPL__HASH];
    size_t to = 0;

    if (!w->is_game || ln->ntok < 2 ||
        !rpl__tok_hex(&ln->tok[ln->ntok - 1], c, sizeof(c)))
        return 0;
    if (w->author)
        return w->author;
    for (size_t i = 1; i + 1 < ln->ntok; i++) {
        size_t seat = 0;

        if (rpl__tok_seat(&ln->tok[i], w->log->seats, &seat))
            to = seat;
    }
    return to;
}

enum rpl_status
rpl_seat_due(const struct rpl_log *log, size_t seat, size_t *lines, size_t cap,
             size_t *n, struct rpl_error *err)
{
    struct walk w;
    enum rpl_status rc;

    rpl__err_clear(err);
    *n = 0;
    rc = walk_begin(&w, log, err);
    if (rc == RPL_OK && (seat == 0 || seat > log->seats))
        rc = rpl__err(err, RPL_E_ARG, 0, "no seat p%zu in this game", seat);
    while (rc == RPL_OK && w.walked < log->nlines) {
        struct rpl__line ln;
        size_t len = 0;
        const size_t no = w.walked + 1;
        const char *text = rpl__log_line(log, no, &len);

        rc = walk_line(&w, err);
        if (rc == RPL_OK && w.is_game)
            rc = rpl__line_split(&ln, text, len, no, err);
        if (rc != RPL_OK || !w.is_game)
            continue;
        if (due_to(&w, &ln) == seat ||
            (w.receiver == seat && due_to(&w, &ln) != 0)) {
            if (lines && *n < cap)
                lines[*n] = no;
            (*n)++;
        }
    }
    walk_end(&w);
    return rc;
}

/* ------------------------------------------------------ a seat's view */

static int
known_cmp(const void *a, const void *b)
{
    const struct rpl__known *x = a;
    const struct rpl__known *y = b;

    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return strcmp(x->label, y->label);
}

static void
known_free(struct rpl_ctx *ctx, struct rpl__known *k, size_t n)
{
    if (!k)
        return;
    sodium_memzero(k, n * sizeof(*k));
    rpl__free(ctx, k);
}

/* The checks of rpl_log_learn()'s arguments that need only the header. */
static enum rpl_status
learn_can(const struct rpl_log *log, size_t seat, const struct rpl_delivery *d,
          size_t n, struct rpl_error *err)
{
    if (seat == 0 || seat > log->seats)
        return rpl__err(err, RPL_E_ARG, 0, "no seat p%zu in this game", seat);
    if (n > RPL_MAX_LINES)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "%zu deliveries: at most %u (RPL_MAX_LINES)", n,
                        RPL_MAX_LINES);
    if (n > 0 && !d)
        return rpl__err(err, RPL_E_ARG, 0, "no deliveries");
    if (!log->game->views->seat_learn)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "%s cannot show a seat's view before the reveal",
                        log->game->name);
    return RPL_OK;
}

/* Seat's deliveries d[0..n), each addressed to seat (d->seat 0 is taken
 * as seat) and passing check, as the log keeps them: *out (NULL for
 * none), sorted by line, then label. */
static enum rpl_status
known_take(const struct rpl_log *log, size_t seat, const struct rpl_delivery *d,
           size_t n,
           enum rpl_status (*check)(const struct rpl_log *log,
                                    const struct rpl_delivery *d,
                                    struct rpl_error *err),
           struct rpl__known **out, struct rpl_error *err)
{
    struct rpl__known *known = NULL;
    enum rpl_status rc = learn_can(log, seat, d, n, err);

    *out = NULL;
    if (rc != RPL_OK)
        return rc;
    if (n > 0) {
        known = rpl__calloc(log->ctx, n, sizeof(*known));
        if (!known)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    for (size_t i = 0; rc == RPL_OK && i < n; i++) {
        struct rpl_delivery c = d[i];

        if (c.seat == 0)
            c.seat = seat;
        if (c.seat != seat)
            rc = rpl__err(err, RPL_E_ARG, c.line,
                          "the delivery of line %zu is p%zu's, not p%zu's",
                          c.line, c.seat, seat);
        else
            rc = check(log, &c, err);
        if (rc == RPL_OK) {
            known[i].line = c.line;
            known[i].at = i;
            memcpy(known[i].label, c.label, sizeof(known[i].label));
            memcpy(known[i].value, c.value, sizeof(known[i].value));
            /* The game reads the value without its padding. */
            if (log->version >= 2)
                known[i].value[rpl__unpad_len(known[i].value)] = '\0';
        }
        sodium_memzero(&c, sizeof(c));
    }
    if (rc != RPL_OK) {
        known_free(log->ctx, known, n);
        return rc;
    }
    if (n > 1)
        qsort(known, n, sizeof(*known), known_cmp);
    *out = known;
    return RPL_OK;
}

enum rpl_status
rpl__known_take(const struct rpl_log *log, size_t seat,
                const struct rpl_delivery *d, size_t n, struct rpl__known **out,
                struct rpl_error *err)
{
    return known_take(log, seat, d, n, check_signed, out, err);
}

enum rpl_status
rpl_log_learn(struct rpl_log *log, size_t seat, const struct rpl_delivery *d,
              size_t n, struct rpl_error *err)
{
    struct rpl__known *known = NULL;
    struct rpl__known *old;
    size_t old_n, old_seat;
    enum rpl_status rc = RPL_OK;

    rpl__err_clear(err);
    if (!log->is_verified || !log->game)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log must verify before a seat uses it");
    rc = known_take(log, seat, d, n, rpl_seat_check_delivery, &known, err);
    if (rc != RPL_OK)
        return rc;
    old = log->known;
    old_n = log->nknown;
    old_seat = log->known_seat;
    log->known = known;
    log->nknown = n;
    log->known_seat = n ? seat : 0;
    log->pos = SIZE_MAX;
    /* The game reads each label as the replay passes it: replay it all
     * once, so that a label it refuses is refused here. */
    rc = rpl_log_seek(log, log->nlines, err);
    if (rc != RPL_OK) {
        known_free(log->ctx, known, n);
        log->known = old;
        log->nknown = old_n;
        log->known_seat = old_seat;
        log->pos = SIZE_MAX;
        return rc;
    }
    known_free(log->ctx, old, old_n);
    return rpl_log_seek(log, 0, err);
}

/* -------------------------------------------------------- signatures */

/* A line of seat in an open simultaneous step (the game's step_seats())
 * that cannot follow the log yet because seats before it in seat order
 * are still to act (a vote before the earlier votes are in): applied on
 * w->tmp after stand-ins for those seats, each the same line with its
 * seat's token (the first "pK" of seat) in place of seat's, as the
 * recorder judges a submission.  True with *applied when the line fits
 * there; a line of the step that is not signed against its group's base
 * (a quest card) is refused: its base is not known yet. */
static enum rpl_status
stand_in(struct walk *w, size_t seat, const struct rpl__line *ln,
         struct rpl__applied *applied, bool *fits, struct rpl_error *err)
{
    const struct rpl__game *g = w->log->game;
    const uint64_t mask = g->live->step_seats ? g->live->step_seats(w->st) : 0;
    char me[8];
    char *buf = NULL;
    size_t at = 0;
    enum rpl_status rc = RPL_OK;

    *fits = false;
    if (seat >= 64 || !(mask & ((uint64_t)1 << seat)) ||
        !(mask & (((uint64_t)1 << seat) - 1u)))
        return RPL_OK;
    snprintf(me, sizeof(me), "p%zu", seat);
    for (size_t i = 1; i < ln->ntok && at == 0; i++)
        if (rpl__tok_is(&ln->tok[i], me))
            at = i;
    if (at == 0)
        return RPL_OK;
    buf = rpl__alloc(w->log->ctx, RPL_MAX_LINE + 16);
    if (!buf)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    memcpy(w->tmp, w->st, g->state_size);
    for (size_t j = 1; j < seat; j++) {
        const size_t head = (size_t)(ln->tok[at].p - ln->text);
        const size_t tail = ln->len - head - ln->tok[at].n;
        struct rpl__line sub;
        struct rpl__applied a;
        int n;

        if (!(mask & ((uint64_t)1 << j)))
            continue;
        memcpy(buf, ln->text, head);
        n = snprintf(buf + head, 8, "p%zu", j);
        memcpy(buf + head + (size_t)n, ln->tok[at].p + ln->tok[at].n, tail);
        memset(&a, 0, sizeof(a));
        if (rpl__line_split(&sub, buf, head + (size_t)n + tail, ln->no, NULL) !=
                RPL_OK ||
            g->play->apply(w->tmp, &sub, &w->env, &a, NULL) != RPL_OK)
            goto out;
    }
    memset(applied, 0, sizeof(*applied));
    if (g->play->apply(w->tmp, ln, &w->env, applied, NULL) != RPL_OK ||
        applied->author != seat)
        goto out;
    if (!applied->in_group && !applied->opens_group) {
        rc = rpl__err(err, RPL_E_STATE, ln->no,
                      "p%zu's line is signed against the lines before it: "
                      "sign it once they are in",
                      seat);
        goto out;
    }
    *fits = true;
out:
    rpl__free(w->log->ctx, buf);
    return rc;
}

/* The base of line_text appended at the end of the log, and a check that
 * seat authored it. */
static enum rpl_status
candidate_base(const struct rpl_log *log, size_t seat, const char *line_text,
               uint8_t base[RPL__HASH], const char **label_kw,
               struct rpl_error *err)
{
    struct walk w;
    struct rpl__line ln;
    const size_t len = strlen(line_text);
    const size_t no = log->nlines + 1;
    enum rpl_status rc;

    rc = walk_begin(&w, log, err);
    if (rc != RPL_OK)
        goto out;
    if (seat == 0 || seat > log->seats) {
        rc = rpl__err(err, RPL_E_ARG, 0, "no seat p%zu in this game", seat);
        goto out;
    }
    if (len > RPL_MAX_LINE) {
        rc = rpl__err(err, RPL_E_LIMIT, no,
                      "line of %zu bytes: at most %u (RPL_MAX_LINE)", len,
                      RPL_MAX_LINE);
        goto out;
    }
    rc = walk_to(&w, log->nlines, err);
    if (rc == RPL_OK)
        rc = rpl__line_split(&ln, line_text, len, no, err);
    if (rc != RPL_OK)
        goto out;
    if (w.revealed || log->nlines < log->header_end || log->header_end == 0) {
        rc = rpl__err(err, RPL_E_STATE, no,
                      "a seat signs only between the header and the reveal");
        goto out;
    }
    if (log->version >= 2 && (rpl__tok_is(&ln.tok[0], "entropy") ||
                              rpl__tok_is(&ln.tok[0], "pledge"))) {
        /* A seat signs only the value it made itself: format 2's pledge
         * and entropy lines come from rpl_seat_pledge() and
         * rpl_seat_reveal(), never from a line the host hands it. */
        rc = rpl__err(err, RPL_E_ARG, no,
                      "a seat signs its own pledge and entropy only as it "
                      "makes them (camelog seat commit, camelog seat "
                      "reveal), never %s %.*s line handed to it",
                      rpl__tok_is(&ln.tok[0], "entropy") ? "an" : "a",
                      (int)ln.tok[0].n, ln.tok[0].p);
        goto out;
    }
    if (rpl__tok_is(&ln.tok[0], "entropy")) {
        size_t who = 0;
        uint8_t e[32];

        if (ln.ntok != 3 || !rpl__tok_seat(&ln.tok[1], log->seats, &who) ||
            !rpl__tok_hex(&ln.tok[2], e, sizeof(e))) {
            rc = rpl__err(err, RPL_E_SYNTAX, no,
                          "expected \"entropy pK <64 lowercase hex digits>\"");
            goto out;
        }
        if (who != seat) {
            rc = rpl__err(err, RPL_E_ARG, no,
                          "the line is p%zu's entropy, not p%zu's", who, seat);
            goto out;
        }
        if (w.started) {
            rc = rpl__err(err, RPL_E_RULES, no,
                          "entropy after the game started");
            goto out;
        }
        if (seat <= w.entropy_seat) {
            rc = rpl__err(err, RPL_E_RULES, no,
                          "entropy of p%zu after p%zu: one line per seat, in "
                          "seat order",
                          seat, w.entropy_seat);
            goto out;
        }
        memcpy(base, w.head, RPL__HASH);
    } else if (rpl__tok_is(&ln.tok[0], "sig") ||
               rpl__tok_is(&ln.tok[0], "pledged") ||
               rpl__tok_is(&ln.tok[0], "abandoned") ||
               rpl__tok_is(&ln.tok[0], "seal") ||
               rpl__tok_is(&ln.tok[0], "reveal") ||
               rpl__tok_is(&ln.tok[0], "open")) {
        rc = rpl__err(err, RPL_E_ARG, no, "a seat does not sign a %.*s line",
                      (int)ln.tok[0].n, ln.tok[0].p);
        goto out;
    } else {
        struct rpl__applied applied;

        memset(&applied, 0, sizeof(applied));
        memcpy(w.tmp, w.st, log->game->state_size);
        rc = log->game->play->apply(w.tmp, &ln, &w.env, &applied, err);
        if (rc != RPL_OK) {
            struct rpl_error why;
            bool fits = false;
            const enum rpl_status first = rc;

            memset(&why, 0, sizeof(why));
            if (err)
                why = *err;
            rc = stand_in(&w, seat, &ln, &applied, &fits, err);
            if (rc != RPL_OK)
                goto out;
            if (!fits) {
                size_t named = 0;

                /* Every seat action names its author second: a line that
                 * names another seat is not this seat's to sign, whether
                 * or not it fits here (camelog-seat(1): exit 2). */
                if (ln.ntok >= 2 &&
                    rpl__tok_seat(&ln.tok[1], log->seats, &named) &&
                    named != seat) {
                    rc = rpl__err(err, RPL_E_ARG, no,
                                  "the line names p%zu, not p%zu: a seat "
                                  "signs its own lines only",
                                  named, seat);
                    goto out;
                }
                if (err)
                    *err = why;
                rc = first;
                goto out;
            }
            /* Its group's base: the head of the log when the group has
             * not begun, else the base it began on. */
            rpl__err_clear(err);
            memcpy(base, w.group_open ? w.group_base : w.head, RPL__HASH);
            if (label_kw)
                *label_kw = applied.label_kw;
            goto out;
        }
        if (applied.author != seat) {
            if (applied.author == 0)
                rc = rpl__err(err, RPL_E_ARG, no,
                              "the line is the dealer's, not p%zu's", seat);
            else
                rc = rpl__err(err, RPL_E_ARG, no,
                              "the line is p%zu's, not p%zu's", applied.author,
                              seat);
            goto out;
        }
        /* A line that opens a group signs against the head before it,
         * which becomes the group's base. */
        memcpy(base,
               applied.in_group && !applied.opens_group ? w.group_base : w.head,
               RPL__HASH);
        if (label_kw)
            *label_kw = applied.label_kw;
    }
out:
    walk_end(&w);
    return rc;
}

enum rpl_status
rpl_seat_sig_message(const struct rpl_log *log, size_t seat,
                     const char *line_text, uint8_t *msg, size_t cap,
                     size_t *msg_len, struct rpl_error *err)
{
    uint8_t base[RPL__HASH];
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = candidate_base(log, seat, line_text, base, NULL, err);
    if (rc == RPL_OK)
        rc = rpl_sig_message(base, line_text, strlen(line_text), msg, cap,
                             msg_len, err);
    return rc;
}

/* Whether sk is seat's key in the header. */
static enum rpl_status
check_key(const struct rpl_log *log, size_t seat, const struct rpl_seckey *sk,
          struct rpl_error *err)
{
    struct rpl_pubkey pk;

    if (!log->is_verified)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log must verify before a seat uses it");
    if (seat == 0 || seat > log->seats)
        return rpl__err(err, RPL_E_ARG, 0, "no seat p%zu in this game", seat);
    if (!log->has_seat_key[seat])
        return rpl__err(err, RPL_E_KEY, 0, "p%zu has no key in the header",
                        seat);
    rpl_seckey_pubkey(sk, &pk);
    if (memcmp(pk.id, log->seat_key[seat].id, sizeof(pk.id)) != 0 ||
        memcmp(pk.key, log->seat_key[seat].key, sizeof(pk.key)) != 0)
        return rpl__err(err, RPL_E_KEY, 0,
                        "the secret key is not p%zu's key in the header", seat);
    return RPL_OK;
}

/* Signs msg with sk and writes "sig pK <base64>". */
static void
sign_as(size_t seat, const struct rpl_seckey *sk, const uint8_t *msg,
        size_t msg_len, char sig_line[RPL_SIG_LINE_MAX])
{
    uint8_t sig[64];

    rpl__sign(sk, msg, msg_len, sig);
    rpl__sig_line(sig_line, RPL_SIG_LINE_MAX, seat, sig);
}

_Static_assert(RPL_SIG_LINE_MAX >= sizeof("sig p10 ") + 88,
               "a sig line holds the longest seat and 88 base64 digits");

enum rpl_status
rpl_seat_sign(const struct rpl_log *log, size_t seat,
              const struct rpl_seckey *sk, const char *line_text,
              char sig_line[RPL_SIG_LINE_MAX], struct rpl_error *err)
{
    uint8_t *msg;
    size_t msg_len = 0;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = check_key(log, seat, sk, err);
    if (rc != RPL_OK)
        return rc;
    msg = rpl__alloc(log->ctx, RPL_SIG_MESSAGE_MAX);
    if (!msg)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    rc = rpl_seat_sig_message(log, seat, line_text, msg, RPL_SIG_MESSAGE_MAX,
                              &msg_len, err);
    if (rc == RPL_OK)
        sign_as(seat, sk, msg, msg_len, sig_line);
    rpl__free(log->ctx, msg);
    return rc;
}

enum rpl_status
rpl_seat_entropy(const struct rpl_log *log, size_t seat,
                 const struct rpl_seckey *sk,
                 char entropy_line[RPL_ENTROPY_LINE_MAX],
                 char sig_line[RPL_SIG_LINE_MAX], struct rpl_error *err)
{
    uint8_t e[32];
    char line[RPL_ENTROPY_LINE_MAX];
    enum rpl_status rc;

    rpl__err_clear(err);
    if (log->version >= 2)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "a format 2 log takes entropy in two rounds: a "
                        "pledge, then the value (camelog seat commit, "
                        "camelog seat reveal)");
    randombytes_buf(e, sizeof(e));
    rpl__entropy_line(line, sizeof(line), seat, e);
    rc = rpl_seat_sign(log, seat, sk, line, sig_line, err);
    if (rc == RPL_OK)
        memcpy(entropy_line, line, sizeof(line));
    sodium_memzero(e, sizeof(e));
    return rc;
}

_Static_assert(RPL_ENTROPY_LINE_MAX >= sizeof("entropy p10 ") + 64,
               "an entropy line holds the longest seat and 64 hex digits");

/* Format 2: the checks both rounds share, and the seat's pledge in the
 * log (NULL when it made none). */
static enum rpl_status
entropy2_check(const struct rpl_log *log, size_t seat,
               const struct rpl_seckey *sk, struct rpl_error *err)
{
    enum rpl_status rc = check_key(log, seat, sk, err);

    if (rc != RPL_OK)
        return rc;
    if (log->version < 2)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "a format 1 log takes entropy in one round "
                        "(rpl_seat_entropy)");
    if (log->abandoned)
        return rpl__err(err, RPL_E_STATE, log->abandoned_line,
                        "the game was abandoned (line %zu)",
                        log->abandoned_line);
    return RPL_OK;
}

/* The pledge (is_pledge) or entropy line of v and its sig against base. */
static enum rpl_status
entropy2_lines(const struct rpl_log *log, size_t seat,
               const struct rpl_seckey *sk, bool is_pledge, const uint8_t v[32],
               const uint8_t base[RPL__HASH],
               char out_line[RPL_ENTROPY_LINE_MAX],
               char sig_line[RPL_SIG_LINE_MAX], struct rpl_error *err)
{
    uint8_t *msg;
    size_t msg_len = 0;
    enum rpl_status rc;

    if (is_pledge)
        rpl__pledge_line(out_line, RPL_ENTROPY_LINE_MAX, seat, v);
    else
        rpl__entropy_line(out_line, RPL_ENTROPY_LINE_MAX, seat, v);
    msg = rpl__alloc(log->ctx, RPL_SIG_MESSAGE_MAX);
    if (!msg)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    rc = rpl_sig_message(base, out_line, strlen(out_line), msg,
                         RPL_SIG_MESSAGE_MAX, &msg_len, err);
    if (rc == RPL_OK)
        sign_as(seat, sk, msg, msg_len, sig_line);
    rpl__free(log->ctx, msg);
    return rc;
}

enum rpl_status
rpl_seat_pledge(const struct rpl_log *log, size_t seat,
                const struct rpl_seckey *sk, const uint8_t value[32],
                char pledge_line[RPL_ENTROPY_LINE_MAX],
                char sig_line[RPL_SIG_LINE_MAX], struct rpl_error *err)
{
    uint8_t c[32];
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = entropy2_check(log, seat, sk, err);
    if (rc != RPL_OK)
        return rc;
    if (log->pledged_line)
        return rpl__err(err, RPL_E_STATE, log->pledged_line,
                        "the pledges are closed (line %zu)", log->pledged_line);
    if (log->rep.version && log->header_end < log->nlines) {
        /* Only pledges (and their sigs, seals) may stand after the
         * header while the round is open. */
        for (size_t no = log->header_end + 1; no <= log->nlines; no++) {
            size_t len = 0;
            const char *t = rpl__log_line(log, no, &len);

            if (!has_prefix(t, len, "pledge ") && !has_prefix(t, len, "sig ") &&
                !has_prefix(t, len, "seal "))
                return rpl__err(err, RPL_E_STATE, no,
                                "the game is past its pledges (line %zu)", no);
        }
    }
    rpl__pledge(c, log->id, seat, value);
    if ((log->pledged & (1u << (seat - 1))) &&
        sodium_memcmp(c, log->pledge[seat], 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, log->pledge_at[seat],
                        "the log holds another pledge for p%zu (line %zu), "
                        "not the pledge of this seat's value",
                        seat, log->pledge_at[seat]);
    return entropy2_lines(log, seat, sk, true, c, log->pledge_base, pledge_line,
                          sig_line, err);
}

enum rpl_status
rpl_seat_reveal(const struct rpl_log *log, size_t seat,
                const struct rpl_seckey *sk, const uint8_t value[32],
                char entropy_line[RPL_ENTROPY_LINE_MAX],
                char sig_line[RPL_SIG_LINE_MAX], struct rpl_error *err)
{
    uint8_t c[32];
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = entropy2_check(log, seat, sk, err);
    if (rc != RPL_OK)
        return rc;
    if (!log->start_seal)
        return rpl__err(err, RPL_E_STATE, log->nlines + 1,
                        "no sealed start yet: a seat reveals only once the "
                        "dealer has sealed every pledge (a pledged line and "
                        "its seal)");
    if (!(log->pledged & (1u << (seat - 1))))
        return rpl__err(err, RPL_E_FAIRNESS, log->pledged_line,
                        "the sealed start holds no pledge of p%zu: the "
                        "dealer left it out (pledged line %zu)",
                        seat, log->pledged_line);
    rpl__pledge(c, log->id, seat, value);
    if (sodium_memcmp(c, log->pledge[seat], 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, log->pledge_at[seat],
                        "the pledge of p%zu in the sealed start (line %zu) "
                        "is not the pledge of this seat's value: it was "
                        "changed",
                        seat, log->pledge_at[seat]);
    for (size_t no = log->start_seal + 1; no <= log->nlines; no++) {
        size_t len = 0;
        const char *t = rpl__log_line(log, no, &len);

        if (!has_prefix(t, len, "entropy ") && !has_prefix(t, len, "sig ") &&
            !has_prefix(t, len, "seal "))
            return rpl__err(err, RPL_E_STATE, no,
                            "the game is past its entropy (line %zu)", no);
    }
    return entropy2_lines(log, seat, sk, false, value, log->reveal_base,
                          entropy_line, sig_line, err);
}

enum rpl_status
rpl_seat_sig_base(const struct rpl_log *log, size_t sig_line, size_t *base_line,
                  struct rpl_error *err)
{
    struct walk w;
    size_t len = 0;
    const char *text;
    size_t group_line = 0, line = 0;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = walk_begin(&w, log, err);
    if (rc != RPL_OK)
        goto out;
    text = rpl__log_line(log, sig_line, &len);
    if (!text || sig_line < 2 || !has_prefix(text, len, "sig ")) {
        rc = rpl__err(err, RPL_E_ARG, sig_line, "line %zu is not a sig line",
                      sig_line);
        goto out;
    }
    /* Walk to the signed line, remembering where the last group opened:
     * the base is the chain after the line before it. */
    while (rc == RPL_OK && w.walked < sig_line - 1) {
        rc = walk_line(&w, err);
        if (rc == RPL_OK && w.opens_group)
            group_line = w.walked - 1;
    }
    if (rc != RPL_OK)
        goto out;
    line = w.in_group ? group_line : sig_line - 2;
    /* Format 2: a pledge signs the header's chain, an entropy line the
     * chain through the sealed start. */
    text = rpl__log_line(log, sig_line - 1, &len);
    if (log->version >= 2 && has_prefix(text, len, "pledge "))
        line = log->header_end;
    else if (log->version >= 2 && has_prefix(text, len, "entropy "))
        line = log->start_seal;
    *base_line = line;
out:
    walk_end(&w);
    return rc;
}

/* ------------------------------------------------- informed signing */

/* Whether the n bytes at p are " " followed by 64 lowercase hex digits
 * and nothing else. */
static bool
is_commit_tail(const char *p, size_t n)
{
    if (n != 65 || p[0] != ' ')
        return false;
    for (size_t i = 1; i < n; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
            return false;
    return true;
}

/* The number of items of a comma list. */
static size_t
list_items(const char *s, size_t n)
{
    size_t k = 1;

    for (size_t i = 0; i < n; i++)
        k += s[i] == ',';
    return k;
}

enum rpl_status
rpl_seat_sign_action(const struct rpl_log *log, size_t seat,
                     const struct rpl_seckey *sk, const char *line_text,
                     const char *action, const char *label,
                     const uint8_t *nonce, char sig_line[RPL_SIG_LINE_MAX],
                     struct rpl_error *err)
{
    const size_t ll = strlen(line_text);
    const size_t al = strlen(action);
    const char *sp = strrchr(action, ' ');
    size_t pl, vl, head;
    char count[24];
    const char *kw = NULL;
    uint8_t base[RPL__HASH];
    uint8_t want[RPL__HASH], got[RPL__HASH];
    struct rpl__line ln;
    enum rpl_status rc;

    rpl__err_clear(err);
    if (al > RPL_MAX_LINE || ll > RPL_MAX_LINE)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "a line of more than %u bytes (RPL_MAX_LINE)",
                        RPL_MAX_LINE);
    /* A public action: the line is the action itself, or the action
     * followed by the commitment of the dealer's answer to it (the
     * Lady of the Lake's look). */
    if (strcmp(line_text, action) == 0 ||
        (ll == al + 65 && memcmp(line_text, action, al) == 0 &&
         is_commit_tail(line_text + al, 65)))
        return rpl_seat_sign(log, seat, sk, line_text, sig_line, err);
    /* A secret choice: the action is P V (V the value), the line P C or
     * P N C, with C the commitment and N the number of items of V. */
    if (!sp || ll < 65 || !is_commit_tail(line_text + ll - 65, 65))
        return rpl__err(err, RPL_E_FAIRNESS, log->nlines + 1,
                        "the line to sign is not p%zu's action \"%s\": "
                        "not signed",
                        seat, action);
    pl = (size_t)(sp - action);
    vl = al - pl - 1;
    head = ll - 65;
    snprintf(count, sizeof(count), " %zu", list_items(sp + 1, vl));
    if (!(head == pl && memcmp(line_text, action, pl) == 0) &&
        !(head == pl + strlen(count) && memcmp(line_text, action, pl) == 0 &&
          memcmp(line_text + pl, count, strlen(count)) == 0))
        return rpl__err(err, RPL_E_FAIRNESS, log->nlines + 1,
                        "the line to sign is not p%zu's action \"%s\": "
                        "not signed",
                        seat, action);
    if (!label || !nonce || !label[0])
        return rpl__err(err, RPL_E_ARG, log->nlines + 1,
                        "the line commits to p%zu's secret choice: its sign "
                        "request's label and nonce are needed to check it",
                        seat);
    if (strlen(label) > 63 || !rpl__utf8_ok(label, strlen(label)))
        return rpl__err(err, RPL_E_ARG, 0, "not a label: \"%s\"", label);
    rc = candidate_base(log, seat, line_text, base, &kw, err);
    if (rc != RPL_OK)
        return rc;
    rc = rpl__line_split(&ln, line_text, ll, log->nlines + 1, err);
    if (rc != RPL_OK)
        return rc;
    if (!label_fits(label, kw, &ln, log->seats))
        return rpl__err(err, RPL_E_FAIRNESS, log->nlines + 1,
                        "the label \"%s\" is not the one the line commits: "
                        "not signed",
                        label);
    if (!rpl__tok_hex(&ln.tok[ln.ntok - 1], want, sizeof(want)))
        return rpl__err(err, RPL_E_SYNTAX, log->nlines + 1,
                        "the line ends in no commitment");
    {
        char value[RPL__PAD + 1];

        if (vl > RPL__PAD)
            return rpl__err(err, RPL_E_LIMIT, 0,
                            "a choice of %zu bytes: at most %u", vl, RPL__PAD);
        memcpy(value, sp + 1, vl);
        value[vl] = '\0';
        if (log->version >= 2) {
            char padded[RPL__PAD + 1];

            if (!rpl__pad(padded, value))
                return rpl__err(err, RPL_E_ARG, 0,
                                "the choice \"%s\" cannot be padded", value);
            rpl__commit_nonce(got, nonce, log->id, label, padded, RPL__PAD);
        } else {
            rpl__commit_nonce(got, nonce, log->id, label, value, vl);
        }
        if (sodium_memcmp(got, want, sizeof(got)) != 0)
            return rpl__err(err, RPL_E_FAIRNESS, log->nlines + 1,
                            "the line commits to something other than "
                            "p%zu's choice \"%s\" (\"%s\"): not signed",
                            seat, value, label);
    }
    return rpl_seat_sign(log, seat, sk, line_text, sig_line, err);
}
