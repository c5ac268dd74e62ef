/*
 * effects.c - what a validated line of Shadows over Camelot does: its
 * effects change the board and push tasks, and rpl__soc_fx_run() works through
 * the tasks until a line is due again.  The tasks form a stack, so an effect
 * that needs a decision (a window to cancel a black card, Kay's extra
 * card, the Grail saving a dying knight) pushes it on top of what
 * remains.  Every card that moves is an event (struct soc_ev): played on
 * the hidden half at once in a knowing state, else journaled.
 *
 * After every effect that can end the game, rpl__soc_fx_settle() checks the end
 * conditions in the order of §7.5 and §8 item 25: 12 siege engines, 7
 * black swords, no loyal knight alive, 12 swords.  Once the end is
 * decided, every pending task is dropped and only the flip and the end
 * line remain.
 */
#include <string.h>

#include "effects.h"

/* ---------------------------------------------------------- the stack */

void
rpl__soc_fx_push(struct run *r, unsigned kind, unsigned a, unsigned b,
                 unsigned c)
{
    struct soc_pub *p = r->p;

    if (r->rc != RPL_OK)
        return;
    if (p->ntask >= SOC_MAX_TASKS) {
        r->rc = rpl__err(r->err, RPL_E_LIMIT, r->line,
                         "too many pending effects (SOC_MAX_TASKS)");
        return;
    }
    p->task[p->ntask].kind = (uint8_t)kind;
    p->task[p->ntask].a = (uint8_t)a;
    p->task[p->ntask].b = (uint8_t)b;
    p->task[p->ntask].c = (uint8_t)c;
    p->ntask++;
}

void
rpl__soc_fx_need(struct run *r, unsigned kind, unsigned seat, unsigned a,
                 unsigned b, unsigned c)
{
    struct soc_need *nd = &r->p->need;

    memset(nd, 0, sizeof(*nd));
    nd->kind = (uint8_t)kind;
    nd->seat = (uint8_t)seat;
    nd->a = (uint8_t)a;
    nd->b = (uint8_t)b;
    nd->c = (uint8_t)c;
}

/* ------------------------------------------------------------- events */

void
rpl__soc_fx_ev(struct run *r, unsigned kind, unsigned a, unsigned b, unsigned c)
{
    struct soc_state *st = r->st;
    struct soc_ev e;

    if (r->rc != RPL_OK)
        return;
    if (st->p.nev >= SOC_MAX_EV) {
        r->rc = rpl__err(r->err, RPL_E_LIMIT, r->line,
                         "more than %u card movements in one game "
                         "(SOC_MAX_EV)",
                         SOC_MAX_EV);
        return;
    }
    e.line = (uint32_t)r->line;
    e.kind = (uint8_t)kind;
    e.a = (uint8_t)a;
    e.b = (uint8_t)b;
    e.c = (uint8_t)c;
    if (st->p.knows) {
        unsigned d = st->p.hdeliv, ch = st->p.hchoice;

        r->rc = rpl__soc_hid_step(st, &e, r->env, r->seed, &d, &ch, r->err);
        st->p.hdeliv = (uint16_t)d;
        st->p.hchoice = (uint16_t)ch;
    } else {
        st->ev[st->p.nev] = e;
    }
    st->p.nev++;
}

/* Card movements: the public counts and the event. */
void
rpl__soc_fx_w_to_table(struct run *r, unsigned k, unsigned card)
{
    r->p->seat[k].hand_n--;
    r->p->wtable[card]++;
    rpl__soc_fx_ev(r, SOC_EV_WPLAY, k, card, 0);
}

void
rpl__soc_fx_w_to_disc(struct run *r, unsigned k, unsigned card)
{
    r->p->seat[k].hand_n--;
    r->p->wdisc[card]++;
    rpl__soc_fx_ev(r, SOC_EV_WPLAY, k, card, 1);
}

static void
w_table_disc(struct run *r, unsigned card)
{
    r->p->wtable[card]--;
    r->p->wdisc[card]++;
    rpl__soc_fx_ev(r, SOC_EV_WDISC, 0, card, 0);
}

void
rpl__soc_fx_w_table_hand(struct run *r, unsigned k, unsigned card)
{
    r->p->wtable[card]--;
    r->p->seat[k].hand_n++;
    rpl__soc_fx_ev(r, SOC_EV_WTAKE, k, card, 0);
}

void
rpl__soc_fx_w_dump(struct run *r, unsigned k)
{
    r->p->wdisc_unknown = (uint8_t)(r->p->wdisc_unknown + r->p->seat[k].hand_n);
    r->p->seat[k].hand_n = 0;
    rpl__soc_fx_ev(r, SOC_EV_WDUMP, k, 0, 0);
}

