/*
 * test_crypto.c - the hashes, streams and signatures against the test
 * vectors of camelog(5) and against libsodium itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "internal.h"
#include "suites.h"

/* The test vector input of camelog(5). */
static const uint8_t tv_id[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
                                  0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
                                  0xcc, 0xdd, 0xee, 0xff};

static const char *const tv_roles[7] = {"merlin",  "percival", "servant",
                                        "servant", "assassin", "morgana",
                                        "mordred"};

static void
tv_secret(uint8_t s[32])
{
    for (int i = 0; i < 32; i++)
        s[i] = (uint8_t)(i + 1);
}

static void
tv_seed(uint8_t seed[32])
{
    uint8_t s[32];
    uint8_t e[2][32];

    tv_secret(s);
    memset(e[0], 0xaa, 32);
    memset(e[1], 0xbb, 32);
    rpl__seed(seed, tv_id, s, (const uint8_t(*)[32])e, 2);
}

/* Compares bytes with a lowercase hex string (its own hex writer, so
 * the suite does not depend on text.c). */
static void
ck_hex(const uint8_t *got, size_t n, const char *want)
{
    static const char digits[] = "0123456789abcdef";
    char hex[2 * 64 + 1];

    ck_assert_uint_le(n, 64);
    for (size_t i = 0; i < n; i++) {
        hex[2 * i] = digits[got[i] >> 4];
        hex[2 * i + 1] = digits[got[i] & 15];
    }
    hex[2 * n] = '\0';
    ck_assert_str_eq(hex, want);
}

START_TEST(test_secret_commit)
{
    uint8_t s[32], c[32];

    tv_secret(s);
    rpl__secret_commit(c, tv_id, s);
    ck_hex(c, 32,
           "04500d15bc88a106d38cb14f1d2f78d7cb63fec1ccbbe685da95141002075980");
}
END_TEST

START_TEST(test_seed)
{
    uint8_t seed[32];

    tv_seed(seed);
    ck_hex(seed, 32,
           "3e402299f37cbe232c97152132827a41e0363571c99ef345bfd164ca5d86eeb9");
}
END_TEST

START_TEST(test_seed_order_matters)
{
    uint8_t s[32], a[32], b[32];
    uint8_t e[2][32];

    tv_secret(s);
    memset(e[0], 0xaa, 32);
    memset(e[1], 0xbb, 32);
    rpl__seed(a, tv_id, s, (const uint8_t(*)[32])e, 2);
    memset(e[0], 0xbb, 32);
    memset(e[1], 0xaa, 32);
    rpl__seed(b, tv_id, s, (const uint8_t(*)[32])e, 2);
    ck_assert_mem_ne(a, b, 32);
    rpl__seed(b, tv_id, s, NULL, 0);
    ck_assert_mem_ne(a, b, 32);
}
END_TEST

START_TEST(test_stream_keys)
{
    uint8_t seed[32], out[32];
    struct rpl__stream st;

    tv_seed(seed);
    rpl__stream_init(&st, seed, "roles");
    ck_hex(st.key, 32,
           "ca4cf1e0c8ef524921504d4f079cd808c2288a09786d58cce64ec4aedc81e58a");
    rpl__stream_bytes(&st, out, 32);
    ck_hex(out, 32,
           "5b2c954b0343243cc5c1b70e2a84947b5180aeb70d88a89ae2c7f5ceb02eacea");

    rpl__stream_init(&st, seed, "leader");
    ck_hex(st.key, 32,
           "56d9dfe0098899d03b35b468a595ff123f420a26e22f6eaad41b18b3c33d95e5");
    rpl__stream_bytes(&st, out, 4);
    ck_hex(out, 4, "5a796c3b");
    rpl__stream_wipe(&st);
}
END_TEST

START_TEST(test_shuffle_draws)
{
    static const uint32_t want[6] = {3, 1, 2, 2, 2, 1};
    uint8_t seed[32];
    struct rpl__stream st;

    tv_seed(seed);
    rpl__stream_init(&st, seed, "roles");
    for (uint32_t i = 6; i >= 1; i--)
        ck_assert_uint_eq(rpl__stream_uniform(&st, i + 1), want[6 - i]);
    rpl__stream_wipe(&st);
}
END_TEST

