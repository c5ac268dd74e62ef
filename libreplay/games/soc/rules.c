/*
 * rules.c - Shadows over Camelot as the log layer sees it (games/game.h):
 * the rules line, the deal, each game line validated (validate.c) and
 * applied (effects.c), the dealer's lines for the recorder, the secret
 * choices learned, the actions of the seats, the reveal and the opens,
 * and the digest.
 *
 * Public state (verifying before the reveal): apply() checks what public
 * information decides and journals the rest; reveal() checks the start
 * line and the loyalty commitments, and after the last open (at once if
 * there is none) replays the journal against the deal.  Knowing state
 * (the recorder, the replay of a complete log): setup() deals and every
 * line is checked completely as it is applied.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "soc.h"

/* ------------------------------------------------------------ a line */

/* The saved core of a state: restored when a line is refused. */
struct core {
    struct soc_pub p;
    struct soc_hid h;
    struct soc_rng r;
};

/* Validates cmd and applies it; the state is as it was on failure.  The
 * hidden half (h, r) changes only in a state that knows the deal (the
 * effects play it through rpl__soc_hid_step()): a public state, the
 * verifier's, saves the public half alone, which holds no secret to
 * wipe. */
static enum rpl_status
exec_line(struct soc_state *st, const struct soc_cmd *cmd,
          const struct rpl__env *env, size_t line, struct rpl_error *err)
{
    const bool knows = st->p.knows;
    struct core save;
    enum rpl_status rc;

    rc = rpl__soc_validate(st, cmd, env, line, err);
    if (rc != RPL_OK)
        return rc;
    memcpy(&save.p, &st->p, sizeof(save.p));
    if (knows) {
        memcpy(&save.h, &st->h, sizeof(save.h));
        memcpy(&save.r, &st->r, sizeof(save.r));
    }
    rc = rpl__soc_effects(st, cmd, env, line, err);
    if (rc != RPL_OK) {
        memcpy(&st->p, &save.p, sizeof(save.p));
        if (knows) {
            memcpy(&st->h, &save.h, sizeof(save.h));
            memcpy(&st->r, &save.r, sizeof(save.r));
        }
    } else if (st->m.on) {
        /* The bots' memory (memory.c, struct soc_mem). */
        rpl__soc_remember(st, &save.p, cmd);
    }
    if (knows)
        sodium_memzero(&save, sizeof(save));
    return rc;
}

/* After the rules line: the state waits for `start`. */
static void
begin(struct soc_state *st)
{
    st->p.phase = SOC_PH_READY;
    st->p.exc_pos = SOC_EXC_START;
    for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++)
        st->p.grail[i] = SOC_EMPTY;
    memset(&st->p.need, 0, sizeof(st->p.need));
    st->p.need.kind = SOC_N_START;
}

/* ------------------------------------------------------- the dealer */

/* The expected dealer line (knowing state) as a command; false when a
 * seat must act or the game is over. */
