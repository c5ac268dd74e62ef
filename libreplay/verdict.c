/*
 * verdict.c - what camelog verify says of one file (camelog-verify(1)),
 * built once for the tool and for the WebAssembly verifier: the summary
 * after "FILE: " ("ok (complete, 2 seals, 0 sigs; seed: dealer only)",
 * "FAILED line 7", "ERROR"), the seed's provenance line, the warnings
 * verify adds of its own after the log's (W-seed, W-v1, W-reveal), the
 * rule of --require=reveal, and the JSON object of --json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define OWN_MAX 3

struct rpl_verdict {
    struct rpl_ctx *ctx;
    const struct rpl_log *log; /* lent; NULL when the file was not read */
    struct rpl_report rep;
    enum rpl_status status;
    size_t shown; /* the log's warnings rpl_log_warning() holds */
    size_t nown;  /* verify's own, after them */
    const char *own[OWN_MAX];
    char variants[RPL_VARIANTS_MAX];
    char summary[RPL_VARIANTS_MAX + 256];
    char provenance[RPL_SEATS_MAX * 48 + 1]; /* "" when none */
};

/* A log whose seed no seat contributed to: the dealer alone chose it,
 * so the deal is only as fair as the dealer. */
static const char seed_warning[] = "W-seed: no seat contributed entropy; the "
                                   "dealer alone chose the seed";

/* A format 1 log: the guarantees of format 2 it lacks, in one warning. */
static const char v1_warning[] =
    "W-v1: format 1 lacks pledged entropy (its dealer could drop a "
    "contribution or let a seat choose its own last), a sealed start "
    "for each seat to keep, and the abandoned line";

/* A finished game whose dealer never revealed S: its deal, its private
 * messages and its secret choices were never checked. */
static const char reveal_warning[] = "W-reveal: the game is finished but the "
                                     "dealer never revealed its secret: the "
                                     "deal, the private messages and the "
                                     "secret choices are unchecked";

static const char *
plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* The text after "FILE: " for a log that was read. */
static void
summary_text(struct rpl_verdict *v, bool is_text)
{
    const struct rpl_report *rep = &v->rep;
    char seed[96];
    char vtext[RPL_VARIANTS_MAX + 16] = "";
    char *out = v->summary;
    const size_t cap = sizeof(v->summary);
    /* An imported game was dealt elsewhere: its rules are checked, its
     * fairness cannot be (camelog(5), "Imported games"). */
    const char *imp = rep->is_imported
                          ? "imported: rules checked; fairness cannot be "
                            "proven; "
                      : is_text ? "text, "
                                : "";

    if (rep->error.code != RPL_OK) {
        snprintf(out, cap, "FAILED line %zu", rep->error.line);
        return;
    }
    /* Where the seed came from; nothing for an imported game, whose
     * deal does not come from the seed. */
    if (rep->is_imported)
        seed[0] = '\0';
    else if (rep->entropy_seats == 0)
        snprintf(seed, sizeof(seed), "; seed: dealer only");
    else
        snprintf(seed, sizeof(seed), "; seed: %zu of %zu %s, %zu signed",
                 rep->entropy_seats, rep->seats,
                 plural(rep->seats, "seat", "seats"), rep->entropy_signed);
    /* The house rules in force (the game's man page, Variants). */
    if (v->variants[0] != '\0')
        snprintf(vtext, sizeof(vtext), "house rules %s; ", v->variants);
    switch (rep->progress) {
    case RPL_PROGRESS_IN_PROGRESS:
        snprintf(out, cap, "ok (%s%s%s%s)", imp, vtext,
                 rpl_progress_text(rep->progress), seed);
        break;
    case RPL_PROGRESS_FINISHED:
        if (rep->abandoned_by) {
            snprintf(out, cap,
                     "ok (%s%sabandoned: p%zu did not reveal its "
                     "entropy%s)",
                     imp, vtext, rep->abandoned_by, seed);
            break;
        }
        snprintf(out, cap, "ok (%s%s%s%s)", imp, vtext,
                 rpl_progress_text(rep->progress), seed);
        break;
    case RPL_PROGRESS_COMPLETE:
        snprintf(out, cap, "ok (%s%s%s, %zu %s, %zu %s%s)", imp, vtext,
                 rpl_progress_text(rep->progress), rep->seals,
                 plural(rep->seals, "seal", "seals"), rep->sigs,
                 plural(rep->sigs, "sig", "sigs"), seed);
        break;
    }
}

