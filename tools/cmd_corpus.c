/*
 * cmd_corpus.c - camelog corpus: regression corpora that exercise every
 * rule id of every game (rpl_coverage_id()).  Seeded bots play games
 * through the recorder, as camelog simulate does, cycling through the
 * rules lines each game proposes (rpl_coverage_rules()) and both bot
 * kinds; a game is kept only when it exercises an id that fewer than K
 * kept games exercise, until every reachable id has K games or the
 * budget of games played runs out.  The kept games go into the
 * directory with manifest.json and manifest.txt: for each file its
 * seed, rules, bot, outcome, ids and the digest of the public state
 * after every line; for the corpus the coverage table.
 *
 * Derivation (camelog-corpus(1)): root = BLAKE2b-256("camelog corpus
 * seed" || seed); the dealer key's seed is BLAKE2b(key = root, "camelog
 * corpus dealer"); candidate c of game G gets value(label) = BLAKE2b(key =
 * root, "camelog corpus " || label || " " || G || " " || c), 16 bytes for
 * the id and 32 for "secret" and "bots".  No clock and no random number
 * is read: the same arguments write byte-identical corpora.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog corpus [-q] [-f] [-k n] [--max-games n] [--seed hex]\n"
    "                      [--game name] [-j n] -o dir\n";

static const char options[] =
    "options:\n"
    "  -k, --min n        games that must exercise each id (default 3)\n"
    "  --max-games n      games played at most, per game (default 10000)\n"
    "  --seed hex         seed of the corpus (default: none, the fixed "
    "corpus)\n"
    "  --game name        only this game (default: every game)\n"
    "  -j, --jobs n       play n candidates at a time (default: the cores\n"
    "                     online); the corpus is the same for every n\n"
    "  -f, --force        overwrite existing files\n"
    "  -q, --quiet        no progress\n"
    "  -o, --output dir   the directory of the corpus\n"
    "  -h, --help         this help\n";

/* Seats take the library's default names, in seat order. */
#define MAX_PLAYERS RPL_SEATS_MAX
#define MAX_MOVES   100000u

/* Every ABANDON_EVERY-th candidate is abandoned (rpl_rec_abort()) after
 * 1 to ABANDON_AFTER actions drawn from its seed, unless it ends first:
 * the corpus's games that no bot would end. */
#define ABANDON_EVERY 8u
#define ABANDON_AFTER 100u

struct corpus {
    uint8_t root[32];
    const char *seed_hex; /* as given, "" for none */
    size_t k;
    size_t max_games;
    size_t jobs;
    bool force;
    bool quiet;
    const char *dir;
    struct rpl_seckey *dealer;
    struct cli_coverage *cov;
    json_t *files; /* the manifest's array of files */
    FILE *txt;     /* manifest.txt, being written (txt_file.fp) */
    struct cli_wfile txt_file;
};

/* How the seats of a candidate choose: each pass over the rules lines
 * has its own; in the mixed pass, action m is the plausible bot's or
 * the random bot's by bit m mod 256 of the candidate's "mix" value, so
 * that plausible games end in decisions only a random seat makes. */
enum pass { PASS_PLAUSIBLE, PASS_RANDOM, PASS_MIXED, NPASS };

static const char *const pass_names[NPASS] = {"plausible", "random", "mixed"};

/* One game played. */
struct played {
    struct rpl_log *log;
    uint64_t bits[RPL_COVERAGE_WORDS];
    char secret_hex[65];
    const char *rules;
    enum pass pass;
    size_t abandon_after; /* actions before rpl_rec_abort(), 0: never */
    char winner[16];
    char reason[16];
    struct rpl_ctx *ctx; /* the log's */
};

static void
derive(const struct corpus *c, const char *label, const char *game, size_t cand,
       uint8_t *out, size_t out_len)
{
    char msg[160];
    const int n = snprintf(msg, sizeof(msg), "camelog corpus %s %s %zu", label,
                           game, cand);

    crypto_generichash(out, out_len, (const unsigned char *)msg, (size_t)n,
                       c->root, sizeof(c->root));
}

/* The number of seats a rules line declares ("players=N ..."). */
static size_t
players_of(const char *rules)
{
    const char *p = strstr(rules, "players=");
    size_t n = 0;

    if (!p)
        return 0;
    for (p += 8; *p >= '0' && *p <= '9' && n < 100; p++)
        n = n * 10 + (size_t)(*p - '0');
    return n;
}

