/*
 * players.c - the seeded players of Shadows over Camelot and the list of
 * legal moves they choose from.
 *
 * Every candidate move is checked by the rules engine's own validation
 * (rules.c), so a player can only ever choose a legal line.  The random
 * player picks uniformly among the legal moves.  The plausible player
 * scores each move: a loyal knight pursues the quest closest to being
 * won where his cards help, fights siege engines when they pile up, heals
 * when low and cancels the worst black cards; the traitor plays along
 * quietly, wastes his actions, lets black cards through and accuses a
 * loyal knight as soon as he may.  Ties are broken with the player's
 * stream.
 *
 * The players read the hidden half (a seat's own hand), so they run only
 * on a knowing state: the recorder's.
 */
#include <stdio.h>
#include <string.h>

#include "soc.h"

struct pick {
    const struct soc_state *st;
    struct rpl__stream *rng;
    bool plausible;
    size_t count; /* legal moves seen */
    size_t want;  /* random: the index to keep */
    long best;    /* plausible: the best score so far */
    size_t ties;
    struct soc_cmd *list; /* rpl__soc_legal(): where to copy, or NULL */
    size_t cap;
    struct soc_cmd chosen;
    bool found;
};

static long score(const struct soc_state *st, const struct soc_cmd *cmd);

static void
offer(struct pick *pk, const struct soc_cmd *cmd)
{
    if (rpl__soc_validate(pk->st, cmd, NULL, 0, NULL) != RPL_OK)
        return;
    if (pk->list && pk->count < pk->cap)
        pk->list[pk->count] = *cmd;
    if (pk->plausible) {
        const long s = score(pk->st, cmd);

        if (!pk->found || s > pk->best) {
            pk->best = s;
            pk->ties = 1;
            pk->chosen = *cmd;
            pk->found = true;
        } else if (s == pk->best) {
            /* Reservoir sampling among equal scores. */
            pk->ties++;
            if (rpl__stream_uniform(pk->rng, (uint32_t)pk->ties) == 0)
                pk->chosen = *cmd;
        }
    } else if (pk->count == pk->want) {
        pk->chosen = *cmd;
        pk->found = true;
    }
    pk->count++;
}

static void
base(struct soc_cmd *cmd, unsigned kw, unsigned seat)
{
    memset(cmd, 0, sizeof(*cmd));
    cmd->kw = (uint8_t)kw;
    cmd->seat = (uint8_t)seat;
}

static const uint8_t *
hand(const struct soc_state *st, unsigned k)
{
    return st->h.hand[k];
}

/* Every sub-multiset of the hand's cards of the given kinds with exactly
 * `size` cards (size 0: any size, the empty one included), offered as
 * cmd->cards.  At most `limit` lists. */
static void
each_multiset(struct pick *pk, struct soc_cmd *cmd, const uint8_t *have,
              const bool *kinds, unsigned size, unsigned max_size, size_t limit)
{
    unsigned take[SOC_NWT] = {0};
    size_t made = 0;

    for (;;) {
        unsigned total = 0;

        for (unsigned c = 0; c < SOC_NWT; c++)
            total += take[c];
        if ((size ? total == size : true) && total <= max_size &&
            total <= SOC_MAX_LIST) {
            unsigned n = 0;

            for (unsigned c = 0; c < SOC_NWT; c++)
                for (unsigned i = 0; i < take[c]; i++)
                    cmd->cards[n++] = (uint8_t)c;
            cmd->ncards = (uint8_t)n;
            offer(pk, cmd);
            if (++made >= limit)
                return;
        }
        /* Next combination: an odometer over the chosen kinds. */
        unsigned c = 0;

        for (; c < SOC_NWT; c++) {
            if (!kinds[c] || take[c] >= have[c]) {
                take[c] = 0;
                continue;
            }
            take[c]++;
            break;
        }
        if (c == SOC_NWT)
            return;
    }
}

