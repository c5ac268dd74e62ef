/*
 * live.c - Shadows over Camelot in a live game (camelog host): the
 * members screen, step_seats and state_json of struct rpl__game
 * (games/game.h).
 *
 * Every step of the game is one seat's (the need of the state names it,
 * publicly): step_seats is always 0.
 *
 * screen() judges a seat's submission in two passes over a copy of the
 * state.  The public pass validates the line on the public half alone
 * (the copy forgets the hidden half, as a verifier before the reveal
 * does): a refusal there is `illegal`, with the validation's own text
 * unless that text names a card of the action (a hand card the seat did
 * not get to show), which is replaced by one sentence per keyword.  The
 * knowing pass applies the line, with its real commitment and secret
 * choice, to the copy: whatever it refuses depends on a hand, a deck or
 * a loyalty card, and is `not-allowed` with a generic text.  The
 * refusal paths of the engine (rules.c action() and apply(), validate.c,
 * effects.c) and their outcome here, in order:
 *
 *   no rules line, before start      not-started
 *   after end                        over
 *   seat not in the game             on-behalf
 *   longer than a line               limit
 *   not a seat action (syntax, unknown keyword, a dealer's line, a bad
 *   private value)                   malformed
 *   the action names another seat    on-behalf
 *   the dealer writes next           not-your-turn
 *   another seat's step              not-your-turn (names that seat)
 *   keyword not of this step         phase
 *   every check of validate.c on the public half (places, quests, turn
 *   actions, counts, hand sizes, cards still unplayed, Vivien, the dark
 *   forest, accusations, shares...)  illegal
 *   a state limit (SOC_MAX_*)        limit
 *   the hand does not hold the card(s), an exchange's or a gift's value,
 *   an order not of the cards looked at, three Merlins the seats do not
 *   hold, anything else the hidden half refuses
 *                                    not-allowed
 *
 * state_json() writes one object, keys in this order (camelog-soc(7)):
 * game, players, phase ("rules", "ready", "play", "over"), act ("none",
 * "dealer" or "seat"), seats (the seat to act, or []), next (the form
 * of the line the state waits for), actions (the viewer's legal actions
 * in private form, at most SOC_LIVE_ACTIONS of them; three Merlins'
 * cancel as the form "cancel pK merlin pA,pB,pC", as it depends on
 * other hands), more (legal actions left out of actions), board (the
 * view of view_json for the same viewer: board, life points, hand
 * sizes, swords, siege engines, decks and what the viewer knows),
 * winner and reason ("" until the end).
 *
 * After players.c in the module's order (soc.h); only module.c uses it.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "soc.h"

#define SOC_LIVE_ACTIONS 64 /* concrete actions listed in state_json */

static enum rpl_status
refuse(struct rpl_refusal *why, enum rpl_status rc, const char *code,
       const char *text)
{
    if (why) {
        snprintf(why->code, sizeof(why->code), "%s", code);
        snprintf(why->text, sizeof(why->text), "%s", text);
    }
    return rc;
}

/* Whether text names a card the command carries (or its secret value). */
static bool
names_a_card(const char *text, const struct soc_cmd *cmd, const uint8_t *v,
             unsigned nv)
{
    unsigned c[SOC_MAX_LIST + 6];
    unsigned n = 0;

    c[n++] = cmd->card;
    for (unsigned i = 0; i < cmd->ncards && i < SOC_MAX_LIST; i++)
        c[n++] = cmd->cards[i];
    for (unsigned i = 0; i < nv && i < 5; i++)
        c[n++] = v[i];
    for (unsigned i = 0; i < n; i++)
        if (c[i] < SOC_NCARDS && strstr(text, rpl__soc_card[c[i]].tok))
            return true;
    return false;
}

/* The text of a public refusal whose own text would name a card. */
static const char *
generic_illegal(unsigned kw)
{
    switch (kw) {
    case SOC_K_PLAY:
        return "that card cannot be played here now";
    case SOC_K_SPECIAL:
        return "that special card cannot be played now";
    case SOC_K_HEAL:
        return "that heal is against the rules";
    case SOC_K_SIEGE:
        return "that siege fight is against the rules";
    case SOC_K_DISCARD:
        return "that discard is against the rules";
    default:
        return "that action is against the rules now";
    }
}

/* The line of an emitted action with a commitment of zeros in place of
 * its real one (the public pass never checks it). */
static bool
split_emit(const struct rpl__emit *e, const uint8_t *commit, char *line,
           size_t cap, struct rpl__line *ln)
{
    size_t len = strlen(e->line);

    if (len + 2 + 64 >= cap)
        return false;
    memcpy(line, e->line, len + 1);
    if (e->label[0]) {
        line[len++] = ' ';
        if (commit)
            rpl__hex(line + len, commit, 32);
        else
            memset(line + len, '0', 64);
        len += 64;
        line[len] = '\0';
    }
    return rpl__line_split(ln, line, len, 0, NULL) == RPL_OK;
}

/* The knowing pass: the action applied to a copy of the state, its
 * secret choice learned and its commitment the real one. */
