/*
 * test_gz.c - gzip reading and writing with their limits, bounded file
 * reads and atomic writes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#define ZLIB_CONST
#include <zlib.h>

#include "failalloc.h"
#include "internal.h"
#include "suites.h"
#include "tmptree.h"

static struct rpl_ctx *ctx;
static char tmpdir[64];

static void
setup(void)
{
    ck_assert_int_eq(rpl_ctx_new(&ctx, NULL, NULL), RPL_OK);
    strcpy(tmpdir, "/tmp/camelog-gz-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

/* Removes tmpdir and what the tests left in it (one level of
 * subdirectories). */
static void
teardown(void)
{
    test_remove_tree(tmpdir);
    rpl_ctx_free(ctx);
    ctx = NULL;
}

static void
path_in(char *out, size_t cap, const char *name)
{
    ck_assert_int_lt(snprintf(out, cap, "%s/%s", tmpdir, name), (int)cap);
}

/* Number of entries of dir other than . and .., and whether one starts
 * with '.' (a temporary file). */
static size_t
count_entries(const char *dir, bool *has_hidden)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t n = 0;

    ck_assert_ptr_nonnull(d);
    *has_hidden = false;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (de->d_name[0] == '.')
            *has_hidden = true;
        n++;
    }
    closedir(d);
    return n;
}

static void
write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");

    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

static const char sample[] =
    "camelog 1\ngame avalon\nid 00112233445566778899aabbccddeeff\n"
    "rules players=7 roles=merlin,percival,servant,servant,assassin,"
    "morgana,mordred lady=on targeting=off\n";

/* Compresses with zlib directly: a gzip member with the given header
 * (NULL: zlib's default). */
static uint8_t *
zlib_gzip(const void *in, size_t len, gz_header *head, size_t *out_len)
{
    z_stream zs;
    uLong bound;
    uint8_t *out;

    memset(&zs, 0, sizeof(zs));
    ck_assert_int_eq(
        deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
        Z_OK);
    if (head)
        ck_assert_int_eq(deflateSetHeader(&zs, head), Z_OK);
    bound = deflateBound(&zs, (uLong)len) + 1024;
    out = malloc(bound);
    ck_assert_ptr_nonnull(out);
    zs.next_in = in;
    zs.avail_in = (uInt)len;
    zs.next_out = out;
    zs.avail_out = (uInt)bound;
    ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_len = zs.total_out;
    deflateEnd(&zs);
    return out;
}

/* Inflates and expects a failure with code and line 0. */
static void
inflate_fails(const uint8_t *in, size_t len, enum rpl_status code,
              const char *msg_part)
{
    struct rpl_error err;
    char *text = (char *)1;
    size_t text_len = 7;

    ck_assert_int_eq(rpl__gz_inflate(ctx, in, len, &text, &text_len, &err),
                     code);
    ck_assert_int_eq(err.code, code);
    ck_assert_uint_eq(err.line, 0);
    ck_assert_ptr_null(text);
    ck_assert_uint_eq(text_len, 0);
    if (msg_part)
        ck_assert_msg(strstr(err.msg, msg_part), "message \"%s\" lacks \"%s\"",
                      err.msg, msg_part);
}

START_TEST(test_round_trip)
{
    struct rpl_error err;
    uint8_t *gz;
    size_t gz_len, text_len;
    char *text;

    ck_assert_int_eq(
        rpl__gz_deflate(ctx, sample, sizeof(sample) - 1, &gz, &gz_len, &err),
        RPL_OK);
    ck_assert_uint_gt(gz_len, 18);
    ck_assert_int_eq(rpl__gz_inflate(ctx, gz, gz_len, &text, &text_len, &err),
                     RPL_OK);
    ck_assert_uint_eq(text_len, sizeof(sample) - 1);
    ck_assert_mem_eq(text, sample, text_len);
    ck_assert_int_eq(text[text_len], '\0');
    rpl_free(ctx, text);
    rpl_free(ctx, gz);

    /* the empty text is one valid member too */
    ck_assert_int_eq(rpl__gz_deflate(ctx, "", 0, &gz, &gz_len, &err), RPL_OK);
    ck_assert_int_eq(rpl__gz_inflate(ctx, gz, gz_len, &text, &text_len, &err),
                     RPL_OK);
    ck_assert_uint_eq(text_len, 0);
    ck_assert_int_eq(text[0], '\0');
    rpl_free(ctx, text);
    rpl_free(ctx, gz);
}
END_TEST