/* The bot of action m (1-based) in pass p. */
static enum rpl_bot
bot_of(enum pass p, const uint8_t mix[32], size_t m)
{
    const size_t bit = m % 256;

    if (p == PASS_MIXED)
        p = (mix[bit / 8] >> (bit % 8)) & 1 ? PASS_RANDOM : PASS_PLAUSIBLE;
    return p == PASS_RANDOM ? RPL_BOT_RANDOM : RPL_BOT_PLAUSIBLE;
}

/* Plays candidate cand of game with rules and bot into g->log. */
static int
play(const struct corpus *c, struct rpl_ctx *ctx, const char *game, size_t cand,
     struct played *g)
{
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_report rep;
    struct rpl_verify_opts vopts;
    struct rpl_walk_opts walk = {0};
    struct rpl_pubkey pub;
    struct rpl_error err;
    enum rpl_status st;
    uint8_t id[16], secret[32], bots[32], mix[32];
    size_t moves = 0, turn;
    const size_t seats = players_of(g->rules);

    if (seats == 0 || seats > MAX_PLAYERS) {
        cli_msg("%s: rules line without a seat count: %s", game, g->rules);
        return CLI_EXIT_USAGE;
    }
    derive(c, "id", game, cand, id, sizeof(id));
    derive(c, "secret", game, cand, secret, sizeof(secret));
    derive(c, "bots", game, cand, bots, sizeof(bots));
    derive(c, "mix", game, cand, mix, sizeof(mix));
    if (cand % ABANDON_EVERY == 0) {
        uint8_t b[4];

        derive(c, "abandon", game, cand, b, sizeof(b));
        g->abandon_after = 1 + (((size_t)b[0] | (size_t)b[1] << 8 |
                                 (size_t)b[2] << 16 | (size_t)b[3] << 24) %
                                ABANDON_AFTER);
    }
    cli_hex(secret, sizeof(secret), g->secret_hex);
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = game;
    cfg.rules = g->rules;
    cfg.seats = seats;
    cfg.names = rpl_seat_default_names();
    cfg.dealer = c->dealer;
    cfg.id = id;
    cfg.secret = secret;
    g->ctx = ctx;
    st = rpl_rec_new(ctx, &rec, &cfg, &err);
    if (st == RPL_OK)
        st = rpl_rec_start(rec, &err);
    while (st == RPL_OK && (turn = rpl_rec_dealer_turn(rec)) != 0) {
        if (++moves > MAX_MOVES || turn > seats) {
            cli_msg("%s %zu: the bots did not finish the game", game, cand);
            rpl_rec_free(rec);
            return CLI_EXIT_USAGE;
        }
        if (moves == g->abandon_after) {
            st = rpl_rec_abort(rec, &err);
            break;
        }
        st = rpl_rec_bot(rec, bot_of(g->pass, mix, moves), bots, NULL, &err);
    }
    if (st == RPL_OK)
        st = rpl_rec_reveal(rec, &err);
    if (st == RPL_OK)
        st = rpl_rec_log(rec, &g->log, &err);
    rpl_rec_free(rec);
    if (st != RPL_OK) {
        cli_msg("%s %zu: %s", game, cand, cli_error_text(st, &err));
        return cli_exit_status(st);
    }
    rpl_seckey_pubkey(c->dealer, &pub);
    memset(&vopts, 0, sizeof(vopts));
    vopts.pubkey = &pub;
    walk.bits = g->bits;
    st = rpl_log_verify_walk(g->log, &vopts, &walk, &rep);
    if (st == RPL_OK) {
        snprintf(g->winner, sizeof(g->winner), "%s", rep.winner);
        snprintf(g->reason, sizeof(g->reason), "%s", rep.reason);
    } else {
        err = rep.error;
    }
    if (st != RPL_OK) {
        cli_msg("%s %zu: %s", game, cand, cli_error_text(st, &err));
        return cli_exit_status(st);
    }
    return CLI_EXIT_OK;
}

/* BLAKE2b-256 over the public state after line no, as camelog export
 * prints it: the object in its JSON text, compact. */
static int
step_digest(struct rpl_ctx *ctx, struct rpl_log *log, size_t no, char hex[65])
{
    struct rpl_error err;
    char *text = NULL;
    enum rpl_status st = rpl_log_seek(log, no, &err);
    uint8_t d[32];
    json_t *v;
    char *s;

    if (st == RPL_OK)
        st = rpl_log_view_json(log, RPL_VIEW_PUBLIC, &text, &err);
    if (st != RPL_OK) {
        cli_msg("line %zu: %s", no, cli_error_text(st, &err));
        return cli_exit_status(st);
    }
    v = cli_json_parse(text);
    rpl_free(ctx, text);
    s = v ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    json_decref(v);
    if (!s) {
        cli_msg("line %zu: cannot encode the state", no);
        return CLI_EXIT_USAGE;
    }
    crypto_generichash(d, sizeof(d), (const unsigned char *)s, strlen(s), NULL,
                       0);
    free(s);
    cli_hex(d, sizeof(d), hex);
    return CLI_EXIT_OK;
}

