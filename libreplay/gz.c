/*
 * gz.c - files and gzip with hard limits.  A .camelog file is exactly one
 * gzip member (RFC 1952) and nothing after it; reading stops at
 * RPL_MAX_COMPRESSED bytes of file and RPL_MAX_TEXT bytes of text, however
 * well the input compresses, so a hostile file costs bounded memory and
 * time.  Files are written atomically: a temporary file in the same
 * directory, written, synced and renamed over the target.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* next_in is a pointer to const */
#define ZLIB_CONST
#include <zlib.h>

#include "internal.h"

/* The first read of a file whose size is unknown (a pipe). */
#define READ_CHUNK (64u * 1024u)

/* Inflate is fed at most this much input per call (avail_in is uInt). */
#define INFLATE_FEED (1u << 20)

_Static_assert(RPL_MAX_TEXT < (uInt)-1, "a text fits a zlib uInt");
_Static_assert(RPL_MAX_COMPRESSED < (uInt)-1, "a file fits a zlib uInt");

/* errno as text, without strerror()'s shared buffer. */
static const char *
errno_text(int e, char *buf, size_t cap)
{
    if (strerror_r(e, buf, cap) != 0)
        snprintf(buf, cap, "error %d", e);
    return buf;
}

/* The name of the limit a size stands for, for messages. */
static const char *
limit_name(size_t max)
{
    switch (max) {
    case RPL_MAX_COMPRESSED:
        return " (RPL_MAX_COMPRESSED)";
    case RPL_MAX_TEXT:
        return " (RPL_MAX_TEXT)";
    case RPL_MAX_KEYFILE:
        return " (RPL_MAX_KEYFILE)";
    default:
        return "";
    }
}

const char *
rpl__file_kind(unsigned mode)
{
    const mode_t m = (mode_t)mode;

    if (S_ISREG(m))
        return "a regular file";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    return "an unknown kind of file";
}

/* The buffer holds a NUL after the len bytes, so text and key files can
 * be scanned as strings; it is freed with rpl__free(). */
enum rpl_status
rpl__file_read(struct rpl_ctx *ctx, const char *path, size_t max, uint8_t **out,
               size_t *len, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;
    const bool is_stdin = strcmp(path, "-") == 0;
    int fd = -1;
    uint8_t *buf = NULL;
    size_t cap = 0, have = 0;
    struct stat st;
    char ebuf[128];

    *out = NULL;
    *len = 0;
    if (max >= SIZE_MAX - 1) {
        rc = rpl__err(err, RPL_E_ARG, 0, "file size limit too large");
        goto out;
    }
    if (is_stdin) {
        fd = STDIN_FILENO;
    } else {
        /* O_NONBLOCK: opening a FIFO would wait for a writer for ever;
         * a named input must be a regular file, which fstat() tells. */
        do {
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        } while (fd < 0 && errno == EINTR);
        if (fd < 0) {
            rc = rpl__err(err, RPL_E_IO, 0, "cannot open for reading: %s",
                          errno_text(errno, ebuf, sizeof(ebuf)));
            goto out;
        }
    }
    if (fstat(fd, &st) != 0) {
        rc = rpl__err(err, RPL_E_IO, 0, "cannot stat: %s",
                      errno_text(errno, ebuf, sizeof(ebuf)));
        goto out;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = rpl__err(err, RPL_E_IO, 0, "is a directory");
        goto out;
    }
    if (!is_stdin && !S_ISREG(st.st_mode)) {
        rc = rpl__err(err, RPL_E_IO, 0, "not a regular file (%s)",
                      rpl__file_kind(st.st_mode));
        goto out;
    }
    /* A named input is a regular file by now, which O_NONBLOCK does not
     * change the reads of: the flag stays. */
    if (S_ISREG(st.st_mode) && st.st_size > 0 && (uintmax_t)st.st_size > max) {
        rc = rpl__err(err, RPL_E_LIMIT, 0, "file is over the %zu-byte limit%s",
                      max, limit_name(max));
        goto out;
    }
    /* Room for max + 1 bytes tells a file of max bytes from a longer one;
     * one more holds the NUL. */
    cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 2
                                                : READ_CHUNK;
    if (cap > max + 2)
        cap = max + 2;
    buf = rpl__alloc(ctx, cap);
    if (!buf) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    for (;;) {
        ssize_t n;

        if (have == cap - 1) {
            size_t ncap = cap < (max + 2) / 2 ? cap * 2 : max + 2;
            uint8_t *p;

            if (cap == max + 2) {
                rc = rpl__err(err, RPL_E_LIMIT, 0,
                              "file is over the %zu-byte limit%s", max,
                              limit_name(max));
                goto out;
            }
            p = rpl__realloc(ctx, buf, ncap);
            if (!p) {
                rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                goto out;
            }
            buf = p;
            cap = ncap;
        }
        n = read(fd, buf + have, cap - 1 - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = rpl__err(err, RPL_E_IO, 0, "read failed: %s",
                          errno_text(errno, ebuf, sizeof(ebuf)));
            goto out;
        }
        if (n == 0)
            break;
        have += (size_t)n;
        if (have > max) {
            rc = rpl__err(err, RPL_E_LIMIT, 0,
                          "file is over the %zu-byte limit%s", max,
                          limit_name(max));
            goto out;
        }
    }
    buf[have] = '\0';
    *out = buf;
    *len = have;
    buf = NULL;
out:
    rpl__free(ctx, buf);
    if (fd >= 0 && !is_stdin)
        close(fd);
    return rc;
}

