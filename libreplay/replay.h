/*
 * replay.h - the one public header of libreplay.
 *
 * libreplay records hidden-role board games as signed, compressed,
 * hash-chained action logs (.camelog files) and verifies, replays and
 * reveals them.  The file format is specified in camelog(5); the games'
 * notations in camelog-avalon(7) and camelog-soc(7).
 *
 * Conventions (see libreplay(3)):
 * - Every fallible call returns enum rpl_status (RPL_OK is 0) and takes
 *   struct rpl_error *err last; err may be NULL.
 * - Objects are made by _new/_open/_read and released by _free/_close;
 *   freeing NULL does nothing.  Out-parameters are set only on success.
 * - A returned char * is freed with rpl_free(); a returned const char * is
 *   lent until the next call on the same handle.
 * - The library keeps no global state.  Distinct contexts may be used
 *   from distinct threads; a context and every object made from it are
 *   used by one thread at a time.
 */
#ifndef LIBREPLAY_REPLAY_H
#define LIBREPLAY_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define RPL_API          __attribute__((visibility("default")))
#define RPL_NODISCARD    __attribute__((warn_unused_result))
#define RPL_NONNULL(...) __attribute__((nonnull(__VA_ARGS__)))
#else
#define RPL_API
#define RPL_NODISCARD
#define RPL_NONNULL(...)
#endif

/* The version this header describes; rpl_version() gives the library's. */
#define RPL_VERSION        "0.1.0"
#define RPL_VERSION_NUMBER 100 /* major * 10000 + minor * 100 + patch */

/* The library's version string, e.g. "0.1.0" (static storage). */
RPL_API const char *rpl_version(void);
/* The library's version as the number RPL_VERSION_NUMBER gives for the
 * header it was built with (major * 10000 + minor * 100 + patch, e.g.
 * 100 for "0.1.0"): a program that needs at least some version compares
 * it with a number rather than parse rpl_version().  Thread-safe. */
RPL_API unsigned rpl_version_number(void);

/* ---------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------ */

/* Status codes.  Numbered once, never reused. */
enum rpl_status {
    RPL_OK = 0,
    RPL_E_NOMEM = 1,        /* an allocation failed */
    RPL_E_ARG = 2,          /* the caller passed an invalid argument */
    RPL_E_IO = 3,           /* reading or writing a file failed */
    RPL_E_LIMIT = 4,        /* input over a limit of limits.h */
    RPL_E_GZIP = 5,         /* not exactly one valid gzip member */
    RPL_E_SYNTAX = 6,       /* a line is not in canonical form */
    RPL_E_SEAL = 7,         /* a seal is misplaced or does not verify */
    RPL_E_SIG = 8,          /* a seat signature is misplaced or wrong */
    RPL_E_KEY = 9,          /* a key is malformed, invalid or mismatched */
    RPL_E_RULES = 10,       /* an entry breaks the rules of the game */
    RPL_E_FAIRNESS = 11,    /* a secret does not match its commitment */
    RPL_E_STATE = 12,       /* the call is not valid in this state */
    RPL_E_PERM = 13,        /* a secret key file is readable by others */
    RPL_E_CRYPTO = 14,      /* libsodium failed */
    RPL_E_EXISTS = 15,      /* the output file exists (no force) */
    RPL_E_INCOMPLETE = 16,  /* the log lacks what the call needs */
    RPL_E_UNSUPPORTED = 17, /* unknown game, role or format version */
    RPL_E_BUSY = 18         /* another recorder holds the journal (or a
                               writer the public log) */
};
#define RPL_STATUS_MAX 18

#define RPL_ERRMSG_MAX 256

/* The most seats of any game (the limit of camelog(5)). */
#define RPL_SEATS_MAX 10

/* The first failure of a call.  The caller allocates it. */
struct rpl_error {
    enum rpl_status code;     /* RPL_OK when nothing failed */
    size_t line;              /* 1-based input line, 0 when none applies */
    char msg[RPL_ERRMSG_MAX]; /* what was expected, what was found */
};

/* Static text for a status code ("out of memory", ...). */
RPL_API const char *rpl_strerror(enum rpl_status code);

/* Whether a status means the input is invalid (exit 1 in the tool) rather
 * than a usage or environment failure (exit 2). */
RPL_API bool rpl_status_is_invalid_input(enum rpl_status code);

/* A stable lowercase name of a status ("seal", "rules"; "unknown" for a
 * value not listed above), static storage: the "code" of the JSON
 * outputs. */
RPL_API const char *rpl_status_name(enum rpl_status code);

/* ---------------------------------------------------------------------
 * Context
 * ------------------------------------------------------------------ */

/* Memory functions.  All three are required when an allocator is given;
 * ud is passed back to each.  alloc(0) is never called. */
struct rpl_allocator {
    void *(*alloc)(void *ud, size_t size);
    void *(*realloc)(void *ud, void *ptr, size_t size);
    void (*free)(void *ud, void *ptr);
    void *ud;
};

struct rpl_ctx;

/* Makes a context (calls sodium_init()).  alloc may be NULL for malloc();
 * the struct is copied.  Free with rpl_ctx_free() after every object made
 * from it is freed. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_ctx_new(struct rpl_ctx **out, const struct rpl_allocator *alloc,
            struct rpl_error *err) RPL_NONNULL(1);
RPL_API void rpl_ctx_free(struct rpl_ctx *ctx);

/* Teaches dst what src has checked of public keys, which holds whatever
 * the input: the Ed25519 points found valid (a context remembers its
 * last 16, and a check costs a fifth of verifying a log) and the last
 * key text parsed.  For a program whose threads each use contexts of
 * their own: a thread passes what one of its contexts learnt to the
 * next it uses, so that many logs of one dealer cost one check.  Both
 * contexts are used by the calling thread during the call; nothing else
 * of either changes. */
RPL_API void rpl_ctx_learn(struct rpl_ctx *dst, const struct rpl_ctx *src)
    RPL_NONNULL(1, 2);

/* Frees memory the library returned as char * (NULL does nothing). */
RPL_API void rpl_free(struct rpl_ctx *ctx, void *ptr) RPL_NONNULL(1);

/* ---------------------------------------------------------------------
 * Keys (Ed25519; public keys in minisign's format)
 * ------------------------------------------------------------------ */

#define RPL_PUBKEY_B64_LEN 56 /* base64 of "Ed" || id[8] || key[32] */

struct rpl_pubkey {
    uint8_t id[8];   /* minisign key id, as stored */
    uint8_t key[32]; /* Ed25519 public key */
};

/* A secret key, held in sodium_malloc() memory; opaque. */
struct rpl_seckey;

/* Makes a fresh key pair from randombytes_buf(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seckey_generate(struct rpl_ctx *ctx, struct rpl_seckey **out,
                    struct rpl_error *err) RPL_NONNULL(1, 2);

/* Derives a key pair from a 32-byte seed (deterministic; for tests and
 * reproducible samples only). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seckey_from_seed(struct rpl_ctx *ctx, struct rpl_seckey **out,
                     const uint8_t seed[32], struct rpl_error *err)
    RPL_NONNULL(1, 2, 3);

/* Loads an unencrypted minisign secret key file (as written by
 * rpl_seckey_save() or `minisign -G -W`).  Refuses (RPL_E_PERM) a file
 * readable by group or others. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seckey_load(struct rpl_ctx *ctx, struct rpl_seckey **out, const char *path,
                struct rpl_error *err) RPL_NONNULL(1, 2, 3);

/* Writes the secret key file, mode 0600, atomically.  Without force an
 * existing file is RPL_E_EXISTS. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seckey_save(const struct rpl_seckey *sk, const char *path, bool force,
                struct rpl_error *err) RPL_NONNULL(1, 2);

/* The public half of sk. */
RPL_API void rpl_seckey_pubkey(const struct rpl_seckey *sk,
                               struct rpl_pubkey *pk) RPL_NONNULL(1, 2);

/* Wipes and frees sk (NULL does nothing). */
RPL_API void rpl_seckey_free(struct rpl_seckey *sk);

/* Parses the 56-character base64 form of a public key; refuses a point
 * that libsodium does not accept. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_pubkey_parse(struct rpl_pubkey *pk, const char *b64, size_t len,
                 struct rpl_error *err) RPL_NONNULL(1, 2);

/* Writes the base64 form and a NUL into out. */
RPL_API void rpl_pubkey_format(const struct rpl_pubkey *pk,
                               char out[RPL_PUBKEY_B64_LEN + 1])
    RPL_NONNULL(1, 2);

/* Reads a minisign public key file ("untrusted comment:" line, then the
 * base64 line). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_pubkey_load(struct rpl_pubkey *pk, const char *path, struct rpl_error *err)
    RPL_NONNULL(1, 2);

/* Writes a minisign public key file atomically (mode 0644). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_pubkey_save(const struct rpl_pubkey *pk, const char *path, bool force,
                struct rpl_error *err) RPL_NONNULL(1, 2);

/* ---------------------------------------------------------------------
 * Games: the modules this library knows
 * ------------------------------------------------------------------ */

/* One game module.  The library owns every instance (static storage,
 * valid for the life of the program); callers never allocate one, so
 * members may be added at the end. */
struct rpl_game_info {
    const char *name;  /* the `game` line's value ("avalon") */
    const char *title; /* one line for people ("The Resistance: Avalon") */
    size_t min_seats;  /* the fewest seats its rules line accepts */
    size_t max_seats;  /* the most */
    /* The most bytes a seat's state (rpl_rec_state_json(), compact JSON)
     * holds beyond the public state of the same moment, its deliveries
     * aside: its legal actions, its held submissions, what it knows of
     * the board.  rpl_rec_state_json() pads every seat's state to the
     * public one's length plus this (camelog-host(1)), so that its
     * length tells nothing of the seat's secrets. */
    size_t state_pad;
};

/* How many games the library knows (at least 1).  Thread-safe. */
RPL_API size_t rpl_game_count(void);

/* Game i, 0-based and below rpl_game_count(), in a fixed order (the
 * order help texts list them in); NULL when i is out of range.
 * Thread-safe. */
RPL_API const struct rpl_game_info *rpl_game_info(size_t i);

/* Builds a rules line for game (its value, without the "rules " keyword,
 * as struct rpl_rec_config.rules takes it) with players seats:
 * - roles: a comma-separated list of the game's roles in any order, put
 *   in the order of the rules line (unknown roles go last, in the order
 *   given, for the rules check to name); NULL for the game's default set
 *   for players seats, which needs players within the game's seat range;
 * - options: a comma-separated list of the game's on/off options to turn
 *   on ("lady,targeting"); NULL or "" for none.
 * The line is checked only as far as building it needs; rpl_rec_new()
 * checks it against the rules.  On success *out is a new string (free
 * with rpl_free()).  RPL_E_UNSUPPORTED for an unknown game; RPL_E_ARG
 * for a role list or option the game cannot take, or default roles for a
 * seat count outside its range (err says which, for people). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_game_rules(struct rpl_ctx *ctx, const char *game, size_t players,
               const char *roles, const char *options, char **out,
               struct rpl_error *err) RPL_NONNULL(1, 2, 6);

/* ---------------------------------------------------------------------
 * Logs: reading, verifying, replaying
 * ------------------------------------------------------------------ */

struct rpl_log;

/* Reads a .camelog file (one gzip member; "-" is standard input) within
 * the limits of camelog(5).  Faults of the file itself (I/O, gzip,
 * limits) are reported with line 0.  The lines are checked later, by
 * rpl_log_verify(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_read(struct rpl_ctx *ctx, struct rpl_log **out, const char *path,
             struct rpl_error *err) RPL_NONNULL(1, 2, 3);

/* The same from the bytes of a .camelog file in memory (copied). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_read_mem(struct rpl_ctx *ctx, struct rpl_log **out, const void *gz,
                 size_t gz_len, struct rpl_error *err) RPL_NONNULL(1, 2, 3);

/* Takes canonical text (copied).  With lenient, hand-written text is
 * accepted and canonicalized first: CRLF, blank lines, '#' comments,
 * runs of blanks, trailing blanks, uppercase hex. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_parse(struct rpl_ctx *ctx, struct rpl_log **out, const char *text,
              size_t text_len, bool lenient, struct rpl_error *err)
    RPL_NONNULL(1, 2, 3);

RPL_API void rpl_log_free(struct rpl_log *log);

/* How far a log goes. */
enum rpl_progress {
    RPL_PROGRESS_IN_PROGRESS = 0, /* no seal after `end` yet */
    RPL_PROGRESS_FINISHED = 1,    /* sealed after `end`, no reveal */
    RPL_PROGRESS_COMPLETE = 2     /* revealed, every secret opened, sealed */
};

