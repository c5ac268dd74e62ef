/*
 * fuzz_tlog.c - libFuzzer target for the readers of a public log of
 * games: the first byte chooses what the rest is.
 *
 *   0  a checkpoint (a signed note), verified with a fixed key; one that
 *      verifies must say what was signed
 *   1  a proof as text; one that parses must format back to the same
 *      text, and is checked against a fixed checkpoint (either kind)
 *   2  an entry of the log (a game's start or end)
 *   3  a file of a log directory (byte 2 chooses which: a full or
 *      partial hash tile of level 0 or 1, a bundle, the checkpoint, the
 *      writer's state), written over that file of a log of 300 entries,
 *      which is then opened (read-only and for appending), audited, read
 *      and proved from
 *
 * Build and run: make fuzz.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ENTRIES 300

static struct rpl_ctx *ctx;
static struct rpl_seckey *sk;
static struct rpl_pubkey pk;
static struct rpl_tlog_checkpoint cp;
static char dir[64], rw[96], ro[96];

/* The files of the log that an input may replace. */
static const char *const names[] = {
    "tile/0/000",       "tile/0/001.p/44",       "tile/1/000.p/1",
    "tile/entries/000", "tile/entries/001.p/44", "checkpoint",
    "camelog-tlog",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static uint8_t *saved[NNAMES][2];
static size_t saved_len[NNAMES][2];

static uint8_t *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0)
        abort();
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
        abort();
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void
spit(const char *path, const uint8_t *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        abort();
}

/* Two copies of one log of ENTRIES entries: rw with the writer's state,
 * ro without (as served). */
static void
setup(void)
{
    struct rpl_tlog *t = NULL;
    uint8_t seed[32];
    char cmd[400];

    if (rpl_ctx_new(&ctx, NULL, NULL) != RPL_OK)
        abort();
    memset(seed, 9, sizeof(seed));
    if (rpl_seckey_from_seed(ctx, &sk, seed, NULL) != RPL_OK)
        abort();
    rpl_seckey_pubkey(sk, &pk);
    strcpy(dir, "/tmp/camelog-fuzz-tlog-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    snprintf(rw, sizeof(rw), "%s/rw", dir);
    snprintf(ro, sizeof(ro), "%s/ro", dir);
    if (rpl_tlog_create(ctx, &t, rw, "example.org/fuzz", NULL) != RPL_OK)
        abort();
    for (size_t i = 0; i < ENTRIES; i++) {
        char e[32];
        const void *p = e;
        const size_t n = (size_t)snprintf(e, sizeof(e), "entry %zu", i);

        if (rpl_tlog_append(t, &p, &n, 1, NULL) != RPL_OK)
            abort();
    }
    if (rpl_tlog_sign(t, sk, &cp, NULL) != RPL_OK)
        abort();
    rpl_tlog_close(t);
    snprintf(cmd, sizeof(cmd), "cp -r %s %s && rm %s/camelog-tlog", rw, ro, ro);
    if (system(cmd) != 0)
        abort();
    for (size_t k = 0; k < NNAMES; k++) {
        char path[160];

        snprintf(path, sizeof(path), "%s/%s", rw, names[k]);
        saved[k][0] = slurp(path, &saved_len[k][0]);
        snprintf(path, sizeof(path), "%s/%s", ro, names[k]);
        saved[k][1] = slurp(path, &saved_len[k][1]);
    }
}

static void
fuzz_dir(const char *root, int copy, size_t k, const uint8_t *data, size_t size)
{
    struct rpl_tlog *t = NULL;
    struct rpl_tlog_proof proof;
    struct rpl_tlog_checkpoint got;
    struct rpl_error err;
    uint8_t root_hash[32];
    char path[160];

    snprintf(path, sizeof(path), "%s/%s", root, names[k]);
    spit(path, data, size);
    if (rpl_tlog_open(ctx, &t, root, &err) == RPL_OK) {
        const uint64_t n = rpl_tlog_size(t);

        if (rpl_tlog_audit(t, &pk, NULL, &got, &err) == RPL_OK &&
            (got.size != cp.size || memcmp(got.root, cp.root, 32) != 0))
            abort(); /* a changed file that audits is the same log */
        if (n > 0) {
            const uint8_t *e;
            size_t len;
            const uint64_t i = size % n;

            (void)rpl_tlog_entry(t, i, n, &e, &len, &err);
            (void)rpl_tlog_root(t, n, root_hash, &err);
            if (rpl_tlog_prove_inclusion(t, i, n, &proof, &err) == RPL_OK)
                (void)rpl_tlog_verify_inclusion(&cp, &proof, NULL, 0, &err);
            if (rpl_tlog_prove_consistency(t, i + 1, n, &proof, &err) == RPL_OK)
                (void)rpl_tlog_verify_consistency(&cp, &cp, &proof, &err);
        }
        rpl_tlog_close(t);
    } else if (err.code == RPL_OK) {
        abort(); /* a failure must say what failed */
    }
    /* Put the file back as it was (or remove it if it was not there). */
    if (saved[k][copy])
        spit(path, saved[k][copy], saved_len[k][copy]);
    else
        unlink(path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rpl_tlog_checkpoint got;
    struct rpl_tlog_proof proof, back;
    struct rpl_tlog_game g;
    struct rpl_error err;

    if (!ctx)
        setup();
    if (size < 1)
        return 0;
    const uint8_t *p = data + 1;
    const size_t n = size - 1;
    switch (data[0] % 4) {
    case 0:
        if (rpl_tlog_checkpoint_parse((const char *)p, n, &pk, NULL, &got,
                                      &err) == RPL_OK &&
            got.origin[0] == '\0')
            abort();
        break;
    case 1:
        if (rpl_tlog_proof_parse((const char *)p, n, &proof, &err) == RPL_OK) {
            char *text = NULL;

            if (rpl_tlog_proof_format(ctx, &proof, &text, &err) != RPL_OK ||
                strlen(text) != n || memcmp(text, p, n) != 0 ||
                rpl_tlog_proof_parse(text, n, &back, &err) != RPL_OK)
                abort(); /* only the canonical text parses */
            rpl_free(ctx, text);
            if (proof.kind == RPL_TLOG_INCLUSION)
                (void)rpl_tlog_verify_inclusion(&cp, &proof, p, n, &err);
            else
                (void)rpl_tlog_verify_consistency(&cp, &cp, &proof, &err);
        }
        break;
    case 2:
        if (rpl_tlog_game_parse(p, n, &g, &err) == RPL_OK &&
            (strlen(g.id) != 32 || !memchr(g.end, '\0', sizeof(g.end))))
            abort();
        break;
    default:
        if (n < 1)
            return 0;
        fuzz_dir(p[0] & 1 ? ro : rw, p[0] & 1, (size_t)(p[0] >> 1) % NNAMES,
                 p + 1, n - 1);
        break;
    }
    return 0;
}
