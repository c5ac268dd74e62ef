/*
 * test_archive.c - the SQLite archive: the schema and its version, adding
 * (idempotence, replacing an earlier log of a game, batches, refusals),
 * every query filter and the statistics against what the logs themselves
 * say, read-only SQL, export byte for byte, check against a tampered
 * archive, a process killed in the middle of a batch, two processes
 * adding at once, and allocation failures; for Shadows over Camelot, its
 * tables against its logs, its filters and statistics, and the migration
 * of an archive of version 1.
 *
 * The games are recorded here with the recorder and the seeded
 * players; what each log says (names, roles, sides, outcome, who failed
 * which quest) is read from the log through the public API, not from the
 * archive, and the archive's answers are compared with it.
 */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <fcntl.h>
#include <jansson.h>
#include <sqlite3.h>

#include "archive/archive.h"
#include "failalloc.h"
#include "internal.h"
#include "suites.h"

static const char *const NAMES[] = {"Alice", "Bob",   "Carol", "Dave", "Erin",
                                    "Frank", "Grace", "Heidi", "Ivan", "Judy"};

/* One configuration per player count (rules/avalon.md, no warnings). */
static const char *const RULES[] = {
    "players=5 roles=merlin,percival,servant,assassin,morgana lady=off "
    "targeting=off",
    "players=6 roles=merlin,percival,servant,servant,assassin,morgana "
    "lady=off targeting=on",
    "players=7 roles=merlin,percival,servant,servant,assassin,morgana,mordred "
    "lady=on targeting=off",
    "players=8 roles=merlin,percival,servant,servant,servant,assassin,"
    "morgana,minion lady=on targeting=off",
    "players=9 roles=merlin,percival,servant,servant,servant,servant,"
    "assassin,morgana,mordred lady=on targeting=on",
    "players=10 roles=merlin,percival,servant,servant,servant,servant,"
    "assassin,morgana,mordred,oberon lady=on targeting=off",
};

/* A recorded game and what its log says. */
struct game {
    char *text;
    size_t len;
    size_t players;
    char id[33];
    char created[21];
    char winner[16];
    char reason[16];
    enum rpl_progress progress;
    char names[RPL_MAX_SEATS + 1][RPL_MAX_NAME + 1];
    char roles[RPL_MAX_SEATS + 1][16];
    char sides[RPL_MAX_SEATS + 1][16];
    char failed[6][48]; /* by round: "p2,p5" */
    size_t rounds;
};

static struct rpl_ctx *
new_ctx(void)
{
    struct rpl_ctx *ctx = NULL;

    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    return ctx;
}

/* The dealer's key (the same for every game). */
static struct rpl_seckey *
dealer_key(struct rpl_ctx *ctx)
{
    uint8_t seed[32];
    struct rpl_seckey *sk = NULL;

    memset(seed, 0xd0, sizeof(seed));
    ck_assert_int_eq(rpl_seckey_from_seed(ctx, &sk, seed, NULL), RPL_OK);
    return sk;
}

static struct rpl_log *
parse_verified(struct rpl_ctx *ctx, const char *text, size_t len)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;

    ck_assert_msg(rpl_log_parse(ctx, &log, text, len, false, &err) == RPL_OK,
                  "%s", err.msg);
    ck_assert_msg(rpl_log_verify(log, NULL, &rep) == RPL_OK, "line %zu: %s",
                  rep.error.line, rep.error.msg);
    return log;
}

static char *
copy_text(const struct rpl_log *log, size_t *len)
{
    const char *t = rpl_log_text(log, len);
    char *copy = malloc(*len + 1);

    ck_assert_ptr_nonnull(copy);
    memcpy(copy, t, *len + 1);
    return copy;
}

/* What the log says, read through the public API: names, outcome, and
 * once revealed the roles (reveal JSON) and the Fail cards (open lines). */
static void
describe(struct rpl_ctx *ctx, struct game *g)
{
    struct rpl_log *log = parse_verified(ctx, g->text, g->len);
    struct rpl_report rep;

    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    g->players = rpl_log_seats(log);
    snprintf(g->id, sizeof(g->id), "%s", rep.id);
    snprintf(g->winner, sizeof(g->winner), "%s", rep.winner);
    snprintf(g->reason, sizeof(g->reason), "%s", rep.reason);
    g->progress = rep.progress;
    for (size_t k = 1; k <= g->players; k++)
        snprintf(g->names[k], sizeof(g->names[k]), "%s",
                 rpl_log_seat_name(log, k));
    memset(g->roles, 0, sizeof(g->roles));
    memset(g->sides, 0, sizeof(g->sides));
    memset(g->failed, 0, sizeof(g->failed));
    g->rounds = 0;
    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        size_t n = 0;
        const char *line = rpl_log_line(log, no, &n);
        unsigned r, k;
        char value[8];
        char buf[128];

        snprintf(buf, sizeof(buf), "%.*s", (int)n, line);
        if (strncmp(buf, "quest ", 6) == 0)
            g->rounds++;
        if (sscanf(buf, "open card %u p%u %7s", &r, &k, value) == 3 &&
            strcmp(value, "fail") == 0 && r <= 5) {
            char seat[8];

            snprintf(seat, sizeof(seat), "p%u", k);
            if (g->failed[r][0])
                strcat(g->failed[r], ",");
            strcat(g->failed[r], seat);
        }
    }
    if (rep.progress == RPL_PROGRESS_COMPLETE) {
        char *json = NULL;
        json_t *root, *seats, *e;
        size_t i;

        ck_assert_int_eq(rpl_log_reveal_json(log, &json, NULL), RPL_OK);
        root = json_loads(json, 0, NULL);
        ck_assert_ptr_nonnull(root);
        seats = json_object_get(root, "seats");
        json_array_foreach(seats, i, e)
        {
            const json_int_t k = json_integer_value(json_object_get(e, "seat"));

            ck_assert(k >= 1 && (size_t)k <= g->players);
            snprintf(g->roles[k], sizeof(g->roles[k]), "%s",
                     json_string_value(json_object_get(e, "role")));
            snprintf(g->sides[k], sizeof(g->sides[k]), "%s",
                     json_string_value(json_object_get(e, "side")));
        }
        json_decref(root);
        rpl_free(ctx, json);
    }
    rpl_log_free(log);
}

struct rec_opts {
    size_t config;     /* index into RULES */
    size_t name_shift; /* seat k is NAMES[(k - 1 + shift) % 10] */
    uint8_t seed;      /* the bots' seed, the id and S */
    bool is_plausible;
    bool reveal;
    const char *created;
    const char *rules; /* NULL: RULES[config] */
};

/* Records a whole game; with finished, also the log as it was sealed
 * after `end`, before the reveal (a prefix of the complete log). */
static void
record(struct rpl_ctx *ctx, const struct rec_opts *o, struct game *g,
       struct game *finished)
{
    struct rpl_seckey *dealer = dealer_key(ctx);
    const char *names[RPL_MAX_SEATS];
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t id[16], s[32], bot[32];
    const size_t seats = o->config + 5;

    memset(g, 0, sizeof(*g));
    for (size_t k = 0; k < seats; k++)
        names[k] = NAMES[(k + o->name_shift) % 10];
    memset(id, o->seed, sizeof(id));
    id[0] = 0xa7;
    id[1] = (uint8_t)o->config;
    memset(s, o->seed ^ 0x5a, sizeof(s));
    memset(bot, o->seed, sizeof(bot));
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "avalon";
    cfg.rules = o->rules ? o->rules : RULES[o->config];
    cfg.seats = seats;
    cfg.names = names;
    cfg.dealer = dealer;
    cfg.id = id;
    cfg.secret = s;
    cfg.created = o->created;
    ck_assert_msg(rpl_rec_new(ctx, &rec, &cfg, &err) == RPL_OK, "%s", err.msg);
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    while (rpl_rec_dealer_turn(rec) != 0)
        ck_assert_msg(
            rpl_rec_bot(rec,
                        o->is_plausible ? RPL_BOT_PLAUSIBLE : RPL_BOT_RANDOM,
                        bot, NULL, &err) == RPL_OK,
            "line %zu: %s", err.line, err.msg);
    ck_assert_int_eq(rpl_rec_seal(rec, &err), RPL_OK);
    if (finished) {
        ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
        memset(finished, 0, sizeof(*finished));
        finished->text = copy_text(log, &finished->len);
        rpl_log_free(log);
        log = NULL;
        if (o->created)
            snprintf(finished->created, sizeof(finished->created), "%s",
                     o->created);
        describe(ctx, finished);
    }
    if (o->reveal)
        ck_assert_msg(rpl_rec_reveal(rec, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    g->text = copy_text(log, &g->len);
    if (o->created)
        snprintf(g->created, sizeof(g->created), "%s", o->created);
    rpl_log_free(log);
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    describe(ctx, g);
}

/* A corpus: every player count, both kinds of bots, shifted names, some
 * games not revealed, dates over a week. */
#define NGAMES 36

static void
make_corpus(struct rpl_ctx *ctx, struct game *games, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char created[21];
        struct rec_opts o;

        snprintf(created, sizeof(created), "2026-11-%02zuT%02zu:00:00Z",
                 20 + i % 7, i % 24);
        memset(&o, 0, sizeof(o));
        o.config = i % 6;
        o.name_shift = i % 10;
        o.seed = (uint8_t)(i + 1);
        o.is_plausible = i % 2 == 0;
        o.reveal = i % 5 != 4;
        o.created = i % 9 == 8 ? NULL : created;
        record(ctx, &o, &games[i], NULL);
    }
}

static void
free_corpus(struct game *games, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(games[i].text);
}

/* ------------------------------------------------------------ helpers */

struct tmp {
    char dir[64];
    char db[96];
};

static void
tmp_make(struct tmp *t)
{
    snprintf(t->dir, sizeof(t->dir), "/tmp/camelog-archive-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(t->dir));
    snprintf(t->db, sizeof(t->db), "%s/games.db", t->dir);
}

static void
tmp_remove(struct tmp *t)
{
    char cmd[128];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Removes the archive and its WAL files. */
static void
rm_db(const struct tmp *t)
{
    static const char *const suffix[] = {"", "-wal", "-shm"};
    char path[128];

    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "%s%s", t->db, suffix[i]);
        unlink(path);
    }
}

static struct rpl_archive *
open_archive(struct rpl_ctx *ctx, const char *path, enum rpl_archive_mode m)
{
    struct rpl_archive *ar = NULL;
    struct rpl_error err;

    ck_assert_msg(rpl_archive_open(ctx, &ar, path, m, &err) == RPL_OK, "%s",
                  err.msg);
    return ar;
}

static enum rpl_archive_added
add_game(struct rpl_ctx *ctx, struct rpl_archive *ar, const struct game *g)
{
    struct rpl_log *log = parse_verified(ctx, g->text, g->len);
    enum rpl_archive_added what = RPL_ARCHIVE_PRESENT;
    struct rpl_error err;

    ck_assert_msg(rpl_archive_add(ar, log, &what, &err) == RPL_OK,
                  "line %zu: %s", err.line, err.msg);
    rpl_log_free(log);
    return what;
}

static void
add_all(struct rpl_ctx *ctx, struct rpl_archive *ar, const struct game *g,
        size_t n)
{
    ck_assert_int_eq(rpl_archive_begin(ar, NULL), RPL_OK);
    for (size_t i = 0; i < n; i++)
        add_game(ctx, ar, &g[i]);
    ck_assert_int_eq(rpl_archive_commit(ar, NULL), RPL_OK);
}

/* The first column of the first row of a read-only query, as a number. */
static bool
first_cell(void *ud, size_t ncols, const char *const *names,
           const char *const *values, const enum rpl_sql_type *types)
{
    long long *v = ud;

    (void)names;
    (void)types;
    ck_assert_uint_ge(ncols, 1);
    *v = values[0] ? atoll(values[0]) : -1;
    return false;
}

static long long
sql_count(struct rpl_archive *ar, const char *sql)
{
    long long v = -1;
    struct rpl_error err;

    ck_assert_msg(rpl_archive_sql(ar, sql, first_cell, &v, &err) == RPL_OK,
                  "%s: %s", sql, err.msg);
    return v;
}

/* The same through SQLite itself, bypassing the library. */
static long long
raw_count(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long long v = -1;

    ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
                     SQLITE_OK);
    sqlite3_busy_timeout(db, 10000);
    ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static void
raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    char *msg = NULL;

    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK, "%s",
                  msg ? msg : "");
    sqlite3_close(db);
}

/* Collects the ids of a query. */
struct ids {
    char id[NGAMES * 4][33];
    size_t n;
    struct game *games; /* when set, each result is compared with it */
    size_t ngames;
};

static const struct game *
find_game(const struct ids *ids, const char *id)
{
    for (size_t i = 0; i < ids->ngames; i++)
        if (strcmp(ids->games[i].id, id) == 0)
            return &ids->games[i];
    return NULL;
}

static bool
str_eq_or_null(const char *a, const char *b)
{
    /* b "" stands for NULL */
    if (!b[0])
        return !a;
    return a && strcmp(a, b) == 0;
}

static bool
collect(void *ud, const struct rpl_archive_game *g)
{
    struct ids *ids = ud;
    const struct game *want;

    ck_assert_uint_lt(ids->n, sizeof(ids->id) / sizeof(ids->id[0]));
    snprintf(ids->id[ids->n++], 33, "%s", g->id);
    want = find_game(ids, g->id);
    if (!want)
        return true;
    /* Every field the query gives is what the log says. */
    ck_assert_str_eq(g->game, "avalon");
    ck_assert(!g->is_imported == !g->source);
    ck_assert_uint_eq(g->players, want->players);
    ck_assert(str_eq_or_null(g->winner, want->winner));
    ck_assert(str_eq_or_null(g->reason, want->reason));
    ck_assert(str_eq_or_null(g->created, want->created));
    ck_assert_int_eq(g->progress, want->progress);
    ck_assert_uint_eq(strlen(g->seal), 64);
    for (size_t k = 1; k <= want->players; k++) {
        ck_assert_str_eq(g->seats[k - 1].name, want->names[k]);
        ck_assert(str_eq_or_null(g->seats[k - 1].role, want->roles[k]));
        ck_assert(str_eq_or_null(g->seats[k - 1].side, want->sides[k]));
    }
    ck_assert_uint_eq(g->nquests, want->rounds);
    for (size_t i = 0; i < g->nquests; i++) {
        const struct rpl_archive_quest *q = &g->quests[i];

        ck_assert_uint_eq(q->round, i + 1);
        if (want->progress == RPL_PROGRESS_COMPLETE)
            ck_assert_str_eq(q->failed, want->failed[i + 1]);
        else
            ck_assert_ptr_null(q->failed);
        /* The fail count on the quest line is the number of Fails. */
        if (q->failed)
            ck_assert_uint_eq(q->fails,
                              q->failed[0] ? (strlen(q->failed) + 1) / 3 : 0u);
    }
    /* Avalon's facts: the assassin's and the target's seats, when the
     * assassin named one. */
    if (strcmp(want->reason, "assassination") == 0 ||
        strcmp(want->reason, "missed") == 0) {
        ck_assert_uint_eq(g->nfacts, 2);
        ck_assert_str_eq(g->facts[0].name, "assassin");
        ck_assert_str_eq(g->facts[1].name, "target");
        for (size_t i = 0; i < 2; i++) {
            ck_assert_str_eq(g->facts[i].group, "assassination");
            ck_assert_int_ge(g->facts[i].value, 1);
            ck_assert_int_le(g->facts[i].value, (int64_t)want->players);
        }
        ck_assert_int_ne(g->facts[0].value, g->facts[1].value);
    } else {
        ck_assert_uint_eq(g->nfacts, 0);
    }
    return true;
}

static bool
has_id(const struct ids *ids, const char *id)
{
    for (size_t i = 0; i < ids->n; i++)
        if (strcmp(ids->id[i], id) == 0)
            return true;
    return false;
}

/* ------------------------------------------------------------- schema */