/* A deflate stream kept in a context writes the bytes of a fresh one,
 * whatever it compressed before: texts long and short, one a prefix of
 * the one before (what the window holds past its end is the longer
 * text's), the empty text, again and again; the kept context may be the
 * output's own. */
START_TEST(test_pack_same_bytes)
{
    const size_t n = 300000;
    char *big = malloc(n);
    struct rpl_ctx *keep = NULL;
    struct rpl_error err;
    struct {
        const char *text;
        size_t len;
    } texts[] = {
        {sample, sizeof(sample) - 1},
        {NULL, 300000},
        {NULL, 40000},
        {NULL, 1777},
        {"", 0},
        {sample, sizeof(sample) - 1},
        {NULL, 1},
        {NULL, 258},
        {NULL, 300000},
        {sample, sizeof(sample) - 10},
    };

    ck_assert_ptr_nonnull(big);
    /* Lines that repeat with variations: long chains, lazy matches. */
    for (size_t i = 0; i < n; i++)
        big[i] = i % 61 == 60 ? '\n' : (char)('a' + (i * i / 7 + i / 997) % 26);
    ck_assert_int_eq(rpl_ctx_new(&keep, NULL, NULL), RPL_OK);
    for (int round = 0; round < 2; round++) {
        struct rpl_ctx *k = round == 0 ? keep : ctx;

        for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
            const char *text = texts[i].text ? texts[i].text : big;
            uint8_t *want, *got;
            size_t want_len, got_len;

            ck_assert_int_eq(rpl__gz_deflate(ctx, text, texts[i].len, &want,
                                             &want_len, &err),
                             RPL_OK);
            ck_assert_int_eq(
                rpl__gz_pack(ctx, k, text, texts[i].len, &got, &got_len, &err),
                RPL_OK);
            ck_assert_uint_eq(got_len, want_len);
            ck_assert_mem_eq(got, want, want_len);
            rpl_free(ctx, want);
            rpl_free(ctx, got);
        }
    }
    /* NULL keeps nothing: rpl__gz_deflate(). */
    {
        uint8_t *got;
        size_t got_len;

        ck_assert_int_eq(rpl__gz_pack(ctx, NULL, sample, sizeof(sample) - 1,
                                      &got, &got_len, &err),
                         RPL_OK);
        rpl_free(ctx, got);
    }
    rpl_ctx_free(keep);
    free(big);
}
END_TEST

START_TEST(test_header_bytes)
{
    struct rpl_error err;
    uint8_t *gz;
    size_t gz_len;

    ck_assert_int_eq(
        rpl__gz_deflate(ctx, sample, sizeof(sample) - 1, &gz, &gz_len, &err),
        RPL_OK);
    ck_assert_uint_ge(gz_len, 10);
    ck_assert_uint_eq(gz[0], 0x1f);
    ck_assert_uint_eq(gz[1], 0x8b);
    ck_assert_uint_eq(gz[2], 8); /* deflate */
    ck_assert_uint_eq(gz[3], 0); /* FLG: no FNAME, FCOMMENT, FEXTRA */
    ck_assert_uint_eq(rpl__load_le32(gz + 4), 0); /* MTIME */
    /* the trailer: CRC-32 and ISIZE of the text */
    ck_assert_uint_eq(rpl__load_le32(gz + gz_len - 8),
                      crc32(0, (const Bytef *)sample, sizeof(sample) - 1));
    ck_assert_uint_eq(rpl__load_le32(gz + gz_len - 4), sizeof(sample) - 1);
    rpl_free(ctx, gz);
}
END_TEST

