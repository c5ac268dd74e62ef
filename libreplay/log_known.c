/*
 * log_known.c - the deliveries a log keeps for one seat
 * (rpl_log_learn() in seat.c, or the pass of rpl_log_verify_walk() in
 * log_walk.c), told to the game as a replay reaches their lines: the
 * replay of log.c, or the walk's own replay of the seat.  log.c calls it;
 * it calls nothing of log.c.
 */
#include <sodium.h>

#include "log.h"

void
rpl__log_forget(struct rpl_log *log)
{
    if (log->known) {
        sodium_memzero(log->known, log->nknown * sizeof(*log->known));
        rpl__free(log->ctx, log->known);
    }
    log->known = NULL;
    log->nknown = 0;
    log->known_seat = 0;
}

void
rpl__known_keep(struct rpl_log *log, size_t seat, struct rpl__known *known,
                size_t n)
{
    rpl__log_forget(log);
    log->known = known;
    log->nknown = n;
    log->known_seat = n ? seat : 0;
    log->pos = SIZE_MAX;
}

enum rpl_status
rpl__known_apply(const struct rpl__game *game, void *st, size_t seat,
                 const struct rpl__known *known, size_t n,
                 const struct rpl__line *ln, const struct rpl__env *env,
                 struct rpl__applied *applied, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    for (size_t i = 0; rc == RPL_OK && i < n; i++)
        if (known[i].line == ln->no)
            rc = game->views->seat_learn(st, seat, known[i].label,
                                         known[i].value, err);
    if (rc != RPL_OK && err && err->line == 0)
        err->line = ln->no;
    if (rc == RPL_OK)
        rc = game->play->apply(st, ln, env, applied, err);
    return rc;
}

enum rpl_status
rpl__log_apply(struct rpl_log *log, const struct rpl__line *ln,
               const struct rpl__env *env, struct rpl__applied *applied,
               struct rpl_error *err)
{
    const bool knows =
        !log->is_complete && log->known_seat && log->game->views->seat_learn;

    return rpl__known_apply(log->game, log->st, log->known_seat,
                            knows ? log->known : NULL, knows ? log->nknown : 0,
                            ln, env, applied, err);
}
