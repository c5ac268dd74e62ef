/*
 * merkle.c - RFC 6962 Merkle trees over a source of node hashes: the
 * hash of a range, the root, inclusion and consistency proofs (RFC 6962
 * 2.1, the hashes in its order), and their verification (RFC 9162
 * 2.1.3.2 and 2.1.4.2).  Leaf hash SHA-256(0x00 || entry), node hash
 * SHA-256(0x01 || left || right), the empty tree SHA-256 of nothing.
 * Where the nodes come from (tiles on disk) is store.c's business.
 */
#include <sodium.h>
#include <string.h>

#include "tlog.h"

void
rpl_tlog_leaf_hash(const void *entry, size_t len, uint8_t out[32])
{
    crypto_hash_sha256_state st;
    const uint8_t zero = 0x00;

    crypto_hash_sha256_init(&st);
    crypto_hash_sha256_update(&st, &zero, 1);
    if (len > 0)
        crypto_hash_sha256_update(&st, entry, len);
    crypto_hash_sha256_final(&st, out);
}

static void
tlog_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32])
{
    uint8_t buf[65];

    buf[0] = 0x01;
    memcpy(buf + 1, left, 32);
    memcpy(buf + 33, right, 32);
    crypto_hash_sha256(out, buf, sizeof(buf));
}

void
rpl__tlog_subtree(uint8_t out[32], const uint8_t *hashes, unsigned k)
{
    /* Level by level in a scratch copy: 2^k hashes, k <= 8, 8 KiB. */
    uint8_t work[RPL__TILE_WIDTH][32];
    size_t n = (size_t)1 << k;

    memcpy(work, hashes, n * 32);
    while (n > 1) {
        for (size_t i = 0; i < n / 2; i++)
            tlog_node(work[i], work[2 * i], work[2 * i + 1]);
        n /= 2;
    }
    memcpy(out, work[0], 32);
}

/* The largest power of two below n (n >= 2). */
static uint64_t
split_point(uint64_t n)
{
    uint64_t k = 1;

    while (k << 1 < n)
        k <<= 1;
    return k;
}

/* Whether n is a power of two (n >= 1). */
static bool
is_pow2(uint64_t n)
{
    return (n & (n - 1)) == 0;
}

static unsigned
log2_exact(uint64_t n)
{
    unsigned k = 0;

    while (n > 1) {
        n >>= 1;
        k++;
    }
    return k;
}

static enum rpl_status
tlog_range(const struct rpl__tlog_nodes *nd, uint64_t lo, uint64_t hi,
           uint8_t out[32], struct rpl_error *err)
{
    const uint64_t n = hi - lo;
    uint8_t left[32], right[32];
    enum rpl_status rc;

    if (is_pow2(n) && lo % n == 0)
        return nd->hash(nd->ud, log2_exact(n), lo / n, out, err);
    const uint64_t k = split_point(n);
    rc = tlog_range(nd, lo, lo + k, left, err);
    if (rc == RPL_OK)
        rc = tlog_range(nd, lo + k, hi, right, err);
    if (rc == RPL_OK)
        tlog_node(out, left, right);
    return rc;
}

enum rpl_status
rpl__tlog_root(const struct rpl__tlog_nodes *nd, uint8_t out[32],
               struct rpl_error *err)
{
    if (nd->size == 0) {
        crypto_hash_sha256(out, NULL, 0);
        return RPL_OK;
    }
    return tlog_range(nd, 0, nd->size, out, err);
}

static enum rpl_status
push(struct rpl_tlog_proof *proof, const uint8_t h[32], struct rpl_error *err)
{
    if (proof->count >= RPL_TLOG_PROOF_MAX)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "a proof of more than RPL_TLOG_PROOF_MAX hashes");
    memcpy(proof->hash[proof->count++], h, 32);
    return RPL_OK;
}

/* RFC 6962 PATH(m, D[lo:hi]). */
static enum rpl_status
path(const struct rpl__tlog_nodes *nd, uint64_t m, uint64_t lo, uint64_t hi,
     struct rpl_tlog_proof *proof, struct rpl_error *err)
{
    uint8_t h[32];
    enum rpl_status rc;

