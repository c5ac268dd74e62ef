/*
 * stats.c - the statistics of the games a filter selects, as one JSON
 * document (keys in camelog-archive(1)), a text or an SVG chart, all read
 * in one transaction.
 *
 * The archive knows no game.  It counts the selected games by progress
 * from the common table, then lends each game of the registry its hook
 * (struct rpl__stats, games/game.h): the game counts its figures in C
 * from the rows of the selected games of that game alone, which the
 * archive scans for it one game at a time (rpl__ar_scan()), and writes
 * its own object of the JSON, its section of the text and its chart.
 * Games never share a figure: one game's sides are not another's.
 */
#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "games/game.h"
#include "json.h"

/* Geometry of a chart, in SVG user units (pixels); the charts of the
 * games stand one under the other. */
#define SVG_W      560
#define SVG_H      320
#define SVG_LEFT   56
#define SVG_RIGHT  16
#define SVG_TOP    40
#define SVG_BOTTOM 56
#define SVG_PLOT_H (SVG_H - SVG_TOP - SVG_BOTTOM)

/* The selected games, after "WITH sel(gid) AS (SELECT g.gid FROM
 * main.game g WHERE <filter>". */
static const char totals_sql[] =
    ") SELECT count(*), coalesce(sum(g.progress = 'in_progress'), 0), "
    "coalesce(sum(g.progress = 'finished'), 0), "
    "coalesce(sum(g.progress = 'complete'), 0), "
    "coalesce(sum(g.imported), 0), coalesce(sum(EXISTS (SELECT 1 FROM "
    "main.game_variant v WHERE v.gid = g.gid)), 0) "
    "FROM main.game g JOIN sel USING (gid)";
static const char head_sql[] =
    "WITH sel(gid) AS (SELECT g.gid FROM main.game g";

/* One statistics run: the handle, the filter, the output. */
struct run {
    struct rpl_archive *ar;
    const struct rpl_archive_filter *f;
    const struct rpl__game *game;
    /* The charts drawn so far (RPL__STATS_SVG). */
    size_t ncharts;
    struct rpl__buf svg;
};

static uint64_t
col_u64(struct rpl__st *st, int i)
{
    const int64_t v = rpl__st_int(st, i);

    return v < 0 ? 0 : (uint64_t)v;
}

/* The scan() of struct rpl__stats: the selected games of r->game, dealt
 * and imported alike. */
static enum rpl_status
stats_scan(void *a, const struct rpl__scan *sc, struct rpl_error *err)
{
    struct run *r = a;

    return rpl__ar_scan(r->ar, r->f, r->game->name, -1, sc, err);
}

/* Counts the games of a scan. */
static enum rpl_status
count_end(void *ud, struct rpl_error *err)
{
    (void)err;
    ++*(uint64_t *)ud;
    return RPL_OK;
}

/* Escapes text for SVG character data and attribute values. */
static void
svg_text(struct rpl__buf *b, const char *s)
{
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '&':
            rpl__buf_puts(b, "&amp;");
            break;
        case '<':
            rpl__buf_puts(b, "&lt;");
            break;
        case '>':
            rpl__buf_puts(b, "&gt;");
            break;
        case '"':
            rpl__buf_puts(b, "&quot;");
            break;
        default:
            rpl__buf_add(b, s, 1);
            break;
        }
    }
}

/* The chart() of struct rpl__stats: one stacked bar per kind of game,
 * the lower part's share at the bottom (red), the upper part's above it
 * (blue), over games with a winner. */
