/*
 * fuzz_host.c - libFuzzer target for the protocol of camelog host
 * (tools/cmd_host.c, camelog-host(1)): the input is the request lines,
 * one a line, answered in turn by one host whose journal and files are
 * in a temporary directory, as a server would send them.
 *
 * What must hold for every input: each request line gets exactly one
 * reply line, a JSON object with "v":1 and "ok"; a refusal's code is one
 * of camelog-host(1)'s list and its reason a one-line text; and when the
 * host ends with a journal it has not written, a second host resumes it
 * to the same number of lines.
 *
 * The host opens the files a request names, so a path field is mapped
 * to one of a few names inside the directory (a request may name a file
 * anywhere), and `new` gets a fixed game id, secret and date unless it
 * brings its own, so that one input always makes the same game.
 *
 * Build and run: make fuzz.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The host itself, its static functions included. */
#include "cmd_host.c"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The files of the directory that the runs keep: the dealer's key, a
 * second dealer key (a journal of another dealer), and stdout. */
static const char *const kept[] = {
    "dealer.key",
    "other.key",
    "replies",
    NULL,
};

/* The names a path field is mapped to, by field. */
static const char *const journals[] = {"j", "j2", "dealer.key"};
static const char *const paths[] = {"g.camelog", "j", "g2.camelog"};
static const char *const dealers[] = {"dealer.key", "other.key", "nokey"};

/* camelog-host(1), Codes. */
static const char *const codes[] = {
    "malformed",   "not-your-turn", "on-behalf",   "phase",       "illegal",
    "not-allowed", "duplicate",     "over",        "not-started", "signature",
    "pending",     "limit",         "io",          "bad-json",    "bad-version",
    "bad-request", "unknown-op",    "too-long",    "no-game",     "game-exists",
    "finished",    "locked",        "bad-journal", "exists",      "internal",
    NULL,
};

static FILE *devnull;

/* The directory of the runs, and its name with a slash. */
static char dir[] = "/tmp/fuzz_host.XXXXXX";
static char dir_slash[sizeof(dir) + 1];

/* dir/name, in a static buffer. */
static const char *
in_dir(const char *name)
{
    static char path[sizeof(dir) + 64];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return path;
}

