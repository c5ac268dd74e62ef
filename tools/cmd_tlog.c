/*
 * cmd_tlog.c - camelog tlog: a host's public log of the games it starts
 * and ends, kept as C2SP tlog-tiles files in a directory, and the checks
 * anyone can make of it from those files alone (camelog-tlog(1)).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog tlog init --origin origin dir\n"
    "       camelog tlog add [--start | --end [--abandoned-by who]] dir file "
    "...\n"
    "       camelog tlog entry (--start | --end [--abandoned-by who]) file\n"
    "       camelog tlog checkpoint --key seckey dir\n"
    "       camelog tlog prove [--size n] dir index\n"
    "       camelog tlog prove --old n [--size n] dir\n"
    "       camelog tlog verify --pubkey pubkey dir\n"
    "       camelog tlog verify --pubkey pubkey --checkpoint file "
    "[--entry file] proof\n"
    "       camelog tlog verify --pubkey pubkey --checkpoint file --old file "
    "[proof]\n"
    "       camelog tlog games dir\n"
    "       camelog tlog vkey --pubkey pubkey origin\n";

static const char options[] =
    "options:\n"
    "  --origin origin     the log's name, the first line of its checkpoints\n"
    "  --start             add the start entry of each game file\n"
    "  --end               add the end entry of each game file\n"
    "  --abandoned-by who  with --end: the game was abandoned, by dealer or "
    "pK\n"
    "  --key seckey        the host's secret key (signs the checkpoint)\n"
    "  --size n            prove against the tree of n entries (default: "
    "the checkpoint's)\n"
    "  --old n|file        the older tree: its size (prove) or checkpoint "
    "(verify)\n"
    "  --pubkey pubkey     the host's public key\n"
    "  --checkpoint file   the checkpoint a proof is checked against\n"
    "  --entry file        the entry an inclusion proof is for\n"
    "  -h, --help          this help\n";

#define CMD "tlog"

struct opts {
    const char *origin, *key, *pubkey, *checkpoint, *entry, *old, *size;
    const char *abandoned_by;
    bool is_start, is_end;
};

static int
lib_error(const char *what, enum rpl_status st, const struct rpl_error *err)
{
    if (st == RPL_E_EXISTS) {
        cli_file_msg(what, 0, "%s", cli_error_text(st, err));
        return cli_exit_status(st);
    }
    return cli_file_error(what, st, err);
}

static bool
parse_u64(const char *s, uint64_t *v)
{
    char *end;

    if (!s[0] || s[0] == '-' || s[0] == '+' || (s[0] == '0' && s[1]))
        return false;
    errno = 0;
    const unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || x > INT64_MAX)
        return false;
    *v = x;
    return true;
}

static int
open_log(struct rpl_ctx *ctx, const char *dir, struct rpl_tlog **t)
{
    struct rpl_error err;
    const enum rpl_status st = rpl_tlog_open(ctx, t, dir, &err);

    return st == RPL_OK ? CLI_EXIT_OK : lib_error(dir, st, &err);
}

/* A checkpoint file, verified with pk under its own origin. */
static int
read_checkpoint(const char *file, const struct rpl_pubkey *pk,
                struct rpl_tlog_checkpoint *cp)
{
    struct rpl_error err;
    char *text = NULL;
    size_t len = 0;
    int rc = cli_read_file(file, 65536, &text, &len);

    if (rc == 1) {
        cli_file_msg(file, 0, "checkpoint: over 65536 bytes");
        return CLI_EXIT_INVALID;
    }
    if (rc != 0) {
        cli_file_msg(file, 0, "%s", cli_input_errtext(errno));
        return CLI_EXIT_USAGE;
    }
    const enum rpl_status st =
        rpl_tlog_checkpoint_parse(text, len, pk, NULL, cp, &err);
    free(text);
    return st == RPL_OK ? CLI_EXIT_OK : lib_error(file, st, &err);
}

