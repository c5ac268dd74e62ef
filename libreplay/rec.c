/*
 * rec.c - the recorder: what a host links to write a game as it happens.
 *
 * The recorder writes the header, derives the seed when play starts, and
 * then writes every line through the game module exactly as a verifier
 * will read it back: a player's action is applied to the module's state
 * (so an illegal one changes nothing), the dealer's derived lines follow
 * it, and every private message gets its commitment the moment it is
 * sent, with the nonce kept for the seat that receives it.
 *
 * One undo: a call that records changes nothing when it fails, whichever
 * layer fails (the game refusing a line, a limit, the journal's write).
 * Its frame (rec_journal.c call_begin() and rec_end()) marks the
 * recorder once at the start of the call, rpl__rec_mark() keeping what a
 * call may change (struct rpl__rec_mark, rec.h), puts it back with
 * rpl__rec_undo() on any failure, and drops the mark with
 * rpl__rec_unmark(), its secrets zeroed.  st and pub are copied at most
 * once a call, when it first changes them (states_change()); nothing
 * below the frame keeps a mark of its own.  A signature is checked before
 * its line is written (seat_sig(); for a queued line, against what judge()
 * made of it), so that a refused one has changed nothing and
 * rec_flush() can ask for it again and go on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "rec.h"

/* Appends one line (without LF) and advances the chain. */
static enum rpl_status
append(struct rpl_recorder *rec, const char *line, size_t len,
       struct rpl_error *err)
{
    if (len > RPL_MAX_LINE)
        return rpl__err(err, RPL_E_LIMIT, rec->nlines + 1,
                        "line longer than %u bytes (RPL_MAX_LINE)",
                        RPL_MAX_LINE);
    if (rec->nlines == RPL_MAX_LINES || rec->text.len + len + 1 > RPL_MAX_TEXT)
        return rpl__err(err, RPL_E_LIMIT, rec->nlines + 1,
                        "the log would exceed RPL_MAX_LINES or "
                        "RPL_MAX_TEXT");
    if (rec->nlines == rec->start_cap) {
        /* At most 2 * RPL_MAX_LINES entries: no overflow. */
        const size_t cap = rec->start_cap ? 2 * rec->start_cap : 64;
        size_t *p = rpl__realloc(rec->ctx, rec->start, cap * sizeof(*p));

        if (!p)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        rec->start = p;
        rec->start_cap = cap;
    }
    rec->start[rec->nlines] = rec->text.len;
    rpl__buf_add(&rec->text, line, len);
    rpl__buf_add(&rec->text, "\n", 1);
    if (rec->text.failed)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    memcpy(rec->prev_head, rec->head, RPL__HASH);
    rpl__chain(rec->head, line, len);
    rec->nlines++;
    rec->last_is_seal = false;
    return RPL_OK;
}

static enum rpl_status appendf(struct rpl_recorder *rec, struct rpl_error *err,
                               const char *fmt, ...) RPL__PRINTF(3, 4);

static enum rpl_status
appendf(struct rpl_recorder *rec, struct rpl_error *err, const char *fmt, ...)
{
    char line[RPL_MAX_LINE + 1];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(line))
        return rpl__err(err, RPL_E_LIMIT, rec->nlines + 1,
                        "line longer than %u bytes (RPL_MAX_LINE)",
                        RPL_MAX_LINE);
    return append(rec, line, (size_t)n, err);
}

/* ------------------------------------------------------------ one undo */

static void
req_copy(struct rpl_sign_request *to, const struct rpl_sign_request *from)
{
    to->seat = from->seat;
    to->line = from->line;
    memcpy(to->text, from->text, strlen(from->text) + 1);
    memcpy(to->base, from->base, sizeof(to->base));
    memcpy(to->label, from->label, sizeof(to->label));
    memcpy(to->nonce, from->nonce, sizeof(to->nonce));
    to->has_nonce = from->has_nonce;
}

void
rpl__rec_mark(struct rpl_recorder *rec)
{
    struct rpl__rec_mark *m = &rec->mark;

    m->is_set = true;
    m->has_states = false;
    m->text_len = rec->text.len;
    m->nlines = rec->nlines;
    memcpy(m->head, rec->head, RPL__HASH);
    memcpy(m->prev_head, rec->prev_head, RPL__HASH);
    memcpy(m->group_base, rec->group_base, RPL__HASH);
    m->ndeliv = rec->ndeliv;
    m->moves = rec->moves;
    m->last_is_seal = rec->last_is_seal;
    m->is_revealed = rec->is_revealed;
    memcpy(m->jtag, rec->jtag, sizeof(m->jtag));
    m->nqueue = rec->nqueue;
    m->is_flushing = rec->is_flushing;
    for (size_t k = 1; k <= rec->seats; k++) {
        const struct rpl__rec_sub *q = &rec->queue[k];
        struct rpl__rec_held *h = &m->queue[k];

        h->is_queued = q->is_queued;
        if (!q->is_queued)
            continue;
        h->has_sig = q->has_sig;
        memcpy(h->sig, q->sig, sizeof(h->sig));
        memcpy(h->action, q->action, strlen(q->action) + 1);
    }
    m->nreq = rec->nreq;
    for (size_t i = 0; i < rec->nreq; i++)
        req_copy(&m->req[i], &rec->req[i]);
    m->started = rec->started;
    if (rec->started)
        return;
    m->pre = rec->pre;
    m->env_seed = rec->env.seed;
}

/* st and pub are about to change: the mark keeps them as the call found
 * them (the first time in a call), and rec->sim no longer goes on from
 * st. */
static void
states_change(struct rpl_recorder *rec)
{
    struct rpl__rec_mark *m = &rec->mark;

    rec->sim_seat = 0;
    if (!m->is_set || m->has_states)
        return;
    memcpy(rec->backup, rec->st, rec->game->state_size);
    memcpy(rec->pub_backup, rec->pub, rec->game->state_size);
    m->has_states = true;
}

