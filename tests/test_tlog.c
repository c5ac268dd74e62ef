/*
 * test_tlog.c - the public log of games: RFC 6962 roots and proofs
 * against a reference written here from the RFC's recursion, every
 * inclusion and consistency proof of small trees, the limits, malformed
 * checkpoints and proofs, resuming, read-only copies, and allocation
 * failures.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "failalloc.h"
#include "internal.h"
#include "suites.h"
#include "tmptree.h"

static struct rpl_ctx *ctx;
static struct rpl_seckey *sk;
static struct rpl_pubkey pk;
static char tmpdir[64];
static char dir[128];

static void
setup(void)
{
    uint8_t seed[32];

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    memset(seed, 7, sizeof(seed));
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, NULL), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    strcpy(tmpdir, "/tmp/camelog-tlog-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    snprintf(dir, sizeof(dir), "%s/log", tmpdir);
}

static void
teardown(void)
{
    test_remove_tree(tmpdir);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}

/* Entry i of the test logs. */
static size_t
entry(char *buf, size_t i)
{
    return (size_t)sprintf(buf, "entry %zu", i);
}

/* A log of n entries, appended in batches of batch. */
static struct rpl_tlog *
make_log(size_t n, size_t batch)
{
    struct rpl_tlog *t = NULL;
    char(*bufs)[32] = calloc(batch, 32);
    const void **ptrs = calloc(batch, sizeof(*ptrs));
    size_t *lens = calloc(batch, sizeof(*lens));

    ck_assert_ptr_nonnull(bufs);
    ck_assert_int_eq(rpl_tlog_create(ctx, &t, dir, "example.org/games", NULL),
                     RPL_OK);
    for (size_t done = 0; done < n;) {
        size_t k = 0;

        for (; k < batch && done + k < n; k++) {
            lens[k] = entry(bufs[k], done + k);
            ptrs[k] = bufs[k];
        }
        ck_assert_int_eq(rpl_tlog_append(t, ptrs, lens, k, NULL), RPL_OK);
        done += k;
    }
    free(bufs);
    free(ptrs);
    free(lens);
    ck_assert_uint_eq(rpl_tlog_size(t), n);
    return t;
}

/* RFC 6962 MTH of entries [lo, hi), written from the RFC. */
static void
ref_mth(uint8_t out[32], size_t lo, size_t hi)
{
    char buf[32];

    if (hi - lo == 1) {
        rpl_tlog_leaf_hash(buf, entry(buf, lo), out);
        return;
    }
    size_t k = 1;
    while (k * 2 < hi - lo)
        k *= 2;
    uint8_t l[32], r[32], in[65];
    ref_mth(l, lo, lo + k);
    ref_mth(r, lo + k, hi);
    in[0] = 1;
    memcpy(in + 1, l, 32);
    memcpy(in + 33, r, 32);
    crypto_hash_sha256(out, in, sizeof(in));
}

START_TEST(test_vectors)
{
    uint8_t h[32], want[32];
    struct rpl_tlog *t = make_log(0, 1);
    static const uint8_t empty_leaf[32] = {
        0x6e, 0x34, 0x0b, 0x9c, 0xff, 0xb3, 0x7a, 0x98, 0x9c, 0xa5, 0x44,
        0xe6, 0xbb, 0x78, 0x0a, 0x2c, 0x78, 0x90, 0x1d, 0x3f, 0xb3, 0x37,
        0x38, 0x76, 0x85, 0x11, 0xa3, 0x06, 0x17, 0xaf, 0xa0, 0x1d};

    /* RFC 6962: the hash of the empty tree, and of the empty leaf. */
    ck_assert_int_eq(rpl_tlog_root(t, 0, h, NULL), RPL_OK);
    crypto_hash_sha256(want, NULL, 0);
    ck_assert_mem_eq(h, want, 32);
    rpl_tlog_leaf_hash(NULL, 0, h);
    ck_assert_mem_eq(h, empty_leaf, 32);
    rpl_tlog_close(t);
}
END_TEST

/* Every root, every inclusion proof and every consistency proof of the
 * trees of 1 to 70 entries and of a few around tile edges, from one log
 * grown in uneven batches (so narrower trees read wider tiles). */
