/*
 * views.c - what a state shows of an Avalon game: the text and JSON
 * views of the board and of what a viewer knows (view, view_json), each
 * line told in words and as public events (describe, events_json), and
 * who was who once the deal is known (reveal_text, reveal_json).
 *
 * Nothing here changes a state.  Uses notation.c and rules.c (avalon.h
 * gives the order); only module.c uses it.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "avalon.h"
#include "json.h"

/* ------------------------------------------------------------- tables */

/* By enum av_phase, the "phase" key of view_json. */
static const char *const phase_name[] = {
    "rules", "start", "deal", "propose",       "vote", "tally",
    "cards", "quest", "lady", "assassination", "end",  "over",
};

/* ------------------------------------------------------------ helpers */

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

/* The declared house rules after prefix, nothing for the official
 * rules. */
static void
put_variants(struct rpl__buf *b, const struct av_state *s, const char *prefix)
{
    char list[128];

    if (!s->variants)
        return;
    rpl__av_fmt_variants(list, sizeof(list), s->variants);
    rpl__buf_printf(b, "%s%s", prefix, list);
}

/* The same as a JSON array, for the key "variants" (set only when a
 * variant is in force, so official games keep their outputs). */
static void
jset_variants(struct rpl__jb *j, json_t *o, const struct av_state *s)
{
    json_t *a;

    if (!s->variants)
        return;
    a = json_array();
    for (unsigned v = 0; v < AV_NVARIANTS; v++)
        if (s->variants & (1u << v))
            rpl__japp(j, a, json_string(rpl__av_variant_name[v]));
    rpl__jset(j, o, "variants", a);
}

static void
board_text(const struct av_state *s, struct rpl__buf *b)
{
    char seats[4 * AV_MAX_SEATS];

    rpl__buf_printf(b, "players %u:", s->n);
    for (unsigned i = 0; i < s->n; i++) {
        rpl__buf_puts(b, i ? "," : " ");
        rpl__buf_puts(b, rpl__av_role_name[s->roster[i]]);
    }
    rpl__buf_puts(b, s->is_lady ? "\nlady on" : "\nlady off");
    rpl__buf_puts(b, s->is_targeting ? ", targeting on" : ", targeting off");
    put_variants(b, s, ", house rules ");
    rpl__buf_puts(b, "\n");
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
            rpl__buf_printf(
                b, "%s %u %s fails=%u", r > 1 ? "," : "", s->quest[r].slot,
                rpl__av_card_name(s->quest[r].result), s->quest[r].fails);
    rpl__buf_puts(b, "\n");
    if (s->is_lady) {
        rpl__av_fmt_mask(seats, sizeof(seats), s->lady_held);
        rpl__buf_printf(b, "lady of the lake: p%u (has held: %s)\n",
                        s->lady_holder, seats);
    }
    if (s->nprops && (s->phase == AV_PH_VOTE || s->phase == AV_PH_TALLY ||
                      s->phase == AV_PH_CARDS || s->phase == AV_PH_QUEST)) {
        const struct av_prop *pr = &s->prop[s->nprops - 1];

        rpl__av_fmt_mask(seats, sizeof(seats), pr->team);
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
            rpl__buf_printf(b, "over: %s wins (%s)\n",
                            rpl__av_winner_name[s->reason],
                            rpl__av_reason_name[s->reason]);
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
    if (!rpl__av_seat_knows(s, all ? 0 : viewer)) {
        if (all)
            rpl__buf_puts(b, "roles not revealed\n");
        else
            rpl__buf_printf(b, "p%d: private knowledge not revealed\n", viewer);
        return;
    }
    for (unsigned k = 1; k <= s->n; k++) {
        if (!all && (int)k != viewer)
            continue;
        rpl__av_known_view(s, k, view, sizeof(view));
        rpl__buf_printf(b, "%sp%u %s\n", all ? "" : "you: ", k, view);
    }
    for (unsigned i = 0; i < s->ncards; i++) {
        const struct av_card *c = &s->card[i];

        if (c->value && (all || (int)c->seat == viewer))
            rpl__buf_printf(b, "card %u p%u %s\n", c->round, c->seat,
                            rpl__av_card_name(c->value));
    }
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];

        if (l->side && (all || (int)l->holder == viewer))
            rpl__buf_printf(b, "lady %u p%u p%u %s\n", l->round, l->holder,
                            l->target, rpl__av_side_name(l->side));
    }
}

