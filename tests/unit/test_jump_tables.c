/*
 * Unit tests for synth/jump_tables: an indirect jump's switch table is
 * found and read, within the bound the code sets, and a computed goto
 * reaches the labels whose addresses its function takes.
 *
 * Fixtures are built at run time with the system's cc, beside this
 * program: hand-written assembly (each table form the reader knows: 32-bit
 * offsets from the table, `lea T(%rip); movslq (%t,%i,4); add; jmp *%r`;
 * absolute addresses, `jmp *T(,%i,8)` and `mov T(,%i,8),%r; jmp *%r`, in an
 * executable linked without PIE, where they need no relocation), and C
 * (a dense switch and a computed goto, GCC's &&label) compiled both as a
 * position-independent shared object and as a non-PIE executable.  Each
 * function goes through synthesize_function as a front end runs it.
 *
 * The expected targets are known without the code under test: they are
 * labels the fixture places at each case (in C, an asm label opening the
 * case's body), whose addresses nm reads.  Each must be reached by a known
 * path (the observer's reached == 1): a table that is not read leaves its
 * cases to the unreached-block guess (SYNTH_GUESSED), which this tells
 * apart.  The bound: each hand-written table is followed by words naming a
 * decoy label of the function that nothing else reaches; with
 * `cmp $N; ja` before the load, only N + 1 entries are cases, so the decoy
 * must stay unreached.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "semantics/abi.h"
#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"
#define TEST_DIR_BESIDE_SELF "jump_tables"
#include "tests/unit/test_shell.h"
#include "tests/unit/synth_asserts.h"
#include "tests/unit/synth_file.h"

/* Offsets from a table (bound: cmp $3; ja: 4 cases), then absolute
 * addresses read by the jump (cmp $2; ja: 3 cases) and by a load (cmp $1;
 * ja: 2 cases).  Each table's next words name its function's decoy. */
static const char tables_s[] =
    "\t.text\n"
    "\t.globl rel_table\n\t.type rel_table,@function\n"
    "rel_table:\n"
    "\t.cfi_startproc\n"
    "\tpushq %rbx\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbx, -16\n"
    "\tcmpl $3, %edi\n\tja rel_default\n"
    "\tmovl %edi, %edi\n"
    "\tleaq rel_tab(%rip), %rdx\n"
    "\tmovslq (%rdx,%rdi,4), %rax\n"
    "\taddq %rdx, %rax\n"
    "\tjmp *%rax\n"
    "rel_case0:\n\tmovl $10, %ebx\n\tjmp rel_join\n"
    "rel_case1:\n\tmovl $11, %ebx\n\tjmp rel_join\n"
    "rel_case2:\n\tmovl $12, %ebx\n\tjmp rel_join\n"
    "rel_case3:\n\tmovl $13, %ebx\n\tjmp rel_join\n"
    "rel_decoy:\n\tmovl $14, %ebx\n\tjmp rel_join\n"
    "rel_default:\n\txorl %ebx, %ebx\n"
    "rel_join:\n\tmovl %ebx, %eax\n\tpopq %rbx\n\t.cfi_def_cfa_offset 8\n\tret\n"
    "\t.cfi_endproc\n\t.size rel_table, .-rel_table\n"
    "\n"
    "\t.globl abs_table\n\t.type abs_table,@function\n"
    "abs_table:\n"
    "\t.cfi_startproc\n"
    "\tsubq $24, %rsp\n\t.cfi_def_cfa_offset 32\n"
    "\tcmpq $2, %rdi\n\tja abs_default\n"
    "\tjmp *abs_tab(,%rdi,8)\n"
    "abs_case0:\n\tmovl $20, %eax\n\tjmp abs_join\n"
    "abs_case1:\n\tmovl $21, %eax\n\tjmp abs_join\n"
    "abs_case2:\n\tmovl $22, %eax\n\tjmp abs_join\n"
    "abs_decoy:\n\tmovl $23, %eax\n\tjmp abs_join\n"
    "abs_default:\n\txorl %eax, %eax\n"
    "abs_join:\n\taddq $24, %rsp\n\t.cfi_def_cfa_offset 8\n\tret\n"
    "\t.cfi_endproc\n\t.size abs_table, .-abs_table\n"
    "\n"
    "\t.globl load_table\n\t.type load_table,@function\n"
    "load_table:\n"
    "\t.cfi_startproc\n"
    "\tpushq %rbp\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbp, -16\n"
    "\tpushq %r12\n\t.cfi_def_cfa_offset 24\n\t.cfi_offset %r12, -24\n"
    "\tcmpl $1, %edi\n\tja load_default\n"
    "\tmovl %edi, %edi\n"
    "\tmovq load_tab(,%rdi,8), %rax\n"
    "\tjmp *%rax\n"
    "load_case0:\n\tmovl $30, %eax\n\tjmp load_join\n"
    "load_case1:\n\tmovl $31, %eax\n\tjmp load_join\n"
    "load_decoy:\n\tmovl $32, %eax\n\tjmp load_join\n"
    "load_default:\n\txorl %eax, %eax\n"
    "load_join:\n\tpopq %r12\n\t.cfi_def_cfa_offset 16\n\tpopq %rbp\n\t.cfi_def_cfa_offset 8\n\tret\n"
    "\t.cfi_endproc\n\t.size load_table, .-load_table\n"
    "\n"
    "\t.section .rodata\n\t.align 8\n"
    "rel_tab:\n"
    "\t.long rel_case0-rel_tab, rel_case1-rel_tab, rel_case2-rel_tab, rel_case3-rel_tab\n"
    "\t.long rel_decoy-rel_tab, rel_decoy-rel_tab\n"
    "\t.align 8\n"
    "abs_tab:\n\t.quad abs_case0, abs_case1, abs_case2, abs_decoy, abs_decoy\n"
    "load_tab:\n\t.quad load_case0, load_case1, load_decoy, load_decoy\n"
    "\t.section .note.GNU-stack,\"\",@progbits\n";

