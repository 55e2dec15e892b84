/*
 * Unit tests for semantics/eh_frame_parse on sections written byte by byte:
 * a "zPLR" CIE (personality, LSDA and FDE encodings) and its FDE, unknown
 * augmentations with and without 'z', a version-4 .debug_frame CIE with
 * 4-byte addresses, entries that run past the section, and the runtime's
 * search through .eh_frame_hdr (found, not covered, malformed, and a header
 * whose .eh_frame pointer leaves the readable segment: a fuzzer's find).
 * Every expected address is worked out by hand next to it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "semantics/eh_frame_parse.h"

/* ---- a little section writer ---------------------------------------------- */

struct bytes {
    uint8_t b[512];
    size_t n;
};

static void put(struct bytes *s, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        s->b[s->n++] = (uint8_t)(v >> (8 * i));
}

static void put_str(struct bytes *s, const char *str)
{
    size_t n = strlen(str) + 1;
    memcpy(s->b + s->n, str, n);
    s->n += n;
}

/* Write the 4-byte length of the entry that starts at START, now that it ends here. */
static void close_entry(struct bytes *s, size_t start)
{
    uint32_t len = (uint32_t)(s->n - start - 4);
    memcpy(s->b + start, &len, 4);
}

/* CIE at offset 0 of an .eh_frame at 0x2000: "zPLR", personality
 * indirect|pcrel|sdata4 (0x9b) = +0x100, LSDA pcrel|sdata4, FDEs pcrel|sdata4;
 * then an FDE for [0x1000, 0x1040) with an LSDA at 0x3000. */
static size_t write_zplr(struct bytes *s, size_t *fde_off)
{
    s->n = 0;
    put(s, 0, 4);                 /* length, closed below */
    put(s, 0, 4);                 /* CIE id */
    put(s, 1, 1);                 /* version */
    put_str(s, "zPLR");
    put(s, 1, 1);                 /* code_align 1 */
    put(s, 0x78, 1);              /* data_align -8 */
    put(s, 16, 1);                /* ra column */
    put(s, 7, 1);                 /* augmentation data: 7 bytes */
    put(s, 0x9b, 1);              /* P: encoding, then the pointer at offset 0x13 */
    put(s, 0x100, 4);
    put(s, 0x1b, 1);              /* L */
    put(s, 0x1b, 1);              /* R */
    put(s, 0x0c, 1);              /* insns: def_cfa r7, 8 */
    put(s, 7, 1);
    put(s, 8, 1);
    close_entry(s, 0);
    *fde_off = s->n;
    put(s, 0, 4);
    put(s, s->n, 4);              /* CIE pointer: back to offset 0 from this field */
    /* pc_begin field at 0x2000 + fde_off + 8 holds 0x1000 - that address */
    put(s, (uint64_t)(uint32_t)(0x1000 - (0x2000 + *fde_off + 8)), 4);
    put(s, 0x40, 4);              /* pc_range */
    put(s, 4, 1);                 /* augmentation data: the LSDA, at fde_off + 17 */
    put(s, (uint64_t)(uint32_t)(0x3000 - (0x2000 + *fde_off + 17)), 4);
    put(s, 0x41, 1);              /* advance_loc 1 */
    close_entry(s, *fde_off);
    return s->n;
}

static void test_zplr(void **state)
{
    (void)state;
    struct bytes s;
    size_t fde_off;
    write_zplr(&s, &fde_off);
    struct frame_view v = {s.b, s.n, 0x2000, 1};
    struct frame_entry ce, fe;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    const char *why = NULL;
    uint64_t cie_off = 99;
    assert_int_equal(eh_frame_entry_read(&v, 0, &ce, &why), 0);
    assert_int_equal(ce.kind, FRAME_ENTRY_CIE);
    assert_int_equal(eh_frame_cie_parse(&v, &ce, &cie, &why), 0);
    assert_string_equal(cie.augmentation, "zPLR");
    assert_int_equal(cie.code_align, 1);
    assert_int_equal(cie.data_align, -8);
    assert_int_equal(cie.ra_column, 16);
    assert_int_equal(cie.personality_encoding, 0x9b);
    assert_true(cie.personality == 0x2000 + 0x13 + 0x100);   /* pc-relative to its field */
    assert_int_equal(cie.lsda_encoding, 0x1b);
    assert_int_equal(cie.fde_encoding, 0x1b);
    assert_true(cie.insns == s.b + 0x19 && cie.insns_len == 3);

    assert_int_equal(eh_frame_entry_read(&v, fde_off, &fe, &why), 0);
    assert_int_equal(fe.kind, FRAME_ENTRY_FDE);
    assert_int_equal(eh_frame_fde_cie_offset(&v, &fe, &cie_off, &why), 0);
    assert_int_equal(cie_off, 0);
    assert_int_equal(eh_frame_fde_parse(&v, &fe, &cie, &fde, &why), 0);
    assert_true(fde.pc_begin == 0x1000 && fde.pc_range == 0x40);
    assert_true(fde.lsda == 0x3000);
    assert_true(fde.insns == s.b + fde_off + 21 && fde.insns_len == 1);
}

