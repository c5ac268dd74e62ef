/*
 * bench.c - `make bench`: the figures of BENCHMARKS.md, measured on this
 * machine, each printed with its method.  A benchmark, not a test: it
 * asserts nothing about speed; it prints what it measured.
 *
 * usage: bench CAMELOG [SCALE]   (CAMELOG: the built tool; SCALE 1 is the
 * full run, smaller for a quick look)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "floor.h"
#include "replay.h"

/* A spread of Avalon configurations, all 5-10 players. */
static const char *const RULES[] = {
    "players=5 roles=merlin,servant,servant,assassin,minion lady=off "
    "targeting=off",
    "players=6 roles=merlin,percival,servant,servant,assassin,morgana "
    "lady=off targeting=on",
    "players=7 roles=merlin,percival,servant,servant,assassin,morgana,mordred "
    "lady=on targeting=off",
    "players=8 roles=merlin,percival,servant,servant,servant,assassin,"
    "morgana,oberon lady=on targeting=off",
    "players=9 roles=merlin,percival,servant,servant,servant,servant,"
    "assassin,morgana,mordred lady=on targeting=on",
    "players=10 roles=merlin,percival,servant,servant,servant,servant,"
    "assassin,morgana,mordred,oberon lady=on targeting=off",
};
static const size_t RULES_SEATS[] = {5, 6, 7, 8, 9, 10};
#define NRULES (sizeof(RULES) / sizeof(RULES[0]))

static const char *const SOC_RULES[] = {
    "players=3 traitor=on brave=on",  "players=4 traitor=on brave=off",
    "players=5 traitor=on brave=off", "players=6 traitor=on brave=off",
    "players=7 traitor=on brave=off",
};
static const size_t SOC_SEATS[] = {3, 4, 5, 6, 7};
#define NSOC (sizeof(SOC_RULES) / sizeof(SOC_RULES[0]))

/* verify against its floor: rounds over the files, each in batches. */
#define PAIR_ROUNDS 3
#define PAIR_BATCHES 10
#define PAIRS (PAIR_ROUNDS * PAIR_BATCHES)
/* -j 2 against -j 1: back-to-back pairs of runs. */
#define JOB_PAIRS 5

static double
now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this process: the figures of one thread are measured
 * with it, so that other work on a shared machine does not count. */
static double
cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
die(const char *what, const struct rpl_error *err)
{
    fprintf(stderr, "bench: %s: %s (line %zu)\n", what, err ? err->msg : "",
            err ? err->line : 0);
    exit(2);
}

/* Records game g of a game with the given rules line and the plausible
 * bots; returns its log. */
static struct rpl_log *
record_rules(struct rpl_ctx *ctx, const struct rpl_seckey *dealer,
             const char *name, const char *rules, size_t seats, size_t g)
{
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t bot[32] = {0};

    memset(&cfg, 0, sizeof(cfg));
    cfg.game = name;
    cfg.rules = rules;
    cfg.seats = seats;
    cfg.names = rpl_seat_default_names();
    cfg.dealer = dealer;
    for (size_t i = 0; i < 8; i++)
        bot[i] = (uint8_t)(g >> (8 * i));
    if (rpl_rec_new(ctx, &rec, &cfg, &err) != RPL_OK ||
        rpl_rec_start(rec, &err) != RPL_OK)
        die("record", &err);
    while (rpl_rec_dealer_turn(rec) != 0)
        if (rpl_rec_bot(rec, RPL_BOT_PLAUSIBLE, bot, NULL, &err) != RPL_OK)
            die("bot", &err);
    if (rpl_rec_reveal(rec, &err) != RPL_OK ||
        rpl_rec_log(rec, &log, &err) != RPL_OK)
        die("reveal", &err);
    rpl_rec_free(rec);
    return log;
}

/* Records game g of a game (config g mod the number of configurations)
 * with the plausible bots; returns its log. */
static struct rpl_log *
record(struct rpl_ctx *ctx, const struct rpl_seckey *dealer, const char *name,
       size_t g)
{
    const bool soc = strcmp(name, "soc") == 0;

    return record_rules(ctx, dealer, name,
                        soc ? SOC_RULES[g % NSOC] : RULES[g % NRULES],
                        soc ? SOC_SEATS[g % NSOC] : RULES_SEATS[g % NRULES], g);
}

/* Records game g of Shadows over Camelot with the plausible bots, its
 * dealer secret and id drawn from g, so that the figures below are the
 * same on every run. */
static struct rpl_log *
record_soc_seeded(struct rpl_ctx *ctx, const struct rpl_seckey *dealer,
                  const char *rules, size_t seats, size_t g)
{
    struct rpl_rec_config cfg;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    uint8_t bot[32] = {0}, secret[32], id[16] = {0};

    memset(&cfg, 0, sizeof(cfg));
    memset(secret, 0x5a, sizeof(secret));
    for (size_t i = 0; i < 8; i++)
        secret[i] = id[i] = bot[i] = (uint8_t)(g >> (8 * i));
    cfg.game = "soc";
    cfg.rules = rules;
    cfg.seats = seats;
    cfg.names = rpl_seat_default_names();
    cfg.dealer = dealer;
    cfg.secret = secret;
    cfg.id = id;
    if (rpl_rec_new(ctx, &rec, &cfg, &err) != RPL_OK ||
        rpl_rec_start(rec, &err) != RPL_OK)
        die("record", &err);
    while (rpl_rec_dealer_turn(rec) != 0)
        if (rpl_rec_bot(rec, RPL_BOT_PLAUSIBLE, bot, NULL, &err) != RPL_OK)
            die("bot", &err);
    if (rpl_rec_reveal(rec, &err) != RPL_OK ||
        rpl_rec_log(rec, &log, &err) != RPL_OK)
        die("reveal", &err);
    rpl_rec_free(rec);
    return log;
}

/* The seat dealt the traitor card in a complete log, 0 for none: the
 * log verified, then its view of everything. */
