/*
 * record.c - games-record: a seeded recorder of any game the test
 * registry knows, through the public API alone (replay.h), the way a
 * host records: rpl_rec_new, rpl_rec_start, rpl_rec_bot until no seat
 * is to act, rpl_rec_reveal, then verify and write.
 *
 *   games-record GAME PLAYERS RULES SEED_HEX dealer.key OUT [sigs]
 *
 * It exists because `camelog simulate --game` accepts only the names
 * tools/cmd_simulate.c lists (avalon, soc), so a game added as a folder
 * cannot be simulated by camelog itself (tests/cli/door.sh).  Every
 * value comes from BLAKE2b(key = BLAKE2b(seed), label) for the labels
 * "id", "secret", "bots" and "seat key pK", so a run is reproducible.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "replay.h"

static const char *const names[] = {
    "Alice", "Bob",   "Carol", "Dave", "Erin",
    "Frank", "Grace", "Heidi", "Ivan", "Judy",
};
#define MAX_PLAYERS (sizeof(names) / sizeof(names[0]))

static void
derive(const uint8_t root[32], const char *label, uint8_t *out, size_t n)
{
    crypto_generichash(out, n, (const unsigned char *)label, strlen(label),
                       root, 32);
}

static int
fail(const char *what, const struct rpl_error *err)
{
    fprintf(stderr, "games-record: %s: line %zu: %s\n", what, err->line,
            err->msg);
    return 1;
}

int
main(int argc, char **argv)
{
    struct rpl_seckey *dealer = NULL, *seat_sk[MAX_PLAYERS] = {NULL};
    struct rpl_pubkey seat_pk[MAX_PLAYERS], dealer_pk;
    const struct rpl_pubkey *seat_keys[MAX_PLAYERS] = {NULL};
    struct rpl_ctx *ctx = NULL;
    struct rpl_recorder *rec = NULL;
    struct rpl_log *log = NULL;
    struct rpl_rec_config cfg;
    struct rpl_verify_opts vopts;
    struct rpl_report rep;
    struct rpl_error err;
    uint8_t seed[64], root[32], id[16], secret[32], bots[32], buf[32];
    size_t seed_len = 0, players, turn, moves = 0;
    bool has_sigs;
    int rc = 1;

    if (argc < 7 || argc > 8 || (argc == 8 && strcmp(argv[7], "sigs") != 0)) {
        fprintf(stderr, "usage: games-record GAME PLAYERS RULES SEED_HEX "
                        "dealer.key OUT [sigs]\n");
        return 2;
    }
    players = strtoul(argv[2], NULL, 10);
    has_sigs = argc == 8;
    if (players == 0 || players > MAX_PLAYERS ||
        sodium_hex2bin(seed, sizeof(seed), argv[4], strlen(argv[4]), NULL,
                       &seed_len, NULL) != 0 ||
        seed_len == 0) {
        fprintf(stderr, "games-record: bad players or seed\n");
        return 2;
    }
    if (rpl_ctx_new(&ctx, NULL, &err) != RPL_OK)
        return fail("context", &err);
    crypto_generichash(root, sizeof(root), seed, seed_len, NULL, 0);
    derive(root, "id", id, sizeof(id));
    derive(root, "secret", secret, sizeof(secret));
    derive(root, "bots", bots, sizeof(bots));
    if (rpl_seckey_load(ctx, &dealer, argv[5], &err) != RPL_OK) {
        rc = fail(argv[5], &err);
        goto out;
    }
    rpl_seckey_pubkey(dealer, &dealer_pk);
    for (size_t k = 1; has_sigs && k <= players; k++) {
        char label[32];

        snprintf(label, sizeof(label), "seat key p%zu", k);
        derive(root, label, buf, sizeof(buf));
        if (rpl_seckey_from_seed(ctx, &seat_sk[k - 1], buf, &err) != RPL_OK) {
            rc = fail("seat key", &err);
            goto out;
        }
        rpl_seckey_pubkey(seat_sk[k - 1], &seat_pk[k - 1]);
        seat_keys[k - 1] = &seat_pk[k - 1];
    }
    memset(&cfg, 0, sizeof(cfg));
    cfg.game = argv[1];
    cfg.rules = argv[3];
    cfg.seats = players;
    cfg.names = names;
    cfg.seat_keys = has_sigs ? seat_keys : NULL;
    cfg.dealer = dealer;
    cfg.id = id;
    cfg.secret = secret;
    if (rpl_rec_new(ctx, &rec, &cfg, &err) != RPL_OK) {
        rc = fail("record", &err);
        goto out;
    }
    if (rpl_rec_start(rec, &err) != RPL_OK) {
        rc = fail("start", &err);
        goto out;
    }
    while ((turn = rpl_rec_dealer_turn(rec)) != 0) {
        if (++moves > 100000 || turn > players) {
            fprintf(stderr, "games-record: the bots did not finish\n");
            goto out;
        }
        if (rpl_rec_bot(rec, RPL_BOT_PLAUSIBLE, bots, seat_sk[turn - 1],
                        &err) != RPL_OK) {
            rc = fail("bot", &err);
            goto out;
        }
    }
    if (rpl_rec_reveal(rec, &err) != RPL_OK ||
        rpl_rec_log(rec, &log, &err) != RPL_OK) {
        rc = fail("reveal", &err);
        goto out;
    }
    memset(&vopts, 0, sizeof(vopts));
    vopts.pubkey = &dealer_pk;
    if (rpl_log_verify(log, &vopts, &rep) != RPL_OK) {
        rc = fail("verify", &rep.error);
        goto out;
    }
    if (rpl_log_write(log, argv[6], false, &err) != RPL_OK) {
        rc = fail(argv[6], &err);
        goto out;
    }
    printf("%s: %s %s\n", argv[6], rep.winner, rep.reason);
    rc = 0;
out:
    rpl_log_free(log);
    rpl_rec_free(rec);
    for (size_t k = 0; k < MAX_PLAYERS; k++)
        rpl_seckey_free(seat_sk[k]);
    rpl_seckey_free(dealer);
    rpl_ctx_free(ctx);
    sodium_memzero(secret, sizeof(secret));
    sodium_memzero(root, sizeof(root));
    return rc;
}
