/*
 * games/game.h - the one door between the log layer and a game: struct
 * rpl__game and its tables of hooks, one per concern (play, views, live,
 * archive, coverage, import), which each game module fills for what it
 * has, and what the log layer lends a module during a call.
 *
 * What may include what:
 *   - the core (text, crypto, rng, keys, gz, ctx, json) includes
 *     internal.h and never anything under games/;
 *   - the log layer (log.c, rec.c, importer.c) and archive/ include
 *     games/game.h and reach a game only through struct rpl__game,
 *     rpl__game_find() and rpl__importer_find();
 *   - a game's files include internal.h, games/game.h, json.h and their
 *     own folder's headers, never another game's;
 *   - registry.c alone refers to the games, by the list games.h that
 *     the build makes from the game folders (Makefile, GAMES).
 */
#ifndef LIBREPLAY_GAMES_GAME_H
#define LIBREPLAY_GAMES_GAME_H

#include <stdio.h>

#include "internal.h"
#include "json.h"

/* What the log layer lends a module during a call. */
struct rpl__env {
    struct rpl_ctx *ctx;
    const uint8_t *id;        /* 16 bytes */
    const uint8_t *seed;      /* 32 bytes once known, else NULL */
    size_t seats;             /* from the rules line */
    const char *const *names; /* names[1..seats], NUL-terminated */
    size_t *commitments;      /* count of commitments checked, or NULL */
    bool imported;            /* the deal comes from another system's record */
    unsigned version;         /* the format, 1 or 2 (2 pads values) */
    /* Warning sink: msg begins with the rule id ("O-2: ..."). */
    void (*warn)(void *w, size_t line, const char *msg);
    void *w;
};

/* A line the dealer or a seat writes, before its commitment: when label
 * is not empty, the writer appends " " and the hex commitment of
 * (label, value) to line. */
struct rpl__emit {
    char line[256];
    char label[64];
    char value[192];
};

/* What apply() tells the log layer about an accepted line. */
struct rpl__applied {
    size_t author;    /* the seat that authored the line (may sign it) */
    bool opens_group; /* first line of a group signed against one base */
    bool in_group;    /* signed against the base of its group (votes) */
    /* A secret that changes hands (cards given): the seat that receives
     * it, which gets the line's delivery too; 0 for none. */
    size_t receiver;
    /* The first word of the line's label when it is not the line's
     * keyword (a card's own choice: "give" on a "special" line); NULL
     * when it is. */
    const char *label_kw;
};

/* A cell of an archive row: SQL NULL, an integer or a text. */
enum rpl__cell_kind {
    RPL__CELL_NULL = 0,
    RPL__CELL_INT = 1,
    RPL__CELL_TEXT = 2
};

struct rpl__cell {
    enum rpl__cell_kind kind;
    int64_t i;     /* RPL__CELL_INT */
    const char *s; /* RPL__CELL_TEXT: NUL-terminated, copied by row() */
};

/* What the archive lends a game's index() (archive/index.c), zeroed
 * before the first call.
 *
 * The game's part of the common rows (schema/archive.sql): game.leader
 * (0: NULL), game.rounds, game.proposals, and seat.role and seat.side
 * of seat k (NULL while unknown).  role and side point to static
 * strings: the archive stores them after the last call.
 *
 * row() adds one row to table, a table of the schema other than the
 * archive's own (game, log, rule, seat): cells are its columns after
 * gid, in the schema's order.  The archive names the table in SQL only
 * with its own copy of the schema's name, and binds every cell as a
 * parameter; it keeps the rows until the log is stored, so a failed
 * index changes nothing.  Returns RPL_E_ARG for a table that is not a
 * game's, RPL_E_NOMEM. */
struct rpl__rows {
    size_t leader;
    size_t rounds;
    size_t proposals;
    const char *role[RPL_MAX_SEATS + 1];
    const char *side[RPL_MAX_SEATS + 1];

    void *a;
    enum rpl_status (*row)(void *a, const char *table,
                           const struct rpl__cell *cells, size_t ncells,
                           struct rpl_error *err);
};

/* Cells, for row(). */
static inline struct rpl__cell
rpl__cell_int(int64_t i)
{
    const struct rpl__cell c = {RPL__CELL_INT, i, NULL};

    return c;
}

static inline struct rpl__cell
rpl__cell_text(const char *s)
{
    const struct rpl__cell c = {s ? RPL__CELL_TEXT : RPL__CELL_NULL, 0, s};

    return c;
}

static inline struct rpl__cell
rpl__cell_null(void)
{
    const struct rpl__cell c = {RPL__CELL_NULL, 0, NULL};

    return c;
}

/* A column a game reads back: its name in the schema and what its cells
 * are (RPL__CELL_INT or RPL__CELL_TEXT; RPL__CELL_NULL for SQL NULL in
 * either). */
struct rpl__col {
    const char *name;
    enum rpl__cell_kind kind;
};

#define RPL__READ_MAX_COLS 12

/* The number of elements of a constant array: of struct rpl__col or
 * struct rpl__column, of the values of a column. */