static int
do_init(struct rpl_ctx *ctx, const struct opts *o, int argc, char **argv)
{
    struct rpl_tlog *t = NULL;
    struct rpl_error err;

    if (!o->origin)
        return cli_usage_error(CMD, "init needs --origin");
    if (argc != 1)
        return cli_usage_error(CMD, "init takes one directory");
    const enum rpl_status st =
        rpl_tlog_create(ctx, &t, argv[0], o->origin, &err);
    rpl_tlog_close(t);
    return st == RPL_OK ? CLI_EXIT_OK : lib_error(argv[0], st, &err);
}

static int
parse_by(const char *s, size_t *by)
{
    if (strcmp(s, "dealer") == 0) {
        *by = 0;
        return 0;
    }
    return cli_parse_seat(s, by) ? 0 : -1;
}

/* The entry of one file: its bytes, or its game's start or end. */
static int
entry_of(struct rpl_ctx *ctx, const struct opts *o, size_t by, const char *file,
         char **out, size_t *len)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    enum rpl_status st;
    int rc;

    if (!o->is_start && !o->is_end) {
        rc = cli_read_file(file, RPL_TLOG_ENTRY_MAX, out, len);
        if (rc == 1) {
            cli_file_msg(file, 0, "over RPL_TLOG_ENTRY_MAX (%u bytes)",
                         RPL_TLOG_ENTRY_MAX);
            return CLI_EXIT_INVALID;
        }
        if (rc != 0) {
            cli_file_msg(file, 0, "%s", cli_input_errtext(errno));
            return CLI_EXIT_USAGE;
        }
        return CLI_EXIT_OK;
    }
    rc = cli_open_log(ctx, file, NULL, &log, &rep);
    if (rc != CLI_EXIT_OK)
        return rc;
    char *text = NULL;
    const bool is_abandoned = o->abandoned_by;
    st = o->is_start
             ? rpl_tlog_entry_start(ctx, log, &text, len, &err)
             : rpl_tlog_entry_end(ctx, log, is_abandoned, by, &text, len, &err);
    rpl_log_free(log);
    if (st != RPL_OK)
        return lib_error(file, st, &err);
    *out = malloc(*len + 1);
    if (!*out) {
        rpl_free(ctx, text);
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    memcpy(*out, text, *len);
    rpl_free(ctx, text);
    return CLI_EXIT_OK;
}

