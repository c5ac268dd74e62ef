/*
 * avalon/coverage.c - the rule ids of camelog-avalon(7) as coverage ids
 * (rpl_log_coverage()): which of the H, O, W, V and A rules and which end
 * a game exercised, and the rules lines a corpus cycles through.  The
 * order of the table is the bit order: ids are only added at its end.
 *
 * What "exercised" means: an H rule, that the configuration is one the
 * rule constrains (H-4 with Merlin in play); an O or W rule, that its
 * warning is given; a V rule, that a variant it governs is in force; an
 * A rule, that the game reached the situation it decides.  Everything is
 * read from the state after the last line, which keeps the whole game
 * (proposals, quests, cards, examinations) and, in a complete log, the
 * deal and every card.
 */
#include "avalon.h"

enum {
    C_H1,
    C_H2,
    C_H3,
    C_H4,
    C_H5,
    C_H6,
    C_O1,
    C_O2,
    C_W1,
    C_W2,
    C_W3,
    C_W4,
    C_V1,
    C_V2,
    C_V3,
    C_V4,
    C_V5,
    C_A01,
    C_A02,
    C_A03,
    C_A04,
    C_A05,
    C_A06,
    C_A07,
    C_A08,
    C_A09,
    C_A10,
    C_A11,
    C_A12,
    C_A13,
    C_A14,
    C_A15,
    C_A16,
    C_A17,
    C_A18,
    C_A19,
    C_A20,
    C_A21,
    C_A22,
    C_A23,
    C_A24,
    C_A25,
    C_A26,
    C_A27,
    C_A28,
    C_A29,
    C_A30,
    C_A31,
    C_END_QUESTS,
    C_END_MISSED,
    C_END_FAILURES,
    C_END_REJECTIONS,
    C_END_ASSASSINATION,
    C_END_ABORTED,
    C_NAMES_EVIL_MISS,
    C_COUNT
};

static const char invalid[] =
    "breaking it makes the log invalid, and a corpus holds valid games "
    "only (tests/test_avalon.c checks the refusal)";

