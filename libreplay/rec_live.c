/*
 * rec_live.c - live games in the recorder: seats submit their own
 * actions and sign their own lines on their own machines.
 *
 * A submission is judged first on what is public (the seat it names, the
 * public turn, the open simultaneous step), then by the game's screen()
 * and action(), and last by applying it to a scratch copy of the state
 * as if the seats before it in seat order had acted: a refusal whose
 * reason the public may not learn says only "not-allowed".  An accepted
 * submission waits in the queue until its step is complete (the votes on
 * a team, the cards of a quest: games/game.h step_seats()) and, for a
 * seat with a key in the header, until its signature is in; the queue is
 * then written in seat order.  A sign request exists for a queued line
 * once its base is certain: at once for a vote (the group's base), for
 * other lines once the lines before it are known.
 *
 * Each line is made once and applied once a state.  The scratch state
 * judges only ahead: a line that waits (a step's, or one awaiting its
 * signature) is made by judge() into the seat's slot and applied to the
 * scratch state, going on from the seat judged before it, and the flush
 * writes that same line to st and pub when every seat before it was
 * queued when it was judged (judging it again only when one was a
 * stand-in); a line written at once (write_now()) is judged by writing
 * it.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "rec.h"

static void refuse_text(struct rpl_refusal *why, const char *code,
                        const char *fmt, ...) RPL__PRINTF(3, 4);

static void
refuse_text(struct rpl_refusal *why, const char *code, const char *fmt, ...)
{
    va_list ap;

    if (!why)
        return;
    snprintf(why->code, sizeof(why->code), "%s", code);
    va_start(ap, fmt);
    vsnprintf(why->text, sizeof(why->text), fmt, ap);
    va_end(ap);
}

/* A refusal whose public text is also the dealer's detail. */
static enum rpl_status
refuse(struct rpl_recorder *rec, struct rpl_refusal *why, struct rpl_error *err,
       enum rpl_status code, const char *token, const char *text)
{
    refuse_text(why, token, "%s", text);
    return rpl__err(err, code, rec->nlines + 1, "%s", text);
}

static uint64_t
step_mask(const struct rpl_recorder *rec)
{
    return rec->game->live->step_seats ? rec->game->live->step_seats(rec->st)
                                       : 0;
}

static struct rpl__rec_sub *
queued(struct rpl_recorder *rec, size_t seat)
{
    return rec->queue[seat].is_queued ? &rec->queue[seat] : NULL;
}

/* The first seat of the queue, the next written; 0 when it is empty. */
static size_t
queue_front(const struct rpl_recorder *rec)
{
    for (size_t k = 1; rec->nqueue > 0 && k <= rec->seats; k++)
        if (rec->queue[k].is_queued)
            return k;
    return 0;
}

/* Applies line l (rpl__rec_line_make()) to rec->sim: *applied is what
 * the game said, and sm follows the chain. */
static enum rpl_status
sim_apply(struct rpl_recorder *rec, struct rpl__rec_sim *sm,
          struct rpl__rec_line *l, bool is_choice, bool is_real,
          struct rpl__applied *applied, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    l->ln.no = rec->nlines + 1;
    if (is_choice && l->e.label[0])
        rc = rec->game->play->learn(rec->sim, l->e.label, l->e.value, err);
    memset(applied, 0, sizeof(*applied));
    if (rc == RPL_OK)
        rc = rec->game->play->apply(rec->sim, &l->ln, &rec->env, applied, err);
    if (rc != RPL_OK)
        return rc;
    if (applied->opens_group) {
        memcpy(sm->group_base, sm->head, RPL__HASH);
        sm->is_group_known = sm->is_head_known;
    }
    rpl__chain(sm->head, l->text, l->len);
    sm->is_head_known = sm->is_head_known && is_real;
    sm->lines++;
    if (is_choice && applied->author && rec->has_seat_key[applied->author]) {
        /* Its sig line follows; its bytes are known for real lines only. */
        sm->lines++;
        sm->is_head_known = false;
    }
    return RPL_OK;
}

