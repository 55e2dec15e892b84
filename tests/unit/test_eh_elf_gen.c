/*
 * Unit tests for compile/eh_elf_gen: a row becomes C that compiles and
 * steps as the interpreter does.
 *
 * Tables are written by hand, one row per case: every rule kind of a
 * column (offset, val_offset, register, undefined, same value, expression,
 * val_expression), the CFA by register and by expression, and an
 * expression for every arithmetic operation of dwarf_ops.h (as the CFA and
 * as a register's value), for the stack operations and for branches.  The
 * C eh_elf_generate writes is compiled with the system's cc, loaded, and
 * its dwu_eh_elf_step run on random registers (small ones too, for shifts
 * and divisions, and the extremes) over synthetic memory; the runtime's
 * interpreter of the same row (dwu_dwarf_apply_rules) must give the same status,
 * registers, validity bits and flags every time.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "compile/eh_elf_gen.h"
#include "runtime/identity.h"
#include "runtime/dwarf_fallback.h"
#include "runtime/dwunwind.h"
#include "tests/unwind/synthetic_memory.h"
#include "semantics/abi.h"
#include "semantics/dwarf_constants.h"
#include "semantics/dwarf_ops.h"
#include "semantics/unwind_table.h"

#define ROW_BYTES 16
#define MAX_ROWS 128
#define TRIALS 400


static struct unwind_table table;
static uint8_t exprs[MAX_ROWS][24];
static size_t nrows;

/* A new row of the table, with CFA = rsp + 16 and ra at CFA - 8. */
static struct unwind_row *row(void)
{
    assert_true(nrows < MAX_ROWS);
    uint64_t start = 0x1000 + nrows * ROW_BYTES;
    struct unwind_row *r = unwind_table_append(&table, start, start + ROW_BYTES);
    assert_non_null(r);
    r->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = 16};
    r->reg[ABI_RA] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -8};
    nrows++;
    return r;
}

/* An expression of the row being made: LEN bytes. */
static const uint8_t *expr(const uint8_t *bytes, uint32_t len)
{
    assert_true(len <= sizeof exprs[0]);
    memcpy(exprs[nrows - 1], bytes, len);
    return exprs[nrows - 1];
}

static void build_rows(void)
{
    unwind_table_init(&table, 0x1000, 0x1000 + MAX_ROWS * ROW_BYTES);
    nrows = 0;
    /* Each column rule kind, on rbx, and the outermost frame. */
    row()->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -16};
    row()->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_VAL_OFFSET, .offset = 24};
    row()->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_REGISTER, .reg = ABI_R12};
    row()->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_UNDEFINED};
    row()->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_SAME_VALUE};
    row()->reg[ABI_RA] = (struct unwind_rule){.kind = REG_RULE_UNDEFINED};
    /* A frame pointer; a save read through an expression, 8 and 4 bytes. */
    struct unwind_row *r = row();
    r->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RBP, .offset = 16};
    r->reg[ABI_RBP] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -16};
    static const uint8_t at_rsp[] = {DW_OP_breg0 + ABI_RSP, 8};
    r = row();
    r->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_EXPRESSION, .expr = expr(at_rsp, 2), .expr_len = 2};
    static const uint8_t four[] = {DW_OP_breg0 + ABI_RSP, 0, DW_OP_deref_size, 4};
    r = row();
    r->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_VAL_EXPRESSION, .expr = expr(four, 4), .expr_len = 4};
    /* Every arithmetic operation: as the CFA (rsp OP rbx, then + 16 so
     * that small values stay addresses), and as r12's value (r13 OP r14). */
#define BINARY_ROWS(op, name, c)                                                                     \
    {                                                                                                \
        static const uint8_t cfa[] = {DW_OP_breg0 + ABI_RSP, 0, DW_OP_breg0 + ABI_RBX, 0, op,         \
                                      DW_OP_plus_uconst, 16};                                        \
        static const uint8_t val[] = {DW_OP_breg0 + ABI_R13, 0, DW_OP_breg0 + ABI_R14, 0, op};        \
        r = row();                                                                                   \
        r->cfa = (struct unwind_rule){.kind = CFA_RULE_EXPRESSION, .expr = expr(cfa, sizeof cfa),    \
                                      .expr_len = sizeof cfa};                                       \
        r = row();                                                                                   \
        r->reg[ABI_R12] = (struct unwind_rule){.kind = REG_RULE_VAL_EXPRESSION,                      \
                                               .expr = expr(val, sizeof val), .expr_len = sizeof val}; \
    }
    DWARF_BINARY_FUNCTIONS(BINARY_ROWS)