void
rpl__rec_undo(struct rpl_recorder *rec)
{
    const struct rpl__rec_mark *m = &rec->mark;

    if (!m->is_set)
        return;
    if (m->has_states) {
        memcpy(rec->st, rec->backup, rec->game->state_size);
        memcpy(rec->pub, rec->pub_backup, rec->game->state_size);
    }
    rec->text.len = m->text_len;
    rec->text.failed = false;
    if (rec->text.p)
        rec->text.p[m->text_len] = '\0';
    rec->nlines = m->nlines;
    memcpy(rec->head, m->head, RPL__HASH);
    memcpy(rec->prev_head, m->prev_head, RPL__HASH);
    memcpy(rec->group_base, m->group_base, RPL__HASH);
    if (rec->ndeliv > m->ndeliv)
        sodium_memzero(rec->deliv + m->ndeliv,
                       (rec->ndeliv - m->ndeliv) * sizeof(*rec->deliv));
    rec->ndeliv = m->ndeliv;
    rec->moves = m->moves;
    rec->last_is_seal = m->last_is_seal;
    rec->is_revealed = m->is_revealed;
    memcpy(rec->jtag, m->jtag, sizeof(rec->jtag));
    /* The queue as it was, and no judgment of it: one made in the call
     * may rest on a submission the call undoes. */
    for (size_t k = 1; k <= rec->seats; k++) {
        struct rpl__rec_sub *q = &rec->queue[k];
        const struct rpl__rec_held *h = &m->queue[k];

        rpl__rec_sub_drop(q);
        if (!h->is_queued)
            continue;
        q->is_queued = true;
        q->has_sig = h->has_sig;
        memcpy(q->sig, h->sig, sizeof(q->sig));
        memcpy(q->action, h->action, strlen(h->action) + 1);
    }
    rec->nqueue = m->nqueue;
    rec->is_flushing = m->is_flushing;
    rec->sim_seat = 0;
    for (size_t i = 0; i < m->nreq; i++)
        req_copy(&rec->req[i], &m->req[i]);
    rec->nreq = m->nreq;
    if (m->started)
        return;
    rec->started = false;
    rec->pre = m->pre;
    rec->env.seed = m->env_seed;
}

void
rpl__rec_unmark(struct rpl_recorder *rec)
{
    struct rpl__rec_mark *m = &rec->mark;

    if (!m->is_set)
        return;
    /* pub holds nothing secret: the lines written, without the seed. */
    if (m->has_states)
        sodium_memzero(rec->backup, rec->game->state_size);
    for (size_t k = 1; k <= rec->seats; k++) {
        struct rpl__rec_held *h = &m->queue[k];

        if (!h->is_queued)
            continue;
        sodium_memzero(h->action, strlen(h->action));
        sodium_memzero(h->sig, sizeof(h->sig));
        h->is_queued = false;
    }
    for (size_t i = 0; i < m->nreq; i++) {
        sodium_memzero(m->req[i].text, strlen(m->req[i].text));
        sodium_memzero(m->req[i].nonce, sizeof(m->req[i].nonce));
    }
    if (!m->started)
        sodium_memzero(&m->pre, sizeof(m->pre));
    m->is_set = false;
}

void
rpl_rec_free(struct rpl_recorder *rec)
{
    if (!rec)
        return;
    /* rpl_rec_new() may fail between the two allocations. */
    if (rec->st)
        sodium_memzero(rec->st, rec->game->state_size);
    if (rec->backup)
        sodium_memzero(rec->backup, rec->game->state_size);
    if (rec->pub)
        sodium_memzero(rec->pub, rec->game->state_size);
    if (rec->pub_backup)
        sodium_memzero(rec->pub_backup, rec->game->state_size);
    if (rec->sim)
        sodium_memzero(rec->sim, rec->game->state_size);
    rpl__free(rec->ctx, rec->st);
    rpl__free(rec->ctx, rec->backup);
    rpl__free(rec->ctx, rec->pub);
    rpl__free(rec->ctx, rec->pub_backup);
    rpl__free(rec->ctx, rec->sim);
    sodium_memzero(rec->queue, sizeof(rec->queue));
    sodium_memzero(rec->jkey, sizeof(rec->jkey));
    sodium_memzero(rec->jbox, sizeof(rec->jbox));
    sodium_memzero(&rec->pre, sizeof(rec->pre)); /* the seed, the entropy */
    if (rec->jfd >= 0)
        close(rec->jfd);
    if (rec->sfd >= 0)
        close(rec->sfd);
    rpl__free(rec->ctx, rec->jpath);
    if (rec->cmd.p)
        sodium_memzero(rec->cmd.p, rec->cmd.cap);
    rpl__buf_release(&rec->cmd);
    if (rec->deliv)
        sodium_memzero(rec->deliv, rec->deliv_cap * sizeof(*rec->deliv));
    rpl__free(rec->ctx, rec->deliv);
    if (rec->secret)
        sodium_free(rec->secret);
    rpl__buf_release(&rec->text);
    rpl__free(rec->ctx, rec->start);
    sodium_memzero(rec->pre.seed, sizeof(rec->pre.seed));
    rpl__free(rec->ctx, rec);
}

static enum rpl_status
header(struct rpl_recorder *rec, const struct rpl_rec_config *cfg,
       struct rpl_error *err)
{
    char hex[65];
    char key[RPL_PUBKEY_B64_LEN + 1];
    struct rpl__line ln;
    struct rpl_pubkey dealer;
    uint8_t commit[RPL__HASH];
    size_t seats = 0;
    enum rpl_status rc;
    char rules[RPL_MAX_LINE + 1];
    int n;

