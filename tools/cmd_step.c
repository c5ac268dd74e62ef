/*
 * cmd_step.c - camelog step: a viewer for a verified game.
 *
 * On a terminal it reads single keys (raw mode, restored on exit and on
 * SIGINT, SIGTERM and SIGTSTP) and redraws the screen after each move:
 * the line, what it tells, and the board with what the viewer knows
 * (rpl_log_board()), fitted to the terminal: the header line on top, the
 * key line at the bottom, and between them as much of the rest as fits,
 * wrapped, scrolled with j and k.  From a pipe it reads one command a
 * line and prints each answer, followed by an empty line.  Moves go by
 * event (the lines that tell something), by turn and by quest
 * (rpl_log_mark()), to the nth quest, and to the next line whose text
 * holds a search; the header is one stop, the start, and the end is the
 * last line that tells something.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog step [--as seat [--deliveries file] | --omniscient] "
    "file\n";

static const char options[] =
    "options:\n"
    "  -a, --as seat   start as seat pK sees the game (needs a complete "
    "log)\n"
    "  --deliveries file\n"
    "                  the seat's own deliveries: its view of a game in\n"
    "                  progress\n"
    "  --omniscient    start with every secret (needs a complete log)\n"
    "  -h, --help      this help\n"
    "\n"
    "keys (on a terminal):\n"
    "  right, n, space  next event        left, b   previous event\n"
    "  down, t          next turn         up, T     previous turn\n"
    "  PgDn, ]          next quest        PgUp, [   previous quest\n"
    "  Home, g          the start         End, G    the end\n"
    "  1 to 9           the nth quest     /         search (/ Enter: again)\n"
    "  j, k             scroll the screen by a line\n"
    "  s  next seat's view    a  omniscient view    v  public view\n"
    "  r  who was who         ?  help               q  quit\n"
    "\n"
    "commands (one per line, from a pipe):\n"
    "  n [count]  next event         b [count]  previous event\n"
    "  t, T       next, previous turn\n"
    "  ], [       next, previous quest\n"
    "  g, G       the start, the end j n        jump to line n\n"
    "  Q n        the nth quest      / text     next line holding text\n"
    "  v [seat]   view as seat, or public        a  omniscient view\n"
    "  s          the board          r          who was who\n"
    "  h          help               q          quit\n";

static const char session_help[] =
    "n [count]  next event (count events forward)\n"
    "b [count]  back one event (count events)\n"
    "t, T       next turn, previous turn (a proposal, a player's turn)\n"
    "], [       next quest, previous quest (the line that decides it)\n"
    "g, G       the start (after the header), the end\n"
    "j n        jump to line n (0: before the first line)\n"
    "Q n        the line that decides the nth quest\n"
    "/ text     the next line whose text holds text (any case)\n"
    "v [seat]   view as seat pK; v alone: the public view\n"
    "a          the omniscient view (complete logs only)\n"
    "s          the board and what the viewer knows\n"
    "r          reveal who was who (complete logs only)\n"
    "h          this help\n"
    "q          quit\n";

static const char key_help[] =
    "right, n, space  next event           left, b   previous event\n"
    "down, t          next turn            up, T     previous turn\n"
    "PgDn, ]          next quest           PgUp, [   previous quest\n"
    "Home, g          the start            End, G    the end\n"
    "1 to 9           the nth quest        /         search\n"
    "j, k             scroll by a line\n"
    "s  next seat's view   a  omniscient view   v  public view\n"
    "r  who was who        ?  this help         q  quit (also Ctrl-C)\n"
    "\npress any key\n";

struct session {
    struct rpl_ctx *ctx;
    struct rpl_log *log;
    const char *file;
    struct rpl_report rep;
    size_t lines;
    size_t start; /* the last header line: the first stop */
    size_t pos;
    int viewer;
    unsigned *marks; /* marks[no], 1..lines */
    bool *tells;     /* tells[no]: the line tells something */
    bool is_tty;
    int learned;      /* the seat whose deliveries the log has, or 0 */
    char status[160]; /* the terminal's message line */
    FILE *out;        /* where show_line() and the like write */
    size_t scroll;    /* the first line of the body on the screen */
    char query[128];  /* the last search */
};

/* ------------------------------------------------------------ terminal */

/* The terminal as it was, for the signal handlers: the only state at
 * file scope (a handler has no other way to reach it). */
static struct termios saved_tio;
static volatile sig_atomic_t is_raw;
static volatile sig_atomic_t is_resumed;

