/*
 * rec.h - the recorder's handle, shared by the files of the recorder
 * (rec.c writes the game; the files that answer questions about a game
 * in progress read it).  Nothing here is public API.
 */
#ifndef LIBREPLAY_REC_H
#define LIBREPLAY_REC_H

#include <sys/types.h>

#include "games/game.h"

/* A line as the recorder writes it, made once from a game's emit
 * (rpl__rec_line_make()): the commitment appended, its nonce kept for the
 * delivery, the text split.  The tokens point into text: a line is never
 * copied once made. */
struct rpl__rec_line {
    struct rpl__emit e;
    char text[sizeof(struct rpl__emit) + 2 + 2 * RPL__HASH];
    size_t len;
    uint8_t nonce[RPL__HASH]; /* the commitment's, when e.label[0] */
    struct rpl__line ln;
};

/* The chain of a scratch replay (rec_live.c judge()): as it would be. */
struct rpl__rec_sim {
    uint8_t head[RPL__HASH];
    uint8_t group_base[RPL__HASH];
    bool is_head_known;  /* every line before is a real submission's */
    bool is_group_known; /* the group opened on a known chain */
    size_t lines;        /* lines the replay wrote, sigs included */
};

/* A seat's submission held by the recorder (queue[seat]): an action of a
 * simultaneous step until the step is complete, or a line waiting for its
 * author's signature. */
struct rpl__rec_sub {
    bool is_queued;
    bool has_sig;
    uint8_t sig[64];
    char action[RPL_MAX_LINE + 1];
    /* What judge() made of it, kept while it holds: is_judged while the
     * log has judged_lines lines and the seats before it queued are
     * judged_before (bit K for seat K); is_exact when every seat before it
     * in its step was queued, so that line is the one the flush writes
     * (the same lines come before it), whatever the chain by then. */
    bool is_judged;
    bool is_exact;
    size_t judged_lines;
    uint64_t judged_before;
    struct rpl__rec_line line;
    struct rpl__applied applied;
    uint8_t base[RPL__HASH]; /* its sig base, certain when is_known */
    bool is_known;
    size_t line_no;
};

/* A seat's queued submission as a mark keeps it (its action to its NUL). */
struct rpl__rec_held {
    bool is_queued;
    bool has_sig;
    uint8_t sig[64];
    char action[RPL_MAX_LINE + 1];
};

/* What makes the seed: the fields of the recorder that change only
 * before the game starts (rpl_rec_entropy, _pledge, _start and the
 * rest), kept together so that a call's mark copies them in one piece. */
struct rpl__rec_seeding {
    bool starting; /* rpl_rec_start() waits for entropy signatures */
    uint8_t seed[32];
    uint8_t entropy[RPL_MAX_SEATS][32];
    size_t nentropy;
    size_t entropy_seat;
    /* Format 2's two rounds (camelog(5) "Entropy"), seat K as bit K-1. */
    uint8_t pledge[RPL_MAX_SEATS + 1][32];
    uint8_t value[RPL_MAX_SEATS + 1][32];
    uint32_t pledged, revealed;
    bool is_pledged;         /* the pledged line and its seal are written */
    uint8_t reveal_base[32]; /* chain after the sealed start */
    size_t abandoned;        /* the seat an abandoned line names */
    /* Entropy submitted before the start, written in seat order by it. */
    bool has_sub_entropy[RPL_MAX_SEATS + 1];
    uint8_t sub_entropy[RPL_MAX_SEATS + 1][32];
    bool has_ent_sig[RPL_MAX_SEATS + 1];
    uint8_t ent_sig[RPL_MAX_SEATS + 1][64];
};

/* What one call may change, as the call found it: taken by
 * rpl__rec_mark() at the start of every call that records, put back by
 * rpl__rec_undo() when the call fails, dropped by rpl__rec_unmark()
 * with its secrets zeroed (rec.c, at the top).  st and pub are copied
 * (to rec->backup and rec->pub_backup) only once the call changes them;
 * pre only while the game has not started, the only time those fields
 * change.  A field of struct rpl_recorder that a call changes is kept
 * here. */
struct rpl__rec_mark {
    bool is_set;
    bool has_states;
    size_t text_len;
    size_t nlines;
    uint8_t head[RPL__HASH];
    uint8_t prev_head[RPL__HASH];
    uint8_t group_base[RPL__HASH];
    size_t ndeliv;
    uint64_t moves;
    bool last_is_seal;
    bool is_revealed;
    uint8_t jtag[32];
    size_t nqueue;
    bool is_flushing;
    struct rpl__rec_held queue[RPL_MAX_SEATS + 1];
    size_t nreq;
    struct rpl_sign_request req[RPL_MAX_SEATS];
    bool started;
    /* The seeding as the call found it, and the seed env pointed to. */
    struct rpl__rec_seeding pre;
    const uint8_t *env_seed;
};

