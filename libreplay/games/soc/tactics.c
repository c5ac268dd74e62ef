/*
 * tactics.c - what the plausible seeded player of Shadows over Camelot
 * makes of a legal move: what its seat knows, and the score of each
 * move from that knowledge (players.c keeps the best).
 *
 * - a loyal knight weighs every card by what it does for the knights (a
 *   Grail card against the Despair on the board, an Excalibur step, the
 *   next card of a war, a pattern he can finish on the Black Knight or
 *   Lancelot, with his chance against the black cards still in the
 *   deck), goes where his hand does most, draws in Camelot when it runs
 *   low, fights siege engines when they pile up (counting those that
 *   the black cards of finished quests will bring), sacrifices a life
 *   point only for an action worth more, chooses the least harmful
 *   progression of evil, cancels the worst black cards, gives cards to
 *   the knights at the quests they serve (the Messenger, King Arthur's
 *   exchange), and accuses the knight whom the table's memory of each
 *   seat's conduct points at (suspect.c) once the odds favour it;
 * - the hidden traitor works as a loyal knight would, at a small table
 *   always, at a large one less often; otherwise he sabotages quietly:
 *   he hoards white cards, sits on the solo quests and loses them with
 *   low cards.  He chooses the most harmful progression of evil that
 *   the table would not call worse than the least harmful one, now and
 *   then dares the worst, answers Morgan and mostly offers his Merlins
 *   as a loyal knight would, and accuses only to win at once.
 *
 * The weights (W_*, traitor_busy()) were measured, not guessed: the
 * knights should win 30 to 50 games in 100 at every table size, as
 * human tables are said to, so that a corpus reaches their victories
 * while evil still wins in each of its ways.  At a small table the loyal
 * knights follow plan.c's plan: some quests left alone, other weights.
 *
 * A player sees the public half of the state, the table's memory of the
 * public lines (suspect.c), its own hand, its own loyalty card once it
 * has looked at it, the black cards it has looked at, and for the
 * table's decisions (three Merlins, a volunteer) what the table says
 * aloud; never another seat's hand or loyalty.
 */
#include <string.h>

#include "soc.h"

/* ---------------------------------------------------------- knowledge */

/* An immediate defeat, or a cost no player accepts. */
#define LOSS SOC_BOT_LOSS

/* The hidden traitor's tendencies, in percent of his decisions: how
 * often he dares the most harmful progression of evil (the table
 * remembers it: suspect.c), keeps his Merlins when a loyal knight would
 * offer them, and how often the revealed traitor sends a siege engine
 * rather than a black card.  A traitor who sabotaged every turn would
 * be caught at once; one who never did would only ever win by the
 * flip.  He accuses only when the white sword his accusation turns
 * black is evil's seventh: a wrong accusation shows him to the table
 * (suspect.c) for a sword, and loses more than it brings (measured: a
 * traitor who accused now and then won no more games).  How often he
 * plays his heroic actions as a loyal knight would depends on the table
 * (rpl__soc_traitor_busy(), plan.c). */
#define TRAITOR_EVIL   8u
#define TRAITOR_MERLIN 70u
#define TRAITOR_SIEGE  50u

/* The loyal knight's weights, in percent of the values below, measured
 * with camelog simulate over 300 games at each table size (the man
 * page's figures): a life point and a siege engine given to the
 * progression of evil, the Round Table's draw, the sacrifice's life
 * point, a siege fight sure to win, a card played (and the move to play
 * it), a move, a Grail card, an Excalibur step, a war's card, a
 * hidden traitor's flip of two swords at the end, Lancelot's quest with
 * a strong hand.  Knights who drew
 * black cards whenever a quest needed them lost by siege; knights who
 * sat in Camelot lost the Grail, and fear of the flip kept them from
 * ending games they led. */
#define W_LIFE      118
#define W_SIEGE     200
#define W_DRAW      175
#define W_SACRIFICE 268
#define W_SURE      61
#define W_PLAY      89
#define W_MOVE      60
#define W_GRAIL     163
#define W_EXCALIBUR 231
#define W_WAR       207
#define W_FLIP      70
#define W_LANCELOT  400

/* The total of a full house that goes for Lancelot (4-4-4-5-5 is 22):
 * weaker hands cost the knights more turns than the quest brings. */
#define LANCELOT_STRONG 20u

/* Turns after which the knights stop holding evil off (games of seeded
 * players last up to some 160 turns). */
#define STALL_TURNS 200u

/* Whether seat k has looked at its loyalty card and holds the traitor:
 * with brave=on the seats look only when the variant says so. */
static bool
knows_traitor(const struct soc_state *st, unsigned k)
{
    const struct soc_pub *p = &st->p;

    return p->traitor_on && st->h.loyalty[k] == SOC_TRAITOR &&
           (!p->brave || p->loyalty_line[k] != 0);
}

/* What losing a life point costs knight k: his last one weighs more
 * where the plan says so (plan.c), and the last knight's is the game. */
static long
life_harm(const struct soc_pub *p, unsigned k)
{
    const unsigned lp = p->seat[k].lp;
    const long w = rpl__soc_plan_weight(p, SOC_PLAN_LAST_LP, 100);

    if (lp != 1 || w == 100)
        return rpl__soc_lp_harm(lp);
    if (rpl__soc_living(p) <= 1)
        return LOSS;
    return rpl__soc_lp_harm(lp) * w / 100;
}

void
rpl__soc_know_init(struct soc_know *kn, const struct soc_state *st,
                   unsigned mood)
{
    const struct soc_pub *p = &st->p;
    const unsigned k = p->need.seat;

    kn->st = st;
    kn->p = p;
    kn->k = k;
    kn->h = st->h.hand[k];
    kn->traitor = knows_traitor(st, k);
    kn->evil = kn->traitor || (p->seat[k].flags & SOC_F_REVEALED);
    kn->mood = mood;
    kn->top = -1;
    /* Sir Percival has just seen the top black card. */
    if (p->need.kind == SOC_N_EVIL && p->looked && p->cur == k && st->h.bn)
        kn->top = st->h.bpile[st->h.bhead];
}

/* What a white card in hand is worth keeping. */
static long keep_base(const struct soc_know *kn, unsigned c);

/* A large hand holds more than the knight can play: each card weighs
 * less. */
static long
keep_value(const struct soc_know *kn, unsigned c)
{
    const long n = kn->p->seat[kn->k].hand_n;

    /* Grail cards are the scarcest: kept for the Grail while it lasts. */
    if (c == SOC_GRAIL_CARD && kn->p->grail_state == 0 &&
        !rpl__soc_plan_leaves(kn, SOC_GRAIL))
        return 150;
    return keep_base(kn, c) * 6 / (n > 6 ? n : 6);
}

static long
keep_base(const struct soc_know *kn, unsigned c)
{
    const struct soc_pub *p = kn->p;

    if (soc_is_fight(c))
        return 20 + 8 * (long)soc_fight_value(c);
    switch (c) {
    case SOC_GRAIL_CARD:
        return p->grail_state == 0 && !rpl__soc_plan_leaves(kn, SOC_GRAIL) ? 70
                                                                           : 0;
    case SOC_MERLIN:
        return 70;
    case SOC_FATE:
    case SOC_PIETY:
        return 40;
    case SOC_HEROISM:
        return 30;
    case SOC_LADY:
        return p->exc_state == 0 ? 60 : 30;
    case SOC_REINFORCEMENTS:
        return 60;
    case SOC_CLAIRVOYANCE:
        return 20;
    default:
        return 10;
    }
}

