/*
 * cmd_host.c - camelog host: the recorder as a subprocess.  A game
 * server in any language drives it with one JSON object per line on
 * stdin and reads one JSON object per line on stdout (camelog-host(1)
 * is the protocol, byte for byte).
 *
 *   stdout: the hello line, then exactly one response per request, in
 *           order.  Everything on it may be shown to the server, which
 *           routes "deliveries" to their seats privately.
 *   stderr: what only the dealer may read (the library's detail of a
 *           refusal, the dealer's view of the state).
 *
 * A request line longer than HOST_MAX_REQUEST bytes is refused and
 * skipped to its end; a malformed or unknown request is refused; none of
 * them changes the game.  With a journal (`new` with "journal"), every
 * accepted line is on disk before its response is written, so a host
 * killed at any point is continued by another with `resume`.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>
#include <sodium.h>

#include "cli.h"
#include "host_reply.h"
#include "host_tlog.h"
#include "replay.h"

/* The protocol version this host speaks (the "v" of every object). */
#define HOST_VERSION 1

/* The longest request line, LF excluded: a `new` with ten seats, their
 * keys and long names fits many times over, and a server that sends more
 * is broken or hostile.  The line is skipped to its LF, not parsed. */
#define HOST_MAX_REQUEST 65536

/* The most seats a `new` may list (more than any game takes: the
 * library's rules check says how many the game takes). */
#define HOST_MAX_SEATS 16

/* The longest "id" a request may carry (a string), for echoing back. */
#define HOST_MAX_ID 128

/* The replies to requests with an id that are kept, so that a request
 * sent again (same id, same fields) gets the first reply again. */
#define HOST_ID_CACHE 64

static const char usage[] =
    "usage: camelog host [--no-fsync] [--seal=step|end] [--tlog dir]\n";

static const char options[] =
    "options:\n"
    "  --no-fsync  do not fsync the journal (for tests and benchmarks\n"
    "              only: a crash of the machine may lose accepted lines)\n"
    "  --seal=step|end  seal after every request that wrote lines (step,\n"
    "              the default), or only when asked and at the end\n"
    "  --tlog dir  append each game's start and end to the public log dir\n"
    "  -h, --help  this help\n";

struct host {
    struct rpl_ctx *ctx;
    struct rpl_recorder *rec;
    struct rpl_seckey *dealer; /* must outlive rec */
    bool is_finished;          /* written: every op is refused */
    bool no_fsync;
    bool seal_at_end;   /* --seal=end: no seal after each step */
    const char *tlog;   /* --tlog: the public log of games, or NULL */
    char journal[4096]; /* the game's journal, for the log's side file */
    size_t seats;
    size_t request;    /* 1-based number of the request line */
    size_t lines_sent; /* the lines the accepted replies have shown */
    /* Replies kept by id (a ring); cur_*: the request being answered. */
    struct {
        char *id, *req, *reply;
    } seen[HOST_ID_CACHE];
    size_t next_seen;
    char *cur_id, *cur_req;
};

static void
free_text(char *s)
{
    if (s) {
        sodium_memzero(s, strlen(s));
        free(s);
    }
}

/* ------------------------------------------------------------ replies */

static void refuse(struct rpl_refusal *why, const char *code, const char *fmt,
                   ...) CLI_PRINTF(3, 4);

static void
refuse(struct rpl_refusal *why, const char *code, const char *fmt, ...)
{
    va_list ap;

    snprintf(why->code, sizeof(why->code), "%s", code);
    va_start(ap, fmt);
    vsnprintf(why->text, sizeof(why->text), fmt, ap);
    va_end(ap);
}

/* The dealer's detail of a failure: stderr only. */
static void
dealer_detail(const struct host *h, enum rpl_status st,
              const struct rpl_error *err)
{
    if (st == RPL_OK) {
        return;
    }
    if (err->line != 0) {
        cli_msg("request %zu: line %zu: %s", h->request, err->line,
                cli_error_text(st, err));
    } else {
        cli_msg("request %zu: %s", h->request, cli_error_text(st, err));
    }
}

/* The protocol code of a library status, for the calls that are not a
 * seat's submission (their refusals come with the recorder's code). */
static const char *
status_code(enum rpl_status st)
{
    static const struct {
        enum rpl_status st;
        const char *code;
    } codes[] = {
        {RPL_E_IO, "io"},          {RPL_E_EXISTS, "exists"},
        {RPL_E_STATE, "phase"},    {RPL_E_INCOMPLETE, "phase"},
        {RPL_E_LIMIT, "limit"},    {RPL_E_BUSY, "locked"},
        {RPL_E_NOMEM, "internal"}, {RPL_E_CRYPTO, "internal"},
    };

    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        if (codes[i].st == st) {
            return codes[i].code;
        }
    }
    return "bad-request";
}

/* A refusal of a call of the dealer's own (new, start, seal, ...): with
 * public set the library's message is safe for stdout (it names the
 * configuration or a path); otherwise only the status's text goes there
 * and the message goes to stderr. */
static void
refuse_status(const struct host *h, struct rpl_refusal *why, enum rpl_status st,
              const struct rpl_error *err, bool public)
{
    if (public) {
        /* The library's message names the configuration: stderr too, so
         * that every reason stays one of the fixed texts. */
        refuse(why, status_code(st), "%s",
               st == RPL_E_IO || st == RPL_E_EXISTS
                   ? "the journal could not be created"
                   : "the game, its rules or its seats are not valid");
        dealer_detail(h, st, err);
    } else if (st == RPL_E_IO) {
        refuse(why, "io",
               "the journal could not be written: nothing was "
               "accepted");
        dealer_detail(h, st, err);
    } else {
        refuse(why, status_code(st), "%s", rpl_strerror(st));
        dealer_detail(h, st, err);
    }
}