/* A CIE with augmentation AUG and DATA_LEN bytes of data after 'z' (when AUG starts with it). */
static int parse_aug(const char *aug, int data_len, struct eh_frame_cie *cie)
{
    struct bytes s = {.n = 0};
    put(&s, 0, 4);
    put(&s, 0, 4);
    put(&s, 1, 1);
    put_str(&s, aug);
    put(&s, 1, 1);
    put(&s, 0x78, 1);
    put(&s, 16, 1);
    if (data_len >= 0) {
        put(&s, (uint64_t)data_len, 1);
        for (int i = 0; i < data_len; i++)
            put(&s, 0x1b, 1);
    }
    put(&s, 0, 1);                /* one DW_CFA_nop */
    close_entry(&s, 0);
    struct frame_view v = {s.b, s.n, 0x2000, 1};
    struct frame_entry e;
    const char *why;
    if (eh_frame_entry_read(&v, 0, &e, &why) != 0)
        return -1;
    return eh_frame_cie_parse(&v, &e, cie, &why) == 0 ? (int)cie->insns_len : -1;
}

static void test_augmentations(void **state)
{
    (void)state;
    struct eh_frame_cie cie;
    assert_int_equal(parse_aug("X", -1, &cie), -1);      /* cannot be skipped without 'z' */
    assert_int_equal(parse_aug("zXR", 2, &cie), 1);      /* 'z' skips both bytes: one nop left */
    assert_int_equal(cie.fde_encoding, 0);               /* R after the unknown X is not read */
    assert_int_equal(parse_aug("zR", 1, &cie), 1);
    assert_int_equal(cie.fde_encoding, 0x1b);
    assert_int_equal(parse_aug("zRS", 1, &cie), 1);
    assert_true(cie.signal_frame);
    assert_int_equal(parse_aug("zLR", 1, &cie), -1);     /* the data is shorter than its letters */
    assert_int_equal(parse_aug("zR", 9, &cie), 1);      /* data longer than its letters: skipped to its end */
}

static void test_debug_frame_v4(void **state)
{
    (void)state;
    struct bytes s = {.n = 0};
    put(&s, 0, 4);
    put(&s, 0xffffffff, 4);       /* .debug_frame CIE id */
    put(&s, 4, 1);                /* version 4 */
    put_str(&s, "");
    put(&s, 4, 1);                /* address_size 4 */
    put(&s, 0, 1);                /* segment_selector_size */
    put(&s, 1, 1);
    put(&s, 0x78, 1);
    put(&s, 16, 1);               /* ra: ULEB in version 4 */
    close_entry(&s, 0);
    size_t fde_off = s.n;
    put(&s, 0, 4);
    put(&s, 0, 4);                /* CIE pointer: section offset 0 */
    put(&s, 0x401000, 4);         /* pc_begin, 4 bytes */
    put(&s, 0x20, 4);
    close_entry(&s, fde_off);
    struct frame_view v = {s.b, s.n, 0, 0};
    struct frame_entry ce, fe;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    const char *why;
    uint64_t cie_off;
    assert_int_equal(eh_frame_entry_read(&v, 0, &ce, &why), 0);
    assert_int_equal(ce.kind, FRAME_ENTRY_CIE);
    assert_int_equal(eh_frame_cie_parse(&v, &ce, &cie, &why), 0);
    assert_int_equal(cie.addr_size, 4);
    assert_int_equal(eh_frame_entry_read(&v, fde_off, &fe, &why), 0);
    assert_int_equal(fe.kind, FRAME_ENTRY_FDE);
    assert_int_equal(eh_frame_fde_cie_offset(&v, &fe, &cie_off, &why), 0);
    assert_int_equal(cie_off, 0);
    assert_int_equal(eh_frame_fde_parse(&v, &fe, &cie, &fde, &why), 0);
    assert_true(fde.pc_begin == 0x401000 && fde.pc_range == 0x20 && fde.insns_len == 0);
}

