/*
 * avalon.c - The Resistance: Avalon (rules/avalon.md) as a game module:
 * the rules line, the deal derived from the seed, every game line checked
 * as it is applied, the reveal and the opens, the views and the
 * descriptions.
 *
 * One code path serves two modes that differ only in what the state
 * knows.  Public (verifying a log before its reveal): no seed, roles and
 * card values unknown; apply() checks what public information decides
 * and keeps every commitment with its line number.  Knowing (the
 * recorder, the replay of a complete log): setup() has dealt the roles
 * and learn() has told the card values before their lines; apply() then
 * also checks the secrets.  reveal() and open() turn a public state into
 * a knowing one, checking every commitment on the way.
 *
 * Every function that fails leaves the state as it was: each apply_*()
 * checks everything first and only then writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "avalon.h"
#include "json.h"

/* ------------------------------------------------------------- tables */

const unsigned char rpl__av_team[6][5] = {
    {2, 3, 2, 3, 3}, {2, 3, 4, 3, 4}, {2, 3, 3, 4, 4},
    {3, 4, 4, 5, 5}, {3, 4, 4, 5, 5}, {3, 4, 4, 5, 5},
};
static const unsigned char av_good_n[6] = {3, 4, 4, 5, 6, 6};
static const unsigned char av_evil_n[6] = {2, 2, 3, 3, 3, 4};

static const char *const role_name[AV_NROLES] = {
    "merlin",  "percival", "servant", "assassin",
    "morgana", "mordred",  "oberon",  "minion",
};

/* By enum av_reason (AV_R_EITHER has no token). */
static const char *const reason_name[] = {
    "",       "quests",  "failures", "rejections", "assassination",
    "missed", "aborted",
};
static const char *const winner_name[] = {
    "", "good", "evil", "evil", "evil", "good", "aborted",
};

enum keyword {
    KW_START,
    KW_DEAL,
    KW_PROPOSE,
    KW_VOTE,
    KW_TEAM,
    KW_CARD,
    KW_QUEST,
    KW_LADY,
    KW_ASSASSINATE,
    KW_END,
    KW_COUNT
};

static const char *const kw_name[KW_COUNT] = {
    "start", "deal",  "propose", "vote",        "team",
    "card",  "quest", "lady",    "assassinate", "end",
};

/* The keyword each phase waits for (-1: none). */
static const int phase_kw[] = {
    [AV_PH_RULES] = -1,      [AV_PH_START] = KW_START,
    [AV_PH_DEAL] = KW_DEAL,  [AV_PH_PROPOSE] = KW_PROPOSE,
    [AV_PH_VOTE] = KW_VOTE,  [AV_PH_TALLY] = KW_TEAM,
    [AV_PH_CARDS] = KW_CARD, [AV_PH_QUEST] = KW_QUEST,
    [AV_PH_LADY] = KW_LADY,  [AV_PH_ASSASSIN] = KW_ASSASSINATE,
    [AV_PH_END] = KW_END,    [AV_PH_OVER] = -1,
};

static const char *const phase_name[] = {
    "rules", "start", "deal", "propose",       "vote", "tally",
    "cards", "quest", "lady", "assassination", "end",  "over",
};

/* ------------------------------------------------------------ helpers */

/* "p1,p3,p5" of a mask ("" for none). */
static void
fmt_mask(char *out, size_t cap, uint16_t mask)
{
    uint8_t seats[AV_MAX_SEATS];
    size_t n = 0;

    for (unsigned k = 1; k <= AV_MAX_SEATS; k++)
        if (mask & bit(k))
            seats[n++] = (uint8_t)k;
    rpl__fmt_seats(out, cap, seats, n);
}

static const char *
side_name(unsigned side)
{
    return side == AV_GOOD ? "good" : side == AV_EVIL ? "evil" : "unknown";
}

static const char *
card_name(unsigned v)
{
    return v == AV_SUCCESS ? "success" : v == AV_FAIL ? "fail" : "unknown";
}

static unsigned
side_of(unsigned role)
{
    return av_is_evil(role) ? AV_EVIL : AV_GOOD;
}

bool
rpl__av_sees(unsigned viewer, unsigned seen)
{
    switch (viewer) {
    case AV_MERLIN:
        return av_is_evil(seen) && seen != AV_MORDRED;
    case AV_PERCIVAL:
        return seen == AV_MERLIN || seen == AV_MORGANA;
    case AV_ASSASSIN:
    case AV_MORGANA:
    case AV_MORDRED:
    case AV_MINION:
        return seen == AV_ASSASSIN || seen == AV_MORGANA ||
               seen == AV_MORDRED || seen == AV_MINION;
    default:
        return false;
    }
}

/* The seats pK sees at night, for roles by seat. */
static uint16_t
seen_mask(const uint8_t *role, unsigned n, unsigned seat)
{
    uint16_t m = 0;

    for (unsigned k = 1; k <= n; k++)
        if (k != seat && rpl__av_sees(role[seat], role[k]))
            m |= bit(k);
    return m;
}

uint16_t
rpl__av_seen(const struct av_state *s, unsigned seat)
{
    return seen_mask(s->role, s->n, seat);
}

unsigned
rpl__av_next_card(const struct av_state *s)
{
    const struct av_quest *q = &s->quest[s->round];
    unsigned played;

    if (s->phase != AV_PH_CARDS)
        return 0;
    played = (unsigned)s->ncards - q->first_card;
    for (unsigned k = 1; k <= s->n; k++) {
        if (!(q->team & bit(k)))
            continue;
        if (played == 0)
            return k;
        played--;
    }
    return 0;
}

/* The night view of pK, "role=merlin sees=p2,p4", for roles by seat. */
static void
view_of(const uint8_t *role, unsigned n, unsigned seat, char *out, size_t cap)
{
    const uint16_t seen = seen_mask(role, n, seat);
    char seats[4 * AV_MAX_SEATS];

    if (!seen) {
        snprintf(out, cap, "role=%s", role_name[role[seat]]);
        return;
    }
    fmt_mask(seats, sizeof(seats), seen);
    snprintf(out, cap, "role=%s sees=%s", role_name[role[seat]], seats);
}

static void
night_view(const struct av_state *s, unsigned seat, char *out, size_t cap)
{
    view_of(s->role, s->n, seat, out, cap);
}

static unsigned
find_role(const uint8_t *role, unsigned n, unsigned r)
{
    for (unsigned k = 1; k <= n; k++)
        if (role[k] == r)
            return k;
    return 0;
}

static unsigned
assassin_seat(const struct av_state *s)
{
    return find_role(s->role, s->n, AV_ASSASSIN);
}

static const char *
seat_name(const struct rpl__env *env, const struct av_state *s, unsigned seat)
{
    if (env && env->names && seat >= 1 && seat <= s->n && env->names[seat] &&
        env->names[seat][0])
        return env->names[seat];
    return NULL;
}

/* "Alice (p1)", or "p1" without a name. */
static void
put_who(struct rpl__buf *b, const struct rpl__env *env,
        const struct av_state *s, unsigned seat)
{
    const char *name = seat_name(env, s, seat);

    if (name)
        rpl__buf_printf(b, "%s (p%u)", name, seat);
    else
        rpl__buf_printf(b, "p%u", seat);
}

/* ------------------------------------------------------------- rules */

static int
role_index(const char *p, size_t n)
{
    for (int i = 0; i < AV_NROLES; i++)
        if (strlen(role_name[i]) == n && memcmp(role_name[i], p, n) == 0)
            return i;
    return -1;
}

static void
warn(const struct rpl__env *env, size_t line, const char *msg)
{
    if (env && env->warn)
        env->warn(env->w, line, msg);
}

static bool
tok_onoff(const struct rpl__tok *t, bool *on)
{
    if (rpl__tok_is(t, "on"))
        *on = true;
    else if (rpl__tok_is(t, "off"))
        *on = false;
    else
        return false;
    return true;
}

static enum rpl_status
av_rules(void *st, const struct rpl__line *ln, const struct rpl__env *env,
         size_t *seats, struct rpl_error *err)
{
    static const char form[] =
        "rules players=N roles=LIST lady=on|off targeting=on|off";
    struct av_state *s = st;
    struct rpl__tok vp, vr, vl, vt;
    unsigned long n = 0;
    size_t count[AV_NROLES] = {0};
    size_t good = 0, evil = 0;
    bool lady = false, targeting = false;
    int last = -1;
    char msg[160];

    if (ln->ntok != 5 || !rpl__tok_is(&ln->tok[0], "rules") ||
        !rpl__tok_kv(&ln->tok[1], "players", &vp) ||
        !rpl__tok_kv(&ln->tok[2], "roles", &vr) ||
        !rpl__tok_kv(&ln->tok[3], "lady", &vl) ||
        !rpl__tok_kv(&ln->tok[4], "targeting", &vt) ||
        !rpl__tok_uint(&vp, 1000, &n) || !tok_onoff(&vl, &lady) ||
        !tok_onoff(&vt, &targeting))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, form);
    for (size_t i = 0; i <= vr.n;) {
        size_t j = i;
        bool lower = true;
        int r;

        while (j < vr.n && vr.p[j] != ',') {
            if (vr.p[j] < 'a' || vr.p[j] > 'z')
                lower = false;
            j++;
        }
        if (j == i || !lower) {
            const struct rpl__tok one = {vr.p + i, j - i};
            char show[64];

            rpl__tok_show(show, sizeof(show), &one);
            return rpl__err(err, RPL_E_SYNTAX, ln->no,
                            "expected a lowercase role name, got \"%s\"", show);
        }
        r = role_index(vr.p + i, j - i);
        if (r < 0) {
            const struct rpl__tok one = {vr.p + i, j - i};
            char show[64];

            rpl__tok_show(show, sizeof(show), &one);
            return rpl__err(err, RPL_E_RULES, ln->no,
                            "H-6: unsupported role \"%s\"", show);
        }
        if (r < last)
            return rpl__err(err, RPL_E_SYNTAX, ln->no,
                            "roles not in canonical order: %s after %s "
                            "(merlin, percival, servant, assassin, "
                            "morgana, mordred, oberon, minion)",
                            role_name[r], role_name[last]);
        last = r;
        count[r]++;
        if (av_is_evil((unsigned)r))
            evil++;
        else
            good++;
        i = j + 1;
    }
    if (n < 5 || n > 10)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "H-1: players=%lu, expected 5 to 10", n);
    for (int r = 0; r < AV_NROLES; r++)
        if (r != AV_SERVANT && r != AV_MINION && count[r] > 1)
            return rpl__err(err, RPL_E_RULES, ln->no,
                            "H-3: at most one %s, got %zu", role_name[r],
                            count[r]);
    if (good != av_good_n[n - 5] || evil != av_evil_n[n - 5])
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "H-2: %lu players need %u good and %u evil roles, "
                        "got %zu good and %zu evil",
                        n, av_good_n[n - 5], av_evil_n[n - 5], good, evil);
    if (count[AV_MERLIN] && !count[AV_ASSASSIN])
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "H-4: merlin needs an assassin");
    if (count[AV_PERCIVAL] && !count[AV_MERLIN])
        return rpl__err(err, RPL_E_RULES, ln->no, "H-5: percival needs merlin");

    memset(s, 0, sizeof(*s));
    s->is_imported = env->imported;
    s->n = (uint8_t)n;
    s->is_lady = lady;
    s->is_targeting = targeting;
    for (int r = 0, k = 0; r < AV_NROLES; r++) {
        s->count[r] = (uint8_t)count[r];
        for (size_t c = 0; c < count[r]; c++)
            s->roster[k++] = (uint8_t)r;
    }
    s->phase = AV_PH_START;
    *seats = n;

    if (n == 5 && count[AV_PERCIVAL] && !count[AV_MORDRED] &&
        !count[AV_MORGANA])
        warn(env, ln->no,
             "O-1: percival at 5 players should come with mordred or "
             "morgana");
    if (lady && n < 7) {
        snprintf(msg, sizeof(msg),
                 "O-2: the lady of the lake with %lu players (advised from "
                 "7)",
                 n);
        warn(env, ln->no, msg);
    }
    if (count[AV_MORGANA] && !count[AV_PERCIVAL])
        warn(env, ln->no, "W-1: morgana without percival has no effect");
    if (count[AV_MORDRED] && !count[AV_MERLIN])
        warn(env, ln->no, "W-2: mordred without merlin has no effect");
    if (!count[AV_MERLIN])
        warn(env, ln->no,
             "W-3: no merlin: good wins on the third success, no "
             "assassination");
    if (count[AV_SERVANT] > 5 || count[AV_MINION] > 3) {
        snprintf(msg, sizeof(msg),
                 "W-4: %zu servants and %zu minions: the box has 5 and 3",
                 count[AV_SERVANT], count[AV_MINION]);
        warn(env, ln->no, msg);
    }
    return RPL_OK;
}

