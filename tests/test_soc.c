/*
 * test_soc.c - the Shadows over Camelot module: the card table against
 * rules/soc-cards.tsv, every quest won and lost with its pattern, each
 * knight's power and each special card, accusations, the traitor, the
 * end conditions, the reveal's checks, views that leak nothing, and a
 * property test over many seeded games (CAMELOG_SOC_GAMES, default
 * 10000).
 *
 * Scenario tests start a seeded game and then set the board by hand: a
 * seat's hand, the top of the black deck, where the knights stand, whose
 * turn it is.  They move cards between the decks and the hands, never
 * out of thin air, so every card stays accounted for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <jansson.h>
#include <sodium.h>

#include "games/soc/soc.h"
#include "suites.h"

/* ------------------------------------------------------------ harness */

/* Check writes every passing ck_assert to its pipe; loops that check
 * millions of things use this instead, which reports only a failure. */
#define REQUIRE(cond, ...)                                                     \
    do {                                                                       \
        if (!(cond))                                                           \
            ck_abort_msg(__VA_ARGS__);                                         \
    } while (0)

static const char *const names[SOC_MAX_SEATS + 1] = {
    "", "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace",
};

struct line {
    char text[320];
};

struct game {
    struct rpl_ctx *ctx;
    struct soc_state *st; /* knowing */
    struct rpl__env env;
    struct rpl__env penv; /* public: no seed */
    uint8_t id[16];
    uint8_t seed[32];
    char rules[96];
    struct rpl_error err;
    struct line *lines; /* every game line applied, in order */
    size_t nlines;
    size_t cap;
    size_t first_no; /* line number of lines[0] */
};

static void
no_warn(void *w, size_t line, const char *msg)
{
    (void)w;
    (void)line;
    (void)msg;
}

static size_t
g_no(const struct game *g)
{
    return g->first_no + g->nlines;
}

static void
g_record(struct game *g, const char *text)
{
    if (g->nlines == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->lines = realloc(g->lines, g->cap * sizeof(*g->lines));
        ck_assert_ptr_nonnull(g->lines);
    }
    snprintf(g->lines[g->nlines++].text, sizeof(g->lines[0].text), "%s", text);
}

static enum rpl_status
apply_text(struct soc_state *st, const struct rpl__env *env, const char *text,
           size_t no, struct rpl_error *err)
{
    struct rpl__line ln;
    struct rpl__applied ap;
    enum rpl_status rc = rpl__line_split(&ln, text, strlen(text), no, err);

    if (rc == RPL_OK)
        rc = rpl__soc.play->apply(st, &ln, env, &ap, err);
    return rc;
}

/* Applies one emitted line to the knowing state: its commitment, the
 * learned value for a seat's secret choice. */
static enum rpl_status
g_emit(struct game *g, const struct rpl__emit *e, bool choice)
{
    char line[640];
    enum rpl_status rc;

    snprintf(line, sizeof(line), "%s", e->line);
    if (e->label[0]) {
        uint8_t c[32];
        char hex[65];

        rpl__commit(c, NULL, g->seed, g->id, e->label, e->value, 1);
        rpl__hex(hex, c, 32);
        strcat(line, " ");
        strcat(line, hex);
        if (choice) {
            rc = rpl__soc.play->learn(g->st, e->label, e->value, &g->err);
            if (rc != RPL_OK)
                return rc;
        }
    }
    rc = apply_text(g->st, &g->env, line, g_no(g) + 1, &g->err);
    if (rc == RPL_OK)
        g_record(g, line);
    return rc;
}

/* The dealer's lines until a seat must act. */
static size_t
g_drain(struct game *g)
{
    struct rpl__emit e;
    size_t n = 0;

    while (rpl__soc.play->pending(g->st, &g->env, &e)) {
        const enum rpl_status rc = g_emit(g, &e, false);

        REQUIRE(rc == RPL_OK, "dealer line \"%s\": %s", e.line, g->err.msg);
        n++;
    }
    return n;
}

/* A seat's action in private form, then the dealer's lines. */
static enum rpl_status
g_act(struct game *g, const char *action)
{
    struct rpl__emit e;
    enum rpl_status rc;

    rc = rpl__soc.live->action(g->st, &g->env, action, &e, &g->err);
    if (rc == RPL_OK)
        rc = g_emit(g, &e, true);
    if (rc == RPL_OK)
        g_drain(g);
    return rc;
}

static void
g_ok(struct game *g, const char *action)
{
    const enum rpl_status rc = g_act(g, action);

    ck_assert_msg(rc == RPL_OK, "\"%s\": %s (line %zu)", action, g->err.msg,
                  g->err.line);
}

static void
g_refused(struct game *g, const char *action, enum rpl_status want)
{
    const size_t before = g->nlines;
    uint8_t *copy = malloc(sizeof(struct soc_pub));
    enum rpl_status rc;

    ck_assert_ptr_nonnull(copy);
    memcpy(copy, &g->st->p, sizeof(struct soc_pub));
    rc = g_act(g, action);
    ck_assert_msg(rc == want, "\"%s\": expected status %d, got %d (%s)", action,
                  want, rc, g->err.msg);
    /* Refused when applied: the error names the line; refused by
     * action() (its private form): no line yet. */
    if (g->err.line)
        ck_assert_uint_eq(g->err.line, g_no(g) + 1);
    else
        ck_assert_int_eq(want, RPL_E_SYNTAX);
    ck_assert_uint_eq(g->nlines, before);
    /* A refused line changes nothing. */
    ck_assert(memcmp(copy, &g->st->p, sizeof(struct soc_pub)) == 0);
    free(copy);
}

static void
g_init(struct game *g, const char *rules, unsigned seed)
{
    struct rpl__line ln;
    size_t seats = 0;
    char line[128];

    memset(g, 0, sizeof(*g));
    ck_assert_int_eq(rpl_ctx_new(&g->ctx, NULL, &g->err), RPL_OK);
    g->st = calloc(1, sizeof(*g->st));
    ck_assert_ptr_nonnull(g->st);
    for (unsigned i = 0; i < 16; i++)
        g->id[i] = (uint8_t)(0xa0 + i);
    for (unsigned i = 0; i < 32; i++)
        g->seed[i] = (uint8_t)(seed * 31u + i);
    g->env.ctx = g->ctx;
    g->env.id = g->id;
    g->env.seed = g->seed;
    g->env.names = names;
    g->env.warn = no_warn;
    g->penv = g->env;
    g->penv.seed = NULL;
    snprintf(g->rules, sizeof(g->rules), "%s", rules);
    snprintf(line, sizeof(line), "rules %s", rules);
    ck_assert_int_eq(rpl__line_split(&ln, line, strlen(line), 4, &g->err),
                     RPL_OK);
    ck_assert_int_eq(rpl__soc.play->rules(g->st, &ln, &g->env, &seats, &g->err),
                     RPL_OK);
    ck_assert_int_eq(rpl__soc.play->setup(g->st, &g->env, &g->err), RPL_OK);
    g->first_no = 4 + seats + 2;
}

static void
g_free(struct game *g)
{
    free(g->st);
    free(g->lines);
    rpl_ctx_free(g->ctx);
}

/* Deals, lays the pool (each seat its first card) and gives every card
 * back: the game waits for the first player's progression of evil. */
static void
g_start(struct game *g, const char *rules, unsigned seed)
{
    struct soc_pub *p;
    char act[64];

    g_init(g, rules, seed);
    g_drain(g);
    p = &g->st->p;
    for (unsigned k = 1; k <= p->n; k++) {
        unsigned c = 0;

        while (!g->st->h.hand[k][c])
            c++;
        snprintf(act, sizeof(act), "pool p%u %s", k, rpl__soc_card[c].tok);
        g_ok(g, act);
    }
    snprintf(act, sizeof(act), "allot p%u ", p->first);
    for (unsigned k = 1; k <= p->n; k++)
        snprintf(act + strlen(act), sizeof(act) - strlen(act), "%sp%u",
                 k > 1 ? "," : "", k);
    g_ok(g, act);
    ck_assert_int_eq(p->need.kind, SOC_N_EVIL);
}

/* --- setting the board */

/* Removes one `card` from the white deck (ring) into seat k's hand. */
static void
w_from_pile(struct game *g, unsigned k, unsigned card)
{
    struct soc_hid *h = &g->st->h;

    for (unsigned i = 0; i < h->wn; i++) {
        const unsigned at = (h->whead + i) % SOC_NWHITE;

        if (h->wpile[at] != card)
            continue;
        for (unsigned j = i; j + 1 < h->wn; j++)
            h->wpile[(h->whead + j) % SOC_NWHITE] =
                h->wpile[(h->whead + j + 1) % SOC_NWHITE];
        h->wn--;
        g->st->p.wpile_n--;
        h->hand[k][card]++;
        g->st->p.seat[k].hand_n++;
        return;
    }
    if (h->wdisc[card]) {
        h->wdisc[card]--;
        g->st->p.wdisc[card]--;
        h->hand[k][card]++;
        g->st->p.seat[k].hand_n++;
        return;
    }
    for (unsigned j = 1; j <= g->st->p.n; j++)
        if (j != k && h->hand[j][card]) {
            h->hand[j][card]--;
            g->st->p.seat[j].hand_n--;
            h->hand[k][card]++;
            g->st->p.seat[k].hand_n++;
            return;
        }
    ck_abort_msg("no %s left to take", rpl__soc_card[card].tok);
}

/* Seat k's hand becomes exactly the listed cards (comma list). */
static void
hand_set(struct game *g, unsigned k, const char *list)
{
    struct soc_hid *h = &g->st->h;
    uint8_t cards[SOC_MAX_LIST];
    size_t n = 0;

    for (unsigned c = 0; c < SOC_NWT; c++)
        while (h->hand[k][c]) {
            h->wpile[(h->whead + h->wn) % SOC_NWHITE] = (uint8_t)c;
            h->wn++;
            g->st->p.wpile_n++;
            h->hand[k][c]--;
            g->st->p.seat[k].hand_n--;
        }
    if (!*list)
        return;
    ck_assert(rpl__soc_parse_cards(list, strlen(list), cards, SOC_MAX_LIST, &n,
                                   false, SOC_WHITE));
    for (size_t i = 0; i < n; i++)
        w_from_pile(g, k, cards[i]);
}

/* The top of the black deck becomes the listed cards, in order. */
static void
black_top(struct game *g, const char *list)
{
    struct soc_hid *h = &g->st->h;
    uint8_t cards[8];
    size_t n = 0;

    ck_assert(rpl__soc_parse_cards(list, strlen(list), cards, 8, &n, false,
                                   SOC_BLACK));
    for (size_t i = 0; i < n; i++) {
        bool found = false;

        for (unsigned j = (unsigned)i; j < h->bn && !found; j++) {
            const unsigned a = (h->bhead + (unsigned)i) % SOC_NBLACK;
            const unsigned b = (h->bhead + j) % SOC_NBLACK;

            if (h->bpile[b] == cards[i]) {
                const uint8_t t = h->bpile[a];

                h->bpile[a] = h->bpile[b];
                h->bpile[b] = t;
                found = true;
            }
        }
        ck_assert_msg(found, "no %s in the black deck",
                      rpl__soc_card[cards[i]].tok);
    }
}

/* It is seat k's turn, at its progression of evil. */
static void
set_turn(struct game *g, unsigned k)
{
    struct soc_pub *p = &g->st->p;

    ck_assert_int_eq(p->ntask, 0);
    p->cur = (uint8_t)k;
    p->used = p->paid = p->sacrificed = p->owe = p->die_after = 0;
    p->swapped = p->looked = p->turn_over = 0;
    memset(&p->need, 0, sizeof(p->need));
    p->need.kind = SOC_N_EVIL;
    p->need.seat = (uint8_t)k;
}

/* Seat k's heroic phase (after a quiet progression of evil). */
static void
heroic(struct game *g, unsigned k)
{
    char act[32];

    set_turn(g, k);
    g->st->p.siege = g->st->p.siege ? g->st->p.siege : 0;
    snprintf(act, sizeof(act), "evil p%u siege", k);
    g_ok(g, act);
    g->st->p.siege--; /* the engine was only a way in */
    ck_assert_int_eq(g->st->p.need.kind, SOC_N_HEROIC);
}

/* The seat holding a knight. */
static unsigned
seat_of(const struct game *g, unsigned knight)
{
    for (unsigned k = 1; k <= g->st->p.n; k++)
        if (g->st->p.seat[k].knight == knight)
            return k;
    return 0;
}

/* A seed whose deal gives the knight; 7 players deal them all. */
static unsigned
holder(const struct game *g, unsigned knight)
{
    const unsigned k = seat_of(g, knight);

    ck_assert_msg(k, "%s not dealt", rpl__soc_knight[knight].tok);
    return k;
}

/* A seat that is none of the knights listed (by knight id, -1 ends). */
static unsigned
plain_seat(const struct game *g, const int *avoid)
{
    for (unsigned k = 1; k <= g->st->p.n; k++) {
        bool ok = true;

        for (const int *a = avoid; *a >= 0; a++)
            ok &= g->st->p.seat[k].knight != (unsigned)*a;
        if (ok)
            return k;
    }
    ck_abort_msg("no plain seat");
    return 0;
}

static unsigned
plain(const struct game *g)
{
    static const int avoid[] = {
        SOC_ARTHUR,  SOC_GALAHAD, SOC_KAY, SOC_PALAMEDES,
        SOC_TRISTAN, SOC_GAWAIN,  -1};

    return plain_seat(g, avoid);
}