void
rpl__soc_fx_b_disc(struct run *r, unsigned card)
{
    r->p->btable[card - SOC_B0]--;
    r->p->bdisc[card - SOC_B0]++;
    rpl__soc_fx_ev(r, SOC_EV_BDISC, 0, card, 0);
}

/* Both discard piles go under their decks when a deck holds fewer than
 * k cards that are about to be drawn or looked at (§3.5, §8 item 26). */
void
rpl__soc_fx_ensure(struct run *r, bool white, unsigned k)
{
    struct soc_pub *p = r->p;
    unsigned w = p->wdisc_unknown, b = 0;

    if ((white ? p->wpile_n : p->bpile_n) >= k)
        return;
    for (unsigned c = 0; c < SOC_NWT; c++)
        w += p->wdisc[c];
    for (unsigned c = 0; c < SOC_NBT; c++)
        b += p->bdisc[c];
    if (!w && !b)
        return;
    if (w) {
        p->wpile_n = (uint8_t)(p->wpile_n + w);
        memset(p->wdisc, 0, sizeof(p->wdisc));
        p->wdisc_unknown = 0;
        p->wshuffles++;
    }
    if (b) {
        for (unsigned c = 0; c < SOC_NBT; c++)
            p->bpile[c] = (uint8_t)(p->bpile[c] + p->bdisc[c]);
        p->bpile_n = (uint8_t)(p->bpile_n + b);
        memset(p->bdisc, 0, sizeof(p->bdisc));
        p->bshuffles++;
    }
    rpl__soc_fx_ev(r, SOC_EV_RESHUFFLE, 0, 0, 0);
}

/* A knight leaves his place: leaving a solo quest discards the white
 * cards played there (§3.2). */
void
rpl__soc_fx_leave(struct run *r, unsigned k)
{
    struct soc_pub *p = r->p;
    const unsigned loc = p->seat[k].loc;

    if (loc < SOC_NLOC && rpl__soc_quest[loc].is_solo &&
        rpl__soc_loc_active(p, loc)) {
        struct soc_combat *cb = loc == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;

        for (unsigned i = 0; i < cb->nwhite; i++)
            w_table_disc(r, cb->white[i]);
        cb->nwhite = 0;
    }
}

/* ---------------------------------------------------------- the end */

void
rpl__soc_fx_end_game(struct run *r, unsigned winner, unsigned reason)
{
    struct soc_pub *p = r->p;

    p->ending = 1;
    p->ntask = 0;
    rpl__soc_fx_push(r, TK_END, winner, reason, 0);
}

/* The end conditions; true when the game is ending (the caller stops).
 * Also notices the 3-player variant's moment and pending deaths. */
bool
rpl__soc_fx_settle(struct run *r)
{
    struct soc_pub *p = r->p;
    const unsigned living = rpl__soc_living_mask(p);

    if (p->ending)
        return true;
    if (p->siege >= SOC_ENGINES_LOSS) {
        rpl__soc_fx_end_game(r, SOC_W_EVIL, SOC_R_SIEGE);
        return true;
    }
    if (p->swords_b >= SOC_BLACK_LOSS) {
        rpl__soc_fx_end_game(r, SOC_W_EVIL, SOC_R_BLACK);
        return true;
    }
    if (!living) {
        rpl__soc_fx_end_game(r, SOC_W_EVIL, SOC_R_DEATHS);
        return true;
    }
    if (p->swords_w + p->swords_b >= SOC_SWORDS_END) {
        rpl__soc_fx_end_game(r, SOC_W_NONE, SOC_R_MAJORITY);
        return true;
    }
    if (p->brave && !p->brave_due &&
        (p->swords_w + p->swords_b >= SOC_BRAVE_AT ||
         p->siege >= SOC_BRAVE_AT)) {
        p->brave_due = 1;
        rpl__soc_fx_push(r, TK_BRAVE, 1, 0, 0);
    }
    for (unsigned k = 1; k <= p->n; k++)
        if ((living & soc_bit(k)) && p->seat[k].lp == 0 && k != p->die_after) {
            rpl__soc_fx_push(r, TK_DEATHS, 0, 0, 0);
            break;
        }
    return false;
}

/* The last knight alive may be the traitor (§7.5 item 3): the table
 * learns which. */
void
rpl__soc_fx_survivor_check(struct run *r)
{
    struct soc_pub *p = r->p;
    const unsigned living = rpl__soc_living_mask(p);

    if (p->ending || !p->traitor_on || p->traitor || soc_popcount(living) != 1)
        return;
    for (unsigned k = 1; k <= p->n; k++)
        if ((living & soc_bit(k)) && !(p->seat[k].flags & SOC_F_LOYAL))
            rpl__soc_fx_push(r, TK_SURVIVOR, k, 0, 0);
}

