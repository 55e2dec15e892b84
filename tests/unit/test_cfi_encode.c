/*
 * Unit tests of cfi_encode: the bytes GCC writes for a frame-pointer
 * prologue, rules of every kind, and decode(encode(H)) == H for every FDE
 * of libc and libstdc++ (rows merged where their rules are equal), the
 * encoding no larger than 1.1 times the compilers' instructions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "object/elf_file.h"
#include "semantics/write/cfi_encode.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"
#include "semantics/dwarf_constants.h"

/* GCC's CIE: code alignment 1, data alignment -8, ra 16; CFA rsp+8, ra c-8. */
static const struct cfa_cie_params gcc_cie = {.code_align = 1, .data_align = -8, .ra_column = 16, .addr_size = 8};

static void gcc_initial(struct cfi_state *st)
{
    cfa_program_state_init(st, 0);
    st->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = 7, .offset = 8};
    st->col[16] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -8};
}

static struct unwind_row *row(struct unwind_table *t, uint64_t start, uint64_t end, const struct cfi_state *from)
{
    struct unwind_row *r = unwind_table_append(t, start, end);
    assert_non_null(r);
    r->cfa = from->cfa;
    memcpy(r->reg, from->col, sizeof r->reg);
    return r;
}

/* push %rbp; mov %rsp,%rbp; ...: the bytes readelf shows in every GCC -O0
 * FDE (DW_CFA_advance_loc 1; def_cfa_offset 16; offset r6 at cfa-16;
 * advance_loc 3; def_cfa_register r6). */
static void test_frame_pointer_prologue(void **state)
{
    (void)state;
    struct cfi_state init;
    gcc_initial(&init);
    struct unwind_table t;
    unwind_table_init(&t, 0x1000, 0x1020);
    row(&t, 0x1000, 0x1001, &init);
    struct cfi_state pushed = init;
    pushed.cfa.offset = 16;
    pushed.col[6] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -16};
    row(&t, 0x1001, 0x1004, &pushed);
    pushed.cfa.reg = 6;
    row(&t, 0x1004, 0x1020, &pushed);
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(cfi_encode_fde(&t, &gcc_cie, &init, &out, &why), 0);
    const uint8_t want[] = {0x41, 0x0e, 0x10, 0x86, 0x02, 0x43, 0x0d, 0x06};
    assert_int_equal(out.n, sizeof want);
    assert_memory_equal(out.b, want, sizeof want);
    cfi_bytes_release(&out);
    unwind_table_release(&t);
}

/* What cannot be said is refused with a reason, nothing else. */
static int same_table(const struct unwind_table *a, const struct unwind_table *b);

/* A row of the decoded program, [ST->loc, NEW_LOC), into the table ARG. */
static int collect_row(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    if (new_loc <= st->loc)
        return 0;
    struct unwind_row *r = unwind_table_append(arg, st->loc, new_loc);
    assert_non_null(r);
    r->cfa = st->cfa;
    memcpy(r->reg, st->col, sizeof r->reg);
    r->args_size = st->args_size;
    return 0;
}

/* An epilogue in the middle of a function (pop %rbp; pop %rbx; ret, then
 * the body goes on): the body's row comes back after it, which
 * remember_state / restore_state says in two bytes, as GCC writes it. */
static void test_remember_restore(void **state)
{
    (void)state;
    struct cfi_state init;
    gcc_initial(&init);
    struct unwind_table t;
    unwind_table_init(&t, 0x2000, 0x2020);
    row(&t, 0x2000, 0x2001, &init);
    struct cfi_state body = init;
    body.cfa.offset = 16;
    body.col[3] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -16};
    row(&t, 0x2001, 0x2002, &body);
    struct cfi_state body2 = body;
    body2.cfa.offset = 24;
    body2.col[6] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -24};
    row(&t, 0x2002, 0x2010, &body2);
    struct cfi_state popped = body;   /* after pop %rbp */
    popped.col[6] = init.col[6];
    row(&t, 0x2010, 0x2011, &popped);
    row(&t, 0x2011, 0x2012, &init);   /* after pop %rbx: at the ret */
    row(&t, 0x2012, 0x2020, &body2);  /* the body again */
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(cfi_encode_fde(&t, &gcc_cie, &init, &out, &why), 0);
    assert_non_null(memchr(out.b, DW_CFA_remember_state, out.n));
    assert_non_null(memchr(out.b, DW_CFA_restore_state, out.n));
    /* Decoded again by cfa_program: the same rows. */
    struct unwind_table back;
    unwind_table_init(&back, t.start, t.end);
    struct cfi_saved_row saved[4];
    struct cfa_program prog = {.insns = out.b, .len = out.n, .cie = &gcc_cie, .cie_state = &init,
                               .saved = saved, .stack_cap = 4, .on_row = collect_row, .arg = &back};
    struct cfi_state st = init;
    st.loc = t.start;
    struct cfa_error e;
    assert_int_equal(cfa_program_run(&prog, &st, &e), 0);
    assert_int_equal(collect_row(&back, &st, t.end), 0);
    assert_true(same_table(&t, &back));
    unwind_table_release(&back);
    cfi_bytes_release(&out);
    unwind_table_release(&t);
}