#define RPL__NCOLS(a) (sizeof(a) / sizeof((a)[0]))

/* A read of the rows of one table as data, never SQL: the table (a
 * table of the archive's schema, by name), the columns handed back,
 * col[0..ncols), in that order, and the columns that order the rows,
 * ascending (NULL-terminated; NULL for none).  The archive checks the
 * names against the schema and the backend makes the read. */
struct rpl__read {
    const char *table;
    const struct rpl__col *col;
    size_t ncols;
    const char *const *order;
};

/* A game's table in the archive, as data: the game says what its rows
 * are and each backend writes the table in its own SQL (backend.h, struct
 * rpl__sql_dialect); a game holds no SQL text.
 *
 * Every table of a game starts with the column gid, which it does not
 * list: the game's row id in the archive, a reference to game (gid) that
 * goes with the game's row.  col[0..ncols) are the columns after it, in
 * the order of row()'s cells.  key: the columns after gid that make the
 * primary key with it (NULL-terminated), or NULL for a table of at most
 * one row per game, keyed by gid alone.  index: the table's indexes
 * (NULL-terminated by name), or NULL.  doc: what a row is, and for a
 * column what it holds, one line each for the reader of the schema.
 *
 * since: the version of the archive's schema (schema/archive.sql) whose
 * step creates the table, after the step's own SQL; until: the version
 * whose step drops it, before creating what replaces it (0: none, the
 * table is current).  A table is never changed in place: a new step
 * drops it and creates its successor (the same name, a new declaration
 * with since = that step), and the migration indexes every stored log
 * again, which fills it. */
struct rpl__column {
    const char *name;
    enum rpl__cell_kind kind; /* RPL__CELL_INT or RPL__CELL_TEXT */
    bool is_not_null;
    /* The values it may hold (CHECK (name IN (...))), cells of its kind;
     * NULL when any. */
    const struct rpl__cell *in;
    size_t nin;
    const char *doc;
};

/* A column NOT NULL of any value: an integer, a text. */
#define RPL__INT_NN(name, doc)                                                 \
    {                                                                          \
        name, RPL__CELL_INT, true, NULL, 0, doc                                \
    }
#define RPL__TEXT_NN(name, doc)                                                \
    {                                                                          \
        name, RPL__CELL_TEXT, true, NULL, 0, doc                               \
    }

struct rpl__table_index {
    const char *name;
    const char *const *col; /* NULL-terminated */
};

struct rpl__table {
    const char *name;
    const char *doc;
    unsigned since, until;
    const struct rpl__column *col;
    size_t ncols;
    const char *const *key;
    const struct rpl__table_index *index;
};

/* A row handed back: cells[0..n), its texts lent until the call
 * returns.  A status other than RPL_OK stops the read and is its
 * result. */
typedef enum rpl_status (*rpl__row_fn)(void *ud, const struct rpl__cell *cells,
                                       size_t n, struct rpl_error *err);

/* What the stats text and chart of a game are written in. */
enum rpl__stats_out {
    RPL__STATS_JSON = 0, /* the JSON object only */
    RPL__STATS_TEXT = 1, /* and the text section, to out */
    RPL__STATS_SVG = 2   /* and the chart, through chart() */
};

/* One bar of a chart: the games with a winner of one kind of game (a
 * player count), split in two; label and note are written under it. */
struct rpl__bar {
    char label[32]; /* "5 players" */
    char note[32];  /* "6 games" */
    uint64_t low;   /* the part drawn from the bottom (red) */
    uint64_t high;  /* the part above it (blue) */
};

/* A chart: one bar per kind of game, the share of each part over both. */
struct rpl__chart {
    const char *title; /* "Avalon: win rate by player count" */
    const char *low;   /* the name of the lower part: "evil" */
    const char *high;  /* of the upper part: "good" */
    size_t nbars;
    const struct rpl__bar *bar;
};

/* A scan of the selected games of one game (the statistics, the deal
 * audit; archive/): for each game in turn, in the archive's order, the
 * rows of each of reads[0..nreads) for that game alone (read q in order,
 * each row to row() with q), then end().  Only one game's rows are ever
 * handed at a time: what a game keeps of them between games is its own. */
struct rpl__scan {
    const struct rpl__read *reads;
    size_t nreads;
    enum rpl_status (*row)(void *ud, size_t q, const struct rpl__cell *cells,
                           size_t n, struct rpl_error *err);
    enum rpl_status (*end)(void *ud, struct rpl_error *err);
    void *ud;
};

/* A group of a game's statistics (games/tally.c): the rows of one key,
 * two texts and an integer (NULL for SQL NULL; a player count), as SQL
 * groups them, and the counts v[] the game adds to, v[0] the rows of
 * the group (count(*)). */
#define RPL__GROUP_NV 8
struct rpl__group {
    const char *k[2]; /* copied */
    int64_t n;
    uint64_t v[RPL__GROUP_NV];
};

