/*
 * crypto.c - the hashes of camelog(5): the chain, the commitment to the
 * dealer secret, the seed and the commitments to private messages, all
 * BLAKE2b-256 through libsodium; and Ed25519 detached signatures of the
 * messages a seal and a sig sign (spelled in spell.c).
 *
 * Concatenations are hashed piece by piece with crypto_generichash's
 * init/update/final, so no input is ever copied.
 */
#include <assert.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"

_Static_assert(RPL__HASH == crypto_generichash_BYTES,
               "BLAKE2b-256 is libsodium's default generichash size");
_Static_assert(sizeof(((struct rpl_seckey *)0)->sk) ==
                   crypto_sign_SECRETKEYBYTES,
               "Ed25519 secret key size");
_Static_assert(sizeof(((struct rpl_pubkey *)0)->key) ==
                   crypto_sign_PUBLICKEYBYTES,
               "Ed25519 public key size");
_Static_assert(crypto_sign_BYTES == 64, "Ed25519 signature size");

/* Starts H, keyed with 32 bytes when key is not NULL.  BLAKE2b cannot
 * fail with these sizes; libsodium returns -1 only for bad lengths. */
static void
hash_init(crypto_generichash_state *st, const uint8_t *key)
{
    const int rc = crypto_generichash_init(st, key, key ? 32 : 0, RPL__HASH);

    assert(rc == 0);
    (void)rc;
}

static void
hash_update(crypto_generichash_state *st, const void *in, size_t len)
{
    const int rc = crypto_generichash_update(st, in, len);

    assert(rc == 0);
    (void)rc;
}

static void
hash_final(crypto_generichash_state *st, uint8_t out[RPL__HASH])
{
    const int rc = crypto_generichash_final(st, out, RPL__HASH);

    assert(rc == 0);
    (void)rc;
    sodium_memzero(st, sizeof(*st));
}

void
rpl__hash(uint8_t out[RPL__HASH], const uint8_t *key, const void *in,
          size_t len)
{
    crypto_generichash_state st;

    hash_init(&st, key);
    hash_update(&st, in, len);
    hash_final(&st, out);
}

void
rpl__chain(uint8_t h[RPL__HASH], const char *line, size_t len)
{
    crypto_generichash_state st;

    hash_init(&st, NULL);
    hash_update(&st, h, RPL__HASH);
    hash_update(&st, line, len);
    hash_final(&st, h);
}

void
rpl__secret_commit(uint8_t out[RPL__HASH], const uint8_t id[16],
                   const uint8_t secret[32])
{
    static const char tag[] = "camelog secret";
    crypto_generichash_state st;

    hash_init(&st, NULL);
    hash_update(&st, tag, sizeof(tag) - 1);
    hash_update(&st, id, 16);
    hash_update(&st, secret, 32);
    hash_final(&st, out);
}

void
rpl__seed(uint8_t out[RPL__HASH], const uint8_t id[16],
          const uint8_t secret[32], const uint8_t (*entropy)[32], size_t count)
{
    static const char tag[] = "camelog seed";
    crypto_generichash_state st;

    hash_init(&st, secret);
    hash_update(&st, tag, sizeof(tag) - 1);
    hash_update(&st, id, 16);
    for (size_t i = 0; i < count; i++)
        hash_update(&st, entropy[i], 32);
    hash_final(&st, out);
}

void
rpl__seed2(uint8_t out[RPL__HASH], const uint8_t id[16],
           const uint8_t secret[32], const uint8_t (*value)[32], uint32_t seats)
{
    static const char tag[] = "camelog seed";
    crypto_generichash_state st;

    hash_init(&st, secret);
    hash_update(&st, tag, sizeof(tag) - 1);
    hash_update(&st, id, 16);
    for (size_t k = 1; k <= RPL_MAX_SEATS; k++)
        if (seats & (1u << (k - 1))) {
            const uint8_t b = (uint8_t)k;

            hash_update(&st, &b, 1);
            hash_update(&st, value[k], 32);
        }
    hash_final(&st, out);
}

void
rpl__pledge(uint8_t out[RPL__HASH], const uint8_t id[16], size_t seat,
            const uint8_t value[32])
{
    static const char tag[] = "camelog pledge";
    crypto_generichash_state st;
    const uint8_t b = (uint8_t)seat;

    hash_init(&st, NULL);
    hash_update(&st, tag, sizeof(tag) - 1);
    hash_update(&st, id, 16);
    hash_update(&st, &b, 1);
    hash_update(&st, value, 32);
    hash_final(&st, out);
}

bool
rpl__pad(char out[RPL__PAD + 1], const char *value)
{
    const size_t n = strlen(value);

    if (n > RPL__PAD || memchr(value, RPL__PAD_CHAR, n))
        return false;
    memcpy(out, value, n);
    memset(out + n, RPL__PAD_CHAR, RPL__PAD - n);
    out[RPL__PAD] = '\0';
    return true;
}

size_t
rpl__unpad_len(const char *padded)
{
    size_t n = strlen(padded);

    while (n > 0 && padded[n - 1] == RPL__PAD_CHAR)
        n--;
    return n;
}

