/* SPDX-License-Identifier: Apache-2.0 */
/*
 * x86_decode: lower Capstone's x86_64 instructions to IR effects.
 */
#include "x86_decode.h"

#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "semantics/abi.h"
#include "x86_unknown.h"

struct x86_decoder {
    csh handle;
    cs_insn *insn;
};

struct x86_decoder *x86_decoder_new(void)
{
    struct x86_decoder *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->handle) != CS_ERR_OK) {
        free(d);
        return NULL;
    }
    cs_option(d->handle, CS_OPT_DETAIL, CS_OPT_ON);
    d->insn = cs_malloc(d->handle);
    if (!d->insn) {
        cs_close(&d->handle);
        free(d);
        return NULL;
    }
    return d;
}

void x86_decoder_free(struct x86_decoder *d)
{
    if (!d)
        return;
    cs_free(d->insn, 1);
    cs_close(&d->handle);
    free(d);
}

/*
 * The one table from Capstone registers to DWARF numbers.  *WHOLE is set when
 * the register is the full 64-bit one (a write to a part leaves an unknown
 * value in the whole register either way).  Returns IR_REG_NONE for
 * registers that are not general-purpose.
 */
static uint8_t dwarf_reg(unsigned r, int *whole)
{
    *whole = 0;
    switch (r) {
    case X86_REG_RAX: *whole = 1; /* fall through */
    case X86_REG_EAX: case X86_REG_AX: case X86_REG_AL: case X86_REG_AH: return 0;
    case X86_REG_RDX: *whole = 1; /* fall through */
    case X86_REG_EDX: case X86_REG_DX: case X86_REG_DL: case X86_REG_DH: return 1;
    case X86_REG_RCX: *whole = 1; /* fall through */
    case X86_REG_ECX: case X86_REG_CX: case X86_REG_CL: case X86_REG_CH: return 2;
    case X86_REG_RBX: *whole = 1; /* fall through */
    case X86_REG_EBX: case X86_REG_BX: case X86_REG_BL: case X86_REG_BH: return 3;
    case X86_REG_RSI: *whole = 1; /* fall through */
    case X86_REG_ESI: case X86_REG_SI: case X86_REG_SIL: return 4;
    case X86_REG_RDI: *whole = 1; /* fall through */
    case X86_REG_EDI: case X86_REG_DI: case X86_REG_DIL: return 5;
    case X86_REG_RBP: *whole = 1; /* fall through */
    case X86_REG_EBP: case X86_REG_BP: case X86_REG_BPL: return 6;
    case X86_REG_RSP: *whole = 1; /* fall through */
    case X86_REG_ESP: case X86_REG_SP: case X86_REG_SPL: return 7;
    case X86_REG_R8: *whole = 1; /* fall through */
    case X86_REG_R8D: case X86_REG_R8W: case X86_REG_R8B: return 8;
    case X86_REG_R9: *whole = 1; /* fall through */
    case X86_REG_R9D: case X86_REG_R9W: case X86_REG_R9B: return 9;
    case X86_REG_R10: *whole = 1; /* fall through */
    case X86_REG_R10D: case X86_REG_R10W: case X86_REG_R10B: return 10;
    case X86_REG_R11: *whole = 1; /* fall through */
    case X86_REG_R11D: case X86_REG_R11W: case X86_REG_R11B: return 11;
    case X86_REG_R12: *whole = 1; /* fall through */
    case X86_REG_R12D: case X86_REG_R12W: case X86_REG_R12B: return 12;
    case X86_REG_R13: *whole = 1; /* fall through */
    case X86_REG_R13D: case X86_REG_R13W: case X86_REG_R13B: return 13;
    case X86_REG_R14: *whole = 1; /* fall through */
    case X86_REG_R14D: case X86_REG_R14W: case X86_REG_R14B: return 14;
    case X86_REG_R15: *whole = 1; /* fall through */
    case X86_REG_R15D: case X86_REG_R15W: case X86_REG_R15B: return 15;
    default: return IR_REG_NONE;
    }
}

/* ah, bh, ch, dh: bits 8-15, not a low part of their register. */
static int high_byte(x86_reg r)
{
    return r == X86_REG_AH || r == X86_REG_BH || r == X86_REG_CH || r == X86_REG_DH;
}

