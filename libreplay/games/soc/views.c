/*
 * views.c - what a Shadows over Camelot state looks like to people and
 * to front ends: the board (public), what one seat knows (its hand and
 * its loyalty card), what the omniscient viewer knows, each line told in
 * words and as JSON events, and the reveal.
 *
 * The board is built from the public half alone.  A seat's view adds
 * that seat's hand and loyalty from the hidden half and nothing else,
 * so two games that differ only in other seats' secrets or in the order
 * of the undrawn decks look byte for byte the same to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json.h"
#include "soc.h"

/* "knights win", "evil wins". */
static const char *
win_verb(unsigned winner)
{
    return strcmp(rpl__soc_winner_tok(winner), "knights") == 0 ? "win" : "wins";
}

static const char *const loc_word[] = {
    "camelot", "black_knight", "lancelot", "dragon",        "excalibur",
    "grail",   "picts",        "saxons",   "off the board",
};

static const char *
tok(unsigned card)
{
    return card < SOC_NCARDS ? rpl__soc_card[card].tok : "-";
}

static const char *
knight_tok(const struct soc_pub *p, unsigned k)
{
    return p->phase >= SOC_PH_PLAY && k >= 1 && k <= p->n
               ? rpl__soc_knight[p->seat[k].knight].tok
               : "?";
}

static void
put_who(struct rpl__buf *b, const struct rpl__env *env, const struct soc_pub *p,
        unsigned k)
{
    if (env && env->names && k >= 1 && k <= p->n && env->names[k] &&
        env->names[k][0])
        rpl__buf_printf(b, "%s (p%u)", env->names[k], k);
    else
        rpl__buf_printf(b, "p%u", k);
}

static void
put_cards(struct rpl__buf *b, const uint8_t *cards, unsigned n)
{
    char list[1024];

    rpl__soc_fmt_cards(list, sizeof(list), cards, n);
    rpl__buf_puts(b, n ? list : "none");
}

static void put_names(struct rpl__buf *b, const uint8_t *cards, unsigned n);

/* A hand of the hidden half as a card list. */
static unsigned
hand_cards(const struct soc_state *s, unsigned k, uint8_t *out)
{
    unsigned n = 0;

    for (unsigned c = 0; c < SOC_NWT; c++)
        for (unsigned i = 0; i < s->h.hand[k][c] && n < SOC_NWHITE; i++)
            out[n++] = (uint8_t)c;
    return n;
}

static bool
knows_loyalty(const struct soc_pub *p, unsigned k)
{
    return !p->traitor_on || p->loyalty_line[k] != 0;
}

static bool
is_seat(const struct soc_pub *p, int viewer)
{
    return viewer >= 1 && viewer <= (int)p->n;
}

/* ------------------------------------------------------------ the board */

static void
combat_text(struct rpl__buf *b, const struct soc_combat *cb)
{
    rpl__buf_puts(b, "knights ");
    put_names(b, cb->white, cb->nwhite);
    rpl__buf_puts(b, "; evil ");
    put_names(b, cb->black, cb->nblack);
}

static void
board_text(const struct soc_state *s, struct rpl__buf *b)
{
    const struct soc_pub *p = &s->p;
    char next[96];
    unsigned wd = p->wdisc_unknown, bd = 0;

    rpl__buf_printf(b, "players %u, traitor %s, brave %s\n", p->n,
                    p->traitor_on ? "on" : "off", p->brave ? "on" : "off");
    if (p->phase < SOC_PH_PLAY) {
        rpl__buf_puts(b, "next: the dealer starts the game\n");
        return;
    }
    rpl__buf_printf(b, "turn %u, p%u to play; first player p%u\n", p->turns,
                    p->cur, p->first);
    rpl__buf_printf(b, "swords: %u white, %u black; siege engines: %u\n",
                    p->swords_w, p->swords_b, p->siege);
    for (unsigned k = 1; k <= p->n; k++) {
        const struct soc_seat *t = &p->seat[k];

        rpl__buf_printf(b, "p%u %s: ", k, knight_tok(p, k));
        if (t->flags & SOC_F_REVEALED)
            rpl__buf_puts(b, "the revealed traitor");
        else if (!(t->flags & SOC_F_ALIVE))
            rpl__buf_puts(b, "dead");
        else
            rpl__buf_printf(b, "%u life points, at %s", t->lp,
                            loc_word[t->loc]);
        rpl__buf_printf(b, ", %u white card%s", t->hand_n,
                        t->hand_n == 1 ? "" : "s");
        for (unsigned r = 0; r < SOC_NRELICS; r++)
            if (p->relic[r] == k)
                rpl__buf_printf(b, ", holds %s", rpl__soc_relic_tok[r]);
        if (t->flags & SOC_F_ACCUSED)
            rpl__buf_puts(b, ", has accused");
        if ((t->flags & SOC_F_LOYAL) && p->traitor_on)
            rpl__buf_puts(b, ", shown loyal");
        rpl__buf_puts(b, "\n");
    }
    rpl__buf_puts(b, "black_knight: ");
    combat_text(b, &p->bk);
    rpl__buf_puts(b, "\n");
    if (p->ld_stage < 2) {
        rpl__buf_puts(b, p->ld_stage ? "dragon: " : "lancelot: ");
        combat_text(b, &p->ld);
        rpl__buf_puts(b, "\n");
    } else {
        rpl__buf_puts(b, "lancelot, dragon: over\n");
    }
    if (p->exc_state)
        rpl__buf_printf(b, "excalibur: %s\n",
                        p->exc_state == 1 ? "won" : "lost");
    else
        rpl__buf_printf(b, "excalibur: %u of %u\n", p->exc_pos, SOC_EXC_WIN);
    if (p->grail_state) {
        rpl__buf_printf(b, "grail: %s\n", p->grail_state == 1 ? "won" : "lost");
    } else {
        rpl__buf_puts(b, "grail:");
        for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++)
            rpl__buf_printf(b, "%s%s", i ? "," : " ", tok(p->grail[i]));
        rpl__buf_puts(b, "\n");
    }
    for (unsigned w = 0; w < 2; w++) {
        const struct soc_war *war = &p->war[w];

        rpl__buf_printf(b, "%s: knights ", w ? "saxons" : "picts");
        put_cards(b, war->white, war->nwhite);
        rpl__buf_printf(b, ", %u figure%s%s\n", war->figures,
                        war->figures == 1 ? "" : "s",
                        war->mordred ? ", mordred" : "");
    }
    if (p->mists || p->vivien || p->dark_forest || p->heroism) {
        rpl__buf_puts(b, "in play:");
        if (p->mists)
            rpl__buf_puts(b, " mists_of_avalon");
        if (p->vivien)
            rpl__buf_puts(b, " vivien");
        if (p->dark_forest)
            rpl__buf_puts(b, " dark_forest");
        if (p->heroism)
            rpl__buf_printf(b, " heroism on %s",
                            rpl__soc_quest[p->heroism - 1].tok);
        rpl__buf_puts(b, "\n");
    }
    for (unsigned c = 0; c < SOC_NWT; c++)
        wd += p->wdisc[c];
    for (unsigned c = 0; c < SOC_NBT; c++)
        bd += p->bdisc[c];
    rpl__buf_printf(b,
                    "white deck %u, discards %u; black deck %u, discards "
                    "%u\n",
                    p->wpile_n, wd, p->bpile_n, bd);
    if (p->phase == SOC_PH_OVER) {
        if (p->reason == SOC_R_ABORTED)
            rpl__buf_puts(b, "over: aborted\n");
        else
            rpl__buf_printf(b, "over: %s %s (%s)\n",
                            rpl__soc_winner_tok(p->winner), win_verb(p->winner),
                            rpl__soc_reason_tok(p->reason));
        return;
    }
    rpl__soc_expected_form(s, next, sizeof(next));
    rpl__buf_printf(b, "next: %s\n", next);
}

