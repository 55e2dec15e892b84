/* SPDX-License-Identifier: Apache-2.0 */
/*
 * landing_pads: exception landing pads from the LSDA, and their states (see
 * landing_pads.h).
 */
#include "landing_pads.h"

#include <stdlib.h>
#include <string.h>

#include "dataflow.h"
#include "semantics/cfa_program.h"
#include "semantics/cfi_reader.h"
#include "semantics/lsda.h"

#define PAD_ROUNDS_MAX 64   /* landing-pad rounds (a pad's calls may land in another) */

struct pad_collector {
    struct landing_pads *lp;
    const struct function_code *fc;
    size_t cap;
    int oom;
};

static int collect_pad(void *arg, const struct lsda_call_site *site)
{
    struct pad_collector *pc = arg;
    struct landing_pads *lp = pc->lp;
    const struct function_range *f = pc->fc->func;
    if (!site->landing_pad)
        return 0;
    /* A pad outside the function (in its .cold part) is another fragment's
     * entry: its state is handed on through the exits callback. */
    int inside = site->landing_pad >= f->lo && site->landing_pad < f->hi;
    size_t at = inside ? function_code_insn_at(pc->fc, site->landing_pad) : (size_t)-1;
    if (inside && at == (size_t)-1)
        return 0;
    if (lp->n == pc->cap) {
        size_t ncap = pc->cap ? pc->cap * 2 : 8;
        struct pad_site *p = realloc(lp->site, ncap * sizeof *p);
        if (!p) {
            pc->oom = 1;
            return 1;
        }
        lp->site = p;
        pc->cap = ncap;
    }
    lp->site[lp->n++] = (struct pad_site){site->start, site->start + site->len, at, site->landing_pad};
    return 0;
}

struct args_collector {
    struct landing_pads *lp;
    size_t cap;
    int oom;
};

static void add_args_range(struct args_collector *ac, uint64_t start, uint64_t end, uint64_t size)
{
    struct landing_pads *lp = ac->lp;
    if (!size || end <= start || ac->oom)
        return;
    if (lp->nargs == ac->cap) {
        size_t ncap = ac->cap ? ac->cap * 2 : 8;
        struct args_size_range *a = realloc(lp->args, ncap * sizeof *a);
        if (!a) {
            ac->oom = 1;
            return;
        }
        lp->args = a;
        ac->cap = ncap;
    }
    lp->args[lp->nargs++] = (struct args_size_range){start, end, size};
}

static int args_row(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    add_args_range(arg, st->loc, new_loc, st->args_size);
    return 0;
}

/* The ranges of FDE where DW_CFA_GNU_args_size is not 0 (the program run
 * for that alone, from an empty state: the rules do not matter here, and
 * no CIE sets a size).  The instructions' own address is not known here,
 * so a pc-relative DW_CFA_set_loc (which compilers do not write) would
 * misplace the ranges.  -1 when out of memory. */
static int find_args_sizes(struct landing_pads *lp, const struct eh_frame_fde *fde)
{
    struct cfa_cie_params params = cfa_cie_params_of(fde->cie, 0);
    struct cfi_state st, cie_state;
    struct cfi_saved_row saved[UNWIND_REMEMBER_DEPTH];
    struct args_collector ac = {lp, 0, 0};
    cfa_program_state_init(&cie_state, fde->pc_begin);
    st = cie_state;
    struct cfa_program prog = {
        .insns = fde->insns, .len = fde->insns_len, .cie = &params, .cie_state = &cie_state,
        .saved = saved, .stack_cap = UNWIND_REMEMBER_DEPTH, .on_row = args_row, .arg = &ac,
    };
    struct cfa_error err;
    if (cfa_program_run(&prog, &st, &err) == 0)   /* malformed: the sizes so far */
        add_args_range(&ac, st.loc, fde->pc_begin + fde->pc_range, st.args_size);
    return ac.oom ? -1 : 0;
}

/* The bytes of arguments pushed for the call at ADDR, as the FDE says. */
static uint64_t args_size_at(const struct landing_pads *lp, uint64_t addr)
{
    for (size_t k = 0; k < lp->nargs; k++)
        if (addr >= lp->args[k].start && addr < lp->args[k].end)
            return lp->args[k].size;
    return 0;
}