/* A refusal the recorder made (a seat's submission): its code and public
 * text; the detail to stderr. */
static void
refuse_submission(const struct host *h, struct rpl_refusal *why,
                  const struct rpl_refusal *rec_why, enum rpl_status st,
                  const struct rpl_error *err)
{
    if (rec_why->code[0] != '\0') {
        *why = *rec_why;
    } else {
        refuse(why, status_code(st), "%s", rpl_strerror(st));
    }
    dealer_detail(h, st, err);
}

static json_t *
reply_new(const json_t *id, bool ok)
{
    json_t *r = json_object();

    if (!r || !cli_json_set(r, "v", json_integer(HOST_VERSION)) ||
        !cli_json_set(r, "id", id ? json_deep_copy(id) : json_null()) ||
        !cli_json_set(r, "ok", json_boolean(ok))) {
        json_decref(r);
        return NULL;
    }
    return r;
}

/* Writes a reply and flushes it: the server waits for it.  Returns
 * false when stdout is gone. */
static bool
write_line(const char *s)
{
    return fputs(s, stdout) >= 0 && fputc('\n', stdout) != EOF &&
           fflush(stdout) == 0;
}

/* Writes a reply and flushes it: the server waits for it; with h, keeps
 * it for the request's id.  Returns false when stdout is gone. */
static bool
reply_send(struct host *h, json_t *r)
{
    char *s = r ? json_dumps(r, JSON_COMPACT) : NULL;
    bool ok;

    json_decref(r);
    if (!s) {
        cli_msg("out of memory");
        return false;
    }
    ok = write_line(s);
    if (h && h->cur_id) {
        const size_t i = h->next_seen;

        free_text(h->seen[i].id);
        free_text(h->seen[i].req);
        free_text(h->seen[i].reply);
        h->seen[i].id = h->cur_id;
        h->seen[i].req = h->cur_req;
        h->seen[i].reply = s;
        h->cur_id = h->cur_req = NULL;
        h->next_seen = (i + 1) % HOST_ID_CACHE;
        s = NULL;
    }
    free_text(s);
    return ok;
}

/* A request with an id: 1 when the same request (same id, same fields)
 * was answered before and its reply was sent again, 0 when it is new
 * (then its reply is kept, in place of the one of an earlier request
 * with that id).  -1 when stdout is gone. */
static int
seen_before(struct host *h, const json_t *id, const json_t *req)
{
    char *idt = json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY);
    char *rt = json_dumps(req, JSON_COMPACT | JSON_SORT_KEYS);

    free_text(h->cur_id);
    free_text(h->cur_req);
    h->cur_id = h->cur_req = NULL;
    if (!idt || !rt) {
        free(idt);
        free_text(rt);
        return 0;
    }
    for (size_t i = 0; i < HOST_ID_CACHE; i++) {
        if (!h->seen[i].id || strcmp(h->seen[i].id, idt) != 0) {
            continue;
        }
        if (strcmp(h->seen[i].req, rt) != 0) {
            /* The id names another request now. */
            free_text(h->seen[i].id);
            free_text(h->seen[i].req);
            free_text(h->seen[i].reply);
            h->seen[i].id = h->seen[i].req = h->seen[i].reply = NULL;
            break;
        }
        free(idt);
        free_text(rt);
        return write_line(h->seen[i].reply) ? 1 : -1;
    }
    h->cur_id = idt;
    h->cur_req = rt;
    return 0;
}

static bool
send_refusal(struct host *h, const json_t *id, const struct rpl_refusal *why)
{
    json_t *r = reply_new(id, false);

    if (!cli_json_set(r, "code", json_string(why->code)) ||
        !cli_json_set(r, "reason", cli_json_str(why->text))) {
        json_decref(r);
        cli_msg("out of memory");
        return false;
    }
    return reply_send(h, r);
}

/* ------------------------------------------------------------ fields */

/* Refuses any key of req that is not "v", "id", "op" or in allowed. */
static bool
check_fields(json_t *req, const char *const *allowed, struct rpl_refusal *why)
{
    const char *key;
    json_t *val;

    json_object_foreach(req, key, val)
    {
        size_t i;
        bool known = strcmp(key, "v") == 0 || strcmp(key, "id") == 0 ||
                     strcmp(key, "op") == 0;

        (void)val;
        for (i = 0; !known && allowed[i]; i++) {
            known = strcmp(key, allowed[i]) == 0;
        }
        if (!known) {
            /* The name is the sender's text: named on stderr only. */
            refuse(why, "bad-request", "a field this operation does not take");
            cli_msg("unknown field \"%.64s\"", key);
            return false;
        }
    }
    return true;
}

/* A string field; NULL *out when absent and optional. */
static bool
get_str(json_t *req, const char *key, bool required, const char **out,
        struct rpl_refusal *why)
{
    json_t *v = json_object_get(req, key);