static unsigned
soc_traitor_seat(struct rpl_ctx *ctx, struct rpl_log *log)
{
    static const char key[] = "\"loyalty\":\"traitor\",\"seat\":";
    struct rpl_report rep;
    char *json = NULL;
    const char *at;
    unsigned seat = 0;

    if (rpl_log_verify(log, NULL, &rep) != RPL_OK)
        die("verify", &rep.error);
    if (rpl_log_view_json(log, RPL_VIEW_ALL, &json, NULL) != RPL_OK)
        die("view", NULL);
    at = strstr(json, key);
    if (at)
        seat = (unsigned)atoi(at + strlen(key));
    rpl_free(ctx, json);
    return seat;
}

/* The white cards and the knights' powers that need a decision, as
 * lines show them: a card played, healed with, fought a siege with or
 * added by Sir Kay; King Arthur's exchange, Sir Kay's card, Sir
 * Percival's look, Sir Gawain's draw, Sir Galahad's special card, the
 * relics (Lancelot's Armor, the Grail's rescue, Excalibur's cancel). */
static const char *const SOC_USES[] = {
    "fight_1", "fight_2", "fight_3", "fight_4", "fight_5",
    "grail", "merlin", "convocation", "fate", "heroism",
    "lady_of_the_lake", "messenger", "piety", "clairvoyance",
    "reinforcements", "arthur's exchange", "kay's card", "percival's look",
    "gawain's draw", "galahad's special card", "the armor", "the grail's rescue",
    "excalibur's cancel",
};
#define NSOC_USES (sizeof(SOC_USES) / sizeof(SOC_USES[0]))
#define SOC_CARD_USES 15

/* The uses of the line: card tokens in it after a keyword that plays
 * white cards, and the powers by keyword; knights[K] is p<K>'s. */
static void
soc_uses(const char *line, size_t len, char knights[][16], size_t *used)
{
    static const char *const plays[] = {"play ", "special ", "heal ",
                                        "siege ", "kay "};
    char buf[320];
    unsigned seat = 0;
    const char *name = "";

    if (len >= sizeof(buf))
        return;
    memcpy(buf, line, len);
    buf[len] = '\0';
    if (strncmp(buf, "start knights=", 14) == 0) {
        const char *q = buf + 14;

        for (unsigned k = 1; k <= 7 && *q && *q != ' '; k++) {
            size_t j = 0;

            while (*q && *q != ',' && *q != ' ' && j < 15)
                knights[k][j++] = *q++;
            knights[k][j] = '\0';
            if (*q == ',')
                q++;
        }
        return;
    }
    if (sscanf(buf, "%*s p%u", &seat) == 1 && seat >= 1 && seat <= 7)
        name = knights[seat];
    for (size_t i = 0; i < sizeof(plays) / sizeof(plays[0]); i++) {
        const size_t n = strlen(plays[i]);

        if (strncmp(buf, plays[i], n) != 0)
            continue;
        for (size_t c = 0; c < SOC_CARD_USES; c++) {
            const char *at = strstr(buf + n, SOC_USES[c]);
            const size_t cl = strlen(SOC_USES[c]);

            if (at && at[-1] == ' ' &&
                (at[cl] == '\0' || at[cl] == ' ' || at[cl] == ','))
                used[c]++;
        }
    }
    if (strncmp(buf, "swap ", 5) == 0 && strcmp(name, "arthur") == 0)
        used[15]++;
    if (strncmp(buf, "kay ", 4) == 0)
        used[16]++;
    if (strncmp(buf, "look ", 5) == 0)
        used[17]++;
    if (strncmp(buf, "draw ", 5) == 0 && strcmp(name, "gawain") == 0)
        used[18]++;
    if (strncmp(buf, "special ", 8) == 0 && strcmp(name, "galahad") == 0)
        used[19]++;
    if (strncmp(buf, "keep ", 5) == 0)
        used[20]++;
    if (strncmp(buf, "save ", 5) == 0)
        used[21]++;
    if (strncmp(buf, "cancel ", 7) == 0 && strstr(buf, " excalibur"))
        used[22]++;
}

/* How the plausible players of Shadows over Camelot fare at each table
 * size with the default rules line of camelog simulate (the figures of
 * camelog-simulate(1)), each game seeded by its number: the knights'
 * wins, in all games and in those where the traitor card was dealt;
 * the loyal knights' accusations whose accused showed the traitor card
 * against those that showed a loyal one, and the traitor's own (which
 * he makes only to win at once); then what of the white cards and the
 * knights' powers the first 200 games of each size never used. */
static void
bench_soc_play(struct rpl_ctx *ctx, const struct rpl_seckey *dealer,
               double scale)
{
    const size_t games = (size_t)(1000 * scale) + 10;
    const size_t sample = games < 200 ? games : 200;
    size_t used[NSOC_USES] = {0};
    bool none = true;

    printf("plausible players (Shadows over Camelot), %zu games a table "
           "(seeded), the default rules line (own=on; the Three Brave "
           "Knights at 3):\n",
           games);
    for (size_t n = 3; n <= 7; n++) {
        char rules[64];
        size_t knights = 0, dealt = 0, dealt_won = 0;
        size_t right = 0, wrong = 0, traitor_acc = 0;

        snprintf(rules, sizeof(rules), "players=%zu traitor=on brave=%s own=on",
                 n, n == 3 ? "on" : "off");
        for (size_t g = 0; g < games; g++) {
            struct rpl_log *log =
                record_soc_seeded(ctx, dealer, rules, n, 1000000 + g);
            size_t len = 0;
            const char *line = rpl_log_text(log, &len);
            const unsigned traitor = soc_traitor_seat(ctx, log);
            char names[8][16] = {{0}};
            unsigned accuser = 0;
            bool won = false;

            while (line && *line) {
                const char *end = strchr(line, '\n');
                const size_t ll = end ? (size_t)(end - line) : strlen(line);

                if (strncmp(line, "end knights ", 12) == 0)
                    won = true;
                if (accuser && strncmp(line, "shows ", 6) == 0) {
                    const char *sp = strchr(line + 6, ' ');

                    if (accuser == traitor)
                        traitor_acc++;
                    else if (sp && strncmp(sp, " traitor", 8) == 0)
                        right++;
                    else
                        wrong++;
                }
                accuser = 0;
                if (strncmp(line, "accuse p", 8) == 0)
                    accuser = (unsigned)atoi(line + 8);
                if (g < sample)
                    soc_uses(line, ll, names, used);
                line = end ? end + 1 : NULL;
            }
            knights += won;
            dealt += traitor != 0;
            dealt_won += traitor != 0 && won;
            rpl_log_free(log);
        }
        printf("  %zu players: knights win %.1f%% (%.1f%% of the %zu games "
               "with a traitor dealt); the knights' accusations right %zu, "
               "wrong %zu; the traitor's %zu\n",
               n, 100.0 * (double)knights / (double)games,
               dealt ? 100.0 * (double)dealt_won / (double)dealt : 0.0, dealt,
               right, wrong, traitor_acc);
    }
    printf("  never used in %zu games (%zu a table):", 5 * sample, sample);
    for (size_t i = 0; i < NSOC_USES; i++)
        if (!used[i]) {
            printf(" %s", SOC_USES[i]);
            none = false;
        }
    printf("%s\n", none ? " nothing (every white card and every knight's "
                          "power that asks a decision)"
                        : "");
}