static void
private_text(const struct soc_state *s, int viewer, struct rpl__buf *b)
{
    const struct soc_pub *p = &s->p;
    const bool all = viewer == RPL_VIEW_ALL;
    uint8_t cards[SOC_NWHITE];

    if (!all && !is_seat(p, viewer))
        return;
    if (!p->knows) {
        if (all)
            rpl__buf_puts(b, "hands and loyalty not revealed\n");
        else
            rpl__buf_printf(b, "p%d: private knowledge not revealed\n", viewer);
        return;
    }
    for (unsigned k = 1; k <= p->n; k++) {
        const unsigned n = hand_cards(s, k, cards);

        if (!all && (int)k != viewer)
            continue;
        rpl__buf_printf(b, "%sp%u %s", all ? "" : "you: ", k, knight_tok(p, k));
        if (all || knows_loyalty(p, k))
            rpl__buf_printf(b, ", %s", tok(s->h.loyalty[k]));
        else
            rpl__buf_puts(b, ", loyalty not looked at yet");
        rpl__buf_puts(b, ", hand: ");
        put_cards(b, cards, n);
        rpl__buf_puts(b, "\n");
    }
}

void
rpl__soc_view(const void *st, const struct rpl__env *env, int viewer,
              struct rpl__buf *out)
{
    const struct soc_state *s = st;

    (void)env;
    board_text(s, out);
    private_text(s, viewer, out);
}

/* --------------------------------------------------------------- JSON */

static json_t *
jcards(struct rpl__jb *j, const uint8_t *cards, unsigned n)
{
    json_t *a = json_array();

    for (unsigned i = 0; i < n; i++)
        rpl__japp(j, a, json_string(tok(cards[i])));
    if (!a)
        j->ok = false;
    return a;
}

static const char *
phase_word(const struct soc_pub *p)
{
    switch (p->phase) {
    case SOC_PH_READY:
        return "start";
    case SOC_PH_PLAY:
        return "play";
    case SOC_PH_OVER:
        return "over";
    default:
        return "rules";
    }
}

static json_t *
jcombat(struct rpl__jb *j, const struct soc_combat *cb)
{
    json_t *o = json_object();

    rpl__jset(j, o, "knights", jcards(j, cb->white, cb->nwhite));
    rpl__jset(j, o, "evil", jcards(j, cb->black, cb->nblack));
    return o;
}

/*
 * view_json keys (camelog-export(1)):
 *   players, traitor_on, brave   the rules line
 *   phase        start, play, over
 *   turn         turns begun; current: the seat whose turn it is
 *   next         the line the state waits for; to_act: the seat that
 *                must act (0: the dealer)
 *   swords       {white, black}; siege: siege engines
 *   knights      [{seat, knight, lp, location, hand, alive, revealed,
 *                accused, shown_loyal, relics}]
 *   quests       {black_knight, lancelot|dragon: {knights, evil} or null,
 *                excalibur: {position, state}, grail: {spots, state},
 *                picts, saxons: {knights, figures, mordred}}
 *   in_play      {mists, vivien, dark_forest, heroism}
 *   decks        {white, white_discards, black, black_discards}
 *   winner, reason   "" until the end line
 *   viewer       0 public, -1 everything, or the seat
 *   known        (absent for public) {revealed, seats [{seat, loyalty,
 *                hand}]}: loyalty "" while the seat has not looked
 */
