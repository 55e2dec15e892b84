/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sframe_write: H back into an .sframe section (SFrame V1, V2 or V3), the
 * inverse of sframe_parse.
 *
 * Purpose: dwsynth repair --sframe writes the validated table as SFrame
 * beside the new .eh_frame, for the unwinders that read SFrame (glibc's
 * backtrace, the kernel's user-space unwinder, perf).  SFrame keeps only
 * three of H's columns — the CFA, rbp and ra — so a function is written
 * when every row of its table says, in those columns (sframe_parse.h
 * gives the byte layouts):
 *
 *   CFA  rsp + N or rbp + N (N in 32 bits)
 *   rbp  unchanged (unreferenced or same value: "not tracked"), or saved at
 *        CFA + M
 *   ra   saved at CFA - 8 (the header's fixed RA offset on AMD64), or
 *        undefined: an outermost row, an FRE without data words (V2, V3;
 *        V1 has no way to say it)
 *
 * and in V3 also what a flexible (FLEX) FDE says: each of the three as
 * [*](REG + N) — a CFA kept in any register or loaded from the stack
 * (GCC's DRAP: CFA = *(rbp - 8); a signal trampoline's CFA = *(rsp + 160)),
 * ra and rbp saved at CFA + N, held in a register or saved at REG + N — and
 * a signal frame's FDEs carry V3's signal bit.  The other columns
 * (callee-saved registers but rbp) are not SFrame's business.
 *
 * A function with any other row — a CFA from any other DWARF expression, in
 * another register before V3, ra elsewhere, rbp undefined or in a register
 * before V3, a signal frame before V3 — is not written: the writer says why
 * (a static reason) and at which row, and the caller leaves the function to
 * .eh_frame.  Rows that agree in the three columns become one FRE.
 *
 * The PLT: rows whose CFA is the expression GNU ld writes for the pltN
 * entries, rsp + N + ((rip & 15) >= K) << 3, become a PCMASK FDE repeating
 * every 16 bytes (FREs at 0: rsp + N and at K: rsp + N + 8), as ld does
 * for SFrame; the rows before them (PLT0) a PCINC FDE of their own.
 *
 * Encoding: FDEs sorted by start address (SFRAME_F_FDE_SORTED), each
 * FDE's FRE start offsets in the fewest bytes (1, 2 or 4) that hold its
 * last FRE's, each FRE's data words in the fewest (1, 2 or 4) that hold
 * them all; the header fixes the RA offset at -8 and no FP offset.  V1
 * counts start addresses from the section's start; V2 and V3 from the
 * FDE's own start field (SFRAME_F_FDE_FUNC_START_PCREL, as binutils 2.45
 * and later write them).  V1 and V2 write 17- and 20-byte FDEs, their FREs
 * in the FRE sub-section; V3 16-byte index entries, and before each
 * function's FREs its 5-byte attribute.
 *
 * Two phases, as for .eh_frame: functions are added (their FREs decided,
 * sizes known), then the section is written at its address.  Pure: no
 * libdwarf, no ELF; the caller owns the writer and the bytes out.
 */
#ifndef DWCHECK_SEMANTICS_SFRAME_WRITE_H
#define DWCHECK_SEMANTICS_SFRAME_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "semantics/write/cfi_encode.h"
#include "semantics/unwind_table.h"

#define SFRAME_WRITE_MAX_WORDS 6    /* a FLEX FRE: (control, offset) for the CFA, RA and FP */
#define SFRAME_PLT_BLOCK 16         /* the pltN entries' size: a PCMASK FDE's repetition block */

/* One FRE, decided: what its bytes will say. */
struct sframe_out_fre {
    uint32_t start;                 /* from its FDE's start (PCMASK: within the block) */
    uint8_t base_sp;                /* DEFAULT: the CFA's base, 1 rsp, 0 rbp */
    uint8_t count;                  /* data words: 0 is an outermost row */
    uint8_t control_mask;           /* bit I: word I is a FLEX control word (unsigned) */
    uint8_t size_code;              /* 0, 1, 2: words of 1, 2, 4 bytes */
    int64_t words[SFRAME_WRITE_MAX_WORDS];
};

/* One FDE, decided. */
struct sframe_out_fde {
    uint64_t pc;                    /* the start address */
    uint32_t size;
    uint8_t pc_type;                /* enum sframe_pc_type */
    uint8_t fde_type;               /* enum sframe_fde_type (FLEX: V3 only) */
    uint8_t fre_type;               /* 0, 1, 2: FRE start offsets of 1, 2, 4 bytes */
    uint8_t signal_frame;           /* V3 */
    uint8_t rep_size;               /* PCMASK: SFRAME_PLT_BLOCK */
    size_t first_fre, nfres;        /* its FREs in the writer's array */
};

struct sframe_writer {
    uint8_t version;                /* SFRAME_VERSION_1, _2 or _3 */
    struct sframe_out_fde *fdes;
    size_t nfdes, fdes_cap;
    struct sframe_out_fre *fres;
    size_t nfres, fres_cap;
    uint64_t fre_bytes;             /* the FRE sub-section's length (V3: attributes included) */
    uint64_t last_end;              /* the end of the last function added */
    int any;                        /* a function was added */
};

/* What a function became. */
struct sframe_added {
    size_t fdes, fres;              /* SFrame FDEs and FREs written for it */
    size_t pcmask_fdes;             /* of them, PCMASK ones (the PLT's entries) */
    size_t flex_fdes;               /* of them, V3 FLEX ones */
};

/* An empty writer for VERSION (1, 2 or 3: 0, else -1 and nothing to release). */
int sframe_writer_init(struct sframe_writer *w, unsigned version);
void sframe_writer_release(struct sframe_writer *w);

/*
 * Add the function whose table is T (rows sorted, covering [t->start,
 * t->end) without a hole).  Functions are added by increasing address; one
 * that starts before the end of the last one added overlaps it and is
 * refused.  Returns 1 when written (*ADDED says how), 0 when SFrame cannot
 * express it (*WHY: a static reason; *AT: the address of the row it is
 * about, else the function's start; the writer is as before the call), or
 * -2 when out of memory.
 */
int sframe_writer_add(struct sframe_writer *w, const struct unwind_table *t, struct sframe_added *added,
                      const char **why, uint64_t *at);

/* The section's size in bytes (it does not depend on its address). */
uint64_t sframe_writer_size(const struct sframe_writer *w);

/*
 * The section at ADDR into OUT (appended; sframe_writer_size bytes).
 * Returns 0; -1 with *WHY when a function's start cannot be written from
 * there (V1 and V2 keep it in 32 signed bits) or a count overflows its
 * field; -2 when out of memory.
 */
int sframe_writer_write(const struct sframe_writer *w, uint64_t addr, struct cfi_bytes *out, const char **why);

#endif
