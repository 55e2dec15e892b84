/* SPDX-License-Identifier: Apache-2.0 */
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

/* How the unwinder reads memory.  NULL means "this process": the stack
 * words are read directly, each checked against the stack's mapping first.
 * READ stores the 8 bytes at
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
 * Async-signal-safety.  dwu_backtrace, dwu_capture, dwu_step and
 * dwu_unwind (over this process), dwu_read_stack_copy and dwu_strerror are
 * AS-Safe, as glibc's manual uses the term: they may be called from a
 * signal handler, including the process's first call, a handler that
 * interrupted malloc, dlopen or dlclose, and a handler that interrupted
 * another of these calls on the same thread.  They allocate nothing, take
 * no lock another context may hold and load nothing: objects are found
 * with glibc's _dl_find_object, and an object loaded since the last
 * dwu_init (or since the library was loaded) is unwound from its
 * .eh_frame until the next one.  An object unloaded and another loaded at
 * its address is never unwound with the first one's table or eh_elf.
 * Every word they read of the stack is checked first against the stack's
 * mapping (a corrupted stack or a wrong table gives a short backtrace and
 * a status, never a fault).  Not AS-Safe: dwu_init, and the address
 * spaces (dwu_space_*), which open and map files and allocate.
 */

/*
 * Find and load the eh_elfs of the objects loaded now (the library does
 * so when it is loaded): call it after dlopen, outside a signal handler,
 * for the new objects to be unwound with their eh_elfs.  Not AS-Safe.
 */
void dwu_init(void);

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
 * an error (REGS unchanged).  A callee-saved register whose save slot MEM
 * cannot read (outside a stack copy) is left unknown in the caller (its bit
 * of `valid` clear); the return address's slot must be read (DWU_EMEM).
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

/*
 * Address spaces: the code of another process (a profiler's recording, a
 * core file), described by its mappings, and unwound through a memory
 * callback (the recorded stack).  Each mapped object uses its eh_elf when
 * one compiled from its build is found — BASENAME.eh_elf.so next to the
 * object, then in each DWUNWIND_PATH directory, then IDENTITY.eh_elf.so in
 * the space's cache directory, IDENTITY being the build-id in hex (or, for
 * an object without one, "h" and the hex of its .eh_frame_hdr's hash) —
 * else it is unwound by interpreting the .eh_frame of its file, mapped
 * read-only.  An object file whose build differs from the one the mapping
 * names (updated since the recording) is not used: its addresses have no
 * unwind information.
 *
 * A space is used by one thread at a time; spaces share the object files
 * and eh_elfs they opened.  The in-process functions above are the same
 * walk over the objects of this process.
 */
struct dwu_space;

/* A new, empty space; CACHE_DIR (may be NULL) is searched for eh_elfs by
 * identity.  NULL when out of memory. */
struct dwu_space *dwu_space_create(const char *cache_dir);

/* A new space with SPACE's mappings (a fork). */
struct dwu_space *dwu_space_clone(const struct dwu_space *space);

void dwu_space_destroy(struct dwu_space *space);

/* One mapping of an object file into the space. */
struct dwu_mapping {
    uint64_t start, size;          /* run-time addresses [start, start + size) */
    uint64_t offset;               /* the file offset mapped at START */
    const char *path;              /* the object's file */
    const uint8_t *build_id;       /* the build the mapping is of, or NULL: the file's, unchecked */
    uint64_t build_id_len;
    const char *name;              /* what the mapping is called, when not PATH (a profiler's
                                      "[vdso]" read from a copy), or NULL */
};