/* The groups of one figure, found by key until rpl__groups_sort(). */
struct rpl__groups {
    struct rpl_ctx *ctx;
    struct rpl__group **g;
    size_t n, cap;
};

/* The group of (k0, k1, n), zeroed when new: NULL when out of memory
 * (err set).  Texts compare as bytes (SQLite's BINARY, PostgreSQL's C
 * collation), NULL first. */
struct rpl__group *rpl__group_get(struct rpl__groups *gs, const char *k0,
                                  const char *k1, int64_t n,
                                  struct rpl_error *err);
/* Sorts the groups as the ORDER BY of their figure: RPL__BY_COUNT,
 * v[0] descending, then k[0], k[1], n; RPL__BY_N, n, then v[0]
 * descending, k[0], k[1].  The groups are no longer found by key. */
enum rpl__group_order { RPL__BY_COUNT, RPL__BY_N };
void rpl__groups_sort(struct rpl__groups *gs, enum rpl__group_order order);
void rpl__groups_release(struct rpl__groups *gs);
/* Bytes, NULL first. */
int rpl__text_cmp(const char *a, const char *b);

/* The side (seat.side) that wins with winner (game.winner): "evil" for
 * "evil", "good" for "good" and "knights" (Shadows over Camelot's
 * knights are the good side, as in the view seat_result), NULL for no
 * side (none yet, "aborted"). */
const char *rpl__winning_side(const char *winner);
/* A seat's won of seat_result: 1, 0, or -1 for NULL (side or the
 * winning side unknown). */
int rpl__seat_won(const char *side, const char *winning_side);
/* The end reasons of the games of a game's statistics: a game's winner
 * and reason added to the group (winner, reason) when reason is not
 * NULL (v[0]: games). */
enum rpl_status rpl__stats_reason(struct rpl__groups *gs, const char *winner,
                                  const char *reason, struct rpl_error *err);
/* The per-player records: a seat of a game, grouped by name, v[] as
 * RPL__REC_*. */
enum {
    RPL__REC_GAMES,     /* seats */
    RPL__REC_REVEALED,  /* with a side */
    RPL__REC_WINS,      /* won */
    RPL__REC_DECIDED,   /* won or lost */
    RPL__REC_GOOD,      /* side "good" */
    RPL__REC_GOOD_WINS, /* and won */
    RPL__REC_EVIL,      /* side "evil" */
    RPL__REC_EVIL_WINS  /* and won */
};
enum rpl_status rpl__stats_record(struct rpl__groups *gs, const char *name,
                                  const char *side, const char *winning_side,
                                  struct rpl_error *err);
/* A player's record as JSON: name, games, revealed, wins, losses,
 * win_rate, then good, good_wins, evil and evil_wins under the game's
 * names for its two sides ("loyal", "traitor").  NULL when out of
 * memory. */
json_t *rpl__stats_record_json(const struct rpl__group *g, const char *good,
                               const char *evil);

/* What the archive lends a game's stats() (archive/stats.c), in one read
 * transaction.  scan() scans the selected games of this game (the
 * filter's, dealt by camelog and imported alike: struct rpl__scan), and
 * the game counts its figures in C from their rows (struct
 * rpl__groups); ctx is for its memory.  The game sets the members of
 * its own object, json (top[game->name]), and may set keys of top, the
 * document, that the JSON output kept from before each game had its own
 * object (camelog-archive(1)); failures go to jb.  With RPL__STATS_TEXT
 * it appends its section of the text to out, with RPL__STATS_SVG it
 * draws its chart with chart(); the archive asks for text or a chart
 * only from a game with games selected. */
struct rpl__stats {
    struct rpl_ctx *ctx;
    void *a;
    enum rpl_status (*scan)(void *a, const struct rpl__scan *sc,
                            struct rpl_error *err);
    enum rpl__stats_out format;
    struct rpl__jb *jb;
    json_t *top;
    json_t *json;
    struct rpl__buf *out;
    void (*chart)(void *a, const struct rpl__chart *c);
    /* The per-player records: players, sorted RPL__BY_COUNT (games
     * played, v[0], descending, then the name); sets json's "records"
     * to one() of each the filter's records_top and records_min_games
     * keep, and "records_total" to the number of players. */
    void (*records)(const struct rpl__stats *s,
                    const struct rpl__groups *players,
                    json_t *(*one)(const struct rpl__group *g));
    size_t records_top;       /* 0: all */
    size_t records_min_games; /* 0 or 1: all */
};

/* "57.1%" of num / den for the stats text, "-" when den is 0; integers
 * only, so the text is the same everywhere.  Returns buf. */
static inline const char *
rpl__percent(char *buf, size_t cap, uint64_t num, uint64_t den)
{
    uint64_t r;

    if (den == 0 || num > UINT64_MAX / 1000u) {
        snprintf(buf, cap, "-");
        return buf;
    }
    r = (num * 1000u + den / 2u) / den;
    snprintf(buf, cap, "%llu.%llu%%", (unsigned long long)(r / 10u),
             (unsigned long long)(r % 10u));
    return buf;
}