static void
raw_on(void)
{
    struct termios t = saved_tio;

    t.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) == 0) {
        is_raw = 1;
    }
}

static void
raw_off(void)
{
    if (is_raw) {
        (void)tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
        is_raw = 0;
    }
}

/* SIGINT, SIGTERM, SIGTSTP: restore the terminal, then do what the
 * signal does by default; SIGCONT: raw mode again, and a redraw;
 * SIGWINCH: a redraw at the new size. */
static void
on_signal(int sig)
{
    const int e = errno;
    struct sigaction sa;

    if (sig == SIGCONT || sig == SIGWINCH) {
        if (sig == SIGCONT) {
            raw_on();
        }
        is_resumed = 1;
        errno = e;
        return;
    }
    raw_off();
    if (sig == SIGTSTP) {
        sigset_t set;

        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = SIG_DFL;
        sigemptyset(&sa.sa_mask);
        (void)sigaction(SIGTSTP, &sa, NULL);
        sigemptyset(&set);
        sigaddset(&set, SIGTSTP);
        (void)sigprocmask(SIG_UNBLOCK, &set, NULL);
        (void)raise(SIGTSTP);
        /* resumed: the handler again */
        sa.sa_handler = on_signal;
        (void)sigaction(SIGTSTP, &sa, NULL);
        errno = e;
        return;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    (void)sigaction(sig, &sa, NULL);
    (void)raise(sig);
    errno = e;
}

static bool
term_start(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGTSTP, SIGCONT, SIGWINCH};
    struct sigaction sa;

    if (tcgetattr(STDIN_FILENO, &saved_tio) != 0) {
        return false;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        sigaddset(&sa.sa_mask, sigs[i]);
    }
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        (void)sigaction(sigs[i], &sa, NULL);
    }
    raw_on();
    return is_raw != 0;
}

static void
term_end(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGTSTP, SIGCONT, SIGWINCH};
    struct sigaction sa;

    raw_off();
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        (void)sigaction(sigs[i], &sa, NULL);
    }
}

/* Keys beyond a byte. */
enum {
    KEY_NONE = 0,
    KEY_UP = 0x100,
    KEY_DOWN,
    KEY_RIGHT,
    KEY_LEFT,
    KEY_HOME,
    KEY_END,
    KEY_PGUP,
    KEY_PGDN,
    KEY_EOF
};

/* One byte, or -1 after timeout_ms (-1: wait) or at the end. */
static int
read_byte(int timeout_ms)
{
    struct pollfd pfd = {STDIN_FILENO, POLLIN, 0};
    unsigned char c;
    ssize_t n;

    for (;;) {
        const int r = poll(&pfd, 1, timeout_ms);

        if (r < 0 && errno == EINTR) {
            if (is_resumed) {
                return -2;
            }
            continue;
        }
        if (r <= 0) {
            return -1;
        }
        n = read(STDIN_FILENO, &c, 1);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        return n == 1 ? c : -1;
    }
}

/* A key: a byte, or KEY_* for the escape sequences of xterm and vt100. */
static int
read_key(void)
{
    int c = read_byte(-1), d, e;

    if (c == -2) {
        return KEY_NONE; /* resumed: redraw */
    }
    if (c < 0) {
        return KEY_EOF;
    }
    if (c != 0x1b) {
        return c;
    }
    d = read_byte(50);
    if (d != '[' && d != 'O') {
        return KEY_NONE;
    }
    e = read_byte(50);
    switch (e) {
    case 'A':
        return KEY_UP;
    case 'B':
        return KEY_DOWN;
    case 'C':
        return KEY_RIGHT;
    case 'D':
        return KEY_LEFT;
    case 'H':
        return KEY_HOME;
    case 'F':
        return KEY_END;
    default:
        break;
    }
    if (e >= '1' && e <= '8' && read_byte(50) == '~') {
        switch (e) {
        case '1':
        case '7':
            return KEY_HOME;
        case '4':
        case '8':
            return KEY_END;
        case '5':
            return KEY_PGUP;
        case '6':
            return KEY_PGDN;
        default:
            break;
        }
    }
    return KEY_NONE;
}

/* ------------------------------------------------------------- session */

static void
viewer_text(const struct session *s, int viewer, char *buf, size_t n)
{
    if (viewer == RPL_VIEW_PUBLIC) {
        snprintf(buf, n, "public");
    } else if (viewer == RPL_VIEW_ALL) {
        snprintf(buf, n, "omniscient");
    } else {
        const char *name = rpl_log_seat_name(s->log, (size_t)viewer);

        if (name && name[0] != '\0') {
            snprintf(buf, n, "%s (p%d)", name, viewer);
        } else {
            snprintf(buf, n, "p%d", viewer);
        }
    }
}

