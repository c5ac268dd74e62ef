/*
 * log_read.c - a log from its bytes: the container (a .camelog file, the
 * plain text of a host's journal, or lenient hand-written text made
 * canonical), the lines indexed, and freeing it.
 */
#include <string.h>

#include <sodium.h>

#include "internal.h"
#include "log.h"

/* Indexes the lines of log->text in one pass, the index growing as it
 * goes; faults of the text as a whole (limits) are line 0, and too many
 * lines is reported before a line that is too long. */
static enum rpl_status
index_lines(struct rpl_log *log, struct rpl_error *err)
{
    const char *const text = log->text;
    const size_t len = log->len;
    /* Room for lines of 24 bytes on average (canonical lines run about
     * 30), doubled when the text has more. */
    size_t cap = len / 24 + 8 < RPL_MAX_LINES ? len / 24 + 8 : RPL_MAX_LINES;
    size_t n = 0;
    size_t from = 0;
    size_t too_long = 0; /* the first line over RPL_MAX_LINE, 0 if none */

    log->start = rpl__alloc(log->ctx, cap * sizeof(*log->start));
    if (!log->start)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    while (from < len) {
        const char *nl = memchr(text + from, '\n', len - from);
        const size_t end = nl ? (size_t)(nl - text) : len;

        if (n == cap) {
            const size_t ncap =
                cap < RPL_MAX_LINES / 2 ? 2 * cap : RPL_MAX_LINES;
            size_t *grown;

            if (n == RPL_MAX_LINES)
                return rpl__err(err, RPL_E_LIMIT, 0,
                                "more than %u lines (RPL_MAX_LINES)",
                                RPL_MAX_LINES);
            grown = rpl__realloc(log->ctx, log->start, ncap * sizeof(*grown));
            if (!grown)
                return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            log->start = grown;
            cap = ncap;
        }
        log->start[n++] = from;
        if (end - from > RPL_MAX_LINE && !too_long)
            too_long = n;
        from = end + 1;
    }
    log->nlines = n;
    log->ends_with_lf = len > 0 && text[len - 1] == '\n';
    if (too_long)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "line %zu is longer than %u bytes (RPL_MAX_LINE)",
                        too_long, RPL_MAX_LINE);
    return RPL_OK;
}

