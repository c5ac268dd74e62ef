/*
 * json.c - the JSON builder of json.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

json_t *
rpl__jrate(uint64_t num, uint64_t den)
{
    uint64_t r;

    if (den == 0 || num > den || num > UINT64_MAX / 10000u)
        return json_null();
    r = (num * 10000u + den / 2u) / den;
    return json_real((double)r / 10000.0);
}

json_t *
rpl__jtext(const char *s)
{
    const char *p = s ? s : "";
    const size_t n = strlen(p);
    json_t *j = json_stringn(p, n);
    char *out, *q;

    if (j || n > SIZE_MAX / 3 - 1)
        return j;
    out = malloc(3 * n + 1);
    if (!out)
        return NULL;
    q = out;
    for (size_t i = 0; i < n;) {
        const size_t len = rpl__utf8_len(p + i, n - i);

        if (len) {
            memcpy(q, p + i, len);
            q += len;
            i += len;
        } else {
            memcpy(q, "\xef\xbf\xbd", 3);
            q += 3;
            i++;
        }
    }
    j = json_stringn(out, (size_t)(q - out));
    free(out);
    return j;
}

json_t *
rpl__jcount(uint64_t n)
{
    return json_integer(n > INT64_MAX ? INT64_MAX : (json_int_t)n);
}

/* One value of rpl__jdump_fixed(); false when it could not be written. */
static bool
dump_fixed(json_t *v, struct rpl__buf *out)
{
    const char *key;
    json_t *e;
    size_t i;
    bool first = true;
    char *text;

    switch (json_typeof(v)) {
    case JSON_OBJECT:
        rpl__buf_add(out, "{", 1);
        json_object_foreach(v, key, e)
        {
            json_t *k = json_string(key);

            if (!first)
                rpl__buf_add(out, ",", 1);
            first = false;
            if (!k || !dump_fixed(k, out)) {
                json_decref(k);
                return false;
            }
            json_decref(k);
            rpl__buf_add(out, ":", 1);
            if (!dump_fixed(e, out))
                return false;
        }
        rpl__buf_add(out, "}", 1);
        return true;
    case JSON_ARRAY:
        rpl__buf_add(out, "[", 1);
        json_array_foreach(v, i, e)
        {
            if (i > 0)
                rpl__buf_add(out, ",", 1);
            if (!dump_fixed(e, out))
                return false;
        }
        rpl__buf_add(out, "]", 1);
        return true;
    case JSON_REAL:
        rpl__buf_printf(out, "%.4f", json_real_value(v));
        return true;
    case JSON_STRING:
    case JSON_INTEGER:
    case JSON_TRUE:
    case JSON_FALSE:
    case JSON_NULL:
        text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (!text)
            return false;
        rpl__buf_puts(out, text);
        free(text);
        return true;
    }
    return false;
}

void
rpl__jdump_fixed(struct rpl__jb *j, json_t *v, struct rpl__buf *out)
{
    if (!j->ok || !v || !dump_fixed(v, out))
        out->failed = true;
    json_decref(v);
}
