/*
 * store.c - a log directory (C2SP tlog-tiles): hash tiles
 * tile/<L>/<N>[.p/<W>], entry bundles tile/entries/<N>[.p/<W>] (each
 * entry a big-endian uint16 length and its bytes), the checkpoint, and
 * our own state file, camelog-tlog ("camelog tlog 1", "origin <o>",
 * "size <n>"), which is not served.
 *
 * An append writes every full tile and bundle it completes and the
 * partial ones at its new size, each to a temporary file beside it that
 * is synced and renamed, with its directory synced; then the state file,
 * the one commit point.  So a crash leaves the state at the last durable
 * append, whose partial tiles all exist, and a checkpoint (signed only
 * at the state's size) never covers a tile not yet written.  Partial
 * files of a tile are removed once its full tile is durable and the
 * state says so.
 *
 * The right edge of the tree (the hashes of each level's partial tile,
 * the entries of the partial bundle) stays in memory between appends and
 * is read back from disk on open; a tile emitter (the same code for
 * appending and for audits) walks the levels up.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tlog.h"

#define STATE_NAME "camelog-tlog"
#define BUNDLE_MAX (RPL__TILE_WIDTH * (2u + RPL_TLOG_ENTRY_MAX))
/* Longest path tail after the directory: "/tile/entries/" and seven
 * groups "x123/" and ".p/255" and room for a temporary name. */
#define TAIL_MAX 96

struct level {
    uint8_t h[RPL__TILE_WIDTH][32];
    unsigned n; /* hashes in h: the partial tile's width */
    bool is_dirty;
};

/* Builds the tiles of a tree from its leaf hashes, calling emit for
 * every full tile when it completes and, at flush, for every partial one
 * that changed. */
struct builder {
    struct level lv[RPL__TILE_LEVELS];
    uint64_t size; /* leaves pushed */
    enum rpl_status (*emit)(void *ud, unsigned level, uint64_t index,
                            unsigned width, const uint8_t *hashes,
                            struct rpl_error *err);
    void *ud;
};

/* A bundle read from disk: its bytes and where each entry starts. */
struct bundle {
    uint8_t *data;
    size_t len;
    uint64_t index; /* which bundle */
    unsigned width; /* entries */
    bool is_loaded;
    uint32_t off[RPL__TILE_WIDTH + 1];
};

struct tile_cache {
    uint8_t h[RPL__TILE_WIDTH][32];
    uint64_t index;
    unsigned width;
    bool is_loaded;
};

struct rpl_tlog {
    struct rpl_ctx *ctx;
    char *dir;
    size_t dir_len;
    char *path; /* dir_len + TAIL_MAX bytes */
    char origin[RPL_TLOG_ORIGIN_MAX + 1];
    uint64_t size;
    bool is_writable;
    int lock_fd; /* the directory, flock()ed by a writer; -1 when none */
    struct builder b;
    /* The partial bundle at size: its entries, prefixed. */
    uint8_t *pb;
    size_t pb_len;
    unsigned pb_n;
    bool pb_dirty;
    struct bundle rb; /* the last bundle read */
    struct tile_cache tc[RPL__TILE_LEVELS];
};

/* -------------------------------------------------------------- paths */

/* The tile index as path elements: "000", "x001/234". */
static size_t
fmt_index(char *out, uint64_t n)
{
    unsigned g[7];
    size_t k = 0, w = 0;

    do {
        g[k++] = (unsigned)(n % 1000);
        n /= 1000;
    } while (n > 0);
    while (k-- > 0)
        w += (size_t)sprintf(out + w, "%s%03u%s", k ? "x" : "", g[k],
                             k ? "/" : "");
    return w;
}

/* t->path = dir/tile/<level>/<index>[.p/<width>]; level -1 is the
 * bundles ("entries"). */
static const char *
tile_path(struct rpl_tlog *t, int level, uint64_t index, unsigned width)
{
    char *p = t->path + t->dir_len;

    if (level < 0)
        p += sprintf(p, "/tile/entries/");
    else
        p += sprintf(p, "/tile/%d/", level);
    p += fmt_index(p, index);
    if (width < RPL__TILE_WIDTH)
        sprintf(p, ".p/%u", width);
    return t->path;
}

/* The same, without the directory, for messages. */
static const char *
rel(const struct rpl_tlog *t)
{
    return t->path + t->dir_len + 1;
}

static const char *
name_path(struct rpl_tlog *t, const char *name)
{
    sprintf(t->path + t->dir_len, "/%s", name);
    return t->path;
}

/* ------------------------------------------------------------ reading */

/* Reads a whole regular file of at most max bytes into *out (from ctx).
 * A missing file sets *is_missing and returns RPL_OK with *out NULL. */
