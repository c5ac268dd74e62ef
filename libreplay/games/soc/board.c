/*
 * board.c - what the public board of Shadows over Camelot allows: the
 * knights living or present at a place, the cards left to draw, the
 * relics and the Grail's spots, which places are open, the swords a
 * quest would lay, the totals of a combat quest, which card may be
 * played where, and whether a Merlin has something to cancel.
 *
 * Nothing here changes the state.  The validation (validate.c), the
 * effects (effects.c), the dealer's lines (rules.c) and the seeded
 * players share these questions, so they cannot answer them differently.
 */
#include <string.h>

#include "soc.h"

unsigned
rpl__soc_white_avail(const struct soc_pub *p)
{
    unsigned n = p->wpile_n + p->wdisc_unknown;

    for (unsigned c = 0; c < SOC_NWT; c++)
        n += p->wdisc[c];
    return n;
}

unsigned
rpl__soc_white_upto(const struct soc_pub *p, unsigned n)
{
    const unsigned avail = rpl__soc_white_avail(p);

    return n < avail ? n : avail;
}

unsigned
rpl__soc_black_avail(const struct soc_pub *p)
{
    unsigned n = p->bpile_n;

    for (unsigned c = 0; c < SOC_NBT; c++)
        n += p->bdisc[c];
    return n;
}

/* Living knights (not dead, not the revealed traitor) as a mask. */
unsigned
rpl__soc_living_mask(const struct soc_pub *p)
{
    unsigned m = 0;

    for (unsigned k = 1; k <= p->n; k++)
        if (soc_living(p, k))
            m |= soc_bit(k);
    return m;
}

unsigned
rpl__soc_present_mask(const struct soc_pub *p, unsigned loc)
{
    unsigned m = 0;

    for (unsigned k = 1; k <= p->n; k++)
        if (soc_living(p, k) && p->seat[k].loc == loc)
            m |= soc_bit(k);
    return m;
}

/* The first seat of mask in turn order from `from`, 0 when empty. */
unsigned
rpl__soc_first_in(const struct soc_pub *p, unsigned from, unsigned mask)
{
    for (unsigned i = 0; i < p->n; i++) {
        const unsigned k = soc_from(p, from, i);

        if (mask & soc_bit(k))
            return k;
    }
    return 0;
}

static bool
asked(const struct soc_pub *p, unsigned ctx, unsigned k)
{
    if (!soc_living(p, k))
        return false;
    switch (ctx) {
    case SOC_MERLIN:
        return p->seat[k].hand_n > 0;
    case SOC_MORGAN_DISCARD:
        return p->seat[k].hand_n >= rpl__soc_card[SOC_MORGAN_DISCARD].p1;
    case SOC_CONVOCATION:
        return p->seat[k].loc != SOC_CAMELOT;
    default:
        return true;
    }
}

unsigned
rpl__soc_ask_next(const struct soc_pub *p, unsigned ctx, unsigned origin,
                  unsigned after)
{
    const unsigned from = after ? (after + p->n - origin) % p->n + 1u : 0u;

    for (unsigned i = from; i < p->n; i++) {
        const unsigned k = soc_from(p, origin, i);

        if (asked(p, ctx, k))
            return k;
    }
    return 0;
}

unsigned
rpl__soc_last_word(const struct soc_pub *p, unsigned origin)
{
    if (soc_living(p, p->cur))
        return p->cur;
    return rpl__soc_first_in(p, origin, rpl__soc_living_mask(p));
}

unsigned
rpl__soc_lp_add(unsigned lp, int d)
{
    const int v = (int)lp + d;

    return v < 0 ? 0u : v > SOC_LP_MAX ? SOC_LP_MAX : (unsigned)v;
}

bool
rpl__soc_relic_held_by(const struct soc_pub *p, unsigned relic, unsigned k)
{
    return p->relic[relic] == k && k >= 1 && k <= SOC_MAX_SEATS;
}

