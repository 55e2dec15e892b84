/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registered_frames: libgcc's __register_frame family, and the search of
 * what it registered (see the header).
 */
#include "compat/registered_frames.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "runtime/dwarf_fallback.h"
#include "semantics/dwarf_constants.h"
#include "semantics/eh_frame_parse.h"

#define EXPORT __attribute__((visibility("default")))
#define DW_EH_PE_indirect 0x80

/* Bounds on what a registration walks: a section's bytes and entries. */
#define SECTION_MAX ((uint64_t)1 << 30)
#define ENTRIES_MAX ((uint64_t)1 << 22)

/* Chunk K holds CHUNK_FIRST << K slots: 2^26 in all. */
#define CHUNKS 20
#define CHUNK_FIRST 64

struct slot {
    atomic_uint state;              /* odd: registered */
    atomic_uint readers;            /* searches in the section now */
    /* Written while the state is even, read once it is odd again. */
    _Atomic uint64_t lo, hi;        /* the addresses its FDEs cover */
    _Atomic uint64_t start, size;   /* the bytes a search may read */
    _Atomic uint64_t first;         /* the offset of the first entry searched */
    _Atomic int single;             /* one FDE, not a section */
    /* The registration's: read and written under the lock. */
    uint64_t key;                   /* what deregistration names it by */
    uint64_t group;                 /* the registration it was part of */
    void *object;                   /* the caller's struct object, given back */
};

static _Atomic(struct slot *) chunks[CHUNKS];
static atomic_uint chunk_count;
static atomic_uint registered;      /* slots registered: 0, a search reads nothing more */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t groups;

static uint64_t chunk_slots(unsigned k)
{
    return (uint64_t)CHUNK_FIRST << k;
}

/* ---- reading one section ---------------------------------------------------- */

static struct frame_view view_of(uint64_t start, uint64_t size)
{
    return (struct frame_view){(const uint8_t *)(uintptr_t)start, size, start, 1};
}

/* The FDE framed by E in V and its CIE: 0, or -1. */
static int parse_fde(const struct frame_view *v, const struct frame_entry *e, struct eh_frame_cie *cie,
                     struct eh_frame_fde *fde)
{
    struct frame_entry ce;
    uint64_t cie_off;
    const char *why;
    if (eh_frame_fde_cie_offset(v, e, &cie_off, &why) != 0 || eh_frame_entry_read(v, cie_off, &ce, &why) != 0 ||
        ce.kind != FRAME_ENTRY_CIE || eh_frame_cie_parse(v, &ce, cie, &why) != 0 ||
        eh_frame_fde_parse(v, e, cie, fde, &why) != 0)
        return -1;
    return 0;
}

/* Each FDE of V from offset FIRST (that one alone when SINGLE) until the
 * terminator, the end of V or a malformed entry: VISIT(ARG, ...) returns
 * nonzero to stop there.  The offset past the last entry read (the
 * terminator included). */
static uint64_t each_fde(const struct frame_view *v, uint64_t first, int single,
                         int (*visit)(void *, const struct eh_frame_cie *, const struct eh_frame_fde *), void *arg)
{
    uint64_t off = first;
    const char *why;
    for (uint64_t n = 0; n < ENTRIES_MAX && off < v->size; n++) {
        struct frame_entry e;
        if (eh_frame_entry_read(v, off, &e, &why) != 0)
            break;
        off = e.end;
        if (e.kind == FRAME_ENTRY_ZERO)
            break;
        struct eh_frame_cie cie;
        struct eh_frame_fde fde;
        if (e.kind == FRAME_ENTRY_FDE && parse_fde(v, &e, &cie, &fde) == 0 && visit(arg, &cie, &fde))
            break;
        if (single)
            break;
    }
    return off;
}

/* ---- the search ------------------------------------------------------------------- */

struct search {
    uint64_t pc;
    int found;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
};

static int covers(void *arg, const struct eh_frame_cie *cie, const struct eh_frame_fde *fde)
{
    struct search *s = arg;
    if (s->pc < fde->pc_begin || s->pc - fde->pc_begin >= fde->pc_range)
        return 0;
    s->cie = *cie;
    s->fde = *fde;
    s->fde.cie = &s->cie;
    s->found = 1;
    return 1;
}

static void leave(struct slot *s)
{
    atomic_fetch_sub(&s->readers, 1);
}

/* The slot whose section has the FDE covering S->pc, taken (leave() it
 * when its bytes are no longer read), S's cie and fde found; or NULL. */
