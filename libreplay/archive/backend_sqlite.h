/*
 * backend_sqlite.h - what the two files of the SQLite backend share
 * (backend_sqlite.c, backend_sqlite_sql.c): the connection, its budgets,
 * and the calls of backend_sqlite_sql.c that backend_sqlite.c makes.
 */
#ifndef LIBREPLAY_ARCHIVE_BACKEND_SQLITE_H
#define LIBREPLAY_ARCHIVE_BACKEND_SQLITE_H

#include <sqlite3.h>

#include "archive.h"

/* The connection of an archive on SQLite (ar->db). */
struct rpl__sq {
    sqlite3 *db;
    /* The step budget of the running statement: the progress handler
     * counts tick steps a call. */
    uint64_t steps, budget, tick;
    bool is_over_budget;
    /* A typed statement's bounds (backend_sqlite_sql.c; off, 0,
     * otherwise): the most memory SQLite may hold and the
     * CLOCK_MONOTONIC second and nanosecond it must end by, and which
     * one stopped it. */
    int64_t heap_cap;
    int64_t end_s, end_ns;
    bool is_over_heap, is_over_time;
};

static inline struct rpl__sq *
rpl__sq(const struct rpl_archive *ar)
{
    return ar->db;
}

/* ------------------------------------------------ backend_sqlite_sql.c */

/* The progress handler of every connection: counts the steps. */
int rpl__sq_on_progress(void *ud);
/* A failed SQLite call as our status. */
enum rpl_status rpl__sq_fail(const struct rpl_archive *ar,
                             struct rpl_error *err, int rc, const char *what);
/* rpl_archive_sql() on SQLite. */
enum rpl_status rpl__sq_sql(struct rpl_archive *ar, const char *sql,
                            bool (*each)(void *ud, size_t ncols,
                                         const char *const *names,
                                         const char *const *values,
                                         const enum rpl_sql_type *types),
                            void *ud, struct rpl_error *err);

#endif /* LIBREPLAY_ARCHIVE_BACKEND_SQLITE_H */