/* -------------------------------------------------------------- deal */

/* The deal of camelog(5): roles shuffled on stream "roles", the first
 * leader on stream "leader". */
static void
derive(const struct av_state *s, const uint8_t seed[32],
       uint8_t role[AV_MAX_SEATS + 1], uint8_t *leader)
{
    struct rpl__stream rs;
    uint8_t roles[AV_MAX_SEATS];

    memcpy(roles, s->roster, s->n);
    rpl__stream_init(&rs, seed, "roles");
    rpl__stream_shuffle(&rs, roles, s->n);
    rpl__stream_init(&rs, seed, "leader");
    *leader = (uint8_t)(1 + rpl__stream_uniform(&rs, s->n));
    rpl__stream_wipe(&rs);
    role[0] = 0;
    for (unsigned k = 1; k <= s->n; k++)
        role[k] = roles[k - 1];
    for (unsigned k = (unsigned)s->n + 1; k <= AV_MAX_SEATS; k++)
        role[k] = 0;
    sodium_memzero(roles, sizeof(roles));
}

/* The state learns the deal: roles, and what follows from them for lines
 * already applied (Lady results, the end after an assassination). */
static void
know_deal(struct av_state *s, const uint8_t role[AV_MAX_SEATS + 1],
          uint8_t leader)
{
    memcpy(s->role, role, sizeof(s->role));
    s->leader0 = leader;
    s->knows = 1;
    for (unsigned i = 0; i < s->nladies; i++)
        s->lady[i].side = (uint8_t)side_of(s->role[s->lady[i].target]);
    if (s->phase == AV_PH_END && s->exp_reason == AV_R_EITHER)
        s->exp_reason =
            s->role[s->target] == AV_MERLIN ? AV_R_ASSASSINATION : AV_R_MISSED;
}

static enum rpl_status
av_setup(void *st, const struct rpl__env *env, struct rpl_error *err)
{
    struct av_state *s = st;
    uint8_t role[AV_MAX_SEATS + 1];
    uint8_t leader;

    if (s->phase == AV_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "setup before the rules line");
    if (!env->seed)
        return rpl__err(err, RPL_E_ARG, 0, "setup needs the seed");
    derive(s, env->seed, role, &leader);
    know_deal(s, role, leader);
    sodium_memzero(role, sizeof(role));
    return RPL_OK;
}

const char *
rpl__avalon_role(const void *st, size_t seat)
{
    const struct av_state *s = st;

    if (!s->knows || seat < 1 || seat > s->n)
        return NULL;
    return role_name[s->role[seat]];
}

enum rpl_status
rpl__avalon_deal(void *st, const char *const *roles, size_t nroles,
                 size_t leader, struct rpl_error *err)
{
    struct av_state *s = st;
    uint8_t role[AV_MAX_SEATS + 1] = {0};
    uint8_t count[AV_NROLES] = {0};

    if (s->phase == AV_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "deal before the rules line");
    if (nroles != s->n || leader < 1 || leader > s->n)
        return rpl__err(err, RPL_E_ARG, 0,
                        "a deal needs %u roles and a leader p1..p%u", s->n,
                        s->n);
    for (size_t k = 1; k <= nroles; k++) {
        const int r = role_index(roles[k - 1], strlen(roles[k - 1]));

        if (r < 0)
            return rpl__err(err, RPL_E_ARG, 0, "p%zu: unknown role", k);
        role[k] = (uint8_t)r;
        count[r]++;
    }
    if (memcmp(count, s->count, sizeof(count)) != 0)
        return rpl__err(err, RPL_E_ARG, 0,
                        "the deal is not a permutation of the rules line's "
                        "roles");
    know_deal(s, role, (uint8_t)leader);
    return RPL_OK;
}

/* ------------------------------------------------------------ parsing */

/* What one game line says, once its syntax is checked. */
struct parsed {
    size_t a, b;        /* seats */
    unsigned long x, y; /* numbers: slot, tally, fails */
    bool yes;           /* vote yes, team approved, quest success */
    uint16_t team;
    size_t nteam;    /* entries, duplicates included */
    size_t dup;      /* a seat named twice, 0 when none */
    unsigned reason; /* end */
    uint8_t commit[32];
};

static int
keyword(const struct rpl__tok *t)
{
    for (int k = 0; k < KW_COUNT; k++)
        if (rpl__tok_is(t, kw_name[k]))
            return k;
    return -1;
}

/* The generic form of a line, for syntax errors. */
static void
form(const struct av_state *s, int kw, char *out, size_t cap)
{
    switch (kw) {
    case KW_START:
        snprintf(out, cap, "%s",
                 s->is_lady ? "start leader=pL lady=pH" : "start leader=pL");
        break;
    case KW_DEAL:
        snprintf(out, cap, "deal pK <commitment>");
        break;
    case KW_PROPOSE:
        snprintf(out, cap, "%s",
                 s->is_targeting ? "propose pL qS pA,pB,..."
                                 : "propose pL pA,pB,...");
        break;
    case KW_VOTE:
        snprintf(out, cap, "vote pK yes|no");
        break;
    case KW_TEAM:
        snprintf(out, cap, "team approved|rejected Y-N");
        break;
    case KW_CARD:
        snprintf(out, cap, "card pK <commitment>");
        break;
    case KW_QUEST:
        snprintf(out, cap, "quest S success|fail fails=F");
        break;
    case KW_LADY:
        snprintf(out, cap, "lady pH pT <commitment>");
        break;
    case KW_ASSASSINATE:
        snprintf(out, cap, "assassinate pA pT");
        break;
    default:
        snprintf(out, cap, "end <winner> <reason>|end aborted");
        break;
    }
}

/* Fail cards among the known values of round r's quest; false when one
 * is unknown. */
static bool
known_fails(const struct av_state *s, unsigned r, unsigned *fails)
{
    const struct av_quest *q = &s->quest[r];
    unsigned f = 0;

    for (unsigned i = q->first_card; i < s->ncards; i++) {
        if (s->card[i].round != r)
            continue;
        if (!s->card[i].value)
            return false;
        f += s->card[i].value == AV_FAIL;
    }
    *fails = f;
    return true;
}

/* The line the state waits for, as precisely as it knows it. */
static void
expected(const struct av_state *s, char *out, size_t cap)
{
    const struct av_prop *pr = s->nprops ? &s->prop[s->nprops - 1] : NULL;
    unsigned f;

    switch (s->phase) {
    case AV_PH_START:
        if (s->knows && s->is_lady)
            snprintf(out, cap, "start leader=p%u lady=p%u", s->leader0,
                     s->leader0 == 1 ? s->n : s->leader0 - 1u);
        else if (s->knows)
            snprintf(out, cap, "start leader=p%u", s->leader0);
        else
            form(s, KW_START, out, cap);
        break;
    case AV_PH_DEAL:
        snprintf(out, cap, "deal p%u <commitment>", s->ndeals + 1u);
        break;
    case AV_PH_PROPOSE:
        if (s->is_targeting)
            snprintf(out, cap, "propose p%u qS pA,pB,...", av_leader(s));
        else
            snprintf(out, cap, "propose p%u pA,pB,...", av_leader(s));
        break;
    case AV_PH_VOTE:
        snprintf(out, cap, "vote p%u yes|no", pr->nvotes + 1u);
        break;
    case AV_PH_TALLY: {
        const unsigned y = popcount16(pr->yes);

        snprintf(out, cap, "team %s %u-%u",
                 y >= s->n / 2u + 1u ? "approved" : "rejected", y, s->n - y);
        break;
    }
    case AV_PH_CARDS:
        snprintf(out, cap, "card p%u <commitment>", rpl__av_next_card(s));
        break;
    case AV_PH_QUEST: {
        const struct av_quest *q = &s->quest[s->round];

        if (s->knows && known_fails(s, s->round, &f))
            snprintf(out, cap, "quest %u %s fails=%u", q->slot,
                     f >= av_fails_needed(s->n, q->slot) ? "fail" : "success",
                     f);
        else
            snprintf(out, cap, "quest %u success|fail fails=F", q->slot);
        break;
    }
    case AV_PH_LADY:
        snprintf(out, cap, "lady p%u pT <commitment>", s->lady_holder);
        break;
    case AV_PH_ASSASSIN:
        if (s->knows)
            snprintf(out, cap, "assassinate p%u pT", assassin_seat(s));
        else
            snprintf(out, cap, "assassinate pA pT");
        break;
    case AV_PH_END:
        if (s->exp_reason == AV_R_EITHER)
            snprintf(out, cap, "end evil assassination|end good missed");
        else
            snprintf(out, cap, "end %s %s", winner_name[s->exp_reason],
                     reason_name[s->exp_reason]);
        break;
    default:
        snprintf(out, cap, "no line");
        break;
    }
}

static bool
parse_team(const struct rpl__tok *t, size_t n, struct parsed *p)
{
    size_t prev = 0;
    bool sorted = true;

    if (t->n == 0)
        return false;
    for (size_t i = 0; i <= t->n;) {
        size_t j = i;
        size_t seat;
        struct rpl__tok one;

        while (j < t->n && t->p[j] != ',')
            j++;
        one.p = t->p + i;
        one.n = j - i;
        if (!rpl__tok_seat(&one, n, &seat))
            return false;
        if (p->team & bit((unsigned)seat)) {
            if (!p->dup)
                p->dup = seat;
        } else if (seat < prev) {
            sorted = false;
        }
        p->team |= bit((unsigned)seat);
        p->nteam++;
        prev = seat;
        i = j + 1;
    }
    return p->dup || sorted;
}

static bool
parse_tally(const struct rpl__tok *t, struct parsed *p)
{
    const char *dash = memchr(t->p, '-', t->n);
    struct rpl__tok y, n;

    if (!dash)
        return false;
    y.p = t->p;
    y.n = (size_t)(dash - t->p);
    n.p = dash + 1;
    n.n = t->n - y.n - 1;
    return rpl__tok_uint(&y, 10, &p->x) && rpl__tok_uint(&n, 10, &p->y);
}