void
rpl__commit_nonce(uint8_t out[RPL__HASH], const uint8_t nonce[32],
                  const uint8_t id[16], const char *label, const char *value,
                  size_t value_len)
{
    static const uint8_t zero = 0;
    crypto_generichash_state st;

    hash_init(&st, nonce);
    hash_update(&st, id, 16);
    hash_update(&st, label, strlen(label));
    hash_update(&st, &zero, 1);
    hash_update(&st, value, value_len);
    hash_final(&st, out);
}

void
rpl__commit(uint8_t out[RPL__HASH], uint8_t *nonce, const uint8_t seed[32],
            const uint8_t id[16], const char *label, const char *value,
            unsigned version)
{
    static const char tag[] = "nonce ";
    crypto_generichash_state st;
    uint8_t key[RPL__HASH];
    char padded[RPL__PAD + 1];

    /* nonce = H(key = seed, "nonce " || label) */
    hash_init(&st, seed);
    hash_update(&st, tag, sizeof(tag) - 1);
    hash_update(&st, label, strlen(label));
    hash_final(&st, key);

    /* c = H(key = nonce, id || label || 0x00 || value), the value padded
     * in format 2.  No game makes a value that cannot be padded (too
     * long, or holding the pad character); one is committed as it is. */
    if (version >= 2 && rpl__pad(padded, value))
        rpl__commit_nonce(out, key, id, label, padded, RPL__PAD);
    else
        rpl__commit_nonce(out, key, id, label, value, strlen(value));

    if (nonce)
        memcpy(nonce, key, RPL__HASH);
    sodium_memzero(key, sizeof(key));
    sodium_memzero(padded, sizeof(padded));
}

void
rpl__sign(const struct rpl_seckey *sk, const uint8_t *msg, size_t len,
          uint8_t sig[64])
{
    /* crypto_sign_detached() only fails on a message longer than
     * crypto_sign_MESSAGEBYTES_MAX, which no caller comes near. */
    const int rc = crypto_sign_detached(sig, NULL, msg, len, sk->sk);

    assert(rc == 0);
    (void)rc;
}

bool
rpl__verify(const struct rpl_pubkey *pk, const uint8_t *msg, size_t len,
            const uint8_t sig[64])
{
    return crypto_sign_verify_detached(sig, msg, len, pk->key) == 0;
}

void
rpl__seal_sign(const struct rpl_seckey *sk, const uint8_t head[RPL__HASH],
               uint8_t sig[64])
{
    uint8_t msg[RPL__SEAL_MSG_LEN];

    rpl__seal_message(msg, head);
    rpl__sign(sk, msg, sizeof(msg), sig);
}

bool
rpl__seal_verify(const struct rpl_pubkey *pk, const uint8_t head[RPL__HASH],
                 const uint8_t sig[64])
{
    uint8_t msg[RPL__SEAL_MSG_LEN];

    rpl__seal_message(msg, head);
    return rpl__verify(pk, msg, sizeof(msg), sig);
}

/* The sig message lives on the stack (4 KiB and a little): Ed25519 needs
 * the whole message in one piece, and a buffer here costs no allocation
 * per signature on verify's path. */
void
rpl__sig_sign(const struct rpl_seckey *sk, const uint8_t base[RPL__HASH],
              const char *line, size_t len, uint8_t sig[64])
{
    uint8_t msg[RPL__SIG_MSG_MAX];

    assert(len <= RPL_MAX_LINE);
    rpl__sign(sk, msg, rpl__sig_message(msg, base, line, len), sig);
}

bool
rpl__sig_verify(const struct rpl_pubkey *pk, const uint8_t base[RPL__HASH],
                const char *line, size_t len, const uint8_t sig[64])
{
    uint8_t msg[RPL__SIG_MSG_MAX];

    assert(len <= RPL_MAX_LINE);
    return rpl__verify(pk, msg, rpl__sig_message(msg, base, line, len), sig);
}

void
rpl__import_derive(const uint8_t *root, const char *source, const char *oid,
                   uint8_t id[16], uint8_t secret[32])
{
    static const char tag[] = "camelog import";
    static const char stag[] = "camelog import secret ";
    crypto_generichash_state h;
    uint8_t full[32];
    const uint8_t zero = 0;

    crypto_generichash_init(&h, NULL, 0, sizeof(full));
    crypto_generichash_update(&h, (const unsigned char *)tag, sizeof(tag) - 1);
    crypto_generichash_update(&h, (const unsigned char *)source,
                              strlen(source));
    crypto_generichash_update(&h, &zero, 1);
    crypto_generichash_update(&h, (const unsigned char *)oid, strlen(oid));
    crypto_generichash_final(&h, full, sizeof(full));
    memcpy(id, full, 16);
    if (root) {
        crypto_generichash_init(&h, root, 32, 32);
        crypto_generichash_update(&h, (const unsigned char *)stag,
                                  sizeof(stag) - 1);
        crypto_generichash_update(&h, (const unsigned char *)oid, strlen(oid));
        crypto_generichash_final(&h, secret, 32);
        sodium_memzero(&h, sizeof(h));
    } else {
        randombytes_buf(secret, 32);
    }
}
