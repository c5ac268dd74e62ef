/*
 * soc.h - the Shadows over Camelot module's tables, state and the helpers
 * its files share.  Nothing here is public API.  The files, in the order
 * of their dependencies (a file calls only functions of the files before
 * it, and of the core):
 *
 *   cards.c     the card, quest and knight tables, token readers
 *   hidden.c    the secret half: the deal, decks, hands, loyalty, dice
 *   notation.c  the lines of camelog-soc(7) read and written, the rules
 *               line, the private forms of secret choices
 *   board.c     what the public board allows (places, quests, cards)
 *   validate.c  what the next line may be
 *   effects.c   what a line does: the effects and the task stack
 *   perform.c   each line performed, then the tasks run (effects.h)
 *   rules.c     the engine as the log layer sees it: rules line, setup,
 *               apply, learn, pending, action, reveal, open, serialize
 *   views.c     views, descriptions, JSON (needs cards and notation)
 *   plan.c      the plausible knights' plan at a small table
 *   suspect.c   whom the plausible knights suspect
 *   tactics.c   the plausible player's knowledge and scores
 *   players.c   the seeded players and the legal moves
 *   live.c      live games: screen, step_seats, state_json
 *   module.c    the struct rpl__game and its tables, and the players' glue
 *
 * so cards <- hidden <- notation <- board <- validate <- effects <- perform <-
 * rules
 * <- views <- plan <- suspect <- tactics <- players <- live <- module, with no
 * circle (nm on the objects shows no file needing a symbol of a later one).
 * notation, rules, views, players and module are the files of every game
 * folder; cards and hidden are this game's own, and board, validate, effects
 * and tactics keep rules.c and players.c under some 1,500 lines.
 *
 * The state is plain data: no pointers, zeroed by the log layer, copied
 * with memcpy.  It has two halves.  The public half (struct soc_pub) is
 * what every player at the table sees: the board, the knights, the size
 * of each hand, the black cards, every white card laid face up.  The
 * hidden half (struct soc_hid) is what only the dealer knows: the order
 * of both decks, the contents of every hand, the loyalty cards.
 *
 * Every event that moves a hidden card is an event (struct soc_ev).  When
 * the state knows the seed (the recorder, the replay of a complete log)
 * each event is played on the hidden half at once and checked.  Before
 * the reveal (verifying a log) the events are kept in a journal; the
 * reveal replays the journal on a hidden half derived from the seed,
 * which checks every private delivery, every black card drawn and every
 * white card played against the hand that seat actually held.
 */
#ifndef LIBREPLAY_SOC_H
#define LIBREPLAY_SOC_H

#include "games/game.h"

/* ---------------------------------------------------------- constants */

#define SOC_MAX_SEATS 7
#define SOC_MIN_SEATS 3

#define SOC_NWHITE    84 /* white cards */
#define SOC_NBLACK    76 /* black cards */
#define SOC_NLOYALTY  8
#define SOC_NWT       15 /* distinct white cards: ids 0..14 */
#define SOC_NBT       24 /* distinct black cards: ids 15..38 */
#define SOC_B0        15 /* first black id */
#define SOC_L0        39 /* first loyalty id */

/* Rules numbers of rules/shadows-over-camelot.md (§2, §3, §7). */
#define SOC_LP_START     4
#define SOC_LP_MAX       6
#define SOC_HAND_LIMIT   12 /* no Camelot draw at 12 cards or more */
#define SOC_ENGINES_LOSS 12
#define SOC_BLACK_LOSS   7  /* black swords */
#define SOC_SWORDS_END   12 /* swords on the Round Table */
#define SOC_ACCUSE_AT    6  /* swords or siege engines */
#define SOC_BRAVE_AT     6  /* 3-player variant: loyalty looked at */
#define SOC_DEAL         5  /* white cards dealt after the Merlin */
#define SOC_EXC_START    5
#define SOC_EXC_WIN      10
#define SOC_GRAIL_SPOTS  7
#define SOC_EMPTY        SOC_NCARDS /* an empty Grail spot */
#define SOC_WAR_LOSS     4          /* figures */
#define SOC_HEAL_SAME    3          /* identical cards discarded to heal */
#define SOC_SAVE_LP      4 /* the Holy Grail saves a knight at this LP */
#define SOC_D8           8

/* Limits of the state.  Seeded games of a few hundred lines use at most
 * a few hundred events, some 60 deliveries and 20 choices; going over a
 * limit is RPL_E_LIMIT at the line, in every mode alike. */
#define SOC_MAX_EV     6144 /* journal events */
#define SOC_MAX_DELIV  1024 /* private deliveries (white cards, looks) */
#define SOC_MAX_CHOICE 128  /* secret choices (exchanges, gifts, orders) */
#define SOC_MAX_TASKS  40
#define SOC_MAX_LIST   64 /* cards in one list token */

/* ---------------------------------------------------------------- cards */

enum soc_card_id {
    SOC_FIGHT1 = 0,
    SOC_FIGHT2,
    SOC_FIGHT3,
    SOC_FIGHT4,
    SOC_FIGHT5,
    SOC_GRAIL_CARD,
    SOC_MERLIN,
    SOC_CONVOCATION,
    SOC_FATE,
    SOC_HEROISM,
    SOC_LADY,
    SOC_MESSENGER,
    SOC_PIETY,
    SOC_CLAIRVOYANCE,
    SOC_REINFORCEMENTS,
    SOC_BK1 = SOC_B0,
    SOC_BK3,
    SOC_BK5,
    SOC_BK7,
    SOC_LD1,
    SOC_LD3,
    SOC_LD5,
    SOC_LD7,
    SOC_B_EXCALIBUR,
    SOC_DESPAIR,
    SOC_B_PICTS,
    SOC_B_SAXONS,
    SOC_MERCENARIES,
    SOC_MORGAN_SIEGE,
    SOC_MORGAN_DRAW3,
    SOC_MORGAN_LIFE,
    SOC_MORGAN_DISCARD,
    SOC_MORGAN_VOLUNTEER,
    SOC_DESOLATION,
    SOC_DARK_FOREST,
    SOC_GUINEVERE,
    SOC_MISTS,
    SOC_MORDRED,
    SOC_VIVIEN,
    SOC_LOYAL = SOC_L0,
    SOC_TRAITOR,
    SOC_NCARDS
};

_Static_assert(SOC_BK1 == SOC_NWT, "black ids follow the white ones");
_Static_assert(SOC_LOYAL == SOC_B0 + SOC_NBT, "loyalty follows black");