    *out = NULL;
    if (!v) {
        if (required) {
            refuse(why, "bad-request", "missing field \"%s\"", key);
            return false;
        }
        return true;
    }
    if (!json_is_string(v)) {
        refuse(why, "bad-request", "field \"%s\" must be a string", key);
        return false;
    }
    *out = json_string_value(v);
    if (strlen(*out) != json_string_length(v)) {
        refuse(why, "bad-request", "field \"%s\" holds a NUL", key);
        return false;
    }
    return true;
}

/* A path field: "-" would be a standard stream (the protocol's own),
 * and the empty string no file at all. */
static bool
get_path(json_t *req, const char *key, bool required, const char **out,
         struct rpl_refusal *why)
{
    if (!get_str(req, key, required, out, why)) {
        return false;
    }
    if (*out && (strcmp(*out, "-") == 0 || (*out)[0] == '\0')) {
        refuse(why, "bad-request",
               "field \"%s\" must name a file (not \"-\" or empty)", key);
        return false;
    }
    return true;
}

/* A seat field such as "p3", within the game. */
static bool
get_seat(const struct host *h, json_t *req, const char *key, size_t *seat,
         struct rpl_refusal *why)
{
    const char *s;

    if (!get_str(req, key, true, &s, why)) {
        return false;
    }
    if (!cli_parse_seat(s, seat) || *seat == 0 || *seat > h->seats) {
        refuse(why, "bad-request", "field \"%s\" must be a seat of this game",
               key);
        return false;
    }
    return true;
}

/* Exactly n bytes of hex in a string field (optional when !required:
 * *present says whether it was there). */
static bool
get_hex(json_t *req, const char *key, bool required, uint8_t *out, size_t n,
        bool *present, struct rpl_refusal *why)
{
    const char *s;
    size_t len = 0;

    *present = false;
    if (!get_str(req, key, required, &s, why)) {
        return false;
    }
    if (!s) {
        return true;
    }
    if (strlen(s) != 2 * n || !cli_parse_hex(s, out, n, &len) || len != n) {
        refuse(why, "bad-request", "field \"%s\" must be %zu hex digits", key,
               2 * n);
        return false;
    }
    *present = true;
    return true;
}

/* A seat's signature: 128 hex digits, or the line "sig pK <base64>" that
 * `camelog seat sign` prints (pK must be the submitting seat). */
static bool
get_sig(json_t *req, size_t seat, bool required, uint8_t sig[64], bool *present,
        struct rpl_refusal *why)
{
    const char *s;
    size_t len = 0;

    *present = false;
    if (!get_str(req, "sig", required, &s, why)) {
        return false;
    }
    if (!s) {
        return true;
    }
    if (strlen(s) == 128 && cli_parse_hex(s, sig, 64, &len) && len == 64) {
        *present = true;
        return true;
    }
    if (rpl_sig_line_parse(s, strlen(s), seat, sig)) {
        *present = true;
        return true;
    }
    refuse(why, "bad-request",
           "field \"sig\" must be 128 hex digits or the line \"sig p%zu "
           "<base64>\"",
           seat);
    return false;
}

/* With --tlog, the game's start or end in the public log (host_tlog.c).
 * A start that fails drops the game: a resume of its journal retries. */
static bool
tlog_add(struct host *h, const struct rpl_log *log, enum host_tlog_kind kind,
         struct rpl_refusal *why)
{
    if (host_tlog_step(h->ctx, h->tlog, h->journal[0] ? h->journal : NULL,
                       h->dealer, h->rec, log, kind, h->request)) {
        return true;
    }
    refuse(why, "tlog", "the public log of games could not be appended to");
    if (kind == HOST_TLOG_START) {
        rpl_rec_free(h->rec);
        h->rec = NULL;
        rpl_seckey_free(h->dealer);
        h->dealer = NULL;
    }
    return false;
}

/* ---------------------------------------------------------------- ops */

struct op_ctx {
    struct host *h;
    json_t *req;
    json_t *reply;           /* ok reply under construction */
    struct rpl_refusal *why; /* filled on refusal */
};