START_TEST(schema_created_and_versioned)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_archive *ar = NULL;
    struct rpl_error err;
    struct tmp t;
    unsigned version;

    tmp_make(&t);
    /* Nothing there: READ and WRITE refuse, CREATE makes it. */
    ck_assert_int_eq(rpl_archive_open(ctx, &ar, t.db, RPL_ARCHIVE_READ, &err),
                     RPL_E_IO);
    ck_assert_ptr_null(ar);
    ck_assert_int_eq(rpl_archive_open(ctx, &ar, t.db, RPL_ARCHIVE_WRITE, &err),
                     RPL_E_IO);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    version = rpl_archive_version(ar);
    ck_assert_uint_ge(version, 1);
    ck_assert_int_eq(sql_count(ar, "PRAGMA user_version"), version);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM sqlite_schema "
                                   "WHERE type = 'table' AND name IN "
                                   "('game', 'log', 'rule', 'seat', 'quest', "
                                   "'card', 'lady', 'assassination')"),
                     8);
    rpl_archive_close(ar);
    ck_assert_int_eq(raw_count(t.db, "PRAGMA user_version"), version);
    /* WAL, so readers and a writer can work at once. */
    {
        sqlite3 *db = NULL;
        sqlite3_stmt *st = NULL;

        ck_assert_int_eq(sqlite3_open(t.db, &db), SQLITE_OK);
        ck_assert_int_eq(
            sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL),
            SQLITE_OK);
        ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
        ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "wal");
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    /* Reopening changes nothing. */
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_WRITE);
    ck_assert_uint_eq(rpl_archive_version(ar), version);
    rpl_archive_close(ar);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
    ck_assert_uint_eq(rpl_archive_version(ar), version);
    /* Read-only: no add, no batch. */
    ck_assert_int_eq(rpl_archive_begin(ar, &err), RPL_E_STATE);
    rpl_archive_close(ar);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* seat_result: a seat won when its side is the winner's; Shadows over
 * Camelot's knights are the good side; no result without a side or for
 * an abandoned game. */
START_TEST(schema_seat_result)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_archive *ar;
    struct tmp t;
    const char *const rows[] = {
        /* winner, side, won (-1: NULL) */
        "good", "good", "1",       "good", "evil",    "0",    "evil", "evil",
        "1",    "evil", "good",    "0",    "knights", "good", "1",    "knights",
        "evil", "0",    "aborted", "good", "-1",      "evil", NULL,   "-1",
    };

    tmp_make(&t);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    rpl_archive_close(ar);
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i += 3) {
        char sql[512];
        long long won;

        snprintf(sql, sizeof(sql),
                 "INSERT INTO game (gid, game, id, seal, rules, players, "
                 "dealer, progress, imported, winner, rounds, proposals, "
                 "lines, seals, sigs) VALUES (%zu, 'x', printf('%%032d', "
                 "%zu), zeroblob(32), 'r', 1, 'd', 'complete', 0, '%s', 0, "
                 "0, 0, 0, 0); INSERT INTO seat VALUES (%zu, 1, 'A', NULL, "
                 "NULL, %s%s%s)",
                 i + 1, i, rows[i], i + 1, rows[i + 1] ? "'" : "",
                 rows[i + 1] ? rows[i + 1] : "NULL", rows[i + 1] ? "'" : "");
        raw_exec(t.db, sql);
        snprintf(sql, sizeof(sql),
                 "SELECT coalesce(won, -1) FROM seat_result WHERE gid = %zu",
                 i + 1);
        won = raw_count(t.db, sql);
        ck_assert_msg(won == atoll(rows[i + 2]), "winner %s, side %s: %lld",
                      rows[i], rows[i + 1] ? rows[i + 1] : "NULL", won);
    }
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* Databases that are not archives of this library are refused. */
START_TEST(schema_refuses_others)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_archive *ar = NULL;
    struct rpl_error err;
    struct tmp t;
    char path[128];
    FILE *f;

    tmp_make(&t);
    /* Another application's database. */
    raw_exec(t.db, "CREATE TABLE notes (x TEXT)");
    ck_assert_int_eq(rpl_archive_open(ctx, &ar, t.db, RPL_ARCHIVE_WRITE, &err),
                     RPL_E_UNSUPPORTED);
    ck_assert_ptr_null(ar);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a camelog archive"));
    ck_assert_int_eq(raw_count(t.db, "SELECT count(*) FROM sqlite_schema"), 1);
    /* A newer archive. */
    snprintf(path, sizeof(path), "%s/newer.db", t.dir);
    ar = open_archive(ctx, path, RPL_ARCHIVE_CREATE);
    rpl_archive_close(ar);
    raw_exec(path, "PRAGMA user_version = 999");
    ck_assert_int_eq(rpl_archive_open(ctx, &ar, path, RPL_ARCHIVE_READ, &err),
                     RPL_E_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.msg, "newer"));
    ck_assert_int_eq(rpl_archive_open(ctx, &ar, path, RPL_ARCHIVE_WRITE, &err),
                     RPL_E_UNSUPPORTED);
    /* Not a database at all. */
    snprintf(path, sizeof(path), "%s/text.db", t.dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 200; i++)
        fputs("this is not a database\n", f);
    fclose(f);
    ck_assert_int_eq(rpl_archive_open(ctx, &ar, path, RPL_ARCHIVE_WRITE, &err),
                     RPL_E_UNSUPPORTED);
    ck_assert_int_eq(rpl_archive_open(ctx, &ar, path, RPL_ARCHIVE_READ, &err),
                     RPL_E_UNSUPPORTED);
    /* An empty database read-only is not an archive yet; opened for
     * writing, it becomes one (version 0 to the current). */
    snprintf(path, sizeof(path), "%s/empty.db", t.dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert_int_eq(rpl_archive_open(ctx, &ar, path, RPL_ARCHIVE_READ, &err),
                     RPL_E_UNSUPPORTED);
    ar = open_archive(ctx, path, RPL_ARCHIVE_WRITE);
    ck_assert_uint_ge(rpl_archive_version(ar), 1);
    rpl_archive_close(ar);
    ck_assert_int_eq(
        rpl_archive_open(ctx, &ar, path, (enum rpl_archive_mode)7, &err),
        RPL_E_ARG);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* ---------------------------------------------------------------- add */

START_TEST(add_is_idempotent)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[3];
    struct rpl_archive *ar;
    struct ids ids;
    struct tmp t;
    long long changes;

    tmp_make(&t);
    make_corpus(ctx, g, 3);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    for (size_t i = 0; i < 3; i++)
        ck_assert_int_eq(add_game(ctx, ar, &g[i]), RPL_ARCHIVE_ADDED);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 3);
    changes = sql_count(ar, "SELECT total_changes()");
    ck_assert_int_gt(changes, 0);
    for (size_t i = 0; i < 3; i++)
        ck_assert_int_eq(add_game(ctx, ar, &g[i]), RPL_ARCHIVE_PRESENT);
    /* Re-adding wrote no row. */
    ck_assert_int_eq(sql_count(ar, "SELECT total_changes()"), changes);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 3);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM seat"),
                     (long long)(g[0].players + g[1].players + g[2].players));
    memset(&ids, 0, sizeof(ids));
    ids.games = g;
    ids.ngames = 3;
    ck_assert_int_eq(rpl_archive_query(ar, NULL, collect, &ids, NULL), RPL_OK);
    ck_assert_uint_eq(ids.n, 3);
    for (size_t i = 0; i < 3; i++)
        ck_assert_str_eq(ids.id[i], g[i].id);
    /* The groups of the games' facts: Avalon's assassination alone. */
    ck_assert_str_eq(rpl_archive_fact_group(0), "assassination");
    ck_assert_ptr_null(rpl_archive_fact_group(1));
    ck_assert_ptr_null(rpl_archive_fact_group((size_t)-1));
    rpl_archive_close(ar);
    free_corpus(g, 3);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* The log sealed after `end`, then the same game revealed: the complete
 * log replaces the finished one; the finished one after it changes
 * nothing. */
START_TEST(add_replaces_earlier_log)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game complete, finished;
    struct rec_opts o = {2, 3, 7, true, true, "2026-11-29T11:32:18Z", NULL};
    struct rpl_archive *ar;
    struct ids ids;
    struct tmp t;

    tmp_make(&t);
    record(ctx, &o, &complete, &finished);
    ck_assert_int_eq(finished.progress, RPL_PROGRESS_FINISHED);
    ck_assert_int_eq(complete.progress, RPL_PROGRESS_COMPLETE);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    ck_assert_int_eq(add_game(ctx, ar, &finished), RPL_ARCHIVE_ADDED);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM seat WHERE role "
                                   "IS NOT NULL"),
                     0);
    memset(&ids, 0, sizeof(ids));
    ids.games = &finished;
    ids.ngames = 1;
    ck_assert_int_eq(rpl_archive_query(ar, NULL, collect, &ids, NULL), RPL_OK);
    ck_assert_uint_eq(ids.n, 1);

    ck_assert_int_eq(add_game(ctx, ar, &complete), RPL_ARCHIVE_REPLACED);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 1);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM seat WHERE role "
                                   "IS NOT NULL"),
                     (long long)complete.players);
    memset(&ids, 0, sizeof(ids));
    ids.games = &complete;
    ids.ngames = 1;
    ck_assert_int_eq(rpl_archive_query(ar, NULL, collect, &ids, NULL), RPL_OK);
    ck_assert_uint_eq(ids.n, 1);

    ck_assert_int_eq(add_game(ctx, ar, &finished), RPL_ARCHIVE_SUPERSEDED);
    ck_assert_int_eq(add_game(ctx, ar, &complete), RPL_ARCHIVE_PRESENT);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 1);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM log"), 1);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM seat"),
                     (long long)complete.players);
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, NULL), RPL_OK);
    rpl_archive_close(ar);
    free(complete.text);
    free(finished.text);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* A game recorded elsewhere and imported: flagged, its source kept, its
 * roles those of the record. */
START_TEST(add_imported_game)
{
    static const char *const deal[] = {"servant",  "merlin",  "assassin",
                                       "percival", "mordred", "servant",
                                       "morgana"};
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = dealer_key(ctx);
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_archive *ar;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    struct game g;
    struct ids ids;
    uint8_t bot[32];
    struct tmp t;

    tmp_make(&t);
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "avalon";
    cfg.rules = RULES[2];
    cfg.seats = 7;
    cfg.names = NAMES;
    cfg.dealer = dealer;
    cfg.created = "2020-03-23T00:13:48Z";
    cfg.import_source = "example.org";
    cfg.import_id = "game-42";
    cfg.deal = deal;
    cfg.first = 3;
    memset(bot, 9, sizeof(bot));
    ck_assert_msg(rpl_rec_new(ctx, &rec, &cfg, &err) == RPL_OK, "%s", err.msg);
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    while (rpl_rec_dealer_turn(rec) != 0)
        ck_assert_msg(rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, NULL, &err) ==
                          RPL_OK,
                      "%s", err.msg);
    ck_assert_msg(rpl_rec_reveal(rec, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert(rep.is_imported);
    memset(&g, 0, sizeof(g));
    g.text = copy_text(log, &g.len);
    snprintf(g.created, sizeof(g.created), "%s", cfg.created);
    describe(ctx, &g);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    ck_assert_int_eq(rpl_archive_add(ar, log, NULL, &err), RPL_OK);
    memset(&ids, 0, sizeof(ids));
    ids.games = &g;
    ids.ngames = 1;
    ck_assert_int_eq(rpl_archive_query(ar, NULL, collect, &ids, NULL), RPL_OK);
    ck_assert_uint_eq(ids.n, 1);
    for (size_t k = 1; k <= 7; k++)
        ck_assert_str_eq(g.roles[k], deal[k - 1]);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game WHERE imported "
                                   "= 1 AND source = 'example.org' AND "
                                   "source_id = 'game-42' AND leader = 3"),
                     1);
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, &err), RPL_OK);
    rpl_archive_close(ar);
    rpl_log_free(log);
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    free(g.text);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* Logs the archive refuses: not verified, not sealed at the end. */
START_TEST(add_refusals)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = dealer_key(ctx);
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_archive *ar;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    struct game g;
    enum rpl_archive_added what = RPL_ARCHIVE_ADDED;
    uint8_t bot[32];
    struct tmp t;

    tmp_make(&t);
    make_corpus(ctx, &g, 1);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    /* Parsed, not verified. */
    ck_assert_int_eq(rpl_log_parse(ctx, &log, g.text, g.len, false, NULL),
                     RPL_OK);
    ck_assert_int_eq(rpl_archive_add(ar, log, &what, &err), RPL_E_STATE);
    rpl_log_free(log);
    /* A game in progress whose last lines are not sealed (verify accepts
     * it with a warning), then the same sealed. */
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "avalon";
    cfg.rules = RULES[0];
    cfg.seats = 5;
    cfg.names = NAMES;
    cfg.dealer = dealer;
    memset(bot, 3, sizeof(bot));
    ck_assert_int_eq(rpl_rec_new(ctx, &rec, &cfg, NULL), RPL_OK);
    ck_assert_int_eq(rpl_rec_start(rec, NULL), RPL_OK);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(rpl_rec_bot(rec, RPL_BOT_RANDOM, bot, NULL, NULL),
                         RPL_OK);
    ck_assert_int_eq(rpl_rec_log(rec, &log, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert_int_eq(rpl_archive_add(ar, log, &what, &err), RPL_E_INCOMPLETE);
    ck_assert_uint_gt(err.line, 0);
    rpl_log_free(log);
    ck_assert_int_eq(rpl_rec_seal(rec, NULL), RPL_OK);
    ck_assert_int_eq(rpl_rec_log(rec, &log, NULL), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    ck_assert_int_eq(rpl_archive_add(ar, log, &what, &err), RPL_OK);
    ck_assert_int_eq(what, RPL_ARCHIVE_ADDED);
    rpl_log_free(log);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game WHERE progress "
                                   "= 'in_progress' AND winner IS NULL"),
                     1);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 1);
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, NULL), RPL_OK);
    /* Batches: commit or rollback without one, two at once. */
    ck_assert_int_eq(rpl_archive_commit(ar, &err), RPL_E_STATE);
    ck_assert_int_eq(rpl_archive_rollback(ar, &err), RPL_E_STATE);
    ck_assert_int_eq(rpl_archive_begin(ar, &err), RPL_OK);
    ck_assert_int_eq(rpl_archive_begin(ar, &err), RPL_E_STATE);
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, &err),
                     RPL_E_STATE);
    ck_assert_int_eq(rpl_archive_rollback(ar, &err), RPL_OK);
    rpl_rec_free(rec);
    rpl_archive_close(ar);
    free_corpus(&g, 1);
    rpl_seckey_free(dealer);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* A batch lands whole at commit, or not at all; a failed add inside it
 * leaves the others. */
START_TEST(batches)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[4];
    struct rpl_archive *ar;
    struct rpl_log *bad = NULL;
    struct rpl_error err;
    struct tmp t;

    tmp_make(&t);
    make_corpus(ctx, g, 4);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    ck_assert_int_eq(rpl_archive_begin(ar, NULL), RPL_OK);
    for (size_t i = 0; i < 3; i++)
        add_game(ctx, ar, &g[i]);
    /* Another connection sees nothing before the commit. */
    ck_assert_int_eq(raw_count(t.db, "SELECT count(*) FROM game"), 0);
    ck_assert_int_eq(rpl_archive_rollback(ar, NULL), RPL_OK);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 0);

    ck_assert_int_eq(rpl_archive_begin(ar, NULL), RPL_OK);
    add_game(ctx, ar, &g[0]);
    ck_assert_int_eq(rpl_log_parse(ctx, &bad, g[1].text, g[1].len, false, NULL),
                     RPL_OK);
    ck_assert_int_eq(rpl_archive_add(ar, bad, NULL, &err), RPL_E_STATE);
    rpl_log_free(bad);
    add_game(ctx, ar, &g[2]);
    add_game(ctx, ar, &g[3]);
    ck_assert_int_eq(rpl_archive_commit(ar, NULL), RPL_OK);
    ck_assert_int_eq(raw_count(t.db, "SELECT count(*) FROM game"), 3);
    ck_assert_int_eq(raw_count(t.db, "SELECT count(*) FROM game WHERE id = "
                                     "(SELECT id FROM game LIMIT 1 OFFSET 1)"),
                     1);
    rpl_archive_close(ar);
    free_corpus(g, 4);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* The first cell of a query's first row, copied (free()). */
static bool
cell_text(void *ud, size_t ncols, const char *const *names,
          const char *const *values, const enum rpl_sql_type *types)
{
    char **out = ud;

    (void)names;
    (void)types;
    ck_assert_uint_ge(ncols, 1);
    *out = strdup(values[0] ? values[0] : "");
    return false;
}

/* The entry of a game's log (rpl_archive_entry_new()), kept with it. */
struct held {
    struct rpl_log *log;
    struct rpl_archive_entry *e;
};

static void
hold(struct rpl_ctx *ctx, struct rpl_ctx *keep, struct held *h,
     const char *text, size_t len)
{
    struct rpl_error err;

    h->log = parse_verified(ctx, text, len);
    ck_assert_msg(rpl_archive_entry_new(h->log, keep, &h->e, &err) == RPL_OK,
                  "%s", err.msg);
}

static void
let_go(struct held *h)
{
    rpl_archive_entry_free(h->e);
    rpl_log_free(h->log);
}

