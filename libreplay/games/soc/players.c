/*
 * players.c - the seeded players of Shadows over Camelot and the list of
 * legal moves they choose from.
 *
 * Every candidate move is checked by the rules engine's own validation
 * (validate.c), so a player can only ever choose a legal line.  The
 * random player picks uniformly among the legal moves.  The plausible
 * player scores each move from what its seat knows (tactics.c) and keeps
 * the best, ties broken with its stream.  The players read their own
 * hand from the hidden half, so they run only on a knowing state: the
 * recorder's.
 */
#include <stdio.h>
#include <string.h>

#include "soc.h"

struct pick {
    const struct soc_state *st;
    struct rpl__stream *rng;
    bool plausible;
    struct soc_know kn; /* plausible: the seat's knowledge */
    size_t count;       /* legal moves seen */
    size_t want;        /* random: the index to keep */
    long best;          /* plausible: the best score so far */
    size_t ties;
    struct soc_cmd *list; /* rpl__soc_legal(): where to copy, or NULL */
    size_t cap;
    struct soc_cmd chosen;
    bool found;
};

static void
offer(struct pick *pk, const struct soc_cmd *cmd)
{
    if (rpl__soc_validate(pk->st, cmd, NULL, 0, NULL) != RPL_OK)
        return;
    if (pk->list && pk->count < pk->cap)
        pk->list[pk->count] = *cmd;
    if (pk->plausible) {
        const long s = rpl__soc_score(&pk->kn, cmd);

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
        if (pk->plausible) {
            /* The cheapest sure fight, which a large hand's first 512
             * lists may miss. */
            unsigned n = 0;

            base(&cmd, SOC_K_SIEGE, k);
            rpl__soc_best_siege(&pk->kn, cmd.cards, &n);
            cmd.ncards = (uint8_t)n;
            rpl__soc_sort_cards(cmd.cards, n);
            offer(pk, &cmd);
        }
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
            cmd.opt = SOC_O_ASK; /* own=on: each knight answers */
            offer(pk, &cmd);
            cmd.opt = SOC_O_NONE;
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
         * it, or (random player) one recipient drawn per card.  A list
         * of the legal actions (no stream) offers the first form. */
        base(&cmd, SOC_K_ALLOT, k);
        cmd.nseats = p->npool;
        for (unsigned i = 0; i < p->npool; i++)
            cmd.seats[i] =
                (uint8_t)(pk->plausible || !pk->rng
                              ? i + 1u
                              : 1u + rpl__stream_uniform(pk->rng, p->n));
        offer(pk, &cmd);
        /* No agreement: the dealer's random sharing (own=on only, so
         * that the games of own=off keep their moves). */
        if (p->own) {
            base(&cmd, SOC_K_ALLOT, k);
            cmd.opt = SOC_O_RANDOM;
            offer(pk, &cmd);
        }
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
    case SOC_N_MERLINS:
        for (unsigned m = 0; m + nd->b <= 3; m++) {
            base(&cmd, SOC_K_MERLINS, k);
            cmd.num = (uint8_t)m;
            offer(pk, &cmd);
        }
        break;
    case SOC_N_OFFER:
        base(&cmd, SOC_K_OFFER, k);
        cmd.opt = SOC_O_YES;
        offer(pk, &cmd);
        cmd.opt = SOC_O_NO;
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

/* -------------------------------------------------------------- output */

/* The private form of a move (rpl_rec_act): secret choices carry their
 * value in place of the commitment. */
void
rpl__soc_private_form(const struct soc_state *st, const struct soc_cmd *cmd,
                      char *out, size_t cap)
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
    if (pk.plausible)
        rpl__soc_know_init(&pk.kn, st, rpl__stream_uniform(rng, 100));
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
    rpl__soc_private_form(st, &pk.chosen, out, cap);
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
