/*
 * cards.c - the data of Shadows over Camelot: one row per distinct card
 * (rules/soc-cards.tsv, checked row by row by the test suite), the quests
 * with their rewards and penalties (§4.8), the knights (§5), and the
 * token readers and printers for cards, places and knights.
 *
 * Numbers that rest on a single source (rules §8) live here, in data, so
 * that a correction is a change of one table entry.
 */
#include <string.h>

#include "soc.h"

#define BIT(l) (uint8_t)(1u << (l))
#define FIGHTS                                                                 \
    (BIT(SOC_BLACK_KNIGHT) | BIT(SOC_LANCELOT) | BIT(SOC_DRAGON) |             \
     BIT(SOC_PICTS) | BIT(SOC_SAXONS) | BIT(SOC_CAMELOT))

/*
 * Effect numbers (p1, p2) by card:
 *   merlin          p1 Merlins played together to cancel a special card
 *   fate            p1 cards each knight draws (loyal), p2 each discards
 *                   (traitor)
 *   heroism         p1 extra swords of the outcome's colour
 *   lady_of_the_lake p1 Excalibur steps, p2 life points when it is gone
 *   messenger       p1..p2 cards given
 *   piety           p1 life points for oneself, p2 for every other knight
 *   clairvoyance    p1 black cards looked at
 *   reinforcements  p1 cards for oneself, p2 for every other knight
 *   excalibur (b)   p1 steps toward evil's end
 *   picts, saxons, mercenaries, mordred   p1 figures
 *   mordred         p2 extra Fight 5 needed to win that war
 *   morgan_siege    p1 siege engines
 *   morgan_draw3    p1 black cards drawn and resolved
 *   morgan_life     p1 life points every knight loses
 *   morgan_discard  p1 cards the volunteer discards, p2 every knight
 *                   otherwise
 *   morgan_volunteer p1 life points the volunteer loses, p2 cards every
 *                   knight discards otherwise
 *   mists_of_avalon p1 extra black swords per lost quest
 */
