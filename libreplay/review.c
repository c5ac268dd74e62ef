/*
 * review.c - what a reviewer moves by: rpl_log_mark(), the kind of step
 * each line is (a turn, a quest, a detail the next line sums up, the
 * end), from the game's mark() on the states before and after it.
 */
#include <string.h>

#include <sodium.h>

#include "internal.h"
#include "log.h"

enum rpl_status
rpl_log_mark(struct rpl_log *log, size_t no, unsigned *marks,
             struct rpl_error *err)
{
    size_t len = 0;
    const char *text;
    struct rpl__line ln;
    void *before = NULL;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = rpl__log_need_verified(log, err);
    if (rc != RPL_OK)
        return rc;
    if (no == 0 || no > log->nlines)
        return rpl__err(err, RPL_E_ARG, 0, "no line %zu (the log has %zu)", no,
                        log->nlines);
    if (no <= log->header_end) {
        *marks = RPL_MARK_HEADER;
        return RPL_OK;
    }
    /* Kept by rpl_log_verify_walk(), unless a seat's deliveries were
     * learned since, which the states it compared did not know. */
    if (log->views && log->views->marks && !log->known_seat) {
        *marks = log->views->marks[no - 1];
        return RPL_OK;
    }
    text = rpl__log_line(log, no, &len);
    if (!rpl__log_is_game_line(text, len) || !log->game->views->mark) {
        *marks = 0;
        return RPL_OK;
    }
    before = rpl__calloc(log->ctx, 1, log->game->state_size);
    if (!before)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    rc = rpl_log_seek(log, no - 1, err);
    if (rc != RPL_OK)
        goto out;
    memcpy(before, log->st, log->game->state_size);
    rc = rpl_log_seek(log, no, err);
    if (rc == RPL_OK)
        rc = rpl__line_split(&ln, text, len, no, err);
    if (rc == RPL_OK)
        *marks = log->game->views->mark(before, log->st, &ln);
out:
    sodium_memzero(before, log->game->state_size);
    rpl__free(log->ctx, before);
    return rc;
}
