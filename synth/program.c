/* SPDX-License-Identifier: Apache-2.0 */
/*
 * program: two-pass synthesis of every function of a binary.
 */
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "semantics/abi.h"
#include "semantics/cfi_eval.h"

/* Pass one's IR kept for pass two, at most this many bytes per file: past
 * it, functions are decoded again (libLLVM's 12 million instructions would
 * take 1 GB). */
#define SYNTH_IR_BUDGET (512u << 20)

/* Index of the function starting exactly at ADDR, or (size_t)-1. */
static size_t function_starting_at(const struct function_index *ix, uint64_t addr)
{
    size_t i = function_index_at(ix, addr);
    return i != (size_t)-1 && ix->funcs[i].lo == addr ? i : (size_t)-1;
}

/* A jump that a possible fragment made in pass one, held back until it is
 * known whether that run started from the right state. */
struct held_exit {
    size_t from;
    uint64_t target;
    int kind;                   /* see synth_exit_fn */
    struct abstract_state state;
};

/* An exit seen while a function runs, taken only if the run succeeds: a
 * function with undecodable code on a reachable path says nothing about
 * where its jumps go (the bytes after the bad instruction are not code). */
struct pending_exit {
    uint64_t target;
    int kind;                   /* see synth_exit_fn */
    struct abstract_state state;
};

struct pass_one {
    struct synth_program *p;
    size_t from;                /* the function being run */
    int hold;                   /* its jumps wait in HELD */
    struct held_exit *held;
    size_t nheld, capheld;
    uint8_t *jumped_into;       /* per function: some jump lands in its range */
    struct pending_exit *pending;   /* the exits of the run in progress */
    size_t npending, cappending;
    int oom;
};

/* A range named as a function of its own (not GCC's `foo.cold` part): it
 * starts in the ABI's entry state whatever jumps to it. */
static int named_function(const struct function_range *f)
{
    return f->name[0] && !strstr(f->name, ".cold");
}

/* A range that may be a fragment of another function's frame (GCC's `.cold`
 * parts, unnamed in stripped files).  Pass one ran it from the ABI's entry
 * state, which is wrong for a fragment, so its jumps are held back. */
static int may_be_fragment(const struct function_range *f)
{
    return f->source == FUNC_FROM_FDE && !named_function(f);
}

static void record_inner(struct pass_one *po, size_t j, uint64_t target, int kind, const struct abstract_state *st)
{
    struct synth_program *p = po->p;
    for (size_t k = 0; k < p->ninner[j]; k++)
        if (p->inner[j][k].addr == target) {
            abstract_state_join(&p->inner[j][k].state, st);
            p->inner[j][k].table_cases_only &= kind == SYNTH_EXIT_TABLE_CASE;
            return;
        }
    struct synth_entry *n = realloc(p->inner[j], (p->ninner[j] + 1) * sizeof *n);
    if (!n) {
        po->oom = 1;
        return;
    }
    p->inner[j] = n;
    n[p->ninner[j]++] = (struct synth_entry){target, kind == SYNTH_EXIT_TABLE_CASE, *st};
}

/* ITEMS (N elements of SIZE bytes, capacity *CAP), grown if needed to hold
 * one more; NULL with po->oom set when memory runs out. */
static void *room_for_one(struct pass_one *po, void *items, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return items;
    size_t more = *cap ? 2 * *cap : 64;
    void *grown = realloc(items, more * size);
    if (!grown) {
        po->oom = 1;
        return NULL;
    }
    *cap = more;
    return grown;
}

static void hold_exit(struct pass_one *po, uint64_t target, int kind, const struct abstract_state *st)
{
    struct held_exit *held = room_for_one(po, po->held, po->nheld, &po->capheld, sizeof *held);
    if (held) {
        po->held = held;
        held[po->nheld++] = (struct held_exit){po->from, target, kind, *st};
    }
}

/* A jump (KIND: 0 or SYNTH_EXIT_TABLE_CASE) into function J's range, now
 * taken as fact. */
