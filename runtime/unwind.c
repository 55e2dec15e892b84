/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unwind: the public entry points of dwunwind.h for this process — one
 * step, a walk (walk.h over the loaded objects), the backtrace of the
 * calling thread — and the bounds-checked stack reader.
 */
#include <stdatomic.h>
#include <string.h>

#include "dwunwind.h"
#include "objects.h"
#include "stack_bounds.h"
#include "walk.h"

/* The objects of this walk's last frames, each found by dwu_objects_at
 * during the walk (so loaded as the walk sees it): most callers are in
 * their callee's object, or in the one before (a callback through libc
 * and back). */
struct object_cache {
    const struct dwu_object *recent[2];
};

static inline void remember_object(struct object_cache *c, const struct dwu_object *o)
{
    c->recent[1] = c->recent[0];
    c->recent[0] = o;
}

static inline const struct dwu_object *cached_object_at(struct object_cache *c, uint64_t pc)
{
    const struct dwu_object *o = c->recent[0];
    if (o && pc >= o->lo && pc < o->hi)
        return o;
    o = c->recent[1];
    if (!o || pc < o->lo || pc >= o->hi) {
        if (!(o = dwu_objects_at(pc)))
            return NULL;
    }
    remember_object(c, o);
    return o;
}

static const struct dwu_object *in_process_object_at(void *ctx, uint64_t pc)
{
    return cached_object_at(ctx, pc);
}

/* MEM, or, when it is NULL, a reader of this process's memory within the
 * stack bounds of a walk from REGS (B). */
static const struct dwu_memory *reader(const struct dwu_memory *mem, const struct dwu_regs *regs,
                                       struct dwu_stack_bounds *b, struct dwu_memory *own)
{
    if (mem)
        return mem;
    dwu_stack_bounds_init(b, regs->valid & (1u << DWU_RSP) ? regs->r[DWU_RSP] : 0);
    *own = (struct dwu_memory){dwu_stack_read_within_bounds, b};
    return own;
}

int dwu_step(struct dwu_regs *regs, const struct dwu_memory *mem)
{
    struct dwu_regs out;
    struct object_cache objects = {{NULL, NULL}};
    struct dwu_stack_bounds bounds;
    struct dwu_memory own;
    int rc = dwu_walk_step(regs, &out, reader(mem, regs, &bounds, &own), in_process_object_at, &objects);
    if (rc == DWU_OK)
        *regs = out;
    return rc;
}

int dwu_unwind(struct dwu_regs *regs, const struct dwu_memory *mem, uint64_t *ips, int max,
               int *status)
{
    struct object_cache objects = {{NULL, NULL}};
    struct dwu_stack_bounds bounds;
    struct dwu_memory own;
    return dwu_walk(regs, reader(mem, regs, &bounds, &own), ips, max, status, in_process_object_at, &objects);
}

void dwu_init(void)
{
    dwu_objects_load_eh_elfs();
}

/*
 * dwu_backtrace's fast walk: the IPs alone.  A row that is simple
 * (frame_descriptor.h: CFA = rsp or rbp + offset, the return address and
 * rbp at fixed places, nothing else that can fail) needs only rip, rsp and
 * rbp, so the walk keeps those three and applies the row's descriptor to
 * them.  At the first frame it cannot take so (a row that is not simple:
 * an expression, a signal frame) it returns -1, and the full walk starts
 * again from the top; the two stop at the same frames (an IP without an
 * object or row, a stack pointer that does not grow, an undefined or zero
 * return address, a word outside the stack).
 *
 * Descriptors come from an object's eh_elf (its frame entry) or, for an
 * object without one, from its .eh_frame interpreted once, and are kept
 * by return address in row caches: the frames of a backtrace are mostly
 * those of the one before, and a recursion's are one return address again
 * and again.  A hit applies the descriptor without looking up the object
 * or interpreting anything.
 *
 * Signal-safety: the caches are fixed tables (no allocation, no TLS that
 * a handler's first access would allocate), never waited for.  A thread
 * owns one of the OWNED_CACHES once it has claimed it (a compare-and-swap
 * of its owner, the thread pointer, from 0; a thread that reuses a dead
 * thread's pointer inherits its cache), and takes it with a flag in its
 * own initial-exec TLS, a plain store: no atomic instruction on the way of
 * a walk.  A handler that interrupts a walk of its thread finds the flag
 * set and does as a thread without a cache does: takes one of the shared
 * ROW_CACHES, each with an atomic flag, trying a few, else walks without
 * one.  Rows are the
 * process's, whichever thread found them; each keeps the object it came
 * from, and is used only when that object is still the one loaded at the
 * address (dwu_objects_at asked once per object and walk), so an object
 * unloaded and another loaded in its place never lends its rows.
 */
