/*
 * entry.c - the entries a host appends to its public log: one when a
 * game starts (its header through `commit`, which fixes the deal) and
 * one when it ends (its end line and final seal, or its abandonment and
 * who caused it).  The bytes are camelog(5)'s "Entries"; the parser reads
 * them back from untrusted bundles, with bounds.  Entries carry nothing
 * the public log of the game does not.
 */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "tlog.h"

static const char start_magic[] = "camelog-tlog start";
static const char end_magic[] = "camelog-tlog end";

/* The 1-based number of the first line of log that begins with word and
 * a space, 0 when none. */
static size_t
find_line(const struct rpl_log *log, const char *word)
{
    const size_t n = rpl_log_lines(log), wl = strlen(word);

    for (size_t i = 1; i <= n; i++) {
        size_t len;
        const char *l = rpl_log_line(log, i, &len);

        if (l && len > wl && memcmp(l, word, wl) == 0 && l[wl] == ' ')
            return i;
    }
    return 0;
}

/* The seat lines of the header (through `commit`). */
static size_t
count_seats(const struct rpl_log *log)
{
    const size_t commit = find_line(log, "commit");
    size_t seats = 0;

    for (size_t i = 1; i < commit; i++) {
        size_t len;
        const char *l = rpl_log_line(log, i, &len);

        if (l && len > 5 && memcmp(l, "seat ", 5) == 0)
            seats++;
    }
    return seats;
}

enum rpl_status
rpl_tlog_entry_start(struct rpl_ctx *ctx, const struct rpl_log *log, char **out,
                     size_t *len, struct rpl_error *err)
{
    struct rpl__buf b;

    rpl__err_clear(err);
    *out = NULL;
    const size_t commit = find_line(log, "commit");
    if (commit == 0 || find_line(log, "id") == 0 ||
        find_line(log, "dealer") == 0)
        return rpl__err(err, RPL_E_INCOMPLETE, 0,
                        "the log has no header through `commit` yet");
    rpl__buf_init(&b, ctx);
    rpl__buf_printf(&b, "%s\n", start_magic);
    for (size_t i = 1; i <= commit; i++) {
        size_t n;
        const char *l = rpl_log_line(log, i, &n);

        rpl__buf_add(&b, l, n);
        rpl__buf_add(&b, "\n", 1);
    }
    if (!b.failed && b.len > RPL_TLOG_ENTRY_MAX) {
        rpl__buf_release(&b);
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "the header is over RPL_TLOG_ENTRY_MAX (%u bytes)",
                        RPL_TLOG_ENTRY_MAX);
    }
    const size_t n = b.len;
    const enum rpl_status rc = rpl__buf_take(&b, out, err);
    if (rc == RPL_OK)
        *len = n;
    return rc;
}

enum rpl_status
rpl_tlog_entry_end(struct rpl_ctx *ctx, const struct rpl_log *log,
                   bool is_abandoned, size_t by, char **out, size_t *len,
                   struct rpl_error *err)
{
    struct rpl__buf b;
    uint8_t head[32];
    char hex[65];
    size_t idlen, n;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    const size_t lines = rpl_log_lines(log);
    const size_t idl = find_line(log, "id");
    const size_t endl = find_line(log, "end");
    const char *id = idl ? rpl_log_line(log, idl, &idlen) : NULL;
    if (!id || idlen != 3 + 32)
        return rpl__err(err, RPL_E_INCOMPLETE, 0, "the log has no id line");
    const char *last = lines ? rpl_log_line(log, lines, &n) : NULL;
    const bool has_seal = last && n > 5 && memcmp(last, "seal ", 5) == 0;
    if (!is_abandoned && (!endl || !has_seal))
        return rpl__err(err, RPL_E_INCOMPLETE, lines,
                        "the game has not ended with a seal");
    if (is_abandoned && by > count_seats(log))
        return rpl__err(err, RPL_E_ARG, 0, "the game has no seat p%zu", by);
    const size_t covered = has_seal ? lines - 1 : lines;
    rc = rpl_log_head(log, covered, head, err);
    if (rc != RPL_OK)
        return rc;
    rpl__hex(hex, head, 32);