static void record_jump(struct pass_one *po, size_t j, uint64_t target, int kind, const struct abstract_state *st)
{
    struct synth_program *p = po->p;
    if (p->index.funcs[j].lo != target) {
        /* Into the middle of another range: a fragment of the same frame. */
        record_inner(po, j, target, kind, st);
        return;
    }
    if (!p->entry[j]) {
        p->entry[j] = malloc(sizeof *p->entry[j]);
        if (!p->entry[j]) {
            po->oom = 1;
            return;
        }
        *p->entry[j] = *st;
        p->by_defaults_only[j] = kind == SYNTH_EXIT_SWITCH_DEFAULT;
    } else {
        abstract_state_join(p->entry[j], st);
        p->by_defaults_only[j] &= kind == SYNTH_EXIT_SWITCH_DEFAULT;
    }
}

static void take_exit(struct pass_one *po, uint64_t target, int kind, const struct abstract_state *st)
{
    struct synth_program *p = po->p;
    size_t j = function_index_at(&p->index, target);
    if (j == (size_t)-1)
        return;
    if (kind == SYNTH_EXIT_CALL) {
        if (p->index.funcs[j].lo == target)
            p->called[j] = 1;
        return;
    }
    if (j != po->from)
        po->jumped_into[j] = 1;
    if (po->hold)
        hold_exit(po, target, kind, st);
    else
        record_jump(po, j, target, kind, st);
}

static void record_exit(void *arg, uint64_t from, uint64_t target, int kind, const struct abstract_state *st)
{
    struct pass_one *po = arg;
    (void)from;
    struct pending_exit *pending = room_for_one(po, po->pending, po->npending, &po->cappending, sizeof *pending);
    if (pending) {
        po->pending = pending;
        pending[po->npending++] = (struct pending_exit){target, kind, *st};
    }
}

/* After a run: its exits count when it succeeded (RC == 0). */
static void settle_exits(struct pass_one *po, int rc)
{
    for (size_t i = 0; rc == 0 && i < po->npending && !po->oom; i++)
        take_exit(po, po->pending[i].target, po->pending[i].kind, &po->pending[i].state);
    po->npending = 0;
}

static uint32_t callee_at(void *arg, uint64_t target)
{
    struct synth_program *p = arg;
    size_t j = function_starting_at(&p->index, target);
    if (j == (size_t)-1)
        return 0;
    return p->preserved[j] | (p->noreturn[j] ? SYNTH_NEVER_RETURNS : 0);
}

struct row_at {
    uint64_t addr;
    struct cfi_state row;
};

static int row_at(void *arg, const struct cfi_state *st, uint64_t new_loc)
{
    struct row_at *want = arg;
    if (new_loc <= want->addr)
        return 0;
    want->row = *st;
    return 1;   /* stop: the row that covers ADDR is all we need */
}

/* The state FDE's row at ADDR describes, when its CFA is rsp-based and the
 * return address at CFA-8: rsp, and the callee-saved registers it says are
 * saved (their entry values in those slots; the registers themselves
 * unknown, the code before may have used them).  Returns 0, or -1. */
static int entry_row_state(struct cfi_eval *ev, const struct eh_frame_fde *fde, uint64_t addr,
                           struct abstract_state *out)
{
    struct row_at want = {.addr = addr};
    struct cfi_state final;
    struct cfa_error err;
    int all_nops;
    int rc = cfi_eval_fde(ev, fde, row_at, &want, &final, &all_nops, &err);
    const struct cfi_state *st = rc == 1 ? &want.row : rc == 0 ? &final : NULL;
    if (!st || st->cfa.kind != CFA_RULE_REG_OFFSET || st->cfa.reg != ABI_RSP ||
        st->col[ABI_RA].kind != REG_RULE_OFFSET || st->col[ABI_RA].offset != ABI_ENTRY_RA_OFFSET)
        return -1;
    abstract_state_entry(out);
    out->reg[ABI_RSP].off = -st->cfa.offset;
    for (unsigned i = 0; i < ABI_NCALLEE_SAVED; i++) {
        unsigned r = abi_callee_saved_regs[i];
        if (st->col[r].kind != REG_RULE_OFFSET)
            continue;
        abstract_state_set_slot(out, AV_CFA, st->col[r].offset, (struct abstract_value){AV_ENTRY, (uint8_t)r, 0});
        out->reg[r] = (struct abstract_value){AV_UNKNOWN, 0, 0};
    }
    return 0;
}

