/*
 * seat_log.h - what the commands of camelog seat share (seat_log.c).
 */
#ifndef CAMELOG_SEAT_LOG_H
#define CAMELOG_SEAT_LOG_H

#include <stdbool.h>

#include "replay.h"

/* Reads file as a .camelog (gzip) or as canonical text (a host journal)
 * and verifies it with pin (may be NULL); with is_live the lines after
 * the last seal are taken (a game in progress).  Reports failures
 * itself; returns the exit status. */
int seat_open_log(struct rpl_ctx *ctx, const char *file,
                  const struct rpl_pubkey *pin, bool is_live,
                  struct rpl_log **out);

/* Whether the header of log (read from file) gives seat as (0: any seat)
 * the seat's own public key arg (base64 or a .pub file); *found is the
 * seat that has it.  Reports failures; returns the exit status. */
int seat_own_key(const char *file, const struct rpl_log *log, const char *arg,
                 size_t as, size_t *found);

#endif /* CAMELOG_SEAT_LOG_H */
