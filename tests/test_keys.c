/*
 * test_keys.c - key generation, files and parsing, and interoperation
 * with minisign.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <sodium.h>

#include "internal.h"
#include "suites.h"

#define MINISIGN "/usr/bin/minisign"

static struct rpl_ctx *ctx;
static char tmpdir[64];

static void
setup(void)
{
    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    strcpy(tmpdir, "/tmp/camelog-keys-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
teardown(void)
{
    DIR *d = opendir(tmpdir);
    struct dirent *de;
    char p[512];

    if (d) {
        while ((de = readdir(d))) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof(p), "%s/%s", tmpdir, de->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(tmpdir);
    rpl_ctx_free(ctx);
    ctx = NULL;
}

static void
path_in(char *out, size_t cap, const char *name)
{
    ck_assert_int_lt(snprintf(out, cap, "%s/%s", tmpdir, name), (int)cap);
}

static void
write_file(const char *path, const char *text, unsigned mode)
{
    FILE *f = fopen(path, "wb");

    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, strlen(text), f), strlen(text));
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(path, mode), 0);
}

/* Reads a small text file into out (NUL-terminated). */
static void
read_text(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n;

    ck_assert_ptr_nonnull(f);
    n = fread(out, 1, cap - 1, f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_uint_lt(n, cap - 1);
    out[n] = '\0';
}

static int
run(const char *cmd)
{
    const int st = system(cmd);

    return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void
sign_and_check(const struct rpl_seckey *sk, const struct rpl_pubkey *pk)
{
    static const uint8_t msg[] = "camelog seal v1 test";
    uint8_t sig[64];

    rpl__sign(sk, msg, sizeof(msg), sig);
    ck_assert(rpl__verify(pk, msg, sizeof(msg), sig));
    sig[0] ^= 1;
    ck_assert(!rpl__verify(pk, msg, sizeof(msg), sig));
}

START_TEST(test_generate_save_load)
{
    struct rpl_error err;
    struct rpl_seckey *sk, *back;
    struct rpl_pubkey pk, pk_back, pk_file;
    char path[256], pub[256];
    struct stat st;

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, &err), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    path_in(path, sizeof(path), "k.key");
    path_in(pub, sizeof(pub), "k.pub");
    ck_assert_int_eq(rpl_seckey_save(sk, path, false, &err), RPL_OK);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0600);
    ck_assert_int_eq(rpl_pubkey_save(&pk, pub, false, &err), RPL_OK);
    ck_assert_int_eq(stat(pub, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0644);

    /* a second save without force keeps the first */
    ck_assert_int_eq(rpl_seckey_save(sk, path, false, &err), RPL_E_EXISTS);
    ck_assert_int_eq(rpl_pubkey_save(&pk, pub, false, &err), RPL_E_EXISTS);
    ck_assert_int_eq(rpl_seckey_save(sk, path, true, &err), RPL_OK);

    ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), RPL_OK);
    rpl_seckey_pubkey(back, &pk_back);
    ck_assert_mem_eq(pk_back.id, pk.id, 8);
    ck_assert_mem_eq(pk_back.key, pk.key, 32);
    ck_assert_int_eq(rpl_pubkey_load(&pk_file, pub, &err), RPL_OK);
    ck_assert_mem_eq(pk_file.id, pk.id, 8);
    ck_assert_mem_eq(pk_file.key, pk.key, 32);

    /* the loaded key signs what the public key verifies */
    sign_and_check(back, &pk_file);
    sign_and_check(sk, &pk_file);
    rpl_seckey_free(back);
    rpl_seckey_free(sk);
    rpl_seckey_free(NULL);
}
END_TEST

START_TEST(test_generate_is_fresh)
{
    struct rpl_seckey *a, *b;
    struct rpl_pubkey pa, pb;

    ck_assert_int_eq(rpl_seckey_generate(ctx, &a, NULL), RPL_OK);
    ck_assert_int_eq(rpl_seckey_generate(ctx, &b, NULL), RPL_OK);
    rpl_seckey_pubkey(a, &pa);
    rpl_seckey_pubkey(b, &pb);
    ck_assert_mem_ne(pa.key, pb.key, 32);
    ck_assert_mem_ne(pa.id, pb.id, 8);
    rpl_seckey_free(a);
    rpl_seckey_free(b);
}
END_TEST

