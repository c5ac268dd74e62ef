/*
 * games/avalon/import_record.c - the Avalon importer's reading of one
 * record of avalongame.online (import.c plays it): refusals with the
 * JSON path at fault, the JSON's paths and types, the players, the
 * roles and the house rules they declare, the options, the seat keys,
 * the creation time, the original id.  Nothing here touches the
 * engine.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "import.h"
#include "json.h"

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
    [C_ASSASSINS] = RPL_E_RULES,
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

/* ------------------------------------------------------------ refusals */

/* s into out (cap bytes) with every code point a name may not hold
 * written \u{XXXX} (a byte that is not UTF-8 \xHH), the rest as it is:
 * a refusal quotes the record's strings, and the terminal that shows it
 * must not run them. */
static void
show_safe(char *out, size_t cap, const char *s)
{
    const size_t n = strlen(s);
    size_t i = 0, len = 0;

    while (i < n && len + 1 < cap) {
        const size_t clen = rpl__utf8_len(s + i, n - i);
        uint32_t cp = 0;
        char esc[16];
        int w;

        if (clen != 0 && rpl__name_ok(s + i, clen, &cp)) {
            if (len + clen >= cap) {
                break;
            }
            memcpy(out + len, s + i, clen);
            len += clen;
            i += clen;
            continue;
        }
        w = clen == 0 ? snprintf(esc, sizeof(esc), "\\x%02X",
                                 (unsigned)(unsigned char)s[i])
                      : snprintf(esc, sizeof(esc), "\\u{%04X}", (unsigned)cp);
        if (w < 0 || len + (size_t)w >= cap) {
            break;
        }
        memcpy(out + len, esc, (size_t)w);
        len += (size_t)w;
        i += clen != 0 ? clen : 1;
    }
    out[len] = '\0';
}

/* Records why the record is refused; returns false for `return
 * rpl__avi_refuse()`. The first refusal stands. */
bool
rpl__avi_refuse(struct imp *im, enum category cat, const char *path,
                const char *fmt, ...)
{
    char text[MSG_MAX_LEN];
    va_list ap;

    if (im->rep->category != C_NONE) {
        return false;
    }
    im->rep->category = cat;
    im->status = category_status[cat];
    show_safe(im->rep->field, sizeof(im->rep->field), path ? path : "");
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    show_safe(im->rep->reason, sizeof(im->rep->reason), text);
    return false;
}

const char *
rpl__avi_error_text(enum rpl_status st, const struct rpl_error *err)
{
    if (err && err->code != RPL_OK && err->msg[0] != '\0') {
        return err->msg;
    }
    return rpl_strerror(st);
}