static bool
write_all(int fd, const uint8_t *p, size_t n, int *e)
{
    while (n > 0) {
        const ssize_t w = write(fd, p, n);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            *e = w < 0 ? errno : EIO;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* fsync of a directory; file systems that cannot sync one say EINVAL. */
static int
sync_dir(const char *dir)
{
    int fd, e = 0;

    do {
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return errno;
    if (fsync(fd) != 0 && errno != EINVAL)
        e = errno;
    close(fd);
    return e;
}

enum rpl_status
rpl_dir_sync(const char *dir, struct rpl_error *err)
{
    char ebuf[128];
    const int e = sync_dir(dir);

    rpl__err_clear(err);
    if (e != 0)
        return rpl__err(err, RPL_E_IO, 0, "fsync of %s failed: %s", dir,
                        errno_text(e, ebuf, sizeof(ebuf)));
    return RPL_OK;
}

enum rpl_status
rpl__file_write_atomic(const char *path, const void *data, size_t len,
                       unsigned mode, bool force, struct rpl_error *err)
{
    return rpl__file_write(path, data, len, mode, force, true, err);
}

enum rpl_status
rpl_file_write(const char *path, const void *data, size_t len, unsigned mode,
               bool force, struct rpl_error *err)
{
    rpl__err_clear(err);
    if (!data && len > 0)
        return rpl__err(err, RPL_E_ARG, 0, "no data");
    return rpl__file_write(path, len > 0 ? data : "", len, mode & 07777u, force,
                           true, err);
}

enum rpl_status
rpl__file_write(const char *path, const void *data, size_t len, unsigned mode,
                bool force, bool is_dir_synced, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;
    const char *slash, *name;
    char *dir = NULL, *tmp = NULL;
    size_t dir_len, name_len;
    int fd = -1, e = 0;
    bool has_tmp = false;
    struct stat st;
    char ebuf[128];

    if (strcmp(path, "-") == 0) {
        if (!write_all(STDOUT_FILENO, data, len, &e))
            rc = rpl__err(err, RPL_E_IO, 0,
                          "write to standard output failed: %s",
                          errno_text(e, ebuf, sizeof(ebuf)));
        goto out;
    }

    /* path = dir "/" name; the temporary file is dir "/." name ".XXXXXX"
     * so rename() stays within one file system. */
    slash = strrchr(path, '/');
    name = slash ? slash + 1 : path;
    name_len = strlen(name);
    if (name_len == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        rc = rpl__err(err, RPL_E_ARG, 0, "not a file name");
        goto out;
    }
    dir_len = slash ? (size_t)(slash - path) : 1;
    if (slash && dir_len == 0)
        dir_len = 1; /* "/name": the root */
    dir = malloc(dir_len + 1);
    tmp = malloc(dir_len + 1 + 1 + name_len + 7 + 1);
    if (!dir || !tmp) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    memcpy(dir, slash ? path : ".", dir_len);
    dir[dir_len] = '\0';
    snprintf(tmp, dir_len + 1 + 1 + name_len + 7 + 1, "%s/.%s.XXXXXX", dir,
             name);

    /* Fail early on an existing target; link() below closes the race. */
    if (!force && lstat(path, &st) == 0) {
        rc = rpl__err(err, RPL_E_EXISTS, 0, "file exists");
        goto out;
    }

    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = rpl__err(err, RPL_E_IO, 0,
                      "cannot create a temporary file in %s: %s", dir,
                      errno_text(errno, ebuf, sizeof(ebuf)));
        goto out;
    }
    has_tmp = true;
    if (fchmod(fd, (mode_t)mode) != 0) {
        rc = rpl__err(err, RPL_E_IO, 0, "chmod failed: %s",
                      errno_text(errno, ebuf, sizeof(ebuf)));
        goto out;
    }
    if (!write_all(fd, data, len, &e)) {
        rc = rpl__err(err, RPL_E_IO, 0, "write failed: %s",
                      errno_text(e, ebuf, sizeof(ebuf)));
        goto out;
    }
    if (fsync(fd) != 0) {
        rc = rpl__err(err, RPL_E_IO, 0, "fsync failed: %s",
                      errno_text(errno, ebuf, sizeof(ebuf)));
        goto out;
    }
    e = close(fd);
    fd = -1;
    if (e != 0) {
        rc = rpl__err(err, RPL_E_IO, 0, "close failed: %s",
                      errno_text(errno, ebuf, sizeof(ebuf)));
        goto out;
    }

    if (force) {
        if (rename(tmp, path) != 0) {
            rc = rpl__err(err, RPL_E_IO, 0, "rename failed: %s",
                          errno_text(errno, ebuf, sizeof(ebuf)));
            goto out;
        }
        has_tmp = false;
    } else if (link(tmp, path) == 0) {
        /* link() never replaces: the target appeared nowhere else. */
        unlink(tmp);
        has_tmp = false;
    } else if (errno == EEXIST) {
        rc = rpl__err(err, RPL_E_EXISTS, 0, "file exists");
        goto out;
    } else if (errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS ||
               errno == EMLINK) {
        /* A file system without hard links: the lstat() check above is
         * the best there is. */
        if (lstat(path, &st) == 0) {
            rc = rpl__err(err, RPL_E_EXISTS, 0, "file exists");
            goto out;
        }
        if (rename(tmp, path) != 0) {
            rc = rpl__err(err, RPL_E_IO, 0, "rename failed: %s",
                          errno_text(errno, ebuf, sizeof(ebuf)));
            goto out;
        }
        has_tmp = false;
    } else {
        rc = rpl__err(err, RPL_E_IO, 0, "cannot create the file: %s",
                      errno_text(errno, ebuf, sizeof(ebuf)));
        goto out;
    }

    e = is_dir_synced ? sync_dir(dir) : 0;
    if (e != 0) {
        rc = rpl__err(err, RPL_E_IO, 0, "fsync of %s failed: %s", dir,
                      errno_text(e, ebuf, sizeof(ebuf)));
        goto out;
    }
out:
    if (fd >= 0)
        close(fd);
    if (has_tmp)
        unlink(tmp);
    free(tmp);
    free(dir);
    return rc;
}

/* zlib allocates through the context's allocator too. */
static voidpf
z_alloc(voidpf opaque, uInt items, uInt size)
{
    return rpl__calloc(opaque, items, size);
}

static void
z_free(voidpf opaque, voidpf ptr)
{
    rpl__free(opaque, ptr);
}

/* Message for an inflate() failure. */
static enum rpl_status
inflate_error(int zrc, const z_stream *zs, struct rpl_error *err)
{
    switch (zrc) {
    case Z_MEM_ERROR:
        return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
    case Z_NEED_DICT:
        return rpl__err(err, RPL_E_GZIP, 0,
                        "gzip member needs a preset dictionary");
    case Z_DATA_ERROR:
        return rpl__err(err, RPL_E_GZIP, 0, "corrupt gzip data (%s)",
                        zs->msg ? zs->msg : "invalid data");
    case Z_STREAM_ERROR:
    case Z_ERRNO:
    case Z_VERSION_ERROR:
    default:
        return rpl__err(err, RPL_E_GZIP, 0, "inflate failed (%s)",
                        zs->msg ? zs->msg : "zlib error");
    }
}

bool
rpl__gz_is_canonical(const uint8_t *in, size_t in_len)
{
    static const uint8_t head[8] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0};

    return in_len >= 10 && memcmp(in, head, sizeof(head)) == 0;
}

enum rpl_status
rpl__gz_inflate(struct rpl_ctx *ctx, const uint8_t *in, size_t in_len,
                char **out, size_t *out_len, struct rpl_error *err)
{
    /* One byte past the limit tells "exactly RPL_MAX_TEXT" from more. */
    const size_t hard_cap = (size_t)RPL_MAX_TEXT + 1;
    enum rpl_status rc = RPL_OK;
    z_stream zs;
    bool has_zs = false;
    char *buf = NULL;
    size_t cap, fed = 0;
    int zrc;

    *out = NULL;
    *out_len = 0;
    memset(&zs, 0, sizeof(zs));
    zs.zalloc = z_alloc;
    zs.zfree = z_free;
    zs.opaque = ctx;
    if (in_len == 0) {
        rc = rpl__err(err, RPL_E_GZIP, 0, "empty file (not a gzip member)");
        goto out;
    }
    zrc = inflateInit2(&zs, 16 + MAX_WBITS);
    if (zrc != Z_OK) {
        rc = zrc == Z_MEM_ERROR ? rpl__err(err, RPL_E_NOMEM, 0, "out of memory")
                                : rpl__err(err, RPL_E_GZIP, 0,
                                           "inflateInit2 failed (%d)", zrc);
        goto out;
    }
    has_zs = true;

    /* Start near the likely size and double up to the cap. */
    cap = in_len < hard_cap / 8 ? in_len * 8 : hard_cap;
    if (cap < 4096)
        cap = 4096;
    buf = rpl__alloc(ctx, cap);
    if (!buf) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    zs.next_out = (Bytef *)buf;
    zs.avail_out = (uInt)cap;

    for (;;) {
        if (zs.avail_in == 0 && fed < in_len) {
            const size_t n =
                in_len - fed < INFLATE_FEED ? in_len - fed : INFLATE_FEED;

            zs.next_in = in + fed;
            zs.avail_in = (uInt)n;
            fed += n;
        }
        if (zs.avail_out == 0) {
            const size_t used = cap;
            const size_t ncap = cap < hard_cap / 2 ? cap * 2 : hard_cap;
            char *p;

            if (cap == hard_cap) {
                rc = rpl__err(err, RPL_E_LIMIT, 0,
                              "text is over the %u-byte limit "
                              "(RPL_MAX_TEXT)",
                              RPL_MAX_TEXT);
                goto out;
            }
            p = rpl__realloc(ctx, buf, ncap);
            if (!p) {
                rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
                goto out;
            }
            buf = p;
            cap = ncap;
            zs.next_out = (Bytef *)(buf + used);
            zs.avail_out = (uInt)(cap - used);
        }
        zrc = inflate(&zs, Z_NO_FLUSH);
        if (zs.total_out > RPL_MAX_TEXT) {
            rc = rpl__err(err, RPL_E_LIMIT, 0,
                          "text is over the %u-byte limit (RPL_MAX_TEXT)",
                          RPL_MAX_TEXT);
            goto out;
        }
        if (zrc == Z_STREAM_END)
            break;
        if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
            rc = inflate_error(zrc, &zs, err);
            goto out;
        }
        /* Room left for output and no input left: the member is cut. */
        if (zs.avail_out > 0 && zs.avail_in == 0 && fed == in_len) {
            rc = rpl__err(err, RPL_E_GZIP, 0,
                          "gzip stream ends early (truncated file)");
            goto out;
        }
    }
    if (zs.avail_in > 0 || fed < in_len) {
        rc = rpl__err(err, RPL_E_GZIP, 0,
                      "data after the gzip member (%zu bytes)",
                      (size_t)zs.avail_in + (in_len - fed));
        goto out;
    }

    /* Shrink to the text and its NUL. */
    {
        const size_t n = (size_t)zs.total_out;
        char *p = rpl__realloc(ctx, buf, n + 1);

        if (p) {
            buf = p;
        } else if (cap < n + 1) {
            rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
            goto out;
        }
        buf[n] = '\0';
        *out = buf;
        *out_len = n;
        buf = NULL;
    }
out:
    if (has_zs)
        inflateEnd(&zs);
    rpl__free(ctx, buf);
    return rc;
}