const struct soc_card rpl__soc_card[SOC_NCARDS] = {
    {"w_fight_1", "fight_1", "Fight 1", SOC_WHITE, SOC_STANDARD, 14, FIGHTS, 1,
     0, 0, 0},
    {"w_fight_2", "fight_2", "Fight 2", SOC_WHITE, SOC_STANDARD, 12, FIGHTS, 2,
     0, 0, 0},
    {"w_fight_3", "fight_3", "Fight 3", SOC_WHITE, SOC_STANDARD, 10, FIGHTS, 3,
     0, 0, 0},
    {"w_fight_4", "fight_4", "Fight 4", SOC_WHITE, SOC_STANDARD, 8, FIGHTS, 4,
     0, 0, 0},
    {"w_fight_5", "fight_5", "Fight 5", SOC_WHITE, SOC_STANDARD, 7, FIGHTS, 5,
     0, 0, 0},
    {"w_grail", "grail", "Grail", SOC_WHITE, SOC_STANDARD, 18, BIT(SOC_GRAIL),
     0, 0, 0, 0},
    {"w_merlin", "merlin", "Merlin", SOC_WHITE, SOC_SPECIAL, 7, 0, 0, 0, 3, 0},
    {"w_convocation", "convocation", "Convocation", SOC_WHITE, SOC_SPECIAL, 1,
     0, 0, 0, 0, 0},
    {"w_fate", "fate", "Fate", SOC_WHITE, SOC_SPECIAL, 1, 0, 0, 0, 1, 2},
    {"w_heroism", "heroism", "Heroism", SOC_WHITE, SOC_SPECIAL, 1, 0, 0, 0, 1,
     0},
    {"w_lady_of_the_lake", "lady_of_the_lake", "Lady of the Lake", SOC_WHITE,
     SOC_SPECIAL, 1, BIT(SOC_EXCALIBUR), 0, 0, 1, 2},
    {"w_messenger", "messenger", "Messenger", SOC_WHITE, SOC_SPECIAL, 1, 0, 0,
     0, 1, 3},
    {"w_piety", "piety", "Piety", SOC_WHITE, SOC_SPECIAL, 1, 0, 0, 0, 3, 1},
    {"w_clairvoyance", "clairvoyance", "Clairvoyance", SOC_WHITE, SOC_SPECIAL,
     1, 0, 0, 0, 5, 0},
    {"w_reinforcements", "reinforcements", "Reinforcements", SOC_WHITE,
     SOC_SPECIAL, 1, 0, 0, 0, 4, 1},

    {"b_black_knight_1", "black_knight_1", "Black Knight 1", SOC_BLACK,
     SOC_STANDARD, 5, BIT(SOC_BLACK_KNIGHT), 1, 0, 0, 0},
    {"b_black_knight_3", "black_knight_3", "Black Knight 3", SOC_BLACK,
     SOC_STANDARD, 3, BIT(SOC_BLACK_KNIGHT), 3, 0, 0, 0},
    {"b_black_knight_5", "black_knight_5", "Black Knight 5", SOC_BLACK,
     SOC_STANDARD, 2, BIT(SOC_BLACK_KNIGHT), 5, 0, 0, 0},
    {"b_black_knight_7", "black_knight_7", "Black Knight 7", SOC_BLACK,
     SOC_STANDARD, 1, BIT(SOC_BLACK_KNIGHT), 7, 0, 0, 0},
    {"b_lancelot_dragon_1_5", "lancelot_dragon_1_5", "Lancelot/Dragon 1/5",
     SOC_BLACK, SOC_STANDARD, 4, BIT(SOC_LANCELOT) | BIT(SOC_DRAGON), 1, 5, 0,
     0},
    {"b_lancelot_dragon_3_7", "lancelot_dragon_3_7", "Lancelot/Dragon 3/7",
     SOC_BLACK, SOC_STANDARD, 3, BIT(SOC_LANCELOT) | BIT(SOC_DRAGON), 3, 7, 0,
     0},
    {"b_lancelot_dragon_5_9", "lancelot_dragon_5_9", "Lancelot/Dragon 5/9",
     SOC_BLACK, SOC_STANDARD, 3, BIT(SOC_LANCELOT) | BIT(SOC_DRAGON), 5, 9, 0,
     0},
    {"b_lancelot_dragon_7_11", "lancelot_dragon_7_11", "Lancelot/Dragon 7/11",
     SOC_BLACK, SOC_STANDARD, 1, BIT(SOC_LANCELOT) | BIT(SOC_DRAGON), 7, 11, 0,
     0},
    {"b_excalibur", "excalibur", "Excalibur", SOC_BLACK, SOC_STANDARD, 15,
     BIT(SOC_EXCALIBUR), 0, 0, 1, 0},
    {"b_despair", "despair", "Despair", SOC_BLACK, SOC_STANDARD, 15,
     BIT(SOC_GRAIL), 0, 0, 0, 0},
    {"b_picts", "picts", "Picts", SOC_BLACK, SOC_STANDARD, 4, BIT(SOC_PICTS), 0,
     0, 1, 0},
    {"b_saxons", "saxons", "Saxons", SOC_BLACK, SOC_STANDARD, 4,
     BIT(SOC_SAXONS), 0, 0, 1, 0},
    {"b_mercenaries", "mercenaries", "Mercenaries", SOC_BLACK, SOC_STANDARD, 4,
     BIT(SOC_PICTS) | BIT(SOC_SAXONS), 0, 0, 1, 0},
    {"b_morgan_siege", "morgan_siege", "Morgan (add siege engines)", SOC_BLACK,
     SOC_SPECIAL, 1, BIT(SOC_CAMELOT), 0, 0, 2, 0},
    {"b_morgan_draw3", "morgan_draw3", "Morgan (three more draws)", SOC_BLACK,
     SOC_SPECIAL, 1, 0, 0, 0, 3, 0},
    {"b_morgan_life", "morgan_life", "Morgan (life loss)", SOC_BLACK,
     SOC_SPECIAL, 1, 0, 0, 0, 1, 0},
    {"b_morgan_discard", "morgan_discard", "Morgan (discards)", SOC_BLACK,
     SOC_SPECIAL, 1, 0, 0, 0, 3, 1},
    {"b_morgan_volunteer", "morgan_volunteer", "Morgan (sacrifice)", SOC_BLACK,
     SOC_SPECIAL, 1, 0, 0, 0, 2, 1},
    {"b_desolation", "desolation", "Desolation", SOC_BLACK, SOC_SPECIAL, 2,
     BIT(SOC_GRAIL), 0, 0, 0, 0},
    {"b_dark_forest", "dark_forest", "Dark Forest", SOC_BLACK, SOC_SPECIAL, 1,
     BIT(SOC_GRAIL), 0, 0, 0, 0},
    {"b_guinevere", "guinevere", "Guinevere", SOC_BLACK, SOC_SPECIAL, 1,
     BIT(SOC_BLACK_KNIGHT) | BIT(SOC_LANCELOT), 0, 0, 0, 0},
    {"b_mists_of_avalon", "mists_of_avalon", "Mists of Avalon", SOC_BLACK,
     SOC_SPECIAL, 1, 0, 0, 0, 1, 0},
    {"b_mordred", "mordred", "Mordred", SOC_BLACK, SOC_SPECIAL, 1,
     BIT(SOC_PICTS) | BIT(SOC_SAXONS), 0, 0, 1, 1},
    {"b_vivien", "vivien", "Vivien", SOC_BLACK, SOC_SPECIAL, 1, 0, 0, 0, 0, 0},

    {"l_loyal", "loyal", "Loyal", SOC_LOYALTY, SOC_NOKIND, 7, 0, 0, 0, 0, 0},
    {"l_traitor", "traitor", "Traitor", SOC_LOYALTY, SOC_NOKIND, 1, 0, 0, 0, 0,
     0},
};

