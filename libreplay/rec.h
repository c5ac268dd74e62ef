/*
 * rec.h - the recorder's handle, shared by the files of the recorder
 * (rec.c writes the game; the files that answer questions about a game
 * in progress read it).  Nothing here is public API.
 */
#ifndef LIBREPLAY_REC_H
#define LIBREPLAY_REC_H

#include "games/game.h"

struct rpl_recorder {
    struct rpl_ctx *ctx;
    const struct rpl__game *game;
    void *st;
    void *backup; /* the state before an action, restored on refusal */
    struct rpl__env env;
    struct rpl__buf text;
    size_t nlines;
    size_t *start; /* start[i] is the offset of line i + 1 in text */
    size_t start_cap;
    uint8_t head[RPL__HASH];      /* chain of every line so far */
    uint8_t prev_head[RPL__HASH]; /* chain before the last line */
    uint8_t group_base[RPL__HASH];
    uint8_t id[16];
    uint8_t *secret; /* sodium_malloc'ed S */
    uint8_t seed[32];
    bool started;
    size_t seats;
    char names[RPL_MAX_SEATS + 1][RPL_MAX_NAME + 1];
    const char *name_ptrs[RPL_MAX_SEATS + 1];
    struct rpl_pubkey seat_key[RPL_MAX_SEATS + 1];
    bool has_seat_key[RPL_MAX_SEATS + 1];
    const struct rpl_seckey *dealer;
    uint8_t entropy[RPL_MAX_SEATS][32];
    size_t nentropy;
    size_t entropy_seat;
    struct rpl_delivery *deliv;
    size_t ndeliv;
    size_t deliv_cap;
    uint64_t moves;
    bool last_is_seal;
    /* An imported game: the record's deal, given to the module at start. */
    char deal[RPL_MAX_SEATS][32];
    const char *deal_ptrs[RPL_MAX_SEATS];
    size_t first;
};

#endif /* LIBREPLAY_REC_H */
