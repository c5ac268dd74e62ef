/*
 * avalon.h - the Avalon module's state and the declarations its files
 * share.  Nothing here is public API.
 *
 *   notation.c  the rules line; reading and writing the game lines; the
 *               role, keyword, end and card names; the tables of §2
 *   rules.c     the engine: setup, apply, learn, pending, action, the
 *               reveal and the opens, serialize
 *   known.c     one seat's own deliveries before the reveal (seat_learn)
 *               and what the views show of that seat
 *   views.c     view, view_json, describe, events_json, reveal_text,
 *               reveal_json
 *   players.c   the seeded players
 *   live.c      live games: screen, step_seats, state_json
 *   module.c    the struct rpl__game and its tables, and their thin glue
 *
 * Dependency order, with no circle: a file calls only what the core
 * (games/game.h and below) and the files before it in this order define.
 *
 *   notation.c <- rules.c <- known.c <- views.c
 *                 rules.c <- players.c
 *                 rules.c <- live.c
 *   module.c depends on all of them
 *
 * So rules.c may use notation.c, views.c and players.c may use rules.c
 * and notation.c, and nothing but module.c uses views.c or players.c.
 * The declarations below are grouped by the file that defines them.
 *
 * The state is plain data: no pointers, zeroed by the log layer, copied
 * with memcpy.  Seats are 1-based; a team or a set of seats is a mask
 * with bit k for seat pK.  Rounds are counted in time order (1..5);
 * slots are the quest spaces of the board (equal to the round without
 * Targeting).
 */
#ifndef LIBREPLAY_AVALON_H
#define LIBREPLAY_AVALON_H

#include "games/game.h"

/* Roles, in the canonical order of the rules line. */
enum av_role {
    AV_MERLIN = 0,
    AV_PERCIVAL = 1,
    AV_SERVANT = 2,
    AV_ASSASSIN = 3,
    AV_MORGANA = 4,
    AV_MORDRED = 5,
    AV_OBERON = 6,
    AV_MINION = 7
};
#define AV_NROLES 8

/* Declared house rules (camelog-avalon(7), Variants), in the canonical
 * order of the rules line's variants= key; bit v of av_state.variants. */
enum av_variant {
    AV_V_ASSASSIN_MORGANA = 0, /* Morgana holds the Assassin's power */
    AV_V_ASSASSIN_MORDRED = 1, /* Mordred holds it */
    AV_V_ASSASSIN_OBERON = 2,  /* Oberon holds it */
    AV_V_PERCIVAL_ALONE = 3,   /* Percival without Merlin (H-5 lifted) */
    AV_V_NAMES_EVIL = 4        /* the Assassin may name a seat it saw */
};
#define AV_NVARIANTS 5

/* What the state waits for.  0 is the zeroed state (no rules line). */
enum av_phase {
    AV_PH_RULES = 0,
    AV_PH_START = 1,    /* `start` */
    AV_PH_DEAL = 2,     /* `deal pK`, seat order */
    AV_PH_PROPOSE = 3,  /* the leader's `propose` */
    AV_PH_VOTE = 4,     /* `vote pK`, seat order */
    AV_PH_TALLY = 5,    /* `team approved|rejected Y-N` */
    AV_PH_CARDS = 6,    /* `card pK`, team members ascending */
    AV_PH_QUEST = 7,    /* `quest S result fails=F` */
    AV_PH_LADY = 8,     /* the holder's `lady` */
    AV_PH_ASSASSIN = 9, /* `assassinate` */
    AV_PH_END = 10,     /* the decided `end` */
    AV_PH_OVER = 11     /* after `end` */
};

/* End reasons; the winner follows from the reason. */
enum av_reason {
    AV_R_NONE = 0,
    AV_R_QUESTS = 1,        /* good */
    AV_R_FAILURES = 2,      /* evil */
    AV_R_REJECTIONS = 3,    /* evil */
    AV_R_ASSASSINATION = 4, /* evil */
    AV_R_MISSED = 5,        /* good */
    AV_R_ABORTED = 6,       /* no winner */
    AV_R_EITHER = 7 /* expected only: assassination or missed (public) */
};

/* Card values and Lady results: 0 while unknown. */
#define AV_SUCCESS   1
#define AV_FAIL      2
#define AV_GOOD      1
#define AV_EVIL      2

#define AV_MIN_SEATS 5
#define AV_MAX_SEATS 10
#define AV_MAX_PROPS 25 /* 5 rounds of at most 5 proposals */
#define AV_MAX_CARDS 25 /* 5 quests of at most 5 members */
#define AV_MAX_LADY  3  /* after rounds 2, 3 and 4 */