/* "in_progress", "finished" or "complete" (static storage): the
 * spelling of the JSON outputs and the archive. */
RPL_API const char *rpl_progress_name(enum rpl_progress progress);
/* "in progress", "finished, not revealed" or "complete" (static
 * storage): the spelling of the text outputs. */
RPL_API const char *rpl_progress_text(enum rpl_progress progress);

struct rpl_verify_opts {
    /* The pinned dealer key, or NULL.  With it, the key must match the
     * dealer line (RPL_E_KEY there) and every line must be covered by a
     * seal, i.e. the last line is a seal (RPL_E_SEAL at the first line
     * after the last seal): lines the dealer did not seal could have
     * been written by anyone. */
    const struct rpl_pubkey *pubkey;
    /* The least progress accepted: RPL_PROGRESS_IN_PROGRESS (0) accepts
     * any valid log; RPL_PROGRESS_FINISHED a finished or complete one;
     * RPL_PROGRESS_COMPLETE only a complete one.  A log that falls short
     * is RPL_E_INCOMPLETE at its number of lines plus one. */
    enum rpl_progress require;
    /* With pubkey: lines after the last seal are a game still being
     * played (the W-tail warning), not an error.  For a seat checking the
     * log of a live game as it grows (camelog-seat(1)); whoever judges a
     * finished file leaves it false. */
    bool unsealed_tail_ok;
    /* Every seat with a key in the header took part in the seed: in
     * format 2 pledged and revealed, in format 1 gave an entropy line
     * (RPL_E_FAIRNESS otherwise).  camelog-verify(1) --require=entropy. */
    bool require_entropy;
    /* Every line a seat with a key authored carries its sig (RPL_E_SIG at
     * the first that does not); without it such a line is the warning
     * W-unsigned.  camelog-verify(1) --require=signatures. */
    bool require_signatures;
    /* Seat keys pinned out of band, by seat (index 1..N; NULL: not
     * pinned): the header's key of that seat must be the same key
     * (RPL_E_KEY at the seat line). */
    const struct rpl_pubkey *seat_pin[RPL_SEATS_MAX + 1];
};

/* What rpl_log_verify() found.  The caller allocates it. */
struct rpl_report {
    struct rpl_error error;     /* the first failure; code RPL_OK if none */
    enum rpl_progress progress; /* valid when error.code == RPL_OK */
    bool is_key_pinned;         /* the dealer key matched opts->pubkey */
    bool is_imported;           /* roles were dealt outside camelog */
    char game[16];              /* "avalon", "soc"; "" before `game` */
    char id[33];                /* hex id; "" before `id` */
    char winner[16];            /* "good", "evil", "knights", "aborted"... */
    char reason[16];            /* end reason, "" while in progress */
    size_t lines;               /* lines read */
    size_t seals;               /* seals verified */
    size_t sigs;                /* seat signatures verified */
    size_t commitments;         /* commitments recomputed and matched */
    size_t warnings;            /* read them with rpl_log_warning() */
    /* The first line after the last seal, through the last line: lines
     * the dealer did not seal.  0 when the last line is a seal, or when
     * a failure stopped the check before the end. */
    size_t unsealed_from;
    /* Where the seed came from: seats is the number of seats (0 before
     * the rules line); entropy_seats of them gave an entropy line, and
     * entropy_signed of those lines carry the seat's verified signature.
     * entropy_seats == 0 means the dealer alone chose the seed. */
    size_t seats;
    size_t entropy_seats;
    size_t entropy_signed;
    /* The format version of the first line (1 or 2); 0 before it. */
    unsigned version;
    /* The seed's provenance by seat, seat K as bit K-1: keyed, the seats
     * with a key in the header; pledged and pledge_signed, format 2's
     * pledges and those with a verified sig; revealed and reveal_signed,
     * the entropy lines (format 1's too) and those signed. */
    uint32_t keyed;
    uint32_t pledged;
    uint32_t pledge_signed;
    uint32_t revealed;
    uint32_t reveal_signed;
    /* The seat an `abandoned` line names (it withheld its entropy): the
     * game ended there, with winner "abandoned".  0 if none. */
    size_t abandoned_by;
    /* Lines authored by a seat with a key that carry no sig: how many,
     * and the first (0 if none). */
    size_t unsigned_lines;
    size_t first_unsigned;
};

/* Checks integrity (chain, seals, sigs), legality (the game's rules),
 * fairness (seed, commitments, opens) and completeness, in file order.
 * opts may be NULL (no pinned key, any progress).  Returns RPL_OK when
 * the log is valid (complete or not, as opts->require allows) and the
 * status of the first failure otherwise; rep is filled either way
 * (progress too when only opts->pubkey's seal rule or opts->require
 * failed).  After success, the replay calls below may be used. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_verify(struct rpl_log *log, const struct rpl_verify_opts *opts,
               struct rpl_report *rep) RPL_NONNULL(1, 3);

/* Warning i (0-based) of the last verify: its line (0 for none) and text,
 * which begins with its rule id ("O-2: ...", "W-tail: ...").  Lent until
 * the log is freed or verified again; NULL when i is out of range. */
RPL_API const char *rpl_log_warning(const struct rpl_log *log, size_t i,
                                    size_t *line) RPL_NONNULL(1);

/* What camelog-verify(1) says of one file, the one spelling of its
 * report for every program that shows it.  Made from a log that
 * rpl_log_verify() just checked (log, its report and its status), or
 * from a file that could not be read (log NULL, rep->error and st the
 * read's).  It adds verify's own warnings after the log's (W-seed,
 * W-v1, W-reveal, at line 0) and, with RPL_VERDICT_REVEAL, fails a
 * finished game whose dealer never revealed (RPL_E_INCOMPLETE at its
 * last line).  RPL_VERDICT_TEXT says the file was canonical text when
 * the log was parsed from memory (rpl_log_is_text() says it for a file
 * read with rpl_log_read()).  The verdict lends from log, which must
 * outlive it; free it with rpl_verdict_free(). */
struct rpl_verdict;
#define RPL_VERDICT_REVEAL  1u /* --require=reveal */
#define RPL_VERDICT_TEXT    2u /* the file is canonical text */
#define RPL_VERDICT_SUMMARY 4u /* rpl_verdict_json(): add "summary" */
RPL_API RPL_NODISCARD enum rpl_status
rpl_verdict_new(struct rpl_ctx *ctx, const struct rpl_log *log,
                const struct rpl_report *rep, enum rpl_status st,
                unsigned flags, struct rpl_verdict **out, struct rpl_error *err)
    RPL_NONNULL(1, 3, 6);
RPL_API void rpl_verdict_free(struct rpl_verdict *v);

/* The file's status after verify's own rules, and its failure into err
 * (may be NULL). */
RPL_API enum rpl_status rpl_verdict_status(const struct rpl_verdict *v,
                                           struct rpl_error *err)
    RPL_NONNULL(1);

/* The text verify prints after "FILE: ": "ok (complete, 2 seals, 0
 * sigs; seed: dealer only)", "FAILED line 7" or "ERROR".  Lent. */
RPL_API const char *rpl_verdict_summary(const struct rpl_verdict *v)
    RPL_NONNULL(1);

/* Warning i (0-based): the log's that it kept, then verify's own; its
 * line (0 for none) and text, lent; NULL past the last.  *unshown (may be
 * NULL) is, after the last warning the log kept, how many more it
 * counted but did not keep, and 0 otherwise. */
RPL_API const char *rpl_verdict_warning(const struct rpl_verdict *v, size_t i,
                                        size_t *line, size_t *unshown)
    RPL_NONNULL(1);

/* verify's lines of the file on standard output: "FILE: <summary>", and
 * "FILE: seed provenance: ..." when a seat took part in the seed of a
 * valid log, each with its LF.  Free with rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_verdict_text(const struct rpl_verdict *v, const char *file, char **text,
                 struct rpl_error *err) RPL_NONNULL(1, 2, 3);

/* verify --json's object of the file (keys in camelog-verify(1)), one
 * line without LF; without the key "file" when file is NULL, and with
 * "summary" last under RPL_VERDICT_SUMMARY.  Free with rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_verdict_json(const struct rpl_verdict *v, const char *file, unsigned flags,
                 char **json, struct rpl_error *err) RPL_NONNULL(1, 4);

/* The dealer key of a log whose header verified (even when a later line
 * failed): true and *pk set, or false when the header did not verify. */
RPL_API bool rpl_log_dealer(const struct rpl_log *log, struct rpl_pubkey *pk)
    RPL_NONNULL(1, 2);

/* The format version a log's first line declares (camelog(5)): 1 or 2,
 * RPL_FORMAT_VERSION for every log the recorder writes; 0 when the first
 * line did not verify.  Set by rpl_log_verify(), even when a later line
 * failed. */
#define RPL_FORMAT_VERSION 2
RPL_API unsigned rpl_log_version(const struct rpl_log *log) RPL_NONNULL(1);

/* Number of lines, and line no (1-based, without LF; lent, not
 * NUL-terminated); NULL when out of range. */
RPL_API size_t rpl_log_lines(const struct rpl_log *log) RPL_NONNULL(1);
RPL_API const char *rpl_log_line(const struct rpl_log *log, size_t no,
                                 size_t *len) RPL_NONNULL(1, 3);

/* The house rules a log's rules line declares, as the comma-separated
 * names of its game's page ("assassin-mordred,percival-alone" for
 * Avalon, camelog-avalon(7), Variants), written to out (cap bytes, NUL
 * included; RPL_VARIANTS_MAX always suffices).  Returns false, with out
 * "", for a log whose header has no game and rules line; true
 * otherwise, with out "" for a game under its official rules.  Reads
 * only the log's text: thread-safe on a log nobody modifies. */
#define RPL_VARIANTS_MAX 128
RPL_API bool rpl_log_variants(const struct rpl_log *log, char *out, size_t cap)
    RPL_NONNULL(1, 2);

/* Text from a file (a name, a reason, a value of an archive) made safe
 * to show on a terminal or in a text output: a backslash as \\, a byte
 * that is not UTF-8 and a control character below U+0080 as \xHH, and
 * the other code points a name may not hold (controls, format and
 * invisible characters, camelog(5) Seat names) as \u{XXXX}; the rest as
 * it is.  Writes at most cap bytes with the NUL, cutting only between
 * whole sequences, and returns the length of the whole escaped text (as
 * snprintf() does).  Thread-safe. */
RPL_API size_t rpl_text_escape(const char *s, char *out, size_t cap)
    RPL_NONNULL(1);

/* The names the tools give seats they are given no names for, in seat
 * order: "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace",
 * "Heidi", "Ivan", "Judy" (RPL_SEATS_MAX of them, static storage).
 * Thread-safe. */
RPL_API const char *const *rpl_seat_default_names(void);

/* Seats of a verified log, and seat k's display name (1-based, unescaped,
 * NUL-terminated, lent). */
RPL_API size_t rpl_log_seats(const struct rpl_log *log) RPL_NONNULL(1);
RPL_API const char *rpl_log_seat_name(const struct rpl_log *log, size_t seat)
    RPL_NONNULL(1);

/* Who looks: a seat 1..N, everybody (public information only), or the
 * omniscient view (needs a complete log). */
#define RPL_VIEW_PUBLIC 0
#define RPL_VIEW_ALL    (-1)

/* Moves a verified log's replay to the state after line `no` (0: before
 * the first line).  Games are replayed from the start, with every secret
 * known when the log is complete. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_seek(struct rpl_log *log, size_t no, struct rpl_error *err)
    RPL_NONNULL(1);

/* The current position (line number) of the replay. */
RPL_API size_t rpl_log_tell(const struct rpl_log *log) RPL_NONNULL(1);

