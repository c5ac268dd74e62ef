/*
 * live.c - Avalon in a live game (camelog host): the members screen,
 * step_seats and state_json of struct rpl__game_live (games/game.h).
 *
 * screen() judges a seat's submission on what is public and on what that
 * seat knows (its own role and night view), and words every refusal so
 * that every player may read it: it never repeats the submitted text (a
 * card's value), never names a hidden role or the seat that holds one,
 * and never quotes a commitment.  The public checks come first, so a
 * refusal that depends on a secret is reached only by actions that every
 * public check lets through, and its text is one generic sentence
 * (`not-allowed`).  The refusal paths of the engine (rules.c: action()
 * and apply()) and their outcome here, in order:
 *
 *   no rules line, start, deal       not-started
 *   after end                        over
 *   seat not in the game             on-behalf
 *   empty, too long                  malformed, limit
 *   unknown keyword, dealer line     malformed (the five seat actions)
 *   syntax of propose/vote/card/lady/assassinate   malformed (its form)
 *   the action names another seat    on-behalf
 *   keyword not of this phase        phase
 *   propose: not the leader          not-your-turn (names the leader)
 *   propose: slot played, slot 5 too early, seat twice, team size
 *                                    illegal
 *   vote: already voted              duplicate
 *   card: not on the quest team      not-your-turn
 *   card: already played             duplicate
 *   card: fail from a good seat      not-allowed
 *   lady: not the holder             not-your-turn (names the holder)
 *   lady: self, a former holder      illegal
 *   assassinate: self                illegal
 *   assassinate: not the Assassin    not-allowed (A-20; never says who is)
 *   assassinate: a seat the Assassin saw    not-allowed
 *
 * A vote or a quest card is judged as if the seats before it in seat
 * order had acted: any member of the open step who has not acted yet
 * may submit.
 *
 * state_json() writes one object, keys in this order (camelog-avalon(7)):
 * game, players, phase, round, leader, rejections, successes, failures,
 * quests (five: slot, size, fails_needed, result, fails), lady (holder
 * or null), lady_held, proposal (null, or leader, slot, team, voted,
 * yes, no: the seats whose vote lines are written, and how), cards (the
 * seats whose quest card lines are written in this quest), act ("none",
 * "dealer", "seat", "step" or "assassin"), seats (who acts: [] for the
 * assassin unless the viewer sees everything), actions (the viewer's
 * legal actions in private form: none for the public; a proposal as a
 * form with placeholders, "propose p1 pA,pB,pC", one per open slot
 * with Targeting), winner and reason ("" until the end).
 *
 * Uses rules.c and notation.c (avalon.h gives the order); only module.c
 * uses it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "avalon.h"

/* The longest private form action() takes (it keeps 80 bytes of the
 * line for the commitment). */
#define ACTION_MAX (sizeof(((struct rpl__emit *)0)->line) - 81)

static enum rpl_status refuse(struct rpl_refusal *why, enum rpl_status rc,
                              const char *code, const char *fmt, ...)
    RPL__PRINTF(4, 5);

static enum rpl_status
refuse(struct rpl_refusal *why, enum rpl_status rc, const char *code,
       const char *fmt, ...)
{
    va_list ap;

    if (why) {
        snprintf(why->code, sizeof(why->code), "%s", code);
        va_start(ap, fmt);
        vsnprintf(why->text, sizeof(why->text), fmt, ap);
        va_end(ap);
    }
    return rc;
}

/* The one text of every refusal whose reason is a secret. */
static enum rpl_status
not_allowed(struct rpl_refusal *why, size_t seat)
{
    return refuse(why, RPL_E_RULES, "not-allowed",
                  "p%zu: this action is not allowed", seat);
}

static uint16_t
all_seats(const struct av_state *s)
{
    return (uint16_t)(((1u << s->n) - 1u) << 1);
}

static unsigned
assassin_of(const struct av_state *s)
{
    for (unsigned k = 1; k <= s->n; k++)
        if (s->role[k] == AV_ASSASSIN)
            return k;
    return 0;
}

