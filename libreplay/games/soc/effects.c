/*
 * effects.c - what a validated line of Shadows over Camelot does: its
 * effects change the board and push tasks, and run() works through the
 * tasks until a line is due again.  The tasks form a stack, so an effect
 * that needs a decision (a window to cancel a black card, Kay's extra
 * card, the Grail saving a dying knight) pushes it on top of what
 * remains.  Every card that moves is an event (struct soc_ev): played on
 * the hidden half at once in a knowing state, else journaled.
 *
 * After every effect that can end the game, settle() checks the end
 * conditions in the order of §7.5 and §8 item 25: 12 siege engines, 7
 * black swords, no loyal knight alive, 12 swords.  Once the end is
 * decided, every pending task is dropped and only the flip and the end
 * line remain.
 */
#include <string.h>

#include "soc.h"

enum task_kind {
    TK_LOYALTY = 1, /* a: seat */
    TK_DEAL,        /* a: seat */
    TK_POOL,        /* a: seat */
    TK_ALLOT,
    TK_TURN,
    TK_EVIL,      /* the progression of evil is still to choose */
    TK_EVIL_DONE, /* then the heroic actions */
    TK_TRAITOR_EVIL,
    TK_HEROIC,
    TK_NEXT,
    TK_DRAWS,   /* a: drawer, b: cards left to draw */
    TK_RESOLVE, /* a: card, b: drawer */
    TK_EFFECT,  /* a: card, b: drawer */
    TK_COMBAT,  /* a: quest */
    TK_COMBAT_RESULT,
    TK_SIEGE,        /* a: fighter */
    TK_SIEGE_RESULT, /* a: fighter */
    TK_QUEST_END,    /* a: quest, b: won, c: completer */
    TK_SHARE,        /* a: cards, b: quest, c: present mask */
    TK_DELIVER,      /* a: seat, b: cards */
    TK_EACH_DRAW,    /* a: from, b: cards, c: seats left (mask) */
    TK_EACH_DISCARD, /* a: from, b: cards, c: seats left (mask) */
    TK_DEATHS,
    TK_DIE,      /* a: seat */
    TK_SURVIVOR, /* a: seat */
    TK_END,      /* a: winner, b: reason */
    TK_BRAVE     /* 3-player variant: loyalty lines, a: seat */
};

/* One line being applied. */
struct run {
    struct soc_state *st;
    struct soc_pub *p;
    const struct rpl__env *env;
    const uint8_t *seed;
    size_t line;
    struct rpl_error *err;
    enum rpl_status rc;
};

/* ---------------------------------------------------------- the stack */

static void
push(struct run *r, unsigned kind, unsigned a, unsigned b, unsigned c)
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

static void
need(struct run *r, unsigned kind, unsigned seat, unsigned a, unsigned b,
     unsigned c)
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

static void
ev(struct run *r, unsigned kind, unsigned a, unsigned b, unsigned c)
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
static void
w_to_table(struct run *r, unsigned k, unsigned card)
{
    r->p->seat[k].hand_n--;
    r->p->wtable[card]++;
    ev(r, SOC_EV_WPLAY, k, card, 0);
}

static void
w_to_disc(struct run *r, unsigned k, unsigned card)
{
    r->p->seat[k].hand_n--;
    r->p->wdisc[card]++;
    ev(r, SOC_EV_WPLAY, k, card, 1);
}

static void
w_table_disc(struct run *r, unsigned card)
{
    r->p->wtable[card]--;
    r->p->wdisc[card]++;
    ev(r, SOC_EV_WDISC, 0, card, 0);
}

static void
w_table_hand(struct run *r, unsigned k, unsigned card)
{
    r->p->wtable[card]--;
    r->p->seat[k].hand_n++;
    ev(r, SOC_EV_WTAKE, k, card, 0);
}

static void
w_dump(struct run *r, unsigned k)
{
    r->p->wdisc_unknown = (uint8_t)(r->p->wdisc_unknown + r->p->seat[k].hand_n);
    r->p->seat[k].hand_n = 0;
    ev(r, SOC_EV_WDUMP, k, 0, 0);
}

static void
b_disc(struct run *r, unsigned card)
{
    r->p->btable[card - SOC_B0]--;
    r->p->bdisc[card - SOC_B0]++;
    ev(r, SOC_EV_BDISC, 0, card, 0);
}

/* Both discard piles go under their decks when a deck holds fewer than
 * k cards that are about to be drawn or looked at (§3.5, §8 item 26). */
static void
ensure(struct run *r, bool white, unsigned k)
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
    ev(r, SOC_EV_RESHUFFLE, 0, 0, 0);
}

/* A knight leaves his place: leaving a solo quest discards the white
 * cards played there (§3.2). */
static void
leave(struct run *r, unsigned k)
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

static void
end_game(struct run *r, unsigned winner, unsigned reason)
{
    struct soc_pub *p = r->p;

    p->ending = 1;
    p->ntask = 0;
    push(r, TK_END, winner, reason, 0);
}

/* The end conditions; true when the game is ending (the caller stops).
 * Also notices the 3-player variant's moment and pending deaths. */
