/*
 * audit.c - whether the deals of an archive look uniform: for the games
 * camelog dealt and, apart, for the imported ones, each game's tables
 * (struct rpl__audit, games/game.h: a role's seat, the first leader's
 * seat, a player's roles) are tested stratum by stratum with Pearson's
 * chi-square against the expectation of a uniform deal, the p-values are
 * corrected together by Holm-Bonferroni, and a test is flagged when its
 * corrected p-value is under the level.
 *
 * The archive knows no game: each game's tables count the cells of their
 * tests (observed and expected counts) from the rows of the selected
 * games, which the archive scans for them (rpl__ar_scan()); the
 * arithmetic here is the same for all.  Cells whose expected count is
 * under AUDIT_MIN_EXPECTED are pooled into one ("other"); a stratum left
 * with fewer than two cells is not tested (too few games).  Floating
 * point is fine here: this is statistics, not rules, and no log depends
 * on it.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "games/game.h"
#include "json.h"

/* The level a corrected p-value must be under to flag its test. */
#define AUDIT_LEVEL 0.01
/* The least expected count of a cell for the chi-square approximation
 * (the usual rule of thumb); smaller cells are pooled. */
#define AUDIT_MIN_EXPECTED 5.0
/* Cells of one stratum: seats, or a game's roles. */
#define AUDIT_MAX_CELLS 64

/* ------------------------------------------------------------- gamma */

/* ln Gamma(a) for a = df / 2, df >= 1: from Gamma(1) = 1 and
 * Gamma(1/2) = sqrt(pi) by Gamma(a + 1) = a Gamma(a), exact enough and
 * without lgamma(), whose signgam is global state. */
static double
ln_gamma_half(unsigned df)
{
    double a = (df % 2u) ? 0.5 : 1.0;
    double s = (df % 2u) ? 0.5 * log(3.14159265358979323846) : 0.0;

    for (; a < 0.5 * df - 0.25; a += 1.0)
        s += log(a);
    return s;
}

/* The regularized upper incomplete gamma function Q(a, x), a = df / 2:
 * by the power series of P = 1 - Q below x = a + 1, where it converges
 * fast, and by the continued fraction of Q (evaluated with the modified
 * Lentz method) above. */
static double
gamma_q(unsigned df, double x)
{
    const double a = 0.5 * df;
    const double tiny = DBL_MIN / DBL_EPSILON;
    double front;

    if (!(x > 0.0))
        return 1.0;
    front = exp(a * log(x) - x - ln_gamma_half(df));
    if (x < a + 1.0) {
        /* P(a, x) = x^a e^-x / Gamma(a) * sum x^n / (a (a+1) ... (a+n)) */
        double term = 1.0 / a, sum = term;

        for (int n = 1; n < 1000; n++) {
            term *= x / (a + n);
            sum += term;
            if (fabs(term) < fabs(sum) * DBL_EPSILON)
                break;
        }
        return 1.0 - sum * front;
    }
    /* Q(a, x) = x^a e^-x / Gamma(a) * 1 / (x + 1 - a - 1 (1 - a) /
     * (x + 3 - a - 2 (2 - a) / (x + 5 - a - ...))) */
    {
        double b = x + 1.0 - a;
        double c = 1.0 / tiny, d = 1.0 / b, h = d;

        for (int i = 1; i < 1000; i++) {
            const double an = -i * (i - a);
            double del;

            b += 2.0;
            d = an * d + b;
            if (fabs(d) < tiny)
                d = tiny;
            c = b + an / c;
            if (fabs(c) < tiny)
                c = tiny;
            d = 1.0 / d;
            del = d * c;
            h *= del;
            if (fabs(del - 1.0) < DBL_EPSILON)
                break;
        }
        return front * h;
    }
}

double
rpl__chi2_p(double chi2, unsigned df)
{
    double q;

    if (df == 0)
        return 1.0;
    q = gamma_q(df, 0.5 * chi2);
    return q < 0.0 ? 0.0 : q > 1.0 ? 1.0 : q;
}

/* ------------------------------------------------------------- tests */

/* The two groups of games the audit keeps apart. */
static const char *const group_name[2] = {"dealt", "imported"};
static const char *const group_title[2] = {"dealt by camelog", "imported"};

