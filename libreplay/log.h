/*
 * log.h - struct rpl_log, shared by log.c (reading, verifying, replaying)
 * and rec.c (the recorder hands its text to a log).
 */
#ifndef LIBREPLAY_LOG_H
#define LIBREPLAY_LOG_H

#include "games/game.h"

/* A warning of the last verification: its line (0: none) and text. */
struct rpl__warning {
    size_t line;
    char msg[200];
};

struct rpl_log {
    struct rpl_ctx *ctx;
    char *text; /* NUL-terminated */
    size_t len;
    size_t *start; /* start[i] is the offset of line i + 1 */
    size_t nlines;
    bool ends_with_lf;
    bool is_text; /* read as plain text, not gzip */
    /* The file's bytes when they are the canonical container (one gzip
     * member with the header camelog writes: rpl__gz_is_canonical()),
     * kept for the archive, which stores them as they are; else NULL. */
    uint8_t *gz;
    size_t gz_len;

    /* What the last verification found. */
    bool is_verified;
    bool is_complete;
    struct rpl_report rep;
    /* The warnings kept, nwarn of RPL_MAX_WARNINGS, in a block of their
     * own that is not zeroed: most logs have one or none, and 13 KiB of
     * them zeroed in the struct swept the data cache of every verify. */
    struct rpl__warning *warn;
    size_t nwarn;

    /* The header.  version: the format of the first line, 1 or 2
     * (camelog(5)); 0 before it verified. */
    unsigned version;
    const struct rpl__game *game;
    size_t header_end; /* the commit line */
    size_t seats;
    uint8_t id[16];
    char names[RPL_MAX_SEATS + 1][RPL_MAX_NAME + 1];
    const char *name_ptrs[RPL_MAX_SEATS + 1];
    struct rpl_pubkey seat_key[RPL_MAX_SEATS + 1];
    bool has_seat_key[RPL_MAX_SEATS + 1];
    struct rpl_pubkey dealer;
    bool has_dealer; /* the dealer line verified */
    uint8_t commit[32];
    uint8_t entropy[RPL_MAX_SEATS][32];
    size_t nentropy;
    uint8_t seed[32];
    bool has_seed;
    /* Format 2's two rounds of entropy (camelog(5) "Entropy"), by seat;
     * masks hold seat K as bit K-1. */
    uint8_t pledge[RPL_MAX_SEATS + 1][32];
    uint8_t value[RPL_MAX_SEATS + 1][32];
    size_t pledge_at[RPL_MAX_SEATS + 1]; /* line of pK's pledge */
    uint32_t pledged, revealed;
    size_t pledged_line;     /* the `pledged` line, 0 if none */
    size_t start_seal;       /* the seal that follows it, 0 if none */
    uint8_t pledge_base[32]; /* chain after the header: a pledge's base */
    uint8_t reveal_base[32]; /* chain after start_seal: an entropy's */
    size_t abandoned;        /* the seat `abandoned` names, 0 if none */
    size_t abandoned_line;

    /* A seat's own deliveries (rpl_log_learn()), by line: told to the
     * game (seat_learn) just before their line is replayed. */
    struct rpl__known *known;
    size_t nknown;
    size_t known_seat; /* 0: none */

    /* The replay: the module's state after line pos (SIZE_MAX: stale). */
    void *st;
    size_t pos;

    /* What each line shows (rpl_log_verify_walk()), NULL if not taken. */
    struct rpl__views *views;
};

/* A delivery a log keeps for its seat: no nonce. */
struct rpl__known {
    size_t line;
    size_t at; /* its index in the deliveries given */
    char label[64];
    char value[192];
};

/* The line keywords the log layer owns (camelog(5) "Lines"): first the
 * header's, then the body's that are no game's.  Every other keyword
 * after the header is the game's.  One table in log.c holds their text;
 * reader, replay and archive ask it rather than spelling them again. */
