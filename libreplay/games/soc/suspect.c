/*
 * suspect.c - whom the plausible knights of Shadows over Camelot suspect
 * of holding the traitor card: the eight loyalty cards, the seats shown
 * loyal, and the table's memory of each seat's public conduct
 * (memory.c).
 *
 * The factors below are likelihood ratios measured with camelog
 * simulate (the plausible players, default rules, 500 games at each
 * table size): how much more often the traitor's conduct shows each
 * sign than a loyal knight's.  A loyal knight never chose a progression
 * far worse than the least harmful one (0.01 a game against 0.5), nor
 * lost a solo quest he played low cards on (0 against 0.14 at seven
 * players); he gives Merlins more often (1.5 against 0.9).  A big hand
 * says nothing: the loyal knights' hands were larger.  Nor did a loyal
 * knight choose a progression of evil worse than the least harmful one
 * at all (none in 3,000 games, 600 at each size, against 1.3 a game
 * for the traitor at 3 players, 2.5 at 4, 3.3 at 5, 3.2 at 6 and 2.9 at
 * 7): the hidden traitor's quiet harm is the sign that finds him, and
 * its factor is as large as that of a wrong accusation.
 */
#include "soc.h"

/* The weight of a loyal conduct: a seat of which the table has seen
 * nothing, or a loyalty card nobody holds. */
#define LOYAL_CONDUCT 1000L

/* The likelihood ratios, in percent, of each sign (once per sign). */
#define F_WORSE   600 /* a progression of evil far worse than the least */
#define F_LOST    300 /* a solo quest lost with cards laid */
#define F_LOW     250 /* a fight card of 1 or 2 laid on a solo quest */
#define F_DECLINE 200 /* fit to answer Morgan (6 cards, 4 life points), no */
#define F_CANCEL  80  /* Merlins or Excalibur offered to cancel a card */
#define F_SLY     800 /* worse than the least, not far worse */
#define F_ACCUSED 800 /* an accusation that revealed nobody */

/* The least chance, in percent, that a seat holds the traitor card
 * before a loyal knight accuses it: a wrong accusation turns a white
 * sword black, and a suspicion without evidence is wrong six times in
 * seven. */
#define ACCUSE_MIN 30

/* The end of the game for an accusation: the swords still to come
 * before the twelfth, what a right accusation is worth then (the game,
 * mostly) and the least chance the knights accuse on. */
#define END_NEAR  2u
#define END_RIGHT 3000L
#define END_MIN   20L

/* What a right accusation at the sixth black sword is worth (per 100 of
 * the margin by which the accused is likelier the traitor than nobody
 * at the table is). */
#define SIXTH_RIGHT 2000L

/* r times f percent, n times, kept within bounds. */
static long
times(long r, long f, unsigned n)
{
    for (unsigned i = 0; i < n && r < 100000000L; i++)
        r = r * f / 100;
    return r > 0 ? r : 1;
}

/* How likely seat t's public conduct is from the traitor, against
 * LOYAL_CONDUCT for a loyal knight. */
static long
conduct(const struct soc_know *kn, unsigned t)
{
    const struct soc_pub *p = kn->p;
    const struct soc_mem *m = &kn->st->m;
    long r = LOYAL_CONDUCT;

    r = times(r, F_WORSE, m->evil_worse[t]);
    r = times(r, F_SLY, m->evil_sly[t]);
    r = times(r, F_LOST, m->solo_lost[t]);
    r = times(r, F_LOW, m->solo_low[t]);
    r = times(r, F_DECLINE, m->declined[t]);
    r = times(r, F_CANCEL, m->cancels[t]);
    /* While no traitor is revealed, every accusation so far was wrong. */
    if ((p->seat[t].flags & SOC_F_ACCUSED) && !p->traitor)
        r = times(r, F_ACCUSED, 1);
    return r;
}

/* The chance, in percent, that seat t holds the traitor card, as seat k
 * can tell: 8 loyalty cards, one of them the traitor, k's own is loyal;
 * seats shown loyal are out; the others' conduct weighs each one. */