/* rpl_archive_add_entries() is rpl_archive_add() of each entry in turn:
 * a run stops at the one that fails (a fork of a stored game), which
 * changes nothing, and keeps those before it, under the gids that adding
 * them one at a time gives. */
START_TEST(add_entries_in_runs)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_seckey *dealer = dealer_key(ctx);
    struct rec_opts o = {2, 3, 7, true, true, "2026-11-29T11:32:18Z", NULL};
    struct game g[3], complete, finished;
    struct rpl_archive *ar, *one;
    struct rpl_archive_entry *e[4];
    enum rpl_archive_added what[4];
    struct held h[4];
    struct rpl_log *fork = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    struct tmp t, t1;
    char *text;
    size_t len = 0, done = 9, quests = 0;
    static const char *const dump =
        "SELECT group_concat(gid || ':' || id || ':' || players, ' ') "
        "FROM (SELECT * FROM game ORDER BY gid)";
    char *a = NULL, *b = NULL;

    tmp_make(&t);
    tmp_make(&t1);
    make_corpus(ctx, g, 3);
    record(ctx, &o, &complete, &finished);
    /* The game sealed after its second quest: another history. */
    text = malloc(complete.len + 8);
    ck_assert_ptr_nonnull(text);
    for (const char *p = complete.text; p < complete.text + complete.len;) {
        const char *nl =
            memchr(p, '\n', complete.len - (size_t)(p - complete.text));
        const size_t n = (size_t)(nl - p) + 1;

        memcpy(text + len, p, n);
        len += n;
        p += n;
        if (n > 6 && memcmp(text + len - n, "quest ", 6) == 0 && ++quests == 2)
            break;
    }
    memcpy(text + len, "seal\n", 5);
    len += 5;
    ck_assert_int_eq(rpl_log_parse(ctx, &fork, text, len, true, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_reseal(fork, dealer, &err), RPL_OK);
    ck_assert_int_eq(rpl_log_verify(fork, NULL, &rep), RPL_OK);

    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    ck_assert_int_eq(add_game(ctx, ar, &complete), RPL_ARCHIVE_ADDED);
    hold(ctx, ctx, &h[0], g[0].text, g[0].len);
    hold(ctx, NULL, &h[1], g[1].text, g[1].len);
    h[2].log = fork;
    ck_assert_int_eq(rpl_archive_entry_new(fork, ctx, &h[2].e, &err), RPL_OK);
    hold(ctx, ctx, &h[3], g[2].text, g[2].len);
    for (size_t i = 0; i < 4; i++)
        e[i] = h[i].e;
    ck_assert_int_eq(rpl_archive_add_entries(ar, e, 4, what, &done, &err),
                     RPL_E_STATE);
    ck_assert_uint_eq(done, 0);
    ck_assert_int_eq(rpl_archive_begin(ar, NULL), RPL_OK);
    ck_assert_int_eq(rpl_archive_add_entries(ar, e, 4, what, &done, &err),
                     RPL_E_SEAL);
    ck_assert_msg(strstr(err.msg, "a fork"), "%s", err.msg);
    ck_assert_uint_eq(done, 2);
    ck_assert_int_eq(what[0], RPL_ARCHIVE_ADDED);
    ck_assert_int_eq(what[1], RPL_ARCHIVE_ADDED);
    ck_assert_int_eq(rpl_archive_add_entries(ar, e + 3, 1, what, &done, &err),
                     RPL_OK);
    ck_assert_uint_eq(done, 1);
    /* Again: present, each. */
    ck_assert_int_eq(rpl_archive_add_entries(ar, e, 2, what, &done, &err),
                     RPL_OK);
    ck_assert_uint_eq(done, 2);
    ck_assert_int_eq(what[1], RPL_ARCHIVE_PRESENT);
    ck_assert_int_eq(rpl_archive_add_entries(ar, e, 0, what, &done, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_archive_commit(ar, NULL), RPL_OK);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 4);
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, NULL), RPL_OK);

    /* The same, one rpl_archive_add() at a time. */
    one = open_archive(ctx, t1.db, RPL_ARCHIVE_CREATE);
    ck_assert_int_eq(add_game(ctx, one, &complete), RPL_ARCHIVE_ADDED);
    ck_assert_int_eq(rpl_archive_begin(one, NULL), RPL_OK);
    add_game(ctx, one, &g[0]);
    add_game(ctx, one, &g[1]);
    ck_assert_int_eq(rpl_archive_add(one, fork, NULL, &err), RPL_E_SEAL);
    add_game(ctx, one, &g[2]);
    ck_assert_int_eq(rpl_archive_commit(one, NULL), RPL_OK);
    ck_assert_int_eq(rpl_archive_sql(ar, dump, cell_text, &a, &err), RPL_OK);
    ck_assert_int_eq(rpl_archive_sql(one, dump, cell_text, &b, &err), RPL_OK);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    rpl_archive_close(one);
    rpl_archive_close(ar);
    for (size_t i = 0; i < 4; i++)
        let_go(&h[i]);
    free(text);
    free(complete.text);
    free(finished.text);
    free_corpus(g, 3);
    rpl_seckey_free(dealer);
    tmp_remove(&t1);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* ------------------------------------------------------------ queries */

struct filter_case {
    const char *name;
    struct rpl_archive_filter f;
};

/* Whether game g matches f, computed from what its log says. */
static bool
model_match(const struct game *g, const struct rpl_archive_filter *f)
{
    bool seat_ok = !(f->player || f->role || f->side);

    if (f->game && strcmp(f->game, "avalon") != 0)
        return false;
    if (f->id && strncmp(g->id, f->id, strlen(f->id)) != 0)
        return false;
    if (f->winner && strcmp(g->winner, f->winner) != 0)
        return false;
    if (f->reason && strcmp(g->reason, f->reason) != 0)
        return false;
    if (f->players && g->players != f->players)
        return false;
    if (f->since && (!g->created[0] || strcmp(g->created, f->since) < 0))
        return false;
    if (f->until && (!g->created[0] || strcmp(g->created, f->until) >= 0))
        return false;
    for (size_t k = 1; !seat_ok && k <= g->players; k++)
        seat_ok = (!f->player || strcmp(g->names[k], f->player) == 0) &&
                  (!f->role || strcmp(g->roles[k], f->role) == 0) &&
                  (!f->side || strcmp(g->sides[k], f->side) == 0);
    return seat_ok;
}

START_TEST(query_filters)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game *g = calloc(NGAMES, sizeof(*g));
    struct rpl_archive *ar;
    struct tmp t;
    char prefix[3];
    const struct filter_case cases[] = {
        {"all", {0}},
        {"game", {.game = "avalon"}},
        {"other game", {.game = "soc"}},
        {"player", {.player = "Alice"}},
        {"nobody", {.player = "Mallory"}},
        {"player as merlin", {.player = "Alice", .role = "merlin"}},
        {"player evil", {.player = "Bob", .side = "evil"}},
        {"player good", {.player = "Carol", .side = "good"}},
        {"role", {.role = "mordred"}},
        {"role and side", {.role = "oberon", .side = "evil"}},
        {"winner good", {.winner = "good"}},
        {"winner evil", {.winner = "evil"}},
        {"reason", {.reason = "assassination"}},
        {"reason missed", {.reason = "missed"}},
        {"players", {.players = 7}},
        {"players and winner", {.players = 5, .winner = "evil"}},
        {"since", {.since = "2026-11-24"}},
        {"until", {.until = "2026-11-23"}},
        {"day", {.since = "2026-11-22", .until = "2026-11-23"}},
        {"exact time", {.since = "2026-11-21T01:00:00Z"}},
        {"id prefix", {.id = prefix}},
        {"all at once",
         {.game = "avalon",
          .player = "Dave",
          .side = "good",
          .winner = "good",
          .since = "2026-11-20"}},
    };

    ck_assert_ptr_nonnull(g);
    tmp_make(&t);
    make_corpus(ctx, g, NGAMES);
    snprintf(prefix, sizeof(prefix), "%.2s", g[5].id);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, NGAMES);
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct ids *ids = calloc(1, sizeof(*ids));
        size_t expected = 0;
        struct rpl_error err;

        ck_assert_ptr_nonnull(ids);
        ids->games = g;
        ids->ngames = NGAMES;
        ck_assert_msg(rpl_archive_query(ar, &cases[c].f, collect, ids, &err) ==
                          RPL_OK,
                      "%s: %s", cases[c].name, err.msg);
        for (size_t i = 0; i < NGAMES; i++) {
            const bool want = model_match(&g[i], &cases[c].f);

            expected += want;
            ck_assert_msg(has_id(ids, g[i].id) == want, "%s: game %zu (%s) %s",
                          cases[c].name, i, g[i].id,
                          want ? "missing" : "not expected");
        }
        ck_assert_msg(ids->n == expected, "%s: %zu games, expected %zu",
                      cases[c].name, ids->n, expected);
        free(ids);
    }
    /* The corpus has games of each kind the cases look for. */
    ck_assert(model_match(&g[0], &cases[3].f) ||
              model_match(&g[1], &cases[3].f));
    rpl_archive_close(ar);
    free_corpus(g, NGAMES);
    free(g);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

START_TEST(query_bad_filters)
{
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_archive *ar;
    struct ids ids;
    struct tmp t;
    const struct rpl_archive_filter bad[] = {
        {.since = "yesterday"},
        {.since = "2026-02-30"},
        {.until = "2026-11-29T25:00:00Z"},
        {.id = "XYZ"},
        {.id = "00112233445566778899aabbccddeeff00"},
        {.id = ""},
    };

    tmp_make(&t);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct rpl_error err;
        char *json = NULL;

        memset(&ids, 0, sizeof(ids));
        ck_assert_int_eq(rpl_archive_query(ar, &bad[i], collect, &ids, &err),
                         RPL_E_ARG);
        ck_assert_int_eq(rpl_archive_stats(ar, &bad[i], &json, &err),
                         RPL_E_ARG);
        ck_assert_ptr_null(json);
        ck_assert_int_eq(
            rpl_archive_audit(ar, &bad[i], RPL_ARCHIVE_TEXT, &json, NULL, &err),
            RPL_E_ARG);
        ck_assert_ptr_null(json);
    }
    /* The audit writes text and JSON, not a chart; an empty archive
     * has nothing to flag. */
    {
        struct rpl_error err;
        char *out = NULL;
        bool is_flagged = true;

        ck_assert_int_eq(
            rpl_archive_audit(ar, NULL, RPL_ARCHIVE_SVG, &out, NULL, &err),
            RPL_E_ARG);
        ck_assert_ptr_null(out);
        ck_assert_int_eq(rpl_archive_audit(ar, NULL, RPL_ARCHIVE_JSON, &out,
                                           &is_flagged, &err),
                         RPL_OK);
        ck_assert(!is_flagged);
        ck_assert_ptr_nonnull(strstr(out, "\"tests\":0,\"flagged\":0"));
        rpl_free(ctx, out);
    }
    rpl_archive_close(ar);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* -------------------------------------------------------------- stats */

static json_int_t
jint(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);

    ck_assert_msg(json_is_integer(v), "%s is not an integer", key);
    return json_integer_value(v);
}

START_TEST(stats_match_the_logs)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game *g = calloc(NGAMES, sizeof(*g));
    struct rpl_archive *ar;
    struct rpl_error err;
    struct tmp t;
    char *text = NULL, untouched[] = "untouched";
    json_t *root, *a, *e;
    json_error_t jerr;
    size_t i, good = 0, evil = 0, tries = 0, hits = 0, complete = 0;
    size_t by_n[11] = {0}, evil_n[11] = {0};

    ck_assert_ptr_nonnull(g);
    tmp_make(&t);
    make_corpus(ctx, g, NGAMES);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, NGAMES);
    ck_assert_msg(rpl_archive_stats(ar, NULL, &text, &err) == RPL_OK, "%s",
                  err.msg);
    root = json_loads(text, 0, &jerr);
    ck_assert_msg(root, "%s: %s", jerr.text, text);
    for (i = 0; i < NGAMES; i++) {
        good += strcmp(g[i].winner, "good") == 0;
        evil += strcmp(g[i].winner, "evil") == 0;
        tries += strcmp(g[i].reason, "assassination") == 0 ||
                 strcmp(g[i].reason, "missed") == 0;
        hits += strcmp(g[i].reason, "assassination") == 0;
        complete += g[i].progress == RPL_PROGRESS_COMPLETE;
        by_n[g[i].players]++;
        evil_n[g[i].players] += strcmp(g[i].winner, "evil") == 0;
    }
    ck_assert_int_eq(jint(root, "games"), NGAMES);
    ck_assert_int_eq(jint(root, "good"), good);
    ck_assert_int_eq(jint(root, "evil"), evil);
    ck_assert_int_eq(jint(root, "complete"), complete);
    ck_assert_int_eq(jint(root, "finished"), NGAMES - complete);
    ck_assert_int_eq(jint(root, "assassinations"), tries);
    ck_assert_int_eq(jint(root, "hits"), hits);
    ck_assert(good > 0 && evil > 0);
    /* evil_rate = evil / (good + evil), four places. */
    {
        const double want = (double)evil / (double)(good + evil);
        const double got =
            json_number_value(json_object_get(root, "evil_rate"));

        ck_assert(got > want - 0.00006 && got < want + 0.00006);
    }
    a = json_object_get(root, "by_players");
    ck_assert_uint_eq(json_array_size(a), 6);
    json_array_foreach(a, i, e)
    {
        const json_int_t n = jint(e, "players");

        ck_assert(n >= 5 && n <= 10);
        ck_assert_int_eq(jint(e, "games"), by_n[n]);
        ck_assert_int_eq(jint(e, "evil"), evil_n[n]);
    }
    a = json_object_get(root, "reasons");
    {
        json_int_t sum = 0;

        json_array_foreach(a, i, e) sum += jint(e, "games");
        ck_assert_int_eq(sum, NGAMES);
    }
    /* Per player: games, and wins over the revealed games. */
    a = json_object_get(root, "records");
    ck_assert_uint_eq(json_array_size(a), 10);
    json_array_foreach(a, i, e)
    {
        const char *name = json_string_value(json_object_get(e, "name"));
        size_t games = 0, wins = 0, revealed = 0;

        for (size_t j = 0; j < NGAMES; j++)
            for (size_t k = 1; k <= g[j].players; k++) {
                if (strcmp(g[j].names[k], name) != 0)
                    continue;
                games++;
                if (!g[j].sides[k][0])
                    continue;
                revealed++;
                wins += strcmp(g[j].sides[k], g[j].winner) == 0;
            }
        ck_assert_int_eq(jint(e, "games"), games);
        ck_assert_int_eq(jint(e, "revealed"), revealed);
        ck_assert_int_eq(jint(e, "wins"), wins);
        ck_assert_int_eq(jint(e, "losses"), revealed - wins);
    }
    ck_assert_uint_gt(json_array_size(json_object_get(root, "by_roles")), 0);
    ck_assert_uint_gt(json_array_size(json_object_get(root, "roles")), 0);
    /* The game's own object holds the same figures as the keys kept at
     * the top; the other game's object is there, with no games. */
    {
        const json_t *av = json_object_get(root, "avalon");
        static const char *const same[] = {"good",       "evil",   "aborted",
                                           "evil_rate",  "hits",   "reasons",
                                           "by_players", "records"};

        ck_assert(json_is_object(av));
        ck_assert_int_eq(jint(av, "games"), NGAMES);
        for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
            ck_assert_msg(json_equal(json_object_get(av, same[i]),
                                     json_object_get(root, same[i])),
                          "%s", same[i]);
        ck_assert_int_eq(jint(json_object_get(root, "soc"), "games"), 0);
    }
    json_decref(root);
    rpl_free(ctx, text);

    /* The text: the counts, then the game's section; the chart: one. */
    ck_assert_int_eq(
        rpl_archive_stats_as(ar, NULL, RPL_ARCHIVE_TEXT, &text, &err), RPL_OK);
    ck_assert_msg(strncmp(text, "games: ", 7) == 0, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "\navalon: "));
    ck_assert_ptr_null(strstr(text, "\nsoc: "));
    rpl_free(ctx, text);
    ck_assert_int_eq(
        rpl_archive_stats_as(ar, NULL, RPL_ARCHIVE_SVG, &text, &err), RPL_OK);
    ck_assert_msg(strncmp(text, "<?xml ", 6) == 0, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "Avalon: win rate by player count"));
    ck_assert_ptr_null(strstr(text, "Shadows over Camelot"));
    ck_assert_ptr_nonnull(strstr(text, "</svg>\n"));
    rpl_free(ctx, text);
    text = untouched;
    ck_assert_int_eq(
        rpl_archive_stats_as(ar, NULL, (enum rpl_archive_format)7, &text, &err),
        RPL_E_ARG);
    ck_assert_ptr_null(text);

    /* A filter that selects nothing: zero counts, null rates. */
    {
        const struct rpl_archive_filter none = {.player = "Mallory"};

        ck_assert_int_eq(rpl_archive_stats(ar, &none, &text, &err), RPL_OK);
        root = json_loads(text, 0, &jerr);
        ck_assert_ptr_nonnull(root);
        ck_assert_int_eq(jint(root, "games"), 0);
        ck_assert(json_is_null(json_object_get(root, "evil_rate")));
        ck_assert_uint_eq(json_array_size(json_object_get(root, "records")), 0);
        json_decref(root);
        rpl_free(ctx, text);
        ck_assert_int_eq(
            rpl_archive_stats_as(ar, &none, RPL_ARCHIVE_TEXT, &text, &err),
            RPL_OK);
        ck_assert_str_eq(text, "games: 0 (0 complete, 0 finished, 0 in "
                               "progress; 0 imported, 0 with variants)\n");
        rpl_free(ctx, text);
        ck_assert_int_eq(
            rpl_archive_stats_as(ar, &none, RPL_ARCHIVE_SVG, &text, &err),
            RPL_OK);
        ck_assert_ptr_nonnull(strstr(text, ">no games<"));
        rpl_free(ctx, text);
    }
    rpl_archive_close(ar);
    free_corpus(g, NGAMES);
    free(g);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* ---------------------------------------------------------------- sql */