#define ROW_SETS 128          /* a power of two; two rows a set */
#define ROW_CACHES 32
#define OWNED_CACHES 32
#define ROW_CACHE_TRIES 4
#define TRAIL_FRAMES 32       /* frames of the last walk whose rows a cache remembers */
/* A bit the descriptors leave free: the row's object is never unloaded. */
#define ROW_PERMANENT (1u << 8)

struct row {
    uint64_t pc, frame;                  /* FRAME has DWU_FRAME_SIMPLE set; 0 in an empty row */
    const struct dwu_object *object;
    unsigned long generation;            /* the object's (dwu_objects_generation) */
};

/* TRAIL: the row each frame of the cache's last walk used, by depth.  A
 * backtrace is mostly the one before it: the row at the same depth is
 * tried first, and its check (the row's pc against the frame's) is a
 * branch the processor predicts, so that it applies the row's offsets
 * without waiting for the return address the step before loaded: the
 * walk's only serial chain is then the stack pointer's (and rbp's loads),
 * not load, hash, load per frame. */
struct row_cache {
    atomic_int taken;                    /* a shared cache's flag */
    atomic_uintptr_t owner;              /* an owned cache's thread pointer, 0 before it is claimed */
    unsigned long version;               /* dwu_objects_version's when its rows were found */
    struct row set[ROW_SETS][2];
    const struct row *trail[TRAIL_FRAMES];
};
static struct row_cache row_caches[ROW_CACHES], owned_caches[OWNED_CACHES];

/* This thread's owned cache (its index + 1; 0: none claimed yet) and
 * whether a walk of the thread has it now. */
static __thread __attribute__((tls_model("initial-exec"))) struct {
    unsigned char slot, busy;
} mine;

static inline size_t row_set(uint64_t pc)
{
    return (size_t)(pc ^ (pc >> 11)) & (ROW_SETS - 1);
}

/* C, its rows dropped when what objects unwind with has changed since. */
static inline struct row_cache *with_current_rows(struct row_cache *c)
{
    unsigned long version = dwu_objects_version();
    if (c->version != version) {
        memset(c->set, 0, sizeof c->set);
        memset(c->trail, 0, sizeof c->trail);
        c->version = version;
    }
    return c;
}

/* The index of an owned cache this thread (thread pointer SELF) may have:
 * its own, claimed now, or a dead thread's whose pointer it reuses; or -1
 * when the few it tries are others'. */
static int claim_owned(uintptr_t self, size_t first)
{
    for (size_t i = 0; i < ROW_CACHE_TRIES; i++) {
        size_t k = (first + i) % OWNED_CACHES;
        uintptr_t none = 0;
        if (atomic_load_explicit(&owned_caches[k].owner, memory_order_acquire) == self ||
            atomic_compare_exchange_strong_explicit(&owned_caches[k].owner, &none, self, memory_order_acquire,
                                                    memory_order_relaxed))
            return (int)k;
    }
    return -1;
}