void
rpl__av_view(const void *st, const struct rpl__env *env, int viewer,
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
    uint16_t seen = 0;
    const unsigned role = rpl__av_known_role(s, k, &seen);

    rpl__jset(j, o, "seat", json_integer(k));
    rpl__jset(j, o, "role", json_string(rpl__av_role_name[role]));
    rpl__jset(j, o, "side", json_string(rpl__av_side_name(av_side_of(role))));
    rpl__jset(j, o, "sees", jseats(j, seen));
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
void
rpl__av_view_json(const void *st, const struct rpl__env *env, int viewer,
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
        rpl__japp(&j, a, json_string(rpl__av_role_name[s->roster[i]]));
    rpl__jset(&j, o, "roles", a);
    rpl__jset(&j, o, "lady_on", json_boolean(s->is_lady));
    rpl__jset(&j, o, "targeting", json_boolean(s->is_targeting));
    jset_variants(&j, o, s);
    rpl__jset(&j, o, "phase", json_string(phase_name[s->phase]));
    rpl__jset(&j, o, "round", json_integer(s->round));
    rpl__jset(&j, o, "rejections", json_integer(s->rejections));
    rpl__jset(&j, o, "proposals", json_integer(s->nprops));
    rpl__jset(&j, o, "leader", json_integer(av_leader(s)));
    rpl__jset(
        &j, o, "turn",
        json_integer(s->phase == AV_PH_ASSASSIN ? 0 : (int)rpl__av_turn(s)));
    a = json_array();
    for (unsigned r = 1; r <= 5; r++) {
        const struct av_quest *q = &s->quest[r];

        if (q->result)
            rpl__japp(&j, a,
                      json_pack("{s:i,s:i,s:o,s:i,s:s}", "round", (int)r,
                                "slot", (int)q->slot, "team",
                                jseats(&j, q->team), "fails", (int)q->fails,
                                "result", rpl__av_card_name(q->result)));
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
    rpl__jset(&j, o, "winner",
              json_string(s->phase == AV_PH_OVER
                              ? rpl__av_winner_name[s->reason]
                              : ""));
    rpl__jset(&j, o, "reason",
              json_string(s->phase == AV_PH_OVER
                              ? rpl__av_reason_name[s->reason]
                              : ""));
    rpl__jset(&j, o, "viewer", json_integer(viewer));
    if (viewer == RPL_VIEW_ALL || is_seat_viewer(s, viewer)) {
        const bool all = viewer == RPL_VIEW_ALL;
        const bool knows = rpl__av_seat_knows(s, all ? 0 : viewer);
        json_t *known = json_object();

        rpl__jset(&j, known, "revealed", json_boolean(knows));
        if (knows) {
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
                                        rpl__av_card_name(c->value)));
            }
            for (unsigned i = 0; i < s->nladies; i++) {
                const struct av_lady *l = &s->lady[i];

                if (l->side && (all || (int)l->holder == viewer))
                    rpl__japp(&j, ladies,
                              json_pack("{s:i,s:i,s:i,s:s}", "round",
                                        (int)l->round, "holder", (int)l->holder,
                                        "target", (int)l->target, "side",
                                        rpl__av_side_name(l->side)));
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

/* Roles as a sentence names them: "you are the Assassin". */
static const char *const role_words[AV_NROLES] = {
    "Merlin",
    "Percival",
    "a Loyal Servant of Arthur",
    "the Assassin",
    "Morgana",
    "Mordred",
    "Oberon",
    "a Minion of Mordred",
};

static void put_list(struct rpl__buf *b, const struct rpl__env *env,
                     const struct av_state *s, uint16_t mask);
static void put_role(struct rpl__buf *b, const struct rpl__env *env,
                     const struct av_state *s, unsigned role, uint16_t seen,
                     const char *verb);

void
rpl__av_describe(const void *st, const struct rpl__env *env,
                 const struct rpl__line *ln, int viewer, struct rpl__buf *out)
{
    const struct av_state *s = st;
    const int kw = ln->ntok ? rpl__av_keyword(&ln->tok[0]) : -1;
    const bool all = viewer == RPL_VIEW_ALL;
    struct av_parsed p;

    memset(&p, 0, sizeof(p));
    if (kw < 0 || !rpl__av_parse(s, kw, ln, &p)) {
        rpl__buf_add(out, ln->text, ln->len);
        return;
    }
    switch (kw) {
    case AV_KW_START:
        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " leads first");
        if (s->is_lady) {
            rpl__buf_puts(out, "; ");
            put_who(out, env, s, (unsigned)p.b);
            rpl__buf_puts(out, " holds the lady of the lake");
        }
        put_variants(out, s, "; house rules: ");
        break;
    case AV_KW_DEAL:
        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " is dealt a role");
        if ((all && s->knows) ||
            (viewer == (int)p.a && rpl__av_seat_knows(s, viewer))) {
            uint16_t seen = 0;
            const unsigned role = rpl__av_known_role(s, (unsigned)p.a, &seen);

            rpl__buf_puts(out, ": ");
            put_role(out, env, s, role, seen, "sees");
        }
        break;
    case AV_KW_PROPOSE: {
        const struct av_prop *pr = prop_at(s, ln->no);

        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " proposes ");
        put_team(out, env, s, p.team);
        rpl__buf_printf(out, " for quest %lu",
                        s->is_targeting ? p.x
                                        : (unsigned long)(pr ? pr->round : 0));
        break;
    }
    case AV_KW_VOTE:
        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_printf(out, " votes %s", p.yes ? "yes" : "no");
        break;
    case AV_KW_TEAM: {
        const struct av_prop *pr = prop_at(s, ln->no);

        rpl__buf_printf(out, "team %s %lu-%lu", p.yes ? "approved" : "rejected",
                        p.x, p.y);
        if (pr) {
            const uint16_t no =
                (uint16_t)(((1u << (s->n + 1)) - 2u) & ~pr->yes);

            rpl__buf_puts(out, ": yes from ");
            if (pr->yes)
                put_list(out, env, s, pr->yes);
            else
                rpl__buf_puts(out, "nobody");
            rpl__buf_puts(out, "; no from ");
            if (no)
                put_list(out, env, s, no);
            else
                rpl__buf_puts(out, "nobody");
        }
        break;
    }
    case AV_KW_CARD: {
        const struct av_card *c = card_at(s, ln->no);

        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " plays a quest card");
        if (c && c->value && (all || viewer == (int)p.a))
            rpl__buf_printf(out, ": %s", rpl__av_card_name(c->value));
        break;
    }
    case AV_KW_QUEST:
        rpl__buf_printf(out, "quest %lu %s with %lu fail card%s", p.x,
                        p.yes ? "succeeds" : "fails", p.y, p.y == 1 ? "" : "s");
        break;
    case AV_KW_LADY: {
        const struct av_lady *l = lady_at(s, ln->no);

        put_who(out, env, s, (unsigned)p.a);
        rpl__buf_puts(out, " examines ");
        put_who(out, env, s, (unsigned)p.b);
        rpl__buf_puts(out, " with the lady of the lake");
        if (l && l->side && (all || viewer == (int)p.a))
            rpl__buf_printf(out, ": %s", rpl__av_side_name(l->side));
        break;
    }
    case AV_KW_ASSASSINATE:
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
void
rpl__av_events_json(const void *st, const struct rpl__env *env,
                    const struct rpl__line *ln, struct rpl__buf *out)
{
    const struct av_state *s = st;
    const int kw = ln->ntok ? rpl__av_keyword(&ln->tok[0]) : -1;
    struct rpl__jb j = {true};
    json_t *a = json_array();
    json_t *e = NULL;
    struct av_parsed p;

    (void)env;
    memset(&p, 0, sizeof(p));
    if (kw < 0 || !rpl__av_parse(s, kw, ln, &p)) {
        rpl__jdump(&j, a, out);
        return;
    }
    switch (kw) {
    case AV_KW_START:
        e = json_pack("{s:s,s:i}", "event", "start", "leader", (int)p.a);
        if (s->is_lady)
            rpl__jset(&j, e, "lady", json_integer((json_int_t)p.b));
        break;
    case AV_KW_DEAL:
        e = json_pack("{s:s,s:i}", "event", "deal", "seat", (int)p.a);
        break;
    case AV_KW_PROPOSE: {
        const struct av_prop *pr = prop_at(s, ln->no);

        e = json_pack("{s:s,s:i,s:i,s:i,s:o}", "event", "propose", "leader",
                      (int)p.a, "round", pr ? (int)pr->round : 0, "slot",
                      pr ? (int)pr->slot : (int)p.x, "team",
                      jseats(&j, p.team));
        break;
    }
    case AV_KW_VOTE:
        e = json_pack("{s:s,s:i,s:s}", "event", "vote", "seat", (int)p.a,
                      "vote", p.yes ? "yes" : "no");
        break;
    case AV_KW_TEAM: {
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
    case AV_KW_CARD: {
        const struct av_card *c = card_at(s, ln->no);

        e = json_pack("{s:s,s:i,s:i}", "event", "card", "round",
                      c ? (int)c->round : 0, "seat", (int)p.a);
        break;
    }
    case AV_KW_QUEST: {
        unsigned r = 0;

        for (unsigned i = 1; i <= 5; i++)
            if (s->quest[i].line == ln->no)
                r = i;
        e = json_pack("{s:s,s:i,s:i,s:s,s:i}", "event", "quest", "round",
                      (int)r, "slot", (int)p.x, "result",
                      p.yes ? "success" : "fail", "fails", (int)p.y);
        break;
    }
    case AV_KW_LADY: {
        const struct av_lady *l = lady_at(s, ln->no);

        e = json_pack("{s:s,s:i,s:i,s:i}", "event", "lady", "round",
                      l ? (int)l->round : 0, "holder", (int)p.a, "target",
                      (int)p.b);
        break;
    }
    case AV_KW_ASSASSINATE:
        e = json_pack("{s:s,s:i,s:i}", "event", "assassinate", "assassin",
                      (int)p.a, "target", (int)p.b);
        break;
    default:
        e = json_pack("{s:s,s:s,s:s}", "event", "end", "winner",
                      rpl__av_winner_name[p.reason], "reason",
                      rpl__av_reason_name[p.reason]);
        break;
    }
    rpl__japp(&j, a, e);
    rpl__jdump(&j, a, out);
}

/* ------------------------------------------------------ who was who */

void
rpl__av_reveal_text(const void *st, const struct rpl__env *env,
                    struct rpl__buf *out)
{
    const struct av_state *s = st;

    if (!s->knows) {
        rpl__buf_puts(out, "roles not revealed\n");
        return;
    }
    if (s->variants) {
        put_variants(out, s, "house rules: ");
        rpl__buf_puts(out, "\n");
    }
    for (unsigned k = 1; k <= s->n; k++) {
        put_who(out, env, s, k);
        rpl__buf_puts(out, ": ");
        put_role(out, env, s, s->role[k], rpl__av_seen(s, k), "saw");
        rpl__buf_puts(out, "\n");
    }
    for (unsigned r = 1; r <= 5; r++) {
        const struct av_quest *q = &s->quest[r];
        bool first = true;

        if (!q->slot)
            continue;
        uint16_t played[3] = {0, 0, 0}; /* by card value */

        if (q->result)
            rpl__buf_printf(out, "quest %u (round %u) %s with %u fail card%s",
                            q->slot, r,
                            q->result == AV_SUCCESS ? "succeeded" : "failed",
                            q->fails, q->fails == 1 ? "" : "s");
        else
            rpl__buf_printf(out, "quest %u (round %u) unfinished", q->slot, r);
        for (unsigned i = 0; i < s->ncards; i++) {
            const struct av_card *c = &s->card[i];

            if (c->round == r && c->value < 3)
                played[c->value] |= bit(c->seat);
        }
        for (unsigned v = 1; v < 3; v++) {
            if (!played[v])
                continue;
            rpl__buf_puts(out, first ? ": " : "; ");
            put_list(out, env, s, played[v]);
            rpl__buf_printf(out, " played %s", rpl__av_card_name(v));
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
        rpl__buf_printf(out, ": %s\n", rpl__av_side_name(l->side));
    }
    if (s->assassinate_line) {
        rpl__buf_puts(out, "assassination: ");
        put_who(out, env, s, s->assassin);
        rpl__buf_puts(out, " named ");
        put_who(out, env, s, s->target);
        rpl__buf_printf(out, ", who was %s: %s\n",
                        role_words[s->role[s->target]],
                        s->role[s->target] == AV_MERLIN ? "hit" : "missed");
    }
    if (s->phase == AV_PH_OVER) {
        if (s->reason == AV_R_ABORTED)
            rpl__buf_puts(out, "end: aborted\n");
        else
            rpl__buf_printf(out, "end: %s wins (%s)\n",
                            rpl__av_winner_name[s->reason],
                            rpl__av_reason_name[s->reason]);
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
 *   variants [name], only when the rules line declares house rules
 * and only {"revealed": false} while the state does not know the deal.
 */
void
rpl__av_reveal_json(const void *st, const struct rpl__env *env,
                    struct rpl__buf *out)
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

        rpl__av_night_view(s, k, view, sizeof(view));
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
                                    "value",
                                    rpl__av_card_name(s->card[i].value)));
        rpl__japp(&j, quests,
                  json_pack("{s:i,s:i,s:s,s:i,s:o}", "round", (int)r, "slot",
                            (int)q->slot, "result",
                            q->result ? rpl__av_card_name(q->result) : "",
                            "fails", (int)q->fails, "cards", cards));
    }
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];

        rpl__japp(&j, ladies,
                  json_pack("{s:i,s:i,s:i,s:s}", "round", (int)l->round,
                            "holder", (int)l->holder, "target", (int)l->target,
                            "side", rpl__av_side_name(l->side)));
    }
    jset_variants(&j, o, s);
    rpl__jset(&j, o, "seats", seats);
    rpl__jset(&j, o, "quests", quests);
    rpl__jset(&j, o, "lady", ladies);
    if (s->assassinate_line)
        rpl__jset(&j, o, "assassination",
                  json_pack("{s:i,s:i,s:s,s:b}", "assassin", (int)s->assassin,
                            "target", (int)s->target, "target_role",
                            rpl__av_role_name[s->role[s->target]], "hit",
                            s->role[s->target] == AV_MERLIN));
    else
        rpl__jset(&j, o, "assassination", json_null());
    rpl__jset(&j, o, "winner",
              json_string(s->phase == AV_PH_OVER
                              ? rpl__av_winner_name[s->reason]
                              : ""));
    rpl__jset(&j, o, "reason",
              json_string(s->phase == AV_PH_OVER
                              ? rpl__av_reason_name[s->reason]
                              : ""));
    rpl__jdump(&j, o, out);
}

