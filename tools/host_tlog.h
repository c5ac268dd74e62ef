/*
 * host_tlog.h - what camelog host appends to the public log of its
 * games (camelog host --tlog, camelog-host(1)).
 */
#ifndef CAMELOG_HOST_TLOG_H
#define CAMELOG_HOST_TLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay.h"

enum host_tlog_kind { HOST_TLOG_START, HOST_TLOG_END };

/* The start or end entry of the game log, as host_tlog_add() appends
 * it (*out freed with rpl_free()): what a seat looks for in the log. */
enum rpl_status host_tlog_entry(struct rpl_ctx *ctx, const struct rpl_log *log,
                                enum host_tlog_kind kind, char **out,
                                size_t *len, struct rpl_error *err);

/* Appends the start or end entry of the game log to the log in dir,
 * then signs a new checkpoint with sk.  The end entry says the game was
 * abandoned when its end line is the abort line (by the dealer: the
 * server asked for it) or when the game records a seat's abandonment;
 * otherwise finished or revealed.  With journal (may be NULL), the file
 * <journal>.tlog records the log's size before the append, so that a
 * host resumed after a crash finds an entry already appended at or after
 * it and does not append it again.  *index (may be NULL) gets its index
 * in the log. */
enum rpl_status host_tlog_add(struct rpl_ctx *ctx, const char *dir,
                              const char *journal, const struct rpl_seckey *sk,
                              const struct rpl_log *log,
                              enum host_tlog_kind kind, uint64_t *index,
                              struct rpl_error *err);

/* camelog host's step (cmd_host.c), nothing when dir is NULL: the entry
 * of log, or of rec's log when log is NULL, by host_tlog_add().  A
 * failure is reported on the standard error (the dealer's, with the
 * library's detail) for request number request; false then. */
bool host_tlog_step(struct rpl_ctx *ctx, const char *dir, const char *journal,
                    const struct rpl_seckey *sk, const struct rpl_recorder *rec,
                    const struct rpl_log *log, enum host_tlog_kind kind,
                    size_t request);

#endif /* CAMELOG_HOST_TLOG_H */