/* A dense switch (cmp $5; ja: six cases) and a computed goto; each case
 * and label opens with an asm label of its own. */
static const char switch_c[] =
    "#define MARK(n) __asm__ volatile(#n \":\")\n"
    "__attribute__((noipa)) int g(int x) { return 3 * x + 1; }\n"
    "__attribute__((noipa)) int sw(int x)\n"
    "{\n"
    "    switch (x) {\n"
    "    case 0: MARK(sw_case0); return g(11);\n"
    "    case 1: MARK(sw_case1); return g(23) + 1;\n"
    "    case 2: MARK(sw_case2); return g(37) * 3;\n"
    "    case 3: MARK(sw_case3); return g(41) - 7;\n"
    "    case 4: MARK(sw_case4); return g(59) ^ 5;\n"
    "    case 5: MARK(sw_case5); return g(61) + 9;\n"
    "    default: return 0;\n"
    "    }\n"
    "}\n"
    "__attribute__((noipa)) int cgoto(const unsigned char *code)\n"
    "{\n"
    "    static void *const ops[] = {&&op_a, &&op_b, &&op_c, &&op_end};\n"
    "    int acc = 0;\n"
    "    goto *ops[*code++];\n"
    "op_a: MARK(label_a); acc += g(1); goto *ops[*code++];\n"
    "op_b: MARK(label_b); acc *= g(2); goto *ops[*code++];\n"
    "op_c: MARK(label_c); acc -= g(3); goto *ops[*code++];\n"
    "op_end: MARK(label_end); return acc;\n"
    "}\n"
    "__attribute__((noipa)) int pick(int x)\n"
    "{\n"
    "    void *volatile p = &&l1;\n"
    "    if (x > 3)\n"
    "        p = &&l2;\n"
    "    if (x < -3)\n"
    "        p = &&l3;\n"
    "    int y = g(x);\n"
    "    goto *p;\n"
    "l1: MARK(pick_l1); return g(y);\n"
    "l2: MARK(pick_l2); return g(y + 1) * 2;\n"
    "l3: MARK(pick_l3); return g(y - 1) + 5;\n"
    "}\n";

