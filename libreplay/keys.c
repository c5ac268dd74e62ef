/*
 * keys.c - Ed25519 key pairs in minisign's formats, so that `minisign -G
 * -W` keys work with camelog and camelog's keys work with minisign.
 *
 * A key file is two lines: "untrusted comment: <text>" and the base64
 * (standard alphabet, padded) of a fixed structure.  Public key, 42 bytes:
 *
 *   "Ed" | key id (8) | Ed25519 public key (32)
 *
 * Secret key, 158 bytes (unencrypted: kdf_alg is two zero bytes):
 *
 *   "Ed" | kdf_alg (2) | "B2" | kdf salt (32) | opslimit (8, LE) |
 *   memlimit (8, LE) | key id (8) | Ed25519 secret key (64) | checksum (32)
 *
 * checksum = BLAKE2b-256("Ed" || key id || secret key).  minisign leaves
 * it zero in the keys it writes unencrypted, so zero is accepted too; a
 * loaded key is checked against its seed either way.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "internal.h"

#define PK_BYTES   42u
#define SK_BYTES   158u
#define SK_B64_LEN 212u /* 4 * ceil(158 / 3) */

/* Offsets into the secret key structure. */
#define SK_OFF_KDF     2u
#define SK_OFF_CHKALG  4u
#define SK_OFF_ID      54u
#define SK_OFF_SK      62u
#define SK_OFF_CHK     126u

#define COMMENT_PREFIX "untrusted comment: "

_Static_assert(2 + 2 + 2 + 32 + 8 + 8 + 8 + 64 + 32 == SK_BYTES,
               "minisign secret key layout");
_Static_assert(SK_OFF_CHK + 32 == SK_BYTES, "checksum last");
_Static_assert(2 + 8 + 32 == PK_BYTES, "minisign public key layout");
_Static_assert(RPL_PUBKEY_B64_LEN + 1 ==
                   sodium_base64_ENCODED_LEN(PK_BYTES,
                                             sodium_base64_VARIANT_ORIGINAL),
               "public key base64 length");
_Static_assert(SK_B64_LEN + 1 ==
                   sodium_base64_ENCODED_LEN(SK_BYTES,
                                             sodium_base64_VARIANT_ORIGINAL),
               "secret key base64 length");

/* ------------------------------------------------------------ helpers */

/* Public text this long or shorter is re-encoded on the stack: a public
 * key (56 characters) is checked once a verified log, and sodium_malloc()
 * costs an mmap, an mlock and four mprotect calls (a tenth of verify's
 * time went there). */
#define B64_PUBLIC_MAX 64

/* Decodes exactly n bytes from canonical padded base64 (re-encoding must
 * give back the same characters).  The re-encoded copy of a secret (is
 * secret) lives in guarded memory. */
static bool
b64_decode(uint8_t *out, size_t n, const char *b64, size_t len, bool is_secret)
{
    char *again;
    char small[B64_PUBLIC_MAX + 1];
    size_t got = 0;
    bool ok = false;

    if (len != sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL) - 1)
        return false;
    if (sodium_base642bin(out, n, b64, len, NULL, &got, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        got != n)
        goto out;
    if (!is_secret && len <= B64_PUBLIC_MAX) {
        sodium_bin2base64(small, len + 1, out, n,
                          sodium_base64_VARIANT_ORIGINAL);
        ok = memcmp(small, b64, len) == 0;
        goto out;
    }
    again = sodium_malloc(len + 1);
    if (!again)
        goto out;
    sodium_bin2base64(again, len + 1, out, n, sodium_base64_VARIANT_ORIGINAL);
    ok = memcmp(again, b64, len) == 0;
    sodium_free(again);
out:
    if (!ok)
        sodium_memzero(out, n);
    return ok;
}

/* minisign's checksum of an unencrypted secret key. */
static void
sk_checksum(uint8_t out[32], const uint8_t id[8], const uint8_t sk[64])
{
    crypto_generichash_state st;

    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, (const uint8_t *)"Ed", 2);
    crypto_generichash_update(&st, id, 8);
    crypto_generichash_update(&st, sk, 64);
    crypto_generichash_final(&st, out, 32);
    sodium_memzero(&st, sizeof(st));
}