static void actf(struct game *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
actf(struct game *g, const char *fmt, ...)
{
    char act[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(act, sizeof(act), fmt, ap);
    va_end(ap);
    g_ok(g, act);
}

static void refusedf(struct game *g, enum rpl_status want, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
refusedf(struct game *g, enum rpl_status want, const char *fmt, ...)
{
    char act[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(act, sizeof(act), fmt, ap);
    va_end(ap);
    g_refused(g, act, want);
}

static const char *
last_line(const struct game *g, size_t back)
{
    return g->nlines > back ? g->lines[g->nlines - 1 - back].text : "";
}

/* Whether some line from index `from` starts with prefix. */
static bool
saw(const struct game *g, size_t from, const char *prefix)
{
    for (size_t i = from; i < g->nlines; i++)
        if (strncmp(g->lines[i].text, prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

/* Replays the recorded lines on a public state; then the reveal and the
 * opens with the seed.  Returns the first failure. */
static enum rpl_status
public_replay(struct game *g, struct rpl_error *err, bool reveal)
{
    struct soc_state *pub = calloc(1, sizeof(*pub));
    struct rpl__line ln;
    char line[128];
    size_t seats = 0;
    enum rpl_status rc;

    ck_assert_ptr_nonnull(pub);
    snprintf(line, sizeof(line), "rules %s", g->rules);
    rc = rpl__line_split(&ln, line, strlen(line), 4, err);
    if (rc == RPL_OK)
        rc = rpl__soc.play->rules(pub, &ln, &g->penv, &seats, err);
    for (size_t i = 0; rc == RPL_OK && i < g->nlines; i++)
        rc = apply_text(pub, &g->penv, g->lines[i].text, g->first_no + i + 1,
                        err);
    if (rc == RPL_OK && reveal) {
        rc = rpl__soc.play->reveal(pub, &g->env, g_no(g) + 1, err);
        for (size_t i = 0; rc == RPL_OK && rpl__soc.play->opens_left(pub) > 0;
             i++) {
            struct rpl__emit e;

            ck_assert(rpl__soc.play->open_line(g->st, i, &e));
            rc = rpl__line_split(&ln, e.line, strlen(e.line), g_no(g) + 2 + i,
                                 err);
            if (rc == RPL_OK)
                rc = rpl__soc.play->open(pub, &ln, &g->env, err);
        }
        if (rc == RPL_OK)
            ck_assert(pub->p.is_checked);
    }
    free(pub);
    return rc;
}

/* ------------------------------------------------------------- cards */

START_TEST(test_card_totals)
{
    unsigned n[3][2] = {{0}};
    unsigned all = 0;

    for (unsigned c = 0; c < SOC_NCARDS; c++) {
        const struct soc_card *cd = &rpl__soc_card[c];

        n[cd->colour][cd->kind == SOC_SPECIAL] += cd->count;
        all += cd->count;
        ck_assert_uint_eq(cd->colour, c < SOC_B0   ? SOC_WHITE
                                      : c < SOC_L0 ? SOC_BLACK
                                                   : SOC_LOYALTY);
        ck_assert_int_eq(rpl__soc_card_find(cd->tok, strlen(cd->tok)) >= 0, 1);
    }
    ck_assert_uint_eq(n[SOC_WHITE][0] + n[SOC_WHITE][1], 84);
    ck_assert_uint_eq(n[SOC_WHITE][0], 69);
    ck_assert_uint_eq(n[SOC_WHITE][1], 15);
    ck_assert_uint_eq(n[SOC_BLACK][0] + n[SOC_BLACK][1], 76);
    ck_assert_uint_eq(n[SOC_BLACK][0], 64);
    ck_assert_uint_eq(n[SOC_BLACK][1], 12);
    ck_assert_uint_eq(n[SOC_LOYALTY][0], 8);
    ck_assert_uint_eq(all, 168);
    ck_assert_uint_eq(SOC_NWHITE + SOC_NBLACK + SOC_NLOYALTY, 168);
}
END_TEST

/* The TSV's quest column as a location mask. */
static unsigned
tsv_quests(const char *s)
{
    unsigned m = 0;

    while (*s) {
        const char *e = strchr(s, '|');
        const size_t n = e ? (size_t)(e - s) : strlen(s);
        const int l = rpl__soc_loc_find(s, n);

        ck_assert_msg(l >= 0, "unknown quest in the TSV: %.*s", (int)n, s);
        m |= 1u << l;
        s += n + (e ? 1 : 0);
    }
    return m;
}

/* The card table of the rules (a copy in tests/data/, so that the suite
 * reads only the project's own files). */
static FILE *
open_tsv(char *path, size_t cap)
{
    const char *srcdir = getenv("SRCDIR");

    snprintf(path, cap, "%s/tests/data/soc-cards.tsv", srcdir ? srcdir : ".");
    return fopen(path, "r");
}

START_TEST(test_card_table_tsv)
{
    char path[512];
    char row[1024];
    FILE *f = open_tsv(path, sizeof(path));
    unsigned rows = 0;
    bool seen[SOC_NCARDS] = {false};

    ck_assert_msg(f, "cannot read %s (set SRCDIR to the sources)", path);
    ck_assert(fgets(row, sizeof(row), f));
    ck_assert(strncmp(row, "id\tcolour\tkind\tname_en", 22) == 0);
    while (fgets(row, sizeof(row), f)) {
        char *field[9];
        char *s = row;
        unsigned nf = 0;
        const struct soc_card *cd = NULL;
        unsigned v1 = 0, v2 = 0;

        row[strcspn(row, "\r\n")] = '\0';
        if (!row[0])
            continue;
        while (nf < 9) {
            field[nf++] = s;
            s = strchr(s, '\t');
            if (!s)
                break;
            *s++ = '\0';
        }
        ck_assert_uint_eq(nf, 9);
        for (unsigned c = 0; c < SOC_NCARDS; c++)
            if (strcmp(rpl__soc_card[c].id, field[0]) == 0) {
                cd = &rpl__soc_card[c];
                ck_assert(!seen[c]);
                seen[c] = true;
            }
        ck_assert_msg(cd, "%s is not in the card table", field[0]);
        ck_assert_str_eq(field[1], cd->colour == SOC_WHITE   ? "white"
                                   : cd->colour == SOC_BLACK ? "black"
                                                             : "loyalty");
        ck_assert_str_eq(field[2], cd->kind == SOC_STANDARD  ? "standard"
                                   : cd->kind == SOC_SPECIAL ? "special"
                                                             : "none");
        ck_assert_str_eq(field[3], cd->name);
        ck_assert_uint_eq((unsigned)atoi(field[5]), cd->count);
        ck_assert_uint_eq(tsv_quests(field[6]), cd->quests);
        if (field[7][0] && sscanf(field[7], "%u/%u", &v1, &v2) < 1)
            ck_abort_msg("bad value %s", field[7]);
        ck_assert_uint_eq(v1, cd->value);
        ck_assert_uint_eq(v2, cd->value2);
        /* The token is the id without its colour prefix. */
        ck_assert_str_eq(cd->tok, field[0] + 2);
        rows++;
    }
    fclose(f);
    ck_assert_uint_eq(rows, SOC_NCARDS);
}
END_TEST

START_TEST(test_card_lists)
{
    uint8_t c[8];
    size_t n = 0;
    char out[128];

    ck_assert(rpl__soc_parse_cards("fight_1,fight_1,grail", 21, c, 8, &n, true,
                                   SOC_WHITE));
    ck_assert_uint_eq(n, 3);
    rpl__soc_fmt_cards(out, sizeof(out), c, n);
    ck_assert_str_eq(out, "fight_1,fight_1,grail");
    /* Table order is required where sorted, and colours do not mix. */
    ck_assert(
        !rpl__soc_parse_cards("grail,fight_1", 13, c, 8, &n, true, SOC_WHITE));
    ck_assert(!rpl__soc_parse_cards("despair", 7, c, 8, &n, true, SOC_WHITE));
    ck_assert(rpl__soc_parse_cards("grail", 5, c, 8, &n, true, SOC_WHITE));
    ck_assert_uint_eq(c[0], SOC_GRAIL_CARD);
    ck_assert(!rpl__soc_parse_cards("grail", 5, c, 8, &n, true, SOC_BLACK));
    ck_assert(!rpl__soc_parse_cards("fight_1,", 8, c, 8, &n, true, SOC_WHITE));
    ck_assert(!rpl__soc_parse_cards("", 0, c, 8, &n, true, SOC_WHITE));
    /* Quests and knights. */
    for (unsigned q = 0; q < SOC_NLOC; q++)
        ck_assert_int_eq(rpl__soc_loc_find(rpl__soc_quest[q].tok,
                                           strlen(rpl__soc_quest[q].tok)),
                         (int)q);
    ck_assert_uint_eq(rpl__soc_quest[SOC_GRAIL].win_swords, 3);
    ck_assert_uint_eq(rpl__soc_quest[SOC_PICTS].lose_engines, 2);
    ck_assert_uint_eq(rpl__soc_quest[SOC_BLACK_KNIGHT].win_cards, 3);
}
END_TEST

/* ------------------------------------------------------ more helpers */

/* n copies of a white card from the deck to the table. */
static void
table_white(struct game *g, unsigned card, unsigned n, unsigned via)
{
    for (unsigned i = 0; i < n; i++) {
        w_from_pile(g, via, card);
        g->st->h.hand[via][card]--;
        g->st->p.seat[via].hand_n--;
        g->st->p.wtable[card]++;
    }
}

/* One black card from the deck to the table. */
static void
table_black(struct game *g, unsigned card)
{
    struct soc_hid *h = &g->st->h;

    black_top(g, rpl__soc_card[card].tok);
    h->bhead = (uint8_t)((h->bhead + 1u) % SOC_NBLACK);
    h->bn--;
    g->st->p.bpile[card - SOC_B0]--;
    g->st->p.bpile_n--;
    g->st->p.btable[card - SOC_B0]++;
}

static void
evil_black(struct game *g, unsigned k, const char *top)
{
    set_turn(g, k);
    if (top)
        black_top(g, top);
    actf(g, "evil p%u black", k);
}

static void
at(struct game *g, unsigned k, unsigned loc)
{
    g->st->p.seat[k].loc = (uint8_t)loc;
}

/* Every card accounted for: the hidden half's decks, discards and hands
 * and the public table make each card's count, and the public counts
 * agree with the hidden half. */
static void
check_cards(const struct soc_state *st)
{
    const struct soc_pub *p = &st->p;
    const struct soc_hid *h = &st->h;
    unsigned cnt[SOC_NCARDS] = {0};
    unsigned wd = p->wdisc_unknown, hd = 0;

    for (unsigned i = 0; i < h->wn; i++)
        cnt[h->wpile[(h->whead + i) % SOC_NWHITE]]++;
    for (unsigned i = 0; i < h->bn; i++)
        cnt[h->bpile[(h->bhead + i) % SOC_NBLACK]]++;
    for (unsigned c = 0; c < SOC_NWT; c++) {
        cnt[c] += h->wdisc[c] + p->wtable[c];
        for (unsigned k = 1; k <= p->n; k++)
            cnt[c] += h->hand[k][c];
        wd += p->wdisc[c];
        hd += h->wdisc[c];
    }
    for (unsigned c = 0; c < SOC_NBT; c++) {
        cnt[SOC_B0 + c] += h->bdisc[c] + p->btable[c];
        REQUIRE(p->bdisc[c] == h->bdisc[c], "black discards of %s",
                rpl__soc_card[SOC_B0 + c].tok);
    }
    for (unsigned c = 0; c < SOC_L0; c++)
        REQUIRE(cnt[c] == rpl__soc_card[c].count, "%s: %u of %u",
                rpl__soc_card[c].tok, cnt[c], rpl__soc_card[c].count);
    REQUIRE(p->wpile_n == h->wn, "white deck: %u public, %u hidden", p->wpile_n,
            h->wn);
    REQUIRE(p->bpile_n == h->bn, "black deck: %u public, %u hidden", p->bpile_n,
            h->bn);
    REQUIRE(wd == hd, "white discards: %u public, %u hidden", wd, hd);
    for (unsigned k = 1; k <= p->n; k++) {
        unsigned n = 0;

        for (unsigned c = 0; c < SOC_NWT; c++)
            n += h->hand[k][c];
        REQUIRE(n == p->seat[k].hand_n, "hand of p%u: %u cards, %u public", k,
                n, p->seat[k].hand_n);
    }
    REQUIRE(p->swords_w + p->swords_b <= 16, "more than 16 swords");
    REQUIRE(p->siege <= 12, "more than 12 siege engines");
}

/* ------------------------------------------------------------ quests */

START_TEST(test_black_knight_won)
{
    struct game g;
    unsigned k;
    size_t mark;

    g_start(&g, "players=7 traitor=on brave=off", 1);
    k = plain(&g);
    hand_set(&g, k, "fight_2,fight_2,fight_4,fight_4");
    at(&g, k, SOC_BLACK_KNIGHT);
    g.st->p.seat[k].lp = 3;
    evil_black(&g, k, "black_knight_5");
    ck_assert_uint_eq(g.st->p.bk.nblack, 1);
    actf(&g, "play p%u fight_2", k);
    heroic(&g, k);
    actf(&g, "play p%u fight_2", k);
    heroic(&g, k);
    actf(&g, "play p%u fight_4", k);
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "play p%u fight_4", k);
    ck_assert(saw(&g, mark, "quest black_knight won swords=1"));
    ck_assert(saw(&g, mark, "white p"));
    ck_assert_uint_eq(g.st->p.swords_w, 1);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 4);
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 3);
    ck_assert_uint_eq(g.st->p.seat[k].loc, SOC_CAMELOT);
    ck_assert_uint_eq(g.st->p.bk.nwhite + g.st->p.bk.nblack, 0);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_black_knight_pattern)
{
    struct game g;
    unsigned k;
    size_t mark;

    g_start(&g, "players=7 traitor=on brave=off", 2);
    k = plain(&g);
    hand_set(&g, k, "fight_2,fight_2,fight_3,fight_3,fight_3,fight_4");
    at(&g, k, SOC_BLACK_KNIGHT);
    heroic(&g, k);
    actf(&g, "play p%u fight_3", k);
    heroic(&g, k);
    actf(&g, "play p%u fight_3", k);
    heroic(&g, k);
    /* Two pairs of different values: no third 3, no third value. */
    refusedf(&g, RPL_E_RULES, "play p%u fight_3", k);
    actf(&g, "play p%u fight_2", k);
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "play p%u fight_4", k);
    mark = g.nlines;
    actf(&g, "play p%u fight_2", k);
    ck_assert(saw(&g, mark, "quest black_knight won swords=1"));
    g_free(&g);
}
END_TEST

START_TEST(test_black_knight_lost_tie)
{
    struct game g;
    unsigned k;
    size_t mark;

    g_start(&g, "players=7 traitor=on brave=off", 3);
    k = plain(&g);
    hand_set(&g, k, "fight_2,fight_2,fight_4");
    at(&g, k, SOC_BLACK_KNIGHT);
    for (unsigned i = 0; i < 3; i++) {
        heroic(&g, k);
        actf(&g, "play p%u %s", k, i < 2 ? "fight_2" : "fight_4");
    }
    evil_black(&g, k, "black_knight_1");
    evil_black(&g, k, "black_knight_1");
    evil_black(&g, k, "black_knight_3");
    mark = g.nlines;
    /* The fourth black card ends the combat: 8 against 8, evil wins. */
    evil_black(&g, k, "black_knight_3");
    ck_assert(saw(&g, mark, "quest black_knight lost swords=1"));
    ck_assert_uint_eq(g.st->p.swords_b, 1);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 3);
    ck_assert_uint_eq(g.st->p.seat[k].loc, SOC_CAMELOT);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_lancelot_won)
{
    struct game g;
    unsigned k;
    size_t mark;
    char want[64];

    g_start(&g, "players=7 traitor=on brave=off", 4);
    k = plain(&g);
    hand_set(&g, k, "fight_1,fight_3,fight_3,fight_3,fight_3,fight_5,fight_5");
    at(&g, k, SOC_LANCELOT);
    for (unsigned i = 0; i < 3; i++) {
        heroic(&g, k);
        actf(&g, "play p%u fight_3", k);
    }
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "play p%u fight_3", k); /* four of a kind */
    actf(&g, "play p%u fight_5", k);
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "play p%u fight_1", k); /* third value */
    mark = g.nlines;
    actf(&g, "play p%u fight_5", k);
    snprintf(want, sizeof(want), "quest lancelot won swords=1 relic=p%u", k);
    ck_assert(saw(&g, mark, want));
    ck_assert_uint_eq(g.st->p.relic[SOC_ARMOR], k);
    ck_assert_uint_eq(g.st->p.ld_stage, 1); /* the Dragon now */
    ck_assert_uint_eq(g.st->p.seat[k].lp, 5);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_lancelot_lost)
{
    struct game g;
    unsigned k;
    size_t mark = 0;
    static const char *const draws[] = {
        "lancelot_dragon_7_11", "lancelot_dragon_5_9", "lancelot_dragon_5_9",
        "lancelot_dragon_3_7", "lancelot_dragon_1_5"};

    g_start(&g, "players=7 traitor=on brave=off", 5);
    k = plain(&g);
    hand_set(&g, k, "fight_5,fight_5");
    at(&g, k, SOC_LANCELOT);
    heroic(&g, k);
    actf(&g, "play p%u fight_5", k);
    heroic(&g, k);
    actf(&g, "play p%u fight_5", k);
    for (unsigned i = 0; i < 5; i++) {
        mark = g.nlines;
        evil_black(&g, k, draws[i]);
    }
    /* 10 against 7+5+5+3+1. */
    ck_assert(saw(&g, mark, "quest lancelot lost swords=1"));
    ck_assert_uint_eq(g.st->p.relic[SOC_ARMOR], SOC_RELIC_BOX);
    ck_assert_uint_eq(g.st->p.ld_stage, 1);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 3);
    ck_assert_uint_eq(g.st->p.swords_b, 1);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_dragon_won)
{
    struct game g;
    unsigned k, j;
    size_t mark;
    static const char *const plays[] = {"fight_1", "fight_1", "fight_1",
                                        "fight_2", "fight_2", "fight_2",
                                        "fight_3", "fight_3", "fight_3"};
    char share[64];

    g_start(&g, "players=7 traitor=on brave=off", 6);
    k = plain(&g);
    j = soc_next(&g.st->p, k);
    while (g.st->p.seat[j].knight == SOC_PALAMEDES ||
           g.st->p.seat[j].knight == SOC_KAY)
        j = soc_next(&g.st->p, j);
    g.st->p.ld_stage = 1;
    hand_set(&g, k,
             "fight_1,fight_1,fight_1,fight_1,fight_2,fight_2,fight_2,"
             "fight_3,fight_3,fight_3,fight_4");
    at(&g, k, SOC_DRAGON);
    at(&g, j, SOC_DRAGON);
    g.st->p.seat[j].lp = 2;
    for (unsigned i = 0; i < 8; i++) {
        heroic(&g, k);
        if (i == 3)
            refusedf(&g, RPL_E_RULES, "play p%u fight_1", k); /* a fourth */
        if (i == 7)
            refusedf(&g, RPL_E_RULES, "play p%u fight_4", k); /* 4 values */
        actf(&g, "play p%u %s", k, plays[i]);
    }
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "play p%u %s", k, plays[8]);
    ck_assert(saw(&g, mark, "quest dragon won swords=2"));
    /* Two knights present share the 7 cards. */
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_SHARE);
    ck_assert_uint_eq(g.st->p.need.seat, k);
    snprintf(share, sizeof(share), "share p%u p%u=4 p%u=3", k, k, j);
    g_ok(&g, share);
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 2 + 4);
    ck_assert_uint_eq(g.st->p.seat[j].lp, 4);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 6);
    ck_assert_uint_eq(g.st->p.ld_stage, 2);
    ck_assert(!rpl__soc_loc_open(&g.st->p, SOC_DRAGON));
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_dragon_lost)
{
    struct game g;
    unsigned k;
    size_t mark = 0;

    g_start(&g, "players=7 traitor=on brave=off", 7);
    k = plain(&g);
    g.st->p.ld_stage = 1;
    at(&g, k, SOC_DRAGON);
    for (unsigned i = 0; i < 5; i++) {
        mark = g.nlines;
        evil_black(&g, k, "lancelot_dragon_1_5");
        if (i < 3)
            ck_assert_uint_eq(g.st->p.ld.nblack, i + 1);
        if (i == 3)
            break;
    }
    evil_black(&g, k, "lancelot_dragon_3_7");
    ck_assert(saw(&g, mark, "quest dragon lost swords=2"));
    ck_assert_uint_eq(g.st->p.swords_b, 2);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 2);
    /* Lancelot/Dragon cards now bring siege engines. */
    evil_black(&g, k, "lancelot_dragon_5_9");
    ck_assert_uint_eq(g.st->p.siege, 1);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_excalibur)
{
    struct game g;
    unsigned k;
    size_t mark;
    char want[64];

    g_start(&g, "players=7 traitor=on brave=off", 8);
    k = plain(&g);
    hand_set(&g, k, "fight_1,grail,piety");
    at(&g, k, SOC_EXCALIBUR);
    heroic(&g, k);
    actf(&g, "play p%u grail", k); /* any white card */
    ck_assert_uint_eq(g.st->p.exc_pos, 6);
    evil_black(&g, k, "excalibur");
    ck_assert_uint_eq(g.st->p.exc_pos, 5);
    g.st->p.exc_pos = 9;
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "play p%u piety", k);
    snprintf(want, sizeof(want), "quest excalibur won swords=2 relic=p%u", k);
    ck_assert(saw(&g, mark, want));
    ck_assert_uint_eq(g.st->p.relic[SOC_REL_EXCALIBUR], k);
    ck_assert_uint_eq(g.st->p.exc_state, 1);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 5);
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 1 + 7);
    /* Excalibur cards now bring siege engines; the relic's holder may
     * cancel a standard black card first. */
    evil_black(&g, k, "excalibur");
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_CANCEL);
    actf(&g, "pass p%u", k);
    ck_assert_uint_eq(g.st->p.siege, 1);
    check_cards(g.st);
    g_free(&g);

    g_start(&g, "players=7 traitor=on brave=off", 9);
    k = plain(&g);
    at(&g, k, SOC_EXCALIBUR);
    g.st->p.exc_pos = 1;
    mark = g.nlines;
    evil_black(&g, k, "excalibur");
    ck_assert(saw(&g, mark, "quest excalibur lost swords=2"));
    ck_assert_uint_eq(g.st->p.relic[SOC_REL_EXCALIBUR], SOC_RELIC_BOX);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 3);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_grail)
{
    struct game g;
    unsigned k;
    size_t mark;
    char want[64];

    /* Won: the seventh Grail card. */
    g_start(&g, "players=7 traitor=on brave=off", 10);
    k = plain(&g);
    table_white(&g, SOC_GRAIL_CARD, 6, k);
    for (unsigned i = 0; i < 6; i++)
        g.st->p.grail[i] = SOC_GRAIL_CARD;
    hand_set(&g, k, "grail");
    at(&g, k, SOC_GRAIL);
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "play p%u grail", k);
    snprintf(want, sizeof(want), "quest grail won swords=3 relic=p%u", k);
    ck_assert(saw(&g, mark, want));
    ck_assert_uint_eq(g.st->p.grail_state, 1);
    check_cards(g.st);
    g_free(&g);

    /* Lost: the seventh black card. */
    g_start(&g, "players=7 traitor=on brave=off", 11);
    k = plain(&g);
    for (unsigned i = 1; i < 7; i++) {
        table_black(&g, SOC_DESPAIR);
        g.st->p.grail[i] = SOC_DESPAIR;
    }
    at(&g, k, SOC_GRAIL);
    mark = g.nlines;
    evil_black(&g, k, "despair");
    ck_assert(saw(&g, mark, "quest grail lost swords=3"));
    ck_assert_uint_eq(g.st->p.relic[SOC_REL_GRAIL], SOC_RELIC_BOX);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 3);
    check_cards(g.st);
    g_free(&g);

    /* A full board: a Grail card removes the nearest black card. */
    g_start(&g, "players=7 traitor=on brave=off", 12);
    k = plain(&g);
    table_white(&g, SOC_GRAIL_CARD, 4, k);
    for (unsigned i = 0; i < 4; i++)
        g.st->p.grail[i] = SOC_GRAIL_CARD;
    for (unsigned i = 4; i < 7; i++) {
        table_black(&g, SOC_DESPAIR);
        g.st->p.grail[i] = SOC_DESPAIR;
    }
    hand_set(&g, k, "fight_1,grail");
    at(&g, k, SOC_GRAIL);
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "play p%u fight_1", k);
    actf(&g, "play p%u grail", k);
    ck_assert_uint_eq(g.st->p.grail[4], SOC_NCARDS);
    ck_assert_uint_eq(g.st->p.grail[5], SOC_DESPAIR);
    ck_assert_uint_eq(g.st->p.grail_state, 0);
    /* Despair on a free spot from evil's end, then a full board again:
     * a Despair removes the most advanced Grail card. */
    evil_black(&g, k, "despair");
    ck_assert_uint_eq(g.st->p.grail[4], SOC_DESPAIR);
    evil_black(&g, k, "despair");
    ck_assert_uint_eq(g.st->p.grail[3], SOC_NCARDS);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_wars)
{
    struct game g;
    unsigned k;
    size_t mark;

    /* Picts won: 1-2-3-4-5 in order. */
    g_start(&g, "players=7 traitor=on brave=off", 13);
    k = plain(&g);
    hand_set(&g, k, "fight_1,fight_2,fight_3,fight_3,fight_4,fight_5");
    at(&g, k, SOC_PICTS);
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "play p%u fight_3", k);
    for (unsigned v = 1; v <= 5; v++) {
        if (v > 1)
            heroic(&g, k);
        mark = g.nlines;
        actf(&g, "play p%u fight_%u", k, v);
    }
    ck_assert(saw(&g, mark, "quest picts won swords=1"));
    ck_assert_uint_eq(g.st->p.seat[k].lp, 5);
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 1 + 4);
    ck_assert_uint_eq(g.st->p.war[0].nwhite, 0);
    check_cards(g.st);
    g_free(&g);

    /* Saxons lost: the fourth figure; 1 black sword and 2 engines. */
    g_start(&g, "players=7 traitor=on brave=off", 14);
    k = plain(&g);
    at(&g, k, SOC_SAXONS);
    evil_black(&g, k, "saxons");
    evil_black(&g, k, "saxons");
    evil_black(&g, k, "mercenaries");
    actf(&g, "war p%u saxons", k);
    ck_assert_uint_eq(g.st->p.war[1].figures, 3);
    mark = g.nlines;
    evil_black(&g, k, "saxons");
    ck_assert(saw(&g, mark, "quest saxons lost swords=1"));
    ck_assert_uint_eq(g.st->p.siege, 2);
    ck_assert_uint_eq(g.st->p.swords_b, 1);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 3);
    ck_assert_uint_eq(g.st->p.war[1].figures, 0);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_mordred)
{
    struct game g;
    unsigned k;
    size_t mark;

    g_start(&g, "players=7 traitor=on brave=off", 15);
    k = plain(&g);
    hand_set(&g, k, "fight_1,fight_2,fight_3,fight_4,fight_5,fight_5");
    at(&g, k, SOC_PICTS);
    evil_black(&g, k, "mordred");
    if (g.st->p.need.kind == SOC_N_CANCEL)
        actf(&g, "pass p%u", k);
    actf(&g, "war p%u picts", k);
    ck_assert_uint_eq(g.st->p.war[0].mordred, 1);
    ck_assert_uint_eq(g.st->p.war[0].figures, 1);
    actf(&g, "play p%u fight_1", k);
    for (unsigned v = 2; v <= 5; v++) {
        heroic(&g, k);
        actf(&g, "play p%u fight_%u", k, v);
    }
    /* Mordred asks for a second 5. */
    ck_assert_uint_eq(g.st->p.war[0].nwhite, 5);
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "play p%u fight_5", k);
    ck_assert(saw(&g, mark, "quest picts won swords=1"));
    ck_assert_uint_eq(g.st->p.war[0].mordred, 0);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_arthur)
{
    struct game g;
    unsigned a, t;
    unsigned before_a, before_t;

    g_start(&g, "players=7 traitor=on brave=off", 20);
    a = holder(&g, SOC_ARTHUR);
    t = soc_next(&g.st->p, a);
    hand_set(&g, a, "fight_1,grail");
    hand_set(&g, t, "fight_5");
    set_turn(&g, a);
    before_a = g.st->p.seat[a].hand_n;
    before_t = g.st->p.seat[t].hand_n;
    /* Not an action: during the progression of evil, face down. */
    actf(&g, "swap p%u p%u grail", a, t);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_SWAP_BACK);
    ck_assert_uint_eq(g.st->p.need.seat, t);
    ck_assert(strncmp(last_line(&g, 0), "swap p", 6) == 0);
    actf(&g, "swap p%u fight_5", t);
    ck_assert_uint_eq(g.st->h.hand[a][SOC_FIGHT5], 1);
    ck_assert_uint_eq(g.st->h.hand[t][SOC_GRAIL_CARD], 1);
    ck_assert_uint_eq(g.st->p.seat[a].hand_n, before_a);
    ck_assert_uint_eq(g.st->p.seat[t].hand_n, before_t);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_EVIL);
    /* Once per turn; a card he does not hold is refused. */
    refusedf(&g, RPL_E_RULES, "swap p%u p%u fight_5", a, t);
    set_turn(&g, a);
    refusedf(&g, RPL_E_RULES, "swap p%u p%u merlin", a, t);
    /* Only Arthur exchanges. */
    set_turn(&g, t);
    refusedf(&g, RPL_E_RULES, "swap p%u p%u grail", t, a);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_galahad)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 21);
    k = holder(&g, SOC_GALAHAD);
    hand_set(&g, k, "piety,lady_of_the_lake,fight_1");
    g.st->p.seat[k].lp = 2;
    heroic(&g, k);
    /* The special card is free: the draw that follows is his action. */
    actf(&g, "special p%u piety self", k);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 5);
    ck_assert_uint_eq(g.st->p.paid, 0);
    actf(&g, "draw p%u", k);
    ck_assert_uint_eq(g.st->p.paid, 1);
    /* One special card per turn, free or not. */
    refusedf(&g, RPL_E_RULES, "special p%u lady_of_the_lake", k);
    /* Another knight pays for his special card. */
    k = plain(&g);
    hand_set(&g, k, "piety");
    heroic(&g, k);
    actf(&g, "special p%u piety others", k);
    refusedf(&g, RPL_E_RULES, "draw p%u", k);
    g_free(&g);
}
END_TEST