/* One tested stratum. */
struct test {
    unsigned group;
    const struct rpl__game *game;
    size_t table;
    char stratum[160];
    uint64_t games;
    double chi2;
    unsigned df;
    double p, adjusted;
    bool is_flagged;
    /* The cell furthest from its expectation (standardized). */
    char cell[72];
    uint64_t observed;
    double expected;
};

/* One table of one game in one group. */
struct table {
    unsigned group;
    const struct rpl__game *game;
    size_t table;
    uint64_t games; /* of this game in this group */
    size_t tested, skipped;
};

struct cell {
    char label[72];
    uint64_t observed;
    double expected;
};

struct audit {
    struct rpl_archive *ar;
    const struct rpl_archive_filter *f;
    struct test *test;
    size_t ntests, cap;
    struct table *table;
    size_t ntables, table_cap;
    uint64_t games[2];
    size_t flagged[2];
    /* The stratum being read. */
    char stratum[160];
    struct cell cell[AUDIT_MAX_CELLS];
    size_t ncells;
    double factor;
    uint64_t stratum_games;
};

static const char head_sql[] =
    "WITH sel(gid) AS (SELECT g.gid FROM main.game g";
static const char group_sql[] = " AND g.imported = :audit_imported) ";
static const char of_game_sql[] =
    " AND g.imported = :audit_imported AND g.game = :audit_game) ";
static const char count_sql[] = "SELECT count(*) FROM sel";

static enum rpl_status
prepare(struct audit *au, unsigned group, const struct rpl__game *game,
        const char *sql, struct rpl__st **out, struct rpl_error *err)
{
    struct rpl__buf b;
    char *tail = NULL;
    enum rpl_status rc;

    rpl__buf_init(&b, au->ar->ctx);
    rpl__buf_puts(&b, game ? of_game_sql : group_sql);
    rpl__buf_puts(&b, sql);
    rc = rpl__buf_take(&b, &tail, err);
    if (rc != RPL_OK)
        return rc;
    rc = rpl__ar_prepare_filtered(au->ar, head_sql, au->f, tail, out, err);
    rpl_free(au->ar->ctx, tail);
    if (rc != RPL_OK)
        return rc;
    rpl__ar_bind_named_int(*out, ":audit_imported", (int64_t)group);
    if (game)
        rpl__ar_bind_named(*out, ":audit_game", game->name);
    return RPL_OK;
}

static enum rpl_status
count_games(struct audit *au, unsigned group, const struct rpl__game *game,
            uint64_t *n, struct rpl_error *err)
{
    struct rpl__st *st = NULL;
    enum rpl_status rc;
    int src;

    rc = prepare(au, group, game, count_sql, &st, err);
    if (rc != RPL_OK)
        return rc;
    src = rpl__st_step(st);
    if (src == RPL__DB_ROW)
        *n = rpl__ar_col_uint(st, 0);
    else
        rc = rpl__ar_fail(au->ar, err, src, "cannot audit the archive");
    rpl__st_finalize(st);
    return rc;
}

static enum rpl_status
grow(struct audit *au, void **p, size_t *cap, size_t n, size_t size,
     struct rpl_error *err)
{
    void *q;
    size_t c;

    if (n < *cap)
        return RPL_OK;
    c = *cap ? *cap * 2 : 16;
    if (c > SIZE_MAX / size)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    q = rpl__realloc(au->ar->ctx, *p, c * size);
    if (!q)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    *p = q;
    *cap = c;
    return RPL_OK;
}

/* Pools the cells under the least expected count into one; when that
 * one is still under it, into the smallest of the others too. */
static void
pool(struct audit *au)
{
    struct cell other = {"other", 0, 0.0};
    size_t n = 0, small;

    for (size_t i = 0; i < au->ncells; i++) {
        if (au->cell[i].expected < AUDIT_MIN_EXPECTED) {
            other.observed += au->cell[i].observed;
            other.expected += au->cell[i].expected;
        } else {
            au->cell[n++] = au->cell[i];
        }
    }
    if (n == au->ncells)
        return;
    au->ncells = n;
    if (other.expected < AUDIT_MIN_EXPECTED && n > 0) {
        small = 0;
        for (size_t i = 1; i < n; i++)
            if (au->cell[i].expected < au->cell[small].expected)
                small = i;
        other.observed += au->cell[small].observed;
        other.expected += au->cell[small].expected;
        au->cell[small] = au->cell[--au->ncells];
    }
    if (other.expected >= AUDIT_MIN_EXPECTED)
        au->cell[au->ncells++] = other;
}

