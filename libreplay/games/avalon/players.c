/*
 * games/avalon/players.c - seeded players for Avalon (camelog simulate, tests).
 *
 * A bot acts for the seat whose turn it is and draws every choice from
 * the stream it is given, so the same state and stream give the same
 * action.  It only ever produces legal actions, and it acts only on what
 * its seat knows: its own card and night view, its own Lady results and
 * the public record (every proposal and vote, the fail count of every
 * quest, who examined whom).  Two kinds:
 *
 * - RPL_BOT_RANDOM: a uniformly random legal action (any team of the
 *   right size and any legal slot, any vote, an evil seat's card at
 *   random, any legal Lady or assassination target).
 *
 * - RPL_BOT_PLAUSIBLE: plays its side the way people do.  The figures
 *   quoted here are the constants that follow the includes.
 *
 *   Belief.  A good seat weighs every way the evil seats could sit (at
 *   most C(10,4) = 210) that fits what it knows: the seats it saw (Merlin)
 *   or examined as evil are in, the seats it knows to be good are out,
 *   and for Percival with Morgana in play exactly one of his two
 *   candidates is in.  A way is ruled out when a quest had more fails
 *   than evil members; it loses weight when its evil members played no
 *   fail (a little on the first quest, where evil often hides, more
 *   later), and when the votes fit it badly.  Votes are read with the
 *   table's habits (a good seat approves 40% of the teams with an evil
 *   member and 75% of the clean ones, an evil seat 85% and 60%; an evil
 *   leader's team always holds evil, a good leader's 35% of the time),
 *   but, as people do, at a fraction of their worth: 3/16 on the teams
 *   that went on a quest, 3/64 on rejected ones; and a seat counts as a
 *   good voter only once it has been right more often than wrong on the
 *   quest teams (rejecting those that got a fail, approving the others),
 *   so the table follows Merlin once his record shows.  The weights give
 *   the chance that a seat is evil and that a team is clean.  Integer
 *   arithmetic only: a weight is 2^(score/8), the best way at 2^52.
 *
 *   Good seats lead with themselves and then, one at a time, the seat
 *   that keeps the team most likely clean; Percival first takes along
 *   the candidate he trusts more, until it is 70% likely to be Morgana.
 *   They approve a team whose chance to be clean is at least 70% of that
 *   of the team they would pick (15 points less after each rejection of
 *   the round), so early teams without them are often rejected; they
 *   approve the fifth proposal of a round unless evil already failed a
 *   quest and they are 90% sure the team holds evil.  Merlin leads and
 *   votes from the public record like a servant, not to stand out,
 *   except that he keeps the seats he saw off his teams (30% of the time
 *   on the first two quests he leads the public record's team anyway)
 *   and rejects 65% of the teams the record speaks for that hold a seat
 *   he saw (all of them when the quest decides the game; the fifth
 *   proposal only when it cannot be won otherwise).
 *
 *   Evil seats lead with their least suspected evil seat (two on a
 *   two-fail quest) and the good seats the table trusts most.  They
 *   approve teams they lead or are on; otherwise 80% of the teams with
 *   an evil seat and 60% of the clean ones, every team with evil and no
 *   clean one when the quest decides the game, half of the clean fifth
 *   proposals.  On a quest a lone evil seat plays Success 40% of the time
 *   on the first quest and 15% on the second to build trust, and fails
 *   later or whenever the quest decides the game; when evil seats who
 *   know each other share a one-fail quest only the lowest seat fails;
 *   on a two-fail quest they fail only together (Oberon, who knows
 *   nobody, fails half the time).
 *
 *   The Lady holder examines the seat it is least sure about; an evil
 *   holder a good seat, or 30% of the time a fellow to keep the token.
 *   The Assassin names the seat that "Merlin, who saw the evil seats"
 *   explains better than "a servant": Merlin rejects 85% of the teams
 *   with evil and seldom leads one, a servant rejects 60% and leads 35%;
 *   with Percival in play, Merlin is more often on good leaders' teams
 *   (Percival takes him along).  Up to 1.5 bits of misjudgement are
 *   added.  Mordred, whom Merlin does not see, blurs all this, as at a
 *   real table: only when the Assassin has a single fellow does he know
 *   it is Mordred and leave it out.
 *
 *   These figures were set so that the usual set-ups end about like
 *   published games: good wins 35-50% of the games, the Assassin finds
 *   Merlin in 30-60% of those that reach him, and every end occurs.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avalon.h"

/* The plausible players' figures: chances in percent, weights in
 * eighths of a bit (8 = twice as likely). */
