/*
 * rules.c - the rules engine of Shadows over Camelot
 * (rules/shadows-over-camelot.md): what the next line may be, and what a
 * line does.
 *
 * The state waits for one kind of line at a time (struct soc_need).  A
 * line is first validated against the state (rpl__soc_validate, which
 * changes nothing and serves the seeded players too), then applied: its
 * effects change the board and push tasks, and run() works through the
 * tasks until a line is needed again.  The tasks form a stack, so an
 * effect that needs a decision (a window to cancel a black card, Kay's
 * extra card, the Grail saving a dying knight) simply pushes it on top of
 * what remains to do.
 *
 * After every effect that can end the game, settle() checks the end
 * conditions in the order of §7.5 and §8 item 25: 12 siege engines, 7
 * black swords, no loyal knight alive, 12 swords.  Once the end is
 * decided, every pending task is dropped and only the flip and the end
 * line remain.
 *
 * What the next line is depends only on public information and on the
 * lines themselves, never on a secret: a verifier without the seed and
 * the dealer with it expect the same kinds of lines.  Secrets enter as
 * the content of dealer lines (which card was drawn, who is the traitor),
 * which a knowing state checks at once and a public state keeps as a
 * claim for the reveal.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "soc.h"

#define EMPTY SOC_NCARDS /* an empty Grail spot */

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

/* ------------------------------------------------------------ helpers */

static unsigned
bitk(unsigned k)
{
    return 1u << k;
}

static unsigned
popcount(unsigned m)
{
    unsigned c = 0;

    for (; m; m &= m - 1)
        c++;
    return c;
}

static unsigned
white_avail(const struct soc_pub *p)
{
    unsigned n = p->wpile_n + p->wdisc_unknown;

    for (unsigned c = 0; c < SOC_NWT; c++)
        n += p->wdisc[c];
    return n;
}

static unsigned
black_avail(const struct soc_pub *p)
{
    unsigned n = p->bpile_n;

    for (unsigned c = 0; c < SOC_NBT; c++)
        n += p->bdisc[c];
    return n;
}

/* Living knights (not dead, not the revealed traitor) as a mask. */
static unsigned
living_mask(const struct soc_pub *p)
{
    unsigned m = 0;

    for (unsigned k = 1; k <= p->n; k++)
        if (soc_living(p, k))
            m |= bitk(k);
    return m;
}

static unsigned
present_mask(const struct soc_pub *p, unsigned loc)
{
    unsigned m = 0;

    for (unsigned k = 1; k <= p->n; k++)
        if (soc_living(p, k) && p->seat[k].loc == loc)
            m |= bitk(k);
    return m;
}

/* The first seat of mask in turn order from `from`, 0 when empty. */
static unsigned
first_in(const struct soc_pub *p, unsigned from, unsigned mask)
{
    for (unsigned i = 0; i < p->n; i++) {
        const unsigned k = soc_from(p, from, i);

        if (mask & bitk(k))
            return k;
    }
    return 0;
}

static unsigned
lp_add(unsigned lp, int d)
{
    const int v = (int)lp + d;

    return v < 0 ? 0u : v > SOC_LP_MAX ? SOC_LP_MAX : (unsigned)v;
}

static bool
relic_held_by(const struct soc_pub *p, unsigned relic, unsigned k)
{
    return p->relic[relic] == k && k >= 1 && k <= SOC_MAX_SEATS;
}

/* The holder of a relic if that knight is living, else 0. */
static unsigned
relic_holder(const struct soc_pub *p, unsigned relic)
{
    const unsigned k = p->relic[relic];

    return k >= 1 && k <= p->n && soc_living(p, k) ? k : 0;
}

static bool
grail_black(unsigned c)
{
    return c != EMPTY && soc_is_black(c);
}

static int
grail_low_free(const struct soc_pub *p)
{
    for (int i = 0; i < SOC_GRAIL_SPOTS; i++)
        if (p->grail[i] == EMPTY)
            return i;
    return -1;
}

static int
grail_high_free(const struct soc_pub *p)
{
    for (int i = SOC_GRAIL_SPOTS - 1; i >= 0; i--)
        if (p->grail[i] == EMPTY)
            return i;
    return -1;
}

/* The most advanced Grail card (nearest evil's end). */
static int
grail_last_white(const struct soc_pub *p)
{
    for (int i = SOC_GRAIL_SPOTS - 1; i >= 0; i--)
        if (p->grail[i] == SOC_GRAIL_CARD)
            return i;
    return -1;
}

