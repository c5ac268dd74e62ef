/*
 * hidden.c - the secret half of a Shadows over Camelot game: the deal
 * derived from the seed (camelog-soc(7), "Setup"), the order of both
 * decks, every hand, the loyalty cards, the dice and the taunts, and the
 * events that change them.
 *
 * The same function plays an event live (the state knows the seed) and
 * when the journal is replayed after the reveal, so what the recorder
 * dealt and what a verifier checks cannot drift apart.  A check that
 * fails names the line of the event whose claim is false.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "soc.h"

/* ------------------------------------------------------------ the deal */

void
rpl__soc_derive(struct soc_hid *h, struct soc_rng *r, unsigned n,
                bool traitor_on, const uint8_t seed[32])
{
    struct rpl__stream s;
    uint8_t knights[SOC_NKNIGHTS];
    uint8_t loyalty[SOC_NLOYALTY];
    uint8_t deck[SOC_NWHITE];
    size_t m = 0;

    memset(h, 0, sizeof(*h));

    /* Knights: the seven in table order, shuffled; pK gets the K-th. */
    for (unsigned i = 0; i < SOC_NKNIGHTS; i++)
        knights[i] = (uint8_t)i;
    rpl__stream_init(&s, seed, "knights");
    rpl__stream_shuffle(&s, knights, SOC_NKNIGHTS);
    for (unsigned k = 1; k <= n; k++) {
        h->knight[k] = knights[k - 1];
        if (knights[k - 1] == SOC_ARTHUR)
            h->first = (uint8_t)k;
    }
    /* King Arthur plays first; without him, a seat drawn at random. */
    if (!h->first) {
        rpl__stream_init(&s, seed, "first");
        h->first = (uint8_t)(1 + rpl__stream_uniform(&s, n));
    }

    /* Loyalty: 7 loyal cards and the traitor, shuffled; pK gets the
     * K-th, the rest stay in the box unseen.  Without the traitor every
     * seat is loyal and nothing is drawn. */
    for (unsigned k = 1; k <= n; k++)
        h->loyalty[k] = SOC_LOYAL;
    if (traitor_on) {
        for (unsigned i = 0; i < SOC_NLOYALTY; i++)
            loyalty[i] = i + 1 < SOC_NLOYALTY ? SOC_LOYAL : SOC_TRAITOR;
        rpl__stream_init(&s, seed, "loyalty");
        rpl__stream_shuffle(&s, loyalty, SOC_NLOYALTY);
        for (unsigned k = 1; k <= n; k++) {
            h->loyalty[k] = loyalty[k - 1];
            if (loyalty[k - 1] == SOC_TRAITOR)
                h->traitor = (uint8_t)k;
        }
    }

    /* White: one Merlin to each seat, the other white cards (the spare
     * Merlins included) in table order, shuffled; the top is deck[0]. */
    for (unsigned c = 0; c < SOC_NWT; c++) {
        unsigned cnt = rpl__soc_card[c].count;

        if (c == SOC_MERLIN)
            cnt -= n;
        for (unsigned i = 0; i < cnt; i++)
            deck[m++] = (uint8_t)c;
    }
    for (unsigned k = 1; k <= n; k++)
        h->hand[k][SOC_MERLIN] = 1;
    rpl__stream_init(&s, seed, "white");
    rpl__stream_shuffle(&s, deck, m);
    memcpy(h->wpile, deck, m);
    h->whead = 0;
    h->wn = (uint8_t)m;
    h->wshuffles = 1;

    /* Black: all 76 in table order, shuffled. */
    m = 0;
    for (unsigned c = SOC_B0; c < SOC_L0; c++)
        for (unsigned i = 0; i < rpl__soc_card[c].count; i++)
            deck[m++] = (uint8_t)c;
    rpl__stream_init(&s, seed, "black");
    rpl__stream_shuffle(&s, deck, m);
    memcpy(h->bpile, deck, m);
    h->bhead = 0;
    h->bn = (uint8_t)m;
    h->bshuffles = 1;

    rpl__stream_init(&r->d8, seed, "d8");
    rpl__stream_init(&r->taunt, seed, "taunt");
    rpl__stream_wipe(&s);
    sodium_memzero(knights, sizeof(knights));
    sodium_memzero(loyalty, sizeof(loyalty));
    sodium_memzero(deck, sizeof(deck));
}

/* ---------------------------------------------------------- the decks */

static unsigned
btop(const struct soc_hid *h, unsigned i)
{
    return h->bpile[(h->bhead + i) % SOC_NBLACK];
}

static unsigned
wpop(struct soc_hid *h)
{
    const unsigned c = h->wpile[h->whead];

    h->whead = (uint8_t)((h->whead + 1u) % SOC_NWHITE);
    h->wn--;
    return c;
}

