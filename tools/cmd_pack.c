/*
 * cmd_pack.c - camelog pack: text (canonical, or hand-written and
 * canonicalized: CRLF, blank lines, '#' comments, runs of blanks,
 * uppercase hex) or a .camelog file, re-sealed with the dealer's key when
 * --key is given, verified, and written as a .camelog file.  A log that
 * does not verify is not written, unless --unchecked asks for it (bad
 * logs made on purpose, to test verifiers); the failure is still
 * reported and the exit status is still 1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog pack [--key dealer.key] [--force] [--unchecked] text\n"
    "                    -o file\n";

static const char options[] =
    "options:\n"
    "  -k, --key file     re-sign every seal with the dealer's secret key\n"
    "  -f, --force        overwrite the output file\n"
    "  --unchecked        write the log even when it does not verify\n"
    "  -o, --output file  the .camelog file to write (- for standard "
    "output)\n"
    "  -h, --help         this help\n";

/* Hand-written text may carry comments and blanks beyond the canonical
 * text limit; the library applies the limit after canonicalizing. */
#define MAX_INPUT (64u * 1024u * 1024u)

/* Whether path starts with the gzip magic (a .camelog file).  A FIFO is
 * not opened for reading (it would wait for a writer): cli_read_file()
 * refuses it next. */
static bool
is_gzip_file(const char *path)
{
    unsigned char m[2];
    const int fd = cli_open_input(path);
    bool yes;

    if (fd < 0) {
        return false;
    }
    yes = read(fd, m, 2) == 2 && m[0] == 0x1f && m[1] == 0x8b;
    close(fd);
    return yes;
}

static int
load_input(struct rpl_ctx *ctx, const char *path, struct rpl_log **log)
{
    struct rpl_error err;
    enum rpl_status st;
    char *text = NULL;
    size_t len = 0;
    int rc;

    if (strcmp(path, "-") != 0 && is_gzip_file(path)) {
        st = rpl_log_read(ctx, log, path, &err);
        return st == RPL_OK ? CLI_EXIT_OK : cli_file_error(path, st, &err);
    }
    rc = cli_read_file(path, MAX_INPUT, &text, &len);
    if (rc == CLI_EXIT_INVALID) {
        cli_file_msg(path, 0, "input over %u bytes", MAX_INPUT);
        return rc;
    }
    if (rc != CLI_EXIT_OK) {
        cli_file_msg(path, 0, "cannot read: %s", cli_input_errtext(errno));
        return rc;
    }
    if (len >= 2 && (unsigned char)text[0] == 0x1f &&
        (unsigned char)text[1] == 0x8b) {
        free(text);
        cli_file_msg(path, 0,
                     "a .camelog file on standard input: give its "
                     "name instead");
        return CLI_EXIT_USAGE;
    }
    st = rpl_log_parse(ctx, log, text, len, true, &err);
    free(text);
    return st == RPL_OK ? CLI_EXIT_OK : cli_file_error(path, st, &err);
}

int
cmd_pack(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"key", required_argument, NULL, 'k'},
        {"force", no_argument, NULL, 'f'},
        {"unchecked", no_argument, NULL, 'U'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *keyfile = NULL, *output = NULL, *input;
    bool force = false, unchecked = false;
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk = NULL;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    enum rpl_status st;
    int c, rc;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":k:fo:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'k':
            keyfile = optarg;
            break;
        case 'f':
            force = true;
            break;
        case 'U':
            unchecked = true;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("pack", c, argv);
        }
    }
    if (argc - optind != 1) {
        return cli_usage_error("pack", "pack takes one text file");
    }
    if (!output) {
        return cli_usage_error("pack", "no output file (-o file)");
    }
    input = argv[optind];
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    if (keyfile) {
        st = rpl_seckey_load(ctx, &sk, keyfile, &err);
        if (st != RPL_OK) {
            rc = cli_worst(CLI_EXIT_USAGE, cli_file_error(keyfile, st, &err));
            goto out;
        }
    }
    rc = load_input(ctx, input, &log);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (sk) {
        st = rpl_log_reseal(log, sk, &err);
        if (st != RPL_OK) {
            rc = cli_file_error(input, st, &err);
            goto out;
        }
    }
    memset(&rep, 0, sizeof(rep));
    st = rpl_log_verify(log, NULL, &rep);
    rc = st == RPL_OK ? CLI_EXIT_OK : cli_file_error(input, st, &rep.error);
    if (rc != CLI_EXIT_OK && !unchecked)
        goto out;
    st = rpl_log_write(log, output, force, &err);
    if (st != RPL_OK)
        rc = cli_worst(rc, cli_file_error(output, st, &err));
out:
    rpl_log_free(log);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
