/*
 * rules.c - the rules engine of The Resistance: Avalon (rules/avalon.md):
 * the night (who sees whom), the deal derived from the seed, every game
 * line checked as it is applied, what the recorder writes and learns,
 * the reveal and the opens, and the state serialized for the digest.
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
 *
 * Uses notation.c (avalon.h gives the order); views.c and players.c read
 * the state through what is defined here.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "avalon.h"

/* ------------------------------------------------------------- tables */

/* The keyword each phase waits for (-1: none). */
static const int phase_kw[] = {
    [AV_PH_RULES] = -1,         [AV_PH_START] = AV_KW_START,
    [AV_PH_DEAL] = AV_KW_DEAL,  [AV_PH_PROPOSE] = AV_KW_PROPOSE,
    [AV_PH_VOTE] = AV_KW_VOTE,  [AV_PH_TALLY] = AV_KW_TEAM,
    [AV_PH_CARDS] = AV_KW_CARD, [AV_PH_QUEST] = AV_KW_QUEST,
    [AV_PH_LADY] = AV_KW_LADY,  [AV_PH_ASSASSIN] = AV_KW_ASSASSINATE,
    [AV_PH_END] = AV_KW_END,    [AV_PH_OVER] = -1,
};

/* -------------------------------------------------------------- night */

/* Whether a viewer with role `viewer` sees a seat with role `seen` at
 * night (rules/avalon.md §3.2; the viewer's own seat excluded). */
static bool
sees(unsigned viewer, unsigned seen)
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
        if (k != seat && sees(role[seat], role[k]))
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
        rpl__fmt(out, cap, "role=%s", rpl__av_role_name[role[seat]]);
        return;
    }
    rpl__av_fmt_mask(seats, sizeof(seats), seen);
    rpl__fmt(out, cap, "role=%s sees=%s", rpl__av_role_name[role[seat]], seats);
}

void
rpl__av_night_view(const struct av_state *s, unsigned seat, char *out,
                   size_t cap)
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
    return find_role(s->role, s->n, s->power);
}

/* A night view a seat may be told: its role is one of the rules' roles,
 * and it sees, itself excluded, exactly as many seats as that role sees
 * among the other roles of the rules (which seats is the secret). */
enum rpl_status
rpl__av_plausible(const void *vst, const struct rpl__env *env, size_t seat,
                  const char *label, const char *value, size_t line,
                  struct rpl_error *err)
{
    const struct av_state *s = vst;
    const char *sp;
    size_t rn;
    int role;
    unsigned want = 0, got = 0;
    uint16_t mask = 0;
    bool removed = false;
    char again[96];

    (void)env;
    if (strncmp(label, "deal ", 5) != 0)
        return RPL_OK;
    if (strncmp(value, "role=", 5) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, line, "\"%s\" is no night view",
                        value);
    sp = strchr(value + 5, ' ');
    rn = sp ? (size_t)(sp - value - 5) : strlen(value + 5);
    role = rpl__av_role_index(value + 5, rn);
    for (unsigned i = 0; role >= 0 && i < s->n; i++) {
        if (!removed && s->roster[i] == (unsigned)role)
            removed = true;
        else if (sees((unsigned)role, s->roster[i]))
            want++;
    }
    if (role < 0 || !removed)
        return rpl__err(err, RPL_E_FAIRNESS, line,
                        "p%zu is told the role \"%.*s\", which is not one "
                        "of this game's roles",
                        seat, (int)rn, value + 5);
    if (sp) {
        const char *p = sp + 1;

        if (strncmp(p, "sees=", 5) != 0)
            return rpl__err(err, RPL_E_FAIRNESS, line,
                            "\"%s\" is no night view", value);
        p += 5;
        while (*p) {
            const size_t n = strcspn(p, ",");
            const struct rpl__tok t = {p, n};
            size_t k = 0;

            if (!rpl__tok_seat(&t, s->n, &k) || (mask & bit((unsigned)k)))
                return rpl__err(err, RPL_E_FAIRNESS, line,
                                "\"%s\" is no night view of this game", value);
            mask |= bit((unsigned)k);
            got++;
            p += n;
            if (*p == ',')
                p++;
        }
    }
    if (mask & bit((unsigned)seat))
        return rpl__err(err, RPL_E_FAIRNESS, line,
                        "p%zu is told it sees itself", seat);
    if (got != want)
        return rpl__err(err, RPL_E_FAIRNESS, line,
                        "p%zu is told it is %s and sees %u %s; the %s sees "
                        "%u in a game of these roles",
                        seat, rpl__av_role_name[role], got,
                        got == 1 ? "seat" : "seats", rpl__av_role_name[role],
                        want);
    if (mask) {
        char seats[4 * AV_MAX_SEATS];

        rpl__av_fmt_mask(seats, sizeof(seats), mask);
        rpl__fmt(again, sizeof(again), "role=%s sees=%s",
                 rpl__av_role_name[role], seats);
    } else {
        rpl__fmt(again, sizeof(again), "role=%s", rpl__av_role_name[role]);
    }
    if (strcmp(again, value) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, line,
                        "\"%s\" is not the form of a night view (\"%s\")",
                        value, again);
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
        s->lady[i].side = (uint8_t)av_side_of(s->role[s->lady[i].target]);
    if (s->phase == AV_PH_END && s->exp_reason == AV_R_EITHER)
        s->exp_reason =
            s->role[s->target] == AV_MERLIN ? AV_R_ASSASSINATION : AV_R_MISSED;
}