const struct rpl_coverage_id rpl__av_cov[AV_NCOV] = {
    [C_H1] = {"av.H-1", "players from 5 to 10", NULL},
    [C_H2] = {"av.H-2", "Good and Evil roles as T1 gives", NULL},
    [C_H3] = {"av.H-3", "unique roles at most once", NULL},
    [C_H4] = {"av.H-4", "Merlin in play asks for the Assassin", NULL},
    [C_H5] = {"av.H-5", "Percival in play asks for Merlin", NULL},
    [C_H6] = {"av.H-6", "only the eight role tokens", NULL},
    [C_O1] = {"av.O-1",
              "warning: 5 players, Percival without Mordred or "
              "Morgana",
              NULL},
    [C_O2] = {"av.O-2", "warning: the Lady with fewer than 7 players", NULL},
    [C_W1] = {"av.W-1", "warning: Morgana without Percival", NULL},
    [C_W2] = {"av.W-2", "warning: Mordred without Merlin", NULL},
    [C_W3] = {"av.W-3", "warning: no Merlin, no assassination", NULL},
    [C_W4] = {"av.W-4", "warning: more servants or minions than the box", NULL},
    [C_V1] = {"av.V-1", "a game under a variant", NULL},
    [C_V2] = {"av.V-2", "an assassin-ROLE variant (one at most)", NULL},
    [C_V3] = {"av.V-3", "assassin-ROLE: the role in play, no Assassin", NULL},
    [C_V4] = {"av.V-4", "percival-alone: Percival without Merlin", NULL},
    [C_V5] = {"av.V-5", "assassin-names-evil with Merlin", NULL},
    [C_A01] = {"av.A-01", "Merlin sees Oberon", NULL},
    [C_A02] = {"av.A-02", "the Lady examines Oberon", NULL},
    [C_A03] = {"av.A-03", "the Lady examines Mordred", NULL},
    [C_A04] = {"av.A-04", "Evil seats see each other", NULL},
    [C_A05] = {"av.A-05", "a Lady examination", NULL},
    [C_A06] = {"av.A-06", "no examination after a quest that ends the game",
               NULL},
    [C_A07] = {"av.A-07", "a second examination, past holders excluded", NULL},
    [C_A08] = {"av.A-08", "the Lady with Targeting", NULL},
    [C_A09] = {"av.A-09", "the first holder on the leader's right", NULL},
    [C_A10] = {"av.A-10", "the leader passes after an approval", NULL},
    [C_A11] = {"av.A-11", "rejections reset in a new round", NULL},
    [C_A12] = {"av.A-12", "a fifth proposal in a round", NULL},
    [C_A13] = {"av.A-13", "a tied vote rejects", NULL},
    [C_A14] = {"av.A-14", "a leader on its own team", NULL},
    [C_A15] = {"av.A-15", "a Fail card from a Good seat", invalid},
    [C_A16] = {"av.A-16", "Fail from Oberon, Mordred or the Assassin", NULL},
    [C_A17] = {"av.A-17", "slot 4, 7+ players: one Fail succeeds", NULL},
    [C_A18] = {"av.A-18", "the third success before the fifth quest", NULL},
    [C_A19] = {"av.A-19", "an assassination", NULL},
    [C_A20] = {"av.A-20", "the target is Good or Oberon", NULL},
    [C_A21] = {"av.A-21", "no Merlin: Good wins by quests", NULL},
    [C_A22] = {"av.A-22", "another role holds the Assassin's power", NULL},
    [C_A23] = {"av.A-23", "Percival without Morgana", NULL},
    [C_A24] = {"av.A-24", "Percival without Merlin (variant)", NULL},
    [C_A25] = {"av.A-25", "Morgana without Percival", NULL},
    [C_A26] = {"av.A-26", "the configuration is public", NULL},
    [C_A27] = {"av.A-27", "only the Fail count is public", NULL},
    [C_A28] = {"av.A-28", "Targeting: a rejection uses no slot", NULL},
    [C_A29] = {"av.A-29", "Targeting: slot 5 after two successes", NULL},
    [C_A30] = {"av.A-30", "the Lady acts before the leader passes", NULL},
    [C_A31] = {"av.A-31", "a Lady result that differs from the side", invalid},
    [C_END_QUESTS] = {"av.end.good.quests", "Good wins by quests", NULL},
    [C_END_MISSED] = {"av.end.good.missed", "the Assassin misses", NULL},
    [C_END_FAILURES] = {"av.end.evil.failures", "Evil's third failure", NULL},
    [C_END_REJECTIONS] = {"av.end.evil.rejections", "a fifth rejection", NULL},
    [C_END_ASSASSINATION] = {"av.end.evil.assassination",
                             "the Assassin names Merlin", NULL},
    [C_END_ABORTED] = {"av.end.aborted", "an abandoned game", NULL},
    [C_NAMES_EVIL_MISS] = {"av.assassin-names-evil.miss",
                           "assassin-names-evil: an Evil target misses", NULL},
};

_Static_assert(C_COUNT == AV_NCOV, "AV_NCOV counts the ids");
_Static_assert(AV_NCOV <= RPL_COVERAGE_MAX, "the ids fit a coverage set");

/* The corpus: every player count, the Lady, Targeting, each variant, and
 * configurations that give each warning. */
const char *const rpl__av_corpus_rules[] = {
    "players=5 roles=merlin,servant,servant,assassin,minion lady=off "
    "targeting=off",
    "players=5 roles=merlin,percival,servant,assassin,morgana lady=off "
    "targeting=on",
    "players=5 roles=merlin,percival,servant,assassin,minion lady=on "
    "targeting=off",
    "players=6 roles=merlin,percival,servant,servant,assassin,mordred "
    "lady=off targeting=on",
    "players=7 roles=merlin,percival,servant,servant,assassin,morgana,oberon "
    "lady=on targeting=off",
    "players=7 roles=merlin,percival,servant,servant,assassin,morgana,mordred "
    "lady=on targeting=off",
    "players=8 roles=merlin,servant,servant,servant,servant,assassin,mordred,"
    "oberon lady=on targeting=on",
    "players=9 roles=merlin,percival,servant,servant,servant,servant,"
    "assassin,morgana,mordred lady=on targeting=off",
    "players=10 roles=servant,servant,servant,servant,servant,servant,"
    "assassin,morgana,mordred,minion lady=off targeting=off",
    "players=10 roles=merlin,percival,servant,servant,servant,servant,"
    "assassin,mordred,oberon,minion lady=on targeting=on",
    "players=7 roles=merlin,percival,servant,servant,morgana,mordred,minion "
    "lady=off targeting=off variants=assassin-morgana",
    "players=6 roles=percival,servant,servant,servant,morgana,minion "
    "lady=off targeting=off variants=percival-alone",
    "players=8 roles=merlin,servant,servant,servant,servant,assassin,oberon,"
    "minion lady=off targeting=off variants=assassin-names-evil",
    NULL,
};