/* Why a mapping gives no unwind information (dwu_space_map's result). */
enum dwu_map_status {
    DWU_MAP_EH_ELF = 0,            /* unwound by its eh_elf */
    DWU_MAP_DWARF = 1,             /* by interpreting its .eh_frame */
    DWU_MAP_NO_FILE = -1,          /* the file cannot be opened or read */
    DWU_MAP_NOT_ELF = -2,          /* not an x86_64 ELF object, or its headers are damaged */
    DWU_MAP_OTHER_BUILD = -3,      /* the file is another build than the mapping's */
    DWU_MAP_NO_TABLE = -4,         /* the mapped segment has no unwind table */
    DWU_MAP_NO_MEMORY = -5
};

/* Add M (replacing whatever overlapped it, as mmap does).  Returns a
 * dwu_map_status; the mapping is added whatever it is (an address in it
 * is then known to have no unwind information). */
int dwu_space_map(struct dwu_space *space, const struct dwu_mapping *m);

/* A sentence for a dwu_map_status. */
const char *dwu_map_strerror(int status);

/* Forget [START, START + SIZE) (munmap, or every mapping at an exec). */
void dwu_space_unmap(struct dwu_space *space, uint64_t start, uint64_t size);

/* The object's own address (its ELF file's p_vaddr space) of run-time
 * ADDR in SPACE, in *OWN; 0, or -1 when ADDR is in no mapping whose file
 * could be read. */
int dwu_space_object_address(const struct dwu_space *space, uint64_t addr, uint64_t *own);

/* Look again for the eh_elfs of the space's objects that have none (one
 * may have been compiled into the cache directory since they were
 * mapped).  Returns how many mappings found one. */
int dwu_space_refresh(struct dwu_space *space);

/* dwu_step and dwu_unwind in SPACE, reading memory through MEM (never
 * NULL here).  An IP in no mapping gives DWU_ENOINFO. */
int dwu_space_step(struct dwu_space *space, struct dwu_regs *regs, const struct dwu_memory *mem);
int dwu_space_unwind(struct dwu_space *space, struct dwu_regs *regs, const struct dwu_memory *mem,
                     uint64_t *ips, int max, int *status);

/* Ask for the memory a later dwu_space_unwind or dwu_space_step of these
 * REGS in SPACE through MEM reads first (the stack copy above rsp, when MEM
 * reads a dwu_stack_copy, and the space's object lookup), without waiting
 * for it: a caller that walks many samples calls it for the next sample
 * before it finishes with the current one (its walk, or its output), so
 * that the next one's cache misses overlap that work.  Reads nothing
 * through MEM->read and changes nothing; SPACE, REGS and MEM need to stay
 * valid only during the call. */
void dwu_space_prefetch(const struct dwu_space *space, const struct dwu_regs *regs, const struct dwu_memory *mem);

/* The mapping that holds ADDR in SPACE: its start, file offset, path,
 * name (PATH when it was given none) and build-id (the file's), and its
 * dwu_map_status in *STATUS; 0, or -1 when ADDR is in none.  Pointers
 * stay valid until the mapping is replaced or the space destroyed. */
int dwu_space_mapping_at(const struct dwu_space *space, uint64_t addr, struct dwu_mapping *m, int *status);

/* The entry point every eh_elf exports, and its ABI version.  The runtime
 * loads eh_elfs of versions DWU_EH_ELF_ABI_OLDEST to DWU_EH_ELF_ABI (what an
 * older one's entries return, a newer runtime reads alike); an older
 * runtime refuses a newer eh_elf, whose descriptors it would misread. */
#define DWU_EH_ELF_ABI 3   /* 3: frame descriptors of DRAP rows (DWU_FRAME_CFA_DEREF, _RBP_AT_RBP) */
#define DWU_EH_ELF_ABI_OLDEST 2   /* 2: unreadable save slots leave registers unknown; frame and trace */
#define DWU_EH_ELF_STEP "dwu_eh_elf_step"
#define DWU_EH_ELF_VERSION "dwu_eh_elf_abi"
#define DWU_EH_ELF_IDENTITY "dwu_eh_elf_identity"   /* kind, length, bytes: see identity.h */
/* Unwind the frame IN whose instruction pointer is PC in the object's own
 * addresses (IN->r[16] is the run-time address); OUT receives the caller's. */