static bool
settle(struct run *r)
{
    struct soc_pub *p = r->p;
    const unsigned living = rpl__soc_living_mask(p);

    if (p->ending)
        return true;
    if (p->siege >= SOC_ENGINES_LOSS) {
        end_game(r, SOC_W_EVIL, SOC_R_SIEGE);
        return true;
    }
    if (p->swords_b >= SOC_BLACK_LOSS) {
        end_game(r, SOC_W_EVIL, SOC_R_BLACK);
        return true;
    }
    if (!living) {
        end_game(r, SOC_W_EVIL, SOC_R_DEATHS);
        return true;
    }
    if (p->swords_w + p->swords_b >= SOC_SWORDS_END) {
        end_game(r, SOC_W_NONE, SOC_R_MAJORITY);
        return true;
    }
    if (p->brave && !p->brave_due &&
        (p->swords_w + p->swords_b >= SOC_BRAVE_AT ||
         p->siege >= SOC_BRAVE_AT)) {
        p->brave_due = 1;
        push(r, TK_BRAVE, 1, 0, 0);
    }
    for (unsigned k = 1; k <= p->n; k++)
        if ((living & soc_bit(k)) && p->seat[k].lp == 0 && k != p->die_after) {
            push(r, TK_DEATHS, 0, 0, 0);
            break;
        }
    return false;
}

/* The last knight alive may be the traitor (§7.5 item 3): the table
 * learns which. */
static void
survivor_check(struct run *r)
{
    struct soc_pub *p = r->p;
    const unsigned living = rpl__soc_living_mask(p);

    if (p->ending || !p->traitor_on || p->traitor || soc_popcount(living) != 1)
        return;
    for (unsigned k = 1; k <= p->n; k++)
        if ((living & soc_bit(k)) && !(p->seat[k].flags & SOC_F_LOYAL))
            push(r, TK_SURVIVOR, k, 0, 0);
}

/* §7.3: the revealed traitor leaves the board, loses his white cards and
 * the Excalibur and Grail relics, keeps the Armor. */
static void
reveal_traitor(struct run *r, unsigned k)
{
    struct soc_pub *p = r->p;

    leave(r, k);
    p->seat[k].flags |= SOC_F_REVEALED;
    p->seat[k].loc = SOC_NOWHERE;
    p->seat[k].lp = 0;
    p->traitor = (uint8_t)k;
    if (p->die_after == k)
        p->die_after = 0;
    w_dump(r, k);
    if (rpl__soc_relic_held_by(p, SOC_REL_EXCALIBUR, k))
        p->relic[SOC_REL_EXCALIBUR] = SOC_RELIC_BOX;
    if (rpl__soc_relic_held_by(p, SOC_REL_GRAIL, k))
        p->relic[SOC_REL_GRAIL] = SOC_RELIC_BOX;
}

static void
siege_add(struct run *r, unsigned n)
{
    for (unsigned i = 0; i < n && !r->p->ending; i++) {
        r->p->siege++;
        settle(r);
    }
}

/* A black card whose quest is over: a siege engine instead (§3.3). */
static void
siege_instead(struct run *r, unsigned card)
{
    b_disc(r, card);
    siege_add(r, 1);
}

/* ------------------------------------------------------- quest ends */

static void
clear_combat(struct run *r, struct soc_combat *cb)
{
    for (unsigned i = 0; i < cb->nwhite; i++)
        w_table_disc(r, cb->white[i]);
    for (unsigned i = 0; i < cb->nblack; i++)
        b_disc(r, cb->black[i]);
    memset(cb, 0, sizeof(*cb));
}

static void
clear_war(struct run *r, struct soc_war *w)
{
    for (unsigned i = 0; i < w->nwhite; i++)
        w_table_disc(r, w->white[i]);
    for (unsigned i = 0; i < w->nblack; i++)
        b_disc(r, w->black[i]);
    memset(w, 0, sizeof(*w));
}

/* §4.0: swords, siege engines, life points, relic, the quest's cards,
 * the return to Camelot, the reward cards. */
static void
quest_end(struct run *r, unsigned q, bool won, unsigned completer)
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
    if (settle(r))
        return;
    if (!won)
        siege_add(r, d->lose_engines);
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
            b_disc(r, SOC_VIVIEN);
        }
        if (p->dark_forest) {
            p->dark_forest = 0;
            b_disc(r, SOC_DARK_FOREST);
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
                b_disc(r, p->grail[i]);
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
            push(r, TK_SHARE, cards, q, present);
    }
    settle(r);
}

/* ------------------------------------------------ decisions (S-41) */

/* Morgan's volunteer named (0: nobody): his discards or his life points,
 * else every knight discards, in turn order from the drawer. */
static void
volunteered(struct run *r, unsigned card, unsigned drawer, unsigned v)
{
    struct soc_pub *p = r->p;

    if (!v) {
        push(r, TK_EACH_DISCARD, drawer, rpl__soc_card[card].p2,
             rpl__soc_living_mask(p));
    } else if (card == SOC_MORGAN_DISCARD) {
        need(r, SOC_N_DISCARD, v, rpl__soc_card[card].p1, 0, 0);
    } else {
        p->seat[v].lp = (uint8_t)rpl__soc_lp_add(p->seat[v].lp,
                                                 -(int)rpl__soc_card[card].p1);
        settle(r);
    }
}

/* Those gathered in Camelot draw as many cards as they are, shared
 * (S-09). */
static void
convocation_share(struct run *r)
{
    struct soc_pub *p = r->p;
    const unsigned there = rpl__soc_present_mask(p, SOC_CAMELOT);
    const unsigned cards = rpl__soc_white_upto(p, soc_popcount(there));

    if (cards)
        push(r, TK_SHARE, cards, SOC_CAMELOT, there);
}

/* own=on: asks the knights one by one, in turn order from origin, about
 * what the card ctx asks; after the last, the table's outcome. */
