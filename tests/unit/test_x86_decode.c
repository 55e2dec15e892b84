/*
 * Unit tests for synth/x86_decode: machine code to IR, one test per idiom
 * the lowering knows.
 *
 * An instruction's effects are checked by what they do, not by how they
 * are spelt: the test runs them on concrete registers and a small memory
 * (its own interpreter of ir.h, a dozen lines) and compares the machine
 * state with what the instruction does on x86_64, as the Intel manual
 * says.  Flow, targets and the facts jump tables read (aux) are compared
 * directly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "synth/ir.h"
#include "synth/x86_decode.h"

#define NREGS 17
#define WORDS 16

/* A machine: registers (UNKNOWN marks one the IR said it cannot know)
 * and WORDS words of memory at MEMORY_BASE. */
struct machine {
    uint64_t reg[NREGS];
    uint32_t unknown;               /* registers clobbered */
    uint64_t word[WORDS];
    uint32_t word_unknown;          /* words stored with an untracked value */
};

#define MEMORY_BASE 0x7fff0000ull
#define RSP0 (MEMORY_BASE + 8 * 8)

static struct x86_decoder *decoder;

static int setup(void **state)
{
    (void)state;
    decoder = x86_decoder_new();
    return decoder ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    x86_decoder_free(decoder);
    return 0;
}

static void machine_init(struct machine *m)
{
    memset(m, 0, sizeof *m);
    for (unsigned r = 0; r < NREGS; r++)
        m->reg[r] = 0x1000 + r * 0x111;
    m->reg[ABI_RSP] = RSP0;
    m->reg[ABI_RBP] = MEMORY_BASE + 12 * 8;
    for (unsigned w = 0; w < WORDS; w++)
        m->word[w] = 0xabc000 + w;
}

static uint64_t *word_at(struct machine *m, uint64_t addr)
{
    assert_true(addr >= MEMORY_BASE && addr < MEMORY_BASE + 8 * WORDS && (addr & 7) == 0);
    return &m->word[(addr - MEMORY_BASE) / 8];
}

static uint64_t value(const struct machine *m, uint8_t reg)
{
    if (reg == IR_REG_NONE)
        return 0;
    assert_true(reg < NREGS);
    return m->reg[reg];
}

/* The IR's effects, in order, on M. */
static void run_effects(struct machine *m, const struct ir_insn *in)
{
    for (unsigned i = 0; i < in->neffects; i++) {
        const struct ir_effect *e = &in->effects[i];
        switch (e->kind) {
        case IR_SET: m->reg[e->dst] = value(m, e->src) + (uint64_t)(int64_t)e->imm; m->unknown &= ~(1u << e->dst); break;
        case IR_LOAD: m->reg[e->dst] = *word_at(m, value(m, e->base) + (uint64_t)(int64_t)e->imm); break;
        case IR_STORE: {
            uint64_t addr = value(m, e->base) + (uint64_t)(int64_t)e->imm;
            assert_int_equal(e->size, 8);
            *word_at(m, addr) = value(m, e->src);
            if (e->src == IR_REG_NONE)
                m->word_unknown |= 1u << ((addr - MEMORY_BASE) / 8);
            break;
        }
        case IR_AND: m->reg[e->dst] &= (uint64_t)(int64_t)e->imm; break;
        case IR_CLOBBER: case IR_SYSCALL: m->unknown |= 1u << e->dst; break;
        case IR_ADD: m->reg[e->dst] += value(m, e->src); break;
        case IR_SUB: m->reg[e->dst] -= value(m, e->src); break;
        default: fail_msg("unknown effect kind %u", e->kind);
        }
    }
}

/* Decode BYTES at 0x401000 into *IN and run it on M (from machine_init). */
static void decode_and_run(const uint8_t *bytes, size_t n, struct ir_insn *in, struct machine *m)
{
    machine_init(m);
    assert_int_equal(x86_decode(decoder, bytes, n, 0x401000, in), n);
    assert_int_equal(in->len, n);
    run_effects(m, in);
}

#define DECODE(m, in, ...)                                                                          \
    do {                                                                                            \
        static const uint8_t bytes_[] = {__VA_ARGS__};                                              \
        decode_and_run(bytes_, sizeof bytes_, (in), (m));                                           \
    } while (0)