#undef BINARY_ROWS
#define UNARY_ROWS(op, name, c)                                                                      \
    {                                                                                                \
        static const uint8_t val[] = {DW_OP_breg0 + ABI_R13, 0, op};                                  \
        r = row();                                                                                   \
        r->reg[ABI_R12] = (struct unwind_rule){.kind = REG_RULE_VAL_EXPRESSION,                      \
                                               .expr = expr(val, sizeof val), .expr_len = sizeof val}; \
    }
    DWARF_UNARY_FUNCTIONS(UNARY_ROWS)
#undef UNARY_ROWS
    /* The stack operations and branches: r12 from r13, r14 and r15,
     * rearranged so that every order gives a different value. */
    static const struct {
        uint8_t len, bytes[24];
    } stack_ops[] = {
        {6, {DW_OP_breg0 + ABI_R13, 0, DW_OP_breg0 + ABI_R14, 0, DW_OP_swap, DW_OP_minus}},
        {7, {DW_OP_breg0 + ABI_R13, 0, DW_OP_breg0 + ABI_R14, 0, DW_OP_over, DW_OP_minus, DW_OP_minus}},
        {8, {DW_OP_breg0 + ABI_R13, 0, DW_OP_breg0 + ABI_R14, 0, DW_OP_breg0 + ABI_R15, 0, DW_OP_rot,
             DW_OP_minus}},
        {8, {DW_OP_breg0 + ABI_R13, 0, DW_OP_breg0 + ABI_R14, 0, DW_OP_pick, 1, DW_OP_minus, DW_OP_plus}},
        {6, {DW_OP_breg0 + ABI_R13, 0, DW_OP_dup, DW_OP_lit3, DW_OP_shl, DW_OP_minus}},
        {8, {DW_OP_breg0 + ABI_R13, 0, DW_OP_breg0 + ABI_R14, 0, DW_OP_drop, DW_OP_const1s, 0xf0, DW_OP_plus}},
        /* r13 & 1 ? r14 : r15 (bra to offset 12, skip to the end) */
        {14, {DW_OP_breg0 + ABI_R13, 0, DW_OP_lit1, DW_OP_and, DW_OP_bra, 5, 0, DW_OP_breg0 + ABI_R15, 0,
              DW_OP_skip, 2, 0, DW_OP_breg0 + ABI_R14, 0}},
        /* a loop: r14 + 5 * (r13 & 7), DW_OP_skip back to the loop's head */
        {23, {DW_OP_breg0 + ABI_R14, 0, DW_OP_breg0 + ABI_R13, 0, DW_OP_lit7, DW_OP_and,
              DW_OP_dup, DW_OP_bra, 3, 0, DW_OP_skip, 9, 0,                 /* 6: head; 10: to the end */
              DW_OP_lit1, DW_OP_minus, DW_OP_swap, DW_OP_plus_uconst, 5, DW_OP_swap,
              DW_OP_skip, 0xf0, 0xff,                                         /* 19: back to 6 */
              DW_OP_drop}},                                                   /* 22 */
    };
    for (size_t i = 0; i < sizeof stack_ops / sizeof stack_ops[0]; i++) {
        r = row();
        r->reg[ABI_R12] = (struct unwind_rule){.kind = REG_RULE_VAL_EXPRESSION,
                                               .expr = expr(stack_ops[i].bytes, stack_ops[i].len),
                                               .expr_len = stack_ops[i].len};
    }
}