static bool
dealer_line(const struct soc_state *st, const uint8_t seed[32],
            struct soc_cmd *cmd, char *label, size_t label_cap, char *value,
            size_t value_cap)
{
    const struct soc_pub *p = &st->p;
    const struct soc_need *nd = &p->need;
    uint8_t cards[SOC_MAX_LIST];

    if (!p->knows || !seed || p->phase == SOC_PH_OVER ||
        !soc_is_dealer_need(nd->kind))
        return false;
    memset(cmd, 0, sizeof(*cmd));
    label[0] = '\0';
    value[0] = '\0';
    cmd->seat = nd->seat;
    switch (nd->kind) {
    case SOC_N_START:
        cmd->kw = SOC_K_START;
        cmd->ncards = p->n;
        for (unsigned k = 1; k <= p->n; k++)
            cmd->cards[k - 1] = st->h.knight[k];
        cmd->seat = st->h.first;
        break;
    case SOC_N_LOYALTY:
        cmd->kw = SOC_K_LOYALTY;
        snprintf(label, label_cap, "loyalty p%u", nd->seat);
        snprintf(value, value_cap, "%s",
                 rpl__soc_card[st->h.loyalty[nd->seat]].tok);
        break;
    case SOC_N_WHITE:
        cmd->kw = SOC_K_WHITE;
        cmd->num = nd->a;
        rpl__soc_white_label(label, label_cap, p->ndeliv, nd->seat);
        rpl__soc_peek_white(st, seed, nd->a, cards);
        rpl__soc_fmt_cards(value, value_cap, cards, nd->a);
        break;
    case SOC_N_TOP:
        cmd->kw = SOC_K_TOP;
        cmd->num = nd->a;
        snprintf(label, label_cap, "top %u p%u", p->ndeliv + 1u, nd->seat);
        rpl__soc_peek_black(st, seed, nd->a, cards);
        rpl__soc_fmt_cards(value, value_cap, cards, nd->a);
        break;
    case SOC_N_BLACK:
        cmd->kw = SOC_K_BLACK;
        cmd->ncards = nd->a;
        rpl__soc_peek_black(st, seed, nd->a, cmd->cards);
        break;
    case SOC_N_ROLL:
        cmd->kw = SOC_K_ROLL;
        cmd->num = (uint8_t)rpl__soc_peek_roll(st);
        break;
    case SOC_N_TAUNTED:
        cmd->kw = SOC_K_TAUNTED;
        cmd->card = (uint8_t)rpl__soc_peek_taunt(st, nd->seat);
        break;
    case SOC_N_SHOWS:
        cmd->kw = SOC_K_SHOWS;
        cmd->opt = st->h.loyalty[nd->seat] == SOC_TRAITOR ? SOC_O_TRAITOR
                                                          : SOC_O_LOYAL;
        break;
    case SOC_N_QUEST:
        cmd->kw = SOC_K_QUEST;
        cmd->loc = nd->a;
        cmd->opt = nd->b ? SOC_O_WON : SOC_O_LOST;
        cmd->num = (uint8_t)rpl__soc_quest_swords(p, nd->a, nd->b);
        cmd->num2 = (uint8_t)(nd->b ? rpl__soc_relic_to(p, nd->a, nd->c) : 0);
        break;
    case SOC_N_DIES:
        cmd->kw = SOC_K_DIES;
        break;
    case SOC_N_FLIP:
        cmd->kw = SOC_K_FLIP;
        cmd->seat = st->h.traitor;
        break;
    case SOC_N_END:
        cmd->kw = SOC_K_END;
        cmd->winner = nd->a;
        cmd->num = nd->b;
        break;
    case SOC_N_REDEAL: {
        unsigned m = 0;

        cmd->kw = SOC_K_REDEAL;
        rpl__soc_redeal(seed, p->poolers, cmd->seats, &m);
        cmd->nseats = (uint8_t)m;
        break;
    }
    default:
        return false;
    }
    return true;
}

/* -------------------------------------------------------- the module */

enum rpl_status
rpl__soc_rules(void *st, const struct rpl__line *ln, const struct rpl__env *env,
               size_t *seats, struct rpl_error *err)
{
    struct soc_state *s = st;
    unsigned long n = 0;
    bool traitor, brave, own;
    enum rpl_status rc;

    rc = rpl__soc_parse_rules(ln, &n, &traitor, &brave, &own, err);
    if (rc != RPL_OK)
        return rc;
    if (n < SOC_MIN_SEATS || n > SOC_MAX_SEATS)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "players=%lu, expected 3 to 7", n);
    if (brave && (n != 3 || !traitor))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "brave=on is the 3-player variant and needs "
                        "players=3 and traitor=on");
    /* The state comes zeroed (games/game.h): 87 KiB, mostly the
     * journal, are not zeroed again at each replay from the start. */
    s->p.n = (uint8_t)n;
    s->p.traitor_on = traitor;
    s->p.brave = brave;
    s->p.own = own;
    begin(s);
    *seats = n;
    if (n == 3 && traitor && !brave && env && env->warn)
        env->warn(env->w, ln->no,
                  "W-1: 3 players without brave=on: the rulebook plays "
                  "them with the Three Brave Knights variant");
    return RPL_OK;
}

enum rpl_status
rpl__soc_setup(void *st, const struct rpl__env *env, struct rpl_error *err)
{
    struct soc_state *s = st;

    if (!env->seed)
        return rpl__err(err, RPL_E_STATE, 0, "setup needs the seed");
    if (s->p.phase != SOC_PH_READY)
        return rpl__err(err, RPL_E_STATE, 0, "setup after the start");
    rpl__soc_derive(&s->h, &s->r, s->p.n, s->p.traitor_on, env->seed);
    s->p.knows = 1;
    s->m.on = 1;
    s->p.hdeliv = s->p.hchoice = 0;
    return RPL_OK;
}