/* ------------------------------------------------------------ board */

/* The seats of mask by name, "Alice (p1), Bob (p2) and Carol (p3)". */
static void
put_list(struct rpl__buf *b, const struct rpl__env *env,
         const struct av_state *s, uint16_t mask)
{
    const unsigned total = popcount16(mask);
    unsigned done = 0;

    for (unsigned k = 1; k <= s->n; k++) {
        if (!(mask & bit(k)))
            continue;
        if (done)
            rpl__buf_puts(b, done + 1 == total ? " and " : ", ");
        put_who(b, env, s, k);
        done++;
    }
}

/* A role as a sentence names it, with whom its night showed it: "the
 * Assassin (evil); sees Dave (p4) as evil". */
static void
put_role(struct rpl__buf *b, const struct rpl__env *env,
         const struct av_state *s, unsigned role, uint16_t seen,
         const char *verb)
{
    rpl__buf_printf(b, "%s (%s)", role_words[role],
                    rpl__av_side_name(av_side_of(role)));
    if (seen) {
        rpl__buf_printf(b, "; %s ", verb);
        put_list(b, env, s, seen);
        rpl__buf_puts(b, role == AV_PERCIVAL ? " as Merlin or Morgana"
                                             : " as evil");
    }
}

/* The seats of mask by first name only, "Alice, Bob", for the history. */
static void
put_short(struct rpl__buf *b, const struct rpl__env *env,
          const struct av_state *s, uint16_t mask)
{
    bool first = true;

    for (unsigned k = 1; k <= s->n; k++) {
        const char *name = seat_name(env, s, k);

        if (!(mask & bit(k)))
            continue;
        if (name)
            rpl__buf_printf(b, "%s%s", first ? "" : ", ", name);
        else
            rpl__buf_printf(b, "%sp%u", first ? "" : ", ", k);
        first = false;
    }
}