static int
do_add(struct rpl_ctx *ctx, const struct opts *o, int argc, char **argv)
{
    struct rpl_tlog *t = NULL;
    struct rpl_error err;
    size_t by = 0, n = 0;
    char **data = NULL;
    size_t *lens = NULL;
    int rc;

    if (o->is_start && o->is_end)
        return cli_usage_error(CMD, "--start and --end exclude each other");
    if (o->abandoned_by && !o->is_end)
        return cli_usage_error(CMD, "--abandoned-by goes with --end");
    if (o->abandoned_by && parse_by(o->abandoned_by, &by) != 0)
        return cli_usage_error(CMD,
                               "--abandoned-by: expected dealer or pK, "
                               "got \"%s\"",
                               o->abandoned_by);
    if (argc < 2)
        return cli_usage_error(CMD, "add takes a directory and files");
    rc = open_log(ctx, argv[0], &t);
    if (rc != CLI_EXIT_OK)
        return rc;
    data = calloc((size_t)argc, sizeof(*data));
    lens = calloc((size_t)argc, sizeof(*lens));
    if (!data || !lens) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    /* Every file first, then one append: all of them or none. */
    for (int i = 1; i < argc; i++) {
        rc = entry_of(ctx, o, by, argv[i], &data[n], &lens[n]);
        if (rc != CLI_EXIT_OK)
            goto out;
        n++;
    }
    const uint64_t first = rpl_tlog_size(t);
    const enum rpl_status st =
        rpl_tlog_append(t, (const void *const *)data, lens, n, &err);
    if (st != RPL_OK) {
        rc = lib_error(argv[0], st, &err);
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        printf("%" PRIu64 " %s\n", first + i, argv[1 + i]);
out:
    for (size_t i = 0; data && i < n; i++)
        free(data[i]);
    free(data);
    free(lens);
    rpl_tlog_close(t);
    return rc;
}

/* The entry add would append for one game file, on stdout. */
static int
do_entry(struct rpl_ctx *ctx, const struct opts *o, int argc, char **argv)
{
    size_t by = 0, len = 0;
    char *data = NULL;

    if (o->is_start == o->is_end)
        return cli_usage_error(CMD, "entry needs --start or --end");
    if (o->abandoned_by && !o->is_end)
        return cli_usage_error(CMD, "--abandoned-by goes with --end");
    if (o->abandoned_by && parse_by(o->abandoned_by, &by) != 0)
        return cli_usage_error(CMD,
                               "--abandoned-by: expected dealer or pK, "
                               "got \"%s\"",
                               o->abandoned_by);
    if (argc != 1)
        return cli_usage_error(CMD, "entry takes one game file");
    const int rc = entry_of(ctx, o, by, argv[0], &data, &len);
    if (rc == CLI_EXIT_OK)
        fwrite(data, 1, len, stdout);
    free(data);
    return rc;
}

static int
do_checkpoint(struct rpl_ctx *ctx, const struct opts *o, int argc, char **argv)
{
    struct rpl_tlog *t = NULL;
    struct rpl_seckey *sk = NULL;
    struct rpl_tlog_checkpoint cp;
    struct rpl_error err;
    enum rpl_status st;
    int rc;

    if (!o->key)
        return cli_usage_error(CMD, "checkpoint needs --key");
    if (argc != 1)
        return cli_usage_error(CMD, "checkpoint takes one directory");
    st = rpl_seckey_load(ctx, &sk, o->key, &err);
    if (st != RPL_OK)
        return cli_worst(CLI_EXIT_USAGE, cli_file_error(o->key, st, &err));
    rc = open_log(ctx, argv[0], &t);
    if (rc == CLI_EXIT_OK) {
        st = rpl_tlog_sign(t, sk, &cp, &err);
        if (st != RPL_OK)
            rc = lib_error(argv[0], st, &err);
        else
            printf("checkpoint of %" PRIu64 " entries\n", cp.size);
    }
    rpl_tlog_close(t);
    rpl_seckey_free(sk);
    return rc;
}

static int
print_proof(struct rpl_ctx *ctx, const struct rpl_tlog_proof *p)
{
    struct rpl_error err;
    char *text = NULL;
    const enum rpl_status st = rpl_tlog_proof_format(ctx, p, &text, &err);

    if (st != RPL_OK)
        return lib_error("proof", st, &err);
    fputs(text, stdout);
    rpl_free(ctx, text);
    return CLI_EXIT_OK;
}

static int
do_prove(struct rpl_ctx *ctx, const struct opts *o, int argc, char **argv)
{
    struct rpl_tlog *t = NULL;
    struct rpl_tlog_proof *p = NULL;
    struct rpl_error err;
    uint64_t size = 0, index = 0, old = 0;
    enum rpl_status st;
    int rc;

    if (argc != (o->old ? 1 : 2))
        return cli_usage_error(CMD, o->old ? "prove --old takes a directory"
                                           : "prove takes a directory and "
                                             "an index");
    if (o->size && !parse_u64(o->size, &size))
        return cli_usage_error(CMD, "--size: expected entries, got \"%s\"",
                               o->size);
    if (o->old && !parse_u64(o->old, &old))
        return cli_usage_error(CMD, "--old: expected entries, got \"%s\"",
                               o->old);
    if (!o->old && !parse_u64(argv[1], &index))
        return cli_usage_error(CMD, "expected an entry index, got \"%s\"",
                               argv[1]);
    rc = open_log(ctx, argv[0], &t);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (!o->size)
        size = rpl_tlog_size(t);
    p = malloc(sizeof(*p));
    if (!p) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    st = o->old ? rpl_tlog_prove_consistency(t, old, size, p, &err)
                : rpl_tlog_prove_inclusion(t, index, size, p, &err);
    rc = st == RPL_OK ? print_proof(ctx, p) : lib_error(argv[0], st, &err);
out:
    free(p);
    rpl_tlog_close(t);
    return rc;
}

static int
read_proof(const char *file, struct rpl_tlog_proof *p)
{
    struct rpl_error err;
    char *text = NULL;
    size_t len = 0;
    const int rc = cli_read_file(file, 8192, &text, &len);

    if (rc == 1) {
        cli_file_msg(file, 0, "proof: over 8192 bytes");
        return CLI_EXIT_INVALID;
    }
    if (rc != 0) {
        cli_file_msg(file, 0, "%s", cli_input_errtext(errno));
        return CLI_EXIT_USAGE;
    }
    const enum rpl_status st = rpl_tlog_proof_parse(text, len, p, &err);
    free(text);
    return st == RPL_OK ? CLI_EXIT_OK : lib_error(file, st, &err);
}

static int
do_verify(struct rpl_ctx *ctx, const struct opts *o, int argc, char **argv)
{
    struct rpl_pubkey pk;
    struct rpl_tlog_checkpoint cp, older;
    struct rpl_tlog_proof *p = NULL;
    struct rpl_error err;
    enum rpl_status st;
    int rc;

    if (!o->pubkey)
        return cli_usage_error(CMD, "verify needs --pubkey");
    rc = cli_load_pubkey(o->pubkey, &pk);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (!o->checkpoint) {
        struct rpl_tlog *t = NULL;

        if (argc != 1 || o->old || o->entry)
            return cli_usage_error(CMD, "verify takes a directory, or "
                                        "--checkpoint and a proof");
        rc = open_log(ctx, argv[0], &t);
        if (rc != CLI_EXIT_OK)
            return rc;
        st = rpl_tlog_audit(t, &pk, NULL, &cp, &err);
        rpl_tlog_close(t);
        if (st != RPL_OK)
            return lib_error(argv[0], st, &err);
        printf("%s: %" PRIu64 " entries, every tile and the root check out\n",
               argv[0], cp.size);
        return CLI_EXIT_OK;
    }
    if (argc > 1 || (argc == 0 && !o->old))
        return cli_usage_error(CMD, "verify --checkpoint takes one proof");
    if (o->old && o->entry)
        return cli_usage_error(CMD, "--entry goes with an inclusion proof");
    rc = read_checkpoint(o->checkpoint, &pk, &cp);
    if (rc == CLI_EXIT_OK && o->old)
        rc = read_checkpoint(o->old, &pk, &older);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (argc == 1) {
        p = malloc(sizeof(*p));
        if (!p) {
            cli_msg("out of memory");
            return CLI_EXIT_USAGE;
        }
        rc = read_proof(argv[0], p);
        if (rc != CLI_EXIT_OK)
            goto out;
    }
    if (o->old) {
        st = rpl_tlog_verify_consistency(&older, &cp, p, &err);
        if (st != RPL_OK) {
            rc = lib_error(argc ? argv[0] : o->checkpoint, st, &err);
            goto out;
        }
        printf("%s extends %s: %" PRIu64 " entries after %" PRIu64 "\n",
               o->checkpoint, o->old, cp.size, older.size);
        goto out;
    }
    char *entry = NULL;
    size_t entry_len = 0;
    if (o->entry) {
        const int r =
            cli_read_file(o->entry, RPL_TLOG_ENTRY_MAX, &entry, &entry_len);
        if (r != 0) {
            cli_file_msg(o->entry, 0, "%s",
                         r == 1 ? "over RPL_TLOG_ENTRY_MAX bytes"
                                : cli_input_errtext(errno));
            rc = r == 1 ? CLI_EXIT_INVALID : CLI_EXIT_USAGE;
            goto out;
        }
    }
    if (p->kind != RPL_TLOG_INCLUSION) {
        free(entry);
        rc = cli_usage_error(CMD, "a consistency proof needs --old");
        goto out;
    }
    st = rpl_tlog_verify_inclusion(&cp, p, entry, entry_len, &err);
    free(entry);
    if (st != RPL_OK) {
        rc = lib_error(argv[0], st, &err);
        goto out;
    }
    printf("entry %" PRIu64 " is in %s (%" PRIu64 " entries)\n", p->index,
           o->checkpoint, cp.size);
out:
    free(p);
    return rc;
}

static const char *
outcome_text(const struct rpl_tlog_game *g, char *buf, size_t cap)
{
    switch (g->outcome) {
    case RPL_TLOG_STARTED:
        return "started";
    case RPL_TLOG_FINISHED:
        return "finished";
    case RPL_TLOG_REVEALED:
        return "revealed";
    case RPL_TLOG_ABANDONED:
        if (g->by == 0)
            return "abandoned by dealer";
        snprintf(buf, cap, "abandoned by p%zu", g->by);
        return buf;
    }
    return "?";
}

/* The games of a log, for the list of those never ended. */
struct game_ids {
    char (*id)[33];
    uint64_t *index;
    size_t n, cap;
};

static bool
ids_add(struct game_ids *g, const char *id, uint64_t index)
{
    if (g->n == g->cap) {
        const size_t cap = g->cap ? 2 * g->cap : 64;
        char(*nid)[33] = realloc(g->id, cap * sizeof(*nid));

        if (!nid)
            return false;
        g->id = nid;
        uint64_t *nix = realloc(g->index, cap * sizeof(*nix));
        if (!nix)
            return false;
        g->index = nix;
        g->cap = cap;
    }
    memcpy(g->id[g->n], id, 33);
    g->index[g->n++] = index;
    return true;
}

static int
id_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Every entry in order: "<index> start <id> dealer <key>" or "<index>
 * end <id> <outcome>[: <end line>]"; then each game started and never
 * ended, "<index> open <id>: abandoned, no end", and the counts. */
static int
do_games(struct rpl_ctx *ctx, int argc, char **argv)
{
    struct rpl_tlog *t = NULL;
    struct rpl_error err;
    struct game_ids starts = {0}, ends = {0};
    uint64_t open = 0;
    int rc;

    if (argc != 1)
        return cli_usage_error(CMD, "games takes one directory");
    rc = open_log(ctx, argv[0], &t);
    if (rc != CLI_EXIT_OK)
        return rc;
    const uint64_t size = rpl_tlog_size(t);
    for (uint64_t i = 0; i < size; i++) {
        struct rpl_tlog_game g;
        const uint8_t *data;
        size_t len;
        char buf[48];
        enum rpl_status st = rpl_tlog_entry(t, i, size, &data, &len, &err);

        if (st == RPL_OK)
            st = rpl_tlog_game_parse(data, len, &g, &err);
        if (st != RPL_OK) {
            char where[64];

            snprintf(where, sizeof(where), "%s: entry %" PRIu64, argv[0], i);
            rc = cli_worst(rc, lib_error(where, st, &err));
            continue;
        }
        if (!ids_add(g.outcome == RPL_TLOG_STARTED ? &starts : &ends, g.id,
                     i)) {
            cli_msg("out of memory");
            rc = cli_worst(rc, CLI_EXIT_USAGE);
            break;
        }
        if (g.outcome == RPL_TLOG_STARTED) {
            printf("%" PRIu64 " start %s dealer %s\n", i, g.id, g.dealer);
        } else {
            printf("%" PRIu64 " end %s %s%s%s\n", i, g.id,
                   outcome_text(&g, buf, sizeof(buf)), g.end[0] ? ": " : "",
                   g.end);
        }
    }
    if (ends.n)
        qsort(ends.id, ends.n, sizeof(*ends.id), id_cmp);
    for (size_t k = 0; k < starts.n; k++) {
        if (ends.n &&
            bsearch(starts.id[k], ends.id, ends.n, sizeof(*ends.id), id_cmp))
            continue;
        open++;
        printf("%" PRIu64 " open %s: abandoned, no end\n", starts.index[k],
               starts.id[k]);
    }
    printf("%zu starts, %zu ends, %" PRIu64 " never ended\n", starts.n, ends.n,
           open);
    free(starts.id);
    free(starts.index);
    free(ends.id);
    free(ends.index);
    rpl_tlog_close(t);
    return rc;
}

static int
do_vkey(const struct opts *o, int argc, char **argv)
{
    struct rpl_pubkey pk;
    struct rpl_error err;
    char vkey[RPL_TLOG_VKEY_MAX];
    int rc;

    if (!o->pubkey)
        return cli_usage_error(CMD, "vkey needs --pubkey");
    if (argc != 1)
        return cli_usage_error(CMD, "vkey takes an origin");
    rc = cli_load_pubkey(o->pubkey, &pk);
    if (rc != CLI_EXIT_OK)
        return rc;
    const enum rpl_status st = rpl_tlog_vkey(&pk, argv[0], vkey, &err);
    if (st != RPL_OK)
        return lib_error(argv[0], st, &err);
    printf("%s\n", vkey);
    return CLI_EXIT_OK;
}

int
cmd_tlog(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"origin", required_argument, NULL, 'O'},
        {"start", no_argument, NULL, 'S'},
        {"end", no_argument, NULL, 'E'},
        {"abandoned-by", required_argument, NULL, 'A'},
        {"key", required_argument, NULL, 'k'},
        {"size", required_argument, NULL, 'n'},
        {"old", required_argument, NULL, 'o'},
        {"pubkey", required_argument, NULL, 'p'},
        {"checkpoint", required_argument, NULL, 'c'},
        {"entry", required_argument, NULL, 'e'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct opts o;
    struct rpl_ctx *ctx = NULL;
    int c, rc;

    memset(&o, 0, sizeof(o));
    if (argc >= 2 &&
        (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return cli_help(usage, options);
    if (argc < 2 || argv[1][0] == '-')
        return cli_usage_error(CMD, "no verb (init, add, entry, checkpoint, "
                                    "prove, verify, games, vkey)");
    const char *verb = argv[1];
    argc--;
    argv++;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'O':
            o.origin = optarg;
            break;
        case 'S':
            o.is_start = true;
            break;
        case 'E':
            o.is_end = true;
            break;
        case 'A':
            o.abandoned_by = optarg;
            break;
        case 'k':
            o.key = optarg;
            break;
        case 'n':
            o.size = optarg;
            break;
        case 'o':
            o.old = optarg;
            break;
        case 'p':
            o.pubkey = optarg;
            break;
        case 'c':
            o.checkpoint = optarg;
            break;
        case 'e':
            o.entry = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error(CMD, c, argv);
        }
    }
    argc -= optind;
    argv += optind;
    if (strcmp(verb, "vkey") == 0)
        return cli_finish(do_vkey(&o, argc, argv));
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK)
        return rc;
    if (strcmp(verb, "init") == 0)
        rc = do_init(ctx, &o, argc, argv);
    else if (strcmp(verb, "add") == 0)
        rc = do_add(ctx, &o, argc, argv);
    else if (strcmp(verb, "entry") == 0)
        rc = do_entry(ctx, &o, argc, argv);
    else if (strcmp(verb, "checkpoint") == 0)
        rc = do_checkpoint(ctx, &o, argc, argv);
    else if (strcmp(verb, "prove") == 0)
        rc = do_prove(ctx, &o, argc, argv);
    else if (strcmp(verb, "verify") == 0)
        rc = do_verify(ctx, &o, argc, argv);
    else if (strcmp(verb, "games") == 0)
        rc = do_games(ctx, argc, argv);
    else
        rc = cli_usage_error(CMD, "unknown verb \"%s\"", verb);
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