/* Makes the line of e and applies it to rec->sim (sim_apply()). */
static enum rpl_status
sim_emit(struct rpl_recorder *rec, struct rpl__rec_sim *sm,
         const struct rpl__emit *e, bool is_choice, bool is_real,
         struct rpl__applied *applied, struct rpl_error *err)
{
    struct rpl__rec_line l;
    enum rpl_status rc = rpl__rec_line_make(rec, e, rec->nlines + 1, &l, err);

    if (rc == RPL_OK)
        rc = sim_apply(rec, sm, &l, is_choice, is_real, applied, err);
    sodium_memzero(&l, sizeof(l));
    return rc;
}

/* The dealer's lines on rec->sim until a seat must act. */
static enum rpl_status
sim_pending(struct rpl_recorder *rec, struct rpl__rec_sim *sm, bool is_real,
            struct rpl_error *err)
{
    struct rpl__emit e;
    struct rpl__applied applied;
    enum rpl_status rc = RPL_OK;

    while (rc == RPL_OK && rec->game->play->pending(rec->sim, &rec->env, &e))
        rc = sim_emit(rec, sm, &e, false, is_real, &applied, err);
    sodium_memzero(&e, sizeof(e));
    return rc;
}

/* Seat j of the open step, before the seat judged, on rec->sim: its
 * queued action (the line judged, when it was judged exact), or a
 * stand-in chosen by the game's bot for a seat not in yet; then the
 * dealer's lines after it. */
static enum rpl_status
sim_prior(struct rpl_recorder *rec, struct rpl__rec_sim *sm, size_t j,
          struct rpl_error *err)
{
    struct rpl__rec_sub *p = queued(rec, j);
    struct rpl__applied applied;
    struct rpl__emit e;
    enum rpl_status rc;

    memset(&applied, 0, sizeof(applied));
    if (p && p->is_exact) {
        rc = sim_apply(rec, sm, &p->line, true, true, &applied, err);
    } else {
        if (p) {
            rc = rec->game->live->action(rec->sim, &rec->env, p->action, &e,
                                         err);
        } else {
            struct rpl__stream rng;
            uint8_t key[32];

            memset(key, 0, sizeof(key));
            rpl__stream_init_key(&rng, key);
            rc = rec->game->live->bot(rec->sim, &rec->env, RPL_BOT_RANDOM, &rng,
                                      &e, err);
            rpl__stream_wipe(&rng);
        }
        if (rc == RPL_OK)
            rc = sim_emit(rec, sm, &e, true, p ? true : false, &applied, err);
        sodium_memzero(&e, sizeof(e));
    }
    if (rc == RPL_OK && applied.author != j)
        rc = rpl__err(err, RPL_E_STATE, 0,
                      "the step's lines are not in seat order");
    if (rc == RPL_OK)
        rc = sim_pending(rec, sm, p ? true : false, err);
    return rc;
}

/* What seat's submission would be, judged on rec->sim after the seats
 * before it in the open step (sim_prior()), into rec->queue[seat]: its
 * line, what the game said of it, its sig base and whether that base is
 * certain.  A judgment that still holds is kept, and rec->sim goes on
 * from the seat judged last when every seat before it is queued. */
static enum rpl_status
judge(struct rpl_recorder *rec, size_t seat, const char *action,
      struct rpl_error *err)
{
    struct rpl__rec_sub *q = &rec->queue[seat];
    const uint64_t mask = step_mask(rec);
    uint64_t before = 0;
    struct rpl__rec_sim sm;
    struct rpl__emit e;
    size_t from = 1;
    bool is_exact = true;
    enum rpl_status rc = RPL_OK;

