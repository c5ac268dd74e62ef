/*
 * games/game.h - the one door between the log layer and a game: struct
 * rpl__game, the table of functions every game module implements, and
 * what the log layer lends a module during a call.
 *
 * What may include what:
 *   - the core (text, crypto, rng, keys, gz, ctx, json) includes
 *     internal.h and never anything under games/;
 *   - the log layer (log.c, rec.c) and archive/ include games/game.h and
 *     reach a game only through struct rpl__game and rpl__game_find();
 *   - a game's files include internal.h, games/game.h, json.h and their
 *     own folder's headers, never another game's;
 *   - registry.c alone names the games.
 */
#ifndef LIBREPLAY_GAMES_GAME_H
#define LIBREPLAY_GAMES_GAME_H

#include "internal.h"

/* What the log layer lends a module during a call. */
struct rpl__env {
    struct rpl_ctx *ctx;
    const uint8_t *id;        /* 16 bytes */
    const uint8_t *seed;      /* 32 bytes once known, else NULL */
    size_t seats;             /* from the rules line */
    const char *const *names; /* names[1..seats], NUL-terminated */
    size_t *commitments;      /* count of commitments checked, or NULL */
    bool imported;            /* the deal comes from another system's record */
    /* Warning sink: msg begins with the rule id ("O-2: ..."). */
    void (*warn)(void *w, size_t line, const char *msg);
    void *w;
};

/* A line the dealer or a seat writes, before its commitment: when label
 * is not empty, the writer appends " " and the hex commitment of
 * (label, value) to line. */
struct rpl__emit {
    char line[256];
    char label[64];
    char value[192];
};

/* What apply() tells the log layer about an accepted line. */
struct rpl__applied {
    size_t author;    /* the seat that authored the line (may sign it) */
    bool opens_group; /* first line of a group signed against one base */
    bool in_group;    /* signed against the base of its group (votes) */
};

/* One game.  The state is plain data of state_size bytes (no pointers):
 * the log layer zeroes it, copies it with memcpy and never looks inside.
 * Every function that fails leaves the state as it was. */
struct rpl__game {
    const char *name; /* the `game` line's value */
    size_t state_size;

    /* The `rules` line: checks it, stores the configuration, reports
     * O/W warnings through env and sets *seats. */
    enum rpl_status (*rules)(void *st, const struct rpl__line *ln,
                             const struct rpl__env *env, size_t *seats,
                             struct rpl_error *err);
    /* With env->seed: derives the deal (every secret of the setup). */
    enum rpl_status (*setup)(void *st, const struct rpl__env *env,
                             struct rpl_error *err);
    /* A game line (every line that is not header, entropy, seal, sig,
     * reveal or open).  Checks everything the state knows. */
    enum rpl_status (*apply)(void *st, const struct rpl__line *ln,
                             const struct rpl__env *env,
                             struct rpl__applied *out, struct rpl_error *err);
    /* Tells the state a secret choice before its line is applied
     * (recorder, and replay of a complete log): label as in `open`. */
    enum rpl_status (*learn)(void *st, const char *label, const char *value,
                             struct rpl_error *err);
    /* Imported games: the deal as the record gives it (deal[0..seats),
     * game-specific texts, e.g. Avalon roles) and the first player, in
     * place of setup(). */
    enum rpl_status (*import_deal)(void *st, const struct rpl__env *env,
                                   const char *const *deal, size_t first,
                                   struct rpl_error *err);
    /* The dealer's next line (needs setup): start, deal, derived lines.
     * False when a seat must act or the game is over. */
    bool (*pending)(const void *st, const struct rpl__env *env,
                    struct rpl__emit *e);
    /* The seat that must act next; 0 when none. */
    size_t (*turn)(const void *st);
    /* A private-form action (rpl_rec_act) as the line to write. */
    enum rpl_status (*action)(const void *st, const struct rpl__env *env,
                              const char *action, struct rpl__emit *e,
                              struct rpl_error *err);
    /* A seeded player's choice for the seat whose turn it is. */
    enum rpl_status (*bot)(const void *st, const struct rpl__env *env,
                           enum rpl_bot kind, struct rpl__stream *rng,
                           struct rpl__emit *e, struct rpl_error *err);
    /* Whether `end` has been applied. */
    bool (*is_over)(const void *st);
    /* Winner and reason tokens of `end` ("" before it). */
    void (*outcome)(const void *st, const char **winner, const char **reason);
    /* At `reveal` (env->seed set): the checks of camelog(5) in order,
     * each error naming the line whose claim is false. */
    enum rpl_status (*reveal)(void *st, const struct rpl__env *env,
                              size_t reveal_line, struct rpl_error *err);
    /* One `open` line after `reveal`. */
    enum rpl_status (*open)(void *st, const struct rpl__line *ln,
                            const struct rpl__env *env, struct rpl_error *err);
    /* Opens still expected after `reveal`. */
    size_t (*opens_left)(const void *st);
    /* Open i (0-based, log order) as "open <label> <value>" (recorder). */
    bool (*open_line)(const void *st, size_t i, struct rpl__emit *e);
    /* Canonical bytes of the state for the digest; returns the length
     * (writes nothing past cap). */
    size_t (*serialize)(const void *st, uint8_t *buf, size_t cap);
    /* Text for people and JSON (append to out): the board and what the
     * viewer (seat, RPL_VIEW_PUBLIC or RPL_VIEW_ALL) knows. */
    void (*view)(const void *st, const struct rpl__env *env, int viewer,
                 struct rpl__buf *out);
    void (*view_json)(const void *st, const struct rpl__env *env, int viewer,
                      struct rpl__buf *out);
    /* The line just applied (st is the state after it), told for people
     * and as a JSON array of events. */
    void (*describe)(const void *st, const struct rpl__env *env,
                     const struct rpl__line *ln, int viewer,
                     struct rpl__buf *out);
    void (*events_json)(const void *st, const struct rpl__env *env,
                        const struct rpl__line *ln, struct rpl__buf *out);
    /* Who was who (complete state): text and JSON. */
    void (*reveal_text)(const void *st, const struct rpl__env *env,
                        struct rpl__buf *out);
    void (*reveal_json)(const void *st, const struct rpl__env *env,
                        struct rpl__buf *out);
    /* What rpl_game_info() gives; info->name is name. */
    const struct rpl_game_info *info;
    /* rpl_game_rules(): appends the value of a rules line to out (roles
     * and options as rpl_game_rules() takes them, NULL for none). */
    enum rpl_status (*rules_line)(size_t players, const char *roles,
                                  const char *options, struct rpl__buf *out,
                                  struct rpl_error *err);
};

/* The registry (registry.c): NULL for an unknown name. */
const struct rpl__game *rpl__game_find(const char *name, size_t len);

/* The games' names joined for a message: "avalon or soc" with last
 * " or ", commas before it; truncated to cap (cap > 0). */
void rpl__game_names(char *out, size_t cap, const char *last);

#endif /* LIBREPLAY_GAMES_GAME_H */
