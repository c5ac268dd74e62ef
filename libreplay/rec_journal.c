/*
 * rec_journal.c - the host journal: a recorder that survives a crash.
 *
 * PATH holds the canonical text of every accepted line; PATH.secrets
 * (mode 0600) holds, one record a line, what the dealer needs to
 * rebuild the recorder: the configuration with S first ("s"), then every
 * call that changed the recorder with its arguments ("c": submissions
 * with their signatures, entropy, signatures, the start, the moves of
 * rpl_rec_act() and rpl_rec_bot() with the signatures they made, abort,
 * seal, reveal).  Each record is boxed (XChaCha20-Poly1305) under a
 * key of the dealer's secret and written in base64, padded first to a
 * multiple
 * of RECORD_BLOCK bytes so that its length tells nothing of a secret,
 * and followed by its tag, a keyed BLAKE2b chain over every record so
 * far whose key only the dealer's secret key gives:
 *
 *     s <base64> <hex tag>LF        c <base64> <hex tag>LF
 *
 * Resume refuses a record whose tag does not verify: one forged,
 * substituted (the dealer secret S included), moved or appended by
 * anyone without the dealer's secret key.
 *
 * A call writes its record to PATH.secrets, fsyncs, then its lines to
 * PATH, fsyncs, and only then returns.  The record goes first, so that a
 * line on disk never lacks what the dealer needs to go on (a card's
 * value).  On a write failure both files are cut back to their lengths
 * before the call and the recorder is undone to the call's mark (rec.c,
 * "One undo").
 *
 * Resume rebuilds the recorder from the first record and replays the
 * calls (the recorder is deterministic given S, the id and the calls);
 * PATH must then be a prefix of the text rebuilt, and what it lacks (the
 * lines of a call that crashed after its record) is written again.
 *
 * A recorder holds an exclusive flock(2) of PATH for its life, taken
 * before anything is read: a second recorder (another host) resuming the
 * same journal is refused with RPL_E_BUSY.  rpl_rec_close() appends the
 * record "closed" ('x'), after which the journal is never resumed.
 */
/* flock(2): a lock of the open file, not of the process (fcntl's). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "rec.h"

static const char *
errno_text(int e, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", strerror(e));
    return buf;
}

/* The start of a call that records: the recorder is marked (rec.c). */
static enum rpl_status
rec_begin(struct rpl_recorder *rec, struct rpl_error *err)
{
    rec->cmd.len = 0;
    rec->cmd.failed = false;
    if (rec->is_closed)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the recorder is closed: its game was written");
    if (rec->jfd >= 0 && !rec->is_replaying && rec->is_broken)
        return rpl__err(err, RPL_E_IO, 0,
                        "the journal could not be repaired after a write "
                        "failure");
    rpl__rec_mark(rec);
    return RPL_OK;
}

static void
rec_cmd(struct rpl_recorder *rec, unsigned type, size_t seat,
        const uint8_t *sig, const void *data, size_t len, const void *data2,
        size_t len2)
{
    uint8_t hdr[4 + 64 + 8];

    if (rec->jfd < 0 || rec->is_replaying)
        return;
    /* type, seat, has_sig, 0, sig[64], len le32, len2 le32, data, data2 */
    memset(hdr, 0, sizeof(hdr));
    hdr[0] = (uint8_t)type;
    hdr[1] = (uint8_t)seat;
    hdr[2] = sig ? 1 : 0;
    if (sig)
        memcpy(hdr + 4, sig, 64);
    rpl__store_le32(hdr + 68, (uint32_t)len);
    rpl__store_le32(hdr + 72, (uint32_t)len2);
    rpl__buf_add(&rec->cmd, (const char *)hdr, sizeof(hdr));
    if (len)
        rpl__buf_add(&rec->cmd, data, len);
    if (len2)
        rpl__buf_add(&rec->cmd, data2, len2);
}

static enum rpl_status
write_all(struct rpl_recorder *rec, int fd, const void *p, size_t len,
          const char *what, struct rpl_error *err)
{
    const uint8_t *b = p;
    char ebuf[128];

    while (len > 0) {
        const ssize_t n = rec->write_fn(fd, b, len);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return rpl__err(err, RPL_E_IO, 0, "cannot write the %s: %s", what,
                            n < 0 ? errno_text(errno, ebuf, sizeof(ebuf))
                                  : "nothing written");
        b += n;
        len -= (size_t)n;
    }
    if (!rec->is_nosync && fsync(fd) != 0)
        return rpl__err(err, RPL_E_IO, 0, "cannot fsync the %s: %s", what,
                        errno_text(errno, ebuf, sizeof(ebuf)));
    return RPL_OK;
}

/* A record's plaintext is le32(length) || payload || zero bytes, a
 * multiple of RECORD_BLOCK bytes: a record whose length depends on a
 * secret (a value of at most 191 bytes) fits in one block. */
#define RECORD_BLOCK 512u

/* The records' keys, from the dealer's X25519 secret x: the tags' K =
 * H(key = x, "camelog journal key") and the box's B = H(key = x,
 * "camelog journal box key").  A record is boxed with B by
 * XChaCha20-Poly1305: nonce (24 random bytes) || ciphertext || MAC, 40
 * bytes over the plaintext.  A record of a journal begun before (sealed
 * with crypto_box_seal to the dealer's X25519 public key, 48 bytes
 * over it: one X25519 exchange a record, a third of a host's work) is
 * still opened by resume: the length tells the two apart, plaintexts
 * being whole blocks. */
#define BOX_NONCE crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
#define BOX_BYTES (BOX_NONCE + crypto_aead_xchacha20poly1305_ietf_ABYTES)
static enum rpl_status
journal_keys(const struct rpl_seckey *dealer, uint8_t tag_key[32],
             uint8_t box_key[32], struct rpl_error *err)
{
    static const char tag_domain[] = "camelog journal key";
    static const char box_domain[] = "camelog journal box key";
    uint8_t *x_sk = sodium_malloc(32);
    enum rpl_status rc = RPL_OK;

    if (!x_sk)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    if (crypto_sign_ed25519_sk_to_curve25519(x_sk, dealer->sk) != 0) {
        rc = rpl__err(err, RPL_E_KEY, 0,
                      "the dealer key has no X25519 counterpart");
    } else {
        crypto_generichash(tag_key, 32, (const uint8_t *)tag_domain,
                           sizeof(tag_domain) - 1, x_sk, 32);
        crypto_generichash(box_key, 32, (const uint8_t *)box_domain,
                           sizeof(box_domain) - 1, x_sk, 32);
    }
    sodium_free(x_sk);
    return rc;
}