static enum rpl_status
read_file(struct rpl_tlog *t, const char *path, size_t max, uint8_t **out,
          size_t *len, bool *is_missing, struct rpl_error *err)
{
    struct stat st;
    uint8_t *buf = NULL;
    size_t have = 0;
    int fd;

    *out = NULL;
    *is_missing = false;
    do {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        if (errno == ENOENT) {
            *is_missing = true;
            return RPL_OK;
        }
        return rpl__err(err, RPL_E_IO, 0, "%s: %s", path + t->dir_len + 1,
                        strerror(errno));
    }
    enum rpl_status rc = RPL_OK;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = rpl__err(err, RPL_E_IO, 0, "%s: not a regular file",
                      path + t->dir_len + 1);
        goto out;
    }
    if ((uintmax_t)st.st_size > max) {
        rc = rpl__err(err, RPL_E_LIMIT, 0, "%s: over %zu bytes",
                      path + t->dir_len + 1, max);
        goto out;
    }
    buf = rpl__alloc(t->ctx, (size_t)st.st_size + 1);
    if (!buf) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    for (;;) {
        const ssize_t r = read(fd, buf + have, (size_t)st.st_size + 1 - have);

        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = rpl__err(err, RPL_E_IO, 0, "%s: %s", path + t->dir_len + 1,
                          strerror(errno));
            goto out;
        }
        if (r == 0)
            break;
        have += (size_t)r;
        if (have > (size_t)st.st_size) {
            rc = rpl__err(err, RPL_E_IO, 0, "%s: grew while read",
                          path + t->dir_len + 1);
            goto out;
        }
    }
    *out = buf;
    *len = have;
    buf = NULL;
out:
    rpl__free(t->ctx, buf);
    close(fd);
    return rc;
}

/* The width of tile (level, index; -1 the bundles) in the log as it
 * is now: 0 past its end, 256 once full. */
static unsigned
width_now(const struct rpl_tlog *t, int level, uint64_t index)
{
    const uint64_t c = t->size >> (level < 0 ? 0 : 8 * (unsigned)level);

    if (c <= index * RPL__TILE_WIDTH)
        return 0;
    const uint64_t w = c - index * RPL__TILE_WIDTH;
    return w >= RPL__TILE_WIDTH ? RPL__TILE_WIDTH : (unsigned)w;
}

/* The first width hashes of tile (level, index) of a tree in which it
 * has width hashes: from its partial file, or from the full tile once
 * the tile is full (partial files may be gone then). */
static enum rpl_status
read_tile(struct rpl_tlog *t, unsigned level, uint64_t index, unsigned width,
          uint8_t (*out)[32], struct rpl_error *err)
{
    uint8_t *data = NULL;
    size_t len = 0;
    bool is_missing;
    enum rpl_status rc;

    rc = read_file(t, tile_path(t, (int)level, index, width), 32 * 256, &data,
                   &len, &is_missing, err);
    /* Tiles only grow: the tile as wide as the log is now (or full)
     * begins with the hashes of any narrower one. */
    const unsigned now = width_now(t, level, index);
    if (rc == RPL_OK && is_missing && now > width) {
        rc = read_file(t, tile_path(t, (int)level, index, now), 32 * 256, &data,
                       &len, &is_missing, err);
        if (rc == RPL_OK && !is_missing && len == 32 * (size_t)now)
            len = 32 * (size_t)width;
    }
    if (rc != RPL_OK)
        return rc;
    if (is_missing) {
        tile_path(t, (int)level, index, width);
        return rpl__err(err, RPL_E_INCOMPLETE, 0, "%s: missing", rel(t));
    }
    if (len != 32 * (size_t)width)
        rc = rpl__err(err, RPL_E_SYNTAX, 0,
                      "%s: %zu bytes, expected %u (%u hashes)", rel(t), len,
                      32 * width, width);
    else
        memcpy(out, data, len);
    rpl__free(t->ctx, data);
    return rc;
}

/* Splits bundle bytes into exactly count entries, of which the caller
 * wants the first want. */
static enum rpl_status
split_bundle(struct rpl_tlog *t, struct bundle *bd, unsigned want,
             unsigned count, struct rpl_error *err)
{
    size_t at = 0;

    for (unsigned i = 0; i < count; i++) {
        if (bd->len - at < 2)
            return rpl__err(err, RPL_E_INCOMPLETE, 0,
                            "%s: %u entries, expected %u", rel(t), i, count);
        const size_t n = (size_t)bd->data[at] << 8 | bd->data[at + 1];
        if (bd->len - at - 2 < n)
            return rpl__err(err, RPL_E_SYNTAX, 0,
                            "%s: entry %u is cut short (%zu of %zu bytes)",
                            rel(t), i, bd->len - at - 2, n);
        bd->off[i] = (uint32_t)at;
        at += 2 + n;
    }
    bd->off[count] = (uint32_t)at;
    if (at != bd->len)
        return rpl__err(err, RPL_E_SYNTAX, 0, "%s: %zu bytes after entry %u",
                        rel(t), bd->len - at, count - 1);
    bd->width = want;
    return RPL_OK;
}

/* Bundle index of a tree in which it has width entries into t->rb. */
static enum rpl_status
read_bundle(struct rpl_tlog *t, uint64_t index, unsigned width,
            struct rpl_error *err)
{
    struct bundle *bd = &t->rb;
    bool is_missing;
    enum rpl_status rc;

