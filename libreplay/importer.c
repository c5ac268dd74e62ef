/*
 * importer.c - the one door to the games' importers (rpl_import()):
 * finds the importer of a foreign format through the registry, reads
 * the record, lets the game's importer check it with the game's engine,
 * and records what the importer planned through the recorder, exactly
 * as a host would have recorded the game: the deal is the record's, the
 * seals the caller's dealer key.  The log made is verified before it is
 * handed out, so a caller never writes a log that does not verify.
 *
 * Derivation (camelog-import(1)): the game id is the first 16 bytes of
 * BLAKE2b-256("camelog import" || source || 0x00 || original id), so
 * importing a record again gives the same game.  The dealer secret S is
 * random, or with a seed, BLAKE2b-256(key = root, "camelog import
 * secret " || original id) with root = BLAKE2b-256("camelog import seed"
 * || seed), so that tests can compare files byte for byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "games/game.h"

#define READ_CHUNK 65536u

bool
rpl_import_has_format(const char *format)
{
    return rpl__importer_find(format, NULL);
}

const struct rpl_import_category *
rpl_import_category(const char *format, size_t i)
{
    const struct rpl__importer *imp = rpl__importer_find(format, NULL);

    if (!imp || i == 0 || i >= imp->ncategories)
        return NULL;
    return &imp->categories[i];
}

static size_t
category_of(const struct rpl__importer *imp, const char *key)
{
    for (size_t i = 1; i < imp->ncategories; i++)
        if (strcmp(imp->categories[i].key, key) == 0)
            return i;
    return 0;
}

size_t
rpl_import_category_find(const char *format, const char *key)
{
    const struct rpl__importer *imp = rpl__importer_find(format, NULL);

    return imp ? category_of(imp, key) : 0;
}

static enum rpl_status refuse(const struct rpl__importer *imp,
                              struct rpl_import_report *rep,
                              struct rpl_error *err, enum rpl_status code,
                              const char *key, const char *fmt, ...)
    RPL__PRINTF(6, 7);

/* Records a refusal of the door itself in rep and err. */
static enum rpl_status
refuse(const struct rpl__importer *imp, struct rpl_import_report *rep,
       struct rpl_error *err, enum rpl_status code, const char *key,
       const char *fmt, ...)
{
    va_list ap;

    rep->category = category_of(imp, key);
    rep->field[0] = '\0';
    va_start(ap, fmt);
    vsnprintf(rep->reason, sizeof(rep->reason), fmt, ap);
    va_end(ap);
    return rpl__err(err, code, 0, "%s", rep->reason);
}

/* A failed library call while recording: "internal" when the library
 * itself failed, else the log does not verify. */
static enum rpl_status
refuse_lib(const struct rpl__importer *imp, struct rpl_import_report *rep,
           struct rpl_error *err, const char *context, enum rpl_status st,
           const struct rpl_error *cause)
{
    const bool is_internal =
        st == RPL_E_NOMEM || st == RPL_E_IO || st == RPL_E_CRYPTO;
    const char *msg = cause->code != RPL_OK && cause->msg[0] != '\0'
                          ? cause->msg
                          : rpl_strerror(st);

    return refuse(imp, rep, err, st, is_internal ? "internal" : "invalid",
                  "%s%s%s", context, context[0] != '\0' ? ": " : "", msg);
}

/* Plays the plan through the recorder, verifies the log and hands it
 * out. */
static enum rpl_status
record(struct rpl_ctx *ctx, const struct rpl__importer *imp,
       const struct rpl__game *game, const struct rpl__import_plan *plan,
       const struct rpl_import_opts *opts, struct rpl_log **out,
       struct rpl_import_report *rep, struct rpl_error *err)
{
    const char *names[RPL_MAX_SEATS], *deal[RPL_MAX_SEATS];
    struct rpl_rec_config cfg;
    struct rpl_verify_opts vopts;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_pubkey pub;
    struct rpl_error e;
    enum rpl_status rc;
    const char *p = plan->actions.p ? plan->actions.p : "";

