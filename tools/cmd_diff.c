/*
 * cmd_diff.c - camelog diff: the first line where two logs diverge.
 * Compares the canonical texts line by line; when both logs verify, each
 * diverging line is also told for people.  Exit 0 when the texts are
 * identical, 1 when they differ, 2 on error (as diff(1)).
 *
 * Two verified logs of one game id and one dealer key that part at a
 * line, each sealed by the dealer past that line, prove that the dealer
 * showed two histories: diff names the line and the seals that make the
 * proof.  When one side has only a seat's signature over the parting
 * line, it is a claim, not a proof: a seat can sign a history of its
 * own making, so diff reports it as the seat's word.
 *
 * Two verified logs of one table (the same header but for the id, the
 * created line and the commitment: one game, rules, seats, seat keys and
 * dealer key) and two game ids are two starts of that table; each one
 * that carries a seal of the dealer is the dealer's signed word that it
 * started that game, so two sealed starts prove it started the table
 * twice.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"

static const char usage[] = "usage: camelog diff [--json] a b\n";

static const char options[] =
    "options:\n"
    "  --json      one JSON object (keys in camelog-diff(1))\n"
    "  -h, --help  this help\n";

struct side {
    const char *file;
    struct rpl_log *log;
    bool is_verified;
    struct rpl_report rep;
};

/* What makes one side of a proof: the dealer's seals after the parting
 * line, and the seat signatures that cover it. */
#define EVIDENCE_MAX 64

struct evidence {
    size_t seals[EVIDENCE_MAX];
    size_t nseals;
    size_t sig_lines[EVIDENCE_MAX];
    size_t sig_seats[EVIDENCE_MAX];
    size_t nsigs;
};

static void
gather(const struct side *s, size_t part, struct evidence *ev)
{
    const size_t n = rpl_log_lines(s->log);
    size_t no;

    memset(ev, 0, sizeof(*ev));
    for (no = part + 1; no <= n; no++) {
        size_t len = 0, base = 0, seat = 0;
        const char *line = rpl_log_line(s->log, no, &len);
        struct rpl_error err;
        char tok[8];

        if (len > 5 && memcmp(line, "seal ", 5) == 0) {
            if (ev->nseals < EVIDENCE_MAX) {
                ev->seals[ev->nseals++] = no;
            }
            continue;
        }
        if (len < 7 || memcmp(line, "sig p", 5) != 0) {
            continue;
        }
        /* The sig on line no signs line no - 1 against the chain value
         * after line base: it covers the parting line when either
         * reaches it. */
        if (rpl_seat_sig_base(s->log, no, &base, &err) != RPL_OK ||
            (no - 1 != part && base < part)) {
            continue;
        }
        snprintf(tok, sizeof(tok), "%.*s", (int)strcspn(line + 4, " "),
                 line + 4);
        if (!cli_parse_seat(tok, &seat) || ev->nsigs == EVIDENCE_MAX) {
            continue;
        }
        ev->sig_lines[ev->nsigs] = no;
        ev->sig_seats[ev->nsigs++] = seat;
    }
}

/* What a and b, parting at line part, show: nothing (EV_NONE), a
 * claim (each side sealed by the dealer or signed by a seat past the
 * parting line, at least one by a seat only), or a proof (both sealed by
 * the dealer: only the dealer's key makes a seal). */
enum { EV_NONE, EV_CLAIM, EV_PROOF };

static int
is_proof(const struct side *a, const struct side *b, size_t part,
         struct evidence *ea, struct evidence *eb)
{
    struct rpl_pubkey ka, kb;

