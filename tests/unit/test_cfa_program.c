/*
 * Unit tests for semantics/cfa_program: every DW_CFA_* opcode on hand-built
 * byte arrays, the rows reported through on_row, malformed input, and
 * cfa_program_columns.  Offsets and locations are worked out by hand in the
 * comments (byte offsets of each instruction on the left).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "semantics/cfa_program.h"
#include "semantics/dwarf_constants.h"

/* ---- row recorder -------------------------------------------------------- */

struct row {
    uint64_t loc, new_loc;
    struct unwind_rule cfa;
    struct unwind_rule col;      /* the rule of column `watch` */
    uint64_t args_size;
};

#define MAX_ROWS 32
static struct row rows[MAX_ROWS];
static size_t nrows;
static unsigned watch = 3;       /* rbx unless a test says otherwise */
static size_t stop_after;        /* on_row returns 7 at this row (1-based); 0 = never */

static int record_row(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    (void)arg;
    assert_true(nrows < MAX_ROWS);
    rows[nrows].loc = st->loc;
    rows[nrows].new_loc = new_loc;
    rows[nrows].cfa = st->cfa;
    rows[nrows].col = st->col[watch];
    rows[nrows].args_size = st->args_size;
    nrows++;
    if (stop_after && nrows == stop_after)
        return 7;
    return 0;
}

/* x86_64 GCC defaults: code_align 1, data_align -8, RA column 16. */
static const struct cfa_cie_params CIE = {
    .code_align = 1, .data_align = -8, .ra_column = 16, .addr_size = 8,
    .fde_encoding = DW_EH_PE_absptr, .insns_addr = 0,
};

static int run_full(const uint8_t *insns, size_t len, const struct cfa_cie_params *cie,
                    const struct cfi_state *cie_state, struct cfi_state *stack, size_t cap,
                    struct cfi_state *st, struct cfa_error *err)
{
    nrows = 0;
    memset(rows, 0, sizeof rows);
    struct cfa_program prog = {
        .insns = insns, .len = len, .cie = cie, .cie_state = cie_state,
        .stack = stack, .stack_cap = cap, .on_row = record_row, .arg = NULL,
    };
    err->reason = NULL;
    err->offset = 0xdead;
    return cfa_program_run(&prog, st, err);
}

/* An FDE-less run: no CIE state, a 4-deep remember stack. */
static int run(const uint8_t *insns, size_t len, const struct cfa_cie_params *cie,
               struct cfi_state *st, struct cfa_error *err)
{
    static struct cfi_state stack[4];
    return run_full(insns, len, cie, NULL, stack, 4, st, err);
}

static void setup_rule(struct unwind_rule *r, uint8_t kind, uint16_t reg, int64_t offset)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->reg = reg;
    r->offset = offset;
}

/* Assertions as macros so a failure names the test's line. */
#define ASSERT_CFA_REG(rule, r, off) do {                       \
        assert_int_equal((rule).kind, CFA_RULE_REG_OFFSET);     \
        assert_int_equal((rule).reg, (r));                      \
        assert_true((rule).offset == (int64_t)(off));           \
    } while (0)
#define ASSERT_CFA_EXPR(rule, ptr, len) do {                    \
        assert_int_equal((rule).kind, CFA_RULE_EXPRESSION);     \
        assert_ptr_equal((rule).expr, (ptr));                   \
        assert_int_equal((rule).expr_len, (len));               \
    } while (0)
#define ASSERT_RULE_OFF(rule, k, off) do {                      \
        assert_int_equal((rule).kind, (k));                     \
        assert_true((rule).offset == (int64_t)(off));           \
    } while (0)
#define ASSERT_RULE_KIND(rule, k) assert_int_equal((rule).kind, (k))
#define ASSERT_RULE_EXPR(rule, k, ptr, len) do {                \
        assert_int_equal((rule).kind, (k));                     \
        assert_ptr_equal((rule).expr, (ptr));                   \
        assert_int_equal((rule).expr_len, (len));               \
    } while (0)
#define ASSERT_ROW(i, from, to) do {                            \
        assert_true(rows[i].loc == (uint64_t)(from));           \
        assert_true(rows[i].new_loc == (uint64_t)(to));         \
    } while (0)

static void assert_rules_same(const struct unwind_rule *a, const struct unwind_rule *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->reg, b->reg);
    assert_true(a->offset == b->offset);
    assert_ptr_equal(a->expr, b->expr);
    assert_int_equal(a->expr_len, b->expr_len);
}

/* Every rule and args_size equal (the location is not compared). */
static void assert_state_same(const struct cfi_state *a, const struct cfi_state *b)
{
    assert_rules_same(&a->cfa, &b->cfa);
    for (unsigned i = 0; i < UNWIND_MAX_COLUMNS; i++)
        assert_rules_same(&a->col[i], &b->col[i]);
    assert_true(a->args_size == b->args_size);
}

/* ---- location advances --------------------------------------------------- */

static void test_advance_loc_code_align_1(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x08,   /* 0: def_cfa rsp+8 */
        0x41,               /* 3: advance_loc 1 */
        0x0e, 0x10,         /* 4: def_cfa_offset 16 */
        0x43,               /* 6: advance_loc 3 */
        0x0e, 0x18,         /* 7: def_cfa_offset 24 (never reported as a row) */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0x1000);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 2);
    ASSERT_ROW(0, 0x1000, 0x1001);
    ASSERT_CFA_REG(rows[0].cfa, 7, 8);
    ASSERT_ROW(1, 0x1001, 0x1004);
    ASSERT_CFA_REG(rows[1].cfa, 7, 16);
    /* Final state: the last row is left in ST for the caller. */
    assert_true(st.loc == 0x1004);
    ASSERT_CFA_REG(st.cfa, 7, 24);
}