START_TEST(test_deal)
{
    static const char *const want[7] = {"merlin",   "morgana", "mordred",
                                        "assassin", "servant", "percival",
                                        "servant"};
    uint8_t seed[32], order[7];
    struct rpl__stream st;

    tv_seed(seed);
    for (uint8_t i = 0; i < 7; i++)
        order[i] = i;
    rpl__stream_init(&st, seed, "roles");
    rpl__stream_shuffle(&st, order, 7);
    for (int k = 0; k < 7; k++)
        ck_assert_str_eq(tv_roles[order[k]], want[k]);

    /* leader = p(1 + uniform(7)) on stream "leader": 0x3b6c795a mod 7 */
    rpl__stream_init(&st, seed, "leader");
    ck_assert_uint_eq(1 + rpl__stream_uniform(&st, 7), 3);
    rpl__stream_wipe(&st);
}
END_TEST

struct commit_case {
    const char *label;
    const char *value;
    const char *nonce;
    const char *commit;
    const char *commit2; /* format 2: the value padded with '.' to 191 */
};

static const struct commit_case commit_cases[] = {
    {"deal p1", "role=merlin sees=p2,p4",
     "d9ae85afb43706eaafd14c64c53e0d18577bf35a24a0847c0b277fd845a6bf9c",
     "b6e04a650d673663df887adc0e4e105febfcfeb5b5732f2000f6f48da083acbe",
     "2aa42f8d14f3940f7c3ae5f9965f56683527f903099170af65d59c962b7d02fc"},
    {"deal p4", "role=assassin sees=p2,p3",
     "61bf96a1547ba5d8e31cb6bebb5590f5cacbc752946d07ee3e941ace56ca4a76",
     "289d81c55f6f792c7717c328baa4b95fc0ce5b3ee1bff99d92b894f4052babc1",
     "0f19918dcf9c09459bbad55764a9ca3f9c9c5ab23f6da4c22cc95759341a909e"},
    {"card 1 p2", "success",
     "2219eabb0a9334bab6df040bc9bb6676b7d2b5c4a8134bf9c11ca8d9c36d8d09",
     "5080561e8bb44f12f9ae5dec9a696637a7f45a42a4085da5dc158af068b6ab3c",
     "67e67aff270b824298e6ac788f37ae714b276385673e28776b530e0e424dfc9b"},
};

START_TEST(test_commitments)
{
    const struct commit_case *c = &commit_cases[_i];
    uint8_t seed[32], nonce[32], out[32], again[32];

    tv_seed(seed);
    rpl__commit(out, nonce, seed, tv_id, c->label, c->value, 1);
    ck_hex(nonce, 32, c->nonce);
    ck_hex(out, 32, c->commit);

    /* nonce may be NULL; the commitment is the same */
    rpl__commit(again, NULL, seed, tv_id, c->label, c->value, 1);
    ck_assert_mem_eq(again, out, 32);

    /* the commitment is H(key = nonce, id || label || 0x00 || value) */
    {
        uint8_t msg[16 + 64 + 1 + 192];
        const size_t ll = strlen(c->label), vl = strlen(c->value);

        memcpy(msg, tv_id, 16);
        memcpy(msg + 16, c->label, ll);
        msg[16 + ll] = 0;
        memcpy(msg + 17 + ll, c->value, vl);
        rpl__hash(again, nonce, msg, 17 + ll + vl);
        ck_assert_mem_eq(again, out, 32);
    }

    /* another value commits differently */
    rpl__commit(again, NULL, seed, tv_id, c->label, "fail", 1);
    ck_assert_mem_ne(again, out, 32);

    /* format 2 commits the padded value, under the same nonce */
    rpl__commit(again, NULL, seed, tv_id, c->label, c->value, 2);
    ck_hex(again, 32, c->commit2);
    {
        char padded[RPL__PAD + 1];

        ck_assert(rpl__pad(padded, c->value));
        ck_assert_uint_eq(strlen(padded), RPL__PAD);
        ck_assert_uint_eq(rpl__unpad_len(padded), strlen(c->value));
        rpl__commit_nonce(out, nonce, tv_id, c->label, padded, RPL__PAD);
        ck_assert_mem_eq(again, out, 32);
        /* a value that holds the pad character has no padded form */
        ck_assert(!rpl__pad(padded, "role=a.b"));
    }
}
END_TEST