/* The black card nearest the Grail. */
static int
grail_first_black(const struct soc_pub *p)
{
    for (int i = 0; i < SOC_GRAIL_SPOTS; i++)
        if (grail_black(p->grail[i]))
            return i;
    return -1;
}

static bool
grail_all(const struct soc_pub *p, bool black)
{
    for (int i = 0; i < SOC_GRAIL_SPOTS; i++)
        if (black ? !grail_black(p->grail[i]) : p->grail[i] != SOC_GRAIL_CARD)
            return false;
    return true;
}

static const struct soc_combat *
combat_of(const struct soc_pub *p, unsigned q)
{
    return q == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;
}

static unsigned
war_index(unsigned q)
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
    if (rpl__soc_quest[loc].is_solo && present_mask(p, loc))
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
    const struct soc_combat *cb = combat_of(p, q);
    unsigned w = 0, b = 0;
    const unsigned holder = relic_holder(p, SOC_REL_EXCALIBUR);

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
static bool
pattern_ok(unsigned q, const uint8_t *cards, unsigned n)
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
static unsigned
war_next(const struct soc_war *w)
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
        const struct soc_combat *cb = combat_of(p, q);
        uint8_t vals[10];

        if (!rpl__soc_loc_active(p, q) || !soc_is_fight(card) ||
            cb->nwhite >= rpl__soc_quest[q].white_spots)
            return false;
        memcpy(vals, cb->white, cb->nwhite);
        vals[cb->nwhite] = (uint8_t)card;
        return pattern_ok(q, vals, cb->nwhite + 1u);
    }
    case SOC_EXCALIBUR:
        return p->exc_state == 0 && soc_is_white(card);
    case SOC_GRAIL:
        return p->grail_state == 0 && !p->dark_forest && card == SOC_GRAIL_CARD;
    case SOC_PICTS:
    case SOC_SAXONS:
        return soc_is_fight(card) &&
               soc_fight_value(card) == war_next(&p->war[war_index(q)]);
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
static bool
holds_list(const struct soc_state *st, unsigned k, const uint8_t *cards,
           unsigned n, unsigned *missing)
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
static bool
merlins_possible(const struct soc_pub *p)
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
static bool
merlin_target_ok(const struct soc_pub *p, unsigned loc)
{
    switch (loc) {
    case SOC_CAMELOT:
        return p->siege > 0;
    case SOC_BLACK_KNIGHT:
    case SOC_LANCELOT:
    case SOC_DRAGON:
        return rpl__soc_loc_active(p, loc) && combat_of(p, loc)->nblack > 0;
    case SOC_EXCALIBUR:
        return p->exc_state == 0 && p->exc_black > 0;
    case SOC_GRAIL: {
        const int i = grail_first_black(p);

        return p->grail_state == 0 && i >= 0 && p->grail[i] == SOC_DESPAIR;
    }
    case SOC_PICTS:
    case SOC_SAXONS: {
        const struct soc_war *w = &p->war[war_index(loc)];

        for (unsigned i = 0; i < w->nblack; i++)
            if (w->black[i] != SOC_MORDRED)
                return true;
        return false;
    }
    default:
        return false;
    }
}

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
    const unsigned living = living_mask(p);

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
        if ((living & bitk(k)) && p->seat[k].lp == 0 && k != p->die_after) {
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
    const unsigned living = living_mask(p);

    if (p->ending || !p->traitor_on || p->traitor || popcount(living) != 1)
        return;
    for (unsigned k = 1; k <= p->n; k++)
        if ((living & bitk(k)) && !(p->seat[k].flags & SOC_F_LOYAL))
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
    if (relic_held_by(p, SOC_REL_EXCALIBUR, k))
        p->relic[SOC_REL_EXCALIBUR] = SOC_RELIC_BOX;
    if (relic_held_by(p, SOC_REL_GRAIL, k))
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

/* The relic of a quest won goes to the knight who completed it. */
static unsigned
relic_to(const struct soc_pub *p, unsigned q, unsigned completer)
{
    if (!rpl__soc_quest[q].relic)
        return 0;
    return completer && soc_living(p, completer) ? completer : 0;
}

/* §4.0: swords, siege engines, life points, relic, the quest's cards,
 * the return to Camelot, the reward cards. */
static void
quest_end(struct run *r, unsigned q, bool won, unsigned completer)
{
    struct soc_pub *p = r->p;
    const struct soc_quest *d = &rpl__soc_quest[q];
    const unsigned present = present_mask(p, q);
    const unsigned swords = rpl__soc_quest_swords(p, q, won);
    const unsigned holder = relic_to(p, q, completer);

    if (won)
        p->swords_w = (uint8_t)(p->swords_w + swords);
    else
        p->swords_b = (uint8_t)(p->swords_b + swords);
    if (p->heroism == q + 1u) {
        w_table_disc(r, SOC_HEROISM);
        p->heroism = 0;
    }
    if (settle(r))
        return;
    if (!won)
        siege_add(r, d->lose_engines);
    if (p->ending)
        return;
    for (unsigned k = 1; k <= p->n; k++) {
        if (!(present & bitk(k)))
            continue;
        if (won)
            p->seat[k].lp = (uint8_t)lp_add(
                p->seat[k].lp,
                d->win_lp + (p->seat[k].knight == SOC_PALAMEDES ? 1 : 0));
        else
            p->seat[k].lp = (uint8_t)lp_add(p->seat[k].lp, -(int)d->lose_lp);
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
        p->exc_state = won ? 1 : 2;
        break;
    case SOC_GRAIL:
        for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++) {
            if (p->grail[i] == SOC_GRAIL_CARD)
                w_table_disc(r, SOC_GRAIL_CARD);
            else if (grail_black(p->grail[i]))
                b_disc(r, p->grail[i]);
            p->grail[i] = EMPTY;
        }
        p->grail_state = won ? 1 : 2;
        break;
    default:
        clear_war(r, &p->war[war_index(q)]);
        break;
    }
    for (unsigned k = 1; k <= p->n; k++)
        if (present & bitk(k))
            p->seat[k].loc = SOC_CAMELOT;
    if (won && present) {
        const unsigned cards =
            d->win_cards < white_avail(p) ? d->win_cards : white_avail(p);

        if (popcount(present) == 1)
            push(r, TK_DELIVER, first_in(p, 1, present), cards, 0);
        else if (cards)
            push(r, TK_SHARE, cards, q, present);
    }
    settle(r);
}