static void
offer_heroic(struct pick *pk, unsigned k)
{
    const struct soc_state *st = pk->st;
    const struct soc_pub *p = &st->p;
    const uint8_t *h = hand(st, k);
    struct soc_cmd cmd;
    bool kinds[SOC_NWT] = {false};

    for (unsigned l = 0; l < SOC_NLOC; l++) {
        base(&cmd, SOC_K_MOVE, k);
        cmd.loc = (uint8_t)l;
        offer(pk, &cmd);
    }
    base(&cmd, SOC_K_DRAW, k);
    offer(pk, &cmd);
    if (p->seat[k].loc == SOC_CAMELOT && p->siege) {
        for (unsigned c = 0; c <= SOC_FIGHT5; c++)
            kinds[c] = true;
        base(&cmd, SOC_K_SIEGE, k);
        /* At most 28 cards: the line fits a recorder's 256 bytes. */
        each_multiset(pk, &cmd, h, kinds, 0, 28, 512);
    }
    for (unsigned c = 0; c < SOC_NWT; c++) {
        if (!h[c])
            continue;
        base(&cmd, SOC_K_PLAY, k);
        cmd.card = (uint8_t)c;
        offer(pk, &cmd);
        base(&cmd, SOC_K_HEAL, k);
        cmd.card = (uint8_t)c;
        offer(pk, &cmd);
        if (rpl__soc_card[c].kind != SOC_SPECIAL)
            continue;
        base(&cmd, SOC_K_SPECIAL, k);
        cmd.card = (uint8_t)c;
        switch (c) {
        case SOC_MERLIN:
        case SOC_HEROISM:
            for (unsigned l = 0; l < SOC_NLOC; l++) {
                cmd.loc = (uint8_t)l;
                offer(pk, &cmd);
            }
            break;
        case SOC_CONVOCATION: {
            uint8_t away[SOC_MAX_SEATS];
            unsigned na = 0;

            for (unsigned t = 1; t <= p->n; t++)
                if (soc_living(p, t) && p->seat[t].loc != SOC_CAMELOT)
                    away[na++] = (uint8_t)t;
            for (unsigned m = 0; m < (1u << na); m++) {
                cmd.nseats = 0;
                for (unsigned i = 0; i < na; i++)
                    if (m & (1u << i))
                        cmd.seats[cmd.nseats++] = away[i];
                offer(pk, &cmd);
            }
            break;
        }
        case SOC_MESSENGER: {
            uint8_t rest[SOC_NWT];

            memcpy(rest, h, SOC_NWT);
            rest[SOC_MESSENGER]--;
            for (unsigned i = 0; i < SOC_NWT; i++)
                kinds[i] = true;
            for (unsigned t = 1; t <= p->n; t++) {
                if (t == k || !soc_living(p, t))
                    continue;
                cmd.seat2 = (uint8_t)t;
                for (unsigned n = 1; n <= 3; n++) {
                    cmd.num = (uint8_t)n;
                    each_multiset(pk, &cmd, rest, kinds, n, n, 256);
                }
            }
            break;
        }
        case SOC_PIETY:
        case SOC_REINFORCEMENTS:
            cmd.opt = SOC_O_SELF;
            offer(pk, &cmd);
            cmd.opt = SOC_O_OTHERS;
            offer(pk, &cmd);
            break;
        default:
            offer(pk, &cmd);
            break;
        }
    }
    for (unsigned t = 1; t <= p->n; t++) {
        base(&cmd, SOC_K_ACCUSE, k);
        cmd.seat2 = (uint8_t)t;
        offer(pk, &cmd);
    }
    base(&cmd, SOC_K_SACRIFICE, k);
    offer(pk, &cmd);
    for (unsigned t = 1; t <= p->n; t++)
        for (unsigned c = 0; c < SOC_NWT; c++)
            if (h[c]) {
                base(&cmd, SOC_K_SWAP, k);
                cmd.seat2 = (uint8_t)t;
                cmd.cards[0] = (uint8_t)c;
                cmd.ncards = 1;
                offer(pk, &cmd);
            }
    base(&cmd, SOC_K_DONE, k);
    offer(pk, &cmd);
}

/* Permutations of the cards looked at, without repeats of equal lists. */
static void
offer_orders(struct pick *pk, struct soc_cmd *cmd, uint8_t *a, unsigned i,
             unsigned n)
{
    if (i == n) {
        memcpy(cmd->cards, a, n);
        cmd->ncards = (uint8_t)n;
        offer(pk, cmd);
        return;
    }
    for (unsigned j = i; j < n; j++) {
        bool dup = false;

        for (unsigned m = i; m < j; m++)
            dup |= a[m] == a[j];
        if (dup)
            continue;
        uint8_t t = a[i];

        a[i] = a[j];
        a[j] = t;
        offer_orders(pk, cmd, a, i + 1, n);
        a[j] = a[i];
        a[i] = t;
    }
}

