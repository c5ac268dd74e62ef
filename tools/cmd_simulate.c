/*
 * cmd_simulate.c - camelog simulate: seeded bots play whole games and the
 * dealer records them as a host would (rpl_rec_*): header and commitment,
 * optional seat entropy and seat signatures, every move, the seal after
 * `end`, the reveal and the final seal.  Everything comes from the seed,
 * so the same arguments write byte-identical files.
 *
 * Derivation (camelog-simulate(1)): root = BLAKE2b-256("camelog simulate
 * seed" || seed); for game g, value(label) = BLAKE2b(key = root,
 * "camelog simulate " || label || " " || g), 16 bytes for the id and 32
 * for the rest ("secret", "bots", "entropy pK", "seat key pK").
 *
 * --count N writes DIR/game-000001.camelog ... with -j worker threads
 * (tools/pool.c) and DIR/MANIFEST.tsv, whose rows the main thread
 * writes in game order.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "replay.h"

/* The usage and the options, around the list of games. */
static const char usage_head[] = "usage: camelog simulate --game ";
static const char usage_tail[] =
    " --players n [--roles list]\n"
    "                        [--rules line] [--lady] [--targeting]\n"
    "                        [--seed hex] [--count n] [-j n]\n"
    "                        [--bot random|plausible] [--entropy] [--sigs]\n"
    "                        [--created time] [--deliveries dir]\n"
    "                        [--force] [-q] --key dealer.key -o file|dir\n";

static const char options_head[] = "options:\n"
                                   "  --game ";
static const char options_tail[] =
    " the game\n"
    "  --players n            number of seats\n"
    "  --roles list           Avalon roles, comma-separated (default: the\n"
    "                         basic game, Merlin and the Assassin)\n"
    "  --rules line           the whole rules line (overrides --roles,\n"
    "                         --lady and --targeting)\n"
    "  --lady                 play with the Lady of the Lake\n"
    "  --targeting            play with the Targeting variant\n"
    "  --seed hex             seed of the run (default: random, printed)\n"
    "  --count n              write n games into the directory given by -o\n"
    "  -j, --jobs n           with --count, play n games at a time (default:\n"
    "                         the cores online)\n"
    "  --bot random|plausible how the seats choose (default: plausible)\n"
    "  --entropy              every seat contributes entropy\n"
    "  --sigs                 every seat has a key and signs its lines\n"
    "  --created time         the created line, YYYY-MM-DDTHH:MM:SSZ\n"
    "  --deliveries dir       write each seat's deliveries to "
    "dir/pK.deliveries\n"
    "                         (and with --sigs its keys, dir/pK.key and .pub)\n"
    "  -f, --force            overwrite existing files\n"
    "  -q, --quiet            no progress and no seed note\n"
    "  -k, --key file         the dealer's secret key\n"
    "  -o, --output file|dir  the log (- for standard output), or the\n"
    "                         directory with --count\n"
    "  -h, --help             this help\n";

/* Seats take the library's default names, in seat order. */
#define MAX_PLAYERS RPL_SEATS_MAX

/* The bots move at most this many times in one game; a game that does
 * not end by then is a bug, reported rather than looped on. */
#define MAX_MOVES 100000u

#define ROW_MAX   1024

struct sim {
    const char *game;
    char *rules;
    size_t players;
    uint8_t root[32];
    enum rpl_bot bot;
    bool has_entropy;
    bool has_sigs;
    bool force;
    bool quiet;
    const char *created;
    const char *deliveries; /* directory for pK.deliveries, or NULL */
    const struct rpl_seckey *dealer;
    struct rpl_pubkey dealer_pub;
};

/* value(label) of game g; out_len is 16 or 32. */
static void
derive(const struct sim *sim, const char *label, size_t game, uint8_t *out,
       size_t out_len)
{
    char msg[128];
    const int n =
        snprintf(msg, sizeof(msg), "camelog simulate %s %zu", label, game);

    crypto_generichash(out, out_len, (const unsigned char *)msg, (size_t)n,
                       sim->root, sizeof(sim->root));
}

static bool
is_created_shape(const char *s)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    size_t i;

    if (strlen(s) != sizeof(shape) - 1) {
        return false;
    }
    for (i = 0; shape[i] != '\0'; i++) {
        if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i]) {
            return false;
        }
    }
    return true;
}