/* Whether a key file's second line is a public key (minisign's 42-byte
 * structure, "Ed" first). */
static bool
is_pubkey_b64(const char *b64, size_t len)
{
    uint8_t raw[PK_BYTES];

    return len == RPL_PUBKEY_B64_LEN &&
           b64_decode(raw, sizeof(raw), b64, len, false) &&
           memcmp(raw, "Ed", 2) == 0;
}

/* A fresh struct rpl_seckey, filled and made read-only. */
static enum rpl_status
seckey_make(struct rpl_seckey **out, const uint8_t id[8], const uint8_t sk[64],
            struct rpl_error *err)
{
    struct rpl_seckey *k = sodium_malloc(sizeof(*k));

    if (!k)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    memcpy(k->id, id, sizeof(k->id));
    memcpy(k->sk, sk, sizeof(k->sk));
    /* libsodium built without page protection (WebAssembly has one
     * linear memory and no pages to protect; make wasm) fails with
     * ENOSYS: the key then stays writable, and is still wiped when
     * freed. */
    if (sodium_mprotect_readonly(k) != 0 && errno != ENOSYS) {
        sodium_free(k);
        return rpl__err(err, RPL_E_CRYPTO, 0,
                        "cannot protect the secret key memory");
    }
    *out = k;
    return RPL_OK;
}

/* The lines of a key file: line 1 begins with "untrusted comment: ",
 * line 2 is returned, nothing follows.  CRLF is accepted, and a missing
 * LF at the end. */
static enum rpl_status
key_lines(const char *buf, size_t len, const char **b64, size_t *b64_len,
          struct rpl_error *err)
{
    static const char prefix[] = COMMENT_PREFIX;
    const char *nl = memchr(buf, '\n', len);
    const char *p, *end;
    size_t left;

    if (len < sizeof(prefix) - 1 ||
        memcmp(buf, prefix, sizeof(prefix) - 1) != 0)
        return rpl__err(err, RPL_E_KEY, 1,
                        "expected a line starting with \"%s\"", prefix);
    if (!nl || (size_t)(nl - buf) + 1 == len)
        return rpl__err(err, RPL_E_KEY, 2,
                        "expected the base64 key, got the end of the file");
    p = nl + 1;
    left = len - (size_t)(p - buf);
    nl = memchr(p, '\n', left);
    end = nl ? nl : p + left;
    if (end > p && end[-1] == '\r')
        end--;
    if (end == p)
        return rpl__err(err, RPL_E_KEY, 2,
                        "expected the base64 key, got an empty line");
    if (nl && (size_t)(nl - buf) + 1 != len)
        return rpl__err(err, RPL_E_KEY, 3,
                        "expected the end of the file after the key");
    *b64 = p;
    *b64_len = (size_t)(end - p);
    return RPL_OK;
}

/* The key id as minisign prints it: the 8 bytes as a little-endian
 * number, 16 uppercase hex digits. */
static uint64_t
id_number(const uint8_t id[8])
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--)
        v = v << 8 | id[i];
    return v;
}

void
rpl__key_id_text(char out[17], const uint8_t id[8])
{
    snprintf(out, 17, "%" PRIX64, id_number(id));
}

/* ---------------------------------------------------------- secret keys */

enum rpl_status
rpl_seckey_generate(struct rpl_ctx *ctx, struct rpl_seckey **out,
                    struct rpl_error *err)
{
    enum rpl_status rc;
    uint8_t *sk = NULL;
    uint8_t id[8], pk[32];

    (void)ctx;
    rpl__err_clear(err);
    *out = NULL;
    sk = sodium_malloc(64);
    if (!sk) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    randombytes_buf(id, sizeof(id));
    if (crypto_sign_keypair(pk, sk) != 0) {
        rc = rpl__err(err, RPL_E_CRYPTO, 0, "crypto_sign_keypair failed");
        goto out;
    }
    rc = seckey_make(out, id, sk, err);
out:
    sodium_free(sk);
    return rc;
}

