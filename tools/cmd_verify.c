/*
 * cmd_verify.c - camelog verify: reads each file, checks its integrity
 * (chain, seals, seat signatures), legality, fairness and completeness
 * with rpl_log_verify(), and prints one line (or one JSON object) per
 * file.  Each log is freed before the next is read, so memory stays flat
 * however many files are given.
 */
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog verify [-q] [--json] [--coverage] [--pubkey key|file]\n"
    "                      [--seat-key pK=key|file ...] [--live] [-j n]\n"
    "                      [--require list] file ...\n";

static const char options[] =
    "options:\n"
    "  --pubkey key|file  pin the dealer's public key (base64 or .pub file)\n"
    "  --seat-key pK=key|file\n"
    "                     pin seat pK's public key (repeatable)\n"
    "  --live             with --pubkey, a game being played: lines after\n"
    "                     the last seal are a warning, as for camelog seat\n"
    "  --require list     a comma list of what a file must be or hold:\n"
    "                     finished (or complete), complete, reveal (a\n"
    "                     finished game must be revealed), entropy (every\n"
    "                     seat with a key took part in the seed),\n"
    "                     signatures (every line of a seat with a key is\n"
    "                     signed)\n"
    "  --json             one JSON object per file (keys in "
    "camelog-verify(1))\n"
    "  -j, --jobs n       verify n files at a time (default: the cores "
    "online)\n"
    "  --coverage         then the rule ids the valid files exercised, per "
    "game\n"
    "  -q, --quiet        no progress and no note on trusted keys\n"
    "  -h, --help         this help\n";

/* Dealer keys already noted as trusted: each is named once per run.
 * Beyond this many distinct keys, one last note covers the rest. */
#define NOTED_MAX 16

struct verify_run {
    char **files;
    const struct rpl_pubkey *pin;
    enum rpl_progress require;
    bool require_entropy;
    bool require_signatures;
    const struct rpl_pubkey *seat_pin[RPL_SEATS_MAX + 1];
    bool is_live;        /* --live: an unsealed tail is not an error */
    bool require_reveal; /* --require=reveal */
    bool is_json;
    bool is_quiet;
    char noted[NOTED_MAX][RPL_PUBKEY_B64_LEN + 1];
    size_t nnoted;
    bool is_overflow_noted;
    struct cli_coverage *cov; /* --coverage, or NULL */
};

/* What a job hands the main thread besides its output: the dealer key
 * of a log that verified, for the note on trusted keys. */
struct verify_job {
    bool has_dealer;
    struct rpl_pubkey dealer;
    /* --coverage: the ids the file exercised, added in input order by
     * the main thread. */
    bool has_cov;
    char game[32];
    uint64_t bits[RPL_COVERAGE_WORDS];
};

/* In the main thread, in input order: the first file naming a key is
 * the one that notes it. */
static void
note_trusted(struct verify_run *run, const char *file,
             const struct rpl_pubkey *pk)
{
    char key[RPL_PUBKEY_B64_LEN + 1];
    size_t i;

    if (run->pin || run->is_quiet) {
        return;
    }
    rpl_pubkey_format(pk, key);
    for (i = 0; i < run->nnoted; i++) {
        if (strcmp(run->noted[i], key) == 0) {
            return;
        }
    }
    if (run->nnoted == NOTED_MAX) {
        if (!run->is_overflow_noted) {
            run->is_overflow_noted = true;
            cli_msg("more dealer keys were trusted as named in their "
                    "files; pin them with --pubkey");
        }
        return;
    }
    memcpy(run->noted[run->nnoted++], key, sizeof(key));
    cli_file_msg(file, 0,
                 "trusted the dealer key named in the file, %s; "
                 "pin it with --pubkey",
                 key);
}

