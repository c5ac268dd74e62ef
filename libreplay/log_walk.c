/*
 * log_walk.c - rpl_log_verify_walk(): verify, and in the same pass what
 * every line shows a viewer (camelog export, the corpus's digests) and
 * the rule ids the game's lines exercise (coverage).
 *
 * The pass is rpl_log_verify()'s with an observer (log.h) that asks for
 * the deal ahead: on a complete log the state knows the deal from the
 * first game line on, as rpl_log_seek() replays it, and each line is
 * looked at as it is applied.  The state changes only when a game line
 * is applied, so the views are rendered once after each game line (and
 * once before the first) and every other line shares those of the line
 * before it: the reveal and the opens show the state after the last game
 * line, as rpl_log_seek() does.  Events, and descriptions when asked,
 * are rendered for each line; an `open` line is told with the state of
 * the reveal, kept before the reveal changes it.
 * Coverage and the marks (rpl_log_mark()) compare the state before and
 * after each game line; coverage takes its last look before the reveal,
 * where rpl_log_coverage()'s replay ends.
 *
 * A seat's deliveries (walk->learn_seat) are checked at their lines as
 * rpl_log_learn() checks them, on the public replay: the pass's own
 * state, or when the deal is known ahead a state of the walk fed the
 * same lines.  Without the deal the walk keeps the seat's replay too, a
 * state of its own fed the same lines and told the deliveries as
 * rpl_log_seek() tells them, and renders the seat's views from it; the
 * pass's state never sees them.  A delivery refused, or any doubt, and
 * the walk stops taking views: after the pass rpl_log_learn() says why
 * (or takes them, and the views are taken again).
 *
 * The texts are kept in one buffer, NUL-terminated, with their offsets
 * (log.h struct rpl__views); nothing is lent until the pass verified.  A log
 * whose deal could not be known ahead (an imported deal, or a reveal that
 * does not make the log complete) is walked again after the pass, by
 * rpl_log_seek() and rpl_log_coverage(), and a pass that failed is run
 * again as rpl_log_verify(), whose error is the one every command
 * reports, as rpl_log_learn()'s is for deliveries.
 */
#include <string.h>

#include <sodium.h>

#include "log.h"

#define NONE RPL__VIEWS_NONE

struct walk {
    const struct rpl_walk_opts *o;
    struct rpl__views *v;          /* o->views: what is kept */
    const uint8_t *seed;           /* the deal known from the start, or NULL */
    bool started;                  /* the replay has begun (start()) */
    size_t cur[2 + RPL_MAX_SEATS]; /* each viewer's view of the state now */
    size_t pending; /* lines seen before the start, without views */
    void *prev;     /* o->bits or marks: the state before the line */
    bool covered;   /* the coverage's last look is taken */
    void *frozen;   /* views: the state at the reveal */
    /* o->learn_seat's deliveries: what the log keeps of them (at: their
     * index in o->learn), the next to check, and the walk's replay fed
     * the same lines: the seat's (no deal ahead) or the public one. */
    struct rpl__known *known;
    size_t nknown, next;
    void *other;
    bool refused; /* rpl_log_learn() says why after the pass */
};

/* The viewers kept: slot 0 the public, 1 the omniscient, then the seats
 * of v->seats in order; -2 for none. */
static int
viewer_of(const struct rpl__views *v, size_t slot)
{
    uint32_t m = v->seats;

    if (slot == 0)
        return RPL_VIEW_PUBLIC;
    if (slot == 1)
        return RPL_VIEW_ALL;
    for (int k = 1; m; k++, m >>= 1)
        if ((m & 1u) && --slot == 1)
            return k;
    return -2;
}

static size_t
nslots(const struct rpl__views *v)
{
    return (v->width - 1) / 2;
}

static size_t *
off_of(const struct rpl__views *v, size_t no)
{
    return v->off + (no - 1) * v->width;
}

/* What the views and coverage of log->st are told: the replay's env. */
static void
view_env(struct rpl__env *env, const struct rpl_log *log, const uint8_t *seed)
{
    rpl__log_env(env, log);
    env->seed = seed;
}

/* Ends the text begun at off with its NUL; returns off. */
static size_t
end_text(struct rpl__buf *b, size_t off)
{
    rpl__buf_add(b, "", 1);
    return off;
}

/* Whether viewer sees the replay: the omniscient viewer when the state
 * knows the deal, a seat of the game. */
static bool
is_shown(const struct walk *w, const struct rpl_log *log, int viewer)
{
    return !(viewer == RPL_VIEW_ALL && !w->seed) &&
           !(viewer > 0 && (size_t)viewer > log->seats);
}

