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
#include "semantics/cfi_encode.h"
#include "semantics/cfi_eval.h"
#include "semantics/cfi_reader.h"
#include "semantics/dwarf_constants.h"

/* GCC's CIE: code alignment 1, data alignment -8, ra 16; CFA rsp+8, ra c-8. */
static const struct cfa_cie_params gcc_cie = {.code_align = 1, .data_align = -8, .ra_column = 16, .addr_size = 8};

static void gcc_initial(struct cfi_state *st)
{
    cfi_state_init(st, 0);
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
static size_t used_bytes(const struct cfi_fde *f)
{
    size_t n = f->insns_len;
    while (n && f->insns[n - 1] == DW_CFA_nop)
        n--;
    return n;
}

/* Round trip every FDE of PATH; with WANT_ARGS_SIZE, some row must carry
 * an argument area (DW_CFA_GNU_args_size), which the encoding keeps. */
static void round_trip_file(const char *path, int want_args_size)
{
    if (access(path, R_OK) != 0) {
        printf("# skipped: no %s\n", path);
        return;
    }
    char err[ELF_FILE_ERRLEN];
    struct elf_file ef;
    assert_int_equal(elf_file_open(&ef, path, err, sizeof err), 0);
    struct cfi_section cs;
    assert_int_equal(cfi_section_read(&ef, ".eh_frame", &cs, err, sizeof err), 1);
    struct cfi_eval ev;
    assert_int_equal(cfi_eval_init(&ev, &cs), 0);
    size_t fdes = 0, rows = 0, refused = 0, theirs = 0, ours = 0, args_rows = 0;
    for (size_t i = 0; i < cs.nfdes; i++) {
        const struct cfi_fde *f = &cs.fdes[i];
        struct unwind_table t, back;
        struct cfa_error e;
        if (f->fault != FDE_SOUND || cfi_eval_fde_table(&ev, f, &t, &e) != 0)
            continue;
        const struct cie_result *cie = &ev.cies[cfi_eval_cie_index(&ev, f->cie)];
        struct cfi_bytes out = {0};
        const char *why = NULL;
        int rc = cfi_encode_fde(&t, &cie->params, &cie->state, &out, &why);
        if (rc == -1) {
            refused++;
            if (refused <= 3)
                printf("# %s: FDE at 0x%llx not encodable: %s\n", path, (unsigned long long)f->offset, why);
        } else {
            assert_int_equal(rc, 0);
            struct cfi_fde copy = *f;
            copy.insns = out.b ? out.b : (const uint8_t *)"";
            copy.insns_len = out.n;
            assert_int_equal(cfi_eval_fde_table(&ev, &copy, &back, &e), 0);
            if (!same_table(&t, &back))
                fail_msg("%s: FDE at 0x%llx [0x%llx, 0x%llx): decode(encode(H)) != H", path,
                         (unsigned long long)f->offset, (unsigned long long)t.start, (unsigned long long)t.end);
            unwind_table_release(&back);
            fdes++;
            rows += t.nrows;
            for (size_t r = 0; r < t.nrows; r++)
                args_rows += t.rows[r].args_size != 0;
            theirs += used_bytes(f);
            ours += out.n;
        }
        cfi_bytes_release(&out);
        unwind_table_release(&t);
    }
    printf("# %s: %zu FDEs, %zu rows: decode(encode(H)) == H; %zu refused; instructions %zu bytes, "
           "the compilers' %zu (%.3fx)\n", path, fdes, rows, refused, ours, theirs,
           theirs ? (double)ours / (double)theirs : 0.0);
    printf("# %s: %zu rows with an argument area (DW_CFA_GNU_args_size), kept\n", path, args_rows);
    assert_true(fdes > 1000);
    assert_true(!want_args_size || args_rows > 0);
    assert_int_equal(refused, 0);
    assert_true((double)ours <= 1.1 * (double)theirs);
    cfi_eval_release(&ev);
    cfi_section_release(&cs);
    elf_file_close(&ef);
}

static void test_round_trip_system(void **state)
{
    (void)state;
    round_trip_file("/usr/lib/x86_64-linux-gnu/libc.so.6", 0);
    round_trip_file("/usr/lib/x86_64-linux-gnu/libstdc++.so.6", 0);
    round_trip_file("/usr/lib/llvm-14/lib/libc++.so.1.0", 1);   /* clang: pushed arguments */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_pointer_prologue),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_round_trip_system),
    };
    return cmocka_run_group_tests_name("test_cfi_encode", tests, NULL, NULL);
}