/* What one game produced, for the manifest. */
struct outcome {
    char winner[16];
    char reason[16];
    char digest[65];
};

static void
print_warnings(const char *file, struct rpl_log *log,
               const struct rpl_report *rep)
{
    size_t i;

    for (i = 0; i < rep->warnings; i++) {
        size_t line = 0;
        const char *w = rpl_log_warning(log, i, &line);

        if (!w) {
            break;
        }
        cli_file_warn(file, line, "%s", w);
    }
}

/* Writes dir/pK.deliveries for every seat (the text form of camelog(5),
 * one delivery a line), and with seat keys dir/pK.key and dir/pK.pub: what
 * each seat of a live game would hold, for testing the seat's side. */
static int
write_deliveries(const struct sim *sim, const struct rpl_recorder *rec,
                 struct rpl_seckey *const *seat_sk)
{
    char path[4096];
    char line[RPL_DELIVERY_MAX];
    struct rpl_delivery d;
    struct rpl_error err;
    enum rpl_status st;
    size_t k, i;
    int rc = cli_make_dir(sim->deliveries);

    for (k = 1; rc == CLI_EXIT_OK && k <= sim->players; k++) {
        struct cli_wfile w;

        snprintf(path, sizeof(path), "%s/p%zu.deliveries", sim->deliveries, k);
        rc = cli_wfile_open(&w, path);
        if (rc != CLI_EXIT_OK) {
            return rc;
        }
        for (i = 0; i < rpl_rec_deliveries(rec); i++) {
            st = rpl_rec_delivery(rec, i, &d, &err);
            if (st != RPL_OK) {
                cli_wfile_drop(&w);
                return cli_file_error(path, st, &err);
            }
            if (d.seat == k &&
                rpl_delivery_format(&d, line, sizeof(line)) > 0) {
                fprintf(w.fp, "%s\n", line);
            }
        }
        sodium_memzero(&d, sizeof(d));
        sodium_memzero(line, sizeof(line));
        /* Private to the seat: 0600, as its key. */
        rc = cli_wfile_commit(&w, 0600, sim->force);
        if (rc != CLI_EXIT_OK) {
            return rc;
        }
        if (!seat_sk[k - 1]) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/p%zu.key", sim->deliveries, k);
        st = rpl_seckey_save(seat_sk[k - 1], path, sim->force, &err);
        if (st == RPL_OK) {
            struct rpl_pubkey pk;

            rpl_seckey_pubkey(seat_sk[k - 1], &pk);
            snprintf(path, sizeof(path), "%s/p%zu.pub", sim->deliveries, k);
            st = rpl_pubkey_save(&pk, path, sim->force, &err);
        }
        if (st != RPL_OK) {
            return cli_worst(CLI_EXIT_USAGE, cli_file_error(path, st, &err));
        }
    }
    return rc;
}

/* Records game number `game` into path.  Returns an exit status after
 * reporting any failure. */