enum {
    HIDE_FIRST = -6,       /* evil on the first quest and no fail */
    HIDE_SECOND = -16,     /* on the second */
    HIDE_LATER = -28,      /* later */
    VOTE_TRUST = 3,        /* the votes' worth, in 16ths, on quest teams */
    ACCEPT = 70,           /* % of the best team's chance a vote asks for */
    ACCEPT_STEP = 15,      /* less per rejection in the round */
    DESPAIR = 900,         /* per mille: a fifth team surely holding evil */
    PERCIVAL_DOUBT = 700,  /* per mille: he stops trusting a candidate */
    MERLIN_SLIP = 30,      /* % leading the public record's team early */
    MERLIN_BLOCK = 65,     /* % rejecting a team with a seat he saw */
    EVIL_DISTANCE = 20,    /* % rejecting a fellow's team one is not on */
    EVIL_BLEND = 60,       /* % approving a clean team */
    EVIL_HAMMER_NO = 50,   /* % rejecting a clean fifth proposal */
    EVIL_HIDE_FIRST = 40,  /* % Success on the first quest */
    EVIL_HIDE_SECOND = 15, /* % Success on the second quest */
    EVIL_KEEP_LADY = 30,   /* % examining a fellow to keep the token */
    SHOT_NOISE = 12,       /* misjudgement added to the shot's scores */
};

/* log2 of a vote's chance in eighths, by the voter's side, [0] for a
 * clean team and [1] for one with evil (see the header). */
static const int LOG_YES_EVIL[2] = {-6, -2};
static const int LOG_NO_EVIL[2] = {-11, -22};
static const int LOG_YES_GOOD[2] = {-3, -11};
static const int LOG_NO_GOOD[2] = {-16, -6};
static const int LOG_LEAD_EVIL[2] = {-32, 0};
static const int LOG_LEAD_GOOD[2] = {-5, -12};

/* 2^(i/8) * 2^16: weights from scores in eighths of a bit. */
static const uint32_t POW2_8[8] = {65536, 71468,  77936,  84990,
                                   92682, 101070, 110218, 120194};

/* The most ways the evil seats can sit: C(10, 4). */
#define MAX_WORLDS 210

static bool
chance(struct rpl__stream *rng, unsigned pct)
{
    return rpl__stream_uniform(rng, 100) < pct;
}

/* Every seat as a mask. */
static uint16_t
all_seats(const struct av_state *s)
{
    return (uint16_t)(((1u << s->n) - 1u) << 1);
}

static bool
is_evil_role(const struct av_state *s, unsigned k)
{
    return av_is_evil(s->role[k]);
}

/* A quest that ends the game if it fails. */
static bool
decisive(const struct av_state *s)
{
    return s->failures == 2 || s->successes == 2;
}

/* ------------------------------------------------------------ belief */

/* The public record, condensed for weighing the ways evil can sit. */
struct record {
    unsigned nevil;
    unsigned nquests;
    uint16_t quest_team[5];
    uint8_t quest_fails[5];
    int8_t quest_hide[5]; /* the weight of evil members and no fail */
    unsigned nprops;
    uint16_t team[AV_MAX_PROPS];
    uint16_t yes[AV_MAX_PROPS];    /* approvals, the leader's aside */
    uint16_t no[AV_MAX_PROPS];     /* rejections */
    uint16_t leader[AV_MAX_PROPS]; /* as a mask */
    uint8_t worth[AV_MAX_PROPS];   /* 4 on a quest team, 1 rejected */
    uint16_t reliable;             /* seats right more often than wrong */
};

