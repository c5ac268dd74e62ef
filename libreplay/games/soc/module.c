/*
 * module.c - Shadows over Camelot as a game module (internal.h): the
 * rules line, the deal, the notation of camelog-soc(7) read into
 * commands and written back, the dealer's lines for the recorder, the
 * private form of secret choices, the reveal and the opens, the digest.
 *
 * Public state (verifying before the reveal): apply() checks what public
 * information decides and journals the rest; reveal() checks the start
 * line and the loyalty commitments, and after the last open (at once if
 * there is none) replays the journal against the deal.  Knowing state
 * (the recorder, the replay of a complete log): setup() deals and every
 * line is checked completely as it is applied.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "soc.h"

const char *const rpl__soc_kw[SOC_K_COUNT] = {
    "start",   "loyalty",   "white",   "top",       "black", "roll",  "taunted",
    "shows",   "quest",     "dies",    "flip",      "end",   "pool",  "allot",
    "look",    "swap",      "evil",    "taunt",     "keep",  "pass",  "cancel",
    "war",     "volunteer", "discard", "move",      "draw",  "siege", "play",
    "special", "heal",      "accuse",  "sacrifice", "kay",   "save",  "share",
    "order",   "done",
};

static const char *const winner_tok[] = {"", "knights", "evil"};
static const char *const reason_tok[] = {"",      "majority", "siege",
                                         "black", "deaths",   "aborted"};

const char *
rpl__soc_reason_tok(unsigned reason)
{
    return reason <= SOC_R_ABORTED ? reason_tok[reason] : "";
}

const char *
rpl__soc_winner_tok(unsigned winner)
{
    return winner <= SOC_W_EVIL ? winner_tok[winner] : "";
}

static const char *const choice_tok[] = {"", "swap", "give", "order"};

/* ------------------------------------------------------------ parsing */

static bool
is_kw(const struct rpl__tok *t, int *kw)
{
    for (int i = 0; i < SOC_K_COUNT; i++)
        if (rpl__tok_is(t, rpl__soc_kw[i])) {
            *kw = i;
            return true;
        }
    return false;
}

static bool
tok_seat(const struct soc_pub *p, const struct rpl__tok *t, uint8_t *out)
{
    size_t k = 0;

    if (!rpl__tok_seat(t, p->n, &k))
        return false;
    *out = (uint8_t)k;
    return true;
}

/* A seat, or "none" (0). */
static bool
tok_seat_none(const struct soc_pub *p, const struct rpl__tok *t, uint8_t *out)
{
    if (rpl__tok_is(t, "none")) {
        *out = 0;
        return true;
    }
    return tok_seat(p, t, out);
}

static bool
tok_card(const struct rpl__tok *t, unsigned colour, uint8_t *out)
{
    size_t n = 0;
    uint8_t c[1];

    if (!rpl__soc_parse_cards(t->p, t->n, c, 1, &n, false, colour) || n != 1)
        return false;
    *out = c[0];
    return true;
}

static bool
tok_loc(const struct rpl__tok *t, uint8_t *out)
{
    const int l = rpl__soc_loc_find(t->p, t->n);

    if (l < 0)
        return false;
    *out = (uint8_t)l;
    return true;
}

static bool
tok_num(const struct rpl__tok *t, unsigned long max, uint8_t *out)
{
    unsigned long v = 0;

    if (!rpl__tok_uint(t, max, &v))
        return false;
    *out = (uint8_t)v;
    return true;
}

static bool
tok_commit(const struct rpl__tok *t, struct soc_cmd *cmd)
{
    if (!rpl__tok_hex(t, cmd->commit, 32))
        return false;
    cmd->has_commit = 1;
    return true;
}

static bool
tok_list(const struct rpl__tok *t, unsigned colour, bool sorted,
         struct soc_cmd *cmd)
{
    size_t n = 0;

    if (!rpl__soc_parse_cards(t->p, t->n, cmd->cards, SOC_MAX_LIST, &n, sorted,
                              colour))
        return false;
    cmd->ncards = (uint8_t)n;
    return true;
}

/* "p1,p3,p3": seats, in order (repeats allowed when !strict, which then
 * asks for non-decreasing; strict: ascending). */
static bool
tok_seat_list(const struct soc_pub *p, const struct rpl__tok *t, bool any,
              bool strict, struct soc_cmd *cmd)
{
    size_t n = 0;
    unsigned last = 0;

    for (size_t i = 0; i <= t->n;) {
        size_t j = i;
        struct rpl__tok one;
        uint8_t k;

        while (j < t->n && t->p[j] != ',')
            j++;
        one.p = t->p + i;
        one.n = j - i;
        if (n == SOC_MAX_SEATS || !tok_seat(p, &one, &k))
            return false;
        if (!any && (strict ? k <= last : k < last))
            return false;
        last = k;
        cmd->seats[n++] = k;
        i = j + 1;
    }
    cmd->nseats = (uint8_t)n;
    return true;
}

static bool
tok_knights(const struct rpl__tok *t, struct soc_cmd *cmd)
{
    size_t n = 0;

    for (size_t i = 0; i <= t->n;) {
        size_t j = i;
        int k;

        while (j < t->n && t->p[j] != ',')
            j++;
        if (n == SOC_MAX_SEATS)
            return false;
        k = rpl__soc_knight_find(t->p + i, j - i);
        if (k < 0)
            return false;
        cmd->cards[n++] = (uint8_t)k;
        i = j + 1;
    }
    cmd->ncards = (uint8_t)n;
    return true;
}

static bool
tok_opt(const struct rpl__tok *t, const char *a, unsigned oa, const char *b,
        unsigned ob, uint8_t *out)
{
    if (rpl__tok_is(t, a))
        *out = (uint8_t)oa;
    else if (rpl__tok_is(t, b))
        *out = (uint8_t)ob;
    else
        return false;
    return true;
}

