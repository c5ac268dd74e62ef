/*
 * soc/coverage.c - the rule ids of Shadows over Camelot as coverage ids
 * (rpl_log_coverage()): each quest won and lost, each white card played,
 * each black card drawn, each knight's power, the progression of evil,
 * the accusation both ways, the flip, each end, the Grail's save,
 * healing, sacrifice and the other branches of camelog-soc(7), and the
 * rules lines a corpus cycles through.  The order of the table is the
 * bit order: ids are only added at its end.  cover() reads the line and
 * the public state before and after it; it changes nothing the rules
 * decide.
 */
#include <string.h>

#include "soc.h"

enum {
    C_QUEST0 = 0, /* quest q (1..7) won: C_QUEST0 + 2 (q - 1), lost: + 1 */
    C_WHITE0 = C_QUEST0 + 14,       /* white card c played */
    C_BLACK0 = C_WHITE0 + SOC_NWT,  /* black card c drawn */
    C_KNIGHT0 = C_BLACK0 + SOC_NBT, /* knight k's power */
    C_PLAYERS3 = C_KNIGHT0 + SOC_NKNIGHTS,
    C_PLAYERS4,
    C_PLAYERS5,
    C_PLAYERS6,
    C_PLAYERS7,
    C_TRAITOR_OFF,
    C_BRAVE,
    C_W1,
    C_POOL,
    C_ALLOT,
    C_EVIL_BLACK,
    C_EVIL_SIEGE,
    C_EVIL_LIFE,
    C_MOVE,
    C_DRAW,
    C_SIEGE,
    C_SIEGE_NONE,
    C_ROLL,
    C_PLAY,
    C_SPECIAL,
    C_HEAL,
    C_SACRIFICE,
    C_DIES,
    C_SAVE,
    C_ACCUSE,
    C_ACCUSE_RIGHT,
    C_ACCUSE_WRONG,
    C_SHOWS_FATE,
    C_SHOWS_LAST,
    C_TAUNT,
    C_TAUNT_NONE,
    C_TAUNTED,
    C_FLIP_TRAITOR,
    C_FLIP_NONE,
    C_KEEP,
    C_CANCEL_EXC,
    C_CANCEL_MERLIN,
    C_WAR_PICTS,
    C_WAR_SAXONS,
    C_VOLUNTEER,
    C_VOLUNTEER_NONE,
    C_DISCARD,
    C_PASS,
    C_TOP,
    C_SHARE,
    C_ORDER,
    C_RESHUFFLE,
    C_RELIC_ARMOR,
    C_RELIC_EXCALIBUR,
    C_RELIC_GRAIL,
    C_END_KNIGHTS,
    C_END_EVIL_MAJ,
    C_END_SIEGE,
    C_END_BLACK,
    C_END_DEATHS,
    C_END_ABORTED,
    C_S01, /* S-01 .. S-45 of camelog-soc(7): C_S01 + nn - 1 */
    C_S45 = C_S01 + 44,
    C_KAY_COMBAT,
    C_S34_LD,
    C_S35_NOBODY,
    C_S35_SHORT,
    C_ON_DRAGON,
    C_OWN_MERLINS,
    C_OWN_OFFER,
    C_REDEAL,
    C_COUNT
};

#define C_S(nn) (C_S01 + (nn)-1)