    if (!a->is_verified || !b->is_verified ||
        strcmp(a->rep.id, b->rep.id) != 0 || a->rep.id[0] == '\0' ||
        part > rpl_log_lines(a->log) || part > rpl_log_lines(b->log) ||
        !rpl_log_dealer(a->log, &ka) || !rpl_log_dealer(b->log, &kb) ||
        memcmp(&ka, &kb, sizeof(ka)) != 0) {
        return EV_NONE;
    }
    gather(a, part, ea);
    gather(b, part, eb);
    if (ea->nseals > 0 && eb->nseals > 0) {
        return EV_PROOF;
    }
    return (ea->nseals > 0 || ea->nsigs > 0) &&
                   (eb->nseals > 0 || eb->nsigs > 0)
               ? EV_CLAIM
               : EV_NONE;
}

/* Two starts of one table (a and b verified, of different ids and
 * otherwise the same header): the first seal of each (0: none). */
struct starts {
    size_t seal_a;
    size_t seal_b;
};

/* The header line no (through commit) that says what the table is: not
 * the id, the created line or the commitment. */
static bool
is_table_line(const char *s, size_t len)
{
    return !(len > 3 && memcmp(s, "id ", 3) == 0) &&
           !(len > 8 && memcmp(s, "created ", 8) == 0) &&
           !(len > 7 && memcmp(s, "commit ", 7) == 0);
}

/* The line of the header's commit line, 0 when the log has none. */
static size_t
commit_line(const struct rpl_log *log)
{
    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        size_t len = 0;
        const char *s = rpl_log_line(log, no, &len);

        if (len > 7 && memcmp(s, "commit ", 7) == 0) {
            return no;
        }
    }
    return 0;
}

static size_t
first_seal(const struct rpl_log *log)
{
    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        size_t len = 0;
        const char *s = rpl_log_line(log, no, &len);

        if (len > 5 && memcmp(s, "seal ", 5) == 0) {
            return no;
        }
    }
    return 0;
}

static bool
same_table(const struct side *a, const struct side *b, struct starts *st)
{
    const size_t ca = commit_line(a->log), cb = commit_line(b->log);
    size_t i = 1, j = 1;

    memset(st, 0, sizeof(*st));
    if (!a->is_verified || !b->is_verified || ca == 0 || cb == 0 ||
        a->rep.id[0] == '\0' || strcmp(a->rep.id, b->rep.id) == 0) {
        return false;
    }
    for (;;) {
        size_t la = 0, lb = 0;
        const char *sa = NULL, *sb = NULL;

        while (i <= ca && (sa = rpl_log_line(a->log, i, &la)) &&
               !is_table_line(sa, la)) {
            i++;
        }
        while (j <= cb && (sb = rpl_log_line(b->log, j, &lb)) &&
               !is_table_line(sb, lb)) {
            j++;
        }
        if (i > ca || j > cb) {
            if (i <= ca || j <= cb) {
                return false;
            }
            break;
        }
        if (la != lb || memcmp(sa, sb, la) != 0) {
            return false;
        }
        i++;
        j++;
    }
    st->seal_a = first_seal(a->log);
    st->seal_b = first_seal(b->log);
    return true;
}

/* Whether s's game was played to its end: finished, and neither aborted
 * nor abandoned before its start. */
static bool
played_out(const struct side *s)
{
    return s->rep.progress != RPL_PROGRESS_IN_PROGRESS &&
           strcmp(s->rep.winner, "aborted") != 0 &&
           strcmp(s->rep.winner, "abandoned") != 0;
}

static void
print_starts(const struct side *a, const struct side *b,
             const struct starts *st)
{
    printf("two starts of one table: game %s (", a->rep.id);
    if (st->seal_a) {
        printf("sealed at line %zu", st->seal_a);
    } else {
        printf("no seal");
    }
    printf(") and game %s (", b->rep.id);
    if (st->seal_b) {
        printf("sealed at line %zu", st->seal_b);
    } else {
        printf("no seal");
    }
    printf(")\n");
    if (st->seal_a && st->seal_b) {
        printf("proof: each start is sealed by the dealer: the dealer started "
               "this table twice\n");
    } else {
        printf("not a proof: a start without the dealer's seal is no one's "
               "signed word\n");
    }
    if (played_out(a) && played_out(b)) {
        printf("both games were played to their end: two games of one "
               "table, neither start abandoned\n");
    }
    for (int k = 0; k < 2; k++) {
        const struct side *s = k == 0 ? a : b;

        if (!played_out(s)) {
            printf("%s: game %s is not played to its end\n", s->file,
                   s->rep.id);
        }
    }
}