/* The seed's provenance, seat by seat: who committed and revealed, and
 * whether signed; when any seat took part. */
static void
provenance_text(struct rpl_verdict *v)
{
    const struct rpl_report *rep = &v->rep;
    char *out = v->provenance;
    const size_t cap = sizeof(v->provenance);
    size_t n = 0;

    out[0] = '\0';
    if (v->status != RPL_OK || rep->is_imported ||
        (rep->entropy_seats == 0 && rep->pledged == 0))
        return;
    for (size_t k = 1; k <= rep->seats && k <= RPL_SEATS_MAX && n < cap; k++) {
        const uint32_t b = 1u << (k - 1);
        const char *sep = k < rep->seats ? ";" : "";
        int m;

        if (rep->version >= 2 && (rep->pledged & b) && (rep->revealed & b)) {
            const bool both =
                (rep->pledge_signed & b) && (rep->reveal_signed & b);
            const bool any = (rep->pledge_signed | rep->reveal_signed) & b;

            m = snprintf(out + n, cap - n,
                         " p%zu committed and revealed (%s)%s", k,
                         both  ? "signed"
                         : any ? "partly signed"
                               : "unsigned",
                         sep);
        } else if (rep->version >= 2 && (rep->pledged & b)) {
            m = snprintf(out + n, cap - n,
                         " p%zu committed (%s), never revealed%s", k,
                         (rep->pledge_signed & b) ? "signed" : "unsigned", sep);
        } else if (rep->revealed & b) {
            m = snprintf(out + n, cap - n, " p%zu gave entropy (%s)%s", k,
                         (rep->reveal_signed & b) ? "signed" : "unsigned", sep);
        } else {
            m = snprintf(out + n, cap - n, " p%zu took no part%s", k, sep);
        }
        n += m > 0 ? (size_t)m : 0;
    }
}

enum rpl_status
rpl_verdict_new(struct rpl_ctx *ctx, const struct rpl_log *log,
                const struct rpl_report *rep, enum rpl_status st,
                unsigned flags, struct rpl_verdict **out, struct rpl_error *err)
{
    struct rpl_verdict *v;

    rpl__err_clear(err);
    *out = NULL;
    v = rpl__calloc(ctx, 1, sizeof(*v));
    if (!v)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    v->ctx = ctx;
    v->log = log;
    v->rep = *rep;
    v->status = st;
    if (!log) {
        /* Not read: the read's failure is all there is to say. */
        memset(&v->rep, 0, sizeof(v->rep));
        v->rep.error = rep->error;
        if (rpl_status_is_invalid_input(st))
            snprintf(v->summary, sizeof(v->summary), "FAILED line %zu",
                     rep->error.line);
        else
            snprintf(v->summary, sizeof(v->summary), "ERROR");
        *out = v;
        return RPL_OK;
    }
    while (v->shown < rep->warnings && rpl_log_warning(log, v->shown, NULL))
        v->shown++;
    if (st == RPL_OK && !rep->is_imported && rep->entropy_seats == 0)
        v->own[v->nown++] = seed_warning;
    if (st == RPL_OK && rep->version == 1)
        v->own[v->nown++] = v1_warning;
    if (st == RPL_OK && rep->progress == RPL_PROGRESS_FINISHED &&
        !rep->abandoned_by) {
        v->own[v->nown++] = reveal_warning;
        if (flags & RPL_VERDICT_REVEAL) {
            v->status = RPL_E_INCOMPLETE;
            memset(&v->rep.error, 0, sizeof(v->rep.error));
            v->rep.error.code = v->status;
            v->rep.error.line = rpl_log_lines(log);
            snprintf(v->rep.error.msg, sizeof(v->rep.error.msg),
                     "--require=reveal: the game is finished and its "
                     "dealer never revealed its secret");
        }
    }
    (void)rpl_log_variants(log, v->variants, sizeof(v->variants));
    summary_text(v, (flags & RPL_VERDICT_TEXT) || rpl_log_is_text(log));
    provenance_text(v);
    *out = v;
    return RPL_OK;
}

