/*
 * dwunwind: stack unwinding with compiled unwind tables (eh_elfs).
 *
 * For every object loaded in the process, the runtime looks for a compiled
 * table `BASENAME.eh_elf.so` (made by dwcompile), first next to the object,
 * then in each directory of DWUNWIND_PATH (colon-separated).  An object
 * without one is unwound by interpreting its .eh_frame.
 *
 * An eh_elf is code that the runtime loads into the process: keep eh_elfs
 * only in directories you trust (a set-user-ID or set-group-ID program
 * ignores DWUNWIND_PATH).  A file that is not a well-formed eh_elf of the
 * object's build (truncated, a FIFO, damaged headers, a stale copy) is
 * never loaded: the object is then unwound from its .eh_frame.
 *
 * Registers are numbered as DWARF numbers them on x86_64 (rax 0, rdx 1,
 * rcx 2, rbx 3, rsi 4, rdi 5, rbp 6, rsp 7, r8-r15 8-15) and the instruction
 * pointer takes the return-address column, 16.
 *
 * Link with `pkg-config --libs dwunwind`; the library needs only libc.
 */
#ifndef DWUNWIND_H
#define DWUNWIND_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DWU_NREGS 17
enum dwu_reg {
    DWU_RAX = 0, DWU_RDX, DWU_RCX, DWU_RBX, DWU_RSI, DWU_RDI, DWU_RBP, DWU_RSP,
    DWU_R8, DWU_R9, DWU_R10, DWU_R11, DWU_R12, DWU_R13, DWU_R14, DWU_R15,
    DWU_RIP = 16
};

/* A frame's registers.  Bit R of `valid` says r[R] is known. */
struct dwu_regs {
    uint64_t r[DWU_NREGS];
    uint32_t valid;
    uint32_t flags;                 /* DWU_FLAG_* */
};

/* rip is exact: the frame was interrupted (below a signal frame), not
 * stopped at a call, so its table is looked up at rip rather than rip - 1. */
#define DWU_FLAG_EXACT_IP 1u

/* Where the row that gave these registers (dwu_step's output) came from,
 * when the object's eh_elf was compiled from its validated table (dwcompile
 * --repair): synthesised from the code, because its DWARF was wrong or
 * missing; or DWARF that the audit could not check.  Neither: DWARF proved
 * right (or an eh_elf compiled from DWARF alone, or the DWARF fallback).
 * A profiler may mark such frames. */
#define DWU_FLAG_SYNTHESISED 2u
#define DWU_FLAG_UNCHECKED 4u

/* How the unwinder reads memory.  NULL means "this process, directly" (the
 * fastest; a corrupted stack may then crash).  READ stores the 8 bytes at
 * ADDR in *VALUE and returns 0, or returns non-zero when they cannot be read. */
struct dwu_memory {
    int (*read)(void *arg, uint64_t addr, uint64_t *value);
    void *arg;
};

/* Results of dwu_step and the eh_elf entry point. */
enum dwu_status {
    DWU_OK = 0,
    DWU_END = 1,         /* the outermost frame: the return address is undefined */
    DWU_ENOINFO = -1,    /* no object or no unwind row covers the IP */
    DWU_EMEM = -2,       /* a memory read failed */
    DWU_EREG = -3,       /* a rule needs a register this frame does not know */
    DWU_EBADRULE = -4,   /* a rule that cannot be evaluated (bad expression) */
    DWU_ELOOP = -5       /* the stack does not grow towards the caller */
};

/* A sentence for a dwu_status. */
const char *dwu_strerror(int status);

/*
 * The return addresses of the calling thread's stack, innermost first,
 * starting with the return address into the caller of dwu_backtrace (as
 * glibc's backtrace() does).  Returns how many were stored (at most MAX).
 */
int dwu_backtrace(void **ips, int max);

/*
 * The caller's registers at the return from dwu_capture: rip is the return
 * address, rsp the stack pointer after the return, and the callee-saved
 * registers (rbx, rbp, r12-r15) their values there.  Returns 0.
 */
int dwu_capture(struct dwu_regs *regs);

/*
 * Unwind one frame: REGS (a frame of this process's code, on this stack or
 * a copy of it read through MEM) becomes its caller's frame.  Registers
 * taken at an interrupted instruction (a signal context, a profiler's
 * sample) need DWU_FLAG_EXACT_IP in REGS->flags; those from dwu_capture do
 * not.  Returns DWU_OK, DWU_END at the outermost frame (REGS unchanged), or
 * an error (REGS unchanged).
 */
int dwu_step(struct dwu_regs *regs, const struct dwu_memory *mem);

/*
 * Walk from REGS (modified) storing up to MAX instruction pointers, REGS's
 * own first.  Stops at the outermost frame, at an error, or when the stack
 * pointer fails to grow.  Returns the number stored; *STATUS (may be NULL)
 * receives DWU_END, DWU_OK (MAX reached) or the error that stopped it.
 */
int dwu_unwind(struct dwu_regs *regs, const struct dwu_memory *mem, uint64_t *ips, int max,
               int *status);

/* A copy of a stack: SIZE bytes that were at address BASE. */
struct dwu_stack_copy {
    uint64_t base;
    const uint8_t *data;
    uint64_t size;
};

/* A dwu_memory.read that reads from a dwu_stack_copy (ARG), and fails
 * outside it: the bounds-checked mode for captured stacks. */
int dwu_read_stack_copy(void *arg, uint64_t addr, uint64_t *value);

/* The entry point every eh_elf exports, and its ABI version. */
#define DWU_EH_ELF_ABI 1
#define DWU_EH_ELF_STEP "dwu_eh_elf_step"
#define DWU_EH_ELF_VERSION "dwu_eh_elf_abi"
#define DWU_EH_ELF_IDENTITY "dwu_eh_elf_identity"   /* kind, length, bytes: see identity.h */
/* Unwind the frame IN whose instruction pointer is PC in the object's own
 * addresses (IN->r[16] is the run-time address); OUT receives the caller's. */
typedef int (*dwu_eh_elf_step_fn)(uint64_t pc, const struct dwu_regs *in, struct dwu_regs *out,
                                  const struct dwu_memory *mem);

#ifdef __cplusplus
}
#endif

#endif