static void
ask_offer(struct run *r, unsigned ctx, unsigned origin, unsigned after)
{
    struct soc_pub *p = r->p;
    const unsigned next = rpl__soc_ask_next(p, ctx, origin, after);
    unsigned v;

    if (next) {
        need(r, SOC_N_OFFER, next, ctx, origin, 0);
        return;
    }
    if (ctx == SOC_CONVOCATION) {
        convocation_share(r);
        return;
    }
    /* Morgan: nobody, the one knight who offered, or the last word. */
    v = soc_popcount(p->offers);
    if (v > 1)
        need(r, SOC_N_VOLUNTEER, rpl__soc_last_word(p, origin), ctx, origin, 0);
    else
        volunteered(r, ctx, origin,
                    v ? rpl__soc_first_in(p, origin, p->offers) : 0);
}

/* own=on: the next knight asked for his Merlins, or the end of the
 * offers: the last word when three are offered, else the card. */
static void
ask_merlins(struct run *r, unsigned drawer, unsigned after, unsigned total)
{
    struct soc_pub *p = r->p;
    const unsigned next =
        total >= 3 ? 0 : rpl__soc_ask_next(p, SOC_MERLIN, drawer, after);

    if (total >= 3) {
        need(r, SOC_N_CANCEL, rpl__soc_last_word(p, drawer), 1, 0, 0);
    } else if (next) {
        need(r, SOC_N_MERLINS, next, drawer, total, 0);
    } else {
        push(r, TK_EFFECT, p->resolving, p->drawer, 0);
        p->resolving = 0;
    }
}

/* ------------------------------------------------------- black cards */

static void
war_figure(struct run *r, unsigned q, unsigned card)
{
    struct soc_war *w = &r->p->war[rpl__soc_war_index(q)];

    w->black[w->nblack++] = (uint8_t)card;
    w->figures = (uint8_t)(w->figures + rpl__soc_card[card].p1);
    if (card == SOC_MORDRED)
        w->mordred = 1;
    if (w->figures >= SOC_WAR_LOSS)
        push(r, TK_QUEST_END, q, 0, 0);
}