    for (size_t k = 0; k < plan->seats; k++) {
        names[k] = plan->names[k];
        deal[k] = plan->deal[k];
    }
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = game->name;
    cfg.rules = plan->rules;
    cfg.seats = plan->seats;
    cfg.names = names;
    cfg.dealer = opts->dealer;
    cfg.id = plan->id;
    cfg.secret = plan->secret;
    cfg.created = plan->created[0] != '\0' ? plan->created : NULL;
    cfg.import_source = imp->source;
    cfg.import_id = plan->oid;
    cfg.deal = deal;
    cfg.first = plan->first;
    rc = rpl_rec_new(ctx, &rec, &cfg, &e);
    if (rc == RPL_OK)
        rc = rpl_rec_start(rec, &e);
    /* The importer played every action on the engine already: one the
     * recorder refuses is a fault of the door, reported as such. */
    while (rc == RPL_OK && *p != '\0') {
        const char *const lf = strchr(p, '\n');
        const size_t len = lf ? (size_t)(lf - p) : strlen(p);
        char action[256];

        if (len >= sizeof(action)) {
            rc = rpl__err(&e, RPL_E_LIMIT, 0, "action longer than %zu bytes",
                          sizeof(action) - 1);
            break;
        }
        memcpy(action, p, len);
        action[len] = '\0';
        rc = rpl_rec_act(rec, action, NULL, &e);
        p += len + (lf ? 1 : 0);
    }
    if (rc == RPL_OK)
        rc = rpl_rec_reveal(rec, &e);
    if (rc == RPL_OK)
        rc = rpl_rec_log(rec, &log, &e);
    if (rc != RPL_OK) {
        rc = refuse_lib(imp, rep, err, "", rc, &e);
        goto out;
    }
    rpl_seckey_pubkey(opts->dealer, &pub);
    memset(&vopts, 0, sizeof(vopts));
    vopts.pubkey = &pub;
    rc = rpl_log_verify(log, &vopts, &rep->log);
    if (rc != RPL_OK) {
        char where[32] = "";

        if (rep->log.error.line > 0)
            snprintf(where, sizeof(where), "line %zu", rep->log.error.line);
        rc = refuse_lib(imp, rep, err, where, rc, &rep->log.error);
        goto out;
    }
    if (rep->log.progress != RPL_PROGRESS_COMPLETE || !rep->log.is_imported) {
        rc = refuse(imp, rep, err, RPL_E_INCOMPLETE, "invalid",
                    "the log is %s and %s marked as imported",
                    rpl_progress_text(rep->log.progress),
                    rep->log.is_imported ? "is" : "is not");
        goto out;
    }
    (void)rpl_log_variants(log, rep->variants, sizeof(rep->variants));
    *out = log;
    log = NULL;
out:
    rpl_log_free(log);
    rpl_rec_free(rec);
    return rc;
}

/* The importer of format and the options as the importer sees them. */
static enum rpl_status
begin(const char *format, const struct rpl_import_opts *opts,
      const struct rpl__importer **imp, const struct rpl__game **game,
      struct rpl__import_in *in, struct rpl_error *err)
{
    static const char tag[] = "camelog import seed";
    crypto_generichash_state h;

    *imp = rpl__importer_find(format, game);
    if (!*imp)
        return rpl__err(err, RPL_E_UNSUPPORTED, 0,
                        "unknown import format \"%.64s\"", format);
    if (!opts->dealer)
        return rpl__err(err, RPL_E_ARG, 0, "the dealer key is required");
    if (opts->seed && (opts->seed_len == 0 || opts->seed_len > 64))
        return rpl__err(err, RPL_E_ARG, 0, "the seed has 1 to 64 bytes");
    in->options = opts->options ? opts->options : "";
    in->game = *game;
    if (opts->seed) {
        crypto_generichash_init(&h, NULL, 0, sizeof(in->root));
        crypto_generichash_update(&h, (const unsigned char *)tag,
                                  sizeof(tag) - 1);
        crypto_generichash_update(&h, opts->seed, opts->seed_len);
        crypto_generichash_final(&h, in->root, sizeof(in->root));
        sodium_memzero(&h, sizeof(h));
        in->has_seed = true;
    }
    return RPL_OK;
}