    rc = appendf(rec, err, "camelog %u", RPL_FORMAT_VERSION);
    if (rc == RPL_OK)
        rc = appendf(rec, err, "game %s", rec->game->name);
    rpl__hex(hex, rec->id, sizeof(rec->id));
    if (rc == RPL_OK)
        rc = appendf(rec, err, "id %s", hex);
    if (rc == RPL_OK && cfg->created) {
        const struct rpl__tok t = {cfg->created, strlen(cfg->created)};

        if (!rpl__tok_time(&t))
            return rpl__err(err, RPL_E_ARG, 0,
                            "created: expected YYYY-MM-DDTHH:MM:SSZ, a real "
                            "UTC time");
        rc = appendf(rec, err, "created %s", cfg->created);
    }
    if (rc == RPL_OK && cfg->import_source) {
        const struct rpl__tok src = {cfg->import_source,
                                     strlen(cfg->import_source)};
        const struct rpl__tok id = {cfg->import_id ? cfg->import_id : "",
                                    cfg->import_id ? strlen(cfg->import_id)
                                                   : 0};

        if (!rpl__import_source_ok(&src) || !rpl__import_id_ok(&id))
            return rpl__err(err, RPL_E_ARG, 0,
                            "import source: [a-z0-9.-], 1 to 64 bytes; "
                            "original id: printable ASCII without space or "
                            "quote, 1 to 128 bytes");
        rc = appendf(rec, err, "import %s %s", cfg->import_source,
                     cfg->import_id);
    }
    if (rc != RPL_OK)
        return rc;
    n = snprintf(rules, sizeof(rules), "rules %s", cfg->rules);
    if (n < 0 || (size_t)n >= sizeof(rules))
        return rpl__err(err, RPL_E_LIMIT, 0, "rules line too long");
    rc = rpl__line_split(&ln, rules, (size_t)n, rec->nlines + 1, err);
    if (rc == RPL_OK)
        rc = rec->game->play->rules(rec->st, &ln, &rec->env, &seats, err);
    if (rc == RPL_OK)
        rc = rec->game->play->rules(rec->pub, &ln, &rec->pub_env, &seats, err);
    if (rc != RPL_OK)
        return rc;
    if (seats != cfg->seats || seats == 0 || seats > RPL_MAX_SEATS)
        return rpl__err(err, RPL_E_ARG, 0,
                        "the rules have %zu seats but %zu names were given",
                        seats, cfg->seats);
    rec->seats = seats;
    rec->env.seats = seats;
    rec->pub_env.seats = seats;
    if (cfg->import_source) {
        if (!rpl__import_hooks(rec->game)->import_deal)
            return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                            "the game %s imports no records: it has no "
                            "imported deal",
                            rec->game->name);
        if (!cfg->deal || cfg->first == 0 || cfg->first > seats)
            return rpl__err(err, RPL_E_ARG, 0,
                            "an imported game needs its deal and its first "
                            "player");
        for (size_t k = 0; k < seats; k++) {
            if (!cfg->deal[k] || strlen(cfg->deal[k]) >= sizeof(rec->deal[k]))
                return rpl__err(err, RPL_E_ARG, 0,
                                "deal of p%zu missing or too long", k + 1);
            memcpy(rec->deal[k], cfg->deal[k], strlen(cfg->deal[k]) + 1);
            rec->deal_ptrs[k] = rec->deal[k];
        }
        rec->first = cfg->first;
    } else if (cfg->deal || cfg->import_id) {
        return rpl__err(err, RPL_E_ARG, 0,
                        "a deal is given only for an imported game");
    }
    rc = append(rec, rules, (size_t)n, err);
    for (size_t k = 1; rc == RPL_OK && k <= seats; k++) {
        const char *name = cfg->names[k - 1];
        const size_t len = name ? strlen(name) : 0;
        struct rpl__buf line;
        uint32_t bad;

        if (len == 0 || len > RPL_MAX_NAME || !rpl__name_ok(name, len, &bad))
            return rpl__err(err, RPL_E_ARG, 0,
                            "name of p%zu: 1 to %u bytes of UTF-8 without "
                            "control, format or invisible characters "
                            "(camelog(5), Seat names)",
                            k, RPL_MAX_NAME);
        for (size_t j = 1; j < k; j++)
            if (strcmp(rec->names[j], name) == 0)
                return rpl__err(err, RPL_E_ARG, 0,
                                "p%zu and p%zu have the same name", j, k);
        memcpy(rec->names[k], name, len + 1);
        rpl__buf_init(&line, rec->ctx);
        rpl__buf_printf(&line, "seat p%zu ", k);
        rpl__buf_quote(&line, name);
        if (cfg->seat_keys && cfg->seat_keys[k - 1]) {
            rec->seat_key[k] = *cfg->seat_keys[k - 1];
            rec->has_seat_key[k] = true;
            rpl_pubkey_format(&rec->seat_key[k], key);
            rpl__buf_printf(&line, " key=%s", key);
        }
        if (line.failed)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        else
            rc = append(rec, line.p, line.len, err);
        rpl__buf_release(&line);
    }
    if (rc != RPL_OK)
        return rc;
    rpl_seckey_pubkey(cfg->dealer, &dealer);
    rpl_pubkey_format(&dealer, key);
    rc = appendf(rec, err, "dealer %s", key);
    rpl__secret_commit(commit, rec->id, rec->secret);
    rpl__hex(hex, commit, sizeof(commit));
    if (rc == RPL_OK)
        rc = appendf(rec, err, "commit %s", hex);
    return rc;
}