/* A message: the status line on a terminal, standard error otherwise. */
static void
say(struct session *s, const char *msg)
{
    if (s->is_tty) {
        snprintf(s->status, sizeof(s->status), "%s", msg);
    } else {
        cli_msg("%s", msg);
    }
}

/* Whether the session may look as viewer; says why not. */
static bool
may_view(struct session *s, int viewer)
{
    char msg[160];

    if (viewer == RPL_VIEW_PUBLIC) {
        return true;
    }
    if (viewer > 0 && (size_t)viewer > rpl_log_seats(s->log)) {
        snprintf(msg, sizeof(msg), "%s: no seat p%d: the game has %zu seats",
                 s->file, viewer, rpl_log_seats(s->log));
        say(s, msg);
        return false;
    }
    if (s->rep.progress != RPL_PROGRESS_COMPLETE && viewer != s->learned) {
        snprintf(msg, sizeof(msg),
                 "%s: %s view needs a complete log (with its reveal); this "
                 "one is %s",
                 s->file,
                 viewer == RPL_VIEW_ALL ? "the omniscient" : "a seat's",
                 rpl_progress_text(s->rep.progress));
        say(s, msg);
        return false;
    }
    return true;
}

/* The marks and the telling lines of the whole log, as the verify's pass
 * kept them (rpl_log_mark() replays for them only when the seat's
 * deliveries were learned since). */
static int
scan(struct session *s)
{
    struct rpl_error err;
    enum rpl_status st;

    s->marks = calloc(s->lines + 1, sizeof(*s->marks));
    s->tells = calloc(s->lines + 1, sizeof(*s->tells));
    if (!s->marks || !s->tells) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    for (size_t no = 1; no <= s->lines; no++) {
        struct rpl_line_view lv;

        st = rpl_log_mark(s->log, no, &s->marks[no], &err);
        if (st == RPL_OK) {
            st = rpl_log_line_view(s->log, no, RPL_VIEW_PUBLIC, &lv, &err);
        }
        if (st != RPL_OK) {
            return cli_file_error(s->file, st, &err);
        }
        s->tells[no] = lv.describe ? true : false;
        if (s->marks[no] & RPL_MARK_HEADER) {
            s->start = no;
        }
    }
    return CLI_EXIT_OK;
}

/* The stop after (dir > 0) or before pos that has a mark of want (0:
 * any line that tells something); pos itself when there is none. */
static size_t
find_stop(const struct session *s, size_t pos, int dir, unsigned want)
{
    size_t no = pos;

    for (;;) {
        if (dir > 0) {
            if (no >= s->lines) {
                return pos;
            }
            no++;
        } else {
            if (no <= s->start) {
                return pos;
            }
            no--;
            if (no == s->start) {
                return want ? pos : no;
            }
        }
        if (want ? (s->marks[no] & want) != 0 : s->tells[no]) {
            return no;
        }
    }
}

/* Prints text, with a final LF. */
static void
print_text(FILE *fp, const char *text)
{
    fputs(text, fp);
    if (text[0] != '\0' && text[strlen(text) - 1] != '\n') {
        fputc('\n', fp);
    }
}

static int
show_board(struct session *s)
{
    struct rpl_error err;
    char *text = NULL;
    enum rpl_status st = rpl_log_seek(s->log, s->pos, &err);

    if (st == RPL_OK) {
        st = rpl_log_board(s->log, s->viewer, &text, &err);
    }
    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    print_text(s->out, text);
    rpl_free(s->ctx, text);
    return CLI_EXIT_OK;
}

/* The line at pos and what it tells the viewer. */
static int
show_line(struct session *s)
{
    struct rpl_error err;
    enum rpl_status st;
    char *desc = NULL;
    size_t len;
    const char *line;

    if (s->pos == 0) {
        fprintf(s->out, "line 0: before the first line\n");
        return CLI_EXIT_OK;
    }
    if (s->pos == s->start) {
        fprintf(s->out, "line %zu: the start (the header, lines 1-%zu)\n",
                s->pos, s->start);
        return CLI_EXIT_OK;
    }
    line = rpl_log_line(s->log, s->pos, &len);
    fprintf(s->out, "line %zu: %.*s\n", s->pos, (int)len, line ? line : "");
    st = rpl_log_describe(s->log, s->pos, s->viewer, &desc, &err);
    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    if (desc) {
        print_text(s->out, desc);
        rpl_free(s->ctx, desc);
    }
    return CLI_EXIT_OK;
}