START_TEST(test_gawain)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 22);
    k = holder(&g, SOC_GAWAIN);
    heroic(&g, k);
    actf(&g, "draw p%u", k);
    ck_assert(strncmp(last_line(&g, 0), "white p", 7) == 0);
    ck_assert(strstr(last_line(&g, 0), " 3 "));
    /* Not at 12 cards or more. */
    k = plain(&g);
    hand_set(&g, k,
             "fight_1,fight_1,fight_1,fight_1,fight_1,fight_1,fight_2,"
             "fight_2,fight_2,fight_2,fight_2,fight_2");
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "draw p%u", k);
    g_free(&g);
}
END_TEST

START_TEST(test_kay)
{
    struct game g;
    unsigned k;
    size_t mark;

    /* 1+1+2+2 = 6 against the Black Knight's 7: Kay's 3 wins it. */
    for (int use = 1; use >= 0; use--) {
        g_start(&g, "players=7 traitor=on brave=off", 23);
        k = holder(&g, SOC_KAY);
        hand_set(&g, k, "fight_1,fight_1,fight_2,fight_2,fight_3");
        at(&g, k, SOC_BLACK_KNIGHT);
        evil_black(&g, k, "black_knight_7");
        actf(&g, "play p%u fight_1", k);
        heroic(&g, k);
        actf(&g, "play p%u fight_1", k);
        heroic(&g, k);
        actf(&g, "play p%u fight_2", k);
        heroic(&g, k);
        actf(&g, "play p%u fight_2", k);
        ck_assert_int_eq(g.st->p.need.kind, SOC_N_KAY);
        mark = g.nlines;
        if (use)
            actf(&g, "kay p%u fight_3", k);
        else
            actf(&g, "pass p%u", k);
        ck_assert(
            saw(&g, mark,
                use ? "quest black_knight won" : "quest black_knight lost"));
        check_cards(g.st);
        g_free(&g);
    }
}
END_TEST

START_TEST(test_palamedes)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 24);
    k = holder(&g, SOC_PALAMEDES);
    hand_set(&g, k, "fight_1,fight_2,fight_3,fight_4,fight_5");
    at(&g, k, SOC_PICTS);
    g.st->p.seat[k].lp = 3;
    for (unsigned v = 1; v <= 5; v++) {
        heroic(&g, k);
        actf(&g, "play p%u fight_%u", k, v);
    }
    ck_assert_uint_eq(g.st->p.swords_w, 1);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 5); /* 1 + 1 */
    g_free(&g);
}
END_TEST

START_TEST(test_percival)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 25);
    k = holder(&g, SOC_PERCIVAL);
    set_turn(&g, k);
    black_top(&g, "vivien");
    actf(&g, "look p%u", k);
    ck_assert(strncmp(last_line(&g, 0), "top p", 5) == 0);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_EVIL);
    refusedf(&g, RPL_E_RULES, "look p%u", k); /* once */
    actf(&g, "evil p%u siege", k);
    ck_assert_uint_eq(g.st->p.bpile[SOC_VIVIEN - SOC_B0], 1);
    /* Nobody else looks. */
    k = plain_seat(&g, (const int[]){SOC_PERCIVAL, -1});
    set_turn(&g, k);
    refusedf(&g, RPL_E_RULES, "look p%u", k);
    g_free(&g);
}
END_TEST

START_TEST(test_tristan)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 26);
    k = holder(&g, SOC_TRISTAN);
    hand_set(&g, k, "fight_1");
    heroic(&g, k);
    /* Leaving Camelot is free, and still his move of the turn. */
    actf(&g, "move p%u picts", k);
    ck_assert_uint_eq(g.st->p.paid, 0);
    actf(&g, "play p%u fight_1", k);
    refusedf(&g, RPL_E_RULES, "move p%u camelot", k);
    /* Any other knight: moving is his action. */
    k = plain(&g);
    hand_set(&g, k, "fight_1");
    heroic(&g, k);
    actf(&g, "move p%u saxons", k);
    refusedf(&g, RPL_E_RULES, "play p%u fight_1", k);
    /* A life point buys one more action, of another type. */
    actf(&g, "sacrifice p%u", k);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 3);
    refusedf(&g, RPL_E_RULES, "move p%u camelot", k);
    actf(&g, "play p%u fight_1", k);
    refusedf(&g, RPL_E_RULES, "sacrifice p%u", k);
    actf(&g, "done p%u", k);
    g_free(&g);
}
END_TEST

START_TEST(test_merlin)
{
    struct game g;
    unsigned k, seats[3];

    g_start(&g, "players=7 traitor=on brave=off", 30);
    k = plain(&g);
    hand_set(&g, k, "merlin,merlin");
    /* One Merlin cancels the last standard black card of a quest. */
    evil_black(&g, k, "black_knight_7");
    ck_assert_uint_eq(g.st->p.bk.nblack, 1);
    actf(&g, "special p%u merlin black_knight", k);
    ck_assert_uint_eq(g.st->p.bk.nblack, 0);
    /* ... or a siege engine; nothing to cancel is refused. */
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "special p%u merlin camelot", k);
    g.st->p.siege = 2;
    actf(&g, "special p%u merlin camelot", k);
    ck_assert_uint_eq(g.st->p.siege, 1);
    g_free(&g);

    /* Three Merlins, from several knights, cancel a special card. */
    g_start(&g, "players=7 traitor=on brave=off", 31);
    k = plain(&g);
    seats[0] = k;
    seats[1] = soc_next(&g.st->p, k);
    seats[2] = soc_next(&g.st->p, seats[1]);
    hand_set(&g, seats[0], "merlin");
    hand_set(&g, seats[1], "merlin,merlin");
    hand_set(&g, seats[2], "fight_1");
    evil_black(&g, k, "morgan_siege");
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_CANCEL);
    refusedf(&g, RPL_E_RULES, "cancel p%u merlin p%u,p%u,p%u", k, seats[0],
             seats[1], seats[2]);
    {
        unsigned a = seats[0] < seats[1] ? seats[0] : seats[1];
        unsigned b = seats[0] < seats[1] ? seats[1] : seats[0];
        char list[32];

        if (b == seats[1])
            snprintf(list, sizeof(list), "p%u,p%u,p%u", a, b, b);
        else
            snprintf(list, sizeof(list), "p%u,p%u,p%u", a, a, b);
        actf(&g, "cancel p%u merlin %s", k, list);
    }
    ck_assert_uint_eq(g.st->p.siege, 0);
    ck_assert_uint_eq(g.st->p.seat[seats[1]].hand_n, 0);
    ck_assert_uint_eq(g.st->p.bdisc[SOC_MORGAN_SIEGE - SOC_B0], 1);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_HEROIC);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

