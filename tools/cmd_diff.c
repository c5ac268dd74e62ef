/*
 * cmd_diff.c - camelog diff: the first line where two logs diverge.
 * Compares the canonical texts line by line; when both logs verify, each
 * diverging line is also told for people.  Exit 0 when the texts are
 * identical, 1 when they differ, 2 on error (as diff(1)).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char usage[] = "usage: camelog diff [--json] a b\n";

static const char options[] =
    "options:\n"
    "  --json      one JSON object (keys in camelog-diff(1))\n"
    "  -h, --help  this help\n";

struct side {
    const char *file;
    struct rpl_log *log;
    bool is_verified;
};

static int
load_side(struct rpl_ctx *ctx, struct side *s)
{
    struct rpl_error err;
    struct rpl_report rep;
    const enum rpl_status st = rpl_log_read(ctx, &s->log, s->file, &err);

    if (st != RPL_OK) {
        cli_file_error(s->file, st, &err);
        return CLI_EXIT_USAGE;
    }
    memset(&rep, 0, sizeof(rep));
    s->is_verified = rpl_log_verify(s->log, NULL, &rep) == RPL_OK;
    return CLI_EXIT_OK;
}

/* Prints "FILE:LINE: text" and, when the log verified, its description
 * indented below. */
static int
print_side(struct rpl_ctx *ctx, const struct side *s, size_t no)
{
    size_t len;
    const char *line = rpl_log_line(s->log, no, &len);
    char *desc = NULL;
    struct rpl_error err;
    enum rpl_status st;

    if (!line) {
        printf("%s:%zu: (end of log)\n", s->file, no);
        return CLI_EXIT_OK;
    }
    printf("%s:%zu: %.*s\n", s->file, no, (int)len, line);
    if (!s->is_verified) {
        return CLI_EXIT_OK;
    }
    st = rpl_log_describe(s->log, no, RPL_VIEW_PUBLIC, &desc, &err);
    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    if (desc) {
        const char *p = desc;

        while (*p != '\0') {
            const size_t n = strcspn(p, "\n");

            printf("  %.*s\n", (int)n, p);
            p += n;
            if (*p == '\n') {
                p++;
            }
        }
        rpl_free(ctx, desc);
    }
    return CLI_EXIT_OK;
}

static json_t *
line_json(const struct side *s, size_t no)
{
    size_t len;
    const char *line = rpl_log_line(s->log, no, &len);

    return line ? json_stringn(line, len) : json_null();
}

int
cmd_diff(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct rpl_ctx *ctx = NULL;
    struct side a = {NULL, NULL, false}, b = {NULL, NULL, false};
    bool is_json = false;
    size_t na, nb, no, n;
    int c, rc;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
            is_json = true;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("diff", c, argv);
        }
    }
    if (argc - optind != 2) {
        return cli_usage_error("diff", "diff takes two files");
    }
    a.file = argv[optind];
    b.file = argv[optind + 1];
    if (strcmp(a.file, "-") == 0 && strcmp(b.file, "-") == 0) {
        return cli_usage_error("diff", "only one log can come from "
                                       "standard input");
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    rc = load_side(ctx, &a);
    rc = cli_worst(rc, load_side(ctx, &b));
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    na = rpl_log_lines(a.log);
    nb = rpl_log_lines(b.log);
    n = na > nb ? na : nb;
    for (no = 1; no <= n; no++) {
        size_t la, lb;
        const char *sa = rpl_log_line(a.log, no, &la);
        const char *sb = rpl_log_line(b.log, no, &lb);

        if (!sa || !sb || la != lb || memcmp(sa, sb, la) != 0) {
            break;
        }
    }
    if (is_json) {
        json_t *obj = json_object();
        const bool same = no > n;
        bool ok = true;

        ok &= cli_json_set(obj, "a", cli_json_str(a.file));
        ok &= cli_json_set(obj, "b", cli_json_str(b.file));
        ok &= cli_json_set(obj, "identical", json_boolean(same));
        ok &= cli_json_set(obj, "line", same ? json_null() : cli_json_size(no));
        ok &=
            cli_json_set(obj, "a_text", same ? json_null() : line_json(&a, no));
        ok &=
            cli_json_set(obj, "b_text", same ? json_null() : line_json(&b, no));
        rc = ok ? cli_json_print(obj) : CLI_EXIT_USAGE;
        json_decref(obj);
        if (rc == CLI_EXIT_OK && !same) {
            rc = CLI_EXIT_INVALID;
        }
    } else if (no <= n) {
        rc = print_side(ctx, &a, no);
        rc = cli_worst(rc, print_side(ctx, &b, no));
        if (rc == CLI_EXIT_OK) {
            rc = CLI_EXIT_INVALID;
        } else {
            rc = CLI_EXIT_USAGE;
        }
    }
out:
    rpl_log_free(a.log);
    rpl_log_free(b.log);
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
