/*
 * html.h - the page templates of camelog html and camelog archive
 * report, embedded at build time from tools/html/ by tools/html/embed.sh
 * (each an array of lines, NULL-terminated), and the writer both
 * commands share.
 */
#ifndef CAMELOG_HTML_H
#define CAMELOG_HTML_H

#include <jansson.h>

#include "replay.h"

extern const char *const html_page_html[];
extern const char *const html_page_css[];
extern const char *const html_page_js[];
extern const char *const html_report_js[];
extern const char *const html_selfcheck_js[];

/* camelog html --wasm (html_wasm.c): the page template tmpl with what
 * lets the page verify itself in the browser, offline: the bytes of the
 * log at log_path, DIR/camelog.wasm and DIR/camelog.js of make wasm,
 * the pinned dealer key (or none), and tools/html/selfcheck.js; the
 * Content-Security-Policy allows WebAssembly.  tmpl must outlive w;
 * free w with html_wasm_free(). */
struct html_wasm {
    const char **tmpl; /* the template to give html_write() */
    char *parts[7];    /* what tmpl points to besides the lines given */
};
int html_wasm_page(struct html_wasm *w, const char *dir, const char *log_path,
                   const struct rpl_pubkey *pin, const char *const *tmpl);
void html_wasm_free(struct html_wasm *w);

/* Writes the page to path ("-" is stdout; a file is written to a
 * temporary name, then renamed): the lines of tmpl, where a line that is
 * exactly "@CSS@", "@JS@" or "@DATA@" becomes css, js or data (dumped as
 * JSON safe inside a <script> element: '<', '>', '&', U+2028 and U+2029
 * escaped).  Without force an existing file is refused.  Reports
 * failures; returns an exit status. */
int html_write(const char *path, bool force, const char *const *tmpl,
               const char *const *css, const char *const *js,
               const json_t *data);

/* camelog archive report: the statistics of the archive at db, each
 * game its own section (f: the user's filters, may name one game), as a
 * page written to path.  Reports failures; returns an exit status. */
int html_report(struct rpl_ctx *ctx, const char *db,
                const struct rpl_archive_filter *f, const char *path,
                bool force);

#endif /* CAMELOG_HTML_H */