/* §7.3: the revealed traitor leaves the board, loses his white cards and
 * the Excalibur and Grail relics, keeps the Armor. */
void
rpl__soc_fx_reveal_traitor(struct run *r, unsigned k)
{
    struct soc_pub *p = r->p;

    rpl__soc_fx_leave(r, k);
    p->seat[k].flags |= SOC_F_REVEALED;
    p->seat[k].loc = SOC_NOWHERE;
    p->seat[k].lp = 0;
    p->traitor = (uint8_t)k;
    if (p->die_after == k)
        p->die_after = 0;
    rpl__soc_fx_w_dump(r, k);
    if (rpl__soc_relic_held_by(p, SOC_REL_EXCALIBUR, k))
        p->relic[SOC_REL_EXCALIBUR] = SOC_RELIC_BOX;
    if (rpl__soc_relic_held_by(p, SOC_REL_GRAIL, k))
        p->relic[SOC_REL_GRAIL] = SOC_RELIC_BOX;
}

void
rpl__soc_fx_siege_add(struct run *r, unsigned n)
{
    for (unsigned i = 0; i < n && !r->p->ending; i++) {
        r->p->siege++;
        rpl__soc_fx_settle(r);
    }
}

/* A black card whose quest is over: a siege engine instead (§3.3). */
static void
siege_instead(struct run *r, unsigned card)
{
    rpl__soc_fx_b_disc(r, card);
    rpl__soc_fx_siege_add(r, 1);
}

/* ------------------------------------------------------- quest ends */

static void
clear_combat(struct run *r, struct soc_combat *cb)
{
    for (unsigned i = 0; i < cb->nwhite; i++)
        w_table_disc(r, cb->white[i]);
    for (unsigned i = 0; i < cb->nblack; i++)
        rpl__soc_fx_b_disc(r, cb->black[i]);
    memset(cb, 0, sizeof(*cb));
}

static void
clear_war(struct run *r, struct soc_war *w)
{
    for (unsigned i = 0; i < w->nwhite; i++)
        w_table_disc(r, w->white[i]);
    for (unsigned i = 0; i < w->nblack; i++)
        rpl__soc_fx_b_disc(r, w->black[i]);
    memset(w, 0, sizeof(*w));
}

/* §4.0: swords, siege engines, life points, relic, the quest's cards,
 * the return to Camelot, the reward cards. */
void
rpl__soc_fx_quest_end(struct run *r, unsigned q, bool won, unsigned completer)
{
    struct soc_pub *p = r->p;
    const struct soc_quest *d = &rpl__soc_quest[q];
    const unsigned present = rpl__soc_present_mask(p, q);
    const unsigned swords = rpl__soc_quest_swords(p, q, won);
    const unsigned holder = rpl__soc_relic_to(p, q, completer);

    if (won)
        p->swords_w = (uint8_t)(p->swords_w + swords);
    else
        p->swords_b = (uint8_t)(p->swords_b + swords);
    if (p->heroism == q + 1u) {
        w_table_disc(r, SOC_HEROISM);
        p->heroism = 0;
    }
    /* The result stands even when the swords end the game (S-24). */
    if (q == SOC_EXCALIBUR || q == SOC_GRAIL)
        *(q == SOC_EXCALIBUR ? &p->exc_state : &p->grail_state) = won ? 1 : 2;
    if (rpl__soc_fx_settle(r))
        return;
    if (!won)
        rpl__soc_fx_siege_add(r, d->lose_engines);
    if (p->ending)
        return;
    for (unsigned k = 1; k <= p->n; k++) {
        if (!(present & soc_bit(k)))
            continue;
        if (won)
            p->seat[k].lp = (uint8_t)rpl__soc_lp_add(
                p->seat[k].lp,
                d->win_lp + (p->seat[k].knight == SOC_PALAMEDES ? 1 : 0));
        else
            p->seat[k].lp =
                (uint8_t)rpl__soc_lp_add(p->seat[k].lp, -(int)d->lose_lp);
    }
    if (d->relic)
        p->relic[d->relic - 1] =
            (uint8_t)(won && holder ? holder : SOC_RELIC_BOX);
    if (won) {
        if (p->vivien) {
            p->vivien = 0;
            rpl__soc_fx_b_disc(r, SOC_VIVIEN);
        }
        if (p->dark_forest) {
            p->dark_forest = 0;
            rpl__soc_fx_b_disc(r, SOC_DARK_FOREST);
        }
    }
    if (p->kay_card) {
        w_table_disc(r, p->kay_card - 1u);
        p->kay_card = 0;
    }
    switch (q) {
    case SOC_BLACK_KNIGHT:
        clear_combat(r, &p->bk);
        break;
    case SOC_LANCELOT:
    case SOC_DRAGON:
        clear_combat(r, &p->ld);
        p->ld_stage++;
        break;
    case SOC_EXCALIBUR:
        break;
    case SOC_GRAIL:
        for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++) {
            if (p->grail[i] == SOC_GRAIL_CARD)
                w_table_disc(r, SOC_GRAIL_CARD);
            else if (rpl__soc_grail_black(p->grail[i]))
                rpl__soc_fx_b_disc(r, p->grail[i]);
            p->grail[i] = SOC_EMPTY;
        }
        break;
    default:
        clear_war(r, &p->war[rpl__soc_war_index(q)]);
        break;
    }
    for (unsigned k = 1; k <= p->n; k++)
        if (present & soc_bit(k))
            p->seat[k].loc = SOC_CAMELOT;
    if (won && present) {
        const unsigned cards = rpl__soc_white_upto(p, d->win_cards);

        if (cards) /* TK_SHARE delivers to a knight alone */
            rpl__soc_fx_push(r, TK_SHARE, cards, q, present);
    }
    rpl__soc_fx_settle(r);
}

