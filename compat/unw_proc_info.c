/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_proc_info: a procedure's FDE, as libunwind's unw_get_proc_info
 * reports it (see the header).
 */
#include "compat/unw_proc_info.h"

#include <elf.h>
#include <link.h>
#include <string.h>

#include "runtime/objects.h"
#include "semantics/dwarf_constants.h"
#include "semantics/eh_frame_parse.h"

#define DW_EH_PE_indirect 0x80
#define DYNAMIC_ENTRIES_MAX 4096   /* a bound on the walk of a damaged dynamic section */

/* Whether [ADDR, ADDR + 8) lies in a readable PT_LOAD of the object F
 * describes (its program headers read within its first page). */
static int in_readable_segment(const struct dl_find_object *f, uint64_t addr)
{
    uint64_t start = (uint64_t)(uintptr_t)f->dlfo_map_start, end = (uint64_t)(uintptr_t)f->dlfo_map_end;
    const ElfW(Ehdr) *eh = f->dlfo_map_start;
    uint64_t limit = end - start < 4096 ? end - start : 4096;
    if (limit < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_phentsize != sizeof(ElfW(Phdr)) ||
        eh->e_phoff > limit || eh->e_phnum > (limit - eh->e_phoff) / sizeof(ElfW(Phdr)))
        return 0;
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(uintptr_t)(start + eh->e_phoff);
    uint64_t bias = f->dlfo_link_map->l_addr;
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        uint64_t lo = bias + ph[i].p_vaddr;
        if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_R) && addr >= lo && addr - lo <= ph[i].p_memsz &&
            ph[i].p_memsz - (addr - lo) >= 8)
            return 1;
    }
    return 0;
}

/* The object's DT_PLTGOT, which glibc has relocated in its dynamic
 * section (libunwind reads it there), or 0. */
static uint64_t pltgot_of(const struct dl_find_object *f)
{
    const ElfW(Dyn) *d = f->dlfo_link_map->l_ld;
    for (unsigned i = 0; d && i < DYNAMIC_ENTRIES_MAX && d[i].d_tag != DT_NULL; i++)
        if (d[i].d_tag == DT_PLTGOT)
            return d[i].d_un.d_ptr;
    return 0;
}

/* The FDE covering PC and its CIE, in the object O that holds PC. */
static int find_fde(uint64_t pc, const struct dwu_object **o, struct cfi_cie *cie, struct cfi_fde *fde)
{
    *o = dwu_object_at(pc);
    if (!*o || !(*o)->eh_frame_hdr ||
        frame_find_fde_in_memory((*o)->readable_start, (*o)->eh_frame_hdr, (*o)->readable_end,
                                 pc - (*o)->bias + (*o)->table_bias, cie, fde) != FRAME_FOUND)
        return -1;
    return 0;
}

uint64_t lu_fde_address(uint64_t pc, uint64_t *func)
{
    const struct dwu_object *o;
    struct cfi_cie cie;
    struct cfi_fde fde;
    struct eh_frame_hdr hdr;
    const char *why;
    if (find_fde(pc, &o, &cie, &fde) != 0 ||
        eh_frame_hdr_parse(o->eh_frame_hdr, (uint64_t)(o->readable_end - o->eh_frame_hdr),
                           (uint64_t)(uintptr_t)o->eh_frame_hdr, &hdr, &why) != 0)
        return 0;
    *func = fde.pc_begin + o->bias - o->table_bias;
    return hdr.eh_frame + fde.offset;
}

static int proc_info(uint64_t pc, unw_proc_info_t *pi, int *signal, int want_gp)
{
    const struct dwu_object *o;
    struct dl_find_object f;
    struct cfi_cie cie;
    struct cfi_fde fde;
    if (find_fde(pc, &o, &cie, &fde) != 0 || _dl_find_object((void *)(uintptr_t)pc, &f) != 0 || !f.dlfo_link_map)
        return -UNW_ENOINFO;
    uint64_t handler = 0;
    if (cie.personality_encoding != DW_EH_PE_omit) {
        handler = cie.personality;
        if (cie.personality_encoding & DW_EH_PE_indirect) {
            /* the address of a GOT slot, which holds the routine's */
            if (!in_readable_segment(&f, handler))
                handler = 0;
            else
                memcpy(&handler, (const void *)(uintptr_t)handler, 8);
        }
    }
    uint64_t shift = o->bias - o->table_bias;   /* 0 in this process */
    pi->start_ip = fde.pc_begin + shift;
    pi->end_ip = fde.pc_begin + fde.pc_range + shift;
    pi->lsda = fde.lsda;
    pi->handler = handler;
    pi->gp = want_gp ? pltgot_of(&f) : 0;
    if (signal)
        *signal = cie.signal_frame;
    return 0;
}

int lu_proc_info(uint64_t pc, unw_proc_info_t *pi, int *signal)
{
    return proc_info(pc, pi, signal, 1);
}

int lu_proc_info_eh(uint64_t pc, unw_proc_info_t *pi)
{
    return proc_info(pc, pi, NULL, 0);
}