static bool
parse_special(const struct soc_pub *p, const struct rpl__line *ln,
              struct soc_cmd *cmd)
{
    const struct rpl__tok *t = ln->tok;
    const size_t n = ln->ntok;

    if (n < 3 || !tok_seat(p, &t[1], &cmd->seat) ||
        !tok_card(&t[2], SOC_WHITE, &cmd->card))
        return false;
    switch (cmd->card) {
    case SOC_MERLIN:
    case SOC_HEROISM:
        return n == 4 && tok_loc(&t[3], &cmd->loc);
    case SOC_CONVOCATION:
        if (n != 4)
            return false;
        if (rpl__tok_is(&t[3], "none"))
            return true;
        return tok_seat_list(p, &t[3], false, true, cmd);
    case SOC_MESSENGER:
        return n == 6 && tok_seat(p, &t[3], &cmd->seat2) &&
               tok_num(&t[4], 9, &cmd->num) && tok_commit(&t[5], cmd);
    case SOC_PIETY:
    case SOC_REINFORCEMENTS:
        return n == 4 && tok_opt(&t[3], "self", SOC_O_SELF, "others",
                                 SOC_O_OTHERS, &cmd->opt);
    default:
        return n == 3;
    }
}

static bool
parse_share(const struct soc_pub *p, const struct rpl__line *ln,
            struct soc_cmd *cmd)
{
    if (ln->ntok < 3 || ln->ntok > 2 + SOC_MAX_SEATS ||
        !tok_seat(p, &ln->tok[1], &cmd->seat))
        return false;
    for (size_t i = 2; i < ln->ntok; i++) {
        const struct rpl__tok *t = &ln->tok[i];
        const char *eq = memchr(t->p, '=', t->n);
        struct rpl__tok a, b;

        if (!eq)
            return false;
        a.p = t->p;
        a.n = (size_t)(eq - t->p);
        b.p = eq + 1;
        b.n = t->n - a.n - 1;
        if (!tok_seat(p, &a, &cmd->seats[i - 2]) ||
            !tok_num(&b, SOC_NWHITE, &cmd->counts[i - 2]))
            return false;
    }
    cmd->nseats = (uint8_t)(ln->ntok - 2);
    return true;
}

static bool
parse_tokens(const struct soc_pub *p, int kw, const struct rpl__line *ln,
             struct soc_cmd *cmd)
{
    const struct rpl__tok *t = ln->tok;
    const size_t n = ln->ntok;
    struct rpl__tok v;

    cmd->kw = (uint8_t)kw;
    if (kw != SOC_K_START && kw != SOC_K_QUEST && kw != SOC_K_END &&
        kw != SOC_K_FLIP && (n < 2 || !tok_seat(p, &t[1], &cmd->seat)))
        return false;
    switch (kw) {
    case SOC_K_START:
        return n == 3 && rpl__tok_kv(&t[1], "knights", &v) &&
               tok_knights(&v, cmd) && rpl__tok_kv(&t[2], "first", &v) &&
               tok_seat(p, &v, &cmd->seat);
    case SOC_K_LOYALTY:
    case SOC_K_SWAP:
        if (kw == SOC_K_SWAP && n == 4)
            return tok_seat(p, &t[2], &cmd->seat2) && tok_commit(&t[3], cmd);
        return n == 3 && tok_commit(&t[2], cmd);
    case SOC_K_ORDER:
        return n == 3 && tok_commit(&t[2], cmd);
    case SOC_K_WHITE:
        return n == 4 && tok_num(&t[2], SOC_NWHITE, &cmd->num) &&
               cmd->num > 0 && tok_commit(&t[3], cmd);
    case SOC_K_TOP:
        return n == 4 && tok_num(&t[2], 5, &cmd->num) && cmd->num > 0 &&
               tok_commit(&t[3], cmd);
    case SOC_K_BLACK:
        if (n != 3 && n != 4)
            return false;
        cmd->ncards = (uint8_t)(n - 2);
        return tok_card(&t[2], SOC_BLACK, &cmd->cards[0]) &&
               (n == 3 || tok_card(&t[3], SOC_BLACK, &cmd->cards[1]));
    case SOC_K_ROLL:
        return n == 3 && tok_num(&t[2], 99, &cmd->num);
    case SOC_K_TAUNTED:
    case SOC_K_POOL:
    case SOC_K_PLAY:
    case SOC_K_HEAL:
    case SOC_K_KAY:
        return n == 3 && tok_card(&t[2], SOC_WHITE, &cmd->card);
    case SOC_K_KEEP:
        return n == 3 && tok_card(&t[2], SOC_BLACK, &cmd->card);
    case SOC_K_SHOWS:
        return n == 3 && tok_opt(&t[2], "loyal", SOC_O_LOYAL, "traitor",
                                 SOC_O_TRAITOR, &cmd->opt);
    case SOC_K_QUEST:
        if ((n != 4 && n != 5) || !tok_loc(&t[1], &cmd->loc) ||
            cmd->loc == SOC_CAMELOT ||
            !tok_opt(&t[2], "won", SOC_O_WON, "lost", SOC_O_LOST, &cmd->opt) ||
            !rpl__tok_kv(&t[3], "swords", &v) ||
            !tok_num(&v, SOC_NWHITE, &cmd->num))
            return false;
        return n == 4 ||
               (rpl__tok_kv(&t[4], "relic", &v) && tok_seat(p, &v, &cmd->num2));
    case SOC_K_FLIP:
        return n == 2 && tok_seat_none(p, &t[1], &cmd->seat);
    case SOC_K_END:
        if (n == 2 && rpl__tok_is(&t[1], "aborted")) {
            cmd->num = SOC_R_ABORTED;
            return true;
        }
        if (n != 3)
            return false;
        if (rpl__tok_is(&t[1], "knights"))
            cmd->winner = SOC_W_KNIGHTS;
        else if (rpl__tok_is(&t[1], "evil"))
            cmd->winner = SOC_W_EVIL;
        else
            return false;
        for (unsigned r = SOC_R_MAJORITY; r < SOC_R_ABORTED; r++)
            if (rpl__tok_is(&t[2], reason_tok[r]))
                cmd->num = (uint8_t)r;
        return cmd->num != 0;
    case SOC_K_ALLOT:
        return n == 3 && tok_seat_list(p, &t[2], true, false, cmd);
    case SOC_K_EVIL:
        if (n != 3)
            return false;
        if (rpl__tok_is(&t[2], "black"))
            cmd->opt = SOC_O_BLACK;
        else if (rpl__tok_is(&t[2], "siege"))
            cmd->opt = SOC_O_SIEGE;
        else if (rpl__tok_is(&t[2], "life"))
            cmd->opt = SOC_O_LIFE;
        else
            return false;
        return true;
    case SOC_K_TAUNT:
    case SOC_K_VOLUNTEER:
        return n == 3 && tok_seat_none(p, &t[2], &cmd->seat2);
    case SOC_K_ACCUSE:
        return n == 3 && tok_seat(p, &t[2], &cmd->seat2);
    case SOC_K_CANCEL:
        if (n == 3 && rpl__tok_is(&t[2], "excalibur")) {
            cmd->opt = SOC_O_EXCALIBUR;
            return true;
        }
        cmd->opt = SOC_O_MERLIN;
        return n == 4 && rpl__tok_is(&t[2], "merlin") &&
               tok_seat_list(p, &t[3], false, false, cmd);
    case SOC_K_WAR:
    case SOC_K_MOVE:
        return n == 3 && tok_loc(&t[2], &cmd->loc);
    case SOC_K_DISCARD:
        return n == 3 && tok_list(&t[2], SOC_WHITE, true, cmd);
    case SOC_K_SIEGE:
        if (n == 3 && rpl__tok_is(&t[2], "none"))
            return true;
        return n == 3 && tok_list(&t[2], SOC_WHITE, true, cmd);
    case SOC_K_SPECIAL:
        return parse_special(p, ln, cmd);
    case SOC_K_SHARE:
        return parse_share(p, ln, cmd);
    default: /* look, pass, dies, draw, sacrifice, save, done */
        return n == 2;
    }
}

