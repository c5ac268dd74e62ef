/*
 * stats.c - the statistics of the games a filter selects, as one JSON
 * document (keys in camelog-archive(1)), all read in one transaction.
 */
#include <string.h>

#include "archive.h"

/* -------------------------------------------------------------- stats */

static void
json_str(struct rpl__buf *b, const char *s)
{
    rpl__buf_add(b, "\"", 1);
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\') {
            rpl__buf_add(b, "\\", 1);
            rpl__buf_add(b, s, 1);
        } else if (c < 0x20) {
            rpl__buf_printf(b, "\\u%04x", c);
        } else {
            rpl__buf_add(b, s, 1);
        }
    }
    rpl__buf_add(b, "\"", 1);
}

/* num / den as a decimal with four places, rounded half up; null when
 * den is 0.  Integers only: the text is the same everywhere. */
static void
json_rate(struct rpl__buf *b, uint64_t num, uint64_t den)
{
    uint64_t r;

    if (den == 0 || num > den) {
        rpl__buf_puts(b, "null");
        return;
    }
    r = (num * 10000u + den / 2u) / den;
    rpl__buf_printf(b, "%u.%04u", (unsigned)(r / 10000u),
                    (unsigned)(r % 10000u));
}

static uint64_t
col_u64(sqlite3_stmt *st, int i)
{
    const sqlite3_int64 v = sqlite3_column_int64(st, i);

    return v < 0 ? 0 : (uint64_t)v;
}

/* The statistics queries, after "WITH sel AS (SELECT g.gid FROM
 * main.game g WHERE <filter>". */
enum {
    Q_TOTALS,
    Q_REASONS,
    Q_PLAYERS,
    Q_ROLE_SETS,
    Q_ROLES,
    Q_RECORDS,
    /* Shadows over Camelot, the "soc" object. */
    Q_SOC_TOTALS,
    Q_SOC_ACCUSATIONS,
    Q_SOC_REASONS,
    Q_SOC_PLAYERS,
    Q_SOC_QUESTS,
    NQ
};

