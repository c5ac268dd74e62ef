/*
 * cli.h - what the commands of camelog share: messages on stderr, the
 * mapping of library statuses to exit codes, option errors, the JSON
 * Lines writer, progress on a terminal, and small parsers.
 *
 * Exit codes (camelog(1)): 0 all good, 1 an input is invalid, 2 usage or
 * environment.  A command given many inputs carries on past a bad one and
 * returns the worst status.
 */
#ifndef CAMELOG_CLI_H
#define CAMELOG_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "replay.h"

#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))

enum {
    CLI_EXIT_OK = 0,      /* all good */
    CLI_EXIT_INVALID = 1, /* an input is invalid */
    CLI_EXIT_USAGE = 2    /* usage or environment */
};

/* One entry of the command table of camelog.c. */
struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    const char *summary;
};

/* The commands, one file each (tools/cmd_<name>.c). */
int cmd_keygen(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_step(int argc, char **argv);
int cmd_reveal(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_archive(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_host(int argc, char **argv);
int cmd_seat(int argc, char **argv);
int cmd_corpus(int argc, char **argv);
int cmd_tlog(int argc, char **argv);

/* ------------------------------------------------------------ status */

/* 0, 1 or 2 for a library status (rpl_status_is_invalid_input()). */
int cli_exit_status(enum rpl_status st);

/* The worse of two exit statuses. */
int cli_worst(int a, int b);

/* ---------------------------------------------------------- messages */

/* "camelog: msg" on stderr. */
void cli_msg(const char *fmt, ...) CLI_PRINTF(1, 2);

/* "camelog: FILE:LINE: msg" on stderr; "camelog: FILE: msg" when line
 * is 0. */
void cli_file_msg(const char *file, size_t line, const char *fmt, ...)
    CLI_PRINTF(3, 4);

/* "camelog: FILE:LINE: warning: msg" on stderr. */
void cli_file_warn(const char *file, size_t line, const char *fmt, ...)
    CLI_PRINTF(3, 4);

/* Reports a failed library call on file (NULL: none) with the message of
 * err (or the status text when it has none) and returns its exit status.
 * RPL_E_EXISTS adds that --force overwrites the file. */
int cli_file_error(const char *file, enum rpl_status st,
                   const struct rpl_error *err);

/* The text of err, or the status text when err carries no message. */
const char *cli_error_text(enum rpl_status st, const struct rpl_error *err);

/* A usage error: "camelog: msg" then "camelog: try 'camelog CMD
 * --help'"; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...) CLI_PRINTF(2, 3);

/* Reports what getopt_long() returned for a bad option (c is '?' or ':',
 * with opterr 0 and an optstring starting with ':'); returns 2. */
int cli_option_error(const char *cmd, int c, char **argv);

/* Prints usage (which ends with a newline), an empty line and options to
 * stdout; returns the status of cli_finish(0). */
int cli_help(const char *usage, const char *options);

/* Flushes stdout; a failed write turns status into 2 with a message. */
int cli_finish(int status);

/* The stdout and stderr of the calling thread: the real ones, or the
 * buffers cli_divert() set for it (NULL, NULL: back to the real ones).
 * Every message and JSON line above goes through them. */
void cli_divert(FILE *out, FILE *err);
FILE *cli_out(void);
FILE *cli_err(void);

/* From the main thread: err (what a diverted thread wrote on stderr)
 * then out (its stdout), each skipped when empty. */
void cli_put_text(const char *out, size_t out_len, const char *err,
                  size_t err_len);

/* Prints text from a file (names, reasons, values of an archive) to f
 * with rpl_text_escape(), so that no control, format or invisible
 * character and no invalid UTF-8 reaches the terminal raw. */
void cli_put_text_escaped(FILE *f, const char *s);

/* ----------------------------------------------------------- parsing */

/* A seat such as "p3" (from p1; the caller checks it against the game). */
bool cli_parse_seat(const char *s, size_t *seat);

/* A decimal number without sign, blanks or overflow. */
bool cli_parse_size(const char *s, size_t *out);

/* Hex digits (even count) into out[0..cap); sets *len. */
bool cli_parse_hex(const char *s, uint8_t *out, size_t cap, size_t *len);

/* Lowercase hex of in[0..len) into out (2 * len + 1 bytes). */
void cli_hex(const uint8_t *in, size_t len, char *out);

/* Opens a named input for reading without blocking on a FIFO: returns a
 * descriptor (close()) or -1 with errno set, EINVAL when path names
 * anything but a regular file (a FIFO, device or socket), EISDIR for a
 * directory. */
int cli_open_input(const char *path);

/* errno as text after cli_open_input() or cli_read_file() failed (EINVAL
 * is "not a regular file"). */
const char *cli_input_errtext(int e);

/* Reads a whole file ("-" is stdin) of at most max bytes into a new
 * NUL-terminated buffer (free()).  Returns 0, 1 when the file is larger
 * than max, 2 when it cannot be read (errno set; a named file must be a
 * regular file, as cli_open_input() says); reports nothing. */
int cli_read_file(const char *path, size_t max, char **out, size_t *len);

/* A pinned public key from --pubkey: the 56-character base64 form or a
 * minisign public key file.  Reports the failure and returns 2. */
int cli_load_pubkey(const char *arg, struct rpl_pubkey *pk);

/* Reads and verifies file in one pass (rpl_log_verify_walk()), keeping
 * what walk asks for (NULL: nothing; the replay is left after the last
 * line either way).  On success sets *out (free with rpl_log_free()) and
 * fills rep; otherwise reports the first failure as
 * "camelog: FILE:LINE: msg" and returns its exit status. */
int cli_open_log(struct rpl_ctx *ctx, const char *file,
                 const struct rpl_walk_opts *walk, struct rpl_log **out,
                 struct rpl_report *rep);

/* A new context; reports the failure and returns 2. */
int cli_ctx_new(struct rpl_ctx **ctx);

/* The names of the games the library knows, joined with sep and, before
 * the last, with last ("a|b|c", "a, b or c"); truncated to cap
 * bytes (cap > 0). */
void cli_game_names(char *out, size_t cap, const char *sep, const char *last);

/* Makes directory dir (mode 0777 before the umask) unless it exists as
 * a directory; reports the failure and returns 2. */
int cli_make_dir(const char *dir);

/* Every file a command writes goes through these: rpl_file_write()
 * makes a temporary file with mkstemp() beside path, syncs it and
 * renames it over path, so a link planted at either name is never
 * followed and a failure leaves no partial file; "-" is standard
 * output.  cli_write_file() writes a buffer; reports the failure and
 * returns its exit status (2 for an existing file without force). */
int cli_write_file(const char *path, const void *data, size_t len,
                   unsigned mode, bool force);

/* A file written as a stream: cli_wfile_open() gives fp (standard
 * output for "-", else a buffer in memory) and cli_wfile_commit() writes
 * what fp holds with cli_write_file(); cli_wfile_drop() discards it
 * (commit does after a failure).  Both wipe the buffer and free the
 * copy of path. */
struct cli_wfile {
    char *path; /* a copy */
    FILE *fp;
    char *buf;
    size_t len;
};
int cli_wfile_open(struct cli_wfile *w, const char *path);
int cli_wfile_commit(struct cli_wfile *w, unsigned mode, bool force);
void cli_wfile_drop(struct cli_wfile *w);

/* -------------------------------------------------------------- JSON */

/* A JSON string of s, with bytes that are not UTF-8 replaced by U+FFFD
 * (file names need not be UTF-8).  NULL when out of memory. */
json_t *cli_json_str(const char *s);

/* A JSON array of the names of a comma-separated list ("a,b"; "" is
 * []), as rpl_log_variants() writes them.  NULL when out of memory. */
json_t *cli_json_list(const char *list);

/* A JSON integer of a size (clamped to the largest JSON integer). */
json_t *cli_json_size(size_t n);

/* Parses JSON the library returned; NULL when it is not JSON. */
json_t *cli_json_parse(const char *text);

/* Writes obj as one compact line to stdout (JSON Lines).  Returns 0, or 2
 * with a message when it cannot be encoded. */
int cli_json_print(const json_t *obj);

/* Sets key of obj to val, taking val (NULL val marks failure: returns
 * false).  For building objects without checking every step. */
bool cli_json_set(json_t *obj, const char *key, json_t *val);

/* ---------------------------------------------------------- progress */

/* Progress on stderr: shown only when stderr is a terminal, the work has
 * lasted more than a second, and -q was not given. */
struct cli_progress {
    const char *what; /* "files", "games" */
    size_t total;
    bool enabled;
    bool shown;
    struct timespec start;
    struct timespec last;
};

void cli_progress_start(struct cli_progress *p, const char *what, size_t total,
                        bool quiet);
void cli_progress_update(struct cli_progress *p, size_t done);
/* Clears the progress line if one was shown. */
void cli_progress_end(struct cli_progress *p);

/* -------------------------------------------------------------- jobs */

/* -j N, --jobs N: a positive number; reports a bad one and returns 2. */
int cli_parse_jobs(const char *cmd, const char *arg, size_t *jobs);

/* The default of -j: the cores online (at least 1). */
size_t cli_jobs_default(void);

/* A pool of threads for n jobs (pool.c): jobs - 1 workers and the main
 * thread, which runs jobs too while it waits.  Job i runs work(ud, ctx,
 * i, data) in some thread, with the context and the zeroed data_size
 * bytes of its slot, its stdout and stderr diverted into buffers
 * (cli_divert()); work returns an exit status.  The main thread takes
 * the jobs in input order with cli_pool_wait() and lets their slots go
 * with cli_pool_release(): at most window jobs are taken or in flight at
 * once, which bounds the memory.  A slot's context and what was made
 * from it belong to one thread at a time: the one running the job until
 * it is done, then the main thread's until released.  With jobs 1 there
 * are no threads: cli_pool_wait() runs the job itself, with its output
 * going straight out, and one context serves every slot. */
struct cli_pool;
typedef int (*cli_pool_work)(void *ud, struct rpl_ctx *ctx, size_t i,
                             void *data);

/* In a job of a pool with threads: a context of the thread running it
 * alone, which lives as long as the pool, for what jobs keep from one to
 * the next (rpl_archive_entry_new()'s keep); NULL outside such a job,
 * with jobs 1, or when the thread has none. */
struct rpl_ctx *cli_pool_keep(void);

/* Reports a failure and returns 2. */
int cli_pool_start(struct cli_pool **out, size_t n, size_t jobs, size_t window,
                   size_t data_size, cli_pool_work work, void *ud);

/* Waits for job i (0, 1, 2 ... in turn; i < released + window), writes
 * what it printed (stderr, then stdout) unless keep_text, and returns
 * its data; *rc gets its exit status. */
void *cli_pool_wait(struct cli_pool *p, size_t i, bool keep_text, int *rc);

/* With keep_text: writes job i's stderr text, or its stdout text. */
void cli_pool_put_err(struct cli_pool *p, size_t i);
void cli_pool_put_out(struct cli_pool *p, size_t i);

/* Jobs below upto are done with: their slots may be reused. */
void cli_pool_release(struct cli_pool *p, size_t upto);

/* What releases the data of a job done but never waited for, when the
 * main thread stops early (cli_pool_free() calls it, in the main
 * thread, with the slot's context still alive). */
typedef void (*cli_pool_drop)(void *data);
void cli_pool_on_drop(struct cli_pool *p, cli_pool_drop drop);

/* Stops the workers (jobs not yet started are skipped), joins them,
 * drops the jobs done and not waited for, and frees the pool; NULL does
 * nothing. */
void cli_pool_free(struct cli_pool *p);

/* ---------------------------------------------------------- coverage */

#define CLI_COV_GAMES 8

/* How many games exercised each rule id, per game (camelog verify
 * --coverage, camelog corpus).  Zero it before the first add. */
struct cli_coverage {
    size_t games[CLI_COV_GAMES];                   /* by rpl_game_info() */
    size_t count[CLI_COV_GAMES][RPL_COVERAGE_MAX]; /* games per id */
};

/* Adds one game of `game` whose coverage set is bits. */
void cli_coverage_add(struct cli_coverage *c, const char *game,
                      const uint64_t bits[RPL_COVERAGE_WORDS]);

/* Whether bit i of a coverage set is set. */
bool cli_coverage_has(const uint64_t bits[RPL_COVERAGE_WORDS], size_t i);

/* The table as text on f: for each game with games, a heading line, one
 * line per id (id, games, what), then the ids never exercised, the
 * unreachable ones with their reason (camelog-verify(1)). */
void cli_coverage_print(const struct cli_coverage *c, FILE *f);

/* The table of one game (index into rpl_game_info()) as a JSON object:
 * {"coverage": game, "games": N, "ids": [{"id", "games", "what",
 * "unreachable"}...], "never": [id...], "unreachable": [id...]}; NULL
 * when out of memory. */
json_t *cli_coverage_json(const struct cli_coverage *c, size_t game);

/* Reads the deliveries file (either form of camelog(5), one a line, not
 * mixed) into *out, *count of them (free() it, wiped first: it holds
 * nonces); reports failures, naming the file and line. */
int cli_read_deliveries(const char *file, struct rpl_delivery **out,
                        size_t *count);

/* Gives log seat's deliveries from the file deliveries (either form of
 * camelog(5), one a line, not mixed), checked against their commitments
 * (rpl_log_learn()); reports failures as file's. */
int cli_learn_deliveries(struct rpl_log *log, const char *file, size_t seat,
                         const char *deliveries);

/* A seat's deliveries for the verify's one pass (rpl_walk_opts' learn),
 * read before the verify whose errors come first: what reading them
 * found wrong is held back, to be said after the verify and the checks
 * that come before the deliveries (cli_deliveries_said()). */
struct cli_deliveries {
    const char *file;
    struct rpl_delivery *d; /* nonces: wiped when freed */
    size_t n;
    int rc;     /* of reading them: CLI_EXIT_OK or the failure's */
    char *said; /* what reading them had to say on stderr */
    size_t said_len;
    struct rpl_error err; /* rpl_log_learn()'s refusal, from the walk */
};

/* Reads the deliveries file (as cli_read_deliveries()) into *dv; the main
 * thread's only. */
void cli_deliveries_read(struct cli_deliveries *dv, const char *file);

/* Gives walk seat's deliveries of dv; without them (reading failed) the
 * walk takes no views, as the verify's error alone is wanted. */
void cli_deliveries_walk(struct cli_deliveries *dv, size_t seat,
                         struct rpl_walk_opts *walk);

/* After rpl_log_verify_walk() of log file returned st and its report
 * said that the log verified: says what reading the deliveries found
 * wrong, or why the log refused them; the exit status. */
int cli_deliveries_said(const struct cli_deliveries *dv, const char *file,
                        enum rpl_status st);

/* Wipes and frees what *dv holds. */
void cli_deliveries_free(struct cli_deliveries *dv);

#endif /* CAMELOG_CLI_H */