    for (size_t j = 1; j < seat; j++)
        if (rec->queue[j].is_queued)
            before |= (uint64_t)1 << j;
    if (q->is_judged && q->judged_lines == rec->nlines &&
        q->judged_before == before)
        return RPL_OK;
    q->is_judged = false;
    q->is_exact = false;
    if (mask && rec->sim_seat && rec->sim_seat < seat) {
        sm = rec->sim_at;
        from = rec->sim_seat + 1;
        rc = sim_pending(rec, &sm, true, err);
    } else {
        memcpy(rec->sim, rec->st, rec->game->state_size);
        memcpy(sm.head, rec->head, RPL__HASH);
        memcpy(sm.group_base, rec->group_base, RPL__HASH);
        sm.is_head_known = true;
        sm.is_group_known = true;
        sm.lines = 0;
    }
    rec->sim_seat = 0;
    for (size_t j = from; rc == RPL_OK && j < seat; j++) {
        if (!(mask >> j & 1))
            continue;
        rc = sim_prior(rec, &sm, j, err);
        is_exact = is_exact && queued(rec, j);
    }
    if (rc != RPL_OK)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the step of p%zu cannot be judged ahead", seat);
    rc = rec->game->live->action(rec->sim, &rec->env, action, &e, err);
    if (rc == RPL_OK)
        rc = rpl__rec_line_make(rec, &e, rec->nlines + 1, &q->line, err);
    sodium_memzero(&e, sizeof(e));
    if (rc == RPL_OK) {
        const bool was_known = sm.is_head_known;
        uint8_t head[RPL__HASH];

        memcpy(head, sm.head, RPL__HASH);
        q->line_no = rec->nlines + 1 + sm.lines;
        rc = sim_apply(rec, &sm, &q->line, true, true, &q->applied, err);
        if (rc == RPL_OK && q->applied.in_group && !q->applied.opens_group) {
            memcpy(q->base, sm.group_base, RPL__HASH);
            q->is_known = sm.is_group_known;
        } else {
            memcpy(q->base, head, RPL__HASH);
            q->is_known = was_known;
        }
    }
    if (rc != RPL_OK)
        return rc;
    q->is_judged = true;
    q->is_exact = is_exact;
    q->judged_lines = rec->nlines;
    q->judged_before = before;
    if (is_exact && (mask >> seat & 1)) {
        /* The next seat of the step is judged on from here. */
        rec->sim_seat = seat;
        rec->sim_at = sm;
    }
    return RPL_OK;
}

static void
rec_requests(struct rpl_recorder *rec)
{
    rec->nreq = 0;
    if (rec->pre.starting) {
        for (size_t k = 1; k <= rec->seats; k++) {
            struct rpl_sign_request *r = &rec->req[0];

            if (!rec->pre.has_sub_entropy[k])
                continue;
            r->seat = k;
            r->line = rec->nlines + 1;
            rpl__entropy_line(r->text, sizeof(r->text), k,
                              rec->pre.sub_entropy[k]);
            r->label[0] = '\0';
            r->has_nonce = false;
            memset(r->nonce, 0, sizeof(r->nonce));
            memcpy(r->base, rec->head, RPL__HASH);
            rec->nreq = 1;
            break;
        }
        return;
    }
    for (size_t k = 1; k <= rec->seats; k++) {
        const struct rpl__rec_sub *q = queued(rec, k);
        struct rpl_sign_request *r = &rec->req[rec->nreq];

        if (!q || q->has_sig || !rec->has_seat_key[k])
            continue;
        if (judge(rec, k, q->action, NULL) != RPL_OK || !q->is_known)
            continue;
        r->seat = k;
        r->line = q->line_no;
        memcpy(r->text, q->line.text, q->line.len + 1);
        memcpy(r->base, q->base, RPL__HASH);
        snprintf(r->label, sizeof(r->label), "%s", q->line.e.label);
        /* The line commits: the label and its nonce let the seat
         * recompute the commitment of its own choice (camelog(5),
         * "Informed signing"). */
        r->has_nonce = r->label[0] != '\0';
        memcpy(r->nonce, q->line.nonce, sizeof(r->nonce));
        rec->nreq++;
    }
}

/* Whether every seat of the open step is in the queue. */
static bool
is_step_complete(struct rpl_recorder *rec)
{
    const uint64_t mask = step_mask(rec);

    if (mask == 0)
        return true;
    for (size_t k = 1; k <= rec->seats; k++)
        if ((mask >> k & 1) && !queued(rec, k))
            return false;
    return true;
}

