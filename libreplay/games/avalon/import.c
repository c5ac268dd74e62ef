/*
 * games/avalon/import.c - the Avalon importer of records of other
 * systems (rpl_import()).  The first format is "avalongame": the JSON
 * game logs of avalongame.online, whose public dataset holds one
 * document per finished game, named by its id (camelog-import(1) draws
 * it).
 *
 * Each record is played on the Avalon engine exactly as the recorder
 * will play it, with the deal taken from the record instead of the
 * seed: the engine checks every proposal, vote, quest card and the
 * assassination against the official rules, and every result it
 * derives (team approved or rejected, quest result, end) is compared
 * with what the site wrote.  A record that breaks a rule or contradicts
 * itself is refused with the rule it breaks and the JSON path of the
 * field at fault.  What passes becomes a plan (the configuration and
 * the actions), which importer.c records, seals and verifies.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <sodium.h>

#include "avalon.h"
#include "json.h"

/* The source named on the `import` line. */
static const char source_name[] = "avalongame.online";

/* Avalon seats (rules H-1) and quests. */
#define MIN_SEATS  5
#define MAX_SEATS  10
#define MAX_QUESTS 5

/* Seat names: camelog(5) allows 1 to 64 bytes of UTF-8 without control
 * characters, unique in the game. */
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

static const struct rpl_import_category categories[C_COUNT] = {
    [C_NONE] = {"", ""},
    [C_READ] = {"read", "cannot be read"},
    [C_SIZE] = {"size", "larger than 1 MiB"},
    [C_SYNTAX] = {"syntax", "not JSON"},
    [C_SHAPE] = {"shape", "not a game record (wrong type or missing key)"},
    [C_ID] = {"id", "file name unusable as the original id"},
    [C_NAME] = {"name", "player name camelog cannot hold"},
    [C_PLAYERS] = {"players", "not 5 to 10 players (H-1)"},
    [C_ROLE] = {"role", "role outside the official game (H-6)"},
    [C_HOUSE_ASSASSIN] = {"house-assassin",
                          "assassin flag on a special role (house rule)"},
    [C_CONFIG] = {"config", "set of roles against the official rules"},
    [C_OPTION] = {"option", "game option camelog cannot map"},
    [C_RECORD] = {"record", "record contradicts itself"},
    [C_ORDER] = {"leader", "proposer out of turn"},
    [C_VOTE] = {"vote", "team result against the official majority"},
    [C_ILLEGAL] = {"illegal", "action the official rules forbid"},
    [C_RESULT] = {"quest", "quest result against the official rules"},
    [C_INCOMPLETE] = {"incomplete", "record stops before the end of the game"},
    [C_AFTER_END] = {"after-end", "play recorded after the end of the game"},
    [C_END] = {"end", "end against the official rules"},
    [C_INVALID] = {"invalid", "imported log does not verify"},
    [C_EXISTS] = {"exists", "output exists (--force overwrites it)"},
    [C_WRITE] = {"write", "output cannot be written"},
    [C_INTERNAL] = {"internal", "library failure"},
};

/* What rpl_import() returns for each: the record's faults are invalid
 * input, the environment's are not. */
static const enum rpl_status category_status[C_COUNT] = {
    [C_NONE] = RPL_OK,
    [C_READ] = RPL_E_IO,
    [C_SIZE] = RPL_E_LIMIT,
    [C_SYNTAX] = RPL_E_SYNTAX,
    [C_SHAPE] = RPL_E_SYNTAX,
    [C_ID] = RPL_E_SYNTAX,
    [C_NAME] = RPL_E_UNSUPPORTED,
    [C_PLAYERS] = RPL_E_RULES,
    [C_ROLE] = RPL_E_RULES,
    [C_HOUSE_ASSASSIN] = RPL_E_RULES,
    [C_CONFIG] = RPL_E_RULES,
    [C_OPTION] = RPL_E_UNSUPPORTED,
    [C_RECORD] = RPL_E_RULES,
    [C_ORDER] = RPL_E_RULES,
    [C_VOTE] = RPL_E_RULES,
    [C_ILLEGAL] = RPL_E_RULES,
    [C_RESULT] = RPL_E_RULES,
    [C_INCOMPLETE] = RPL_E_INCOMPLETE,
    [C_AFTER_END] = RPL_E_RULES,
    [C_END] = RPL_E_RULES,
    [C_INVALID] = RPL_E_RULES,
    [C_EXISTS] = RPL_E_EXISTS,
    [C_WRITE] = RPL_E_IO,
    [C_INTERNAL] = RPL_E_NOMEM,
};

/* The role names of the site, and ours.  EVIL MINION is the Assassin
 * when its assassin flag is set; later records name the Assassin
 * ASSASSIN, always with the flag.  The flag on MORGANA, MORDRED or
 * OBERON is a house rule: the variant assassin-ROLE. */
static const struct {
    const char *site;
    const char *token;
} role_map[] = {
    {"MERLIN", "merlin"},          {"PERCIVAL", "percival"},
    {"LOYAL FOLLOWER", "servant"}, {"MORGANA", "morgana"},
    {"MORDRED", "mordred"},        {"OBERON", "oberon"},
    {"EVIL MINION", "minion"},     {"ASSASSIN", "assassin"},
};
#define NROLE_MAP (sizeof(role_map) / sizeof(role_map[0]))

/* The rules line's order of roles (camelog-avalon(7)). */
static const char *const role_order[] = {
    "merlin",  "percival", "servant", "assassin",
    "morgana", "mordred",  "oberon",  "minion",
};
#define NROLES (sizeof(role_order) / sizeof(role_order[0]))

/* The end messages of the site and the end reasons they allow.  In the
 * records seen, "Three missions succeeded" ends the games without Merlin
 * and "Three successful missions" a missed assassination; the site does
 * not document them, so either is accepted for either Good reason: the
 * engine decides the reason, the message only has to agree with it. */
static const struct {
    const char *message;
    const char *winner;
    const char *reasons[2];
} end_map[] = {
    {"Five team proposals in a row rejected", "evil", {"rejections", NULL}},
    {"Three failed missions", "evil", {"failures", NULL}},
    {"Merlin assassinated", "evil", {"assassination", NULL}},
    {"Three successful missions", "good", {"missed", "quests"}},
    {"Three missions succeeded", "good", {"quests", "missed"}},
};
#define NEND_MAP (sizeof(end_map) / sizeof(end_map[0]))