static int group_setup(void **state)
{
    (void)state;
    if (make_dir_beside_self() != 0)
        return -1;
    FILE *f = fopen(at("tables.s"), "w"), *g = fopen(at("switch.c"), "w");
    if (!f || !g)
        return -1;
    fputs(tables_s, f);
    fputs(switch_c, g);
    if (fclose(f) != 0 || fclose(g) != 0)
        return -1;
    /* No start files: the fixtures' own code only. */
    return run("cc -nostdlib -static -no-pie -Wl,-e,rel_table -o '%s' '%s'", at("tables"), at("tables.s")) ||
           run("cc -O2 -fPIC -shared -nostdlib -o '%s' '%s'", at("switch.so"), at("switch.c")) ||
           run("cc -O2 -fno-pic -no-pie -static -nostdlib -Wl,-e,sw -o '%s' '%s'", at("switch"), at("switch.c"))
               ? -1 : 0;
}

static int group_teardown(void **state)
{
    (void)state;
    return run("rm -rf '%s'", dir) == 0 ? 0 : -1;
}

/* LABEL of FILE, by nm. */
static uint64_t label(const char *file, const char *name)
{
    uint64_t a = nm_address(file, name);
    if (a == NO_SYMBOL)
        fail_msg("%s has no symbol %s", file, name);
    return a;
}

/* The CFA offset of rsp at S's indirect jumps, which must all agree. */
static int64_t rsp_at_jumps(const struct synthesized *s)
{
    int64_t off = 0;
    for (size_t k = 0; k < s->n; k++) {
        const struct seen_insn *in = &s->insn[k];
        if (in->flow != IR_FLOW_JUMP_INDIRECT)
            continue;
        assert_int_equal(in->reached, 1);
        assert_int_equal(in->st.reg[ABI_RSP].kind, AV_CFA);
        assert_true(!off || in->st.reg[ABI_RSP].off == off);
        off = in->st.reg[ABI_RSP].off;
    }
    assert_true(off < 0);
    return off;
}

/* Each of the N labels of FILE named NAMES is reached by a known path in
 * function FUNC, with CFA = rsp + CFA_OFF there (0: as at the function's
 * indirect jumps, for compiled code), in the state and in the row. */
static void assert_cases_reached(const char *file, const char *func, const char *const *names, size_t n,
                                 int64_t cfa_off, struct synthesized *s)
{
    struct synth_file sf;
    synth_file_open(&sf, file);
    synthesize_at(&sf, label(file, func), s);
    if (!cfa_off)
        cfa_off = -rsp_at_jumps(s);
    for (size_t k = 0; k < n; k++) {
        uint64_t a = label(file, names[k]);
        const struct seen_insn *in = seen_at(s, a);
        if (in->reached != 1)
            fail_msg("%s: %s at 0x%llx reached %d, not by a known path", func, names[k], (unsigned long long)a,
                     in->reached);
        assert_cfa(in->st.reg[ABI_RSP], -cfa_off);
        const struct unwind_row *row = unwind_table_row_at(&s->t, a);
        assert_non_null(row);
        assert_cfa_rule(*row, ABI_RSP, cfa_off);
    }
    synth_file_close(&sf);
}

/* The decoy of FILE, named by the words past the table's bound, has no
 * known path to it. */
static void assert_decoy_unread(const char *file, const char *decoy, const struct synthesized *s)
{
    uint64_t a = label(file, decoy);
    const struct seen_insn *in = seen_at(s, a);
    if (in->reached == 1)
        fail_msg("%s at 0x%llx reached: entries past the bound were read", decoy, (unsigned long long)a);
}

