/*
 * Unit tests for dwsynth annotate's planning: cfi_plan (which directives go
 * after which line, remember/restore around early exits, what is reported
 * as inexact or refused), cfi_text (the directives' spelling) and the row
 * synthesis gives a realigned frame with a DRAP register (the CFA by the
 * DRAP slot once it is saved, so that call sites unwind).
 *
 * Rows and places are written by hand; every expected directive is derived
 * by hand from them.  Places: after line L, at address A.  Instructions: at
 * their address, with a row from the table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/cfi_plan.h"
#include "semantics/print/cfi_text.h"
#include "semantics/abi.h"
#include "synth/abstract_state.h"
#include "synth/synthesize.h"

/* ---- building tables ----------------------------------------------------- */

/* A row with CFA = REG + CFA_OFF, ra at c-8, and rbx saved at RBX_OFF (0: not). */
static void add_row(struct unwind_table *t, uint64_t start, uint64_t end, unsigned reg, int64_t cfa_off,
                    int64_t rbx_off)
{
    struct unwind_row *r = unwind_table_append(t, start, end);
    assert_non_null(r);
    r->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = (uint16_t)reg, .offset = cfa_off};
    r->reg[ABI_RA] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -8};
    if (rbx_off)
        r->reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = rbx_off};
}

static struct plan_point point(size_t line, uint64_t addr)
{
    return (struct plan_point){.line = line, .addr = addr, .style = CFI_REGS_PERCENT, .eol = "\n"};
}

static struct plan_insn insn(uint64_t addr, uint8_t len, uint8_t flow)
{
    return (struct plan_insn){addr, len, flow, 1};
}

/* The text planned after LINE, or "" (all of them, concatenated). */
static const char *text_after(const struct cfi_plan *p, size_t line)
{
    static char buf[1024];
    buf[0] = '\0';
    for (size_t i = 0; i < p->ntexts; i++)
        if (p->texts[i].after_line == line)
            strncat(buf, p->texts[i].text, sizeof buf - strlen(buf) - 1);
    return buf;
}

static int has_note(const struct cfi_plan *p, const char *part)
{
    for (size_t i = 0; i < p->nnotes; i++)
        if (strstr(p->notes[i], part))
            return 1;
    return 0;
}

/* ---- cfi_plan ---------------------------------------------------------------- */

/*
 *  1 f:               0x10
 *  2   push %rbx      0x10 (1)   -> CFA rsp+16, rbx c-16
 *  3   call g         0x11 (5)
 *  4   pop %rbx       0x16 (1)   -> CFA rsp+8
 *  5   ret            0x17 (1)
 */
static void linear_push_pop(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0x10, 0x18);
    add_row(&t, 0x10, 0x11, ABI_RSP, 8, 0);
    add_row(&t, 0x11, 0x17, ABI_RSP, 16, -16);
    add_row(&t, 0x17, 0x18, ABI_RSP, 8, -16);
    struct plan_point pts[] = {point(1, 0x10), point(2, 0x11), point(3, 0x16), point(4, 0x17), point(5, 0x18)};
    struct plan_insn ins[] = {insn(0x10, 1, IR_FLOW_NEXT), insn(0x11, 5, IR_FLOW_CALL),
                              insn(0x16, 1, IR_FLOW_NEXT), insn(0x17, 1, IR_FLOW_RET)};
    struct cfi_plan p;
    assert_int_equal(cfi_plan_build(&p, pts, 5, ins, 4, &t), 0);
    assert_int_equal(p.verdict, PLAN_EXACT);
    assert_string_equal(text_after(&p, 1), "\t.cfi_startproc\n");
    assert_string_equal(text_after(&p, 2), "\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbx, -16\n");
    assert_string_equal(text_after(&p, 3), "");
    assert_string_equal(text_after(&p, 4), "\t.cfi_def_cfa_offset 8\n");
    assert_string_equal(text_after(&p, 5), "\t.cfi_endproc\n");
    assert_int_equal(p.changes, 2);
    assert_int_equal(p.remembered, 0);
    cfi_plan_release(&p);
    unwind_table_release(&t);
}