    rpl__buf_init(&b, ctx);
    rpl__buf_printf(&b, "%s\n", end_magic);
    rpl__buf_add(&b, id, idlen);
    rpl__buf_add(&b, "\n", 1);
    if (is_abandoned && by == 0)
        rpl__buf_puts(&b, "outcome abandoned dealer\n");
    else if (is_abandoned)
        rpl__buf_printf(&b, "outcome abandoned p%zu\n", by);
    else
        rpl__buf_printf(&b, "outcome %s\n",
                        find_line(log, "reveal") ? "revealed" : "finished");
    if (endl) {
        size_t el;
        const char *e = rpl_log_line(log, endl, &el);

        if (el >= sizeof(((struct rpl_tlog_game *)0)->end)) {
            rpl__buf_release(&b);
            return rpl__err(err, RPL_E_LIMIT, endl, "the end line is too long");
        }
        rpl__buf_add(&b, e, el);
        rpl__buf_add(&b, "\n", 1);
    }
    rpl__buf_printf(&b, "head %zu %s\n", covered, hex);
    if (has_seal) {
        rpl__buf_add(&b, last, n);
        rpl__buf_add(&b, "\n", 1);
    }
    const size_t total = b.len;
    rc = rpl__buf_take(&b, out, err);
    if (rc == RPL_OK)
        *len = total;
    return rc;
}

/* ------------------------------------------------------------- parsing */

static bool
has_prefix(const char *l, size_t len, const char *prefix)
{
    const size_t n = strlen(prefix);

    return len >= n && memcmp(l, prefix, n) == 0;
}

static bool
is_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    }
    return true;
}

static enum rpl_status
bad(struct rpl_error *err, size_t line, const char *want)
{
    return rpl__err(err, RPL_E_SYNTAX, line, "entry: expected %s", want);
}

static enum rpl_status
parse_start(struct rpl__tlog_cursor *c, struct rpl_tlog_game *g,
            struct rpl_error *err)
{
    const char *l;
    size_t n;
    bool has_commit = false;

    while (rpl__tlog_next_line(c, &l, &n)) {
        if (has_commit)
            return bad(err, c->no, "nothing after the commit line");
        if (n == 0 || !rpl__utf8_ok(l, n))
            return bad(err, c->no, "a line of the header");
        if (has_prefix(l, n, "id ") && !g->id[0]) {
            if (n != 35 || !is_hex(l + 3, 32))
                return bad(err, c->no, "\"id <32 hex digits>\"");
            memcpy(g->id, l + 3, 32);
        } else if (has_prefix(l, n, "dealer ") && !g->dealer[0]) {
            if (n != 7 + RPL_PUBKEY_B64_LEN)
                return bad(err, c->no, "\"dealer <key>\"");
            memcpy(g->dealer, l + 7, RPL_PUBKEY_B64_LEN);
        } else if (has_prefix(l, n, "commit ")) {
            has_commit = true;
        }
    }
    if (c->p != c->end)
        return bad(err, c->no + 1, "a line ending with LF");
    if (!has_commit || !g->id[0] || !g->dealer[0])
        return bad(err, c->no, "a header with id, dealer and commit lines");
    g->outcome = RPL_TLOG_STARTED;
    g->lines = c->no - 1;
    return RPL_OK;
}

static enum rpl_status
parse_end(struct rpl__tlog_cursor *c, struct rpl_tlog_game *g,
          struct rpl_error *err)
{
    const char *l;
    size_t n;