static void
file_name(char *out, size_t cap, const char *dir, size_t g)
{
    snprintf(out, cap, "%s/game-%06zu.camelog", dir, g + 1);
}

/* Engine speed through the door the tools use (replay.h): each text, cut
 * before its reveal so that the replay keeps a public-mode state, parsed
 * and verified once, untimed; then rpl_log_seek() replays it from its
 * first line to its last, again and again, which runs every line through
 * the game's module with no crypto. */
static void
bench_engine(struct rpl_ctx *ctx, const char *label, double target,
             char **texts, size_t n)
{
    struct rpl_log **logs = calloc(n, sizeof(*logs));
    size_t applied = 0, per_pass = 0;
    double t0, t;
    unsigned rounds = 0;

    if (!logs)
        die("out of memory", NULL);
    for (size_t g = 0; g < n; g++) {
        struct rpl_report rep;
        struct rpl_error err;

        const char *reveal = strstr(texts[g], "\nreveal ");
        const size_t len =
            reveal ? (size_t)(reveal - texts[g]) + 1 : strlen(texts[g]);

        if (rpl_log_parse(ctx, &logs[g], texts[g], len, false, &err) !=
            RPL_OK)
            die("parse", &err);
        if (rpl_log_verify(logs[g], NULL, &rep) != RPL_OK)
            die("verify", &rep.error);
        per_pass += rpl_log_lines(logs[g]);
    }
    t0 = cpu_now();
    do {
        for (size_t g = 0; g < n; g++) {
            struct rpl_error err;

            if (rpl_log_seek(logs[g], 0, &err) != RPL_OK ||
                rpl_log_seek(logs[g], rpl_log_lines(logs[g]), &err) != RPL_OK)
                die("seek", &err);
        }
        applied += per_pass;
        rounds++;
        t = cpu_now() - t0;
    } while (t < 1.0);
    printf("engine (%s): %.0f entries replayed per second [target %.1f "
           "million: %s] (%zu lines of %zu games x %u passes in %.2f CPU "
           "s: rpl_log_seek() from the first line to the last of a "
           "verified log cut before its reveal, a public-mode state, no "
           "crypto)\n",
           label, (double)applied / t, target / 1e6,
           (double)applied / t >= target ? "met" : "not met", per_pass, n,
           rounds, t);
    for (size_t g = 0; g < n; g++)
        rpl_log_free(logs[g]);
    free(logs);
}

static double
verify_files(struct rpl_ctx *ctx, const char *dir, size_t from, size_t to,
             size_t stride)
{
    char path[512];
    const double t0 = cpu_now();

    for (size_t g = from; g < to; g += stride) {
        struct rpl_log *log = NULL;
        struct rpl_report rep;
        struct rpl_error err;

        file_name(path, sizeof(path), dir, g);
        if (rpl_log_read(ctx, &log, path, &err) != RPL_OK)
            die(path, &err);
        if (rpl_log_verify(log, NULL, &rep) != RPL_OK ||
            rep.progress != RPL_PROGRESS_COMPLETE)
            die(path, &rep.error);
        rpl_log_free(log);
    }
    return cpu_now() - t0;
}

/* The floor over files [from, to): CPU seconds; *seals adds the seals
 * checked. */
static double
floor_files(struct rpl_ctx *ctx, const char *dir, size_t from, size_t to,
            const struct rpl_pubkey *pk, size_t *seals)
{
    char path[512];
    const double t0 = cpu_now();

    for (size_t g = from; g < to; g++) {
        size_t k = 0;

        file_name(path, sizeof(path), dir, g);
        if (!bench_floor_check(ctx, path, pk, &k))
            die("floor", NULL);
        *seals += k;
    }
    return cpu_now() - t0;
}

/* The full floor over files [from, to): CPU seconds; *commits adds the
 * commitments checked. */
static double
full_floor_files(struct rpl_ctx *ctx, const char *dir, size_t from, size_t to,
                 const struct rpl_pubkey *pk, size_t *commits)
{
    char path[512];
    const double t0 = cpu_now();

    for (size_t g = from; g < to; g++) {
        size_t k = 0, c = 0;

        file_name(path, sizeof(path), dir, g);
        if (!bench_floor_full(ctx, path, pk, &k, &c))
            die("full floor", NULL);
        *commits += c;
    }
    return cpu_now() - t0;
}

