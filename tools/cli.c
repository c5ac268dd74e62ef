/*
 * cli.c - shared helpers of the camelog commands: messages, exit codes,
 * option errors, JSON Lines, progress and small parsers.  Everything the
 * user reads goes through here, so the formats of camelog(1) hold in one
 * place: results on stdout, messages on stderr as "camelog: FILE:LINE:
 * what", JSON as one compact object per line.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#define PROG "camelog"

/* Refresh the progress line at most this often. */
#define PROGRESS_REFRESH_NS 200000000L

/* The progress line on the terminal, if one is drawn: messages clear it
 * first so that they start at the left margin. */
static struct cli_progress *progress_drawn;

static void
clear_progress(void)
{
    if (progress_drawn && progress_drawn->shown) {
        fputs("\r\033[K", stderr);
        progress_drawn->shown = false;
    }
}

int
cli_exit_status(enum rpl_status st)
{
    if (st == RPL_OK) {
        return CLI_EXIT_OK;
    }
    return rpl_status_is_invalid_input(st) ? CLI_EXIT_INVALID : CLI_EXIT_USAGE;
}

int
cli_worst(int a, int b)
{
    return a > b ? a : b;
}

/* The streams of the calling thread: a worker thread of the pool
 * (pool.c) writes into buffers that the main thread copies out in input
 * order.  Thread-local, so each thread sees only its own. */
static _Thread_local FILE *divert_out;
static _Thread_local FILE *divert_err;

void
cli_divert(FILE *out, FILE *err)
{
    divert_out = out;
    divert_err = err;
}

FILE *
cli_out(void)
{
    return divert_out ? divert_out : stdout;
}

FILE *
cli_err(void)
{
    return divert_err ? divert_err : stderr;
}

/* Before a message: what stdout holds goes first, and the progress line
 * is cleared (the main thread's business only). */
static void
msg_begin(void)
{
    if (divert_err) {
        return;
    }
    fflush(stdout);
    clear_progress();
}

void
cli_put_text(const char *out, size_t out_len, const char *err, size_t err_len)
{
    if (err_len > 0) {
        fflush(stdout);
        clear_progress();
        fwrite(err, 1, err_len, stderr);
    }
    if (out_len > 0) {
        fwrite(out, 1, out_len, stdout);
    }
}

/* Writes head, the message and a newline to f as one line: in one write
 * where it fits in a buffer, as stderr is unbuffered (which also keeps
 * the line whole beside other programs writing to the same terminal). */
static void
put_line(FILE *f, const char *head, const char *fmt, va_list ap)
{
    char buf[1024];
    const size_t h = strlen(head);
    va_list aq;
    int n = -1;

    va_copy(aq, ap);
    if (h < sizeof(buf)) {
        memcpy(buf, head, h);
        n = vsnprintf(buf + h, sizeof(buf) - h, fmt, aq);
    }
    va_end(aq);
    if (n >= 0 && (size_t)n + 1 < sizeof(buf) - h) {
        buf[h + (size_t)n] = '\n';
        fwrite(buf, 1, h + (size_t)n + 1, f);
        return;
    }
    fputs(head, f);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
}

void
cli_msg(const char *fmt, ...)
{
    va_list ap;

    msg_begin();
    va_start(ap, fmt);
    put_line(cli_err(), PROG ": ", fmt, ap);
    va_end(ap);
}

static void
file_vmsg(const char *file, size_t line, const char *kind, const char *fmt,
          va_list ap)
{
    const char *k = kind ? kind : "", *sep = kind ? ": " : "";
    char head[1024], shown[4 * 4096];
    int n;

    msg_begin();
    /* A file name is text from a directory: a record set or an archive
     * may come from anyone, so its controls never reach the terminal. */
    if (file) {
        rpl_text_escape(file, shown, sizeof(shown));
        file = shown;
    }
    if (!file) {
        n = snprintf(head, sizeof(head), PROG ": %s%s", k, sep);
    } else if (line > 0) {
        n = snprintf(head, sizeof(head), PROG ": %s:%zu: %s%s", file, line, k,
                     sep);
    } else {
        n = snprintf(head, sizeof(head), PROG ": %s: %s%s", file, k, sep);
    }
    if (n < 0 || (size_t)n >= sizeof(head)) {
        /* A name too long for the buffer: it goes first, by itself. */
        fprintf(cli_err(), PROG ": %s", file);
        if (line > 0) {
            fprintf(cli_err(), ":%zu", line);
        }
        snprintf(head, sizeof(head), ": %s%s", k, sep);
    }
    put_line(cli_err(), head, fmt, ap);
}