static void test_advance_loc_code_align_4(void **state)
{
    (void)state;
    struct cfa_cie_params cie = CIE;
    cie.code_align = 4;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x08,   /* def_cfa rsp+8 */
        0x41,               /* advance 1*4 = 4: 0x1000 -> 0x1004 */
        0x0e, 0x10,         /* def_cfa_offset 16 */
        0x7f,               /* advance 63*4 = 252 = 0xfc: 0x1004 -> 0x1100 */
        0x0e, 0x18,
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0x1000);
    assert_int_equal(run(insns, sizeof insns, &cie, &st, &err), 0);
    assert_int_equal(nrows, 2);
    ASSERT_ROW(0, 0x1000, 0x1004);
    ASSERT_CFA_REG(rows[0].cfa, 7, 8);
    ASSERT_ROW(1, 0x1004, 0x1100);
    ASSERT_CFA_REG(rows[1].cfa, 7, 16);
    assert_true(st.loc == 0x1100);
}

static void test_advance_loc_1_2_4(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x08,                 /* def_cfa rsp+8 */
        0x02, 0xff,                       /* advance_loc1 255: 0x1000 -> 0x10ff */
        0x0e, 0x10,
        0x03, 0x34, 0x12,                 /* advance_loc2 0x1234: 0x10ff -> 0x2333 */
        0x0e, 0x18,
        0x04, 0x78, 0x56, 0x34, 0x12,     /* advance_loc4 0x12345678: 0x2333 -> 0x123479ab */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0x1000);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 3);
    ASSERT_ROW(0, 0x1000, 0x10ff);
    ASSERT_CFA_REG(rows[0].cfa, 7, 8);
    ASSERT_ROW(1, 0x10ff, 0x2333);
    ASSERT_CFA_REG(rows[1].cfa, 7, 16);
    ASSERT_ROW(2, 0x2333, 0x123479ab);
    ASSERT_CFA_REG(rows[2].cfa, 7, 24);
    assert_true(st.loc == 0x123479ab);

    /* The same opcodes are factored by code_align. */
    struct cfa_cie_params cie4 = CIE;
    cie4.code_align = 4;
    static const uint8_t f[] = {
        0x02, 0x10,                       /* 0x10*4 = 0x40: 0x1000 -> 0x1040 */
        0x03, 0x00, 0x01,                 /* 0x100*4 = 0x400: 0x1040 -> 0x1440 */
        0x04, 0x01, 0x00, 0x00, 0x00,     /* 1*4: 0x1440 -> 0x1444 */
    };
    cfa_program_state_init(&st, 0x1000);
    assert_int_equal(run(f, sizeof f, &cie4, &st, &err), 0);
    assert_int_equal(nrows, 3);
    ASSERT_ROW(0, 0x1000, 0x1040);
    ASSERT_ROW(1, 0x1040, 0x1440);
    ASSERT_ROW(2, 0x1440, 0x1444);
}

static void test_set_loc_absptr(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x08,                                     /* def_cfa rsp+8 */
        0x01, 0x00, 0x10, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* set_loc 0x401000 */
        0x0e, 0x10,                                           /* def_cfa_offset 16 */
        0x01, 0x10, 0x10, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, /* set_loc 0x401010 */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0x400ff0);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 2);
    ASSERT_ROW(0, 0x400ff0, 0x401000);
    ASSERT_CFA_REG(rows[0].cfa, 7, 8);
    ASSERT_ROW(1, 0x401000, 0x401010);
    ASSERT_CFA_REG(rows[1].cfa, 7, 16);
    assert_true(st.loc == 0x401010);

    /* absptr follows addr_size: 4 bytes. */
    struct cfa_cie_params cie4 = CIE;
    cie4.addr_size = 4;
    static const uint8_t a4[] = {0x01, 0x78, 0x56, 0x34, 0x12, 0x41};
    cfa_program_state_init(&st, 0x1000);
    assert_int_equal(run(a4, sizeof a4, &cie4, &st, &err), 0);
    assert_int_equal(nrows, 2);
    ASSERT_ROW(0, 0x1000, 0x12345678);
    ASSERT_ROW(1, 0x12345678, 0x12345679);
}

static void test_set_loc_pcrel_sdata4(void **state)
{
    (void)state;
    struct cfa_cie_params cie = CIE;
    cie.fde_encoding = DW_EH_PE_pcrel | DW_EH_PE_sdata4;   /* 0x1b */
    cie.insns_addr = 0x2000;
    static const uint8_t insns[] = {
        0x00,                         /* 0: nop */
        0x01, 0x00, 0xff, 0xff, 0xff, /* 1: set_loc; operand at 2 = 0x2002, value -0x100
                                       *    -> 0x2002 - 0x100 = 0x1f02 */
        0x01, 0x10, 0x00, 0x00, 0x00, /* 6: set_loc; operand at 7 = 0x2007, value 0x10
                                       *    -> 0x2017 */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0x1000);
    assert_int_equal(run(insns, sizeof insns, &cie, &st, &err), 0);
    assert_int_equal(nrows, 2);
    ASSERT_ROW(0, 0x1000, 0x1f02);
    ASSERT_ROW(1, 0x1f02, 0x2017);
    assert_true(st.loc == 0x2017);
}

static void test_set_loc_bad_encoding(void **state)
{
    (void)state;
    struct cfi_state st;
    struct cfa_error err;
    static const uint8_t insns[] = {0x41, 0x01, 0x00, 0x00, 0x00, 0x00};

    /* Low nibble 5 is no DW_EH_PE format. */
    struct cfa_cie_params bad_format = CIE;
    bad_format.fde_encoding = 0x05;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(insns, sizeof insns, &bad_format, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 1);
    assert_true(st.loc == 1);

    /* datarel (0x30) is not something an FDE program can apply. */
    struct cfa_cie_params datarel = CIE;
    datarel.fde_encoding = 0x30 | DW_EH_PE_sdata4;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(insns, sizeof insns, &datarel, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 1);
}

