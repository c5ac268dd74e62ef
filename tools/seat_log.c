/*
 * seat_log.c - what the commands of camelog seat share: a log read as a
 * .camelog file or as a host journal's text and verified with the dealer
 * key pinned, and the check that the seat's own key is in its header.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay.h"
#include "seat_log.h"

/* camelog(5) "Limits": the whole text. */
#define TEXT_MAX (16u * 1024u * 1024u)

/* Reads file as a .camelog (gzip) or as canonical text (a host journal),
 * and verifies it with pin (may be NULL).  A live game's log may end in
 * lines the dealer has not sealed yet; a final file may not.  Reports
 * failures itself. */
int
seat_open_log(struct rpl_ctx *ctx, const char *file,
              const struct rpl_pubkey *pin, bool is_live, struct rpl_log **out)
{
    struct rpl_verify_opts opts = {.pubkey = pin, .unsealed_tail_ok = is_live};
    struct rpl_report rep;
    struct rpl_error err;
    struct rpl_log *log = NULL;
    enum rpl_status st;
    char *buf = NULL;
    size_t len = 0;
    int rc = cli_read_file(file, TEXT_MAX, &buf, &len);

    if (rc == CLI_EXIT_INVALID) {
        cli_file_msg(file, 0, "larger than %u bytes (RPL_MAX_TEXT)", TEXT_MAX);
        return rc;
    }
    if (rc != CLI_EXIT_OK) {
        cli_file_msg(file, 0, "%s", strerror(errno));
        return rc;
    }
    if (len >= 2 && (unsigned char)buf[0] == 0x1f &&
        (unsigned char)buf[1] == 0x8b) {
        st = rpl_log_read_mem(ctx, &log, buf, len, &err);
    } else {
        st = rpl_log_parse(ctx, &log, buf, len, false, &err);
    }
    free(buf);
    if (st != RPL_OK) {
        return cli_file_error(file, st, &err);
    }
    memset(&rep, 0, sizeof(rep));
    st = rpl_log_verify(log, &opts, &rep);
    if (st != RPL_OK) {
        rpl_log_free(log);
        return cli_file_error(file, st, &rep.error);
    }
    *out = log;
    return CLI_EXIT_OK;
}

/* Whether the header's key of seat as (0: of any seat) is the seat's own
 * public key arg (--seat-key); *found is the seat that has it. */
int
seat_own_key(const char *file, const struct rpl_log *log, const char *arg,
             size_t as, size_t *found)
{
    struct rpl_pubkey pk;
    char text[RPL_PUBKEY_B64_LEN + 1], want[RPL_PUBKEY_B64_LEN + 8];
    int rc = cli_load_pubkey(arg, &pk);
    size_t wl;

    *found = 0;
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    rpl_pubkey_format(&pk, text);
    snprintf(want, sizeof(want), " key=%s", text);
    wl = strlen(want);
    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        size_t len = 0, k = 0;
        const char *t = rpl_log_line(log, no, &len);

        if (len > 7 && memcmp(t, "dealer ", 7) == 0) {
            break;
        }
        if (len > 6 && memcmp(t, "seat p", 6) == 0 && len > wl &&
            memcmp(t + len - wl, want, wl) == 0) {
            k = strtoul(t + 6, NULL, 10);
            if (*found == 0 || k == as) {
                *found = k;
            }
        }
    }
    if (as != 0 && *found != as) {
        cli_file_msg(file, 0,
                     "the header's key of p%zu is not the seat's own key", as);
        return CLI_EXIT_INVALID;
    }
    if (*found == 0) {
        cli_file_msg(file, 0,
                     "the seat's own key is on no seat line of the header");
        return CLI_EXIT_INVALID;
    }
    return CLI_EXIT_OK;
}
