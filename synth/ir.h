/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ir: the architecture-neutral effects the abstract interpreter sees.
 *
 * The decoder (synth/x86_decode.c, the only file that includes Capstone)
 * lowers each machine instruction to an ir_insn: a short sequence of effects
 * on registers and stack memory, applied in order, and one control-flow kind.
 * Everything the unwinder cares about — rsp, rbp, the callee-saved registers
 * and stores into the frame — is expressed here; any other register write
 * becomes IR_CLOBBER, never silently dropped.  Synthesis tests are written in
 * IR, without machine code.
 *
 * Registers are DWARF numbers (rax 0 ... r15 15); IR_REG_NONE means "no
 * register": a constant or a value the interpreter does not track.
 */
#ifndef DWCHECK_IR_H
#define DWCHECK_IR_H

#include <stdint.h>

#define IR_REG_NONE 0xff
#define IR_REG_RIP 0xfe   /* in IR_AUX_*_MEM patterns only: a rip-relative operand */
#define IR_MAX_EFFECTS 4

enum ir_effect_kind {
    IR_SET,       /* dst := src + imm            (mov, lea, add/sub imm; src NONE: constant) */
    IR_LOAD,      /* dst := 8 bytes at [base + imm] */
    IR_STORE,     /* [base + imm] := src, SIZE bytes (src NONE: an untracked value) */
    IR_AND,       /* dst := dst & imm            (stack realignment) */
    IR_CLOBBER,   /* dst := a value the interpreter does not know */
    IR_ADD,       /* dst := dst + src            (add %src,%dst) */
    IR_SUB,       /* dst := dst - src            (sub %src,%dst: a stack probe's size) */
    IR_SYSCALL,   /* dst (rax) := the kernel's answer to the system call rax names; a
                     clone onto another stack answers 0 in the child (AV_CLONE_RESULT) */
};

/* Eight bytes (pass one keeps every instruction of a file for pass two):
 * a store, which writes no register, has its size where others have DST;
 * read DST only after the kind. */
struct ir_effect {
    uint8_t kind;        /* enum ir_effect_kind */
    union {
        uint8_t dst;     /* IR_SET, IR_LOAD, IR_AND, IR_CLOBBER, IR_ADD, IR_SUB */
        uint8_t size;    /* IR_STORE: bytes written */
    };
    uint8_t src;         /* IR_SET, IR_STORE, IR_ADD, IR_SUB */
    uint8_t base;        /* IR_LOAD, IR_STORE */
    int32_t imm;         /* x86_64 displacements and immediates are 32-bit */
};

enum ir_flow {
    IR_FLOW_NEXT,           /* falls through */
    IR_FLOW_JUMP,           /* direct jump to target */
    IR_FLOW_COND,           /* conditional jump: target or next */
    IR_FLOW_CALL,           /* direct call to target; returns to next */
    IR_FLOW_CALL_INDIRECT,  /* indirect call; returns to next */
    IR_FLOW_JUMP_INDIRECT,  /* indirect jump (jump table, tail call, PLT) */
    IR_FLOW_RET,            /* return */
    IR_FLOW_STOP,           /* hlt, ud2, int3: no successor */
    IR_FLOW_INVALID,        /* bytes that do not decode */
};

/* Instruction facts that only a pattern over several instructions uses
 * (jump tables): what the lowering saw, in ir_insn.aux. */
