/*
 * known.c - what one seat knows of an Avalon game before its reveal:
 * its own deliveries (seat_learn: its deal, its quest cards, its Lady
 * results), kept beside the public state, and the role and night sight
 * the views show for that seat.
 *
 * Uses notation.c and rules.c (avalon.h gives the order); views.c and
 * module.c use it.
 */
#include <stdio.h>
#include <string.h>

#include "avalon.h"

bool
rpl__av_seat_knows(const struct av_state *s, int viewer)
{
    if (s->knows)
        return true;
    return viewer >= 1 && s->me && viewer == (int)s->me && s->me_dealt &&
           s->ndeals >= s->me;
}

unsigned
rpl__av_known_role(const struct av_state *s, unsigned k, uint16_t *seen)
{
    if (s->knows) {
        *seen = rpl__av_seen(s, k);
        return s->role[k];
    }
    *seen = s->me_sees;
    return s->me_role;
}

void
rpl__av_known_view(const struct av_state *s, unsigned k, char *out, size_t cap)
{
    uint16_t seen = 0;
    const unsigned role = rpl__av_known_role(s, k, &seen);
    char seats[4 * AV_MAX_SEATS];

    if (!seen) {
        snprintf(out, cap, "role=%s", rpl__av_role_name[role]);
        return;
    }
    rpl__av_fmt_mask(seats, sizeof(seats), seen);
    snprintf(out, cap, "role=%s sees=%s", rpl__av_role_name[role], seats);
}

/* A night view "role=merlin sees=p2,p4" read back: false unless it is
 * the canonical text of a role of the game and seats other than seat. */
static bool
parse_night(const struct av_state *s, unsigned seat, const char *value,
            unsigned *role, uint16_t *seen)
{
    const char *p = value;
    const char *end;
    char again[96];
    int r;

    if (strncmp(p, "role=", 5) != 0)
        return false;
    p += 5;
    end = strchr(p, ' ');
    r = rpl__av_role_index(p, end ? (size_t)(end - p) : strlen(p));
    if (r < 0 || s->count[r] == 0)
        return false;
    *role = (unsigned)r;
    *seen = 0;
    if (end) {
        p = end + 1;
        if (strncmp(p, "sees=", 5) != 0)
            return false;
        p += 5;
        while (*p) {
            const char *comma = strchr(p, ',');
            const struct rpl__tok t = {p,
                                       comma ? (size_t)(comma - p) : strlen(p)};
            size_t k = 0;

            if (!rpl__tok_seat(&t, s->n, &k) || k == seat)
                return false;
            *seen |= bit((unsigned)k);
            p += t.n;
            if (*p == ',')
                p++;
        }
    }
    /* Only the canonical spelling (seats ascending, once each). */
    if (!*seen)
        snprintf(again, sizeof(again), "role=%s", rpl__av_role_name[*role]);
    else {
        char seats[4 * AV_MAX_SEATS];

        rpl__av_fmt_mask(seats, sizeof(seats), *seen);
        snprintf(again, sizeof(again), "role=%s sees=%s",
                 rpl__av_role_name[*role], seats);
    }
    return strcmp(again, value) == 0;
}

enum rpl_status
rpl__av_seat_learn(void *st, size_t seat, const char *label, const char *value,
                   struct rpl_error *err)
{
    struct av_state *s = st;
    struct rpl__line ln;
    unsigned long r = 0;
    size_t k = 0, t = 0;
    unsigned role = 0;
    uint16_t seen = 0;

    if (s->phase == AV_PH_RULES)
        return rpl__err(err, RPL_E_STATE, 0, "learn before the rules line");
    if (seat < 1 || seat > s->n || (s->me && s->me != seat))
        return rpl__err(err, RPL_E_ARG, 0, "no seat p%zu to learn for", seat);
    if (rpl__line_split(&ln, label, strlen(label), 0, NULL) != RPL_OK)
        goto bad;
    if (rpl__tok_is(&ln.tok[0], "deal") && ln.ntok == 2 &&
        rpl__tok_seat(&ln.tok[1], s->n, &k) && k == seat) {
        if (!parse_night(s, (unsigned)seat, value, &role, &seen))
            return rpl__err(err, RPL_E_SYNTAX, 0,
                            "expected a night view \"role=ROLE "
                            "[sees=pA,...]\", got \"%.60s\"",
                            value);
        s->me = (uint8_t)seat;
        s->me_dealt = 1;
        s->me_role = (uint8_t)role;
        s->me_sees = seen;
        return RPL_OK;
    }
    if (rpl__tok_is(&ln.tok[0], "lady") && ln.ntok == 4 &&
        rpl__tok_uint(&ln.tok[1], 5, &r) && r != 0 &&
        rpl__tok_seat(&ln.tok[2], s->n, &k) && k == seat &&
        rpl__tok_seat(&ln.tok[3], s->n, &t) &&
        (strcmp(value, "good") == 0 || strcmp(value, "evil") == 0)) {
        s->me = (uint8_t)seat;
        s->me_lady[r] = strcmp(value, "good") == 0 ? AV_GOOD : AV_EVIL;
        return RPL_OK;
    }
    if (rpl__tok_is(&ln.tok[0], "card") && ln.ntok == 3 &&
        rpl__tok_seat(&ln.tok[2], s->n, &k) && k == seat) {
        enum rpl_status rc = rpl__av_learn(st, label, value, err);

        if (rc == RPL_OK)
            s->me = (uint8_t)seat;
        return rc;
    }
bad:
    return rpl__err(err, RPL_E_SYNTAX, 0,
                    "expected a delivery of p%zu (\"deal pK\", \"card R "
                    "pK\", \"lady R pK pT\"), got \"%.60s\"",
                    seat, label);
}