/* The chain's start: H(key = K, "camelog journal v2 header" || the
 * journal's header, its lines through commit), so that no record of
 * another game of the same dealer (its S) stands in this one's. */
static void
chain_start(const uint8_t key[32], const void *header, size_t len,
            uint8_t out[32])
{
    static const char domain[] = "camelog journal v2 header";
    crypto_generichash_state st;

    crypto_generichash_init(&st, key, 32, 32);
    crypto_generichash_update(&st, (const uint8_t *)domain, sizeof(domain) - 1);
    crypto_generichash_update(&st, header, len);
    crypto_generichash_final(&st, out, 32);
}

/* The length of the header of a journal's text: through the end of its
 * first commit line, or 0 when it has none. */
static size_t
header_len(const uint8_t *text, size_t len)
{
    size_t at = 0;

    while (at < len) {
        const uint8_t *lf = memchr(text + at, '\n', len - at);

        if (!lf)
            return 0;
        if (len - at > 7 && memcmp(text + at, "commit ", 7) == 0)
            return (size_t)(lf - text) + 1;
        at = (size_t)(lf - text) + 1;
    }
    return 0;
}

/* tag = H(key = K, "camelog journal v2" || previous tag || record's
 * letter || sealed bytes); the first record's previous tag is the
 * chain's start. */
static void
record_tag(const uint8_t key[32], const uint8_t prev[32], char letter,
           const uint8_t *c, size_t clen, uint8_t out[32])
{
    static const char domain[] = "camelog journal v2";
    crypto_generichash_state st;

    crypto_generichash_init(&st, key, 32, 32);
    crypto_generichash_update(&st, (const uint8_t *)domain, sizeof(domain) - 1);
    crypto_generichash_update(&st, prev, 32);
    crypto_generichash_update(&st, (const uint8_t *)&letter, 1);
    crypto_generichash_update(&st, c, clen);
    crypto_generichash_final(&st, out, 32);
}

/* One record: letter, space, base64 of the sealed padded payload, space,
 * hexadecimal tag, LF. */
static enum rpl_status
write_record(struct rpl_recorder *rec, char tag, const void *payload,
             size_t len, size_t *written, struct rpl_error *err)
{
    const size_t plen =
        (4 + len + RECORD_BLOCK - 1) / RECORD_BLOCK * RECORD_BLOCK;
    const size_t clen = plen + BOX_BYTES;
    const size_t blen =
        sodium_base64_ENCODED_LEN(clen, sodium_base64_VARIANT_ORIGINAL);
    uint8_t *p = rpl__alloc(rec->ctx, plen);
    uint8_t *c = rpl__alloc(rec->ctx, clen);
    char *line = rpl__alloc(rec->ctx, blen + 2 + 1 + 64 + 1);
    uint8_t t[32];
    enum rpl_status rc = RPL_OK;
    size_t n;

    *written = 0;
    if (!p || !c || !line) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    memset(p, 0, plen);
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(len >> (8 * i));
    if (len)
        memcpy(p + 4, payload, len);
    randombytes_buf(c, BOX_NONCE);
    crypto_aead_xchacha20poly1305_ietf_encrypt(c + BOX_NONCE, NULL, p, plen,
                                               NULL, 0, NULL, c, rec->jbox);
    record_tag(rec->jkey, rec->jtag, tag, c, clen, t);
    line[0] = tag;
    line[1] = ' ';
    sodium_bin2base64(line + 2, blen, c, clen, sodium_base64_VARIANT_ORIGINAL);
    n = strlen(line);
    line[n++] = ' ';
    rpl__hex(line + n, t, 32);
    n += 64;
    line[n++] = '\n';
    rc = write_all(rec, rec->sfd, line, n, "secrets file", err);
    if (rc == RPL_OK) {
        *written = n;
        memcpy(rec->jtag, t, 32);
    }
out:
    if (p) {
        sodium_memzero(p, plen);
        rpl__free(rec->ctx, p);
    }
    rpl__free(rec->ctx, c);
    rpl__free(rec->ctx, line);
    return rc;
}

/* The end of a call begun by rec_begin(): its journal record (cmd) and
 * lines written when rc is RPL_OK; on any failure, the call's or the
 * journal's, both files cut back and the recorder put back as the mark
 * found it. */
static enum rpl_status
rec_end(struct rpl_recorder *rec, enum rpl_status rc, struct rpl_refusal *why,
        struct rpl_error *err)
{
    size_t written = 0;

    if (!rec->mark.is_set) {
        rec->cmd.len = 0;
        return rc;
    }
    if (rec->jfd >= 0 && !rec->is_replaying) {
        if (rc == RPL_OK && rec->cmd.failed)
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        if (rc == RPL_OK && rec->cmd.len > 0)
            rc =
                write_record(rec, 'c', rec->cmd.p, rec->cmd.len, &written, err);
        if (rc == RPL_OK && rec->text.len > rec->journaled)
            rc = write_all(rec, rec->jfd, rec->text.p + rec->journaled,
                           rec->text.len - rec->journaled, "journal", err);
        if (rc == RPL_OK) {
            rec->journaled = rec->text.len;
            rec->secrets_len += (off_t)written;
        } else {
            if (err && err->code == RPL_E_IO && why) {
                snprintf(why->code, sizeof(why->code), "io");
                snprintf(why->text, sizeof(why->text),
                         "the journal could not be written: nothing was "
                         "accepted");
            }
            if (ftruncate(rec->sfd, rec->secrets_len) != 0 ||
                ftruncate(rec->jfd, (off_t)rec->journaled) != 0)
                rec->is_broken = true;
        }
    }
    if (rc != RPL_OK)
        rpl__rec_undo(rec);
    rpl__rec_unmark(rec);
    if (rec->cmd.p)
        sodium_memzero(rec->cmd.p, rec->cmd.cap);
    rec->cmd.len = 0;
    return rc;
}