/* Compositions of `left` cards among the present knights. */
static void
offer_shares(struct pick *pk, struct soc_cmd *cmd, unsigned i, unsigned left)
{
    if (i + 1u == cmd->nseats) {
        cmd->counts[i] = (uint8_t)left;
        offer(pk, cmd);
        return;
    }
    for (unsigned c = 0; c <= left; c++) {
        cmd->counts[i] = (uint8_t)c;
        offer_shares(pk, cmd, i + 1, left - c);
        if (pk->count > 4096)
            return;
    }
}

static void
enumerate(struct pick *pk)
{
    const struct soc_state *st = pk->st;
    const struct soc_pub *p = &st->p;
    const struct soc_need *nd = &p->need;
    const unsigned k = nd->seat;
    const uint8_t *h = hand(st, k);
    struct soc_cmd cmd;
    bool kinds[SOC_NWT];

    for (unsigned c = 0; c < SOC_NWT; c++)
        kinds[c] = true;
    switch (nd->kind) {
    case SOC_N_POOL:
        for (unsigned c = 0; c < SOC_NWT; c++) {
            base(&cmd, SOC_K_POOL, k);
            cmd.card = (uint8_t)c;
            offer(pk, &cmd);
        }
        break;
    case SOC_N_ALLOT:
        /* The table's agreement: each card back to the seat that laid
         * it, or (random player) one recipient drawn per card. */
        base(&cmd, SOC_K_ALLOT, k);
        cmd.nseats = p->npool;
        for (unsigned i = 0; i < p->npool; i++)
            cmd.seats[i] =
                (uint8_t)(pk->plausible
                              ? i + 1u
                              : 1u + rpl__stream_uniform(pk->rng, p->n));
        offer(pk, &cmd);
        break;
    case SOC_N_EVIL: {
        static const uint8_t opts[] = {SOC_O_BLACK, SOC_O_SIEGE, SOC_O_LIFE};

        for (unsigned i = 0; i < 3; i++) {
            base(&cmd, SOC_K_EVIL, k);
            cmd.opt = opts[i];
            offer(pk, &cmd);
        }
        base(&cmd, SOC_K_LOOK, k);
        offer(pk, &cmd);
        for (unsigned t = 1; t <= p->n; t++)
            for (unsigned c = 0; c < SOC_NWT; c++)
                if (h[c]) {
                    base(&cmd, SOC_K_SWAP, k);
                    cmd.seat2 = (uint8_t)t;
                    cmd.cards[0] = (uint8_t)c;
                    cmd.ncards = 1;
                    offer(pk, &cmd);
                }
        break;
    }
    case SOC_N_TAUNT:
        for (unsigned t = 0; t <= p->n; t++) {
            base(&cmd, SOC_K_TAUNT, k);
            cmd.seat2 = (uint8_t)t;
            offer(pk, &cmd);
        }
        break;
    case SOC_N_KEEP:
        for (unsigned i = 0; i < 2; i++) {
            base(&cmd, SOC_K_KEEP, k);
            cmd.card = p->drawn[i];
            if (i == 0 || p->drawn[1] != p->drawn[0])
                offer(pk, &cmd);
        }
        break;
    case SOC_N_CANCEL:
        base(&cmd, SOC_K_PASS, k);
        offer(pk, &cmd);
        base(&cmd, SOC_K_CANCEL, k);
        if (nd->a == 0) {
            cmd.opt = SOC_O_EXCALIBUR;
            offer(pk, &cmd);
            break;
        }
        cmd.opt = SOC_O_MERLIN;
        cmd.nseats = 3;
        for (unsigned a = 1; a <= p->n; a++)
            for (unsigned b = a; b <= p->n; b++)
                for (unsigned c = b; c <= p->n; c++) {
                    cmd.seats[0] = (uint8_t)a;
                    cmd.seats[1] = (uint8_t)b;
                    cmd.seats[2] = (uint8_t)c;
                    offer(pk, &cmd);
                }
        break;
    case SOC_N_WAR:
        for (unsigned l = SOC_PICTS; l <= SOC_SAXONS; l++) {
            base(&cmd, SOC_K_WAR, k);
            cmd.loc = (uint8_t)l;
            offer(pk, &cmd);
        }
        break;
    case SOC_N_VOLUNTEER:
        for (unsigned t = 0; t <= p->n; t++) {
            base(&cmd, SOC_K_VOLUNTEER, k);
            cmd.seat2 = (uint8_t)t;
            offer(pk, &cmd);
        }
        break;
    case SOC_N_DISCARD:
        base(&cmd, SOC_K_DISCARD, k);
        each_multiset(pk, &cmd, h, kinds, nd->a, nd->a, 4096);
        break;
    case SOC_N_HEROIC:
        offer_heroic(pk, k);
        break;
    case SOC_N_SWAP_BACK:
        for (unsigned c = 0; c < SOC_NWT; c++)
            if (h[c]) {
                base(&cmd, SOC_K_SWAP, k);
                cmd.cards[0] = (uint8_t)c;
                cmd.ncards = 1;
                offer(pk, &cmd);
            }
        break;
    case SOC_N_ORDER: {
        uint8_t top[5];

        for (unsigned i = 0; i < nd->a && i < 5; i++)
            top[i] = st->h.bpile[(st->h.bhead + i) % SOC_NBLACK];
        base(&cmd, SOC_K_ORDER, k);
        offer_orders(pk, &cmd, top, 0, nd->a < 5 ? nd->a : 5);
        break;
    }
    case SOC_N_KAY:
        base(&cmd, SOC_K_PASS, k);
        offer(pk, &cmd);
        for (unsigned c = 0; c <= SOC_FIGHT5; c++) {
            base(&cmd, SOC_K_KAY, k);
            cmd.card = (uint8_t)c;
            offer(pk, &cmd);
        }
        break;
    case SOC_N_SAVE:
        base(&cmd, SOC_K_SAVE, k);
        offer(pk, &cmd);
        base(&cmd, SOC_K_PASS, k);
        offer(pk, &cmd);
        break;
    case SOC_N_SHARE:
        base(&cmd, SOC_K_SHARE, k);
        for (unsigned i = 0; i < p->n; i++) {
            const unsigned s = soc_from(p, p->cur, i);

            if (nd->c & (1u << s))
                cmd.seats[cmd.nseats++] = (uint8_t)s;
        }
        if (cmd.nseats)
            offer_shares(pk, &cmd, 0, nd->a);
        break;
    default:
        break;
    }
}

