/*
 * soc/info.c - what the Shadows over Camelot module tells about itself
 * without a log: its entry in rpl_game_info() and the rules lines of
 * rpl_game_rules().  The default is the game with the traitor, and for 3
 * seats the 3-player variant (brave=on, camelog-soc(7)), each knight
 * writing his own decisions (own=on); any other line
 * is written whole (simulate --rules).
 */
#include "soc.h"

const struct rpl_game_info rpl__soc_info = {
    .name = "soc",
    .title = "Shadows over Camelot",
    .min_seats = SOC_MIN_SEATS,
    .max_seats = SOC_MAX_SEATS,
    /* A seat's actions (at most SOC_LIVE_ACTIONS, 64, of at most 255
     * bytes, quoted, comma), its loyalty and its hand (every white card
     * at most, 16 bytes each in the JSON), with room to spare. */
    .state_pad = 64 * 258 + SOC_NWHITE * 16 + 256,
};

enum rpl_status
rpl__soc_rules_line(size_t players, const char *roles, const char *options,
                    struct rpl__buf *out, struct rpl_error *err)
{
    const char *list = options && *options ? options : NULL;
    const char *p;
    size_t len;

    if (roles)
        return rpl__err(err, RPL_E_ARG, 0,
                        "Shadows over Camelot deals no roles to choose");
    if (rpl__list_next(&list, &p, &len))
        return rpl__err(err, RPL_E_ARG, 0,
                        "Shadows over Camelot has no option '%.*s'",
                        (int)(len < 64 ? len : 64), p);
    rpl__buf_printf(out, "players=%zu traitor=on brave=%s own=on", players,
                    players == 3 ? "on" : "off");
    return RPL_OK;
}