/* ------------------------------------------------------ configuration */

static void
put_str(struct rpl__buf *b, const char *s)
{
    uint8_t n[4];
    const size_t len = s ? strlen(s) : 0;

    rpl__store_le32(n, (uint32_t)len);
    rpl__buf_add(b, (const char *)n, 4);
    if (len)
        rpl__buf_add(b, s, len);
}

/* The first record: what rpl__rec_make() needs, S included. */
static void
config_payload(const struct rpl_recorder *rec, const struct rpl_rec_config *cfg,
               struct rpl__buf *b)
{
    rpl__buf_add(b, "camelog journal 1", 17);
    rpl__buf_add(b, (const char *)rec->id, 16);
    rpl__buf_add(b, (const char *)rec->secret, 32);
    put_str(b, rec->game->name);
    put_str(b, cfg->rules);
    put_str(b, cfg->created);
    rpl__buf_add(b, (const char *)&(uint8_t){(uint8_t)rec->seats}, 1);
    for (size_t k = 1; k <= rec->seats; k++) {
        put_str(b, rec->names[k]);
        rpl__buf_add(b, (const char *)&(uint8_t){rec->has_seat_key[k]}, 1);
        rpl__buf_add(b, (const char *)rec->seat_key[k].id, 8);
        rpl__buf_add(b, (const char *)rec->seat_key[k].key, 32);
    }
}

static enum rpl_status
fsync_dir(struct rpl_ctx *ctx, const char *path, struct rpl_error *err)
{
    char *dir = rpl__strndup(ctx, path, strlen(path));
    char *slash;
    int fd;
    char ebuf[128];
    enum rpl_status rc = RPL_OK;

    if (!dir)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, strlen(dir) + 1, ".");
    else if (slash == dir)
        slash[1] = '\0';
    else
        *slash = '\0';
    fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0)
        rc = rpl__err(err, RPL_E_IO, 0, "cannot fsync the directory: %s",
                      errno_text(errno, ebuf, sizeof(ebuf)));
    if (fd >= 0)
        close(fd);
    rpl__free(ctx, dir);
    return rc;
}

static char *
secrets_path(struct rpl_ctx *ctx, const char *path)
{
    const size_t n = strlen(path);
    char *p = rpl__alloc(ctx, n + sizeof(".secrets"));

    if (p) {
        memcpy(p, path, n);
        memcpy(p + n, ".secrets", sizeof(".secrets"));
    }
    return p;
}

static enum rpl_status
rec_journal_open(struct rpl_recorder *rec, const struct rpl_rec_config *cfg,
                 struct rpl_error *err)
{
    struct rpl__buf b;
    char *spath = NULL;
    char ebuf[128];
    size_t written = 0;
    enum rpl_status rc;

