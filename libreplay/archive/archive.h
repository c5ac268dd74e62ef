/*
 * archive.h - the archive folder's own header: the handle, the index of
 * one log (struct ix) and the helpers the folder's files share.  Nothing
 * here is public API; the public half is in replay.h.
 *
 * The files, each one verb, and who calls whom (no circle):
 *   backend.h the door to the database (backend_sqlite.c,
 *            backend_sqlite_sql.c, backend_pg.c behind it, and
 *            backend_sql.c, the games' reads as SQL, which they share);
 *   stmt.c   helpers over the door: errors, transactions, prepared and
 *            cached statements, binding, columns, which tables are whose;
 *   index.c  reads a verified log into a struct ix: the header, and the
 *            game's rows through its index hook (games/game.h), kept in
 *            memory by a generic row sink;
 *   store.c  writes a struct ix (add, replace, index again), batches;
 *   schema.c the schema's steps and tables, with the games' tables
 *            (struct rpl__table) written in the backend's dialect;
 *   db.c     open and close: which backend, the schema's tables (the
 *            backends open, create and migrate, with store.c);
 *   query.c  the filter, query and export (with the games' side names
 *            and details hooks);
 *   stats.c  the statistics (query.c's filter, the games' stats hooks);
 *   check.c  rebuilds and compares the index (index.c, store.c);
 *   audit.c  the deal audit (query.c's filter, the games' audit tables).
 *
 * Every value reaches the database as a bound parameter; the only SQL text
 * built at run time is made of constant fragments (the schema's table names,
 * schema prefixes, the filter's clauses, the tables, columns and orders of a
 * game's reads, checked against the schema) and of our own integers.  No file
 * here names a game or its tokens: what is a game's comes through games/game.h.
 */
#ifndef LIBREPLAY_ARCHIVE_H
#define LIBREPLAY_ARCHIVE_H

#include "backend.h"
#include "internal.h"
#include "log.h"

/* A minute: long enough for another process's batch to commit. */
#define RPL__AR_BUSY_TIMEOUT_MS 60000
/* Tables of the backend's schema (read from it at open). */
#define RPL__AR_MAX_TABLES 32
#define RPL__AR_TABLE_NAME 32
/* The games' reads whose statements a handle keeps. */
#define RPL__AR_MAX_READS 32
/* Seats and quests of a game as struct rpl_archive_game gives them
 * (replay.h). */
#define RPL__AR_NSEATS     RPL_MAX_SEATS
#define RPL__AR_MAX_QUESTS 5

/* Where index rows go: the archive, or the temporary tables of check. */
enum rpl__ar_target { RPL__AR_MAIN = 0, RPL__AR_CHECK = 1 };
#define RPL__AR_NTARGETS 2

/* Cached statements of the archive's own tables. */
enum rpl__ar_stmt {
    /* Inserts into the common tables: one per target. */
    RPL__AR_INS_GAME,
    RPL__AR_INS_GAME_AUTO, /* without a gid: the archive picks it */
    RPL__AR_INS_LOG,
    RPL__AR_INS_RULE,
    RPL__AR_INS_SEAT,
    RPL__AR_INS_VARIANT,
    RPL__AR_NINS,
    /* Main only. */
    RPL__AR_FIND = RPL__AR_NINS,
    RPL__AR_SAME_ID,
    RPL__AR_DELETE,
    RPL__AR_SEATS_OF,
    RPL__AR_EXPORT,
    RPL__AR_LOG_OF,
    RPL__AR_VARIANTS_OF,
    RPL__AR_NSTMT
};

struct rpl_archive {
    struct rpl_ctx *ctx;
    /* The backend (backend.h) and its connection. */
    const struct rpl__backend *be;
    void *db;
    unsigned version;
    bool is_readonly;
    bool in_batch;
    /* The tables of the schema, in its order (db.c). */
    size_t ntables;
    char table[RPL__AR_MAX_TABLES][RPL__AR_TABLE_NAME];
    struct rpl__st *ins[RPL__AR_NTARGETS][RPL__AR_NINS];
    struct rpl__st *ins_table[RPL__AR_NTARGETS][RPL__AR_MAX_TABLES];
    struct rpl__st *st[RPL__AR_NSTMT];
    /* The statements of the games' reads (backend_sql.c), by the read
     * they serve. */
    struct {
        struct rpl__read rd;
        struct rpl__st *st;
    } read[RPL__AR_MAX_READS];
    /* Objects of the archive's schema that are not this library's, or
     * differ from it (the backend's open): the first as a message, NULL
     * when none. */
    size_t nforeign;
    char *warning;
};

/* ------------------------------------------------------------- stmt.c */

/* A failed call of the backend as our status, at the place it
 * happened. */
enum rpl_status rpl__ar_fail(const struct rpl_archive *ar,
                             struct rpl_error *err, int rc, const char *what);