static bool
op_new(struct op_ctx *c)
{
    static const char *const allowed[] = {
        "game",   "rules",   "players", "roles",   "options", "seats",
        "dealer", "journal", "created", "game_id", "secret",  NULL,
    };
    struct host *h = c->h;
    struct rpl_refusal *why = c->why;
    const char *game, *rules, *roles, *opts, *dealer, *journal, *created;
    const char *names[HOST_MAX_SEATS];
    struct rpl_pubkey keys[HOST_MAX_SEATS];
    const struct rpl_pubkey *key_ptrs[HOST_MAX_SEATS];
    struct rpl_rec_config cfg;
    struct rpl_error err;
    json_t *seats, *players;
    uint8_t id[16], secret[32];
    bool has_id = false, has_secret = false, ok = false;
    char *built = NULL;
    size_t n, k;
    enum rpl_status st;

    if (!check_fields(c->req, allowed, why) ||
        !get_str(c->req, "game", true, &game, why) ||
        !get_str(c->req, "rules", false, &rules, why) ||
        !get_str(c->req, "roles", false, &roles, why) ||
        !get_str(c->req, "options", false, &opts, why) ||
        !get_path(c->req, "dealer", true, &dealer, why) ||
        !get_path(c->req, "journal", false, &journal, why) ||
        !get_str(c->req, "created", false, &created, why) ||
        !get_hex(c->req, "game_id", false, id, sizeof(id), &has_id, why) ||
        !get_hex(c->req, "secret", false, secret, sizeof(secret), &has_secret,
                 why)) {
        goto out;
    }
    seats = json_object_get(c->req, "seats");
    if (!json_is_array(seats) || json_array_size(seats) == 0 ||
        json_array_size(seats) > HOST_MAX_SEATS) {
        refuse(why, "bad-request",
               "field \"seats\" must be an array of 1 to %d seats",
               HOST_MAX_SEATS);
        goto out;
    }
    n = json_array_size(seats);
    for (k = 0; k < n; k++) {
        json_t *s = json_array_get(seats, k);
        json_t *name = json_is_object(s) ? json_object_get(s, "name") : s;
        json_t *key = json_is_object(s) ? json_object_get(s, "key") : NULL;
        struct rpl_error kerr;

        key_ptrs[k] = NULL;
        if (json_is_object(s) &&
            json_object_size(s) != (size_t)(1 + (key ? 1 : 0))) {
            refuse(why, "bad-request",
                   "seat %zu: only the fields \"name\" and \"key\"", k + 1);
            goto out;
        }
        if (!json_is_string(name) ||
            strlen(json_string_value(name)) != json_string_length(name)) {
            refuse(why, "bad-request",
                   "seat %zu: a name string, or an object with \"name\" and "
                   "optional \"key\"",
                   k + 1);
            goto out;
        }
        names[k] = json_string_value(name);
        if (key) {
            if (!json_is_string(key) ||
                rpl_pubkey_parse(&keys[k], json_string_value(key),
                                 json_string_length(key), &kerr) != RPL_OK) {
                refuse(why, "bad-request",
                       "seat %zu: \"key\" is not a public key in base64",
                       k + 1);
                goto out;
            }
            key_ptrs[k] = &keys[k];
        }
    }
    players = json_object_get(c->req, "players");
    if (rules && (players || roles || opts)) {
        refuse(why, "bad-request",
               "field \"rules\" excludes \"players\", \"roles\" and "
               "\"options\"");
        goto out;
    }
    if (players && (!json_is_integer(players) ||
                    json_integer_value(players) != (json_int_t)n)) {
        refuse(why, "bad-request",
               "field \"players\" must be the number of seats, %zu", n);
        goto out;
    }
    if (!rules) {
        st = rpl_game_rules(h->ctx, game, n, roles, opts, &built, &err);
        if (st != RPL_OK) {
            refuse_status(h, why, st, &err, true);
            goto out;
        }
        rules = built;
    }
    st = rpl_seckey_load(h->ctx, &h->dealer, dealer, &err);
    if (st != RPL_OK) {
        refuse(why, status_code(st), "the dealer key could not be loaded");
        cli_msg("request %zu: dealer key %s: %s", h->request, dealer,
                cli_error_text(st, &err));
        goto out;
    }
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = game;
    cfg.rules = rules;
    cfg.seats = n;
    cfg.names = names;
    cfg.seat_keys = key_ptrs;
    cfg.dealer = h->dealer;
    cfg.id = has_id ? id : NULL;
    cfg.secret = has_secret ? secret : NULL;
    cfg.created = created;
    cfg.journal = journal;
    st = rpl_rec_new(h->ctx, &h->rec, &cfg, &err);
    if (st != RPL_OK) {
        refuse_status(h, why, st, &err, true);
        rpl_seckey_free(h->dealer);
        h->dealer = NULL;
        goto out;
    }
    rpl_rec_set_fsync(h->rec, !h->no_fsync);
    h->seats = n;
    snprintf(h->journal, sizeof(h->journal), "%s", journal ? journal : "");
    if (!tlog_add(h, NULL, HOST_TLOG_START, why)) {
        goto out;
    }
    ok = true;
out:
    rpl_free(h->ctx, built);
    sodium_memzero(secret, sizeof(secret));
    return ok;
}

/* A key of the library's state for viewer, as a new reference (NULL on
 * failure). */
static json_t *
state_key(const struct host *h, int viewer, const char *key)
{
    struct rpl_error err;
    char *text = NULL;
    json_t *state, *v = NULL;

    if (rpl_rec_state_json(h->rec, viewer, &text, &err) != RPL_OK) {
        return NULL;
    }
    state = cli_json_parse(text);
    sodium_memzero(text, strlen(text));
    rpl_free(h->ctx, text);
    if (state) {
        v = json_incref(json_object_get(state, key));
        json_decref(state);
    }
    return v;
}

/* What the recorder holds: "waiting" (public, the seats a submission or
 * a signature is awaited from) and "held" (private, each seat's held
 * submissions under its key, as the seat sent them). */
static bool
put_held(struct op_ctx *c)
{
    json_t *held = json_object();

    for (size_t k = 1; held && k <= c->h->seats; k++) {
        json_t *mine = state_key(c->h, (int)k, "held");
        char seat[24];

        snprintf(seat, sizeof(seat), "p%zu", k);
        if (!json_is_array(mine)) {
            json_decref(mine);
            json_decref(held);
            return false;
        }
        if (json_array_size(mine) == 0) {
            json_decref(mine);
        } else if (!cli_json_set(held, seat, mine)) {
            json_decref(held);
            return false;
        }
    }
    return cli_json_set(c->reply, "waiting",
                        state_key(c->h, RPL_VIEW_PUBLIC, "waiting")) &&
           cli_json_set(c->reply, "held", held);
}