    if (hi - lo <= 1)
        return RPL_OK;
    const uint64_t k = split_point(hi - lo);
    if (m < lo + k) {
        rc = path(nd, m, lo, lo + k, proof, err);
        if (rc == RPL_OK)
            rc = tlog_range(nd, lo + k, hi, h, err);
    } else {
        rc = path(nd, m, lo + k, hi, proof, err);
        if (rc == RPL_OK)
            rc = tlog_range(nd, lo, lo + k, h, err);
    }
    return rc == RPL_OK ? push(proof, h, err) : rc;
}

enum rpl_status
rpl__tlog_inclusion(const struct rpl__tlog_nodes *nd, uint64_t index,
                    struct rpl_tlog_proof *proof, struct rpl_error *err)
{
    if (index >= nd->size)
        return rpl__err(
            err, RPL_E_ARG, 0, "entry %llu is not in a tree of %llu entries",
            (unsigned long long)index, (unsigned long long)nd->size);
    memset(proof, 0, sizeof(*proof));
    proof->kind = RPL_TLOG_INCLUSION;
    proof->size = nd->size;
    proof->index = index;
    const enum rpl_status rc = nd->hash(nd->ud, 0, index, proof->leaf, err);
    return rc == RPL_OK ? path(nd, index, 0, nd->size, proof, err) : rc;
}

/* RFC 6962 SUBPROOF(m, D[lo:hi], b). */
static enum rpl_status
subproof(const struct rpl__tlog_nodes *nd, uint64_t m, uint64_t lo, uint64_t hi,
         bool b, struct rpl_tlog_proof *proof, struct rpl_error *err)
{
    const uint64_t n = hi - lo;
    uint8_t h[32];
    enum rpl_status rc;

    if (m == n) {
        if (b)
            return RPL_OK;
        rc = tlog_range(nd, lo, hi, h, err);
        return rc == RPL_OK ? push(proof, h, err) : rc;
    }
    const uint64_t k = split_point(n);
    if (m <= k) {
        rc = subproof(nd, m, lo, lo + k, b, proof, err);
        if (rc == RPL_OK)
            rc = tlog_range(nd, lo + k, hi, h, err);
    } else {
        rc = subproof(nd, m - k, lo + k, hi, false, proof, err);
        if (rc == RPL_OK)
            rc = tlog_range(nd, lo, lo + k, h, err);
    }
    return rc == RPL_OK ? push(proof, h, err) : rc;
}

enum rpl_status
rpl__tlog_consistency(const struct rpl__tlog_nodes *nd, uint64_t old_size,
                      struct rpl_tlog_proof *proof, struct rpl_error *err)
{
    if (old_size == 0 || old_size > nd->size)
        return rpl__err(
            err, RPL_E_ARG, 0, "no consistency proof from %llu to %llu entries",
            (unsigned long long)old_size, (unsigned long long)nd->size);
    memset(proof, 0, sizeof(*proof));
    proof->kind = RPL_TLOG_CONSISTENCY;
    proof->size = nd->size;
    proof->old_size = old_size;
    if (old_size == nd->size)
        return RPL_OK;
    return subproof(nd, old_size, 0, nd->size, true, proof, err);
}

/* ------------------------------------------------------------ verifying */

static enum rpl_status
mismatch(struct rpl_error *err, const char *what)
{
    return rpl__err(err, RPL_E_FAIRNESS, 0, "%s", what);
}

enum rpl_status
rpl_tlog_verify_inclusion(const struct rpl_tlog_checkpoint *cp,
                          const struct rpl_tlog_proof *proof, const void *entry,
                          size_t entry_len, struct rpl_error *err)
{
    uint8_t r[32];

    rpl__err_clear(err);
    if (proof->kind != RPL_TLOG_INCLUSION)
        return rpl__err(err, RPL_E_ARG, 0, "not an inclusion proof");
    if (proof->size != cp->size)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "the proof is for a tree of %llu entries, the "
                        "checkpoint has %llu",
                        (unsigned long long)proof->size,
                        (unsigned long long)cp->size);
    if (proof->index >= proof->size)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "entry %llu is past the tree's %llu entries",
                        (unsigned long long)proof->index,
                        (unsigned long long)proof->size);
    if (entry) {
        rpl_tlog_leaf_hash(entry, entry_len, r);
        if (sodium_memcmp(r, proof->leaf, 32) != 0)
            return mismatch(err, "the entry's leaf hash is not the proof's");
    }
    if (proof->count > RPL_TLOG_PROOF_MAX)
        return rpl__err(err, RPL_E_LIMIT, 0, "a proof of too many hashes");
    uint64_t fn = proof->index, sn = proof->size - 1;
    memcpy(r, proof->leaf, 32);
    for (size_t i = 0; i < proof->count; i++) {
        const uint8_t *p = proof->hash[i];

        if (sn == 0)
            return mismatch(err, "the inclusion proof has too many hashes");
        if ((fn & 1) || fn == sn) {
            tlog_node(r, p, r);
            if (!(fn & 1)) {
                while (!(fn & 1) && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            }
        } else {
            tlog_node(r, r, p);
        }
        fn >>= 1;
        sn >>= 1;
    }
    if (sn != 0)
        return mismatch(err, "the inclusion proof has too few hashes");
    if (sodium_memcmp(r, cp->root, 32) != 0)
        return mismatch(err, "the inclusion proof does not lead to the "
                             "checkpoint's root hash");
    return RPL_OK;
}