static enum rpl_status
rec_flush(struct rpl_recorder *rec, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    /* Once every seat of the step is in, its actions are written in seat
     * order until the queue is empty, each waiting for its signature: the
     * step no longer looks complete once its first action is written. */
    if (rec->nqueue > 0 && step_mask(rec) && is_step_complete(rec))
        rec->is_flushing = true;
    while (rc == RPL_OK && rec->nqueue > 0 &&
           (rec->is_flushing || step_mask(rec) == 0)) {
        const size_t k = queue_front(rec);
        struct rpl__rec_sub *q = &rec->queue[k];

        if (rec->has_seat_key[k] && !q->has_sig)
            break;
        /* Every seat before it is written: a judgment of it made with
         * every seat before it queued still holds (the line written is
         * the line judged); one made with stand-ins is made again. */
        if (!q->is_exact)
            rc = judge(rec, k, q->action, err);
        if (rc == RPL_OK)
            rc = rpl__rec_write_line(rec, &q->line, true, &q->applied, NULL,
                                     q->has_sig ? q->sig : NULL, NULL, err);
        if (rc == RPL_E_SIG) {
            /* The base moved (the line changed nothing): ask again. */
            q->has_sig = false;
            rc = RPL_OK;
            break;
        }
        if (rc != RPL_OK)
            break;
        rpl__rec_sub_drop(q);
        rec->nqueue--;
        rc = rpl__rec_drain(rec, err);
    }
    if (rec->nqueue == 0)
        rec->is_flushing = false;
    rec_requests(rec);
    return rc;
}

/* A submission that no seat comes before and no signature waits for (the
 * turn of a seat without a key): the game judges its line as it writes
 * it to st, a refused one taken back with the call (rec.c, "One undo"),
 * never on the scratch state first. */
static enum rpl_status
write_now(struct rpl_recorder *rec, size_t seat, const char *action,
          struct rpl_refusal *why, struct rpl_error *err)
{
    const size_t no = rec->nlines + 1;
    struct rpl__rec_line l;
    struct rpl__applied applied;
    struct rpl__emit e;
    enum rpl_status rc =
        rec->game->live->action(rec->st, &rec->env, action, &e, err);

    if (rc == RPL_OK)
        rc = rpl__rec_line_make(rec, &e, no, &l, err);
    sodium_memzero(&e, sizeof(e));
    if (rc == RPL_OK)
        rc = rpl__rec_line_apply(rec, &l, true, &applied, err);
    if (rc == RPL_OK && applied.author != seat && applied.author != 0)
        rc = rpl__err(err, RPL_E_RULES, no, "the line's author is p%zu",
                      applied.author);
    if (rc == RPL_OK) {
        rc = rpl__rec_line_append(rec, &l, &applied, NULL, NULL, false, NULL,
                                  err);
    } else {
        if (err)
            err->line = no;
        refuse_text(why, "not-allowed", "the action is not allowed now");
    }
    sodium_memzero(&l, sizeof(l));
    if (rc == RPL_OK)
        rc = rpl__rec_drain(rec, err);
    rec_requests(rec);
    return rc;
}

/* The refusals every submission gets before the game judges it. */
static enum rpl_status
need_live(struct rpl_recorder *rec, struct rpl_refusal *why,
          struct rpl_error *err)
{
    if (rec->is_broken)
        return refuse(rec, why, err, RPL_E_IO, "io",
                      "the journal could not be repaired after a write "
                      "failure");
    if (!rec->started)
        return refuse(rec, why, err, RPL_E_STATE, "not-started",
                      rec->pre.starting ? "the game is starting: entropy "
                                          "signatures are awaited"
                                        : "the game has not started");
    if (rec->game->play->is_over(rec->st))
        return refuse(rec, why, err, RPL_E_STATE, "over", "the game is over");
    return RPL_OK;
}

