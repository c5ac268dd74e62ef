/*
 * index.c - the rows of a game of Shadows over Camelot in the archive
 * (schema/archive.sql): every quest that ended, the accusations and what
 * the accused showed, the traitor and how he came out, the deaths, the
 * knights and their loyalty, and the board where the log ends.
 *
 * The state keeps no history of quests or accusations, so the events of
 * each line are read from the command the module's own parser makes of
 * it (rpl__soc_parse, as the JSON events are); the rest comes from the
 * state: the knights and the board from the public half, the loyalty
 * cards and the traitor from the hidden half once the log is complete.
 */
#include <sodium.h>

#include "soc.h"

#define LOYAL   1
#define TRAITOR 2

static void
set_loyalty(struct soc_ix *x, unsigned k, bool is_traitor)
{
    if (k >= 1 && k <= SOC_MAX_SEATS)
        x->loyalty[k] = is_traitor ? TRAITOR : LOYAL;
}

/* One game line, st the state after it. */
static enum rpl_status
index_line(struct soc_ix *x, const struct soc_state *s,
           const struct rpl__line *ln, struct rpl__rows *rows,
           struct rpl_error *err)
{
    const uint8_t prev = x->prev;
    struct soc_cmd c;
    enum rpl_status rc;

    rc = rpl__soc_parse(&s->p, ln, &c, err);
    if (rc != RPL_OK)
        return rc;
    x->prev = (uint8_t)(c.kw + 1);
    switch (c.kw) {
    case SOC_K_START:
        x->leader = c.seat;
        x->has_start = true;
        break;
    case SOC_K_QUEST: {
        struct rpl__cell cell[6];
        const bool is_won = c.opt == SOC_O_WON;

        if (is_won)
            x->won++;
        else
            x->lost++;
        cell[0] = rpl__cell_int(++x->nquests);
        cell[1] = rpl__cell_int((int64_t)ln->no);
        cell[2] = rpl__cell_text(rpl__soc_quest[c.loc % SOC_NLOC].tok);
        cell[3] = rpl__cell_text(is_won ? "won" : "lost");
        cell[4] = rpl__cell_int(c.num);
        cell[5] = c.num2 ? rpl__cell_int(c.num2) : rpl__cell_null();
        return rows->row(rows->a, "soc_quest", cell, 6, err);
    }
    case SOC_K_ACCUSE:
        x->acc_line = (uint32_t)ln->no;
        x->accuser = c.seat;
        x->accused = c.seat2;
        break;
    case SOC_K_SHOWS: {
        const bool is_traitor = c.opt == SOC_O_TRAITOR;

        set_loyalty(x, c.seat, is_traitor);
        if (prev == SOC_K_ACCUSE + 1 && x->acc_line) {
            struct rpl__cell cell[4];

            cell[0] = rpl__cell_int(x->acc_line);
            cell[1] = rpl__cell_int(x->accuser);
            cell[2] = rpl__cell_int(x->accused);
            cell[3] = rpl__cell_text(is_traitor ? "traitor" : "loyal");
            rc = rows->row(rows->a, "soc_accusation", cell, 4, err);
        }
        if (is_traitor) {
            x->traitor = c.seat;
            x->revealed_line = (uint32_t)ln->no;
            x->revealed = prev == SOC_K_ACCUSE + 1    ? "accusation"
                          : prev == SOC_K_SPECIAL + 1 ? "fate"
                                                      : "last";
        }
        return rc;
    }
    case SOC_K_FLIP:
        if (!c.seat) {
            x->traitor = 0;
        } else {
            x->traitor = c.seat;
            x->revealed = "flip";
            x->revealed_line = (uint32_t)ln->no;
            set_loyalty(x, c.seat, true);
        }
        break;
    case SOC_K_DIES:
        if (c.seat >= 1 && c.seat <= SOC_MAX_SEATS)
            x->died[c.seat] = (uint32_t)ln->no;
        break;
    default:
        break;
    }
    return RPL_OK;
}

/* After the last line: what the reveal adds, then the rows that
 * describe the whole game. */
static enum rpl_status
index_end(struct soc_ix *x, const struct soc_state *s,
          const struct rpl__env *env, struct rpl__rows *rows,
          struct rpl_error *err)
{
    const struct soc_pub *p = &s->p;
    const unsigned n = p->n <= SOC_MAX_SEATS ? p->n : SOC_MAX_SEATS;
    struct rpl__cell cell[8];
    struct soc_hid hid;
    struct soc_rng rng;
    const struct soc_hid *h = &s->h;
    enum rpl_status rc;

