/*
 * cmd_step.c - camelog step: interactive review of a verified game.
 * Commands come one per line from standard input, a terminal or a pipe
 * (the prompt is written only to a terminal): n, b, j N, v [pK], s, r,
 * h, q.  After each move it prints the line, its description for the
 * viewer and the board.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "replay.h"

static const char usage[] = "usage: camelog step [--as seat] file\n";

static const char options[] =
    "options:\n"
    "  -a, --as seat  start as seat pK sees the game (needs a complete "
    "log)\n"
    "  -h, --help     this help\n"
    "\n"
    "commands (one per line on standard input):\n"
    "  n [count]  next line          b [count]  back\n"
    "  j n        jump to line n     v [seat]   view as seat, or public\n"
    "  s          state              r          reveal (complete logs)\n"
    "  h          help               q          quit\n";

static const char session_help[] =
    "n [count]  next line (count lines forward)\n"
    "b [count]  back one line (count lines)\n"
    "j n        jump to line n (0: before the first line)\n"
    "v [seat]   view as seat pK; v alone: the public view\n"
    "s          state: the board and what the viewer knows\n"
    "r          reveal who was who (complete logs only)\n"
    "h          this help\n"
    "q          quit\n";

struct session {
    struct rpl_ctx *ctx;
    struct rpl_log *log;
    const char *file;
    struct rpl_report rep;
    size_t lines;
    size_t pos;
    int viewer;
};

static void
viewer_text(int viewer, char *buf, size_t n)
{
    if (viewer == RPL_VIEW_PUBLIC) {
        snprintf(buf, n, "public");
    } else {
        snprintf(buf, n, "p%d", viewer);
    }
}

/* Whether the session may look as viewer; says why not. */
static bool
may_view(const struct session *s, int viewer)
{
    if (viewer == RPL_VIEW_PUBLIC) {
        return true;
    }
    if (viewer < 1 || (size_t)viewer > rpl_log_seats(s->log)) {
        cli_file_msg(s->file, 0, "no seat p%d: the game has %zu seats", viewer,
                     rpl_log_seats(s->log));
        return false;
    }
    if (s->rep.progress != RPL_PROGRESS_COMPLETE) {
        cli_file_msg(s->file, 0,
                     "a seat's view needs a complete log (with its "
                     "reveal); this one is %s",
                     cli_progress_text(s->rep.progress));
        return false;
    }
    return true;
}

/* Prints text up to its first empty line (all of it when whole). */
static void
print_view(const char *text, bool whole)
{
    const char *p = text;

    if (whole) {
        fputs(text, stdout);
        if (text[0] != '\0' && text[strlen(text) - 1] != '\n') {
            fputc('\n', stdout);
        }
        return;
    }
    while (*p != '\0') {
        const size_t len = strcspn(p, "\n");

        if (len == 0) {
            break;
        }
        printf("%.*s\n", (int)len, p);
        p += len;
        if (*p == '\n') {
            p++;
        }
    }
}

static int
show_view(struct session *s, bool whole)
{
    struct rpl_error err;
    char *text = NULL;
    const enum rpl_status st = rpl_log_view(s->log, s->viewer, &text, &err);

    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    print_view(text, whole);
    rpl_free(s->ctx, text);
    return CLI_EXIT_OK;
}

/* Moves to line no and prints the line, its description and the board. */
static int
move_to(struct session *s, size_t no)
{
    struct rpl_error err;
    enum rpl_status st;
    char *desc = NULL;

    st = rpl_log_seek(s->log, no, &err);
    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    s->pos = rpl_log_tell(s->log);
    if (s->pos == 0) {
        printf("line 0: before the first line\n");
    } else {
        size_t len;
        const char *line = rpl_log_line(s->log, s->pos, &len);

        printf("line %zu: %.*s\n", s->pos, (int)len, line ? line : "");
        st = rpl_log_describe(s->log, s->pos, s->viewer, &desc, &err);
        if (st != RPL_OK) {
            return cli_file_error(s->file, st, &err);
        }
        if (desc) {
            print_view(desc, true);
            rpl_free(s->ctx, desc);
        }
    }
    return show_view(s, false);
}

/* An optional count or number after a command letter. */
static bool
parse_arg(const char *arg, size_t *out, size_t dflt)
{
    if (!arg) {
        *out = dflt;
        return true;
    }
    return cli_parse_size(arg, out);
}

static int
do_reveal(struct session *s, bool *printed)
{
    struct rpl_error err;
    enum rpl_status st;
    char *text = NULL;

    if (s->rep.progress != RPL_PROGRESS_COMPLETE) {
        cli_file_msg(s->file, 0, "no reveal: the log is %s",
                     cli_progress_text(s->rep.progress));
        return CLI_EXIT_OK;
    }
    st = rpl_log_reveal_text(s->log, &text, &err);
    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    print_view(text, true);
    rpl_free(s->ctx, text);
    *printed = true;
    return CLI_EXIT_OK;
}