/* A row cache for this walk, or NULL: the thread's owned one, else a
 * shared one.  *OWNED says which (give_back_row_cache). */
static struct row_cache *take_row_cache(int *owned)
{
    uintptr_t self = (uintptr_t)__builtin_thread_pointer();
    size_t first = (size_t)((self >> 12) ^ (self >> 21));
    *owned = 0;
    if (!mine.busy) {
        if (!mine.slot) {
            int k = claim_owned(self, first);
            if (k >= 0)
                mine.slot = (unsigned char)(k + 1);
        }
        if (mine.slot) {
            mine.busy = 1;
            __asm__ volatile("" ::: "memory");   /* a handler from here on finds it taken */
            *owned = 1;
            return with_current_rows(&owned_caches[mine.slot - 1]);
        }
    }
    for (size_t i = 0; i < ROW_CACHE_TRIES; i++) {
        struct row_cache *c = &row_caches[(first + i) % ROW_CACHES];
        if (atomic_exchange_explicit(&c->taken, 1, memory_order_acquire))
            continue;
        return with_current_rows(c);
    }
    return NULL;
}

/* tests/unwind/nested_walk.c builds this file with DWU_TEST_NESTED_WALK:
 * its hook runs where a walk holds its row cache, and raises the signal
 * whose handler walks too (a handler interrupting a walk there, made to
 * happen).  Nothing in the library's own build. */
#ifdef DWU_TEST_NESTED_WALK
void dwu_test_cache_taken(const void *cache);
#define CACHE_TAKEN(c) dwu_test_cache_taken(c)
#else
#define CACHE_TAKEN(c) ((void)0)
#endif

static void give_back_row_cache(struct row_cache *c, int owned)
{
    if (owned) {
        __asm__ volatile("" ::: "memory");   /* the walk's writes to it are done */
        mine.busy = 0;
    } else if (c) {
        atomic_store_explicit(&c->taken, 0, memory_order_release);
    }
}

/* The descriptor of PC in O (an own address less O's bias): its eh_elf's,
 * else its .eh_frame's; 0 when the row is not simple. */
static inline uint64_t descriptor_of(const struct dwu_object *o, uint64_t pc)
{
    /* (dwu_init may give the object its eh_elf meanwhile: one load each) */
    dwu_eh_elf_frame_fn frame = __atomic_load_n(&o->frame, __ATOMIC_ACQUIRE);
    if (frame)
        return frame(pc - o->bias);
    if (__atomic_load_n(&o->step, __ATOMIC_ACQUIRE))
        return 0;   /* an eh_elf without descriptors: the full walk uses it */
    return dwu_dwarf_descriptor(o, pc - o->bias + o->table_bias);
}

/* PC's descriptor and object, found (O) and kept in ROWS (may be NULL),
 * *KEPT the row that keeps it (NULL when none does). */
static inline uint64_t row_of(struct row_cache *rows, const struct dwu_object *o, uint64_t pc,
                              const struct row **kept)
{
    uint64_t d = descriptor_of(o, pc);
    *kept = NULL;
    if ((d & DWU_FRAME_SIMPLE) && rows) {
        struct row *set = rows->set[row_set(pc)];
        set[1] = set[0];
        set[0] = (struct row){pc, d | (dwu_objects_permanent(o) ? ROW_PERMANENT : 0), o, dwu_objects_generation(o)};
        *kept = &set[0];
    }
    return d;
}

/* Whether ROW's object is still the one loaded at PC: permanent, met
 * already in this walk, or found there again now; and its record still
 * describes it (not reused since for another object). */
static inline int row_current(const struct row *row, struct object_cache *objects, uint64_t pc)
{
    if (row->frame & ROW_PERMANENT)
        return 1;
    if (dwu_objects_generation(row->object) != row->generation)
        return 0;
    if (row->object == objects->recent[0] || row->object == objects->recent[1])
        return 1;
    if (dwu_objects_at(pc) != row->object)
        return 0;
    remember_object(objects, row->object);
    return 1;
}