enum rpl_status
rpl__rec_make(struct rpl_ctx *ctx, struct rpl_recorder **out,
              const struct rpl_rec_config *cfg, struct rpl_error *err)
{
    struct rpl_recorder *rec;
    enum rpl_status rc;

    *out = NULL;
    if (!cfg->game || !cfg->rules || !cfg->names || !cfg->dealer)
        return rpl__err(err, RPL_E_ARG, 0,
                        "game, rules, names and dealer are required");
    rec = rpl__calloc(ctx, 1, sizeof(*rec));
    if (!rec)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    rec->ctx = ctx;
    rec->jfd = -1;
    rec->sfd = -1;
    rec->write_fn = write;
    rpl__buf_init(&rec->text, ctx);
    rpl__buf_init(&rec->cmd, ctx);
    rec->game = rpl__game_find(cfg->game, strlen(cfg->game));
    if (!rec->game) {
        rc = rpl__err(err, RPL_E_UNSUPPORTED, 0, "unknown game \"%s\"",
                      cfg->game);
        goto out;
    }
    rec->st = rpl__calloc(ctx, 1, rec->game->state_size);
    rec->backup = rpl__calloc(ctx, 1, rec->game->state_size);
    rec->pub = rpl__calloc(ctx, 1, rec->game->state_size);
    rec->pub_backup = rpl__calloc(ctx, 1, rec->game->state_size);
    rec->sim = rpl__calloc(ctx, 1, rec->game->state_size);
    rec->secret = sodium_malloc(32);
    if (!rec->st || !rec->backup || !rec->pub || !rec->pub_backup ||
        !rec->sim || !rec->secret) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    if (cfg->id)
        memcpy(rec->id, cfg->id, sizeof(rec->id));
    else
        randombytes_buf(rec->id, sizeof(rec->id));
    if (cfg->secret)
        memcpy(rec->secret, cfg->secret, 32);
    else
        randombytes_buf(rec->secret, 32);
    rec->dealer = cfg->dealer;
    for (size_t k = 0; k <= RPL_MAX_SEATS; k++)
        rec->name_ptrs[k] = rec->names[k];
    rec->env.ctx = ctx;
    rec->env.id = rec->id;
    rec->env.names = rec->name_ptrs;
    rec->env.warn = rpl__no_warning;
    rec->env.imported = cfg->import_source;
    rec->env.version = 2;
    rec->pub_env = rec->env;
    rc = header(rec, cfg, err);
    /* A pledge signs against the chain of the whole header. */
    memcpy(rec->pledge_base, rec->head, RPL__HASH);
out:
    if (rc != RPL_OK) {
        rpl_rec_free(rec);
        return rc;
    }
    *out = rec;
    return RPL_OK;
}

/* The signature of seat on line (len bytes, the log's line no) against
 * base: made with sk (its key must be the header's), or sig_in checked.
 * Changes nothing: a line is checked before it is written. */
static enum rpl_status
seat_sig(const struct rpl_recorder *rec, size_t seat, const uint8_t *base,
         const struct rpl_seckey *sk, const uint8_t *sig_in, const char *line,
         size_t len, size_t no, uint8_t sig[64], struct rpl_error *err)
{
    struct rpl_pubkey pk;

    if (sk) {
        rpl_seckey_pubkey(sk, &pk);
        if (!rec->has_seat_key[seat] ||
            memcmp(&pk, &rec->seat_key[seat], sizeof(pk)) != 0)
            return rpl__err(err, RPL_E_KEY, 0,
                            "the key given for p%zu is not its key in the "
                            "header",
                            seat);
        rpl__sig_sign(sk, base, line, len, sig);
        return RPL_OK;
    }
    if (!rec->has_seat_key[seat])
        return rpl__err(err, RPL_E_SIG, no,
                        "p%zu has no key in the header: its lines go "
                        "unsigned",
                        seat);
    memcpy(sig, sig_in, 64);
    if (!rpl__sig_verify(&rec->seat_key[seat], base, line, len, sig))
        return rpl__err(err, RPL_E_SIG, no,
                        "the signature of p%zu does not verify", seat);
    return RPL_OK;
}

static enum rpl_status
append_sig(struct rpl_recorder *rec, size_t seat, const uint8_t sig[64],
           struct rpl_error *err)
{
    char sig_line[RPL_SIG_LINE_MAX];

    return append(rec, sig_line,
                  rpl__sig_line(sig_line, sizeof(sig_line), seat, sig), err);
}

/* Appends line and, when sk or sig_in is given, seat's signature of it
 * against base, checked first (sig_out, when not NULL, receives it). */
static enum rpl_status
append_signed(struct rpl_recorder *rec, const char *line, size_t len,
              size_t seat, const uint8_t *base, const struct rpl_seckey *sk,
              const uint8_t *sig_in, uint8_t *sig_out, struct rpl_error *err)
{
    uint8_t sig[64];
    const bool is_signed = sk || sig_in;
    enum rpl_status rc = RPL_OK;

    if (is_signed)
        rc = seat_sig(rec, seat, base, sk, sig_in, line, len, rec->nlines + 1,
                      sig, err);
    if (rc == RPL_OK)
        rc = append(rec, line, len, err);
    if (rc == RPL_OK && is_signed)
        rc = append_sig(rec, seat, sig, err);
    if (rc == RPL_OK && is_signed && sig_out)
        memcpy(sig_out, sig, sizeof(sig));
    return rc;
}