enum soc_colour { SOC_WHITE = 0, SOC_BLACK = 1, SOC_LOYALTY = 2 };
enum soc_kind { SOC_STANDARD = 0, SOC_SPECIAL = 1, SOC_NOKIND = 2 };

/* One row per distinct card (rules/soc-cards.tsv).  p1 and p2 are the
 * effect's numbers, named per card in cards.c. */
struct soc_card {
    const char *id;   /* the TSV id, "w_fight_1" */
    const char *tok;  /* the notation's token: the id without "w_" etc. */
    const char *name; /* English name */
    uint8_t colour;
    uint8_t kind;
    uint8_t count;
    uint8_t quests; /* mask of locations (bit SOC_CAMELOT ...) */
    uint8_t value;  /* fight value; Lancelot value of a L/D card */
    uint8_t value2; /* Dragon value of a L/D card */
    uint8_t p1;
    uint8_t p2;
};

extern const struct soc_card rpl__soc_card[SOC_NCARDS];

static inline bool
soc_is_white(unsigned c)
{
    return c < SOC_B0;
}

static inline bool
soc_is_black(unsigned c)
{
    return c >= SOC_B0 && c < SOC_L0;
}

static inline bool
soc_is_fight(unsigned c)
{
    return c <= SOC_FIGHT5;
}

static inline unsigned
soc_fight_value(unsigned c)
{
    return c + 1u;
}

/* ------------------------------------------------------------ places */

enum soc_loc {
    SOC_CAMELOT = 0,
    SOC_BLACK_KNIGHT = 1,
    SOC_LANCELOT = 2,
    SOC_DRAGON = 3,
    SOC_EXCALIBUR = 4,
    SOC_GRAIL = 5,
    SOC_PICTS = 6,
    SOC_SAXONS = 7,
    SOC_NLOC = 8,
    SOC_NOWHERE = 8 /* off the board: dead, or a revealed traitor */
};

enum soc_relic { SOC_ARMOR = 0, SOC_REL_EXCALIBUR = 1, SOC_REL_GRAIL = 2 };
#define SOC_NRELICS     3
#define SOC_RELIC_BOARD 0 /* relic status: still on its quest board */
#define SOC_RELIC_BOX   9 /* out of the game; 1..7: held by that seat */

/* Quest parameters (§4.8), rewards and penalties as data. */
struct soc_quest {
    const char *tok;
    const char *name;
    uint8_t is_solo;
    uint8_t is_combat;
    uint8_t is_perpetual;
    uint8_t white_spots; /* combat: cards that end the knights' side */
    uint8_t black_spots; /* combat: cards that end evil's side */
    uint8_t win_swords;
    uint8_t win_lp;
    uint8_t win_cards; /* white cards shared among the knights present */
    uint8_t relic;     /* 1 + enum soc_relic, 0 for none */
    uint8_t lose_swords;
    uint8_t lose_lp;
    uint8_t lose_engines;
};

extern const struct soc_quest rpl__soc_quest[SOC_NLOC];

enum soc_knight {
    SOC_ARTHUR = 0,
    SOC_GALAHAD,
    SOC_GAWAIN,
    SOC_KAY,
    SOC_PALAMEDES,
    SOC_PERCIVAL,
    SOC_TRISTAN,
    SOC_NKNIGHTS
};

struct soc_knight_def {
    const char *tok;
    const char *name;
    const char *power;
};

extern const struct soc_knight_def rpl__soc_knight[SOC_NKNIGHTS];
extern const char *const rpl__soc_relic_tok[SOC_NRELICS];

/* Token lookups: the id, or -1. */
int rpl__soc_card_find(const char *p, size_t n);
int rpl__soc_loc_find(const char *p, size_t n);
int rpl__soc_knight_find(const char *p, size_t n);

/* A list token "a,b,c" of card tokens into out (cap entries).  With
 * sorted, the list must be in card-table order (repeats adjacent).
 * colour: SOC_WHITE or SOC_BLACK, the only colour allowed. */
bool rpl__soc_parse_cards(const char *p, size_t n, uint8_t *out, size_t cap,
                          size_t *count, bool sorted, unsigned colour);
/* "a,b,c" into out (NUL-terminated; "" for none). */
void rpl__soc_fmt_cards(char *out, size_t cap, const uint8_t *cards, size_t n);
/* Sorts a card list into table order. */
void rpl__soc_sort_cards(uint8_t *cards, size_t n);

/* ------------------------------------------------------------- events */

enum soc_ev_kind {
    SOC_EV_WDRAW = 1, /* a: seat, b: count (next delivery) */
    SOC_EV_WPLAY,     /* a: seat, b: card, c: 1 to the discards, 0 table */
    SOC_EV_WDISC,     /* b: card, table to the white discards */
    SOC_EV_WTAKE,     /* a: seat, b: card, table to a hand */
    SOC_EV_WSECRET,   /* a: from, c: to (next secret choice's cards) */
    SOC_EV_WDUMP,     /* a: seat, the whole hand to the discards */
    SOC_EV_WTAUNT,    /* a: seat, b: card drawn at random (stream taunt) */
    SOC_EV_BDRAW,     /* b: card, the top of the black deck */
    SOC_EV_BBOTTOM,   /* b: card, under the black deck */
    SOC_EV_BDISC,     /* b: card, to the black discards */
    SOC_EV_BLOOK,     /* a: seat, b: count (next delivery) */
    SOC_EV_BORDER,    /* a: seat (next secret choice: the new order) */
    SOC_EV_RESHUFFLE, /* both discard piles under their decks */
    SOC_EV_ROLL,      /* b: the d8 */
    SOC_EV_LOYAL,     /* a: seat, b: 1 traitor, 0 loyal */
    SOC_EV_NOTRAITOR, /* no unrevealed seat holds the traitor card */
    SOC_EV_WHOLD,     /* a: seat holds c copies of card b (nothing moves) */
    SOC_EV_REDEAL     /* pooled card a goes to seat b (stream pool) */
};

struct soc_ev {
    uint32_t line;
    uint8_t kind;
    uint8_t a;
    uint8_t b;
    uint8_t c;
};

/* Secret choices of a seat (opened after the reveal). */
enum soc_choice_kind { SOC_CH_SWAP = 1, SOC_CH_GIVE = 2, SOC_CH_ORDER = 3 };

/* ------------------------------------------------------------- needs */