static bool
role_of(const struct av_state *s, unsigned seat, unsigned role)
{
    return s->knows && seat >= 1 && seat <= s->n && s->role[seat] == role;
}

static void
cover_config(const struct av_state *s, uint64_t *bits)
{
    const uint8_t *const c = s->count;
    const unsigned evil_seen =
        c[AV_ASSASSIN] + c[AV_MORGANA] + c[AV_MORDRED] + c[AV_MINION];

    rpl__cov_set(bits, C_H1);
    rpl__cov_set(bits, C_H2);
    rpl__cov_set(bits, C_H3);
    rpl__cov_set(bits, C_H6);
    rpl__cov_set(bits, C_A26);
    if (c[AV_MERLIN])
        rpl__cov_set(bits, C_H4);
    if (c[AV_PERCIVAL] && c[AV_MERLIN])
        rpl__cov_set(bits, C_H5);
    if (s->n == 5 && c[AV_PERCIVAL] && !c[AV_MORDRED] && !c[AV_MORGANA])
        rpl__cov_set(bits, C_O1);
    if (s->is_lady && s->n < 7)
        rpl__cov_set(bits, C_O2);
    if (c[AV_MORGANA] && !c[AV_PERCIVAL]) {
        rpl__cov_set(bits, C_W1);
        rpl__cov_set(bits, C_A25);
    }
    if (c[AV_MORDRED] && !c[AV_MERLIN])
        rpl__cov_set(bits, C_W2);
    if (!c[AV_MERLIN])
        rpl__cov_set(bits, C_W3);
    if (c[AV_SERVANT] > 5 || c[AV_MINION] > 3)
        rpl__cov_set(bits, C_W4);
    if (s->variants)
        rpl__cov_set(bits, C_V1);
    if (s->variants &
        ((1u << AV_V_ASSASSIN_MORGANA) | (1u << AV_V_ASSASSIN_MORDRED) |
         (1u << AV_V_ASSASSIN_OBERON))) {
        rpl__cov_set(bits, C_V2);
        rpl__cov_set(bits, C_V3);
    }
    if (s->variants & (1u << AV_V_PERCIVAL_ALONE)) {
        rpl__cov_set(bits, C_V4);
        rpl__cov_set(bits, C_A24);
    }
    if (s->variants & (1u << AV_V_NAMES_EVIL))
        rpl__cov_set(bits, C_V5);
    if (c[AV_MERLIN] && c[AV_OBERON])
        rpl__cov_set(bits, C_A01);
    if (evil_seen >= 2)
        rpl__cov_set(bits, C_A04);
    if (c[AV_PERCIVAL] && c[AV_MERLIN] && !c[AV_MORGANA])
        rpl__cov_set(bits, C_A23);
    if (s->is_lady)
        rpl__cov_set(bits, C_A09);
}