void
cli_file_msg(const char *file, size_t line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    file_vmsg(file, line, NULL, fmt, ap);
    va_end(ap);
}

void
cli_file_warn(const char *file, size_t line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    file_vmsg(file, line, "warning", fmt, ap);
    va_end(ap);
}

const char *
cli_error_text(enum rpl_status st, const struct rpl_error *err)
{
    if (err && err->code != RPL_OK && err->msg[0] != '\0') {
        return err->msg;
    }
    return rpl_strerror(st);
}

int
cli_file_error(const char *file, enum rpl_status st,
               const struct rpl_error *err)
{
    const size_t line = err && err->code != RPL_OK ? err->line : 0;

    /* Every command that writes files has --force. */
    cli_file_msg(file, line, "%s%s", cli_error_text(st, err),
                 st == RPL_E_EXISTS ? "; --force overwrites it" : "");
    return cli_exit_status(st);
}

int
cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    clear_progress();
    fputs(PROG ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (cmd) {
        fprintf(stderr, PROG ": try '" PROG " %s --help'\n", cmd);
    } else {
        fputs(PROG ": try '" PROG " --help'\n", stderr);
    }
    return CLI_EXIT_USAGE;
}

int
cli_option_error(const char *cmd, int c, char **argv)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    const bool is_long = arg && strncmp(arg, "--", 2) == 0;
    size_t n = 0;

    if (!arg) {
        arg = "";
    }
    if (is_long) {
        n = strcspn(arg, "=");
        if (c == ':') {
            return cli_usage_error(cmd, "option '%.*s' needs a value", (int)n,
                                   arg);
        }
        if (optopt != 0 && arg[n] == '=') {
            return cli_usage_error(cmd, "option '%.*s' takes no value", (int)n,
                                   arg);
        }
        return cli_usage_error(cmd, "unknown option '%.*s'", (int)n, arg);
    }
    if (c == ':') {
        return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
    }
    if (optopt > 32 && optopt < 127) {
        return cli_usage_error(cmd, "unknown option '-%c'", optopt);
    }
    return cli_usage_error(cmd, "unknown option '%s'", arg);
}

int
cli_help(const char *usage, const char *options)
{
    fputs(usage, stdout);
    if (options && options[0] != '\0') {
        fputc('\n', stdout);
        fputs(options, stdout);
    }
    return cli_finish(CLI_EXIT_OK);
}

int
cli_finish(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        const int e = errno;

        fprintf(stderr, PROG ": standard output: %s\n",
                e != 0 ? strerror(e) : "write error");
        return CLI_EXIT_USAGE;
    }
    return status;
}

