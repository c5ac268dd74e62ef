/*
 * notation.c - the spelling of Avalon (camelog-avalon(7)): the rules line
 * read and checked (H-1..H-6, with its warnings), the game lines read
 * into struct av_parsed and their generic forms written back, and the
 * tables of names (roles in the canonical order of the rules line,
 * keywords, winners and reasons, sides and card values) with the team
 * sizes of rules/avalon.md §2.
 *
 * First in the module's dependency order (avalon.h): nothing here looks
 * at the game's progress, only at the rules line's part of the state
 * (seats, Lady, Targeting), so every other file of the module may use
 * it.
 */
#include <stdio.h>
#include <string.h>

#include "avalon.h"

/* ------------------------------------------------------------- tables */

const unsigned char rpl__av_team[6][5] = {
    {2, 3, 2, 3, 3}, {2, 3, 4, 3, 4}, {2, 3, 3, 4, 4},
    {3, 4, 4, 5, 5}, {3, 4, 4, 5, 5}, {3, 4, 4, 5, 5},
};
static const unsigned char av_good_n[6] = {3, 4, 4, 5, 6, 6};
static const unsigned char av_evil_n[6] = {2, 2, 3, 3, 3, 4};

const char *const rpl__av_role_name[AV_NROLES] = {
    "merlin",  "percival", "servant", "assassin",
    "morgana", "mordred",  "oberon",  "minion",
};

/* By enum av_variant: the canonical order of the variants= key. */
const char *const rpl__av_variant_name[AV_NVARIANTS] = {
    "assassin-morgana", "assassin-mordred",    "assassin-oberon",
    "percival-alone",   "assassin-names-evil",
};

/* The role that holds the Assassin's power under each assassin-ROLE
 * variant, by enum av_variant (AV_ASSASSIN: not such a variant). */
static const uint8_t variant_power[AV_NVARIANTS] = {
    AV_MORGANA, AV_MORDRED, AV_OBERON, AV_ASSASSIN, AV_ASSASSIN,
};

/* By enum av_reason (AV_R_EITHER has no token). */
const char *const rpl__av_reason_name[AV_R_ABORTED + 1] = {
    "",       "quests",  "failures", "rejections", "assassination",
    "missed", "aborted",
};
const char *const rpl__av_winner_name[AV_R_ABORTED + 1] = {
    "", "good", "evil", "evil", "evil", "good", "aborted",
};

static const char *const kw_name[AV_KW_COUNT] = {
    "start", "deal",  "propose", "vote",        "team",
    "card",  "quest", "lady",    "assassinate", "end",
};

/* ------------------------------------------------------------- names */

/* "p1,p3,p5" of a mask ("" for none). */
void
rpl__av_fmt_mask(char *out, size_t cap, uint16_t mask)
{
    uint8_t seats[AV_MAX_SEATS];
    size_t n = 0;

    for (unsigned k = 1; k <= AV_MAX_SEATS; k++)
        if (mask & bit(k))
            seats[n++] = (uint8_t)k;
    rpl__fmt_seats(out, cap, seats, n);
}

const char *
rpl__av_side_name(unsigned side)
{
    return side == AV_GOOD ? "good" : side == AV_EVIL ? "evil" : "unknown";
}

const char *
rpl__av_card_name(unsigned v)
{
    return v == AV_SUCCESS ? "success" : v == AV_FAIL ? "fail" : "unknown";
}

/* --------------------------------------------------------- rules line */

void
rpl__av_fmt_variants(char *out, size_t cap, unsigned mask)
{
    size_t len = 0;

    if (cap == 0)
        return;
    out[0] = '\0';
    for (unsigned v = 0; v < AV_NVARIANTS; v++) {
        int w;

        if (!(mask & (1u << v)))
            continue;
        w = snprintf(out + len, cap - len, "%s%s", len ? "," : "",
                     rpl__av_variant_name[v]);
        if (w < 0 || (size_t)w >= cap - len)
            return;
        len += (size_t)w;
    }
}

