/*
 * cmd_archive.c - camelog archive: many games in one SQLite database
 * (rpl_archive_*), with six subcommands: add (verify each file like
 * `camelog verify`, then store and index it), query (one line or one JSON
 * object per game), sql (one read-only statement), stats (a table, JSON,
 * or an SVG chart of the win rates by player count), audit (whether the
 * deals look uniform), export (the stored files, byte for byte), check
 * (every stored log against the index) and report (an HTML page).
 *
 * add reads and verifies files outside any transaction, a chunk at a
 * time, then stores the chunk as one batch: another process adding to the
 * same archive waits at most for one chunk, and a kill leaves every
 * earlier chunk stored and nothing of the current one.  A job indexes
 * each log in the pass that verifies it (rpl_archive_entry_verify()),
 * so that the main thread, the only writer, does little but the
 * database's part between the jobs it runs.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archive_tlog.h"
#include "cli.h"
#include "html.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog archive add DB FILE ... [--pubkey KEY|FILE] [--tlog DIR]\n"
    "                           [-q] [--json] [-j N]\n"
    "       camelog archive query DB [filters] [--limit N] [--json]\n"
    "       camelog archive sql DB SQL [--json]\n"
    "       camelog archive stats DB [filters] [--top N] [--min-games N]\n"
    "                             [--json] [--svg FILE]\n"
    "       camelog archive audit DB [filters] [--tlog DIR] [--json]\n"
    "       camelog archive export DB [filters] [-f] -o DIR\n"
    "       camelog archive check DB [--json]\n"
    "       camelog archive report DB [filters] [-f] -o FILE\n";

static const char options[] =
    "filters (query, stats, audit, export and report take them alike; a\n"
    "game must match all; --role and --side apply to the seat of --player\n"
    "when it is given):\n"
    "  --game NAME        avalon or soc\n"
    "  --id HEX           the game id, or its first digits\n"
    "  --player NAME      a seat's display name\n"
    "  --role ROLE        a seat's revealed role (merlin, assassin, ...)\n"
    "  --side SIDE        a seat's revealed side (good, evil)\n"
    "  --winner SIDE      the winner on the end line (good, evil, aborted)\n"
    "  --reason REASON    the end reason (quests, failures, rejections,\n"
    "                     assassination, missed, aborted)\n"
    "  --players N        the number of seats\n"
    "  --since DATE       created on or after DATE (YYYY-MM-DD or\n"
    "                     YYYY-MM-DDTHH:MM:SSZ)\n"
    "  --until DATE       created before DATE\n"
    "  --official         under the official rules: no variant declared\n"
    "  --variant NAME     declaring the house rule NAME (repeatable: every\n"
    "                     one), as camelog-avalon(7) names it\n"
    "options:\n"
    "  --pubkey KEY|FILE  add: pin the dealer's public key\n"
    "  --tlog DIR         add: refuse a file whose start or end is not in\n"
    "                     the host's public log DIR; audit: add its\n"
    "                     abandonment rates per host and per seat\n"
    "  -j, --jobs N       add: read and verify N files at a time (default:\n"
    "                     the cores online); one thread stores them\n"
    "  --json             JSON Lines (keys in camelog-archive(1))\n"
    "  --svg FILE         stats: also write a chart of the win rates by\n"
    "                     player count (- for the standard output)\n"
    "  --top N            stats: the N players with the most games (default\n"
    "                     20; 0 for all)\n"
    "  --min-games N      stats: only players with N games or more\n"
    "  --limit N          query: the first N games only\n"
    "  -o, --output DIR   export: the directory to write into; report: the\n"
    "                     page to write (- for the standard output)\n"
    "  -f, --force        export, report: overwrite existing files\n"
    "  -q, --quiet        no progress\n"
    "  -h, --help         this help\n";

/* Files verified before their chunk is stored: bounds the memory held
 * and the time another writer may wait for the lock. */
#define ADD_CHUNK 256
/* Logs stored under one savepoint (rpl_archive_add_entries()). */
#define ADD_RUN 32
/* The smallest of the last chunks (see run_add()). */
#define ADD_TAIL 16
/* The players stats lists by default. */
#define STATS_TOP 20

enum sub {
    SUB_ADD,
    SUB_QUERY,
    SUB_SQL,
    SUB_STATS,
    SUB_AUDIT,
    SUB_EXPORT,
    SUB_CHECK,
    SUB_REPORT
};

static const char *const sub_names[] = {
    "add", "query", "sql", "stats", "audit", "export", "check", "report",
};
#define NSUBS (sizeof(sub_names) / sizeof(sub_names[0]))

struct args {
    enum sub sub;
    const char *db;    /* as messages name it: a URI without its password */
    const char *where; /* as given: a path or a URI */
    char db_shown[512];
    struct rpl_archive_filter filter;
    bool has_filter;
    const char *variant[RPL_ARCHIVE_MAX_VARIANTS];
    bool has_top, has_min_games, has_limit;
    size_t limit;
    const char *pubkey;
    const char *tlog;
    const char *svg;
    const char *outdir;
    bool is_json;
    bool is_quiet;
    bool is_force;
    size_t jobs; /* add: -j */
    bool has_jobs;
    char **rest; /* operands after DB */
    int nrest;
};

/* ------------------------------------------------------------ options */

/* The archive as messages name it: a URI "scheme://user:password@..."
 * without its password, which no output carries. */
static const char *
shown_name(const char *where, char *buf, size_t cap)
{
    const char *scheme = strstr(where, "://");
    const char *at, *colon;
    int n;

    if (!scheme) {
        return where;
    }
    at = strchr(scheme + 3, '@');
    colon = strchr(scheme + 3, ':');
    if (!at || !colon || colon > at || strchr(scheme + 3, '/') < at) {
        return where;
    }
    n = snprintf(buf, cap, "%.*s%s", (int)(colon - where), where, at);
    return n > 0 && (size_t)n < cap ? buf : "the archive";
}