/* Runs one command line; *printed is set when it wrote to stdout, *quit
 * by q.  Mistakes in commands are reported and the session goes on; a
 * failing library call ends it. */
static int
command(struct session *s, char *line, bool *printed, bool *quit)
{
    char *cmd = strtok(line, " \t\r\n");
    char *arg = cmd ? strtok(NULL, " \t\r\n") : NULL;
    const char *extra = arg ? strtok(NULL, " \t\r\n") : NULL;
    size_t n;
    char vbuf[16];

    if (!cmd) {
        return CLI_EXIT_OK; /* empty line */
    }
    if (extra || strlen(cmd) != 1) {
        cli_msg("unknown command '%s' (h for help)", cmd);
        return CLI_EXIT_OK;
    }
    switch (cmd[0]) {
    case 'n':
        if (!parse_arg(arg, &n, 1) || n == 0) {
            cli_msg("n takes a count of lines");
        } else if (s->pos >= s->lines) {
            cli_msg("at the last line (%zu)", s->lines);
        } else {
            *printed = true;
            return move_to(s, n > s->lines - s->pos ? s->lines : s->pos + n);
        }
        return CLI_EXIT_OK;
    case 'b':
        if (!parse_arg(arg, &n, 1) || n == 0) {
            cli_msg("b takes a count of lines");
        } else if (s->pos == 0) {
            cli_msg("at the start");
        } else {
            *printed = true;
            return move_to(s, n > s->pos ? 0 : s->pos - n);
        }
        return CLI_EXIT_OK;
    case 'j':
        if (!arg || !cli_parse_size(arg, &n) || n > s->lines) {
            cli_msg("j takes a line number from 0 to %zu", s->lines);
            return CLI_EXIT_OK;
        }
        *printed = true;
        return move_to(s, n);
    case 'v':
        if (!arg) {
            s->viewer = RPL_VIEW_PUBLIC;
        } else if (!cli_parse_seat(arg, &n) || n > 99) {
            cli_msg("v takes a seat like p3");
            return CLI_EXIT_OK;
        } else if (!may_view(s, (int)n)) {
            return CLI_EXIT_OK;
        } else {
            s->viewer = (int)n;
        }
        viewer_text(s->viewer, vbuf, sizeof(vbuf));
        printf("viewing as %s\n", vbuf);
        *printed = true;
        return show_view(s, false);
    case 's':
        *printed = true;
        return show_view(s, true);
    case 'r':
        return do_reveal(s, printed);
    case 'h':
        fputs(session_help, stdout);
        *printed = true;
        return CLI_EXIT_OK;
    case 'q':
        *quit = true;
        return CLI_EXIT_OK;
    default:
        cli_msg("unknown command '%s' (h for help)", cmd);
        return CLI_EXIT_OK;
    }
}

int
cmd_step(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"as", required_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct session s;
    const bool is_tty = isatty(STDIN_FILENO) == 1;
    char *line = NULL;
    size_t cap = 0, seat;
    bool quit = false, printed;
    char vbuf[16];
    int c, rc;

    memset(&s, 0, sizeof(s));
    s.viewer = RPL_VIEW_PUBLIC;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":a:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'a':
            if (!cli_parse_seat(optarg, &seat) || seat > 99) {
                return cli_usage_error("step",
                                       "--as needs a seat like p3, "
                                       "not '%s'",
                                       optarg);
            }
            s.viewer = (int)seat;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("step", c, argv);
        }
    }
    if (argc - optind != 1) {
        return cli_usage_error("step", "step takes one file");
    }
    s.file = argv[optind];
    if (strcmp(s.file, "-") == 0) {
        return cli_usage_error("step", "step reads its commands from "
                                       "standard input: give the log as a "
                                       "file");
    }
    rc = cli_ctx_new(&s.ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    rc = cli_open_log(s.ctx, s.file, &s.log, &s.rep);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (!may_view(&s, s.viewer)) {
        rc = s.viewer > 0 && (size_t)s.viewer > rpl_log_seats(s.log)
                 ? CLI_EXIT_USAGE
                 : CLI_EXIT_INVALID;
        goto out;
    }
    s.lines = rpl_log_lines(s.log);
    viewer_text(s.viewer, vbuf, sizeof(vbuf));
    printf("%s: %zu lines, %s; viewing as %s; h for help\n", s.file, s.lines,
           cli_progress_text(s.rep.progress), vbuf);
    while (!quit) {
        if (is_tty) {
            printf("[%zu/%zu] ", s.pos, s.lines);
        }
        fflush(stdout);
        if (getline(&line, &cap, stdin) < 0) {
            if (is_tty) {
                fputc('\n', stdout);
            }
            break;
        }
        printed = false;
        rc = command(&s, line, &printed, &quit);
        if (printed) {
            fputc('\n', stdout); /* an empty line ends each answer */
        }
        if (rc != CLI_EXIT_OK) {
            break;
        }
    }
out:
    free(line);
    rpl_log_free(s.log);
    rpl_ctx_free(s.ctx);
    return cli_finish(rc);
}