size_t
rpl__av_variants(const char *rules, size_t len, char *out, size_t cap)
{
    static const char key[] = " variants=";
    const size_t klen = sizeof(key) - 1;
    size_t i, n;

    if (cap == 0)
        return 0;
    out[0] = '\0';
    for (i = 0; i + klen <= len; i++)
        if (memcmp(rules + i, key, klen) == 0)
            break;
    if (i + klen > len)
        return 0;
    i += klen;
    for (n = 0; i + n < len && rules[i + n] != ' '; n++)
        ;
    if (n >= cap)
        n = cap - 1;
    memcpy(out, rules + i, n);
    out[n] = '\0';
    return n;
}

/* The value of variants= as a mask; false when it is not a list of
 * known names in canonical order, each once (an error in err). */
static bool
parse_variants(const struct rpl__tok *v, const struct rpl__line *ln,
               unsigned *mask, enum rpl_status *code, struct rpl_error *err)
{
    int last = -1;

    *mask = 0;
    for (size_t i = 0; i <= v->n;) {
        size_t j = i;
        int found = -1;

        while (j < v->n && v->p[j] != ',')
            j++;
        for (int k = 0; k < AV_NVARIANTS; k++)
            if (strlen(rpl__av_variant_name[k]) == j - i &&
                memcmp(rpl__av_variant_name[k], v->p + i, j - i) == 0)
                found = k;
        if (found < 0) {
            const struct rpl__tok one = {v->p + i, j - i};
            char show[64];

            rpl__tok_show(show, sizeof(show), &one);
            *code = j == i ? RPL_E_SYNTAX : RPL_E_RULES;
            rpl__err(err, *code, ln->no,
                     j == i ? "expected a variant name, got \"%s\""
                            : "V-1: unknown variant \"%s\"",
                     show);
            return false;
        }
        if (found <= last) {
            *code = RPL_E_SYNTAX;
            rpl__err(err, *code, ln->no,
                     "variants not in canonical order: %s after %s "
                     "(assassin-morgana, assassin-mordred, "
                     "assassin-oberon, percival-alone, "
                     "assassin-names-evil, each once)",
                     rpl__av_variant_name[found], rpl__av_variant_name[last]);
            return false;
        }
        last = found;
        *mask |= 1u << found;
        i = j + 1;
    }
    return true;
}

int
rpl__av_role_index(const char *p, size_t n)
{
    for (int i = 0; i < AV_NROLES; i++)
        if (strlen(rpl__av_role_name[i]) == n &&
            memcmp(rpl__av_role_name[i], p, n) == 0)
            return i;
    return -1;
}

static void
warn(const struct rpl__env *env, size_t line, const char *msg)
{
    if (env && env->warn)
        env->warn(env->w, line, msg);
}

static bool
tok_onoff(const struct rpl__tok *t, bool *on)
{
    if (rpl__tok_is(t, "on"))
        *on = true;
    else if (rpl__tok_is(t, "off"))
        *on = false;
    else
        return false;
    return true;
}