enum rpl_status
rpl__av_setup(void *st, const struct rpl__env *env, struct rpl_error *err)
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
    return rpl__av_role_name[s->role[seat]];
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
        const int r = rpl__av_role_index(roles[k - 1], strlen(roles[k - 1]));

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

/* ----------------------------------------------------------- expected */

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
            rpl__av_form(s, AV_KW_START, out, cap);
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
            snprintf(out, cap, "end %s %s", rpl__av_winner_name[s->exp_reason],
                     rpl__av_reason_name[s->exp_reason]);
        break;
    default:
        snprintf(out, cap, "no line");
        break;
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
            const struct av_parsed *p, struct rpl_error *err)
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
           const struct av_parsed *p, struct rpl_error *err)
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
              const struct av_parsed *p, struct rpl__applied *out,
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
           const struct av_parsed *p, struct rpl__applied *out,
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
           const struct av_parsed *p, struct rpl_error *err)
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
           const struct av_parsed *p, struct rpl__applied *out,
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
            const struct av_parsed *p, struct rpl_error *err)
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
           const struct av_parsed *p, struct rpl__applied *out,
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
        l->side = (uint8_t)av_side_of(s->role[p->b]);
    else if (s->me && s->me == p->a)
        l->side = s->me_lady[s->round];
    memcpy(l->commit, p->commit, 32);
    s->lady_holder = (uint8_t)p->b;
    s->lady_held |= bit((unsigned)p->b);
    next_round(s);
    out->author = p->a;
    return RPL_OK;
}

/* The Assassin's legality for roles by seat; line is the
 * assassinate line.  The power is the Assassin's or, under an
 * assassin-ROLE variant, that role's; assassin-names-evil lifts A-20. */
static enum rpl_status
check_assassin(const struct av_state *s, const uint8_t *role, size_t line,
               unsigned actor, unsigned target, struct rpl_error *err)
{
    if (role[actor] != s->power)
        return rpl__err(err, RPL_E_RULES, line,
                        "p%u is not the assassin (p%u is)", actor,
                        find_role(role, s->n, s->power));
    if (!(s->variants & (1u << AV_V_NAMES_EVIL)) &&
        sees(role[actor], role[target]))
        return rpl__err(err, RPL_E_RULES, line,
                        "p%u cannot name p%u, whom the assassin saw as evil",
                        actor, target);
    return RPL_OK;
}

static enum rpl_status
apply_assassinate(struct av_state *s, const struct rpl__line *ln,
                  const struct av_parsed *p, struct rpl__applied *out,
                  struct rpl_error *err)
{
    enum rpl_status rc;

    if (p->b == p->a)
        return rpl__err(err, RPL_E_RULES, ln->no, "p%zu cannot name themself",
                        p->a);
    if (s->knows) {
        rc = check_assassin(s, s->role, ln->no, (unsigned)p->a, (unsigned)p->b,
                            err);
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
          const struct av_parsed *p, struct rpl_error *err)
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

enum rpl_status
rpl__av_apply(void *st, const struct rpl__line *ln, const struct rpl__env *env,
              struct rpl__applied *out, struct rpl_error *err)
{
    struct av_state *s = st;
    struct rpl__applied done = {0, false, false, 0, NULL};
    struct av_parsed p;
    enum rpl_status rc;
    int kw;

