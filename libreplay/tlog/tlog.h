/*
 * tlog.h - what the files of libreplay/tlog/ share: RFC 6962 hashing
 * (merkle.c), the signed note of a checkpoint (note.c), and the limits of
 * the files of a log directory (store.c).  Not part of the API.
 */
#ifndef LIBREPLAY_TLOG_TLOG_H
#define LIBREPLAY_TLOG_TLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* A reader of the LF-ended lines of a file held in memory (an entry, a
 * proof): next_line gives the next line without its LF, false at the end
 * or at a last line that has no LF; no counts the lines read. */
struct rpl__tlog_cursor {
    const char *p, *end;
    size_t no;
};

static inline bool
rpl__tlog_next_line(struct rpl__tlog_cursor *c, const char **line, size_t *len)
{
    if (c->p >= c->end)
        return false;
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    if (!nl)
        return false;
    *line = c->p;
    *len = (size_t)(nl - c->p);
    c->p = nl + 1;
    c->no++;
    return true;
}

/* Tiles are of height 8: 256 hashes (or entries) a full tile. */
#define RPL__TILE_WIDTH 256u
/* Tile levels of a tree of fewer than 2^64 entries. */
#define RPL__TILE_LEVELS 8u

/* The root of 2^k consecutive hashes (k <= 8): the node k levels above
 * them.  hashes holds 2^k * 32 bytes. */
void rpl__tlog_subtree(uint8_t out[32], const uint8_t *hashes, unsigned k);

/* Where the tree's node hashes come from: hash(ud, level, index, out)
 * gives the node at level (0: leaves) and index of the tree of size
 * entries, for a node wholly inside it. */
struct rpl__tlog_nodes {
    enum rpl_status (*hash)(void *ud, unsigned level, uint64_t index,
                            uint8_t out[32], struct rpl_error *err);
    void *ud;
    uint64_t size;
};

/* The root (SHA-256 of nothing for size 0), and the proofs, appended to
 * proof->hash. */
enum rpl_status rpl__tlog_root(const struct rpl__tlog_nodes *nd,
                               uint8_t out[32], struct rpl_error *err);
enum rpl_status rpl__tlog_inclusion(const struct rpl__tlog_nodes *nd,
                                    uint64_t index,
                                    struct rpl_tlog_proof *proof,
                                    struct rpl_error *err);
enum rpl_status rpl__tlog_consistency(const struct rpl__tlog_nodes *nd,
                                      uint64_t old_size,
                                      struct rpl_tlog_proof *proof,
                                      struct rpl_error *err);

/* The checkpoint note: body "<origin>\n<size>\n<base64 root>\n" signed
 * by sk under the key name origin.  *out is NUL-terminated, from ctx. */
enum rpl_status rpl__tlog_note_sign(struct rpl_ctx *ctx,
                                    const struct rpl_seckey *sk,
                                    const struct rpl_tlog_checkpoint *cp,
                                    char **out, size_t *len,
                                    struct rpl_error *err);
/* The checkpoint's shape and body, the signatures not verified (a
 * read-only copy learns its size and origin so). */
enum rpl_status rpl__tlog_note_peek(const char *text, size_t len,
                                    struct rpl_tlog_checkpoint *cp,
                                    struct rpl_error *err);
/* The origin line's rule (also the key name's, and the state file's). */
bool rpl__tlog_origin_ok(const char *s, size_t n);

#endif /* LIBREPLAY_TLOG_TLOG_H */
