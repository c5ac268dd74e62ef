/*
 * bot.c - seeded players for Avalon (camelog simulate, tests).
 *
 * A bot acts for the seat whose turn it is and draws every choice from
 * the stream it is given, so the same state and stream give the same
 * action.  It only ever produces legal actions.  Two kinds:
 *
 * - RPL_BOT_RANDOM: a uniformly random legal action (any team of the
 *   right size and any legal slot, any vote, an evil seat's card at
 *   random, any legal Lady or assassination target).
 * - RPL_BOT_PLAUSIBLE: plays its side with simple reasoning, using only
 *   what its seat knows (its night view, its Lady results and public
 *   facts): good seats propose and approve teams without a seat they know
 *   or suspect to be evil, and approve the fifth proposal of a round;
 *   Merlin steers with what he saw; evil seats approve teams with an
 *   evil seat, fail quests unless it would expose them too early (a
 *   two-seat first quest) and coordinate so that one of them fails a
 *   one-fail quest and two fail a two-fail quest; the Assassin names the
 *   seat whose votes best matched the truth.
 */
#include <stdio.h>
#include <string.h>

#include "avalon.h"

static uint16_t
bit(unsigned k)
{
    return (uint16_t)(1u << k);
}

static unsigned
popcount16(uint16_t m)
{
    unsigned c = 0;

    for (; m; m &= (uint16_t)(m - 1))
        c++;
    return c;
}

/* What a seat knows. */
struct know {
    unsigned me;
    uint16_t evil; /* seats it knows are evil (itself when evil) */
    uint16_t good; /* seats it knows are good (itself when good) */
    uint16_t hint; /* Percival's Merlin candidates */
    unsigned suspicion[AV_MAX_SEATS + 1];
};

static void
know_init(const struct av_state *s, unsigned me, struct know *kn)
{
    const unsigned role = s->role[me];
    const uint16_t seen = rpl__av_seen(s, me);

    memset(kn, 0, sizeof(*kn));
    kn->me = me;
    if (av_is_evil(role))
        kn->evil = (uint16_t)(bit(me) | seen);
    else
        kn->good = bit(me);
    if (role == AV_MERLIN)
        kn->evil |= seen;
    if (role == AV_PERCIVAL)
        kn->hint = seen;
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];

        if (l->holder != me || !l->side)
            continue;
        if (l->side == AV_EVIL)
            kn->evil |= bit(l->target);
        else
            kn->good |= bit(l->target);
    }
    /* Public quests: fails make their members suspect; a team whose
     * unknown members are as many as its fail cards is all evil. */
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned r = 1; r <= 5; r++) {
            const struct av_quest *q = &s->quest[r];
            const uint16_t unknown = (uint16_t)(q->team & ~kn->good);

            if (!q->result || !q->fails)
                continue;
            if (popcount16(unknown) == q->fails)
                kn->evil |= unknown;
            if (pass == 0)
                for (unsigned k = 1; k <= s->n; k++)
                    if (unknown & bit(k))
                        kn->suspicion[k] += q->fails;
        }
}

static bool
is_evil_role(const struct av_state *s, unsigned k)
{
    return av_is_evil(s->role[k]);
}

/* seats[0..n) ordered by ascending rank, ties in random order. */
static unsigned
order_seats(const struct av_state *s, struct rpl__stream *rng,
            const unsigned rank[AV_MAX_SEATS + 1], uint8_t *seats)
{
    const unsigned n = s->n;

    for (unsigned i = 0; i < n; i++)
        seats[i] = (uint8_t)(i + 1);
    rpl__stream_shuffle(rng, seats, n);
    for (unsigned i = 1; i < n; i++) {
        const uint8_t x = seats[i];
        unsigned j = i;

        for (; j > 0 && rank[seats[j - 1]] > rank[x]; j--)
            seats[j] = seats[j - 1];
        seats[j] = x;
    }
    return n;
}

static int
put_team(char *out, size_t cap, const struct av_state *s, unsigned leader,
         unsigned slot, uint16_t team)
{
    uint8_t seats[AV_MAX_SEATS];
    char list[4 * AV_MAX_SEATS];
    size_t n = 0;

    for (unsigned k = 1; k <= s->n; k++)
        if (team & bit(k))
            seats[n++] = (uint8_t)k;
    rpl__fmt_seats(list, sizeof(list), seats, n);
    if (s->is_targeting)
        return snprintf(out, cap, "propose p%u q%u %s", leader, slot, list);
    return snprintf(out, cap, "propose p%u %s", leader, list);
}

/* The legal slots (Targeting) as a list; returns how many. */
static unsigned
legal_slots(const struct av_state *s, unsigned *slots)
{
    unsigned n = 0;

    for (unsigned slot = 1; slot <= 5; slot++)
        if (av_slot_open(s, slot))
            slots[n++] = slot;
    return n;
}

