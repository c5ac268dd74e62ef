/*
 * avalon/info.c - what the Avalon module tells about itself without a
 * log: its entry in rpl_game_info() and the rules lines of
 * rpl_game_rules() (the basic game by default, roles put in the order
 * of the rules line).  The tables here are the module's: the role order
 * and the Good/Evil split of rules T1 (camelog-avalon(7)).
 */
#include <string.h>

#include "avalon.h"

const struct rpl_game_info rpl__avalon_info = {
    .name = "avalon",
    .title = "The Resistance: Avalon",
    .min_seats = AV_MIN_SEATS,
    .max_seats = AV_MAX_SEATS,
    /* A seat's actions and held submission: at most the Assassin's nine
     * targets ("assassinate p10 p9", 21 bytes each with quotes and
     * comma) or five proposal forms with Targeting, well under 512. */
    .state_pad = 512,
};

const char *const rpl__av_role_order[AV_NROLES] = {
    "merlin",  "percival", "servant", "assassin",
    "morgana", "mordred",  "oberon",  "minion",
};

const unsigned char rpl__av_sides[AV_MAX_SEATS - AV_MIN_SEATS + 1][2] = {
    {3, 2}, {4, 2}, {4, 3}, {5, 3}, {6, 3}, {6, 4},
};

/* The most roles a list may give; the rules check counts them. */
#define MAX_LIST 64

struct word {
    const char *p;
    size_t len;
    unsigned rank; /* index in rpl__av_role_order, AV_NROLES: unknown */
};

static unsigned
rank_of(const char *p, size_t len)
{
    for (unsigned r = 0; r < AV_NROLES; r++)
        if (strlen(rpl__av_role_order[r]) == len &&
            memcmp(rpl__av_role_order[r], p, len) == 0)
            return r;
    return AV_NROLES;
}

static enum rpl_status
add_roles(const char *roles, struct rpl__buf *out, struct rpl_error *err)
{
    struct word w[MAX_LIST];
    const char *list = roles;
    const char *p;
    size_t n = 0, len;

    while (rpl__list_next(&list, &p, &len)) {
        if (len == 0 || n == MAX_LIST)
            return rpl__err(err, RPL_E_ARG, 0, "bad role list '%s'", roles);
        /* Insertion keeps equal ranks (unknown roles) in their order. */
        const unsigned rank = rank_of(p, len);
        size_t i = n++;

        for (; i > 0 && w[i - 1].rank > rank; i--)
            w[i] = w[i - 1];
        w[i] = (struct word){p, len, rank};
    }
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            rpl__buf_add(out, ",", 1);
        rpl__buf_add(out, w[i].p, w[i].len);
    }
    return RPL_OK;
}

/* The basic game: Merlin and servants, the Assassin and minions. */
static enum rpl_status
add_default_roles(size_t players, struct rpl__buf *out, struct rpl_error *err)
{
    if (players < AV_MIN_SEATS || players > AV_MAX_SEATS)
        return rpl__err(err, RPL_E_ARG, 0, "Avalon needs %d to %d players",
                        AV_MIN_SEATS, AV_MAX_SEATS);

    const unsigned char *const side = rpl__av_sides[players - AV_MIN_SEATS];

    rpl__buf_puts(out, rpl__av_role_order[AV_MERLIN]);
    for (unsigned i = 1; i < side[0]; i++)
        rpl__buf_printf(out, ",%s", rpl__av_role_order[AV_SERVANT]);
    rpl__buf_printf(out, ",%s", rpl__av_role_order[AV_ASSASSIN]);
    for (unsigned i = 1; i < side[1]; i++)
        rpl__buf_printf(out, ",%s", rpl__av_role_order[AV_MINION]);
    return RPL_OK;
}

enum rpl_status
rpl__av_rules_line(size_t players, const char *roles, const char *options,
                   struct rpl__buf *out, struct rpl_error *err)
{
    const char *list = options && *options ? options : NULL;
    const char *p;
    size_t len;
    bool lady = false, targeting = false;
    enum rpl_status st;

    while (rpl__list_next(&list, &p, &len)) {
        if (len == 4 && memcmp(p, "lady", 4) == 0)
            lady = true;
        else if (len == 9 && memcmp(p, "targeting", 9) == 0)
            targeting = true;
        else
            return rpl__err(err, RPL_E_ARG, 0,
                            "Avalon has no option '%.*s' (lady, targeting)",
                            (int)(len < 64 ? len : 64), p);
    }
    rpl__buf_printf(out, "players=%zu roles=", players);
    st = roles ? add_roles(roles, out, err)
               : add_default_roles(players, out, err);
    if (st != RPL_OK)
        return st;
    rpl__buf_printf(out, " lady=%s targeting=%s", lady ? "on" : "off",
                    targeting ? "on" : "off");
    return RPL_OK;
}