enum rpl_status
rpl_seckey_from_seed(struct rpl_ctx *ctx, struct rpl_seckey **out,
                     const uint8_t seed[32], struct rpl_error *err)
{
    static const char tag[] = "camelog key id";
    enum rpl_status rc;
    crypto_generichash_state st;
    uint8_t *sk = NULL;
    uint8_t pk[32], h[32];

    (void)ctx;
    rpl__err_clear(err);
    *out = NULL;
    sk = sodium_malloc(64);
    if (!sk) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    if (crypto_sign_seed_keypair(pk, sk, seed) != 0) {
        rc = rpl__err(err, RPL_E_CRYPTO, 0, "crypto_sign_seed_keypair failed");
        goto out;
    }
    /* id = the first 8 bytes of H("camelog key id" || pk) */
    crypto_generichash_init(&st, NULL, 0, sizeof(h));
    crypto_generichash_update(&st, (const uint8_t *)tag, sizeof(tag) - 1);
    crypto_generichash_update(&st, pk, sizeof(pk));
    crypto_generichash_final(&st, h, sizeof(h));
    rc = seckey_make(out, h, sk, err);
out:
    sodium_free(sk);
    return rc;
}

/* Checks that a named key is a regular file (a FIFO would block the
 * read for ever) and its permission bits (open to the owner only). */
static enum rpl_status
check_mode(const char *path, struct rpl_error *err)
{
    struct stat st;
    unsigned mode;
    const char *what;
    char ebuf[128];

    if (strcmp(path, "-") == 0) {
        if (fstat(STDIN_FILENO, &st) != 0 || !S_ISREG(st.st_mode))
            return RPL_OK;
    } else if (stat(path, &st) != 0) {
        if (strerror_r(errno, ebuf, sizeof(ebuf)) != 0)
            snprintf(ebuf, sizeof(ebuf), "error %d", errno);
        return rpl__err(err, RPL_E_IO, 0, "cannot open for reading: %s", ebuf);
    } else if (!S_ISREG(st.st_mode)) {
        return rpl__err(err, RPL_E_IO, 0, "not a regular file (%s)",
                        rpl__file_kind((unsigned)st.st_mode));
    }
    mode = (unsigned)st.st_mode & 07777u;
    if ((mode & 077u) == 0)
        return RPL_OK;
    what = mode & 044u ? "readable" : mode & 022u ? "writable" : "accessible";
    return rpl__err(err, RPL_E_PERM, 0,
                    "%s is %s by others (mode %04o); chmod 600 %s", path, what,
                    mode, path);
}

enum rpl_status
rpl_seckey_load(struct rpl_ctx *ctx, struct rpl_seckey **out, const char *path,
                struct rpl_error *err)
{
    enum rpl_status rc, mode_rc;
    struct rpl_error mode_err;
    uint8_t *file = NULL, *raw = NULL, *derived = NULL;
    size_t file_len = 0, b64_len;
    const char *b64;
    uint8_t *chk, *seed;
    uint8_t pk[32];
    bool zero_chk;

    rpl__err_clear(err);
    *out = NULL;
    rpl__err_clear(&mode_err);
    mode_rc = check_mode(path, &mode_err);
    if (mode_rc != RPL_OK && mode_rc != RPL_E_PERM) {
        rc = mode_rc;
        if (err)
            *err = mode_err;
        goto out;
    }
    rc = rpl__file_read(ctx, path, RPL_MAX_KEYFILE, &file, &file_len, err);
    if (rc != RPL_OK)
        goto out;
    rc = key_lines((const char *)file, file_len, &b64, &b64_len, NULL);
    /* A public key given for the secret one (its mode 0644 is right for
     * it): say so rather than advise chmod. */
    if (rc == RPL_OK && is_pubkey_b64(b64, b64_len)) {
        rc = rpl__err(err, RPL_E_KEY, 0,
                      "a public key, not a secret key (give the .key file)");
        goto out;
    }
    if (mode_rc != RPL_OK) {
        rc = mode_rc;
        if (err)
            *err = mode_err;
        goto out;
    }
    rc = key_lines((const char *)file, file_len, &b64, &b64_len, err);
    if (rc != RPL_OK)
        goto out;