/* ---------------------------------------------------- a kept deflater */

/* The blocks deflateInit2() asks for (its state, window, prev, head and
 * pending buffer: 256 KiB in all), kept in a context from one stream to
 * the next: setting them up again for each log, zeroed, costs more than
 * compressing it.  A stream on old blocks writes the same bytes as on
 * fresh ones: zlib reads no byte of them it has not written in that
 * stream (its own allocator is malloc(), whose memory is not zeroed;
 * each stream starts from deflateInit2(), which clears the hash heads and
 * zeroes the window past the input as it goes).  tests/test_gz.c
 * compares the two. */
#define KEPT_BLOCKS 8

struct kept {
    struct {
        void *p;
        size_t size;
        bool is_used;
    } blk[KEPT_BLOCKS];
};

static voidpf
kept_alloc(voidpf opaque, uInt items, uInt size)
{
    struct rpl_ctx *keep = opaque;
    struct kept *k = keep->deflater;
    size_t spare = KEPT_BLOCKS;
    size_t n;
    void *p;

    if (size && items > SIZE_MAX / size)
        return NULL;
    n = (size_t)items * size;
    for (size_t i = 0; i < KEPT_BLOCKS; i++) {
        if (k->blk[i].p && !k->blk[i].is_used && k->blk[i].size == n) {
            k->blk[i].is_used = true;
            return k->blk[i].p;
        }
        if (!k->blk[i].p && spare == KEPT_BLOCKS)
            spare = i;
    }
    p = rpl__alloc(keep, n);
    if (p && spare < KEPT_BLOCKS) {
        k->blk[spare].p = p;
        k->blk[spare].size = n;
        k->blk[spare].is_used = true;
    }
    return p;
}