const struct rpl_coverage_id rpl__soc_cov[SOC_NCOV] = {
    {"soc.quest.black_knight.won", "the quest black knight won", NULL},
    {"soc.quest.black_knight.lost", "the quest black knight lost", NULL},
    {"soc.quest.lancelot.won", "the quest lancelot won", NULL},
    {"soc.quest.lancelot.lost", "the quest lancelot lost", NULL},
    {"soc.quest.dragon.won", "the quest dragon won", NULL},
    {"soc.quest.dragon.lost", "the quest dragon lost", NULL},
    {"soc.quest.excalibur.won", "the quest excalibur won", NULL},
    {"soc.quest.excalibur.lost", "the quest excalibur lost", NULL},
    {"soc.quest.grail.won", "the quest grail won", NULL},
    {"soc.quest.grail.lost", "the quest grail lost", NULL},
    {"soc.quest.picts.won", "the quest picts won", NULL},
    {"soc.quest.picts.lost", "the quest picts lost", NULL},
    {"soc.quest.saxons.won", "the quest saxons won", NULL},
    {"soc.quest.saxons.lost", "the quest saxons lost", NULL},
    {"soc.card.fight_1", "the white card fight 1 played", NULL},
    {"soc.card.fight_2", "the white card fight 2 played", NULL},
    {"soc.card.fight_3", "the white card fight 3 played", NULL},
    {"soc.card.fight_4", "the white card fight 4 played", NULL},
    {"soc.card.fight_5", "the white card fight 5 played", NULL},
    {"soc.card.grail", "the white card grail played", NULL},
    {"soc.card.merlin", "the white card merlin played", NULL},
    {"soc.card.convocation", "the white card convocation played", NULL},
    {"soc.card.fate", "the white card fate played", NULL},
    {"soc.card.heroism", "the white card heroism played", NULL},
    {"soc.card.lady_of_the_lake", "the white card lady of the lake played",
     NULL},
    {"soc.card.messenger", "the white card messenger played", NULL},
    {"soc.card.piety", "the white card piety played", NULL},
    {"soc.card.clairvoyance", "the white card clairvoyance played", NULL},
    {"soc.card.reinforcements", "the white card reinforcements played", NULL},
    {"soc.black.black_knight_1", "the black card black knight 1 drawn", NULL},
    {"soc.black.black_knight_3", "the black card black knight 3 drawn", NULL},
    {"soc.black.black_knight_5", "the black card black knight 5 drawn", NULL},
    {"soc.black.black_knight_7", "the black card black knight 7 drawn", NULL},
    {"soc.black.lancelot_dragon_1_5",
     "the black card lancelot dragon 1 5 drawn", NULL},
    {"soc.black.lancelot_dragon_3_7",
     "the black card lancelot dragon 3 7 drawn", NULL},
    {"soc.black.lancelot_dragon_5_9",
     "the black card lancelot dragon 5 9 drawn", NULL},
    {"soc.black.lancelot_dragon_7_11",
     "the black card lancelot dragon 7 11 drawn", NULL},
    {"soc.black.excalibur", "the black card excalibur drawn", NULL},
    {"soc.black.despair", "the black card despair drawn", NULL},
    {"soc.black.picts", "the black card picts drawn", NULL},
    {"soc.black.saxons", "the black card saxons drawn", NULL},
    {"soc.black.mercenaries", "the black card mercenaries drawn", NULL},
    {"soc.black.morgan_siege", "the black card morgan siege drawn", NULL},
    {"soc.black.morgan_draw3", "the black card morgan draw3 drawn", NULL},
    {"soc.black.morgan_life", "the black card morgan life drawn", NULL},
    {"soc.black.morgan_discard", "the black card morgan discard drawn", NULL},
    {"soc.black.morgan_volunteer", "the black card morgan volunteer drawn",
     NULL},
    {"soc.black.desolation", "the black card desolation drawn", NULL},
    {"soc.black.dark_forest", "the black card dark forest drawn", NULL},
    {"soc.black.guinevere", "the black card guinevere drawn", NULL},
    {"soc.black.mists_of_avalon", "the black card mists of avalon drawn", NULL},
    {"soc.black.mordred", "the black card mordred drawn", NULL},
    {"soc.black.vivien", "the black card vivien drawn", NULL},
    {"soc.knight.arthur", "exchanges a white card with another knight (swap)",
     NULL},
    {"soc.knight.galahad", "plays a special white card (special)", NULL},
    {"soc.knight.gawain", "draws at the Round Table (draw)", NULL},
    {"soc.knight.kay", "adds a fight card to a combat (kay)", NULL},
    {"soc.knight.palamedes",
     "gains a life point more from a quest won where he is", NULL},
    {"soc.knight.percival", "looks at the top black card (look)", NULL},
    {"soc.knight.tristan", "leaves Camelot (move)", NULL},
    [C_PLAYERS3] = {"soc.players.3", "a game of 3 players", NULL},
    [C_PLAYERS4] = {"soc.players.4", "a game of 4 players", NULL},
    [C_PLAYERS5] = {"soc.players.5", "a game of 5 players", NULL},
    [C_PLAYERS6] = {"soc.players.6", "a game of 6 players", NULL},
    [C_PLAYERS7] = {"soc.players.7", "a game of 7 players", NULL},
    [C_TRAITOR_OFF] = {"soc.rules.traitor.off",
                       "the first-game option without a traitor", NULL},
    [C_BRAVE] = {"soc.rules.brave", "Three Brave Knights (brave=on)", NULL},
    [C_W1] = {"soc.W-1", "warning: 3 players without brave=on", NULL},
    [C_POOL] = {"soc.setup.pool", "a card pooled at setup", NULL},
    [C_ALLOT] = {"soc.setup.allot", "the pooled cards allotted", NULL},
    [C_EVIL_BLACK] = {"soc.evil.black", "the progression of evil: a black card",
                      NULL},
    [C_EVIL_SIEGE] = {"soc.evil.siege",
                      "the progression of evil: a siege engine", NULL},
    [C_EVIL_LIFE] = {"soc.evil.life", "the progression of evil: a life point",
                     NULL},
    [C_MOVE] = {"soc.action.move", "a knight moves", NULL},
    [C_DRAW] = {"soc.action.draw", "white cards drawn at the Round Table",
                NULL},
    [C_SIEGE] = {"soc.action.siege", "a fight at the siege of Camelot", NULL},
    [C_SIEGE_NONE] = {"soc.action.siege.none", "a siege fight with no card",
                      NULL},
    [C_ROLL] = {"soc.roll", "the d8 of a siege fight", NULL},
    [C_PLAY] = {"soc.action.play", "a white card played on a quest", NULL},
    [C_SPECIAL] = {"soc.action.special", "a special white card", NULL},
    [C_HEAL] = {"soc.heal", "healing: three identical cards discarded", NULL},
    [C_SACRIFICE] = {"soc.sacrifice", "a life point sacrificed for an action",
                     NULL},
    [C_DIES] = {"soc.dies", "a knight dies", NULL},
    [C_SAVE] = {"soc.grail.save", "the Holy Grail saves a dying knight", NULL},
    [C_ACCUSE] = {"soc.accuse", "an accusation", NULL},
    [C_ACCUSE_RIGHT] = {"soc.accuse.right", "the accused is the traitor", NULL},
    [C_ACCUSE_WRONG] = {"soc.accuse.wrong", "the accused is loyal", NULL},
    [C_SHOWS_FATE] = {"soc.shows.fate", "Fate shows a loyalty card", NULL},
    [C_SHOWS_LAST] = {"soc.shows.last", "the last knight alive shows his",
                      NULL},
    [C_TAUNT] = {"soc.traitor.taunt", "the revealed traitor takes a card",
                 NULL},
    [C_TAUNT_NONE] = {"soc.traitor.taunt.none",
                      "the revealed traitor takes none", NULL},
    [C_TAUNTED] = {"soc.traitor.taunted", "the card a taunt takes", NULL},
    [C_FLIP_TRAITOR] = {"soc.flip.traitor",
                        "the flip: the traitor shows himself", NULL},
    [C_FLIP_NONE] = {"soc.flip.none", "the flip: no one holds the traitor card",
                     NULL},
    [C_KEEP] = {"soc.relic.armor.keep",
                "the Armor's holder keeps one of two black cards", NULL},
    [C_CANCEL_EXC] = {"soc.cancel.excalibur",
                      "the Excalibur relic cancels a black card", NULL},
    [C_CANCEL_MERLIN] = {"soc.cancel.merlin",
                         "three Merlins cancel a black card", NULL},
    [C_WAR_PICTS] = {"soc.war.picts", "Mercenaries or Mordred go to the Picts",
                     NULL},
    [C_WAR_SAXONS] = {"soc.war.saxons",
                      "Mercenaries or Mordred go to the Saxons", NULL},
    [C_VOLUNTEER] = {"soc.volunteer", "a knight volunteers for Morgan", NULL},
    [C_VOLUNTEER_NONE] = {"soc.volunteer.none",
                          "no knight volunteers for Morgan", NULL},
    [C_DISCARD] = {"soc.discard", "white cards discarded", NULL},
    [C_PASS] = {"soc.pass", "a seat declines what it was asked", NULL},
    [C_TOP] = {"soc.top", "black cards looked at", NULL},
    [C_SHARE] = {"soc.share", "a quest's white cards shared", NULL},
    [C_ORDER] = {"soc.order", "Clairvoyance's new order", NULL},
    [C_RESHUFFLE] = {"soc.reshuffle", "the discards shuffled under a deck",
                     NULL},
    [C_RELIC_ARMOR] = {"soc.relic.armor", "Lancelot's Armor taken", NULL},
    [C_RELIC_EXCALIBUR] = {"soc.relic.excalibur", "the Excalibur relic taken",
                           NULL},
    [C_RELIC_GRAIL] = {"soc.relic.grail", "the Holy Grail relic taken", NULL},
    [C_END_KNIGHTS] = {"soc.end.knights.majority",
                       "knights win by a majority of white swords", NULL},
    [C_END_EVIL_MAJ] = {"soc.end.evil.majority",
                        "evil wins by a majority of black swords", NULL},
    [C_END_SIEGE] = {"soc.end.evil.siege",
                     "evil wins by the twelfth siege engine", NULL},
    [C_END_BLACK] = {"soc.end.evil.black", "evil wins by seven black swords",
                     NULL},
    [C_END_DEATHS] = {"soc.end.evil.deaths",
                      "evil wins: every loyal knight dead", NULL},
    [C_END_ABORTED] = {"soc.end.aborted", "an abandoned game", NULL},
    /* The interpretations of camelog-soc(7), by their ids. */
    [C_S(1)] = {"soc.S-01", "a black card drawn face up", NULL},
    [C_S(2)] = {"soc.S-02",
                "Lancelot, the Dragon, Excalibur or the Grail won: the "
                "reference's rewards",
                NULL},
    [C_S(3)] = {"soc.S-03", "the sword of Excalibur moves on its track", NULL},
    [C_S(4)] = {"soc.S-04", "a card on the full Grail board removes another",
                NULL},
    [C_S(5)] = {"soc.S-05", "Desolation on the Grail", NULL},
    [C_S(6)] = {"soc.S-06", "Dark Forest in play", NULL},
    [C_S(7)] = {"soc.S-07", "a single Merlin cancels", NULL},
    [C_S(8)] = {"soc.S-08", "a Morgan card takes effect", NULL},
    [C_S(9)] = {"soc.S-09", "a special white card other than Merlin", NULL},
    [C_S(10)] = {"soc.S-10", "Guinevere", NULL},
    [C_S(11)] = {"soc.S-11", "Mordred sent to a war", NULL},
    [C_S(12)] = {"soc.S-12", "a quest lost under the Mists of Avalon", NULL},
    [C_S(13)] = {"soc.S-13", "Vivien in play", NULL},
    [C_S(14)] = {"soc.S-14", "Sir Kay's card in a siege fight", NULL},
    [C_S(15)] = {"soc.S-15", "Sir Galahad's special card", NULL},
    [C_S(16)] = {"soc.S-16", "Sir Tristan leaves Camelot", NULL},
    [C_S(17)] = {"soc.S-17", "King Arthur's exchange", NULL},
    [C_S(18)] = {"soc.S-18", "a sacrifice", NULL},
    [C_S(19)] = {"soc.S-19", "a turn ends (done)", NULL},
    [C_S(20)] = {"soc.S-20", "a wrong accusation with no white sword", NULL},
    [C_S(21)] = {"soc.S-21", "the flip turns white swords", NULL},
    [C_S(22)] = {"soc.S-22", "the traitor revealed", NULL},
    [C_S(23)] = {"soc.S-23", "the revealed traitor taunts", NULL},
    [C_S(24)] = {"soc.S-24", "an end condition met", NULL},
    [C_S(25)] = {"soc.S-25", "a deck takes the discards", NULL},
    [C_S(26)] = {"soc.S-26", "Three Brave Knights look at their loyalty", NULL},
    [C_S(27)] = {"soc.S-27", "a knight dies", NULL},
    [C_S(28)] = {"soc.S-28", "two knights or more on a group quest", NULL},
    [C_S(29)] = {"soc.S-29", "a fight card on the Dragon", NULL},
    [C_S(30)] = {"soc.S-30", "a white card moves Excalibur", NULL},
    [C_S(31)] = {"soc.S-31", "healing", NULL},
    [C_S(32)] = {"soc.S-32", "a siege fight with no card", NULL},
    [C_S(33)] = {"soc.S-33", "three Merlins from several knights", NULL},
    [C_S(34)] = {"soc.S-34", "a black card of a quest that is over", NULL},
    [C_S(35)] = {"soc.S-35", "a quest's reward cards", NULL},
    [C_S(36)] = {"soc.S-36", "the opening pool shared", NULL},
    [C_S(37)] = {"soc.S-37", "an accusation", NULL},
    [C_S(38)] = {"soc.S-38", "a dead knight's cards discarded unseen", NULL},
    [C_S(39)] = {"soc.S-39", "the first player drawn (no King Arthur)", NULL},
    [C_S(40)] = {"soc.S-40",
                 "a relic to the knight who completed the quest from "
                 "elsewhere",
                 NULL},
    [C_S(41)] = {"soc.S-41", "a decision of the table", NULL},
    [C_S(42)] = {"soc.S-42", "a combat quest decided by its totals", NULL},
    [C_S(43)] = {"soc.S-43", "a siege fight decided by the d8", NULL},
    [C_S(44)] = {"soc.S-44", "as many white as black swords at the end", NULL},
    [C_S(45)] = {"soc.S-45", "advice on talk about card values",
                 "advice to hosts about talk, which no line records"},
    [C_KAY_COMBAT] = {"soc.knight.kay.combat",
                      "Sir Kay's card in a combat quest", NULL},
    [C_S34_LD] = {"soc.S-34.lancelot_dragon",
                  "a Lancelot/Dragon card after both quests are over", NULL},
    [C_S35_NOBODY] = {"soc.S-35.nobody", "a quest won with nobody present",
                      NULL},
    [C_S35_SHORT] = {"soc.S-35.short",
                     "a quest's reward larger than the white cards left", NULL},
    [C_ON_DRAGON] = {"soc.special.dragon", "Merlin or Heroism on the Dragon",
                     NULL},
    [C_OWN_MERLINS] = {"soc.S-41.merlins",
                       "a knight offers his own Merlins (own=on)", NULL},
    [C_OWN_OFFER] = {"soc.S-41.offer",
                     "a knight answers Morgan or Convocation (own=on)", NULL},
    [C_REDEAL] = {"soc.S-36.redeal", "the pool shared at random (redeal)",
                  NULL},
};

