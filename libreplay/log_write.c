/*
 * log_write.c - a log written back: as its file, one gzip member, written
 * atomically, the directory synced at once (rpl_log_write()) or by the
 * caller after a batch of files (rpl_log_write_deferred(),
 * rpl_dir_sync() in gz.c); and every seal signed again
 * (rpl_log_reseal()).  Moved out of log.c, which reads and replays.
 */
#include <string.h>

#include <sodium.h>

#include "internal.h"
#include "log.h"

static enum rpl_status
log_write(const struct rpl_log *log, const char *path, bool force,
          bool is_dir_synced, struct rpl_error *err)
{
    uint8_t *gz = NULL;
    size_t gz_len = 0;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = rpl__gz_deflate(log->ctx, log->text, log->len, &gz, &gz_len, err);
    if (rc != RPL_OK)
        return rc;
    if (gz_len > RPL_MAX_COMPRESSED)
        rc = rpl__err(err, RPL_E_LIMIT, 0,
                      "the compressed log would be over %u bytes "
                      "(RPL_MAX_COMPRESSED)",
                      RPL_MAX_COMPRESSED);
    else
        rc = rpl__file_write(path, gz, gz_len, 0644, force, is_dir_synced, err);
    rpl__free(log->ctx, gz);
    return rc;
}

enum rpl_status
rpl_log_write(const struct rpl_log *log, const char *path, bool force,
              struct rpl_error *err)
{
    return log_write(log, path, force, true, err);
}

enum rpl_status
rpl_log_write_deferred(const struct rpl_log *log, const char *path, bool force,
                       struct rpl_error *err)
{
    return log_write(log, path, force, false, err);
}

enum rpl_status
rpl_log_reseal(struct rpl_log *log, const struct rpl_seckey *sk,
               struct rpl_error *err)
{
    uint8_t head[RPL__HASH] = {0};
    struct rpl_pubkey pk;
    struct rpl_pubkey dealer;
    bool has_dealer = false;
    struct rpl__line ln;
    enum rpl_status rc;

    rpl__err_clear(err);
    rpl_seckey_pubkey(sk, &pk);
    for (size_t no = 1; no <= log->nlines; no++) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        if (len > 7 && memcmp(text, "dealer ", 7) == 0 && !has_dealer) {
            rc = rpl_pubkey_parse(&dealer, text + 7, len - 7, err);
            if (rc != RPL_OK) {
                err->line = no;
                return rc;
            }
            if (memcmp(&dealer, &pk, sizeof(pk)) != 0)
                return rpl__err(err, RPL_E_KEY, no,
                                "the dealer line names another key than "
                                "the one given");
            has_dealer = true;
        }
        if (len > 5 && memcmp(text, "seal ", 5) == 0) {
            uint8_t sig[64];
            char b64[sodium_base64_ENCODED_LEN(64,
                                               sodium_base64_VARIANT_ORIGINAL)];

            if (!has_dealer)
                return rpl__err(err, RPL_E_SEAL, no,
                                "seal before the dealer line");
            rc = rpl__line_split(&ln, text, len, no, err);
            if (rc != RPL_OK)
                return rc;
            if (ln.ntok != 2 || ln.tok[1].n != sizeof(b64) - 1)
                return rpl__err(err, RPL_E_SYNTAX, no,
                                "expected \"seal <base64 signature>\"");
            rpl__seal_sign(sk, head, sig);
            sodium_bin2base64(b64, sizeof(b64), sig, sizeof(sig),
                              sodium_base64_VARIANT_ORIGINAL);
            /* Same length: the line is rewritten in place. */
            memcpy(log->text + log->start[no - 1] + 5, b64, sizeof(b64) - 1);
        }
        rpl__chain(head, text, len);
    }
    log->is_verified = false;
    log->pos = SIZE_MAX;
    return RPL_OK;
}
