/*
 * cmd_html.c - camelog html: one verified game as a self-contained HTML
 * page (inline CSS and JS, the data embedded as JSON, no network) that
 * replays it step by step for one perspective or several.
 *
 * The data (camelog-html(1)) is what camelog export gives, made small:
 * the steps are the lines the library describes; each view holds its
 * state at the first step in full and, for each later step, only the
 * changes ([key, ..., value]: the path to what changed and its new
 * value).  What a view may not know never enters the data: the observer
 * of a game in progress gets the public state alone, a seat gets its own
 * view up to the end of play, and the reveal comes only with a complete
 * log.  Also the writer of pages, html_write(), shared with camelog
 * archive report.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "html.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog html [--as observer|pK|all] [--deliveries file]\n"
    "                    [--pubkey key|file] [--wasm dir] [-f] -o file game\n";

static const char options[] =
    "options:\n"
    "  -a, --as who       what the page may show: observer (default; roles\n"
    "                     at the end of a complete game), a seat pK (what it\n"
    "                     knew during play), all (every view, with a\n"
    "                     switcher; needs a complete log)\n"
    "  --deliveries file  with --as pK, the seat's own deliveries: what it\n"
    "                     knew of a game without its reveal\n"
    "  --pubkey key|file  pin the dealer's public key (base64 or .pub file)\n"
    "  --wasm dir         the page verifies itself in the browser with the\n"
    "                     verifier of make wasm in dir (build/wasm)\n"
    "  -o, --output file  the page to write (- is standard output)\n"
    "  -f, --force        overwrite an existing file\n"
    "  -h, --help         this help\n";

enum who { WHO_OBSERVER, WHO_SEAT, WHO_ALL };

struct page {
    struct rpl_ctx *ctx;
    struct rpl_log *log;
    const char *file;
    struct rpl_report rep;
    bool has_pin;
    size_t *lines; /* the line of each step */
    size_t nsteps;
    size_t nplay; /* steps through the end of play (the `end` line) */
};

/* ------------------------------------------------------------ writing */

static bool
put_lines(FILE *fp, const char *const *lines)
{
    size_t i;

    for (i = 0; lines[i]; i++) {
        if (fputs(lines[i], fp) == EOF) {
            return false;
        }
    }
    return true;
}

/* Writes text with '<', '>', '&', U+2028 and U+2029 escaped: in JSON
 * they occur only inside strings, where \uXXXX means the same. */
static bool
put_script_json(FILE *fp, const char *text)
{
    const unsigned char *p;

    for (p = (const unsigned char *)text; *p; p++) {
        int r = 0;

        if (*p == '<' || *p == '>' || *p == '&') {
            r = fprintf(fp, "\\u%04x", *p);
        } else if (p[0] == 0xe2 && p[1] == 0x80 &&
                   (p[2] == 0xa8 || p[2] == 0xa9)) {
            r = fprintf(fp, "\\u%04x", p[2] == 0xa8 ? 0x2028 : 0x2029);
            p += 2;
        } else {
            r = putc(*p, fp) == EOF ? -1 : 1;
        }
        if (r < 0) {
            return false;
        }
    }
    return true;
}