struct rows {
    size_t n;
    size_t ncols;
    char first[80];
    enum rpl_sql_type types[4];
};

static bool
count_rows(void *ud, size_t ncols, const char *const *names,
           const char *const *values, const enum rpl_sql_type *types)
{
    struct rows *r = ud;

    ck_assert_ptr_nonnull(names[0]);
    if (r->n++ == 0) {
        r->ncols = ncols;
        snprintf(r->first, sizeof(r->first), "%s",
                 values[0] ? values[0] : "(null)");
        for (size_t i = 0; i < ncols && i < 4; i++)
            r->types[i] = types[i];
    }
    return true;
}

START_TEST(sql_is_read_only)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[2];
    struct rpl_archive *ar;
    struct rows r;
    struct rpl_error err;
    struct tmp t;
    char attach[160];
    const char *refused[] = {
        "INSERT INTO game (game) VALUES ('x')",
        "DELETE FROM game",
        "UPDATE seat SET role = 'merlin'",
        "DROP TABLE game",
        "CREATE TABLE x (y)",
        "CREATE TEMP TABLE x (y)",
        "PRAGMA user_version = 7",
        "PRAGMA journal_mode = DELETE",
        "PRAGMA writable_schema = ON",
        "SELECT 1; DELETE FROM game",
        "SELECT 1; SELECT 2",
        "BEGIN",
        "VACUUM",
        "",
        "-- nothing",
        "SELEC 1",
        attach,
    };

    tmp_make(&t);
    snprintf(attach, sizeof(attach), "ATTACH '%s/other.db' AS o", t.dir);
    make_corpus(ctx, g, 2);
    for (int mode = RPL_ARCHIVE_CREATE; mode >= RPL_ARCHIVE_READ; mode -= 2) {
        ar = open_archive(ctx, t.db, (enum rpl_archive_mode)mode);
        if (mode == RPL_ARCHIVE_CREATE)
            add_all(ctx, ar, g, 2);
        memset(&r, 0, sizeof(r));
        ck_assert_int_eq(rpl_archive_sql(ar,
                                         "SELECT name, seat, seal, NULL FROM "
                                         "seat JOIN game USING (gid) ORDER BY "
                                         "name;",
                                         count_rows, &r, &err),
                         RPL_OK);
        ck_assert_uint_eq(r.n, g[0].players + g[1].players);
        ck_assert_uint_eq(r.ncols, 4);
        ck_assert_int_eq(r.types[0], RPL_SQL_TEXT);
        ck_assert_int_eq(r.types[1], RPL_SQL_INTEGER);
        ck_assert_int_eq(r.types[2], RPL_SQL_BLOB);
        ck_assert_int_eq(r.types[3], RPL_SQL_NULL);
        memset(&r, 0, sizeof(r));
        ck_assert_int_eq(rpl_archive_sql(ar, "PRAGMA table_info(game)",
                                         count_rows, &r, &err),
                         RPL_OK);
        ck_assert_uint_gt(r.n, 10);
        memset(&r, 0, sizeof(r));
        ck_assert_int_eq(rpl_archive_sql(ar,
                                         "SELECT lower(hex(seal)) FROM game "
                                         "ORDER BY gid",
                                         count_rows, &r, &err),
                         RPL_OK);
        ck_assert_uint_eq(strlen(r.first), 64);
        for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
            memset(&r, 0, sizeof(r));
            ck_assert_msg(rpl_archive_sql(ar, refused[i], count_rows, &r,
                                          &err) == RPL_E_ARG,
                          "\"%s\" was not refused", refused[i]);
            ck_assert_uint_eq(r.n, 0);
        }
        ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 2);
        rpl_archive_close(ar);
    }
    ck_assert(access(attach + 8, F_OK) != 0);
    free_corpus(g, 2);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* ------------------------------------------------------------- export */

struct exporter {
    struct rpl_archive *ar;
    const char *dir;
    size_t n;
};

static bool
export_one(void *ud, const struct rpl_archive_game *g)
{
    struct exporter *x = ud;
    char path[256];
    struct rpl_error err;

    snprintf(path, sizeof(path), "%s/%s.camelog", x->dir, g->id);
    ck_assert_msg(
        rpl_archive_export(x->ar, g->id, g->seal, path, false, &err) == RPL_OK,
        "%s", err.msg);
    ck_assert_int_eq(
        rpl_archive_export(x->ar, g->id, g->seal, path, false, &err),
        RPL_E_EXISTS);
    x->n++;
    return true;
}

static uint8_t *
slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = malloc(1 << 20);
    size_t n;

    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(buf);
    n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    *len = n;
    return buf;
}

/* Export writes each log as camelog writes it, byte for byte. */
START_TEST(export_byte_for_byte)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[6];
    struct rpl_archive *ar;
    struct exporter x;
    struct rpl_error err;
    struct tmp t;
    char out[128], orig[128];

    tmp_make(&t);
    make_corpus(ctx, g, 6);
    snprintf(out, sizeof(out), "%s/out", t.dir);
    ck_assert_int_eq(mkdir(out, 0755), 0);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, 6);
    rpl_archive_close(ar);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
    x.ar = ar;
    x.dir = out;
    x.n = 0;
    ck_assert_int_eq(rpl_archive_query(ar, NULL, export_one, &x, &err), RPL_OK);
    ck_assert_uint_eq(x.n, 6);
    for (size_t i = 0; i < 6; i++) {
        struct rpl_log *log = parse_verified(ctx, g[i].text, g[i].len);
        struct rpl_log *back = NULL;
        struct rpl_report rep;
        uint8_t *a, *b;
        size_t a_len, b_len, len;
        const char *text;

        snprintf(orig, sizeof(orig), "%s/orig-%zu.camelog", t.dir, i);
        ck_assert_int_eq(rpl_log_write(log, orig, false, NULL), RPL_OK);
        snprintf(out, sizeof(out), "%s/out/%s.camelog", t.dir, g[i].id);
        a = slurp(orig, &a_len);
        b = slurp(out, &b_len);
        ck_assert_uint_eq(a_len, b_len);
        ck_assert_mem_eq(a, b, a_len);
        ck_assert_int_eq(rpl_log_read(ctx, &back, out, NULL), RPL_OK);
        ck_assert_int_eq(rpl_log_verify(back, NULL, &rep), RPL_OK);
        text = rpl_log_text(back, &len);
        ck_assert_uint_eq(len, g[i].len);
        ck_assert_mem_eq(text, g[i].text, len);
        free(a);
        free(b);
        rpl_log_free(back);
        rpl_log_free(log);
    }
    ck_assert_int_eq(rpl_archive_export(ar, g[0].id, "00", out, true, &err),
                     RPL_E_ARG);
    ck_assert_int_eq(rpl_archive_export(ar, "0011", g[0].id, out, true, &err),
                     RPL_E_ARG);
    ck_assert_int_eq(rpl_archive_export(ar, g[0].id,
                                        "00000000000000000000000000000000"
                                        "00000000000000000000000000000000",
                                        out, true, &err),
                     RPL_E_ARG);
    rpl_archive_close(ar);
    free_corpus(g, 6);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* -------------------------------------------------------------- check */

struct problems {
    size_t n;
    size_t with_id;
    char last[RPL_ERRMSG_MAX];
};

static void
note_problem(void *ud, const char *id, const struct rpl_error *e)
{
    struct problems *p = ud;

    p->n++;
    p->with_id += id ? 1 : 0;
    snprintf(p->last, sizeof(p->last), "%s", e->msg);
}

/* Tampering through SQLite itself, and what check finds. */
START_TEST(check_finds_tampering)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[5];
    struct rpl_archive *ar;
    struct problems p;
    struct rpl_error err;
    size_t n = 0;
    struct tmp t;
    const char *tamper[] = {
        /* an index that says something the log does not */
        "UPDATE seat SET role = 'mordred' WHERE gid = 2 AND seat = 1",
        "UPDATE game SET winner = 'good', reason = 'quests' WHERE gid = 3",
        "DELETE FROM card WHERE gid = 1 AND round = 1",
        "INSERT INTO lady VALUES (4, 9, 1, 2, 'good')",
        "UPDATE game SET players = players + 1 WHERE gid = 5",
        /* a stored log that is no longer the game */
        "UPDATE log SET gz = x'1f8b0800' WHERE gid = 2",
        "DELETE FROM log WHERE gid = 3",
        "UPDATE game SET seal = zeroblob(32) WHERE gid = 4",
    };

    tmp_make(&t);
    make_corpus(ctx, g, 5);
    for (size_t i = 0; i < sizeof(tamper) / sizeof(tamper[0]); i++) {
        ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
        add_all(ctx, ar, g, 5);
        memset(&p, 0, sizeof(p));
        ck_assert_int_eq(rpl_archive_check(ar, note_problem, &p, &n, &err),
                         RPL_OK);
        ck_assert_uint_eq(p.n, 0);
        ck_assert_uint_eq(n, 5);
        rpl_archive_close(ar);

        raw_exec(t.db, tamper[i]);
        ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
        memset(&p, 0, sizeof(p));
        ck_assert_msg(rpl_archive_check(ar, note_problem, &p, &n, &err) !=
                          RPL_OK,
                      "check found nothing after: %s", tamper[i]);
        ck_assert_msg(p.n >= 1, "%s", tamper[i]);
        ck_assert_msg(p.with_id >= 1, "%s", tamper[i]);
        ck_assert_ptr_nonnull(strstr(err.msg, "game "));
        rpl_archive_close(ar);
        rm_db(&t);
    }
    free_corpus(g, 5);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* ------------------------------------------------- a hostile archive */

/* archive sql calls only the functions of its list: no
 * fts3_tokenizer() (a libsqlite3 address), no extensions. */
START_TEST(sql_allows_listed_functions)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[1];
    struct rpl_archive *ar;
    struct rows r;
    struct rpl_error err;
    struct tmp t;
    const char *refused[] = {
        "SELECT hex(fts3_tokenizer('porter'))",
        "SELECT fts3_tokenizer('simple')",
        "SELECT load_extension('/lib/x.so')",
        "SELECT length(randomblob(500000000))",
        "SELECT zeroblob(10)",
        "SELECT sqlite_compileoption_used('THREADSAFE')",
        "SELECT count(*) FROM game WHERE FTS3_TOKENIZER('porter') IS NULL",
    };

    tmp_make(&t);
    make_corpus(ctx, g, 1);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, 1);
    rpl_archive_close(ar);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        memset(&r, 0, sizeof(r));
        ck_assert_msg(rpl_archive_sql(ar, refused[i], count_rows, &r, &err) ==
                          RPL_E_ARG,
                      "\"%s\" was not refused", refused[i]);
        ck_assert_msg(strstr(err.msg, "the function ") &&
                          strstr(err.msg, "is not allowed"),
                      "%s: %s", refused[i], err.msg);
        ck_assert_uint_eq(r.n, 0);
    }
    ck_assert_ptr_nonnull(strstr(err.msg, "tokenizer()"));
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) + max(players) + "
                                   "abs(-1) + length(json_object('a', 1)) + "
                                   "coalesce(NULL, 0) + "
                                   "length(date('2026-01-01')) + "
                                   "json_array_length('[1]') + "
                                   "row_number() OVER () FROM game"),
                     1 + (long long)g[0].players + 1 + 7 + 0 + 10 + 1 + 1);
    rpl_archive_close(ar);
    free_corpus(g, 1);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* Every statement runs within the limits of limits.h, and the error
 * names the limit. */
START_TEST(sql_limits)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[1];
    struct rpl_archive *ar;
    struct rows r;
    struct rpl_error err;
    struct tmp t;
    char *deep, *compound, *longsql;
    size_t n = 0;

    tmp_make(&t);
    make_corpus(ctx, g, 1);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, 1);
    rpl_archive_close(ar);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
    /* An unbounded recursive query runs out of steps. */
    ck_assert_int_eq(rpl_archive_sql(ar,
                                     "WITH RECURSIVE c(x) AS (SELECT 1 UNION "
                                     "ALL SELECT x + 1 FROM c) SELECT "
                                     "count(*) FROM c",
                                     count_rows, &r, &err),
                     RPL_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(err.msg, "RPL_MAX_SQL_STEPS"));
    /* A value that doubles until it is too long. */
    ck_assert_int_eq(rpl_archive_sql(ar,
                                     "WITH RECURSIVE c(s) AS (SELECT 'x' "
                                     "UNION ALL SELECT s || s FROM c) SELECT "
                                     "max(length(s)) FROM c",
                                     count_rows, &r, &err),
                     RPL_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(err.msg, "RPL_MAX_SQL_VALUE"));
    /* Depth of an expression, terms of a compound SELECT, SQL text. */
    deep = malloc(8 * (RPL_MAX_SQL_DEPTH + 1) + 32);
    compound = malloc(20 * (RPL_MAX_SQL_COMPOUND + 1) + 32);
    longsql = malloc(RPL_MAX_SQL_TEXT + 64);
    ck_assert(deep && compound && longsql);
    n = (size_t)sprintf(deep, "SELECT 1");
    for (size_t i = 0; i <= RPL_MAX_SQL_DEPTH; i++)
        n += (size_t)sprintf(deep + n, " + 1");
    ck_assert_int_eq(rpl_archive_sql(ar, deep, count_rows, &r, &err),
                     RPL_E_ARG);
    ck_assert_msg(strstr(err.msg, "depth"), "%s", err.msg);
    n = (size_t)sprintf(compound, "SELECT 1");
    for (size_t i = 0; i < RPL_MAX_SQL_COMPOUND; i++)
        n += (size_t)sprintf(compound + n, " UNION ALL SELECT 1");
    ck_assert_int_eq(rpl_archive_sql(ar, compound, count_rows, &r, &err),
                     RPL_E_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "compound"));
    n = (size_t)sprintf(longsql, "SELECT 1");
    memset(longsql + n, ' ', RPL_MAX_SQL_TEXT);
    longsql[n + RPL_MAX_SQL_TEXT] = '\0';
    ck_assert_int_eq(rpl_archive_sql(ar, longsql, count_rows, &r, &err),
                     RPL_E_LIMIT);
    ck_assert_ptr_nonnull(strstr(err.msg, "RPL_MAX_SQL_TEXT"));
    /* The connection is usable after each. */
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 1);
    free(deep);
    free(compound);
    free(longsql);
    rpl_archive_close(ar);
    free_corpus(g, 1);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

static void
stats_err(struct rpl_ctx *ctx, struct rpl_archive *ar, enum rpl_status want,
          const char *msg)
{
    struct rpl_error err;
    char *json = NULL;

    ck_assert_int_eq(rpl_archive_stats(ar, NULL, &json, &err), want);
    if (want != RPL_OK)
        ck_assert_msg(strstr(err.msg, msg), "%s", err.msg);
    rpl_free(ctx, json);
}

/* An archive whose schema lies: opened for reading with a warning,
 * refused for writing, and check names every object. */