START_TEST(test_all_proofs)
{
    static const size_t big[] = {255, 256, 257, 300, 511, 512, 513, 600};
    struct rpl_tlog *t = make_log(600, 37);
    struct rpl_tlog_proof *p = malloc(sizeof(*p));
    size_t sizes[70 + 8], ns = 0;

    for (size_t n = 1; n <= 70; n++)
        sizes[ns++] = n;
    for (size_t i = 0; i < 8; i++)
        sizes[ns++] = big[i];
    for (size_t a = 0; a < ns; a++) {
        const size_t n = sizes[a];
        struct rpl_tlog_checkpoint cp;

        memset(&cp, 0, sizeof(cp));
        strcpy(cp.origin, "example.org/games");
        cp.size = n;
        ck_assert_int_eq(rpl_tlog_root(t, n, cp.root, NULL), RPL_OK);
        uint8_t want[32];
        ref_mth(want, 0, n);
        ck_assert_mem_eq(cp.root, want, 32);
        for (size_t i = 0; i<n; i += n> 70 ? 13 : 1) {
            char buf[32];
            const size_t len = entry(buf, i);

            ck_assert_int_eq(rpl_tlog_prove_inclusion(t, i, n, p, NULL),
                             RPL_OK);
            ck_assert_int_eq(rpl_tlog_verify_inclusion(&cp, p, buf, len, NULL),
                             RPL_OK);
            /* Every bit of every hash matters. */
            if (n <= 20) {
                for (size_t h = 0; h < p->count; h++) {
                    p->hash[h][h % 32] ^= 1;
                    ck_assert_int_eq(
                        rpl_tlog_verify_inclusion(&cp, p, NULL, 0, NULL),
                        RPL_E_FAIRNESS);
                    p->hash[h][h % 32] ^= 1;
                }
            }
            p->index ^= 1;
            if (p->index < n)
                ck_assert_int_ne(
                    rpl_tlog_verify_inclusion(&cp, p, NULL, 0, NULL), RPL_OK);
        }
        for (size_t b = 0; b < a; b++) {
            const size_t m = sizes[b];
            struct rpl_tlog_checkpoint old = cp;
            struct rpl_error err;

            old.size = m;
            ck_assert_int_eq(rpl_tlog_root(t, m, old.root, NULL), RPL_OK);
            ck_assert_int_eq(rpl_tlog_prove_consistency(t, m, n, p, NULL),
                             RPL_OK);
            ck_assert_int_eq(rpl_tlog_verify_consistency(&old, &cp, p, &err),
                             RPL_OK);
            /* Swapped, the newer is smaller: the log shrank. */
            ck_assert_int_eq(rpl_tlog_verify_consistency(&cp, &old, p, &err),
                             RPL_E_FAIRNESS);
            ck_assert_ptr_nonnull(strstr(err.msg, "shrank"));
            if (p->count > 0) {
                p->hash[p->count - 1][5] ^= 0x80;
                ck_assert_int_eq(
                    rpl_tlog_verify_consistency(&old, &cp, p, NULL),
                    RPL_E_FAIRNESS);
                p->hash[p->count - 1][5] ^= 0x80;
            }
        }
    }
    free(p);
    rpl_tlog_close(t);
}
END_TEST

/* Appends split across opens and batches give the tree of one batch. */
START_TEST(test_resume)
{
    struct rpl_tlog *t = make_log(300, 1000), *u = NULL;
    uint8_t once[32], again[32];
    char buf[32];

    ck_assert_int_eq(rpl_tlog_root(t, 300, once, NULL), RPL_OK);
    rpl_tlog_close(t);
    test_remove_tree(dir);
    t = make_log(3, 1);
    rpl_tlog_close(t);
    for (size_t i = 3; i < 300; i += 50) {
        const void *ptrs[50];
        size_t lens[50];
        char bufs[50][32];
        size_t k = 0;

        ck_assert_int_eq(rpl_tlog_open(ctx, &u, dir, NULL), RPL_OK);
        ck_assert_uint_eq(rpl_tlog_size(u), i);
        for (; k < 50 && i + k < 300; k++) {
            lens[k] = entry(bufs[k], i + k);
            ptrs[k] = bufs[k];
        }
        ck_assert_int_eq(rpl_tlog_append(u, ptrs, lens, k, NULL), RPL_OK);
        rpl_tlog_close(u);
    }
    ck_assert_int_eq(rpl_tlog_open(ctx, &u, dir, NULL), RPL_OK);
    ck_assert_int_eq(rpl_tlog_root(u, 300, again, NULL), RPL_OK);
    ck_assert_mem_eq(once, again, 32);
    const uint8_t *data;
    size_t len;
    ck_assert_int_eq(rpl_tlog_entry(u, 299, 300, &data, &len, NULL), RPL_OK);
    ck_assert_uint_eq(len, entry(buf, 299));
    ck_assert_mem_eq(data, buf, len);
    ck_assert_int_eq(rpl_tlog_sign(u, sk, NULL, NULL), RPL_OK);
    ck_assert_int_eq(rpl_tlog_audit(u, &pk, "example.org/games", NULL, NULL),
                     RPL_OK);
    rpl_tlog_close(u);
}
END_TEST

