/*
 * json.h - the small JSON builder the game modules share (views,
 * events, reveals), on jansson.  A struct rpl__jb collects failures: any
 * jansson call that fails marks the whole document failed, and
 * rpl__jdump() then marks the output buffer failed instead of writing a
 * partial document.
 */
#ifndef LIBREPLAY_JSON_H
#define LIBREPLAY_JSON_H

#include <jansson.h>

#include "internal.h"

struct rpl__jb {
    bool ok;
};

/* o[key] = v (v's reference is taken, also on failure). */
void rpl__jset(struct rpl__jb *j, json_t *o, const char *key, json_t *v);
/* a += v (v's reference is taken, also on failure). */
void rpl__japp(struct rpl__jb *j, json_t *a, json_t *v);
/* Appends v compactly with sorted keys to out, and frees v. */
void rpl__jdump(struct rpl__jb *j, json_t *v, struct rpl__buf *out);

#endif /* LIBREPLAY_JSON_H */