/* The seats whose card line of this quest is written. */
static uint16_t
cards_played(const struct av_state *s)
{
    uint16_t m = 0;

    if (s->phase != AV_PH_CARDS && s->phase != AV_PH_QUEST)
        return 0;
    for (unsigned i = s->quest[s->round].first_card; i < s->ncards; i++)
        if (s->card[i].round == s->round)
            m |= bit(s->card[i].seat);
    return m;
}

/* The seats whose vote line on the open proposal is written. */
static uint16_t
votes_written(const struct av_prop *pr)
{
    return (uint16_t)(((1u << (pr->nvotes + 1u)) - 1u) & ~1u);
}

/* The keyword a seat writes in each phase, -1 for the dealer's phases. */
static int
seat_kw(unsigned phase)
{
    switch (phase) {
    case AV_PH_PROPOSE:
        return AV_KW_PROPOSE;
    case AV_PH_VOTE:
        return AV_KW_VOTE;
    case AV_PH_CARDS:
        return AV_KW_CARD;
    case AV_PH_LADY:
        return AV_KW_LADY;
    case AV_PH_ASSASSIN:
        return AV_KW_ASSASSINATE;
    default:
        return -1;
    }
}

static const char *
waits_for(unsigned phase)
{
    switch (phase) {
    case AV_PH_PROPOSE:
        return "the leader's proposal";
    case AV_PH_VOTE:
        return "the votes on the team";
    case AV_PH_CARDS:
        return "the quest cards";
    case AV_PH_LADY:
        return "the lady of the lake";
    case AV_PH_ASSASSIN:
        return "the assassination";
    default:
        return "the dealer";
    }
}

static enum rpl_status
screen_propose(const struct av_state *s, size_t seat, const struct av_parsed *p,
               struct rpl_refusal *why)
{
    const unsigned leader = av_leader(s);
    const unsigned slot = s->is_targeting ? (unsigned)p->x : s->round;
    unsigned size;

    if (seat != leader)
        return refuse(why, RPL_E_RULES, "not-your-turn",
                      "p%zu is not the leader (p%u is)", seat, leader);
    if (s->slots_done & bit(slot))
        return refuse(why, RPL_E_RULES, "illegal",
                      "quest slot %u has been played", slot);
    if (slot == 5 && s->successes < 2)
        return refuse(why, RPL_E_RULES, "illegal",
                      "slot 5 needs two successful quests");
    if (p->dup)
        return refuse(why, RPL_E_RULES, "illegal",
                      "p%zu appears twice in the team", p->dup);
    size = av_team_size(s, slot);
    if (p->nteam != size)
        return refuse(why, RPL_E_RULES, "illegal",
                      "the team for quest %u needs %u seats", slot, size);
    if (s->nprops >= AV_MAX_PROPS)
        return refuse(why, RPL_E_LIMIT, "limit", "too many proposals");
    return RPL_OK;
}

static enum rpl_status
screen_card(const struct av_state *s, size_t seat, bool is_fail,
            struct rpl_refusal *why)
{
    const struct av_quest *q = &s->quest[s->round];

    if (!(q->team & bit((unsigned)seat)))
        return refuse(why, RPL_E_RULES, "not-your-turn",
                      "p%zu is not on the quest team", seat);
    if (cards_played(s) & bit((unsigned)seat))
        return refuse(why, RPL_E_RULES, "duplicate",
                      "p%zu has played a card on this quest", seat);
    if (s->ncards >= AV_MAX_CARDS)
        return refuse(why, RPL_E_LIMIT, "limit", "too many cards");
    /* The seat knows its side; the table must not learn it. */
    if (is_fail && s->knows && !av_is_evil(s->role[seat]))
        return not_allowed(why, seat);
    return RPL_OK;
}

static enum rpl_status
screen_lady(const struct av_state *s, size_t seat, size_t target,
            struct rpl_refusal *why)
{
    if (seat != s->lady_holder)
        return refuse(why, RPL_E_RULES, "not-your-turn",
                      "p%zu does not hold the lady of the lake (p%u does)",
                      seat, s->lady_holder);
    if (target == seat)
        return refuse(why, RPL_E_RULES, "illegal",
                      "p%zu cannot examine themself", seat);
    if (s->lady_held & bit((unsigned)target))
        return refuse(why, RPL_E_RULES, "illegal",
                      "p%zu has held the lady of the lake and cannot be "
                      "examined",
                      target);
    if (s->nladies >= AV_MAX_LADY)
        return refuse(why, RPL_E_LIMIT, "limit", "too many lady lines");
    return RPL_OK;
}

