/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tests/register_frame/jit_code.h: code made at run time, as a JIT makes
 * it, with its .eh_frame written by hand (C and C++; header only).
 *
 * The function is copied into an executable page: it calls its first
 * argument with its second behind a frame-pointer frame
 *     push %rbp; mov %rsp,%rbp; mov %rdi,%rax; mov %rsi,%rdi;
 *     call *%rax; pop %rbp; ret
 * and its CIE and FDE are written in the page after it (the FDE's
 * pc-relative pointer reaches the code), then the zero terminator: the
 * section __register_frame takes.
 */
#ifndef TESTS_REGISTER_FRAME_JIT_CODE_H
#define TESTS_REGISTER_FRAME_JIT_CODE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef void (*jit_callback_fn)(void *);
typedef void (*jit_fn)(jit_callback_fn, void *);

#define JIT_CODE_SIZE 14
#define JIT_CALL_RETURN 12   /* the return address of its call, from its start */

struct jit_code {
    uint8_t *page;     /* the code, then (the next page) its .eh_frame */
    uint8_t *section;  /* the .eh_frame: CIE, FDE, terminator */
    uint8_t *fde;
    size_t size;       /* both pages' */
    jit_fn fn;
};

static inline void jit_put32(uint8_t *b, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[at + i] = (uint8_t)(v >> (8 * i));
}

/* The entry at AT of B, written up to N: padded with DW_CFA_nop to a
 * multiple of 8, its length field set; the new N. */
static inline size_t jit_close_entry(uint8_t *b, size_t at, size_t n)
{
    while ((n - at) % 8)
        b[n++] = 0;
    jit_put32(b, at, (uint32_t)(n - at - 4));
    return n;
}

/* The JIT function; when PERSONALITY is not NULL its CIE names it ("zPLR":
 * an absolute pointer, or, when INDIRECT, the address of a word in the
 * section's page that holds it) and its FDE names LSDA. */
static inline struct jit_code jit_code_make_with(void *personality, int indirect, const void *lsda)
{
    static const uint8_t code[JIT_CODE_SIZE] = {
        0x55,             /* 0: push %rbp */
        0x48, 0x89, 0xe5, /* 1: mov %rsp,%rbp */
        0x48, 0x89, 0xf8, /* 4: mov %rdi,%rax */
        0x48, 0x89, 0xf7, /* 7: mov %rsi,%rdi */
        0xff, 0xd0,       /* 10: call *%rax */
        0x5d,             /* 12: pop %rbp */
        0xc3,             /* 13: ret */
    };
    /* CIE: version 1, "zR", code align 1, data align -8, return address
     * 16, FDE pointers pcrel sdata4; CFA = rsp + 8, return address at
     * CFA - 8. */
    static const uint8_t cie[] = {1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b, 0x0c, 7, 8, 0x90, 1};
    static const uint8_t cie_head_p[] = {1, 'z', 'P', 'L', 'R', 0, 1, 0x78, 16, 11};
    static const uint8_t cie_tail_p[] = {0x00 /* L: absptr */, 0x1b /* R */, 0x0c, 7, 8, 0x90, 1};
    static const uint8_t insns[] = {
        0,                  /* augmentation data: none */
        0x41, 0x0e, 16,     /* at 1: CFA = rsp + 16 */
        0x86, 2,            /*       rbp at CFA - 16 */
        0x43, 0x0d, 6,      /* at 4: CFA = rbp + 16 */
        0x49, 0x0c, 7, 8,   /* at 13: CFA = rsp + 8 */
        0xc6,               /*        rbp restored */
    };
    struct jit_code j;
    size_t pagesize = (size_t)sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, 2 * pagesize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    j.page = (uint8_t *)p;
    j.size = 2 * pagesize;
    memcpy(j.page, code, sizeof code);
    uint8_t *b = j.section = j.page + pagesize;
    size_t n = 8;   /* the CIE: length, id 0 */
    jit_put32(b, 0, 0);
    jit_put32(b, 4, 0);
    if (personality) {
        /* the word an indirect pointer names: far past the terminator */
        uint64_t slot = (uint64_t)(uintptr_t)(b + 1024), pers = (uint64_t)(uintptr_t)personality;
        memcpy(b + 1024, &pers, 8);
        memcpy(b + n, cie_head_p, sizeof cie_head_p);
        n += sizeof cie_head_p;
        b[n++] = indirect ? 0x80 : 0x00;   /* P: absptr, indirect or not */
        memcpy(b + n, indirect ? &slot : &pers, 8);
        n += 8;
        memcpy(b + n, cie_tail_p, sizeof cie_tail_p);
        n = jit_close_entry(b, 0, n + sizeof cie_tail_p);
    } else {
        memcpy(b + n, cie, sizeof cie);
        n = jit_close_entry(b, 0, n + sizeof cie);
    }
    size_t fde = n;
    jit_put32(b, fde + 4, (uint32_t)(fde + 4));   /* back to the CIE, from this field */
    jit_put32(b, fde + 8, (uint32_t)(int32_t)((intptr_t)j.page - (intptr_t)(b + fde + 8)));
    jit_put32(b, fde + 12, JIT_CODE_SIZE);
    n = fde + 16;
    if (personality) {
        /* augmentation data: the LSDA's address */
        uint64_t l = (uint64_t)(uintptr_t)lsda;
        b[n++] = 8;
        memcpy(b + n, &l, 8);
        n += 8;
    } else {
        b[n++] = 0;
    }
    memcpy(b + n, insns + 1, sizeof insns - 1);
    n = jit_close_entry(b, fde, n + sizeof insns - 1);
    jit_put32(b, n, 0);   /* the terminator */
    j.fde = b + fde;
    if (mprotect(j.page, pagesize, PROT_READ | PROT_EXEC) != 0) {
        perror("mprotect");
        exit(2);
    }
    j.fn = (jit_fn)(void *)j.page;
    return j;
}

/* J's FDE made to describe the code at CODE (the same code) instead of its own. */
static inline void jit_code_retarget(struct jit_code *j, uint8_t *code)
{
    jit_put32(j->fde, 8, (uint32_t)(int32_t)((intptr_t)code - (intptr_t)(j->fde + 8)));
    j->page = code;
}

static inline struct jit_code jit_code_make(void)
{
    return jit_code_make_with(NULL, 0, NULL);
}

#endif