/* One record being imported. */
struct imp {
    const struct rpl__import_in *in;
    struct rpl__import_plan *plan;
    struct rpl_import_report *rep;
    enum rpl_status status; /* of the refusal */
    json_t *root;
    size_t n;
    const char *names[MAX_SEATS + 1]; /* 1-based, lent by root */
    const char *roles[MAX_SEATS + 1]; /* role tokens, 1-based */
    size_t assassin;                  /* seat of the assassin flag */
    unsigned variants;                /* enum av_variant mask declared */
    size_t first;                     /* first leader */
    size_t played;                    /* quests played */
    size_t successes;                 /* of them, successes */
    bool has_shot;                    /* an assassinate line was played */

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

/* ------------------------------------------------------------ refusals */

static bool refuse(struct imp *im, enum category cat, const char *path,
                   const char *fmt, ...) RPL__PRINTF(4, 5);

/* Records why the record is refused; returns false for `return refuse()`.
 * The first refusal stands. */
static bool
refuse(struct imp *im, enum category cat, const char *path, const char *fmt,
       ...)
{
    va_list ap;

    if (im->rep->category != C_NONE) {
        return false;
    }
    im->rep->category = cat;
    im->status = category_status[cat];
    snprintf(im->rep->field, sizeof(im->rep->field), "%s", path ? path : "");
    va_start(ap, fmt);
    vsnprintf(im->rep->reason, sizeof(im->rep->reason), fmt, ap);
    va_end(ap);
    return false;
}

static const char *
error_text(enum rpl_status st, const struct rpl_error *err)
{
    if (err && err->code != RPL_OK && err->msg[0] != '\0') {
        return err->msg;
    }
    return rpl_strerror(st);
}

/* A failed library call: its status decides the category. */
static bool
refuse_lib(struct imp *im, enum category cat, const char *context,
           enum rpl_status st, const struct rpl_error *err)
{
    if (st == RPL_E_NOMEM || st == RPL_E_IO || st == RPL_E_CRYPTO) {
        cat = C_INTERNAL;
    }
    refuse(im, cat, NULL, "%s%s%s", context, context[0] != '\0' ? ": " : "",
           error_text(st, err));
    im->status = st;
    return false;
}

/* -------------------------------------------------------------- engine */

static void
no_warning(void *w, size_t line, const char *msg)
{
    (void)w;
    (void)line;
    (void)msg;
}

/* Applies one line the dealer or a seat writes, with its commitment as
 * the recorder makes it; a choice (a card) is learned first. */
static enum rpl_status
engine_write(struct imp *im, const struct rpl__emit *e, bool is_choice,
             struct rpl_error *err)
{
    const struct rpl__game *g = im->in->game;
    char line[sizeof(e->line) + 2 + 2 * RPL__HASH];
    uint8_t commit[RPL__HASH];
    struct rpl__applied applied;
    struct rpl__line ln;
    size_t len = strlen(e->line);
    enum rpl_status rc;

    memcpy(line, e->line, len + 1);
    if (e->label[0] != '\0') {
        rpl__commit(commit, NULL, im->seed, im->plan->id, e->label, e->value);
        line[len++] = ' ';
        rpl__hex(line + len, commit, sizeof(commit));
        len += 2 * RPL__HASH;
    }
    rc = rpl__line_split(&ln, line, len, im->nlines + 1, err);
    if (rc == RPL_OK && is_choice && e->label[0] != '\0') {
        rc = g->learn(im->st, e->label, e->value, err);
    }
    memset(&applied, 0, sizeof(applied));
    if (rc == RPL_OK) {
        rc = g->apply(im->st, &ln, &im->env, &applied, err);
    }
    if (rc != RPL_OK) {
        return rc;
    }
    im->nlines++;
    if (strncmp(line, "team ", 5) == 0) {
        snprintf(im->last_team, sizeof(im->last_team), "%s", line);
    } else if (strncmp(line, "quest ", 6) == 0) {
        snprintf(im->last_quest, sizeof(im->last_quest), "%s", line);
    }
    return RPL_OK;
}

/* The dealer's lines until a seat must act or the game is over. */
static enum rpl_status
engine_drain(struct imp *im, struct rpl_error *err)
{
    struct rpl__emit e;
    enum rpl_status rc = RPL_OK;

    while (rc == RPL_OK && im->in->game->pending(im->st, &im->env, &e)) {
        rc = engine_write(im, &e, false, err);
    }
    return rc;
}

/* Who must act next: a seat, or 0 when the game is over. */
static size_t
engine_turn(const struct imp *im)
{
    if (!im->started || im->in->game->is_over(im->st)) {
        return 0;
    }
    return im->in->game->turn(im->st);
}

/* One action in its private form ("vote p3 yes"), as rpl_rec_act()
 * records it; the plan keeps it. */
static enum rpl_status
engine_act(struct imp *im, const char *action, struct rpl_error *err)
{
    const struct rpl__game *g = im->in->game;
    struct rpl__emit e;
    enum rpl_status rc;

    if (!im->started) {
        return rpl__err(err, RPL_E_STATE, 0, "the game has not started");
    }
    if (g->is_over(im->st)) {
        return rpl__err(err, RPL_E_STATE, 0, "the game is over");
    }
    rc = g->action(im->st, &im->env, action, &e, err);
    if (rc == RPL_OK) {
        rc = engine_write(im, &e, true, err);
    }
    if (rc == RPL_OK) {
        rc = engine_drain(im, err);
    }
    if (rc == RPL_OK) {
        rpl__buf_puts(&im->plan->actions, action);
        rpl__buf_puts(&im->plan->actions, "\n");
    }
    return rc;
}

/* The rules line, the deal and the dealer's opening lines, as
 * rpl_rec_new() and rpl_rec_start() write them. */
static bool
engine_start(struct imp *im)
{
    const struct rpl__game *g = im->in->game;
    struct rpl__import_plan *plan = im->plan;
    const char *deal[MAX_SEATS];
    char rules[300];
    struct rpl__line ln;
    struct rpl_error err;
    enum rpl_status rc;
    size_t seats = 0, k;
    int n;

    rpl__err_clear(&err);
    im->st = rpl__calloc(im->in->ctx, 1, g->state_size);
    if (!im->st) {
        return refuse(im, C_INTERNAL, NULL, "out of memory");
    }
    im->env.ctx = im->in->ctx;
    im->env.id = plan->id;
    im->env.names = im->name_ptrs;
    im->env.warn = no_warning;
    im->env.imported = true;
    im->name_ptrs[0] = "";
    for (k = 1; k <= im->n; k++) {
        im->name_ptrs[k] = im->names[k];
        deal[k - 1] = im->roles[k];
    }
    /* The header: camelog, game, id, created, import, then rules. */
    im->nlines = 4 + (plan->created[0] != '\0' ? 1 : 0);
    n = snprintf(rules, sizeof(rules), "rules %s", plan->rules);
    if (n < 0 || (size_t)n >= sizeof(rules)) {
        rc = rpl__err(&err, RPL_E_LIMIT, 0, "rules line too long");
    } else {
        rc = rpl__line_split(&ln, rules, (size_t)n, im->nlines + 1, &err);
    }
    if (rc == RPL_OK) {
        rc = g->rules(im->st, &ln, &im->env, &seats, &err);
    }
    if (rc == RPL_OK && seats != im->n) {
        rc = rpl__err(&err, RPL_E_ARG, 0,
                      "the rules have %zu seats but %zu names were given",
                      seats, im->n);
    }
    if (rc == RPL_OK) {
        /* rules, the seats, dealer and commit */
        im->nlines += 1 + im->n + 2;
        im->env.seats = seats;
        rpl__seed(im->seed, plan->id, plan->secret, NULL, 0);
        im->env.seed = im->seed;
        rc = g->import_deal(im->st, &im->env, deal, im->first, &err);
    }
    if (rc == RPL_OK) {
        im->started = true;
        rc = engine_drain(im, &err);
    }
    if (rc == RPL_E_RULES) {
        return refuse(im, C_CONFIG, "outcome.roles", "outcome.roles: %s",
                      error_text(rc, &err));
    }
    if (rc != RPL_OK) {
        return refuse_lib(im, C_INVALID, "", rc, &err);
    }
    return true;
}

/* ---------------------------------------------------------- JSON paths */

static bool
is_ident(const char *s)
{
    size_t i;

    if (s[0] == '\0' || (s[0] >= '0' && s[0] <= '9')) {
        return false;
    }
    for (i = 0; s[i] != '\0'; i++) {
        const char c = s[i];

        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_')) {
            return false;
        }
    }
    return true;
}

