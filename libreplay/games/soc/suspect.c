/*
 * suspect.c - whom the plausible knights of Shadows over Camelot suspect
 * of holding the traitor card, from what the table has seen: the eight
 * loyalty cards, the seats shown loyal, and each seat's public conduct.
 */
#include "soc.h"

/* How much more likely seat t's public conduct is from the traitor than
 * from a loyal knight, in tenths.  The table sees two signs: an
 * accusation that revealed nobody (while no traitor is revealed, every
 * accusation so far was wrong) and a hand that keeps growing instead of
 * going to the quests. */
static long
conduct(const struct soc_know *kn, unsigned t)
{
    const struct soc_pub *p = kn->p;
    long r = 10, hands = 0, n = 0, excess;

    for (unsigned s = 1; s <= p->n; s++)
        if (s != t && soc_living(p, s)) {
            hands += p->seat[s].hand_n;
            n++;
        }
    if ((p->seat[t].flags & SOC_F_ACCUSED) && !p->traitor)
        r *= 5;
    excess = n ? (long)p->seat[t].hand_n - hands / n - 2 : 0;
    if (excess > 0)
        r = r * (4 + excess) / 4;
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
    weights += 10 * (SOC_NLOYALTY - 1 - shown - unknown);
    return weights ? 100 * conduct(kn, t) / weights : 0;
}
