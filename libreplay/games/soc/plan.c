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
 *
 * Three knights (the Three Brave Knights) lost two games in three, and
 * a fifth of those with a traitor dealt ended with his accusation: at
 * the sixth black sword the hidden traitor wins at once by accusing
 * anyone.  So at three players a loyal knight also
 *
 * - weighs the flip and the sixth black sword by the table's evidence
 *   (suspect.c): not at all while nobody's conduct points at a traitor
 *   (the loyalty cards alone make one likely only two games in seven,
 *   and fearing him then lost more games than he won), fully once a
 *   seat's quiet harm makes one likelier than the cards do; at the
 *   sixth black sword he accuses the seat the evidence points at when
 *   it is likelier the traitor than nobody is (suspect.c);
 * - fears a black card a little more than at a larger table: the
 *   knights leave three quests to evil, which most black cards feed;
 * - keeps his last life point: a knight lost is a third of the table's
 *   hands, and the last knight's death loses the game;
 * - fights the siege engines a little less readily: the turn in Camelot
 *   is a third of the table's work, and the life point a losing roll
 *   costs is one of few (more fighting lost far more games: with the
 *   engine's worth at 130% the knights won 31% of the games, at 170%
 *   22%);
 * - plays Heroism, which adds a sword of the quest's outcome, on a war
 *   the knights fight or on Excalibur near its end, weighing the white
 *   sword it brings (THREE_HEROISM; tactics.c): three knights need seven
 *   white swords from Excalibur and the wars alone, and half the games
 *   they lost by the siege ended a sword or two short.  Weighed by the
 *   quest's chance alone, as at a larger table, the card was played in
 *   one game in seven and stayed in a hand to the end in two in three.
 *
 * Measured over 1,010 seeded games at three players and 1,010 more on
 * other seeds: the knights won 31.4% and 29.8% before, 38% and 35%
 * after; the other sizes play as before.  The siege fight's weight came
 * later: on four sets of seeds (5,050 games) the knights won 36.0%
 * before it and 36.8% with it.  Flat or worse at three players, on the
 * same seeds: a group quest worth more to a knight as others stand at
 * it, a Merlin kept more or less dearly, a siege fight sure to win
 * weighed more or less, the progression of evil's life point and siege
 * engine weighed otherwise (the table then calls a loyal knight's
 * choice worse and accuses him wrongly).
 *
 * Heroism came last: on five sets of seeds (1,010 games each, the
 * man page's and four others) the knights won 35.1% to 39.5% before it
 * (37.2% in all) and 47.1% to 51.5% with it (49.1%), the right
 * accusations up and the traitor's down; the other sizes weigh it as
 * before (weighed so there, the knights would win 57% to 71% at four to
 * seven players).  Flat or worse at three players before it, on other
 * seeds: every weight above and tactics.c's (a random search over
 * nineteen of them moved the figure within the noise); the Dragon, the
 * Black Knight or a strong Lancelot taken up; Merlins kept for the
 * siege; and Excalibur held one step short of its win, so that its
 * black cards would not turn into siege engines (they bring half the
 * engines of a game lost by the siege): without the quest's reward of
 * cards and life points early on the knights won under 5%.
 */
#include "soc.h"

/* The largest table that plays the small table's plan. */
#define SMALL_TABLE 5u

/* The small table's weights, in percent (tactics.c's W_DRAW,
 * W_SACRIFICE and W_FLIP at a larger table). */
#define SMALL_DRAW      300
#define SMALL_SACRIFICE 220
#define SMALL_FLIP      0

/* The three players' weights, in percent (100, 100, 0, 0 and 100 at a
 * larger table): a black card drawn, a knight's last life point, the
 * flip and the sixth black sword as the evidence makes a traitor more
 * likely than the cards do, a siege engine removed in a siege fight. */
#define THREE_BLACK          120
#define THREE_LAST_LP        200
#define THREE_FLIP_EVIDENCE  200
#define THREE_SIXTH_EVIDENCE 100
#define THREE_SIEGE_FIGHT    80

/* What the sword Heroism adds to a quest is worth at three players, in
 * percent of its weight at a larger table (tactics.c); and the chance
 * of a war the knights fight, less that of each figure on it, and of
 * Excalibur as its sword stands high or low. */
#define THREE_HEROISM    1000
#define THREE_WAR_WON    95
#define THREE_WAR_FIGURE 20
#define THREE_EXC_HIGH   95 /* the sword at 7 or more */
#define THREE_EXC_MIDDLE 70 /* at 5 or 6 */
#define THREE_EXC_LOW    40

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
    if (p->n == 3)
        switch (w) {
        case SOC_PLAN_BLACK:
            return THREE_BLACK;
        case SOC_PLAN_LAST_LP:
            return THREE_LAST_LP;
        case SOC_PLAN_FLIP_EVIDENCE:
            return THREE_FLIP_EVIDENCE;
        case SOC_PLAN_SIXTH:
            return THREE_SIXTH_EVIDENCE;
        case SOC_PLAN_SIEGE_FIGHT:
            return THREE_SIEGE_FIGHT;
        case SOC_PLAN_HEROISM:
            return large * THREE_HEROISM / 100;
        case SOC_PLAN_DRAW:
        case SOC_PLAN_SACRIFICE:
        case SOC_PLAN_FLIP:
            break;
        }
    if (!rpl__soc_small_table(p))
        return large;
    switch (w) {
    case SOC_PLAN_DRAW:
        return SMALL_DRAW;
    case SOC_PLAN_SACRIFICE:
        return SMALL_SACRIFICE;
    case SOC_PLAN_FLIP:
        return SMALL_FLIP;
    case SOC_PLAN_BLACK:
    case SOC_PLAN_LAST_LP:
    case SOC_PLAN_FLIP_EVIDENCE:
    case SOC_PLAN_SIXTH:
    case SOC_PLAN_SIEGE_FIGHT:
    case SOC_PLAN_HEROISM:
        break;
    }
    return large;
}

long
rpl__soc_plan_heroism(const struct soc_know *kn, unsigned q)
{
    const struct soc_pub *p = kn->p;

    if (p->n != 3)
        return -1;
    if (rpl__soc_plan_leaves(kn, q))
        return 0;
    switch (q) {
    case SOC_PICTS:
    case SOC_SAXONS:
        return THREE_WAR_WON -
               THREE_WAR_FIGURE * (long)rpl__soc_war(p, q)->figures;
    case SOC_EXCALIBUR:
        return p->exc_pos >= 7   ? THREE_EXC_HIGH
               : p->exc_pos >= 5 ? THREE_EXC_MIDDLE
                                 : THREE_EXC_LOW;
    default:
        return -1;
    }
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