/* Runs a shell command; its exit status. */
static int
run(const char *cmd)
{
    const int st = system(cmd);

    return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(test_gzip_tool)
{
    struct rpl_error err;
    uint8_t *gz, *back;
    size_t gz_len, back_len;
    char path[256], out[256], cmd[800];

    if (access("/usr/bin/gzip", X_OK) != 0 && access("/bin/gzip", X_OK) != 0)
        return;
    ck_assert_int_eq(
        rpl__gz_deflate(ctx, sample, sizeof(sample) - 1, &gz, &gz_len, &err),
        RPL_OK);
    path_in(path, sizeof(path), "t.camelog");
    path_in(out, sizeof(out), "t.txt");
    write_file(path, gz, gz_len);
    snprintf(cmd, sizeof(cmd), "gzip -t '%s'", path);
    ck_assert_int_eq(run(cmd), 0);
    snprintf(cmd, sizeof(cmd), "gzip -dc < '%s' > '%s'", path, out);
    ck_assert_int_eq(run(cmd), 0);
    ck_assert_int_eq(rpl__file_read(ctx, out, 4096, &back, &back_len, &err),
                     RPL_OK);
    ck_assert_uint_eq(back_len, sizeof(sample) - 1);
    ck_assert_mem_eq(back, sample, back_len);
    rpl_free(ctx, back);
    rpl_free(ctx, gz);

    /* and what gzip writes (with a name and a time) reads back */
    snprintf(cmd, sizeof(cmd), "gzip -c '%s' > '%s'", out, path);
    ck_assert_int_eq(run(cmd), 0);
    ck_assert_int_eq(
        rpl__file_read(ctx, path, RPL_MAX_COMPRESSED, &gz, &gz_len, &err),
        RPL_OK);
    ck_assert_uint_ne(gz[3] & 0x08, 0); /* FNAME is set */
    {
        char *text;
        size_t text_len;

        ck_assert_int_eq(
            rpl__gz_inflate(ctx, gz, gz_len, &text, &text_len, &err), RPL_OK);
        ck_assert_mem_eq(text, sample, sizeof(sample) - 1);
        rpl_free(ctx, text);
    }
    rpl_free(ctx, gz);
}
END_TEST

START_TEST(test_reads_any_header)
{
    gz_header head;
    uint8_t extra[6] = {'c', 'l', 2, 0, 1, 2};
    char name[] = "game.txt", comment[] = "a comment";
    struct rpl_error err;
    uint8_t *gz;
    size_t gz_len, text_len;
    char *text;

    memset(&head, 0, sizeof(head));
    head.time = 1700000000;
    head.os = 3;
    head.name = (Bytef *)name;
    head.comment = (Bytef *)comment;
    head.extra = extra;
    head.extra_len = sizeof(extra);
    head.hcrc = 1;
    gz = zlib_gzip(sample, sizeof(sample) - 1, &head, &gz_len);
    ck_assert_uint_eq(gz[3], 0x02 | 0x04 | 0x08 | 0x10);
    ck_assert_int_eq(rpl__gz_inflate(ctx, gz, gz_len, &text, &text_len, &err),
                     RPL_OK);
    ck_assert_uint_eq(text_len, sizeof(sample) - 1);
    ck_assert_mem_eq(text, sample, text_len);
    rpl_free(ctx, text);
    free(gz);
}
END_TEST

START_TEST(test_truncated)
{
    struct rpl_error err;
    uint8_t *gz;
    size_t gz_len;

    ck_assert_int_eq(
        rpl__gz_deflate(ctx, sample, sizeof(sample) - 1, &gz, &gz_len, &err),
        RPL_OK);
    inflate_fails(gz, 0, RPL_E_GZIP, "empty");
    /* every cut inside the member fails, most as "ends early" */
    for (size_t n = 1; n < gz_len; n++)
        inflate_fails(gz, n, RPL_E_GZIP, NULL);
    inflate_fails(gz, gz_len - 1, RPL_E_GZIP, "ends early");
    inflate_fails(gz, gz_len / 2, RPL_E_GZIP, "ends early");
    inflate_fails(gz, 10, RPL_E_GZIP, "ends early");
    rpl_free(ctx, gz);
}
END_TEST

START_TEST(test_trailing_and_two_members)
{
    struct rpl_error err;
    uint8_t *gz, *two;
    size_t gz_len;

    ck_assert_int_eq(
        rpl__gz_deflate(ctx, sample, sizeof(sample) - 1, &gz, &gz_len, &err),
        RPL_OK);
    two = malloc(2 * gz_len);
    ck_assert_ptr_nonnull(two);
    memcpy(two, gz, gz_len);
    memcpy(two + gz_len, gz, gz_len);
    inflate_fails(two, 2 * gz_len, RPL_E_GZIP, "data after the gzip member");
    two[gz_len] = '\n';
    inflate_fails(two, gz_len + 1, RPL_E_GZIP, "data after the gzip member");
    two[gz_len] = 0;
    inflate_fails(two, gz_len + 1, RPL_E_GZIP, "data after the gzip member");
    free(two);
    rpl_free(ctx, gz);
}
END_TEST

START_TEST(test_corrupt)
{
    struct rpl_error err;
    uint8_t *gz;
    size_t gz_len;

    ck_assert_int_eq(
        rpl__gz_deflate(ctx, sample, sizeof(sample) - 1, &gz, &gz_len, &err),
        RPL_OK);
    /* CRC-32 */
    gz[gz_len - 8] ^= 0x01;
    inflate_fails(gz, gz_len, RPL_E_GZIP, "corrupt gzip data");
    gz[gz_len - 8] ^= 0x01;
    /* ISIZE */
    gz[gz_len - 1] ^= 0x40;
    inflate_fails(gz, gz_len, RPL_E_GZIP, "corrupt gzip data");
    gz[gz_len - 1] ^= 0x40;
    /* magic: not gzip at all */
    gz[0] = 'c';
    inflate_fails(gz, gz_len, RPL_E_GZIP, "corrupt gzip data");
    gz[0] = 0x1f;
    /* a zlib (not gzip) stream is refused */
    {
        uint8_t z[256];
        uLongf zl = sizeof(z);

        ck_assert_int_eq(
            compress(z, &zl, (const Bytef *)sample, sizeof(sample) - 1), Z_OK);
        inflate_fails(z, zl, RPL_E_GZIP, NULL);
    }
    /* plain text is refused */
    inflate_fails((const uint8_t *)sample, sizeof(sample) - 1, RPL_E_GZIP,
                  NULL);
    rpl_free(ctx, gz);
}
END_TEST

START_TEST(test_text_limit)
{
    struct rpl_error err;
    const size_t n = RPL_MAX_TEXT;
    char *big = malloc(n + 1);
    uint8_t *gz;
    size_t gz_len, text_len;
    char *text;

    ck_assert_ptr_nonnull(big);
    for (size_t i = 0; i < n + 1; i++)
        big[i] = (char)('a' + i % 23);

    /* exactly RPL_MAX_TEXT is accepted */
    ck_assert_int_eq(rpl__gz_deflate(ctx, big, n, &gz, &gz_len, &err), RPL_OK);
    ck_assert_int_eq(rpl__gz_inflate(ctx, gz, gz_len, &text, &text_len, &err),
                     RPL_OK);
    ck_assert_uint_eq(text_len, n);
    ck_assert_mem_eq(text, big, n);
    ck_assert_int_eq(text[n], '\0');
    rpl_free(ctx, text);
    rpl_free(ctx, gz);

    /* one byte more: the writer refuses it, the reader too */
    ck_assert_int_eq(rpl__gz_deflate(ctx, big, n + 1, &gz, &gz_len, &err),
                     RPL_E_LIMIT);
    ck_assert_ptr_null(gz);
    ck_assert_ptr_nonnull(strstr(err.msg, "RPL_MAX_TEXT"));
    gz = zlib_gzip(big, n + 1, NULL, &gz_len);
    inflate_fails(gz, gz_len, RPL_E_LIMIT, "RPL_MAX_TEXT");
    free(gz);
    free(big);
}
END_TEST

/* A gzip member of 1 GiB of zeros, built without compressing 1 GiB: after
 * a full flush deflate forgets the past, so every further 4 MiB chunk of
 * zeros compresses to the same bytes, which are repeated. */
static uint8_t *
make_bomb(size_t *out_len)
{
    enum { CHUNK = 4 << 20, CHUNKS = 256 };
    static const uint8_t zeros[CHUNK];
    uint8_t *first = malloc(2 * CHUNK), *rep = malloc(CHUNK),
            *again = malloc(CHUNK), *fin = malloc(256), *out;
    size_t first_len, rep_len, fin_len, pos;
    uLong crc1, crc;
    z_stream zs;

    ck_assert(first && rep && again && fin);
    memset(&zs, 0, sizeof(zs));
    ck_assert_int_eq(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_RLE),
                     Z_OK);
#define PIECE(buf, cap, flush, len)                                            \
    do {                                                                       \
        zs.next_out = (buf);                                                   \
        zs.avail_out = (cap);                                                  \
        ck_assert_int_ne(deflate(&zs, (flush)), Z_STREAM_ERROR);               \
        ck_assert_uint_eq(zs.avail_in, 0);                                     \
        (len) = (cap)-zs.avail_out;                                            \
    } while (0)
    zs.next_in = zeros;
    zs.avail_in = CHUNK;
    PIECE(first, 2 * CHUNK, Z_FULL_FLUSH, first_len);
    zs.next_in = zeros;
    zs.avail_in = CHUNK;
    PIECE(rep, CHUNK, Z_FULL_FLUSH, rep_len);
    {
        size_t again_len;

        zs.next_in = zeros;
        zs.avail_in = CHUNK;
        PIECE(again, CHUNK, Z_FULL_FLUSH, again_len);
        ck_assert_uint_eq(again_len, rep_len);
        ck_assert_mem_eq(again, rep, rep_len);
    }
    zs.next_in = zeros;
    zs.avail_in = 0;
    PIECE(fin, 256, Z_FINISH, fin_len);
#undef PIECE
    deflateEnd(&zs);
    ck_assert_uint_gt(fin_len, 8);
    fin_len -= 8; /* the trailer is rewritten for 1 GiB below */

    crc1 = crc32(0, zeros, CHUNK);
    crc = crc1;
    for (int i = 1; i < CHUNKS; i++)
        crc = crc32_combine(crc, crc1, CHUNK);

    *out_len = first_len + (CHUNKS - 1) * rep_len + fin_len + 8;
    out = malloc(*out_len);
    ck_assert_ptr_nonnull(out);
    memcpy(out, first, first_len);
    pos = first_len;
    for (int i = 1; i < CHUNKS; i++, pos += rep_len)
        memcpy(out + pos, rep, rep_len);
    memcpy(out + pos, fin, fin_len);
    pos += fin_len;
    rpl__store_le32(out + pos, (uint32_t)crc);
    rpl__store_le32(out + pos + 4, (uint32_t)((uint64_t)CHUNK * CHUNKS));
    free(first);
    free(rep);
    free(again);
    free(fin);
    return out;
}

