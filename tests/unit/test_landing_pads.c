/*
 * Unit tests for synth/landing_pads: the landing pads of a function's
 * LSDA are found, and each starts in the state its throwing calls leave,
 * less the arguments they pushed (DW_CFA_GNU_args_size).
 *
 * Fixtures are built at run time beside this program.  A C++ function
 * with a try/catch and a cleanup (a destructor), g++ -O2 -fPIC, linked
 * -shared; its LSDA's label is given a name (the assembly's .LLSDA
 * renamed) so that nm finds it, and the test reads the call-site table
 * there with a decoder of its own (the format GCC writes: no @LPStart,
 * call sites in uleb128), not the project's.  Each call site's pad must be
 * reached by a known path (the observer's reached == 1: a pad that is not
 * found is only reached by the unreached-block guess, SYNTH_GUESSED), in
 * the state the ABI gives after the throwing calls, derived by the test
 * from the state before each: rsp as before the call (it pushed and
 * popped the return address), the callee-saved registers and the slots
 * they were saved in unchanged (where the calls of one pad disagree,
 * unknown), the caller-saved registers unknown.
 *
 * Pushed arguments: hand-written assembly pushes two words before a call
 * and says so with `.cfi_escape 0x2e, 16` (DW_CFA_GNU_args_size 16), with a
 * hand-written LSDA; its pad, which pops rbx and returns, is right only
 * with rsp 16 bytes above where the call left it: CFA - 16.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "object/elf_file.h"
#include "semantics/abi.h"
#include "semantics/unwind_table.h"
#include "synth/abstract_state.h"
#define TEST_DIR_BESIDE_SELF "landing_pads"
#include "tests/unit/test_shell.h"
#include "tests/unit/synth_asserts.h"
#include "tests/unit/synth_file.h"

/* guarded: a catch pad (may_throw's exception) and a cleanup pad (the
 * second consume's: ~Guard runs, then the exception goes on).  y and x
 * live across the calls in callee-saved registers. */
static const char guarded_cc[] =
    "struct Guard { ~Guard(); };\n"
    "__attribute__((noipa)) Guard::~Guard() { asm volatile(\"\"); }\n"
    "__attribute__((noipa)) void may_throw(long x) { if (x == 42) throw x; }\n"
    "__attribute__((noipa)) long consume(long x) { return x * 5; }\n"
    "long guarded(long x)\n"
    "{\n"
    "    long y = consume(x);\n"
    "    Guard g;\n"
    "    try {\n"
    "        may_throw(x + y);\n"
    "    } catch (long e) {\n"
    "        return e + y;\n"
    "    }\n"
    "    return consume(y) + 1;\n"
    "}\n";

/* pushes: two words pushed for a call that may throw; its pad is
 * reached with them popped. */
static const char pushes_s[] =
    "\t.text\n\t.globl pushes\n\t.type pushes,@function\n"
    "pushes:\n"
    "\t.cfi_startproc\n"
    "\t.cfi_personality 0x9b, DW.ref.__gxx_personality_v0\n"
    "\t.cfi_lsda 0x1b, lsda\n"
    "\tpushq %rbx\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbx, -16\n"
    "\tmovq %rdi, %rbx\n"
    "\tpushq $1\n\t.cfi_def_cfa_offset 24\n"
    "\tpushq %rbx\n\t.cfi_def_cfa_offset 32\n"
    "\t.cfi_escape 0x2e, 0x10\n"
    "call_start:\n"
    "\tcall thrower@PLT\n"
    "call_end:\n"
    "\taddq $16, %rsp\n\t.cfi_def_cfa_offset 16\n"
    "\t.cfi_escape 0x2e, 0x00\n"
    "\tpopq %rbx\n\t.cfi_def_cfa_offset 8\n"
    "\tret\n"
    "pad:\n"
    "\t.cfi_def_cfa_offset 16\n"
    "\tmovq %rax, %rdi\n"
    "\tpopq %rbx\n\t.cfi_def_cfa_offset 8\n"
    "\tjmp _Unwind_Resume@PLT\n"
    "\t.cfi_endproc\n\t.size pushes, .-pushes\n"
    "\n"
    "\t.section .gcc_except_table,\"a\",@progbits\n"
    "lsda:\n"
    "\t.byte 0xff\n\t.byte 0xff\n\t.byte 0x01\n"
    "\t.uleb128 sites_end - sites\n"
    "sites:\n"
    "\t.uleb128 call_start - pushes, call_end - call_start, pad - pushes, 0\n"
    "sites_end:\n"
    "\n"
    "\t.hidden DW.ref.__gxx_personality_v0\n\t.weak DW.ref.__gxx_personality_v0\n"
    "\t.section .data.rel.local.DW.ref.__gxx_personality_v0,\"awG\",@progbits,"
    "DW.ref.__gxx_personality_v0,comdat\n"
    "\t.align 8\n"
    "DW.ref.__gxx_personality_v0:\n\t.quad __gxx_personality_v0\n"
    "\t.section .note.GNU-stack,\"\",@progbits\n";

