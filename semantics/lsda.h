/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lsda: the call-site tables of .gcc_except_table (the "language-specific
 * data area" an FDE's 'L' augmentation points to).
 *
 * Each call-site record says: a call in [start, start + len) that throws
 * continues at the landing pad (0: no landing pad, the exception goes on).
 * Synthesis uses the records so that a landing pad starts in the state of
 * its call sites, as the unwinder resumes it.  Pure and bounds-checked.
 */
#ifndef DWCHECK_LSDA_H
#define DWCHECK_LSDA_H

#include <stdint.h>

struct lsda_call_site {
    uint64_t start, len;        /* absolute addresses of the covered calls */
    uint64_t landing_pad;       /* absolute address, or 0 */
};

typedef int (*lsda_site_fn)(void *arg, const struct lsda_call_site *site);

/*
 * Parse the LSDA at address LSDA_ADDR, inside BYTES (SIZE bytes of the
 * section at SEC_ADDR).  FUNC_START is the landing-pad base when the LSDA
 * gives none.  ON_SITE sees each record (a non-zero return stops).  Returns
 * 0, or -1 with a static reason in *ERROR.
 */
int lsda_parse(const uint8_t *bytes, uint64_t size, uint64_t sec_addr, uint64_t lsda_addr,
               uint64_t func_start, lsda_site_fn on_site, void *arg, const char **error);

#endif