static void
print_warnings(const char *file, struct rpl_log *log,
               const struct rpl_report *rep, json_t *arr)
{
    size_t i, shown = 0;

    for (i = 0; i < rep->warnings; i++) {
        size_t line = 0;
        const char *w = rpl_log_warning(log, i, &line);
        json_t *o;

        if (!w) {
            break;
        }
        shown++;
        cli_file_warn(file, line, "%s", w);
        if (!arr) {
            continue;
        }
        o = json_object();
        cli_json_set(o, "line", cli_json_size(line));
        cli_json_set(o, "text", cli_json_str(w));
        json_array_append_new(arr, o);
    }
    if (shown < rep->warnings) {
        cli_file_warn(file, 0, "%zu more warnings not shown",
                      rep->warnings - shown);
    }
}

/* A warning verify adds of its own (line 0): printed, and kept in arr
 * for --json when arr is not NULL. */
static void
file_warning(const char *file, json_t *arr, const char *w)
{
    json_t *o;

    cli_file_warn(file, 0, "%s", w);
    if (!arr) {
        return;
    }
    o = json_object();
    cli_json_set(o, "line", cli_json_size(0));
    cli_json_set(o, "text", cli_json_str(w));
    json_array_append_new(arr, o);
}

/* A log whose seed no seat contributed to: the dealer alone chose it,
 * so the deal is only as fair as the dealer. */
static const char seed_warning[] = "W-seed: no seat contributed entropy; the "
                                   "dealer alone chose the seed";

/* A format 1 log: the guarantees of format 2 it lacks, in one warning. */
static const char v1_warning[] =
    "W-v1: format 1 lacks pledged entropy (its dealer could drop a "
    "contribution or let a seat choose its own last), a sealed start "
    "for each seat to keep, and the abandoned line";

/* A finished game whose dealer never revealed S: its deal, its private
 * messages and its secret choices were never checked. */
static const char reveal_warning[] = "W-reveal: the game is finished but the "
                                     "dealer never revealed its secret: the "
                                     "deal, the private messages and the "
                                     "secret choices are unchecked";

/* The seed's provenance, seat by seat: who committed and revealed, and
 * whether signed.  Printed when any seat took part. */
static void
print_provenance(const char *file, const struct rpl_report *rep)
{
    FILE *out = cli_out();

    fprintf(out, "%s: seed provenance:", file);
    for (size_t k = 1; k <= rep->seats && k <= RPL_SEATS_MAX; k++) {
        const uint32_t b = 1u << (k - 1);
        const char *sep = k < rep->seats ? ";" : "";

        if (rep->version >= 2 && (rep->pledged & b) && (rep->revealed & b)) {
            const bool both =
                (rep->pledge_signed & b) && (rep->reveal_signed & b);
            const bool any = (rep->pledge_signed | rep->reveal_signed) & b;

            fprintf(out, " p%zu committed and revealed (%s)%s", k,
                    both  ? "signed"
                    : any ? "partly signed"
                          : "unsigned",
                    sep);
        } else if (rep->version >= 2 && (rep->pledged & b)) {
            fprintf(out, " p%zu committed (%s), never revealed%s", k,
                    (rep->pledge_signed & b) ? "signed" : "unsigned", sep);
        } else if (rep->revealed & b) {
            fprintf(out, " p%zu gave entropy (%s)%s", k,
                    (rep->reveal_signed & b) ? "signed" : "unsigned", sep);
        } else {
            fprintf(out, " p%zu took no part%s", k, sep);
        }
    }
    fputc('\n', out);
}

/* The seats of mask as a JSON array of numbers. */
static json_t *
seats_json(uint32_t mask)
{
    json_t *a = json_array();

    for (size_t k = 1; a && k <= RPL_SEATS_MAX; k++) {
        if (mask & (1u << (k - 1))) {
            json_array_append_new(a, json_integer((json_int_t)k));
        }
    }
    return a;
}

static const char *
plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* Where the seed came from: "; seed: dealer only" or "; seed: 6 of 6
 * seats, 6 signed".  Nothing for an imported game, whose deal does not
 * come from the seed. */
static void
seed_text(char *out, size_t cap, const struct rpl_report *rep)
{
    if (rep->is_imported) {
        out[0] = '\0';
    } else if (rep->entropy_seats == 0) {
        snprintf(out, cap, "; seed: dealer only");
    } else {
        snprintf(out, cap, "; seed: %zu of %zu %s, %zu signed",
                 rep->entropy_seats, rep->seats,
                 plural(rep->seats, "seat", "seats"), rep->entropy_signed);
    }
}