static int group_setup(void **state)
{
    (void)state;
    if (make_dir_beside_self() != 0)
        return -1;
    FILE *f = fopen(at("guarded.cc"), "w"), *g = fopen(at("pushes.s"), "w");
    if (!f || !g)
        return -1;
    fputs(guarded_cc, f);
    fputs(pushes_s, g);
    if (fclose(f) != 0 || fclose(g) != 0)
        return -1;
    /* The LSDA's label named, so that nm finds it; the hot code whole. */
    return run("g++ -O2 -fPIC -fno-reorder-blocks-and-partition -S -o - '%s' | sed 's/[.]LLSDA/LSDA/g' > '%s'",
               at("guarded.cc"), at("guarded.s")) ||
           run("g++ -shared -nostdlib -o '%s' '%s'", at("guarded.so"), at("guarded.s")) ||
           run("cc -shared -nostdlib -o '%s' '%s'", at("pushes.so"), at("pushes.s"))
               ? -1 : 0;
}

static int group_teardown(void **state)
{
    (void)state;
    return run("rm -rf '%s'", dir) == 0 ? 0 : -1;
}

/* ---- the LSDA, read by the test --------------------------------------------------------- */

struct call_site {
    uint64_t start, end, pad;    /* absolute addresses; pad 0: none */
};

