/*
 * module.c - coin, a guessing game for the tests only (the rules and
 * the notation are in README beside this file): the whole game behind
 * struct rpl__game (games/game.h) and the tables of the concerns it has
 * (play, views, live, archive), in one file of one folder, with the
 * includes a game may use (internal.h, games/game.h, json.h) and
 * nothing else of the library.  It is linked into the test binaries
 * alone ($(B)/tests/games.h lists it); production builds do not know it.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "games/game.h"
#include "json.h"

#define COIN_MAX_ROUNDS 9u
#define COIN_MAX_SEATS  RPL_MAX_SEATS

enum coin_phase {
    PH_RULES = 0, /* before the rules line */
    PH_START,     /* start is next */
    PH_COIN,      /* the dealer's coin of round `round` */
    PH_GUESS,     /* seat nguess + 1 guesses */
    PH_FLIP,      /* the dealer shows the coin */
    PH_END,       /* end pK most */
    PH_OVER
};

/* 0 unknown, else HEADS or TAILS. */
#define HEADS 1u
#define TAILS 2u

static const char *const side_name[] = {"?", "heads", "tails"};
static const char *const phase_name[] = {"rules", "start", "coin", "guess",
                                         "flip",  "end",   "over"};

/* Plain data (games/game.h): no pointers. */
struct coin_state {
    uint8_t phase;
    uint8_t n;
    uint8_t rounds;
    uint8_t round; /* the round being played, 1-based */
    uint8_t nguess;
    uint8_t knows; /* the coins are known (setup, reveal) */
    uint8_t is_revealed;
    uint8_t is_aborted;
    uint8_t winner;
    uint8_t nrounds_done;
    uint16_t nguesses; /* guess lines applied */
    uint16_t nopened;
    uint8_t coin[COIN_MAX_ROUNDS + 1];  /* the seed's coins */
    uint8_t shown[COIN_MAX_ROUNDS + 1]; /* the flip lines' coins */
    uint16_t right[COIN_MAX_ROUNDS + 1];
    uint8_t score[COIN_MAX_SEATS + 1];
    uint8_t guess[COIN_MAX_ROUNDS + 1][COIN_MAX_SEATS + 1];
    uint8_t coin_commit[COIN_MAX_ROUNDS + 1][32];
    uint8_t guess_commit[COIN_MAX_ROUNDS + 1][COIN_MAX_SEATS + 1][32];
    uint32_t coin_line[COIN_MAX_ROUNDS + 1];
    uint32_t flip_line[COIN_MAX_ROUNDS + 1];
    uint32_t guess_line[COIN_MAX_ROUNDS + 1][COIN_MAX_SEATS + 1];
    uint32_t end_line;
};

/* The archive's scratch: nothing the state does not keep. */
struct coin_ix {
    uint8_t unused;
};

/* ------------------------------------------------------------ helpers */

static bool
tok_side(const struct rpl__tok *t, unsigned *v)
{
    if (rpl__tok_is(t, "heads"))
        *v = HEADS;
    else if (rpl__tok_is(t, "tails"))
        *v = TAILS;
    else
        return false;
    return true;
}

static unsigned
side_of(const char *s)
{
    return strcmp(s, "heads") == 0   ? HEADS
           : strcmp(s, "tails") == 0 ? TAILS
                                     : 0;
}

/* The seat that wins on the scores: the most, the lowest on a tie. */
static unsigned
leader_of(const struct coin_state *s)
{
    unsigned best = 1;

    for (unsigned k = 2; k <= s->n; k++)
        if (s->score[k] > s->score[best])
            best = k;
    return best;
}

/* The seats whose guess of round r is the coin; false while unknown. */
static bool
right_of(const struct coin_state *s, unsigned r, unsigned coin, uint16_t *mask)
{
    *mask = 0;
    for (unsigned k = 1; k <= s->n; k++) {
        if (!s->guess[r][k])
            return false;
        if (s->guess[r][k] == coin)
            *mask |= (uint16_t)(1u << k);
    }
    return true;
}

static void
fmt_mask(char *out, size_t cap, const struct coin_state *s, uint16_t mask)
{
    uint8_t seats[COIN_MAX_SEATS];
    size_t n = 0;

    for (unsigned k = 1; k <= s->n; k++)
        if (mask & (1u << k))
            seats[n++] = (uint8_t)k;
    if (n == 0)
        snprintf(out, cap, "none");
    else
        rpl__fmt_seats(out, cap, seats, n);
}