/* "pA,pB,pC" sorted, as a cancel line lists them. */
static void
seats3(char *out, size_t cap, unsigned a, unsigned b, unsigned c)
{
    unsigned v[3] = {a, b, c};

    for (unsigned i = 0; i < 3; i++)
        for (unsigned j = i + 1; j < 3; j++)
            if (v[j] < v[i]) {
                const unsigned t = v[i];

                v[i] = v[j];
                v[j] = t;
            }
    snprintf(out, cap, "p%u,p%u,p%u", v[0], v[1], v[2]);
}

/* own=on (S-41): each knight offers his own Merlins, in turn order from
 * the drawer, and the turn's knight has the last word; a line written
 * for another knight is refused at that line. */
START_TEST(test_own_merlins)
{
    struct game g;
    unsigned k, a, b, c;
    char list[32];

    for (int veto = 0; veto < 2; veto++) {
        g_start(&g, "players=5 traitor=on brave=off own=on", 31);
        k = plain(&g);
        a = soc_next(&g.st->p, k);
        b = soc_next(&g.st->p, a);
        c = soc_next(&g.st->p, b);
        hand_set(&g, k, "fight_1");
        hand_set(&g, a, "merlin");
        hand_set(&g, b, "merlin,merlin");
        hand_set(&g, c, "merlin");
        evil_black(&g, k, "morgan_siege");
        ck_assert_int_eq(g.st->p.need.kind, SOC_N_MERLINS);
        ck_assert_uint_eq(g.st->p.need.seat, k);
        /* The one-seat table lines of own=off are refused. */
        refusedf(&g, RPL_E_RULES, "pass p%u", k);
        seats3(list, sizeof(list), a, b, b);
        refusedf(&g, RPL_E_RULES, "cancel p%u merlin %s", k, list);
        /* Another knight's offer, and Merlins k does not hold. */
        refusedf(&g, RPL_E_RULES, "merlins p%u 1", a);
        refusedf(&g, RPL_E_RULES, "merlins p%u 1", k);
        actf(&g, "merlins p%u 0", k);
        actf(&g, "merlins p%u 1", a);
        refusedf(&g, RPL_E_RULES, "merlins p%u 3", b);
        actf(&g, "merlins p%u 2", b);
        /* Three offered: c is not asked; the last word is k's. */
        ck_assert_int_eq(g.st->p.need.kind, SOC_N_CANCEL);
        ck_assert_uint_eq(g.st->p.need.seat, k);
        refusedf(&g, RPL_E_RULES, "pass p%u", a);
        seats3(list, sizeof(list), a, c, b);
        refusedf(&g, RPL_E_RULES, "cancel p%u merlin %s", k, list);
        seats3(list, sizeof(list), a, b, b);
        refusedf(&g, RPL_E_RULES, "cancel p%u merlin %s", b, list);
        if (veto) {
            actf(&g, "pass p%u", k);
            ck_assert_uint_eq(g.st->p.siege, 2);
            ck_assert_uint_eq(g.st->p.seat[b].hand_n, 2);
        } else {
            actf(&g, "cancel p%u merlin %s", k, list);
            ck_assert_uint_eq(g.st->p.siege, 0);
            ck_assert_uint_eq(g.st->p.seat[a].hand_n, 0);
            ck_assert_uint_eq(g.st->p.seat[b].hand_n, 0);
            ck_assert_uint_eq(g.st->p.seat[c].hand_n, 1);
        }
        ck_assert_int_eq(g.st->p.need.kind, SOC_N_HEROIC);
        check_cards(g.st);
        g_free(&g);
    }

    /* Fewer than three offered: the card takes effect, no last word. */
    g_start(&g, "players=5 traitor=on brave=off own=on", 31);
    k = plain(&g);
    a = soc_next(&g.st->p, k);
    hand_set(&g, a, "merlin");
    evil_black(&g, k, "morgan_siege");
    while (g.st->p.need.kind == SOC_N_MERLINS)
        actf(&g, "merlins p%u %u", g.st->p.need.seat,
             g.st->p.need.seat == a ? 1u : 0u);
    ck_assert_uint_eq(g.st->p.siege, 2);
    ck_assert_uint_eq(g.st->p.seat[a].hand_n, 1);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_HEROIC);
    g_free(&g);
}
END_TEST

/* Answers every Merlin window with no Merlin. */
static void
no_merlins(struct game *g)
{
    while (g->st->p.need.kind == SOC_N_MERLINS)
        actf(g, "merlins p%u 0", g->st->p.need.seat);
}

/* own=on: each knight offers himself for Morgan, and the turn's knight
 * chooses among those who offered, never none when one did. */
START_TEST(test_own_volunteer)
{
    struct game g;

    g_start(&g, "players=4 traitor=on brave=off own=on", 40);
    hand_set(&g, 1, "fight_1");
    hand_set(&g, 2, "fight_1,fight_2,grail");
    hand_set(&g, 3, "fight_1,fight_2,grail,grail");
    hand_set(&g, 4, "fight_3");
    evil_black(&g, 1, "morgan_discard");
    no_merlins(&g);
    /* Only the knights holding three cards are asked. */
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_OFFER);
    ck_assert_uint_eq(g.st->p.need.seat, 2);
    refusedf(&g, RPL_E_RULES, "volunteer p1 none");
    refusedf(&g, RPL_E_RULES, "volunteer p1 p3");
    refusedf(&g, RPL_E_RULES, "offer p3 yes");
    actf(&g, "offer p2 yes");
    actf(&g, "offer p3 yes");
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_VOLUNTEER);
    ck_assert_uint_eq(g.st->p.need.seat, 1);
    refusedf(&g, RPL_E_RULES, "volunteer p1 none");
    refusedf(&g, RPL_E_RULES, "volunteer p1 p4");
    refusedf(&g, RPL_E_RULES, "volunteer p2 p2");
    actf(&g, "volunteer p1 p3");
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_DISCARD);
    ck_assert_uint_eq(g.st->p.need.seat, 3);
    actf(&g, "discard p3 fight_1,grail,grail");
    ck_assert_uint_eq(g.st->p.seat[3].hand_n, 1);
    check_cards(g.st);
    g_free(&g);

    /* One knight offers: he is the volunteer, without a last word. */
    g_start(&g, "players=4 traitor=on brave=off own=on", 41);
    evil_black(&g, 2, "morgan_volunteer");
    no_merlins(&g);
    ck_assert_uint_eq(g.st->p.need.seat, 2);
    actf(&g, "offer p2 no");
    actf(&g, "offer p3 no");
    refusedf(&g, RPL_E_RULES, "offer p1 yes");
    actf(&g, "offer p4 yes");
    actf(&g, "offer p1 no");
    ck_assert_uint_eq(g.st->p.seat[4].lp, 2);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_HEROIC);
    g_free(&g);
}
END_TEST

/* own=on: Convocation names nobody; each knight away says whether he
 * comes back. */
START_TEST(test_own_convocation)
{
    struct game g;

    g_start(&g, "players=5 traitor=on brave=off own=on", 32);
    hand_set(&g, 1, "convocation");
    at(&g, 2, SOC_GRAIL);
    at(&g, 3, SOC_PICTS);
    heroic(&g, 1);
    refusedf(&g, RPL_E_RULES, "special p1 convocation p2,p3");
    refusedf(&g, RPL_E_RULES, "special p1 convocation none");
    actf(&g, "special p1 convocation");
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_OFFER);
    ck_assert_uint_eq(g.st->p.need.seat, 2);
    refusedf(&g, RPL_E_RULES, "offer p3 yes");
    actf(&g, "offer p2 yes");
    actf(&g, "offer p3 no");
    ck_assert_uint_eq(g.st->p.seat[2].loc, SOC_CAMELOT);
    ck_assert_uint_eq(g.st->p.seat[3].loc, SOC_PICTS);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_SHARE);
    ck_assert_uint_eq(g.st->p.need.a, 4);
    g_ok(&g, "share p1 p1=1 p2=1 p4=1 p5=1");
    check_cards(g.st);
    g_free(&g);

    /* own=off keeps the form of camelog 1 files, with the list. */
    g_start(&g, "players=5 traitor=on brave=off", 32);
    hand_set(&g, 1, "convocation");
    heroic(&g, 1);
    refusedf(&g, RPL_E_RULES, "special p1 convocation");
    g_free(&g);
}
END_TEST

/* No agreement on the opening pool: the dealer shares it at random,
 * one card to each seat, from stream "pool"; a public verifier checks
 * the sharing at the reveal and names the redeal line. */
START_TEST(test_pool_random)
{
    for (int forge = 0; forge < 2; forge++) {
        struct game g;
        struct rpl_error err;
        char act[64];
        struct soc_pub *p;
        uint8_t want[SOC_MAX_SEATS];
        unsigned m = 0;
        size_t at_line;

        g_init(&g, "players=5 traitor=on brave=off own=on", 50);
        g_drain(&g);
        p = &g.st->p;
        for (unsigned k = 1; k <= p->n; k++) {
            unsigned c = 0;

            while (!g.st->h.hand[k][c])
                c++;
            snprintf(act, sizeof(act), "pool p%u %s", k, rpl__soc_card[c].tok);
            g_ok(&g, act);
        }
        refusedf(&g, RPL_E_RULES, "allot p%u random", soc_next(p, p->first));
        snprintf(act, sizeof(act), "allot p%u random", p->first);
        {
            struct rpl__emit e;

            ck_assert_int_eq(
                rpl__soc.live->action(g.st, &g.env, act, &e, &g.err), RPL_OK);
            ck_assert_int_eq(g_emit(&g, &e, true), RPL_OK);
        }
        ck_assert_int_eq(p->need.kind, SOC_N_REDEAL);
        rpl__soc_redeal(g.seed, p->poolers, want, &m);
        ck_assert_uint_eq(m, 5);
        /* Not a permutation of the seats: refused when read. */
        ck_assert_int_eq(apply_text(g.st, &g.env, "redeal p1,p1,p2,p3,p4",
                                    g_no(&g) + 1, &err),
                         RPL_E_RULES);
        at_line = g_no(&g) + 1;
        if (forge) {
            /* Another permutation: a knowing state refuses it at once; a
             * public one at the reveal, naming this line. */
            char bad[64];
            const uint8_t t = want[0];

            want[0] = want[1];
            want[1] = t;
            snprintf(bad, sizeof(bad), "redeal p%u,p%u,p%u,p%u,p%u", want[0],
                     want[1], want[2], want[3], want[4]);
            ck_assert_int_eq(apply_text(g.st, &g.env, bad, at_line, &err),
                             RPL_E_RULES);
            ck_assert_uint_eq(err.line, at_line);
            g_record(&g, bad);
            ck_assert_int_eq(public_replay(&g, &err, false), RPL_OK);
            ck_assert_int_eq(public_replay(&g, &err, true), RPL_E_RULES);
            ck_assert_uint_eq(err.line, at_line);
        } else {
            g_drain(&g);
            /* The dealer writes the sharing the stream gives. */
            ck_assert(strncmp(last_line(&g, 0), "redeal ", 7) == 0);
            for (unsigned i = 0; i < 5; i++)
                ck_assert_uint_eq(p->seat[want[i]].hand_n, 6);
            ck_assert_int_eq(p->need.kind, SOC_N_EVIL);
            check_cards(g.st);
            ck_assert_int_eq(public_replay(&g, &err, true), RPL_OK);
        }
        g_free(&g);
    }
}
END_TEST

START_TEST(test_convocation)
{
    struct game g;
    unsigned k, a, b;
    size_t mark;

    g_start(&g, "players=5 traitor=on brave=off", 32);
    k = 1;
    a = 2;
    b = 3;
    hand_set(&g, k, "convocation");
    hand_set(&g, a, "fight_2");
    at(&g, a, SOC_BLACK_KNIGHT);
    heroic(&g, a);
    actf(&g, "play p%u fight_2", a);
    at(&g, b, SOC_GRAIL);
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "special p%u convocation p%u,p%u", k, a, b);
    /* Both come back (leaving the Black Knight loses its card), and the
     * five knights gathered in Camelot draw five cards and share them. */
    ck_assert_uint_eq(g.st->p.seat[a].loc, SOC_CAMELOT);
    ck_assert_uint_eq(g.st->p.seat[b].loc, SOC_CAMELOT);
    ck_assert_uint_eq(g.st->p.bk.nwhite, 0);
    ck_assert(!saw(&g, mark, "white "));
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_SHARE);
    ck_assert_uint_eq(g.st->p.need.seat, k);
    ck_assert_uint_eq(g.st->p.need.a, 5);
    refusedf(&g, RPL_E_RULES, "share p1 p1=1 p2=1 p3=1 p4=1 p5=0");
    refusedf(&g, RPL_E_RULES, "share p1 p1=1 p2=2 p3=2");
    g_ok(&g, "share p1 p1=0 p2=3 p3=0 p4=1 p5=1");
    ck_assert_uint_eq(g.st->p.seat[a].hand_n, 3);
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 0);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

/* A seed whose 7-player deal has (or lacks) a traitor. */
static unsigned
seed_with_traitor(bool want)
{
    for (unsigned s = 100; s < 400; s++) {
        struct soc_hid h;
        struct soc_rng r;
        uint8_t seed[32];

        for (unsigned i = 0; i < 32; i++)
            seed[i] = (uint8_t)(s * 31u + i);
        rpl__soc_derive(&h, &r, 7, true, seed);
        if ((h.traitor != 0) == want)
            return s;
    }
    ck_abort_msg("no seed found");
    return 0;
}

START_TEST(test_fate)
{
    struct game g;
    unsigned k, t;
    size_t mark;

    /* A loyal knight: every knight draws one card. */
    g_start(&g, "players=7 traitor=on brave=off", seed_with_traitor(true));
    t = g.st->h.traitor;
    k = soc_next(&g.st->p, t);
    hand_set(&g, k, "fate");
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "special p%u fate", k);
    ck_assert(saw(&g, mark, "shows p"));
    ck_assert(g.st->p.seat[k].flags & SOC_F_LOYAL);
    for (unsigned s = 1; s <= 7; s++) {
        char want[16];

        snprintf(want, sizeof(want), "white p%u 1 ", s);
        ck_assert(saw(&g, mark, want));
    }
    check_cards(g.st);
    /* The traitor: he is revealed and every other knight discards two. */
    hand_set(&g, t, "fate");
    hand_set(&g, k, "fight_1,fight_1,grail");
    heroic(&g, t);
    actf(&g, "special p%u fate", t);
    ck_assert(strstr(last_line(&g, 0), "traitor"));
    ck_assert_uint_eq(g.st->p.traitor, t);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_DISCARD);
    while (g.st->p.need.kind == SOC_N_DISCARD) {
        const unsigned s = g.st->p.need.seat;
        uint8_t cards[2];
        unsigned n = 0;
        char list[64];

        for (unsigned c = 0; c < SOC_NWT && n < g.st->p.need.a; c++)
            for (unsigned i = 0; i < g.st->h.hand[s][c] && n < g.st->p.need.a;
                 i++)
                cards[n++] = (uint8_t)c;
        rpl__soc_fmt_cards(list, sizeof(list), cards, n);
        actf(&g, "discard p%u %s", s, list);
    }
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 1);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_heroism)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 33);
    k = plain(&g);
    hand_set(&g, k, "heroism,fight_1,fight_2,fight_3,fight_4,fight_5");
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "special p%u heroism camelot", k);
    actf(&g, "special p%u heroism picts", k);
    ck_assert_uint_eq(g.st->p.heroism, SOC_PICTS + 1);
    at(&g, k, SOC_PICTS);
    for (unsigned v = 1; v <= 5; v++) {
        heroic(&g, k);
        actf(&g, "play p%u fight_%u", k, v);
    }
    ck_assert(saw(&g, 0, "quest picts won swords=2"));
    ck_assert_uint_eq(g.st->p.swords_w, 2);
    ck_assert_uint_eq(g.st->p.heroism, 0);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_lady_of_the_lake)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 34);
    k = plain(&g);
    hand_set(&g, k, "lady_of_the_lake");
    heroic(&g, k);
    actf(&g, "special p%u lady_of_the_lake", k);
    ck_assert_uint_eq(g.st->p.exc_pos, 6);
    /* With Excalibur gone, two life points instead. */
    g.st->p.exc_state = 2;
    hand_set(&g, k, "lady_of_the_lake");
    g.st->p.seat[k].lp = 2;
    heroic(&g, k);
    actf(&g, "special p%u lady_of_the_lake", k);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 4);
    g_free(&g);
}
END_TEST