enum ir_aux {
    IR_AUX_NONE,
    IR_AUX_LEA_RIP,      /* lea T(%rip),%r: aux_reg[0] = r, target = T */
    IR_AUX_LOAD_REL32,   /* movslq (%b,%i,4),%r: aux_reg[0] = r, aux_reg[1] = b, aux_reg[2] = i */
    IR_AUX_JMP_REG,      /* jmp *%r: aux_reg[0] = r */
    IR_AUX_JMP_ABS64,    /* jmp *T(,%i,8): aux_reg[1] = i, target = T */
    IR_AUX_ADD_REG,      /* add %a,%r: aux_reg[0] = r, aux_reg[1] = a */
    IR_AUX_LOAD_ABS64,   /* mov T(,%i,8),%r: aux_reg[0] = r, aux_reg[1] = i, target = T */
    IR_AUX_LOAD32_PAIR,  /* mov (%a,%b,1),%r32 (-O0: the index scaled before, one of
                            a and b the table): aux_reg[0] = r, [1] = a, [2] = b */
    IR_AUX_LOAD_INDEX64, /* mov D(%b,%i,8),%r (a PIE's table of addresses at b + D):
                            aux_reg[0] = r, aux_reg[1] = b, aux_reg[2] = i, target = D */
    IR_AUX_CMP_IMM,      /* cmp $N,%r (any width, N >= 0): aux_reg[0] = r, aux_reg[1] = its
                            size, target = N */
    IR_AUX_JA,           /* ja: taken when above (unsigned) */
    IR_AUX_JAE,          /* jae: taken when above or equal (unsigned) */
    IR_AUX_WIDEN_SELF,   /* movzx/movsxd/mov of a register's low part into itself:
                            aux_reg[0] = r, aux_reg[1] = the part's size */
    IR_AUX_COPY_REG,     /* mov/movzx/movsxd of a register (or its low part) into
                            another: aux_reg[0] = the destination, aux_reg[1] = the
                            source, aux_reg[2] = the size read */
    IR_AUX_LEA_SCALED4,  /* lea 0(,%i,4),%r (-O0 scales a switch's index so):
                            aux_reg[0] = r, aux_reg[1] = i */
    IR_AUX_CMP_IMM_MEM,  /* cmp $N,D(%b) or D(%rip): aux_reg[0] = b (IR_REG_RIP),
                            aux_reg[1] = the operand's size, target = N | D << 32
                            (D: for %rip the address, which then fits 32 bits) */
    IR_AUX_LOAD_MEM,     /* mov/movzx/movsxd D(%b) or D(%rip) into %r: aux_reg[0] = r,
                            aux_reg[1] = b (IR_REG_RIP), aux_reg[2] = the operand's
                            size, target = D (for %rip the address) */
    IR_AUX_MOV_IMM,      /* mov $N into a register or memory, N > 0: target = N (a
                            non-PIE function takes a label's address so: GCC's &&label) */
};

#define IR_COND_EQ 1   /* je: taken when the compared values are equal */
#define IR_COND_NE 2   /* jne: falls through when they are equal */

struct ir_insn {
    uint64_t addr;
    uint8_t len;
    uint8_t flow;                         /* enum ir_flow */
    uint8_t neffects;
    uint8_t clobbers_unknown;             /* a write the lowering could not model (for diagnostics) */
    uint8_t is_padding;                   /* nop or int3: what compilers align code with */
    uint8_t writes_cf_zf;                 /* may change CF or ZF (what ja and jae read): all
                                             but moves, loads, stores and lea */
    uint8_t cmp_a, cmp_b;                 /* cmp %a,%b of two whole registers, else IR_REG_NONE */
    uint8_t cond;                         /* IR_FLOW_COND: IR_COND_EQ, IR_COND_NE or 0 */
    uint8_t zero_tested;                  /* test %r,%r (32 or 64 bits): r + 1 (ZF now says
                                             whether r is 0); 0 for any other instruction */
    uint8_t aux;                          /* enum ir_aux */
    uint8_t aux_reg[3];
    uint64_t target;                      /* IR_FLOW_JUMP, _COND, _CALL */
    struct ir_effect effects[IR_MAX_EFFECTS];
};
_Static_assert(sizeof(struct ir_insn) == 64, "an instruction's IR fills one cache line");

/* Helpers to build instructions (used by the decoder and by tests). */
static inline void ir_add(struct ir_insn *in, struct ir_effect e)
{
    if (in->neffects < IR_MAX_EFFECTS)
        in->effects[in->neffects++] = e;
}

static inline struct ir_effect ir_set(uint8_t dst, uint8_t src, int32_t imm)
{
    return (struct ir_effect){.kind = IR_SET, .dst = dst, .src = src, .base = IR_REG_NONE, .imm = imm};
}

static inline struct ir_effect ir_load(uint8_t dst, uint8_t base, int32_t disp)
{
    return (struct ir_effect){.kind = IR_LOAD, .dst = dst, .src = IR_REG_NONE, .base = base, .imm = disp};
}

static inline struct ir_effect ir_store(uint8_t base, int32_t disp, uint8_t src, uint8_t size)
{
    return (struct ir_effect){.kind = IR_STORE, .size = size, .src = src, .base = base, .imm = disp};
}

static inline struct ir_effect ir_and(uint8_t dst, int32_t mask)
{
    return (struct ir_effect){.kind = IR_AND, .dst = dst, .src = IR_REG_NONE, .base = IR_REG_NONE, .imm = mask};
}

static inline struct ir_effect ir_add_reg(uint8_t dst, uint8_t src, int subtract)
{
    return (struct ir_effect){.kind = subtract ? IR_SUB : IR_ADD, .dst = dst, .src = src, .base = IR_REG_NONE};
}

static inline struct ir_effect ir_clobber(uint8_t dst)
{
    return (struct ir_effect){.kind = IR_CLOBBER, .dst = dst, .src = IR_REG_NONE, .base = IR_REG_NONE};
}

#endif