static void
cover_rounds(const struct av_state *s, uint64_t *bits)
{
    unsigned per_round[6] = {0};
    unsigned rejected[6] = {0};

    for (unsigned i = 0; i < s->nprops && i < AV_MAX_PROPS; i++) {
        const struct av_prop *const p = &s->prop[i];

        if (p->round >= 1 && p->round <= 5) {
            per_round[p->round]++;
            if (p->result == 2)
                rejected[p->round]++;
        }
        if (p->result == 1)
            rpl__cov_set(bits, C_A10);
        if (p->result == 2 && popcount16(p->yes) * 2u == s->n)
            rpl__cov_set(bits, C_A13);
        if (p->leader >= 1 && (p->team & bit(p->leader)))
            rpl__cov_set(bits, C_A14);
        if (s->is_targeting && p->result == 2)
            rpl__cov_set(bits, C_A28);
        if (s->is_targeting && p->result == 1 && p->slot == 5)
            rpl__cov_set(bits, C_A29);
    }
    for (unsigned r = 1; r <= 5; r++) {
        if (per_round[r] >= 5)
            rpl__cov_set(bits, C_A12);
        if (r > 1 && rejected[r - 1] > 0 && per_round[r] > 0)
            rpl__cov_set(bits, C_A11);
    }
    for (unsigned r = 1; r <= 5; r++) {
        const struct av_quest *const q = &s->quest[r];

        if (!q->result)
            continue;
        rpl__cov_set(bits, C_A27);
        if (q->slot == 4 && s->n >= 7 && q->fails == 1 &&
            q->result == AV_SUCCESS)
            rpl__cov_set(bits, C_A17);
    }
    for (unsigned i = 0; i < s->ncards && i < AV_MAX_CARDS; i++) {
        const unsigned k = s->card[i].seat;

        if (s->card[i].value == AV_FAIL &&
            (role_of(s, k, AV_OBERON) || role_of(s, k, AV_MORDRED) ||
             role_of(s, k, AV_ASSASSIN)))
            rpl__cov_set(bits, C_A16);
    }
}

static void
cover_lady(const struct av_state *s, uint64_t *bits)
{
    if (s->nladies >= 1) {
        rpl__cov_set(bits, C_A05);
        rpl__cov_set(bits, C_A30);
        if (s->is_targeting)
            rpl__cov_set(bits, C_A08);
    }
    if (s->nladies >= 2)
        rpl__cov_set(bits, C_A07);
    for (unsigned i = 0; i < s->nladies && i < AV_MAX_LADY; i++) {
        if (role_of(s, s->lady[i].target, AV_OBERON))
            rpl__cov_set(bits, C_A02);
        if (role_of(s, s->lady[i].target, AV_MORDRED))
            rpl__cov_set(bits, C_A03);
    }
    /* The game ended on the quest of round 2, 3 or 4 (no examination). */
    if (s->is_lady && s->round >= 2 && s->round <= 4 &&
        s->quest[s->round].result && (s->successes == 3 || s->failures == 3))
        rpl__cov_set(bits, C_A06);
}

static void
cover_end(const struct av_state *s, uint64_t *bits)
{
    static const unsigned end_id[AV_R_ABORTED + 1] = {
        [AV_R_QUESTS] = C_END_QUESTS,
        [AV_R_FAILURES] = C_END_FAILURES,
        [AV_R_REJECTIONS] = C_END_REJECTIONS,
        [AV_R_ASSASSINATION] = C_END_ASSASSINATION,
        [AV_R_MISSED] = C_END_MISSED,
        [AV_R_ABORTED] = C_END_ABORTED,
    };

    if (s->phase == AV_PH_OVER && s->reason >= AV_R_QUESTS &&
        s->reason <= AV_R_ABORTED)
        rpl__cov_set(bits, end_id[s->reason]);
    if (s->reason == AV_R_QUESTS && !s->count[AV_MERLIN])
        rpl__cov_set(bits, C_A21);
    if (s->assassin) {
        rpl__cov_set(bits, C_A19);
        if (s->successes == 3 && s->round < 5)
            rpl__cov_set(bits, C_A18);
        if (s->power != AV_ASSASSIN)
            rpl__cov_set(bits, C_A22);
        if (s->knows && s->target >= 1 && s->target <= s->n) {
            const unsigned r = s->role[s->target];

            if (av_side_of(r) == AV_GOOD || r == AV_OBERON)
                rpl__cov_set(bits, C_A20);
            else if (s->reason == AV_R_MISSED)
                rpl__cov_set(bits, C_NAMES_EVIL_MISS);
        }
    }
}

void
rpl__av_cover(const void *before, const void *st, const struct rpl__line *ln,
              const struct rpl__env *env, uint64_t *bits)
{
    const struct av_state *const s = st;

    (void)before;
    (void)env;
    if (ln)
        return; /* the state after the last line keeps the whole game */
    cover_config(s, bits);
    cover_rounds(s, bits);
    cover_lady(s, bits);
    cover_end(s, bits);
}
