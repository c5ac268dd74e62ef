/*
 * log.c - the .camelog log: its lines, and verification in file order (header,
 * chain, seals, seat signatures, entropy, the game's rules, the reveal and the
 * opens, completeness).
 *
 * Verification makes one pass.  The chain value before line i is kept in
 * `head`; a seal on line i signs "camelog seal v1" || head.  Game lines go
 * to the module (internal.h), which sees public information until the
 * `reveal` line gives the seed, and then checks every claim the dealer
 * made, naming the line that made it.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "internal.h"
#include "json.h"
#include "log.h"
#include "log_verify.h"

/* --------------------------------------------------------- keywords */

/* Each name with its length (test_log.c checks both against strlen). */
static const struct {
    const char *name;
    size_t len;
} keywords[] = {
    [RPL__KW_NONE] = {"", 0},           [RPL__KW_CAMELOG] = {"camelog", 7},
    [RPL__KW_GAME] = {"game", 4},       [RPL__KW_ID] = {"id", 2},
    [RPL__KW_CREATED] = {"created", 7}, [RPL__KW_IMPORT] = {"import", 6},
    [RPL__KW_RULES] = {"rules", 5},     [RPL__KW_SEAT] = {"seat", 4},
    [RPL__KW_DEALER] = {"dealer", 6},   [RPL__KW_COMMIT] = {"commit", 6},
    [RPL__KW_ENTROPY] = {"entropy", 7}, [RPL__KW_SIG] = {"sig", 3},
    [RPL__KW_SEAL] = {"seal", 4},       [RPL__KW_REVEAL] = {"reveal", 6},
    [RPL__KW_OPEN] = {"open", 4},       [RPL__KW_PLEDGE] = {"pledge", 6},
    [RPL__KW_PLEDGED] = {"pledged", 7}, [RPL__KW_ABANDONED] = {"abandoned", 9},
};

#define NKEYWORDS (sizeof(keywords) / sizeof(keywords[0]))
_Static_assert(NKEYWORDS == RPL__KW_ABANDONED + 1, "one entry per keyword");
_Static_assert(RPL_MAX_SEATS == RPL_SEATS_MAX, "one bound of seats");

static enum rpl__kw
kw_from(const struct rpl__tok *t, size_t first)
{
    for (size_t k = first; k < NKEYWORDS; k++)
        if (t->n == keywords[k].len && t->p[0] == keywords[k].name[0] &&
            memcmp(t->p, keywords[k].name, t->n) == 0)
            return (enum rpl__kw)k;
    return RPL__KW_NONE;
}

enum rpl__kw
rpl__kw_find(const struct rpl__tok *t)
{
    return kw_from(t, RPL__KW_NONE + 1);
}

enum rpl__kw
rpl__kw_body(const struct rpl__tok *t)
{
    /* Asked of every body line, most of them the game's: the first
     * letters of entropy, sig, seal, reveal and open tell most of those
     * at once. */
    switch (t->n ? t->p[0] : '\0') {
    case 'e':
    case 's':
    case 'r':
    case 'o':
    case 'p':
    case 'a':
        return kw_from(t, RPL__KW_ENTROPY);
    default:
        return RPL__KW_NONE;
    }
}

const char *
rpl__kw_name(enum rpl__kw kw)
{
    return (size_t)kw < NKEYWORDS ? keywords[kw].name : "";
}

/* ------------------------------------------------------------ lines */

const char *
rpl__log_line(const struct rpl_log *log, size_t no, size_t *len)
{
    size_t end;

    if (no == 0 || no > log->nlines)
        return NULL;
    end = no < log->nlines ? log->start[no] - 1 : log->len;
    if (no == log->nlines && log->ends_with_lf)
        end = log->len - 1;
    *len = end - log->start[no - 1];
    return log->text + log->start[no - 1];
}

size_t
rpl_log_lines(const struct rpl_log *log)
{
    return log->nlines;
}

const char *
rpl_log_line(const struct rpl_log *log, size_t no, size_t *len)
{
    return rpl__log_line(log, no, len);
}

const char *
rpl_log_text(const struct rpl_log *log, size_t *len)
{
    *len = log->len;
    return log->text;
}

size_t
rpl_log_seats(const struct rpl_log *log)
{
    return log->seats;
}

const char *
rpl_log_seat_name(const struct rpl_log *log, size_t seat)
{
    if (seat == 0 || seat > log->seats)
        return NULL;
    return log->names[seat];
}

bool
rpl_log_dealer(const struct rpl_log *log, struct rpl_pubkey *pk)
{
    if (!log->has_dealer)
        return false;
    *pk = log->dealer;
    return true;
}

const char *
rpl_log_warning(const struct rpl_log *log, size_t i, size_t *line)
{
    if (i >= log->nwarn)
        return NULL;
    if (line)
        *line = log->warn[i].line;
    return log->warn[i].msg;
}

/* ------------------------------------------------------------ verify */

static void
add_warning(void *w, size_t line, const char *msg)
{
    struct rpl_log *log = w;

    log->rep.warnings++;
    if (log->nwarn == RPL_MAX_WARNINGS)
        return;
    log->warn[log->nwarn].line = line;
    snprintf(log->warn[log->nwarn].msg, sizeof(log->warn[0].msg), "%s", msg);
    log->nwarn++;
}

/* Shows a line for an error message, cut at 60 bytes. */
static void
show_line(char *out, size_t cap, const struct rpl__line *ln)
{
    const struct rpl__tok t = {ln->text, ln->len};

    rpl__tok_show(out, cap, &t);
}

static enum rpl_status
expect_header(const struct rpl__line *ln, const char *what,
              struct rpl_error *err)
{
    char got[80];

    show_line(got, sizeof(got), ln);
    return rpl__err(err, RPL_E_SYNTAX, ln->no, "expected \"%s\", got \"%s\"",
                    what, got);
}