static enum rpl_status
screen_assassinate(const struct av_state *s, size_t seat, size_t target,
                   struct rpl_refusal *why)
{
    if (target == seat)
        return refuse(why, RPL_E_RULES, "illegal", "p%zu cannot name themself",
                      seat);
    /* Only the seat itself (and the evil seats) know whether it is the
     * Assassin, and only the evil seats whom it saw. */
    if (!s->knows || s->role[seat] != AV_ASSASSIN ||
        (rpl__av_seen(s, (unsigned)seat) & bit((unsigned)target)))
        return not_allowed(why, seat);
    return RPL_OK;
}

enum rpl_status
rpl__av_screen(const void *st, const struct rpl__env *env, size_t seat,
               const char *action, struct rpl_refusal *why)
{
    const struct av_state *s = st;
    const size_t len = strlen(action);
    struct rpl__line ln;
    struct av_parsed p;
    char form[64];
    int kw;

    (void)env;
    if (s->phase <= AV_PH_DEAL)
        return refuse(why, RPL_E_STATE, "not-started",
                      "the game has not started");
    if (s->phase == AV_PH_OVER)
        return refuse(why, RPL_E_STATE, "over", "the game is over");
    if (seat < 1 || seat > s->n)
        return refuse(why, RPL_E_ARG, "on-behalf", "no seat p%zu in this game",
                      seat);
    if (len > ACTION_MAX)
        return refuse(why, RPL_E_LIMIT, "limit",
                      "an action is at most %zu bytes", (size_t)ACTION_MAX);
    if (len == 0 || rpl__line_split(&ln, action, len, 0, NULL) != RPL_OK)
        return refuse(why, RPL_E_SYNTAX, "malformed",
                      "expected an action such as \"vote p%zu yes\"", seat);
    kw = rpl__av_keyword(&ln.tok[0]);
    memset(&p, 0, sizeof(p));
    switch (kw) {
    case AV_KW_PROPOSE:
    case AV_KW_VOTE:
    case AV_KW_ASSASSINATE:
        if (!rpl__av_parse(s, kw, &ln, &p)) {
            rpl__av_form(s, kw, form, sizeof(form));
            return refuse(why, RPL_E_SYNTAX, "malformed", "expected \"%s\"",
                          form);
        }
        break;
    case AV_KW_CARD:
        if (ln.ntok != 3 || !rpl__tok_seat(&ln.tok[1], s->n, &p.a) ||
            !(rpl__tok_is(&ln.tok[2], "success") ||
              rpl__tok_is(&ln.tok[2], "fail")))
            return refuse(why, RPL_E_SYNTAX, "malformed",
                          "expected \"card pK success|fail\"");
        p.yes = rpl__tok_is(&ln.tok[2], "fail");
        break;
    case AV_KW_LADY:
        if (ln.ntok != 3 || !rpl__tok_seat(&ln.tok[1], s->n, &p.a) ||
            !rpl__tok_seat(&ln.tok[2], s->n, &p.b))
            return refuse(why, RPL_E_SYNTAX, "malformed",
                          "expected \"lady pH pT\"");
        break;
    default:
        return refuse(why, RPL_E_SYNTAX, "malformed",
                      "expected propose, vote, card, lady or assassinate");
    }
    if (p.a != seat)
        return refuse(why, RPL_E_RULES, "on-behalf", "p%zu cannot act for p%zu",
                      seat, p.a);
    if (kw != seat_kw(s->phase))
        return refuse(why, RPL_E_RULES, "phase",
                      "not an action of this phase: the game waits for %s",
                      waits_for(s->phase));
    switch (kw) {
    case AV_KW_PROPOSE:
        return screen_propose(s, seat, &p, why);
    case AV_KW_VOTE:
        if (seat <= s->prop[s->nprops - 1].nvotes)
            return refuse(why, RPL_E_RULES, "duplicate",
                          "p%zu has voted on this team", seat);
        return RPL_OK;
    case AV_KW_CARD:
        return screen_card(s, seat, p.yes, why);
    case AV_KW_LADY:
        return screen_lady(s, seat, p.b, why);
    default:
        return screen_assassinate(s, seat, p.b, why);
    }
}