static void test_refusals(void **state)
{
    (void)state;
    struct cfi_state init;
    gcc_initial(&init);
    struct unwind_table t;
    unwind_table_init(&t, 0x1000, 0x1010);
    row(&t, 0x1000, 0x1008, &init);
    struct unwind_row *r = row(&t, 0x1008, 0x1010, &init);
    r->reg[3] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = -12};   /* not a multiple of 8 */
    struct cfi_bytes out = {0};
    const char *why = NULL;
    assert_int_equal(cfi_encode_fde(&t, &gcc_cie, &init, &out, &why), -1);
    assert_non_null(strstr(why, "data alignment"));
    r->reg[3] = (struct unwind_rule){.kind = REG_RULE_UNKNOWN};
    out.n = 0;
    assert_int_equal(cfi_encode_fde(&t, &gcc_cie, &init, &out, &why), -1);
    r->reg[3] = (struct unwind_rule){.kind = REG_RULE_UNREFERENCED};
    r->cfa = (struct unwind_rule){.kind = CFA_RULE_UNKNOWN};
    out.n = 0;
    assert_int_equal(cfi_encode_fde(&t, &gcc_cie, &init, &out, &why), -1);
    cfi_bytes_release(&out);
    unwind_table_release(&t);
}

/* The runs of rows with equal rules, as (start, row) pairs, in *N. */
static size_t runs(const struct unwind_table *t, const struct unwind_row **first, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (i == 0 || !unwind_row_rules_equal(&t->rows[i - 1], &t->rows[i]) ||
            t->rows[i - 1].args_size != t->rows[i].args_size) {
            assert_true(n < cap);
            first[n++] = &t->rows[i];
        }
    return n;
}

static int same_table(const struct unwind_table *a, const struct unwind_table *b)
{
    static const struct unwind_row *ra[1 << 16], *rb[1 << 16];
    size_t na = runs(a, ra, 1 << 16), nb = runs(b, rb, 1 << 16);
    if (na != nb || a->nrows == 0 || a->rows[a->nrows - 1].end != b->rows[b->nrows - 1].end)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (ra[i]->start != rb[i]->start || !unwind_row_rules_equal(ra[i], rb[i]) ||
            ra[i]->args_size != rb[i]->args_size)
            return 0;
    return 1;
}

/* Instruction bytes without the DW_CFA_nop padding at their end. */
static size_t used_bytes(const struct eh_frame_fde *f)
{
    size_t n = f->insns_len;
    while (n && f->insns[n - 1] == DW_CFA_nop)
        n--;
    return n;
}

/* What a round trip over one file found. */
struct round_trip {
    size_t fdes, rows, refused, differ, theirs, ours, args_rows;
    int unreadable;                  /* no ELF file or no readable .eh_frame */
};

/* Encode every sound FDE of PATH from its table H and decode the bytes
 * again, from the same CIE state: decode(encode(H)) must be H. */