/* The quest of a board slot (1..5), or NULL while it is not played. */
static const struct av_quest *
quest_of_slot(const struct av_state *s, unsigned slot)
{
    for (unsigned r = 1; r <= 5; r++)
        if (s->quest[r].result && s->quest[r].slot == slot)
            return &s->quest[r];
    return NULL;
}

static void
board_track(const struct av_state *s, struct rpl__buf *b)
{
    rpl__buf_puts(b, "quest        ");
    for (unsigned q = 1; q <= 5; q++)
        rpl__buf_printf(b, q < 5 ? "%-9u" : "%u", q);
    rpl__buf_puts(b, "\nteam size    ");
    for (unsigned q = 1; q <= 5; q++)
        rpl__buf_printf(b, q < 5 ? "%-9u" : "%u", av_team_size(s, q));
    rpl__buf_puts(b, "\nfails needed ");
    for (unsigned q = 1; q <= 5; q++)
        rpl__buf_printf(b, q < 5 ? "%-9u" : "%u", av_fails_needed(s->n, q));
    rpl__buf_puts(b, "\nresult       ");
    for (unsigned q = 1; q <= 5; q++) {
        const struct av_quest *r = quest_of_slot(s, q);
        char cell[16];

        if (!r)
            snprintf(cell, sizeof(cell), "-");
        else if (r->result == AV_SUCCESS)
            snprintf(cell, sizeof(cell), "success");
        else
            snprintf(cell, sizeof(cell), "fail(%u)", r->fails);
        rpl__buf_printf(b, q < 5 ? "%-9s" : "%s", cell);
    }
    rpl__buf_puts(b, "\n");
}