    if (cfg->import_source)
        return rpl__err(err, RPL_E_ARG, 0, "an imported game has no journal");
    rc = journal_keys(rec->dealer, rec->jkey, rec->jbox, err);
    if (rc != RPL_OK)
        return rc;
    chain_start(rec->jkey, rec->text.p, rec->text.len, rec->jtag);
    spath = secrets_path(rec->ctx, cfg->journal);
    rec->jpath = rpl__strndup(rec->ctx, cfg->journal, strlen(cfg->journal));
    if (!spath || !rec->jpath) {
        rpl__free(rec->ctx, spath);
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    rec->jfd =
        open(cfg->journal, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (rec->jfd < 0) {
        const int e = errno;

        rpl__free(rec->ctx, spath);
        return rpl__err(err, e == EEXIST ? RPL_E_EXISTS : RPL_E_IO, 0,
                        "cannot create the journal: %s",
                        errno_text(e, ebuf, sizeof(ebuf)));
    }
    if (flock(rec->jfd, LOCK_EX | LOCK_NB) != 0) {
        rc = rpl__err(err, errno == EWOULDBLOCK ? RPL_E_BUSY : RPL_E_IO, 0,
                      "cannot lock the journal: %s",
                      errno_text(errno, ebuf, sizeof(ebuf)));
        goto out;
    }
    rec->sfd = open(spath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (rec->sfd < 0) {
        const int e = errno;

        rc = rpl__err(err, e == EEXIST ? RPL_E_EXISTS : RPL_E_IO, 0,
                      "cannot create the secrets file %s: %s", spath,
                      errno_text(e, ebuf, sizeof(ebuf)));
        goto out;
    }
    rpl__buf_init(&b, rec->ctx);
    config_payload(rec, cfg, &b);
    rc = b.failed ? rpl__err(err, RPL_E_NOMEM, 0, "out of memory") : RPL_OK;
    if (rc == RPL_OK)
        rc = write_record(rec, 's', b.p, b.len, &written, err);
    if (b.p)
        sodium_memzero(b.p, b.cap);
    rpl__buf_release(&b);
    if (rc == RPL_OK)
        rc = write_all(rec, rec->jfd, rec->text.p, rec->text.len, "journal",
                       err);
    if (rc == RPL_OK)
        rc = fsync_dir(rec->ctx, cfg->journal, err);
    if (rc == RPL_OK) {
        rec->journaled = rec->text.len;
        rec->secrets_len = (off_t)written;
    }
out:
    if (rc != RPL_OK) {
        if (rec->sfd >= 0) {
            close(rec->sfd);
            unlink(spath);
        }
        close(rec->jfd);
        unlink(cfg->journal);
        rec->jfd = rec->sfd = -1;
    }
    rpl__free(rec->ctx, spath);
    return rc;
}

/* -------------------------------------------------------------- resume */

/* A cursor over a record's payload. */
struct cur {
    const uint8_t *p;
    size_t left;
    bool bad;
};

static const uint8_t *
take(struct cur *c, size_t n)
{
    const uint8_t *p = c->p;

    if (c->bad || n > c->left) {
        c->bad = true;
        return NULL;
    }
    c->p += n;
    c->left -= n;
    return p;
}

/* A length-prefixed string into out (cap bytes with the NUL). */
static bool
take_str(struct cur *c, char *out, size_t cap)
{
    const uint8_t *n = take(c, 4);
    const uint8_t *s;
    size_t len;

    if (!n)
        return false;
    len = rpl__load_le32(n);
    if (len >= cap || !(s = take(c, len))) {
        c->bad = true;
        return false;
    }
    memcpy(out, s, len);
    out[len] = '\0';
    return true;
}

/* Opens one record line (without LF): tag and payload (sodium_malloc'ed,
 * *len bytes). */
static enum rpl_status
open_record(struct rpl_ctx *ctx, const char *line, size_t n,
            const uint8_t x_pk[32], const uint8_t *x_sk, const uint8_t key[32],
            const uint8_t *box, uint8_t chain[32], char *tag, uint8_t **out,
            size_t *len, size_t no, struct rpl_error *err)
{
    uint8_t *c = NULL;
    uint8_t want[32], got[32];
    size_t clen = 0, plen, vlen = 0;
    bool is_sealed = false;
    struct rpl__tok t;
    enum rpl_status rc = RPL_OK;

    *out = NULL;
    if (n < 3 + 65 || line[1] != ' ' || line[n - 65] != ' ' ||
        (line[0] != 's' && line[0] != 'c'))
        return rpl__err(err, RPL_E_SYNTAX, no,
                        "secrets file record %zu: expected \"s|c <base64> "
                        "<hex tag>\"",
                        no);
    *tag = line[0];
    t.p = line + n - 64;
    t.n = 64;
    if (!rpl__tok_hex(&t, want, sizeof(want)))
        return rpl__err(err, RPL_E_SYNTAX, no,
                        "secrets file record %zu: its tag is not 64 hex "
                        "digits",
                        no);
    c = rpl__alloc(ctx, n);
    if (!c)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    if (sodium_base642bin(c, n, line + 2, n - 2 - 65, NULL, &clen, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        clen < BOX_BYTES + RECORD_BLOCK) {
        rc = rpl__err(err, RPL_E_SYNTAX, no,
                      "secrets file record %zu: bad base64", no);
        goto out;
    }
    is_sealed = clen % RECORD_BLOCK == crypto_box_SEALBYTES;
    plen = clen - (is_sealed ? crypto_box_SEALBYTES : BOX_BYTES);
    if (plen % RECORD_BLOCK != 0) {
        rc = rpl__err(err, RPL_E_SYNTAX, no,
                      "secrets file record %zu: its length is no whole "
                      "number of blocks",
                      no);
        goto out;
    }
    /* The tag first: a record the dealer's key did not make is refused
     * before anything in it is used. */
    record_tag(key, chain, *tag, c, clen, got);
    if (sodium_memcmp(got, want, 32) != 0) {
        rc = rpl__err(err, RPL_E_KEY, no,
                      "secrets file record %zu is not the dealer's: its tag "
                      "does not verify (a record forged, substituted, moved "
                      "or added without the dealer's secret key)",
                      no);
        goto out;
    }
    *out = sodium_malloc(plen + 1);
    if (!*out) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    if (is_sealed ? crypto_box_seal_open(*out, c, clen, x_pk, x_sk) != 0
                  : crypto_aead_xchacha20poly1305_ietf_decrypt(
                        *out, NULL, NULL, c + BOX_NONCE, clen - BOX_NONCE, NULL,
                        0, c, box) != 0) {
        sodium_free(*out);
        *out = NULL;
        rc = rpl__err(err, RPL_E_KEY, no,
                      "secrets file record %zu does not open with this "
                      "dealer key",
                      no);
        goto out;
    }
    for (int i = 0; i < 4; i++)
        vlen |= (size_t)(*out)[i] << (8 * i);
    if (vlen > plen - 4) {
        sodium_free(*out);
        *out = NULL;
        rc = rpl__err(err, RPL_E_SYNTAX, no,
                      "secrets file record %zu: bad padding", no);
        goto out;
    }
    memmove(*out, *out + 4, vlen);
    *len = vlen;
    memcpy(chain, got, 32);
out:
    rpl__free(ctx, c);
    return rc;
}

/* The recorder of the first record, without journal. */
static enum rpl_status
from_config(struct rpl_ctx *ctx, struct rpl_recorder **out, const uint8_t *p,
            size_t len, const struct rpl_seckey *dealer, struct rpl_error *err)
{
    struct cur c = {p, len, false};
    char game[64], rules[RPL_MAX_LINE + 1], created[64];
    char names[RPL_MAX_SEATS][RPL_MAX_NAME + 1];
    const char *name_ptrs[RPL_MAX_SEATS];
    struct rpl_pubkey keys[RPL_MAX_SEATS];
    const struct rpl_pubkey *key_ptrs[RPL_MAX_SEATS];
    struct rpl_rec_config cfg;
    uint8_t id[16], secret[32];
    const uint8_t *m = take(&c, 17);
    const uint8_t *q;
    size_t seats;
    enum rpl_status rc;

    if (!m || memcmp(m, "camelog journal 1", 17) != 0)
        return rpl__err(err, RPL_E_UNSUPPORTED, 1,
                        "secrets file: not a camelog journal 1");
    if ((q = take(&c, 16)))
        memcpy(id, q, 16);
    if ((q = take(&c, 32)))
        memcpy(secret, q, 32);
    take_str(&c, game, sizeof(game));
    take_str(&c, rules, sizeof(rules));
    take_str(&c, created, sizeof(created));
    q = take(&c, 1);
    seats = q ? *q : 0;
    if (seats == 0 || seats > RPL_MAX_SEATS)
        c.bad = true;
    memset(&cfg, 0, sizeof(cfg));
    for (size_t k = 0; !c.bad && k < seats; k++) {
        const uint8_t *has;

        take_str(&c, names[k], sizeof(names[k]));
        name_ptrs[k] = names[k];
        has = take(&c, 1);
        if ((q = take(&c, 40))) {
            memcpy(keys[k].id, q, 8);
            memcpy(keys[k].key, q + 8, 32);
        }
        key_ptrs[k] = has && *has ? &keys[k] : NULL;
    }
    if (c.bad || c.left != 0) {
        sodium_memzero(secret, sizeof(secret));
        return rpl__err(err, RPL_E_SYNTAX, 1,
                        "secrets file: the configuration record is "
                        "malformed");
    }
    cfg.game = game;
    cfg.rules = rules;
    cfg.seats = seats;
    cfg.names = name_ptrs;
    cfg.seat_keys = key_ptrs;
    cfg.dealer = dealer;
    cfg.id = id;
    cfg.secret = secret;
    cfg.created = created[0] ? created : NULL;
    rc = rpl__rec_make(ctx, out, &cfg, err);
    sodium_memzero(secret, sizeof(secret));
    return rc;
}

/* Replays one call record. */
static enum rpl_status
replay(struct rpl_recorder *rec, const uint8_t *p, size_t len, size_t no,
       struct rpl_error *err)
{
    struct rpl_refusal why;
    struct rpl__emit e;
    const uint8_t *sig;
    size_t l1, l2;
    const char *d1, *d2;
    enum rpl_status rc = RPL_OK;

    if (len < 76)
        return rpl__err(err, RPL_E_SYNTAX, no, "secrets file: short record");
    sig = p[2] ? p + 4 : NULL;
    l1 = rpl__load_le32(p + 68);
    l2 = rpl__load_le32(p + 72);
    if (l1 > len - 76 || l2 != len - 76 - l1 || l1 > RPL_MAX_LINE)
        return rpl__err(err, RPL_E_SYNTAX, no, "secrets file: bad lengths");
    d1 = (const char *)p + 76;
    d2 = d1 + l1;
    memset(&e, 0, sizeof(e));
    switch (p[0]) {
    case RPL__CMD_SUBMIT: {
        char action[RPL_MAX_LINE + 1];

        memcpy(action, d1, l1);
        action[l1] = '\0';
        rc = rpl__rec_submit(rec, p[1], action, sig, &why, err);
        sodium_memzero(action, sizeof(action));
        break;
    }
    case RPL__CMD_ENTROPY_SUB:
    case RPL__CMD_ENTROPY:
        if (l1 != 32)
            return rpl__err(err, RPL_E_SYNTAX, no, "secrets file: entropy");
        rc = p[0] == RPL__CMD_ENTROPY
                 ? rpl__rec_entropy_line(rec, p[1], (const uint8_t *)d1, NULL,
                                         sig, NULL, err)
                 : rpl__rec_submit_entropy(rec, p[1], (const uint8_t *)d1, sig,
                                           &why, err);
        break;
    case RPL__CMD_PLEDGE:
        if (l1 != 32)
            return rpl__err(err, RPL_E_SYNTAX, no, "secrets file: pledge");
        rc = rpl__rec_pledge(rec, p[1], (const uint8_t *)d1, NULL, sig, NULL,
                             &why, err);
        break;
    case RPL__CMD_PLEDGED:
        rc = rpl__rec_pledged(rec, &why, err);
        break;
    case RPL__CMD_ABANDON:
        rc = rpl__rec_abandon(rec, p[1], &why, err);
        break;
    case RPL__CMD_SIGN:
        rc = sig ? rpl__rec_sign(rec, p[1], sig, &why, err)
                 : rpl__err(err, RPL_E_SYNTAX, no, "secrets file: sign");
        break;
    case RPL__CMD_START:
        rc = rpl__rec_start(rec, err);
        break;
    case RPL__CMD_EMIT:
    case RPL__CMD_BOT_MOVE: {
        const char *nul = memchr(d2, '\0', l2);

        if (l1 >= sizeof(e.line) || !nul ||
            (size_t)(nul - d2) >= sizeof(e.label) ||
            l2 - (size_t)(nul - d2) - 1 >= sizeof(e.value))
            return rpl__err(err, RPL_E_SYNTAX, no, "secrets file: move");
        memcpy(e.line, d1, l1);
        memcpy(e.label, d2, (size_t)(nul - d2));
        memcpy(e.value, nul + 1, l2 - (size_t)(nul - d2) - 1);
        rc = rpl__rec_write_emit(rec, &e, true, NULL, sig, NULL, err);
        if (rc == RPL_OK)
            rc = rpl__rec_drain(rec, err);
        if (rc == RPL_OK && p[0] == RPL__CMD_BOT_MOVE)
            rec->moves++;
        break;
    }
    case RPL__CMD_ABORT:
        rc = rpl__rec_abort(rec, err);
        break;
    case RPL__CMD_SEAL:
        rc = rpl__rec_seal(rec, err);
        break;
    case RPL__CMD_REVEAL:
        rc = rpl__rec_reveal(rec, err);
        break;
    default:
        rc = rpl__err(err, RPL_E_SYNTAX, no, "secrets file: unknown record");
    }
    sodium_memzero(&e, sizeof(e));
    return rc;
}

/* Opens a file of the journal for resume: never through a symbolic link
 * (O_NOFOLLOW: a planted link to another file is not truncated), a
 * regular file only; the journal is locked before it is read. */
static enum rpl_status
open_part(const char *path, const char *what, bool lock, int *fd,
          struct rpl_error *err)
{
    struct stat st;
    char ebuf[128];

    do {
        *fd = open(path, O_RDWR | O_APPEND | O_NOFOLLOW | O_NOCTTY |
                             O_NONBLOCK | O_CLOEXEC);
    } while (*fd < 0 && errno == EINTR);
    if (*fd < 0)
        return rpl__err(err, RPL_E_IO, 0, "cannot open the %s: %s", what,
                        errno == ELOOP ? "it is a symbolic link"
                                       : errno_text(errno, ebuf, sizeof(ebuf)));
    if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode))
        return rpl__err(err, RPL_E_IO, 0, "the %s is not a regular file", what);
    if (lock && flock(*fd, LOCK_EX | LOCK_NB) != 0)
        return rpl__err(err, errno == EWOULDBLOCK ? RPL_E_BUSY : RPL_E_IO, 0,
                        "the journal is held by another recorder (a live "
                        "host): %s",
                        errno_text(errno, ebuf, sizeof(ebuf)));
    return RPL_OK;
}

/* The whole of an open file, at most max bytes. */
static enum rpl_status
read_part(struct rpl_ctx *ctx, int fd, const char *what, size_t max,
          uint8_t **out, size_t *len, struct rpl_error *err)
{
    struct stat st;
    size_t have = 0, cap;
    char ebuf[128];

    *out = NULL;
    *len = 0;
    if (fstat(fd, &st) != 0)
        return rpl__err(err, RPL_E_IO, 0, "cannot stat the %s: %s", what,
                        errno_text(errno, ebuf, sizeof(ebuf)));
    if (st.st_size < 0 || (uintmax_t)st.st_size > max)
        return rpl__err(err, RPL_E_LIMIT, 0,
                        "the %s is over the %zu-byte limit", what, max);
    cap = (size_t)st.st_size + 1;
    *out = rpl__alloc(ctx, cap);
    if (!*out)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    for (;;) {
        const ssize_t n = pread(fd, *out + have, cap - have, (off_t)have);

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return rpl__err(err, RPL_E_IO, 0, "cannot read the %s: %s", what,
                            errno_text(errno, ebuf, sizeof(ebuf)));
        if (n == 0)
            break;
        have += (size_t)n;
        if (have == cap)
            return rpl__err(err, RPL_E_IO, 0, "the %s grew while read", what);
    }
    *len = have;
    return RPL_OK;
}

/* The length of text up to and including its last LF. */
static size_t
whole_lines(const uint8_t *p, size_t len)
{
    while (len > 0 && p[len - 1] != '\n')
        len--;
    return len;
}

enum rpl_status
rpl_rec_resume(struct rpl_ctx *ctx, struct rpl_recorder **out,
               const char *journal, const struct rpl_seckey *dealer,
               struct rpl_error *err)
{
    struct rpl_recorder *rec = NULL;
    uint8_t *jtext = NULL, *stext = NULL, *payload = NULL;
    size_t jlen = 0, slen = 0, plen = 0, pos = 0, no = 0;
    uint8_t x_pk[32];
    uint8_t *x_sk = NULL;
    uint8_t jkey[32], jbox[32], chain[32];
    struct rpl_pubkey pk;
    char *spath = NULL;
    char ebuf[128];
    int jfd = -1, sfd = -1;
    bool is_closed = false;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    spath = secrets_path(ctx, journal);
    x_sk = sodium_malloc(32);
    if (!spath || !x_sk) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    rpl_seckey_pubkey(dealer, &pk);
    if (crypto_sign_ed25519_pk_to_curve25519(x_pk, pk.key) != 0 ||
        crypto_sign_ed25519_sk_to_curve25519(x_sk, dealer->sk) != 0) {
        rc = rpl__err(err, RPL_E_KEY, 0,
                      "the dealer key has no X25519 counterpart");
        goto out;
    }
    rc = journal_keys(dealer, jkey, jbox, err);
    if (rc != RPL_OK)
        goto out;
    rc = open_part(journal, "journal", true, &jfd, err);
    if (rc == RPL_OK)
        rc = open_part(spath, "secrets file", false, &sfd, err);
    if (rc == RPL_OK)
        rc = read_part(ctx, jfd, "journal", RPL_MAX_TEXT, &jtext, &jlen, err);
    if (rc == RPL_OK)
        rc = read_part(ctx, sfd, "secrets file", RPL_MAX_TEXT, &stext, &slen,
                       err);
    if (rc != RPL_OK)
        goto out;
    /* A torn last line or record is dropped. */
    jlen = whole_lines(jtext, jlen);
    slen = whole_lines(stext, slen);
    {
        const size_t hl = header_len(jtext, jlen);

        if (hl == 0) {
            rc = rpl__err(err, RPL_E_SYNTAX, 0,
                          "the journal has no header through its commit "
                          "line");
            goto out;
        }
        chain_start(jkey, jtext, hl, chain);
    }
    while (rc == RPL_OK && pos < slen) {
        const char *line = (const char *)stext + pos;
        const char *lf = memchr(line, '\n', slen - pos);
        const size_t n = (size_t)(lf - line);
        char tag = 0;

        no++;
        rc = open_record(ctx, line, n, x_pk, x_sk, jkey, jbox, chain, &tag,
                         &payload, &plen, no, err);
        if (rc == RPL_OK && (tag == 's') != (no == 1))
            rc = rpl__err(err, RPL_E_SYNTAX, no,
                          "secrets file: the configuration comes first, "
                          "once");
        if (rc == RPL_OK && tag == 's') {
            rc = from_config(ctx, &rec, payload, plen, dealer, err);
            if (rc == RPL_OK) {
                rec->is_replaying = true;
                memcpy(rec->jbox, jbox, 32);
            }
        } else if (rc == RPL_OK && plen >= 1 && payload[0] == RPL__CMD_CLOSE) {
            is_closed = true;
        } else if (rc == RPL_OK) {
            rc = replay(rec, payload, plen, no, err);
            if (rc != RPL_OK && err)
                snprintf(err->msg, sizeof(err->msg),
                         "secrets file record %zu does not replay", no);
        }
        if (payload)
            sodium_free(payload);
        payload = NULL;
        pos += n + 1;
    }
    if (rc == RPL_OK && !rec)
        rc = rpl__err(err, RPL_E_INCOMPLETE, 0,
                      "the secrets file holds no configuration");
    if (rc == RPL_OK && is_closed)
        rc = rpl__err(err, RPL_E_STATE, 0,
                      "the journal is closed: its game was written");
    if (rc != RPL_OK)
        goto out;
    if (jlen > rec->text.len || memcmp(jtext, rec->text.p, jlen) != 0) {
        rc = rpl__err(err, RPL_E_SYNTAX, 0,
                      "the journal does not match its secrets file");
        goto out;
    }
    rec->is_replaying = false;
    memcpy(rec->jkey, jkey, 32);
    memcpy(rec->jtag, chain, 32);
    rec->jpath = rpl__strndup(ctx, journal, strlen(journal));
    if (!rec->jpath) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    rec->jfd = jfd;
    rec->sfd = sfd;
    jfd = sfd = -1;
    if (ftruncate(rec->jfd, (off_t)jlen) != 0 ||
        ftruncate(rec->sfd, (off_t)slen) != 0) {
        rc = rpl__err(err, RPL_E_IO, 0, "cannot reopen the journal: %s",
                      errno_text(errno, ebuf, sizeof(ebuf)));
        goto out;
    }
    rec->journaled = jlen;
    rec->secrets_len = (off_t)slen;
    if (rec->text.len > jlen) {
        rc = write_all(rec, rec->jfd, rec->text.p + jlen, rec->text.len - jlen,
                       "journal", err);
        if (rc == RPL_OK)
            rec->journaled = rec->text.len;
    }
out:
    if (rc != RPL_OK) {
        rpl_rec_free(rec);
        rec = NULL;
    }
    if (jfd >= 0)
        close(jfd);
    if (sfd >= 0)
        close(sfd);
    if (x_sk)
        sodium_free(x_sk);
    sodium_memzero(jkey, sizeof(jkey));
    sodium_memzero(jbox, sizeof(jbox));
    if (stext) {
        sodium_memzero(stext, slen);
        rpl__free(ctx, stext);
    }
    rpl__free(ctx, jtext);
    rpl__free(ctx, spath);
    *out = rec;
    return rc;
}

/* ------------------------------------------------ the calls that record */

/* The frame of every public call that changes the recorder: a refusal
 * or failure changes nothing, the journal included.  call_begin() clears
 * err and why and marks the recorder; call_end() adds the journal record
 * of cmd (seat, sig, data[0..len)) when rc is RPL_OK and writes the
 * journal, or undoes the call. */
static enum rpl_status
call_begin(struct rpl_recorder *rec, struct rpl_refusal *why,
           struct rpl_error *err)
{
    rpl__err_clear(err);
    if (why)
        memset(why, 0, sizeof(*why));
    return rec_begin(rec, err);
}

static enum rpl_status
call_end(struct rpl_recorder *rec, enum rpl_status rc, unsigned cmd,
         size_t seat, const uint8_t *sig, const void *data, size_t len,
         struct rpl_refusal *why, struct rpl_error *err)
{
    if (rc == RPL_OK)
        rec_cmd(rec, cmd, seat, sig, data, len, NULL, 0);
    return rec_end(rec, rc, why, err);
}

enum rpl_status
rpl_rec_new(struct rpl_ctx *ctx, struct rpl_recorder **out,
            const struct rpl_rec_config *cfg, struct rpl_error *err)
{
    struct rpl_recorder *rec = NULL;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    rc = rpl__rec_make(ctx, &rec, cfg, err);
    if (rc == RPL_OK && cfg->journal)
        rc = rec_journal_open(rec, cfg, err);
    if (rc != RPL_OK) {
        rpl_rec_free(rec);
        return rc;
    }
    *out = rec;
    return RPL_OK;
}

enum rpl_status
rpl_rec_entropy(struct rpl_recorder *rec, size_t seat,
                const uint8_t entropy[32], const struct rpl_seckey *seat_sk,
                struct rpl_error *err)
{
    uint8_t sig[64];
    enum rpl_status rc = call_begin(rec, NULL, err);

    for (size_t k = 1; rc == RPL_OK && k <= rec->seats; k++)
        if (rec->pre.has_sub_entropy[k])
            rc = rpl__err(err, RPL_E_STATE, 0,
                          "entropy was submitted: use "
                          "rpl_rec_submit_entropy()");
    if (rc == RPL_OK)
        rc = rpl__rec_entropy_line(rec, seat, entropy, seat_sk, NULL, sig, err);
    rc = call_end(rec, rc, RPL__CMD_ENTROPY, seat, seat_sk ? sig : NULL,
                  entropy, 32, NULL, err);
    sodium_memzero(sig, sizeof(sig));
    return rc;
}

enum rpl_status
rpl_rec_pledge(struct rpl_recorder *rec, size_t seat, const uint8_t pledge[32],
               const struct rpl_seckey *seat_sk, const uint8_t *sig,
               struct rpl_refusal *why, struct rpl_error *err)
{
    uint8_t made[64];
    enum rpl_status rc = call_begin(rec, why, err);

    if (rc == RPL_OK)
        rc = rpl__rec_pledge(rec, seat, pledge, seat_sk, sig, made, why, err);
    rc = call_end(rec, rc, RPL__CMD_PLEDGE, seat, seat_sk || sig ? made : NULL,
                  pledge, 32, why, err);
    sodium_memzero(made, sizeof(made));
    return rc;
}

enum rpl_status
rpl_rec_pledged(struct rpl_recorder *rec, struct rpl_refusal *why,
                struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, why, err);

    if (rc == RPL_OK)
        rc = rpl__rec_pledged(rec, why, err);
    return call_end(rec, rc, RPL__CMD_PLEDGED, 0, NULL, NULL, 0, why, err);
}

enum rpl_status
rpl_rec_abandon(struct rpl_recorder *rec, size_t seat, struct rpl_refusal *why,
                struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, why, err);