static bool
op_resume(struct op_ctx *c)
{
    static const char *const allowed[] = {"journal", "dealer", NULL};
    struct host *h = c->h;
    const char *journal, *dealer;
    struct rpl_error err;
    enum rpl_status st;

    if (!check_fields(c->req, allowed, c->why) ||
        !get_path(c->req, "journal", true, &journal, c->why) ||
        !get_path(c->req, "dealer", true, &dealer, c->why)) {
        return false;
    }
    st = rpl_seckey_load(h->ctx, &h->dealer, dealer, &err);
    if (st != RPL_OK) {
        refuse(c->why, status_code(st), "the dealer key could not be loaded");
        cli_msg("request %zu: dealer key %s: %s", h->request, dealer,
                cli_error_text(st, &err));
        return false;
    }
    st = rpl_rec_resume(h->ctx, &h->rec, journal, h->dealer, &err);
    if (st == RPL_OK) {
        /* The recorder checked every line as it replayed the journal. */
        rpl_rec_set_fsync(h->rec, !h->no_fsync);
        h->seats = rpl_rec_seats(h->rec);
    }
    if (st != RPL_OK) {
        /* camelog-host(1) lists these codes. */
        if (st == RPL_E_IO) {
            refuse(c->why, "io", "the journal could not be opened or read");
        } else if (st == RPL_E_BUSY) {
            refuse(c->why, "locked",
                   "another host holds the journal: one host per journal");
        } else if (st == RPL_E_STATE) {
            refuse(c->why, "finished",
                   "the journal's game was written: it is closed");
        } else if (st == RPL_E_NOMEM || st == RPL_E_CRYPTO) {
            refuse(c->why, "internal", "the library failed");
        } else {
            refuse(c->why, "bad-journal",
                   "the journal and its secrets file do not make a game of "
                   "this dealer");
        }
        dealer_detail(h, st, &err);
        rpl_rec_free(h->rec);
        h->rec = NULL;
        rpl_seckey_free(h->dealer);
        h->dealer = NULL;
        return false;
    }
    snprintf(h->journal, sizeof(h->journal), "%s", journal);
    if (!tlog_add(h, NULL, HOST_TLOG_START, c->why)) {
        return false;
    }
    if (!put_held(c)) {
        refuse(c->why, "internal", "out of memory");
        return false;
    }
    return true;
}

static bool
op_entropy(struct op_ctx *c)
{
    static const char *const allowed[] = {"seat", "hex", "sig", NULL};
    struct rpl_refusal rec_why;
    struct rpl_error err;
    uint8_t entropy[32], sig[64];
    bool has_sig = false, present = false;
    size_t seat = 0;
    enum rpl_status st;

    if (!check_fields(c->req, allowed, c->why) ||
        !get_seat(c->h, c->req, "seat", &seat, c->why) ||
        !get_hex(c->req, "hex", true, entropy, sizeof(entropy), &present,
                 c->why) ||
        !get_sig(c->req, seat, false, sig, &has_sig, c->why)) {
        return false;
    }
    memset(&rec_why, 0, sizeof(rec_why));
    st = rpl_rec_submit_entropy(c->h->rec, seat, entropy, has_sig ? sig : NULL,
                                &rec_why, &err);
    if (st != RPL_OK) {
        refuse_submission(c->h, c->why, &rec_why, st, &err);
        return false;
    }
    return true;
}

/* Format 2's first round: a seat's pledge, its commitment to its value. */
static bool
op_pledge(struct op_ctx *c)
{
    static const char *const allowed[] = {"seat", "hex", "sig", NULL};
    struct rpl_refusal rec_why = {{0}, {0}};
    struct rpl_error err;
    uint8_t pledge[32], sig[64];
    bool has_sig = false, present = false;
    size_t seat = 0;

    if (!check_fields(c->req, allowed, c->why) ||
        !get_seat(c->h, c->req, "seat", &seat, c->why) ||
        !get_hex(c->req, "hex", true, pledge, sizeof(pledge), &present,
                 c->why) ||
        !get_sig(c->req, seat, false, sig, &has_sig, c->why)) {
        return false;
    }
    const enum rpl_status st = rpl_rec_pledge(
        c->h->rec, seat, pledge, NULL, has_sig ? sig : NULL, &rec_why, &err);
    if (st != RPL_OK) {
        refuse_submission(c->h, c->why, &rec_why, st, &err);
    }
    return st == RPL_OK;
}

/* A seat withheld its value: the game ends, naming it. */
static bool
op_abandon(struct op_ctx *c)
{
    static const char *const allowed[] = {"seat", NULL};
    struct rpl_refusal rec_why = {{0}, {0}};
    struct rpl_error err;
    size_t seat = 0;

    if (!check_fields(c->req, allowed, c->why) ||
        !get_seat(c->h, c->req, "seat", &seat, c->why)) {
        return false;
    }
    const enum rpl_status st = rpl_rec_abandon(c->h->rec, seat, &rec_why, &err);
    if (st != RPL_OK) {
        refuse_submission(c->h, c->why, &rec_why, st, &err);
    }
    return st == RPL_OK;
}

static bool
op_act(struct op_ctx *c)
{
    static const char *const allowed[] = {"seat", "action", "sig", NULL};
    struct rpl_refusal rec_why;
    struct rpl_error err;
    const char *action;
    uint8_t sig[64];
    bool has_sig = false;
    size_t seat = 0;
    enum rpl_status st;

    if (!check_fields(c->req, allowed, c->why) ||
        !get_seat(c->h, c->req, "seat", &seat, c->why) ||
        !get_str(c->req, "action", true, &action, c->why) ||
        !get_sig(c->req, seat, false, sig, &has_sig, c->why)) {
        return false;
    }
    memset(&rec_why, 0, sizeof(rec_why));
    st = rpl_rec_submit(c->h->rec, seat, action, has_sig ? sig : NULL, &rec_why,
                        &err);
    if (st != RPL_OK) {
        refuse_submission(c->h, c->why, &rec_why, st, &err);
        return false;
    }
    return true;
}

