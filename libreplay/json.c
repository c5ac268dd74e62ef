/*
 * json.c - the JSON builder of json.h.
 */
#include <stdlib.h>

#include "json.h"

void
rpl__jset(struct rpl__jb *j, json_t *o, const char *key, json_t *v)
{
    if (!o || !v || json_object_set_new(o, key, v) != 0)
        j->ok = false;
}

void
rpl__japp(struct rpl__jb *j, json_t *a, json_t *v)
{
    if (!a || !v || json_array_append_new(a, v) != 0)
        j->ok = false;
}

void
rpl__jdump(struct rpl__jb *j, json_t *v, struct rpl__buf *out)
{
    char *text = NULL;

    if (j->ok && v)
        text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    if (text)
        rpl__buf_puts(out, text);
    else
        out->failed = true;
    free(text);
    json_decref(v);
}