/* camelog(5), TEST VECTORS: p1's delivery of its deal in format 2, line
 * 19, signed by the dealer key of the sealed log (seed bytes 21 to 40). */
START_TEST(test_delivery_vector)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk = NULL;
    struct rpl_pubkey pk;
    struct rpl_delivery d;
    uint8_t seed[32], msg[RPL_DELIVERY_MESSAGE_MAX], sig[64];
    char b64[89];
    size_t len = 0;

    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)(0x21 + i);
    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, NULL), RPL_OK);
    memset(&d, 0, sizeof(d));
    d.line = 19;
    snprintf(d.label, sizeof(d.label), "deal p1");
    ck_assert(rpl__pad(d.value, "role=merlin sees=p2,p4"));
    ck_assert_int_eq(sodium_hex2bin(d.nonce, 32,
                                    "d9ae85afb43706eaafd14c64c53e0d18"
                                    "577bf35a24a0847c0b277fd845a6bf9c",
                                    64, NULL, NULL, NULL),
                     0);
    rpl_delivery_message(tv_id, &d, msg, &len);
    ck_assert_uint_eq(len, 275);
    rpl__sign(sk, msg, len, sig);
    sodium_bin2base64(b64, sizeof(b64), sig, 64,
                      sodium_base64_VARIANT_ORIGINAL);
    ck_assert_str_eq(b64, "dePom/TcXrQqO4haKCEXOMfJYPUVYEz/smMtLoriIZqt"
                          "qy/B1Z9uSTHSZoONTFIoEMhIsp5AgGaq7YnRjU6OBA==");
    rpl_seckey_pubkey(sk, &pk);
    ck_assert(rpl__verify(&pk, msg, len, sig));
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(test_hash_and_chain)
{
    uint8_t h[32], want[32], buf[32 + 5];
    uint8_t key[32];

    /* unkeyed H matches crypto_generichash */
    rpl__hash(h, NULL, "abc", 3);
    crypto_generichash(want, 32, (const uint8_t *)"abc", 3, NULL, 0);
    ck_assert_mem_eq(h, want, 32);
    /* keyed */
    memset(key, 7, sizeof(key));
    rpl__hash(h, key, "abc", 3);
    crypto_generichash(want, 32, (const uint8_t *)"abc", 3, key, 32);
    ck_assert_mem_eq(h, want, 32);
    ck_hex(h, 0, "");

    /* chain: h1 = H(h0 || line) */
    memset(h, 0, sizeof(h));
    rpl__chain(h, "hello", 5);
    memset(buf, 0, 32);
    memcpy(buf + 32, "hello", 5);
    crypto_generichash(want, 32, buf, sizeof(buf), NULL, 0);
    ck_assert_mem_eq(h, want, 32);
}
END_TEST

START_TEST(test_stream_matches_libsodium)
{
    enum { N = 4099 };
    uint8_t *want = malloc(N), *got = malloc(N);
    uint8_t key[32];
    struct rpl__stream st;
    size_t off = 0, step = 1;

    ck_assert_ptr_nonnull(want);
    ck_assert_ptr_nonnull(got);
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(0x40 + i);
    randombytes_buf_deterministic(want, N, key);

    /* read in uneven pieces that straddle block boundaries */
    rpl__stream_init_key(&st, key);
    while (off < N) {
        size_t n = step;

        if (n > N - off)
            n = N - off;
        rpl__stream_bytes(&st, got + off, n);
        off += n;
        step = step * 3 % 101 + 1;
    }
    ck_assert_mem_eq(got, want, N);

    /* and in one go */
    memset(got, 0, N);
    rpl__stream_init_key(&st, key);
    rpl__stream_bytes(&st, got, N);
    ck_assert_mem_eq(got, want, N);

    rpl__stream_wipe(&st);
    for (size_t i = 0; i < sizeof(st); i++)
        ck_assert_uint_eq(((const uint8_t *)&st)[i], 0);
    free(want);
    free(got);
}
END_TEST

/* Finds a key whose stream starts with a word that uniform(n) must
 * reject, then checks that the value comes from the next word. */
