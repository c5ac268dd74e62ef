/*
 * rec_state.c - rpl_rec_state_json(): the state of a game being recorded
 * as a user interface shows it to one viewer.  The game module writes
 * its part (struct rpl__game_live.state_json); this file adds what the
 * recorder holds: the number of lines and the viewer's deliveries, in
 * the JSON form of camelog(5):
 *
 *   {"seat":3,"line":23,"label":"<label>","value":"<value>",
 *    "nonce":"<64 hex digits>"}
 *
 * label and value are quoted like seat names (\" and \\ the only
 * escapes), which is also valid JSON for them.
 *
 * And what the recorder holds of a live game: "waiting", the seats a
 * submission or a signature is awaited from, and "held", the seats whose
 * submission is held (a vote, a card, entropy before the start) for the
 * public, the viewer's own held submissions as text for a seat, and every
 * one for the dealer.  A seat whose submission is held has no "actions".
 */
#include <string.h>

#include <sodium.h>

#include "rec.h"

/* Whether seat k's submission is held by the recorder. */
static bool
is_held(const struct rpl_recorder *rec, size_t k)
{
    if (!rec->started)
        return rec->pre.has_sub_entropy[k];
    return rec->queue[k].is_queued;
}

/* Whether the recorder waits for a submission or a signature of seat k. */
static bool
is_waiting(const struct rpl_recorder *rec, size_t k)
{
    uint64_t mask;
    size_t turn;

    for (size_t i = 0; i < rec->nreq; i++)
        if (rec->req[i].seat == k)
            return true;
    if (!rec->started || rec->game->play->is_over(rec->st))
        return false;
    mask =
        rec->game->live->step_seats ? rec->game->live->step_seats(rec->st) : 0;
    if (mask)
        return (mask >> k & 1) && !is_held(rec, k);
    turn = rec->game->play->turn(rec->pub);
    return rec->nqueue == 0 && turn == k;
}

static void
put_seat_list(struct rpl__buf *b, const struct rpl_recorder *rec,
              bool (*pick)(const struct rpl_recorder *, size_t))
{
    bool first = true;

    for (size_t k = 1; k <= rec->seats; k++) {
        if (!pick(rec, k))
            continue;
        rpl__buf_printf(b, "%s\"p%zu\"", first ? "" : ",", k);
        first = false;
    }
}

/* The held submissions of seat k (every seat for 0) as text. */
static void
put_held(struct rpl__buf *b, const struct rpl_recorder *rec, size_t k)
{
    bool first = true;

    for (size_t j = 1; j <= rec->seats; j++) {
        char line[RPL_ENTROPY_LINE_MAX];

        if ((k != 0 && j != k) || !is_held(rec, j))
            continue;
        if (!first)
            rpl__buf_puts(b, ",");
        first = false;
        if (!rec->started) {
            rpl__entropy_line(line, sizeof(line), j, rec->pre.sub_entropy[j]);
            rpl__buf_quote(b, line);
            continue;
        }
        rpl__buf_quote(b, rec->queue[j].action);
    }
}

/* Empties the "actions" array of the game's object in b (from offset
 * from): its strings hold no bracket, quote or backslash unescaped. */
static void
drop_actions(struct rpl__buf *b, size_t from)
{
    static const char key[] = "\"actions\":[";
    char *p, *end;

    if (b->failed || !b->p)
        return;
    p = strstr(b->p + from, key);
    if (!p)
        return;
    p += sizeof(key) - 1;
    for (end = p; *end && *end != ']'; end++)
        if (*end == '\\' && end[1])
            end++;
    if (*end != ']')
        return;
    memmove(p, end, strlen(end) + 1);
    b->len -= (size_t)(end - p);
}

/* The state for viewer written to b, all but its closing brace (b->failed
 * when out of memory); *dlen: the bytes of its "deliveries" array.
 * RPL_E_STATE when the game wrote no object. */