static enum rpl_status
add_delivery(struct rpl_recorder *rec, size_t seat, const struct rpl__emit *e,
             const uint8_t nonce[32], struct rpl_error *err)
{
    struct rpl_delivery *d;

    if (rec->ndeliv == rec->deliv_cap) {
        const size_t cap = rec->deliv_cap ? 2 * rec->deliv_cap : 32;
        struct rpl_delivery *p = rpl__calloc(rec->ctx, cap, sizeof(*p));

        if (!p)
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        if (rec->deliv) {
            memcpy(p, rec->deliv, rec->ndeliv * sizeof(*p));
            sodium_memzero(rec->deliv, rec->deliv_cap * sizeof(*p));
            rpl__free(rec->ctx, rec->deliv);
        }
        rec->deliv = p;
        rec->deliv_cap = cap;
    }
    d = &rec->deliv[rec->ndeliv++];
    d->seat = seat;
    d->line = rec->nlines;
    snprintf(d->label, sizeof(d->label), "%s", e->label);
    /* Format 2 delivers the value as it is committed: padded. */
    if (rec->env.version < 2 || !rpl__pad(d->value, e->value))
        snprintf(d->value, sizeof(d->value), "%s", e->value);
    memcpy(d->nonce, nonce, sizeof(d->nonce));
    d->has_sig = false;
    if (rec->env.version >= 2 && rec->dealer) {
        uint8_t msg[RPL_DELIVERY_MESSAGE_MAX];
        size_t len = 0;

        rpl_delivery_message(rec->id, d, msg, &len);
        rpl__sign(rec->dealer, msg, len, d->sig);
        d->has_sig = true;
        sodium_memzero(msg, sizeof(msg));
    }
    return RPL_OK;
}

enum rpl_status
rpl__rec_line_make(const struct rpl_recorder *rec, const struct rpl__emit *e,
                   size_t no, struct rpl__rec_line *l, struct rpl_error *err)
{
    size_t len = strlen(e->line);

    memcpy(&l->e, e, sizeof(*e));
    memcpy(l->text, e->line, len + 1);
    if (e->label[0]) {
        uint8_t commit[RPL__HASH];

        rpl__commit(commit, l->nonce, rec->pre.seed, rec->id, e->label,
                    e->value, rec->env.version);
        l->text[len++] = ' ';
        rpl__hex(l->text + len, commit, sizeof(commit));
        len += 2 * RPL__HASH;
    } else {
        memset(l->nonce, 0, sizeof(l->nonce));
    }
    l->len = len;
    return rpl__line_split(&l->ln, l->text, len, no, err);
}

/* The game's judgment of line l, made by rpl__rec_line_make(): the
 * learned secret (a player's choice) and the line applied to st; *applied
 * is what the game said.  The first step of writing a line
 * (rpl__rec_line_append() is the rest). */
enum rpl_status
rpl__rec_line_apply(struct rpl_recorder *rec, struct rpl__rec_line *l,
                    bool is_choice, struct rpl__applied *applied,
                    struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;

    l->ln.no = rec->nlines + 1;
    states_change(rec);
    if (is_choice && l->e.label[0])
        rc = rec->game->play->learn(rec->st, l->e.label, l->e.value, err);
    memset(applied, 0, sizeof(*applied));
    if (rc == RPL_OK)
        rc = rec->game->play->apply(rec->st, &l->ln, &rec->env, applied, err);
    return rc;
}

/* The rest of writing line l once applied to st: the line, the line
 * applied to the public replica, the delivery and the seat's signature,
 * made with seat_sk or sig (checked unless is_checked). */
enum rpl_status
rpl__rec_line_append(struct rpl_recorder *rec, const struct rpl__rec_line *l,
                     const struct rpl__applied *applied,
                     const struct rpl_seckey *seat_sk, const uint8_t *sig,
                     bool is_checked, uint8_t *sig_out, struct rpl_error *err)
{
    const struct rpl__emit *e = &l->e;
    uint8_t made[64];
    uint8_t base[RPL__HASH];
    struct rpl__applied pa;
    enum rpl_status rc = append(rec, l->text, l->len, err);

    memset(&pa, 0, sizeof(pa));
    if (rc == RPL_OK)
        rc = rec->game->play->apply(rec->pub, &l->ln, &rec->pub_env, &pa, err);
    if (rc == RPL_OK && e->label[0]) {
        const size_t to = applied->author
                              ? applied->author
                              : rpl__label_seat(e->label, rec->seats);

        rc = add_delivery(rec, to, e, l->nonce, err);
        /* The receiver of cards given checks the same commitment. */
        if (rc == RPL_OK && applied->receiver && applied->receiver != to)
            rc = add_delivery(rec, applied->receiver, e, l->nonce, err);
    }
    if (rc != RPL_OK)
        return rc;
    if (applied->opens_group)
        memcpy(rec->group_base, rec->prev_head, RPL__HASH);
    /* A key given for a line no seat authors signs nothing. */
    if (!sig && (!seat_sk || !applied->author))
        return RPL_OK;
    if (!applied->author)
        return rpl__err(err, RPL_E_SIG, rec->nlines,
                        "a signature for a line no seat authors");
    if (is_checked) {
        memcpy(made, sig, sizeof(made));
    } else {
        memcpy(base,
               applied->opens_group || applied->in_group ? rec->group_base
                                                         : rec->prev_head,
               RPL__HASH);
        rc = seat_sig(rec, applied->author, base, seat_sk, sig, l->text, l->len,
                      rec->nlines, made, err);
    }
    if (rc == RPL_OK)
        rc = append_sig(rec, applied->author, made, err);
    if (rc == RPL_OK && sig_out)
        memcpy(sig_out, made, sizeof(made));
    return rc;
}

/* Writes line l (rpl__rec_line_apply(), then rpl__rec_line_append()).
 * judged: what the game said of it when judge() applied it to the
 * scratch state, which lets its signature be checked before anything
 * changes; NULL for a line not judged.  What a line refused after that
 * changed is the call's to undo (at the top). */