/* Pass one's IR for function I, when every jump into its middle lands on
 * an instruction of it; NULL to decode again with those as starts. */
static struct ir_insn *cached_insns(const struct synth_program *p, size_t i)
{
    const struct ir_insn *insns = p->insns[i];
    size_t n = p->ninsns[i];
    for (size_t k = 0; insns && k < p->ninner[i]; k++) {
        uint64_t a = p->inner[i][k].addr;
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (insns[mid].addr < a)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == n || insns[lo].addr != a)
            return NULL;
    }
    return p->insns[i];
}

/* Nothing is known to enter function I at its start: an unnamed fragment
 * that nobody calls or jumps to there, but that jumps reach inside. */
static int entry_is_guess(const struct synth_program *p, size_t i)
{
    const struct function_range *f = &p->index.funcs[i];
    if (p->entry[i] || p->called[i] || f->name[0] || f->source != FUNC_FROM_FDE || !p->ninner[i])
        return 0;
    /* The shape GCC gives a .cold fragment that starts with a landing pad:
     * a padding byte at the FDE's start, then the pad, entered only by the
     * unwinder.  (Elsewhere the entry at the start is kept: jumps recorded in
     * pass one from fragments it entered by guess are no better.) */
    return p->padded_start[i] != 0;
}

/* The request that runs function I with what pass one learnt. */
static void program_request(struct synth_program *p, size_t i, struct synth_request *rq)
{
    *rq = (struct synth_request){
        .entry_is_guess = entry_is_guess(p, i),
        .func = &p->index.funcs[i], .entry = p->entry[i],
        .more_entries = p->inner[i], .nmore_entries = p->ninner[i],
        .insns = cached_insns(p, i), .ninsns = p->ninsns[i],
    };
}

/* What pass one learns from function I's code, INSNS: a direct call
 * anywhere in it, reached by the analysis or not, says its target is a
 * function entered the ordinary way; and whether it starts with padding.
 * Then the IR is kept for pass two while the budget lasts, else freed. */
static void take_code(struct synth_program *p, size_t i, struct ir_insn *insns, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (insns[k].flow == IR_FLOW_CALL) {
            size_t j = function_starting_at(&p->index, insns[k].target);
            if (j != (size_t)-1)
                p->called[j] = 1;
        }
    size_t lead = 0;
    while (lead + 1 < n && insns[lead].is_padding)
        lead++;
    uint64_t padding = lead ? insns[lead].addr - insns[0].addr : 0;
    p->padded_start[i] = (uint8_t)(padding < 255 ? padding : 255);
    size_t bytes = n * sizeof *insns;
    if (!insns || bytes > SYNTH_IR_BUDGET - p->ir_bytes) {
        free(insns);
        return;
    }
    struct ir_insn *exact = realloc(insns, bytes ? bytes : 1);   /* the decoder's guess was larger */
    p->insns[i] = exact ? exact : insns;
    p->ninsns[i] = n;
    p->ir_bytes += bytes;
}

/* Whether function I is a fragment of another frame: a range that may be
 * one, that nothing calls and that some jump reaches. */
static int is_fragment(const struct synth_program *p, const struct pass_one *po, size_t i)
{
    return may_be_fragment(&p->index.funcs[i]) && !p->called[i] && po->jumped_into[i];
}

/* Only fragments start in the state of the jumps into them (GCC's `foo.cold`
 * parts, unnamed in stripped files; the PLT's resolver stub, entered after a
 * push): a function that is called or has a name starts in the entry state
 * (a jump to it is a tail call, which leaves exactly that state). */
static void drop_entries_of_functions(struct synth_program *p)
{
    for (size_t i = 0; i < p->index.nfuncs; i++) {
        const struct function_range *f = &p->index.funcs[i];
        if (!p->called[i] && !named_function(f))
            continue;
        if (p->entry[i]) {
            free(p->entry[i]);
            p->entry[i] = NULL;
        }
        /* Nor does a switch's case lead into its middle: such a case is
         * past the end of a table a compare bounded too loosely (LLVM knows
         * value ranges the compare does not show), the next one's data. */
        size_t kept = 0;
        for (size_t k = 0; k < p->ninner[i]; k++)
            if (!p->inner[i][k].table_cases_only)
                p->inner[i][kept++] = p->inner[i][k];
        p->ninner[i] = kept;
    }
}

