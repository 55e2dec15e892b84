/*
 * check_unwind: dwunwind against libgcc and libunwind on the same stacks.
 *
 *   check_unwind [--dwarf] [--rebuild] [--corrupt N]
 *
 * For chains of every depth from 1 to 40 through tests/unwind/frames.c (and
 * libc's qsort), and recursions of every depth from 1 to 80 (frames.c's
 * chain_recursive), at the bottom of each:
 *   - dwu_backtrace's IPs equal _Unwind_Backtrace's and unw_backtrace's
 *     (from the caller of the function that asks on);
 *   - stepping with dwu_step restores, frame by frame, the IP, the stack
 *     pointer and the callee-saved registers that libunwind's unw_step
 *     reports;
 *   - the stack, copied and unwound through the bounds-checked reader,
 *     gives the same IPs.
 * --dwarf turns eh_elfs off (the DWARF fallback for every object).
 * --rebuild finds the objects and their eh_elfs a second time before the
 * walks, as after a dlopen: the same eh_elfs must be found again, and none
 * taken for an object to unwind.
 * --corrupt N then unwinds, for each stack, N copies with 1 to 8 random
 * bytes changed (half of them in return-address slots), bounds-checked:
 * none may crash, and the errors are counted.
 * Prints a summary; exit status 1 on any mismatch.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "libgcc_walk.h"
#include "runtime/dwunwind.h"
#include "runtime/objects.h"
#include "callee_saved.h"

#define MAX_FRAMES 256
#define MAX_DEPTH 40
#define MAX_RECURSION 80

static uint64_t stack_top;
static int failures;
static long frames_compared, registers_compared;

static void fail(int depth, const char *what, int frame, uint64_t want, uint64_t got)
{
    if (failures++ < 20)
        fprintf(stderr, "depth %d: %s differs at frame %d: reference 0x%llx, dwunwind 0x%llx\n", depth,
                what, frame, (unsigned long long)want, (unsigned long long)got);
}

/* IP lists that start in the same function (the leaf) and must agree from
 * the next frame on. */
static void compare_ips(int depth, const char *what, const uint64_t *want, int nwant, const uint64_t *got,
                        int ngot)
{
    if (nwant != ngot) {
        fail(depth, what, -1, (uint64_t)nwant, (uint64_t)ngot);
        return;
    }
    for (int i = 1; i < nwant; i++) {
        if (want[i] != got[i]) {
            fail(depth, what, i, want[i], got[i]);
            return;
        }
        frames_compared++;
    }
}

/* Step libunwind and dwunwind together from the same point of the leaf. */
static __attribute__((noinline)) void compare_registers(int depth)
{
    unw_context_t uc;
    unw_cursor_t cur;
    struct dwu_regs regs;
    dwu_capture(&regs);
    unw_getcontext(&uc);
    if (unw_init_local(&cur, &uc) != 0) {
        fail(depth, "unw_init_local", 0, 0, 1);
        return;
    }
    /* Both describe this function; compare from its caller on. */
    for (int frame = 1; frame < MAX_FRAMES; frame++) {
        int urc = unw_step(&cur);
        int drc = dwu_step(&regs, NULL);
        if (urc <= 0 || drc != DWU_OK) {
            if ((urc <= 0) != (drc != DWU_OK))
                fail(depth, "end of stack", frame, (uint64_t)urc, (uint64_t)drc);
            return;
        }
        unw_word_t ip, sp, v;
        unw_get_reg(&cur, UNW_REG_IP, &ip);
        unw_get_reg(&cur, UNW_REG_SP, &sp);
        if (ip != regs.r[DWU_RIP]) {
            fail(depth, "ip", frame, ip, regs.r[DWU_RIP]);
            return;
        }
        if (sp != regs.r[DWU_RSP]) {
            fail(depth, "rsp", frame, sp, regs.r[DWU_RSP]);
            return;
        }
        for (unsigned k = 0; k < NCALLEE_SAVED; k++) {
            if (!(regs.valid & (1u << dwu_callee_saved[k])) || unw_get_reg(&cur, unw_callee_saved[k], &v) != 0)
                continue;
            if (v != regs.r[dwu_callee_saved[k]]) {
                fail(depth, "a callee-saved register", frame, v, regs.r[dwu_callee_saved[k]]);
                return;
            }
            registers_compared++;
        }
    }
}

/* The stack from RSP to its top, copied as perf copies it: every byte,
 * including what AddressSanitizer poisons between locals. */
__attribute__((no_sanitize("address"))) static uint8_t *copy_stack(uint64_t rsp, struct dwu_stack_copy *copy)
{
    uint64_t size = stack_top - rsp;
    uint8_t *data = malloc(size);
    if (!data)
        abort();
    const volatile uint8_t *from = (const volatile uint8_t *)(uintptr_t)rsp;
    for (uint64_t i = 0; i < size; i++)
        data[i] = from[i];
    *copy = (struct dwu_stack_copy){rsp, data, size};
    return data;
}

static long corrupt_runs, corrupt_errors;
static int corrupt_count;