static bool
parse_end(const struct rpl__line *ln, struct parsed *p)
{
    static const struct {
        const char *winner;
        const char *reason;
        unsigned code;
    } ends[] = {
        {"good", "quests", AV_R_QUESTS},
        {"evil", "failures", AV_R_FAILURES},
        {"evil", "rejections", AV_R_REJECTIONS},
        {"evil", "assassination", AV_R_ASSASSINATION},
        {"good", "missed", AV_R_MISSED},
    };

    if (ln->ntok == 2 && rpl__tok_is(&ln->tok[1], "aborted")) {
        p->reason = AV_R_ABORTED;
        return true;
    }
    if (ln->ntok != 3)
        return false;
    for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
        if (rpl__tok_is(&ln->tok[1], ends[i].winner) &&
            rpl__tok_is(&ln->tok[2], ends[i].reason)) {
            p->reason = ends[i].code;
            return true;
        }
    return false;
}

/* Checks the syntax of a line of keyword kw and reads it into p. */
static bool
parse(const struct av_state *s, int kw, const struct rpl__line *ln,
      struct parsed *p)
{
    const struct rpl__tok *t = ln->tok;
    struct rpl__tok v;

    switch (kw) {
    case KW_START:
        if (ln->ntok != (s->is_lady ? 3u : 2u) ||
            !rpl__tok_kv(&t[1], "leader", &v) ||
            !rpl__tok_seat(&v, s->n, &p->a))
            return false;
        return !s->is_lady || (rpl__tok_kv(&t[2], "lady", &v) &&
                               rpl__tok_seat(&v, s->n, &p->b));
    case KW_DEAL:
    case KW_CARD:
        return ln->ntok == 3 && rpl__tok_seat(&t[1], s->n, &p->a) &&
               rpl__tok_hex(&t[2], p->commit, 32);
    case KW_PROPOSE:
        if (ln->ntok != (s->is_targeting ? 4u : 3u) ||
            !rpl__tok_seat(&t[1], s->n, &p->a))
            return false;
        if (s->is_targeting) {
            if (t[2].n < 2 || t[2].p[0] != 'q')
                return false;
            v.p = t[2].p + 1;
            v.n = t[2].n - 1;
            if (!rpl__tok_uint(&v, 5, &p->x) || p->x == 0)
                return false;
        }
        return parse_team(&t[ln->ntok - 1], s->n, p);
    case KW_VOTE:
        if (ln->ntok != 3 || !rpl__tok_seat(&t[1], s->n, &p->a))
            return false;
        p->yes = rpl__tok_is(&t[2], "yes");
        return p->yes || rpl__tok_is(&t[2], "no");
    case KW_TEAM:
        if (ln->ntok != 3)
            return false;
        p->yes = rpl__tok_is(&t[1], "approved");
        return (p->yes || rpl__tok_is(&t[1], "rejected")) &&
               parse_tally(&t[2], p);
    case KW_QUEST:
        if (ln->ntok != 4 || !rpl__tok_uint(&t[1], 5, &p->x) || p->x == 0)
            return false;
        p->yes = rpl__tok_is(&t[2], "success");
        return (p->yes || rpl__tok_is(&t[2], "fail")) &&
               rpl__tok_kv(&t[3], "fails", &v) && rpl__tok_uint(&v, 99, &p->y);
    case KW_LADY:
        return ln->ntok == 4 && rpl__tok_seat(&t[1], s->n, &p->a) &&
               rpl__tok_seat(&t[2], s->n, &p->b) &&
               rpl__tok_hex(&t[3], p->commit, 32);
    case KW_ASSASSINATE:
        return ln->ntok == 3 && rpl__tok_seat(&t[1], s->n, &p->a) &&
               rpl__tok_seat(&t[2], s->n, &p->b);
    case KW_END:
        return parse_end(ln, p);
    default:
        return false;
    }
}

/* ------------------------------------------------------------- apply */

static void
next_round(struct av_state *s)
{
    s->round++;
    s->rejections = 0;
    s->phase = AV_PH_PROPOSE;
}

/* The error "expected <what the state waits for>, got <line>", built
 * only when a line is refused (the state is still the one that refused
 * it). */
static enum rpl_status
fail_want(const struct av_state *s, struct rpl_error *err, enum rpl_status code,
          const struct rpl__line *ln)
{
    char want[96];

    expected(s, want, sizeof(want));
    return rpl__err_expected(err, code, ln, want);
}

static enum rpl_status
apply_start(struct av_state *s, const struct rpl__line *ln,
            const struct parsed *p, struct rpl_error *err)
{
    if (s->is_lady) {
        const size_t right = p->a == 1 ? s->n : p->a - 1;

        if (p->b != right)
            return rpl__err(err, RPL_E_RULES, ln->no,
                            "the lady of the lake starts on p%zu, on the "
                            "right of leader p%zu, got p%zu",
                            right, p->a, p->b);
    }
    if (s->knows && s->leader0 && p->a != s->leader0)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the seed gives the first leader p%u, got p%zu",
                        s->leader0, p->a);
    s->leader1 = (uint8_t)p->a;
    s->start_line = (uint32_t)ln->no;
    if (s->is_lady) {
        s->lady_holder = (uint8_t)p->b;
        s->lady_held = bit((unsigned)p->b);
    }
    s->round = 1;
    s->phase = AV_PH_DEAL;
    return RPL_OK;
}

static enum rpl_status
apply_deal(struct av_state *s, const struct rpl__line *ln,
           const struct parsed *p, struct rpl_error *err)
{
    if (p->a != s->ndeals + 1u)
        return fail_want(s, err, RPL_E_RULES, ln);
    s->ndeals++;
    s->deal_line[p->a] = (uint32_t)ln->no;
    memcpy(s->deal_commit[p->a], p->commit, 32);
    if (s->ndeals == s->n)
        s->phase = AV_PH_PROPOSE;
    return RPL_OK;
}

static enum rpl_status
apply_propose(struct av_state *s, const struct rpl__line *ln,
              const struct parsed *p, struct rpl__applied *out,
              struct rpl_error *err)
{
    const unsigned leader = av_leader(s);
    const unsigned slot = s->is_targeting ? (unsigned)p->x : s->round;
    struct av_prop *pr;
    unsigned size;

    if (p->a != leader)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "p%zu proposes but the leader is p%u", p->a, leader);
    if (s->slots_done & bit(slot))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "quest slot %u has been played", slot);
    if (slot == 5 && s->successes < 2)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "slot 5 needs two successful quests, got %u",
                        s->successes);
    if (p->dup)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "p%zu appears twice in the team", p->dup);
    size = av_team_size(s, slot);
    if (p->nteam != size)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "team for quest %u needs %u seats, got %zu", slot, size,
                        p->nteam);
    if (s->nprops >= AV_MAX_PROPS)
        return rpl__err(err, RPL_E_STATE, ln->no, "too many proposals");
    pr = &s->prop[s->nprops++];
    memset(pr, 0, sizeof(*pr));
    pr->line = (uint32_t)ln->no;
    pr->leader = (uint8_t)leader;
    pr->round = s->round;
    pr->slot = (uint8_t)slot;
    pr->team = p->team;
    s->phase = AV_PH_VOTE;
    out->author = leader;
    return RPL_OK;
}

static enum rpl_status
apply_vote(struct av_state *s, const struct rpl__line *ln,
           const struct parsed *p, struct rpl__applied *out,
           struct rpl_error *err)
{
    struct av_prop *pr = &s->prop[s->nprops - 1];

    if (p->a != pr->nvotes + 1u)
        return fail_want(s, err, RPL_E_RULES, ln);
    if (p->yes)
        pr->yes |= bit((unsigned)p->a);
    pr->nvotes++;
    if (pr->nvotes == s->n)
        s->phase = AV_PH_TALLY;
    out->author = p->a;
    out->opens_group = p->a == 1;
    out->in_group = true;
    return RPL_OK;
}

static enum rpl_status
apply_team(struct av_state *s, const struct rpl__line *ln,
           const struct parsed *p, struct rpl_error *err)
{
    struct av_prop *pr = &s->prop[s->nprops - 1];
    const unsigned y = popcount16(pr->yes);
    const bool approved = y >= s->n / 2u + 1u;

    if (p->yes != approved || p->x != y || p->y != s->n - y)
        return fail_want(s, err, RPL_E_RULES, ln);
    pr->result = approved ? 1 : 2;
    pr->tally_line = (uint32_t)ln->no;
    if (approved) {
        struct av_quest *q = &s->quest[s->round];

        memset(q, 0, sizeof(*q));
        q->slot = pr->slot;
        q->team = pr->team;
        q->size = (uint8_t)popcount16(pr->team);
        q->first_card = s->ncards;
        s->phase = AV_PH_CARDS;
    } else if (++s->rejections == 5) {
        s->phase = AV_PH_END;
        s->exp_reason = AV_R_REJECTIONS;
    } else {
        s->phase = AV_PH_PROPOSE;
    }
    return RPL_OK;
}

static enum rpl_status
apply_card(struct av_state *s, const struct rpl__line *ln,
           const struct parsed *p, struct rpl__applied *out,
           struct rpl_error *err)
{
    const struct av_quest *q = &s->quest[s->round];
    const unsigned value = s->learned[s->round][p->a];
    struct av_card *c;

    if (p->a != rpl__av_next_card(s))
        return fail_want(s, err, RPL_E_RULES, ln);
    if (s->knows && value == AV_FAIL && !av_is_evil(s->role[p->a]))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "p%zu is good and cannot play fail", p->a);
    if (s->ncards >= AV_MAX_CARDS)
        return rpl__err(err, RPL_E_STATE, ln->no, "too many cards");
    c = &s->card[s->ncards++];
    memset(c, 0, sizeof(*c));
    c->line = (uint32_t)ln->no;
    c->round = s->round;
    c->seat = (uint8_t)p->a;
    c->value = (uint8_t)value;
    memcpy(c->commit, p->commit, 32);
    if ((unsigned)s->ncards - q->first_card == q->size)
        s->phase = AV_PH_QUEST;
    out->author = p->a;
    return RPL_OK;
}

static enum rpl_status
apply_quest(struct av_state *s, const struct rpl__line *ln,
            const struct parsed *p, struct rpl_error *err)
{
    struct av_quest *q = &s->quest[s->round];
    const bool failed = p->y >= av_fails_needed(s->n, q->slot);
    unsigned f;

    if (p->x != q->slot)
        return fail_want(s, err, RPL_E_RULES, ln);
    if (p->y > q->size)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "quest %u had %u cards, got fails=%lu", q->slot,
                        q->size, p->y);
    if (p->yes == failed) {
        char exact[64];

        snprintf(exact, sizeof(exact), "quest %u %s fails=%lu", q->slot,
                 failed ? "fail" : "success", p->y);
        return rpl__err_expected(err, RPL_E_RULES, ln, exact);
    }
    if (s->knows && known_fails(s, s->round, &f) && f != p->y)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "quest %u had %u fail card%s, got fails=%lu", q->slot,
                        f, f == 1 ? "" : "s", p->y);
    q->line = (uint32_t)ln->no;
    q->fails = (uint8_t)p->y;
    q->result = failed ? AV_FAIL : AV_SUCCESS;
    s->slots_done |= bit(q->slot);
    if (failed)
        s->failures++;
    else
        s->successes++;
    if (s->failures == 3) {
        s->phase = AV_PH_END;
        s->exp_reason = AV_R_FAILURES;
    } else if (s->successes == 3 && s->count[AV_MERLIN]) {
        s->phase = AV_PH_ASSASSIN;
    } else if (s->successes == 3) {
        s->phase = AV_PH_END;
        s->exp_reason = AV_R_QUESTS;
    } else if (s->is_lady && s->round >= 2 && s->round <= 4) {
        s->phase = AV_PH_LADY;
    } else {
        next_round(s);
    }
    return RPL_OK;
}