/* ---- CFA rules ----------------------------------------------------------- */

static void test_def_cfa_family(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x80, 0x01,   /* 0: def_cfa rsp+128 */
        0x41,                     /* 4 */
        0x12, 0x06, 0x7e,         /* 5: def_cfa_sf rbp, -2 * -8 = +16 */
        0x41,                     /* 8 */
        0x12, 0x07, 0x02,         /* 9: def_cfa_sf rsp, 2 * -8 = -16 */
        0x41,                     /* 12 */
        0x0d, 0x06,               /* 13: def_cfa_register rbp: rbp-16 */
        0x41,                     /* 15 */
        0x0e, 0x20,               /* 16: def_cfa_offset 32 (unfactored): rbp+32 */
        0x41,                     /* 18 */
        0x13, 0x7a,               /* 19: def_cfa_offset_sf -6 * -8 = 48: rbp+48 */
        0x41,                     /* 21 */
        0x0f, 0x02, 0x77, 0x10,   /* 22: def_cfa_expression, 2 bytes at 24 */
        0x41,                     /* 26 */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 7);
    for (size_t i = 0; i < 7; i++)
        ASSERT_ROW(i, i, i + 1);
    ASSERT_CFA_REG(rows[0].cfa, 7, 128);
    ASSERT_CFA_REG(rows[1].cfa, 6, 16);
    ASSERT_CFA_REG(rows[2].cfa, 7, -16);
    ASSERT_CFA_REG(rows[3].cfa, 6, -16);
    ASSERT_CFA_REG(rows[4].cfa, 6, 32);
    ASSERT_CFA_REG(rows[5].cfa, 6, 48);
    ASSERT_CFA_EXPR(rows[6].cfa, insns + 24, 2);
}

/* Documented quirk: def_cfa_offset under an expression CFA only records the
 * offset; a later def_cfa_register returns to reg+offset with that offset. */
static void test_def_cfa_offset_under_expression(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x08,         /* 0: def_cfa rsp+8 */
        0x0f, 0x02, 0x77, 0x10,   /* 3: def_cfa_expression, 2 bytes at 5 */
        0x41,                     /* 7 */
        0x0e, 0x20,               /* 8: def_cfa_offset 32: expression stays */
        0x41,                     /* 10 */
        0x0d, 0x06,               /* 11: def_cfa_register rbp: rbp+32 */
        0x41,                     /* 13 */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 3);
    ASSERT_CFA_EXPR(rows[0].cfa, insns + 5, 2);
    ASSERT_CFA_EXPR(rows[1].cfa, insns + 5, 2);
    ASSERT_CFA_REG(rows[2].cfa, 6, 32);

    /* Without a def_cfa_offset in between, the pre-expression offset 8 comes back. */
    static const uint8_t back[] = {0x0c, 0x07, 0x08, 0x0f, 0x02, 0x77, 0x10, 0x0d, 0x06};
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(back, sizeof back, &CIE, &st, &err), 0);
    ASSERT_CFA_REG(st.cfa, 6, 8);

    /* def_cfa_offset_sf behaves the same: -2 * -8 = 16 is recorded, expression kept. */
    static const uint8_t sf[] = {
        0x0c, 0x07, 0x08,         /* 0 */
        0x0f, 0x02, 0x77, 0x10,   /* 3: expression at 5 */
        0x13, 0x7e,               /* 7: def_cfa_offset_sf 16 */
        0x41,                     /* 9: row with the expression */
        0x0d, 0x06,               /* 10: rbp+16 */
    };
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(sf, sizeof sf, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 1);
    ASSERT_CFA_EXPR(rows[0].cfa, sf + 5, 2);
    ASSERT_CFA_REG(st.cfa, 6, 16);
}

/* ---- register rules ------------------------------------------------------ */

