/* SPDX-License-Identifier: Apache-2.0 */
#include "shadow_stack.h"

#include <stdlib.h>
#include <string.h>

void shadow_stack_init(struct shadow_stack *s)
{
    memset(s, 0, sizeof *s);
}

void shadow_stack_release(struct shadow_stack *s)
{
    free(s->frames);
    shadow_stack_init(s);
}

static void keep_entry_regs(struct shadow_frame *f, const uint64_t *regs)
{
    memcpy(f->entry_regs, regs, sizeof f->entry_regs);
}

int shadow_stack_enter(struct shadow_stack *s, const uint64_t *regs, uint64_t ra, uint64_t entry,
                       const void *fde)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        struct shadow_frame *grown = realloc(s->frames, cap * sizeof *grown);
        if (!grown)
            return -1;
        s->frames = grown;
        s->cap = cap;
    }
    struct shadow_frame *f = &s->frames[s->n++];
    memset(f, 0, sizeof *f);
    f->cfa = regs[ABI_RSP] + ABI_ENTRY_CFA_OFFSET;
    f->ra = ra;
    f->entry = entry;
    f->fde = fde;
    keep_entry_regs(f, regs);
    return 0;
}

size_t shadow_stack_pop_gone(struct shadow_stack *s, uint64_t rsp)
{
    size_t popped = 0;
    while (s->n > 0 && s->frames[s->n - 1].cfa + ABI_ENTRY_RA_OFFSET < rsp) {
        s->n--;
        popped++;
    }
    return popped;
}

struct shadow_frame *shadow_stack_top(struct shadow_stack *s)
{
    return s->n ? &s->frames[s->n - 1] : NULL;
}

void shadow_stack_reenter(struct shadow_frame *f, const uint64_t *regs, uint64_t entry, const void *fde)
{
    f->entry = entry;
    f->fde = fde;
    keep_entry_regs(f, regs);
}
