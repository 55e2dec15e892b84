/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cfi_eval: run the CFA programs of a section's CIEs and FDEs.
 *
 * Glue between cfi_reader (entries parsed by eh_frame_parse) and cfa_program (the
 * pure evaluator): builds each CIE's parameters and initial state, runs an
 * FDE's program from it, and reports every row — the rows ended by an
 * advance, then the final row that runs to the end of the FDE.  Also builds
 * H (an unwind_table) for an FDE.
 */
#ifndef DWCHECK_CFI_EVAL_H
#define DWCHECK_CFI_EVAL_H

#include "cfa_program.h"
#include "cfi_reader.h"
#include "unwind_table.h"

/* Maximum remember_state nesting accepted (deeper is reported as malformed). */
#define CFI_REMEMBER_DEPTH UNWIND_REMEMBER_DEPTH

/* The state after a CIE's initial instructions, computed once per CIE. */
struct cie_result {
    struct cfa_cie_params params;
    struct cfi_state state;
    int ok;                      /* 0: the CIE's program is malformed (see error) */
    struct cfa_error error;
};

/* An evaluation context: per-CIE results and the remember-state stack. */
struct cfi_eval {
    const struct cfi_section *section;
    struct cie_result *cies;     /* parallel to section->cies */
    struct cfi_state *stack;     /* CFI_REMEMBER_DEPTH states */
};

/* Returns 0, or -1 when out of memory. */
int cfi_eval_init(struct cfi_eval *ev, const struct cfi_section *section);
void cfi_eval_release(struct cfi_eval *ev);

/* Index of CIE in section->cies. */
size_t cfi_eval_cie_index(const struct cfi_eval *ev, const struct eh_frame_cie *cie);

/* CIE's parameters and the state its initial instructions leave (computed
 * on first use; ok 0 when its program is malformed). */
const struct cie_result *cfi_eval_cie_result(struct cfi_eval *ev, const struct eh_frame_cie *cie);

/*
 * Run CIE's initial instructions from an empty state at location 0,
 * reporting rows through ON_ROW.  *ALL_NOPS tells whether the program was
 * nothing but DW_CFA_nop (readelf then prints no row).  Returns what
 * cfa_program_run returns; the final state is in *FINAL.
 */
int cfi_eval_cie(struct cfi_eval *ev, const struct eh_frame_cie *cie, cfa_row_fn on_row, void *arg,
                 struct cfi_state *final, int *all_nops, struct cfa_error *err);

/*
 * Run FDE from its CIE's state (pc_begin), reporting each row that an
 * advance ends; the final state (whose row runs to pc_begin + pc_range) is
 * left in *FINAL.  Returns what cfa_program_run returns, or -1 with ERR set
 * when the CIE itself is malformed.
 */
int cfi_eval_fde(struct cfi_eval *ev, const struct eh_frame_fde *fde, cfa_row_fn on_row, void *arg,
                 struct cfi_state *final, int *all_nops, struct cfa_error *err);

/* Build H for FDE into T (initialised here).  Returns 0, -1 with ERR (malformed)
 * or -2 (out of memory). */
int cfi_eval_fde_table(struct cfi_eval *ev, const struct eh_frame_fde *fde, struct unwind_table *t,
                       struct cfa_error *err);

/* H for every FDE of the section whose range is code (no fault: see
 * cfi_reader.h), in section order, into *TABLES (*N of
 * them; cfi_eval_tables_release frees them).  Returns 0, -1 with ERR and
 * *BAD (the malformed FDE), or -2 (out of memory). */
int cfi_eval_all_tables(struct cfi_eval *ev, struct unwind_table **tables, size_t *n,
                        struct cfa_error *err, const struct eh_frame_fde **bad);
void cfi_eval_tables_release(struct unwind_table *tables, size_t n);

#endif
