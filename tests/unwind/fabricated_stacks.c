/*
 * fabricated_stacks: the in-process walks never follow a bad pointer.
 *
 * A stack of random words is made between two PROT_NONE guard pages: small
 * numbers, pointers into it (above and below the walk's start), into the
 * guard pages, into unmapped and kernel addresses, and return addresses
 * into the code of this program and of libc (the callers of real calls, so
 * that the walk takes their rows and reads on).  From random registers on
 * it (an IP in that code, rsp inside the stack, rbp random; the exact-IP
 * flag at random, as a signal context has it; a quarter of the stacks
 * mostly one or two return addresses, a recursion's), dwu_backtrace's walk
 * (dwu_backtrace_from, which dwu_backtrace enters with the caller's
 * registers) and dwu_unwind with no reader walk this process's memory
 * directly: every word they read must be checked first.  A fault kills the
 * process, which the suite reports; the count of walks and how they ended
 * is printed.
 *
 *   fabricated_stacks WALKS [SEED]        with or without eh_elfs (DWUNWIND_PATH)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/dwunwind.h"
#include "runtime/objects.h"   /* dwu_objects_count: which objects have eh_elfs */

/* The walk dwu_backtrace starts (runtime/unwind.c; hidden in the shared
 * library, linked here from the archive). */
int dwu_backtrace_from(void **ips, int max, struct dwu_regs *regs);

#define STACK_WORDS 4096
#define MAX_FRAMES 64

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* Return addresses: each just after a call in this program or in libc. */
static uint64_t code[64];
static size_t ncode;

static __attribute__((noinline)) uint64_t here(void)
{
    return (uint64_t)(uintptr_t)__builtin_return_address(0);
}

static int compare_words(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* A call site in this program, and return addresses of libc: qsort's
 * callback is called from inside libc, whose return address is found on
 * the stack by a walk of our own. */
static uint64_t libc_return;

static int compare_and_look(const void *a, const void *b)
{
    void *ips[4];
    if (!libc_return) {
        int n = dwu_backtrace(ips, 4);
        if (n >= 2)
            libc_return = (uint64_t)(uintptr_t)ips[1];
    }
    return compare_words(a, b);
}

static void find_code(void)
{
    code[ncode++] = here();
    code[ncode++] = here() + 1;
    uint64_t v[8] = {5, 3, 8, 1, 9, 2, 7, 4};
    qsort(v, 8, sizeof v[0], compare_and_look);
    if (libc_return)
        code[ncode++] = libc_return;
    void *ips[16];
    int n = dwu_backtrace(ips, 16);   /* main's callers: libc's start */
    for (int i = 0; i < n && ncode < 60; i++)
        code[ncode++] = (uint64_t)(uintptr_t)ips[i];
    code[ncode++] = (uint64_t)(uintptr_t)&memcpy;
    code[ncode++] = (uint64_t)(uintptr_t)&getpid + 7;
}

/* A word for the stack at WORDS: what a bad stack may hold. */
static uint64_t fabricated_word(const uint64_t *words, uint64_t page)
{
    uint64_t r = next_random();
    uint64_t base = (uint64_t)(uintptr_t)words;
    switch (r % 10) {
    case 0: return r >> 48;                                       /* a small number */
    case 1: return 0;
    case 2: case 3: return base + (r >> 8) % (STACK_WORDS * 8);   /* into the stack */
    case 4: return base - page + (r >> 8) % page;                 /* the guard below */
    case 5: return base + STACK_WORDS * 8 + (r >> 8) % page;      /* the guard above */
    case 6: case 7: return code[(r >> 8) % ncode];                /* a return address */
    case 8: return 0xffff800000000000u + (r >> 20);               /* the kernel's */
    default: return r;                                            /* anything */
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fabricated_stacks WALKS [SEED]\n");
        return 2;
    }
    long walks = atol(argv[1]);
    if (argc > 2)
        state = strtoull(argv[2], NULL, 0) | 1;
    find_code();
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    size_t size = STACK_WORDS * 8 + 2 * page;
    uint8_t *region = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED || mprotect(region, page, PROT_NONE) ||
        mprotect(region + size - page, page, PROT_NONE)) {
        perror("fabricated_stacks: mmap");
        return 2;
    }
    uint64_t *words = (uint64_t *)(void *)(region + page);
    long frames = 0, longest = 0, ended[8] = {0};
    for (long w = 0; w < walks; w++) {
        if (w % 64 == 0) {
            /* One refill in four looks like a recursion: one or two
             * return addresses in most words, so that walks take the
             * recursion path (runtime/unwind.c's repeat_walk) to the
             * stack's ends, through the other words sprinkled in. */
            int recursion = next_random() % 4 == 0;
            uint64_t a = code[next_random() % ncode], b = next_random() % 2 ? a : code[next_random() % ncode];
            for (size_t i = 0; i < STACK_WORDS; i++)
                words[i] = recursion && next_random() % 16 ? (i & 1 ? b : a) : fabricated_word(words, page);
        }
        struct dwu_regs regs = {0};
        regs.r[DWU_RIP] = code[next_random() % ncode] + (next_random() % 4 == 0 ? next_random() % 64 : 0);
        regs.r[DWU_RSP] = (uint64_t)(uintptr_t)words + (next_random() % STACK_WORDS) * 8;
        regs.r[DWU_RBP] = fabricated_word(words, page);
        regs.valid = (1u << DWU_RIP) | (1u << DWU_RSP) | (1u << DWU_RBP);
        regs.flags = next_random() % 4 == 0 ? DWU_FLAG_EXACT_IP : 0;
        struct dwu_regs copy = regs;
        void *ips[MAX_FRAMES];
        int n = dwu_backtrace_from(ips, MAX_FRAMES, &copy);
        uint64_t chunk[MAX_FRAMES];
        int status = 0;
        int m = dwu_unwind(&regs, NULL, chunk, MAX_FRAMES, &status);
        frames += n + m;
        longest = n > longest ? n : longest;
        ended[(unsigned)(-status) & 7]++;
    }
    size_t with_eh_elf, objects = dwu_objects_count(&with_eh_elf);
    printf("fabricated stacks: %ld walks of each kind, %ld frames (longest %ld), none faulted;"
           " dwu_unwind ended: %ld end or max, %ld no info, %ld memory, %ld register, %ld rule, %ld loop;"
           " %zu of %zu objects with eh_elfs\n",
           walks, frames, longest, ended[0] + ended[7], ended[1], ended[2], ended[3], ended[4], ended[5],
           with_eh_elf, objects);
    munmap(region, size);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