/* Unnamed trampolines nothing calls or jumps to (the dynamic linker's lazy
 * resolver, entered from the PLT with two more words pushed) start in the
 * frame their FDE's first row describes: that row is their entry contract,
 * which no caller in this file can confirm or refute.  When the FDE starts at
 * the padding before the code (a lone `xchg %ax,%ax` kept with the CIE's row),
 * the contract is the row at the first instruction the padding leads to.
 * Named functions may be called from elsewhere, so they keep the ABI's entry.
 *
 * Likewise a fragment that only switches' bound checks jump to: a default
 * compilers know unreachable lands anywhere (the end of an empty cold
 * section, another function's cold code), and verify/audit/check does not check
 * that jump, so its frame is no evidence where the row there disagrees. */
static void take_entry_contracts(struct synth_program *p)
{
    struct cfi_eval ev;
    if (!p->have_eh || cfi_eval_init(&ev, &p->eh) != 0)
        return;
    for (size_t i = 0; i < p->index.nfuncs; i++) {
        const struct function_range *f = &p->index.funcs[i];
        int by_defaults = p->entry[i] && p->by_defaults_only[i];
        if ((p->entry[i] && !by_defaults) || p->called[i] || !f->fde || f->name[0] || p->padded_start[i] == 255)
            continue;
        struct abstract_state contract;
        uint64_t at = by_defaults ? f->lo : f->lo + p->padded_start[i];
        if (entry_row_state(&ev, f->fde, at, &contract) != 0)
            continue;
        if (by_defaults) {
            const struct abstract_value *was = &p->entry[i]->reg[ABI_RSP], *row = &contract.reg[ABI_RSP];
            if (was->kind != row->kind || was->off != row->off)
                *p->entry[i] = contract;
            continue;
        }
        if (contract.reg[ABI_RSP].off == -ABI_ENTRY_CFA_OFFSET)
            continue;
        if (p->padded_start[i]) {
            /* Entered past the padding: the padding keeps the ABI's guess. */
            struct synth_entry *n = realloc(p->inner[i], (p->ninner[i] + 1) * sizeof *n);
            if (!n)
                break;
            p->inner[i] = n;
            n[p->ninner[i]++] = (struct synth_entry){f->lo + p->padded_start[i], 0, contract};
            continue;
        }
        if (!(p->entry[i] = malloc(sizeof *p->entry[i])))
            break;
        *p->entry[i] = contract;
    }
    cfi_eval_release(&ev);
}

/* Is [BYTES, +N) the lazy PLT's first stub: push GOT+8(%rip), then jmp
 * *GOT+16(%rip) (bnd jmp with MPX's prefix), an endbr64 first under IBT? */
static int is_lazy_plt0(const uint8_t *b, uint64_t n)
{
    static const uint8_t endbr64[4] = {0xf3, 0x0f, 0x1e, 0xfa};
    if (n >= 4 && memcmp(b, endbr64, 4) == 0) {
        b += 4;
        n -= 4;
    }
    if (n < 8 || b[0] != 0xff || b[1] != 0x35)           /* push disp32(%rip) */
        return 0;
    b += 6;
    n -= 6;
    if (n >= 1 && b[0] == 0xf2) {                          /* bnd */
        b++;
        n--;
    }
    return n >= 2 && b[0] == 0xff && b[1] == 0x25;         /* jmp *disp32(%rip) */
}

/* The lazy PLT's first stub (PLT0) is entered by a jump from a PLTn stub
 * that has pushed its relocation index: the linker's convention, whether
 * or not this file has PLTn stubs (a program with no imported call has
 * PLT0 alone).  So it starts with the return address at CFA-8, the index
 * at CFA-16 and rsp = CFA-16, not in the ABI's entry state; nothing that
 * jumps to it replaces that. */
