/*
 * host_reply.c - the parts of camelog host's replies that the recorder
 * fills: the lines a request wrote, the deliveries it made (each for one
 * seat) and the sign requests it awaits (each for one seat), in the JSON
 * forms of camelog-host(1) and camelog(5).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "cli.h"
#include "host_reply.h"
#include "replay.h"

/* A sign request's padding: text and message (hex, twice the text) of
 * a request vary with the line (a vote yes or no, held before the votes
 * are public), so "pad" adds three full stops for each byte the text
 * lacks to a multiple of 64: every request of one kind has one length. */
static json_t *
json_pad(size_t text_len)
{
    char pad[3 * 64 + 1];
    const size_t k = 3 * ((64 - text_len % 64) % 64);

    memset(pad, '.', k);
    pad[k] = '\0';
    return json_string(pad);
}

static json_t *
json_hex(const uint8_t *p, size_t n)
{
    char *s = malloc(2 * n + 1);
    json_t *j;

    if (!s) {
        return NULL;
    }
    cli_hex(p, n, s);
    j = json_string(s);
    free(s);
    return j;
}

static json_t *
json_seat(size_t seat)
{
    char s[24];

    snprintf(s, sizeof(s), "p%zu", seat);
    return json_string(s);
}

/* The lines first..last (1-based) of the recorder, as strings. */
json_t *
host_lines_json(const struct rpl_recorder *rec, size_t first, size_t last)
{
    json_t *a = json_array();
    size_t no;

    for (no = first; a && no <= last; no++) {
        size_t len = 0;
        const char *p = rpl_rec_line(rec, no, &len);

        if (!p || json_array_append_new(a, json_stringn(p, len)) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/* Deliveries first.. of the recorder, per seat: {"p3":[{...}], ...}, each
 * in the JSON form of camelog(5) (keys seat, line, label, value, nonce). */
json_t *
host_deliveries_json(const struct rpl_recorder *rec, size_t first)
{
    json_t *o = json_object();
    const size_t n = rpl_rec_deliveries(rec);
    size_t i;

    for (i = first; o && i < n; i++) {
        struct rpl_delivery d;
        struct rpl_error err;
        char seat[24];
        char text[RPL_DELIVERY_MAX];
        json_t *a, *dj;
        bool ok;

        if (rpl_rec_delivery(rec, i, &d, &err) != RPL_OK) {
            json_decref(o);
            return NULL;
        }
        snprintf(seat, sizeof(seat), "p%zu", d.seat);
        a = json_object_get(o, seat);
        if (!a) {
            a = json_array();
            if (!cli_json_set(o, seat, a)) {
                sodium_memzero(&d, sizeof(d));
                json_decref(o);
                return NULL;
            }
        }
        /* The JSON form of camelog(5), as the library spells it. */
        dj = rpl_delivery_format_json(&d, text, sizeof(text)) > 0
                 ? json_loads(text, 0, NULL)
                 : NULL;
        ok = dj && json_array_append_new(a, dj) == 0;
        sodium_memzero(&d, sizeof(d));
        sodium_memzero(text, sizeof(text));
        if (!ok) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}

/* Every pending sign request (at most one a seat), under its seat's key:
 * {"p1":{seat, line, text, base, message (hex)}}.  Private: the text of
 * a vote is out before the votes are public. */
json_t *
host_sign_json(const struct rpl_recorder *rec)
{
    json_t *a = json_object();
    const size_t n = rpl_rec_sign_requests(rec);
    uint8_t *msg = NULL;
    size_t i;

    msg = malloc(RPL_SIG_MESSAGE_MAX);
    if (!msg) {
        json_decref(a);
        return NULL;
    }
    for (i = 0; a && i < n; i++) {
        struct rpl_sign_request sr;
        struct rpl_error err;
        char seat[24];
        json_t *o;
        size_t tlen, mlen;

        if (rpl_rec_sign_request(rec, i, &sr, &err) != RPL_OK) {
            json_decref(a);
            a = NULL;
            break;
        }
        tlen = strlen(sr.text);
        if (rpl_sig_message(sr.base, sr.text, tlen, msg, RPL_SIG_MESSAGE_MAX,
                            &mlen, &err) != RPL_OK) {
            sodium_memzero(&sr, sizeof(sr));
            json_decref(a);
            a = NULL;
            break;
        }
        o = json_object();
        snprintf(seat, sizeof(seat), "p%zu", sr.seat);
        if (!cli_json_set(a, seat, o) ||
            !cli_json_set(o, "seat", json_seat(sr.seat)) ||
            !cli_json_set(o, "line", cli_json_size(sr.line)) ||
            !cli_json_set(o, "text", cli_json_str(sr.text)) ||
            !cli_json_set(o, "base", json_hex(sr.base, 32)) ||
            !cli_json_set(o, "message", json_hex(msg, mlen)) ||
            (sr.has_nonce &&
             (!cli_json_set(o, "label", cli_json_str(sr.label)) ||
              !cli_json_set(o, "nonce", json_hex(sr.nonce, 32)))) ||
            !cli_json_set(o, "pad", json_pad(tlen))) {
            json_decref(a);
            a = NULL;
        }
        sodium_memzero(&sr, sizeof(sr));
    }
    free(msg);
    return a;
}