/* The row kept for PC in ROWS that still holds, or NULL: the last walk's
 * at depth N first. */
static inline const struct row *kept_row(struct row_cache *rows, struct object_cache *objects, uint64_t pc,
                                         int n)
{
    if (!rows)
        return NULL;
    const struct row *t = n < TRAIL_FRAMES ? rows->trail[n] : NULL;
    if (__builtin_expect(t && t->pc == pc, 1))
        return t->frame && row_current(t, objects, pc) ? t : NULL;
    const struct row *set = rows->set[row_set(pc)];
    const struct row *r = set[0].pc == pc ? &set[0] : set[1].pc == pc ? &set[1] : NULL;
    return r && r->frame && row_current(r, objects, pc) ? r : NULL;
}

/* The word at ADDR when it lies outside the walk's starting stack: in the
 * other stack of the bounds, or in one it reaches now.  0, or -1.  (Reads
 * of the stack are an unwinder's whether or not the program's own code
 * may touch those words, redzones included: not checked by
 * AddressSanitizer, which would take them for the program's.) */
static __attribute__((noinline, no_sanitize("address"))) int read_other_word(struct dwu_stack_bounds *b, uint64_t addr, uint64_t *value)
{
    if (!dwu_stack_readable(b, addr) && !dwu_stack_bounds_reach(b, addr))
        return -1;
    memcpy(value, (const void *)(uintptr_t)addr, 8);
    return 0;
}

/* The word at ADDR, read only inside the walk's stack bounds: the starting
 * stack's, [LO, LO + SPAN + 7), checked with one comparison, else B's
 * others.  0, or -1. */
static inline __attribute__((no_sanitize("address"))) int read_word(struct dwu_stack_bounds *b, uint64_t lo,
                                                                     uint64_t span, uint64_t addr, uint64_t *value)
{
    if (__builtin_expect(addr - lo >= span, 0)) {
        uint64_t v;   /* not VALUE: the walk's registers stay in registers */
        if (read_other_word(b, addr, &v) != 0)
            return -1;
        *value = v;
        return 0;
    }
    memcpy(value, (const void *)(uintptr_t)addr, 8);
    return 0;
}

/* Whether the descriptor D may be applied again and again by
 * repeat_walk: simple, its CFA rsp plus an offset above rsp (so that each
 * step moves up the stack; not the outermost frame's, not a DRAP frame's). */
static inline int repeatable(uint64_t d)
{
    return (d & (DWU_FRAME_SIMPLE | DWU_FRAME_CFA_RBP | DWU_FRAME_END | DWU_FRAME_CFA_DEREF | DWU_FRAME_RBP_AT_RBP)) ==
               DWU_FRAME_SIMPLE &&
           DWU_FRAME_CFA_OFFSET(d) > 0;
}

/* Where repeat_walk left a walk: the frames in IPS (N), the registers of
 * the first frame that breaks the pattern, the row of the last frame
 * walked; N -1 when a read of rbp left the stack (rbp unknown: the full
 * walk says what follows), RIP 0 when a return address could not be read. */
struct repeat_end {
    int n;
    uint64_t rip, rsp, rbp, d;
};

/* A recursion's frames, from frame N on: the frame about to be walked
 * returns to RA_A, as the frame two before did, whose row was D_A; the one
 * after it, if the recursion goes on, returns to RA_B with row D_B (A and B
 * are the same frame when the recursion is of one function).  Same return
 * address, same row (the object at it is the one this walk already found
 * there): each frame is then a check of the return address it loads
 * against the one expected, with no lookup, and the stack pointer's
 * chain is an addition a frame, so the processor runs the loads of many
 * frames at once.  (Not inlined, and its registers returned by value: the
 * main loop's stay in registers.) */