START_TEST(schema_lies)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[3];
    struct rpl_archive *ar;
    struct problems p;
    struct rows r;
    struct rpl_error err;
    struct tmp t;
    size_t n = 0;
    static const struct {
        const char *sql, *name;
    } lie[] = {
        {"DROP VIEW seat_result; CREATE VIEW seat_result AS SELECT s.gid, "
         "s.seat, s.name, s.role, s.side, g.game, g.players, g.winner, "
         "g.reason, s.name = 'Alice' AS won FROM seat s JOIN game g USING "
         "(gid)",
         "view seat_result differs"},
        {"CREATE TRIGGER keep_one AFTER INSERT ON log BEGIN DELETE FROM game "
         "WHERE gid <> new.gid; END",
         "trigger keep_one is not this library's"},
        {"DROP INDEX seat_name", "index seat_name is missing"},
        {"CREATE TABLE notes (x)", "table notes is not this library's"},
        /* A game's table, as its data says, with one allowed value more. */
        {"DROP TABLE lady; CREATE TABLE lady (gid INTEGER NOT NULL "
         "REFERENCES game (gid) ON DELETE CASCADE, round INTEGER NOT NULL, "
         "holder INTEGER NOT NULL, target INTEGER NOT NULL, result TEXT "
         "CHECK (result IN ('good', 'evil', 'both')), PRIMARY KEY (gid, "
         "round)) WITHOUT ROWID",
         "table lady differs"},
        {"DROP INDEX soc_quest_result", "index soc_quest_result is missing"},
        {"DROP VIEW seat_result; CREATE VIEW seat_result AS WITH RECURSIVE "
         "c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT s.gid, "
         "s.seat, s.name, s.role, s.side, g.game, g.players, g.winner, "
         "g.reason, (SELECT count(*) FROM c) AS won FROM seat s JOIN game g "
         "USING (gid)",
         "view seat_result differs"},
    };

    tmp_make(&t);
    make_corpus(ctx, g, 3);
    for (size_t i = 0; i < sizeof(lie) / sizeof(lie[0]); i++) {
        ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
        add_all(ctx, ar, g, 2);
        ck_assert_ptr_null(rpl_archive_warning(ar));
        rpl_archive_close(ar);
        raw_exec(t.db, lie[i].sql);
        /* Writing: refused, naming the object. */
        ck_assert_int_eq(
            rpl_archive_open(ctx, &ar, t.db, RPL_ARCHIVE_WRITE, &err),
            RPL_E_UNSUPPORTED);
        ck_assert_ptr_null(ar);
        ck_assert_msg(strstr(err.msg, lie[i].name), "%s", err.msg);
        /* Reading: a warning. */
        ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
        ck_assert_ptr_nonnull(rpl_archive_warning(ar));
        ck_assert_msg(strstr(rpl_archive_warning(ar), lie[i].name), "%s",
                      rpl_archive_warning(ar));
        memset(&p, 0, sizeof(p));
        ck_assert_int_ne(rpl_archive_check(ar, note_problem, &p, &n, &err),
                         RPL_OK);
        ck_assert_uint_ge(p.n, 1);
        ck_assert_msg(strstr(err.msg, lie[i].name), "%s", err.msg);
        if (i == sizeof(lie) / sizeof(lie[0]) - 1) {
            /* A view that never ends: a query of it stops; the
             * statistics read the tables as data and never reach it. */
            memset(&r, 0, sizeof(r));
            ck_assert_int_eq(rpl_archive_sql(ar,
                                             "SELECT sum(won) FROM "
                                             "seat_result",
                                             count_rows, &r, &err),
                             RPL_E_LIMIT);
            ck_assert_ptr_nonnull(strstr(err.msg, "RPL_MAX_SQL_STEPS"));
            stats_err(ctx, ar, RPL_OK, "");
        }
        rpl_archive_close(ar);
        rm_db(&t);
    }
    free_corpus(g, 3);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* Two logs of one game stored by hand (an older library stored forks):
 * check reports the fork, the statistics count the game once. */
START_TEST(check_finds_forks)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[2];
    struct rpl_archive *ar;
    struct problems p;
    struct rpl_error err;
    struct tmp t;
    struct ids ids;
    char *json = NULL;
    json_t *o;
    size_t n = 0;

    tmp_make(&t);
    make_corpus(ctx, g, 2);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, 2);
    rpl_archive_close(ar);
    raw_exec(t.db,
             "INSERT INTO game (gid, game, id, seal, created, rules, "
             "players, dealer, progress, imported, rounds, proposals, lines, "
             "seals, sigs) SELECT 100, game, id, zeroblob(32), created, "
             "rules, players, dealer, progress, imported, rounds, proposals, "
             "lines, seals, sigs FROM game WHERE gid = 1; "
             "INSERT INTO log SELECT 100, text_len, gz FROM log WHERE gid = 2");
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
    memset(&p, 0, sizeof(p));
    ck_assert_int_ne(rpl_archive_check(ar, note_problem, &p, &n, &err), RPL_OK);
    ck_assert_msg(strstr(err.msg, "a fork") && strstr(err.msg, "line "), "%s",
                  err.msg);
    ck_assert_int_eq(rpl_archive_stats(ar, NULL, &json, &err), RPL_OK);
    o = json_loads(json, 0, NULL);
    ck_assert_ptr_nonnull(o);
    ck_assert_int_eq(json_integer_value(json_object_get(o, "games")), 2);
    json_decref(o);
    rpl_free(ctx, json);
    memset(&ids, 0, sizeof(ids));
    ck_assert_int_eq(rpl_archive_query(ar, NULL, collect, &ids, &err), RPL_OK);
    ck_assert_uint_eq(ids.n, 2);
    rpl_archive_close(ar);
    free_corpus(g, 2);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* A filter names only what the games know: their names, roles and
 * sides, asked of the games themselves. */
START_TEST(filter_values_from_the_games)
{
    static const char *const pa[] = {"percival-alone"};
    struct rpl_error err;
    static const struct {
        struct rpl_archive_filter f;
        enum rpl_status want;
        const char *msg;
    } c[] = {
        {{.role = "merlim"}, RPL_E_ARG, "role: unknown role \"merlim\""},
        {{.side = "bogus"}, RPL_E_ARG, "side: unknown side \"bogus\""},
        {{.game = "chess"}, RPL_E_ARG, "game: unknown game \"chess\""},
        {{.game = "avalon", .role = "arthur"}, RPL_E_ARG, "(merlin, "},
        {{.game = "avalon", .side = "traitor"}, RPL_E_ARG, "(good, evil)"},
        {{.role = "merlin"}, RPL_OK, NULL},
        {{.role = "arthur"}, RPL_OK, NULL},
        {{.game = "soc", .side = "loyal"}, RPL_OK, NULL},
        {{.side = "evil", .role = "assassin"}, RPL_OK, NULL},
        /* The rest of the filter, checked as query checks it. */
        {{.id = "XYZ"}, RPL_E_ARG, "id: expected 1 to 32 lowercase hex"},
        {{.since = "2020"}, RPL_E_ARG, "since: expected YYYY-MM-DD"},
        {{.until = "2020-01-01T00:00Z"}, RPL_E_ARG, "until: expected"},
        {{.is_official = true, .variants = pa, .nvariants = 1},
         RPL_E_ARG,
         "official: a game under the official rules"},
        {{.game = "soc", .variants = pa, .nvariants = 1},
         RPL_E_ARG,
         "(soc has none)"},
        {{.id = "0a1b", .since = "2020-01-01", .until = "2021-01-01T00:00:00Z"},
         RPL_OK,
         NULL},
    };

    ck_assert_int_eq(rpl_archive_check_filter(NULL, &err), RPL_OK);
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        ck_assert_int_eq(rpl_archive_check_filter(&c[i].f, &err), c[i].want);
        if (c[i].msg)
            ck_assert_msg(strstr(err.msg, c[i].msg), "%s", err.msg);
    }
}
END_TEST

/* Reading works where nothing can be written: a write-ahead-log archive
 * in a directory that is read-only (chattr +i, as root can write through
 * file modes; chmod for others), without its -wal and -shm. */
START_TEST(read_only_media)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[2];
    struct rpl_archive *ar;
    struct ids ids;
    struct rpl_error err;
    struct tmp t;
    char cmd[256], probe[128];
    char *json = NULL;
    size_t n = 0;
    int fd;
    bool is_immutable = false;

    tmp_make(&t);
    make_corpus(ctx, g, 2);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, 2);
    rpl_archive_close(ar);
    ck_assert_int_eq(raw_count(t.db, "PRAGMA journal_mode = wal") >= 0, 1);
    if (geteuid() == 0) {
        snprintf(cmd, sizeof(cmd), "chattr +i %s 2>/dev/null", t.dir);
        is_immutable = system(cmd) == 0;
    } else {
        ck_assert_int_eq(chmod(t.dir, 0555), 0);
    }
    snprintf(probe, sizeof(probe), "%s/probe", t.dir);
    fd = open(probe, O_WRONLY | O_CREAT, 0600);
    if (fd >= 0) {
        close(fd);
        unlink(probe);
        fprintf(stderr,
                "read_only_media: SKIPPED: cannot make %s "
                "read-only (chattr +i failed)\n",
                t.dir);
        goto out;
    }
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
    memset(&ids, 0, sizeof(ids));
    ck_assert_int_eq(rpl_archive_query(ar, NULL, collect, &ids, &err), RPL_OK);
    ck_assert_uint_eq(ids.n, 2);
    ck_assert_int_eq(rpl_archive_stats(ar, NULL, &json, &err), RPL_OK);
    rpl_free(ctx, json);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM seat"),
                     (long long)(g[0].players + g[1].players));
    ck_assert_msg(rpl_archive_check(ar, NULL, NULL, &n, &err) == RPL_OK, "%s",
                  err.msg);
    ck_assert_uint_eq(n, 2);
    rpl_archive_close(ar);
out:
    if (is_immutable) {
        snprintf(cmd, sizeof(cmd), "chattr -i %s", t.dir);
        ck_assert_int_eq(system(cmd), 0);
    } else {
        chmod(t.dir, 0700);
    }
    free_corpus(g, 2);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* ----------------------------------------------- Shadows over Camelot */

/* A game of Shadows over Camelot and what its log says, read from its
 * lines and its reveal through the public API, apart from the archive:
 * the swords are counted from the lines that lay or turn them. */
struct soc_truth {
    char *text;
    size_t len;
    size_t players;
    char id[33];
    char winner[16];
    char reason[16];
    enum rpl_progress progress;
    char names[8][RPL_MAX_NAME + 1];
    char knight[8][16];
    char loyalty[8][8]; /* "" while unknown */
    unsigned died[8];
    long white, black;
    unsigned won, lost, quests;
    unsigned accusations, right;
    int traitor; /* -1 unknown */
    char revealed[16];
    unsigned revealed_line;
    unsigned first;
};

/* One seat's knight token from "knights=a,b,c". */
static void
nth_knight(const char *list, size_t k, char *out, size_t cap)
{
    const char *p = list;

    for (size_t i = 1; i < k && p; i++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    ck_assert_ptr_nonnull(p);
    snprintf(out, cap, "%.*s", (int)strcspn(p, ", "), p);
}

static void
soc_describe(struct rpl_ctx *ctx, struct soc_truth *s)
{
    struct rpl_log *log = parse_verified(ctx, s->text, s->len);
    struct rpl_report rep;
    char prev[16] = "";
    bool traitor_off = false;

    ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
    s->players = rpl_log_seats(log);
    snprintf(s->id, sizeof(s->id), "%s", rep.id);
    snprintf(s->winner, sizeof(s->winner), "%s", rep.winner);
    snprintf(s->reason, sizeof(s->reason), "%s", rep.reason);
    s->progress = rep.progress;
    s->traitor = -1;
    for (size_t k = 1; k <= s->players; k++)
        snprintf(s->names[k], sizeof(s->names[k]), "%s",
                 rpl_log_seat_name(log, k));
    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        size_t n = 0;
        const char *line = rpl_log_line(log, no, &n);
        char buf[300], word[16], what[16];
        unsigned a, b, c;

        snprintf(buf, sizeof(buf), "%.*s", (int)n, line);
        if (strncmp(buf, "rules ", 6) == 0 && strstr(buf, "traitor=off")) {
            traitor_off = true;
            s->traitor = 0;
        } else if (strncmp(buf, "start knights=", 14) == 0) {
            for (size_t k = 1; k <= s->players; k++)
                nth_knight(buf + 14, k, s->knight[k], sizeof(s->knight[k]));
            ck_assert_int_eq(sscanf(strstr(buf, "first=p"), "first=p%u", &a),
                             1);
            s->first = a;
        } else if (sscanf(buf, "quest %15s %15s swords=%u", word, what, &c) ==
                   3) {
            s->quests++;
            if (strcmp(what, "won") == 0) {
                s->won++;
                s->white += c;
            } else {
                s->lost++;
                s->black += c;
            }
        } else if (sscanf(buf, "accuse p%u p%u", &a, &b) == 2) {
            s->accusations++;
        } else if (sscanf(buf, "shows p%u %15s", &a, what) == 2) {
            const bool is_traitor = strcmp(what, "traitor") == 0;

            snprintf(s->loyalty[a], sizeof(s->loyalty[a]), "%s",
                     is_traitor ? "traitor" : "loyal");
            if (strcmp(prev, "accuse") == 0) {
                s->right += is_traitor;
                if (is_traitor) {
                    s->white++;
                } else if (s->white) {
                    s->white--;
                    s->black++;
                } else {
                    s->black++;
                }
            }
            if (is_traitor) {
                s->traitor = (int)a;
                s->revealed_line = (unsigned)no;
                snprintf(s->revealed, sizeof(s->revealed), "%s",
                         strcmp(prev, "accuse") == 0    ? "accusation"
                         : strcmp(prev, "special") == 0 ? "fate"
                                                        : "last");
            }
        } else if (sscanf(buf, "flip p%u", &a) == 1) {
            const long f = s->white < 2 ? s->white : 2;

            s->white -= f;
            s->black += f;
            s->traitor = (int)a;
            s->revealed_line = (unsigned)no;
            snprintf(s->revealed, sizeof(s->revealed), "flip");
            snprintf(s->loyalty[a], sizeof(s->loyalty[a]), "traitor");
        } else if (strcmp(buf, "flip none") == 0) {
            s->traitor = 0;
        } else if (sscanf(buf, "dies p%u", &a) == 1) {
            s->died[a] = (unsigned)no;
        }
        if (strncmp(buf, "sig ", 4) != 0 && strncmp(buf, "seal ", 5) != 0)
            snprintf(prev, sizeof(prev), "%.*s", (int)strcspn(buf, " "), buf);
    }
    if (traitor_off)
        for (size_t k = 1; k <= s->players; k++)
            snprintf(s->loyalty[k], sizeof(s->loyalty[k]), "loyal");
    if (rep.progress == RPL_PROGRESS_COMPLETE) {
        char *json = NULL;
        json_t *root, *e;
        size_t i;

        ck_assert_int_eq(rpl_log_reveal_json(log, &json, NULL), RPL_OK);
        root = json_loads(json, 0, NULL);
        ck_assert_ptr_nonnull(root);
        s->traitor = (int)json_integer_value(json_object_get(root, "traitor"));
        json_array_foreach(json_object_get(root, "seats"), i, e)
        {
            const json_int_t k = json_integer_value(json_object_get(e, "seat"));

            ck_assert_str_eq(json_string_value(json_object_get(e, "knight")),
                             s->knight[k]);
            snprintf(s->loyalty[k], sizeof(s->loyalty[k]), "%s",
                     json_string_value(json_object_get(e, "loyalty")));
        }
        if (s->traitor > 0 && !s->revealed[0])
            snprintf(s->revealed, sizeof(s->revealed), "never");
        json_decref(root);
        rpl_free(ctx, json);
    }
    rpl_log_free(log);
}

/* Records a game of Shadows over Camelot with the plausible players. */
static void
soc_record(struct rpl_ctx *ctx, const char *rules, size_t seats, uint8_t seed,
           bool reveal, struct soc_truth *s)
{
    struct rpl_seckey *dealer = dealer_key(ctx);
    const char *names[RPL_MAX_SEATS];
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t id[16], secret[32], bot[32];

    memset(s, 0, sizeof(*s));
    for (size_t k = 0; k < seats; k++)
        names[k] = NAMES[(k + seed) % 10];
    memset(id, seed, sizeof(id));
    id[0] = 0x50;
    memset(secret, seed ^ 0x3c, sizeof(secret));
    memset(bot, seed ^ 0x11, sizeof(bot));
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = "soc";
    cfg.rules = rules;
    cfg.seats = seats;
    cfg.names = names;
    cfg.dealer = dealer;
    cfg.id = id;
    cfg.secret = secret;
    ck_assert_msg(rpl_rec_new(ctx, &rec, &cfg, &err) == RPL_OK, "%s", err.msg);
    ck_assert_msg(rpl_rec_start(rec, &err) == RPL_OK, "%s", err.msg);
    while (rpl_rec_dealer_turn(rec) != 0)
        ck_assert_msg(rpl_rec_bot(rec, RPL_BOT_PLAUSIBLE, bot, NULL, &err) ==
                          RPL_OK,
                      "line %zu: %s", err.line, err.msg);
    ck_assert_int_eq(rpl_rec_seal(rec, &err), RPL_OK);
    if (reveal)
        ck_assert_msg(rpl_rec_reveal(rec, &err) == RPL_OK, "%s", err.msg);
    ck_assert_int_eq(rpl_rec_log(rec, &log, &err), RPL_OK);
    s->text = copy_text(log, &s->len);
    rpl_log_free(log);
    rpl_rec_free(rec);
    rpl_seckey_free(dealer);
    soc_describe(ctx, s);
}