    /* A verifier's state does not keep the deal: the seed tells it. */
    if (env->seed && !p->knows) {
        rpl__soc_derive(&hid, &rng, p->n, p->traitor_on, env->seed);
        sodium_memzero(&rng, sizeof(rng));
        h = &hid;
    }
    if (env->seed) {
        x->traitor = h->traitor <= n ? h->traitor : 0;
        for (unsigned k = 1; k <= n; k++)
            set_loyalty(x, k, h->loyalty[k] == SOC_TRAITOR);
        if (x->traitor > 0 && !x->revealed)
            x->revealed = "never";
    }
    rows->leader = x->leader;
    rows->rounds = x->nquests;
    for (unsigned k = 1; k <= n; k++) {
        if (x->has_start)
            rows->role[k] =
                rpl__soc_knight[p->seat[k].knight % SOC_NKNIGHTS].tok;
        else if (env->seed)
            rows->role[k] = rpl__soc_knight[h->knight[k] % SOC_NKNIGHTS].tok;
        if (x->loyalty[k])
            rows->side[k] = x->loyalty[k] == TRAITOR ? "evil" : "good";
    }
    cell[0] = rpl__cell_int(p->swords_w);
    cell[1] = rpl__cell_int(p->swords_b);
    cell[2] = rpl__cell_int(p->siege);
    cell[3] = rpl__cell_int(x->won);
    cell[4] = rpl__cell_int(x->lost);
    cell[5] = x->traitor >= 0 ? rpl__cell_int(x->traitor) : rpl__cell_null();
    cell[6] = rpl__cell_text(x->traitor > 0 ? x->revealed : NULL);
    cell[7] = x->traitor > 0 && x->revealed_line
                  ? rpl__cell_int(x->revealed_line)
                  : rpl__cell_null();
    rc = rows->row(rows->a, "soc_game", cell, 8, err);
    for (unsigned k = 1; rc == RPL_OK && x->has_start && k <= n; k++) {
        cell[0] = rpl__cell_int(k);
        cell[1] = rpl__cell_text(
            rpl__soc_knight[p->seat[k].knight % SOC_NKNIGHTS].tok);
        cell[2] = rpl__cell_text(x->loyalty[k] == TRAITOR ? "traitor"
                                 : x->loyalty[k]          ? "loyal"
                                                          : NULL);
        cell[3] = x->died[k] ? rpl__cell_int(x->died[k]) : rpl__cell_null();
        rc = rows->row(rows->a, "soc_seat", cell, 4, err);
    }
    sodium_memzero(&hid, sizeof(hid));
    return rc;
}

enum rpl_status
rpl__soc_index(void *ix, const void *st, const struct rpl__env *env,
               const struct rpl__line *ln, struct rpl__rows *rows,
               struct rpl_error *err)
{
    struct soc_ix *x = ix;
    const struct soc_state *s = st;

    if (!x->is_begun) {
        /* With traitor=off every seat is loyal and nobody holds the
         * traitor card, publicly; else the traitor is unknown. */
        x->is_begun = true;
        x->traitor = -1;
        if (!s->p.traitor_on) {
            x->traitor = 0;
            for (unsigned k = 1; k <= s->p.n && k <= SOC_MAX_SEATS; k++)
                set_loyalty(x, k, false);
        }
    }
    if (ln)
        return index_line(x, s, ln, rows, err);
    return index_end(x, s, env, rows, err);
}

/* The filters' values: the knights (seat.role), the sides of seat.side
 * and the loyalty cards that name them. */
const char *
rpl__soc_filter_value(int column, size_t i)
{
    static const char *const sides[] = {"good", "evil", "loyal", "traitor"};

    if (column == RPL__COL_ROLE)
        return i < SOC_NKNIGHTS ? rpl__soc_knight[i].tok : NULL;
    if (column == RPL__COL_SIDE)
        return i < sizeof(sides) / sizeof(sides[0]) ? sides[i] : NULL;
    return NULL;
}

/* ------------------------------------------------------------ tables */

/* The tables index() writes (struct rpl__table, games/game.h): created
 * by version 2 of the archive's schema. */

