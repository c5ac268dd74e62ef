/*
 * cmd_export.c - camelog export: every line of a verified game as one
 * JSON object (JSON Lines): the line, its derived events, the public
 * state after it and, when the log is complete, the omniscient state.
 * This is the regression format for other front ends; its keys are
 * listed in camelog-export(1) and never renamed.  With --as pK, each
 * object also holds the state as seat pK knew it, from a complete log or
 * from the seat's own deliveries (--deliveries) before the reveal.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog export [--json] [--as seat [--deliveries file]] file ...\n";

static const char options[] =
    "options:\n"
    "  --json             JSON Lines, the only format (may be given for "
    "clarity)\n"
    "  -a, --as seat      add the state as seat pK knew it (key \"seat\")\n"
    "  --deliveries file  pK's deliveries, for a log without its reveal\n"
    "  -h, --help         this help\n";

#define TEXT_MAX  (16u * 1024u * 1024u)
#define LINE_MAX_ 4096u   /* RPL_MAX_LINE */
#define LINES_MAX 100000u /* RPL_MAX_LINES */

/* What the options ask for. */
struct opts {
    int viewer;             /* the seat of --as, or RPL_VIEW_PUBLIC */
    const char *deliveries; /* --deliveries, or NULL */
};

/* What export prints of a line: the public view, the seat's and the
 * omniscient one, NULL when not shown. */
struct line_views {
    const char *text;
    size_t len;
    const char *events, *view, *seat, *all;
};

/* Prints line no's object: file, line, text, events, public, and the
 * seat's and the omniscient state when lv has them. */
static int
print_line(const char *file, size_t no, const struct line_views *lv)
{
    json_t *obj = json_object();
    int rc = CLI_EXIT_USAGE;
    bool ok = true;

    ok &= cli_json_set(obj, "file", cli_json_str(file));
    ok &= cli_json_set(obj, "line", cli_json_size(no));
    ok &= cli_json_set(
        obj, "text",
        json_stringn(lv->text ? lv->text : "", lv->text ? lv->len : 0));
    ok &= cli_json_set(obj, "events", cli_json_parse(lv->events));
    ok &= cli_json_set(obj, "public", cli_json_parse(lv->view));
    if (lv->seat) {
        ok &= cli_json_set(obj, "seat", cli_json_parse(lv->seat));
    }
    if (lv->all) {
        ok &= cli_json_set(obj, "omniscient", cli_json_parse(lv->all));
    }
    if (!ok) {
        cli_file_msg(file, no, "cannot build the JSON object");
    } else {
        rc = cli_json_print(obj);
    }
    json_decref(obj);
    return rc;
}

/* Line no's views as the walk kept them: the one pass of
 * rpl_log_verify_walk() verifies, takes the seat's deliveries and every
 * line's views. */
static enum rpl_status
walked_line(struct rpl_log *log, size_t no, int viewer, bool is_complete,
            struct line_views *lv, struct rpl_error *err)
{
    struct rpl_line_view v;
    enum rpl_status st = rpl_log_line_view(log, no, RPL_VIEW_PUBLIC, &v, err);

    memset(lv, 0, sizeof(*lv));
    lv->text = v.text;
    lv->len = v.len;
    lv->events = v.events;
    lv->view = v.view;
    if (st == RPL_OK && viewer != RPL_VIEW_PUBLIC) {
        st = rpl_log_line_view(log, no, viewer, &v, err);
        lv->seat = v.view;
    }
    if (st == RPL_OK && is_complete) {
        st = rpl_log_line_view(log, no, RPL_VIEW_ALL, &v, err);
        lv->all = v.view;
    }
    return st;
}

static int
export_one(struct rpl_ctx *ctx, const char *file, const struct opts *o)
{
    struct rpl_log *log = NULL;
    struct cli_deliveries dv;
    struct rpl_walk_opts walk = {
        .views = true,
        .seats = o->viewer > 0 && o->viewer <= 32
                     ? 1u << (unsigned)(o->viewer - 1)
                     : 0,
    };
    struct line_views lv;
    struct rpl_report rep;
    struct rpl_error err;
    enum rpl_status st;
    size_t no, n;
    int rc;

    st = rpl_log_read(ctx, &log, file, &err);
    if (st != RPL_OK) {
        return cli_file_error(file, st, &err);
    }
    memset(&dv, 0, sizeof(dv));
    if (o->deliveries) {
        cli_deliveries_read(&dv, o->deliveries);
        cli_deliveries_walk(&dv, (size_t)o->viewer, &walk);
    }
    st = rpl_log_verify_walk(log, NULL, &walk, &rep);
    if (st != RPL_OK && rep.error.code != RPL_OK) {
        rc = cli_file_error(file, st, &rep.error);
        goto out;
    }
    if (o->viewer > 0 && (size_t)o->viewer > rpl_log_seats(log)) {
        cli_file_msg(file, 0, "no seat p%d: the game has %zu seats", o->viewer,
                     rpl_log_seats(log));
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    rc = CLI_EXIT_OK;
    if (o->deliveries) {
        rc = cli_deliveries_said(&dv, file, st);
    } else if (o->viewer != RPL_VIEW_PUBLIC &&
               rep.progress != RPL_PROGRESS_COMPLETE) {
        cli_file_msg(file, 0,
                     "p%d's view needs a complete log (with its reveal) or "
                     "p%d's deliveries (--deliveries); this one is %s",
                     o->viewer, o->viewer, rpl_progress_text(rep.progress));
        rc = CLI_EXIT_INVALID;
    }
    n = rpl_log_lines(log);
    for (no = 1; no <= n && rc == CLI_EXIT_OK; no++) {
        st = walked_line(log, no, o->viewer,
                         rep.progress == RPL_PROGRESS_COMPLETE, &lv, &err);
        rc = st == RPL_OK ? print_line(file, no, &lv)
                          : cli_file_error(file, st, &err);
        if (rc == CLI_EXIT_OK && ferror(stdout)) {
            rc = CLI_EXIT_USAGE; /* cli_finish() says why */
        }
    }
out:
    cli_deliveries_free(&dv);
    rpl_log_free(log);
    return rc;
}

int
cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"as", required_argument, NULL, 'a'},
        {"deliveries", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct rpl_ctx *ctx = NULL;
    struct opts o = {RPL_VIEW_PUBLIC, NULL};
    size_t seat = 0;
    int c, i, rc;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":a:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
            break;
        case 'a':
            if (!cli_parse_seat(optarg, &seat) || seat > 64) {
                return cli_usage_error("export",
                                       "--as names a seat (p1, p2, ...), not "
                                       "'%s'",
                                       optarg);
            }
            o.viewer = (int)seat;
            break;
        case 'd':
            o.deliveries = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("export", c, argv);
        }
    }
    if (optind >= argc) {
        return cli_usage_error("export", "no file to export");
    }
    if (o.deliveries && o.viewer == RPL_VIEW_PUBLIC) {
        return cli_usage_error("export", "--deliveries needs --as");
    }
    if (o.deliveries && argc - optind > 1) {
        return cli_usage_error("export",
                               "--deliveries belong to one game: give one "
                               "file");
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    for (i = optind; i < argc; i++) {
        rc = cli_worst(rc, export_one(ctx, argv[i], &o));
    }
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