void
rpl__soc_view_json(const void *st, const struct rpl__env *env, int viewer,
                   struct rpl__buf *out)
{
    const struct soc_state *s = st;
    const struct soc_pub *p = &s->p;
    struct rpl__jb j = {true};
    json_t *o = json_object();
    json_t *knights = json_array();
    json_t *quests = json_object();
    char next[96];
    unsigned wd = p->wdisc_unknown, bd = 0;

    (void)env;
    rpl__jset(&j, o, "players", json_integer(p->n));
    rpl__jset(&j, o, "traitor_on", json_boolean(p->traitor_on));
    rpl__jset(&j, o, "brave", json_boolean(p->brave));
    rpl__jset(&j, o, "phase", json_string(phase_word(p)));
    rpl__jset(&j, o, "turn", json_integer(p->turns));
    rpl__jset(&j, o, "current",
              json_integer(p->phase == SOC_PH_PLAY ? p->cur : 0));
    next[0] = '\0';
    if (p->phase != SOC_PH_OVER && p->phase != SOC_PH_RULES)
        rpl__soc_expected_form(s, next, sizeof(next));
    rpl__jset(&j, o, "next", json_string(next));
    rpl__jset(
        &j, o, "to_act",
        json_integer(soc_is_dealer_need(p->need.kind) ? 0 : p->need.seat));
    rpl__jset(
        &j, o, "swords",
        json_pack("{s:i,s:i}", "white", p->swords_w, "black", p->swords_b));
    rpl__jset(&j, o, "siege", json_integer(p->siege));
    for (unsigned k = 1; p->phase >= SOC_PH_PLAY && k <= p->n; k++) {
        const struct soc_seat *t = &p->seat[k];
        json_t *e = json_object();
        json_t *rel = json_array();

        for (unsigned r = 0; r < SOC_NRELICS; r++)
            if (p->relic[r] == k)
                rpl__japp(&j, rel, json_string(rpl__soc_relic_tok[r]));
        rpl__jset(&j, e, "seat", json_integer(k));
        rpl__jset(&j, e, "knight", json_string(knight_tok(p, k)));
        rpl__jset(&j, e, "lp", json_integer(t->lp));
        rpl__jset(&j, e, "location", json_string(loc_word[t->loc]));
        rpl__jset(&j, e, "hand", json_integer(t->hand_n));
        rpl__jset(&j, e, "alive", json_boolean(t->flags & SOC_F_ALIVE));
        rpl__jset(&j, e, "revealed", json_boolean(t->flags & SOC_F_REVEALED));
        rpl__jset(&j, e, "accused", json_boolean(t->flags & SOC_F_ACCUSED));
        rpl__jset(&j, e, "shown_loyal", json_boolean(t->flags & SOC_F_LOYAL));
        rpl__jset(&j, e, "relics", rel);
        rpl__japp(&j, knights, e);
    }
    rpl__jset(&j, o, "knights", knights);
    rpl__jset(&j, quests, "black_knight", jcombat(&j, &p->bk));
    rpl__jset(&j, quests, "lancelot",
              p->ld_stage == 0 ? jcombat(&j, &p->ld) : json_null());
    rpl__jset(&j, quests, "dragon",
              p->ld_stage == 1 ? jcombat(&j, &p->ld) : json_null());
    rpl__jset(&j, quests, "excalibur",
              json_pack("{s:i,s:s}", "position", p->exc_pos, "state",
                        p->exc_state == 1   ? "won"
                        : p->exc_state == 2 ? "lost"
                                            : "open"));
    {
        json_t *spots = json_array();

        for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++)
            rpl__japp(&j, spots,
                      p->grail[i] < SOC_NCARDS ? json_string(tok(p->grail[i]))
                                               : json_null());
        rpl__jset(&j, quests, "grail",
                  json_pack("{s:o,s:s}", "spots", spots, "state",
                            p->grail_state == 1   ? "won"
                            : p->grail_state == 2 ? "lost"
                                                  : "open"));
    }
    for (unsigned w = 0; w < 2; w++) {
        const struct soc_war *war = &p->war[w];

        rpl__jset(&j, quests, w ? "saxons" : "picts",
                  json_pack("{s:o,s:i,s:b}", "knights",
                            jcards(&j, war->white, war->nwhite), "figures",
                            war->figures, "mordred", war->mordred));
    }
    rpl__jset(&j, o, "quests", quests);
    rpl__jset(&j, o, "in_play",
              json_pack("{s:b,s:b,s:b,s:s}", "mists", p->mists, "vivien",
                        p->vivien, "dark_forest", p->dark_forest, "heroism",
                        p->heroism ? rpl__soc_quest[p->heroism - 1].tok : ""));
    for (unsigned c = 0; c < SOC_NWT; c++)
        wd += p->wdisc[c];
    for (unsigned c = 0; c < SOC_NBT; c++)
        bd += p->bdisc[c];
    rpl__jset(&j, o, "decks",
              json_pack("{s:i,s:i,s:i,s:i}", "white", p->wpile_n,
                        "white_discards", wd, "black", p->bpile_n,
                        "black_discards", bd));
    rpl__jset(&j, o, "winner",
              json_string(p->phase == SOC_PH_OVER
                              ? (p->reason == SOC_R_ABORTED
                                     ? "aborted"
                                     : rpl__soc_winner_tok(p->winner))
                              : ""));
    rpl__jset(&j, o, "reason",
              json_string(p->phase == SOC_PH_OVER
                              ? rpl__soc_reason_tok(p->reason)
                              : ""));
    rpl__jset(&j, o, "viewer", json_integer(viewer));
    if (viewer == RPL_VIEW_ALL || is_seat(p, viewer)) {
        json_t *known = json_object();
        json_t *seats = json_array();
        uint8_t cards[SOC_NWHITE];

        rpl__jset(&j, known, "revealed", json_boolean(p->knows));
        for (unsigned k = 1; p->knows && k <= p->n; k++) {
            const unsigned n = hand_cards(s, k, cards);
            const bool show = viewer == RPL_VIEW_ALL || knows_loyalty(p, k);

            if (viewer != RPL_VIEW_ALL && (int)k != viewer)
                continue;
            rpl__japp(&j, seats,
                      json_pack("{s:i,s:s,s:o}", "seat", (int)k, "loyalty",
                                show ? tok(s->h.loyalty[k]) : "", "hand",
                                jcards(&j, cards, n)));
        }
        rpl__jset(&j, known, "seats", seats);
        rpl__jset(&j, o, "known", known);
    }
    rpl__jdump(&j, o, out);
}