    (void)env;
    if (s->phase == AV_PH_RULES)
        return rpl__err(err, RPL_E_STATE, ln->no,
                        "a game line before the rules line");
    kw = ln->ntok ? rpl__av_keyword(&ln->tok[0]) : -1;
    if (kw < 0) {
        char show[64];

        if (ln->ntok)
            rpl__tok_show(show, sizeof(show), &ln->tok[0]);
        else
            show[0] = '\0';
        return rpl__err(err, RPL_E_SYNTAX, ln->no, "unknown keyword \"%s\"",
                        show);
    }
    /* All but the commitment, which the parse of a line that has one
     * writes: 64 bytes are a few stores, the whole struct a rep stos,
     * slow to start on some CPUs, once a line. */
    memset(&p, 0, offsetof(struct av_parsed, commit));
    if (!rpl__av_parse(s, kw, ln, &p)) {
        char f[96];

        if (kw == phase_kw[s->phase])
            return fail_want(s, err, RPL_E_SYNTAX, ln);
        rpl__av_form(s, kw, f, sizeof(f));
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
    if (kw == AV_KW_END) {
        rc = apply_end(s, ln, &p, err);
    } else if (kw != phase_kw[s->phase]) {
        rc = fail_want(s, err, RPL_E_RULES, ln);
    } else {
        switch (kw) {
        case AV_KW_START:
            rc = apply_start(s, ln, &p, err);
            break;
        case AV_KW_DEAL:
            rc = apply_deal(s, ln, &p, err);
            break;
        case AV_KW_PROPOSE:
            rc = apply_propose(s, ln, &p, &done, err);
            break;
        case AV_KW_VOTE:
            rc = apply_vote(s, ln, &p, &done, err);
            break;
        case AV_KW_TEAM:
            rc = apply_team(s, ln, &p, err);
            break;
        case AV_KW_CARD:
            rc = apply_card(s, ln, &p, &done, err);
            break;
        case AV_KW_QUEST:
            rc = apply_quest(s, ln, &p, err);
            break;
        case AV_KW_LADY:
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

enum rpl_status
rpl__av_learn(void *st, const char *label, const char *value,
              struct rpl_error *err)
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
        rpl__av_role_index(value, strlen(value)) >= 0) {
        s->opened_role[k] = (uint8_t)rpl__av_role_index(value, strlen(value));
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

bool
rpl__av_pending(const void *st, const struct rpl__env *env, struct rpl__emit *e)
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
        rpl__av_night_view(s, s->ndeals + 1u, e->value, sizeof(e->value));
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

enum rpl_status
rpl__av_action(const void *st, const struct rpl__env *env, const char *action,
               struct rpl__emit *e, struct rpl_error *err)
{
    const struct av_state *s = st;
    struct rpl__line ln;
    struct av_parsed p;
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
    kw = rpl__av_keyword(&ln.tok[0]);
    memset(&p, 0, sizeof(p));
    memset(e, 0, sizeof(*e));
    switch (kw) {
    case AV_KW_PROPOSE:
    case AV_KW_VOTE:
    case AV_KW_ASSASSINATE:
        if (!rpl__av_parse(s, kw, &ln, &p)) {
            rpl__av_form(s, kw, want, sizeof(want));
            return rpl__err_expected(err, RPL_E_SYNTAX, &ln, want);
        }
        memcpy(e->line, action, len + 1);
        return RPL_OK;
    case AV_KW_CARD: {
        unsigned v;

        if (ln.ntok != 3 || !rpl__tok_seat(&ln.tok[1], s->n, &p.a) ||
            !(rpl__tok_is(&ln.tok[2], "success") ||
              rpl__tok_is(&ln.tok[2], "fail")))
            return rpl__err_expected(err, RPL_E_SYNTAX, &ln,
                                     "card pK success|fail");
        v = rpl__tok_is(&ln.tok[2], "fail") ? AV_FAIL : AV_SUCCESS;
        snprintf(e->line, sizeof(e->line), "card p%zu", p.a);
        snprintf(e->label, sizeof(e->label), "card %u p%zu", s->round, p.a);
        snprintf(e->value, sizeof(e->value), "%s", rpl__av_card_name(v));
        return RPL_OK;
    }
    case AV_KW_LADY:
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
                 rpl__av_side_name(av_side_of(s->role[p.b])));
        return RPL_OK;
    default:
        return rpl__err(err, RPL_E_SYNTAX, 0,
                        "expected propose, vote, card, lady or assassinate, "
                        "got \"%.60s\"",
                        action);
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

        rpl__fmt(label, sizeof(label), "deal p%u", k);
        view_of(role, s->n, k, view, sizeof(view));
        rpl__commit(c, NULL, env->seed, env->id, label, view, env->version);
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
        const char *side = rpl__av_side_name(av_side_of(role[l->target]));
        char label[32];
        uint8_t c[32];

        rpl__fmt(label, sizeof(label), "lady %u p%u p%u", l->round, l->holder,
                 l->target);
        rpl__commit(c, NULL, env->seed, env->id, label, side, env->version);
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
        rc = check_assassin(s, role, s->assassinate_line, s->assassin,
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
                              rpl__av_winner_name[want],
                              rpl__av_reason_name[want],
                              rpl__av_winner_name[s->reason],
                              rpl__av_reason_name[s->reason], s->target,
                              rpl__av_role_name[role[s->target]]);
                goto out;
            }
        }
    }

out:
    sodium_memzero(view, sizeof(view));
    return rc;
}

enum rpl_status
rpl__av_reveal(void *st, const struct rpl__env *env, size_t reveal_line,
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
    r = rpl__av_role_index(ln->tok[3].p, ln->tok[3].n);
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

enum rpl_status
rpl__av_open(void *st, const struct rpl__line *ln, const struct rpl__env *env,
             struct rpl_error *err)
{
    struct av_state *s = st;
    const struct av_card *c;
    const struct av_quest *q;
    unsigned long r = 0;
    size_t k = 0;
    unsigned v = 0;
    char label[32];
    uint8_t commit[32];
    enum rpl_status code = RPL_OK;

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
    if (ln->ntok != 5 || !rpl__tok_is(&ln->tok[0], "open") ||
        !rpl__tok_is(&ln->tok[1], "card") ||
        !rpl__tok_uint(&ln->tok[2], 5, &r) || r == 0 ||
        !rpl__tok_seat(&ln->tok[3], s->n, &k) ||
        !(rpl__tok_is(&ln->tok[4], "success") ||
          rpl__tok_is(&ln->tok[4], "fail")))
        code = RPL_E_SYNTAX;
    else if (r != c->round || k != c->seat)
        code = RPL_E_RULES;
    if (code != RPL_OK) {
        char want[64];

        rpl__fmt(want, sizeof(want), "open card %u p%u success|fail", c->round,
                 c->seat);
        return rpl__err_expected(err, code, ln, want);
    }
    v = rpl__tok_is(&ln->tok[4], "fail") ? AV_FAIL : AV_SUCCESS;
    rpl__fmt(label, sizeof(label), "card %u p%u", c->round, c->seat);
    rpl__commit(commit, NULL, env->seed, env->id, label, rpl__av_card_name(v),
                env->version);
    if (memcmp(commit, c->commit, 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, ln->no,
                        "open card %u p%u %s does not match the commitment "
                        "of line %u",
                        c->round, c->seat, rpl__av_card_name(v), c->line);
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

size_t
rpl__av_opens_left(const void *st)
{
    const struct av_state *s = st;

    return (s->roles_due ? (size_t)s->n - s->nroles_opened : 0) +
           (size_t)s->ncards - s->nopened;
}

bool
rpl__av_open_line(const void *st, size_t i, struct rpl__emit *e)
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
                     (unsigned)i + 1, rpl__av_role_name[s->role[i + 1]]);
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
             rpl__av_card_name(c->value));
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
size_t
rpl__av_serialize(const void *st, uint8_t *buf, size_t cap)
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
    /* Only a game with variants has these bytes, so that the digests of
     * official games stay what they were. */
    if (s->variants) {
        put8(&w, s->variants);
        put8(&w, s->power);
    }
    return w.len;
}
