/*
 * module.c - Avalon as a game module: the const struct rpl__game and its
 * tables of hooks (games/game.h), the only door into this folder, and
 * the thin glue their members need where the engine's functions do not
 * fit them as they are: the turn and the seeded players through the
 * rules, the end through the names, the imported deal.
 *
 * Last in the module's dependency order (avalon.h): it may use every
 * other file of the folder, and none of them uses it.
 */
#include "avalon.h"

static size_t
av_turn(const void *st)
{
    return rpl__av_turn(st);
}

static enum rpl_status
av_bot(const void *st, const struct rpl__env *env, enum rpl_bot kind,
       struct rpl__stream *rng, struct rpl__emit *e, struct rpl_error *err)
{
    const struct av_state *s = st;
    char act[128];
    enum rpl_status rc;

    if (!s->knows || av_turn(s) == 0)
        return rpl__err(err, RPL_E_STATE, 0, "no seat is to act");
    rc = rpl__av_bot(s, kind, rng, act, sizeof(act), err);
    if (rc != RPL_OK)
        return rc;
    return rpl__av_action(st, env, act, e, err);
}

static bool
av_is_over(const void *st)
{
    const struct av_state *s = st;

    return s->phase == AV_PH_OVER;
}

static void
av_outcome(const void *st, const char **winner, const char **reason)
{
    const struct av_state *s = st;

    *winner = "";
    *reason = "";
    if (s->phase == AV_PH_OVER && s->reason >= AV_R_QUESTS &&
        s->reason <= AV_R_ABORTED) {
        *winner = rpl__av_winner_name[s->reason];
        *reason = rpl__av_reason_name[s->reason];
    }
}

static enum rpl_status
av_import_deal(void *st, const struct rpl__env *env, const char *const *deal,
               size_t first, struct rpl_error *err)
{
    (void)env;
    return rpl__avalon_deal(st, deal, ((struct av_state *)st)->n, first, err);
}

static const struct rpl__game_play av_play = {
    .rules = rpl__av_rules,
    .variants = rpl__av_variants,
    .rules_line = rpl__av_rules_line,
    .setup = rpl__av_setup,
    .apply = rpl__av_apply,
    .learn = rpl__av_learn,
    .pending = rpl__av_pending,
    .turn = av_turn,
    .is_over = av_is_over,
    .outcome = av_outcome,
    .reveal = rpl__av_reveal,
    .open = rpl__av_open,
    .opens_left = rpl__av_opens_left,
    .open_line = rpl__av_open_line,
    .serialize = rpl__av_serialize,
    .plausible = rpl__av_plausible,
    .abort_line = "end aborted",
};

static const struct rpl__game_views av_views = {
    .view = rpl__av_view,
    .view_json = rpl__av_view_json,
    .describe = rpl__av_describe,
    .events_json = rpl__av_events_json,
    .reveal_text = rpl__av_reveal_text,
    .reveal_json = rpl__av_reveal_json,
    .board = rpl__av_board,
    .mark = rpl__av_mark,
    .describe_open = rpl__av_describe_open,
    .seat_learn = rpl__av_seat_learn,
};

static const struct rpl__game_live av_live = {
    .action = rpl__av_action,
    .bot = av_bot,
    .screen = rpl__av_screen,
    .step_seats = rpl__av_step_seats,
    .state_json = rpl__av_state_json,
};

static const struct rpl__game_archive av_archive = {
    .index = rpl__av_index,
    .tables = rpl__av_tables,
    .ntables = AV_NTABLES,
    .filter_value = rpl__av_filter_value,
    .stats = rpl__av_stats,
    .details_reads = rpl__av_details_reads,
    .ndetails_reads = AV_NDETAILS_READS,
    .details = rpl__av_details,
    .fact_groups = rpl__av_fact_groups,
    .audit = rpl__av_audit,
    .naudit = AV_NAUDIT,
};

static const struct rpl__game_coverage av_coverage = {
    .cov = rpl__av_cov,
    .ncov = AV_NCOV,
    .cover = rpl__av_cover,
    .corpus_rules = rpl__av_corpus_rules,
};

static const struct rpl__game_import av_import = {
    .importers = rpl__avalon_importers,
    .import_deal = av_import_deal,
};

const struct rpl__game rpl__avalon = {
    .name = "avalon",
    .state_size = sizeof(struct av_state),
    .info = &rpl__avalon_info,
    .play = &av_play,
    .views = &av_views,
    .live = &av_live,
    .archive = &av_archive,
    .coverage = &av_coverage,
    .import = &av_import,
};
