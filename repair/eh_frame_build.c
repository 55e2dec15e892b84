/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_frame_build: H_valid's FDEs as eh_frame_write specs, then bytes.
 */
#include "eh_frame_build.h"

#include <stdlib.h>
#include <string.h>

#include "sys/error.h"
#include "semantics/abi.h"
#include "semantics/cfi_eval.h"
#include "semantics/dwarf_constants.h"

/* The CIE of added FDEs, GCC's: CFA = rsp+8, ra at CFA-8. */
static const uint8_t entry_cie_insns[] = {DW_CFA_def_cfa, ABI_RSP, ABI_ENTRY_CFA_OFFSET, DW_CFA_offset | ABI_RA, 1};
static const struct cfa_cie_params entry_cie_params = {
    .code_align = 1, .data_align = -8, .ra_column = ABI_RA, .addr_size = 8, .fde_encoding = 0x1b};

static void entry_cie_state(struct cfi_state *st)
{
    cfa_program_state_init(st, 0);
    st->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = ABI_ENTRY_CFA_OFFSET};
    st->col[ABI_RA] = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = ABI_ENTRY_RA_OFFSET};
}

/* Why FDE F, which H_valid repairs, must be written as it was (NULL: it
 * can be encoded from its rows). */
static const char *keeps_what_h_drops(const struct validated_fde *f)
{
    if (f->table.extra_columns[0] || f->table.extra_columns[1])
        return "its program describes columns past the 17 a table keeps";
    return NULL;
}

static int grow(struct eh_frame_build *b, size_t n)
{
    b->cap = n + 1;
    b->fdes = calloc(n + 1, sizeof *b->fdes);
    b->encoded = calloc(n + 1, sizeof *b->encoded);
    b->pc_begins = calloc(n + 1, sizeof *b->pc_begins);
    b->fde_addrs = calloc(n + 1, sizeof *b->fde_addrs);
    b->unrepaired = calloc(n + 1, sizeof *b->unrepaired);
    return b->fdes && b->encoded && b->pc_begins && b->fde_addrs && b->unrepaired ? 0 : -1;
}

static void take_cies(struct eh_frame_build *b, const struct cfi_section *eh)
{
    for (size_t i = 0; i < eh->ncies; i++) {
        const struct eh_frame_cie *c = &eh->cies[i];
        b->cies[i] = (struct eh_cie_spec){
            .code_align = c->code_align, .data_align = c->data_align, .ra_column = c->ra_column,
            .signal_frame = c->signal_frame, .personality_encoding = c->personality_encoding,
            .personality = c->personality, .lsda_encoding = c->lsda_encoding,
            .insns = c->insns, .insns_len = c->insns_len};
    }
    b->cies[eh->ncies] = (struct eh_cie_spec){
        .code_align = entry_cie_params.code_align, .data_align = entry_cie_params.data_align,
        .ra_column = entry_cie_params.ra_column, .personality_encoding = DW_EH_PE_omit,
        .lsda_encoding = DW_EH_PE_omit, .insns = entry_cie_insns, .insns_len = sizeof entry_cie_insns};
    b->ncies = eh->ncies + 1;
}

/* The spec of H_valid's FDE F: 1 when it is written, 0 when left out, -1
 * when out of memory. */