/* Tests the stratum read so far, if any. */
static enum rpl_status
close_stratum(struct audit *au, struct table *t, struct rpl_error *err)
{
    struct test *x;
    double chi2 = 0.0, worst = -1.0;
    enum rpl_status rc;

    if (au->ncells == 0)
        return RPL_OK;
    pool(au);
    if (au->ncells < 2) {
        t->skipped++;
        au->ncells = 0;
        return RPL_OK;
    }
    rc = grow(au, (void **)&au->test, &au->cap, au->ntests, sizeof(*x), err);
    if (rc != RPL_OK)
        return rc;
    x = &au->test[au->ntests++];
    memset(x, 0, sizeof(*x));
    x->group = t->group;
    x->game = t->game;
    x->table = t->table;
    snprintf(x->stratum, sizeof(x->stratum), "%s", au->stratum);
    x->games = au->stratum_games;
    for (size_t i = 0; i < au->ncells; i++) {
        const struct cell *c = &au->cell[i];
        const double d = (double)c->observed - c->expected;
        const double z = fabs(d) / sqrt(c->expected);

        chi2 += d * d / c->expected;
        if (z > worst) {
            worst = z;
            snprintf(x->cell, sizeof(x->cell), "%s", c->label);
            x->observed = c->observed;
            x->expected = c->expected;
        }
    }
    x->chi2 = chi2 * au->factor;
    x->df = (unsigned)(au->ncells - 1);
    x->p = rpl__chi2_p(x->chi2, x->df);
    t->tested++;
    au->ncells = 0;
    return RPL_OK;
}

/* The lender of struct rpl__audit_run: one table of one game over one
 * group. */
struct table_run {
    struct audit *au;
    struct table *t;
    const struct rpl__game *game;
    const struct rpl__audit *d;
    size_t ncells_seen;
};

static enum rpl_status
run_scan(void *a, const struct rpl__scan *sc, struct rpl_error *err)
{
    const struct table_run *r = a;

    return rpl__ar_scan(r->au->ar, r->au->f, r->game->name, (int)r->t->group,
                        sc, err);
}

static enum rpl_status
run_cell(void *a, const char *stratum, const char *label, uint64_t observed,
         double expected, double factor, uint64_t games, struct rpl_error *err)
{
    struct table_run *r = a;
    struct audit *au = r->au;
    struct cell *c;
    enum rpl_status rc = RPL_OK;

    if (r->ncells_seen > 0 && strcmp(stratum, au->stratum) != 0)
        rc = close_stratum(au, r->t, err);
    if (rc != RPL_OK)
        return rc;
    if (au->ncells == 0) {
        snprintf(au->stratum, sizeof(au->stratum), "%s", stratum);
        au->factor = factor;
        au->stratum_games = games;
    }
    r->ncells_seen++;
    if (au->ncells == AUDIT_MAX_CELLS)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "audit %s %s: more than %d cells in one stratum",
                        r->game->name, r->d->key, AUDIT_MAX_CELLS);
    if (!(expected > 0.0))
        return RPL_OK;
    c = &au->cell[au->ncells++];
    snprintf(c->label, sizeof(c->label), "%s", label);
    c->observed = observed;
    c->expected = expected;
    return RPL_OK;
}