static void
draw_chart(void *a, const struct rpl__chart *c)
{
    struct run *r = a;
    struct rpl__buf *b = &r->svg;
    const int plot_w = SVG_W - SVG_LEFT - SVG_RIGHT;
    const int slot = c->nbars > 0 ? plot_w / (int)c->nbars : plot_w;
    const int bar = slot * 3 / 5 < 72 ? slot * 3 / 5 : 72;
    const int base = SVG_TOP + SVG_PLOT_H;

    rpl__buf_printf(b, "<g transform=\"translate(0,%zu)\">\n",
                    r->ncharts * SVG_H);
    r->ncharts++;
    rpl__buf_printf(b,
                    "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" "
                    "font-size=\"15\">",
                    SVG_W / 2);
    svg_text(b, c->title);
    rpl__buf_puts(b, "</text>\n");
    /* Grid and axis labels every 25 %. */
    for (int pct = 0; pct <= 100; pct += 25) {
        const int y = SVG_TOP + SVG_PLOT_H - SVG_PLOT_H * pct / 100;

        rpl__buf_printf(b,
                        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                        "stroke=\"#cccccc\" stroke-width=\"1\"%s/>\n",
                        SVG_LEFT, y, SVG_W - SVG_RIGHT, y,
                        pct == 50 ? " stroke-dasharray=\"4 3\"" : "");
        rpl__buf_printf(b,
                        "<text x=\"%d\" y=\"%d\" "
                        "text-anchor=\"end\">%d%%</text>\n",
                        SVG_LEFT - 6, y + 4, pct);
    }
    for (size_t i = 0; i < c->nbars; i++) {
        const struct rpl__bar *e = &c->bar[i];
        const uint64_t decided = e->low + e->high;
        const int x = SVG_LEFT + slot * (int)i + (slot - bar) / 2;
        const int low_h =
            decided > 0 ? (int)((e->low * SVG_PLOT_H + decided / 2) / decided)
                        : 0;
        char pct[32];

        if (decided > 0) {
            rpl__buf_printf(b,
                            "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
                            "height=\"%d\" fill=\"#c0392b\"><title>",
                            x, base - low_h, bar, low_h);
            svg_text(b, c->low);
            rpl__buf_printf(b, " %llu of %llu</title></rect>\n",
                            (unsigned long long)e->low,
                            (unsigned long long)decided);
            rpl__buf_printf(b,
                            "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
                            "height=\"%d\" fill=\"#2e6fba\"><title>",
                            x, SVG_TOP, bar, SVG_PLOT_H - low_h);
            svg_text(b, c->high);
            rpl__buf_printf(b, " %llu of %llu</title></rect>\n",
                            (unsigned long long)e->high,
                            (unsigned long long)decided);
            rpl__buf_printf(b,
                            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
                            "fill=\"#ffffff\">%s</text>\n",
                            x + bar / 2, base - 6,
                            rpl__percent(pct, sizeof(pct), e->low, decided));
        }
        rpl__buf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
                        x + bar / 2, base + 18);
        svg_text(b, e->label);
        rpl__buf_printf(b,
                        "</text>\n<text x=\"%d\" y=\"%d\" "
                        "text-anchor=\"middle\" fill=\"#666666\">",
                        x + bar / 2, base + 34);
        svg_text(b, e->note);
        rpl__buf_puts(b, "</text>\n");
    }
    /* The even line over the bars, and the legend. */
    rpl__buf_printf(b,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                    "stroke=\"#ffffff\" stroke-width=\"1\" "
                    "stroke-dasharray=\"4 3\"/>\n",
                    SVG_LEFT, SVG_TOP + SVG_PLOT_H / 2, SVG_W - SVG_RIGHT,
                    SVG_TOP + SVG_PLOT_H / 2);
    rpl__buf_printf(b,
                    "<rect x=\"%d\" y=\"10\" width=\"10\" height=\"10\" "
                    "fill=\"#c0392b\"/>\n<text x=\"%d\" y=\"19\">",
                    SVG_W - SVG_RIGHT - 84, SVG_W - SVG_RIGHT - 70);
    svg_text(b, c->low);
    rpl__buf_printf(b,
                    " wins</text>\n<rect x=\"%d\" y=\"24\" width=\"10\" "
                    "height=\"10\" fill=\"#2e6fba\"/>\n<text x=\"%d\" "
                    "y=\"33\">",
                    SVG_W - SVG_RIGHT - 84, SVG_W - SVG_RIGHT - 70);
    svg_text(b, c->high);
    rpl__buf_puts(b, " wins</text>\n</g>\n");
}

