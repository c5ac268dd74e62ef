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
    struct rpl_verdict *v = NULL;
    const char *w;
    char *out = NULL;
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
        rep.error = err;
    } else if (run->cov) {
        /* the coverage taken in the verify's pass */
        const struct rpl_walk_opts walk = {.bits = job->bits};

        st = rpl_log_verify_walk(log, &opts, &walk, &rep);
    } else {
        st = rpl_log_verify(log, &opts, &rep);
    }
    if (rpl_verdict_new(ctx, log, &rep, st,
                        run->require_reveal ? RPL_VERDICT_REVEAL : 0, &v,
                        &err) != RPL_OK) {
        rpl_log_free(log);
        return cli_file_error(file, RPL_E_NOMEM, &err);
    }
    if (!log) {
        rc = cli_file_error(file, st, &rep.error);
    } else {
        size_t i, line, unshown;

        for (i = 0; (w = rpl_verdict_warning(v, i, &line, &unshown)); i++) {
            cli_file_warn(file, line, "%s", w);
            if (unshown > 0) {
                cli_file_warn(file, 0, "%zu more warnings not shown", unshown);
            }
        }
        st = rpl_verdict_status(v, &err);
        if (st != RPL_OK) {
            rc = cli_file_error(file, st, &err);
        } else {
            rc = CLI_EXIT_OK;
            job->has_dealer = rpl_log_dealer(log, &job->dealer);
        }
    }
    if (st == RPL_OK && run->cov) {
        job->has_cov = true;
        snprintf(job->game, sizeof(job->game), "%s", rep.game);
    }
    if (run->is_json) {
        if (rpl_verdict_json(v, file, 0, &out, &err) != RPL_OK) {
            cli_msg("out of memory");
            rc = cli_worst(rc, CLI_EXIT_USAGE);
        } else {
            fputs(out, cli_out());
            fputc('\n', cli_out());
        }
    } else if (rpl_verdict_text(v, file, &out, &err) != RPL_OK) {
        cli_msg("out of memory");
        rc = cli_worst(rc, CLI_EXIT_USAGE);
    } else {
        fputs(out, cli_out());
    }
    rpl_free(ctx, out);
    rpl_verdict_free(v);
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
