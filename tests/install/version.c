/*
 * version.c - a program outside the tree, built by make check against
 * the installed library with pkg-config: prints rpl_version().
 */
#include <replay.h>
#include <stdio.h>

int
main(void)
{
    return puts(rpl_version()) == EOF;
}