static const char *const stats_sql[NQ] = {
    ") SELECT count(*), coalesce(sum(g.progress = 'in_progress'), 0), "
    "coalesce(sum(g.progress = 'finished'), 0), "
    "coalesce(sum(g.progress = 'complete'), 0), "
    "coalesce(sum(g.imported), 0), coalesce(sum(g.winner IN ('good', "
    "'knights')), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), "
    "coalesce(sum(g.winner = 'aborted'), 0), "
    "coalesce(sum(g.reason IN ('assassination', 'missed')), 0), "
    "coalesce(sum(g.reason = 'assassination'), 0), "
    "coalesce(sum(g.reason IS NOT NULL), 0) "
    "FROM main.game g JOIN sel USING (gid)",

    ") SELECT g.winner, g.reason, count(*) FROM main.game g "
    "JOIN sel USING (gid) WHERE g.reason IS NOT NULL "
    "GROUP BY g.winner, g.reason ORDER BY count(*) DESC, g.winner, g.reason",

    ") SELECT g.players, count(*), coalesce(sum(g.winner IN ('good', "
    "'knights')), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), "
    "coalesce(sum(g.reason IN ('assassination', 'missed')), 0), "
    "coalesce(sum(g.reason = 'assassination'), 0) "
    "FROM main.game g JOIN sel USING (gid) GROUP BY g.players "
    "ORDER BY g.players",

    ") SELECT r.value, g.players, count(*), "
    "coalesce(sum(g.winner IN ('good', 'knights')), 0), "
    "coalesce(sum(g.winner = 'evil'), 0) "
    "FROM main.game g JOIN sel USING (gid) "
    "JOIN main.rule r ON r.gid = g.gid AND r.key = 'roles' "
    "GROUP BY r.value, g.players ORDER BY g.players, count(*) DESC, r.value",

    ") SELECT s.role, count(*), coalesce(sum(s.won), 0), count(s.won) "
    "FROM main.seat_result s JOIN sel USING (gid) "
    "WHERE s.role IS NOT NULL GROUP BY s.role ORDER BY count(*) DESC, s.role",

    ") SELECT s.name, count(*), count(s.side), coalesce(sum(s.won), 0), "
    "count(s.won), coalesce(sum(s.side = 'good'), 0), "
    "coalesce(sum(s.side = 'good' AND s.won), 0), "
    "coalesce(sum(s.side = 'evil'), 0), "
    "coalesce(sum(s.side = 'evil' AND s.won), 0) "
    "FROM main.seat_result s JOIN sel USING (gid) "
    "GROUP BY s.name ORDER BY count(*) DESC, s.name",

    ") SELECT count(*), coalesce(sum(g.winner = 'knights'), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), "
    "coalesce(sum(g.winner = 'aborted'), 0), "
    "coalesce(sum(g.reason IS NOT NULL), 0), "
    "coalesce(sum(x.traitor > 0), 0), coalesce(sum(x.traitor = 0), 0), "
    "coalesce(sum(x.traitor IS NULL), 0), "
    "coalesce(sum(x.revealed = 'accusation'), 0), "
    "coalesce(sum(x.revealed = 'fate'), 0), "
    "coalesce(sum(x.revealed = 'last'), 0), "
    "coalesce(sum(x.revealed = 'flip'), 0), "
    "coalesce(sum(x.revealed = 'never'), 0) "
    "FROM main.game g JOIN sel USING (gid) "
    "JOIN main.soc_game x ON x.gid = g.gid",

    ") SELECT count(*), coalesce(sum(a.shown = 'traitor'), 0), "
    "coalesce(sum(a.shown = 'loyal'), 0) "
    "FROM main.soc_accusation a JOIN sel USING (gid)",

    ") SELECT g.winner, g.reason, count(*) FROM main.game g "
    "JOIN sel USING (gid) WHERE g.game = 'soc' AND g.reason IS NOT NULL "
    "GROUP BY g.winner, g.reason ORDER BY count(*) DESC, g.winner, g.reason",

    ") SELECT g.players, count(*), coalesce(sum(g.winner = 'knights'), 0), "
    "coalesce(sum(g.winner = 'evil'), 0), coalesce(sum(x.traitor > 0), 0) "
    "FROM main.game g JOIN sel USING (gid) "
    "JOIN main.soc_game x ON x.gid = g.gid GROUP BY g.players "
    "ORDER BY g.players",

    ") SELECT q.quest, coalesce(sum(q.result = 'won'), 0), "
    "coalesce(sum(q.result = 'lost'), 0) "
    "FROM main.soc_quest q JOIN sel USING (gid) GROUP BY q.quest "
    "ORDER BY count(*) DESC, q.quest",
};