static struct slot *search(struct search *s)
{
    if (atomic_load_explicit(&registered, memory_order_relaxed) == 0)
        return NULL;
    unsigned chunks_now = atomic_load_explicit(&chunk_count, memory_order_acquire);
    for (unsigned k = 0; k < chunks_now; k++) {
        struct slot *chunk = atomic_load_explicit(&chunks[k], memory_order_acquire);
        for (uint64_t i = 0; chunk && i < chunk_slots(k); i++) {
            struct slot *slot = &chunk[i];
            unsigned state = atomic_load_explicit(&slot->state, memory_order_acquire);
            if (!(state & 1) || s->pc < atomic_load_explicit(&slot->lo, memory_order_relaxed) ||
                s->pc >= atomic_load_explicit(&slot->hi, memory_order_relaxed))
                continue;
            /* Counted in, then still the registration seen: deregistration
             * waits for us before its caller may free the bytes. */
            atomic_fetch_add(&slot->readers, 1);
            if (atomic_load(&slot->state) != state) {
                leave(slot);
                continue;
            }
            struct frame_view v = view_of(atomic_load_explicit(&slot->start, memory_order_relaxed),
                                          atomic_load_explicit(&slot->size, memory_order_relaxed));
            each_fde(&v, atomic_load_explicit(&slot->first, memory_order_relaxed),
                     atomic_load_explicit(&slot->single, memory_order_relaxed), covers, s);
            if (s->found)
                return slot;
            leave(slot);
        }
    }
    return NULL;
}

/* The word at ADDR, or 0 when it cannot be read: copied by the kernel,
 * which fails on memory that is not mapped readable instead of faulting. */
static uint64_t read_word(uint64_t addr)
{
    uint64_t w = 0;
    struct iovec local = {&w, 8}, remote = {(void *)(uintptr_t)addr, 8};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 8 ? w : 0;
}

int lu_registered_frames_find(uint64_t pc, struct lu_registered_fde *out)
{
    struct search s = {.pc = pc};
    struct slot *slot = search(&s);
    if (!slot)
        return -1;
    out->fde = atomic_load_explicit(&slot->start, memory_order_relaxed) + s.fde.offset;
    out->start = s.fde.pc_begin;
    out->end = s.fde.pc_begin + s.fde.pc_range;
    out->lsda = s.fde.lsda;
    out->signal_frame = s.cie.signal_frame;
    out->handler = 0;
    if (s.cie.personality_encoding != DW_EH_PE_omit) {
        out->handler = s.cie.personality;
        /* the address of a slot that holds the routine's */
        if (s.cie.personality_encoding & DW_EH_PE_indirect)
            out->handler = read_word(out->handler);
    }
    leave(slot);
    return 0;
}

int lu_registered_frames_step(uint64_t pc, const struct dwu_regs *in, struct dwu_regs *out,
                              const struct dwu_memory *mem)
{
    struct search s = {.pc = pc};
    struct slot *slot = search(&s);
    if (!slot)
        return DWU_ENOINFO;
    /* The rules' expressions point into the section: applied before
     * leaving it. */
    struct cfi_state row;
    int rc = dwu_dwarf_fde_row(&s.cie, &s.fde, pc, &row);
    if (rc == 0)
        rc = dwu_dwarf_apply_rules(&row.cfa, row.col, s.cie.signal_frame, in, out, mem);
    leave(slot);
    return rc;
}

/* ---- registering --------------------------------------------------------------- */

struct extent {
    uint64_t lo, hi;
};

static int widen(void *arg, const struct eh_frame_cie *cie, const struct eh_frame_fde *fde)
{
    (void)cie;
    struct extent *x = arg;
    if (fde->pc_range == 0 || fde->pc_begin + fde->pc_range < fde->pc_begin)
        return 0;
    if (x->lo >= x->hi || fde->pc_begin < x->lo)
        x->lo = fde->pc_begin;
    if (fde->pc_begin + fde->pc_range > x->hi)
        x->hi = fde->pc_begin + fde->pc_range;
    return 0;
}

/* A free slot (its state even, every reader gone), a chunk allocated when
 * there is none; NULL when none can be.  Under the lock. */
static struct slot *free_slot(void)
{
    unsigned n = atomic_load_explicit(&chunk_count, memory_order_relaxed);
    for (unsigned k = 0; k < n; k++) {
        struct slot *chunk = atomic_load_explicit(&chunks[k], memory_order_relaxed);
        for (uint64_t i = 0; i < chunk_slots(k); i++)
            if (!(atomic_load(&chunk[i].state) & 1))
                return &chunk[i];
    }
    if (n == CHUNKS)
        return NULL;
    struct slot *chunk = calloc(chunk_slots(n), sizeof *chunk);
    if (!chunk)
        return NULL;
    atomic_store_explicit(&chunks[n], chunk, memory_order_release);
    atomic_store_explicit(&chunk_count, n + 1, memory_order_release);
    return chunk;
}

/* Register the section (or the FDE) at BEGIN as part of registration
 * GROUP, named KEY, the caller's OBJECT given back at deregistration.
 * Under the lock. */