START_TEST(test_bomb)
{
    struct rpl_error err;
    size_t bomb_len, len;
    uint8_t *bomb = make_bomb(&bomb_len), *back;
    char path[256];

    /* small enough to pass the compressed-size limit */
    ck_assert_uint_le(bomb_len, RPL_MAX_COMPRESSED);
    path_in(path, sizeof(path), "bomb.camelog");
    write_file(path, bomb, bomb_len);
    ck_assert_int_eq(
        rpl__file_read(ctx, path, RPL_MAX_COMPRESSED, &back, &len, &err),
        RPL_OK);
    ck_assert_uint_eq(len, bomb_len);
    inflate_fails(back, len, RPL_E_LIMIT, "RPL_MAX_TEXT");
    rpl_free(ctx, back);
    free(bomb);
}
END_TEST

START_TEST(test_file_read_limit)
{
    struct rpl_error err;
    char path[256];
    uint8_t data[5000], *got;
    size_t len;

    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)i;
    path_in(path, sizeof(path), "f");
    write_file(path, data, sizeof(data));

    /* at the limit */
    ck_assert_int_eq(rpl__file_read(ctx, path, 5000, &got, &len, &err), RPL_OK);
    ck_assert_uint_eq(len, 5000);
    ck_assert_mem_eq(got, data, 5000);
    ck_assert_uint_eq(got[5000], 0);
    rpl_free(ctx, got);

    /* one past it */
    ck_assert_int_eq(rpl__file_read(ctx, path, 4999, &got, &len, &err),
                     RPL_E_LIMIT);
    ck_assert_ptr_null(got);
    ck_assert_uint_eq(err.line, 0);
    ck_assert_str_eq(err.msg, "file is over the 4999-byte limit");

    /* the message names a limit of limits.h */
    write_file(path, data, RPL_MAX_KEYFILE + 1);
    ck_assert_int_eq(
        rpl__file_read(ctx, path, RPL_MAX_KEYFILE, &got, &len, &err),
        RPL_E_LIMIT);
    ck_assert_str_eq(err.msg,
                     "file is over the 4096-byte limit (RPL_MAX_KEYFILE)");

    /* RPL_MAX_COMPRESSED bytes are read, one more is refused */
    {
        uint8_t *big = calloc(1, RPL_MAX_COMPRESSED + 1);

        ck_assert_ptr_nonnull(big);
        write_file(path, big, RPL_MAX_COMPRESSED);
        ck_assert_int_eq(
            rpl__file_read(ctx, path, RPL_MAX_COMPRESSED, &got, &len, &err),
            RPL_OK);
        ck_assert_uint_eq(len, RPL_MAX_COMPRESSED);
        rpl_free(ctx, got);
        write_file(path, big, RPL_MAX_COMPRESSED + 1);
        ck_assert_int_eq(
            rpl__file_read(ctx, path, RPL_MAX_COMPRESSED, &got, &len, &err),
            RPL_E_LIMIT);
        ck_assert_str_eq(err.msg, "file is over the 1048576-byte limit "
                                  "(RPL_MAX_COMPRESSED)");
        free(big);
    }

    /* an empty file */
    write_file(path, data, 0);
    ck_assert_int_eq(rpl__file_read(ctx, path, 10, &got, &len, &err), RPL_OK);
    ck_assert_uint_eq(len, 0);
    rpl_free(ctx, got);
}
END_TEST