/* base.key, or base["key"] for a key that is not an identifier. */
static void
path_key(char *out, size_t cap, const char *base, const char *key)
{
    if (!is_ident(key)) {
        snprintf(out, cap, "%s[\"%s\"]", base, key);
    } else if (base[0] == '\0') {
        snprintf(out, cap, "%s", key);
    } else {
        snprintf(out, cap, "%s.%s", base, key);
    }
}

static void
path_index(char *out, size_t cap, const char *base, size_t i)
{
    /* A path too long for the buffer is cut: it only names a place. */
    if (snprintf(out, cap, "%s[%zu]", base, i) < 0) {
        out[0] = '\0';
    }
}

static const char *
type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a real number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

/* What a value must be. */
enum want {
    W_OBJECT,
    W_ARRAY,
    W_STRING,
    W_INTEGER,
    W_BOOLEAN,
    W_STRING_OR_NULL
};

static const char *const want_name[] = {
    [W_OBJECT] = "an object",  [W_ARRAY] = "an array",
    [W_STRING] = "a string",   [W_INTEGER] = "an integer",
    [W_BOOLEAN] = "a boolean", [W_STRING_OR_NULL] = "a string or null",
};

static bool
is_wanted(const json_t *v, enum want w)
{
    switch (w) {
    case W_OBJECT:
        return json_is_object(v);
    case W_ARRAY:
        return json_is_array(v);
    case W_STRING:
        return json_is_string(v);
    case W_INTEGER:
        return json_is_integer(v);
    case W_BOOLEAN:
        return json_is_boolean(v);
    case W_STRING_OR_NULL:
        return json_is_string(v) || json_is_null(v);
    }
    return false;
}

/* Checks that v (at path) is what w says. */
static bool
check_type(struct imp *im, const json_t *v, const char *path, enum want w)
{
    if (is_wanted(v, w)) {
        return true;
    }
    if (path[0] == '\0') {
        return refuse(im, C_SHAPE, path, "the document is %s, expected %s",
                      type_name(v), want_name[w]);
    }
    return refuse(im, C_SHAPE, path, "%s: expected %s, got %s", path,
                  want_name[w], type_name(v));
}

/* obj[key] as w; its path goes to child (PATH_MAX_LEN bytes). */
static bool
get_key(struct imp *im, const json_t *obj, const char *path, const char *key,
        enum want w, json_t **out, char *child)
{
    json_t *v = json_object_get(obj, key);

    path_key(child, PATH_MAX_LEN, path, key);
    if (!v) {
        return refuse(im, C_SHAPE, child, "%s: missing (expected %s)", child,
                      want_name[w]);
    }
    if (!check_type(im, v, child, w)) {
        return false;
    }
    *out = v;
    return true;
}

/* arr[i] as w, with its path in child. */
static bool
get_index(struct imp *im, const json_t *arr, const char *path, size_t i,
          enum want w, json_t **out, char *child)
{
    json_t *v = json_array_get(arr, i);

    path_index(child, PATH_MAX_LEN, path, i);
    if (!v || !check_type(im, v, child, w)) {
        return false;
    }
    *out = v;
    return true;
}

/* ------------------------------------------------------------- players */

/* The seat of a display name, 0 for none. */
static size_t
seat_of(const struct imp *im, const char *name)
{
    size_t k;

    for (k = 1; k <= im->n; k++) {
        if (strcmp(im->names[k], name) == 0) {
            return k;
        }
    }
    return 0;
}

/* A string of the record naming a player, as a seat. */
static bool
get_player(struct imp *im, const json_t *v, const char *path, size_t *seat)
{
    if (!check_type(im, v, path, W_STRING)) {
        return false;
    }
    *seat = seat_of(im, json_string_value(v));
    if (*seat == 0) {
        return refuse(im, C_RECORD, path, "%s: \"%s\" is not a player", path,
                      json_string_value(v));
    }
    return true;
}

/* Whether the UTF-8 string s holds a control character (Unicode Cc:
 * U+0000-U+001F, U+007F-U+009F).  jansson has checked the UTF-8. */
static bool
has_control(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    for (; *p != '\0'; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            return true;
        }
        if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            return true;
        }
    }
    return false;
}

static bool
read_players(struct imp *im)
{
    char path[PATH_MAX_LEN], ppath[PATH_MAX_LEN], npath[PATH_MAX_LEN];
    json_t *players, *p, *name;
    size_t i, n;

    if (!get_key(im, im->root, "", "players", W_ARRAY, &players, path)) {
        return false;
    }
    n = json_array_size(players);
    if (n < MIN_SEATS || n > MAX_SEATS) {
        return refuse(im, C_PLAYERS, path,
                      "%s: %zu players; the rules are for 5 to 10 (H-1)", path,
                      n);
    }
    im->n = n;
    for (i = 0; i < n; i++) {
        const char *s;
        size_t dup;

        if (!get_index(im, players, path, i, W_OBJECT, &p, ppath) ||
            !get_key(im, p, ppath, "name", W_STRING, &name, npath)) {
            return false;
        }
        s = json_string_value(name);
        if (s[0] == '\0' || strlen(s) > MAX_NAME || has_control(s) ||
            strlen(s) != json_string_length(name)) {
            return refuse(im, C_NAME, npath,
                          "%s: a seat name is 1 to %d bytes without control "
                          "characters",
                          npath, MAX_NAME);
        }
        im->names[i + 1] = s;
        dup = seat_of(im, s);
        if (dup != i + 1) {
            return refuse(im, C_NAME, npath,
                          "%s: two players are named \"%s\" (seats %zu and "
                          "%zu)",
                          npath, s, dup, i + 1);
        }
    }
    return true;
}