/* ------------------------------------------------------- descriptions */

/* The secret choice a line made, when the state knows its value. */
static const struct soc_choice *
choice_at(const struct soc_state *s, size_t line)
{
    for (unsigned i = 0; i < s->p.nchoice; i++)
        if (s->ch[i].line == line && s->ch[i].known)
            return &s->ch[i];
    return NULL;
}

/* What only the viewer (or the omniscient viewer) learns from a line:
 * its own loyalty card, the black cards it looked at, the value of a
 * secret choice it made or received. */
static void
private_words(const struct soc_state *s, const struct soc_cmd *c, size_t line,
              int viewer, struct rpl__buf *out)
{
    const struct soc_pub *p = &s->p;
    const bool all = viewer == RPL_VIEW_ALL;
    const struct soc_choice *ch;
    uint8_t cards[5];

    if (!p->knows)
        return;
    switch (c->kw) {
    case SOC_K_LOYALTY:
        if (all || viewer == (int)c->seat)
            rpl__buf_printf(out, ": %s", tok(s->h.loyalty[c->seat]));
        break;
    case SOC_K_TOP:
        /* Nothing has left the deck since the look. */
        if ((all || viewer == (int)c->seat) && c->num <= 5 &&
            c->num <= s->h.bn && s->p.need.seat == c->seat) {
            for (unsigned i = 0; i < c->num; i++)
                cards[i] = s->h.bpile[(s->h.bhead + i) % SOC_NBLACK];
            rpl__buf_puts(out, ": ");
            put_names(out, cards, c->num);
        }
        break;
    case SOC_K_SWAP:
    case SOC_K_SPECIAL:
    case SOC_K_ORDER:
        ch = choice_at(s, line);
        if (ch &&
            (all || viewer == (int)ch->seat ||
             (c->seat2 && viewer == (int)c->seat2) ||
             (c->kw == SOC_K_SWAP && !c->seat2 && viewer == (int)p->cur))) {
            rpl__buf_puts(out, ": ");
            put_names(out, ch->v, ch->n);
        }
        break;
    default:
        break;
    }
}

/* A card by its English name, "Fight 3". */
static const char *
card_name(unsigned card)
{
    return card < SOC_NCARDS ? rpl__soc_card[card].name : "-";
}