/* ------------------------------------------------ decisions (S-41) */

/* Morgan's volunteer named (0: nobody): his discards or his life points,
 * else every knight discards, in turn order from the drawer. */
void
rpl__soc_fx_volunteered(struct run *r, unsigned card, unsigned drawer,
                        unsigned v)
{
    struct soc_pub *p = r->p;

    if (!v) {
        rpl__soc_fx_push(r, TK_EACH_DISCARD, drawer, rpl__soc_card[card].p2,
                         rpl__soc_living_mask(p));
    } else if (card == SOC_MORGAN_DISCARD) {
        rpl__soc_fx_need(r, SOC_N_DISCARD, v, rpl__soc_card[card].p1, 0, 0);
    } else {
        p->seat[v].lp = (uint8_t)rpl__soc_lp_add(p->seat[v].lp,
                                                 -(int)rpl__soc_card[card].p1);
        rpl__soc_fx_settle(r);
    }
}

/* Those gathered in Camelot draw as many cards as they are, shared
 * (S-09). */
void
rpl__soc_fx_convocation_share(struct run *r)
{
    struct soc_pub *p = r->p;
    const unsigned there = rpl__soc_present_mask(p, SOC_CAMELOT);
    const unsigned cards = rpl__soc_white_upto(p, soc_popcount(there));

    if (cards)
        rpl__soc_fx_push(r, TK_SHARE, cards, SOC_CAMELOT, there);
}

/* own=on: asks the knights one by one, in turn order from origin, about
 * what the card ctx asks; after the last, the table's outcome. */
void
rpl__soc_fx_ask_offer(struct run *r, unsigned ctx, unsigned origin,
                      unsigned after)
{
    struct soc_pub *p = r->p;
    const unsigned next = rpl__soc_ask_next(p, ctx, origin, after);
    unsigned v;

    if (next) {
        rpl__soc_fx_need(r, SOC_N_OFFER, next, ctx, origin, 0);
        return;
    }
    if (ctx == SOC_CONVOCATION) {
        rpl__soc_fx_convocation_share(r);
        return;
    }
    /* Morgan: nobody, the one knight who offered, or the last word. */
    v = soc_popcount(p->offers);
    if (v > 1)
        rpl__soc_fx_need(r, SOC_N_VOLUNTEER, rpl__soc_last_word(p, origin), ctx,
                         origin, 0);
    else
        rpl__soc_fx_volunteered(
            r, ctx, origin, v ? rpl__soc_first_in(p, origin, p->offers) : 0);
}

/* own=on: the next knight asked for his Merlins, or the end of the
 * offers: the last word when three are offered, else the card. */
void
rpl__soc_fx_ask_merlins(struct run *r, unsigned drawer, unsigned after,
                        unsigned total)
{
    struct soc_pub *p = r->p;
    const unsigned next =
        total >= 3 ? 0 : rpl__soc_ask_next(p, SOC_MERLIN, drawer, after);

    if (total >= 3) {
        rpl__soc_fx_need(r, SOC_N_CANCEL, rpl__soc_last_word(p, drawer), 1, 0,
                         0);
    } else if (next) {
        rpl__soc_fx_need(r, SOC_N_MERLINS, next, drawer, total, 0);
    } else {
        rpl__soc_fx_push(r, TK_EFFECT, p->resolving, p->drawer, 0);
        p->resolving = 0;
    }
}