static enum rpl_status
log_new(struct rpl_ctx *ctx, struct rpl_log **out, struct rpl_error *err)
{
    struct rpl_log *log = rpl__calloc(ctx, 1, sizeof(*log));

    if (!log)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    log->ctx = ctx;
    /* Not zeroed: a warning's bytes are touched when it is written. */
    log->warn = rpl__alloc(ctx, RPL_MAX_WARNINGS * sizeof(*log->warn));
    if (!log->warn) {
        rpl__free(ctx, log);
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    *out = log;
    return RPL_OK;
}

void
rpl__log_views_free(struct rpl_log *log)
{
    struct rpl__views *v = log->views;

    if (!v)
        return;
    if (v->b.p)
        sodium_memzero(v->b.p, v->b.cap);
    rpl__buf_release(&v->b);
    rpl__free(log->ctx, v->off);
    rpl__free(log->ctx, v->marks);
    rpl__free(log->ctx, v);
    log->views = NULL;
}

void
rpl_log_free(struct rpl_log *log)
{
    if (!log)
        return;
    if (log->st) {
        sodium_memzero(log->st, log->game->state_size);
        rpl__free(log->ctx, log->st);
    }
    sodium_memzero(log->seed, sizeof(log->seed));
    rpl__log_forget(log);
    rpl__log_views_free(log);
    rpl__free(log->ctx, log->gz);
    rpl__free(log->ctx, log->warn);
    rpl__free(log->ctx, log->start);
    rpl__free(log->ctx, log->text);
    rpl__free(log->ctx, log);
}

/* Takes ownership of text (NUL-terminated, len bytes). */
static enum rpl_status
log_adopt(struct rpl_ctx *ctx, struct rpl_log **out, char *text, size_t len,
          struct rpl_error *err)
{
    struct rpl_log *log = NULL;
    enum rpl_status rc;

    rc = log_new(ctx, &log, err);
    if (rc != RPL_OK) {
        rpl__free(ctx, text);
        return rc;
    }
    log->text = text;
    log->len = len;
    rc = index_lines(log, err);
    if (rc != RPL_OK) {
        rpl_log_free(log);
        return rc;
    }
    *out = log;
    return RPL_OK;
}

/* Whether bytes that should be gzip (1f 8b) begin as text instead: a
 * text log given where a .camelog file is expected. */
static bool
is_plain_text(const void *data, size_t len)
{
    const unsigned char *p = data;
    const size_t n = len < 64 ? len : 64;

    if (n == 0 || (len >= 2 && p[0] == 0x1f && p[1] == 0x8b))
        return false;
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t')
            return false;
    return true;
}

bool
rpl_log_is_text(const struct rpl_log *log)
{
    return log->is_text;
}

/* Reads the bytes gz of a .camelog file; owned is gz when the call takes
 * them (allocated from ctx), whatever happens, else NULL: what the log
 * keeps of them is then a copy. */
static enum rpl_status
read_gz(struct rpl_ctx *ctx, struct rpl_log **out, const uint8_t *gz,
        size_t gz_len, uint8_t *owned, struct rpl_error *err)
{
    char *text = NULL;
    size_t text_len = 0;
    enum rpl_status rc;

    if (gz_len > RPL_MAX_COMPRESSED)
        rc = rpl__err(err, RPL_E_LIMIT, 0,
                      "file is over the %u-byte limit (RPL_MAX_COMPRESSED)",
                      RPL_MAX_COMPRESSED);
    else if (is_plain_text(gz, gz_len))
        rc = rpl__err(err, RPL_E_GZIP, 0,
                      "not gzip but plain text (compress a text log with "
                      "camelog pack)");
    else
        rc = rpl__gz_inflate(ctx, gz, gz_len, &text, &text_len, err);
    if (rc == RPL_OK)
        rc = log_adopt(ctx, out, text, text_len, err);
    if (rc == RPL_OK && rpl__gz_is_canonical(gz, gz_len)) {
        if (!owned) {
            owned = rpl__alloc(ctx, gz_len);
            if (owned)
                memcpy(owned, gz, gz_len);
        }
        /* A failed copy keeps nothing: the archive compresses again. */
        (*out)->gz = owned;
        (*out)->gz_len = owned ? gz_len : 0;
        return RPL_OK;
    }
    rpl__free(ctx, owned);
    return rc;
}

enum rpl_status
rpl_log_read_mem(struct rpl_ctx *ctx, struct rpl_log **out, const void *gz,
                 size_t gz_len, struct rpl_error *err)
{
    rpl__err_clear(err);
    *out = NULL;
    return read_gz(ctx, out, gz, gz_len, NULL, err);
}

enum rpl_status
rpl_log_read(struct rpl_ctx *ctx, struct rpl_log **out, const char *path,
             struct rpl_error *err)
{
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    /* Up to the text limit, the larger: a file that does not start with
     * the gzip magic (1f 8b) is plain canonical text (a host journal), held to
     * RPL_MAX_TEXT; a gzip file is held to RPL_MAX_COMPRESSED. */
    _Static_assert(RPL_MAX_TEXT >= RPL_MAX_COMPRESSED, "limits");
    rc = rpl__file_read(ctx, path, RPL_MAX_TEXT, &raw, &raw_len, err);
    if (rc != RPL_OK)
        return rc;
    /* Plain text only when it opens as canonical text must ("camelog
     * 1" or "camelog 2"): anything else goes to the gzip reader, which
     * says what is wrong, as before. */
    if (raw_len < 10 || memcmp(raw, "camelog ", 8) != 0 ||
        (raw[8] != '1' && raw[8] != '2') || raw[9] != '\n')
        return read_gz(ctx, out, raw, raw_len, raw, err);
    /* rpl__file_read() leaves a NUL after the bytes. */
    rc = log_adopt(ctx, out, (char *)raw, raw_len, err);
    if (rc == RPL_OK)
        (*out)->is_text = true;
    return rc;
}

/* Whether a token of lenient text is hex to be lowercased: the id or a
 * 32-byte value. */
static bool
is_hex_token(const char *s, size_t n)
{
    if (n != 32 && n != 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
              (s[i] >= 'A' && s[i] <= 'F')))
            return false;
    return true;
}