_Static_assert(C_COUNT == SOC_NCOV, "SOC_NCOV counts the ids");
_Static_assert(SOC_NCOV <= RPL_COVERAGE_MAX, "the ids fit a coverage set");

/* Every player count, the game without a traitor and the 3-player
 * variant, each knight's own decisions (own=on) and the one-seat table
 * lines of the files written before them; the larger tables come back
 * more often, where the cards reach the most branches. */
const char *const rpl__soc_corpus_rules[] = {
    "players=3 traitor=on brave=on own=on",
    "players=4 traitor=on brave=off own=on",
    "players=5 traitor=on brave=off own=on",
    "players=6 traitor=on brave=off own=on",
    "players=7 traitor=on brave=off own=on",
    "players=4 traitor=off brave=off",
    "players=3 traitor=on brave=off",
    "players=5 traitor=on brave=off",
    "players=7 traitor=on brave=off",
    NULL,
};

/* Seat pK of a token, 0 when the token is not one. */
static unsigned
seat_of(const struct rpl__tok *t, unsigned n)
{
    unsigned k = 0;

    if (t->n < 2 || t->n > 3 || t->p[0] != 'p')
        return 0;
    for (size_t i = 1; i < t->n; i++) {
        if (t->p[i] < '0' || t->p[i] > '9')
            return 0;
        k = k * 10u + (unsigned)(t->p[i] - '0');
    }
    return k >= 1 && k <= n ? k : 0;
}