/* The form of each keyword, for syntax errors. */
static const char *const kw_form[SOC_K_COUNT] = {
    "start knights=K,K,... first=pF",
    "loyalty pK <commitment>",
    "white pK N <commitment>",
    "top pK N <commitment>",
    "black pK <card> [<card>]",
    "roll pK N",
    "taunted pK <card>",
    "shows pK loyal|traitor",
    "quest <quest> won|lost swords=N [relic=pK]",
    "dies pK",
    "flip pK|none",
    "end knights|evil <reason>",
    "pool pK <card>",
    "allot pK pA,pB,...",
    "look pK",
    "swap pK [pT] <commitment>",
    "evil pK black|siege|life",
    "taunt pK pT|none",
    "keep pK <card>",
    "pass pK",
    "cancel pK excalibur|merlin pA,pB,pC",
    "war pK picts|saxons",
    "volunteer pK pV|none",
    "discard pK <cards>",
    "move pK <place>",
    "draw pK",
    "siege pK <fight cards>|none",
    "play pK <card>",
    "special pK <card> [...]",
    "heal pK <card>",
    "accuse pK pT",
    "sacrifice pK",
    "kay pK <fight card>",
    "save pK",
    "share pK pA=N ...",
    "order pK <commitment>",
    "done pK",
};

enum rpl_status
rpl__soc_parse(const struct soc_pub *p, const struct rpl__line *ln,
               struct soc_cmd *cmd, struct rpl_error *err)
{
    int kw = -1;

    memset(cmd, 0, sizeof(*cmd));
    if (!ln->ntok || !is_kw(&ln->tok[0], &kw)) {
        char show[64] = "";

        if (ln->ntok)
            rpl__tok_show(show, sizeof(show), &ln->tok[0]);
        return rpl__err(err, RPL_E_SYNTAX, ln->no, "unknown keyword \"%s\"",
                        show);
    }
    if (!parse_tokens(p, kw, ln, cmd))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, kw_form[kw]);
    return RPL_OK;
}

/* ----------------------------------------------------------- printing */