/* The full register of operand OP if it is a whole 64-bit GPR, else NONE. */
static uint8_t whole_reg(const cs_x86_op *op)
{
    int whole;
    if (op->type != X86_OP_REG)
        return IR_REG_NONE;
    uint8_t r = dwarf_reg(op->reg, &whole);
    return whole ? r : IR_REG_NONE;
}

/* The register a 32- or 64-bit register operand names (a 32-bit write
 * clears the upper half: the whole register is known), else IR_REG_NONE. */
static uint8_t reg_32_or_64(const cs_x86_op *op)
{
    int whole;
    if (op->type != X86_OP_REG || op->size < 4)
        return IR_REG_NONE;
    return dwarf_reg(op->reg, &whole);
}

static int fits32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

/* A memory operand [base + disp] with a GPR base and no index; NONE otherwise. */
static uint8_t simple_mem(const cs_x86_op *op, int32_t *disp)
{
    int whole;
    if (op->type != X86_OP_MEM || op->mem.index != X86_REG_INVALID ||
        op->mem.segment != X86_REG_INVALID || !fits32(op->mem.disp))
        return IR_REG_NONE;
    uint8_t b = dwarf_reg(op->mem.base, &whole);
    if (!whole)
        return IR_REG_NONE;
    *disp = (int32_t)op->mem.disp;
    return b;
}

/* A write to memory operand OP of SIZE bytes: a store through a GPR base,
 * or, indexed from rsp or rbp, somewhere in the frame. */
static void lower_store(struct ir_insn *in, const cs_x86_op *op, uint8_t size)
{
    int32_t disp;
    uint8_t base = simple_mem(op, &disp);
    if (base != IR_REG_NONE)
        ir_add(in, ir_store(base, disp, IR_REG_NONE, size));
    else if (op->mem.base == X86_REG_RSP || op->mem.base == X86_REG_RBP)
        in->clobbers_unknown = 1;
}

/* Fallback: every GPR the instruction writes becomes unknown, and every
 * memory operand it writes through a GPR base loses its tracked value. */
static void lower_generic(struct x86_decoder *d, const cs_insn *ci, struct ir_insn *in)
{
    const cs_x86 *x = &ci->detail->x86;
    cs_regs rd, wr;
    uint8_t nrd, nwr;
    if (cs_regs_access(d->handle, ci, rd, &nrd, wr, &nwr) == CS_ERR_OK) {
        for (unsigned i = 0; i < nwr; i++) {
            int whole;
            uint8_t r = dwarf_reg(wr[i], &whole);
            if (r != IR_REG_NONE)
                ir_add(in, ir_clobber(r));
        }
        if (nwr > 0 && in->neffects == IR_MAX_EFFECTS)
            in->clobbers_unknown = 1;
    }
    for (unsigned i = 0; i < x->op_count; i++)
        if (x->operands[i].type == X86_OP_MEM && (x->operands[i].access & CS_AC_WRITE))
            lower_store(in, &x->operands[i], x->operands[i].size);
}