/* ------------------------------------------------------------ scoring */

static bool
is_traitor(const struct soc_state *st, unsigned k)
{
    return st->h.loyalty[k] == SOC_TRAITOR;
}

static unsigned
hand_total(const struct soc_state *st, unsigned k)
{
    return st->p.seat[k].hand_n;
}

/* How many cards of the hand could be played at a quest now. */
static unsigned
useful_at(const struct soc_state *st, unsigned k, unsigned q)
{
    const struct soc_pub *p = &st->p;
    const uint8_t *h = hand(st, k);
    unsigned n = 0;

    if (!rpl__soc_loc_open(p, q))
        return 0;
    for (unsigned c = 0; c < SOC_NWT; c++)
        if (h[c] && rpl__soc_play_ok(p, q, c))
            n += q == SOC_EXCALIBUR && soc_is_fight(c) ? 0 : h[c];
    return n;
}

/* How close a quest is to being lost (0..10). */
static unsigned
danger(const struct soc_pub *p, unsigned q)
{
    switch (q) {
    case SOC_EXCALIBUR:
        return p->exc_state ? 0 : 10u - p->exc_pos * 2u;
    case SOC_GRAIL: {
        unsigned b = 0;

        for (unsigned i = 0; i < SOC_GRAIL_SPOTS; i++)
            b += p->grail[i] != SOC_NCARDS && soc_is_black(p->grail[i]);
        return p->grail_state ? 0 : b + 3;
    }
    case SOC_PICTS:
    case SOC_SAXONS:
        return p->war[q == SOC_PICTS ? 0 : 1].figures * 3u;
    case SOC_CAMELOT:
        return p->siege;
    default:
        return 2;
    }
}

/* The siege fight's chance in eighths: the d8 must be below the sum. */
static long
siege_odds(unsigned sum)
{
    return sum >= 9 ? 8 : sum ? (long)sum - 1 : 0;
}

