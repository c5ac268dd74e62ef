/*
 * coverage.c - which rule ids of its game a verified log exercised
 * (rpl_log_coverage()), and the games' tables of ids and corpus rules
 * lines.  It names no game: each module hands its table and its cover()
 * through its struct rpl__game_coverage (games/game.h).
 */
#include <string.h>

#include "games/game.h"
#include "log.h"

_Static_assert(RPL_COVERAGE_MAX % 64 == 0, "coverage sets are whole words");

/* The coverage table of a game by name; NULL for an unknown game. */
static const struct rpl__game_coverage *
game_of(const char *game)
{
    const struct rpl__game *const g = rpl__game_find(game, strlen(game));

    return g ? rpl__coverage_hooks(g) : NULL;
}

size_t
rpl_coverage_count(const char *game)
{
    const struct rpl__game_coverage *const g = game_of(game);

    return g && g->cover ? g->ncov : 0;
}

const struct rpl_coverage_id *
rpl_coverage_id(const char *game, size_t i)
{
    const struct rpl__game_coverage *const g = game_of(game);

    return g && g->cover && i < g->ncov ? &g->cov[i] : NULL;
}

const char *
rpl_coverage_rules(const char *game, size_t i)
{
    const struct rpl__game_coverage *const g = game_of(game);

    if (!g || !g->corpus_rules)
        return NULL;
    for (size_t k = 0; k < i; k++)
        if (!g->corpus_rules[k])
            return NULL;
    return g->corpus_rules[i];
}

/* Whether line `text` after the header is the game's (not one of the
 * body keywords the log layer owns). */
static bool
is_game_line(const char *text, size_t len)
{
    const char *sp = memchr(text, ' ', len);
    const struct rpl__tok kw = {text, sp ? (size_t)(sp - text) : len};

    return !sp || rpl__kw_body(&kw) == RPL__KW_NONE;
}

enum rpl_status
rpl_log_coverage(struct rpl_log *log, uint64_t bits[RPL_COVERAGE_WORDS],
                 struct rpl_error *err)
{
    struct rpl__env env;
    struct rpl__applied applied;
    const struct rpl__game *g;
    const struct rpl__game_coverage *c;
    void *before = NULL;
    enum rpl_status rc;

    rpl__err_clear(err);
    memset(bits, 0, RPL_COVERAGE_WORDS * sizeof(bits[0]));
    if (!log->is_verified)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log must verify before its coverage is read");
    g = log->game;
    c = rpl__coverage_hooks(g);
    if (!c->cover)
        return RPL_OK;
    before = rpl__alloc(log->ctx, g->state_size);
    if (!before)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    rc = rpl__log_reset(log, err);
    if (rc != RPL_OK)
        goto out;
    memset(&env, 0, sizeof(env));
    env.ctx = log->ctx;
    env.id = log->id;
    env.seats = log->seats;
    env.names = (const char *const *)log->name_ptrs;
    env.imported = log->rep.is_imported;
    env.version = log->version;
    env.warn = rpl__no_warning;
    env.w = log;
    if (log->is_complete)
        env.seed = log->seed;
    for (size_t no = log->header_end + 1; no <= log->nlines; no++) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);
        struct rpl__line ln;

        if (!is_game_line(text, len))
            continue;
        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc != RPL_OK)
            break;
        memcpy(before, log->st, g->state_size);
        memset(&applied, 0, sizeof(applied));
        rc = g->play->apply(log->st, &ln, &env, &applied, err);
        if (rc != RPL_OK)
            break;
        c->cover(before, log->st, &ln, &env, bits);
    }
    if (rc == RPL_OK) {
        c->cover(log->st, log->st, NULL, &env, bits);
        log->pos = log->nlines;
    } else {
        log->pos = SIZE_MAX;
    }
out:
    rpl__free(log->ctx, before);
    return rc;
}