static bool
op_sign(struct op_ctx *c)
{
    static const char *const allowed[] = {"seat", "sig", NULL};
    struct rpl_refusal rec_why;
    struct rpl_error err;
    uint8_t sig[64];
    bool has_sig = false;
    size_t seat = 0;
    enum rpl_status st;

    if (!check_fields(c->req, allowed, c->why) ||
        !get_seat(c->h, c->req, "seat", &seat, c->why) ||
        !get_sig(c->req, seat, true, sig, &has_sig, c->why)) {
        return false;
    }
    memset(&rec_why, 0, sizeof(rec_why));
    st = rpl_rec_sign(c->h->rec, seat, sig, &rec_why, &err);
    if (st != RPL_OK) {
        refuse_submission(c->h, c->why, &rec_why, st, &err);
        return false;
    }
    return true;
}

static bool
op_state(struct op_ctx *c)
{
    static const char *const allowed[] = {"viewer", NULL};
    struct rpl_error err;
    const char *viewer;
    char *text = NULL;
    json_t *state;
    size_t seat = 0;
    int v;
    enum rpl_status st;

    if (!check_fields(c->req, allowed, c->why) ||
        !get_str(c->req, "viewer", true, &viewer, c->why)) {
        return false;
    }
    if (strcmp(viewer, "public") == 0) {
        v = RPL_VIEW_PUBLIC;
    } else if (strcmp(viewer, "dealer") == 0) {
        v = RPL_VIEW_ALL;
    } else if (cli_parse_seat(viewer, &seat) && seat >= 1 &&
               seat <= c->h->seats) {
        v = (int)seat;
    } else {
        refuse(c->why, "bad-request",
               "field \"viewer\" must be \"public\", \"dealer\" or a seat of "
               "this game");
        return false;
    }
    st = rpl_rec_state_json(c->h->rec, v, &text, &err);
    if (st != RPL_OK) {
        refuse_status(c->h, c->why, st, &err, false);
        return false;
    }
    if (v == RPL_VIEW_ALL) {
        /* The dealer's view holds every secret: never on stdout. */
        cli_msg("request %zu: dealer state: %s", c->h->request, text);
        rpl_free(c->h->ctx, text);
        return cli_json_set(c->reply, "state", json_null());
    }
    state = cli_json_parse(text);
    rpl_free(c->h->ctx, text);
    if (!state) {
        refuse(c->why, "internal", "the library's state is not JSON");
        return false;
    }
    return cli_json_set(c->reply, "state", state);
}

/* start, seal, reveal, abort: no fields, one call. */
static bool
op_simple(struct op_ctx *c,
          enum rpl_status (*call)(struct rpl_recorder *, struct rpl_error *))
{
    static const char *const allowed[] = {NULL};
    struct rpl_error err;
    enum rpl_status st;

    if (!check_fields(c->req, allowed, c->why)) {
        return false;
    }
    st = call(c->h->rec, &err);
    if (st != RPL_OK) {
        refuse_status(c->h, c->why, st, &err, false);
        return false;
    }
    return true;
}

static bool
op_start(struct op_ctx *c)
{
    return op_simple(c, rpl_rec_start);
}

static bool
op_seal(struct op_ctx *c)
{
    /* A seal moves the base that an open request's signature covers. */
    if (rpl_rec_sign_requests(c->h->rec) > 0) {
        refuse(c->why, "pending",
               "a seat's signature is awaited: seal after it arrives");
        return false;
    }
    return op_simple(c, rpl_rec_seal);
}

static bool
op_reveal(struct op_ctx *c)
{
    return op_simple(c, rpl_rec_reveal);
}

static bool
op_abort(struct op_ctx *c)
{
    return op_simple(c, rpl_rec_abort);
}

/* The pledges closed and sealed: the sealed start every seat is shown. */
static enum rpl_status
pledged(struct rpl_recorder *rec, struct rpl_error *err)
{
    return rpl_rec_pledged(rec, NULL, err);
}

static bool
op_pledged(struct op_ctx *c)
{
    return op_simple(c, pledged);
}

/* Whether line no of the recorder starts with word and a space. */
static bool
line_is(const struct rpl_recorder *rec, size_t no, const char *word)
{
    size_t len = 0;
    const char *p = rpl_rec_line(rec, no, &len);
    const size_t n = strlen(word);

    return p && len > n && memcmp(p, word, n) == 0 && p[n] == ' ';
}

/* Whether the game has its end line. */
static bool
has_ended(const struct rpl_recorder *rec)
{
    for (size_t no = rpl_rec_lines(rec); no > 0; no--) {
        if (line_is(rec, no, "end") || line_is(rec, no, "abandoned")) {
            return true;
        }
    }
    return false;
}

