/*
 * variants.c - rpl_log_variants(): the house rules a log declares, read
 * from its rules line by the game that owns the notation (struct
 * rpl__game_play.variants), for the tools that say which rules were in force
 * (verify, and the archive).  It reads only the log's text, never its
 * replay state, so it works on a log at any point of its verification.
 */
#include <string.h>

#include "internal.h"
#include "log.h"

bool
rpl_log_variants(const struct rpl_log *log, char *out, size_t cap)
{
    static const char kw[] = "rules ";

    if (cap > 0) {
        out[0] = '\0';
    }
    if (!log->game) {
        return false;
    }
    for (size_t no = 1; no <= log->nlines; no++) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        if (!text || len < sizeof(kw) - 1 ||
            memcmp(text, kw, sizeof(kw) - 1) != 0) {
            continue;
        }
        if (log->game->play->variants && cap > 0) {
            log->game->play->variants(text, len, out, cap);
        }
        return true;
    }
    return false;
}
