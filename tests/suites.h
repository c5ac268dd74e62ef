/*
 * suites.h - the Check suites of tests/, one per module.  The list is
 * explicit: a suite named here that no test file defines fails the link.
 */
#ifndef CAMELOG_TESTS_SUITES_H
#define CAMELOG_TESTS_SUITES_H

#include <check.h>

#define SUITE_FN(name) Suite *name(void)
SUITE_FN(text_suite);
SUITE_FN(crypto_suite);
SUITE_FN(gz_suite);
SUITE_FN(keys_suite);
SUITE_FN(log_suite);
SUITE_FN(games_suite);
SUITE_FN(avalon_suite);
SUITE_FN(archive_suite);
SUITE_FN(soc_suite);
SUITE_FN(import_suite);
SUITE_FN(seat_suite);
SUITE_FN(live_suite);
SUITE_FN(rec_suite);
SUITE_FN(tlog_suite);
SUITE_FN(vectors_suite);
SUITE_FN(spell_suite);
#undef SUITE_FN

#endif