/* A copy of the served files (no state) reads and audits, never
 * appends. */
START_TEST(test_read_only)
{
    struct rpl_tlog *t = make_log(40, 7);
    struct rpl_tlog_checkpoint cp;
    struct rpl_error err;
    char path[256];

    ck_assert_int_eq(rpl_tlog_sign(t, sk, NULL, NULL), RPL_OK);
    rpl_tlog_close(t);
    snprintf(path, sizeof(path), "%s/camelog-tlog", dir);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rpl_tlog_open(ctx, &t, dir, NULL), RPL_OK);
    ck_assert_uint_eq(rpl_tlog_size(t), 40);
    ck_assert_str_eq(rpl_tlog_origin(t), "example.org/games");
    ck_assert_int_eq(rpl_tlog_audit(t, &pk, NULL, &cp, NULL), RPL_OK);
    ck_assert_uint_eq(cp.size, 40);
    const void *one = "x";
    const size_t len = 1;
    ck_assert_int_eq(rpl_tlog_append(t, &one, &len, 1, &err), RPL_E_STATE);
    ck_assert_int_eq(rpl_tlog_sign(t, sk, NULL, NULL), RPL_E_STATE);
    /* The wrong origin is refused. */
    ck_assert_int_eq(rpl_tlog_audit(t, &pk, "example.org/other", NULL, &err),
                     RPL_E_SEAL);
    rpl_tlog_close(t);
}
END_TEST

START_TEST(test_limits)
{
    struct rpl_tlog *t = NULL;
    struct rpl_error err;
    char origin[RPL_TLOG_ORIGIN_MAX + 2];
    uint8_t *big = calloc(1, RPL_TLOG_ENTRY_MAX + 1);

    memset(origin, 'a', sizeof(origin));
    origin[RPL_TLOG_ORIGIN_MAX + 1] = '\0';
    ck_assert_int_eq(rpl_tlog_create(ctx, &t, dir, origin, &err), RPL_E_ARG);
    origin[RPL_TLOG_ORIGIN_MAX] = '\0';
    ck_assert_int_eq(rpl_tlog_create(ctx, &t, dir, "a+b", &err), RPL_E_ARG);
    ck_assert_int_eq(rpl_tlog_create(ctx, &t, dir, "a b", &err), RPL_E_ARG);
    ck_assert_int_eq(rpl_tlog_create(ctx, &t, dir, origin, &err), RPL_OK);
    rpl_tlog_close(t);
    ck_assert_int_eq(rpl_tlog_create(ctx, &t, dir, origin, &err), RPL_E_EXISTS);
    ck_assert_int_eq(rpl_tlog_open(ctx, &t, dir, NULL), RPL_OK);
    const void *p = big;
    size_t len = RPL_TLOG_ENTRY_MAX + 1;
    ck_assert_int_eq(rpl_tlog_append(t, &p, &len, 1, &err), RPL_E_LIMIT);
    ck_assert_uint_eq(rpl_tlog_size(t), 0);
    len = RPL_TLOG_ENTRY_MAX;
    ck_assert_int_eq(rpl_tlog_append(t, &p, &len, 1, &err), RPL_OK);
    len = 0;
    ck_assert_int_eq(rpl_tlog_append(t, &p, &len, 1, &err), RPL_OK);
    ck_assert_int_eq(rpl_tlog_sign(t, sk, NULL, NULL), RPL_OK);
    ck_assert_int_eq(rpl_tlog_audit(t, &pk, NULL, NULL, &err), RPL_OK);
    const uint8_t *data;
    size_t got;
    ck_assert_int_eq(rpl_tlog_entry(t, 0, 2, &data, &got, NULL), RPL_OK);
    ck_assert_uint_eq(got, RPL_TLOG_ENTRY_MAX);
    ck_assert_int_eq(rpl_tlog_entry(t, 2, 2, &data, &got, NULL), RPL_E_ARG);
    ck_assert_int_eq(rpl_tlog_entry(t, 0, 3, &data, &got, NULL), RPL_E_ARG);
    rpl_tlog_close(t);
    free(big);
}
END_TEST