static void
board_history(const struct av_state *s, const struct rpl__env *env,
              struct rpl__buf *b)
{
    unsigned done = 0, tries = 0, round = 0;

    for (unsigned i = 0; i < s->nprops; i++)
        done += s->prop[i].result != 0;
    if (!done)
        return;
    rpl__buf_puts(b, "votes so far (yes in brackets):\n");
    for (unsigned i = 0; i < s->nprops; i++) {
        const struct av_prop *pr = &s->prop[i];
        const char *name = seat_name(env, s, pr->leader);

        if (!pr->result)
            continue;
        tries = pr->round == round ? tries + 1 : 1;
        round = pr->round;
        rpl__buf_printf(b, "  quest %u, team %u: ", pr->slot, tries);
        if (name)
            rpl__buf_puts(b, name);
        else
            rpl__buf_printf(b, "p%u", pr->leader);
        rpl__buf_puts(b, " chose ");
        put_short(b, env, s, pr->team);
        rpl__buf_printf(b, ": %s %u-%u [",
                        pr->result == 1 ? "approved" : "rejected",
                        popcount16(pr->yes), s->n - popcount16(pr->yes));
        put_short(b, env, s, pr->yes);
        rpl__buf_puts(b, "]\n");
    }
}

static void
board_next(const struct av_state *s, const struct rpl__env *env,
           struct rpl__buf *b)
{
    switch (s->phase) {
    case AV_PH_DEAL:
        rpl__buf_puts(b, "next: the dealer deals ");
        put_who(b, env, s, s->ndeals + 1u);
        rpl__buf_puts(b, " a role\n");
        break;
    case AV_PH_PROPOSE:
        rpl__buf_puts(b, "next: ");
        put_who(b, env, s, av_leader(s));
        rpl__buf_puts(b, " proposes a team\n");
        break;
    case AV_PH_VOTE:
        rpl__buf_puts(b, "next: ");
        put_who(b, env, s, s->prop[s->nprops - 1].nvotes + 1u);
        rpl__buf_puts(b, " votes\n");
        break;
    case AV_PH_TALLY:
        rpl__buf_puts(b, "next: the dealer counts the votes\n");
        break;
    case AV_PH_CARDS:
        rpl__buf_puts(b, "next: ");
        put_who(b, env, s, rpl__av_next_card(s));
        rpl__buf_puts(b, " plays a quest card\n");
        break;
    case AV_PH_QUEST:
        rpl__buf_puts(b, "next: the dealer counts the quest cards\n");
        break;
    case AV_PH_LADY:
        rpl__buf_puts(b, "next: ");
        put_who(b, env, s, s->lady_holder);
        rpl__buf_puts(b, " examines a seat with the lady of the lake\n");
        break;
    case AV_PH_ASSASSIN:
        rpl__buf_puts(b, "next: the assassin names a seat as merlin\n");
        break;
    case AV_PH_END:
        rpl__buf_puts(b, "next: the dealer ends the game\n");
        break;
    default:
        if (s->reason == AV_R_ABORTED)
            rpl__buf_puts(b, "over: the game was aborted\n");
        else
            rpl__buf_printf(b, "over: %s wins (%s)\n",
                            rpl__av_winner_name[s->reason],
                            rpl__av_reason_name[s->reason]);
        break;
    }
}