static void
record_init(const struct av_state *s, struct record *rec)
{
    const uint16_t all = all_seats(s);
    int right[AV_MAX_SEATS + 1] = {0};

    memset(rec, 0, sizeof(*rec));
    for (unsigned r = AV_ASSASSIN; r < AV_NROLES; r++)
        rec->nevil += s->count[r];
    for (unsigned r = 1; r <= 5; r++) {
        const struct av_quest *q = &s->quest[r];

        if (!q->result)
            continue;
        rec->quest_team[rec->nquests] = q->team;
        rec->quest_fails[rec->nquests] = q->fails;
        rec->quest_hide[rec->nquests] = (int8_t)(r == 1   ? HIDE_FIRST
                                                 : r == 2 ? HIDE_SECOND
                                                          : HIDE_LATER);
        rec->nquests++;
    }
    for (unsigned i = 0; i < s->nprops; i++) {
        const struct av_prop *pr = &s->prop[i];
        const struct av_quest *q = &s->quest[pr->round];
        const uint16_t voters = (uint16_t)(all & ~bit(pr->leader));
        const unsigned j = rec->nprops;

        if (pr->nvotes != s->n)
            continue;
        rec->team[j] = pr->team;
        rec->yes[j] = (uint16_t)(pr->yes & voters);
        rec->no[j] = (uint16_t)(voters & ~pr->yes);
        rec->leader[j] = bit(pr->leader);
        rec->worth[j] = pr->result == 1 ? 4 : 1;
        rec->nprops++;
        /* right: rejecting a quest team that got a fail, approving one
         * that did not (its members aside) */
        if (pr->result != 1 || !q->result)
            continue;
        for (unsigned k = 1; k <= s->n; k++)
            if (!(pr->team & bit(k)))
                right[k] +=
                    ((pr->yes & bit(k)) != 0) == (q->fails == 0) ? 1 : -1;
    }
    for (unsigned k = 1; k <= s->n; k++)
        if (right[k] > 0)
            rec->reliable |= bit(k);
}

/* The score of the way `e` of the evil seats, in eighths of a bit;
 * false when a fail count rules it out. */
static bool
world_score(const struct record *rec, uint16_t e, int *out)
{
    int sc = 0, votes = 0;

    for (unsigned i = 0; i < rec->nquests; i++) {
        const unsigned in = popcount16(rec->quest_team[i] & e);

        if (rec->quest_fails[i] > in)
            return false;
        if (in > 0 && rec->quest_fails[i] == 0)
            sc += rec->quest_hide[i];
    }
    for (unsigned i = 0; i < rec->nprops; i++) {
        const unsigned d = (rec->team[i] & e) != 0;
        const uint16_t trusted = (uint16_t)(rec->reliable & ~e);
        const int v =
            (int)popcount16(rec->yes[i] & e) * LOG_YES_EVIL[d] +
            (int)popcount16(rec->no[i] & e) * LOG_NO_EVIL[d] +
            (int)popcount16(rec->yes[i] & trusted) * LOG_YES_GOOD[d] +
            (int)popcount16(rec->no[i] & trusted) * LOG_NO_GOOD[d] +
            ((rec->leader[i] & e) ? LOG_LEAD_EVIL[d] : LOG_LEAD_GOOD[d]);

        votes += v * rec->worth[i];
    }
    *out = sc + votes * VOTE_TRUST / 64;
    return true;
}

/* A seat's belief: the ways evil can sit, weighed. */
struct belief {
    unsigned nworlds;
    uint16_t world[MAX_WORLDS];
    uint64_t weight[MAX_WORLDS];
    uint64_t total;
    unsigned evil[AV_MAX_SEATS + 1]; /* per mille: seat k is evil */
};

