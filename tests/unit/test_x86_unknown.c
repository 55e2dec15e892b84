/*
 * Unit tests for synth/x86_unknown.h: the encodings Capstone 4 does not
 * decode.  Each byte string and its length are GNU as's encoding of the
 * instruction in the comment, as `objdump -d --insn-width=16` prints it; the
 * registers written and the stores follow from the instruction's definition
 * (DWARF numbers: rax 0, rdx 1, rcx 2, rbx 3, rsi 4, rdi 5, rbp 6, rsp 7).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "synth/x86_unknown.h"

#define NONE 0xff
#define MAX_BYTES 11

struct expected {
    const char *text;
    uint8_t bytes[MAX_BYTES];
    unsigned len;
    uint32_t writes;       /* bit R: may write GPR R */
    int stores;
    uint8_t base;
    int has_index, exact_disp;
    int32_t disp;
};

#define W(r) (1u << (r))

static const struct expected cases[] = {
    {"kmovd %ecx,%k1", {0xc5, 0xfb, 0x92, 0xc9}, 4, 0, 0, NONE, 0, 0, 0},
    {"kmovd %k0,%eax", {0xc5, 0xfb, 0x93, 0xc0}, 4, W(0), 0, NONE, 0, 0, 0},
    {"kmovq %k0,%rax", {0xc4, 0xe1, 0xfb, 0x93, 0xc0}, 5, W(0), 0, NONE, 0, 0, 0},
    {"kmovq %rbx,%k1", {0xc4, 0xe1, 0xfb, 0x92, 0xcb}, 5, 0, 0, NONE, 0, 0, 0},
    {"kmovq %k3,%r12", {0xc4, 0x61, 0xfb, 0x93, 0xe3}, 5, W(12), 0, NONE, 0, 0, 0},
    {"kmovw %k4,0x418(%rsp)", {0xc5, 0xf8, 0x91, 0xa4, 0x24, 0x18, 0x04, 0x00, 0x00}, 9, 0, 1, 7, 0, 1, 0x418},
    {"kmovd %k5,0x8(%rbp)", {0xc4, 0xe1, 0xf9, 0x91, 0x6d, 0x08}, 6, 0, 1, 6, 0, 1, 8},
    {"vpcmpeqb (%rdi),%ymm16,%k0", {0x62, 0xf1, 0x7d, 0x20, 0x74, 0x07}, 6, 0, 0, 5, 0, 1, 0},
    {"vpcmpeqb -0x20(%rdi,%rdx,1),%ymm16,%k0", {0x62, 0xf1, 0x7d, 0x20, 0x74, 0x44, 0x17, 0xff}, 8, 0, 0, 5, 1, 0, -1},
    {"vpcmpeqb 0x40(%rsp),%zmm16,%k1", {0x62, 0xf1, 0x7d, 0x40, 0x74, 0x4c, 0x24, 0x01}, 8, 0, 0, 7, 0, 0, 1},
    {"vptestmb %ymm17,%ymm17,%k2", {0x62, 0xb2, 0x75, 0x20, 0x26, 0xd1}, 6, 0, 0, NONE, 0, 0, 0},
    {"vptestnmd %ymm19,%ymm19,%k0", {0x62, 0xb2, 0x66, 0x20, 0x27, 0xc3}, 6, 0, 0, NONE, 0, 0, 0},
    {"vbroadcasti128 (%rdi),%ymm8", {0xc4, 0x62, 0x7d, 0x5a, 0x07}, 5, 0, 0, 5, 0, 1, 0},
    {"vbroadcasti128 0x12345(%rip),%ymm1", {0xc4, 0xe2, 0x7d, 0x5a, 0x0d, 0x45, 0x23, 0x01, 0x00}, 9, 0, 0, NONE, 0, 1, 0x12345},
    {"vpternlogd $0xfe,%zmm1,%zmm2,%zmm3", {0x62, 0xf3, 0x6d, 0x48, 0x25, 0xd9, 0xfe}, 7, 0, 0, NONE, 0, 0, 0},
    {"vpcmpltuw (%rax),%zmm2,%k1", {0x62, 0xf3, 0xed, 0x48, 0x3e, 0x08, 0x01}, 7, 0, 0, 0, 0, 1, 0},
    {"vpcompressb %zmm0,0x100(%rsp)", {0x62, 0xf2, 0x7d, 0x48, 0x63, 0x84, 0x24, 0x00, 0x01, 0x00, 0x00}, 11, 0, 1, 7, 0, 1, 0x100},
    {"vpcompressd %zmm0,(%rsp,%rax,4)", {0x62, 0xf2, 0x7d, 0x48, 0x8b, 0x04, 0x84}, 7, 0, 1, 7, 1, 1, 0},
    {"vpmovqb %zmm1,0x20(%rbp)", {0x62, 0xf2, 0x7e, 0x48, 0x32, 0x4d, 0x04}, 7, 0, 1, 6, 0, 0, 4},
    {"vpextrd $0x1,%xmm0,%r9d", {0xc4, 0xc3, 0x79, 0x16, 0xc1, 0x01}, 6, W(9), 0, NONE, 0, 0, 0},
    {"vpextrq $0x1,%xmm0,0x30(%rsp)", {0xc4, 0xe3, 0xf9, 0x16, 0x44, 0x24, 0x30, 0x01}, 8, 0, 1, 7, 0, 1, 0x30},
    {"vmovd %xmm3,%r10d", {0xc4, 0xc1, 0x79, 0x7e, 0xda}, 5, W(10), 0, NONE, 0, 0, 0},
    {"rorx $0x3,%r11,%r13", {0xc4, 0x43, 0xfb, 0xf0, 0xeb, 0x03}, 6, W(13), 0, NONE, 0, 0, 0},
    {"mulx %r8,%r9,%r14", {0xc4, 0x42, 0xb3, 0xf6, 0xf0}, 5, W(14) | W(9), 0, NONE, 0, 0, 0},
    {"blsr %rcx,%r15", {0xc4, 0xe2, 0x80, 0xf3, 0xc9}, 5, W(15), 0, NONE, 0, 0, 0},
    {"vpmadd52luq %zmm1,%zmm2,%zmm3", {0x62, 0xf2, 0xed, 0x48, 0xb4, 0xd9}, 6, 0, 0, NONE, 0, 0, 0},
    {"rdpkru", {0x0f, 0x01, 0xee}, 3, W(0) | W(1), 0, NONE, 0, 0, 0},
    {"wrpkru", {0x0f, 0x01, 0xef}, 3, 0, 0, NONE, 0, 0, 0},
    {"rdsspq %rbx", {0xf3, 0x48, 0x0f, 0x1e, 0xcb}, 5, W(3), 0, NONE, 0, 0, 0},
    {"incsspq %rax", {0xf3, 0x48, 0x0f, 0xae, 0xe8}, 5, 0, 0, NONE, 0, 0, 0},
    {"rdsspd %r9d", {0xf3, 0x41, 0x0f, 0x1e, 0xc9}, 5, W(9), 0, NONE, 0, 0, 0},
    {"vpscatterdd %zmm0,(%rsp,%zmm20,4){%k1}", {0x62, 0xf2, 0x7d, 0x41, 0xa0, 0x04, 0xa4}, 7, 0, 1, 7, 1, 1, 0},
    {"vpgatherdd (%rsp,%zmm1,4),%zmm0{%k1}", {0x62, 0xf2, 0x7d, 0x49, 0x90, 0x04, 0x8c}, 7, 0, 0, 7, 1, 1, 0},
    {"cmpbexadd %eax,%ecx,0x8(%rsp)", {0xc4, 0xe2, 0x79, 0xe6, 0x4c, 0x24, 0x08}, 7, W(2), 1, 7, 0, 1, 8},
    {"sttilecfg 0x8(%rsp)", {0xc4, 0xe2, 0x79, 0x49, 0x44, 0x24, 0x08}, 7, 0, 1, 7, 0, 1, 8},
    {"tilestored %tmm1,0x40(%rsp,%rax,1)", {0xc4, 0xe2, 0x7a, 0x4b, 0x4c, 0x04, 0x40}, 7, 0, 1, 7, 1, 1, 0x40},
    {"vzeroupper", {0xc5, 0xf8, 0x77}, 3, 0, 0, NONE, 0, 0, 0},
    {"vzeroall", {0xc5, 0xfc, 0x77}, 3, 0, 0, NONE, 0, 0, 0},
    {"tpause %edi", {0x66, 0x0f, 0xae, 0xf7}, 4, 0, 0, NONE, 0, 0, 0},
    {"umonitor %rdi", {0xf3, 0x0f, 0xae, 0xf7}, 4, 0, 0, NONE, 0, 0, 0},
    {"umwait %ecx", {0xf2, 0x0f, 0xae, 0xf1}, 4, 0, 0, NONE, 0, 0, 0},
    {"umwait %r9d", {0xf2, 0x41, 0x0f, 0xae, 0xf1}, 5, 0, 0, NONE, 0, 0, 0},
};