void
rpl__soc_describe(const void *st, const struct rpl__env *env,
                  const struct rpl__line *ln, int viewer, struct rpl__buf *out)
{
    const struct soc_state *s = st;
    const struct soc_pub *p = &s->p;
    struct soc_cmd c;
    char list[1024];

    if (rpl__soc_parse(p, ln, &c, NULL) != RPL_OK) {
        rpl__buf_add(out, ln->text, ln->len);
        return;
    }
    rpl__soc_fmt_cards(list, sizeof(list), c.cards, c.ncards);
    switch (c.kw) {
    case SOC_K_START:
        rpl__buf_puts(out, "the knights are dealt:");
        for (unsigned k = 1; k <= c.ncards; k++) {
            rpl__buf_puts(out, k > 1 ? ", " : " ");
            put_who(out, env, p, k);
            rpl__buf_printf(out, " is %s",
                            rpl__soc_knight[c.cards[k - 1]].name);
        }
        rpl__buf_puts(out, "; ");
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " plays first");
        break;
    case SOC_K_LOYALTY:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " looks at a loyalty card");
        break;
    case SOC_K_WHITE:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " draws %u white card%s", c.num,
                        c.num == 1 ? "" : "s");
        break;
    case SOC_K_TOP:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " looks at the top %u black card%s", c.num,
                        c.num == 1 ? "" : "s");
        break;
    case SOC_K_BLACK:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " draws the black card%s ",
                        c.ncards == 1 ? "" : "s");
        put_names(out, c.cards, c.ncards);
        break;
    case SOC_K_ROLL:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, "'s siege engine rolls %u", c.num);
        break;
    case SOC_K_TAUNTED:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " loses %s to the traitor's taunt",
                        card_name(c.card));
        break;
    case SOC_K_SHOWS:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " shows a %s loyalty card",
                        c.opt == SOC_O_TRAITOR ? "traitor" : "loyal");
        break;
    case SOC_K_QUEST:
        rpl__buf_printf(out, "the quest of %s is %s: %u %s sword%s",
                        rpl__soc_quest[c.loc].name,
                        c.opt == SOC_O_WON ? "won" : "lost", c.num,
                        c.opt == SOC_O_WON ? "white" : "black",
                        c.num == 1 ? "" : "s");
        if (c.num2) {
            rpl__buf_puts(out, "; ");
            put_who(out, env, p, c.num2);
            rpl__buf_puts(out, " takes the relic");
        }
        break;
    case SOC_K_DIES:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " dies");
        break;
    case SOC_K_FLIP:
        if (c.seat) {
            put_who(out, env, p, c.seat);
            rpl__buf_puts(out, " reveals the traitor card and turns two "
                               "white swords black");
        } else {
            rpl__buf_puts(out, "no knight holds the traitor card");
        }
        break;
    case SOC_K_END:
        if (c.num == SOC_R_ABORTED)
            rpl__buf_puts(out, "the game is abandoned");
        else
            rpl__buf_printf(out, "%s %s (%s)", rpl__soc_winner_tok(c.winner),
                            win_verb(c.winner), rpl__soc_reason_tok(c.num));
        break;
    case SOC_K_POOL:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " lays %s on the Round Table", card_name(c.card));
        break;
    case SOC_K_ALLOT:
        rpl__buf_puts(out, "the Round Table shares the cards laid");
        break;
    case SOC_K_LOOK:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " looks at the top black card");
        break;
    case SOC_K_SWAP:
        put_who(out, env, p, c.seat);
        if (c.seat2) {
            rpl__buf_puts(out, " gives a white card face down to ");
            put_who(out, env, p, c.seat2);
        } else {
            rpl__buf_puts(out, " gives a white card back face down");
        }
        break;
    case SOC_K_EVIL:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, c.opt == SOC_O_BLACK   ? " draws a black card"
                           : c.opt == SOC_O_SIEGE ? " adds a siege engine"
                                                  : " loses a life point");
        break;
    case SOC_K_TAUNT:
        put_who(out, env, p, c.seat);
        if (c.seat2) {
            rpl__buf_puts(out, " taunts ");
            put_who(out, env, p, c.seat2);
        } else {
            rpl__buf_puts(out, " finds no knight with a card to taunt");
        }
        break;
    case SOC_K_KEEP:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " keeps %s; the other goes under the deck",
                        card_name(c.card));
        break;
    case SOC_K_PASS:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " passes");
        break;
    case SOC_K_CANCEL:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, c.opt == SOC_O_EXCALIBUR
                               ? " gives up Excalibur to cancel the black "
                                 "card"
                               : " has three merlins cancel the black card");
        break;
    case SOC_K_WAR:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " sends the figure against %s",
                        rpl__soc_quest[c.loc].name);
        break;
    case SOC_K_MERLINS:
        put_who(out, env, p, c.seat);
        if (c.num)
            rpl__buf_printf(out, " offers %u merlin%s", c.num,
                            c.num == 1 ? "" : "s");
        else
            rpl__buf_puts(out, " offers no merlin");
        break;
    case SOC_K_OFFER:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, c.opt == SOC_O_YES ? " says yes" : " says no");
        break;
    case SOC_K_VOLUNTEER:
        if (c.seat2) {
            put_who(out, env, p, c.seat2);
            rpl__buf_puts(out, " volunteers");
        } else {
            rpl__buf_puts(out, "nobody volunteers");
        }
        break;
    case SOC_K_DISCARD:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " discards ");
        put_names(out, c.cards, c.ncards);
        break;
    case SOC_K_MOVE:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " goes to %s", rpl__soc_quest[c.loc].name);
        break;
    case SOC_K_DRAW:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " draws white cards at the Round Table");
        break;
    case SOC_K_SIEGE:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " fights a siege engine with ");
        if (c.ncards)
            put_names(out, c.cards, c.ncards);
        else
            rpl__buf_puts(out, "no card");
        break;
    case SOC_K_PLAY:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " plays %s", card_name(c.card));
        break;
    case SOC_K_SPECIAL:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " plays %s", card_name(c.card));
        if (c.card == SOC_MERLIN || c.card == SOC_HEROISM)
            rpl__buf_printf(out, " on %s", rpl__soc_quest[c.loc].name);
        if (c.card == SOC_MESSENGER) {
            rpl__buf_printf(out, " and sends %u card%s to ", c.num,
                            c.num == 1 ? "" : "s");
            put_who(out, env, p, c.seat2);
        }
        if (c.card == SOC_PIETY || c.card == SOC_REINFORCEMENTS)
            rpl__buf_puts(out, c.opt == SOC_O_SELF ? " for himself"
                                                   : " for the others");
        break;
    case SOC_K_HEAL:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " discards three %s cards and heals",
                        card_name(c.card));
        break;
    case SOC_K_ACCUSE:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " accuses ");
        put_who(out, env, p, c.seat2);
        rpl__buf_puts(out, " of treason");
        break;
    case SOC_K_SACRIFICE:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " gives a life point for one more action");
        break;
    case SOC_K_KAY:
        put_who(out, env, p, c.seat);
        rpl__buf_printf(out, " adds %s to the knights' total",
                        card_name(c.card));
        break;
    case SOC_K_SAVE:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " spends the Holy Grail to save a dying knight");
        break;
    case SOC_K_SHARE:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " shares the reward:");
        for (unsigned i = 0; i < c.nseats; i++) {
            rpl__buf_puts(out, i ? ", " : " ");
            put_who(out, env, p, c.seats[i]);
            rpl__buf_printf(out, " %u", c.counts[i]);
        }
        break;
    case SOC_K_ORDER:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " puts the black cards back in an order of "
                           "his choice");
        break;
    case SOC_K_DONE:
        put_who(out, env, p, c.seat);
        rpl__buf_puts(out, " ends the turn");
        break;
    default:
        rpl__buf_add(out, ln->text, ln->len);
        break;
    }
    private_words(s, &c, ln->no, viewer, out);
}

/* events_json: one object per line, {"event": <keyword>, "seat": k, ...}
 * with the line's fields: target, card(s), quest, count, value,
 * winner/reason; the card lists are arrays of tokens. */