static struct round_trip round_trip(const char *path, int verbose)
{
    struct round_trip rt = {0};
    char err[ELF_FILE_ERRLEN];
    struct elf_file ef;
    struct cfi_section cs;
    struct cfi_eval ev;
    if (elf_file_open(&ef, path, err, sizeof err) != 0) {
        rt.unreadable = 1;
        return rt;
    }
    if (cfi_section_read(&ef, ".eh_frame", &cs, err, sizeof err) != 1 || cfi_eval_init(&ev, &cs) != 0) {
        rt.unreadable = 1;
        elf_file_close(&ef);
        return rt;
    }
    for (size_t i = 0; i < cs.nfdes; i++) {
        const struct eh_frame_fde *f = &cs.fdes[i];
        struct unwind_table t, back;
        struct cfa_error e;
        if (f->fault != FDE_SOUND || cfi_eval_fde_table(&ev, f, &t, &e) != 0)
            continue;
        const struct cie_result *cie = cfi_eval_cie_result(&ev, f->cie);
        struct cfi_bytes out = {0};
        const char *why = NULL;
        int rc = cfi_encode_fde(&t, &cie->params, &cie->state, &out, &why);
        if (rc != 0) {
            if (rt.refused++ < 3 && verbose)
                printf("# %s: FDE at 0x%llx not encodable: %s\n", path, (unsigned long long)f->offset,
                       rc == -2 ? "out of memory" : why);
        } else {
            struct eh_frame_fde copy = *f;
            copy.insns = out.b ? out.b : (const uint8_t *)"";
            copy.insns_len = out.n;
            if (cfi_eval_fde_table(&ev, &copy, &back, &e) != 0 || !same_table(&t, &back)) {
                if (rt.differ++ < 3)
                    printf("# %s: FDE at 0x%llx [0x%llx, 0x%llx): decode(encode(H)) != H\n", path,
                           (unsigned long long)f->offset, (unsigned long long)t.start, (unsigned long long)t.end);
            } else {
                unwind_table_release(&back);
            }
            rt.fdes++;
            rt.rows += t.nrows;
            for (size_t r = 0; r < t.nrows; r++)
                rt.args_rows += t.rows[r].args_size != 0;
            rt.theirs += used_bytes(f);
            rt.ours += out.n;
        }
        cfi_bytes_release(&out);
        unwind_table_release(&t);
    }
    cfi_eval_release(&ev);
    cfi_section_release(&cs);
    elf_file_close(&ef);
    return rt;
}

/* Round trip every FDE of PATH; with WANT_ARGS_SIZE, some row must carry
 * an argument area (DW_CFA_GNU_args_size), which the encoding keeps. */
static void round_trip_file(const char *path, int want_args_size)
{
    if (access(path, R_OK) != 0) {
        printf("# skipped: no %s\n", path);
        return;
    }
    struct round_trip rt = round_trip(path, 1);
    assert_false(rt.unreadable);
    printf("# %s: %zu FDEs, %zu rows: decode(encode(H)) == H; %zu refused; instructions %zu bytes, "
           "the compilers' %zu (%.3fx)\n", path, rt.fdes, rt.rows, rt.refused, rt.ours, rt.theirs,
           rt.theirs ? (double)rt.ours / (double)rt.theirs : 0.0);
    printf("# %s: %zu rows with an argument area (DW_CFA_GNU_args_size), kept\n", path, rt.args_rows);
    assert_int_equal(rt.differ, 0);
    assert_true(rt.fdes > 1000);
    assert_true(!want_args_size || rt.args_rows > 0);
    assert_int_equal(rt.refused, 0);
    assert_true((double)rt.ours <= 1.1 * (double)rt.theirs);
}

static void test_round_trip_system(void **state)
{
    (void)state;
    round_trip_file("/usr/lib/x86_64-linux-gnu/libc.so.6", 0);
    round_trip_file("/usr/lib/x86_64-linux-gnu/libstdc++.so.6", 0);
    round_trip_file("/usr/lib/llvm-14/lib/libc++.so.1.0", 1);   /* clang: pushed arguments */
}

/* test_cfi_encode FILE...: the round trip over every FDE of each FILE (make
 * check-full runs it over every system binary); a summary line each, and
 * the totals.  Exit status 1 when an FDE does not come back as it was. */
static int round_trip_files(int n, char **paths)
{
    struct round_trip all = {0};
    size_t files = 0, skipped = 0;
    for (int i = 0; i < n; i++) {
        struct round_trip rt = round_trip(paths[i], 1);
        if (rt.unreadable) {
            skipped++;
            continue;
        }
        files++;
        all.fdes += rt.fdes;
        all.rows += rt.rows;
        all.refused += rt.refused;
        all.differ += rt.differ;
        all.theirs += rt.theirs;
        all.ours += rt.ours;
        all.args_rows += rt.args_rows;
    }
    printf("%s - decode(encode(H)) == H over %zu files (%zu without .eh_frame): %zu FDEs, %zu rows, %zu with an "
           "argument area; %zu differ, %zu refused; instructions %zu bytes, the compilers' %zu (%.3fx)\n",
           all.differ ? "not ok" : "ok", files, skipped, all.fdes, all.rows, all.args_rows, all.differ,
           all.refused, all.ours, all.theirs, all.theirs ? (double)all.ours / (double)all.theirs : 0.0);
    return all.differ ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return round_trip_files(argc - 1, argv + 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_pointer_prologue),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_remember_restore),
        cmocka_unit_test(test_round_trip_system),
    };
    return cmocka_run_group_tests_name("test_cfi_encode", tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