static unsigned
bpop(struct soc_hid *h)
{
    const unsigned c = h->bpile[h->bhead];

    h->bhead = (uint8_t)((h->bhead + 1u) % SOC_NBLACK);
    h->bn--;
    return c;
}

static void
bpush_bottom(struct soc_hid *h, unsigned c)
{
    h->bpile[(h->bhead + h->bn) % SOC_NBLACK] = (uint8_t)c;
    h->bn++;
}

/* Both discard piles, each in table order and shuffled on its next
 * stream ("white 2", "black 2", ...), go under their decks. */
static void
reshuffle(struct soc_hid *h, const uint8_t seed[32])
{
    struct rpl__stream s;
    uint8_t list[SOC_NWHITE];
    char name[16];
    size_t m = 0;

    for (unsigned c = 0; c < SOC_NWT; c++)
        for (unsigned i = 0; i < h->wdisc[c]; i++)
            list[m++] = (uint8_t)c;
    if (m) {
        snprintf(name, sizeof(name), "white %u", h->wshuffles + 1u);
        rpl__stream_init(&s, seed, name);
        rpl__stream_shuffle(&s, list, m);
        for (size_t i = 0; i < m; i++) {
            h->wpile[(h->whead + h->wn) % SOC_NWHITE] = list[i];
            h->wn++;
        }
        h->wshuffles++;
        memset(h->wdisc, 0, sizeof(h->wdisc));
    }
    m = 0;
    for (unsigned c = 0; c < SOC_NBT; c++)
        for (unsigned i = 0; i < h->bdisc[c]; i++)
            list[m++] = (uint8_t)(SOC_B0 + c);
    if (m) {
        snprintf(name, sizeof(name), "black %u", h->bshuffles + 1u);
        rpl__stream_init(&s, seed, name);
        rpl__stream_shuffle(&s, list, m);
        for (size_t i = 0; i < m; i++)
            bpush_bottom(h, list[i]);
        h->bshuffles++;
        memset(h->bdisc, 0, sizeof(h->bdisc));
    }
    rpl__stream_wipe(&s);
}

/* The cards of a hand in table order. */
static size_t
hand_list(const struct soc_hid *h, unsigned seat, uint8_t *out)
{
    size_t m = 0;

    for (unsigned c = 0; c < SOC_NWT; c++)
        for (unsigned i = 0; i < h->hand[seat][c]; i++)
            out[m++] = (uint8_t)c;
    return m;
}

void
rpl__soc_white_label(char *out, size_t cap, unsigned d, unsigned seat)
{
    snprintf(out, cap, "white %u p%u", d + 1u, seat);
}

static void
top_label(char *out, size_t cap, unsigned d, unsigned seat)
{
    snprintf(out, cap, "top %u p%u", d + 1u, seat);
}

/* ------------------------------------------------------------- peeks */

void
rpl__soc_peek_white(const struct soc_state *st, const uint8_t seed[32],
                    unsigned n, uint8_t *out)
{
    struct soc_hid h = st->h;

    if (h.wn < n)
        reshuffle(&h, seed);
    for (unsigned i = 0; i < n && h.wn; i++)
        out[i] = (uint8_t)wpop(&h);
    rpl__soc_sort_cards(out, n);
    sodium_memzero(&h, sizeof(h));
}

void
rpl__soc_peek_black(const struct soc_state *st, const uint8_t seed[32],
                    unsigned n, uint8_t *out)
{
    struct soc_hid h = st->h;

    if (h.bn < n)
        reshuffle(&h, seed);
    for (unsigned i = 0; i < n && i < h.bn; i++)
        out[i] = (uint8_t)btop(&h, i);
    sodium_memzero(&h, sizeof(h));
}

unsigned
rpl__soc_peek_roll(const struct soc_state *st)
{
    struct rpl__stream s = st->r.d8;
    const unsigned v = 1u + rpl__stream_uniform(&s, SOC_D8);

    rpl__stream_wipe(&s);
    return v;
}

unsigned
rpl__soc_peek_taunt(const struct soc_state *st, unsigned seat)
{
    struct rpl__stream s = st->r.taunt;
    uint8_t list[SOC_NWHITE];
    const size_t m = hand_list(&st->h, seat, list);
    unsigned c = 0;

    if (m)
        c = list[rpl__stream_uniform(&s, (uint32_t)m)];
    rpl__stream_wipe(&s);
    return c;
}

/* ------------------------------------------------------------ events */

