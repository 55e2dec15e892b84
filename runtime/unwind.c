/*
 * unwind: the public entry points of dwunwind.h for this process — one
 * step, a walk (walk.h over the loaded objects), the backtrace of the
 * calling thread — and the bounds-checked stack reader.
 */
#include <string.h>

#include "dwunwind.h"
#include "objects.h"
#include "walk.h"

/* The objects of the last frames: most callers are in their callee's
 * object, or in the one before (a callback through libc and back). */
struct object_cache {
    const struct dwu_object *recent[2];
};

static inline const struct dwu_object *cached_object_at(struct object_cache *c, uint64_t pc)
{
    const struct dwu_object *o = c->recent[0];
    if (o && pc >= o->lo && pc < o->hi)
        return o;
    o = c->recent[1];
    if (!o || pc < o->lo || pc >= o->hi) {
        if (!(o = dwu_object_at(pc)))
            return NULL;
    }
    c->recent[1] = c->recent[0];
    c->recent[0] = o;
    return o;
}

static const struct dwu_object *in_process_object_at(void *ctx, uint64_t pc)
{
    return cached_object_at(ctx, pc);
}

int dwu_step(struct dwu_regs *regs, const struct dwu_memory *mem)
{
    struct dwu_regs out;
    struct object_cache objects = {{NULL, NULL}};
    int rc = dwu_walk_step(regs, &out, mem, in_process_object_at, &objects);
    if (rc == DWU_OK)
        *regs = out;
    return rc;
}

int dwu_unwind(struct dwu_regs *regs, const struct dwu_memory *mem, uint64_t *ips, int max,
               int *status)
{
    struct object_cache objects = {{NULL, NULL}};
    return dwu_walk(regs, mem, ips, max, status, in_process_object_at, &objects);
}

/*
 * dwu_backtrace's fast walk: the IPs alone.  A row that the eh_elf calls
 * simple (CFA = rsp or rbp + offset, the return address and rbp at fixed
 * places, nothing else that can fail) needs only rip, rsp and rbp, so the
 * walk keeps those three and the eh_elf's trace entry applies the row to
 * them: no register set written, the row's offsets constants in a case the
 * processor predicts.  At the first frame it cannot take so
 * (an object without an eh_elf, an expression, a signal frame) it returns
 * -1, and the full walk starts again from the top; the two stop at the
 * same frames (an IP without an object or row, a stack pointer that does
 * not grow, an undefined or zero return address).
 *
 * The rows of the return addresses met last are kept per thread, as their
 * eh_elf's descriptors (dwu_eh_elf_frame, DWU_FRAME_*): the frames of a
 * backtrace are mostly those of the one before, and a recursion's are one
 * return address again and again.  A hit applies the descriptor without
 * looking up the object or calling into the eh_elf.
 */
#define ROW_CACHE_SIZE 128   /* a power of two */
struct row_cache {
    const void *version;     /* the objects' (dwu_objects_version) the rows are of */
    struct {
        uint64_t pc, frame;  /* FRAME has DWU_FRAME_SIMPLE set; 0 in an empty slot */
    } slot[ROW_CACHE_SIZE];
};
/* Dynamic TLS (2 KiB): found once per backtrace. */
static __thread struct row_cache row_cache;

static inline size_t row_slot(uint64_t pc)
{
    return (size_t)(pc ^ (pc >> 11)) & (ROW_CACHE_SIZE - 1);
}

/* PC's descriptor from its object O's eh_elf (0 when it has none, or the
 * row is not simple), kept in ROWS. */
static inline uint64_t row_of(struct row_cache *rows, const struct dwu_object *o, uint64_t pc)
{
    uint64_t d = o->frame ? o->frame(pc - o->bias) : 0;
    if (d & DWU_FRAME_SIMPLE) {
        rows->slot[row_slot(pc)].pc = pc;
        rows->slot[row_slot(pc)].frame = d;
    }
    return d;
}

/* The objects of the thread's last backtrace, while they are still the
 * registry's: a backtrace usually passes through the same few objects as
 * the one before.  Initial-exec TLS: an %fs-relative load. */
static __thread __attribute__((tls_model("initial-exec"))) struct {
    const void *version;
    struct object_cache objects;
} last_trace;