/* The form of the next line, for errors. */
static void
expected(const struct coin_state *s, char *out, size_t cap)
{
    switch (s->phase) {
    case PH_START:
        snprintf(out, cap, "start");
        break;
    case PH_COIN:
        snprintf(out, cap, "coin %u <commitment>", s->round);
        break;
    case PH_GUESS:
        snprintf(out, cap, "guess p%u <commitment>", s->nguess + 1u);
        break;
    case PH_FLIP:
        snprintf(out, cap, "flip %u heads|tails right=<seats>|none", s->round);
        break;
    case PH_END:
        snprintf(out, cap, "end p%u most", leader_of(s));
        break;
    default:
        snprintf(out, cap, "no line");
        break;
    }
}

static enum rpl_status
want(const struct coin_state *s, struct rpl_error *err, enum rpl_status code,
     const struct rpl__line *ln)
{
    char w[64];

    expected(s, w, sizeof(w));
    return rpl__err_expected(err, code, ln, w);
}

static void
derive(const uint8_t seed[32], unsigned rounds, uint8_t *coin)
{
    struct rpl__stream rng;

    rpl__stream_init(&rng, seed, "coin");
    for (unsigned r = 1; r <= rounds; r++)
        coin[r] = (uint8_t)(1u + rpl__stream_uniform(&rng, 2));
    rpl__stream_wipe(&rng);
}

/* -------------------------------------------------------------- rules */

static enum rpl_status
coin_rules(void *st, const struct rpl__line *ln, const struct rpl__env *env,
           size_t *seats, struct rpl_error *err)
{
    struct coin_state *s = st;
    struct rpl__tok v;
    unsigned long players = 0, rounds = 0;

    (void)env;
    if (ln->ntok != 3 || !rpl__tok_kv(&ln->tok[1], "players", &v) ||
        !rpl__tok_uint(&v, COIN_MAX_SEATS, &players) || players == 0 ||
        !rpl__tok_kv(&ln->tok[2], "rounds", &v) ||
        !rpl__tok_uint(&v, COIN_MAX_ROUNDS, &rounds) || rounds == 0)
        return rpl__err_expected(err, RPL_E_SYNTAX, ln,
                                 "rules players=1..10 rounds=1..9");
    memset(s, 0, sizeof(*s));
    s->n = (uint8_t)players;
    s->rounds = (uint8_t)rounds;
    s->phase = PH_START;
    *seats = players;
    return RPL_OK;
}

static enum rpl_status
coin_setup(void *st, const struct rpl__env *env, struct rpl_error *err)
{
    struct coin_state *s = st;

    if (s->phase == PH_RULES || !env->seed)
        return rpl__err(err, RPL_E_STATE, 0, "setup needs the rules and seed");
    derive(env->seed, s->rounds, s->coin);
    s->knows = 1;
    return RPL_OK;
}

/* -------------------------------------------------------------- apply */

static enum rpl_status
apply_flip(struct coin_state *s, const struct rpl__line *ln,
           struct rpl_error *err)
{
    unsigned long r = 0;
    unsigned v = 0;
    struct rpl__tok list;
    uint8_t seats[COIN_MAX_SEATS];
    size_t count = 0;
    uint16_t mask = 0, known;

    if (ln->ntok != 4 || !rpl__tok_uint(&ln->tok[1], COIN_MAX_ROUNDS, &r) ||
        !tok_side(&ln->tok[2], &v) || !rpl__tok_kv(&ln->tok[3], "right", &list))
        return want(s, err, RPL_E_SYNTAX, ln);
    if (!rpl__tok_is(&list, "none")) {
        if (!rpl__tok_seats(&list, s->n, seats, COIN_MAX_SEATS, &count))
            return want(s, err, RPL_E_SYNTAX, ln);
        for (size_t i = 0; i < count; i++)
            mask |= (uint16_t)(1u << seats[i]);
    }
    if (r != s->round)
        return want(s, err, RPL_E_RULES, ln);
    if (s->knows && s->coin[r] != v)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the coin of round %lu is %s, got %s", r,
                        side_name[s->coin[r]], side_name[v]);
    if (right_of(s, (unsigned)r, v, &known) && known != mask) {
        char w[4 * COIN_MAX_SEATS + 8];

        fmt_mask(w, sizeof(w), s, known);
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "round %lu: the seats that guessed right are %s", r, w);
    }
    s->shown[r] = (uint8_t)v;
    s->right[r] = mask;
    s->flip_line[r] = (uint32_t)ln->no;
    for (unsigned k = 1; k <= s->n; k++)
        if (mask & (1u << k))
            s->score[k]++;
    s->nrounds_done = (uint8_t)r;
    if (r < s->rounds) {
        s->round++;
        s->phase = PH_COIN;
    } else {
        s->phase = PH_END;
    }
    return RPL_OK;
}

static enum rpl_status
coin_apply(void *st, const struct rpl__line *ln, const struct rpl__env *env,
           struct rpl__applied *out, struct rpl_error *err)
{
    struct coin_state *s = st;
    const struct rpl__tok *kw = &ln->tok[0];
    struct rpl__applied done = {0, false, false, 0, NULL};
    struct coin_state before;
    unsigned long r = 0;
    size_t k = 0;
    enum rpl_status rc = RPL_OK;