uint64_t
rpl__av_step_seats(const void *st)
{
    const struct av_state *s = st;

    /* The seats still to act: the recorder writes the step's lines one
     * by one (each may wait for its signature) and asks again after each,
     * so a seat whose line is written is no longer part of the step. */
    if (s->phase == AV_PH_VOTE && s->nprops)
        return (uint16_t)(all_seats(s) &
                          ~votes_written(&s->prop[s->nprops - 1]));
    if (s->phase == AV_PH_CARDS)
        return (uint16_t)(s->quest[s->round].team & ~cards_played(s));
    return 0;
}

/* ------------------------------------------------------------ state */

/* By enum av_phase, as view_json spells them. */
static const char *const phase_name[] = {
    "rules", "start", "deal", "propose",       "vote", "tally",
    "cards", "quest", "lady", "assassination", "end",  "over",
};

static void
put_seats(struct rpl__buf *b, uint16_t m)
{
    bool first = true;

    rpl__buf_puts(b, "[");
    for (unsigned k = 1; k <= AV_MAX_SEATS; k++)
        if (m & bit(k)) {
            rpl__buf_printf(b, first ? "%u" : ",%u", k);
            first = false;
        }
    rpl__buf_puts(b, "]");
}

/* One action form as a JSON string; *first tracks the commas. */
static void put_form(struct rpl__buf *b, bool *first, const char *fmt, ...)
    RPL__PRINTF(3, 4);

static void
put_form(struct rpl__buf *b, bool *first, const char *fmt, ...)
{
    char text[128];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    rpl__buf_printf(b, "%s\"%s\"", *first ? "" : ",", text);
    *first = false;
}

/* The legal actions of seat k now, as the seat itself knows them. */
static void
put_actions_of(const struct av_state *s, unsigned k, struct rpl__buf *b,
               bool *first)
{
    static const char *const letters[] = {"pA", "pB", "pC", "pD", "pE"};

    switch (s->phase) {
    case AV_PH_PROPOSE:
        if (k != av_leader(s))
            return;
        for (unsigned slot = 1; slot <= 5; slot++) {
            char list[32] = "";
            const unsigned size =
                av_team_size(s, s->is_targeting ? slot : s->round);

            if (s->is_targeting ? !av_slot_open(s, slot) : slot != s->round)
                continue;
            for (unsigned i = 0; i < size && i < 5; i++) {
                strcat(list, i ? "," : "");
                strcat(list, letters[i]);
            }
            if (s->is_targeting)
                put_form(b, first, "propose p%u q%u %s", k, slot, list);
            else
                put_form(b, first, "propose p%u %s", k, list);
        }
        return;
    case AV_PH_VOTE:
        if (k > s->prop[s->nprops - 1].nvotes) {
            put_form(b, first, "vote p%u yes", k);
            put_form(b, first, "vote p%u no", k);
        }
        return;
    case AV_PH_CARDS:
        if ((s->quest[s->round].team & bit(k)) && !(cards_played(s) & bit(k))) {
            put_form(b, first, "card p%u success", k);
            if (s->knows && av_is_evil(s->role[k]))
                put_form(b, first, "card p%u fail", k);
        }
        return;
    case AV_PH_LADY:
        if (k != s->lady_holder)
            return;
        for (unsigned t = 1; t <= s->n; t++)
            if (t != k && !(s->lady_held & bit(t)))
                put_form(b, first, "lady p%u p%u", k, t);
        return;
    case AV_PH_ASSASSIN:
        if (!s->knows || s->role[k] != AV_ASSASSIN)
            return;
        for (unsigned t = 1; t <= s->n; t++)
            if (t != k && !(rpl__av_seen(s, k) & bit(t)))
                put_form(b, first, "assassinate p%u p%u", k, t);
        return;
    default:
        return;
    }
}

void
rpl__av_state_json(const void *st, const struct rpl__env *env, int viewer,
                   struct rpl__buf *out)
{
    const struct av_state *s = st;
    const struct av_prop *pr = s->nprops ? &s->prop[s->nprops - 1] : NULL;
    const bool all = viewer == RPL_VIEW_ALL;
    const bool started = s->phase > AV_PH_DEAL;
    const char *act = "none";
    uint16_t acting = 0;
    bool first = true;