enum rpl__kw {
    RPL__KW_NONE, /* not the log layer's: a game's keyword, or unknown */
    RPL__KW_CAMELOG,
    RPL__KW_GAME,
    RPL__KW_ID,
    RPL__KW_CREATED,
    RPL__KW_IMPORT,
    RPL__KW_RULES,
    RPL__KW_SEAT,
    RPL__KW_DEALER,
    RPL__KW_COMMIT,
    RPL__KW_ENTROPY, /* the first of the body's */
    RPL__KW_SIG,
    RPL__KW_SEAL,
    RPL__KW_REVEAL,
    RPL__KW_OPEN,
    RPL__KW_PLEDGE, /* format 2 */
    RPL__KW_PLEDGED,
    RPL__KW_ABANDONED
};

/* The log layer's keyword that t is, or RPL__KW_NONE. */
enum rpl__kw rpl__kw_find(const struct rpl__tok *t);
/* Among the body's only (RPL__KW_ENTROPY and after): RPL__KW_NONE says
 * that a body line with keyword t is the game's. */
enum rpl__kw rpl__kw_body(const struct rpl__tok *t);
/* The keyword's text ("entropy"); "" for RPL__KW_NONE.  Static. */
const char *rpl__kw_name(enum rpl__kw kw);

/* Game line ln applied to st (log_known.c), seat's deliveries of the line
 * among known[0..n) told to the game first (seat_learn, which must not
 * be NULL when n is not 0). */
enum rpl_status rpl__known_apply(const struct rpl__game *game, void *st,
                                 size_t seat, const struct rpl__known *known,
                                 size_t n, const struct rpl__line *ln,
                                 const struct rpl__env *env,
                                 struct rpl__applied *applied,
                                 struct rpl_error *err);
/* The replay's apply of game line ln (log_known.c): the seat's deliveries of
 * the line (rpl_log_learn()) told to the game first, unless the log is
 * complete. */
enum rpl_status rpl__log_apply(struct rpl_log *log, const struct rpl__line *ln,
                               const struct rpl__env *env,
                               struct rpl__applied *applied,
                               struct rpl_error *err);
/* Frees and wipes the deliveries of rpl_log_learn() (log_known.c). */
void rpl__log_forget(struct rpl_log *log);
/* The log keeps known[0..n) (its own now) as seat's deliveries, in place
 * of those it had, as rpl_log_learn() leaves it (log_known.c). */
void rpl__known_keep(struct rpl_log *log, size_t seat, struct rpl__known *known,
                     size_t n);
/* rpl_log_learn()'s checks of seat's deliveries d[0..n) that need no
 * replay, once the header verified: the seat, the limit, each delivery's
 * form, seat, line and dealer's signature; then what the log keeps of
 * them, *out (NULL for none; known[i].at is its index in d), sorted by
 * line then label, to free with sodium_memzero() and rpl__free() (seat.c). */
enum rpl_status rpl__known_take(const struct rpl_log *log, size_t seat,
                                const struct rpl_delivery *d, size_t n,
                                struct rpl__known **out, struct rpl_error *err);
/* The rest of rpl_seat_check_delivery()'s checks of d (its seat set), on
 * the public replay after line d->line: st the state, a what apply() told
 * of the line (NULL: not a game line) (seat.c). */
enum rpl_status rpl__seat_check_at(const struct rpl_log *log,
                                   const struct rpl_delivery *d, const void *st,
                                   const struct rpl__applied *a,
                                   struct rpl_error *err);

/* The env of a verified log's replay, without the seed (log.c). */
void rpl__log_env(struct rpl__env *env, const struct rpl_log *log);
/* What a line of the log layer says for people (rpl_log_describe()),
 * st the state an `open` line is told with (log.c). */
void rpl__log_describe_own(const struct rpl_log *log, const void *st,
                           const struct rpl__line *ln, struct rpl__buf *b);
/* The events of a line of the log layer (or of the header) as JSON: what
 * rpl_log_events_json() gives for it (log.c). */
void rpl__log_events_own(const struct rpl_log *log, const struct rpl__line *ln,
                         bool is_header, struct rpl__buf *b);
/* What rpl_log_verify_walk() keeps (log_walk.c): every text in one
 * buffer, NUL-terminated, and each line's offsets in it. */
