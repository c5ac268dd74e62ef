/*
 * host_reply.h - the recorder's parts of camelog host's replies
 * (host_reply.c).  Each returns a new JSON value, or NULL when memory
 * ran out or the recorder refused.
 */
#ifndef CAMELOG_HOST_REPLY_H
#define CAMELOG_HOST_REPLY_H

#include <stddef.h>

#include <jansson.h>

#include "replay.h"

/* The lines first..last (1-based) of the recorder, as strings. */
json_t *host_lines_json(const struct rpl_recorder *rec, size_t first,
                        size_t last);

/* Deliveries first.. of the recorder, per seat: {"p3":[{...}], ...}. */
json_t *host_deliveries_json(const struct rpl_recorder *rec, size_t first);

/* Every pending sign request, under its seat's key. */
json_t *host_sign_json(const struct rpl_recorder *rec);

#endif