START_TEST(test_messenger)
{
    struct game g;
    unsigned k, t;

    g_start(&g, "players=7 traitor=on brave=off", 35);
    k = plain(&g);
    t = soc_next(&g.st->p, k);
    hand_set(&g, k, "fight_1,grail,grail,messenger");
    hand_set(&g, t, "");
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "special p%u messenger p%u fight_5", k, t);
    actf(&g, "special p%u messenger p%u fight_1,grail", k, t);
    ck_assert(strncmp(last_line(&g, 0), "special", 7) == 0);
    ck_assert_uint_eq(g.st->p.seat[t].hand_n, 2);
    ck_assert_uint_eq(g.st->h.hand[t][SOC_GRAIL_CARD], 1);
    ck_assert_uint_eq(g.st->h.hand[k][SOC_GRAIL_CARD], 1);
    ck_assert_uint_eq(g.st->p.nchoice, 1);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_piety)
{
    struct game g;
    unsigned k, t;

    g_start(&g, "players=7 traitor=on brave=off", 36);
    k = plain(&g);
    t = soc_next(&g.st->p, k);
    hand_set(&g, k, "piety");
    g.st->p.seat[k].lp = 5;
    heroic(&g, k);
    actf(&g, "special p%u piety self", k);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 6); /* at most 6 */
    hand_set(&g, k, "piety");
    heroic(&g, k);
    actf(&g, "special p%u piety others", k);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 6);
    ck_assert_uint_eq(g.st->p.seat[t].lp, 5);
    g_free(&g);
}
END_TEST

START_TEST(test_clairvoyance)
{
    struct game g;
    unsigned k;
    size_t mark;

    g_start(&g, "players=7 traitor=on brave=off", 37);
    k = plain(&g);
    hand_set(&g, k, "clairvoyance");
    black_top(&g, "despair,picts,saxons,excalibur,black_knight_1");
    heroic(&g, k);
    actf(&g, "special p%u clairvoyance", k);
    ck_assert(strncmp(last_line(&g, 0), "top p", 5) == 0);
    ck_assert(strstr(last_line(&g, 0), " 5 "));
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_ORDER);
    refusedf(&g, RPL_E_RULES, "order p%u despair,picts,saxons,excalibur,vivien",
             k);
    actf(&g, "order p%u black_knight_1,excalibur,saxons,picts,despair", k);
    mark = g.nlines;
    evil_black(&g, k, NULL);
    ck_assert(saw(&g, mark, "black p"));
    ck_assert(strstr(g.lines[mark + 1].text, "black_knight_1"));
    evil_black(&g, k, NULL);
    ck_assert(strstr(last_line(&g, 0), "excalibur"));
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_reinforcements)
{
    struct game g;
    unsigned k;
    size_t mark;

    g_start(&g, "players=4 traitor=on brave=off", 38);
    k = 2;
    hand_set(&g, k, "reinforcements");
    heroic(&g, k);
    actf(&g, "special p%u reinforcements self", k);
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 4);
    hand_set(&g, k, "reinforcements");
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "special p%u reinforcements others", k);
    ck_assert(saw(&g, mark, "white p3 1 "));
    ck_assert(saw(&g, mark, "white p4 1 "));
    ck_assert(saw(&g, mark, "white p1 1 "));
    ck_assert(!saw(&g, mark, "white p2 "));
    check_cards(g.st);
    g_free(&g);
}
END_TEST

/* A special black card is drawn; the table lets it through. */
static void
draw_special(struct game *g, unsigned k, const char *card)
{
    evil_black(g, k, card);
    if (g->st->p.need.kind == SOC_N_CANCEL)
        actf(g, "pass p%u", g->st->p.need.seat);
}

START_TEST(test_morgan)
{
    struct game g;
    unsigned k, v;
    size_t mark;

    g_start(&g, "players=4 traitor=on brave=off", 40);
    k = 1;
    draw_special(&g, k, "morgan_siege");
    ck_assert_uint_eq(g.st->p.siege, 2);

    /* Three more draws, each resolved. */
    set_turn(&g, k);
    black_top(&g, "morgan_draw3,picts,saxons,black_knight_1");
    actf(&g, "evil p%u black", k);
    if (g.st->p.need.kind == SOC_N_CANCEL)
        actf(&g, "pass p%u", k);
    ck_assert_uint_eq(g.st->p.war[0].figures, 1);
    ck_assert_uint_eq(g.st->p.war[1].figures, 1);
    ck_assert_uint_eq(g.st->p.bk.nblack, 1);

    /* Every knight loses a life point. */
    draw_special(&g, k, "morgan_life");
    for (unsigned s = 1; s <= 4; s++)
        ck_assert_uint_eq(g.st->p.seat[s].lp, 3);

    /* A volunteer discards three cards. */
    v = 3;
    hand_set(&g, v, "fight_1,fight_2,grail,grail");
    draw_special(&g, k, "morgan_discard");
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_VOLUNTEER);
    actf(&g, "volunteer p%u p%u", k, v);
    refusedf(&g, RPL_E_RULES, "discard p%u fight_1,fight_2", v);
    actf(&g, "discard p%u fight_1,grail,grail", v);
    ck_assert_uint_eq(g.st->p.seat[v].hand_n, 1);

    /* Nobody volunteers: every knight discards one, in turn order. */
    draw_special(&g, k, "morgan_volunteer");
    mark = g.nlines;
    actf(&g, "volunteer p%u none", k);
    for (unsigned i = 0; i < 4; i++) {
        const unsigned s = g.st->p.need.seat;
        unsigned c = 0;

        ck_assert_int_eq(g.st->p.need.kind, SOC_N_DISCARD);
        ck_assert_uint_eq(s, soc_from(&g.st->p, k, i));
        while (!g.st->h.hand[s][c])
            c++;
        actf(&g, "discard p%u %s", s, rpl__soc_card[c].tok);
    }
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_HEROIC);
    (void)mark;
    check_cards(g.st);
    g_free(&g);

    /* A volunteer loses two life points. */
    g_start(&g, "players=4 traitor=on brave=off", 41);
    draw_special(&g, 2, "morgan_volunteer");
    actf(&g, "volunteer p2 p4");
    ck_assert_uint_eq(g.st->p.seat[4].lp, 2);
    g_free(&g);
}
END_TEST

START_TEST(test_desolation_dark_forest)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 42);
    k = plain(&g);
    table_white(&g, SOC_GRAIL_CARD, 3, k);
    for (unsigned i = 0; i < 3; i++)
        g.st->p.grail[i] = SOC_GRAIL_CARD;
    draw_special(&g, k, "desolation");
    /* The most advanced Grail card goes; Desolation takes a black spot. */
    ck_assert_uint_eq(g.st->p.grail[2], SOC_NCARDS);
    ck_assert_uint_eq(g.st->p.grail[6], SOC_DESOLATION);
    /* A single Merlin cannot take a Desolation back. */
    hand_set(&g, k, "merlin,grail,fight_1,fight_2,fight_3,fight_4,fight_5");
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "special p%u merlin grail", k);
    /* Dark Forest: no Grail card until a quest is won. */
    draw_special(&g, k, "dark_forest");
    ck_assert_uint_eq(g.st->p.dark_forest, 1);
    at(&g, k, SOC_GRAIL);
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "play p%u grail", k);
    at(&g, k, SOC_PICTS);
    for (unsigned v = 1; v <= 5; v++) {
        heroic(&g, k);
        actf(&g, "play p%u fight_%u", k, v);
    }
    ck_assert_uint_eq(g.st->p.dark_forest, 0);
    at(&g, k, SOC_GRAIL);
    heroic(&g, k);
    actf(&g, "play p%u grail", k);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_guinevere)
{
    struct game g;
    unsigned k, a;

    g_start(&g, "players=5 traitor=on brave=off", 43);
    k = 1;
    a = 2;
    hand_set(&g, a, "fight_3");
    at(&g, a, SOC_BLACK_KNIGHT);
    heroic(&g, a);
    actf(&g, "play p%u fight_3", a);
    at(&g, 3, SOC_GRAIL);
    draw_special(&g, k, "guinevere");
    /* Everyone in Camelot, the solo quest's white cards gone, and the
     * drawer's turn over: the next seat's progression of evil. */
    for (unsigned s = 1; s <= 5; s++)
        ck_assert_uint_eq(g.st->p.seat[s].loc, SOC_CAMELOT);
    ck_assert_uint_eq(g.st->p.bk.nwhite, 0);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_EVIL);
    ck_assert_uint_eq(g.st->p.need.seat, 2);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_mists_vivien)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=7 traitor=on brave=off", 44);
    k = plain(&g);
    draw_special(&g, k, "mists_of_avalon");
    ck_assert_uint_eq(g.st->p.mists, 1);
    draw_special(&g, k, "vivien");
    ck_assert_uint_eq(g.st->p.vivien, 1);
    /* Vivien: no Merlin, single or triple (no window either). */
    hand_set(&g, k, "merlin,fight_1,fight_2,fight_3,fight_4,fight_5");
    evil_black(&g, k, "black_knight_1");
    refusedf(&g, RPL_E_RULES, "special p%u merlin black_knight", k);
    evil_black(&g, k, "morgan_life");
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_HEROIC);
    /* Mists: a lost quest lays one more black sword. */
    g.st->p.exc_pos = 1;
    evil_black(&g, k, "excalibur");
    ck_assert(saw(&g, 0, "quest excalibur lost swords=3"));
    ck_assert_uint_eq(g.st->p.swords_b, 3);
    /* A quest won ends Vivien. */
    at(&g, k, SOC_PICTS);
    for (unsigned v = 1; v <= 5; v++) {
        heroic(&g, k);
        actf(&g, "play p%u fight_%u", k, v);
    }
    ck_assert_uint_eq(g.st->p.vivien, 0);
    ck_assert_uint_eq(g.st->p.mists, 1);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_relics)
{
    struct game g;
    unsigned k, t;

    /* Lancelot's Armor: draw two, keep one, the other under the deck. */
    g_start(&g, "players=7 traitor=on brave=off", 45);
    k = plain(&g);
    g.st->p.relic[SOC_ARMOR] = (uint8_t)k;
    evil_black(&g, k, "picts,saxons");
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_KEEP);
    ck_assert(strstr(last_line(&g, 0), "picts saxons"));
    refusedf(&g, RPL_E_RULES, "keep p%u despair", k);
    actf(&g, "keep p%u saxons", k);
    ck_assert_uint_eq(g.st->p.war[1].figures, 1);
    ck_assert_uint_eq(g.st->p.war[0].figures, 0);
    ck_assert_uint_eq(
        g.st->h.bpile[(g.st->h.bhead + g.st->h.bn - 1) % SOC_NBLACK],
        SOC_B_PICTS);
    check_cards(g.st);
    g_free(&g);

    /* Excalibur: +1 in a combat where its holder is; discarding it
     * cancels a standard black card. */
    g_start(&g, "players=7 traitor=on brave=off", 46);
    k = plain(&g);
    g.st->p.relic[SOC_REL_EXCALIBUR] = (uint8_t)k;
    hand_set(&g, k, "fight_1,fight_1,fight_2,fight_2");
    at(&g, k, SOC_BLACK_KNIGHT);
    evil_black(&g, k, "black_knight_5");
    actf(&g, "pass p%u", k);
    evil_black(&g, k, "black_knight_1");
    actf(&g, "pass p%u", k);
    for (unsigned i = 0; i < 4; i++) {
        heroic(&g, k);
        actf(&g, "play p%u fight_%u", k, i < 2 ? 1 : 2);
    }
    /* 6 + 1 against 6. */
    ck_assert(saw(&g, 0, "quest black_knight won"));
    evil_black(&g, k, "despair");
    actf(&g, "cancel p%u excalibur", k);
    ck_assert_uint_eq(g.st->p.relic[SOC_REL_EXCALIBUR], SOC_RELIC_BOX);
    ck_assert_uint_eq(g.st->p.grail[6], SOC_NCARDS);
    check_cards(g.st);
    g_free(&g);

    /* The Holy Grail saves a dying knight at 4 life points. */
    g_start(&g, "players=7 traitor=on brave=off", 47);
    k = plain(&g);
    t = soc_next(&g.st->p, k);
    g.st->p.relic[SOC_REL_GRAIL] = (uint8_t)t;
    g.st->p.seat[k].lp = 1;
    set_turn(&g, k);
    actf(&g, "evil p%u life", k);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_SAVE);
    ck_assert_uint_eq(g.st->p.need.seat, t);
    actf(&g, "save p%u", t);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 4);
    ck_assert_uint_eq(g.st->p.relic[SOC_REL_GRAIL], SOC_RELIC_BOX);
    g_free(&g);
}
END_TEST

START_TEST(test_accusation)
{
    struct game g;
    unsigned t, k, a;
    size_t mark;

    g_start(&g, "players=7 traitor=on brave=off", seed_with_traitor(true));
    t = g.st->h.traitor;
    k = soc_next(&g.st->p, t);
    a = soc_next(&g.st->p, k);
    /* Not before 6 swords or 6 siege engines. */
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "accuse p%u p%u", k, a);
    g.st->p.siege = 6;
    g.st->p.swords_w = 2;
    /* Wrong: a white sword turns black. */
    mark = g.nlines;
    actf(&g, "accuse p%u p%u", k, a);
    ck_assert(saw(&g, mark, "shows p"));
    ck_assert(strstr(last_line(&g, 0), "loyal"));
    ck_assert_uint_eq(g.st->p.swords_w, 1);
    ck_assert_uint_eq(g.st->p.swords_b, 1);
    /* Once per game. */
    heroic(&g, k);
    refusedf(&g, RPL_E_RULES, "accuse p%u p%u", k, t);
    /* Right: the traitor is revealed, a white sword is laid.  The
     * accuser sits on the traitor's right, so the traitor plays next. */
    hand_set(&g, t, "fight_1,grail");
    a = t == 1 ? g.st->p.n : t - 1u;
    heroic(&g, a);
    actf(&g, "accuse p%u p%u", a, t);
    ck_assert(strstr(last_line(&g, 0), "traitor"));
    ck_assert_uint_eq(g.st->p.swords_w, 2);
    ck_assert_uint_eq(g.st->p.traitor, t);
    ck_assert_uint_eq(g.st->p.seat[t].hand_n, 0);
    ck_assert_uint_eq(g.st->p.seat[t].loc, SOC_NOWHERE);
    /* Nobody accuses a revealed traitor. */
    refusedf(&g, RPL_E_RULES, "accuse p%u p%u", a, t);
    check_cards(g.st);

    /* The revealed traitor's turn: a taunt, then black card or siege
     * engine, no life point and no heroic action. */
    hand_set(&g, k, "fight_4,grail");
    actf(&g, "done p%u", a);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_TAUNT);
    ck_assert_uint_eq(g.st->p.need.seat, t);
    actf(&g, "taunt p%u p%u", t, k);
    ck_assert(strncmp(last_line(&g, 0), "taunted p", 9) == 0);
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 1);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_EVIL);
    refusedf(&g, RPL_E_RULES, "evil p%u life", t);
    actf(&g, "evil p%u siege", t);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_EVIL);
    ck_assert_uint_eq(g.st->p.need.seat, k);
    check_cards(g.st);
    g_free(&g);

    /* No accusation without a traitor card in the game. */
    g_start(&g, "players=5 traitor=off brave=off", 48);
    g.st->p.siege = 6;
    heroic(&g, 1);
    refusedf(&g, RPL_E_RULES, "accuse p1 p2");
    g_free(&g);
}
END_TEST

/* Plays the current turn's progression of evil and heroic phase
 * quietly: a siege engine, then "done" after drawing cards. */
static void
win_black_knight(struct game *g, unsigned k)
{
    hand_set(g, k, "fight_4,fight_4,fight_5,fight_5");
    at(g, k, SOC_BLACK_KNIGHT);
    for (unsigned i = 0; i < 4; i++) {
        heroic(g, k);
        actf(g, "play p%u fight_%u", k, i < 2 ? 4 : 5);
    }
}

START_TEST(test_end_majority)
{
    struct game g;
    unsigned t, k;
    size_t mark;

    /* 10 white, 1 black: the knights' 12th sword.  The hidden traitor
     * turns two white swords black: 9 against 3, the knights win. */
    g_start(&g, "players=7 traitor=on brave=off", seed_with_traitor(true));
    t = g.st->h.traitor;
    k = soc_next(&g.st->p, t);
    g.st->p.swords_w = 10;
    g.st->p.swords_b = 1;
    mark = g.nlines;
    win_black_knight(&g, k);
    ck_assert(saw(&g, mark, "quest black_knight won swords=1"));
    ck_assert(saw(&g, mark, "flip p"));
    ck_assert_str_eq(last_line(&g, 0), "end knights majority");
    ck_assert_uint_eq(g.st->p.swords_w, 9);
    ck_assert_uint_eq(g.st->p.swords_b, 3);
    ck_assert(rpl__soc.play->is_over(g.st));
    g_free(&g);

    /* 7 white, 4 black, +1 white = 12; after the flip 6 against 6: a
     * tie is evil's. */
    g_start(&g, "players=7 traitor=on brave=off", seed_with_traitor(true));
    k = soc_next(&g.st->p, g.st->h.traitor);
    g.st->p.swords_w = 7;
    g.st->p.swords_b = 4;
    win_black_knight(&g, k);
    ck_assert_str_eq(last_line(&g, 0), "end evil majority");
    g_free(&g);

    /* No traitor dealt: "flip none", and the swords stand. */
    g_start(&g, "players=7 traitor=on brave=off", seed_with_traitor(false));
    g.st->p.swords_w = 7;
    g.st->p.swords_b = 4;
    win_black_knight(&g, 1);
    ck_assert_str_eq(last_line(&g, 1), "flip none");
    ck_assert_str_eq(last_line(&g, 0), "end knights majority");
    g_free(&g);

    /* Without the traitor option: no flip line at all. */
    g_start(&g, "players=5 traitor=off brave=off", 49);
    g.st->p.swords_w = 7;
    g.st->p.swords_b = 4;
    win_black_knight(&g, 1);
    ck_assert(strncmp(last_line(&g, 1), "quest", 5) == 0);
    ck_assert_str_eq(last_line(&g, 0), "end knights majority");
    g_free(&g);
}
END_TEST