enum rpl_status
rpl__av_rules(void *st, const struct rpl__line *ln, const struct rpl__env *env,
              size_t *seats, struct rpl_error *err)
{
    static const char form[] = "rules players=N roles=LIST lady=on|off "
                               "targeting=on|off [variants=LIST]";
    struct av_state *s = st;
    struct rpl__tok vp, vr, vl, vt;
    unsigned long n = 0;
    size_t count[AV_NROLES] = {0};
    size_t good = 0, evil = 0;
    bool lady = false, targeting = false;
    int last = -1;
    unsigned variants = 0, power = AV_ASSASSIN, npowers = 0;
    struct rpl__tok vv;
    char msg[160];

    if ((ln->ntok != 5 && ln->ntok != 6) ||
        !rpl__tok_is(&ln->tok[0], "rules") ||
        !rpl__tok_kv(&ln->tok[1], "players", &vp) ||
        !rpl__tok_kv(&ln->tok[2], "roles", &vr) ||
        !rpl__tok_kv(&ln->tok[3], "lady", &vl) ||
        !rpl__tok_kv(&ln->tok[4], "targeting", &vt) ||
        !rpl__tok_uint(&vp, 1000, &n) || !tok_onoff(&vl, &lady) ||
        !tok_onoff(&vt, &targeting) ||
        (ln->ntok == 6 && !rpl__tok_kv(&ln->tok[5], "variants", &vv)))
        return rpl__err_expected(err, RPL_E_SYNTAX, ln, form);
    if (ln->ntok == 6) {
        enum rpl_status code = RPL_E_SYNTAX;

        if (!parse_variants(&vv, ln, &variants, &code, err))
            return code;
    }
    for (size_t i = 0; i <= vr.n;) {
        size_t j = i;
        bool lower = true;
        int r;

        while (j < vr.n && vr.p[j] != ',') {
            if (vr.p[j] < 'a' || vr.p[j] > 'z')
                lower = false;
            j++;
        }
        if (j == i || !lower) {
            const struct rpl__tok one = {vr.p + i, j - i};
            char show[64];

            rpl__tok_show(show, sizeof(show), &one);
            return rpl__err(err, RPL_E_SYNTAX, ln->no,
                            "expected a lowercase role name, got \"%s\"", show);
        }
        r = rpl__av_role_index(vr.p + i, j - i);
        if (r < 0) {
            const struct rpl__tok one = {vr.p + i, j - i};
            char show[64];

            rpl__tok_show(show, sizeof(show), &one);
            return rpl__err(err, RPL_E_RULES, ln->no,
                            "H-6: unsupported role \"%s\"", show);
        }
        if (r < last)
            return rpl__err(err, RPL_E_SYNTAX, ln->no,
                            "roles not in canonical order: %s after %s "
                            "(merlin, percival, servant, assassin, "
                            "morgana, mordred, oberon, minion)",
                            rpl__av_role_name[r], rpl__av_role_name[last]);
        last = r;
        count[r]++;
        if (av_is_evil((unsigned)r))
            evil++;
        else
            good++;
        i = j + 1;
    }
    if (n < 5 || n > 10)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "H-1: players=%lu, expected 5 to 10", n);
    for (int r = 0; r < AV_NROLES; r++)
        if (r != AV_SERVANT && r != AV_MINION && count[r] > 1)
            return rpl__err(err, RPL_E_RULES, ln->no,
                            "H-3: at most one %s, got %zu",
                            rpl__av_role_name[r], count[r]);
    if (good != av_good_n[n - 5] || evil != av_evil_n[n - 5])
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "H-2: %lu players need %u good and %u evil roles, "
                        "got %zu good and %zu evil",
                        n, av_good_n[n - 5], av_evil_n[n - 5], good, evil);
    /* The variants, each where it changes something (V-2..V-5). */
    for (unsigned v = 0; v < AV_NVARIANTS; v++) {
        if (!(variants & (1u << v)) || variant_power[v] == AV_ASSASSIN)
            continue;
        power = variant_power[v];
        npowers++;
        if (npowers > 1)
            return rpl__err(err, RPL_E_RULES, ln->no,
                            "V-2: one role holds the assassin's power, "
                            "got two assassin- variants");
        if (!count[power] || count[AV_ASSASSIN])
            return rpl__err(err, RPL_E_RULES, ln->no,
                            "V-3: %s needs %s in play and no assassin",
                            rpl__av_variant_name[v], rpl__av_role_name[power]);
    }
    if ((variants & (1u << AV_V_PERCIVAL_ALONE)) &&
        (!count[AV_PERCIVAL] || count[AV_MERLIN]))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "V-4: percival-alone needs percival in play without "
                        "merlin");
    if ((variants & (1u << AV_V_NAMES_EVIL)) && !count[AV_MERLIN])
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "V-5: assassin-names-evil needs merlin in play");
    if (count[AV_MERLIN] && !count[power])
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "H-4: merlin needs an assassin");
    if (count[AV_PERCIVAL] && !count[AV_MERLIN] &&
        !(variants & (1u << AV_V_PERCIVAL_ALONE)))
        return rpl__err(err, RPL_E_RULES, ln->no, "H-5: percival needs merlin");

    memset(s, 0, sizeof(*s));
    s->is_imported = env->imported;
    s->n = (uint8_t)n;
    s->is_lady = lady;
    s->is_targeting = targeting;
    s->variants = (uint8_t)variants;
    s->power = (uint8_t)power;
    for (int r = 0, k = 0; r < AV_NROLES; r++) {
        s->count[r] = (uint8_t)count[r];
        for (size_t c = 0; c < count[r]; c++)
            s->roster[k++] = (uint8_t)r;
    }
    s->phase = AV_PH_START;
    *seats = n;

    if (n == 5 && count[AV_PERCIVAL] && !count[AV_MORDRED] &&
        !count[AV_MORGANA])
        warn(env, ln->no,
             "O-1: percival at 5 players should come with mordred or "
             "morgana");
    if (lady && n < 7) {
        snprintf(msg, sizeof(msg),
                 "O-2: the lady of the lake with %lu players (advised from "
                 "7)",
                 n);
        warn(env, ln->no, msg);
    }
    if (count[AV_MORGANA] && !count[AV_PERCIVAL])
        warn(env, ln->no, "W-1: morgana without percival has no effect");
    if (count[AV_MORDRED] && !count[AV_MERLIN])
        warn(env, ln->no, "W-2: mordred without merlin has no effect");
    if (!count[AV_MERLIN])
        warn(env, ln->no,
             "W-3: no merlin: good wins on the third success, no "
             "assassination");
    if (count[AV_SERVANT] > 5 || count[AV_MINION] > 3) {
        snprintf(msg, sizeof(msg),
                 "W-4: %zu servants and %zu minions: the box has 5 and 3",
                 count[AV_SERVANT], count[AV_MINION]);
        warn(env, ln->no, msg);
    }
    return RPL_OK;
}