    if (bd->is_loaded && bd->index == index && bd->width == width)
        return RPL_OK;
    bd->is_loaded = false;
    rpl__free(t->ctx, bd->data);
    bd->data = NULL;
    rc = read_file(t, tile_path(t, -1, index, width), BUNDLE_MAX, &bd->data,
                   &bd->len, &is_missing, err);
    const unsigned now = width_now(t, -1, index);
    unsigned count = width;
    if (rc == RPL_OK && is_missing && now > width) {
        rc = read_file(t, tile_path(t, -1, index, now), BUNDLE_MAX, &bd->data,
                       &bd->len, &is_missing, err);
        count = now;
    }
    if (rc != RPL_OK)
        return rc;
    if (is_missing) {
        tile_path(t, -1, index, width);
        return rpl__err(err, RPL_E_INCOMPLETE, 0, "%s: missing", rel(t));
    }
    rc = split_bundle(t, bd, width, count, err);
    if (rc == RPL_OK) {
        bd->index = index;
        bd->is_loaded = true;
    }
    return rc;
}

/* ---------------------------------------------------------- the nodes */

struct nodes_ud {
    struct rpl_tlog *t;
    uint64_t size;
};

/* Node (level, index) of the tree of size entries: 2^(level % 8) hashes
 * of tile level level / 8, hashed up. */
static enum rpl_status
node_hash(void *ud, unsigned level, uint64_t index, uint8_t out[32],
          struct rpl_error *err)
{
    struct nodes_ud *nu = ud;
    struct rpl_tlog *t = nu->t;
    const unsigned tl = level / 8, r = level % 8;
    const uint64_t first = index << r;
    const uint64_t stored = nu->size >> (8 * tl);
    const uint64_t ti = first / RPL__TILE_WIDTH;
    const uint64_t left = stored - ti * RPL__TILE_WIDTH;
    const unsigned width =
        left >= RPL__TILE_WIDTH ? RPL__TILE_WIDTH : (unsigned)left;
    struct tile_cache *c = &t->tc[tl];

    if (tl >= RPL__TILE_LEVELS)
        return rpl__err(err, RPL_E_ARG, 0, "no tile level %u", tl);
    if (!c->is_loaded || c->index != ti || c->width != width) {
        c->is_loaded = false;
        const enum rpl_status rc = read_tile(t, tl, ti, width, c->h, err);
        if (rc != RPL_OK)
            return rc;
        c->is_loaded = true;
        c->index = ti;
        c->width = width;
    }
    rpl__tlog_subtree(out, c->h[first % RPL__TILE_WIDTH], r);
    return RPL_OK;
}

static enum rpl_status
check_size(const struct rpl_tlog *t, uint64_t size, struct rpl_error *err)
{
    if (size > t->size)
        return rpl__err(err, RPL_E_ARG, 0, "the log has %llu entries, not %llu",
                        (unsigned long long)t->size, (unsigned long long)size);
    return RPL_OK;
}

enum rpl_status
rpl_tlog_root(struct rpl_tlog *t, uint64_t size, uint8_t root[32],
              struct rpl_error *err)
{
    struct nodes_ud nu = {t, size};
    const struct rpl__tlog_nodes nd = {node_hash, &nu, size};

    rpl__err_clear(err);
    const enum rpl_status rc = check_size(t, size, err);
    return rc == RPL_OK ? rpl__tlog_root(&nd, root, err) : rc;
}

enum rpl_status
rpl_tlog_prove_inclusion(struct rpl_tlog *t, uint64_t index, uint64_t size,
                         struct rpl_tlog_proof *proof, struct rpl_error *err)
{
    struct nodes_ud nu = {t, size};
    const struct rpl__tlog_nodes nd = {node_hash, &nu, size};

    rpl__err_clear(err);
    const enum rpl_status rc = check_size(t, size, err);
    return rc == RPL_OK ? rpl__tlog_inclusion(&nd, index, proof, err) : rc;
}

enum rpl_status
rpl_tlog_prove_consistency(struct rpl_tlog *t, uint64_t old_size, uint64_t size,
                           struct rpl_tlog_proof *proof, struct rpl_error *err)
{
    struct nodes_ud nu = {t, size};
    const struct rpl__tlog_nodes nd = {node_hash, &nu, size};

    rpl__err_clear(err);
    const enum rpl_status rc = check_size(t, size, err);
    return rc == RPL_OK ? rpl__tlog_consistency(&nd, old_size, proof, err) : rc;
}

enum rpl_status
rpl_tlog_entry(struct rpl_tlog *t, uint64_t index, uint64_t size,
               const uint8_t **data, size_t *len, struct rpl_error *err)
{
    rpl__err_clear(err);
    enum rpl_status rc = check_size(t, size, err);
    if (rc != RPL_OK)
        return rc;
    if (index >= size)
        return rpl__err(err, RPL_E_ARG, 0,
                        "entry %llu is not in a tree of %llu entries",
                        (unsigned long long)index, (unsigned long long)size);
    const uint64_t bi = index / RPL__TILE_WIDTH;
    const uint64_t left = size - bi * RPL__TILE_WIDTH;
    rc = read_bundle(
        t, bi, left >= RPL__TILE_WIDTH ? RPL__TILE_WIDTH : (unsigned)left, err);
    if (rc != RPL_OK)
        return rc;
    const unsigned k = (unsigned)(index % RPL__TILE_WIDTH);
    *data = t->rb.data + t->rb.off[k] + 2;
    *len = t->rb.off[k + 1] - t->rb.off[k] - 2;
    return RPL_OK;
}