static long
score_heroic(const struct soc_state *st, const struct soc_cmd *cmd,
             bool traitor)
{
    const struct soc_pub *p = &st->p;
    const unsigned k = cmd->seat;
    const struct soc_seat *s = &p->seat[k];

    switch (cmd->kw) {
    case SOC_K_PLAY:
        if (traitor)
            return 10;
        if (s->loc == SOC_EXCALIBUR)
            return soc_is_fight(cmd->card) ? 5 : 45 + (long)danger(p, s->loc);
        return 60 + (long)danger(p, s->loc) * 2;
    case SOC_K_MOVE: {
        const long use = (long)useful_at(st, k, cmd->loc);

        if (traitor)
            return 15 + use;
        if (cmd->loc == SOC_CAMELOT)
            return p->siege >= 6 || hand_total(st, k) < 4 ? 38 : 5;
        if (use < 1)
            return 0;
        return 30 + use * 4 + (long)danger(p, cmd->loc);
    }
    case SOC_K_DRAW:
        return traitor ? 40 : hand_total(st, k) < 6 ? 42 : 12;
    case SOC_K_SIEGE: {
        unsigned sum = 0;

        for (unsigned i = 0; i < cmd->ncards; i++)
            sum += soc_fight_value(cmd->cards[i]);
        if (traitor)
            return cmd->ncards == 0 ? 8 : 2;
        if (p->siege < 4 || siege_odds(sum) < (p->siege >= 8 ? 4 : 6))
            return 1;
        /* Sure enough, with as few cards as possible. */
        return 40 + siege_odds(sum) * 4 + (long)p->siege -
               (long)cmd->ncards * 3;
    }
    case SOC_K_HEAL:
        return s->lp <= 2 ? 70 : traitor ? 3 : 10;
    case SOC_K_SPECIAL:
        if (traitor)
            return 4;
        switch (cmd->card) {
        case SOC_MERLIN:
            return danger(p, cmd->loc) >= 6 ? 50 + (long)danger(p, cmd->loc)
                                            : 2;
        case SOC_PIETY:
            return cmd->opt == SOC_O_SELF && s->lp <= 3 ? 45 : 3;
        case SOC_REINFORCEMENTS:
            return cmd->opt == SOC_O_SELF ? 35 : 20;
        case SOC_LADY:
            return p->exc_state == 0 || s->lp <= 3 ? 35 : 2;
        case SOC_HEROISM:
            return cmd->loc == SOC_GRAIL ? 25 : 5;
        case SOC_CLAIRVOYANCE:
        case SOC_FATE:
            return 15;
        default:
            return 3;
        }
    case SOC_K_ACCUSE:
        if (traitor)
            return 80;
        /* A loyal knight accuses the one he believes guilty: here the
         * seat that has sent the fewest cards to quests, approximated
         * by the largest hand. */
        return p->swords_w + p->swords_b >= 9
                   ? 12 + (long)hand_total(st, cmd->seat2)
                   : -1;
    case SOC_K_SACRIFICE:
        return !traitor && s->lp >= 4 ? 2 : -5;
    case SOC_K_SWAP:
        return -2;
    case SOC_K_DONE:
        return 1;
    default:
        return 0;
    }
}

static long
score(const struct soc_state *st, const struct soc_cmd *cmd)
{
    const struct soc_pub *p = &st->p;
    const struct soc_need *nd = &p->need;
    const unsigned k = cmd->seat;
    const bool traitor = is_traitor(st, k);

    switch (nd->kind) {
    case SOC_N_POOL:
        return cmd->card == SOC_MERLIN ? 0 : hand(st, k)[cmd->card];
    case SOC_N_EVIL:
        if (cmd->kw == SOC_K_LOOK)
            return 50;
        if (cmd->kw == SOC_K_SWAP)
            return -10;
        switch (cmd->opt) {
        case SOC_O_LIFE:
            return traitor ? 1 : p->seat[k].lp >= 5 ? 28 : 2;
        case SOC_O_SIEGE:
            return traitor ? 40 : p->siege < 4 ? 26 : 3;
        default:
            return traitor ? 30 : 25;
        }
    case SOC_N_TAUNT:
        return cmd->seat2 ? (long)p->seat[cmd->seat2].hand_n : 0;
    case SOC_N_CANCEL: {
        const unsigned c = p->resolving;
        const bool bad = c == SOC_MORGAN_SIEGE || c == SOC_MORGAN_LIFE ||
                         c == SOC_MORGAN_DRAW3 || c == SOC_DESOLATION ||
                         c == SOC_MISTS;

        if (cmd->kw == SOC_K_PASS)
            return 10;
        return traitor ? 0 : bad ? 20 : 1;
    }
    case SOC_N_WAR: {
        const unsigned f = p->war[cmd->loc == SOC_PICTS ? 0 : 1].figures;

        return traitor ? (long)f : -(long)f;
    }
    case SOC_N_VOLUNTEER:
        if (!cmd->seat2)
            return 5;
        if (cmd->seat2 != k || traitor)
            return 0;
        return nd->a == SOC_MORGAN_DISCARD ? (hand_total(st, k) >= 8 ? 10 : 0)
                                           : (p->seat[k].lp >= 5 ? 10 : 0);
    case SOC_N_DISCARD: {
        long s = 0;

        for (unsigned i = 0; i < cmd->ncards; i++)
            s -= rpl__soc_card[cmd->cards[i]].kind == SOC_SPECIAL ? 5 : 1;
        return traitor ? -s : s;
    }
    case SOC_N_HEROIC:
        return score_heroic(st, cmd, traitor);
    case SOC_N_KAY: {
        /* Only when the card turns a loss into a win. */
        unsigned w = 0, b = 0;

        if (cmd->kw == SOC_K_PASS || traitor)
            return cmd->kw == SOC_K_PASS ? 10 : 0;
        if (nd->a == SOC_CAMELOT) {
            for (unsigned v = 0; v < 5; v++)
                w += p->fight[v] * (v + 1u);
            b = p->roll;
        } else {
            rpl__soc_combat_totals(p, nd->a, &w, &b);
        }
        if (w > b || w + soc_fight_value(cmd->card) <= b)
            return 0;
        return 20 - (long)soc_fight_value(cmd->card);
    }
    case SOC_N_SAVE:
        return cmd->kw == SOC_K_SAVE ? (traitor && nd->a != k ? 0 : 10) : 5;
    case SOC_N_SHARE: {
        long s = 0;

        for (unsigned i = 0; i < cmd->nseats; i++)
            s -= (long)cmd->counts[i] * cmd->counts[i];
        return s;
    }
    default:
        return 0;
    }
}