/*
 *  1 f:               0x0
 *  2   push %rbx      0x0 (1)    -> rsp+16
 *  3   je 1f          0x1 (2)
 *  4   pop %rbx       0x3 (1)    -> rsp+8     (remember first)
 *  5   ret            0x4 (1)
 *  6 1:               0x5
 *  7   call g         0x5 (5)                 (restore: after the label)
 *  8   pop %rbx       0xa (1)    -> rsp+8
 *  9   ret            0xb (1)
 */
static void early_exit_remembers(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0, 0xc);
    add_row(&t, 0x0, 0x1, ABI_RSP, 8, 0);
    add_row(&t, 0x1, 0x4, ABI_RSP, 16, -16);
    add_row(&t, 0x4, 0x5, ABI_RSP, 8, -16);
    add_row(&t, 0x5, 0xb, ABI_RSP, 16, -16);
    add_row(&t, 0xb, 0xc, ABI_RSP, 8, -16);
    struct plan_point pts[] = {point(1, 0), point(2, 1), point(3, 3), point(4, 4), point(5, 5),
                               point(6, 5), point(7, 0xa), point(8, 0xb), point(9, 0xc)};
    struct plan_insn ins[] = {insn(0, 1, IR_FLOW_NEXT), insn(1, 2, IR_FLOW_COND), insn(3, 1, IR_FLOW_NEXT),
                              insn(4, 1, IR_FLOW_RET), insn(5, 5, IR_FLOW_CALL), insn(0xa, 1, IR_FLOW_NEXT),
                              insn(0xb, 1, IR_FLOW_RET)};
    struct cfi_plan p;
    assert_int_equal(cfi_plan_build(&p, pts, 9, ins, 7, &t), 0);
    assert_int_equal(p.verdict, PLAN_EXACT);
    assert_string_equal(text_after(&p, 4), "\t.cfi_remember_state\n\t.cfi_def_cfa_offset 8\n");
    assert_string_equal(text_after(&p, 5), "");
    assert_string_equal(text_after(&p, 6), "\t.cfi_restore_state\n");
    assert_string_equal(text_after(&p, 8), "\t.cfi_def_cfa_offset 8\n");
    assert_int_equal(p.remembered, 1);
    cfi_plan_release(&p);
    unwind_table_release(&t);
}

/* A line of two pushes (a macro): the second push's row differs from the
 * first's, inside the line: inexact, and reported at that line. */
static void change_inside_a_line(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0, 3);
    add_row(&t, 0, 1, ABI_RSP, 8, 0);
    add_row(&t, 1, 2, ABI_RSP, 16, -16);
    add_row(&t, 2, 3, ABI_RSP, 24, -16);
    struct plan_point pts[] = {point(1, 0), point(2, 2), point(3, 3)};
    struct plan_insn ins[] = {insn(0, 1, IR_FLOW_NEXT), insn(1, 1, IR_FLOW_NEXT), insn(2, 1, IR_FLOW_RET)};
    struct cfi_plan p;
    assert_int_equal(cfi_plan_build(&p, pts, 3, ins, 3, &t), 0);
    assert_int_equal(p.verdict, PLAN_INEXACT);
    assert_true(has_note(&p, "line 2: the frame changes inside the line (at 0x1)"));
    /* Exact at the line's end all the same. */
    assert_string_equal(text_after(&p, 2), "\t.cfi_def_cfa_offset 24\n\t.cfi_offset %rbx, -16\n");
    cfi_plan_release(&p);
    unwind_table_release(&t);
}

/* An unknown CFA where code is reached refuses the plan; where it is not
 * (after a call that never returns), the row does not matter. */