static int
play_game(const struct sim *sim, struct rpl_ctx *ctx, size_t game,
          const char *path, bool show_warnings, struct outcome *res)
{
    struct rpl_seckey *seat_sk[MAX_PLAYERS] = {NULL};
    struct rpl_pubkey seat_pk[MAX_PLAYERS];
    const struct rpl_pubkey *seat_keys[MAX_PLAYERS] = {NULL};
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_verify_opts vopts;
    struct rpl_error err;
    enum rpl_status st = RPL_OK;
    uint8_t id[16], secret[32], bots[32], buf[32], digest[32];
    char label[32];
    size_t k, moves = 0, turn;
    int rc = CLI_EXIT_USAGE;

    derive(sim, "id", game, id, sizeof(id));
    derive(sim, "secret", game, secret, sizeof(secret));
    derive(sim, "bots", game, bots, sizeof(bots));
    if (sim->has_sigs) {
        for (k = 1; k <= sim->players; k++) {
            snprintf(label, sizeof(label), "seat key p%zu", k);
            derive(sim, label, game, buf, sizeof(buf));
            st = rpl_seckey_from_seed(ctx, &seat_sk[k - 1], buf, &err);
            if (st != RPL_OK) {
                goto fail;
            }
            rpl_seckey_pubkey(seat_sk[k - 1], &seat_pk[k - 1]);
            seat_keys[k - 1] = &seat_pk[k - 1];
        }
    }
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = sim->game;
    cfg.rules = sim->rules;
    cfg.seats = sim->players;
    cfg.names = rpl_seat_default_names();
    cfg.seat_keys = sim->has_sigs ? seat_keys : NULL;
    cfg.dealer = sim->dealer;
    cfg.id = id;
    cfg.secret = secret;
    cfg.created = sim->created;
    st = rpl_rec_new(ctx, &rec, &cfg, &err);
    if (st != RPL_OK) {
        goto fail;
    }
    if (sim->has_entropy) {
        /* camelog(5) "Entropy": every seat pledges, the dealer seals the
         * pledges, then every seat reveals. */
        for (k = 1; k <= sim->players; k++) {
            uint8_t pledge[32];

            snprintf(label, sizeof(label), "entropy p%zu", k);
            derive(sim, label, game, buf, sizeof(buf));
            st = rpl_entropy_pledge(id, k, buf, pledge);
            if (st == RPL_OK) {
                st = rpl_rec_pledge(rec, k, pledge, seat_sk[k - 1], NULL, NULL,
                                    &err);
            }
            if (st != RPL_OK) {
                goto fail;
            }
        }
        st = rpl_rec_pledged(rec, NULL, &err);
        if (st != RPL_OK) {
            goto fail;
        }
        for (k = 1; k <= sim->players; k++) {
            snprintf(label, sizeof(label), "entropy p%zu", k);
            derive(sim, label, game, buf, sizeof(buf));
            st = rpl_rec_entropy(rec, k, buf, seat_sk[k - 1], &err);
            if (st != RPL_OK) {
                goto fail;
            }
        }
    }
    st = rpl_rec_start(rec, &err);
    if (st != RPL_OK) {
        goto fail;
    }
    while ((turn = rpl_rec_dealer_turn(rec)) != 0) {
        if (++moves > MAX_MOVES || turn > sim->players) {
            cli_file_msg(path, 0, "the bots did not finish the game");
            goto out;
        }
        st = rpl_rec_bot(rec, sim->bot, bots, seat_sk[turn - 1], &err);
        if (st != RPL_OK) {
            goto fail;
        }
    }
    st = rpl_rec_reveal(rec, &err);
    if (st != RPL_OK) {
        goto fail;
    }
    st = rpl_rec_log(rec, &log, &err);
    if (st != RPL_OK) {
        goto fail;
    }
    if (sim->deliveries) {
        rc = write_deliveries(sim, rec, seat_sk);
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
        rc = CLI_EXIT_USAGE;
    }
    memset(&vopts, 0, sizeof(vopts));
    vopts.pubkey = &sim->dealer_pub;
    memset(&rep, 0, sizeof(rep));
    st = rpl_log_verify(log, &vopts, &rep);
    if (show_warnings) {
        print_warnings(path, log, &rep);
    }
    if (st != RPL_OK) {
        err = rep.error;
        goto fail;
    }
    st = rpl_log_write(log, path, sim->force, &err);
    if (st != RPL_OK) {
        goto fail;
    }
    st = rpl_log_seek(log, rpl_log_lines(log), &err);
    if (st == RPL_OK) {
        st = rpl_log_digest(log, digest, &err);
    }
    if (st != RPL_OK) {
        goto fail;
    }
    snprintf(res->winner, sizeof(res->winner), "%s", rep.winner);
    snprintf(res->reason, sizeof(res->reason), "%s", rep.reason);
    cli_hex(digest, sizeof(digest), res->digest);
    rc = CLI_EXIT_OK;
    goto out;
fail:
    rc = cli_file_error(path, st, &err);
out:
    rpl_log_free(log);
    rpl_rec_free(rec);
    for (k = 0; k < MAX_PLAYERS; k++) {
        rpl_seckey_free(seat_sk[k]);
    }
    sodium_memzero(secret, sizeof(secret));
    sodium_memzero(buf, sizeof(buf));
    return rc;
}

static const char *
dash_if_empty(const char *s)
{
    return s[0] != '\0' ? s : "-";
}

