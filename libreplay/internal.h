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
#include <string.h>

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
    /* The last public key text that parsed, and what it gave: logs of
     * one dealer name the same key, whose base64 need not be decoded,
     * checked for its one spelling and re-encoded each time. */
    char last_key_b64[RPL_PUBKEY_B64_LEN];
    struct rpl_pubkey last_key;
    bool has_last_key;
    /* A deflate stream kept for rpl__gz_pack() (gz.c), NULL until then:
     * its 256 KiB of tables cost more to set up than a log to compress.
     * gz.c sets the function that frees it, so that ctx.c needs no
     * symbol of gz.c. */
    void *deflater;
    void (*deflater_free)(struct rpl_ctx *ctx);
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

static inline uint64_t
rpl__load_le64(const uint8_t *p)
{
    return (uint64_t)rpl__load_le32(p) | (uint64_t)rpl__load_le32(p + 4) << 32;
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
/* A warning sink that drops every warning (struct rpl__env's warn), for
 * the walks that replay a log already verified. */
void rpl__no_warning(void *w, size_t line, const char *msg);

/* Hands the text to the caller (freed with rpl_free); RPL_E_NOMEM when an
 * append failed.  The buffer is empty afterwards. */
enum rpl_status rpl__buf_take(struct rpl__buf *b, char **out,
                              struct rpl_error *err);

/* --------------------------------------------------------------- text */

/* The next word of a comma-separated list: true with
 * *word and *len set and *list moved past it (NULL after the last word);
 * false once *list is NULL.  Every word counts, empty ones too ("a,,b"
 * has three, "" one), so callers start with NULL for an empty list. */
bool rpl__list_next(const char **list, const char **word, size_t *len);

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

/* Whether t is the word s.  Inline: nearly every caller names a
 * literal, whose length the compiler then knows. */
static inline bool
rpl__tok_is(const struct rpl__tok *t, const char *s)
{
    const size_t n = strlen(s);

    return t->n == n && memcmp(t->p, s, n) == 0;
}
/* Whether the n bytes at p are the whole of the string s, compared byte
 * by byte: the lookups in tables of names call no strlen per name. */
static inline bool
rpl__word_is(const char *s, const char *p, size_t n)
{
    size_t i = 0;

    while (i < n && s[i] != '\0' && s[i] == p[i])
        i++;
    return i == n && s[i] == '\0';
}
/* The index of the word t among names[0..n), -1 when it is none: the
 * keyword lookup of every game line, the first byte tested first. */
int rpl__tok_find(const struct rpl__tok *t, const char *const *names, size_t n);
/* "pK" with 1 <= K <= seats, no leading zero. */
bool rpl__tok_seat(const struct rpl__tok *t, size_t seats, size_t *seat);
/* The seat named by the last pK token of a commitment label ("deal p3"),
 * 0 when none: whom the dealer tells a secret about a line no seat
 * authored (the recorder, and a seat checking where a delivery goes). */
size_t rpl__label_seat(const char *label, size_t seats);
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
/* Whether code point cp may not be in a name: a control, format or
 * invisible character (camelog(5) Seat names; rpl_text_escape() escapes
 * them). */
bool rpl__cp_is_hidden(uint32_t cp);
/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
size_t rpl__utf8_len(const char *s, size_t n);
/* Whether s[0..n) is valid UTF-8 with no such code point; else *bad is
 * the first (UINT32_MAX for invalid UTF-8). */
bool rpl__name_ok(const char *s, size_t n, uint32_t *bad);

/* Lowercase hex of in[0..n) and a NUL into out (2n + 1 bytes). */
void rpl__hex(char *out, const uint8_t *in, size_t n);
/* snprintf() for the formats of labels and views on the verify path,
 * without its cost: only %s, %u and %zu (and no flag, width or %%);
 * returns the length it would have written, like snprintf(). */
size_t rpl__fmt(char *out, size_t cap, const char *fmt, ...) RPL__PRINTF(3, 4);
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
/* Format 2 (camelog(5) "Entropy"): seed = H(key = S, "camelog seed" ||
 * id || for each seat K in seats (bit K-1), ascending: byte K || value[K]);
 * a pledge = H("camelog pledge" || id || byte K || value). */
void rpl__seed2(uint8_t out[RPL__HASH], const uint8_t id[16],
                const uint8_t secret[32], const uint8_t (*value)[32],
                uint32_t seats);
void rpl__pledge(uint8_t out[RPL__HASH], const uint8_t id[16], size_t seat,
                 const uint8_t value[32]);
/* seed = H(key = S, "camelog seed" || id || entropy[0] || ...). */
void rpl__seed(uint8_t out[RPL__HASH], const uint8_t id[16],
               const uint8_t secret[32], const uint8_t (*entropy)[32],
               size_t count);
/* c = H(key = nonce, id || label || 0x00 || value), nonce = H(key = seed,
 * "nonce " || label).  nonce may be NULL. */
void rpl__commit(uint8_t out[RPL__HASH], uint8_t *nonce, const uint8_t seed[32],
                 const uint8_t id[16], const char *label, const char *value,
                 unsigned version);

/* Format 2 pads every committed or delivered value to RPL__PAD bytes
 * with '.' (camelog(5), "Padding"), so that its length tells nothing. */
#define RPL__PAD      191u
#define RPL__PAD_CHAR '.'
/* out (RPL__PAD + 1 bytes) = value padded, NUL-terminated; false when
 * value is longer than RPL__PAD or holds the pad character. */
bool rpl__pad(char out[RPL__PAD + 1], const char *value);
/* The length of a padded value without its padding: the value itself. */
size_t rpl__unpad_len(const char *padded);
/* c = H(key = nonce, id || label || 0x00 || value), value as given. */
void rpl__commit_nonce(uint8_t out[RPL__HASH], const uint8_t nonce[32],
                       const uint8_t id[16], const char *label,
                       const char *value, size_t value_len);

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
/* The key id as minisign prints it (uppercase hex of the 8 bytes read as
 * a little-endian number, as in the comment of a .pub file) and a NUL. */
void rpl__key_id_text(char out[17], const uint8_t id[8]);
enum rpl_status rpl__pubkey_parse(struct rpl_ctx *ctx, struct rpl_pubkey *pk,
                                  const char *b64, size_t len,
                                  struct rpl_error *err);

/* Ed25519 over msg. */
void rpl__sign(const struct rpl_seckey *sk, const uint8_t *msg, size_t len,
               uint8_t sig[64]);
bool rpl__verify(const struct rpl_pubkey *pk, const uint8_t *msg, size_t len,
                 const uint8_t sig[64]);

/* A seal signs the seal message of head, head the chain value of every
 * line before the seal line; a sig signs the sig message of base and
 * line (line without LF, at most RPL_MAX_LINE bytes), base the chain
 * value the signed line counts from (camelog(5), "Byte-exact
 * definitions"; spell.c builds both).  None allocates. */
void rpl__seal_sign(const struct rpl_seckey *sk, const uint8_t head[RPL__HASH],
                    uint8_t sig[64]);
bool rpl__seal_verify(const struct rpl_pubkey *pk,
                      const uint8_t head[RPL__HASH], const uint8_t sig[64]);
void rpl__sig_sign(const struct rpl_seckey *sk, const uint8_t base[RPL__HASH],
                   const char *line, size_t len, uint8_t sig[64]);
bool rpl__sig_verify(const struct rpl_pubkey *pk, const uint8_t base[RPL__HASH],
                     const char *line, size_t len, const uint8_t sig[64]);

/* ------------------------------------------------------------- spell.c */

/* The messages a seal and a sig sign (camelog(5), "Byte-exact
 * definitions"): the domain, then head, or base and the line (at most
 * RPL_MAX_LINE bytes).  The sig message's length is returned. */
#define RPL__SEAL_MSG_LEN (15 + RPL__HASH)
#define RPL__SIG_MSG_MAX  (14 + RPL__HASH + RPL_MAX_LINE)
void rpl__seal_message(uint8_t out[RPL__SEAL_MSG_LEN],
                       const uint8_t head[RPL__HASH]);
size_t rpl__sig_message(uint8_t out[RPL__SIG_MSG_MAX],
                        const uint8_t base[RPL__HASH], const char *line,
                        size_t len);

/* The lines of a value, written as snprintf() writes (the length of the
 * whole line is returned; cap RPL_ENTROPY_LINE_MAX, or RPL_SIG_LINE_MAX
 * for a sig or a seal, always suffices): "entropy pK <hex>", "pledge pK
 * <hex>", "pledged pI,pJ" (the seats of the mask, K as bit K-1),
 * "abandoned pK", "sig pK <base64>", "seal <base64>", "reveal <hex>". */
#define RPL__SIG_B64 89
size_t rpl__entropy_line(char *out, size_t cap, size_t seat,
                         const uint8_t v[32]);
size_t rpl__pledge_line(char *out, size_t cap, size_t seat,
                        const uint8_t pledge[32]);
size_t rpl__pledged_line(char *out, size_t cap, uint32_t seats);
size_t rpl__abandoned_line(char *out, size_t cap, size_t seat);
size_t rpl__sig_line(char *out, size_t cap, size_t seat, const uint8_t sig[64]);
size_t rpl__seal_line(char *out, size_t cap, const uint8_t sig[64]);
size_t rpl__reveal_line(char *out, size_t cap, const uint8_t secret[32]);

/* Whether d can be a delivery: a line, a label of 1..63 bytes and a value
 * of at most 191, both UTF-8 without control characters. */
bool rpl__delivery_ok(const struct rpl_delivery *d);
/* Appends the JSON form of d (rpl_delivery_format_json()), or null when
 * d is not a delivery. */
void rpl__delivery_json(struct rpl__buf *b, const struct rpl_delivery *d);

/* The game id of an imported record and its dealer secret: the id is
 * the first 16 bytes of BLAKE2b-256("camelog import" || source || 0x00
 * || oid); the secret is BLAKE2b-256(key = root, "camelog import secret
 * " || oid) with root (32 bytes), else random. */
void rpl__import_derive(const uint8_t *root, const char *source,
                        const char *oid, uint8_t id[16], uint8_t secret[32]);

/* --------------------------------------------------------- files, gzip */

/* Reads a whole file ("-" = stdin) of at most max bytes.  A named file
 * must be a regular file: a FIFO, device or socket is refused (RPL_E_IO)
 * without blocking; stdin may be anything. */
enum rpl_status rpl__file_read(struct rpl_ctx *ctx, const char *path,
                               size_t max, uint8_t **out, size_t *len,
                               struct rpl_error *err);
/* What a st_mode names, for messages: "a FIFO", "a directory", ... */
const char *rpl__file_kind(unsigned mode);
/* Temporary file in the same directory, fsync, rename (and fsync of the
 * directory); "-" writes stdout.  Nothing is left behind on failure. */
enum rpl_status rpl__file_write_atomic(const char *path, const void *data,
                                       size_t len, unsigned mode, bool force,
                                       struct rpl_error *err);
/* The same, the directory synced only when is_dir_synced (else the
 * caller syncs it once after a batch, rpl_dir_sync()). */
enum rpl_status rpl__file_write(const char *path, const void *data, size_t len,
                                unsigned mode, bool force, bool is_dir_synced,
                                struct rpl_error *err);
/* Exactly one gzip member, nothing after it, at most RPL_MAX_TEXT bytes
 * out; out is NUL-terminated (not counted in out_len). */
enum rpl_status rpl__gz_inflate(struct rpl_ctx *ctx, const uint8_t *in,
                                size_t in_len, char **out, size_t *out_len,
                                struct rpl_error *err);
/* Whether a gzip member's header is the one camelog writes (camelog(5)
 * "Container"): no flag set (no name, comment, extra field or header CRC)
 * and MTIME 0; XFL and OS may be anything. */
bool rpl__gz_is_canonical(const uint8_t *in, size_t in_len);
/* One gzip member, MTIME 0, no name, comment or extra field. */
enum rpl_status rpl__gz_deflate(struct rpl_ctx *ctx, const char *text,
                                size_t len, uint8_t **out, size_t *out_len,
                                struct rpl_error *err);
/* The same bytes, *out allocated from ctx, with the deflate stream kept
 * in keep (a context of the calling thread, maybe ctx) from one call to
 * the next; keep NULL is rpl__gz_deflate(). */
enum rpl_status rpl__gz_pack(struct rpl_ctx *ctx, struct rpl_ctx *keep,
                             const char *text, size_t len, uint8_t **out,
                             size_t *out_len, struct rpl_error *err);

#endif /* LIBREPLAY_INTERNAL_H */