/* Reads "-" with stdin on a pipe holding n bytes. */
static enum rpl_status
read_stdin_pipe(size_t n, size_t max, size_t *len, struct rpl_error *err)
{
    int fds[2], saved;
    uint8_t buf[5000], *got = NULL;
    enum rpl_status rc;

    ck_assert_uint_le(n, sizeof(buf));
    memset(buf, 'x', sizeof(buf));
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert_int_eq(write(fds[1], buf, n), (ssize_t)n);
    close(fds[1]);
    saved = dup(STDIN_FILENO);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fds[0], STDIN_FILENO), 0);
    close(fds[0]);
    rc = rpl__file_read(ctx, "-", max, &got, len, err);
    ck_assert_int_ge(dup2(saved, STDIN_FILENO), 0);
    close(saved);
    if (rc == RPL_OK) {
        ck_assert_uint_eq(*len, n);
        ck_assert_uint_eq(got[n], 0);
        if (n > 0)
            ck_assert_uint_eq(got[n - 1], 'x');
    }
    rpl_free(ctx, got);
    return rc;
}

START_TEST(test_file_read_stdin)
{
    struct rpl_error err;
    size_t len;

    ck_assert_int_eq(read_stdin_pipe(4096, 4096, &len, &err), RPL_OK);
    ck_assert_int_eq(read_stdin_pipe(4097, 4096, &len, &err), RPL_E_LIMIT);
    ck_assert_str_eq(err.msg,
                     "file is over the 4096-byte limit (RPL_MAX_KEYFILE)");
    ck_assert_int_eq(read_stdin_pipe(0, 4096, &len, &err), RPL_OK);
}
END_TEST