/* The SVG document around the games' charts. */
static void
svg_document(const struct run *r, struct rpl__buf *out)
{
    static const char title[] = "Win rate by player count";
    const size_t h = (r->ncharts ? r->ncharts : 1) * SVG_H;

    rpl__buf_printf(out,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                    "version=\"1.1\" width=\"%d\" height=\"%zu\" "
                    "viewBox=\"0 0 %d %zu\" font-family=\"sans-serif\" "
                    "font-size=\"12\">\n",
                    SVG_W, h, SVG_W, h);
    rpl__buf_printf(out, "<title>%s</title>\n", title);
    rpl__buf_puts(out, "<desc>For each game and number of players: the "
                       "share of games with a winner that each side won, "
                       "the side named first in red from the bottom, the "
                       "other in blue.</desc>\n");
    rpl__buf_printf(out,
                    "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%zu\" "
                    "fill=\"#ffffff\"/>\n",
                    SVG_W, h);
    if (r->ncharts == 0)
        rpl__buf_printf(out,
                        "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
                        "font-size=\"15\">%s</text>\n<text x=\"%d\" "
                        "y=\"%d\" text-anchor=\"middle\">no games</text>\n",
                        SVG_W / 2, 24, title, SVG_W / 2,
                        SVG_TOP + SVG_PLOT_H / 2);
    else if (r->svg.len > 0)
        rpl__buf_add(out, r->svg.p, r->svg.len);
    rpl__buf_puts(out, "</svg>\n");
    if (r->svg.failed)
        out->failed = true;
}

/* Runs a statement of counts over the selected games and reads its one
 * row into v[0..n). */
static enum rpl_status
counts(struct run *r, const char *sql, uint64_t *v, int n,
       struct rpl_error *err)
{
    struct rpl__st *st = NULL;
    enum rpl_status rc;
    int src;

    rc = rpl__ar_prepare_filtered(r->ar, head_sql, r->f, sql, &st, err);
    if (rc != RPL_OK)
        return rc;
    src = rpl__st_step(st);
    for (int i = 0; i < n; i++)
        v[i] = src == RPL__DB_ROW ? col_u64(st, i) : 0;
    if (src == RPL__DB_ROW)
        src = RPL__DB_DONE;
    if (src != RPL__DB_DONE)
        rc = rpl__ar_fail(r->ar, err, src, "cannot compute the statistics");
    rpl__st_finalize(st);
    return rc;
}

/* The records() of struct rpl__stats. */
static void
records(const struct rpl__stats *s, const struct rpl__groups *players,
        json_t *(*one)(const struct rpl__group *g))
{
    json_t *a = json_array();
    size_t shown = 0;

    for (size_t i = 0; i < players->n; i++) {
        const struct rpl__group *g = players->g[i];

        if (g->v[0] < s->records_min_games ||
            (s->records_top > 0 && shown == s->records_top))
            continue;
        rpl__japp(s->jb, a, one(g));
        shown++;
    }
    rpl__jset(s->jb, s->json, "records", a);
    rpl__jset(s->jb, s->json, "records_total", rpl__jcount(players->n));
}

/* The figures of every game, in the registry's order. */
static enum rpl_status
games_stats(struct run *r, enum rpl__stats_out format, struct rpl__jb *jb,
            json_t *top, struct rpl__buf *text, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;
    const struct rpl__game *game;

    for (size_t i = 0; rc == RPL_OK && (game = rpl__game_at(i)); i++) {
        struct rpl__stats s;
        struct rpl__scan sc;
        uint64_t n = 0;

        if (!rpl__archive_hooks(game)->stats)
            continue;
        r->game = game;
        memset(&s, 0, sizeof(s));
        s.ctx = r->ar->ctx;
        s.a = r;
        s.scan = stats_scan;
        s.jb = jb;
        s.top = top;
        s.json = json_object();
        s.chart = draw_chart;
        s.records = records;
        s.records_top = r->f ? r->f->records_top : 0;
        s.records_min_games = r->f ? r->f->records_min_games : 0;
        memset(&sc, 0, sizeof(sc));
        sc.end = count_end;
        sc.ud = &n;
        rc = stats_scan(r, &sc, err);
        /* Text and a chart only of the games that have games. */
        s.format = n > 0 ? format : RPL__STATS_JSON;
        s.out = s.format == RPL__STATS_TEXT ? text : NULL;
        if (rc == RPL_OK && s.json)
            rc = rpl__archive_hooks(game)->stats(&s, err);
        /* After the game's keys of top, kept from before the objects. */
        rpl__jset(jb, top, game->name, s.json);
        r->game = NULL;
    }
    return rc;
}