/* What a viewer saw of one line, as rpl_log_seek() to it shows it: the
 * parts of camelog-export(1)'s object.  Lent by the log until its next
 * verify or rpl_log_free(). */
struct rpl_line_view {
    const char *text; /* the line, without its LF (not NUL-terminated) */
    size_t len;
    const char *events;   /* rpl_log_events_json(); NULL without views */
    const char *view;     /* rpl_log_view_json() of the viewer, after it;
                             NULL without views or when walk->skip left
                             the viewer's out */
    const char *describe; /* rpl_log_describe() for the viewer; NULL when
                             the line tells nothing or none was asked */
};

#define RPL_WALK_NO_PUBLIC 0x1u
#define RPL_WALK_NO_ALL    0x2u

/* What rpl_log_verify_walk() takes in its pass besides the verify. */
struct rpl_walk_opts {
    bool views;     /* each line's events and views: the public one, the
                       omniscient one on a complete log, and seats' */
    unsigned skip;  /* with views: RPL_WALK_NO_PUBLIC, RPL_WALK_NO_ALL: the
                       public's or the omniscient view left out (a page
                       that shows only the others); their descriptions
                       are kept */
    uint32_t seats; /* the seats whose views (and descriptions) are kept
                       too, bit K-1 for pK */
    bool describe;  /* each line told to each of those viewers (with or
                       without their views) */
    bool marks;     /* each line's RPL_MARK_ bits, which rpl_log_mark()
                       then reads without a replay */
    uint64_t *bits; /* NULL, or RPL_COVERAGE_WORDS words that get what
                       rpl_log_coverage() sets */
    /* learn_seat not 0: that seat's own deliveries learn[0..nlearn), only
     * read, taken in the same pass as rpl_log_learn() takes them after
     * the verify: checked as it checks them, and told to the views of
     * learn_seat (a seat of seats) on a log without its reveal.  Their
     * refusal is rpl_log_learn()'s error, in *learn_err (NULL: not
     * told). */
    size_t learn_seat;
    const struct rpl_delivery *learn;
    size_t nlearn;
    struct rpl_error *learn_err;
};

/* rpl_log_verify(), and in the same pass what walk asks for: no second
 * replay.  On a complete log the pass reads the reveal line's secret
 * first and replays knowing the deal, as rpl_log_seek() does; it checks
 * as much as rpl_log_verify(), and on failure the status and rep are
 * exactly rpl_log_verify()'s.  A log whose deal cannot be known ahead (an
 * imported deal, or a reveal on a log that is not complete) is replayed
 * again after the pass.  The views are the replay's, without a seat's
 * deliveries, or with walk->learn_seat's when it is not 0: then the pass
 * leaves the log as rpl_log_verify() then rpl_log_learn() would, and the
 * views are what rpl_log_seek() shows after them.  Deliveries refused by a log
 * that verified give rpl_log_learn()'s status, its error in *walk->learn_err,
 * rep->error RPL_OK, and no views; the log keeps the deliveries it had.
 * RPL_E_NOMEM besides rpl_log_verify()'s and rpl_log_learn()'s errors. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_verify_walk(struct rpl_log *log, const struct rpl_verify_opts *opts,
                    const struct rpl_walk_opts *walk, struct rpl_report *rep)
    RPL_NONNULL(1, 3, 4);

/* Line `no` as viewer saw it, after rpl_log_verify_walk() with views or
 * descriptions: RPL_VIEW_PUBLIC, RPL_VIEW_ALL of a complete log, or a
 * seat of walk->seats.  RPL_E_STATE without either, or for RPL_VIEW_ALL
 * on a log that is not complete; RPL_E_ARG for a line not in the log or a
 * seat whose views were not kept. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_line_view(const struct rpl_log *log, size_t no, int viewer,
                  struct rpl_line_view *out, struct rpl_error *err)
    RPL_NONNULL(1, 4);

/* What the viewer knows at the current position, as text for people: a
 * compact board followed by the viewer's private knowledge.  A seat's
 * private knowledge is known only from a complete log; before the reveal
 * its view shows the public information and says so.  RPL_E_STATE for
 * RPL_VIEW_ALL on a log that is not complete, RPL_E_ARG for a seat not in
 * the game.  Free with rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status rpl_log_view(struct rpl_log *log,
                                                   int viewer, char **text,
                                                   struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* The same as a JSON object (keys in camelog-export(1)). */
