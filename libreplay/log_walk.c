/*
 * log_walk.c - rpl_log_verify_views(): verify, and in the same pass what
 * every line shows a viewer (camelog export).
 *
 * The pass is rpl_log_verify()'s with an observer (log.h) that asks for
 * the deal ahead: on a complete log the state knows the deal from the
 * first game line on, as rpl_log_seek() replays it, and each line's
 * views are taken as it is applied.  The state changes only when a game
 * line is applied, so the views are rendered once after each game line
 * (and once before the first) and every other line shares those of the
 * line before it: the reveal and the opens show the state after the last
 * game line, as rpl_log_seek() does.  Events are rendered for each line.
 *
 * Everything is kept in one buffer of NUL-terminated texts, with four
 * offsets a line; nothing is lent until the pass has verified.  A log
 * whose deal could not be known ahead (an imported deal, or a reveal that
 * does not make the log complete) is walked again with rpl_log_seek(),
 * and a pass that failed is run again as rpl_log_verify(), whose error is
 * the one every command reports.
 */
#include <string.h>

#include "log.h"

#define NONE RPL__VIEWS_NONE

struct walk {
    struct rpl_log *log;
    struct rpl__views *v;
    int viewer;
    bool knows_deal; /* the state knew the deal from the start */
    bool started;
    struct rpl__views_at cur; /* the views of the state now (events unused) */
    size_t pending;           /* lines seen before the start, without views */
};

/* Ends the text begun at off with its NUL; returns off. */
static size_t
end_text(struct rpl__buf *b, size_t off)
{
    rpl__buf_add(b, "", 1);
    return off;
}

/* What the views of log->st are told: the replay's, without the seed. */
static void
view_env(struct rpl__env *env, const struct rpl_log *log)
{
    memset(env, 0, sizeof(*env));
    env->ctx = log->ctx;
    env->id = log->id;
    env->seats = log->seats;
    env->names = (const char *const *)log->name_ptrs;
    env->warn = rpl__no_warning;
    env->imported = log->rep.is_imported;
    env->version = log->version;
}

/* The views of log->st now: public, the viewer's, the omniscient one. */
static void
render(struct walk *w, const struct rpl_log *log, bool all)
{
    struct rpl__buf *b = &w->v->b;
    struct rpl__env env;

    view_env(&env, log);
    w->cur.view = b->len;
    log->game->views->view_json(log->st, &env, RPL_VIEW_PUBLIC, b);
    end_text(b, w->cur.view);
    w->cur.seat = NONE;
    if (w->viewer > 0 && (size_t)w->viewer <= log->seats) {
        w->cur.seat = b->len;
        log->game->views->view_json(log->st, &env, w->viewer, b);
        end_text(b, w->cur.seat);
    }
    w->cur.all = NONE;
    if (all) {
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
    return w->v->b.failed ? rpl__err(err, RPL_E_NOMEM, 0, "out of memory")
                          : RPL_OK;
}

static enum rpl_status
walk_start(void *a, const struct rpl_log *log, bool knows_deal,
           struct rpl_error *err)
{
    struct walk *w = a;

    w->knows_deal = knows_deal;
    w->started = true;
    render(w, log, knows_deal);
    for (size_t no = 1; no <= w->pending; no++)
        give_views(w, no);
    return nomem(w, err);
}

static enum rpl_status
walk_line(void *a, const struct rpl_log *log, const struct rpl__line *ln,
          struct rpl_error *err)
{
    struct walk *w = a;

    (void)ln;
    render(w, log, w->knows_deal);
    return nomem(w, err);
}

static enum rpl_status
walk_each(void *a, const struct rpl_log *log, const struct rpl__line *ln,
          bool is_header, struct rpl_error *err)
{
    struct walk *w = a;
    struct rpl__buf *b = &w->v->b;
    struct rpl__views_at *at = &w->v->at[ln->no - 1];

    at->events = b->len;
    if (!is_header && rpl__log_is_game_line(ln->text, ln->len)) {
        struct rpl__env env;

        view_env(&env, log);
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

/* A verify that passed and never reached a game line: the views of the
 * state it ends in, for every line. */
static enum rpl_status
walk_end(void *a, const struct rpl_log *log, struct rpl_error *err)
{
    struct walk *w = a;

    if (!w->started) {
        render(w, log, false);
        for (size_t no = 1; no <= w->pending; no++)
            give_views(w, no);
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

/* The walk after the pass, by rpl_log_seek(): what export did before the
 * one pass, for the logs it cannot serve. */
static enum rpl_status
walk_again(struct rpl_log *log, int viewer, struct rpl_error *err)
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
            if (viewer > 0 && (size_t)viewer <= log->seats)
                rc = rpl_log_view_json(log, viewer, &text, err);
            if (rc == RPL_OK && text)
                keep(v, text, &at->seat, log->ctx);
            text = NULL;
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
rpl_log_verify_views(struct rpl_log *log, const struct rpl_verify_opts *opts,
                     int viewer, struct rpl_report *rep)
{
    struct walk w;
    const struct rpl__observer obs = {
        .a = &w,
        .line = walk_line,
        .end = walk_end,
        .start = walk_start,
        .each = walk_each,
        .deal_ahead = true,
    };
    enum rpl_status rc;

    memset(rep, 0, sizeof(*rep));
    rpl__log_views_free(log);
    rc = views_new(log, &rep->error);
    if (rc != RPL_OK)
        return rc;
    memset(&w, 0, sizeof(w));
    w.log = log;
    w.v = log->views;
    w.viewer = viewer;
    rc = rpl__log_verify_with(log, opts, rep, &obs);
    if (rc == RPL_OK && w.knows_deal == log->is_complete)
        return RPL_OK;
    if (rc != RPL_OK)
        rc = rpl_log_verify(log, opts, rep); /* its error, and no views */
    else
        rpl__log_views_free(log);
    if (rc == RPL_OK)
        rc = walk_again(log, viewer, &rep->error);
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
                        "no views: call rpl_log_verify_views() first");
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