#define TEXT(s)                                                                \
    {                                                                          \
        RPL__CELL_TEXT, 0, s                                                   \
    }

static const struct rpl__cell revealed_values[] = {
    TEXT("accusation"), TEXT("fate"), TEXT("last"), TEXT("flip"), TEXT("never"),
};
static const struct rpl__cell quest_values[] = {
    TEXT("black_knight"), TEXT("lancelot"), TEXT("dragon"), TEXT("excalibur"),
    TEXT("grail"),        TEXT("picts"),    TEXT("saxons"),
};
static const struct rpl__cell result_values[] = {TEXT("won"), TEXT("lost")};
static const struct rpl__cell loyalty_values[] = {TEXT("loyal"),
                                                  TEXT("traitor")};

static const struct rpl__column game_cols[] = {
    RPL__INT_NN("white", "white swords on the Round Table (after the flip, "
                         "when there was one)"),
    RPL__INT_NN("black", "black swords"),
    RPL__INT_NN("siege", "siege engines around Camelot"),
    RPL__INT_NN("won", "quests the knights won"),
    RPL__INT_NN("lost", "quests evil won"),
    {"traitor", RPL__CELL_INT, false, NULL, 0,
     "the seat dealt the traitor card; 0 when nobody was; NULL while "
     "unknown"},
    {"revealed", RPL__CELL_TEXT, false, revealed_values,
     RPL__NCOLS(revealed_values),
     "how the traitor came out: accused, played Fate, the last knight "
     "alive, at the flip, or never; NULL while unknown or for nobody"},
    {"revealed_line", RPL__CELL_INT, false, NULL, 0,
     "the `shows` or `flip` line that showed him; NULL for \"never\""},
};
static const struct rpl__column quest_cols[] = {
    RPL__INT_NN("n", "1.. in time order"),
    RPL__INT_NN("line", "the `quest` line"),
    {"quest", RPL__CELL_TEXT, true, quest_values, RPL__NCOLS(quest_values),
     "the place token"},
    {"result", RPL__CELL_TEXT, true, result_values, RPL__NCOLS(result_values),
     "for the knights"},
    RPL__INT_NN("swords", "laid: white when won, black when lost"),
    {"relic", RPL__CELL_INT, false, NULL, 0,
     "the seat that took the quest's relic"},
};
static const struct rpl__column accusation_cols[] = {
    RPL__INT_NN("line", "the `accuse` line"),
    RPL__INT_NN("accuser", "who accused"),
    RPL__INT_NN("accused", "whom"),
    {"shown", RPL__CELL_TEXT, true, loyalty_values, RPL__NCOLS(loyalty_values),
     "the `shows` line that answered it"},
};
static const struct rpl__column seat_cols[] = {
    RPL__INT_NN("seat", "1..players"),
    RPL__TEXT_NN("knight", "\"arthur\", \"galahad\", ... (`start`)"),
    {"loyalty", RPL__CELL_TEXT, false, loyalty_values,
     RPL__NCOLS(loyalty_values),
     "the loyalty card; NULL until shown, revealed, or every seat loyal "
     "with traitor=off"},
    {"died", RPL__CELL_INT, false, NULL, 0,
     "the `dies` line, NULL if he lived"},
};

static const char *const n_key[] = {"n", NULL};
static const char *const line_key[] = {"line", NULL};
static const char *const seat_key[] = {"seat", NULL};
static const char *const quest_result[] = {"quest", "result", NULL};
static const struct rpl__table_index quest_index[] = {
    {"soc_quest_result", quest_result},
    {NULL, NULL},
};

const struct rpl__table rpl__soc_tables[SOC_NTABLES] = {
    {"soc_game",
     "One row per game: the board where the log ends, and the "
     "traitor.",
     2, 0, game_cols, RPL__NCOLS(game_cols), NULL, NULL},
    {"soc_quest", "One row per quest that ended, in time order.", 2, 0,
     quest_cols, RPL__NCOLS(quest_cols), n_key, quest_index},
    {"soc_accusation",
     "One row per accusation: who accused whom, what the accused showed.", 2, 0,
     accusation_cols, RPL__NCOLS(accusation_cols), line_key, NULL},
    {"soc_seat", "One row per seat.", 2, 0, seat_cols, RPL__NCOLS(seat_cols),
     seat_key, NULL},
};
