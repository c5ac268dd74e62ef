/*
 * module.c - Shadows over Camelot as a game module: the tables of
 * functions the log layer calls (struct rpl__game and its tables of
 * hooks, games/game.h) and the glue between the seeded players (players.c) and
 * the actions of the seats (rules.c).
 */
#include "soc.h"

/* A loyalty card a seat may be told: the traitor only when the rules
 * deal it (traitor=on). */
static enum rpl_status
soc_plausible(const void *st, const struct rpl__env *env, size_t seat,
              const char *label, const char *value, size_t line,
              struct rpl_error *err)
{
    const struct soc_state *s = st;

    (void)env;
    if (strncmp(label, "loyalty ", 8) != 0)
        return RPL_OK;
    if (strcmp(value, "loyal") != 0 && strcmp(value, "traitor") != 0)
        return rpl__err(err, RPL_E_FAIRNESS, line,
                        "p%zu is told the loyalty \"%s\": no such card", seat,
                        value);
    if (strcmp(value, "traitor") == 0 && !s->p.traitor_on)
        return rpl__err(err, RPL_E_FAIRNESS, line,
                        "p%zu is told it is the traitor, in a game without "
                        "one (traitor=off)",
                        seat);
    return RPL_OK;
}

static enum rpl_status
soc_bot(const void *st, const struct rpl__env *env, enum rpl_bot kind,
        struct rpl__stream *rng, struct rpl__emit *e, struct rpl_error *err)
{
    const struct soc_state *s = st;
    char act[256];
    enum rpl_status rc;

    if (!s->p.knows || rpl__soc_turn(s) == 0)
        return rpl__err(err, RPL_E_STATE, 0, "no seat is to act");
    rc = rpl__soc_bot(s, kind, rng, act, sizeof(act), err);
    if (rc != RPL_OK)
        return rc;
    return rpl__soc_action(st, env, act, e, err);
}

static const struct rpl__game_play soc_play = {
    .rules = rpl__soc_rules,
    .rules_line = rpl__soc_rules_line,
    .setup = rpl__soc_setup,
    .apply = rpl__soc_apply,
    .learn = rpl__soc_learn,
    .pending = rpl__soc_pending,
    .turn = rpl__soc_turn,
    .is_over = rpl__soc_is_over,
    .outcome = rpl__soc_outcome,
    .reveal = rpl__soc_reveal,
    .open = rpl__soc_open,
    .opens_left = rpl__soc_opens_left,
    .open_line = rpl__soc_open_line,
    .serialize = rpl__soc_serialize,
    .plausible = soc_plausible,
    .abort_line = "end aborted",
};

static const struct rpl__game_views soc_views = {
    .view = rpl__soc_view,
    .view_json = rpl__soc_view_json,
    .describe = rpl__soc_describe,
    .events_json = rpl__soc_events_json,
    .reveal_text = rpl__soc_reveal_text,
    .reveal_json = rpl__soc_reveal_json,
    .board = rpl__soc_board,
    .mark = rpl__soc_mark,
};

static const struct rpl__game_live soc_live = {
    .action = rpl__soc_action,
    .bot = soc_bot,
    .screen = rpl__soc_screen,
    .step_seats = rpl__soc_step_seats,
    .state_json = rpl__soc_state_json,
};

static const struct rpl__game_archive soc_archive = {
    .index_size = sizeof(struct soc_ix),
    .index = rpl__soc_index,
    .tables = rpl__soc_tables,
    .ntables = SOC_NTABLES,
    .filter_value = rpl__soc_filter_value,
    .side_of = rpl__soc_side_of,
    .stats = rpl__soc_stats,
    .audit = rpl__soc_audit,
    .naudit = SOC_NAUDIT,
};

static const struct rpl__game_coverage soc_coverage = {
    .cov = rpl__soc_cov,
    .ncov = SOC_NCOV,
    .cover = rpl__soc_cover,
    .corpus_rules = rpl__soc_corpus_rules,
};

const struct rpl__game rpl__soc = {
    .name = "soc",
    .state_size = sizeof(struct soc_state),
    .info = &rpl__soc_info,
    .play = &soc_play,
    .views = &soc_views,
    .live = &soc_live,
    .archive = &soc_archive,
    .coverage = &soc_coverage,
};
