/*
 * fuzz_import.c - libFuzzer target for the importer of another system's
 * records (rpl_import, format "avalongame": the JSON game logs of
 * avalongame.online) and for the delivery forms a seat reads
 * (rpl_delivery_parse, text and JSON).  A record that imports must give
 * a log that verifies as complete with the importer's key; a delivery
 * that parses must format back and parse to the same delivery.
 *
 * Build and run: make fuzz.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
delivery_round_trip(const uint8_t *data, size_t size)
{
    struct rpl_delivery d, back;
    char text[RPL_DELIVERY_MAX];
    size_t n;

    if (rpl_delivery_parse((const char *)data, size, &d, NULL) != RPL_OK)
        return;
    n = rpl_delivery_format(&d, text, sizeof(text));
    if (n == 0 || rpl_delivery_parse(text, n, &back, NULL) != RPL_OK ||
        strcmp(back.label, d.label) != 0 || strcmp(back.value, d.value) != 0 ||
        back.line != d.line ||
        memcmp(back.nonce, d.nonce, sizeof(d.nonce)) != 0)
        abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t seed[32] = {1};
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk = NULL;
    struct rpl_import_opts o;
    struct rpl_import_report rep;
    struct rpl_log *log = NULL;
    struct rpl_verify_opts vo;
    struct rpl_report vr;
    struct rpl_pubkey pk;
    struct rpl_error err;

    delivery_round_trip(data, size);
    if (rpl_ctx_new(&ctx, NULL, NULL) != RPL_OK ||
        rpl_seckey_from_seed(ctx, &sk, seed, NULL) != RPL_OK)
        abort();
    memset(&o, 0, sizeof(o));
    o.dealer = sk;
    o.seed = seed;
    o.seed_len = sizeof(seed);
    if (rpl_import(ctx, "avalongame", "2020-01-01T00-00-00.000Z_FUZ", data,
                   size, &o, &log, &rep, &err) == RPL_OK) {
        rpl_seckey_pubkey(sk, &pk);
        memset(&vo, 0, sizeof(vo));
        vo.pubkey = &pk;
        if (rpl_log_verify(log, &vo, &vr) != RPL_OK ||
            vr.progress != RPL_PROGRESS_COMPLETE || !vr.is_imported)
            abort();
        rpl_log_free(log);
    } else if (log) {
        abort();
    }
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
    return 0;
}