enum rpl_status
rpl__rec_write_line(struct rpl_recorder *rec, struct rpl__rec_line *l,
                    bool is_choice, const struct rpl__applied *judged,
                    const struct rpl_seckey *seat_sk, const uint8_t *sig,
                    uint8_t *sig_out, struct rpl_error *err)
{
    uint8_t made[64];
    struct rpl__applied applied;
    bool is_checked = false; /* made holds the line's signature, checked */
    enum rpl_status rc;

    if (judged && (seat_sk || sig)) {
        /* Its author and base are known before it is applied: its
         * signature is checked first (rec_flush() asks again for one
         * that fails). */
        if (!judged->author)
            return sig ? rpl__err(err, RPL_E_SIG, rec->nlines + 1,
                                  "a signature for a line no seat authors")
                       : RPL_OK;
        rc =
            seat_sig(rec, judged->author,
                     judged->in_group && !judged->opens_group ? rec->group_base
                                                              : rec->head,
                     seat_sk, sig, l->text, l->len, rec->nlines + 1, made, err);
        if (rc != RPL_OK)
            return rc;
        is_checked = true;
    }
    rc = rpl__rec_line_apply(rec, l, is_choice, &applied, err);
    if (rc == RPL_OK && judged && applied.author != judged->author)
        rc = rpl__err(err, RPL_E_STATE, rec->nlines + 1,
                      "the line is not the one judged");
    if (rc == RPL_OK)
        rc = rpl__rec_line_append(rec, l, &applied, is_checked ? NULL : seat_sk,
                                  is_checked ? made : sig, is_checked, sig_out,
                                  err);
    return rc;
}

/* Writes one emitted line (rpl__rec_write_line(), not judged). */
enum rpl_status
rpl__rec_write_emit(struct rpl_recorder *rec, const struct rpl__emit *e,
                    bool is_choice, const struct rpl_seckey *seat_sk,
                    const uint8_t *sig, uint8_t *sig_out, struct rpl_error *err)
{
    struct rpl__rec_line l;
    enum rpl_status rc = rpl__rec_line_make(rec, e, rec->nlines + 1, &l, err);

    if (rc == RPL_OK)
        rc = rpl__rec_write_line(rec, &l, is_choice, NULL, seat_sk, sig,
                                 sig_out, err);
    sodium_memzero(&l, sizeof(l));
    return rc;
}

/* Empties a seat's slot of the queue, its secrets zeroed. */
void
rpl__rec_sub_drop(struct rpl__rec_sub *q)
{
    sodium_memzero(q->action, strlen(q->action));
    sodium_memzero(q->sig, sizeof(q->sig));
    sodium_memzero(&q->line, sizeof(q->line));
    q->is_queued = false;
    q->has_sig = false;
    q->is_judged = false;
    q->is_exact = false;
}

/* Writes the dealer's lines until a seat must act or the game is over. */
enum rpl_status
rpl__rec_drain(struct rpl_recorder *rec, struct rpl_error *err)
{
    struct rpl__emit e;
    enum rpl_status rc = RPL_OK;

    while (rc == RPL_OK && rec->game->play->pending(rec->st, &rec->env, &e))
        rc = rpl__rec_write_emit(rec, &e, false, NULL, NULL, NULL, err);
    return rc;
}

/* Format 2: a seat's value, after the sealed start, in any order; it
 * must match the seat's pledge.  Signed against reveal_base. */
static enum rpl_status
entropy2(struct rpl_recorder *rec, size_t seat, const uint8_t entropy[32],
         const struct rpl_seckey *seat_sk, const uint8_t *sig, uint8_t *sig_out,
         struct rpl_error *err)
{
    uint8_t check[RPL__HASH];
    char line[RPL_ENTROPY_LINE_MAX];
    enum rpl_status rc;

    if (seat == 0 || seat > rec->seats)
        return rpl__err(err, RPL_E_ARG, 0, "no seat p%zu", seat);
    if (rec->pre.abandoned)
        return rpl__err(err, RPL_E_STATE, 0, "the game was abandoned");
    if (!rec->pre.is_pledged)
        return rpl__err(err, RPL_E_STATE, 0,
                        "entropy before the sealed start: first every "
                        "pledge, then the pledged line");
    if (!(rec->pre.pledged & (1u << (seat - 1))))
        return rpl__err(err, RPL_E_STATE, 0, "p%zu made no pledge", seat);
    if (rec->pre.revealed & (1u << (seat - 1)))
        return rpl__err(err, RPL_E_STATE, 0,
                        "p%zu has already revealed its entropy", seat);
    rpl__pledge(check, rec->id, seat, entropy);
    if (sodium_memcmp(check, rec->pre.pledge[seat], RPL__HASH) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "the entropy does not match p%zu's pledge", seat);
    rc = append_signed(rec, line,
                       rpl__entropy_line(line, sizeof(line), seat, entropy),
                       seat, rec->pre.reveal_base, seat_sk, sig, sig_out, err);
    if (rc != RPL_OK)
        return rc;
    memcpy(rec->pre.value[seat], entropy, 32);
    rec->pre.revealed |= 1u << (seat - 1);
    return RPL_OK;
}

enum rpl_status
rpl__rec_pledge(struct rpl_recorder *rec, size_t seat, const uint8_t pledge[32],
                const struct rpl_seckey *seat_sk, const uint8_t *sig,
                uint8_t *sig_out, struct rpl_refusal *why,
                struct rpl_error *err)
{
    char line[RPL_ENTROPY_LINE_MAX];
    enum rpl_status rc;
    const char *code = "phase";

    if (seat == 0 || seat > rec->seats) {
        code = "malformed";
        rc = rpl__err(err, RPL_E_ARG, 0, "no such seat");
    } else if (rec->started || rec->pre.is_pledged || rec->pre.abandoned) {
        rc = rpl__err(err, RPL_E_STATE, 0,
                      "pledges are taken before the pledged line only");
    } else if (rec->pre.pledged & (1u << (seat - 1))) {
        code = "duplicate";
        rc = rpl__err(err, RPL_E_STATE, 0,
                      "this seat has already made its pledge");
    } else if (sig && !rec->has_seat_key[seat]) {
        code = "signature";
        rc = rpl__err(err, RPL_E_SIG, 0,
                      "this seat has no key: its lines go unsigned");
    } else {
        rc = append_signed(rec, line,
                           rpl__pledge_line(line, sizeof(line), seat, pledge),
                           seat, rec->pledge_base, seat_sk, sig, sig_out, err);
        if (rc == RPL_E_SIG) {
            code = "signature";
        } else if (rc == RPL_OK) {
            memcpy(rec->pre.pledge[seat], pledge, 32);
            rec->pre.pledged |= 1u << (seat - 1);
            return RPL_OK;
        }
    }
    if (why) {
        snprintf(why->code, sizeof(why->code), "%s", code);
        snprintf(why->text, sizeof(why->text), "%s",
                 rc == RPL_E_SIG ? "the signature does not verify" : err->msg);
    }
    return rc;
}