/* -------------------------------------------------------------- output */

/* The private form of a move (rpl_rec_act): secret choices carry their
 * value in place of the commitment. */
static void
private_form(const struct soc_state *st, const struct soc_cmd *cmd, char *out,
             size_t cap)
{
    char list[256];

    rpl__soc_fmt_cards(list, sizeof(list), cmd->cards, cmd->ncards);
    if (cmd->kw == SOC_K_SWAP) {
        if (cmd->seat2)
            snprintf(out, cap, "swap p%u p%u %s", cmd->seat, cmd->seat2, list);
        else
            snprintf(out, cap, "swap p%u %s", cmd->seat, list);
    } else if (cmd->kw == SOC_K_SPECIAL && cmd->card == SOC_MESSENGER) {
        snprintf(out, cap, "special p%u messenger p%u %s", cmd->seat,
                 cmd->seat2, list);
    } else if (cmd->kw == SOC_K_ORDER) {
        snprintf(out, cap, "order p%u %s", cmd->seat, list);
    } else {
        rpl__soc_format(&st->p, cmd, out, cap);
    }
}

enum rpl_status
rpl__soc_bot(const struct soc_state *st, enum rpl_bot kind,
             struct rpl__stream *rng, char *out, size_t cap,
             struct rpl_error *err)
{
    struct pick pk;

    memset(&pk, 0, sizeof(pk));
    pk.st = st;
    pk.rng = rng;
    pk.plausible = kind == RPL_BOT_PLAUSIBLE;
    pk.want = SIZE_MAX;
    if (!st->p.knows || soc_is_dealer_need(st->p.need.kind) || !st->p.need.seat)
        return rpl__err(err, RPL_E_STATE, 0, "no seat is to act");
    if (!pk.plausible) {
        enumerate(&pk);
        if (!pk.count)
            return rpl__err(err, RPL_E_STATE, 0, "no legal move for p%u",
                            st->p.need.seat);
        pk.want = rpl__stream_uniform(rng, (uint32_t)pk.count);
        pk.count = 0;
    }
    enumerate(&pk);
    if (!pk.found)
        return rpl__err(err, RPL_E_STATE, 0, "no legal move for p%u",
                        st->p.need.seat);
    private_form(st, &pk.chosen, out, cap);
    return RPL_OK;
}

size_t
rpl__soc_legal(const struct soc_state *st, struct soc_cmd *out, size_t cap,
               size_t *total)
{
    struct pick pk;

    memset(&pk, 0, sizeof(pk));
    pk.st = st;
    pk.want = SIZE_MAX;
    pk.list = out;
    pk.cap = cap;
    if (st->p.knows && !soc_is_dealer_need(st->p.need.kind) && st->p.need.seat)
        enumerate(&pk);
    if (total)
        *total = pk.count;
    return pk.count < cap ? pk.count : cap;
}