void
rpl__soc_format(const struct soc_pub *p, const struct soc_cmd *cmd, char *out,
                size_t cap)
{
    char list[1024];
    size_t len = 0;
    int n;

#define ADD(...)                                                               \
    do {                                                                       \
        n = snprintf(out + len, len < cap ? cap - len : 0, __VA_ARGS__);       \
        if (n > 0)                                                             \
            len += (size_t)n;                                                  \
    } while (0)

    (void)p;
    if (!cap)
        return;
    out[0] = '\0';
    ADD("%s", rpl__soc_kw[cmd->kw]);
    switch (cmd->kw) {
    case SOC_K_START:
        ADD(" knights=");
        for (unsigned i = 0; i < cmd->ncards; i++)
            ADD("%s%s", i ? "," : "", rpl__soc_knight[cmd->cards[i]].tok);
        ADD(" first=p%u", cmd->seat);
        break;
    case SOC_K_QUEST:
        ADD(" %s %s swords=%u", rpl__soc_quest[cmd->loc].tok,
            cmd->opt == SOC_O_WON ? "won" : "lost", cmd->num);
        if (cmd->num2)
            ADD(" relic=p%u", cmd->num2);
        break;
    case SOC_K_FLIP:
        if (cmd->seat)
            ADD(" p%u", cmd->seat);
        else
            ADD(" none");
        break;
    case SOC_K_END:
        if (cmd->num == SOC_R_ABORTED)
            ADD(" aborted");
        else
            ADD(" %s %s", winner_tok[cmd->winner], reason_tok[cmd->num]);
        break;
    default:
        ADD(" p%u", cmd->seat);
        break;
    }
    switch (cmd->kw) {
    case SOC_K_WHITE:
    case SOC_K_TOP:
    case SOC_K_ROLL:
        ADD(" %u", cmd->num);
        break;
    case SOC_K_BLACK:
        for (unsigned i = 0; i < cmd->ncards; i++)
            ADD(" %s", rpl__soc_card[cmd->cards[i]].tok);
        break;
    case SOC_K_TAUNTED:
    case SOC_K_POOL:
    case SOC_K_PLAY:
    case SOC_K_HEAL:
    case SOC_K_KAY:
    case SOC_K_KEEP:
        ADD(" %s", rpl__soc_card[cmd->card].tok);
        break;
    case SOC_K_SHOWS:
        ADD(" %s", cmd->opt == SOC_O_TRAITOR ? "traitor" : "loyal");
        break;
    case SOC_K_ALLOT:
        for (unsigned i = 0; i < cmd->nseats; i++)
            ADD("%sp%u", i ? "," : " ", cmd->seats[i]);
        break;
    case SOC_K_SWAP:
        if (cmd->seat2)
            ADD(" p%u", cmd->seat2);
        break;
    case SOC_K_EVIL:
        ADD(" %s", cmd->opt == SOC_O_BLACK   ? "black"
                   : cmd->opt == SOC_O_SIEGE ? "siege"
                                             : "life");
        break;
    case SOC_K_TAUNT:
    case SOC_K_VOLUNTEER:
        if (cmd->seat2)
            ADD(" p%u", cmd->seat2);
        else
            ADD(" none");
        break;
    case SOC_K_ACCUSE:
        ADD(" p%u", cmd->seat2);
        break;
    case SOC_K_CANCEL:
        if (cmd->opt == SOC_O_EXCALIBUR) {
            ADD(" excalibur");
        } else {
            ADD(" merlin");
            for (unsigned i = 0; i < cmd->nseats; i++)
                ADD("%sp%u", i ? "," : " ", cmd->seats[i]);
        }
        break;
    case SOC_K_WAR:
    case SOC_K_MOVE:
        ADD(" %s", rpl__soc_quest[cmd->loc].tok);
        break;
    case SOC_K_DISCARD:
    case SOC_K_SIEGE:
        rpl__soc_fmt_cards(list, sizeof(list), cmd->cards, cmd->ncards);
        ADD(" %s", cmd->ncards ? list : "none");
        break;
    case SOC_K_SPECIAL:
        ADD(" %s", rpl__soc_card[cmd->card].tok);
        switch (cmd->card) {
        case SOC_MERLIN:
        case SOC_HEROISM:
            ADD(" %s", rpl__soc_quest[cmd->loc].tok);
            break;
        case SOC_CONVOCATION:
            if (!cmd->nseats)
                ADD(" none");
            for (unsigned i = 0; i < cmd->nseats; i++)
                ADD("%sp%u", i ? "," : " ", cmd->seats[i]);
            break;
        case SOC_MESSENGER:
            ADD(" p%u %u", cmd->seat2, cmd->num);
            break;
        case SOC_PIETY:
        case SOC_REINFORCEMENTS:
            ADD(" %s", cmd->opt == SOC_O_SELF ? "self" : "others");
            break;
        default:
            break;
        }
        break;
    case SOC_K_SHARE:
        for (unsigned i = 0; i < cmd->nseats; i++)
            ADD(" p%u=%u", cmd->seats[i], cmd->counts[i]);
        break;
    default:
        break;
    }
    if (cmd->has_commit) {
        char hex[65];

        rpl__hex(hex, cmd->commit, 32);
        ADD(" %s", hex);
    }
#undef ADD
}

static bool
is_dealer_kw(unsigned kw)
{
    return kw <= SOC_K_END;
}