/* Checkpoints: a good one, then one fault each. */
static const struct {
    const char *edit; /* what replaces the body, or NULL */
    const char *text; /* a whole note, or NULL */
    enum rpl_status want;
} notes[] = {
    {NULL, "example.org/games\n3\n", RPL_E_SYNTAX},
    {NULL, "example.org/games\n3\nroot\n\n", RPL_E_SYNTAX},
    {NULL, "", RPL_E_SYNTAX},
    {"example.org/games\n03\n", NULL, RPL_E_SYNTAX},
    {"example.org/games\n9223372036854775808\n", NULL, RPL_E_SYNTAX},
    {"example.org/games\n-1\n", NULL, RPL_E_SYNTAX},
    {"example.org/games\n\n", NULL, RPL_E_SYNTAX},
    {"example org\n3\n", NULL, RPL_E_SYNTAX},
    {"example.org/games\n3\x01\n", NULL, RPL_E_SYNTAX},
    {"example.org/games\n4\n", NULL, RPL_E_SEAL},
};

START_TEST(test_checkpoint_faults)
{
    struct rpl_tlog *t = make_log(3, 3);
    struct rpl_tlog_checkpoint cp, got;
    struct rpl_error err;
    char path[256], *text = NULL;
    size_t len = 0;
    uint8_t *raw = NULL;

    ck_assert_int_eq(rpl_tlog_sign(t, sk, &cp, NULL), RPL_OK);
    rpl_tlog_close(t);
    snprintf(path, sizeof(path), "%s/checkpoint", dir);
    ck_assert_int_eq(rpl__file_read(ctx, path, 65536, &raw, &len, NULL),
                     RPL_OK);
    text = (char *)raw;
    ck_assert_int_eq(
        rpl_tlog_checkpoint_parse(text, len, &pk, NULL, &got, &err), RPL_OK);
    ck_assert_uint_eq(got.size, 3);
    ck_assert_mem_eq(got.root, cp.root, 32);
    /* The body is "example.org/games\n3\n<root>\n"; cases edit its first
     * two lines and keep the rest. */
    const char *rest = strchr(strchr(text, '\n') + 1, '\n') + 1;
    for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++) {
        char buf[1024];
        size_t n;

        if (notes[i].text)
            n = (size_t)snprintf(buf, sizeof(buf), "%s", notes[i].text);
        else
            n = (size_t)snprintf(buf, sizeof(buf), "%s%s", notes[i].edit, rest);
        ck_assert_msg(rpl_tlog_checkpoint_parse(buf, n, &pk, NULL, &got,
                                                &err) == notes[i].want,
                      "case %zu: %s", i, err.msg);
    }
    /* A witness's signature line is skipped; a hundred and one lines are
     * over the limit. */
    char *many = malloc(len + 101 * 100);
    size_t n = len;
    memcpy(many, text, len);
    n += (size_t)sprintf(many + n, "\xe2\x80\x94 witness.example AAAA\n");
    ck_assert_int_eq(rpl_tlog_checkpoint_parse(many, n, &pk, NULL, &got, NULL),
                     RPL_OK);
    for (int i = 0; i < 100; i++)
        n += (size_t)sprintf(many + n, "\xe2\x80\x94 w%d AAAA\n", i);
    ck_assert_int_eq(rpl_tlog_checkpoint_parse(many, n, &pk, NULL, &got, NULL),
                     RPL_E_LIMIT);
    free(many);
    /* Over RPL_MAX_TLOG_NOTE. */
    char *huge = calloc(1, RPL_MAX_TLOG_NOTE + 1);
    memset(huge, 'a', RPL_MAX_TLOG_NOTE);
    ck_assert_int_eq(rpl_tlog_checkpoint_parse(huge, RPL_MAX_TLOG_NOTE + 1, &pk,
                                               NULL, &got, NULL),
                     RPL_E_LIMIT);
    free(huge);
    rpl_free(ctx, raw);
}
END_TEST

