/*
 * check_main.c - the one Check runner.  Every module's suite is listed
 * here; CK_RUN_SUITE=<name> runs one, CK_FORK=no helps under gdb.
 * A listed suite that does not exist fails the link.
 */
#include <stdlib.h>

#include <check.h>

#include "suites.h"

int
main(void)
{
    Suite *(*const suites[])(void) = {
        text_suite, crypto_suite, gz_suite,      keys_suite,
        log_suite,  games_suite,  avalon_suite,  archive_suite,
        soc_suite,  import_suite, seat_suite,    live_suite,
        rec_suite,  tlog_suite,   vectors_suite, spell_suite,
    };
    SRunner *sr = NULL;
    int failed;

    for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
        if (!sr)
            sr = srunner_create(suites[i]());
        else
            srunner_add_suite(sr, suites[i]());
    }
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
