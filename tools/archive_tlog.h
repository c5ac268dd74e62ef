/*
 * archive_tlog.h - the archive's use of a host's public log of games
 * (camelog archive add --tlog, audit --tlog; archive_tlog.c).
 */
#ifndef CAMELOG_ARCHIVE_TLOG_H
#define CAMELOG_ARCHIVE_TLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "replay.h"

struct archive_tlog;

/* Opens the public log in dir (a copy of its files, or the host's own
 * directory) and indexes its entries by leaf hash.  pin (may be NULL)
 * is the key its checkpoint must be signed with; without it, the dealer
 * key of the game checked (add) or of one of the log's starts (audit).
 * Reports failures; returns the exit status. */
int archive_tlog_open(struct rpl_ctx *ctx, const char *dir,
                      const struct rpl_pubkey *pin, struct archive_tlog **out);
void archive_tlog_free(struct archive_tlog *x);

/* Whether the log holds the start of the game log (read from file) and,
 * when it has ended, its end, each by an inclusion proof against the
 * checkpoint.  Reports what is missing, naming file; returns the exit
 * status. */
int archive_tlog_check(struct archive_tlog *x, const struct rpl_log *log,
                       const char *file);

/* The abandonment report: per host (dealer key) the games it started,
 * how they ended and the share it abandoned or never ended; per seat
 * (name and key) the games it sat in and the share it abandoned; and
 * how many of the ended games are in the archive (has_id says whether
 * the archive holds game id).  Text, or one JSON object with is_json.
 * Returns the exit status. */
int archive_tlog_report(struct archive_tlog *x, bool is_json,
                        bool (*has_id)(void *ud, const char *id), void *ud);

#endif /* CAMELOG_ARCHIVE_TLOG_H */