/* What the state waits for.  Dealer lines first, then seat lines. */
enum soc_need_kind {
    SOC_N_NONE = 0, /* nothing: before the rules line, or over */
    SOC_N_START,    /* start */
    SOC_N_LOYALTY,  /* loyalty pK, seat */
    SOC_N_WHITE,    /* white pK N, seat, a = N */
    SOC_N_TOP,      /* top pK N, seat, a = N, b = 1 clairvoyance */
    SOC_N_BLACK,    /* black pK c [c], seat, a = cards */
    SOC_N_ROLL,     /* roll pK N, seat */
    SOC_N_TAUNTED,  /* taunted pT card, seat = target */
    SOC_N_SHOWS,    /* shows pK, seat, a = why (enum soc_shows) */
    SOC_N_QUEST,    /* quest Q won|lost, a = quest, b = won, c = completer */
    SOC_N_DIES,     /* dies pK */
    SOC_N_FLIP,     /* flip pK|none */
    SOC_N_END,      /* end, a = winner, b = reason */
    SOC_N_DEALER_LAST = SOC_N_END,
    SOC_N_POOL,      /* pool pK card */
    SOC_N_ALLOT,     /* allot pK list */
    SOC_N_EVIL,      /* the progression of evil, a = 1 revealed traitor */
    SOC_N_TAUNT,     /* the revealed traitor's taunt */
    SOC_N_KEEP,      /* the Armor's holder keeps one of two */
    SOC_N_CANCEL,    /* a = 0 Excalibur relic, 1 three Merlins */
    SOC_N_WAR,       /* mercenaries, mordred: a = card */
    SOC_N_VOLUNTEER, /* a = the Morgan card */
    SOC_N_DISCARD,   /* discard pK, a = cards */
    SOC_N_HEROIC,    /* heroic actions */
    SOC_N_SWAP_BACK, /* the knight Arthur exchanged with, a = Arthur */
    SOC_N_ORDER,     /* Clairvoyance's new order, a = cards looked at */
    SOC_N_KAY,       /* Kay's extra fight card, a = location */
    SOC_N_SAVE,      /* the Grail's holder, a = dying seat */
    SOC_N_SHARE,     /* share, a = cards, b = quest, c = present mask */
    SOC_N_MERLINS,   /* own=on: Merlins offered, a = drawer, b = offered */
    SOC_N_OFFER,     /* own=on: yes|no, a = the card asking, b = origin */
    SOC_N_REDEAL     /* the dealer's random sharing of the opening pool */
};

enum soc_shows {
    SOC_SHOWS_ACCUSED = 1, /* accused by need.b */
    SOC_SHOWS_FATE = 2,    /* played Fate */
    SOC_SHOWS_LAST = 3     /* the last knight alive */
};

enum soc_winner { SOC_W_NONE = 0, SOC_W_KNIGHTS = 1, SOC_W_EVIL = 2 };

enum soc_reason {
    SOC_R_NONE = 0,
    SOC_R_MAJORITY = 1, /* 12 swords: knights if white > black */
    SOC_R_SIEGE = 2,    /* 12th siege engine */
    SOC_R_BLACK = 3,    /* 7 black swords */
    SOC_R_DEATHS = 4,   /* every loyal knight dead */
    SOC_R_ABORTED = 5
};

/* Heroic action types (§3.2). */
#define SOC_T_MOVE    1u
#define SOC_T_QUEST   2u
#define SOC_T_SPECIAL 4u
#define SOC_T_HEAL    8u
#define SOC_T_ACCUSE  16u

/* Seat flags. */
#define SOC_F_ALIVE    1u
#define SOC_F_ACCUSED  2u /* has made his accusation */
#define SOC_F_REVEALED 4u /* the revealed traitor */
#define SOC_F_LOYAL    8u /* shown loyal to the table */

/* -------------------------------------------------------------- state */

/* The state's structs have no padding: the digest serializes them as
 * bytes, and the compiler proves it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wpadded"

struct soc_seat {
    uint8_t knight;
    uint8_t lp;
    uint8_t loc;
    uint8_t flags;
    uint8_t hand_n;
    uint8_t unused[3];
};

/* A combat quest: card ids on each side, in the order played. */
struct soc_combat {
    uint8_t white[9];
    uint8_t black[5];
    uint8_t nwhite;
    uint8_t nblack;
};

struct soc_war {
    uint8_t white[6]; /* fight cards, 1-2-3-4-5 (and Mordred's 5) */
    uint8_t black[5]; /* picts|saxons, mercenaries, mordred cards */
    uint8_t nwhite;
    uint8_t nblack;
    uint8_t figures;
    uint8_t mordred;
    uint8_t unused;
};

struct soc_need {
    uint8_t kind;
    uint8_t seat;
    uint8_t a;
    uint8_t b;
    uint8_t c;
    uint8_t unused[3];
};

struct soc_task {
    uint8_t kind;
    uint8_t a;
    uint8_t b;
    uint8_t c;
};

/* Everything the table sees. */
struct soc_pub {
    uint32_t start_line;
    uint32_t end_line;
    uint32_t loyalty_line[SOC_MAX_SEATS + 1];
    uint32_t turns; /* turns begun */
    uint16_t ndeliv;
    uint16_t nchoice;
    uint16_t nev;
    uint16_t nopened;
    uint16_t hdeliv;  /* deliveries the hidden half has played */
    uint16_t hchoice; /* secret choices the hidden half has played */

    /* Configuration and progress. */
    uint8_t n;
    uint8_t traitor_on;
    uint8_t brave;
    uint8_t phase; /* SOC_PH_* */
    uint8_t knows; /* the hidden half is live */
    uint8_t is_revealed;
    uint8_t is_checked; /* the journal has been replayed */
    uint8_t loyalty_n;  /* loyalty lines written */
    uint8_t first;
    uint8_t cur;
    uint8_t winner;
    uint8_t reason;
    uint8_t ending;  /* the end is decided; its lines are due */
    uint8_t flip;    /* 0 none, seat of the flip line, 9 for "none" */
    uint8_t traitor; /* the revealed traitor's seat, 0 */
    uint8_t own;     /* own=on: each knight writes his own decisions */
    uint8_t offers;  /* own=on: seats that said yes (mask of seat bits) */
    uint8_t offered[SOC_MAX_SEATS + 1]; /* own=on: Merlins offered */
    uint8_t poolers; /* the seats that laid a card in the pool (mask) */
    uint8_t unused;
    uint8_t overflow;