static void test_bad_framing(void **state)
{
    (void)state;
    struct bytes s;
    size_t fde_off;
    write_zplr(&s, &fde_off);
    struct frame_entry e;
    const char *why = NULL;
    struct frame_view cut = {s.b, s.n - 1, 0x2000, 1};   /* the FDE's last byte missing */
    assert_int_equal(eh_frame_entry_read(&cut, fde_off, &e, &why), -1);
    assert_string_equal(why, "entry runs past the end of the section");
    struct frame_view v = {s.b, s.n, 0x2000, 1};
    uint32_t far = (uint32_t)(fde_off + 8);               /* a CIE pointer before the section */
    memcpy(s.b + fde_off + 4, &far, 4);
    uint64_t off;
    assert_int_equal(eh_frame_entry_read(&v, fde_off, &e, &why), 0);
    assert_int_equal(eh_frame_fde_cie_offset(&v, &e, &off, &why), -1);
    uint32_t huge = 0xfffffff0u;                          /* 64-bit escape missing its length */
    memcpy(s.b, &huge, 4);
    assert_int_equal(eh_frame_entry_read(&v, 0, &e, &why), -1);
}

/* ---- the runtime's search ------------------------------------------------- */

/* .eh_frame_hdr and .eh_frame at offsets of one buffer whose addresses are
 * the pointers: the header's table has one entry, for the FDE of write_zplr
 * (relocated to the buffer's own addresses). */
struct image {
    uint8_t b[1024];
    uint8_t *hdr, *eh_frame;
    size_t fde_off;
    uint64_t fn;                  /* where the FDE's function is */
};

static void write_image(struct image *im, size_t hdr_at, size_t eh_frame_at)
{
    struct bytes s;
    memset(im->b, 0, sizeof im->b);
    write_zplr(&s, &im->fde_off);
    im->hdr = im->b + hdr_at;
    im->eh_frame = im->b + eh_frame_at;
    memcpy(im->eh_frame, s.b, s.n);
    uint64_t eh = (uint64_t)(uintptr_t)im->eh_frame, hdr = (uint64_t)(uintptr_t)im->hdr;
    /* write_zplr placed pc_begin at 0x1000 assuming .eh_frame at 0x2000: the
     * function is then at eh - 0x1000 in this buffer's address space. */
    im->fn = eh - 0x1000;
    uint8_t h[] = {1, 0x1b, 0x03, 0x3b};
    memcpy(im->hdr, h, 4);
    int32_t rel = (int32_t)(eh - (hdr + 4));              /* eh_frame_ptr, pcrel from its field */
    memcpy(im->hdr + 4, &rel, 4);
    uint32_t count = 1;
    memcpy(im->hdr + 8, &count, 4);
    int32_t start = (int32_t)(im->fn - hdr), fde = (int32_t)(eh + im->fde_off - hdr);
    memcpy(im->hdr + 12, &start, 4);
    memcpy(im->hdr + 16, &fde, 4);
}

static void test_search(void **state)
{
    (void)state;
    static struct image im;
    struct eh_frame_cie cie;
    struct eh_frame_fde fde;
    write_image(&im, 0, 64);
    const uint8_t *end = im.b + sizeof im.b;
    assert_int_equal(eh_frame_find_fde_in_memory(im.b, im.hdr, end, im.fn + 0x3f, &cie, &fde), FRAME_FOUND);
    assert_true(fde.pc_begin == im.fn && fde.pc_range == 0x40);
    assert_int_equal(eh_frame_find_fde_in_memory(im.b, im.hdr, end, im.fn + 0x40, &cie, &fde), FRAME_NOT_COVERED);
    assert_int_equal(eh_frame_find_fde_in_memory(im.b, im.hdr, end, im.fn - 1, &cie, &fde), FRAME_NOT_COVERED);
    /* The readable segment ends inside the FDE. */
    assert_int_equal(eh_frame_find_fde_in_memory(im.b, im.hdr, im.eh_frame + im.fde_off + 8, im.fn, &cie, &fde),
                     FRAME_NOT_COVERED);
    /* The FDE's CIE is no CIE: its id is not 0. */
    im.eh_frame[4] = 1;
    assert_int_equal(eh_frame_find_fde_in_memory(im.b, im.hdr, end, im.fn, &cie, &fde), FRAME_MALFORMED);
    /* eh_frame_ptr aims below the segment, at a sound .eh_frame: nothing there is read. */
    write_image(&im, 512, 0);
    assert_int_equal(eh_frame_find_fde_in_memory(im.b, im.hdr, end, im.fn, &cie, &fde), FRAME_FOUND);
    assert_int_equal(eh_frame_find_fde_in_memory(im.hdr, im.hdr, end, im.fn, &cie, &fde), FRAME_NOT_COVERED);
    /* A table longer than the segment. */
    write_image(&im, 0, 64);
    uint32_t many = 1u << 30;
    memcpy(im.hdr + 8, &many, 4);
    assert_int_equal(eh_frame_find_fde_in_memory(im.b, im.hdr, end, im.fn, &cie, &fde), FRAME_NOT_COVERED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zplr),
        cmocka_unit_test(test_augmentations),
        cmocka_unit_test(test_debug_frame_v4),
        cmocka_unit_test(test_bad_framing),
        cmocka_unit_test(test_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