static enum rpl_status
knowing_pass(struct soc_state *cp, const struct rpl__env *env,
             const struct rpl__emit *e, struct rpl_error *err)
{
    struct rpl__env quiet = *env;
    char line[sizeof(e->line) + 2 + 64];
    struct rpl__line ln;
    uint8_t commit[32];
    enum rpl_status rc = RPL_OK;

    quiet.commitments = NULL;
    if (e->label[0]) {
        rpl__commit(commit, NULL, env->seed, env->id, e->label, e->value,
                    env->version);
        rc = rpl__soc_learn(cp, e->label, e->value, err);
    }
    if (rc == RPL_OK &&
        !split_emit(e, e->label[0] ? commit : NULL, line, sizeof(line), &ln))
        rc = rpl__err(err, RPL_E_SYNTAX, 0, "not a line");
    if (rc == RPL_OK)
        rc = rpl__soc_apply(cp, &ln, &quiet, NULL, err);
    sodium_memzero(commit, sizeof(commit));
    return rc;
}

/* The form of the action the seat to act must send, for a refusal: the
 * line's form, except that a secret choice is sent with its value where
 * the line has the commitment (camelog-soc(7), Actions). */
static void
seat_form(const struct soc_state *s, char *out, size_t cap)
{
    const struct soc_need *nd = &s->p.need;

    if (nd->kind == SOC_N_SWAP_BACK)
        snprintf(out, cap, "swap p%u <card>", nd->seat);
    else if (nd->kind == SOC_N_ORDER)
        snprintf(out, cap, "order p%u <cards, top first>", nd->seat);
    else
        rpl__soc_expected_form(s, out, cap);
}

enum rpl_status
rpl__soc_screen(const void *st, const struct rpl__env *env, size_t seat,
                const char *action, struct rpl_refusal *why)
{
    const struct soc_state *s = st;
    const struct soc_pub *p = &s->p;
    const struct soc_need *nd = &p->need;
    char line[sizeof(((struct rpl__emit *)0)->line) + 2 + 64];
    char text[RPL_ERRMSG_MAX];
    struct soc_state *cp = NULL;
    struct rpl_error err;
    struct rpl__emit e;
    struct rpl__line ln;
    struct soc_cmd cmd;
    uint8_t v[5];
    unsigned nv = 0, kind, idx, who;
    enum rpl_status rc;

    memset(&err, 0, sizeof(err));
    if (p->phase == SOC_PH_RULES || p->phase == SOC_PH_READY)
        return refuse(why, RPL_E_STATE, "not-started",
                      "the game has not started");
    if (p->phase == SOC_PH_OVER)
        return refuse(why, RPL_E_STATE, "over", "the game is over");
    if (seat < 1 || seat > p->n) {
        snprintf(text, sizeof(text), "no seat p%zu in this game", seat);
        return refuse(why, RPL_E_ARG, "on-behalf", text);
    }
    if (strlen(action) >= sizeof(e.line)) {
        snprintf(text, sizeof(text), "an action is at most %zu bytes",
                 sizeof(e.line) - 1);
        return refuse(why, RPL_E_LIMIT, "limit", text);
    }
    if (rpl__soc_parse_action(p, action, &e, NULL) != RPL_OK ||
        !split_emit(&e, NULL, line, sizeof(line), &ln) ||
        rpl__soc_parse(p, &ln, &cmd, NULL) != RPL_OK ||
        soc_is_dealer_kw(cmd.kw)) {
        snprintf(text, sizeof(text),
                 "expected a seat action of camelog-soc(7), such as "
                 "\"evil p%zu black\"",
                 seat);
        return refuse(why, RPL_E_SYNTAX, "malformed", text);
    }
    if (cmd.seat != seat) {
        snprintf(text, sizeof(text), "p%zu cannot act for p%u", seat, cmd.seat);
        return refuse(why, RPL_E_RULES, "on-behalf", text);
    }
    if (soc_is_dealer_need(nd->kind) || !nd->seat)
        return refuse(why, RPL_E_RULES, "not-your-turn",
                      "the dealer writes next");
    if (nd->seat != seat) {
        snprintf(text, sizeof(text), "p%zu is not to act (p%u is)", seat,
                 nd->seat);
        return refuse(why, RPL_E_RULES, "not-your-turn", text);
    }
    if (!rpl__soc_fits(s, &cmd)) {
        char form[96];

        seat_form(s, form, sizeof(form));
        snprintf(text, sizeof(text),
                 "not an action of this step: expected \"%s\"", form);
        return refuse(why, RPL_E_RULES, "phase", text);
    }
    if (e.label[0] &&
        rpl__soc_parse_choice_label(s, e.label, &kind, &idx, &who))
        (void)rpl__soc_parse_choice_value(kind, e.value, strlen(e.value), v,
                                          &nv);

    cp = env && env->ctx ? rpl__calloc(env->ctx, 1, sizeof(*cp)) : NULL;
    if (!cp)
        return refuse(why, RPL_E_NOMEM, "limit", "out of memory");
    /* The public pass: the public half alone. */
    memcpy(&cp->p, p, sizeof(cp->p));
    cp->p.knows = 0;
    rc = rpl__soc_validate(cp, &cmd, NULL, 0, &err);
    if (rc == RPL_E_LIMIT) {
        refuse(why, rc, "limit", "a limit of the game state is reached");
        goto out;
    }
    if (rc != RPL_OK) {
        refuse(why, RPL_E_RULES, "illegal",
               names_a_card(err.msg, &cmd, v, nv) ? generic_illegal(cmd.kw)
                                                  : err.msg);
        goto out;
    }
    /* The knowing pass, when the state knows the deal. */
    if (p->knows && env->seed) {
        memcpy(cp, s, sizeof(*cp));
        rc = knowing_pass(cp, env, &e, &err);
        if (rc == RPL_E_LIMIT)
            refuse(why, rc, "limit", "a limit of the game state is reached");
        else if (rc != RPL_OK) {
            snprintf(text, sizeof(text), "p%zu: this action is not allowed",
                     seat);
            refuse(why, RPL_E_RULES, "not-allowed", text);
        }
    }
out:
    sodium_memzero(cp, sizeof(*cp));
    rpl__free(env->ctx, cp);
    sodium_memzero(&e, sizeof(e));
    sodium_memzero(v, sizeof(v));
    return rc == RPL_OK ? RPL_OK : (rc == RPL_E_LIMIT ? rc : RPL_E_RULES);
}