START_TEST(test_from_seed)
{
    static const char tag[] = "camelog key id";
    uint8_t seed[32], pk_want[32], sk_want[64], buf[14 + 32], h[32];
    struct rpl_seckey *a, *b;
    struct rpl_pubkey pa, pb;

    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)(0xc0 + i);
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &a, seed, NULL), RPL_OK);
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &b, seed, NULL), RPL_OK);
    rpl_seckey_pubkey(a, &pa);
    rpl_seckey_pubkey(b, &pb);
    ck_assert_mem_eq(pa.id, pb.id, 8);
    ck_assert_mem_eq(pa.key, pb.key, 32);

    /* the key pair is libsodium's for the seed; the id is the first 8
     * bytes of H("camelog key id" || pk) */
    crypto_sign_seed_keypair(pk_want, sk_want, seed);
    ck_assert_mem_eq(pa.key, pk_want, 32);
    memcpy(buf, tag, 14);
    memcpy(buf + 14, pk_want, 32);
    crypto_generichash(h, 32, buf, sizeof(buf), NULL, 0);
    ck_assert_mem_eq(pa.id, h, 8);
    sign_and_check(a, &pb);

    seed[0] ^= 1;
    rpl_seckey_free(b);
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &b, seed, NULL), RPL_OK);
    rpl_seckey_pubkey(b, &pb);
    ck_assert_mem_ne(pa.key, pb.key, 32);
    rpl_seckey_free(a);
    rpl_seckey_free(b);
}
END_TEST

START_TEST(test_pubkey_round_trip)
{
    struct rpl_seckey *sk;
    struct rpl_pubkey pk, back;
    struct rpl_error err;
    char b64[RPL_PUBKEY_B64_LEN + 1];
    uint8_t raw[42];
    size_t raw_len;

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    rpl_pubkey_format(&pk, b64);
    ck_assert_uint_eq(strlen(b64), RPL_PUBKEY_B64_LEN);
    ck_assert_int_eq(strncmp(b64, "RW", 2), 0); /* "Ed" */
    ck_assert_int_eq(rpl_pubkey_parse(&back, b64, strlen(b64), &err), RPL_OK);
    ck_assert_mem_eq(back.id, pk.id, 8);
    ck_assert_mem_eq(back.key, pk.key, 32);

    /* the layout: "Ed" || id || key */
    ck_assert_int_eq(sodium_base642bin(raw, sizeof(raw), b64, strlen(b64), NULL,
                                       &raw_len, NULL,
                                       sodium_base64_VARIANT_ORIGINAL),
                     0);
    ck_assert_uint_eq(raw_len, 42);
    ck_assert_mem_eq(raw, "Ed", 2);
    ck_assert_mem_eq(raw + 2, pk.id, 8);
    ck_assert_mem_eq(raw + 10, pk.key, 32);
    rpl_seckey_free(sk);
}
END_TEST

/* b64 of "Ed" || 8 id bytes || key */
static void
encode_pub(char out[RPL_PUBKEY_B64_LEN + 1], const char alg[2],
           const uint8_t key[32])
{
    uint8_t raw[42];

    memcpy(raw, alg, 2);
    memset(raw + 2, 0x5a, 8);
    memcpy(raw + 10, key, 32);
    sodium_bin2base64(out, RPL_PUBKEY_B64_LEN + 1, raw, sizeof(raw),
                      sodium_base64_VARIANT_ORIGINAL);
}

static void
parse_fails(const char *b64, size_t len, const char *msg_part)
{
    struct rpl_pubkey pk;
    struct rpl_error err;

    memset(&pk, 0x33, sizeof(pk));
    ck_assert_int_eq(rpl_pubkey_parse(&pk, b64, len, &err), RPL_E_KEY);
    ck_assert_int_eq(err.code, RPL_E_KEY);
    ck_assert_uint_eq(err.line, 0);
    ck_assert_msg(strstr(err.msg, msg_part), "\"%s\" lacks \"%s\"", err.msg,
                  msg_part);
    /* out-parameter untouched */
    for (size_t i = 0; i < sizeof(pk.key); i++)
        ck_assert_uint_eq(pk.key[i], 0x33);
}

/* The context keeps the last key text that parsed: the same text gives
 * the same key again, and a text that differs is checked in full. */
START_TEST(test_pubkey_parse_cached)
{
    struct rpl_seckey *sk;
    struct rpl_pubkey pk, got, other;
    struct rpl_error err;
    char b64[RPL_PUBKEY_B64_LEN + 1], bad[RPL_PUBKEY_B64_LEN + 1];

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    rpl_pubkey_format(&pk, b64);
    for (int i = 0; i < 2; i++) {
        memset(&got, 0, sizeof(got));
        ck_assert_int_eq(
            rpl__pubkey_parse(ctx, &got, b64, RPL_PUBKEY_B64_LEN, &err),
            RPL_OK);
        ck_assert_mem_eq(got.id, pk.id, 8);
        ck_assert_mem_eq(got.key, pk.key, 32);
    }
    memcpy(bad, b64, sizeof(b64));
    bad[20] = '-';
    memset(&other, 0x33, sizeof(other));
    ck_assert_int_eq(
        rpl__pubkey_parse(ctx, &other, bad, RPL_PUBKEY_B64_LEN, &err),
        RPL_E_KEY);
    ck_assert(strstr(err.msg, "base64"));
    ck_assert_uint_eq(other.key[0], 0x33);
    bad[20] = b64[20];
    bad[RPL_PUBKEY_B64_LEN - 1] =
        b64[RPL_PUBKEY_B64_LEN - 1] == 'A' ? 'B' : 'A';
    /* Another key, or none (not every 32 bytes are a point). */
    ck_assert(rpl__pubkey_parse(ctx, &other, bad, RPL_PUBKEY_B64_LEN, &err) !=
                  RPL_OK ||
              memcmp(other.key, pk.key, 32) != 0);
    ck_assert_int_eq(
        rpl__pubkey_parse(ctx, &got, b64, RPL_PUBKEY_B64_LEN, &err), RPL_OK);
    ck_assert_mem_eq(got.key, pk.key, 32);
    rpl_seckey_free(sk);
}
END_TEST