/* Writes a kept game and its manifest entry. */
static int
keep(struct corpus *c, const char *game, size_t cand, size_t kept,
     struct played *g)
{
    struct rpl_error err;
    char name[64], path[4096], hex[65];
    json_t *o = json_object(), *ids = json_array(), *dig = json_array();
    const size_t n = rpl_log_lines(g->log);
    const char *first;
    size_t len = 0;
    bool ok = o && ids && dig;
    int rc = CLI_EXIT_OK;
    enum rpl_status st;

    snprintf(name, sizeof(name), "%s-%04zu.camelog", game, kept);
    snprintf(path, sizeof(path), "%s/%s", c->dir, name);
    st = rpl_log_write(g->log, path, c->force, &err);
    if (st != RPL_OK) {
        json_decref(o);
        json_decref(ids);
        json_decref(dig);
        return cli_file_error(path, st, &err);
    }
    for (size_t i = 0; i < rpl_coverage_count(game); i++)
        if (cli_coverage_has(g->bits, i))
            ok &= json_array_append_new(
                      ids, cli_json_str(rpl_coverage_id(game, i)->id)) == 0;
    for (size_t no = 1; rc == CLI_EXIT_OK && no <= n; no++) {
        rc = step_digest(g->ctx, g->log, no, hex);
        if (rc == CLI_EXIT_OK)
            ok &= json_array_append_new(dig, cli_json_str(hex)) == 0;
    }
    first = rpl_log_line(g->log, 1, &len);
    ok &= cli_json_set(o, "file", cli_json_str(name));
    ok &= cli_json_set(o, "game", cli_json_str(game));
    ok &= cli_json_set(o, "candidate", cli_json_size(cand));
    ok &= cli_json_set(o, "secret", cli_json_str(g->secret_hex));
    ok &= cli_json_set(o, "rules", cli_json_str(g->rules));
    ok &= cli_json_set(o, "bot", cli_json_str(pass_names[g->pass]));
    ok &= cli_json_set(o, "winner", cli_json_str(g->winner));
    ok &= cli_json_set(o, "reason", cli_json_str(g->reason));
    ok &= cli_json_set(o, "lines", cli_json_size(n));
    ok &= cli_json_set(o, "format",
                       first ? json_stringn(first, len) : json_null());
    ok &= cli_json_set(o, "ids", ids);
    ok &= cli_json_set(o, "digests", dig);
    if (rc == CLI_EXIT_OK && ok) {
        fprintf(c->txt, "%s\t%s\t%zu\t%s\t%s\t%s\t%s\t%zu ids\n", name, game,
                cand, pass_names[g->pass], g->winner[0] ? g->winner : "-",
                g->reason[0] ? g->reason : "-", g->rules,
                json_array_size(json_object_get(o, "ids")));
        ok &= json_array_append(c->files, o) == 0;
    }
    json_decref(o);
    if (rc == CLI_EXIT_OK && !ok) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
    }
    return rc;
}

/* Whether the game exercises an id that fewer than k kept games do. */
static bool
is_useful(const struct corpus *c, size_t gi, const char *game,
          const uint64_t *bits)
{
    for (size_t i = 0; i < rpl_coverage_count(game); i++)
        if (cli_coverage_has(bits, i) && c->cov->count[gi][i] < c->k)
            return true;
    return false;
}

/* Whether every reachable id of the game has k kept games. */
static bool
is_done(const struct corpus *c, size_t gi, const char *game)
{
    for (size_t i = 0; i < rpl_coverage_count(game); i++)
        if (!rpl_coverage_id(game, i)->unreachable &&
            c->cov->count[gi][i] < c->k)
            return false;
    return true;
}

/* The candidates of one game, for the pool. */
struct run {
    const struct corpus *c;
    const char *game;
    size_t nrules;
};

/* Plays candidate index + 1 (a job of the pool, in any thread). */
static int
play_job(void *ud, struct rpl_ctx *ctx, size_t index, void *data)
{
    const struct run *r = ud;
    struct played *g = data;
    const size_t cand = index + 1;

    g->rules = rpl_coverage_rules(r->game, index % r->nrules);
    g->pass = (enum pass)((index / r->nrules) % NPASS);
    return play(r->c, ctx, r->game, cand, g);
}

