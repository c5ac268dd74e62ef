/*
 * notation.c - the notation of Shadows over Camelot (camelog-soc(7)):
 * the rules line, every game line read into a command (struct soc_cmd)
 * and written back, the form a line is expected in (for messages), and
 * the private forms of secret choices: their labels, their values, and
 * the action a seat writes with the value in place of the commitment.
 *
 * Nothing here knows the rules: a line that reads well may still be
 * refused by the validation (validate.c).
 */
#include <stdio.h>
#include <string.h>

#include "soc.h"

const char *const rpl__soc_kw[SOC_K_COUNT] = {
    "start",   "loyalty",   "white",  "top",    "black",     "roll",
    "taunted", "shows",     "quest",  "dies",   "flip",      "end",
    "pool",    "allot",     "look",   "swap",   "evil",      "taunt",
    "keep",    "pass",      "cancel", "war",    "volunteer", "discard",
    "move",    "draw",      "siege",  "play",   "special",   "heal",
    "accuse",  "sacrifice", "kay",    "save",   "share",     "order",
    "done",    "merlins",   "offer",  "redeal",
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

const char *const rpl__soc_choice_tok[4] = {"", "swap", "give", "order"};

/* ------------------------------------------------------------ parsing */

static bool
is_kw(const struct rpl__tok *t, int *kw)
{
    *kw = rpl__tok_find(t, rpl__soc_kw, SOC_K_COUNT);
    return *kw >= 0;
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
        if (n == 3) {
            cmd->opt = SOC_O_ASK; /* own=on: each knight answers */
            return true;
        }
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
        kw != SOC_K_FLIP && kw != SOC_K_REDEAL &&
        (n < 2 || !tok_seat(p, &t[1], &cmd->seat)))
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
        if (n == 3 && rpl__tok_is(&t[2], "random")) {
            cmd->opt = SOC_O_RANDOM;
            return true;
        }
        return n == 3 && tok_seat_list(p, &t[2], true, false, cmd);
    case SOC_K_REDEAL:
        return n == 2 && tok_seat_list(p, &t[1], true, false, cmd);
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
    case SOC_K_MERLINS:
        return n == 3 && tok_num(&t[2], 3, &cmd->num);
    case SOC_K_OFFER:
        return n == 3 &&
               tok_opt(&t[2], "yes", SOC_O_YES, "no", SOC_O_NO, &cmd->opt);
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
    "merlins pK 0-3",
    "offer pK yes|no",
    "redeal pA,pB,...",
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
    case SOC_K_REDEAL:
        for (unsigned i = 0; i < cmd->nseats; i++)
            ADD("%sp%u", i ? "," : " ", cmd->seats[i]);
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
        if (cmd->opt == SOC_O_RANDOM)
            ADD(" random");
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
            if (cmd->opt == SOC_O_ASK)
                break;
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
    case SOC_K_MERLINS:
        ADD(" %u", cmd->num);
        break;
    case SOC_K_OFFER:
        ADD(" %s", cmd->opt == SOC_O_YES ? "yes" : "no");
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
        snprintf(out, cap,
                 p->own ? "allot p%u <%u seats>|random"
                        : "allot p%u <%u seats>",
                 k, p->npool);
        break;
    case SOC_N_REDEAL:
        snprintf(out, cap, "redeal <%u seats>", soc_popcount(p->poolers));
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
        if (nd->a && p->own) {
            char list[32] = "";
            size_t len = 0;

            for (unsigned s = 1; s <= p->n; s++)
                for (unsigned i = 0; i < p->offered[s]; i++) {
                    const int m = snprintf(list + len, sizeof(list) - len,
                                           "%sp%u", len ? "," : "", s);

                    if (m > 0 && (size_t)m < sizeof(list) - len)
                        len += (size_t)m;
                }
            snprintf(out, cap, "pass p%u|cancel p%u merlin %s", k, k, list);
            break;
        }
        snprintf(out, cap,
                 nd->a ? "pass p%u|cancel p%u merlin pA,pB,pC"
                       : "pass p%u|cancel p%u excalibur",
                 k, k);
        break;
    case SOC_N_MERLINS:
        snprintf(out, cap, "merlins p%u 0-%u", k, 3u - nd->b);
        break;
    case SOC_N_OFFER:
        snprintf(out, cap, "offer p%u yes|no", k);
        break;
    case SOC_N_WAR:
        snprintf(out, cap, "war p%u picts|saxons", k);
        break;
    case SOC_N_VOLUNTEER:
        snprintf(out, cap,
                 p->own ? "volunteer p%u pV (a knight who offered)"
                        : "volunteer p%u pV|none",
                 k);
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

/* ---------------------------------------------------- the rules line */

enum rpl_status
rpl__soc_parse_rules(const struct rpl__line *ln, unsigned long *players,
                     bool *traitor, bool *brave, bool *own,
                     struct rpl_error *err)
{
    static const char form[] =
        "rules players=N traitor=on|off brave=on|off [own=on|off]";
    struct rpl__tok vp, vt, vb, vo;
    unsigned long n = 0;

    *own = false;
    if (ln->ntok == 5) {
        if (!rpl__tok_kv(&ln->tok[4], "own", &vo) ||
            !(rpl__tok_is(&vo, "on") || rpl__tok_is(&vo, "off")))
            return rpl__err_expected(err, RPL_E_SYNTAX, ln, form);
        *own = rpl__tok_is(&vo, "on");
    }
    if ((ln->ntok != 4 && ln->ntok != 5) ||
        !rpl__tok_is(&ln->tok[0], "rules") ||
        !rpl__tok_kv(&ln->tok[1], "players", &vp) ||
        !rpl__tok_kv(&ln->tok[2], "traitor", &vt) ||
        !rpl__tok_kv(&ln->tok[3], "brave", &vb) ||
        !rpl__tok_uint(&vp, 1000, &n) ||
        !(rpl__tok_is(&vt, "on") || rpl__tok_is(&vt, "off")) ||
        !(rpl__tok_is(&vb, "on") || rpl__tok_is(&vb, "off")))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, form);
    *players = n;
    *traitor = rpl__tok_is(&vt, "on");
    *brave = rpl__tok_is(&vb, "on");
    return RPL_OK;
}