static enum rpl_status
apply_lady(struct av_state *s, const struct rpl__line *ln,
           const struct parsed *p, struct rpl__applied *out,
           struct rpl_error *err)
{
    struct av_lady *l;

    if (p->a != s->lady_holder)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "p%zu examines but the lady of the lake is with p%u",
                        p->a, s->lady_holder);
    if (p->b == p->a)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "p%zu cannot examine themself", p->a);
    if (s->lady_held & bit((unsigned)p->b))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "p%zu has held the lady of the lake and cannot be "
                        "examined",
                        p->b);
    if (s->nladies >= AV_MAX_LADY)
        return rpl__err(err, RPL_E_STATE, ln->no, "too many lady lines");
    l = &s->lady[s->nladies++];
    memset(l, 0, sizeof(*l));
    l->line = (uint32_t)ln->no;
    l->round = s->round;
    l->holder = (uint8_t)p->a;
    l->target = (uint8_t)p->b;
    if (s->knows)
        l->side = (uint8_t)side_of(s->role[p->b]);
    memcpy(l->commit, p->commit, 32);
    s->lady_holder = (uint8_t)p->b;
    s->lady_held |= bit((unsigned)p->b);
    next_round(s);
    out->author = p->a;
    return RPL_OK;
}

/* The Assassin's legality for roles by seat; line is the
 * assassinate line. */
static enum rpl_status
check_assassin(const uint8_t *role, unsigned n, size_t line, unsigned actor,
               unsigned target, struct rpl_error *err)
{
    if (role[actor] != AV_ASSASSIN)
        return rpl__err(err, RPL_E_RULES, line,
                        "p%u is not the assassin (p%u is)", actor,
                        find_role(role, n, AV_ASSASSIN));
    if (rpl__av_sees(AV_ASSASSIN, role[target]))
        return rpl__err(err, RPL_E_RULES, line,
                        "p%u cannot name p%u, whom the assassin saw as evil",
                        actor, target);
    return RPL_OK;
}

static enum rpl_status
apply_assassinate(struct av_state *s, const struct rpl__line *ln,
                  const struct parsed *p, struct rpl__applied *out,
                  struct rpl_error *err)
{
    enum rpl_status rc;

    if (p->b == p->a)
        return rpl__err(err, RPL_E_RULES, ln->no, "p%zu cannot name themself",
                        p->a);
    if (s->knows) {
        rc = check_assassin(s->role, s->n, ln->no, (unsigned)p->a,
                            (unsigned)p->b, err);
        if (rc != RPL_OK)
            return rc;
    }
    s->assassin = (uint8_t)p->a;
    s->target = (uint8_t)p->b;
    s->assassinate_line = (uint32_t)ln->no;
    s->phase = AV_PH_END;
    if (s->knows)
        s->exp_reason =
            s->role[p->b] == AV_MERLIN ? AV_R_ASSASSINATION : AV_R_MISSED;
    else
        s->exp_reason = AV_R_EITHER;
    out->author = p->a;
    return RPL_OK;
}

static enum rpl_status
apply_end(struct av_state *s, const struct rpl__line *ln,
          const struct parsed *p, struct rpl_error *err)
{
    switch (s->phase) {
    case AV_PH_START:
        return fail_want(s, err, RPL_E_RULES, ln);
    case AV_PH_END:
        if (p->reason == AV_R_ABORTED ||
            (p->reason != s->exp_reason &&
             !(s->exp_reason == AV_R_EITHER &&
               (p->reason == AV_R_ASSASSINATION || p->reason == AV_R_MISSED))))
            return fail_want(s, err, RPL_E_RULES, ln);
        break;
    default:
        /* Between start and the line that decides the game only an
         * abandoned game may end. */
        if (p->reason != AV_R_ABORTED) {
            const struct rpl__tok all = {ln->text, ln->len};
            char got[64];
            char want[96];

            expected(s, want, sizeof(want));
            rpl__tok_show(got, sizeof(got), &all);
            return rpl__err(err, RPL_E_RULES, ln->no,
                            "the game is not decided: expected \"%s\", got "
                            "\"%s\"",
                            want, got);
        }
        break;
    }
    s->reason = (uint8_t)p->reason;
    s->exp_reason = (uint8_t)p->reason;
    s->end_line = (uint32_t)ln->no;
    s->phase = AV_PH_OVER;
    return RPL_OK;
}

static enum rpl_status
av_apply(void *st, const struct rpl__line *ln, const struct rpl__env *env,
         struct rpl__applied *out, struct rpl_error *err)
{
    struct av_state *s = st;
    struct rpl__applied done = {0, false, false};
    struct parsed p;
    enum rpl_status rc;
    int kw;

    (void)env;
    if (s->phase == AV_PH_RULES)
        return rpl__err(err, RPL_E_STATE, ln->no,
                        "a game line before the rules line");
    kw = ln->ntok ? keyword(&ln->tok[0]) : -1;
    if (kw < 0) {
        char show[64];

        if (ln->ntok)
            rpl__tok_show(show, sizeof(show), &ln->tok[0]);
        else
            show[0] = '\0';
        return rpl__err(err, RPL_E_SYNTAX, ln->no, "unknown keyword \"%s\"",
                        show);
    }
    memset(&p, 0, sizeof(p));
    if (!parse(s, kw, ln, &p)) {
        char f[96];

        if (kw == phase_kw[s->phase])
            return fail_want(s, err, RPL_E_SYNTAX, ln);
        form(s, kw, f, sizeof(f));
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, f);
    }
    if (s->phase == AV_PH_OVER) {
        const struct rpl__tok all = {ln->text, ln->len};
        char got[64];

        rpl__tok_show(got, sizeof(got), &all);
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the game is over: no line may follow its end, got "
                        "\"%s\"",
                        got);
    }
    if (kw == KW_END) {
        rc = apply_end(s, ln, &p, err);
    } else if (kw != phase_kw[s->phase]) {
        rc = fail_want(s, err, RPL_E_RULES, ln);
    } else {
        switch (kw) {
        case KW_START:
            rc = apply_start(s, ln, &p, err);
            break;
        case KW_DEAL:
            rc = apply_deal(s, ln, &p, err);
            break;
        case KW_PROPOSE:
            rc = apply_propose(s, ln, &p, &done, err);
            break;
        case KW_VOTE:
            rc = apply_vote(s, ln, &p, &done, err);
            break;
        case KW_TEAM:
            rc = apply_team(s, ln, &p, err);
            break;
        case KW_CARD:
            rc = apply_card(s, ln, &p, &done, err);
            break;
        case KW_QUEST:
            rc = apply_quest(s, ln, &p, err);
            break;
        case KW_LADY:
            rc = apply_lady(s, ln, &p, &done, err);
            break;
        default:
            rc = apply_assassinate(s, ln, &p, &done, err);
            break;
        }
    }
    if (rc == RPL_OK && out)
        *out = done;
    return rc;
}

/* ------------------------------------------------------------- learn */

static bool
parse_value(const char *v, unsigned *out)
{
    if (strcmp(v, "success") == 0)
        *out = AV_SUCCESS;
    else if (strcmp(v, "fail") == 0)
        *out = AV_FAIL;
    else
        return false;
    return true;
}

static enum rpl_status
av_learn(void *st, const char *label, const char *value, struct rpl_error *err)
{
    struct av_state *s = st;
    struct rpl__line ln;
    unsigned long r = 0;
    size_t k = 0, t = 0;
    unsigned v;

    if (s->phase == AV_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "learn before the rules line");
    if (rpl__line_split(&ln, label, strlen(label), 0, NULL) != RPL_OK)
        goto bad;
    if (rpl__tok_is(&ln.tok[0], "card")) {
        if (ln.ntok != 3 || !rpl__tok_uint(&ln.tok[1], 5, &r) || r == 0 ||
            !rpl__tok_seat(&ln.tok[2], s->n, &k) || !parse_value(value, &v))
            goto bad;
        s->learned[r][k] = (uint8_t)v;
        for (unsigned i = 0; i < s->ncards; i++)
            if (s->card[i].round == r && s->card[i].seat == k &&
                !s->card[i].value)
                s->card[i].value = (uint8_t)v;
        return RPL_OK;
    }
    /* Deliveries of the dealer are derived from the deal: nothing to
     * learn, but the label must make sense. */
    if (rpl__tok_is(&ln.tok[0], "lady") && ln.ntok == 4 &&
        rpl__tok_uint(&ln.tok[1], 5, &r) && r != 0 &&
        rpl__tok_seat(&ln.tok[2], s->n, &k) &&
        rpl__tok_seat(&ln.tok[3], s->n, &t) &&
        (strcmp(value, "good") == 0 || strcmp(value, "evil") == 0))
        return RPL_OK;
    if (rpl__tok_is(&ln.tok[0], "deal") && ln.ntok == 2 &&
        rpl__tok_seat(&ln.tok[1], s->n, &k))
        return RPL_OK;
    /* An imported game's deal, learned role by role (replay of a complete
     * log); the state knows it once every seat's role is in. */
    if (rpl__tok_is(&ln.tok[0], "role") && ln.ntok == 2 && s->is_imported &&
        rpl__tok_seat(&ln.tok[1], s->n, &k) &&
        role_index(value, strlen(value)) >= 0) {
        s->opened_role[k] = (uint8_t)role_index(value, strlen(value));
        s->learned_roles |= (uint16_t)bit((unsigned)k);
        if (popcount16(s->learned_roles) == s->n)
            know_deal(s, s->opened_role, 0);
        return RPL_OK;
    }
bad:
    return rpl__err(err, RPL_E_SYNTAX, 0,
                    "expected a label \"card R pK\" with success|fail, got "
                    "\"%.60s\"",
                    label);
}

/* ---------------------------------------------------------- recording */

static bool
av_pending(const void *st, const struct rpl__env *env, struct rpl__emit *e)
{
    const struct av_state *s = st;
    unsigned f;

    (void)env;
    if (!s->knows)
        return false;
    memset(e, 0, sizeof(*e));
    switch (s->phase) {
    case AV_PH_START:
    case AV_PH_TALLY:
        expected(s, e->line, sizeof(e->line));
        return true;
    case AV_PH_DEAL:
        snprintf(e->line, sizeof(e->line), "deal p%u", s->ndeals + 1u);
        snprintf(e->label, sizeof(e->label), "deal p%u", s->ndeals + 1u);
        night_view(s, s->ndeals + 1u, e->value, sizeof(e->value));
        return true;
    case AV_PH_QUEST:
        if (!known_fails(s, s->round, &f))
            return false;
        expected(s, e->line, sizeof(e->line));
        return true;
    case AV_PH_END:
        if (s->exp_reason == AV_R_EITHER)
            return false;
        expected(s, e->line, sizeof(e->line));
        return true;
    default:
        return false;
    }
}

size_t
rpl__av_turn(const struct av_state *s)
{
    switch (s->phase) {
    case AV_PH_PROPOSE:
        return av_leader(s);
    case AV_PH_VOTE:
        return s->prop[s->nprops - 1].nvotes + 1u;
    case AV_PH_CARDS:
        return rpl__av_next_card(s);
    case AV_PH_LADY:
        return s->lady_holder;
    case AV_PH_ASSASSIN:
        return s->knows ? assassin_seat(s) : 0;
    default:
        return 0;
    }
}

static size_t
av_turn(const void *st)
{
    return rpl__av_turn(st);
}

static enum rpl_status
av_action(const void *st, const struct rpl__env *env, const char *action,
          struct rpl__emit *e, struct rpl_error *err)
{
    const struct av_state *s = st;
    struct rpl__line ln;
    struct parsed p;
    const size_t len = strlen(action);
    char want[64];
    int kw;