void
rpl__soc_events_json(const void *st, const struct rpl__env *env,
                     const struct rpl__line *ln, struct rpl__buf *out)
{
    const struct soc_state *s = st;
    struct soc_cmd c;
    struct rpl__jb j = {true};
    json_t *a, *e;

    (void)env;
    if (rpl__soc_parse(&s->p, ln, &c, NULL) != RPL_OK) {
        rpl__buf_puts(out, "[]");
        return;
    }
    a = json_array();
    e = json_object();
    rpl__jset(&j, e, "event", json_string(rpl__soc_kw[c.kw]));
    if (c.kw != SOC_K_QUEST && c.kw != SOC_K_END)
        rpl__jset(&j, e, "seat", json_integer(c.seat));
    if (c.seat2)
        rpl__jset(&j, e, "target", json_integer(c.seat2));
    switch (c.kw) {
    case SOC_K_START: {
        json_t *kn = json_array();

        for (unsigned i = 0; i < c.ncards; i++)
            rpl__japp(&j, kn, json_string(rpl__soc_knight[c.cards[i]].tok));
        rpl__jset(&j, e, "knights", kn);
        break;
    }
    case SOC_K_WHITE:
    case SOC_K_TOP:
    case SOC_K_ROLL:
        rpl__jset(&j, e, "count", json_integer(c.num));
        break;
    case SOC_K_BLACK:
    case SOC_K_DISCARD:
    case SOC_K_SIEGE:
        rpl__jset(&j, e, "cards", jcards(&j, c.cards, c.ncards));
        break;
    case SOC_K_TAUNTED:
    case SOC_K_POOL:
    case SOC_K_PLAY:
    case SOC_K_HEAL:
    case SOC_K_KAY:
    case SOC_K_KEEP:
    case SOC_K_SPECIAL:
        rpl__jset(&j, e, "card", json_string(tok(c.card)));
        if (c.kw == SOC_K_SPECIAL &&
            (c.card == SOC_MERLIN || c.card == SOC_HEROISM))
            rpl__jset(&j, e, "quest", json_string(rpl__soc_quest[c.loc].tok));
        if (c.kw == SOC_K_SPECIAL && c.card == SOC_MESSENGER)
            rpl__jset(&j, e, "count", json_integer(c.num));
        if (c.opt == SOC_O_SELF || c.opt == SOC_O_OTHERS)
            rpl__jset(&j, e, "for",
                      json_string(c.opt == SOC_O_SELF ? "self" : "others"));
        break;
    case SOC_K_SHOWS:
        rpl__jset(&j, e, "loyalty",
                  json_string(c.opt == SOC_O_TRAITOR ? "traitor" : "loyal"));
        break;
    case SOC_K_QUEST:
        rpl__jset(&j, e, "quest", json_string(rpl__soc_quest[c.loc].tok));
        rpl__jset(&j, e, "result",
                  json_string(c.opt == SOC_O_WON ? "won" : "lost"));
        rpl__jset(&j, e, "swords", json_integer(c.num));
        rpl__jset(&j, e, "relic", json_integer(c.num2));
        break;
    case SOC_K_END:
        rpl__jset(&j, e, "winner",
                  json_string(c.num == SOC_R_ABORTED
                                  ? "aborted"
                                  : rpl__soc_winner_tok(c.winner)));
        rpl__jset(&j, e, "reason", json_string(rpl__soc_reason_tok(c.num)));
        break;
    case SOC_K_EVIL:
        rpl__jset(&j, e, "choice",
                  json_string(c.opt == SOC_O_BLACK   ? "black"
                              : c.opt == SOC_O_SIEGE ? "siege"
                                                     : "life"));
        break;
    case SOC_K_MOVE:
    case SOC_K_WAR:
        rpl__jset(&j, e, "quest", json_string(rpl__soc_quest[c.loc].tok));
        break;
    case SOC_K_ALLOT:
    case SOC_K_CANCEL:
    case SOC_K_SHARE: {
        json_t *seats = json_array();

        for (unsigned i = 0; i < c.nseats; i++)
            rpl__japp(&j, seats, json_integer(c.seats[i]));
        rpl__jset(&j, e, "seats", seats);
        if (c.kw == SOC_K_SHARE) {
            json_t *counts = json_array();

            for (unsigned i = 0; i < c.nseats; i++)
                rpl__japp(&j, counts, json_integer(c.counts[i]));
            rpl__jset(&j, e, "counts", counts);
        }
        if (c.kw == SOC_K_CANCEL)
            rpl__jset(
                &j, e, "with",
                json_string(c.opt == SOC_O_EXCALIBUR ? "excalibur" : "merlin"));
        break;
    }
    default:
        break;
    }
    rpl__japp(&j, a, e);
    rpl__jdump(&j, a, out);
}

/* ------------------------------------------------------------ reveal */

static void
choice_line(const struct soc_choice *ch, unsigned i, char *out, size_t cap)
{
    static const char *const kind[] = {"", "swap", "give", "order"};
    char list[192];

    rpl__soc_fmt_cards(list, sizeof(list), ch->v, ch->n);
    snprintf(out, cap, "%s %u p%u %s", kind[ch->kind < 4 ? ch->kind : 0], i + 1,
             ch->seat, ch->known ? list : "?");
}

void
rpl__soc_reveal_text(const void *st, const struct rpl__env *env,
                     struct rpl__buf *out)
{
    const struct soc_state *s = st;
    const struct soc_pub *p = &s->p;
    uint8_t cards[SOC_NWHITE];
    char line[256];

