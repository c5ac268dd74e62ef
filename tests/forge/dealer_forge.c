/*
 * forge/dealer_forge.c - dealer-forge: what a dishonest dealer makes with its
 * own key, for tests/cli/dishonest.sh.  The dealer's key pair comes from
 * the 32-byte seed `camelog keygen --seed` takes.  libsodium only: the
 * bytes are camelog(5)'s, written here a second time, so that a test
 * double can lie exactly as a dealer could.
 *
 *   dealer-forge commit ID LABEL VALUE NONCE
 *       the format 2 commitment of VALUE (padded) under NONCE
 *   dealer-forge delivery SEED ID SEAT LINE LABEL VALUE NONCE
 *       the delivery in JSON form, its value padded, signed by the dealer
 *   dealer-forge sign SEED HEX
 *       the dealer's signature (base64) of the bytes HEX
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#define PAD 191u

static int
usage(void)
{
    fprintf(stderr, "usage: dealer-forge commit ID LABEL VALUE NONCE\n"
                    "       dealer-forge delivery SEED ID SEAT LINE LABEL "
                    "VALUE NONCE\n"
                    "       dealer-forge sign SEED HEX\n");
    return 2;
}

static int
unhex(const char *s, uint8_t *out, size_t n)
{
    size_t len = 0;

    if (strlen(s) != 2 * n ||
        sodium_hex2bin(out, n, s, 2 * n, NULL, &len, NULL) != 0 || len != n) {
        fprintf(stderr, "dealer-forge: '%s' is not %zu bytes of hex\n", s, n);
        return -1;
    }
    return 0;
}

static int
pad(const char *value, char out[PAD + 1])
{
    const size_t n = strlen(value);

    if (n > PAD) {
        fprintf(stderr, "dealer-forge: a value of more than %u bytes\n", PAD);
        return -1;
    }
    memcpy(out, value, n);
    memset(out + n, '.', PAD - n);
    out[PAD] = '\0';
    return 0;
}

/* c = H(key = nonce, id || label || 0x00 || padded value). */
static void
commit(const uint8_t id[16], const char *label, const char *padded,
       const uint8_t nonce[32], uint8_t out[32])
{
    static const uint8_t zero = 0;
    crypto_generichash_state st;

    crypto_generichash_init(&st, nonce, 32, 32);
    crypto_generichash_update(&st, id, 16);
    crypto_generichash_update(&st, (const uint8_t *)label, strlen(label));
    crypto_generichash_update(&st, &zero, 1);
    crypto_generichash_update(&st, (const uint8_t *)padded, strlen(padded));
    crypto_generichash_final(&st, out, 32);
}

static int
keypair(const char *seed_hex, uint8_t pk[32], uint8_t sk[64])
{
    uint8_t seed[32];

    if (unhex(seed_hex, seed, sizeof(seed)) != 0)
        return -1;
    crypto_sign_seed_keypair(pk, sk, seed);
    sodium_memzero(seed, sizeof(seed));
    return 0;
}

static void
print_b64(const uint8_t *p, size_t n)
{
    char b64[sodium_base64_ENCODED_LEN(64, sodium_base64_VARIANT_ORIGINAL)];

    sodium_bin2base64(b64, sizeof(b64), p, n, sodium_base64_VARIANT_ORIGINAL);
    fputs(b64, stdout);
}

int
main(int argc, char **argv)
{
    uint8_t id[16], nonce[32], c[32], pk[32], sk[64];
    char padded[PAD + 1];
    char hex[65];

    if (sodium_init() < 0 || argc < 2)
        return usage();
    if (strcmp(argv[1], "commit") == 0 && argc == 6) {
        if (unhex(argv[2], id, 16) || pad(argv[4], padded) ||
            unhex(argv[5], nonce, 32))
            return 2;
        commit(id, argv[3], padded, nonce, c);
        sodium_bin2hex(hex, sizeof(hex), c, 32);
        printf("%s\n", hex);
        return 0;
    }
    if (strcmp(argv[1], "delivery") == 0 && argc == 9) {
        /* "camelog delivery v1" || id || le64(line) || label || 0 ||
         * value || 0 || nonce */
        static const char domain[] = "camelog delivery v1";
        uint8_t msg[19 + 16 + 8 + 64 + 192 + 32 + 2];
        uint8_t sig[64];
        const unsigned long long line = strtoull(argv[5], NULL, 10);
        const char *label = argv[6];
        size_t n = 0;

        if (keypair(argv[2], pk, sk) || unhex(argv[3], id, 16) ||
            pad(argv[7], padded) || unhex(argv[8], nonce, 32) ||
            strlen(label) > 63)
            return 2;
        memcpy(msg, domain, sizeof(domain) - 1);
        n += sizeof(domain) - 1;
        memcpy(msg + n, id, 16);
        n += 16;
        for (int i = 0; i < 8; i++)
            msg[n++] = (uint8_t)(line >> (8 * i));
        memcpy(msg + n, label, strlen(label));
        n += strlen(label);
        msg[n++] = 0;
        memcpy(msg + n, padded, PAD);
        n += PAD;
        msg[n++] = 0;
        memcpy(msg + n, nonce, 32);
        n += 32;
        crypto_sign_detached(sig, NULL, msg, n, sk);
        sodium_bin2hex(hex, sizeof(hex), nonce, 32);
        printf("{\"seat\":%s,\"line\":%llu,\"label\":\"%s\",\"value\":\"%s\","
               "\"nonce\":\"%s\",\"sig\":\"",
               argv[4], line, label, padded, hex);
        print_b64(sig, 64);
        printf("\"}\n");
        sodium_memzero(sk, sizeof(sk));
        return 0;
    }
    if (strcmp(argv[1], "sign") == 0 && argc == 4) {
        const size_t n = strlen(argv[3]) / 2;
        uint8_t *msg = malloc(n + 1);
        uint8_t sig[64];
        size_t len = 0;

        if (!msg || keypair(argv[2], pk, sk) ||
            sodium_hex2bin(msg, n, argv[3], 2 * n, NULL, &len, NULL) != 0) {
            free(msg);
            return 2;
        }
        crypto_sign_detached(sig, NULL, msg, len, sk);
        print_b64(sig, 64);
        printf("\n");
        free(msg);
        sodium_memzero(sk, sizeof(sk));
        return 0;
    }
    return usage();
}