    (void)env;
    if (s->phase == AV_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "action before the rules line");
    if (len == 0 || len >= sizeof(e->line) - 80 ||
        rpl__line_split(&ln, action, len, 0, NULL) != RPL_OK)
        return rpl__err(err, RPL_E_SYNTAX, 0,
                        "expected an action such as \"vote p3 yes\", got "
                        "\"%.60s\"",
                        action);
    kw = keyword(&ln.tok[0]);
    memset(&p, 0, sizeof(p));
    memset(e, 0, sizeof(*e));
    switch (kw) {
    case KW_PROPOSE:
    case KW_VOTE:
    case KW_ASSASSINATE:
        if (!parse(s, kw, &ln, &p)) {
            form(s, kw, want, sizeof(want));
            return rpl__err_expected(err, RPL_E_SYNTAX, &ln, want);
        }
        memcpy(e->line, action, len + 1);
        return RPL_OK;
    case KW_CARD: {
        unsigned v;

        if (ln.ntok != 3 || !rpl__tok_seat(&ln.tok[1], s->n, &p.a) ||
            !(rpl__tok_is(&ln.tok[2], "success") ||
              rpl__tok_is(&ln.tok[2], "fail")))
            return rpl__err_expected(err, RPL_E_SYNTAX, &ln,
                                     "card pK success|fail");
        v = rpl__tok_is(&ln.tok[2], "fail") ? AV_FAIL : AV_SUCCESS;
        snprintf(e->line, sizeof(e->line), "card p%zu", p.a);
        snprintf(e->label, sizeof(e->label), "card %u p%zu", s->round, p.a);
        snprintf(e->value, sizeof(e->value), "%s", card_name(v));
        return RPL_OK;
    }
    case KW_LADY:
        if (ln.ntok != 3 || !rpl__tok_seat(&ln.tok[1], s->n, &p.a) ||
            !rpl__tok_seat(&ln.tok[2], s->n, &p.b))
            return rpl__err_expected(err, RPL_E_SYNTAX, &ln, "lady pH pT");
        if (!s->knows)
            return rpl__err(err, RPL_E_STATE, 0,
                            "the lady's result needs the deal");
        snprintf(e->line, sizeof(e->line), "lady p%zu p%zu", p.a, p.b);
        snprintf(e->label, sizeof(e->label), "lady %u p%zu p%zu", s->round, p.a,
                 p.b);
        snprintf(e->value, sizeof(e->value), "%s",
                 side_name(side_of(s->role[p.b])));
        return RPL_OK;
    default:
        return rpl__err(err, RPL_E_SYNTAX, 0,
                        "expected propose, vote, card, lady or assassinate, "
                        "got \"%.60s\"",
                        action);
    }
}

static enum rpl_status
av_bot(const void *st, const struct rpl__env *env, enum rpl_bot kind,
       struct rpl__stream *rng, struct rpl__emit *e, struct rpl_error *err)
{
    const struct av_state *s = st;
    char act[128];
    enum rpl_status rc;

    if (!s->knows || av_turn(s) == 0)
        return rpl__err(err, RPL_E_STATE, 0, "no seat is to act");
    rc = rpl__av_bot(s, kind, rng, act, sizeof(act), err);
    if (rc != RPL_OK)
        return rc;
    return av_action(st, env, act, e, err);
}

static bool
av_is_over(const void *st)
{
    const struct av_state *s = st;

    return s->phase == AV_PH_OVER;
}

static void
av_outcome(const void *st, const char **winner, const char **reason)
{
    const struct av_state *s = st;

    *winner = "";
    *reason = "";
    if (s->phase == AV_PH_OVER && s->reason >= AV_R_QUESTS &&
        s->reason <= AV_R_ABORTED) {
        *winner = winner_name[s->reason];
        *reason = reason_name[s->reason];
    }
}

/* -------------------------------------------------------- reveal, open */

/* The reveal's checks in the order of camelog(5), given the deal: the
 * leader in `start` (unless leader is 0: imported), the deal lines in
 * seat order, the Lady lines, the assassination and the end it decides.
 * Each error names the line whose claim is false. */
static enum rpl_status
check_deal(const struct av_state *s, const struct rpl__env *env,
           const uint8_t role[AV_MAX_SEATS + 1], uint8_t leader,
           struct rpl_error *err)
{
    char view[96];
    enum rpl_status rc = RPL_OK;

    /* The leader in `start`. */
    if (leader && s->start_line && s->leader1 != leader) {
        rc = rpl__err(err, RPL_E_RULES, s->start_line,
                      "the seed gives the first leader p%u, got p%u", leader,
                      s->leader1);
        goto out;
    }

    /* The deal lines in seat order. */
    for (unsigned k = 1; k <= s->ndeals; k++) {
        char label[16];
        uint8_t c[32];

        snprintf(label, sizeof(label), "deal p%u", k);
        view_of(role, s->n, k, view, sizeof(view));
        rpl__commit(c, NULL, env->seed, env->id, label, view);
        if (memcmp(c, s->deal_commit[k], 32) != 0) {
            rc = rpl__err(err, RPL_E_FAIRNESS, s->deal_line[k],
                          "deal p%u does not match its commitment", k);
            goto out;
        }
        if (env->commitments)
            (*env->commitments)++;
    }

    /* The Lady lines: each result is the examined seat's side. */
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];
        const char *side = side_name(side_of(role[l->target]));
        char label[32];
        uint8_t c[32];

        snprintf(label, sizeof(label), "lady %u p%u p%u", l->round, l->holder,
                 l->target);
        rpl__commit(c, NULL, env->seed, env->id, label, side);
        if (memcmp(c, l->commit, 32) != 0) {
            rc = rpl__err(err, RPL_E_FAIRNESS, l->line,
                          "lady %u p%u p%u does not match its commitment "
                          "(p%u is %s)",
                          l->round, l->holder, l->target, l->target, side);
            goto out;
        }
        if (env->commitments)
            (*env->commitments)++;
    }

    /* The assassination, then the end it decides. */
    if (s->assassinate_line) {
        rc = check_assassin(role, s->n, s->assassinate_line, s->assassin,
                            s->target, err);
        if (rc != RPL_OK)
            goto out;
        if (s->end_line) {
            const unsigned want =
                role[s->target] == AV_MERLIN ? AV_R_ASSASSINATION : AV_R_MISSED;

            if (s->reason != want) {
                rc = rpl__err(err, RPL_E_RULES, s->end_line,
                              "expected \"end %s %s\", got \"end %s %s\" "
                              "(p%u is %s)",
                              winner_name[want], reason_name[want],
                              winner_name[s->reason], reason_name[s->reason],
                              s->target, role_name[role[s->target]]);
                goto out;
            }
        }
    }

out:
    sodium_memzero(view, sizeof(view));
    return rc;
}

static enum rpl_status
av_reveal(void *st, const struct rpl__env *env, size_t reveal_line,
          struct rpl_error *err)
{
    struct av_state *s = st;
    uint8_t role[AV_MAX_SEATS + 1];
    uint8_t leader;
    enum rpl_status rc;

    if (!env->seed)
        return rpl__err(err, RPL_E_STATE, reveal_line,
                        "the reveal needs the seed");
    if (s->phase == AV_PH_RULES || s->is_revealed)
        return rpl__err(err, RPL_E_STATE, reveal_line,
                        s->is_revealed ? "second reveal"
                                       : "reveal before the rules line");
    if (s->is_imported) {
        /* The deal comes with the `open role` lines that follow. */
        s->roles_due = 1;
        s->nroles_opened = 0;
        return RPL_OK;
    }
    derive(s, env->seed, role, &leader);
    rc = check_deal(s, env, role, leader, err);
    if (rc == RPL_OK) {
        know_deal(s, role, leader);
        s->is_revealed = 1;
    }
    sodium_memzero(role, sizeof(role));
    return rc;
}

/* `open role pK <role>` of an imported game, in seat order; after the
 * last one, the deal they make is checked like a derived one (without the
 * first leader, which the record gives). */
static enum rpl_status
open_role(struct av_state *s, const struct rpl__line *ln,
          const struct rpl__env *env, struct rpl_error *err)
{
    const unsigned k = (unsigned)s->nroles_opened + 1;
    uint8_t count[AV_NROLES] = {0};
    size_t seat = 0;
    char want[48];
    int r = -1;
    enum rpl_status rc;

    snprintf(want, sizeof(want), "open role p%u <role>", k);
    if (ln->ntok != 4 || !rpl__tok_is(&ln->tok[0], "open") ||
        !rpl__tok_is(&ln->tok[1], "role") ||
        !rpl__tok_seat(&ln->tok[2], s->n, &seat))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, want);
    if (seat != k)
        return rpl__err_expected(err, RPL_E_RULES, ln, want);
    r = role_index(ln->tok[3].p, ln->tok[3].n);
    if (r < 0)
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, want);
    s->opened_role[k] = (uint8_t)r;
    if (k < s->n) {
        s->nroles_opened = (uint8_t)k;
        return RPL_OK;
    }
    for (unsigned i = 1; i <= s->n; i++)
        count[s->opened_role[i]]++;
    if (memcmp(count, s->count, sizeof(count)) != 0)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the opened roles are not the roles of the rules "
                        "line");
    rc = check_deal(s, env, s->opened_role, 0, err);
    if (rc != RPL_OK)
        return rc;
    know_deal(s, s->opened_role, s->leader1);
    s->nroles_opened = (uint8_t)k;
    s->roles_due = 0;
    s->is_revealed = 1;
    return RPL_OK;
}

static enum rpl_status
av_open(void *st, const struct rpl__line *ln, const struct rpl__env *env,
        struct rpl_error *err)
{
    struct av_state *s = st;
    const struct av_card *c;
    const struct av_quest *q;
    unsigned long r = 0;
    size_t k = 0;
    unsigned v = 0;
    char want[64];
    char label[32];
    uint8_t commit[32];

    if (s->roles_due)
        return open_role(s, ln, env, err);
    if (!s->knows || !env->seed)
        return rpl__err(err, RPL_E_STATE, ln->no, "open before the reveal");
    if (s->nopened >= s->ncards) {
        const struct rpl__tok all = {ln->text, ln->len};
        char got[64];

        rpl__tok_show(got, sizeof(got), &all);
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "every card is open, got \"%s\"", got);
    }
    c = &s->card[s->nopened];
    snprintf(want, sizeof(want), "open card %u p%u success|fail", c->round,
             c->seat);
    if (ln->ntok != 5 || !rpl__tok_is(&ln->tok[0], "open") ||
        !rpl__tok_is(&ln->tok[1], "card") ||
        !rpl__tok_uint(&ln->tok[2], 5, &r) || r == 0 ||
        !rpl__tok_seat(&ln->tok[3], s->n, &k) ||
        !(rpl__tok_is(&ln->tok[4], "success") ||
          rpl__tok_is(&ln->tok[4], "fail")))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, want);
    if (r != c->round || k != c->seat)
        return rpl__err_expected(err, RPL_E_RULES, ln, want);
    v = rpl__tok_is(&ln->tok[4], "fail") ? AV_FAIL : AV_SUCCESS;
    snprintf(label, sizeof(label), "card %u p%u", c->round, c->seat);
    rpl__commit(commit, NULL, env->seed, env->id, label, card_name(v));
    if (memcmp(commit, c->commit, 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, ln->no,
                        "open card %u p%u %s does not match the commitment "
                        "of line %u",
                        c->round, c->seat, card_name(v), c->line);
    if (env->commitments)
        (*env->commitments)++;
    if (v == AV_FAIL && !av_is_evil(s->role[c->seat]))
        return rpl__err(err, RPL_E_RULES, c->line,
                        "p%u is good and cannot play fail", c->seat);
    q = &s->quest[c->round];
    if (q->line &&
        (unsigned)s->nopened + 1u == (unsigned)q->first_card + q->size) {
        unsigned f = v == AV_FAIL;

        for (unsigned i = q->first_card; i < s->nopened; i++)
            f += s->card[i].value == AV_FAIL;
        if (f != q->fails)
            return rpl__err(err, RPL_E_RULES, q->line,
                            "quest %u had %u fail card%s, got fails=%u",
                            q->slot, f, f == 1 ? "" : "s", q->fails);
    }
    s->card[s->nopened].value = (uint8_t)v;
    s->card[s->nopened].is_opened = 1;
    s->learned[c->round][c->seat] = (uint8_t)v;
    s->nopened++;
    return RPL_OK;
}