    (void)env;
    rpl__buf_printf(out, "{\"game\":\"avalon\",\"players\":%u", s->n);
    rpl__buf_printf(out, ",\"phase\":\"%s\",\"round\":%u,\"leader\":%u",
                    phase_name[s->phase], s->round, av_leader(s));
    rpl__buf_printf(out,
                    ",\"rejections\":%u,\"successes\":%u,\"failures\":%u"
                    ",\"quests\":[",
                    s->rejections, s->successes, s->failures);
    for (unsigned slot = 1; slot <= 5 && s->n >= AV_MIN_SEATS; slot++) {
        const struct av_quest *q = NULL;

        for (unsigned r = 1; r <= 5; r++)
            if (s->quest[r].result && s->quest[r].slot == slot)
                q = &s->quest[r];
        rpl__buf_printf(out,
                        "%s{\"slot\":%u,\"size\":%u,\"fails_needed\":%u"
                        ",\"result\":",
                        slot > 1 ? "," : "", slot, av_team_size(s, slot),
                        av_fails_needed(s->n, slot));
        if (q)
            rpl__buf_printf(out, "\"%s\",\"fails\":%u}",
                            rpl__av_card_name(q->result), q->fails);
        else
            rpl__buf_puts(out, "null,\"fails\":null}");
    }
    rpl__buf_puts(out, "],\"lady\":");
    if (s->is_lady && s->lady_holder)
        rpl__buf_printf(out, "%u", s->lady_holder);
    else
        rpl__buf_puts(out, "null");
    rpl__buf_puts(out, ",\"lady_held\":");
    put_seats(out, s->lady_held);
    rpl__buf_puts(out, ",\"proposal\":");
    if (pr && (s->phase == AV_PH_VOTE || s->phase == AV_PH_TALLY ||
               s->phase == AV_PH_CARDS || s->phase == AV_PH_QUEST)) {
        const uint16_t voted = votes_written(pr);

        rpl__buf_printf(out, "{\"leader\":%u,\"slot\":%u,\"team\":", pr->leader,
                        pr->slot);
        put_seats(out, pr->team);
        rpl__buf_puts(out, ",\"voted\":");
        put_seats(out, voted);
        rpl__buf_puts(out, ",\"yes\":");
        put_seats(out, (uint16_t)(pr->yes & voted));
        rpl__buf_puts(out, ",\"no\":");
        put_seats(out, (uint16_t)(voted & ~pr->yes));
        rpl__buf_puts(out, "}");
    } else {
        rpl__buf_puts(out, "null");
    }
    rpl__buf_puts(out, ",\"cards\":");
    put_seats(out, cards_played(s));

    switch (s->phase) {
    case AV_PH_PROPOSE:
    case AV_PH_LADY:
        act = "seat";
        acting = bit((unsigned)rpl__av_turn(s));
        break;
    case AV_PH_VOTE:
        act = "step";
        acting = (uint16_t)(all_seats(s) & ~votes_written(pr));
        break;
    case AV_PH_CARDS:
        act = "step";
        acting = (uint16_t)(s->quest[s->round].team & ~cards_played(s));
        break;
    case AV_PH_ASSASSIN:
        act = "assassin";
        if (all && s->knows)
            acting = bit(assassin_of(s));
        break;
    case AV_PH_OVER:
        break;
    default:
        act = s->phase == AV_PH_RULES ? "none" : "dealer";
        break;
    }
    rpl__buf_printf(out, ",\"act\":\"%s\",\"seats\":", act);
    put_seats(out, acting);
    rpl__buf_puts(out, ",\"actions\":[");
    if (started && s->phase != AV_PH_OVER) {
        for (unsigned k = 1; k <= s->n; k++)
            if (all || (int)k == viewer)
                put_actions_of(s, k, out, &first);
    }
    rpl__buf_printf(
        out, "],\"winner\":\"%s\",\"reason\":\"%s\"}",
        s->phase == AV_PH_OVER ? rpl__av_winner_name[s->reason] : "",
        s->phase == AV_PH_OVER ? rpl__av_reason_name[s->reason] : "");
}
