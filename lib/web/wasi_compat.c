/*
 * wasi_compat.c - the calls of wasi_compat.h, which fail: there is no
 * file system to write in the browser.
 */
#include <errno.h>

#include "wasi_compat.h"

int
mkstemp(char *tmpl)
{
    (void)tmpl;
    errno = ENOSYS;
    return -1;
}

int
fchmod(int fd, mode_t mode)
{
    (void)fd;
    (void)mode;
    errno = ENOSYS;
    return -1;
}