static bool
op_write(struct op_ctx *c)
{
    static const char *const allowed[] = {"path", "force", NULL};
    struct host *h = c->h;
    struct rpl_log *log = NULL;
    struct rpl_error err;
    const char *path;
    json_t *force = json_object_get(c->req, "force");
    enum rpl_progress progress;
    enum rpl_status st;

    if (!check_fields(c->req, allowed, c->why) ||
        !get_path(c->req, "path", true, &path, c->why)) {
        return false;
    }
    if (force && !json_is_boolean(force)) {
        refuse(c->why, "bad-request", "field \"force\" must be true or false");
        return false;
    }
    /* Only a game that ended is written, and always sealed, so that the
     * file verifies with the pinned dealer key: a game in progress is in
     * its journal. */
    if (!has_ended(h->rec)) {
        refuse(c->why, "phase",
               "the game is in progress: finish or abort it first");
        return false;
    }
    /* An existing file is refused before the seal, so that the refusal
     * changes nothing (rpl_log_write refuses it again, atomically). */
    if (!json_is_true(force)) {
        struct stat sb;

        if (lstat(path, &sb) == 0 || errno != ENOENT) {
            refuse(c->why, "exists", "the file exists: force replaces it");
            return false;
        }
    }
    if (!line_is(h->rec, rpl_rec_lines(h->rec), "seal")) {
        st = rpl_rec_seal(h->rec, &err);
        if (st != RPL_OK) {
            refuse_status(h, c->why, st, &err, false);
            return false;
        }
    }
    /* Every line was judged by the game as the recorder wrote it: the
     * file needs no second replay (the tests verify what hosts write). */
    progress = rpl_rec_progress(h->rec);
    st = rpl_rec_log(h->rec, &log, &err);
    if (st != RPL_OK) {
        refuse_status(h, c->why, st, &err, false);
        return false;
    }
    /* The end is in the public log before the file is written. */
    if (!tlog_add(h, log, HOST_TLOG_END, c->why)) {
        rpl_log_free(log);
        return false;
    }
    st = rpl_log_write(log, path, json_is_true(force), &err);
    rpl_log_free(log);
    if (st != RPL_OK) {
        refuse(c->why, status_code(st), "%s",
               st == RPL_E_EXISTS ? "the file exists: force replaces it"
                                  : "the file could not be written");
        dealer_detail(h, st, &err);
        return false;
    }
    /* The journal is closed: no other host continues the game. */
    st = rpl_rec_close(h->rec, &err);
    if (st != RPL_OK) {
        refuse_status(h, c->why, st, &err, false);
        return false;
    }
    h->is_finished = true;
    return cli_json_set(c->reply, "progress",
                        json_string(rpl_progress_name(progress)));
}

struct op {
    const char *name;
    bool (*run)(struct op_ctx *c);
    bool makes_game; /* new, resume: refused when a game exists */
};

static const struct op ops[] = {
    {"new", op_new, true},          {"resume", op_resume, true},
    {"entropy", op_entropy, false}, {"start", op_start, false},
    {"act", op_act, false},         {"sign", op_sign, false},
    {"state", op_state, false},     {"seal", op_seal, false},
    {"reveal", op_reveal, false},   {"abort", op_abort, false},
    {"write", op_write, false},     {"pledge", op_pledge, false},
    {"pledged", op_pledged, false}, {"abandon", op_abandon, false},
};

#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* ------------------------------------------------------------ requests */

/* Answers one request line.  Returns false only when stdout is gone. */
static bool
answer(struct host *h, const char *line, size_t len)
{
    struct rpl_refusal why;
    json_error_t jerr;
    json_t *req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
    json_t *id = NULL, *v;
    const char *opname;
    const struct op *op = NULL;
    struct op_ctx c;
    size_t i, lines0 = 0, deliv0 = 0;
    bool sent;

    memset(&why, 0, sizeof(why));
    if (!req || !json_is_object(req)) {
        if (req) {
            refuse(&why, "bad-json", "a request is one JSON object");
        } else {
            /* The parser's text quotes the line (an action, a vote):
             * stderr only. */
            refuse(&why, "bad-json", "the line is not valid JSON");
            cli_msg("request %zu: column %d: %s", h->request, jerr.column,
                    jerr.text);
        }
        json_decref(req);
        return send_refusal(NULL, NULL, &why);
    }
    id = json_object_get(req, "id");
    if (id && !(json_is_integer(id) ||
                (json_is_string(id) && json_string_length(id) <= HOST_MAX_ID &&
                 strlen(json_string_value(id)) == json_string_length(id)))) {
        refuse(&why, "bad-request",
               "field \"id\" must be an integer or a string of at most %d "
               "bytes",
               HOST_MAX_ID);
        id = NULL;
        goto refused;
    }
    if (id) {
        const int seen = seen_before(h, id, req);

        if (seen != 0) {
            json_decref(req);
            return seen == 1;
        }
    }
    v = json_object_get(req, "v");
    if (v && !(json_is_integer(v) && json_integer_value(v) == HOST_VERSION)) {
        refuse(&why, "bad-version", "this host speaks version %d",
               HOST_VERSION);
        goto refused;
    }
    if (!json_is_string(json_object_get(req, "op"))) {
        refuse(&why, "bad-request", "missing field \"op\" (a string)");
        goto refused;
    }
    opname = json_string_value(json_object_get(req, "op"));
    for (i = 0; i < NOPS; i++) {
        if (strcmp(ops[i].name, opname) == 0) {
            op = &ops[i];
        }
    }
    if (!op) {
        refuse(&why, "unknown-op", "no such operation");
        goto refused;
    }
    if (h->is_finished) {
        refuse(&why, "finished", "the game is written; start another host");
        goto refused;
    }
    if (op->makes_game && h->rec) {
        refuse(&why, "game-exists", "this host records a game already");
        goto refused;
    }
    if (!op->makes_game && !h->rec) {
        refuse(&why, "no-game", "no game yet: send new or resume first");
        goto refused;
    }
    if (h->rec) {
        /* From the last line an accepted reply showed: a line a refused
         * request left (a write's seal, its file then not written) is
         * shown by the next accepted one. */
        lines0 = h->lines_sent;
        deliv0 = rpl_rec_deliveries(h->rec);
    }
    memset(&c, 0, sizeof(c));
    c.h = h;
    c.req = req;
    c.why = &why;
    c.reply = reply_new(id, true);
    if (!c.reply) {
        refuse(&why, "internal", "out of memory");
        goto refused;
    }
    if (!op->run(&c)) {
        json_decref(c.reply);
        goto refused;
    }
    /* A seal after every step that wrote lines: two histories shown to
     * two seats are then two dealer seals, a proof (camelog(5)). */
    if (h->rec && !h->seal_at_end && !h->is_finished &&
        rpl_rec_lines(h->rec) > lines0 && rpl_rec_seal_due(h->rec)) {
        struct rpl_error err;

        if (rpl_rec_seal(h->rec, &err) != RPL_OK) {
            cli_msg("seal after the step: %s", err.msg);
        }
    }
    if (!cli_json_set(
            c.reply, "lines",
            host_lines_json(h->rec, lines0 + 1, rpl_rec_lines(h->rec))) ||
        !cli_json_set(c.reply, "deliveries",
                      host_deliveries_json(h->rec, deliv0)) ||
        !cli_json_set(c.reply, "sign", host_sign_json(h->rec)) ||
        !cli_json_set(c.reply, "total", cli_json_size(rpl_rec_lines(h->rec)))) {
        json_decref(c.reply);
        cli_msg("out of memory");
        json_decref(req);
        return false;
    }
    h->lines_sent = rpl_rec_lines(h->rec);
    sent = reply_send(h, c.reply);
    json_decref(req);
    return sent;
refused:
    sent = send_refusal(h, id, &why);
    json_decref(req);
    return sent;
}

