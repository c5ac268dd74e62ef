/*
 * internal.h - what the library's files share and the API does not show:
 * the context, error helpers, byte order, the text cursor, the crypto and
 * gzip primitives, and the game-module interface.  Names are rpl__*.
 */
#ifndef LIBREPLAY_INTERNAL_H
#define LIBREPLAY_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "limits.h"
#include "replay.h"

#define RPL__PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ---------------------------------------------------------------- ctx */

/* Points that passed crypto_core_ed25519_is_valid_point() (a scalar
 * multiplication, a fifth of verifying a log): remembered per context so
 * that checking many logs of one dealer pays for it once.  A context is
 * used by one thread at a time. */
#define RPL__POINT_CACHE 16

struct rpl_ctx {
    struct rpl_allocator a;
    uint8_t valid_point[RPL__POINT_CACHE][32];
    size_t npoints; /* filled entries; the next goes at npoints % CACHE */
};

void *rpl__alloc(struct rpl_ctx *ctx, size_t size);
/* n * size, zeroed; NULL on overflow. */
void *rpl__calloc(struct rpl_ctx *ctx, size_t n, size_t size);
void *rpl__realloc(struct rpl_ctx *ctx, void *ptr, size_t size);
void rpl__free(struct rpl_ctx *ctx, void *ptr);
/* A NUL-terminated copy of s[0..len). */
char *rpl__strndup(struct rpl_ctx *ctx, const char *s, size_t len);

/* -------------------------------------------------------------- errors */

/* Fills err (when not NULL) and returns code.  Callers call it once, at
 * the first failure; cleanup paths never call it. */
enum rpl_status rpl__err(struct rpl_error *err, enum rpl_status code,
                         size_t line, const char *fmt, ...) RPL__PRINTF(4, 5);
/* Resets err to RPL_OK (public entry points call it first). */
void rpl__err_clear(struct rpl_error *err);

/* ---------------------------------------------------------- byte order */

static inline uint32_t
rpl__load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline void
rpl__store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void
rpl__store_le64(uint8_t *p, uint64_t v)
{
    rpl__store_le32(p, (uint32_t)v);
    rpl__store_le32(p + 4, (uint32_t)(v >> 32));
}

/* ------------------------------------------------------- growing text */

/* A growing byte buffer, always NUL-terminated when len > 0. */
struct rpl__buf {
    struct rpl_ctx *ctx;
    char *p;
    size_t len;
    size_t cap;
    bool failed; /* an allocation failed: later appends do nothing */
};

void rpl__buf_init(struct rpl__buf *b, struct rpl_ctx *ctx);
void rpl__buf_release(struct rpl__buf *b);
void rpl__buf_add(struct rpl__buf *b, const char *s, size_t len);
void rpl__buf_puts(struct rpl__buf *b, const char *s);
void rpl__buf_printf(struct rpl__buf *b, const char *fmt, ...)
    RPL__PRINTF(2, 3);
/* Hands the text to the caller (freed with rpl_free); RPL_E_NOMEM when an
 * append failed.  The buffer is empty afterwards. */
enum rpl_status rpl__buf_take(struct rpl__buf *b, char **out,
                              struct rpl_error *err);

/* --------------------------------------------------------------- text */

/* A token: bytes of the line, not NUL-terminated. */
struct rpl__tok {
    const char *p;
    size_t n;
};

/* One canonical line split into tokens; tok[0] is the keyword.  A token
 * that starts with '"' is a quoted string and runs to its closing quote
 * (only seat lines have one). */
struct rpl__line {
    size_t no;        /* 1-based line number */
    const char *text; /* the line, without LF */
    size_t len;
    size_t ntok;
    struct rpl__tok tok[RPL_MAX_TOKENS];
};

/* Splits a line: single spaces between tokens, none leading or trailing,
 * valid UTF-8, no control character; RPL_E_SYNTAX naming line no. */
enum rpl_status rpl__line_split(struct rpl__line *ln, const char *text,
                                size_t len, size_t no, struct rpl_error *err);

bool rpl__tok_is(const struct rpl__tok *t, const char *s);
/* "pK" with 1 <= K <= seats, no leading zero. */
bool rpl__tok_seat(const struct rpl__tok *t, size_t seats, size_t *seat);
/* Decimal without leading zeros, <= max. */
bool rpl__tok_uint(const struct rpl__tok *t, unsigned long max,
                   unsigned long *v);