/* Runs constant SQL without parameters (transactions, schema). */
enum rpl_status rpl__ar_exec(struct rpl_archive *ar, const char *sql,
                             const char *what, struct rpl_error *err);
enum rpl_status rpl__ar_prepare(struct rpl_archive *ar, const char *sql,
                                struct rpl__st **out, bool is_cached,
                                struct rpl_error *err);
/* A cached statement (main only), prepared on first use and reset after
 * each use by its caller (rpl__ar_done()). */
enum rpl_status rpl__ar_stmt(struct rpl_archive *ar, enum rpl__ar_stmt which,
                             struct rpl__st **out, struct rpl_error *err);
/* The insert into a common table (which < RPL__AR_NINS) of target t. */
enum rpl_status rpl__ar_ins(struct rpl_archive *ar, enum rpl__ar_target t,
                            enum rpl__ar_stmt which, struct rpl__st **out,
                            struct rpl_error *err);
/* The insert into table i of the schema (a game's table) of target t,
 * with ncols parameters (gid and the cells). */
enum rpl_status rpl__ar_ins_table(struct rpl_archive *ar, enum rpl__ar_target t,
                                  size_t i, size_t ncols, struct rpl__st **out,
                                  struct rpl_error *err);
/* Resets a statement after use (its error, if any, was reported). */
void rpl__ar_done(struct rpl__st *st);
/* Opens a write transaction (waiting for other writers), a read one. */
enum rpl_status rpl__ar_begin_write(struct rpl_archive *ar,
                                    struct rpl_error *err);
enum rpl_status rpl__ar_begin_read(struct rpl_archive *ar,
                                   struct rpl_error *err);
/* Ends the transaction, if one is open, ignoring failures (COMMIT or
 * ROLLBACK). */
void rpl__ar_end(struct rpl_archive *ar, bool is_commit);
/* Steps a statement that returns no row, then resets it. */
enum rpl_status rpl__ar_step(struct rpl_archive *ar, struct rpl__st *st,
                             const char *what, struct rpl_error *err);
void rpl__ar_bind_text(struct rpl__st *st, int i, const char *s);
void rpl__ar_bind_uint(struct rpl__st *st, int i, size_t v);
/* A named parameter (:name) bound to a copy-free text, when the
 * statement has it. */
void rpl__ar_bind_named(struct rpl__st *st, const char *name,
                        const char *value);
void rpl__ar_bind_named_int(struct rpl__st *st, const char *name, int64_t v);
/* A column as text: "" for NULL, or NULL for NULL. */
const char *rpl__ar_col_text(struct rpl__st *st, int i);
const char *rpl__ar_col_text_or_null(struct rpl__st *st, int i);
size_t rpl__ar_col_uint(struct rpl__st *st, int i);
/* A blob column of 32 bytes as 64 lowercase hex digits in out[65] ("" for
 * another length). */
void rpl__ar_col_hex32(struct rpl__st *st, int i, char out[65]);
/* Whether table i is the archive's own (game, log, rule, seat,
 * game_variant) rather
 * than a game's. */
bool rpl__ar_is_own(const struct rpl_archive *ar, size_t i);
/* Whether table i is an index table (every table but log). */
bool rpl__ar_is_index(const struct rpl_archive *ar, size_t i);
/* The rows of game gid that a game's read describes (struct rpl__read),
 * through the backend's read_rows once its table is an index table of
 * the schema and its names are plain names: RPL_E_ARG otherwise. */
enum rpl_status rpl__ar_read(struct rpl_archive *ar, const struct rpl__read *rd,
                             int64_t gid, rpl__row_fn each, void *ud,
                             struct rpl_error *err);

/* ----------------------------------------------------------- schema.c */

/* Whether s is a plain name of the schema: lowercase letters, digits,
 * underscores, shorter than RPL__AR_TABLE_NAME. */
bool rpl__ar_is_name(const char *s);
/* The version of the schema this library writes: the last step of the
 * backend's schema lines. */
unsigned rpl__ar_schema_version(const char *const *lines, size_t n);
/* The SQL of the steps of be's schema after version from up to version
 * to, one text: each step's lines, then the games' tables it drops and
 * creates (struct rpl__table), in be's dialect.  RPL_E_STATE for a
 * game's table that cannot be written. */
enum rpl_status rpl__ar_schema_steps(struct rpl_ctx *ctx,
                                     const struct rpl__backend *be,
                                     unsigned from, unsigned to, char **out,
                                     struct rpl_error *err);
/* The tables of ar's backend's schema at this library's version, in
 * the order of the steps that create them, into ar->table. */
enum rpl_status rpl__ar_schema_tables(struct rpl_archive *ar,
                                      struct rpl_error *err);

/* ------------------------------------------------------------ index.c */

struct ix_kv {
    const char *key, *value;
    size_t key_len, value_len;
};