    /* The board. */
    uint8_t siege;
    uint8_t swords_w;
    uint8_t swords_b;
    uint8_t heroism; /* 1 + location holding Heroism, 0 none */
    uint8_t relic[SOC_NRELICS];
    uint8_t mists;
    uint8_t vivien;
    uint8_t dark_forest;
    uint8_t ld_stage; /* 0 Lancelot, 1 Dragon, 2 closed */
    uint8_t exc_pos;
    uint8_t exc_state;              /* 0 open, 1 won, 2 lost */
    uint8_t exc_black;              /* steps evil made that a Merlin may undo */
    uint8_t grail_state;            /* 0 open, 1 won, 2 lost */
    uint8_t grail[SOC_GRAIL_SPOTS]; /* card ids, SOC_NCARDS for empty */
    struct soc_seat seat[SOC_MAX_SEATS + 1];
    struct soc_combat bk;
    struct soc_combat ld;
    struct soc_war war[2]; /* picts, saxons */

    /* The cards: piles, discards and what lies on the table. */
    uint8_t wpile_n;
    uint8_t wdisc_unknown; /* discarded unseen (a dead knight's hand) */
    uint8_t wshuffles;     /* shuffles of the white deck so far */
    uint8_t bshuffles;
    uint8_t wdisc[SOC_NWT];
    uint8_t wtable[SOC_NWT];
    uint8_t bpile_n;
    uint8_t bpile[SOC_NBT]; /* the black deck's contents (public) */
    uint8_t bdisc[SOC_NBT];
    uint8_t btable[SOC_NBT];

    /* The turn. */
    uint8_t used;       /* action types used (SOC_T_*) */
    uint8_t paid;       /* paid actions taken */
    uint8_t sacrificed; /* a life point paid for an extra action */
    uint8_t owe;        /* the extra action is due */
    uint8_t die_after;  /* seat that sacrificed its last life point */
    uint8_t swapped;    /* Arthur's exchange made */
    uint8_t looked;     /* Percival's look made */
    uint8_t turn_over;  /* Guinevere ended the drawer's turn */

    /* Cards in flight. */
    uint8_t drawn[2]; /* the Armor's two cards */
    uint8_t ndrawn;
    uint8_t resolving; /* black card being resolved */
    uint8_t drawer;
    uint8_t npool;
    uint8_t pool[SOC_MAX_SEATS];
    uint8_t fight[5]; /* siege fight: cards per value */
    uint8_t roll;
    uint8_t kay_card;  /* Kay's extra card, 0 none, else card + 1 */
    uint8_t completer; /* last knight to act on the board */
    uint8_t ntask;
    uint8_t brave_due; /* 3-player variant: loyalty lines are due */
    struct soc_need need;
    struct soc_task task[SOC_MAX_TASKS];
};

#define SOC_PH_RULES  0
#define SOC_PH_READY  1 /* rules read, start due */
#define SOC_PH_PLAY   2
#define SOC_PH_OVER   3

#define SOC_FLIP_NONE 9

/* What only the dealer knows. */
struct soc_hid {
    uint8_t wpile[SOC_NWHITE]; /* ring from whead, wn cards, top first */
    uint8_t bpile[SOC_NBLACK];
    uint8_t whead;
    uint8_t wn;
    uint8_t bhead;
    uint8_t bn;
    uint8_t hand[SOC_MAX_SEATS + 1][SOC_NWT];
    uint8_t wdisc[SOC_NWT];
    uint8_t bdisc[SOC_NBT];
    uint8_t wshuffles;
    uint8_t bshuffles;
    uint8_t knight[SOC_MAX_SEATS + 1];
    uint8_t loyalty[SOC_MAX_SEATS + 1]; /* SOC_LOYAL or SOC_TRAITOR */
    uint8_t first;
    uint8_t traitor; /* seat dealt the traitor, 0 */
    uint8_t unused[3];
};

struct soc_deliv {
    uint8_t commit[32];
};

struct soc_choice {
    uint32_t line;
    uint8_t commit[32];
    uint8_t kind; /* enum soc_choice_kind */
    uint8_t seat;
    uint8_t n;     /* cards in the value */
    uint8_t known; /* value learned or opened */
    uint8_t v[5];  /* the value: card ids */
    uint8_t opened;
    uint8_t unused[2];
};

#pragma GCC diagnostic pop

/* Streams read during play (not part of the digest). */
struct soc_rng {
    struct rpl__stream d8;
    struct rpl__stream taunt;
};

/* What the table has seen each seat do, from the public lines alone:
 * the memory of the plausible knights (suspect.c).  It is not part of
 * the digest and no rule reads it; a line adds to it once accepted, and
 * only while on is set: by setup (a state that knows the deal, where
 * bots may play: the recorder, the replay of a complete log), never for
 * a verifier, which has no use for it. */
struct soc_mem {
    uint8_t on;
    uint8_t evil_worse[SOC_MAX_SEATS + 1]; /* progressions of evil far worse
                                              than the least harmful */
    uint8_t solo_lost[SOC_MAX_SEATS + 1]; /* solo quests lost with cards laid */
    uint8_t solo_low[SOC_MAX_SEATS + 1];  /* fight cards of 1 or 2 laid there */
    uint8_t declined[SOC_MAX_SEATS + 1];  /* no to Morgan while fit to go */
    uint8_t cancels[SOC_MAX_SEATS + 1];   /* Merlins or Excalibur offered */
    uint8_t evil_sly[SOC_MAX_SEATS + 1];  /* progressions of evil worse than
                                              the least, not far worse */
};

/* The core (pub, hid, rng) is saved before a line and restored when the
 * line is refused; the memory and the arrays after it only grow. */
struct soc_state {
    struct soc_pub p;
    struct soc_hid h;
    struct soc_rng r;
    struct soc_mem m;
    uint8_t loyalty_commit[SOC_MAX_SEATS + 1][32];
    struct soc_ev ev[SOC_MAX_EV];
    struct soc_deliv dv[SOC_MAX_DELIV];
    struct soc_choice ch[SOC_MAX_CHOICE];
};

/* ------------------------------------------------------------ commands */