/*
 * The belief of a seat that knows the seats in `must` to be evil and
 * those in `never` to be good and, for Percival with Morgana, that
 * exactly one seat of `one_of` is evil.
 */
static void
belief_build(const struct av_state *s, uint16_t must, uint16_t never,
             uint16_t one_of, struct belief *b)
{
    struct record rec;
    int score[MAX_WORLDS];
    int top = 0;

    memset(b, 0, sizeof(*b));
    record_init(s, &rec);
    /* every set of nevil seats, as the next larger mask of as many bits */
    for (uint32_t m = (1u << rec.nevil) - 1u; m < (1u << s->n);) {
        const uint16_t e = (uint16_t)(m << 1);
        const uint32_t low = m & (0u - m), up = m + low;
        int sc;

        if ((e & must) == must && !(e & never) &&
            (!one_of || popcount16(e & one_of) == 1) &&
            b->nworlds < MAX_WORLDS && world_score(&rec, e, &sc)) {
            if (b->nworlds == 0 || sc > top)
                top = sc;
            score[b->nworlds] = sc;
            b->world[b->nworlds++] = e;
        }
        if (low == 0)
            break;
        m = up | (((m ^ up) >> 2) / low);
    }
    /* weights 2^(score / 8), the best at 2^52; below 2^-36 of it, 0 */
    for (unsigned w = 0; w < b->nworlds; w++) {
        const int x = score[w] - top + 8 * 36;

        b->weight[w] = x < 0 ? 0 : (uint64_t)POW2_8[x & 7] << (x >> 3);
        b->total += b->weight[w];
    }
    for (unsigned k = 1; k <= s->n; k++) {
        uint64_t sum = 0;

        for (unsigned w = 0; w < b->nworlds; w++)
            if (b->world[w] & bit(k))
                sum += b->weight[w];
        b->evil[k] = b->total ? (unsigned)(sum / (b->total / 1000 + 1)) : 500;
    }
}

/* Per mille: the chance that team holds no evil seat. */
static unsigned
p_clean(const struct belief *b, uint16_t team)
{
    uint64_t sum = 0;

    if (!b->total)
        return 0;
    for (unsigned w = 0; w < b->nworlds; w++)
        if (!(b->world[w] & team))
            sum += b->weight[w];
    return (unsigned)(sum / (b->total / 1000 + 1));
}

/* What good seat me knows (its night view and Lady results), as a
 * belief. */
static void
belief_night(const struct av_state *s, unsigned me, struct belief *b)
{
    const uint16_t seen = rpl__av_seen(s, me);
    uint16_t must = 0, never = bit(me), one_of = 0;

    if (s->role[me] == AV_MERLIN)
        must |= seen;
    if (s->role[me] == AV_PERCIVAL) {
        if (s->count[AV_MORGANA])
            one_of = seen;
        else
            never |= seen;
    }
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];

        if (l->holder != me || !l->side)
            continue;
        if (l->side == AV_EVIL)
            must |= bit(l->target);
        else
            never |= bit(l->target);
    }
    belief_build(s, must, never, one_of, b);
}

/* What anyone in me's chair would believe from the public record alone
 * (Merlin's face to the table). */
static void
belief_public(const struct av_state *s, unsigned me, struct belief *b)
{
    belief_build(s, 0, bit(me), 0, b);
}

/* ------------------------------------------------------------ teams */

/* seats[0..n) ordered by ascending rank, ties in random order. */
static void
order_seats(const struct av_state *s, struct rpl__stream *rng,
            const int rank[AV_MAX_SEATS + 1], uint8_t *seats)
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
}

/* Like order_seats, by the belief's chance of being evil. */
static void
order_by_belief(const struct av_state *s, struct rpl__stream *rng,
                const struct belief *b, uint8_t *seats)
{
    int rank[AV_MAX_SEATS + 1] = {0};

    for (unsigned k = 1; k <= s->n; k++)
        rank[k] = (int)b->evil[k];
    order_seats(s, rng, rank, seats);
}

