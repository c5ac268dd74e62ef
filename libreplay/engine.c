/*
 * engine.c - the registry of game modules.  Adding a game is one line
 * here and one module implementing struct rpl__game (internal.h).
 */
#include <string.h>

#include "internal.h"

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