/* Appends the rows of one statistics query to b. */
static enum rpl_status
stats_rows(struct rpl_archive *ar, sqlite3_stmt *st, int q, struct rpl__buf *b,
           uint64_t ended, struct rpl_error *err)
{
    static const char *const array_key[NQ] = {
        "", "reasons", "by_players", "by_roles",   "roles",  "records",
        "", "",        "reasons",    "by_players", "quests",
    };
    const bool is_array = array_key[q][0] != '\0';
    bool first = true;
    int src;

    if (is_array)
        rpl__buf_printf(b, ",\"%s\":[", array_key[q]);
    while ((src = sqlite3_step(st)) == SQLITE_ROW) {
        if (is_array && !first)
            rpl__buf_add(b, ",", 1);
        first = false;
        switch (q) {
        case Q_TOTALS: {
            const uint64_t good = col_u64(st, 5), evil = col_u64(st, 6);
            const uint64_t tries = col_u64(st, 8), hits = col_u64(st, 9);

            rpl__buf_printf(
                b,
                "{\"games\":%llu,\"in_progress\":%llu,\"finished\":%llu,"
                "\"complete\":%llu,\"imported\":%llu,\"good\":%llu,"
                "\"evil\":%llu,\"aborted\":%llu,\"evil_rate\":",
                (unsigned long long)col_u64(st, 0),
                (unsigned long long)col_u64(st, 1),
                (unsigned long long)col_u64(st, 2),
                (unsigned long long)col_u64(st, 3),
                (unsigned long long)col_u64(st, 4), (unsigned long long)good,
                (unsigned long long)evil, (unsigned long long)col_u64(st, 7));
            json_rate(b, evil, good + evil);
            rpl__buf_printf(b,
                            ",\"assassinations\":%llu,\"hits\":%llu,"
                            "\"hit_rate\":",
                            (unsigned long long)tries,
                            (unsigned long long)hits);
            json_rate(b, hits, tries);
            break;
        }
        case Q_REASONS:
        case Q_SOC_REASONS: /* the same row for both games */
            rpl__buf_puts(b, "{\"winner\":");
            json_str(b, rpl__ar_col_text(st, 0));
            rpl__buf_puts(b, ",\"reason\":");
            json_str(b, rpl__ar_col_text(st, 1));
            rpl__buf_printf(b, ",\"games\":%llu,\"share\":",
                            (unsigned long long)col_u64(st, 2));
            json_rate(b, col_u64(st, 2), ended);
            rpl__buf_add(b, "}", 1);
            break;
        case Q_PLAYERS:
            rpl__buf_printf(b,
                            "{\"players\":%llu,\"games\":%llu,\"good\":%llu,"
                            "\"evil\":%llu,\"evil_rate\":",
                            (unsigned long long)col_u64(st, 0),
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2),
                            (unsigned long long)col_u64(st, 3));
            json_rate(b, col_u64(st, 3), col_u64(st, 2) + col_u64(st, 3));
            rpl__buf_printf(b,
                            ",\"assassinations\":%llu,\"hits\":%llu,"
                            "\"hit_rate\":",
                            (unsigned long long)col_u64(st, 4),
                            (unsigned long long)col_u64(st, 5));
            json_rate(b, col_u64(st, 5), col_u64(st, 4));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_ROLE_SETS:
            rpl__buf_puts(b, "{\"roles\":");
            json_str(b, rpl__ar_col_text(st, 0));
            rpl__buf_printf(b,
                            ",\"players\":%llu,\"games\":%llu,\"good\":%llu,"
                            "\"evil\":%llu,\"evil_rate\":",
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2),
                            (unsigned long long)col_u64(st, 3),
                            (unsigned long long)col_u64(st, 4));
            json_rate(b, col_u64(st, 4), col_u64(st, 3) + col_u64(st, 4));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_ROLES:
            rpl__buf_puts(b, "{\"role\":");
            json_str(b, rpl__ar_col_text(st, 0));
            rpl__buf_printf(b, ",\"seats\":%llu,\"wins\":%llu,\"win_rate\":",
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2));
            json_rate(b, col_u64(st, 2), col_u64(st, 3));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_RECORDS: {
            const uint64_t wins = col_u64(st, 3), decided = col_u64(st, 4);

            rpl__buf_puts(b, "{\"name\":");
            json_str(b, rpl__ar_col_text(st, 0));
            rpl__buf_printf(b,
                            ",\"games\":%llu,\"revealed\":%llu,\"wins\":%llu,"
                            "\"losses\":%llu,\"win_rate\":",
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2),
                            (unsigned long long)wins,
                            (unsigned long long)(decided - wins));
            json_rate(b, wins, decided);
            rpl__buf_printf(b,
                            ",\"good\":%llu,\"good_wins\":%llu,"
                            "\"evil\":%llu,\"evil_wins\":%llu}",
                            (unsigned long long)col_u64(st, 5),
                            (unsigned long long)col_u64(st, 6),
                            (unsigned long long)col_u64(st, 7),
                            (unsigned long long)col_u64(st, 8));
            break;
        }
        case Q_SOC_TOTALS: {
            const uint64_t knights = col_u64(st, 1), evil = col_u64(st, 2);

            rpl__buf_printf(
                b,
                ",\"soc\":{\"games\":%llu,\"knights\":%llu,"
                "\"evil\":%llu,\"aborted\":%llu,"
                "\"knights_rate\":",
                (unsigned long long)col_u64(st, 0), (unsigned long long)knights,
                (unsigned long long)evil, (unsigned long long)col_u64(st, 3));
            json_rate(b, knights, knights + evil);
            rpl__buf_printf(
                b,
                ",\"traitor\":{\"dealt\":%llu,\"none\":%llu,"
                "\"unknown\":%llu,\"accusation\":%llu,\"fate\":%llu,"
                "\"last\":%llu,\"flip\":%llu,\"never\":%llu}",
                (unsigned long long)col_u64(st, 5),
                (unsigned long long)col_u64(st, 6),
                (unsigned long long)col_u64(st, 7),
                (unsigned long long)col_u64(st, 8),
                (unsigned long long)col_u64(st, 9),
                (unsigned long long)col_u64(st, 10),
                (unsigned long long)col_u64(st, 11),
                (unsigned long long)col_u64(st, 12));
            break;
        }
        case Q_SOC_ACCUSATIONS:
            rpl__buf_printf(b,
                            ",\"accusations\":{\"made\":%llu,\"right\":%llu,"
                            "\"wrong\":%llu,\"right_rate\":",
                            (unsigned long long)col_u64(st, 0),
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2));
            json_rate(b, col_u64(st, 1), col_u64(st, 0));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_SOC_PLAYERS:
            rpl__buf_printf(b,
                            "{\"players\":%llu,\"games\":%llu,"
                            "\"knights\":%llu,\"evil\":%llu,"
                            "\"traitor_dealt\":%llu,\"knights_rate\":",
                            (unsigned long long)col_u64(st, 0),
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2),
                            (unsigned long long)col_u64(st, 3),
                            (unsigned long long)col_u64(st, 4));
            json_rate(b, col_u64(st, 2), col_u64(st, 2) + col_u64(st, 3));
            rpl__buf_add(b, "}", 1);
            break;
        case Q_SOC_QUESTS:
            rpl__buf_puts(b, "{\"quest\":");
            json_str(b, rpl__ar_col_text(st, 0));
            rpl__buf_printf(b, ",\"won\":%llu,\"lost\":%llu,\"won_rate\":",
                            (unsigned long long)col_u64(st, 1),
                            (unsigned long long)col_u64(st, 2));
            json_rate(b, col_u64(st, 1), col_u64(st, 1) + col_u64(st, 2));
            rpl__buf_add(b, "}", 1);
            break;
        default:
            break;
        }
    }
    if (is_array)
        rpl__buf_add(b, "]", 1);
    if (q == Q_SOC_QUESTS)
        rpl__buf_add(b, "}", 1); /* the end of "soc" */
    if (src != SQLITE_DONE)
        return rpl__ar_fail(ar, err, src, "cannot compute the statistics");
    return RPL_OK;
}