/* Whether ctx remembers point as valid. */
static bool
knows_point(const struct rpl_ctx *c, const uint8_t point[32])
{
    for (size_t i = 0; i < RPL__POINT_CACHE && i < c->npoints; i++)
        if (memcmp(c->valid_point[i], point, 32) == 0)
            return true;
    return false;
}

/* rpl_ctx_learn(): the learner gets the teacher's newest points, once
 * each, and its last key text; itself taught, nothing changes. */
START_TEST(test_ctx_learn)
{
    enum { NKEYS = RPL__POINT_CACHE + 4 };
    struct rpl_ctx *a, *b;
    struct rpl_pubkey pk[NKEYS], got;
    struct rpl_error err;
    char b64[RPL_PUBKEY_B64_LEN + 1];
    size_t n;

    ck_assert_int_eq(rpl_ctx_new(&a, NULL, &err), RPL_OK);
    ck_assert_int_eq(rpl_ctx_new(&b, NULL, &err), RPL_OK);
    for (size_t k = 0; k < NKEYS; k++) {
        struct rpl_seckey *sk;

        ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
        rpl_seckey_pubkey(sk, &pk[k]);
        rpl_seckey_free(sk);
        rpl_pubkey_format(&pk[k], b64);
        ck_assert_int_eq(
            rpl__pubkey_parse(a, &got, b64, RPL_PUBKEY_B64_LEN, &err), RPL_OK);
    }
    /* b knows the first key itself, then learns a's last 16. */
    rpl_pubkey_format(&pk[0], b64);
    ck_assert_int_eq(rpl__pubkey_parse(b, &got, b64, RPL_PUBKEY_B64_LEN, &err),
                     RPL_OK);
    rpl_ctx_learn(b, a);
    for (size_t k = 0; k < NKEYS; k++)
        ck_assert_msg(knows_point(b, pk[k].key) ==
                          (k >= NKEYS - RPL__POINT_CACHE),
                      "key %zu", k);
    ck_assert(b->has_last_key);
    ck_assert_mem_eq(b->last_key.key, pk[NKEYS - 1].key, 32);
    n = b->npoints;
    rpl_ctx_learn(b, a);
    rpl_ctx_learn(b, b);
    ck_assert_uint_eq(b->npoints, n);
    /* What b learnt parses there as it parsed in a. */
    rpl_pubkey_format(&pk[NKEYS - 2], b64);
    ck_assert_int_eq(rpl__pubkey_parse(b, &got, b64, RPL_PUBKEY_B64_LEN, &err),
                     RPL_OK);
    ck_assert_mem_eq(got.key, pk[NKEYS - 2].key, 32);
    ck_assert_mem_eq(got.id, pk[NKEYS - 2].id, 8);
    rpl_ctx_free(b);
    rpl_ctx_free(a);
}
END_TEST

START_TEST(test_pubkey_rejects)
{
    struct rpl_seckey *sk;
    struct rpl_pubkey pk;
    char b64[RPL_PUBKEY_B64_LEN + 1], bad[RPL_PUBKEY_B64_LEN + 8];
    uint8_t key[32];

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    rpl_pubkey_format(&pk, b64);

    /* wrong length */
    parse_fails(b64, RPL_PUBKEY_B64_LEN - 1, "56 base64 characters");
    parse_fails(b64, 0, "got 0");
    memcpy(bad, b64, RPL_PUBKEY_B64_LEN);
    memcpy(bad + RPL_PUBKEY_B64_LEN, "AAAA", 4);
    parse_fails(bad, RPL_PUBKEY_B64_LEN + 4, "got 60");

    /* bad base64: another alphabet, a blank, padding inside */
    memcpy(bad, b64, sizeof(b64));
    bad[20] = '-';
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "base64");
    bad[20] = ' ';
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "base64");
    bad[20] = '=';
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "base64");
    memcpy(bad, b64, sizeof(b64));
    bad[RPL_PUBKEY_B64_LEN - 2] = '=';
    bad[RPL_PUBKEY_B64_LEN - 1] = '=';
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "base64");

    /* wrong algorithm */
    encode_pub(bad, "ED", pk.key);
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "algorithm");
    encode_pub(bad, "RW", pk.key);
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "algorithm");
    encode_pub(bad, "Ed", pk.key);
    ck_assert_int_eq(rpl_pubkey_parse(&pk, bad, RPL_PUBKEY_B64_LEN, NULL),
                     RPL_OK);

    /* invalid points: the identity (small order), a y >= p */
    memset(key, 0, sizeof(key));
    key[0] = 1;
    encode_pub(bad, "Ed", key);
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "point");
    memset(key, 0xff, sizeof(key));
    key[31] = 0x7f;
    encode_pub(bad, "Ed", key);
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "point");
    memset(key, 0, sizeof(key));
    encode_pub(bad, "Ed", key);
    parse_fails(bad, RPL_PUBKEY_B64_LEN, "point");
    rpl_seckey_free(sk);
}
END_TEST

