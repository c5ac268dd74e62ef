/*
 * index.c - Avalon's rows of the archive (schema/archive.sql): the
 * proposals and quests played, the uses of the Lady of the Lake and the
 * assassination from the public state, and once the log is complete the
 * roles, the quest cards and the Lady's answers from the revealed state.
 * Everything is read from struct av_state after the last line; the
 * archive's row() binds the cells.
 */
#include <stdio.h>

#include "avalon.h"

static const char *const role_tok[AV_NROLES] = {
    "merlin",  "percival", "servant", "assassin",
    "morgana", "mordred",  "oberon",  "minion",
};

static const char *
result_tok(unsigned v)
{
    return v == AV_SUCCESS ? "success" : v == AV_FAIL ? "fail" : NULL;
}

static const char *
side_tok(unsigned side)
{
    return side == AV_GOOD ? "good" : side == AV_EVIL ? "evil" : NULL;
}

/* A team as the log writes it: "p1,p3,p5", ascending. */
static void
team_text(uint16_t team, char *out, size_t cap)
{
    size_t len = 0;

    out[0] = '\0';
    for (unsigned k = 1; k <= AV_MAX_SEATS; k++) {
        int n;

        if (!(team & bit(k)))
            continue;
        n = snprintf(out + len, cap - len, "%sp%u", len ? "," : "", k);
        if (n < 0 || (size_t)n >= cap - len)
            return;
        len += (size_t)n;
    }
}

/* The proposal in force at line: the last one before it, or NULL. */
static const struct av_prop *
prop_before(const struct av_state *s, uint32_t line)
{
    const struct av_prop *last = NULL;

    for (unsigned i = 0; i < s->nprops && i < AV_MAX_PROPS; i++)
        if (s->prop[i].line < line)
            last = &s->prop[i];
    return last;
}

/* Quests that ended before line (line 0: all of them). */
static unsigned
quests_before(const struct av_state *s, uint32_t line)
{
    unsigned n = 0;

    for (unsigned r = 1; r <= 5; r++)
        if (s->quest[r].line && (!line || s->quest[r].line < line))
            n++;
    return n;
}

static enum rpl_status
write_quests(const struct av_state *s, struct rpl__rows *rows,
             struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;
    unsigned round = 0;

    for (unsigned r = 1; rc == RPL_OK && r <= 5; r++) {
        const struct av_quest *q = &s->quest[r];
        const struct av_prop *p;
        char team[4 * AV_MAX_SEATS];
        struct rpl__cell c[6];

        if (!q->line)
            continue;
        p = prop_before(s, q->line);
        team_text(p ? p->team : 0, team, sizeof(team));
        c[0] = rpl__cell_int(++round);
        c[1] = rpl__cell_int(q->slot);
        c[2] = rpl__cell_int(p ? p->leader : 0);
        c[3] = rpl__cell_text(team);
        c[4] = rpl__cell_text(result_tok(q->result));
        c[5] = rpl__cell_int(q->fails);
        rc = rows->row(rows->a, "quest", c, 6, err);
    }
    return rc;
}

static enum rpl_status
write_ladies(const struct av_state *s, bool is_revealed, struct rpl__rows *rows,
             struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    for (unsigned i = 0; rc == RPL_OK && i < s->nladies && i < AV_MAX_LADY;
         i++) {
        const struct av_lady *l = &s->lady[i];
        struct rpl__cell c[4];

        c[0] = rpl__cell_int(quests_before(s, l->line));
        c[1] = rpl__cell_int(l->holder);
        c[2] = rpl__cell_int(l->target);
        c[3] = rpl__cell_text(is_revealed ? side_tok(l->side) : NULL);
        rc = rows->row(rows->a, "lady", c, 4, err);
    }
    return rc;
}

/* The quest cards of every quest begun, once revealed. */
static enum rpl_status
write_cards(const struct av_state *s, struct rpl__rows *rows,
            struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    for (unsigned r = 1; rc == RPL_OK && r <= 5; r++) {
        if (!s->quest[r].slot)
            continue;
        for (unsigned i = 0; rc == RPL_OK && i < s->ncards; i++) {
            const struct av_card *card = &s->card[i];
            struct rpl__cell c[3];

            if (card->round != r || card->seat < 1 || card->seat > s->n)
                continue;
            c[0] = rpl__cell_int(r);
            c[1] = rpl__cell_int(card->seat);
            c[2] = rpl__cell_text(result_tok(card->value));
            rc = rows->row(rows->a, "card", c, 3, err);
        }
    }
    return rc;
}

enum rpl_status
rpl__av_index(void *ix, const void *st, const struct rpl__env *env,
              const struct rpl__line *ln, struct rpl__rows *rows,
              struct rpl_error *err)
{
    const struct av_state *s = st;
    const bool is_revealed = env->seed && s->knows;
    enum rpl_status rc;