/* ---------------------------------------------------------- game lines */

int
rpl__av_keyword(const struct rpl__tok *t)
{
    return rpl__tok_find(t, kw_name, AV_KW_COUNT);
}

/* The generic form of a line, for syntax errors. */
void
rpl__av_form(const struct av_state *s, int kw, char *out, size_t cap)
{
    switch (kw) {
    case AV_KW_START:
        snprintf(out, cap, "%s",
                 s->is_lady ? "start leader=pL lady=pH" : "start leader=pL");
        break;
    case AV_KW_DEAL:
        snprintf(out, cap, "deal pK <commitment>");
        break;
    case AV_KW_PROPOSE:
        snprintf(out, cap, "%s",
                 s->is_targeting ? "propose pL qS pA,pB,..."
                                 : "propose pL pA,pB,...");
        break;
    case AV_KW_VOTE:
        snprintf(out, cap, "vote pK yes|no");
        break;
    case AV_KW_TEAM:
        snprintf(out, cap, "team approved|rejected Y-N");
        break;
    case AV_KW_CARD:
        snprintf(out, cap, "card pK <commitment>");
        break;
    case AV_KW_QUEST:
        snprintf(out, cap, "quest S success|fail fails=F");
        break;
    case AV_KW_LADY:
        snprintf(out, cap, "lady pH pT <commitment>");
        break;
    case AV_KW_ASSASSINATE:
        snprintf(out, cap, "assassinate pA pT");
        break;
    default:
        snprintf(out, cap, "end <winner> <reason>|end aborted");
        break;
    }
}

static bool
parse_team(const struct rpl__tok *t, size_t n, struct av_parsed *p)
{
    size_t prev = 0;
    bool sorted = true;

    if (t->n == 0)
        return false;
    for (size_t i = 0; i <= t->n;) {
        size_t j = i;
        size_t seat;
        struct rpl__tok one;

        while (j < t->n && t->p[j] != ',')
            j++;
        one.p = t->p + i;
        one.n = j - i;
        if (!rpl__tok_seat(&one, n, &seat))
            return false;
        if (p->team & bit((unsigned)seat)) {
            if (!p->dup)
                p->dup = seat;
        } else if (seat < prev) {
            sorted = false;
        }
        p->team |= bit((unsigned)seat);
        p->nteam++;
        prev = seat;
        i = j + 1;
    }
    return p->dup || sorted;
}

static bool
parse_tally(const struct rpl__tok *t, struct av_parsed *p)
{
    const char *dash = memchr(t->p, '-', t->n);
    struct rpl__tok y, n;

    if (!dash)
        return false;
    y.p = t->p;
    y.n = (size_t)(dash - t->p);
    n.p = dash + 1;
    n.n = t->n - y.n - 1;
    return rpl__tok_uint(&y, 10, &p->x) && rpl__tok_uint(&n, 10, &p->y);
}