enum rpl_status
rpl_tlog_verify_consistency(const struct rpl_tlog_checkpoint *older,
                            const struct rpl_tlog_checkpoint *cp,
                            const struct rpl_tlog_proof *proof,
                            struct rpl_error *err)
{
    uint8_t fr[32], sr[32];

    rpl__err_clear(err);
    if (strcmp(older->origin, cp->origin) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "the checkpoints are of two logs, \"%s\" and \"%s\"",
                        older->origin, cp->origin);
    if (cp->size < older->size)
        return rpl__err(
            err, RPL_E_FAIRNESS, 0, "the log shrank: %llu entries after %llu",
            (unsigned long long)cp->size, (unsigned long long)older->size);
    if (cp->size == older->size || older->size == 0) {
        if (older->size != 0 && sodium_memcmp(older->root, cp->root, 32) != 0)
            return rpl__err(err, RPL_E_FAIRNESS, 0,
                            "the log forked: two root hashes for %llu "
                            "entries",
                            (unsigned long long)cp->size);
        if (proof && proof->count != 0)
            return mismatch(err, "the consistency proof should be empty");
        return RPL_OK;
    }
    if (!proof)
        return rpl__err(err, RPL_E_ARG, 0, "a consistency proof is needed");
    if (proof->kind != RPL_TLOG_CONSISTENCY)
        return rpl__err(err, RPL_E_ARG, 0, "not a consistency proof");
    if (proof->old_size != older->size || proof->size != cp->size)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "the proof is from %llu to %llu entries, the "
                        "checkpoints from %llu to %llu",
                        (unsigned long long)proof->old_size,
                        (unsigned long long)proof->size,
                        (unsigned long long)older->size,
                        (unsigned long long)cp->size);
    if (proof->count == 0 || proof->count > RPL_TLOG_PROOF_MAX)
        return mismatch(err, "the consistency proof has no hash");

    /* RFC 9162 2.1.4.2, with the old root first when the old size is a
     * power of two. */
    size_t i = 0;
    const uint8_t *first;
    if (is_pow2(older->size)) {
        first = older->root;
    } else {
        first = proof->hash[0];
        i = 1;
    }
    uint64_t fn = older->size - 1, sn = cp->size - 1;
    while (fn & 1) {
        fn >>= 1;
        sn >>= 1;
    }
    memcpy(fr, first, 32);
    memcpy(sr, first, 32);
    for (; i < proof->count; i++) {
        const uint8_t *c = proof->hash[i];

        if (sn == 0)
            return mismatch(err, "the consistency proof has too many hashes");
        if ((fn & 1) || fn == sn) {
            tlog_node(fr, c, fr);
            tlog_node(sr, c, sr);
            if (!(fn & 1)) {
                while (!(fn & 1) && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            }
        } else {
            tlog_node(sr, sr, c);
        }
        fn >>= 1;
        sn >>= 1;
    }
    if (sn != 0)
        return mismatch(err, "the consistency proof has too few hashes");
    if (sodium_memcmp(fr, older->root, 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "the log forked: the proof does not lead to the "
                        "older checkpoint's root hash");
    if (sodium_memcmp(sr, cp->root, 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "the log forked: the proof does not lead to the "
                        "newer checkpoint's root hash");
    return RPL_OK;
}
