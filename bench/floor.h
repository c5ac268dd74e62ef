/* floor.h - the floor of verify (floor.c), for bench.c. */
#ifndef CAMELOG_BENCH_FLOOR_H
#define CAMELOG_BENCH_FLOOR_H

#include <stdbool.h>
#include <stddef.h>

#include "replay.h"

/* Reads, inflates, chains every line of path and checks every seal with
 * dealer; *seals gets their number.  False when anything fails. */
bool bench_floor_check(struct rpl_ctx *ctx, const char *path,
                       const struct rpl_pubkey *dealer, size_t *seals);

/* The same, and the secret, the seed and every commitment (floor.c);
 * *commitments gets their number, as verify's report counts them. */
bool bench_floor_full(struct rpl_ctx *ctx, const char *path,
                      const struct rpl_pubkey *dealer, size_t *seals,
                      size_t *commitments);

#endif
