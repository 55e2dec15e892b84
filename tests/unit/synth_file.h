/* SPDX-License-Identifier: Apache-2.0 */
/*
 * synth_file: one function of an ELF file run through synthesize_function,
 * as a front end runs it (its FDEs and symbols indexed, a decoder, a
 * session), with the state the observer saw at every instruction kept.
 * Shared by the unit tests of the synthesis modules that read the file
 * (jump tables, landing pads).  Header only; include after <cmocka.h>.
 */
#ifndef DWCHECK_TESTS_SYNTH_FILE_H
#define DWCHECK_TESTS_SYNTH_FILE_H

#include <stdlib.h>
#include <string.h>

#include "object/elf_file.h"
#include "semantics/cfi_reader.h"
#include "synth/function_index.h"
#include "synth/synthesize.h"

struct synth_file {
    struct elf_file ef;
    struct cfi_section eh;
    struct function_index ix;
    struct x86_decoder *decoder;
    struct synth_session ss;
};

/* One instruction as the observer saw it: the state before it, and how
 * it was reached (1: a known path; 0, SYNTH_PADDING, SYNTH_GUESSED). */
struct seen_insn {
    uint64_t addr, target;
    uint8_t len, flow;
    int reached;
    struct abstract_state st;
};

struct synthesized {
    struct seen_insn *insn;      /* in address order */
    size_t n, cap;
    struct unwind_table t;       /* the rows */
    struct synth_outcome out;
};

static void synth_file_open(struct synth_file *sf, const char *path)
{
    char err[256];
    memset(sf, 0, sizeof *sf);
    if (elf_file_open(&sf->ef, path, err, sizeof err) != 0)
        fail_msg("%s: %s", path, err);
    assert_int_equal(cfi_section_read(&sf->ef, ".eh_frame", &sf->eh, err, sizeof err), 1);
    if (function_index_build(&sf->ix, &sf->ef, &sf->eh, err, sizeof err) != 0)
        fail_msg("%s: %s", path, err);
    assert_non_null(sf->decoder = x86_decoder_new());
    sf->ss = (struct synth_session){.ef = &sf->ef, .index = &sf->ix, .decoder = sf->decoder};
}

static void synth_file_close(struct synth_file *sf)
{
    x86_decoder_free(sf->decoder);
    function_index_release(&sf->ix);
    cfi_section_release(&sf->eh);
    elf_file_close(&sf->ef);
}

static void keep_seen(void *arg, const struct ir_insn *in, const struct abstract_state *st, int reached)
{
    struct synthesized *s = arg;
    if (s->n == s->cap)
        assert_non_null(s->insn = realloc(s->insn, (s->cap = s->cap ? 2 * s->cap : 64) * sizeof *s->insn));
    s->insn[s->n++] = (struct seen_insn){in->addr, in->target, in->len, in->flow, reached, *st};
}

/* Synthesise the function that starts at ADDR (its FDE's range) into S. */
static void synthesize_at(struct synth_file *sf, uint64_t addr, struct synthesized *s)
{
    memset(s, 0, sizeof *s);
    size_t i = function_index_at(&sf->ix, addr);
    assert_true(i != (size_t)-1);
    const struct function_range *f = &sf->ix.funcs[i];
    assert_true(f->lo == addr);
    struct synth_request rq = {.func = f, .emit = 1, .observe = keep_seen, .observe_arg = s};
    assert_int_equal(synthesize_function(&sf->ss, &rq, &s->t, &s->out), 0);
}

/* The instruction S saw at ADDR (one must start there). */
static const struct seen_insn *seen_at(const struct synthesized *s, uint64_t addr)
{
    for (size_t k = 0; k < s->n; k++)
        if (s->insn[k].addr == addr)
            return &s->insn[k];
    fail_msg("no instruction starts at 0x%llx", (unsigned long long)addr);
    return NULL;
}

static void synthesized_release(struct synthesized *s)
{
    free(s->insn);
    unwind_table_release(&s->t);
}

#endif