    (void)env;
    if (s->phase == PH_RULES)
        return rpl__err(err, RPL_E_STATE, ln->no,
                        "a game line before the rules line");
    if (s->phase == PH_OVER)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the game is over: no line may follow its end");
    before = *s;
    if (rpl__tok_is(kw, "end") && ln->ntok == 2 &&
        rpl__tok_is(&ln->tok[1], "aborted")) {
        if (s->phase == PH_START)
            return want(s, err, RPL_E_RULES, ln);
        s->is_aborted = 1;
        s->end_line = (uint32_t)ln->no;
        s->phase = PH_OVER;
    } else if (rpl__tok_is(kw, "start")) {
        if (ln->ntok != 1 || s->phase != PH_START)
            return want(s, err, RPL_E_RULES, ln);
        s->round = 1;
        s->phase = PH_COIN;
    } else if (rpl__tok_is(kw, "coin")) {
        if (s->phase != PH_COIN)
            return want(s, err, RPL_E_RULES, ln);
        if (ln->ntok != 3 || !rpl__tok_uint(&ln->tok[1], COIN_MAX_ROUNDS, &r) ||
            !rpl__tok_hex(&ln->tok[2], s->coin_commit[s->round], 32)) {
            *s = before;
            return want(s, err, RPL_E_SYNTAX, ln);
        }
        if (r != s->round) {
            *s = before;
            return want(s, err, RPL_E_RULES, ln);
        }
        s->coin_line[r] = (uint32_t)ln->no;
        s->nguess = 0;
        s->phase = PH_GUESS;
    } else if (rpl__tok_is(kw, "guess")) {
        if (s->phase != PH_GUESS)
            return want(s, err, RPL_E_RULES, ln);
        if (ln->ntok != 3 || !rpl__tok_seat(&ln->tok[1], s->n, &k) ||
            !rpl__tok_hex(&ln->tok[2], s->guess_commit[s->round][k], 32)) {
            *s = before;
            return want(s, err, RPL_E_SYNTAX, ln);
        }
        if (k != s->nguess + 1u) {
            *s = before;
            return want(s, err, RPL_E_RULES, ln);
        }
        s->guess_line[s->round][k] = (uint32_t)ln->no;
        s->nguesses++;
        if (++s->nguess == s->n)
            s->phase = PH_FLIP;
        done.author = k;
    } else if (rpl__tok_is(kw, "flip")) {
        if (s->phase != PH_FLIP)
            return want(s, err, RPL_E_RULES, ln);
        rc = apply_flip(s, ln, err);
    } else if (rpl__tok_is(kw, "end")) {
        if (ln->ntok != 3 || !rpl__tok_seat(&ln->tok[1], s->n, &k) ||
            !rpl__tok_is(&ln->tok[2], "most"))
            return rpl__err_expected(err, RPL_E_SYNTAX, ln,
                                     "end pK most|end aborted");
        if (s->phase != PH_END || k != leader_of(s))
            return want(s, err, RPL_E_RULES, ln);
        s->winner = (uint8_t)k;
        s->end_line = (uint32_t)ln->no;
        s->phase = PH_OVER;
    } else {
        char show[64];

        rpl__tok_show(show, sizeof(show), kw);
        return rpl__err(err, RPL_E_SYNTAX, ln->no, "unknown keyword \"%s\"",
                        show);
    }
    if (rc != RPL_OK) {
        *s = before;
        return rc;
    }
    if (out)
        *out = done;
    return RPL_OK;
}

static enum rpl_status
coin_learn(void *st, const char *label, const char *value,
           struct rpl_error *err)
{
    struct coin_state *s = st;
    struct rpl__line ln;
    unsigned long r = 0;
    size_t k = 0;
    const unsigned v = side_of(value);

    if (s->phase == PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "learn before the rules line");
    if (v && rpl__line_split(&ln, label, strlen(label), 0, NULL) == RPL_OK) {
        if (rpl__tok_is(&ln.tok[0], "guess") && ln.ntok == 3 &&
            rpl__tok_uint(&ln.tok[1], s->rounds, &r) && r != 0 &&
            rpl__tok_seat(&ln.tok[2], s->n, &k)) {
            s->guess[r][k] = (uint8_t)v;
            return RPL_OK;
        }
        /* The dealer's coins come from the seed: nothing to learn. */
        if (rpl__tok_is(&ln.tok[0], "coin") && ln.ntok == 2 &&
            rpl__tok_uint(&ln.tok[1], s->rounds, &r) && r != 0)
            return RPL_OK;
    }
    return rpl__err(err, RPL_E_SYNTAX, 0,
                    "expected a label \"guess R pK\" with heads|tails, got "
                    "\"%.60s\"",
                    label);
}