/* Whether viewer's views are left out (walk->skip). */
static bool
is_skipped(const struct rpl__views *v, int viewer)
{
    return (viewer == RPL_VIEW_PUBLIC && (v->skip & RPL_WALK_NO_PUBLIC)) ||
           (viewer == RPL_VIEW_ALL && (v->skip & RPL_WALK_NO_ALL));
}

/* The state viewer sees: the seat's replay for the seat told its
 * deliveries without the deal, else log->st. */
static const void *
state_for(const struct walk *w, const struct rpl_log *log, int viewer)
{
    return w->other && !w->seed && viewer > 0 &&
                   (size_t)viewer == w->o->learn_seat
               ? w->other
               : log->st;
}

/* Each viewer's view of log->st now; the omniscient one when the state
 * knows the deal. */
static void
render(struct walk *w, const struct rpl_log *log)
{
    struct rpl__buf *b = &w->v->b;
    struct rpl__env env;

    view_env(&env, log, NULL);
    for (size_t i = 0; i < nslots(w->v); i++) {
        const int viewer = viewer_of(w->v, i);

        w->cur[i] = NONE;
        if (!is_shown(w, log, viewer) || is_skipped(w->v, viewer))
            continue;
        w->cur[i] = b->len;
        log->game->views->view_json(state_for(w, log, viewer), &env, viewer, b);
        end_text(b, w->cur[i]);
    }
}

static void
give_views(struct walk *w, size_t no)
{
    size_t *off = off_of(w->v, no);

    for (size_t i = 0; i < nslots(w->v); i++)
        off[1 + 2 * i] = w->cur[i];
}

static enum rpl_status
nomem(const struct walk *w, struct rpl_error *err)
{
    return w->v && w->v->b.failed
               ? rpl__err(err, RPL_E_NOMEM, 0, "out of memory")
               : RPL_OK;
}

/* A copy of the state (NULL when out of memory), wiped when freed. */
static void *
state_copy(const struct rpl_log *log)
{
    void *p = rpl__alloc(log->ctx, log->game->state_size);

    if (p)
        memcpy(p, log->st, log->game->state_size);
    return p;
}

static void
state_free(const struct rpl_log *log, void *p)
{
    if (!p)
        return;
    sodium_memzero(p, log->game->state_size);
    rpl__free(log->ctx, p);
}

/* The coverage of the line ln (NULL: the last look, at the state). */
static void
cover(struct walk *w, const struct rpl_log *log, const struct rpl__line *ln)
{
    const struct rpl__game_coverage *c = rpl__coverage_hooks(log->game);
    struct rpl__env env;

    view_env(&env, log, w->seed);
    c->cover(ln ? w->prev : log->st, log->st, ln, &env, w->o->bits);
}

/* A delivery refused, or a doubt: no more views nor deliveries in this
 * pass; rpl_log_learn() decides after it. */
static void
refuse(struct walk *w, const struct rpl_log *log)
{
    w->refused = true;
    w->v = NULL;
    state_free(log, w->other);
    w->other = NULL;
}

/* The end of the header: the deliveries' checks that need no replay, and
 * the walk's replay from the state of the rules (the public one, before
 * any deal). */
static enum rpl_status
walk_header(void *a, const struct rpl_log *log, const struct rpl__line *ln,
            struct rpl_error *err)
{
    struct walk *w = a;

    if (!w->o->learn_seat || ln->no != log->header_end)
        return RPL_OK;
    if (rpl__known_take(log, w->o->learn_seat, w->o->learn, w->o->nlearn,
                        &w->known, NULL) != RPL_OK) {
        refuse(w, log);
        return RPL_OK;
    }
    w->nknown = w->o->nlearn;
    w->other = state_copy(log);
    if (!w->other)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    return RPL_OK;
}

/* Game line ln, applied to log->st: the walk's replay takes it, and the
 * deliveries of the line are checked on the public replay. */