void
rpl_verdict_free(struct rpl_verdict *v)
{
    if (v)
        rpl_free(v->ctx, v);
}

enum rpl_status
rpl_verdict_status(const struct rpl_verdict *v, struct rpl_error *err)
{
    if (err)
        *err = v->rep.error;
    return v->status;
}

const char *
rpl_verdict_summary(const struct rpl_verdict *v)
{
    return v->summary;
}

const char *
rpl_verdict_warning(const struct rpl_verdict *v, size_t i, size_t *line,
                    size_t *unshown)
{
    const char *w;

    if (unshown)
        *unshown = 0;
    if (i < v->shown) {
        w = rpl_log_warning(v->log, i, line);
        if (unshown && i + 1 == v->shown)
            *unshown = v->rep.warnings - v->shown;
        return w;
    }
    i -= v->shown;
    if (i >= v->nown)
        return NULL;
    if (line)
        *line = 0;
    return v->own[i];
}

enum rpl_status
rpl_verdict_text(const struct rpl_verdict *v, const char *file, char **text,
                 struct rpl_error *err)
{
    struct rpl__buf b;

    rpl__err_clear(err);
    rpl__buf_init(&b, v->ctx);
    rpl__buf_printf(&b, "%s: %s\n", file, v->summary);
    if (v->provenance[0] != '\0')
        rpl__buf_printf(&b, "%s: seed provenance:%s\n", file, v->provenance);
    return rpl__buf_take(&b, text, err);
}

/* ------------------------------------------------------------- JSON */

static json_t *
jsize(size_t n)
{
    return json_integer((json_int_t)n);
}

static json_t *
text_or_null(const char *s)
{
    return s[0] != '\0' ? rpl__jtext(s) : json_null();
}

/* The seats of mask as a JSON array of numbers. */
static json_t *
seats_json(struct rpl__jb *j, uint32_t mask)
{
    json_t *a = json_array();

    for (size_t k = 1; a && k <= RPL_SEATS_MAX; k++)
        if (mask & (1u << (k - 1)))
            rpl__japp(j, a, jsize(k));
    return a;
}

/* The seed's provenance: {"seats": K, "of": N, "signed": M, ...}. */
static json_t *
seed_json(struct rpl__jb *j, const struct rpl_report *rep)
{
    json_t *o = json_object();

    rpl__jset(j, o, "seats", jsize(rep->entropy_seats));
    rpl__jset(j, o, "of", jsize(rep->seats));
    rpl__jset(j, o, "signed", jsize(rep->entropy_signed));
    rpl__jset(j, o, "keyed", seats_json(j, rep->keyed));
    rpl__jset(j, o, "pledged", seats_json(j, rep->pledged));
    rpl__jset(j, o, "pledge_signed", seats_json(j, rep->pledge_signed));
    rpl__jset(j, o, "revealed", seats_json(j, rep->revealed));
    rpl__jset(j, o, "reveal_signed", seats_json(j, rep->reveal_signed));
    rpl__jset(j, o, "abandoned",
              rep->abandoned_by ? jsize(rep->abandoned_by) : json_null());
    return o;
}