static void
add_queue(struct rpl_recorder *rec, size_t seat, const char *action,
          const uint8_t *sig)
{
    struct rpl__rec_sub *q = &rec->queue[seat];

    q->is_queued = true;
    snprintf(q->action, sizeof(q->action), "%s", action);
    q->has_sig = sig ? true : false;
    if (sig)
        memcpy(q->sig, sig, 64);
    rec->nqueue++;
}

enum rpl_status
rpl__rec_submit(struct rpl_recorder *rec, size_t seat, const char *action,
                const uint8_t *sig, struct rpl_refusal *why,
                struct rpl_error *err)
{
    struct rpl__rec_sub *q = &rec->queue[seat];
    struct rpl__line ln;
    const size_t len = strlen(action);
    size_t named = 0;
    uint64_t mask;
    size_t pub_turn;
    enum rpl_status rc;

    rc = need_live(rec, why, err);
    if (rc != RPL_OK)
        return rc;
    if (seat == 0 || seat > rec->seats)
        return refuse(rec, why, err, RPL_E_ARG, "malformed", "no such seat");
    /* Every action of both notations names its author second. */
    if (len == 0 || len > RPL_MAX_LINE - 2 * RPL__HASH - 1 ||
        rpl__line_split(&ln, action, len, 0, NULL) != RPL_OK || ln.ntok < 2 ||
        !rpl__tok_seat(&ln.tok[1], rec->seats, &named))
        return refuse(rec, why, err, RPL_E_SYNTAX, "malformed",
                      "not an action of this game");
    if (named != seat)
        return refuse(rec, why, err, RPL_E_ARG, "on-behalf",
                      "an action may only name the seat that submits it");
    mask = step_mask(rec);
    pub_turn = rec->game->play->turn(rec->pub);
    if (mask) {
        if (q->is_queued)
            return refuse(rec, why, err, RPL_E_STATE, "duplicate",
                          "this seat has already acted in this step");
        if (!(mask >> seat & 1))
            return refuse(rec, why, err, RPL_E_STATE, "not-your-turn",
                          "this seat has no part in this step");
    } else if (rec->nqueue > 0) {
        if (queue_front(rec) == seat)
            return refuse(rec, why, err, RPL_E_STATE, "pending",
                          "this seat's signature is awaited first");
        return refuse(rec, why, err, RPL_E_STATE, "not-your-turn",
                      "it is not this seat's turn");
    } else if (pub_turn != 0 && pub_turn != seat) {
        return refuse(rec, why, err, RPL_E_STATE, "not-your-turn",
                      "it is not this seat's turn");
    }
    if (rec->game->live->screen) {
        struct rpl_refusal mine;
        struct rpl_refusal *w = why ? why : &mine;

        memset(w, 0, sizeof(*w));
        rc = rec->game->live->screen(rec->st, &rec->env, seat, action, w);
        if (rc != RPL_OK) {
            if (!w->code[0])
                refuse_text(w, "not-allowed", "the action is not allowed");
            return rpl__err(err, rc, rec->nlines + 1, "%s: %s", w->code,
                            w->text);
        }
    }
    /* A turn only a secret names (pub_turn 0) is judged by the game. */
    if (!mask && rec->game->play->turn(rec->st) != seat)
        rc = rpl__err(err, RPL_E_STATE, rec->nlines + 1,
                      "p%zu is not the seat to act (p%zu is)", seat,
                      rec->game->play->turn(rec->st));
    if (rc == RPL_OK && !mask && !sig && !rec->has_seat_key[seat])
        return write_now(rec, seat, action, why, err);
    if (rc == RPL_OK) {
        q->is_judged = false;
        rc = judge(rec, seat, action, err);
    }
    if (rc == RPL_OK && q->applied.author != seat && q->applied.author != 0)
        rc = rpl__err(err, RPL_E_RULES, rec->nlines + 1,
                      "the line's author is p%zu", q->applied.author);
    if (rc != RPL_OK) {
        if (err)
            err->line = rec->nlines + 1;
        refuse_text(why, "not-allowed", "the action is not allowed now");
        return rc;
    }
    if (sig) {
        if (!rec->has_seat_key[seat])
            return refuse(rec, why, err, RPL_E_SIG, "signature",
                          "this seat has no key: its lines go unsigned");
        if (!q->is_known)
            return refuse(rec, why, err, RPL_E_SIG, "signature",
                          "the line's base is not known yet: sign its "
                          "request");
        if (!rpl__sig_verify(&rec->seat_key[seat], q->base, q->line.text,
                             q->line.len, sig))
            return refuse(rec, why, err, RPL_E_SIG, "signature",
                          "the signature does not verify");
    }
    add_queue(rec, seat, action, sig);
    return rec_flush(rec, err);
}