/* --------------------------------------------------- secret choices */

/* "swap 3 p1" etc.: the choice kind, index (1-based) and seat. */
bool
rpl__soc_parse_choice_label(const struct soc_state *s, const char *label,
                            unsigned *kind, unsigned *idx, unsigned *seat)
{
    struct rpl__line ln;
    unsigned long d = 0;
    size_t k = 0;

    if (rpl__line_split(&ln, label, strlen(label), 0, NULL) != RPL_OK ||
        ln.ntok != 3)
        return false;
    *kind = 0;
    for (unsigned i = SOC_CH_SWAP; i <= SOC_CH_ORDER; i++)
        if (rpl__tok_is(&ln.tok[0], rpl__soc_choice_tok[i]))
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
bool
rpl__soc_parse_choice_value(unsigned kind, const char *v, size_t len,
                            uint8_t *out, unsigned *n)
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

enum rpl_status
rpl__soc_parse_action(const struct soc_pub *p, const char *action,
                      struct rpl__emit *e, struct rpl_error *err)
{
    struct rpl__line ln;
    const size_t len = strlen(action);
    const unsigned d = p->nchoice + 1u;
    uint8_t v[5];
    unsigned n = 0;
    uint8_t k = 0, t = 0;
    struct soc_cmd cmd;
    int kw = -1;
    enum rpl_status rc;

    memset(e, 0, sizeof(*e));
    if (len == 0 || len >= sizeof(e->line) ||
        rpl__line_split(&ln, action, len, 0, NULL) != RPL_OK ||
        !is_kw(&ln.tok[0], &kw) || ln.ntok < 2 || !tok_seat(p, &ln.tok[1], &k))
        return rpl__err(err, RPL_E_SYNTAX, 0,
                        "expected an action such as \"evil p3 black\", got "
                        "\"%.60s\"",
                        action);
    /* The private forms of secret choices carry the value itself. */
    if (kw == SOC_K_SWAP) {
        const struct rpl__tok *val = &ln.tok[ln.ntok - 1];

        if ((ln.ntok != 3 && ln.ntok != 4) ||
            (ln.ntok == 4 && !tok_seat(p, &ln.tok[2], &t)) ||
            !rpl__soc_parse_choice_value(SOC_CH_SWAP, val->p, val->n, v, &n))
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

        if (!tok_seat(p, &ln.tok[3], &t) ||
            !rpl__soc_parse_choice_value(SOC_CH_GIVE, val->p, val->n, v, &n))
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
            !rpl__soc_parse_choice_value(SOC_CH_ORDER, val->p, val->n, v, &n))
            return rpl__err_expected(err, RPL_E_SYNTAX, &ln,
                                     "order pK <black cards, top first>");
        snprintf(e->line, sizeof(e->line), "order p%u", k);
        snprintf(e->label, sizeof(e->label), "order %u p%u", d, k);
        rpl__soc_fmt_cards(e->value, sizeof(e->value), v, n);
        return RPL_OK;
    }
    if (soc_is_dealer_kw((unsigned)kw))
        return rpl__err(err, RPL_E_SYNTAX, 0,
                        "\"%s\" is a line of the dealer, not an action",
                        rpl__soc_kw[kw]);
    rc = rpl__soc_parse(p, &ln, &cmd, err);
    if (rc != RPL_OK)
        return rc;
    memcpy(e->line, action, len + 1);
    return RPL_OK;
}
