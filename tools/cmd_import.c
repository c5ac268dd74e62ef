/*
 * cmd_import.c - camelog import: games recorded by other systems become
 * .camelog files that replay with our engine.  The first source is
 * avalongame.online, whose public dataset holds one JSON document per
 * finished game (camelog-import(1) draws it).
 *
 * Each record is played through the recorder exactly as a host would
 * have recorded the game, with the deal taken from the record instead
 * of the seed: the engine checks every proposal, vote, quest card and
 * the assassination against the official rules, and the tool compares
 * every result the engine derives (team approved or rejected, quest
 * result, end) with what the site wrote.  A record that breaks a rule
 * or contradicts itself is refused with the rule it breaks; nothing is
 * written for it.  A written log says in its header that it was
 * imported, so verify reports "rules checked; fairness cannot be
 * proven".
 *
 * Derivation (camelog-import(1)): the game id is the first 16 bytes of
 * BLAKE2b-256("camelog import" || source || 0x00 || original id), so
 * importing a record again gives the same game.  The dealer secret S is
 * random, or with --seed, BLAKE2b-256(key = root, "camelog import
 * secret " || original id) with root = BLAKE2b-256("camelog import seed"
 * || seed), so that tests can compare files byte for byte.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>
#include <sodium.h>

#include "cli.h"
#include "replay.h"

int cmd_import(int argc, char **argv);

static const char usage[] =
    "usage: camelog import --from avalongame [--seed hex] [--force] [-q]\n"
    "                      [--json] --key importer.key -o dir file ...\n";

static const char options[] =
    "options:\n"
    "  --from avalongame    the records are avalongame.online game logs\n"
    "                       (JSON)\n"
    "  --seed hex           derive each game's dealer secret from this seed\n"
    "                       (default: random): same seed, same files\n"
    "  -f, --force          overwrite existing files\n"
    "  -q, --quiet          no progress and no summary\n"
    "  --json               one JSON object per record on standard output\n"
    "  -k, --key file       the importer's secret key, which seals the logs\n"
    "  -o, --output dir     where the logs go (created if needed)\n"
    "  -h, --help           this help\n";

/* The source named on the `import` line. */
static const char source_name[] = "avalongame.online";

/* A record larger than this is refused before it is parsed. */
#define MAX_RECORD (1024u * 1024u)

/* Avalon seats (rules H-1) and quests. */
#define MIN_SEATS  5
#define MAX_SEATS  10
#define MAX_QUESTS 5

/* Seat names: camelog(5) allows 1 to 64 bytes of UTF-8 without control
 * characters, unique in the game. */
#define MAX_NAME     64

#define PATH_MAX_LEN 192
#define MSG_MAX_LEN  512

/* Why a record was not imported.  The order is the order of the summary;
 * the keys are the `category` of --json and never change. */
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

struct category_info {
    const char *key;  /* --json "category" */
    const char *text; /* the summary line */
    int exit_status;
};

static const struct category_info categories[C_COUNT] = {
    [C_NONE] = {"", "", CLI_EXIT_OK},
    [C_READ] = {"read", "cannot be read", CLI_EXIT_USAGE},
    [C_SIZE] = {"size", "larger than 1 MiB", CLI_EXIT_INVALID},
    [C_SYNTAX] = {"syntax", "not JSON", CLI_EXIT_INVALID},
    [C_SHAPE] = {"shape", "not a game record (wrong type or missing key)",
                 CLI_EXIT_INVALID},
    [C_ID] = {"id", "file name unusable as the original id", CLI_EXIT_INVALID},
    [C_NAME] = {"name", "player name camelog cannot hold", CLI_EXIT_INVALID},
    [C_PLAYERS] = {"players", "not 5 to 10 players (H-1)", CLI_EXIT_INVALID},
    [C_ROLE] = {"role", "role outside the official game (H-6)",
                CLI_EXIT_INVALID},
    [C_HOUSE_ASSASSIN] = {"house-assassin",
                          "assassin flag on a special role (house rule)",
                          CLI_EXIT_INVALID},
    [C_CONFIG] = {"config", "set of roles against the official rules",
                  CLI_EXIT_INVALID},
    [C_OPTION] = {"option", "game option camelog cannot map", CLI_EXIT_INVALID},
    [C_RECORD] = {"record", "record contradicts itself", CLI_EXIT_INVALID},
    [C_ORDER] = {"leader", "proposer out of turn", CLI_EXIT_INVALID},
    [C_VOTE] = {"vote", "team result against the official majority",
                CLI_EXIT_INVALID},
    [C_ILLEGAL] = {"illegal", "action the official rules forbid",
                   CLI_EXIT_INVALID},
    [C_RESULT] = {"quest", "quest result against the official rules",
                  CLI_EXIT_INVALID},
    [C_INCOMPLETE] = {"incomplete", "record stops before the end of the game",
                      CLI_EXIT_INVALID},
    [C_AFTER_END] = {"after-end", "play recorded after the end of the game",
                     CLI_EXIT_INVALID},
    [C_END] = {"end", "end against the official rules", CLI_EXIT_INVALID},
    [C_INVALID] = {"invalid", "imported log does not verify", CLI_EXIT_INVALID},
    [C_EXISTS] = {"exists", "output exists (--force overwrites it)",
                  CLI_EXIT_USAGE},
    [C_WRITE] = {"write", "output cannot be written", CLI_EXIT_USAGE},
    [C_INTERNAL] = {"internal", "library failure", CLI_EXIT_USAGE},
};