/* Writes the submitted entropy in seat order while it is signed where
 * keyed; the last line starts the game. */
static enum rpl_status
entropy_step(struct rpl_recorder *rec, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    for (size_t k = 1; rc == RPL_OK && k <= rec->seats; k++) {
        if (!rec->pre.has_sub_entropy[k])
            continue;
        if (rec->has_seat_key[k] && !rec->pre.has_ent_sig[k])
            break;
        rc = rpl__rec_entropy_line(
            rec, k, rec->pre.sub_entropy[k], NULL,
            rec->pre.has_ent_sig[k] ? rec->pre.ent_sig[k] : NULL, NULL, err);
        if (rc == RPL_E_SIG) {
            rec->pre.has_ent_sig[k] = false;
            rc = RPL_OK;
            break;
        }
        if (rc == RPL_OK) {
            rec->pre.has_sub_entropy[k] = false;
            rec->pre.has_ent_sig[k] = false;
            sodium_memzero(rec->pre.sub_entropy[k], 32);
        }
    }
    if (rc == RPL_OK) {
        bool is_left = false;

        for (size_t k = 1; k <= rec->seats; k++)
            is_left = is_left || rec->pre.has_sub_entropy[k];
        if (!is_left) {
            rec->pre.starting = false;
            rc = rpl__rec_begin_play(rec, err);
        }
    }
    rec_requests(rec);
    return rc;
}

enum rpl_status
rpl__rec_start(struct rpl_recorder *rec, struct rpl_error *err)
{
    if (rec->started || rec->pre.starting)
        return rpl__err(err, RPL_E_STATE, 0, "the game has already started");
    if (RPL_FORMAT_VERSION >= 2) {
        const uint32_t missing = rec->pre.pledged & ~rec->pre.revealed;

        if (rec->pre.abandoned)
            return rpl__err(err, RPL_E_STATE, 0, "the game was abandoned");
        if (rec->pre.pledged && !rec->pre.is_pledged)
            return rpl__err(err, RPL_E_STATE, 0,
                            "the pledges are not closed: the pledged line "
                            "comes first");
        for (size_t k = 1; k <= rec->seats; k++)
            if (missing & (1u << (k - 1)))
                return rpl__err(err, RPL_E_STATE, 0,
                                "p%zu has not revealed its entropy: wait "
                                "for it, or abandon the game",
                                k);
        return rpl__rec_begin_play(rec, err);
    }
    rec->pre.starting = true;
    return entropy_step(rec, err);
}