/* Runs one table of one game over one group. */
static enum rpl_status
run_table(struct audit *au, unsigned group, const struct rpl__game *game,
          size_t i, struct rpl_error *err)
{
    const struct rpl__audit *d = &rpl__archive_hooks(game)->audit[i];
    struct rpl__audit_run run;
    struct table_run r;
    struct table *t;
    enum rpl_status rc;

    rc = grow(au, (void **)&au->table, &au->table_cap, au->ntables, sizeof(*t),
              err);
    if (rc != RPL_OK)
        return rc;
    t = &au->table[au->ntables++];
    memset(t, 0, sizeof(*t));
    t->group = group;
    t->game = game;
    t->table = i;
    rc = count_games(au, group, game, &t->games, err);
    if (rc != RPL_OK || !d->run || t->games == 0)
        return rc;
    memset(&r, 0, sizeof(r));
    r.au = au;
    r.t = t;
    r.game = game;
    r.d = d;
    run.ctx = au->ar->ctx;
    run.a = &r;
    run.scan = run_scan;
    run.cell = run_cell;
    au->ncells = 0;
    rc = d->run(&run, err);
    if (rc == RPL_OK)
        rc = close_stratum(au, t, err);
    return rc;
}

/* Holm-Bonferroni over all the tests: the i-th smallest p-value (from
 * 0) is multiplied by ntests - i, and the adjusted values are made
 * non-decreasing in that order. */
static void
holm(struct audit *au)
{
    const size_t n = au->ntests;
    double run = 0.0;

    for (size_t k = 0; k < n; k++) {
        size_t best = n;
        double adj;

        /* Selection in place of a sort: a handful of tests, and ties
         * keep the tables' order. */
        for (size_t i = 0; i < n; i++) {
            if (au->test[i].adjusted >= 0.0)
                continue;
            if (best == n || au->test[i].p < au->test[best].p)
                best = i;
        }
        adj = au->test[best].p * (double)(n - k);
        if (adj > 1.0)
            adj = 1.0;
        if (adj < run)
            adj = run;
        run = adj;
        au->test[best].adjusted = adj;
    }
    for (size_t i = 0; i < n; i++) {
        au->test[i].is_flagged = au->test[i].adjusted < AUDIT_LEVEL;
        if (au->test[i].is_flagged)
            au->flagged[au->test[i].group]++;
    }
}

/* ------------------------------------------------------------ output */

static void
percent(char *buf, size_t cap, double num, uint64_t den)
{
    if (den == 0)
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.1f%%", 100.0 * num / (double)den);
}

/* "1.23e-05" below 0.0001, else four places. */
static void
p_text(char *buf, size_t cap, double p)
{
    if (p < 0.0001)
        snprintf(buf, cap, "%.2e", p);
    else
        snprintf(buf, cap, "%.4f", p);
}

/* The plain verdict on one flagged test. */
static void
finding(struct rpl__buf *b, const struct test *x)
{
    char o[32], e[32], p[32], a[32];

    percent(o, sizeof(o), (double)x->observed, x->games);
    percent(e, sizeof(e), x->expected, x->games);
    p_text(p, sizeof(p), x->p);
    p_text(a, sizeof(a), x->adjusted);
    rpl__buf_printf(b,
                    "%s, %s: %s in %s of %llu games (expected %s), "
                    "p = %s (Holm-adjusted %s)",
                    x->game->name, x->stratum, x->cell, o,
                    (unsigned long long)x->games, e, p, a);
}

static void
verdict(struct rpl__buf *b, const struct audit *au, unsigned g)
{
    size_t n = 0;

    if (au->games[g] == 0) {
        rpl__buf_printf(b, "no games %s", group_title[g]);
        return;
    }
    for (size_t k = 0; k < au->ntests; k++)
        n += au->test[k].group == g;
    if (n == 0) {
        rpl__buf_printf(b,
                        "nothing tested in %llu games %s: too few games "
                        "in every stratum",
                        (unsigned long long)au->games[g], group_title[g]);
        return;
    }
    if (au->flagged[g] == 0) {
        rpl__buf_printf(b,
                        "no evidence of bias in %llu games %s at the "
                        "%.2f level",
                        (unsigned long long)au->games[g], group_title[g],
                        AUDIT_LEVEL);
        return;
    }
    rpl__buf_printf(b,
                    "bias found in %llu games %s: %zu of %zu tests "
                    "flagged at the %.2f level",
                    (unsigned long long)au->games[g], group_title[g],
                    au->flagged[g], n, AUDIT_LEVEL);
}