static void
combat_black(struct run *r, unsigned q, unsigned card)
{
    struct soc_combat *cb = q == SOC_BLACK_KNIGHT ? &r->p->bk : &r->p->ld;

    cb->black[cb->nblack++] = (uint8_t)card;
    if (cb->nblack == rpl__soc_quest[q].black_spots)
        push(r, TK_COMBAT, q, 0, 0);
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
        b_disc(r, card);
    }
    if (rpl__soc_grail_all(p, true))
        push(r, TK_QUEST_END, SOC_GRAIL, 0, 0);
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
            b_disc(r, card);
            p->exc_pos = (uint8_t)(p->exc_pos - cd->p1);
            p->exc_black++;
            if (p->exc_pos == 0)
                push(r, TK_QUEST_END, SOC_EXCALIBUR, 0, 0);
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
        war_figure(r, SOC_PICTS, card);
        break;
    case SOC_B_SAXONS:
        war_figure(r, SOC_SAXONS, card);
        break;
    case SOC_MERCENARIES:
    case SOC_MORDRED:
        need(r, SOC_N_WAR, drawer, card, 0, 0);
        break;
    case SOC_MORGAN_SIEGE:
        b_disc(r, card);
        siege_add(r, cd->p1);
        break;
    case SOC_MORGAN_DRAW3:
        b_disc(r, card);
        push(r, TK_DRAWS, drawer, cd->p1, 0);
        break;
    case SOC_MORGAN_LIFE:
        b_disc(r, card);
        for (unsigned k = 1; k <= p->n; k++)
            if (soc_living(p, k))
                p->seat[k].lp =
                    (uint8_t)rpl__soc_lp_add(p->seat[k].lp, -(int)cd->p1);
        settle(r);
        break;
    case SOC_MORGAN_DISCARD:
    case SOC_MORGAN_VOLUNTEER:
        b_disc(r, card);
        if (p->own) {
            p->offers = 0;
            ask_offer(r, card, drawer, 0);
        } else {
            need(r, SOC_N_VOLUNTEER, drawer, card, 0, 0);
        }
        break;
    case SOC_GUINEVERE:
        b_disc(r, card);
        for (unsigned k = 1; k <= p->n; k++) {
            if (!soc_living(p, k))
                continue;
            leave(r, k);
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
        push(r, TK_NEXT, 0, 0, 0);
    } else if (p->seat[k].flags & SOC_F_REVEALED) {
        /* §7.3, §8 item 24: the taunt, then the progression of evil. */
        push(r, TK_TRAITOR_EVIL, 0, 0, 0);
        need(r, SOC_N_TAUNT, k, 0, 0, 0);
    } else {
        need(r, SOC_N_EVIL, k, 0, 0, 0);
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
        push(r, t.kind, t.a + 1u, 0, 0);
        need(r, SOC_N_LOYALTY, t.a, 0, 0, 0);
        break;
    case TK_DEAL:
        if (t.a > p->n)
            break;
        push(r, TK_DEAL, t.a + 1u, 0, 0);
        push(r, TK_DELIVER, t.a, SOC_DEAL, 0);
        break;
    case TK_POOL:
        if (t.a > p->n)
            break;
        push(r, TK_POOL, t.a + 1u, 0, 0);
        if (p->seat[t.a].hand_n)
            need(r, SOC_N_POOL, t.a, 0, 0, 0);
        break;
    case TK_ALLOT:
        if (p->npool)
            need(r, SOC_N_ALLOT, p->first, 0, 0, 0);
        else
            push(r, TK_TURN, 0, 0, 0);
        break;
    case TK_TURN:
        turn_begin(r);
        break;
    case TK_EVIL:
        need(r, SOC_N_EVIL, p->cur, 0, 0, 0);
        break;
    case TK_EVIL_DONE:
        if (!soc_living(p, p->cur) || p->turn_over)
            push(r, TK_NEXT, 0, 0, 0);
        else
            need(r, SOC_N_HEROIC, p->cur, 0, 0, 0);
        break;
    case TK_TRAITOR_EVIL:
        need(r, SOC_N_EVIL, p->cur, 1, 0, 0);
        break;
    case TK_HEROIC:
        if (p->die_after && p->die_after == p->cur && !p->owe) {
            /* The action bought with the last life point is done. */
            p->die_after = 0;
            push(r, TK_HEROIC, 0, 0, 0);
            push(r, TK_DEATHS, 0, 0, 0);
        } else if (!soc_living(p, p->cur)) {
            push(r, TK_NEXT, 0, 0, 0);
        } else {
            need(r, SOC_N_HEROIC, p->cur, 0, 0, 0);
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
        push(r, TK_TURN, 0, 0, 0);
        break;
    }
    case TK_DRAWS: {
        unsigned avail;

        if (!t.b || !(p->seat[t.a].flags & SOC_F_ALIVE))
            break;
        push(r, TK_DRAWS, t.a, t.b - 1u, 0);
        avail = rpl__soc_black_avail(p);
        if (!avail)
            break;
        need(r, SOC_N_BLACK, t.a,
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
                need(r, SOC_N_CANCEL, h, 0, 0, 0);
                break;
            }
        } else if (rpl__soc_merlins_possible(p) && p->own) {
            memset(p->offered, 0, sizeof(p->offered));
            ask_merlins(r, t.b, 0, 0);
            break;
        } else if (rpl__soc_merlins_possible(p)) {
            need(r, SOC_N_CANCEL,
                 rpl__soc_first_in(p, t.b, rpl__soc_living_mask(p)), 1, 0, 0);
            break;
        }
        push(r, TK_EFFECT, t.a, t.b, 0);
        break;
    }
    case TK_EFFECT:
        p->resolving = 0;
        effect(r, t.a, t.b);
        break;
    case TK_COMBAT: {
        const unsigned kay = rpl__soc_kay_seat(p, t.a);

        push(r, TK_COMBAT_RESULT, t.a, 0, t.c);
        if (kay)
            need(r, SOC_N_KAY, kay, t.a, 0, 0);
        break;
    }
    case TK_COMBAT_RESULT: {
        unsigned w, b, completer = t.c;

        rpl__soc_combat_totals(p, t.a, &w, &b);
        if (!completer)
            completer =
                rpl__soc_first_in(p, p->cur, rpl__soc_present_mask(p, t.a));
        push(r, TK_QUEST_END, t.a, w > b, completer);
        break;
    }
    case TK_SIEGE: {
        const unsigned kay = rpl__soc_kay_seat(p, SOC_CAMELOT);

        push(r, TK_SIEGE_RESULT, t.a, 0, 0);
        if (kay)
            need(r, SOC_N_KAY, kay, SOC_CAMELOT, 0, 0);
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
            settle(r);
        }
        p->roll = 0;
        break;
    }
    case TK_QUEST_END:
        need(r, SOC_N_QUEST, 0, t.a, t.b, t.c);
        break;
    case TK_SHARE: {
        const unsigned present = t.c & rpl__soc_living_mask(p);

        if (!present)
            break;
        if (soc_popcount(present) == 1)
            push(r, TK_DELIVER, rpl__soc_first_in(p, 1, present), t.a, 0);
        else
            need(r, SOC_N_SHARE, rpl__soc_first_in(p, p->cur, present), t.a,
                 t.b, present);
        break;
    }
    case TK_DELIVER:
        if (rpl__soc_white_upto(p, t.b) && soc_living(p, t.a))
            need(r, SOC_N_WHITE, t.a, rpl__soc_white_upto(p, t.b), 0, 0);
        break;
    case TK_EACH_DRAW:
    case TK_EACH_DISCARD: {
        const unsigned k = rpl__soc_first_in(p, t.a, t.c);

        if (!k)
            break;
        push(r, t.kind, t.a, t.b, t.c & ~soc_bit(k));
        if (!soc_living(p, k))
            break;
        if (t.kind == TK_EACH_DRAW)
            push(r, TK_DELIVER, k, t.b, 0);
        else if (p->seat[k].hand_n)
            need(r, SOC_N_DISCARD, k,
                 t.b < p->seat[k].hand_n ? t.b : p->seat[k].hand_n, 0, 0);
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
        push(r, TK_DEATHS, 0, 0, 0);
        h = rpl__soc_relic_holder(p, SOC_REL_GRAIL);
        if (h)
            need(r, SOC_N_SAVE, h, k, 0, 0);
        else
            need(r, SOC_N_DIES, k, 0, 0, 0);
        break;
    }
    case TK_DIE:
        if (soc_living(p, t.a) && p->seat[t.a].lp == 0)
            need(r, SOC_N_DIES, t.a, 0, 0, 0);
        break;
    case TK_SURVIVOR:
        if (!p->traitor && soc_living(p, t.a) &&
            soc_popcount(rpl__soc_living_mask(p)) == 1 &&
            !(p->seat[t.a].flags & SOC_F_LOYAL))
            need(r, SOC_N_SHOWS, t.a, SOC_SHOWS_LAST, 0, 0);
        break;
    case TK_END:
        if (t.b == SOC_R_MAJORITY && p->traitor_on && !p->traitor && !p->flip) {
            need(r, SOC_N_FLIP, 0, 0, 0, 0);
        } else {
            unsigned w = t.a;

            if (t.b == SOC_R_MAJORITY)
                w = p->swords_w > p->swords_b ? SOC_W_KNIGHTS : SOC_W_EVIL;
            need(r, SOC_N_END, 0, w, t.b, 0);
        }
        break;
    }
}

static void
run(struct run *r)
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

/* ------------------------------------------------------------ effects */