/* Line keywords. */
enum soc_kw {
    SOC_K_START = 0,
    SOC_K_LOYALTY,
    SOC_K_WHITE,
    SOC_K_TOP,
    SOC_K_BLACK,
    SOC_K_ROLL,
    SOC_K_TAUNTED,
    SOC_K_SHOWS,
    SOC_K_QUEST,
    SOC_K_DIES,
    SOC_K_FLIP,
    SOC_K_END,
    SOC_K_POOL,
    SOC_K_ALLOT,
    SOC_K_LOOK,
    SOC_K_SWAP,
    SOC_K_EVIL,
    SOC_K_TAUNT,
    SOC_K_KEEP,
    SOC_K_PASS,
    SOC_K_CANCEL,
    SOC_K_WAR,
    SOC_K_VOLUNTEER,
    SOC_K_DISCARD,
    SOC_K_MOVE,
    SOC_K_DRAW,
    SOC_K_SIEGE,
    SOC_K_PLAY,
    SOC_K_SPECIAL,
    SOC_K_HEAL,
    SOC_K_ACCUSE,
    SOC_K_SACRIFICE,
    SOC_K_KAY,
    SOC_K_SAVE,
    SOC_K_SHARE,
    SOC_K_ORDER,
    SOC_K_DONE,
    SOC_K_MERLINS,
    SOC_K_OFFER,
    SOC_K_REDEAL,
    SOC_K_COUNT
};

extern const char *const rpl__soc_kw[SOC_K_COUNT];

/* Options (cmd.opt). */
enum soc_opt {
    SOC_O_NONE = 0,
    SOC_O_BLACK, /* evil black */
    SOC_O_SIEGE, /* evil siege */
    SOC_O_LIFE,  /* evil life */
    SOC_O_SELF,  /* piety, reinforcements */
    SOC_O_OTHERS,
    SOC_O_LOYAL, /* shows */
    SOC_O_TRAITOR,
    SOC_O_WON, /* quest */
    SOC_O_LOST,
    SOC_O_EXCALIBUR, /* cancel */
    SOC_O_MERLIN,
    SOC_O_YES, /* offer */
    SOC_O_NO,
    SOC_O_ASK,   /* special convocation with no list (own=on) */
    SOC_O_RANDOM /* allot random: no agreement on the opening pool */
};

/* One line, parsed (module.c) or built (pending, players). */
struct soc_cmd {
    uint8_t kw;
    uint8_t seat;  /* the seat after the keyword */
    uint8_t seat2; /* a second seat, 0 for none */
    uint8_t card;  /* a card (special: the special card) */
    uint8_t loc;
    uint8_t opt;
    uint8_t num;
    uint8_t num2;   /* quest: relic seat */
    uint8_t ncards; /* cards[]: a card list or knights (start) */
    uint8_t nseats; /* seats[] (allot, merlins, convocation, share) */
    uint8_t has_commit;
    uint8_t winner; /* end */
    uint8_t cards[SOC_MAX_LIST];
    uint8_t seats[SOC_MAX_SEATS];
    uint8_t counts[SOC_MAX_SEATS]; /* share */
    uint8_t commit[32];
};

/* ------------------------------------------------------------ helpers */

static inline unsigned
soc_bit(unsigned k)
{
    return 1u << k;
}

static inline unsigned
soc_popcount(unsigned m)
{
    unsigned c = 0;

    for (; m; m &= m - 1)
        c++;
    return c;
}

static inline bool
soc_living(const struct soc_pub *p, unsigned k)
{
    return k >= 1 && k <= p->n && (p->seat[k].flags & SOC_F_ALIVE) &&
           !(p->seat[k].flags & SOC_F_REVEALED);
}

static inline unsigned
soc_next(const struct soc_pub *p, unsigned k)
{
    return k % p->n + 1u;
}

/* The i-th seat (0-based) in turn order from `from`. */
static inline unsigned
soc_from(const struct soc_pub *p, unsigned from, unsigned i)
{
    return (from - 1u + i) % p->n + 1u;
}

static inline bool
soc_is_dealer_need(unsigned kind)
{
    return (kind >= SOC_N_START && kind <= SOC_N_DEALER_LAST) ||
           kind == SOC_N_REDEAL;
}

/* The keywords of the dealer's lines come first (enum soc_kw), but for
 * redeal, added after the seats' keywords. */
static inline bool
soc_is_dealer_kw(unsigned kw)
{
    return kw <= SOC_K_END || kw == SOC_K_REDEAL;
}

/* ------------------------------------------------------------ hidden.c */

/* The deal of camelog-soc(7) from the seed: knights, first player,
 * loyalty, both decks, the Merlins and the streams of play. */
void rpl__soc_derive(struct soc_hid *h, struct soc_rng *r, unsigned n,
                     bool traitor_on, const uint8_t seed[32]);

/* Plays one event on the hidden half.  *deliv and *choice count the
 * deliveries and secret choices consumed so far (they advance).  Fails,
 * naming ev->line, when the event contradicts the hidden half. */
enum rpl_status rpl__soc_hid_step(struct soc_state *st, const struct soc_ev *ev,
                                  const struct rpl__env *env,
                                  const uint8_t seed[32], unsigned *deliv,
                                  unsigned *choice, struct rpl_error *err);

/* The value of white delivery: the next n cards of the white deck
 * (sorted), as the hidden half would deal them now. */
void rpl__soc_peek_white(const struct soc_state *st, const uint8_t seed[32],
                         unsigned n, uint8_t *out);
/* The next n black cards (n <= 5), in deck order. */
void rpl__soc_peek_black(const struct soc_state *st, const uint8_t seed[32],
                         unsigned n, uint8_t *out);
/* The next d8 and the card a taunt takes from seat's hand. */
unsigned rpl__soc_peek_roll(const struct soc_state *st);
unsigned rpl__soc_peek_taunt(const struct soc_state *st, unsigned seat);

/* The random sharing of the opening pool (S-36): out[i] is the seat
 * that receives pooled card i, a permutation of the seats of mask
 * `poolers` drawn with stream "pool". */
void rpl__soc_redeal(const uint8_t seed[32], unsigned poolers, uint8_t *out,
                     unsigned *n);

/* Label and value of delivery d (0-based) and of choice i. */
void rpl__soc_white_label(char *out, size_t cap, unsigned d, unsigned seat);

/* Replays the journal after the reveal and the last open. */
enum rpl_status rpl__soc_check_journal(struct soc_state *st,
                                       const struct rpl__env *env,
                                       struct rpl_error *err);

/* ---------------------------------------------------------- notation.c */

/* The tokens of enum soc_winner, enum soc_reason ("" when out of range)
 * and enum soc_choice_kind; rpl__soc_kw (above) is defined here too. */
const char *rpl__soc_reason_tok(unsigned reason);
const char *rpl__soc_winner_tok(unsigned winner);
extern const char *const rpl__soc_choice_tok[4];