static int
kw_of(const struct rpl__tok *t)
{
    for (int i = 0; i < SOC_K_COUNT; i++)
        if (rpl__tok_is(t, rpl__soc_kw[i]))
            return i;
    return -1;
}

static void
cover_card(const struct rpl__tok *t, uint64_t *bits)
{
    const int c = rpl__soc_card_find(t->p, t->n);

    if (c >= 0 && soc_is_white((unsigned)c))
        rpl__cov_set(bits, C_WHITE0 + (size_t)c);
    else if (c >= 0 && soc_is_black((unsigned)c))
        rpl__cov_set(bits, C_BLACK0 + (size_t)(c - SOC_B0));
}

static void
cover_quest(const struct soc_pub *before, const struct rpl__line *ln,
            uint64_t *bits)
{
    const int q = rpl__soc_loc_find(ln->tok[1].p, ln->tok[1].n);
    const bool won = rpl__tok_is(&ln->tok[2], "won");

    if (q < SOC_BLACK_KNIGHT || q >= SOC_NLOC)
        return;
    rpl__cov_set(bits, C_QUEST0 + 2u * (size_t)(q - 1) + (won ? 0u : 1u));
    for (size_t i = 3; i < ln->ntok; i++)
        if (ln->tok[i].n > 6 && memcmp(ln->tok[i].p, "relic=", 6) == 0) {
            const unsigned relic = rpl__soc_quest[q].relic;

            if (relic == 1 + SOC_ARMOR)
                rpl__cov_set(bits, C_RELIC_ARMOR);
            else if (relic == 1 + SOC_REL_EXCALIBUR)
                rpl__cov_set(bits, C_RELIC_EXCALIBUR);
            else if (relic == 1 + SOC_REL_GRAIL)
                rpl__cov_set(bits, C_RELIC_GRAIL);
        }
    if (!won)
        return;
    for (unsigned k = 1; k <= before->n && k <= SOC_MAX_SEATS; k++) {
        const struct soc_seat *const s = &before->seat[k];

        if (s->knight == SOC_PALAMEDES && s->loc == (unsigned)q &&
            (s->flags & SOC_F_ALIVE))
            rpl__cov_set(bits, C_KNIGHT0 + SOC_PALAMEDES);
    }
}