static size_t
av_opens_left(const void *st)
{
    const struct av_state *s = st;

    return (s->roles_due ? (size_t)s->n - s->nroles_opened : 0) +
           (size_t)s->ncards - s->nopened;
}

static bool
av_open_line(const void *st, size_t i, struct rpl__emit *e)
{
    const struct av_state *s = st;
    const struct av_card *c;

    if (s->is_imported) {
        /* The roles first, in seat order. */
        if (i < s->n) {
            if (!s->knows)
                return false;
            memset(e, 0, sizeof(*e));
            snprintf(e->line, sizeof(e->line), "open role p%u %s",
                     (unsigned)i + 1, role_name[s->role[i + 1]]);
            return true;
        }
        i -= s->n;
    }
    if (i >= s->ncards)
        return false;
    c = &s->card[i];
    if (!c->value)
        return false;
    memset(e, 0, sizeof(*e));
    snprintf(e->line, sizeof(e->line), "open card %u p%u %s", c->round, c->seat,
             card_name(c->value));
    return true;
}

/* ---------------------------------------------------------- serialize */

struct ser {
    uint8_t *buf;
    size_t cap;
    size_t len;
};

static void
put8(struct ser *w, unsigned v)
{
    if (w->buf && w->len < w->cap)
        w->buf[w->len] = (uint8_t)v;
    w->len++;
}

static void
put16(struct ser *w, unsigned v)
{
    put8(w, v & 0xff);
    put8(w, (v >> 8) & 0xff);
}

static void
put32(struct ser *w, uint32_t v)
{
    for (unsigned i = 0; i < 4; i++)
        put8(w, (v >> (8 * i)) & 0xff);
}

static void
putn(struct ser *w, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put8(w, p[i]);
}

/* Every field, in declaration order, little-endian, no padding. */
static size_t
av_serialize(const void *st, uint8_t *buf, size_t cap)
{
    const struct av_state *s = st;
    struct ser w = {buf, cap, 0};

    putn(&w, (const uint8_t *)"avalon\1", 7);
    put8(&w, s->n);
    put8(&w, s->is_lady);
    put8(&w, s->is_targeting);
    putn(&w, s->count, sizeof(s->count));
    putn(&w, s->roster, sizeof(s->roster));
    put8(&w, s->is_imported);
    put8(&w, s->roles_due);
    put8(&w, s->nroles_opened);
    putn(&w, s->opened_role, sizeof(s->opened_role));
    put16(&w, s->learned_roles);
    put8(&w, s->knows);
    put8(&w, s->is_revealed);
    put8(&w, s->leader0);
    putn(&w, s->role, sizeof(s->role));
    put8(&w, s->phase);
    put8(&w, s->leader1);
    put32(&w, s->start_line);
    put8(&w, s->ndeals);
    for (unsigned k = 0; k <= AV_MAX_SEATS; k++) {
        put32(&w, s->deal_line[k]);
        putn(&w, s->deal_commit[k], 32);
    }
    put8(&w, s->round);
    put8(&w, s->rejections);
    put8(&w, s->nprops);
    put8(&w, s->successes);
    put8(&w, s->failures);
    put8(&w, s->slots_done);
    for (unsigned i = 0; i < AV_MAX_PROPS; i++) {
        const struct av_prop *p = &s->prop[i];

        put32(&w, p->line);
        put32(&w, p->tally_line);
        put8(&w, p->leader);
        put8(&w, p->round);
        put8(&w, p->slot);
        put8(&w, p->nvotes);
        put8(&w, p->result);
        put16(&w, p->team);
        put16(&w, p->yes);
    }
    for (unsigned r = 0; r < 6; r++) {
        const struct av_quest *q = &s->quest[r];

        put32(&w, q->line);
        put8(&w, q->slot);
        put8(&w, q->size);
        put8(&w, q->first_card);
        put8(&w, q->fails);
        put8(&w, q->result);
        put16(&w, q->team);
    }
    put8(&w, s->ncards);
    put8(&w, s->nopened);
    for (unsigned i = 0; i < AV_MAX_CARDS; i++) {
        const struct av_card *c = &s->card[i];

        put32(&w, c->line);
        put8(&w, c->round);
        put8(&w, c->seat);
        put8(&w, c->value);
        put8(&w, c->is_opened);
        putn(&w, c->commit, 32);
    }
    for (unsigned r = 0; r < 6; r++)
        putn(&w, s->learned[r], sizeof(s->learned[r]));
    put8(&w, s->lady_holder);
    put16(&w, s->lady_held);
    put8(&w, s->nladies);
    for (unsigned i = 0; i < AV_MAX_LADY; i++) {
        const struct av_lady *l = &s->lady[i];

        put32(&w, l->line);
        put8(&w, l->round);
        put8(&w, l->holder);
        put8(&w, l->target);
        put8(&w, l->side);
        putn(&w, l->commit, 32);
    }
    put8(&w, s->assassin);
    put8(&w, s->target);
    put32(&w, s->assassinate_line);
    put8(&w, s->exp_reason);
    put8(&w, s->reason);
    put32(&w, s->end_line);
    return w.len;
}

/* -------------------------------------------------------------- views */

/* The text view: a compact board (public), then what the viewer knows.
 *
 *   players 7: merlin,percival,servant,servant,assassin,morgana,mordred
 *   lady on, targeting off
 *   round 2, leader p5, rejections 1
 *   quests: 1 success fails=0
 *   lady of the lake: p4 (has held: p2,p4)
 *   team: p1,p3 for quest 2 by p5, votes: p1 yes, p2 no
 *   next: p3 votes
 *
 * then, for a seat: "you: p3 role=merlin sees=p2,p4", its cards
 * ("card 1 p3 success") and its Lady results ("lady 2 p3 p5 evil"); for
 * RPL_VIEW_ALL every seat's "p1 role=..." line, every known card and
 * every Lady result, in the same spelling, so a seat's lines can be
 * found in the omniscient view. */

static void
board_text(const struct av_state *s, struct rpl__buf *b)
{
    char seats[4 * AV_MAX_SEATS];

    rpl__buf_printf(b, "players %u:", s->n);
    for (unsigned i = 0; i < s->n; i++) {
        rpl__buf_puts(b, i ? "," : " ");
        rpl__buf_puts(b, role_name[s->roster[i]]);
    }
    rpl__buf_puts(b, s->is_lady ? "\nlady on" : "\nlady off");
    rpl__buf_puts(b,
                  s->is_targeting ? ", targeting on\n" : ", targeting off\n");
    if (s->phase <= AV_PH_START) {
        rpl__buf_puts(b, "next: the dealer starts the game\n");
        return;
    }
    rpl__buf_printf(b, "round %u, leader p%u, rejections %u\n", s->round,
                    av_leader(s), s->rejections);
    rpl__buf_puts(b, "quests:");
    if (!s->successes && !s->failures)
        rpl__buf_puts(b, " none");
    for (unsigned r = 1; r <= 5; r++)
        if (s->quest[r].result)
            rpl__buf_printf(b, "%s %u %s fails=%u", r > 1 ? "," : "",
                            s->quest[r].slot, card_name(s->quest[r].result),
                            s->quest[r].fails);
    rpl__buf_puts(b, "\n");
    if (s->is_lady) {
        fmt_mask(seats, sizeof(seats), s->lady_held);
        rpl__buf_printf(b, "lady of the lake: p%u (has held: %s)\n",
                        s->lady_holder, seats);
    }
    if (s->nprops && (s->phase == AV_PH_VOTE || s->phase == AV_PH_TALLY ||
                      s->phase == AV_PH_CARDS || s->phase == AV_PH_QUEST)) {
        const struct av_prop *pr = &s->prop[s->nprops - 1];

        fmt_mask(seats, sizeof(seats), pr->team);
        rpl__buf_printf(b, "team: %s for quest %u by p%u", seats, pr->slot,
                        pr->leader);
        for (unsigned k = 1; k <= pr->nvotes; k++) {
            char one[32];

            snprintf(one, sizeof(one), "%s p%u %s", k == 1 ? ", votes:" : ",",
                     k, pr->yes & bit(k) ? "yes" : "no");
            rpl__buf_puts(b, one);
        }
        rpl__buf_puts(b, "\n");
    }
    if (s->assassinate_line)
        rpl__buf_printf(b, "assassination: p%u named p%u\n", s->assassin,
                        s->target);
    switch (s->phase) {
    case AV_PH_DEAL:
        rpl__buf_printf(b, "next: the dealer deals p%u\n", s->ndeals + 1u);
        break;
    case AV_PH_PROPOSE:
        rpl__buf_printf(b, "next: p%u proposes a team\n", av_leader(s));
        break;
    case AV_PH_VOTE:
        rpl__buf_printf(b, "next: p%u votes\n",
                        s->prop[s->nprops - 1].nvotes + 1u);
        break;
    case AV_PH_TALLY:
        rpl__buf_puts(b, "next: the dealer counts the votes\n");
        break;
    case AV_PH_CARDS:
        rpl__buf_printf(b, "next: p%u plays a quest card\n",
                        rpl__av_next_card(s));
        break;
    case AV_PH_QUEST:
        rpl__buf_puts(b, "next: the dealer counts the quest cards\n");
        break;
    case AV_PH_LADY:
        rpl__buf_printf(b, "next: p%u examines a seat with the lady\n",
                        s->lady_holder);
        break;
    case AV_PH_ASSASSIN:
        rpl__buf_puts(b, "next: the assassin names a seat\n");
        break;
    case AV_PH_END:
        rpl__buf_puts(b, "next: the dealer ends the game\n");
        break;
    default:
        if (s->reason == AV_R_ABORTED)
            rpl__buf_puts(b, "over: aborted\n");
        else
            rpl__buf_printf(b, "over: %s wins (%s)\n", winner_name[s->reason],
                            reason_name[s->reason]);
        break;
    }
}

static bool
is_seat_viewer(const struct av_state *s, int viewer)
{
    return viewer >= 1 && viewer <= (int)s->n;
}