static void register_one(const uint8_t *begin, uint64_t key, uint64_t group, void *object)
{
    uint64_t at = (uint64_t)(uintptr_t)begin, start = at, first = 0;
    struct frame_view v = view_of(at, SECTION_MAX);
    struct frame_entry e;
    const char *why;
    if (eh_frame_entry_read(&v, 0, &e, &why) != 0 || e.kind == FRAME_ENTRY_ZERO)
        return;
    int single = e.kind == FRAME_ENTRY_FDE;
    if (single) {
        /* Its CIE lies before it: the bytes from there. */
        uint64_t field = at + e.body - (e.dwarf64 ? 8 : 4);
        if (e.id > field || at - (field - e.id) > SECTION_MAX)
            return;
        start = field - e.id;
        first = at - start;
        v = view_of(start, first + e.end);
    }
    struct extent x = {0, 0};
    uint64_t end = each_fde(&v, first, single, widen, &x);
    struct slot *s = free_slot();
    if (!s)
        return;
    atomic_store_explicit(&s->lo, x.lo, memory_order_relaxed);
    atomic_store_explicit(&s->hi, x.hi, memory_order_relaxed);
    atomic_store_explicit(&s->start, start, memory_order_relaxed);
    atomic_store_explicit(&s->size, single ? v.size : end, memory_order_relaxed);
    atomic_store_explicit(&s->first, first, memory_order_relaxed);
    atomic_store_explicit(&s->single, single, memory_order_relaxed);
    s->key = key;
    s->group = group;
    s->object = object;
    atomic_fetch_add(&s->state, 1);   /* odd: published */
    atomic_fetch_add(&registered, 1);
}

/* Register each of the sections at BEGIN (the NULL-terminated array of
 * their starts when TABLE), named BEGIN. */
static void register_frames(const void *begin, void *object, int table)
{
    if (!begin)
        return;
    pthread_mutex_lock(&lock);
    uint64_t group = ++groups;
    if (table) {
        for (const uint8_t *const *p = begin; *p; p++)
            register_one(*p, (uint64_t)(uintptr_t)begin, group, object);
    } else {
        register_one(begin, (uint64_t)(uintptr_t)begin, group, object);
    }
    pthread_mutex_unlock(&lock);
}

/* Deregister the registration named BEGIN (its sections), once no search
 * reads them: the caller's struct object, or NULL when BEGIN names none. */
static void *deregister_frames(const void *begin)
{
    uint64_t key = (uint64_t)(uintptr_t)begin, group = 0;
    void *object = NULL;
    pthread_mutex_lock(&lock);
    unsigned n = atomic_load_explicit(&chunk_count, memory_order_relaxed);
    for (unsigned k = 0; k < n; k++) {
        struct slot *chunk = atomic_load_explicit(&chunks[k], memory_order_relaxed);
        for (uint64_t i = 0; i < chunk_slots(k); i++) {
            struct slot *s = &chunk[i];
            if (!(atomic_load(&s->state) & 1) || s->key != key || (group && s->group != group))
                continue;
            group = s->group;
            object = s->object;
            atomic_fetch_add(&s->state, 1);   /* even: no new search takes it */
            atomic_fetch_sub(&registered, 1);
            while (atomic_load(&s->readers) != 0)
                sched_yield();
        }
    }
    pthread_mutex_unlock(&lock);
    return object;
}

/* ---- libgcc's entry points (libgcc_s.so.1's signatures and versions: the
 * map) --------------------------------------------------------------------------- */

struct object;   /* libgcc's, the caller's storage: given back, never touched */

EXPORT void __register_frame_info_bases(const void *begin, struct object *ob, void *tbase, void *dbase);
EXPORT void __register_frame_info(const void *begin, struct object *ob);
EXPORT void __register_frame(void *begin);
EXPORT void __register_frame_info_table_bases(void *begin, struct object *ob, void *tbase, void *dbase);
EXPORT void __register_frame_info_table(void *begin, struct object *ob);
EXPORT void __register_frame_table(void *begin);
EXPORT void *__deregister_frame_info_bases(const void *begin);
EXPORT void *__deregister_frame_info(const void *begin);
EXPORT void __deregister_frame(void *begin);

/* (TBASE and DBASE are the bases of text- and data-relative pointers,
 * which x86_64's tables do not use.) */
void __register_frame_info_bases(const void *begin, struct object *ob, void *tbase, void *dbase)
{
    (void)tbase, (void)dbase;
    register_frames(begin, ob, 0);
}

void __register_frame_info(const void *begin, struct object *ob)
{
    register_frames(begin, ob, 0);
}

void __register_frame(void *begin)
{
    register_frames(begin, NULL, 0);
}

void __register_frame_info_table_bases(void *begin, struct object *ob, void *tbase, void *dbase)
{
    (void)tbase, (void)dbase;
    register_frames(begin, ob, 1);
}

void __register_frame_info_table(void *begin, struct object *ob)
{
    register_frames(begin, ob, 1);
}

void __register_frame_table(void *begin)
{
    register_frames(begin, NULL, 1);
}

void *__deregister_frame_info_bases(const void *begin)
{
    return deregister_frames(begin);
}

void *__deregister_frame_info(const void *begin)
{
    return deregister_frames(begin);
}

void __deregister_frame(void *begin)
{
    deregister_frames(begin);
}
