/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_cursor: libunwind's local cursor over the dwunwind runtime (see the
 * header).
 */
#include "compat/unw_cursor.h"

#include <link.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "compat/registered_frames.h"
#include "compat/unw_rows.h"
#include "runtime/walk.h"

#define ALL_REGS ((1u << DWU_NREGS) - 1)

/* Keep the caller-saved registers R knows (the frame's), for the frames
 * above that know them not: libunwind's "same value", where the runtime
 * says nothing of them. */
static void keep(struct lu_cursor *c, const struct dwu_regs *r)
{
    uint32_t known = r->valid & LU_CALLER_SAVED;
    for (uint32_t k = known; k; k &= k - 1) {
        unsigned reg = (unsigned)__builtin_ctz(k);
        c->kept[reg] = r->r[reg];
    }
    c->kept_valid |= known;
}

static void start(struct lu_cursor *c, uint32_t flags)
{
    c->magic = LU_CURSOR_MAGIC;
    lu_regs(c)->flags = flags;
    dwu_stack_bounds_init(&c->bounds, lu_regs(c)->r[DWU_RSP]);
    c->recent[0] = c->recent[1] = NULL;
    c->start_flags = flags;
    c->steps = 0;
    c->sigcontext = 0;
    c->eh_args[0] = c->eh_args[1] = 0;
    c->eh_valid = 0;
    c->signal_frame = 0;
    c->last_step = LU_STEP_NONE;
    c->kept_valid = 0;
    keep(c, lu_regs(c));
}

int lu_cursor_init(struct lu_cursor *c, const unw_context_t *uc, int exact)
{
    if (!c || !uc)
        return -UNW_EINVAL;
    c->cur = 0;
    for (unsigned r = 0; r < DWU_NREGS; r++)
        c->frame[0].r[r] = (uint64_t)uc->uc_mcontext.gregs[lu_greg_of(r)];
    c->frame[0].valid = ALL_REGS;
    c->uc = uc;
    start(c, exact ? DWU_FLAG_EXACT_IP : 0);
    return 0;
}

void lu_cursor_init_regs(struct lu_cursor *c, const struct dwu_regs *regs)
{
    c->cur = 0;
    c->frame[0] = *regs;
    c->uc = NULL;
    start(c, regs->flags & DWU_FLAG_EXACT_IP);
}

/* The object holding PC: one of the cursor's last two, else the runtime's
 * lookup (as unwind.c's walk keeps them). */
static const struct dwu_object *cursor_object_at(void *ctx, uint64_t pc)
{
    struct lu_cursor *c = ctx;
    const struct dwu_object *o = c->recent[0];
    if (o && pc >= o->lo && pc < o->hi)
        return o;
    o = c->recent[1];
    if (!o || pc < o->lo || pc >= o->hi) {
        if (!(o = dwu_objects_at(pc)))
            return NULL;
    }
    c->recent[1] = c->recent[0];
    c->recent[0] = o;
    return o;
}

/* One step of IN into OUT (walk.h's, but for the objects without an
 * eh_elf, whose rows unw_rows keeps by address, and for the frames
 * registered at run time: registered_frames.h). */
static int table_step(struct lu_cursor *c, const struct dwu_regs *in, struct dwu_regs *out,
                      const struct dwu_memory *mem)
{
    if ((in->valid & DWU_WALK_NEEDED) != DWU_WALK_NEEDED)
        return DWU_EREG;
    uint64_t ip = in->r[DWU_RIP];
    uint64_t pc = in->flags & DWU_FLAG_EXACT_IP ? ip : ip - 1;
    const struct dwu_object *o = cursor_object_at(c, pc);
    int rc = DWU_ENOINFO;
    if (o) {
        /* (dwu_init may give the object its eh_elf meanwhile: one load) */
        dwu_eh_elf_step_fn step = __atomic_load_n(&o->step, __ATOMIC_ACQUIRE);
        rc = step ? step(pc - o->bias, in, out, mem) : lu_rows_step(o, pc, in, out, mem);
    }
    /* Code in no object, or that its object's table does not cover: a
     * JIT's, registered with __register_frame? */
    if (rc == DWU_ENOINFO)
        rc = lu_registered_frames_step(pc, in, out, mem);
    if (rc == DWU_OK && (out->valid & DWU_WALK_NEEDED) != DWU_WALK_NEEDED)
        return DWU_EREG;
    return rc;
}