typedef int (*dwu_eh_elf_step_fn)(uint64_t pc, const struct dwu_regs *in, struct dwu_regs *out,
                                  const struct dwu_memory *mem);

/* The second entry point: the row at PC (an own address) as a descriptor
 * of what an IP-only walk applies, or 0 when it cannot (or no row covers
 * PC): CFA = rsp or rbp + a 16-bit offset (or the word there: GCC's
 * DRAP, a realigned frame's CFA kept in its slot), the return address at
 * CFA + offset, rbp unchanged or at CFA + offset (or at rbp + offset).  The data the trace entry
 * below is generated from; dwu_backtrace keeps and applies them (an eh_elf
 * without this entry is walked with the trace entry alone). */
#define DWU_EH_ELF_FRAME "dwu_eh_elf_frame"
typedef uint64_t (*dwu_eh_elf_frame_fn)(uint64_t pc);
#define DWU_FRAME_SIMPLE 1u           /* the walk may apply it */
#define DWU_FRAME_CFA_RBP 2u          /* CFA = rbp + offset (else rsp + offset) */
#define DWU_FRAME_RBP_SAVED 4u        /* rbp saved at CFA + offset (else unchanged) */
#define DWU_FRAME_END 8u              /* the return address is undefined: the outermost frame */
#define DWU_FRAME_CFA_DEREF 16u       /* CFA = the word at rsp or rbp + offset (ABI 3) */
#define DWU_FRAME_RBP_AT_RBP 32u      /* rbp saved at rbp + offset, not CFA + offset (ABI 3) */
#define DWU_FRAME_CFA_OFFSET(d) ((int64_t)(int16_t)(uint16_t)((d) >> 16))
#define DWU_FRAME_RA_OFFSET(d) ((int64_t)(int16_t)(uint16_t)((d) >> 32))
#define DWU_FRAME_RBP_OFFSET(d) ((int64_t)(int16_t)(uint16_t)((d) >> 48))

/* The third: the same rows applied (a step of rip, rsp and rbp, the other
 * registers untouched): 1 after a step, 2 at the outermost frame, 0 for a
 * row that is not simple or a PC no row covers.  dwu_backtrace's walk. */
#define DWU_EH_ELF_TRACE "dwu_eh_elf_trace"
typedef int (*dwu_eh_elf_trace_fn)(uint64_t pc, uint64_t *rip, uint64_t *rsp, uint64_t *rbp);

/*
 * Which eh_elfs are loaded.  An eh_elf is code: it is loaded only from a
 * file owned by the effective user or root and not writable by its group
 * or others, in a directory with the same property, and so on up to /
 * (OpenSSH's StrictModes: a sticky directory writable by others, as /tmp,
 * fails it).  DWUNWIND_TRUST_STICKY=1 in the environment (ignored by
 * set-user-ID programs) admits a sticky directory owned by the user or
 * root: others may add entries there, not rename or remove the user's,
 * and each entry is still checked.  This holds next to the object, in
 * DWUNWIND_PATH and in a space's cache directory.  A file that fails is skipped, and said once per
 * file as "FILE: not loaded: REASON": to the callback set here (FN NULL:
 * none), else to the log the environment variable DWUNWIND_LOG names
 * ("stderr", or a file appended to; ignored by set-user-ID programs), else
 * nowhere.  The eh_elfs of the objects loaded with the program are looked
 * for when the library is loaded: a program that sets FN then calls
 * dwu_init to hear of those (a refusal said nowhere is said later).  FN is
 * called under the runtime's lock: it must not call this library.
 */
typedef void (*dwu_error_fn)(const char *message, void *arg);
void dwu_set_error_callback(dwu_error_fn fn, void *arg);

#ifdef __cplusplus
}
#endif

#endif