static enum rpl_status
header_line(struct verify *v, const struct rpl__line *ln, struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    const struct rpl__tok *tok = ln->tok;
    const enum rpl__kw kw = rpl__kw_find(&tok[0]);
    enum rpl_status rc;

    if (v->hdr == H_CREATED) {
        v->hdr = H_IMPORT;
        if (kw == RPL__KW_CREATED) {
            if (ln->ntok != 2 || !rpl__tok_time(&tok[1]))
                return expect_header(ln, "created YYYY-MM-DDTHH:MM:SSZ", err);
            return RPL_OK;
        }
    }
    if (v->hdr == H_IMPORT) {
        v->hdr = H_RULES;
        if (kw == RPL__KW_IMPORT) {
            if (ln->ntok != 3 || !rpl__import_source_ok(&tok[1]) ||
                !rpl__import_id_ok(&tok[2]))
                return expect_header(ln, "import <source> <original id>", err);
            v->rep->is_imported = true;
            v->env.imported = true;
            return RPL_OK;
        }
    }
    switch (v->hdr) {
    case H_CAMELOG: {
        const bool is_v1 = ln->ntok == 2 && rpl__tok_is(&tok[1], "1");
        const bool is_v2 = ln->ntok == 2 && rpl__tok_is(&tok[1], "2");

        if (ln->ntok == 2 && kw == RPL__KW_CAMELOG && !is_v1 && !is_v2 &&
            tok[1].n < 12)
            return rpl__err(err, RPL_E_UNSUPPORTED, ln->no,
                            "format version %.*s is not supported "
                            "(expected 1 or 2)",
                            (int)tok[1].n, tok[1].p);
        if (kw != RPL__KW_CAMELOG || (!is_v1 && !is_v2)) {
            if (ln->len >= 3 && memcmp(ln->text, "\xef\xbb\xbf", 3) == 0)
                return rpl__err(err, RPL_E_SYNTAX, ln->no,
                                "the text starts with a byte order mark");
            return expect_header(ln, "camelog 2", err);
        }
        v->env.version = log->version = is_v1 ? 1 : 2;
        v->rep->version = log->version;
        v->hdr = H_GAME;
        return RPL_OK;
    }
    case H_GAME:
        if (ln->ntok != 2 || kw != RPL__KW_GAME)
            return expect_header(ln, "game <name>", err);
        log->game = rpl__game_find(tok[1].p, tok[1].n);
        if (!log->game) {
            char got[80], names[64];

            rpl__tok_show(got, sizeof(got), &tok[1]);
            rpl__game_names(names, sizeof(names), " or ");
            return rpl__err(err, RPL_E_UNSUPPORTED, ln->no,
                            "unknown game \"%s\" (expected %s)", got, names);
        }
        rpl__fmt(v->rep->game, sizeof(v->rep->game), "%s", log->game->name);
        log->st = rpl__calloc(log->ctx, 1, log->game->state_size);
        if (!log->st)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        v->hdr = H_ID;
        return RPL_OK;
    case H_ID:
        if (ln->ntok != 2 || kw != RPL__KW_ID ||
            !rpl__tok_hex(&tok[1], log->id, sizeof(log->id)))
            return expect_header(ln, "id <32 lowercase hex digits>", err);
        rpl__hex(v->rep->id, log->id, sizeof(log->id));
        v->hdr = H_CREATED;
        return RPL_OK;
    case H_CREATED:
    case H_IMPORT:
    case H_RULES:
        if (ln->ntok < 2 || kw != RPL__KW_RULES)
            return expect_header(ln, "rules ...", err);
        rc = log->game->play->rules(log->st, ln, &v->env, &log->seats, err);
        if (rc != RPL_OK)
            return rc;
        if (log->seats == 0 || log->seats > RPL_MAX_SEATS)
            return rpl__err(err, RPL_E_LIMIT, ln->no,
                            "%zu seats: between 1 and %u (RPL_MAX_SEATS)",
                            log->seats, RPL_MAX_SEATS);
        v->env.seats = log->seats;
        v->rep->seats = log->seats;
        v->next_seat = 1;
        v->hdr = H_SEAT;
        return RPL_OK;
    case H_SEAT: {
        size_t seat = 0;
        const char *why = NULL;
        struct rpl__tok key;
        char *name = log->names[v->next_seat];
        struct rpl_error kerr;

        if (ln->ntok < 3 || ln->ntok > 4 || kw != RPL__KW_SEAT ||
            !rpl__tok_seat(&tok[1], log->seats, &seat) ||
            seat != v->next_seat) {
            char want[64];

            snprintf(want, sizeof(want), "seat p%zu \"<name>\" [key=<key>]",
                     v->next_seat);
            return expect_header(ln, want, err);
        }
        if (!rpl__tok_name(&tok[2], name, RPL_MAX_NAME + 1, &why))
            return rpl__err(err, RPL_E_SYNTAX, ln->no, "seat p%zu: %s", seat,
                            why);
        for (size_t k = 1; k < seat; k++)
            if (strcmp(log->names[k], name) == 0)
                return rpl__err(err, RPL_E_SYNTAX, ln->no,
                                "seat p%zu has the same name as p%zu", seat, k);
        if (ln->ntok == 4) {
            if (!rpl__tok_kv(&tok[3], "key", &key))
                return expect_header(ln, "seat pK \"<name>\" key=<key>", err);
            if (rpl__pubkey_parse(log->ctx, &log->seat_key[seat], key.p, key.n,
                                  &kerr) != RPL_OK)
                return rpl__err(err, RPL_E_KEY, ln->no, "key of p%zu: %s", seat,
                                kerr.msg);
            log->has_seat_key[seat] = true;
            v->rep->keyed |= 1u << (seat - 1);
        }
        rc = rpl__verify_seat_pin(v, ln, seat, err);
        if (rc != RPL_OK)
            return rc;
        if (++v->next_seat > log->seats)
            v->hdr = H_DEALER;
        return RPL_OK;
    }
    case H_DEALER: {
        struct rpl_error kerr;
        struct rpl_pubkey dealer;

        if (ln->ntok != 2 || kw != RPL__KW_DEALER)
            return expect_header(ln, "dealer <key>", err);
        /* Into a local: log->dealer holds only a key that passed the
         * pin. */
        if (rpl__pubkey_parse(log->ctx, &dealer, tok[1].p, tok[1].n, &kerr) !=
            RPL_OK)
            return rpl__err(err, RPL_E_KEY, ln->no, "dealer key: %s", kerr.msg);
        if (v->opts && v->opts->pubkey) {
            const struct rpl_pubkey *pin = v->opts->pubkey;
            char want[17];
            char got[17];

            rpl__key_id_text(want, pin->id);
            rpl__key_id_text(got, dealer.id);
            if (memcmp(pin->id, dealer.id, 8) != 0)
                return rpl__err(err, RPL_E_KEY, ln->no,
                                "the dealer key is not the expected key: "
                                "expected key id %s, found key id %s",
                                want, got);
            if (memcmp(pin->key, dealer.key, 32) != 0)
                return rpl__err(err, RPL_E_KEY, ln->no,
                                "the dealer key is not the expected key: "
                                "expected key id %s, found key id %s with "
                                "another public key",
                                want, got);
            v->rep->is_key_pinned = true;
        }
        log->dealer = dealer;
        log->has_dealer = true;
        v->hdr = H_COMMIT;
        return RPL_OK;
    }
    case H_COMMIT:
        if (ln->ntok != 2 || kw != RPL__KW_COMMIT ||
            !rpl__tok_hex(&tok[1], log->commit, sizeof(log->commit)))
            return expect_header(ln, "commit <64 lowercase hex digits>", err);
        log->header_end = ln->no;
        rpl__verify_header_end(v, ln);
        v->hdr = H_DONE;
        return RPL_OK;
    case H_DONE:
        break;
    }
    return rpl__err(err, RPL_E_STATE, ln->no, "header already complete");
}