static void
print_text(const char *file, const struct rpl_report *rep, const char *variants,
           bool is_text)
{
    char seed[96];
    char vtext[RPL_VARIANTS_MAX + 16] = "";

    if (rep->error.code != RPL_OK) {
        fprintf(cli_out(), "%s: FAILED line %zu\n", file, rep->error.line);
        return;
    }
    /* An imported game was dealt elsewhere: its rules are checked, its
     * fairness cannot be (camelog(5), "Imported games"). */
    const char *imp = rep->is_imported
                          ? "imported: rules checked; fairness cannot be "
                            "proven; "
                      : is_text ? "text, "
                                : "";

    seed_text(seed, sizeof(seed), rep);
    /* The house rules in force (the game's man page, Variants). */
    if (variants[0] != '\0') {
        snprintf(vtext, sizeof(vtext), "house rules %s; ", variants);
    }
    switch (rep->progress) {
    case RPL_PROGRESS_IN_PROGRESS:
        fprintf(cli_out(), "%s: ok (%s%sin progress%s)\n", file, imp, vtext,
                seed);
        break;
    case RPL_PROGRESS_FINISHED:
        if (rep->abandoned_by) {
            fprintf(cli_out(),
                    "%s: ok (%s%sabandoned: p%zu did not reveal its "
                    "entropy%s)\n",
                    file, imp, vtext, rep->abandoned_by, seed);
            break;
        }
        fprintf(cli_out(), "%s: ok (%s%sfinished, not revealed%s)\n", file, imp,
                vtext, seed);
        break;
    case RPL_PROGRESS_COMPLETE:
        fprintf(cli_out(), "%s: ok (%s%scomplete, %zu %s, %zu %s%s)\n", file,
                imp, vtext, rep->seals, plural(rep->seals, "seal", "seals"),
                rep->sigs, plural(rep->sigs, "sig", "sigs"), seed);
        break;
    }
}

/* The seed's provenance for --json: {"seats": K, "of": N, "signed": M}. */
static json_t *
seed_json(const struct rpl_report *rep)
{
    json_t *o = json_object();

    cli_json_set(o, "seats", cli_json_size(rep->entropy_seats));
    cli_json_set(o, "of", cli_json_size(rep->seats));
    cli_json_set(o, "signed", cli_json_size(rep->entropy_signed));
    cli_json_set(o, "keyed", seats_json(rep->keyed));
    cli_json_set(o, "pledged", seats_json(rep->pledged));
    cli_json_set(o, "pledge_signed", seats_json(rep->pledge_signed));
    cli_json_set(o, "revealed", seats_json(rep->revealed));
    cli_json_set(o, "reveal_signed", seats_json(rep->reveal_signed));
    cli_json_set(o, "abandoned",
                 rep->abandoned_by ? cli_json_size(rep->abandoned_by)
                                   : json_null());
    return o;
}

/* The lines after the last seal, {"first": X, "last": Y}, or null. */
static json_t *
uncovered_json(const struct rpl_report *rep)
{
    json_t *o;

    if (rep->unsealed_from == 0) {
        return json_null();
    }
    o = json_object();
    cli_json_set(o, "first", cli_json_size(rep->unsealed_from));
    cli_json_set(o, "last", cli_json_size(rep->lines));
    return o;
}

static json_t *
str_or_null(const char *s)
{
    return s[0] != '\0' ? cli_json_str(s) : json_null();
}