/* ---------------------------------------------------------- recording */

static bool
coin_pending(const void *st, const struct rpl__env *env, struct rpl__emit *e)
{
    const struct coin_state *s = st;
    uint16_t mask = 0;
    char list[4 * COIN_MAX_SEATS + 8];

    (void)env;
    if (!s->knows)
        return false;
    memset(e, 0, sizeof(*e));
    switch (s->phase) {
    case PH_START:
        snprintf(e->line, sizeof(e->line), "start");
        return true;
    case PH_COIN:
        snprintf(e->line, sizeof(e->line), "coin %u", s->round);
        snprintf(e->label, sizeof(e->label), "coin %u", s->round);
        snprintf(e->value, sizeof(e->value), "%s",
                 side_name[s->coin[s->round]]);
        return true;
    case PH_FLIP:
        if (!right_of(s, s->round, s->coin[s->round], &mask))
            return false;
        fmt_mask(list, sizeof(list), s, mask);
        snprintf(e->line, sizeof(e->line), "flip %u %s right=%s", s->round,
                 side_name[s->coin[s->round]], list);
        return true;
    case PH_END:
        snprintf(e->line, sizeof(e->line), "end p%u most", leader_of(s));
        return true;
    default:
        return false;
    }
}

static size_t
coin_turn(const void *st)
{
    const struct coin_state *s = st;

    return s->phase == PH_GUESS ? s->nguess + 1u : 0;
}

static enum rpl_status
coin_action(const void *st, const struct rpl__env *env, const char *action,
            struct rpl__emit *e, struct rpl_error *err)
{
    const struct coin_state *s = st;
    struct rpl__line ln;
    size_t k = 0;
    unsigned v = 0;

    (void)env;
    if (s->phase == PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "action before the rules line");
    if (rpl__line_split(&ln, action, strlen(action), 0, NULL) != RPL_OK ||
        ln.ntok != 3 || !rpl__tok_is(&ln.tok[0], "guess") ||
        !rpl__tok_seat(&ln.tok[1], s->n, &k) || !tok_side(&ln.tok[2], &v))
        return rpl__err(err, RPL_E_SYNTAX, 0,
                        "expected \"guess pK heads|tails\", got \"%.60s\"",
                        action);
    memset(e, 0, sizeof(*e));
    snprintf(e->line, sizeof(e->line), "guess p%zu", k);
    snprintf(e->label, sizeof(e->label), "guess %u p%zu", s->round, k);
    snprintf(e->value, sizeof(e->value), "%s", side_name[v]);
    return RPL_OK;
}

static enum rpl_status
coin_bot(const void *st, const struct rpl__env *env, enum rpl_bot kind,
         struct rpl__stream *rng, struct rpl__emit *e, struct rpl_error *err)
{
    const size_t k = coin_turn(st);
    char act[32];

    (void)kind; /* a coin has no plausible play: both bots guess */
    if (k == 0)
        return rpl__err(err, RPL_E_STATE, 0, "no seat is to act");
    snprintf(act, sizeof(act), "guess p%zu %s", k,
             side_name[1u + rpl__stream_uniform(rng, 2)]);
    return coin_action(st, env, act, e, err);
}

static bool
coin_is_over(const void *st)
{
    return ((const struct coin_state *)st)->phase == PH_OVER;
}

static void
coin_outcome(const void *st, const char **winner, const char **reason)
{
    static const char *const seat[] = {"",   "p1", "p2", "p3", "p4", "p5",
                                       "p6", "p7", "p8", "p9", "p10"};
    const struct coin_state *s = st;

    *winner = "";
    *reason = "";
    if (s->phase != PH_OVER)
        return;
    if (s->is_aborted) {
        *winner = "none";
        *reason = "aborted";
    } else if (s->winner <= COIN_MAX_SEATS) {
        *winner = seat[s->winner];
        *reason = "most";
    }
}

/* -------------------------------------------------------- reveal, open */

static enum rpl_status
coin_reveal(void *st, const struct rpl__env *env, size_t reveal_line,
            struct rpl_error *err)
{
    struct coin_state *s = st;
    uint8_t coin[COIN_MAX_ROUNDS + 1] = {0};