static int
move_to(struct session *s, size_t no)
{
    struct rpl_error err;
    const enum rpl_status st = rpl_log_seek(s->log, no, &err);

    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    s->pos = no;
    return CLI_EXIT_OK;
}

static int
do_reveal(struct session *s)
{
    struct rpl_error err;
    enum rpl_status st;
    char *text = NULL;
    char msg[160];

    if (s->rep.progress != RPL_PROGRESS_COMPLETE) {
        snprintf(msg, sizeof(msg), "%s: no reveal: the log is %s", s->file,
                 rpl_progress_text(s->rep.progress));
        say(s, msg);
        return CLI_EXIT_OK;
    }
    st = rpl_log_reveal_text(s->log, &text, &err);
    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    print_text(s->out, text);
    rpl_free(s->ctx, text);
    return CLI_EXIT_OK;
}

/* The next viewer of s: public, p1 .. pN, public. */
static int
next_seat(const struct session *s)
{
    if (s->viewer < 1) {
        return 1;
    }
    return (size_t)s->viewer >= rpl_log_seats(s->log) ? RPL_VIEW_PUBLIC
                                                      : s->viewer + 1;
}

/* ------------------------------------------------------------ terminal */

/* The terminal's size (80x24 when it does not say). */
static void
term_size(size_t *rows, size_t *cols)
{
    struct winsize ws;

    *rows = 24;
    *cols = 80;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
        ws.ws_col > 0) {
        *rows = ws.ws_row;
        *cols = ws.ws_col;
    }
    if (*rows < 3) {
        *rows = 3;
    }
    if (*cols < 20) {
        *cols = 20;
    }
}

/* The bytes of the first n columns of text (len bytes), one column a
 * character of UTF-8; *cut says whether some is left. */
static size_t
fit(const char *text, size_t len, size_t n, bool *cut)
{
    size_t i = 0, col = 0;

    while (i < len) {
        if (((unsigned char)text[i] & 0xc0) != 0x80) {
            if (col == n) {
                break;
            }
            col++;
        }
        i++;
    }
    *cut = i < len;
    return i;
}

/* Writes text cut to cols columns, with '>' at the end where it was cut. */
static void
put_cut(const char *text, size_t len, size_t cols)
{
    bool cut;
    size_t n = fit(text, len, cols, &cut);

    if (cut) {
        n = fit(text, len, cols - 1, &cut);
    }
    fwrite(text, 1, n, stdout);
    if (cut) {
        fputc('>', stdout);
    }
}

/* The body's screen lines: each line of text wrapped to cols, but the
 * log line (the first, "line N: ...") cut, for a seal or a commitment
 * is one long word.  Fills starts/lens (cap of them); returns how many
 * there are in all. */
static size_t
layout(const char *text, size_t cols, const char **starts, size_t *lens,
       size_t cap)
{
    size_t n = 0;
    bool first = true;

    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        const char *p = text;
        size_t left = len;

        do {
            bool cut;
            size_t take = fit(p, left, cols, &cut);

            if (cut) {
                /* at the last blank that fits, if there is one */
                size_t sp = take;

                while (sp > 0 && p[sp - 1] != ' ') {
                    sp--;
                }
                if (sp > 0) {
                    take = sp;
                }
            }
            if (first) {
                take = left; /* cut when drawn */
            }
            if (n < cap) {
                starts[n] = p;
                lens[n] = take;
            }
            n++;
            p += take;
            left -= take;
        } while (left > 0);
        first = false;
        text += len + (nl ? 1 : 0);
    }
    return n;
}