/* ------------------------------------------------------------ builder */

static enum rpl_status
builder_push(struct builder *b, unsigned level, const uint8_t h[32],
             struct rpl_error *err)
{
    struct level *lv = &b->lv[level];
    enum rpl_status rc;

    memcpy(lv->h[lv->n++], h, 32);
    lv->is_dirty = true;
    if (lv->n < RPL__TILE_WIDTH)
        return RPL_OK;
    /* A full tile: its index is the count of this level's hashes over
     * 256, less one. */
    const uint64_t index = ((b->size >> (8 * level)) - 1) / RPL__TILE_WIDTH;
    rc = b->emit(b->ud, level, index, RPL__TILE_WIDTH, &lv->h[0][0], err);
    if (rc != RPL_OK)
        return rc;
    uint8_t up[32];
    rpl__tlog_subtree(up, &lv->h[0][0], 8);
    lv->n = 0;
    lv->is_dirty = false;
    if (level + 1 >= RPL__TILE_LEVELS)
        return rpl__err(err, RPL_E_LIMIT, 0, "the tree is full");
    return builder_push(b, level + 1, up, err);
}

static enum rpl_status
builder_leaf(struct builder *b, const uint8_t h[32], struct rpl_error *err)
{
    b->size++;
    return builder_push(b, 0, h, err);
}

static enum rpl_status
builder_flush(struct builder *b, struct rpl_error *err)
{
    for (unsigned l = 0; l < RPL__TILE_LEVELS; l++) {
        struct level *lv = &b->lv[l];

        if (lv->n > 0 && lv->is_dirty) {
            const uint64_t index = (b->size >> (8 * l)) / RPL__TILE_WIDTH;
            const enum rpl_status rc =
                b->emit(b->ud, l, index, lv->n, &lv->h[0][0], err);
            if (rc != RPL_OK)
                return rc;
        }
        lv->is_dirty = false;
    }
    return RPL_OK;
}

/* ------------------------------------------------------------ writing */

/* mkdir of every directory of t->path below t->dir; a new one has its
 * parent synced. */
static enum rpl_status
make_parents(struct rpl_tlog *t, struct rpl_error *err)
{
    char *const p = t->path;

    for (char *s = p + t->dir_len + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        const int rc = mkdir(p, 0755);
        const int e = errno;
        if (rc == 0) {
            char *const up = strrchr(p, '/');
            *up = '\0';
            const enum rpl_status st = rpl_dir_sync(p, err);
            *up = '/';
            if (st != RPL_OK) {
                *s = '/';
                return st;
            }
        }
        *s = '/';
        if (rc != 0 && e != EEXIST)
            return rpl__err(err, RPL_E_IO, 0,
                            "cannot make a directory for "
                            "%s: %s",
                            rel(t), strerror(e));
    }
    return RPL_OK;
}

static enum rpl_status
write_path(struct rpl_tlog *t, const void *data, size_t len,
           struct rpl_error *err)
{
    enum rpl_status rc = make_parents(t, err);

    if (rc == RPL_OK)
        rc = rpl__file_write_atomic(t->path, data, len, 0644, true, err);
    if (rc != RPL_OK && err && !strstr(err->msg, rel(t))) {
        char msg[RPL_ERRMSG_MAX];

        snprintf(msg, sizeof(msg), "%s", err->msg);
        rpl__err(err, rc, 0, "%s: %s", rel(t), msg);
    }
    return rc;
}

static enum rpl_status
emit_write(void *ud, unsigned level, uint64_t index, unsigned width,
           const uint8_t *hashes, struct rpl_error *err)
{
    struct rpl_tlog *t = ud;

    tile_path(t, (int)level, index, width);
    return write_path(t, hashes, 32 * (size_t)width, err);
}

/* Removes the partial files of tile (level, index): t->path ".p/". */
static void
remove_partials(struct rpl_tlog *t, int level, uint64_t index)
{
    char *const end = t->path;
    DIR *d;
    struct dirent *de;

    tile_path(t, level, index, RPL__TILE_WIDTH);
    const size_t n = strlen(end);
    strcpy(end + n, ".p");
    d = opendir(t->path);
    if (!d)
        return;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
            strlen(de->d_name) > 32)
            continue;
        snprintf(end + n + 2, TAIL_MAX / 2, "/%s", de->d_name);
        (void)unlink(t->path);
        end[n + 2] = '\0';
    }
    closedir(d);
    (void)rmdir(t->path);
}