/* Exactly 2n lowercase hex digits. */
bool rpl__tok_hex(const struct rpl__tok *t, uint8_t *out, size_t n);
/* Canonical padded standard base64 of exactly n bytes. */
bool rpl__tok_b64(const struct rpl__tok *t, uint8_t *out, size_t n);
/* "YYYY-MM-DDTHH:MM:SSZ", a real UTC date and time (no leap second). */
bool rpl__tok_time(const struct rpl__tok *t);
/* The `import` header line's tokens: a source of [a-z0-9.-] (1..64
 * bytes) and an original id of printable ASCII without space or quote
 * (1..128 bytes). */
bool rpl__import_source_ok(const struct rpl__tok *t);
bool rpl__import_id_ok(const struct rpl__tok *t);
/* "key=value": true and val set when t starts with key and '='. */
bool rpl__tok_kv(const struct rpl__tok *t, const char *key,
                 struct rpl__tok *val);
/* "p1,p3,p5": strictly ascending seats, 1..max entries. */
bool rpl__tok_seats(const struct rpl__tok *t, size_t seats, uint8_t *out,
                    size_t max, size_t *count);
/* A quoted seat name: unescapes into out (cap bytes incl. NUL); checks
 * the escapes, UTF-8, no Cc, 1..RPL_MAX_NAME bytes.  On failure why is
 * set to a static reason. */
bool rpl__tok_name(const struct rpl__tok *t, char *out, size_t cap,
                   const char **why);
/* Writes the quoted, escaped form of name into b. */
void rpl__buf_quote(struct rpl__buf *b, const char *name);
/* Whether s[0..n) is valid UTF-8 with no Cc control character. */
bool rpl__utf8_ok(const char *s, size_t n);

/* Lowercase hex of in[0..n) and a NUL into out (2n + 1 bytes). */
void rpl__hex(char *out, const uint8_t *in, size_t n);
/* "p1,p3,p5" and a NUL into out (cap >= 4 * RPL_MAX_SEATS). */
void rpl__fmt_seats(char *out, size_t cap, const uint8_t *seats, size_t n);
/* The error `expected "<want>", got "<the line, cut at 60 bytes>"`,
 * naming line ln->no. */
enum rpl_status rpl__err_expected(struct rpl_error *err, enum rpl_status code,
                                  const struct rpl__line *ln, const char *want);
/* Shows at most 60 bytes of a token for an error message. */
void rpl__tok_show(char *out, size_t cap, const struct rpl__tok *t);

/* ------------------------------------------------------------- crypto */

#define RPL__HASH 32

/* BLAKE2b-256 of in; keyed when key is not NULL (32 bytes). */
void rpl__hash(uint8_t out[RPL__HASH], const uint8_t *key, const void *in,
               size_t len);
/* h = H(h || line). */
void rpl__chain(uint8_t h[RPL__HASH], const char *line, size_t len);
/* commit = H("camelog secret" || id || S). */
void rpl__secret_commit(uint8_t out[RPL__HASH], const uint8_t id[16],
                        const uint8_t secret[32]);
/* seed = H(key = S, "camelog seed" || id || entropy[0] || ...). */
void rpl__seed(uint8_t out[RPL__HASH], const uint8_t id[16],
               const uint8_t secret[32], const uint8_t (*entropy)[32],
               size_t count);
/* c = H(key = nonce, id || label || 0x00 || value), nonce = H(key = seed,
 * "nonce " || label).  nonce may be NULL. */
void rpl__commit(uint8_t out[RPL__HASH], uint8_t *nonce, const uint8_t seed[32],
                 const uint8_t id[16], const char *label, const char *value);

/* A named deterministic stream (camelog(5) "Streams"): the keystream of
 * randombytes_buf_deterministic() keyed by H(key = seed, "stream " ||
 * name), produced 64 bytes at a time. */
struct rpl__stream {
    uint8_t key[32];
    uint8_t block[64];
    uint32_t counter; /* next ChaCha20 block */
    size_t used;      /* bytes of block consumed */
};

void rpl__stream_init(struct rpl__stream *s, const uint8_t seed[32],
                      const char *name);