/* ------------------------------------------------------- black cards */

static void
war_figure(struct run *r, unsigned q, unsigned card)
{
    struct soc_war *w = &r->p->war[war_index(q)];

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
        i = grail_last_white(p);
        if (i >= 0) {
            w_table_disc(r, SOC_GRAIL_CARD);
            p->grail[i] = EMPTY;
        }
    }
    i = grail_high_free(p);
    if (i >= 0) {
        p->grail[i] = (uint8_t)card;
    } else {
        /* Full: the card removes the nearest Grail card instead. */
        i = grail_last_white(p);
        if (i >= 0) {
            w_table_disc(r, SOC_GRAIL_CARD);
            p->grail[i] = EMPTY;
        }
        b_disc(r, card);
    }
    if (grail_all(p, true))
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
                p->seat[k].lp = (uint8_t)lp_add(p->seat[k].lp, -(int)cd->p1);
        settle(r);
        break;
    case SOC_MORGAN_DISCARD:
    case SOC_MORGAN_VOLUNTEER:
        b_disc(r, card);
        need(r, SOC_N_VOLUNTEER, drawer, card, 0, 0);
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
        avail = black_avail(p);
        if (!avail)
            break;
        need(r, SOC_N_BLACK, t.a,
             relic_held_by(p, SOC_ARMOR, t.a) && avail >= 2 ? 2 : 1, 0, 0);
        break;
    }
    case TK_RESOLVE: {
        p->resolving = t.a;
        p->drawer = t.b;
        if (rpl__soc_card[t.a].kind == SOC_STANDARD) {
            const unsigned h = relic_holder(p, SOC_REL_EXCALIBUR);

            if (h) {
                need(r, SOC_N_CANCEL, h, 0, 0, 0);
                break;
            }
        } else if (merlins_possible(p)) {
            need(r, SOC_N_CANCEL, first_in(p, t.b, living_mask(p)), 1, 0, 0);
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
            completer = first_in(p, p->cur, present_mask(p, t.a));
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
        if (relic_held_by(p, SOC_REL_EXCALIBUR, t.a))
            sum += 1;
        if (sum > p->roll) {
            if (p->siege)
                p->siege--;
        } else if (soc_living(p, t.a)) {
            p->seat[t.a].lp = (uint8_t)lp_add(p->seat[t.a].lp, -1);
            settle(r);
        }
        p->roll = 0;
        break;
    }
    case TK_QUEST_END:
        need(r, SOC_N_QUEST, 0, t.a, t.b, t.c);
        break;
    case TK_SHARE: {
        const unsigned present = t.c & living_mask(p);

        if (!present)
            break;
        if (popcount(present) == 1)
            push(r, TK_DELIVER, first_in(p, 1, present), t.a, 0);
        else
            need(r, SOC_N_SHARE, first_in(p, p->cur, present), t.a, t.b,
                 present);
        break;
    }
    case TK_DELIVER: {
        const unsigned avail = white_avail(p);
        const unsigned m = t.b < avail ? t.b : avail;

        if (m && soc_living(p, t.a))
            need(r, SOC_N_WHITE, t.a, m, 0, 0);
        break;
    }
    case TK_EACH_DRAW:
    case TK_EACH_DISCARD: {
        const unsigned k = first_in(p, t.a, t.c);

        if (!k)
            break;
        push(r, t.kind, t.a, t.b, t.c & ~bitk(k));
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
        h = relic_holder(p, SOC_REL_GRAIL);
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
            popcount(living_mask(p)) == 1 &&
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

    if (!holds_list(st, k, cards, n, &missing)) {
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

static const char *const choice_tok[] = {"", "swap", "give", "order"};

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
    snprintf(label, sizeof(label), "%s %u p%u", choice_tok[kind], i + 1u, seat);
    if (!ch->known || ch->kind != kind || ch->seat != seat)
        return rpl__err(err, RPL_E_STATE, line,
                        "the value of \"%s\" is not known", label);
    if (!env->seed)
        return rpl__err(err, RPL_E_STATE, line,
                        "a knowing state needs the seed");
    choice_value(value, sizeof(value), ch);
    rpl__commit(c, NULL, env->seed, env->id, label, value);
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

static unsigned
action_type(unsigned kw)
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

static bool
is_free(const struct soc_pub *p, const struct soc_cmd *cmd)
{
    const struct soc_seat *s = &p->seat[cmd->seat];

    return (cmd->kw == SOC_K_MOVE && s->knight == SOC_TRISTAN &&
            s->loc == SOC_CAMELOT) ||
           (cmd->kw == SOC_K_SPECIAL && s->knight == SOC_GALAHAD);
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
        if (!merlin_target_ok(p, cmd->loc))
            return bad(err, line, "no black card for Merlin to cancel at %s",
                       rpl__soc_quest[cmd->loc].tok);
        return RPL_OK;
    case SOC_CONVOCATION:
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
        if (!black_avail(p))
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
        const struct soc_combat *cb = combat_of(p, q);
        uint8_t vals[10];

        if (!soc_is_fight(card))
            return bad(err, line, "%s needs fight cards",
                       rpl__soc_quest[q].tok);
        if (cb->nwhite >= rpl__soc_quest[q].white_spots)
            return bad(err, line, "the knights' side is full");
        memcpy(vals, cb->white, cb->nwhite);
        vals[cb->nwhite] = (uint8_t)card;
        if (!pattern_ok(q, vals, cb->nwhite + 1u))
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
        const unsigned want = war_next(&p->war[war_index(q)]);

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
    const unsigned type = action_type(cmd->kw);

    if (type) {
        if (p->used & type)
            return bad(err, line, "a second %s in one turn", type_name(type));
        if (!is_free(p, cmd) && p->paid >= 1u + p->sacrificed)
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

            if (seen & bitk(kn))
                return bad(err, line, "%s is dealt twice",
                           rpl__soc_knight[kn].tok);
            seen |= bitk(kn);
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
                        tok_of(st->h.loyalty[nd->seat]));
            if (sodium_memcmp(c, cmd->commit, 32) != 0)
                return rpl__err(err, RPL_E_FAIRNESS, line,
                                "%s does not match its commitment", label);
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
        const unsigned relic = won ? relic_to(p, q, nd->c) : 0;

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
            if (!black_avail(p))
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
        if (cmd->opt == SOC_O_BLACK && !black_avail(p))
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
    case SOC_N_SHARE: {
        unsigned sum = 0, seen = 0, i = 0;

        for (unsigned j = 0; j < p->n; j++) {
            const unsigned s = soc_from(p, p->cur, j);

            if (!(nd->c & bitk(s)))
                continue;
            if (i >= cmd->nseats || cmd->seats[i] != s)
                return bad(err, line,
                           "share lists every knight present in "
                           "turn order from p%u",
                           p->cur);
            sum += cmd->counts[i];
            seen |= bitk(s);
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
        if (relic_held_by(p, i, k))
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
            const int i = grail_first_black(p);

            b_disc(r, p->grail[i]);
            p->grail[i] = EMPTY;
            break;
        }
        default: {
            struct soc_war *w = &p->war[war_index(cmd->loc)];
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
        for (unsigned i = 0; i < cmd->nseats; i++) {
            leave(r, cmd->seats[i]);
            p->seat[cmd->seats[i]].loc = SOC_CAMELOT;
        }
        push(r, TK_EACH_DRAW, k, 1, present_mask(p, SOC_CAMELOT));
        break;
    case SOC_FATE:
        if (p->traitor_on)
            need(r, SOC_N_SHOWS, k, SOC_SHOWS_FATE, 0, 0);
        else
            push(r, TK_EACH_DRAW, k, cd->p1, living_mask(p));
        break;
    case SOC_LADY:
        if (p->exc_state == 0) {
            p->exc_pos = (uint8_t)(p->exc_pos + cd->p1);
            if (p->exc_pos >= SOC_EXC_WIN)
                push(r, TK_QUEST_END, SOC_EXCALIBUR, 1, k);
        } else {
            p->seat[k].lp = (uint8_t)lp_add(p->seat[k].lp, cd->p2);
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
            p->seat[k].lp = (uint8_t)lp_add(p->seat[k].lp, cd->p1);
        else
            for (unsigned t = 1; t <= p->n; t++)
                if (t != k && soc_living(p, t))
                    p->seat[t].lp = (uint8_t)lp_add(p->seat[t].lp, cd->p2);
        break;
    case SOC_CLAIRVOYANCE: {
        const unsigned avail = black_avail(p);

        need(r, SOC_N_TOP, k, avail < cd->p1 ? avail : cd->p1, 1, 0);
        break;
    }
    case SOC_REINFORCEMENTS:
        if (cmd->opt == SOC_O_SELF)
            push(r, TK_DELIVER, k, cd->p1, 0);
        else
            push(r, TK_EACH_DRAW, k, cd->p2, living_mask(p) & ~bitk(k));
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
    const unsigned type = action_type(cmd->kw);

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
        if (!is_free(p, cmd)) {
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
            const int i = grail_low_free(p);

            if (i >= 0) {
                w_to_table(r, k, card);
                p->grail[i] = SOC_GRAIL_CARD;
                if (grail_all(p, false))
                    push(r, TK_QUEST_END, SOC_GRAIL, 1, k);
            } else {
                const int j = grail_first_black(p);

                b_disc(r, p->grail[j]);
                p->grail[j] = EMPTY;
                w_to_disc(r, k, card);
            }
            break;
        }
        default: {
            struct soc_war *w = &p->war[war_index(q)];

            w_to_table(r, k, card);
            w->white[w->nwhite++] = (uint8_t)card;
            if (!war_next(w))
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
                     living_mask(p));
            } else {
                push(r, TK_EACH_DRAW, k, rpl__soc_card[SOC_FATE].p1,
                     living_mask(p));
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
        break;
    case SOC_N_ALLOT:
        for (unsigned i = 0; i < p->npool; i++)
            w_table_hand(r, cmd->seats[i], p->pool[i]);
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
        if (!cmd->seat2) {
            push(r, TK_EACH_DISCARD, k, rpl__soc_card[nd->a].p2,
                 living_mask(p));
        } else if (nd->a == SOC_MORGAN_DISCARD) {
            need(r, SOC_N_DISCARD, cmd->seat2, rpl__soc_card[nd->a].p1, 0, 0);
        } else {
            p->seat[cmd->seat2].lp = (uint8_t)lp_add(
                p->seat[cmd->seat2].lp, -(int)rpl__soc_card[nd->a].p1);
            settle(r);
        }
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

/* The saved core of a state: restored when a line is refused. */
struct core {
    struct soc_pub p;
    struct soc_hid h;
    struct soc_rng r;
};

enum rpl_status
rpl__soc_exec(struct soc_state *st, const struct soc_cmd *cmd,
              const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    struct core save;
    struct soc_need nd;
    struct run r;
    enum rpl_status rc;

    rc = rpl__soc_validate(st, cmd, env, line, err);
    if (rc != RPL_OK)
        return rc;
    memcpy(&save.p, &st->p, sizeof(save.p));
    memcpy(&save.h, &st->h, sizeof(save.h));
    memcpy(&save.r, &st->r, sizeof(save.r));
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
    if (r.rc != RPL_OK) {
        memcpy(&st->p, &save.p, sizeof(save.p));
        memcpy(&st->h, &save.h, sizeof(save.h));
        memcpy(&st->r, &save.r, sizeof(save.r));
    }
    sodium_memzero(&save, sizeof(save));
    return r.rc;
}

void
rpl__soc_begin(struct soc_state *st)
{
    st->p.phase = SOC_PH_READY;
    st->p.exc_pos = SOC_EXC_START;
    for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++)
        st->p.grail[i] = EMPTY;
    memset(&st->p.need, 0, sizeof(st->p.need));
    st->p.need.kind = SOC_N_START;
}

/* ------------------------------------------------------- the dealer */

bool
rpl__soc_expected(const struct soc_state *st, const uint8_t seed[32],
                  struct soc_cmd *cmd, char *label, size_t label_cap,
                  char *value, size_t value_cap)
{
    const struct soc_pub *p = &st->p;
    const struct soc_need *nd = &p->need;
    uint8_t cards[SOC_MAX_LIST];

    if (!p->knows || !seed || p->phase == SOC_PH_OVER ||
        !soc_is_dealer_need(nd->kind))
        return false;
    memset(cmd, 0, sizeof(*cmd));
    label[0] = '\0';
    value[0] = '\0';
    cmd->seat = nd->seat;
    switch (nd->kind) {
    case SOC_N_START:
        cmd->kw = SOC_K_START;
        cmd->ncards = p->n;
        for (unsigned k = 1; k <= p->n; k++)
            cmd->cards[k - 1] = st->h.knight[k];
        cmd->seat = st->h.first;
        break;
    case SOC_N_LOYALTY:
        cmd->kw = SOC_K_LOYALTY;
        snprintf(label, label_cap, "loyalty p%u", nd->seat);
        snprintf(value, value_cap, "%s", tok_of(st->h.loyalty[nd->seat]));
        break;
    case SOC_N_WHITE:
        cmd->kw = SOC_K_WHITE;
        cmd->num = nd->a;
        rpl__soc_white_label(label, label_cap, p->ndeliv, nd->seat);
        rpl__soc_peek_white(st, seed, nd->a, cards);
        rpl__soc_fmt_cards(value, value_cap, cards, nd->a);
        break;
    case SOC_N_TOP:
        cmd->kw = SOC_K_TOP;
        cmd->num = nd->a;
        snprintf(label, label_cap, "top %u p%u", p->ndeliv + 1u, nd->seat);
        rpl__soc_peek_black(st, seed, nd->a, cards);
        rpl__soc_fmt_cards(value, value_cap, cards, nd->a);
        break;
    case SOC_N_BLACK:
        cmd->kw = SOC_K_BLACK;
        cmd->ncards = nd->a;
        rpl__soc_peek_black(st, seed, nd->a, cmd->cards);
        break;
    case SOC_N_ROLL:
        cmd->kw = SOC_K_ROLL;
        cmd->num = (uint8_t)rpl__soc_peek_roll(st);
        break;
    case SOC_N_TAUNTED:
        cmd->kw = SOC_K_TAUNTED;
        cmd->card = (uint8_t)rpl__soc_peek_taunt(st, nd->seat);
        break;
    case SOC_N_SHOWS:
        cmd->kw = SOC_K_SHOWS;
        cmd->opt = st->h.loyalty[nd->seat] == SOC_TRAITOR ? SOC_O_TRAITOR
                                                          : SOC_O_LOYAL;
        break;
    case SOC_N_QUEST:
        cmd->kw = SOC_K_QUEST;
        cmd->loc = nd->a;
        cmd->opt = nd->b ? SOC_O_WON : SOC_O_LOST;
        cmd->num = (uint8_t)rpl__soc_quest_swords(p, nd->a, nd->b);
        cmd->num2 = (uint8_t)(nd->b ? relic_to(p, nd->a, nd->c) : 0);
        break;
    case SOC_N_DIES:
        cmd->kw = SOC_K_DIES;
        break;
    case SOC_N_FLIP:
        cmd->kw = SOC_K_FLIP;
        cmd->seat = st->h.traitor;
        break;
    case SOC_N_END:
        cmd->kw = SOC_K_END;
        cmd->winner = nd->a;
        cmd->num = nd->b;
        break;
    default:
        return false;
    }
    return true;
}