/* What the archive lends a game's details() (archive/query.c): its
 * reads of the game's rows (details_reads, struct rpl__read) through
 * read(), whose rows are those of the game's row id alone.  The game
 * hands each quest of struct rpl_archive_game to quest(), which copies
 * it and its texts (quests past the fifth are dropped), and each of its
 * facts (struct rpl_archive_fact) to fact(): group, one of the game's
 * fact_groups, and name are constant strings of the game, kept as they
 * are; those of a group are handed together, and facts past the eighth
 * are dropped. */
struct rpl__details {
    void *a;
    enum rpl_status (*read)(void *a, size_t q, rpl__row_fn each, void *ud,
                            struct rpl_error *err);
    enum rpl_status (*quest)(void *a, const struct rpl_archive_quest *q,
                             struct rpl_error *err);
    enum rpl_status (*fact)(void *a, const char *group, const char *name,
                            int64_t value, struct rpl_error *err);
};

/* What the archive lends a table of the deal audit (struct rpl__audit):
 * scan() scans the games the audit selects of this game (the filter's,
 * dealt by camelog or imported: the audit runs each table once for
 * each), and the table hands back the cells of its tests with cell(),
 * ordered so that the cells of a stratum are consecutive:
 *   stratum  unique per stratum ("assassin, 5 players")
 *   cell     the cell ("p1", "merlin")
 *   observed the count in the cell
 *   expected its expectation under a uniform deal (cells expecting 0
 *            are left out)
 *   factor   multiplies the Pearson statistic so that it is chi-square
 *            with cells - 1 degrees of freedom (1 for a multinomial;
 *            (n - 1) / (n - m) for a value that m seats of n hold in
 *            each game); the first cell's stands for its stratum
 *   games    the games of the stratum (the first cell's stands for it)
 * ctx is for the table's own memory. */
struct rpl__audit_run {
    struct rpl_ctx *ctx;
    void *a;
    enum rpl_status (*scan)(void *a, const struct rpl__scan *sc,
                            struct rpl_error *err);
    enum rpl_status (*cell)(void *a, const char *stratum, const char *cell,
                            uint64_t observed, double expected, double factor,
                            uint64_t games, struct rpl_error *err);
};

/* One table of the deal audit (rpl_archive_audit(), archive/audit.c):
 * a test of the deals against uniform, per stratum, that run() counts
 * from the rows of the selected games (struct rpl__audit_run).  run
 * NULL: the table does not apply, and note says why (it is determined
 * by another table, or the deal does not decide it); else note, when
 * not NULL, says what the table leaves out. */
struct rpl__audit {
    const char *key;   /* "role_seat": JSON "table" */
    const char *title; /* "each role's seat, per player count" */
    enum rpl_status (*run)(const struct rpl__audit_run *r,
                           struct rpl_error *err);
    const char *note;
};

/* A tally of the audit's cells (games/tally.c), for a game's run():
 * entries keyed by a stratum key and a cell key, compared as bytes in
 * that order (write numbers zero-padded so that they sort as numbers),
 * each with the stratum's and the cell's label, counts and sums the
 * table adds to, and two integers of its stratum (a player count, m). */
struct rpl__tally_entry {
    const char *stratum, *label; /* copied */
    uint64_t observed, count;
    double sum;
    int64_t a, b;
};

struct rpl__tally {
    struct rpl_ctx *ctx;
    struct rpl__tally_entry **e; /* sorted by key */
    size_t n, cap;
};

/* The entry of (skey, ckey), made with labels stratum and label and a, b
 * when new: NULL when out of memory (err set). */
struct rpl__tally_entry *rpl__tally_get(struct rpl__tally *t, const char *skey,
                                        const char *ckey, const char *stratum,
                                        const char *label, int64_t a, int64_t b,
                                        struct rpl_error *err);
/* The entry of (skey, ckey), NULL when none. */
struct rpl__tally_entry *rpl__tally_find(const struct rpl__tally *t,
                                         const char *skey, const char *ckey);
void rpl__tally_release(struct rpl__tally *t);

/* A seat of a game as a scan hands the rows of a read of table seat
 * with the columns seat, name, role and side (rpl__seat_cols): NULL
 * texts are "" with has_* false; longer texts are cut. */
struct rpl__seat_row {
    int64_t seat;
    char name[4 * RPL_MAX_NAME + 1];
    char role[64], side[16];
    bool has_role, has_side;
};

#define RPL__SEAT_NCOLS 4
extern const struct rpl__col rpl__seat_cols[RPL__SEAT_NCOLS];
void rpl__seat_row(struct rpl__seat_row *s, const struct rpl__cell *cells);
/* A cell as a number (NULL and texts as 0) and as a text (NULL for
 * NULL and numbers). */
int64_t rpl__cell_i(const struct rpl__cell *c);
const char *rpl__cell_s(const struct rpl__cell *c);

/* One game of an audit table's scan (rpl__audit_scan()): its common rows
 * (game.players, game.leader, game.progress, its seats in seat order)
 * and column 0 of the first row of the game's own read, if any (extra;
 * has_extra false when the game has no such row), and the table's
 * tally. */
