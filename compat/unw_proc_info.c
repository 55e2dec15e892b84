/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_proc_info: a procedure's FDE, as libunwind's unw_get_proc_info
 * reports it (see the header).
 */
#include "compat/unw_proc_info.h"

#include <elf.h>
#include <link.h>
#include <stdatomic.h>
#include <string.h>

#include "compat/registered_frames.h"
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
static int find_fde(uint64_t pc, const struct dwu_object **o, struct eh_frame_cie *cie, struct eh_frame_fde *fde)
{
    *o = dwu_objects_at(pc);
    if (!*o || !(*o)->eh_frame_hdr ||
        eh_frame_find_fde_in_memory((*o)->readable_start, (*o)->eh_frame_hdr, (*o)->readable_end,
                                    pc - (*o)->bias + (*o)->table_bias, cie, fde) != FRAME_FOUND)
        return -1;
    return 0;
}

/* PC's procedure from the frames registered at run time: as
 * proc_info's, 0 or -UNW_ENOINFO. */
static int registered_proc_info(uint64_t pc, unw_proc_info_t *pi, int *signal)
{
    struct lu_registered_fde r;
    if (lu_registered_frames_find(pc, &r) != 0)
        return -UNW_ENOINFO;
    pi->start_ip = r.start;
    pi->end_ip = r.end;
    pi->lsda = r.lsda;
    pi->handler = r.handler;
    pi->gp = 0;
    if (signal)
        *signal = r.signal_frame;
    return 0;
}

uint64_t lu_proc_fde_address(uint64_t pc, uint64_t *func)
{
    const struct dwu_object *o;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    struct eh_frame_hdr hdr;
    struct lu_registered_fde r;
    const char *why;
    if (find_fde(pc, &o, &cie, &fde) != 0 ||
        eh_frame_hdr_parse(o->eh_frame_hdr, (uint64_t)(o->readable_end - o->eh_frame_hdr),
                           (uint64_t)(uintptr_t)o->eh_frame_hdr, &hdr, &why) != 0) {
        if (lu_registered_frames_find(pc, &r) != 0)
            return 0;
        *func = r.start;
        return r.fde;
    }
    *func = fde.pc_begin + o->bias - o->table_bias;
    return hdr.eh_frame + fde.offset;
}

/* ---- the memo: procedures by address ------------------------------------- */

/* An entry: what an exception's walk asks of the procedure at PC (its
 * range, LSDA, personality and signal mark), with the object it came from
 * and that object's generation, so that an object unloaded and another
 * loaded there never lends it (runtime/objects.h).  Written and read under
 * a sequence count (odd while written; a writer takes it with a
 * compare-and-swap, a reader that sees it odd or changed looks the
 * procedure up instead): no lock, nothing a signal handler could wait for.
 * Its fields are relaxed atomics, plain loads and stores on x86_64. */
#define MEMO_ENTRIES 512   /* a power of two */
struct memo_entry {
    atomic_uint seq;
    _Atomic uint64_t pc, start_ip, end_ip, lsda, handler, generation;
    _Atomic(const struct dwu_object *) object;
    atomic_int signal;
};
static struct memo_entry memo[MEMO_ENTRIES];

static struct memo_entry *memo_slot(uint64_t pc)
{
    return &memo[(pc ^ (pc >> 9) ^ (pc >> 21)) & (MEMO_ENTRIES - 1)];
}

#define LOAD(field) atomic_load_explicit(&e->field, memory_order_relaxed)
#define STORE(field, v) atomic_store_explicit(&e->field, (v), memory_order_relaxed)

/* The memo's entry for PC into *PI and *SIGNAL when it holds one that
 * still describes the object loaded there: 1, else 0. */
static int memo_get(uint64_t pc, unw_proc_info_t *pi, int *signal)
{
    struct memo_entry *e = memo_slot(pc);
    unsigned seq = atomic_load_explicit(&e->seq, memory_order_acquire);
    if ((seq & 1) || LOAD(pc) != pc)
        return 0;
    const struct dwu_object *o = LOAD(object);
    unw_proc_info_t got = {.start_ip = LOAD(start_ip), .end_ip = LOAD(end_ip), .lsda = LOAD(lsda),
                           .handler = LOAD(handler)};
    uint64_t generation = LOAD(generation);
    int sig = LOAD(signal);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&e->seq, memory_order_relaxed) != seq || !o)
        return 0;
    if (!dwu_objects_permanent(o) && (dwu_objects_at(pc) != o || dwu_objects_generation(o) != generation))
        return 0;
    pi->start_ip = got.start_ip;
    pi->end_ip = got.end_ip;
    pi->lsda = got.lsda;
    pi->handler = got.handler;
    if (signal)
        *signal = sig;
    return 1;
}

/* Keep PC's procedure PI (of object O) in the memo, unless another writer
 * has its entry now. */
static void memo_put(uint64_t pc, const struct dwu_object *o, const unw_proc_info_t *pi, int signal)
{
    struct memo_entry *e = memo_slot(pc);
    unsigned seq = atomic_load_explicit(&e->seq, memory_order_relaxed);
    if ((seq & 1) ||
        !atomic_compare_exchange_strong_explicit(&e->seq, &seq, seq + 1, memory_order_acquire, memory_order_relaxed))
        return;
    atomic_thread_fence(memory_order_release);
    STORE(pc, pc);
    STORE(object, o);
    STORE(generation, dwu_objects_generation(o));
    STORE(start_ip, pi->start_ip);
    STORE(end_ip, pi->end_ip);
    STORE(lsda, pi->lsda);
    STORE(handler, pi->handler);
    STORE(signal, signal);
    atomic_store_explicit(&e->seq, seq + 2, memory_order_release);
}

#undef LOAD
#undef STORE

/* ---- a procedure's FDE ------------------------------------------------------ */

static int proc_info(uint64_t pc, unw_proc_info_t *pi, int *signal, int want_gp)
{
    if (!want_gp && memo_get(pc, pi, signal)) {
        pi->gp = 0;
        return 0;
    }
    const struct dwu_object *o;
    struct dl_find_object f;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    if (find_fde(pc, &o, &cie, &fde) != 0 || _dl_find_object((void *)(uintptr_t)pc, &f) != 0 || !f.dlfo_link_map)
        return registered_proc_info(pc, pi, signal);
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
    memo_put(pc, o, pi, cie.signal_frame);
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