/* Writes a secret key file whose 158-byte structure went through edit. */
static void
write_edited_seckey(const char *path, const struct rpl_seckey *sk,
                    void (*edit)(uint8_t *raw))
{
    struct rpl_error err;
    uint8_t raw[158];
    char text[512], b64[213];
    const char *line2;
    size_t raw_len;

    ck_assert_int_eq(rpl_seckey_save(sk, path, true, &err), RPL_OK);
    read_text(path, text, sizeof(text));
    line2 = strchr(text, '\n');
    ck_assert_ptr_nonnull(line2);
    line2++;
    ck_assert_uint_eq(strlen(line2), 213);
    ck_assert_int_eq(sodium_base642bin(raw, sizeof(raw), line2, 212, NULL,
                                       &raw_len, NULL,
                                       sodium_base64_VARIANT_ORIGINAL),
                     0);
    ck_assert_uint_eq(raw_len, 158);
    edit(raw);
    sodium_bin2base64(b64, sizeof(b64), raw, sizeof(raw),
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(text, sizeof(text), "untrusted comment: edited\n%s\n", b64);
    write_file(path, text, 0600);
}

static void
edit_none(uint8_t *raw)
{
    (void)raw;
}

static void
edit_checksum(uint8_t *raw)
{
    raw[126 + 5] ^= 0x10;
}

static void
edit_zero_checksum(uint8_t *raw)
{
    memset(raw + 126, 0, 32);
}

static void
edit_encrypted(uint8_t *raw)
{
    memcpy(raw + 2, "Sc", 2);
}

static void
edit_kdf_unknown(uint8_t *raw)
{
    raw[3] = 1;
}

static void
edit_sig_alg(uint8_t *raw)
{
    memcpy(raw, "ED", 2);
}

static void
edit_chk_alg(uint8_t *raw)
{
    memcpy(raw + 4, "B3", 2);
}

/* A secret key whose public half is not its seed's, checksum fixed. */
static void
edit_public_half(uint8_t *raw)
{
    crypto_generichash_state st;

    raw[62 + 40] ^= 1;
    crypto_generichash_init(&st, NULL, 0, 32);
    crypto_generichash_update(&st, raw, 2);
    crypto_generichash_update(&st, raw + 54, 8);
    crypto_generichash_update(&st, raw + 62, 64);
    crypto_generichash_final(&st, raw + 126, 32);
}

struct sk_case {
    void (*edit)(uint8_t *raw);
    enum rpl_status code;
    const char *msg;
};

static const struct sk_case sk_cases[] = {
    {edit_none, RPL_OK, ""},
    {edit_zero_checksum, RPL_OK, ""},
    {edit_checksum, RPL_E_KEY, "checksum"},
    {edit_encrypted, RPL_E_UNSUPPORTED,
     "encrypted secret keys are not supported; create one with minisign -G "
     "-W or camelog keygen"},
    {edit_kdf_unknown, RPL_E_KEY, "key derivation"},
    {edit_sig_alg, RPL_E_KEY, "signature algorithm"},
    {edit_chk_alg, RPL_E_KEY, "checksum function"},
    {edit_public_half, RPL_E_KEY, "damaged"},
};

START_TEST(test_seckey_edits)
{
    const struct sk_case *c = &sk_cases[_i];
    struct rpl_error err;
    struct rpl_seckey *sk, *back = (struct rpl_seckey *)1;
    struct rpl_pubkey pk, pk_back;
    char path[256];

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    path_in(path, sizeof(path), "edited.key");
    write_edited_seckey(path, sk, c->edit);
    ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), c->code);
    ck_assert_int_eq(err.code, c->code);
    if (c->code == RPL_OK) {
        rpl_seckey_pubkey(back, &pk_back);
        ck_assert_mem_eq(pk_back.key, pk.key, 32);
        sign_and_check(back, &pk);
        rpl_seckey_free(back);
    } else {
        ck_assert_ptr_null(back);
        ck_assert_uint_eq(err.line, 2);
        ck_assert_msg(strstr(err.msg, c->msg), "\"%s\" lacks \"%s\"", err.msg,
                      c->msg);
    }
    rpl_seckey_free(sk);
}
END_TEST