#define RPL__AUDIT_SEATS RPL_MAX_SEATS
struct rpl__audit_game {
    struct rpl__tally t;
    int64_t players, leader;
    char progress[16];
    int64_t extra;
    bool has_extra, has_extra_row;
    size_t nseats;
    struct rpl__seat_row seat[RPL__AUDIT_SEATS];
};

/* Runs an audit table: scans the selected games with the common reads
 * and extra (NULL for none), calls game() after each, then hands each
 * entry of the tally whose a is not negative to r->cell(), its expected
 * count, factor and games from cell() (games preset to the entry's
 * count, factor to 1). */
enum rpl_status rpl__audit_scan(
    const struct rpl__audit_run *r, const struct rpl__read *extra,
    enum rpl_status (*game)(struct rpl__audit_game *x, struct rpl_error *err),
    void (*cell)(const struct rpl__audit_game *x,
                 const struct rpl__tally_entry *e, double *expected,
                 double *factor, uint64_t *games),
    struct rpl_error *err);

/* The door is a top struct (struct rpl__game, below) that points to one
 * small table of hooks per concern; a game fills the tables of what it
 * has.  The state is plain data of state_size bytes (no pointers): the
 * log layer zeroes it, copies it with memcpy and never looks inside.
 * Every function that fails leaves the state as it was. */

/* Rules and play: what verifying and recording a log needs (log.c,
 * rec.c, seat.c, coverage.c).  Every game has it. */
struct rpl__game_play {
    /* The `rules` line, on a zeroed state: checks it, stores the
     * configuration, reports O/W warnings through env and sets *seats. */
    enum rpl_status (*rules)(void *st, const struct rpl__line *ln,
                             const struct rpl__env *env, size_t *seats,
                             struct rpl_error *err);
    /* The house rules a rules line declares (its text, len bytes), as
     * a comma-separated list written to out ("" for none); returns the
     * length.  NULL for a game without variants. */
    size_t (*variants)(const char *rules, size_t len, char *out, size_t cap);
    /* rpl_game_rules(): appends the value of a rules line to out (roles
     * and options as rpl_game_rules() takes them, NULL for none). */
    enum rpl_status (*rules_line)(size_t players, const char *roles,
                                  const char *options, struct rpl__buf *out,
                                  struct rpl_error *err);
    /* With env->seed: derives the deal (every secret of the setup). */
    enum rpl_status (*setup)(void *st, const struct rpl__env *env,
                             struct rpl_error *err);
    /* A game line (every line that is not header, entropy, seal, sig,
     * reveal or open).  Checks everything the state knows. */
    enum rpl_status (*apply)(void *st, const struct rpl__line *ln,
                             const struct rpl__env *env,
                             struct rpl__applied *out, struct rpl_error *err);
    /* Tells the state a secret choice before its line is applied
     * (recorder, and replay of a complete log): label as in `open`. */
    enum rpl_status (*learn)(void *st, const char *label, const char *value,
                             struct rpl_error *err);
    /* The dealer's next line (needs setup): start, deal, derived lines.
     * False when a seat must act or the game is over. */
    bool (*pending)(const void *st, const struct rpl__env *env,
                    struct rpl__emit *e);
    /* The seat that must act next; 0 when none. */
    size_t (*turn)(const void *st);
    /* Whether `end` has been applied. */
    bool (*is_over)(const void *st);
    /* Winner and reason tokens of `end` ("" before it). */
    void (*outcome)(const void *st, const char **winner, const char **reason);
    /* At `reveal` (env->seed set): the checks of camelog(5) in order,
     * each error naming the line whose claim is false. */
    enum rpl_status (*reveal)(void *st, const struct rpl__env *env,
                              size_t reveal_line, struct rpl_error *err);
    /* One `open` line after `reveal`. */
    enum rpl_status (*open)(void *st, const struct rpl__line *ln,
                            const struct rpl__env *env, struct rpl_error *err);
    /* Opens still expected after `reveal`. */
    size_t (*opens_left)(const void *st);
    /* Open i (0-based, log order) as "open <label> <value>" (recorder). */
    bool (*open_line)(const void *st, size_t i, struct rpl__emit *e);
    /* Canonical bytes of the state for the digest; returns the length
     * (writes nothing past cap). */
    size_t (*serialize)(const void *st, uint8_t *buf, size_t cap);
    /* Whether a delivery's value (its padding removed) is one the rules
     * allow the seat to be told, judged on the state after its line and
     * what is public: RPL_OK, or RPL_E_FAIRNESS with what is impossible
     * (a servant who sees, a Merlin who sees the wrong number of seats).
     * NULL: every value is plausible. */
    enum rpl_status (*plausible)(const void *st, const struct rpl__env *env,
                                 size_t seat, const char *label,
                                 const char *value, size_t line,
                                 struct rpl_error *err);
    /* The line the dealer writes to end an abandoned game
     * (rpl_rec_abort()), e.g. "end aborted"; apply() accepts it after the
     * start and before the line that decides the game.  NULL: the game
     * cannot be abandoned. */
    const char *abort_line;
};

