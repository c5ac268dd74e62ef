/*
 * cmd_import.c - camelog import: games recorded by other systems become
 * .camelog files that replay with our engine.  The library does the
 * import (rpl_import_file(): it reads the record, checks it against the
 * official rules with the game's engine, records, seals and verifies
 * the log); this command loops over the files, writes each log as
 * <original id>.camelog in the output directory and tells what became
 * of every record (camelog-import(1)).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <jansson.h>
#include <sodium.h>

#include "cli.h"
#include "replay.h"

int cmd_import(int argc, char **argv);

static const char usage[] =
    "usage: camelog import --from avalongame [--seed hex] [--force] [-q]\n"
    "                      [--json] [-j n] --key importer.key -o dir file "
    "...\n";

static const char options[] =
    "options:\n"
    "  --from avalongame    the records are avalongame.online game logs\n"
    "                       (JSON)\n"
    "  --seed hex           derive each game's dealer secret from this seed\n"
    "                       (default: random): same seed, same files\n"
    "  -f, --force          overwrite existing files\n"
    "  -q, --quiet          no progress and no summary\n"
    "  --json               one JSON object per record on standard output\n"
    "  -j, --jobs n         import n records at a time (default: the cores\n"
    "                       online)\n"
    "  -k, --key file       the importer's secret key, which seals the logs\n"
    "  -o, --output dir     where the logs go (created if needed)\n"
    "  -h, --help           this help\n";

struct options {
    const char *format;
    const char *dir;
    bool force;
    bool quiet;
    bool json;
    struct rpl_import_opts lib;
};

/* What one record gave. */
struct result {
    enum rpl_status status; /* RPL_OK when imported and written */
    size_t category;        /* of the refusal, 0 when imported */
    char reason[RPL_IMPORT_REASON_MAX + 300];
    const char *field; /* lent by rep, "" for none */
    char *output;      /* malloc()ed path of the written log, or NULL */
    json_t *warnings;  /* with --json: the rule warnings of the log */
};

/* The warnings of a verified log ("W-3: ..."), as a JSON array; NULL
 * when out of memory. */