/* One frame of a recursion with row D: the frame returning to *RA is
 * added to IPS, its caller's return address read into *RA, rsp and rbp
 * stepped.  0, 1 when the return address cannot be read, -1 when rbp's
 * save cannot. */
static inline int repeat_frame(void **ips, int *n, uint64_t d, uint64_t *ra, uint64_t *sp, uint64_t *bp,
                               struct dwu_stack_bounds *bounds, uint64_t lo, uint64_t span)
{
    ips[(*n)++] = (void *)(uintptr_t)*ra;
    uint64_t cfa = *sp + (uint64_t)DWU_FRAME_CFA_OFFSET(d);
    if (read_word(bounds, lo, span, cfa + (uint64_t)DWU_FRAME_RA_OFFSET(d), ra) != 0)
        return 1;
    if ((d & DWU_FRAME_RBP_SAVED) && read_word(bounds, lo, span, cfa + (uint64_t)DWU_FRAME_RBP_OFFSET(d), bp) != 0)
        return -1;
    *sp = cfa;
    return 0;
}

static __attribute__((noinline)) struct repeat_end repeat_walk(void **ips, int n, int max, uint64_t ra_a,
                                                               uint64_t d_a, uint64_t ra_b, uint64_t d_b,
                                                               uint64_t rsp, uint64_t rbp,
                                                               struct dwu_stack_bounds *bounds, uint64_t lo,
                                                               uint64_t span)
{
    uint64_t sp = rsp, bp = rbp, ra = ra_a, last;
    int rc;
    for (;;) {
        /* a frame of row A, returning to RA_A; then one of row B */
        if ((rc = repeat_frame(ips, &n, d_a, &ra, &sp, &bp, bounds, lo, span)) != 0)
            break;
        last = d_a;
        if (ra != ra_b || n >= max)
            return (struct repeat_end){n, ra, sp, bp, last};
        if ((rc = repeat_frame(ips, &n, d_b, &ra, &sp, &bp, bounds, lo, span)) != 0)
            break;
        last = d_b;
        if (ra != ra_a || n >= max)
            return (struct repeat_end){n, ra, sp, bp, last};
    }
    return (struct repeat_end){rc < 0 ? -1 : n, 0, 0, 0, 0};
}

/* Frames from which a walk looks for a recursion (repeat_walk): a
 * shallow stack pays nothing for it. */
#define REPEAT_FROM 8

/* At frame N (0 < N < MAX, RIP its return address, RSP and RBP its
 * registers), which returns where frame N - 1 or N - 2 did: the recursion
 * walked by repeat_walk when the rows allow it (frame N - 1's row is D,
 * repeatable; frame N - 2's is kept in ROWS); else the frame as it was
 * (N, RIP ... D). */
static __attribute__((noinline)) struct repeat_end recursion_walk(void **ips, int n, int max, uint64_t rip,
                                                                  uint64_t rsp, uint64_t rbp, uint64_t d,
                                                                  struct row_cache *rows,
                                                                  struct object_cache *objects,
                                                                  struct dwu_stack_bounds *bounds, uint64_t lo,
                                                                  uint64_t span)
{
    const struct repeat_end unchanged = {n, rip, rsp, rbp, d};
    uint64_t ra_1 = (uint64_t)(uintptr_t)ips[n - 1], ra_2 = (uint64_t)(uintptr_t)ips[n - 2];
    if (rip == ra_1)
        return repeat_walk(ips, n, max, ra_1, d, ra_1, d, rsp, rbp, bounds, lo, span);
    const struct row *row_2 = kept_row(rows, objects, ra_2 - 1, n - 2);
    if (!row_2 || !repeatable(row_2->frame))
        return unchanged;
    return repeat_walk(ips, n, max, ra_2, row_2->frame & ~(uint64_t)ROW_PERMANENT, ra_1, d, rsp, rbp, bounds, lo,
                       span);
}