static enum rpl_status
stats_run(struct rpl_archive *ar, const struct rpl_archive_filter *f,
          enum rpl__stats_out format, char **out, struct rpl_error *err)
{
    const char *const total_key[] = {
        "games",
        rpl_progress_name(RPL_PROGRESS_IN_PROGRESS),
        rpl_progress_name(RPL_PROGRESS_FINISHED),
        rpl_progress_name(RPL_PROGRESS_COMPLETE),
        "imported",
        "variants"};
    struct run r;
    struct rpl__jb jb = {true};
    struct rpl__buf b, text;
    json_t *top = NULL;
    uint64_t total[6];
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    rc = rpl_archive_check_filter(f, err);
    if (rc != RPL_OK)
        return rc;
    memset(&r, 0, sizeof(r));
    r.ar = ar;
    r.f = f;
    rpl__buf_init(&r.svg, ar->ctx);
    rpl__buf_init(&b, ar->ctx);
    rpl__buf_init(&text, ar->ctx);
    /* One read transaction: every figure counts the same games. */
    rc = ar->in_batch ? RPL_OK : rpl__ar_begin_read(ar, err);
    if (rc != RPL_OK)
        goto out;
    rc = counts(&r, totals_sql, total, 6, err);
    top = json_object();
    for (size_t i = 0; rc == RPL_OK && i < 6; i++)
        rpl__jset(&jb, top, total_key[i], rpl__jcount(total[i]));
    if (rc == RPL_OK && format == RPL__STATS_TEXT)
        rpl__buf_printf(
            &text,
            "games: %llu (%llu complete, %llu finished, %llu in "
            "progress; %llu imported, %llu with variants)\n",
            (unsigned long long)total[0], (unsigned long long)total[3],
            (unsigned long long)total[2], (unsigned long long)total[1],
            (unsigned long long)total[4], (unsigned long long)total[5]);
    if (rc == RPL_OK)
        rc = games_stats(&r, format, &jb, top, &text, err);
    if (!ar->in_batch)
        (void)ar->be->exec(ar, "COMMIT");
    if (rc != RPL_OK)
        goto out;
    if (format == RPL__STATS_JSON) {
        rpl__jdump_fixed(&jb, top, &b);
        top = NULL;
    } else if (!jb.ok) {
        b.failed = true;
    } else if (format == RPL__STATS_TEXT) {
        if (text.len > 0)
            rpl__buf_add(&b, text.p, text.len);
        if (text.failed)
            b.failed = true;
    } else {
        svg_document(&r, &b);
    }
    rc = rpl__buf_take(&b, out, err);
out:
    json_decref(top);
    rpl__buf_release(&b);
    rpl__buf_release(&text);
    rpl__buf_release(&r.svg);
    return rc;
}

enum rpl_status
rpl_archive_stats(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  char **json, struct rpl_error *err)
{
    return stats_run(ar, f, RPL__STATS_JSON, json, err);
}

enum rpl_status
rpl_archive_stats_as(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                     enum rpl_archive_format format, char **out,
                     struct rpl_error *err)
{
    switch (format) {
    case RPL_ARCHIVE_JSON:
        return stats_run(ar, f, RPL__STATS_JSON, out, err);
    case RPL_ARCHIVE_TEXT:
        return stats_run(ar, f, RPL__STATS_TEXT, out, err);
    case RPL_ARCHIVE_SVG:
        return stats_run(ar, f, RPL__STATS_SVG, out, err);
    }
    *out = NULL;
    return rpl__err(err, RPL_E_ARG, 0, "unknown statistics format %d",
                    (int)format);
}