/* The black cards still in the deck that feed combat quest q: how many,
 * and their total value there (the deck's contents are public). */
static void
combat_pile(const struct soc_pub *p, unsigned q, unsigned *cnt, unsigned *sum)
{
    const unsigned lo = q == SOC_BLACK_KNIGHT ? SOC_BK1 : SOC_LD1;

    *cnt = *sum = 0;
    for (unsigned c = lo; c < lo + 4u; c++) {
        const unsigned v =
            q == SOC_DRAGON ? rpl__soc_card[c].value2 : rpl__soc_card[c].value;

        *cnt += p->bpile[c - SOC_B0];
        *sum += p->bpile[c - SOC_B0] * v;
    }
}

/* The knights' bonuses in a combat at q: the holder of Excalibur there,
 * Sir Kay there with a card (an average fight card). */
static unsigned
combat_bonus(const struct soc_pub *p, unsigned q, unsigned k, unsigned extra)
{
    unsigned b = 0;
    const unsigned x = p->relic[SOC_REL_EXCALIBUR];

    if (x >= 1 && x <= p->n && soc_living(p, x) &&
        (p->seat[x].loc == q || x == k))
        b += 1;
    for (unsigned s = 1; s <= p->n; s++)
        if (soc_living(p, s) && p->seat[s].knight == SOC_KAY &&
            (p->seat[s].loc == q || s == k) && p->seat[s].hand_n > extra)
            b += 3;
    return b;
}

/* The chance, in percent, that the knights win combat quest q when
 * their side ends at total after `left` more cards played one a turn,
 * while evil draws black cards meanwhile. */
static long
combat_chance(const struct soc_know *kn, unsigned q, unsigned total,
              unsigned left)
{
    const struct soc_pub *p = kn->p;
    const struct soc_combat *cb = rpl__soc_combat(p, q);
    const unsigned slots = rpl__soc_quest[q].black_spots - cb->nblack;
    unsigned b = 0, cnt, sum, pile = p->bpile_n ? p->bpile_n : 1;
    long draws, added, final, chance;

    for (unsigned i = 0; i < cb->nblack; i++)
        b += q == SOC_DRAGON ? rpl__soc_card[cb->black[i]].value2
                             : rpl__soc_card[cb->black[i]].value;
    if (left == 0)
        return total > b ? 100 : 0;
    combat_pile(p, q, &cnt, &sum);
    /* Black cards drawn before the last white one, in hundredths: about
     * seven in ten turns draw one. */
    draws = (long)left * p->n * 70 - 50L * p->n;
    added = draws * (long)cnt / (long)pile;
    if (added >= (long)slots * 100)
        return 10; /* evil fills its side first */
    final = (long)b * 100 + (cnt ? added * (long)sum / (long)cnt : 0);
    chance = 50 + ((long)total * 100 - final) * 8 / 100;
    return chance < 5 ? 5 : chance > 95 ? 95 : chance;
}

/* What winning and losing quest q is worth to the knights. */
/* The chance, in percent, that a hidden traitor turns two white swords
 * black at the end, as a loyal knight sees it: one of the loyalty cards
 * nobody has shown, his own excepted, may be the traitor. */
static long
flip_odds(const struct soc_know *kn)
{
    const struct soc_pub *p = kn->p;
    long unknown = 0, shown = 0;

    if (!p->traitor_on || p->traitor)
        return 0;
    for (unsigned k = 1; k <= p->n; k++) {
        if (p->seat[k].flags & SOC_F_LOYAL)
            shown++;
        else
            unknown++;
    }
    if (unknown <= 1)
        return 0;
    /* At three players, by the table's evidence (plan.c). */
    if (rpl__soc_plan_weight(p, SOC_PLAN_FLIP_EVIDENCE, 0))
        return rpl__soc_traitor_evidence(kn) *
               rpl__soc_plan_weight(p, SOC_PLAN_FLIP_EVIDENCE, 0) / 100;
    return 100 * (unknown - 1) / (SOC_NLOYALTY - 1 - shown) *
           rpl__soc_plan_weight(p, SOC_PLAN_FLIP, W_FLIP) / 100;
}

/* The knights' chance in percent to win if the game ended with w more
 * white and b more black swords (the majority, after a possible flip);
 * -1 while it goes on. */
static long
sword_end(const struct soc_know *kn, unsigned w, unsigned b)
{
    const struct soc_pub *p = kn->p;
    const long white = (long)p->swords_w + w, black = (long)p->swords_b + b;
    const long flip = white < 2 ? white : 2, odds = flip_odds(kn);

    if (black >= SOC_BLACK_LOSS)
        return 0;
    if (white + black < SOC_SWORDS_END)
        return -1;
    return (white > black ? 100 - odds : 0) +
           (white - flip > black + flip ? odds : 0);
}

/* The end of the game, in swords: what winning or losing it is worth. */
#define GAME_END 5000L

static long
quest_win(const struct soc_know *kn, unsigned q)
{
    const struct soc_pub *p = kn->p;
    const struct soc_quest *d = &rpl__soc_quest[q];

    const unsigned swords = rpl__soc_quest_swords(p, q, true);
    long v = 100 * (long)swords + 10 * d->win_cards + (d->relic ? 40 : 0);

    if (sword_end(kn, swords, 0) >= 0)
        return (2 * sword_end(kn, swords, 0) - 100) * GAME_END / 100;

    /* Every knight present gains life points: the knights' means of
     * taking the progression of evil on themselves. */
    for (unsigned k = 1; k <= p->n; k++)
        if (soc_living(p, k) && p->seat[k].loc == q) {
            unsigned lp = p->seat[k].lp;

            for (unsigned i = 0; i < d->win_lp && lp < SOC_LP_MAX; i++)
                v += rpl__soc_lp_gain(lp++) * 3 / 2;
        }
    return v + 30 * d->win_lp;
}

/* What n more black swords cost the knights now.  The game ends at 12
 * swords and the knights need more white than black then, after a
 * hidden traitor turns two white swords black: once they would win
 * even if every sword still to come were black, a black sword only
 * brings their victory nearer.  A lead makes it cheaper; the 7th black
 * sword loses at once. */
static long
black_sword(const struct soc_know *kn, unsigned n)
{
    const struct soc_pub *p = kn->p;
    const long end = sword_end(kn, 0, n);
    long lead = (long)p->swords_w - (long)p->swords_b - (long)n, rest;

    if (end >= 0)
        return (100 - 2 * end) * GAME_END / 100 / (long)(n ? n : 1);
    /* The sixth black sword with a white one on the table: a hidden
     * traitor's accusation ends the game; at three players, weighed by
     * the table's evidence (plan.c). */
    if (n && p->swords_w && p->swords_b + n + 1u == SOC_BLACK_LOSS &&
        rpl__soc_plan_weight(p, SOC_PLAN_SIXTH, 0)) {
        const long ev = rpl__soc_traitor_evidence(kn) *
                        rpl__soc_plan_weight(p, SOC_PLAN_SIXTH, 0) / 100;

        if (ev > 0)
            return 100 + ev * GAME_END / 100 / (long)n;
    }
    /* The flip, weighed by its odds. */
    lead -= 4 * flip_odds(kn) / 100;
    rest = SOC_SWORDS_END - (long)p->swords_w - (long)p->swords_b - (long)n;
    if (lead > rest && (long)p->swords_b + (long)n + rest < SOC_BLACK_LOSS)
        return -150;
    if (lead >= 3)
        return 40;
    if (lead >= 1)
        return 70;
    return 100;
}

