/*
 * db.c - opening and closing an archive over the backend door
 * (backend.h): which backend takes the path or URI, the tables of its
 * schema, and what every backend's handle shares.  The connection, the
 * schema's creation and migrations are the backend's own.
 */
#include <string.h>

#include "archive.h"

/* The backends, the default last: the first that claims a path or URI
 * takes it. */
static const struct rpl__backend *const backends[] = {
    &rpl__backend_pg,
    &rpl__backend_sqlite,
};

enum rpl_status
rpl_archive_open(struct rpl_ctx *ctx, struct rpl_archive **out,
                 const char *path, enum rpl_archive_mode mode,
                 struct rpl_error *err)
{
    struct rpl_archive *ar = NULL;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    if (mode != RPL_ARCHIVE_READ && mode != RPL_ARCHIVE_WRITE &&
        mode != RPL_ARCHIVE_CREATE)
        return rpl__err(err, RPL_E_ARG, 0, "unknown archive mode %d",
                        (int)mode);
    ar = rpl__calloc(ctx, 1, sizeof(*ar));
    if (!ar)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    ar->ctx = ctx;
    ar->is_readonly = mode == RPL_ARCHIVE_READ;
    for (size_t i = 0; !ar->be; i++)
        if (backends[i]->claims(path))
            ar->be = backends[i];
    rc = rpl__ar_schema_tables(ar, err);
    if (rc == RPL_OK)
        rc = ar->be->open(ar, path, mode, err);
    if (rc != RPL_OK) {
        rpl_archive_close(ar);
        return rc;
    }
    *out = ar;
    return RPL_OK;
}

const char *
rpl_archive_warning(const struct rpl_archive *ar)
{
    return ar->warning;
}

void
rpl_archive_close(struct rpl_archive *ar)
{
    if (!ar)
        return;
    for (size_t t = 0; t < RPL__AR_NTARGETS; t++)
        for (size_t i = 0; i < RPL__AR_NINS; i++)
            rpl__st_finalize(ar->ins[t][i]);
    for (size_t t = 0; t < RPL__AR_NTARGETS; t++)
        for (size_t i = 0; i < RPL__AR_MAX_TABLES; i++)
            rpl__st_finalize(ar->ins_table[t][i]);
    for (size_t i = 0; i < RPL__AR_NSTMT; i++)
        rpl__st_finalize(ar->st[i]);
    for (size_t i = 0; i < RPL__AR_MAX_READS; i++)
        rpl__st_finalize(ar->read[i].st);
    ar->be->close(ar);
    rpl__free(ar->ctx, ar->warning);
    rpl__free(ar->ctx, ar);
}

unsigned
rpl_archive_version(const struct rpl_archive *ar)
{
    return ar->version;
}

enum rpl_status
rpl_archive_sql(struct rpl_archive *ar, const char *sql,
                bool (*each)(void *ud, size_t ncols, const char *const *names,
                             const char *const *values,
                             const enum rpl_sql_type *types),
                void *ud, struct rpl_error *err)
{
    rpl__err_clear(err);
    return ar->be->sql(ar, sql, each, ud, err);
}
