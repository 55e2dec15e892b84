/* SPDX-License-Identifier: Apache-2.0 */
/*
 * no_unwind: the no-unwind-table finding (no_unwind.h).
 */
#include "no_unwind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int present(struct elf_file *ef, const char *name)
{
    struct elf_section *s = elf_file_section(ef, name);
    return s && s->type != SHT_NOBITS && s->size > 0;
}

int no_unwind_table(struct elf_file *ef, struct check_result *r)
{
    struct elf_section *eh = elf_file_section(ef, ".eh_frame");
    if (eh && eh->type != SHT_NOBITS)
        return 0;
    memset(r, 0, sizeof *r);
    struct finding *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    r->findings = f;
    r->nfindings = r->cap = 1;
    f->kind = FINDING_NO_UNWIND_TABLE;
    f->severity = (uint8_t)finding_kind_severity(FINDING_NO_UNWIND_TABLE);
    f->column = -1;
    f->count = 1;
    /* Where: the start of the code, named by its section. */
    struct elf_section *text = elf_file_section(ef, ".text");
    if (text) {
        snprintf(f->function, sizeof f->function, "%s", text->name);
        f->function_start = f->address = text->addr;
    }
    int debug_frame = present(ef, ".debug_frame"), sframe = present(ef, ".sframe");
    snprintf(f->message, sizeof f->message, "no .eh_frame: unwinders cannot walk this file's frames; %s%s",
             debug_frame ? "it has a .debug_frame (debuggers read it, runtime unwinders do not)"
                         : "no .debug_frame either",
             sframe ? "; it has a .sframe" : "");
    return 1;
}
