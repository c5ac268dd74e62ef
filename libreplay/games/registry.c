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