static long
quest_loss(const struct soc_know *kn, unsigned q)
{
    const struct soc_pub *p = kn->p;
    const struct soc_quest *d = &rpl__soc_quest[q];
    const unsigned swords = rpl__soc_quest_swords(p, q, false);
    long v = (long)swords * black_sword(kn, swords) + 30 * d->lose_lp;

    for (unsigned i = 0; i < d->lose_engines; i++)
        v += rpl__soc_siege_harm(p, p->siege + i) < LOSS
                 ? rpl__soc_siege_harm(p, p->siege + i)
                 : 1000;
    return v;
}

/* A solo combat quest finished by one knight's hand: the pattern's
 * values (need[v] more cards of value v + 1) and the total. */
struct plan {
    unsigned total;
    unsigned left;
    uint8_t need[5];
};

static bool
solo_plan(const struct soc_know *kn, unsigned q, struct plan *pl)
{
    const struct soc_combat *cb = rpl__soc_combat(kn->p, q);
    const unsigned ta = q == SOC_BLACK_KNIGHT ? 2 : 3, tb = 2;
    unsigned cnt[5] = {0};
    bool found = false;

    for (unsigned i = 0; i < cb->nwhite; i++)
        cnt[cb->white[i]]++;
    memset(pl, 0, sizeof(*pl));
    for (unsigned a = 0; a < 5; a++)
        for (unsigned b = 0; b < 5; b++) {
            unsigned na, nb, total;
            bool other = false;

            if (a == b || (q == SOC_BLACK_KNIGHT && a > b))
                continue;
            for (unsigned v = 0; v < 5; v++)
                other |= v != a && v != b && cnt[v];
            if (other || cnt[a] > ta || cnt[b] > tb)
                continue;
            na = ta - cnt[a];
            nb = tb - cnt[b];
            if (kn->h[a] < na || kn->h[b] < nb)
                continue;
            total = ta * (a + 1) + tb * (b + 1);
            if (found && total <= pl->total)
                continue;
            found = true;
            memset(pl->need, 0, sizeof(pl->need));
            pl->need[a] = (uint8_t)na;
            pl->need[b] = (uint8_t)nb;
            pl->total = total;
            pl->left = na + nb;
        }
    return found && pl->left > 0;
}

/* How many fight cards the knight lacks for the best pattern of solo
 * combat quest q (0 when his hand holds one, 5 when q is closed). */
static unsigned
plan_short(const struct soc_know *kn, unsigned q)
{
    const unsigned ta = q == SOC_BLACK_KNIGHT ? 2 : 3, tb = 2;
    unsigned best = 5;

    if (!rpl__soc_loc_open(kn->p, q) || rpl__soc_combat(kn->p, q)->nwhite)
        return 5;
    for (unsigned a = 0; a < 5; a++)
        for (unsigned b = 0; b < 5; b++) {
            unsigned m = 0;

            if (a == b || (q == SOC_BLACK_KNIGHT && a > b) || a + b < 4)
                continue;
            m += kn->h[a] < ta ? ta - kn->h[a] : 0;
            m += kn->h[b] < tb ? tb - kn->h[b] : 0;
            best = m < best ? m : best;
        }
    return best;
}

/* How pressing quest q is, in percent: the chance that evil wins it if
 * the knights leave it alone, sooner rather than later. */
static long
urgency(const struct soc_pub *p, unsigned q)
{
    long u;

    switch (q) {
    case SOC_GRAIL:
        return 30 + 10 * (long)rpl__soc_grail_count(p, true);
    case SOC_EXCALIBUR:
        u = 30 + 12 * ((long)SOC_EXC_START - (long)p->exc_pos);
        return u < 15 ? 15 : u;
    case SOC_PICTS:
    case SOC_SAXONS:
        return 25 + 25 * (long)rpl__soc_war(p, q)->figures;
    case SOC_BLACK_KNIGHT:
        return 50 + 15 * (long)p->bk.nblack;
    case SOC_LANCELOT:
    case SOC_DRAGON:
        return 40 + 12 * (long)p->ld.nblack;
    default:
        return 0;
    }
}

/* What one more white card brings quest q when `need` more finish it:
 * its share of the win and of the loss it keeps away. */
static long
card_share(const struct soc_know *kn, unsigned q, unsigned need)
{
    const struct soc_pub *p = kn->p;
    return (quest_win(kn, q) + quest_loss(kn, q) * urgency(p, q) / 100) /
           (long)(need ? need : 1);
}

/* What the loyal knight gains by playing white card c at quest q now,
 * or -1 when c does nothing for the knights there. */
static long
play_value(const struct soc_know *kn, unsigned q, unsigned c)
{
    const struct soc_pub *p = kn->p;

    if (c >= SOC_NWT || !kn->h[c] || !rpl__soc_play_ok(p, q, c) ||
        rpl__soc_plan_leaves(kn, q))
        return -1;
    switch (q) {
    case SOC_GRAIL: {
        const unsigned g = rpl__soc_grail_count(p, false),
                       b = rpl__soc_grail_count(p, true);

        /* On a full board the card removes the black card nearest the
         * Grail: a spot back, not a step nearer. */
        if (g + b == SOC_GRAIL_SPOTS)
            return card_share(kn, q, SOC_GRAIL_SPOTS - g) * 8 / 10 * W_GRAIL /
                   100;
        return card_share(kn, q, SOC_GRAIL_SPOTS - g) * 4 / 5 * W_GRAIL / 100;
    }
    case SOC_EXCALIBUR:
        return card_share(kn, q, SOC_EXC_WIN - p->exc_pos) * 5 / 4 *
                   W_EXCALIBUR / 100 -
               keep_value(kn, c) * 4 / 10;
    case SOC_PICTS:
    case SOC_SAXONS: {
        const struct soc_war *w = rpl__soc_war(p, q);
        const unsigned last = w->mordred ? 6u : 5u;
        long v = card_share(kn, q, last - w->nwhite);

        /* The next cards of the sequence in hand, and company. */
        for (unsigned n = c + 1; n < 5 && kn->h[n]; n++)
            v += 5;
        return (v + 5 * (long)(rpl__soc_present(p, q) -
                               (p->seat[kn->k].loc == q))) *
               W_WAR / 100;
    }
    case SOC_BLACK_KNIGHT:
    case SOC_LANCELOT: {
        struct plan pl;
        long chance, delta;

        if (!solo_plan(kn, q, &pl) || !pl.need[c])
            return -1;
        chance = combat_chance(kn, q, pl.total + combat_bonus(p, q, kn->k, 0),
                               pl.left - 1);
        /* Against leaving it: evil wins it sooner or later. */
        delta = (quest_win(kn, q) * chance -
                 quest_loss(kn, q) * (100 - chance - urgency(p, q))) /
                100;
        /* A strong full house is worth Lancelot's five turns: the sword,
         * four cards and the Armor, against a sword of evil's. */
        if (q == SOC_LANCELOT && pl.total >= LANCELOT_STRONG)
            delta = delta * W_LANCELOT / 100;
        return delta / (long)pl.left;
    }
    case SOC_DRAGON: {
        const struct soc_combat *cb = rpl__soc_combat(p, q);
        unsigned cnt = 0, w, b;
        long chance;

        for (unsigned i = 0; i < cb->nwhite; i++)
            cnt += cb->white[i] == c;
        /* Triples need company: a lone card of a new value waits. */
        if (cnt == 0 && kn->h[c] < 2)
            return -1;
        if (cb->nwhite + 1u == rpl__soc_quest[q].white_spots) {
            rpl__soc_combat_totals(p, q, &w, &b);
            return w + soc_fight_value(c) > b ? quest_win(kn, q)
                                              : -quest_loss(kn, q);
        }
        chance =
            combat_chance(kn, q, 27 + combat_bonus(p, q, kn->k, 0),
                          (rpl__soc_quest[q].white_spots - cb->nwhite) / 2);
        return (quest_win(kn, q) * chance -
                quest_loss(kn, q) * (100 - chance - urgency(p, q))) /
               100 / (long)(rpl__soc_quest[q].white_spots - cb->nwhite);
    }
    default:
        return -1;
    }
}