static void take_plt0_convention(struct synth_program *p)
{
    struct elf_section *plt = elf_file_section(p->ef, ".plt");
    if (!plt || plt->type == SHT_NOBITS)
        return;
    size_t i = function_index_at(&p->index, plt->addr);
    if (i == (size_t)-1 || p->index.funcs[i].source != FUNC_FROM_PLT || p->index.funcs[i].lo != plt->addr)
        return;
    uint64_t size;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = elf_file_section_bytes(p->ef, plt, &size, err, sizeof err);
    if (!bytes || !is_lazy_plt0(bytes, size))
        return;
    if (!p->entry[i] && !(p->entry[i] = malloc(sizeof *p->entry[i])))
        return;
    abstract_state_entry(p->entry[i]);
    p->entry[i]->reg[ABI_RSP].off = -2 * ABI_ENTRY_CFA_OFFSET;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A library calls its own exported functions through its PLT (they could
 * be interposed): a stub whose symbol this file defines as a function that
 * never returns (Perl_croak) never returns either. */
static void plt_stubs_of_noreturn(struct synth_program *p)
{
    const struct function_index *ix = &p->index;
    const char **names = malloc((ix->nfuncs + 1) * sizeof *names);
    size_t n = 0;
    if (!names)
        return;
    for (size_t i = 0; i < ix->nfuncs; i++)
        if (p->noreturn[i] && ix->funcs[i].source != FUNC_FROM_PLT && ix->funcs[i].name[0])
            names[n++] = ix->funcs[i].name;
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < ix->nfuncs && n; i++) {
        const struct function_range *f = &ix->funcs[i];
        size_t len = strlen(f->name);
        if (f->source != FUNC_FROM_PLT || len <= 4 || strcmp(f->name + len - 4, "@plt") != 0)
            continue;
        char symbol[256];
        if (len - 4 >= sizeof symbol)
            continue;
        memcpy(symbol, f->name, len - 4);
        symbol[len - 4] = '\0';
        const char *key = symbol;
        if (bsearch(&key, names, n, sizeof *names, by_name))
            p->noreturn[i] = 1;
    }
    free(names);
}

int synth_program_open(struct synth_program *p, struct elf_file *ef, char *eh_error,
                       size_t eh_errlen, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->ef = ef;
    int rc = cfi_section_read(ef, ".eh_frame", &p->eh, err, errlen);
    if (rc < 0 && eh_error)
        snprintf(eh_error, eh_errlen, "%s", err);
    p->have_eh = rc > 0;
    p->decoder = x86_decoder_new();
    if (!p->decoder) {
        snprintf(err, errlen, "cannot start Capstone");
        synth_program_close(p);
        return -1;
    }
    if (function_index_build(&p->index, ef, p->have_eh ? &p->eh : NULL, err, errlen) != 0) {
        synth_program_close(p);
        return -1;
    }
    size_t n = p->index.nfuncs;
    p->entry = calloc(n + 1, sizeof *p->entry);
    p->inner = calloc(n + 1, sizeof *p->inner);
    p->insns = calloc(n + 1, sizeof *p->insns);
    p->ninsns = calloc(n + 1, sizeof *p->ninsns);
    p->ninner = calloc(n + 1, sizeof *p->ninner);
    p->called = calloc(n + 1, 1);
    p->noreturn = calloc(n + 1, 1);
    p->preserved = calloc(n + 1, sizeof *p->preserved);
    p->padded_start = calloc(n + 1, 1);
    p->by_defaults_only = calloc(n + 1, 1);
    if (!p->entry || !p->inner || !p->ninner || !p->called || !p->noreturn || !p->preserved || !p->insns ||
        !p->ninsns || !p->padded_start || !p->by_defaults_only) {
        snprintf(err, errlen, "out of memory");
        synth_program_close(p);
        return -1;
    }
    p->session = (struct synth_session){.ef = ef, .index = &p->index, .decoder = p->decoder};

    /* Pass one: exits of every function. */
    struct pass_one po = {.p = p, .jumped_into = calloc(n + 1, 1)};
    po.oom = !po.jumped_into;
    for (size_t i = 0; i < n && !po.oom; i++) {
        struct synth_request rq = {.func = &p->index.funcs[i], .exits = record_exit, .exits_arg = &po,
                                   .keep_insns = 1};
        struct synth_outcome out;
        po.from = i;
        po.hold = may_be_fragment(rq.func);
        int ran = synthesize_function(&p->session, &rq, NULL, &out);
        settle_exits(&po, ran);
        if (ran == 0 && p->index.funcs[i].source != FUNC_FROM_PLT) {
            p->noreturn[i] = !out.returns;
            p->preserved[i] = out.preserved;
        }
        take_code(p, i, out.kept_insns, out.nkept_insns);
    }
    if (!po.oom) {
        plt_stubs_of_noreturn(p);
        /* The held jumps of ranges that turned out to be functions entered
         * the ordinary way count as they are; fragments run again below. */
        po.hold = 0;
        for (size_t h = 0; h < po.nheld; h++) {
            const struct held_exit *he = &po.held[h];
            if (!is_fragment(p, &po, he->from))
                record_jump(&po, function_index_at(&p->index, he->target), he->target, he->kind, &he->state);
        }
        drop_entries_of_functions(p);
        take_entry_contracts(p);
        /* Fragments again, from the states the jumps into them carry, so
         * that their own jumps (back into the function's body) are right. */
        for (size_t i = 0; i < n && !po.oom; i++) {
            if (!is_fragment(p, &po, i))
                continue;
            struct synth_request rq;
            program_request(p, i, &rq);
            rq.exits = record_exit;
            rq.exits_arg = &po;
            struct synth_outcome out;
            po.from = i;
            settle_exits(&po, synthesize_function(&p->session, &rq, NULL, &out));
        }
        drop_entries_of_functions(p);
        take_plt0_convention(p);
    }
    free(po.held);
    free(po.pending);
    free(po.jumped_into);
    if (po.oom) {
        snprintf(err, errlen, "out of memory");
        synth_program_close(p);
        return -1;
    }
    p->session.callee_at = callee_at;
    p->session.callee_arg = p;
    return 0;
}