static void test_offsets_from_the_table(void **state)
{
    (void)state;
    static const char *const cases[] = {"rel_case0", "rel_case1", "rel_case2", "rel_case3"};
    struct synthesized s;
    assert_cases_reached(at("tables"), "rel_table", cases, 4, 16, &s);
    /* The state the jump carries: rbx saved at CFA-16, in every case. */
    for (size_t k = 0; k < 4; k++) {
        const struct seen_insn *in = seen_at(&s, label(at("tables"), cases[k]));
        assert_entry(abstract_state_slot(&in->st, -16), ABI_RBX, 0);
        assert_saved_at(*unwind_table_row_at(&s.t, in->addr), ABI_RBX, -16);
    }
    assert_decoy_unread(at("tables"), "rel_decoy", &s);
    synthesized_release(&s);
}

static void test_addresses_jumped_through(void **state)
{
    (void)state;
    static const char *const cases[] = {"abs_case0", "abs_case1", "abs_case2"};
    struct synthesized s;
    assert_cases_reached(at("tables"), "abs_table", cases, 3, 32, &s);
    assert_decoy_unread(at("tables"), "abs_decoy", &s);
    synthesized_release(&s);
}

static void test_addresses_loaded(void **state)
{
    (void)state;
    static const char *const cases[] = {"load_case0", "load_case1"};
    struct synthesized s;
    assert_cases_reached(at("tables"), "load_table", cases, 2, 24, &s);
    assert_decoy_unread(at("tables"), "load_decoy", &s);
    synthesized_release(&s);
}

/* GCC's dense switch: every case reached, nothing left to a guess. */
static void compiled_switch(const char *file)
{
    static const char *const cases[] = {"sw_case0", "sw_case1", "sw_case2", "sw_case3", "sw_case4", "sw_case5"};
    struct synthesized s;
    assert_cases_reached(file, "sw", cases, 6, 0, &s);
    assert_int_equal(s.out.seeded_blocks, 0);
    synthesized_release(&s);
}

static void test_switch_position_independent(void **state)
{
    (void)state;
    compiled_switch(at("switch.so"));
}

static void test_switch_absolute(void **state)
{
    (void)state;
    compiled_switch(at("switch"));
}

/* A computed goto: every label whose address cgoto takes is reached from
 * its jumps, nothing left to a guess. */
static void computed_goto(const char *file)
{
    static const char *const labels[] = {"label_a", "label_b", "label_c", "label_end"};
    struct synthesized s;
    assert_cases_reached(file, "cgoto", labels, 4, 0, &s);
    assert_int_equal(s.out.seeded_blocks, 0);
    synthesized_release(&s);
}

static void test_computed_goto_position_independent(void **state)
{
    (void)state;
    computed_goto(at("switch.so"));
}

static void test_computed_goto_absolute(void **state)
{
    (void)state;
    computed_goto(at("switch"));
}

/* A computed goto through a variable: the labels whose addresses pick
 * takes (no table) are reached from its jumps. */
static void label_addresses(const char *file)
{
    static const char *const labels[] = {"pick_l1", "pick_l2", "pick_l3"};
    struct synthesized s;
    assert_cases_reached(file, "pick", labels, 3, 0, &s);
    assert_int_equal(s.out.seeded_blocks, 0);
    synthesized_release(&s);
}

static void test_label_addresses_position_independent(void **state)
{
    (void)state;
    label_addresses(at("switch.so"));
}

/* Built without PIE, GCC takes a label's address as an immediate (movq
 * $.L4, 8(%rsp)), not with a lea: the decoder notes the immediate
 * (IR_AUX_MOV_IMM) and jump_tables_find_labels takes it for a label.
 * (Without that, pick's labels are left to the unreached-block guess.) */
static void test_label_addresses_absolute(void **state)
{
    (void)state;
    label_addresses(at("switch"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets_from_the_table),
        cmocka_unit_test(test_addresses_jumped_through),
        cmocka_unit_test(test_addresses_loaded),
        cmocka_unit_test(test_switch_position_independent),
        cmocka_unit_test(test_switch_absolute),
        cmocka_unit_test(test_computed_goto_position_independent),
        cmocka_unit_test(test_computed_goto_absolute),
        cmocka_unit_test(test_label_addresses_position_independent),
        cmocka_unit_test(test_label_addresses_absolute),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