START_TEST(test_file_read_errors)
{
    struct rpl_error err;
    char path[256];
    uint8_t *got = (uint8_t *)1;
    size_t len;

    path_in(path, sizeof(path), "missing");
    ck_assert_int_eq(rpl__file_read(ctx, path, 100, &got, &len, &err),
                     RPL_E_IO);
    ck_assert_ptr_null(got);
    ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOENT)));
    ck_assert_int_eq(rpl__file_read(ctx, tmpdir, 100, &got, &len, &err),
                     RPL_E_IO);
}
END_TEST

START_TEST(test_write_atomic)
{
    struct rpl_error err;
    char path[256];
    uint8_t *got;
    size_t len;
    struct stat st;
    bool hidden;

    path_in(path, sizeof(path), "out.camelog");
    ck_assert_int_eq(
        rpl__file_write_atomic(path, "hello\n", 6, 0640, false, &err), RPL_OK);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0640);
    ck_assert_int_eq(rpl__file_read(ctx, path, 100, &got, &len, &err), RPL_OK);
    ck_assert_uint_eq(len, 6);
    ck_assert_mem_eq(got, "hello\n", 6);
    rpl_free(ctx, got);

    /* an existing file is kept without force */
    ck_assert_int_eq(
        rpl__file_write_atomic(path, "other\n", 6, 0600, false, &err),
        RPL_E_EXISTS);
    ck_assert_int_eq(err.code, RPL_E_EXISTS);
    ck_assert_int_eq(rpl__file_read(ctx, path, 100, &got, &len, &err), RPL_OK);
    ck_assert_mem_eq(got, "hello\n", 6);
    rpl_free(ctx, got);

    /* and replaced with it, taking the new mode */
    ck_assert_int_eq(rpl__file_write_atomic(path, "bye\n", 4, 0600, true, &err),
                     RPL_OK);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0600);
    ck_assert_int_eq(rpl__file_read(ctx, path, 100, &got, &len, &err), RPL_OK);
    ck_assert_uint_eq(len, 4);
    ck_assert_mem_eq(got, "bye\n", 4);
    rpl_free(ctx, got);

    /* a dangling symlink counts as existing */
    {
        char link_path[256];

        path_in(link_path, sizeof(link_path), "dangling");
        ck_assert_int_eq(symlink("nowhere", link_path), 0);
        ck_assert_int_eq(
            rpl__file_write_atomic(link_path, "x", 1, 0600, false, &err),
            RPL_E_EXISTS);
    }

    ck_assert_uint_eq(count_entries(tmpdir, &hidden), 2);
    ck_assert(!hidden);
}
END_TEST

