/*
 * Unit tests for verify/audit/check: the audit's judgement of each row, through
 * check_file.
 *
 * A hand-written function with correct CFI (two callee-saved registers
 * pushed, both overwritten, a call, the pops and a ret) is assembled and
 * linked -shared -nostdlib at run time, beside this program; so are copies
 * with one deliberate error each: a wrong CFA offset after a push, a
 * pushed register's .cfi_offset left out, a register's rule restored
 * before its pop, the CFA offset not brought back to 8 before the ret, and
 * a .cfi_undefined rip in the middle of code that returns.  The correct
 * one must give no finding (and its addresses must be checked, not left
 * undecided); each other exactly one, of the kind that error is, in the
 * column it is in, at the first address where the row is wrong.  That
 * address is a label the fixture places there, read with nm, not from
 * dwcheck.  The errors are the fixture's, so the kinds and places are
 * known beforehand: the CFI was written to be right everywhere but there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "verify/audit/check.h"
#include "verify/audit/finding.h"
#define TEST_DIR_BESIDE_SELF "check"
#include "tests/unit/test_shell.h"

/* f saves rbx and rbp, gives them f's arguments, calls g, and returns.
 * The labels mark where each variant's error starts to show. */
static const char correct_s[] =
    "\t.text\n\t.globl f\n\t.type f,@function\n"
    "f:\n"
    "\t.cfi_startproc\n"
    "\tpushq %rbx\n"
    "\t.cfi_def_cfa_offset 16\n"
    "\t.cfi_offset %rbx, -16\n"
    "\tpushq %rbp\n"
    "after_push:\n"
    "\t.cfi_def_cfa_offset 24\n"
    "\t.cfi_offset %rbp, -24\n"
    "\tmovq %rdi, %rbx\n"
    "\tmovq %rsi, %rbp\n"
    "after_moves:\n"
    "\tcall g\n"
    "\taddq %rbx, %rax\n"
    "before_last_use:\n"
    "\taddq %rbp, %rax\n"
    "\tpopq %rbp\n"
    "\t.cfi_def_cfa_offset 16\n"
    "\t.cfi_restore %rbp\n"
    "\tpopq %rbx\n"
    "\t.cfi_def_cfa_offset 8\n"
    "\t.cfi_restore %rbx\n"
    "at_ret:\n"
    "\tret\n"
    "\t.cfi_endproc\n\t.size f, .-f\n"
    "\n"
    "\t.type g,@function\n"
    "g:\n"
    "\t.cfi_startproc\n"
    "\tleaq (%rdi,%rsi), %rax\n"
    "\tret\n"
    "\t.cfi_endproc\n\t.size g, .-g\n"
    "\t.section .note.GNU-stack,\"\",@progbits\n";

/* One error: the first line of the correct text that starts with FROM is
 * replaced by TO ("" removes it).  EXPECT: the one finding, at the label
 * AT, in COLUMN (-1: the CFA). */
struct variant {
    const char *name;
    const char *from, *to;
    enum finding_kind expect;
    int column;
    const char *at;
};