    if (rc == RPL_OK)
        rc = rpl__rec_abandon(rec, seat, why, err);
    return call_end(rec, rc, RPL__CMD_ABANDON, seat, NULL, NULL, 0, why, err);
}

enum rpl_status
rpl_entropy_pledge(const uint8_t id[16], size_t seat, const uint8_t value[32],
                   uint8_t out[32])
{
    if (seat == 0 || seat > RPL_MAX_SEATS)
        return RPL_E_ARG;
    rpl__pledge(out, id, seat, value);
    return RPL_OK;
}

enum rpl_status
rpl_rec_start(struct rpl_recorder *rec, struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, NULL, err);

    if (rc == RPL_OK)
        rc = rpl__rec_start(rec, err);
    return call_end(rec, rc, RPL__CMD_START, 0, NULL, NULL, 0, NULL, err);
}

/* The record of an emit written by rpl_rec_act() or rpl_rec_bot(). */
static void
emit_cmd(struct rpl_recorder *rec, unsigned type, const struct rpl__emit *e,
         const uint8_t *sig)
{
    char lv[sizeof(e->label) + sizeof(e->value)];
    const size_t ll = strlen(e->label);
    const size_t vl = strlen(e->value);

    memcpy(lv, e->label, ll + 1);
    memcpy(lv + ll + 1, e->value, vl);
    rec_cmd(rec, type, 0, sig, e->line, strlen(e->line), lv, ll + 1 + vl);
    sodium_memzero(lv, sizeof(lv));
}

