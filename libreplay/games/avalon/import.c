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
#include "import.h"
#include "json.h"

/* The source named on the `import` line. */
static const char source_name[] = "avalongame.online";

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
    [C_ASSASSINS] = {"assassins",
                     "assassination by one of several assassin flags"},
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

/* -------------------------------------------------------------- engine */

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
        rpl__commit(commit, NULL, im->seed, im->plan->id, e->label, e->value,
                    im->env.version);
        line[len++] = ' ';
        rpl__hex(line + len, commit, sizeof(commit));
        len += 2 * RPL__HASH;
    }
    rc = rpl__line_split(&ln, line, len, im->nlines + 1, err);
    if (rc == RPL_OK && is_choice && e->label[0] != '\0') {
        rc = g->play->learn(im->st, e->label, e->value, err);
    }
    memset(&applied, 0, sizeof(applied));
    if (rc == RPL_OK) {
        rc = g->play->apply(im->st, &ln, &im->env, &applied, err);
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

    while (rc == RPL_OK && im->in->game->play->pending(im->st, &im->env, &e)) {
        rc = engine_write(im, &e, false, err);
    }
    return rc;
}

/* Who must act next: a seat, or 0 when the game is over. */
static size_t
engine_turn(const struct imp *im)
{
    if (!im->started || im->in->game->play->is_over(im->st)) {
        return 0;
    }
    return im->in->game->play->turn(im->st);
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
    if (g->play->is_over(im->st)) {
        return rpl__err(err, RPL_E_STATE, 0, "the game is over");
    }
    rc = g->live->action(im->st, &im->env, action, &e, err);
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
        return rpl__avi_refuse(im, C_INTERNAL, NULL, "out of memory");
    }
    im->env.ctx = im->in->ctx;
    im->env.id = plan->id;
    im->env.names = im->name_ptrs;
    im->env.warn = rpl__no_warning;
    im->env.imported = true;
    im->env.version = 2;
    im->name_ptrs[0] = "";
    for (k = 1; k <= im->n; k++) {
        im->name_ptrs[k] = im->shown[k];
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
        rc = g->play->rules(im->st, &ln, &im->env, &seats, &err);
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
        rc = g->import->import_deal(im->st, &im->env, deal, im->first, &err);
    }
    if (rc == RPL_OK) {
        im->started = true;
        rc = engine_drain(im, &err);
    }
    if (rc == RPL_E_RULES) {
        return rpl__avi_refuse(im, C_CONFIG, "outcome.roles",
                               "outcome.roles: %s",
                               rpl__avi_error_text(rc, &err));
    }
    if (rc != RPL_OK) {
        return rpl__avi_refuse_lib(im, C_INVALID, "", rc, &err);
    }
    return true;
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
                                   (int)(digits + 1), p, im->shown[seat]);

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
        return rpl__avi_refuse_lib(im, C_INTERNAL, context, st, &err);
    }
    with_names(im, rpl__avi_error_text(st, &err), named, sizeof(named));
    return rpl__avi_refuse(im, C_ILLEGAL, path, "%s: %s", context, named);
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
        rpl__avi_path_index(epath, sizeof(epath), path, i);
        if (!rpl__avi_get_player(im, json_array_get(arr, i), epath, &seat)) {
            return false;
        }
        if (*mask & (1u << seat)) {
            return rpl__avi_refuse(im, twice, epath,
                                   "%s: %s appears twice in %s", context,
                                   im->shown[seat], path);
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
    if (!rpl__avi_get_key(im, prop, path, "proposer", W_STRING, &v, kpath) ||
        !rpl__avi_get_player(im, v, kpath, &proposer)) {
        return false;
    }
    leader = engine_turn(im);
    if (proposer != leader) {
        return rpl__avi_refuse(
            im, C_ORDER, kpath,
            "%s: proposer %s is not the next leader (expected %s)", ctx,
            im->shown[proposer],
            leader >= 1 && leader <= im->n ? im->shown[leader] : "nobody");
    }
    if (!rpl__avi_get_key(im, prop, path, "team", W_ARRAY, &team, kpath) ||
        !read_seats(im, team, kpath, C_ILLEGAL, ctx, &team_mask) ||
        !rpl__avi_get_key(im, prop, path, "votes", W_ARRAY, &votes, kpath) ||
        !read_seats(im, votes, kpath, C_RECORD, ctx, &yes_mask) ||
        !rpl__avi_get_key(im, prop, path, "state", W_STRING, &v, kpath)) {
        return false;
    }
    state = json_string_value(v);
    if (strcmp(state, "APPROVED") != 0 && strcmp(state, "REJECTED") != 0) {
        return rpl__avi_refuse(
            im, C_SHAPE, kpath,
            "%s: expected \"APPROVED\" or \"REJECTED\", got \"%s\"", kpath,
            state);
    }
    if (team_mask == 0) {
        return rpl__avi_refuse(im, C_ILLEGAL, path, "%s: the team is empty",
                               ctx);
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
        return rpl__avi_refuse(
            im, C_VOTE, path,
            "%s: the site %s the team with %zu of %zu votes; the "
            "official rules say \"%s\" (a majority of all players "
            "approves)",
            ctx, *approved ? "rejected" : "approved", json_array_size(votes),
            im->n, line);
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
        return rpl__avi_refuse(
            im, C_RECORD, "outcome.votes",
            "%s: outcome.votes has no cards for it (%zu entries)", ctx,
            json_array_size(cards_all));
    }
    if (!rpl__avi_get_index(im, cards_all, "outcome.votes", im->played,
                            W_OBJECT, &cards, path)) {
        return false;
    }
    json_object_foreach(cards, key, v)
    {
        rpl__avi_path_key(kpath, sizeof(kpath), path, key);
        if (!rpl__avi_check_type(im, v, kpath, W_BOOLEAN)) {
            return false;
        }
        seat = rpl__avi_seat_of(im, key);
        if (seat == 0) {
            return rpl__avi_refuse(
                im, C_RECORD, kpath,
                "%s: a quest card for \"%s\", who is not a player", ctx, key);
        }
        if (!(mask & (1u << seat))) {
            return rpl__avi_refuse(
                im, C_RECORD, kpath,
                "%s: a quest card for %s, who is not on the team", ctx, key);
        }
    }
    for (k = 1; k <= im->n; k++) {
        if (!(mask & (1u << k))) {
            continue;
        }
        v = json_object_get(cards, im->names[k]);
        if (!v) {
            rpl__avi_path_key(kpath, sizeof(kpath), path, im->shown[k]);
            return rpl__avi_refuse(im, C_RECORD, kpath,
                                   "%s: no quest card for %s", ctx,
                                   im->shown[k]);
        }
        fails += json_is_false(v) ? 1 : 0;
    }
    if (!rpl__avi_get_key(im, mission, mpath, "numFails", W_INTEGER, &nf,
                          kpath)) {
        return false;
    }
    if (json_integer_value(nf) != (json_int_t)fails) {
        return rpl__avi_refuse(im, C_RECORD, kpath,
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
            rpl__avi_path_key(kpath, sizeof(kpath), mpath, "state");
            return rpl__avi_refuse(
                im, C_RESULT, kpath,
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

    if (!rpl__avi_get_key(im, outcome, "outcome", "assassinated",
                          W_STRING_OR_NULL, &v, path)) {
        return false;
    }
    if (json_is_null(v)) {
        return rpl__avi_refuse(
            im, C_END, path,
            "assassination: Merlin is in play and Good has three "
            "successful quests, so the Assassin names a target, "
            "but %s is null",
            path);
    }
    if (!rpl__avi_get_player(im, v, path, &target)) {
        return false;
    }
    if (im->nflagged > 1) {
        char who[MSG_MAX_LEN];

        /* Who named the target decides the line, what A-20 allows and
         * the house rule in force; the record does not say. */
        rpl__avi_flag_holders(im, who, sizeof(who));
        return rpl__avi_refuse(
            im, C_ASSASSINS, "outcome.roles",
            "assassination: %zu seats have the assassin flag (%s); the "
            "record does not say which of them named %s",
            im->nflagged, who, im->shown[target]);
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

    if (!rpl__avi_get_key(im, outcome, "outcome", "votes", W_ARRAY, &cards_all,
                          path)) {
        return false;
    }
    if (json_array_size(missions) > MAX_QUESTS) {
        return rpl__avi_refuse(im, C_SHAPE, "missions",
                               "missions: %zu missions; a game has at most 5",
                               json_array_size(missions));
    }
    for (i = 0; i < json_array_size(missions); i++) {
        const char *state;
        bool approved = false, is_played;
        uint32_t approved_mask = 0, team_mask;

        if (!rpl__avi_get_index(im, missions, "missions", i, W_OBJECT, &m,
                                mpath) ||
            !rpl__avi_get_key(im, m, mpath, "state", W_STRING, &v, kpath)) {
            return false;
        }
        state = json_string_value(v);
        if (strcmp(state, "SUCCESS") != 0 && strcmp(state, "FAIL") != 0 &&
            strcmp(state, "PENDING") != 0) {
            return rpl__avi_refuse(im, C_SHAPE, kpath,
                                   "%s: expected \"SUCCESS\", \"FAIL\" or "
                                   "\"PENDING\", got \"%s\"",
                                   kpath, state);
        }
        is_played = strcmp(state, "PENDING") != 0;
        if (!rpl__avi_get_key(im, m, mpath, "proposals", W_ARRAY, &props,
                              ppath) ||
            !rpl__avi_get_key(im, m, mpath, "team", W_ARRAY, &team, kpath) ||
            !read_seats(im, team, kpath, C_RECORD, "team", &team_mask)) {
            return false;
        }
        if (engine_turn(im) == 0) {
            if (is_played || json_array_size(props) > 0 || team_mask != 0) {
                return rpl__avi_refuse(
                    im, C_AFTER_END, mpath,
                    "mission %zu: recorded after the end of the "
                    "game",
                    i + 1);
            }
            continue;
        }
        for (j = 0; j < json_array_size(props); j++) {
            if (engine_turn(im) == 0 || approved) {
                rpl__avi_path_index(path, sizeof(path), ppath, j);
                return rpl__avi_refuse(
                    im, approved ? C_RECORD : C_AFTER_END, path,
                    "mission %zu proposal %zu: recorded after %s", i + 1, j + 1,
                    approved ? "the team was approved" : "the end of the game");
            }
            if (!rpl__avi_get_index(im, props, ppath, j, W_OBJECT, &p, path) ||
                !play_proposal(im, i, j, p, path, &approved, &approved_mask)) {
                return false;
            }
        }
        if (!is_played) {
            if (approved) {
                return rpl__avi_refuse(
                    im, C_INCOMPLETE, mpath,
                    "mission %zu: a team was approved but the "
                    "quest is PENDING",
                    i + 1);
            }
            if (engine_turn(im) != 0) {
                return rpl__avi_refuse(
                    im, C_INCOMPLETE, mpath,
                    "mission %zu: still PENDING, but the game has "
                    "not ended",
                    i + 1);
            }
            continue;
        }
        if (!approved) {
            return rpl__avi_refuse(
                im, C_RECORD, mpath,
                "mission %zu: recorded as %s, but no team was "
                "approved",
                i + 1, state);
        }
        if (team_mask != approved_mask) {
            return rpl__avi_refuse(
                im, C_RECORD, kpath,
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
        rpl__avi_path_index(path, sizeof(path), "outcome.votes", im->played);
        return rpl__avi_refuse(
            im, C_RECORD, path,
            "outcome.votes has %zu entries for %zu quests played",
            json_array_size(cards_all), im->played);
    }
    if (engine_turn(im) != 0) {
        return rpl__avi_refuse(
            im, C_INCOMPLETE, "missions",
            "the record stops before the end of the game (p%zu, "
            "%s, is to act)",
            engine_turn(im), im->shown[engine_turn(im)]);
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

    im->in->game->play->outcome(im->st, &winner, &reason);
    if (!rpl__avi_get_key(im, outcome, "outcome", "state", W_STRING, &v,
                          path)) {
        return false;
    }
    state = json_string_value(v);
    if (strcmp(state, "GOOD_WIN") != 0 && strcmp(state, "EVIL_WIN") != 0) {
        return rpl__avi_refuse(
            im, C_SHAPE, path,
            "%s: expected \"GOOD_WIN\" or \"EVIL_WIN\", got \"%s\"", path,
            state);
    }
    if (strcmp(state, "GOOD_WIN") == 0 ? strcmp(winner, "good") != 0
                                       : strcmp(winner, "evil") != 0) {
        return rpl__avi_refuse(
            im, C_END, path,
            "%s: the site says %s; the official rules end the "
            "game \"end %s %s\"",
            path, state, winner, reason);
    }
    if (!rpl__avi_get_key(im, outcome, "outcome", "message", W_STRING, &v,
                          path)) {
        return false;
    }
    message = json_string_value(v);
    for (i = 0; i < NEND_MAP; i++) {
        if (strcmp(end_map[i].message, message) == 0) {
            break;
        }
    }
    if (i == NEND_MAP) {
        return rpl__avi_refuse(im, C_END, path,
                               "%s: \"%s\" is not an end camelog knows", path,
                               message);
    }
    if (strcmp(end_map[i].winner, winner) != 0 ||
        ((!end_map[i].reasons[0] ||
          strcmp(end_map[i].reasons[0], reason) != 0) &&
         (!end_map[i].reasons[1] ||
          strcmp(end_map[i].reasons[1], reason) != 0))) {
        return rpl__avi_refuse(
            im, C_END, path,
            "%s: the site says \"%s\"; the official rules end the "
            "game \"end %s %s\"",
            path, message, winner, reason);
    }
    if (!im->has_shot) {
        v = json_object_get(outcome, "assassinated");
        rpl__avi_path_key(path, sizeof(path), "outcome", "assassinated");
        if (v && !json_is_null(v)) {
            return rpl__avi_refuse(
                im, C_END, path,
                "%s: the site has an assassination, but the "
                "official rules have none in this game (\"end %s "
                "%s\")",
                path, winner, reason);
        }
    }
    return true;
}

/* The original id: the file name without its directory and ".json". */

/* ------------------------------------------------------------- convert */

/* The record on the engine; on success the plan is complete. */
static bool
play_record(struct imp *im)
{
    struct rpl__import_plan *plan = im->plan;
    char path[PATH_MAX_LEN];
    json_t *outcome, *missions;
    size_t k;

    if (!rpl__avi_original_id(im) || !rpl__avi_load_record(im) ||
        !rpl__avi_read_players(im) ||
        !rpl__avi_get_key(im, im->root, "", "outcome", W_OBJECT, &outcome,
                          path) ||
        !rpl__avi_read_roles(im, outcome) || !rpl__avi_read_options(im) ||
        !rpl__avi_read_keys(im) ||
        !rpl__avi_read_created(im, plan->created, sizeof(plan->created)) ||
        !rpl__avi_get_key(im, im->root, "", "missions", W_ARRAY, &missions,
                          path) ||
        !rpl__avi_read_first(im, missions)) {
        return false;
    }
    rpl__avi_read_shot(im, outcome);
    rpl__avi_rules_line(im, plan->rules, sizeof(plan->rules));
    plan->seats = im->n;
    plan->first = im->first;
    for (k = 1; k <= im->n; k++) {
        snprintf(plan->names[k - 1], sizeof(plan->names[k - 1]), "%s",
                 im->shown[k]);
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
        return rpl__avi_refuse(im, C_INTERNAL, NULL, "out of memory");
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