/* §4.8: name, solo, combat, perpetual, spots (white, black), win
 * (swords, LP, cards, relic), loss (swords, LP, siege engines).  The
 * Lancelot, Dragon, Excalibur and Grail card rewards are single-source
 * (§8 items 2 and 3). */
const struct soc_quest rpl__soc_quest[SOC_NLOC] = {
    {"camelot", "Camelot", 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {"black_knight", "the Black Knight", 1, 1, 1, 4, 4, 1, 1, 3, 0, 1, 1, 0},
    {"lancelot", "Lancelot", 1, 1, 0, 5, 5, 1, 1, 4, 1 + SOC_ARMOR, 1, 1, 0},
    {"dragon", "the Dragon", 0, 1, 0, 9, 5, 2, 2, 7, 0, 2, 2, 0},
    {"excalibur", "Excalibur", 0, 0, 0, 0, 0, 2, 1, 7, 1 + SOC_REL_EXCALIBUR, 2,
     1, 0},
    {"grail", "the Holy Grail", 0, 0, 0, 0, 0, 3, 1, 7, 1 + SOC_REL_GRAIL, 3, 1,
     0},
    {"picts", "the Picts", 0, 0, 1, 0, 0, 1, 1, 4, 0, 1, 1, 2},
    {"saxons", "the Saxons", 0, 0, 1, 0, 0, 1, 1, 4, 0, 1, 1, 2},
};

const struct soc_knight_def rpl__soc_knight[SOC_NKNIGHTS] = {
    {"arthur", "King Arthur",
     "once in his turn, exchanges one white card with another knight"},
    {"galahad", "Sir Galahad",
     "plays one special white card per turn without spending an action"},
    {"gawain", "Sir Gawain", "draws 3 white cards at the Round Table"},
    {"kay", "Sir Kay",
     "adds one fight card to the knights' total when a combat where he is "
     "ends"},
    {"palamedes", "Sir Palamedes",
     "gains 1 more life point from every quest won where he is"},
    {"percival", "Sir Percival",
     "may look at the top black card before the progression of evil"},
    {"tristan", "Sir Tristan", "leaves Camelot without spending an action"},
};

const char *const rpl__soc_relic_tok[SOC_NRELICS] = {"armor", "excalibur",
                                                     "grail"};

static bool
tok_eq(const char *tok, const char *p, size_t n)
{
    return rpl__word_is(tok, p, n);
}

int
rpl__soc_card_find(const char *p, size_t n)
{
    for (int c = 0; c < SOC_NCARDS; c++)
        if (tok_eq(rpl__soc_card[c].tok, p, n))
            return c;
    return -1;
}

int
rpl__soc_loc_find(const char *p, size_t n)
{
    for (int l = 0; l < SOC_NLOC; l++)
        if (tok_eq(rpl__soc_quest[l].tok, p, n))
            return l;
    return -1;
}

int
rpl__soc_knight_find(const char *p, size_t n)
{
    for (int k = 0; k < SOC_NKNIGHTS; k++)
        if (tok_eq(rpl__soc_knight[k].tok, p, n))
            return k;
    return -1;
}

/* Card tokens of one colour: white and black tokens differ only where
 * the context says which ("grail", "excalibur", "picts", "saxons"). */
static int
card_of_colour(const char *p, size_t n, unsigned colour)
{
    const int lo = colour == SOC_WHITE ? 0 : SOC_B0;
    const int hi = colour == SOC_WHITE ? SOC_B0 : SOC_L0;

    for (int c = lo; c < hi; c++)
        if (tok_eq(rpl__soc_card[c].tok, p, n))
            return c;
    return -1;
}

bool
rpl__soc_parse_cards(const char *p, size_t n, uint8_t *out, size_t cap,
                     size_t *count, bool sorted, unsigned colour)
{
    size_t k = 0;
    int last = -1;

    for (size_t i = 0; i <= n;) {
        size_t j = i;
        int c;

        while (j < n && p[j] != ',')
            j++;
        if (j == i || k == cap)
            return false;
        c = card_of_colour(p + i, j - i, colour);
        if (c < 0 || (sorted && c < last))
            return false;
        last = c;
        out[k++] = (uint8_t)c;
        i = j + 1;
    }
    *count = k;
    return true;
}

void
rpl__soc_fmt_cards(char *out, size_t cap, const uint8_t *cards, size_t n)
{
    size_t len = 0;

    if (cap == 0)
        return;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *t = rpl__soc_card[cards[i]].tok;
        const size_t tl = strlen(t);

        if (len + tl + 2 > cap)
            return;
        if (i)
            out[len++] = ',';
        memcpy(out + len, t, tl);
        len += tl;
        out[len] = '\0';
    }
}

void
rpl__soc_sort_cards(uint8_t *cards, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        const uint8_t c = cards[i];
        size_t j = i;

        while (j > 0 && cards[j - 1] > c) {
            cards[j] = cards[j - 1];
            j--;
        }
        cards[j] = c;
    }
}