static void
write_text(const struct audit *au, struct rpl__buf *b)
{
    rpl__buf_printf(b,
                    "audit: %llu games dealt by camelog, %llu imported; "
                    "%zu tests, Holm-Bonferroni, level %.2f, cells "
                    "expecting under %.0f pooled\n",
                    (unsigned long long)au->games[0],
                    (unsigned long long)au->games[1], au->ntests, AUDIT_LEVEL,
                    AUDIT_MIN_EXPECTED);
    for (unsigned g = 0; g < 2; g++) {
        rpl__buf_printf(b, "\n%s: %llu games\n", group_title[g],
                        (unsigned long long)au->games[g]);
        for (size_t i = 0; i < au->ntables && au->games[g] > 0; i++) {
            const struct table *t = &au->table[i];
            const struct rpl__audit *d =
                &rpl__archive_hooks(t->game)->audit[t->table];

            if (t->group != g || t->games == 0)
                continue;
            rpl__buf_printf(b, "%s, %s:", t->game->name, d->title);
            if (!d->run) {
                rpl__buf_printf(b, " not tested: %s\n", d->note);
                continue;
            }
            rpl__buf_printf(b, "\n");
            for (size_t k = 0; k < au->ntests; k++) {
                const struct test *x = &au->test[k];
                char p[32], a[32];

                if (x->group != g || x->game != t->game || x->table != t->table)
                    continue;
                p_text(p, sizeof(p), x->p);
                p_text(a, sizeof(a), x->adjusted);
                rpl__buf_printf(b,
                                "  %-30s %5llu games  chi2 %8.2f  df %2u  "
                                "p %-8s  adjusted %s%s\n",
                                x->stratum, (unsigned long long)x->games,
                                x->chi2, x->df, p, a,
                                x->is_flagged ? "  FLAGGED" : "");
            }
            if (t->tested == 0 && t->skipped == 0)
                rpl__buf_printf(b, "  nothing to test\n");
            if (t->skipped > 0)
                rpl__buf_printf(b,
                                "  %zu not tested: too few games (an "
                                "expected count under %.0f)\n",
                                t->skipped, AUDIT_MIN_EXPECTED);
            if (d->note)
                rpl__buf_printf(b, "  note: %s\n", d->note);
        }
    }
    rpl__buf_puts(b, "\n");
    for (unsigned g = 0; g < 2; g++) {
        rpl__buf_printf(b, "verdict (%s): ", group_name[g]);
        verdict(b, au, g);
        rpl__buf_puts(b, "\n");
        for (size_t k = 0; k < au->ntests; k++) {
            if (au->test[k].group != g || !au->test[k].is_flagged)
                continue;
            rpl__buf_puts(b, "  ");
            finding(b, &au->test[k]);
            rpl__buf_puts(b, "\n");
        }
    }
}

/* A real for rpl__jdump_fixed() (four places); p-values also as text. */
static json_t *
jreal(double v)
{
    return json_real(isfinite(v) ? v : 0.0);
}

static json_t *
jtext(const char *s)
{
    return s ? rpl__jtext(s) : json_null();
}

