/*
 * values.c - the board as the plausible players of Shadows over Camelot
 * count it (tactics.c weighs their moves with these): who stands where,
 * the Grail's cards, the siege engines on their way, and what a siege
 * engine or a life point costs the knights.  Values are in hundredths of
 * a sword: a sword on the Round Table is worth 100 to the knights.
 */
#include "soc.h"

/* The black cards that the next INFLOW_DRAWS would turn into siege
 * engines (those of quests that are over) count as engines already. */
#define INFLOW_DRAWS 4

const struct soc_combat *
rpl__soc_combat(const struct soc_pub *p, unsigned q)
{
    return q == SOC_BLACK_KNIGHT ? &p->bk : &p->ld;
}

const struct soc_war *
rpl__soc_war(const struct soc_pub *p, unsigned q)
{
    return &p->war[q == SOC_PICTS ? 0 : 1];
}

unsigned
rpl__soc_present(const struct soc_pub *p, unsigned loc)
{
    unsigned n = 0;

    for (unsigned k = 1; k <= p->n; k++)
        n += soc_living(p, k) && p->seat[k].loc == loc;
    return n;
}

unsigned
rpl__soc_living(const struct soc_pub *p)
{
    unsigned n = 0;

    for (unsigned k = 1; k <= p->n; k++)
        n += soc_living(p, k);
    return n;
}

unsigned
rpl__soc_grail_count(const struct soc_pub *p, bool black)
{
    unsigned n = 0;

    for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++)
        n +=
            p->grail[i] != SOC_NCARDS &&
            (black ? soc_is_black(p->grail[i]) : p->grail[i] == SOC_GRAIL_CARD);
    return n;
}

/* ------------------------------------------------------------- values */

/* Values are in hundredths of a sword: a sword on the Round Table is
 * worth 100 to the knights.  The numbers are judgement, tuned so that
 * seeded knights win a fair share of their games. */

/* How many of the next INFLOW_DRAWS black cards are expected to add a
 * siege engine: the cards of the quests that are over (the deck's
 * contents are public). */
unsigned
rpl__soc_inflow(const struct soc_pub *p)
{
    unsigned conv = 0;

    if (!p->bpile_n)
        return 0;
    if (p->exc_state)
        conv += p->bpile[SOC_B_EXCALIBUR - SOC_B0];
    if (p->grail_state)
        conv += p->bpile[SOC_DESPAIR - SOC_B0] +
                p->bpile[SOC_DESOLATION - SOC_B0] +
                p->bpile[SOC_DARK_FOREST - SOC_B0];
    if (p->ld_stage > 1)
        for (unsigned c = SOC_LD1; c < SOC_LD1 + 4u; c++)
            conv += p->bpile[c - SOC_B0];
    return conv * INFLOW_DRAWS / p->bpile_n;
}

/* What one more siege engine costs when s stand around Camelot, with
 * those on their way. */
long
rpl__soc_siege_harm(const struct soc_pub *p, unsigned s)
{
    static const long cost[SOC_ENGINES_LOSS - 1] = {
        170, 190, 210, 240, 265, 305, 350, 410, 495, 625, 950,
    };
    unsigned e;

    if (s + 1u >= SOC_ENGINES_LOSS)
        return SOC_BOT_LOSS;
    e = s + rpl__soc_inflow(p);
    return cost[e < SOC_ENGINES_LOSS - 2 ? e : SOC_ENGINES_LOSS - 2];
}

/* What losing a life point costs a knight at lp. */
long
rpl__soc_lp_harm(unsigned lp)
{
    static const long cost[SOC_LP_MAX + 1] = {0, 2000, 400, 200, 110, 70, 45};

    return lp <= SOC_LP_MAX ? cost[lp] : 0;
}

/* What gaining a life point is worth to a knight at lp. */
long
rpl__soc_lp_gain(unsigned lp)
{
    static const long gain[SOC_LP_MAX + 1] = {0, 400, 250, 140, 80, 50, 0};

    return lp <= SOC_LP_MAX ? gain[lp] : 0;
}