_Static_assert(AV_MAX_SEATS == RPL_MAX_SEATS, "Avalon has 10 seats at most");

struct av_prop {
    uint32_t line;       /* the propose line */
    uint32_t tally_line; /* the team line; 0 before it */
    uint8_t leader;
    uint8_t round;
    uint8_t slot;
    uint8_t nvotes;
    uint8_t result; /* 0 open, 1 approved, 2 rejected */
    uint16_t team;  /* mask */
    uint16_t yes;   /* mask of the yes votes so far */
};

struct av_quest {
    uint32_t line; /* the quest line; 0 before it */
    uint8_t slot;
    uint8_t size;
    uint8_t first_card; /* index into card[] */
    uint8_t fails;      /* from the quest line */
    uint8_t result;     /* 0 before the quest line, AV_SUCCESS, AV_FAIL */
    uint16_t team;
};

struct av_card {
    uint32_t line;
    uint8_t round;
    uint8_t seat;
    uint8_t value; /* 0 unknown, AV_SUCCESS, AV_FAIL */
    uint8_t is_opened;
    uint8_t commit[32];
};

struct av_lady {
    uint32_t line;
    uint8_t round;
    uint8_t holder;
    uint8_t target;
    uint8_t side; /* 0 unknown, AV_GOOD, AV_EVIL */
    uint8_t commit[32];
};

struct av_state {
    /* The rules line. */
    uint8_t n;
    uint8_t is_lady;
    uint8_t is_targeting;
    uint8_t count[AV_NROLES];     /* how many of each role */
    uint8_t roster[AV_MAX_SEATS]; /* the roles list, canonical order */
    uint8_t variants;             /* mask of enum av_variant; 0: official */
    uint8_t power;                /* the role holding the Assassin's power */

    /* An imported game (camelog(5)): the reveal opens the roles
     * (`open role pK <role>`, seat order) before the cards. */
    uint8_t is_imported;
    uint8_t roles_due;     /* reveal applied, roles not all opened */
    uint8_t nroles_opened; /* `open role` lines so far */
    uint8_t opened_role[AV_MAX_SEATS + 1];
    uint16_t learned_roles; /* mask: roles learned (replay) */

    /* The deal, once known (setup, rpl__avalon_deal or reveal). */
    uint8_t knows;
    uint8_t is_revealed;
    uint8_t leader0;                /* the derived first leader */
    uint8_t role[AV_MAX_SEATS + 1]; /* role[k] of seat pK */

    /* Progress. */
    uint8_t phase;
    uint8_t leader1; /* the first leader named by `start` */
    uint32_t start_line;
    uint8_t ndeals;
    uint32_t deal_line[AV_MAX_SEATS + 1];
    uint8_t deal_commit[AV_MAX_SEATS + 1][32];
    uint8_t round;      /* 1..5 once started */
    uint8_t rejections; /* in this round */
    uint8_t nprops;
    uint8_t successes;
    uint8_t failures;
    uint8_t slots_done; /* bit s: slot s played */
    struct av_prop prop[AV_MAX_PROPS];
    struct av_quest quest[6]; /* by round, 1..5 */
    uint8_t ncards;
    uint8_t nopened;
    struct av_card card[AV_MAX_CARDS];
    uint8_t learned[6][AV_MAX_SEATS + 1]; /* by round and seat */
    uint8_t lady_holder;
    uint16_t lady_held; /* mask: every holder so far */
    uint8_t nladies;
    struct av_lady lady[AV_MAX_LADY];
    uint8_t assassin; /* actor of `assassinate`, 0 before it */
    uint8_t target;
    uint32_t assassinate_line;
    uint8_t exp_reason; /* AV_PH_END: the decided end */
    uint8_t reason;     /* of the end line */
    uint32_t end_line;

    /* One seat's own deliveries before the reveal (seat_learn): what
     * seat `me` knows of the deal that the state does not.  Not
     * serialized: the digest is the public state's. */
    uint8_t me;         /* the seat; 0: none */
    uint8_t me_dealt;   /* its deal delivery came */
    uint8_t me_role;    /* from it */
    uint16_t me_sees;   /* the seats it sees at night */
    uint8_t me_lady[6]; /* by round: AV_GOOD or AV_EVIL, 0 unknown */
};

/* ----------------------------------------------------------- notation.c */