    if (!env->seed)
        return rpl__err(err, RPL_E_STATE, reveal_line,
                        "the reveal needs the seed");
    if (s->phase == PH_RULES || s->is_revealed)
        return rpl__err(err, RPL_E_STATE, reveal_line,
                        s->is_revealed ? "second reveal"
                                       : "reveal before the rules line");
    derive(env->seed, s->rounds, coin);
    for (unsigned r = 1; r <= s->rounds; r++) {
        char label[16];
        uint8_t c[32];

        if (!s->coin_line[r])
            break;
        snprintf(label, sizeof(label), "coin %u", r);
        rpl__commit(c, NULL, env->seed, env->id, label, side_name[coin[r]],
                    env->version);
        if (memcmp(c, s->coin_commit[r], 32) != 0)
            return rpl__err(err, RPL_E_FAIRNESS, s->coin_line[r],
                            "coin %u does not match its commitment", r);
        if (env->commitments)
            (*env->commitments)++;
        if (s->flip_line[r] && s->shown[r] != coin[r])
            return rpl__err(err, RPL_E_RULES, s->flip_line[r],
                            "the coin of round %u is %s, got %s", r,
                            side_name[coin[r]], side_name[s->shown[r]]);
    }
    memcpy(s->coin, coin, sizeof(coin));
    s->knows = 1;
    s->is_revealed = 1;
    return RPL_OK;
}

static enum rpl_status
coin_open(void *st, const struct rpl__line *ln, const struct rpl__env *env,
          struct rpl_error *err)
{
    struct coin_state *s = st;
    const unsigned i = s->nopened;
    const unsigned r = i / s->n + 1u;
    const unsigned k = i % s->n + 1u;
    unsigned long rr = 0;
    size_t kk = 0;
    unsigned v = 0;
    char w[48];
    char label[24];
    uint8_t c[32];
    uint16_t mask = 0;

    if (!s->is_revealed || !env->seed)
        return rpl__err(err, RPL_E_STATE, ln->no, "open before the reveal");
    if (i >= s->nguesses)
        return rpl__err(err, RPL_E_RULES, ln->no, "every guess is open");
    snprintf(w, sizeof(w), "open guess %u p%u heads|tails", r, k);
    if (ln->ntok != 5 || !rpl__tok_is(&ln->tok[1], "guess") ||
        !rpl__tok_uint(&ln->tok[2], COIN_MAX_ROUNDS, &rr) ||
        !rpl__tok_seat(&ln->tok[3], s->n, &kk) || !tok_side(&ln->tok[4], &v))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, w);
    if (rr != r || kk != k)
        return rpl__err_expected(err, RPL_E_RULES, ln, w);
    snprintf(label, sizeof(label), "guess %u p%u", r, k);
    rpl__commit(c, NULL, env->seed, env->id, label, side_name[v], env->version);
    if (memcmp(c, s->guess_commit[r][k], 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, ln->no,
                        "open guess %u p%u %s does not match the commitment "
                        "of line %u",
                        r, k, side_name[v], s->guess_line[r][k]);
    if (env->commitments)
        (*env->commitments)++;
    s->guess[r][k] = (uint8_t)v;
    if (k == s->n && s->flip_line[r] && right_of(s, r, s->coin[r], &mask) &&
        mask != s->right[r]) {
        char list[4 * COIN_MAX_SEATS + 8];

        fmt_mask(list, sizeof(list), s, mask);
        return rpl__err(err, RPL_E_RULES, s->flip_line[r],
                        "round %u: the seats that guessed right are %s", r,
                        list);
    }
    s->nopened++;
    return RPL_OK;
}

static size_t
coin_opens_left(const void *st)
{
    const struct coin_state *s = st;

    return (size_t)s->nguesses - s->nopened;
}

static bool
coin_open_line(const void *st, size_t i, struct rpl__emit *e)
{
    const struct coin_state *s = st;
    const unsigned r = (unsigned)(i / s->n) + 1u;
    const unsigned k = (unsigned)(i % s->n) + 1u;

    if (i >= s->nguesses || !s->guess[r][k])
        return false;
    memset(e, 0, sizeof(*e));
    snprintf(e->line, sizeof(e->line), "open guess %u p%u %s", r, k,
             side_name[s->guess[r][k]]);
    return true;
}

/* ---------------------------------------------------------- serialize */

struct ser {
    uint8_t *buf;
    size_t cap;
    size_t len;
};

static void
put(struct ser *w, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++, w->len++)
        if (w->len < w->cap)
            w->buf[w->len] = p[i];
}

static void
put8(struct ser *w, unsigned v)
{
    const uint8_t b = (uint8_t)v;

    put(w, &b, 1);
}

static void
put32(struct ser *w, uint32_t v)
{
    uint8_t b[4];

    rpl__store_le32(b, v);
    put(w, b, 4);
}

static size_t
coin_serialize(const void *st, uint8_t *buf, size_t cap)
{
    const struct coin_state *s = st;
    struct ser w = {buf, buf ? cap : 0, 0};

    put8(&w, s->phase);
    put8(&w, s->n);
    put8(&w, s->rounds);
    put8(&w, s->round);
    put8(&w, s->nguess);
    put8(&w, s->knows);
    put8(&w, s->is_aborted);
    put8(&w, s->winner);
    put32(&w, s->nguesses);
    for (unsigned r = 1; r <= s->rounds; r++) {
        put8(&w, s->knows ? s->coin[r] : 0);
        put8(&w, s->shown[r]);
        put32(&w, s->right[r]);
        put(&w, s->coin_commit[r], 32);
        for (unsigned k = 1; k <= s->n; k++) {
            put8(&w, s->guess[r][k]);
            put(&w, s->guess_commit[r][k], 32);
        }
    }
    for (unsigned k = 1; k <= s->n; k++)
        put8(&w, s->score[k]);
    return w.len;
}