uint64_t
rpl__soc_step_seats(const void *st)
{
    (void)st;
    return 0;
}

/* ------------------------------------------------------------ state */

static void
put_action(struct rpl__buf *out, bool *first, const char *text)
{
    rpl__buf_printf(out, "%s\"%s\"", *first ? "" : ",", text);
    *first = false;
}

void
rpl__soc_state_json(const void *st, const struct rpl__env *env, int viewer,
                    struct rpl__buf *out)
{
    static const char *const phase[] = {"rules", "ready", "play", "over"};
    const struct soc_state *s = st;
    const struct soc_pub *p = &s->p;
    const struct soc_need *nd = &p->need;
    const bool is_seat =
        p->phase == SOC_PH_PLAY && !soc_is_dealer_need(nd->kind) && nd->seat;
    const char *act = "none";
    char form[96] = "";
    size_t more = 0;
    bool first = true;

    if (p->phase == SOC_PH_PLAY || p->phase == SOC_PH_READY)
        act = is_seat ? "seat" : "dealer";
    if (p->phase == SOC_PH_PLAY || p->phase == SOC_PH_READY)
        rpl__soc_expected_form(s, form, sizeof(form));
    rpl__buf_printf(out, "{\"game\":\"soc\",\"players\":%u,\"phase\":\"%s\"",
                    p->n, phase[p->phase <= SOC_PH_OVER ? p->phase : 0]);
    rpl__buf_printf(out, ",\"act\":\"%s\",\"seats\":[", act);
    if (is_seat)
        rpl__buf_printf(out, "%u", nd->seat);
    rpl__buf_puts(out, "],\"next\":");
    rpl__buf_quote(out, form);
    rpl__buf_puts(out, ",\"actions\":[");
    if (is_seat && p->knows &&
        (viewer == RPL_VIEW_ALL || viewer == (int)nd->seat) && env &&
        env->ctx) {
        struct soc_cmd *list =
            rpl__calloc(env->ctx, SOC_LIVE_ACTIONS, sizeof(*list));
        size_t total = 0, n = 0;

        if (list)
            n = rpl__soc_legal(s, list, SOC_LIVE_ACTIONS, &total);
        else
            out->failed = true;
        for (size_t i = 0; i < n; i++) {
            char text[256];

            /* Three Merlins depend on the other seats' hands (own=off;
             * own=on, on the offers every seat has seen). */
            if (list[i].kw == SOC_K_CANCEL && list[i].opt == SOC_O_MERLIN &&
                viewer != RPL_VIEW_ALL && !p->own) {
                continue;
            }
            rpl__soc_private_form(s, &list[i], text, sizeof(text));
            put_action(out, &first, text);
        }
        if (nd->kind == SOC_N_CANCEL && nd->a && viewer != RPL_VIEW_ALL &&
            !p->own) {
            char text[64];

            snprintf(text, sizeof(text), "cancel p%u merlin pA,pB,pC",
                     nd->seat);
            put_action(out, &first, text);
        }
        /* the count of three Merlins' cancels would tell hands too */
        if (total > n && !(nd->kind == SOC_N_CANCEL && nd->a &&
                           viewer != RPL_VIEW_ALL && !p->own))
            more = total - n;
        if (list) {
            sodium_memzero(list, SOC_LIVE_ACTIONS * sizeof(*list));
            rpl__free(env->ctx, list);
        }
    }
    rpl__buf_printf(out, "],\"more\":%zu,\"board\":", more);
    rpl__soc_view_json(st, env, viewer, out);
    rpl__buf_printf(
        out, ",\"winner\":\"%s\",\"reason\":\"%s\"}",
        p->phase == SOC_PH_OVER ? rpl__soc_winner_tok(p->winner) : "",
        p->phase == SOC_PH_OVER ? rpl__soc_reason_tok(p->reason) : "");
}