static json_t *
report_json(const char *file, const struct rpl_report *rep, enum rpl_status st,
            const struct rpl_error *err, json_t *warnings)
{
    json_t *o = json_object();
    const bool valid = st == RPL_OK;
    bool ok = true;

    ok &= cli_json_set(o, "file", cli_json_str(file));
    ok &= cli_json_set(o, "valid", json_boolean(valid));
    ok &= cli_json_set(o, "progress",
                       valid ? json_string(rpl_progress_name(rep->progress))
                             : json_null());
    ok &=
        cli_json_set(o, "line", valid ? json_null() : cli_json_size(err->line));
    ok &= cli_json_set(o, "error",
                       valid ? json_null()
                             : cli_json_str(cli_error_text(st, err)));
    ok &= cli_json_set(o, "code", json_string(rpl_status_name(st)));
    ok &= cli_json_set(o, "warnings",
                       warnings ? json_incref(warnings) : json_array());
    ok &= cli_json_set(o, "seals", cli_json_size(rep->seals));
    ok &= cli_json_set(o, "sigs", cli_json_size(rep->sigs));
    ok &= cli_json_set(o, "commitments", cli_json_size(rep->commitments));
    ok &= cli_json_set(o, "lines", cli_json_size(rep->lines));
    ok &= cli_json_set(o, "game", str_or_null(rep->game));
    ok &= cli_json_set(o, "id", str_or_null(rep->id));
    ok &= cli_json_set(o, "winner", str_or_null(rep->winner));
    ok &= cli_json_set(o, "reason", str_or_null(rep->reason));
    ok &= cli_json_set(o, "key_pinned", json_boolean(rep->is_key_pinned));
    ok &= cli_json_set(o, "imported", json_boolean(rep->is_imported));
    ok &= cli_json_set(o, "seed", seed_json(rep));
    ok &= cli_json_set(o, "uncovered", uncovered_json(rep));
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* A job of the pool: reads and verifies one file and prints its line;
 * the log is freed before it returns. */
static int
verify_one(void *ud, struct rpl_ctx *ctx, size_t index, void *data)
{
    const struct verify_run *run = ud;
    struct verify_job *job = data;
    const char *file = run->files[index];
    struct rpl_log *log = NULL;
    struct rpl_error err;
    struct rpl_report rep;
    struct rpl_verify_opts opts;
    json_t *warnings = NULL, *obj;
    char variants[RPL_VARIANTS_MAX];
    enum rpl_status st;
    int rc;

    memset(&rep, 0, sizeof(rep));
    memset(&opts, 0, sizeof(opts));
    opts.pubkey = run->pin;
    opts.require = run->require;
    opts.require_entropy = run->require_entropy;
    opts.require_signatures = run->require_signatures;
    memcpy(opts.seat_pin, run->seat_pin, sizeof(opts.seat_pin));
    opts.unsealed_tail_ok = run->is_live;
    st = rpl_log_read(ctx, &log, file, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(file, st, &err);
        rep.error = err;
        if (run->is_json) {
            obj = report_json(file, &rep, st, &err, NULL);
            if (!obj) {
                rc = cli_worst(rc, CLI_EXIT_USAGE);
            } else {
                rc = cli_worst(rc, cli_json_print(obj));
            }
            json_decref(obj);
        } else if (rc == CLI_EXIT_INVALID) {
            fprintf(cli_out(), "%s: FAILED line %zu\n", file, err.line);
        } else {
            fprintf(cli_out(), "%s: ERROR\n", file);
        }
        return rc;
    }
    st = rpl_log_verify(log, &opts, &rep);
    (void)rpl_log_variants(log, variants, sizeof(variants));
    if (run->is_json) {
        warnings = json_array();
    }
    print_warnings(file, log, &rep, warnings);
    if (st == RPL_OK && !rep.is_imported && rep.entropy_seats == 0) {
        file_warning(file, warnings, seed_warning);
    }
    if (st == RPL_OK && rep.version == 1) {
        file_warning(file, warnings, v1_warning);
    }
    if (st == RPL_OK && rep.progress == RPL_PROGRESS_FINISHED &&
        !rep.abandoned_by) {
        file_warning(file, warnings, reveal_warning);
        if (run->require_reveal) {
            st = RPL_E_INCOMPLETE;
            memset(&rep.error, 0, sizeof(rep.error));
            rep.error.code = st;
            rep.error.line = rpl_log_lines(log);
            snprintf(rep.error.msg, sizeof(rep.error.msg),
                     "--require=reveal: the game is finished and its "
                     "dealer never revealed its secret");
        }
    }
    if (st != RPL_OK) {
        rc = cli_file_error(file, st, &rep.error);
    } else {
        rc = CLI_EXIT_OK;
        job->has_dealer = rpl_log_dealer(log, &job->dealer);
    }
    if (st == RPL_OK && run->cov) {
        struct rpl_error cerr;
        const enum rpl_status cst = rpl_log_coverage(log, job->bits, &cerr);

        if (cst == RPL_OK) {
            job->has_cov = true;
            snprintf(job->game, sizeof(job->game), "%s", rep.game);
        } else {
            rc = cli_worst(rc, cli_file_error(file, cst, &cerr));
        }
    }
    if (run->is_json) {
        obj = report_json(file, &rep, st, &rep.error, warnings);
        if (obj && variants[0] != '\0' &&
            !cli_json_set(obj, "variants", cli_json_list(variants))) {
            json_decref(obj);
            obj = NULL;
        }
        if (!obj) {
            cli_msg("out of memory");
            rc = cli_worst(rc, CLI_EXIT_USAGE);
        } else {
            rc = cli_worst(rc, cli_json_print(obj));
        }
        json_decref(obj);
    } else {
        print_text(file, &rep, variants, rpl_log_is_text(log));
        if (st == RPL_OK && !rep.is_imported &&
            (rep.entropy_seats > 0 || rep.pledged != 0)) {
            print_provenance(file, &rep);
        }
    }
    json_decref(warnings);
    rpl_log_free(log);
    return rc;
}

/* --coverage: the table, as text or one JSON object per game. */
static int
print_coverage(const struct verify_run *run)
{
    int rc = CLI_EXIT_OK;

    if (!run->is_json) {
        cli_coverage_print(run->cov, stdout);
        return rc;
    }
    for (size_t g = 0; g < rpl_game_count() && g < CLI_COV_GAMES; g++) {
        json_t *obj;

        if (run->cov->games[g] == 0) {
            continue;
        }
        obj = cli_coverage_json(run->cov, g);
        if (!obj) {
            cli_msg("out of memory");
            rc = CLI_EXIT_USAGE;
            continue;
        }
        rc = cli_worst(rc, cli_json_print(obj));
        json_decref(obj);
    }
    return rc;
}

int
cmd_verify(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"pubkey", required_argument, NULL, 'k'},
        {"require", required_argument, NULL, 'r'},
        {"seat-key", required_argument, NULL, 's'},
        {"live", no_argument, NULL, 'L'},
        {"json", no_argument, NULL, 'J'},
        {"jobs", required_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"coverage", no_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct verify_run run;
    struct cli_coverage *cov = NULL;
    bool want_cov = false;
    struct rpl_pubkey pin;
    static struct rpl_pubkey seat_keys[RPL_SEATS_MAX + 1];
    const char *seat_args[RPL_SEATS_MAX + 1] = {0};
    struct rpl_ctx *ctx = NULL;
    struct cli_pool *pool = NULL;
    struct cli_progress prog;
    const char *pubkey = NULL;
    size_t jobs = cli_jobs_default(), nfiles, i;
    int c, rc = CLI_EXIT_OK;

    memset(&run, 0, sizeof(run));
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":qj:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'k':
            pubkey = optarg;
            break;
        case 'r':
            /* A comma list: a progress, and the guarantees asked for. */
            for (const char *p = optarg;;) {
                const size_t n = strcspn(p, ",");

                if (n == 8 && strncmp(p, "finished", n) == 0) {
                    if (run.require < RPL_PROGRESS_FINISHED) {
                        run.require = RPL_PROGRESS_FINISHED;
                    }
                } else if (n == 8 && strncmp(p, "complete", n) == 0) {
                    run.require = RPL_PROGRESS_COMPLETE;
                } else if (n == 6 && strncmp(p, "reveal", n) == 0) {
                    run.require_reveal = true;
                } else if (n == 7 && strncmp(p, "entropy", n) == 0) {
                    run.require_entropy = true;
                } else if (n == 10 && strncmp(p, "signatures", n) == 0) {
                    run.require_signatures = true;
                } else {
                    return cli_usage_error("verify",
                                           "--require: expected finished, "
                                           "complete, reveal, entropy or "
                                           "signatures, got '%.*s'",
                                           (int)n, p);
                }
                if (p[n] == '\0') {
                    break;
                }
                p += n + 1;
            }
            break;
        case 's': {
            const char *eq = strchr(optarg, '=');
            char seat[8];
            size_t k = 0;

            if (!eq || eq - optarg >= (ptrdiff_t)sizeof(seat)) {
                return cli_usage_error("verify",
                                       "--seat-key: expected pK=key|file, "
                                       "got '%s'",
                                       optarg);
            }
            memcpy(seat, optarg, (size_t)(eq - optarg));
            seat[eq - optarg] = '\0';
            if (!cli_parse_seat(seat, &k) || k == 0 || k > RPL_SEATS_MAX) {
                return cli_usage_error("verify",
                                       "--seat-key: expected pK=key|file, "
                                       "got '%s'",
                                       optarg);
            }
            seat_args[k] = eq + 1;
            break;
        }
        case 'J':
            run.is_json = true;
            break;
        case 'L':
            run.is_live = true;
            break;
        case 'j':
            rc = cli_parse_jobs("verify", optarg, &jobs);
            if (rc != CLI_EXIT_OK) {
                return rc;
            }
            break;
        case 'q':
            run.is_quiet = true;
            break;
        case 'c':
            want_cov = true;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("verify", c, argv);
        }
    }
    if (optind >= argc) {
        return cli_usage_error("verify", "no file to verify");
    }
    if (run.is_live && !pubkey) {
        return cli_usage_error("verify", "--live needs --pubkey");
    }
    /* The context first: it initializes libsodium, which the key
     * parser needs. */
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (pubkey) {
        rc = cli_load_pubkey(pubkey, &pin);
        if (rc != CLI_EXIT_OK) {
            rpl_ctx_free(ctx);
            return rc;
        }
        run.pin = &pin;
    }
    for (i = 1; i <= RPL_SEATS_MAX; i++) {
        if (!seat_args[i]) {
            continue;
        }
        rc = cli_load_pubkey(seat_args[i], &seat_keys[i]);
        if (rc != CLI_EXIT_OK) {
            rpl_ctx_free(ctx);
            return rc;
        }
        run.seat_pin[i] = &seat_keys[i];
    }
    if (want_cov) {
        cov = calloc(1, sizeof(*cov));
        if (!cov) {
            cli_msg("out of memory");
            rpl_ctx_free(ctx);
            return CLI_EXIT_USAGE;
        }
        run.cov = cov;
    }
    run.files = argv + optind;
    nfiles = (size_t)(argc - optind);
    /* A window of four files a thread keeps every thread busy. */
    rc = cli_pool_start(&pool, nfiles, jobs, 4 * jobs,
                        sizeof(struct verify_job), verify_one, &run);
    if (rc != CLI_EXIT_OK) {
        free(cov);
        rpl_ctx_free(ctx);
        return rc;
    }
    cli_progress_start(&prog, "files", nfiles, run.is_quiet);
    for (i = 0; i < nfiles; i++) {
        int job_rc;
        const struct verify_job *job = cli_pool_wait(pool, i, true, &job_rc);

        rc = cli_worst(rc, job_rc);
        cli_pool_put_err(pool, i);
        if (job->has_dealer) {
            note_trusted(&run, run.files[i], &job->dealer);
        }
        if (cov && job->has_cov) {
            cli_coverage_add(cov, job->game, job->bits);
        }
        cli_pool_put_out(pool, i);
        cli_pool_release(pool, i + 1);
        cli_progress_update(&prog, i + 1);
    }
    cli_progress_end(&prog);
    cli_pool_free(pool);
    if (cov) {
        rc = cli_worst(rc, print_coverage(&run));
    }
    free(cov);
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