/* -------------------------------------------------------------- views */

static void
put_who(struct rpl__buf *b, const struct rpl__env *env, unsigned k)
{
    if (env && env->names && env->names[k] && env->names[k][0])
        rpl__buf_printf(b, "%s (p%u)", env->names[k], k);
    else
        rpl__buf_printf(b, "p%u", k);
}

/* What viewer may see of guess r of seat k: 0 when hidden. */
static unsigned
seen_guess(const struct coin_state *s, int viewer, unsigned r, unsigned k)
{
    if (viewer == RPL_VIEW_ALL || (viewer > 0 && (unsigned)viewer == k))
        return s->guess[r][k];
    return 0;
}

/*
 *   coin: 3 seats, round 2 of 3
 *   scores: Alice (p1) 1, Bob (p2) 0, Carol (p3) 1
 *   flips: 1 heads right=p1,p3
 *   next: p2 guesses
 * then what the viewer knows: its guesses (a seat), every coin and
 * guess (RPL_VIEW_ALL).
 */
static void
coin_view(const void *st, const struct rpl__env *env, int viewer,
          struct rpl__buf *out)
{
    const struct coin_state *s = st;
    char list[4 * COIN_MAX_SEATS + 8];

    rpl__buf_printf(out, "coin: %u seats, round %u of %u\n", s->n, s->round,
                    s->rounds);
    rpl__buf_puts(out, "scores:");
    for (unsigned k = 1; k <= s->n; k++) {
        rpl__buf_puts(out, k > 1 ? ", " : " ");
        put_who(out, env, k);
        rpl__buf_printf(out, " %u", s->score[k]);
    }
    rpl__buf_puts(out, "\n");
    if (s->nrounds_done) {
        rpl__buf_puts(out, "flips:");
        for (unsigned r = 1; r <= s->nrounds_done; r++) {
            fmt_mask(list, sizeof(list), s, s->right[r]);
            rpl__buf_printf(out, " %u %s right=%s%s", r, side_name[s->shown[r]],
                            list, r < s->nrounds_done ? ";" : "");
        }
        rpl__buf_puts(out, "\n");
    }
    if (s->phase == PH_OVER && s->is_aborted)
        rpl__buf_puts(out, "over: aborted\n");
    else if (s->phase == PH_OVER)
        rpl__buf_printf(out, "over: p%u wins with %u\n", s->winner,
                        s->score[s->winner]);
    else if (s->phase == PH_GUESS)
        rpl__buf_printf(out, "next: p%u guesses\n", s->nguess + 1u);
    else
        rpl__buf_printf(out, "next: the dealer (%s)\n", phase_name[s->phase]);
    if (viewer == RPL_VIEW_PUBLIC)
        return;
    if (!s->knows) {
        rpl__buf_puts(out, "(a seat's guesses are known from a complete "
                           "log only)\n");
        return;
    }
    if (viewer == RPL_VIEW_ALL) {
        rpl__buf_puts(out, "coins:");
        for (unsigned r = 1; r <= s->rounds; r++)
            rpl__buf_printf(out, " %u %s", r, side_name[s->coin[r]]);
        rpl__buf_puts(out, "\n");
    }
    for (unsigned r = 1; r <= s->round; r++)
        for (unsigned k = 1; k <= s->n; k++)
            if (s->guess_line[r][k] && seen_guess(s, viewer, r, k))
                rpl__buf_printf(out, "guess %u p%u %s\n", r, k,
                                side_name[s->guess[r][k]]);
}

static void
coin_view_json(const void *st, const struct rpl__env *env, int viewer,
               struct rpl__buf *out)
{
    const struct coin_state *s = st;
    struct rpl__jb j = {true};
    json_t *o = json_object();
    json_t *scores = json_array();
    json_t *flips = json_array();
    json_t *guesses = json_array();