/* What seat k knew at night, in words; you: as "you are", else as
 * "Alice (p1) is". */
static void
knows_words(const struct av_state *s, const struct rpl__env *env, unsigned k,
            bool you, struct rpl__buf *b)
{
    uint16_t seen = 0;
    const unsigned role = rpl__av_known_role(s, k, &seen);

    if (you) {
        rpl__buf_printf(b, "you are %s (%s)", role_words[role],
                        rpl__av_side_name(av_side_of(role)));
    } else {
        put_who(b, env, s, k);
        rpl__buf_printf(b, " is %s (%s)", role_words[role],
                        rpl__av_side_name(av_side_of(role)));
    }
    if (seen) {
        rpl__buf_puts(b, you ? "; you see " : "; sees ");
        put_list(b, env, s, seen);
        rpl__buf_puts(b, role == AV_PERCIVAL ? " as Merlin or Morgana"
                                             : " as evil");
    }
    rpl__buf_puts(b, "\n");
}

static void
board_private(const struct av_state *s, const struct rpl__env *env, int viewer,
              struct rpl__buf *b)
{
    const bool all = viewer == RPL_VIEW_ALL;

    if (!all && !is_seat_viewer(s, viewer))
        return;
    if (all ? !s->knows : !rpl__av_seat_knows(s, viewer)) {
        rpl__buf_puts(b, all ? "the roles are not revealed\n"
                             : "what you know is not revealed\n");
        return;
    }
    for (unsigned k = 1; k <= s->n; k++) {
        if ((!all && (int)k != viewer) || !s->deal_line[k])
            continue;
        knows_words(s, env, k, !all, b);
    }
    for (unsigned i = 0; i < s->ncards; i++) {
        const struct av_card *c = &s->card[i];

        if (!c->value || !(all || (int)c->seat == viewer))
            continue;
        if (all)
            put_who(b, env, s, c->seat);
        rpl__buf_printf(b, "%s %s on quest %u\n",
                        all ? " played" : "you played",
                        rpl__av_card_name(c->value), s->quest[c->round].slot);
    }
    for (unsigned i = 0; i < s->nladies; i++) {
        const struct av_lady *l = &s->lady[i];

        if (!l->side || !(all || (int)l->holder == viewer))
            continue;
        if (all)
            put_who(b, env, s, l->holder);
        rpl__buf_puts(b, all ? " saw with the lady that "
                             : "the lady showed "
                               "you that ");
        put_who(b, env, s, l->target);
        rpl__buf_printf(b, " is %s\n", rpl__av_side_name(l->side));
    }
}