    if (!p->knows) {
        rpl__buf_puts(out, "not revealed\n");
        return;
    }
    for (unsigned k = 1; k <= p->n; k++) {
        const unsigned n = hand_cards(s, k, cards);

        put_who(out, env, p, k);
        rpl__buf_printf(out, ": %s, %s", rpl__soc_knight[s->h.knight[k]].name,
                        s->h.loyalty[k] == SOC_TRAITOR ? "the traitor"
                                                       : "loyal");
        rpl__buf_puts(out, "; hand at the end: ");
        put_cards(out, cards, n);
        rpl__buf_puts(out, "\n");
    }
    if (p->traitor_on && !s->h.traitor)
        rpl__buf_puts(out, "no knight was dealt the traitor card\n");
    for (unsigned i = 0; i < p->nchoice; i++) {
        choice_line(&s->ch[i], i, line, sizeof(line));
        rpl__buf_printf(out, "secret choice: %s\n", line);
    }
    if (p->phase == SOC_PH_OVER) {
        if (p->reason == SOC_R_ABORTED)
            rpl__buf_puts(out, "the game was abandoned\n");
        else
            rpl__buf_printf(out, "%s %s (%s)\n", rpl__soc_winner_tok(p->winner),
                            win_verb(p->winner),
                            rpl__soc_reason_tok(p->reason));
    }
}

/*
 * reveal_json keys:
 *   seats [{seat, name, knight, loyalty, hand}]
 *   traitor   the seat dealt the traitor card, 0 for none
 *   choices [{label, value}]   the secret choices, log order
 *   winner, reason
 */
void
rpl__soc_reveal_json(const void *st, const struct rpl__env *env,
                     struct rpl__buf *out)
{
    const struct soc_state *s = st;
    const struct soc_pub *p = &s->p;
    struct rpl__jb j = {true};
    json_t *o = json_object();
    json_t *seats, *choices;
    uint8_t cards[SOC_NWHITE];

    if (!p->knows) {
        rpl__jset(&j, o, "revealed", json_false());
        rpl__jdump(&j, o, out);
        return;
    }
    seats = json_array();
    choices = json_array();
    for (unsigned k = 1; k <= p->n; k++) {
        const unsigned n = hand_cards(s, k, cards);
        const char *name =
            env && env->names && env->names[k] ? env->names[k] : "";

        rpl__japp(&j, seats,
                  json_pack("{s:i,s:s,s:s,s:s,s:o}", "seat", (int)k, "name",
                            name, "knight", rpl__soc_knight[s->h.knight[k]].tok,
                            "loyalty", tok(s->h.loyalty[k]), "hand",
                            jcards(&j, cards, n)));
    }
    for (unsigned i = 0; i < p->nchoice; i++) {
        const struct soc_choice *ch = &s->ch[i];
        static const char *const kind[] = {"", "swap", "give", "order"};
        char label[32];
        char list[192];

        snprintf(label, sizeof(label), "%s %u p%u",
                 kind[ch->kind < 4 ? ch->kind : 0], i + 1, ch->seat);
        rpl__soc_fmt_cards(list, sizeof(list), ch->v, ch->n);
        rpl__japp(&j, choices,
                  json_pack("{s:s,s:s}", "label", label, "value",
                            ch->known ? list : ""));
    }
    rpl__jset(&j, o, "seats", seats);
    rpl__jset(&j, o, "traitor", json_integer(s->h.traitor));
    rpl__jset(&j, o, "choices", choices);
    rpl__jset(&j, o, "winner",
              json_string(p->phase == SOC_PH_OVER
                              ? (p->reason == SOC_R_ABORTED
                                     ? "aborted"
                                     : rpl__soc_winner_tok(p->winner))
                              : ""));
    rpl__jset(&j, o, "reason",
              json_string(p->phase == SOC_PH_OVER
                              ? rpl__soc_reason_tok(p->reason)
                              : ""));
    rpl__jdump(&j, o, out);
}

/* ------------------------------------------------------------ board */

/* Cards by English name, "Fight 3, Merlin"; "none" for no card. */
static void
put_names(struct rpl__buf *b, const uint8_t *cards, unsigned n)
{
    if (!n)
        rpl__buf_puts(b, "none");
    for (unsigned i = 0; i < n; i++)
        rpl__buf_printf(b, "%s%s", i ? ", " : "",
                        cards[i] < SOC_NCARDS ? rpl__soc_card[cards[i]].name
                                              : "?");
}

static void
board_seats(const struct soc_state *s, const struct rpl__env *env,
            struct rpl__buf *b)
{
    const struct soc_pub *p = &s->p;

    rpl__buf_puts(b, "knights:\n");
    for (unsigned k = 1; k <= p->n; k++) {
        const struct soc_seat *t = &p->seat[k];

        rpl__buf_puts(b, "  ");
        put_who(b, env, p, k);
        if (p->phase < SOC_PH_PLAY) {
            rpl__buf_puts(b, ": not at the table yet\n");
            continue;
        }
        if (p->phase >= SOC_PH_PLAY)
            rpl__buf_printf(b, ", %s", rpl__soc_knight[t->knight].name);
        if (t->flags & SOC_F_REVEALED)
            rpl__buf_puts(b, ": the revealed traitor");
        else if (!(t->flags & SOC_F_ALIVE))
            rpl__buf_puts(b, ": dead");
        else
            rpl__buf_printf(b, ": %u life point%s, at %s", t->lp,
                            t->lp == 1 ? "" : "s", loc_word[t->loc]);
        rpl__buf_printf(b, ", %u white card%s in hand", t->hand_n,
                        t->hand_n == 1 ? "" : "s");
        for (unsigned r = 0; r < SOC_NRELICS; r++)
            if (p->relic[r] == k)
                rpl__buf_printf(b, ", holds %s", rpl__soc_relic_tok[r]);
        if (t->flags & SOC_F_ACCUSED)
            rpl__buf_puts(b, ", has accused");
        if ((t->flags & SOC_F_LOYAL) && p->traitor_on)
            rpl__buf_puts(b, ", shown loyal");
        rpl__buf_puts(b, p->phase < SOC_PH_OVER && k == p->cur &&
                                 p->phase >= SOC_PH_PLAY
                             ? "  <- to play\n"
                             : "\n");
    }
}