/* The command as a line (without commitment). */
void rpl__soc_format(const struct soc_pub *p, const struct soc_cmd *cmd,
                     char *out, size_t cap);
/* Parses a line into cmd; RPL_E_SYNTAX naming the line. */
enum rpl_status rpl__soc_parse(const struct soc_pub *p,
                               const struct rpl__line *ln, struct soc_cmd *cmd,
                               struct rpl_error *err);
/* The form expected now, for messages ("evil p3 black|siege|life"). */
void rpl__soc_expected_form(const struct soc_state *st, char *out, size_t cap);
/* The rules line's values; RPL_E_SYNTAX when it does not read as
 * "rules players=N traitor=on|off brave=on|off [own=on|off]" (N is not
 * checked; own is false without the key). */
enum rpl_status rpl__soc_parse_rules(const struct rpl__line *ln,
                                     unsigned long *players, bool *traitor,
                                     bool *brave, bool *own,
                                     struct rpl_error *err);
/* A secret choice's label ("swap 3 p1": kind, 1-based index, seat) and
 * its value (card ids into out, *n of them); false when malformed. */
bool rpl__soc_parse_choice_label(const struct soc_state *s, const char *label,
                                 unsigned *kind, unsigned *idx, unsigned *seat);
bool rpl__soc_parse_choice_value(unsigned kind, const char *v, size_t len,
                                 uint8_t *out, unsigned *n);
/* A seat's action in private form ("swap p1 fight_3") as the line, the
 * label and the value its commitment hides. */
enum rpl_status rpl__soc_parse_action(const struct soc_pub *p,
                                      const char *action, struct rpl__emit *e,
                                      struct rpl_error *err);

/* ------------------------------------------------------------- board.c */

/* White (pile and discards) and black cards left to draw. */
unsigned rpl__soc_white_avail(const struct soc_pub *p);
/* n, or the white cards the decks can still give when fewer. */
unsigned rpl__soc_white_upto(const struct soc_pub *p, unsigned n);
unsigned rpl__soc_black_avail(const struct soc_pub *p);
/* Living knights (not dead, not the revealed traitor) as a mask of seat
 * bits, all of them or those at loc. */
unsigned rpl__soc_living_mask(const struct soc_pub *p);
unsigned rpl__soc_present_mask(const struct soc_pub *p, unsigned loc);
/* The first seat of mask in turn order from `from`, 0 when empty. */
unsigned rpl__soc_first_in(const struct soc_pub *p, unsigned from,
                           unsigned mask);
/* own=on (S-41): the next knight asked for a decision of his own after
 * seat `after` (0: the first), in turn order from `origin` without
 * going round again, 0 when none is left.  ctx is the card asking:
 * SOC_MERLIN (three Merlins: living knights holding a card),
 * SOC_MORGAN_DISCARD (living knights holding 3 cards),
 * SOC_MORGAN_VOLUNTEER (living knights), SOC_CONVOCATION (living knights
 * away from Camelot). */
unsigned rpl__soc_ask_next(const struct soc_pub *p, unsigned ctx,
                           unsigned origin, unsigned after);
/* The knight with the last word on a table decision: the turn's knight
 * when he is a living knight, else the first living knight in turn order
 * from `origin`. */
unsigned rpl__soc_last_word(const struct soc_pub *p, unsigned origin);
/* lp + d within 0..SOC_LP_MAX. */
unsigned rpl__soc_lp_add(unsigned lp, int d);
bool rpl__soc_relic_held_by(const struct soc_pub *p, unsigned relic,
                            unsigned k);
/* The holder of a relic if that knight is living, else 0. */
unsigned rpl__soc_relic_holder(const struct soc_pub *p, unsigned relic);
/* The relic of quest q won goes to the knight who completed it: that
 * seat, or 0. */
unsigned rpl__soc_relic_to(const struct soc_pub *p, unsigned q,
                           unsigned completer);
/* The Grail's spots: whether a card there is black, the lowest and the
 * highest free spot, the most advanced Grail card, the black card
 * nearest the Grail (-1 for none), whether all are black (or Grail). */
bool rpl__soc_grail_black(unsigned c);
int rpl__soc_grail_low_free(const struct soc_pub *p);
int rpl__soc_grail_high_free(const struct soc_pub *p);
int rpl__soc_grail_last_white(const struct soc_pub *p);
int rpl__soc_grail_first_black(const struct soc_pub *p);
bool rpl__soc_grail_all(const struct soc_pub *p, bool black);
/* The combat of quest q (Black Knight, or Lancelot/Dragon), the index
 * of a war (Picts 0, Saxons 1) and the value its next fight card must
 * have (0 when complete). */
const struct soc_combat *rpl__soc_combat_of(const struct soc_pub *p,
                                            unsigned q);
unsigned rpl__soc_war_index(unsigned q);
unsigned rpl__soc_war_next(const struct soc_war *w);
/* Whether the fight values of a combat quest can still end in its
 * pattern. */
bool rpl__soc_pattern_ok(unsigned q, const uint8_t *cards, unsigned n);
/* Whether location loc is open to a knight moving there. */
bool rpl__soc_loc_open(const struct soc_pub *p, unsigned loc);
bool rpl__soc_loc_active(const struct soc_pub *p, unsigned loc);
/* The Kay window and Excalibur bonus helpers. */
unsigned rpl__soc_kay_seat(const struct soc_pub *p, unsigned loc);
/* Swords a quest would lay if it ended now. */
unsigned rpl__soc_quest_swords(const struct soc_pub *p, unsigned q, bool won);
/* Totals of a combat quest (white with bonuses, black). */
void rpl__soc_combat_totals(const struct soc_pub *p, unsigned q,
                            unsigned *white, unsigned *black);
/* Whether card could be played on quest q now (pattern, order, state). */
bool rpl__soc_play_ok(const struct soc_pub *p, unsigned q, unsigned card);
/* Whether seat k holds cnt copies of card (public: could hold), and
 * every card of a list (else *missing is a card it lacks). */
bool rpl__soc_holds(const struct soc_state *st, unsigned k, unsigned card,
                    unsigned cnt);
bool rpl__soc_holds_list(const struct soc_state *st, unsigned k,
                         const uint8_t *cards, unsigned n, unsigned *missing);
/* Whether three Merlins could be played, and whether a single Merlin
 * can cancel something at loc (§3.4, §8 item 8). */
bool rpl__soc_merlins_possible(const struct soc_pub *p);
bool rpl__soc_merlin_target_ok(const struct soc_pub *p, unsigned loc);
/* The type of heroic action (SOC_T_*) a keyword takes, 0 for none, and
 * whether cmd costs no action (Tristan from Camelot, Galahad's special
 * card). */
