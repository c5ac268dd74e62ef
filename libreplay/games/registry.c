/*
 * games/registry.c - the registry of game modules.  It names no game
 * itself: the build generates games.h, an X-macro list RPL__GAME(name)
 * with one entry per folder of libreplay/games/ that has a module.c
 * defining `const struct rpl__game rpl__<folder>` (the Makefile's
 * GAMES).  Adding a game is adding its folder.  The test build compiles
 * this file a second time against $(B)/tests/games.h, which adds the
 * folders of tests/games/, so test-only games never reach the library.
 */
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

const struct rpl__game *
rpl__game_find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++)
        if (strlen(games[i]->name) == len &&
            memcmp(games[i]->name, name, len) == 0)
            return games[i];
    return NULL;
}

const struct rpl__importer *
rpl__importer_find(const char *format, const struct rpl__game **game)
{
    for (size_t i = 0; i < sizeof(games) / sizeof(games[0]); i++)
        for (size_t j = 0; games[i]->importers && games[i]->importers[j]; j++)
            if (strcmp(games[i]->importers[j]->format, format) == 0) {
                if (game)
                    *game = games[i];
                return games[i]->importers[j];
            }
    return NULL;
}
