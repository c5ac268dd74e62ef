/*
 * fuzz_archive.c - libFuzzer target for an archive file as every read
 * command opens it: the input is written to a file, opened read-only
 * (RPL_ARCHIVE_READ), and queried, counted (stats), asked one read-only
 * statement and checked.  A damaged database must fail with a status,
 * never crash or hang.
 *
 * Build and run: make fuzz.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static char db[96], wal[100], shm[100];

static void
write_input(const uint8_t *data, size_t size)
{
    FILE *f;

    if (dir[0] == '\0') {
        strcpy(dir, "/tmp/camelog-fuzz-archive-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        snprintf(db, sizeof(db), "%s/a.db", dir);
        snprintf(wal, sizeof(wal), "%s-wal", db);
        snprintf(shm, sizeof(shm), "%s-shm", db);
    }
    unlink(wal);
    unlink(shm);
    f = fopen(db, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

static bool
each_game(void *ud, const struct rpl_archive_game *g)
{
    size_t *n = ud;

    /* touch what the query lends, as the query command prints it */
    for (size_t i = 0; i < g->players && g->seats; i++)
        *n += g->seats[i].name ? strlen(g->seats[i].name) : 0;
    for (size_t i = 0; i < g->nquests && g->quests; i++)
        *n += g->quests[i].team ? strlen(g->quests[i].team) : 0;
    *n += g->id ? strlen(g->id) : 0;
    return true;
}

static bool
each_row(void *ud, size_t ncols, const char *const *names,
         const char *const *values, const enum rpl_sql_type *types)
{
    size_t *n = ud;

    (void)types;
    for (size_t i = 0; i < ncols; i++)
        *n += strlen(names[i]) + (values[i] ? strlen(values[i]) : 0);
    return true;
}

static void
each_problem(void *ud, const char *id, const struct rpl_error *problem)
{
    size_t *n = ud;

    *n += (id ? strlen(id) : 0) + strlen(problem->msg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_archive *ar = NULL;
    struct rpl_error err;
    char *json = NULL;
    size_t n = 0, games = 0;

    if (rpl_ctx_new(&ctx, NULL, NULL) != RPL_OK)
        abort();
    write_input(data, size);
    if (rpl_archive_open(ctx, &ar, db, RPL_ARCHIVE_READ, &err) != RPL_OK) {
        if (err.code == RPL_OK)
            abort();
        goto out;
    }
    (void)rpl_archive_query(ar, NULL, each_game, &n, NULL);
    if (rpl_archive_stats(ar, NULL, &json, NULL) == RPL_OK)
        rpl_free(ctx, json);
    (void)rpl_archive_sql(ar, "SELECT * FROM sqlite_master", each_row, &n,
                          NULL);
    (void)rpl_archive_check(ar, each_problem, &n, &games, NULL);
    rpl_archive_close(ar);
out:
    rpl_ctx_free(ctx);
    return 0;
}
