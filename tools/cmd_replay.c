/*
 * cmd_replay.c - camelog replay: a verified game told as a narrative,
 * one event per line (rpl_log_describe()), as the public, one seat or
 * the omniscient viewer knows it, optionally cut after line N.  The
 * verify's one pass (rpl_log_verify_walk()) keeps what each line tells
 * the viewer and its marks: nothing is replayed again.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog replay [--as seat | --omniscient] [--to n] [--verbose]\n"
    "                      [--json] file ...\n";

static const char options[] =
    "options:\n"
    "  -a, --as seat      as seat pK knew it (needs a complete log)\n"
    "  --omniscient       with every secret (needs a complete log)\n"
    "  -t, --to n         stop after line n\n"
    "  -v, --verbose      every line, the votes too (not only their tally)\n"
    "  --json             one JSON object per event (keys in "
    "camelog-replay(1))\n"
    "  -h, --help         this help\n";

struct replay_opts {
    int viewer; /* RPL_VIEW_PUBLIC, RPL_VIEW_ALL or a seat */
    bool has_to;
    size_t to;
    bool is_json;
    bool is_verbose;
    bool is_many; /* several files: name each in text output */
};

/* "public", "omniscient" or "pK" into buf. */
static const char *
viewer_name(int viewer, char *buf, size_t n)
{
    if (viewer == RPL_VIEW_PUBLIC) {
        return "public";
    }
    if (viewer == RPL_VIEW_ALL) {
        return "omniscient";
    }
    snprintf(buf, n, "p%d", viewer);
    return buf;
}

/* Prints text with every line after the first indented under it. */
static void
print_indented(size_t no, const char *text)
{
    const char *p = text;
    bool first = true;

    while (*p != '\0') {
        const size_t len = strcspn(p, "\n");

        if (first) {
            printf("%4zu  %.*s\n", no, (int)len, p);
        } else {
            printf("      %.*s\n", (int)len, p);
        }
        first = false;
        p += len;
        if (*p == '\n') {
            p++;
        }
    }
}

/* Reads and verifies file, keeping what walk asks for.  A log that fails
 * verification at line N > 1 is replaced by its lines before N (verified
 * again): *failed is then the failure's exit status and rep the failure,
 * and the caller replays what is left and says where it stopped. */
static int
open_log(struct rpl_ctx *ctx, const char *file,
         const struct rpl_walk_opts *walk, struct rpl_log **out,
         struct rpl_report *rep, int *failed)
{
    struct rpl_log *log = NULL, *part = NULL;
    struct rpl_report prep;
    struct rpl_error err;
    enum rpl_status st;
    size_t text_len = 0, cut;
    const char *text;

    memset(rep, 0, sizeof(*rep));
    st = rpl_log_read(ctx, &log, file, &err);
    if (st != RPL_OK) {
        return cli_file_error(file, st, &err);
    }
    st = rpl_log_verify_walk(log, NULL, walk, rep);
    if (st == RPL_OK) {
        *out = log;
        return CLI_EXIT_OK;
    }
    cut = rep->error.line;
    text = rpl_log_text(log, &text_len);
    if (cut > 1 && cut <= rpl_log_lines(log)) {
        size_t len;
        const char *first = rpl_log_line(log, cut, &len);
        const size_t keep = (size_t)(first - text);

        st = rpl_log_parse(ctx, &part, text, keep, false, &err);
        if (st == RPL_OK) {
            st = rpl_log_verify_walk(part, NULL, walk, &prep);
        }
        if (st == RPL_OK) {
            rpl_log_free(log);
            *out = part;
            *failed = cli_exit_status(rep->error.code);
            return CLI_EXIT_OK;
        }
        rpl_log_free(part);
    }
    rpl_log_free(log);
    return cli_file_error(file, rep->error.code, &rep->error);
}

/* *printed says whether an earlier file was told (text output: an empty
 * line separates the files). */