static bool
put_page(FILE *fp, const char *const *tmpl, const char *const *css,
         const char *const *js, const char *data)
{
    size_t i;

    for (i = 0; tmpl[i]; i++) {
        bool ok;

        if (strcmp(tmpl[i], "@CSS@\n") == 0) {
            ok = put_lines(fp, css);
        } else if (strcmp(tmpl[i], "@JS@\n") == 0) {
            ok = put_lines(fp, js);
        } else if (strcmp(tmpl[i], "@DATA@\n") == 0) {
            ok = put_script_json(fp, data) && fputc('\n', fp) != EOF;
        } else {
            ok = fputs(tmpl[i], fp) != EOF;
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

int
html_write(const char *path, bool force, const char *const *tmpl,
           const char *const *css, const char *const *js, const json_t *data)
{
    char *text = json_dumps(data, JSON_COMPACT);
    struct cli_wfile w;
    int rc = CLI_EXIT_USAGE;

    if (!text) {
        cli_msg("cannot encode the page's data");
        goto out;
    }
    rc = cli_wfile_open(&w, path);
    if (rc != CLI_EXIT_OK)
        goto out;
    if (!put_page(w.fp, tmpl, css, js, text)) {
        cli_msg("%s: %s", path, strerror(errno));
        cli_wfile_drop(&w);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    rc = cli_wfile_commit(&w, 0644, force);
out:
    free(text);
    return rc;
}

/* ----------------------------------------------------------- noscript */

/* What the page shows with JavaScript off, in <noscript>: the outcome,
 * the reveal in words when the page holds it, and every step's text, as
 * HTML made here, escaped, each seat's name in a <bdi>. */

static void
put_escaped(FILE *fp, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&':
            fputs("&amp;", fp);
            break;
        case '<':
            fputs("&lt;", fp);
            break;
        case '>':
            fputs("&gt;", fp);
            break;
        case '"':
            fputs("&quot;", fp);
            break;
        case '\'':
            fputs("&#39;", fp);
            break;
        default:
            fputc(s[i], fp);
            break;
        }
    }
}

/* text escaped, with the name of each "Name (pK)" of the log's seats in
 * a <bdi> (the longest name where several fit). */
static void
put_html_text(FILE *fp, const struct rpl_log *log, const char *text)
{
    const size_t seats = rpl_log_seats(log);
    const char *p = text;

    while (*p) {
        size_t best = 0, blen = 0;

        for (size_t k = 1; k <= seats; k++) {
            const char *name = rpl_log_seat_name(log, k);
            const size_t n = name ? strlen(name) : 0;
            char tag[24];
            const int t = snprintf(tag, sizeof(tag), " (p%zu)", k);

            if (n > blen && t > 0 && strncmp(p, name, n) == 0 &&
                strncmp(p + n, tag, (size_t)t) == 0) {
                best = k;
                blen = n;
            }
        }
        if (best) {
            fputs("<bdi>", fp);
            put_escaped(fp, p, blen);
            fputs("</bdi>", fp);
            p += blen;
        } else {
            put_escaped(fp, p, 1);
            p++;
        }
    }
}

/* The <noscript> element of the page of data, as a string to free(), or
 * NULL when out of memory. */
static char *
noscript_html(struct page *pg, const json_t *data)
{
    const json_t *steps = json_object_get(data, "steps");
    const json_t *view = json_array_get(json_object_get(data, "views"), 0);
    const json_t *texts = json_object_get(view, "text");
    const char *winner = json_string_value(json_object_get(data, "winner"));
    const char *reason = json_string_value(json_object_get(data, "reason"));
    const char *title = json_string_value(json_object_get(data, "title"));
    char *html = NULL, *reveal = NULL;
    size_t len = 0,
           n = (size_t)json_integer_value(json_object_get(view, "steps"));
    FILE *m = open_memstream(&html, &len);
    struct rpl_error err;

    if (!m) {
        return NULL;
    }
    fputs("<noscript><div class=\"panel\" id=\"static\">\n<h1>", m);
    put_escaped(m, title ? title : pg->rep.game,
                strlen(title ? title : pg->rep.game));
    fputs(" \xe2\x80\x94 game ", m);
    put_escaped(m, pg->rep.id, strnlen(pg->rep.id, 8));
    fputs("</h1>\n<p>With JavaScript on, this page replays the game step "
          "by step.</p>\n",
          m);
    if (winner && winner[0] != '\0') {
        fputs("<p class=\"banner\" id=\"static-outcome\">", m);
        put_escaped(m, winner, strlen(winner));
        fputs(" won", m);
        if (reason && reason[0] != '\0') {
            fputs(" (", m);
            put_escaped(m, reason, strlen(reason));
            fputc(')', m);
        }
        fputs("</p>\n", m);
    }
    if (json_object_get(data, "reveal") &&
        rpl_log_reveal_text(pg->log, &reveal, &err) == RPL_OK && reveal) {
        const char *line = reveal;

        fputs("<h2>Who was who</h2>\n<ul id=\"static-reveal\">\n", m);
        while (*line) {
            const char *nl = strchr(line, '\n');
            const size_t l = nl ? (size_t)(nl - line) : strlen(line);
            char *one = strndup(line, l);

            if (one) {
                fputs("<li>", m);
                put_html_text(m, pg->log, one);
                fputs("</li>\n", m);
                free(one);
            }
            line += l + (nl ? 1 : 0);
        }
        fputs("</ul>\n", m);
        rpl_free(pg->ctx, reveal);
    }
    fputs("<h2>The game, line by line</h2>\n<ol id=\"static-log\">\n", m);
    for (size_t i = 0; i < n && i < json_array_size(steps); i++) {
        const json_t *st = json_array_get(steps, i);
        char key[24];
        const char *t;

        snprintf(key, sizeof(key), "%zu", i);
        t = json_string_value(json_object_get(texts, key));
        if (!t) {
            t = json_string_value(json_object_get(st, "text"));
        }
        fprintf(m, "<li value=\"%lld\">",
                (long long)json_integer_value(json_object_get(st, "line")));
        put_html_text(m, pg->log, t ? t : "");
        fputs("</li>\n", m);
    }
    fputs("</ol>\n</div></noscript>\n", m);
    if (fclose(m) != 0) {
        free(html);
        return NULL;
    }
    return html;
}

/* tmpl with its @NOSCRIPT@ line replaced by html: an array to free()
 * (the lines are tmpl's and html), or NULL when out of memory. */
static const char **
with_noscript(const char *const *tmpl, const char *html)
{
    size_t n = 0;
    const char **out;

    while (tmpl[n]) {
        n++;
    }
    out = calloc(n + 1, sizeof(*out));
    if (!out) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        out[i] = strcmp(tmpl[i], "@NOSCRIPT@\n") == 0 ? html : tmpl[i];
    }
    return out;
}

/* -------------------------------------------------------------- diffs */

static bool
same_keys(json_t *a, json_t *b)
{
    const char *key;
    json_t *v;

    if (json_object_size(a) != json_object_size(b)) {
        return false;
    }
    json_object_foreach(a, key, v)
    {
        if (!json_object_get(b, key)) {
            return false;
        }
    }
    return true;
}

/* Appends to out the changes that turn a into b, each as the path
 * (object keys, array indexes) followed by the new value.  A value
 * whose shape changed (another type, other keys, another length) is
 * replaced whole. */
static bool
diff(json_t *path, json_t *a, json_t *b, json_t *out)
{
    const char *key;
    json_t *v, *c;
    size_t i;

    if (json_equal(a, b)) {
        return true;
    }
    if (json_is_object(a) && json_is_object(b) && same_keys(a, b)) {
        json_object_foreach(b, key, v)
        {
            bool ok = json_array_append_new(path, json_string(key)) == 0 &&
                      diff(path, json_object_get(a, key), v, out);

            json_array_remove(path, json_array_size(path) - 1);
            if (!ok) {
                return false;
            }
        }
        return true;
    }
    if (json_is_array(a) && json_is_array(b) &&
        json_array_size(a) == json_array_size(b) && json_array_size(a) > 0) {
        json_array_foreach(b, i, v)
        {
            bool ok = json_array_append_new(path, cli_json_size(i)) == 0 &&
                      diff(path, json_array_get(a, i), v, out);

            json_array_remove(path, json_array_size(path) - 1);
            if (!ok) {
                return false;
            }
        }
        return true;
    }
    c = json_copy(path);
    if (!c || json_array_append(c, b) != 0 ||
        json_array_append_new(out, c) != 0) {
        json_decref(c);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------- steps */

/* What the page asks of a line, as the verify's walk kept it: the line
 * told to viewer (NULL: nothing), its events, viewer's state after it.
 * *text is lent. */
enum ask { ASK_TOLD, ASK_EVENTS, ASK_VIEW };

static enum rpl_status
ask(struct page *pg, size_t no, int viewer, enum ask what, const char **text,
    struct rpl_error *err)
{
    struct rpl_line_view lv;
    const enum rpl_status st = rpl_log_line_view(pg->log, no, viewer, &lv, err);

    *text = what == ASK_TOLD     ? lv.describe
            : what == ASK_EVENTS ? lv.events
                                 : lv.view;
    return st;
}

static int
lib_json(struct page *pg, enum rpl_status st, const char *text, char *own,
         const struct rpl_error *err, json_t **out)
{
    if (st != RPL_OK) {
        rpl_free(pg->ctx, own);
        return cli_file_error(pg->file, st, err);
    }
    *out = cli_json_parse(text);
    rpl_free(pg->ctx, own);
    if (!*out) {
        cli_file_msg(pg->file, 0, "the library returned bad JSON");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static bool
has_event(const json_t *events, const char *name)
{
    size_t i;
    json_t *e;

    json_array_foreach(events, i, e)
    {
        const char *s = json_string_value(json_object_get(e, "event"));

        if (s && strcmp(s, name) == 0) {
            return true;
        }
    }
    return false;
}

/* The steps (the lines the library tells for everybody) with their
 * public text and events, into pg->lines and steps. */
static int
find_steps(struct page *pg, json_t *steps)
{
    const size_t n = rpl_log_lines(pg->log);
    struct rpl_error err;
    enum rpl_status st;
    size_t no;
    int rc;

    pg->lines = calloc(n ? n : 1, sizeof(*pg->lines));
    if (!pg->lines) {
        cli_msg("out of memory");
        return CLI_EXIT_USAGE;
    }
    pg->nplay = 0;
    for (no = 1; no <= n; no++) {
        const char *text, *ev;
        json_t *events, *step;

        st = ask(pg, no, RPL_VIEW_PUBLIC, ASK_TOLD, &text, &err);
        if (st != RPL_OK) {
            return cli_file_error(pg->file, st, &err);
        }
        if (!text) {
            continue;
        }
        st = ask(pg, no, RPL_VIEW_PUBLIC, ASK_EVENTS, &ev, &err);
        rc = lib_json(pg, st, ev, NULL, &err, &events);
        if (rc != CLI_EXIT_OK) {
            return rc;
        }
        step = json_pack("{s:o,s:s,s:o}", "line", cli_json_size(no), "text",
                         text, "events", events);
        if (!step || json_array_append_new(steps, step) != 0) {
            cli_msg("out of memory");
            return CLI_EXIT_USAGE;
        }
        pg->lines[pg->nsteps++] = no;
        if (!pg->nplay && has_event(events, "end")) {
            pg->nplay = pg->nsteps;
        }
    }
    if (!pg->nplay) {
        pg->nplay = pg->nsteps;
    }
    return CLI_EXIT_OK;
}

/* One perspective: {"as", "label", "start", "d", "text"}: the state at
 * the first step, the changes at each later one, and the texts that
 * differ from the public ones, by step index.  nsteps bounds it. */
static int
make_view(struct page *pg, int viewer, const char *as, const char *label,
          size_t nsteps, const json_t *steps, json_t *views)
{
    struct rpl_error err;
    enum rpl_status st;
    json_t *view = json_object();
    json_t *d = json_array();
    json_t *texts = json_object();
    json_t *path = json_array();
    json_t *prev = NULL;
    int rc = CLI_EXIT_USAGE;
    size_t i;

    if (!view || !d || !texts || !path) {
        cli_msg("out of memory");
        goto out;
    }
    for (i = 0; i < nsteps; i++) {
        const char *text;
        json_t *state, *changes;

        st = ask(pg, pg->lines[i], viewer, ASK_VIEW, &text, &err);
        rc = lib_json(pg, st, text, NULL, &err, &state);
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
        rc = CLI_EXIT_USAGE;
        if (!prev) {
            if (!cli_json_set(view, "start", json_incref(state))) {
                json_decref(state);
                cli_msg("out of memory");
                goto out;
            }
            changes = json_array();
        } else {
            changes = json_array();
            if (changes && !diff(path, prev, state, changes)) {
                json_decref(changes);
                changes = NULL;
            }
        }
        json_decref(prev);
        prev = state;
        if (!changes || json_array_append_new(d, changes) != 0) {
            cli_msg("out of memory");
            goto out;
        }
        if (viewer != RPL_VIEW_PUBLIC) {
            const char *pub = json_string_value(
                json_object_get(json_array_get(steps, i), "text"));
            char key[24];

            st = ask(pg, pg->lines[i], viewer, ASK_TOLD, &text, &err);
            if (st != RPL_OK) {
                rc = cli_file_error(pg->file, st, &err);
                goto out;
            }
            snprintf(key, sizeof(key), "%zu", i);
            if (text && (!pub || strcmp(pub, text) != 0) &&
                !cli_json_set(texts, key, json_string(text))) {
                cli_msg("out of memory");
                goto out;
            }
        }
    }
    if (!cli_json_set(view, "as", json_string(as)) ||
        !cli_json_set(view, "label", cli_json_str(label)) ||
        !cli_json_set(view, "steps", cli_json_size(nsteps)) ||
        !cli_json_set(view, "d", json_incref(d)) ||
        !cli_json_set(view, "text", json_incref(texts)) ||
        json_array_append(views, view) != 0) {
        cli_msg("out of memory");
        goto out;
    }
    rc = CLI_EXIT_OK;
out:
    json_decref(prev);
    json_decref(path);
    json_decref(texts);
    json_decref(d);
    json_decref(view);
    return rc;
}

/* ----------------------------------------------------------- verdict */

/* Whether line (len bytes) has a word of 64 hexadecimal digits: a
 * commitment (or, in a reveal, the secret that opens them). */
static bool
has_digest(const char *line, size_t len)
{
    size_t run = 0;

    for (size_t i = 0; i <= len; i++) {
        const char c = i < len ? line[i] : ' ';

        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) {
            run++;
        } else {
            if (c == ' ' && run == 64) {
                return true;
            }
            run = c == ' ' ? 0 : 65;
        }
    }
    return false;
}

/* The lines that commit to a secret, up to the reveal. */
static size_t
committed(const struct rpl_log *log)
{
    size_t n = 0, len;

    for (size_t no = 1; no <= rpl_log_lines(log); no++) {
        const char *line = rpl_log_line(log, no, &len);

        if (!line || (len > 7 && memcmp(line, "reveal ", 7) == 0)) {
            break;
        }
        n += has_digest(line, len);
    }
    return n;
}

static json_t *
verdict(struct page *pg)
{
    const struct rpl_report *r = &pg->rep;
    struct rpl_pubkey pk;
    json_t *v = json_object();
    json_t *warn = json_array();
    bool ok = v && warn;
    size_t i;

    for (i = 0; ok && i < r->warnings; i++) {
        size_t line = 0;
        const char *text = rpl_log_warning(pg->log, i, &line);

        ok = text &&
             json_array_append_new(warn, json_pack("{s:o,s:o}", "line",
                                                   cli_json_size(line), "text",
                                                   cli_json_str(text))) == 0;
    }
    ok = ok && cli_json_set(v, "valid", json_true()) &&
         cli_json_set(v, "progress",
                      json_string(rpl_progress_name(r->progress))) &&
         cli_json_set(v, "lines", cli_json_size(r->lines)) &&
         cli_json_set(v, "seals", cli_json_size(r->seals)) &&
         cli_json_set(v, "sigs", cli_json_size(r->sigs)) &&
         cli_json_set(v, "commitments", cli_json_size(r->commitments)) &&
         cli_json_set(v, "committed", cli_json_size(committed(pg->log))) &&
         cli_json_set(v, "unsealed_from", cli_json_size(r->unsealed_from)) &&
         cli_json_set(v, "key_pinned", json_boolean(r->is_key_pinned)) &&
         cli_json_set(v, "imported", json_boolean(r->is_imported)) &&
         cli_json_set(v, "seats", cli_json_size(r->seats)) &&
         cli_json_set(v, "entropy_seats", cli_json_size(r->entropy_seats)) &&
         cli_json_set(v, "entropy_signed", cli_json_size(r->entropy_signed)) &&
         cli_json_set(v, "warnings", json_incref(warn));
    if (ok && rpl_log_dealer(pg->log, &pk)) {
        char b64[RPL_PUBKEY_B64_LEN + 1];
        char id[17];

        /* minisign shows the key id as a little-endian number */
        for (i = 0; i < 8; i++) {
            snprintf(id + 2 * i, 3, "%02X", pk.id[7 - i]);
        }
        rpl_pubkey_format(&pk, b64);
        ok = cli_json_set(v, "dealer_id", json_string(id)) &&
             cli_json_set(v, "dealer", json_string(b64));
    }
    json_decref(warn);
    if (!ok) {
        json_decref(v);
        return NULL;
    }
    return v;
}

/* The value of header line `word value` (created), or NULL. */
static json_t *
header_value(const struct rpl_log *log, const char *word)
{
    const size_t wlen = strlen(word);
    size_t no, len;

    for (no = 1; no <= rpl_log_lines(log); no++) {
        const char *line = rpl_log_line(log, no, &len);

        if (line && len > wlen + 1 && memcmp(line, word, wlen) == 0 &&
            line[wlen] == ' ') {
            return json_stringn(line + wlen + 1, len - wlen - 1);
        }
        if (line && len >= 5 && memcmp(line, "start", 5) == 0) {
            break; /* the header is over */
        }
    }
    return json_null();
}

/* -------------------------------------------------------------- page */

static const char *
base_name(const char *path)
{
    const char *s = strrchr(path, '/');

    return s ? s + 1 : path;
}

static json_t *
game_title(const char *game)
{
    size_t i;

    for (i = 0; i < rpl_game_count(); i++) {
        const struct rpl_game_info *g = rpl_game_info(i);

        if (g && strcmp(g->name, game) == 0) {
            return json_string(g->title);
        }
    }
    return json_string(game);
}

static int
make_views(struct page *pg, enum who who, size_t seat, const json_t *steps,
           json_t *views)
{
    char as[24], label[160];
    size_t k;
    int rc;

    if (who == WHO_OBSERVER) {
        return make_view(pg, RPL_VIEW_PUBLIC, "observer", "observer",
                         pg->nsteps, steps, views);
    }
    if (who == WHO_SEAT) {
        snprintf(as, sizeof(as), "p%zu", seat);
        snprintf(label, sizeof(label), "%s (%s)",
                 rpl_log_seat_name(pg->log, seat), as);
        return make_view(pg, (int)seat, as, label, pg->nplay, steps, views);
    }
    rc = make_view(pg, RPL_VIEW_ALL, "all", "everything", pg->nsteps, steps,
                   views);
    if (rc == CLI_EXIT_OK) {
        rc = make_view(pg, RPL_VIEW_PUBLIC, "observer", "observer", pg->nsteps,
                       steps, views);
    }
    for (k = 1; rc == CLI_EXIT_OK && k <= rpl_log_seats(pg->log); k++) {
        snprintf(as, sizeof(as), "p%zu", k);
        snprintf(label, sizeof(label), "%s (%s)", rpl_log_seat_name(pg->log, k),
                 as);
        rc = make_view(pg, (int)k, as, label, pg->nsteps, steps, views);
    }
    return rc;
}

static int
make_page(struct page *pg, enum who who, size_t seat, json_t *data)
{
    const struct rpl_report *r = &pg->rep;
    const bool is_complete = r->progress == RPL_PROGRESS_COMPLETE;
    json_t *steps = json_array();
    json_t *views = json_array();
    json_t *names = json_array();
    struct rpl_error err;
    enum rpl_status st;
    int rc = CLI_EXIT_USAGE;
    size_t k;
    bool ok;

    if (!steps || !views || !names) {
        cli_msg("out of memory");
        goto out;
    }
    rc = find_steps(pg, steps);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (who == WHO_SEAT) {
        /* the seat's page ends with the play: the reveal is not what
         * the seat knew */
        while (json_array_size(steps) > pg->nplay) {
            json_array_remove(steps, json_array_size(steps) - 1);
        }
    }
    rc = make_views(pg, who, seat, steps, views);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    rc = CLI_EXIT_USAGE;
    ok = true;
    for (k = 1; ok && k <= rpl_log_seats(pg->log); k++) {
        ok = json_array_append_new(
                 names, cli_json_str(rpl_log_seat_name(pg->log, k))) == 0;
    }
    ok = ok && cli_json_set(data, "format", json_integer(1)) &&
         cli_json_set(data, "game", json_string(r->game)) &&
         cli_json_set(data, "title", game_title(r->game)) &&
         cli_json_set(data, "id", json_string(r->id)) &&
         cli_json_set(data, "file", cli_json_str(base_name(pg->file))) &&
         cli_json_set(data, "created", header_value(pg->log, "created")) &&
         cli_json_set(data, "names", json_incref(names)) &&
         cli_json_set(data, "progress",
                      json_string(rpl_progress_name(r->progress))) &&
         cli_json_set(data, "verdict", verdict(pg)) &&
         cli_json_set(data, "play_steps", cli_json_size(pg->nplay)) &&
         cli_json_set(data, "steps", json_incref(steps)) &&
         cli_json_set(data, "views", json_incref(views));
    /* the outcome is public once the game is over, but a seat's page
     * ends with the play, so it is in the steps there */
    if (ok && r->progress != RPL_PROGRESS_IN_PROGRESS) {
        ok = cli_json_set(data, "winner", json_string(r->winner)) &&
             cli_json_set(data, "reason", json_string(r->reason));
    }
    if (!ok) {
        cli_msg("out of memory");
        goto out;
    }
    if (is_complete && who != WHO_SEAT) {
        char *text = NULL;
        json_t *reveal;

        st = rpl_log_reveal_json(pg->log, &text, &err);
        rc = lib_json(pg, st, text, text, &err, &reveal);
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
        rc = CLI_EXIT_USAGE;
        if (!cli_json_set(data, "reveal", reveal)) {
            cli_msg("out of memory");
            goto out;
        }
    }
    rc = CLI_EXIT_OK;
out:
    json_decref(names);
    json_decref(views);
    json_decref(steps);
    return rc;
}

static int
parse_who(const char *arg, enum who *who, size_t *seat)
{
    if (strcmp(arg, "observer") == 0) {
        *who = WHO_OBSERVER;
    } else if (strcmp(arg, "all") == 0) {
        *who = WHO_ALL;
    } else if (cli_parse_seat(arg, seat)) {
        *who = WHO_SEAT;
    } else {
        return cli_usage_error("html",
                               "--as: expected observer, pK or all, "
                               "got '%s'",
                               arg);
    }
    return CLI_EXIT_OK;
}

int
cmd_html(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"as", required_argument, NULL, 'a'},
        {"deliveries", required_argument, NULL, 'd'},
        {"pubkey", required_argument, NULL, 'k'},
        {"wasm", required_argument, NULL, 'w'},
        {"output", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct page pg;
    struct cli_deliveries dv;
    struct rpl_walk_opts walk = {.views = true, .describe = true};
    struct rpl_verify_opts vopts = {.require = RPL_PROGRESS_IN_PROGRESS};
    struct rpl_pubkey pk;
    struct rpl_error err;
    enum rpl_status st;
    enum who who = WHO_OBSERVER;
    const char *out_path = NULL;
    const char *deliveries = NULL;
    const char *wasm_dir = NULL;
    json_t *data = NULL;
    size_t seat = 0;
    bool force = false;
    int c, rc;

    memset(&pg, 0, sizeof(pg));
    memset(&dv, 0, sizeof(dv));
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":a:o:fh", longopts, NULL)) != -1) {
        switch (c) {
        case 'a':
            rc = parse_who(optarg, &who, &seat);
            if (rc != CLI_EXIT_OK) {
                return rc;
            }
            break;
        case 'k':
            rc = cli_load_pubkey(optarg, &pk);
            if (rc != CLI_EXIT_OK) {
                return rc;
            }
            vopts.pubkey = &pk;
            break;
        case 'o':
            out_path = optarg;
            break;
        case 'd':
            deliveries = optarg;
            break;
        case 'w':
            wasm_dir = optarg;
            break;
        case 'f':
            force = true;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("html", c, argv);
        }
    }
    if (optind >= argc) {
        return cli_usage_error("html", "no game to show");
    }
    if (optind + 1 < argc) {
        return cli_usage_error("html", "one game at a time");
    }
    if (!out_path) {
        return cli_usage_error("html", "no output file (-o file)");
    }
    if (deliveries && who != WHO_SEAT) {
        return cli_usage_error("html", "--deliveries needs --as pK");
    }
    if (wasm_dir && who == WHO_SEAT) {
        /* the page would carry the whole log, reveal and all, where a
         * seat's page ends with the play */
        return cli_usage_error("html", "--wasm: not with --as pK");
    }
    pg.file = argv[optind];
    walk.seats = who == WHO_ALL                               ? UINT32_MAX
                 : who == WHO_SEAT && seat >= 1 && seat <= 32 ? 1u << (seat - 1)
                                                              : 0;
    /* the views a page shows: an observer's the public's, a seat's its
     * own, every page all of them */
    walk.skip = who == WHO_OBSERVER ? RPL_WALK_NO_ALL
                : who == WHO_SEAT   ? RPL_WALK_NO_PUBLIC | RPL_WALK_NO_ALL
                                    : 0;
    rc = cli_ctx_new(&pg.ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    st = rpl_log_read(pg.ctx, &pg.log, pg.file, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(pg.file, st, &err);
        goto out;
    }
    /* every line's views and texts in the verify's one pass, which takes
     * the seat's deliveries too */
    if (deliveries) {
        cli_deliveries_read(&dv, deliveries);
        cli_deliveries_walk(&dv, seat, &walk);
    }
    st = rpl_log_verify_walk(pg.log, &vopts, &walk, &pg.rep);
    if (st != RPL_OK && pg.rep.error.code != RPL_OK) {
        rc = cli_file_error(pg.file, st, &pg.rep.error);
        goto out;
    }
    if (who == WHO_SEAT && (seat < 1 || seat > rpl_log_seats(pg.log))) {
        rc = cli_usage_error("html", "--as p%zu: the game has %zu seats", seat,
                             rpl_log_seats(pg.log));
        goto out;
    }
    if (deliveries) {
        rc = cli_deliveries_said(&dv, pg.file, st);
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
    }
    if (who == WHO_ALL && pg.rep.progress != RPL_PROGRESS_COMPLETE) {
        cli_file_msg(pg.file, 0, "--as all needs a complete log; it is %s",
                     rpl_progress_text(pg.rep.progress));
        rc = CLI_EXIT_INVALID;
        goto out;
    }
    data = json_object();
    if (!data) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    rc = make_page(&pg, who, seat, data);
    if (rc == CLI_EXIT_OK) {
        char *ns = noscript_html(&pg, data);
        const char **tmpl = ns ? with_noscript(html_page_html, ns) : NULL;
        struct html_wasm w = {0};

        if (tmpl && wasm_dir) {
            rc = html_wasm_page(&w, wasm_dir, pg.file, vopts.pubkey, tmpl);
        }
        if (tmpl && rc == CLI_EXIT_OK) {
            rc = html_write(out_path, force, wasm_dir ? w.tmpl : tmpl,
                            html_page_css, html_page_js, data);
            html_wasm_free(&w);
        } else if (!tmpl) {
            cli_msg("out of memory");
            rc = CLI_EXIT_USAGE;
        }
        free(tmpl);
        free(ns);
    }
out:
    json_decref(data);
    free(pg.lines);
    cli_deliveries_free(&dv);
    rpl_log_free(pg.log);
    rpl_ctx_free(pg.ctx);
    return cli_finish(rc);
}

/* ------------------------------------------------------------ report */

int
html_report(struct rpl_ctx *ctx, const char *db,
            const struct rpl_archive_filter *f, const char *path, bool force)
{
    struct rpl_archive *ar = NULL;
    struct rpl_archive_filter gf = *f;
    struct rpl_error err;
    enum rpl_status st;
    json_t *data = json_object();
    json_t *games = json_array();
    int rc = CLI_EXIT_USAGE;
    size_t i;

    if (!data || !games) {
        cli_msg("out of memory");
        goto out;
    }
    st = rpl_archive_open(ctx, &ar, db, RPL_ARCHIVE_READ, &err);
    if (st != RPL_OK) {
        rc = cli_file_error(db, st, &err);
        goto out;
    }
    /* one section a game: statistics of two games never mix */
    for (i = 0; i < rpl_game_count(); i++) {
        const struct rpl_game_info *g = rpl_game_info(i);
        char *text = NULL;
        json_t *stats, *section;

        if (!g || (f->game && strcmp(f->game, g->name) != 0)) {
            continue;
        }
        gf.game = g->name;
        /* The filter is valid (cmd_archive checked it); a role, side or
         * variant that this game does not have selects none of its
         * games, so it has no section. */
        if (rpl_archive_check_filter(&gf, &err) != RPL_OK) {
            continue;
        }
        st = rpl_archive_stats(ar, &gf, &text, &err);
        if (st != RPL_OK) {
            rc = cli_file_error(db, st, &err);
            goto out;
        }
        stats = cli_json_parse(text);
        rpl_free(ctx, text);
        if (!stats) {
            cli_file_msg(db, 0, "the statistics are not valid JSON");
            goto out;
        }
        section = json_pack("{s:s,s:s,s:o}", "game", g->name, "title", g->title,
                            "stats", stats);
        if (!section || json_array_append_new(games, section) != 0) {
            cli_msg("out of memory");
            goto out;
        }
    }
    if (!cli_json_set(data, "format", json_integer(1)) ||
        !cli_json_set(data, "report", json_true()) ||
        !cli_json_set(data, "archive", cli_json_str(base_name(db))) ||
        !cli_json_set(data, "games", json_incref(games))) {
        cli_msg("out of memory");
        goto out;
    }
    {
        const char **tmpl = with_noscript(
            html_page_html, "<noscript><p>This page draws the statistics with "
                            "JavaScript, which is off.</p></noscript>\n");

        if (!tmpl) {
            cli_msg("out of memory");
            goto out;
        }
        rc = html_write(path, force, tmpl, html_page_css, html_report_js, data);
        free(tmpl);
    }
out:
    rpl_archive_close(ar);
    json_decref(games);
    json_decref(data);
    return rc;
}