static void
private_text(const struct av_state *s, int viewer, struct rpl__buf *b)
{
    const bool all = viewer == RPL_VIEW_ALL;
    char view[96];

    if (!all && !is_seat_viewer(s, viewer))
        return;
    if (!s->knows) {
        if (all)
            rpl__buf_puts(b, "roles not revealed\n");
        else
            rpl__buf_printf(b, "p%d: private knowledge not revealed\n", viewer);
        return;
    }
    for (unsigned k = 1; k <= s->n; k++) {
        if (!all && (int)k != viewer)
            continue;
        night_view(s, k, view, sizeof(view));
        rpl__buf_printf(b, "%sp%u %s\n", all ? "" : "you: ", k, view);
    }
    for (unsigned i = 0; i < s->ncards; i++) {
        const struct av_card *c = &s->card[i];

        if (c->value && (all || (int)c->seat == viewer))
            rpl__buf_printf(b, "card %u p%u %s\n", c->round, c->seat,
                            card_name(c->value));
    }
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];

        if (l->side && (all || (int)l->holder == viewer))
            rpl__buf_printf(b, "lady %u p%u p%u %s\n", l->round, l->holder,
                            l->target, side_name(l->side));
    }
}

static void
av_view(const void *st, const struct rpl__env *env, int viewer,
        struct rpl__buf *out)
{
    const struct av_state *s = st;

    (void)env;
    board_text(s, out);
    private_text(s, viewer, out);
}

static json_t *
jseats(struct rpl__jb *j, uint16_t mask)
{
    json_t *a = json_array();

    for (unsigned k = 1; k <= AV_MAX_SEATS; k++)
        if (mask & bit(k))
            rpl__japp(j, a, json_integer(k));
    if (!a)
        j->ok = false;
    return a;
}

static json_t *
jseat_known(struct rpl__jb *j, const struct av_state *s, unsigned k)
{
    json_t *o = json_object();

    rpl__jset(j, o, "seat", json_integer(k));
    rpl__jset(j, o, "role", json_string(role_name[s->role[k]]));
    rpl__jset(j, o, "side", json_string(side_name(side_of(s->role[k]))));
    rpl__jset(j, o, "sees", jseats(j, rpl__av_seen(s, k)));
    return o;
}

/*
 * view_json keys (camelog-export(1)):
 *   players      number of seats
 *   roles        the configuration, canonical order (public, A-26)
 *   lady_on, targeting   the modules (booleans)
 *   phase        start, deal, propose, vote, tally, cards, quest, lady,
 *                assassination, end, over
 *   round        1..5 (0 before start); rejections: in this round;
 *   proposals    proposals so far in the game
 *   leader       the seat proposing next (0 before start)
 *   turn         the seat that must act (0: the dealer, or the assassin
 *                before the assassination is named)
 *   quests       [{round, slot, team, fails, result}] of played quests
 *   successes, failures
 *   lady, lady_held   the holder and every holder so far (lady_on only)
 *   team         the current proposal {leader, slot, team, yes, no}
 *                (during vote, tally, cards, quest); yes/no: seats
 *   assassination {assassin, target} once named
 *   winner, reason    "" until the end line
 *   viewer       0 public, -1 everything, or the seat
 *   known        the viewer's private knowledge (absent for public):
 *                revealed (false: the log does not tell it yet);
 *                seats [{seat, role, side, sees}] (one for a seat, all
 *                for -1); cards [{round, seat, value}];
 *                lady [{round, holder, target, side}]
 */
static void
av_view_json(const void *st, const struct rpl__env *env, int viewer,
             struct rpl__buf *out)
{
    const struct av_state *s = st;
    struct rpl__jb j = {true};
    json_t *o = json_object();
    json_t *a;

    (void)env;
    rpl__jset(&j, o, "players", json_integer(s->n));
    a = json_array();
    for (unsigned i = 0; i < s->n; i++)
        rpl__japp(&j, a, json_string(role_name[s->roster[i]]));
    rpl__jset(&j, o, "roles", a);
    rpl__jset(&j, o, "lady_on", json_boolean(s->is_lady));
    rpl__jset(&j, o, "targeting", json_boolean(s->is_targeting));
    rpl__jset(&j, o, "phase", json_string(phase_name[s->phase]));
    rpl__jset(&j, o, "round", json_integer(s->round));
    rpl__jset(&j, o, "rejections", json_integer(s->rejections));
    rpl__jset(&j, o, "proposals", json_integer(s->nprops));
    rpl__jset(&j, o, "leader", json_integer(av_leader(s)));
    rpl__jset(&j, o, "turn",
              json_integer(s->phase == AV_PH_ASSASSIN ? 0 : (int)av_turn(s)));
    a = json_array();
    for (unsigned r = 1; r <= 5; r++) {
        const struct av_quest *q = &s->quest[r];

        if (q->result)
            rpl__japp(&j, a,
                      json_pack("{s:i,s:i,s:o,s:i,s:s}", "round", (int)r,
                                "slot", (int)q->slot, "team",
                                jseats(&j, q->team), "fails", (int)q->fails,
                                "result", card_name(q->result)));
    }
    rpl__jset(&j, o, "quests", a);
    rpl__jset(&j, o, "successes", json_integer(s->successes));
    rpl__jset(&j, o, "failures", json_integer(s->failures));
    if (s->is_lady) {
        rpl__jset(&j, o, "lady", json_integer(s->lady_holder));
        rpl__jset(&j, o, "lady_held", jseats(&j, s->lady_held));
    }
    if (s->nprops && (s->phase == AV_PH_VOTE || s->phase == AV_PH_TALLY ||
                      s->phase == AV_PH_CARDS || s->phase == AV_PH_QUEST)) {
        const struct av_prop *pr = &s->prop[s->nprops - 1];
        const uint16_t voted =
            (uint16_t)(((1u << (pr->nvotes + 1u)) - 1u) & ~1u);

        rpl__jset(&j, o, "team",
                  json_pack("{s:i,s:i,s:o,s:o,s:o}", "leader", (int)pr->leader,
                            "slot", (int)pr->slot, "team", jseats(&j, pr->team),
                            "yes", jseats(&j, pr->yes), "no",
                            jseats(&j, (uint16_t)(voted & ~pr->yes))));
    }
    if (s->assassinate_line)
        rpl__jset(&j, o, "assassination",
                  json_pack("{s:i,s:i}", "assassin", (int)s->assassin, "target",
                            (int)s->target));
    rpl__jset(
        &j, o, "winner",
        json_string(s->phase == AV_PH_OVER ? winner_name[s->reason] : ""));
    rpl__jset(
        &j, o, "reason",
        json_string(s->phase == AV_PH_OVER ? reason_name[s->reason] : ""));
    rpl__jset(&j, o, "viewer", json_integer(viewer));
    if (viewer == RPL_VIEW_ALL || is_seat_viewer(s, viewer)) {
        const bool all = viewer == RPL_VIEW_ALL;
        json_t *known = json_object();

        rpl__jset(&j, known, "revealed", json_boolean(s->knows));
        if (s->knows) {
            json_t *seats = json_array();
            json_t *cards = json_array();
            json_t *ladies = json_array();

            for (unsigned k = 1; k <= s->n; k++)
                if (all || (int)k == viewer)
                    rpl__japp(&j, seats, jseat_known(&j, s, k));
            for (unsigned i = 0; i < s->ncards; i++) {
                const struct av_card *c = &s->card[i];

                if (c->value && (all || (int)c->seat == viewer))
                    rpl__japp(&j, cards,
                              json_pack("{s:i,s:i,s:s}", "round", (int)c->round,
                                        "seat", (int)c->seat, "value",
                                        card_name(c->value)));
            }
            for (unsigned i = 0; i < s->nladies; i++) {
                const struct av_lady *l = &s->lady[i];

                if (l->side && (all || (int)l->holder == viewer))
                    rpl__japp(&j, ladies,
                              json_pack("{s:i,s:i,s:i,s:s}", "round",
                                        (int)l->round, "holder", (int)l->holder,
                                        "target", (int)l->target, "side",
                                        side_name(l->side)));
            }
            rpl__jset(&j, known, "seats", seats);
            rpl__jset(&j, known, "cards", cards);
            rpl__jset(&j, known, "lady", ladies);
        }
        rpl__jset(&j, o, "known", known);
    }
    rpl__jdump(&j, o, out);
}

/* --------------------------------------------------------- describe */

static const struct av_card *
card_at(const struct av_state *s, size_t line)
{
    for (unsigned i = 0; i < s->ncards; i++)
        if (s->card[i].line == line)
            return &s->card[i];
    return NULL;
}

static const struct av_lady *
lady_at(const struct av_state *s, size_t line)
{
    for (unsigned i = 0; i < s->nladies; i++)
        if (s->lady[i].line == line)
            return &s->lady[i];
    return NULL;
}

static const struct av_prop *
prop_at(const struct av_state *s, size_t line)
{
    for (unsigned i = 0; i < s->nprops; i++)
        if (s->prop[i].line == line || s->prop[i].tally_line == line)
            return &s->prop[i];
    return NULL;
}

static void
put_team(struct rpl__buf *b, const struct rpl__env *env,
         const struct av_state *s, uint16_t team)
{
    bool first = true;

    for (unsigned k = 1; k <= s->n; k++) {
        if (!(team & bit(k)))
            continue;
        if (!first)
            rpl__buf_puts(b, ", ");
        put_who(b, env, s, k);
        first = false;
    }
}

static void
av_describe(const void *st, const struct rpl__env *env,
            const struct rpl__line *ln, int viewer, struct rpl__buf *out)
{
    const struct av_state *s = st;
    const int kw = ln->ntok ? keyword(&ln->tok[0]) : -1;
    const bool all = viewer == RPL_VIEW_ALL;
    struct parsed p;

    memset(&p, 0, sizeof(p));
    if (kw < 0 || !parse(s, kw, ln, &p)) {
        rpl__buf_add(out, ln->text, ln->len);
        return;
    }
    switch (kw) {
    case KW_START:
        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " leads first");
        if (s->is_lady) {
            rpl__buf_puts(out, "; ");
            put_who(out, env, s, (unsigned)p.b);
            rpl__buf_puts(out, " holds the lady of the lake");
        }
        break;
    case KW_DEAL:
        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " is dealt a role");
        if (s->knows && (all || viewer == (int)p.a)) {
            char view[96];

            night_view(s, (unsigned)p.a, view, sizeof(view));
            rpl__buf_printf(out, ": %s", view);
        }
        break;
    case KW_PROPOSE: {
        const struct av_prop *pr = prop_at(s, ln->no);

        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " proposes ");
        put_team(out, env, s, p.team);
        rpl__buf_printf(out, " for quest %lu",
                        s->is_targeting ? p.x
                                        : (unsigned long)(pr ? pr->round : 0));
        break;
    }
    case KW_VOTE:
        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_printf(out, " votes %s", p.yes ? "yes" : "no");
        break;
    case KW_TEAM: {
        const struct av_prop *pr = prop_at(s, ln->no);

        rpl__buf_printf(out, "team %s %lu-%lu", p.yes ? "approved" : "rejected",
                        p.x, p.y);
        if (pr) {
            rpl__buf_puts(out, ":");
            for (unsigned k = 1; k <= s->n; k++)
                rpl__buf_printf(out, "%s p%u %s", k > 1 ? "," : "", k,
                                pr->yes & bit(k) ? "yes" : "no");
        }
        break;
    }
    case KW_CARD: {
        const struct av_card *c = card_at(s, ln->no);

        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " plays a quest card");
        if (c && c->value && (all || viewer == (int)p.a))
            rpl__buf_printf(out, ": %s", card_name(c->value));
        break;
    }
    case KW_QUEST:
        rpl__buf_printf(out, "quest %lu %s with %lu fail card%s", p.x,
                        p.yes ? "succeeds" : "fails", p.y, p.y == 1 ? "" : "s");
        break;
    case KW_LADY: {
        const struct av_lady *l = lady_at(s, ln->no);

        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " examines ");
        put_who(out, env, s, (unsigned)p.b);
        rpl__buf_puts(out, " with the lady of the lake");
        if (l && l->side && (all || viewer == (int)p.a))
            rpl__buf_printf(out, ": %s", side_name(l->side));
        break;
    }
    case KW_ASSASSINATE:
        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, ", the assassin, names ");
        put_who(out, env, s, (unsigned)p.b);
        rpl__buf_puts(out, " as merlin");
        break;
    default:
        switch (p.reason) {
        case AV_R_QUESTS:
            rpl__buf_puts(out, "good wins: three quests succeeded");
            break;
        case AV_R_FAILURES:
            rpl__buf_puts(out, "evil wins: three quests failed");
            break;
        case AV_R_REJECTIONS:
            rpl__buf_puts(out, "evil wins: five teams rejected in a round");
            break;
        case AV_R_ASSASSINATION:
            rpl__buf_puts(out, "evil wins: the assassin found merlin");
            break;
        case AV_R_MISSED:
            rpl__buf_puts(out, "good wins: the assassin missed merlin");
            break;
        default:
            rpl__buf_puts(out, "the game is aborted");
            break;
        }
        break;
    }
}

