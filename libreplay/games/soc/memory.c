/*
 * memory.c - what the table remembers of each seat of Shadows over
 * Camelot, for the plausible knights (suspect.c weighs it).
 *
 * The memory (struct soc_mem) is built from the accepted lines alone,
 * what every seat at the table sees: who chose which progression of
 * evil against what the board offered, who laid what on a solo quest
 * and lost it, who answered Morgan, who gave Merlins.  It is not part
 * of the digest and no rule reads it.
 */
#include <limits.h>

#include "soc.h"

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
            const long c = rpl__soc_evil_cost(st, before, k, opts[i]);

            if (c < least)
                least = c;
        }
        if (rpl__soc_evil_cost(st, before, k, cmd->opt) >
            least + SOC_EVIL_WORSE)
            bump(&m->evil_worse[k]);
        else if (rpl__soc_evil_cost(st, before, k, cmd->opt) >
                 least + SOC_EVIL_SLY)
            bump(&m->evil_sly[k]);
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