static json_t *
start_json(const struct side *s, size_t seal)
{
    json_t *o = json_object();

    cli_json_set(o, "id", json_string(s->rep.id));
    cli_json_set(o, "seal", seal ? cli_json_size(seal) : json_null());
    cli_json_set(o, "played_out", json_boolean(played_out(s)));
    return o;
}

static void
print_evidence(const struct side *s, const struct evidence *ev)
{
    size_t i;

    printf("  %s:", s->file);
    for (i = 0; i < ev->nseals; i++) {
        printf(" seal (line %zu)%s", ev->seals[i],
               i + 1 < ev->nseals || ev->nsigs > 0 ? "," : "");
    }
    for (i = 0; i < ev->nsigs; i++) {
        printf(" sig p%zu (line %zu)%s", ev->sig_seats[i], ev->sig_lines[i],
               i + 1 < ev->nsigs ? "," : "");
    }
    printf("\n");
}

static json_t *
evidence_json(const struct evidence *ev)
{
    json_t *o = json_object();
    json_t *seals = json_array();
    json_t *sigs = json_array();
    size_t i;

    for (i = 0; i < ev->nseals; i++) {
        json_array_append_new(seals, cli_json_size(ev->seals[i]));
    }
    for (i = 0; i < ev->nsigs; i++) {
        json_t *g = json_object();

        cli_json_set(g, "seat", cli_json_size(ev->sig_seats[i]));
        cli_json_set(g, "line", cli_json_size(ev->sig_lines[i]));
        json_array_append_new(sigs, g);
    }
    cli_json_set(o, "seals", seals);
    cli_json_set(o, "sigs", sigs);
    return o;
}

static int
load_side(struct rpl_ctx *ctx, struct side *s)
{
    struct rpl_error err;
    const enum rpl_status st = rpl_log_read(ctx, &s->log, s->file, &err);

    if (st != RPL_OK) {
        cli_file_error(s->file, st, &err);
        return CLI_EXIT_USAGE;
    }
    memset(&s->rep, 0, sizeof(s->rep));
    s->is_verified = rpl_log_verify(s->log, NULL, &s->rep) == RPL_OK;
    return CLI_EXIT_OK;
}

/* Prints "FILE:LINE: text" and, when the log verified, its description
 * indented below. */
static int
print_side(struct rpl_ctx *ctx, const struct side *s, size_t no)
{
    size_t len;
    const char *line = rpl_log_line(s->log, no, &len);
    char *desc = NULL;
    struct rpl_error err;
    enum rpl_status st;

    if (!line) {
        printf("%s:%zu: (end of log)\n", s->file, no);
        return CLI_EXIT_OK;
    }
    printf("%s:%zu: %.*s\n", s->file, no, (int)len, line);
    if (!s->is_verified) {
        return CLI_EXIT_OK;
    }
    st = rpl_log_describe(s->log, no, RPL_VIEW_PUBLIC, &desc, &err);
    if (st != RPL_OK) {
        return cli_file_error(s->file, st, &err);
    }
    if (desc) {
        const char *p = desc;

        while (*p != '\0') {
            const size_t n = strcspn(p, "\n");

            printf("  %.*s\n", (int)n, p);
            p += n;
            if (*p == '\n') {
                p++;
            }
        }
        rpl_free(ctx, desc);
    }
    return CLI_EXIT_OK;
}

static json_t *
line_json(const struct side *s, size_t no)
{
    size_t len;
    const char *line = rpl_log_line(s->log, no, &len);

    return line ? json_stringn(line, len) : json_null();
}

