/*
 * cmd_export.c - camelog export: every line of a verified game as one
 * JSON object (JSON Lines): the line, its derived events, the public
 * state after it and, when the log is complete, the omniscient state.
 * This is the regression format for other front ends; its keys are
 * listed in camelog-export(1) and never renamed.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char usage[] = "usage: camelog export [--json] file ...\n";

static const char options[] =
    "options:\n"
    "  --json      JSON Lines, the only format (may be given for clarity)\n"
    "  -h, --help  this help\n";

/* Sets key of obj to the JSON the library returned in text (freed). */
static bool
set_lib_json(struct rpl_ctx *ctx, json_t *obj, const char *key, char *text)
{
    json_t *v = cli_json_parse(text);

    rpl_free(ctx, text);
    return cli_json_set(obj, key, v);
}

static int
export_line(struct rpl_ctx *ctx, struct rpl_log *log, const char *file,
            size_t no, bool is_complete)
{
    struct rpl_error err;
    enum rpl_status st;
    json_t *obj = json_object();
    char *text = NULL;
    const char *line;
    size_t len;
    int rc = CLI_EXIT_USAGE;
    bool ok = true;

    st = rpl_log_seek(log, no, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(file, st, &err);
        goto out;
    }
    line = rpl_log_line(log, no, &len);
    ok &= cli_json_set(obj, "file", cli_json_str(file));
    ok &= cli_json_set(obj, "line", cli_json_size(no));
    ok &= cli_json_set(obj, "text",
                       json_stringn(line ? line : "", line ? len : 0));
    st = rpl_log_events_json(log, no, &text, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(file, st, &err);
        goto out;
    }
    ok &= set_lib_json(ctx, obj, "events", text);
    st = rpl_log_view_json(log, RPL_VIEW_PUBLIC, &text, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(file, st, &err);
        goto out;
    }
    ok &= set_lib_json(ctx, obj, "public", text);
    if (is_complete) {
        st = rpl_log_view_json(log, RPL_VIEW_ALL, &text, &err);
        if (st != RPL_OK) {
            rc = cli_file_error(file, st, &err);
            goto out;
        }
        ok &= set_lib_json(ctx, obj, "omniscient", text);
    }
    if (!ok) {
        cli_file_msg(file, no, "cannot build the JSON object");
        goto out;
    }
    rc = cli_json_print(obj);
out:
    json_decref(obj);
    return rc;
}

static int
export_one(struct rpl_ctx *ctx, const char *file)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    size_t no, n;
    int rc;

    rc = cli_open_log(ctx, file, &log, &rep);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    n = rpl_log_lines(log);
    for (no = 1; no <= n && rc == CLI_EXIT_OK; no++) {
        rc = export_line(ctx, log, file, no,
                         rep.progress == RPL_PROGRESS_COMPLETE);
        if (rc == CLI_EXIT_OK && ferror(stdout)) {
            rc = CLI_EXIT_USAGE; /* cli_finish() says why */
        }
    }
    rpl_log_free(log);
    return rc;
}

int
cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct rpl_ctx *ctx = NULL;
    int c, i, rc;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
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
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    for (i = optind; i < argc; i++) {
        rc = cli_worst(rc, export_one(ctx, argv[i]));
    }
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