struct rpl_recorder {
    struct rpl_ctx *ctx;
    const struct rpl__game *game;
    void *st;
    void *backup; /* st as the call found it (struct rpl__rec_mark) */
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
    bool started;
    size_t seats;
    char names[RPL_MAX_SEATS + 1][RPL_MAX_NAME + 1];
    const char *name_ptrs[RPL_MAX_SEATS + 1];
    struct rpl_pubkey seat_key[RPL_MAX_SEATS + 1];
    bool has_seat_key[RPL_MAX_SEATS + 1];
    const struct rpl_seckey *dealer;
    /* How the seed is made (changes only before the start). */
    struct rpl__rec_seeding pre;
    uint8_t pledge_base[32]; /* chain after the header */
    struct rpl_delivery *deliv;
    size_t ndeliv;
    size_t deliv_cap;
    uint64_t moves;
    bool last_is_seal;
    bool is_revealed; /* rpl_rec_reveal() wrote the reveal, the opens, a seal */
    /* An imported game: the record's deal, given to the module at start. */
    char deal[RPL_MAX_SEATS][32];
    const char *deal_ptrs[RPL_MAX_SEATS];
    size_t first;

    /* Live games (rec_live.c).  pub is the state every player knows:
     * the written lines applied without the seed, as a verifier of the log in
     * progress applies them; its turn() is the public turn. */
    void *pub;
    void *pub_backup; /* pub as the call found it */
    void *sim; /* scratch: actions judged as if the seats before had acted */
    /* What sim holds past st, for the next judge() to go on from: st and
     * the lines of the seats of the open step through sim_seat, each one
     * queued (none a stand-in), the dealer's lines after the last one not
     * yet; 0 when it holds nothing reusable (st changed since). */
    size_t sim_seat;
    struct rpl__rec_sim sim_at;
    struct rpl__env pub_env;
    struct rpl__rec_sub queue[RPL_MAX_SEATS + 1]; /* by seat: never moved */
    size_t nqueue;    /* seats queued, written in seat order */
    bool is_flushing; /* the step is complete: its queue is being written */
    struct rpl_sign_request req[RPL_MAX_SEATS];
    size_t nreq;

    /* The journal (rec_journal.c); jfd -1 when none. */
    int jfd;
    int sfd;
    char *jpath;
    size_t journaled;    /* bytes of text on disk in the journal */
    off_t secrets_len;   /* bytes of the secrets file */
    bool is_replaying;   /* rpl_rec_resume(): write nothing */
    bool is_broken;      /* a rollback of the files failed */
    bool is_closed;      /* rpl_rec_close(): every recording call refused */
    uint8_t jkey[32];    /* the records' tag key, from the dealer's secret */
    uint8_t jbox[32];    /* the records' box key, from the dealer's secret */
    uint8_t jtag[32];    /* the tag of the last record written */
    struct rpl__buf cmd; /* this call's record, built as it goes */
    bool is_nosync;      /* rpl_rec_set_fsync(rec, false): tests, benchmarks */
    /* The write(2) the journal uses: tests inject failures. */
    ssize_t (*write_fn)(int fd, const void *buf, size_t len);

    struct rpl__rec_mark mark; /* the call under way */
};

/* rec.c, for the other files of the recorder. */
void rpl__rec_mark(struct rpl_recorder *rec);
void rpl__rec_undo(struct rpl_recorder *rec);
void rpl__rec_unmark(struct rpl_recorder *rec);
enum rpl_status rpl__rec_line_make(const struct rpl_recorder *rec,
                                   const struct rpl__emit *e, size_t no,
                                   struct rpl__rec_line *l,
                                   struct rpl_error *err);
enum rpl_status rpl__rec_line_apply(struct rpl_recorder *rec,
                                    struct rpl__rec_line *l, bool is_choice,
                                    struct rpl__applied *applied,
                                    struct rpl_error *err);
enum rpl_status rpl__rec_line_append(struct rpl_recorder *rec,
                                     const struct rpl__rec_line *l,
                                     const struct rpl__applied *applied,
                                     const struct rpl_seckey *seat_sk,
                                     const uint8_t *sig, bool is_checked,
                                     uint8_t *sig_out, struct rpl_error *err);