void
rpl__soc_expected_form(const struct soc_state *st, char *out, size_t cap)
{
    const struct soc_pub *p = &st->p;
    const struct soc_need *nd = &p->need;
    const unsigned k = nd->seat;

    switch (nd->kind) {
    case SOC_N_START:
        snprintf(out, cap, "start knights=K,K,... first=pF");
        break;
    case SOC_N_LOYALTY:
        snprintf(out, cap, "loyalty p%u <commitment>", k);
        break;
    case SOC_N_WHITE:
        snprintf(out, cap, "white p%u %u <commitment>", k, nd->a);
        break;
    case SOC_N_TOP:
        snprintf(out, cap, "top p%u %u <commitment>", k, nd->a);
        break;
    case SOC_N_BLACK:
        snprintf(out, cap, "black p%u <card>%s", k,
                 nd->a == 2 ? " <card>" : "");
        break;
    case SOC_N_ROLL:
        snprintf(out, cap, "roll p%u 1-8", k);
        break;
    case SOC_N_TAUNTED:
        snprintf(out, cap, "taunted p%u <card>", k);
        break;
    case SOC_N_SHOWS:
        snprintf(out, cap, "shows p%u loyal|traitor", k);
        break;
    case SOC_N_QUEST:
        snprintf(out, cap, "quest %s %s swords=N", rpl__soc_quest[nd->a].tok,
                 nd->b ? "won" : "lost");
        break;
    case SOC_N_DIES:
        snprintf(out, cap, "dies p%u", k);
        break;
    case SOC_N_FLIP:
        snprintf(out, cap, "flip pK|none");
        break;
    case SOC_N_END:
        snprintf(out, cap, "end %s %s", rpl__soc_winner_tok(nd->a),
                 rpl__soc_reason_tok(nd->b));
        break;
    case SOC_N_POOL:
        snprintf(out, cap, "pool p%u <card>", k);
        break;
    case SOC_N_ALLOT:
        snprintf(out, cap, "allot p%u <%u seats>", k, p->npool);
        break;
    case SOC_N_EVIL:
        snprintf(out, cap,
                 nd->a ? "evil p%u black|siege" : "evil p%u black|siege|life",
                 k);
        break;
    case SOC_N_TAUNT:
        snprintf(out, cap, "taunt p%u pT", k);
        break;
    case SOC_N_KEEP:
        snprintf(out, cap, "keep p%u %s|%s", k, rpl__soc_card[p->drawn[0]].tok,
                 rpl__soc_card[p->drawn[1]].tok);
        break;
    case SOC_N_CANCEL:
        snprintf(out, cap,
                 nd->a ? "pass p%u|cancel p%u merlin pA,pB,pC"
                       : "pass p%u|cancel p%u excalibur",
                 k, k);
        break;
    case SOC_N_WAR:
        snprintf(out, cap, "war p%u picts|saxons", k);
        break;
    case SOC_N_VOLUNTEER:
        snprintf(out, cap, "volunteer p%u pV|none", k);
        break;
    case SOC_N_DISCARD:
        snprintf(out, cap, "discard p%u <%u cards>", k, nd->a);
        break;
    case SOC_N_HEROIC:
        snprintf(out, cap, "a heroic action of p%u, or done p%u", k, k);
        break;
    case SOC_N_SWAP_BACK:
        snprintf(out, cap, "swap p%u <commitment>", k);
        break;
    case SOC_N_ORDER:
        snprintf(out, cap, "order p%u <commitment>", k);
        break;
    case SOC_N_KAY:
        snprintf(out, cap, "kay p%u <fight card>|pass p%u", k, k);
        break;
    case SOC_N_SAVE:
        snprintf(out, cap, "save p%u|pass p%u", k, k);
        break;
    case SOC_N_SHARE:
        snprintf(out, cap, "share p%u pA=N ... (%u cards)", k, nd->a);
        break;
    default:
        snprintf(out, cap, "no line");
        break;
    }
}

/* -------------------------------------------------------- the module */

static enum rpl_status
soc_rules(void *st, const struct rpl__line *ln, const struct rpl__env *env,
          size_t *seats, struct rpl_error *err)
{
    static const char form[] = "rules players=N traitor=on|off brave=on|off";
    struct soc_state *s = st;
    struct rpl__tok vp, vt, vb;
    unsigned long n = 0;
    bool traitor, brave;

    if (ln->ntok != 4 || !rpl__tok_is(&ln->tok[0], "rules") ||
        !rpl__tok_kv(&ln->tok[1], "players", &vp) ||
        !rpl__tok_kv(&ln->tok[2], "traitor", &vt) ||
        !rpl__tok_kv(&ln->tok[3], "brave", &vb) ||
        !rpl__tok_uint(&vp, 1000, &n) ||
        !(rpl__tok_is(&vt, "on") || rpl__tok_is(&vt, "off")) ||
        !(rpl__tok_is(&vb, "on") || rpl__tok_is(&vb, "off")))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, form);
    traitor = rpl__tok_is(&vt, "on");
    brave = rpl__tok_is(&vb, "on");
    if (n < SOC_MIN_SEATS || n > SOC_MAX_SEATS)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "players=%lu, expected 3 to 7", n);
    if (brave && (n != 3 || !traitor))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "brave=on is the 3-player variant and needs "
                        "players=3 and traitor=on");
    memset(s, 0, sizeof(*s));
    s->p.n = (uint8_t)n;
    s->p.traitor_on = traitor;
    s->p.brave = brave;
    rpl__soc_begin(s);
    *seats = n;
    if (n == 3 && traitor && !brave && env && env->warn)
        env->warn(env->w, ln->no,
                  "W-1: 3 players without brave=on: the rulebook plays "
                  "them with the Three Brave Knights variant");
    return RPL_OK;
}

static enum rpl_status
soc_setup(void *st, const struct rpl__env *env, struct rpl_error *err)
{
    struct soc_state *s = st;

    if (!env->seed)
        return rpl__err(err, RPL_E_STATE, 0, "setup needs the seed");
    if (s->p.phase != SOC_PH_READY)
        return rpl__err(err, RPL_E_STATE, 0, "setup after the start");
    rpl__soc_derive(&s->h, &s->r, s->p.n, s->p.traitor_on, env->seed);
    s->p.knows = 1;
    s->p.hdeliv = s->p.hchoice = 0;
    return RPL_OK;
}

static enum rpl_status
soc_apply(void *st, const struct rpl__line *ln, const struct rpl__env *env,
          struct rpl__applied *out, struct rpl_error *err)
{
    struct soc_state *s = st;
    struct soc_cmd cmd;
    char want[96];
    enum rpl_status rc;

    if (s->p.phase == SOC_PH_RULES)
        return rpl__err(err, RPL_E_STATE, ln->no,
                        "a game line before the rules line");
    rc = rpl__soc_parse(&s->p, ln, &cmd, err);
    if (rc != RPL_OK)
        return rc;
    if (s->p.phase == SOC_PH_OVER) {
        const struct rpl__tok all = {ln->text, ln->len};
        char got[64];

        rpl__tok_show(got, sizeof(got), &all);
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "the game is over: no line may follow its end, got "
                        "\"%s\"",
                        got);
    }
    if (!(cmd.kw == SOC_K_END && cmd.num == SOC_R_ABORTED) &&
        !rpl__soc_fits(s, &cmd)) {
        rpl__soc_expected_form(s, want, sizeof(want));
        return rpl__err_expected(err, RPL_E_RULES, ln, want);
    }
    rc = rpl__soc_exec(s, &cmd, env, ln->no, err);
    if (rc == RPL_OK && out) {
        memset(out, 0, sizeof(*out));
        out->author = is_dealer_kw(cmd.kw) ? 0 : cmd.seat;
    }
    return rc;
}