static enum rpl_status
write_state(struct rpl_tlog *t, uint64_t size, struct rpl_error *err)
{
    char text[RPL_MAX_TLOG_STATE];
    const int n =
        snprintf(text, sizeof(text), "camelog tlog 1\norigin %s\nsize %llu\n",
                 t->origin, (unsigned long long)size);

    name_path(t, STATE_NAME);
    return rpl__file_write_atomic(t->path, text, (size_t)n, 0644, true, err);
}

/* Reads the partial tiles and bundle of t->size back into memory, and
 * checks the bundle's entries against the level-0 hashes. */
static enum rpl_status
load_edge(struct rpl_tlog *t, struct rpl_error *err)
{
    enum rpl_status rc;

    memset(t->b.lv, 0, sizeof(t->b.lv));
    t->b.size = t->size;
    t->pb_len = 0;
    t->pb_n = 0;
    t->pb_dirty = false;
    for (unsigned l = 0; l < RPL__TILE_LEVELS; l++) {
        const uint64_t c = t->size >> (8 * l);
        const unsigned w = (unsigned)(c % RPL__TILE_WIDTH);

        if (c == 0)
            break;
        t->b.lv[l].n = w;
        if (w == 0)
            continue;
        rc = read_tile(t, l, c / RPL__TILE_WIDTH, w, t->b.lv[l].h, err);
        if (rc != RPL_OK)
            return rc;
    }
    const unsigned w = (unsigned)(t->size % RPL__TILE_WIDTH);
    if (w == 0)
        return RPL_OK;
    rc = read_bundle(t, t->size / RPL__TILE_WIDTH, w, err);
    if (rc != RPL_OK)
        return rc;
    const size_t len = t->rb.off[w];
    memcpy(t->pb, t->rb.data, len);
    t->pb_len = len;
    t->pb_n = w;
    for (unsigned i = 0; i < w; i++) {
        uint8_t h[32];

        rpl_tlog_leaf_hash(t->pb + t->rb.off[i] + 2,
                           t->rb.off[i + 1] - t->rb.off[i] - 2, h);
        if (memcmp(h, t->b.lv[0].h[i], 32) != 0) {
            tile_path(t, 0, t->size / RPL__TILE_WIDTH, w);
            return rpl__err(err, RPL_E_FAIRNESS, 0,
                            "%s: hash %u is not the hash of entry %llu", rel(t),
                            i, (unsigned long long)(t->size - w + i));
        }
    }
    return RPL_OK;
}

enum rpl_status
rpl_tlog_append(struct rpl_tlog *t, const void *const *entries,
                const size_t *lens, size_t n, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;
    const uint64_t old = t->size;

    rpl__err_clear(err);
    if (!t->is_writable)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log is read-only (no state file)");
    if (n == 0)
        return RPL_OK;
    if (!entries || !lens)
        return rpl__err(err, RPL_E_ARG, 0, "no entries");
    if (n > UINT64_C(0x7fffffffffffffff) - old)
        return rpl__err(err, RPL_E_LIMIT, 0, "the tree is full");
    for (size_t i = 0; i < n; i++) {
        if (lens[i] > RPL_TLOG_ENTRY_MAX)
            return rpl__err(err, RPL_E_LIMIT, 0,
                            "entry %zu: %zu bytes, over RPL_TLOG_ENTRY_MAX "
                            "(%u)",
                            i, lens[i], RPL_TLOG_ENTRY_MAX);
        if (lens[i] > 0 && !entries[i])
            return rpl__err(err, RPL_E_ARG, 0, "entry %zu: no bytes", i);
    }

    t->b.emit = emit_write;
    t->b.ud = t;
    for (size_t i = 0; i < n && rc == RPL_OK; i++) {
        uint8_t h[32];

        t->pb[t->pb_len] = (uint8_t)(lens[i] >> 8);
        t->pb[t->pb_len + 1] = (uint8_t)lens[i];
        if (lens[i] > 0)
            memcpy(t->pb + t->pb_len + 2, entries[i], lens[i]);
        t->pb_len += 2 + lens[i];
        t->pb_n++;
        t->pb_dirty = true;
        rpl_tlog_leaf_hash(entries[i], lens[i], h);
        rc = builder_leaf(&t->b, h, err);
        if (rc == RPL_OK && t->pb_n == RPL__TILE_WIDTH) {
            tile_path(t, -1, (t->b.size - 1) / RPL__TILE_WIDTH,
                      RPL__TILE_WIDTH);
            rc = write_path(t, t->pb, t->pb_len, err);
            t->pb_len = 0;
            t->pb_n = 0;
            t->pb_dirty = false;
        }
    }
    if (rc == RPL_OK)
        rc = builder_flush(&t->b, err);
    if (rc == RPL_OK && t->pb_dirty && t->pb_n > 0) {
        tile_path(t, -1, t->b.size / RPL__TILE_WIDTH, t->pb_n);
        rc = write_path(t, t->pb, t->pb_len, err);
    }
    t->pb_dirty = false;
    if (rc == RPL_OK)
        rc = write_state(t, t->b.size, err);
    if (rc != RPL_OK) {
        /* Back to the durable size; what was written past it is never
         * named by a state or a checkpoint, and is overwritten later. */
        struct rpl_error ignored;
        if (load_edge(t, &ignored) != RPL_OK)
            t->is_writable = false;
        return rc;
    }
    t->size = t->b.size;
    /* The tiles and bundle that were partial before and are full now. */
    for (int l = -1; l < (int)RPL__TILE_LEVELS; l++) {
        const unsigned sh = l < 0 ? 0 : 8 * (unsigned)l;
        const uint64_t before = old >> sh, after = t->size >> sh;

        if (before % RPL__TILE_WIDTH != 0 &&
            before / RPL__TILE_WIDTH < after / RPL__TILE_WIDTH)
            remove_partials(t, l, before / RPL__TILE_WIDTH);
    }
    return RPL_OK;
}

