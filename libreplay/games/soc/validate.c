/*
 * validate.c - what the next line of a Shadows over Camelot game may be
 * (rules/shadows-over-camelot.md): whether a line is the kind the state
 * waits for, and whether everything it says is allowed now.
 *
 * The state waits for one kind of line at a time (struct soc_need).  A
 * line is validated against the state before it is applied: the
 * validation changes nothing, so it also serves the seeded players,
 * which try every candidate move with it.
 *
 * What the next line is depends only on public information and on the
 * lines themselves, never on a secret: a verifier without the seed and
 * the dealer with it expect the same kinds of lines.  Secrets enter as
 * the content of dealer lines (which card was drawn, who is the traitor),
 * which a knowing state checks at once and a public state keeps as a
 * claim for the reveal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "soc.h"

/* --------------------------------------------------------- validation */

static enum rpl_status bad(struct rpl_error *err, size_t line, const char *fmt,
                           ...) RPL__PRINTF(3, 4);

static enum rpl_status
bad(struct rpl_error *err, size_t line, const char *fmt, ...)
{
    char msg[RPL_ERRMSG_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return rpl__err(err, RPL_E_RULES, line, "%s", msg);
}

/* Which keywords each need accepts. */
static bool
kw_fits(unsigned need_kind, unsigned kw)
{
    switch ((enum soc_need_kind)need_kind) {
    case SOC_N_START:
        return kw == SOC_K_START;
    case SOC_N_LOYALTY:
        return kw == SOC_K_LOYALTY;
    case SOC_N_WHITE:
        return kw == SOC_K_WHITE;
    case SOC_N_TOP:
        return kw == SOC_K_TOP;
    case SOC_N_BLACK:
        return kw == SOC_K_BLACK;
    case SOC_N_ROLL:
        return kw == SOC_K_ROLL;
    case SOC_N_TAUNTED:
        return kw == SOC_K_TAUNTED;
    case SOC_N_SHOWS:
        return kw == SOC_K_SHOWS;
    case SOC_N_QUEST:
        return kw == SOC_K_QUEST;
    case SOC_N_DIES:
        return kw == SOC_K_DIES;
    case SOC_N_FLIP:
        return kw == SOC_K_FLIP;
    case SOC_N_END:
        return kw == SOC_K_END;
    case SOC_N_POOL:
        return kw == SOC_K_POOL;
    case SOC_N_ALLOT:
        return kw == SOC_K_ALLOT;
    case SOC_N_EVIL:
        return kw == SOC_K_EVIL || kw == SOC_K_LOOK || kw == SOC_K_SWAP;
    case SOC_N_TAUNT:
        return kw == SOC_K_TAUNT;
    case SOC_N_KEEP:
        return kw == SOC_K_KEEP;
    case SOC_N_CANCEL:
        return kw == SOC_K_PASS || kw == SOC_K_CANCEL;
    case SOC_N_WAR:
        return kw == SOC_K_WAR;
    case SOC_N_VOLUNTEER:
        return kw == SOC_K_VOLUNTEER;
    case SOC_N_DISCARD:
        return kw == SOC_K_DISCARD;
    case SOC_N_HEROIC:
        return kw == SOC_K_MOVE || kw == SOC_K_DRAW || kw == SOC_K_SIEGE ||
               kw == SOC_K_PLAY || kw == SOC_K_SPECIAL || kw == SOC_K_HEAL ||
               kw == SOC_K_ACCUSE || kw == SOC_K_SACRIFICE ||
               kw == SOC_K_SWAP || kw == SOC_K_DONE;
    case SOC_N_SWAP_BACK:
        return kw == SOC_K_SWAP;
    case SOC_N_ORDER:
        return kw == SOC_K_ORDER;
    case SOC_N_KAY:
        return kw == SOC_K_KAY || kw == SOC_K_PASS;
    case SOC_N_SAVE:
        return kw == SOC_K_SAVE || kw == SOC_K_PASS;
    case SOC_N_SHARE:
        return kw == SOC_K_SHARE;
    case SOC_N_MERLINS:
        return kw == SOC_K_MERLINS;
    case SOC_N_REDEAL:
        return kw == SOC_K_REDEAL;
    case SOC_N_OFFER:
        return kw == SOC_K_OFFER;
    case SOC_N_NONE:
        return false;
    }
    return false;
}

static const char *
tok_of(unsigned card)
{
    return card < SOC_NCARDS ? rpl__soc_card[card].tok : "?";
}

static enum rpl_status
need_holds(const struct soc_state *st, unsigned k, unsigned card, unsigned cnt,
           size_t line, struct rpl_error *err)
{
    if (!soc_is_white(card))
        return bad(err, line, "%s is not a white card", tok_of(card));
    if (!rpl__soc_holds(st, k, card, cnt)) {
        if (cnt > 1)
            return bad(err, line, "p%u does not hold %u %s", k, cnt,
                       tok_of(card));
        return bad(err, line, "p%u does not hold %s", k, tok_of(card));
    }
    return RPL_OK;
}

static enum rpl_status
need_list(const struct soc_state *st, unsigned k, const uint8_t *cards,
          unsigned n, size_t line, struct rpl_error *err)
{
    unsigned missing = 0;

    if (!rpl__soc_holds_list(st, k, cards, n, &missing)) {
        if (n > st->p.seat[k].hand_n)
            return bad(err, line, "p%u holds %u white cards, not %u", k,
                       st->p.seat[k].hand_n, n);
        return bad(err, line, "p%u does not hold %s", k, tok_of(missing));
    }
    return RPL_OK;
}

/* The value of a secret choice as its open line spells it. */
static void
choice_value(char *out, size_t cap, const struct soc_choice *ch)
{
    rpl__soc_fmt_cards(out, cap, ch->v, ch->n);
}

/* A knowing state checks a seat's secret choice at once: the value was
 * learned, it matches the line's commitment.  Without env (a seeded
 * player probing a move) the value is the command's card list. */
static enum rpl_status
check_choice(const struct soc_state *st, const struct rpl__env *env,
             unsigned kind, unsigned seat, const struct soc_cmd *cmd,
             size_t line, struct soc_choice *tmp, const struct soc_choice **out,
             struct rpl_error *err)
{
    const unsigned i = st->p.nchoice;
    const struct soc_choice *ch;
    char label[64];
    char value[192];
    uint8_t c[32];

    *out = NULL;
    if (i >= SOC_MAX_CHOICE)
        return rpl__err(err, RPL_E_LIMIT, line,
                        "more than %u secret choices in one game "
                        "(SOC_MAX_CHOICE)",
                        SOC_MAX_CHOICE);
    if (!st->p.knows)
        return RPL_OK;
    if (!env) {
        memset(tmp, 0, sizeof(*tmp));
        tmp->kind = (uint8_t)kind;
        tmp->seat = (uint8_t)seat;
        tmp->n = cmd->ncards < 5 ? cmd->ncards : 5;
        memcpy(tmp->v, cmd->cards, tmp->n);
        tmp->known = 1;
        *out = tmp;
        return RPL_OK;
    }
    ch = &st->ch[i];
    snprintf(label, sizeof(label), "%s %u p%u", rpl__soc_choice_tok[kind],
             i + 1u, seat);
    if (!ch->known || ch->kind != kind || ch->seat != seat)
        return rpl__err(err, RPL_E_STATE, line,
                        "the value of \"%s\" is not known", label);
    if (!env->seed)
        return rpl__err(err, RPL_E_STATE, line,
                        "a knowing state needs the seed");
    choice_value(value, sizeof(value), ch);
    rpl__commit(c, NULL, env->seed, env->id, label, value, env->version);
    if (sodium_memcmp(c, cmd->commit, 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, line,
                        "the commitment does not match %s %s", label, value);
    *out = ch;
    return RPL_OK;
}

/* Whether any action that needs no card is open to the knight
 * (§8 item 20: "done" with no action only when none is). */
static bool
public_action(const struct soc_pub *p, unsigned k)
{
    const unsigned loc = p->seat[k].loc;

    for (unsigned l = 0; l < SOC_NLOC; l++)
        if (l != loc && rpl__soc_loc_open(p, l))
            return true;
    if (loc == SOC_CAMELOT &&
        (p->seat[k].hand_n < SOC_HAND_LIMIT || p->siege > 0))
        return true;
    if (p->traitor_on && !(p->seat[k].flags & SOC_F_ACCUSED) &&
        (p->swords_w + p->swords_b >= SOC_ACCUSE_AT ||
         p->siege >= SOC_ACCUSE_AT))
        for (unsigned t = 1; t <= p->n; t++)
            if (t != k && soc_living(p, t))
                return true;
    return false;
}

static const char *
type_name(unsigned t)
{
    switch (t) {
    case SOC_T_MOVE:
        return "move";
    case SOC_T_QUEST:
        return "quest action";
    case SOC_T_SPECIAL:
        return "special card";
    case SOC_T_HEAL:
        return "heal";
    default:
        return "accusation";
    }
}

static enum rpl_status
validate_swap(const struct soc_state *st, const struct soc_cmd *cmd,
              const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    const struct soc_pub *p = &st->p;
    const unsigned k = cmd->seat, t = cmd->seat2;
    const struct soc_choice *ch = NULL;
    struct soc_choice tmp;
    enum rpl_status rc;

    if (p->seat[k].knight != SOC_ARTHUR)
        return bad(err, line, "only King Arthur exchanges cards");
    if (p->swapped)
        return bad(err, line,
                   "King Arthur has already exchanged a card "
                   "this turn");
    if (!t)
        return bad(err, line, "expected \"swap p%u pT <commitment>\"", k);
    if (t == k || !soc_living(p, t))
        return bad(err, line, "p%u cannot take part in an exchange", t);
    if (!p->seat[k].hand_n || !p->seat[t].hand_n)
        return bad(err, line, "both knights need a white card to exchange");
    rc = check_choice(st, env, SOC_CH_SWAP, k, cmd, line, &tmp, &ch, err);
    if (rc == RPL_OK && ch && (ch->n != 1 || !soc_is_white(ch->v[0])))
        rc = bad(err, line, "an exchange gives one white card");
    if (rc == RPL_OK && ch)
        rc = need_holds(st, k, ch->v[0], 1, line, err);
    return rc;
}

static enum rpl_status
validate_special(const struct soc_state *st, const struct soc_cmd *cmd,
                 const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    const struct soc_pub *p = &st->p;
    const unsigned k = cmd->seat, card = cmd->card;
    const struct soc_choice *ch = NULL;
    struct soc_choice tmp;
    enum rpl_status rc;

    if (!soc_is_white(card) || rpl__soc_card[card].kind != SOC_SPECIAL)
        return bad(err, line, "%s is not a special white card", tok_of(card));
    rc = need_holds(st, k, card, 1, line, err);
    if (rc != RPL_OK)
        return rc;
    switch (card) {
    case SOC_MERLIN:
        if (p->vivien)
            return bad(err, line,
                       "Vivien forbids Merlin cards until a quest "
                       "is won");
        if (!rpl__soc_merlin_target_ok(p, cmd->loc))
            return bad(err, line, "no black card for Merlin to cancel at %s",
                       rpl__soc_quest[cmd->loc].tok);
        return RPL_OK;
    case SOC_CONVOCATION:
        /* own=on: each knight away answers for himself (S-09, S-41). */
        if (p->own != (cmd->opt == SOC_O_ASK))
            return bad(err, line,
                       p->own ? "expected \"special p%u convocation\": each "
                                "knight answers for himself"
                              : "expected \"special p%u convocation "
                                "<seats>|none\"",
                       k);
        for (unsigned i = 0; i < cmd->nseats; i++)
            if (!soc_living(p, cmd->seats[i]) ||
                p->seat[cmd->seats[i]].loc == SOC_CAMELOT)
                return bad(err, line, "p%u is not a knight away from Camelot",
                           cmd->seats[i]);
        return RPL_OK;
    case SOC_HEROISM:
        if (cmd->loc == SOC_CAMELOT || !rpl__soc_loc_active(p, cmd->loc))
            return bad(err, line, "heroism needs a quest in play");
        return RPL_OK;
    case SOC_MESSENGER:
        if (!cmd->seat2 || cmd->seat2 == k || !soc_living(p, cmd->seat2))
            return bad(err, line,
                       "the messenger goes to another living "
                       "knight");
        if (cmd->num < rpl__soc_card[card].p1 ||
            cmd->num > rpl__soc_card[card].p2)
            return bad(err, line, "the messenger carries 1 to 3 cards");
        if (cmd->num + 1u > p->seat[k].hand_n)
            return bad(err, line,
                       "p%u has %u white cards besides the "
                       "messenger",
                       k, p->seat[k].hand_n - 1u);
        rc = check_choice(st, env, SOC_CH_GIVE, k, cmd, line, &tmp, &ch, err);
        if (rc == RPL_OK && ch) {
            uint8_t cnt[SOC_NWT] = {0};

            if (ch->n != cmd->num)
                return bad(err, line,
                           "the value gives %u cards, the line "
                           "%u",
                           ch->n, cmd->num);
            cnt[SOC_MESSENGER] = 1;
            for (unsigned i = 0; i < ch->n; i++) {
                if (!soc_is_white(ch->v[i]))
                    return bad(err, line, "only white cards are given");
                cnt[ch->v[i]]++;
            }
            for (unsigned c = 0; c < SOC_NWT; c++)
                if (cnt[c] && st->h.hand[k][c] < cnt[c])
                    return bad(err, line, "p%u does not hold %s", k, tok_of(c));
        }
        return rc;
    case SOC_PIETY:
    case SOC_REINFORCEMENTS:
        if (cmd->opt != SOC_O_SELF && cmd->opt != SOC_O_OTHERS)
            return bad(err, line, "expected self or others");
        return RPL_OK;
    case SOC_CLAIRVOYANCE:
        if (!rpl__soc_black_avail(p))
            return bad(err, line, "no black card to look at");
        return RPL_OK;
    default:
        return RPL_OK;
    }
}

static enum rpl_status
validate_play(const struct soc_state *st, const struct soc_cmd *cmd,
              size_t line, struct rpl_error *err)
{
    const struct soc_pub *p = &st->p;
    const unsigned k = cmd->seat, q = p->seat[k].loc, card = cmd->card;
    enum rpl_status rc;

    if (q == SOC_CAMELOT || q >= SOC_NLOC || !rpl__soc_loc_active(p, q))
        return bad(err, line, "p%u is not on a quest", k);
    rc = need_holds(st, k, card, 1, line, err);
    if (rc != RPL_OK)
        return rc;
    switch (q) {
    case SOC_BLACK_KNIGHT:
    case SOC_LANCELOT:
    case SOC_DRAGON: {
        const struct soc_combat *cb = rpl__soc_combat_of(p, q);
        uint8_t vals[10];

        if (!soc_is_fight(card))
            return bad(err, line, "%s needs fight cards",
                       rpl__soc_quest[q].tok);
        if (cb->nwhite >= rpl__soc_quest[q].white_spots)
            return bad(err, line, "the knights' side is full");
        memcpy(vals, cb->white, cb->nwhite);
        vals[cb->nwhite] = (uint8_t)card;
        if (!rpl__soc_pattern_ok(q, vals, cb->nwhite + 1u))
            return bad(err, line, "%s breaks the pattern of %s", tok_of(card),
                       rpl__soc_quest[q].tok);
        return RPL_OK;
    }
    case SOC_EXCALIBUR:
        return RPL_OK;
    case SOC_GRAIL:
        if (card != SOC_GRAIL_CARD)
            return bad(err, line, "the grail quest takes grail cards");
        if (p->dark_forest)
            return bad(err, line,
                       "the dark forest forbids grail cards "
                       "until a quest is won");
        return RPL_OK;
    default: {
        const unsigned want = rpl__soc_war_next(&p->war[rpl__soc_war_index(q)]);

        if (!soc_is_fight(card) || soc_fight_value(card) != want)
            return bad(err, line, "the war against %s needs fight_%u next",
                       rpl__soc_quest[q].tok, want);
        return RPL_OK;
    }
    }
}

static enum rpl_status
validate_heroic(const struct soc_state *st, const struct soc_cmd *cmd,
                const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    const struct soc_pub *p = &st->p;
    const unsigned k = cmd->seat;
    const struct soc_seat *s = &p->seat[k];
    const unsigned type = rpl__soc_action_type(cmd->kw);

    if (type) {
        if (p->used & type)
            return bad(err, line, "a second %s in one turn", type_name(type));
        if (!rpl__soc_is_free(p, cmd) && p->paid >= 1u + p->sacrificed)
            return bad(err, line,
                       "no heroic action left (sacrifice a life "
                       "point for one more)");
    }
    switch (cmd->kw) {
    case SOC_K_MOVE:
        if (cmd->loc == s->loc)
            return bad(err, line, "p%u is already at %s", k,
                       rpl__soc_quest[cmd->loc].tok);
        if (!rpl__soc_loc_open(p, cmd->loc))
            return bad(err, line, "%s is closed or taken",
                       rpl__soc_quest[cmd->loc].tok);
        return RPL_OK;
    case SOC_K_DRAW:
        if (s->loc != SOC_CAMELOT)
            return bad(err, line, "white cards are drawn in Camelot");
        if (s->hand_n >= SOC_HAND_LIMIT)
            return bad(err, line, "p%u holds %u cards: no draw at 12 or more",
                       k, s->hand_n);
        return RPL_OK;
    case SOC_K_SIEGE:
        if (s->loc != SOC_CAMELOT)
            return bad(err, line, "siege engines are fought in Camelot");
        if (!p->siege)
            return bad(err, line, "no siege engine to fight");
        for (unsigned i = 0; i < cmd->ncards; i++)
            if (!soc_is_fight(cmd->cards[i]))
                return bad(err, line, "siege fights take fight cards");
        return need_list(st, k, cmd->cards, cmd->ncards, line, err);
    case SOC_K_PLAY:
        return validate_play(st, cmd, line, err);
    case SOC_K_SPECIAL:
        return validate_special(st, cmd, env, line, err);
    case SOC_K_HEAL:
        if (!soc_is_white(cmd->card) ||
            rpl__soc_card[cmd->card].count < SOC_HEAL_SAME)
            return bad(err, line, "healing takes 3 identical white cards");
        if (s->lp >= SOC_LP_MAX)
            return bad(err, line, "p%u has %u life points already", k,
                       SOC_LP_MAX);
        return need_holds(st, k, cmd->card, SOC_HEAL_SAME, line, err);
    case SOC_K_ACCUSE:
        if (!p->traitor_on)
            return bad(err, line, "no accusation without a traitor card");
        if (s->flags & SOC_F_ACCUSED)
            return bad(err, line, "p%u has already accused", k);
        if (p->swords_w + p->swords_b < SOC_ACCUSE_AT &&
            p->siege < SOC_ACCUSE_AT)
            return bad(err, line,
                       "accusations need 6 swords or 6 siege "
                       "engines");
        if (cmd->seat2 == k || !soc_living(p, cmd->seat2))
            return bad(err, line, "p%u cannot be accused", cmd->seat2);
        return RPL_OK;
    case SOC_K_SACRIFICE:
        if (p->paid != 1 || p->sacrificed)
            return bad(err, line,
                       "a life point buys one extra action, "
                       "after the first");
        return RPL_OK;
    case SOC_K_SWAP:
        return validate_swap(st, cmd, env, line, err);
    case SOC_K_DONE:
        if (!p->used && public_action(p, k))
            return bad(err, line, "a heroic action is due");
        return RPL_OK;
    default:
        return bad(err, line, "not a heroic action");
    }
}

/* The black cards a draw of n could give, counted publicly (after the
 * reshuffle that the draw would cause). */
static void
black_counts(const struct soc_pub *p, unsigned n, unsigned *cnt)
{
    for (unsigned c = 0; c < SOC_NBT; c++)
        cnt[c] = p->bpile[c] + (p->bpile_n < n ? p->bdisc[c] : 0u);
}

static enum rpl_status
validate_dealer(const struct soc_state *st, const struct soc_cmd *cmd,
                const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    const struct soc_pub *p = &st->p;
    const struct soc_need *nd = &p->need;
    const uint8_t *seed = env ? env->seed : NULL;

    if (p->knows && !seed)
        return rpl__err(err, RPL_E_STATE, line,
                        "a knowing state needs the seed");
    switch (nd->kind) {
    case SOC_N_START: {
        unsigned seen = 0, arthur = 0;

        if (cmd->ncards != p->n)
            return bad(err, line, "start names %u knights for %u seats",
                       cmd->ncards, p->n);
        for (unsigned k = 1; k <= p->n; k++) {
            const unsigned kn = cmd->cards[k - 1];

            if (seen & soc_bit(kn))
                return bad(err, line, "%s is dealt twice",
                           rpl__soc_knight[kn].tok);
            seen |= soc_bit(kn);
            if (kn == SOC_ARTHUR)
                arthur = k;
        }
        if (arthur && cmd->seat != arthur)
            return bad(err, line, "King Arthur (p%u) plays first, got p%u",
                       arthur, cmd->seat);
        if (p->knows) {
            for (unsigned k = 1; k <= p->n; k++)
                if (cmd->cards[k - 1] != st->h.knight[k])
                    return bad(err, line, "the seed deals %s to p%u, got %s",
                               rpl__soc_knight[st->h.knight[k]].tok, k,
                               rpl__soc_knight[cmd->cards[k - 1]].tok);
            if (cmd->seat != st->h.first)
                return bad(err, line,
                           "the seed gives the first player p%u, "
                           "got p%u",
                           st->h.first, cmd->seat);
        }
        return RPL_OK;
    }
    case SOC_N_LOYALTY:
        if (p->knows) {
            char label[16];
            uint8_t c[32];

            snprintf(label, sizeof(label), "loyalty p%u", nd->seat);
            rpl__commit(c, NULL, seed, env->id, label,
                        tok_of(st->h.loyalty[nd->seat]), env->version);
            if (sodium_memcmp(c, cmd->commit, 32) != 0)
                return rpl__err(err, RPL_E_FAIRNESS, line,
                                "%s does not match its commitment", label);
            if (env->commitments)
                (*env->commitments)++;
        }
        return RPL_OK;
    case SOC_N_WHITE:
    case SOC_N_TOP:
        if (cmd->num != nd->a)
            return bad(err, line, "expected %u cards, got %u", nd->a, cmd->num);
        if (p->ndeliv >= SOC_MAX_DELIV)
            return rpl__err(err, RPL_E_LIMIT, line,
                            "more than %u private deliveries in one game "
                            "(SOC_MAX_DELIV)",
                            SOC_MAX_DELIV);
        return RPL_OK;
    case SOC_N_BLACK: {
        unsigned cnt[SOC_NBT];

        if (cmd->ncards != nd->a)
            return bad(err, line, "p%u draws %u black card%s", nd->seat, nd->a,
                       nd->a == 1 ? "" : "s");
        black_counts(p, nd->a, cnt);
        for (unsigned i = 0; i < cmd->ncards; i++) {
            const unsigned c = cmd->cards[i];

            if (!soc_is_black(c) || !cnt[c - SOC_B0])
                return bad(err, line, "no %s is left in the black deck",
                           tok_of(c));
            cnt[c - SOC_B0]--;
        }
        if (p->knows) {
            uint8_t top[2];

            rpl__soc_peek_black(st, seed, nd->a, top);
            for (unsigned i = 0; i < nd->a; i++)
                if (top[i] != cmd->cards[i])
                    return bad(err, line, "the black deck gives %s, got %s",
                               tok_of(top[i]), tok_of(cmd->cards[i]));
        }
        return RPL_OK;
    }
    case SOC_N_ROLL:
        if (cmd->num < 1 || cmd->num > SOC_D8)
            return bad(err, line, "a d8 shows 1 to 8");
        if (p->knows && cmd->num != rpl__soc_peek_roll(st))
            return bad(err, line, "the d8 gives %u (stream d8), got %u",
                       rpl__soc_peek_roll(st), cmd->num);
        return RPL_OK;
    case SOC_N_TAUNTED: {
        enum rpl_status rc = need_holds(st, nd->seat, cmd->card, 1, line, err);

        if (rc == RPL_OK && p->knows &&
            cmd->card != rpl__soc_peek_taunt(st, nd->seat))
            rc = bad(err, line, "the taunt takes %s (stream taunt), got %s",
                     tok_of(rpl__soc_peek_taunt(st, nd->seat)),
                     tok_of(cmd->card));
        return rc;
    }
    case SOC_N_SHOWS:
        if (cmd->opt == SOC_O_TRAITOR &&
            (p->traitor || (p->seat[nd->seat].flags & SOC_F_LOYAL)))
            return bad(err, line, "p%u cannot be the traitor", nd->seat);
        if (p->knows && (st->h.loyalty[nd->seat] == SOC_TRAITOR) !=
                            (cmd->opt == SOC_O_TRAITOR))
            return bad(err, line, "p%u is %s", nd->seat,
                       st->h.loyalty[nd->seat] == SOC_TRAITOR ? "the traitor"
                                                              : "loyal");
        return RPL_OK;
    case SOC_N_QUEST: {
        const unsigned q = nd->a, won = nd->b;
        const unsigned swords = rpl__soc_quest_swords(p, q, won);
        const unsigned relic = won ? rpl__soc_relic_to(p, q, nd->c) : 0;

        if (cmd->loc != q || (cmd->opt == SOC_O_WON) != (won != 0) ||
            cmd->num != swords || cmd->num2 != relic) {
            if (relic)
                return bad(
                    err, line, "expected \"quest %s %s swords=%u relic=p%u\"",
                    rpl__soc_quest[q].tok, won ? "won" : "lost", swords, relic);
            return bad(err, line, "expected \"quest %s %s swords=%u\"",
                       rpl__soc_quest[q].tok, won ? "won" : "lost", swords);
        }
        return RPL_OK;
    }
    case SOC_N_DIES:
        return RPL_OK;
    case SOC_N_FLIP:
        if (cmd->seat &&
            (p->seat[cmd->seat].flags & (SOC_F_REVEALED | SOC_F_LOYAL)))
            return bad(err, line, "p%u cannot be the traitor", cmd->seat);
        if (p->knows && cmd->seat != st->h.traitor) {
            if (st->h.traitor)
                return bad(err, line, "p%u holds the traitor card",
                           st->h.traitor);
            return bad(err, line, "no seat holds the traitor card");
        }
        return RPL_OK;
    case SOC_N_END:
        if (cmd->winner != nd->a || cmd->num != nd->b)
            return bad(err, line, "expected \"end %s %s\"",
                       rpl__soc_winner_tok(nd->a), rpl__soc_reason_tok(nd->b));
        return RPL_OK;
    case SOC_N_REDEAL: {
        unsigned seen = 0;

        /* One pooled card to each seat that laid one (S-36); which
         * goes where is the stream's, checked at once when the state
         * knows the seed and at the reveal otherwise. */
        if (cmd->nseats != p->npool)
            return bad(err, line, "expected %u recipients, got %u", p->npool,
                       cmd->nseats);
        for (unsigned i = 0; i < cmd->nseats; i++) {
            if (!(p->poolers & soc_bit(cmd->seats[i])) ||
                (seen & soc_bit(cmd->seats[i])))
                return bad(err, line,
                           "the random sharing gives one card to each seat "
                           "that laid one");
            seen |= soc_bit(cmd->seats[i]);
        }
        return RPL_OK;
    }
    default:
        return bad(err, line, "not a dealer line");
    }
}

static enum rpl_status
validate_seat(const struct soc_state *st, const struct soc_cmd *cmd,
              const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    const struct soc_pub *p = &st->p;
    const struct soc_need *nd = &p->need;
    const unsigned k = cmd->seat;
    const struct soc_choice *ch = NULL;
    struct soc_choice tmp;
    enum rpl_status rc;

    switch (nd->kind) {
    case SOC_N_POOL:
        return need_holds(st, k, cmd->card, 1, line, err);
    case SOC_N_ALLOT:
        if (cmd->opt == SOC_O_RANDOM)
            return RPL_OK;
        if (cmd->nseats != p->npool)
            return bad(err, line, "expected %u recipients, got %u", p->npool,
                       cmd->nseats);
        return RPL_OK;
    case SOC_N_EVIL:
        if (cmd->kw == SOC_K_LOOK) {
            if (nd->a || p->seat[k].knight != SOC_PERCIVAL)
                return bad(err, line,
                           "only Sir Percival looks before the "
                           "progression of evil");
            if (p->looked)
                return bad(err, line, "Sir Percival has looked this turn");
            if (!rpl__soc_black_avail(p))
                return bad(err, line, "no black card to look at");
            return RPL_OK;
        }
        if (cmd->kw == SOC_K_SWAP) {
            if (nd->a)
                return bad(err, line,
                           "the revealed traitor does not "
                           "exchange");
            return validate_swap(st, cmd, env, line, err);
        }
        if (cmd->opt == SOC_O_LIFE && nd->a)
            return bad(err, line, "the revealed traitor has no life points");
        if (cmd->opt == SOC_O_BLACK && !rpl__soc_black_avail(p))
            return bad(err, line, "no black card is left to draw");
        return RPL_OK;
    case SOC_N_TAUNT:
        if (cmd->seat2) {
            if (!soc_living(p, cmd->seat2) || !p->seat[cmd->seat2].hand_n)
                return bad(err, line, "p%u has no white card to lose",
                           cmd->seat2);
        } else {
            for (unsigned t = 1; t <= p->n; t++)
                if (soc_living(p, t) && p->seat[t].hand_n)
                    return bad(err, line,
                               "p%u has white cards: taunt a "
                               "knight",
                               t);
        }
        return RPL_OK;
    case SOC_N_KEEP:
        if (cmd->card != p->drawn[0] && cmd->card != p->drawn[1])
            return bad(err, line, "keep %s or %s", tok_of(p->drawn[0]),
                       tok_of(p->drawn[1]));
        return RPL_OK;
    case SOC_N_CANCEL:
        if (cmd->kw == SOC_K_PASS)
            return RPL_OK;
        if (nd->a == 0) {
            if (cmd->opt != SOC_O_EXCALIBUR)
                return bad(err, line, "expected \"cancel p%u excalibur\"", k);
            return RPL_OK;
        }
        if (cmd->opt != SOC_O_MERLIN || cmd->nseats != 3)
            return bad(err, line, "three merlins cancel a special card");
        /* own=on: the Merlins are those their holders offered (S-41). */
        if (p->own)
            for (unsigned s = 1; s <= p->n; s++) {
                unsigned times = 0;

                for (unsigned j = 0; j < cmd->nseats; j++)
                    times += cmd->seats[j] == s;
                if (times != p->offered[s])
                    return bad(
                        err, line, "p%u offered %u merlin%s, the line plays %u",
                        s, p->offered[s], p->offered[s] == 1 ? "" : "s", times);
            }
        for (unsigned i = 0; i < cmd->nseats; i++) {
            unsigned times = 0;

            if (!soc_living(p, cmd->seats[i]))
                return bad(err, line, "p%u cannot play a merlin",
                           cmd->seats[i]);
            for (unsigned j = 0; j < cmd->nseats; j++)
                times += cmd->seats[j] == cmd->seats[i];
            rc = need_holds(st, cmd->seats[i], SOC_MERLIN, times, line, err);
            if (rc != RPL_OK)
                return rc;
        }
        return RPL_OK;
    case SOC_N_WAR:
        if (cmd->loc != SOC_PICTS && cmd->loc != SOC_SAXONS)
            return bad(err, line, "expected picts or saxons");
        return RPL_OK;
    case SOC_N_VOLUNTEER:
        /* own=on: one of the knights who offered (S-41). */
        if (p->own && !(cmd->seat2 && (p->offers & soc_bit(cmd->seat2))))
            return bad(err, line, "the volunteer is a knight who offered");
        if (!cmd->seat2)
            return RPL_OK;
        if (!soc_living(p, cmd->seat2))
            return bad(err, line, "p%u cannot volunteer", cmd->seat2);
        if (nd->a == SOC_MORGAN_DISCARD &&
            p->seat[cmd->seat2].hand_n < rpl__soc_card[nd->a].p1)
            return bad(err, line, "p%u has fewer than 3 white cards",
                       cmd->seat2);
        return RPL_OK;
    case SOC_N_DISCARD:
        if (cmd->ncards != nd->a)
            return bad(err, line, "p%u discards %u white card%s", k, nd->a,
                       nd->a == 1 ? "" : "s");
        return need_list(st, k, cmd->cards, cmd->ncards, line, err);
    case SOC_N_HEROIC:
        return validate_heroic(st, cmd, env, line, err);
    case SOC_N_SWAP_BACK:
        if (cmd->seat2)
            return bad(err, line, "expected \"swap p%u <commitment>\"", k);
        rc = check_choice(st, env, SOC_CH_SWAP, k, cmd, line, &tmp, &ch, err);
        if (rc == RPL_OK && ch && (ch->n != 1 || !soc_is_white(ch->v[0])))
            rc = bad(err, line, "an exchange gives one white card");
        if (rc == RPL_OK && ch)
            rc = need_holds(st, k, ch->v[0], 1, line, err);
        return rc;
    case SOC_N_ORDER:
        rc = check_choice(st, env, SOC_CH_ORDER, k, cmd, line, &tmp, &ch, err);
        if (rc == RPL_OK && ch) {
            uint8_t top[5];
            unsigned cnt[SOC_NCARDS] = {0};

            if (ch->n != nd->a)
                return bad(err, line, "the order names %u cards, not %u", ch->n,
                           nd->a);
            if (!env)
                return RPL_OK; /* a probe: the player saw the cards */
            rpl__soc_peek_black(st, env->seed, nd->a, top);
            for (unsigned i = 0; i < nd->a; i++)
                cnt[top[i]]++;
            for (unsigned i = 0; i < ch->n; i++) {
                if (ch->v[i] >= SOC_NCARDS || !cnt[ch->v[i]])
                    return bad(err, line,
                               "the order names %s, not among "
                               "the cards looked at",
                               tok_of(ch->v[i]));
                cnt[ch->v[i]]--;
            }
        }
        return rc;
    case SOC_N_KAY:
        if (cmd->kw == SOC_K_PASS)
            return RPL_OK;
        if (!soc_is_fight(cmd->card))
            return bad(err, line, "Sir Kay adds a fight card");
        return need_holds(st, k, cmd->card, 1, line, err);
    case SOC_N_SAVE:
        return RPL_OK;
    case SOC_N_MERLINS:
        if (cmd->num + nd->b > 3)
            return bad(err, line, "%u merlins are offered already: at most %u",
                       nd->b, 3u - nd->b);
        if (!cmd->num)
            return RPL_OK;
        return need_holds(st, k, SOC_MERLIN, cmd->num, line, err);
    case SOC_N_OFFER:
        return RPL_OK;
    case SOC_N_SHARE: {
        unsigned sum = 0, seen = 0, i = 0;

        for (unsigned j = 0; j < p->n; j++) {
            const unsigned s = soc_from(p, p->cur, j);

            if (!(nd->c & soc_bit(s)))
                continue;
            if (i >= cmd->nseats || cmd->seats[i] != s)
                return bad(err, line,
                           "share lists every knight present in "
                           "turn order from p%u",
                           p->cur);
            sum += cmd->counts[i];
            seen |= soc_bit(s);
            i++;
        }
        if (i != cmd->nseats)
            return bad(err, line, "share lists only the knights present");
        if (sum != nd->a)
            return bad(err, line, "share %u cards, got %u", nd->a, sum);
        return RPL_OK;
    }
    default:
        return bad(err, line, "not a seat line");
    }
}

bool
rpl__soc_fits(const struct soc_state *st, const struct soc_cmd *cmd)
{
    const struct soc_need *nd = &st->p.need;

    if (st->p.phase != SOC_PH_PLAY && st->p.phase != SOC_PH_READY)
        return true; /* validate() says why */
    if (!kw_fits(nd->kind, cmd->kw))
        return false;
    return !nd->seat || cmd->seat == nd->seat || nd->kind == SOC_N_FLIP;
}

enum rpl_status
rpl__soc_validate(const struct soc_state *st, const struct soc_cmd *cmd,
                  const struct rpl__env *env, size_t line,
                  struct rpl_error *err)
{
    const struct soc_pub *p = &st->p;
    const struct soc_need *nd = &p->need;

    if (p->phase == SOC_PH_RULES)
        return rpl__err(err, RPL_E_STATE, line,
                        "a game line before the rules line");
    if (p->phase == SOC_PH_OVER)
        return bad(err, line, "the game is over");
    if (cmd->kw == SOC_K_END && cmd->num == SOC_R_ABORTED) {
        if (p->phase != SOC_PH_PLAY || p->ending)
            return bad(err, line,
                       "end aborted comes after start and before "
                       "the end is decided");
        return RPL_OK;
    }
    if (!kw_fits(nd->kind, cmd->kw))
        return bad(err, line, "a %s line is not expected here",
                   rpl__soc_kw[cmd->kw]);
    if (nd->seat && cmd->seat != nd->seat && nd->kind != SOC_N_FLIP)
        return bad(err, line, "expected p%u, got p%u", nd->seat, cmd->seat);
    if (soc_is_dealer_need(nd->kind))
        return validate_dealer(st, cmd, env, line, err);
    return validate_seat(st, cmd, env, line, err);
}