static const char *const header_names[] = {
    "camelog 2", "game", "id",     "rules",  "rules",
    "rules",     "seat", "dealer", "commit", "",
};

static enum rpl_status
sig_line(struct verify *v, const struct rpl__line *ln, struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    size_t seat = 0;
    uint8_t sig[64];
    size_t prev_len = 0;
    const char *prev;

    if (ln->ntok != 3 || !rpl__tok_seat(&ln->tok[1], log->seats, &seat) ||
        !rpl__tok_b64(&ln->tok[2], sig, sizeof(sig)))
        return rpl__err(err, RPL_E_SYNTAX, ln->no,
                        "expected \"sig pK <base64 signature>\"");
    if (v->prev_author == 0)
        return rpl__err(err, RPL_E_SIG, ln->no,
                        "a sig must follow the line its seat authored "
                        "(line %zu has no author to sign it)",
                        ln->no - 1);
    if (v->prev_author != seat)
        return rpl__err(err, RPL_E_SIG, ln->no,
                        "sig by p%zu, but line %zu was authored by p%zu", seat,
                        ln->no - 1, v->prev_author);
    if (!log->has_seat_key[seat])
        return rpl__err(err, RPL_E_SIG, ln->no, "p%zu has no key in the header",
                        seat);
    prev = rpl__log_line(log, ln->no - 1, &prev_len);
    if (!rpl__sig_verify(&log->seat_key[seat],
                         v->prev_base       ? v->prev_base
                         : v->prev_in_group ? v->group_base
                                            : v->prev_head,
                         prev, prev_len, sig))
        return rpl__err(err, RPL_E_SIG, ln->no,
                        "signature of p%zu does not verify", seat);
    v->rep->sigs++;
    rpl__verify_signed(v, ln, seat);
    return RPL_OK;
}

static enum rpl_status
seal_line(struct verify *v, const struct rpl__line *ln, struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    uint8_t sig[64];

    if (ln->ntok != 2 || !rpl__tok_b64(&ln->tok[1], sig, sizeof(sig)))
        return rpl__err(err, RPL_E_SYNTAX, ln->no,
                        "expected \"seal <base64 signature>\"");
    if (v->revealed && log->game->play->opens_left(log->st) > 0)
        return rpl__err(err, RPL_E_SEAL, ln->no,
                        "seal inside the reveal block: %zu open lines are "
                        "still due",
                        log->game->play->opens_left(log->st));
    if (!rpl__seal_verify(&log->dealer, v->head, sig))
        return rpl__err(err, RPL_E_SEAL, ln->no,
                        "seal does not verify with the dealer key");
    rpl__verify_sealed(v, ln);
    v->rep->seals++;
    v->last_seal = ln->no;
    return RPL_OK;
}

static enum rpl_status
entropy_line(struct verify *v, const struct rpl__line *ln,
             struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    size_t seat = 0;
    uint8_t entropy[32];

    /* Parsed into a local: log->entropy[nentropy] exists only once the
     * seat order holds (an eleventh line of a 10-seat game would write
     * past the array, over nentropy and the seed). */
    if (ln->ntok != 3 || !rpl__tok_seat(&ln->tok[1], log->seats, &seat) ||
        !rpl__tok_hex(&ln->tok[2], entropy, sizeof(entropy)))
        return rpl__err(err, RPL_E_SYNTAX, ln->no,
                        "expected \"entropy pK <64 lowercase hex digits>\"");
    if (v->started)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "entropy after the game started");
    if (log->version >= 2)
        return rpl__verify_entropy2(v, ln, seat, entropy, err);
    if (seat <= v->entropy_seat)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "entropy of p%zu after p%zu: one line per seat, in "
                        "seat order",
                        seat, v->entropy_seat);
    /* Seats rise strictly and are at most log->seats <= RPL_MAX_SEATS. */
    assert(log->nentropy < RPL_MAX_SEATS);
    memcpy(log->entropy[log->nentropy], entropy, sizeof(entropy));
    v->entropy_seat = seat;
    log->nentropy++;
    v->rep->entropy_seats++;
    v->entropy_line = ln->no;
    v->prev_author = seat;
    v->rep->revealed |= 1u << (seat - 1);
    return RPL_OK;
}