/* A stream keyed directly (bots). */
void rpl__stream_init_key(struct rpl__stream *s, const uint8_t key[32]);
void rpl__stream_bytes(struct rpl__stream *s, uint8_t *out, size_t n);
/* Uniform in [0, n), n >= 1, by rejection of 32-bit LE words. */
uint32_t rpl__stream_uniform(struct rpl__stream *s, uint32_t n);
/* Fisher-Yates from the last index down. */
void rpl__stream_shuffle(struct rpl__stream *s, uint8_t *a, size_t n);
void rpl__stream_wipe(struct rpl__stream *s);

/* The secret key: sodium_malloc'ed, read-only between uses. */
struct rpl_seckey {
    uint8_t id[8];
    uint8_t sk[64]; /* libsodium's Ed25519 secret key (seed || pk) */
};

/* rpl_pubkey_parse() with the context's cache of valid points. */
enum rpl_status rpl__pubkey_parse(struct rpl_ctx *ctx, struct rpl_pubkey *pk,
                                  const char *b64, size_t len,
                                  struct rpl_error *err);

/* Ed25519 over msg. */
void rpl__sign(const struct rpl_seckey *sk, const uint8_t *msg, size_t len,
               uint8_t sig[64]);
bool rpl__verify(const struct rpl_pubkey *pk, const uint8_t *msg, size_t len,
                 const uint8_t sig[64]);

/* --------------------------------------------------------- files, gzip */

/* Reads a whole file ("-" = stdin) of at most max bytes. */
enum rpl_status rpl__file_read(struct rpl_ctx *ctx, const char *path,
                               size_t max, uint8_t **out, size_t *len,
                               struct rpl_error *err);
/* Temporary file in the same directory, fsync, rename (and fsync of the
 * directory); "-" writes stdout.  Nothing is left behind on failure. */
enum rpl_status rpl__file_write_atomic(const char *path, const void *data,
                                       size_t len, unsigned mode, bool force,
                                       struct rpl_error *err);
/* Exactly one gzip member, nothing after it, at most RPL_MAX_TEXT bytes
 * out; out is NUL-terminated (not counted in out_len). */
enum rpl_status rpl__gz_inflate(struct rpl_ctx *ctx, const uint8_t *in,
                                size_t in_len, char **out, size_t *out_len,
                                struct rpl_error *err);
/* One gzip member, MTIME 0, no name, comment or extra field. */
enum rpl_status rpl__gz_deflate(struct rpl_ctx *ctx, const char *text,
                                size_t len, uint8_t **out, size_t *out_len,
                                struct rpl_error *err);

/* --------------------------------------------------------- game modules */

/* What the log layer lends a module during a call. */
struct rpl__env {
    struct rpl_ctx *ctx;
    const uint8_t *id;        /* 16 bytes */
    const uint8_t *seed;      /* 32 bytes once known, else NULL */
    size_t seats;             /* from the rules line */
    const char *const *names; /* names[1..seats], NUL-terminated */
    size_t *commitments;      /* count of commitments checked, or NULL */
    bool imported;            /* the deal comes from another system's record */
    /* Warning sink: msg begins with the rule id ("O-2: ..."). */
    void (*warn)(void *w, size_t line, const char *msg);
    void *w;
};

/* A line the dealer or a seat writes, before its commitment: when label
 * is not empty, the writer appends " " and the hex commitment of
 * (label, value) to line. */
struct rpl__emit {
    char line[256];
    char label[64];
    char value[192];
};

/* What apply() tells the log layer about an accepted line. */
struct rpl__applied {
    size_t author;    /* the seat that authored the line (may sign it) */
    bool opens_group; /* first line of a group signed against one base */
    bool in_group;    /* signed against the base of its group (votes) */
};

/* One game.  The state is plain data of state_size bytes (no pointers):
 * the log layer zeroes it, copies it with memcpy and never looks inside.
 * Every function that fails leaves the state as it was. */
struct rpl__game {
    const char *name; /* the `game` line's value */
    size_t state_size;