static inline int trace_walk(void **ips, int max, const struct dwu_regs *regs, struct object_cache *objects,
                             struct row_cache *rows)
{
    uint64_t rip = regs->r[DWU_RIP], rsp = regs->r[DWU_RSP], rbp = regs->r[DWU_RBP];
    uint64_t exact = regs->flags & DWU_FLAG_EXACT_IP;
    const uint32_t need = (1u << DWU_RIP) | (1u << DWU_RSP) | (1u << DWU_RBP);
    if ((regs->valid & need) != need)
        return -1;
    int n = 0;
    /* The row of the frame before: in a recursion, or a chain of like
     * frames, the next one's too.  A branch on whether it is lets the
     * processor predict it and start the step with its offsets, already in
     * a register, before the lookup has loaded the row (the lookup waits on
     * the return address the step before loaded).  NOT_A_ROW (not
     * simple) is never equal to a slot's. */
    const uint64_t not_a_row = DWU_FRAME_CFA_RBP;
    uint64_t d = not_a_row;
    while (n < max) {
        ips[n++] = (void *)(uintptr_t)rip;
        uint64_t pc = exact ? rip : rip - 1, sp = rsp;
        size_t slot = row_slot(pc);
        uint64_t found = rows->slot[slot].pc == pc ? rows->slot[slot].frame : 0;
        if (__builtin_expect(found == d, 1)) {
            __asm__("" : "+r"(d));   /* keep D's register: not to be read again from the slot */
        } else if (found & DWU_FRAME_SIMPLE) {
            d = found;
        } else {
            const struct dwu_object *o = cached_object_at(objects, pc);
            if (!o)
                return n;   /* DWU_ENOINFO: where the full walk stops too */
            d = row_of(rows, o, pc);
            if (!(d & DWU_FRAME_SIMPLE)) {
                /* No descriptor: the eh_elf's trace entry (0: not simple). */
                uint64_t r[3] = {rip, rsp, rbp};
                int rc = o->trace ? o->trace(pc - o->bias, &r[0], &r[1], &r[2]) : 0;
                if (rc == 0)
                    return -1;
                if (rc == 2)
                    return n;
                rip = r[0];
                rsp = r[1];
                rbp = r[2];
                d = not_a_row;
                goto stepped;
            }
        }
        if (d & DWU_FRAME_END)
            return n;
        uint64_t cfa = ((d & DWU_FRAME_CFA_RBP) ? rbp : rsp) + (uint64_t)DWU_FRAME_CFA_OFFSET(d);
        memcpy(&rip, (const void *)(uintptr_t)(cfa + (uint64_t)DWU_FRAME_RA_OFFSET(d)), 8);
        if (d & DWU_FRAME_RBP_SAVED)
            memcpy(&rbp, (const void *)(uintptr_t)(cfa + (uint64_t)DWU_FRAME_RBP_OFFSET(d)), 8);
        rsp = cfa;
    stepped:
        if (rsp <= sp)
            return n;   /* DWU_ELOOP */
        exact = 0;
        if (rip == 0)
            return n;   /* DWU_END */
    }
    return n;
}

static int trace(void **ips, int max, const struct dwu_regs *regs)
{
    struct object_cache objects = {{NULL, NULL}};
    struct row_cache *rows = &row_cache;
    /* One __tls_get_addr: the compiler would otherwise find the address
     * again at each frame. */
    __asm__("" : "+r"(rows));
    const void *version = dwu_objects_version();
    if (last_trace.version == version)
        objects = last_trace.objects;
    if (rows->version != version) {
        memset(rows->slot, 0, sizeof rows->slot);
        rows->version = version;
    }
    int n = trace_walk(ips, max, regs, &objects, rows);
    /* Read again: the walk may have found the objects again (a miss after a
     * dlopen), and the objects it kept are then the new set's. */
    last_trace.version = dwu_objects_version();
    last_trace.objects = objects;
    return n;
}

/* dwu_backtrace's walk (its entry, in capture.S, takes REGS: the caller's
 * registers at the return address). */
__attribute__((visibility("hidden"))) int dwu_backtrace_from(void **ips, int max, struct dwu_regs *regs);

int dwu_backtrace_from(void **ips, int max, struct dwu_regs *regs)
{
    if (max <= 0)
        return 0;
    int n = trace(ips, max, regs);
    if (n >= 0)
        return n;
    n = 0;
    while (n < max) {
        uint64_t chunk[64];
        int want = max - n < 64 ? max - n : 64, status;
        int got = dwu_unwind(regs, NULL, chunk, want, &status);
        for (int i = 0; i < got; i++)
            ips[n + i] = (void *)(uintptr_t)chunk[i];
        n += got;
        if (status != DWU_OK || got < want)
            break;
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