    /* raw: the structure; derived: secret key (64), checksum (32) and
     * seed (32) recomputed from it. */
    raw = sodium_malloc(SK_BYTES);
    derived = sodium_malloc(64 + 32 + 32);
    if (!raw || !derived) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    chk = derived + 64;
    seed = derived + 96;
    if (!b64_decode(raw, SK_BYTES, b64, b64_len, true)) {
        rc = rpl__err(err, RPL_E_KEY, 2,
                      "expected %u characters of canonical base64 (a "
                      "minisign secret key)",
                      SK_B64_LEN);
        goto out;
    }
    if (memcmp(raw, "Ed", 2) != 0) {
        rc = rpl__err(err, RPL_E_KEY, 2,
                      "unsupported signature algorithm (expected Ed)");
        goto out;
    }
    if (memcmp(raw + SK_OFF_KDF, "Sc", 2) == 0) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 2,
                      "encrypted secret keys are not supported; create one "
                      "with minisign -G -W or camelog keygen");
        goto out;
    }
    if (raw[SK_OFF_KDF] != 0 || raw[SK_OFF_KDF + 1] != 0) {
        rc = rpl__err(err, RPL_E_KEY, 2, "unknown key derivation function");
        goto out;
    }
    if (memcmp(raw + SK_OFF_CHKALG, "B2", 2) != 0) {
        rc = rpl__err(err, RPL_E_KEY, 2,
                      "unsupported checksum function (expected B2)");
        goto out;
    }
    sk_checksum(chk, raw + SK_OFF_ID, raw + SK_OFF_SK);
    zero_chk = sodium_is_zero(raw + SK_OFF_CHK, 32) == 1;
    if (!zero_chk && sodium_memcmp(chk, raw + SK_OFF_CHK, 32) != 0) {
        rc = rpl__err(err, RPL_E_KEY, 2, "secret key checksum does not match");
        goto out;
    }
    /* The key pair must follow from its seed (with a zero checksum this
     * is the only integrity check). */
    crypto_sign_ed25519_sk_to_seed(seed, raw + SK_OFF_SK);
    if (crypto_sign_seed_keypair(pk, derived, seed) != 0 ||
        sodium_memcmp(derived, raw + SK_OFF_SK, 64) != 0) {
        rc = rpl__err(err, RPL_E_KEY, 2,
                      "secret key is damaged (its public half does not "
                      "match its seed)");
        goto out;
    }
    rc = seckey_make(out, raw + SK_OFF_ID, raw + SK_OFF_SK, err);
out:
    if (file) {
        sodium_memzero(file, file_len);
        rpl__free(ctx, file);
    }
    sodium_free(raw);
    sodium_free(derived);
    return rc;
}

enum rpl_status
rpl_seckey_save(const struct rpl_seckey *sk, const char *path, bool force,
                struct rpl_error *err)
{
    static const char head[] = COMMENT_PREFIX "camelog secret key\n";
    enum rpl_status rc;
    uint8_t *raw = NULL;
    char *text = NULL;
    const size_t text_len = sizeof(head) - 1 + SK_B64_LEN + 1;

    rpl__err_clear(err);
    /* These calls take no context: libsodium may not be set up yet. */
    if (sodium_init() < 0)
        return rpl__err(err, RPL_E_CRYPTO, 0, "sodium_init failed");
    raw = sodium_malloc(SK_BYTES);
    text = sodium_malloc(text_len + 1);
    if (!raw || !text) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    /* kdf salt, opslimit and memlimit are unused without a KDF: zero */
    memset(raw, 0, SK_BYTES);
    memcpy(raw, "Ed", 2);
    memcpy(raw + SK_OFF_CHKALG, "B2", 2);
    memcpy(raw + SK_OFF_ID, sk->id, 8);
    memcpy(raw + SK_OFF_SK, sk->sk, 64);
    sk_checksum(raw + SK_OFF_CHK, sk->id, sk->sk);