static void
cover_end(const struct rpl__line *ln, uint64_t *bits)
{
    if (ln->ntok == 2 && rpl__tok_is(&ln->tok[1], "aborted"))
        rpl__cov_set(bits, C_END_ABORTED);
    if (ln->ntok != 3)
        return;
    if (rpl__tok_is(&ln->tok[1], "knights"))
        rpl__cov_set(bits, C_END_KNIGHTS);
    else if (rpl__tok_is(&ln->tok[2], "majority"))
        rpl__cov_set(bits, C_END_EVIL_MAJ);
    else if (rpl__tok_is(&ln->tok[2], "siege"))
        rpl__cov_set(bits, C_END_SIEGE);
    else if (rpl__tok_is(&ln->tok[2], "black"))
        rpl__cov_set(bits, C_END_BLACK);
    else if (rpl__tok_is(&ln->tok[2], "deaths"))
        rpl__cov_set(bits, C_END_DEATHS);
}

static void
cover_config(const struct soc_pub *p, uint64_t *bits)
{
    if (p->n >= SOC_MIN_SEATS && p->n <= SOC_MAX_SEATS)
        rpl__cov_set(bits, C_PLAYERS3 + (size_t)(p->n - SOC_MIN_SEATS));
    if (!p->traitor_on)
        rpl__cov_set(bits, C_TRAITOR_OFF);
    if (p->brave)
        rpl__cov_set(bits, C_BRAVE);
    if (p->n == 3 && p->traitor_on && !p->brave)
        rpl__cov_set(bits, C_W1);
}

