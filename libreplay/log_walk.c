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
 * line, as rpl_log_seek() does.  Events are rendered for each line.
 * Coverage compares the state before and after each game line, and
 * takes its last look before the reveal, where rpl_log_coverage()'s
 * replay ends.
 *
 * The views are kept in one buffer of NUL-terminated texts, with four
 * offsets a line; nothing is lent until the pass has verified.  A log
 * whose deal could not be known ahead (an imported deal, or a reveal that
 * does not make the log complete) is walked again after the pass, by
 * rpl_log_seek() and rpl_log_coverage(), and a pass that failed is run
 * again as rpl_log_verify(), whose error is the one every command
 * reports.
 */
#include <string.h>

#include <sodium.h>

#include "log.h"

#define NONE RPL__VIEWS_NONE

struct walk {
    const struct rpl_walk_opts *o;
    struct rpl__views *v;     /* o->views: what is kept */
    const uint8_t *seed;      /* the deal known from the start, or NULL */
    bool started;             /* the replay has begun (start()) */
    struct rpl__views_at cur; /* the views of the state now */
    size_t pending;           /* lines seen before the start, without views */
    void *prev;               /* o->bits: the state before the line */
    bool covered;             /* the coverage's last look is taken */
};

/* What the views and coverage of log->st are told: the replay's env. */
static void
view_env(struct rpl__env *env, const struct rpl_log *log, const uint8_t *seed)
{
    memset(env, 0, sizeof(*env));
    env->ctx = log->ctx;
    env->id = log->id;
    env->seats = log->seats;
    env->names = (const char *const *)log->name_ptrs;
    env->warn = rpl__no_warning;
    env->imported = log->rep.is_imported;
    env->version = log->version;
    env->seed = seed;
}

/* Ends the text begun at off with its NUL; returns off. */
static size_t
end_text(struct rpl__buf *b, size_t off)
{
    rpl__buf_add(b, "", 1);
    return off;
}

/* The views of log->st now: public, the viewer's, the omniscient one
 * when the state knows the deal. */
static void
render(struct walk *w, const struct rpl_log *log)
{
    struct rpl__buf *b = &w->v->b;
    const int viewer = w->o->viewer;
    struct rpl__env env;

    view_env(&env, log, NULL);
    w->cur.view = b->len;
    log->game->views->view_json(log->st, &env, RPL_VIEW_PUBLIC, b);
    end_text(b, w->cur.view);
    w->cur.seat = NONE;
    if (viewer > 0 && (size_t)viewer <= log->seats) {
        w->cur.seat = b->len;
        log->game->views->view_json(log->st, &env, viewer, b);
        end_text(b, w->cur.seat);
    }
    w->cur.all = NONE;
    if (w->seed) {
        w->cur.all = b->len;
        log->game->views->view_json(log->st, &env, RPL_VIEW_ALL, b);
        end_text(b, w->cur.all);
    }
}

static void
give_views(struct walk *w, size_t no)
{
    struct rpl__views_at *at = &w->v->at[no - 1];

    at->view = w->cur.view;
    at->seat = w->cur.seat;
    at->all = w->cur.all;
}

