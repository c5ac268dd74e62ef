/*
 * rec_state.c - rpl_rec_state_json(): the state of a game being recorded
 * as a user interface shows it to one viewer.  The game module writes
 * its part (struct rpl__game.state_json); this file adds what the
 * recorder holds: the number of lines and the viewer's deliveries, in
 * the JSON form of camelog(5):
 *
 *   {"seat":3,"line":23,"label":"<label>","value":"<value>",
 *    "nonce":"<64 hex digits>"}
 *
 * label and value are quoted like seat names (\" and \\ the only
 * escapes), which is also valid JSON for them.
 */
#include <string.h>

#include <sodium.h>

#include "rec.h"

/* Appends delivery d as a JSON object. */
static void
put_delivery(struct rpl__buf *b, const struct rpl_delivery *d)
{
    char nonce[2 * sizeof(d->nonce) + 1];

    rpl__hex(nonce, d->nonce, sizeof(d->nonce));
    rpl__buf_printf(b, "{\"seat\":%zu,\"line\":%zu,\"label\":", d->seat,
                    d->line);
    rpl__buf_quote(b, d->label);
    rpl__buf_puts(b, ",\"value\":");
    rpl__buf_quote(b, d->value);
    rpl__buf_printf(b, ",\"nonce\":\"%s\"}", nonce);
    sodium_memzero(nonce, sizeof(nonce));
}

enum rpl_status
rpl_rec_state_json(const struct rpl_recorder *rec, int viewer, char **json,
                   struct rpl_error *err)
{
    struct rpl__buf b;
    bool first = true;
    enum rpl_status rc;

    rpl__err_clear(err);
    *json = NULL;
    if (viewer != RPL_VIEW_PUBLIC && viewer != RPL_VIEW_ALL &&
        (viewer < 1 || (size_t)viewer > rec->seats))
        return rpl__err(err, RPL_E_ARG, 0, "no seat p%d in this game (%zu)",
                        viewer, rec->seats);
    if (!rec->game->state_json)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "the game %s has no state for live play",
                        rec->game->name);
    rpl__buf_init(&b, rec->ctx);
    rec->game->state_json(rec->st, &rec->env, viewer, &b);
    /* The game wrote one object: its closing brace gives way to ours. */
    if (!b.failed && (b.len == 0 || b.p[b.len - 1] != '}')) {
        rpl__buf_release(&b);
        return rpl__err(err, RPL_E_STATE, 0,
                        "the game's state is not an "
                        "object");
    }
    if (!b.failed)
        b.p[--b.len] = '\0';
    rpl__buf_printf(&b, ",\"lines\":%zu,\"deliveries\":[", rec->nlines);
    for (size_t i = 0; i < rec->ndeliv; i++) {
        const struct rpl_delivery *d = &rec->deliv[i];

        if (viewer == RPL_VIEW_PUBLIC ||
            (viewer != RPL_VIEW_ALL && d->seat != (size_t)viewer))
            continue;
        if (!first)
            rpl__buf_puts(&b, ",");
        put_delivery(&b, d);
        first = false;
    }
    rpl__buf_puts(&b, "]}");
    if (b.failed && b.p)
        sodium_memzero(b.p, b.cap);
    rc = rpl__buf_take(&b, json, err);
    return rc;
}