/* ---- memory the frame-chain guess reads --------------------------------- */

/* The word at ADDR, anywhere in this process: on the walk's stacks (read
 * directly), else copied by the kernel, which fails on memory that is not
 * mapped readable instead of faulting (libunwind validates its reads
 * there).  0, or -1. */
static int read_any(struct lu_cursor *c, uint64_t addr, uint64_t *value)
{
    if (dwu_stack_read_within_bounds(&c->bounds, addr, value) == 0)
        return 0;
    struct iovec local = {value, 8}, remote = {(void *)(uintptr_t)addr, 8};
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 8 ? 0 : -1;
}

/* Whether code may lie at IP (libunwind's check that a bad function
 * pointer was not followed): readable memory, or, where the kernel will
 * not copy for us, a loaded object. */
static int code_readable(struct lu_cursor *c, uint64_t ip)
{
    uint64_t w;
    if (read_any(c, ip, &w) == 0)
        return 1;
    struct dl_find_object f;
    return _dl_find_object((void *)(uintptr_t)ip, &f) == 0 && ip + 8 <= (uint64_t)(uintptr_t)f.dlfo_map_end;
}

/* A lazy-binding PLT entry at IP, as ld writes it:
 *     ff 25 xx xx xx xx    jmp *GOT(%rip)
 *     68 xx xx xx xx       push $index
 *     e9 xx xx xx xx       jmp .plt
 * (libunwind steps through one as a frame that saved nothing). */