/* The seed of the deal: the dealer's secret with the seats' entropy. */
static void
seed_of(const struct rpl_log *log, const uint8_t secret[32], uint8_t seed[32])
{
    if (log->version >= 2)
        rpl__seed2(seed, log->id, secret, (const uint8_t(*)[32])log->value,
                   log->revealed);
    else
        rpl__seed(seed, log->id, secret, (const uint8_t(*)[32])log->entropy,
                  log->nentropy);
}

static enum rpl_status
reveal_line(struct verify *v, const struct rpl__line *ln, struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    uint8_t secret[32];
    uint8_t check[RPL__HASH];
    enum rpl_status rc;

    if (ln->ntok != 2 || !rpl__tok_hex(&ln->tok[1], secret, sizeof(secret)))
        return rpl__err(err, RPL_E_SYNTAX, ln->no,
                        "expected \"reveal <64 lowercase hex digits>\"");
    if (v->revealed)
        return rpl__err(err, RPL_E_RULES, ln->no, "second reveal line");
    if (!log->game->play->is_over(log->st))
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "reveal before the game's end line");
    rpl__secret_commit(check, log->id, secret);
    if (sodium_memcmp(check, log->commit, sizeof(check)) != 0) {
        sodium_memzero(secret, sizeof(secret));
        return rpl__err(err, RPL_E_FAIRNESS, ln->no,
                        "the secret does not match the commit line (line "
                        "%zu)",
                        log->header_end);
    }
    v->rep->commitments++;
    seed_of(log, secret, log->seed);
    sodium_memzero(secret, sizeof(secret));
    log->has_seed = true;
    v->env.seed = log->seed;
    rc = log->game->play->reveal(log->st, &v->env, ln->no, err);
    if (rc != RPL_OK)
        return rc;
    v->revealed = true;
    return RPL_OK;
}

static enum rpl_status
open_line(struct verify *v, const struct rpl__line *ln, struct rpl_error *err)
{
    struct rpl_log *log = v->log;

    if (!v->revealed)
        return rpl__err(err, RPL_E_RULES, ln->no, "open before the reveal");
    if (log->game->play->opens_left(log->st) == 0)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "extra open: every secret choice is already open");
    v->last_open = ln->no;
    return log->game->play->open(log->st, ln, &v->env, err);
}

/* Tells st every choice the `open` lines after the header open. */
static enum rpl_status
learn_opens(const struct rpl_log *log, void *st, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    for (size_t no = log->header_end + 1; rc == RPL_OK && no <= log->nlines;
         no++) {
        char label[64];
        char value[192];
        size_t lab_len, len = 0;
        const char *text = rpl__log_line(log, no, &len);
        struct rpl__line ln;

        if (len < 5 || memcmp(text, "open ", 5) != 0)
            continue;
        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc != RPL_OK || ln.ntok < 3)
            break;
        lab_len = (size_t)(ln.tok[ln.ntok - 2].p + ln.tok[ln.ntok - 2].n -
                           ln.tok[1].p);
        if (lab_len >= sizeof(label) || ln.tok[ln.ntok - 1].n >= sizeof(value))
            return rpl__err(err, RPL_E_LIMIT, no, "open line too long");
        memcpy(label, ln.tok[1].p, lab_len);
        label[lab_len] = '\0';
        memcpy(value, ln.tok[ln.ntok - 1].p, ln.tok[ln.ntok - 1].n);
        value[ln.tok[ln.ntok - 1].n] = '\0';
        rc = log->game->play->learn(st, label, value, err);
    }
    return rc;
}

/* Before the first game line: with obs->deal_ahead and a secret that
 * matches the commit line, the deal and every opened choice, as
 * rpl__log_reset() sets them up for a complete log; then obs->start. */
static enum rpl_status
game_start(struct verify *v, struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    uint8_t check[RPL__HASH];
    enum rpl_status rc = RPL_OK;

    if (v->has_secret && !v->env.imported) {
        rpl__secret_commit(check, log->id, v->secret);
        v->has_secret = sodium_memcmp(check, log->commit, RPL__HASH) == 0;
    } else {
        v->has_secret = false;
    }
    if (v->has_secret) {
        seed_of(log, v->secret, v->seed);
        v->env.seed = v->seed;
        rc = log->game->play->setup(log->st, &v->env, err);
        if (rc == RPL_OK)
            rc = learn_opens(log, log->st, err);
    }
    if (rc == RPL_OK && v->obs && v->obs->start)
        rc = v->obs->start(v->obs->a, log, v->has_secret ? v->seed : NULL, err);
    return rc;
}