    (void)env;
    rpl__jset(&j, o, "game", json_string("coin"));
    rpl__jset(&j, o, "phase", json_string(phase_name[s->phase]));
    rpl__jset(&j, o, "round", json_integer(s->round));
    rpl__jset(&j, o, "rounds", json_integer(s->rounds));
    rpl__jset(&j, o, "turn", json_integer((json_int_t)coin_turn(s)));
    for (unsigned k = 1; k <= s->n; k++)
        rpl__japp(&j, scores, json_integer(s->score[k]));
    rpl__jset(&j, o, "scores", scores);
    for (unsigned r = 1; r <= s->nrounds_done; r++) {
        json_t *f = json_object();
        json_t *right = json_array();

        for (unsigned k = 1; k <= s->n; k++)
            if (s->right[r] & (1u << k))
                rpl__japp(&j, right, json_integer(k));
        rpl__jset(&j, f, "round", json_integer(r));
        rpl__jset(&j, f, "coin", json_string(side_name[s->shown[r]]));
        rpl__jset(&j, f, "right", right);
        rpl__japp(&j, flips, f);
    }
    rpl__jset(&j, o, "flips", flips);
    if (viewer == RPL_VIEW_ALL && s->knows) {
        json_t *coins = json_array();

        for (unsigned r = 1; r <= s->rounds; r++)
            rpl__japp(&j, coins, json_string(side_name[s->coin[r]]));
        rpl__jset(&j, o, "coins", coins);
    }
    if (viewer != RPL_VIEW_PUBLIC && s->knows) {
        for (unsigned r = 1; r <= s->round; r++)
            for (unsigned k = 1; k <= s->n; k++) {
                json_t *g;

                if (!s->guess_line[r][k] || !seen_guess(s, viewer, r, k))
                    continue;
                g = json_object();
                rpl__jset(&j, g, "round", json_integer(r));
                rpl__jset(&j, g, "seat", json_integer(k));
                rpl__jset(&j, g, "guess",
                          json_string(side_name[s->guess[r][k]]));
                rpl__japp(&j, guesses, g);
            }
        rpl__jset(&j, o, "guesses", guesses);
    } else {
        json_decref(guesses);
    }
    if (s->phase == PH_OVER) {
        const char *winner, *reason;

        coin_outcome(s, &winner, &reason);
        rpl__jset(&j, o, "winner", json_string(winner));
        rpl__jset(&j, o, "reason", json_string(reason));
    }
    rpl__jdump(&j, o, out);
}

static void
coin_describe(const void *st, const struct rpl__env *env,
              const struct rpl__line *ln, int viewer, struct rpl__buf *out)
{
    const struct coin_state *s = st;
    const struct rpl__tok *kw = &ln->tok[0];
    size_t k = 0;
    unsigned long r = 0;

    if (rpl__tok_is(kw, "start")) {
        rpl__buf_printf(out, "the game begins: %u rounds", s->rounds);
    } else if (rpl__tok_is(kw, "coin") &&
               rpl__tok_uint(&ln->tok[1], COIN_MAX_ROUNDS, &r)) {
        rpl__buf_printf(out, "the dealer tosses the coin of round %lu", r);
    } else if (rpl__tok_is(kw, "guess") &&
               rpl__tok_seat(&ln->tok[1], s->n, &k)) {
        /* st is the state after the line: its round is the guess's. */
        const unsigned v = seen_guess(s, viewer, s->round, (unsigned)k);

        put_who(out, env, (unsigned)k);
        if (v)
            rpl__buf_printf(out, " guesses %s", side_name[v]);
        else
            rpl__buf_puts(out, " guesses in secret");
    } else if (rpl__tok_is(kw, "flip") &&
               rpl__tok_uint(&ln->tok[1], COIN_MAX_ROUNDS, &r) &&
               r <= COIN_MAX_ROUNDS) {
        char list[4 * COIN_MAX_SEATS + 8];

        fmt_mask(list, sizeof(list), s, s->right[r]);
        rpl__buf_printf(out, "the coin of round %lu shows %s; right: %s", r,
                        side_name[s->shown[r]], list);
    } else if (rpl__tok_is(kw, "end")) {
        if (s->is_aborted) {
            rpl__buf_puts(out, "the game is abandoned");
        } else {
            put_who(out, env, s->winner);
            rpl__buf_printf(out, " wins with %u right guess%s",
                            s->score[s->winner],
                            s->score[s->winner] == 1 ? "" : "es");
        }
    }
}

static void
coin_events_json(const void *st, const struct rpl__env *env,
                 const struct rpl__line *ln, struct rpl__buf *out)
{
    const struct coin_state *s = st;
    struct rpl__jb j = {true};
    json_t *events = json_array();
    json_t *e = json_object();
    size_t k = 0;
    unsigned long r = 0;

    (void)env;
    rpl__jset(&j, e, "event", json_stringn(ln->tok[0].p, ln->tok[0].n));
    if (rpl__tok_is(&ln->tok[0], "guess") &&
        rpl__tok_seat(&ln->tok[1], s->n, &k))
        rpl__jset(&j, e, "seat", json_integer((json_int_t)k));
    if ((rpl__tok_is(&ln->tok[0], "coin") ||
         rpl__tok_is(&ln->tok[0], "flip")) &&
        rpl__tok_uint(&ln->tok[1], COIN_MAX_ROUNDS, &r))
        rpl__jset(&j, e, "round", json_integer((json_int_t)r));
    if (rpl__tok_is(&ln->tok[0], "flip") && r)
        rpl__jset(&j, e, "coin", json_string(side_name[s->shown[r]]));
    if (rpl__tok_is(&ln->tok[0], "end") && s->phase == PH_OVER) {
        const char *winner, *reason;

        coin_outcome(s, &winner, &reason);
        rpl__jset(&j, e, "winner", json_string(winner));
        rpl__jset(&j, e, "reason", json_string(reason));
    }
    rpl__japp(&j, events, e);
    rpl__jdump(&j, events, out);
}

