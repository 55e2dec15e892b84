/*
 * Unit tests for semantics/dwarf_expr: decoding DW_OP_* bytes, evaluating
 * them over a fake register file and a small fake memory, and readelf-style
 * printing.  Expected values are computed by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libdwarf/dwarf.h>

/* After libdwarf's header: a value spelled differently would be a macro
 * redefinition, which the build rejects. */
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_expr.h"
#include "semantics/dwarf_ops.h"
#include "semantics/unwind_limits.h"

/* ---- fake machine -------------------------------------------------------- */

#define NREGS 17             /* rax..r15, rip (DWARF 0..16) */
#define MEM_BASE 0x7ffe0000ULL
#define MEM_SIZE 64

struct machine {
    uint64_t reg[NREGS];
    int known[NREGS];
    uint8_t mem[MEM_SIZE];   /* bytes at MEM_BASE .. MEM_BASE+63 */
    int reg_reads, mem_reads;
};

static int fake_read_reg(void *arg, unsigned reg, uint64_t *value)
{
    struct machine *m = arg;
    m->reg_reads++;
    if (reg >= NREGS || !m->known[reg])
        return -1;
    *value = m->reg[reg];
    return 0;
}

static int fake_read_mem(void *arg, uint64_t addr, unsigned size, uint64_t *value)
{
    struct machine *m = arg;
    m->mem_reads++;
    if (addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE || MEM_SIZE - (addr - MEM_BASE) < size)
        return -1;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)m->mem[addr - MEM_BASE + i] << (8 * i);
    *value = v;
    return 0;
}

static void machine_init(struct machine *m)
{
    memset(m, 0, sizeof *m);
}

static void set_reg(struct machine *m, unsigned reg, uint64_t v)
{
    m->reg[reg] = v;
    m->known[reg] = 1;
}

/* Store V little-endian as 8 bytes at ADDR. */
static void poke64(struct machine *m, uint64_t addr, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++)
        m->mem[addr - MEM_BASE + i] = (uint8_t)(v >> (8 * i));
}

/* Decode and evaluate; the decode must succeed. Returns eval's result. */
static int eval_bytes(const uint8_t *bytes, size_t len, struct machine *m,
                      const uint64_t *initial, uint64_t *result, const char **error)
{
    struct dwarf_op ops[32];
    const char *derr = NULL;
    int n = dwarf_expr_decode(bytes, len, 8, ops, 32, &derr);
    assert_true(n >= 0);
    struct dwarf_expr_env env = {fake_read_reg, fake_read_mem, m};
    return dwarf_expr_eval(ops, (size_t)n, &env, initial, result, error);
}

/* Expect decode success and evaluation to VALUE. */
static void expect_result(const uint8_t *bytes, size_t len, struct machine *m,
                         const uint64_t *initial, uint64_t value)
{
    uint64_t result = 0xabababab;
    const char *error = NULL;
    assert_int_equal(eval_bytes(bytes, len, m, initial, &result, &error), 0);
    assert_true(result == value);
}

/* Expect decode success and evaluation failure FAULT with a reason. */
static void expect_fault(const uint8_t *bytes, size_t len, struct machine *m,
                         const uint64_t *initial, enum dwarf_expr_fault fault)
{
    uint64_t result = 0x77;
    const char *error = NULL;
    assert_int_equal(eval_bytes(bytes, len, m, initial, &result, &error), fault);
    assert_non_null(error);
    assert_true(result == 0x77);
}

/* Expect decode success and evaluation failure with a reason. */
static void expect_eval_error(const uint8_t *bytes, size_t len, struct machine *m,
                              const uint64_t *initial)
{
    uint64_t result = 0x77;
    const char *error = NULL;
    assert_true(eval_bytes(bytes, len, m, initial, &result, &error) < 0);
    assert_non_null(error);
    assert_true(result == 0x77);
}

static void expect_decode_error(const uint8_t *bytes, size_t len)
{
    struct dwarf_op ops[16];
    const char *error = NULL;
    assert_int_equal(dwarf_expr_decode(bytes, len, 8, ops, 16, &error), -1);
    assert_non_null(error);
}

/* Print OPS into a string (caller frees). */
static char *print_ops(const struct dwarf_op *ops, size_t n)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    dwarf_expr_print(f, ops, n);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* ---- decoding ------------------------------------------------------------ */

