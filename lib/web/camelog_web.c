/*
 * camelog_web.c - the C side of the WebAssembly build (make wasm): a
 * few calls over the public API of libreplay, exported from the module
 * for lib/web/camelog.js.  Like the tools it includes replay.h alone.
 *
 * Each call that can fail returns a JSON object (a NUL-terminated
 * string the caller frees with cw_free()), never prints and never
 * exits.  verify's object has the keys of `camelog verify --json`
 * (camelog-verify(1)) but "file", and "summary", the text verify prints
 * after "FILE: ".  The module holds no state between calls but what a
 * handle holds.
 */
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

#define CW_EXPORT(name) __attribute__((export_name(#name)))

/* The largest file read, as rpl_log_read() takes it: RPL_MAX_TEXT of
 * camelog(5). */
#define TEXT_MAX (16u * 1024u * 1024u)

/* A log opened for a seat's checks: the log, read and verified, and
 * the report of that verification as JSON. */
struct cw_log {
    struct rpl_ctx *ctx;
    struct rpl_log *log; /* NULL when it did not verify */
    char *report;
};

static const char *
error_text(enum rpl_status st, const struct rpl_error *err)
{
    if (err && err->code != RPL_OK && err->msg[0] != '\0') {
        return err->msg;
    }
    return rpl_strerror(st);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0. */
static size_t
utf8_len(const unsigned char *s)
{
    const unsigned c = s[0];
    unsigned cp;
    size_t n;

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
    for (size_t i = 1; i < n; i++) {
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

/* A JSON string of s, each byte that is not UTF-8 made U+FFFD, as the
 * CLI's JSON writer does. */
static json_t *
jstr(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    json_t *j = json_string(s);
    char *buf, *q;

    if (j) {
        return j;
    }
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

/* size_t is 32 bits here: every value is exact in JSON. */
static json_t *
jsize(size_t n)
{
    return json_integer((json_int_t)n);
}

/* Sets key; false (and val freed) when either is NULL. */
static bool
jset(json_t *obj, const char *key, json_t *val)
{
    if (!obj || !val) {
        json_decref(val);
        return false;
    }
    return json_object_set_new(obj, key, val) == 0;
}

/* The text of obj (freed), or NULL. */
static char *
jdump(json_t *obj)
{
    char *s = obj ? json_dumps(obj, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;

    json_decref(obj);
    return s;
}

/* {"usage": msg}: the caller's mistake, not the input's fault. */
static char *
usage_json(const char *msg)
{
    json_t *o = json_object();

    jset(o, "usage", jstr(msg));
    return jdump(o);
}

/* {"ok": false, "code", "line", "error"} for a failed seat call. */
static json_t *
fail_json(enum rpl_status st, const struct rpl_error *err)
{
    json_t *o = json_object();

    jset(o, "ok", json_false());
    jset(o, "code", json_string(rpl_status_name(st)));
    jset(o, "line", jsize(err ? err->line : 0));
    jset(o, "error", jstr(error_text(st, err)));
    return o;
}

CW_EXPORT(cw_alloc) void *cw_alloc(size_t n);
CW_EXPORT(cw_free) void cw_free(void *p);
CW_EXPORT(cw_version) const char *cw_version(void);
CW_EXPORT(cw_verify)
char *cw_verify(const uint8_t *bytes, size_t len, const char *pin, int require);
CW_EXPORT(cw_log_open)
struct cw_log *cw_log_open(const uint8_t *bytes, size_t len, const char *pin,
                           int is_live);
CW_EXPORT(cw_log_report) const char *cw_log_report(const struct cw_log *h);
CW_EXPORT(cw_log_close) void cw_log_close(struct cw_log *h);
CW_EXPORT(cw_check_delivery)
char *cw_check_delivery(const struct cw_log *h, size_t seat, const char *text,
                        size_t len);
CW_EXPORT(cw_keygen) char *cw_keygen(uint8_t seed[32]);
CW_EXPORT(cw_key_pubkey) char *cw_key_pubkey(const uint8_t seed[32]);
CW_EXPORT(cw_sign)
char *cw_sign(const struct cw_log *h, size_t seat, const uint8_t seed[32],
              const char *line);
CW_EXPORT(cw_sign_action)
char *cw_sign_action(const struct cw_log *h, size_t seat,
                     const uint8_t seed[32], const char *line,
                     const char *action, const char *label,
                     const uint8_t *nonce);
CW_EXPORT(cw_history)
char *cw_history(const struct cw_log *seen, const struct cw_log *final);
CW_EXPORT(cw_entropy)
char *cw_entropy(const struct cw_log *h, size_t seat, const uint8_t seed[32]);
CW_EXPORT(cw_round)
char *cw_round(const struct cw_log *h, size_t seat, const uint8_t seed[32],
               const uint8_t value[32], int is_reveal);

void *
cw_alloc(size_t n)
{
    return malloc(n != 0 ? n : 1);
}

void
cw_free(void *p)
{
    free(p);
}

const char *
cw_version(void)
{
    return rpl_version();
}

/* ---------------------------------------------------------- reading */

/* Reads bytes as rpl_log_read() reads a file: canonical text when it
 * opens as text must, one gzip member otherwise. */
static enum rpl_status
read_bytes(struct rpl_ctx *ctx, const uint8_t *bytes, size_t len,
           struct rpl_log **out, bool *is_text, struct rpl_error *err)
{
    *is_text = false;
    if (len > TEXT_MAX) {
        memset(err, 0, sizeof(*err));
        err->code = RPL_E_LIMIT;
        snprintf(err->msg, sizeof(err->msg),
                 "file is over the %u-byte limit (RPL_MAX_TEXT)", TEXT_MAX);
        return RPL_E_LIMIT;
    }
    if (len >= 10 && memcmp(bytes, "camelog ", 8) == 0 &&
        (bytes[8] == '1' || bytes[8] == '2') && bytes[9] == '\n') {
        *is_text = true;
        return rpl_log_parse(ctx, out, (const char *)bytes, len, false, err);
    }
    return rpl_log_read_mem(ctx, out, bytes, len, err);
}

/* The pinned key, parsed; NULL pin or "" pins none. */
static bool
parse_pin(const char *pin, struct rpl_pubkey *pk, const struct rpl_pubkey **out,
          char **usage)
{
    struct rpl_error err;
    enum rpl_status st;
    char msg[RPL_ERRMSG_MAX + 16];

    *out = NULL;
    if (!pin || pin[0] == '\0') {
        return true;
    }
    st = rpl_pubkey_parse(pk, pin, strlen(pin), &err);
    if (st != RPL_OK) {
        snprintf(msg, sizeof(msg), "pubkey: %s", error_text(st, &err));
        *usage = usage_json(msg);
        return false;
    }
    *out = pk;
    return true;
}

/* ---------------------------------------------------------- verify */

/* Reads and verifies bytes; *out keeps the log when it verified and
 * out is not NULL.  Returns the report's JSON text. */
static char *
verify_bytes(struct rpl_ctx *ctx, const uint8_t *bytes, size_t len,
             const struct rpl_verify_opts *opts, struct rpl_log **out)
{
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    struct rpl_verdict *v = NULL;
    bool is_text;
    enum rpl_status st;
    char *json = NULL, *s = NULL;

    memset(&rep, 0, sizeof(rep));
    st = read_bytes(ctx, bytes, len, &log, &is_text, &err);
    if (st != RPL_OK) {
        rep.error = err;
    } else {
        st = rpl_log_verify(log, opts, &rep);
    }
    if (rpl_verdict_new(ctx, log, &rep, st, is_text ? RPL_VERDICT_TEXT : 0, &v,
                        &err) == RPL_OK &&
        rpl_verdict_json(v, NULL, RPL_VERDICT_SUMMARY, &json, &err) == RPL_OK) {
        const size_t n = strlen(json) + 1;

        s = malloc(n);
        if (s) {
            memcpy(s, json, n);
        }
    }
    rpl_free(ctx, json);
    rpl_verdict_free(v);
    if (st == RPL_OK && out) {
        *out = log;
    } else {
        rpl_log_free(log);
    }
    return s;
}

char *
cw_verify(const uint8_t *bytes, size_t len, const char *pin, int require)
{
    struct rpl_verify_opts opts;
    struct rpl_pubkey pk;
    struct rpl_ctx *ctx = NULL;
    struct rpl_error err;
    char *usage = NULL, *s;

    memset(&opts, 0, sizeof(opts));
    if (require < 0 || require > RPL_PROGRESS_COMPLETE) {
        return usage_json("require: 0 (any), 1 (finished) or 2 (complete)");
    }
    opts.require = (enum rpl_progress)require;
    if (!parse_pin(pin, &pk, &opts.pubkey, &usage)) {
        return usage;
    }
    if (rpl_ctx_new(&ctx, NULL, &err) != RPL_OK) {
        return usage_json(err.msg);
    }
    s = verify_bytes(ctx, bytes, len, &opts, NULL);
    rpl_ctx_free(ctx);
    return s;
}

/* ---------------------------------------------------------- seat */

struct cw_log *
cw_log_open(const uint8_t *bytes, size_t len, const char *pin, int is_live)
{
    struct rpl_verify_opts opts;
    struct rpl_pubkey pk;
    struct rpl_error err;
    struct cw_log *h = calloc(1, sizeof(*h));
    char *usage = NULL;

    if (!h) {
        return NULL;
    }
    memset(&opts, 0, sizeof(opts));
    opts.unsealed_tail_ok = is_live != 0;
    if (!parse_pin(pin, &pk, &opts.pubkey, &usage)) {
        h->report = usage;
    } else if (rpl_ctx_new(&h->ctx, NULL, &err) != RPL_OK) {
        h->report = usage_json(err.msg);
    } else {
        h->report = verify_bytes(h->ctx, bytes, len, &opts, &h->log);
    }
    if (!h->report) {
        cw_log_close(h);
        return NULL;
    }
    return h;
}

const char *
cw_log_report(const struct cw_log *h)
{
    return h->report;
}

void
cw_log_close(struct cw_log *h)
{
    if (!h) {
        return;
    }
    rpl_log_free(h->log);
    rpl_ctx_free(h->ctx);
    free(h->report);
    free(h);
}

static bool
has_log(const struct cw_log *h, char **usage)
{
    if (!h || !h->log) {
        *usage = usage_json("the log did not verify");
        return false;
    }
    return true;
}

/* The keys of `camelog seat check --json` but "file" and "delivery":
 * {"line", "label", "valid", "code", "error"}, line and label null when
 * the delivery did not parse; and "value" when it matched. */
static json_t *
check_json(const struct rpl_delivery *d, enum rpl_status st,
           const struct rpl_error *err)
{
    json_t *o = json_object();

    jset(o, "line", d ? jsize(d->line) : json_null());
    jset(o, "label", d ? jstr(d->label) : json_null());
    jset(o, "valid", json_boolean(st == RPL_OK));
    jset(o, "code", json_string(rpl_status_name(st)));
    jset(o, "error", st == RPL_OK ? json_null() : jstr(error_text(st, err)));
    if (st == RPL_OK) {
        jset(o, "value", jstr(d->value));
    }
    return o;
}

/* Checks one delivery (either form of camelog(5), one line) for seat,
 * as `camelog seat check --as pSEAT` checks each line of its file. */
char *
cw_check_delivery(const struct cw_log *h, size_t seat, const char *text,
                  size_t len)
{
    struct rpl_delivery d;
    struct rpl_error err;
    enum rpl_status st;
    char *usage = NULL;
    json_t *o;

    if (!has_log(h, &usage)) {
        return usage;
    }
    if (seat == 0 || seat > rpl_log_seats(h->log)) {
        return usage_json("no such seat in the game");
    }
    memset(&err, 0, sizeof(err));
    st = rpl_delivery_parse(text, len, &d, &err);
    if (st != RPL_OK) {
        return jdump(check_json(NULL, st, &err));
    }
    if (d.seat != 0 && d.seat != seat) {
        st = RPL_E_FAIRNESS;
        err.code = st;
        err.line = d.line;
        snprintf(err.msg, sizeof(err.msg),
                 "the delivery of line %zu is marked for p%zu, not for p%zu",
                 d.line, d.seat, seat);
    } else {
        d.seat = seat;
        st = rpl_seat_check_delivery(h->log, &d, &err);
    }
    o = check_json(&d, st, &err);
    sodium_memzero(&d, sizeof(d));
    return jdump(o);
}

/* ---------------------------------------------------------- keys */

/* A seat key is its 32-byte seed, from which rpl_seckey_from_seed()
 * derives the pair and its id. */
static json_t *
pubkey_json(struct rpl_ctx *ctx, const uint8_t seed[32])
{
    struct rpl_seckey *sk = NULL;
    struct rpl_pubkey pk;
    struct rpl_error err;
    char b64[RPL_PUBKEY_B64_LEN + 1];
    enum rpl_status st = rpl_seckey_from_seed(ctx, &sk, seed, &err);
    json_t *o;

    if (st != RPL_OK) {
        return fail_json(st, &err);
    }
    rpl_seckey_pubkey(sk, &pk);
    rpl_seckey_free(sk);
    rpl_pubkey_format(&pk, b64);
    o = json_object();
    jset(o, "ok", json_true());
    jset(o, "pubkey", json_string(b64));
    return o;
}

char *
cw_keygen(uint8_t seed[32])
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_error err;
    json_t *o;

    /* rpl_ctx_new() runs sodium_init(). */
    if (rpl_ctx_new(&ctx, NULL, &err) != RPL_OK) {
        return usage_json(err.msg);
    }
    randombytes_buf(seed, 32);
    o = pubkey_json(ctx, seed);
    rpl_ctx_free(ctx);
    return jdump(o);
}

char *
cw_key_pubkey(const uint8_t seed[32])
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_error err;
    json_t *o;

    if (rpl_ctx_new(&ctx, NULL, &err) != RPL_OK) {
        return usage_json(err.msg);
    }
    o = pubkey_json(ctx, seed);
    rpl_ctx_free(ctx);
    return jdump(o);
}

/* ---------------------------------------------------------- signing */

/* The sig line of line, by seat with the key of seed; with action (not
 * NULL), only when line is that action, or for a secret choice when its
 * commitment under label and nonce is that of the action's value, as
 * rpl_seat_sign_action() decides. */
static char *
sign_line(const struct cw_log *h, size_t seat, const uint8_t seed[32],
          const char *line, const char *action, const char *label,
          const uint8_t *nonce)
{
    struct rpl_seckey *sk = NULL;
    struct rpl_error err;
    char sig[RPL_SIG_LINE_MAX];
    char *usage = NULL;
    enum rpl_status st;
    json_t *o;

    if (!has_log(h, &usage)) {
        return usage;
    }
    st = rpl_seckey_from_seed(h->ctx, &sk, seed, &err);
    if (st == RPL_OK && action) {
        st = rpl_seat_sign_action(h->log, seat, sk, line, action, label, nonce,
                                  sig, &err);
    } else if (st == RPL_OK) {
        st = rpl_seat_sign(h->log, seat, sk, line, sig, &err);
    }
    rpl_seckey_free(sk);
    if (st != RPL_OK) {
        return jdump(fail_json(st, &err));
    }
    o = json_object();
    jset(o, "ok", json_true());
    jset(o, "seat", jsize(seat));
    jset(o, "line", jstr(line));
    jset(o, "sig", json_string(sig));
    return jdump(o);
}

char *
cw_sign(const struct cw_log *h, size_t seat, const uint8_t seed[32],
        const char *line)
{
    return sign_line(h, seat, seed, line, NULL, NULL, NULL);
}

/* As `camelog seat sign --action action [--label label --nonce hex]`:
 * label "" and nonce NULL for a line without a commitment of the
 * seat's. */
char *
cw_sign_action(const struct cw_log *h, size_t seat, const uint8_t seed[32],
               const char *line, const char *action, const char *label,
               const uint8_t *nonce)
{
    return sign_line(h, seat, seed, line, action,
                     label && label[0] != '\0' ? label : NULL, nonce);
}

/* ---------------------------------------------------------- history */

static json_t *
line_json(const struct rpl_log *log, size_t no)
{
    size_t len = 0;
    const char *s = rpl_log_line(log, no, &len);

    return s ? json_stringn(s, len) : json_null();
}

/* Whether the lines of final begin with every line of seen, the history
 * a seat saw, as `camelog seat history --json` says it: {"extends",
 * "lines" (seen's), "line" (the first that differs, or null),
 * "seen_text", "final_text" (that line in each, null past an end)}. */
char *
cw_history(const struct cw_log *seen, const struct cw_log *final)
{
    char *usage = NULL;
    size_t n, no;
    json_t *o;

    if (!has_log(seen, &usage) || !has_log(final, &usage)) {
        return usage;
    }
    n = rpl_log_lines(seen->log);
    for (no = 1; no <= n; no++) {
        size_t la = 0, lb = 0;
        const char *sa = rpl_log_line(seen->log, no, &la);
        const char *sb = rpl_log_line(final->log, no, &lb);

        if (!sb || la != lb || memcmp(sa, sb, la) != 0) {
            break;
        }
    }
    o = json_object();
    jset(o, "extends", json_boolean(no > n));
    jset(o, "lines", jsize(n));
    jset(o, "line", no > n ? json_null() : jsize(no));
    jset(o, "seen_text", no > n ? json_null() : line_json(seen->log, no));
    jset(o, "final_text", no > n ? json_null() : line_json(final->log, no));
    return jdump(o);
}

/* The lines a seat makes of its entropy, with the key of seed: format
 * 1's entropy line (ROUND_ENTROPY), or format 2's pledge of value or its
 * reveal (camelog(5), "Entropy"), as camelog seat entropy, commit and
 * reveal make them.  The caller keeps value between the two rounds. */
enum round { ROUND_ENTROPY, ROUND_PLEDGE, ROUND_REVEAL };

static char *
seat_entropy(const struct cw_log *h, size_t seat, const uint8_t seed[32],
             const uint8_t *value, enum round round)
{
    struct rpl_seckey *sk = NULL;
    struct rpl_error err;
    char line[RPL_ENTROPY_LINE_MAX], sig[RPL_SIG_LINE_MAX];
    char *usage = NULL;
    enum rpl_status st;
    json_t *o;

    if (!has_log(h, &usage)) {
        return usage;
    }
    st = rpl_seckey_from_seed(h->ctx, &sk, seed, &err);
    if (st == RPL_OK) {
        switch (round) {
        case ROUND_ENTROPY:
            st = rpl_seat_entropy(h->log, seat, sk, line, sig, &err);
            break;
        case ROUND_PLEDGE:
            st = rpl_seat_pledge(h->log, seat, sk, value, line, sig, &err);
            break;
        case ROUND_REVEAL:
            st = rpl_seat_reveal(h->log, seat, sk, value, line, sig, &err);
            break;
        }
    }
    rpl_seckey_free(sk);
    if (st != RPL_OK) {
        return jdump(fail_json(st, &err));
    }
    o = json_object();
    jset(o, "ok", json_true());
    jset(o, "seat", jsize(seat));
    jset(o, round == ROUND_PLEDGE ? "pledge" : "entropy", json_string(line));
    jset(o, "sig", json_string(sig));
    return jdump(o);
}

char *
cw_entropy(const struct cw_log *h, size_t seat, const uint8_t seed[32])
{
    return seat_entropy(h, seat, seed, NULL, ROUND_ENTROPY);
}

char *
cw_round(const struct cw_log *h, size_t seat, const uint8_t seed[32],
         const uint8_t value[32], int is_reveal)
{
    return seat_entropy(h, seat, seed, value,
                        is_reveal ? ROUND_REVEAL : ROUND_PLEDGE);
}