static void lower(struct x86_decoder *d, const cs_insn *ci, struct ir_insn *in)
{
    const cs_x86 *x = &ci->detail->x86;
    const cs_x86_op *op0 = x->op_count > 0 ? &x->operands[0] : NULL;
    const cs_x86_op *op1 = x->op_count > 1 ? &x->operands[1] : NULL;
    uint8_t r0 = op0 ? whole_reg(op0) : IR_REG_NONE;
    uint8_t r1 = op1 ? whole_reg(op1) : IR_REG_NONE;
    int32_t disp = 0;
    const uint8_t rsp = 7, rbp = 6;

    /* xor %r,%r: zero (what clone's stack argument is when the child stays
     * on this stack: fork).  (sub %r,%r is IR_SUB of a register from
     * itself, which abstract_state makes 0.) */
    if (ci->id == X86_INS_XOR && op0 && op1 && x->op_count == 2 &&
        reg_32_or_64(op0) != IR_REG_NONE && op1->type == X86_OP_REG && op1->reg == op0->reg) {
        ir_add(in, ir_set(reg_32_or_64(op0), IR_REG_NONE, 0));
        return;
    }

    /* `lock orq $0,(%rsp)` and the like: a fence that writes back the value
     * it read, so a saved register in that slot stays saved. */
    if ((ci->id == X86_INS_OR || ci->id == X86_INS_ADD || ci->id == X86_INS_SUB ||
         ci->id == X86_INS_XOR) && op0 && op0->type == X86_OP_MEM && op1 &&
        op1->type == X86_OP_IMM && op1->imm == 0)
        return;

    switch (ci->id) {
    case X86_INS_PUSH: {
        int size = op0 ? op0->size : 8;
        ir_add(in, ir_set(rsp, rsp, -size));
        ir_add(in, ir_store(rsp, 0, size == 8 ? r0 : IR_REG_NONE, (uint8_t)size));
        return;
    }
    case X86_INS_PUSHFQ:
        ir_add(in, ir_set(rsp, rsp, -8));
        ir_add(in, ir_store(rsp, 0, IR_REG_NONE, 8));
        return;
    case X86_INS_POP: {
        int size = op0 ? op0->size : 8;
        if (r0 != IR_REG_NONE) {
            ir_add(in, ir_load(r0, rsp, 0));
            if (r0 != rsp)   /* pop %rsp loads the new stack pointer and stops there */
                ir_add(in, ir_set(rsp, rsp, 8));
            return;
        }
        if (op0 && op0->type == X86_OP_REG) {   /* a 16-bit pop into a sub-register */
            int whole;
            ir_add(in, ir_clobber(dwarf_reg(op0->reg, &whole)));
        }
        ir_add(in, ir_set(rsp, rsp, size));
        if (op0 && op0->type == X86_OP_MEM) {
            uint8_t base = simple_mem(op0, &disp);
            if (base != IR_REG_NONE)
                ir_add(in, ir_store(base, disp, IR_REG_NONE, (uint8_t)size));   /* address after the pop */
        }
        return;
    }
    case X86_INS_POPFQ:
        ir_add(in, ir_set(rsp, rsp, 8));
        return;
    case X86_INS_LEAVE:
        /* mov %rbp,%rsp; pop %rbp */
        ir_add(in, ir_set(rsp, rbp, 0));
        ir_add(in, ir_load(rbp, rsp, 0));
        ir_add(in, ir_set(rsp, rsp, 8));
        return;
    case X86_INS_MOV:
        if (r0 != IR_REG_NONE && r1 != IR_REG_NONE) {
            ir_add(in, ir_set(r0, r1, 0));
            return;
        }
        /* An immediate into a whole register, or into its low 32 bits
         * (which zeroes the rest): a constant (a stack probe's size). */
        if (op0 && op0->type == X86_OP_REG && (op0->size == 8 || op0->size == 4) && op1 &&
            op1->type == X86_OP_IMM) {
            int whole;
            uint8_t r = dwarf_reg(op0->reg, &whole);
            int64_t value = op0->size == 4 ? (int64_t)(uint32_t)op1->imm : op1->imm;
            if (r != IR_REG_NONE && fits32(value)) {
                ir_add(in, ir_set(r, IR_REG_NONE, (int32_t)value));
                return;
            }
        }
        if (r0 != IR_REG_NONE && op1 && op1->type == X86_OP_MEM) {
            uint8_t base = simple_mem(op1, &disp);
            ir_add(in, base != IR_REG_NONE ? ir_load(r0, base, disp) : ir_clobber(r0));
            return;
        }
        if (op0 && op0->type == X86_OP_MEM) {
            uint8_t base = simple_mem(op0, &disp);
            if (base != IR_REG_NONE) {
                ir_add(in, ir_store(base, disp, op0->size == 8 ? r1 : IR_REG_NONE, op0->size));
                return;
            }
        }
        break;
    case X86_INS_LEA:
        if (r0 != IR_REG_NONE && op1 && op1->type == X86_OP_MEM && op1->mem.base == X86_REG_RIP &&
            op1->mem.index == X86_REG_INVALID) {
            /* An address: a constant, when it fits the IR's immediates. */
            int64_t at = (int64_t)(ci->address + ci->size) + op1->mem.disp;
            ir_add(in, fits32(at) ? ir_set(r0, IR_REG_NONE, (int32_t)at) : ir_clobber(r0));
            return;
        }
        if (r0 != IR_REG_NONE && op1) {
            uint8_t base = simple_mem(op1, &disp);
            ir_add(in, base != IR_REG_NONE ? ir_set(r0, base, disp) : ir_clobber(r0));
            return;
        }
        break;
    case X86_INS_ADD: case X86_INS_SUB:
        if (r0 != IR_REG_NONE && op1 && op1->type == X86_OP_IMM && fits32(op1->imm) &&
            op1->imm != INT32_MIN) {
            ir_add(in, ir_set(r0, r0, (int32_t)(ci->id == X86_INS_ADD ? op1->imm : -op1->imm)));
            return;
        }
        if (r0 != IR_REG_NONE && r1 != IR_REG_NONE) {
            ir_add(in, ir_add_reg(r0, r1, ci->id == X86_INS_SUB));
            return;
        }
        break;
    case X86_INS_AND:
        if (r0 != IR_REG_NONE && op1 && op1->type == X86_OP_IMM && fits32(op1->imm)) {
            ir_add(in, ir_and(r0, (int32_t)op1->imm));
            return;
        }
        break;
    case X86_INS_CALL:
        if (op0 && op0->type == X86_OP_IMM) {
            in->flow = IR_FLOW_CALL;
            in->target = (uint64_t)op0->imm;
        } else {
            in->flow = IR_FLOW_CALL_INDIRECT;
        }
        return;
    case X86_INS_JMP:
        if (op0 && op0->type == X86_OP_IMM) {
            in->flow = IR_FLOW_JUMP;
            in->target = (uint64_t)op0->imm;
        } else {
            in->flow = IR_FLOW_JUMP_INDIRECT;
        }
        return;
    case X86_INS_LJMP:
        in->flow = IR_FLOW_JUMP_INDIRECT;
        return;
    case X86_INS_RET: case X86_INS_RETF: case X86_INS_RETFQ:
        in->flow = IR_FLOW_RET;
        return;
    /* Writes Capstone 4 does not list: the kernel's return registers, the
     * compare-exchange's accumulator and memory, mxcsr's store. */
    case X86_INS_SYSCALL: case X86_INS_SYSENTER:
        ir_add(in, (struct ir_effect){.kind = IR_SYSCALL, .dst = 0, .src = IR_REG_NONE, .base = IR_REG_NONE});
        ir_add(in, ir_clobber(2));
        ir_add(in, ir_clobber(11));
        return;
    case X86_INS_CMPXCHG8B: case X86_INS_CMPXCHG16B:
        ir_add(in, ir_clobber(1));   /* rdx, and rax below */
        /* fall through */
    case X86_INS_CMPXCHG:
        ir_add(in, ir_clobber(0));
        /* fall through */
    case X86_INS_STMXCSR: case X86_INS_VSTMXCSR:
        /* The destination, which Capstone 4 does not mark as written. */
        if (op0 && op0->type == X86_OP_REG) {
            int whole;
            uint8_t r = dwarf_reg(op0->reg, &whole);
            if (r != IR_REG_NONE)
                ir_add(in, ir_clobber(r));
        } else if (op0 && op0->type == X86_OP_MEM) {
            lower_store(in, op0, op0->size ? op0->size : 16);
        }
        return;
    case X86_INS_HLT: case X86_INS_UD2: case X86_INS_INT3: case X86_INS_UD0: case X86_INS_UD2B:
        in->flow = IR_FLOW_STOP;
        return;
    default:
        break;
    }
    /* Conditional branches: every jcc, jrcxz and loop form. */
    for (unsigned g = 0; g < ci->detail->groups_count; g++) {
        if (ci->detail->groups[g] == X86_GRP_JUMP && op0 && op0->type == X86_OP_IMM) {
            in->flow = IR_FLOW_COND;
            in->target = (uint64_t)op0->imm;
            lower_generic(d, ci, in);   /* loop decrements rcx */
            return;
        }
    }
    lower_generic(d, ci, in);
}

