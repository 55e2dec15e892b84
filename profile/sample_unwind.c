/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sample_unwind: a sample's call stack (see sample_unwind.h).
 */
#include "sample_unwind.h"

/* Kernel callchain markers (include/uapi/linux/perf_event.h). */
#define CONTEXT_MAX ((uint64_t)-4095)
#define CONTEXT_KERNEL ((uint64_t)-128)

const char *sample_stop_reason_text(enum stop_reason r)
{
    switch (r) {
    case STOP_END: return "reached the outermost frame";
    case STOP_NO_USER: return "no user registers or stack (kernel thread)";
    case STOP_NO_OBJECT: return "an address in no mapped object";
    case STOP_NO_TABLE: return "an object without unwind information (no file, another build, no table)";
    case STOP_NO_ROW: return "no unwind row for the address";
    case STOP_MEMORY: return "memory outside the stack copy";
    case STOP_BAD_RULE: return "a rule that cannot be evaluated";
    case STOP_LOOP: return "the stack pointer did not move towards the caller";
    case STOP_MAX: return "the frame limit";
    default: return "unknown";
    }
}

/* perf's register numbers to DWARF's (dwunwind.h). */
static const signed char dwarf_of_perf[PERF_X86_NREGS] = {
    [PERF_X86_AX] = DWU_RAX, [PERF_X86_BX] = DWU_RBX, [PERF_X86_CX] = DWU_RCX, [PERF_X86_DX] = DWU_RDX,
    [PERF_X86_SI] = DWU_RSI, [PERF_X86_DI] = DWU_RDI, [PERF_X86_BP] = DWU_RBP, [PERF_X86_SP] = DWU_RSP,
    [PERF_X86_IP] = DWU_RIP, [PERF_X86_FLAGS] = -1, [PERF_X86_CS] = -1, [PERF_X86_SS] = -1,
    [PERF_X86_DS] = -1, [PERF_X86_ES] = -1, [PERF_X86_FS] = -1, [PERF_X86_GS] = -1,
    [PERF_X86_R8] = DWU_R8, [PERF_X86_R9] = DWU_R9, [PERF_X86_R10] = DWU_R10, [PERF_X86_R11] = DWU_R11,
    [PERF_X86_R12] = DWU_R12, [PERF_X86_R13] = DWU_R13, [PERF_X86_R14] = DWU_R14, [PERF_X86_R15] = DWU_R15,
};

/* The kernel part of the recorded callchain. */
static int kernel_frames(const struct perf_sample *s, struct sample_frame *frames, int max)
{
    int n = 0, in_kernel = 0;
    for (uint64_t i = 0; i < s->callchain_nr && n < max; i++) {
        uint64_t ip = s->callchain[i];
        if (ip >= CONTEXT_MAX) {
            in_kernel = ip == CONTEXT_KERNEL;
            continue;
        }
        if (in_kernel)
            frames[n++] = (struct sample_frame){ip, 1, FRAME_KERNEL};
    }
    return n;
}

static enum stop_reason reason_of(struct dwu_space *space, int status, uint64_t pc)
{
    struct dwu_mapping m;
    int map_status;
    switch (status) {
    case DWU_END: return STOP_END;
    case DWU_ENOINFO:
        if (dwu_space_mapping_at(space, pc, &m, &map_status) != 0)
            return STOP_NO_OBJECT;
        return map_status < 0 ? STOP_NO_TABLE : STOP_NO_ROW;
    case DWU_EMEM: return STOP_MEMORY;
    case DWU_ELOOP: return STOP_LOOP;
    default: return STOP_BAD_RULE;
    }
}

static enum frame_source source_of(struct dwu_space *space, uint64_t pc, uint32_t flags)
{
    if (flags & DWU_FLAG_SYNTHESISED)
        return FRAME_SYNTHESISED;
    if (flags & DWU_FLAG_UNCHECKED)
        return FRAME_UNCHECKED;
    struct dwu_mapping m;
    int map_status = DWU_MAP_DWARF;
    dwu_space_mapping_at(space, pc, &m, &map_status);
    return map_status == DWU_MAP_EH_ELF ? FRAME_EH_ELF : FRAME_DWARF;
}

/* S's user registers (DWARF numbers, its IP exact) and stack copy, as
 * the walk reads them; 0, or -1 when S has none (a kernel thread). */
static int user_state(const struct perf_sample *s, struct dwu_regs *regs, struct dwu_stack_copy *copy)
{
    const uint64_t need = (1ull << PERF_X86_SP) | (1ull << PERF_X86_IP);
    if (!s->regs_abi || (s->regs_mask & need) != need)
        return -1;
    *regs = (struct dwu_regs){.flags = DWU_FLAG_EXACT_IP};
    for (int r = 0; r < PERF_X86_NREGS; r++)
        if ((s->regs_mask >> r & 1) && dwarf_of_perf[r] >= 0) {
            regs->r[dwarf_of_perf[r]] = s->regs[r];
            regs->valid |= 1u << dwarf_of_perf[r];
        }
    *copy = (struct dwu_stack_copy){s->regs[PERF_X86_SP], s->stack, s->stack ? s->stack_size : 0};
    return 0;
}

void sample_prefetch(const struct dwu_space *space, const struct perf_sample *s)
{
    struct dwu_regs regs;
    struct dwu_stack_copy copy;
    if (space && user_state(s, &regs, &copy) == 0)
        dwu_space_prefetch(space, &regs, &(struct dwu_memory){dwu_read_stack_copy, &copy});
}

int sample_unwind(struct dwu_space *space, const struct perf_sample *s, struct sample_frame *frames,
                  enum stop_reason *stop)
{
    int n = kernel_frames(s, frames, SAMPLE_MAX_FRAMES);
    struct dwu_regs regs;
    struct dwu_stack_copy copy;
    if (!space || user_state(s, &regs, &copy) != 0) {
        *stop = STOP_NO_USER;
        return n;
    }
    struct dwu_memory mem = {dwu_read_stack_copy, &copy};
    *stop = STOP_MAX;
    while (n < SAMPLE_MAX_FRAMES) {
        uint64_t ip = regs.r[DWU_RIP], sp = regs.r[DWU_RSP];
        int exact = (regs.flags & DWU_FLAG_EXACT_IP) != 0;
        frames[n] = (struct sample_frame){ip, exact, FRAME_LAST};
        int rc = dwu_space_step(space, &regs, &mem);
        n++;
        if (rc != DWU_OK) {
            *stop = reason_of(space, rc, exact ? ip : ip - 1);
            break;
        }
        frames[n - 1].source = source_of(space, exact ? ip : ip - 1, regs.flags);
        if (regs.r[DWU_RSP] <= sp && !(regs.flags & DWU_FLAG_EXACT_IP)) {
            *stop = STOP_LOOP;
            break;
        }
        if (regs.r[DWU_RIP] == 0) {
            *stop = STOP_END;
            break;
        }
    }
    return n;
}
