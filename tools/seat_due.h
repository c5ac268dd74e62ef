/*
 * seat_due.h - camelog seat due (seat_due.c).
 */
#ifndef CAMELOG_SEAT_DUE_H
#define CAMELOG_SEAT_DUE_H

#include <stdbool.h>

#include "replay.h"

/* rest[0] is the log, verified with the dealer key pubkey pinned (a game
 * in progress), rest[1..nrest) files of deliveries to seat ("p3"): lists
 * every delivery due to the seat (rpl_seat_due()) with the one it holds,
 * checked, and names each one missing or failed; with seat_key, first
 * checks that the header's key of the seat is the seat's own.  Returns
 * the exit status: 1 when a delivery is missing or fails. */
int seat_due(struct rpl_ctx *ctx, const char *pubkey, const char *seat,
             const char *seat_key, bool is_json, char **rest, int nrest);

#endif /* CAMELOG_SEAT_DUE_H */
