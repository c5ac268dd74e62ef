/*
 * games/registry.c - the registry of game modules, the only file outside
 * a game's folder that names the games.  Adding a game is one line here
 * and one folder implementing struct rpl__game (games/game.h).
 */
#include <string.h>

#include "games/game.h"

extern const struct rpl__game rpl__avalon;
extern const struct rpl__game rpl__soc;

static const struct rpl__game *const games[] = {
    &rpl__avalon,
    &rpl__soc,
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

const struct rpl__game *
rpl__game_at(size_t i)
{
    return i < sizeof(games) / sizeof(games[0]) ? games[i] : NULL;
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
