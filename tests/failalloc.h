/*
 * failalloc.h - an allocator for the tests that fails on demand and
 * counts the blocks it has live, so a test can make each allocation of a
 * call fail in turn and check that nothing leaks.
 */
#ifndef CAMELOG_TESTS_FAILALLOC_H
#define CAMELOG_TESTS_FAILALLOC_H

#include "replay.h"

struct failing {
    long countdown; /* allocations left before one fails; -1: never */
    long live;      /* blocks allocated and not freed */
};

/* An allocator over f (which must outlive every block it hands out). */
struct rpl_allocator failing_allocator(struct failing *f);

#endif