/*
 * The pieces of a jump table, as GCC and clang emit them for PIC code
 *     lea    .Ltable(%rip),%rdx
 *     movslq (%rdx,%rax,4),%rax
 *     add    %rdx,%rax
 *     jmp    *%rax
 * for a computed goto's table, whose entries are relative to a label of the
 * code (&&label - &&base, as glibc's vfprintf writes them)
 *     lea    .Ltable(%rip),%rcx
 *     lea    .Lbase(%rip),%rsi
 *     movslq (%rcx,%rax,4),%rax
 *     add    %rsi,%rax
 *     jmp    *%rax
 * and for non-PIC code
 *     jmp    *.Ltable(,%rax,8)
 * or, for a computed goto (CPython's interpreter loop),
 *     mov    .Ltable(,%rax,8),%rax
 *     jmp    *%rax
 * and GCC's at -O0
 *     lea    0x0(,%rax,4),%rdx
 *     lea    .Ltable(%rip),%rax
 *     mov    (%rdx,%rax,1),%eax
 *     cltq
 *     lea    .Ltable(%rip),%rdx
 *     add    %rdx,%rax
 *     jmp    *%rax
 */
/* A memory operand a switch's value is read from: D(%b) with a whole GPR
 * base and no index (*BASE = b, *AT = D), or D(%rip) at an address that
 * fits 32 bits (*BASE = IR_REG_RIP, *AT = the address). */