static void
coin_reveal_text(const void *st, const struct rpl__env *env,
                 struct rpl__buf *out)
{
    const struct coin_state *s = st;

    for (unsigned r = 1; r <= s->nrounds_done; r++) {
        rpl__buf_printf(out, "round %u: coin %s;", r, side_name[s->coin[r]]);
        for (unsigned k = 1; k <= s->n; k++) {
            rpl__buf_puts(out, " ");
            put_who(out, env, k);
            rpl__buf_printf(out, " %s", side_name[s->guess[r][k]]);
        }
        rpl__buf_puts(out, "\n");
    }
}

static void
coin_reveal_json(const void *st, const struct rpl__env *env,
                 struct rpl__buf *out)
{
    const struct coin_state *s = st;
    struct rpl__jb j = {true};
    json_t *o = json_object();
    json_t *rounds = json_array();

    (void)env;
    for (unsigned r = 1; r <= s->nrounds_done; r++) {
        json_t *x = json_object();
        json_t *g = json_array();

        for (unsigned k = 1; k <= s->n; k++)
            rpl__japp(&j, g, json_string(side_name[s->guess[r][k]]));
        rpl__jset(&j, x, "coin", json_string(side_name[s->coin[r]]));
        rpl__jset(&j, x, "guesses", g);
        rpl__japp(&j, rounds, x);
    }
    rpl__jset(&j, o, "rounds", rounds);
    rpl__jdump(&j, o, out);
}

/* -------------------------------------------------------------- index */

/* The common rows only: the first to guess and the rounds played; the
 * game has no roles or sides.  (A table of its own would have to be in
 * schema/archive.sql, which only names production games.) */
static enum rpl_status
coin_index(void *ix, const void *st, const struct rpl__env *env,
           const struct rpl__line *ln, struct rpl__rows *rows,
           struct rpl_error *err)
{
    const struct coin_state *s = st;

    (void)ix;
    (void)env;
    (void)err;
    if (ln)
        return RPL_OK;
    rows->leader = s->round ? 1 : 0;
    rows->rounds = s->nrounds_done;
    return RPL_OK;
}

/* --------------------------------------------------------------- info */

static const struct rpl_game_info coin_info = {
    .name = "coin",
    .title = "Coin (a test-only guessing game)",
    .min_seats = 1,
    .max_seats = 10,
};

/* The default is three rounds; no roles, no options. */
static enum rpl_status
coin_rules_line(size_t players, const char *roles, const char *options,
                struct rpl__buf *out, struct rpl_error *err)
{
    if (roles || (options && *options))
        return rpl__err(err, RPL_E_ARG, 0, "coin has no roles or options");
    rpl__buf_printf(out, "players=%zu rounds=3", players);
    return RPL_OK;
}

static const struct rpl__game_play coin_play = {
    .rules = coin_rules,
    .rules_line = coin_rules_line,
    .setup = coin_setup,
    .apply = coin_apply,
    .learn = coin_learn,
    .pending = coin_pending,
    .turn = coin_turn,
    .is_over = coin_is_over,
    .outcome = coin_outcome,
    .reveal = coin_reveal,
    .open = coin_open,
    .opens_left = coin_opens_left,
    .open_line = coin_open_line,
    .serialize = coin_serialize,
    .abort_line = "end aborted",
};

static const struct rpl__game_views coin_views = {
    .view = coin_view,
    .view_json = coin_view_json,
    .describe = coin_describe,
    .events_json = coin_events_json,
    .reveal_text = coin_reveal_text,
    .reveal_json = coin_reveal_json,
};

static const struct rpl__game_live coin_live = {
    .action = coin_action,
    .bot = coin_bot,
};

static const struct rpl__game_archive coin_archive = {
    .index_size = sizeof(struct coin_ix),
    .index = coin_index,
};

const struct rpl__game rpl__coin = {
    .name = "coin",
    .state_size = sizeof(struct coin_state),
    .info = &coin_info,
    .play = &coin_play,
    .views = &coin_views,
    .live = &coin_live,
    .archive = &coin_archive,
};