static enum rpl_status
nomem(const struct walk *w, struct rpl_error *err)
{
    return w->v && w->v->b.failed
               ? rpl__err(err, RPL_E_NOMEM, 0, "out of memory")
               : RPL_OK;
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

static enum rpl_status
walk_start(void *a, const struct rpl_log *log, const uint8_t *seed,
           struct rpl_error *err)
{
    struct walk *w = a;

    w->seed = seed;
    w->started = true;
    if (w->o->bits && rpl__coverage_hooks(log->game)->cover) {
        w->prev = rpl__alloc(log->ctx, log->game->state_size);
        if (!w->prev)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    if (w->v) {
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

    (void)err;
    if (!w->prev || w->covered)
        return RPL_OK;
    if (rpl__log_is_game_line(ln->text, ln->len)) {
        memcpy(w->prev, log->st, log->game->state_size);
    } else {
        cover(w, log, NULL); /* the reveal */
        w->covered = true;
    }
    return RPL_OK;
}

static enum rpl_status
walk_line(void *a, const struct rpl_log *log, const struct rpl__line *ln,
          struct rpl_error *err)
{
    struct walk *w = a;

    if (w->prev)
        cover(w, log, ln);
    if (w->v)
        render(w, log);
    return nomem(w, err);
}

static enum rpl_status
walk_each(void *a, const struct rpl_log *log, const struct rpl__line *ln,
          bool is_header, struct rpl_error *err)
{
    struct walk *w = a;
    struct rpl__buf *b;
    struct rpl__views_at *at;

    if (!w->v)
        return RPL_OK;
    b = &w->v->b;
    at = &w->v->at[ln->no - 1];
    at->events = b->len;
    if (!is_header && rpl__log_is_game_line(ln->text, ln->len)) {
        struct rpl__env env;

        view_env(&env, log, NULL);
        log->game->views->events_json(log->st, &env, ln, b);
    } else {
        rpl__log_events_own(log, ln, is_header, b);
    }
    end_text(b, at->events);
    if (w->started)
        give_views(w, ln->no);
    else
        w->pending = ln->no;
    return nomem(w, err);
}

/* A verify that passed: the views of a log that never reached a game
 * line, and the coverage's last look when no reveal took it. */
static enum rpl_status
walk_end(void *a, const struct rpl_log *log, struct rpl_error *err)
{
    struct walk *w = a;

    if (w->v && !w->started) {
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
views_new(struct rpl_log *log, struct rpl_error *err)
{
    struct rpl__views *v = rpl__calloc(log->ctx, 1, sizeof(*v));

    if (v)
        v->at = rpl__calloc(log->ctx, log->nlines ? log->nlines : 1,
                            sizeof(*v->at));
    if (!v || !v->at) {
        if (v)
            rpl__free(log->ctx, v);
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    rpl__buf_init(&v->b, log->ctx);
    v->nlines = log->nlines;
    log->views = v;
    return RPL_OK;
}

/* Appends text (a library string, freed) at *off. */
static void
keep(struct rpl__views *v, char *text, size_t *off, struct rpl_ctx *ctx)
{
    *off = v->b.len;
    rpl__buf_puts(&v->b, text);
    end_text(&v->b, *off);
    rpl_free(ctx, text);
}

/* The views by rpl_log_seek(), after the pass, for the logs it cannot
 * serve: one line after the other, each view asked for. */
static enum rpl_status
views_again(struct rpl_log *log, int viewer, struct rpl_error *err)
{
    struct rpl__views *v;
    enum rpl_status rc = views_new(log, err);

    if (rc != RPL_OK)
        return rc;
    v = log->views;
    for (size_t no = 1; rc == RPL_OK && no <= log->nlines; no++) {
        struct rpl__views_at *at = &v->at[no - 1];
        char *text = NULL;

        at->seat = at->all = NONE;
        rc = rpl_log_events_json(log, no, &text, err);
        if (rc == RPL_OK) {
            keep(v, text, &at->events, log->ctx);
            rc = rpl_log_view_json(log, RPL_VIEW_PUBLIC, &text, err);
        }
        if (rc == RPL_OK) {
            keep(v, text, &at->view, log->ctx);
            text = NULL;
            if (viewer > 0 && (size_t)viewer <= log->seats)
                rc = rpl_log_view_json(log, viewer, &text, err);
            if (rc == RPL_OK && text)
                keep(v, text, &at->seat, log->ctx);
        }
        if (rc == RPL_OK && log->is_complete) {
            rc = rpl_log_view_json(log, RPL_VIEW_ALL, &text, err);
            if (rc == RPL_OK)
                keep(v, text, &at->all, log->ctx);
        }
        if (rc == RPL_OK && v->b.failed)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
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
    w.o = walk;
    rpl__log_views_free(log);
    if (walk->views)
        rc = views_new(log, &rep->error);
    w.v = log->views;
    if (walk->bits)
        memset(walk->bits, 0, RPL_COVERAGE_WORDS * sizeof(walk->bits[0]));
    if (rc == RPL_OK)
        rc = rpl__log_verify_with(log, opts, rep, &obs);
    if (rc == RPL_OK && !!w.seed == log->is_complete)
        goto out;
    if (rc != RPL_OK)
        rc = rpl_log_verify(log, opts, rep); /* its error, and no views */
    else
        rpl__log_views_free(log);
    if (rc == RPL_OK && walk->views)
        rc = views_again(log, walk->viewer, &rep->error);
    if (rc == RPL_OK && walk->bits)
        rc = rpl_log_coverage(log, walk->bits, &rep->error);
out:
    if (w.prev) {
        sodium_memzero(w.prev, log->game->state_size);
        rpl__free(log->ctx, w.prev);
    }
    return rc;
}

enum rpl_status
rpl_log_line_views(const struct rpl_log *log, size_t no,
                   struct rpl_line_views *out, struct rpl_error *err)
{
    const struct rpl__views *v = log->views;
    const struct rpl__views_at *at;

    rpl__err_clear(err);
    memset(out, 0, sizeof(*out));
    if (!v || !log->is_verified)
        return rpl__err(err, RPL_E_STATE, 0,
                        "no views: call rpl_log_verify_walk() first");
    if (no == 0 || no > v->nlines)
        return rpl__err(err, RPL_E_ARG, 0, "no line %zu (the log has %zu)", no,
                        v->nlines);
    at = &v->at[no - 1];
    out->text = rpl__log_line(log, no, &out->len);
    out->events = v->b.p + at->events;
    out->view = v->b.p + at->view;
    out->seat = at->seat == NONE ? NULL : v->b.p + at->seat;
    out->all = at->all == NONE ? NULL : v->b.p + at->all;
    return RPL_OK;
}