static int
draw(struct session *s, bool help, bool reveal)
{
    enum { MAX_LINES = 4096 };
    static const char keys[] =
        "->/<- step  up/down turn  PgUp/PgDn quest  1-9 quest  / find  ? help  "
        "q quit";
    const char **starts = NULL;
    size_t *lens = NULL;
    char vbuf[80], head[400], foot[400];
    char *body = NULL;
    size_t blen = 0, rows, cols, n, avail, shown;
    FILE *m = open_memstream(&body, &blen);
    int rc = CLI_EXIT_OK;

    if (!m) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    s->out = m;
    if (help) {
        fputs(key_help, m);
    } else if (reveal) {
        rc = do_reveal(s);
    } else {
        rc = show_line(s);
        if (rc == CLI_EXIT_OK) {
            fputc('\n', m);
            rc = show_board(s);
        }
    }
    s->out = stdout;
    if (fclose(m) != 0 || !body) {
        free(body);
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    starts = calloc(MAX_LINES, sizeof(*starts));
    lens = calloc(MAX_LINES, sizeof(*lens));
    if (rc != CLI_EXIT_OK || !starts || !lens) {
        if (rc == CLI_EXIT_OK) {
            cli_msg("out of memory");
            rc = CLI_EXIT_USAGE;
        }
        goto out;
    }
    term_size(&rows, &cols);
    n = layout(body, cols, starts, lens, MAX_LINES);
    if (n > MAX_LINES) {
        n = MAX_LINES;
    }
    avail = rows - 2; /* the header line and the key line */
    if (s->scroll + avail > n) {
        s->scroll = n > avail ? n - avail : 0;
    }
    shown = n - s->scroll < avail ? n - s->scroll : avail;
    viewer_text(s, s->viewer, vbuf, sizeof(vbuf));
    snprintf(head, sizeof(head), "%s: line %zu of %zu (%s), viewing as %s",
             s->file, s->pos, s->lines, rpl_progress_text(s->rep.progress),
             vbuf);
    if (n > avail) {
        snprintf(foot, sizeof(foot), "[%zu-%zu/%zu j k] %s", s->scroll + 1,
                 s->scroll + shown, n, s->status[0] != '\0' ? s->status : keys);
    } else {
        snprintf(foot, sizeof(foot), "%s",
                 s->status[0] != '\0' ? s->status : keys);
    }
    s->status[0] = '\0';
    fputs("\033[H\033[2J", stdout);
    put_cut(head, strlen(head), cols);
    fputc('\n', stdout);
    for (size_t i = 0; i < shown; i++) {
        put_cut(starts[s->scroll + i], lens[s->scroll + i], cols);
        fputc('\n', stdout);
    }
    /* the key line on the last row, with no line feed after it: the
     * screen never scrolls */
    printf("\033[%zu;1H", rows);
    put_cut(foot, strlen(foot), cols);
    fflush(stdout);
out:
    free(starts);
    free(lens);
    free(body);
    return rc;
}

/* Whether hay (len bytes) holds needle, ASCII letters in any case. */
static bool
holds(const char *hay, size_t len, const char *needle)
{
    const size_t n = strlen(needle);

    for (size_t i = 0; n && i + n <= len; i++) {
        size_t j = 0;

        while (j < n && tolower((unsigned char)hay[i + j]) ==
                            tolower((unsigned char)needle[j])) {
            j++;
        }
        if (j == n) {
            return true;
        }
    }
    return false;
}

/* The next line after pos (from the start again after the end) whose
 * text, or what it tells the viewer, holds query; 0 when none does.
 * Leaves the replay anywhere: the caller moves it. */
static int
search(struct session *s, const char *query, size_t *found)
{
    struct rpl_error err;

    *found = 0;
    for (size_t i = 1; i <= s->lines; i++) {
        const size_t no = (s->pos + i - 1) % s->lines + 1;
        size_t len;
        const char *line = rpl_log_line(s->log, no, &len);
        char *desc = NULL;
        enum rpl_status st;
        bool hit;

        if (no <= s->start && no != s->start) {
            continue;
        }
        hit = line && holds(line, len, query);
        if (!hit && s->tells[no]) {
            st = rpl_log_describe(s->log, no, s->viewer, &desc, &err);
            if (st != RPL_OK) {
                return cli_file_error(s->file, st, &err);
            }
            hit = desc && holds(desc, strlen(desc), query);
            rpl_free(s->ctx, desc);
        }
        if (hit) {
            *found = no;
            return CLI_EXIT_OK;
        }
    }
    return CLI_EXIT_OK;
}

/* The line that decides the nth quest, or 0. */
static size_t
nth_quest(const struct session *s, size_t nth)
{
    size_t seen = 0;

    for (size_t no = s->start + 1; no <= s->lines; no++) {
        if ((s->marks[no] & RPL_MARK_QUEST) && ++seen == nth) {
            return no;
        }
    }
    return 0;
}

/* The end: the last line that tells something (not a seal). */
static size_t
last_stop(const struct session *s)
{
    size_t no = s->lines;

    while (no > s->start && !s->tells[no]) {
        no--;
    }
    return no;
}

/* Reads a search on the key line; false when it is given up (Esc, or
 * the end of input). */
static bool
read_query(struct session *s, char *buf, size_t cap)
{
    size_t rows, cols, n = 0;

    buf[0] = '\0';
    for (;;) {
        int k;

        term_size(&rows, &cols);
        printf("\033[%zu;1H\033[K/", rows);
        put_cut(buf, n, cols - 1);
        fflush(stdout);
        k = read_key();
        if (k == '\r' || k == '\n') {
            return true;
        }
        if (k == KEY_EOF || k == KEY_NONE || k == 0x1b || k == 3) {
            return false;
        }
        if ((k == 0x7f || k == 0x08) && n > 0) {
            do {
                n--;
            } while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80);
            buf[n] = '\0';
        } else if (k >= 0x20 && k < 0x100 && k != 0x7f && n + 1 < cap) {
            buf[n++] = (char)k;
            buf[n] = '\0';
        }
        (void)s;
    }
}