static void
learn_line(struct walk *w, const struct rpl_log *log,
           const struct rpl__line *ln, const struct rpl__applied *applied)
{
    const size_t seat = w->o->learn_seat;
    struct rpl__applied mine;
    const void *pub = log->st;
    struct rpl__env env;
    enum rpl_status rc = RPL_OK;

    view_env(&env, log, NULL);
    memset(&mine, 0, sizeof(mine));
    if (w->seed) {
        /* log->st knows the deal: the public replay is the walk's. */
        rc = rpl__known_apply(log->game, w->other, seat, NULL, 0, ln, &env,
                              &mine, NULL);
        pub = w->other;
        applied = &mine;
    }
    for (; rc == RPL_OK && w->next < w->nknown &&
           w->known[w->next].line == ln->no;
         w->next++) {
        struct rpl_delivery c = w->o->learn[w->known[w->next].at];

        c.seat = seat;
        rc = rpl__seat_check_at(log, &c, pub, applied, NULL);
        sodium_memzero(&c, sizeof(c));
    }
    if (rc == RPL_OK && !w->seed)
        rc = rpl__known_apply(log->game, w->other, seat, w->known, w->nknown,
                              ln, &env, &mine, NULL);
    if (rc != RPL_OK)
        refuse(w, log);
}

static enum rpl_status
walk_start(void *a, const struct rpl_log *log, const uint8_t *seed,
           struct rpl_error *err)
{
    struct walk *w = a;

    w->seed = seed;
    w->started = true;
    if ((w->o->bits && rpl__coverage_hooks(log->game)->cover) ||
        (w->v && w->v->marks && log->game->views->mark)) {
        w->prev = rpl__alloc(log->ctx, log->game->state_size);
        if (!w->prev)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    if (w->v && w->v->views) {
        render(w, log);
        for (size_t no = 1; no <= w->pending; no++)
            give_views(w, no);
    }
    return nomem(w, err);
}

static enum rpl_status
walk_before(void *a, const struct rpl_log *log, const struct rpl__line *ln,
            struct rpl_error *err)
{
    struct walk *w = a;

    if (rpl__log_is_game_line(ln->text, ln->len)) {
        if (w->prev)
            memcpy(w->prev, log->st, log->game->state_size);
        return RPL_OK;
    }
    /* The reveal. */
    if (w->prev && w->o->bits && !w->covered) {
        cover(w, log, NULL);
        w->covered = true;
    }
    if (!w->frozen) {
        w->frozen = state_copy(log);
        if (!w->frozen)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    return RPL_OK;
}

static enum rpl_status
walk_line(void *a, const struct rpl_log *log, const struct rpl__line *ln,
          const struct rpl__applied *applied, struct rpl_error *err)
{
    struct walk *w = a;

    if (w->prev && w->o->bits && !w->covered)
        cover(w, log, ln);
    if (w->v && w->v->marks && w->prev)
        w->v->marks[ln->no - 1] =
            (uint8_t)log->game->views->mark(w->prev, log->st, ln);
    if (w->other)
        learn_line(w, log, ln, applied);
    if (w->v && w->v->views)
        render(w, log);
    return nomem(w, err);
}

/* Line ln told to each viewer (rpl_log_describe()): a game line by the
 * game, the log layer's own once for all; NONE when it tells nothing. */
static void
describe(struct walk *w, const struct rpl_log *log, const struct rpl__line *ln,
         bool is_game, size_t *off)
{
    struct rpl__buf *b = &w->v->b;
    struct rpl__env env;
    size_t own = NONE;

    view_env(&env, log, NULL);
    if (!is_game) {
        own = b->len;
        rpl__log_describe_own(log, w->frozen ? w->frozen : log->st, ln, b);
        if (b->len == own)
            own = NONE;
        else
            end_text(b, own);
    }
    for (size_t i = 0; i < nslots(w->v); i++) {
        const int viewer = viewer_of(w->v, i);
        size_t *d = &off[2 + 2 * i];

        *d = own;
        if (!is_game || !is_shown(w, log, viewer))
            continue;
        *d = b->len;
        log->game->views->describe(state_for(w, log, viewer), &env, ln, viewer,
                                   b);
        if (b->len == *d)
            *d = NONE;
        else
            end_text(b, *d);
    }
}

static enum rpl_status
walk_each(void *a, const struct rpl_log *log, const struct rpl__line *ln,
          bool is_header, struct rpl_error *err)
{
    struct walk *w = a;
    const bool is_game = !is_header && rpl__log_is_game_line(ln->text, ln->len);
    struct rpl__buf *b;
    size_t *off;

    /* A delivery of a line that was not applied: no game line's. */
    if (w->other && w->next < w->nknown && w->known[w->next].line <= ln->no)
        refuse(w, log);
    if (!w->v)
        return RPL_OK;
    /* A game line's mark is set once it is applied (walk_line()). */
    if (w->v->marks && is_header)
        w->v->marks[ln->no - 1] = RPL_MARK_HEADER;
    b = &w->v->b;
    off = off_of(w->v, ln->no);
    if (w->v->views) {
        off[0] = b->len;
        if (is_game) {
            struct rpl__env env;

            view_env(&env, log, NULL);
            log->game->views->events_json(log->st, &env, ln, b);
        } else {
            rpl__log_events_own(log, ln, is_header, b);
        }
        end_text(b, off[0]);
        if (w->started)
            give_views(w, ln->no);
        else
            w->pending = ln->no;
    }
    /* A game line comes after the start: its views are known. */
    if (w->v->describe && !is_header)
        describe(w, log, ln, is_game, off);
    return nomem(w, err);
}

/* A verify that passed: the views of a log that never reached a game
 * line, and the coverage's last look when no reveal took it. */
static enum rpl_status
walk_end(void *a, const struct rpl_log *log, struct rpl_error *err)
{
    struct walk *w = a;

    if (w->other && w->next < w->nknown)
        refuse(w, log);
    if (w->v && w->v->views && !w->started) {
        render(w, log);
        for (size_t no = 1; no <= w->pending; no++)
            give_views(w, no);
    }
    if (w->o->bits && !w->covered && rpl__coverage_hooks(log->game)->cover) {
        cover(w, log, NULL);
        w->covered = true;
    }
    return nomem(w, err);
}

static enum rpl_status
views_new(struct rpl_log *log, const struct rpl_walk_opts *o,
          struct rpl_error *err)
{
    struct rpl__views *v = rpl__calloc(log->ctx, 1, sizeof(*v));
    size_t seats = 0;

