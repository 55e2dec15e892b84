/*
 * unwind: the public entry points of dwunwind.h — one step, a walk, the
 * backtrace of the calling thread, and the bounds-checked stack reader.
 */
#include <string.h>

#include "dwarf_fallback.h"
#include "dwunwind.h"
#include "objects.h"

#define NEEDED ((1u << DWU_RIP) | (1u << DWU_RSP))

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

/* Unwind IN into OUT. */
static inline int step_into(const struct dwu_regs *in, struct dwu_regs *out, const struct dwu_memory *mem,
                            struct object_cache *objects)
{
    if ((in->valid & NEEDED) != NEEDED)
        return DWU_EREG;
    uint64_t ip = in->r[DWU_RIP];
    /* A return address may be just past the function (a call that does not
     * return): the row of the call is at ip - 1, unless the frame was
     * interrupted at ip. */
    uint64_t pc = in->flags & DWU_FLAG_EXACT_IP ? ip : ip - 1;
    const struct dwu_object *o = cached_object_at(objects, pc);
    if (!o)
        return DWU_ENOINFO;
    int rc = o->step ? o->step(pc - o->bias, in, out, mem) : dwu_dwarf_step(o, pc, in, out, mem);
    if (rc == DWU_OK && (out->valid & NEEDED) != NEEDED)
        return DWU_EREG;
    return rc;
}

int dwu_step(struct dwu_regs *regs, const struct dwu_memory *mem)
{
    struct dwu_regs out;
    struct object_cache objects = {{NULL, NULL}};
    int rc = step_into(regs, &out, mem, &objects);
    if (rc == DWU_OK)
        *regs = out;
    return rc;
}

int dwu_unwind(struct dwu_regs *regs, const struct dwu_memory *mem, uint64_t *ips, int max,
               int *status)
{
    struct dwu_regs other;
    struct dwu_regs *cur = regs, *next = &other;
    struct object_cache objects = {{NULL, NULL}};
    int n = 0, rc = DWU_OK;
    while (n < max) {
        ips[n++] = cur->r[DWU_RIP];
        rc = step_into(cur, next, mem, &objects);
        if (rc != DWU_OK)
            break;
        /* A caller's frame is above its callee's, except across a signal
         * frame (the interrupted code may run on another stack). */
        if (next->r[DWU_RSP] <= cur->r[DWU_RSP] && !(next->flags & DWU_FLAG_EXACT_IP)) {
            rc = DWU_ELOOP;
            break;
        }
        struct dwu_regs *t = cur;
        cur = next;
        next = t;
        if (cur->r[DWU_RIP] == 0) {
            rc = DWU_END;
            break;
        }
    }
    if (cur != regs)
        *regs = *cur;
    if (status)
        *status = rc;
    return n;
}

/* dwu_backtrace's walk (its entry, in capture.S, takes REGS: the caller's
 * registers at the return address). */
__attribute__((visibility("hidden"))) int dwu_backtrace_from(void **ips, int max, struct dwu_regs *regs);

int dwu_backtrace_from(void **ips, int max, struct dwu_regs *regs)
{
    if (max <= 0)
        return 0;
    int n = 0;
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