/* rpl_file_write(), the writer of every file of camelog: a link at the
 * target is refused without force and replaced (not followed) with it. */
START_TEST(test_file_write_link)
{
    struct rpl_error err;
    char victim[256], target[256];
    uint8_t *got;
    size_t len;
    struct stat st;

    path_in(victim, sizeof(victim), "victim");
    path_in(target, sizeof(target), "page.html");
    ck_assert_int_eq(rpl_file_write(victim, "precious", 8, 0644, false, &err),
                     RPL_OK);
    ck_assert_int_eq(symlink(victim, target), 0);
    ck_assert_int_eq(rpl_file_write(target, "page", 4, 0644, false, &err),
                     RPL_E_EXISTS);
    ck_assert_int_eq(rpl_file_write(target, "page", 4, 0644, true, &err),
                     RPL_OK);
    ck_assert_int_eq(lstat(target, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert_int_eq(rpl__file_read(ctx, victim, 100, &got, &len, &err),
                     RPL_OK);
    ck_assert_uint_eq(len, 8);
    ck_assert_mem_eq(got, "precious", 8);
    rpl_free(ctx, got);
    ck_assert_int_eq(rpl__file_read(ctx, target, 100, &got, &len, &err),
                     RPL_OK);
    ck_assert_uint_eq(len, 4);
    rpl_free(ctx, got);
    ck_assert_int_eq(rpl_file_write(target, NULL, 1, 0644, true, &err),
                     RPL_E_ARG);
}
END_TEST

START_TEST(test_write_atomic_failures)
{
    struct rpl_error err;
    char path[256], sub[256];
    bool hidden;

    /* in a missing directory */
    path_in(path, sizeof(path), "nodir/out");
    ck_assert_int_eq(rpl__file_write_atomic(path, "x", 1, 0600, false, &err),
                     RPL_E_IO);
    ck_assert_uint_eq(err.line, 0);
    ck_assert_ptr_nonnull(strstr(err.msg, strerror(ENOENT)));

    /* over a directory (rename fails after the temporary file was
     * written): the temporary file is removed */
    path_in(sub, sizeof(sub), "sub");
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    ck_assert_int_eq(rpl__file_write_atomic(sub, "x", 1, 0600, true, &err),
                     RPL_E_IO);
    ck_assert_uint_eq(count_entries(tmpdir, &hidden), 1);
    ck_assert(!hidden);

    /* in a directory we may not write (root may) */
    if (geteuid() != 0) {
        ck_assert_int_eq(chmod(sub, 0500), 0);
        path_in(path, sizeof(path), "sub/out");
        ck_assert_int_eq(
            rpl__file_write_atomic(path, "x", 1, 0600, false, &err), RPL_E_IO);
        ck_assert_ptr_nonnull(strstr(err.msg, strerror(EACCES)));
        ck_assert_uint_eq(count_entries(sub, &hidden), 0);
        ck_assert_int_eq(chmod(sub, 0700), 0);
    }

    /* not a file name */
    path_in(path, sizeof(path), "");
    ck_assert_int_eq(rpl__file_write_atomic(path, "x", 1, 0600, true, &err),
                     RPL_E_ARG);
    ck_assert_uint_eq(count_entries(tmpdir, &hidden), 1);
}
END_TEST

START_TEST(test_write_relative_and_stdout)
{
    struct rpl_error err;
    char cwd[512], path[256];
    int saved, fd;
    uint8_t *got;
    size_t len;

    /* a bare name lands in the current directory */
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
    ck_assert_int_eq(chdir(tmpdir), 0);
    ck_assert_int_eq(rpl__file_write_atomic("rel", "r", 1, 0644, false, &err),
                     RPL_OK);
    ck_assert_int_eq(chdir(cwd), 0);
    path_in(path, sizeof(path), "rel");
    ck_assert_int_eq(access(path, F_OK), 0);

    /* "-" is standard output */
    path_in(path, sizeof(path), "stdout");
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    fflush(stdout);
    saved = dup(STDOUT_FILENO);
    ck_assert_int_ge(dup2(fd, STDOUT_FILENO), 0);
    close(fd);
    ck_assert_int_eq(
        rpl__file_write_atomic("-", "to stdout", 9, 0600, false, &err), RPL_OK);
    ck_assert_int_ge(dup2(saved, STDOUT_FILENO), 0);
    close(saved);
    ck_assert_int_eq(rpl__file_read(ctx, path, 100, &got, &len, &err), RPL_OK);
    ck_assert_uint_eq(len, 9);
    ck_assert_mem_eq(got, "to stdout", 9);
    rpl_free(ctx, got);
}
END_TEST

enum op { OP_INFLATE, OP_DEFLATE, OP_PACK, OP_READ };

/* Runs op with the Nth allocation failing, for N = 1, 2, ... until it
 * succeeds: every earlier run is RPL_E_NOMEM and leaks nothing. */
START_TEST(test_nomem)
{
    const enum op op = (enum op)_i;
    struct failing f = {-1, 0};
    const struct rpl_allocator a = failing_allocator(&f);
    struct rpl_ctx *fctx;
    struct rpl_error err;
    uint8_t *gz;
    size_t gz_len, failures = 0;
    char path[256];
    bool done = false;

    ck_assert_int_eq(
        rpl__gz_deflate(ctx, sample, sizeof(sample) - 1, &gz, &gz_len, &err),
        RPL_OK);
    path_in(path, sizeof(path), "f");
    write_file(path, sample, sizeof(sample) - 1);
    ck_assert_int_eq(rpl_ctx_new(&fctx, &a, &err), RPL_OK);
    for (size_t n = 1; n < 100 && !done; n++) {
        const long live = f.live;
        enum rpl_status rc = RPL_E_ARG;
        char *text = NULL;
        uint8_t *bytes = NULL;
        void *out;
        size_t len = 0;

        f.countdown = (long)n - 1; /* the Nth allocation fails */
        switch (op) {
        case OP_INFLATE:
            rc = rpl__gz_inflate(fctx, gz, gz_len, &text, &len, &err);
            break;
        case OP_DEFLATE:
            rc = rpl__gz_deflate(fctx, sample, sizeof(sample) - 1, &bytes, &len,
                                 &err);
            break;
        case OP_PACK: {
            /* The kept stream's context fails too, and is freed after,
             * which frees what it kept. */
            struct rpl_ctx *keep = NULL;

            f.countdown = -1;
            ck_assert_int_eq(rpl_ctx_new(&keep, &a, &err), RPL_OK);
            f.countdown = (long)n - 1;
            rc = rpl__gz_pack(fctx, keep, sample, sizeof(sample) - 1, &bytes,
                              &len, &err);
            f.countdown = -1;
            rpl_ctx_free(keep);
            break;
        }
        case OP_READ:
            rc = rpl__file_read(fctx, path, 4096, &bytes, &len, &err);
            break;
        }
        out = text ? (void *)text : (void *)bytes;
        f.countdown = -1;
        if (rc == RPL_OK) {
            ck_assert_ptr_nonnull(out);
            rpl_free(fctx, out);
            done = true;
        } else {
            ck_assert_int_eq(rc, RPL_E_NOMEM);
            ck_assert_ptr_null(out);
            failures++;
        }
        ck_assert_int_eq(f.live, live);
    }
    ck_assert(done);
    ck_assert_uint_gt(failures, 0);
    rpl_ctx_free(fctx);
    rpl_free(ctx, gz);
}
END_TEST

Suite *
gz_suite(void)
{
    Suite *s = suite_create("gz");
    TCase *tc = tcase_create("gzip");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_pack_same_bytes);
    tcase_add_test(tc, test_header_bytes);
    tcase_add_test(tc, test_gzip_tool);
    tcase_add_test(tc, test_reads_any_header);
    tcase_add_test(tc, test_truncated);
    tcase_add_test(tc, test_trailing_and_two_members);
    tcase_add_test(tc, test_corrupt);
    tcase_add_test(tc, test_text_limit);
    tcase_add_test(tc, test_bomb);
    suite_add_tcase(s, tc);

    tc = tcase_create("files");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_file_read_limit);
    tcase_add_test(tc, test_file_read_stdin);
    tcase_add_test(tc, test_file_read_errors);
    tcase_add_test(tc, test_write_atomic);
    tcase_add_test(tc, test_write_atomic_failures);
    tcase_add_test(tc, test_file_write_link);
    tcase_add_test(tc, test_write_relative_and_stdout);
    suite_add_tcase(s, tc);

    tc = tcase_create("nomem");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_nomem, OP_INFLATE, OP_READ + 1);
    suite_add_tcase(s, tc);
    return s;
}