static void test_decode_breg_and_bregx(void **state)
{
    (void)state;
    static const uint8_t bytes[] = {
        0x77, 0x08,             /* 0: DW_OP_breg7 8 */
        0x76, 0x70,             /* 2: DW_OP_breg6 -16 (0x70 = 112 - 128) */
        0x92, 0x10, 0x78,       /* 4: DW_OP_bregx 16 -8 */
        0x8f, 0x80, 0x01,       /* 7: DW_OP_breg31 128 */
    };
    struct dwarf_op ops[8];
    const char *error = NULL;
    assert_int_equal(dwarf_expr_decode(bytes, sizeof bytes, 8, ops, 8, &error), 4);

    assert_int_equal(ops[0].opcode, 0x77);
    assert_int_equal(ops[0].offset, 0);
    assert_true(ops[0].operand1 == 7);
    assert_true(ops[0].operand2 == 8);

    assert_int_equal(ops[1].opcode, 0x76);
    assert_int_equal(ops[1].offset, 2);
    assert_true(ops[1].operand1 == 6);
    assert_true(ops[1].operand2 == -16);

    assert_int_equal(ops[2].opcode, 0x92);
    assert_int_equal(ops[2].offset, 4);
    assert_true(ops[2].operand1 == 16);
    assert_true(ops[2].operand2 == -8);

    assert_int_equal(ops[3].opcode, 0x8f);
    assert_int_equal(ops[3].offset, 7);
    assert_true(ops[3].operand1 == 31);
    assert_true(ops[3].operand2 == 128);
}

static void test_decode_constants(void **state)
{
    (void)state;
    static const uint8_t bytes[] = {
        0x08, 0xff,                         /* 0: const1u 255 */
        0x09, 0xff,                         /* 2: const1s -1 */
        0x0a, 0x34, 0x12,                   /* 4: const2u 0x1234 */
        0x0b, 0x00, 0x80,                   /* 7: const2s -32768 */
        0x0c, 0x78, 0x56, 0x34, 0x12,       /* 10: const4u 0x12345678 */
        0x0d, 0xfe, 0xff, 0xff, 0xff,       /* 15: const4s -2 */
        0x0e, 1, 2, 3, 4, 5, 6, 7, 8,       /* 20: const8u 0x0807060504030201 */
        0x0f, 0, 0, 0, 0, 0, 0, 0, 0x80,    /* 29: const8s INT64_MIN */
        0x10, 0xe5, 0x8e, 0x26,             /* 38: constu 624485 */
        0x11, 0x7f,                         /* 42: consts -1 */
        0x30,                               /* 44: lit0 */
        0x4f,                               /* 45: lit31 */
        0x23, 0x90, 0x01,                   /* 46: plus_uconst 144 (0x10 + 1<<7) */
        0x06,                               /* 49: deref */
        0x94, 0x04,                         /* 50: deref_size 4 */
        0x03, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* 52: addr */
    };
    struct dwarf_op ops[20];
    const char *error = NULL;
    assert_int_equal(dwarf_expr_decode(bytes, sizeof bytes, 8, ops, 20, &error), 16);

    static const struct { uint8_t opcode; uint32_t offset; uint64_t operand1; } want[] = {
        {0x08, 0, 255},
        {0x09, 2, 0xffffffffffffffffULL},
        {0x0a, 4, 0x1234},
        {0x0b, 7, 0xffffffffffff8000ULL},
        {0x0c, 10, 0x12345678},
        {0x0d, 15, 0xfffffffffffffffeULL},
        {0x0e, 20, 0x0807060504030201ULL},
        {0x0f, 29, 0x8000000000000000ULL},
        {0x10, 38, 624485},
        {0x11, 42, 0xffffffffffffffffULL},
        {0x30, 44, 0},
        {0x4f, 45, 31},                     /* a literal's value */
        {0x23, 46, 144},
        {0x06, 49, 8},                      /* DW_OP_deref's size */
        {0x94, 50, 4},
        {0x03, 52, 0x1122334455667788ULL},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(ops[i].opcode, want[i].opcode);
        assert_int_equal(ops[i].offset, want[i].offset);
        assert_true(ops[i].operand1 == want[i].operand1);
    }
    /* Signed constants also carry the signed value in operand2. */
    assert_true(ops[1].operand2 == -1);
    assert_true(ops[3].operand2 == -32768);
    assert_true(ops[5].operand2 == -2);
    assert_true(ops[7].operand2 == INT64_MIN);
    assert_true(ops[9].operand2 == -1);
}

/* Each operation's class and function: what the expression machine and
 * the C generator do with it, taken from dwarf_ops.h's tables. */