static void
drop_job(void *data)
{
    struct played *g = data;

    rpl_log_free(g->log);
    g->log = NULL;
}

/* Candidates are played in parallel, ahead of the decisions, and kept
 * or not in their order: the corpus is the same for every -j. */
static int
run_game(struct corpus *c, size_t gi)
{
    struct run r = {.c = c, .game = rpl_game_info(gi)->name};
    size_t kept = 0, cand;
    struct cli_progress prog;
    struct cli_pool *pool = NULL;
    int rc;

    while (rpl_coverage_rules(r.game, r.nrules))
        r.nrules++;
    if (r.nrules == 0 || rpl_coverage_count(r.game) == 0)
        return CLI_EXIT_OK;
    rc = cli_pool_start(&pool, c->max_games, c->jobs, 4 * c->jobs,
                        sizeof(struct played), play_job, &r);
    if (rc != CLI_EXIT_OK)
        return rc;
    cli_pool_on_drop(pool, drop_job);
    cli_progress_start(&prog, "games", c->max_games, c->quiet);
    for (cand = 1;
         rc == CLI_EXIT_OK && cand <= c->max_games && !is_done(c, gi, r.game);
         cand++) {
        int job_rc;
        struct played *g = cli_pool_wait(pool, cand - 1, false, &job_rc);

        rc = job_rc;
        if (rc == CLI_EXIT_OK && is_useful(c, gi, r.game, g->bits)) {
            rc = keep(c, r.game, cand, ++kept, g);
            cli_coverage_add(c->cov, r.game, g->bits);
        }
        drop_job(g);
        cli_pool_release(pool, cand);
        cli_progress_update(&prog, cand);
    }
    cli_progress_end(&prog);
    cli_pool_free(pool);
    if (rc == CLI_EXIT_OK && !c->quiet)
        cli_msg("%s: %zu games played, %zu kept%s", r.game, cand - 1, kept,
                is_done(c, gi, r.game) ? "" : " (budget spent)");
    return rc;
}

/* manifest.json: versions, arguments, files and the coverage table. */
static int
write_json(const struct corpus *c, const char *path)
{
    json_t *doc = json_object(), *tables = json_array();
    bool ok = doc && tables;
    int rc = CLI_EXIT_OK;

    for (size_t g = 0; g < rpl_game_count() && g < CLI_COV_GAMES; g++)
        if (c->cov->games[g] > 0)
            ok &= json_array_append_new(tables, cli_coverage_json(c->cov, g)) ==
                  0;
    ok &= cli_json_set(doc, "camelog", cli_json_str(rpl_version()));
    ok &= cli_json_set(doc, "seed", cli_json_str(c->seed_hex));
    ok &= cli_json_set(doc, "k", cli_json_size(c->k));
    ok &= cli_json_set(doc, "max_games", cli_json_size(c->max_games));
    ok &= cli_json_set(doc, "digest",
                       cli_json_str("blake2b-256 of the public state, "
                                    "compact JSON as camelog export prints "
                                    "it"));
    ok &= cli_json_set(doc, "files", json_incref(c->files));
    ok &= cli_json_set(doc, "coverage", tables);
    char *text = ok ? json_dumps(doc, JSON_INDENT(1)) : NULL;

    if (!text) {
        cli_file_msg(path, 0, "cannot write the manifest");
        rc = CLI_EXIT_USAGE;
    } else {
        rc = cli_write_file(path, text, strlen(text), 0644, c->force);
    }
    free(text);
    json_decref(doc);
    return rc;
}

