/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vdso: this machine's vDSO as a file, so that "[vdso]" frames of a
 * recording made here can be unwound (its .eh_frame) and named (its
 * symbols), as perf does with the copy it keeps.
 *
 * The image is read from this process's own vDSO (AT_SYSINFO_EHDR) and
 * written once into dwperf's cache as vdso-BUILDID.so (profile/cache_dir:
 * a temporary under a random name, O_EXCL, renamed into place; a copy that
 * is not the user's, is a link or differs from the image is written
 * again).  Without a cache dwperf trusts, there is no copy.  It stands for a recorded "[vdso]" only when the
 * recording's build-id for it is this one: a recording from another
 * kernel gets none.
 */
#ifndef DWCHECK_PROFILE_VDSO_H
#define DWCHECK_PROFILE_VDSO_H

#include <stddef.h>
#include <stdint.h>

/* The vDSO's file name, in the cache DIR, when the recorded
 * BUILD_ID (LEN bytes) is this machine's vDSO's; else NULL.  The string is
 * static: valid until the next call. */
const char *vdso_image_path(const char *dir, const uint8_t *build_id, size_t len);

#endif