/* ---------------------------------------------------------------- roles */

static const char *
role_token(const char *site)
{
    size_t i;

    for (i = 0; i < NROLE_MAP; i++) {
        if (strcmp(role_map[i].site, site) == 0) {
            return role_map[i].token;
        }
    }
    return NULL;
}

static bool
is_evil_token(const char *token)
{
    const int r = rpl__av_role_index(token, strlen(token));

    return r >= 0 && av_is_evil((unsigned)r);
}

/* The assassin-ROLE variant of an evil role other than the Assassin and
 * the minion. */
static unsigned
power_variant(const char *token)
{
    if (strcmp(token, "morgana") == 0) {
        return AV_V_ASSASSIN_MORGANA;
    }
    if (strcmp(token, "mordred") == 0) {
        return AV_V_ASSASSIN_MORDRED;
    }
    return AV_V_ASSASSIN_OBERON;
}

/* outcome.roles: every player once, with a role of the official game,
 * at most one assassin flag, and that on an EVIL MINION. */
static bool
read_roles(struct imp *im, const json_t *outcome)
{
    char path[PATH_MAX_LEN], epath[PATH_MAX_LEN], kpath[PATH_MAX_LEN];
    json_t *roles, *e, *v;
    size_t i, k, seat;
    bool has_merlin = false, has_percival = false;

    if (!get_key(im, outcome, "outcome", "roles", W_ARRAY, &roles, path)) {
        return false;
    }
    for (i = 0; i < json_array_size(roles); i++) {
        const char *site, *token;
        bool flag;

        if (!get_index(im, roles, path, i, W_OBJECT, &e, epath) ||
            !get_key(im, e, epath, "name", W_STRING, &v, kpath) ||
            !get_player(im, v, kpath, &seat)) {
            return false;
        }
        if (im->roles[seat]) {
            return refuse(im, C_RECORD, kpath, "%s: %s has two roles", kpath,
                          im->names[seat]);
        }
        if (!get_key(im, e, epath, "role", W_STRING, &v, kpath)) {
            return false;
        }
        site = json_string_value(v);
        token = role_token(site);
        if (!token) {
            return refuse(im, C_ROLE, kpath,
                          "%s: \"%s\" is not a character of the official "
                          "game (H-6)",
                          kpath, site);
        }
        if (!get_key(im, e, epath, "assassin", W_BOOLEAN, &v, kpath)) {
            return false;
        }
        flag = json_is_true(v);
        if (flag && im->assassin != 0) {
            return refuse(im, C_RECORD, kpath,
                          "%s: %s and %s both have the assassin flag, but "
                          "one seat holds the Assassin's power",
                          kpath, im->names[im->assassin], im->names[seat]);
        }
        if (!flag && strcmp(token, "assassin") == 0) {
            return refuse(im, C_RECORD, kpath,
                          "%s: %s is the ASSASSIN without the assassin flag",
                          kpath, im->names[seat]);
        }
        if (flag && !is_evil_token(token)) {
            return refuse(im, C_RECORD, kpath,
                          "%s: %s (%s) has the assassin flag, but only an "
                          "evil role can hold the Assassin's power",
                          kpath, site, im->names[seat]);
        }
        if (flag && strcmp(token, "minion") == 0) {
            token = "assassin";
        } else if (flag && strcmp(token, "assassin") != 0) {
            /* Morgana, Mordred or Oberon holds the power: a house rule. */
            im->variants |= 1u << power_variant(token);
        }
        if (flag) {
            im->assassin = seat;
        }
        has_merlin = has_merlin || strcmp(token, "merlin") == 0;
        has_percival = has_percival || strcmp(token, "percival") == 0;
        im->roles[seat] = token;
    }
    for (k = 1; k <= im->n; k++) {
        if (!im->roles[k]) {
            return refuse(im, C_RECORD, path, "%s: no role for %s", path,
                          im->names[k]);
        }
    }
    if (has_merlin && im->assassin == 0) {
        return refuse(im, C_CONFIG, path,
                      "%s: Merlin is in play but nobody has the assassin "
                      "flag (H-4: merlin needs an assassin)",
                      path);
    }
    if (has_percival && !has_merlin) {
        im->variants |= 1u << AV_V_PERCIVAL_ALONE;
    }
    return true;
}

/* Whether the shot the record holds names a seat the Assassin saw at
 * night: the site allows it, the official rules do not, so it
 * declares the variant assassin-names-evil.  The night is that of
 * camelog-avalon(7): every evil role but Oberon sees the others but
 * Oberon.  A shot that is not a player's name is refused later, where
 * the assassination is played. */
static void
read_shot(struct imp *im, const json_t *outcome)
{
    const json_t *v = json_object_get(outcome, "assassinated");
    size_t target;

    if (im->assassin == 0 || !v || !json_is_string(v)) {
        return;
    }
    target = seat_of(im, json_string_value(v));
    if (target == 0 || target == im->assassin || !im->roles[target]) {
        return;
    }
    if (is_evil_token(im->roles[target]) &&
        strcmp(im->roles[target], "oberon") != 0 &&
        strcmp(im->roles[im->assassin], "oberon") != 0) {
        im->variants |= 1u << AV_V_NAMES_EVIL;
    }
}

/* The rules line: the roles in canonical order, no Lady, no Targeting. */
static void
rules_line(const struct imp *im, char *out, size_t cap)
{
    size_t r, k, len;

    len = (size_t)snprintf(out, cap, "players=%zu roles=", im->n);
    for (r = 0; r < NROLES; r++) {
        for (k = 1; k <= im->n; k++) {
            if (strcmp(im->roles[k], role_order[r]) == 0 && len < cap) {
                len += (size_t)snprintf(out + len, cap - len, "%s%s",
                                        out[len - 1] == '=' ? "" : ",",
                                        role_order[r]);
            }
        }
    }
    if (len < cap) {
        len +=
            (size_t)snprintf(out + len, cap - len, " lady=off targeting=off");
    }
    if (im->variants != 0 && len < cap) {
        char list[RPL_VARIANTS_MAX];

        rpl__av_fmt_variants(list, sizeof(list), im->variants);
        snprintf(out + len, cap - len, " variants=%s", list);
    }
}

/* ---------------------------------------------------- options and time */