bool
cli_parse_size(const char *s, size_t *out)
{
    size_t v = 0;

    if (!s || *s == '\0') {
        return false;
    }
    for (; *s != '\0'; s++) {
        const unsigned d = (unsigned)(unsigned char)*s - '0';

        if (d > 9) {
            return false;
        }
        if (v > (SIZE_MAX - d) / 10) {
            return false;
        }
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

bool
cli_parse_seat(const char *s, size_t *seat)
{
    size_t k;

    if (!s || s[0] != 'p' || s[1] == '0') {
        return false;
    }
    if (!cli_parse_size(s + 1, &k) || k == 0 || k > 1000) {
        return false;
    }
    *seat = k;
    return true;
}

static int
hexval(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

bool
cli_parse_hex(const char *s, uint8_t *out, size_t cap, size_t *len)
{
    const size_t n = strlen(s);
    size_t i;

    if (n == 0 || n % 2 != 0 || n / 2 > cap) {
        return false;
    }
    for (i = 0; i < n / 2; i++) {
        const int hi = hexval(s[2 * i]);
        const int lo = hexval(s[2 * i + 1]);

        if (hi < 0 || lo < 0) {
            return false;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *len = n / 2;
    return true;
}

void
cli_hex(const uint8_t *in, size_t len, char *out)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;

    for (i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
}

int
cli_open_input(const char *path)
{
    struct stat st;
    int fd, fl, e;

    /* O_NONBLOCK: opening a FIFO waits for a writer; fstat() tells it
     * from a regular file without waiting. */
    do {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        goto fail;
    }
    if (!S_ISREG(st.st_mode)) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        goto fail;
    }
    fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        goto fail;
    }
    return fd;
fail:
    e = errno;
    close(fd);
    errno = e;
    return -1;
}

const char *
cli_input_errtext(int e)
{
    return e == EINVAL ? "not a regular file" : strerror(e);
}

int
cli_read_file(const char *path, size_t max, char **out, size_t *len)
{
    FILE *f = NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    int rc = CLI_EXIT_USAGE;
    const bool is_stdin = strcmp(path, "-") == 0;

    if (is_stdin) {
        f = stdin;
    } else {
        const int fd = cli_open_input(path);

        if (fd < 0) {
            return CLI_EXIT_USAGE;
        }
        f = fdopen(fd, "rb");
        if (!f) {
            const int e = errno;

            close(fd);
            errno = e;
            return CLI_EXIT_USAGE;
        }
    }
    for (;;) {
        size_t got;

        if (n == cap) {
            const size_t ncap = cap == 0 ? 65536 : cap * 2;
            char *p;

            if (cap > max) {
                rc = CLI_EXIT_INVALID;
                goto out;
            }
            p = realloc(buf, ncap + 1);
            if (!p) {
                errno = ENOMEM;
                goto out;
            }
            buf = p;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > max) {
            rc = CLI_EXIT_INVALID;
            goto out;
        }
        if (got == 0) {
            if (ferror(f)) {
                if (errno == 0) {
                    errno = EIO;
                }
                goto out;
            }
            break;
        }
    }
    if (!buf) {
        buf = malloc(1);
        if (!buf) {
            errno = ENOMEM;
            goto out;
        }
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    buf = NULL;
    rc = CLI_EXIT_OK;
out:
    free(buf);
    if (!is_stdin) {
        fclose(f);
    }
    return rc;
}

int
cli_load_pubkey(const char *arg, struct rpl_pubkey *pk)
{
    struct rpl_error err;
    enum rpl_status st;

    if (strlen(arg) == RPL_PUBKEY_B64_LEN && access(arg, F_OK) != 0) {
        st = rpl_pubkey_parse(pk, arg, RPL_PUBKEY_B64_LEN, &err);
        if (st != RPL_OK) {
            cli_msg("--pubkey: %s", cli_error_text(st, &err));
            return CLI_EXIT_USAGE;
        }
        return CLI_EXIT_OK;
    }
    st = rpl_pubkey_load(pk, arg, &err);
    if (st != RPL_OK) {
        cli_file_msg(arg, err.line, "%s", cli_error_text(st, &err));
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

int
cli_open_log(struct rpl_ctx *ctx, const char *file,
             const struct rpl_walk_opts *walk, struct rpl_log **out,
             struct rpl_report *rep)
{
    static const struct rpl_walk_opts nothing;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    enum rpl_status st;

    memset(rep, 0, sizeof(*rep));
    st = rpl_log_read(ctx, &log, file, &err);
    if (st != RPL_OK) {
        return cli_file_error(file, st, &err);
    }
    st = rpl_log_verify_walk(log, NULL, walk ? walk : &nothing, rep);
    if (st != RPL_OK) {
        rpl_log_free(log);
        return cli_file_error(file, st, &rep->error);
    }
    *out = log;
    return CLI_EXIT_OK;
}

int
cli_ctx_new(struct rpl_ctx **ctx)
{
    struct rpl_error err;
    const enum rpl_status st = rpl_ctx_new(ctx, NULL, &err);

    if (st != RPL_OK) {
        cli_msg("%s", cli_error_text(st, &err));
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------- JSON */

/* Length of the valid UTF-8 sequence at s (1..4), or 0. */
static size_t
utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n, i;
    unsigned cp;

    if (c < 0x80) {
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
        return 0;
    }
    return n;
}

json_t *
cli_json_list(const char *list)
{
    json_t *a = json_array();
    const char *p = list;

    while (a && *p != '\0') {
        const size_t n = strcspn(p, ",");

        if (json_array_append_new(a, json_stringn(p, n)) != 0) {
            json_decref(a);
            return NULL;
        }
        p += n;
        if (*p == ',') {
            p++;
        }
    }
    return a;
}

json_t *
cli_json_str(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    json_t *j = json_string(s);
    char *buf, *q;

    if (j) {
        return j;
    }
    /* Not UTF-8: each bad byte becomes U+FFFD (3 bytes). */
    buf = malloc(strlen(s) * 3 + 1);
    if (!buf) {
        return NULL;
    }
    q = buf;
    while (*p != '\0') {
        const size_t n = utf8_len(p);

        if (n == 0) {
            memcpy(q, "\xef\xbf\xbd", 3);
            q += 3;
            p++;
        } else {
            memcpy(q, p, n);
            q += n;
            p += n;
        }
    }
    *q = '\0';
    j = json_string(buf);
    free(buf);
    return j;
}

json_t *
cli_json_size(size_t n)
{
    const size_t max = (size_t)1 << 53;

    return json_integer((json_int_t)(n > max ? max : n));
}

json_t *
cli_json_parse(const char *text)
{
    json_error_t jerr;

    return json_loads(text, JSON_DECODE_ANY, &jerr);
}

int
cli_json_print(const json_t *obj)
{
    char *s = json_dumps(obj, JSON_COMPACT | JSON_ENCODE_ANY);

    if (!s) {
        cli_msg("cannot encode JSON output");
        return CLI_EXIT_USAGE;
    }
    fputs(s, cli_out());
    fputc('\n', cli_out());
    free(s);
    return CLI_EXIT_OK;
}

bool
cli_json_set(json_t *obj, const char *key, json_t *val)
{
    if (!obj || !val) {
        json_decref(val);
        return false;
    }
    return json_object_set_new(obj, key, val) == 0;
}

/* ------------------------------------------------------------ progress */

static long long
elapsed_ns(const struct timespec *from, const struct timespec *to)
{
    return (long long)(to->tv_sec - from->tv_sec) * 1000000000LL +
           (to->tv_nsec - from->tv_nsec);
}

void
cli_progress_start(struct cli_progress *p, const char *what, size_t total,
                   bool quiet)
{
    memset(p, 0, sizeof(*p));
    p->what = what;
    p->total = total;
    p->enabled = !quiet && isatty(STDERR_FILENO) == 1;
    if (p->enabled) {
        clock_gettime(CLOCK_MONOTONIC, &p->start);
        p->last = p->start;
    }
}

void
cli_progress_update(struct cli_progress *p, size_t done)
{
    struct timespec now;

    if (!p->enabled) {
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (elapsed_ns(&p->start, &now) < 1000000000LL) {
        return;
    }
    if (p->shown && elapsed_ns(&p->last, &now) < PROGRESS_REFRESH_NS) {
        return;
    }
    p->last = now;
    p->shown = true;
    progress_drawn = p;
    if (p->total > 0) {
        fprintf(stderr, "\r" PROG ": %zu/%zu %s", done, p->total, p->what);
    } else {
        fprintf(stderr, "\r" PROG ": %zu %s", done, p->what);
    }
    fflush(stderr);
}

void
cli_progress_end(struct cli_progress *p)
{
    if (p->enabled && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = false;
    if (progress_drawn == p) {
        progress_drawn = NULL;
    }
}

void
cli_game_names(char *out, size_t cap, const char *sep, const char *last)
{
    const size_t n = rpl_game_count();
    size_t len = 0;

    out[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++) {
        const char *const join = i == 0 ? "" : i + 1 == n ? last : sep;
        const int k = snprintf(out + len, cap - len, "%s%s", join,
                               rpl_game_info(i)->name);

        if (k < 0)
            break;
        len += (size_t)k;
    }
}

int
cli_make_dir(const char *dir)
{
    struct stat sb;

    if (mkdir(dir, 0777) == 0)
        return CLI_EXIT_OK;
    if (errno == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
        return CLI_EXIT_OK;
    cli_file_msg(dir, 0, "%s",
                 errno == EEXIST ? "not a directory" : strerror(errno));
    return CLI_EXIT_USAGE;
}

int
cli_write_file(const char *path, const void *data, size_t len, unsigned mode,
               bool force)
{
    struct rpl_error err;
    enum rpl_status st;

    if (strcmp(path, "-") == 0) {
        /* Through stdio, in order with what the command printed. */
        FILE *out = cli_out();

        if (len > 0 && fwrite(data, 1, len, out) != len) {
            cli_msg("standard output: %s", strerror(errno));
            return CLI_EXIT_USAGE;
        }
        return CLI_EXIT_OK;
    }
    st = rpl_file_write(path, data, len, mode, force, &err);
    if (st != RPL_OK) {
        const int rc = cli_file_error(path, st, &err);

        return rc == CLI_EXIT_INVALID ? CLI_EXIT_USAGE : rc;
    }
    return CLI_EXIT_OK;
}

int
cli_wfile_open(struct cli_wfile *w, const char *path)
{
    memset(w, 0, sizeof(*w));
    w->path = strdup(path);
    if (w->path && strcmp(path, "-") == 0) {
        w->fp = cli_out();
        return CLI_EXIT_OK;
    }
    w->fp = w->path ? open_memstream(&w->buf, &w->len) : NULL;
    if (!w->fp) {
        free(w->path);
        w->path = NULL;
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

void
cli_wfile_drop(struct cli_wfile *w)
{
    if (w->fp && w->fp != cli_out())
        fclose(w->fp);
    w->fp = NULL;
    if (w->buf) {
        sodium_memzero(w->buf, w->len);
        free(w->buf);
    }
    w->buf = NULL;
    w->len = 0;
    free(w->path);
    w->path = NULL;
}

int
cli_wfile_commit(struct cli_wfile *w, unsigned mode, bool force)
{
    int rc = CLI_EXIT_OK;

    if (!w->fp)
        return CLI_EXIT_USAGE;
    if (w->fp == cli_out()) {
        w->fp = NULL;
        cli_wfile_drop(w);
        return CLI_EXIT_OK;
    }
    if (ferror(w->fp) || fclose(w->fp) != 0) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
    }
    w->fp = NULL;
    if (rc == CLI_EXIT_OK)
        rc = cli_write_file(w->path, w->buf ? w->buf : "", w->len, mode, force);
    cli_wfile_drop(w);
    return rc;
}

void
cli_put_text_escaped(FILE *f, const char *s)
{
    char small[256];
    const size_t n = rpl_text_escape(s, small, sizeof(small));
    char *big;

    if (n < sizeof(small)) {
        fputs(small, f);
        return;
    }
    big = malloc(n + 1);
    if (!big) {
        fputs(small, f);
        return;
    }
    (void)rpl_text_escape(s, big, n + 1);
    fputs(big, f);
    free(big);
}

/* ---------------------------------------------------------- coverage */

static size_t
game_index(const char *game)
{
    for (size_t i = 0; i < rpl_game_count() && i < CLI_COV_GAMES; i++)
        if (strcmp(rpl_game_info(i)->name, game) == 0)
            return i;
    return CLI_COV_GAMES;
}

bool
cli_coverage_has(const uint64_t bits[RPL_COVERAGE_WORDS], size_t i)
{
    return i < RPL_COVERAGE_MAX && (bits[i / 64] >> (i % 64) & 1u) != 0;
}

void
cli_coverage_add(struct cli_coverage *c, const char *game,
                 const uint64_t bits[RPL_COVERAGE_WORDS])
{
    const size_t g = game_index(game);
    const size_t n = rpl_coverage_count(game);

    if (g >= CLI_COV_GAMES)
        return;
    c->games[g]++;
    for (size_t i = 0; i < n && i < RPL_COVERAGE_MAX; i++)
        if (cli_coverage_has(bits, i))
            c->count[g][i]++;
}

void
cli_coverage_print(const struct cli_coverage *c, FILE *f)
{
    for (size_t g = 0; g < rpl_game_count() && g < CLI_COV_GAMES; g++) {
        const char *const name = rpl_game_info(g)->name;
        const size_t n = rpl_coverage_count(name);
        size_t hit = 0, never = 0;

        if (c->games[g] == 0)
            continue;
        for (size_t i = 0; i < n; i++)
            hit += c->count[g][i] > 0;
        fprintf(f, "coverage %s: %zu %s, %zu of %zu ids exercised\n", name,
                c->games[g], c->games[g] == 1 ? "game" : "games", hit, n);
        for (size_t i = 0; i < n; i++) {
            const struct rpl_coverage_id *const id = rpl_coverage_id(name, i);

            fprintf(f, "  %-32s %6zu  %s\n", id->id, c->count[g][i], id->what);
        }
        for (size_t i = 0; i < n; i++) {
            const struct rpl_coverage_id *const id = rpl_coverage_id(name, i);

            if (c->count[g][i] > 0)
                continue;
            if (never++ == 0)
                fprintf(f, "never exercised in %s:\n", name);
            if (id->unreachable)
                fprintf(f, "  %s (unreachable: %s)\n", id->id, id->unreachable);
            else
                fprintf(f, "  %s\n", id->id);
        }
    }
}

json_t *
cli_coverage_json(const struct cli_coverage *c, size_t g)
{
    const char *const name = rpl_game_info(g)->name;
    const size_t n = rpl_coverage_count(name);
    json_t *const o = json_object();
    json_t *const ids = json_array();
    json_t *const never = json_array();
    json_t *const unreachable = json_array();
    bool ok = o && ids && never && unreachable;

    for (size_t i = 0; ok && i < n; i++) {
        const struct rpl_coverage_id *const id = rpl_coverage_id(name, i);
        json_t *const e = json_object();

        if (!e)
            ok = false;
        ok &= cli_json_set(e, "id", cli_json_str(id->id));
        ok &= cli_json_set(e, "games", cli_json_size(c->count[g][i]));
        ok &= cli_json_set(e, "what", cli_json_str(id->what));
        ok &= cli_json_set(e, "unreachable",
                           id->unreachable ? cli_json_str(id->unreachable)
                                           : json_null());
        ok &= json_array_append_new(ids, e) == 0;
        if (c->count[g][i] == 0)
            ok &= json_array_append_new(never, cli_json_str(id->id)) == 0;
        if (id->unreachable)
            ok &= json_array_append_new(unreachable, cli_json_str(id->id)) == 0;
    }
    ok &= cli_json_set(o, "coverage", cli_json_str(name));
    ok &= cli_json_set(o, "games", cli_json_size(c->games[g]));
    ok &= cli_json_set(o, "ids", ids);
    ok &= cli_json_set(o, "never", never);
    ok &= cli_json_set(o, "unreachable", unreachable);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* ---------------------------------------------------------- deliveries */

/* The limits of a deliveries file: those of a log (RPL_MAX_TEXT,
 * RPL_MAX_LINE, RPL_MAX_LINES). */
#define DELIV_TEXT_MAX  (16u * 1024u * 1024u)
#define DELIV_LINE_MAX  4096u
#define DELIV_LINES_MAX 100000u

int
cli_read_deliveries(const char *file, struct rpl_delivery **out, size_t *count)
{
    char *buf = NULL;
    size_t len = 0, no = 0, n = 0, cap = 0;
    struct rpl_delivery *d = NULL;
    int form = 0; /* 1 text, 2 JSON */
    int rc = cli_read_file(file, DELIV_TEXT_MAX, &buf, &len);
    char *p;

    if (rc == CLI_EXIT_INVALID) {
        cli_file_msg(file, 0, "larger than %u bytes", DELIV_TEXT_MAX);
        return rc;
    }
    if (rc != CLI_EXIT_OK) {
        cli_file_msg(file, 0, "%s", cli_input_errtext(errno));
        return rc;
    }
    for (p = buf; rc == CLI_EXIT_OK && p < buf + len;) {
        char *lf = memchr(p, '\n', (size_t)(buf + len - p));
        const size_t k = lf ? (size_t)(lf - p) : (size_t)(buf + len - p);
        const int this_form = k > 0 && p[0] == '{' ? 2 : 1;
        struct rpl_error err;
        enum rpl_status st;

        no++;
        if (no > DELIV_LINES_MAX) {
            cli_file_msg(file, no, "more than %u deliveries (RPL_MAX_LINES)",
                         DELIV_LINES_MAX);
            rc = CLI_EXIT_INVALID;
        } else if (!lf) {
            cli_file_msg(file, no, "the last line does not end with LF");
            rc = CLI_EXIT_INVALID;
        } else if (k > DELIV_LINE_MAX) {
            cli_file_msg(file, no,
                         "a line of %zu bytes: at most %u (RPL_MAX_LINE)", k,
                         DELIV_LINE_MAX);
            rc = CLI_EXIT_INVALID;
        } else if (form != 0 && this_form != form) {
            cli_file_msg(file, no,
                         "text and JSON deliveries mixed in one file");
            rc = CLI_EXIT_INVALID;
        } else if (n == cap) {
            const size_t ncap = cap ? 2 * cap : 64;
            struct rpl_delivery *nd = calloc(ncap, sizeof(*nd));

            if (!nd) {
                cli_file_msg(file, 0, "out of memory");
                rc = CLI_EXIT_USAGE;
                break;
            }
            if (d) {
                memcpy(nd, d, n * sizeof(*d));
                memset(d, 0, n * sizeof(*d));
                free(d);
            }
            d = nd;
            cap = ncap;
        }
        if (rc != CLI_EXIT_OK) {
            break;
        }
        form = this_form;
        st = rpl_delivery_parse(p, k, &d[n], &err);
        if (st != RPL_OK) {
            cli_file_msg(file, no, "%s", err.msg);
            rc = cli_exit_status(st);
            break;
        }
        n++;
        p = lf + 1;
    }
    memset(buf, 0, len);
    free(buf);
    if (rc != CLI_EXIT_OK) {
        if (d) {
            memset(d, 0, cap * sizeof(*d));
            free(d);
        }
        return rc;
    }
    *out = d;
    *count = n;
    return CLI_EXIT_OK;
}

/* Seat's deliveries refused by log file (rpl_log_learn()'s err): said,
 * with the deliveries' file; the exit status. */
static int
learn_refused(const char *file, const char *deliveries, enum rpl_status st,
              const struct rpl_error *err)
{
    cli_file_msg(file, err->line, "%s (deliveries %s)", err->msg, deliveries);
    return cli_exit_status(st);
}

int
cli_learn_deliveries(struct rpl_log *log, const char *file, size_t seat,
                     const char *deliveries)
{
    struct rpl_delivery *d = NULL;
    struct rpl_error err;
    enum rpl_status st;
    size_t n = 0;
    int rc = cli_read_deliveries(deliveries, &d, &n);

    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    st = rpl_log_learn(log, seat, d, n, &err);
    if (d) {
        memset(d, 0, n * sizeof(*d));
        free(d);
    }
    if (st != RPL_OK) {
        return learn_refused(file, deliveries, st, &err);
    }
    return CLI_EXIT_OK;
}

void
cli_deliveries_read(struct cli_deliveries *dv, const char *file)
{
    FILE *const was_out = divert_out, *const was_err = divert_err;
    FILE *held;

    memset(dv, 0, sizeof(*dv));
    dv->file = file;
    held = open_memstream(&dv->said, &dv->said_len);
    if (!held) {
        dv->rc = cli_read_deliveries(file, &dv->d, &dv->n); /* said now */
        return;
    }
    divert_out = was_out;
    divert_err = held;
    dv->rc = cli_read_deliveries(file, &dv->d, &dv->n);
    divert_err = was_err;
    if (fclose(held) != 0) {
        cli_msg("out of memory");
        dv->rc = CLI_EXIT_USAGE;
    }
}

void
cli_deliveries_walk(struct cli_deliveries *dv, size_t seat,
                    struct rpl_walk_opts *walk)
{
    if (dv->rc != CLI_EXIT_OK) {
        walk->views = false; /* the verify alone, for its error */
        return;
    }
    walk->learn_seat = seat;
    walk->learn = dv->d;
    walk->nlearn = dv->n;
    walk->learn_err = &dv->err;
}

int
cli_deliveries_said(const struct cli_deliveries *dv, const char *file,
                    enum rpl_status st)
{
    if (dv->rc != CLI_EXIT_OK) {
        cli_put_text(NULL, 0, dv->said, dv->said_len);
        return dv->rc;
    }
    if (st != RPL_OK) {
        return learn_refused(file, dv->file, st, &dv->err);
    }
    return CLI_EXIT_OK;
}

void
cli_deliveries_free(struct cli_deliveries *dv)
{
    if (dv->d) {
        memset(dv->d, 0, dv->n * sizeof(*dv->d));
        free(dv->d);
    }
    free(dv->said);
    memset(dv, 0, sizeof(*dv));
}