/* What rpl_rec_act() and rpl_rec_bot() check before a move. */
static enum rpl_status
move_need(struct rpl_recorder *rec, struct rpl_error *err)
{
    if (rec->nqueue > 0)
        return rpl__err(err, RPL_E_STATE, 0,
                        "submissions are queued: use rpl_rec_submit()");
    return rpl__rec_need_play(rec, err);
}

/* A move's line, signed with seat_sk when given, its record (type) and
 * the dealer's lines after it. */
static enum rpl_status
move_write(struct rpl_recorder *rec, unsigned type, const struct rpl__emit *e,
           const struct rpl_seckey *seat_sk, struct rpl_error *err)
{
    const size_t lines = rec->nlines;
    uint8_t sig[64];
    enum rpl_status rc;

    rc = rpl__rec_write_emit(rec, e, true, seat_sk, NULL, sig, err);
    if (rc == RPL_OK)
        emit_cmd(rec, type, e,
                 seat_sk && rec->nlines == lines + 2 ? sig : NULL);
    if (rc == RPL_OK)
        rc = rpl__rec_drain(rec, err);
    return rc;
}

enum rpl_status
rpl_rec_act(struct rpl_recorder *rec, const char *action,
            const struct rpl_seckey *seat_sk, struct rpl_error *err)
{
    struct rpl__emit e;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = rec_begin(rec, err);
    if (rc != RPL_OK)
        return rc;
    rc = move_need(rec, err);
    if (rc == RPL_OK)
        rc = rec->game->live->action(rec->st, &rec->env, action, &e, err);
    if (rc == RPL_OK)
        rc = move_write(rec, RPL__CMD_EMIT, &e, seat_sk, err);
    sodium_memzero(&e, sizeof(e));
    return rec_end(rec, rc, NULL, err);
}

