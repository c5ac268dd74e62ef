/*
 * rng.c - the deterministic streams of camelog(5): the keystream of
 * libsodium's randombytes_buf_deterministic() (ChaCha20-IETF, nonce
 * "LibsodiumDRG", block counter from 0), produced lazily one 64-byte
 * block at a time so a stream may be read as far as needed; unbiased
 * integers by rejection and Fisher-Yates shuffles on top of it.
 */
#include <assert.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"

#define BLOCK 64u

_Static_assert(sizeof(((struct rpl__stream *)0)->block) == BLOCK,
               "one ChaCha20 block");
_Static_assert(crypto_stream_chacha20_ietf_KEYBYTES == 32, "key size");
_Static_assert(crypto_stream_chacha20_ietf_NONCEBYTES == 12, "nonce size");

/* randombytes_buf_deterministic()'s fixed nonce (12 bytes, no NUL). */
static const uint8_t drg_nonce[12] = {'L', 'i', 'b', 's', 'o', 'd',
                                      'i', 'u', 'm', 'D', 'R', 'G'};

/* Fills the block with keystream block s->counter and advances. */
static void
next_block(struct rpl__stream *s)
{
    int rc;

    /* 2^32 blocks (256 GiB) would wrap the counter; no game reads more
     * than a few KiB of one stream. */
    assert(s->counter != UINT32_MAX);
    memset(s->block, 0, BLOCK);
    rc = crypto_stream_chacha20_ietf_xor_ic(s->block, s->block, BLOCK,
                                            drg_nonce, s->counter, s->key);
    assert(rc == 0);
    (void)rc;
    s->counter++;
    s->used = 0;
}

void
rpl__stream_init_key(struct rpl__stream *s, const uint8_t key[32])
{
    memcpy(s->key, key, sizeof(s->key));
    memset(s->block, 0, sizeof(s->block));
    s->counter = 0;
    s->used = BLOCK; /* the first read makes block 0 */
}

void
rpl__stream_init(struct rpl__stream *s, const uint8_t seed[32],
                 const char *name)
{
    static const char tag[] = "stream ";
    crypto_generichash_state st;
    uint8_t key[32];
    int rc;

    /* key = H(key = seed, "stream " || name) */
    rc = crypto_generichash_init(&st, seed, 32, sizeof(key));
    rc |= crypto_generichash_update(&st, (const uint8_t *)tag, sizeof(tag) - 1);
    rc |= crypto_generichash_update(&st, (const uint8_t *)name, strlen(name));
    rc |= crypto_generichash_final(&st, key, sizeof(key));
    assert(rc == 0);
    (void)rc;
    sodium_memzero(&st, sizeof(st));
    rpl__stream_init_key(s, key);
    sodium_memzero(key, sizeof(key));
}

void
rpl__stream_bytes(struct rpl__stream *s, uint8_t *out, size_t n)
{
    while (n > 0) {
        size_t take;

        if (s->used == BLOCK)
            next_block(s);
        take = BLOCK - s->used;
        if (take > n)
            take = n;
        memcpy(out, s->block + s->used, take);
        s->used += take;
        out += take;
        n -= take;
    }
}

uint32_t
rpl__stream_uniform(struct rpl__stream *s, uint32_t n)
{
    /* Words at or above limit = 2^32 - (2^32 mod n) would favour the
     * low residues; they are drawn again.  limit > 2^31, so a redraw is
     * needed less than half the time. */
    const uint64_t span = UINT64_C(1) << 32;
    uint64_t limit;
    uint8_t w[4];
    uint32_t x;

    assert(n >= 1);
    limit = span - span % n;
    do {
        rpl__stream_bytes(s, w, sizeof(w));
        x = rpl__load_le32(w);
    } while ((uint64_t)x >= limit);
    return x % n;
}

void
rpl__stream_shuffle(struct rpl__stream *s, uint8_t *a, size_t n)
{
    assert(n <= UINT32_MAX);
    for (size_t i = n; i-- > 1;) {
        const uint32_t j = rpl__stream_uniform(s, (uint32_t)(i + 1));
        const uint8_t t = a[i];

        a[i] = a[j];
        a[j] = t;
    }
}

void
rpl__stream_wipe(struct rpl__stream *s)
{
    sodium_memzero(s, sizeof(*s));
}