/* Every seat count, with and without a traitor, three players with the
 * Three Brave Knights, some games not revealed. */
#define NSOC 18

static void
soc_corpus(struct rpl_ctx *ctx, struct soc_truth *s)
{
    for (size_t i = 0; i < NSOC; i++) {
        const size_t n = 3 + i % 5;
        char rules[64];

        snprintf(rules, sizeof(rules), "players=%zu traitor=%s brave=%s", n,
                 i % 6 == 5 ? "off" : "on",
                 n == 3 && i % 6 != 5 ? "on" : "off");
        soc_record(ctx, rules, n, (uint8_t)(0x20 + i), i % 4 != 3, &s[i]);
    }
}

static void
soc_free(struct soc_truth *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(s[i].text);
}

static enum rpl_archive_added
soc_add(struct rpl_ctx *ctx, struct rpl_archive *ar, const struct soc_truth *s)
{
    struct rpl_log *log = parse_verified(ctx, s->text, s->len);
    enum rpl_archive_added what = RPL_ARCHIVE_PRESENT;
    struct rpl_error err;

    ck_assert_msg(rpl_archive_add(ar, log, &what, &err) == RPL_OK,
                  "line %zu: %s", err.line, err.msg);
    rpl_log_free(log);
    return what;
}

/* The rows of one query as text: fields joined by '|', NULL as "-",
 * rows by '\n'. */
struct dump {
    char text[8192];
    size_t len;
};

static bool
dump_rows(void *ud, size_t ncols, const char *const *names,
          const char *const *values, const enum rpl_sql_type *types)
{
    struct dump *d = ud;

    (void)names;
    (void)types;
    for (size_t i = 0; i < ncols; i++) {
        const int n =
            snprintf(d->text + d->len, sizeof(d->text) - d->len, "%s%s",
                     i ? "|" : "", values[i] ? values[i] : "-");

        ck_assert(n >= 0 && (size_t)n < sizeof(d->text) - d->len);
        d->len += (size_t)n;
    }
    ck_assert_uint_lt(d->len + 1, sizeof(d->text));
    d->text[d->len++] = '\n';
    d->text[d->len] = '\0';
    return true;
}

static const char *sqlf(struct rpl_archive *ar, struct dump *d, const char *fmt,
                        ...) RPL__PRINTF(3, 4);

static const char *
sqlf(struct rpl_archive *ar, struct dump *d, const char *fmt, ...)
{
    char sql[512];
    struct rpl_error err;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(sql, sizeof(sql), fmt, ap);
    va_end(ap);
    memset(d, 0, sizeof(*d));
    ck_assert_msg(rpl_archive_sql(ar, sql, dump_rows, d, &err) == RPL_OK,
                  "%s: %s", sql, err.msg);
    return d->text;
}

/* A number as the dump prints it: "-" when unknown (NULL). */
static void
opt_num(char *out, size_t cap, long v, bool is_known)
{
    if (is_known)
        snprintf(out, cap, "%ld", v);
    else
        snprintf(out, cap, "-");
}

/* The archive holds, for every game of Shadows over Camelot, what its
 * log says: knights, loyalty, quests, swords, accusations, the traitor
 * and how he came out. */
START_TEST(soc_index_matches_the_logs)
{
    struct rpl_ctx *ctx = new_ctx();
    struct soc_truth *s = calloc(NSOC, sizeof(*s));
    struct rpl_archive *ar;
    struct dump *d = malloc(sizeof(*d));
    struct tmp t;
    size_t revealed_kinds = 0, never = 0, unknown = 0;

    ck_assert(s && d);
    tmp_make(&t);
    soc_corpus(ctx, s);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    for (size_t i = 0; i < NSOC; i++)
        ck_assert_int_eq(soc_add(ctx, ar, &s[i]), RPL_ARCHIVE_ADDED);
    for (size_t i = 0; i < NSOC; i++) {
        char want[1024];
        long long gid;
        char q[160];

        snprintf(q, sizeof(q), "SELECT gid FROM game WHERE id = '%s'", s[i].id);
        gid = sql_count(ar, q);
        ck_assert_int_gt(gid, 0);
        /* The common tables: the first player, the quests, the knights. */
        snprintf(want, sizeof(want), "%u|%u|%s|%s\n", s[i].first, s[i].quests,
                 s[i].winner, s[i].reason);
        ck_assert_str_eq(sqlf(ar, d,
                              "SELECT leader, rounds, winner, reason FROM "
                              "game WHERE gid = %lld",
                              gid),
                         want);
        /* The board and the traitor. */
        {
            char traitor[12], line[12];

            opt_num(traitor, sizeof(traitor), s[i].traitor, s[i].traitor >= 0);
            opt_num(line, sizeof(line), (long)s[i].revealed_line,
                    s[i].revealed_line > 0);
            snprintf(want, sizeof(want), "%ld|%ld|%u|%u|%s|%s|%s\n", s[i].white,
                     s[i].black, s[i].won, s[i].lost, traitor,
                     s[i].revealed[0] ? s[i].revealed : "-", line);
        }
        ck_assert_str_eq(sqlf(ar, d,
                              "SELECT white, black, won, lost, traitor, "
                              "revealed, revealed_line FROM soc_game WHERE "
                              "gid = %lld",
                              gid),
                         want);
        /* Seats: knight, loyalty, death; the common seat row agrees. */
        want[0] = '\0';
        for (size_t k = 1; k <= s[i].players; k++) {
            const char *loyalty = s[i].loyalty[k];
            char row[128], died[12];

            opt_num(died, sizeof(died), (long)s[i].died[k], s[i].died[k] > 0);
            snprintf(row, sizeof(row), "%zu|%s|%s|%s|%s|%s\n", k,
                     s[i].knight[k], loyalty[0] ? loyalty : "-", died,
                     s[i].knight[k],
                     !loyalty[0]                       ? "-"
                     : strcmp(loyalty, "traitor") == 0 ? "evil"
                                                       : "good");
            ck_assert_uint_lt(strlen(want) + strlen(row), sizeof(want));
            strcat(want, row);
        }
        ck_assert_str_eq(
            sqlf(ar, d,
                 "SELECT x.seat, x.knight, x.loyalty, x.died, s.role, "
                 "s.side FROM soc_seat x JOIN seat s ON s.gid = x.gid AND "
                 "s.seat = x.seat WHERE x.gid = %lld ORDER BY x.seat",
                 gid),
            want);
        /* Quests and accusations. */
        snprintf(want, sizeof(want), "%u|%u|%u\n", s[i].quests, s[i].won,
                 s[i].lost);
        ck_assert_str_eq(sqlf(ar, d,
                              "SELECT count(*), coalesce(sum(result = "
                              "'won'), 0), coalesce(sum(result = 'lost'), 0) "
                              "FROM soc_quest WHERE gid = %lld",
                              gid),
                         want);
        snprintf(want, sizeof(want), "%u|%u\n", s[i].accusations, s[i].right);
        ck_assert_str_eq(sqlf(ar, d,
                              "SELECT count(*), coalesce(sum(shown = "
                              "'traitor'), 0) FROM soc_accusation WHERE gid "
                              "= %lld",
                              gid),
                         want);
        revealed_kinds += s[i].revealed[0] && strcmp(s[i].revealed, "never");
        never += strcmp(s[i].revealed, "never") == 0;
        unknown += s[i].traitor < 0;
    }
    /* The corpus shows the cases: a traitor out in the game, one never
     * out, one still unknown (not revealed). */
    ck_assert_uint_gt(revealed_kinds, 0);
    ck_assert_uint_gt(never + unknown, 0);
    /* The index is the logs': check agrees. */
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, NULL), RPL_OK);
    rpl_archive_close(ar);
    soc_free(s, NSOC);
    free(s);
    free(d);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

struct soc_ids {
    char id[NSOC][33];
    size_t n;
};

static bool
soc_collect(void *ud, const struct rpl_archive_game *g)
{
    struct soc_ids *ids = ud;

    ck_assert_str_eq(g->game, "soc");
    ck_assert_uint_lt(ids->n, NSOC);
    snprintf(ids->id[ids->n++], 33, "%s", g->id);
    /* The knights are public: every seat has its role from `start`. */
    for (size_t k = 0; k < g->players; k++)
        ck_assert_ptr_nonnull(g->seats[k].role);
    ck_assert_uint_eq(g->nfacts, 0); /* no fact of its own */
    return true;
}

/* Every row of an archive, table by table, as text (a growing buffer). */
struct rows_text {
    char *p;
    size_t len, cap;
};

static bool
rows_text_add(void *ud, size_t ncols, const char *const *names,
              const char *const *values, const enum rpl_sql_type *types)
{
    struct rows_text *t = ud;

    (void)names;
    (void)types;
    for (size_t i = 0; i < ncols; i++) {
        const char *v = values[i] ? values[i] : "-";
        const size_t n = strlen(v) + 2;

        if (t->len + n + 1 > t->cap) {
            t->cap = 2 * (t->len + n + 1);
            t->p = realloc(t->p, t->cap);
            ck_assert_ptr_nonnull(t->p);
        }
        t->len += (size_t)snprintf(t->p + t->len, t->cap - t->len, "%s%s", v,
                                   i + 1 < ncols ? "|" : "\n");
    }
    return true;
}

static char *
archive_rows(struct rpl_archive *ar)
{
    static const char *const tables[] = {
        "game",           "log",      "rule",          "seat",     "quest",
        "card",           "lady",     "assassination", "soc_game", "soc_quest",
        "soc_accusation", "soc_seat", "game_variant"};
    struct rows_text t = {NULL, 0, 0};
    struct rpl_error err;
    char sql[96];

    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        snprintf(sql, sizeof(sql), "SELECT '%s', * FROM %s ORDER BY 2, 3",
                 tables[i], tables[i]);
        ck_assert_msg(rpl_archive_sql(ar, sql, rows_text_add, &t, &err) ==
                          RPL_OK,
                      "%s: %s", sql, err.msg);
    }
    ck_assert_ptr_nonnull(t.p);
    return t.p;
}

/* rpl_archive_entry_verify() indexes a log in the pass that verifies it:
 * its rows are those of rpl_archive_add(), which replays a verified log,
 * for every game of both corpora (Shadows over Camelot's with games not
 * revealed); a log that fails the verify gets no entry and the report's
 * error, one that verifies without a final seal the entry's. */
START_TEST(entry_verify_is_add)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[12];
    struct soc_truth *s = calloc(NSOC, sizeof(*s));
    struct rpl_archive *replayed, *one_pass;
    struct rpl_archive_entry *e = NULL;
    enum rpl_archive_added what;
    struct rpl_report rep;
    struct rpl_error err;
    struct rpl_log *log;
    struct tmp t1, t2;
    char *a, *b, *text;
    size_t len;

    ck_assert_ptr_nonnull(s);
    tmp_make(&t1);
    tmp_make(&t2);
    make_corpus(ctx, g, 12);
    soc_corpus(ctx, s);
    replayed = open_archive(ctx, t1.db, RPL_ARCHIVE_CREATE);
    one_pass = open_archive(ctx, t2.db, RPL_ARCHIVE_CREATE);
    for (size_t i = 0; i < 12 + NSOC; i++) {
        text = i < 12 ? g[i].text : s[i - 12].text;
        len = i < 12 ? g[i].len : s[i - 12].len;
        log = parse_verified(ctx, text, len);
        ck_assert_msg(rpl_archive_add(replayed, log, &what, &err) == RPL_OK,
                      "%s", err.msg);
        rpl_log_free(log);
        ck_assert_int_eq(rpl_log_parse(ctx, &log, text, len, false, &err),
                         RPL_OK);
        ck_assert_msg(
            rpl_archive_entry_verify(log, NULL, &rep, ctx, &e, &err) == RPL_OK,
            "game %zu, line %zu: %s", i, err.line, err.msg);
        ck_assert_int_eq(rep.error.code, RPL_OK);
        ck_assert_msg(rpl_archive_add_entry(one_pass, e, &what, &err) == RPL_OK,
                      "%s", err.msg);
        ck_assert_int_eq(what, RPL_ARCHIVE_ADDED);
        rpl_archive_entry_free(e);
        rpl_log_free(log);
    }
    a = archive_rows(replayed);
    b = archive_rows(one_pass);
    ck_assert_uint_gt(strlen(a), 10000);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);

    /* A byte changed: the verify's error, no entry. */
    text = malloc(g[0].len + 1);
    ck_assert_ptr_nonnull(text);
    memcpy(text, g[0].text, g[0].len + 1);
    text[g[0].len - 3] ^= 1;
    ck_assert_int_eq(rpl_log_parse(ctx, &log, text, g[0].len, false, &err),
                     RPL_OK);
    e = (struct rpl_archive_entry *)&what; /* must be set to NULL */
    ck_assert_int_ne(rpl_archive_entry_verify(log, NULL, &rep, NULL, &e, &err),
                     RPL_OK);
    ck_assert_ptr_null(e);
    ck_assert_int_ne(rep.error.code, RPL_OK);
    ck_assert_str_eq(err.msg, rep.error.msg);
    rpl_log_free(log);

    /* Without its last seal: verifies, with W-tail, and is refused. */
    len = g[0].len - 1;
    while (len > 0 && g[0].text[len - 1] != '\n')
        len--;
    ck_assert_int_eq(rpl_log_parse(ctx, &log, g[0].text, len, false, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl_archive_entry_verify(log, NULL, &rep, NULL, &e, &err),
                     RPL_E_INCOMPLETE);
    ck_assert_int_eq(rep.error.code, RPL_OK);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(strstr(err.msg, "archive keeps sealed logs"));
    rpl_log_free(log);

    free(text);
    rpl_archive_close(replayed);
    rpl_archive_close(one_pass);
    soc_free(s, NSOC);
    free(s);
    free_corpus(g, 12);
    rm_db(&t1);
    rm_db(&t2);
    tmp_remove(&t1);
    tmp_remove(&t2);
    rpl_ctx_free(ctx);
}
END_TEST

/* --role takes a knight, --side loyal and traitor name the sides of
 * Shadows over Camelot; stats count its games apart. */