static void
record_choice(struct run *r, unsigned kind, unsigned seat, unsigned n,
              const uint8_t *commit)
{
    struct soc_pub *p = r->p;
    struct soc_choice *ch = &r->st->ch[p->nchoice];

    ch->line = (uint32_t)r->line;
    memcpy(ch->commit, commit, 32);
    if (!p->knows) {
        ch->kind = (uint8_t)kind;
        ch->seat = (uint8_t)seat;
        ch->n = (uint8_t)n;
        ch->known = 0;
        ch->opened = 0;
    }
    p->nchoice++;
}

static void
die(struct run *r, unsigned k)
{
    struct soc_pub *p = r->p;

    leave(r, k);
    p->seat[k].flags &= (uint8_t)~SOC_F_ALIVE;
    p->seat[k].loc = SOC_NOWHERE;
    p->seat[k].lp = 0;
    w_dump(r, k);
    for (unsigned i = 0; i < SOC_NRELICS; i++)
        if (rpl__soc_relic_held_by(p, i, k))
            p->relic[i] = SOC_RELIC_BOX;
    if (p->die_after == k)
        p->die_after = 0;
    if (!settle(r))
        survivor_check(r);
}

static void
perform_special(struct run *r, const struct soc_cmd *cmd)
{
    struct soc_pub *p = r->p;
    const unsigned k = cmd->seat, card = cmd->card;
    const struct soc_card *cd = &rpl__soc_card[card];

    if (card == SOC_HEROISM) {
        w_to_table(r, k, card);
        p->heroism = (uint8_t)(cmd->loc + 1u);
        return;
    }
    w_to_disc(r, k, card);
    switch (card) {
    case SOC_MERLIN:
        switch (cmd->loc) {
        case SOC_CAMELOT:
            p->siege--;
            break;
        case SOC_BLACK_KNIGHT:
        case SOC_LANCELOT:
        case SOC_DRAGON: {
            struct soc_combat *cb =
                cmd->loc == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;

            cb->nblack--;
            b_disc(r, cb->black[cb->nblack]);
            break;
        }
        case SOC_EXCALIBUR:
            p->exc_pos++;
            p->exc_black--;
            if (p->exc_pos >= SOC_EXC_WIN)
                push(r, TK_QUEST_END, SOC_EXCALIBUR, 1, k);
            break;
        case SOC_GRAIL: {
            const int i = rpl__soc_grail_first_black(p);

            b_disc(r, p->grail[i]);
            p->grail[i] = SOC_EMPTY;
            break;
        }
        default: {
            struct soc_war *w = &p->war[rpl__soc_war_index(cmd->loc)];
            unsigned j = w->nblack;

            while (j-- > 0 && w->black[j] == SOC_MORDRED)
                ;
            const unsigned x = w->black[j];

            for (unsigned i = j; i + 1u < w->nblack; i++)
                w->black[i] = w->black[i + 1];
            w->nblack--;
            w->figures = (uint8_t)(w->figures - rpl__soc_card[x].p1);
            b_disc(r, x);
            break;
        }
        }
        break;
    case SOC_CONVOCATION:
        if (cmd->opt == SOC_O_ASK) {
            /* own=on: each knight away says whether he comes back. */
            ask_offer(r, SOC_CONVOCATION, k, 0);
            break;
        }
        for (unsigned i = 0; i < cmd->nseats; i++) {
            leave(r, cmd->seats[i]);
            p->seat[cmd->seats[i]].loc = SOC_CAMELOT;
        }
        convocation_share(r);
        break;
    case SOC_FATE:
        if (p->traitor_on)
            need(r, SOC_N_SHOWS, k, SOC_SHOWS_FATE, 0, 0);
        else
            push(r, TK_EACH_DRAW, k, cd->p1, rpl__soc_living_mask(p));
        break;
    case SOC_LADY:
        if (p->exc_state == 0) {
            p->exc_pos = (uint8_t)(p->exc_pos + cd->p1);
            if (p->exc_pos >= SOC_EXC_WIN)
                push(r, TK_QUEST_END, SOC_EXCALIBUR, 1, k);
        } else {
            p->seat[k].lp = (uint8_t)rpl__soc_lp_add(p->seat[k].lp, cd->p2);
        }
        break;
    case SOC_MESSENGER:
        record_choice(r, SOC_CH_GIVE, k, cmd->num, cmd->commit);
        p->seat[k].hand_n = (uint8_t)(p->seat[k].hand_n - cmd->num);
        p->seat[cmd->seat2].hand_n =
            (uint8_t)(p->seat[cmd->seat2].hand_n + cmd->num);
        ev(r, SOC_EV_WSECRET, k, 0, cmd->seat2);
        break;
    case SOC_PIETY:
        if (cmd->opt == SOC_O_SELF)
            p->seat[k].lp = (uint8_t)rpl__soc_lp_add(p->seat[k].lp, cd->p1);
        else
            for (unsigned t = 1; t <= p->n; t++)
                if (t != k && soc_living(p, t))
                    p->seat[t].lp =
                        (uint8_t)rpl__soc_lp_add(p->seat[t].lp, cd->p2);
        break;
    case SOC_CLAIRVOYANCE: {
        const unsigned avail = rpl__soc_black_avail(p);

        need(r, SOC_N_TOP, k, avail < cd->p1 ? avail : cd->p1, 1, 0);
        break;
    }
    case SOC_REINFORCEMENTS:
        if (cmd->opt == SOC_O_SELF)
            push(r, TK_DELIVER, k, cd->p1, 0);
        else
            push(r, TK_EACH_DRAW, k, cd->p2,
                 rpl__soc_living_mask(p) & ~soc_bit(k));
        break;
    default:
        break;
    }
}

