/*
 * html_wasm.c - camelog html --wasm DIR: the page carries the bytes of
 * its log, the WebAssembly verifier of make wasm (DIR/camelog.wasm and
 * the module DIR/camelog.js, camelog-web(7)) and tools/html/selfcheck.js,
 * which verifies that log in the browser, offline, when the page opens,
 * and shows the verdict it computed.  The verdict written in the page's
 * data is not read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "html.h"
#include "replay.h"

/* The largest file read: the verifier is well under it, and a log is
 * held to RPL_MAX_TEXT. */
#define WASM_FILE_MAX (16u * 1024u * 1024u)

static const char b64_chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The base64 of in[0..n) and a NUL (free()), or NULL. */
static char *
base64(const unsigned char *in, size_t n)
{
    char *out = malloc((n + 2) / 3 * 4 + 1);
    char *q = out;
    size_t i;

    if (!out) {
        return NULL;
    }
    for (i = 0; i + 2 < n; i += 3) {
        const unsigned long v = (unsigned long)in[i] << 16 |
                                (unsigned long)in[i + 1] << 8 | in[i + 2];

        *q++ = b64_chars[v >> 18 & 63];
        *q++ = b64_chars[v >> 12 & 63];
        *q++ = b64_chars[v >> 6 & 63];
        *q++ = b64_chars[v & 63];
    }
    if (i < n) {
        const unsigned long v = (unsigned long)in[i] << 16 |
                                (i + 1 < n ? (unsigned long)in[i + 1] << 8 : 0);

        *q++ = b64_chars[v >> 18 & 63];
        *q++ = b64_chars[v >> 12 & 63];
        *q++ = i + 1 < n ? b64_chars[v >> 6 & 63] : '=';
        *q++ = '=';
    }
    *q = '\0';
    return out;
}