enum rpl_status
rpl__soc_apply(void *st, const struct rpl__line *ln, const struct rpl__env *env,
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
    /* Who receives the cards of an exchange or a gift: King Arthur's
     * card goes to the knight named, the card back to Arthur (whom the
     * need names before the line is applied), the Messenger's to its
     * receiver. */
    {
        size_t receiver = 0;
        const char *label_kw = NULL;

        if (cmd.kw == SOC_K_SWAP)
            receiver = cmd.seat2                           ? cmd.seat2
                       : s->p.need.kind == SOC_N_SWAP_BACK ? s->p.need.a
                                                           : 0;
        if (cmd.kw == SOC_K_SPECIAL && cmd.card == SOC_MESSENGER) {
            receiver = cmd.seat2;
            label_kw = rpl__soc_choice_tok[SOC_CH_GIVE];
        }
        rc = exec_line(s, &cmd, env, ln->no, err);
        if (rc == RPL_OK && out) {
            memset(out, 0, sizeof(*out));
            out->author = soc_is_dealer_kw(cmd.kw) ? 0 : cmd.seat;
            out->receiver = receiver;
            out->label_kw = label_kw;
        }
    }
    return rc;
}

enum rpl_status
rpl__soc_learn(void *st, const char *label, const char *value,
               struct rpl_error *err)
{
    struct soc_state *s = st;
    struct rpl__line ln;
    unsigned kind, idx, seat, n;
    struct soc_choice *ch;
    uint8_t v[5];

    if (s->p.phase == SOC_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "learn before the rules line");
    if (rpl__soc_parse_choice_label(s, label, &kind, &idx, &seat)) {
        if (!rpl__soc_parse_choice_value(kind, value, strlen(value), v, &n))
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

bool
rpl__soc_pending(const void *st, const struct rpl__env *env,
                 struct rpl__emit *e)
{
    const struct soc_state *s = st;
    struct soc_cmd cmd;

    memset(e, 0, sizeof(*e));
    if (!dealer_line(s, env->seed, &cmd, e->label, sizeof(e->label), e->value,
                     sizeof(e->value)))
        return false;
    rpl__soc_format(&s->p, &cmd, e->line, sizeof(e->line));
    return true;
}

size_t
rpl__soc_turn(const void *st)
{
    const struct soc_state *s = st;

    if (s->p.phase != SOC_PH_PLAY || soc_is_dealer_need(s->p.need.kind))
        return 0;
    return s->p.need.seat;
}

enum rpl_status
rpl__soc_action(const void *st, const struct rpl__env *env, const char *action,
                struct rpl__emit *e, struct rpl_error *err)
{
    const struct soc_state *s = st;

    (void)env;
    memset(e, 0, sizeof(*e));
    if (s->p.phase == SOC_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "action before the rules line");
    return rpl__soc_parse_action(&s->p, action, e, err);
}

bool
rpl__soc_is_over(const void *st)
{
    const struct soc_state *s = st;

    return s->p.phase == SOC_PH_OVER;
}

void
rpl__soc_outcome(const void *st, const char **winner, const char **reason)
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

enum rpl_status
rpl__soc_reveal(void *st, const struct rpl__env *env, size_t reveal_line,
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
                    rpl__soc_card[h->loyalty[k]].tok, env->version);
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

enum rpl_status
rpl__soc_open(void *st, const struct rpl__line *ln, const struct rpl__env *env,
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
    snprintf(label, sizeof(label), "%s %u p%u", rpl__soc_choice_tok[ch->kind],
             s->p.nopened + 1u, ch->seat);
    snprintf(want, sizeof(want), "open %s <value>", label);
    if (ln->ntok != 5 || !rpl__tok_is(&ln->tok[0], "open") ||
        !rpl__tok_uint(&ln->tok[2], SOC_MAX_CHOICE, &d) ||
        !rpl__tok_seat(&ln->tok[3], s->p.n, &k))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, want);
    if (!rpl__tok_is(&ln->tok[1], rpl__soc_choice_tok[ch->kind]) ||
        d != s->p.nopened + 1u || k != ch->seat)
        return rpl__err_expected(err, RPL_E_RULES, ln, want);
    val = &ln->tok[4];
    if (!rpl__soc_parse_choice_value(ch->kind, val->p, val->n, v, &n))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, want);
    {
        char value[192];

        rpl__soc_fmt_cards(value, sizeof(value), v, n);
        rpl__commit(c, NULL, env->seed, env->id, label, value, env->version);
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

size_t
rpl__soc_opens_left(const void *st)
{
    const struct soc_state *s = st;

    return (size_t)s->p.nchoice - s->p.nopened;
}

bool
rpl__soc_open_line(const void *st, size_t i, struct rpl__emit *e)
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
             rpl__soc_choice_tok[ch->kind], i + 1, ch->seat, value);
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
size_t
rpl__soc_serialize(const void *st, uint8_t *buf, size_t cap)
{
    const struct soc_state *s = st;
    size_t len = 0;

    putn(buf, cap, &len, "soc\1", 4);
    putn(buf, cap, &len, &s->p, sizeof(s->p));
    if (s->p.knows || s->p.is_checked)
        putn(buf, cap, &len, &s->h, sizeof(s->h));
    return len;
}