/*
 * events_json: an array of public events for the line, each an object
 * with "event" and (seats are integers, 1-based):
 *   start {leader, lady (lady_on only)}     deal {seat}
 *   propose {leader, round, slot, team}     vote {seat, vote: yes|no}
 *   team {approved, yes, no, rejections}    card {round, seat}
 *   quest {round, slot, result, fails}      lady {round, holder, target}
 *   assassinate {assassin, target}          end {winner, reason}
 */
static void
av_events_json(const void *st, const struct rpl__env *env,
               const struct rpl__line *ln, struct rpl__buf *out)
{
    const struct av_state *s = st;
    const int kw = ln->ntok ? keyword(&ln->tok[0]) : -1;
    struct rpl__jb j = {true};
    json_t *a = json_array();
    json_t *e = NULL;
    struct parsed p;

    (void)env;
    memset(&p, 0, sizeof(p));
    if (kw < 0 || !parse(s, kw, ln, &p)) {
        rpl__jdump(&j, a, out);
        return;
    }
    switch (kw) {
    case KW_START:
        e = json_pack("{s:s,s:i}", "event", "start", "leader", (int)p.a);
        if (s->is_lady)
            rpl__jset(&j, e, "lady", json_integer((json_int_t)p.b));
        break;
    case KW_DEAL:
        e = json_pack("{s:s,s:i}", "event", "deal", "seat", (int)p.a);
        break;
    case KW_PROPOSE: {
        const struct av_prop *pr = prop_at(s, ln->no);

        e = json_pack("{s:s,s:i,s:i,s:i,s:o}", "event", "propose", "leader",
                      (int)p.a, "round", pr ? (int)pr->round : 0, "slot",
                      pr ? (int)pr->slot : (int)p.x, "team",
                      jseats(&j, p.team));
        break;
    }
    case KW_VOTE:
        e = json_pack("{s:s,s:i,s:s}", "event", "vote", "seat", (int)p.a,
                      "vote", p.yes ? "yes" : "no");
        break;
    case KW_TEAM: {
        const struct av_prop *pr = prop_at(s, ln->no);
        unsigned rej = 0;

        if (pr)
            for (unsigned i = 0; i < s->nprops; i++)
                if (s->prop[i].round == pr->round && s->prop[i].result == 2 &&
                    s->prop[i].line <= pr->line)
                    rej++;
        e = json_pack("{s:s,s:b,s:i,s:i,s:i}", "event", "team", "approved",
                      (int)p.yes, "yes", (int)p.x, "no", (int)p.y, "rejections",
                      (int)rej);
        break;
    }
    case KW_CARD: {
        const struct av_card *c = card_at(s, ln->no);

        e = json_pack("{s:s,s:i,s:i}", "event", "card", "round",
                      c ? (int)c->round : 0, "seat", (int)p.a);
        break;
    }
    case KW_QUEST: {
        unsigned r = 0;

        for (unsigned i = 1; i <= 5; i++)
            if (s->quest[i].line == ln->no)
                r = i;
        e = json_pack("{s:s,s:i,s:i,s:s,s:i}", "event", "quest", "round",
                      (int)r, "slot", (int)p.x, "result",
                      p.yes ? "success" : "fail", "fails", (int)p.y);
        break;
    }
    case KW_LADY: {
        const struct av_lady *l = lady_at(s, ln->no);

        e = json_pack("{s:s,s:i,s:i,s:i}", "event", "lady", "round",
                      l ? (int)l->round : 0, "holder", (int)p.a, "target",
                      (int)p.b);
        break;
    }
    case KW_ASSASSINATE:
        e = json_pack("{s:s,s:i,s:i}", "event", "assassinate", "assassin",
                      (int)p.a, "target", (int)p.b);
        break;
    default:
        e = json_pack("{s:s,s:s,s:s}", "event", "end", "winner",
                      winner_name[p.reason], "reason", reason_name[p.reason]);
        break;
    }
    rpl__japp(&j, a, e);
    rpl__jdump(&j, a, out);
}

/* ------------------------------------------------------ who was who */

static void
av_reveal_text(const void *st, const struct rpl__env *env, struct rpl__buf *out)
{
    const struct av_state *s = st;
    char view[96];

    if (!s->knows) {
        rpl__buf_puts(out, "roles not revealed\n");
        return;
    }
    for (unsigned k = 1; k <= s->n; k++) {
        night_view(s, k, view, sizeof(view));
        put_who(out, env, s, k);
        rpl__buf_printf(out, ": %s (%s); night: %s\n", role_name[s->role[k]],
                        side_name(side_of(s->role[k])), view);
    }
    for (unsigned r = 1; r <= 5; r++) {
        const struct av_quest *q = &s->quest[r];
        bool first = true;

        if (!q->slot)
            continue;
        if (q->result)
            rpl__buf_printf(out, "quest %u (round %u): %s, fails=%u:", q->slot,
                            r, card_name(q->result), q->fails);
        else
            rpl__buf_printf(out, "quest %u (round %u): unfinished:", q->slot,
                            r);
        for (unsigned i = 0; i < s->ncards; i++) {
            const struct av_card *c = &s->card[i];

            if (c->round != r)
                continue;
            rpl__buf_printf(out, "%s p%u %s", first ? "" : ",", c->seat,
                            card_name(c->value));
            first = false;
        }
        rpl__buf_puts(out, "\n");
    }
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];

        rpl__buf_printf(out, "lady after round %u: ", l->round);
        put_who(out, env, s, l->holder);
        rpl__buf_puts(out, " examined ");
        put_who(out, env, s, l->target);
        rpl__buf_printf(out, ": %s\n", side_name(l->side));
    }
    if (s->assassinate_line) {
        rpl__buf_puts(out, "assassination: ");
        put_who(out, env, s, s->assassin);
        rpl__buf_puts(out, " named ");
        put_who(out, env, s, s->target);
        rpl__buf_printf(out, ", %s: %s\n", role_name[s->role[s->target]],
                        s->role[s->target] == AV_MERLIN ? "hit" : "missed");
    }
    if (s->phase == AV_PH_OVER) {
        if (s->reason == AV_R_ABORTED)
            rpl__buf_puts(out, "end: aborted\n");
        else
            rpl__buf_printf(out, "end: %s wins (%s)\n", winner_name[s->reason],
                            reason_name[s->reason]);
    }
}

/*
 * reveal_json keys:
 *   seats [{seat, name, role, side, view, sees}]
 *   quests [{round, slot, result ("" unfinished), fails,
 *            cards [{seat, value}]}]
 *   lady [{round, holder, target, side}]
 *   assassination {assassin, target, target_role, hit} or null
 *   winner, reason
 * and only {"revealed": false} while the state does not know the deal.
 */
static void
av_reveal_json(const void *st, const struct rpl__env *env, struct rpl__buf *out)
{
    const struct av_state *s = st;
    struct rpl__jb j = {true};
    json_t *o = json_object();
    json_t *seats = json_array();
    json_t *quests = json_array();
    json_t *ladies = json_array();
    char view[96];

    if (!s->knows) {
        json_decref(seats);
        json_decref(quests);
        json_decref(ladies);
        rpl__jset(&j, o, "revealed", json_false());
        rpl__jdump(&j, o, out);
        return;
    }
    for (unsigned k = 1; k <= s->n; k++) {
        json_t *e = jseat_known(&j, s, k);
        const char *name = seat_name(env, s, k);

        night_view(s, k, view, sizeof(view));
        rpl__jset(&j, e, "name", json_string(name ? name : ""));
        rpl__jset(&j, e, "view", json_string(view));
        rpl__japp(&j, seats, e);
    }
    for (unsigned r = 1; r <= 5; r++) {
        const struct av_quest *q = &s->quest[r];
        json_t *cards;

        if (!q->slot)
            continue;
        cards = json_array();
        for (unsigned i = 0; i < s->ncards; i++)
            if (s->card[i].round == r)
                rpl__japp(&j, cards,
                          json_pack("{s:i,s:s}", "seat", (int)s->card[i].seat,
                                    "value", card_name(s->card[i].value)));
        rpl__japp(&j, quests,
                  json_pack("{s:i,s:i,s:s,s:i,s:o}", "round", (int)r, "slot",
                            (int)q->slot, "result",
                            q->result ? card_name(q->result) : "", "fails",
                            (int)q->fails, "cards", cards));
    }
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];

        rpl__japp(&j, ladies,
                  json_pack("{s:i,s:i,s:i,s:s}", "round", (int)l->round,
                            "holder", (int)l->holder, "target", (int)l->target,
                            "side", side_name(l->side)));
    }
    rpl__jset(&j, o, "seats", seats);
    rpl__jset(&j, o, "quests", quests);
    rpl__jset(&j, o, "lady", ladies);
    if (s->assassinate_line)
        rpl__jset(&j, o, "assassination",
                  json_pack("{s:i,s:i,s:s,s:b}", "assassin", (int)s->assassin,
                            "target", (int)s->target, "target_role",
                            role_name[s->role[s->target]], "hit",
                            s->role[s->target] == AV_MERLIN));
    else
        rpl__jset(&j, o, "assassination", json_null());
    rpl__jset(
        &j, o, "winner",
        json_string(s->phase == AV_PH_OVER ? winner_name[s->reason] : ""));
    rpl__jset(
        &j, o, "reason",
        json_string(s->phase == AV_PH_OVER ? reason_name[s->reason] : ""));
    rpl__jdump(&j, o, out);
}

static enum rpl_status
av_import_deal(void *st, const struct rpl__env *env, const char *const *deal,
               size_t first, struct rpl_error *err)
{
    (void)env;
    return rpl__avalon_deal(st, deal, ((struct av_state *)st)->n, first, err);
}

const struct rpl__game rpl__avalon = {
    .name = "avalon",
    .state_size = sizeof(struct av_state),
    .rules = av_rules,
    .setup = av_setup,
    .import_deal = av_import_deal,
    .apply = av_apply,
    .learn = av_learn,
    .pending = av_pending,
    .turn = av_turn,
    .action = av_action,
    .bot = av_bot,
    .is_over = av_is_over,
    .outcome = av_outcome,
    .reveal = av_reveal,
    .open = av_open,
    .opens_left = av_opens_left,
    .open_line = av_open_line,
    .serialize = av_serialize,
    .view = av_view,
    .view_json = av_view_json,
    .describe = av_describe,
    .events_json = av_events_json,
    .reveal_text = av_reveal_text,
    .reveal_json = av_reveal_json,
    .info = &rpl__avalon_info,
    .rules_line = rpl__av_rules_line,
};