START_TEST(test_seckey_mode)
{
    static const unsigned modes[] = {0640, 0604, 0620, 0602, 0644, 0601};
    struct rpl_error err;
    struct rpl_seckey *sk, *back;
    char path[256], want[600];

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
    path_in(path, sizeof(path), "m.key");
    ck_assert_int_eq(rpl_seckey_save(sk, path, false, &err), RPL_OK);
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        ck_assert_int_eq(chmod(path, modes[i]), 0);
        ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), RPL_E_PERM);
        ck_assert_ptr_null(back);
    }
    ck_assert_int_eq(chmod(path, 0644), 0);
    ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), RPL_E_PERM);
    snprintf(want, sizeof(want),
             "%s is readable by others (mode 0644); chmod 600 %s", path, path);
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(chmod(path, 0400), 0);
    ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), RPL_OK);
    rpl_seckey_free(back);
    rpl_seckey_free(sk);
}
END_TEST

/* A named key that is a FIFO is refused at once (opening it would wait
 * for a writer for ever), whatever its mode. */
START_TEST(test_key_fifo)
{
    struct rpl_error err;
    struct rpl_seckey *sk;
    struct rpl_pubkey pk;
    char path[256];

    path_in(path, sizeof(path), "fifo");
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    ck_assert_int_eq(rpl_seckey_load(ctx, &sk, path, &err), RPL_E_IO);
    ck_assert_ptr_null(sk);
    ck_assert_str_eq(err.msg, "not a regular file (a FIFO)");
    ck_assert_int_eq(rpl_pubkey_load(&pk, path, &err), RPL_E_IO);
    ck_assert_str_eq(err.msg, "not a regular file (a FIFO)");
    ck_assert_int_eq(rpl_seckey_load(ctx, &sk, "/dev/null", &err), RPL_E_IO);
    ck_assert_str_eq(err.msg, "not a regular file (a character device)");
}
END_TEST

/* A public key given as the secret key is named for what it is, whatever
 * its mode, instead of advising chmod 600. */
START_TEST(test_seckey_given_pubkey)
{
    static const unsigned modes[] = {0644, 0600};
    struct rpl_error err;
    struct rpl_seckey *sk, *back;
    struct rpl_pubkey pk;
    char path[256];

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    path_in(path, sizeof(path), "dealer.pub");
    ck_assert_int_eq(rpl_pubkey_save(&pk, path, false, &err), RPL_OK);
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        ck_assert_int_eq(chmod(path, modes[i]), 0);
        ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), RPL_E_KEY);
        ck_assert_ptr_null(back);
        ck_assert_str_eq(err.msg,
                         "a public key, not a secret key (give the .key "
                         "file)");
    }
    rpl_seckey_free(sk);
}
END_TEST

struct file_case {
    const char *text; /* '@' stands for a valid public key */
    size_t line;
};

static const struct file_case pub_file_cases[] = {
    {"untrusted comment: x\n@\n", 0},
    {"untrusted comment: x\r\n@\r\n", 0},
    {"untrusted comment: x\n@", 0},
    {"", 1},
    {"@\n", 1},
    {"trusted comment: x\n@\n", 1},
    {"untrusted comment: x\n", 2},
    {"untrusted comment: x", 2},
    {"untrusted comment: x\n\n@\n", 2},
    {"untrusted comment: x\n @\n", 2},
    {"untrusted comment: x\n@\n\n", 3},
    {"untrusted comment: x\n@\nmore\n", 3},
};

START_TEST(test_pubkey_files)
{
    const struct file_case *c = &pub_file_cases[_i];
    struct rpl_error err;
    struct rpl_seckey *sk;
    struct rpl_pubkey pk, back;
    char b64[RPL_PUBKEY_B64_LEN + 1], text[256] = "", path[256];

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    rpl_pubkey_format(&pk, b64);
    for (const char *t = c->text; *t; t++) {
        const size_t at = strlen(text);

        ck_assert_uint_lt(at + sizeof(b64), sizeof(text));
        if (*t == '@') {
            memcpy(text + at, b64, sizeof(b64));
        } else {
            text[at] = *t;
            text[at + 1] = '\0';
        }
    }
    path_in(path, sizeof(path), "p.pub");
    write_file(path, text, 0644);
    ck_assert_int_eq(rpl_pubkey_load(&back, path, &err),
                     c->line ? RPL_E_KEY : RPL_OK);
    if (c->line == 0)
        ck_assert_mem_eq(back.key, pk.key, 32);
    else
        ck_assert_uint_eq(err.line, c->line);
    rpl_seckey_free(sk);
}
END_TEST

