/*
 * suspect.c - what the table remembers of each seat, and whom the
 * plausible knights of Shadows over Camelot suspect of holding the
 * traitor card: the eight loyalty cards, the seats shown loyal, and
 * each seat's public conduct over the game.
 *
 * The memory (struct soc_mem) is built from the accepted lines alone,
 * what every seat at the table sees: who chose which progression of
 * evil against what the board offered, who laid what on a solo quest
 * and lost it, who answered Morgan, who gave Merlins, whose accusation
 * revealed nobody.  It is not part of the digest and no rule reads it.
 *
 * The factors below are likelihood ratios measured with camelog
 * simulate (the plausible players, default rules, 500 games at each
 * table size): how much more often the traitor's conduct shows each
 * sign than a loyal knight's.  A loyal knight never chose a progression
 * far worse than the least harmful one (0.01 a game against 0.5), nor
 * lost a solo quest he played low cards on (0 against 0.14 at seven
 * players); he gives Merlins more often (1.5 against 0.9).  A big hand
 * says nothing: the loyal knights' hands were larger.
 */
#include <limits.h>

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
#define F_ACCUSED 800 /* an accusation that revealed nobody */

static void
bump(uint8_t *v)
{
    if (*v < UINT8_MAX)
        (*v)++;
}

void
rpl__soc_remember(struct soc_state *st, const struct soc_pub *before,
                  const struct soc_cmd *cmd)
{
    struct soc_mem *m = &st->m;
    const unsigned k = cmd->seat;

    if (!before->traitor_on)
        return;
    /* A solo quest lost: the knight there laid cards and lost. */
    if (cmd->kw == SOC_K_QUEST) {
        const struct soc_combat *cb =
            cmd->loc == SOC_BLACK_KNIGHT ? &before->bk : &before->ld;

        if (cmd->opt != SOC_O_LOST ||
            (cmd->loc != SOC_BLACK_KNIGHT && cmd->loc != SOC_LANCELOT) ||
            !cb->nwhite)
            return;
        for (unsigned s = 1; s <= before->n; s++)
            if (soc_living(before, s) && before->seat[s].loc == cmd->loc)
                bump(&m->solo_lost[s]);
        return;
    }
    if (k < 1 || k > before->n || (before->seat[k].flags & SOC_F_REVEALED))
        return;
    switch (cmd->kw) {
    case SOC_K_EVIL: {
        static const uint8_t opts[] = {SOC_O_BLACK, SOC_O_SIEGE, SOC_O_LIFE};
        long least = LONG_MAX;

        /* Percival's look makes his choice his own business. */
        if (before->looked && before->cur == k)
            break;
        for (unsigned i = 0; i < sizeof(opts); i++) {
            const long c = rpl__soc_evil_cost(before, k, opts[i]);

            if (c < least)
                least = c;
        }
        if (rpl__soc_evil_cost(before, k, cmd->opt) > least + SOC_EVIL_WORSE)
            bump(&m->evil_worse[k]);
        break;
    }
    case SOC_K_PLAY: {
        const unsigned loc = before->seat[k].loc;

        if ((loc == SOC_BLACK_KNIGHT || loc == SOC_LANCELOT) &&
            soc_is_fight(cmd->card) && soc_fight_value(cmd->card) <= 2)
            bump(&m->solo_low[k]);
        break;
    }
    case SOC_K_OFFER:
        if (cmd->opt == SOC_O_NO && ((before->need.a == SOC_MORGAN_DISCARD &&
                                      before->seat[k].hand_n >= 6) ||
                                     (before->need.a == SOC_MORGAN_VOLUNTEER &&
                                      before->seat[k].lp >= 4)))
            bump(&m->declined[k]);
        break;
    case SOC_K_MERLINS:
        if (cmd->num)
            bump(&m->cancels[k]);
        break;
    case SOC_K_CANCEL:
        if (cmd->opt == SOC_O_EXCALIBUR)
            bump(&m->cancels[k]);
        break;
    default:
        break;
    }
}

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