static int take_fde(struct eh_frame_build *b, struct cfi_eval *ev, const struct cfi_section *eh,
                    const struct validated_fde *f)
{
    size_t k = b->nfdes;
    struct eh_fde_spec *s = &b->fdes[k];
    const char *why = NULL;
    if (f->fde) {
        if (f->fde->fault != FDE_SOUND) {
            b->dropped++;
            return 0;
        }
        *s = (struct eh_fde_spec){.cie = (size_t)(f->fde->cie - eh->cies), .pc_begin = f->lo,
                                  .pc_range = f->hi - f->lo, .lsda = f->fde->lsda,
                                  .insns = f->fde->insns, .insns_len = f->fde->insns_len};
        if (f->repaired && !(why = keeps_what_h_drops(f))) {
            const struct cie_result *cie = cfi_eval_cie_result(ev, f->fde->cie);
            int rc = cie->ok ? cfi_encode_fde(&f->table, &cie->params, &cie->state, &b->encoded[k], &why) : -1;
            if (!cie->ok)
                why = "its CIE's program is malformed";
            if (rc == -2)
                return -1;
            if (rc == 0) {
                s->insns = b->encoded[k].b;
                s->insns_len = b->encoded[k].n;
            }
        }
    } else {
        struct cfi_state initial;
        entry_cie_state(&initial);
        *s = (struct eh_fde_spec){.cie = b->ncies - 1, .pc_begin = f->lo, .pc_range = f->hi - f->lo};
        int rc = cfi_encode_fde(&f->table, &entry_cie_params, &initial, &b->encoded[k], &why);
        if (rc == -2)
            return -1;
        s->insns = b->encoded[k].b;
        s->insns_len = b->encoded[k].n;
    }
    if (why)
        b->unrepaired[b->nunrepaired++] = (struct unrepaired_fde){f, why};
    if (why && !f->fde) {
        cfi_bytes_release(&b->encoded[k]);
        return 0;   /* an added FDE that cannot be written: left out, listed */
    }
    b->pc_begins[k] = s->pc_begin;
    b->nfdes++;
    return 1;
}

int eh_frame_build_prepare(struct eh_frame_build *b, const struct validated_table *vt,
                           const struct cfi_section *eh, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->cies = calloc(eh->ncies + 1, sizeof *b->cies);
    struct cfi_eval ev;
    if (!b->cies || grow(b, vt->nfdes) != 0 || cfi_eval_init(&ev, eh) != 0) {
        eh_frame_build_release(b);
        return error_set(err, errlen, "out of memory");
    }
    take_cies(b, eh);
    int rc = 0;
    for (size_t i = 0; i < vt->nfdes && rc == 0; i++)
        if (take_fde(b, &ev, eh, &vt->fdes[i]) < 0)
            rc = error_set(err, errlen, "out of memory");
    cfi_eval_release(&ev);
    /* The added FDEs' CIE only when one is written: a copy's copy keeps
     * the CIEs it has, and gains none. */
    int entry_cie_used = 0;
    for (size_t k = 0; k < b->nfdes; k++)
        entry_cie_used |= b->fdes[k].cie == eh->ncies;
    if (!entry_cie_used)
        b->ncies = eh->ncies;
    const char *why = NULL;
    if (rc == 0 && eh_frame_size(b->cies, b->ncies, b->fdes, b->nfdes, &b->eh_frame_size, &why) != 0)
        rc = error_set(err, errlen, "cannot write its unwind table again: %s", why);
    b->eh_frame_hdr_size = eh_frame_hdr_size(b->nfdes);
    if (rc != 0)
        eh_frame_build_release(b);
    return rc;
}

int eh_frame_build_write(struct eh_frame_build *b, uint64_t eh_frame_addr, uint64_t hdr_addr, char *err,
                         size_t errlen)
{
    const char *why = NULL;
    int rc = eh_frame_write(b->cies, b->ncies, b->fdes, b->nfdes, eh_frame_addr, &b->eh_frame, b->fde_addrs, &why);
    if (rc == 0)
        rc = eh_frame_hdr_write(hdr_addr, eh_frame_addr, b->pc_begins, b->fde_addrs, b->nfdes, &b->eh_frame_hdr,
                                &why);
    if (rc == -2)
        return error_set(err, errlen, "out of memory");
    if (rc != 0)
        return error_set(err, errlen, "cannot write its unwind table at 0x%llx: %s",
                         (unsigned long long)eh_frame_addr, why);
    return 0;
}

void eh_frame_build_release(struct eh_frame_build *b)
{
    for (size_t i = 0; b->encoded && i < b->cap; i++)
        cfi_bytes_release(&b->encoded[i]);
    free(b->encoded);
    free(b->cies);
    free(b->fdes);
    free(b->pc_begins);
    free(b->fde_addrs);
    free(b->unrepaired);
    cfi_bytes_release(&b->eh_frame);
    cfi_bytes_release(&b->eh_frame_hdr);
    memset(b, 0, sizeof *b);
}