static void
perform_heroic(struct run *r, const struct soc_cmd *cmd)
{
    struct soc_pub *p = r->p;
    const unsigned k = cmd->seat;
    const unsigned type = rpl__soc_action_type(cmd->kw);

    if (cmd->kw == SOC_K_DONE) {
        /* A life point sacrificed and no action taken: it is lost all
         * the same, and the last one kills. */
        push(r, TK_NEXT, 0, 0, 0);
        if (p->die_after == k) {
            p->die_after = 0;
            push(r, TK_DEATHS, 0, 0, 0);
        }
        return;
    }
    if (type) {
        if (!rpl__soc_is_free(p, cmd)) {
            p->paid++;
            p->owe = 0;
        }
        p->used |= (uint8_t)type;
    }
    push(r, TK_HEROIC, 0, 0, 0);
    switch (cmd->kw) {
    case SOC_K_MOVE:
        leave(r, k);
        p->seat[k].loc = cmd->loc;
        break;
    case SOC_K_DRAW:
        push(r, TK_DELIVER, k, p->seat[k].knight == SOC_GAWAIN ? 3 : 2, 0);
        break;
    case SOC_K_SIEGE:
        for (unsigned i = 0; i < cmd->ncards; i++) {
            w_to_table(r, k, cmd->cards[i]);
            p->fight[cmd->cards[i]]++;
        }
        push(r, TK_SIEGE, k, 0, 0);
        need(r, SOC_N_ROLL, k, 0, 0, 0);
        break;
    case SOC_K_PLAY: {
        const unsigned q = p->seat[k].loc, card = cmd->card;

        p->completer = (uint8_t)k;
        switch (q) {
        case SOC_BLACK_KNIGHT:
        case SOC_LANCELOT:
        case SOC_DRAGON: {
            struct soc_combat *cb = q == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;

            w_to_table(r, k, card);
            cb->white[cb->nwhite++] = (uint8_t)card;
            if (cb->nwhite == rpl__soc_quest[q].white_spots)
                push(r, TK_COMBAT, q, 0, k);
            break;
        }
        case SOC_EXCALIBUR:
            w_to_disc(r, k, card);
            p->exc_pos++;
            if (p->exc_pos >= SOC_EXC_WIN)
                push(r, TK_QUEST_END, SOC_EXCALIBUR, 1, k);
            break;
        case SOC_GRAIL: {
            const int i = rpl__soc_grail_low_free(p);

            if (i >= 0) {
                w_to_table(r, k, card);
                p->grail[i] = SOC_GRAIL_CARD;
                if (rpl__soc_grail_all(p, false))
                    push(r, TK_QUEST_END, SOC_GRAIL, 1, k);
            } else {
                const int j = rpl__soc_grail_first_black(p);

                b_disc(r, p->grail[j]);
                p->grail[j] = SOC_EMPTY;
                w_to_disc(r, k, card);
            }
            break;
        }
        default: {
            struct soc_war *w = &p->war[rpl__soc_war_index(q)];

            w_to_table(r, k, card);
            w->white[w->nwhite++] = (uint8_t)card;
            if (!rpl__soc_war_next(w))
                push(r, TK_QUEST_END, q, 1, k);
            break;
        }
        }
        break;
    }
    case SOC_K_SPECIAL:
        perform_special(r, cmd);
        break;
    case SOC_K_HEAL:
        for (unsigned i = 0; i < SOC_HEAL_SAME; i++)
            w_to_disc(r, k, cmd->card);
        p->seat[k].lp++;
        break;
    case SOC_K_ACCUSE:
        p->seat[k].flags |= SOC_F_ACCUSED;
        need(r, SOC_N_SHOWS, cmd->seat2, SOC_SHOWS_ACCUSED, k, 0);
        break;
    case SOC_K_SACRIFICE:
        p->seat[k].lp--;
        p->sacrificed = 1;
        p->owe = 1;
        if (!p->seat[k].lp)
            p->die_after = (uint8_t)k;
        break;
    case SOC_K_SWAP:
        p->swapped = 1;
        record_choice(r, SOC_CH_SWAP, k, 1, cmd->commit);
        p->seat[k].hand_n--;
        p->seat[cmd->seat2].hand_n++;
        ev(r, SOC_EV_WSECRET, k, 0, cmd->seat2);
        need(r, SOC_N_SWAP_BACK, cmd->seat2, k, 0, 0);
        break;
    default:
        break;
    }
}

static void
perform_start(struct run *r, const struct soc_cmd *cmd)
{
    struct soc_pub *p = r->p;

    p->start_line = (uint32_t)r->line;
    p->phase = SOC_PH_PLAY;
    p->first = p->cur = cmd->seat;
    for (unsigned k = 1; k <= p->n; k++) {
        struct soc_seat *s = &p->seat[k];

        s->knight = cmd->cards[k - 1];
        s->lp = SOC_LP_START;
        s->loc = SOC_CAMELOT;
        s->flags = SOC_F_ALIVE;
        s->hand_n = 1; /* the Merlin each knight is given */
    }
    p->wpile_n = (uint8_t)(SOC_NWHITE - p->n);
    p->bpile_n = SOC_NBLACK;
    for (unsigned c = 0; c < SOC_NBT; c++)
        p->bpile[c] = rpl__soc_card[SOC_B0 + c].count;
    p->wshuffles = p->bshuffles = 1;
    push(r, TK_ALLOT, 0, 0, 0);
    push(r, TK_POOL, 1, 0, 0);
    push(r, TK_DEAL, 1, 0, 0);
    if (p->traitor_on && !p->brave)
        push(r, TK_LOYALTY, 1, 0, 0);
}