START_TEST(test_proof_text)
{
    struct rpl_tlog *t = make_log(100, 100);
    struct rpl_tlog_proof *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
    char *text = NULL;

    ck_assert_int_eq(rpl_tlog_prove_inclusion(t, 17, 100, p, NULL), RPL_OK);
    ck_assert_int_eq(rpl_tlog_proof_format(ctx, p, &text, NULL), RPL_OK);
    ck_assert_int_eq(rpl_tlog_proof_parse(text, strlen(text), q, NULL), RPL_OK);
    ck_assert_int_eq(q->kind, RPL_TLOG_INCLUSION);
    ck_assert_uint_eq(q->index, 17);
    ck_assert_uint_eq(q->count, p->count);
    ck_assert_mem_eq(q->hash, p->hash, 32 * p->count);
    /* Cut inside the last line, no LF: refused. */
    ck_assert_int_eq(rpl_tlog_proof_parse(text, strlen(text) - 1, q, NULL),
                     RPL_E_SYNTAX);
    rpl_free(ctx, text);
    static const char *const bad[] = {
        "camelog-tlog inclusion\nsize 01\nindex 1\n",
        "camelog-tlog inclusion\nsize 1\nindex 1\nleaf x\n",
        "camelog-tlog\n",
        "camelog-tlog consistency\nold 1\nsize 2\nAAAA\n",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        ck_assert_int_eq(rpl_tlog_proof_parse(bad[i], strlen(bad[i]), q, NULL),
                         RPL_E_SYNTAX);
    /* More than RPL_TLOG_PROOF_MAX hashes. */
    struct rpl__buf b;
    rpl__buf_init(&b, ctx);
    rpl__buf_puts(&b, "camelog-tlog consistency\nold 1\nsize 2\n");
    for (int i = 0; i <= RPL_TLOG_PROOF_MAX; i++)
        rpl__buf_puts(&b, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n");
    ck_assert_int_eq(rpl_tlog_proof_parse(b.p, b.len, q, NULL), RPL_E_LIMIT);
    rpl__buf_release(&b);
    free(p);
    free(q);
    rpl_tlog_close(t);
}
END_TEST

/* Each allocation of create, append, sign and audit fails in turn: the
 * call says RPL_E_NOMEM and nothing leaks. */
START_TEST(test_nomem)
{
    bool done = false;

    for (long k = 0; !done && k < 200; k++) {
        struct failing f = {k, 0};
        const struct rpl_allocator a = failing_allocator(&f);
        struct rpl_ctx *c = NULL;
        struct rpl_tlog *t = NULL;
        enum rpl_status st;
        const void *e[2] = {"one", "two"};
        const size_t lens[2] = {3, 3};

        f.countdown = -1;
        ck_assert_int_eq(rpl_ctx_new(&c, &a, NULL), RPL_OK);
        test_remove_tree(dir);
        f.countdown = k;
        st = rpl_tlog_create(c, &t, dir, "example.org/games", NULL);
        if (st == RPL_OK)
            st = rpl_tlog_append(t, e, lens, 2, NULL);
        if (st == RPL_OK)
            st = rpl_tlog_sign(t, sk, NULL, NULL);
        if (st == RPL_OK)
            st = rpl_tlog_audit(t, &pk, NULL, NULL, NULL);
        ck_assert(st == RPL_OK || st == RPL_E_NOMEM);
        done = st == RPL_OK;
        rpl_tlog_close(t);
        rpl_ctx_free(c);
        ck_assert_int_eq(f.live, 0);
    }
    ck_assert(done);
}
END_TEST

/* One writer per directory: a second writable handle is refused while
 * the first is open, a read-only copy is not, and the lock goes with the
 * handle. */
START_TEST(test_one_writer)
{
    struct rpl_tlog *t = make_log(3, 3), *u = NULL;
    struct rpl_error err;
    char ro[160], cmd[600];

    ck_assert_int_eq(rpl_tlog_sign(t, sk, NULL, NULL), RPL_OK);
    ck_assert_int_eq(rpl_tlog_open(ctx, &u, dir, &err), RPL_E_BUSY);
    ck_assert_ptr_null(u);
    ck_assert_ptr_nonnull(strstr(err.msg, "another writer"));
    /* A copy of the served files reads while the writer writes. */
    snprintf(ro, sizeof(ro), "%s/copy", tmpdir);
    snprintf(cmd, sizeof(cmd), "cp -r %s %s && rm %s/camelog-tlog", dir, ro,
             ro);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(rpl_tlog_open(ctx, &u, ro, NULL), RPL_OK);
    rpl_tlog_close(u);
    rpl_tlog_close(t);
    ck_assert_int_eq(rpl_tlog_open(ctx, &u, dir, NULL), RPL_OK);
    ck_assert_uint_eq(rpl_tlog_size(u), 3);
    rpl_tlog_close(u);
}
END_TEST

Suite *
tlog_suite(void)
{
    Suite *s = suite_create("tlog");
    TCase *tc = tcase_create("tlog");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_vectors);
    tcase_add_test(tc, test_all_proofs);
    tcase_add_test(tc, test_resume);
    tcase_add_test(tc, test_read_only);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_checkpoint_faults);
    tcase_add_test(tc, test_proof_text);
    tcase_add_test(tc, test_nomem);
    tcase_add_test(tc, test_one_writer);
    suite_add_tcase(s, tc);
    return s;
}