/* The lines of a seat: its knight's power, and what it chose. */
static void
cover_seat_line(const struct soc_pub *b, int kw, const struct rpl__line *ln,
                uint64_t *bits)
{
    const unsigned k = ln->ntok > 1 ? seat_of(&ln->tok[1], b->n) : 0;
    const unsigned knight = k ? b->seat[k].knight : SOC_NKNIGHTS;

    switch (kw) {
    case SOC_K_SWAP:
        if (knight == SOC_ARTHUR && ln->ntok == 4)
            rpl__cov_set(bits, C_KNIGHT0 + SOC_ARTHUR);
        break;
    case SOC_K_LOOK:
        if (knight == SOC_PERCIVAL)
            rpl__cov_set(bits, C_KNIGHT0 + SOC_PERCIVAL);
        break;
    case SOC_K_KAY:
        rpl__cov_set(bits, C_KNIGHT0 + SOC_KAY);
        break;
    case SOC_K_DRAW:
        rpl__cov_set(bits, C_DRAW);
        if (knight == SOC_GAWAIN)
            rpl__cov_set(bits, C_KNIGHT0 + SOC_GAWAIN);
        break;
    case SOC_K_MOVE:
        rpl__cov_set(bits, C_MOVE);
        if (knight == SOC_TRISTAN && b->seat[k].loc == SOC_CAMELOT)
            rpl__cov_set(bits, C_KNIGHT0 + SOC_TRISTAN);
        break;
    case SOC_K_SPECIAL:
        rpl__cov_set(bits, C_SPECIAL);
        if (ln->ntok > 2)
            cover_card(&ln->tok[2], bits);
        if (knight == SOC_GALAHAD && (b->used & SOC_T_SPECIAL) == 0)
            rpl__cov_set(bits, C_KNIGHT0 + SOC_GALAHAD);
        break;
    case SOC_K_PLAY:
        rpl__cov_set(bits, C_PLAY);
        if (ln->ntok > 2)
            cover_card(&ln->tok[2], bits);
        break;
    case SOC_K_SIEGE:
        rpl__cov_set(bits, C_SIEGE);
        if (ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "none"))
            rpl__cov_set(bits, C_SIEGE_NONE);
        break;
    case SOC_K_HEAL:
        rpl__cov_set(bits, C_HEAL);
        break;
    case SOC_K_SACRIFICE:
        rpl__cov_set(bits, C_SACRIFICE);
        break;
    case SOC_K_ACCUSE:
        rpl__cov_set(bits, C_ACCUSE);
        break;
    case SOC_K_SAVE:
        rpl__cov_set(bits, C_SAVE);
        break;
    case SOC_K_EVIL:
        if (ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "black"))
            rpl__cov_set(bits, C_EVIL_BLACK);
        else if (ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "siege"))
            rpl__cov_set(bits, C_EVIL_SIEGE);
        else if (ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "life"))
            rpl__cov_set(bits, C_EVIL_LIFE);
        break;
    case SOC_K_TAUNT:
        rpl__cov_set(bits, ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "none")
                               ? C_TAUNT_NONE
                               : C_TAUNT);
        break;
    case SOC_K_KEEP:
        rpl__cov_set(bits, C_KEEP);
        break;
    case SOC_K_CANCEL:
        rpl__cov_set(bits, ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "merlin")
                               ? C_CANCEL_MERLIN
                               : C_CANCEL_EXC);
        break;
    case SOC_K_WAR:
        rpl__cov_set(bits, ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "picts")
                               ? C_WAR_PICTS
                               : C_WAR_SAXONS);
        break;
    case SOC_K_VOLUNTEER:
        rpl__cov_set(bits, ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "none")
                               ? C_VOLUNTEER_NONE
                               : C_VOLUNTEER);
        break;
    case SOC_K_DISCARD:
        rpl__cov_set(bits, C_DISCARD);
        break;
    case SOC_K_PASS:
        rpl__cov_set(bits, C_PASS);
        break;
    case SOC_K_SHARE:
        rpl__cov_set(bits, C_SHARE);
        break;
    case SOC_K_ORDER:
        rpl__cov_set(bits, C_ORDER);
        break;
    case SOC_K_POOL:
        rpl__cov_set(bits, C_POOL);
        break;
    case SOC_K_ALLOT:
        rpl__cov_set(bits, C_ALLOT);
        break;
    default:
        break;
    }
}

/* The dealer's lines. */
static void
cover_dealer_line(const struct soc_pub *b, int kw, const struct rpl__line *ln,
                  uint64_t *bits)
{
    switch (kw) {
    case SOC_K_QUEST:
        if (ln->ntok > 2)
            cover_quest(b, ln, bits);
        break;
    case SOC_K_BLACK:
        for (size_t i = 2; i < ln->ntok; i++)
            cover_card(&ln->tok[i], bits);
        break;
    case SOC_K_ROLL:
        rpl__cov_set(bits, C_ROLL);
        break;
    case SOC_K_TAUNTED:
        rpl__cov_set(bits, C_TAUNTED);
        break;
    case SOC_K_TOP:
        rpl__cov_set(bits, C_TOP);
        break;
    case SOC_K_DIES:
        rpl__cov_set(bits, C_DIES);
        break;
    case SOC_K_FLIP:
        rpl__cov_set(bits, ln->ntok > 1 && rpl__tok_is(&ln->tok[1], "none")
                               ? C_FLIP_NONE
                               : C_FLIP_TRAITOR);
        break;
    case SOC_K_END:
        cover_end(ln, bits);
        break;
    case SOC_K_SHOWS:
        if (b->need.kind != SOC_N_SHOWS || ln->ntok < 3)
            break;
        if (b->need.a == SOC_SHOWS_ACCUSED)
            rpl__cov_set(bits, rpl__tok_is(&ln->tok[2], "traitor")
                                   ? C_ACCUSE_RIGHT
                                   : C_ACCUSE_WRONG);
        else if (b->need.a == SOC_SHOWS_FATE)
            rpl__cov_set(bits, C_SHOWS_FATE);
        else if (b->need.a == SOC_SHOWS_LAST)
            rpl__cov_set(bits, C_SHOWS_LAST);
        break;
    default:
        cover_seat_line(b, kw, ln, bits);
        break;
    }
}

