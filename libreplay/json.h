/*
 * json.h - the small JSON builder the game modules share (views,
 * events, reveals), on jansson.  A struct rpl__jb collects failures: any
 * jansson call that fails marks the whole document failed, and
 * rpl__jdump() then marks the output buffer failed instead of writing a
 * partial document.
 *
 * jansson prints a real in its shortest form (0.5), but the archive's
 * statistics print every rate with four places (0.5000, camelog-
 * archive(1)).  A rate is therefore a real made by rpl__jrate() and the
 * document is written by rpl__jdump_fixed(), which prints each real with
 * exactly four places; nothing else of jansson's printing changes.
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

/* num / den rounded half up to four places, as a real; null when den is
 * 0, num > den, or num too large to scale (over 2^64 / 10^4).  The rounding is
 * done on integers, so the text rpl__jdump_fixed() prints is the same
 * everywhere. */
json_t *rpl__jrate(uint64_t num, uint64_t den);
/* A JSON string of s ("" for NULL), each byte of s that is not UTF-8
 * made U+FFFD: text read from an archive anyone may have made. */
json_t *rpl__jtext(const char *s);
/* An unsigned count as a JSON integer (saturated at INT64_MAX). */
json_t *rpl__jcount(uint64_t n);
/* Appends v compactly, object keys in insertion order and every real
 * with exactly four places, to out, and frees v. */
void rpl__jdump_fixed(struct rpl__jb *j, json_t *v, struct rpl__buf *out);

#endif /* LIBREPLAY_JSON_H */