static void unknown_cfa(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0, 3);
    add_row(&t, 0, 1, ABI_RSP, 8, 0);
    struct unwind_row *r = unwind_table_append(&t, 1, 3);
    r->cfa.kind = CFA_RULE_UNKNOWN;
    struct plan_point pts[] = {point(1, 0), point(2, 1), point(3, 2), point(4, 3)};
    struct plan_insn ins[] = {insn(0, 1, IR_FLOW_CALL), insn(1, 1, IR_FLOW_NEXT), insn(2, 1, IR_FLOW_RET)};
    struct cfi_plan p;
    assert_int_equal(cfi_plan_build(&p, pts, 4, ins, 3, &t), 0);
    assert_int_equal(p.verdict, PLAN_REFUSED);
    assert_int_equal(p.ntexts, 0);
    assert_true(has_note(&p, "line 3: the CFA is unknown at 0x1"));
    cfi_plan_release(&p);
    ins[1].reached = ins[2].reached = 0;
    assert_int_equal(cfi_plan_build(&p, pts, 4, ins, 3, &t), 0);
    assert_int_equal(p.verdict, PLAN_EXACT);
    assert_string_equal(text_after(&p, 1), "\t.cfi_startproc\n");
    assert_string_equal(text_after(&p, 4), "\t.cfi_endproc\n");
    assert_int_equal(p.changes, 0);
    cfi_plan_release(&p);
    unwind_table_release(&t);
}

/* At a call, a CFA in a caller-saved register (r10) is useless to an
 * unwinder: reported.  The same row before a plain instruction is fine. */
static void caller_saved_cfa_at_a_call(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0, 8);
    add_row(&t, 0, 2, ABI_RSP, 8, 0);
    add_row(&t, 2, 8, ABI_R10, 0, 0);
    struct plan_point pts[] = {point(1, 0), point(2, 2), point(3, 3), point(4, 8)};
    struct plan_insn ins[] = {insn(0, 2, IR_FLOW_NEXT), insn(2, 1, IR_FLOW_NEXT), insn(3, 5, IR_FLOW_CALL)};
    struct cfi_plan p;
    assert_int_equal(cfi_plan_build(&p, pts, 4, ins, 3, &t), 0);
    assert_int_equal(p.verdict, PLAN_INEXACT);
    assert_true(has_note(&p, "line 4: at this call the frame is known only through r10"));
    assert_string_equal(text_after(&p, 2), "\t.cfi_def_cfa %r10, 0\n");
    cfi_plan_release(&p);
    ins[2].flow = IR_FLOW_NEXT;
    assert_int_equal(cfi_plan_build(&p, pts, 4, ins, 3, &t), 0);
    assert_int_equal(p.verdict, PLAN_EXACT);
    cfi_plan_release(&p);
    unwind_table_release(&t);
}

/* A callee-saved register synthesis lost is stated as undefined, with a note;
 * registers are spelt as `.intel_syntax noprefix` wants them. */
static void lost_register_and_intel_spelling(void **state)
{
    (void)state;
    struct unwind_table t;
    unwind_table_init(&t, 0, 2);
    add_row(&t, 0, 1, ABI_RSP, 8, 0);
    add_row(&t, 1, 2, ABI_RSP, 8, 0);
    t.rows[1].reg[ABI_RBX].kind = REG_RULE_UNKNOWN;
    struct plan_point pts[] = {point(1, 0), point(2, 1), point(3, 2)};
    pts[1].style = CFI_REGS_BARE;
    struct plan_insn ins[] = {insn(0, 1, IR_FLOW_NEXT), insn(1, 1, IR_FLOW_RET)};
    struct cfi_plan p;
    assert_int_equal(cfi_plan_build(&p, pts, 3, ins, 2, &t), 0);
    assert_int_equal(p.verdict, PLAN_EXACT);
    assert_string_equal(text_after(&p, 2), "\t.cfi_undefined rbx\n");
    assert_true(has_note(&p, "line 3: rbx no longer holds its value"));
    cfi_plan_release(&p);
    unwind_table_release(&t);
}

/* ---- cfi_text ---------------------------------------------------------------- */

