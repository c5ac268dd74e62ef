/*
 * games/registry.c - the registry of game modules.  It names no game
 * itself: the build generates games.h, an X-macro list RPL__GAME(name)
 * with one entry per folder of libreplay/games/ that has a module.c
 * defining `const struct rpl__game rpl__<folder>` (the Makefile's
 * GAMES).  Adding a game is adding its folder.  The test build compiles
 * this file a second time against $(B)/tests/games.h, which adds the
 * folders of tests/games/, so test-only games never reach the library.
 * It also holds the public door to the list (rpl_game_count(),
 * rpl_game_info(), rpl_game_rules()).
 */
#include <stdio.h>
#include <string.h>

#include "games.h"
#include "games/game.h"

#define RPL__GAME(g) extern const struct rpl__game rpl__##g;
RPL__GAMES
#undef RPL__GAME

static const struct rpl__game *const games[] = {
#define RPL__GAME(g) &rpl__##g,
    RPL__GAMES
#undef RPL__GAME
};

#define NGAMES (sizeof(games) / sizeof(games[0]))

const struct rpl__game *
rpl__game_find(const char *name, size_t len)
{
    for (size_t i = 0; i < NGAMES; i++)
        if (strlen(games[i]->name) == len &&
            memcmp(games[i]->name, name, len) == 0)
            return games[i];
    return NULL;
}

const struct rpl__game *
rpl__game_at(size_t i)
{
    return i < sizeof(games) / sizeof(games[0]) ? games[i] : NULL;
}

const struct rpl__importer *
rpl__importer_find(const char *format, const struct rpl__game **game)
{
    for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++) {
        const struct rpl__importer *const *imp =
            rpl__import_hooks(games[i])->importers;

        for (size_t j = 0; imp && imp[j]; j++)
            if (strcmp(imp[j]->format, format) == 0) {
                if (game)
                    *game = games[i];
                return imp[j];
            }
    }
    return NULL;
}

void
rpl__game_names(char *out, size_t cap, const char *last)
{
    size_t len = 0;

    out[0] = '\0';
    for (size_t i = 0; i < NGAMES && len < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 == NGAMES ? last : ", ";
        const int n =
            snprintf(out + len, cap - len, "%s%s", sep, games[i]->name);

        if (n < 0)
            break;
        len += (size_t)n;
    }
}

size_t
rpl_game_count(void)
{
    return NGAMES;
}

const struct rpl_game_info *
rpl_game_info(size_t i)
{
    return i < NGAMES ? games[i]->info : NULL;
}

enum rpl_status
rpl_game_rules(struct rpl_ctx *ctx, const char *game, size_t players,
               const char *roles, const char *options, char **out,
               struct rpl_error *err)
{
    const struct rpl__game *const g = rpl__game_find(game, strlen(game));
    struct rpl__buf b;
    enum rpl_status st;

    rpl__err_clear(err);
    *out = NULL;
    if (!g || !g->play->rules_line) {
        char names[64];

        rpl__game_names(names, sizeof(names), " or ");
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "unknown game \"%.32s\" (expected %s)", game, names);
    }
    rpl__buf_init(&b, ctx);
    st = g->play->rules_line(players, roles, options, &b, err);
    if (st == RPL_OK)
        st = rpl__buf_take(&b, out, err);
    rpl__buf_release(&b);
    return st;
}