static inline int trace_walk(void **ips, int max, const struct dwu_regs *regs, struct object_cache *objects,
                             struct row_cache *rows, struct dwu_stack_bounds *bounds, int *no_info)
{
    uint64_t rip = regs->r[DWU_RIP], rsp = regs->r[DWU_RSP], rbp = regs->r[DWU_RBP];
    uint64_t exact = regs->flags & DWU_FLAG_EXACT_IP;
    const uint32_t need = (1u << DWU_RIP) | (1u << DWU_RSP) | (1u << DWU_RBP);
    if ((regs->valid & need) != need)
        return -1;
    /* The starting stack's words, [lo, lo + span) the addresses of 8 of them */
    uint64_t lo = bounds->start.lo;
    uint64_t span = bounds->start.hi - lo >= 8 ? bounds->start.hi - lo - 7 : 0;
    int n = 0;
    /* The row of the frame before: in a recursion, or a chain of like
     * frames, the next one's too.  A branch on whether it is lets the
     * processor predict it and start the step with its offsets, already in
     * a register, before the lookup has loaded the row (the lookup waits on
     * the return address the step before loaded).  NOT_A_ROW (not
     * simple) is never equal to a row's. */
    const uint64_t not_a_row = DWU_FRAME_CFA_RBP;
    uint64_t d = not_a_row;
    /* The loop runs to LIMIT: REPEAT_FROM frames first, then one frame at
     * a time, each followed by the look for a recursion (a shallow stack
     * pays nothing for it, not even a comparison). */
    int limit = max < REPEAT_FROM ? max : REPEAT_FROM;
next_frames:
    while (n < limit) {
        uint64_t pc = exact ? rip : rip - 1, sp = rsp;
        const struct row *kept = kept_row(rows, objects, pc, n);
        uint64_t found = kept ? kept->frame : 0;
        if (__builtin_expect(found == d, 1)) {
            __asm__("" : "+r"(d));   /* keep D's register: not to be read again from the row */
        } else if (found & DWU_FRAME_SIMPLE) {
            d = found;
        } else {
            const struct dwu_object *o = cached_object_at(objects, pc);
            if (!o) {
                ips[n] = (void *)(uintptr_t)rip;
                *no_info = 1;
                return n + 1;   /* DWU_ENOINFO: where the full walk stops too */
            }
            d = row_of(rows, o, pc, &kept);
            if (!(d & DWU_FRAME_SIMPLE))
                return -1;
        }
        ips[n++] = (void *)(uintptr_t)rip;
        if (rows && n <= TRAIL_FRAMES)
            rows->trail[n - 1] = kept;
        if (d & DWU_FRAME_END)
            return n;
        uint64_t cfa = ((d & DWU_FRAME_CFA_RBP) ? rbp : rsp) + (uint64_t)DWU_FRAME_CFA_OFFSET(d);
        /* A DRAP frame's CFA, read from its slot (an unreadable slot: the
         * full walk says where it stops) */
        if (__builtin_expect(d & DWU_FRAME_CFA_DEREF, 0) && read_word(bounds, lo, span, cfa, &cfa) != 0)
            return -1;
        if (read_word(bounds, lo, span, cfa + (uint64_t)DWU_FRAME_RA_OFFSET(d), &rip) != 0)
            return n;   /* DWU_EMEM */
        if ((d & DWU_FRAME_RBP_SAVED) &&
            read_word(bounds, lo, span, ((d & DWU_FRAME_RBP_AT_RBP) ? rbp : cfa) + (uint64_t)DWU_FRAME_RBP_OFFSET(d),
                      &rbp) != 0)
            return -1;  /* rbp unknown in the caller: the full walk says what follows */
        rsp = cfa;
        if (rsp <= sp)
            return n;   /* DWU_ELOOP */
        exact = 0;
        if (rip == 0)
            return n;   /* DWU_END */
    }
    if (n >= max)
        return n;
    /* Frame N returns where frame N - 1 or N - 2 did: a recursion?  (The
     * rest, not inlined, in recursion_walk: the loop's registers stay its
     * own.) */
    if (repeatable(d) && (rip == (uint64_t)(uintptr_t)ips[n - 1] || rip == (uint64_t)(uintptr_t)ips[n - 2])) {
        struct repeat_end e = recursion_walk(ips, n, max, rip, rsp, rbp, d, rows, objects, bounds, lo, span);
        if (e.n < 0 || e.rip == 0 || e.n >= max)
            return e.n;
        n = e.n;
        rip = e.rip;
        rsp = e.rsp;
        rbp = e.rbp;
        d = e.d;
    }
    limit = n + 1;
    goto next_frames;
}

