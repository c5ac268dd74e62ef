/*
 * games/stats_text.c - what the games' statistics share in their text
 * form: reading the stats object back, the per-player table, whose
 * two sides each game names (good/evil, loyal/traitor), and the chart.
 */
#include <stdio.h>

#include "games/game.h"
#include "json.h"

uint64_t
rpl__stats_uint(const json_t *o, const char *key)
{
    const json_int_t v = json_integer_value(json_object_get(o, key));

    return v < 0 ? 0 : (uint64_t)v;
}

const char *
rpl__stats_text(const json_t *o, const char *key, char *buf, size_t cap)
{
    const char *s = json_string_value(json_object_get(o, key));

    (void)rpl_text_escape(s ? s : "", buf, cap);
    return buf;
}

void
rpl__stats_reasons_text(const json_t *o, struct rpl__buf *b)
{
    const json_t *a = json_object_get(o, "reasons"), *e;
    char p1[32], t1[512], t2[512];
    uint64_t ended = 0;
    size_t i;

    if (json_array_size(a) == 0)
        return;
    json_array_foreach(a, i, e) ended += rpl__stats_uint(e, "games");
    rpl__buf_puts(b, "\nend reasons:\n");
    json_array_foreach(a, i, e)
    {
        rpl__buf_printf(
            b, "  %-8s %-14s %6llu  %6s\n",
            rpl__stats_text(e, "winner", t1, sizeof(t1)),
            rpl__stats_text(e, "reason", t2, sizeof(t2)),
            (unsigned long long)rpl__stats_uint(e, "games"),
            rpl__percent(p1, sizeof(p1), rpl__stats_uint(e, "games"), ended));
    }
}

void
rpl__stats_records_text(const json_t *o, const char *side1, const char *side2,
                        struct rpl__buf *b)
{
    const json_t *a = json_object_get(o, "records"), *e;
    char p1[32], head1[48], head2[48], key[48], name[256];
    size_t i;

    if (json_array_size(a) > 0) {
        snprintf(head1, sizeof(head1), "%s w/g", side1);
        snprintf(head2, sizeof(head2), "%s w/g", side2);
        rpl__buf_puts(b, "\nplayers (wins over revealed games):\n");
        rpl__buf_printf(b, "  %-16s %6s %8s %5s %6s %6s %11s %11s\n", "name",
                        "games", "revealed", "wins", "losses", "win", head1,
                        head2);
        json_array_foreach(a, i, e)
        {
            char wg1[48], wg2[48];

            snprintf(key, sizeof(key), "%s_wins", side1);
            snprintf(wg1, sizeof(wg1), "%llu/%llu",
                     (unsigned long long)rpl__stats_uint(e, key),
                     (unsigned long long)rpl__stats_uint(e, side1));
            snprintf(key, sizeof(key), "%s_wins", side2);
            snprintf(wg2, sizeof(wg2), "%llu/%llu",
                     (unsigned long long)rpl__stats_uint(e, key),
                     (unsigned long long)rpl__stats_uint(e, side2));
            rpl__buf_printf(
                b, "  %-16s %6llu %8llu %5llu %6llu %6s %11s %11s\n",
                rpl__stats_text(e, "name", name, sizeof(name)),
                (unsigned long long)rpl__stats_uint(e, "games"),
                (unsigned long long)rpl__stats_uint(e, "revealed"),
                (unsigned long long)rpl__stats_uint(e, "wins"),
                (unsigned long long)rpl__stats_uint(e, "losses"),
                rpl__percent(p1, sizeof(p1), rpl__stats_uint(e, "wins"),
                             rpl__stats_uint(e, "wins") +
                                 rpl__stats_uint(e, "losses")),
                wg1, wg2);
        }
    }
    if (rpl__stats_uint(o, "records_total") > json_array_size(a))
        rpl__buf_printf(
            b, "  (%llu of %llu players shown)\n",
            (unsigned long long)json_array_size(a),
            (unsigned long long)rpl__stats_uint(o, "records_total"));
}

void
rpl__stats_chart(const struct rpl__stats *s, const char *title, const char *low,
                 const char *high)
{
    struct rpl__bar bar[RPL_MAX_SEATS + 1];
    struct rpl__chart c = {title, low, high, 0, bar};
    const json_t *e;
    size_t i;

    json_array_foreach(json_object_get(s->json, "by_players"), i, e)
    {
        struct rpl__bar *b = &bar[c.nbars];

        if (c.nbars == sizeof(bar) / sizeof(bar[0]))
            break;
        snprintf(b->label, sizeof(b->label), "%llu players",
                 (unsigned long long)rpl__stats_uint(e, "players"));
        snprintf(b->note, sizeof(b->note), "%llu games",
                 (unsigned long long)rpl__stats_uint(e, "games"));
        b->low = rpl__stats_uint(e, low);
        b->high = rpl__stats_uint(e, high);
        c.nbars++;
    }
    s->chart(s->a, &c);
}