/* Views: the state told for people and programs (log.c, log_known.c,
 * review.c, seat.c).  Every game has it; the members marked NULL may
 * be. */
struct rpl__game_views {
    /* Text for people and JSON (append to out): the board and what the
     * viewer (seat, RPL_VIEW_PUBLIC or RPL_VIEW_ALL) knows. */
    void (*view)(const void *st, const struct rpl__env *env, int viewer,
                 struct rpl__buf *out);
    void (*view_json)(const void *st, const struct rpl__env *env, int viewer,
                      struct rpl__buf *out);
    /* The line just applied (st is the state after it), told for people
     * and as a JSON array of events. */
    void (*describe)(const void *st, const struct rpl__env *env,
                     const struct rpl__line *ln, int viewer,
                     struct rpl__buf *out);
    void (*events_json)(const void *st, const struct rpl__env *env,
                        const struct rpl__line *ln, struct rpl__buf *out);
    /* Who was who (complete state): text and JSON. */
    void (*reveal_text)(const void *st, const struct rpl__env *env,
                        struct rpl__buf *out);
    void (*reveal_json)(const void *st, const struct rpl__env *env,
                        struct rpl__buf *out);
    /* rpl_log_board(): the board for people reviewing the game, with
     * names, then what viewer knows in words (a seat: only from the line
     * that deals it).  Appends to out.  NULL: view() stands in. */
    void (*board)(const void *st, const struct rpl__env *env, int viewer,
                  struct rpl__buf *out);
    /* rpl_log_mark(): the RPL_MARK_ bits (not RPL_MARK_HEADER) of game
     * line ln, from the states before and after it.  NULL: none. */
    unsigned (*mark)(const void *before, const void *after,
                     const struct rpl__line *ln);
    /* An `open` line (after reveal, applied: st is the state after it)
     * told in words for people ("Bob (p2) played success on quest 1").
     * NULL: the log layer's "opened: <label> <value>". */
    void (*describe_open)(const void *st, const struct rpl__env *env,
                          const struct rpl__line *ln, struct rpl__buf *out);
    /* A seat's own delivery (rpl_log_learn(), a log without its reveal):
     * label and value as the seat received them, told just before the
     * line that commits them is applied (the deliveries of one seat
     * only, in log order, after rules()).  From then on view, view_json
     * and describe for viewer seat show what the seat knew, each secret
     * from the line it belongs to; other viewers see nothing more.
     * RPL_E_SYNTAX for a label or value the game does not know.  NULL:
     * the game cannot show a seat's view before the reveal. */
    enum rpl_status (*seat_learn)(void *st, size_t seat, const char *label,
                                  const char *value, struct rpl_error *err);
};

/* Live play: what the recorder and a host need beyond the rules
 * (rec.c, rec_live.c, rec_journal.c, rec_state.c, seat.c).  Every game
 * has it; the members marked NULL may be. */
struct rpl__game_live {
    /* A private-form action (rpl_rec_act) as the line to write. */
    enum rpl_status (*action)(const void *st, const struct rpl__env *env,
                              const char *action, struct rpl__emit *e,
                              struct rpl_error *err);
    /* A seeded player's choice for the seat whose turn it is. */
    enum rpl_status (*bot)(const void *st, const struct rpl__env *env,
                           enum rpl_bot kind, struct rpl__stream *rng,
                           struct rpl__emit *e, struct rpl_error *err);
    /* Seat `seat` submits `action` (its private form) to the recorder:
     * judged on what is public and what that seat knows, never on another
     * seat's secret.  RPL_OK when the action may go on to action();
     * otherwise the refusal's status, with why's code and text safe to
     * show every player (camelog-host(1) lists the codes).  A
     * simultaneous action (see step_seats) is judged as if the seats
     * before it in seat order had already acted.  NULL: the recorder
     * refuses with a generic text whenever action() refuses. */
    enum rpl_status (*screen)(const void *st, const struct rpl__env *env,
                              size_t seat, const char *action,
                              struct rpl_refusal *why);
    /* The seats of a simultaneous step now open (the votes on a team, the
     * cards of a quest) whose lines are not written yet: bit k for seat k.
     * Their actions are accepted in any order and written in seat order
     * once all are in.  0: the next action is a single seat's (turn()),
     * or none.  NULL: never. */
    uint64_t (*step_seats)(const void *st);
    /* The state for a user interface as one JSON object, appended to out:
     * phase, tracks, who must act (never naming a secret role's seat),
     * and the legal action forms of viewer (a seat, RPL_VIEW_PUBLIC or
     * RPL_VIEW_ALL), with nothing that viewer may not know.  NULL: none
     * (rpl_rec_state_json() refuses). */
    void (*state_json)(const void *st, const struct rpl__env *env, int viewer,
                       struct rpl__buf *out);
};

/* The archive's rows (archive/): what a game adds to the index, the
 * filters, the statistics, a game's details and the deal audit.  NULL:
 * the game has only the archive's common rows, filters and counts, as
 * when every member below is NULL. */