static unsigned
choose_slot(const struct av_state *s, enum rpl_bot kind,
            struct rpl__stream *rng)
{
    unsigned slots[5];
    unsigned n;

    if (!s->is_targeting)
        return s->round;
    n = legal_slots(s, slots);
    if (n == 0)
        return 0;
    if (kind == RPL_BOT_PLAUSIBLE)
        return slots[0];
    return slots[rpl__stream_uniform(rng, n)];
}

static uint16_t
team_plausible(const struct av_state *s, unsigned me, unsigned slot,
               struct rpl__stream *rng)
{
    const unsigned size = av_team_size(s, slot);
    const bool evil = is_evil_role(s, me);
    unsigned rank[AV_MAX_SEATS + 1] = {0};
    uint8_t seats[AV_MAX_SEATS];
    struct know kn;
    bool mate = false;
    uint16_t team = 0;

    know_init(s, me, &kn);
    for (unsigned k = 1; k <= s->n; k++) {
        if (k == me)
            rank[k] = 0;
        else if (!evil && (kn.evil & bit(k)))
            rank[k] = 1000;
        else if (!evil && (kn.good & bit(k)))
            rank[k] = 1;
        else if (!evil && (kn.hint & bit(k)))
            rank[k] = 2;
        else if (evil && (kn.evil & bit(k)))
            rank[k] = 500; /* a second evil seat gives evil away */
        else
            rank[k] = 10 + (evil ? 0 : 10 * kn.suspicion[k]);
    }
    order_seats(s, rng, rank, seats);
    /* A two-fail quest needs two evil seats: take one fellow. */
    if (evil && av_fails_needed(s->n, slot) == 2 && size >= 2)
        for (unsigned i = 0; i < s->n && !mate; i++)
            if (seats[i] != me && (kn.evil & bit(seats[i]))) {
                team |= bit(seats[i]);
                mate = true;
            }
    for (unsigned i = 0; i < s->n && popcount16(team) < size; i++)
        team |= bit(seats[i]);
    return team;
}

static uint16_t
team_random(const struct av_state *s, unsigned slot, struct rpl__stream *rng)
{
    uint8_t seats[AV_MAX_SEATS];
    uint16_t team = 0;

    for (unsigned i = 0; i < s->n; i++)
        seats[i] = (uint8_t)(i + 1);
    rpl__stream_shuffle(rng, seats, s->n);
    for (unsigned i = 0; i < av_team_size(s, slot); i++)
        team |= bit(seats[i]);
    return team;
}

static bool
vote_plausible(const struct av_state *s, unsigned me, struct rpl__stream *rng)
{
    const struct av_prop *pr = &s->prop[s->nprops - 1];
    struct know kn;

    know_init(s, me, &kn);
    if (is_evil_role(s, me)) {
        if (pr->team & kn.evil)
            return true;
        if (s->rejections == 4)
            return false; /* a fifth rejection wins for evil */
        return rpl__stream_uniform(rng, 3) == 0;
    }
    if (s->rejections == 4)
        return true; /* a fifth rejection loses for good */
    if (pr->team & kn.evil)
        return false;
    for (unsigned k = 1; k <= s->n; k++)
        if ((pr->team & bit(k)) && !(kn.good & bit(k)) && kn.suspicion[k] > 0 &&
            pr->leader != me)
            return false;
    return true;
}

static bool
fail_plausible(const struct av_state *s, unsigned me, struct rpl__stream *rng)
{
    const struct av_quest *q = &s->quest[s->round];
    const unsigned need = av_fails_needed(s->n, q->slot);
    struct know kn;
    uint16_t mates;

    know_init(s, me, &kn);
    mates = (uint16_t)(q->team & kn.evil & ~bit(me));
    if (need == 2) {
        if (s->role[me] == AV_OBERON)
            return rpl__stream_uniform(rng, 2) == 0;
        return mates != 0;
    }
    /* One fail is enough: the lowest known evil seat plays it. */
    for (unsigned k = 1; k < me; k++)
        if (mates & bit(k))
            return false;
    if (s->failures == 2 || s->successes == 2)
        return true;
    if (s->round == 1 && q->size == 2)
        return false; /* too early to show itself */
    return true;
}

/* Legal Lady targets as a mask. */
static uint16_t
lady_targets(const struct av_state *s)
{
    uint16_t m = 0;

    for (unsigned k = 1; k <= s->n; k++)
        if (k != s->lady_holder && !(s->lady_held & bit(k)))
            m |= bit(k);
    return m;
}

/* Legal assassination targets as a mask. */
static uint16_t
shot_targets(const struct av_state *s, unsigned me)
{
    uint16_t m = 0;

    for (unsigned k = 1; k <= s->n; k++)
        if (k != me && !rpl__av_sees(AV_ASSASSIN, s->role[k]))
            m |= bit(k);
    return m;
}