/* options: only what changes nothing in the rules. */
static bool
read_options(struct imp *im)
{
    char path[PATH_MAX_LEN], kpath[PATH_MAX_LEN];
    json_t *opts = json_object_get(im->root, "options"), *v;
    const char *key;

    if (!opts) {
        return true;
    }
    snprintf(path, sizeof(path), "options");
    if (!check_type(im, opts, path, W_OBJECT)) {
        return false;
    }
    json_object_foreach(opts, key, v)
    {
        path_key(kpath, sizeof(kpath), path, key);
        /* Whether the site showed its game log during play. */
        if (strcmp(key, "inGameLog") == 0) {
            if (!check_type(im, v, kpath, W_BOOLEAN)) {
                return false;
            }
            continue;
        }
        return refuse(im, C_OPTION, kpath,
                      "%s: an option camelog does not know; it may change "
                      "the rules",
                      kpath);
    }
    return true;
}

/* The keys of a record, in every format of the dataset: 2019 records
 * have no options, records from 2022 on carry __collections__ (the
 * store's subcollections, always empty in game records).  A key camelog
 * does not know is a format it does not know: refused, never guessed. */
static bool
read_keys(struct imp *im)
{
    static const char *const known[] = {
        "players",     "missions",     "outcome",         "options",
        "timeCreated", "timeFinished", "__collections__",
    };
    char path[PATH_MAX_LEN];
    const char *key;
    json_t *v;

    json_object_foreach(im->root, key, v)
    {
        size_t i;

        for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
            if (strcmp(key, known[i]) == 0) {
                break;
            }
        }
        path_key(path, sizeof(path), "", key);
        if (i == sizeof(known) / sizeof(known[0])) {
            return refuse(im, C_SHAPE, path,
                          "%s: a field of no avalongame format camelog "
                          "knows",
                          path);
        }
        if (strcmp(key, "__collections__") == 0) {
            if (!check_type(im, v, path, W_OBJECT)) {
                return false;
            }
            if (json_object_size(v) != 0) {
                return refuse(im, C_SHAPE, path,
                              "%s: subcollections camelog does not know "
                              "(expected {})",
                              path);
            }
        }
    }
    return true;
}

/* A timestamp of the record, plain {"_seconds": S, "_nanoseconds": N}
 * or, from 2022 on, wrapped {"__datatype__": "timestamp", "value":
 * {...}}; *inner is the plain object, its path in ipath. */
static bool
unwrap_time(struct imp *im, json_t *t, const char *path, json_t **inner,
            char *ipath)
{
    json_t *dt = json_object_get(t, "__datatype__"), *v;
    char dpath[PATH_MAX_LEN];

    snprintf(ipath, PATH_MAX_LEN, "%s", path);
    *inner = t;
    if (!dt) {
        return true;
    }
    path_key(dpath, sizeof(dpath), path, "__datatype__");
    if (!json_is_string(dt) ||
        strcmp(json_string_value(dt), "timestamp") != 0) {
        return refuse(im, C_SHAPE, dpath,
                      "%s: expected \"timestamp\", the only wrapped type "
                      "camelog knows",
                      dpath);
    }
    if (json_object_size(t) != 2) {
        return refuse(im, C_SHAPE, path,
                      "%s: a wrapped timestamp has only __datatype__ and "
                      "value",
                      path);
    }
    if (!get_key(im, t, path, "value", W_OBJECT, &v, ipath)) {
        return false;
    }
    *inner = v;
    return true;
}

/* timeCreated._seconds as YYYY-MM-DDTHH:MM:SSZ; "" when the record has
 * no timeCreated. */
static bool
read_created(struct imp *im, char *out, size_t cap)
{
    char path[PATH_MAX_LEN], spath[PATH_MAX_LEN], ipath[PATH_MAX_LEN];
    json_t *t = json_object_get(im->root, "timeCreated"), *s, *in;
    json_int_t secs;
    time_t tt;
    struct tm tm;

    out[0] = '\0';
    if (!t) {
        return true;
    }
    snprintf(path, sizeof(path), "timeCreated");
    if (!check_type(im, t, path, W_OBJECT) ||
        !unwrap_time(im, t, path, &in, ipath) ||
        !get_key(im, in, ipath, "_seconds", W_INTEGER, &s, spath)) {
        return false;
    }
    secs = json_integer_value(s);
    /* 0000-01-01 is not a time of these records; 9999-12-31T23:59:59Z
     * is the last the created line can hold. */
    if (secs < 0 || secs > 253402300799) {
        return refuse(im, C_SHAPE, spath,
                      "%s: %" JSON_INTEGER_FORMAT
                      " is not a time from 1970 to 9999",
                      spath, secs);
    }
    tt = (time_t)secs;
    if (!gmtime_r(&tt, &tm) ||
        strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        return refuse(im, C_SHAPE, spath, "%s: not a time", spath);
    }
    return true;
}

/* The first leader: the proposer of mission 1's first proposal. */
static bool
read_first(struct imp *im, const json_t *missions)
{
    char mpath[PATH_MAX_LEN], ppath[PATH_MAX_LEN], path[PATH_MAX_LEN];
    char xpath[PATH_MAX_LEN];
    json_t *m, *props, *p, *v;

    if (json_array_size(missions) == 0) {
        return refuse(im, C_INCOMPLETE, "missions",
                      "missions: no mission, so no first leader");
    }
    if (!get_index(im, missions, "missions", 0, W_OBJECT, &m, mpath) ||
        !get_key(im, m, mpath, "proposals", W_ARRAY, &props, ppath)) {
        return false;
    }
    if (json_array_size(props) == 0) {
        return refuse(im, C_INCOMPLETE, ppath,
                      "%s: no proposal, so no first leader", ppath);
    }
    return get_index(im, props, ppath, 0, W_OBJECT, &p, path) &&
           get_key(im, p, path, "proposer", W_STRING, &v, xpath) &&
           get_player(im, v, xpath, &im->first);
}

/* ------------------------------------------------------------- playing */

/* The engine's message with each seat pK followed by its name, so that
 * "p5 is good and cannot play fail" reads "p5 (TINA) is good ...". */
static void
with_names(const struct imp *im, const char *msg, char *out, size_t cap)
{
    size_t len = 0;
    const char *p = msg;

    out[0] = '\0';
    while (*p != '\0' && len + 1 < cap) {
        const bool at_word = p == msg || !((p[-1] >= 'a' && p[-1] <= 'z') ||
                                           (p[-1] >= 'A' && p[-1] <= 'Z') ||
                                           (p[-1] >= '0' && p[-1] <= '9'));
        size_t digits = 0, seat = 0;

        if (at_word && *p == 'p') {
            while (p[1 + digits] >= '0' && p[1 + digits] <= '9' && digits < 3) {
                seat = seat * 10 + (size_t)(p[1 + digits] - '0');
                digits++;
            }
        }
        if (digits > 0 && seat >= 1 && seat <= im->n &&
            !((p[1 + digits] >= 'a' && p[1 + digits] <= 'z') ||
              (p[1 + digits] >= '0' && p[1 + digits] <= '9'))) {
            const int w = snprintf(out + len, cap - len, "%.*s (%s)",
                                   (int)(digits + 1), p, im->names[seat]);

            if (w < 0 || (size_t)w >= cap - len) {
                break;
            }
            len += (size_t)w;
            p += digits + 1;
            continue;
        }
        out[len++] = *p++;
        out[len] = '\0';
    }
}