static int pattern_mem(const cs_insn *ci, const cs_x86_op *op, uint8_t *base, int64_t *at)
{
    int whole;
    if (op->type != X86_OP_MEM || op->mem.index != X86_REG_INVALID || op->mem.segment != X86_REG_INVALID ||
        !fits32(op->mem.disp))
        return 0;
    if (op->mem.base == X86_REG_RIP) {
        uint64_t a = ci->address + ci->size + (uint64_t)op->mem.disp;
        *base = IR_REG_RIP;
        *at = (int64_t)a;
        return a < (1ull << 31);
    }
    *base = dwarf_reg(op->mem.base, &whole);
    *at = op->mem.disp;
    return *base != IR_REG_NONE && whole;
}

static void note_table_pattern(const cs_insn *ci, struct ir_insn *in)
{
    const cs_x86 *x = &ci->detail->x86;
    const cs_x86_op *op0 = x->op_count > 0 ? &x->operands[0] : NULL;
    const cs_x86_op *op1 = x->op_count > 1 ? &x->operands[1] : NULL;
    int whole;
    uint8_t base;
    int64_t at;
    if (ci->id == X86_INS_LEA && op1 && op1->type == X86_OP_MEM && op1->mem.base == X86_REG_RIP &&
        op1->mem.index == X86_REG_INVALID && whole_reg(op0) != IR_REG_NONE) {
        in->aux = IR_AUX_LEA_RIP;
        in->aux_reg[0] = whole_reg(op0);
        in->target = ci->address + ci->size + (uint64_t)op1->mem.disp;
    } else if (ci->id == X86_INS_MOVSXD && op1 && op1->type == X86_OP_MEM && op1->mem.scale == 4 &&
               op1->mem.disp == 0 && op1->mem.index != X86_REG_INVALID &&
               whole_reg(op0) != IR_REG_NONE && dwarf_reg(op1->mem.base, &whole) != IR_REG_NONE &&
               whole) {
        in->aux = IR_AUX_LOAD_REL32;
        in->aux_reg[0] = whole_reg(op0);
        in->aux_reg[1] = dwarf_reg(op1->mem.base, &whole);
        in->aux_reg[2] = dwarf_reg(op1->mem.index, &whole);
    } else if (ci->id == X86_INS_MOV && op1 && op1->type == X86_OP_MEM && op1->mem.base == X86_REG_INVALID &&
               op1->mem.index != X86_REG_INVALID && op1->mem.scale == 8 &&
               op1->mem.segment == X86_REG_INVALID && whole_reg(op0) != IR_REG_NONE) {
        in->aux = IR_AUX_LOAD_ABS64;
        in->aux_reg[0] = whole_reg(op0);
        in->aux_reg[1] = dwarf_reg(op1->mem.index, &whole);
        in->target = (uint64_t)op1->mem.disp;
    } else if (ci->id == X86_INS_MOV && op1 && op1->type == X86_OP_MEM && op1->mem.scale == 8 &&
               op1->mem.index != X86_REG_INVALID && op1->mem.segment == X86_REG_INVALID &&
               op1->mem.base != X86_REG_RIP && dwarf_reg(op1->mem.base, &whole) != IR_REG_NONE && whole &&
               whole_reg(op0) != IR_REG_NONE) {
        in->aux = IR_AUX_LOAD_INDEX64;
        in->aux_reg[0] = whole_reg(op0);
        in->aux_reg[1] = dwarf_reg(op1->mem.base, &whole);
        in->aux_reg[2] = dwarf_reg(op1->mem.index, &whole);
        in->target = (uint64_t)op1->mem.disp;
    } else if (ci->id == X86_INS_MOV && op0 && op0->type == X86_OP_REG && op0->size == 4 && op1 &&
               op1->type == X86_OP_MEM && op1->mem.scale == 1 && op1->mem.disp == 0 &&
               op1->mem.segment == X86_REG_INVALID && op1->mem.index != X86_REG_INVALID &&
               dwarf_reg(op1->mem.base, &whole) != IR_REG_NONE && whole &&
               dwarf_reg(op1->mem.index, &whole) != IR_REG_NONE && whole &&
               dwarf_reg(op0->reg, &whole) != IR_REG_NONE) {
        in->aux = IR_AUX_LOAD32_PAIR;
        in->aux_reg[0] = dwarf_reg(op0->reg, &whole);
        in->aux_reg[1] = dwarf_reg(op1->mem.base, &whole);
        in->aux_reg[2] = dwarf_reg(op1->mem.index, &whole);
    } else if (ci->id == X86_INS_LEA && op1 && op1->type == X86_OP_MEM && op1->mem.base == X86_REG_INVALID &&
               op1->mem.index != X86_REG_INVALID && op1->mem.scale == 4 && op1->mem.disp == 0 &&
               op1->mem.segment == X86_REG_INVALID && whole_reg(op0) != IR_REG_NONE &&
               dwarf_reg(op1->mem.index, &whole) != IR_REG_NONE && whole) {
        in->aux = IR_AUX_LEA_SCALED4;
        in->aux_reg[0] = whole_reg(op0);
        in->aux_reg[1] = dwarf_reg(op1->mem.index, &whole);
    } else if (ci->id == X86_INS_CMP && op0 && op1 && op1->type == X86_OP_IMM && op1->imm >= 0 &&
               op1->imm < (1 << 30) && pattern_mem(ci, op0, &base, &at)) {
        /* The bound of a switch on a value in memory: cmp $N,D(%b); ja. */
        in->aux = IR_AUX_CMP_IMM_MEM;
        in->aux_reg[0] = base;
        in->aux_reg[1] = op0->size;
        in->target = (uint64_t)op1->imm | (uint64_t)(uint32_t)at << 32;
    } else if ((ci->id == X86_INS_MOV || ci->id == X86_INS_MOVZX || ci->id == X86_INS_MOVSXD) && op0 && op1 &&
               op0->type == X86_OP_REG && op0->size >= 4 && dwarf_reg(op0->reg, &whole) != IR_REG_NONE &&
               pattern_mem(ci, op1, &base, &at)) {
        /* (Into 32 bits or more: a narrower load keeps the bits above.) */
        in->aux = IR_AUX_LOAD_MEM;
        in->aux_reg[0] = dwarf_reg(op0->reg, &whole);
        in->aux_reg[1] = base;
        in->aux_reg[2] = op1->size;
        in->target = (uint64_t)at;
    } else if (ci->id == X86_INS_ADD && op0 && op1 && op1->type == X86_OP_REG &&
               whole_reg(op0) != IR_REG_NONE && whole_reg(op1) != IR_REG_NONE) {
        in->aux = IR_AUX_ADD_REG;
        in->aux_reg[0] = whole_reg(op0);
        in->aux_reg[1] = whole_reg(op1);
    } else if (in->flow == IR_FLOW_JUMP_INDIRECT && op0 && whole_reg(op0) != IR_REG_NONE) {
        in->aux = IR_AUX_JMP_REG;
        in->aux_reg[0] = whole_reg(op0);
    } else if (in->flow == IR_FLOW_JUMP_INDIRECT && op0 && op0->type == X86_OP_MEM &&
               op0->mem.base == X86_REG_INVALID && op0->mem.index != X86_REG_INVALID &&
               op0->mem.scale == 8 && op0->mem.segment == X86_REG_INVALID) {
        in->aux = IR_AUX_JMP_ABS64;
        in->aux_reg[1] = dwarf_reg(op0->mem.index, &whole);
        in->target = (uint64_t)op0->mem.disp;
    } else if (ci->id == X86_INS_CMP && op0 && op1 && op0->type == X86_OP_REG && op1->type == X86_OP_IMM &&
               !high_byte(op0->reg) && dwarf_reg(op0->reg, &whole) != IR_REG_NONE && op1->imm >= 0) {
        /* The bound of a switch: cmp $N,%i; ja default. */
        in->aux = IR_AUX_CMP_IMM;
        in->aux_reg[0] = dwarf_reg(op0->reg, &whole);
        in->aux_reg[1] = op0->size;
        in->target = (uint64_t)op1->imm;
    } else if (ci->id == X86_INS_JA || ci->id == X86_INS_JAE) {
        in->aux = ci->id == X86_INS_JA ? IR_AUX_JA : IR_AUX_JAE;
    } else if ((ci->id == X86_INS_MOVZX || ci->id == X86_INS_MOVSXD || ci->id == X86_INS_MOV) && op0 && op1 &&
               op0->type == X86_OP_REG && op1->type == X86_OP_REG && op0->size >= 4 && op1->size <= 4 &&
               !high_byte(op1->reg) && dwarf_reg(op0->reg, &whole) != IR_REG_NONE &&
               dwarf_reg(op0->reg, &whole) == dwarf_reg(op1->reg, &whole)) {
        /* movzbl %al,%eax, movslq %eax,%rax, mov %eax,%eax: the switch's
         * index widened, its value (a small unsigned one) kept. */
        in->aux = IR_AUX_WIDEN_SELF;
        in->aux_reg[0] = dwarf_reg(op0->reg, &whole);
        in->aux_reg[1] = op1->size;
    } else if ((ci->id == X86_INS_MOVZX || ci->id == X86_INS_MOVSXD || ci->id == X86_INS_MOV) && op0 && op1 &&
               op0->type == X86_OP_REG && op1->type == X86_OP_REG && op0->size >= 4 && op1->size >= 4 &&
               op1->size <= op0->size && dwarf_reg(op0->reg, &whole) != IR_REG_NONE &&
               dwarf_reg(op1->reg, &whole) != IR_REG_NONE) {
        /* mov %edi,%eax: the switch's value copied into the index register. */
        in->aux = IR_AUX_COPY_REG;
        in->aux_reg[0] = dwarf_reg(op0->reg, &whole);
        in->aux_reg[1] = dwarf_reg(op1->reg, &whole);
        in->aux_reg[2] = op1->size;
    } else if (ci->id == X86_INS_CDQE) {
        in->aux = IR_AUX_WIDEN_SELF;   /* cltq: eax into rax */
        in->aux_reg[0] = 0;
        in->aux_reg[1] = 4;
    } else if (ci->id == X86_INS_MOV && op0 && op1 && op1->type == X86_OP_IMM && op1->imm > 0 &&
               op0->size >= 4) {
        in->aux = IR_AUX_MOV_IMM;   /* movq $.L4,8(%rsp): perhaps a label's address */
        in->target = (uint64_t)op1->imm;
    }
}