/* The best-ranked seat of mask (highest score), ties at random. */
static unsigned
best_of(const struct av_state *s, uint16_t mask,
        const unsigned score[AV_MAX_SEATS + 1], struct rpl__stream *rng)
{
    unsigned rank[AV_MAX_SEATS + 1] = {0};
    uint8_t seats[AV_MAX_SEATS];
    unsigned top = 0;

    for (unsigned k = 1; k <= s->n; k++)
        if (mask & bit(k) && score[k] > top)
            top = score[k];
    for (unsigned k = 1; k <= s->n; k++)
        rank[k] = (mask & bit(k)) ? top - score[k] : top + 1;
    order_seats(s, rng, rank, seats);
    return seats[0];
}

static unsigned
random_of(uint16_t mask, struct rpl__stream *rng)
{
    unsigned i = rpl__stream_uniform(rng, popcount16(mask));

    for (unsigned k = 1; k <= AV_MAX_SEATS; k++)
        if (mask & bit(k)) {
            if (i == 0)
                return k;
            i--;
        }
    return 0;
}

static unsigned
lady_plausible(const struct av_state *s, unsigned me, struct rpl__stream *rng)
{
    const uint16_t legal = lady_targets(s);
    unsigned score[AV_MAX_SEATS + 1] = {0};
    struct know kn;

    know_init(s, me, &kn);
    for (unsigned k = 1; k <= s->n; k++) {
        const bool known = (kn.evil | kn.good) & bit(k);

        score[k] = known ? 1 : 2 + (is_evil_role(s, me) ? 0 : kn.suspicion[k]);
    }
    return best_of(s, legal, score, rng);
}

static unsigned
shot_plausible(const struct av_state *s, unsigned me, struct rpl__stream *rng)
{
    const uint16_t legal = shot_targets(s, me);
    unsigned score[AV_MAX_SEATS + 1] = {0};
    struct know kn;

    know_init(s, me, &kn);
    for (unsigned i = 0; i < s->nprops; i++) {
        const struct av_prop *pr = &s->prop[i];
        const bool dirty = (pr->team & kn.evil) != 0;

        if (pr->nvotes != s->n)
            continue;
        for (unsigned k = 1; k <= s->n; k++) {
            const bool yes = (pr->yes & bit(k)) != 0;

            if (yes != dirty)
                score[k] += 2;
        }
        if (!dirty)
            score[pr->leader]++;
    }
    for (unsigned k = 1; k <= s->n; k++)
        score[k]++;
    return best_of(s, legal, score, rng);
}

enum rpl_status
rpl__av_bot(const struct av_state *s, enum rpl_bot kind,
            struct rpl__stream *rng, char *out, size_t cap,
            struct rpl_error *err)
{
    const unsigned me = (unsigned)rpl__av_turn(s);
    const bool plausible = kind == RPL_BOT_PLAUSIBLE;
    int w = -1;

    if (!s->knows || me == 0)
        return rpl__err(err, RPL_E_STATE, 0, "no seat is to act");
    if (kind != RPL_BOT_RANDOM && kind != RPL_BOT_PLAUSIBLE)
        return rpl__err(err, RPL_E_ARG, 0, "unknown bot kind %d", (int)kind);
    switch (s->phase) {
    case AV_PH_PROPOSE: {
        const unsigned slot = choose_slot(s, kind, rng);

        if (slot == 0)
            return rpl__err(err, RPL_E_STATE, 0, "no quest slot is open");
        w = put_team(out, cap, s, me, slot,
                     plausible ? team_plausible(s, me, slot, rng)
                               : team_random(s, slot, rng));
        break;
    }
    case AV_PH_VOTE: {
        const bool yes = plausible ? vote_plausible(s, me, rng)
                                   : rpl__stream_uniform(rng, 2) == 0;

        w = snprintf(out, cap, "vote p%u %s", me, yes ? "yes" : "no");
        break;
    }
    case AV_PH_CARDS: {
        bool fail = false;

        if (is_evil_role(s, me))
            fail = plausible ? fail_plausible(s, me, rng)
                             : rpl__stream_uniform(rng, 2) == 0;
        w = snprintf(out, cap, "card p%u %s", me, fail ? "fail" : "success");
        break;
    }
    case AV_PH_LADY:
        w = snprintf(out, cap, "lady p%u p%u", me,
                     plausible ? lady_plausible(s, me, rng)
                               : random_of(lady_targets(s), rng));
        break;
    case AV_PH_ASSASSIN:
        w = snprintf(out, cap, "assassinate p%u p%u", me,
                     plausible ? shot_plausible(s, me, rng)
                               : random_of(shot_targets(s, me), rng));
        break;
    default:
        return rpl__err(err, RPL_E_STATE, 0, "no seat is to act");
    }
    if (w < 0 || (size_t)w >= cap)
        return rpl__err(err, RPL_E_ARG, 0, "action buffer too small");
    return RPL_OK;
}