START_TEST(test_key_file_limits)
{
    struct rpl_error err;
    struct rpl_pubkey pk;
    struct rpl_seckey *sk;
    char path[256], *big;

    path_in(path, sizeof(path), "big");
    big = malloc(RPL_MAX_KEYFILE + 2);
    ck_assert_ptr_nonnull(big);
    memset(big, 'A', RPL_MAX_KEYFILE + 1);
    memcpy(big, "untrusted comment: ", 19);
    big[RPL_MAX_KEYFILE + 1] = '\0';
    write_file(path, big, 0600);
    ck_assert_int_eq(rpl_pubkey_load(&pk, path, &err), RPL_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(err.msg, "RPL_MAX_KEYFILE"));
    ck_assert_int_eq(rpl_seckey_load(ctx, &sk, path, &err), RPL_E_LIMIT);
    /* at the limit it is read, and refused for what it is */
    big[RPL_MAX_KEYFILE] = '\0';
    write_file(path, big, 0600);
    ck_assert_int_eq(rpl_pubkey_load(&pk, path, &err), RPL_E_KEY);
    ck_assert_uint_eq(err.line, 2);
    free(big);

    /* missing files */
    path_in(path, sizeof(path), "missing");
    ck_assert_int_eq(rpl_pubkey_load(&pk, path, &err), RPL_E_IO);
    ck_assert_int_eq(rpl_seckey_load(ctx, &sk, path, &err), RPL_E_IO);
}
END_TEST

START_TEST(test_seckey_bad_base64)
{
    struct rpl_error err;
    struct rpl_seckey *sk, *back;
    char path[256], text[512], *line2;
    size_t n;

    ck_assert_int_eq(rpl_seckey_generate(ctx, &sk, NULL), RPL_OK);
    path_in(path, sizeof(path), "b.key");
    ck_assert_int_eq(rpl_seckey_save(sk, path, false, &err), RPL_OK);
    read_text(path, text, sizeof(text));
    ck_assert_str_eq(strtok(text, "\n"),
                     "untrusted comment: camelog secret key");
    line2 = text + strlen(text) + 1;
    n = strlen(line2);
    ck_assert_uint_eq(n, 213); /* 212 characters and LF */
    ck_assert_int_eq(line2[211], '=');
    ck_assert_int_ne(line2[210], '=');
    text[strlen(text)] = '\n';

    /* 158 = 3 * 52 + 2: the last character before '=' carries two unused
     * bits; setting one is a non-canonical spelling of the same bytes */
    {
        static const char alphabet[] =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char *at = strchr(alphabet, line2[210]);
        const char saved = line2[210];

        ck_assert_ptr_nonnull(at);
        ck_assert_int_eq((at - alphabet) & 3, 0);
        line2[210] = alphabet[(at - alphabet) | 1];
        write_file(path, text, 0600);
        ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), RPL_E_KEY);
        ck_assert_uint_eq(err.line, 2);
        ck_assert_ptr_nonnull(strstr(err.msg, "base64"));
        line2[210] = saved;
    }
    /* a character outside the alphabet */
    line2[100] = '_';
    write_file(path, text, 0600);
    ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), RPL_E_KEY);
    ck_assert_uint_eq(err.line, 2);
    /* a public key where the secret key should be */
    {
        struct rpl_pubkey pk;
        char b64[RPL_PUBKEY_B64_LEN + 1];

        rpl_seckey_pubkey(sk, &pk);
        rpl_pubkey_format(&pk, b64);
        snprintf(text, sizeof(text), "untrusted comment: x\n%s\n", b64);
        write_file(path, text, 0600);
        ck_assert_int_eq(rpl_seckey_load(ctx, &back, path, &err), RPL_E_KEY);
    }
    rpl_seckey_free(sk);
}
END_TEST

START_TEST(test_pubkey_file_format)
{
    struct rpl_error err;
    struct rpl_pubkey pk;
    char path[256], text[256], want[256], b64[RPL_PUBKEY_B64_LEN + 1];
    uint8_t seed[32] = {7};
    struct rpl_seckey *sk;

    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, NULL), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    /* a known id shows the byte order: minisign prints the id as a
     * little-endian number */
    for (int i = 0; i < 8; i++)
        pk.id[i] = (uint8_t)(0x10 * (i + 1) + 0x0a);
    rpl_pubkey_format(&pk, b64);
    path_in(path, sizeof(path), "f.pub");
    ck_assert_int_eq(rpl_pubkey_save(&pk, path, false, &err), RPL_OK);
    read_text(path, text, sizeof(text));
    snprintf(want, sizeof(want),
             "untrusted comment: minisign public key 8A7A6A5A4A3A2A1A\n%s\n",
             b64);
    ck_assert_str_eq(text, want);
    rpl_seckey_free(sk);
}
END_TEST

/* minisign prints the key id without leading zeros (found by CI: a key
 * whose id starts with 0x00 one time in 256). */