static void test_decode_classes(void **state)
{
    (void)state;
    static const uint8_t bytes[] = {
        0x35,             /* lit5 */
        0x77, 0x08,       /* breg7 8 */
        0x1a,             /* and */
        0x19,             /* abs */
        0x1f,             /* neg */
        0x1d,             /* mod */
        0x06,             /* deref */
        0x55,             /* reg5 */
        0x93, 0x08,       /* piece 8 */
        0x23, 0x10,       /* plus_uconst 16 */
        0x16,             /* swap */
        0x9f,             /* stack_value */
    };
    static const struct { uint8_t kind; int function; } want[] = {
        {DWARF_OP_CONSTANT, -1}, {DWARF_OP_REGISTER, -1}, {DWARF_OP_BINARY, DWARF_BINARY_AND},
        {DWARF_OP_UNARY, DWARF_UNARY_ABS}, {DWARF_OP_UNARY, DWARF_UNARY_NEG}, {DWARF_OP_BINARY, DWARF_BINARY_MOD},
        {DWARF_OP_DEREF, -1}, {DWARF_OP_LOCATION, -1}, {DWARF_OP_MEANINGLESS, -1},
        {DWARF_OP_PLUS_CONSTANT, -1}, {DWARF_OP_SWAP, -1}, {DWARF_OP_STACK_VALUE, -1},
    };
    struct dwarf_op ops[16];
    const char *error = NULL;
    assert_int_equal(dwarf_expr_decode(bytes, sizeof bytes, 8, ops, 16, &error), 12);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(ops[i].kind, want[i].kind);
        if (want[i].function >= 0)
            assert_int_equal(ops[i].function, want[i].function);
    }
    /* The functions compute what the DWARF standard says, on the numbers
     * the C generator prints them for. */
    uint64_t v;
    assert_int_equal(dwarf_binary_eval(DWARF_BINARY_DIV, (uint64_t)-7, 2, &v), 0);
    assert_true(v == (uint64_t)-3);
    assert_int_equal(dwarf_binary_eval(DWARF_BINARY_DIV, 1, 0, &v), -1);
    assert_int_equal(dwarf_binary_eval(DWARF_BINARY_MOD, 7, 0, &v), -1);
    assert_int_equal(dwarf_binary_eval(DWARF_BINARY_SHRA, (uint64_t)-8, 70, &v), 0);
    assert_true(v == ~(uint64_t)0);
    assert_int_equal(dwarf_binary_eval(DWARF_BINARY_LT, (uint64_t)-1, 0, &v), 0);
    assert_true(v == 1);
    assert_true(dwarf_unary_eval(DWARF_UNARY_ABS, (uint64_t)-5) == 5);
    assert_string_equal(dwarf_binary_c(DWARF_BINARY_MINUS), "a - b");
    assert_string_equal(dwarf_unary_c(DWARF_UNARY_NOT), "~a");
}

static void test_decode_branches(void **state)
{
    (void)state;
    /*
     * 0: DW_OP_lit1
     * 1: DW_OP_bra +4   -> operand ends at 4, target 4 + 4 = 8
     * 4: DW_OP_lit5
     * 5: DW_OP_skip +1  -> operand ends at 8, target 8 + 1 = 9 (the end)
     * 8: DW_OP_lit7
     */
    static const uint8_t bytes[] = {0x31, 0x28, 0x04, 0x00, 0x35, 0x2f, 0x01, 0x00, 0x37};
    struct dwarf_op ops[8];
    const char *error = NULL;
    assert_int_equal(dwarf_expr_decode(bytes, sizeof bytes, 8, ops, 8, &error), 5);
    assert_int_equal(ops[1].opcode, DW_OP_bra);
    assert_int_equal(ops[1].offset, 1);
    assert_true(ops[1].operand2 == 8);
    assert_int_equal(ops[3].opcode, DW_OP_skip);
    assert_int_equal(ops[3].offset, 5);
    assert_true(ops[3].operand2 == 9);

    /* Backward: skip -3 at 0 ends at 3 -> target 0. */
    static const uint8_t loop[] = {0x2f, 0xfd, 0xff};
    assert_int_equal(dwarf_expr_decode(loop, sizeof loop, 8, ops, 8, &error), 1);
    assert_true(ops[0].operand2 == 0);
}