START_TEST(soc_filters_and_stats)
{
    struct rpl_ctx *ctx = new_ctx();
    struct soc_truth *s = calloc(NSOC, sizeof(*s));
    struct game av[2];
    struct rpl_archive *ar;
    struct rpl_error err;
    struct tmp t;
    const char *knight;
    char *text = NULL;
    json_t *root, *soc, *e;
    size_t i, knights = 0, evil = 0, made = 0, right = 0, flips = 0;

    ck_assert_ptr_nonnull(s);
    tmp_make(&t);
    soc_corpus(ctx, s);
    make_corpus(ctx, av, 2);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    for (i = 0; i < NSOC; i++)
        soc_add(ctx, ar, &s[i]);
    add_all(ctx, ar, av, 2);
    knight = s[0].knight[1];
    for (int c = 0; c < 4; c++) {
        struct rpl_archive_filter f;
        struct soc_ids ids;
        size_t want = 0;

        memset(&f, 0, sizeof(f));
        memset(&ids, 0, sizeof(ids));
        if (c == 0)
            f.role = knight;
        else if (c == 1)
            f.side = "traitor";
        else if (c == 2)
            f.side = "loyal", f.player = s[0].names[1];
        else
            f.game = "soc", f.reason = "siege";
        ck_assert_msg(rpl_archive_query(ar, &f, soc_collect, &ids, &err) ==
                          RPL_OK,
                      "%s", err.msg);
        for (i = 0; i < NSOC; i++) {
            bool match = false;

            for (size_t k = 1; k <= s[i].players; k++)
                match |= (c == 0 && strcmp(s[i].knight[k], knight) == 0) ||
                         (c == 1 && strcmp(s[i].loyalty[k], "traitor") == 0) ||
                         (c == 2 && strcmp(s[i].loyalty[k], "loyal") == 0 &&
                          strcmp(s[i].names[k], s[0].names[1]) == 0);
            if (c == 3)
                match = strcmp(s[i].reason, "siege") == 0;
            want += match;
        }
        ck_assert_msg(ids.n == want, "case %d: %zu games, expected %zu", c,
                      ids.n, want);
        ck_assert_msg(want > 0 || c == 1, "case %d selects nothing", c);
    }
    ck_assert_msg(rpl_archive_stats(ar, NULL, &text, &err) == RPL_OK, "%s",
                  err.msg);
    root = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(root);
    soc = json_object_get(root, "soc");
    ck_assert(json_is_object(soc));
    for (i = 0; i < NSOC; i++) {
        knights += strcmp(s[i].winner, "knights") == 0;
        evil += strcmp(s[i].winner, "evil") == 0;
        made += s[i].accusations;
        right += s[i].right;
        flips += strcmp(s[i].revealed, "flip") == 0;
    }
    ck_assert_int_eq(jint(soc, "games"), NSOC);
    ck_assert_int_eq(jint(soc, "knights"), knights);
    ck_assert_int_eq(jint(soc, "evil"), evil);
    ck_assert_int_eq(jint(json_object_get(soc, "accusations"), "made"), made);
    ck_assert_int_eq(jint(json_object_get(soc, "accusations"), "right"), right);
    ck_assert_int_eq(jint(json_object_get(soc, "traitor"), "flip"), flips);
    /* The whole archive's reasons count the Avalon games too; the soc
     * object's only its own. */
    {
        json_int_t sum = 0, games = 0;

        json_array_foreach(json_object_get(soc, "reasons"), i, e) sum +=
            jint(e, "games");
        ck_assert_int_eq(sum, knights + evil);
        json_array_foreach(json_object_get(soc, "by_players"), i, e) games +=
            jint(e, "games");
        ck_assert_int_eq(games, NSOC);
        ck_assert_uint_eq(json_array_size(json_object_get(soc, "by_players")),
                          5);
        ck_assert_uint_gt(json_array_size(json_object_get(soc, "quests")), 0);
    }
    /* The games never mix: the knights' wins are not the good side's,
     * and a player's record in one game counts that game only. */
    {
        const json_t *avo = json_object_get(root, "avalon");
        json_int_t av_good = 0, seats = 0;

        for (i = 0; i < 2; i++)
            av_good += strcmp(av[i].winner, "good") == 0;
        ck_assert_int_eq(jint(root, "games"), NSOC + 2);
        ck_assert_int_eq(jint(avo, "games"), 2);
        ck_assert_int_eq(jint(avo, "good"), av_good);
        ck_assert_int_eq(jint(root, "good"), av_good);
        json_array_foreach(json_object_get(soc, "records"), i, e) seats +=
            jint(e, "games");
        for (i = 0; i < NSOC; i++)
            seats -= (json_int_t)s[i].players;
        ck_assert_int_eq(seats, 0);
    }
    json_decref(root);
    rpl_free(ctx, text);
    /* Each game its own text section and chart. */
    ck_assert_int_eq(
        rpl_archive_stats_as(ar, NULL, RPL_ARCHIVE_TEXT, &text, &err), RPL_OK);
    ck_assert_ptr_nonnull(strstr(text, "\navalon: 2 games\n"));
    ck_assert_ptr_nonnull(strstr(text, "\nsoc: "));
    ck_assert_ptr_nonnull(strstr(text, "wins: knights "));
    rpl_free(ctx, text);
    ck_assert_int_eq(
        rpl_archive_stats_as(ar, NULL, RPL_ARCHIVE_SVG, &text, &err), RPL_OK);
    ck_assert_ptr_nonnull(strstr(text, "Avalon: win rate"));
    ck_assert_ptr_nonnull(strstr(text, "Shadows over Camelot: win rate"));
    ck_assert_ptr_nonnull(strstr(text, "translate(0,320)"));
    rpl_free(ctx, text);
    rpl_archive_close(ar);
    soc_free(s, NSOC);
    free(s);
    free_corpus(av, 2);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* Variants: each game's house rules are rows of game_variant, the
 * filters select official games or those of a variant, stats count the
 * games that declare any, query gives them; an archive of version 2 is
 * migrated to the same rows. */
static bool
keep_variants(void *ud, const struct rpl_archive_game *g)
{
    char *out = ud;

    snprintf(out + strlen(out), 64, "[%s]", g->variants);
    return true;
}

static bool
count_game(void *ud, const struct rpl_archive_game *g)
{
    (void)g;
    ++*(int *)ud;
    return true;
}

static int
query_count(struct rpl_archive *ar, const struct rpl_archive_filter *f)
{
    struct rpl_error err;
    int n = 0;

    ck_assert_msg(rpl_archive_query(ar, f, count_game, &n, &err) == RPL_OK,
                  "%s", err.msg);
    return n;
}

START_TEST(variants_indexed_and_migrated)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game g[3];
    struct rpl_archive *ar;
    struct rpl_archive_filter f;
    struct rpl_error err;
    struct tmp t;
    char fresh[128], seen[256];
    char *json = NULL;
    static const char *const names_evil[] = {"assassin-names-evil"};
    static const char *const bad[] = {"assassin-names-good"};
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char q[512];

    tmp_make(&t);
    make_corpus(ctx, g, 2);
    {
        struct rec_opts o;

        memset(&o, 0, sizeof(o));
        o.seed = 0x44;
        o.reveal = true;
        o.rules = "players=5 roles=merlin,percival,servant,assassin,morgana "
                  "lady=off targeting=off variants=assassin-names-evil";
        record(ctx, &o, &g[2], NULL);
    }
    snprintf(fresh, sizeof(fresh), "%s/fresh.db", t.dir);
    ar = open_archive(ctx, fresh, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, 3);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game_variant WHERE "
                                   "variant = 'assassin-names-evil' AND n = 1"),
                     1);
    memset(&f, 0, sizeof(f));
    f.is_official = true;
    ck_assert_int_eq(query_count(ar, &f), 2);
    f.is_official = false;
    f.variants = names_evil;
    f.nvariants = 1;
    ck_assert_int_eq(query_count(ar, &f), 1);
    f.is_official = true;
    ck_assert_int_eq(rpl_archive_query(ar, &f, keep_variants, seen, &err),
                     RPL_E_ARG);
    f.is_official = false;
    f.variants = bad;
    ck_assert_int_eq(rpl_archive_query(ar, &f, keep_variants, seen, &err),
                     RPL_E_ARG);
    ck_assert_ptr_nonnull(strstr(err.msg, "assassin-names-evil"));
    seen[0] = '\0';
    ck_assert_int_eq(rpl_archive_query(ar, NULL, keep_variants, seen, &err),
                     RPL_OK);
    ck_assert_str_eq(seen, "[][][assassin-names-evil]");
    ck_assert_int_eq(rpl_archive_stats(ar, NULL, &json, &err), RPL_OK);
    ck_assert_ptr_nonnull(strstr(json, "\"imported\":0,\"variants\":1,"));
    rpl_free(ctx, json);
    rpl_archive_close(ar);
    /* The same archive at version 2: no game_variant. */
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, 3);
    rpl_archive_close(ar);
    raw_exec(t.db, "BEGIN; DROP TABLE game_variant; PRAGMA user_version = 2; "
                   "COMMIT");
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_WRITE);
    ck_assert_uint_eq(rpl_archive_version(ar), 3);
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, NULL), RPL_OK);
    rpl_archive_close(ar);
    ck_assert_int_eq(sqlite3_open(t.db, &db), SQLITE_OK);
    snprintf(q, sizeof(q), "ATTACH '%s' AS f", fresh);
    ck_assert_int_eq(sqlite3_exec(db, q, NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_eq(
        sqlite3_prepare_v2(db,
                           "SELECT (SELECT count(*) FROM (SELECT * FROM "
                           "main.game_variant EXCEPT SELECT * FROM "
                           "f.game_variant)) + (SELECT count(*) FROM (SELECT * "
                           "FROM f.game_variant EXCEPT SELECT * FROM "
                           "main.game_variant)), (SELECT count(*) FROM "
                           "main.game_variant)",
                           -1, &st, NULL),
        SQLITE_OK);
    ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
    ck_assert_int_eq(sqlite3_column_int64(st, 0), 0);
    ck_assert_int_eq(sqlite3_column_int64(st, 1), 1);
    sqlite3_finalize(st);
    sqlite3_close(db);
    free_corpus(g, 3);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* An archive of version 1 (before Shadows over Camelot had its tables)
 * is migrated when opened for writing: in one transaction, the new
 * tables and every game of Shadows over Camelot indexed again; the
 * archive is then the one a new archive of the same logs would be. */
START_TEST(soc_migration_from_v1)
{
    struct rpl_ctx *ctx = new_ctx();
    struct soc_truth s[4];
    struct game av[2];
    struct rpl_archive *ar;
    struct tmp t;
    char fresh[128];
    static const char *const tables[] = {
        "game",     "seat",      "rule",           "quest",    "card",
        "soc_game", "soc_quest", "soc_accusation", "soc_seat", "game_variant",
    };

    tmp_make(&t);
    for (size_t i = 0; i < 4; i++)
        soc_record(ctx,
                   i % 2 ? "players=5 traitor=on brave=off"
                         : "players=4 traitor=on brave=off",
                   4 + i % 2, (uint8_t)(0x60 + i), i != 3, &s[i]);
    make_corpus(ctx, av, 2);
    /* The archive as version 2 writes it, for comparison. */
    snprintf(fresh, sizeof(fresh), "%s/fresh.db", t.dir);
    ar = open_archive(ctx, fresh, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, av, 2);
    for (size_t i = 0; i < 4; i++)
        soc_add(ctx, ar, &s[i]);
    rpl_archive_close(ar);
    /* The same, taken back to what version 1 held: no tables of Shadows
     * over Camelot, its knights and loyalties known at the reveal only,
     * no first player or quest count. */
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, av, 2);
    for (size_t i = 0; i < 4; i++)
        soc_add(ctx, ar, &s[i]);
    rpl_archive_close(ar);
    raw_exec(t.db, "BEGIN; DROP TABLE game_variant; "
                   "DROP TABLE soc_game; DROP TABLE soc_quest; "
                   "DROP TABLE soc_accusation; DROP TABLE soc_seat; "
                   "UPDATE game SET leader = NULL, rounds = 0 WHERE game = "
                   "'soc'; UPDATE seat SET role = NULL, side = NULL WHERE "
                   "gid IN (SELECT gid FROM game WHERE game = 'soc' AND "
                   "progress <> 'complete'); PRAGMA user_version = 1; "
                   "COMMIT");
    ck_assert_int_eq(raw_count(t.db, "PRAGMA user_version"), 1);
    /* Read-only, it stays at version 1 and says so. */
    {
        struct rpl_error err;

        ck_assert_int_eq(
            rpl_archive_open(ctx, &ar, t.db, RPL_ARCHIVE_READ, &err),
            RPL_E_UNSUPPORTED);
        ck_assert_ptr_nonnull(strstr(err.msg, "version 1"));
    }
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_WRITE);
    ck_assert_uint_eq(rpl_archive_version(ar), 3);
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, NULL), RPL_OK);
    rpl_archive_close(ar);
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        sqlite3 *db = NULL;
        sqlite3_stmt *st = NULL;
        char q[512];

        /* Both archives hold the same rows, gid for gid. */
        ck_assert_int_eq(sqlite3_open(t.db, &db), SQLITE_OK);
        snprintf(q, sizeof(q), "ATTACH '%s' AS f", fresh);
        ck_assert_int_eq(sqlite3_exec(db, q, NULL, NULL, NULL), SQLITE_OK);
        snprintf(q, sizeof(q),
                 "SELECT (SELECT count(*) FROM (SELECT * FROM main.%s "
                 "EXCEPT SELECT * FROM f.%s)) + (SELECT count(*) FROM "
                 "(SELECT * FROM f.%s EXCEPT SELECT * FROM main.%s)), "
                 "(SELECT count(*) FROM main.%s)",
                 tables[i], tables[i], tables[i], tables[i], tables[i]);
        ck_assert_int_eq(sqlite3_prepare_v2(db, q, -1, &st, NULL), SQLITE_OK);
        ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
        ck_assert_msg(sqlite3_column_int64(st, 0) == 0,
                      "%s differs after the migration", tables[i]);
        if (strcmp(tables[i], "soc_game") == 0 ||
            strcmp(tables[i], "soc_seat") == 0 ||
            strcmp(tables[i], "soc_quest") == 0)
            ck_assert_int_gt(sqlite3_column_int64(st, 1), 0);
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    soc_free(s, 4);
    free_corpus(av, 2);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* The text of a file of the source tree, NUL-terminated (free it). */
static char *
read_source(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = calloc(1, 65536);
    size_t n;

    ck_assert_msg(f, "%s", path);
    ck_assert_ptr_nonnull(text);
    n = fread(text, 1, 65535, f);
    ck_assert(n > 0 && n < 65535);
    fclose(f);
    return text;
}

/* The archive as schema version 3 made it: the schema's own steps, then
 * the games' tables as those released steps wrote them, as text
 * (tests/data/archive-v3-games.sql), before the games declared them as
 * data (games/game.h, struct rpl__table). */
static void
make_v3(const char *path)
{
    char *steps = read_source("schema/archive.sql");
    char *games = read_source("tests/data/archive-v3-games.sql");

    raw_exec(path, "PRAGMA page_size = 8192; PRAGMA journal_mode = WAL");
    raw_exec(path, steps);
    raw_exec(path, games);
    raw_exec(path, "PRAGMA user_version = 3");
    free(steps);
    free(games);
}

/* The rows of a pragma about one object of one archive, one text. */
static void
pragma_text(const char *path, const char *pragma, const char *name, char *out,
            size_t cap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char q[160];
    size_t len = 0;

    snprintf(q, sizeof(q), "SELECT * FROM pragma_%s('%s')", pragma, name);
    ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
    ck_assert_msg(sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK, "%s",
                  sqlite3_errmsg(db));
    out[0] = '\0';
    while (sqlite3_step(st) == SQLITE_ROW)
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            const char *v = (const char *)sqlite3_column_text(st, c);
            const int k = snprintf(out + len, cap - len, "%s%s", c ? "|" : "\n",
                                   v ? v : "NULL");

            ck_assert(k > 0 && (size_t)k < cap - len);
            len += (size_t)k;
        }
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Each game's tables as the archive's backend writes them from the
 * game's data are the tables the released steps of version 3 made:
 * the same objects, columns (name, type, NOT NULL, key), references,
 * indexes and WITHOUT ROWID; the CHECKs are in the text, which the
 * archive's own comparison (a check clean of any schema difference, and
 * no warning) finds the same. */
START_TEST(schema_games_tables_as_released)
{
    static const char *const pragmas[] = {"table_xinfo", "foreign_key_list",
                                          "index_list", "table_list"};
    struct rpl_ctx *ctx = new_ctx();
    struct rpl_archive *ar;
    struct tmp released, fresh;
    size_t ntables = 0;

    tmp_make(&released);
    tmp_make(&fresh);
    make_v3(released.db);
    ar = open_archive(ctx, fresh.db, RPL_ARCHIVE_CREATE);
    ck_assert_uint_eq(rpl_archive_version(ar), 3);
    rpl_archive_close(ar);
    /* The same objects, by type and name. */
    ck_assert_int_eq(raw_count(released.db, "SELECT count(*) FROM "
                                            "sqlite_schema"),
                     raw_count(fresh.db, "SELECT count(*) FROM sqlite_schema"));
    for (size_t k = 0; rpl__game_at(k); k++) {
        const struct rpl__game_archive *a = rpl__archive_hooks(rpl__game_at(k));

        for (size_t i = 0; i < a->ntables; i++) {
            const struct rpl__table *tb = &a->tables[i];
            char q[160];

            ntables++;
            snprintf(q, sizeof(q),
                     "SELECT count(*) FROM sqlite_schema WHERE name = '%s' "
                     "OR tbl_name = '%s'",
                     tb->name, tb->name);
            ck_assert_int_gt(raw_count(fresh.db, q), 0);
            ck_assert_int_eq(raw_count(released.db, q), raw_count(fresh.db, q));
            for (size_t p = 0; p < sizeof(pragmas) / sizeof(pragmas[0]); p++) {
                char want[4096], got[4096];

                pragma_text(released.db, pragmas[p], tb->name, want,
                            sizeof(want));
                pragma_text(fresh.db, pragmas[p], tb->name, got, sizeof(got));
                ck_assert_msg(strcmp(want, got) == 0,
                              "%s of %s:\nreleased:%s\nfrom data:%s",
                              pragmas[p], tb->name, want, got);
            }
            for (size_t x = 0; tb->index && tb->index[x].name; x++) {
                char want[1024], got[1024];

                pragma_text(released.db, "index_xinfo", tb->index[x].name, want,
                            sizeof(want));
                pragma_text(fresh.db, "index_xinfo", tb->index[x].name, got,
                            sizeof(got));
                ck_assert_str_eq(want, got);
            }
        }
    }
    ck_assert_uint_eq(ntables, 8); /* Avalon's 4, Shadows over Camelot's 4 */
    /* The archive's comparison of the text: none differs. */
    ar = open_archive(ctx, released.db, RPL_ARCHIVE_READ);
    ck_assert_ptr_null(rpl_archive_warning(ar));
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, NULL), RPL_OK);
    rpl_archive_close(ar);
    tmp_remove(&released);
    tmp_remove(&fresh);
    rpl_ctx_free(ctx);
}
END_TEST