static json_t *
warnings_json(const struct rpl_log *log, const struct rpl_report *rep)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; arr && i < rep->warnings; i++) {
        size_t line = 0;
        const char *w = rpl_log_warning(log, i, &line);

        if (w && json_array_append_new(arr, cli_json_str(w)) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    return arr;
}

/* A failure of this command (the output), as a category of the format. */
static void
fail(const struct options *o, struct result *res, enum rpl_status st,
     const char *key, const char *path, const struct rpl_error *err)
{
    res->status = st;
    res->category = rpl_import_category_find(o->format, key);
    snprintf(res->reason, sizeof(res->reason), "%s: %s%s", path,
             cli_error_text(st, err),
             st == RPL_E_EXISTS ? "; --force overwrites it" : "");
}

/* A job of the pool: one record imported (in any thread); the log
 * waits in the slot for the main thread to write it. */
struct import_job {
    struct rpl_import_report rep;
    struct result res;
    struct rpl_log *log; /* NULL when the import failed */
};

struct import_run {
    const struct options *o;
    char **files;
};

static int
import_record(void *ud, struct rpl_ctx *ctx, size_t index, void *data)
{
    const struct import_run *run = ud;
    struct import_job *job = data;
    struct rpl_import_report *rep = &job->rep;
    struct result *res = &job->res;
    struct rpl_error err;
    enum rpl_status st;

    res->field = rep->field;
    st = rpl_import_file(ctx, run->o->format, run->files[index], &run->o->lib,
                         &job->log, rep, &err);
    if (st != RPL_OK) {
        job->log = NULL;
        res->status = st;
        res->category = rep->category;
        snprintf(res->reason, sizeof(res->reason), "%s",
                 rep->reason[0] != '\0' ? rep->reason
                                        : cli_error_text(st, &err));
    }
    return CLI_EXIT_OK;
}

/* In the main thread, in input order (so that of two records of one
 * name the first is written): the log of job as <name>.camelog. */
static void
write_one(const struct options *o, struct import_job *job)
{
    struct rpl_import_report *rep = &job->rep;
    struct result *res = &job->res;
    struct rpl_log *log = job->log;
    struct rpl_error err;
    enum rpl_status st;
    size_t n;

    if (!log) {
        return;
    }
    n = strlen(o->dir) + strlen(rep->name) + 16;
    res->output = malloc(n);
    if (!res->output) {
        res->status = RPL_E_NOMEM;
        res->category = rpl_import_category_find(o->format, "internal");
        snprintf(res->reason, sizeof(res->reason), "out of memory");
        goto out;
    }
    snprintf(res->output, n, "%s/%s.camelog", o->dir, rep->name);
    /* The directory is synced once, after the last record (main). */
    st = rpl_log_write_deferred(log, res->output, o->force, &err);
    if (st != RPL_OK) {
        fail(o, res, st, st == RPL_E_EXISTS ? "exists" : "write", res->output,
             &err);
        free(res->output);
        res->output = NULL;
        goto out;
    }
    if (o->json) {
        res->warnings = warnings_json(log, &rep->log);
    }
out:
    rpl_log_free(log);
    job->log = NULL;
}

/* ------------------------------------------------------------- output */

static int
print_json(const struct options *o, const char *file,
           const struct rpl_import_report *rep, const struct result *res)
{
    json_t *obj = json_object();
    const bool ok = res->status == RPL_OK;
    const struct rpl_import_category *cat =
        rpl_import_category(o->format, res->category);
    bool built = obj;
    int rc;

    built = built && cli_json_set(obj, "file", cli_json_str(file));
    built = built && cli_json_set(obj, "imported", json_boolean(ok));
    built = built && cli_json_set(obj, "output",
                                  ok ? cli_json_str(res->output) : json_null());
    built = built && cli_json_set(obj, "id",
                                  ok ? json_string(rep->log.id) : json_null());
    built =
        built && cli_json_set(obj, "winner",
                              ok ? json_string(rep->log.winner) : json_null());
    built =
        built && cli_json_set(obj, "end",
                              ok ? json_string(rep->log.reason) : json_null());
    built =
        built && cli_json_set(obj, "warnings",
                              ok ? json_incref(res->warnings) : json_array());
    built =
        built && cli_json_set(obj, "variants",
                              ok ? cli_json_list(rep->variants) : json_null());
    built =
        built && cli_json_set(obj, "category",
                              ok || !cat ? json_null() : json_string(cat->key));
    built = built && cli_json_set(obj, "reason",
                                  ok ? json_null() : cli_json_str(res->reason));
    built = built && cli_json_set(obj, "path",
                                  ok || res->field[0] == '\0'
                                      ? json_null()
                                      : cli_json_str(res->field));
    if (!built) {
        json_decref(obj);
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    rc = cli_json_print(obj);
    json_decref(obj);
    return rc;
}

static void
print_summary(const struct options *o, size_t imported, size_t total,
              const size_t *counts, size_t ncounts)
{
    size_t c, refused = total - imported;

    if (refused == 0) {
        cli_msg("imported %zu of %zu game%s", imported, total,
                total == 1 ? "" : "s");
        return;
    }
    cli_msg("imported %zu of %zu game%s; refused %zu:", imported, total,
            total == 1 ? "" : "s", refused);
    for (c = 1; c < ncounts; c++) {
        if (counts[c] > 0) {
            cli_msg("  %zu %s", counts[c],
                    rpl_import_category(o->format, c)->text);
        }
    }
    /* Failures the format has no category for (unknown options). */
    if (counts[0] > 0) {
        cli_msg("  %zu other failure%s", counts[0], counts[0] == 1 ? "" : "s");
    }
}

static int
make_dir(const char *dir)
{
    struct stat sb;

    if (mkdir(dir, 0777) == 0) {
        return CLI_EXIT_OK;
    }
    if (errno == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        return CLI_EXIT_OK;
    }
    cli_file_msg(dir, 0, "%s",
                 errno == EEXIST ? "not a directory" : strerror(errno));
    return CLI_EXIT_USAGE;
}

enum { OPT_FROM = 256, OPT_SEED, OPT_JSON };

int
cmd_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"from", required_argument, NULL, OPT_FROM},
        {"seed", required_argument, NULL, OPT_SEED},
        {"json", no_argument, NULL, OPT_JSON},
        {"force", no_argument, NULL, 'f'},
        {"quiet", no_argument, NULL, 'q'},
        {"jobs", required_argument, NULL, 'j'},
        {"key", required_argument, NULL, 'k'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct options o;
    const char *from = NULL, *seed = NULL, *keyfile = NULL;
    uint8_t seed_bytes[64];
    size_t seed_len = 0, *counts = NULL, ncounts = 1, imported = 0, i, nfiles;
    size_t jobs = cli_jobs_default();
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *key = NULL;
    struct cli_pool *pool = NULL;
    struct import_run run;
    struct cli_progress prog;
    struct rpl_error err;
    enum rpl_status st;
    int c, rc;

    memset(&o, 0, sizeof(o));
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":fqj:k:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_FROM:
            from = optarg;
            break;
        case OPT_SEED:
            seed = optarg;
            break;
        case OPT_JSON:
            o.json = true;
            break;
        case 'f':
            o.force = true;
            break;
        case 'q':
            o.quiet = true;
            break;
        case 'j':
            if (cli_parse_jobs("import", optarg, &jobs) != CLI_EXIT_OK) {
                return CLI_EXIT_USAGE;
            }
            break;
        case 'k':
            keyfile = optarg;
            break;
        case 'o':
            o.dir = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("import", c, argv);
        }
    }
    if (!from) {
        return cli_usage_error("import", "no source (--from avalongame)");
    }
    if (!rpl_import_has_format(from)) {
        return cli_usage_error("import",
                               "unknown source '%s' (--from avalongame)", from);
    }
    if (!keyfile) {
        return cli_usage_error("import", "no importer key (--key)");
    }
    if (!o.dir) {
        return cli_usage_error("import", "no output directory (-o)");
    }
    if (optind >= argc) {
        return cli_usage_error("import", "no record to import");
    }
    for (i = (size_t)optind; i < (size_t)argc; i++) {
        if (strcmp(argv[i], "-") == 0) {
            return cli_usage_error("import",
                                   "records are read from files: the file "
                                   "name is the game's original id");
        }
    }
    if (seed &&
        !cli_parse_hex(seed, seed_bytes, sizeof(seed_bytes), &seed_len)) {
        return cli_usage_error("import", "--seed needs 2 to 128 hex digits (an "
                                         "even number)");
    }
    if (seed) {
        o.lib.seed = seed_bytes;
        o.lib.seed_len = seed_len;
    }
    o.format = from;
    while (rpl_import_category(from, ncounts)) {
        ncounts++;
    }
    counts = calloc(ncounts, sizeof(*counts));
    if (!counts) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    st = rpl_seckey_load(ctx, &key, keyfile, &err);
    if (st != RPL_OK) {
        rc = cli_worst(CLI_EXIT_USAGE, cli_file_error(keyfile, st, &err));
        goto out;
    }
    o.lib.dealer = key;
    rc = make_dir(o.dir);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    nfiles = (size_t)(argc - optind);
    run.o = &o;
    run.files = argv + optind;
    rc = cli_pool_start(&pool, nfiles, jobs, 4 * jobs,
                        sizeof(struct import_job), import_record, &run);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    cli_progress_start(&prog, "records", nfiles, o.quiet);
    for (i = 0; i < nfiles; i++) {
        const char *file = run.files[i];
        int job_rc;
        struct import_job *job = cli_pool_wait(pool, i, false, &job_rc);
        struct rpl_import_report *rep = &job->rep;
        struct result *res = &job->res;

        (void)job_rc; /* a record's status is in res */
        write_one(&o, job);
        if (res->status == RPL_OK) {
            imported++;
        } else {
            counts[res->category < ncounts ? res->category : 0]++;
            cli_file_msg(file, 0, "%s", res->reason);
            rc = cli_worst(rc, cli_exit_status(res->status));
        }
        if (o.json) {
            rc = cli_worst(rc, print_json(&o, file, rep, res));
        } else if (res->status == RPL_OK) {
            printf("%s: %s %s\n", res->output, rep->log.winner,
                   rep->log.reason);
        }
        free(res->output);
        json_decref(res->warnings);
        cli_pool_release(pool, i + 1);
        cli_progress_update(&prog, i + 1);
    }
    cli_progress_end(&prog);
    cli_pool_free(pool);
    if (imported > 0) {
        st = rpl_dir_sync(o.dir, &err);
        if (st != RPL_OK) {
            rc = cli_worst(rc, cli_file_error(o.dir, st, &err));
        }
    }
    if (!o.quiet) {
        print_summary(&o, imported, nfiles, counts, ncounts);
    }
    rc = cli_finish(rc);
out:
    free(counts);
    rpl_seckey_free(key);
    rpl_ctx_free(ctx);
    sodium_memzero(seed_bytes, sizeof(seed_bytes));
    return rc;
}