static void expressions_as_escapes(void **state)
{
    (void)state;
    static const uint8_t drap[] = {0x76, 0x78, 0x06};          /* DW_OP_breg6 -8; DW_OP_deref */
    static const uint8_t at_rbp[] = {0x76, 0x70};              /* DW_OP_breg6 -16 */
    struct unwind_row from, to;
    cfi_entry_row(&from);
    to = from;
    to.cfa = (struct unwind_rule){.kind = CFA_RULE_EXPRESSION, .expr = drap, .expr_len = 3};
    to.reg[ABI_RBX] = (struct unwind_rule){.kind = REG_RULE_EXPRESSION, .expr = at_rbp, .expr_len = 2};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(cfi_write_transition(f, "\t", "\n", &from, &to, CFI_REGS_PERCENT), 0);
    fclose(f);
    assert_string_equal(buf, "\t.cfi_escape 0x0f, 0x03, 0x76, 0x78, 0x06\n"
                             "\t.cfi_escape 0x10, 0x03, 0x02, 0x76, 0x70\n");
    free(buf);
}

/* ---- the DRAP row (emit_row_from_state) ------------------------------------- */

static void push(struct abstract_state *s, uint8_t reg)
{
    abstract_state_apply(s, &(struct ir_effect){.kind = IR_SET, .dst = ABI_RSP, .src = ABI_RSP, .imm = -8});
    struct ir_effect st = ir_store(ABI_RSP, 0, reg, 8);
    abstract_state_apply(s, &st);
}

/* GCC's prologue: lea 8(%rsp),%r10; and $-32,%rsp; push -8(%r10); push %rbp;
 * mov %rsp,%rbp; push %r10.  Until the push of r10 the CFA is r10+0; from
 * then on the slot: DW_OP_breg6 (rbp) -8; DW_OP_deref.  After pop %r10 the
 * slot is below rsp: r10+0 again. */
static void drap_slot_once_saved(void **state)
{
    (void)state;
    struct abstract_state s;
    struct unwind_row row;
    struct synth_row_exprs exprs;
    abstract_state_entry(&s);
    struct ir_effect lea = ir_set(ABI_R10, ABI_RSP, 8), align = ir_and(ABI_RSP, -32),
                     mov = ir_set(ABI_RBP, ABI_RSP, 0);
    abstract_state_apply(&s, &lea);
    abstract_state_apply(&s, &align);
    push(&s, IR_REG_NONE);
    push(&s, ABI_RBP);
    abstract_state_apply(&s, &mov);
    emit_row_from_state(&s, &row, &exprs);
    assert_int_equal(row.cfa.kind, CFA_RULE_REG_OFFSET);
    assert_int_equal(row.cfa.reg, ABI_R10);
    push(&s, ABI_R10);
    emit_row_from_state(&s, &row, &exprs);
    assert_int_equal(row.cfa.kind, CFA_RULE_EXPRESSION);
    assert_int_equal(row.cfa.expr_len, 3);
    assert_memory_equal(row.cfa.expr, ((const uint8_t[]){0x76, 0x78, 0x06}), 3);
    struct ir_effect load = ir_load(ABI_R10, ABI_RSP, 0), up = ir_set(ABI_RSP, ABI_RSP, 8);
    abstract_state_apply(&s, &load);
    abstract_state_apply(&s, &up);
    emit_row_from_state(&s, &row, &exprs);
    assert_int_equal(row.cfa.kind, CFA_RULE_REG_OFFSET);
    assert_int_equal(row.cfa.reg, ABI_R10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(linear_push_pop),
        cmocka_unit_test(early_exit_remembers),
        cmocka_unit_test(change_inside_a_line),
        cmocka_unit_test(unknown_cfa),
        cmocka_unit_test(caller_saved_cfa_at_a_call),
        cmocka_unit_test(lost_register_and_intel_spelling),
        cmocka_unit_test(expressions_as_escapes),
        cmocka_unit_test(drap_slot_once_saved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
