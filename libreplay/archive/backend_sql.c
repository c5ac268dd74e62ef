/*
 * backend_sql.c - what the SQL backends share behind the door
 * (backend.h): a game's read of its rows (struct rpl__read, games/game.h)
 * made into a SELECT of the named columns of one game's rows, prepared
 * once per handle and read back as cells.  The names were checked
 * against the schema (rpl__ar_read(), stmt.c); gid is a parameter.
 */
#include <string.h>

#include "archive.h"

/* The statement of a read: kept in ar->read by the read it serves (the
 * same constant table, columns and order: a read may be a copy), or
 * prepared for this call alone (*is_kept false) when they are full. */
static enum rpl_status
read_stmt(struct rpl_archive *ar, const struct rpl__read *rd,
          struct rpl__st **out, bool *is_kept, struct rpl_error *err)
{
    struct rpl__buf b;
    char *sql = NULL;
    size_t slot = RPL__AR_MAX_READS;
    enum rpl_status rc;

    for (size_t i = 0; i < RPL__AR_MAX_READS; i++) {
        const struct rpl__read *k = &ar->read[i].rd;

        if (k->table == rd->table && k->col == rd->col &&
            k->ncols == rd->ncols && k->order == rd->order) {
            *out = ar->read[i].st;
            *is_kept = true;
            return RPL_OK;
        }
        if (!k->table && slot == RPL__AR_MAX_READS)
            slot = i;
    }
    rpl__buf_init(&b, ar->ctx);
    rpl__buf_puts(&b, "SELECT ");
    for (size_t c = 0; c < rd->ncols; c++)
        rpl__buf_printf(&b, "%s%s", c ? ", " : "", rd->col[c].name);
    rpl__buf_printf(&b, " FROM main.%s WHERE gid = ?1", rd->table);
    for (size_t o = 0; rd->order && rd->order[o]; o++)
        rpl__buf_printf(&b, "%s%s", o ? ", " : " ORDER BY ", rd->order[o]);
    rc = rpl__buf_take(&b, &sql, err);
    if (rc != RPL_OK)
        return rc;
    *is_kept = slot < RPL__AR_MAX_READS;
    rc = rpl__ar_prepare(ar, sql, out, *is_kept, err);
    rpl_free(ar->ctx, sql);
    if (rc == RPL_OK && *is_kept) {
        ar->read[slot].rd = *rd;
        ar->read[slot].st = *out;
    }
    return rc;
}

enum rpl_status
rpl__sql_read_rows(struct rpl_archive *ar, const struct rpl__read *rd,
                   int64_t gid, rpl__row_fn each, void *ud,
                   struct rpl_error *err)
{
    struct rpl__cell cell[RPL__READ_MAX_COLS];
    struct rpl__st *st = NULL;
    bool is_kept = false;
    enum rpl_status rc;
    int src;

    rc = read_stmt(ar, rd, &st, &is_kept, err);
    if (rc != RPL_OK)
        return rc;
    rpl__st_bind_int(st, 1, gid);
    while ((src = rpl__st_step(st)) == RPL__DB_ROW) {
        for (size_t c = 0; c < rd->ncols; c++) {
            if (st->be->is_null(st, (int)c))
                cell[c] = rpl__cell_null();
            else if (rd->col[c].kind == RPL__CELL_INT)
                cell[c] = rpl__cell_int(rpl__st_int(st, (int)c));
            else
                cell[c] = rpl__cell_text(rpl__ar_col_text(st, (int)c));
        }
        rc = each(ud, cell, rd->ncols, err);
        if (rc != RPL_OK)
            break;
    }
    if (rc == RPL_OK && src != RPL__DB_DONE)
        rc = rpl__ar_fail(ar, err, src, "cannot read the archive");
    if (is_kept)
        rpl__ar_done(st);
    else
        rpl__st_finalize(st);
    return rc;
}