enum rpl_status
rpl__rec_pledged(struct rpl_recorder *rec, struct rpl_refusal *why,
                 struct rpl_error *err)
{
    char line[RPL_ENTROPY_LINE_MAX];
    enum rpl_status rc;

    if (rec->started || rec->pre.is_pledged || rec->pre.abandoned ||
        !rec->pre.pledged) {
        rc = rpl__err(err, RPL_E_STATE, 0,
                      rec->pre.pledged ? "the pledges are already closed"
                                       : "no seat has made a pledge");
        if (why) {
            snprintf(why->code, sizeof(why->code), "phase");
            snprintf(why->text, sizeof(why->text), "%s", err->msg);
        }
        return rc;
    }
    rc = append(rec, line,
                rpl__pledged_line(line, sizeof(line), rec->pre.pledged), err);
    if (rc == RPL_OK)
        rc = rpl__rec_seal(rec, err);
    if (rc == RPL_OK) {
        rec->pre.is_pledged = true;
        memcpy(rec->pre.reveal_base, rec->head, RPL__HASH);
    }
    return rc;
}

enum rpl_status
rpl__rec_abandon(struct rpl_recorder *rec, size_t seat, struct rpl_refusal *why,
                 struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;
    char line[RPL_ENTROPY_LINE_MAX];

    if (seat == 0 || seat > rec->seats)
        rc = rpl__err(err, RPL_E_ARG, 0, "no such seat");
    else if (rec->started || !rec->pre.is_pledged || rec->pre.abandoned)
        rc = rpl__err(err, RPL_E_STATE, 0,
                      "a game is abandoned between the sealed start and "
                      "its first line only");
    else if (!(rec->pre.pledged & (1u << (seat - 1))) ||
             (rec->pre.revealed & (1u << (seat - 1))))
        rc = rpl__err(err, RPL_E_STATE, 0,
                      "only a seat that pledged and has not revealed "
                      "abandons the game");
    if (rc != RPL_OK) {
        if (why) {
            snprintf(why->code, sizeof(why->code), "phase");
            snprintf(why->text, sizeof(why->text), "%s", err->msg);
        }
        return rc;
    }
    rc = append(rec, line, rpl__abandoned_line(line, sizeof(line), seat), err);
    if (rc == RPL_OK)
        rc = rpl__rec_seal(rec, err);
    if (rc == RPL_OK)
        rec->pre.abandoned = seat;
    return rc;
}

enum rpl_status
rpl__rec_entropy_line(struct rpl_recorder *rec, size_t seat,
                      const uint8_t entropy[32],
                      const struct rpl_seckey *seat_sk, const uint8_t *sig,
                      uint8_t *sig_out, struct rpl_error *err)
{
    char line[RPL_ENTROPY_LINE_MAX];
    enum rpl_status rc;

    if (rec->started)
        return rpl__err(err, RPL_E_STATE, 0, "entropy after the start");
    if (RPL_FORMAT_VERSION >= 2)
        return entropy2(rec, seat, entropy, seat_sk, sig, sig_out, err);
    if (seat == 0 || seat > rec->seats || seat <= rec->pre.entropy_seat)
        return rpl__err(err, RPL_E_ARG, 0,
                        "entropy of p%zu: one per seat, in seat order", seat);
    /* Format 1 signs against the chain before the line. */
    rc = append_signed(rec, line,
                       rpl__entropy_line(line, sizeof(line), seat, entropy),
                       seat, rec->head, seat_sk, sig, sig_out, err);
    if (rc != RPL_OK)
        return rc;
    memcpy(rec->pre.entropy[rec->pre.nentropy++], entropy, 32);
    rec->pre.entropy_seat = seat;
    return RPL_OK;
}

enum rpl_status
rpl__rec_begin_play(struct rpl_recorder *rec, struct rpl_error *err)
{
    enum rpl_status rc;

    if (rec->started)
        return rpl__err(err, RPL_E_STATE, 0, "the game has already started");
    if (RPL_FORMAT_VERSION >= 2)
        rpl__seed2(rec->pre.seed, rec->id, rec->secret,
                   (const uint8_t(*)[32])rec->pre.value, rec->pre.revealed);
    else
        rpl__seed(rec->pre.seed, rec->id, rec->secret,
                  (const uint8_t(*)[32])rec->pre.entropy, rec->pre.nentropy);
    rec->env.seed = rec->pre.seed;
    states_change(rec);
    if (rec->env.imported)
        rc = rpl__import_hooks(rec->game)->import_deal(
            rec->st, &rec->env, rec->deal_ptrs, rec->first, err);
    else
        rc = rec->game->play->setup(rec->st, &rec->env, err);
    if (rc != RPL_OK)
        return rc;
    rec->started = true;
    return rpl__rec_drain(rec, err);
}

size_t
rpl_rec_deliveries(const struct rpl_recorder *rec)
{
    return rec->ndeliv;
}

enum rpl_status
rpl_rec_delivery(const struct rpl_recorder *rec, size_t i,
                 struct rpl_delivery *out, struct rpl_error *err)
{
    rpl__err_clear(err);
    if (i >= rec->ndeliv)
        return rpl__err(err, RPL_E_ARG, 0, "no delivery %zu (%zu so far)", i,
                        rec->ndeliv);
    *out = rec->deliv[i];
    return RPL_OK;
}