static int
parse_args(int argc, char **argv, struct args *a, bool *help)
{
    enum {
        O_GAME = 256,
        O_ID,
        O_PLAYER,
        O_ROLE,
        O_SIDE,
        O_WINNER,
        O_REASON,
        O_PLAYERS,
        O_SINCE,
        O_UNTIL,
        O_OFFICIAL,
        O_VARIANT,
        O_TOP,
        O_MIN_GAMES,
        O_LIMIT,
        O_PUBKEY,
        O_TLOG,
        O_JSON,
        O_SVG
    };
    static const struct option longopts[] = {
        {"game", required_argument, NULL, O_GAME},
        {"id", required_argument, NULL, O_ID},
        {"player", required_argument, NULL, O_PLAYER},
        {"role", required_argument, NULL, O_ROLE},
        {"side", required_argument, NULL, O_SIDE},
        {"winner", required_argument, NULL, O_WINNER},
        {"reason", required_argument, NULL, O_REASON},
        {"players", required_argument, NULL, O_PLAYERS},
        {"since", required_argument, NULL, O_SINCE},
        {"until", required_argument, NULL, O_UNTIL},
        {"official", no_argument, NULL, O_OFFICIAL},
        {"variant", required_argument, NULL, O_VARIANT},
        {"top", required_argument, NULL, O_TOP},
        {"min-games", required_argument, NULL, O_MIN_GAMES},
        {"limit", required_argument, NULL, O_LIMIT},
        {"pubkey", required_argument, NULL, O_PUBKEY},
        {"tlog", required_argument, NULL, O_TLOG},
        {"json", no_argument, NULL, O_JSON},
        {"svg", required_argument, NULL, O_SVG},
        {"output", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, 'f'},
        {"jobs", required_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct rpl_archive_filter *f = &a->filter;
    size_t sub;
    int c;

    *help = false;
    if (argc < 2) {
        return cli_usage_error("archive", "no subcommand (add, query, sql, "
                                          "stats, export, check)");
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        *help = true;
        return CLI_EXIT_OK;
    }
    for (sub = 0; sub < NSUBS; sub++) {
        if (strcmp(argv[1], sub_names[sub]) == 0) {
            break;
        }
    }
    if (sub == NSUBS) {
        return cli_usage_error("archive", "unknown subcommand '%s'", argv[1]);
    }
    a->sub = (enum sub)sub;
    argc--;
    argv++;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:fj:qh", longopts, NULL)) != -1) {
        switch (c) {
        case O_GAME:
            f->game = optarg;
            break;
        case O_ID:
            f->id = optarg;
            break;
        case O_PLAYER:
            f->player = optarg;
            break;
        case O_ROLE:
            f->role = optarg;
            break;
        case O_SIDE:
            f->side = optarg;
            break;
        case O_WINNER:
            f->winner = optarg;
            break;
        case O_REASON:
            f->reason = optarg;
            break;
        case O_PLAYERS:
            if (!cli_parse_size(optarg, &f->players) || f->players == 0) {
                return cli_usage_error("archive",
                                       "--players: expected a number of "
                                       "seats, got '%s'",
                                       optarg);
            }
            break;
        case O_SINCE:
            f->since = optarg;
            break;
        case O_UNTIL:
            f->until = optarg;
            break;
        case O_OFFICIAL:
            f->is_official = true;
            break;
        case O_VARIANT:
            if (f->nvariants == RPL_ARCHIVE_MAX_VARIANTS) {
                return cli_usage_error("archive",
                                       "--variant: at most %d variants",
                                       RPL_ARCHIVE_MAX_VARIANTS);
            }
            a->variant[f->nvariants++] = optarg;
            f->variants = a->variant;
            break;
        case O_TOP:
            if (!cli_parse_size(optarg, &f->records_top)) {
                return cli_usage_error("archive",
                                       "--top: expected a number of "
                                       "players, got '%s'",
                                       optarg);
            }
            a->has_top = true;
            break;
        case O_MIN_GAMES:
            if (!cli_parse_size(optarg, &f->records_min_games)) {
                return cli_usage_error("archive",
                                       "--min-games: expected a number of "
                                       "games, got '%s'",
                                       optarg);
            }
            a->has_min_games = true;
            break;
        case O_LIMIT:
            if (!cli_parse_size(optarg, &a->limit)) {
                return cli_usage_error("archive",
                                       "--limit: expected a number of "
                                       "games, got '%s'",
                                       optarg);
            }
            a->has_limit = true;
            break;
        case O_PUBKEY:
            a->pubkey = optarg;
            break;
        case O_TLOG:
            a->tlog = optarg;
            break;
        case O_JSON:
            a->is_json = true;
            break;
        case O_SVG:
            a->svg = optarg;
            break;
        case 'o':
            a->outdir = optarg;
            break;
        case 'f':
            a->is_force = true;
            break;
        case 'j':
            if (cli_parse_jobs("archive", optarg, &a->jobs) != CLI_EXIT_OK) {
                return CLI_EXIT_USAGE;
            }
            a->has_jobs = true;
            break;
        case 'q':
            a->is_quiet = true;
            break;
        case 'h':
            *help = true;
            return CLI_EXIT_OK;
        default:
            return cli_option_error("archive", c, argv);
        }
        if (c >= O_GAME && c <= O_VARIANT) {
            a->has_filter = true;
        }
    }
    if (optind >= argc) {
        return cli_usage_error("archive", "archive %s: no archive given",
                               sub_names[sub]);
    }
    a->where = argv[optind];
    a->db = shown_name(a->where, a->db_shown, sizeof(a->db_shown));
    a->rest = argv + optind + 1;
    a->nrest = argc - optind - 1;
    return CLI_EXIT_OK;
}

/* Refuses the options a subcommand does not take. */
static int
check_args(const struct args *a)
{
    const char *sub = sub_names[a->sub];
    const char *bad = NULL;

    const bool is_out = a->sub == SUB_EXPORT || a->sub == SUB_REPORT;

    if (a->has_filter && a->sub != SUB_QUERY && a->sub != SUB_STATS &&
        a->sub != SUB_AUDIT && !is_out) {
        bad = "filters";
    } else if ((a->has_top || a->has_min_games) && a->sub != SUB_STATS) {
        bad = a->has_top ? "--top" : "--min-games";
    } else if (a->has_limit && a->sub != SUB_QUERY) {
        bad = "--limit";
    } else if (a->pubkey && a->sub != SUB_ADD) {
        bad = "--pubkey";
    } else if (a->tlog && a->sub != SUB_ADD && a->sub != SUB_AUDIT) {
        bad = "--tlog";
    } else if (a->has_jobs && a->sub != SUB_ADD) {
        bad = "-j";
    } else if (a->svg && a->sub != SUB_STATS) {
        bad = "--svg";
    } else if (a->outdir && !is_out) {
        bad = "--output";
    } else if (a->is_force && !is_out) {
        bad = "--force";
    } else if (a->is_json && is_out) {
        bad = "--json";
    }
    if (bad) {
        return cli_usage_error("archive", "archive %s takes no %s", sub, bad);
    }
    if (a->sub == SUB_ADD && a->nrest == 0) {
        return cli_usage_error("archive", "archive add: no file to add");
    }
    if (a->sub == SUB_SQL && a->nrest != 1) {
        return cli_usage_error("archive",
                               "archive sql: expected one SQL statement "
                               "(quote it)");
    }
    if (a->sub == SUB_EXPORT && !a->outdir) {
        return cli_usage_error("archive", "archive export: -o DIR is required");
    }
    if (a->sub == SUB_REPORT && !a->outdir) {
        return cli_usage_error("archive",
                               "archive report: -o FILE is required");
    }
    if (a->sub != SUB_ADD && a->sub != SUB_SQL && a->nrest > 0) {
        return cli_usage_error("archive", "archive %s: unexpected '%s'", sub,
                               a->rest[0]);
    }
    return CLI_EXIT_OK;
}

/* Opens the archive at where (a path or a URI), named db in messages. */
static int
open_archive(struct rpl_ctx *ctx, const char *where, const char *db,
             enum rpl_archive_mode mode, bool warn, struct rpl_archive **ar)
{
    struct rpl_error err;
    struct stat sb;
    enum rpl_status st;

    /* SQLite would open a FIFO and wait for a writer for ever. */
    if (stat(where, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
        cli_file_msg(db, 0, "not a regular file");
        return CLI_EXIT_USAGE;
    }
    st = rpl_archive_open(ctx, ar, where, mode, &err);
    if (st != RPL_OK) {
        return cli_file_error(db, st, &err);
    }
    /* A schema this library did not make: what the archive says may be
     * a lie (check lists every difference as a problem). */
    if (mode == RPL_ARCHIVE_READ && warn && rpl_archive_warning(*ar)) {
        cli_file_msg(db, 0, "warning: %s", rpl_archive_warning(*ar));
    }
    return CLI_EXIT_OK;
}

/* A failed query, stats or export: a filter the library refused is a
 * usage error naming its option ("since: ..." becomes "--since: ..."). */
static int
filter_error(const char *db, enum rpl_status st, const struct rpl_error *err)
{
    if (st == RPL_E_ARG) {
        return cli_usage_error("archive", "--%s", cli_error_text(st, err));
    }
    return cli_file_error(db, st, err);
}

/* The filters of query, stats, audit, export and report, checked once
 * and alike before any of them opens the archive: the same filter is
 * taken, or refused with the same message, by each. */
static int
check_filter(const struct args *a)
{
    struct rpl_error err;
    enum rpl_status st;

    if (a->sub != SUB_QUERY && a->sub != SUB_STATS && a->sub != SUB_AUDIT &&
        a->sub != SUB_EXPORT && a->sub != SUB_REPORT) {
        return CLI_EXIT_OK;
    }
    st = rpl_archive_check_filter(&a->filter, &err);
    return st == RPL_OK ? CLI_EXIT_OK : filter_error(a->db, st, &err);
}

static json_t *
str_or_null(const char *s)
{
    return s ? cli_json_str(s) : json_null();
}

/* ---------------------------------------------------------------- add */

struct add_run {
    const struct args *a;
    struct rpl_ctx *ctx;
    struct rpl_archive *ar;
    const struct rpl_pubkey *pin;
    size_t count[4]; /* by enum rpl_archive_added */
    size_t refused;
    int rc;
};

static const char *const added_names[] = {
    "added",
    "replaced",
    "present",
    "superseded",
};

static int
add_json(const char *file, const char *id, const char *result,
         enum rpl_status st, const struct rpl_error *err)
{
    json_t *o = json_object();
    bool ok = true;
    int rc;

    ok &= cli_json_set(o, "file", cli_json_str(file));
    ok &= cli_json_set(o, "id", str_or_null(id));
    ok &= cli_json_set(o, "result", json_string(result));
    ok &= cli_json_set(o, "code", json_string(rpl_status_name(st)));
    ok &= cli_json_set(o, "line",
                       st == RPL_OK ? json_null() : cli_json_size(err->line));
    ok &= cli_json_set(o, "error",
                       st == RPL_OK ? json_null()
                                    : cli_json_str(cli_error_text(st, err)));
    if (!ok) {
        json_decref(o);
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    rc = cli_json_print(o);
    json_decref(o);
    return rc;
}

/* A job of the pool: one file read and verified, its log waiting in
 * the slot until its chunk is stored.  With threads, the job also makes
 * the log's entry (its index rows and compressed file), so that the main
 * thread, the only writer, has only the database's part to do; its
 * failure waits for the chunk too, to be told where rpl_archive_add()
 * would tell it. */
struct add_job {
    struct rpl_log *log; /* NULL: refused (reported) */
    struct rpl_archive_entry *entry;
    enum rpl_status entry_st;
    struct rpl_error entry_err;
    char id[33];
};

/* Reads and verifies one file (a job of the pool, in any thread); a
 * failure is reported and leaves job->log NULL. */
static int
add_read(void *ud, struct rpl_ctx *ctx, size_t index, void *data)
{
    const struct add_run *run = ud;
    struct add_job *job = data;
    const char *file = run->a->rest[index];
    struct rpl_verify_opts opts = {.pubkey = run->pin};
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    enum rpl_status st;
    int rc;

    st = rpl_log_read(ctx, &log, file, &err);
    if (st == RPL_OK) {
        /* One pass: the verify makes the entry; a log that verifies but
         * cannot be archived fails when its turn to be stored comes. */
        st = rpl_archive_entry_verify(log, &opts, &rep,
                                      cli_pool_keep() ? cli_pool_keep() : ctx,
                                      &job->entry, &job->entry_err);
        if (rep.error.code == RPL_OK) {
            job->entry_st = st;
            st = RPL_OK;
        }
        err = rep.error;
    }
    if (st == RPL_OK) {
        memcpy(job->id, rep.id, 33);
        job->log = log;
        return CLI_EXIT_OK;
    }
    rpl_log_free(log);
    rc = cli_file_error(file, st, &err);
    if (run->a->is_json) {
        rc = cli_worst(rc, add_json(file, NULL, "refused", st, &err));
    }
    return rc;
}

/* A chunk of files read and verified, waiting to be stored. */
struct chunk {
    char *file[ADD_CHUNK];
    struct rpl_log *log[ADD_CHUNK]; /* NULL: refused already */
    struct add_job *job[ADD_CHUNK];
    struct rpl_archive_entry *entry[ADD_RUN];
    const char *id[ADD_CHUNK];
    enum rpl_archive_added what[ADD_CHUNK];
    size_t n;
};

static void
refuse(struct add_run *run, const char *file, enum rpl_status st,
       const struct rpl_error *err)
{
    run->refused++;
    if (run->a->is_json) {
        run->rc = cli_worst(run->rc, add_json(file, NULL, "refused", st, err));
    }
}

/* Times a chunk is stored again after another writer's transaction
 * made it fail (RPL_E_BUSY: a deadlock or a serialization failure of a
 * server). */
#define ADD_RETRIES 3

static void add_chunk_once(struct add_run *run, struct chunk *c,
                           enum rpl_status *out_st, struct rpl_error *out_err);

/* Stores a chunk of verified logs as one batch.  A log the archive
 * refuses is left out alone; a failure of the database loses the whole
 * chunk, which is then reported once. */
static void
add_chunk(struct add_run *run, struct chunk *c)
{
    enum rpl_status st = RPL_OK;
    struct rpl_error err;
    size_t i;

    for (int tries = 0; tries <= ADD_RETRIES; tries++) {
        add_chunk_once(run, c, &st, &err);
        if (st != RPL_E_BUSY) {
            break;
        }
    }
    if (st != RPL_OK) {
        run->rc = cli_worst(run->rc, cli_file_error(run->a->db, st, &err));
        for (i = 0; i < c->n; i++) {
            if (c->log[i]) {
                refuse(run, c->file[i], st, &err);
            }
        }
        return;
    }
    for (i = 0; i < c->n; i++) {
        if (!c->log[i]) {
            continue;
        }
        run->count[c->what[i]]++;
        if (run->a->is_json) {
            run->rc = cli_worst(run->rc, add_json(c->file[i], c->id[i],
                                                  added_names[c->what[i]],
                                                  RPL_OK, NULL));
        }
    }
}

/* One try of add_chunk(): the status of the batch in *out_st. */
static void
add_chunk_once(struct add_run *run, struct chunk *c, enum rpl_status *out_st,
               struct rpl_error *out_err)
{
    enum rpl_status st;
    struct rpl_error err;
    size_t i;

    memset(&err, 0, sizeof(err));
    st = rpl_archive_begin(run->ar, &err);
    i = 0;
    while (st == RPL_OK && i < c->n) {
        size_t j, k = 0, done = 0;

        if (!c->log[i]) {
            i++;
            continue;
        }
        /* A run of entries in one call; a log without one fails alone,
         * as rpl_archive_add() would have. */
        while (k < ADD_RUN && i + k < c->n && c->log[i + k] &&
               c->job[i + k]->entry) {
            c->entry[k] = c->job[i + k]->entry;
            k++;
        }
        if (k > 0) {
            st = rpl_archive_add_entries(run->ar, c->entry, k, &c->what[i],
                                         &done, &err);
        } else {
            st = c->job[i]->entry_st;
            err = c->job[i]->entry_err;
        }
        for (j = i; j < i + done; j++) {
            rpl_archive_entry_free(c->job[j]->entry);
            c->job[j]->entry = NULL;
        }
        i += done;
        if (st != RPL_OK && rpl_status_is_invalid_input(st)) {
            run->rc = cli_worst(run->rc, cli_file_error(c->file[i], st, &err));
            refuse(run, c->file[i], st, &err);
            rpl_archive_entry_free(c->job[i]->entry);
            c->job[i]->entry = NULL;
            rpl_log_free(c->log[i]);
            c->log[i] = NULL;
            st = RPL_OK;
            i++;
        }
    }
    if (st == RPL_OK) {
        st = rpl_archive_commit(run->ar, &err);
    } else {
        struct rpl_error ignored;

        if (rpl_archive_rollback(run->ar, &ignored) != RPL_OK) {
            /* The database has rolled back already. */
        }
    }
    *out_st = st;
    *out_err = err;
}

static int
run_add(const struct args *a, struct rpl_ctx *ctx)
{
    struct add_run run;
    struct rpl_pubkey pin;
    struct cli_progress prog;
    struct cli_pool *pool = NULL;
    struct archive_tlog *tlog = NULL;
    struct chunk *c;
    const size_t jobs = a->has_jobs ? a->jobs : cli_jobs_default();
    const size_t n = (size_t)a->nrest;
    size_t i;
    int rc;

    memset(&run, 0, sizeof(run));
    run.a = a;
    run.ctx = ctx;
    if (a->pubkey) {
        rc = cli_load_pubkey(a->pubkey, &pin);
        if (rc != CLI_EXIT_OK) {
            return rc;
        }
        run.pin = &pin;
    }
    c = calloc(1, sizeof(*c));
    if (!c) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    rc = open_archive(ctx, a->where, a->db, RPL_ARCHIVE_CREATE, true, &run.ar);
    if (rc != CLI_EXIT_OK) {
        free(c);
        return rc;
    }
    /* Workers read and verify the next chunk while this thread, the
     * only writer, stores the current one: a window of two chunks. */
    rc = cli_pool_start(&pool, n, jobs, jobs > 1 ? 2 * ADD_CHUNK : ADD_CHUNK,
                        sizeof(struct add_job), add_read, &run);
    if (rc != CLI_EXIT_OK) {
        rpl_archive_close(run.ar);
        free(c);
        return rc;
    }
    if (a->tlog) {
        rc = archive_tlog_open(ctx, a->tlog, run.pin, &tlog);
        if (rc != CLI_EXIT_OK) {
            cli_pool_free(pool);
            rpl_archive_close(run.ar);
            free(c);
            return rc;
        }
    }
    cli_progress_start(&prog, "files", n, a->is_quiet);
    for (i = 0; i < n; i++) {
        int job_rc;
        struct add_job *job = cli_pool_wait(pool, i, false, &job_rc);

        run.rc = cli_worst(run.rc, job_rc);
        /* With a public log, a game whose start or end it lacks is
         * refused like a file that does not verify. */
        if (tlog && job->log) {
            job_rc = archive_tlog_check(tlog, job->log, a->rest[i]);
            if (job_rc != CLI_EXIT_OK) {
                struct rpl_error terr;

                memset(&terr, 0, sizeof(terr));
                terr.code = RPL_E_FAIRNESS;
                snprintf(terr.msg, sizeof(terr.msg), "not in the public log %s",
                         a->tlog);
                run.rc = cli_worst(run.rc, job_rc);
                if (a->is_json) {
                    run.rc =
                        cli_worst(run.rc, add_json(a->rest[i], NULL, "refused",
                                                   RPL_E_FAIRNESS, &terr));
                }
                rpl_archive_entry_free(job->entry);
                job->entry = NULL;
                rpl_log_free(job->log);
                job->log = NULL;
            }
        }
        if (!job->log) {
            run.refused++;
        }
        c->file[c->n] = a->rest[i];
        c->log[c->n] = job->log;
        c->job[c->n] = job;
        c->id[c->n] = job->id;
        job->log = NULL;
        c->n++;
        /* A chunk as long as what remains after it is stored at once:
         * the last chunks halve, so that with threads the others have
         * files to verify while this one stores, but for the last few.
         * The chunks do not depend on -j, nor does the output. */
        if (c->n == ADD_CHUNK || i + 1 == n ||
            (c->n >= ADD_TAIL && c->n >= n - i - 1)) {
            add_chunk(&run, c);
            while (c->n > 0) {
                c->n--;
                rpl_archive_entry_free(c->job[c->n]->entry);
                c->job[c->n]->entry = NULL;
                rpl_log_free(c->log[c->n]);
                c->log[c->n] = NULL;
            }
            cli_pool_release(pool, i + 1);
        }
        cli_progress_update(&prog, i + 1);
    }
    cli_progress_end(&prog);
    cli_pool_free(pool);
    archive_tlog_free(tlog);
    rpl_archive_close(run.ar);
    free(c);
    if (!a->is_json) {
        printf("%s: %zu added, %zu replaced, %zu already present, %zu "
               "superseded, %zu refused\n",
               a->db, run.count[RPL_ARCHIVE_ADDED],
               run.count[RPL_ARCHIVE_REPLACED], run.count[RPL_ARCHIVE_PRESENT],
               run.count[RPL_ARCHIVE_SUPERSEDED], run.refused);
    }
    return run.rc;
}

/* -------------------------------------------------------------- query */

/* The facts of g in group as one object, or null when g has none. */
static json_t *
facts_json(const struct rpl_archive_game *g, const char *group)
{
    json_t *o = NULL;

    for (size_t i = 0; i < g->nfacts; i++) {
        const struct rpl_archive_fact *f = &g->facts[i];

        if (strcmp(f->group, group) != 0) {
            continue;
        }
        if (!o && !(o = json_object())) {
            return NULL;
        }
        if (!cli_json_set(o, f->name, json_integer((json_int_t)f->value))) {
            json_decref(o);
            return NULL;
        }
    }
    return o ? o : json_null();
}

static json_t *
game_json(const struct rpl_archive_game *g)
{
    json_t *o = json_object();
    json_t *seats = json_array();
    json_t *quests = json_array();
    bool ok = o && seats && quests;
    size_t i;

    for (i = 0; ok && i < g->players; i++) {
        const struct rpl_archive_seat *s = &g->seats[i];
        json_t *e = json_object();

        ok &= cli_json_set(e, "seat", cli_json_size(i + 1));
        ok &= cli_json_set(e, "name", cli_json_str(s->name));
        ok &= cli_json_set(e, "key", str_or_null(s->key));
        ok &= cli_json_set(e, "role", str_or_null(s->role));
        ok &= cli_json_set(e, "side", str_or_null(s->side));
        ok &= json_array_append_new(seats, e) == 0;
    }
    for (i = 0; ok && i < g->nquests; i++) {
        const struct rpl_archive_quest *q = &g->quests[i];
        json_t *e = json_object();

        ok &= cli_json_set(e, "round", cli_json_size(q->round));
        ok &= cli_json_set(e, "slot", cli_json_size(q->slot));
        ok &= cli_json_set(e, "leader", cli_json_size(q->leader));
        ok &= cli_json_set(e, "team", str_or_null(q->team));
        ok &= cli_json_set(e, "result", str_or_null(q->result));
        ok &= cli_json_set(e, "fails", cli_json_size(q->fails));
        ok &= cli_json_set(e, "failed", str_or_null(q->failed));
        ok &= json_array_append_new(quests, e) == 0;
    }
    ok &= cli_json_set(o, "id", cli_json_str(g->id));
    ok &= cli_json_set(o, "game", cli_json_str(g->game));
    ok &= cli_json_set(o, "seal", cli_json_str(g->seal));
    ok &= cli_json_set(o, "created", str_or_null(g->created));
    ok &= cli_json_set(o, "rules", cli_json_str(g->rules));
    ok &= cli_json_set(o, "variants",
                       cli_json_list(g->variants ? g->variants : ""));
    ok &= cli_json_set(o, "dealer", cli_json_str(g->dealer));
    ok &= cli_json_set(o, "players", cli_json_size(g->players));
    ok &= cli_json_set(o, "progress",
                       json_string(rpl_progress_name(g->progress)));
    ok &= cli_json_set(o, "imported", json_boolean(g->is_imported));
    ok &= cli_json_set(o, "source", str_or_null(g->source));
    ok &= cli_json_set(o, "source_id", str_or_null(g->source_id));
    ok &= cli_json_set(o, "winner", str_or_null(g->winner));
    ok &= cli_json_set(o, "reason", str_or_null(g->reason));
    ok &= cli_json_set(o, "proposals", cli_json_size(g->proposals));
    ok &= cli_json_set(o, "lines", cli_json_size(g->lines));
    ok &= cli_json_set(o, "seats", json_incref(seats));
    ok &= cli_json_set(o, "quests", json_incref(quests));
    /* The game's own facts: a member per group of every game. */
    for (i = 0; ok && rpl_archive_fact_group(i); i++) {
        const char *group = rpl_archive_fact_group(i);

        ok &= cli_json_set(o, group, facts_json(g, group));
    }
    json_decref(seats);
    json_decref(quests);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

struct query_run {
    bool is_json;
    size_t n;
    size_t limit; /* 0: every game */
    int rc;
};

static bool
print_game(void *ud, const struct rpl_archive_game *g)
{
    struct query_run *run = ud;
    size_t i;

    if (run->limit > 0 && run->n == run->limit) {
        return false;
    }
    run->n++;
    if (run->is_json) {
        json_t *o = game_json(g);

        if (!o) {
            cli_msg("out of memory");
            run->rc = CLI_EXIT_USAGE;
            return false;
        }
        run->rc = cli_worst(run->rc, cli_json_print(o));
        json_decref(o);
        return run->rc == CLI_EXIT_OK;
    }
    /* Every text of the archive escaped: it may come from anyone. */
    cli_put_text_escaped(stdout, g->id);
    putchar(' ');
    cli_put_text_escaped(stdout,
                         g->created ? g->created : "-                   ");
    putchar(' ');
    cli_put_text_escaped(stdout, g->game);
    printf(" %zup ", g->players);
    if (!g->winner) {
        fputs("in-progress", stdout);
    } else if (strcmp(g->winner, "aborted") == 0) {
        fputs("aborted", stdout);
    } else {
        cli_put_text_escaped(stdout, g->winner);
        putchar(':');
        cli_put_text_escaped(stdout, g->reason ? g->reason : "");
    }
    for (i = 0; i < g->players; i++) {
        const struct rpl_archive_seat *s = &g->seats[i];

        putchar(' ');
        cli_put_text_escaped(stdout, s->name);
        if (s->role) {
            putchar('=');
            cli_put_text_escaped(stdout, s->role);
        }
    }
    putchar('\n');
    return !ferror(stdout);
}

static int
run_query(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_archive *ar = NULL;
    struct query_run run = {a->is_json, 0, a->limit, CLI_EXIT_OK};
    struct rpl_error err;
    enum rpl_status st;
    int rc;

    rc = open_archive(ctx, a->where, a->db, RPL_ARCHIVE_READ, true, &ar);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    st = rpl_archive_query(ar, &a->filter, print_game, &run, &err);
    if (st != RPL_OK) {
        run.rc = cli_worst(run.rc, filter_error(a->db, st, &err));
    }
    rpl_archive_close(ar);
    return run.rc;
}

/* ---------------------------------------------------------------- sql */

struct sql_run {
    bool is_json;
    bool has_header;
    int rc;
};

static json_t *
sql_value(const char *v, enum rpl_sql_type t)
{
    switch (t) {
    case RPL_SQL_NULL:
        return json_null();
    case RPL_SQL_INTEGER:
        return json_integer((json_int_t)strtoll(v, NULL, 10));
    case RPL_SQL_REAL:
        return json_real(strtod(v, NULL));
    case RPL_SQL_TEXT:
    case RPL_SQL_BLOB:
        return cli_json_str(v);
    }
    return json_null();
}

static bool
print_row(void *ud, size_t ncols, const char *const *names,
          const char *const *values, const enum rpl_sql_type *types)
{
    struct sql_run *run = ud;
    size_t i;

    if (run->is_json) {
        json_t *o = json_object();
        bool ok = o;

        for (i = 0; ok && i < ncols; i++) {
            ok &= cli_json_set(o, names[i], sql_value(values[i], types[i]));
        }
        if (!ok) {
            json_decref(o);
            cli_msg("out of memory");
            run->rc = CLI_EXIT_USAGE;
            return false;
        }
        run->rc = cli_worst(run->rc, cli_json_print(o));
        json_decref(o);
        return run->rc == CLI_EXIT_OK;
    }
    if (!run->has_header) {
        for (i = 0; i < ncols; i++) {
            fputs(i ? "\t" : "", stdout);
            cli_put_text_escaped(stdout, names[i]);
        }
        putchar('\n');
        run->has_header = true;
    }
    /* A tab or a newline in a value is escaped too: one row a line. */
    for (i = 0; i < ncols; i++) {
        fputs(i ? "\t" : "", stdout);
        cli_put_text_escaped(stdout, values[i] ? values[i] : "");
    }
    putchar('\n');
    return !ferror(stdout);
}

static int
run_sql(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_archive *ar = NULL;
    struct sql_run run = {a->is_json, false, CLI_EXIT_OK};
    struct rpl_error err;
    enum rpl_status st;
    int rc;

    rc = open_archive(ctx, a->where, a->db, RPL_ARCHIVE_READ, true, &ar);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    st = rpl_archive_sql(ar, a->rest[0], print_row, &run, &err);
    if (st != RPL_OK) {
        run.rc = cli_worst(run.rc, cli_file_error(a->db, st, &err));
    }
    rpl_archive_close(ar);
    return run.rc;
}

/* -------------------------------------------------------------- stats */

/* The statistics in one form: the library writes every game's section. */
static int
stats_as(const struct args *a, struct rpl_archive *ar,
         enum rpl_archive_format format, char **out)
{
    struct rpl_error err;
    const enum rpl_status st =
        rpl_archive_stats_as(ar, &a->filter, format, out, &err);

    if (st != RPL_OK) {
        return filter_error(a->db, st, &err);
    }
    return CLI_EXIT_OK;
}

/* --svg replaces the file, as it always has, but never through a link. */
static int
save_svg(const char *path, const char *svg)
{
    return cli_write_file(path, svg, strlen(svg), 0644, true);
}

static int
run_stats(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_archive *ar = NULL;
    char *svg = NULL, *text = NULL;
    int rc;

    rc = open_archive(ctx, a->where, a->db, RPL_ARCHIVE_READ, true, &ar);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (a->svg) {
        rc = stats_as(a, ar, RPL_ARCHIVE_SVG, &svg);
    }
    if (rc == CLI_EXIT_OK && (!a->svg || strcmp(a->svg, "-") != 0)) {
        /* JSON as the library writes it: its rates keep four places. */
        rc = stats_as(a, ar, a->is_json ? RPL_ARCHIVE_JSON : RPL_ARCHIVE_TEXT,
                      &text);
    }
    rpl_archive_close(ar);
    if (rc == CLI_EXIT_OK && svg) {
        rc = save_svg(a->svg, svg);
    }
    if (text) {
        fputs(text, stdout);
        if (a->is_json) {
            putchar('\n');
        }
    }
    rpl_free(ctx, svg);
    rpl_free(ctx, text);
    return rc;
}

/* ------------------------------------------------------------- export */

struct stored {
    char id[33];
    char seal[65];
};

struct export_list {
    struct stored *v;
    size_t n, cap;
    bool failed;
};

static bool
collect_stored(void *ud, const struct rpl_archive_game *g)
{
    struct export_list *l = ud;

    if (l->n == l->cap) {
        const size_t cap = l->cap ? 2 * l->cap : 256;
        struct stored *v = realloc(l->v, cap * sizeof(*v));

        if (!v) {
            l->failed = true;
            return false;
        }
        l->v = v;
        l->cap = cap;
    }
    snprintf(l->v[l->n].id, sizeof(l->v[l->n].id), "%s", g->id);
    snprintf(l->v[l->n].seal, sizeof(l->v[l->n].seal), "%s", g->seal);
    l->n++;
    return true;
}

static int
cmp_stored(const void *a, const void *b)
{
    const struct stored *x = a, *y = b;
    const int c = strcmp(x->id, y->id);

    return c != 0 ? c : strcmp(x->seal, y->seal);
}

/* Whether the archive holds game id (l sorted by id). */
static bool
has_stored(void *ud, const char *id)
{
    const struct export_list *l = ud;
    size_t lo = 0, hi = l->n;

    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = strcmp(l->v[mid].id, id);

        if (c == 0) {
            return true;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return false;
}

/* audit --tlog: the abandonment report of the public log, and which of
 * its ended games the archive holds. */
static int
tlog_report(const struct args *a, struct rpl_ctx *ctx, struct export_list *l)
{
    struct archive_tlog *x = NULL;
    int rc;

    if (l->failed) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    if (l->n > 0) {
        qsort(l->v, l->n, sizeof(*l->v), cmp_stored);
    }
    rc = archive_tlog_open(ctx, a->tlog, NULL, &x);
    if (rc == CLI_EXIT_OK) {
        rc = archive_tlog_report(x, a->is_json, has_stored, l);
    }
    archive_tlog_free(x);
    return rc;
}

/* -------------------------------------------------------------- audit */

/* The deal audit: the library tests and writes; a flagged test is exit
 * status 1, as an input found invalid. */
static int
run_audit(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_archive *ar = NULL;
    struct rpl_archive_filter no_filter;
    struct export_list stored = {NULL, 0, 0, false};
    struct rpl_error err;
    char *out = NULL;
    bool is_flagged = false;
    enum rpl_status st;
    int rc;

    memset(&no_filter, 0, sizeof(no_filter));
    rc = open_archive(ctx, a->where, a->db, RPL_ARCHIVE_READ, true, &ar);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    st = rpl_archive_audit(ar, &a->filter,
                           a->is_json ? RPL_ARCHIVE_JSON : RPL_ARCHIVE_TEXT,
                           &out, &is_flagged, &err);
    if (st == RPL_OK && a->tlog) {
        st = rpl_archive_query(ar, &no_filter, collect_stored, &stored, &err);
    }
    rpl_archive_close(ar);
    if (st != RPL_OK) {
        rpl_free(ctx, out);
        free(stored.v);
        return filter_error(a->db, st, &err);
    }
    fputs(out, stdout);
    if (a->is_json) {
        putchar('\n');
    }
    rpl_free(ctx, out);
    rc = is_flagged ? CLI_EXIT_INVALID : CLI_EXIT_OK;
    if (a->tlog) {
        rc = cli_worst(rc, tlog_report(a, ctx, &stored));
    }
    free(stored.v);
    return rc;
}

static int
run_export(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_archive *ar = NULL;
    struct export_list list = {NULL, 0, 0, false};
    struct rpl_error err;
    enum rpl_status st;
    size_t i, written = 0;
    int rc;

    if (mkdir(a->outdir, 0777) != 0 && errno != EEXIST) {
        cli_file_msg(a->outdir, 0, "cannot make the directory: %s",
                     strerror(errno));
        return CLI_EXIT_USAGE;
    }
    rc = open_archive(ctx, a->where, a->db, RPL_ARCHIVE_READ, true, &ar);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    st = rpl_archive_query(ar, &a->filter, collect_stored, &list, &err);
    if (st != RPL_OK) {
        rc = filter_error(a->db, st, &err);
    } else if (list.failed) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
    }
    /* Files are named by game id; a game stored twice (two different
     * final seals) gets the first 16 digits of each seal hash too. */
    if (list.n > 0) {
        qsort(list.v, list.n, sizeof(*list.v), cmp_stored);
    }
    for (i = 0; st == RPL_OK && !list.failed && i < list.n; i++) {
        const bool twice =
            (i > 0 && strcmp(list.v[i - 1].id, list.v[i].id) == 0) ||
            (i + 1 < list.n && strcmp(list.v[i + 1].id, list.v[i].id) == 0);
        char path[4096];
        int n;

        if (twice) {
            n = snprintf(path, sizeof(path), "%s/%s-%.16s.camelog", a->outdir,
                         list.v[i].id, list.v[i].seal);
        } else {
            n = snprintf(path, sizeof(path), "%s/%s.camelog", a->outdir,
                         list.v[i].id);
        }
        if (n < 0 || (size_t)n >= sizeof(path)) {
            cli_file_msg(a->outdir, 0, "directory name too long");
            rc = CLI_EXIT_USAGE;
            break;
        }
        /* Carry on past a file that cannot be written. */
        if (rpl_archive_export(ar, list.v[i].id, list.v[i].seal, path,
                               a->is_force, &err) != RPL_OK) {
            rc = cli_worst(rc, cli_file_error(path, err.code, &err));
            continue;
        }
        written++;
    }
    rpl_archive_close(ar);
    free(list.v);
    printf("%s: %zu %s written to %s\n", a->db, written,
           written == 1 ? "log" : "logs", a->outdir);
    return rc;
}

/* -------------------------------------------------------------- check */

struct check_run {
    const struct args *a;
    json_t *problems;
    size_t n;
};

static void
report_problem(void *ud, const char *id, const struct rpl_error *e)
{
    struct check_run *run = ud;

    run->n++;
    if (id) {
        if (e->line > 0) {
            cli_file_msg(run->a->db, 0, "game %s: line %zu: %s", id, e->line,
                         e->msg);
        } else {
            cli_file_msg(run->a->db, 0, "game %s: %s", id, e->msg);
        }
    } else {
        cli_file_msg(run->a->db, 0, "%s", e->msg);
    }
    if (run->problems) {
        json_t *o = json_object();

        cli_json_set(o, "id", str_or_null(id));
        cli_json_set(o, "line",
                     e->line > 0 ? cli_json_size(e->line) : json_null());
        cli_json_set(o, "code", json_string(rpl_status_name(e->code)));
        cli_json_set(o, "error", cli_json_str(e->msg));
        json_array_append_new(run->problems, o);
    }
}

static int
run_check(const struct args *a, struct rpl_ctx *ctx)
{
    struct rpl_archive *ar = NULL;
    struct check_run run = {a, NULL, 0};
    struct rpl_error err;
    enum rpl_status st;
    size_t games = 0;
    int rc;

    rc = open_archive(ctx, a->where, a->db, RPL_ARCHIVE_READ, false, &ar);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (a->is_json) {
        run.problems = json_array();
    }
    st = rpl_archive_check(ar, report_problem, &run, &games, &err);
    rpl_archive_close(ar);
    if (st != RPL_OK && run.n == 0) {
        /* The check itself could not run. */
        json_decref(run.problems);
        return cli_file_error(a->db, st, &err);
    }
    rc = run.n > 0 ? CLI_EXIT_INVALID : CLI_EXIT_OK;
    if (a->is_json) {
        json_t *o = json_object();
        bool ok = true;

        ok &= cli_json_set(o, "archive", cli_json_str(a->db));
        ok &= cli_json_set(o, "ok", json_boolean(run.n == 0));
        ok &= cli_json_set(o, "games", cli_json_size(games));
        ok &= cli_json_set(o, "problems", json_incref(run.problems));
        rc = cli_worst(rc, ok ? cli_json_print(o) : CLI_EXIT_USAGE);
        json_decref(o);
        json_decref(run.problems);
    } else if (run.n == 0) {
        printf("%s: ok (%zu %s)\n", a->db, games,
               games == 1 ? "game" : "games");
    } else {
        printf("%s: FAILED (%zu %s in %zu %s)\n", a->db, run.n,
               run.n == 1 ? "problem" : "problems", games,
               games == 1 ? "game" : "games");
    }
    return rc;
}

/* --------------------------------------------------------------- main */

int
cmd_archive(int argc, char **argv)
{
    struct args a;
    struct rpl_ctx *ctx = NULL;
    bool help = false;
    int rc;

    memset(&a, 0, sizeof(a));
    rc = parse_args(argc, argv, &a, &help);
    if (help) {
        return cli_help(usage, options);
    }
    if (rc == CLI_EXIT_OK) {
        rc = check_args(&a);
    }
    if (rc == CLI_EXIT_OK) {
        rc = check_filter(&a);
    }
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (a.sub == SUB_STATS && !a.has_top) {
        a.filter.records_top = STATS_TOP;
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    switch (a.sub) {
    case SUB_ADD:
        rc = run_add(&a, ctx);
        break;
    case SUB_QUERY:
        rc = run_query(&a, ctx);
        break;
    case SUB_SQL:
        rc = run_sql(&a, ctx);
        break;
    case SUB_STATS:
        rc = run_stats(&a, ctx);
        break;
    case SUB_AUDIT:
        rc = run_audit(&a, ctx);
        break;
    case SUB_EXPORT:
        rc = run_export(&a, ctx);
        break;
    case SUB_CHECK:
        rc = run_check(&a, ctx);
        break;
    case SUB_REPORT:
        rc = html_report(ctx, a.db, &a.filter, a.outdir, a.is_force);
        break;
    }
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