static void test_register_rules_final_state(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x83, 0x01,                     /* 0: offset rbx, 1 * -8: c-8 */
        0x90, 0x02,                     /* 2: offset r16 (ra): c-16 */
        0x05, 0x0c, 0x03,               /* 4: offset_extended r12: c-24 */
        0x05, 0x11, 0x04,               /* 7: offset_extended r17 (xmm0): c-32 */
        0x11, 0x0d, 0x7e,               /* 10: offset_extended_sf r13: -2 * -8 = c+16 */
        0x14, 0x0e, 0x02,               /* 13: val_offset r14: v-16 */
        0x15, 0x0f, 0x7f,               /* 16: val_offset_sf r15: -1 * -8 = v+8 */
        0x09, 0x06, 0x0b,               /* 19: register rbp in r11 */
        0x10, 0x01, 0x02, 0x77, 0x08,   /* 22: expression rdx, 2 bytes at 25 */
        0x16, 0x02, 0x03, 0x77, 0x10, 0x06, /* 27: val_expression rcx, 3 bytes at 30 */
        0x07, 0x00,                     /* 33: undefined rax */
        0x08, 0x04,                     /* 35: same_value rsi */
        0x2f, 0x05, 0x02,               /* 37: GNU_negative_offset_extended rdi: -(2 * -8) = c+16 */
        0x2e, 0x80, 0x02,               /* 40: GNU_args_size 256 */
        0x00,                           /* 43: nop */
        0x05, 0x7f, 0x01,               /* 44: offset_extended r127 (last column): c-8 */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0x10);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 0);                       /* no advance, no row */
    assert_true(st.loc == 0x10);
    assert_int_equal(st.cfa.kind, CFA_RULE_UNSET);    /* nothing defined the CFA */

    ASSERT_RULE_OFF(st.col[3], REG_RULE_OFFSET, -8);
    ASSERT_RULE_OFF(st.col[16], REG_RULE_OFFSET, -16);
    ASSERT_RULE_OFF(st.col[12], REG_RULE_OFFSET, -24);
    ASSERT_RULE_OFF(st.col[17], REG_RULE_OFFSET, -32);
    ASSERT_RULE_OFF(st.col[13], REG_RULE_OFFSET, 16);
    ASSERT_RULE_OFF(st.col[14], REG_RULE_VAL_OFFSET, -16);
    ASSERT_RULE_OFF(st.col[15], REG_RULE_VAL_OFFSET, 8);
    assert_int_equal(st.col[6].kind, REG_RULE_REGISTER);
    assert_int_equal(st.col[6].reg, 11);
    ASSERT_RULE_EXPR(st.col[1], REG_RULE_EXPRESSION, insns + 25, 2);
    ASSERT_RULE_EXPR(st.col[2], REG_RULE_VAL_EXPRESSION, insns + 30, 3);
    ASSERT_RULE_KIND(st.col[0], REG_RULE_UNDEFINED);
    ASSERT_RULE_KIND(st.col[4], REG_RULE_SAME_VALUE);
    ASSERT_RULE_OFF(st.col[5], REG_RULE_OFFSET, 16);
    assert_true(st.args_size == 256);
    ASSERT_RULE_OFF(st.col[127], REG_RULE_OFFSET, -8);
    /* Columns nothing mentioned stay unreferenced. */
    ASSERT_RULE_KIND(st.col[7], REG_RULE_UNREFERENCED);
    ASSERT_RULE_KIND(st.col[8], REG_RULE_UNREFERENCED);
    ASSERT_RULE_KIND(st.col[126], REG_RULE_UNREFERENCED);
}

static void test_register_rules_data_align_4(void **state)
{
    (void)state;
    struct cfa_cie_params cie = CIE;
    cie.data_align = -4;
    static const uint8_t insns[] = {
        0x83, 0x03,         /* offset rbx: 3 * -4 = c-12 */
        0x11, 0x0c, 0x7f,   /* offset_extended_sf r12: -1 * -4 = c+4 */
        0x14, 0x0d, 0x05,   /* val_offset r13: 5 * -4 = v-20 */
        0x12, 0x07, 0x7e,   /* def_cfa_sf rsp: -2 * -4 = +8 */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(insns, sizeof insns, &cie, &st, &err), 0);
    ASSERT_RULE_OFF(st.col[3], REG_RULE_OFFSET, -12);
    ASSERT_RULE_OFF(st.col[12], REG_RULE_OFFSET, 4);
    ASSERT_RULE_OFF(st.col[13], REG_RULE_VAL_OFFSET, -20);
    ASSERT_CFA_REG(st.cfa, 7, 8);
}

static void test_register_rule_rows(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x83, 0x02,               /* 0: rbx c-16 */
        0x41,                     /* 2 */
        0x11, 0x03, 0x7c,         /* 3: offset_extended_sf rbx: -4 * -8 = c+32 */
        0x41,                     /* 6 */
        0x14, 0x03, 0x01,         /* 7: val_offset rbx v-8 */
        0x41,                     /* 10 */
        0x09, 0x03, 0x06,         /* 11: register rbx in rbp */
        0x41,                     /* 14 */
        0x07, 0x03,               /* 15: undefined rbx */
        0x41,                     /* 17 */
        0x08, 0x03,               /* 18: same_value rbx */
        0x41,                     /* 20 */
        0x10, 0x03, 0x01, 0x96,   /* 21: expression rbx, 1 byte (DW_OP_nop) at 24 */
        0x41,                     /* 25 */
        0x16, 0x03, 0x02, 0x77, 0x00, /* 26: val_expression rbx, 2 bytes at 29 */
        0x41,                     /* 31 */
    };
    struct cfi_state st;
    struct cfa_error err;
    watch = 3;
    cfa_program_state_init(&st, 0x40);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 8);
    for (size_t i = 0; i < 8; i++)
        ASSERT_ROW(i, 0x40 + i, 0x41 + i);
    ASSERT_RULE_OFF(rows[0].col, REG_RULE_OFFSET, -16);
    ASSERT_RULE_OFF(rows[1].col, REG_RULE_OFFSET, 32);
    ASSERT_RULE_OFF(rows[2].col, REG_RULE_VAL_OFFSET, -8);
    assert_int_equal(rows[3].col.kind, REG_RULE_REGISTER);
    assert_int_equal(rows[3].col.reg, 6);
    ASSERT_RULE_KIND(rows[4].col, REG_RULE_UNDEFINED);
    ASSERT_RULE_KIND(rows[5].col, REG_RULE_SAME_VALUE);
    ASSERT_RULE_EXPR(rows[6].col, REG_RULE_EXPRESSION, insns + 24, 1);
    ASSERT_RULE_EXPR(rows[7].col, REG_RULE_VAL_EXPRESSION, insns + 29, 2);
}