    if (!v)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    v->seats = o->seats &
               (RPL_MAX_SEATS < 32 ? (1u << RPL_MAX_SEATS) - 1u : UINT32_MAX);
    for (uint32_t m = v->seats; m; m >>= 1)
        seats += m & 1u;
    v->views = o->views;
    v->skip = o->skip & (RPL_WALK_NO_PUBLIC | RPL_WALK_NO_ALL);
    v->describe = o->describe;
    v->width = 1 + 2 * (2 + seats);
    v->nlines = log->nlines;
    v->off = rpl__alloc(log->ctx, (log->nlines ? log->nlines : 1) * v->width *
                                      sizeof(*v->off));
    if (o->marks)
        v->marks = rpl__calloc(log->ctx, log->nlines ? log->nlines : 1, 1);
    if (!v->off || (o->marks && !v->marks)) {
        rpl__free(log->ctx, v->off);
        rpl__free(log->ctx, v);
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    for (size_t i = 0; i < (log->nlines ? log->nlines : 1) * v->width; i++)
        v->off[i] = NONE;
    rpl__buf_init(&v->b, log->ctx);
    log->views = v;
    return RPL_OK;
}

/* Appends text (a library string, freed; NULL: none) at *off. */
static void
keep(struct rpl__views *v, char *text, size_t *off, struct rpl_ctx *ctx)
{
    if (!text)
        return;
    *off = v->b.len;
    rpl__buf_puts(&v->b, text);
    end_text(&v->b, *off);
    rpl_free(ctx, text);
}

/* The views by rpl_log_seek(), after the pass, for the logs it cannot
 * serve: one line after the other, each text asked for. */
static enum rpl_status
views_again(struct rpl_log *log, const struct rpl_walk_opts *o,
            struct rpl_error *err)
{
    struct rpl__views *v;
    uint8_t *marks;
    enum rpl_status rc = views_new(log, o, err);