/* A row of a game's table, kept until it is stored: cells
 * cell[first..first + n), texts at offsets of text; the table's name at
 * name_off, and its place in the schema once resolved (rpl__ar_resolve()),
 * SIZE_MAX before. */
struct ix_row {
    size_t table, name_off;
    size_t first, n;
};

struct ix_cell {
    enum rpl__cell_kind kind;
    int64_t i;
    size_t off;
};

/* Everything the index says about one log, read without an archive. */
struct ix {
    const char *game;
    const char *id;
    uint8_t seal[RPL__HASH];
    char created[24]; /* "" when absent */
    const char *rules;
    size_t rules_len;
    size_t nrules;
    struct ix_kv rule[RPL_MAX_TOKENS];
    size_t players;
    char dealer[RPL_PUBKEY_B64_LEN + 1];
    const char *progress;
    bool is_imported;
    /* The `import` line's tokens, in the log's text; NULL if none. */
    const char *source, *source_id;
    size_t source_len, source_id_len;
    const char *winner; /* NULL before end */
    const char *reason;
    size_t lines, seals, sigs;
    /* The house rules declared (rpl_log_variants()): "a,b", "" for
     * none. */
    char variants[RPL_VARIANTS_MAX];
    const char *name[RPL__AR_NSEATS + 1];
    char key[RPL__AR_NSEATS + 1][RPL_PUBKEY_B64_LEN + 1]; /* "" if none */
    /* The game's part: its common columns and its rows. */
    struct rpl__rows rows;
    struct ix_row *row;
    size_t nrows, row_cap;
    struct ix_cell *cell;
    size_t ncells, cell_cap;
    struct rpl__buf text;
    /* The game's scratch for its index() and what it is lent. */
    void *scratch;
    struct rpl__env env;
    const char *names[RPL_MAX_SEATS + 1];
};

/* Reads everything the index needs from a verified log (in the log's
 * thread: no archive is needed), replaying it; x lends from the log. */
enum rpl_status rpl__ar_index(struct ix *x, struct rpl_log *log,
                              struct rpl_error *err);
/* rpl_log_verify() of log that reads the same in its one pass: nothing
 * is split or replayed again.  x is complete when the verify passes. */
enum rpl_status rpl__ar_index_verify(struct ix *x, struct rpl_log *log,
                                     const struct rpl_verify_opts *opts,
                                     struct rpl_report *rep);
/* Names the table of each of x's rows by its place in ar's schema:
 * RPL_E_ARG for a table that is not a game's. */
enum rpl_status rpl__ar_resolve(const struct rpl_archive *ar, struct ix *x,
                                struct rpl_error *err);
/* Frees what an ix holds besides itself. */
void rpl__ar_ix_release(struct rpl_ctx *ctx, struct ix *x);
/* The line of the last seal, 0 when none. */
size_t rpl__ar_last_seal(const struct rpl_log *log);

/* ------------------------------------------------------------ store.c */

/* Writes the index rows of x into target t; gid 0 lets the archive pick
 * it (main), and *out_gid tells which. */
enum rpl_status rpl__ar_insert(struct rpl_archive *ar, enum rpl__ar_target t,
                               const struct ix *x, int64_t gid,
                               int64_t *out_gid, struct rpl_error *err);
/* Indexes every stored log again (a migration). */
enum rpl_status rpl__ar_reindex_all(struct rpl_archive *ar,
                                    struct rpl_error *err);

/* ----------------------------------------------------------- filter.c */

/* The values of a filter (game, role, side, variants) against the games;
 * rpl_archive_check_filter() checks them and the rest. */
enum rpl_status rpl__ar_filter_values(const struct rpl_archive_filter *f,
                                      struct rpl_error *err);

/* ------------------------------------------------------------ query.c */

/* Prepares head || filter's WHERE over `main.game g` || tail with the
 * filter bound. */
enum rpl_status rpl__ar_prepare_filtered(struct rpl_archive *ar,
                                         const char *head,
                                         const struct rpl_archive_filter *f,
                                         const char *tail, struct rpl__st **out,
                                         struct rpl_error *err);

/* The games the filter selects of game (and, when imported is 0 or 1,
 * only those dealt by camelog or imported), in gid order: for each, the
 * rows of sc's reads, then sc->end() (struct rpl__scan, games/game.h). */
enum rpl_status rpl__ar_scan(struct rpl_archive *ar,
                             const struct rpl_archive_filter *f,
                             const char *game, int imported,
                             const struct rpl__scan *sc, struct rpl_error *err);

/* ------------------------------------------------------------ audit.c */

/* The upper tail of the chi-square distribution with df degrees of
 * freedom at chi2: the p-value of Pearson's test (1 for df 0). */
double rpl__chi2_p(double chi2, unsigned df);

#endif /* LIBREPLAY_ARCHIVE_H */