START_TEST(test_end_losses)
{
    struct game g;
    unsigned t, k;

    /* The 12th siege engine. */
    g_start(&g, "players=4 traitor=on brave=off", 50);
    g.st->p.siege = 11;
    set_turn(&g, 2);
    actf(&g, "evil p2 siege");
    ck_assert_str_eq(last_line(&g, 0), "end evil siege");
    refusedf(&g, RPL_E_RULES, "done p2");
    g_free(&g);

    /* The 7th black sword: a wrong accusation with no white sword. */
    g_start(&g, "players=7 traitor=on brave=off", seed_with_traitor(true));
    t = g.st->h.traitor;
    k = soc_next(&g.st->p, t);
    g.st->p.swords_b = 6;
    g.st->p.siege = 6;
    heroic(&g, k);
    actf(&g, "accuse p%u p%u", k, soc_next(&g.st->p, k));
    ck_assert_str_eq(last_line(&g, 0), "end evil black");
    g_free(&g);

    /* Every loyal knight dead, the traitor alone: he shows his card. */
    g_start(&g, "players=3 traitor=on brave=off", seed_with_traitor(true));
    t = g.st->h.traitor;
    for (unsigned s = 1; s <= 3; s++)
        g.st->p.seat[s].lp = 1;
    if (t) {
        k = soc_next(&g.st->p, t);
        set_turn(&g, k);
        actf(&g, "evil p%u life", k);
        ck_assert(strncmp(last_line(&g, 0), "dies", 4) == 0);
        k = soc_next(&g.st->p, k);
        if (k == t)
            k = soc_next(&g.st->p, k);
        set_turn(&g, k);
        actf(&g, "evil p%u life", k);
        ck_assert(strstr(last_line(&g, 1), "traitor"));
        ck_assert_str_eq(last_line(&g, 0), "end evil deaths");
    }
    g_free(&g);

    /* A loyal survivor is shown loyal and plays on; when he dies too,
     * evil wins. */
    g_start(&g, "players=3 traitor=off brave=off", 51);
    g.st->p.seat[1].lp = 1;
    g.st->p.seat[2].lp = 1;
    set_turn(&g, 1);
    actf(&g, "evil p1 life");
    set_turn(&g, 2);
    actf(&g, "evil p2 life");
    ck_assert(!rpl__soc.play->is_over(g.st));
    g.st->p.seat[3].lp = 1;
    set_turn(&g, 3);
    actf(&g, "evil p3 life");
    ck_assert_str_eq(last_line(&g, 0), "end evil deaths");
    g_free(&g);
}
END_TEST

START_TEST(test_sacrifice_last_life)
{
    struct game g;
    unsigned k;

    g_start(&g, "players=4 traitor=off brave=off", 52);
    k = 2;
    g.st->p.seat[k].lp = 1;
    hand_set(&g, k, "fight_1");
    heroic(&g, k);
    actf(&g, "move p%u picts", k);
    /* The last life point buys the action; the knight dies after it. */
    actf(&g, "sacrifice p%u", k);
    ck_assert(g.st->p.seat[k].flags & SOC_F_ALIVE);
    actf(&g, "play p%u fight_1", k);
    ck_assert(strncmp(last_line(&g, 0), "dies p", 6) == 0);
    ck_assert(!(g.st->p.seat[k].flags & SOC_F_ALIVE));
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 0);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_EVIL);
    ck_assert_uint_eq(g.st->p.need.seat, 3);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_brave)
{
    struct game g;
    size_t mark;

    /* Three Brave Knights: no loyalty line until 6 swords or 6 siege
     * engines; then one per seat, at once. */
    g_start(&g, "players=3 traitor=on brave=on", 53);
    ck_assert(!saw(&g, 0, "loyalty"));
    g.st->p.siege = 5;
    set_turn(&g, 1);
    mark = g.nlines;
    actf(&g, "evil p1 siege");
    ck_assert(saw(&g, mark, "loyalty p1 "));
    ck_assert(saw(&g, mark, "loyalty p3 "));
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_HEROIC);
    g_free(&g);
}
END_TEST

/* Plays the game to its end with seeded players (at most max lines);
 * digests, when not NULL, gets the state's digest after every line. */
static void
g_play(struct game *g, enum rpl_bot kind, size_t max, uint8_t (*digests)[32],
       bool check)
{
    uint64_t move = 0;

    g_drain(g);
    while (!rpl__soc.play->is_over(g->st) && g->nlines < max) {
        struct rpl__emit e;
        struct rpl__stream rng;
        uint8_t key[32] = {0};
        enum rpl_status rc;
        const size_t before = g->nlines;

        ck_assert_msg(rpl__soc.play->turn(g->st) != 0,
                      "nobody to act at line %zu", g_no(g));
        rpl__store_le64(key, move++);
        memcpy(key + 8, g->seed, 24);
        rpl__stream_init_key(&rng, key);
        rc = rpl__soc.live->bot(g->st, &g->env, kind, &rng, &e, &g->err);
        ck_assert_msg(rc == RPL_OK, "bot at line %zu: %s", g_no(g), g->err.msg);
        rc = g_emit(g, &e, true);
        ck_assert_msg(rc == RPL_OK, "\"%s\" at line %zu: %s", e.line,
                      g_no(g) + 1, g->err.msg);
        g_drain(g);
        if (check)
            check_cards(g->st);
        if (digests)
            for (size_t i = before; i < g->nlines; i++) {
                /* Only the last line's state is at hand: record it for
                 * every line of the batch's end. */
                uint8_t buf[8192];
                const size_t n =
                    rpl__soc.play->serialize(g->st, buf, sizeof(buf));

                ck_assert_uint_le(n, sizeof(buf));
                rpl__hash(digests[i], NULL, buf, n);
            }
    }
}

START_TEST(test_reveal_honest)
{
    struct game g;
    struct rpl_error err;

    g_start(&g, "players=5 traitor=on brave=off", 60);
    g_play(&g, RPL_BOT_PLAUSIBLE, 5000, NULL, true);
    ck_assert(rpl__soc.play->is_over(g.st));
    ck_assert_int_eq(public_replay(&g, &err, true), RPL_OK);
    g_free(&g);
}
END_TEST

/* The table's memory of each seat's conduct comes from the public lines
 * alone: a public verifier that replays a game's lines holds the very
 * memory the seeded players read, byte for byte; and the games of the
 * remembering players fill it. */
START_TEST(test_memory_public)
{
    static const char *const rules[] = {
        "players=4 traitor=on brave=off own=on",
        "players=7 traitor=on brave=off own=on",
        "players=5 traitor=on brave=off",
    };
    unsigned filled = 0;

    for (unsigned i = 0; i < 3; i++)
        for (unsigned seed = 70; seed < 74; seed++) {
            struct game g;
            struct soc_state *pub = calloc(1, sizeof(*pub));
            struct rpl__line ln;
            struct rpl_error err;
            char line[128];
            size_t seats = 0;
            const uint8_t *m;

            ck_assert_ptr_nonnull(pub);
            g_start(&g, rules[i], seed);
            g_play(&g, RPL_BOT_PLAUSIBLE, 5000, NULL, false);
            snprintf(line, sizeof(line), "rules %s", g.rules);
            ck_assert_int_eq(rpl__line_split(&ln, line, strlen(line), 4, &err),
                             RPL_OK);
            ck_assert_int_eq(
                rpl__soc.play->rules(pub, &ln, &g.penv, &seats, &err), RPL_OK);
            /* A verifier keeps no memory; this one is asked to, from
             * the public lines alone. */
            pub->m.on = 1;
            for (size_t j = 0; j < g.nlines; j++)
                ck_assert_int_eq(apply_text(pub, &g.penv, g.lines[j].text,
                                            g.first_no + j + 1, &err),
                                 RPL_OK);
            ck_assert(!pub->p.knows);
            ck_assert_msg(memcmp(&pub->m, &g.st->m, sizeof(pub->m)) == 0,
                          "%s, seed %u: the memories differ", rules[i], seed);
            m = (const uint8_t *)&g.st->m;
            for (size_t b = offsetof(struct soc_mem, evil_worse);
                 b < sizeof(g.st->m); b++)
                filled += m[b];
            free(pub);
            g_free(&g);
        }
    ck_assert_uint_gt(filled, 0);
}
END_TEST

/* A progression of evil far worse than the least harmful one the board
 * offered is remembered, and makes its seat the one the others suspect;
 * the least harmful one leaves nothing to remember. */
START_TEST(test_memory_suspect)
{
    struct game g;
    struct soc_know kn;
    unsigned k, a, b;

    g_start(&g, "players=5 traitor=on brave=off own=on", 75);
    k = plain(&g);
    a = soc_next(&g.st->p, k);
    b = soc_next(&g.st->p, a);
    /* Life is cheap (4 life points), a ninth siege engine is not. */
    g.st->p.siege = 8;
    g.st->p.seat[k].lp = 4;
    set_turn(&g, k);
    actf(&g, "evil p%u life", k);
    ck_assert_uint_eq(g.st->m.evil_worse[k], 0);
    g.st->p.seat[k].lp = 4;
    set_turn(&g, k);
    actf(&g, "evil p%u siege", k);
    ck_assert_uint_eq(g.st->m.evil_worse[k], 1);
    memset(&kn, 0, sizeof(kn));
    kn.st = g.st;
    kn.p = &g.st->p;
    kn.k = a;
    ck_assert_int_gt(rpl__soc_suspicion(&kn, k), rpl__soc_suspicion(&kn, b));
    /* One such choice: a loyal knight never made it in the measured
     * games; the table accuses on it. */
    ck_assert_int_ge(rpl__soc_suspicion(&kn, k), 30);
    ck_assert_int_lt(rpl__soc_suspicion(&kn, b), 30);
    g_free(&g);
}
END_TEST

/* One card from seat `from` to seat `to`, without the deck. */
static void
steal(struct game *g, unsigned from, unsigned to, unsigned card)
{
    ck_assert_uint_gt(g->st->h.hand[from][card], 0);
    g->st->h.hand[from][card]--;
    g->st->p.seat[from].hand_n--;
    g->st->h.hand[to][card]++;
    g->st->p.seat[to].hand_n++;
}

START_TEST(test_reveal_white_not_held)
{
    struct game g;
    struct rpl_error err;
    unsigned k, v = 0, c = SOC_NWT;
    size_t line;

    g_start(&g, "players=5 traitor=on brave=off", 61);
    k = g.st->p.cur;
    /* A fight card of another seat, played by k: the public replay
     * accepts it (it could be anywhere), the reveal names its line. */
    for (unsigned s = 1; s <= 5 && c == SOC_NWT; s++)
        for (unsigned f = SOC_FIGHT1; f <= SOC_FIGHT5 && s != k; f++)
            if (g.st->h.hand[s][f] && !g.st->h.hand[k][f]) {
                v = s;
                c = f;
                break;
            }
    ck_assert_uint_lt(c, SOC_NWT);
    steal(&g, v, k, c);
    actf(&g, "evil p%u siege", k);
    actf(&g, "move p%u black_knight", k);
    actf(&g, "done p%u", k);
    /* The others play quiet turns, in the open, until k's turn again. */
    while (g.st->p.need.seat != k) {
        const unsigned s = g.st->p.need.seat;
        const unsigned to =
            g.st->p.seat[s].loc == SOC_GRAIL ? SOC_PICTS : SOC_GRAIL;

        actf(&g, "evil p%u siege", s);
        actf(&g, "move p%u %s", s, rpl__soc_quest[to].tok);
        actf(&g, "done p%u", s);
    }
    actf(&g, "evil p%u siege", k);
    actf(&g, "play p%u %s", k, rpl__soc_card[c].tok);
    line = g_no(&g);
    actf(&g, "done p%u", k);
    ck_assert_int_eq(g_act(&g, "end aborted"), RPL_E_SYNTAX);
    {
        struct rpl__emit e;

        memset(&e, 0, sizeof(e));
        snprintf(e.line, sizeof(e.line), "end aborted");
        ck_assert_int_eq(g_emit(&g, &e, false), RPL_OK);
    }
    ck_assert(rpl__soc.play->is_over(g.st));
    ck_assert_int_eq(public_replay(&g, &err, true), RPL_E_RULES);
    ck_assert_msg(err.line == line, "line %zu: %s (%s)", err.line, err.msg,
                  g.lines[err.line - g.first_no - 1].text);
    ck_assert_msg(strstr(err.msg, "does not hold"), "%s", err.msg);
    g_free(&g);
}
END_TEST

START_TEST(test_reveal_black_forged)
{
    struct game g;
    struct rpl_error err;
    unsigned k;
    size_t line;
    struct rpl__emit e;

    g_start(&g, "players=5 traitor=on brave=off", 62);
    k = g.st->p.cur;
    /* The dealer draws a card that is not the top of the seeded deck. */
    black_top(&g, "vivien");
    actf(&g, "evil p%u black", k);
    line = g_no(&g) - (g.st->p.need.kind == SOC_N_CANCEL ? 0 : 0);
    ck_assert(strstr(g.lines[line - g.first_no - 1].text, "vivien"));
    memset(&e, 0, sizeof(e));
    snprintf(e.line, sizeof(e.line), "end aborted");
    ck_assert_int_eq(g_emit(&g, &e, false), RPL_OK);
    ck_assert_int_eq(public_replay(&g, &err, true), RPL_E_RULES);
    ck_assert_uint_eq(err.line, line);
    ck_assert(strstr(err.msg, "black deck gives"));
    g_free(&g);
}
END_TEST

START_TEST(test_reveal_claims)
{
    struct game g;
    struct soc_state *pub = calloc(1, sizeof(*pub));
    struct rpl__line ln;
    struct rpl_error err;
    struct rpl__emit e;
    size_t seats;
    char rules[128];
    unsigned a, t;

    ck_assert_ptr_nonnull(pub);
    g_start(&g, "players=7 traitor=on brave=off", 63);
    /* An exchange: two secret choices to open. */
    a = holder(&g, SOC_ARTHUR);
    t = soc_next(&g.st->p, a);
    set_turn(&g, a);
    hand_set(&g, a, "grail");
    hand_set(&g, t, "fight_5");
    actf(&g, "swap p%u p%u grail", a, t);
    actf(&g, "swap p%u fight_5", t);
    memset(&e, 0, sizeof(e));
    snprintf(e.line, sizeof(e.line), "end aborted");
    ck_assert_int_eq(g_emit(&g, &e, false), RPL_OK);

    /* Each check on a fresh public replay of the same lines. */
    for (int which = 0; which < 5; which++) {
        snprintf(rules, sizeof(rules), "rules %s", g.rules);
        memset(pub, 0, sizeof(*pub));
        ck_assert_int_eq(rpl__line_split(&ln, rules, strlen(rules), 4, &err),
                         RPL_OK);
        ck_assert_int_eq(rpl__soc.play->rules(pub, &ln, &g.penv, &seats, &err),
                         RPL_OK);
        for (size_t i = 0; i < g.nlines; i++)
            ck_assert_int_eq(apply_text(pub, &g.penv, g.lines[i].text,
                                        g.first_no + i + 1, &err),
                             RPL_OK);
        ck_assert_uint_eq(rpl__soc.play->opens_left(pub), 2);
        switch (which) {
        case 0: /* the start line's knights */
            pub->p.seat[1].knight ^= 1;
            ck_assert_int_eq(rpl__soc.play->reveal(pub, &g.env, 999, &err),
                             RPL_E_RULES);
            ck_assert_uint_eq(err.line, pub->p.start_line);
            continue;
        case 1: /* a loyalty commitment */
            pub->loyalty_commit[3][0] ^= 1;
            ck_assert_int_eq(rpl__soc.play->reveal(pub, &g.env, 999, &err),
                             RPL_E_FAIRNESS);
            ck_assert_uint_eq(err.line, pub->p.loyalty_line[3]);
            continue;
        case 2: /* a white delivery's commitment */
            pub->dv[2].commit[5] ^= 1;
            ck_assert_int_eq(rpl__soc.play->reveal(pub, &g.env, 999, &err),
                             RPL_OK);
            break;
        default:
            ck_assert_int_eq(rpl__soc.play->reveal(pub, &g.env, 999, &err),
                             RPL_OK);
            break;
        }
        /* The opens: the value must match the seat's commitment. */
        for (unsigned i = 0; i < 2; i++) {
            char line[300];

            ck_assert(rpl__soc.play->open_line(g.st, i, &e));
            snprintf(line, sizeof(line), "%s", e.line);
            if (which == 3 && i == 0) {
                char *v = strrchr(line, ' ');

                snprintf(v, sizeof(line) - (size_t)(v - line), " fight_1");
            }
            if (which == 4 && i == 1)
                memcpy(line, "open give", 9);
            ck_assert_int_eq(
                rpl__line_split(&ln, line, strlen(line), 1000 + i, &err),
                RPL_OK);
            if (which == 3 && i == 0) {
                ck_assert_int_eq(rpl__soc.play->open(pub, &ln, &g.env, &err),
                                 RPL_E_FAIRNESS);
                ck_assert_uint_eq(err.line, 1000);
                break;
            }
            if (which == 4 && i == 1) {
                ck_assert_int_eq(rpl__soc.play->open(pub, &ln, &g.env, &err),
                                 RPL_E_RULES);
                ck_assert_uint_eq(err.line, 1001);
                break;
            }
            if (which == 2 && i == 1) {
                /* The last open replays the journal: the forged
                 * delivery is found at its line. */
                ck_assert_int_eq(rpl__soc.play->open(pub, &ln, &g.env, &err),
                                 RPL_E_FAIRNESS);
                ck_assert(strncmp(g.lines[err.line - g.first_no - 1].text,
                                  "white p", 7) == 0);
                break;
            }
            ck_assert_int_eq(rpl__soc.play->open(pub, &ln, &g.env, &err),
                             RPL_OK);
        }
    }
    free(pub);
    g_free(&g);
}
END_TEST

