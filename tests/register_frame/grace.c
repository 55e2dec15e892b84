/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tests/register_frame/grace.c: deregistration waits for a search that is
 * reading the section (compat/registered_frames.h's promise: once
 * __deregister_frame returns, no search reads the bytes, which the caller
 * may then free).
 *
 * Linked with compat/registered_frames.o and the runtime's archive.  A
 * step by a registered FDE (lu_registered_frames_step) reads the stack
 * through the dwu_memory it is given, while it is in the section; that
 * reader starts a thread that deregisters the section, waits a while, and
 * notes whether the deregistration returned meanwhile: it must not have,
 * and must once the step is done.  The step's result is checked too.
 *   grace      prints what it saw; exits 0 when all held
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "compat/registered_frames.h"
#include "jit_code.h"

void __register_frame(void *begin);
void __deregister_frame(void *begin);

static struct jit_code jit;
static pthread_t deregistering;
static atomic_int started, deregistered, returned_during_read = -1;
static uint64_t stack[4];

static void *deregister(void *arg)
{
    (void)arg;
    __deregister_frame(jit.section);
    atomic_store(&deregistered, 1);
    return NULL;
}

static int read_stack(void *arg, uint64_t addr, uint64_t *value)
{
    (void)arg;
    if (!atomic_exchange(&started, 1)) {
        pthread_create(&deregistering, NULL, deregister, NULL);
        struct timespec pause = {0, 200 * 1000 * 1000};
        nanosleep(&pause, NULL);
        atomic_store(&returned_during_read, atomic_load(&deregistered));
    }
    if (addr < (uint64_t)(uintptr_t)stack || addr + 8 > (uint64_t)(uintptr_t)(stack + 4) || addr % 8)
        return -1;
    *value = stack[(addr - (uint64_t)(uintptr_t)stack) / 8];
    return 0;
}

int main(void)
{
    jit = jit_code_make();
    __register_frame(jit.section);
    /* The JIT frame at its call's return: CFA = rbp + 16, the caller's
     * rbp at rbp, the return address at rbp + 8. */
    stack[0] = 0x1234;
    stack[1] = 0x5678;
    struct dwu_regs in = {.valid = (1u << DWU_RIP) | (1u << DWU_RSP) | (1u << DWU_RBP)}, out;
    in.r[DWU_RIP] = (uint64_t)(uintptr_t)jit.page + JIT_CALL_RETURN;
    in.r[DWU_RSP] = in.r[DWU_RBP] = (uint64_t)(uintptr_t)stack;
    struct dwu_memory mem = {read_stack, NULL};
    uint64_t pc = in.r[DWU_RIP] - 1;
    int rc = lu_registered_frames_step(pc, &in, &out, &mem);
    pthread_join(deregistering, NULL);
    struct lu_registered_fde fde;
    int found_after = lu_registered_frames_find(pc, &fde) == 0;
    int stepped = rc == DWU_OK && out.r[DWU_RIP] == 0x5678 && out.r[DWU_RBP] == 0x1234 &&
                  out.r[DWU_RSP] == (uint64_t)(uintptr_t)(stack + 2);
    printf("step by the registered FDE: %s; deregistration returned while the step read: %s; "
           "found after: %s\n",
           stepped ? "the caller's frame" : "wrong", returned_during_read == 0 ? "no" : "yes",
           found_after ? "yes" : "no");
    return stepped && returned_during_read == 0 && atomic_load(&deregistered) && !found_after ? 0 : 1;
}