/* Lowercases b->p[from..b->len), the token just written, when it is a
 * hex token; a quoted string (a seat name) is never touched. */
static void
lower_hex_token(struct rpl__buf *b, size_t from)
{
    if (b->failed || from >= b->len || b->p[from] == '"' ||
        !is_hex_token(b->p + from, b->len - from))
        return;
    for (size_t h = from; h < b->len; h++)
        if (b->p[h] >= 'A' && b->p[h] <= 'F')
            b->p[h] = (char)(b->p[h] - 'A' + 'a');
}

/* Lenient text to canonical: drops CR before LF, blank lines and '#'
 * comment lines, collapses blanks outside quotes, lowercases hex tokens,
 * ends with LF; a bare `seal` becomes a seal of 64 zero bytes for
 * rpl_log_reseal() to fill in.  Tokens are split as the strict tokenizer
 * splits them: a token that starts with '"' runs to the closing quote,
 * with \" and \\ as escapes, and is copied as it is. */
static void
canonicalize(struct rpl__buf *b, const char *text, size_t len)
{
    static const char zero_seal[] =
        "seal AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        "AAAAAAAAAAAAAAAAAAAAAA==";
    size_t i = 0;

    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        const size_t end = nl ? (size_t)(nl - text) : len;
        size_t s = i;
        size_t e = end;
        size_t tok = 0;
        bool in_tok = false;
        bool quoted = false;
        bool escaped = false;
        bool space = false;

        i = end + 1;
        while (s < e && (text[s] == ' ' || text[s] == '\t'))
            s++;
        while (e > s && (text[e - 1] == ' ' || text[e - 1] == '\t' ||
                         text[e - 1] == '\r'))
            e--;
        if (s == e || text[s] == '#')
            continue;
        if (e - s == 4 && memcmp(text + s, "seal", 4) == 0) {
            rpl__buf_puts(b, zero_seal);
            rpl__buf_add(b, "\n", 1);
            continue;
        }
        for (size_t k = s; k < e; k++) {
            const char c = text[k];

            if (!quoted && (c == ' ' || c == '\t')) {
                if (in_tok)
                    lower_hex_token(b, tok);
                in_tok = false;
                space = true;
                continue;
            }
            if (space) {
                rpl__buf_add(b, " ", 1);
                space = false;
            }
            if (!in_tok) {
                tok = b->len;
                in_tok = true;
                quoted = c == '"';
            } else if (quoted) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    quoted = false;
            }
            rpl__buf_add(b, &c, 1);
        }
        if (in_tok)
            lower_hex_token(b, tok);
        rpl__buf_add(b, "\n", 1);
    }
}

enum rpl_status
rpl_log_parse(struct rpl_ctx *ctx, struct rpl_log **out, const char *text,
              size_t text_len, bool lenient, struct rpl_error *err)
{
    struct rpl__buf b;
    char *copy = NULL;
    size_t len;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    if (text_len > RPL_MAX_TEXT)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "text is over the %u-byte limit (RPL_MAX_TEXT)",
                        RPL_MAX_TEXT);
    rpl__buf_init(&b, ctx);
    if (lenient)
        canonicalize(&b, text, text_len);
    else
        rpl__buf_add(&b, text, text_len);
    if (b.len > RPL_MAX_TEXT) {
        rpl__buf_release(&b);
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "text is over the %u-byte limit (RPL_MAX_TEXT)",
                        RPL_MAX_TEXT);
    }
    len = b.len;
    rc = rpl__buf_take(&b, &copy, err); /* NUL-terminated, even when empty */
    if (rc != RPL_OK)
        return rc;
    return log_adopt(ctx, out, copy, len, err);
}
