/*
 * fuzz_keys.c - libFuzzer target for the key file readers: the input as
 * a secret key file (rpl_seckey_load, mode 0600 so the parser is
 * reached) and as a public key file (rpl_pubkey_load), and as the
 * 56-character form of --pubkey (rpl_pubkey_parse).  A key that loads
 * must save and load back to the same key.
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

/* One temporary directory for the process; each input is written to
 * the same file in it. */
static char dir[64];
static char path[96], again[96];

static void
write_input(const uint8_t *data, size_t size)
{
    FILE *f;

    if (dir[0] == '\0') {
        strcpy(dir, "/tmp/camelog-fuzz-keys-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        snprintf(path, sizeof(path), "%s/key", dir);
        snprintf(again, sizeof(again), "%s/again", dir);
    }
    f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    if (chmod(path, 0600) != 0)
        abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk = NULL, *back = NULL;
    struct rpl_pubkey pk, pk2;
    struct rpl_error err;

    if (rpl_ctx_new(&ctx, NULL, NULL) != RPL_OK)
        abort();
    write_input(data, size);
    if (rpl_seckey_load(ctx, &sk, path, &err) == RPL_OK) {
        if (rpl_seckey_save(sk, again, true, NULL) != RPL_OK ||
            rpl_seckey_load(ctx, &back, again, NULL) != RPL_OK)
            abort();
        rpl_seckey_pubkey(sk, &pk);
        rpl_seckey_pubkey(back, &pk2);
        if (memcmp(&pk, &pk2, sizeof(pk)) != 0)
            abort();
        rpl_seckey_free(back);
        rpl_seckey_free(sk);
    } else if (err.code == RPL_OK) {
        abort(); /* a failure must say what failed */
    }
    if (rpl_pubkey_load(&pk, path, &err) == RPL_OK) {
        if (rpl_pubkey_save(&pk, again, true, NULL) != RPL_OK ||
            rpl_pubkey_load(&pk2, again, NULL) != RPL_OK ||
            memcmp(&pk, &pk2, sizeof(pk)) != 0)
            abort();
    } else if (err.code == RPL_OK) {
        abort();
    }
    if (rpl_pubkey_parse(&pk, (const char *)data, size, NULL) == RPL_OK) {
        char b64[RPL_PUBKEY_B64_LEN + 1];

        rpl_pubkey_format(&pk, b64);
        if (size != RPL_PUBKEY_B64_LEN || memcmp(b64, data, size) != 0)
            abort(); /* only the canonical form parses */
    }
    rpl_ctx_free(ctx);
    return 0;
}