/* The role names of the site, and ours.  EVIL MINION is the Assassin
 * when its assassin flag is set. */
static const struct {
    const char *site;
    const char *token;
} role_map[] = {
    {"MERLIN", "merlin"},          {"PERCIVAL", "percival"},
    {"LOYAL FOLLOWER", "servant"}, {"MORGANA", "morgana"},
    {"MORDRED", "mordred"},        {"OBERON", "oberon"},
    {"EVIL MINION", "minion"},
};
#define NROLE_MAP (sizeof role_map / sizeof role_map[0])

/* The rules line's order of roles (camelog-avalon(7)). */
static const char *const role_order[] = {
    "merlin",  "percival", "servant", "assassin",
    "morgana", "mordred",  "oberon",  "minion",
};
#define NROLES (sizeof role_order / sizeof role_order[0])

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
#define NEND_MAP (sizeof end_map / sizeof end_map[0])

struct options {
    const char *dir;
    bool force;
    bool quiet;
    bool json;
    bool has_seed;
    uint8_t root[32];
    const struct rpl_seckey *key;
    struct rpl_pubkey pub;
};

/* Why one record was refused. */
struct refusal {
    enum category cat;
    char path[PATH_MAX_LEN]; /* JSON path of the culprit, "" for none */
    char msg[MSG_MAX_LEN];
};

/* One record being imported. */
struct imp {
    const struct options *o;
    struct rpl_ctx *ctx;
    const char *file;
    char oid[160]; /* the original id: the file name without .json */
    json_t *root;
    size_t n;
    const char *names[MAX_SEATS + 1]; /* 1-based, lent by root */
    const char *roles[MAX_SEATS + 1]; /* role tokens, 1-based */
    size_t assassin;                  /* seat of the assassin flag */
    size_t first;                     /* first leader */
    struct rpl_recorder *rec;
    size_t played;    /* quests played */
    size_t successes; /* of them, successes */
    bool has_shot;    /* an assassinate line was recorded */
    struct refusal *ref;
};

/* What one record gave. */
struct result {
    struct refusal ref;
    char *output; /* malloc()ed path of the written log, or NULL */
    char id[33];
    char winner[16];
    char reason[16];
    json_t *warnings; /* with --json: the rule warnings of the log */
};

/* ------------------------------------------------------------ refusals */

static bool refuse(struct imp *im, enum category cat, const char *path,
                   const char *fmt, ...) CLI_PRINTF(4, 5);

/* Records why the record is refused; returns false for `return refuse()`.
 * The first refusal stands. */