enum rpl_status
rpl_rec_bot(struct rpl_recorder *rec, enum rpl_bot bot, const uint8_t seed[32],
            const struct rpl_seckey *seat_sk, struct rpl_error *err)
{
    static const char label[] = "camelog bot move ";
    uint8_t msg[sizeof(label) - 1 + 8];
    uint8_t key[RPL__HASH];
    struct rpl__stream rng;
    struct rpl__emit e;
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = rec_begin(rec, err);
    if (rc != RPL_OK)
        return rc;
    rc = move_need(rec, err);
    if (rc != RPL_OK)
        return rec_end(rec, rc, NULL, err);
    memcpy(msg, label, sizeof(label) - 1);
    rpl__store_le64(msg + sizeof(label) - 1, rec->moves);
    rpl__hash(key, seed, msg, sizeof(msg));
    rpl__stream_init_key(&rng, key);
    sodium_memzero(key, sizeof(key));
    rc = rec->game->live->bot(rec->st, &rec->env, bot, &rng, &e, err);
    rpl__stream_wipe(&rng);
    if (rc == RPL_OK)
        rc = move_write(rec, RPL__CMD_BOT_MOVE, &e, seat_sk, err);
    if (rc == RPL_OK)
        rec->moves++;
    sodium_memzero(&e, sizeof(e));
    return rec_end(rec, rc, NULL, err);
}