START_TEST(test_uniform_rejects)
{
    /* n = 3 * 2^30 + 1: limit = 2^32 - (2^32 mod n) = n, so about 3/4 of
     * all words are rejected and a rejecting key is found at once. */
    const uint32_t n = UINT32_C(3) * (UINT32_C(1) << 30) + 1;
    const uint64_t limit = (UINT64_C(1) << 32) - (UINT64_C(1) << 32) % n;
    uint8_t key[32] = {0};
    bool found = false;

    ck_assert_uint_eq(limit, n);
    for (uint32_t k = 0; k < 1000 && !found; k++) {
        uint8_t bytes[64];
        struct rpl__stream st;
        size_t w = 0;

        rpl__store_le32(key, k);
        randombytes_buf_deterministic(bytes, sizeof(bytes), key);
        if (rpl__load_le32(bytes) < limit)
            continue;
        found = true;
        while (w < 16 && rpl__load_le32(bytes + 4 * w) >= limit)
            w++;
        ck_assert_uint_lt(w, 16);
        rpl__stream_init_key(&st, key);
        ck_assert_uint_eq(rpl__stream_uniform(&st, n),
                          rpl__load_le32(bytes + 4 * w) % n);
        /* the next draw starts after the accepted word */
        {
            uint8_t next[4];

            rpl__stream_bytes(&st, next, 4);
            ck_assert_mem_eq(next, bytes + 4 * (w + 1), 4);
        }
    }
    ck_assert(found);
}
END_TEST

START_TEST(test_uniform_bound_and_small)
{
    uint8_t key[32] = {1};
    struct rpl__stream st;
    unsigned seen[6] = {0};

    rpl__stream_init_key(&st, key);
    /* n = 1 never rejects and always gives 0, consuming one word */
    ck_assert_uint_eq(rpl__stream_uniform(&st, 1), 0);
    for (int i = 0; i < 600; i++) {
        const uint32_t v = rpl__stream_uniform(&st, 6);

        ck_assert_uint_lt(v, 6);
        seen[v]++;
    }
    for (int i = 0; i < 6; i++)
        ck_assert_uint_gt(seen[i], 0);
    /* n = 2^32 - 1: every word but 0xffffffff is kept */
    ck_assert_uint_lt(rpl__stream_uniform(&st, UINT32_MAX), UINT32_MAX);
}
END_TEST

START_TEST(test_shuffle_permutation)
{
    uint8_t key[32] = {9};
    uint8_t a[200];
    unsigned count[200];
    struct rpl__stream st;
    bool moved = false;

    rpl__stream_init_key(&st, key);
    for (int round = 0; round < 20; round++) {
        for (int i = 0; i < 200; i++)
            a[i] = (uint8_t)i;
        rpl__stream_shuffle(&st, a, 200);
        memset(count, 0, sizeof(count));
        for (int i = 0; i < 200; i++) {
            count[a[i]]++;
            if (a[i] != i)
                moved = true;
        }
        for (int i = 0; i < 200; i++)
            ck_assert_uint_eq(count[i], 1);
    }
    ck_assert(moved);
    /* 0 and 1 elements: nothing to draw, nothing changes */
    a[0] = 42;
    rpl__stream_shuffle(&st, a, 1);
    ck_assert_uint_eq(a[0], 42);
    rpl__stream_shuffle(&st, a, 0);
}
END_TEST

START_TEST(test_sign_verify)
{
    struct rpl_seckey *sk = sodium_malloc(sizeof(*sk));
    struct rpl_pubkey pk;
    uint8_t msg[100], sig[64];

    ck_assert_ptr_nonnull(sk);
    crypto_sign_keypair(pk.key, sk->sk);
    memset(pk.id, 0, sizeof(pk.id));
    for (int i = 0; i < 100; i++)
        msg[i] = (uint8_t)i;
    rpl__sign(sk, msg, sizeof(msg), sig);
    ck_assert(rpl__verify(&pk, msg, sizeof(msg), sig));
    ck_assert(crypto_sign_verify_detached(sig, msg, sizeof(msg), pk.key) == 0);
    /* a flipped bit in the message, the signature or the key fails */
    msg[17] ^= 0x04;
    ck_assert(!rpl__verify(&pk, msg, sizeof(msg), sig));
    msg[17] ^= 0x04;
    sig[40] ^= 0x80;
    ck_assert(!rpl__verify(&pk, msg, sizeof(msg), sig));
    sig[40] ^= 0x80;
    pk.key[3] ^= 0x01;
    ck_assert(!rpl__verify(&pk, msg, sizeof(msg), sig));
    pk.key[3] ^= 0x01;
    ck_assert(!rpl__verify(&pk, msg, sizeof(msg) - 1, sig));
    ck_assert(rpl__verify(&pk, msg, sizeof(msg), sig));
    sodium_free(sk);
}
END_TEST

