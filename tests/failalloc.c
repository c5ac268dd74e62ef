/*
 * failalloc.c - the failing allocator of failalloc.h.
 */
#include <stdlib.h>

#include "failalloc.h"

static void *
f_alloc(void *ud, size_t n)
{
    struct failing *f = ud;

    if (f->countdown-- == 0)
        return NULL;
    f->live++;
    return malloc(n);
}

static void *
f_realloc(void *ud, void *p, size_t n)
{
    struct failing *f = ud;
    void *q;

    if (f->countdown-- == 0)
        return NULL;
    q = realloc(p, n);
    if (!p && q)
        f->live++;
    return q;
}

static void
f_free(void *ud, void *p)
{
    struct failing *f = ud;

    if (p)
        f->live--;
    free(p);
}

struct rpl_allocator
failing_allocator(struct failing *f)
{
    const struct rpl_allocator a = {f_alloc, f_realloc, f_free, f};

    return a;
}