static void
kept_free(voidpf opaque, voidpf ptr)
{
    struct rpl_ctx *keep = opaque;
    struct kept *k = keep->deflater;

    for (size_t i = 0; i < KEPT_BLOCKS; i++) {
        if (k->blk[i].p == ptr) {
            k->blk[i].is_used = false;
            return;
        }
    }
    rpl__free(keep, ptr);
}

static void
kept_release(struct rpl_ctx *ctx)
{
    struct kept *k = ctx->deflater;

    for (size_t i = 0; i < KEPT_BLOCKS; i++)
        rpl__free(ctx, k->blk[i].p);
    rpl__free(ctx, k);
    ctx->deflater = NULL;
    ctx->deflater_free = NULL;
}

/* Deflates text into a buffer of ctx, zlib allocating through zalloc and
 * zfree with opaque. */
static enum rpl_status
deflate_text(struct rpl_ctx *ctx, alloc_func zalloc, free_func zfree,
             voidpf opaque, const char *text, size_t len, uint8_t **out,
             size_t *out_len, struct rpl_error *err)
{
    enum rpl_status rc = RPL_OK;
    z_stream zs;
    gz_header head;
    bool has_zs = false;
    uint8_t *buf = NULL;
    uLong bound;
    int zrc;

    *out = NULL;
    *out_len = 0;
    if (len > RPL_MAX_TEXT) {
        rc = rpl__err(err, RPL_E_LIMIT, 0,
                      "text is over the %u-byte limit (RPL_MAX_TEXT)",
                      RPL_MAX_TEXT);
        goto out;
    }
    memset(&zs, 0, sizeof(zs));
    zs.zalloc = zalloc;
    zs.zfree = zfree;
    zs.opaque = opaque;
    zrc =
        deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    if (zrc != Z_OK) {
        rc = zrc == Z_MEM_ERROR ? rpl__err(err, RPL_E_NOMEM, 0, "out of memory")
                                : rpl__err(err, RPL_E_GZIP, 0,
                                           "deflateInit2 failed (%d)", zrc);
        goto out;
    }
    has_zs = true;

    /* MTIME 0, no name, comment or extra field; OS 255 ("unknown") so the
     * bytes do not depend on the machine. */
    memset(&head, 0, sizeof(head));
    head.os = 255;
    zrc = deflateSetHeader(&zs, &head);
    if (zrc != Z_OK) {
        rc = rpl__err(err, RPL_E_GZIP, 0, "deflateSetHeader failed (%d)", zrc);
        goto out;
    }

    bound = deflateBound(&zs, (uLong)len);
    buf = rpl__alloc(ctx, (size_t)bound);
    if (!buf) {
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    }
    zs.next_in = (const Bytef *)text;
    zs.avail_in = (uInt)len;
    zs.next_out = buf;
    zs.avail_out = (uInt)bound;
    zrc = deflate(&zs, Z_FINISH);
    switch (zrc) {
    case Z_STREAM_END:
        break;
    case Z_MEM_ERROR:
        rc = rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        goto out;
    case Z_OK:
    case Z_BUF_ERROR:
    case Z_STREAM_ERROR:
    default:
        rc = rpl__err(err, RPL_E_GZIP, 0, "deflate failed (%s)",
                      zs.msg ? zs.msg : "output does not fit");
        goto out;
    }
    if (zs.total_out > RPL_MAX_COMPRESSED) {
        rc = rpl__err(err, RPL_E_LIMIT, 0,
                      "compressed file is over the %u-byte limit "
                      "(RPL_MAX_COMPRESSED)",
                      RPL_MAX_COMPRESSED);
        goto out;
    }
    *out = buf;
    *out_len = (size_t)zs.total_out;
    buf = NULL;
out:
    if (has_zs)
        deflateEnd(&zs);
    rpl__free(ctx, buf);
    return rc;
}

enum rpl_status
rpl__gz_deflate(struct rpl_ctx *ctx, const char *text, size_t len,
                uint8_t **out, size_t *out_len, struct rpl_error *err)
{
    return deflate_text(ctx, z_alloc, z_free, ctx, text, len, out, out_len,
                        err);
}

enum rpl_status
rpl__gz_pack(struct rpl_ctx *ctx, struct rpl_ctx *keep, const char *text,
             size_t len, uint8_t **out, size_t *out_len, struct rpl_error *err)
{
    if (!keep)
        return rpl__gz_deflate(ctx, text, len, out, out_len, err);
    if (!keep->deflater) {
        keep->deflater = rpl__calloc(keep, 1, sizeof(struct kept));
        if (!keep->deflater) {
            *out = NULL;
            *out_len = 0;
            return rpl__err(err, RPL_E_NOMEM, 0, "out of memory");
        }
        keep->deflater_free = kept_release;
    }
    return deflate_text(ctx, kept_alloc, kept_free, keep, text, len, out,
                        out_len, err);
}
