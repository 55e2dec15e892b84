/* SPDX-License-Identifier: Apache-2.0 */
/*
 * audit_input: one binary opened for comparing its DWARF with synthesis.
 *
 * Owns the ELF file, the whole-binary synthesis (synth_program, which also
 * holds the .eh_frame view) and the address-to-DWARF-row lookup over that
 * .eh_frame; audit_input_close frees them all.  Used by the checker and by
 * the agreement measurement.
 */
#ifndef DWCHECK_AUDIT_INPUT_H
#define DWCHECK_AUDIT_INPUT_H

#include "object/elf_file.h"
#include "semantics/fde_lookup.h"
#include "synth/program.h"

struct audit_input {
    struct elf_file ef;
    struct synth_program prog;
    struct fde_lookup dw;
};

/*
 * Open PATH and run synthesis's first pass.  Returns 0; or -1 with a reason
 * in ERR — the file cannot be read, or it has no readable .eh_frame (then
 * NO_EH is the reason, unless the section is malformed; with NO_EH NULL a
 * file without .eh_frame is opened, with no FDE: dwsynth repair adds one) —
 * and nothing to close.  *NOT_ELF (may be NULL) tells whether the file is not ELF at all
 * (no ELF magic) or empty; a file with the magic whose header is cut off or
 * corrupt, or one of another architecture, is not: it is unreadable.
 */
int audit_input_open(struct audit_input *a, const char *path, const char *no_eh, int *not_elf,
                     char *err, size_t errlen);
/* audit_input_open in two steps, for a caller that looks at the ELF file
 * (a->ef) before synthesis: _bare opens the file alone — a relocatable
 * object (ET_REL) too, laid out and relocated as if linked
 * (object/object_layout) — (then close a->ef
 * with elf_file_close if going no further), _finish_open does the rest
 * (on failure a->ef is closed too). */
int audit_input_open_bare(struct audit_input *a, const char *path, int *not_elf, char *err, size_t errlen);
int audit_input_finish_open(struct audit_input *a, const char *no_eh, char *err, size_t errlen);
void audit_input_close(struct audit_input *a);

#endif