/* ------------------------------------------------------ open and close */

static enum rpl_status
tlog_new(struct rpl_ctx *ctx, struct rpl_tlog **out, const char *dir,
         struct rpl_error *err)
{
    size_t len = strlen(dir);

    while (len > 1 && dir[len - 1] == '/')
        len--;
    if (len == 0)
        return rpl__err(err, RPL_E_ARG, 0, "no directory");
    if (len > 4000)
        return rpl__err(err, RPL_E_LIMIT, 0, "the directory name is too long");
    struct rpl_tlog *t = rpl__calloc(ctx, 1, sizeof(*t));
    if (!t)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    t->ctx = ctx;
    t->lock_fd = -1;
    t->dir_len = len;
    t->dir = rpl__strndup(ctx, dir, len);
    t->path = rpl__alloc(ctx, len + TAIL_MAX);
    t->pb = rpl__alloc(ctx, BUNDLE_MAX);
    if (!t->dir || !t->path || !t->pb) {
        rpl_tlog_close(t);
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    }
    memcpy(t->path, dir, len);
    t->path[len] = '\0';
    *out = t;
    return RPL_OK;
}

void
rpl_tlog_close(struct rpl_tlog *t)
{
    if (!t)
        return;
    if (t->lock_fd >= 0)
        close(t->lock_fd); /* releases the lock */
    rpl__free(t->ctx, t->rb.data);
    rpl__free(t->ctx, t->pb);
    rpl__free(t->ctx, t->path);
    rpl__free(t->ctx, t->dir);
    rpl__free(t->ctx, t);
}

uint64_t
rpl_tlog_size(const struct rpl_tlog *t)
{
    return t->size;
}

const char *
rpl_tlog_origin(const struct rpl_tlog *t)
{
    return t->origin;
}

/* One writer per directory: an exclusive flock(2) of the directory
 * itself, held until rpl_tlog_close(); RPL_E_BUSY when another handle,
 * in this process or another, holds it. */
static enum rpl_status
take_lock(struct rpl_tlog *t, struct rpl_error *err)
{
    const int fd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    if (fd < 0)
        return rpl__err(err, RPL_E_IO, 0, "cannot open %s: %s", t->dir,
                        strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int e = errno;

        close(fd);
        if (e == EWOULDBLOCK)
            return rpl__err(err, RPL_E_BUSY, 0, "another writer holds the log");
        return rpl__err(err, RPL_E_IO, 0, "cannot lock %s: %s", t->dir,
                        strerror(e));
    }
    t->lock_fd = fd;
    return RPL_OK;
}

enum rpl_status
rpl_tlog_create(struct rpl_ctx *ctx, struct rpl_tlog **out, const char *dir,
                const char *origin, struct rpl_error *err)
{
    struct rpl_tlog *t = NULL;
    enum rpl_status rc;
    DIR *d;
    struct dirent *de;

    rpl__err_clear(err);
    *out = NULL;
    if (!rpl__tlog_origin_ok(origin, strlen(origin)))
        return rpl__err(err, RPL_E_ARG, 0,
                        "an origin is 1 to %u printable ASCII bytes, no "
                        "space or '+'",
                        RPL_TLOG_ORIGIN_MAX);
    rc = tlog_new(ctx, &t, dir, err);
    if (rc != RPL_OK)
        return rc;
    strcpy(t->origin, origin);
    if (mkdir(t->dir, 0755) != 0 && errno != EEXIST) {
        rc = rpl__err(err, RPL_E_IO, 0, "cannot make %s: %s", t->dir,
                      strerror(errno));
        goto out;
    }
    rc = take_lock(t, err);
    if (rc != RPL_OK)
        goto out;
    if (access(name_path(t, STATE_NAME), F_OK) == 0) {
        rc = rpl__err(err, RPL_E_EXISTS, 0, "a log exists there");
        goto out;
    }
    d = opendir(t->dir);
    if (!d) {
        rc = rpl__err(err, RPL_E_IO, 0, "cannot open %s: %s", t->dir,
                      strerror(errno));
        goto out;
    }
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
            rc = rpl__err(err, RPL_E_EXISTS, 0,
                          "not an empty directory (it holds \"%s\")",
                          de->d_name);
            break;
        }
    }
    closedir(d);
    if (rc == RPL_OK)
        rc = write_state(t, 0, err);
    if (rc == RPL_OK) {
        t->is_writable = true;
        *out = t;
        t = NULL;
    }