RPL_API RPL_NODISCARD enum rpl_status rpl_log_view_json(struct rpl_log *log,
                                                        int viewer, char **json,
                                                        struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* Line `no` told for people, with names ("Alice (p1) proposes Bob (p2),
 * Carol (p3)"), as the viewer would understand it; NULL text for a line
 * that tells nothing (seal, sig).  Free with rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_describe(struct rpl_log *log, size_t no, int viewer, char **text,
                 struct rpl_error *err) RPL_NONNULL(1, 4);

/* The events of line `no` as a JSON array. Free with rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_events_json(struct rpl_log *log, size_t no, char **json,
                    struct rpl_error *err) RPL_NONNULL(1, 3);

/* The board as people read it at the current position, for a viewer
 * that reviews the game: every seat by name ("Alice (p3)"), the tracks
 * with what each step needs (Avalon: the quest track with team sizes
 * and fails needed, the team on the table and its votes, the votes so
 * far; Shadows over Camelot: quests, swords, siege engines, life points
 * and hand sizes), then what the viewer knows, in words ("you are
 * Mordred; you see Bob (p2) and Dave (p4) as evil"), and for a seat only
 * from the line that deals it.  Several lines, each ending in LF.  The
 * same viewer rules and errors as rpl_log_view().  Free with
 * rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status rpl_log_board(struct rpl_log *log,
                                                    int viewer, char **text,
                                                    struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* What kind of step line `no` is, for moving through a game by its
 * events rather than by its lines: a mask of the RPL_MARK_ bits.  Moves
 * the replay to line no (as rpl_log_describe() does).  RPL_E_ARG for a
 * line out of range. */
#define RPL_MARK_HEADER 0x01u /* a header line (before the game) */
#define RPL_MARK_TURN   0x02u /* begins a turn: a proposal, a seat's turn */
#define RPL_MARK_QUEST  0x04u /* decides a quest */
#define RPL_MARK_DETAIL 0x08u /* a later line sums it up (a vote) */
#define RPL_MARK_END    0x10u /* ends the game */
RPL_API RPL_NODISCARD enum rpl_status rpl_log_mark(struct rpl_log *log,
                                                   size_t no, unsigned *marks,
                                                   struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* Who was who, who failed which quest, what each seat was told: text for
 * people or JSON.  RPL_E_INCOMPLETE unless the log is complete. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_reveal_text(struct rpl_log *log, char **text, struct rpl_error *err)
    RPL_NONNULL(1, 2);
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_reveal_json(struct rpl_log *log, char **json, struct rpl_error *err)
    RPL_NONNULL(1, 2);

/* BLAKE2b-256 of the game state at the current position (compares runs
 * of this library step by step). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_digest(struct rpl_log *log, uint8_t out[32], struct rpl_error *err)
    RPL_NONNULL(1, 2);

/* ---------------------------------------------------------------------
 * Coverage: the rules and branches a game exercised
 * ------------------------------------------------------------------ */

/* The most rule ids of one game; a coverage set is this many bits. */
#define RPL_COVERAGE_MAX   256
#define RPL_COVERAGE_WORDS (RPL_COVERAGE_MAX / 64)

/* One rule id of a game.  Static storage, owned by the library. */
struct rpl_coverage_id {
    const char *id;          /* stable: "av.A-20", "soc.quest.dragon.won" */
    const char *what;        /* one line for people */
    const char *unreachable; /* why no valid corpus game exercises it, or
                              * NULL when one can */
};

/* How many rule ids game has (0 for an unknown game or one without
 * coverage).  Thread-safe. */
RPL_API size_t rpl_coverage_count(const char *game) RPL_NONNULL(1);

/* Rule id i (0-based, below rpl_coverage_count()) of game, in a fixed
 * order (bit i of a coverage set); NULL out of range.  Ids are only ever
 * added at the end.  Thread-safe. */
RPL_API const struct rpl_coverage_id *rpl_coverage_id(const char *game,
                                                      size_t i) RPL_NONNULL(1);

/* Rules line i (0-based, its value without "rules ") of the set a
 * corpus generator cycles through for game: player counts and options
 * chosen so that together they can reach every reachable id; NULL past
 * the last.  Static storage.  Thread-safe. */
RPL_API const char *rpl_coverage_rules(const char *game, size_t i)
    RPL_NONNULL(1);

/* After a successful rpl_log_verify(): replays the log and sets in bits
 * (RPL_COVERAGE_WORDS words, zeroed by the call; bit i of word i / 64 is
 * rpl_coverage_id(game, i)) the ids its lines exercised.  A complete log
 * is replayed knowing the deal, so ids that depend on secrets (the
 * accused seat's loyalty, a Fail card's author) count only then.  Moves
 * the replay position (rpl_log_tell()) to the last line.  RPL_E_STATE
 * when the log has not verified, RPL_E_NOMEM. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_coverage(struct rpl_log *log, uint64_t bits[RPL_COVERAGE_WORDS],
                 struct rpl_error *err) RPL_NONNULL(1, 2);

/* Whether rpl_log_read() found plain canonical text (a host journal)
 * rather than a gzip member. */
RPL_API bool rpl_log_is_text(const struct rpl_log *log) RPL_NONNULL(1);

/* The canonical text (lent until the log changes or is freed). */
RPL_API const char *rpl_log_text(const struct rpl_log *log, size_t *len)
    RPL_NONNULL(1, 2);

/* Re-signs every seal line with sk (pack --key); the dealer line must
 * name sk's public key. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_reseal(struct rpl_log *log, const struct rpl_seckey *sk,
               struct rpl_error *err) RPL_NONNULL(1, 2);

/* Writes the log as one gzip member, atomically (temporary file in the
 * same directory, fsync, rename); "-" is standard output.  Without force
 * an existing file is RPL_E_EXISTS. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_write(const struct rpl_log *log, const char *path, bool force,
              struct rpl_error *err) RPL_NONNULL(1, 2);

/* As rpl_log_write(), but the directory is not synced: the file's data
 * is (fsync before the rename), its name in the directory is durable
 * only after rpl_dir_sync() of that directory.  For many files written
 * into one directory: one directory sync after the last instead of one
 * per file. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_write_deferred(const struct rpl_log *log, const char *path, bool force,
                       struct rpl_error *err) RPL_NONNULL(1, 2);

/* Writes len bytes of data to path as rpl_log_write() writes a log: a
 * temporary file made with mkstemp() beside path (so never through a
 * link planted at that name), synced, then renamed over path (a link at
 * path is replaced, its target left alone) and the directory synced;
 * after a failure neither a partial file nor the temporary file remains.
 * mode is the file's mode (0644, 0600 for a secret).  "-" is standard
 * output.  Without force an existing path (a link too) is
 * RPL_E_EXISTS. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_file_write(const char *path, const void *data, size_t len, unsigned mode,
               bool force, struct rpl_error *err) RPL_NONNULL(1);

/* fsync of directory dir, making durable the names written into it
 * (rpl_log_write_deferred()); a file system that cannot sync a
 * directory is RPL_OK.  RPL_E_IO names the directory.  Thread-safe. */
RPL_API RPL_NODISCARD enum rpl_status rpl_dir_sync(const char *dir,
                                                   struct rpl_error *err)
    RPL_NONNULL(1);

/* ---------------------------------------------------------------------
 * Recording (hosts) and simulation
 * ------------------------------------------------------------------ */

struct rpl_recorder;

/* The line of an error of the rpl_rec_*() calls: when a line the
 * recorder writes fails a check or a limit, the number that line would
 * have had in the log (the number of lines so far plus one); 0 for a
 * fault of the arguments or of the order of the calls, and for an
 * action refused in its private form (it is not a line of the log). */

struct rpl_rec_config {
    const char *game;         /* "avalon" */
    const char *rules;        /* the rules line after "rules " */
    size_t seats;             /* number of names (and seat_keys) */
    const char *const *names; /* seat display names, UTF-8 */
    const struct rpl_pubkey *const *seat_keys; /* NULL, or NULL entries */
    const struct rpl_seckey *dealer;           /* signs the seals */
    const uint8_t *id;     /* 16 bytes, or NULL for random */
    const uint8_t *secret; /* the dealer secret S (32), NULL: random */
    const char *created;   /* "YYYY-MM-DDTHH:MM:SSZ" or NULL */
    /* A game recorded by another system (camelog(5), "Imported games"):
     * the deal comes from that record, not from the seed, and is opened
     * in the reveal.  All NULL/0 for a game dealt by camelog; a game
     * that imports no records (rpl_import_has_format()) refuses them,
     * RPL_E_UNSUPPORTED. */
    const char *import_source; /* e.g. "avalongame.online": [a-z0-9.-] */
    const char *import_id;     /* its id there: printable ASCII, no space */
    const char *const *deal;   /* each seat's secret (Avalon: its role) */
    size_t first;              /* the first leader, 1-based */
    /* The journal of a live game (camelog(5), "Host journal"): the path
     * of a new file (created with O_EXCL: an existing one is
     * RPL_E_EXISTS) that receives every line, fsynced before the call
     * that accepted it returns, and PATH.secrets beside it (mode 0600),
     * boxed with a key of the dealer's, from which rpl_rec_resume() rebuilds
     * the recorder.  NULL: no journal.  Not for imported games. */
    const char *journal;
};

/* Starts a log: writes the header up to `commit`.  The config's pointers
 * are used during the call only; dealer must outlive the recorder. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_new(struct rpl_ctx *ctx, struct rpl_recorder **out,
            const struct rpl_rec_config *cfg, struct rpl_error *err)
    RPL_NONNULL(1, 2, 3);
RPL_API void rpl_rec_free(struct rpl_recorder *rec);

/* Seat `seat` contributes 32 bytes of entropy (before rpl_rec_start()),
 * signed with seat_sk when given (its key must be in the header). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_entropy(struct rpl_recorder *rec, size_t seat,
                const uint8_t entropy[32], const struct rpl_seckey *seat_sk,
                struct rpl_error *err) RPL_NONNULL(1, 3);

/* Derives the seed and deals: writes `start` and the private deliveries. */
RPL_API RPL_NODISCARD enum rpl_status rpl_rec_start(struct rpl_recorder *rec,
                                                    struct rpl_error *err)
    RPL_NONNULL(1);

/* A private message of the dealer to a seat, with what the seat needs to
 * check the public commitment at once. */
struct rpl_delivery {
    size_t seat;       /* who receives it */
    size_t line;       /* the public line holding the commitment */
    char label[64];    /* commitment label, e.g. "deal p3" */
    char value[192];   /* the message, e.g. "role=merlin sees=p2,p4"; in
                          format 2 padded with '.' to 191 bytes */
    uint8_t nonce[32]; /* secret: the commitment key */
    /* Format 2: the dealer's Ed25519 signature of the delivery
     * (camelog(5), "Deliveries"), which lets the seat show anyone what it
     * was told.  has_sig false: none (format 1). */
    uint8_t sig[64];
    bool has_sig;
};

/* The message the dealer signs for a delivery: "camelog delivery v1" ||
 * id || le64(line) || label || 0x00 || value || 0x00 || nonce.  Writes
 * *len bytes (at most RPL_DELIVERY_MESSAGE_MAX) into msg. */
#define RPL_DELIVERY_MESSAGE_MAX (19 + 16 + 8 + 64 + 192 + 32)
RPL_API void rpl_delivery_message(const uint8_t id[16],
                                  const struct rpl_delivery *d,
                                  uint8_t msg[RPL_DELIVERY_MESSAGE_MAX],
                                  size_t *len) RPL_NONNULL(1, 2, 3, 4);

/* Number of deliveries so far, and delivery i (0-based) copied out. */
RPL_API size_t rpl_rec_deliveries(const struct rpl_recorder *rec)
    RPL_NONNULL(1);
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_delivery(const struct rpl_recorder *rec, size_t i,
                 struct rpl_delivery *out, struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* The state of the game being recorded as one JSON object for a user
 * interface, as viewer (a seat, RPL_VIEW_PUBLIC or RPL_VIEW_ALL) may see
 * it: the game's keys (camelog-avalon(7), camelog-soc(7): phase, tracks,
 * who must act, never naming a secret role's seat, and viewer's legal
 * actions in private form), then "lines" (lines recorded so far) and
 * "deliveries" (a seat's own deliveries so far, every delivery for
 * RPL_VIEW_ALL, none for the public), each in the JSON form of
 * camelog(5); a seat's state ends in "pad", full stops that give it the
 * length of the public state, its deliveries and the game's state_pad
 * (struct rpl_game_info), whatever its secrets.  *json holds the nonces of
 * those deliveries: free it with rpl_free().  RPL_E_ARG for a viewer not in the
 * game, RPL_E_UNSUPPORTED for a game without the hook, RPL_E_NOMEM.  *json is
 * NULL on failure. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_state_json(const struct rpl_recorder *rec, int viewer, char **json,
                   struct rpl_error *err) RPL_NONNULL(1, 3);

/* A refusal of a seat's submission (camelog-host(1)), safe to show every
 * player: it never holds a commitment, a hidden role, another seat's
 * private message, which seat holds a secret role, or the secret part of
 * the refused action.  What only the dealer may read goes to the call's
 * struct rpl_error. */
struct rpl_refusal {
    char code[32];             /* a stable token, e.g. "not-your-turn" */
    char text[RPL_ERRMSG_MAX]; /* for every player: lowercase, no LF */
};

/* Who must act next as the dealer knows it: a seat number, or 0 when
 * the game is over or has not started.  It names the seat of a secret
 * role when that seat is to act (Avalon's Assassin), so it is for the
 * dealer's own use (bots, simulations); never show it to the players:
 * what they may know of the turn is in rpl_rec_state_json(). */
RPL_API size_t rpl_rec_dealer_turn(const struct rpl_recorder *rec)
    RPL_NONNULL(1);

/* ---- Live games: seats submit, sign on their own machines (LIVE) ----
 *
 * Every call below that takes a seat's action names the submitting
 * seat; a refusal fills why (struct rpl_refusal: a stable code and a
 * text safe for every player) and err (the dealer's detail, which may
 * hold secrets), returns its status and changes nothing.  The codes:
 * malformed, not-your-turn, on-behalf, phase, illegal, not-allowed,
 * duplicate, over, not-started, signature, pending, limit, io.
 * err->line is the number the refused line would have had, or 0. */

/* Seat `seat` submits its action in private form.  sig: NULL, or the
 * seat's 64-byte signature over the line's sig message when the seat
 * made it already (a vote, whose base is known at once).  On refusal:
 * the status, why (public) and err (dealer detail; may hold secrets);
 * nothing changes.  RPL_OK: accepted (written, or queued until its step
 * is complete or its signature arrives).  why may be NULL. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_submit(struct rpl_recorder *rec, size_t seat, const char *action,
               const uint8_t *sig, struct rpl_refusal *why,
               struct rpl_error *err) RPL_NONNULL(1, 3);

/* Format 2's entropy in two rounds (camelog(5) "Entropy").  First each
 * seat that takes part pledges: pledge = rpl_entropy_pledge() of its
 * value, in any order, before rpl_rec_pledged(); signed with seat_sk
 * (the seat's key, for local seats) or sig (the seat's signature of the
 * pledge line against the chain of the header), or unsigned.  Then
 * rpl_rec_pledged() writes the pledged line and seals it: the sealed
 * start, which the host shows every seat.  Then each seat reveals its
 * value (rpl_rec_entropy() or rpl_rec_submit_entropy(), in any order,
 * signed against the chain through that seal); a value that does not
 * match its pledge is refused.  rpl_rec_start() waits for every pledged
 * value.  A seat that withholds its value: rpl_rec_abandon() writes
 * "abandoned pK" and a seal, and the game is over.  Refusals fill why
 * (may be NULL) as rpl_rec_submit() does. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_pledge(struct rpl_recorder *rec, size_t seat, const uint8_t pledge[32],
               const struct rpl_seckey *seat_sk, const uint8_t *sig,
               struct rpl_refusal *why, struct rpl_error *err)
    RPL_NONNULL(1, 3, 7);
RPL_API RPL_NODISCARD enum rpl_status rpl_rec_pledged(struct rpl_recorder *rec,
                                                      struct rpl_refusal *why,
                                                      struct rpl_error *err)
    RPL_NONNULL(1, 3);
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_abandon(struct rpl_recorder *rec, size_t seat, struct rpl_refusal *why,
                struct rpl_error *err) RPL_NONNULL(1, 4);
/* out = H("camelog pledge" || id || byte seat || value): the pledge of
 * seat's value in game id.  RPL_E_ARG for a seat out of 1..10. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_entropy_pledge(const uint8_t id[16], size_t seat, const uint8_t value[32],
                   uint8_t out[32]) RPL_NONNULL(1, 3, 4);

/* Entropy of a seat, before rpl_rec_start(), in any order (written in
 * seat order at start).  sig as above, checked against the base the
 * line would have if the game started now; or NULL to get a sign request
 * once rpl_rec_start() writes the line.  The game has started when
 * rpl_rec_start() returned and no sign request is left. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_submit_entropy(struct rpl_recorder *rec, size_t seat,
                       const uint8_t entropy[32], const uint8_t *sig,
                       struct rpl_refusal *why, struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* The longest line of a log, in bytes without LF (camelog(5); the same
 * as the library's limits.h). */
#define RPL_MAX_LINE 4096u

/* A line waiting for a seat's signature: the exact line and base. */
struct rpl_sign_request {
    size_t seat;
    size_t line;                 /* the number the line will have */
    char text[RPL_MAX_LINE + 1]; /* the line, without LF */
    uint8_t base[32]; /* message = "camelog sig v1" || base || text */
    /* A line that commits (a quest card): its label and the label's
     * nonce, with which the seat recomputes the commitment of its own
     * choice before it signs (rpl_seat_sign_choice()).  has_nonce false
     * and label empty for a line without commitment. */
    char label[64];
    uint8_t nonce[32];
    bool has_nonce;
};

/* Number of sign requests now open (at most one per seat), and request
 * i (0-based) copied out. */
RPL_API size_t rpl_rec_sign_requests(const struct rpl_recorder *rec)
    RPL_NONNULL(1);
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_sign_request(const struct rpl_recorder *rec, size_t i,
                     struct rpl_sign_request *out, struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* The signature of `seat` for its pending request: checked against its
 * header key; a wrong one is refused (code "signature") and changes
 * nothing.  A seat with no key never gets a request (its lines go
 * unsigned). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_sign(struct rpl_recorder *rec, size_t seat, const uint8_t sig[64],
             struct rpl_refusal *why, struct rpl_error *err) RPL_NONNULL(1, 3);

/* Rebuilds a recorder from its journal (and journal.secrets, opened with
 * the dealer's secret key, which must outlive the recorder): byte for
 * byte the recorder that wrote it, queued submissions included.  A torn
 * last line or record (a crash in mid-write) is dropped from the files;
 * lines the secrets hold but the journal lost are written again.  The
 * recorder goes on journaling to the same files. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_resume(struct rpl_ctx *ctx, struct rpl_recorder **out,
               const char *journal, const struct rpl_seckey *dealer,
               struct rpl_error *err) RPL_NONNULL(1, 2, 3, 4);

/* Whether the recorder fsyncs its journal after each call (the default).
 * With is_on false the journal and its secrets are still written before
 * each call returns, so a killed process loses nothing, but the machine's
 * crash may: for tests and benchmarks only (camelog host --no-fsync).
 * Does nothing for a recorder without a journal. */
RPL_API void rpl_rec_set_fsync(struct rpl_recorder *rec, bool is_on)
    RPL_NONNULL(1);

/* Records one action in its private form, as camelog-avalon(7) lists
 * them ("vote p3 yes", "card p2 fail", "lady p2 p5"); the recorder
 * writes the public line with its commitment and every derived line
 * after it.  With seat_sk, the line is signed.  An illegal action is
 * RPL_E_RULES and changes nothing. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_act(struct rpl_recorder *rec, const char *action,
            const struct rpl_seckey *seat_sk, struct rpl_error *err)
    RPL_NONNULL(1, 2);

/* Seeded players. */
enum rpl_bot {
    RPL_BOT_RANDOM = 0,   /* a uniformly random legal action */
    RPL_BOT_PLAUSIBLE = 1 /* plays its side with simple reasoning */
};

/* Lets a seeded player choose the next action and records it.  seed (32
 * bytes) and the number of the move make the choice deterministic. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_bot(struct rpl_recorder *rec, enum rpl_bot bot, const uint8_t seed[32],
            const struct rpl_seckey *seat_sk, struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* Ends an unfinished game (`end aborted`). */
RPL_API RPL_NODISCARD enum rpl_status rpl_rec_abort(struct rpl_recorder *rec,
                                                    struct rpl_error *err)
    RPL_NONNULL(1);

/* Whether a seal may follow now and would cover something new: the game
 * has started, no submission is held and no sign request is open (a
 * seal would move the base a signature covers), and the last line is
 * not a seal.  A host that seals whenever this holds after a call makes
 * any two histories it shows two seats a proof (camelog-host(1)). */
RPL_API bool rpl_rec_seal_due(const struct rpl_recorder *rec) RPL_NONNULL(1);

/* Appends a seal over everything so far; RPL_E_STATE before the start. */
RPL_API RPL_NODISCARD enum rpl_status rpl_rec_seal(struct rpl_recorder *rec,
                                                   struct rpl_error *err)
    RPL_NONNULL(1);

/* Closes the journal once its game is written: records that it is
 * closed (rpl_rec_resume() refuses it with RPL_E_STATE from then on) and
 * refuses every recording call after it with RPL_E_STATE.  Without a
 * journal it only does the latter. */
RPL_API RPL_NODISCARD enum rpl_status rpl_rec_close(struct rpl_recorder *rec,
                                                    struct rpl_error *err)
    RPL_NONNULL(1);

/* After `end`: seals, reveals S, opens every player choice, seals. */
RPL_API RPL_NODISCARD enum rpl_status rpl_rec_reveal(struct rpl_recorder *rec,
                                                     struct rpl_error *err)
    RPL_NONNULL(1);

/* Number of lines recorded so far, and line no (1-based, without LF; not
 * NUL-terminated), as rpl_log_lines() and rpl_log_line() give them for
 * the log rpl_rec_log() would return, without copying or indexing it.
 * The line is lent until the next call that records (rpl_rec_entropy,
 * _start, _act, _bot, _abort, _seal, _reveal) or rpl_rec_free().  NULL
 * when no is 0 or past the last line (*len is then left alone). */
RPL_API size_t rpl_rec_lines(const struct rpl_recorder *rec) RPL_NONNULL(1);
/* The number of seats of the recorder's game (its rules line). */
RPL_API size_t rpl_rec_seats(const struct rpl_recorder *rec) RPL_NONNULL(1);
RPL_API const char *rpl_rec_line(const struct rpl_recorder *rec, size_t no,
                                 size_t *len) RPL_NONNULL(1, 3);

/* Where the recorded game stands, as rpl_log_verify() would find it of
 * the log rpl_rec_log() gives: complete once rpl_rec_reveal() wrote the
 * reveal, every open and the last seal; finished when the game ended
 * (or was abandoned) and a seal follows; in progress otherwise. */
RPL_API enum rpl_progress rpl_rec_progress(const struct rpl_recorder *rec)
    RPL_NONNULL(1);

/* The log so far as a new struct rpl_log (verify, write, replay it). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_rec_log(const struct rpl_recorder *rec, struct rpl_log **out,
            struct rpl_error *err) RPL_NONNULL(1, 2);

/* ---------------------------------------------------------------------
 * Importing games recorded by other systems
 * ------------------------------------------------------------------ */

/* A record of another system (a format, such as "avalongame" for the
 * JSON game logs of avalongame.online) is checked against the official
 * rules by the game's own engine and recorded as a sealed, complete
 * camelog log whose header says where it comes from (camelog(5),
 * "Imported games"); the deal comes from the record, not from a seed.
 * camelog-import(1) describes the formats. */

/* Whether the library imports records of this format. */
RPL_API bool rpl_import_has_format(const char *format) RPL_NONNULL(1);

/* One reason to refuse a record.  Every format lists its own, in the
 * order a summary shows them; all have the keys "read" (the file cannot
 * be read), "size" (over the format's size limit), "invalid" (the log
 * made does not verify), "exists" and "write" (for the caller: the
 * output exists, or cannot be written) and "internal" (the library
 * failed: memory, randomness). */
struct rpl_import_category {
    const char *key;  /* stable token for JSON outputs, e.g. "syntax" */
    const char *text; /* for a summary, e.g. "not JSON" */
};

/* Category i (1-based) of the format, in summary order; NULL past the
 * last one or for an unknown format.  Static storage. */
RPL_API const struct rpl_import_category *
rpl_import_category(const char *format, size_t i) RPL_NONNULL(1);

/* The number of the format's category with this key; 0 when none. */
RPL_API size_t rpl_import_category_find(const char *format, const char *key)
    RPL_NONNULL(1, 2);

struct rpl_import_opts {
    const struct rpl_seckey *dealer; /* seals the logs (required) */
    /* With seed_len 1 to 64: each game's dealer secret derives from the
     * seed and the record's original id, so that the same seed writes
     * the same files (tests).  NULL: a random secret per game. */
    const uint8_t *seed;
    size_t seed_len;
    /* The format's settings as space-separated key=value words; NULL or
     * "" for none (no format has settings yet: any is RPL_E_ARG). */
    const char *options;
};

#define RPL_IMPORT_NAME_MAX   129 /* an original id: 1 to 128 bytes, NUL */
#define RPL_IMPORT_FIELD_MAX  192
#define RPL_IMPORT_REASON_MAX 512

/* What became of one record.  The caller allocates it. */
struct rpl_import_report {
    size_t category; /* 0 when imported; else see rpl_import_category() */
    char name[RPL_IMPORT_NAME_MAX];     /* the original id, "" until known:
                                         * the log's name ("<name>.camelog") */
    char field[RPL_IMPORT_FIELD_MAX];   /* the record's field at fault as a
                                         * JSON path, "" for none */
    char reason[RPL_IMPORT_REASON_MAX]; /* why, for people; "" if imported */
    struct rpl_report log;              /* the imported log's verification */
    char variants[RPL_VARIANTS_MAX];    /* the house rules the imported log
                                         * declares (rpl_log_variants()),
                                         * "" for none or when refused */
};

/* Imports one record of format: record_len bytes (copied), whose file
 * name is name (its directory is ignored; formats whose records do not
 * hold their original id take it from the name, "avalongame" the name
 * without ".json").  On success *out is the verified log (free it with
 * rpl_log_free()) and rep->log its report.  A refused record returns its
 * status (rpl_status_is_invalid_input() tells the record's faults from
 * the environment's) with rep->category, field and reason set, and err
 * holding the reason (cut at RPL_ERRMSG_MAX); *out is NULL.  An unknown
 * format is RPL_E_UNSUPPORTED and options without a dealer or with a bad
 * seed are RPL_E_ARG, with rep->category 0.  rep is filled either way. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_import(struct rpl_ctx *ctx, const char *format, const char *name,
           const void *record, size_t record_len,
           const struct rpl_import_opts *opts, struct rpl_log **out,
           struct rpl_import_report *rep, struct rpl_error *err)
    RPL_NONNULL(1, 2, 3, 6, 7, 8);

/* The same for the record in file path ("-" is not accepted: the name
 * may be the record's id).  A file that cannot be read is category
 * "read" (RPL_E_IO, reason the system's text, e.g. "No such file or
 * directory"); one over the format's limit is "size" (RPL_E_LIMIT) and
 * is not read further. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_import_file(struct rpl_ctx *ctx, const char *format, const char *path,
                const struct rpl_import_opts *opts, struct rpl_log **out,
                struct rpl_import_report *rep, struct rpl_error *err)
    RPL_NONNULL(1, 2, 3, 4, 5, 6);

/* ---------------------------------------------------------------------
 * Seats: a player's own checks and signatures in a live game
 * ------------------------------------------------------------------ */

/* What a seat does, in order (camelog(5), "The seat's duties"): pins the
 * dealer key, contributes signed entropy after `commit`, checks each
 * delivery the moment it arrives, signs its own lines, keeps the history
 * it saw and compares it with the final file.  None of it needs the
 * dealer's secret.  Every call below reads a log (as the seat has seen it
 * so far: finished, in progress or a host journal) that rpl_log_verify()
 * accepted, unless it says otherwise, and leaves its replay position
 * alone.  The same threading rules as the log's apply. */

/* The longest text or JSON form of a delivery, with its NUL. */
#define RPL_DELIVERY_MAX 1024
/* The longest "sig pK <base64>" line, with its NUL. */
#define RPL_SIG_LINE_MAX 104
/* The longest "entropy pK <hex>" line, with its NUL. */
#define RPL_ENTROPY_LINE_MAX 80
/* The longest sig message: the domain, a base and a line of 4096 bytes. */
#define RPL_SIG_MESSAGE_MAX (14 + 32 + 4096)

/* The chain value after line upto_line of log (0: 32 zero bytes): what a
 * seal or a sig after that line signs.  The log need not be verified.
 * RPL_E_INCOMPLETE when the log has fewer lines. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_head(const struct rpl_log *log, size_t upto_line, uint8_t head[32],
             struct rpl_error *err) RPL_NONNULL(1, 3);

/* Parses one delivery in either form of camelog(5) (the line `delivery
 * <line> "<label>" "<value>" <nonce>`, or the JSON object with keys seat,
 * line, label, value, nonce in that order), text[0..len) with or without
 * its LF.  The text form names no seat: out->seat is 0.  RPL_E_SYNTAX for
 * anything else (a label of 64 bytes or more, a value of 192 or more
 * included); RPL_E_LIMIT past 4096 bytes (RPL_MAX_LINE).  *out holds a nonce:
 * wipe it when done. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_delivery_parse(const char *text, size_t len, struct rpl_delivery *out,
                   struct rpl_error *err) RPL_NONNULL(1, 3);

/* Writes the text form of d (without LF) and a NUL into buf[0..cap) and
 * returns its length; 0 (and "" when cap > 0) when it does not fit or d is
 * not a delivery (line 0, an empty label, text that is not UTF-8 without
 * control characters).  RPL_DELIVERY_MAX always fits. */
RPL_API size_t rpl_delivery_format(const struct rpl_delivery *d, char *buf,
                                   size_t cap) RPL_NONNULL(1);

/* The same in the JSON form (one object, no LF); d->seat must be 1 or
 * more. */
RPL_API size_t rpl_delivery_format_json(const struct rpl_delivery *d, char *buf,
                                        size_t cap) RPL_NONNULL(1);

/* Checks d against the public log: line d->line exists (else
 * RPL_E_INCOMPLETE), is a game line carrying a commitment, d->label is
 * the one it commits (its first word the line's keyword, its seats on the
 * line), the delivery is addressed to d->seat (the line's author, or for
 * a line of the dealer the seat that ends the label; d->seat 0 skips this
 * check), and commit(label, value) under d's nonce equals the line's
 * commitment.  Every failure is RPL_E_FAIRNESS naming d->line in
 * err->line. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seat_check_delivery(const struct rpl_log *log, const struct rpl_delivery *d,
                        struct rpl_error *err) RPL_NONNULL(1, 2);

/* The deliveries due to seat in a verified log (camelog(5), "Deliveries
 * due"): the game lines carrying a commitment whose delivery goes to seat
 * (its author, the receiver of a secret that changes hands, or for a line
 * of the dealer the seat the line names), in log order, through the log's
 * last line, sealed or not.  Writes the first cap of their line numbers to
 * lines (NULL with cap 0: count only) and their number to *n, which may
 * exceed cap (rpl_log_lines() entries always suffice).  The list is
 * public: any reader of the log computes it.  RPL_E_STATE for a log that
 * did not verify, RPL_E_ARG for a seat not in the game, RPL_E_NOMEM. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seat_due(const struct rpl_log *log, size_t seat, size_t *lines, size_t cap,
             size_t *n, struct rpl_error *err) RPL_NONNULL(1, 5);

/* Gives a verified log seat's own deliveries d[0..n) (the seat's side of a
 * game in progress, whose log has no reveal yet): each is first checked
 * as rpl_seat_check_delivery() checks it, addressed to seat (d->seat 0 is
 * taken as seat), then told to the game as the replay reaches its line.
 * From then on rpl_log_view(), rpl_log_view_json() and rpl_log_describe()
 * for seat show at each position what seat knew there: its role and night
 * sight from the line that deals it, its own secret choices, what the
 * dealer told it privately (Avalon: Lady results).  Other viewers see
 * what they saw before.  Each call replaces
 * the deliveries given before (n 0 forgets them); on a complete log they
 * change nothing (the reveal tells more).  All or nothing: on failure the
 * log keeps what it had.  RPL_E_FAIRNESS (err->line: the delivery's line)
 * or RPL_E_INCOMPLETE for a delivery the log does not support, RPL_E_ARG
 * for a seat not in the game, RPL_E_SYNTAX for a label the game does not
 * know, RPL_E_UNSUPPORTED for a game that cannot take them (Shadows over
 * Camelot, for now), RPL_E_LIMIT
 * past RPL_MAX_LINES deliveries, RPL_E_NOMEM.  The log copies what it
 * keeps (not the nonces); d is only read.  Moves the replay position to
 * 0. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_log_learn(struct rpl_log *log, size_t seat, const struct rpl_delivery *d,
              size_t n, struct rpl_error *err) RPL_NONNULL(1);

/* The sig message of camelog(5) ("Byte-exact definitions"): "camelog
 * sig v1" || base || line[0..len), written to msg[0..cap) with its
 * length in *msg_len; what a seat signs for a sign request
 * (struct rpl_sign_request's base and text).  RPL_E_LIMIT for a line
 * over RPL_MAX_LINE bytes, RPL_E_ARG when cap is short;
 * RPL_SIG_MESSAGE_MAX always fits. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_sig_message(const uint8_t base[32], const char *line, size_t len,
                uint8_t *msg, size_t cap, size_t *msg_len,
                struct rpl_error *err) RPL_NONNULL(1, 2, 4, 6);

/* Reads line[0..len) as the line "sig pK <base64>" of seat K (88
 * base64 digits, without LF): true with its 64 bytes in sig. */
RPL_API bool rpl_sig_line_parse(const char *line, size_t len, size_t seat,
                                uint8_t sig[64]) RPL_NONNULL(1, 4);

/* The exact bytes seat must sign if line_text (NUL-terminated, no LF) is
 * appended at the end of log: "camelog sig v1" || base || line, base the
 * chain value of the log, or for a line that joins a group (a vote after
 * the first of its proposal) the chain value before the group's first
 * line; the game module decides on a copy of the state.  A line of an
 * open simultaneous step (a vote) may come before the lines of the seats
 * before it: it is applied after stand-ins for them (the same line with
 * their seat in place of its own) and signs against the group's base,
 * the chain value of the log when the group has not begun; a line of
 * such a step not signed against a group base (a quest card) is
 * RPL_E_STATE until the lines before it are in.  Refuses a line
 * the game refuses (its status), a line seat did not author, and lines no
 * seat signs (RPL_E_ARG).  An entropy line must come in seat order before
 * the game starts.  Writes *msg_len bytes into msg[0..cap);
 * RPL_SIG_MESSAGE_MAX always fits. */
RPL_API RPL_NODISCARD enum rpl_status rpl_seat_sig_message(
    const struct rpl_log *log, size_t seat, const char *line_text, uint8_t *msg,
    size_t cap, size_t *msg_len, struct rpl_error *err) RPL_NONNULL(1, 3, 4, 6);

/* The "sig pK <base64>" line (NUL-terminated) that follows line_text
 * appended at the end of log, signed with sk, which must be seat's key in
 * the header (RPL_E_KEY otherwise).  sk is only read. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seat_sign(const struct rpl_log *log, size_t seat,
              const struct rpl_seckey *sk, const char *line_text,
              char sig_line[RPL_SIG_LINE_MAX], struct rpl_error *err)
    RPL_NONNULL(1, 3, 4, 5);

/* Format 2 (camelog(5) "Entropy"), a seat's two rounds; value is the
 * seat's own 32 bytes, which it keeps between them.  rpl_seat_pledge():
 * the line "pledge pK <hex>" (rpl_entropy_pledge() of value) and its sig
 * against the chain of the header, while the log's pledges are open
 * (RPL_E_FAIRNESS when the log holds another pledge for the seat).
 * rpl_seat_reveal(): "entropy pK <hex>" and its sig against the chain
 * through the sealed start, only when log holds the sealed start (a
 * pledged line and its seal, verified with the caller's pinned dealer
 * key) and the seat's own pledge in it is the pledge of value:
 * RPL_E_FAIRNESS when the pledge is missing or changed, RPL_E_STATE
 * before the sealed start or after the game started.  Both refuse a
 * format 1 log (RPL_E_UNSUPPORTED) and a key that is not seat's. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seat_pledge(const struct rpl_log *log, size_t seat,
                const struct rpl_seckey *sk, const uint8_t value[32],
                char pledge_line[RPL_ENTROPY_LINE_MAX],
                char sig_line[RPL_SIG_LINE_MAX], struct rpl_error *err)
    RPL_NONNULL(1, 3, 4, 5, 6);
RPL_API RPL_NODISCARD enum rpl_status
rpl_seat_reveal(const struct rpl_log *log, size_t seat,
                const struct rpl_seckey *sk, const uint8_t value[32],
                char entropy_line[RPL_ENTROPY_LINE_MAX],
                char sig_line[RPL_SIG_LINE_MAX], struct rpl_error *err)
    RPL_NONNULL(1, 3, 4, 5, 6);

/* rpl_seat_sign() for a seat that says what it chose (camelog(5),
 * "Informed signing"): action is the seat's own action in private form
 * ("vote p1 yes", "card p1 fail").  A public action is signed only when
 * line_text is the action, or the action followed by a commitment of
 * the dealer's (the Lady of the Lake's answer).  A secret choice (the
 * action ends in its value, the line in a commitment, with the number of
 * the value's items between them for a list) is signed only when the
 * commitment on line_text is that of the action's value under label and
 * nonce (the sign request's), as the log's version pads it.  Anything
 * else is RPL_E_FAIRNESS, naming the action, and signs nothing; a secret
 * choice without label and nonce is RPL_E_ARG. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seat_sign_action(const struct rpl_log *log, size_t seat,
                     const struct rpl_seckey *sk, const char *line_text,
                     const char *action, const char *label,
                     const uint8_t *nonce, char sig_line[RPL_SIG_LINE_MAX],
                     struct rpl_error *err) RPL_NONNULL(1, 3, 4, 5, 8);

/* Format 1: seat's contribution to the seed: 32 fresh bytes
 * (randombytes_buf()) as the line "entropy pK <hex>" appended at the end
 * of log (which must end after `commit` or after the entropy of an
 * earlier seat), and its sig line, as rpl_seat_sign() makes it.  Both
 * NUL-terminated.  A format 2 log refuses it (RPL_E_UNSUPPORTED). */
RPL_API RPL_NODISCARD enum rpl_status rpl_seat_entropy(
    const struct rpl_log *log, size_t seat, const struct rpl_seckey *sk,
    char entropy_line[RPL_ENTROPY_LINE_MAX], char sig_line[RPL_SIG_LINE_MAX],
    struct rpl_error *err) RPL_NONNULL(1, 3, 4, 5);

/* For the sig on line sig_line: *base_line is the line whose chain value
 * it signs against (the signed line is sig_line - 1; its base covers
 * lines 1..*base_line).  RPL_E_ARG when sig_line is not a sig line. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_seat_sig_base(const struct rpl_log *log, size_t sig_line, size_t *base_line,
                  struct rpl_error *err) RPL_NONNULL(1, 3);

/* ---------------------------------------------------------------------
 * Archive (SQLite): many games, indexed for review and statistics
 * ------------------------------------------------------------------ */

/* An archive is one SQLite database of many logs and an index of what
 * they say; its schema is documented in schema/archive.sql and
 * camelog-archive(1).  A handle holds one database connection: several
 * processes (or handles) may use one archive at once, writers waiting
 * for each other up to a busy timeout.  SQLite allocates its own memory;
 * the context's allocator serves the rest. */
struct rpl_archive;

enum rpl_archive_mode {
    RPL_ARCHIVE_READ = 0,  /* read only; the archive must exist and be at
                            * this library's schema version */
    RPL_ARCHIVE_WRITE = 1, /* the archive must exist; an older schema is
                            * migrated in one transaction */
    RPL_ARCHIVE_CREATE = 2 /* as WRITE, creating a missing archive */
};

/* Opens the archive at path (WAL journal, foreign keys on, a busy timeout
 * of a minute).  A file that is not an archive, or one written by a newer
 * library, is RPL_E_UNSUPPORTED; a missing archive without
 * RPL_ARCHIVE_CREATE and every database failure is RPL_E_IO.  Close with
 * rpl_archive_close(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_open(struct rpl_ctx *ctx, struct rpl_archive **out,
                 const char *path, enum rpl_archive_mode mode,
                 struct rpl_error *err) RPL_NONNULL(1, 2, 3);

/* Closes the database; an open batch is rolled back (NULL does
 * nothing). */
RPL_API void rpl_archive_close(struct rpl_archive *ar);

/* Why the open archive is not to be trusted, or NULL: its schema has
 * objects (tables, indexes, views, triggers) this library did not
 * create, or that differ from its own (the first such object named;
 * rpl_archive_check() lists them all).  Such an archive opens only
 * read-only (RPL_E_UNSUPPORTED for writing); what it says may be a lie.
 * The text lives as long as the handle. */
RPL_API const char *rpl_archive_warning(const struct rpl_archive *ar)
    RPL_NONNULL(1);

/* The schema version of the open archive (PRAGMA user_version). */
RPL_API unsigned rpl_archive_version(const struct rpl_archive *ar)
    RPL_NONNULL(1);

/* A batch: every rpl_archive_add() between begin and commit lands at
 * commit, all together, or not at all (rollback, a crash, a kill).
 * Without a batch, each add is its own transaction.  begin takes the
 * write lock (waiting for another writer up to the busy timeout). */
RPL_API RPL_NODISCARD enum rpl_status rpl_archive_begin(struct rpl_archive *ar,
                                                        struct rpl_error *err)
    RPL_NONNULL(1);
RPL_API RPL_NODISCARD enum rpl_status rpl_archive_commit(struct rpl_archive *ar,
                                                         struct rpl_error *err)
    RPL_NONNULL(1);
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_rollback(struct rpl_archive *ar, struct rpl_error *err)
    RPL_NONNULL(1);

/* What rpl_archive_add() did. */
enum rpl_archive_added {
    RPL_ARCHIVE_ADDED = 0,     /* a new game */
    RPL_ARCHIVE_REPLACED = 1,  /* replaced an earlier log of the game (the
                                * new log has the same lines and more) */
    RPL_ARCHIVE_PRESENT = 2,   /* the same log was already there */
    RPL_ARCHIVE_SUPERSEDED = 3 /* the archive holds a later log of the
                                * game: nothing changed */
};

/* Stores a log that rpl_log_verify() accepted, and indexes it: the game,
 * its rules and options, seats (names, keys), outcome and progress,
 * quests and Lady uses, the assassination, and once the log is complete,
 * each seat's role and side and every quest card.  The log must end with
 * a seal (RPL_E_INCOMPLETE otherwise): the game id and a hash of that
 * seal line identify it, so adding it again changes nothing.  A failed
 * add changes nothing either, also inside a batch.  *what (may be NULL)
 * says what happened.  The log's replay position moves.  RPL_E_STATE for
 * a log that has not verified, or an archive opened read-only. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_add(struct rpl_archive *ar, struct rpl_log *log,
                enum rpl_archive_added *what, struct rpl_error *err)
    RPL_NONNULL(1, 2);

/* rpl_archive_add() in two halves, for the costly one to run in another
 * thread than the archive's: rpl_archive_entry_new() reads from a log
 * what the archive stores of it (the index rows, the compressed file)
 * without an archive, and rpl_archive_add_entry() stores that, with
 * rpl_archive_add()'s results and errors (the log's are
 * rpl_archive_entry_new()'s).  The entry is made from the log's context
 * and lends from the log, which must outlive it and stay as it is (no
 * seek, no verify); the log's replay position moves.  keep (NULL, or a
 * context of the calling thread, maybe the log's) keeps the compressor's
 * tables (256 KiB) from one call to the next, which spares setting them
 * up for each log.  Free with rpl_archive_entry_free() (NULL does
 * nothing), before the log. */
struct rpl_archive_entry;
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_entry_new(struct rpl_log *log, struct rpl_ctx *keep,
                      struct rpl_archive_entry **out, struct rpl_error *err)
    RPL_NONNULL(1, 3);
/* rpl_log_verify() of a log just read, and in the same pass its entry:
 * nothing is split or replayed twice.  rep is rpl_log_verify()'s; a log
 * that fails it returns its code, err a copy of rep->error and *out NULL;
 * a log that verifies may still fail as rpl_archive_entry_new() fails
 * (rep->error.code is then RPL_OK).  A log read from a canonical
 * container (camelog(5)) lends its file's bytes, stored as they are;
 * keep serves only the others. */
RPL_API RPL_NODISCARD enum rpl_status rpl_archive_entry_verify(
    struct rpl_log *log, const struct rpl_verify_opts *opts,
    struct rpl_report *rep, struct rpl_ctx *keep,
    struct rpl_archive_entry **out, struct rpl_error *err) RPL_NONNULL(1, 3, 5);
RPL_API void rpl_archive_entry_free(struct rpl_archive_entry *e);
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_add_entry(struct rpl_archive *ar, struct rpl_archive_entry *e,
                      enum rpl_archive_added *what, struct rpl_error *err)
    RPL_NONNULL(1, 2);

/* Inside a batch: rpl_archive_add_entry() of e[0], e[1] ... in turn, up
 * to the first that fails; *done gets the number added before it (all n
 * without a failure, RPL_OK), what[i] what became of e[i] for each of
 * them, and the failed one's error is returned: it changed nothing, and
 * the others stay added (unless the failure lost the whole batch, as
 * rpl_archive_commit() tells).  The same as n calls, for less: one
 * savepoint serves the run while nothing fails, where each call takes
 * its own, and SQLite copies each page it changes into a savepoint's
 * journal.  RPL_E_STATE outside a batch. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_add_entries(struct rpl_archive *ar,
                        struct rpl_archive_entry *const *e, size_t n,
                        enum rpl_archive_added *what, size_t *done,
                        struct rpl_error *err) RPL_NONNULL(1, 2, 4, 5);

/* Which games a query, stats or export looks at: every non-NULL (or
 * non-zero) member must hold.  The seat filters (player, role, side)
 * must hold for one seat together: player "Alice" with role "merlin" is
 * every game where Alice was Merlin. */
struct rpl_archive_filter {
    const char *game;   /* "avalon", "soc" */
    const char *id;     /* the game id, or a prefix of its hex */
    const char *player; /* a seat's display name, exactly */
    const char *role;   /* a seat's revealed role ("merlin") */
    const char *side;   /* a seat's revealed side ("good", "evil") */
    const char *winner; /* the winner on the `end` line */
    const char *reason; /* the reason on the `end` line */
    size_t players;     /* number of seats */
    const char *since;  /* created at or after: YYYY-MM-DD[THH:MM:SSZ] */
    const char *until;  /* created before: the same forms */
    /* House rules (rpl_log_variants()): is_official selects the games
     * that declare none; variants[0..nvariants) (at most
     * RPL_ARCHIVE_MAX_VARIANTS names of a game's page, "percival-alone")
     * the games that declare every one of them.  Both at once is
     * RPL_E_ARG. */
    bool is_official;
    const char *const *variants;
    size_t nvariants;
    /* Statistics only, for the per-player records (their order is by
     * games played): records_min_games leaves out the players with fewer
     * games, records_top (0: all) keeps the first that many. */
    size_t records_top;
    size_t records_min_games;
};
#define RPL_ARCHIVE_MAX_VARIANTS 8

/* Checks a filter as query, stats and audit do before they run: game a
 * game's name, role a role (or knight), side a side and each of variants
 * a variant of that game, or of any game without game; id a hex prefix,
 * since and until dates, at most RPL_ARCHIVE_MAX_VARIANTS variants and
 * none with is_official.  RPL_E_ARG names the filter and says what it
 * takes ("role: unknown role \"merlim\" (merlin, percival, ...)"); f NULL
 * is RPL_OK.  Thread-safe. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_check_filter(const struct rpl_archive_filter *f,
                         struct rpl_error *err);

struct rpl_archive_seat {
    const char *name; /* display name */
    const char *key;  /* base64 public key, or NULL */
    const char *role; /* NULL until revealed */
    const char *side; /* NULL until revealed */
};

struct rpl_archive_quest {
    unsigned round;     /* 1.. in time order */
    unsigned slot;      /* quest space on the board */
    unsigned leader;    /* seat that proposed the team */
    unsigned fails;     /* Fail cards played */
    const char *team;   /* "p1,p3,p5" */
    const char *result; /* "success", "fail" */
    const char *failed; /* who played Fail: "p2,p5", "" for nobody, NULL
                         * until the cards are opened */
};

/* A figure of one game in its game's own terms, for the games whose
 * archive rows hold more than struct rpl_archive_game's common members:
 * the integer value of member name of group.  Avalon's assassination is
 * the group "assassination" with "assassin" and "target" (seats).  The
 * strings are the library's, constant. */
struct rpl_archive_fact {
    const char *group; /* one of rpl_archive_fact_group() */
    const char *name;
    int64_t value;
};

/* The groups of the facts the games of this library give, each once, in
 * a fixed order: group i (0-based), or NULL past the last.  A group is
 * not the name of a member of struct rpl_archive_game.  Thread-safe. */
RPL_API const char *rpl_archive_fact_group(size_t i);

/* One game of a query; every pointer is lent for the callback only. */
struct rpl_archive_game {
    const char *game;    /* "avalon" */
    const char *id;      /* 32 hex digits */
    const char *seal;    /* 64 hex digits: hash of the final seal line */
    const char *created; /* "YYYY-MM-DDTHH:MM:SSZ", or NULL */
    const char *rules;   /* the rules line after "rules " */
    const char *dealer;  /* base64 public key */
    const char *winner;  /* NULL before `end` */
    const char *reason;  /* NULL before `end` */
    enum rpl_progress progress;
    bool is_imported;
    const char *source;    /* imported: where from ("avalongame.online"), */
    const char *source_id; /* and the game's id there; else NULL */
    size_t players;
    size_t proposals;
    size_t lines;
    const struct rpl_archive_seat *seats; /* seats[k - 1] is pK */
    size_t nquests;
    const struct rpl_archive_quest *quests;
    /* The game's own facts, those of a group together; a group the game
     * gives nothing of (nobody was assassinated) has none. */
    size_t nfacts;
    const struct rpl_archive_fact *facts;
    const char *variants; /* the house rules declared, as
                           * rpl_log_variants() gives them: "" for none */
};

/* Calls each for every game the filter selects (f may be NULL: all), in
 * the order they were added, until it returns false.  The callback may
 * call rpl_archive_export() but must not add. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_query(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  bool (*each)(void *ud, const struct rpl_archive_game *g),
                  void *ud, struct rpl_error *err) RPL_NONNULL(1, 3);

/* Writes the stored log of game id whose seal hash is seal (hex, as in
 * struct rpl_archive_game) to path, byte for byte, atomically; without
 * force an existing file is RPL_E_EXISTS. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_export(struct rpl_archive *ar, const char *id, const char *seal,
                   const char *path, bool force, struct rpl_error *err)
    RPL_NONNULL(1, 2, 3, 4);

/* Statistics of the games the filter selects, as one JSON object (keys
 * in camelog-archive(1)): games by progress, then one object per game,
 * keyed by its name, with its own figures (wins by side, end reasons,
 * results by player count, per-player records and what else the game
 * counts).  Rates are decimals with four places.  Free with
 * rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_stats(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  char **json, struct rpl_error *err) RPL_NONNULL(1, 3);

/* What rpl_archive_stats_as() writes. */
enum rpl_archive_format {
    RPL_ARCHIVE_JSON = 0, /* the object of rpl_archive_stats() */
    RPL_ARCHIVE_TEXT = 1, /* tables for people, one section per game */
    RPL_ARCHIVE_SVG = 2   /* an SVG 1.1 document: one chart per game of
                           * the win rates by player count */
};

/* The statistics of rpl_archive_stats() in another form, one read
 * transaction per call: every game has its own section (its sides are
 * its own), and a game none of whose games is selected has no text and
 * no chart.  An unknown format is RPL_E_ARG.  Free *out with
 * rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_stats_as(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                     enum rpl_archive_format format, char **out,
                     struct rpl_error *err) RPL_NONNULL(1, 4);

/* The deal audit of the games the filter selects: whether the deals
 * look uniform, for the games camelog dealt and apart for the imported
 * ones.  Each game's tables (camelog-archive(1): each role's seat per
 * player count, the first leader's seat, each player's roles) are tested
 * stratum by stratum with Pearson's chi-square against a uniform deal,
 * cells expecting fewer than 5 pooled, and the p-values of all the tests
 * corrected together by Holm-Bonferroni; a test whose corrected p-value
 * is under 0.01 is flagged, and *is_flagged (may be NULL) says whether
 * one is.  format is RPL_ARCHIVE_JSON (keys in camelog-archive(1)) or
 * RPL_ARCHIVE_TEXT (the tables and a verdict per group); another is
 * RPL_E_ARG.  One read transaction.  Free *out with rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_archive_audit(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  enum rpl_archive_format format, char **out, bool *is_flagged,
                  struct rpl_error *err) RPL_NONNULL(1, 4);

/* The type of a column value of rpl_archive_sql(). */
enum rpl_sql_type {
    RPL_SQL_NULL = 0,    /* value NULL */
    RPL_SQL_INTEGER = 1, /* decimal */
    RPL_SQL_REAL = 2,    /* as SQLite prints it */
    RPL_SQL_TEXT = 3,    /* UTF-8 */
    RPL_SQL_BLOB = 4     /* lowercase hex */
};

/* Runs one read-only SQL statement (a SELECT, or a PRAGMA that only
 * reads) and calls each for every row until it returns false: names and
 * values of the ncols columns, values as text (NULL for SQL NULL).  A
 * statement that would write or attach is refused (RPL_E_ARG), as is
 * more than one statement.  Besides the limits of every connection, the
 * statement stops with RPL_E_LIMIT when SQLite's memory grows by
 * RPL_MAX_SQL_HEAP or after RPL_MAX_SQL_SECONDS, and printf() refuses a
 * width or precision over RPL_MAX_SQL_VALUE. */
RPL_API RPL_NODISCARD enum rpl_status rpl_archive_sql(
    struct rpl_archive *ar, const char *sql,
    bool (*each)(void *ud, size_t ncols, const char *const *names,
                 const char *const *values, const enum rpl_sql_type *types),
    void *ud, struct rpl_error *err) RPL_NONNULL(1, 2, 3);

/* Checks the archive: SQLite's integrity and foreign keys, then for every
 * stored log, that it still verifies, is the game its row names, and that
 * the index rebuilt from it equals the stored index.  Each problem goes to
 * each (may be NULL; id is NULL for problems of the database as a whole).
 * Returns RPL_OK when there is none, else the status of the first (an
 * index that differs from its log is RPL_E_STATE); *games (may be NULL)
 * counts the logs checked.  Not inside a batch (RPL_E_STATE). */
RPL_API RPL_NODISCARD enum rpl_status rpl_archive_check(
    struct rpl_archive *ar,
    void (*each)(void *ud, const char *id, const struct rpl_error *problem),
    void *ud, size_t *games, struct rpl_error *err) RPL_NONNULL(1);

/* ---------------------------------------------------------------------
 * The public log of games: C2SP tlog-tiles and tlog-checkpoint
 * ------------------------------------------------------------------ */

/* A host keeps one append-only Merkle tree (RFC 6962 hashing) of the
 * games it starts and ends, as static files in a directory: hash tiles
 * tile/<L>/<N>[.p/<W>] of height 8, entry bundles tile/entries/<N>[.p/<W>]
 * and a checkpoint, a signed note by the host's Ed25519 key, exactly as
 * C2SP's tlog-tiles, tlog-checkpoint and signed-note say (camelog(5),
 * "The public log of games").  Every file is written to a temporary file
 * beside it (O_EXCL), synced and renamed; an append is durable when it
 * returns, and a crash loses only the append under way.  Tiles, bundles,
 * checkpoints and proofs are untrusted input, parsed with bounds.  One
 * writer at a time per directory: a handle that can append holds an
 * exclusive flock(2) of the directory until it is closed, and a second
 * one is refused with RPL_E_BUSY.  A handle is used by one thread at a
 * time. */

#define RPL_TLOG_HASH_LEN   32
#define RPL_TLOG_ORIGIN_MAX 255   /* bytes of an origin (the key name too) */
#define RPL_TLOG_ENTRY_MAX  65535 /* bytes of one entry (uint16 prefix) */
#define RPL_TLOG_PROOF_MAX  128   /* hashes of a proof (trees < 2^64) */

struct rpl_tlog;

/* What a checkpoint says, once its signature verified. */
struct rpl_tlog_checkpoint {
    char origin[RPL_TLOG_ORIGIN_MAX + 1]; /* NUL-terminated */
    uint64_t size;                        /* entries in the tree */
    uint8_t root[RPL_TLOG_HASH_LEN];      /* RFC 6962 root hash */
};

enum rpl_tlog_proof_kind {
    RPL_TLOG_INCLUSION = 1,  /* an entry is in a tree */
    RPL_TLOG_CONSISTENCY = 2 /* a tree extends an older one */
};

/* An inclusion or consistency proof (RFC 6962 2.1.1 and 2.1.2, hashes in
 * that order).  The caller allocates it (about 4 KiB). */
struct rpl_tlog_proof {
    enum rpl_tlog_proof_kind kind;
    uint64_t size;                   /* the tree the proof is against */
    uint64_t old_size;               /* consistency: the older tree */
    uint64_t index;                  /* inclusion: the entry's index */
    uint8_t leaf[RPL_TLOG_HASH_LEN]; /* inclusion: its leaf hash */
    size_t count;                    /* hashes in hash[] */
    uint8_t hash[RPL_TLOG_PROOF_MAX][RPL_TLOG_HASH_LEN];
};

/* Makes a new log in dir (created, or an existing empty directory) whose
 * checkpoints will name origin (1 to RPL_TLOG_ORIGIN_MAX printable ASCII
 * bytes, no space, no '+'; the signer's key name too).  An existing log
 * there is RPL_E_EXISTS.  Close with rpl_tlog_close(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_create(struct rpl_ctx *ctx, struct rpl_tlog **out, const char *dir,
                const char *origin, struct rpl_error *err)
    RPL_NONNULL(1, 2, 3, 4);

/* Opens the log in dir.  With its state file (written by this library,
 * not part of what is served) the log can be appended to (the directory
 * is locked first: RPL_E_BUSY while another handle writes): the partial
 * tiles and bundle at its size are read and checked against each other,
 * so an append resumes where the last durable one ended.  Without it (a
 * copy of the served files) the handle reads only, and its size is the
 * checkpoint's, unverified until rpl_tlog_audit(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_open(struct rpl_ctx *ctx, struct rpl_tlog **out, const char *dir,
              struct rpl_error *err) RPL_NONNULL(1, 2, 3);

RPL_API void rpl_tlog_close(struct rpl_tlog *t);

/* The number of entries (durable ones), and the origin (lent for the
 * life of the handle; "" when a read-only copy has no checkpoint). */
RPL_API uint64_t rpl_tlog_size(const struct rpl_tlog *t) RPL_NONNULL(1);
RPL_API const char *rpl_tlog_origin(const struct rpl_tlog *t) RPL_NONNULL(1);

/* Appends n entries (entries[i] of lens[i] bytes, 0 to
 * RPL_TLOG_ENTRY_MAX each) as indexes size .. size + n - 1: every tile
 * and bundle they change is written and synced, then the state records
 * the new size.  Nothing is appended when it fails.  Read-only handles
 * are RPL_E_STATE. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_append(struct rpl_tlog *t, const void *const *entries,
                const size_t *lens, size_t n, struct rpl_error *err)
    RPL_NONNULL(1);

/* Signs a checkpoint of the current size with sk and writes it to the
 * directory's checkpoint file; the note's key name is the origin.  The
 * tiles it covers are already durable.  out (may be NULL) gets what it
 * says. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_sign(struct rpl_tlog *t, const struct rpl_seckey *sk,
              struct rpl_tlog_checkpoint *out, struct rpl_error *err)
    RPL_NONNULL(1, 2);

/* The root hash of the first size entries (size <= rpl_tlog_size()),
 * from the tiles. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_root(struct rpl_tlog *t, uint64_t size,
              uint8_t root[RPL_TLOG_HASH_LEN], struct rpl_error *err)
    RPL_NONNULL(1, 3);

/* Entry index of the log, read from its bundle (the bundle covering a
 * tree of size entries; size <= rpl_tlog_size()).  *data is lent until
 * the next call on t; *len its bytes. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_entry(struct rpl_tlog *t, uint64_t index, uint64_t size,
               const uint8_t **data, size_t *len, struct rpl_error *err)
    RPL_NONNULL(1, 4, 5);

/* The proof that entry index is in the tree of size entries, or that
 * the tree of size entries extends the one of old_size (0 < old_size <=
 * size), from the tiles. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_prove_inclusion(struct rpl_tlog *t, uint64_t index, uint64_t size,
                         struct rpl_tlog_proof *proof, struct rpl_error *err)
    RPL_NONNULL(1, 4);
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_prove_consistency(struct rpl_tlog *t, uint64_t old_size, uint64_t size,
                           struct rpl_tlog_proof *proof, struct rpl_error *err)
    RPL_NONNULL(1, 4);

/* Checks a directory against its checkpoint, from files alone: the note
 * signed by pk under the name origin (origin NULL: the checkpoint's own
 * origin line), then every entry bundle and every tile the checkpoint
 * covers, rebuilt from the entries and compared byte for byte, and the
 * root.  The first fault is named (file, entry or hash, what was
 * expected): RPL_E_SEAL for the signature, RPL_E_FAIRNESS for a hash
 * that differs, RPL_E_INCOMPLETE for a missing or short file,
 * RPL_E_SYNTAX for a malformed one.  cp (may be NULL) gets what the
 * checkpoint says. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_audit(struct rpl_tlog *t, const struct rpl_pubkey *pk,
               const char *origin, struct rpl_tlog_checkpoint *cp,
               struct rpl_error *err) RPL_NONNULL(1, 2);

/* Parses a checkpoint (text[0..len), a C2SP signed note) and verifies
 * the signature of pk under the key name origin (NULL: the note's own
 * origin line, which must then be the key name).  Other signatures
 * (witnesses) are skipped; a malformed note is RPL_E_SYNTAX, no good
 * signature by pk RPL_E_SEAL. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_checkpoint_parse(const char *text, size_t len,
                          const struct rpl_pubkey *pk, const char *origin,
                          struct rpl_tlog_checkpoint *cp, struct rpl_error *err)
    RPL_NONNULL(1, 3, 5);

/* The note verifier key of pk under name, as Go's sumdb/note reads it:
 * "<name>+<key hash, 8 hex>+<base64 of 0x01 || key>" and a NUL. */
#define RPL_TLOG_VKEY_MAX (RPL_TLOG_ORIGIN_MAX + 1 + 8 + 1 + 44 + 1)
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_vkey(const struct rpl_pubkey *pk, const char *name,
              char out[RPL_TLOG_VKEY_MAX], struct rpl_error *err)
    RPL_NONNULL(1, 2, 3);

/* SHA-256(0x00 || entry): the leaf hash of an entry. */
RPL_API void rpl_tlog_leaf_hash(const void *entry, size_t len,
                                uint8_t out[RPL_TLOG_HASH_LEN]) RPL_NONNULL(3);

/* Checks an inclusion proof against a verified checkpoint: the proof's
 * size must be the checkpoint's, and its leaf (with entry not NULL, the
 * hash of entry[0..entry_len), which must equal the proof's leaf) must
 * lead to the root.  RPL_E_FAIRNESS when it does not. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_verify_inclusion(const struct rpl_tlog_checkpoint *cp,
                          const struct rpl_tlog_proof *proof, const void *entry,
                          size_t entry_len, struct rpl_error *err)
    RPL_NONNULL(1, 2);

/* Checks that checkpoint cp extends older: the same origin, a size no
 * smaller (RPL_E_FAIRNESS otherwise: a log never shrinks), and, when the
 * sizes differ, the consistency proof between them (proof may be NULL
 * when they are equal; then the roots must be equal).  Two checkpoints
 * that fail this, both signed, prove the log forked. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_verify_consistency(const struct rpl_tlog_checkpoint *older,
                            const struct rpl_tlog_checkpoint *cp,
                            const struct rpl_tlog_proof *proof,
                            struct rpl_error *err) RPL_NONNULL(1, 2);

/* A proof as text (camelog-tlog(1), "Proofs"), freed with rpl_free(); and
 * the text parsed back, with bounds. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_proof_format(struct rpl_ctx *ctx, const struct rpl_tlog_proof *proof,
                      char **text, struct rpl_error *err) RPL_NONNULL(1, 2, 3);
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_proof_parse(const char *text, size_t len, struct rpl_tlog_proof *proof,
                     struct rpl_error *err) RPL_NONNULL(1, 3);

/* The entries of games (camelog(5), "Entries"). */
enum rpl_tlog_outcome {
    RPL_TLOG_STARTED = 0,  /* a start entry */
    RPL_TLOG_FINISHED = 1, /* ended and sealed, not revealed */
    RPL_TLOG_REVEALED = 2, /* ended, revealed and sealed */
    RPL_TLOG_ABANDONED = 3 /* given up; by says who caused it */
};

struct rpl_tlog_game {
    enum rpl_tlog_outcome outcome;       /* RPL_TLOG_STARTED: a start */
    char id[33];                         /* hex id of the game */
    char dealer[RPL_PUBKEY_B64_LEN + 1]; /* start: the dealer key */
    size_t by;     /* abandoned: 0 the dealer (host), K seat pK */
    char end[128]; /* end: the log's end line ("" when none) */
    size_t lines;  /* start: header lines; end: lines before the seal */
    uint8_t head[RPL_TLOG_HASH_LEN]; /* chain value after those lines */
};

/* The start entry of a game: its header through the `commit` line (id,
 * rules, seats, dealer key, the commitment to S: what fixes the deal).
 * *out is freed with rpl_free().  RPL_E_INCOMPLETE before `commit`. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_entry_start(struct rpl_ctx *ctx, const struct rpl_log *log, char **out,
                     size_t *len, struct rpl_error *err)
    RPL_NONNULL(1, 2, 3, 4);

/* The end entry: with is_abandoned, the game's abandonment and who
 * caused it (by: 0 the dealer, K seat pK), covering every line so far;
 * otherwise its end line and final seal, which must be the last line
 * (RPL_E_INCOMPLETE if not).  *out is freed with rpl_free(). */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_entry_end(struct rpl_ctx *ctx, const struct rpl_log *log,
                   bool is_abandoned, size_t by, char **out, size_t *len,
                   struct rpl_error *err) RPL_NONNULL(1, 2, 5, 6);

/* Parses an entry of the log (data[0..len), untrusted) into g; an entry
 * that is not a game's is RPL_E_SYNTAX. */
RPL_API RPL_NODISCARD enum rpl_status
rpl_tlog_game_parse(const void *data, size_t len, struct rpl_tlog_game *g,
                    struct rpl_error *err) RPL_NONNULL(1, 3);

#ifdef __cplusplus
}
#endif
#endif /* LIBREPLAY_REPLAY_H */