static enum rpl_status
body_line(struct verify *v, const struct rpl__line *ln, struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    const enum rpl__kw kw = rpl__kw_body(&ln->tok[0]);
    struct rpl__applied applied;
    enum rpl_status rc;
    bool was_over;

    rc = rpl__verify_body(v, ln, kw == RPL__KW_SEAL, kw == RPL__KW_SIG, err);
    if (rc != RPL_OK)
        return rc;
    if (kw == RPL__KW_SIG) {
        rc = sig_line(v, ln, err);
        v->prev_author = 0;
        return rc;
    }
    v->prev_in_group = false;
    if (kw == RPL__KW_SEAL) {
        v->prev_author = 0;
        return seal_line(v, ln, err);
    }
    if (kw == RPL__KW_ENTROPY)
        return entropy_line(v, ln, err);
    if (kw >= RPL__KW_PLEDGE)
        return rpl__verify_line2(v, ln, kw, err);
    v->prev_author = 0;
    if (kw == RPL__KW_REVEAL && v->obs && v->obs->before) {
        rc = v->obs->before(v->obs->a, log, ln, err);
        if (rc != RPL_OK)
            return rc;
    }
    if (kw == RPL__KW_REVEAL)
        return reveal_line(v, ln, err);
    if (kw == RPL__KW_OPEN)
        return open_line(v, ln, err);
    if (v->revealed)
        return rpl__err(err, RPL_E_RULES, ln->no,
                        "only open and seal lines may follow the reveal");
    rc = rpl__verify_revealed(v, ln, err);
    if (rc == RPL_OK && !v->started)
        rc = game_start(v, err);
    if (rc == RPL_OK && v->obs && v->obs->before)
        rc = v->obs->before(v->obs->a, log, ln, err);
    if (rc != RPL_OK)
        return rc;
    memset(&applied, 0, sizeof(applied));
    was_over = log->game->play->is_over(log->st);
    rc = log->game->play->apply(log->st, ln, &v->env, &applied, err);
    if (rc != RPL_OK)
        return rc;
    v->started = true;
    v->applied = true;
    v->last = applied;
    if (!was_over && log->game->play->is_over(log->st))
        v->end_line = ln->no;
    v->prev_author = applied.author;
    if (applied.opens_group)
        memcpy(v->group_base, v->head, RPL__HASH);
    v->prev_in_group = applied.in_group || applied.opens_group;
    return RPL_OK;
}

static enum rpl_status
verify_lines(struct verify *v, struct rpl_error *err)
{
    struct rpl_log *log = v->log;
    struct rpl__line ln;
    enum rpl_status rc;

    for (size_t no = 1; no <= log->nlines; no++) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);

        if (no == log->nlines && !log->ends_with_lf)
            return rpl__err(err, RPL_E_SYNTAX, no,
                            "the last line does not end with LF");
        rc = rpl__line_split(&ln, text, len, no, err);
        if (rc != RPL_OK) {
            if (no == 1 && len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
                return rpl__err(err, RPL_E_SYNTAX, no,
                                "the text starts with a byte order mark");
            return rc;
        }
        v->applied = false;
        if (v->hdr != H_DONE) {
            rc = header_line(v, &ln, err);
            if (rc == RPL_OK && v->obs && v->obs->header)
                rc = v->obs->header(v->obs->a, log, &ln, err);
        } else {
            rc = body_line(v, &ln, err);
            if (rc == RPL_OK && v->applied && v->obs && v->obs->line)
                rc = v->obs->line(v->obs->a, log, &ln, &v->last, err);
        }
        if (rc == RPL_OK && v->obs && v->obs->each)
            rc =
                v->obs->each(v->obs->a, log, &ln,
                             v->hdr != H_DONE || ln.no == log->header_end, err);
        if (rc != RPL_OK)
            return rc;
        memcpy(v->prev_head, v->head, RPL__HASH);
        rpl__chain(v->head, text, len);
    }
    if (v->hdr != H_DONE)
        return rpl__err(err, RPL_E_SYNTAX, log->nlines + 1,
                        "the file ends before the \"%s\" line",
                        header_names[v->hdr]);
    return RPL_OK;
}

void
rpl__log_env(struct rpl__env *env, const struct rpl_log *log)
{
    memset(env, 0, sizeof(*env));
    env->ctx = log->ctx;
    env->id = log->id;
    env->seats = log->seats;
    env->names = (const char *const *)log->name_ptrs;
    env->warn = rpl__no_warning;
    env->imported = log->rep.is_imported;
    env->version = log->version;
}

static void
env_init(struct rpl__env *env, struct rpl_log *log)
{
    rpl__log_env(env, log);
    env->w = log;
    for (size_t k = 0; k <= RPL_MAX_SEATS; k++)
        log->name_ptrs[k] = log->names[k];
}

/* opts->require not met: what the log is, and what was asked. */
static enum rpl_status
short_of(const struct rpl_log *log, enum rpl_progress require,
         struct rpl_error *err)
{
    const char *is = rpl_progress_text(log->rep.progress);
    const char *want = require == RPL_PROGRESS_COMPLETE
                           ? "a complete game (revealed)"
                           : "a finished game";

    return rpl__err(err, RPL_E_INCOMPLETE, log->nlines + 1,
                    "the game is %s; %s is required", is, want);
}

/* Lines after the last seal: the W-tail warning, or with a pinned key an
 * error, since anyone could have written them under the dealer's key. */
static enum rpl_status
check_cover(struct rpl_log *log, const struct rpl_verify_opts *opts,
            size_t last_seal, struct rpl_error *err)
{
    char lines[64];
    char msg[128];

    if (last_seal >= log->nlines)
        return RPL_OK;
    if (last_seal + 1 == log->nlines)
        snprintf(lines, sizeof(lines), "line %zu is", log->nlines);
    else
        snprintf(lines, sizeof(lines), "lines %zu-%zu are", last_seal + 1,
                 log->nlines);
    if (opts && opts->pubkey && !opts->unsealed_tail_ok)
        return rpl__err(err, RPL_E_SEAL, last_seal + 1,
                        "%s not covered by a seal of the pinned dealer key%s",
                        lines, last_seal == 0 ? " (the log has no seal)" : "");
    snprintf(msg, sizeof(msg),
             "W-tail: lines %zu-%zu are not covered by a seal", last_seal + 1,
             log->nlines);
    add_warning(log, last_seal + 1, msg);
    return RPL_OK;
}