enum rpl_status
rpl__rec_submit_entropy(struct rpl_recorder *rec, size_t seat,
                        const uint8_t entropy[32], const uint8_t *sig,
                        struct rpl_refusal *why, struct rpl_error *err)
{
    if (rec->is_broken)
        return refuse(rec, why, err, RPL_E_IO, "io",
                      "the journal could not be repaired after a write "
                      "failure");
    if (rec->started || rec->pre.starting)
        return refuse(rec, why, err, RPL_E_STATE, "phase",
                      "entropy is taken before the start only");
    if (seat == 0 || seat > rec->seats)
        return refuse(rec, why, err, RPL_E_ARG, "malformed", "no such seat");
    if (RPL_FORMAT_VERSION >= 2) {
        /* Written at once, in any order: each is checked against its
         * pledge and signed against the sealed start. */
        const enum rpl_status rc =
            rpl__rec_entropy_line(rec, seat, entropy, NULL, sig, NULL, err);

        if (rc != RPL_OK) {
            const char *code = rc == RPL_E_SIG        ? "signature"
                               : rc == RPL_E_FAIRNESS ? "mismatch"
                                                      : "phase";

            refuse_text(why, code, "%s", err->msg);
        }
        return rc;
    }
    if (rec->pre.has_sub_entropy[seat] || seat <= rec->pre.entropy_seat)
        return refuse(rec, why, err, RPL_E_STATE, "duplicate",
                      "this seat has already given its entropy");
    if (sig) {
        char line[RPL_ENTROPY_LINE_MAX];
        uint8_t head[RPL__HASH];
        size_t n;

        if (!rec->has_seat_key[seat])
            return refuse(rec, why, err, RPL_E_SIG, "signature",
                          "this seat has no key: its lines go unsigned");
        /* The base if the game started now: the lines of the seats
         * before it that gave theirs. */
        memcpy(head, rec->head, RPL__HASH);
        for (size_t k = 1; k < seat; k++) {
            if (!rec->pre.has_sub_entropy[k])
                continue;
            n = rpl__entropy_line(line, sizeof(line), k,
                                  rec->pre.sub_entropy[k]);
            rpl__chain(head, line, n);
            if (rec->pre.has_ent_sig[k]) {
                char sl[RPL_SIG_LINE_MAX];

                n = rpl__sig_line(sl, sizeof(sl), k, rec->pre.ent_sig[k]);
                rpl__chain(head, sl, n);
            }
        }
        n = rpl__entropy_line(line, sizeof(line), seat, entropy);
        if (!rpl__sig_verify(&rec->seat_key[seat], head, line, n, sig))
            return refuse(rec, why, err, RPL_E_SIG, "signature",
                          "the signature does not verify");
    }
    rec->pre.has_sub_entropy[seat] = true;
    memcpy(rec->pre.sub_entropy[seat], entropy, 32);
    rec->pre.has_ent_sig[seat] = sig ? true : false;
    if (sig)
        memcpy(rec->pre.ent_sig[seat], sig, 64);
    return RPL_OK;
}

enum rpl_status
rpl__rec_sign(struct rpl_recorder *rec, size_t seat, const uint8_t sig[64],
              struct rpl_refusal *why, struct rpl_error *err)
{
    const struct rpl_sign_request *r = NULL;

    if (rec->is_broken)
        return refuse(rec, why, err, RPL_E_IO, "io",
                      "the journal could not be repaired after a write "
                      "failure");
    for (size_t i = 0; i < rec->nreq; i++)
        if (rec->req[i].seat == seat)
            r = &rec->req[i];
    if (!r)
        return refuse(rec, why, err, RPL_E_SIG, "signature",
                      "no signature is awaited from this seat");
    if (!rpl__sig_verify(&rec->seat_key[seat], r->base, r->text,
                         strlen(r->text), sig))
        return refuse(rec, why, err, RPL_E_SIG, "signature",
                      "the signature does not verify");
    if (rec->pre.starting) {
        rec->pre.has_ent_sig[seat] = true;
        memcpy(rec->pre.ent_sig[seat], sig, 64);
        return entropy_step(rec, err);
    }
    if (rec->queue[seat].is_queued) {
        rec->queue[seat].has_sig = true;
        memcpy(rec->queue[seat].sig, sig, 64);
    }
    return rec_flush(rec, err);
}

size_t
rpl_rec_sign_requests(const struct rpl_recorder *rec)
{
    return rec->nreq;
}

enum rpl_status
rpl_rec_sign_request(const struct rpl_recorder *rec, size_t i,
                     struct rpl_sign_request *out, struct rpl_error *err)
{
    rpl__err_clear(err);
    if (i >= rec->nreq)
        return rpl__err(err, RPL_E_ARG, 0, "no sign request %zu (%zu open)", i,
                        rec->nreq);
    *out = rec->req[i];
    return RPL_OK;
}

bool
rpl_rec_seal_due(const struct rpl_recorder *rec)
{
    return rec->started && !rec->pre.starting && !rec->is_closed &&
           rec->nqueue == 0 && rec->nreq == 0 && !rec->last_is_seal;
}