/* One action; a refusal of the engine is a rule the record breaks. */
static bool
act(struct imp *im, const char *context, const char *path, const char *action)
{
    struct rpl_error err;
    enum rpl_status st;
    char named[MSG_MAX_LEN];

    rpl__err_clear(&err);
    st = engine_act(im, action, &err);
    if (st == RPL_OK) {
        return true;
    }
    if (st != RPL_E_RULES && st != RPL_E_STATE && st != RPL_E_SYNTAX) {
        return refuse_lib(im, C_INTERNAL, context, st, &err);
    }
    with_names(im, error_text(st, &err), named, sizeof(named));
    return refuse(im, C_ILLEGAL, path, "%s: %s", context, named);
}

/* "p1,p3,p5" from a mask of seats. */
static void
seat_list(uint32_t mask, size_t n, char *out, size_t cap)
{
    size_t k, len = 0;

    out[0] = '\0';
    for (k = 1; k <= n && len < cap; k++) {
        if (mask & (1u << k)) {
            len += (size_t)snprintf(out + len, cap - len, "%sp%zu",
                                    len > 0 ? "," : "", k);
        }
    }
}

/* A list of player names as a mask of seats; a name twice is refused as
 * `twice` says. */
static bool
read_seats(struct imp *im, const json_t *arr, const char *path,
           enum category twice, const char *context, uint32_t *mask)
{
    char epath[PATH_MAX_LEN];
    size_t i, seat;

    *mask = 0;
    for (i = 0; i < json_array_size(arr); i++) {
        path_index(epath, sizeof(epath), path, i);
        if (!get_player(im, json_array_get(arr, i), epath, &seat)) {
            return false;
        }
        if (*mask & (1u << seat)) {
            return refuse(im, twice, epath, "%s: %s appears twice in %s",
                          context, im->names[seat], path);
        }
        *mask |= 1u << seat;
    }
    return true;
}

/* Proposal j of mission m (both 0-based): the proposer must be the
 * leader, then every seat votes, and the engine's result must be the
 * site's.  *approved says which it was, *team_out the team. */
static bool
play_proposal(struct imp *im, size_t m, size_t j, const json_t *prop,
              const char *path, bool *approved, uint32_t *team_out)
{
    char ctx[64], kpath[PATH_MAX_LEN], list[64], action[96], line[128];
    json_t *v, *team, *votes;
    uint32_t team_mask, yes_mask;
    size_t proposer, leader, k;
    const char *state;

    snprintf(ctx, sizeof(ctx), "mission %zu proposal %zu", m + 1, j + 1);
    if (!get_key(im, prop, path, "proposer", W_STRING, &v, kpath) ||
        !get_player(im, v, kpath, &proposer)) {
        return false;
    }
    leader = engine_turn(im);
    if (proposer != leader) {
        return refuse(im, C_ORDER, kpath,
                      "%s: proposer %s is not the next leader (expected %s)",
                      ctx, im->names[proposer],
                      leader >= 1 && leader <= im->n ? im->names[leader]
                                                     : "nobody");
    }
    if (!get_key(im, prop, path, "team", W_ARRAY, &team, kpath) ||
        !read_seats(im, team, kpath, C_ILLEGAL, ctx, &team_mask) ||
        !get_key(im, prop, path, "votes", W_ARRAY, &votes, kpath) ||
        !read_seats(im, votes, kpath, C_RECORD, ctx, &yes_mask) ||
        !get_key(im, prop, path, "state", W_STRING, &v, kpath)) {
        return false;
    }
    state = json_string_value(v);
    if (strcmp(state, "APPROVED") != 0 && strcmp(state, "REJECTED") != 0) {
        return refuse(im, C_SHAPE, kpath,
                      "%s: expected \"APPROVED\" or \"REJECTED\", got \"%s\"",
                      kpath, state);
    }
    if (team_mask == 0) {
        return refuse(im, C_ILLEGAL, path, "%s: the team is empty", ctx);
    }
    *team_out = team_mask;
    seat_list(team_mask, im->n, list, sizeof(list));
    snprintf(action, sizeof(action), "propose p%zu %s", proposer, list);
    if (!act(im, ctx, path, action)) {
        return false;
    }
    for (k = 1; k <= im->n; k++) {
        snprintf(action, sizeof(action), "vote p%zu %s", k,
                 yes_mask & (1u << k) ? "yes" : "no");
        if (!act(im, ctx, path, action)) {
            return false;
        }
    }
    snprintf(line, sizeof(line), "%s", im->last_team);
    *approved = strncmp(line, "team approved", 13) == 0;
    if (*approved != (strcmp(state, "APPROVED") == 0)) {
        return refuse(im, C_VOTE, path,
                      "%s: the site %s the team with %zu of %zu votes; the "
                      "official rules say \"%s\" (a majority of all players "
                      "approves)",
                      ctx, *approved ? "rejected" : "approved",
                      json_array_size(votes), im->n, line);
    }
    return true;
}

/* The quest cards of mission m (0-based), whose approved team is mask:
 * outcome.votes[played] holds one card per member, true for Success. */