int landing_pads_find(struct landing_pads *lp, struct elf_file *ef, const struct function_code *fc)
{
    const struct function_range *f = fc->func;
    if (!f->lsda || !ef)
        return 0;
    struct elf_section *sec = elf_file_section_at(ef, f->lsda);
    uint64_t n;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = sec ? elf_file_section_bytes(ef, sec, &n, err, sizeof err) : NULL;
    if (!bytes)
        return 0;
    struct pad_collector pc = {lp, fc, 0, 0};
    const char *error;
    lsda_parse(bytes, n, sec->addr, f->lsda, f->lo, collect_pad, &pc, &error);
    if (pc.oom || (lp->n && !(lp->state = calloc(lp->n, sizeof *lp->state))) ||
        (lp->n && f->fde && find_args_sizes(lp, f->fde) != 0))
        return -1;
    return 0;
}

void landing_pads_release(struct landing_pads *lp)
{
    free(lp->site);
    free(lp->state);
    free(lp->args);
    *lp = (struct landing_pads){0};
}

/* Landing pads start in the state after their call sites (the unwinder
 * resumes there with the frame as the call left it).  Returns how many pads'
 * states changed (another round is needed only then). */
static size_t flow_to_landing_pads(struct landing_pads *lp, struct dataflow *df)
{
    if (!lp->n)
        return 0;
    const struct cfg *g = df->cfg;
    for (size_t p = 0; p < lp->n; p++)
        lp->state[p].have_state = 0;
    for (size_t b = 0; b < g->nblocks; b++) {
        const struct block *blk = &g->blocks[b];
        if (!blk->reached || !blk->pad_calls)
            continue;
        struct abstract_state st = blk->in, popped_state;
        for (size_t i = blk->first; i <= blk->last; i++) {
            const struct ir_insn *in = &g->code->insns[i];
            dataflow_transfer(g, i, &st);
            if (!ir_is_call(in))
                continue;
            /* The unwinder pops the call's pushed arguments (the row of the
             * call's last byte: where the return address points back). */
            const struct abstract_state *landed = &st;
            uint64_t popped = args_size_at(lp, in->addr + in->len - 1);
            if (popped && (st.reg[ABI_RSP].kind == AV_CFA || st.reg[ABI_RSP].kind == AV_ALIGNED)) {
                popped_state = st;
                popped_state.reg[ABI_RSP].off += (int64_t)popped;
                landed = &popped_state;
            }
            for (size_t p = 0; p < lp->n; p++) {
                const struct pad_site *site = &lp->site[p];
                struct pad_state *pad = &lp->state[p];
                if (in->addr < site->start || in->addr >= site->end)
                    continue;
                /* Ranked as flows are (dataflow.h); a call reached less
                 * surely is kept out for dataflow_every_path, which joins
                 * all of them. */
                size_t into = site->insn == (size_t)-1 ? (size_t)-1 : g->block_of[site->insn];
                if (!pad->have_state || (blk->seeded < pad->seeded && !df->every_path)) {
                    if (pad->have_state)
                        dataflow_keep_out(df, into, &pad->state);
                    pad->state = *landed;
                    pad->seeded = blk->seeded;
                } else if (blk->seeded == pad->seeded || df->every_path) {
                    abstract_state_join(&pad->state, landed);
                } else {
                    dataflow_keep_out(df, into, landed);
                }
                pad->have_state = 1;
            }
        }
    }
    size_t n = 0;
    int phase = df->seeding;
    for (size_t p = 0; p < lp->n; p++) {
        const struct pad_site *site = &lp->site[p];
        const struct pad_state *pad = &lp->state[p];
        if (!pad->have_state)
            continue;
        if (site->insn == (size_t)-1) {
            dataflow_leave(df, 0, site->target, 0, &pad->state);
            continue;
        }
        df->seeding = pad->seeded > phase ? pad->seeded : phase;
        n += dataflow_flow_into(df, g->block_of[site->insn], &pad->state);
    }
    df->seeding = phase;
    return n;
}

void landing_pads_flow_until_stable(struct landing_pads *lp, struct dataflow *df)
{
    for (int round = 0; round < PAD_ROUNDS_MAX && flow_to_landing_pads(lp, df); round++)
        dataflow_fixpoint(df);
}