/* Rules tables (rules/avalon.md §2), index n - 5 and slot - 1. */
extern const unsigned char rpl__av_team[6][5];

/* Tokens: roles by enum av_role, winners and reasons by enum av_reason
 * (AV_R_EITHER has none; AV_R_NONE is ""). */
extern const char *const rpl__av_role_name[AV_NROLES];
extern const char *const rpl__av_variant_name[AV_NVARIANTS];

/* "assassin-mordred,percival-alone" of a mask of variants ("" for
 * none), written to out: the value of the variants= key. */
void rpl__av_fmt_variants(char *out, size_t cap, unsigned mask);

/* The same read from a rules line's text (struct rpl__game_play.variants). */
size_t rpl__av_variants(const char *rules, size_t len, char *out, size_t cap);
extern const char *const rpl__av_winner_name[AV_R_ABORTED + 1];
extern const char *const rpl__av_reason_name[AV_R_ABORTED + 1];

/* The keywords of the game lines, in the order of rpl__av_keyword(). */
enum av_kw {
    AV_KW_START,
    AV_KW_DEAL,
    AV_KW_PROPOSE,
    AV_KW_VOTE,
    AV_KW_TEAM,
    AV_KW_CARD,
    AV_KW_QUEST,
    AV_KW_LADY,
    AV_KW_ASSASSINATE,
    AV_KW_END,
    AV_KW_COUNT
};

/* What one game line says, once its syntax is checked. */
struct av_parsed {
    size_t a, b;        /* seats */
    unsigned long x, y; /* numbers: slot, tally, fails */
    bool yes;           /* vote yes, team approved, quest success */
    uint16_t team;
    size_t nteam;    /* entries, duplicates included */
    size_t dup;      /* a seat named twice, 0 when none */
    unsigned reason; /* end */
    uint8_t commit[32];
};

/* "good", "evil" or "unknown" of AV_GOOD, AV_EVIL, 0. */
const char *rpl__av_side_name(unsigned side);

/* "success", "fail" or "unknown" of AV_SUCCESS, AV_FAIL, 0. */
const char *rpl__av_card_name(unsigned v);

/* "p1,p3,p5" of a mask ("" for none), written to out. */
void rpl__av_fmt_mask(char *out, size_t cap, uint16_t mask);

/* The game's plausible() hook (struct rpl__game_play): a deal value must be
 * a night view some deal of the rules' roles gives the seat. */
enum rpl_status rpl__av_plausible(const void *st, const struct rpl__env *env,
                                  size_t seat, const char *label,
                                  const char *value, size_t line,
                                  struct rpl_error *err);

/* The enum av_role of the role token p[0..n), or -1. */
int rpl__av_role_index(const char *p, size_t n);

/* The enum av_kw of a line's first token, or -1. */
int rpl__av_keyword(const struct rpl__tok *t);

/* The generic form of a line of keyword kw ("vote pK yes|no"), for
 * syntax errors. */
void rpl__av_form(const struct av_state *s, int kw, char *out, size_t cap);

/* Checks the syntax of a line of keyword kw and reads it into p (zeroed
 * by the caller); false when the line is not of that form. */
bool rpl__av_parse(const struct av_state *s, int kw, const struct rpl__line *ln,
                   struct av_parsed *p);

/* The rules line (struct rpl__game_play.rules): checks it and fills st. */
enum rpl_status rpl__av_rules(void *st, const struct rpl__line *ln,
                              const struct rpl__env *env, size_t *seats,
                              struct rpl_error *err);

/* ------------------------------------------------ inline helpers (here) */

/* Seat masks: bit k is seat pK. */
static inline uint16_t
bit(unsigned k)
{
    return (uint16_t)(1u << k);
}

static inline unsigned
popcount16(uint16_t m)
{
    unsigned c = 0;

    for (; m; m &= (uint16_t)(m - 1))
        c++;
    return c;
}

static inline unsigned
av_team_size(const struct av_state *s, unsigned slot)
{
    return rpl__av_team[s->n - 5][slot - 1];
}

static inline unsigned
av_fails_needed(unsigned n, unsigned slot)
{
    return (slot == 4 && n >= 7) ? 2 : 1;
}

static inline bool
av_is_evil(unsigned role)
{
    return role >= AV_ASSASSIN;
}

/* AV_GOOD or AV_EVIL, the side of a role. */
static inline unsigned
av_side_of(unsigned role)
{
    return av_is_evil(role) ? AV_EVIL : AV_GOOD;
}

