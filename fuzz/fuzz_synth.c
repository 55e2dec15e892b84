/*
 * libFuzzer target over decoding and synthesis.
 *
 * The input is a function's machine code: Capstone decodes it linearly into
 * IR (invalid bytes included), then the interpreter runs to a fixpoint and
 * emits H, as for any function of a binary.  A first byte selects whether
 * the function may have a "jump into its middle" entry, to cover that path.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synthesize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct x86_decoder *decoder;
    if (!decoder && !(decoder = x86_decoder_new()))
        return 0;
    if (size < 2 || size > 8192)
        return 0;
    uint8_t mode = data[0];
    data++;
    size--;
    const uint64_t base = 0x401000;
    struct ir_insn *insns = malloc(size * sizeof *insns);
    if (!insns)
        return 0;
    size_t n = 0;
    for (size_t off = 0; off < size;) {
        struct ir_insn *in = &insns[n++];
        x86_decode(decoder, data + off, size - off, base + off, in);
        off += in->len;
    }
    struct function_index index;
    memset(&index, 0, sizeof index);
    struct synth_session ss = {NULL, &index, decoder, NULL, NULL};
    struct function_range f = {base, base + size, "fuzzed", FUNC_FROM_SYMBOL, NULL};
    struct synth_entry inner;
    abstract_state_entry(&inner.state);
    inner.addr = n > 1 ? insns[n / 2].addr : base;
    struct synth_request rq = {
        .func = &f, .emit = 1, .insns = insns, .ninsns = n,
        .more_entries = (mode & 1) ? &inner : NULL, .nmore_entries = (mode & 1) ? 1 : 0,
    };
    struct unwind_table t;
    struct synth_outcome out;
    synthesize_function(&ss, &rq, &t, &out);
    for (size_t i = 0; i < t.nrows; i++)
        unwind_table_row_at(&t, t.rows[i].start);
    unwind_table_release(&t);
    free(insns);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