/* The card of a black line whose quest is over (S-34). */
static void
cover_over(const struct soc_pub *b, const struct rpl__line *ln, uint64_t *bits)
{
    for (size_t i = 2; i < ln->ntok; i++) {
        const int c = rpl__soc_card_find(ln->tok[i].p, ln->tok[i].n);
        bool over = false;

        if (c >= SOC_LD1 && c <= SOC_LD7) {
            over = b->ld_stage >= 2;
            if (over)
                rpl__cov_set(bits, C_S34_LD);
        } else if (c == SOC_B_EXCALIBUR) {
            over = b->exc_state != 0;
        } else if (c == SOC_DESPAIR || c == SOC_DESOLATION ||
                   c == SOC_DARK_FOREST) {
            over = b->grail_state != 0;
        }
        if (over)
            rpl__cov_set(bits, C_S(34));
        if (c == SOC_DESOLATION && b->grail_state == 0)
            rpl__cov_set(bits, C_S(5));
        if (c == SOC_B_EXCALIBUR && b->exc_state == 0)
            rpl__cov_set(bits, C_S(3));
        if (c == SOC_DESPAIR && b->grail_state == 0 &&
            rpl__soc_grail_low_free(b) < 0)
            rpl__cov_set(bits, C_S(4));
        if (c >= SOC_MORGAN_SIEGE && c <= SOC_MORGAN_VOLUNTEER)
            rpl__cov_set(bits, C_S(8));
        if (c == SOC_GUINEVERE)
            rpl__cov_set(bits, C_S(10));
    }
}

/* A quest's end (S-02, S-12, S-35, S-40, S-42). */
static void
cover_quest_rules(const struct soc_pub *b, const struct rpl__line *ln,
                  uint64_t *bits)
{
    const int q = rpl__soc_loc_find(ln->tok[1].p, ln->tok[1].n);
    const bool won = rpl__tok_is(&ln->tok[2], "won");

    if (q < SOC_BLACK_KNIGHT || q >= SOC_NLOC)
        return;
    if (rpl__soc_quest[q].is_combat)
        rpl__cov_set(bits, C_S(42));
    if (!won) {
        if (b->mists)
            rpl__cov_set(bits, C_S(12));
        return;
    }
    if (q != SOC_BLACK_KNIGHT && q != SOC_PICTS && q != SOC_SAXONS)
        rpl__cov_set(bits, C_S(2));
    rpl__cov_set(bits, C_S(35));
    if (!rpl__soc_present_mask(b, (unsigned)q))
        rpl__cov_set(bits, C_S35_NOBODY);
    else if (rpl__soc_white_avail(b) < rpl__soc_quest[q].win_cards)
        rpl__cov_set(bits, C_S35_SHORT);
    for (size_t i = 3; i < ln->ntok; i++)
        if (ln->tok[i].n > 6 && memcmp(ln->tok[i].p, "relic=", 6) == 0) {
            const struct rpl__tok t = {ln->tok[i].p + 6, ln->tok[i].n - 6};
            const unsigned k = seat_of(&t, b->n);

            if (k && b->seat[k].loc != (unsigned)q)
                rpl__cov_set(bits, C_S(40));
        }
}

/* The interpretations (S-nn) a line exercises, from the states before
 * and after it. */