static int
run_keys(struct session *s)
{
    bool help = false, reveal = false;
    int rc = draw(s, false, false);

    while (rc == CLI_EXIT_OK) {
        const int k = read_key();
        size_t to = s->pos;
        const int viewer = s->viewer;

        if (is_resumed) {
            is_resumed = 0;
        }
        if (help || reveal) {
            help = reveal = false;
            if (k == 'q' || k == KEY_EOF) {
                break;
            }
            s->scroll = 0;
            rc = draw(s, false, false);
            continue;
        }
        switch (k) {
        case 'q':
        case KEY_EOF:
            return CLI_EXIT_OK;
        case KEY_RIGHT:
        case 'n':
        case ' ':
            to = find_stop(s, s->pos, 1, 0);
            break;
        case KEY_LEFT:
        case 'b':
            to = find_stop(s, s->pos, -1, 0);
            break;
        case KEY_DOWN:
        case 't':
            to = find_stop(s, s->pos, 1, RPL_MARK_TURN);
            break;
        case KEY_UP:
        case 'T':
            to = find_stop(s, s->pos, -1, RPL_MARK_TURN);
            break;
        case KEY_PGDN:
        case ']':
            to = find_stop(s, s->pos, 1, RPL_MARK_QUEST);
            break;
        case KEY_PGUP:
        case '[':
            to = find_stop(s, s->pos, -1, RPL_MARK_QUEST);
            break;
        case KEY_HOME:
        case 'g':
            to = s->start;
            break;
        case KEY_END:
        case 'G':
            to = last_stop(s);
            break;
        case 'j':
            s->scroll++;
            break;
        case 'k':
            if (s->scroll > 0) {
                s->scroll--;
            }
            break;
        case '/': {
            char q[sizeof(s->query)];
            size_t found = 0;

            if (!read_query(s, q, sizeof(q))) {
                break;
            }
            if (q[0] != '\0') {
                snprintf(s->query, sizeof(s->query), "%s", q);
            }
            if (s->query[0] == '\0') {
                say(s, "no search yet: / then the text, then Enter");
                break;
            }
            rc = search(s, s->query, &found);
            if (rc != CLI_EXIT_OK) {
                return rc;
            }
            if (found) {
                to = found;
                snprintf(s->status, sizeof(s->status),
                         "found '%.60s' at line %zu (/ Enter: the next)",
                         s->query, found);
            } else {
                snprintf(s->status, sizeof(s->status), "no line holds '%.60s'",
                         s->query);
            }
            break;
        }
        case 's':
            if (may_view(s, next_seat(s))) {
                s->viewer = next_seat(s);
            }
            break;
        case 'a':
            if (may_view(s, RPL_VIEW_ALL)) {
                s->viewer = RPL_VIEW_ALL;
            }
            break;
        case 'v':
            s->viewer = RPL_VIEW_PUBLIC;
            break;
        case 'r':
            reveal = s->rep.progress == RPL_PROGRESS_COMPLETE;
            if (!reveal) {
                (void)do_reveal(s);
            }
            break;
        case '?':
        case 'h':
            help = true;
            break;
        default:
            if (k >= '1' && k <= '9') {
                const size_t q = nth_quest(s, (size_t)(k - '0'));

                if (q) {
                    to = q;
                } else {
                    snprintf(s->status, sizeof(s->status),
                             "no quest %c was decided", k);
                }
            }
            break;
        }
        if (to == s->pos &&
            (k == KEY_RIGHT || k == 'n' || k == ' ' || k == KEY_DOWN ||
             k == 't' || k == KEY_PGDN || k == ']')) {
            snprintf(s->status, sizeof(s->status), "no further: at line %zu",
                     s->pos);
        }
        if (to != s->pos || viewer != s->viewer || help || reveal) {
            s->scroll = 0;
        }
        rc = move_to(s, to);
        if (rc == CLI_EXIT_OK) {
            rc = draw(s, help, reveal);
        }
    }
    return rc;
}