static int
cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* The median of n sorted values. */
static double
median(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Where archive add's time goes, in this process on one thread: files
 * [0, n) read, verified and made into entries in one pass (index rows
 * and the file, rpl_archive_entry_verify()), stored 32 to a call and
 * committed 256 to a batch, as `camelog archive add -j 1` does; CPU
 * time of each part, per game. */
static void
archive_parts(struct rpl_ctx *ctx, const char *dir, size_t n)
{
    enum { BATCH = 256, RUN = 32 };
    struct rpl_log *logs[BATCH];
    struct rpl_archive_entry *entries[BATCH];
    enum rpl_archive_added what[BATCH];
    struct rpl_archive *ar = NULL;
    struct rpl_ctx *keep = NULL;
    struct rpl_error err;
    double t_read = 0, t_pass = 0, t_store = 0, t_commit = 0, t;
    char db[600], path[512];

    snprintf(db, sizeof(db), "%s/parts.db", dir);
    unlink(db);
    if (rpl_ctx_new(&keep, NULL, &err) != RPL_OK ||
        rpl_archive_open(ctx, &ar, db, RPL_ARCHIVE_CREATE, &err) != RPL_OK)
        die(db, &err);
    for (size_t from = 0; from < n; from += BATCH) {
        const size_t k = n - from < BATCH ? n - from : BATCH;

        for (size_t i = 0; i < k; i++) {
            struct rpl_report rep;

            file_name(path, sizeof(path), dir, from + i);
            t = cpu_now();
            if (rpl_log_read(ctx, &logs[i], path, &err) != RPL_OK)
                die(path, &err);
            t_read += cpu_now() - t;
            t = cpu_now();
            if (rpl_archive_entry_verify(logs[i], NULL, &rep, keep,
                                         &entries[i], &err) != RPL_OK)
                die(path, &err);
            t_pass += cpu_now() - t;
        }
        t = cpu_now();
        if (rpl_archive_begin(ar, &err) != RPL_OK)
            die(db, &err);
        for (size_t i = 0; i < k; i += RUN) {
            size_t done = 0;

            if (rpl_archive_add_entries(ar, entries + i,
                                        k - i < RUN ? k - i : RUN, what + i,
                                        &done, &err) != RPL_OK)
                die(db, &err);
        }
        t_store += cpu_now() - t;
        t = cpu_now();
        if (rpl_archive_commit(ar, &err) != RPL_OK)
            die(db, &err);
        t_commit += cpu_now() - t;
        for (size_t i = 0; i < k; i++) {
            rpl_archive_entry_free(entries[i]);
            rpl_log_free(logs[i]);
        }
    }
    rpl_archive_close(ar);
    rpl_ctx_free(keep);
    unlink(db);
    printf("archive add, where the time goes: per game, reading the file "
           "%.0f us, verify and index in one pass %.0f us (the file's own "
           "bytes stored: nothing compressed again), SQLite inserts %.0f "
           "us, commits %.0f us (%zu games, one thread, CPU time, in this "
           "process)\n",
           1e6 * t_read / (double)n, 1e6 * t_pass / (double)n,
           1e6 * t_store / (double)n, 1e6 * t_commit / (double)n, n);
}

/* `bench --rss PROGRAM ARGS...`: runs PROGRAM (output to /dev/null) and
 * prints its max RSS in KiB.  The bench re-executes itself for this so
 * that the measured process is forked from a small one: a child's
 * ru_maxrss includes the memory of the process it was forked from. */
static int
rss_main(char **argv)
{
    struct rusage ru;
    int status = 0;
    const pid_t pid = fork();

    if (pid < 0)
        return 2;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) ||
            !freopen("/dev/null", "w", stderr))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return 1;
    printf("%ld %.6f\n", ru.ru_maxrss,
           (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
               (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
    return 0;
}

/* The time the host took from this virtual machine's cores (steal, the
 * eighth figure of /proc/stat's cpu line), in seconds since boot; 0
 * where there is no such figure. */
static double
steal_now(void)
{
    FILE *f = fopen("/proc/stat", "r");
    unsigned long long v[8] = {0};
    int got = 0;

    if (f) {
        got = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
                     &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
        fclose(f);
    }
    return got == 8 ? (double)v[7] / (double)sysconf(_SC_CLK_TCK) : 0;
}

static const char *self_path;

/* CPU seconds (user + system) of the last run_rss() child. */
static double last_cpu;

/* Runs argv through `bench --rss`; returns its max RSS in KiB (-1 on
 * failure) and its wall time; last_cpu gets its CPU time. */
static long
run_rss(char *const argv[], double *secs)
{
    extern char **environ;
    posix_spawn_file_actions_t fa;
    size_t n = 0;
    char **args;
    int fds[2];
    char buf[64] = {0};
    ssize_t got;
    int status = 0;
    const double t0 = now();
    pid_t pid;

    while (argv[n])
        n++;
    args = calloc(n + 3, sizeof(*args));
    if (!args || pipe(fds) != 0)
        return -1;
    args[0] = (char *)(uintptr_t)self_path;
    args[1] = (char *)(uintptr_t) "--rss";
    memcpy(args + 2, argv, n * sizeof(*args));
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    if (posix_spawn(&pid, self_path, &fa, NULL, args, environ) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    free(args);
    close(fds[1]);
    got = pid < 0 ? -1 : read(fds[0], buf, sizeof(buf) - 1);
    close(fds[0]);
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0 || got <= 0) {
        fprintf(stderr, "bench: %s failed\n", argv[0]);
        return -1;
    }
    *secs = now() - t0;
    {
        const char *sp = strchr(buf, ' ');

        last_cpu = sp ? atof(sp + 1) : 0;
    }
    return atol(buf);
}

/* camelog verify -q -j JOBS on the first n files: max RSS. */
static long
verify_rss(const char *camelog, const char *dir, size_t n, const char *jobs,
           double *secs)
{
    char **argv = calloc(n + 6, sizeof(*argv));
    long rss;

    argv[0] = (char *)(uintptr_t)camelog;
    argv[1] = strdup("verify");
    argv[2] = strdup("-q");
    argv[3] = strdup("-j");
    argv[4] = strdup(jobs);
    for (size_t g = 0; g < n; g++) {
        argv[5 + g] = malloc(512);
        file_name(argv[5 + g], 512, dir, g);
    }
    rss = run_rss(argv, secs);
    for (size_t g = 0; g < n + 4; g++)
        free(argv[1 + g]);
    free(argv);
    return rss;
}

/* camelog archive add -q -j JOBS DB on the first n files (a fresh DB):
 * max RSS. */
static long
archive_rss(const char *camelog, const char *dir, const char *db, size_t n,
            const char *jobs, double *secs)
{
    char **argv = calloc(n + 8, sizeof(*argv));
    long rss;

    unlink(db);
    argv[0] = (char *)(uintptr_t)camelog;
    argv[1] = strdup("archive");
    argv[2] = strdup("add");
    argv[3] = strdup("-q");
    argv[4] = strdup("-j");
    argv[5] = strdup(jobs);
    argv[6] = strdup(db);
    for (size_t g = 0; g < n; g++) {
        argv[7 + g] = malloc(512);
        file_name(argv[7 + g], 512, dir, g);
    }
    rss = run_rss(argv, secs);
    for (size_t g = 0; g < n + 6; g++)
        free(argv[1 + g]);
    free(argv);
    return rss;
}

/* One run of `camelog verify` (db NULL) or of `camelog archive add` into
 * a fresh db, on the first n files with -j jobs: its wall seconds. */
static double
timed_run(const char *camelog, const char *dir, const char *db, size_t n,
          const char *jobs)
{
    double secs = 0;

    if (db)
        (void)archive_rss(camelog, dir, db, n, jobs, &secs);
    else
        (void)verify_rss(camelog, dir, n, jobs, &secs);
    return secs;
}

/* -j 2 against -j 1, wall time: JOB_PAIRS back-to-back pairs of runs (in
 * turn which goes first), as for verify and its floor; prints the median
 * of the pairs' ratios, with their range. */
static void
job_pairs(const char *what, const char *unit, const char *detail,
          const char *camelog, const char *dir, const char *db, size_t n)
{
    double sum1 = 0, sum2 = 0, r[JOB_PAIRS], m;
    const double steal0 = steal_now();

    for (size_t k = 0; k < JOB_PAIRS; k++) {
        double t1, t2 = 0;

        if (k & 1)
            t2 = timed_run(camelog, dir, db, n, "2");
        t1 = timed_run(camelog, dir, db, n, "1");
        if (!(k & 1))
            t2 = timed_run(camelog, dir, db, n, "2");
        sum1 += t1;
        sum2 += t2;
        r[k] = t1 / t2;
    }
    qsort(r, JOB_PAIRS, sizeof(r[0]), cmp_double);
    m = median(r, JOB_PAIRS);
    printf("%s -j 2: %.0f %s/s against %.0f with -j 1: %.2fx [target >= "
           "1.80x on 2 idle cores: %s] (wall time, %zu %s%s; the median of "
           "%d back-to-back pairs of runs, range %.2fx-%.2fx; %ld cores "
           "online; the host took %.2f s of the cores meanwhile)\n",
           what, (double)(n * JOB_PAIRS) / sum2, unit,
           (double)(n * JOB_PAIRS) / sum1, m, m >= 1.8 ? "met" : "not met", n,
           unit, detail, JOB_PAIRS, r[0], r[JOB_PAIRS - 1],
           sysconf(_SC_NPROCESSORS_ONLN), steal_now() - steal0);
}

/* camelog host: one 5-seat game per host process, driven through its
 * JSON Lines protocol with a journal; five proposals, each rejected by
 * all five seats (the fifth rejection ends the game), so the actions do
 * not depend on the deal.  Only the act requests are timed (not the
 * process start, `new` or `start`).  Returns the seconds; *acts counts
 * the actions. */
static double
host_games(const char *camelog, const char *dir, size_t games, bool no_fsync,
           size_t *acts)
{
    extern char **environ;
    char journal[600], secrets[620], key[600], line[65536];
    double total = 0;

    snprintf(key, sizeof(key), "%s/dealer.key", dir);
    *acts = 0;
    for (size_t g = 0; g < games; g++) {
        int to[2], from[2];
        pid_t pid;
        posix_spawn_file_actions_t fa;
        char *args[4];
        FILE *in, *out;
        size_t leader = 0, n = 0;
        double t0;
        const char *p;

        snprintf(journal, sizeof(journal), "%s/host-%zu.journal", dir, g);
        snprintf(secrets, sizeof(secrets), "%s.secrets", journal);
        args[n++] = (char *)(uintptr_t)camelog;
        args[n++] = (char *)(uintptr_t) "host";
        if (no_fsync)
            args[n++] = (char *)(uintptr_t) "--no-fsync";
        args[n] = NULL;
        if (pipe(to) != 0 || pipe(from) != 0)
            die("pipe", NULL);
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, to[0], 0);
        posix_spawn_file_actions_adddup2(&fa, from[1], 1);
        posix_spawn_file_actions_addclose(&fa, to[1]);
        posix_spawn_file_actions_addclose(&fa, from[0]);
        if (posix_spawn(&pid, camelog, &fa, NULL, args, environ) != 0)
            die("spawn camelog host", NULL);
        posix_spawn_file_actions_destroy(&fa);
        close(to[0]);
        close(from[1]);
        in = fdopen(to[1], "w");
        out = fdopen(from[0], "r");
        if (!in || !out || !fgets(line, sizeof(line), out))
            die("camelog host: no hello", NULL);
        fprintf(in,
                "{\"op\":\"new\",\"game\":\"avalon\",\"seats\":[\"Alice\","
                "\"Bob\",\"Carol\",\"Dave\",\"Erin\"],\"dealer\":\"%s\","
                "\"journal\":\"%s\"}\n{\"op\":\"start\"}\n",
                key, journal);
        fflush(in);
        if (!fgets(line, sizeof(line), out) || !strstr(line, "\"ok\":true") ||
            !fgets(line, sizeof(line), out) ||
            !(p = strstr(line, "start leader=p")))
            die("camelog host: new or start refused", NULL);
        leader = (size_t)atoi(p + strlen("start leader=p"));
        t0 = now();
        for (size_t r = 0; r < 5; r++) {
            const size_t next = leader % 5 + 1;

            fprintf(in,
                    "{\"op\":\"act\",\"seat\":\"p%zu\",\"action\":"
                    "\"propose p%zu p%zu,p%zu\"}\n",
                    leader, leader, leader < next ? leader : next,
                    leader < next ? next : leader);
            for (size_t k = 1; k <= 5; k++)
                fprintf(in,
                        "{\"op\":\"act\",\"seat\":\"p%zu\",\"action\":"
                        "\"vote p%zu no\"}\n",
                        k, k);
            fflush(in);
            for (size_t k = 0; k < 6; k++)
                if (!fgets(line, sizeof(line), out) ||
                    !strstr(line, "\"ok\":true"))
                    die("camelog host: an action was refused", NULL);
            *acts += 6;
            leader = next;
        }
        total += now() - t0;
        fclose(in);
        fclose(out);
        waitpid(pid, NULL, 0);
        unlink(journal);
        unlink(secrets);
    }
    return total;
}

static void
bench_host(const char *camelog, const char *dir,
           const struct rpl_seckey *dealer, double scale)
{
    const size_t games = (size_t)(40 * scale) + 2;
    char key[600];
    struct rpl_error err;
    size_t a1 = 0, a2 = 0;
    double t1, t2;

    snprintf(key, sizeof(key), "%s/dealer.key", dir);
    if (rpl_seckey_save(dealer, key, true, &err) != RPL_OK)
        die(key, &err);
    t1 = host_games(camelog, dir, games, false, &a1);
    t2 = host_games(camelog, dir, games, true, &a2);
    printf("host (Avalon, 5 seats): %.0f actions per second through the "
           "JSON protocol with the journal's fsync (%.2f ms per action), "
           "%.0f with --no-fsync (%.3f ms); %zu games, %zu actions each way, "
           "journal in %s\n",
           (double)a1 / t1, 1000.0 * t1 / (double)a1, (double)a2 / t2,
           1000.0 * t2 / (double)a2, games, a1, dir);
    unlink(key);
}

/* The public log of games (libreplay/tlog/): 100,000 entries of the size
 * of a start entry appended in batches of 1,000 and 1,000 more one at a
 * time (each append durable), the proofs' sizes, the time to check one
 * (of a checkpoint, from its note), and a full audit of the directory. */
static void
bench_tlog(struct rpl_ctx *ctx, const char *dir,
           const struct rpl_seckey *dealer, double scale)
{
    const size_t total = (size_t)(100000 * scale) + 1000, singles = 200;
    const size_t batch = 1000;
    char path[600], *text = NULL;
    struct rpl_tlog *t = NULL;
    struct rpl_tlog_checkpoint cp, old;
    struct rpl_tlog_proof *p = malloc(sizeof(*p));
    struct rpl_pubkey pk;
    struct rpl_error err;
    static char bufs[1000][600];
    const void *ptrs[1000];
    size_t lens[1000];
    double t0, t_batch, t_single, t_verify, t_cverify, t_audit;

    rpl_seckey_pubkey(dealer, &pk);
    snprintf(path, sizeof(path), "%s/tlog", dir);
    if (!p || rpl_tlog_create(ctx, &t, path, "bench.example/log", &err) !=
                  RPL_OK)
        die(path, &err);
    for (size_t i = 0; i < batch; i++) {
        memset(bufs[i], 'a' + (int)(i % 26), sizeof(bufs[i]));
        lens[i] = sizeof(bufs[i]);
        ptrs[i] = bufs[i];
    }
    t0 = now();
    for (size_t done = 0; done + singles < total; done += batch) {
        size_t k = total - singles - done < batch ? total - singles - done
                                                  : batch;
        for (size_t i = 0; i < k; i++)
            memcpy(bufs[i], &done, sizeof(done));
        if (rpl_tlog_append(t, ptrs, lens, k, &err) != RPL_OK)
            die("tlog append", &err);
    }
    t_batch = now() - t0;
    const uint64_t bulk = rpl_tlog_size(t);
    t0 = now();
    for (size_t i = 0; i < singles; i++) {
        if (rpl_tlog_append(t, ptrs, lens, 1, &err) != RPL_OK)
            die("tlog append", &err);
    }
    t_single = now() - t0;
    const uint64_t n = rpl_tlog_size(t);
    if (rpl_tlog_sign(t, dealer, &cp, &err) != RPL_OK)
        die("tlog sign", &err);
    /* Inclusion proofs of 1,000 entries spread over the log. */
    size_t hashes = 0, bytes = 0, worst = 0;
    t_verify = 0;
    for (size_t i = 0; i < 1000; i++) {
        const uint64_t idx = (uint64_t)i * (n / 1000);

        if (rpl_tlog_prove_inclusion(t, idx, n, p, &err) != RPL_OK ||
            rpl_tlog_proof_format(ctx, p, &text, &err) != RPL_OK)
            die("tlog prove", &err);
        hashes += p->count;
        bytes += strlen(text);
        worst = p->count > worst ? p->count : worst;
        rpl_free(ctx, text);
        t0 = now();
        if (rpl_tlog_verify_inclusion(&cp, p, NULL, 0, &err) != RPL_OK)
            die("tlog verify", &err);
        t_verify += now() - t0;
    }
    /* A consistency proof from half the log. */
    old = cp;
    old.size = n / 2 + 1;
    if (rpl_tlog_root(t, old.size, old.root, &err) != RPL_OK ||
        rpl_tlog_prove_consistency(t, old.size, n, p, &err) != RPL_OK ||
        rpl_tlog_proof_format(ctx, p, &text, &err) != RPL_OK)
        die("tlog consistency", &err);
    const size_t cbytes = strlen(text), chashes = p->count;
    rpl_free(ctx, text);
    t0 = now();
    for (int i = 0; i < 1000; i++) {
        if (rpl_tlog_verify_consistency(&old, &cp, p, &err) != RPL_OK)
            die("tlog consistency", &err);
    }
    t_cverify = (now() - t0) / 1000;
    t0 = now();
    if (rpl_tlog_audit(t, &pk, NULL, NULL, &err) != RPL_OK)
        die("tlog audit", &err);
    t_audit = now() - t0;
    printf("tlog: %llu entries of %zu bytes; append %.0f entries per second "
           "in batches of %zu, %.1f ms per single durable append (%zu); "
           "inclusion proofs %.1f hashes on average (at most %zu, %.0f bytes "
           "of text), verified in %.1f us; consistency proof %llu -> %llu: "
           "%zu hashes, %zu bytes, verified in %.1f us; audit of the whole "
           "directory %.2f s\n",
           (unsigned long long)n, lens[0], (double)bulk / t_batch, batch,
           1000.0 * t_single / (double)singles, singles,
           (double)hashes / 1000.0, worst, (double)bytes / 1000.0,
           1e6 * t_verify / 1000.0, (unsigned long long)old.size,
           (unsigned long long)n, chashes, cbytes, 1e6 * t_cverify, t_audit);
    rpl_tlog_close(t);
    free(p);
    snprintf(path, sizeof(path), "rm -rf '%s/tlog'", dir);
    if (system(path) != 0)
        fprintf(stderr, "bench: could not remove %s/tlog\n", dir);
}

int
main(int argc, char **argv)
{
    const char *camelog;
    double scale;
    size_t nsim, nbig;
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *dealer = NULL;
    struct rpl_pubkey pk;
    uint8_t key_seed[32];
    char dir[] = "/tmp/camelog-bench-XXXXXX";
    char path[512];
    char **texts;
    double t, t_verify, t_floor;
    double run_steal0, run_t0; /* the run's start, for its steal */
    size_t bytes = 0;

    if (argc > 2 && strcmp(argv[1], "--rss") == 0)
        return rss_main(argv + 2);
    self_path = argv[0];
    camelog = argc > 1 ? argv[1] : "build/camelog";
    scale = argc > 2 ? atof(argv[2]) : 1.0;
    nsim = (size_t)(2000 * scale) + 6;
    nbig = (size_t)(10000 * scale) + 6;
    if (rpl_ctx_new(&ctx, NULL, NULL) != RPL_OK)
        die("context", NULL);
    memset(key_seed, 0xbe, sizeof(key_seed));
    if (rpl_seckey_from_seed(ctx, &dealer, key_seed, NULL) != RPL_OK)
        die("key", NULL);
    rpl_seckey_pubkey(dealer, &pk);
    if (!mkdtemp(dir))
        die("mkdtemp", NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("camelog benchmarks (libreplay %s), %zu-game runs; files in %s\n",
           rpl_version(), nsim, dir);
    run_steal0 = steal_now();
    run_t0 = now();

    /* simulate: record, seal, reveal, write. */
    texts = calloc(nbig, sizeof(*texts));
    t = now();
    for (size_t g = 0; g < nsim; g++) {
        struct rpl_log *log = record(ctx, dealer, "avalon", g);
        struct rpl_error err;
        size_t len = 0;
        const char *text = rpl_log_text(log, &len);

        texts[g] = strdup(text);
        file_name(path, sizeof(path), dir, g);
        if (rpl_log_write(log, path, true, &err) != RPL_OK)
            die(path, &err);
        rpl_log_free(log);
    }
    t = now() - t;
    printf("simulate (Avalon): %.0f signed games written per second "
           "(%zu games, 5-10 players, plausible bots, seal after end, "
           "reveal, final seal, gzip, atomic write; one core)\n",
           (double)nsim / t, nsim);

    bench_engine(ctx, "Avalon", 5e6, texts, nsim);

    /* Shadows over Camelot: simulate and engine speed. */
    {
        const size_t nsoc = nsim / 4 + 5;
        char **soc_texts = calloc(nsoc, sizeof(*soc_texts));

        t = now();
        for (size_t g = 0; g < nsoc; g++) {
            struct rpl_log *log = record(ctx, dealer, "soc", g);
            struct rpl_error err;
            size_t len = 0;
            char soc_path[600];

            soc_texts[g] = strdup(rpl_log_text(log, &len));
            snprintf(soc_path, sizeof(soc_path), "%s/soc-%06zu.camelog", dir,
                     g + 1);
            if (rpl_log_write(log, soc_path, true, &err) != RPL_OK)
                die(soc_path, &err);
            unlink(soc_path);
            rpl_log_free(log);
        }
        t = now() - t;
        printf("simulate (Shadows over Camelot): %.0f signed games written "
               "per second (%zu games, 3-7 players, plausible bots; one "
               "core)\n",
               (double)nsoc / t, nsoc);
        bench_engine(ctx, "Shadows over Camelot", 3.5e6, soc_texts, nsoc);
        for (size_t g = 0; g < nsoc; g++)
            free(soc_texts[g]);
        free(soc_texts);
    }
    bench_soc_play(ctx, dealer, scale);

    /* verify against its two floors, same files, same run, CPU time:
     * batches of files, each verified and floored back to back (in turn
     * which goes first), and the median of the ratios.  The host of this
     * virtual machine changes its speed by a third from one second to
     * the next; a batch's three runs, 70 ms apart, see the same. */
    {
        double ratios[PAIRS], full[PAIRS], sum_v = 0, sum_f = 0, sum_ff = 0;
        size_t seals = 0, commits = 0, npairs = 0;
        const size_t batch = (nsim + PAIR_BATCHES - 1) / PAIR_BATCHES;

        for (int round = 0; round < PAIR_ROUNDS; round++) {
            for (size_t from = 0; from < nsim; from += batch) {
                const size_t to = from + batch < nsim ? from + batch : nsim;
                const bool floor_first = (npairs & 1) != 0;
                double tv = 0, tf, tff;

                if (!floor_first)
                    tv = verify_files(ctx, dir, from, to, 1);
                tf = floor_files(ctx, dir, from, to, &pk, &seals);
                tff = full_floor_files(ctx, dir, from, to, &pk, &commits);
                if (floor_first)
                    tv = verify_files(ctx, dir, from, to, 1);
                sum_v += tv;
                sum_f += tf;
                sum_ff += tff;
                full[npairs] = tv / tff;
                ratios[npairs++] = tv / tf;
            }
        }
        qsort(ratios, npairs, sizeof(ratios[0]), cmp_double);
        qsort(full, npairs, sizeof(full[0]), cmp_double);
        t_verify = sum_v / PAIR_ROUNDS;
        t_floor = sum_f / PAIR_ROUNDS;
        printf("verify (Avalon): %.0f sealed games verified per second; floor "
               "(bench/floor.c: read + inflate + chain every line + every "
               "seal's Ed25519 check, %.2f seals a file): %.0f per second; "
               "ratio %.2fx [target <= 1.20x: %s] (%zu files, one thread, "
               "CPU time; the median of %zu back-to-back pairs of batches, "
               "quartiles %.2fx-%.2fx)\n",
               (double)nsim / t_verify,
               (double)seals / (double)(nsim * PAIR_ROUNDS),
               (double)nsim / t_floor, median(ratios, npairs),
               median(ratios, npairs) <= 1.2 ? "met" : "not met", nsim, npairs,
               ratios[npairs / 4], ratios[(3 * npairs) / 4]);
        printf("verify (Avalon) against the full floor (the floor + the "
               "secret against the commit line, the seed and every "
               "commitment, %.2f a file, each card's compared with its "
               "open line): %.0f per second; ratio %.2fx [target <= 1.10x: "
               "%s] (the same batches; quartiles %.2fx-%.2fx)\n",
               (double)commits / (double)(nsim * PAIR_ROUNDS),
               (double)nsim * PAIR_ROUNDS / sum_ff, median(full, npairs),
               median(full, npairs) <= 1.1 ? "met" : "not met",
               full[npairs / 4], full[(3 * npairs) / 4]);
    }
    {
        struct stat sb;

        for (size_t g = 0; g < nsim; g++) {
            file_name(path, sizeof(path), dir, g);
            if (stat(path, &sb) == 0)
                bytes += (size_t)sb.st_size;
        }
        printf("file size (Avalon): %.0f bytes per game on average\n",
               (double)bytes / (double)nsim);
    }

    /* 10,000 files: peak memory of one `camelog verify` call. */
    for (size_t g = nsim; g < nbig; g++) {
        struct rpl_log *log = record(ctx, dealer, "avalon", g);
        struct rpl_error err;

        file_name(path, sizeof(path), dir, g);
        if (rpl_log_write(log, path, true, &err) != RPL_OK)
            die(path, &err);
        rpl_log_free(log);
    }
    {
        double s1 = 0, s2 = 0, c1 = 0, a1 = 0, a2 = 0, ac1;
        const size_t small = nbig / 10;
        char db1[600], db2[600];
        struct stat sb;
        long r1, r2, q1, q2;

        /* Memory, 1,000 against 10,000 files, one thread each. */
        r1 = verify_rss(camelog, dir, small, "1", &s1);
        r2 = verify_rss(camelog, dir, nbig, "1", &s2);
        c1 = last_cpu;
        printf("verify memory: max RSS %ld KiB for %zu files, %ld KiB for "
               "%zu files [target: flat] (one `camelog verify -q -j 1` call "
               "each; %.0f files per CPU second)\n",
               r1, small, r2, nbig, (double)nbig / c1);
        job_pairs("verify", "files", "", camelog, dir, NULL, nsim);
        snprintf(db1, sizeof(db1), "%s/small.db", dir);
        snprintf(db2, sizeof(db2), "%s/big.db", dir);
        q1 = archive_rss(camelog, dir, db1, small, "1", &a1);
        q2 = archive_rss(camelog, dir, db2, nbig, "1", &a2);
        ac1 = last_cpu;
        if (q1 < 0 || q2 < 0) {
            printf("archive add: not measured (camelog archive add failed)\n");
        } else {
            stat(db2, &sb);
            archive_parts(ctx, dir, nsim);
            printf("archive add: %.0f games per CPU second (%zu games in one "
                   "`archive add -j 1` call, %.0f/s wall), %.0f%% of verify's "
                   "%.0f [target >= 75%%: %s]; %.0f bytes per game in the "
                   "database; max RSS %ld KiB for %zu games, %ld KiB for %zu "
                   "[target: flat]\n",
                   (double)nbig / ac1, nbig, (double)nbig / a2,
                   100.0 * c1 / ac1, (double)nbig / c1,
                   c1 / ac1 >= 0.75 ? "met" : "not met",
                   (double)sb.st_size / (double)nbig, q1, small, q2, nbig);
            job_pairs("archive add", "games", " into a fresh database",
                      camelog, dir, db1, nsim);
        }
    }

    bench_host(camelog, dir, dealer, scale);
    bench_tlog(ctx, dir, dealer, scale);
    {
        const double wall = now() - run_t0, stolen = steal_now() - run_steal0;
        const long cores = sysconf(_SC_NPROCESSORS_ONLN);

        printf("steal: the host took %.1f s of the %ld cores in this %.0f s "
               "run (%.0f%% of their time); on a busy host every figure "
               "above is low\n",
               stolen, cores, wall,
               100.0 * stolen / (wall * (double)(cores > 0 ? cores : 1)));
    }

    for (size_t g = 0; g < nbig; g++) {
        file_name(path, sizeof(path), dir, g);
        unlink(path);
        free(texts[g]);
    }
    free(texts);
    snprintf(path, sizeof(path), "rm -rf '%s'", dir);
    if (system(path) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
    return 0;
}