enum rpl_status
rpl_archive_stats(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  char **json, struct rpl_error *err)
{
    static const char head[] = "WITH sel AS (SELECT g.gid FROM main.game g";
    struct rpl__buf b;
    sqlite3_stmt *st = NULL;
    uint64_t ended = 0;
    enum rpl_status rc;

    rpl__err_clear(err);
    *json = NULL;
    rc = rpl__ar_filter_check(f, err);
    if (rc != RPL_OK)
        return rc;
    rpl__buf_init(&b, ar->ctx);
    /* One read transaction: every figure counts the same games. */
    rc = ar->in_batch
             ? RPL_OK
             : rpl__ar_exec(ar, "BEGIN", "cannot read the archive", err);
    for (int q = 0; rc == RPL_OK && q < NQ; q++) {
        rc = rpl__ar_prepare_filtered(ar, head, f, stats_sql[q], &st, err);
        if (rc != RPL_OK)
            break;
        if (q == Q_TOTALS || q == Q_SOC_TOTALS) {
            /* The reasons' shares need the count of ended games first. */
            if (sqlite3_step(st) == SQLITE_ROW)
                ended = col_u64(st, q == Q_TOTALS ? 10 : 4);
            sqlite3_reset(st);
        }
        rc = stats_rows(ar, st, q, &b, ended, err);
        sqlite3_finalize(st);
        st = NULL;
    }
    if (!ar->in_batch)
        sqlite3_exec(ar->db, "COMMIT", NULL, NULL, NULL);
    rpl__buf_add(&b, "}", 1);
    if (rc != RPL_OK) {
        rpl__buf_release(&b);
        return rc;
    }
    return rpl__buf_take(&b, json, err);
}