static void test_gnu_args_size_and_nop(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x2e, 0x10,         /* args_size 16 */
        0x41,
        0x00, 0x00,         /* nops change nothing */
        0x2e, 0x80, 0x02,   /* args_size 0x80 & 0x7f | 2 << 7 = 256 */
        0x41,
        0x00,
    };
    struct cfi_state st, before;
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    setup_rule(&st.cfa, CFA_RULE_REG_OFFSET, 7, 8);
    setup_rule(&st.col[3], REG_RULE_OFFSET, 0, -8);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 2);
    assert_true(rows[0].args_size == 16);
    assert_true(rows[1].args_size == 256);
    ASSERT_CFA_REG(rows[1].cfa, 7, 8);
    ASSERT_RULE_OFF(rows[1].col, REG_RULE_OFFSET, -8);

    /* A program of nops and advances only: every rule as it was. */
    static const uint8_t nops[] = {0x00, 0x00, 0x41, 0x00};
    cfa_program_state_init(&st, 0x20);
    setup_rule(&st.cfa, CFA_RULE_REG_OFFSET, 7, 8);
    setup_rule(&st.col[16], REG_RULE_OFFSET, 0, -8);
    st.args_size = 5;
    before = st;
    assert_int_equal(run(nops, sizeof nops, &CIE, &st, &err), 0);
    assert_int_equal(nrows, 1);
    ASSERT_ROW(0, 0x20, 0x21);
    assert_true(st.loc == 0x21);
    assert_state_same(&st, &before);
}

/* ---- restore ------------------------------------------------------------- */

static void test_restore_to_cie_rule(void **state)
{
    (void)state;
    struct cfi_state cie_state;
    cfa_program_state_init(&cie_state, 0);
    setup_rule(&cie_state.cfa, CFA_RULE_REG_OFFSET, 7, 8);
    setup_rule(&cie_state.col[16], REG_RULE_OFFSET, 0, -8);
    setup_rule(&cie_state.col[3], REG_RULE_SAME_VALUE, 0, 0);
    setup_rule(&cie_state.col[17], REG_RULE_UNDEFINED, 0, 0);

    static const uint8_t insns[] = {
        0x83, 0x03,         /* 0: rbx c-24 */
        0x41,               /* 2 */
        0xc3,               /* 3: restore rbx -> same_value (CIE) */
        0x41,               /* 4 */
        0x05, 0x03, 0x02,   /* 5: offset_extended rbx c-16 */
        0x41,               /* 8 */
        0x06, 0x03,         /* 9: restore_extended rbx -> same_value */
        0x41,               /* 11 */
        0x90, 0x03,         /* 12: ra c-24 */
        0x05, 0x11, 0x01,   /* 14: xmm0 c-8 */
        0x86, 0x02,         /* 17: rbp c-16 */
        0xd0,               /* 19: restore ra -> c-8 */
        0x06, 0x11,         /* 20: restore_extended xmm0 -> undefined */
        0xc6,               /* 22: restore rbp -> unreferenced (CIE had no rule) */
    };
    struct cfi_state st = cie_state;
    st.loc = 0x500;
    struct cfi_state stack[2];
    struct cfa_error err;
    watch = 3;
    assert_int_equal(run_full(insns, sizeof insns, &CIE, &cie_state, stack, 2, &st, &err), 0);
    assert_int_equal(nrows, 4);
    ASSERT_ROW(0, 0x500, 0x501);
    ASSERT_RULE_OFF(rows[0].col, REG_RULE_OFFSET, -24);
    ASSERT_ROW(1, 0x501, 0x502);
    ASSERT_RULE_KIND(rows[1].col, REG_RULE_SAME_VALUE);
    ASSERT_ROW(2, 0x502, 0x503);
    ASSERT_RULE_OFF(rows[2].col, REG_RULE_OFFSET, -16);
    ASSERT_ROW(3, 0x503, 0x504);
    ASSERT_RULE_KIND(rows[3].col, REG_RULE_SAME_VALUE);

    ASSERT_RULE_OFF(st.col[16], REG_RULE_OFFSET, -8);
    ASSERT_RULE_KIND(st.col[17], REG_RULE_UNDEFINED);
    ASSERT_RULE_KIND(st.col[6], REG_RULE_UNREFERENCED);
    ASSERT_CFA_REG(st.cfa, 7, 8);
}

static void test_restore_in_cie_is_noop(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x83, 0x01,         /* rbx c-8 */
        0xc3,               /* restore rbx: no CIE state, nothing changes */
        0x05, 0x11, 0x02,   /* xmm0 c-16 */
        0x06, 0x11,         /* restore_extended xmm0: nothing changes */
        0xc6,               /* restore rbp (never set): stays unreferenced */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), 0);
    ASSERT_RULE_OFF(st.col[3], REG_RULE_OFFSET, -8);
    ASSERT_RULE_OFF(st.col[17], REG_RULE_OFFSET, -16);
    ASSERT_RULE_KIND(st.col[6], REG_RULE_UNREFERENCED);
}

/* ---- remember_state / restore_state -------------------------------------- */

static void test_remember_restore_nested(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x08,   /* 0: def_cfa rsp+8 */
        0x0a,               /* 3: remember (A: rsp+8, rbx unreferenced) */
        0x0e, 0x10,         /* 4: rsp+16 */
        0x83, 0x02,         /* 6: rbx c-16 */
        0x41,               /* 8: row [0x100, 0x101) */
        0x0a,               /* 9: remember (B: rsp+16, rbx c-16) */
        0x0e, 0x20,         /* 10: rsp+32 */
        0x08, 0x03,         /* 12: rbx same_value */
        0x42,               /* 14: row [0x101, 0x103) */
        0x0b,               /* 15: restore B; the location stays 0x103 */
        0x41,               /* 16: row [0x103, 0x104) */
        0x0b,               /* 17: restore A */
        0x41,               /* 18: row [0x104, 0x105) */
    };
    struct cfi_state st;
    struct cfi_state stack[2];
    struct cfa_error err;
    watch = 3;
    cfa_program_state_init(&st, 0x100);
    assert_int_equal(run_full(insns, sizeof insns, &CIE, NULL, stack, 2, &st, &err), 0);
    assert_int_equal(nrows, 4);

    ASSERT_ROW(0, 0x100, 0x101);
    ASSERT_CFA_REG(rows[0].cfa, 7, 16);
    ASSERT_RULE_OFF(rows[0].col, REG_RULE_OFFSET, -16);

    ASSERT_ROW(1, 0x101, 0x103);
    ASSERT_CFA_REG(rows[1].cfa, 7, 32);
    ASSERT_RULE_KIND(rows[1].col, REG_RULE_SAME_VALUE);

    /* Restored rules, but not the remembered location 0x101. */
    ASSERT_ROW(2, 0x103, 0x104);
    ASSERT_CFA_REG(rows[2].cfa, 7, 16);
    ASSERT_RULE_OFF(rows[2].col, REG_RULE_OFFSET, -16);

    ASSERT_ROW(3, 0x104, 0x105);
    ASSERT_CFA_REG(rows[3].cfa, 7, 8);
    ASSERT_RULE_KIND(rows[3].col, REG_RULE_UNREFERENCED);
    assert_true(st.loc == 0x105);
}