unsigned rpl__soc_action_type(unsigned kw);
bool rpl__soc_is_free(const struct soc_pub *p, const struct soc_cmd *cmd);

/* ---------------------------------------------------------- validate.c */

/* Checks cmd against the state (nothing changes). */
enum rpl_status rpl__soc_validate(const struct soc_state *st,
                                  const struct soc_cmd *cmd,
                                  const struct rpl__env *env, size_t line,
                                  struct rpl_error *err);
/* Whether cmd is the kind of line the state waits for (keyword, seat). */
bool rpl__soc_fits(const struct soc_state *st, const struct soc_cmd *cmd);

/* ----------------------------------------------------------- effects.c */

/* Applies cmd, validated, then runs the rules until the next line is
 * due.  On failure the state is left half-changed: the caller restores
 * the core it saved (rules.c). */
enum rpl_status rpl__soc_effects(struct soc_state *st,
                                 const struct soc_cmd *cmd,
                                 const struct rpl__env *env, size_t line,
                                 struct rpl_error *err);

/* ------------------------------------------------------------- rules.c */

/* The functions of struct rpl__game's tables (games/game.h) but the
 * views. */
enum rpl_status rpl__soc_rules(void *st, const struct rpl__line *ln,
                               const struct rpl__env *env, size_t *seats,
                               struct rpl_error *err);
enum rpl_status rpl__soc_setup(void *st, const struct rpl__env *env,
                               struct rpl_error *err);
enum rpl_status rpl__soc_apply(void *st, const struct rpl__line *ln,
                               const struct rpl__env *env,
                               struct rpl__applied *out, struct rpl_error *err);
enum rpl_status rpl__soc_learn(void *st, const char *label, const char *value,
                               struct rpl_error *err);
bool rpl__soc_pending(const void *st, const struct rpl__env *env,
                      struct rpl__emit *e);
size_t rpl__soc_turn(const void *st);
enum rpl_status rpl__soc_action(const void *st, const struct rpl__env *env,
                                const char *action, struct rpl__emit *e,
                                struct rpl_error *err);
bool rpl__soc_is_over(const void *st);
void rpl__soc_outcome(const void *st, const char **winner, const char **reason);
enum rpl_status rpl__soc_reveal(void *st, const struct rpl__env *env,
                                size_t reveal_line, struct rpl_error *err);
enum rpl_status rpl__soc_open(void *st, const struct rpl__line *ln,
                              const struct rpl__env *env,
                              struct rpl_error *err);
size_t rpl__soc_opens_left(const void *st);
bool rpl__soc_open_line(const void *st, size_t i, struct rpl__emit *e);
size_t rpl__soc_serialize(const void *st, uint8_t *buf, size_t cap);

/* ------------------------------------------------------------- views.c */

void rpl__soc_view(const void *st, const struct rpl__env *env, int viewer,
                   struct rpl__buf *out);
void rpl__soc_board(const void *st, const struct rpl__env *env, int viewer,
                    struct rpl__buf *out);
unsigned rpl__soc_mark(const void *before, const void *after,
                       const struct rpl__line *ln);
void rpl__soc_view_json(const void *st, const struct rpl__env *env, int viewer,
                        struct rpl__buf *out);
void rpl__soc_describe(const void *st, const struct rpl__env *env,
                       const struct rpl__line *ln, int viewer,
                       struct rpl__buf *out);
void rpl__soc_events_json(const void *st, const struct rpl__env *env,
                          const struct rpl__line *ln, struct rpl__buf *out);
void rpl__soc_reveal_text(const void *st, const struct rpl__env *env,
                          struct rpl__buf *out);
void rpl__soc_reveal_json(const void *st, const struct rpl__env *env,
                          struct rpl__buf *out);

/* ----------------------------------------------------------- tactics.c */

/* What the seat to act knows (tactics.c's opening comment). */
struct soc_know {
    const struct soc_state *st;
    const struct soc_pub *p;
    const uint8_t *h; /* the seat's own hand, card counts */
    unsigned k;
    bool traitor;  /* has looked at its loyalty card: the traitor */
    bool evil;     /* plays for evil: the traitor, hidden or revealed */
    int top;       /* the top black card it has just seen, -1 */
    unsigned mood; /* 0..99, drawn once per decision from the stream */
};

/* ------------------------------------------------------------ values.c */

/* An immediate defeat, or a cost no player accepts (tactics.c). */
#define SOC_BOT_LOSS 100000L

const struct soc_combat *rpl__soc_combat(const struct soc_pub *p, unsigned q);
const struct soc_war *rpl__soc_war(const struct soc_pub *p, unsigned q);
/* Living knights at loc; living knights. */
unsigned rpl__soc_present(const struct soc_pub *p, unsigned loc);
unsigned rpl__soc_living(const struct soc_pub *p);
/* Grail cards (black: black cards) on the Grail's spots. */
unsigned rpl__soc_grail_count(const struct soc_pub *p, bool black);
unsigned rpl__soc_inflow(const struct soc_pub *p);
/* One more siege engine when s stand; a life point lost or gained at lp. */
long rpl__soc_siege_harm(const struct soc_pub *p, unsigned s);
long rpl__soc_lp_harm(unsigned lp);
long rpl__soc_lp_gain(unsigned lp);

/* -------------------------------------------------------------- plan.c */

/* The weights that change at a small table, and those that change only
 * at three players (the others' value is `large` elsewhere): what a
 * black card drawn costs, a knight's last life point, the traitor's
 * flip and accusation as the table's evidence makes them likely, a
 * siege engine removed in a siege fight, the sword Heroism adds to a
 * quest. */
enum soc_plan_w {
    SOC_PLAN_DRAW,
    SOC_PLAN_SACRIFICE,
    SOC_PLAN_FLIP,
    SOC_PLAN_BLACK,
    SOC_PLAN_LAST_LP,
    SOC_PLAN_FLIP_EVIDENCE,
    SOC_PLAN_SIXTH,
    SOC_PLAN_SIEGE_FIGHT,
    SOC_PLAN_HEROISM,
};

/* Whether the table is small enough for the small table's plan. */
bool rpl__soc_small_table(const struct soc_pub *p);
/* How often, in percent, the hidden traitor works as a loyal knight
 * would at this table. */