enum rpl_status
rpl_rec_abort(struct rpl_recorder *rec, struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, NULL, err);

    if (rc == RPL_OK)
        rc = rpl__rec_abort(rec, err);
    return call_end(rec, rc, RPL__CMD_ABORT, 0, NULL, NULL, 0, NULL, err);
}

enum rpl_status
rpl_rec_seal(struct rpl_recorder *rec, struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, NULL, err);

    if (rc == RPL_OK && !rec->started)
        rc = rpl__err(err, RPL_E_STATE, 0,
                      "a seal comes after the start: the game has not "
                      "started");
    if (rc == RPL_OK)
        rc = rpl__rec_seal(rec, err);
    return call_end(rec, rc, RPL__CMD_SEAL, 0, NULL, NULL, 0, NULL, err);
}

enum rpl_status
rpl_rec_close(struct rpl_recorder *rec, struct rpl_error *err)
{
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = rec_begin(rec, err);
    if (rc == RPL_OK)
        rec_cmd(rec, RPL__CMD_CLOSE, 0, NULL, NULL, 0, NULL, 0);
    rc = rec_end(rec, rc, NULL, err);
    if (rc == RPL_OK)
        rec->is_closed = true;
    return rc;
}

enum rpl_status
rpl_rec_reveal(struct rpl_recorder *rec, struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, NULL, err);

    if (rc == RPL_OK)
        rc = rpl__rec_reveal(rec, err);
    return call_end(rec, rc, RPL__CMD_REVEAL, 0, NULL, NULL, 0, NULL, err);
}

enum rpl_status
rpl_rec_submit(struct rpl_recorder *rec, size_t seat, const char *action,
               const uint8_t *sig, struct rpl_refusal *why,
               struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, why, err);

    if (rc == RPL_OK)
        rc = rpl__rec_submit(rec, seat, action, sig, why, err);
    return call_end(rec, rc, RPL__CMD_SUBMIT, seat, sig, action, strlen(action),
                    why, err);
}

enum rpl_status
rpl_rec_submit_entropy(struct rpl_recorder *rec, size_t seat,
                       const uint8_t entropy[32], const uint8_t *sig,
                       struct rpl_refusal *why, struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, why, err);

    if (rc == RPL_OK)
        rc = rpl__rec_submit_entropy(rec, seat, entropy, sig, why, err);
    return call_end(rec, rc, RPL__CMD_ENTROPY_SUB, seat, sig, entropy, 32, why,
                    err);
}

enum rpl_status
rpl_rec_sign(struct rpl_recorder *rec, size_t seat, const uint8_t sig[64],
             struct rpl_refusal *why, struct rpl_error *err)
{
    enum rpl_status rc = call_begin(rec, why, err);

    if (rc == RPL_OK)
        rc = rpl__rec_sign(rec, seat, sig, why, err);
    return call_end(rec, rc, RPL__CMD_SIGN, seat, sig, NULL, 0, why, err);
}

void
rpl_rec_set_fsync(struct rpl_recorder *rec, bool is_on)
{
    rec->is_nosync = !is_on;
}