static void test_push_pop(void **state)
{
    (void)state;
    struct machine m;
    struct ir_insn in;
    DECODE(&m, &in, 0x53);                                   /* push %rbx */
    assert_int_equal(in.flow, IR_FLOW_NEXT);
    assert_true(m.reg[ABI_RSP] == RSP0 - 8);
    assert_true(*word_at(&m, RSP0 - 8) == 0x1000 + ABI_RBX * 0x111);
    DECODE(&m, &in, 0x41, 0x54);                             /* push %r12 */
    assert_true(*word_at(&m, RSP0 - 8) == 0x1000 + ABI_R12 * 0x111);
    DECODE(&m, &in, 0x5d);                                   /* pop %rbp */
    assert_true(m.reg[ABI_RBP] == *word_at(&m, RSP0));
    assert_true(m.reg[ABI_RSP] == RSP0 + 8);
    DECODE(&m, &in, 0x41, 0x5f);                             /* pop %r15 */
    assert_true(m.reg[ABI_R15] == *word_at(&m, RSP0) && m.reg[ABI_RSP] == RSP0 + 8);
}

static void test_stack_adjustments(void **state)
{
    (void)state;
    struct machine m;
    struct ir_insn in;
    DECODE(&m, &in, 0x48, 0x83, 0xec, 0x28);                 /* sub $0x28,%rsp */
    assert_true(m.reg[ABI_RSP] == RSP0 - 0x28);
    DECODE(&m, &in, 0x48, 0x81, 0xc4, 0x00, 0x01, 0x00, 0x00); /* add $0x100,%rsp */
    assert_true(m.reg[ABI_RSP] == RSP0 + 0x100);
    DECODE(&m, &in, 0x48, 0x8d, 0x64, 0x24, 0x10);           /* lea 0x10(%rsp),%rsp */
    assert_true(m.reg[ABI_RSP] == RSP0 + 0x10);
    DECODE(&m, &in, 0x48, 0x83, 0xe4, 0xf0);                 /* and $-16,%rsp: realignment */
    assert_true(m.reg[ABI_RSP] == (RSP0 & ~(uint64_t)15));
    DECODE(&m, &in, 0x48, 0x29, 0xc4);                       /* sub %rax,%rsp: a dynamic size */
    assert_true(m.reg[ABI_RSP] == RSP0 - (0x1000 + ABI_RAX * 0x111));
}

static void test_frame_pointer(void **state)
{
    (void)state;
    struct machine m;
    struct ir_insn in;
    DECODE(&m, &in, 0x48, 0x89, 0xe5);                       /* mov %rsp,%rbp */
    assert_true(m.reg[ABI_RBP] == RSP0);
    DECODE(&m, &in, 0x48, 0x8d, 0x65, 0xf0);                 /* lea -0x10(%rbp),%rsp */
    assert_true(m.reg[ABI_RSP] == MEMORY_BASE + 12 * 8 - 16);
    DECODE(&m, &in, 0xc9);                                   /* leave */
    assert_true(m.reg[ABI_RSP] == MEMORY_BASE + 12 * 8 + 8);
    assert_true(m.reg[ABI_RBP] == *word_at(&m, MEMORY_BASE + 12 * 8));
}

static void test_saves_and_restores(void **state)
{
    (void)state;
    struct machine m;
    struct ir_insn in;
    DECODE(&m, &in, 0x48, 0x89, 0x5c, 0x24, 0x08);           /* mov %rbx,0x8(%rsp) */
    assert_true(*word_at(&m, RSP0 + 8) == 0x1000 + ABI_RBX * 0x111);
    DECODE(&m, &in, 0x4c, 0x8b, 0x64, 0x24, 0x10);           /* mov 0x10(%rsp),%r12 */
    assert_true(m.reg[ABI_R12] == *word_at(&m, RSP0 + 16));
    DECODE(&m, &in, 0x49, 0x89, 0xfc);                       /* mov %rdi,%r12 */
    assert_true(m.reg[ABI_R12] == 0x1000 + ABI_RDI * 0x111);
    DECODE(&m, &in, 0x31, 0xdb);                             /* xor %ebx,%ebx: zero */
    assert_true(m.reg[ABI_RBX] == 0 && !(m.unknown & (1u << ABI_RBX)));
    DECODE(&m, &in, 0x48, 0x0f, 0xaf, 0xd8);                 /* imul %rax,%rbx: not modelled */
    assert_true(m.unknown & (1u << ABI_RBX));
    assert_int_equal(in.clobbers_unknown, 0);                /* ... but a write it knows it cannot follow */
}