/* The leader of the next proposal (leader invariant, §5.5); 0 before
 * `start`. */
static inline unsigned
av_leader(const struct av_state *s)
{
    if (!s->leader1)
        return 0;
    return (unsigned)(s->leader1 - 1u + s->nprops) % s->n + 1u;
}

/* Whether a Targeting proposal may name slot (§10, A-29). */
static inline bool
av_slot_open(const struct av_state *s, unsigned slot)
{
    if (slot < 1 || slot > 5 || (s->slots_done & (1u << slot)))
        return false;
    return slot != 5 || s->successes >= 2;
}

/* -------------------------------------------------------------- rules.c */

/* The seat that must act next (the Assassin too when the deal is known);
 * 0 when the dealer writes next or the game is over. */
size_t rpl__av_turn(const struct av_state *s);

/* The team member whose card is due; 0 when none. */
unsigned rpl__av_next_card(const struct av_state *s);

/* The seats pK sees at night as a mask (needs the deal). */
uint16_t rpl__av_seen(const struct av_state *s, unsigned seat);

/* The night view of pK, "role=merlin sees=p2,p4" (needs the deal): the
 * value its deal line commits to. */
void rpl__av_night_view(const struct av_state *s, unsigned seat, char *out,
                        size_t cap);

/* The role token ("merlin") of seat when the state knows the deal, else
 * NULL (tests, import). */
const char *rpl__avalon_role(const void *st, size_t seat);

/* Sets a deal made outside camelog (roles[k - 1] is the role token of pK,
 * leader the first leader) instead of setup(): for imported games, whose
 * roles no seed derives, and tests.  The roles must be a permutation of
 * the rules line's list. */
enum rpl_status rpl__avalon_deal(void *st, const char *const *roles,
                                 size_t nroles, size_t leader,
                                 struct rpl_error *err);

/* The members of struct rpl__game_play and rpl__game_live of the same
 * names (games/game.h). */
enum rpl_status rpl__av_setup(void *st, const struct rpl__env *env,
                              struct rpl_error *err);
enum rpl_status rpl__av_apply(void *st, const struct rpl__line *ln,
                              const struct rpl__env *env,
                              struct rpl__applied *out, struct rpl_error *err);
enum rpl_status rpl__av_learn(void *st, const char *label, const char *value,
                              struct rpl_error *err);
bool rpl__av_pending(const void *st, const struct rpl__env *env,
                     struct rpl__emit *e);
enum rpl_status rpl__av_action(const void *st, const struct rpl__env *env,
                               const char *action, struct rpl__emit *e,
                               struct rpl_error *err);
enum rpl_status rpl__av_reveal(void *st, const struct rpl__env *env,
                               size_t reveal_line, struct rpl_error *err);
enum rpl_status rpl__av_open(void *st, const struct rpl__line *ln,
                             const struct rpl__env *env, struct rpl_error *err);
size_t rpl__av_opens_left(const void *st);
bool rpl__av_open_line(const void *st, size_t i, struct rpl__emit *e);
size_t rpl__av_serialize(const void *st, uint8_t *buf, size_t cap);

/* -------------------------------------------------------------- known.c */

/* Whether seat `viewer` knows its own deal at this point: the state
 * knows the deal, or the seat's deliveries (seat_learn) told it and its
 * deal line has been applied. */
bool rpl__av_seat_knows(const struct av_state *s, int viewer);

/* Seat k's role and the seats it sees, as the state or (for the seat of
 * seat_learn) the seat's own deal knows them; needs rpl__av_seat_knows()
 * for k. */
unsigned rpl__av_known_role(const struct av_state *s, unsigned k,
                            uint16_t *seen);

/* The night view of k as rpl__av_night_view() writes it, from
 * rpl__av_known_role(). */
void rpl__av_known_view(const struct av_state *s, unsigned k, char *out,
                        size_t cap);

/* The seat_learn member of struct rpl__game_views (games/game.h). */
enum rpl_status rpl__av_seat_learn(void *st, size_t seat, const char *label,
                                   const char *value, struct rpl_error *err);

/* -------------------------------------------------------------- views.c */

/* The members of struct rpl__game_views of the same names
 * (games/game.h). */
void rpl__av_view(const void *st, const struct rpl__env *env, int viewer,
                  struct rpl__buf *out);
void rpl__av_view_json(const void *st, const struct rpl__env *env, int viewer,
                       struct rpl__buf *out);