static bool
exists(const char *dir, const char *name)
{
    char path[4096];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

int
cmd_corpus(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"min", required_argument, NULL, 'k'},
        {"max-games", required_argument, NULL, 'm'},
        {"seed", required_argument, NULL, 's'},
        {"game", required_argument, NULL, 'g'},
        {"jobs", required_argument, NULL, 'j'},
        {"force", no_argument, NULL, 'f'},
        {"quiet", no_argument, NULL, 'q'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    static const char tag[] = "camelog corpus seed";
    static const char dealer_label[] = "camelog corpus dealer";
    struct corpus c;
    struct rpl_ctx *ctx = NULL;
    struct rpl_error err;
    enum rpl_status st;
    const char *game = NULL;
    uint8_t seed[64], dseed[32];
    size_t seed_len = 0;
    char path[4096];
    crypto_generichash_state h;
    int ch, rc;

    memset(&c, 0, sizeof(c));
    c.k = 3;
    c.max_games = 10000;
    c.jobs = cli_jobs_default();
    c.seed_hex = "";
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":k:fqo:j:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'k':
            if (!cli_parse_size(optarg, &c.k) || c.k == 0 || c.k > 1000000) {
                return cli_usage_error("corpus", "-k needs a positive number");
            }
            break;
        case 'm':
            if (!cli_parse_size(optarg, &c.max_games) || c.max_games == 0) {
                return cli_usage_error("corpus",
                                       "--max-games needs a positive number");
            }
            break;
        case 's':
            if (!cli_parse_hex(optarg, seed, sizeof(seed), &seed_len)) {
                return cli_usage_error("corpus",
                                       "--seed needs 2 to 128 hex digits (an "
                                       "even number)");
            }
            c.seed_hex = optarg;
            break;
        case 'g':
            game = optarg;
            break;
        case 'j':
            rc = cli_parse_jobs("corpus", optarg, &c.jobs);
            if (rc != CLI_EXIT_OK) {
                return rc;
            }
            break;
        case 'f':
            c.force = true;
            break;
        case 'q':
            c.quiet = true;
            break;
        case 'o':
            c.dir = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("corpus", ch, argv);
        }
    }
    if (optind < argc) {
        return cli_usage_error("corpus", "unexpected argument '%s'",
                               argv[optind]);
    }
    if (!c.dir) {
        return cli_usage_error("corpus", "no output directory (-o)");
    }
    if (game && rpl_coverage_count(game) == 0) {
        char names[128];

        cli_game_names(names, sizeof(names), ", ", " or ");
        return cli_usage_error("corpus", "--game is %s, not '%s'", names, game);
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    rc = cli_make_dir(c.dir);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (!c.force &&
        (exists(c.dir, "manifest.json") || exists(c.dir, "manifest.txt"))) {
        cli_file_msg(c.dir, 0, "holds a manifest; --force overwrites it");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    crypto_generichash_init(&h, NULL, 0, sizeof(c.root));
    crypto_generichash_update(&h, (const unsigned char *)tag, sizeof(tag) - 1);
    crypto_generichash_update(&h, seed, seed_len);
    crypto_generichash_final(&h, c.root, sizeof(c.root));
    crypto_generichash(dseed, sizeof(dseed),
                       (const unsigned char *)dealer_label,
                       sizeof(dealer_label) - 1, c.root, sizeof(c.root));
    st = rpl_seckey_from_seed(ctx, &c.dealer, dseed, &err);
    sodium_memzero(dseed, sizeof(dseed));
    if (st != RPL_OK) {
        rc = cli_file_error(NULL, st, &err);
        goto out;
    }
    c.cov = calloc(1, sizeof(*c.cov));
    c.files = json_array();
    snprintf(path, sizeof(path), "%s/manifest.txt", c.dir);
    if (!c.cov || !c.files) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    rc = cli_wfile_open(&c.txt_file, path);
    if (rc != CLI_EXIT_OK)
        goto out;
    c.txt = c.txt_file.fp;
    fprintf(c.txt, "camelog corpus %s, seed \"%s\", k %zu, max-games %zu\n",
            rpl_version(), c.seed_hex, c.k, c.max_games);
    fprintf(c.txt, "file\tgame\tcandidate\tbot\twinner\treason\trules\tids\n");
    for (size_t g = 0;
         rc == CLI_EXIT_OK && g < rpl_game_count() && g < CLI_COV_GAMES; g++) {
        if (!game || strcmp(game, rpl_game_info(g)->name) == 0) {
            rc = run_game(&c, g);
        }
    }
    if (rc == CLI_EXIT_OK) {
        cli_coverage_print(c.cov, c.txt);
        snprintf(path, sizeof(path), "%s/manifest.json", c.dir);
        rc = write_json(&c, path);
    }
    if (rc == CLI_EXIT_OK) {
        rc = cli_wfile_commit(&c.txt_file, 0644, c.force);
    } else {
        cli_wfile_drop(&c.txt_file);
    }
    c.txt = NULL;
    if (rc == CLI_EXIT_OK) {
        size_t files = json_array_size(c.files);

        printf("%s: %zu %s\n", c.dir, files, files == 1 ? "game" : "games");
    }
    rc = cli_finish(rc);
out:
    json_decref(c.files);
    free(c.cov);
    rpl_seckey_free(c.dealer);
    rpl_ctx_free(ctx);
    sodium_memzero(c.root, sizeof(c.root));
    return rc;
}