static uint64_t uleb(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    for (unsigned shift = 0; *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    fail_msg("uleb128 past the end");
    return 0;
}

/* The call sites of the LSDA at LSDA in FILE, of the function at FUNC. */
static size_t read_call_sites(struct elf_file *ef, uint64_t lsda, uint64_t func, struct call_site *cs, size_t max)
{
    struct elf_section *sec = elf_file_section(ef, ".gcc_except_table");
    assert_non_null(sec);
    uint64_t n;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = elf_file_section_bytes(ef, sec, &n, err, sizeof err);
    assert_non_null(bytes);
    assert_true(lsda >= sec->addr && lsda < sec->addr + n);
    const uint8_t *p = bytes + (lsda - sec->addr), *end = bytes + n;
    assert_int_equal(*p++, 0xff);      /* no @LPStart: pads are from the function's start */
    if (*p++ != 0xff)                  /* @TType: its offset */
        uleb(&p, end);
    assert_int_equal(*p++, 0x01);      /* call sites in uleb128 */
    uint64_t len = uleb(&p, end);
    const uint8_t *sites_end = p + len;
    size_t k = 0;
    while (p < sites_end) {
        assert_true(k < max);
        uint64_t start = uleb(&p, end), size = uleb(&p, end), pad = uleb(&p, end);
        uleb(&p, end);                 /* the action */
        cs[k++] = (struct call_site){func + start, func + start + size, pad ? func + pad : 0};
    }
    return k;
}

/* The one LSDA GCC wrote in FILE: the symbol LSDA<n>. */
static uint64_t named_lsda(const char *file)
{
    char *out = output_of("nm -P '%s' | grep -E '^LSDA[0-9]+ '", file);
    char *second = strchr(out, '\n');
    assert_true(second && !second[1]);
    char *value = strchr(out, ' ') + 3;
    uint64_t a = strtoull(value, NULL, 16);
    free(out);
    return a;
}

/* ---- the states -------------------------------------------------------------------------- */

static const uint8_t caller_saved[] = {ABI_RAX, ABI_RCX, ABI_RDX, ABI_RSI, ABI_RDI,
                                       ABI_R8,  ABI_R9,  ABI_R10, ABI_R11};

/* Join A into INTO as the header of abstract_state says: a location where
 * they differ is unknown. */
static void join_value(struct abstract_value *into, struct abstract_value a, int first)
{
    if (first)
        *into = a;
    else if (!abstract_value_equal(*into, a))
        *into = (struct abstract_value){AV_UNKNOWN, 0, 0};
}

/* Every pad of CS[0 .. N) reached by a known path, in the state after its calls. */
static void assert_pads_as_after_calls(const struct synthesized *s, const struct call_site *cs, size_t n)
{
    size_t pads = 0;
    for (size_t k = 0; k < n; k++) {
        if (!cs[k].pad)
            continue;
        const struct seen_insn *pad = seen_at(s, cs[k].pad);
        if (pad->reached != 1)
            fail_msg("the pad at 0x%llx is reached %d, not by a known path", (unsigned long long)cs[k].pad,
                     pad->reached);
        pads++;
        /* What the calls of every site with this pad leave: before each
         * call, by a known path, then as the ABI says. */
        struct abstract_value reg[STATE_GPRS] = {{0}}, slot[ABI_NCALLEE_SAVED] = {{0}};
        int64_t slot_off[ABI_NCALLEE_SAVED] = {0};
        size_t calls = 0, nslots = 0;
        for (size_t site = 0; site < n; site++)
            for (size_t i = 0; cs[site].pad == cs[k].pad && i < s->n; i++) {
                const struct seen_insn *in = &s->insn[i];
                if (in->addr < cs[site].start || in->addr >= cs[site].end ||
                    (in->flow != IR_FLOW_CALL && in->flow != IR_FLOW_CALL_INDIRECT))
                    continue;
                assert_int_equal(in->reached, 1);
                for (unsigned r = 0; r < STATE_GPRS; r++)
                    join_value(&reg[r], in->st.reg[r], calls == 0);
                if (calls == 0) /* the slots the callee-saved registers were saved in */
                    for (unsigned m = 0; m < in->st.nslots; m++)
                        if (in->st.slot[m].base == AV_CFA && in->st.slot[m].value.kind == AV_ENTRY &&
                            abi_callee_saved(in->st.slot[m].value.reg) && nslots < ABI_NCALLEE_SAVED)
                            slot_off[nslots++] = in->st.slot[m].off;
                for (size_t m = 0; m < nslots; m++)
                    join_value(&slot[m], abstract_state_slot(&in->st, slot_off[m]), calls == 0);
                calls++;
            }
        assert_true(calls > 0);
        assert_int_equal(reg[ABI_RSP].kind, AV_CFA);
        assert_cfa(pad->st.reg[ABI_RSP], reg[ABI_RSP].off);
        for (unsigned c = 0; c < ABI_NCALLEE_SAVED; c++) {
            unsigned r = abi_callee_saved_regs[c];
            if (!abstract_value_equal(pad->st.reg[r], reg[r]))
                fail_msg("the pad at 0x%llx: %s is not what the calls left", (unsigned long long)cs[k].pad,
                         unwind_column_name((int)r));
        }
        for (size_t m = 0; m < nslots; m++)
            assert_true(abstract_value_equal(abstract_state_slot(&pad->st, slot_off[m]), slot[m]));
        for (size_t c = 0; c < sizeof caller_saved; c++)
            assert_unknown(pad->st.reg[caller_saved[c]]);
    }
    assert_true(pads > 0);
}

static void test_catch_and_cleanup(void **state)
{
    (void)state;
    struct synth_file sf;
    synth_file_open(&sf, at("guarded.so"));
    uint64_t func = nm_address(at("guarded.so"), "_Z7guardedl");
    assert_true(func != NO_SYMBOL);
    struct call_site cs[16];
    size_t n = read_call_sites(&sf.ef, named_lsda(at("guarded.so")), func, cs, 16);
    /* Two pads: the catch and the cleanup. */
    size_t distinct = 0;
    for (size_t k = 0; k < n; k++) {
        int seen = 0;
        for (size_t m = 0; m < k; m++)
            seen |= cs[m].pad == cs[k].pad;
        distinct += cs[k].pad && !seen;
    }
    assert_int_equal(distinct, 2);
    struct synthesized s;
    synthesize_at(&sf, func, &s);
    assert_pads_as_after_calls(&s, cs, n);
    /* The registers saved are found at the pads: rbp and rbx pushed. */
    for (size_t k = 0; k < n; k++)
        if (cs[k].pad) {
            const struct seen_insn *pad = seen_at(&s, cs[k].pad);
            assert_entry(abstract_state_slot(&pad->st, -16), ABI_RBP, 0);
            assert_entry(abstract_state_slot(&pad->st, -24), ABI_RBX, 0);
        }
    assert_int_equal(s.out.seeded_blocks, 0);
    synthesized_release(&s);
    synth_file_close(&sf);
}

static void test_pushed_arguments_popped(void **state)
{
    (void)state;
    struct synth_file sf;
    synth_file_open(&sf, at("pushes.so"));
    const char *so = at("pushes.so");
    uint64_t func = nm_address(so, "pushes"), pad = nm_address(so, "pad"), call = nm_address(so, "call_start");
    assert_true(func != NO_SYMBOL && pad != NO_SYMBOL && call != NO_SYMBOL);
    struct synthesized s;
    synthesize_at(&sf, func, &s);
    const struct seen_insn *before = seen_at(&s, call), *at_pad = seen_at(&s, pad);
    assert_int_equal(before->reached, 1);
    assert_int_equal(at_pad->reached, 1);
    assert_cfa(before->st.reg[ABI_RSP], -32);
    /* The unwinder pops the 16 bytes of arguments before it jumps to the pad. */
    assert_cfa(at_pad->st.reg[ABI_RSP], -16);
    assert_entry(abstract_state_slot(&at_pad->st, -16), ABI_RBX, 0);
    const struct unwind_row *row = unwind_table_row_at(&s.t, pad);
    assert_non_null(row);
    assert_cfa_rule(*row, ABI_RSP, 16);
    assert_saved_at(*row, ABI_RBX, -16);
    synthesized_release(&s);
    synth_file_close(&sf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catch_and_cleanup),
        cmocka_unit_test(test_pushed_arguments_popped),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
/* SPDX-License-Identifier: Apache-2.0 */