/* ---- malformed input ----------------------------------------------------- */

static void test_error_unknown_opcode(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x08,   /* 0: def_cfa rsp+8 */
        0x41,               /* 3 */
        0x1c,               /* 4: DW_CFA_lo_user: unknown */
        0x0e, 0x10,         /* 5: never reached */
    };
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 4);
    assert_int_equal(nrows, 1);
    /* State before the failing instruction. */
    assert_true(st.loc == 1);
    ASSERT_CFA_REG(st.cfa, 7, 8);

    /* 0x3f (low range, no such opcode) at offset 0. */
    static const uint8_t op3f[] = {0x3f};
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(op3f, sizeof op3f, &CIE, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 0);
}

static void test_error_truncated(void **state)
{
    (void)state;
    /* def_cfa missing its offset, after a 2-byte def_cfa_offset. */
    static const uint8_t insns[] = {0x0e, 0x10, 0x0c, 0x07};
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(insns, sizeof insns, &CIE, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 2);
    assert_true(st.cfa.offset == 16);

    /* Each of these is one truncated instruction at offset 0. */
    static const struct { uint8_t b[6]; size_t n; } cases[] = {
        {{0x02}, 1},                         /* advance_loc1 without its byte */
        {{0x03, 0x01}, 2},                   /* advance_loc2 with 1 byte */
        {{0x04, 0x01, 0x02, 0x03}, 4},       /* advance_loc4 with 3 bytes */
        {{0x01, 0x00, 0x10, 0x40, 0x00}, 5}, /* set_loc absptr with 4 of 8 bytes */
        {{0x83}, 1},                         /* offset without its ULEB */
        {{0x83, 0x80}, 2},                   /* offset with an unterminated ULEB */
        {{0x05, 0x03}, 2},                   /* offset_extended without offset */
        {{0x05}, 1},                         /* offset_extended without register */
        {{0x11, 0x03, 0xff}, 3},             /* offset_extended_sf, unterminated SLEB */
        {{0x09, 0x03}, 2},                   /* register without second register */
        {{0x0c}, 1},                         /* def_cfa without anything */
        {{0x12, 0x07}, 2},                   /* def_cfa_sf without offset */
        {{0x0d}, 1},                         /* def_cfa_register */
        {{0x0e}, 1},                         /* def_cfa_offset */
        {{0x13, 0x80}, 2},                   /* def_cfa_offset_sf */
        {{0x0f, 0x05, 0x77, 0x08}, 4},       /* def_cfa_expression: 5 bytes promised, 2 there */
        {{0x10, 0x03, 0x03, 0x77}, 4},       /* expression: 3 promised, 1 there */
        {{0x16, 0x03}, 2},                   /* val_expression without length */
        {{0x14, 0x03}, 2},                   /* val_offset */
        {{0x07}, 1},                         /* undefined */
        {{0x2e}, 1},                         /* GNU_args_size */
        {{0x2f, 0x05}, 2},                   /* GNU_negative_offset_extended */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cfa_program_state_init(&st, 0);
        assert_int_equal(run(cases[i].b, cases[i].n, &CIE, &st, &err), -1);
        assert_non_null(err.reason);
        assert_int_equal(err.offset, 0);
        assert_int_equal(nrows, 0);
    }
}

static void test_error_register_out_of_range(void **state)
{
    (void)state;
    /* Each case follows a valid 2-byte def_cfa_offset 8, so err.offset is 2. */
    static const struct { uint8_t b[8]; size_t n; } cases[] = {
        {{0x0e, 0x08, 0x05, 0x80, 0x01, 0x02}, 6},  /* offset_extended r128 */
        {{0x0e, 0x08, 0x11, 0x80, 0x01, 0x7f}, 6},  /* offset_extended_sf r128 */
        {{0x0e, 0x08, 0x14, 0xc8, 0x01, 0x01}, 6},  /* val_offset r200 */
        {{0x0e, 0x08, 0x0c, 0x80, 0x01, 0x08}, 6},  /* def_cfa r128 */
        {{0x0e, 0x08, 0x12, 0x80, 0x01, 0x01}, 6},  /* def_cfa_sf r128 */
        {{0x0e, 0x08, 0x0d, 0x80, 0x01}, 5},        /* def_cfa_register r128 */
        {{0x0e, 0x08, 0x09, 0x03, 0x80, 0x01}, 6},  /* register rbx in r128 */
        {{0x0e, 0x08, 0x09, 0x80, 0x01, 0x03}, 6},  /* register r128 in rbx */
        {{0x0e, 0x08, 0x07, 0x80, 0x01}, 5},        /* undefined r128 */
        {{0x0e, 0x08, 0x08, 0xff, 0x01}, 5},        /* same_value r255 */
        {{0x0e, 0x08, 0x06, 0x80, 0x01}, 5},        /* restore_extended r128 */
        {{0x0e, 0x08, 0x10, 0x80, 0x01, 0x00}, 6},  /* expression r128 */
        {{0x0e, 0x08, 0x16, 0x80, 0x01, 0x00}, 6},  /* val_expression r128 */
        {{0x0e, 0x08, 0x2f, 0x80, 0x01, 0x01}, 6},  /* GNU_negative_offset_extended r128 */
    };
    struct cfi_state st;
    struct cfa_error err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cfa_program_state_init(&st, 0);
        assert_int_equal(run(cases[i].b, cases[i].n, &CIE, &st, &err), -1);
        assert_non_null(err.reason);
        assert_int_equal(err.offset, 2);
        assert_true(st.cfa.offset == 8);       /* the first instruction did run */
    }
    /* 127 is the last valid column. */
    static const uint8_t ok[] = {0x05, 0x7f, 0x01, 0x07, 0x7f};
    cfa_program_state_init(&st, 0);
    assert_int_equal(run(ok, 3, &CIE, &st, &err), 0);
    ASSERT_RULE_OFF(st.col[127], REG_RULE_OFFSET, -8);
    assert_int_equal(run(ok, sizeof ok, &CIE, &st, &err), 0);
    ASSERT_RULE_KIND(st.col[127], REG_RULE_UNDEFINED);
}