    /* The `rules` line: checks it, stores the configuration, reports
     * O/W warnings through env and sets *seats. */
    enum rpl_status (*rules)(void *st, const struct rpl__line *ln,
                             const struct rpl__env *env, size_t *seats,
                             struct rpl_error *err);
    /* With env->seed: derives the deal (every secret of the setup). */
    enum rpl_status (*setup)(void *st, const struct rpl__env *env,
                             struct rpl_error *err);
    /* A game line (every line that is not header, entropy, seal, sig,
     * reveal or open).  Checks everything the state knows. */
    enum rpl_status (*apply)(void *st, const struct rpl__line *ln,
                             const struct rpl__env *env,
                             struct rpl__applied *out, struct rpl_error *err);
    /* Tells the state a secret choice before its line is applied
     * (recorder, and replay of a complete log): label as in `open`. */
    enum rpl_status (*learn)(void *st, const char *label, const char *value,
                             struct rpl_error *err);
    /* Imported games: the deal as the record gives it (deal[0..seats),
     * game-specific texts, e.g. Avalon roles) and the first player, in
     * place of setup(). */
    enum rpl_status (*import_deal)(void *st, const struct rpl__env *env,
                                   const char *const *deal, size_t first,
                                   struct rpl_error *err);
    /* The dealer's next line (needs setup): start, deal, derived lines.
     * False when a seat must act or the game is over. */
    bool (*pending)(const void *st, const struct rpl__env *env,
                    struct rpl__emit *e);
    /* The seat that must act next; 0 when none. */
    size_t (*turn)(const void *st);
    /* A private-form action (rpl_rec_act) as the line to write. */
    enum rpl_status (*action)(const void *st, const struct rpl__env *env,
                              const char *action, struct rpl__emit *e,
                              struct rpl_error *err);
    /* A seeded player's choice for the seat whose turn it is. */
    enum rpl_status (*bot)(const void *st, const struct rpl__env *env,
                           enum rpl_bot kind, struct rpl__stream *rng,
                           struct rpl__emit *e, struct rpl_error *err);
    /* Whether `end` has been applied. */
    bool (*is_over)(const void *st);
    /* Winner and reason tokens of `end` ("" before it). */
    void (*outcome)(const void *st, const char **winner, const char **reason);
    /* At `reveal` (env->seed set): the checks of camelog(5) in order,
     * each error naming the line whose claim is false. */
    enum rpl_status (*reveal)(void *st, const struct rpl__env *env,
                              size_t reveal_line, struct rpl_error *err);
    /* One `open` line after `reveal`. */
    enum rpl_status (*open)(void *st, const struct rpl__line *ln,
                            const struct rpl__env *env, struct rpl_error *err);
    /* Opens still expected after `reveal`. */
    size_t (*opens_left)(const void *st);
    /* Open i (0-based, log order) as "open <label> <value>" (recorder). */
    bool (*open_line)(const void *st, size_t i, struct rpl__emit *e);
    /* Canonical bytes of the state for the digest; returns the length
     * (writes nothing past cap). */
    size_t (*serialize)(const void *st, uint8_t *buf, size_t cap);
    /* Text for people and JSON (append to out): the board and what the
     * viewer (seat, RPL_VIEW_PUBLIC or RPL_VIEW_ALL) knows. */
    void (*view)(const void *st, const struct rpl__env *env, int viewer,
                 struct rpl__buf *out);
    void (*view_json)(const void *st, const struct rpl__env *env, int viewer,
                      struct rpl__buf *out);
    /* The line just applied (st is the state after it), told for people
     * and as a JSON array of events. */
    void (*describe)(const void *st, const struct rpl__env *env,
                     const struct rpl__line *ln, int viewer,
                     struct rpl__buf *out);
    void (*events_json)(const void *st, const struct rpl__env *env,
                        const struct rpl__line *ln, struct rpl__buf *out);
    /* Who was who (complete state): text and JSON. */
    void (*reveal_text)(const void *st, const struct rpl__env *env,
                        struct rpl__buf *out);
    void (*reveal_json)(const void *st, const struct rpl__env *env,
                        struct rpl__buf *out);
};

/* The registry (engine.c): NULL for an unknown name. */
const struct rpl__game *rpl__game_find(const char *name, size_t len);

extern const struct rpl__game rpl__avalon;
extern const struct rpl__game rpl__soc;

#endif /* LIBREPLAY_INTERNAL_H */