static int
replay_one(const struct replay_opts *o, struct rpl_ctx *ctx, const char *file,
           bool *printed)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    enum rpl_status st;
    char vbuf[16];
    const char *vname = viewer_name(o->viewer, vbuf, sizeof(vbuf));
    size_t no, last;
    int rc, failed = CLI_EXIT_OK;

    const struct rpl_walk_opts walk = {
        .describe = true,
        .seats = o->viewer > 0 && o->viewer <= 32
                     ? 1u << (unsigned)(o->viewer - 1)
                     : 0,
        .marks = !o->is_verbose,
    };

    rc = open_log(ctx, file, &walk, &log, &rep, &failed);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (o->viewer > 0 && (size_t)o->viewer > rpl_log_seats(log)) {
        cli_file_msg(file, 0, "no seat p%d: the game has %zu seats", o->viewer,
                     rpl_log_seats(log));
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    if (o->viewer != RPL_VIEW_PUBLIC && rep.progress != RPL_PROGRESS_COMPLETE) {
        cli_file_msg(file, 0,
                     "%s%s view needs a complete log (with its reveal); "
                     "this one is %s",
                     o->viewer == RPL_VIEW_ALL ? "the omniscient" : vname,
                     o->viewer == RPL_VIEW_ALL ? "" : "'s",
                     rpl_progress_text(rep.progress));
        rc = CLI_EXIT_INVALID;
        goto out;
    }
    last = rpl_log_lines(log);
    if (o->has_to && o->to < last) {
        last = o->to;
    }
    if (!o->is_json && o->is_many) {
        printf("%s%s:\n", *printed ? "\n" : "", file);
        *printed = true;
    }
    for (no = 1; no <= last; no++) {
        struct rpl_line_view lv;
        const char *text;

        st = rpl_log_line_view(log, no, o->viewer, &lv, &err);
        if (st != RPL_OK) {
            rc = cli_file_error(file, st, &err);
            goto out;
        }
        text = lv.describe;
        if (text && !o->is_verbose) {
            unsigned marks = 0;

            st = rpl_log_mark(log, no, &marks, &err);
            if (st != RPL_OK) {
                rc = cli_file_error(file, st, &err);
                goto out;
            }
            if (marks & RPL_MARK_DETAIL) {
                text = NULL;
            }
        }
        if (!text) {
            continue;
        }
        if (o->is_json) {
            json_t *obj = json_object();
            bool ok = true;

            ok &= cli_json_set(obj, "file", cli_json_str(file));
            ok &= cli_json_set(obj, "line", cli_json_size(no));
            ok &= cli_json_set(obj, "viewer", json_string(vname));
            ok &= cli_json_set(obj, "text", cli_json_str(text));
            rc = ok ? cli_json_print(obj) : CLI_EXIT_USAGE;
            if (!ok) {
                cli_msg("out of memory");
            }
            json_decref(obj);
        } else {
            print_indented(no, text);
        }
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
    }
    if (failed != CLI_EXIT_OK && !o->is_json) {
        printf("-- the log fails verification at line %zu: %s; replay "
               "stops here\n",
               rep.error.line, rep.error.msg);
    }
out:
    rpl_log_free(log);
    if (rc == CLI_EXIT_OK && failed != CLI_EXIT_OK) {
        rc = cli_file_error(file, rep.error.code, &rep.error);
    }
    return rc;
}

int
cmd_replay(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"as", required_argument, NULL, 'a'},
        {"omniscient", no_argument, NULL, 'O'},
        {"to", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct replay_opts o;
    struct rpl_ctx *ctx = NULL;
    bool has_as = false, has_omniscient = false, printed = false;
    size_t seat;
    int c, i, rc;

    memset(&o, 0, sizeof(o));
    o.viewer = RPL_VIEW_PUBLIC;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":a:t:vh", longopts, NULL)) != -1) {
        switch (c) {
        case 'a':
            if (!cli_parse_seat(optarg, &seat) || seat > 99) {
                return cli_usage_error("replay",
                                       "--as needs a seat like p3, "
                                       "not '%s'",
                                       optarg);
            }
            o.viewer = (int)seat;
            has_as = true;
            break;
        case 'O':
            o.viewer = RPL_VIEW_ALL;
            has_omniscient = true;
            break;
        case 't':
            if (!cli_parse_size(optarg, &o.to)) {
                return cli_usage_error(
                    "replay", "--to needs a line number, not '%s'", optarg);
            }
            o.has_to = true;
            break;
        case 'j':
            o.is_json = true;
            break;
        case 'v':
            o.is_verbose = true;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("replay", c, argv);
        }
    }
    if (has_as && has_omniscient) {
        return cli_usage_error("replay",
                               "--as and --omniscient exclude each other");
    }
    if (optind >= argc) {
        return cli_usage_error("replay", "no file to replay");
    }
    o.is_many = argc - optind > 1;
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    for (i = optind; i < argc; i++) {
        rc = cli_worst(rc, replay_one(&o, ctx, argv[i], &printed));
    }
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