long
rpl__soc_suspicion(const struct soc_know *kn, unsigned t)
{
    const struct soc_pub *p = kn->p;
    long unknown = 0, shown = 0, weights = 0;

    if (!p->traitor_on || p->traitor || t == kn->k ||
        (p->seat[t].flags & SOC_F_LOYAL))
        return 0;
    for (unsigned s = 1; s <= p->n; s++) {
        if (s == kn->k)
            continue;
        if (p->seat[s].flags & SOC_F_LOYAL) {
            shown++;
        } else {
            unknown++;
            weights += conduct(kn, s);
        }
    }
    /* Cards nobody at the table holds count as a loyal conduct each. */
    weights += LOYAL_CONDUCT * (SOC_NLOYALTY - 1 - shown - unknown);
    return weights ? 100 * conduct(kn, t) / weights : 0;
}

long
rpl__soc_traitor_evidence(const struct soc_know *kn)
{
    const struct soc_pub *p = kn->p;
    long unknown = 0, shown = 0, sum = 0, prior;

    if (!p->traitor_on || p->traitor)
        return 0;
    for (unsigned s = 1; s <= p->n; s++) {
        if (p->seat[s].flags & SOC_F_LOYAL)
            shown++;
        else
            unknown++;
        if (soc_living(p, s))
            sum += rpl__soc_suspicion(kn, s);
    }
    /* The seats not shown loyal, his own excepted, among the cards not
     * shown. */
    prior = unknown > 1 ? 100 * (unknown - 1) / ((long)SOC_NLOYALTY - 1 - shown)
                        : 0;
    return sum > prior ? sum - prior : 0;
}

/* The sixth black sword with a white one on the table: the hidden
 * traitor's accusation, right or wrong, turns a white sword black, the
 * seventh, and he makes it at his next turn.  Where the plan says so
 * (plan.c, three players) a loyal knight accuses t when t is likelier
 * the traitor than nobody at the table is: wrong, the game is lost now;
 * silent, it is lost at the traitor's turn.  -2 when the rule does not
 * apply. */
static long
sixth_sword(const struct soc_know *kn, long chance)
{
    const struct soc_pub *p = kn->p;
    long nobody = 100;

    if (!p->swords_w || p->swords_b + 1u != SOC_BLACK_LOSS ||
        !rpl__soc_plan_weight(p, SOC_PLAN_SIXTH, 0))
        return -2;
    for (unsigned s = 1; s <= p->n; s++)
        if (soc_living(p, s))
            nobody -= rpl__soc_suspicion(kn, s);
    return chance > nobody ? SIXTH_RIGHT * (chance - nobody) / 100 + 1 : -1;
}

/* Whether the game is near its twelfth sword with a lead of the knights
 * that the hidden traitor's flip of two white swords would overturn:
 * then an accusation decides the game. */
static bool
flip_decides(const struct soc_pub *p)
{
    const long lead = (long)p->swords_w - (long)p->swords_b;

    return p->swords_w + p->swords_b + END_NEAR >= SOC_SWORDS_END && lead > 0 &&
           lead <= 4;
}

/* A loyal knight's accusation: right, a white sword and no flip at the
 * end; wrong, a white sword turned black.  Where the hidden traitor
 * works as a loyal knight would (rpl__soc_traitor_busy(), plan.c, at five
 * players and fewer), the knights keep him working and accuse only when the
 * flip would decide the game: the revealed traitor adds a progression of evil
 * every turn and works no more (measured: knights who accused as soon as the
 * odds favoured it won 37% at four players, 45% once they waited).  Where he
 * idles, they accuse as soon as the odds favour it. */
long
rpl__soc_accuse_value(const struct soc_know *kn, unsigned t)
{
    const struct soc_pub *p = kn->p;
    const long chance = rpl__soc_suspicion(kn, t);
    long wrong = p->swords_w ? 250 : 125, right = 1000, least = ACCUSE_MIN;
    const long sixth = sixth_sword(kn, chance);

    if (sixth != -2)
        return sixth;
    if (flip_decides(p)) {
        right = END_RIGHT;
        least = END_MIN;
    } else if (rpl__soc_traitor_busy(p) >= 100) {
        return -1;
    }
    if (chance < least)
        return -1;
    if (p->swords_b + 1u >= SOC_BLACK_LOSS)
        wrong = SOC_BOT_LOSS;
    return (chance * right - (100 - chance) * wrong) / 100;
}