void
rpl__av_board(const void *st, const struct rpl__env *env, int viewer,
              struct rpl__buf *out)
{
    const struct av_state *s = st;

    rpl__buf_printf(out, "Avalon, %u players:", s->n);
    for (unsigned k = 1; k <= s->n; k++) {
        rpl__buf_puts(out, k > 1 ? ", " : " ");
        put_who(out, env, s, k);
    }
    rpl__buf_puts(out, "\nroles:");
    for (unsigned i = 0; i < s->n; i++) {
        rpl__buf_puts(out, i ? ", " : " ");
        rpl__buf_puts(out, rpl__av_role_name[s->roster[i]]);
    }
    rpl__buf_puts(out, s->is_lady ? "; lady of the lake" : "");
    rpl__buf_puts(out, s->is_targeting ? "; targeting" : "");
    put_variants(out, s, "; house rules ");
    rpl__buf_puts(out, "\n");
    board_track(s, out);
    if (s->phase > AV_PH_START) {
        const bool on_table =
            s->nprops && (s->phase == AV_PH_VOTE || s->phase == AV_PH_TALLY ||
                          s->phase == AV_PH_CARDS || s->phase == AV_PH_QUEST);

        rpl__buf_printf(out, "round %u, leader ", s->round);
        put_who(out, env, s,
                on_table ? s->prop[s->nprops - 1].leader : av_leader(s));
        rpl__buf_printf(out, ", teams rejected %u of 5\n", s->rejections);
    }
    if (s->is_lady && s->lady_holder) {
        rpl__buf_puts(out, "lady of the lake: ");
        put_who(out, env, s, s->lady_holder);
        rpl__buf_puts(out, "\n");
    }
    if (s->nprops && (s->phase == AV_PH_VOTE || s->phase == AV_PH_TALLY ||
                      s->phase == AV_PH_CARDS || s->phase == AV_PH_QUEST)) {
        const struct av_prop *pr = &s->prop[s->nprops - 1];

        rpl__buf_printf(out, "team for quest %u, by ", pr->slot);
        put_who(out, env, s, pr->leader);
        rpl__buf_puts(out, ": ");
        put_list(out, env, s, pr->team);
        rpl__buf_puts(out, "\n");
        if (pr->nvotes) {
            rpl__buf_puts(out, "votes:");
            for (unsigned k = 1; k <= pr->nvotes; k++) {
                rpl__buf_puts(out, k > 1 ? ", " : " ");
                put_who(out, env, s, k);
                rpl__buf_puts(out, pr->yes & bit(k) ? " yes" : " no");
            }
            rpl__buf_puts(out, "\n");
        }
    }
    board_history(s, env, out);
    if (s->assassinate_line) {
        rpl__buf_puts(out, "assassination: ");
        put_who(out, env, s, s->assassin);
        rpl__buf_puts(out, " named ");
        put_who(out, env, s, s->target);
        rpl__buf_puts(out, " as merlin\n");
    }
    if (s->phase <= AV_PH_START)
        rpl__buf_puts(out, "next: the dealer starts the game\n");
    else
        board_next(s, env, out);
    board_private(s, env, viewer, out);
}