/* "swap 3 p1" etc.: the choice kind, index (1-based) and seat. */
static bool
parse_choice_label(const struct soc_state *s, const char *label, unsigned *kind,
                   unsigned *idx, unsigned *seat)
{
    struct rpl__line ln;
    unsigned long d = 0;
    size_t k = 0;

    if (rpl__line_split(&ln, label, strlen(label), 0, NULL) != RPL_OK ||
        ln.ntok != 3)
        return false;
    *kind = 0;
    for (unsigned i = SOC_CH_SWAP; i <= SOC_CH_ORDER; i++)
        if (rpl__tok_is(&ln.tok[0], choice_tok[i]))
            *kind = i;
    if (!*kind || !rpl__tok_uint(&ln.tok[1], SOC_MAX_CHOICE, &d) || !d ||
        !rpl__tok_seat(&ln.tok[2], s->p.n, &k))
        return false;
    *idx = (unsigned)d;
    *seat = (unsigned)k;
    return true;
}

/* A choice's value: swap one white card, give 1-3 white cards (table
 * order), order 1-5 black cards (deck order, top first). */
static bool
parse_choice_value(unsigned kind, const char *v, size_t len, uint8_t *out,
                   unsigned *n)
{
    size_t m = 0;

    switch (kind) {
    case SOC_CH_SWAP:
        if (!rpl__soc_parse_cards(v, len, out, 1, &m, true, SOC_WHITE))
            return false;
        break;
    case SOC_CH_GIVE:
        if (!rpl__soc_parse_cards(v, len, out, 3, &m, true, SOC_WHITE))
            return false;
        break;
    default:
        if (!rpl__soc_parse_cards(v, len, out, 5, &m, false, SOC_BLACK))
            return false;
        break;
    }
    *n = (unsigned)m;
    return true;
}

static enum rpl_status
soc_learn(void *st, const char *label, const char *value, struct rpl_error *err)
{
    struct soc_state *s = st;
    struct rpl__line ln;
    unsigned kind, idx, seat, n;
    struct soc_choice *ch;
    uint8_t v[5];

    if (s->p.phase == SOC_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "learn before the rules line");
    if (parse_choice_label(s, label, &kind, &idx, &seat)) {
        if (!parse_choice_value(kind, value, strlen(value), v, &n))
            return rpl__err(err, RPL_E_SYNTAX, 0,
                            "\"%.60s\" is not a value for %s", value, label);
        ch = &s->ch[idx - 1];
        ch->kind = (uint8_t)kind;
        ch->seat = (uint8_t)seat;
        ch->n = (uint8_t)n;
        memcpy(ch->v, v, n);
        ch->known = 1;
        return RPL_OK;
    }
    /* The dealer's deliveries follow from the deal: nothing to learn. */
    if (rpl__line_split(&ln, label, strlen(label), 0, NULL) == RPL_OK &&
        ((ln.ntok == 2 && rpl__tok_is(&ln.tok[0], "loyalty")) ||
         (ln.ntok == 3 && (rpl__tok_is(&ln.tok[0], "white") ||
                           rpl__tok_is(&ln.tok[0], "top")))))
        return RPL_OK;
    return rpl__err(err, RPL_E_SYNTAX, 0,
                    "expected a label \"swap|give|order D pK\", got "
                    "\"%.60s\"",
                    label);
}

static bool
soc_pending(const void *st, const struct rpl__env *env, struct rpl__emit *e)
{
    const struct soc_state *s = st;
    struct soc_cmd cmd;

    memset(e, 0, sizeof(*e));
    if (!rpl__soc_expected(s, env->seed, &cmd, e->label, sizeof(e->label),
                           e->value, sizeof(e->value)))
        return false;
    rpl__soc_format(&s->p, &cmd, e->line, sizeof(e->line));
    return true;
}

static size_t
soc_turn(const void *st)
{
    const struct soc_state *s = st;

    if (s->p.phase != SOC_PH_PLAY || soc_is_dealer_need(s->p.need.kind))
        return 0;
    return s->p.need.seat;
}

static enum rpl_status
soc_action(const void *st, const struct rpl__env *env, const char *action,
           struct rpl__emit *e, struct rpl_error *err)
{
    const struct soc_state *s = st;
    struct rpl__line ln;
    const size_t len = strlen(action);
    const unsigned d = s->p.nchoice + 1u;
    uint8_t v[5];
    unsigned n = 0;
    uint8_t k = 0, t = 0;
    struct soc_cmd cmd;
    int kw = -1;
    enum rpl_status rc;

