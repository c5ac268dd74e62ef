/*
 * ctx.c - the context (allocator), error reporting, status texts and the
 * growing text buffer every other file uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"

static void *
libc_alloc(void *ud, size_t size)
{
    (void)ud;
    return malloc(size);
}

static void *
libc_realloc(void *ud, void *ptr, size_t size)
{
    (void)ud;
    return realloc(ptr, size);
}

static void
libc_free(void *ud, void *ptr)
{
    (void)ud;
    free(ptr);
}

const char *
rpl_version(void)
{
    return RPL_VERSION;
}

unsigned
rpl_version_number(void)
{
    return RPL_VERSION_NUMBER;
}

enum rpl_status
rpl_ctx_new(struct rpl_ctx **out, const struct rpl_allocator *alloc,
            struct rpl_error *err)
{
    struct rpl_ctx *ctx;

    rpl__err_clear(err);
    *out = NULL;
    if (alloc && (!alloc->alloc || !alloc->realloc || !alloc->free))
        return rpl__err(err, RPL_E_ARG, 0,
                        "an allocator needs alloc, realloc and free");
    if (sodium_init() < 0)
        return rpl__err(err, RPL_E_CRYPTO, 0, "sodium_init failed");
    ctx = alloc ? alloc->alloc(alloc->ud, sizeof(*ctx)) : malloc(sizeof(*ctx));
    if (!ctx)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    memset(ctx, 0, sizeof(*ctx));
    if (alloc) {
        ctx->a = *alloc;
    } else {
        ctx->a.alloc = libc_alloc;
        ctx->a.realloc = libc_realloc;
        ctx->a.free = libc_free;
        ctx->a.ud = NULL;
    }
    *out = ctx;
    return RPL_OK;
}

void
rpl_ctx_free(struct rpl_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->deflater_free)
        ctx->deflater_free(ctx);
    ctx->a.free(ctx->a.ud, ctx);
}

void
rpl_free(struct rpl_ctx *ctx, void *ptr)
{
    if (ptr)
        ctx->a.free(ctx->a.ud, ptr);
}

void *
rpl__alloc(struct rpl_ctx *ctx, size_t size)
{
    return ctx->a.alloc(ctx->a.ud, size ? size : 1);
}

void *
rpl__calloc(struct rpl_ctx *ctx, size_t n, size_t size)
{
    void *p;

    if (size && n > SIZE_MAX / size)
        return NULL;
    p = rpl__alloc(ctx, n * size);
    if (p)
        memset(p, 0, (n * size) > 0 ? n * size : 1);
    return p;
}

void *
rpl__realloc(struct rpl_ctx *ctx, void *ptr, size_t size)
{
    return ctx->a.realloc(ctx->a.ud, ptr, size ? size : 1);
}

void
rpl__free(struct rpl_ctx *ctx, void *ptr)
{
    if (ptr)
        ctx->a.free(ctx->a.ud, ptr);
}

char *
rpl__strndup(struct rpl_ctx *ctx, const char *s, size_t len)
{
    char *p;

    if (len == SIZE_MAX)
        return NULL;
    p = rpl__alloc(ctx, len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

enum rpl_status
rpl__err(struct rpl_error *err, enum rpl_status code, size_t line,
         const char *fmt, ...)
{
    va_list ap;

    if (err) {
        err->code = code;
        err->line = line;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    return code;
}

void
rpl__err_clear(struct rpl_error *err)
{
    if (err) {
        err->code = RPL_OK;
        err->line = 0;
        err->msg[0] = '\0';
    }
}

/* Each status: its name in the JSON outputs, its text for people, and
 * whether it says the input is invalid (exit 1 in the tool). */
static const struct {
    const char *name;
    const char *text;
    bool is_invalid_input;
} statuses[] = {
    [RPL_OK] = {"ok", "success", false},
    [RPL_E_NOMEM] = {"nomem", "out of memory", false},
    [RPL_E_ARG] = {"arg", "invalid argument", false},
    [RPL_E_IO] = {"io", "input/output error", false},
    [RPL_E_LIMIT] = {"limit", "input over a limit", true},
    [RPL_E_GZIP] = {"gzip", "not a single gzip member", true},
    [RPL_E_SYNTAX] = {"syntax", "line not in canonical form", true},
    [RPL_E_SEAL] = {"seal", "bad seal", true},
    [RPL_E_SIG] = {"sig", "bad seat signature", true},
    [RPL_E_KEY] = {"key", "bad key", true},
    [RPL_E_RULES] = {"rules", "against the rules of the game", true},
    [RPL_E_FAIRNESS] = {"fairness", "secret does not match its commitment",
                        true},
    [RPL_E_STATE] = {"state", "not possible in this state", false},
    [RPL_E_PERM] = {"perm", "secret key file readable by others", false},
    [RPL_E_CRYPTO] = {"crypto", "cryptographic library failure", false},
    [RPL_E_EXISTS] = {"exists", "file exists", false},
    [RPL_E_INCOMPLETE] = {"incomplete", "log incomplete", true},
    [RPL_E_UNSUPPORTED] = {"unsupported", "unsupported", true},
    [RPL_E_BUSY] = {"busy", "held by another process", false},
};

_Static_assert(sizeof(statuses) / sizeof(statuses[0]) == RPL_STATUS_MAX + 1,
               "one entry per status");

static bool
is_status(enum rpl_status code)
{
    return (unsigned)code <= RPL_STATUS_MAX;
}

void
rpl__no_warning(void *w, size_t line, const char *msg)
{
    (void)w;
    (void)line;
    (void)msg;
}

const char *
rpl_strerror(enum rpl_status code)
{
    return is_status(code) ? statuses[code].text : "unknown status";
}

const char *
rpl_status_name(enum rpl_status code)
{
    return is_status(code) ? statuses[code].name : "unknown";
}

bool
rpl_status_is_invalid_input(enum rpl_status code)
{
    return is_status(code) && statuses[code].is_invalid_input;
}

void
rpl__buf_init(struct rpl__buf *b, struct rpl_ctx *ctx)
{
    b->ctx = ctx;
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
    b->failed = false;
}

void
rpl__buf_release(struct rpl__buf *b)
{
    rpl__free(b->ctx, b->p);
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
    b->failed = false;
}

/* Room for need more bytes and a NUL. */
static bool
buf_reserve(struct rpl__buf *b, size_t need)
{
    size_t cap;
    char *p;

    if (b->failed)
        return false;
    if (b->cap && need < b->cap - b->len)
        return true;
    if (need > SIZE_MAX / 4 - b->len) {
        b->failed = true;
        return false;
    }
    cap = b->cap ? b->cap : 256;
    while (cap < b->len + need + 1)
        cap *= 2;
    p = rpl__realloc(b->ctx, b->p, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

void
rpl__buf_add(struct rpl__buf *b, const char *s, size_t len)
{
    if (!buf_reserve(b, len))
        return;
    memcpy(b->p + b->len, s, len);
    b->len += len;
    b->p[b->len] = '\0';
}

void
rpl__buf_puts(struct rpl__buf *b, const char *s)
{
    rpl__buf_add(b, s, strlen(s));
}

void
rpl__buf_printf(struct rpl__buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if (!buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

enum rpl_status
rpl__buf_take(struct rpl__buf *b, char **out, struct rpl_error *err)
{
    if (b->failed || !buf_reserve(b, 0)) {
        rpl__buf_release(b);
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    *out = b->p;
    b->p = NULL;
    b->len = 0;
    b->cap = 0;
    return RPL_OK;
}