START_TEST(test_rejections)
{
    struct game g;
    struct rpl__emit e;
    unsigned k;

    g_start(&g, "players=5 traitor=on brave=off", 64);
    k = g.st->p.cur;
    /* The progression of evil cannot be skipped. */
    refusedf(&g, RPL_E_RULES, "move p%u grail", k);
    refusedf(&g, RPL_E_RULES, "done p%u", k);
    refusedf(&g, RPL_E_RULES, "evil p%u black", soc_next(&g.st->p, k));
    refusedf(&g, RPL_E_SYNTAX, "evil p%u blue", k);
    actf(&g, "evil p%u siege", k);
    /* A heroic action is due; then no second action of a type. */
    refusedf(&g, RPL_E_RULES, "done p%u", k);
    actf(&g, "move p%u grail", k);
    actf(&g, "sacrifice p%u", k);
    refusedf(&g, RPL_E_RULES, "move p%u picts", k);
    hand_set(&g, k, "grail");
    refusedf(&g, RPL_E_RULES, "play p%u fight_5", k);
    refusedf(&g, RPL_E_SYNTAX, "play p%u fight_9", k);
    actf(&g, "play p%u grail", k);
    refusedf(&g, RPL_E_RULES, "draw p%u", k);
    actf(&g, "done p%u", k);
    /* Dealer lines are not actions; unknown keywords are refused. */
    ck_assert_int_eq(
        rpl__soc.live->action(g.st, &g.env, "black p2 despair", &e, &g.err),
        RPL_E_SYNTAX);
    ck_assert_int_eq(rpl__soc.live->action(g.st, &g.env, "fly p2", &e, &g.err),
                     RPL_E_SYNTAX);
    /* A dealer line out of turn names its line. */
    ck_assert_int_eq(
        apply_text(g.st, &g.env, "roll p1 3", g_no(&g) + 1, &g.err),
        RPL_E_RULES);
    ck_assert_uint_eq(g.err.line, g_no(&g) + 1);
    ck_assert(strstr(g.err.msg, "expected \"evil p"));
    /* Rules lines. */
    {
        static const char *const bad[] = {
            "rules players=8 traitor=on brave=off",
            "rules players=4 traitor=on brave=on",
            "rules players=3 traitor=off brave=on",
            "rules players=5 brave=off traitor=on",
            "rules players=5 traitor=on",
            "rules players=05 traitor=on brave=off",
        };
        struct soc_state *s = calloc(1, sizeof(*s));
        struct rpl__line ln;
        size_t seats;

        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            ck_assert_int_eq(
                rpl__line_split(&ln, bad[i], strlen(bad[i]), 4, &g.err),
                RPL_OK);
            ck_assert_int_ne(
                rpl__soc.play->rules(s, &ln, &g.env, &seats, &g.err), RPL_OK);
            ck_assert_uint_eq(g.err.line, 4);
        }
        free(s);
    }
    g_free(&g);
}
END_TEST

/* Changes what seat `keep` cannot know: other seats' cards (the hand
 * sizes stay), other seats' loyalty, the order of both undrawn decks. */
static void
perturb(struct soc_state *st, unsigned keep)
{
    struct soc_hid *h = &st->h;
    unsigned a = 0, b = 0;

    for (unsigned k = 1; k <= st->p.n; k++)
        if (k != keep && st->p.seat[k].hand_n) {
            if (!a)
                a = k;
            else if (!b)
                b = k;
        }
    if (a && b)
        for (unsigned c = 0; c < SOC_NWT; c++)
            for (unsigned d = 0; d < SOC_NWT; d++)
                if (c != d && h->hand[a][c] && h->hand[b][d]) {
                    h->hand[a][c]--;
                    h->hand[b][c]++;
                    h->hand[b][d]--;
                    h->hand[a][d]++;
                    c = d = SOC_NWT;
                }
    if (a && b) {
        const uint8_t t = h->loyalty[a];

        h->loyalty[a] = h->loyalty[b];
        h->loyalty[b] = t;
    }
    for (unsigned i = 0; i < h->wn / 2u; i++) {
        const unsigned x = (h->whead + i) % SOC_NWHITE;
        const unsigned y = (h->whead + h->wn - 1u - i) % SOC_NWHITE;
        const uint8_t t = h->wpile[x];

        h->wpile[x] = h->wpile[y];
        h->wpile[y] = t;
    }
    for (unsigned i = 0; i < h->bn / 2u; i++) {
        const unsigned x = (h->bhead + i) % SOC_NBLACK;
        const unsigned y = (h->bhead + h->bn - 1u - i) % SOC_NBLACK;
        const uint8_t t = h->bpile[x];

        h->bpile[x] = h->bpile[y];
        h->bpile[y] = t;
    }
}

static char *
view_of(struct game *g, const struct soc_state *st, int viewer, bool json)
{
    struct rpl__buf b;
    char *out = NULL;

    rpl__buf_init(&b, g->ctx);
    if (json)
        rpl__soc.views->view_json(st, &g->env, viewer, &b);
    else
        rpl__soc.views->view(st, &g->env, viewer, &b);
    ck_assert_int_eq(rpl__buf_take(&b, &out, NULL), RPL_OK);
    return out;
}

START_TEST(test_no_leaks)
{
    struct game g;
    struct soc_state *copy = malloc(sizeof(*copy));
    struct soc_state *pub = calloc(1, sizeof(*pub));
    struct rpl__line ln;
    struct rpl_error err;
    char rules[128];
    size_t seats, applied = 0, steps = 0;
    uint64_t move = 0;

    ck_assert_ptr_nonnull(copy);
    ck_assert_ptr_nonnull(pub);
    g_init(&g, "players=5 traitor=on brave=off", 70 + (unsigned)_i);
    snprintf(rules, sizeof(rules), "rules %s", g.rules);
    ck_assert_int_eq(rpl__line_split(&ln, rules, strlen(rules), 4, &err),
                     RPL_OK);
    ck_assert_int_eq(rpl__soc.play->rules(pub, &ln, &g.penv, &seats, &err),
                     RPL_OK);
    g_drain(&g);
    while (!rpl__soc.play->is_over(g.st) && g.nlines < 3000) {
        struct rpl__emit e;
        struct rpl__stream rng;
        uint8_t key[32] = {0};

        rpl__store_le64(key, move++);
        key[8] = (uint8_t)_i;
        rpl__stream_init_key(&rng, key);
        ck_assert_int_eq(
            rpl__soc.live->bot(g.st, &g.env, RPL_BOT_RANDOM, &rng, &e, &g.err),
            RPL_OK);
        ck_assert_int_eq(g_emit(&g, &e, true), RPL_OK);
        g_drain(&g);
        for (; applied < g.nlines; applied++)
            ck_assert_int_eq(apply_text(pub, &g.penv, g.lines[applied].text,
                                        g.first_no + applied + 1, &err),
                             RPL_OK);
        if (steps++ % 3)
            continue;
        for (int v = 0; v <= (int)g.st->p.n; v++) {
            for (int json = 0; json < 2; json++) {
                char *a = view_of(&g, g.st, v, json);
                char *b;

                memcpy(copy, g.st, sizeof(*copy));
                perturb(copy, (unsigned)v);
                b = view_of(&g, copy, v, json);
                ck_assert_msg(strcmp(a, b) == 0,
                              "viewer %d sees a secret:\n"
                              "%s\n---\n%s",
                              v, a, b);
                rpl_free(g.ctx, b);
                if (v == 0) {
                    /* The public view needs no secret at all. */
                    b = view_of(&g, pub, 0, json);
                    ck_assert_msg(strcmp(a, b) == 0,
                                  "public views differ:\n%s\n---\n%s", a, b);
                    rpl_free(g.ctx, b);
                }
                rpl_free(g.ctx, a);
            }
        }
    }
    ck_assert(rpl__soc.play->is_over(g.st));
    free(copy);
    free(pub);
    g_free(&g);
}
END_TEST

/* The seeded players choose from what their seat knows: the same
 * choice, from the same stream, when what the seat cannot know differs
 * (other seats' cards and loyalty, the order of both undrawn decks).
 * Skipped: the table's decision on three Merlins (the table says who
 * holds them) and the moments when the seat has just looked at black
 * cards.  With brave=on and before the loyalty lines, a seat does not
 * know its own loyalty card either: swapping it changes nothing. */
static bool
sees_hidden(const struct soc_pub *p)
{
    const struct soc_need *nd = &p->need;

    return (nd->kind == SOC_N_CANCEL && nd->a == 1) ||
           nd->kind == SOC_N_ORDER || (nd->kind == SOC_N_EVIL && p->looked);
}

static void
swap_own_loyalty(struct soc_state *st, unsigned k)
{
    for (unsigned t = 1; t <= st->p.n; t++)
        if (t != k && st->h.loyalty[t] != st->h.loyalty[k]) {
            const uint8_t x = st->h.loyalty[t];

            st->h.loyalty[t] = st->h.loyalty[k];
            st->h.loyalty[k] = x;
            st->h.traitor = (uint8_t)(x == SOC_TRAITOR ? k : t);
            return;
        }
}

START_TEST(test_players_no_leaks)
{
    static const char *const rules[] = {
        "players=5 traitor=on brave=off",
        "players=3 traitor=on brave=on",
        "players=7 traitor=on brave=off",
        "players=4 traitor=on brave=off own=on",
        "players=6 traitor=on brave=off own=on",
    };
    struct game g;
    struct soc_state *copy = malloc(sizeof(*copy));
    uint64_t move = 0;
    size_t checked = 0;

    ck_assert_ptr_nonnull(copy);
    g_init(&g, rules[_i], 90 + (unsigned)_i);
    g_drain(&g);
    while (!rpl__soc.play->is_over(g.st) && g.nlines < 4000) {
        const unsigned k = (unsigned)rpl__soc.play->turn(g.st);
        struct rpl__emit a, b;
        struct rpl__stream rng, again;
        uint8_t key[32] = {0};

        rpl__store_le64(key, move++);
        key[8] = (uint8_t)(0x40 + _i);
        rpl__stream_init_key(&rng, key);
        again = rng;
        ck_assert_int_eq(rpl__soc.live->bot(g.st, &g.env, RPL_BOT_PLAUSIBLE,
                                            &rng, &a, &g.err),
                         RPL_OK);
        ck_assert_uint_lt(strlen(a.line), sizeof(a.line) - 1);
        if (!sees_hidden(&g.st->p)) {
            memcpy(copy, g.st, sizeof(*copy));
            perturb(copy, k);
            if (g.st->p.brave && !g.st->p.loyalty_line[k])
                swap_own_loyalty(copy, k);
            ck_assert_int_eq(rpl__soc.live->bot(copy, &g.env, RPL_BOT_PLAUSIBLE,
                                                &again, &b, &g.err),
                             RPL_OK);
            ck_assert_msg(strcmp(a.line, b.line) == 0 &&
                              strcmp(a.value, b.value) == 0,
                          "p%u chose \"%s\" (%s), with other secrets \"%s\" "
                          "(%s), at line %zu",
                          k, a.line, a.value, b.line, b.value, g_no(&g) + 1);
            checked++;
        }
        ck_assert_int_eq(g_emit(&g, &a, true), RPL_OK);
        g_drain(&g);
    }
    ck_assert(rpl__soc.play->is_over(g.st));
    ck_assert_uint_gt(checked, 100);
    free(copy);
    g_free(&g);
}
END_TEST

/* What many games of seeded plausible players show. */
struct tally {
    unsigned games;
    unsigned knights;        /* end knights majority */
    unsigned reasons[6];     /* by enum soc_reason */
    unsigned accusations;    /* accuse lines */
    unsigned right;          /* the accused showed the traitor card */
    unsigned traitor_wrong;  /* accusations by the traitor */
    unsigned flips;          /* flip pK: the traitor revealed at the end */
    unsigned revealed_early; /* by an accusation */
};

static void
tally_game(struct tally *t, const struct game *g)
{
    const struct soc_state *st = g->st;
    unsigned accuser = 0;

    t->games++;
    t->reasons[st->p.reason]++;
    t->knights += st->p.winner == SOC_W_KNIGHTS;
    for (size_t i = 0; i < g->nlines; i++) {
        const char *l = g->lines[i].text;
        unsigned a, b;

        if (sscanf(l, "accuse p%u p%u", &a, &b) == 2) {
            t->accusations++;
            accuser = a;
            t->traitor_wrong += st->h.loyalty[a] == SOC_TRAITOR;
        } else if (sscanf(l, "shows p%u", &a) == 1 && accuser &&
                   strstr(l, " traitor")) {
            t->right++;
            t->revealed_early++;
        } else if (sscanf(l, "flip p%u", &a) == 1) {
            t->flips++;
        }
        if (strncmp(l, "accuse ", 7) != 0)
            accuser = 0;
    }
}

static void
play_many(struct tally *t, const char *rules, unsigned games, unsigned base)
{
    memset(t, 0, sizeof(*t));
    for (unsigned i = 0; i < games; i++) {
        struct game g;

        g_init(&g, rules, base + i);
        g_play(&g, RPL_BOT_PLAUSIBLE, 4000, NULL, false);
        ck_assert(rpl__soc.play->is_over(g.st));
        tally_game(t, &g);
        g_free(&g);
    }
}

/* Loyal knights win a share of their games, for every reason the game
 * can end, and the traitor is caught sometimes and flips swords at the
 * end other times; accusations are right and wrong, and the traitor
 * accuses too. */
START_TEST(test_players_compete)
{
    struct tally t, u;

    /* Without a traitor the knights win often at many seats. */
    play_many(&t, "players=6 traitor=off brave=off", 40, 500);
    ck_assert_uint_ge(t.knights * 4, t.games);
    ck_assert_uint_eq(t.accusations, 0);
    /* With one possible, seven seats: every kind of end and reveal. */
    play_many(&u, "players=7 traitor=on brave=off", 120, 600);
    ck_assert_uint_gt(u.knights, 0);
    ck_assert_uint_lt(u.knights, u.games);
    ck_assert_uint_gt(u.reasons[SOC_R_SIEGE], 0);
    ck_assert_uint_gt(u.reasons[SOC_R_MAJORITY], 0);
    ck_assert_uint_gt(u.right, 0);
    ck_assert_uint_gt(u.accusations - u.right, 0);
    ck_assert_uint_gt(u.traitor_wrong, 0);
    ck_assert_uint_gt(u.flips, 0);
    ck_assert_uint_gt(u.revealed_early, 0);
    /* Four seats: the game still ends every way evil can win. */
    play_many(&t, "players=4 traitor=on brave=off", 150, 800);
    ck_assert_uint_gt(t.reasons[SOC_R_SIEGE] + u.reasons[SOC_R_SIEGE], 0);
    ck_assert_uint_gt(t.reasons[SOC_R_BLACK] + u.reasons[SOC_R_BLACK], 0);
    ck_assert_uint_gt(t.reasons[SOC_R_DEATHS] + u.reasons[SOC_R_DEATHS], 0);
}
END_TEST