    (void)env;
    memset(e, 0, sizeof(*e));
    if (s->p.phase == SOC_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "action before the rules line");
    if (len == 0 || len >= sizeof(e->line) ||
        rpl__line_split(&ln, action, len, 0, NULL) != RPL_OK ||
        !is_kw(&ln.tok[0], &kw) || ln.ntok < 2 ||
        !tok_seat(&s->p, &ln.tok[1], &k))
        return rpl__err(err, RPL_E_SYNTAX, 0,
                        "expected an action such as \"evil p3 black\", got "
                        "\"%.60s\"",
                        action);
    /* The private forms of secret choices carry the value itself. */
    if (kw == SOC_K_SWAP) {
        const struct rpl__tok *val = &ln.tok[ln.ntok - 1];

        if ((ln.ntok != 3 && ln.ntok != 4) ||
            (ln.ntok == 4 && !tok_seat(&s->p, &ln.tok[2], &t)) ||
            !parse_choice_value(SOC_CH_SWAP, val->p, val->n, v, &n))
            return rpl__err_expected(err, RPL_E_SYNTAX, &ln,
                                     "swap pK [pT] <white card>");
        if (t)
            snprintf(e->line, sizeof(e->line), "swap p%u p%u", k, t);
        else
            snprintf(e->line, sizeof(e->line), "swap p%u", k);
        snprintf(e->label, sizeof(e->label), "swap %u p%u", d, k);
        rpl__soc_fmt_cards(e->value, sizeof(e->value), v, n);
        return RPL_OK;
    }
    if (kw == SOC_K_SPECIAL && ln.ntok == 5 &&
        rpl__tok_is(&ln.tok[2], "messenger")) {
        const struct rpl__tok *val = &ln.tok[4];

        if (!tok_seat(&s->p, &ln.tok[3], &t) ||
            !parse_choice_value(SOC_CH_GIVE, val->p, val->n, v, &n))
            return rpl__err_expected(
                err, RPL_E_SYNTAX, &ln,
                "special pK messenger pT <1-3 white cards>");
        snprintf(e->line, sizeof(e->line), "special p%u messenger p%u %u", k, t,
                 n);
        snprintf(e->label, sizeof(e->label), "give %u p%u", d, k);
        rpl__soc_fmt_cards(e->value, sizeof(e->value), v, n);
        return RPL_OK;
    }
    if (kw == SOC_K_ORDER) {
        const struct rpl__tok *val = &ln.tok[ln.ntok - 1];

        if (ln.ntok != 3 ||
            !parse_choice_value(SOC_CH_ORDER, val->p, val->n, v, &n))
            return rpl__err_expected(err, RPL_E_SYNTAX, &ln,
                                     "order pK <black cards, top first>");
        snprintf(e->line, sizeof(e->line), "order p%u", k);
        snprintf(e->label, sizeof(e->label), "order %u p%u", d, k);
        rpl__soc_fmt_cards(e->value, sizeof(e->value), v, n);
        return RPL_OK;
    }
    if (is_dealer_kw((unsigned)kw))
        return rpl__err(err, RPL_E_SYNTAX, 0,
                        "\"%s\" is a line of the dealer, not an action",
                        rpl__soc_kw[kw]);
    rc = rpl__soc_parse(&s->p, &ln, &cmd, err);
    if (rc != RPL_OK)
        return rc;
    memcpy(e->line, action, len + 1);
    return RPL_OK;
}

static enum rpl_status
soc_bot(const void *st, const struct rpl__env *env, enum rpl_bot kind,
        struct rpl__stream *rng, struct rpl__emit *e, struct rpl_error *err)
{
    const struct soc_state *s = st;
    char act[256];
    enum rpl_status rc;

    if (!s->p.knows || soc_turn(s) == 0)
        return rpl__err(err, RPL_E_STATE, 0, "no seat is to act");
    rc = rpl__soc_bot(s, kind, rng, act, sizeof(act), err);
    if (rc != RPL_OK)
        return rc;
    return soc_action(st, env, act, e, err);
}

static bool
soc_is_over(const void *st)
{
    const struct soc_state *s = st;

    return s->p.phase == SOC_PH_OVER;
}

static void
soc_outcome(const void *st, const char **winner, const char **reason)
{
    const struct soc_state *s = st;

    *winner = "";
    *reason = "";
    if (s->p.phase != SOC_PH_OVER)
        return;
    if (s->p.reason == SOC_R_ABORTED) {
        *winner = "aborted";
        *reason = "aborted";
        return;
    }
    *winner = rpl__soc_winner_tok(s->p.winner);
    *reason = rpl__soc_reason_tok(s->p.reason);
}

/* -------------------------------------------------------- reveal, open */

static enum rpl_status
soc_reveal(void *st, const struct rpl__env *env, size_t reveal_line,
           struct rpl_error *err)
{
    struct soc_state *s = st;
    struct soc_hid hid;
    struct soc_rng rng;
    const struct soc_hid *h = &hid;
    enum rpl_status rc = RPL_OK;

    if (!env->seed)
        return rpl__err(err, RPL_E_STATE, reveal_line,
                        "the reveal needs the seed");
    if (s->p.phase == SOC_PH_RULES || s->p.is_revealed)
        return rpl__err(err, RPL_E_STATE, reveal_line,
                        s->p.is_revealed ? "second reveal"
                                         : "reveal before the rules line");
    if (s->p.knows) {
        s->p.is_revealed = 1;
        return RPL_OK;
    }
    rpl__soc_derive(&hid, &rng, s->p.n, s->p.traitor_on, env->seed);

    /* The start line: knights and first player. */
    if (s->p.start_line) {
        for (unsigned k = 1; k <= s->p.n; k++)
            if (s->p.seat[k].knight != h->knight[k]) {
                rc = rpl__err(err, RPL_E_RULES, s->p.start_line,
                              "the seed deals %s to p%u, got %s",
                              rpl__soc_knight[h->knight[k]].tok, k,
                              rpl__soc_knight[s->p.seat[k].knight].tok);
                goto out;
            }
        if (s->p.first != h->first) {
            rc = rpl__err(err, RPL_E_RULES, s->p.start_line,
                          "the seed gives the first player p%u, got p%u",
                          h->first, s->p.first);
            goto out;
        }
    }

    /* The loyalty lines in seat order. */
    for (unsigned k = 1; k <= s->p.n; k++) {
        char label[16];
        uint8_t c[32];

        if (!s->p.loyalty_line[k])
            continue;
        snprintf(label, sizeof(label), "loyalty p%u", k);
        rpl__commit(c, NULL, env->seed, env->id, label,
                    rpl__soc_card[h->loyalty[k]].tok);
        if (sodium_memcmp(c, s->loyalty_commit[k], 32) != 0) {
            rc = rpl__err(err, RPL_E_FAIRNESS, s->p.loyalty_line[k],
                          "loyalty p%u does not match its commitment", k);
            goto out;
        }
        if (env->commitments)
            (*env->commitments)++;
    }
    s->p.is_revealed = 1;
    if (s->p.nchoice == 0)
        rc = rpl__soc_check_journal(s, env, err);
out:
    sodium_memzero(&hid, sizeof(hid));
    sodium_memzero(&rng, sizeof(rng));
    return rc;
}