out:
    rpl_tlog_close(t);
    return rc;
}

/* "camelog tlog 1\norigin <o>\nsize <n>\n", nothing else. */
static enum rpl_status
parse_state(struct rpl_tlog *t, const uint8_t *s, size_t len,
            struct rpl_error *err)
{
    static const char head[] = "camelog tlog 1\norigin ";
    const char *p = (const char *)s, *end = p + len;

    if (len < sizeof(head) - 1 || memcmp(p, head, sizeof(head) - 1) != 0)
        return rpl__err(err, RPL_E_SYNTAX, 1,
                        STATE_NAME ": expected \"camelog tlog 1\" and an "
                                   "origin line");
    p += sizeof(head) - 1;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl || !rpl__tlog_origin_ok(p, (size_t)(nl - p)))
        return rpl__err(err, RPL_E_SYNTAX, 2,
                        STATE_NAME ": expected \"origin <origin>\"");
    memcpy(t->origin, p, (size_t)(nl - p));
    t->origin[nl - p] = '\0';
    p = nl + 1;
    if (end - p < 7 || memcmp(p, "size ", 5) != 0 || end[-1] != '\n')
        return rpl__err(err, RPL_E_SYNTAX, 3,
                        STATE_NAME ": expected \"size <entries>\"");
    p += 5;
    uint64_t v = 0;
    const size_t n = (size_t)(end - 1 - p);
    if (n == 0 || n > 19 || (n > 1 && p[0] == '0'))
        return rpl__err(err, RPL_E_SYNTAX, 3,
                        STATE_NAME ": expected \"size <entries>\"");
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return rpl__err(err, RPL_E_SYNTAX, 3,
                            STATE_NAME ": expected \"size <entries>\"");
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    if (v > UINT64_C(0x7fffffffffffffff))
        return rpl__err(err, RPL_E_SYNTAX, 3, STATE_NAME ": size too large");
    t->size = v;
    return RPL_OK;
}

enum rpl_status
rpl_tlog_open(struct rpl_ctx *ctx, struct rpl_tlog **out, const char *dir,
              struct rpl_error *err)
{
    struct rpl_tlog *t = NULL;
    uint8_t *text = NULL;
    size_t len = 0;
    bool is_missing;
    enum rpl_status rc;

    rpl__err_clear(err);
    *out = NULL;
    rc = tlog_new(ctx, &t, dir, err);
    if (rc != RPL_OK)
        return rc;
    rc = read_file(t, name_path(t, STATE_NAME), RPL_MAX_TLOG_STATE, &text, &len,
                   &is_missing, err);
    if (rc != RPL_OK)
        goto out;
    if (!is_missing) {
        /* A writer: locked first, then the state read again under the
         * lock, so that it is the last append's. */
        rpl__free(ctx, text);
        text = NULL;
        rc = take_lock(t, err);
        if (rc == RPL_OK)
            rc = read_file(t, name_path(t, STATE_NAME), RPL_MAX_TLOG_STATE,
                           &text, &len, &is_missing, err);
        if (rc == RPL_OK && is_missing)
            rc = rpl__err(err, RPL_E_INCOMPLETE, 0,
                          "%s: " STATE_NAME " vanished", t->dir);
        if (rc == RPL_OK)
            rc = parse_state(t, text, len, err);
        if (rc == RPL_OK)
            rc = load_edge(t, err);
        if (rc == RPL_OK)
            t->is_writable = true;
        goto out;
    }
    /* A copy of the served files: the checkpoint tells the size. */
    rc = read_file(t, name_path(t, "checkpoint"), RPL_MAX_TLOG_NOTE, &text,
                   &len, &is_missing, err);
    if (rc != RPL_OK)
        goto out;
    if (is_missing) {
        rc = rpl__err(err, RPL_E_INCOMPLETE, 0,
                      "%s: no " STATE_NAME " and no checkpoint: not a log",
                      t->dir);
        goto out;
    }
    struct rpl_tlog_checkpoint cp;
    rc = rpl__tlog_note_peek((const char *)text, len, &cp, err);
    if (rc == RPL_OK) {
        memcpy(t->origin, cp.origin, sizeof(t->origin));
        t->size = cp.size;
    }
out:
    rpl__free(ctx, text);
    if (rc == RPL_OK)
        *out = t;
    else
        rpl_tlog_close(t);
    return rc;
}

/* ---------------------------------------------------------- checkpoint */

static enum rpl_status
read_checkpoint(struct rpl_tlog *t, const struct rpl_pubkey *pk,
                const char *origin, struct rpl_tlog_checkpoint *cp,
                bool *is_missing, struct rpl_error *err)
{
    uint8_t *text = NULL;
    size_t len = 0;
    enum rpl_status rc;

    rc = read_file(t, name_path(t, "checkpoint"), RPL_MAX_TLOG_NOTE, &text,
                   &len, is_missing, err);
    if (rc == RPL_OK && !*is_missing)
        rc = pk ? rpl_tlog_checkpoint_parse((const char *)text, len, pk, origin,
                                            cp, err)
                : rpl__tlog_note_peek((const char *)text, len, cp, err);
    rpl__free(t->ctx, text);
    return rc;
}