START_TEST(test_pubkey_comment_no_leading_zeros)
{
    struct rpl_error err;
    struct rpl_pubkey pk;
    char path[256], text[256];
    uint8_t seed[32];
    struct rpl_seckey *sk;

    memset(seed, 7, sizeof(seed));
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, &err), RPL_OK);
    rpl_seckey_pubkey(sk, &pk);
    rpl_seckey_free(sk);
    memcpy(pk.id, "\x8e\x57\xec\xa8\x2b\x62\xfa\x00", 8);
    path_in(path, sizeof(path), "zero.pub");
    ck_assert_int_eq(rpl_pubkey_save(&pk, path, true, &err), RPL_OK);
    read_text(path, text, sizeof(text));
    ck_assert_msg(strncmp(text,
                          "untrusted comment: minisign public key "
                          "FA622BA8EC578E\n",
                          53) == 0,
                  "%s", text);
}
END_TEST

START_TEST(test_minisign_interop)
{
    struct rpl_error err;
    struct rpl_seckey *sk, *ours;
    struct rpl_pubkey pk_from_sk, pk_file, ours_pk;
    char sk_path[256], pk_path[256], again[256], cmd[1400];
    char theirs_text[256], again_text[256], msg[256];

    if (access(MINISIGN, X_OK) != 0)
        return;
    path_in(sk_path, sizeof(sk_path), "m.key");
    path_in(pk_path, sizeof(pk_path), "m.pub");
    snprintf(cmd, sizeof(cmd),
             MINISIGN " -G -W -p '%s' -s '%s' </dev/null >/dev/null 2>&1",
             pk_path, sk_path);
    ck_assert_int_eq(run(cmd), 0);

    /* minisign's key pair loads, and agrees with itself */
    ck_assert_int_eq(rpl_seckey_load(ctx, &sk, sk_path, &err), RPL_OK);
    ck_assert_int_eq(rpl_pubkey_load(&pk_file, pk_path, &err), RPL_OK);
    rpl_seckey_pubkey(sk, &pk_from_sk);
    ck_assert_mem_eq(pk_from_sk.id, pk_file.id, 8);
    ck_assert_mem_eq(pk_from_sk.key, pk_file.key, 32);
    sign_and_check(sk, &pk_file);

    /* our public key file is byte for byte minisign's */
    path_in(again, sizeof(again), "again.pub");
    ck_assert_int_eq(rpl_pubkey_save(&pk_from_sk, again, false, &err), RPL_OK);
    read_text(pk_path, theirs_text, sizeof(theirs_text));
    read_text(again, again_text, sizeof(again_text));
    ck_assert_str_eq(again_text, theirs_text);
    rpl_seckey_free(sk);

    /* and minisign signs with our secret key and verifies with our
     * public key */
    ck_assert_int_eq(rpl_seckey_generate(ctx, &ours, &err), RPL_OK);
    rpl_seckey_pubkey(ours, &ours_pk);
    path_in(sk_path, sizeof(sk_path), "ours.key");
    path_in(pk_path, sizeof(pk_path), "ours.pub");
    path_in(msg, sizeof(msg), "msg");
    ck_assert_int_eq(rpl_seckey_save(ours, sk_path, false, &err), RPL_OK);
    ck_assert_int_eq(rpl_pubkey_save(&ours_pk, pk_path, false, &err), RPL_OK);
    write_file(msg, "a message\n", 0644);
    snprintf(cmd, sizeof(cmd),
             MINISIGN " -S -s '%s' -m '%s' </dev/null >/dev/null 2>&1", sk_path,
             msg);
    ck_assert_int_eq(run(cmd), 0);
    snprintf(cmd, sizeof(cmd),
             MINISIGN " -V -p '%s' -m '%s' </dev/null >/dev/null 2>&1", pk_path,
             msg);
    ck_assert_int_eq(run(cmd), 0);
    /* a changed message fails (the check above could fail) */
    write_file(msg, "another message\n", 0644);
    ck_assert_int_ne(run(cmd), 0);
    rpl_seckey_free(ours);
}
END_TEST

#define KEYS_DIR "tests/data/keys/"

/* Copies a fixture into tmpdir as a 0600 file (git keeps files 0644). */
static void
copy_fixture(const char *name, char *out, size_t cap)
{
    char text[1024];

    ck_assert_msg(access(KEYS_DIR "README", R_OK) == 0,
                  "run the tests from the top of the source tree");
    {
        char src[256];

        snprintf(src, sizeof(src), KEYS_DIR "%s", name);
        read_text(src, text, sizeof(text));
    }
    path_in(out, cap, name);
    write_file(out, text, 0600);
}

struct fixture_case {
    const char *key;
    const char *pub;
    enum rpl_status code;
};

static const struct fixture_case fixture_cases[] = {
    {"minisign-w.key", "minisign-w.pub", RPL_OK},
    {"minisign-nopw.key", "minisign-nopw.pub", RPL_OK},
    {"minisign-enc.key", NULL, RPL_E_UNSUPPORTED},
};