    if (rc != RPL_OK)
        return rc;
    v = log->views;
    /* rpl_log_mark() replays until the marks are kept; it leaves the
     * replay after line no, where the calls below want it. */
    marks = v->marks;
    v->marks = NULL;
    for (size_t no = 1; rc == RPL_OK && no <= log->nlines; no++) {
        size_t *off = off_of(v, no);
        char *text = NULL;
        unsigned m = 0;

        if (marks) {
            rc = rpl_log_mark(log, no, &m, err);
            marks[no - 1] = (uint8_t)m;
        }
        if (rc == RPL_OK && v->views)
            rc = rpl_log_events_json(log, no, &text, err);
        if (rc == RPL_OK)
            keep(v, text, &off[0], log->ctx);
        for (size_t i = 0; rc == RPL_OK && i < nslots(v); i++) {
            const int viewer = viewer_of(v, i);

            if ((viewer == RPL_VIEW_ALL && !log->is_complete) ||
                (viewer > 0 && (size_t)viewer > log->seats))
                continue;
            text = NULL;
            if (v->views && !is_skipped(v, viewer))
                rc = rpl_log_view_json(log, viewer, &text, err);
            if (rc == RPL_OK)
                keep(v, text, &off[1 + 2 * i], log->ctx);
            text = NULL;
            if (rc == RPL_OK && v->describe)
                rc = rpl_log_describe(log, no, viewer, &text, err);
            if (rc == RPL_OK)
                keep(v, text, &off[2 + 2 * i], log->ctx);
        }
        if (rc == RPL_OK && v->b.failed)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    v->marks = marks;
    if (rc != RPL_OK)
        rpl__log_views_free(log);
    return rc;
}

enum rpl_status
rpl_log_verify_walk(struct rpl_log *log, const struct rpl_verify_opts *opts,
                    const struct rpl_walk_opts *walk, struct rpl_report *rep)
{
    struct walk w;
    const struct rpl__observer obs = {
        .a = &w,
        .header = walk_header,
        .line = walk_line,
        .end = walk_end,
        .start = walk_start,
        .before = walk_before,
        .each = walk_each,
        .deal_ahead = true,
    };
    enum rpl_status rc = RPL_OK;

    memset(rep, 0, sizeof(*rep));
    memset(&w, 0, sizeof(w));
    rpl__err_clear(walk->learn_err);
    w.o = walk;
    rpl__log_views_free(log);
    if (walk->views || walk->describe || walk->marks)
        rc = views_new(log, walk, &rep->error);
    w.v = log->views;
    if (walk->bits)
        memset(walk->bits, 0, RPL_COVERAGE_WORDS * sizeof(walk->bits[0]));
    if (rc == RPL_OK)
        rc = rpl__log_verify_with(log, opts, rep, &obs);
    if (rc == RPL_OK && !!w.seed == log->is_complete && !w.refused) {
        if (walk->learn_seat) {
            rpl__known_keep(log, walk->learn_seat, w.known, w.nknown);
            w.known = NULL;
        }
        /* The replay stands after the last line, as rpl_log_seek() would
         * leave it: the state of the reveal, before it changed it. */
        if (w.frozen) {
            memcpy(log->st, w.frozen, log->game->state_size);
            log->pos = log->nlines;
        }
        goto out;
    }
    if (rc != RPL_OK)
        rc = rpl_log_verify(log, opts, rep); /* its error, and no views */
    else
        rpl__log_views_free(log);
    if (rc == RPL_OK && walk->learn_seat) {
        /* Its error, or the deliveries taken for the views again. */
        const enum rpl_status learned = rpl_log_learn(
            log, walk->learn_seat, walk->learn, walk->nlearn, walk->learn_err);

        if (learned != RPL_OK) {
            rc = learned;
            goto out;
        }
    }
    if (rc == RPL_OK && (walk->views || walk->describe || walk->marks))
        rc = views_again(log, walk, &rep->error);
    if (rc == RPL_OK && walk->bits)
        rc = rpl_log_coverage(log, walk->bits, &rep->error);
out:
    if (log->game) {
        state_free(log, w.prev);
        state_free(log, w.frozen);
        state_free(log, w.other);
    }
    if (w.known) {
        sodium_memzero(w.known, w.nknown * sizeof(*w.known));
        rpl__free(log->ctx, w.known);
    }
    return rc;
}

enum rpl_status
rpl_log_line_view(const struct rpl_log *log, size_t no, int viewer,
                  struct rpl_line_view *out, struct rpl_error *err)
{
    const struct rpl__views *v = log->views;
    const size_t *off;
    size_t i = 0;
    bool shown;

    rpl__err_clear(err);
    memset(out, 0, sizeof(*out));
    if (!v || !log->is_verified)
        return rpl__err(err, RPL_E_STATE, 0,
                        "no views: call rpl_log_verify_walk() with views");
    if (no == 0 || no > v->nlines)
        return rpl__err(err, RPL_E_ARG, 0, "no line %zu (the log has %zu)", no,
                        v->nlines);
    if (viewer == RPL_VIEW_ALL && !log->is_complete)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the omniscient view needs a complete log (with its "
                        "reveal)");
    while (i < nslots(v) && viewer_of(v, i) != viewer)
        i++;
    off = off_of(v, no);
    shown = v->views && !is_skipped(v, viewer);
    if (i == nslots(v) || (shown && off[1 + 2 * i] == NONE) ||
        (viewer > 0 && (size_t)viewer > log->seats))
        return rpl__err(err, RPL_E_ARG, 0, "no view of %d was kept", viewer);
    out->text = rpl__log_line(log, no, &out->len);
    out->events = v->views ? v->b.p + off[0] : NULL;
    out->view = shown ? v->b.p + off[1 + 2 * i] : NULL;
    out->describe = off[2 + 2 * i] == NONE ? NULL : v->b.p + off[2 + 2 * i];
    return RPL_OK;
}