START_TEST(test_descriptions)
{
    struct game g;
    struct rpl__line ln;
    struct rpl_error err;

    g_start(&g, "players=6 traitor=on brave=off", 80);
    g_play(&g, RPL_BOT_PLAUSIBLE, 5000, NULL, false);
    for (size_t i = 0; i < g.nlines; i++) {
        struct rpl__buf b;
        char *text = NULL;
        json_t *j;
        json_error_t jerr;

        ck_assert_int_eq(rpl__line_split(&ln, g.lines[i].text,
                                         strlen(g.lines[i].text), i + 1, &err),
                         RPL_OK);
        rpl__buf_init(&b, g.ctx);
        rpl__soc.views->describe(g.st, &g.env, &ln, RPL_VIEW_PUBLIC, &b);
        ck_assert_int_eq(rpl__buf_take(&b, &text, NULL), RPL_OK);
        ck_assert_msg(strcmp(text, g.lines[i].text) != 0, "no words for \"%s\"",
                      g.lines[i].text);
        rpl_free(g.ctx, text);
        rpl__buf_init(&b, g.ctx);
        rpl__soc.views->events_json(g.st, &g.env, &ln, &b);
        ck_assert_int_eq(rpl__buf_take(&b, &text, NULL), RPL_OK);
        j = json_loads(text, 0, &jerr);
        ck_assert_msg(j && json_is_array(j) && json_array_size(j) == 1,
                      "events of \"%s\": %s", g.lines[i].text, text);
        json_decref(j);
        rpl_free(g.ctx, text);
    }
    for (int v = -1; v <= 6; v++) {
        char *text = view_of(&g, g.st, v, true);
        json_t *j = json_loads(text, 0, NULL);

        ck_assert_ptr_nonnull(j);
        ck_assert_int_eq(json_is_object(json_object_get(j, "known")), v != 0);
        json_decref(j);
        rpl_free(g.ctx, text);
    }
    {
        struct rpl__buf b;
        char *text = NULL;
        json_t *j;

        rpl__buf_init(&b, g.ctx);
        rpl__soc.views->reveal_json(g.st, &g.env, &b);
        ck_assert_int_eq(rpl__buf_take(&b, &text, NULL), RPL_OK);
        j = json_loads(text, 0, NULL);
        ck_assert_ptr_nonnull(j);
        ck_assert_uint_eq(json_array_size(json_object_get(j, "seats")), 6);
        json_decref(j);
        rpl_free(g.ctx, text);
        rpl__buf_init(&b, g.ctx);
        rpl__soc.views->reveal_text(g.st, &g.env, &b);
        ck_assert_int_eq(rpl__buf_take(&b, &text, NULL), RPL_OK);
        ck_assert(strstr(text, "Alice (p1): "));
        rpl_free(g.ctx, text);
    }
    g_free(&g);
}
END_TEST

static unsigned long
games_wanted(void)
{
    const char *s = getenv("CAMELOG_SOC_GAMES");

    return s && *s ? strtoul(s, NULL, 10) : 10000ul;
}

START_TEST(test_property)
{
    const unsigned long games = games_wanted();
    struct soc_state *re = calloc(1, sizeof(*re));
    unsigned long ends[2][6] = {{0}};
    uint8_t(*dig)[32] = calloc(5000, sizeof(*dig));
    bool *has = calloc(5000, sizeof(*has));
    struct line *keep = NULL;
    size_t keep_cap = 0;

    ck_assert_ptr_nonnull(re);
    ck_assert(dig && has);
    for (unsigned long i = 0; i < games; i++) {
        struct game g;
        struct rpl_error err;
        struct rpl__line ln;
        char rules[96], line[128];
        size_t seats, batch_end = 0;
        const unsigned n = 3 + (unsigned)(i % 5);
        const bool traitor = (i / 5) % 4 != 3;
        const bool brave = n == 3 && traitor && (i / 20) % 2;
        const enum rpl_bot kind =
            (i / 40) % 2 ? RPL_BOT_PLAUSIBLE : RPL_BOT_RANDOM;

        /* own=on (each knight's own decisions) every other pair of
         * 40 games, own=off (camelog 1 files) the others. */
        snprintf(rules, sizeof(rules), "players=%u traitor=%s brave=%s%s", n,
                 traitor ? "on" : "off", brave ? "on" : "off",
                 (i / 80) % 2 ? " own=on" : "");
        g_init(&g, rules, 1000 + (unsigned)i);
        g.lines = keep; /* the line buffer serves every game */
        g.cap = keep_cap;
        memset(has, 0, 5000 * sizeof(*has));
        /* Play, checking every card after every move. */
        {
            uint64_t move = 0;

            g_drain(&g);
            while (!rpl__soc.play->is_over(g.st)) {
                struct rpl__emit e;
                struct rpl__stream rng;
                uint8_t key[32] = {0}, buf[4096];
                size_t len;

                REQUIRE(g.nlines < 4900, "game %lu does not end", i);
                rpl__store_le64(key, move++);
                rpl__store_le64(key + 8, i);
                rpl__stream_init_key(&rng, key);
                REQUIRE(rpl__soc.live->bot(g.st, &g.env, kind, &rng, &e,
                                           &g.err) == RPL_OK,
                        "game %lu: %s", i, g.err.msg);
                REQUIRE(g_emit(&g, &e, true) == RPL_OK, "game %lu \"%s\": %s",
                        i, e.line, g.err.msg);
                g_drain(&g);
                check_cards(g.st);
                len = rpl__soc.play->serialize(g.st, buf, sizeof(buf));
                REQUIRE(len <= sizeof(buf), "state too big");
                batch_end = g.nlines - 1;
                rpl__hash(dig[batch_end], NULL, buf, len);
                has[batch_end] = true;
            }
        }
        ends[g.st->p.winner == SOC_W_KNIGHTS][g.st->p.reason]++;
        /* The same lines on a public state, then the reveal. */
        REQUIRE(public_replay(&g, &err, true) == RPL_OK,
                "game %lu: line %zu: %s", i, err.line, err.msg);
        /* A knowing replay from the text: the same digests. */
        memset(re, 0, sizeof(*re));
        snprintf(line, sizeof(line), "rules %s", rules);
        ck_assert_int_eq(rpl__line_split(&ln, line, strlen(line), 4, &err),
                         RPL_OK);
        ck_assert_int_eq(rpl__soc.play->rules(re, &ln, &g.env, &seats, &err),
                         RPL_OK);
        ck_assert_int_eq(rpl__soc.play->setup(re, &g.env, &err), RPL_OK);
        for (size_t c = 0; c < g.st->p.nchoice; c++) {
            struct rpl__emit e;
            char *v;

            ck_assert(rpl__soc.play->open_line(g.st, c, &e));
            /* "open <kind> <d> <pK> <value>" */
            v = strrchr(e.line, ' ');
            *v++ = '\0';
            ck_assert_int_eq(rpl__soc.play->learn(re, e.line + 5, v, &err),
                             RPL_OK);
        }
        for (size_t l = 0; l < g.nlines; l++) {
            REQUIRE(apply_text(re, &g.env, g.lines[l].text, g.first_no + l + 1,
                               &err) == RPL_OK,
                    "game %lu replay \"%s\": %s", i, g.lines[l].text, err.msg);
            if (has[l]) {
                uint8_t buf[4096], h[32];
                const size_t len =
                    rpl__soc.play->serialize(re, buf, sizeof(buf));

                rpl__hash(h, NULL, buf, len);
                REQUIRE(memcmp(h, dig[l], 32) == 0,
                        "game %lu: digest differs after line %zu", i,
                        g.first_no + l + 1);
            }
        }
        keep = g.lines;
        keep_cap = g.cap;
        g.lines = NULL;
        g_free(&g);
    }
    free(keep);
    free(dig);
    free(has);
    free(re);
    /* Both sides win some games over many seeds. */
    if (games >= 1000) {
        unsigned long evil = 0;

        for (unsigned r = 0; r < 6; r++)
            evil += ends[0][r];
        ck_assert_uint_gt(evil, 0);
    }
}
END_TEST

START_TEST(test_reshuffle)
{
    struct game g;
    struct soc_hid *h;
    unsigned k;
    size_t mark;

    g_start(&g, "players=4 traitor=on brave=off", 90);
    h = &g.st->h;
    /* All but one white card of the deck to the discards. */
    while (h->wn > 1) {
        const unsigned c = h->wpile[h->whead];

        h->whead = (uint8_t)((h->whead + 1u) % SOC_NWHITE);
        h->wn--;
        g.st->p.wpile_n--;
        h->wdisc[c]++;
        g.st->p.wdisc[c]++;
    }
    /* And some black cards too: both piles are shuffled together. */
    table_black(&g, SOC_DESPAIR);
    g.st->p.btable[SOC_DESPAIR - SOC_B0]--;
    g.st->p.bdisc[SOC_DESPAIR - SOC_B0]++;
    h->bdisc[SOC_DESPAIR - SOC_B0]++;
    check_cards(g.st);
    k = 2;
    heroic(&g, k);
    mark = g.nlines;
    actf(&g, "draw p%u", k);
    ck_assert(saw(&g, mark, "white p"));
    ck_assert_uint_eq(g.st->p.wshuffles, 2);
    ck_assert_uint_eq(g.st->p.bshuffles, 2);
    ck_assert_uint_eq(g.st->p.bdisc[SOC_DESPAIR - SOC_B0], 0);
    check_cards(g.st);
    g_free(&g);
}
END_TEST

START_TEST(test_windows_misc)
{
    struct game g;
    unsigned k;

    /* The Grail's holder may save himself. */
    g_start(&g, "players=5 traitor=on brave=off", 91);
    k = 3;
    g.st->p.relic[SOC_REL_GRAIL] = (uint8_t)k;
    g.st->p.seat[k].lp = 1;
    set_turn(&g, k);
    actf(&g, "evil p%u life", k);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_SAVE);
    ck_assert_uint_eq(g.st->p.need.seat, k);
    actf(&g, "save p%u", k);
    ck_assert_uint_eq(g.st->p.seat[k].lp, 4);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_HEROIC);
    /* Declined: the knight dies, his cards and relics go. */
    g.st->p.relic[SOC_REL_GRAIL] = 2;
    g.st->p.relic[SOC_ARMOR] = (uint8_t)k;
    g.st->p.seat[k].lp = 1;
    set_turn(&g, k);
    actf(&g, "evil p%u life", k);
    actf(&g, "pass p2");
    ck_assert(strncmp(last_line(&g, 0), "dies p3", 7) == 0);
    ck_assert_uint_eq(g.st->p.relic[SOC_ARMOR], SOC_RELIC_BOX);
    ck_assert_uint_eq(g.st->p.seat[k].hand_n, 0);
    ck_assert_int_eq(g.st->p.need.kind, SOC_N_EVIL);
    ck_assert_uint_eq(g.st->p.need.seat, 4);
    /* The dead take no turn. */
    set_turn(&g, 2);
    actf(&g, "evil p2 siege");
    actf(&g, "draw p2");
    actf(&g, "done p2");
    ck_assert_uint_eq(g.st->p.need.seat, 4);
    check_cards(g.st);
    g_free(&g);

    /* Clairvoyance with a short deck looks at what there is. */
    g_start(&g, "players=4 traitor=on brave=off", 92);
    k = 1;
    while (g.st->p.bpile_n > 3) {
        const unsigned c = g.st->h.bpile[g.st->h.bhead];

        table_black(&g, c);
    }
    hand_set(&g, k, "clairvoyance");
    heroic(&g, k);
    actf(&g, "special p%u clairvoyance", k);
    ck_assert(strstr(last_line(&g, 0), " 3 "));
    g_free(&g);
}
END_TEST

START_TEST(test_abort)
{
    struct game g;
    struct rpl__emit e;
    const char *winner, *reason;

    g_start(&g, "players=4 traitor=on brave=off", 93);
    memset(&e, 0, sizeof(e));
    snprintf(e.line, sizeof(e.line), "end aborted");
    ck_assert_int_eq(g_emit(&g, &e, false), RPL_OK);
    ck_assert(rpl__soc.play->is_over(g.st));
    rpl__soc.play->outcome(g.st, &winner, &reason);
    ck_assert_str_eq(winner, "aborted");
    ck_assert_str_eq(reason, "aborted");
    ck_assert_int_eq(apply_text(g.st, &g.env, "done p1", g_no(&g) + 1, &g.err),
                     RPL_E_RULES);
    ck_assert_uint_eq(rpl__soc.play->turn(g.st), 0);
    g_free(&g);

    /* Not once the end is decided. */
    g_start(&g, "players=4 traitor=on brave=off", 94);
    g.st->p.siege = 11;
    set_turn(&g, 1);
    actf(&g, "evil p1 siege");
    ck_assert(rpl__soc.play->is_over(g.st));
    ck_assert_int_eq(
        apply_text(g.st, &g.env, "end aborted", g_no(&g) + 1, &g.err),
        RPL_E_RULES);
    g_free(&g);
}
END_TEST

/* ------------------------------------------------------------- suite */

Suite *
soc_suite(void)
{
    Suite *s = suite_create("soc");
    TCase *tc = tcase_create("cards");

    tcase_add_test(tc, test_card_totals);
    tcase_add_test(tc, test_card_table_tsv);
    tcase_add_test(tc, test_card_lists);
    suite_add_tcase(s, tc);

    tc = tcase_create("quests");
    tcase_add_test(tc, test_black_knight_won);
    tcase_add_test(tc, test_black_knight_pattern);
    tcase_add_test(tc, test_black_knight_lost_tie);
    tcase_add_test(tc, test_lancelot_won);
    tcase_add_test(tc, test_lancelot_lost);
    tcase_add_test(tc, test_dragon_won);
    tcase_add_test(tc, test_dragon_lost);
    tcase_add_test(tc, test_excalibur);
    tcase_add_test(tc, test_grail);
    tcase_add_test(tc, test_wars);
    tcase_add_test(tc, test_mordred);
    suite_add_tcase(s, tc);

    tc = tcase_create("knights");
    tcase_add_test(tc, test_arthur);
    tcase_add_test(tc, test_galahad);
    tcase_add_test(tc, test_gawain);
    tcase_add_test(tc, test_kay);
    tcase_add_test(tc, test_palamedes);
    tcase_add_test(tc, test_percival);
    tcase_add_test(tc, test_tristan);
    suite_add_tcase(s, tc);

    tc = tcase_create("white_cards");
    tcase_add_test(tc, test_merlin);
    tcase_add_test(tc, test_convocation);
    tcase_add_test(tc, test_own_merlins);
    tcase_add_test(tc, test_own_volunteer);
    tcase_add_test(tc, test_own_convocation);
    tcase_add_test(tc, test_memory_public);
    tcase_add_test(tc, test_memory_suspect);
    tcase_add_test(tc, test_pool_random);
    tcase_add_test(tc, test_fate);
    tcase_add_test(tc, test_heroism);
    tcase_add_test(tc, test_lady_of_the_lake);
    tcase_add_test(tc, test_messenger);
    tcase_add_test(tc, test_piety);
    tcase_add_test(tc, test_clairvoyance);
    tcase_add_test(tc, test_reinforcements);
    suite_add_tcase(s, tc);

    tc = tcase_create("black_cards");
    tcase_add_test(tc, test_morgan);
    tcase_add_test(tc, test_desolation_dark_forest);
    tcase_add_test(tc, test_guinevere);
    tcase_add_test(tc, test_mists_vivien);
    tcase_add_test(tc, test_relics);
    suite_add_tcase(s, tc);

    tc = tcase_create("traitor");
    tcase_add_test(tc, test_accusation);
    tcase_add_test(tc, test_end_majority);
    tcase_add_test(tc, test_end_losses);
    tcase_add_test(tc, test_sacrifice_last_life);
    tcase_add_test(tc, test_brave);
    suite_add_tcase(s, tc);

    tc = tcase_create("reveal");
    tcase_add_test(tc, test_reveal_honest);
    tcase_add_test(tc, test_reveal_white_not_held);
    tcase_add_test(tc, test_reveal_black_forged);
    tcase_add_test(tc, test_reveal_claims);
    tcase_add_test(tc, test_rejections);
    suite_add_tcase(s, tc);

    tc = tcase_create("property");
    tcase_set_timeout(tc, 1200);
    tcase_add_loop_test(tc, test_no_leaks, 0, 3);
    tcase_add_loop_test(tc, test_players_no_leaks, 0, 5);
    tcase_add_test(tc, test_players_compete);
    tcase_add_test(tc, test_descriptions);
    tcase_add_test(tc, test_property);
    suite_add_tcase(s, tc);

    tc = tcase_create("misc");
    tcase_add_test(tc, test_reshuffle);
    tcase_add_test(tc, test_windows_misc);
    tcase_add_test(tc, test_abort);
    suite_add_tcase(s, tc);
    return s;
}