/*
 * Grows team to size seats taken from `from`, one at a time, each time
 * the seat that keeps it most likely clean under b (ties: the first in
 * seats[]).
 */
static uint16_t
grow_team(const struct av_state *s, const struct belief *b,
          const uint8_t *seats, uint16_t from, uint16_t team, unsigned size)
{
    while (popcount16(team) < size) {
        unsigned best = 0, best_p = 0;

        for (unsigned i = 0; i < s->n; i++) {
            const unsigned k = seats[i];
            unsigned p;

            if (!(from & bit(k)) || (team & bit(k)))
                continue;
            p = p_clean(b, (uint16_t)(team | bit(k)));
            if (!best || p > best_p) {
                best = k;
                best_p = p;
            }
        }
        if (!best)
            break;
        team |= bit(best);
    }
    return team;
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

/* The Merlin candidate Percival trusts more, as a mask; 0 when he has
 * no choice to make or the record speaks against both. */
static uint16_t
percival_pick(const struct av_state *s, unsigned me, const struct belief *b)
{
    const uint16_t seen = rpl__av_seen(s, me);
    unsigned best = 0;

    for (unsigned k = 1; k <= s->n; k++)
        if ((seen & bit(k)) && (!best || b->evil[k] < b->evil[best]))
            best = k;
    return best && b->evil[best] < PERCIVAL_DOUBT ? bit(best) : 0;
}

static uint16_t
team_evil(const struct av_state *s, unsigned me, unsigned slot,
          struct rpl__stream *rng)
{
    const unsigned size = av_team_size(s, slot);
    const uint16_t evil = (uint16_t)(bit(me) | rpl__av_seen(s, me));
    const unsigned want = av_fails_needed(s->n, slot);
    uint8_t seats[AV_MAX_SEATS];
    struct belief b;
    uint16_t team = 0;

    /* the table's view: its least suspected evil seats, then the good
     * seats it trusts most */
    belief_build(s, 0, 0, 0, &b);
    order_by_belief(s, rng, &b, seats);
    for (unsigned i = 0; i < s->n && popcount16(team) < want; i++)
        if (evil & bit(seats[i]))
            team |= bit(seats[i]);
    for (unsigned i = 0; i < s->n && popcount16(team) < size; i++)
        if (!(evil & bit(seats[i])))
            team |= bit(seats[i]);
    return team;
}

static uint16_t
team_plausible(const struct av_state *s, unsigned me, unsigned slot,
               struct rpl__stream *rng)
{
    const unsigned size = av_team_size(s, slot);
    const uint16_t all = all_seats(s);
    const bool merlin = s->role[me] == AV_MERLIN;
    uint8_t seats[AV_MAX_SEATS];
    struct belief b;
    uint16_t team = bit(me);

    if (is_evil_role(s, me))
        return team_evil(s, me, slot, rng);
    if (merlin)
        belief_public(s, me, &b);
    else
        belief_night(s, me, &b);
    order_by_belief(s, rng, &b, seats);
    /* Merlin keeps the seats he saw off his team, but early on he now
     * and then leads the public record's team */
    if (merlin && (s->round > 2 || decisive(s) || !chance(rng, MERLIN_SLIP)))
        team = grow_team(s, &b, seats, (uint16_t)(all & ~rpl__av_seen(s, me)),
                         team, size);
    /* Percival takes the candidate he trusts more along, until the
     * record speaks clearly against it */
    if (s->role[me] == AV_PERCIVAL && size > 1)
        team = grow_team(s, &b, seats, percival_pick(s, me, &b), team, 2);
    return grow_team(s, &b, seats, all, team, size);
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

/* ------------------------------------------------------------ votes */

/*
 * Whether belief b finds team good enough: its chance to be clean is at
 * least ACCEPT% of that of the team the voter would pick itself, less
 * after each rejection of the round.
 */
static bool
team_fits(const struct av_state *s, const struct belief *b, unsigned me,
          uint16_t team)
{
    uint8_t seats[AV_MAX_SEATS];
    const int accept = ACCEPT - ACCEPT_STEP * (int)s->rejections;
    unsigned best;

    for (unsigned i = 0; i < s->n; i++)
        seats[i] = (uint8_t)(i + 1);
    best = p_clean(
        b, grow_team(s, b, seats, all_seats(s), bit(me), popcount16(team)));
    return (int)p_clean(b, team) * 100 >= (int)best * accept;
}

static bool
vote_merlin(const struct av_state *s, unsigned me, const struct av_prop *pr,
            struct rpl__stream *rng)
{
    const bool dirty = (pr->team & rpl__av_seen(s, me)) != 0;
    struct belief b;

    if (s->rejections == 4)
        /* lost either way when evil needs one more failed quest */
        return !(dirty && s->failures == 2);
    if (pr->leader == me)
        return true;
    belief_public(s, me, &b);
    if (!team_fits(s, &b, me, pr->team))
        return false;
    /* a team the record speaks for, with a seat he saw: rejecting it
     * stands out */
    return !(dirty && (decisive(s) || chance(rng, MERLIN_BLOCK)));
}

static bool
vote_good(const struct av_state *s, unsigned me, const struct av_prop *pr)
{
    struct belief b;

    belief_night(s, me, &b);
    if (s->rejections == 4)
        return !(s->failures >= 1 && p_clean(&b, pr->team) <= 1000 - DESPAIR);
    if (pr->leader == me)
        return true;
    return team_fits(s, &b, me, pr->team);
}

static bool
vote_evil(const struct av_state *s, unsigned me, const struct av_prop *pr,
          struct rpl__stream *rng)
{
    const uint16_t evil = (uint16_t)(bit(me) | rpl__av_seen(s, me));
    const bool dirty = (pr->team & evil) != 0;

    if (pr->leader == me || (pr->team & bit(me)))
        return true;
    if (s->rejections == 4)
        return dirty || !chance(rng, EVIL_HAMMER_NO);
    if (decisive(s))
        return dirty;
    if (dirty)
        return !chance(rng, EVIL_DISTANCE);
    return chance(rng, EVIL_BLEND);
}

static bool
vote_plausible(const struct av_state *s, unsigned me, struct rpl__stream *rng)
{
    const struct av_prop *pr = &s->prop[s->nprops - 1];

    if (is_evil_role(s, me))
        return vote_evil(s, me, pr, rng);
    if (s->role[me] == AV_MERLIN)
        return vote_merlin(s, me, pr, rng);
    return vote_good(s, me, pr);
}

/* ------------------------------------------------------------ cards */

static bool
fail_plausible(const struct av_state *s, unsigned me, struct rpl__stream *rng)
{
    const struct av_quest *q = &s->quest[s->round];
    const unsigned need = av_fails_needed(s->n, q->slot);
    const uint16_t mates = (uint16_t)(q->team & rpl__av_seen(s, me));

    if (need == 2) {
        if (s->role[me] == AV_OBERON)
            return chance(rng, 50);
        return mates != 0;
    }
    /* One fail is enough: the lowest evil seat it knows plays it. */
    for (unsigned k = 1; k < me; k++)
        if (mates & bit(k))
            return false;
    if (decisive(s))
        return true;
    if (s->round == 1)
        return !chance(rng, EVIL_HIDE_FIRST);
    if (s->round == 2)
        return !chance(rng, EVIL_HIDE_SECOND);
    return true;
}

/* ------------------------------------------- Lady and assassination */

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

/* Legal assassination targets as a mask: not itself and not a
 * seat it saw at night, unless assassin-names-evil lifts A-20.  The
 * random bot draws from all of them, as from every legal action. */
static uint16_t
shot_targets(const struct av_state *s, unsigned me)
{
    uint16_t m = (uint16_t)(all_seats(s) & ~bit(me));

    if (!(s->variants & (1u << AV_V_NAMES_EVIL)))
        m &= (uint16_t)~rpl__av_seen(s, me);
    return m;
}

/* The best-ranked seat of mask (highest score), ties at random. */
static unsigned
best_of(const struct av_state *s, uint16_t mask,
        const int score[AV_MAX_SEATS + 1], struct rpl__stream *rng)
{
    int rank[AV_MAX_SEATS + 1] = {0};
    uint8_t seats[AV_MAX_SEATS];
    int top = INT_MIN;

    for (unsigned k = 1; k <= s->n; k++)
        if (mask & bit(k) && score[k] > top)
            top = score[k];
    for (unsigned k = 1; k <= s->n; k++)
        rank[k] = (mask & bit(k)) ? top - score[k] : INT_MAX;
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
    int score[AV_MAX_SEATS + 1] = {0};
    struct belief b;

    if (is_evil_role(s, me)) {
        const uint16_t mates = (uint16_t)(legal & rpl__av_seen(s, me));

        if (mates && chance(rng, EVIL_KEEP_LADY))
            return random_of(mates, rng);
        if (legal & ~mates)
            return random_of((uint16_t)(legal & ~mates), rng);
        return random_of(legal, rng);
    }
    /* the seat it is least sure about */
    belief_night(s, me, &b);
    for (unsigned k = 1; k <= s->n; k++)
        score[k] = -abs((int)b.evil[k] - 500);
    return best_of(s, legal, score, rng);
}

/*
 * How much better "k is Merlin and saw the seats in `shown`" explains
 * k's votes and teams than "k is a servant", in eighths of a bit: Merlin
 * rejects 85% of the teams with a seat he saw, a servant 60%; Merlin
 * leads one 5% of the time, a servant 35%; with Percival in play, Merlin
 * is on a good leader's team 55% of the time, a servant 45% (`evil`:
 * the evil seats the Assassin knows).
 */
static int
merlin_fit(const struct av_state *s, unsigned k, uint16_t evil, uint16_t shown)
{
    int sc = 0;

    for (unsigned i = 0; i < s->nprops; i++) {
        const struct av_prop *pr = &s->prop[i];
        const bool dirty = (pr->team & shown) != 0;

        if (pr->nvotes != s->n)
            continue;
        if (pr->leader == k)
            sc += dirty ? -22 : 4;
        else if (dirty)
            sc += (pr->yes & bit(k)) ? -11 : 4;
        if (s->count[AV_PERCIVAL] && pr->leader != k &&
            !(evil & bit(pr->leader)))
            sc += (pr->team & bit(k)) ? 2 : -2;
    }
    return sc;
}

/*
 * The seat Merlin's behaviour fits best.  Merlin does not see Mordred:
 * when Mordred is in play and the Assassin has one fellow only, that
 * fellow is Mordred and does not count as a seat Merlin saw (with more
 * fellows the Assassin cannot tell which, and counts them all).
 */
static unsigned
shot_plausible(const struct av_state *s, unsigned me, struct rpl__stream *rng)
{
    const uint16_t fellows = rpl__av_seen(s, me);
    /* A thinking Assassin never names a fellow it saw, variant or not. */
    const uint16_t legal = (uint16_t)(shot_targets(s, me) & ~fellows);
    const uint16_t evil = (uint16_t)(bit(me) | fellows);
    uint16_t shown = evil;
    int score[AV_MAX_SEATS + 1] = {0};

    if (s->count[AV_MORDRED] && s->role[me] != AV_MORDRED &&
        popcount16(fellows) == 1)
        shown = bit(me);
    for (unsigned k = 1; k <= s->n; k++)
        if (legal & bit(k))
            score[k] = merlin_fit(s, k, evil, shown) +
                       (int)rpl__stream_uniform(rng, SHOT_NOISE + 1);
    return best_of(s, legal, score, rng);
}

/* ------------------------------------------------------------ entry */

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