/* The holder of a relic if that knight is living, else 0. */
unsigned
rpl__soc_relic_holder(const struct soc_pub *p, unsigned relic)
{
    const unsigned k = p->relic[relic];

    return k >= 1 && k <= p->n && soc_living(p, k) ? k : 0;
}

bool
rpl__soc_grail_black(unsigned c)
{
    return c != SOC_EMPTY && soc_is_black(c);
}

int
rpl__soc_grail_low_free(const struct soc_pub *p)
{
    for (int i = 0; i < SOC_GRAIL_SPOTS; i++)
        if (p->grail[i] == SOC_EMPTY)
            return i;
    return -1;
}

int
rpl__soc_grail_high_free(const struct soc_pub *p)
{
    for (int i = SOC_GRAIL_SPOTS - 1; i >= 0; i--)
        if (p->grail[i] == SOC_EMPTY)
            return i;
    return -1;
}

/* The most advanced Grail card (nearest evil's end). */
int
rpl__soc_grail_last_white(const struct soc_pub *p)
{
    for (int i = SOC_GRAIL_SPOTS - 1; i >= 0; i--)
        if (p->grail[i] == SOC_GRAIL_CARD)
            return i;
    return -1;
}

/* The black card nearest the Grail. */
int
rpl__soc_grail_first_black(const struct soc_pub *p)
{
    for (int i = 0; i < SOC_GRAIL_SPOTS; i++)
        if (rpl__soc_grail_black(p->grail[i]))
            return i;
    return -1;
}

bool
rpl__soc_grail_all(const struct soc_pub *p, bool black)
{
    for (int i = 0; i < SOC_GRAIL_SPOTS; i++)
        if (black ? !rpl__soc_grail_black(p->grail[i])
                  : p->grail[i] != SOC_GRAIL_CARD)
            return false;
    return true;
}

const struct soc_combat *
rpl__soc_combat_of(const struct soc_pub *p, unsigned q)
{
    return q == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;
}

unsigned
rpl__soc_war_index(unsigned q)
{
    return q == SOC_PICTS ? 0u : 1u;
}

bool
rpl__soc_loc_active(const struct soc_pub *p, unsigned loc)
{
    switch (loc) {
    case SOC_CAMELOT:
    case SOC_BLACK_KNIGHT:
    case SOC_PICTS:
    case SOC_SAXONS:
        return true;
    case SOC_LANCELOT:
        return p->ld_stage == 0;
    case SOC_DRAGON:
        return p->ld_stage == 1;
    case SOC_EXCALIBUR:
        return p->exc_state == 0;
    case SOC_GRAIL:
        return p->grail_state == 0;
    default:
        return false;
    }
}

bool
rpl__soc_loc_open(const struct soc_pub *p, unsigned loc)
{
    if (!rpl__soc_loc_active(p, loc))
        return false;
    if (rpl__soc_quest[loc].is_solo && rpl__soc_present_mask(p, loc))
        return false;
    return true;
}

unsigned
rpl__soc_kay_seat(const struct soc_pub *p, unsigned loc)
{
    for (unsigned k = 1; k <= p->n; k++)
        if (soc_living(p, k) && p->seat[k].knight == SOC_KAY &&
            p->seat[k].loc == loc && p->seat[k].hand_n > 0)
            return k;
    return 0;
}

unsigned
rpl__soc_quest_swords(const struct soc_pub *p, unsigned q, bool won)
{
    const struct soc_quest *d = &rpl__soc_quest[q];
    unsigned n = won ? d->win_swords : d->lose_swords;

    if (p->heroism == q + 1u)
        n += rpl__soc_card[SOC_HEROISM].p1;
    if (!won && p->mists)
        n += rpl__soc_card[SOC_MISTS].p1;
    return n;
}

