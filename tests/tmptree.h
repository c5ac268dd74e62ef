/*
 * tmptree.h - what the Check suites share for their temporary directories.
 */
#ifndef CAMELOG_TESTS_TMPTREE_H
#define CAMELOG_TESTS_TMPTREE_H

/* Removes dir and everything under it (a directory left without write
 * or search permission by a test is opened up first); never follows a
 * symbolic link out of it.  Errors are ignored: it is a teardown. */
void test_remove_tree(const char *dir);

#endif