/* The secret of the log's last `reveal` line, when it reads as one. */
static bool
find_secret(const struct rpl_log *log, uint8_t secret[32])
{
    static const char kw[] = "reveal ";

    for (size_t no = log->nlines; no > 0; no--) {
        size_t len = 0;
        const char *text = rpl__log_line(log, no, &len);
        struct rpl__line ln;

        if (len <= sizeof(kw) - 1 || memcmp(text, kw, sizeof(kw) - 1) != 0)
            continue;
        return rpl__line_split(&ln, text, len, no, NULL) == RPL_OK &&
               ln.ntok == 2 && rpl__tok_hex(&ln.tok[1], secret, 32);
    }
    return false;
}

enum rpl_status
rpl_log_verify(struct rpl_log *log, const struct rpl_verify_opts *opts,
               struct rpl_report *rep)
{
    rpl__log_views_free(log);
    return rpl__log_verify_with(log, opts, rep, NULL);
}

enum rpl_status
rpl__log_verify_with(struct rpl_log *log, const struct rpl_verify_opts *opts,
                     struct rpl_report *rep, const struct rpl__observer *obs)
{
    struct verify *v;
    enum rpl_status rc;

    memset(rep, 0, sizeof(*rep));
    memset(&log->rep, 0, sizeof(log->rep));
    log->nwarn = 0;
    log->is_verified = false;
    log->is_complete = false;
    log->has_seed = false;
    log->version = 0;
    log->nentropy = 0;
    rpl__verify_reset(log);
    log->header_end = 0;
    log->has_dealer = false;
    log->seats = 0;
    memset(log->has_seat_key, 0, sizeof(log->has_seat_key));
    memset(log->names, 0, sizeof(log->names));
    if (log->st) {
        rpl__free(log->ctx, log->st);
        log->st = NULL;
    }
    v = rpl__calloc(log->ctx, 1, sizeof(*v));
    if (!v) {
        rpl__err(&rep->error, RPL_E_NOMEM, 0, "out of memory");
        return RPL_E_NOMEM;
    }
    v->log = log;
    v->opts = opts;
    v->obs = obs;
    v->rep = &log->rep;
    if (obs && obs->deal_ahead)
        v->has_secret = find_secret(log, v->secret);
    env_init(&v->env, log);
    v->env.warn = add_warning;
    v->env.commitments = &log->rep.commitments;
    rc = verify_lines(v, &log->rep.error);
    log->rep.lines = log->nlines;
    if (rc == RPL_OK) {
        const char *winner = "";
        const char *reason = "";
        const bool over = log->game->play->is_over(log->st);

        log->game->play->outcome(log->st, &winner, &reason);
        rpl__fmt(log->rep.winner, sizeof(log->rep.winner), "%s", winner);
        rpl__fmt(log->rep.reason, sizeof(log->rep.reason), "%s", reason);
        if (v->revealed && log->game->play->opens_left(log->st) == 0 &&
            v->last_seal == log->nlines && v->last_seal > v->last_open)
            log->rep.progress = RPL_PROGRESS_COMPLETE;
        else if ((over || log->abandoned) && !v->revealed &&
                 v->last_seal > v->end_line)
            log->rep.progress = RPL_PROGRESS_FINISHED;
        else
            log->rep.progress = RPL_PROGRESS_IN_PROGRESS;
        if (v->last_seal < log->nlines)
            log->rep.unsealed_from = v->last_seal + 1;
        rc = check_cover(log, opts, v->last_seal, &log->rep.error);
        if (rc == RPL_OK)
            rc = rpl__verify_part(v, &log->rep.error);
        if (rc == RPL_OK && opts && opts->require > log->rep.progress)
            rc = short_of(log, opts->require, &log->rep.error);
    }
    if (rc == RPL_OK) {
        log->is_verified = true;
        log->is_complete = log->rep.progress == RPL_PROGRESS_COMPLETE;
        log->pos = SIZE_MAX; /* the replay state must be rebuilt */
        if (obs && obs->end)
            rc = obs->end(obs->a, log, &log->rep.error);
        if (rc != RPL_OK) {
            log->is_verified = false;
            log->is_complete = false;
        }
    }
    sodium_memzero(v, sizeof(*v));
    rpl__free(log->ctx, v);
    *rep = log->rep;
    return rc;
}

unsigned
rpl_log_version(const struct rpl_log *log)
{
    return log->version;
}

/* ------------------------------------------------------------ replay */

/* Whether a line after the header whose first token is kw (alone: its
 * only token) is a game line for the module: not one of the body's
 * keywords the log layer owns followed by a space (each of those has
 * tokens after it). */
static bool
is_game_keyword(const struct rpl__tok *kw, bool alone)
{
    return alone || rpl__kw_body(kw) == RPL__KW_NONE;
}

bool
rpl__log_is_game_line(const char *text, size_t len)
{
    const char *sp = memchr(text, ' ', len);
    const struct rpl__tok kw = {text, sp ? (size_t)(sp - text) : len};

    return is_game_keyword(&kw, !sp);
}

enum rpl_status
rpl__log_need_verified(const struct rpl_log *log, struct rpl_error *err)
{
    if (!log->is_verified)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log must verify before it is replayed");
    return RPL_OK;
}

/* Rebuilds the replay state before line 1: the configuration, and with a
 * complete log, the deal and every opened choice. */
