/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x86_unknown: instructions Capstone 4 does not decode, from their encoding.
 *
 * Capstone 4.0 rejects some encodings compilers and hand-written assembly
 * emit today: AVX-512 compares and tests into mask registers (glibc's evex
 * string functions), kmov, vbroadcasti128, VBMI/IFMA forms (OpenSSL), the
 * CET shadow-stack instructions of libgcc's unwinder (rdssp, incssp),
 * WAITPKG's umonitor, umwait and tpause (LLVM's OpenMP run time), and
 * rdpkru.  A function with one of them on a reachable path could not be
 * synthesised at all.
 *
 * For those encodings only, this module finds the length and what the
 * interpreter needs: the general-purpose registers the instruction may write
 * and whether it may store to memory, and where.  Vector and mask registers
 * are not modelled.  Every VEX (C4, C5) and EVEX (62) instruction's length
 * follows from its prefix, ModRM, SIB and displacement, plus an immediate
 * for the 0F3A map and a few 0F opcodes; which of them write a GPR or store
 * is a short list (the BMI group, extracts, moves to GPRs, kmov to a GPR,
 * conversions to integers; stores, compresses, scatters, down-converts).
 * Pure: no Capstone, no state.
 */
#ifndef DWCHECK_X86_UNKNOWN_H
#define DWCHECK_X86_UNKNOWN_H

#include <stddef.h>
#include <stdint.h>

struct x86_unknown_insn {
    unsigned len;
    const char *name;          /* "rdsspq", "EVEX instruction", ... for messages */
    uint8_t writes[3];         /* GPRs it may write (DWARF numbers) */
    unsigned nwrites;
    int stores;                /* may write memory at its operand */
    uint8_t base;              /* the operand's GPR base (DWARF), or 0xff: none (RIP) */
    int has_index;             /* the operand has an index register */
    int exact_disp;            /* DISP is the byte offset (not EVEX's scaled disp8) */
    int32_t disp;
    unsigned store_size;       /* at most this many bytes */
};

/* A ModRM byte and what follows it: SIB and displacement.  REG, RM, BASE
 * and INDEX are the 3-bit fields, before any REX/VEX extension. */
struct x86_modrm {
    unsigned mod, reg, rm;
    int has_sib;
    unsigned base;             /* X86_MODRM_NO_BASE: RIP-relative, or no base */
    unsigned index;            /* with has_sib; 4 is "no index" unless extended */
    unsigned disp_len;
    int32_t disp;
};
#define X86_MODRM_NO_BASE 8

/* Parse the ModRM operand at CODE (N bytes available).  Returns the bytes
 * it takes, or 0 when they run out. */
unsigned x86_modrm_parse(const uint8_t *code, size_t n, struct x86_modrm *m);

/* Decode the instruction at CODE (N bytes available) if it is one of the
 * encodings above.  Returns its length, with *OUT filled; 0 otherwise. */
unsigned x86_unknown_decode(const uint8_t *code, size_t n, struct x86_unknown_insn *out);

#endif