int synth_program_code(const struct synth_program *p, size_t i, struct function_code *code)
{
    *code = (struct function_code){.func = &p->index.funcs[i], .insns = p->insns[i], .n = p->ninsns[i]};
    const char *reason;
    /* A function pass one did not decode (a bogus symbol) has no code here either. */
    if (code->insns || (!code->func->flaw && function_code_decode(code, p->ef, p->decoder, NULL, 0, &reason) == 0))
        return 0;
    *code = (struct function_code){.func = &p->index.funcs[i]};
    return -1;
}

void synth_program_code_release(const struct synth_program *p, size_t i, struct function_code *code)
{
    if (code->insns != p->insns[i])
        free(code->insns);
    code->insns = NULL;
    code->n = 0;
}

void synth_program_close(struct synth_program *p)
{
    for (size_t i = 0; i < p->index.nfuncs; i++) {
        if (p->entry)
            free(p->entry[i]);
        if (p->inner)
            free(p->inner[i]);
        if (p->insns)
            free(p->insns[i]);
    }
    free(p->entry);
    free(p->inner);
    free(p->ninner);
    free(p->insns);
    free(p->ninsns);
    free(p->padded_start);
    free(p->by_defaults_only);
    free(p->called);
    free(p->noreturn);
    free(p->preserved);
    function_index_release(&p->index);
    x86_decoder_free(p->decoder);
    if (p->have_eh)
        cfi_section_release(&p->eh);
    memset(p, 0, sizeof *p);
}

int synth_program_function(struct synth_program *p, size_t i, struct unwind_table *t,
                           synth_insn_fn observe, void *arg, struct synth_outcome *out)
{
    struct synth_request rq;
    program_request(p, i, &rq);
    rq.emit = 1;
    rq.observe = observe;
    rq.observe_arg = arg;
    return synthesize_function(&p->session, &rq, t, out);
}

int synth_program_entered_ordinarily(const struct synth_program *p, size_t i)
{
    return i < p->index.nfuncs && (p->called[i] || named_function(&p->index.funcs[i]));
}

int synth_program_observe(struct synth_program *p, size_t i, synth_insn_fn observe, synth_exit_fn exits,
                          void *arg, struct synth_outcome *out)
{
    struct synth_request rq;
    program_request(p, i, &rq);
    rq.emit = 1;
    rq.no_table = 1;
    rq.observe = observe;
    rq.observe_arg = arg;
    rq.exits = exits;
    rq.exits_arg = arg;
    return synthesize_function(&p->session, &rq, NULL, out);
}