/* A failed library call: its status decides the category. */
bool
rpl__avi_refuse_lib(struct imp *im, enum category cat, const char *context,
                    enum rpl_status st, const struct rpl_error *err)
{
    if (st == RPL_E_NOMEM || st == RPL_E_IO || st == RPL_E_CRYPTO) {
        cat = C_INTERNAL;
    }
    rpl__avi_refuse(im, cat, NULL, "%s%s%s", context,
                    context[0] != '\0' ? ": " : "",
                    rpl__avi_error_text(st, err));
    im->status = st;
    return false;
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
void
rpl__avi_path_key(char *out, size_t cap, const char *base, const char *key)
{
    if (!is_ident(key)) {
        snprintf(out, cap, "%s[\"%s\"]", base, key);
    } else if (base[0] == '\0') {
        snprintf(out, cap, "%s", key);
    } else {
        snprintf(out, cap, "%s.%s", base, key);
    }
}

void
rpl__avi_path_index(char *out, size_t cap, const char *base, size_t i)
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
bool
rpl__avi_check_type(struct imp *im, const json_t *v, const char *path,
                    enum want w)
{
    if (is_wanted(v, w)) {
        return true;
    }
    if (path[0] == '\0') {
        return rpl__avi_refuse(im, C_SHAPE, path,
                               "the document is %s, expected %s", type_name(v),
                               want_name[w]);
    }
    return rpl__avi_refuse(im, C_SHAPE, path, "%s: expected %s, got %s", path,
                           want_name[w], type_name(v));
}

/* obj[key] as w; its path goes to child (PATH_MAX_LEN bytes). */
bool
rpl__avi_get_key(struct imp *im, const json_t *obj, const char *path,
                 const char *key, enum want w, json_t **out, char *child)
{
    json_t *v = json_object_get(obj, key);

    rpl__avi_path_key(child, PATH_MAX_LEN, path, key);
    if (!v) {
        return rpl__avi_refuse(im, C_SHAPE, child, "%s: missing (expected %s)",
                               child, want_name[w]);
    }
    if (!rpl__avi_check_type(im, v, child, w)) {
        return false;
    }
    *out = v;
    return true;
}

/* arr[i] as w, with its path in child. */
bool
rpl__avi_get_index(struct imp *im, const json_t *arr, const char *path,
                   size_t i, enum want w, json_t **out, char *child)
{
    json_t *v = json_array_get(arr, i);

    rpl__avi_path_index(child, PATH_MAX_LEN, path, i);
    if (!v || !rpl__avi_check_type(im, v, child, w)) {
        return false;
    }
    *out = v;
    return true;
}

/* ------------------------------------------------------------- players */

/* The seat of a display name, 0 for none. */
size_t
rpl__avi_seat_of(const struct imp *im, const char *name)
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
bool
rpl__avi_get_player(struct imp *im, const json_t *v, const char *path,
                    size_t *seat)
{
    if (!rpl__avi_check_type(im, v, path, W_STRING)) {
        return false;
    }
    *seat = rpl__avi_seat_of(im, json_string_value(v));
    if (*seat == 0) {
        return rpl__avi_refuse(im, C_RECORD, path, "%s: \"%s\" is not a player",
                               path, json_string_value(v));
    }
    return true;
}

/* The name of seat k as the log holds it: the record's name when it
 * holds no code point camelog(5) refuses in a name (a control, format or
 * invisible character), else its safe form, that of rpl_text_escape():
 * each such code point written \u{XXXX} (\xHH below U+0080) and each
 * backslash doubled, so that no two record names share a safe form and
 * a spoof shows what it is.  jansson has checked the UTF-8. */
static bool
map_name(struct imp *im, size_t k, const char *s, const char *npath)
{
    uint32_t bad = 0;
    size_t len = strlen(s);

    if (rpl__name_ok(s, len, &bad)) {
        if (len > MAX_NAME) {
            return rpl__avi_refuse(im, C_NAME, npath,
                                   "%s: a seat name is 1 to %d bytes", npath,
                                   MAX_NAME);
        }
        memcpy(im->shown[k], s, len + 1);
        return true;
    }
    len = rpl_text_escape(s, im->shown[k], sizeof(im->shown[k]));
    if (len > MAX_NAME) {
        return rpl__avi_refuse(
            im, C_NAME, npath,
            "%s: the name holds characters a seat name may not hold "
            "(camelog(5), Seat names), and its safe form has %zu bytes, "
            "over %d",
            npath, len, MAX_NAME);
    }
    return true;
}

bool
rpl__avi_read_players(struct imp *im)
{
    char path[PATH_MAX_LEN], ppath[PATH_MAX_LEN], npath[PATH_MAX_LEN];
    json_t *players, *p, *name;
    size_t i, k, n;

    if (!rpl__avi_get_key(im, im->root, "", "players", W_ARRAY, &players,
                          path)) {
        return false;
    }
    n = json_array_size(players);
    if (n < MIN_SEATS || n > MAX_SEATS) {
        return rpl__avi_refuse(
            im, C_PLAYERS, path,
            "%s: %zu players; the rules are for 5 to 10 (H-1)", path, n);
    }
    im->n = n;
    for (i = 0; i < n; i++) {
        const char *s;

        if (!rpl__avi_get_index(im, players, path, i, W_OBJECT, &p, ppath) ||
            !rpl__avi_get_key(im, p, ppath, "name", W_STRING, &name, npath)) {
            return false;
        }
        s = json_string_value(name);
        if (json_string_length(name) == 0) {
            return rpl__avi_refuse(im, C_NAME, npath,
                                   "%s: a seat name is 1 to %d bytes", npath,
                                   MAX_NAME);
        }
        if (strlen(s) != json_string_length(name)) {
            return rpl__avi_refuse(im, C_NAME, npath,
                                   "%s: the name holds U+0000", npath);
        }
        if (!map_name(im, i + 1, s, npath)) {
            return false;
        }
        im->names[i + 1] = s;
        for (k = 1; k <= i; k++) {
            if (strcmp(im->shown[k], im->shown[i + 1]) == 0) {
                return rpl__avi_refuse(
                    im, C_NAME, npath,
                    "%s: two players are named \"%s\" (seats %zu and "
                    "%zu)",
                    npath, im->shown[k], k, i + 1);
            }
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

/* The seat given the Assassin's power of several flags: the game ends
 * without an assassination when it is played at all (the assassination
 * refuses several flags), so the choice changes no line of the game but
 * the deal: the first EVIL MINION or ASSASSIN flagged, in seat order
 * (the official Assassin, no house rule), else the first seat flagged. */
static size_t
power_seat(const struct imp *im, const char *const *site)
{
    size_t i;

    for (i = 0; i < im->nflagged; i++) {
        const size_t k = im->flagged[i];

        if (strcmp(site[k], "EVIL MINION") == 0 ||
            strcmp(site[k], "ASSASSIN") == 0) {
            return k;
        }
    }
    return im->flagged[0];
}

/* outcome.roles: every player once, with a role of the official game,
 * the assassin flag on evil roles only, and the power on one seat. */
bool
rpl__avi_read_roles(struct imp *im, const json_t *outcome)
{
    char path[PATH_MAX_LEN], epath[PATH_MAX_LEN], kpath[PATH_MAX_LEN];
    const char *site[MAX_SEATS + 1] = {NULL};
    bool flag_of[MAX_SEATS + 1] = {false};
    json_t *roles, *e, *v;
    size_t i, k, seat;
    bool has_merlin = false, has_percival = false;

    if (!rpl__avi_get_key(im, outcome, "outcome", "roles", W_ARRAY, &roles,
                          path)) {
        return false;
    }
    for (i = 0; i < json_array_size(roles); i++) {
        const char *token;
        bool flag;

        if (!rpl__avi_get_index(im, roles, path, i, W_OBJECT, &e, epath) ||
            !rpl__avi_get_key(im, e, epath, "name", W_STRING, &v, kpath) ||
            !rpl__avi_get_player(im, v, kpath, &seat)) {
            return false;
        }
        if (im->roles[seat]) {
            return rpl__avi_refuse(im, C_RECORD, kpath, "%s: %s has two roles",
                                   kpath, im->shown[seat]);
        }
        if (!rpl__avi_get_key(im, e, epath, "role", W_STRING, &v, kpath)) {
            return false;
        }
        site[seat] = json_string_value(v);
        token = role_token(site[seat]);
        if (!token) {
            return rpl__avi_refuse(
                im, C_ROLE, kpath,
                "%s: \"%s\" is not a character of the official "
                "game (H-6)",
                kpath, site[seat]);
        }
        if (!rpl__avi_get_key(im, e, epath, "assassin", W_BOOLEAN, &v, kpath)) {
            return false;
        }
        flag = json_is_true(v);
        if (!flag && strcmp(token, "assassin") == 0) {
            return rpl__avi_refuse(
                im, C_RECORD, kpath,
                "%s: %s is the ASSASSIN without the assassin flag", kpath,
                im->shown[seat]);
        }
        if (flag && !is_evil_token(token)) {
            return rpl__avi_refuse(
                im, C_RECORD, kpath,
                "%s: %s (%s) has the assassin flag, but only an "
                "evil role can hold the Assassin's power",
                kpath, site[seat], im->shown[seat]);
        }
        flag_of[seat] = flag;
        has_merlin = has_merlin || strcmp(token, "merlin") == 0;
        has_percival = has_percival || strcmp(token, "percival") == 0;
        im->roles[seat] = token;
    }
    for (k = 1; k <= im->n; k++) {
        if (!im->roles[k]) {
            return rpl__avi_refuse(im, C_RECORD, path, "%s: no role for %s",
                                   path, im->shown[k]);
        }
        if (flag_of[k]) {
            im->flagged[im->nflagged++] = k;
        }
    }
    if (im->nflagged > 0) {
        im->assassin = power_seat(im, site);
        if (strcmp(im->roles[im->assassin], "minion") == 0) {
            im->roles[im->assassin] = "assassin";
        } else if (strcmp(im->roles[im->assassin], "assassin") != 0) {
            /* Morgana, Mordred or Oberon holds the power: a house rule. */
            im->variants |= 1u << power_variant(im->roles[im->assassin]);
        }
    }
    if (has_merlin && im->assassin == 0) {
        return rpl__avi_refuse(
            im, C_CONFIG, path,
            "%s: Merlin is in play but nobody has the assassin "
            "flag (H-4: merlin needs an assassin)",
            path);
    }
    if (has_percival && !has_merlin) {
        im->variants |= 1u << AV_V_PERCIVAL_ALONE;
    }
    return true;
}

/* Who holds the assassin flag, for a refusal: "A", "A and B" or "A, B
 * and C". */
void
rpl__avi_flag_holders(const struct imp *im, char *out, size_t cap)
{
    size_t i, len = 0;

    out[0] = '\0';
    for (i = 0; i < im->nflagged && len < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 == im->nflagged ? " and " : ", ";
        const int w = snprintf(out + len, cap - len, "%s%s", sep,
                               im->shown[im->flagged[i]]);

        if (w < 0) {
            break;
        }
        len += (size_t)w;
    }
}

/* Whether the shot the record holds names a seat the Assassin saw at
 * night: the site allows it, the official rules do not, so it
 * declares the variant assassin-names-evil.  The night is that of
 * camelog-avalon(7): every evil role but Oberon sees the others but
 * Oberon.  A shot that is not a player's name is refused later, where
 * the assassination is played. */
void
rpl__avi_read_shot(struct imp *im, const json_t *outcome)
{
    const json_t *v = json_object_get(outcome, "assassinated");
    size_t target;

    if (im->assassin == 0 || !v || !json_is_string(v)) {
        return;
    }
    target = rpl__avi_seat_of(im, json_string_value(v));
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
void
rpl__avi_rules_line(const struct imp *im, char *out, size_t cap)
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
bool
rpl__avi_read_options(struct imp *im)
{
    char path[PATH_MAX_LEN], kpath[PATH_MAX_LEN];
    json_t *opts = json_object_get(im->root, "options"), *v;
    const char *key;

    if (!opts) {
        return true;
    }
    snprintf(path, sizeof(path), "options");
    if (!rpl__avi_check_type(im, opts, path, W_OBJECT)) {
        return false;
    }
    json_object_foreach(opts, key, v)
    {
        rpl__avi_path_key(kpath, sizeof(kpath), path, key);
        /* Whether the site showed its game log during play. */
        if (strcmp(key, "inGameLog") == 0) {
            if (!rpl__avi_check_type(im, v, kpath, W_BOOLEAN)) {
                return false;
            }
            continue;
        }
        return rpl__avi_refuse(
            im, C_OPTION, kpath,
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
bool
rpl__avi_read_keys(struct imp *im)
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
        rpl__avi_path_key(path, sizeof(path), "", key);
        if (i == sizeof(known) / sizeof(known[0])) {
            return rpl__avi_refuse(
                im, C_SHAPE, path,
                "%s: a field of no avalongame format camelog "
                "knows",
                path);
        }
        if (strcmp(key, "__collections__") == 0) {
            if (!rpl__avi_check_type(im, v, path, W_OBJECT)) {
                return false;
            }
            if (json_object_size(v) != 0) {
                return rpl__avi_refuse(
                    im, C_SHAPE, path,
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
    rpl__avi_path_key(dpath, sizeof(dpath), path, "__datatype__");
    if (!json_is_string(dt) ||
        strcmp(json_string_value(dt), "timestamp") != 0) {
        return rpl__avi_refuse(
            im, C_SHAPE, dpath,
            "%s: expected \"timestamp\", the only wrapped type "
            "camelog knows",
            dpath);
    }
    if (json_object_size(t) != 2) {
        return rpl__avi_refuse(
            im, C_SHAPE, path,
            "%s: a wrapped timestamp has only __datatype__ and "
            "value",
            path);
    }
    if (!rpl__avi_get_key(im, t, path, "value", W_OBJECT, &v, ipath)) {
        return false;
    }
    *inner = v;
    return true;
}

/* timeCreated._seconds as YYYY-MM-DDTHH:MM:SSZ; "" when the record has
 * no timeCreated. */
bool
rpl__avi_read_created(struct imp *im, char *out, size_t cap)
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
    if (!rpl__avi_check_type(im, t, path, W_OBJECT) ||
        !unwrap_time(im, t, path, &in, ipath) ||
        !rpl__avi_get_key(im, in, ipath, "_seconds", W_INTEGER, &s, spath)) {
        return false;
    }
    secs = json_integer_value(s);
    /* 0000-01-01 is not a time of these records; 9999-12-31T23:59:59Z
     * is the last the created line can hold. */
    if (secs < 0 || secs > 253402300799) {
        return rpl__avi_refuse(im, C_SHAPE, spath,
                               "%s: %" JSON_INTEGER_FORMAT
                               " is not a time from 1970 to 9999",
                               spath, secs);
    }
    tt = (time_t)secs;
    if (!gmtime_r(&tt, &tm) ||
        strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        return rpl__avi_refuse(im, C_SHAPE, spath, "%s: not a time", spath);
    }
    return true;
}

/* The first leader: the proposer of mission 1's first proposal. */
bool
rpl__avi_read_first(struct imp *im, const json_t *missions)
{
    char mpath[PATH_MAX_LEN], ppath[PATH_MAX_LEN], path[PATH_MAX_LEN];
    char xpath[PATH_MAX_LEN];
    json_t *m, *props, *p, *v;

    if (json_array_size(missions) == 0) {
        return rpl__avi_refuse(im, C_INCOMPLETE, "missions",
                               "missions: no mission, so no first leader");
    }
    if (!rpl__avi_get_index(im, missions, "missions", 0, W_OBJECT, &m, mpath) ||
        !rpl__avi_get_key(im, m, mpath, "proposals", W_ARRAY, &props, ppath)) {
        return false;
    }
    if (json_array_size(props) == 0) {
        return rpl__avi_refuse(im, C_INCOMPLETE, ppath,
                               "%s: no proposal, so no first leader", ppath);
    }
    return rpl__avi_get_index(im, props, ppath, 0, W_OBJECT, &p, path) &&
           rpl__avi_get_key(im, p, path, "proposer", W_STRING, &v, xpath) &&
           rpl__avi_get_player(im, v, xpath, &im->first);
}

bool
rpl__avi_original_id(struct imp *im)
{
    const char *base = im->in->name;
    size_t len, i;

    len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".json") == 0) {
        len -= 5;
    }
    if (len == 0 || len > 128) {
        return rpl__avi_refuse(im, C_ID, NULL,
                               "the file name without .json must have 1 to 128 "
                               "bytes: it is the game's original id");
    }
    for (i = 0; i < len; i++) {
        if (base[i] < 0x21 || base[i] > 0x7e || base[i] == '"') {
            return rpl__avi_refuse(
                im, C_ID, NULL,
                "the file name must be printable ASCII without "
                "space or quote: it is the game's original id");
        }
    }
    memcpy(im->plan->oid, base, len);
    im->plan->oid[len] = '\0';
    return true;
}

/* Parses the record into im->root. */
bool
rpl__avi_load_record(struct imp *im)
{
    json_error_t jerr;

    im->root = json_loadb(im->in->record, im->in->record_len,
                          JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!im->root) {
        return rpl__avi_refuse(im, C_SYNTAX, NULL,
                               "not JSON: line %d column %d: %s", jerr.line,
                               jerr.column, jerr.text);
    }
    return rpl__avi_check_type(im, im->root, "", W_OBJECT);
}