static bool
play_cards(struct imp *im, size_t m, const json_t *mission, const char *mpath,
           uint32_t mask, const json_t *cards_all)
{
    char ctx[32], path[PATH_MAX_LEN], kpath[PATH_MAX_LEN], action[64];
    char line[128];
    json_t *cards, *v, *nf;
    const char *key, *state;
    size_t k, fails = 0, seat;

    snprintf(ctx, sizeof(ctx), "mission %zu", m + 1);
    if (im->played >= json_array_size(cards_all)) {
        return refuse(im, C_RECORD, "outcome.votes",
                      "%s: outcome.votes has no cards for it (%zu entries)",
                      ctx, json_array_size(cards_all));
    }
    if (!get_index(im, cards_all, "outcome.votes", im->played, W_OBJECT, &cards,
                   path)) {
        return false;
    }
    json_object_foreach(cards, key, v)
    {
        path_key(kpath, sizeof(kpath), path, key);
        if (!check_type(im, v, kpath, W_BOOLEAN)) {
            return false;
        }
        seat = seat_of(im, key);
        if (seat == 0) {
            return refuse(im, C_RECORD, kpath,
                          "%s: a quest card for \"%s\", who is not a player",
                          ctx, key);
        }
        if (!(mask & (1u << seat))) {
            return refuse(im, C_RECORD, kpath,
                          "%s: a quest card for %s, who is not on the team",
                          ctx, key);
        }
    }
    for (k = 1; k <= im->n; k++) {
        if (!(mask & (1u << k))) {
            continue;
        }
        v = json_object_get(cards, im->names[k]);
        if (!v) {
            path_key(kpath, sizeof(kpath), path, im->names[k]);
            return refuse(im, C_RECORD, kpath, "%s: no quest card for %s", ctx,
                          im->names[k]);
        }
        fails += json_is_false(v) ? 1 : 0;
    }
    if (!get_key(im, mission, mpath, "numFails", W_INTEGER, &nf, kpath)) {
        return false;
    }
    if (json_integer_value(nf) != (json_int_t)fails) {
        return refuse(im, C_RECORD, kpath,
                      "%s: numFails is %" JSON_INTEGER_FORMAT
                      " but %s holds %zu Fail card%s",
                      ctx, json_integer_value(nf), path, fails,
                      fails == 1 ? "" : "s");
    }
    for (k = 1; k <= im->n; k++) {
        if (!(mask & (1u << k))) {
            continue;
        }
        v = json_object_get(cards, im->names[k]);
        snprintf(action, sizeof(action), "card p%zu %s", k,
                 json_is_true(v) ? "success" : "fail");
        if (!act(im, ctx, path, action)) {
            return false;
        }
    }
    im->played++;
    snprintf(line, sizeof(line), "%s", im->last_quest);
    state = json_string_value(json_object_get(mission, "state"));
    {
        const bool ok = strstr(line, " success ");

        if (ok != (strcmp(state, "SUCCESS") == 0)) {
            path_key(kpath, sizeof(kpath), mpath, "state");
            return refuse(im, C_RESULT, kpath,
                          "%s: the site recorded %s with %zu Fail card%s; "
                          "the official rules say \"%s\"",
                          ctx, state, fails, fails == 1 ? "" : "s", line);
        }
        im->successes += ok ? 1 : 0;
    }
    return true;
}

/* The assassination the engine asks for after the third success. */
static bool
play_assassination(struct imp *im, const json_t *outcome)
{
    char path[PATH_MAX_LEN], action[64];
    json_t *v;
    size_t target;

    if (!get_key(im, outcome, "outcome", "assassinated", W_STRING_OR_NULL, &v,
                 path)) {
        return false;
    }
    if (json_is_null(v)) {
        return refuse(im, C_END, path,
                      "assassination: Merlin is in play and Good has three "
                      "successful quests, so the Assassin names a target, "
                      "but %s is null",
                      path);
    }
    if (!get_player(im, v, path, &target)) {
        return false;
    }
    snprintf(action, sizeof(action), "assassinate p%zu p%zu", engine_turn(im),
             target);
    if (!act(im, "assassination", path, action)) {
        return false;
    }
    im->has_shot = true;
    return true;
}

/* The missions in order.  After the end, a mission must be empty. */
static bool
play_missions(struct imp *im, const json_t *missions, const json_t *outcome)
{
    char mpath[PATH_MAX_LEN], ppath[PATH_MAX_LEN], path[PATH_MAX_LEN];
    char kpath[PATH_MAX_LEN];
    json_t *cards_all, *m, *props, *p, *team, *v;
    size_t i, j;

    if (!get_key(im, outcome, "outcome", "votes", W_ARRAY, &cards_all, path)) {
        return false;
    }
    if (json_array_size(missions) > MAX_QUESTS) {
        return refuse(im, C_SHAPE, "missions",
                      "missions: %zu missions; a game has at most 5",
                      json_array_size(missions));
    }
    for (i = 0; i < json_array_size(missions); i++) {
        const char *state;
        bool approved = false, is_played;
        uint32_t approved_mask = 0, team_mask;

        if (!get_index(im, missions, "missions", i, W_OBJECT, &m, mpath) ||
            !get_key(im, m, mpath, "state", W_STRING, &v, kpath)) {
            return false;
        }
        state = json_string_value(v);
        if (strcmp(state, "SUCCESS") != 0 && strcmp(state, "FAIL") != 0 &&
            strcmp(state, "PENDING") != 0) {
            return refuse(im, C_SHAPE, kpath,
                          "%s: expected \"SUCCESS\", \"FAIL\" or "
                          "\"PENDING\", got \"%s\"",
                          kpath, state);
        }
        is_played = strcmp(state, "PENDING") != 0;
        if (!get_key(im, m, mpath, "proposals", W_ARRAY, &props, ppath) ||
            !get_key(im, m, mpath, "team", W_ARRAY, &team, kpath) ||
            !read_seats(im, team, kpath, C_RECORD, "team", &team_mask)) {
            return false;
        }
        if (engine_turn(im) == 0) {
            if (is_played || json_array_size(props) > 0 || team_mask != 0) {
                return refuse(im, C_AFTER_END, mpath,
                              "mission %zu: recorded after the end of the "
                              "game",
                              i + 1);
            }
            continue;
        }
        for (j = 0; j < json_array_size(props); j++) {
            if (engine_turn(im) == 0 || approved) {
                path_index(path, sizeof(path), ppath, j);
                return refuse(
                    im, approved ? C_RECORD : C_AFTER_END, path,
                    "mission %zu proposal %zu: recorded after %s", i + 1, j + 1,
                    approved ? "the team was approved" : "the end of the game");
            }
            if (!get_index(im, props, ppath, j, W_OBJECT, &p, path) ||
                !play_proposal(im, i, j, p, path, &approved, &approved_mask)) {
                return false;
            }
        }
        if (!is_played) {
            if (approved) {
                return refuse(im, C_INCOMPLETE, mpath,
                              "mission %zu: a team was approved but the "
                              "quest is PENDING",
                              i + 1);
            }
            if (engine_turn(im) != 0) {
                return refuse(im, C_INCOMPLETE, mpath,
                              "mission %zu: still PENDING, but the game has "
                              "not ended",
                              i + 1);
            }
            continue;
        }
        if (!approved) {
            return refuse(im, C_RECORD, mpath,
                          "mission %zu: recorded as %s, but no team was "
                          "approved",
                          i + 1, state);
        }
        if (team_mask != approved_mask) {
            return refuse(im, C_RECORD, kpath,
                          "mission %zu: %s differs from the team of the "
                          "approved proposal",
                          i + 1, kpath);
        }
        if (!play_cards(im, i, m, mpath, approved_mask, cards_all)) {
            return false;
        }
        if (im->successes == 3 && engine_turn(im) != 0 &&
            !play_assassination(im, outcome)) {
            return false;
        }
    }
    if (json_array_size(cards_all) > im->played) {
        path_index(path, sizeof(path), "outcome.votes", im->played);
        return refuse(im, C_RECORD, path,
                      "outcome.votes has %zu entries for %zu quests played",
                      json_array_size(cards_all), im->played);
    }
    if (engine_turn(im) != 0) {
        return refuse(im, C_INCOMPLETE, "missions",
                      "the record stops before the end of the game (p%zu, "
                      "%s, is to act)",
                      engine_turn(im), im->names[engine_turn(im)]);
    }
    return true;
}