/* ------------------------------------------------------- black cards */

void
rpl__soc_fx_war_figure(struct run *r, unsigned q, unsigned card)
{
    struct soc_war *w = &r->p->war[rpl__soc_war_index(q)];

    w->black[w->nblack++] = (uint8_t)card;
    w->figures = (uint8_t)(w->figures + rpl__soc_card[card].p1);
    if (card == SOC_MORDRED)
        w->mordred = 1;
    if (w->figures >= SOC_WAR_LOSS)
        rpl__soc_fx_push(r, TK_QUEST_END, q, 0, 0);
}

static void
combat_black(struct run *r, unsigned q, unsigned card)
{
    struct soc_combat *cb = q == SOC_BLACK_KNIGHT ? &r->p->bk : &r->p->ld;

    cb->black[cb->nblack++] = (uint8_t)card;
    if (cb->nblack == rpl__soc_quest[q].black_spots)
        rpl__soc_fx_push(r, TK_COMBAT, q, 0, 0);
}

static void
grail_black_card(struct run *r, unsigned card)
{
    struct soc_pub *p = r->p;
    int i;

    if (card == SOC_DESOLATION) {
        /* §8 item 6: the most advanced Grail card goes, then Desolation
         * takes a black spot. */
        i = rpl__soc_grail_last_white(p);
        if (i >= 0) {
            w_table_disc(r, SOC_GRAIL_CARD);
            p->grail[i] = SOC_EMPTY;
        }
    }
    i = rpl__soc_grail_high_free(p);
    if (i >= 0) {
        p->grail[i] = (uint8_t)card;
    } else {
        /* Full: the card removes the nearest Grail card instead. */
        i = rpl__soc_grail_last_white(p);
        if (i >= 0) {
            w_table_disc(r, SOC_GRAIL_CARD);
            p->grail[i] = SOC_EMPTY;
        }
        rpl__soc_fx_b_disc(r, card);
    }
    if (rpl__soc_grail_all(p, true))
        rpl__soc_fx_push(r, TK_QUEST_END, SOC_GRAIL, 0, 0);
}

static void
effect(struct run *r, unsigned card, unsigned drawer)
{
    struct soc_pub *p = r->p;
    const struct soc_card *cd = &rpl__soc_card[card];

    switch ((enum soc_card_id)card) {
    case SOC_BK1:
    case SOC_BK3:
    case SOC_BK5:
    case SOC_BK7:
        combat_black(r, SOC_BLACK_KNIGHT, card);
        break;
    case SOC_LD1:
    case SOC_LD3:
    case SOC_LD5:
    case SOC_LD7:
        if (p->ld_stage < 2)
            combat_black(r, p->ld_stage ? SOC_DRAGON : SOC_LANCELOT, card);
        else
            siege_instead(r, card);
        break;
    case SOC_B_EXCALIBUR:
        if (p->exc_state == 0) {
            rpl__soc_fx_b_disc(r, card);
            p->exc_pos = (uint8_t)(p->exc_pos - cd->p1);
            p->exc_black++;
            if (p->exc_pos == 0)
                rpl__soc_fx_push(r, TK_QUEST_END, SOC_EXCALIBUR, 0, 0);
        } else {
            siege_instead(r, card);
        }
        break;
    case SOC_DESPAIR:
    case SOC_DESOLATION:
        if (p->grail_state == 0)
            grail_black_card(r, card);
        else
            siege_instead(r, card);
        break;
    case SOC_DARK_FOREST:
        if (p->grail_state == 0)
            p->dark_forest = 1;
        else
            siege_instead(r, card);
        break;
    case SOC_B_PICTS:
        rpl__soc_fx_war_figure(r, SOC_PICTS, card);
        break;
    case SOC_B_SAXONS:
        rpl__soc_fx_war_figure(r, SOC_SAXONS, card);
        break;
    case SOC_MERCENARIES:
    case SOC_MORDRED:
        rpl__soc_fx_need(r, SOC_N_WAR, drawer, card, 0, 0);
        break;
    case SOC_MORGAN_SIEGE:
        rpl__soc_fx_b_disc(r, card);
        rpl__soc_fx_siege_add(r, cd->p1);
        break;
    case SOC_MORGAN_DRAW3:
        rpl__soc_fx_b_disc(r, card);
        rpl__soc_fx_push(r, TK_DRAWS, drawer, cd->p1, 0);
        break;
    case SOC_MORGAN_LIFE:
        rpl__soc_fx_b_disc(r, card);
        for (unsigned k = 1; k <= p->n; k++)
            if (soc_living(p, k))
                p->seat[k].lp =
                    (uint8_t)rpl__soc_lp_add(p->seat[k].lp, -(int)cd->p1);
        rpl__soc_fx_settle(r);
        break;
    case SOC_MORGAN_DISCARD:
    case SOC_MORGAN_VOLUNTEER:
        rpl__soc_fx_b_disc(r, card);
        if (p->own) {
            p->offers = 0;
            rpl__soc_fx_ask_offer(r, card, drawer, 0);
        } else {
            rpl__soc_fx_need(r, SOC_N_VOLUNTEER, drawer, card, 0, 0);
        }
        break;
    case SOC_GUINEVERE:
        rpl__soc_fx_b_disc(r, card);
        for (unsigned k = 1; k <= p->n; k++) {
            if (!soc_living(p, k))
                continue;
            rpl__soc_fx_leave(r, k);
            p->seat[k].loc = SOC_CAMELOT;
        }
        /* White cards left on a solo quest without its knight go too. */
        for (unsigned q = SOC_BLACK_KNIGHT; q <= SOC_LANCELOT; q++) {
            struct soc_combat *cb = q == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;

            if (!rpl__soc_loc_active(p, q))
                continue;
            for (unsigned i = 0; i < cb->nwhite; i++)
                w_table_disc(r, cb->white[i]);
            cb->nwhite = 0;
        }
        if (drawer == p->cur)
            p->turn_over = 1;
        break;
    case SOC_MISTS:
        p->mists = 1;
        break;
    case SOC_VIVIEN:
        p->vivien = 1;
        break;
    case SOC_FIGHT1:
    case SOC_FIGHT2:
    case SOC_FIGHT3:
    case SOC_FIGHT4:
    case SOC_FIGHT5:
    case SOC_GRAIL_CARD:
    case SOC_MERLIN:
    case SOC_CONVOCATION:
    case SOC_FATE:
    case SOC_HEROISM:
    case SOC_LADY:
    case SOC_MESSENGER:
    case SOC_PIETY:
    case SOC_CLAIRVOYANCE:
    case SOC_REINFORCEMENTS:
    case SOC_LOYAL:
    case SOC_TRAITOR:
    case SOC_NCARDS:
        break;
    }
}