enum rpl_status
rpl_import(struct rpl_ctx *ctx, const char *format, const char *name,
           const void *record_bytes, size_t record_len,
           const struct rpl_import_opts *opts, struct rpl_log **out,
           struct rpl_import_report *rep, struct rpl_error *err)
{
    const struct rpl__importer *imp = NULL;
    const struct rpl__game *game = NULL;
    struct rpl__import_in in;
    struct rpl__import_plan plan;
    const char *base = strrchr(name, '/');
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    memset(rep, 0, sizeof(*rep));
    memset(&in, 0, sizeof(in));
    memset(&plan, 0, sizeof(plan));
    rpl__buf_init(&plan.actions, ctx);
    in.ctx = ctx;
    in.name = base ? base + 1 : name;
    in.record = record_bytes ? record_bytes : "";
    in.record_len = record_bytes ? record_len : 0;
    rc = begin(format, opts, &imp, &game, &in, err);
    if (rc != RPL_OK)
        goto out;
    if (record_len > RPL_MAX_RECORD) {
        rc = refuse(imp, rep, err, RPL_E_LIMIT, "size", "larger than 1 MiB");
        goto out;
    }
    rc = imp->convert(&in, &plan, rep);
    if (rc != RPL_OK) {
        rpl__err(err, rc, 0, "%s", rep->reason);
        goto out;
    }
    rc = record(ctx, imp, game, &plan, opts, out, rep, err);
out:
    sodium_memzero(plan.secret, sizeof(plan.secret));
    sodium_memzero(in.root, sizeof(in.root));
    rpl__buf_release(&plan.actions);
    return rc;
}

/* Reads at most max + 1 bytes of path into *buf (rpl__free()); *errnum
 * is the errno of a failure (0 when out of memory). */
static bool
read_record(struct rpl_ctx *ctx, const char *path, size_t max, char **buf,
            size_t *len, int *errnum)
{
    size_t cap = 0, have = 0;
    char *p = NULL;
    int fd;

    *buf = NULL;
    *len = 0;
    *errnum = 0;
    do {
        fd = open(path, O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        *errnum = errno;
        return false;
    }
    for (;;) {
        ssize_t n;

        if (have == cap) {
            const size_t ncap = cap == 0 ? READ_CHUNK : 2 * cap;
            char *q;

            if (cap > max)
                break;
            q = rpl__realloc(ctx, p, ncap + 1);
            if (!q)
                goto fail;
            p = q;
            cap = ncap;
        }
        n = read(fd, p + have, cap - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *errnum = errno;
            goto fail;
        }
        if (n == 0)
            break;
        have += (size_t)n;
        if (have > max)
            break;
    }
    close(fd);
    p[have] = '\0';
    *buf = p;
    *len = have;
    return true;
fail:
    close(fd);
    rpl__free(ctx, p);
    return false;
}

enum rpl_status
rpl_import_file(struct rpl_ctx *ctx, const char *format, const char *path,
                const struct rpl_import_opts *opts, struct rpl_log **out,
                struct rpl_import_report *rep, struct rpl_error *err)
{
    const struct rpl__importer *imp = NULL;
    const struct rpl__game *game = NULL;
    struct rpl__import_in in;
    char *buf = NULL;
    size_t len = 0;
    int errnum = 0;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    memset(rep, 0, sizeof(*rep));
    memset(&in, 0, sizeof(in));
    rc = begin(format, opts, &imp, &game, &in, err);
    sodium_memzero(in.root, sizeof(in.root));
    if (rc != RPL_OK)
        return rc;
    if (strcmp(path, "-") == 0)
        return rpl__err(err, RPL_E_ARG, 0,
                        "records are read from files: the file name may be "
                        "the game's original id");
    if (!read_record(ctx, path, RPL_MAX_RECORD, &buf, &len, &errnum)) {
        char text[128];

        if (errnum == 0)
            return refuse(imp, rep, err, RPL_E_NOMEM, "internal",
                          "out of memory");
        if (strerror_r(errnum, text, sizeof(text)) != 0)
            snprintf(text, sizeof(text), "error %d", errnum);
        return refuse(imp, rep, err, RPL_E_IO, "read", "%s", text);
    }
    rc = rpl_import(ctx, format, path, buf, len, opts, out, rep, err);
    rpl__free(ctx, buf);
    return rc;
}