#define RPL__VIEWS_NONE SIZE_MAX /* an offset: no such text */
struct rpl__views {
    struct rpl__buf b;
    /* Line no's offsets at off[(no - 1) * width]: its events, then for
     * each viewer (the public, the omniscient, each seat of seats in
     * order) its view and its description. */
    size_t *off;
    size_t width;
    size_t nlines;
    uint32_t seats; /* the seats whose views are kept (bit K-1: pK) */
    bool all;       /* the omniscient view is kept */
    bool views;     /* the events and views are kept */
    unsigned skip;  /* RPL_WALK_NO_PUBLIC, RPL_WALK_NO_ALL: views not kept */
    bool describe;  /* the descriptions are kept */
    uint8_t *marks; /* line no's RPL_MARK_ bits at marks[no - 1], or NULL */
};
/* Frees and wipes log->views (log_read.c, beside rpl_log_free()). */
void rpl__log_views_free(struct rpl_log *log);

/* What one verify pass lends an observer (the archive's index), so that
 * nothing replays or splits the log again: each header line once it is
 * checked, each game line once it is applied (log->st is the state after
 * it, applied what apply() told of it), and the end of a verify that
 * passed.  An observer's failure fails
 * the verify with its error. */
struct rpl__observer {
    void *a;
    enum rpl_status (*header)(void *a, const struct rpl_log *log,
                              const struct rpl__line *ln,
                              struct rpl_error *err);
    enum rpl_status (*line)(void *a, const struct rpl_log *log,
                            const struct rpl__line *ln,
                            const struct rpl__applied *applied,
                            struct rpl_error *err);
    enum rpl_status (*end)(void *a, const struct rpl_log *log,
                           struct rpl_error *err);
    /* The replay's start: log->st as it is before the first game line is
     * applied (the rules, and with deal_ahead the deal, seed not NULL). */
    enum rpl_status (*start)(void *a, const struct rpl_log *log,
                             const uint8_t *seed, struct rpl_error *err);
    /* Each game line before it is applied, and the reveal line before it
     * changes the state. */
    enum rpl_status (*before)(void *a, const struct rpl_log *log,
                              const struct rpl__line *ln,
                              struct rpl_error *err);
    /* Every line once it is checked, header included. */
    enum rpl_status (*each)(void *a, const struct rpl_log *log,
                            const struct rpl__line *ln, bool is_header,
                            struct rpl_error *err);
    /* Replay knowing the deal (log_walk.c): the secret of the reveal line
     * is read first and, when it matches the commit line, the deal is set
     * up and every `open` line learned before the first game line, so the
     * one pass replays as rpl_log_seek() does on a complete log.  The
     * pass checks no less (the knowing rules check each hidden move as it
     * comes, the reveal and opens the commitments), but its errors may
     * come at other lines: a caller that reports one runs
     * rpl_log_verify() for its canonical error. */
    bool deal_ahead;
};

/* rpl_log_verify() with an observer (NULL: none). */
enum rpl_status rpl__log_verify_with(struct rpl_log *log,
                                     const struct rpl_verify_opts *opts,
                                     struct rpl_report *rep,
                                     const struct rpl__observer *obs);

/* Line no (1-based) without its LF; NULL when out of range. */
const char *rpl__log_line(const struct rpl_log *log, size_t no, size_t *len);

/* Rebuilds the replay state of a verified log before line 1 (log.c):
 * the configuration and, with a complete log, the deal and every opened
 * choice; sets log->pos to 0. */
enum rpl_status rpl__log_reset(struct rpl_log *log, struct rpl_error *err);

/* rpl_log_seek() to line ln->no, which the caller has split into *ln
 * (rpl__line_split() of the line, numbered): the same replay, without
 * splitting that line again (the archive's index). */
enum rpl_status rpl__log_seek_split(struct rpl_log *log,
                                    const struct rpl__line *ln,
                                    struct rpl_error *err);

/* Whether a line is a game line (not header, entropy, seal, sig, reveal
 * or open), and RPL_E_STATE unless the log verified: the replay's
 * helpers of log.c that review.c shares. */
bool rpl__log_is_game_line(const char *text, size_t len);
enum rpl_status rpl__log_need_verified(const struct rpl_log *log,
                                       struct rpl_error *err);

#endif /* LIBREPLAY_LOG_H */