/* ------------------------------------------------------------- tasks */

static void
turn_begin(struct run *r)
{
    struct soc_pub *p = r->p;
    const unsigned k = p->cur;

    p->turns++;
    p->used = p->paid = p->sacrificed = p->owe = p->die_after = 0;
    p->swapped = p->looked = p->turn_over = p->completer = 0;
    if (!(p->seat[k].flags & SOC_F_ALIVE)) {
        rpl__soc_fx_push(r, TK_NEXT, 0, 0, 0);
    } else if (p->seat[k].flags & SOC_F_REVEALED) {
        /* §7.3, §8 item 24: the taunt, then the progression of evil. */
        rpl__soc_fx_push(r, TK_TRAITOR_EVIL, 0, 0, 0);
        rpl__soc_fx_need(r, SOC_N_TAUNT, k, 0, 0, 0);
    } else {
        rpl__soc_fx_need(r, SOC_N_EVIL, k, 0, 0, 0);
    }
}

static void
do_task(struct run *r, struct soc_task t)
{
    struct soc_pub *p = r->p;

    switch ((enum task_kind)t.kind) {
    case TK_LOYALTY:
    case TK_BRAVE:
        if (t.a > p->n)
            break;
        rpl__soc_fx_push(r, t.kind, t.a + 1u, 0, 0);
        rpl__soc_fx_need(r, SOC_N_LOYALTY, t.a, 0, 0, 0);
        break;
    case TK_DEAL:
        if (t.a > p->n)
            break;
        rpl__soc_fx_push(r, TK_DEAL, t.a + 1u, 0, 0);
        rpl__soc_fx_push(r, TK_DELIVER, t.a, SOC_DEAL, 0);
        break;
    case TK_POOL:
        if (t.a > p->n)
            break;
        rpl__soc_fx_push(r, TK_POOL, t.a + 1u, 0, 0);
        if (p->seat[t.a].hand_n)
            rpl__soc_fx_need(r, SOC_N_POOL, t.a, 0, 0, 0);
        break;
    case TK_ALLOT:
        if (p->npool)
            rpl__soc_fx_need(r, SOC_N_ALLOT, p->first, 0, 0, 0);
        else
            rpl__soc_fx_push(r, TK_TURN, 0, 0, 0);
        break;
    case TK_TURN:
        turn_begin(r);
        break;
    case TK_EVIL:
        rpl__soc_fx_need(r, SOC_N_EVIL, p->cur, 0, 0, 0);
        break;
    case TK_EVIL_DONE:
        if (!soc_living(p, p->cur) || p->turn_over)
            rpl__soc_fx_push(r, TK_NEXT, 0, 0, 0);
        else
            rpl__soc_fx_need(r, SOC_N_HEROIC, p->cur, 0, 0, 0);
        break;
    case TK_TRAITOR_EVIL:
        rpl__soc_fx_need(r, SOC_N_EVIL, p->cur, 1, 0, 0);
        break;
    case TK_HEROIC:
        if (p->die_after && p->die_after == p->cur && !p->owe) {
            /* The action bought with the last life point is done. */
            p->die_after = 0;
            rpl__soc_fx_push(r, TK_HEROIC, 0, 0, 0);
            rpl__soc_fx_push(r, TK_DEATHS, 0, 0, 0);
        } else if (!soc_living(p, p->cur)) {
            rpl__soc_fx_push(r, TK_NEXT, 0, 0, 0);
        } else {
            rpl__soc_fx_need(r, SOC_N_HEROIC, p->cur, 0, 0, 0);
        }
        break;
    case TK_NEXT: {
        unsigned k = 0;

        for (unsigned i = 1; i <= p->n && !k; i++) {
            const unsigned s = soc_from(p, p->cur, i);

            if (p->seat[s].flags & SOC_F_ALIVE)
                k = s;
        }
        if (!k) {
            r->rc = rpl__err(r->err, RPL_E_STATE, r->line,
                             "no knight is left to play");
            break;
        }
        p->cur = (uint8_t)k;
        rpl__soc_fx_push(r, TK_TURN, 0, 0, 0);
        break;
    }
    case TK_DRAWS: {
        unsigned avail;

        if (!t.b || !(p->seat[t.a].flags & SOC_F_ALIVE))
            break;
        rpl__soc_fx_push(r, TK_DRAWS, t.a, t.b - 1u, 0);
        avail = rpl__soc_black_avail(p);
        if (!avail)
            break;
        rpl__soc_fx_need(
            r, SOC_N_BLACK, t.a,
            rpl__soc_relic_held_by(p, SOC_ARMOR, t.a) && avail >= 2 ? 2 : 1, 0,
            0);
        break;
    }
    case TK_RESOLVE: {
        p->resolving = t.a;
        p->drawer = t.b;
        if (rpl__soc_card[t.a].kind == SOC_STANDARD) {
            const unsigned h = rpl__soc_relic_holder(p, SOC_REL_EXCALIBUR);

            if (h) {
                rpl__soc_fx_need(r, SOC_N_CANCEL, h, 0, 0, 0);
                break;
            }
        } else if (rpl__soc_merlins_possible(p) && p->own) {
            memset(p->offered, 0, sizeof(p->offered));
            rpl__soc_fx_ask_merlins(r, t.b, 0, 0);
            break;
        } else if (rpl__soc_merlins_possible(p)) {
            rpl__soc_fx_need(r, SOC_N_CANCEL,
                             rpl__soc_first_in(p, t.b, rpl__soc_living_mask(p)),
                             1, 0, 0);
            break;
        }
        rpl__soc_fx_push(r, TK_EFFECT, t.a, t.b, 0);
        break;
    }
    case TK_EFFECT:
        p->resolving = 0;
        effect(r, t.a, t.b);
        break;
    case TK_COMBAT: {
        const unsigned kay = rpl__soc_kay_seat(p, t.a);

        rpl__soc_fx_push(r, TK_COMBAT_RESULT, t.a, 0, t.c);
        if (kay)
            rpl__soc_fx_need(r, SOC_N_KAY, kay, t.a, 0, 0);
        break;
    }
    case TK_COMBAT_RESULT: {
        unsigned w, b, completer = t.c;

        rpl__soc_combat_totals(p, t.a, &w, &b);
        if (!completer)
            completer =
                rpl__soc_first_in(p, p->cur, rpl__soc_present_mask(p, t.a));
        rpl__soc_fx_push(r, TK_QUEST_END, t.a, w > b, completer);
        break;
    }
    case TK_SIEGE: {
        const unsigned kay = rpl__soc_kay_seat(p, SOC_CAMELOT);

        rpl__soc_fx_push(r, TK_SIEGE_RESULT, t.a, 0, 0);
        if (kay)
            rpl__soc_fx_need(r, SOC_N_KAY, kay, SOC_CAMELOT, 0, 0);
        break;
    }
    case TK_SIEGE_RESULT: {
        unsigned sum = 0;

        for (unsigned v = 0; v < 5; v++) {
            sum += p->fight[v] * (v + 1u);
            for (unsigned i = 0; i < p->fight[v]; i++)
                w_table_disc(r, v);
            p->fight[v] = 0;
        }
        if (p->kay_card) {
            sum += soc_fight_value(p->kay_card - 1u);
            w_table_disc(r, p->kay_card - 1u);
            p->kay_card = 0;
        }
        if (rpl__soc_relic_held_by(p, SOC_REL_EXCALIBUR, t.a))
            sum += 1;
        if (sum > p->roll) {
            if (p->siege)
                p->siege--;
        } else if (soc_living(p, t.a)) {
            p->seat[t.a].lp = (uint8_t)rpl__soc_lp_add(p->seat[t.a].lp, -1);
            rpl__soc_fx_settle(r);
        }
        p->roll = 0;
        break;
    }
    case TK_QUEST_END:
        rpl__soc_fx_need(r, SOC_N_QUEST, 0, t.a, t.b, t.c);
        break;
    case TK_SHARE: {
        const unsigned present = t.c & rpl__soc_living_mask(p);

        if (!present)
            break;
        if (soc_popcount(present) == 1)
            rpl__soc_fx_push(r, TK_DELIVER, rpl__soc_first_in(p, 1, present),
                             t.a, 0);
        else
            rpl__soc_fx_need(r, SOC_N_SHARE,
                             rpl__soc_first_in(p, p->cur, present), t.a, t.b,
                             present);
        break;
    }
    case TK_DELIVER:
        if (rpl__soc_white_upto(p, t.b) && soc_living(p, t.a))
            rpl__soc_fx_need(r, SOC_N_WHITE, t.a, rpl__soc_white_upto(p, t.b),
                             0, 0);
        break;
    case TK_EACH_DRAW:
    case TK_EACH_DISCARD: {
        const unsigned k = rpl__soc_first_in(p, t.a, t.c);

        if (!k)
            break;
        rpl__soc_fx_push(r, t.kind, t.a, t.b, t.c & ~soc_bit(k));
        if (!soc_living(p, k))
            break;
        if (t.kind == TK_EACH_DRAW)
            rpl__soc_fx_push(r, TK_DELIVER, k, t.b, 0);
        else if (p->seat[k].hand_n)
            rpl__soc_fx_need(r, SOC_N_DISCARD, k,
                             t.b < p->seat[k].hand_n ? t.b : p->seat[k].hand_n,
                             0, 0);
        break;
    }
    case TK_DEATHS: {
        unsigned k = 0, h;

        for (unsigned i = 0; i < p->n && !k; i++) {
            const unsigned s = soc_from(p, p->cur, i);

            if (soc_living(p, s) && p->seat[s].lp == 0 && s != p->die_after)
                k = s;
        }
        if (!k)
            break;
        rpl__soc_fx_push(r, TK_DEATHS, 0, 0, 0);
        h = rpl__soc_relic_holder(p, SOC_REL_GRAIL);
        if (h)
            rpl__soc_fx_need(r, SOC_N_SAVE, h, k, 0, 0);
        else
            rpl__soc_fx_need(r, SOC_N_DIES, k, 0, 0, 0);
        break;
    }
    case TK_DIE:
        if (soc_living(p, t.a) && p->seat[t.a].lp == 0)
            rpl__soc_fx_need(r, SOC_N_DIES, t.a, 0, 0, 0);
        break;
    case TK_SURVIVOR:
        if (!p->traitor && soc_living(p, t.a) &&
            soc_popcount(rpl__soc_living_mask(p)) == 1 &&
            !(p->seat[t.a].flags & SOC_F_LOYAL))
            rpl__soc_fx_need(r, SOC_N_SHOWS, t.a, SOC_SHOWS_LAST, 0, 0);
        break;
    case TK_END:
        if (t.b == SOC_R_MAJORITY && p->traitor_on && !p->traitor && !p->flip) {
            rpl__soc_fx_need(r, SOC_N_FLIP, 0, 0, 0, 0);
        } else {
            unsigned w = t.a;

            if (t.b == SOC_R_MAJORITY)
                w = p->swords_w > p->swords_b ? SOC_W_KNIGHTS : SOC_W_EVIL;
            rpl__soc_fx_need(r, SOC_N_END, 0, w, t.b, 0);
        }
        break;
    }
}

void
rpl__soc_fx_run(struct run *r)
{
    struct soc_pub *p = r->p;

    while (r->rc == RPL_OK && p->need.kind == SOC_N_NONE && p->ntask > 0) {
        const struct soc_task t = p->task[--p->ntask];

        do_task(r, t);
    }
    if (r->rc == RPL_OK && p->need.kind == SOC_N_NONE &&
        p->phase == SOC_PH_PLAY)
        r->rc = rpl__err(r->err, RPL_E_STATE, r->line,
                         "the rules engine has nothing left to do");
}
