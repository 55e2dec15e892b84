/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x86_decode: machine code to IR, with Capstone.
 *
 * This is the only module that includes <capstone/capstone.h>.  It owns the
 * single table mapping Capstone registers to DWARF register numbers and the
 * lowering of each x86_64 instruction to the effects of synth/ir.h.
 */
#ifndef DWCHECK_X86_DECODE_H
#define DWCHECK_X86_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

struct x86_decoder;

/* A decoder (a Capstone handle with details on).  NULL if Capstone fails. */
struct x86_decoder *x86_decoder_new(void);
void x86_decoder_free(struct x86_decoder *d);

/*
 * Decode the instruction at CODE (N bytes available), located at ADDR, into
 * IN.  Returns its length, or 0 when the bytes are not a valid instruction
 * (IN then has flow IR_FLOW_INVALID and len 1).
 */
unsigned x86_decode(struct x86_decoder *d, const uint8_t *code, size_t n, uint64_t addr,
                    struct ir_insn *in);

/* Decode N bytes linearly with the same Capstone settings and nothing else:
 * the benchmark's reference.  Returns the number of instructions. */
size_t x86_decode_only(struct x86_decoder *d, const uint8_t *code, size_t n, uint64_t addr);

/* Text of the instruction at CODE ("push %rbx"), for reports. */
int x86_disassemble(struct x86_decoder *d, const uint8_t *code, size_t n, uint64_t addr,
                    char *buf, size_t size);

#endif