/* The bytes of path (free()); reports a failure. */
static int
read_all(const char *path, char **out, size_t *len)
{
    const int rc = cli_read_file(path, WASM_FILE_MAX, out, len);

    if (rc == 1) {
        cli_file_msg(path, 0, "larger than %u bytes", WASM_FILE_MAX);
        return CLI_EXIT_USAGE;
    }
    if (rc != 0) {
        cli_file_msg(path, 0, "%s", cli_input_errtext(errno));
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* "<script type=... id=ID>TEXT</script>\n" (free()), or NULL. */
static char *
element(const char *id, const char *type, const char *text)
{
    static const char fmt[] = "<script type=\"%s\" id=\"%s\">%s</script>\n";
    const size_t n = sizeof(fmt) + strlen(id) + strlen(type) + strlen(text);
    char *s = malloc(n);

    if (s) {
        snprintf(s, n, fmt, type, id, text);
    }
    return s;
}

/* The script's text may not close its element. */
static bool
closes_script(const char *text)
{
    const char *p = strchr(text, '<');

    while (p) {
        if (strncasecmp(p, "</script", 8) == 0) {
            return true;
        }
        p = strchr(p + 1, '<');
    }
    return false;
}

void
html_wasm_free(struct html_wasm *w)
{
    for (size_t i = 0; i < sizeof(w->parts) / sizeof(w->parts[0]); i++) {
        free(w->parts[i]);
    }
    free(w->tmpl);
    memset(w, 0, sizeof(*w));
}

int
html_wasm_page(struct html_wasm *w, const char *dir, const char *log_path,
               const struct rpl_pubkey *pin, const char *const *tmpl)
{
    static const char csp_from[] = "script-src 'unsafe-inline'";
    static const char csp_to[] = "script-src 'unsafe-inline' "
                                 "'wasm-unsafe-eval'";
    char path[4096];
    char *log = NULL, *wasm = NULL, *js = NULL, *text;
    size_t log_len = 0, wasm_len = 0, js_len = 0, n = 0, m = 0, k = 0, i;
    char pin_json[RPL_PUBKEY_B64_LEN + 3] = "\"\"";
    int rc;

    memset(w, 0, sizeof(*w));
    if (strcmp(log_path, "-") == 0) {
        return cli_usage_error("html", "--wasm: the page carries the log's "
                                       "bytes: name a file, not -");
    }
    rc = read_all(log_path, &log, &log_len);
    if (rc == CLI_EXIT_OK) {
        snprintf(path, sizeof(path), "%s/camelog.wasm", dir);
        rc = read_all(path, &wasm, &wasm_len);
    }
    if (rc == CLI_EXIT_OK) {
        snprintf(path, sizeof(path), "%s/camelog.js", dir);
        rc = read_all(path, &js, &js_len);
    }
    if (rc == CLI_EXIT_OK && (wasm_len < 4 || memcmp(wasm, "\0asm", 4) != 0)) {
        snprintf(path, sizeof(path), "%s/camelog.wasm", dir);
        cli_file_msg(path, 0, "not a WebAssembly module (make wasm builds it)");
        rc = CLI_EXIT_USAGE;
    }
    if (rc == CLI_EXIT_OK && closes_script(js)) {
        snprintf(path, sizeof(path), "%s/camelog.js", dir);
        cli_file_msg(path, 0, "holds </script: it cannot be inlined");
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    rc = CLI_EXIT_USAGE;
    if (pin) {
        char b64[RPL_PUBKEY_B64_LEN + 1];

        rpl_pubkey_format(pin, b64);
        snprintf(pin_json, sizeof(pin_json), "\"%s\"", b64);
    }
    /* The log and the module as base64, the pinned key as JSON, then
     * one module script: camelog.js and selfcheck.js. */
    text = base64((const unsigned char *)log, log_len);
    w->parts[0] =
        text ? element("camelog-log", "application/octet-stream", text) : NULL;
    free(text);
    text = base64((const unsigned char *)wasm, wasm_len);
    w->parts[1] =
        text ? element("camelog-wasm", "application/octet-stream", text) : NULL;
    free(text);
    w->parts[2] = element("camelog-pin", "application/json", pin_json);
    w->parts[3] = strdup("<script type=\"module\">\n");
    w->parts[4] = js;
    js = NULL;
    w->parts[5] = strdup("</script>\n");
    for (i = 0; i < 6; i++) {
        if (!w->parts[i]) {
            cli_msg("out of memory");
            goto out;
        }
    }
    while (tmpl[n]) {
        n++;
    }
    while (html_selfcheck_js[m]) {
        m++;
    }
    w->tmpl = calloc(n + m + 8, sizeof(*w->tmpl));
    if (!w->tmpl) {
        cli_msg("out of memory");
        goto out;
    }
    for (i = 0; i < n; i++) {
        const char *at = strstr(tmpl[i], csp_from);

        if (at && !w->parts[6]) {
            const size_t pre = (size_t)(at - tmpl[i]);
            const size_t len = strlen(tmpl[i]) + sizeof(csp_to);

            w->parts[6] = malloc(len);
            if (!w->parts[6]) {
                cli_msg("out of memory");
                goto out;
            }
            snprintf(w->parts[6], len, "%.*s%s%s", (int)pre, tmpl[i], csp_to,
                     at + sizeof(csp_from) - 1);
            w->tmpl[k++] = w->parts[6];
            continue;
        }
        if (strcmp(tmpl[i], "</body>\n") == 0) {
            for (size_t p = 0; p < 5; p++) {
                w->tmpl[k++] = w->parts[p];
            }
            for (size_t j = 0; html_selfcheck_js[j]; j++) {
                w->tmpl[k++] = html_selfcheck_js[j];
            }
            w->tmpl[k++] = w->parts[5];
        }
        w->tmpl[k++] = tmpl[i];
    }
    if (!w->parts[6]) {
        cli_msg("html: the page template has no script-src to extend");
        goto out;
    }
    rc = CLI_EXIT_OK;
out:
    free(log);
    free(wasm);
    free(js);
    if (rc != CLI_EXIT_OK) {
        html_wasm_free(w);
    }
    return rc;
}