struct rpl__game_archive {
    /* The archive's index of a verified log (archive/index.c).  The
     * archive zeroes index_size bytes of scratch (ix, the game's own
     * plain data), calls index() for each game line in log order, st the
     * state after it, then once with ln NULL, st the state after the last
     * line; env->seed is set when the log is complete (the state then
     * knows the deal).  The game fills its part of the common rows and
     * writes the rows of its own tables through rows.  NULL: the game
     * has only the common rows. */
    size_t index_size;
    enum rpl_status (*index)(void *ix, const void *st,
                             const struct rpl__env *env,
                             const struct rpl__line *ln, struct rpl__rows *rows,
                             struct rpl_error *err);
    /* The game's tables (struct rpl__table), tables[0..ntables): the
     * tables row() names.  NULL: none. */
    const struct rpl__table *tables;
    size_t ntables;
    /* The values the archive's filters take for a seat's role (column
     * RPL__COL_ROLE: what index() writes to seat.role) and side
     * (RPL__COL_SIDE: seat.side, and the game's own names for its
     * sides) and a variant its rules line may declare (RPL__COL_VARIANT:
     * the names of struct rpl__game_play.variants): value i, 0-based, or
     * NULL past the last.  NULL: none. */
    const char *(*filter_value)(int column, size_t i);
    /* The filter --side in the game's own terms: the side of the common
     * rows (seat.side) that name stands for in this game's games, or
     * NULL when name is not one of the game's own ("loyal": "good").
     * NULL: the game has no names of its own for its sides. */
    const char *(*side_of)(const char *name);
    /* The game's statistics (archive/stats.c, struct rpl__stats): the
     * function that counts them from the rows of the selected games and
     * writes its part of the JSON, text and chart.  NULL: the game has
     * no part of its own beyond the archive's counts. */
    enum rpl_status (*stats)(const struct rpl__stats *s, struct rpl_error *err);
    /* The game's part of struct rpl_archive_game (archive/query.c,
     * struct rpl__details): the reads of its rows it makes (details_reads,
     * read q of struct rpl__details), and the function that turns them
     * into quests and facts.  NULL: none. */
    const struct rpl__read *details_reads;
    size_t ndetails_reads;
    enum rpl_status (*details)(struct rpl__details *d, struct rpl_error *err);
    /* The groups of the facts details() gives (rpl_archive_fact_group()
     * lists those of every game): NULL-terminated, or NULL for none. */
    const char *const *fact_groups;
    /* The tables of the deal audit (archive/audit.c, struct rpl__audit):
     * naudit of them, in the order they are printed.  NULL: none. */
    const struct rpl__audit *audit;
    size_t naudit;
};

/* Coverage (rpl_log_coverage(), coverage.c): the game's rule ids,
 * cov[0..ncov), a constant table whose order is the bit order (ids are
 * only added at its end; each unreachable one says why), and cover(),
 * which sets the bits of the ids a line exercised: called after each
 * game line with the state before and after it, then once with ln NULL
 * and before == st, the state after the last line (with a complete log
 * it knows the deal and every opened choice).  bits has
 * RPL_COVERAGE_MAX bits; cover() only sets bits below ncov.
 * corpus_rules: the rules lines (values, without "rules ") that
 * camelog-corpus(1) cycles through, NULL-terminated.  The table NULL,
 * or cover NULL: no coverage (and corpus_rules NULL: no corpus). */
struct rpl__game_coverage {
    const struct rpl_coverage_id *cov;
    size_t ncov;
    void (*cover)(const void *before, const void *st,
                  const struct rpl__line *ln, const struct rpl__env *env,
                  uint64_t *bits);
    const char *const *corpus_rules;
};

/* Imports (importer.c, rec.c): the records of other systems that become
 * games of this one.  NULL: the game imports nothing. */
struct rpl__game_import {
    /* The formats of other systems whose records become games of this
     * one (rpl_import()): NULL-terminated, or NULL for none. */
    const struct rpl__importer *const *importers;
    /* Imported games: the deal as the record gives it (deal[0..seats),
     * game-specific texts, e.g. Avalon roles) and the first player, in
     * place of setup(). */
    enum rpl_status (*import_deal)(void *st, const struct rpl__env *env,
                                   const char *const *deal, size_t first,
                                   struct rpl_error *err);
};

/* One game: its name, its state's size, what rpl_game_info() gives and
 * a table per concern.  play, views and live are never NULL; archive,
 * coverage and import are NULL for a game without that concern (callers
 * read them through rpl__archive_hooks() and the like, below). */
struct rpl__game {
    const char *name; /* the `game` line's value */
    size_t state_size;
    /* What rpl_game_info() gives; info->name is name. */
    const struct rpl_game_info *info;

    const struct rpl__game_play *play;
    const struct rpl__game_views *views;
    const struct rpl__game_live *live;
    const struct rpl__game_archive *archive;
    const struct rpl__game_coverage *coverage;
    const struct rpl__game_import *import;
};