void rpl__av_describe(const void *st, const struct rpl__env *env,
                      const struct rpl__line *ln, int viewer,
                      struct rpl__buf *out);
void rpl__av_events_json(const void *st, const struct rpl__env *env,
                         const struct rpl__line *ln, struct rpl__buf *out);
void rpl__av_reveal_text(const void *st, const struct rpl__env *env,
                         struct rpl__buf *out);
void rpl__av_reveal_json(const void *st, const struct rpl__env *env,
                         struct rpl__buf *out);
void rpl__av_board(const void *st, const struct rpl__env *env, int viewer,
                   struct rpl__buf *out);
unsigned rpl__av_mark(const void *before, const void *after,
                      const struct rpl__line *ln);
void rpl__av_describe_open(const void *st, const struct rpl__env *env,
                           const struct rpl__line *ln, struct rpl__buf *out);

/* ------------------------------------------------------------ players.c */

/* The action of the seat whose turn it is, in its private form ("vote p3
 * yes"), written to out. */
enum rpl_status rpl__av_bot(const struct av_state *s, enum rpl_bot kind,
                            struct rpl__stream *rng, char *out, size_t cap,
                            struct rpl_error *err);

/* --------------------------------------------------------------- live.c */

/* The members of struct rpl__game_live of the same names
 * (games/game.h). */
enum rpl_status rpl__av_screen(const void *st, const struct rpl__env *env,
                               size_t seat, const char *action,
                               struct rpl_refusal *why);
uint64_t rpl__av_step_seats(const void *st);
void rpl__av_state_json(const void *st, const struct rpl__env *env, int viewer,
                        struct rpl__buf *out);

/* --------------------------------------------------------------- info.c */

/* What the module tells without a log: its rpl_game_info(), the role
 * names in the order of the rules line, Good and Evil seats by player
 * count (index n - AV_MIN_SEATS), and rpl_game_rules(). */
extern const struct rpl_game_info rpl__avalon_info;
extern const char *const rpl__av_role_order[AV_NROLES];
extern const unsigned char rpl__av_sides[AV_MAX_SEATS - AV_MIN_SEATS + 1][2];
enum rpl_status rpl__av_rules_line(size_t players, const char *roles,
                                   const char *options, struct rpl__buf *out,
                                   struct rpl_error *err);

/* ------------------------------------------------------------- import.c */

/* The importers of records of other systems, for the module's importers
 * member: NULL-terminated. */
extern const struct rpl__importer *const rpl__avalon_importers[];

/* -------------------------------------------------------------- index.c */

/* The values a filter may give for a column (RPL__COL_ROLE, ...): the
 * filter_value member of struct rpl__game_archive (games/game.h). */
const char *rpl__av_filter_value(int column, size_t i);

/* The archive's rows of a game: the index member of struct
 * rpl__game_archive (games/game.h). */
enum rpl_status rpl__av_index(void *ix, const void *st,
                              const struct rpl__env *env,
                              const struct rpl__line *ln,
                              struct rpl__rows *rows, struct rpl_error *err);
/* The tables index() writes: the tables member of struct
 * rpl__game_archive. */
#define AV_NTABLES 4
extern const struct rpl__table rpl__av_tables[AV_NTABLES];

/* -------------------------------------------------------------- stats.c */

/* What the archive reads back (stats.c): the stats and details members
 * of struct rpl__game_archive (games/game.h). */
#define AV_NDETAILS_READS 3
extern const struct rpl__read rpl__av_details_reads[AV_NDETAILS_READS];
/* The groups of the facts rpl__av_details() gives: the assassination. */
extern const char *const rpl__av_fact_groups[2];
enum rpl_status rpl__av_stats(const struct rpl__stats *s,
                              struct rpl_error *err);
enum rpl_status rpl__av_details(struct rpl__details *d, struct rpl_error *err);
/* The tables of the deal audit (stats.c, struct rpl__audit). */
#define AV_NAUDIT 4
extern const struct rpl__audit rpl__av_audit[AV_NAUDIT];

/* Coverage (coverage.c): the ids, the corpus rules lines and cover(). */
#define AV_NCOV 55
extern const struct rpl_coverage_id rpl__av_cov[AV_NCOV];
extern const char *const rpl__av_corpus_rules[];
void rpl__av_cover(const void *before, const void *st,
                   const struct rpl__line *ln, const struct rpl__env *env,
                   uint64_t *bits);

/* ------------------------------------------------------------- module.c */

extern const struct rpl__game rpl__avalon;

#endif /* LIBREPLAY_AVALON_H */