static void test_flow(void **state)
{
    (void)state;
    struct machine m;
    struct ir_insn in;
    DECODE(&m, &in, 0xe8, 0x10, 0x00, 0x00, 0x00);           /* call 0x401015 */
    assert_int_equal(in.flow, IR_FLOW_CALL);
    assert_true(in.target == 0x401015);
    DECODE(&m, &in, 0xc3);                                   /* ret */
    assert_int_equal(in.flow, IR_FLOW_RET);
    DECODE(&m, &in, 0xeb, 0xfe);                             /* jmp . */
    assert_int_equal(in.flow, IR_FLOW_JUMP);
    assert_true(in.target == 0x401000);
    DECODE(&m, &in, 0x74, 0x05);                             /* je .+7 */
    assert_int_equal(in.flow, IR_FLOW_COND);
    assert_int_equal(in.cond, IR_COND_EQ);
    assert_true(in.target == 0x401007);
    DECODE(&m, &in, 0xff, 0xe0);                             /* jmp *%rax */
    assert_int_equal(in.flow, IR_FLOW_JUMP_INDIRECT);
    assert_int_equal(in.aux, IR_AUX_JMP_REG);
    assert_int_equal(in.aux_reg[0], ABI_RAX);
    DECODE(&m, &in, 0xff, 0xd0);                             /* call *%rax */
    assert_int_equal(in.flow, IR_FLOW_CALL_INDIRECT);
    DECODE(&m, &in, 0x0f, 0x0b);                             /* ud2 */
    assert_int_equal(in.flow, IR_FLOW_STOP);
}

static void test_padding_and_invalid(void **state)
{
    (void)state;
    struct machine m;
    struct ir_insn in;
    DECODE(&m, &in, 0x90);                                   /* nop */
    assert_true(in.is_padding);
    DECODE(&m, &in, 0xcc);                                   /* int3 */
    assert_true(in.is_padding);
    assert_int_equal(in.flow, IR_FLOW_STOP);
    DECODE(&m, &in, 0xf3, 0x0f, 0x1e, 0xfa);                 /* endbr64: no effect */
    assert_int_equal(in.neffects, 0);
    assert_int_equal(in.flow, IR_FLOW_NEXT);
    static const uint8_t bad[] = {0x06};                     /* push %es: not in 64-bit mode */
    assert_int_equal(x86_decode(decoder, bad, 1, 0x401000, &in), 0);
    assert_int_equal(in.flow, IR_FLOW_INVALID);
}

static void test_system_calls_and_tests(void **state)
{
    (void)state;
    struct machine m;
    struct ir_insn in;
    DECODE(&m, &in, 0x0f, 0x05);                             /* syscall: rax is the kernel's answer */
    assert_true(m.unknown & (1u << ABI_RAX));
    int syscall_effect = 0;
    for (unsigned i = 0; i < in.neffects; i++)
        syscall_effect |= in.effects[i].kind == IR_SYSCALL;
    assert_true(syscall_effect);
    DECODE(&m, &in, 0x48, 0x85, 0xc0);                       /* test %rax,%rax */
    assert_int_equal(in.zero_tested, ABI_RAX + 1);
    DECODE(&m, &in, 0x48, 0x85, 0xd8);                       /* test %rbx,%rax: not a zero test */
    assert_int_equal(in.zero_tested, 0);
}

static void test_jump_table_facts(void **state)
{
    (void)state;
    struct machine m;
    struct ir_insn in;
    DECODE(&m, &in, 0x48, 0x8d, 0x05, 0x10, 0x00, 0x00, 0x00); /* lea 0x10(%rip),%rax */
    assert_int_equal(in.aux, IR_AUX_LEA_RIP);
    assert_int_equal(in.aux_reg[0], ABI_RAX);
    assert_true(in.target == 0x401017);
    DECODE(&m, &in, 0x48, 0x63, 0x14, 0x88);                 /* movslq (%rax,%rcx,4),%rdx */
    assert_int_equal(in.aux, IR_AUX_LOAD_REL32);
    assert_int_equal(in.aux_reg[0], ABI_RDX);
    assert_int_equal(in.aux_reg[1], ABI_RAX);
    assert_int_equal(in.aux_reg[2], ABI_RCX);
    DECODE(&m, &in, 0x83, 0xff, 0x07);                       /* cmp $7,%edi */
    assert_int_equal(in.aux, IR_AUX_CMP_IMM);
    assert_int_equal(in.aux_reg[0], ABI_RDI);
    assert_true(in.target == 7);
    DECODE(&m, &in, 0x77, 0x10);                             /* ja */
    assert_int_equal(in.aux, IR_AUX_JA);
    DECODE(&m, &in, 0x48, 0xc7, 0x44, 0x24, 0x08, 0x36, 0x11, 0x40, 0x00); /* movq $0x401136,8(%rsp) */
    assert_int_equal(in.aux, IR_AUX_MOV_IMM);                /* a label's address, without PIE */
    assert_true(in.target == 0x401136);
    assert_true(m.word_unknown & (1u << 9));                 /* the stored value is not tracked */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_push_pop),
        cmocka_unit_test(test_stack_adjustments),
        cmocka_unit_test(test_frame_pointer),
        cmocka_unit_test(test_saves_and_restores),
        cmocka_unit_test(test_flow),
        cmocka_unit_test(test_padding_and_invalid),
        cmocka_unit_test(test_system_calls_and_tests),
        cmocka_unit_test(test_jump_table_facts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