/* Registers for a trial: random, then small or extreme in some trials. */
static void trial_registers(struct dwu_regs *in, uint64_t pc, unsigned t)
{
    in->valid = (1u << DWU_NREGS) - 1;
    in->flags = 0;
    for (unsigned r = 0; r < DWU_NREGS; r++) {
        uint64_t v = mix(t * 131u + r);
        switch (t % 4) {
        case 1: v &= 0x7f; break;                                     /* shifts, small divisors */
        case 2: v = (v & 1) ? (uint64_t)INT64_MIN : (uint64_t)-1; break;
        case 3: v = v & 3 ? v : 0; break;
        default: break;
        }
        in->r[r] = v;
    }
    in->r[DWU_RSP] = 0x7ff000000000ull + (mix(t) & 0xffff0);
    in->r[DWU_RBP] = 0x7ff000100000ull + (mix(t + 7) & 0xffff0);
    in->r[DWU_RIP] = pc;
}

static void test_rows_step_as_interpreted(void **state)
{
    (void)state;
    build_rows();
    /* Beside this program (the build's tests/), not in a shared directory. */
    char dir[4200], c_path[4300], so_path[4300], cmd[8800];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 32);
    assert_true(n > 0);
    dir[n] = '\0';
    strcpy(strrchr(dir, '/'), "/eh_elf_gen.XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(c_path, sizeof c_path, "%s/t.c", dir);
    snprintf(so_path, sizeof so_path, "%s/t.so", dir);
    FILE *out = fopen(c_path, "w");
    assert_non_null(out);
    const struct unwind_table *tables[] = {&table};
    struct dwu_identity id = {0};
    struct eh_elf_stats stats;
    char err[256];
    assert_int_equal(eh_elf_generate(out, tables, NULL, 1, "test", &id, &stats, err, sizeof err), 0);
    assert_int_equal(fclose(out), 0);
    assert_int_equal(stats.rows, nrows);
    assert_null(strchr(dir, '\''));   /* quoted for the shell below */
    snprintf(cmd, sizeof cmd, "cc -O1 -shared -fPIC -Wall -Werror -o '%s' '%s'", so_path, c_path);
    assert_int_equal(system(cmd), 0);
    void *h = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(h);
    dwu_eh_elf_step_fn step = (dwu_eh_elf_step_fn)(uintptr_t)dlsym(h, DWU_EH_ELF_STEP);
    assert_non_null(step);
    struct dwu_memory mem = {synthetic_read, NULL};
    long compared = 0, differ = 0, ok = 0;
    for (size_t i = 0; i < nrows; i++) {
        const struct unwind_row *r = &table.rows[i];
        for (unsigned t = 0; t < TRIALS; t++) {
            uint64_t pc = r->start + t % ROW_BYTES;
            struct dwu_regs in, compiled, interpreted;
            trial_registers(&in, pc, (unsigned)(i * TRIALS + t));
            memset(&compiled, 0, sizeof compiled);
            memset(&interpreted, 0, sizeof interpreted);
            int a = step(pc, &in, &compiled, &mem);
            int b = dwu_dwarf_apply_rules(&r->cfa, r->reg, 0, &in, &interpreted, &mem);
            int same = a == b;
            if (same && a == DWU_OK) {
                ok++;
                same = compiled.valid == interpreted.valid && compiled.flags == interpreted.flags;
                for (unsigned k = 0; same && k < DWU_NREGS; k++)
                    if (compiled.valid & (1u << k))
                        same = compiled.r[k] == interpreted.r[k];
            }
            compared++;
            if (!same && differ++ < 10)
                print_error("row %zu at 0x%llx: compiled status %d, interpreted %d%s\n", i,
                            (unsigned long long)pc, a, b, a == b ? " (registers differ)" : "");
        }
    }
    print_message("%zu rows, %zu bodies, %zu expressions: %ld steps compared, %ld ok, %ld differ\n", nrows,
                  stats.bodies, stats.expressions, compared, ok, differ);
    dlclose(h);
    assert_int_equal(unlink(so_path), 0);
    assert_int_equal(unlink(c_path), 0);
    assert_int_equal(rmdir(dir), 0);
    unwind_table_release(&table);
    assert_int_equal(differ, 0);
    assert_true(ok > compared / 4);   /* most steps succeed: the comparison is of values */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_step_as_interpreted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
