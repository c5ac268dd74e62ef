/*
 * log_known.c - the deliveries a log keeps for one seat
 * (rpl_log_learn() in seat.c), told to the game as the replay of log.c
 * reaches their lines.  log.c calls it; it calls nothing of log.c.
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

enum rpl_status
rpl__log_apply(struct rpl_log *log, const struct rpl__line *ln,
               const struct rpl__env *env, struct rpl__applied *applied,
               struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    if (!log->is_complete && log->known_seat && log->game->views->seat_learn)
        for (size_t i = 0; rc == RPL_OK && i < log->nknown; i++)
            if (log->known[i].line == ln->no)
                rc = log->game->views->seat_learn(log->st, log->known_seat,
                                                  log->known[i].label,
                                                  log->known[i].value, err);
    if (rc != RPL_OK && err && err->line == 0)
        err->line = ln->no;
    if (rc == RPL_OK)
        rc = log->game->play->apply(log->st, ln, env, applied, err);
    return rc;
}
