/*
 * cache_dir: where dwperf keeps what it makes for later runs — eh_elfs by
 * build-id, the vDSO's copy: $XDG_CACHE_HOME/dwcheck/eh_elf, else
 * ~/.cache/dwcheck/eh_elf.
 */
#ifndef DWCHECK_PROFILE_CACHE_DIR_H
#define DWCHECK_PROFILE_CACHE_DIR_H

#include <stddef.h>

/* The default cache directory, written into BUF (LEN bytes); NULL when
 * neither variable names an absolute directory. */
const char *cache_dir_default(char *buf, size_t len);

/* Create DIR and its missing parents (mode 0755); 0, or -1 with errno. */
int cache_dir_create(const char *dir);

#endif
