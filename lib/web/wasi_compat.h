/*
 * wasi_compat.h - what wasi-libc lacks of the POSIX calls libreplay
 * makes, for the wasm build alone (make wasm includes it before each
 * file).  The module writes no files: both calls fail with ENOSYS
 * (wasi_compat.c), and the paths that make them are never reached from
 * lib/web/camelog_web.c.
 */
#ifndef CAMELOG_WASI_COMPAT_H
#define CAMELOG_WASI_COMPAT_H

#include <sys/types.h>

int mkstemp(char *tmpl);
int fchmod(int fd, mode_t mode);

#endif