unsigned rpl__soc_traitor_busy(const struct soc_pub *p);
/* Whether a loyal knight leaves quest q alone at this table. */
bool rpl__soc_plan_leaves(const struct soc_know *kn, unsigned q);
/* Weight w at this table; `large` is its value at a larger one. */
long rpl__soc_plan_weight(const struct soc_pub *p, enum soc_plan_w w,
                          long large);
/* The chance, in percent, that the knights win quest q as a loyal
 * knight weighs it for Heroism where the plan says so; -1 where his
 * usual estimate stands. */
long rpl__soc_plan_heroism(const struct soc_know *kn, unsigned q);

/* ----------------------------------------------------------- suspect.c */

/* The chance, in percent, that seat t holds the traitor card, as the
 * seat of kn can tell from the table's evidence. */
long rpl__soc_suspicion(const struct soc_know *kn, unsigned t);
/* How much more likely, in percent, the table's evidence makes it that
 * one of the other living seats holds the traitor card than the
 * loyalty cards alone do (0 when it does not). */
long rpl__soc_traitor_evidence(const struct soc_know *kn);
/* How far, in hundredths of a sword, a progression of evil may cost
 * more than the least harmful one before the table calls it worse: a
 * loyal knight weighs his own hand too (a Merlin, a fight card for the
 * siege), which nobody else sees. */
#define SOC_EVIL_WORSE 120
/* How far before the table notes a choice as worse than the least at
 * all (suspect.c weighs that sign less). */
#define SOC_EVIL_SLY 10
/* What a loyal knight's accusation of seat t is worth (hundredths of a
 * sword), -1 when he does not accuse. */
long rpl__soc_accuse_value(const struct soc_know *kn, unsigned t);
/* Adds an accepted line to the table's memory; before is the public
 * state the line was read against. */
void rpl__soc_remember(struct soc_state *st, const struct soc_pub *before,
                       const struct soc_cmd *cmd);
/* What progression of evil opt costs the knights as a loyal seat k
 * weighs it from the public state and the table's memory alone
 * (hundredths of a sword); st gives the memory (st->m). */
long rpl__soc_evil_cost(const struct soc_state *st, const struct soc_pub *p,
                        unsigned k, unsigned opt);

/* The knowledge of the seat to act (a knowing state), with its mood. */
void rpl__soc_know_init(struct soc_know *kn, const struct soc_state *st,
                        unsigned mood);
/* The score of a legal move for that seat: higher is better. */
long rpl__soc_score(const struct soc_know *kn, const struct soc_cmd *cmd);
/* The best siege fight: the fight cards into cards (*n), its score. */
long rpl__soc_best_siege(const struct soc_know *kn, uint8_t *cards,
                         unsigned *n);

/* ------------------------------------------------------------ players.c */

/* The seeded player's action for the seat to act, in private form. */
enum rpl_status rpl__soc_bot(const struct soc_state *st, enum rpl_bot kind,
                             struct rpl__stream *rng, char *out, size_t cap,
                             struct rpl_error *err);

/* Every legal command of the seat to act (knowing state); returns how
 * many were written (at most cap), *total counts them all. */
size_t rpl__soc_legal(const struct soc_state *st, struct soc_cmd *out,
                      size_t cap, size_t *total);

/* The private form of a command (rpl_rec_act): secret choices carry
 * their value in place of the commitment. */
void rpl__soc_private_form(const struct soc_state *st,
                           const struct soc_cmd *cmd, char *out, size_t cap);

/* --------------------------------------------------------------- live.c */

/* The members of struct rpl__game_live of the same names
 * (games/game.h). */
enum rpl_status rpl__soc_screen(const void *st, const struct rpl__env *env,
                                size_t seat, const char *action,
                                struct rpl_refusal *why);
uint64_t rpl__soc_step_seats(const void *st);
void rpl__soc_state_json(const void *st, const struct rpl__env *env, int viewer,
                         struct rpl__buf *out);

/* ------------------------------------------------------------ module.c */

extern const struct rpl__game rpl__soc;

/* ------------------------------------------------------------- index.c */

/* The scratch of the archive's index (index_size): what the lines of a
 * game have told so far.  Seats are 1-based. */
struct soc_ix {
    bool is_begun;
    bool has_start;
    uint8_t prev; /* 1 + the keyword of the last game line, 0 none */
    uint8_t leader;
    int traitor;          /* his seat, 0 for none, -1 unknown */
    const char *revealed; /* how he came out, NULL while unknown */
    uint32_t revealed_line;
    uint32_t won, lost, nquests;
    uint32_t acc_line; /* the last accusation */
    uint8_t accuser, accused;
    uint8_t loyalty[SOC_MAX_SEATS + 1]; /* 0 unknown, 1 loyal, 2 traitor */
    uint32_t died[SOC_MAX_SEATS + 1];
};

/* The filter_value and index members of struct rpl__game_archive
 * (games/game.h). */
const char *rpl__soc_filter_value(int column, size_t i);
enum rpl_status rpl__soc_index(void *ix, const void *st,
                               const struct rpl__env *env,
                               const struct rpl__line *ln,
                               struct rpl__rows *rows, struct rpl_error *err);
/* The tables rpl__soc_index() writes: the tables member of struct
 * rpl__game_archive. */
#define SOC_NTABLES 4
extern const struct rpl__table rpl__soc_tables[SOC_NTABLES];

/* What the module tells without a log (info.c): its rpl_game_info() and
 * rpl_game_rules(). */
extern const struct rpl_game_info rpl__soc_info;
enum rpl_status rpl__soc_rules_line(size_t players, const char *roles,
                                    const char *options, struct rpl__buf *out,
                                    struct rpl_error *err);

/* What the archive reads back (stats.c): the stats and side_of members
 * of struct rpl__game_archive (games/game.h). */
enum rpl_status rpl__soc_stats(const struct rpl__stats *s,
                               struct rpl_error *err);
/* The tables of the deal audit (stats.c, struct rpl__audit). */
#define SOC_NAUDIT 5
extern const struct rpl__audit rpl__soc_audit[SOC_NAUDIT];
const char *rpl__soc_side_of(const char *name);

/* Coverage (coverage.c): the ids, the corpus rules lines and cover(). */
#define SOC_NCOV 169
extern const struct rpl_coverage_id rpl__soc_cov[SOC_NCOV];
extern const char *const rpl__soc_corpus_rules[];
void rpl__soc_cover(const void *before, const void *st,
                    const struct rpl__line *ln, const struct rpl__env *env,
                    uint64_t *bits);

#endif /* LIBREPLAY_SOC_H */