/* The end the engine derived against outcome.state and .message. */
static bool
check_end(struct imp *im, const json_t *outcome)
{
    const char *winner = "", *reason = "";
    char path[PATH_MAX_LEN];
    json_t *v;
    const char *state, *message;
    size_t i;

    im->in->game->outcome(im->st, &winner, &reason);
    if (!get_key(im, outcome, "outcome", "state", W_STRING, &v, path)) {
        return false;
    }
    state = json_string_value(v);
    if (strcmp(state, "GOOD_WIN") != 0 && strcmp(state, "EVIL_WIN") != 0) {
        return refuse(im, C_SHAPE, path,
                      "%s: expected \"GOOD_WIN\" or \"EVIL_WIN\", got \"%s\"",
                      path, state);
    }
    if (strcmp(state, "GOOD_WIN") == 0 ? strcmp(winner, "good") != 0
                                       : strcmp(winner, "evil") != 0) {
        return refuse(im, C_END, path,
                      "%s: the site says %s; the official rules end the "
                      "game \"end %s %s\"",
                      path, state, winner, reason);
    }
    if (!get_key(im, outcome, "outcome", "message", W_STRING, &v, path)) {
        return false;
    }
    message = json_string_value(v);
    for (i = 0; i < NEND_MAP; i++) {
        if (strcmp(end_map[i].message, message) == 0) {
            break;
        }
    }
    if (i == NEND_MAP) {
        return refuse(im, C_END, path, "%s: \"%s\" is not an end camelog knows",
                      path, message);
    }
    if (strcmp(end_map[i].winner, winner) != 0 ||
        ((!end_map[i].reasons[0] ||
          strcmp(end_map[i].reasons[0], reason) != 0) &&
         (!end_map[i].reasons[1] ||
          strcmp(end_map[i].reasons[1], reason) != 0))) {
        return refuse(im, C_END, path,
                      "%s: the site says \"%s\"; the official rules end the "
                      "game \"end %s %s\"",
                      path, message, winner, reason);
    }
    if (!im->has_shot) {
        v = json_object_get(outcome, "assassinated");
        path_key(path, sizeof(path), "outcome", "assassinated");
        if (v && !json_is_null(v)) {
            return refuse(im, C_END, path,
                          "%s: the site has an assassination, but the "
                          "official rules have none in this game (\"end %s "
                          "%s\")",
                          path, winner, reason);
        }
    }
    return true;
}

/* The original id: the file name without its directory and ".json". */
static bool
original_id(struct imp *im)
{
    const char *base = im->in->name;
    size_t len, i;

    len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0) {
        len -= 5;
    }
    if (len == 0 || len > 128) {
        return refuse(im, C_ID, NULL,
                      "the file name without .json must have 1 to 128 "
                      "bytes: it is the game's original id");
    }
    for (i = 0; i < len; i++) {
        if (base[i] < 0x21 || base[i] > 0x7e || base[i] == '"') {
            return refuse(im, C_ID, NULL,
                          "the file name must be printable ASCII without "
                          "space or quote: it is the game's original id");
        }
    }
    memcpy(im->plan->oid, base, len);
    im->plan->oid[len] = '\0';
    return true;
}

/* Parses the record into im->root. */
static bool
load_record(struct imp *im)
{
    json_error_t jerr;

    im->root = json_loadb(im->in->record, im->in->record_len,
                          JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!im->root) {
        return refuse(im, C_SYNTAX, NULL, "not JSON: line %d column %d: %s",
                      jerr.line, jerr.column, jerr.text);
    }
    return check_type(im, im->root, "", W_OBJECT);
}

/* ------------------------------------------------------------- convert */

/* The record on the engine; on success the plan is complete. */
static bool
play_record(struct imp *im)
{
    struct rpl__import_plan *plan = im->plan;
    char path[PATH_MAX_LEN];
    json_t *outcome, *missions;
    size_t k;

    if (!original_id(im) || !load_record(im) || !read_players(im) ||
        !get_key(im, im->root, "", "outcome", W_OBJECT, &outcome, path) ||
        !read_roles(im, outcome) || !read_options(im) || !read_keys(im) ||
        !read_created(im, plan->created, sizeof(plan->created)) ||
        !get_key(im, im->root, "", "missions", W_ARRAY, &missions, path) ||
        !read_first(im, missions)) {
        return false;
    }
    read_shot(im, outcome);
    rules_line(im, plan->rules, sizeof(plan->rules));
    plan->seats = im->n;
    plan->first = im->first;
    for (k = 1; k <= im->n; k++) {
        snprintf(plan->names[k - 1], sizeof(plan->names[k - 1]), "%s",
                 im->names[k]);
        snprintf(plan->deal[k - 1], sizeof(plan->deal[k - 1]), "%s",
                 im->roles[k]);
    }
    rpl__import_derive(im->in->has_seed ? im->in->root : NULL, source_name,
                       plan->oid, plan->id, plan->secret);
    if (!engine_start(im) || !play_missions(im, missions, outcome) ||
        !check_end(im, outcome)) {
        return false;
    }
    if (plan->actions.failed) {
        return refuse(im, C_INTERNAL, NULL, "out of memory");
    }
    return true;
}

static enum rpl_status
convert(const struct rpl__import_in *in, struct rpl__import_plan *plan,
        struct rpl_import_report *rep)
{
    struct imp im;
    enum rpl_status rc;

    if (in->options[0] != '\0') {
        snprintf(rep->reason, sizeof(rep->reason),
                 "the avalongame format has no options, got \"%.64s\"",
                 in->options);
        return RPL_E_ARG;
    }
    memset(&im, 0, sizeof(im));
    im.in = in;
    im.plan = plan;
    im.rep = rep;
    rc = play_record(&im) ? RPL_OK : im.status;
    snprintf(rep->name, sizeof(rep->name), "%s", plan->oid);
    if (im.st) {
        sodium_memzero(im.st, in->game->state_size);
        rpl__free(in->ctx, im.st);
    }
    sodium_memzero(im.seed, sizeof(im.seed));
    json_decref(im.root);
    return rc;
}

static const struct rpl__importer avalongame = {
    .format = "avalongame",
    .source = source_name,
    .categories = categories,
    .ncategories = C_COUNT,
    .convert = convert,
};

const struct rpl__importer *const rpl__avalon_importers[] = {
    &avalongame,
    NULL,
};