/* The seal and sig messages, byte for byte as camelog(5) defines them:
 * the builders sign exactly what libsodium signs over the concatenation
 * spelled out here (Ed25519 is deterministic), and verify only that. */
START_TEST(test_seal_and_sig_messages)
{
    struct rpl_seckey *sk = sodium_malloc(sizeof(*sk));
    struct rpl_pubkey pk;
    uint8_t head[32], msg[14 + 32 + RPL_MAX_LINE], want[64], sig[64];
    char *line = malloc(RPL_MAX_LINE);

    ck_assert_ptr_nonnull(sk);
    ck_assert_ptr_nonnull(line);
    crypto_sign_keypair(pk.key, sk->sk);
    memset(pk.id, 0, sizeof(pk.id));
    for (int i = 0; i < 32; i++)
        head[i] = (uint8_t)(0xa0 + i);

    memcpy(msg, "camelog seal v1", 15);
    memcpy(msg + 15, head, 32);
    crypto_sign_detached(want, NULL, msg, 15 + 32, sk->sk);
    rpl__seal_sign(sk, head, sig);
    ck_assert_mem_eq(sig, want, 64);
    ck_assert(rpl__seal_verify(&pk, head, sig));
    head[31] ^= 0x01;
    ck_assert(!rpl__seal_verify(&pk, head, sig));
    head[31] ^= 0x01;
    /* a seal is not a sig over an empty line */
    ck_assert(!rpl__sig_verify(&pk, head, "", 0, sig));

    /* a sig over a short line and over the longest one */
    for (size_t len = 0; len <= RPL_MAX_LINE; len += RPL_MAX_LINE / 2) {
        memset(line, 'v', len);
        memcpy(msg, "camelog sig v1", 14);
        memcpy(msg + 14, head, 32);
        memcpy(msg + 14 + 32, line, len);
        crypto_sign_detached(want, NULL, msg, 14 + 32 + len, sk->sk);
        rpl__sig_sign(sk, head, line, len, sig);
        ck_assert_mem_eq(sig, want, 64);
        ck_assert(rpl__sig_verify(&pk, head, line, len, sig));
        ck_assert(!rpl__seal_verify(&pk, head, sig));
        if (len > 0) {
            line[len - 1] = 'w';
            ck_assert(!rpl__sig_verify(&pk, head, line, len, sig));
            ck_assert(!rpl__sig_verify(&pk, head, line, len - 1, sig));
        }
        head[0] ^= 0x80;
        ck_assert(!rpl__sig_verify(&pk, head, line, len, sig));
        head[0] ^= 0x80;
    }
    free(line);
    sodium_free(sk);
}
END_TEST

Suite *
crypto_suite(void)
{
    Suite *s = suite_create("crypto");
    TCase *tc = tcase_create("vectors");

    if (sodium_init() < 0)
        abort();
    tcase_add_test(tc, test_secret_commit);
    tcase_add_test(tc, test_seed);
    tcase_add_test(tc, test_seed_order_matters);
    tcase_add_test(tc, test_stream_keys);
    tcase_add_test(tc, test_shuffle_draws);
    tcase_add_test(tc, test_deal);
    tcase_add_loop_test(tc, test_commitments, 0,
                        sizeof(commit_cases) / sizeof(commit_cases[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("primitives");
    tcase_add_test(tc, test_hash_and_chain);
    tcase_add_test(tc, test_delivery_vector);
    tcase_add_test(tc, test_stream_matches_libsodium);
    tcase_add_test(tc, test_uniform_rejects);
    tcase_add_test(tc, test_uniform_bound_and_small);
    tcase_add_test(tc, test_shuffle_permutation);
    tcase_add_test(tc, test_sign_verify);
    tcase_add_test(tc, test_seal_and_sig_messages);
    suite_add_tcase(s, tc);
    return s;
}