/* The best card to play at q now, and its value (-1 for none). */
static long
best_play(const struct soc_know *kn, unsigned q, unsigned *card)
{
    long best = -1;

    for (unsigned c = 0; c < SOC_NWT; c++) {
        const long v = play_value(kn, q, c);

        if (v > best) {
            best = v;
            if (card)
                *card = c;
        }
    }
    return best;
}

/* What drawing white cards in Camelot is worth now. */
static long
draw_value(const struct soc_know *kn)
{
    const struct soc_seat *s = &kn->p->seat[kn->k];
    const long n = s->knight == SOC_GAWAIN ? 3 : 2;
    const long each = 34 - 3 * (s->hand_n > 3 ? (long)s->hand_n - 3 : 0);

    long v = 4 * n * (each > 4 ? each : 4);

    if (s->hand_n >= SOC_HAND_LIMIT)
        return -1;
    /* A knight a card or two short of Lancelot's full house or the Black
     * Knight's pairs draws for them. */
    if (!kn->evil)
        for (unsigned q = SOC_BLACK_KNIGHT; q <= SOC_LANCELOT; q++) {
            const unsigned m = plan_short(kn, q);

            if (m == 1 && s->hand_n + 2u < SOC_HAND_LIMIT &&
                !rpl__soc_plan_leaves(kn, q))
                v += q == SOC_LANCELOT ? 30 : 15;
        }
    return v;
}

/* A siege fight with fight cards adding up to sum whose keeping values
 * add up to kept: the engine removed, against the life point lost. */
static long
siege_value(const struct soc_know *kn, unsigned sum, long kept)
{
    const struct soc_pub *p = kn->p;
    const struct soc_seat *s = &p->seat[kn->k];
    long wins;

    if (!p->siege)
        return -1;
    if (p->relic[SOC_REL_EXCALIBUR] == kn->k)
        sum++;
    if (s->knight == SOC_KAY && s->hand_n > 0)
        sum += 1;
    /* The d8 shows 1..8: sum wins against every roll below it. */
    wins = sum > 9 ? 8 : sum ? (long)sum - 1 : 0;
    return (rpl__soc_siege_harm(p, p->siege - 1) * (wins == 8 ? W_SURE : 100) /
                100 * rpl__soc_plan_weight(p, SOC_PLAN_SIEGE_FIGHT, 100) / 100 *
                wins -
            life_harm(p, kn->k) * (8 - wins)) /
               8 -
           kept / 2;
}

/* The cheapest siege fight of the hand that is sure to win, or the
 * whole hand's fight cards when none is; its value. */
long
rpl__soc_best_siege(const struct soc_know *kn, uint8_t *cards, unsigned *n)
{
    unsigned sum = 0, cnt = 0;
    long kept = 0;

    /* Highest cards first until the d8 cannot beat them. */
    for (unsigned c = SOC_FIGHT5 + 1; c-- > 0 && sum < 9;)
        for (unsigned i = 0; i < kn->h[c] && sum < 9; i++) {
            if (cards)
                cards[cnt] = (uint8_t)c;
            cnt++;
            sum += soc_fight_value(c);
            kept += keep_value(kn, c);
        }
    if (n)
        *n = cnt;
    return siege_value(kn, sum, kept);
}

/* How many turns in a row the knight could play at quest q from his
 * hand (at most 4 counted). */
static unsigned
run_length(const struct soc_know *kn, unsigned q)
{
    const struct soc_pub *p = kn->p;
    unsigned n = 0, need;
    struct plan pl;

    switch (q) {
    case SOC_GRAIL:
        need = SOC_GRAIL_SPOTS - rpl__soc_grail_count(p, false);
        n = p->dark_forest ? 0 : kn->h[SOC_GRAIL_CARD];
        n = n < need ? n : need;
        break;
    case SOC_EXCALIBUR:
        need = SOC_EXC_WIN - p->exc_pos;
        n = p->seat[kn->k].hand_n;
        n = n < need ? n : need;
        break;
    case SOC_PICTS:
    case SOC_SAXONS: {
        const struct soc_war *w = rpl__soc_war(p, q);
        unsigned v = w->nwhite < 5 ? w->nwhite : 4;

        while (v < 5 && kn->h[v]) {
            n++;
            v++;
        }
        break;
    }
    case SOC_BLACK_KNIGHT:
    case SOC_LANCELOT:
        n = solo_plan(kn, q, &pl) ? pl.left : 0;
        break;
    default:
        n = 1;
        break;
    }
    return n < 1 ? 1 : n > 4 ? 4 : n;
}

/* What standing at loc is worth for the next turn. */
static long
loc_value(const struct soc_know *kn, unsigned loc)
{
    const struct soc_pub *p = kn->p;
    long v;

    if (loc == SOC_CAMELOT) {
        v = draw_value(kn);
        if (rpl__soc_best_siege(kn, NULL, NULL) > v)
            v = rpl__soc_best_siege(kn, NULL, NULL);
        return v;
    }
    if (p->seat[kn->k].loc != loc && !rpl__soc_loc_open(p, loc))
        return -1;
    v = best_play(kn, loc, NULL);
    if (p->seat[kn->k].loc == loc || v <= 0)
        return v;
    /* A move pays for the turns the knight can stay and play there; a
     * solo quest his hand finishes, for the whole of it. */
    if ((loc == SOC_LANCELOT || loc == SOC_BLACK_KNIGHT) && !kn->evil)
        v = v * (long)run_length(kn, loc);
    else
        v = v * (100 + 45 * (long)(run_length(kn, loc) - 1)) / 100;
    /* A group quest that many knights work at already needs one more
     * a little less than another quest does: the knights there share
     * its reward and its life points. */
    if (rpl__soc_present(p, loc) > 1)
        v = v * 100 / (100 + ((long)rpl__soc_present(p, loc) - 1));
    return v;
}

/* ------------------------------------------------------ black cards */