/* An archive made by the released steps of version 3 is an archive of
 * this library's: read and written at version 3, as it is, and checked
 * clean with games of both kinds in it. */
START_TEST(schema_v3_archive_works)
{
    struct rpl_ctx *ctx = new_ctx();
    struct soc_truth s[2];
    struct game av[3];
    struct rpl_archive *ar;
    struct tmp t;
    size_t games = 0;

    tmp_make(&t);
    make_v3(t.db);
    make_corpus(ctx, av, 3);
    for (size_t i = 0; i < 2; i++)
        soc_record(ctx, "players=4 traitor=on brave=off", 4,
                   (uint8_t)(0x70 + i), i == 0, &s[i]);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_WRITE);
    ck_assert_uint_eq(rpl_archive_version(ar), 3);
    ck_assert_ptr_null(rpl_archive_warning(ar));
    add_all(ctx, ar, av, 3);
    for (size_t i = 0; i < 2; i++)
        ck_assert_int_eq(soc_add(ctx, ar, &s[i]), RPL_ARCHIVE_ADDED);
    rpl_archive_close(ar);
    ck_assert_int_eq(raw_count(t.db, "PRAGMA user_version"), 3);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
    ck_assert_ptr_null(rpl_archive_warning(ar));
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, &games, NULL), RPL_OK);
    ck_assert_uint_eq(games, 5);
    ck_assert_int_gt(sql_count(ar, "SELECT count(*) FROM quest"), 0);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM soc_game"), 2);
    rpl_archive_close(ar);
    soc_free(s, 2);
    free_corpus(av, 3);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* check compares the tables of Shadows over Camelot with the logs. */
START_TEST(soc_check_finds_tampering)
{
    struct rpl_ctx *ctx = new_ctx();
    struct soc_truth s[2];
    struct rpl_archive *ar;
    struct tmp t;
    const char *tamper[] = {
        "UPDATE soc_game SET white = white + 1 WHERE gid = 1",
        "UPDATE soc_seat SET knight = 'mordred' WHERE gid = 2 AND seat = 1",
        "DELETE FROM soc_quest WHERE gid = 1 AND n = 1",
        "UPDATE soc_game SET traitor = NULL, revealed = NULL WHERE gid = 2",
        "UPDATE seat SET role = NULL WHERE gid = 1 AND seat = 2",
    };

    tmp_make(&t);
    soc_record(ctx, "players=6 traitor=on brave=off", 6, 0x71, true, &s[0]);
    soc_record(ctx, "players=7 traitor=on brave=off", 7, 0x72, true, &s[1]);
    for (size_t i = 0; i < sizeof(tamper) / sizeof(tamper[0]); i++) {
        struct problems p;
        struct rpl_error err;

        ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
        soc_add(ctx, ar, &s[0]);
        soc_add(ctx, ar, &s[1]);
        rpl_archive_close(ar);
        raw_exec(t.db, tamper[i]);
        ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
        memset(&p, 0, sizeof(p));
        ck_assert_msg(rpl_archive_check(ar, note_problem, &p, NULL, &err) ==
                          RPL_E_STATE,
                      "check found nothing after: %s", tamper[i]);
        ck_assert_msg(p.with_id >= 1, "%s", tamper[i]);
        rpl_archive_close(ar);
        rm_db(&t);
    }
    soc_free(s, 2);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* ------------------------------------------------- crashes, processes */

/* A process killed in the middle of a batch leaves the archive as it was
 * before the batch; the next writer goes on. */
START_TEST(killed_mid_batch)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game *g = calloc(NGAMES, sizeof(*g));
    struct rpl_archive *ar;
    struct problems p;
    struct tmp t;
    int fds[2];
    pid_t pid;
    char c;
    int status = 0;

    ck_assert_ptr_nonnull(g);
    tmp_make(&t);
    make_corpus(ctx, g, NGAMES);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
    add_all(ctx, ar, g, 4);
    rpl_archive_close(ar);
    ck_assert_int_eq(pipe(fds), 0);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* The child adds the rest in one batch and never commits; it
         * tells the parent once it is well into it. */
        struct rpl_archive *cr = NULL;

        close(fds[0]);
        if (rpl_archive_open(ctx, &cr, t.db, RPL_ARCHIVE_WRITE, NULL) !=
                RPL_OK ||
            rpl_archive_begin(cr, NULL) != RPL_OK)
            _exit(3);
        for (size_t i = 4; i < NGAMES; i++) {
            struct rpl_log *log = NULL;
            struct rpl_report rep;

            if (rpl_log_parse(ctx, &log, g[i].text, g[i].len, false, NULL) !=
                    RPL_OK ||
                rpl_log_verify(log, NULL, &rep) != RPL_OK ||
                rpl_archive_add(cr, log, NULL, NULL) != RPL_OK)
                _exit(4);
            rpl_log_free(log);
            if (i == 12 && write(fds[1], "x", 1) != 1)
                _exit(5);
        }
        for (;;)
            pause();
    }
    close(fds[1]);
    ck_assert_int_eq(read(fds[0], &c, 1), 1);
    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    close(fds[0]);

    ck_assert_int_eq(raw_count(t.db, "SELECT count(*) FROM game"), 4);
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_WRITE);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), 4);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM log"), 4);
    memset(&p, 0, sizeof(p));
    ck_assert_int_eq(rpl_archive_check(ar, note_problem, &p, NULL, NULL),
                     RPL_OK);
    add_all(ctx, ar, g, NGAMES);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), NGAMES);
    ck_assert_int_eq(rpl_archive_check(ar, note_problem, &p, NULL, NULL),
                     RPL_OK);
    rpl_archive_close(ar);
    free_corpus(g, NGAMES);
    free(g);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* Two processes create one archive and add overlapping sets to it at
 * once, in batches of three: the archive ends with the union, each game
 * once. */
START_TEST(concurrent_adds)
{
    struct rpl_ctx *ctx = new_ctx();
    struct game *g = calloc(NGAMES, sizeof(*g));
    struct rpl_archive *ar;
    struct tmp t;
    pid_t pids[2];

    ck_assert_ptr_nonnull(g);
    tmp_make(&t);
    make_corpus(ctx, g, NGAMES);
    /* Both workers create the archive: the first to come does. */
    for (int w = 0; w < 2; w++) {
        pids[w] = fork();
        ck_assert_int_ge(pids[w], 0);
        if (pids[w] == 0) {
            /* Worker 0 adds games 0..2/3 n, worker 1 games 1/3 n..n,
             * each a few at a time, in opposite orders. */
            struct rpl_archive *cr = NULL;
            const size_t from = w == 0 ? 0 : NGAMES / 3;
            const size_t to = w == 0 ? 2 * NGAMES / 3 : NGAMES;

            if (rpl_archive_open(ctx, &cr, t.db, RPL_ARCHIVE_CREATE, NULL) !=
                RPL_OK)
                _exit(3);
            for (size_t j = from; j < to; j++) {
                const size_t i = w == 0 ? j : to - 1 - (j - from);
                struct rpl_log *log = NULL;
                struct rpl_report rep;
                struct rpl_error err;

                if ((j - from) % 3 == 0 &&
                    rpl_archive_begin(cr, &err) != RPL_OK)
                    _exit(4);
                if (rpl_log_parse(ctx, &log, g[i].text, g[i].len, false,
                                  NULL) != RPL_OK ||
                    rpl_log_verify(log, NULL, &rep) != RPL_OK ||
                    rpl_archive_add(cr, log, NULL, &err) != RPL_OK)
                    _exit(5);
                rpl_log_free(log);
                if ((j - from) % 3 == 2 || j + 1 == to)
                    if (rpl_archive_commit(cr, &err) != RPL_OK)
                        _exit(6);
            }
            rpl_archive_close(cr);
            _exit(0);
        }
    }
    for (int w = 0; w < 2; w++) {
        int status = 0;

        ck_assert_int_eq(waitpid(pids[w], &status, 0), pids[w]);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                      "worker %d: status %d", w, status);
    }
    ar = open_archive(ctx, t.db, RPL_ARCHIVE_READ);
    ck_assert_int_eq(sql_count(ar, "SELECT count(*) FROM game"), NGAMES);
    ck_assert_int_eq(sql_count(ar, "SELECT count(DISTINCT id) FROM game"),
                     NGAMES);
    ck_assert_int_eq(rpl_archive_check(ar, NULL, NULL, NULL, NULL), RPL_OK);
    rpl_archive_close(ar);
    free_corpus(g, NGAMES);
    free(g);
    tmp_remove(&t);
    rpl_ctx_free(ctx);
}
END_TEST

/* ------------------------------------------------------- allocations */

/* Each allocation of add, query and stats fails in turn: the call says
 * RPL_E_NOMEM, the archive is unchanged, nothing leaks. */
START_TEST(allocation_failures)
{
    struct rpl_ctx *plain = new_ctx();
    struct game g;
    struct tmp t;
    bool done = false;

    tmp_make(&t);
    make_corpus(plain, &g, 1);
    for (long nth = 0; !done; nth++) {
        struct failing f = {-1, 0};
        const struct rpl_allocator a = failing_allocator(&f);
        struct rpl_ctx *ctx = NULL;
        struct rpl_archive *ar = NULL;
        struct rpl_log *log = NULL;
        struct rpl_report rep;
        struct rpl_error err;
        struct ids ids;
        char *json = NULL;
        enum rpl_status rc;

        ck_assert_int_eq(rpl_ctx_new(&ctx, &a, NULL), RPL_OK);
        ar = open_archive(ctx, t.db, RPL_ARCHIVE_CREATE);
        ck_assert_int_eq(rpl_log_parse(ctx, &log, g.text, g.len, false, NULL),
                         RPL_OK);
        ck_assert_int_eq(rpl_log_verify(log, NULL, &rep), RPL_OK);
        /* Inside a batch, so that only the add's own savepoint can undo
         * what it wrote before the failure. */
        ck_assert_int_eq(rpl_archive_begin(ar, NULL), RPL_OK);
        f.countdown = nth;
        rc = rpl_archive_add(ar, log, NULL, &err);
        f.countdown = -1;
        ck_assert_int_eq(rpl_archive_commit(ar, NULL), RPL_OK);
        if (rc != RPL_OK) {
            ck_assert_msg(rc == RPL_E_NOMEM, "allocation %ld: %s", nth,
                          err.msg);
            ck_assert_int_eq(raw_count(t.db, "SELECT count(*) FROM game"), 0);
            ck_assert_int_eq(raw_count(t.db, "SELECT count(*) FROM seat"), 0);
            ck_assert_int_eq(raw_count(t.db, "SELECT count(*) FROM rule"), 0);
        }
        f.countdown = nth;
        if (rc == RPL_OK) {
            memset(&ids, 0, sizeof(ids));
            rc = rpl_archive_query(ar, NULL, collect, &ids, &err);
        }
        if (rc == RPL_OK)
            rc = rpl_archive_stats(ar, NULL, &json, &err);
        for (int fmt = RPL_ARCHIVE_TEXT; rc == RPL_OK && fmt <= RPL_ARCHIVE_SVG;
             fmt++) {
            rpl_free(ctx, json);
            json = NULL;
            rc = rpl_archive_stats_as(ar, NULL, (enum rpl_archive_format)fmt,
                                      &json, &err);
        }
        for (int fmt = RPL_ARCHIVE_JSON;
             rc == RPL_OK && fmt <= RPL_ARCHIVE_TEXT; fmt++) {
            rpl_free(ctx, json);
            json = NULL;
            rc = rpl_archive_audit(ar, NULL, (enum rpl_archive_format)fmt,
                                   &json, NULL, &err);
        }
        if (rc == RPL_OK) {
            done = true;
            rpl_free(ctx, json);
        } else {
            rpl_free(ctx, json);
            json = NULL;
            ck_assert_msg(rc == RPL_E_NOMEM, "allocation %ld: %s", nth,
                          err.msg);
        }

        f.countdown = -1;
        rpl_log_free(log);
        rpl_archive_close(ar);
        rpl_ctx_free(ctx);
        ck_assert_msg(f.live == 0, "allocation %ld: %ld blocks leaked", nth,
                      f.live);
        if (!done)
            rm_db(&t); /* start again from an empty archive */
    }
    free_corpus(&g, 1);
    tmp_remove(&t);
    rpl_ctx_free(plain);
}
END_TEST

/* The p-value of the deal audit (archive/audit.c): the upper tail of
 * chi-square against the tables (to 1e-4) and against closed forms
 * (erfc and the finite sums of even and odd degrees, to 1e-6
 * relative), on both branches (series and continued fraction). */
static const struct {
    double chi2;
    unsigned df;
    double p, tol; /* tol 0: relative 1e-6 */
} chi2_cases[] = {
    {3.84, 1, 0.0500, 1e-4},      {11.07, 5, 0.0500, 1e-4},
    {23.21, 10, 0.0100, 1e-4},    {3.84, 1, 0.050043521, 0},
    {11.07, 5, 0.050009619, 0},   {23.21, 10, 0.009997419, 0},
    {10.83, 1, 0.00099868638, 0}, {31.41, 20, 0.050005239, 0},
    {50.89, 30, 0.010005309, 0},  {4.0, 2, 0.13533528, 0},
    {1.0, 3, 0.80125196, 0},      {0.5, 7, 0.99944648, 0},
    {2.0, 9, 0.99146761, 0},      {100.0, 3, 1.5541594e-21, 0},
    {412.0, 4, 7.1007966e-88, 0}, {0.0, 4, 1.0, 1e-12},
    {5.0, 0, 1.0, 1e-12},
};

START_TEST(audit_chi2_p)
{
    const double got = rpl__chi2_p(chi2_cases[_i].chi2, chi2_cases[_i].df);
    const double want = chi2_cases[_i].p;
    const double tol =
        chi2_cases[_i].tol > 0 ? chi2_cases[_i].tol : want * 1e-6;

    ck_assert_msg(fabs(got - want) <= tol, "chi2 %g df %u: p %.10g, want %.10g",
                  chi2_cases[_i].chi2, chi2_cases[_i].df, got, want);
}
END_TEST

Suite *
archive_suite(void)
{
    Suite *s = suite_create("archive");
    TCase *tc = tcase_create("archive");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, schema_created_and_versioned);
    tcase_add_test(tc, schema_refuses_others);
    tcase_add_test(tc, schema_seat_result);
    tcase_add_test(tc, add_is_idempotent);
    tcase_add_test(tc, entry_verify_is_add);
    tcase_add_test(tc, add_replaces_earlier_log);
    tcase_add_test(tc, add_imported_game);
    tcase_add_test(tc, add_refusals);
    tcase_add_test(tc, batches);
    tcase_add_test(tc, add_entries_in_runs);
    tcase_add_test(tc, query_filters);
    tcase_add_test(tc, query_bad_filters);
    tcase_add_test(tc, stats_match_the_logs);
    tcase_add_test(tc, sql_is_read_only);
    tcase_add_test(tc, export_byte_for_byte);
    tcase_add_test(tc, check_finds_tampering);
    tcase_add_test(tc, sql_allows_listed_functions);
    tcase_add_test(tc, sql_limits);
    tcase_add_test(tc, schema_lies);
    tcase_add_test(tc, read_only_media);
    tcase_add_test(tc, check_finds_forks);
    tcase_add_test(tc, filter_values_from_the_games);
    tcase_add_test(tc, soc_index_matches_the_logs);
    tcase_add_test(tc, soc_filters_and_stats);
    tcase_add_test(tc, soc_migration_from_v1);
    tcase_add_test(tc, schema_games_tables_as_released);
    tcase_add_test(tc, schema_v3_archive_works);
    tcase_add_test(tc, variants_indexed_and_migrated);
    tcase_add_test(tc, soc_check_finds_tampering);
    tcase_add_test(tc, killed_mid_batch);
    tcase_add_test(tc, concurrent_adds);
    tcase_add_test(tc, allocation_failures);
    tcase_add_loop_test(tc, audit_chi2_p, 0,
                        sizeof(chi2_cases) / sizeof(chi2_cases[0]));
    suite_add_tcase(s, tc);
    return s;
}