static enum rpl_status
state_text(const struct rpl_recorder *rec, int viewer, struct rpl__buf *b,
           size_t *dlen, struct rpl_error *err)
{
    bool first = true;
    size_t at;

    rec->game->live->state_json(rec->st, &rec->env, viewer, b);
    if (viewer > 0 && is_held(rec, (size_t)viewer))
        drop_actions(b, 0);
    /* The game wrote one object: its closing brace gives way to ours. */
    if (!b->failed && (b->len == 0 || b->p[b->len - 1] != '}'))
        return rpl__err(err, RPL_E_STATE, 0,
                        "the game's state is not an "
                        "object");
    if (!b->failed)
        b->p[--b->len] = '\0';
    rpl__buf_puts(b, ",\"waiting\":[");
    put_seat_list(b, rec, is_waiting);
    rpl__buf_puts(b, "],\"held\":[");
    if (viewer == RPL_VIEW_PUBLIC)
        put_seat_list(b, rec, is_held);
    else
        put_held(b, rec, viewer == RPL_VIEW_ALL ? 0 : (size_t)viewer);
    rpl__buf_printf(b, "],\"lines\":%zu,\"deliveries\":", rec->nlines);
    at = b->len;
    rpl__buf_puts(b, "[");
    for (size_t i = 0; i < rec->ndeliv; i++) {
        const struct rpl_delivery *d = &rec->deliv[i];

        if (viewer == RPL_VIEW_PUBLIC ||
            (viewer != RPL_VIEW_ALL && d->seat != (size_t)viewer))
            continue;
        if (!first)
            rpl__buf_puts(b, ",");
        rpl__delivery_json(b, d);
        first = false;
    }
    rpl__buf_puts(b, "]");
    *dlen = b->len - at;
    return RPL_OK;
}

/* A seat's state ends in "pad", full stops that make it as long as the
 * public state of the moment, less its empty deliveries, plus the seat's
 * deliveries and the game's state_pad (a multiple of state_pad more
 * when its private part outgrows that): a length every part of which is
 * public (camelog-host(1)). */
static enum rpl_status
pad_seat(const struct rpl_recorder *rec, struct rpl__buf *b, size_t dlen,
         struct rpl_error *err)
{
    static const char key[] = ",\"pad\":\"\"";
    static const char dots[] =
        "................................................"
        "................";
    const size_t bound = rec->game->info->state_pad;
    struct rpl__buf pub;
    size_t pub_dlen = 0, target, cur;
    enum rpl_status rc;

    if (bound == 0 || b->failed)
        return RPL_OK;
    rpl__buf_init(&pub, rec->ctx);
    rc = state_text(rec, RPL_VIEW_PUBLIC, &pub, &pub_dlen, err);
    if (rc != RPL_OK || pub.failed) {
        b->failed = pub.failed;
        rpl__buf_release(&pub);
        return rc;
    }
    /* Both texts still lack their closing brace. */
    target = pub.len + 1 - pub_dlen + dlen + bound;
    cur = b->len + 1 + sizeof(key) - 1;
    rpl__buf_release(&pub);
    while (target < cur)
        target += bound;
    rpl__buf_puts(b, ",\"pad\":\"");
    for (size_t n = target - cur; n > 0;) {
        const size_t k = n < sizeof(dots) - 1 ? n : sizeof(dots) - 1;

        rpl__buf_add(b, dots, k);
        n -= k;
    }
    rpl__buf_puts(b, "\"");
    return RPL_OK;
}

enum rpl_status
rpl_rec_state_json(const struct rpl_recorder *rec, int viewer, char **json,
                   struct rpl_error *err)
{
    struct rpl__buf b;
    size_t dlen = 0;

    rpl__err_clear(err);
    *json = NULL;
    if (viewer != RPL_VIEW_PUBLIC && viewer != RPL_VIEW_ALL &&
        (viewer < 1 || (size_t)viewer > rec->seats))
        return rpl__err(err, RPL_E_ARG, 0, "no seat p%d in this game (%zu)",
                        viewer, rec->seats);
    if (!rec->game->live->state_json)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "the game %s has no state for live play",
                        rec->game->name);
    enum rpl_status rc;

    rpl__buf_init(&b, rec->ctx);
    rc = state_text(rec, viewer, &b, &dlen, err);
    if (rc == RPL_OK && viewer > 0)
        rc = pad_seat(rec, &b, dlen, err);
    rpl__buf_puts(&b, "}");
    if (rc != RPL_OK || b.failed) {
        if (b.p)
            sodium_memzero(b.p, b.cap);
        if (rc != RPL_OK) {
            rpl__buf_release(&b);
            return rc;
        }
    }
    return rpl__buf_take(&b, json, err);
}
