/*
 * filter.c - the values a filter may name: the games of the registry,
 * and the roles, sides and variants each game's index writes (struct
 * rpl__game_archive, filter_value).  The list is the games', never a
 * copy here or in the tool, so a new game or role is a filter value as
 * soon as it exists.
 */
#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "games/game.h"

/* Whether game g (every game when NULL) knows value in column. */
static bool
knows(const struct rpl__game *g, int column, const char *value)
{
    for (size_t k = 0; g ? k == 0 : rpl__game_at(k) ? true : false; k++) {
        const struct rpl__game_archive *ar =
            rpl__archive_hooks(g ? g : rpl__game_at(k));

        for (size_t i = 0; ar->filter_value; i++) {
            const char *v = ar->filter_value(column, i);

            if (!v)
                break;
            if (strcmp(v, value) == 0)
                return true;
        }
    }
    return false;
}

/* The values of column for the message: "a, b, ..." (each
 * once, cut at cap). */
static void
values(const struct rpl__game *g, int column, char *out, size_t cap)
{
    size_t n = 0;

    out[0] = '\0';
    for (size_t k = 0; g ? k == 0 : rpl__game_at(k) ? true : false; k++) {
        const struct rpl__game_archive *ar =
            rpl__archive_hooks(g ? g : rpl__game_at(k));

        for (size_t i = 0; ar->filter_value; i++) {
            const char *v = ar->filter_value(column, i);
            bool is_seen = false;
            int w;

            if (!v)
                break;
            /* Once each: the sides of two games are the same words. */
            for (size_t j = 0; j < k && !is_seen; j++)
                is_seen = knows(rpl__game_at(j), column, v);
            for (size_t j = 0; j < i && !is_seen; j++)
                is_seen = strcmp(ar->filter_value(column, j), v) == 0;
            if (is_seen)
                continue;
            w = snprintf(out + n, cap - n, "%s%s", n ? ", " : "", v);
            if (w < 0 || (size_t)w >= cap - n)
                return;
            n += (size_t)w;
        }
    }
    if (n == 0)
        snprintf(out, cap, "%s has none", g ? g->name : "no game");
}

enum rpl_status
rpl__ar_filter_values(const struct rpl_archive_filter *f, struct rpl_error *err)
{
    const struct rpl__game *g = NULL;
    char list[160];

    rpl__err_clear(err);
    if (!f)
        return RPL_OK;
    if (f->game) {
        g = rpl__game_find(f->game, strlen(f->game));
        if (!g) {
            size_t n = 0;

            list[0] = '\0';
            for (size_t k = 0; rpl__game_at(k) && n < sizeof(list); k++) {
                const int w = snprintf(list + n, sizeof(list) - n, "%s%s",
                                       k ? ", " : "", rpl__game_at(k)->name);

                if (w < 0)
                    break;
                n += (size_t)w;
            }
            return rpl__err(err, RPL_E_ARG, 0,
                            "game: unknown game \"%.40s\" (%s)", f->game, list);
        }
    }
    if (f->role && !knows(g, RPL__COL_ROLE, f->role)) {
        values(g, RPL__COL_ROLE, list, sizeof(list));
        return rpl__err(err, RPL_E_ARG, 0, "role: unknown role \"%.40s\" (%s)",
                        f->role, list);
    }
    if (f->side && !knows(g, RPL__COL_SIDE, f->side)) {
        values(g, RPL__COL_SIDE, list, sizeof(list));
        return rpl__err(err, RPL_E_ARG, 0, "side: unknown side \"%.40s\" (%s)",
                        f->side, list);
    }
    for (size_t i = 0; f->variants && i < f->nvariants; i++) {
        if (f->variants[i] && knows(g, RPL__COL_VARIANT, f->variants[i]))
            continue;
        values(g, RPL__COL_VARIANT, list, sizeof(list));
        return rpl__err(err, RPL_E_ARG, 0,
                        "variant: unknown variant \"%.40s\" (%s)",
                        f->variants[i] ? f->variants[i] : "", list);
    }
    return RPL_OK;
}
