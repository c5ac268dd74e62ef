/*
 * log_write.c - writing a log as its file: one gzip member, written
 * atomically, the directory synced at once (rpl_log_write()) or by the
 * caller after a batch of files (rpl_log_write_deferred(),
 * rpl_dir_sync() in gz.c).
 */
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
