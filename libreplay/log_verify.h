/*
 * log_verify.h - the state of rpl_log_verify()'s one pass over a log,
 * shared by log.c and log_entropy.c (format 2's two rounds of entropy,
 * the seats that took part, the unsigned lines of keyed seats).
 */
#ifndef LIBREPLAY_LOG_VERIFY_H
#define LIBREPLAY_LOG_VERIFY_H

#include "log.h"

struct verify {
    struct rpl_log *log;
    const struct rpl_verify_opts *opts;
    struct rpl_report *rep;
    struct rpl__env env;
    const struct rpl__observer *obs; /* NULL: none */
    bool applied;                    /* the line was a game line, applied */
    struct rpl__applied last;        /* what apply() told of it */
    enum {
        H_CAMELOG,
        H_GAME,
        H_ID,
        H_CREATED,
        H_IMPORT,
        H_RULES,
        H_SEAT,
        H_DEALER,
        H_COMMIT,
        H_DONE
    } hdr;
    size_t next_seat;        /* seat line expected next */
    uint8_t head[RPL__HASH]; /* chain of the lines before this one */
    uint8_t prev_head[RPL__HASH];
    uint8_t group_base[RPL__HASH];
    size_t prev_author;  /* seat that may sign the previous line */
    bool prev_in_group;  /* the previous line signs against group_base */
    size_t entropy_seat; /* last seat that gave entropy */
    size_t entropy_line; /* line of the last entropy line, 0 if none */
    bool started;        /* a game line was applied */
    bool revealed;
    size_t end_line;  /* the game's `end` line, 0 before it */
    size_t last_seal; /* line of the last seal, 0 if none */
    size_t last_open; /* line of the last open, 0 if none */
    /* Format 2: the base a sig of the previous line signs against when it
     * is not prev_head or group_base (a pledge, an entropy line). */
    const uint8_t *prev_base;
    size_t pledge_no;     /* line of the last pledge, 0 if none */
    bool seal_due;        /* the previous line is `pledged`: a seal follows */
    size_t unsigned_seat; /* seat of the first unsigned keyed line */
    /* obs->deal_ahead: the reveal line's secret, read before the pass. */
    bool has_secret;
    uint8_t secret[32];
    uint8_t seed[32]; /* the seed of the deal known ahead */
};

/* log_entropy.c: format 2's lines (camelog(5) "Entropy"). */
enum rpl_status rpl__verify_entropy2(struct verify *v,
                                     const struct rpl__line *ln, size_t seat,
                                     const uint8_t entropy[32],
                                     struct rpl_error *err);
/* Before the first game line: every pledge revealed. */
enum rpl_status rpl__verify_revealed(struct verify *v,
                                     const struct rpl__line *ln,
                                     struct rpl_error *err);
/* After the last line: --require=entropy and =signatures, W-unsigned. */
enum rpl_status rpl__verify_part(struct verify *v, struct rpl_error *err);

/* The header's seat line: its key against opts->seat_pin. */
enum rpl_status rpl__verify_seat_pin(struct verify *v,
                                     const struct rpl__line *ln, size_t seat,
                                     struct rpl_error *err);
/* Before each body line: the seal due after pledged, the unsigned line
 * of a keyed seat before it. */
enum rpl_status rpl__verify_body(struct verify *v, const struct rpl__line *ln,
                                 bool is_seal, bool is_sig,
                                 struct rpl_error *err);
/* A seal that verified: the sealed start when pledged came before it. */
void rpl__verify_sealed(struct verify *v, const struct rpl__line *ln);
/* A sig that verified, of seat: a signed pledge or entropy line. */
void rpl__verify_signed(struct verify *v, const struct rpl__line *ln,
                        size_t seat);
/* A pledge, pledged or abandoned line (kw). */
enum rpl_status rpl__verify_line2(struct verify *v, const struct rpl__line *ln,
                                  enum rpl__kw kw, struct rpl_error *err);
/* The commit line, which ends the header: the base of the pledges. */
void rpl__verify_header_end(struct verify *v, const struct rpl__line *ln);
/* The entropy state of log, before a verify. */
void rpl__verify_reset(struct rpl_log *log);

#endif /* LIBREPLAY_LOG_VERIFY_H */
