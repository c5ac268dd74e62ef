/*
 * entropy2.h - format 2's seed in two rounds for the suites: every
 * seat's pledge, the pledged line and its seal, then every value
 * (camelog(5) "Entropy").
 */
#ifndef TESTS_ENTROPY2_H
#define TESTS_ENTROPY2_H

#include <check.h>
#include <stdio.h>

#include "replay.h"

/* Seats seats[0..n-1] give values[i], signed with sks[i] (may be NULL). */
static inline void
two_rounds(struct rpl_recorder *rec, const uint8_t id[16], size_t n,
           const size_t *seats, const uint8_t (*values)[32],
           struct rpl_seckey *const *sks)
{
    struct rpl_error err;
    uint8_t c[32], own[16];

    if (!id) {
        /* The recorder's id, from its line "id <hex>". */
        size_t len = 0;
        const char *line = rpl_rec_line(rec, 3, &len);

        ck_assert_uint_eq(len, 35);
        for (size_t i = 0; i < 16; i++) {
            unsigned x = 0;

            ck_assert_int_eq(sscanf(line + 3 + 2 * i, "%2x", &x), 1);
            own[i] = (uint8_t)x;
        }
        id = own;
    }
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(rpl_entropy_pledge(id, seats[i], values[i], c),
                         RPL_OK);
        ck_assert_msg(rpl_rec_pledge(rec, seats[i], c, sks[i], NULL, NULL,
                                     &err) == RPL_OK,
                      "%s", err.msg);
    }
    ck_assert_msg(rpl_rec_pledged(rec, NULL, &err) == RPL_OK, "%s", err.msg);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(rpl_rec_entropy(rec, seats[i], values[i], sks[i], &err) ==
                          RPL_OK,
                      "%s", err.msg);
}

#endif /* TESTS_ENTROPY2_H */