    (void)ix;
    if (ln)
        return RPL_OK; /* the final state holds the whole game */
    rows->leader = s->leader1;
    rows->rounds = quests_before(s, 0);
    rows->proposals = s->nprops;
    for (unsigned k = 1; is_revealed && k <= s->n && k <= AV_MAX_SEATS; k++) {
        rows->role[k] = role_tok[s->role[k] % AV_NROLES];
        rows->side[k] = av_is_evil(s->role[k]) ? "evil" : "good";
    }
    rc = write_quests(s, rows, err);
    if (rc == RPL_OK && is_revealed)
        rc = write_cards(s, rows, err);
    if (rc == RPL_OK)
        rc = write_ladies(s, is_revealed, rows, err);
    if (rc == RPL_OK && s->assassinate_line) {
        struct rpl__cell c[3];

        c[0] = rpl__cell_int(s->assassin);
        c[1] = rpl__cell_int(s->target);
        c[2] = s->reason == AV_R_ASSASSINATION ? rpl__cell_int(1)
               : s->reason == AV_R_MISSED      ? rpl__cell_int(0)
                                               : rpl__cell_null();
        rc = rows->row(rows->a, "assassination", c, 3, err);
    }
    return rc;
}

/* The filters' values: the roles index() writes, the two sides. */
const char *
rpl__av_filter_value(int column, size_t i)
{
    static const char *const sides[] = {"good", "evil"};

    if (column == RPL__COL_ROLE)
        return i < AV_NROLES ? role_tok[i] : NULL;
    if (column == RPL__COL_SIDE)
        return i < sizeof(sides) / sizeof(sides[0]) ? sides[i] : NULL;
    if (column == RPL__COL_VARIANT)
        return i < AV_NVARIANTS ? rpl__av_variant_name[i] : NULL;
    return NULL;
}

/* ------------------------------------------------------------ tables */

/* The tables index() writes (struct rpl__table, games/game.h): created
 * by version 1 of the archive's schema. */

static const struct rpl__cell result_values[] = {
    {RPL__CELL_TEXT, 0, "success"},
    {RPL__CELL_TEXT, 0, "fail"},
};
static const struct rpl__cell side_values[] = {
    {RPL__CELL_TEXT, 0, "good"},
    {RPL__CELL_TEXT, 0, "evil"},
};
static const struct rpl__cell hit_values[] = {
    {RPL__CELL_INT, 0, NULL},
    {RPL__CELL_INT, 1, NULL},
};

static const struct rpl__column quest_cols[] = {
    RPL__INT_NN("round", "1..5 in time order"),
    RPL__INT_NN("slot", "the board's quest space (= round without Targeting)"),
    RPL__INT_NN("leader", "who proposed the team that went"),
    RPL__TEXT_NN("team", "\"p1,p3,p5\""),
    {"result", RPL__CELL_TEXT, true, result_values, RPL__NCOLS(result_values),
     "\"success\" or \"fail\""},
    RPL__INT_NN("fails", "Fail cards played (public)"),
};
static const struct rpl__column card_cols[] = {
    RPL__INT_NN("round", "the quest's round"),
    RPL__INT_NN("seat", "who played the card"),
    {"card", RPL__CELL_TEXT, true, result_values, RPL__NCOLS(result_values),
     "\"success\" or \"fail\""},
};
static const struct rpl__column lady_cols[] = {
    RPL__INT_NN("round", "the round whose quest had just ended"),
    RPL__INT_NN("holder", "who held the Lady"),
    RPL__INT_NN("target", "whose loyalty she looked at"),
    {"result", RPL__CELL_TEXT, false, side_values, RPL__NCOLS(side_values),
     "\"good\" or \"evil\"; NULL until revealed"},
};
static const struct rpl__column assassination_cols[] = {
    RPL__INT_NN("assassin", "who named the target"),
    RPL__INT_NN("target", "the seat named"),
    {"hit", RPL__CELL_INT, false, hit_values, RPL__NCOLS(hit_values),
     "1: the target was Merlin; NULL until the `end` line says"},
};

static const char *const round_key[] = {"round", NULL};
static const char *const card_key[] = {"round", "seat", NULL};

const struct rpl__table rpl__av_tables[AV_NTABLES] = {
    {"quest", "One row per quest played, in time order.", 1, 0, quest_cols,
     RPL__NCOLS(quest_cols), round_key, NULL},
    {"card",
     "One row per quest card, known once opened: who failed which quest.", 1, 0,
     card_cols, RPL__NCOLS(card_cols), card_key, NULL},
    {"lady", "One row per use of the Lady of the Lake.", 1, 0, lady_cols,
     RPL__NCOLS(lady_cols), round_key, NULL},
    {"assassination", "The assassination, when the game came to it.", 1, 0,
     assassination_cols, RPL__NCOLS(assassination_cols), NULL, NULL},
};