unsigned
rpl__av_mark(const void *before, const void *after, const struct rpl__line *ln)
{
    const struct av_state *a = before, *s = after;
    const int kw = ln->ntok ? rpl__av_keyword(&ln->tok[0]) : -1;
    unsigned m = 0;

    if (s->nprops > a->nprops)
        m |= RPL_MARK_TURN;
    if (s->successes + s->failures > a->successes + a->failures)
        m |= RPL_MARK_QUEST;
    if (kw == AV_KW_VOTE)
        m |= RPL_MARK_DETAIL;
    if (s->phase == AV_PH_OVER && a->phase != AV_PH_OVER)
        m |= RPL_MARK_END;
    return m;
}

void
rpl__av_describe_open(const void *st, const struct rpl__env *env,
                      const struct rpl__line *ln, struct rpl__buf *out)
{
    const struct av_state *s = st;
    unsigned long r = 0;
    size_t k = 0;

    if (ln->ntok == 5 && rpl__tok_is(&ln->tok[1], "card") &&
        rpl__tok_uint(&ln->tok[2], 5, &r) && r >= 1 &&
        rpl__tok_seat(&ln->tok[3], s->n, &k)) {
        put_who(out, env, s, (unsigned)k);
        rpl__buf_printf(out, " had played %.*s on quest %u", (int)ln->tok[4].n,
                        ln->tok[4].p, s->quest[r].slot);
        return;
    }
    if (ln->ntok == 4 && rpl__tok_is(&ln->tok[1], "role") &&
        rpl__tok_seat(&ln->tok[2], s->n, &k)) {
        put_who(out, env, s, (unsigned)k);
        rpl__buf_printf(out, " was dealt %.*s", (int)ln->tok[3].n,
                        ln->tok[3].p);
        return;
    }
    rpl__buf_printf(out, "opened: %.*s", (int)(ln->len - ln->tok[0].n - 1),
                    ln->text + ln->tok[0].n + 1);
}