/* dwu_backtrace's walk (its entry, in capture.S, takes REGS: the caller's
 * registers at the return address); dwu_backtrace_walk also says, in
 * *NO_INFO, whether it stopped at an IP that no unwind information covers
 * (the drop-in libunwind, compat/, goes on there as libunwind does). */
__attribute__((visibility("hidden"))) int dwu_backtrace_from(void **ips, int max, struct dwu_regs *regs);
__attribute__((visibility("hidden"))) int dwu_backtrace_walk(void **ips, int max, struct dwu_regs *regs,
                                                             int *no_info);

int dwu_backtrace_from(void **ips, int max, struct dwu_regs *regs)
{
    int no_info;
    return dwu_backtrace_walk(ips, max, regs, &no_info);
}

int dwu_backtrace_walk(void **ips, int max, struct dwu_regs *regs, int *no_info)
{
    *no_info = 0;
    if (max <= 0)
        return 0;
    struct object_cache objects = {{NULL, NULL}};
    struct dwu_stack_bounds bounds;
    dwu_stack_bounds_init(&bounds, regs->r[DWU_RSP]);
    int owned;
    struct row_cache *rows = take_row_cache(&owned);
    CACHE_TAKEN(rows);
    int n = trace_walk(ips, max, regs, &objects, rows, &bounds, no_info);
    give_back_row_cache(rows, owned);
    if (n >= 0)
        return n;
    struct dwu_memory mem = {dwu_stack_read_within_bounds, &bounds};
    n = 0;
    while (n < max) {
        uint64_t chunk[64];
        int want = max - n < 64 ? max - n : 64, status;
        int got = dwu_walk(regs, &mem, chunk, want, &status, in_process_object_at, &objects);
        for (int i = 0; i < got; i++)
            ips[n + i] = (void *)(uintptr_t)chunk[i];
        n += got;
        if (status != DWU_OK || got < want) {
            *no_info = status == DWU_ENOINFO;
            break;
        }
    }
    return n;
}

int dwu_read_stack_copy(void *arg, uint64_t addr, uint64_t *value)
{
    const struct dwu_stack_copy *c = arg;
    if (addr < c->base || c->size < 8 || addr - c->base > c->size - 8)
        return -1;
    const uint8_t *at = c->data + (addr - c->base);
    /* The callers' frames lie above, and a copy is read from memory the
     * first time it is walked: start bringing the next lines in (halves a
     * first walk's cost in make bench's recorded stacks). */
    __builtin_prefetch(at + 256);
    __builtin_prefetch(at + 512);
    memcpy(value, at, 8);
    return 0;
}

const char *dwu_strerror(int status)
{
    switch (status) {
    case DWU_OK: return "success";
    case DWU_END: return "outermost frame";
    case DWU_ENOINFO: return "no unwind information for the instruction pointer";
    case DWU_EMEM: return "a memory read failed";
    case DWU_EREG: return "a rule needs a register the frame does not know";
    case DWU_EBADRULE: return "an unwind rule cannot be evaluated";
    case DWU_ELOOP: return "the stack pointer does not move towards the caller";
    default: return "unknown status";
    }
}