static enum rpl_status
commit_check(const struct rpl__env *env, const uint8_t seed[32],
             const char *label, const char *value, const uint8_t *want,
             size_t line, struct rpl_error *err)
{
    uint8_t c[32];

    rpl__commit(c, NULL, seed, env->id, label, value, env->version);
    if (sodium_memcmp(c, want, 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, line,
                        "%s does not match its commitment (the deal gives "
                        "\"%s\")",
                        label, value);
    if (env->commitments)
        (*env->commitments)++;
    return RPL_OK;
}

static enum rpl_status
lacks(struct rpl_error *err, size_t line, unsigned seat, unsigned card)
{
    return rpl__err(err, RPL_E_RULES, line, "p%u does not hold %s", seat,
                    rpl__soc_card[card].tok);
}

void
rpl__soc_redeal(const uint8_t seed[32], unsigned poolers, uint8_t *out,
                unsigned *n)
{
    struct rpl__stream s;
    unsigned m = 0;

    for (unsigned k = 1; k <= SOC_MAX_SEATS; k++)
        if (poolers & soc_bit(k))
            out[m++] = (uint8_t)k;
    rpl__stream_init(&s, seed, "pool");
    rpl__stream_shuffle(&s, out, m);
    rpl__stream_wipe(&s);
    *n = m;
}

enum rpl_status
rpl__soc_hid_step(struct soc_state *st, const struct soc_ev *ev,
                  const struct rpl__env *env, const uint8_t seed[32],
                  unsigned *deliv, unsigned *choice, struct rpl_error *err)
{
    struct soc_hid *h = &st->h;
    const size_t line = ev->line;
    uint8_t list[SOC_NWHITE];
    char label[64];
    char value[256];
    enum rpl_status rc = RPL_OK;

    switch ((enum soc_ev_kind)ev->kind) {
    case SOC_EV_WDRAW:
        if (*deliv >= st->p.ndeliv || h->wn < ev->b)
            return rpl__err(err, RPL_E_STATE, line,
                            "white delivery %u has no record", *deliv + 1u);
        for (unsigned i = 0; i < ev->b; i++)
            list[i] = (uint8_t)wpop(h);
        rpl__soc_sort_cards(list, ev->b);
        rpl__soc_fmt_cards(value, sizeof(value), list, ev->b);
        rpl__soc_white_label(label, sizeof(label), *deliv, ev->a);
        rc = commit_check(env, seed, label, value, st->dv[*deliv].commit, line,
                          err);
        (*deliv)++;
        for (unsigned i = 0; i < ev->b; i++)
            h->hand[ev->a][list[i]]++;
        break;
    case SOC_EV_WPLAY:
        if (!h->hand[ev->a][ev->b])
            return lacks(err, line, ev->a, ev->b);
        h->hand[ev->a][ev->b]--;
        if (ev->c)
            h->wdisc[ev->b]++;
        break;
    case SOC_EV_WDISC:
        h->wdisc[ev->b]++;
        break;
    case SOC_EV_WTAKE:
        h->hand[ev->a][ev->b]++;
        break;
    case SOC_EV_WSECRET: {
        const struct soc_choice *ch = &st->ch[*choice];

        if (*choice >= st->p.nchoice || !ch->known)
            return rpl__err(err, RPL_E_STATE, line,
                            "the value of secret choice %u is not known",
                            *choice + 1u);
        (*choice)++;
        for (unsigned i = 0; i < ch->n; i++) {
            if (!h->hand[ev->a][ch->v[i]])
                return lacks(err, line, ev->a, ch->v[i]);
            h->hand[ev->a][ch->v[i]]--;
            h->hand[ev->c][ch->v[i]]++;
        }
        break;
    }
    case SOC_EV_WDUMP:
        for (unsigned c = 0; c < SOC_NWT; c++) {
            h->wdisc[c] = (uint8_t)(h->wdisc[c] + h->hand[ev->a][c]);
            h->hand[ev->a][c] = 0;
        }
        break;
    case SOC_EV_WTAUNT: {
        const size_t m = hand_list(h, ev->a, list);
        unsigned c;

        if (!m)
            return rpl__err(err, RPL_E_RULES, line, "p%u has no white card",
                            ev->a);
        c = list[rpl__stream_uniform(&st->r.taunt, (uint32_t)m)];
        if (c != ev->b)
            return rpl__err(err, RPL_E_RULES, line,
                            "the taunt takes %s from p%u (stream taunt), got "
                            "%s",
                            rpl__soc_card[c].tok, ev->a,
                            rpl__soc_card[ev->b].tok);
        h->hand[ev->a][c]--;
        h->wdisc[c]++;
        break;
    }
    case SOC_EV_BDRAW: {
        unsigned c;

        if (!h->bn)
            return rpl__err(err, RPL_E_STATE, line, "the black deck is empty");
        c = bpop(h);
        if (c != ev->b)
            return rpl__err(err, RPL_E_RULES, line,
                            "the black deck gives %s, got %s",
                            rpl__soc_card[c].tok, rpl__soc_card[ev->b].tok);
        break;
    }
    case SOC_EV_BBOTTOM:
        bpush_bottom(h, ev->b);
        break;
    case SOC_EV_BDISC:
        h->bdisc[ev->b - SOC_B0]++;
        break;
    case SOC_EV_BLOOK:
        if (*deliv >= st->p.ndeliv || h->bn < ev->b)
            return rpl__err(err, RPL_E_STATE, line, "delivery %u has no record",
                            *deliv + 1u);
        for (unsigned i = 0; i < ev->b; i++)
            list[i] = (uint8_t)btop(h, i);
        rpl__soc_fmt_cards(value, sizeof(value), list, ev->b);
        top_label(label, sizeof(label), *deliv, ev->a);
        rc = commit_check(env, seed, label, value, st->dv[*deliv].commit, line,
                          err);
        (*deliv)++;
        break;
    case SOC_EV_BORDER: {
        const struct soc_choice *ch = &st->ch[*choice];
        uint8_t have[SOC_NCARDS] = {0};

        if (*choice >= st->p.nchoice || !ch->known)
            return rpl__err(err, RPL_E_STATE, line,
                            "the value of secret choice %u is not known",
                            *choice + 1u);
        (*choice)++;
        if (ch->n > h->bn)
            return rpl__err(err, RPL_E_RULES, line,
                            "order names %u cards, the deck has %u", ch->n,
                            h->bn);
        for (unsigned i = 0; i < ch->n; i++)
            have[btop(h, i)]++;
        for (unsigned i = 0; i < ch->n; i++) {
            if (!have[ch->v[i]])
                return rpl__err(err, RPL_E_RULES, line,
                                "order names %s, which is not among the "
                                "cards looked at",
                                rpl__soc_card[ch->v[i]].tok);
            have[ch->v[i]]--;
        }
        for (unsigned i = 0; i < ch->n; i++)
            h->bpile[(h->bhead + i) % SOC_NBLACK] = ch->v[i];
        break;
    }
    case SOC_EV_RESHUFFLE:
        reshuffle(h, seed);
        break;
    case SOC_EV_ROLL: {
        const unsigned v = 1u + rpl__stream_uniform(&st->r.d8, SOC_D8);

        if (v != ev->b)
            return rpl__err(err, RPL_E_RULES, line,
                            "the d8 gives %u (stream d8), got %u", v, ev->b);
        break;
    }
    case SOC_EV_LOYAL:
        if ((h->loyalty[ev->a] == SOC_TRAITOR) != (ev->b != 0))
            return rpl__err(err, RPL_E_RULES, line, "p%u is %s", ev->a,
                            h->loyalty[ev->a] == SOC_TRAITOR ? "the traitor"
                                                             : "loyal");
        break;
    case SOC_EV_NOTRAITOR:
        if (h->traitor)
            return rpl__err(err, RPL_E_RULES, line,
                            "p%u holds the traitor card", h->traitor);
        break;
    case SOC_EV_REDEAL: {
        uint8_t to[SOC_MAX_SEATS];
        unsigned m = 0;

        rpl__soc_redeal(seed, st->p.poolers, to, &m);
        if (ev->a >= m || to[ev->a] != ev->b)
            return rpl__err(err, RPL_E_RULES, line,
                            "the pool's random sharing gives pooled card %u "
                            "to p%u (stream pool), got p%u",
                            ev->a + 1u, ev->a < m ? to[ev->a] : 0u, ev->b);
        break;
    }
    case SOC_EV_WHOLD:
        if (h->hand[ev->a][ev->b] < ev->c)
            return rpl__err(err, RPL_E_RULES, line, "p%u does not hold %u %s",
                            ev->a, ev->c, rpl__soc_card[ev->b].tok);
        break;
    default:
        return rpl__err(err, RPL_E_STATE, line, "unknown event %u", ev->kind);
    }
    sodium_memzero(list, sizeof(list));
    sodium_memzero(value, sizeof(value));
    return rc;
}

enum rpl_status
rpl__soc_check_journal(struct soc_state *st, const struct rpl__env *env,
                       struct rpl_error *err)
{
    unsigned d = 0;
    unsigned c = 0;
    enum rpl_status rc = RPL_OK;

    rpl__soc_derive(&st->h, &st->r, st->p.n, st->p.traitor_on, env->seed);
    for (unsigned i = 0; rc == RPL_OK && i < st->p.nev; i++)
        rc = rpl__soc_hid_step(st, &st->ev[i], env, env->seed, &d, &c, err);
    if (rc == RPL_OK) {
        st->p.hdeliv = (uint16_t)d;
        st->p.hchoice = (uint16_t)c;
        st->p.is_checked = 1;
    }
    return rc;
}
