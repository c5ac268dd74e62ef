/*
 * cmd_reveal.c - camelog reveal: who was who and every secret the log
 * opens, as the game module tells them, from a complete log (one whose
 * reveal verified).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char usage[] = "usage: camelog reveal [--json] file ...\n";

static const char options[] =
    "options:\n"
    "  --json      one JSON object per file (keys in camelog-reveal(1))\n"
    "  -h, --help  this help\n";

static int
print_json(const char *file, const char *text)
{
    json_t *lib = cli_json_parse(text);
    json_t *obj = json_object();
    int rc = CLI_EXIT_USAGE;

    if (!lib || !obj) {
        cli_file_msg(file, 0, "the library returned bad JSON");
        goto out;
    }
    if (!cli_json_set(obj, "file", cli_json_str(file))) {
        cli_msg("out of memory");
        goto out;
    }
    if (json_is_object(lib)) {
        if (json_object_update(obj, lib) != 0) {
            cli_msg("out of memory");
            goto out;
        }
    } else if (!cli_json_set(obj, "reveal", json_incref(lib))) {
        cli_msg("out of memory");
        goto out;
    }
    rc = cli_json_print(obj);
out:
    json_decref(lib);
    json_decref(obj);
    return rc;
}

/* *printed says whether an earlier file was shown (text output: an empty
 * line separates the files). */
static int
reveal_one(struct rpl_ctx *ctx, const char *file, bool is_json, bool is_many,
           bool *printed)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    enum rpl_status st;
    char *text = NULL;
    int rc;

    rc = cli_open_log(ctx, file, NULL, &log, &rep);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (rep.progress != RPL_PROGRESS_COMPLETE) {
        cli_file_msg(file, 0, "no reveal: the log is %s",
                     rpl_progress_text(rep.progress));
        rc = CLI_EXIT_INVALID;
        goto out;
    }
    st = is_json ? rpl_log_reveal_json(log, &text, &err)
                 : rpl_log_reveal_text(log, &text, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(file, st, &err);
        goto out;
    }
    if (is_json) {
        rc = print_json(file, text);
    } else {
        if (is_many) {
            printf("%s%s:\n", *printed ? "\n" : "", file);
        }
        *printed = true;
        fputs(text, stdout);
        if (text[0] != '\0' && text[strlen(text) - 1] != '\n') {
            fputc('\n', stdout);
        }
    }
out:
    rpl_free(ctx, text);
    rpl_log_free(log);
    return rc;
}

int
cmd_reveal(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct rpl_ctx *ctx = NULL;
    bool is_json = false, printed = false;
    int c, i, rc;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
            is_json = true;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("reveal", c, argv);
        }
    }
    if (optind >= argc) {
        return cli_usage_error("reveal", "no file to reveal");
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    for (i = optind; i < argc; i++) {
        rc = cli_worst(
            rc, reveal_one(ctx, argv[i], is_json, argc - optind > 1, &printed));
    }
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