/* The tables a game may lack, an empty table (every member NULL or 0)
 * standing in for a NULL one, so that callers test the hooks alone. */
static inline const struct rpl__game_archive *
rpl__archive_hooks(const struct rpl__game *g)
{
    static const struct rpl__game_archive none;

    return g->archive ? g->archive : &none;
}

static inline const struct rpl__game_coverage *
rpl__coverage_hooks(const struct rpl__game *g)
{
    static const struct rpl__game_coverage none;

    return g->coverage ? g->coverage : &none;
}

static inline const struct rpl__game_import *
rpl__import_hooks(const struct rpl__game *g)
{
    static const struct rpl__game_import none;

    return g->import ? g->import : &none;
}

/* Sets bit i of a coverage set (cover()). */
static inline void
rpl__cov_set(uint64_t *bits, size_t i)
{
    if (i < RPL_COVERAGE_MAX)
        bits[i / 64u] |= (uint64_t)1u << (i % 64u);
}

/* The columns of struct rpl__game_archive.filter_value. */
#define RPL__COL_ROLE    0
#define RPL__COL_SIDE    1
#define RPL__COL_VARIANT 2

/* The games' statistics in text (stats_text.c): a count or a string of
 * a stats object (0 or "" when missing; the string escaped for a
 * terminal by rpl_text_escape() into buf, cap bytes, since it may come
 * from an archive anyone made), the table of its end "reasons" (winner,
 * reason, games, share), and the per-player table of its "records",
 * whose two sides side1 and side2 name its keys (side1, side1_wins, ...)
 * and headings. */
uint64_t rpl__stats_uint(const json_t *o, const char *key);
const char *rpl__stats_text(const json_t *o, const char *key, char *buf,
                            size_t cap);
void rpl__stats_reasons_text(const json_t *o, struct rpl__buf *b);
void rpl__stats_records_text(const json_t *o, const char *side1,
                             const char *side2, struct rpl__buf *b);
/* The chart of a game's stats (RPL__STATS_SVG): one bar per element of
 * its "by_players" array, its key low drawn below its key high (the
 * names of the two sides, "evil" and "good"), under title. */
void rpl__stats_chart(const struct rpl__stats *s, const char *title,
                      const char *low, const char *high);

/* The registry (registry.c): NULL for an unknown name. */
const struct rpl__game *rpl__game_find(const char *name, size_t len);
/* Game i of the registry (0-based, a fixed order); NULL past the last. */
const struct rpl__game *rpl__game_at(size_t i);

/* ------------------------------------------------------------ imports */

/* A record of another system, as importer.c hands it to an importer. */
struct rpl__import_in {
    struct rpl_ctx *ctx;
    const struct rpl__game *game; /* the game the importer belongs to */
    const char *name;             /* the record's file name, no directory */
    const char *record;           /* record_len bytes (not a C string) */
    size_t record_len;
    const char *options; /* the format's settings; "" for none */
    bool has_seed;       /* with root: dealer secrets derive from it */
    uint8_t root[32];
};

#define RPL__IMPORT_ID_MAX 128 /* bytes of an original id */

/* How to record a record an importer accepts: the recorder's
 * configuration and the players' actions in their private form. */
struct rpl__import_plan {
    char oid[RPL__IMPORT_ID_MAX + 1]; /* the original id */
    uint8_t id[16];                   /* rpl__import_derive() */
    uint8_t secret[32];               /* wiped by importer.c */
    char rules[256];                  /* the rules line after "rules " */
    size_t seats;
    char names[RPL_MAX_SEATS][RPL_MAX_NAME + 1];
    char deal[RPL_MAX_SEATS][32]; /* each seat's secret (Avalon: role) */
    size_t first;                 /* the first player, 1-based */
    char created[32];             /* "YYYY-MM-DDTHH:MM:SSZ" or "" */
    struct rpl__buf actions;      /* one action per line, each with LF */
};

/* One foreign format.  Its categories (rpl_import_category()) are its
 * own; importer.c fills those keyed "read", "size", "invalid" and
 * "internal", and callers those keyed "exists" and "write". */
struct rpl__importer {
    const char *format; /* the name callers give: "avalongame" */
    const char *source; /* the `import` line's source */
    const struct rpl_import_category *categories; /* [0] is "imported" */
    size_t ncategories;
    /* Reads and checks a record with the game's own engine: RPL_OK with
     * plan filled (plan->actions is initialized by the caller), or the
     * refusal's status with rep->category, field and reason set. */
    enum rpl_status (*convert)(const struct rpl__import_in *in,
                               struct rpl__import_plan *plan,
                               struct rpl_import_report *rep);
};

/* The importer of a format, and its game in *game; NULL when none. */
const struct rpl__importer *rpl__importer_find(const char *format,
                                               const struct rpl__game **game);

/* The games' names joined for a message: "avalon or soc" with last
 * " or ", commas before it; truncated to cap (cap > 0). */
void rpl__game_names(char *out, size_t cap, const char *last);

#endif /* LIBREPLAY_GAMES_GAME_H */