    memcpy(text, head, sizeof(head) - 1);
    sodium_bin2base64(text + sizeof(head) - 1, SK_B64_LEN + 1, raw, SK_BYTES,
                      sodium_base64_VARIANT_ORIGINAL);
    text[text_len - 1] = '\n';
    text[text_len] = '\0';
    rc = rpl__file_write_atomic(path, text, text_len, 0600, force, err);
out:
    sodium_free(raw);
    sodium_free(text);
    return rc;
}

void
rpl_seckey_pubkey(const struct rpl_seckey *sk, struct rpl_pubkey *pk)
{
    memcpy(pk->id, sk->id, sizeof(pk->id));
    /* libsodium's Ed25519 secret key is seed || public key */
    memcpy(pk->key, sk->sk + 32, sizeof(pk->key));
}

void
rpl_seckey_free(struct rpl_seckey *sk)
{
    /* sodium_free() makes the pages writable, wipes and unmaps them */
    sodium_free(sk);
}

/* ---------------------------------------------------------- public keys */

/* Whether point is a valid Ed25519 public key, remembered in the
 * context when there is one. */
static bool
is_valid_point(struct rpl_ctx *ctx, const uint8_t point[32])
{
    size_t n;

    if (!ctx)
        return crypto_core_ed25519_is_valid_point(point) == 1;
    n = ctx->npoints < RPL__POINT_CACHE ? ctx->npoints : RPL__POINT_CACHE;
    for (size_t i = 0; i < n; i++)
        if (memcmp(ctx->valid_point[i], point, 32) == 0)
            return true;
    if (crypto_core_ed25519_is_valid_point(point) != 1)
        return false;
    memcpy(ctx->valid_point[ctx->npoints % RPL__POINT_CACHE], point, 32);
    ctx->npoints++;
    return true;
}

void
rpl_ctx_learn(struct rpl_ctx *dst, const struct rpl_ctx *src)
{
    const size_t n =
        src->npoints < RPL__POINT_CACHE ? src->npoints : RPL__POINT_CACHE;

    /* Oldest first, so that dst's ring keeps src's newest points. */
    for (size_t k = 0; k < n; k++) {
        const uint8_t *const point =
            src->valid_point[(src->npoints - n + k) % RPL__POINT_CACHE];
        const size_t m =
            dst->npoints < RPL__POINT_CACHE ? dst->npoints : RPL__POINT_CACHE;
        bool is_known = false;

        for (size_t i = 0; i < m && !is_known; i++)
            is_known = memcmp(dst->valid_point[i], point, 32) == 0;
        if (!is_known) {
            memcpy(dst->valid_point[dst->npoints % RPL__POINT_CACHE], point,
                   32);
            dst->npoints++;
        }
    }
    if (src->has_last_key) {
        memcpy(dst->last_key_b64, src->last_key_b64, sizeof(dst->last_key_b64));
        dst->last_key = src->last_key;
        dst->has_last_key = true;
    }
}

/* Parses the base64 form; errors name line `line`. */
static enum rpl_status
pubkey_parse(struct rpl_ctx *ctx, struct rpl_pubkey *pk, const char *b64,
             size_t len, size_t line, struct rpl_error *err)
{
    uint8_t raw[PK_BYTES];

    if (len != RPL_PUBKEY_B64_LEN)
        return rpl__err(err, RPL_E_KEY, line,
                        "expected a public key of %u base64 characters, got "
                        "%zu",
                        RPL_PUBKEY_B64_LEN, len);
    /* The same text parses to the same key: every check below passed
     * for it already. */
    if (ctx && ctx->has_last_key && memcmp(ctx->last_key_b64, b64, len) == 0) {
        *pk = ctx->last_key;
        return RPL_OK;
    }
    if (!b64_decode(raw, sizeof(raw), b64, len, false))
        return rpl__err(err, RPL_E_KEY, line,
                        "public key is not canonical base64");
    if (memcmp(raw, "Ed", 2) != 0)
        return rpl__err(err, RPL_E_KEY, line,
                        "unsupported public key algorithm (expected Ed)");
    if (!is_valid_point(ctx, raw + 10))
        return rpl__err(err, RPL_E_KEY, line,
                        "public key is not a valid Ed25519 point");
    memcpy(pk->id, raw + 2, sizeof(pk->id));
    memcpy(pk->key, raw + 10, sizeof(pk->key));
    if (ctx) {
        memcpy(ctx->last_key_b64, b64, len);
        ctx->last_key = *pk;
        ctx->has_last_key = true;
    }
    return RPL_OK;
}