static void test_error_restore_state_empty(void **state)
{
    (void)state;
    static const uint8_t insns[] = {0x0e, 0x10, 0x0b};
    struct cfi_state st;
    struct cfi_state stack[2];
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run_full(insns, sizeof insns, &CIE, NULL, stack, 2, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 2);
    assert_true(st.cfa.offset == 16);

    /* One remember, two restores: the second fails at offset 2. */
    static const uint8_t twice[] = {0x0a, 0x0b, 0x0b};
    cfa_program_state_init(&st, 0);
    assert_int_equal(run_full(twice, sizeof twice, &CIE, NULL, stack, 2, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 2);
}

static void test_error_remember_state_overflow(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0a,           /* 0: remember (1 of 1) */
        0x0e, 0x10,     /* 1: rsp... offset 16 */
        0x0a,           /* 3: remember: no room */
    };
    struct cfi_state st;
    struct cfi_state stack[1];
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    assert_int_equal(run_full(insns, sizeof insns, &CIE, NULL, stack, 1, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 3);
    assert_true(st.cfa.offset == 16);

    /* No stack at all: the first remember fails. */
    cfa_program_state_init(&st, 0);
    assert_int_equal(run_full(insns, sizeof insns, &CIE, NULL, NULL, 0, &st, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 0);

    /* Exactly stack_cap deep is fine: two remembers, two restores with cap 2. */
    static const uint8_t two[] = {0x0a, 0x0a, 0x0b, 0x0b};
    struct cfi_state stack2[2];
    cfa_program_state_init(&st, 0);
    assert_int_equal(run_full(two, sizeof two, &CIE, NULL, stack2, 2, &st, &err), 0);
}

/* 64 blocks of (remember; def_cfa_offset 16 + 8 k; rbx and xmm0 (17) at
 * c-8(k+1)), then RESTORES restore_states; or 65 remembers when TOO_DEEP. */
static size_t deep_program(uint8_t *p, unsigned restores, int too_deep)
{
    size_t n = 0;
    for (unsigned k = 0; k < UNWIND_REMEMBER_DEPTH; k++) {
        p[n++] = 0x0a;
        p[n++] = 0x0e;
        p[n++] = (uint8_t)(16 + 8 * k) | 0x80;   /* ULEB128, two bytes */
        p[n++] = (uint8_t)((16 + 8 * k) >> 7);
        p[n++] = 0x80 | 3;
        p[n++] = (uint8_t)(k + 1);
        p[n++] = 0x80 | 17;
        p[n++] = (uint8_t)(k + 1);
    }
    if (too_deep)
        p[n++] = 0x0a;
    for (unsigned k = 0; k < restores; k++)
        p[n++] = 0x0b;
    return n;
}

static int run_deep(const uint8_t *insns, size_t len, int saved_rows, struct cfi_state *st,
                    struct cfa_error *err)
{
    static struct cfi_state full[UNWIND_REMEMBER_DEPTH];
    static struct cfi_saved_row saved[UNWIND_REMEMBER_DEPTH];
    struct cfa_program prog = {
        .insns = insns, .len = len, .cie = &CIE,
        .stack = saved_rows ? NULL : full, .saved = saved_rows ? saved : NULL,
        .stack_cap = UNWIND_REMEMBER_DEPTH,
    };
    cfa_program_state_init(st, 0);
    st->cfa.kind = CFA_RULE_REG_OFFSET;
    st->cfa.reg = 7;
    st->cfa.offset = 8;
    err->reason = NULL;
    return cfa_program_run(&prog, st, err);
}

/* The runtime's smaller remembered states (cfi_saved_row) accept the same
 * nesting as full ones and restore the CFA and the 17 columns exactly. */
static void test_remember_saved_rows(void **state)
{
    (void)state;
    static uint8_t insns[UNWIND_REMEMBER_DEPTH * 8 + UNWIND_REMEMBER_DEPTH + 1];
    struct cfi_state full, small;
    struct cfa_error err;
    for (unsigned restores = 0; restores <= UNWIND_REMEMBER_DEPTH; restores++) {
        size_t len = deep_program(insns, restores, 0);
        assert_int_equal(run_deep(insns, len, 0, &full, &err), 0);
        assert_int_equal(run_deep(insns, len, 1, &small, &err), 0);
        assert_rules_same(&full.cfa, &small.cfa);
        for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
            assert_rules_same(&full.col[c], &small.col[c]);
        /* The level left: its offset, and rbx as that level saved it. */
        unsigned level = UNWIND_REMEMBER_DEPTH - restores;
        assert_true(small.cfa.offset == (level ? 16 + 8 * (int64_t)(level - 1) : 8));
        assert_int_equal(small.col[3].kind, level ? REG_RULE_OFFSET : REG_RULE_UNREFERENCED);
        /* A column past the 17 keeps its last rule with saved rows. */
        assert_int_equal(small.col[17].kind, REG_RULE_OFFSET);
        assert_true(small.col[17].offset == -8 * (int64_t)UNWIND_REMEMBER_DEPTH);
    }
    /* One more remember is too deep for both, at the same instruction. */
    size_t len = deep_program(insns, 0, 1);
    assert_int_equal(run_deep(insns, len, 0, &full, &err), -1);
    size_t offset = err.offset;
    assert_non_null(err.reason);
    assert_int_equal(run_deep(insns, len, 1, &small, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, offset);
    assert_int_equal(offset, len - 1);
}

static void test_callback_stops_program(void **state)
{
    (void)state;
    static const uint8_t insns[] = {0x41, 0x41, 0x41, 0x41};
    struct cfi_state st;
    struct cfa_error err;
    cfa_program_state_init(&st, 0);
    stop_after = 2;
    int rc = run(insns, sizeof insns, &CIE, &st, &err);
    stop_after = 0;
    assert_int_equal(rc, 7);
    assert_int_equal(nrows, 2);

    /* Without a callback the program still runs to the end. */
    struct cfa_program prog = {
        .insns = insns, .len = sizeof insns, .cie = &CIE, .cie_state = NULL,
        .stack = NULL, .stack_cap = 0, .on_row = NULL, .arg = NULL,
    };
    cfa_program_state_init(&st, 0x10);
    assert_int_equal(cfa_program_run(&prog, &st, &err), 0);
    assert_true(st.loc == 0x14);
}

/* ---- cfa_program_columns ------------------------------------------------- */

static void test_columns_mask(void **state)
{
    (void)state;
    static const uint8_t insns[] = {
        0x0c, 0x07, 0x08,               /* def_cfa rsp: not a column */
        0x0d, 0x05,                     /* def_cfa_register rdi: not a column */
        0x83, 0x01,                     /* rbx (3) */
        0x05, 0x11, 0x02,               /* xmm0 (17) */
        0x10, 0x7f, 0x02, 0x77, 0x08,   /* expression on 127 */
        0x09, 0x10, 0x06,               /* register: ra (16) in rbp */
        0x07, 0x40,                     /* undefined 64 */
        0xc6,                           /* restore rbp (6) */
        0x41,                           /* advance */
        0x0e, 0x10,                     /* def_cfa_offset */
        0x0b,                           /* restore_state: not evaluated, so no error */
    };
    uint64_t mask[UNWIND_MAX_COLUMNS / 64] = {0, 0};
    struct cfa_error err = {NULL, 0};
    assert_int_equal(cfa_program_columns(insns, sizeof insns, &CIE, mask, &err), 0);
    /* bits 3, 6, 16, 17: 0x8 | 0x40 | 0x10000 | 0x20000 */
    assert_true(mask[0] == 0x30048);
    /* bit 0 (column 64) and bit 63 (column 127) */
    assert_true(mask[1] == 0x8000000000000001ULL);

    /* Bad bytes: -1 and the failing offset. */
    static const uint8_t bad[] = {0x83, 0x01, 0x1c};
    uint64_t m2[UNWIND_MAX_COLUMNS / 64] = {0, 0};
    assert_int_equal(cfa_program_columns(bad, sizeof bad, &CIE, m2, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 2);

    static const uint8_t range[] = {0x07, 0x80, 0x01};
    err.reason = NULL;
    assert_int_equal(cfa_program_columns(range, sizeof range, &CIE, m2, &err), -1);
    assert_non_null(err.reason);
    assert_int_equal(err.offset, 0);
}

static void test_state_init(void **state)
{
    (void)state;
    struct cfi_state st;
    memset(&st, 0xa5, sizeof st);
    cfa_program_state_init(&st, 0x1234);
    assert_true(st.loc == 0x1234);
    assert_int_equal(st.cfa.kind, CFA_RULE_UNSET);
    assert_true(st.args_size == 0);
    for (unsigned i = 0; i < UNWIND_MAX_COLUMNS; i++) {
        assert_int_equal(st.col[i].kind, REG_RULE_UNREFERENCED);
        assert_null(st.col[i].expr);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_state_init),
        cmocka_unit_test(test_advance_loc_code_align_1),
        cmocka_unit_test(test_advance_loc_code_align_4),
        cmocka_unit_test(test_advance_loc_1_2_4),
        cmocka_unit_test(test_set_loc_absptr),
        cmocka_unit_test(test_set_loc_pcrel_sdata4),
        cmocka_unit_test(test_set_loc_bad_encoding),
        cmocka_unit_test(test_def_cfa_family),
        cmocka_unit_test(test_def_cfa_offset_under_expression),
        cmocka_unit_test(test_register_rules_final_state),
        cmocka_unit_test(test_register_rules_data_align_4),
        cmocka_unit_test(test_register_rule_rows),
        cmocka_unit_test(test_gnu_args_size_and_nop),
        cmocka_unit_test(test_restore_to_cie_rule),
        cmocka_unit_test(test_restore_in_cie_is_noop),
        cmocka_unit_test(test_remember_restore_nested),
        cmocka_unit_test(test_error_unknown_opcode),
        cmocka_unit_test(test_error_truncated),
        cmocka_unit_test(test_error_register_out_of_range),
        cmocka_unit_test(test_error_restore_state_empty),
        cmocka_unit_test(test_error_remember_state_overflow),
        cmocka_unit_test(test_remember_saved_rows),
        cmocka_unit_test(test_callback_stops_program),
        cmocka_unit_test(test_columns_mask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