static bool
refuse(struct imp *im, enum category cat, const char *path, const char *fmt,
       ...)
{
    va_list ap;

    if (im->ref->cat != C_NONE) {
        return false;
    }
    im->ref->cat = cat;
    snprintf(im->ref->path, sizeof im->ref->path, "%s",
             path != NULL ? path : "");
    va_start(ap, fmt);
    vsnprintf(im->ref->msg, sizeof im->ref->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* A failed library call: its status decides the category. */
static bool
refuse_lib(struct imp *im, enum category cat, const char *context,
           enum rpl_status st, const struct rpl_error *err)
{
    if (st == RPL_E_NOMEM || st == RPL_E_IO || st == RPL_E_CRYPTO) {
        cat = C_INTERNAL;
    }
    return refuse(im, cat, NULL, "%s%s%s", context,
                  context[0] != '\0' ? ": " : "", cli_error_text(st, err));
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
    if (v == NULL) {
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
    if (v == NULL || !check_type(im, v, child, w)) {
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

/* outcome.roles: every player once, with a role of the official game,
 * at most one assassin flag, and that on an EVIL MINION. */
static bool
read_roles(struct imp *im, const json_t *outcome)
{
    char path[PATH_MAX_LEN], epath[PATH_MAX_LEN], kpath[PATH_MAX_LEN];
    json_t *roles, *e, *v;
    size_t i, k, seat;
    bool has_merlin = false;

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
        if (im->roles[seat] != NULL) {
            return refuse(im, C_RECORD, kpath, "%s: %s has two roles", kpath,
                          im->names[seat]);
        }
        if (!get_key(im, e, epath, "role", W_STRING, &v, kpath)) {
            return false;
        }
        site = json_string_value(v);
        token = role_token(site);
        if (token == NULL) {
            return refuse(im, C_ROLE, kpath,
                          "%s: \"%s\" is not a character of the official "
                          "game (H-6)",
                          kpath, site);
        }
        if (!get_key(im, e, epath, "assassin", W_BOOLEAN, &v, kpath)) {
            return false;
        }
        flag = json_is_true(v);
        if (flag && strcmp(token, "minion") != 0) {
            return refuse(im, C_HOUSE_ASSASSIN, kpath,
                          "%s: %s (%s) is the assassin; officially the "
                          "Assassin is a character of its own (house rule)",
                          kpath, site, im->names[seat]);
        }
        if (flag && im->assassin != 0) {
            return refuse(im, C_CONFIG, kpath,
                          "%s: %s and %s both have the assassin flag", kpath,
                          im->names[im->assassin], im->names[seat]);
        }
        if (flag) {
            token = "assassin";
            im->assassin = seat;
        }
        has_merlin = has_merlin || strcmp(token, "merlin") == 0;
        im->roles[seat] = token;
    }
    for (k = 1; k <= im->n; k++) {
        if (im->roles[k] == NULL) {
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
    return true;
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
        snprintf(out + len, cap - len, " lady=off targeting=off");
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

    if (opts == NULL) {
        return true;
    }
    snprintf(path, sizeof path, "options");
    if (!check_type(im, opts, path, W_OBJECT)) {
        return false;
    }
    json_object_foreach(opts, key, v)
    {
        path_key(kpath, sizeof kpath, path, key);
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

/* timeCreated._seconds as YYYY-MM-DDTHH:MM:SSZ; "" when the record has
 * no timeCreated. */
static bool
read_created(struct imp *im, char *out, size_t cap)
{
    char path[PATH_MAX_LEN], spath[PATH_MAX_LEN];
    json_t *t = json_object_get(im->root, "timeCreated"), *s;
    json_int_t secs;
    time_t tt;
    struct tm tm;

    out[0] = '\0';
    if (t == NULL) {
        return true;
    }
    snprintf(path, sizeof path, "timeCreated");
    if (!check_type(im, t, path, W_OBJECT) ||
        !get_key(im, t, path, "_seconds", W_INTEGER, &s, spath)) {
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
    if (gmtime_r(&tt, &tm) == NULL ||
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
    enum rpl_status st = rpl_rec_act(im->rec, action, NULL, &err);
    char named[MSG_MAX_LEN];

    if (st == RPL_OK) {
        return true;
    }
    if (st != RPL_E_RULES && st != RPL_E_STATE && st != RPL_E_SYNTAX) {
        return refuse_lib(im, C_INTERNAL, context, st, &err);
    }
    with_names(im, cli_error_text(st, &err), named, sizeof named);
    return refuse(im, C_ILLEGAL, path, "%s: %s", context, named);
}

/* The last line of the log so far that starts with prefix, copied into
 * out; "" when none of the last few lines does. */
static bool
last_line(struct imp *im, const char *prefix, char *out, size_t cap)
{
    struct rpl_log *log = NULL;
    struct rpl_error err;
    enum rpl_status st = rpl_rec_log(im->rec, &log, &err);
    const size_t plen = strlen(prefix);
    size_t no, seen = 0;

    out[0] = '\0';
    if (st != RPL_OK) {
        return refuse_lib(im, C_INTERNAL, "", st, &err);
    }
    /* The line looked for is followed by a few derived lines at most
     * (end, seal). */
    for (no = rpl_log_lines(log); no > 0 && seen < 8; no--, seen++) {
        size_t len = 0;
        const char *line = rpl_log_line(log, no, &len);

        if (line != NULL && len >= plen && memcmp(line, prefix, plen) == 0) {
            snprintf(out, cap, "%.*s", (int)len, line);
            break;
        }
    }
    rpl_log_free(log);
    return true;
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
        path_index(epath, sizeof epath, path, i);
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

    snprintf(ctx, sizeof ctx, "mission %zu proposal %zu", m + 1, j + 1);
    if (!get_key(im, prop, path, "proposer", W_STRING, &v, kpath) ||
        !get_player(im, v, kpath, &proposer)) {
        return false;
    }
    leader = rpl_rec_turn(im->rec);
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
    seat_list(team_mask, im->n, list, sizeof list);
    snprintf(action, sizeof action, "propose p%zu %s", proposer, list);
    if (!act(im, ctx, path, action)) {
        return false;
    }
    for (k = 1; k <= im->n; k++) {
        snprintf(action, sizeof action, "vote p%zu %s", k,
                 yes_mask & (1u << k) ? "yes" : "no");
        if (!act(im, ctx, path, action)) {
            return false;
        }
    }
    if (!last_line(im, "team ", line, sizeof line)) {
        return false;
    }
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

    snprintf(ctx, sizeof ctx, "mission %zu", m + 1);
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
        path_key(kpath, sizeof kpath, path, key);
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
        if (v == NULL) {
            path_key(kpath, sizeof kpath, path, im->names[k]);
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
        snprintf(action, sizeof action, "card p%zu %s", k,
                 json_is_true(v) ? "success" : "fail");
        if (!act(im, ctx, path, action)) {
            return false;
        }
    }
    im->played++;
    if (!last_line(im, "quest ", line, sizeof line)) {
        return false;
    }
    state = json_string_value(json_object_get(mission, "state"));
    {
        const bool ok = strstr(line, " success ") != NULL;

        if (ok != (strcmp(state, "SUCCESS") == 0)) {
            path_key(kpath, sizeof kpath, mpath, "state");
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
    snprintf(action, sizeof action, "assassinate p%zu p%zu",
             rpl_rec_turn(im->rec), target);
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
        if (rpl_rec_turn(im->rec) == 0) {
            if (is_played || json_array_size(props) > 0 || team_mask != 0) {
                return refuse(im, C_AFTER_END, mpath,
                              "mission %zu: recorded after the end of the "
                              "game",
                              i + 1);
            }
            continue;
        }
        for (j = 0; j < json_array_size(props); j++) {
            if (rpl_rec_turn(im->rec) == 0 || approved) {
                path_index(path, sizeof path, ppath, j);
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
            if (rpl_rec_turn(im->rec) != 0) {
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
        if (im->successes == 3 && rpl_rec_turn(im->rec) != 0 &&
            !play_assassination(im, outcome)) {
            return false;
        }
    }
    if (json_array_size(cards_all) > im->played) {
        path_index(path, sizeof path, "outcome.votes", im->played);
        return refuse(im, C_RECORD, path,
                      "outcome.votes has %zu entries for %zu quests played",
                      json_array_size(cards_all), im->played);
    }
    if (rpl_rec_turn(im->rec) != 0) {
        return refuse(im, C_INCOMPLETE, "missions",
                      "the record stops before the end of the game (p%zu, "
                      "%s, is to act)",
                      rpl_rec_turn(im->rec), im->names[rpl_rec_turn(im->rec)]);
    }
    return true;
}

/* The end the engine derived against outcome.state and .message. */
static bool
check_end(struct imp *im, const json_t *outcome, const struct rpl_report *rep)
{
    char path[PATH_MAX_LEN];
    json_t *v;
    const char *state, *message;
    size_t i;

    if (!get_key(im, outcome, "outcome", "state", W_STRING, &v, path)) {
        return false;
    }
    state = json_string_value(v);
    if (strcmp(state, "GOOD_WIN") != 0 && strcmp(state, "EVIL_WIN") != 0) {
        return refuse(im, C_SHAPE, path,
                      "%s: expected \"GOOD_WIN\" or \"EVIL_WIN\", got \"%s\"",
                      path, state);
    }
    if (strcmp(state, "GOOD_WIN") == 0 ? strcmp(rep->winner, "good") != 0
                                       : strcmp(rep->winner, "evil") != 0) {
        return refuse(im, C_END, path,
                      "%s: the site says %s; the official rules end the "
                      "game \"end %s %s\"",
                      path, state, rep->winner, rep->reason);
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
    if (strcmp(end_map[i].winner, rep->winner) != 0 ||
        ((end_map[i].reasons[0] == NULL ||
          strcmp(end_map[i].reasons[0], rep->reason) != 0) &&
         (end_map[i].reasons[1] == NULL ||
          strcmp(end_map[i].reasons[1], rep->reason) != 0))) {
        return refuse(im, C_END, path,
                      "%s: the site says \"%s\"; the official rules end the "
                      "game \"end %s %s\"",
                      path, message, rep->winner, rep->reason);
    }
    if (!im->has_shot) {
        v = json_object_get(outcome, "assassinated");
        path_key(path, sizeof path, "outcome", "assassinated");
        if (v != NULL && !json_is_null(v)) {
            return refuse(im, C_END, path,
                          "%s: the site has an assassination, but the "
                          "official rules have none in this game (\"end %s "
                          "%s\")",
                          path, rep->winner, rep->reason);
        }
    }
    return true;
}

/* --------------------------------------------------------- one record */

/* The original id: the file name without its directory and ".json". */
static bool
original_id(struct imp *im)
{
    const char *base = strrchr(im->file, '/');
    size_t len, i;

    base = base != NULL ? base + 1 : im->file;
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
    memcpy(im->oid, base, len);
    im->oid[len] = '\0';
    return true;
}

/* The game id and the dealer secret of this record. */
static void
derive(const struct imp *im, uint8_t id[16], uint8_t secret[32])
{
    static const char tag[] = "camelog import";
    static const char stag[] = "camelog import secret ";
    crypto_generichash_state h;
    uint8_t full[32];
    const uint8_t zero = 0;

    crypto_generichash_init(&h, NULL, 0, sizeof full);
    crypto_generichash_update(&h, (const unsigned char *)tag, sizeof tag - 1);
    crypto_generichash_update(&h, (const unsigned char *)source_name,
                              sizeof source_name - 1);
    crypto_generichash_update(&h, &zero, 1);
    crypto_generichash_update(&h, (const unsigned char *)im->oid,
                              strlen(im->oid));
    crypto_generichash_final(&h, full, sizeof full);
    memcpy(id, full, 16);
    if (im->o->has_seed) {
        crypto_generichash_init(&h, im->o->root, sizeof im->o->root, 32);
        crypto_generichash_update(&h, (const unsigned char *)stag,
                                  sizeof stag - 1);
        crypto_generichash_update(&h, (const unsigned char *)im->oid,
                                  strlen(im->oid));
        crypto_generichash_final(&h, secret, 32);
        sodium_memzero(&h, sizeof h);
    } else {
        randombytes_buf(secret, 32);
    }
}

/* Reads and parses the record into im->root. */
static bool
load_record(struct imp *im)
{
    char *buf = NULL;
    size_t len = 0;
    json_error_t jerr;
    int rc;

    errno = 0;
    rc = cli_read_file(im->file, MAX_RECORD, &buf, &len);
    if (rc == CLI_EXIT_INVALID) {
        return refuse(im, C_SIZE, NULL, "larger than 1 MiB");
    }
    if (rc != CLI_EXIT_OK) {
        return refuse(im, C_READ, NULL, "%s",
                      errno != 0 ? strerror(errno) : "cannot read");
    }
    im->root =
        json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    free(buf);
    if (im->root == NULL) {
        return refuse(im, C_SYNTAX, NULL, "not JSON: line %d column %d: %s",
                      jerr.line, jerr.column, jerr.text);
    }
    return check_type(im, im->root, "", W_OBJECT);
}

/* Plays the record through the recorder; on success *out is the
 * verified log and rep its report. */
static bool
record_game(struct imp *im, struct rpl_log **out, struct rpl_report *rep)
{
    char rules[256], created[32], path[PATH_MAX_LEN];
    const char *names[MAX_SEATS], *deal[MAX_SEATS];
    json_t *outcome, *missions;
    struct rpl_rec_config cfg;
    struct rpl_verify_opts vopts;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    enum rpl_status st;
    uint8_t id[16], secret[32];
    size_t k;
    bool ok = false;

    if (!read_players(im) ||
        !get_key(im, im->root, "", "outcome", W_OBJECT, &outcome, path) ||
        !read_roles(im, outcome) || !read_options(im) ||
        !read_created(im, created, sizeof created) ||
        !get_key(im, im->root, "", "missions", W_ARRAY, &missions, path) ||
        !read_first(im, missions)) {
        return false;
    }
    rules_line(im, rules, sizeof rules);
    for (k = 1; k <= im->n; k++) {
        names[k - 1] = im->names[k];
        deal[k - 1] = im->roles[k];
    }
    derive(im, id, secret);
    memset(&cfg, 0, sizeof cfg);
    cfg.game = "avalon";
    cfg.rules = rules;
    cfg.seats = im->n;
    cfg.names = names;
    cfg.dealer = im->o->key;
    cfg.id = id;
    cfg.secret = secret;
    cfg.created = created[0] != '\0' ? created : NULL;
    cfg.import_source = source_name;
    cfg.import_id = im->oid;
    cfg.deal = deal;
    cfg.first = im->first;
    st = rpl_rec_new(im->ctx, &im->rec, &cfg, &err);
    sodium_memzero(secret, sizeof secret);
    if (st == RPL_OK) {
        st = rpl_rec_start(im->rec, &err);
    }
    if (st != RPL_OK) {
        if (st == RPL_E_RULES) {
            return refuse(im, C_CONFIG, "outcome.roles", "outcome.roles: %s",
                          cli_error_text(st, &err));
        }
        return refuse_lib(im, C_INVALID, "", st, &err);
    }
    if (!play_missions(im, missions, outcome)) {
        return false;
    }
    st = rpl_rec_reveal(im->rec, &err);
    if (st == RPL_OK) {
        st = rpl_rec_log(im->rec, &log, &err);
    }
    if (st != RPL_OK) {
        return refuse_lib(im, C_INVALID, "", st, &err);
    }
    memset(&vopts, 0, sizeof vopts);
    vopts.pubkey = &im->o->pub;
    memset(rep, 0, sizeof *rep);
    st = rpl_log_verify(log, &vopts, rep);
    if (st != RPL_OK) {
        char where[32] = "";

        if (rep->error.line > 0) {
            snprintf(where, sizeof where, "line %zu", rep->error.line);
        }
        refuse_lib(im, C_INVALID, where, st, &rep->error);
    } else if (rep->progress != RPL_PROGRESS_COMPLETE || !rep->is_imported) {
        refuse(im, C_INVALID, NULL, "the log is %s and %s marked as imported",
               cli_progress_text(rep->progress),
               rep->is_imported ? "is" : "is not");
    } else {
        ok = check_end(im, outcome, rep);
    }
    if (!ok) {
        rpl_log_free(log);
        return false;
    }
    *out = log;
    return true;
}

static json_t *warnings_json(const struct rpl_log *log,
                             const struct rpl_report *rep);

static void
import_one(struct rpl_ctx *ctx, const struct options *o, const char *file,
           struct result *res)
{
    struct imp im;
    struct rpl_log *log = NULL;
    struct rpl_report rep;
    struct rpl_error err;
    enum rpl_status st;
    size_t n;

    memset(res, 0, sizeof *res);
    memset(&im, 0, sizeof im);
    im.o = o;
    im.ctx = ctx;
    im.file = file;
    im.ref = &res->ref;
    if (!original_id(&im) || !load_record(&im) ||
        !record_game(&im, &log, &rep)) {
        goto out;
    }
    n = strlen(o->dir) + strlen(im.oid) + 16;
    res->output = malloc(n);
    if (res->output == NULL) {
        refuse(&im, C_INTERNAL, NULL, "out of memory");
        goto out;
    }
    snprintf(res->output, n, "%s/%s.camelog", o->dir, im.oid);
    st = rpl_log_write(log, res->output, o->force, &err);
    if (st != RPL_OK) {
        refuse(&im, st == RPL_E_EXISTS ? C_EXISTS : C_WRITE, NULL, "%s: %s%s",
               res->output, cli_error_text(st, &err),
               st == RPL_E_EXISTS ? "; --force overwrites it" : "");
        free(res->output);
        res->output = NULL;
        goto out;
    }
    snprintf(res->id, sizeof res->id, "%s", rep.id);
    snprintf(res->winner, sizeof res->winner, "%s", rep.winner);
    snprintf(res->reason, sizeof res->reason, "%s", rep.reason);
    if (o->json) {
        res->warnings = warnings_json(log, &rep);
    }
out:
    rpl_log_free(log);
    rpl_rec_free(im.rec);
    json_decref(im.root);
}

/* ------------------------------------------------------------- output */

/* The warnings of a verified log ("W-3: ..."), as a JSON array; NULL
 * when out of memory. */
static json_t *
warnings_json(const struct rpl_log *log, const struct rpl_report *rep)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; arr != NULL && i < rep->warnings; i++) {
        size_t line = 0;
        const char *w = rpl_log_warning(log, i, &line);

        if (w != NULL && json_array_append_new(arr, cli_json_str(w)) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    return arr;
}

static int
print_json(const char *file, const struct result *res)
{
    json_t *o = json_object();
    const bool ok = res->ref.cat == C_NONE;
    bool built = o != NULL;
    int rc;

    built = built && cli_json_set(o, "file", cli_json_str(file));
    built = built && cli_json_set(o, "imported", json_boolean(ok));
    built = built && cli_json_set(o, "output",
                                  ok ? cli_json_str(res->output) : json_null());
    built =
        built && cli_json_set(o, "id", ok ? json_string(res->id) : json_null());
    built = built && cli_json_set(o, "winner",
                                  ok ? json_string(res->winner) : json_null());
    built = built &&
            cli_json_set(o, "end", ok ? json_string(res->reason) : json_null());
    built =
        built && cli_json_set(o, "warnings",
                              ok ? json_incref(res->warnings) : json_array());
    built =
        built && cli_json_set(o, "category",
                              ok ? json_null()
                                 : json_string(categories[res->ref.cat].key));
    built =
        built && cli_json_set(o, "reason",
                              ok ? json_null() : cli_json_str(res->ref.msg));
    built = built && cli_json_set(o, "path",
                                  ok || res->ref.path[0] == '\0'
                                      ? json_null()
                                      : cli_json_str(res->ref.path));
    if (!built) {
        json_decref(o);
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    rc = cli_json_print(o);
    json_decref(o);
    return rc;
}

static void
print_summary(size_t imported, size_t total, const size_t *counts)
{
    size_t c, refused = total - imported;

    if (refused == 0) {
        cli_msg("imported %zu of %zu game%s", imported, total,
                total == 1 ? "" : "s");
        return;
    }
    cli_msg("imported %zu of %zu game%s; refused %zu:", imported, total,
            total == 1 ? "" : "s", refused);
    for (c = 1; c < C_COUNT; c++) {
        if (counts[c] > 0) {
            cli_msg("  %zu %s", counts[c], categories[c].text);
        }
    }
}

static int
make_dir(const char *dir)
{
    struct stat sb;

    if (mkdir(dir, 0777) == 0) {
        return CLI_EXIT_OK;
    }
    if (errno == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        return CLI_EXIT_OK;
    }
    cli_file_msg(dir, 0, "%s",
                 errno == EEXIST ? "not a directory" : strerror(errno));
    return CLI_EXIT_USAGE;
}

enum { OPT_FROM = 256, OPT_SEED, OPT_JSON };

int
cmd_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"from", required_argument, NULL, OPT_FROM},
        {"seed", required_argument, NULL, OPT_SEED},
        {"json", no_argument, NULL, OPT_JSON},
        {"force", no_argument, NULL, 'f'},
        {"quiet", no_argument, NULL, 'q'},
        {"key", required_argument, NULL, 'k'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct options o;
    const char *from = NULL, *seed = NULL, *keyfile = NULL;
    uint8_t seed_bytes[64];
    size_t seed_len = 0, counts[C_COUNT] = {0}, imported = 0, i, nfiles;
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *key = NULL;
    struct cli_progress prog;
    struct rpl_error err;
    enum rpl_status st;
    int c, rc;

    memset(&o, 0, sizeof o);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":fqk:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_FROM:
            from = optarg;
            break;
        case OPT_SEED:
            seed = optarg;
            break;
        case OPT_JSON:
            o.json = true;
            break;
        case 'f':
            o.force = true;
            break;
        case 'q':
            o.quiet = true;
            break;
        case 'k':
            keyfile = optarg;
            break;
        case 'o':
            o.dir = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("import", c, argv);
        }
    }
    if (from == NULL) {
        return cli_usage_error("import", "no source (--from avalongame)");
    }
    if (strcmp(from, "avalongame") != 0) {
        return cli_usage_error("import",
                               "unknown source '%s' (--from avalongame)", from);
    }
    if (keyfile == NULL) {
        return cli_usage_error("import", "no importer key (--key)");
    }
    if (o.dir == NULL) {
        return cli_usage_error("import", "no output directory (-o)");
    }
    if (optind >= argc) {
        return cli_usage_error("import", "no record to import");
    }
    for (i = (size_t)optind; i < (size_t)argc; i++) {
        if (strcmp(argv[i], "-") == 0) {
            return cli_usage_error("import",
                                   "records are read from files: the file "
                                   "name is the game's original id");
        }
    }
    if (seed != NULL &&
        !cli_parse_hex(seed, seed_bytes, sizeof seed_bytes, &seed_len)) {
        return cli_usage_error("import", "--seed needs 2 to 128 hex digits (an "
                                         "even number)");
    }
    if (seed != NULL) {
        static const char tag[] = "camelog import seed";
        crypto_generichash_state h;

        crypto_generichash_init(&h, NULL, 0, sizeof o.root);
        crypto_generichash_update(&h, (const unsigned char *)tag,
                                  sizeof tag - 1);
        crypto_generichash_update(&h, seed_bytes, seed_len);
        crypto_generichash_final(&h, o.root, sizeof o.root);
        sodium_memzero(&h, sizeof h);
        sodium_memzero(seed_bytes, sizeof seed_bytes);
        o.has_seed = true;
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    st = rpl_seckey_load(ctx, &key, keyfile, &err);
    if (st != RPL_OK) {
        rc = cli_worst(CLI_EXIT_USAGE, cli_file_error(keyfile, st, &err));
        goto out;
    }
    o.key = key;
    rpl_seckey_pubkey(key, &o.pub);
    rc = make_dir(o.dir);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    nfiles = (size_t)(argc - optind);
    cli_progress_start(&prog, "records", nfiles, o.quiet);
    for (i = 0; i < nfiles; i++) {
        const char *file = argv[optind + (int)i];
        struct result res;

        import_one(ctx, &o, file, &res);
        counts[res.ref.cat]++;
        if (res.ref.cat == C_NONE) {
            imported++;
        } else {
            cli_file_msg(file, 0, "%s", res.ref.msg);
            rc = cli_worst(rc, categories[res.ref.cat].exit_status);
        }
        if (o.json) {
            rc = cli_worst(rc, print_json(file, &res));
        } else if (res.ref.cat == C_NONE) {
            printf("%s: %s %s\n", res.output, res.winner, res.reason);
        }
        free(res.output);
        json_decref(res.warnings);
        cli_progress_update(&prog, i + 1);
    }
    cli_progress_end(&prog);
    if (!o.quiet) {
        print_summary(imported, nfiles, counts);
    }
    rc = cli_finish(rc);
out:
    rpl_seckey_free(key);
    rpl_ctx_free(ctx);
    sodium_memzero(o.root, sizeof o.root);
    return rc;
}