/* The lines after the last seal, {"first": X, "last": Y}, or null. */
static json_t *
uncovered_json(struct rpl__jb *j, const struct rpl_report *rep)
{
    json_t *o;

    if (rep->unsealed_from == 0)
        return json_null();
    o = json_object();
    rpl__jset(j, o, "first", jsize(rep->unsealed_from));
    rpl__jset(j, o, "last", jsize(rep->lines));
    return o;
}

static json_t *
warnings_json(struct rpl__jb *j, const struct rpl_verdict *v)
{
    json_t *a = json_array();
    const char *w;
    size_t line = 0;

    for (size_t i = 0; (w = rpl_verdict_warning(v, i, &line, NULL)); i++) {
        json_t *o = json_object();

        rpl__jset(j, o, "line", jsize(line));
        rpl__jset(j, o, "text", rpl__jtext(w));
        rpl__japp(j, a, o);
    }
    return a;
}

/* The house rules, as a list of names. */
static json_t *
variants_json(struct rpl__jb *j, const char *list)
{
    json_t *a = json_array();

    for (const char *p = list; a && *p != '\0';) {
        const size_t n = strcspn(p, ",");

        rpl__japp(j, a, json_stringn(p, n));
        p += n + (p[n] == ',');
    }
    return a;
}

enum rpl_status
rpl_verdict_json(const struct rpl_verdict *v, const char *file, unsigned flags,
                 char **json, struct rpl_error *err)
{
    const struct rpl_report *rep = &v->rep;
    const bool valid = v->status == RPL_OK;
    const struct rpl_error *e = &rep->error;
    struct rpl__jb j = {true};
    struct rpl__buf b;
    json_t *o = json_object();
    char *s;

    rpl__err_clear(err);
    if (!o)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    if (file)
        rpl__jset(&j, o, "file", rpl__jtext(file));
    rpl__jset(&j, o, "valid", json_boolean(valid));
    rpl__jset(&j, o, "progress",
              valid ? json_string(rpl_progress_name(rep->progress))
                    : json_null());
    rpl__jset(&j, o, "line", valid ? json_null() : jsize(e->line));
    rpl__jset(&j, o, "error",
              valid ? json_null()
                    : rpl__jtext(e->code != RPL_OK && e->msg[0] != '\0'
                                     ? e->msg
                                     : rpl_strerror(v->status)));
    rpl__jset(&j, o, "code", json_string(rpl_status_name(v->status)));
    rpl__jset(&j, o, "warnings", warnings_json(&j, v));
    rpl__jset(&j, o, "seals", jsize(rep->seals));
    rpl__jset(&j, o, "sigs", jsize(rep->sigs));
    rpl__jset(&j, o, "commitments", jsize(rep->commitments));
    rpl__jset(&j, o, "lines", jsize(rep->lines));
    rpl__jset(&j, o, "game", text_or_null(rep->game));
    rpl__jset(&j, o, "id", text_or_null(rep->id));
    rpl__jset(&j, o, "winner", text_or_null(rep->winner));
    rpl__jset(&j, o, "reason", text_or_null(rep->reason));
    rpl__jset(&j, o, "key_pinned", json_boolean(rep->is_key_pinned));
    rpl__jset(&j, o, "imported", json_boolean(rep->is_imported));
    rpl__jset(&j, o, "seed", seed_json(&j, rep));
    rpl__jset(&j, o, "uncovered", uncovered_json(&j, rep));
    if (v->variants[0] != '\0')
        rpl__jset(&j, o, "variants", variants_json(&j, v->variants));
    if (flags & RPL_VERDICT_SUMMARY)
        rpl__jset(&j, o, "summary", rpl__jtext(v->summary));
    s = j.ok ? json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    json_decref(o);
    if (!s)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    rpl__buf_init(&b, v->ctx);
    rpl__buf_puts(&b, s);
    free(s);
    return rpl__buf_take(&b, json, err);
}