static void test_encodings(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct expected *e = &cases[i];
        struct x86_unknown_insn u;
        print_message("%s\n", e->text);
        /* More bytes available than the instruction has: the length is its own. */
        uint8_t code[MAX_BYTES + 4];
        memset(code, 0x90, sizeof code);
        memcpy(code, e->bytes, e->len);
        assert_int_equal(x86_unknown_decode(code, sizeof code, &u), e->len);
        assert_int_equal(u.len, e->len);
        assert_non_null(u.name);
        uint32_t writes = 0;
        for (unsigned k = 0; k < u.nwrites; k++)
            writes |= W(u.writes[k]);
        assert_int_equal(writes, e->writes);
        assert_int_equal(u.stores, e->stores);
        if (e->base != NONE || e->stores) {
            assert_int_equal(u.base, e->base);
            assert_int_equal(u.has_index, e->has_index);
            assert_int_equal(u.exact_disp, e->exact_disp);
            assert_int_equal(u.disp, e->disp);
        }
        /* One byte short: not decoded. */
        assert_int_equal(x86_unknown_decode(e->bytes, e->len - 1, &u), 0);
    }
}

static void test_not_ours(void **state)
{
    (void)state;
    struct x86_unknown_insn u;
    static const uint8_t mov_rsp_rbp[] = {0x48, 0x89, 0xe5};
    static const uint8_t endbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};      /* F3 0F 1E /7, not rdssp */
    static const uint8_t bad_evex[] = {0x62, 0xff, 0x7d, 0x20, 0x74, 0x07};   /* reserved bits set */
    static const uint8_t vex_map4[] = {0xc4, 0xe4, 0x7d, 0x5a, 0x07};
    static const uint8_t lfence[] = {0x66, 0x0f, 0xae, 0xe8};    /* 0F AE /5: not WAITPKG */
    assert_int_equal(x86_unknown_decode(mov_rsp_rbp, sizeof mov_rsp_rbp, &u), 0);
    assert_int_equal(x86_unknown_decode(endbr64, sizeof endbr64, &u), 0);
    assert_int_equal(x86_unknown_decode(bad_evex, sizeof bad_evex, &u), 0);
    assert_int_equal(x86_unknown_decode(vex_map4, sizeof vex_map4, &u), 0);
    assert_int_equal(x86_unknown_decode(lfence, sizeof lfence, &u), 0);
    assert_int_equal(x86_unknown_decode(mov_rsp_rbp, 0, &u), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encodings),
        cmocka_unit_test(test_not_ours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
/* SPDX-License-Identifier: Apache-2.0 */