/* ------------------------------------------------------------ line mode */

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

/* Moves count stops of want in direction dir; says so when none. */
static int
step_by(struct session *s, int dir, unsigned want, size_t count, bool *printed)
{
    size_t to = s->pos;
    int rc;

    for (size_t i = 0; i < count; i++) {
        const size_t next = find_stop(s, to, dir, want);

        if (next == to) {
            break;
        }
        to = next;
    }
    if (to == s->pos) {
        if (dir > 0) {
            cli_msg("no further %s (at line %zu)",
                    want == RPL_MARK_TURN    ? "turn"
                    : want == RPL_MARK_QUEST ? "quest"
                                             : "event",
                    s->pos);
        } else {
            cli_msg("no earlier %s (at line %zu)",
                    want == RPL_MARK_TURN    ? "turn"
                    : want == RPL_MARK_QUEST ? "quest"
                                             : "event",
                    s->pos);
        }
        return CLI_EXIT_OK;
    }
    *printed = true;
    rc = move_to(s, to);
    if (rc == CLI_EXIT_OK) {
        rc = show_line(s);
    }
    return rc == CLI_EXIT_OK ? show_board(s) : rc;
}

static int
jump(struct session *s, size_t no, bool *printed)
{
    int rc = move_to(s, no);

    *printed = true;
    if (rc == CLI_EXIT_OK) {
        rc = show_line(s);
    }
    return rc == CLI_EXIT_OK ? show_board(s) : rc;
}

/* Runs one command line; *printed is set when it wrote to stdout, *quit
 * by q.  Mistakes in commands are reported and the session goes on; a
 * failing library call ends it. */