static enum rpl_status
soc_open(void *st, const struct rpl__line *ln, const struct rpl__env *env,
         struct rpl_error *err)
{
    struct soc_state *s = st;
    struct soc_choice *ch;
    char want[96];
    char label[64];
    uint8_t v[5];
    unsigned n = 0;
    uint8_t c[32];
    unsigned long d = 0;
    size_t k = 0;
    const struct rpl__tok *val;

    if (!s->p.is_revealed || !env->seed)
        return rpl__err(err, RPL_E_STATE, ln->no, "open before the reveal");
    if (s->p.nopened >= s->p.nchoice) {
        const struct rpl__tok all = {ln->text, ln->len};
        char got[64];

        rpl__tok_show(got, sizeof(got), &all);
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "every secret choice is open, got \"%s\"", got);
    }
    ch = &s->ch[s->p.nopened];
    snprintf(label, sizeof(label), "%s %u p%u", choice_tok[ch->kind],
             s->p.nopened + 1u, ch->seat);
    snprintf(want, sizeof(want), "open %s <value>", label);
    if (ln->ntok != 5 || !rpl__tok_is(&ln->tok[0], "open") ||
        !rpl__tok_uint(&ln->tok[2], SOC_MAX_CHOICE, &d) ||
        !rpl__tok_seat(&ln->tok[3], s->p.n, &k))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, want);
    if (!rpl__tok_is(&ln->tok[1], choice_tok[ch->kind]) ||
        d != s->p.nopened + 1u || k != ch->seat)
        return rpl__err_expected(err, RPL_E_RULES, ln, want);
    val = &ln->tok[4];
    if (!parse_choice_value(ch->kind, val->p, val->n, v, &n))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, want);
    {
        char value[192];

        rpl__soc_fmt_cards(value, sizeof(value), v, n);
        rpl__commit(c, NULL, env->seed, env->id, label, value);
    }
    if (sodium_memcmp(c, ch->commit, 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, ln->no,
                        "open %s does not match the commitment of line %u",
                        label, ch->line);
    if (env->commitments)
        (*env->commitments)++;
    if (n != ch->n && ch->kind != SOC_CH_ORDER)
        return rpl__err(err, RPL_E_RULES, ch->line,
                        "the line gives %u card%s, its value %u", ch->n,
                        ch->n == 1 ? "" : "s", n);
    if (n != ch->n)
        return rpl__err(err, RPL_E_RULES, ch->line,
                        "the order names %u cards, %u were looked at", n,
                        ch->n);
    memcpy(ch->v, v, n);
    ch->known = 1;
    ch->opened = 1;
    s->p.nopened++;
    if (s->p.nopened == s->p.nchoice && !s->p.knows && !s->p.is_checked)
        return rpl__soc_check_journal(s, env, err);
    return RPL_OK;
}

static size_t
soc_opens_left(const void *st)
{
    const struct soc_state *s = st;

    return (size_t)s->p.nchoice - s->p.nopened;
}

static bool
soc_open_line(const void *st, size_t i, struct rpl__emit *e)
{
    const struct soc_state *s = st;
    const struct soc_choice *ch;
    char value[192];

    if (i >= s->p.nchoice)
        return false;
    ch = &s->ch[i];
    if (!ch->known)
        return false;
    memset(e, 0, sizeof(*e));
    rpl__soc_fmt_cards(value, sizeof(value), ch->v, ch->n);
    snprintf(e->line, sizeof(e->line), "open %s %zu p%u %s",
             choice_tok[ch->kind], i + 1, ch->seat, value);
    return true;
}

/* ---------------------------------------------------------- serialize */

static void
putn(uint8_t *buf, size_t cap, size_t *len, const void *p, size_t n)
{
    if (buf && *len < cap)
        memcpy(buf + *len, p, n < cap - *len ? n : cap - *len);
    *len += n;
}

/* "soc" 1, the public half as bytes (padding-free, soc.h), the hidden
 * half when known.  Both are plain uint8_t/uint16_t/uint32_t fields,
 * little-endian on every platform camelog builds on. */
static size_t
soc_serialize(const void *st, uint8_t *buf, size_t cap)
{
    const struct soc_state *s = st;
    size_t len = 0;

    putn(buf, cap, &len, "soc\1", 4);
    putn(buf, cap, &len, &s->p, sizeof(s->p));
    if (s->p.knows || s->p.is_checked)
        putn(buf, cap, &len, &s->h, sizeof(s->h));
    return len;
}

const struct rpl__game rpl__soc = {
    .name = "soc",
    .state_size = sizeof(struct soc_state),
    .rules = soc_rules,
    .setup = soc_setup,
    .apply = soc_apply,
    .learn = soc_learn,
    .pending = soc_pending,
    .turn = soc_turn,
    .action = soc_action,
    .bot = soc_bot,
    .is_over = soc_is_over,
    .outcome = soc_outcome,
    .reveal = soc_reveal,
    .open = soc_open,
    .opens_left = soc_opens_left,
    .open_line = soc_open_line,
    .serialize = soc_serialize,
    .view = rpl__soc_view,
    .view_json = rpl__soc_view_json,
    .describe = rpl__soc_describe,
    .events_json = rpl__soc_events_json,
    .reveal_text = rpl__soc_reveal_text,
    .reveal_json = rpl__soc_reveal_json,
    .info = &rpl__soc_info,
    .rules_line = rpl__soc_rules_line,
};
