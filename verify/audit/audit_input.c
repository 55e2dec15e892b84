/* SPDX-License-Identifier: Apache-2.0 */
/*
 * audit_input: open a binary for comparing DWARF with synthesis.
 */
#include "audit_input.h"

#include <string.h>

#include "sys/error.h"
#include "object/object_layout.h"

/* Open PATH's ELF file into A (an object too with OBJECTS). */
static int open_elf(struct audit_input *a, const char *path, int objects, int *not_elf, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    if (not_elf)
        *not_elf = 0;
    if ((objects ? elf_file_open_object : elf_file_open)(&a->ef, path, err, errlen) != 0) {
        if (not_elf)
            *not_elf = strcmp(err, ELF_FILE_NOT_ELF) == 0 || strcmp(err, ELF_FILE_EMPTY) == 0;
        return -1;
    }
    if (a->ef.ehdr.e_type == ET_REL && object_layout_place(&a->ef, err, errlen) != 0) {
        elf_file_close(&a->ef);
        return -1;
    }
    return 0;
}

int audit_input_open(struct audit_input *a, const char *path, const char *no_eh, int *not_elf,
                     char *err, size_t errlen)
{
    if (open_elf(a, path, 0, not_elf, err, errlen) != 0)
        return -1;
    return audit_input_finish_open(a, no_eh, err, errlen);
}

int audit_input_open_bare(struct audit_input *a, const char *path, int *not_elf, char *err, size_t errlen)
{
    return open_elf(a, path, 1, not_elf, err, errlen);
}

int audit_input_finish_open(struct audit_input *a, const char *no_eh, char *err, size_t errlen)
{
    char eh_err[ELF_FILE_ERRLEN] = "";
    if (synth_program_open(&a->prog, &a->ef, eh_err, sizeof eh_err, err, errlen) != 0) {
        elf_file_close(&a->ef);
        return -1;
    }
    if (!a->prog.have_eh && (eh_err[0] || no_eh)) {
        error_set(err, errlen, "%s", eh_err[0] ? eh_err : no_eh);
        goto fail;
    }
    if (fde_lookup_init(&a->dw, &a->prog.eh) != 0) {
        error_set(err, errlen, "out of memory");
        goto fail;
    }
    return 0;
fail:
    synth_program_close(&a->prog);
    elf_file_close(&a->ef);
    return -1;
}

void audit_input_close(struct audit_input *a)
{
    fde_lookup_release(&a->dw);
    synth_program_close(&a->prog);
    elf_file_close(&a->ef);
}