/* --count: one game of the pool (in any thread). */
struct count_run {
    const struct sim *sim;
    const char *dir;
};

struct count_job {
    struct outcome res;
};

static int
count_game(void *ud, struct rpl_ctx *ctx, size_t index, void *data)
{
    const struct count_run *run = ud;
    struct count_job *job = data;
    const size_t g = index + 1;
    char *path = malloc(strlen(run->dir) + 32);
    int rc;

    if (!path) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    sprintf(path, "%s/game-%06zu.camelog", run->dir, g);
    rc = play_game(run->sim, ctx, g, path, g == 1, &job->res);
    free(path);
    return rc;
}

static int
run_count(const struct sim *sim, const char *dir, size_t count, size_t jobs)
{
    struct count_run run = {.sim = sim, .dir = dir};
    struct cli_pool *pool = NULL;
    char *manifest = NULL;
    size_t g;
    struct cli_wfile mf;
    bool has_mf = false;
    struct cli_progress prog;
    int rc;

    rc = cli_make_dir(dir);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    rc = CLI_EXIT_USAGE;
    manifest = malloc(strlen(dir) + 32);
    if (!manifest) {
        cli_msg("out of memory");
        goto out;
    }
    sprintf(manifest, "%s/MANIFEST.tsv", dir);
    if (!sim->force && access(manifest, F_OK) == 0) {
        cli_file_msg(manifest, 0, "file exists; --force overwrites it");
        goto out;
    }
    if (cli_wfile_open(&mf, manifest) != CLI_EXIT_OK) {
        goto out;
    }
    has_mf = true;
    fprintf(mf.fp, "file\trules\twinner\treason\tdigest\n");
    rc = cli_pool_start(&pool, count, jobs, 4 * jobs, sizeof(struct count_job),
                        count_game, &run);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    /* The first failure stops the run: later games are not waited for. */
    cli_progress_start(&prog, "games", count, sim->quiet);
    for (g = 1; rc == CLI_EXIT_OK && g <= count; g++) {
        int job_rc;
        const struct count_job *job =
            cli_pool_wait(pool, g - 1, false, &job_rc);

        rc = job_rc;
        if (rc == CLI_EXIT_OK) {
            fprintf(mf.fp, "game-%06zu.camelog\t%s\t%s\t%s\t%s\n", g,
                    sim->rules, dash_if_empty(job->res.winner),
                    dash_if_empty(job->res.reason), job->res.digest);
        }
        cli_pool_release(pool, g);
        cli_progress_update(&prog, g);
    }
    cli_progress_end(&prog);
    cli_pool_free(pool);
out:
    if (has_mf && rc == CLI_EXIT_OK) {
        rc = cli_wfile_commit(&mf, 0644, sim->force);
    } else if (has_mf) {
        cli_wfile_drop(&mf);
    }
    if (rc == CLI_EXIT_OK) {
        printf("%s: %zu %s\n", manifest, count, count == 1 ? "game" : "games");
    }
    free(manifest);
    return rc;
}

/* The help, with the games the library knows. */
static int
help(void)
{
    char names[128], usage[1024], options[2048];

    cli_game_names(names, sizeof(names), "|", "|");
    snprintf(usage, sizeof(usage), "%s%s%s", usage_head, names, usage_tail);
    snprintf(options, sizeof(options), "%s%-15s%s", options_head, names,
             options_tail);
    return cli_help(usage, options);
}

static bool
is_game(const char *name)
{
    for (size_t i = 0; i < rpl_game_count(); i++)
        if (strcmp(rpl_game_info(i)->name, name) == 0)
            return true;
    return false;
}

/* The rules line from --roles, --lady and --targeting; a new string
 * (free()) or NULL after reporting the failure. */