static long war_harm(const struct soc_know *kn, unsigned q, unsigned figures);

/* What black card c would do to the knights if it were resolved now. */
static long
black_harm(const struct soc_know *kn, unsigned c, bool evil_picks)
{
    const struct soc_pub *p = kn->p;
    const struct soc_card *cd = &rpl__soc_card[c];
    long v;

    switch ((enum soc_card_id)c) {
    case SOC_BK1:
    case SOC_BK3:
    case SOC_BK5:
    case SOC_BK7:
    case SOC_LD1:
    case SOC_LD3:
    case SOC_LD5:
    case SOC_LD7: {
        unsigned q = c <= SOC_BK7 ? SOC_BLACK_KNIGHT : SOC_LANCELOT;
        const struct soc_combat *cb;
        unsigned w, b;

        if (q == SOC_LANCELOT && p->ld_stage == 1)
            q = SOC_DRAGON;
        else if (q == SOC_LANCELOT && p->ld_stage > 1)
            return rpl__soc_siege_harm(p, p->siege);
        cb = rpl__soc_combat(p, q);
        v = q == SOC_DRAGON ? cd->value2 : cd->value;
        if (cb->nblack + 1u < rpl__soc_quest[q].black_spots)
            return (20 + 8 * v + (cb->nwhite ? 15 : 0)) *
                   black_sword(kn, rpl__soc_quest[q].lose_swords) / 100;
        rpl__soc_combat_totals(p, q, &w, &b);
        return w > b + (unsigned)v ? -quest_win(kn, q) / 2 : quest_loss(kn, q);
    }
    case SOC_B_EXCALIBUR:
        if (p->exc_state)
            return rpl__soc_siege_harm(p, p->siege);
        if (p->exc_pos <= cd->p1)
            return quest_loss(kn, SOC_EXCALIBUR);
        return card_share(kn, SOC_EXCALIBUR, SOC_EXC_WIN - p->exc_pos);
    case SOC_DESPAIR:
    case SOC_DESOLATION:
    case SOC_DARK_FOREST: {
        const unsigned g = rpl__soc_grail_count(p, false),
                       b = rpl__soc_grail_count(p, true);

        if (p->grail_state)
            return rpl__soc_siege_harm(p, p->siege);
        if (c == SOC_DARK_FOREST)
            return 40 + 10 * (long)g;
        if (b + 1 == SOC_GRAIL_SPOTS && (g == 0 || c == SOC_DESPAIR))
            return quest_loss(kn, SOC_GRAIL);
        v = card_share(kn, SOC_GRAIL, SOC_GRAIL_SPOTS - g);
        return c == SOC_DESOLATION && g ? 2 * v : v;
    }
    case SOC_B_PICTS:
    case SOC_B_SAXONS: {
        const unsigned q = c == SOC_B_PICTS ? SOC_PICTS : SOC_SAXONS;

        return war_harm(kn, q, rpl__soc_war(p, q)->figures);
    }
    case SOC_MERCENARIES:
    case SOC_MORDRED: {
        const long a =
            war_harm(kn, SOC_PICTS, rpl__soc_war(p, SOC_PICTS)->figures);
        const long b =
            war_harm(kn, SOC_SAXONS, rpl__soc_war(p, SOC_SAXONS)->figures);

        v = evil_picks ? (a > b ? a : b) : (a < b ? a : b);
        return v + (c == SOC_MORDRED ? 60 : 0);
    }
    case SOC_MORGAN_SIEGE:
        v = rpl__soc_siege_harm(p, p->siege);
        return v >= LOSS ? LOSS : v + rpl__soc_siege_harm(p, p->siege + 1);
    case SOC_MORGAN_DRAW3:
        return 240;
    case SOC_MORGAN_LIFE:
        v = 0;
        for (unsigned k = 1; k <= p->n; k++)
            if (soc_living(p, k))
                v += rpl__soc_lp_harm(p->seat[k].lp);
        return v;
    case SOC_MORGAN_DISCARD:
    case SOC_MORGAN_VOLUNTEER:
        return 100;
    case SOC_GUINEVERE:
        v = 30;
        for (unsigned k = 1; k <= p->n; k++)
            if (soc_living(p, k) && p->seat[k].loc != SOC_CAMELOT)
                v += 20;
        return v + 15 * (long)(p->bk.nwhite + p->ld.nwhite);
    case SOC_MISTS:
        return 150;
    case SOC_VIVIEN:
        return 60;
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
    return 0;
}

/* One more figure in a war that has `figures`. */
static long
war_harm(const struct soc_know *kn, unsigned q, unsigned figures)
{
    const struct soc_pub *p = kn->p;

    if (figures + 1u >= SOC_WAR_LOSS)
        return quest_loss(kn, q);
    return quest_loss(kn, q) * (figures + 1) / 6 +
           5 * (long)rpl__soc_war(p, q)->nwhite;
}

/* The expected harm of drawing the next black card: the card Sir
 * Percival has seen, or the average over the deck's public contents. */
static long
draw_harm(const struct soc_know *kn, bool evil_picks)
{
    const struct soc_pub *p = kn->p;
    const uint8_t *pile = p->bpile_n ? p->bpile : p->bdisc;
    long sum = 0, n = 0;

    if (kn->top >= 0)
        return black_harm(kn, (unsigned)kn->top, evil_picks);
    for (unsigned c = 0; c < SOC_NBT; c++) {
        long h;

        if (!pile[c])
            continue;
        h = black_harm(kn, SOC_B0 + c, evil_picks);
        if (h >= LOSS)
            h = 3000; /* likely, not sure: weighed, not final */
        sum += h * pile[c];
        n += pile[c];
    }
    return n ? sum / n : 0;
}

long
rpl__soc_evil_cost(const struct soc_state *st, const struct soc_pub *p,
                   unsigned k, unsigned opt)
{
    static const uint8_t none[SOC_NWT];
    struct soc_know kn;

    memset(&kn, 0, sizeof(kn));
    kn.st = st;
    kn.p = p;
    kn.k = k;
    kn.h = none;
    kn.top = -1;
    switch (opt) {
    case SOC_O_LIFE:
        return life_harm(p, k) * W_LIFE / 100;
    case SOC_O_SIEGE:
        return rpl__soc_siege_harm(p, p->siege) * W_SIEGE / 100;
    default:
        return draw_harm(&kn, false) *
               rpl__soc_plan_weight(p, SOC_PLAN_BLACK, 100) / 100;
    }
}

/* --------------------------------------------------- special cards */

/* What a single Merlin cancels at loc. */
static long
merlin_value(const struct soc_know *kn, unsigned loc)
{
    const struct soc_pub *p = kn->p;

    switch (loc) {
    case SOC_CAMELOT:
        return p->siege ? rpl__soc_siege_harm(p, p->siege - 1) : -1;
    case SOC_BLACK_KNIGHT:
    case SOC_LANCELOT:
    case SOC_DRAGON: {
        const struct soc_combat *cb = rpl__soc_combat(p, loc);

        if (!rpl__soc_loc_active(p, loc) || !cb->nblack)
            return -1;
        return 15 + 5 * (long)rpl__soc_card[cb->black[cb->nblack - 1]].value +
               (cb->nblack + 1u == rpl__soc_quest[loc].black_spots ? 60 : 0);
    }
    case SOC_EXCALIBUR:
        if (p->exc_state || !p->exc_black)
            return -1;
        return 45 + (p->exc_pos <= 2 ? 60 : 0);
    case SOC_GRAIL:
        if (p->grail_state || !rpl__soc_grail_count(p, true))
            return -1;
        return 30 + 15 * (long)rpl__soc_grail_count(p, true);
    case SOC_PICTS:
    case SOC_SAXONS: {
        const struct soc_war *w = rpl__soc_war(p, loc);

        if (w->figures == 0 || (w->mordred && w->nblack == 1))
            return -1;
        return war_harm(kn, loc, w->figures - 1u);
    }
    default:
        return -1;
    }
}

/* How likely quest q is won by the knights, in percent (for Heroism). */
static long
win_chance(const struct soc_know *kn, unsigned q)
{
    const struct soc_pub *p = kn->p;

    switch (q) {
    case SOC_GRAIL:
        return 20 + 12 * (long)rpl__soc_grail_count(p, false) -
               8 * (long)rpl__soc_grail_count(p, true);
    case SOC_EXCALIBUR:
        return 10 * (long)p->exc_pos;
    case SOC_PICTS:
    case SOC_SAXONS:
        return 20 + 15 * (long)rpl__soc_war(p, q)->nwhite -
               15 * (long)rpl__soc_war(p, q)->figures;
    default:
        return 30;
    }
}

/* What white card c brings in the hand of knight t rather than in
 * the giver's: worth it when t stands at a quest it serves and the
 * giver's own quest has no use for it. */
static long
gift_value(const struct soc_know *kn, unsigned t, unsigned c)
{
    const struct soc_pub *p = kn->p;
    const unsigned there = p->seat[t].loc, here = p->seat[kn->k].loc;
    const long kept = keep_value(kn, c);

    if (t == kn->k || !soc_living(p, t) || there == SOC_CAMELOT ||
        !rpl__soc_play_ok(p, there, c) || rpl__soc_plan_leaves(kn, there))
        return -kept - 20;
    if (here != SOC_CAMELOT && rpl__soc_play_ok(p, here, c))
        return -kept - 10;
    return 50 - kept / 2;
}

/* A loyal knight's special card, with its options. */
static long
special_value(const struct soc_know *kn, const struct soc_cmd *cmd)
{
    const struct soc_pub *p = kn->p;
    const struct soc_seat *s = &p->seat[kn->k];
    const long kept = keep_value(kn, cmd->card);
    long v = 0;

    switch (cmd->card) {
    case SOC_MERLIN:
        v = merlin_value(kn, cmd->loc);
        return v < 0 ? -1 : v - kept;
    case SOC_HEROISM:
        /* A sword of the quest's outcome, as the plan weighs it. */
        v = rpl__soc_plan_heroism(kn, cmd->loc);
        v = v >= 0 ? v : win_chance(kn, cmd->loc);
        return 2 * (v - 50) * rpl__soc_plan_weight(p, SOC_PLAN_HEROISM, 100) /
                   100 -
               kept;
    case SOC_LADY:
        if (p->exc_state)
            return rpl__soc_lp_gain(s->lp) + rpl__soc_lp_gain(s->lp + 1u) -
                   kept / 2;
        if (p->exc_pos + 1u >= SOC_EXC_WIN)
            return quest_win(kn, SOC_EXCALIBUR);
        return 60 + (p->exc_pos <= 2 ? 40 : 0);
    case SOC_PIETY:
        if (cmd->opt == SOC_O_SELF) {
            unsigned lp = s->lp;

            for (unsigned i = 0;
                 i < rpl__soc_card[SOC_PIETY].p1 && lp < SOC_LP_MAX; i++)
                v += rpl__soc_lp_gain(lp++);
        } else {
            for (unsigned t = 1; t <= p->n; t++)
                if (t != kn->k && soc_living(p, t))
                    v += rpl__soc_lp_gain(p->seat[t].lp);
        }
        return v - kept / 2;
    case SOC_REINFORCEMENTS:
        if (cmd->opt == SOC_O_SELF)
            return s->hand_n < 8 ? 120 : 60;
        return 30 * ((long)rpl__soc_living(p) - 1);
    case SOC_FATE:
        return p->traitor_on ? 30 * (long)rpl__soc_living(p)
                             : 25 * (long)rpl__soc_living(p);
    case SOC_CONVOCATION:
        return cmd->nseats ? -1
                           : 25 * (long)rpl__soc_present(p, SOC_CAMELOT) - 20;
    case SOC_CLAIRVOYANCE:
        return 20;
    case SOC_MESSENGER:
        /* Cards for a knight at a quest they serve, not needed here. */
        v = -kept / 2;
        for (unsigned i = 0; i < cmd->ncards; i++)
            v += gift_value(kn, cmd->seat2, cmd->cards[i]);
        return v;
    default:
        return -1;
    }
}

/* King Arthur's exchange: a card for a knight at a quest it serves, one
 * of his in return (the one he needs least). */
static long
swap_value(const struct soc_know *kn, const struct soc_cmd *cmd)
{
    if (kn->evil || cmd->ncards != 1)
        return -1;
    return gift_value(kn, cmd->seat2, cmd->cards[0]) + 10;
}

/* The best special card the knight could play now (any option). */
static long
best_special(const struct soc_know *kn)
{
    struct soc_cmd cmd;
    long best = -1;

    memset(&cmd, 0, sizeof(cmd));
    cmd.kw = SOC_K_SPECIAL;
    cmd.seat = (uint8_t)kn->k;
    for (unsigned c = SOC_MERLIN; c < SOC_NWT; c++) {
        if (!kn->h[c])
            continue;
        cmd.card = (uint8_t)c;
        for (unsigned o = 0; o < SOC_NLOC; o++) {
            long v;

            cmd.loc = (uint8_t)o;
            cmd.opt = o & 1 ? SOC_O_OTHERS : SOC_O_SELF;
            if (c == SOC_MERLIN && kn->p->vivien)
                continue;
            if (c == SOC_HEROISM &&
                (o == SOC_CAMELOT || !rpl__soc_loc_active(kn->p, o)))
                continue;
            v = special_value(kn, &cmd);
            if (v > best)
                best = v;
        }
    }
    return best;
}

static long
heal_value(const struct soc_know *kn, unsigned c)
{
    const unsigned lp = kn->p->seat[kn->k].lp;

    if (kn->h[c] < SOC_HEAL_SAME || lp >= SOC_LP_MAX)
        return -1;
    return rpl__soc_lp_gain(lp) + 10 - SOC_HEAL_SAME * keep_value(kn, c) / 2;
}

/* ------------------------------------------------- heroic actions */

/* The best action of the types still open this turn, as the knight
 * would take it after a sacrifice. */
static long
best_extra(const struct soc_know *kn)
{
    const struct soc_pub *p = kn->p;
    const unsigned loc = p->seat[kn->k].loc;
    long best = -1, v;

    if (!(p->used & SOC_T_QUEST)) {
        v = loc == SOC_CAMELOT ? loc_value(kn, loc) : best_play(kn, loc, NULL);
        best = v > best ? v : best;
    }
    if (!(p->used & SOC_T_MOVE))
        for (unsigned l = 0; l < SOC_NLOC; l++)
            if (l != loc && (v = loc_value(kn, l) * 6 / 10) > best)
                best = v;
    if (!(p->used & SOC_T_SPECIAL) && (v = best_special(kn)) > best)
        best = v;
    if (!(p->used & SOC_T_HEAL))
        for (unsigned c = 0; c < SOC_NWT; c++)
            if ((v = heal_value(kn, c)) > best)
                best = v;
    if (!(p->used & SOC_T_ACCUSE) && p->traitor_on &&
        !(p->seat[kn->k].flags & SOC_F_ACCUSED))
        for (unsigned t = 1; t <= p->n; t++)
            if (soc_living(p, t) && (v = rpl__soc_accuse_value(kn, t)) > best)
                best = v;
    return best;
}

static long
loyal_heroic(const struct soc_know *kn, const struct soc_cmd *cmd)
{
    const struct soc_pub *p = kn->p;
    const struct soc_seat *s = &p->seat[kn->k];

    switch (cmd->kw) {
    case SOC_K_PLAY:
        return play_value(kn, s->loc, cmd->card) * W_PLAY / 100;
    case SOC_K_MOVE: {
        const long v = cmd->loc == SOC_CAMELOT
                           ? loc_value(kn, cmd->loc)
                           : loc_value(kn, cmd->loc) * W_PLAY / 100;
        const bool free = s->knight == SOC_TRISTAN && s->loc == SOC_CAMELOT;
        long lost = 0;

        if (v <= 0)
            return -60;
        /* Leaving a solo quest discards the cards played there. */
        if (s->loc == SOC_BLACK_KNIGHT || s->loc == SOC_LANCELOT)
            lost = 20 * (long)rpl__soc_combat(p, s->loc)->nwhite;
        /* A knight who still has work where he stands keeps at it. */
        if (s->loc != SOC_CAMELOT) {
            const long here = best_play(kn, s->loc, NULL);

            if (here > 0)
                lost += here / 2;
        }
        return (free ? v * 95 / 100 : v * W_MOVE / 100) - lost - 5;
    }
    case SOC_K_DRAW:
        return draw_value(kn) * rpl__soc_plan_weight(p, SOC_PLAN_DRAW, W_DRAW) /
               100;
    case SOC_K_SIEGE: {
        unsigned sum = 0;
        long kept = 0;

        for (unsigned i = 0; i < cmd->ncards; i++) {
            sum += soc_fight_value(cmd->cards[i]);
            kept += keep_value(kn, cmd->cards[i]);
        }
        return siege_value(kn, sum, kept);
    }
    case SOC_K_SPECIAL:
        return special_value(kn, cmd);
    case SOC_K_HEAL:
        return heal_value(kn, cmd->card);
    case SOC_K_ACCUSE:
        return rpl__soc_accuse_value(kn, cmd->seat2);
    case SOC_K_SACRIFICE:
        return best_extra(kn) -
               life_harm(p, kn->k) *
                   rpl__soc_plan_weight(p, SOC_PLAN_SACRIFICE, W_SACRIFICE) /
                   100;
    case SOC_K_DONE:
        return 0;
    default:
        return -1000; /* Arthur keeps his cards */
    }
}

/* The hidden traitor mostly works as a loyal knight would; otherwise he
 * sabotages quietly: he hoards white cards, sits on the solo quests and
 * loses them with low cards, and now and then accuses a loyal knight
 * falsely. */
static long
traitor_heroic(const struct soc_know *kn, const struct soc_cmd *cmd)
{
    const struct soc_pub *p = kn->p;
    const struct soc_seat *s = &p->seat[kn->k];

    if (kn->mood < rpl__soc_traitor_busy(p) && cmd->kw != SOC_K_ACCUSE)
        return loyal_heroic(kn, cmd);
    switch (cmd->kw) {
    case SOC_K_PLAY:
        if (s->loc == SOC_BLACK_KNIGHT || s->loc == SOC_LANCELOT)
            return 60 - 10 * (long)soc_fight_value(cmd->card);
        return 2;
    case SOC_K_MOVE:
        if (cmd->loc == SOC_BLACK_KNIGHT || cmd->loc == SOC_LANCELOT) {
            unsigned fights = 0;

            for (unsigned c = 0; c <= SOC_FIGHT5; c++)
                fights += kn->h[c];
            return fights >= 2 ? 45 : 5;
        }
        if (cmd->loc == SOC_CAMELOT)
            return s->hand_n < 10 ? 40 : 5;
        return 3;
    case SOC_K_DRAW:
        return s->hand_n < SOC_HAND_LIMIT ? 42 : -1;
    case SOC_K_SPECIAL:
        if (cmd->card == SOC_HEROISM &&
            (cmd->loc == SOC_BLACK_KNIGHT || cmd->loc == SOC_LANCELOT) &&
            cmd->loc == s->loc)
            return 40;
        if (cmd->card == SOC_CLAIRVOYANCE)
            return 25;
        return -20;
    case SOC_K_HEAL:
        return s->lp <= 2 ? 60 : -5;
    case SOC_K_ACCUSE:
        /* At a knight never shown loyal, when the white sword it turns
         * black is evil's seventh. */
        if (p->seat[cmd->seat2].flags & SOC_F_LOYAL)
            return -100;
        if (p->swords_w && p->swords_b + 1u >= SOC_BLACK_LOSS)
            return LOSS;
        return -100;
    case SOC_K_SIEGE:
        return -30;
    case SOC_K_SACRIFICE:
    case SOC_K_SWAP:
        return -100;
    case SOC_K_DONE:
        return 0;
    default:
        return -1;
    }
}

/* ---------------------------------------------------------- scoring */

/* The harm of an ordering of black cards, the top weighing most. */
static long
order_harm(const struct soc_know *kn, const struct soc_cmd *cmd)
{
    long v = 0;

    for (unsigned i = 0; i < cmd->ncards; i++) {
        long h = black_harm(kn, cmd->cards[i], kn->evil);

        if (h >= LOSS)
            h = 3000;
        v += h * (long)(cmd->ncards - i);
    }
    return v;
}

long
rpl__soc_score(const struct soc_know *kn, const struct soc_cmd *cmd)
{
    const struct soc_pub *p = kn->p;
    const struct soc_need *nd = &p->need;
    const unsigned k = kn->k;
    const bool evil = kn->evil;
    /* Harm to the knights is what the evil side seeks. */
    const long harmful = evil ? 1 : -1;

    switch (nd->kind) {
    case SOC_N_POOL:
        return cmd->card == SOC_MERLIN ? -100 : -keep_value(kn, cmd->card);
    case SOC_N_ALLOT:
        /* Now and then the table does not agree (S-36). */
        if (cmd->opt == SOC_O_RANDOM)
            return kn->mood < 15 ? 1 : -1;
        return 0;
    case SOC_N_EVIL:
        if (cmd->kw == SOC_K_LOOK)
            return LOSS;
        if (cmd->kw == SOC_K_SWAP) {
            const long v = swap_value(kn, cmd);

            return v > 0 ? LOSS + v : -10 * LOSS;
        }
        /* The hidden traitor hides: mostly he chooses the most harmful
         * progression that the table would not call worse than the
         * least harmful one (suspect.c remembers those), keeping his
         * own life points; now and then he dares the worst. */
        if (kn->traitor && !(p->seat[k].flags & SOC_F_REVEALED) &&
            kn->mood >= TRAITOR_EVIL) {
            static const uint8_t opts[] = {SOC_O_BLACK, SOC_O_SIEGE,
                                           SOC_O_LIFE};
            const long c = rpl__soc_evil_cost(kn->st, p, k, cmd->opt);
            long least = LOSS;

            for (unsigned i = 0; i < sizeof(opts); i++) {
                const long o = rpl__soc_evil_cost(kn->st, p, k, opts[i]);

                least = o < least ? o : least;
            }
            if (c > least + SOC_EVIL_WORSE)
                return -LOSS + c / 100;
            return cmd->opt == SOC_O_LIFE ? -c : c;
        }
        /* The revealed traitor sends siege engines now and then, and
         * always the last ones. */
        if (p->seat[k].flags & SOC_F_REVEALED) {
            const bool siege =
                kn->mood < TRAITOR_SIEGE || p->siege + 2u >= SOC_ENGINES_LOSS;

            if (cmd->opt == SOC_O_SIEGE)
                return siege ? 1 : -1;
            return 0;
        }
        /* Knights who could take evil on themselves for ever (life points
         * healed, siege engines fought) would never end the game: after
         * a long game they draw black cards. */
        if (!evil && p->turns > STALL_TURNS && cmd->opt != SOC_O_BLACK)
            return -LOSS;
        switch (cmd->opt) {
        case SOC_O_LIFE:
            return evil ? -LOSS : -life_harm(p, k) * W_LIFE / 100;
        case SOC_O_SIEGE:
            return harmful * rpl__soc_siege_harm(p, p->siege) *
                   (evil ? 100 : W_SIEGE) / 100;
        default:
            return harmful * draw_harm(kn, evil) *
                   (evil ? 100 : rpl__soc_plan_weight(p, SOC_PLAN_BLACK, 100)) /
                   100;
        }
    case SOC_N_TAUNT:
        return cmd->seat2 ? (long)p->seat[cmd->seat2].hand_n : 0;
    case SOC_N_KEEP:
        return harmful * black_harm(kn, cmd->card, evil);
    case SOC_N_CANCEL: {
        const long harm = black_harm(kn, p->resolving, false);
        long v;

        if (cmd->kw == SOC_K_PASS)
            return 0;
        /* The writer speaks for the table (S-41): the traitor may refuse
         * his own Excalibur or Merlin, not the other knights' Merlins. */
        if (evil) {
            if (cmd->opt == SOC_O_EXCALIBUR)
                return -100;
            for (unsigned i = 0; i < cmd->nseats; i++)
                if (cmd->seats[i] == k)
                    return -100;
        }
        if (cmd->opt == SOC_O_EXCALIBUR)
            return harm - 90;
        /* The table's Merlins: the writer's own first. */
        v = harm - 3 * keep_value(kn, SOC_MERLIN) / 2;
        for (unsigned i = 0; i < cmd->nseats; i++)
            v -= cmd->seats[i] == k ? 0 : 5;
        return v;
    }
    case SOC_N_WAR: {
        const long h =
            war_harm(kn, cmd->loc, rpl__soc_war(p, cmd->loc)->figures);

        return harmful * h;
    }
    case SOC_N_VOLUNTEER: {
        const unsigned t = cmd->seat2;

        /* The table's volunteer (S-41): the traitor who writes it names
         * the knight the loyal ones would, never himself. */
        if (evil && t == k)
            return -LOSS;
        if (!t)
            return -(long)rpl__soc_living(p) *
                   (nd->a == SOC_MORGAN_DISCARD ? 30 : 35);
        if (nd->a == SOC_MORGAN_DISCARD)
            return -3 * 30 + 3 * (long)p->seat[t].hand_n + (t == k ? 2 : 0);
        return -rpl__soc_lp_harm(p->seat[t].lp) -
               rpl__soc_lp_harm(p->seat[t].lp - 1u) + (t == k ? 2 : 0);
    }
    case SOC_N_MERLINS: {
        /* own=on (S-41): a knight offers his own Merlins when the card
         * hurts more than three Merlins are worth; the traitor keeps
         * his. */
        const long harm = black_harm(kn, p->resolving, false);

        /* The hidden traitor mostly offers his as a loyal knight would:
         * the table remembers who gives Merlins (suspect.c). */
        if (evil &&
            (kn->mood >= TRAITOR_MERLIN || (p->seat[k].flags & SOC_F_REVEALED)))
            return -(long)cmd->num;
        if (harm <= 3 * keep_value(kn, SOC_MERLIN) / 2)
            return -(long)cmd->num;
        return (long)cmd->num;
    }
    case SOC_N_OFFER: {
        const struct soc_seat *s = &p->seat[k];
        const bool yes = cmd->opt == SOC_O_YES;
        bool keen;

        if (nd->a == SOC_CONVOCATION) {
            /* Back to Camelot from a quest where his cards do nothing. */
            keen = true;
            for (unsigned c = 0; c < SOC_NWT; c++)
                if (kn->h[c] && rpl__soc_play_ok(p, s->loc, c))
                    keen = false;
            keen = keen || evil;
        } else if (nd->a == SOC_MORGAN_DISCARD) {
            keen = s->hand_n >= 6;
        } else {
            keen = s->lp >= 4;
        }
        /* The hidden traitor answers Morgan as a loyal knight would,
         * most of the time: a knight fit to go who never does is
         * remembered (suspect.c). */
        if (nd->a != SOC_CONVOCATION && evil &&
            (kn->mood < TRAITOR_EVIL || (p->seat[k].flags & SOC_F_REVEALED)))
            keen = false;
        return yes == keen ? 1 : 0;
    }
    case SOC_N_DISCARD:
    case SOC_N_SWAP_BACK: {
        long v = 0;

        for (unsigned i = 0; i < cmd->ncards; i++)
            v -= keep_value(kn, cmd->cards[i]);
        return v;
    }
    case SOC_N_ORDER:
        return harmful * order_harm(kn, cmd);
    case SOC_N_HEROIC:
        return kn->traitor ? traitor_heroic(kn, cmd) : loyal_heroic(kn, cmd);
    case SOC_N_KAY: {
        /* Only when the card turns a loss into a win. */
        unsigned w = 0, b = 0;

        if (cmd->kw == SOC_K_PASS || evil)
            return cmd->kw == SOC_K_PASS ? 10 : 0;
        if (nd->a == SOC_CAMELOT) {
            for (unsigned v = 0; v < 5; v++)
                w += p->fight[v] * (v + 1u);
            b = p->roll;
        } else {
            rpl__soc_combat_totals(p, nd->a, &w, &b);
        }
        if (w > b || w + soc_fight_value(cmd->card) <= b)
            return 0;
        return 20 - (long)soc_fight_value(cmd->card);
    }
    case SOC_N_SAVE:
        if (cmd->kw == SOC_K_PASS)
            return 5;
        return evil && nd->a != k ? 0 : 10;
    case SOC_N_SHARE: {
        long v = 0;

        for (unsigned i = 0; i < cmd->nseats; i++) {
            const long h = (long)p->seat[cmd->seats[i]].hand_n + cmd->counts[i];

            v -= h * h;
        }
        return v;
    }
    default:
        return 0;
    }
}