/* Frees what the host holds (the fuzz target calls it between inputs). */
static void
host_release(struct host *h)
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

/* Reads one request line (LF excluded) into buf[0..HOST_MAX_REQUEST].
 * Returns 1 for a line, 0 at the end of input, -1 for a line over the
 * limit (read to its end and dropped), -2 for a read error. */
static int
read_request(FILE *in, char *buf, size_t *len)
{
    size_t n = 0;
    bool is_long = false;
    int ch;

    while ((ch = getc(in)) != EOF) {
        if (ch == '\n') {
            break;
        }
        if (n < HOST_MAX_REQUEST) {
            buf[n++] = (char)ch;
        } else {
            is_long = true;
        }
    }
    if (ch == EOF) {
        if (ferror(in)) {
            return -2;
        }
        if (n == 0 && !is_long) {
            return 0;
        }
    }
    buf[n] = '\0';
    *len = n;
    return is_long ? -1 : 1;
}

static bool
send_hello(void)
{
    json_t *r = json_object();

    if (!cli_json_set(r, "v", json_integer(HOST_VERSION)) ||
        !cli_json_set(r, "hello", json_string("camelog host")) ||
        !cli_json_set(r, "versions", json_pack("[i]", HOST_VERSION)) ||
        !cli_json_set(r, "library", json_string(rpl_version())) ||
        !cli_json_set(r, "max_request", json_integer(HOST_MAX_REQUEST))) {
        json_decref(r);
        cli_msg("out of memory");
        return false;
    }
    return reply_send(NULL, r);
}

int
cmd_host(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"no-fsync", no_argument, NULL, 'F'},
        {"seal", required_argument, NULL, 'S'},
        {"tlog", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct host h;
    char *buf = NULL;
    size_t len = 0;
    int c, rc = CLI_EXIT_OK, got;

    memset(&h, 0, sizeof(h));
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'F':
            h.no_fsync = true;
            break;
        case 'S':
            if (strcmp(optarg, "step") == 0) {
                h.seal_at_end = false;
            } else if (strcmp(optarg, "end") == 0) {
                h.seal_at_end = true;
            } else {
                return cli_usage_error("host",
                                       "--seal takes step or end, "
                                       "not '%s'",
                                       optarg);
            }
            break;
        case 'T':
            h.tlog = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("host", c, argv);
        }
    }
    if (optind < argc) {
        return cli_usage_error("host", "host takes no file");
    }
    rc = cli_ctx_new(&h.ctx);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    buf = malloc(HOST_MAX_REQUEST + 1);
    if (!buf) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    if (!send_hello()) {
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    while ((got = read_request(stdin, buf, &len)) != 0) {
        struct rpl_refusal why;

        h.request++;
        if (got == -2) {
            cli_msg("standard input: %s", strerror(errno));
            rc = CLI_EXIT_USAGE;
            break;
        }
        if (got == -1) {
            refuse(&why, "too-long", "a request line is at most %d bytes",
                   HOST_MAX_REQUEST);
            if (!send_refusal(NULL, NULL, &why)) {
                rc = CLI_EXIT_USAGE;
                break;
            }
            continue;
        }
        if (!answer(&h, buf, len)) {
            rc = CLI_EXIT_USAGE;
            break;
        }
    }
out:
    free(buf);
    host_release(&h);
    return cli_finish(rc);
}
