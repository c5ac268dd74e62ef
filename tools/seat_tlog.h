/*
 * seat_tlog.h - camelog seat logged (seat_tlog.c).
 */
#ifndef CAMELOG_SEAT_TLOG_H
#define CAMELOG_SEAT_TLOG_H

#include <stdbool.h>

#include "replay.h"

/* Checks that the public log in dir, whose checkpoint pin signed, holds
 * the start (or with is_end the end) of the game log (named logname),
 * and that its checkpoint extends the last one kept in the directory
 * seen, where it is then kept as checkpoint.N.  Prints the verdict
 * (nothing with is_quiet but failures on the standard error), or the
 * two checkpoints that fork the log; returns the exit status. */
int seat_logged(struct rpl_ctx *ctx, const struct rpl_pubkey *pin,
                const struct rpl_log *log, const char *logname, bool is_end,
                const char *dir, const char *seen, bool is_json, bool is_quiet);

#endif /* CAMELOG_SEAT_TLOG_H */