enum rpl_status
rpl_tlog_sign(struct rpl_tlog *t, const struct rpl_seckey *sk,
              struct rpl_tlog_checkpoint *out, struct rpl_error *err)
{
    struct rpl_tlog_checkpoint cp, last;
    char *note = NULL;
    size_t len = 0;
    bool is_missing;
    enum rpl_status rc;

    rpl__err_clear(err);
    if (!t->is_writable)
        return rpl__err(err, RPL_E_STATE, 0,
                        "the log is read-only (no state file)");
    rc = read_checkpoint(t, NULL, NULL, &last, &is_missing, err);
    if (rc == RPL_OK && !is_missing && last.size > t->size)
        rc = rpl__err(err, RPL_E_STATE, 0,
                      "the checkpoint has %llu entries, the log %llu",
                      (unsigned long long)last.size,
                      (unsigned long long)t->size);
    if (rc != RPL_OK)
        return rc;
    memset(&cp, 0, sizeof(cp));
    strcpy(cp.origin, t->origin);
    cp.size = t->size;
    rc = rpl_tlog_root(t, t->size, cp.root, err);
    if (rc == RPL_OK)
        rc = rpl__tlog_note_sign(t->ctx, sk, &cp, &note, &len, err);
    if (rc == RPL_OK)
        rc = rpl__file_write_atomic(name_path(t, "checkpoint"), note, len, 0644,
                                    true, err);
    rpl__free(t->ctx, note);
    if (rc == RPL_OK && out)
        *out = cp;
    return rc;
}

/* --------------------------------------------------------------- audit */

static enum rpl_status
emit_compare(void *ud, unsigned level, uint64_t index, unsigned width,
             const uint8_t *hashes, struct rpl_error *err)
{
    struct rpl_tlog *t = ud;
    struct tile_cache *c = &t->tc[level];

    c->is_loaded = false;
    const enum rpl_status rc = read_tile(t, level, index, width, c->h, err);
    if (rc != RPL_OK)
        return rc;
    for (unsigned i = 0; i < width; i++) {
        if (memcmp(c->h[i], hashes + 32 * (size_t)i, 32) != 0) {
            tile_path(t, (int)level, index, width);
            if (level == 0)
                return rpl__err(err, RPL_E_FAIRNESS, 0,
                                "%s: hash %u is not the hash of entry %llu",
                                rel(t), i,
                                (unsigned long long)(index * 256 + i));
            return rpl__err(err, RPL_E_FAIRNESS, 0,
                            "%s: hash %u is not the hash of the tile below",
                            rel(t), i);
        }
    }
    return RPL_OK;
}

enum rpl_status
rpl_tlog_audit(struct rpl_tlog *t, const struct rpl_pubkey *pk,
               const char *origin, struct rpl_tlog_checkpoint *out,
               struct rpl_error *err)
{
    struct rpl_tlog_checkpoint cp;
    struct builder *b = NULL;
    bool is_missing;
    uint8_t root[32];
    enum rpl_status rc;

    rpl__err_clear(err);
    rc = read_checkpoint(t, pk, origin, &cp, &is_missing, err);
    if (rc == RPL_OK && is_missing)
        rc = rpl__err(err, RPL_E_INCOMPLETE, 0, "checkpoint: missing");
    if (rc != RPL_OK)
        return rc;
    if (t->is_writable && cp.size > t->size)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "checkpoint: %llu entries, past the log's %llu",
                        (unsigned long long)cp.size,
                        (unsigned long long)t->size);
    b = rpl__calloc(t->ctx, 1, sizeof(*b));
    if (!b)
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    b->emit = emit_compare;
    b->ud = t;
    for (uint64_t bi = 0; rc == RPL_OK && bi * RPL__TILE_WIDTH < cp.size;
         bi++) {
        const uint64_t left = cp.size - bi * RPL__TILE_WIDTH;
        const unsigned w =
            left >= RPL__TILE_WIDTH ? RPL__TILE_WIDTH : (unsigned)left;

        rc = read_bundle(t, bi, w, err);
        for (unsigned i = 0; rc == RPL_OK && i < w; i++) {
            uint8_t h[32];

            rpl_tlog_leaf_hash(t->rb.data + t->rb.off[i] + 2,
                               t->rb.off[i + 1] - t->rb.off[i] - 2, h);
            rc = builder_leaf(b, h, err);
        }
    }
    if (rc == RPL_OK)
        rc = builder_flush(b, err);
    rpl__free(t->ctx, b);
    if (rc != RPL_OK)
        return rc;
    if (!t->is_writable)
        t->size = cp.size;
    rc = rpl_tlog_root(t, cp.size, root, err);
    if (rc != RPL_OK)
        return rc;
    if (sodium_memcmp(root, cp.root, 32) != 0)
        return rpl__err(err, RPL_E_FAIRNESS, 0,
                        "checkpoint: the root hash is not the tiles' root "
                        "for %llu entries",
                        (unsigned long long)cp.size);
    if (out)
        *out = cp;
    return RPL_OK;
}