static int plt_entry_at(struct lu_cursor *c, uint64_t ip)
{
    uint64_t w0, w1;
    if (read_any(c, ip, &w0) != 0 || read_any(c, ip + 8, &w1) != 0)
        return 0;
    return (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 && ((w1 >> 24) & 0xff) == 0xe9;
}

/*
 * A step where no unwind information covers the IP: libunwind 1.6's
 * frame-chain guess on x86_64, for the same stops and frames.  A PLT entry
 * pops the return address and keeps every register.  Otherwise, with rbp
 * unknown or zero (at a readable IP) the walk ends; at an IP that cannot
 * be read (a bad function pointer was called) the return address is
 * taken at rsp; else rbp is taken for a frame pointer when it lies at most
 * 16 KiB above the frame: the caller's rbp at [rbp], its return address at
 * [rbp + 8], and its stack pointer the frame's plus 16, as libunwind
 * computes it.  Every register but rip, rsp and rbp is then unknown.
 */
static int step_without_info(struct lu_cursor *c)
{
    struct dwu_regs *r = lu_regs(c);
    uint64_t prev_ip = r->r[DWU_RIP], prev_sp = r->r[DWU_RSP];
    const uint32_t rbp_bit = 1u << DWU_RBP;
    uint64_t rip;
    c->last_step = LU_STEP_NONE;
    if (plt_entry_at(c, prev_ip)) {
        c->last_step = LU_STEP_PLT;
        r->r[DWU_RSP] = prev_sp + 8;
        if (!(r->valid & rbp_bit))
            return 0;
        if (read_any(c, prev_sp, &rip) != 0)
            return -UNW_EUNSPEC;
        r->r[DWU_RIP] = rip;
        c->steps++;
        return 1;
    }
    /* Past here libunwind knows no register but rip, rsp and rbp. */
    c->kept_valid = 0;
    if (!(r->valid & rbp_bit)) {
        r->valid &= (1u << DWU_RIP) | (1u << DWU_RSP);
        return 0;
    }
    uint64_t rbp = r->r[DWU_RBP];
    int bad_ip = !code_readable(c, prev_ip);
    if (rbp == 0 && !bad_ip) {
        r->valid &= (1u << DWU_RIP) | (1u << DWU_RSP);
        return 0;
    }
    int rc = 0, have_rip = 0, have_rbp = 0;
    uint64_t new_rbp = 0, cfa = prev_sp;
    if (bad_ip) {
        uint64_t ret;
        if (read_any(c, prev_sp, &ret) == 0 && code_readable(c, ret)) {
            cfa = prev_sp + 8;
            have_rbp = read_any(c, rbp, &new_rbp) == 0;
            rip = ret;
            have_rip = 1;
            c->last_step = LU_STEP_BAD_IP;
        }
    }
    if (!have_rip) {
        int readable = read_any(c, rbp, &new_rbp) == 0;
        rc = readable ? 0 : -UNW_EUNSPEC;
        if (readable && rbp >= prev_sp && rbp - prev_sp <= 0x4000) {
            have_rbp = 1;
            if (read_any(c, rbp + 8, &rip) != 0)
                return -UNW_EUNSPEC;
            have_rip = 1;
        }
        cfa = prev_sp + 16;
        c->last_step = LU_STEP_FRAME_CHAIN;
    }
    r->r[DWU_RSP] = cfa;
    r->r[DWU_RBP] = new_rbp;
    r->valid = (1u << DWU_RIP) | (1u << DWU_RSP) | (have_rbp ? rbp_bit : 0);
    r->flags = 0;
    c->steps++;
    if (!have_rbp && !bad_ip)
        return 0;
    r->r[DWU_RIP] = have_rip ? rip : 0;
    if (!have_rip)
        return rc;
    if (rip == prev_ip && cfa == prev_sp)
        return -UNW_EBADFRAME;
    return 1;
}

/* ---- the step ------------------------------------------------------------ */

static int negated_status(int status)
{
    switch (status) {
    case DWU_EMEM: return -UNW_EBADFRAME;
    case DWU_EREG: return -UNW_EBADREG;
    case DWU_EBADRULE: return -UNW_EINVAL;
    default: return -UNW_EUNSPEC;
    }
}

/* Whether libunwind would be caching (unw_set_caching_policy): its cache
 * is what remembers a signal frame's context for unw_resume. */
static int caching = 1;

void lu_cursor_set_caching(int on)
{
    __atomic_store_n(&caching, on, __ATOMIC_RELAXED);
}

int lu_cursor_take(struct lu_cursor *c)
{
    const struct dwu_regs *in = lu_regs(c);
    struct dwu_regs *out = lu_next_regs(c);
    /* The frame stepped through was a signal frame (its caller's IP is
     * exact): libunwind's unw_is_signal_frame says so until the next step,
     * and a resume above it returns through its context, which lies at
     * its stack pointer. */
    c->signal_frame = 0;
    if (out->flags & DWU_FLAG_EXACT_IP) {
        c->signal_frame = 1;
        if (__atomic_load_n(&caching, __ATOMIC_RELAXED))
            c->sigcontext = in->r[DWU_RSP];
    }
    if (__builtin_expect(out->valid & LU_CALLER_SAVED, 0))
        keep(c, out);
    out->flags &= DWU_FLAG_EXACT_IP;
    int moved = out->r[DWU_RIP] != in->r[DWU_RIP] || out->r[DWU_RSP] != in->r[DWU_RSP];
    c->cur ^= 1;
    c->steps++;
    c->last_step = LU_STEP_TABLE;
    return moved ? 1 : -UNW_EBADFRAME;
}

int lu_cursor_step_rows(struct lu_cursor *c)
{
    const struct dwu_memory mem = {dwu_stack_read_within_bounds, &c->bounds};
    c->signal_frame = 0;
    int rc = table_step(c, lu_regs(c), lu_next_regs(c), &mem);
    if (__builtin_expect(rc == DWU_EREG, 0) && (c->kept_valid & ~lu_regs(c)->valid)) {
        /* A rule that reads a caller-saved register libunwind would have
         * kept: the frame with those values, as libunwind's. */
        struct dwu_regs in = *lu_regs(c);
        for (unsigned reg = 0; reg < DWU_NREGS; reg++)
            if (!(in.valid & (1u << reg)) && (c->kept_valid & (1u << reg))) {
                in.r[reg] = c->kept[reg];
                in.valid |= 1u << reg;
            }
        rc = table_step(c, &in, lu_next_regs(c), &mem);
    }
    if (__builtin_expect(rc == DWU_OK, 1)) {
        if ((rc = lu_cursor_take(c)) < 0)
            return rc;
        /* libunwind's end of the chain: rbp undefined */
        if (!(lu_regs(c)->valid & (1u << DWU_RBP))) {
            lu_regs(c)->r[DWU_RIP] = 0;
            return 0;
        }
        return 1;
    }
    if (rc == DWU_END) {
        lu_regs(c)->r[DWU_RIP] = 0;
        return 0;
    }
    return rc == DWU_ENOINFO ? -UNW_ENOINFO : negated_status(rc);
}

int lu_cursor_step(struct lu_cursor *c)
{
    int rc = lu_cursor_step_rows(c);
    return rc == -UNW_ENOINFO ? step_without_info(c) : rc;
}

/* ---- registers ----------------------------------------------------------- */

int lu_cursor_get_reg(const struct lu_cursor *c, int reg, unw_word_t *value)
{
    const struct dwu_regs *r = lu_regs_of(c);
    switch (reg) {
    case UNW_X86_64_RIP:
        *value = r->r[DWU_RIP];
        return 0;
    case UNW_X86_64_RSP:
    case UNW_X86_64_CFA:
        *value = r->r[DWU_RSP];
        return 0;
    case UNW_X86_64_RAX:
    case UNW_X86_64_RDX:
        if (c->eh_valid & (1u << reg)) {
            *value = c->eh_args[reg];
            return 0;
        }
        break;
    default:
        if (reg < 0 || reg > UNW_X86_64_R15)
            return -UNW_EBADREG;
        break;
    }
    return lu_cursor_value(c, (unsigned)reg, value) == 0 ? 0 : -UNW_EBADREG;
}

int lu_cursor_set_reg(struct lu_cursor *c, int reg, unw_word_t value)
{
    struct dwu_regs *r = lu_regs(c);
    switch (reg) {
    case UNW_X86_64_RIP:
        r->r[DWU_RIP] = value;
        return 0;
    case UNW_X86_64_RSP:
    case UNW_X86_64_CFA:
        return -UNW_EREADONLYREG;
    case UNW_X86_64_RAX:
    case UNW_X86_64_RDX:
        /* the exception handler's arguments, kept apart as libunwind keeps them */
        c->eh_args[reg] = value;
        c->eh_valid |= 1u << reg;
        return 0;
    default:
        if (reg < 0 || reg > UNW_X86_64_R15 || !((r->valid | c->kept_valid) & (1u << reg)))
            return -UNW_EBADREG;
        r->r[reg] = value;
        r->valid |= 1u << reg;
        return 0;
    }
}

/* ---- resume -------------------------------------------------------------- */

void lu_jump(const uint64_t *regs) __attribute__((noreturn, visibility("hidden")));
void lu_sigreturn(uint64_t uc) __attribute__((noreturn, visibility("hidden")));
void lu_jump_landing_pad(const uint64_t *regs) __attribute__((noreturn, visibility("hidden")));

/* The value C's frame resumes with in register R: rax and rdx as
 * unw_set_reg gave them, else the frame's known value, else the starting
 * context's (0 without one). */
static uint64_t resume_value(const struct lu_cursor *c, unsigned r)
{
    uint64_t v;
    if (r <= DWU_RDX && (c->eh_valid & (1u << r)))
        return c->eh_args[r];
    if (lu_cursor_value(c, r, &v) == 0)
        return v;
    return c->uc ? (uint64_t)c->uc->uc_mcontext.gregs[lu_greg_of(r)] : 0;
}

void lu_cursor_resume(const struct lu_cursor *c)
{
    const struct dwu_regs *regs = lu_regs_of(c);
    uint64_t v[DWU_NREGS];
    for (unsigned r = 0; r < DWU_NREGS; r++)
        v[r] = resume_value(c, r);
    v[DWU_RSP] = regs->r[DWU_RSP];
    v[DWU_RIP] = regs->r[DWU_RIP];
    if (c->sigcontext) {
        /* A frame above a signal frame: through that frame's context, as
         * its handler's return would (libunwind does the same). */
        ucontext_t *s = (ucontext_t *)(uintptr_t)c->sigcontext;
        for (unsigned r = 0; r < DWU_NREGS; r++)
            s->uc_mcontext.gregs[lu_greg_of(r)] = (greg_t)v[r];
        lu_sigreturn(c->sigcontext);
    }
    lu_jump(v);
}

void lu_cursor_resume_landing_pad(const struct lu_cursor *c)
{
    const struct dwu_regs *regs = lu_regs_of(c);
    if (c->sigcontext || (regs->flags & DWU_FLAG_EXACT_IP))
        lu_cursor_resume(c);   /* every register may be live there */
    static const unsigned live[] = {DWU_RAX, DWU_RDX, DWU_RBX, DWU_RBP, DWU_R12, DWU_R13, DWU_R14, DWU_R15};
    uint64_t v[DWU_NREGS];
    for (unsigned i = 0; i < sizeof live / sizeof live[0]; i++)
        v[live[i]] = resume_value(c, live[i]);
    v[DWU_RSP] = regs->r[DWU_RSP];
    v[DWU_RIP] = regs->r[DWU_RIP];
    lu_jump_landing_pad(v);
}