    if (!rpl__tlog_next_line(c, &l, &n) || n != 35 ||
        !has_prefix(l, n, "id ") || !is_hex(l + 3, 32))
        return bad(err, c->no, "\"id <32 hex digits>\"");
    memcpy(g->id, l + 3, 32);
    if (!rpl__tlog_next_line(c, &l, &n) || !has_prefix(l, n, "outcome "))
        return bad(err, c->no, "\"outcome finished|revealed|abandoned <by>\"");
    if (n == 16 && memcmp(l, "outcome finished", 16) == 0) {
        g->outcome = RPL_TLOG_FINISHED;
    } else if (n == 16 && memcmp(l, "outcome revealed", 16) == 0) {
        g->outcome = RPL_TLOG_REVEALED;
    } else if (n == 24 && memcmp(l, "outcome abandoned dealer", 24) == 0) {
        g->outcome = RPL_TLOG_ABANDONED;
        g->by = 0;
    } else if (has_prefix(l, n, "outcome abandoned p") && n > 19 && n <= 22 &&
               l[19] != '0') {
        size_t seat = 0;
        for (size_t i = 19; i < n; i++) {
            if (l[i] < '0' || l[i] > '9')
                return bad(err, c->no, "\"outcome abandoned pK\"");
            seat = seat * 10 + (size_t)(l[i] - '0');
        }
        if (seat > RPL_MAX_SEATS)
            return bad(err, c->no, "a seat of the game");
        g->outcome = RPL_TLOG_ABANDONED;
        g->by = seat;
    } else {
        return bad(err, c->no, "\"outcome finished|revealed|abandoned <by>\"");
    }
    if (!rpl__tlog_next_line(c, &l, &n))
        return bad(err, c->no + 1, "\"head <lines> <hex>\"");
    if (has_prefix(l, n, "end ")) {
        if (n >= sizeof(g->end) || !rpl__utf8_ok(l, n))
            return bad(err, c->no, "a short end line");
        memcpy(g->end, l, n);
        g->end[n] = '\0';
        if (!rpl__tlog_next_line(c, &l, &n))
            return bad(err, c->no + 1, "\"head <lines> <hex>\"");
    }
    const char *sp =
        has_prefix(l, n, "head ") ? memchr(l + 5, ' ', n - 5) : NULL;
    if (!sp || (size_t)(l + n - sp - 1) != 64 || !is_hex(sp + 1, 64) ||
        sp == l + 5 || sp - l - 5 > 7 || (l[5] == '0' && sp - l - 5 > 1))
        return bad(err, c->no, "\"head <lines> <hex>\"");
    g->lines = 0;
    for (const char *q = l + 5; q < sp; q++) {
        if (*q < '0' || *q > '9')
            return bad(err, c->no, "\"head <lines> <hex>\"");
        g->lines = g->lines * 10 + (size_t)(*q - '0');
    }
    for (size_t i = 0; i < 32; i++) {
        unsigned v;
        sscanf(sp + 1 + 2 * i, "%2x", &v);
        g->head[i] = (uint8_t)v;
    }
    if (rpl__tlog_next_line(c, &l, &n)) {
        uint8_t sig[64];
        size_t got = 0;
        const char *endp = NULL;

        if (!has_prefix(l, n, "seal ") || n != 5 + 88 ||
            sodium_base642bin(sig, sizeof(sig), l + 5, n - 5, NULL, &got, &endp,
                              sodium_base64_VARIANT_ORIGINAL) != 0 ||
            got != 64 || endp != l + n)
            return bad(err, c->no, "\"seal <base64>\"");
        if (rpl__tlog_next_line(c, &l, &n))
            return bad(err, c->no, "nothing after the seal");
    } else if (g->outcome != RPL_TLOG_ABANDONED) {
        return bad(err, c->no + 1, "\"seal <base64>\" of an ended game");
    }
    if (c->p != c->end)
        return bad(err, c->no + 1, "a line ending with LF");
    return RPL_OK;
}

enum rpl_status
rpl_tlog_game_parse(const void *data, size_t len, struct rpl_tlog_game *g,
                    struct rpl_error *err)
{
    struct rpl__tlog_cursor c = {data, (const char *)data + len, 0};
    struct rpl_tlog_game out;
    const char *l;
    size_t n;
    enum rpl_status rc;

    rpl__err_clear(err);
    memset(&out, 0, sizeof(out));
    if (len > RPL_TLOG_ENTRY_MAX)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "entry: over RPL_TLOG_ENTRY_MAX (%u bytes)",
                        RPL_TLOG_ENTRY_MAX);
    if (!rpl__tlog_next_line(&c, &l, &n))
        return bad(err, 1, "\"camelog-tlog start\" or \"camelog-tlog end\"");
    if (n == sizeof(start_magic) - 1 && memcmp(l, start_magic, n) == 0)
        rc = parse_start(&c, &out, err);
    else if (n == sizeof(end_magic) - 1 && memcmp(l, end_magic, n) == 0)
        rc = parse_end(&c, &out, err);
    else
        return bad(err, 1, "\"camelog-tlog start\" or \"camelog-tlog end\"");
    if (rc == RPL_OK)
        *g = out;
    return rc;
}