static void
cover_rules(const struct soc_pub *b, const struct soc_pub *a, int kw,
            const struct rpl__line *ln, uint64_t *bits)
{
    const unsigned k = ln->ntok > 1 ? seat_of(&ln->tok[1], b->n) : 0;
    const unsigned knight = k ? b->seat[k].knight : SOC_NKNIGHTS;

    if (a->dark_forest && !b->dark_forest)
        rpl__cov_set(bits, C_S(6));
    if (a->vivien && !b->vivien)
        rpl__cov_set(bits, C_S(13));
    switch (kw) {
    case SOC_K_BLACK:
        rpl__cov_set(bits, C_S(1));
        cover_over(b, ln, bits);
        break;
    case SOC_K_QUEST:
        if (ln->ntok > 2)
            cover_quest_rules(b, ln, bits);
        break;
    case SOC_K_SPECIAL: {
        const int c =
            ln->ntok > 2 ? rpl__soc_card_find(ln->tok[2].p, ln->tok[2].n) : -1;

        if (c == SOC_MERLIN)
            rpl__cov_set(bits, C_S(7));
        else if (c >= 0)
            rpl__cov_set(bits, C_S(9));
        if ((c == SOC_MERLIN || c == SOC_HEROISM) && ln->ntok > 3 &&
            rpl__tok_is(&ln->tok[3], "dragon"))
            rpl__cov_set(bits, C_ON_DRAGON);
        if (knight == SOC_GALAHAD)
            rpl__cov_set(bits, C_S(15));
        break;
    }
    case SOC_K_WAR:
        if (b->need.kind == SOC_N_WAR && b->need.a == SOC_MORDRED)
            rpl__cov_set(bits, C_S(11));
        break;
    case SOC_K_KAY:
        rpl__cov_set(bits, b->need.kind == SOC_N_KAY && b->need.a == SOC_CAMELOT
                               ? C_S(14)
                               : C_KAY_COMBAT);
        break;
    case SOC_K_MOVE: {
        const int l =
            ln->ntok > 2 ? rpl__soc_loc_find(ln->tok[2].p, ln->tok[2].n) : -1;

        if (knight == SOC_TRISTAN && b->seat[k].loc == SOC_CAMELOT)
            rpl__cov_set(bits, C_S(16));
        if (l > SOC_CAMELOT && !rpl__soc_quest[l].is_solo &&
            soc_popcount(rpl__soc_present_mask(a, (unsigned)l)) >= 2)
            rpl__cov_set(bits, C_S(28));
        break;
    }
    case SOC_K_SWAP:
        if (knight == SOC_ARTHUR && ln->ntok == 4)
            rpl__cov_set(bits, C_S(17));
        break;
    case SOC_K_SACRIFICE:
        rpl__cov_set(bits, C_S(18));
        break;
    case SOC_K_DONE:
        rpl__cov_set(bits, C_S(19));
        break;
    case SOC_K_SHOWS:
        if (b->need.kind == SOC_N_SHOWS && b->need.a == SOC_SHOWS_ACCUSED &&
            ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "loyal") && !b->swords_w)
            rpl__cov_set(bits, C_S(20));
        if (ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "traitor"))
            rpl__cov_set(bits, C_S(22));
        break;
    case SOC_K_FLIP:
        if (ln->ntok > 1 && !rpl__tok_is(&ln->tok[1], "none")) {
            rpl__cov_set(bits, C_S(21));
            rpl__cov_set(bits, C_S(22));
        }
        break;
    case SOC_K_TAUNT:
        rpl__cov_set(bits, C_S(23));
        break;
    case SOC_K_END:
        if (ln->ntok == 3) {
            rpl__cov_set(bits, C_S(24));
            if (rpl__tok_is(&ln->tok[2], "majority") &&
                a->swords_w == a->swords_b)
                rpl__cov_set(bits, C_S(44));
        }
        break;
    case SOC_K_LOYALTY:
        if (b->brave)
            rpl__cov_set(bits, C_S(26));
        break;
    case SOC_K_DIES:
        rpl__cov_set(bits, C_S(27));
        if (k && b->seat[k].hand_n)
            rpl__cov_set(bits, C_S(38));
        break;
    case SOC_K_PLAY:
        if (k && b->seat[k].loc == SOC_DRAGON)
            rpl__cov_set(bits, C_S(29));
        if (k && b->seat[k].loc == SOC_EXCALIBUR)
            rpl__cov_set(bits, C_S(30));
        if (k && b->seat[k].loc == SOC_GRAIL && rpl__soc_grail_low_free(b) < 0)
            rpl__cov_set(bits, C_S(4));
        break;
    case SOC_K_HEAL:
        rpl__cov_set(bits, C_S(31));
        break;
    case SOC_K_SIEGE:
        if (ln->ntok > 2 && rpl__tok_is(&ln->tok[2], "none"))
            rpl__cov_set(bits, C_S(32));
        break;
    case SOC_K_ROLL:
        rpl__cov_set(bits, C_S(43));
        break;
    case SOC_K_CANCEL:
        if (ln->ntok > 3 && rpl__tok_is(&ln->tok[2], "merlin")) {
            const struct rpl__tok *t = &ln->tok[3];

            const char *comma = memchr(t->p, ',', t->n);
            const size_t w = comma ? (size_t)(comma - t->p) : t->n;

            rpl__cov_set(bits, C_S(41));
            /* "pA,pA,pA" is one knight's; anything else several. */
            if (t->n != 3 * w + 2 || memcmp(t->p, t->p + w + 1, w) != 0 ||
                memcmp(t->p, t->p + 2 * w + 2, w) != 0)
                rpl__cov_set(bits, C_S(33));
        }
        break;
    case SOC_K_VOLUNTEER:
        rpl__cov_set(bits, C_S(41));
        break;
    case SOC_K_MERLINS:
        rpl__cov_set(bits, C_S(41));
        rpl__cov_set(bits, C_OWN_MERLINS);
        break;
    case SOC_K_OFFER:
        rpl__cov_set(bits, C_S(41));
        rpl__cov_set(bits, C_OWN_OFFER);
        break;
    case SOC_K_ALLOT:
        rpl__cov_set(bits, C_S(36));
        break;
    case SOC_K_REDEAL:
        rpl__cov_set(bits, C_REDEAL);
        break;
    case SOC_K_ACCUSE:
        rpl__cov_set(bits, C_S(37));
        break;
    case SOC_K_START: {
        bool arthur = false;

        for (size_t i = 0; ln->ntok > 1 && i + 6 <= ln->tok[1].n; i++)
            if (memcmp(ln->tok[1].p + i, "arthur", 6) == 0)
                arthur = true;
        if (!arthur)
            rpl__cov_set(bits, C_S(39));
        break;
    }
    default:
        break;
    }
}

void
rpl__soc_cover(const void *before, const void *st, const struct rpl__line *ln,
               const struct rpl__env *env, uint64_t *bits)
{
    const struct soc_state *const b = before;
    const struct soc_state *const s = st;

    (void)env;
    if (!ln) {
        cover_config(&s->p, bits);
        return;
    }
    if (s->p.wshuffles != b->p.wshuffles || s->p.bshuffles != b->p.bshuffles) {
        rpl__cov_set(bits, C_RESHUFFLE);
        rpl__cov_set(bits, C_S(25));
    }
    if (ln->ntok > 0) {
        const int kw = kw_of(&ln->tok[0]);

        cover_dealer_line(&b->p, kw, ln, bits);
        cover_rules(&b->p, &s->p, kw, ln, bits);
    }
}