void
rpl__soc_combat_totals(const struct soc_pub *p, unsigned q, unsigned *white,
                       unsigned *black)
{
    const struct soc_combat *cb = rpl__soc_combat_of(p, q);
    unsigned w = 0, b = 0;
    const unsigned holder = rpl__soc_relic_holder(p, SOC_REL_EXCALIBUR);

    for (unsigned i = 0; i < cb->nwhite; i++)
        w += soc_fight_value(cb->white[i]);
    if (p->kay_card)
        w += soc_fight_value(p->kay_card - 1u);
    if (holder && p->seat[holder].loc == q)
        w += 1;
    for (unsigned i = 0; i < cb->nblack; i++)
        b += q == SOC_DRAGON ? rpl__soc_card[cb->black[i]].value2
                             : rpl__soc_card[cb->black[i]].value;
    *white = w;
    *black = b;
}

/* Whether the fight values of a combat quest can still end in its
 * pattern (§4.2-4.4): two pairs of different values, a full house,
 * three triples of different values (§8 item 31). */
bool
rpl__soc_pattern_ok(unsigned q, const uint8_t *cards, unsigned n)
{
    unsigned cnt[5] = {0};
    unsigned distinct = 0, big = 0, top = 0;

    for (unsigned i = 0; i < n; i++)
        cnt[cards[i]]++;
    for (unsigned v = 0; v < 5; v++) {
        if (!cnt[v])
            continue;
        distinct++;
        if (cnt[v] > top)
            top = cnt[v];
        if (cnt[v] == 3)
            big++;
    }
    switch (q) {
    case SOC_BLACK_KNIGHT:
        return distinct <= 2 && top <= 2;
    case SOC_LANCELOT:
        return distinct <= 2 && top <= 3 && big <= 1;
    default:
        return distinct <= 3 && top <= 3;
    }
}

/* The value the next fight card of a war must have; 0 when complete. */
unsigned
rpl__soc_war_next(const struct soc_war *w)
{
    if (w->nwhite == 0)
        return 1;
    if (w->nwhite < 5)
        return w->nwhite + 1u;
    if (w->nwhite == 5 && w->mordred)
        return 5;
    return 0;
}

bool
rpl__soc_play_ok(const struct soc_pub *p, unsigned q, unsigned card)
{
    switch (q) {
    case SOC_BLACK_KNIGHT:
    case SOC_LANCELOT:
    case SOC_DRAGON: {
        const struct soc_combat *cb = rpl__soc_combat_of(p, q);
        uint8_t vals[10];

        if (!rpl__soc_loc_active(p, q) || !soc_is_fight(card) ||
            cb->nwhite >= rpl__soc_quest[q].white_spots)
            return false;
        memcpy(vals, cb->white, cb->nwhite);
        vals[cb->nwhite] = (uint8_t)card;
        return rpl__soc_pattern_ok(q, vals, cb->nwhite + 1u);
    }
    case SOC_EXCALIBUR:
        return p->exc_state == 0 && soc_is_white(card);
    case SOC_GRAIL:
        return p->grail_state == 0 && !p->dark_forest && card == SOC_GRAIL_CARD;
    case SOC_PICTS:
    case SOC_SAXONS:
        return soc_is_fight(card) &&
               soc_fight_value(card) ==
                   rpl__soc_war_next(&p->war[rpl__soc_war_index(q)]);
    default:
        return false;
    }
}

bool
rpl__soc_holds(const struct soc_state *st, unsigned k, unsigned card,
               unsigned cnt)
{
    const struct soc_pub *p = &st->p;

    if (!soc_is_white(card) || k < 1 || k > p->n)
        return false;
    if (p->knows)
        return st->h.hand[k][card] >= cnt;
    return p->seat[k].hand_n >= cnt &&
           (unsigned)p->wtable[card] + p->wdisc[card] + cnt <=
               rpl__soc_card[card].count;
}