/* An instruction Capstone does not decode but x86_unknown knows: its
 * length and effects in IN. */
static unsigned lower_unknown(const uint8_t *code, size_t n, struct ir_insn *in)
{
    struct x86_unknown_insn u;
    if (!x86_unknown_decode(code, n, &u))
        return 0;
    in->len = (uint8_t)u.len;
    in->flow = IR_FLOW_NEXT;
    for (unsigned i = 0; i < u.nwrites; i++)
        ir_add(in, ir_clobber(u.writes[i]));
    if (u.stores && u.base != 0xff && !u.has_index && u.exact_disp)
        ir_add(in, ir_store(u.base, u.disp, IR_REG_NONE, (uint8_t)u.store_size));
    else if (u.stores && (u.base == ABI_RSP || u.base == ABI_RBP))
        in->clobbers_unknown = 1;   /* somewhere in the frame */
    return u.len;
}

/*
 * ud1 (0F B9 /r) takes a ModRM operand, which Capstone 4 (calling it ud2b)
 * leaves out: LLVM's trapping sanitizer checks put the check's kind in it
 * (ud1l 0x16(%eax),%eax).  Its true length, from CAPSTONE_LEN (the prefixes
 * and 0F B9), or CAPSTONE_LEN when the bytes run out.
 */
