/*
 * games/avalon/import.h - what the two halves of the Avalon importer
 * share: the record being imported (struct imp), its refusal
 * categories, and the readers of import_record.c (the record's JSON:
 * paths and types, players, roles, options, keys and time) that
 * import.c (the engine and the playing of the record) calls.  import.c
 * calls import_record.c, never the other way round.
 */
#ifndef LIBREPLAY_AVALON_IMPORT_H
#define LIBREPLAY_AVALON_IMPORT_H

#include <jansson.h>

#include "avalon.h"

/* Avalon seats (rules H-1) and quests. */
#define MIN_SEATS  5
#define MAX_SEATS  10
#define MAX_QUESTS 5

/* Seat names: camelog(5) allows 1 to 64 bytes of UTF-8 without control,
 * format or invisible characters, unique in the game. */
#define MAX_NAME     64

#define PATH_MAX_LEN RPL_IMPORT_FIELD_MAX
#define MSG_MAX_LEN  RPL_IMPORT_REASON_MAX

_Static_assert(MAX_SEATS <= RPL_MAX_SEATS, "seats fit the plan");
_Static_assert(MAX_NAME <= RPL_MAX_NAME, "names fit the plan");

/* Why a record was not imported.  The order is the order of summaries;
 * the keys are the `category` of camelog import --json and never
 * change. */
enum category {
    C_NONE = 0,
    C_READ,
    C_SIZE,
    C_SYNTAX,
    C_SHAPE,
    C_ID,
    C_NAME,
    C_PLAYERS,
    C_ROLE,
    C_HOUSE_ASSASSIN,
    C_CONFIG,
    C_OPTION,
    C_RECORD,
    C_ASSASSINS,
    C_ORDER,
    C_VOTE,
    C_ILLEGAL,
    C_RESULT,
    C_INCOMPLETE,
    C_AFTER_END,
    C_END,
    C_INVALID,
    C_EXISTS,
    C_WRITE,
    C_INTERNAL,
    C_COUNT
};

/* One record being imported. */
struct imp {
    const struct rpl__import_in *in;
    struct rpl__import_plan *plan;
    struct rpl_import_report *rep;
    enum rpl_status status; /* of the refusal */
    json_t *root;
    size_t n;
    const char *names[MAX_SEATS + 1]; /* 1-based, lent by root */
    /* The names as the log holds them (camelog(5) Seat names): the
     * record's, or their safe form when they hold a code point a name
     * may not; every message names a seat by this form. */
    char shown[MAX_SEATS + 1][MAX_NAME + 1];
    const char *roles[MAX_SEATS + 1]; /* role tokens, 1-based */
    size_t assassin;                  /* seat holding the power */
    size_t flagged[MAX_SEATS];        /* every seat with the flag, in order */
    size_t nflagged;
    unsigned variants; /* enum av_variant mask declared */
    size_t first;      /* first leader */
    size_t played;     /* quests played */
    size_t successes;  /* of them, successes */
    bool has_shot;     /* an assassinate line was played */

    /* The engine: the game's state, played line by line as the recorder
     * will write the log (the same lines, commitments included). */
    void *st;
    struct rpl__env env;
    const char *name_ptrs[MAX_SEATS + 1];
    uint8_t seed[32];
    bool started;
    size_t nlines;       /* lines the log has so far */
    char last_team[128]; /* the last `team` line the engine derived */
    char last_quest[128];
};

/* What a value must be. */
enum want {
    W_OBJECT,
    W_ARRAY,
    W_STRING,
    W_INTEGER,
    W_BOOLEAN,
    W_STRING_OR_NULL
};

/* Checks that v (at path) is what w says. */
bool rpl__avi_check_type(struct imp *im, const json_t *v, const char *path,
                         enum want w);
/* The message of a failed library call. */
const char *rpl__avi_error_text(enum rpl_status st,
                                const struct rpl_error *err);
/* arr[i] as w, with its path in child. */
bool rpl__avi_get_index(struct imp *im, const json_t *arr, const char *path,
                        size_t i, enum want w, json_t **out, char *child);
/* obj[key] as w; its path goes to child (PATH_MAX_LEN bytes). */
bool rpl__avi_get_key(struct imp *im, const json_t *obj, const char *path,
                      const char *key, enum want w, json_t **out, char *child);
/* A string of the record naming a player, as a seat. */
bool rpl__avi_get_player(struct imp *im, const json_t *v, const char *path,
                         size_t *seat);
/* Parses the record into im->root. */
bool rpl__avi_load_record(struct imp *im);
/* The original id (plan->oid): the file name without its directory
 * and ".json". */
bool rpl__avi_original_id(struct imp *im);
/* base[i]. */
void rpl__avi_path_index(char *out, size_t cap, const char *base, size_t i);
/* base.key, or base["key"] for a key that is not an identifier. */
void rpl__avi_path_key(char *out, size_t cap, const char *base,
                       const char *key);
/* timeCreated._seconds as YYYY-MM-DDTHH:MM:SSZ; "" when the record has
 * no timeCreated. */
bool rpl__avi_read_created(struct imp *im, char *out, size_t cap);
/* The first leader: the proposer of mission 1's first proposal. */
bool rpl__avi_read_first(struct imp *im, const json_t *missions);
/* The keys of a record, in every format of the dataset: 2019 records
 * have no options, records from 2022 on carry __collections__ (the
 * store's subcollections, always empty in game records).  A key camelog
 * does not know is a format it does not know: refused, never guessed. */
bool rpl__avi_read_keys(struct imp *im);
/* options: only what changes nothing in the rules. */
bool rpl__avi_read_options(struct imp *im);
/* players: 5 to 10 distinct names camelog can hold, in seat order. */
bool rpl__avi_read_players(struct imp *im);
/* outcome.roles: every player once, with a role of the official game,
 * the assassin flag on evil roles only.  Of several flags, one seat is
 * given the power (see there); the assassination refuses them. */
bool rpl__avi_read_roles(struct imp *im, const json_t *outcome);
/* Who holds the assassin flag: "A", "A and B" or "A, B and C". */
void rpl__avi_flag_holders(const struct imp *im, char *out, size_t cap);
/* Whether the shot the record holds names a seat the Assassin saw at
 * night: the site allows it, the official rules do not, so it
 * declares the variant assassin-names-evil.  The night is that of
 * camelog-avalon(7): every evil role but Oberon sees the others but
 * Oberon.  A shot that is not a player's name is refused later, where
 * the assassination is played. */
void rpl__avi_read_shot(struct imp *im, const json_t *outcome);
/* Records why the record is refused; returns false for `return refuse()`.
 * The first refusal stands. */
bool rpl__avi_refuse(struct imp *im, enum category cat, const char *path,
                     const char *fmt, ...) RPL__PRINTF(4, 5);
/* A failed library call: its status decides the category. */
bool rpl__avi_refuse_lib(struct imp *im, enum category cat, const char *context,
                         enum rpl_status st, const struct rpl_error *err);
/* The rules line: the roles in canonical order, no Lady, no Targeting. */
void rpl__avi_rules_line(const struct imp *im, char *out, size_t cap);
/* The seat of a display name, 0 for none. */
size_t rpl__avi_seat_of(const struct imp *im, const char *name);

#endif /* LIBREPLAY_AVALON_IMPORT_H */