/* Whether seat k holds every card of a list. */
bool
rpl__soc_holds_list(const struct soc_state *st, unsigned k,
                    const uint8_t *cards, unsigned n, unsigned *missing)
{
    unsigned cnt[SOC_NWT] = {0};

    if (k < 1 || k > st->p.n || n > st->p.seat[k].hand_n) {
        *missing = n ? cards[0] : 0;
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        if (!soc_is_white(cards[i])) {
            *missing = cards[i];
            return false;
        }
        cnt[cards[i]]++;
    }
    for (unsigned c = 0; c < SOC_NWT; c++)
        if (cnt[c] && !rpl__soc_holds(st, k, c, cnt[c])) {
            *missing = c;
            return false;
        }
    return true;
}

/* Whether three Merlins could be played: Vivien is not out and three
 * Merlins may be in the hands of living knights. */
bool
rpl__soc_merlins_possible(const struct soc_pub *p)
{
    unsigned cards = 0;

    if (p->vivien)
        return false;
    if (rpl__soc_card[SOC_MERLIN].count - p->wdisc[SOC_MERLIN] -
            p->wtable[SOC_MERLIN] <
        rpl__soc_card[SOC_MERLIN].p1)
        return false;
    for (unsigned k = 1; k <= p->n; k++)
        if (soc_living(p, k))
            cards += p->seat[k].hand_n;
    return cards >= rpl__soc_card[SOC_MERLIN].p1;
}

/* Whether a single Merlin can cancel something at loc (§3.4, §8 item 8). */
bool
rpl__soc_merlin_target_ok(const struct soc_pub *p, unsigned loc)
{
    switch (loc) {
    case SOC_CAMELOT:
        return p->siege > 0;
    case SOC_BLACK_KNIGHT:
    case SOC_LANCELOT:
    case SOC_DRAGON:
        return rpl__soc_loc_active(p, loc) &&
               rpl__soc_combat_of(p, loc)->nblack > 0;
    case SOC_EXCALIBUR:
        return p->exc_state == 0 && p->exc_black > 0;
    case SOC_GRAIL: {
        const int i = rpl__soc_grail_first_black(p);

        return p->grail_state == 0 && i >= 0 && p->grail[i] == SOC_DESPAIR;
    }
    case SOC_PICTS:
    case SOC_SAXONS: {
        const struct soc_war *w = &p->war[rpl__soc_war_index(loc)];

        for (unsigned i = 0; i < w->nblack; i++)
            if (w->black[i] != SOC_MORDRED)
                return true;
        return false;
    }
    default:
        return false;
    }
}

/* The relic of a quest won goes to the knight who completed it. */
unsigned
rpl__soc_relic_to(const struct soc_pub *p, unsigned q, unsigned completer)
{
    if (!rpl__soc_quest[q].relic)
        return 0;
    return completer && soc_living(p, completer) ? completer : 0;
}

/* The type of heroic action (SOC_T_*) a keyword takes, 0 for none. */
unsigned
rpl__soc_action_type(unsigned kw)
{
    switch (kw) {
    case SOC_K_MOVE:
        return SOC_T_MOVE;
    case SOC_K_DRAW:
    case SOC_K_SIEGE:
    case SOC_K_PLAY:
        return SOC_T_QUEST;
    case SOC_K_SPECIAL:
        return SOC_T_SPECIAL;
    case SOC_K_HEAL:
        return SOC_T_HEAL;
    case SOC_K_ACCUSE:
        return SOC_T_ACCUSE;
    default:
        return 0;
    }
}

/* Tristan moving from Camelot and Galahad's special card cost no action. */
bool
rpl__soc_is_free(const struct soc_pub *p, const struct soc_cmd *cmd)
{
    const struct soc_seat *s = &p->seat[cmd->seat];

    return (cmd->kw == SOC_K_MOVE && s->knight == SOC_TRISTAN &&
            s->loc == SOC_CAMELOT) ||
           (cmd->kw == SOC_K_SPECIAL && s->knight == SOC_GALAHAD);
}