START_TEST(test_minisign_fixtures)
{
    const struct fixture_case *c = &fixture_cases[_i];
    struct rpl_error err;
    struct rpl_seckey *sk;
    struct rpl_pubkey from_sk, pk;
    char path[256], pub[256], saved[256], text[256], want[256];

    copy_fixture(c->key, path, sizeof(path));
    ck_assert_int_eq(rpl_seckey_load(ctx, &sk, path, &err), c->code);
    if (c->code != RPL_OK) {
        ck_assert_uint_eq(err.line, 2);
        ck_assert_str_eq(err.msg,
                         "encrypted secret keys are not supported; create "
                         "one with minisign -G -W or camelog keygen");
        return;
    }
    snprintf(pub, sizeof(pub), KEYS_DIR "%s", c->pub);
    ck_assert_int_eq(rpl_pubkey_load(&pk, pub, &err), RPL_OK);
    rpl_seckey_pubkey(sk, &from_sk);
    ck_assert_mem_eq(from_sk.id, pk.id, 8);
    ck_assert_mem_eq(from_sk.key, pk.key, 32);
    sign_and_check(sk, &pk);

    /* saved again, the public key file is minisign's byte for byte */
    path_in(saved, sizeof(saved), "saved.pub");
    ck_assert_int_eq(rpl_pubkey_save(&pk, saved, false, &err), RPL_OK);
    read_text(saved, text, sizeof(text));
    read_text(pub, want, sizeof(want));
    ck_assert_str_eq(text, want);

    /* and the secret key saved by us loads again */
    path_in(saved, sizeof(saved), "saved.key");
    ck_assert_int_eq(rpl_seckey_save(sk, saved, false, &err), RPL_OK);
    rpl_seckey_free(sk);
    ck_assert_int_eq(rpl_seckey_load(ctx, &sk, saved, &err), RPL_OK);
    rpl_seckey_pubkey(sk, &from_sk);
    ck_assert_mem_eq(from_sk.key, pk.key, 32);
    rpl_seckey_free(sk);
}
END_TEST

/* An allocator that can be told to fail. */
static void *
maybe_alloc(void *ud, size_t size)
{
    return *(bool *)ud ? NULL : malloc(size);
}

static void *
maybe_realloc(void *ud, void *ptr, size_t size)
{
    return *(bool *)ud ? NULL : realloc(ptr, size);
}

static void
plain_free(void *ud, void *ptr)
{
    (void)ud;
    free(ptr);
}

START_TEST(test_seckey_load_nomem)
{
    bool fail = false;
    const struct rpl_allocator a = {maybe_alloc, maybe_realloc, plain_free,
                                    &fail};
    struct rpl_ctx *fctx;
    struct rpl_error err;
    struct rpl_seckey *sk, *back;
    char path[256];

    ck_assert_int_eq(rpl_ctx_new(&fctx, &a, &err), RPL_OK);
    ck_assert_int_eq(rpl_seckey_generate(fctx, &sk, &err), RPL_OK);
    path_in(path, sizeof(path), "n.key");
    ck_assert_int_eq(rpl_seckey_save(sk, path, false, &err), RPL_OK);
    fail = true;
    ck_assert_int_eq(rpl_seckey_load(fctx, &back, path, &err), RPL_E_NOMEM);
    ck_assert_ptr_null(back);
    fail = false;
    ck_assert_int_eq(rpl_seckey_load(fctx, &back, path, &err), RPL_OK);
    rpl_seckey_free(back);
    rpl_seckey_free(sk);
    rpl_ctx_free(fctx);
}
END_TEST

Suite *
keys_suite(void)
{
    Suite *s = suite_create("keys");
    TCase *tc = tcase_create("keys");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_generate_save_load);
    tcase_add_test(tc, test_generate_is_fresh);
    tcase_add_test(tc, test_from_seed);
    tcase_add_test(tc, test_pubkey_round_trip);
    tcase_add_test(tc, test_pubkey_rejects);
    tcase_add_test(tc, test_pubkey_parse_cached);
    tcase_add_test(tc, test_ctx_learn);
    tcase_add_loop_test(tc, test_seckey_edits, 0,
                        sizeof(sk_cases) / sizeof(sk_cases[0]));
    tcase_add_test(tc, test_seckey_mode);
    tcase_add_test(tc, test_key_fifo);
    tcase_add_test(tc, test_seckey_given_pubkey);
    tcase_add_loop_test(tc, test_pubkey_files, 0,
                        sizeof(pub_file_cases) / sizeof(pub_file_cases[0]));
    tcase_add_test(tc, test_key_file_limits);
    tcase_add_test(tc, test_seckey_bad_base64);
    tcase_add_test(tc, test_pubkey_file_format);
    tcase_add_test(tc, test_pubkey_comment_no_leading_zeros);
    tcase_add_test(tc, test_minisign_interop);
    tcase_add_loop_test(tc, test_minisign_fixtures, 0,
                        sizeof(fixture_cases) / sizeof(fixture_cases[0]));
    tcase_add_test(tc, test_seckey_load_nomem);
    suite_add_tcase(s, tc);
    return s;
}