enum rpl_status rpl__rec_write_line(struct rpl_recorder *rec,
                                    struct rpl__rec_line *l, bool is_choice,
                                    const struct rpl__applied *judged,
                                    const struct rpl_seckey *seat_sk,
                                    const uint8_t *sig, uint8_t *sig_out,
                                    struct rpl_error *err);
void rpl__rec_sub_drop(struct rpl__rec_sub *q);
enum rpl_status rpl__rec_write_emit(struct rpl_recorder *rec,
                                    const struct rpl__emit *e, bool is_choice,
                                    const struct rpl_seckey *seat_sk,
                                    const uint8_t *sig, uint8_t *sig_out,
                                    struct rpl_error *err);
enum rpl_status rpl__rec_drain(struct rpl_recorder *rec, struct rpl_error *err);
enum rpl_status rpl__rec_entropy_line(struct rpl_recorder *rec, size_t seat,
                                      const uint8_t entropy[32],
                                      const struct rpl_seckey *seat_sk,
                                      const uint8_t *sig, uint8_t *sig_out,
                                      struct rpl_error *err);
enum rpl_status rpl__rec_begin_play(struct rpl_recorder *rec,
                                    struct rpl_error *err);
enum rpl_status rpl__rec_abort(struct rpl_recorder *rec, struct rpl_error *err);
enum rpl_status rpl__rec_seal(struct rpl_recorder *rec, struct rpl_error *err);
enum rpl_status rpl__rec_reveal(struct rpl_recorder *rec,
                                struct rpl_error *err);
enum rpl_status rpl__rec_need_play(const struct rpl_recorder *rec,
                                   struct rpl_error *err);
/* Makes a recorder without its journal (rpl_rec_new, resume). */
enum rpl_status rpl__rec_make(struct rpl_ctx *ctx, struct rpl_recorder **out,
                              const struct rpl_rec_config *cfg,
                              struct rpl_error *err);

/* The live calls without the journal (resume replays them). */
enum rpl_status rpl__rec_submit(struct rpl_recorder *rec, size_t seat,
                                const char *action, const uint8_t *sig,
                                struct rpl_refusal *why, struct rpl_error *err);
enum rpl_status rpl__rec_submit_entropy(struct rpl_recorder *rec, size_t seat,
                                        const uint8_t entropy[32],
                                        const uint8_t *sig,
                                        struct rpl_refusal *why,
                                        struct rpl_error *err);
enum rpl_status rpl__rec_sign(struct rpl_recorder *rec, size_t seat,
                              const uint8_t sig[64], struct rpl_refusal *why,
                              struct rpl_error *err);
enum rpl_status rpl__rec_start(struct rpl_recorder *rec, struct rpl_error *err);
enum rpl_status rpl__rec_pledge(struct rpl_recorder *rec, size_t seat,
                                const uint8_t pledge[32],
                                const struct rpl_seckey *seat_sk,
                                const uint8_t *sig, uint8_t *sig_out,
                                struct rpl_refusal *why, struct rpl_error *err);
enum rpl_status rpl__rec_pledged(struct rpl_recorder *rec,
                                 struct rpl_refusal *why,
                                 struct rpl_error *err);
enum rpl_status rpl__rec_abandon(struct rpl_recorder *rec, size_t seat,
                                 struct rpl_refusal *why,
                                 struct rpl_error *err);

/* The journal (rec_journal.c) records each call, with the types
 * below. */
/* Command record types. */
enum {
    RPL__CMD_SUBMIT = 1,
    RPL__CMD_ENTROPY_SUB = 2,
    RPL__CMD_SIGN = 3,
    RPL__CMD_START = 4,
    RPL__CMD_ENTROPY = 5, /* rpl_rec_entropy: seat, entropy, sig made */
    RPL__CMD_EMIT = 6,    /* rpl_rec_act/_bot: the emit and the sig made */
    RPL__CMD_ABORT = 7,
    RPL__CMD_SEAL = 8,
    RPL__CMD_REVEAL = 9,
    RPL__CMD_BOT_MOVE = 10, /* flag: the emit was a bot's move */
    RPL__CMD_CLOSE = 11,    /* rpl_rec_close: never resumed again */
    RPL__CMD_PLEDGE = 12,   /* rpl_rec_pledge: seat, pledge, sig made */
    RPL__CMD_PLEDGED = 13,
    RPL__CMD_ABANDON = 14 /* rpl_rec_abandon: seat */
};

#endif /* LIBREPLAY_REC_H */