enum rpl_status
rpl_pubkey_parse(struct rpl_pubkey *pk, const char *b64, size_t len,
                 struct rpl_error *err)
{
    rpl__err_clear(err);
    /* These calls take no context: libsodium may not be set up yet. */
    if (sodium_init() < 0)
        return rpl__err(err, RPL_E_CRYPTO, 0, "sodium_init failed");
    return pubkey_parse(NULL, pk, b64, len, 0, err);
}

enum rpl_status
rpl__pubkey_parse(struct rpl_ctx *ctx, struct rpl_pubkey *pk, const char *b64,
                  size_t len, struct rpl_error *err)
{
    return pubkey_parse(ctx, pk, b64, len, 0, err);
}

void
rpl_pubkey_format(const struct rpl_pubkey *pk, char out[RPL_PUBKEY_B64_LEN + 1])
{
    uint8_t raw[PK_BYTES];

    memcpy(raw, "Ed", 2);
    memcpy(raw + 2, pk->id, sizeof(pk->id));
    memcpy(raw + 10, pk->key, sizeof(pk->key));
    sodium_bin2base64(out, RPL_PUBKEY_B64_LEN + 1, raw, sizeof(raw),
                      sodium_base64_VARIANT_ORIGINAL);
}

enum rpl_status
rpl_pubkey_load(struct rpl_pubkey *pk, const char *path, struct rpl_error *err)
{
    enum rpl_status rc;
    struct rpl_ctx *ctx = NULL;
    uint8_t *file = NULL;
    size_t file_len, b64_len;
    const char *b64;

    rpl__err_clear(err);
    /* These calls take no context: libsodium may not be set up yet. */
    if (sodium_init() < 0)
        return rpl__err(err, RPL_E_CRYPTO, 0, "sodium_init failed");
    /* The API lends no context here: a private one reads the file. */
    rc = rpl_ctx_new(&ctx, NULL, err);
    if (rc != RPL_OK)
        goto out;
    rc = rpl__file_read(ctx, path, RPL_MAX_KEYFILE, &file, &file_len, err);
    if (rc != RPL_OK)
        goto out;
    rc = key_lines((const char *)file, file_len, &b64, &b64_len, err);
    if (rc != RPL_OK)
        goto out;
    rc = pubkey_parse(NULL, pk, b64, b64_len, 2, err);
out:
    if (ctx)
        rpl__free(ctx, file);
    rpl_ctx_free(ctx);
    return rc;
}

enum rpl_status
rpl_pubkey_save(const struct rpl_pubkey *pk, const char *path, bool force,
                struct rpl_error *err)
{
    /* "untrusted comment: minisign public key " and the key id as
     * minisign prints it (uppercase hex without leading zeros: %PRIX64),
     * LF, base64, LF */
    char text[sizeof(COMMENT_PREFIX) + 32 + 16 + 1 + RPL_PUBKEY_B64_LEN + 2];
    int n;

    rpl__err_clear(err);
    /* These calls take no context: libsodium may not be set up yet. */
    if (sodium_init() < 0)
        return rpl__err(err, RPL_E_CRYPTO, 0, "sodium_init failed");
    n = snprintf(text, sizeof(text),
                 COMMENT_PREFIX "minisign public key %" PRIX64 "\n",
                 id_number(pk->id));
    if (n < 0 || (size_t)n + RPL_PUBKEY_B64_LEN + 2 > sizeof(text))
        return rpl__err(err, RPL_E_ARG, 0, "public key comment too long");
    rpl_pubkey_format(pk, text + n);
    text[n + RPL_PUBKEY_B64_LEN] = '\n';
    return rpl__file_write_atomic(
        path, text, (size_t)n + RPL_PUBKEY_B64_LEN + 1, 0644, force, err);
}
