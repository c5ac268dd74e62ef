/*
 * cmd_keygen.c - camelog keygen: makes a dealer key pair, NAME.key (the
 * secret key, mode 0600) and NAME.pub (minisign's public-key format), and
 * prints the public key.  --seed derives the pair from 32 bytes, for tests
 * and reproducible samples only.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "cli.h"
#include "replay.h"

static const char usage[] =
    "usage: camelog keygen [--force] [--seed hex] -o name\n";

static const char options[] =
    "options:\n"
    "  -o, --output name  write name.key (secret, 0600) and name.pub\n"
    "  -f, --force        overwrite existing files\n"
    "  --seed hex         derive the keys from 32 bytes (64 hex digits);\n"
    "                     for tests only: anyone with the seed has the key\n"
    "  -h, --help         this help\n";

/* The pair is written to two temporary files beside the targets first,
 * and only then put in place, so that a failure (a full disk, a target
 * that cannot be replaced) leaves both files or neither. */

/* A temporary name beside path: path "." 16 random hex digits ".tmp". */
static char *
temp_beside(const char *path)
{
    uint8_t r[8];
    char hex[2 * sizeof(r) + 1];
    const size_t n = strlen(path);
    char *p = malloc(n + 1 + sizeof(hex) - 1 + 4 + 1);

    if (!p) {
        return NULL;
    }
    randombytes_buf(r, sizeof(r));
    cli_hex(r, sizeof(r), hex);
    sprintf(p, "%s.%s.tmp", path, hex);
    return p;
}

/* fsync of the directory holding path, so the renames last. */
static void
sync_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int fd;

    if (!slash) {
        dir = strdup(".");
    } else {
        dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
    }
    if (!dir) {
        return;
    }
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Moves tmp to path: never over an existing file without force (link()
 * refuses to), over it with force.  Reports a failure. */
static bool
install(const char *tmp, const char *path, bool force)
{
    struct stat sb;

    if (force) {
        if (rename(tmp, path) == 0) {
            return true;
        }
    } else if (link(tmp, path) == 0) {
        unlink(tmp);
        return true;
    } else if (errno == EEXIST) {
        cli_file_msg(path, 0, "file exists; --force overwrites it");
        return false;
    } else if (errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS ||
               errno == EMLINK) {
        /* A file system without hard links: lstat() is the best there
         * is. */
        if (lstat(path, &sb) == 0) {
            cli_file_msg(path, 0, "file exists; --force overwrites it");
            return false;
        }
        if (rename(tmp, path) == 0) {
            return true;
        }
    }
    cli_file_msg(path, 0, "rename failed: %s", strerror(errno));
    return false;
}

static char *
with_suffix(const char *name, const char *suffix)
{
    const size_t n = strlen(name), m = strlen(suffix);
    char *p = malloc(n + m + 1);

    if (p) {
        memcpy(p, name, n);
        memcpy(p + n, suffix, m + 1);
    }
    return p;
}

int
cmd_keygen(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"force", no_argument, NULL, 'f'},
        {"seed", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *name = NULL, *seed_hex = NULL;
    bool force = false;
    uint8_t seed[32];
    size_t seed_len = 0;
    struct rpl_ctx *ctx = NULL;
    struct rpl_seckey *sk = NULL;
    struct rpl_pubkey pk;
    struct rpl_error err;
    enum rpl_status st;
    char *keypath = NULL, *pubpath = NULL, *keytmp = NULL, *pubtmp = NULL;
    bool has_keytmp = false, has_pubtmp = false;
    char b64[RPL_PUBKEY_B64_LEN + 1];
    int c, rc = CLI_EXIT_USAGE;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:fh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            name = optarg;
            break;
        case 'f':
            force = true;
            break;
        case 's':
            seed_hex = optarg;
            break;
        case 'h':
            return cli_help(usage, options);
        default:
            return cli_option_error("keygen", c, argv);
        }
    }
    if (optind < argc) {
        return cli_usage_error("keygen", "unexpected argument '%s'",
                               argv[optind]);
    }
    if (!name || name[0] == '\0') {
        return cli_usage_error("keygen", "no output name (-o name)");
    }
    if (seed_hex && (!cli_parse_hex(seed_hex, seed, sizeof(seed), &seed_len) ||
                     seed_len != sizeof(seed))) {
        return cli_usage_error("keygen", "--seed needs 64 hex digits");
    }
    keypath = with_suffix(name, ".key");
    pubpath = with_suffix(name, ".pub");
    if (!keypath || !pubpath) {
        cli_msg("out of memory");
        goto out;
    }
    /* Check both before writing either, so a refusal leaves no half
     * pair behind. */
    if (!force && access(keypath, F_OK) == 0) {
        cli_file_msg(keypath, 0, "file exists; --force overwrites it");
        goto out;
    }
    if (!force && access(pubpath, F_OK) == 0) {
        cli_file_msg(pubpath, 0, "file exists; --force overwrites it");
        goto out;
    }
    rc = cli_ctx_new(&ctx);
    if (rc != CLI_EXIT_OK) {
        goto out;
    }
    if (seed_hex) {
        st = rpl_seckey_from_seed(ctx, &sk, seed, &err);
    } else {
        st = rpl_seckey_generate(ctx, &sk, &err);
    }
    if (st != RPL_OK) {
        rc = cli_worst(CLI_EXIT_USAGE, cli_file_error(NULL, st, &err));
        goto out;
    }
    keytmp = temp_beside(keypath);
    pubtmp = temp_beside(pubpath);
    if (!keytmp || !pubtmp) {
        cli_msg("out of memory");
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    st = rpl_seckey_save(sk, keytmp, false, &err);
    if (st != RPL_OK) {
        rc = cli_worst(CLI_EXIT_USAGE, cli_file_error(keypath, st, &err));
        goto out;
    }
    has_keytmp = true;
    rpl_seckey_pubkey(sk, &pk);
    st = rpl_pubkey_save(&pk, pubtmp, false, &err);
    if (st != RPL_OK) {
        rc = cli_worst(CLI_EXIT_USAGE, cli_file_error(pubpath, st, &err));
        goto out;
    }
    has_pubtmp = true;
    rc = CLI_EXIT_USAGE;
    if (!install(keytmp, keypath, force)) {
        goto out;
    }
    has_keytmp = false;
    if (!install(pubtmp, pubpath, force)) {
        /* Neither file rather than a secret key without its pair. */
        unlink(keypath);
        goto out;
    }
    has_pubtmp = false;
    sync_dir_of(keypath);
    rpl_pubkey_format(&pk, b64);
    printf("%s\n", b64);
    rc = cli_finish(CLI_EXIT_OK);
out:
    if (has_keytmp) {
        unlink(keytmp);
    }
    if (has_pubtmp) {
        unlink(pubtmp);
    }
    free(keytmp);
    free(pubtmp);
    rpl_seckey_free(sk);
    rpl_ctx_free(ctx);
    free(keypath);
    free(pubpath);
    sodium_memzero(seed, sizeof(seed));
    return rc;
}