static void
write_json(const struct audit *au, struct rpl__buf *b)
{
    struct rpl__jb jb = {true};
    json_t *top = json_object(), *groups = json_array();
    json_t *tables = json_array(), *results = json_array();

    rpl__jset(&jb, top, "level", jreal(AUDIT_LEVEL));
    rpl__jset(&jb, top, "correction", json_string("holm-bonferroni"));
    rpl__jset(&jb, top, "min_expected", rpl__jcount(5));
    rpl__jset(&jb, top, "tests", rpl__jcount(au->ntests));
    rpl__jset(&jb, top, "flagged",
              rpl__jcount(au->flagged[0] + au->flagged[1]));
    for (unsigned g = 0; g < 2; g++) {
        struct rpl__buf v;
        char *s = NULL;

        rpl__buf_init(&v, au->ar->ctx);
        verdict(&v, au, g);
        if (rpl__buf_take(&v, &s, NULL) != RPL_OK)
            jb.ok = false;
        rpl__japp(&jb, groups,
                  json_pack("{s:s,s:o,s:o,s:o}", "group", group_name[g],
                            "games", rpl__jcount(au->games[g]), "flagged",
                            rpl__jcount(au->flagged[g]), "verdict", jtext(s)));
        rpl_free(au->ar->ctx, s);
    }
    for (size_t i = 0; i < au->ntables; i++) {
        const struct table *t = &au->table[i];
        const struct rpl__audit *d =
            &rpl__archive_hooks(t->game)->audit[t->table];

        rpl__japp(&jb, tables,
                  json_pack("{s:s,s:s,s:s,s:s,s:b,s:o,s:o,s:o,s:o}", "group",
                            group_name[t->group], "game", t->game->name,
                            "table", d->key, "title", d->title, "applies",
                            !!d->run, "games", rpl__jcount(t->games), "tested",
                            rpl__jcount(t->tested), "skipped",
                            rpl__jcount(t->skipped), "note", jtext(d->note)));
    }
    for (size_t k = 0; k < au->ntests; k++) {
        const struct test *x = &au->test[k];
        char p[32], a[32];

        snprintf(p, sizeof(p), "%.6g", x->p);
        snprintf(a, sizeof(a), "%.6g", x->adjusted);
        rpl__japp(&jb, results,
                  json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:s,s:o,s:s,s:b,"
                            "s:s,s:o,s:o}",
                            "group", group_name[x->group], "game",
                            x->game->name, "table",
                            rpl__archive_hooks(x->game)->audit[x->table].key,
                            "stratum", x->stratum, "games",
                            rpl__jcount(x->games), "chi2", jreal(x->chi2), "df",
                            rpl__jcount(x->df), "p", jreal(x->p), "p_text", p,
                            "p_adjusted", jreal(x->adjusted), "p_adjusted_text",
                            a, "flagged", x->is_flagged, "cell", x->cell,
                            "observed", rpl__jcount(x->observed), "expected",
                            jreal(x->expected)));
    }
    rpl__jset(&jb, top, "groups", groups);
    rpl__jset(&jb, top, "tables", tables);
    rpl__jset(&jb, top, "results", results);
    rpl__jdump_fixed(&jb, top, b);
}

enum rpl_status
rpl_archive_audit(struct rpl_archive *ar, const struct rpl_archive_filter *f,
                  enum rpl_archive_format format, char **out, bool *is_flagged,
                  struct rpl_error *err)
{
    struct audit au;
    struct rpl__buf b;
    const struct rpl__game *game;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    if (format != RPL_ARCHIVE_JSON && format != RPL_ARCHIVE_TEXT)
        return rpl__err(err, RPL_E_ARG, 0, "unknown audit format %d",
                        (int)format);
    rc = rpl_archive_check_filter(f, err);
    if (rc != RPL_OK)
        return rc;
    memset(&au, 0, sizeof(au));
    au.ar = ar;
    au.f = f;
    rpl__buf_init(&b, ar->ctx);
    /* One read transaction: every table counts the same games. */
    rc = ar->in_batch ? RPL_OK : rpl__ar_begin_read(ar, err);
    if (rc != RPL_OK)
        goto out;
    for (unsigned g = 0; rc == RPL_OK && g < 2; g++) {
        rc = count_games(&au, g, NULL, &au.games[g], err);
        for (size_t i = 0; rc == RPL_OK && (game = rpl__game_at(i)); i++)
            for (size_t k = 0;
                 rc == RPL_OK && k < rpl__archive_hooks(game)->naudit; k++)
                rc = run_table(&au, g, game, k, err);
    }
    if (!ar->in_batch)
        (void)ar->be->exec(ar, "COMMIT");
    if (rc != RPL_OK)
        goto out;
    for (size_t k = 0; k < au.ntests; k++)
        au.test[k].adjusted = -1.0;
    holm(&au);
    if (format == RPL_ARCHIVE_JSON)
        write_json(&au, &b);
    else
        write_text(&au, &b);
    rc = rpl__buf_take(&b, out, err);
    if (rc == RPL_OK && is_flagged)
        *is_flagged = au.flagged[0] + au.flagged[1] > 0;
out:
    rpl__buf_release(&b);
    rpl__free(ar->ctx, au.test);
    rpl__free(ar->ctx, au.table);
    return rc;
}