static bool
parse_end(const struct rpl__line *ln, struct av_parsed *p)
{
    static const struct {
        const char *winner;
        const char *reason;
        unsigned code;
    } ends[] = {
        {"good", "quests", AV_R_QUESTS},
        {"evil", "failures", AV_R_FAILURES},
        {"evil", "rejections", AV_R_REJECTIONS},
        {"evil", "assassination", AV_R_ASSASSINATION},
        {"good", "missed", AV_R_MISSED},
    };

    if (ln->ntok == 2 && rpl__tok_is(&ln->tok[1], "aborted")) {
        p->reason = AV_R_ABORTED;
        return true;
    }
    if (ln->ntok != 3)
        return false;
    for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
        if (rpl__tok_is(&ln->tok[1], ends[i].winner) &&
            rpl__tok_is(&ln->tok[2], ends[i].reason)) {
            p->reason = ends[i].code;
            return true;
        }
    return false;
}

/* Checks the syntax of a line of keyword kw and reads it into p. */
bool
rpl__av_parse(const struct av_state *s, int kw, const struct rpl__line *ln,
              struct av_parsed *p)
{
    const struct rpl__tok *t = ln->tok;
    struct rpl__tok v;

    switch (kw) {
    case AV_KW_START:
        if (ln->ntok != (s->is_lady ? 3u : 2u) ||
            !rpl__tok_kv(&t[1], "leader", &v) ||
            !rpl__tok_seat(&v, s->n, &p->a))
            return false;
        return !s->is_lady || (rpl__tok_kv(&t[2], "lady", &v) &&
                               rpl__tok_seat(&v, s->n, &p->b));
    case AV_KW_DEAL:
    case AV_KW_CARD:
        return ln->ntok == 3 && rpl__tok_seat(&t[1], s->n, &p->a) &&
               rpl__tok_hex(&t[2], p->commit, 32);
    case AV_KW_PROPOSE:
        if (ln->ntok != (s->is_targeting ? 4u : 3u) ||
            !rpl__tok_seat(&t[1], s->n, &p->a))
            return false;
        if (s->is_targeting) {
            if (t[2].n < 2 || t[2].p[0] != 'q')
                return false;
            v.p = t[2].p + 1;
            v.n = t[2].n - 1;
            if (!rpl__tok_uint(&v, 5, &p->x) || p->x == 0)
                return false;
        }
        return parse_team(&t[ln->ntok - 1], s->n, p);
    case AV_KW_VOTE:
        if (ln->ntok != 3 || !rpl__tok_seat(&t[1], s->n, &p->a))
            return false;
        p->yes = rpl__tok_is(&t[2], "yes");
        return p->yes || rpl__tok_is(&t[2], "no");
    case AV_KW_TEAM:
        if (ln->ntok != 3)
            return false;
        p->yes = rpl__tok_is(&t[1], "approved");
        return (p->yes || rpl__tok_is(&t[1], "rejected")) &&
               parse_tally(&t[2], p);
    case AV_KW_QUEST:
        if (ln->ntok != 4 || !rpl__tok_uint(&t[1], 5, &p->x) || p->x == 0)
            return false;
        p->yes = rpl__tok_is(&t[2], "success");
        return (p->yes || rpl__tok_is(&t[2], "fail")) &&
               rpl__tok_kv(&t[3], "fails", &v) && rpl__tok_uint(&v, 99, &p->y);
    case AV_KW_LADY:
        return ln->ntok == 4 && rpl__tok_seat(&t[1], s->n, &p->a) &&
               rpl__tok_seat(&t[2], s->n, &p->b) &&
               rpl__tok_hex(&t[3], p->commit, 32);
    case AV_KW_ASSASSINATE:
        return ln->ntok == 3 && rpl__tok_seat(&t[1], s->n, &p->a) &&
               rpl__tok_seat(&t[2], s->n, &p->b);
    case AV_KW_END:
        return parse_end(ln, p);
    default:
        return false;
    }
}