int
cmd_diff(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct rpl_ctx *ctx = NULL;
    struct side a, b;
    struct evidence ea, eb;
    struct starts st;
    bool is_json = false, is_starts = false;
    int proof = EV_NONE;
    size_t na, nb, no, n;
    int c, rc;

    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
            is_json = true;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("diff", c, argv);
        }
    }
    if (argc - optind != 2) {
        return cli_usage_error("diff", "diff takes two files");
    }
    a.file = argv[optind];
    b.file = argv[optind + 1];
    if (strcmp(a.file, "-") == 0 && strcmp(b.file, "-") == 0) {
        return cli_usage_error("diff", "only one log can come from "
                                       "standard input");
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    rc = load_side(ctx, &a);
    rc = cli_worst(rc, load_side(ctx, &b));
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    na = rpl_log_lines(a.log);
    nb = rpl_log_lines(b.log);
    n = na > nb ? na : nb;
    for (no = 1; no <= n; no++) {
        size_t la, lb;
        const char *sa = rpl_log_line(a.log, no, &la);
        const char *sb = rpl_log_line(b.log, no, &lb);

        if (!sa || !sb || la != lb || memcmp(sa, sb, la) != 0) {
            break;
        }
    }
    proof = no <= n ? is_proof(&a, &b, no, &ea, &eb) : EV_NONE;
    is_starts = no <= n && same_table(&a, &b, &st);
    if (is_json) {
        json_t *obj = json_object();
        const bool same = no > n;
        bool ok = true;

        ok &= cli_json_set(obj, "a", cli_json_str(a.file));
        ok &= cli_json_set(obj, "b", cli_json_str(b.file));
        ok &= cli_json_set(obj, "identical", json_boolean(same));
        ok &= cli_json_set(obj, "line", same ? json_null() : cli_json_size(no));
        ok &=
            cli_json_set(obj, "a_text", same ? json_null() : line_json(&a, no));
        ok &=
            cli_json_set(obj, "b_text", same ? json_null() : line_json(&b, no));
        if (proof != EV_NONE) {
            json_t *p = json_object();

            ok &= cli_json_set(p, "id", json_string(a.rep.id));
            ok &= cli_json_set(p, "a", evidence_json(&ea));
            ok &= cli_json_set(p, "b", evidence_json(&eb));
            ok &= cli_json_set(obj, proof == EV_PROOF ? "proof" : "claim", p);
        }
        if (is_starts) {
            json_t *p = json_object();

            ok &= cli_json_set(p, "a", start_json(&a, st.seal_a));
            ok &= cli_json_set(p, "b", start_json(&b, st.seal_b));
            ok &=
                cli_json_set(p, "proof", json_boolean(st.seal_a && st.seal_b));
            ok &= cli_json_set(obj, "starts", p);
        }
        rc = ok ? cli_json_print(obj) : CLI_EXIT_USAGE;
        json_decref(obj);
        if (rc == CLI_EXIT_OK && !same) {
            rc = CLI_EXIT_INVALID;
        }
    } else if (no <= n) {
        rc = print_side(ctx, &a, no);
        rc = cli_worst(rc, print_side(ctx, &b, no));
        if (proof == EV_PROOF) {
            printf("proof: the dealer sealed two histories of game %s, "
                   "parting at line %zu\n",
                   a.rep.id, no);
            print_evidence(&a, &ea);
            print_evidence(&b, &eb);
        } else if (proof == EV_CLAIM) {
            printf("claim, not a proof: the histories of game %s part at "
                   "line %zu, but one side is only a seat's signature, "
                   "which a seat can make over a history of its own\n",
                   a.rep.id, no);
            print_evidence(&a, &ea);
            print_evidence(&b, &eb);
        }
        if (is_starts) {
            print_starts(&a, &b, &st);
        }
        if (rc == CLI_EXIT_OK) {
            rc = CLI_EXIT_INVALID;
        } else {
            rc = CLI_EXIT_USAGE;
        }
    }
out:
    rpl_log_free(a.log);
    rpl_log_free(b.log);
    rpl_ctx_free(ctx);
    return cli_finish(rc);
}