enum rpl_status
rpl__log_reset(struct rpl_log *log, struct rpl_error *err)
{
    struct rpl__env env;
    struct rpl__line ln;
    enum rpl_status rc;
    size_t len = 0;
    const char *text = NULL;
    size_t seats = 0;

    env_init(&env, log);
    memset(log->st, 0, log->game->state_size);
    for (size_t no = 1; no <= log->header_end; no++) {
        text = rpl__log_line(log, no, &len);
        if (len > 6 && memcmp(text, "rules ", 6) == 0)
            break;
        text = NULL;
    }
    if (!text)
        return rpl__err(err, RPL_E_STATE, 0, "the log has no rules line");
    rc = rpl__line_split(&ln, text, len, 0, err);
    if (rc == RPL_OK)
        rc = log->game->play->rules(log->st, &ln, &env, &seats, err);
    if (rc != RPL_OK || !log->is_complete)
        goto out;
    env.seed = log->seed;
    /* An imported game's deal is learned from its `open` lines. */
    if (!env.imported)
        rc = log->game->play->setup(log->st, &env, err);
    if (rc == RPL_OK)
        rc = learn_opens(log, log->st, err);
out:
    log->pos = rc == RPL_OK ? 0 : SIZE_MAX;
    return rc;
}

/* rpl_log_seek(), with line no already split in *last (NULL: split it
 * here) when it is a game line to apply. */
static enum rpl_status
seek_to(struct rpl_log *log, size_t no, const struct rpl__line *last,
        struct rpl_error *err)
{
    struct rpl__env env;
    struct rpl__applied applied;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = rpl__log_need_verified(log, err);
    if (rc != RPL_OK)
        return rc;
    if (no > log->nlines)
        return rpl__err(err, RPL_E_ARG, 0, "line %zu is past the end (%zu)", no,
                        log->nlines);
    if (log->pos == SIZE_MAX || no < log->pos) {
        rc = rpl__log_reset(log, err);
        if (rc != RPL_OK)
            return rc;
    }
    env_init(&env, log);
    if (log->is_complete)
        env.seed = log->seed;
    /* Each body line split once, then applied if it is a game line: its
     * first token tells (as rpl__log_is_game_line() tells from the text);
     * every line of a verified log splits. */
    for (size_t i = log->pos + 1; i <= no; i++) {
        const bool is_split = i == no && last;
        struct rpl__line ln;
        const struct rpl__line *line = is_split ? last : &ln;

        if (i <= log->header_end)
            continue;
        if (!is_split) {
            size_t len = 0;
            const char *text = rpl__log_line(log, i, &len);

            rc = rpl__line_split(&ln, text, len, i, err);
        }
        if (rc == RPL_OK && is_game_keyword(&line->tok[0], line->ntok == 1))
            rc = rpl__log_apply(log, line, &env, &applied, err);
        if (rc != RPL_OK) {
            log->pos = SIZE_MAX;
            return rc;
        }
    }
    log->pos = no;
    return RPL_OK;
}

enum rpl_status
rpl_log_seek(struct rpl_log *log, size_t no, struct rpl_error *err)
{
    return seek_to(log, no, NULL, err);
}

enum rpl_status
rpl__log_seek_split(struct rpl_log *log, const struct rpl__line *ln,
                    struct rpl_error *err)
{
    return seek_to(log, ln->no, ln, err);
}

size_t
rpl_log_tell(const struct rpl_log *log)
{
    return log->pos == SIZE_MAX ? 0 : log->pos;
}

static enum rpl_status
check_viewer(const struct rpl_log *log, int viewer, struct rpl_error *err)
{
    if (viewer == RPL_VIEW_ALL && !log->is_complete)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the omniscient view needs a complete log (with its "
                        "reveal)");
    if (viewer < RPL_VIEW_ALL || (viewer > 0 && (size_t)viewer > log->seats))
        return rpl__err(err, RPL_E_ARG, 0, "no seat p%d in this game", viewer);
    return RPL_OK;
}

/* The replay state at the current position (rebuilt when needed). */
static enum rpl_status
current(struct rpl_log *log, struct rpl_error *err)
{
    enum rpl_status rc = rpl__log_need_verified(log, err);

    if (rc == RPL_OK && log->pos == SIZE_MAX)
        rc = rpl_log_seek(log, 0, err);
    return rc;
}

/* The viewer's view: form 0 text for people, 1 JSON, 2 the board. */
static enum rpl_status
view_out(struct rpl_log *log, int viewer, int form, char **out,
         struct rpl_error *err)
{
    struct rpl__env env;
    struct rpl__buf b;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = current(log, err);
    if (rc == RPL_OK)
        rc = check_viewer(log, viewer, err);
    if (rc != RPL_OK)
        return rc;
    env_init(&env, log);
    rpl__buf_init(&b, log->ctx);
    if (form == 1)
        log->game->views->view_json(log->st, &env, viewer, &b);
    else if (form == 2 && log->game->views->board)
        log->game->views->board(log->st, &env, viewer, &b);
    else
        log->game->views->view(log->st, &env, viewer, &b);
    return rpl__buf_take(&b, out, err);
}

enum rpl_status
rpl_log_view(struct rpl_log *log, int viewer, char **text,
             struct rpl_error *err)
{
    return view_out(log, viewer, 0, text, err);
}

enum rpl_status
rpl_log_view_json(struct rpl_log *log, int viewer, char **json,
                  struct rpl_error *err)
{
    return view_out(log, viewer, 1, json, err);
}

enum rpl_status
rpl_log_board(struct rpl_log *log, int viewer, char **text,
              struct rpl_error *err)
{
    return view_out(log, viewer, 2, text, err);
}

/* What the log layer's own lines say, for people; nothing for a seal or
 * a sig. */
