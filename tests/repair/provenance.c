/* The provenance of each frame's row, read through dwu_step: main calls
 * libnotables' C functions (built without unwind tables), whose innermost
 * calls back here; the callback walks its own stack with libdwunwind and
 * prints, for each step, the function the step left and whether its row
 * was synthesised (DWU_FLAG_SYNTHESISED) or DWARF left unchecked
 * (DWU_FLAG_UNCHECKED).  With the eh_elf of libnotables compiled by
 * `dwcompile --repair`, its four functions' steps are synthesised. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "runtime/dwunwind.h"

typedef void (*callback_fn)(long);
long saves_registers(callback_fn cb, long a, long b, long c);

__attribute__((noinline)) void walk(long n)
{
    (void)n;
    struct dwu_regs regs;
    dwu_capture(&regs);
    for (int depth = 0; depth < 12; depth++) {
        Dl_info info;
        const char *name = dladdr((void *)(regs.r[DWU_RIP] - 1), &info) && info.dli_sname ? info.dli_sname : "?";
        int rc = dwu_step(&regs, NULL);
        if (rc != DWU_OK) {
            printf("%s: %s\n", name, dwu_strerror(rc));
            break;
        }
        printf("%s: %s\n", name, regs.flags & DWU_FLAG_SYNTHESISED ? "synthesised"
                                 : regs.flags & DWU_FLAG_UNCHECKED ? "unchecked" : "dwarf");
        if (strcmp(name, "main") == 0)
            break;
    }
}

int main(void)
{
    return saves_registers(walk, 1, 2, 3) > 0 ? 0 : 1;
}
/* SPDX-License-Identifier: Apache-2.0 */