static const struct variant variants[] = {
    /* 24 after the second push: the CFA is 8 bytes off until the pop. */
    {"cfa_offset", "\t.cfi_def_cfa_offset 24\n", "\t.cfi_def_cfa_offset 32\n", FINDING_CFA_MISMATCH, -1,
     "after_push"},
    /* rbp's save not described: "unchanged" holds until f overwrites rbp. */
    {"missing_offset", "\t.cfi_offset %rbp, -24\n", "", FINDING_CLOBBERED, ABI_RBP, "after_moves"},
    /* rbx said to be back before its pop, while it still holds rdi. */
    {"early_restore", "before_last_use:\n", "before_last_use:\n\t.cfi_restore %rbx\n", FINDING_CLOBBERED, ABI_RBX,
     "before_last_use"},
    /* The last pop not described: at the ret, the CFA is rsp + 8, not 16. */
    {"ret_cfa", "\t.cfi_def_cfa_offset 8\n", "", FINDING_CFA_MISMATCH, -1, "at_ret"},
    /* The end of the stack declared in code that returns. */
    {"undefined_ra", "after_moves:\n", "after_moves:\n\t.cfi_undefined rip\n", FINDING_RA_MISMATCH, ABI_RA,
     "after_moves"},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

/* The correct text with V's error (NULL: none). */
static char *fixture_text(const struct variant *v)
{
    char *text = strdup(correct_s);
    assert_non_null(text);
    if (!v)
        return text;
    char *line = strstr(text, v->from);
    assert_non_null(line);
    size_t before = (size_t)(line - text), from = strlen(v->from), to = strlen(v->to);
    char *out = malloc(strlen(text) - from + to + 1);
    assert_non_null(out);
    memcpy(out, text, before);
    memcpy(out + before, v->to, to);
    strcpy(out + before + to, line + from);
    free(text);
    return out;
}

/* NAME.s written, linked into NAME.so and assembled into NAME.o. */
static int build(const char *name, const struct variant *v)
{
    char src[64], so[64], obj[64];
    snprintf(src, sizeof src, "%s.s", name);
    snprintf(so, sizeof so, "%s.so", name);
    char *text = fixture_text(v);
    FILE *f = fopen(at(src), "w");
    int ok = f && fputs(text, f) >= 0;
    ok = (f && fclose(f) == 0) && ok;
    free(text);
    snprintf(obj, sizeof obj, "%s.o", name);
    return ok && run("cc -shared -nostdlib -o '%s' '%s'", at(so), at(src)) == 0 &&
                   run("cc -c -o '%s' '%s'", at(obj), at(src)) == 0 ? 0 : -1;
}

static int group_setup(void **state)
{
    (void)state;
    if (make_dir_beside_self() != 0 || build("correct", NULL) != 0)
        return -1;
    for (size_t k = 0; k < NVARIANTS; k++)
        if (build(variants[k].name, &variants[k]) != 0)
            return -1;
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    return run("rm -rf '%s'", dir) == 0 ? 0 : -1;
}

/* check_file on NAME (a file of the scratch directory), into R. */
static void audit(const char *so, struct check_result *r)
{
    char err[256];
    int not_elf = 0;
    if (check_file(at(so), NULL, r, &not_elf, err, sizeof err) != 0)
        fail_msg("%s: %s", so, err);
    for (size_t k = 0; k < r->nfindings; k++) {
        const struct finding *f = &r->findings[k];
        print_message("%s: %s at 0x%llx (column %d): %s\n", so, finding_kind_name(f->kind),
                      (unsigned long long)f->address, f->column, f->message);
    }
}

static void test_correct_cfi_has_no_finding(void **state)
{
    (void)state;
    struct check_result r;
    audit("correct.so", &r);
    assert_int_equal(r.nfindings, 0);
    /* Judged, not passed over: every instruction of f and g decided. */
    assert_int_equal(r.fdes, 2);
    assert_int_equal(r.addresses_checked, 12);   /* f's 10 instructions, g's 2 */
    assert_int_equal(r.unchecked_total, 0);
    assert_int_equal(r.rets_checked, 2);
    check_result_release(&r);
}

/* The one finding of variant V in its file of type EXT (so, o), where
 * and what its error is. */
static void one_finding_in(const struct variant *v, const char *ext)
{
    char so[64];
    snprintf(so, sizeof so, "%s.%s", v->name, ext);
    struct check_result r;
    audit(so, &r);
    uint64_t where = nm_address(at(so), v->at), f = nm_address(at(so), "f");
    assert_true(where != NO_SYMBOL && f != NO_SYMBOL);
    assert_int_equal(r.nfindings, 1);
    const struct finding *got = &r.findings[0];
    if (got->kind != v->expect)
        fail_msg("%s: %s, not %s", so, finding_kind_name(got->kind), finding_kind_name(v->expect));
    assert_int_equal(got->column, v->column);
    /* Where in f: an object's sections are placed by the audit, at
     * addresses of its own (its findings name the section too); a shared
     * object's are its symbols'. */
    assert_string_equal(got->function, strcmp(ext, "so") == 0 ? "f" : ".text:f");
    assert_int_equal(got->address - got->function_start, where - f);
    if (strcmp(ext, "so") == 0)
        assert_int_equal(got->address, where);
    assert_int_equal(got->severity, SEVERITY_ERROR);
    check_result_release(&r);
}

static void one_finding(const struct variant *v)
{
    one_finding_in(v, "so");
}

static void test_wrong_cfa_offset_after_push(void **state)
{
    (void)state;
    one_finding(&variants[0]);
}

static void test_missing_offset_of_pushed_register(void **state)
{
    (void)state;
    one_finding(&variants[1]);
}

static void test_register_restored_too_early(void **state)
{
    (void)state;
    one_finding(&variants[2]);
}

static void test_ret_where_cfa_is_not_rsp_plus_8(void **state)
{
    (void)state;
    one_finding(&variants[3]);
}

static void test_undefined_ra_where_code_returns(void **state)
{
    (void)state;
    one_finding(&variants[4]);
}

/* A relocatable object is audited as linked: the same judgement, at the
 * addresses its symbols have. */
static void test_objects(void **state)
{
    (void)state;
    struct check_result r;
    audit("correct.o", &r);
    assert_int_equal(r.nfindings, 0);
    assert_int_equal(r.addresses_checked, 12);
    check_result_release(&r);
    for (size_t k = 0; k < NVARIANTS; k++)
        one_finding_in(&variants[k], "o");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_correct_cfi_has_no_finding),
        cmocka_unit_test(test_wrong_cfa_offset_after_push),
        cmocka_unit_test(test_missing_offset_of_pushed_register),
        cmocka_unit_test(test_register_restored_too_early),
        cmocka_unit_test(test_ret_where_cfa_is_not_rsp_plus_8),
        cmocka_unit_test(test_undefined_ra_where_code_returns),
        cmocka_unit_test(test_objects),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