static char *
build_rules(const struct sim *sim, const char *roles, bool lady, bool targeting,
            int *rc)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_error err;
    char opts[32] = "";
    char *line = NULL, *copy = NULL;

    *rc = cli_ctx_new(&ctx);
    if (*rc != CLI_EXIT_OK)
        return NULL;
    if (lady)
        strcat(opts, "lady,");
    if (targeting)
        strcat(opts, "targeting,");
    if (opts[0] != '\0')
        opts[strlen(opts) - 1] = '\0';
    const enum rpl_status st =
        rpl_game_rules(ctx, sim->game, sim->players, roles, opts, &line, &err);
    if (st == RPL_E_ARG)
        *rc = cli_usage_error("simulate", "%s", err.msg);
    else if (st != RPL_OK)
        *rc = cli_file_error(NULL, st, &err);
    else if (!(copy = strdup(line)))
        *rc = cli_file_error(NULL, RPL_E_NOMEM, NULL);
    rpl_free(ctx, line);
    rpl_ctx_free(ctx);
    return copy;
}

enum {
    OPT_GAME = 256,
    OPT_PLAYERS,
    OPT_ROLES,
    OPT_RULES,
    OPT_LADY,
    OPT_TARGETING,
    OPT_SEED,
    OPT_COUNT,
    OPT_BOT,
    OPT_ENTROPY,
    OPT_SIGS,
    OPT_CREATED,
    OPT_DELIVERIES
};