static bool
is_kept(const char *name)
{
    for (size_t i = 0; kept[i]; i++) {
        if (strcmp(name, kept[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Removes what the last run left (journals, written games, temporary
 * files), never the kept files. */
static void
clean_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (!d) {
        abort();
    }
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            !is_kept(e->d_name)) {
            unlinkat(dirfd(d), e->d_name, 0);
        }
    }
    closedir(d);
}

/* At the end of the fuzzer: the directory goes. */
static void
remove_dir(void)
{
    clean_dir();
    for (size_t i = 0; kept[i]; i++) {
        unlink(in_dir(kept[i]));
    }
    rmdir(dir);
}

static void
save_key(const uint8_t seed[32], const char *name)
{
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk = NULL;

    if (rpl_ctx_new(&ctx, NULL, NULL) != RPL_OK ||
        rpl_seckey_from_seed(ctx, &sk, seed, NULL) != RPL_OK ||
        rpl_seckey_save(sk, in_dir(name), true, NULL) != RPL_OK) {
        abort();
    }
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const uint8_t seed1[32] = {0x44}, seed2[32] = {0x45};

    (void)argc;
    (void)argv;
    if (!mkdtemp(dir)) {
        abort();
    }
    snprintf(dir_slash, sizeof(dir_slash), "%s/", dir);
    atexit(remove_dir);
    save_key(seed1, "dealer.key");
    save_key(seed2, "other.key");
    /* The host's replies go to a file the target reads back; its
     * messages for the dealer to nowhere. */
    devnull = fopen("/dev/null", "w");
    if (!devnull || !freopen(in_dir("replies"), "w+", stdout)) {
        abort();
    }
    cli_divert(NULL, devnull);
    return 0;
}

/* Maps the string field key of o, if any, to one of names in the
 * directory: a name of the list to itself, any other to one of them. */
static void
map_path(json_t *o, const char *key, const char *const names[3])
{
    json_t *v = json_object_get(o, key);
    const char *name = NULL;
    size_t h = 0;

    if (!json_is_string(v)) {
        return;
    }
    /* "-" and "" stay: the host must refuse them itself. */
    if (strcmp(json_string_value(v), "-") == 0 || json_string_length(v) == 0) {
        return;
    }
    for (size_t i = 0; i < 3; i++) {
        if (strcmp(json_string_value(v), names[i]) == 0) {
            name = names[i];
        }
    }
    if (!name) {
        for (const char *s = json_string_value(v); *s; s++) {
            h = h * 31 + (unsigned char)*s;
        }
        name = names[h % 3];
    }
    json_object_set_new(o, key, json_string(in_dir(name)));
}

/* The request line as the host gets it: a JSON object with its paths
 * mapped into the directory and a fixed game for `new`; any other line
 * as it is.  Returns a malloc'd line, or NULL to send the line as is. */
static char *
prepare(const char *line, size_t len)
{
    json_t *o = json_loadb(line, len, JSON_REJECT_DUPLICATES, NULL);
    json_t *op;
    char *out;

    if (!json_is_object(o)) {
        json_decref(o);
        return NULL;
    }
    map_path(o, "journal", journals);
    map_path(o, "path", paths);
    map_path(o, "dealer", dealers);
    op = json_object_get(o, "op");
    if (json_is_string(op) && strcmp(json_string_value(op), "new") == 0) {
        if (!json_object_get(o, "game_id")) {
            json_object_set_new(
                o, "game_id", json_string("0123456789abcdef0123456789abcdef"));
        }
        if (!json_object_get(o, "secret")) {
            json_object_set_new(
                o, "secret",
                json_string("5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e7"
                            "5ec2e75ec2e75ec2"));
        }
        if (!json_object_get(o, "created")) {
            json_object_set_new(o, "created",
                                json_string("2026-01-01T00:00:00Z"));
        }
    }
    out = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!out) {
        abort();
    }
    return out;
}

static bool
known_code(const char *code)
{
    for (size_t i = 0; codes[i]; i++) {
        if (strcmp(code, codes[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Reads back the replies of the run: exactly want lines, each a reply.
 * Returns the "total" of the last accepted reply (0 if none). */
static json_int_t
check_replies(size_t want)
{
    char *text = NULL;
    size_t cap = 0, lines = 0;
    ssize_t n;
    json_int_t total = 0;

    fflush(stdout);
    rewind(stdout);
    while ((n = getline(&text, &cap, stdout)) > 0) {
        json_t *r, *ok, *code, *reason, *t;

        if (text[n - 1] != '\n') {
            abort();
        }
        r = json_loadb(text, (size_t)n - 1, 0, NULL);
        ok = json_object_get(r, "ok");
        if (!json_is_object(r) ||
            json_integer_value(json_object_get(r, "v")) != HOST_VERSION ||
            !json_is_boolean(ok) || !json_object_get(r, "id")) {
            abort();
        }
        if (json_is_false(ok)) {
            code = json_object_get(r, "code");
            reason = json_object_get(r, "reason");
            if (!json_is_string(code) || !known_code(json_string_value(code)) ||
                !json_is_string(reason) || json_string_length(reason) == 0 ||
                strpbrk(json_string_value(reason), "\r\n")) {
                abort();
            }
        } else if (json_is_integer(t = json_object_get(r, "total"))) {
            total = json_integer_value(t);
        }
        json_decref(r);
        lines++;
    }
    free(text);
    if (lines != want) {
        abort();
    }
    return total;
}

static void
host_free(struct host *h)
{
    for (size_t i = 0; i < HOST_ID_CACHE; i++) {
        free_text(h->seen[i].id);
        free_text(h->seen[i].req);
        free_text(h->seen[i].reply);
    }
    free_text(h->cur_id);
    free_text(h->cur_req);
    rpl_rec_free(h->rec);
    rpl_seckey_free(h->dealer);
    rpl_ctx_free(h->ctx);
    memset(h, 0, sizeof(*h));
}

/* Resumes the journal j of dealer.key in a second host, after the first
 * ended: it must take it to total lines (total 0: the first host made no
 * game there, and any refusal will do). */
static void
resume_check(json_int_t total)
{
    char req[256];
    struct host h;
    json_int_t got;
    int n;

    memset(&h, 0, sizeof(h));
    h.no_fsync = true;
    if (rpl_ctx_new(&h.ctx, NULL, NULL) != RPL_OK) {
        abort();
    }
    if (ftruncate(fileno(stdout), 0) != 0) {
        abort();
    }
    rewind(stdout);
    n = snprintf(req, sizeof(req),
                 "{\"id\":\"r\",\"op\":\"resume\",\"journal\":\"%sj\","
                 "\"dealer\":\"%sdealer.key\"}",
                 dir_slash, dir_slash);
    h.request = 1;
    if (!answer(&h, req, (size_t)n)) {
        abort();
    }
    got = check_replies(1);
    if (total > 0 && h.rec && got != total) {
        abort();
    }
    host_free(&h);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct host h;
    char *buf = malloc(HOST_MAX_REQUEST + 1);
    size_t at = 0, requests = 0;
    json_int_t total;
    bool journal_written = false, journal_made = false;

    if (!buf) {
        abort();
    }
    clean_dir();
    if (ftruncate(fileno(stdout), 0) != 0) {
        abort();
    }
    rewind(stdout);
    memset(&h, 0, sizeof(h));
    h.no_fsync = true;
    if (rpl_ctx_new(&h.ctx, NULL, NULL) != RPL_OK) {
        abort();
    }
    while (at < size) {
        const uint8_t *lf = memchr(data + at, '\n', size - at);
        const size_t n = lf ? (size_t)(lf - (data + at)) : size - at;
        char *line;

        h.request = ++requests;
        if (n > HOST_MAX_REQUEST) {
            struct rpl_refusal why;

            refuse(&why, "too-long", "a request line is at most %d bytes",
                   HOST_MAX_REQUEST);
            if (!send_refusal(NULL, NULL, &why)) {
                abort();
            }
        } else {
            memcpy(buf, data + at, n);
            buf[n] = '\0';
            line = prepare(buf, n);
            if (!answer(&h, line ? line : buf, line ? strlen(line) : n)) {
                abort();
            }
            free(line);
        }
        at += n + 1;
    }
    total = check_replies(requests);
    journal_made = access(in_dir("j"), F_OK) == 0;
    journal_written = h.is_finished;
    host_free(&h);
    free(buf);
    if (journal_made) {
        resume_check(journal_written ? 0 : total);
    }
    return 0;
}