static unsigned ud1_length(const uint8_t *code, size_t n, unsigned capstone_len)
{
    struct x86_modrm m;
    unsigned used = capstone_len < n ? x86_modrm_parse(code + capstone_len, n - capstone_len, &m) : 0;
    return capstone_len + used;
}

/* Moves, loads, stores and lea: what compilers put between a compare and
 * its jump.  (Capstone 4's flag lists miss some instructions that do write
 * them, such as vucomisd: every other instruction counts as writing.) */
static int leaves_flags(unsigned id)
{
    switch (id) {
    case X86_INS_MOV: case X86_INS_MOVABS: case X86_INS_MOVZX: case X86_INS_MOVSX: case X86_INS_MOVSXD:
    case X86_INS_LEA: case X86_INS_MOVUPS: case X86_INS_MOVAPS: case X86_INS_MOVDQU: case X86_INS_MOVDQA:
    case X86_INS_MOVQ: case X86_INS_MOVD: case X86_INS_VMOVUPS: case X86_INS_VMOVDQU: case X86_INS_NOP:
        return 1;
    default:
        return 0;
    }
}

unsigned x86_decode(struct x86_decoder *d, const uint8_t *code, size_t n, uint64_t addr,
                    struct ir_insn *in)
{
    memset(in, 0, sizeof *in);
    in->addr = addr;
    const uint8_t *p = code;
    size_t left = n;
    uint64_t a = addr;
    if (!cs_disasm_iter(d->handle, &p, &left, &a, d->insn)) {
        in->cmp_a = in->cmp_b = IR_REG_NONE;
        in->writes_cf_zf = 1;
        unsigned len = lower_unknown(code, n, in);
        if (!len) {
            in->flow = IR_FLOW_INVALID;
            in->len = 1;
        }
        return len;
    }
    in->len = (uint8_t)(d->insn->id == X86_INS_UD2B ? ud1_length(code, n, d->insn->size) : d->insn->size);
    in->flow = IR_FLOW_NEXT;
    in->cmp_a = in->cmp_b = IR_REG_NONE;
    lower(d, d->insn, in);
    const cs_x86 *x = &d->insn->detail->x86;
    /*   cmp %r11,%rsp
     *   jne 1b
     * ends a stack-probing loop: on the way out the two are equal. */
    if (d->insn->id == X86_INS_CMP && x->op_count == 2) {
        in->cmp_a = whole_reg(&x->operands[0]);
        in->cmp_b = whole_reg(&x->operands[1]);
    }
    if (d->insn->id == X86_INS_TEST && x->op_count == 2 && x->operands[1].type == X86_OP_REG &&
        x->operands[0].type == X86_OP_REG && x->operands[0].reg == x->operands[1].reg &&
        reg_32_or_64(&x->operands[0]) != IR_REG_NONE)
        in->zero_tested = (uint8_t)(reg_32_or_64(&x->operands[0]) + 1);
    if (in->flow == IR_FLOW_COND)
        in->cond = d->insn->id == X86_INS_JE ? IR_COND_EQ : d->insn->id == X86_INS_JNE ? IR_COND_NE : 0;
    note_table_pattern(d->insn, in);
    in->writes_cf_zf = !leaves_flags(d->insn->id);
    in->is_padding = d->insn->id == X86_INS_NOP || d->insn->id == X86_INS_INT3 ||
                     (d->insn->id == X86_INS_XCHG && x->op_count == 2 &&
                      x->operands[0].type == X86_OP_REG && x->operands[1].type == X86_OP_REG &&
                      x->operands[0].reg == x->operands[1].reg);
    if (in->is_padding && d->insn->id != X86_INS_INT3)
        in->neffects = 0;   /* xchg %ax,%ax writes nothing */
    return in->len;
}

size_t x86_decode_only(struct x86_decoder *d, const uint8_t *code, size_t n, uint64_t addr)
{
    size_t count = 0;
    while (n > 0) {
        if (cs_disasm_iter(d->handle, &code, &n, &addr, d->insn)) {
            count++;
        } else {
            code++;
            n--;
            addr++;
        }
    }
    return count;
}

int x86_disassemble(struct x86_decoder *d, const uint8_t *code, size_t n, uint64_t addr,
                    char *buf, size_t size)
{
    const uint8_t *p = code;
    size_t left = n;
    uint64_t a = addr;
    if (!cs_disasm_iter(d->handle, &p, &left, &a, d->insn)) {
        struct x86_unknown_insn u;
        unsigned len = x86_unknown_decode(code, n, &u);
        snprintf(buf, size, "%s", len ? u.name : "(bad)");
        return (int)len;
    }
    snprintf(buf, size, "%s %s", d->insn->mnemonic, d->insn->op_str);
    return d->insn->size;
}
