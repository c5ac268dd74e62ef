/*
 * plan.c - how the plausible loyal knights of Shadows over Camelot change
 * their plan at a small table (3 to 5 players; tactics.c asks), and how
 * the hidden traitor works at each table (suspect.c and tactics.c ask).
 *
 * Three to five knights cannot hold evil off for long: every turn brings
 * a progression of evil, the black cards of finished quests turn into
 * siege engines, and the table has few life points to give.  They win
 * the race or not at all, so at a small table a loyal knight:
 *
 * - leaves the Black Knight and Lancelot alone: each takes one knight
 *   four or five turns, a quarter or a third of the table's work, and
 *   is mostly lost anyway; its black sword ends the game sooner;
 * - leaves the Holy Grail alone too: seven Grail cards are more than a
 *   small table finds before Despair fills the board, and the cards go
 *   to the wars and Excalibur (a Grail card heals like any other);
 * - draws at the Round Table more readily, for the group quests (the
 *   wars, the Grail, Excalibur), which every knight can feed;
 * - gives a life point for one more action more readily;
 * - plays for the end of the game as if no traitor would turn two white
 *   swords black: a margin wide enough against the flip takes more
 *   turns than a small table has, and waiting for it lost more games
 *   than the flip did.
 *
 * The weights were measured with camelog simulate (the man page's
 * figures); at six players and more the knights play as before.  Five
 * joined the plan when the knights learned to wait before accusing
 * (suspect.c): 600 games at five players, the knights won 42% with the
 * larger table's plan and 55% with this one.
 */
#include "soc.h"

/* The largest table that plays the small table's plan. */
#define SMALL_TABLE 5u

/* The small table's weights, in percent (tactics.c's W_DRAW,
 * W_SACRIFICE and W_FLIP at a larger table). */
#define SMALL_DRAW      300
#define SMALL_SACRIFICE 220
#define SMALL_FLIP      0

bool
rpl__soc_small_table(const struct soc_pub *p)
{
    return p->n <= SMALL_TABLE;
}

bool
rpl__soc_plan_leaves(const struct soc_know *kn, unsigned q)
{
    return !kn->evil && rpl__soc_small_table(kn->p) &&
           (q == SOC_BLACK_KNIGHT || q == SOC_LANCELOT || q == SOC_GRAIL);
}

long
rpl__soc_plan_weight(const struct soc_pub *p, enum soc_plan_w w, long large)
{
    if (!rpl__soc_small_table(p))
        return large;
    switch (w) {
    case SOC_PLAN_DRAW:
        return SMALL_DRAW;
    case SOC_PLAN_SACRIFICE:
        return SMALL_SACRIFICE;
    case SOC_PLAN_FLIP:
        return SMALL_FLIP;
    }
    return large;
}

/* How often, in percent, the hidden traitor plays a heroic action as a
 * loyal knight would.  At a small table every knight's work shows and a
 * traitor who idles is found out, and each knight lost weighs more: he
 * hides by working.  At a large one he sabotages more (measured: with a
 * traitor who always works, seven knights win three games in four). */
unsigned
rpl__soc_traitor_busy(const struct soc_pub *p)
{
    return p->n >= 7 ? 33u : p->n == 6 ? 90u : 100u;
}
