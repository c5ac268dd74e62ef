/*
 * cmd_cat.c - camelog cat: the canonical text of each file, as read.
 * It does not verify: the text of a readable file is printed even when
 * its lines break the rules (camelog verify says why), but a file that
 * is not one gzip member within the limits is refused.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "replay.h"

static const char usage[] = "usage: camelog cat file ...\n";

static const char options[] = "options:\n"
                              "  -h, --help  this help\n";

int
cmd_cat(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct rpl_ctx *ctx = NULL;
    int c, i, rc;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("cat", c, argv);
        }
    }
    if (optind >= argc) {
        return cli_usage_error("cat", "no file to print");
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    for (i = optind; i < argc; i++) {
        struct rpl_log *log = NULL;
        struct rpl_error err;
        const enum rpl_status st = rpl_log_read(ctx, &log, argv[i], &err);
        const char *text;
        size_t len = 0;

        if (st != RPL_OK) {
            rc = cli_worst(rc, cli_file_error(argv[i], st, &err));
            continue;
        }
        text = rpl_log_text(log, &len);
        if (len > 0 && fwrite(text, 1, len, stdout) != len) {
            rpl_log_free(log);
            rc = CLI_EXIT_USAGE; /* cli_finish() below says why */
            break;
        }
        rpl_log_free(log);
    }
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