static __attribute__((noinline)) void unwind_copies(int depth, const uint64_t *want, int nwant)
{
    struct dwu_regs regs, start;
    dwu_capture(&regs);
    struct dwu_stack_copy copy;
    uint8_t *data = copy_stack(regs.r[DWU_RSP], &copy);
    struct dwu_memory mem = {dwu_read_stack_copy, &copy};
    start = regs;
    uint64_t got[MAX_FRAMES];
    int status;
    /* Skip this function's frame: the lists then start in the leaf. */
    if (dwu_step(&regs, &mem) != DWU_OK) {
        fail(depth, "captured stack", 0, 0, 1);
    } else {
        int n = dwu_unwind(&regs, &mem, got, MAX_FRAMES, &status);
        compare_ips(depth, "captured stack", want, nwant, got, n);
    }
    /* Random corruption of the copy: errors, never a crash.  Half the
     * changes hit a byte of a slot that holds a return address (where they
     * matter most), the others any byte. */
    uint64_t slots[MAX_FRAMES];
    int nslots = 0;
    for (uint64_t off = 0; off + 8 <= copy.size && nslots < MAX_FRAMES; off += 8) {
        uint64_t w;
        memcpy(&w, data + off, 8);
        for (int i = 1; i < nwant; i++)
            if (w == want[i]) {
                slots[nslots++] = off;
                break;
            }
    }
    for (int k = 0; k < corrupt_count; k++) {
        uint8_t *bad = malloc(copy.size);
        if (!bad)
            abort();
        memcpy(bad, data, copy.size);
        int changes = 1 + rand() % 8;
        for (int c = 0; c < changes; c++) {
            uint64_t at = nslots && rand() % 2 ? slots[rand() % nslots] + (uint64_t)(rand() % 8)
                                               : (uint64_t)rand() % copy.size;
            bad[at] = (uint8_t)rand();
        }
        struct dwu_stack_copy bad_copy = {copy.base, bad, copy.size};
        struct dwu_memory bad_mem = {dwu_read_stack_copy, &bad_copy};
        regs = start;
        dwu_unwind(&regs, &bad_mem, got, MAX_FRAMES, &status);
        corrupt_runs++;
        corrupt_errors += status != DWU_END;
        free(bad);
    }
    free(data);
}

static int leaf(void *arg)
{
    int depth = *(int *)arg;
    void *ips[MAX_FRAMES];
    uint64_t mine[MAX_FRAMES], lu[MAX_FRAMES];
    uint64_t gcc[MAX_FRAMES];
    int n = dwu_backtrace(ips, MAX_FRAMES);
    int ngcc = libgcc_walk(gcc, MAX_FRAMES);
    void *lu_ips[MAX_FRAMES];
    int nlu = unw_backtrace(lu_ips, MAX_FRAMES);
    for (int i = 0; i < n; i++)
        mine[i] = (uint64_t)(uintptr_t)ips[i];
    for (int i = 0; i < nlu; i++)
        lu[i] = (uint64_t)(uintptr_t)lu_ips[i];
    compare_ips(depth, "backtrace vs libgcc", gcc, ngcc, mine, n);
    compare_ips(depth, "backtrace vs libunwind", lu, nlu, mine, n);
    compare_registers(depth);
    unwind_copies(depth, mine, n);
    return n;
}

int main(int argc, char **argv)
{
    if (libgcc_walk_init() != 0)
        return 2;
    int use_eh_elfs = 1, rebuild = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--dwarf") == 0) {
            dwu_objects_use_eh_elfs(0);
            use_eh_elfs = 0;
        } else if (strcmp(argv[i], "--rebuild") == 0) {
            rebuild = 1;
        } else if (strcmp(argv[i], "--corrupt") == 0 && i + 1 < argc) {
            corrupt_count = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: check_unwind [--dwarf] [--rebuild] [--corrupt N]\n");
            return 2;
        }
    }
    if (rebuild) {
        dwu_objects_count(NULL);
        dwu_objects_use_eh_elfs(use_eh_elfs);
    }
    pthread_attr_t attr;
    void *addr;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0 || pthread_attr_getstack(&attr, &addr, &size) != 0)
        return 2;
    stack_top = (uint64_t)(uintptr_t)addr + size;
    pthread_attr_destroy(&attr);
    srand(12345);
    for (int depth = 1; depth <= MAX_DEPTH; depth++)
        chain(depth, leaf, &depth);
    for (int depth = 1; depth <= MAX_RECURSION; depth++) {
        int label = 1000 + depth;   /* failures name recursions 1001 ... */
        chain_recursive(depth, leaf, &label);
    }
    size_t with_eh_elf, objects = dwu_objects_count(&with_eh_elf);
    printf("%zu code segments, %zu with an eh_elf\n", objects, with_eh_elf);
    printf("%d stacks (%d of them recursions): %ld frames identical to libgcc, libunwind and the captured copy; "
           "%ld callee-saved registers identical to libunwind's; %d mismatches\n",
           MAX_DEPTH + MAX_RECURSION, MAX_RECURSION, frames_compared, registers_compared, failures);
    if (corrupt_count)
        printf("corrupted stacks: %ld unwound without a crash, %ld stopped by an error\n", corrupt_runs,
               corrupt_errors);
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