static void
perform(struct run *r, const struct soc_cmd *cmd, const struct soc_need *nd)
{
    struct soc_state *st = r->st;
    struct soc_pub *p = r->p;
    const unsigned k = cmd->seat;

    if (cmd->kw == SOC_K_END) {
        p->winner = cmd->winner;
        p->reason = cmd->num;
        p->phase = SOC_PH_OVER;
        p->end_line = (uint32_t)r->line;
        p->ntask = 0;
        return;
    }
    switch ((enum soc_need_kind)nd->kind) {
    case SOC_N_START:
        perform_start(r, cmd);
        break;
    case SOC_N_LOYALTY:
        memcpy(st->loyalty_commit[k], cmd->commit, 32);
        p->loyalty_line[k] = (uint32_t)r->line;
        p->loyalty_n++;
        break;
    case SOC_N_WHITE:
        ensure(r, true, cmd->num);
        p->wpile_n = (uint8_t)(p->wpile_n - cmd->num);
        p->seat[k].hand_n = (uint8_t)(p->seat[k].hand_n + cmd->num);
        memcpy(st->dv[p->ndeliv].commit, cmd->commit, 32);
        p->ndeliv++;
        ev(r, SOC_EV_WDRAW, k, cmd->num, 0);
        break;
    case SOC_N_TOP:
        ensure(r, false, cmd->num);
        memcpy(st->dv[p->ndeliv].commit, cmd->commit, 32);
        p->ndeliv++;
        ev(r, SOC_EV_BLOOK, k, cmd->num, 0);
        if (nd->b)
            need(r, SOC_N_ORDER, k, cmd->num, 0, 0);
        break;
    case SOC_N_BLACK:
        ensure(r, false, cmd->ncards);
        for (unsigned i = 0; i < cmd->ncards; i++) {
            const unsigned c = cmd->cards[i];

            p->bpile[c - SOC_B0]--;
            p->bpile_n--;
            p->btable[c - SOC_B0]++;
            ev(r, SOC_EV_BDRAW, 0, c, 0);
        }
        if (cmd->ncards == 2) {
            p->drawn[0] = cmd->cards[0];
            p->drawn[1] = cmd->cards[1];
            p->ndrawn = 2;
            need(r, SOC_N_KEEP, k, 0, 0, 0);
        } else {
            push(r, TK_RESOLVE, cmd->cards[0], k, 0);
        }
        break;
    case SOC_N_ROLL:
        p->roll = cmd->num;
        ev(r, SOC_EV_ROLL, 0, cmd->num, 0);
        break;
    case SOC_N_TAUNTED:
        p->seat[k].hand_n--;
        p->wdisc[cmd->card]++;
        ev(r, SOC_EV_WTAUNT, k, cmd->card, 0);
        break;
    case SOC_N_SHOWS: {
        const bool traitor = cmd->opt == SOC_O_TRAITOR;

        ev(r, SOC_EV_LOYAL, k, traitor, 0);
        if (!traitor)
            p->seat[k].flags |= SOC_F_LOYAL;
        switch (nd->a) {
        case SOC_SHOWS_ACCUSED:
            if (traitor) {
                reveal_traitor(r, k);
                p->swords_w++;
            } else if (p->swords_w) {
                p->swords_w--;
                p->swords_b++;
            } else {
                p->swords_b++;
            }
            settle(r);
            break;
        case SOC_SHOWS_FATE:
            if (traitor) {
                reveal_traitor(r, k);
                push(r, TK_EACH_DISCARD, k, rpl__soc_card[SOC_FATE].p2,
                     rpl__soc_living_mask(p));
            } else {
                push(r, TK_EACH_DRAW, k, rpl__soc_card[SOC_FATE].p1,
                     rpl__soc_living_mask(p));
            }
            settle(r);
            break;
        default:
            if (traitor) {
                p->seat[k].flags |= SOC_F_REVEALED;
                p->traitor = (uint8_t)k;
                end_game(r, SOC_W_EVIL, SOC_R_DEATHS);
            }
            break;
        }
        break;
    }
    case SOC_N_QUEST:
        quest_end(r, nd->a, nd->b, nd->c);
        break;
    case SOC_N_DIES:
        die(r, k);
        break;
    case SOC_N_FLIP: {
        unsigned flip = p->swords_w < 2 ? p->swords_w : 2u;

        if (cmd->seat) {
            ev(r, SOC_EV_LOYAL, cmd->seat, 1, 0);
            p->flip = cmd->seat;
            p->traitor = cmd->seat;
            p->seat[cmd->seat].flags |= SOC_F_REVEALED;
            p->swords_w = (uint8_t)(p->swords_w - flip);
            p->swords_b = (uint8_t)(p->swords_b + flip);
        } else {
            ev(r, SOC_EV_NOTRAITOR, 0, 0, 0);
            p->flip = SOC_FLIP_NONE;
        }
        push(r, TK_END, 0, SOC_R_MAJORITY, 0);
        break;
    }
    case SOC_N_END:
        break;
    case SOC_N_POOL:
        w_to_table(r, k, cmd->card);
        p->pool[p->npool++] = cmd->card;
        p->poolers = (uint8_t)(p->poolers | soc_bit(k));
        break;
    case SOC_N_ALLOT:
        if (cmd->opt == SOC_O_RANDOM) {
            /* No agreement: one card each, at random (S-36). */
            need(r, SOC_N_REDEAL, 0, 0, 0, 0);
            break;
        }
        /* fall through */
    case SOC_N_REDEAL:
        for (unsigned i = 0; i < p->npool; i++) {
            if (cmd->kw == SOC_K_REDEAL)
                ev(r, SOC_EV_REDEAL, i, cmd->seats[i], 0);
            w_table_hand(r, cmd->seats[i], p->pool[i]);
        }
        p->npool = 0;
        p->cur = p->first;
        push(r, TK_TURN, 0, 0, 0);
        break;
    case SOC_N_EVIL:
        if (cmd->kw == SOC_K_LOOK) {
            p->looked = 1;
            push(r, TK_EVIL, 0, 0, 0);
            need(r, SOC_N_TOP, k, 1, 0, 0);
        } else if (cmd->kw == SOC_K_SWAP) {
            p->swapped = 1;
            record_choice(r, SOC_CH_SWAP, k, 1, cmd->commit);
            p->seat[k].hand_n--;
            p->seat[cmd->seat2].hand_n++;
            ev(r, SOC_EV_WSECRET, k, 0, cmd->seat2);
            push(r, TK_EVIL, 0, 0, 0);
            need(r, SOC_N_SWAP_BACK, cmd->seat2, k, 0, 0);
        } else {
            push(r, nd->a ? TK_NEXT : TK_EVIL_DONE, 0, 0, 0);
            if (cmd->opt == SOC_O_BLACK) {
                push(r, TK_DRAWS, k, 1, 0);
            } else if (cmd->opt == SOC_O_SIEGE) {
                siege_add(r, 1);
            } else {
                p->seat[k].lp--;
                settle(r);
            }
        }
        break;
    case SOC_N_TAUNT:
        if (cmd->seat2)
            need(r, SOC_N_TAUNTED, cmd->seat2, 0, 0, 0);
        break;
    case SOC_N_KEEP: {
        const unsigned other =
            cmd->card == p->drawn[0] ? p->drawn[1] : p->drawn[0];

        p->btable[other - SOC_B0]--;
        p->bpile[other - SOC_B0]++;
        p->bpile_n++;
        ev(r, SOC_EV_BBOTTOM, 0, other, 0);
        p->ndrawn = 0;
        push(r, TK_RESOLVE, cmd->card, k, 0);
        break;
    }
    case SOC_N_CANCEL:
        if (cmd->kw == SOC_K_PASS) {
            push(r, TK_EFFECT, p->resolving, p->drawer, 0);
        } else {
            if (cmd->opt == SOC_O_EXCALIBUR)
                p->relic[SOC_REL_EXCALIBUR] = SOC_RELIC_BOX;
            else
                for (unsigned i = 0; i < cmd->nseats; i++)
                    w_to_disc(r, cmd->seats[i], SOC_MERLIN);
            b_disc(r, p->resolving);
        }
        p->resolving = 0;
        break;
    case SOC_N_WAR:
        war_figure(r, cmd->loc, nd->a);
        break;
    case SOC_N_VOLUNTEER:
        /* The drawer writes it (own=off), or the last word (own=on). */
        volunteered(r, nd->a, p->own ? nd->b : k, cmd->seat2);
        break;
    case SOC_N_MERLINS:
        p->offered[k] = (uint8_t)(p->offered[k] + cmd->num);
        if (cmd->num)
            ev(r, SOC_EV_WHOLD, k, SOC_MERLIN, p->offered[k]);
        ask_merlins(r, nd->a, k, nd->b + cmd->num);
        break;
    case SOC_N_OFFER:
        if (cmd->opt == SOC_O_YES) {
            p->offers = (uint8_t)(p->offers | soc_bit(k));
            if (nd->a == SOC_CONVOCATION) {
                leave(r, k);
                p->seat[k].loc = SOC_CAMELOT;
            }
        }
        ask_offer(r, nd->a, nd->b, k);
        break;
    case SOC_N_DISCARD:
        for (unsigned i = 0; i < cmd->ncards; i++)
            w_to_disc(r, k, cmd->cards[i]);
        break;
    case SOC_N_HEROIC:
        perform_heroic(r, cmd);
        break;
    case SOC_N_SWAP_BACK:
        record_choice(r, SOC_CH_SWAP, k, 1, cmd->commit);
        p->seat[k].hand_n--;
        p->seat[nd->a].hand_n++;
        ev(r, SOC_EV_WSECRET, k, 0, nd->a);
        break;
    case SOC_N_ORDER:
        record_choice(r, SOC_CH_ORDER, k, nd->a, cmd->commit);
        ev(r, SOC_EV_BORDER, k, 0, 0);
        break;
    case SOC_N_KAY:
        if (cmd->kw == SOC_K_KAY) {
            w_to_table(r, k, cmd->card);
            p->kay_card = (uint8_t)(cmd->card + 1u);
        }
        break;
    case SOC_N_SAVE:
        if (cmd->kw == SOC_K_SAVE) {
            p->relic[SOC_REL_GRAIL] = SOC_RELIC_BOX;
            p->seat[nd->a].lp = SOC_SAVE_LP;
        } else {
            push(r, TK_DIE, nd->a, 0, 0);
        }
        break;
    case SOC_N_SHARE:
        for (unsigned i = cmd->nseats; i-- > 0;)
            if (cmd->counts[i])
                push(r, TK_DELIVER, cmd->seats[i], cmd->counts[i], 0);
        break;
    case SOC_N_NONE:
        break;
    }
}

enum rpl_status
rpl__soc_effects(struct soc_state *st, const struct soc_cmd *cmd,
                 const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    struct soc_need nd;
    struct run r;

    r.st = st;
    r.p = &st->p;
    r.env = env;
    r.seed = env ? env->seed : NULL;
    r.line = line;
    r.err = err;
    r.rc = RPL_OK;
    nd = st->p.need;
    memset(&st->p.need, 0, sizeof(st->p.need));
    perform(&r, cmd, &nd);
    if (st->p.phase != SOC_PH_OVER)
        run(&r);
    return r.rc;
}