static int
command(struct session *s, char *line, bool *printed, bool *quit)
{
    char *cmd;
    char *arg;
    const char *extra;
    size_t n;
    char vbuf[80];

    line += strspn(line, " \t");
    if (line[0] == '/') {
        /* the rest of the line, spaces and all, is the search */
        char *q = line + 1;
        size_t found = 0;
        int rc;

        q += strspn(q, " \t");
        q[strcspn(q, "\r\n")] = '\0';
        if (q[0] != '\0') {
            snprintf(s->query, sizeof(s->query), "%s", q);
        }
        if (s->query[0] == '\0') {
            cli_msg("/ takes the text to look for");
            return CLI_EXIT_OK;
        }
        rc = search(s, s->query, &found);
        if (rc != CLI_EXIT_OK) {
            return rc;
        }
        if (!found) {
            cli_msg("no line holds '%s'", s->query);
            return move_to(s, s->pos);
        }
        return jump(s, found, printed);
    }
    cmd = strtok(line, " \t\r\n");
    arg = cmd ? strtok(NULL, " \t\r\n") : NULL;
    extra = arg ? strtok(NULL, " \t\r\n") : NULL;
    if (!cmd) {
        return CLI_EXIT_OK; /* empty line */
    }
    if (extra || strlen(cmd) != 1) {
        cli_msg("unknown command '%s' (h for help)", cmd);
        return CLI_EXIT_OK;
    }
    switch (cmd[0]) {
    case 'n':
    case 'b':
        if (!parse_arg(arg, &n, 1) || n == 0) {
            cli_msg("%c takes a count of events", cmd[0]);
            return CLI_EXIT_OK;
        }
        return step_by(s, cmd[0] == 'n' ? 1 : -1, 0, n, printed);
    case 't':
    case 'T':
        return step_by(s, cmd[0] == 't' ? 1 : -1, RPL_MARK_TURN, 1, printed);
    case ']':
    case '[':
        return step_by(s, cmd[0] == ']' ? 1 : -1, RPL_MARK_QUEST, 1, printed);
    case 'g':
        return jump(s, s->start, printed);
    case 'G':
        return jump(s, last_stop(s), printed);
    case 'Q':
        if (!arg || !cli_parse_size(arg, &n) || n == 0 || !nth_quest(s, n)) {
            cli_msg("Q takes the number of a quest that was decided");
            return CLI_EXIT_OK;
        }
        return jump(s, nth_quest(s, n), printed);
    case 'j':
        if (!arg || !cli_parse_size(arg, &n) || n > s->lines) {
            cli_msg("j takes a line number from 0 to %zu", s->lines);
            return CLI_EXIT_OK;
        }
        return jump(s, n, printed);
    case 'v':
    case 'a':
        if (cmd[0] == 'a') {
            if (arg || !may_view(s, RPL_VIEW_ALL)) {
                if (arg) {
                    cli_msg("a takes nothing");
                }
                return CLI_EXIT_OK;
            }
            s->viewer = RPL_VIEW_ALL;
        } else if (!arg) {
            s->viewer = RPL_VIEW_PUBLIC;
        } else if (!cli_parse_seat(arg, &n) || n > 99) {
            cli_msg("v takes a seat like p3");
            return CLI_EXIT_OK;
        } else if (!may_view(s, (int)n)) {
            return CLI_EXIT_OK;
        } else {
            s->viewer = (int)n;
        }
        viewer_text(s, s->viewer, vbuf, sizeof(vbuf));
        printf("viewing as %s\n", vbuf);
        *printed = true;
        return show_board(s);
    case 's':
        *printed = true;
        return show_board(s);
    case 'r':
        if (s->rep.progress == RPL_PROGRESS_COMPLETE) {
            *printed = true;
        }
        return do_reveal(s);
    case 'h':
    case '?':
        fputs(session_help, s->out);
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

static int
run_lines(struct session *s)
{
    char *line = NULL;
    size_t cap = 0;
    bool quit = false, printed;
    char vbuf[80];
    int rc;

    viewer_text(s, s->viewer, vbuf, sizeof(vbuf));
    printf("%s: %zu lines, %s; viewing as %s; h for help\n", s->file, s->lines,
           rpl_progress_text(s->rep.progress), vbuf);
    rc = show_line(s);
    if (rc == CLI_EXIT_OK) {
        rc = show_board(s);
    }
    fputc('\n', stdout);
    while (!quit && rc == CLI_EXIT_OK) {
        fflush(stdout);
        if (getline(&line, &cap, stdin) < 0) {
            break;
        }
        printed = false;
        rc = command(s, line, &printed, &quit);
        if (printed) {
            fputc('\n', stdout); /* an empty line ends each answer */
        }
    }
    free(line);
    return rc;
}

int
cmd_step(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"as", required_argument, NULL, 'a'},
        {"omniscient", no_argument, NULL, 'O'},
        {"deliveries", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    /* The verify's one pass keeps what scan() reads: each line's marks
     * and whether it tells the public anything. */
    static const struct rpl_walk_opts walk = {.describe = true, .marks = true};
    struct session s;
    size_t seat;
    bool has_as = false, has_all = false;
    const char *deliveries = NULL;
    int c, rc;

    memset(&s, 0, sizeof(s));
    s.viewer = RPL_VIEW_PUBLIC;
    s.out = stdout;
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
            has_as = true;
            break;
        case 'O':
            s.viewer = RPL_VIEW_ALL;
            has_all = true;
            break;
        case 'd':
            deliveries = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("step", c, argv);
        }
    }
    if (has_as && has_all) {
        return cli_usage_error("step",
                               "--as and --omniscient exclude each other");
    }
    if (deliveries && !has_as) {
        return cli_usage_error("step", "--deliveries needs --as");
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
    rc = cli_open_log(s.ctx, s.file, &walk, &s.log, &s.rep);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (deliveries && (size_t)s.viewer <= rpl_log_seats(s.log)) {
        rc = cli_learn_deliveries(s.log, s.file, (size_t)s.viewer, deliveries);
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
        s.learned = s.viewer;
    }
    if (!may_view(&s, s.viewer)) {
        rc = s.viewer > 0 && (size_t)s.viewer > rpl_log_seats(s.log)
                 ? CLI_EXIT_USAGE
                 : CLI_EXIT_INVALID;
        goto out;
    }
    s.lines = rpl_log_lines(s.log);
    rc = scan(&s);
    if (rc == CLI_EXIT_OK) {
        rc = move_to(&s, s.start);
    }
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    s.is_tty = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1;
    if (s.is_tty && term_start()) {
        rc = run_keys(&s);
        term_end();
        fputc('\n', stdout);
    } else {
        s.is_tty = false;
        rc = run_lines(&s);
    }
out:
    free(s.marks);
    free(s.tells);
    rpl_log_free(s.log);
    rpl_ctx_free(s.ctx);
    return cli_finish(rc);
}