void
rpl__log_describe_own(const struct rpl_log *log, const void *st,
                      const struct rpl__line *ln, struct rpl__buf *b)
{
    const struct rpl__tok *kw = &ln->tok[0];
    const enum rpl__kw which = rpl__kw_body(kw);
    size_t seat = 0;

    if (which == RPL__KW_ENTROPY &&
        rpl__tok_seat(&ln->tok[1], log->seats, &seat))
        rpl__buf_printf(b, "%s (p%zu) adds entropy to the seed",
                        log->names[seat], seat);
    else if (which == RPL__KW_REVEAL)
        rpl__buf_puts(b, "the dealer reveals the secret: every deal can "
                         "now be checked");
    else if (which == RPL__KW_OPEN && ln->ntok >= 3 &&
             log->game->views->describe_open) {
        struct rpl__env env;

        rpl__log_env(&env, log);
        log->game->views->describe_open(st, &env, ln, b);
    } else if (which == RPL__KW_OPEN && ln->ntok >= 3)
        rpl__buf_printf(b, "opened: %.*s", (int)(ln->len - (size_t)(kw->n + 1)),
                        ln->text + kw->n + 1);
}

/* The same as JSON events: [{"event": keyword, "seat": K}] (the seat for
 * entropy and sig), [] for a header line. */
void
rpl__log_events_own(const struct rpl_log *log, const struct rpl__line *ln,
                    bool is_header, struct rpl__buf *b)
{
    const enum rpl__kw kw =
        is_header ? RPL__KW_NONE : rpl__kw_body(&ln->tok[0]);
    struct rpl__jb j = {true};
    json_t *events = json_array();
    size_t seat = 0;

    if (kw != RPL__KW_NONE) {
        json_t *e = json_object();

        rpl__jset(&j, e, "event", json_string(rpl__kw_name(kw)));
        if (ln->ntok > 1 && rpl__tok_seat(&ln->tok[1], log->seats, &seat) &&
            (kw == RPL__KW_ENTROPY || kw == RPL__KW_SIG))
            rpl__jset(&j, e, "seat", json_integer((json_int_t)seat));
        rpl__japp(&j, events, e);
    }
    rpl__jdump(&j, events, b);
}

static enum rpl_status
at_line(struct rpl_log *log, size_t no, struct rpl__line *ln,
        struct rpl_error *err)
{
    size_t len = 0;
    const char *text;
    enum rpl_status rc = rpl__log_need_verified(log, err);

    if (rc != RPL_OK)
        return rc;
    if (no == 0 || no > log->nlines)
        return rpl__err(err, RPL_E_ARG, 0, "no line %zu (the log has %zu)", no,
                        log->nlines);
    rc = rpl_log_seek(log, no, err);
    if (rc != RPL_OK)
        return rc;
    text = rpl__log_line(log, no, &len);
    return rpl__line_split(ln, text, len, no, err);
}

enum rpl_status
rpl_log_describe(struct rpl_log *log, size_t no, int viewer, char **text,
                 struct rpl_error *err)
{
    struct rpl__env env;
    struct rpl__line ln;
    struct rpl__buf b;
    enum rpl_status rc;

    rpl__err_clear(err);
    *text = NULL;
    rc = check_viewer(log, viewer, err);
    if (rc == RPL_OK)
        rc = at_line(log, no, &ln, err);
    if (rc != RPL_OK)
        return rc;
    env_init(&env, log);
    rpl__buf_init(&b, log->ctx);
    if (no <= log->header_end)
        ; /* the header tells nothing by itself */
    else if (rpl__log_is_game_line(ln.text, ln.len))
        log->game->views->describe(log->st, &env, &ln, viewer, &b);
    else
        rpl__log_describe_own(log, log->st, &ln, &b);
    if (b.len == 0 && !b.failed) {
        rpl__buf_release(&b);
        return RPL_OK;
    }
    return rpl__buf_take(&b, text, err);
}

enum rpl_status
rpl_log_events_json(struct rpl_log *log, size_t no, char **json,
                    struct rpl_error *err)
{
    struct rpl__env env;
    struct rpl__line ln;
    struct rpl__buf b;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = at_line(log, no, &ln, err);
    if (rc != RPL_OK)
        return rc;
    env_init(&env, log);
    rpl__buf_init(&b, log->ctx);
    if (no > log->header_end && rpl__log_is_game_line(ln.text, ln.len))
        log->game->views->events_json(log->st, &env, &ln, &b);
    else
        rpl__log_events_own(log, &ln, no <= log->header_end, &b);
    return rpl__buf_take(&b, json, err);
}

static enum rpl_status
reveal_out(struct rpl_log *log, bool json, char **out, struct rpl_error *err)
{
    struct rpl__env env;
    struct rpl__buf b;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = rpl__log_need_verified(log, err);
    if (rc != RPL_OK)
        return rc;
    if (!log->is_complete)
        return rpl__err(err, RPL_E_INCOMPLETE, 0,
                        log->rep.progress == RPL_PROGRESS_FINISHED
                            ? "the game is finished but not revealed"
                            : "the game is still in progress");
    rc = rpl_log_seek(log, log->nlines, err);
    if (rc != RPL_OK)
        return rc;
    env_init(&env, log);
    env.seed = log->seed;
    rpl__buf_init(&b, log->ctx);
    if (json)
        log->game->views->reveal_json(log->st, &env, &b);
    else
        log->game->views->reveal_text(log->st, &env, &b);
    return rpl__buf_take(&b, out, err);
}

enum rpl_status
rpl_log_reveal_text(struct rpl_log *log, char **text, struct rpl_error *err)
{
    return reveal_out(log, false, text, err);
}

enum rpl_status
rpl_log_reveal_json(struct rpl_log *log, char **json, struct rpl_error *err)
{
    return reveal_out(log, true, json, err);
}

enum rpl_status
rpl_log_digest(struct rpl_log *log, uint8_t out[32], struct rpl_error *err)
{
    uint8_t *bytes;
    size_t n;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = current(log, err);
    if (rc != RPL_OK)
        return rc;
    n = log->game->play->serialize(log->st, NULL, 0);
    bytes = rpl__alloc(log->ctx, n);
    if (!bytes)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    log->game->play->serialize(log->st, bytes, n);
    rpl__hash(out, NULL, bytes, n);
    rpl__free(log->ctx, bytes);
    return RPL_OK;
}