int
cmd_simulate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"game", required_argument, NULL, OPT_GAME},
        {"players", required_argument, NULL, OPT_PLAYERS},
        {"roles", required_argument, NULL, OPT_ROLES},
        {"rules", required_argument, NULL, OPT_RULES},
        {"lady", no_argument, NULL, OPT_LADY},
        {"targeting", no_argument, NULL, OPT_TARGETING},
        {"seed", required_argument, NULL, OPT_SEED},
        {"count", required_argument, NULL, OPT_COUNT},
        {"jobs", required_argument, NULL, 'j'},
        {"bot", required_argument, NULL, OPT_BOT},
        {"entropy", no_argument, NULL, OPT_ENTROPY},
        {"sigs", no_argument, NULL, OPT_SIGS},
        {"created", required_argument, NULL, OPT_CREATED},
        {"deliveries", required_argument, NULL, OPT_DELIVERIES},
        {"force", no_argument, NULL, 'f'},
        {"quiet", no_argument, NULL, 'q'},
        {"key", required_argument, NULL, 'k'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct sim sim;
    const char *players = NULL, *roles = NULL, *rules = NULL, *seed = NULL;
    const char *count_arg = NULL, *keyfile = NULL, *output = NULL;
    bool lady = false, targeting = false;
    uint8_t seed_bytes[64];
    size_t seed_len = 0, count = 0, jobs = cli_jobs_default();
    bool has_jobs = false;
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *dealer = NULL;
    struct rpl_error err;
    enum rpl_status st;
    int c, rc;

    memset(&sim, 0, sizeof(sim));
    sim.bot = RPL_BOT_PLAUSIBLE;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":fqk:o:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_GAME:
            sim.game = optarg;
            break;
        case OPT_PLAYERS:
            players = optarg;
            break;
        case OPT_ROLES:
            roles = optarg;
            break;
        case OPT_RULES:
            rules = optarg;
            break;
        case OPT_LADY:
            lady = true;
            break;
        case OPT_TARGETING:
            targeting = true;
            break;
        case OPT_SEED:
            seed = optarg;
            break;
        case OPT_COUNT:
            count_arg = optarg;
            break;
        case OPT_BOT:
            if (strcmp(optarg, "random") == 0) {
                sim.bot = RPL_BOT_RANDOM;
            } else if (strcmp(optarg, "plausible") == 0) {
                sim.bot = RPL_BOT_PLAUSIBLE;
            } else {
                return cli_usage_error("simulate",
                                       "--bot is random or plausible, not "
                                       "'%s'",
                                       optarg);
            }
            break;
        case OPT_ENTROPY:
            sim.has_entropy = true;
            break;
        case OPT_SIGS:
            sim.has_sigs = true;
            break;
        case OPT_CREATED:
            sim.created = optarg;
            break;
        case OPT_DELIVERIES:
            sim.deliveries = optarg;
            break;
        case 'f':
            sim.force = true;
            break;
        case 'q':
            sim.quiet = true;
            break;
        case 'j':
            rc = cli_parse_jobs("simulate", optarg, &jobs);
            if (rc != CLI_EXIT_OK) {
                return rc;
            }
            has_jobs = true;
            break;
        case 'k':
            keyfile = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            return help();
        default:
            return cli_option_error("simulate", c, argv);
        }
    }
    if (optind < argc) {
        return cli_usage_error("simulate", "unexpected argument '%s'",
                               argv[optind]);
    }
    if (!sim.game || !is_game(sim.game)) {
        char names[128];

        if (!sim.game) {
            cli_game_names(names, sizeof(names), "|", "|");
            return cli_usage_error("simulate", "no game (--game %s)", names);
        }
        cli_game_names(names, sizeof(names), ", ", " or ");
        return cli_usage_error("simulate", "--game is %s, not '%s'", names,
                               sim.game);
    }
    if (!players) {
        return cli_usage_error("simulate", "no number of players (--players)");
    }
    if (!cli_parse_size(players, &sim.players) || sim.players == 0 ||
        sim.players > MAX_PLAYERS) {
        return cli_usage_error("simulate",
                               "--players needs a number from 1 to %zu",
                               (size_t)MAX_PLAYERS);
    }
    if (!keyfile) {
        return cli_usage_error("simulate", "no dealer key (--key)");
    }
    if (!output) {
        return cli_usage_error("simulate", "no output (-o)");
    }
    if (count_arg && (!cli_parse_size(count_arg, &count) || count == 0)) {
        return cli_usage_error("simulate", "--count needs a positive number");
    }
    if (has_jobs && !count_arg) {
        return cli_usage_error("simulate", "-j needs --count");
    }
    if (count_arg && sim.deliveries) {
        return cli_usage_error("simulate", "--deliveries writes one game's "
                                           "deliveries, not --count's");
    }
    if (count_arg && strcmp(output, "-") == 0) {
        return cli_usage_error("simulate", "--count writes into a directory, "
                                           "not standard output");
    }
    if (sim.created && !is_created_shape(sim.created)) {
        return cli_usage_error("simulate",
                               "--created needs YYYY-MM-DDTHH:MM:SSZ, not "
                               "'%s'",
                               sim.created);
    }
    if (seed &&
        !cli_parse_hex(seed, seed_bytes, sizeof(seed_bytes), &seed_len)) {
        return cli_usage_error("simulate",
                               "--seed needs 2 to 128 hex digits (an even "
                               "number)");
    }
    if (rules) {
        sim.rules = strdup(rules);
    } else {
        sim.rules = build_rules(&sim, roles, lady, targeting, &rc);
        if (!sim.rules) {
            return rc;
        }
    }
    if (!sim.rules) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (!seed) {
        char hex[65];

        seed_len = 32;
        randombytes_buf(seed_bytes, seed_len);
        cli_hex(seed_bytes, seed_len, hex);
        if (!sim.quiet) {
            cli_msg("seed %s (--seed %s repeats this run)", hex, hex);
        }
    }
    {
        static const char tag[] = "camelog simulate seed";
        crypto_generichash_state h;

        crypto_generichash_init(&h, NULL, 0, sizeof(sim.root));
        crypto_generichash_update(&h, (const unsigned char *)tag,
                                  sizeof(tag) - 1);
        crypto_generichash_update(&h, seed_bytes, seed_len);
        crypto_generichash_final(&h, sim.root, sizeof(sim.root));
        sodium_memzero(&h, sizeof(h));
    }
    st = rpl_seckey_load(ctx, &dealer, keyfile, &err);
    if (st != RPL_OK) {
        rc = cli_worst(CLI_EXIT_USAGE, cli_file_error(keyfile, st, &err));
        goto out;
    }
    sim.dealer = dealer;
    rpl_seckey_pubkey(dealer, &sim.dealer_pub);
    if (count_arg) {
        rc = run_count(&sim, output, count, jobs);
    } else {
        struct outcome res;

        rc = play_game(&sim, ctx, 1, output, true, &res);
        if (rc == CLI_EXIT_OK && strcmp(output, "-") != 0) {
            printf("%s: %s%s%s\n", output, res.winner,
                   res.reason[0] != '\0' ? " " : "", res.reason);
        }
    }
    rc = cli_finish(rc);
out:
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
    free(sim.rules);
    sodium_memzero(seed_bytes, sizeof(seed_bytes));
    sodium_memzero(sim.root, sizeof(sim.root));
    return rc;
}