static void
board_quests(const struct soc_state *s, struct rpl__buf *b)
{
    const struct soc_pub *p = &s->p;

    rpl__buf_puts(b, "quests:\n  black knight: ");
    combat_text(b, &p->bk);
    rpl__buf_puts(b, "\n");
    if (p->ld_stage < 2) {
        rpl__buf_puts(b, p->ld_stage ? "  dragon: " : "  lancelot: ");
        combat_text(b, &p->ld);
        rpl__buf_puts(b, "\n");
    } else {
        rpl__buf_puts(b, "  lancelot and dragon: over\n");
    }
    if (p->exc_state)
        rpl__buf_printf(b, "  excalibur: %s\n",
                        p->exc_state == 1 ? "won" : "lost");
    else
        rpl__buf_printf(b, "  excalibur: %u of %u steps\n", p->exc_pos,
                        SOC_EXC_WIN);
    if (p->grail_state) {
        rpl__buf_printf(b, "  grail: %s\n",
                        p->grail_state == 1 ? "won" : "lost");
    } else {
        rpl__buf_puts(b, "  grail:");
        for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++)
            rpl__buf_printf(b, "%s%s", i ? "," : " ", tok(p->grail[i]));
        rpl__buf_puts(b, "\n");
    }
    for (unsigned w = 0; w < 2; w++) {
        const struct soc_war *war = &p->war[w];

        rpl__buf_printf(b, "  %s: knights ", w ? "saxons" : "picts");
        put_names(b, war->white, war->nwhite);
        rpl__buf_printf(b, ", %u figure%s%s\n", war->figures,
                        war->figures == 1 ? "" : "s",
                        war->mordred ? ", mordred" : "");
    }
}

static void
board_knows(const struct soc_state *s, const struct rpl__env *env, int viewer,
            struct rpl__buf *b)
{
    const struct soc_pub *p = &s->p;
    const bool all = viewer == RPL_VIEW_ALL;
    uint8_t cards[SOC_NWHITE];

    if (!all && !is_seat(p, viewer))
        return;
    if (!p->knows) {
        rpl__buf_puts(b, all ? "hands and loyalty are not revealed\n"
                             : "what you know is not revealed\n");
        return;
    }
    if (p->phase < SOC_PH_PLAY)
        return;
    for (unsigned k = 1; k <= p->n; k++) {
        const unsigned n = hand_cards(s, k, cards);

        if (!all && (int)k != viewer)
            continue;
        if (all)
            put_who(b, env, p, k);
        rpl__buf_printf(b, "%s %s", all ? " is" : "you are",
                        rpl__soc_knight[p->seat[k].knight].name);
        if (all || knows_loyalty(p, k))
            rpl__buf_printf(b, ", %s",
                            s->h.loyalty[k] == SOC_TRAITOR ? "the traitor"
                                                           : "loyal");
        else
            rpl__buf_puts(b, ", loyalty card not looked at yet");
        rpl__buf_printf(b, "; %s hand: ", all ? "the" : "your");
        put_names(b, cards, n);
        rpl__buf_puts(b, "\n");
    }
}

void
rpl__soc_board(const void *st, const struct rpl__env *env, int viewer,
               struct rpl__buf *out)
{
    const struct soc_state *s = st;
    const struct soc_pub *p = &s->p;
    unsigned wd = p->wdisc_unknown, bd = 0;

    rpl__buf_printf(out, "Shadows over Camelot, %u players; traitor %s%s\n",
                    p->n, p->traitor_on ? "on" : "off",
                    p->brave ? "; brave" : "");
    if (p->phase >= SOC_PH_PLAY) {
        rpl__buf_printf(out, "turn %u: ", p->turns);
        put_who(out, env, p, p->cur);
        rpl__buf_puts(out, " to play; first player ");
        put_who(out, env, p, p->first);
        rpl__buf_puts(out, "\n");
    }
    rpl__buf_printf(out,
                    "swords on the round table: %u white, %u black; siege "
                    "engines: %u\n",
                    p->swords_w, p->swords_b, p->siege);
    board_seats(s, env, out);
    board_quests(s, out);
    for (unsigned c = 0; c < SOC_NWT; c++)
        wd += p->wdisc[c];
    for (unsigned c = 0; c < SOC_NBT; c++)
        bd += p->bdisc[c];
    rpl__buf_printf(out,
                    "white deck %u, discards %u; black deck %u, discards "
                    "%u\n",
                    p->wpile_n, wd, p->bpile_n, bd);
    if (p->phase == SOC_PH_OVER) {
        if (p->reason == SOC_R_ABORTED)
            rpl__buf_puts(out, "over: the game was aborted\n");
        else
            rpl__buf_printf(out, "over: %s %s (%s)\n",
                            rpl__soc_winner_tok(p->winner), win_verb(p->winner),
                            rpl__soc_reason_tok(p->reason));
    } else if (p->phase < SOC_PH_PLAY) {
        rpl__buf_puts(out, "next: the dealer starts the game\n");
    }
    board_knows(s, env, viewer, out);
}

unsigned
rpl__soc_mark(const void *before, const void *after, const struct rpl__line *ln)
{
    const struct soc_pub *a = &((const struct soc_state *)before)->p;
    const struct soc_pub *p = &((const struct soc_state *)after)->p;
    unsigned m = 0;

    (void)ln;
    if (p->turns > a->turns)
        m |= RPL_MARK_TURN;
    if (p->swords_w + p->swords_b != a->swords_w + a->swords_b ||
        p->exc_state != a->exc_state || p->grail_state != a->grail_state ||
        p->ld_stage != a->ld_stage)
        m |= RPL_MARK_QUEST;
    if (p->phase == SOC_PH_OVER && a->phase != SOC_PH_OVER)
        m |= RPL_MARK_END;
    return m;
}