/* The public turn: the public replica's, so that a seat whose turn only
 * a secret tells (a secret role's) is never named. */
/* In an open simultaneous step, the first of its seats that has not
 * submitted yet (0 once all have: the step waits for signatures), in
 * place of the game's turn, which knows nothing of the queue. */
static size_t
next_in_step(const struct rpl_recorder *rec, size_t turn)
{
    const uint64_t step =
        rec->game->live->step_seats ? rec->game->live->step_seats(rec->st) : 0;

    if (!step)
        return turn;
    for (size_t k = 1; k <= rec->seats; k++) {
        if ((step >> k & 1) && !rec->queue[k].is_queued)
            return k;
    }
    return 0;
}

size_t
rpl_rec_dealer_turn(const struct rpl_recorder *rec)
{
    if (!rec->started || rec->game->play->is_over(rec->st))
        return 0;
    return next_in_step(rec, rec->game->play->turn(rec->st));
}

enum rpl_status
rpl__rec_need_play(const struct rpl_recorder *rec, struct rpl_error *err)
{
    if (!rec->started)
        return rpl__err(err, RPL_E_STATE, 0, "the game has not started");
    if (rec->game->play->is_over(rec->st))
        return rpl__err(err, RPL_E_STATE, 0, "the game is over");
    return RPL_OK;
}

enum rpl_status
rpl__rec_abort(struct rpl_recorder *rec, struct rpl_error *err)
{
    struct rpl__emit e;
    enum rpl_status rc;

    rc = rpl__rec_need_play(rec, err);
    if (rc != RPL_OK)
        return rc;
    if (!rec->game->play->abort_line)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "this game has no line for an abandoned game");
    memset(&e, 0, sizeof(e));
    snprintf(e.line, sizeof(e.line), "%s", rec->game->play->abort_line);
    /* Queued submissions die with the game. */
    sodium_memzero(rec->queue, sizeof(rec->queue));
    rec->nqueue = 0;
    rec->is_flushing = false;
    rec->nreq = 0;
    return rpl__rec_write_emit(rec, &e, false, NULL, NULL, NULL, err);
}

enum rpl_status
rpl__rec_seal(struct rpl_recorder *rec, struct rpl_error *err)
{
    uint8_t sig[64];
    char line[RPL_SIG_LINE_MAX];
    enum rpl_status rc;

    rpl__seal_sign(rec->dealer, rec->head, sig);
    rc = append(rec, line, rpl__seal_line(line, sizeof(line), sig), err);
    if (rc == RPL_OK)
        rec->last_is_seal = true;
    return rc;
}

enum rpl_status
rpl__rec_reveal(struct rpl_recorder *rec, struct rpl_error *err)
{
    struct rpl__emit e;
    struct rpl__line ln;
    char line[RPL_ENTROPY_LINE_MAX];
    enum rpl_status rc;

    if (!rec->started || !rec->game->play->is_over(rec->st))
        return rpl__err(err, RPL_E_STATE, 0,
                        "the reveal comes after the game's end");
    rc = rec->last_is_seal ? RPL_OK : rpl__rec_seal(rec, err);
    states_change(rec);
    if (rc == RPL_OK)
        rc = rec->game->play->reveal(rec->st, &rec->env, rec->nlines + 1, err);
    if (rc == RPL_OK)
        rc = append(rec, line,
                    rpl__reveal_line(line, sizeof(line), rec->secret), err);
    sodium_memzero(line, sizeof(line));
    for (size_t i = 0;
         rc == RPL_OK && rec->game->play->opens_left(rec->st) > 0 &&
         rec->game->play->open_line(rec->st, i, &e);
         i++) {
        const size_t len = strlen(e.line);

        rc = rpl__line_split(&ln, e.line, len, rec->nlines + 1, err);
        if (rc == RPL_OK)
            rc = rec->game->play->open(rec->st, &ln, &rec->env, err);
        if (rc == RPL_OK)
            rc = append(rec, e.line, len, err);
    }
    if (rc == RPL_OK)
        rc = rpl__rec_seal(rec, err);
    if (rc == RPL_OK)
        rec->is_revealed = true;
    return rc;
}

/* As rpl_log_verify() finds it of the log rpl_rec_log() gives, from the
 * recorder's own states: every line the recorder wrote was judged by the
 * game as it was written, so the log needs no second replay to know
 * where it stands. */
enum rpl_progress
rpl_rec_progress(const struct rpl_recorder *rec)
{
    const bool is_over = rec->started && rec->game->play->is_over(rec->st);

    if (!rec->last_is_seal)
        return RPL_PROGRESS_IN_PROGRESS;
    if (rec->is_revealed && rec->game->play->opens_left(rec->st) == 0)
        return RPL_PROGRESS_COMPLETE;
    if (is_over || rec->pre.abandoned)
        return RPL_PROGRESS_FINISHED;
    return RPL_PROGRESS_IN_PROGRESS;
}

enum rpl_status
rpl_rec_log(const struct rpl_recorder *rec, struct rpl_log **out,
            struct rpl_error *err)
{
    return rpl_log_parse(rec->ctx, out, rec->text.p ? rec->text.p : "",
                         rec->text.len, false, err);
}

size_t
rpl_rec_lines(const struct rpl_recorder *rec)
{
    return rec->nlines;
}

size_t
rpl_rec_seats(const struct rpl_recorder *rec)
{
    return rec->seats;
}

const char *
rpl_rec_line(const struct rpl_recorder *rec, size_t no, size_t *len)
{
    size_t end;

    if (no == 0 || no > rec->nlines)
        return NULL;
    /* Every line ends with LF; the next line starts after it. */
    end = no < rec->nlines ? rec->start[no] : rec->text.len;
    *len = end - 1 - rec->start[no - 1];
    return rec->text.p + rec->start[no - 1];
}
