/* SPDX-License-Identifier: Apache-2.0 */
/*
 * finding_identity: what makes a finding the same finding in another build.
 *
 * A baseline (tools/baseline, docs/baselines.md) lists findings known and
 * accepted; a later run matches its findings against the list, and SARIF's
 * partialFingerprints carry the same identity to code-scanning services.
 * The identity must survive a rebuild that moves code, so it holds no
 * address:
 *
 *   kind       the kind's name ("cfa-mismatch"), verify/audit/finding.h
 *   object     the audited file's base name ("libfoo.so.1"), not its path
 *   function   the function's symbol (or "SECTION+0xOFF" for a function
 *              with none: that one does move with code)
 *   insn       the finding's place in the function: how many of its
 *              instructions come before the finding's first address
 *              (finding.h insn_index), -1 when it is in no function
 *   column     the DWARF column the rule is for (-1: the CFA or none)
 *   rule       the table's rule there, as dwtable prints it ("rsp+16"):
 *              in readelf's notation, where findings print `unchanged` and
 *              `undefined` as `u` (so identities stay those of the versions
 *              that printed `u`, and old baselines match)
 *   synth      what synthesis has there ("rsp+8"), the same way
 *
 * Code added before a function, or in other functions, leaves all of these
 * as they were; a change inside the function before the finding moves its
 * instruction index, and a changed rule or value is another finding.  The
 * message, the number of addresses and the source line are not part of it.
 *
 * The fingerprint is FNV-1a (64 bits) of the fields, each followed by a
 * NUL, in the order above (insn and column in decimal), after "v1": 16
 * lowercase hex digits.  Changing what goes in makes a new version (the
 * SARIF key "dwcheckFindingIdentity/v1" and the baseline file's version).
 */
#ifndef DWCHECK_FINDING_IDENTITY_H
#define DWCHECK_FINDING_IDENTITY_H

#include <stddef.h>
#include <stdint.h>

#include "verify/audit/finding.h"

#define FINDING_IDENTITY_KEY "dwcheckFindingIdentity/v1"

struct finding_identity {
    char kind[32];
    char object[256];
    char function[sizeof ((struct finding *)0)->function];
    long insn;
    int column;
    char rule[sizeof ((struct finding *)0)->dwarf];
    char synth[sizeof ((struct finding *)0)->synth];
};

/* F's identity, found in the file PATH (its base name is taken). */
void finding_identity_of(struct finding_identity *id, const char *path, const struct finding *f);

/* Whether A and B are the same finding. */
int finding_identity_equal(const struct finding_identity *a, const struct finding_identity *b);

/* The fingerprint: 16 hex digits and a NUL into BUF (17 bytes). */
#define FINDING_FINGERPRINT_LEN 17
void finding_identity_fingerprint(char *buf, const struct finding_identity *id);

#endif