static void test_decode_errors(void **state)
{
    (void)state;
    /* Unknown opcodes: 0x01 and 0x02 are reserved, 0xff is DW_OP_hi_user. */
    static const uint8_t unk1[] = {0x01};
    expect_decode_error(unk1, sizeof unk1);
    static const uint8_t unkff[] = {0x30, 0xff};
    expect_decode_error(unkff, sizeof unkff);
    /* Truncated operands. */
    static const uint8_t c4[] = {0x0c, 0x01, 0x02};       /* const4u with 2 bytes */
    expect_decode_error(c4, sizeof c4);
    static const uint8_t breg[] = {0x77};                 /* breg7 without offset */
    expect_decode_error(breg, sizeof breg);
    static const uint8_t breg_cont[] = {0x77, 0x80};      /* unterminated SLEB */
    expect_decode_error(breg_cont, sizeof breg_cont);
    static const uint8_t bregx[] = {0x92, 0x10};          /* bregx without offset */
    expect_decode_error(bregx, sizeof bregx);
    static const uint8_t skip[] = {0x2f, 0x01};           /* half a branch offset */
    expect_decode_error(skip, sizeof skip);
    static const uint8_t c8[] = {0x0e, 1, 2, 3, 4, 5, 6, 7}; /* const8u with 7 bytes */
    expect_decode_error(c8, sizeof c8);
    static const uint8_t dsz[] = {0x94};                  /* deref_size without size */
    expect_decode_error(dsz, sizeof dsz);
    /* Over-long LEB128 operand: plus_uconst with bit 64 set. */
    static const uint8_t big[] = {0x23, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    expect_decode_error(big, sizeof big);
}

static void test_decode_bad_branch_targets(void **state)
{
    (void)state;
    /* skip +1 at 0 -> target 4, the operand byte of const1u at 3. */
    static const uint8_t mid[] = {0x2f, 0x01, 0x00, 0x08, 0x05};
    expect_decode_error(mid, sizeof mid);
    /* bra +1 after lit1: target 5, inside const2u at 4 (operand 5..6). */
    static const uint8_t bmid[] = {0x31, 0x28, 0x01, 0x00, 0x0a, 0x01, 0x00};
    expect_decode_error(bmid, sizeof bmid);
    /* skip +5 -> target 8, past the end (3). */
    static const uint8_t past[] = {0x2f, 0x05, 0x00};
    expect_decode_error(past, sizeof past);
    /* skip -16 -> target -13, before the start. */
    static const uint8_t before[] = {0x2f, 0xf0, 0xff};
    expect_decode_error(before, sizeof before);
    /* Exactly the end is a valid target: lit0; skip +0 -> target 4 == len. */
    static const uint8_t end[] = {0x30, 0x2f, 0x00, 0x00};
    struct dwarf_op ops[4];
    const char *error = NULL;
    assert_int_equal(dwarf_expr_decode(end, sizeof end, 8, ops, 4, &error), 2);
    assert_true(ops[1].operand2 == 4);
}

static void test_decode_op_limit(void **state)
{
    (void)state;
    static const uint8_t three[] = {0x30, 0x31, 0x32};
    struct dwarf_op ops[3];
    const char *error = NULL;
    assert_int_equal(dwarf_expr_decode(three, sizeof three, 8, ops, 2, &error), -1);
    assert_non_null(error);
    error = NULL;
    assert_int_equal(dwarf_expr_decode(three, sizeof three, 8, ops, 3, &error), 3);
    /* Empty expression: zero ops. */
    assert_int_equal(dwarf_expr_decode(three, 0, 8, ops, 3, &error), 0);
}

static void test_op_names(void **state)
{
    (void)state;
    assert_string_equal(dwarf_op_name(0x77), "DW_OP_breg7");
    assert_string_equal(dwarf_op_name(0x3f), "DW_OP_lit15");
    assert_string_equal(dwarf_op_name(0x06), "DW_OP_deref");
    assert_string_equal(dwarf_op_name(0x92), "DW_OP_bregx");
    assert_null(dwarf_op_name(0x01));
    assert_null(dwarf_op_name(0xff));
    assert_string_equal(dwarf_reg_name(7), "rsp");
    assert_string_equal(dwarf_reg_name(16), "rip");
    assert_string_equal(dwarf_reg_name(17), "xmm0");
}

/* ---- evaluation ---------------------------------------------------------- */

static void test_eval_cfa_rsp_plus_8(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    set_reg(&m, 7, 0x7ffe1230);
    /* DW_OP_breg7 8: rsp + 8 = 0x7ffe1238 */
    static const uint8_t bytes[] = {0x77, 0x08};
    expect_result(bytes, sizeof bytes, &m, NULL, 0x7ffe1238);
    assert_int_equal(m.reg_reads, 1);
    /* DW_OP_breg6 -16: rbp - 16 = 0x1000 - 0x10 = 0xff0 */
    set_reg(&m, 6, 0x1000);
    static const uint8_t rbp[] = {0x76, 0x70};
    expect_result(rbp, sizeof rbp, &m, NULL, 0xff0);
    /* DW_OP_bregx 16 -8: rip - 8 = 0x401000 - 8 = 0x400ff8 */
    set_reg(&m, 16, 0x401000);
    static const uint8_t bx[] = {0x92, 0x10, 0x78};
    expect_result(bx, sizeof bx, &m, NULL, 0x400ff8);
}

/* glibc's PLT CFA: rsp + 8 + ((rip & 15) >= THRESH) << 3. */
static void test_eval_plt_expression(void **state)
{
    (void)state;
    static const uint8_t lit11[] = {
        0x77, 0x08,     /* DW_OP_breg7 (rsp): 8 */
        0x80, 0x00,     /* DW_OP_breg16 (rip): 0 */
        0x3f,           /* DW_OP_lit15 */
        0x1a,           /* DW_OP_and */
        0x3b,           /* DW_OP_lit11 */
        0x2a,           /* DW_OP_ge */
        0x33,           /* DW_OP_lit3 */
        0x24,           /* DW_OP_shl */
        0x22,           /* DW_OP_plus */
    };
    struct machine m;
    machine_init(&m);
    set_reg(&m, 7, 0x7ffe0100);

    /* rip & 15 = 0 < 11: 0x7ffe0100 + 8 + 0 = 0x7ffe0108 */
    set_reg(&m, 16, 0x401020);
    expect_result(lit11, sizeof lit11, &m, NULL, 0x7ffe0108);
    /* rip & 15 = 10 < 11: still 0x7ffe0108 */
    set_reg(&m, 16, 0x40102a);
    expect_result(lit11, sizeof lit11, &m, NULL, 0x7ffe0108);
    /* rip & 15 = 11 >= 11: 1 << 3 = 8 more -> 0x7ffe0110 */
    set_reg(&m, 16, 0x40102b);
    expect_result(lit11, sizeof lit11, &m, NULL, 0x7ffe0110);
    /* rip & 15 = 15: 0x7ffe0110 */
    set_reg(&m, 16, 0x40102f);
    expect_result(lit11, sizeof lit11, &m, NULL, 0x7ffe0110);

    /* The lit10 variant: threshold moves down by one. */
    uint8_t lit10[sizeof lit11];
    memcpy(lit10, lit11, sizeof lit11);
    lit10[6] = 0x3a;    /* DW_OP_lit10 */
    /* rip & 15 = 9 < 10 -> 0x7ffe0108 */
    set_reg(&m, 16, 0x401029);
    expect_result(lit10, sizeof lit10, &m, NULL, 0x7ffe0108);
    /* rip & 15 = 10 >= 10 -> 0x7ffe0110 */
    set_reg(&m, 16, 0x40102a);
    expect_result(lit10, sizeof lit10, &m, NULL, 0x7ffe0110);
}

static void test_eval_memory(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    set_reg(&m, 7, MEM_BASE + 0x10);
    poke64(&m, MEM_BASE + 0x18, 0x1122334455667788ULL);
    poke64(&m, MEM_BASE + 0x20, 0x00000000deadbeefULL);

    /* DW_OP_breg7 8; DW_OP_deref: *(rsp + 8) = *(base + 0x18) */
    static const uint8_t deref[] = {0x77, 0x08, 0x06};
    expect_result(deref, sizeof deref, &m, NULL, 0x1122334455667788ULL);
    assert_int_equal(m.mem_reads, 1);

    /* DW_OP_breg7 8; DW_OP_deref_size 4: low 4 bytes, zero-extended = 0x55667788 */
    static const uint8_t d4[] = {0x77, 0x08, 0x94, 0x04};
    expect_result(d4, sizeof d4, &m, NULL, 0x55667788);
    /* deref_size 1 at base + 0x1f: the top byte of the first value, 0x11 */
    static const uint8_t d1[] = {0x77, 0x0f, 0x94, 0x01};
    expect_result(d1, sizeof d1, &m, NULL, 0x11);

    /* Double indirection: base+0x28 holds base+0x20, which holds 0xdeadbeef. */
    poke64(&m, MEM_BASE + 0x28, MEM_BASE + 0x20);
    static const uint8_t dd[] = {0x77, 0x18, 0x06, 0x06};   /* rsp + 24 = base + 0x28 */
    expect_result(dd, sizeof dd, &m, NULL, 0xdeadbeef);
}

static void test_eval_initial_value(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    uint64_t cfa = MEM_BASE + 0x30;

    /* DW_CFA_val_expression style: CFA pushed, then lit8; minus -> CFA - 8. */
    static const uint8_t minus8[] = {0x38, 0x1c};
    expect_result(minus8, sizeof minus8, &m, &cfa, MEM_BASE + 0x28);

    /* DW_CFA_expression style: CFA pushed, plus_uconst 8; deref -> *(CFA + 8). */
    poke64(&m, MEM_BASE + 0x38, 0xcafef00d12345678ULL);
    static const uint8_t load[] = {0x23, 0x08, 0x06};
    expect_result(load, sizeof load, &m, &cfa, 0xcafef00d12345678ULL);

    /* An empty expression yields the pushed value itself. */
    expect_result(minus8, 0, &m, &cfa, MEM_BASE + 0x30);

    /* Without an initial value, an empty expression has nothing to return. */
    expect_eval_error(minus8, 0, &m, NULL);
    /* ... and "minus" alone underflows, whereas with the CFA pushed it needs one more. */
    static const uint8_t minus[] = {0x1c};
    expect_eval_error(minus, sizeof minus, &m, &cfa);
}

static void test_eval_arithmetic_and_stack(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    /* lit5 lit3 minus: 5 - 3 = 2 (second minus top) */
    static const uint8_t sub[] = {0x35, 0x33, 0x1c};
    expect_result(sub, sizeof sub, &m, NULL, 2);
    /* consts -7; lit2; div: signed, truncating: -3 */
    static const uint8_t sdiv[] = {0x11, 0x79, 0x32, 0x1b};
    expect_result(sdiv, sizeof sdiv, &m, NULL, (uint64_t)INT64_C(-3));
    /* lit7 lit3 mod: 1 */
    static const uint8_t mod[] = {0x37, 0x33, 0x1d};
    expect_result(mod, sizeof mod, &m, NULL, 1);
    /* lit6 lit7 mul: 42 */
    static const uint8_t mul[] = {0x36, 0x37, 0x1e};
    expect_result(mul, sizeof mul, &m, NULL, 42);
    /* consts -16; lit2; shr: logical, 0xfffffffffffffff0 >> 2 = 0x3ffffffffffffffc */
    static const uint8_t shr[] = {0x11, 0x70, 0x32, 0x25};
    expect_result(shr, sizeof shr, &m, NULL, 0x3ffffffffffffffcULL);
    /* consts -16; lit2; shra: arithmetic, -4 */
    static const uint8_t shra[] = {0x11, 0x70, 0x32, 0x26};
    expect_result(shra, sizeof shra, &m, NULL, (uint64_t)INT64_C(-4));
    /* consts -1; lit0; lt: signed -1 < 0 -> 1 */
    static const uint8_t lt[] = {0x11, 0x7f, 0x30, 0x2d};
    expect_result(lt, sizeof lt, &m, NULL, 1);
    /* lit1 lit2 swap minus: 2 - 1 = 1 */
    static const uint8_t swp[] = {0x31, 0x32, 0x16, 0x1c};
    expect_result(swp, sizeof swp, &m, NULL, 1);
    /* lit1 lit2 over: [1 2 1]; plus -> [1 3]: top 3 */
    static const uint8_t over[] = {0x31, 0x32, 0x14, 0x22};
    expect_result(over, sizeof over, &m, NULL, 3);
    /* lit1 lit2 lit3 rot: [3 1 2] -> top 2; drop -> 1 */
    static const uint8_t rot[] = {0x31, 0x32, 0x33, 0x17};
    expect_result(rot, sizeof rot, &m, NULL, 2);
    static const uint8_t rotdrop[] = {0x31, 0x32, 0x33, 0x17, 0x13};
    expect_result(rotdrop, sizeof rotdrop, &m, NULL, 1);
    /* lit4 lit5 lit6 pick 2: copies the 4 */
    static const uint8_t pick[] = {0x34, 0x35, 0x36, 0x15, 0x02};
    expect_result(pick, sizeof pick, &m, NULL, 4);
    /* lit9 dup plus: 18 */
    static const uint8_t dup[] = {0x39, 0x12, 0x22};
    expect_result(dup, sizeof dup, &m, NULL, 18);
    /* lit0 not: all ones; neg of lit1: all ones too */
    static const uint8_t not0[] = {0x30, 0x20};
    expect_result(not0, sizeof not0, &m, NULL, UINT64_MAX);
    static const uint8_t neg1[] = {0x31, 0x1f};
    expect_result(neg1, sizeof neg1, &m, NULL, UINT64_MAX);
}

static void test_eval_branches(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    /* cond ? 7 : 5, laid out as in test_decode_branches. */
    static const uint8_t taken[] = {0x31, 0x28, 0x04, 0x00, 0x35, 0x2f, 0x01, 0x00, 0x37};
    expect_result(taken, sizeof taken, &m, NULL, 7);
    static const uint8_t not_taken[] = {0x30, 0x28, 0x04, 0x00, 0x35, 0x2f, 0x01, 0x00, 0x37};
    expect_result(not_taken, sizeof not_taken, &m, NULL, 5);
    /* skip over lit0 to lit1: result 1, not 0. */
    static const uint8_t skip[] = {0x2f, 0x01, 0x00, 0x30, 0x31};
    expect_result(skip, sizeof skip, &m, NULL, 1);
    /* A counted loop:
     * 0: lit3
     * 1: lit1          (loop head)
     * 2: minus         x - 1
     * 3: dup
     * 4: bra -6        operand ends at 7, target 1
     * 7: (end)         result 0 after three iterations */
    static const uint8_t loop[] = {0x33, 0x31, 0x1c, 0x12, 0x28, 0xfa, 0xff};
    expect_result(loop, sizeof loop, &m, NULL, 0);
}

static void test_eval_infinite_loop(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    /* DW_OP_skip -3 jumps to itself forever: must stop with an error. */
    static const uint8_t forever[] = {0x2f, 0xfd, 0xff};
    expect_eval_error(forever, sizeof forever, &m, NULL);
    /* Also with something on the stack. */
    uint64_t cfa = 0x1000;
    expect_eval_error(forever, sizeof forever, &m, &cfa);
}

static void test_eval_errors(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    /* Stack underflow: plus with an empty stack, with one value, deref empty, bra empty. */
    static const uint8_t plus[] = {0x22};
    expect_eval_error(plus, sizeof plus, &m, NULL);
    static const uint8_t plus1[] = {0x31, 0x22};
    expect_eval_error(plus1, sizeof plus1, &m, NULL);
    static const uint8_t deref[] = {0x06};
    expect_eval_error(deref, sizeof deref, &m, NULL);
    static const uint8_t bra[] = {0x28, 0x00, 0x00};
    expect_eval_error(bra, sizeof bra, &m, NULL);
    static const uint8_t drop[] = {0x13};
    expect_eval_error(drop, sizeof drop, &m, NULL);
    /* Division by zero: lit1 lit0 div / mod. */
    static const uint8_t div0[] = {0x31, 0x30, 0x1b};
    expect_eval_error(div0, sizeof div0, &m, NULL);
    static const uint8_t mod0[] = {0x31, 0x30, 0x1d};
    expect_eval_error(mod0, sizeof mod0, &m, NULL);
    /* Unknown register: rbx was never set. */
    static const uint8_t rbx[] = {0x73, 0x00};
    expect_eval_error(rbx, sizeof rbx, &m, NULL);
    /* Unreadable memory: deref of address 0x10. */
    static const uint8_t bad_mem[] = {0x40, 0x06};
    expect_eval_error(bad_mem, sizeof bad_mem, &m, NULL);
    /* deref_size 0 and 9 are not sizes. */
    uint64_t addr = MEM_BASE;
    static const uint8_t dsz0[] = {0x94, 0x00};
    expect_eval_error(dsz0, sizeof dsz0, &m, &addr);
    static const uint8_t dsz9[] = {0x94, 0x09};
    expect_eval_error(dsz9, sizeof dsz9, &m, &addr);
    /* Register location ops have no value in CFI: DW_OP_reg7. */
    static const uint8_t reg7[] = {0x57};
    expect_eval_error(reg7, sizeof reg7, &m, NULL);

    /* No callbacks at all: a register read fails cleanly. */
    struct dwarf_op ops[2];
    const char *error = NULL;
    static const uint8_t breg[] = {0x77, 0x08};
    assert_int_equal(dwarf_expr_decode(breg, sizeof breg, 8, ops, 2, &error), 1);
    uint64_t result = 0;
    error = NULL;
    assert_int_equal(dwarf_expr_eval(ops, 1, NULL, NULL, &result, &error), DWARF_EXPR_NO_REGISTER);
    assert_non_null(error);
}

/* Each failure has its kind, which the runtime turns into the status the
 * compiled tables return for it (DWU_EREG, DWU_EMEM, DWU_EBADRULE). */
static void test_eval_fault_kinds(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    /* DW_OP_breg3 (rbx): 0 with rbx unknown; DW_OP_bregx 17 (xmm0): 0. */
    static const uint8_t rbx[] = {0x73, 0x00};
    expect_fault(rbx, sizeof rbx, &m, NULL, DWARF_EXPR_NO_REGISTER);
    static const uint8_t xmm0[] = {0x92, 0x11, 0x00};
    expect_fault(xmm0, sizeof xmm0, &m, NULL, DWARF_EXPR_NO_REGISTER);
    /* DW_OP_lit0; DW_OP_deref: address 0 is outside the fake memory. */
    static const uint8_t deref0[] = {0x30, 0x06};
    expect_fault(deref0, sizeof deref0, &m, NULL, DWARF_EXPR_NO_MEMORY);
    /* DW_OP_lit1; DW_OP_lit0; DW_OP_div; DW_OP_plus (underflow); DW_OP_reg7. */
    static const uint8_t div0[] = {0x31, 0x30, 0x1b};
    expect_fault(div0, sizeof div0, &m, NULL, DWARF_EXPR_INVALID);
    static const uint8_t plus[] = {0x22};
    expect_fault(plus, sizeof plus, &m, NULL, DWARF_EXPR_INVALID);
    static const uint8_t reg7[] = {0x57};
    expect_fault(reg7, sizeof reg7, &m, NULL, DWARF_EXPR_INVALID);
    /* DW_OP_lit5; DW_OP_stack_value; DW_OP_lit6: the value is 5. */
    static const uint8_t stack_value[] = {0x35, 0x9f, 0x36};
    expect_result(stack_value, sizeof stack_value, &m, NULL, 5);
}

/* The budget counts branches taken, as the compiled expressions do, not
 * operations: a loop may run far more operations than it takes branches. */
static void test_eval_branch_budget(void **state)
{
    (void)state;
    struct machine m;
    machine_init(&m);
    /* DW_OP_lit0; L: DW_OP_lit1; DW_OP_plus; DW_OP_dup; DW_OP_const2u: N;
     * DW_OP_lt; DW_OP_bra: L.  Counts to N, taking N - 1 branches and running
     * 6 N operations. */
    uint8_t loop[] = {0x30, 0x31, 0x22, 0x12, 0x0a, 0, 0, 0x2d, 0x28, 0xf6, 0xff};
    unsigned counts[] = {3000, UNWIND_EXPR_BRANCHES + 1, UNWIND_EXPR_BRANCHES + 2};
    for (unsigned i = 0; i < 3; i++) {
        loop[5] = (uint8_t)counts[i];
        loop[6] = (uint8_t)(counts[i] >> 8);
        if (counts[i] - 1 <= UNWIND_EXPR_BRANCHES)
            expect_result(loop, sizeof loop, &m, NULL, counts[i]);
        else
            expect_fault(loop, sizeof loop, &m, NULL, DWARF_EXPR_INVALID);
    }
}

/* ---- printing ------------------------------------------------------------ */

static void test_print(void **state)
{
    (void)state;
    struct dwarf_op ops[16];
    const char *error = NULL;
    char *s;

    static const uint8_t a[] = {0x77, 0x08, 0x06};
    assert_int_equal(dwarf_expr_decode(a, sizeof a, 8, ops, 16, &error), 2);
    s = print_ops(ops, 2);
    assert_string_equal(s, "DW_OP_breg7 (rsp): 8; DW_OP_deref");
    free(s);

    static const uint8_t b[] = {0x76, 0x70, 0x23, 0x10, 0x3f, 0x1a};
    assert_int_equal(dwarf_expr_decode(b, sizeof b, 8, ops, 16, &error), 4);
    s = print_ops(ops, 4);
    assert_string_equal(s, "DW_OP_breg6 (rbp): -16; DW_OP_plus_uconst: 16; DW_OP_lit15; DW_OP_and");
    free(s);

    static const uint8_t c[] = {0x92, 0x10, 0x78, 0x94, 0x04};
    assert_int_equal(dwarf_expr_decode(c, sizeof c, 8, ops, 16, &error), 2);
    s = print_ops(ops, 2);
    assert_string_equal(s, "DW_OP_bregx: 16 (rip) -8; DW_OP_deref_size: 4");
    free(s);

    static const uint8_t d[] = {0x2f, 0xfd, 0xff};
    assert_int_equal(dwarf_expr_decode(d, sizeof d, 8, ops, 16, &error), 1);
    s = print_ops(ops, 1);
    assert_string_equal(s, "DW_OP_skip: -3");
    free(s);

    /* Nothing at all prints nothing. */
    s = print_ops(ops, 0);
    assert_string_equal(s, "");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_breg_and_bregx),
        cmocka_unit_test(test_decode_constants),
        cmocka_unit_test(test_decode_classes),
        cmocka_unit_test(test_decode_branches),
        cmocka_unit_test(test_decode_errors),
        cmocka_unit_test(test_decode_bad_branch_targets),
        cmocka_unit_test(test_decode_op_limit),
        cmocka_unit_test(test_op_names),
        cmocka_unit_test(test_eval_cfa_rsp_plus_8),
        cmocka_unit_test(test_eval_plt_expression),
        cmocka_unit_test(test_eval_memory),
        cmocka_unit_test(test_eval_initial_value),
        cmocka_unit_test(test_eval_arithmetic_and_stack),
        cmocka_unit_test(test_eval_branches),
        cmocka_unit_test(test_eval_infinite_loop),
        cmocka_unit_test(test_eval_errors),
        cmocka_unit_test(test_eval_fault_kinds),
        cmocka_unit_test(test_eval_branch_budget),
        cmocka_unit_test(test_print),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
