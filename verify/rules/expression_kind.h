/* SPDX-License-Identifier: Apache-2.0 */
/*
 * expression_kind: which family a DWARF expression rule belongs to, so
 * that an audit can say how many of each the prover proved, refuted or
 * left undecided.
 *
 * Families, by who writes them (first match):
 *   signal   a rule of a signal frame's FDE (the CIE has 'S': glibc's
 *            __restore_rt reads the saved context);
 *   plt      a CFA rule that reads rip (the linkers' lazy PLT: rsp+8, +8
 *            more past the push of the stub);
 *   drap     a rule that starts from rbp (GCC's dynamic realignment: the
 *            CFA read back from the slot rbp points at, rbp's own save);
 *   perlasm  a rule that dereferences a word at rsp+N (OpenSSL's perlasm
 *            `.cfi_cfa_expression %rsp+N,deref,+M`: a stack pointer saved
 *            on the stack);
 *   realign  a rule that rounds with DW_OP_and (glibc's libmvec);
 *   other    anything else.
 */
#ifndef DWCHECK_EXPRESSION_KIND_H
#define DWCHECK_EXPRESSION_KIND_H

#include "semantics/unwind_table.h"

enum expression_kind {
    EXPR_SIGNAL, EXPR_PLT, EXPR_DRAP, EXPR_PERLASM, EXPR_REALIGN, EXPR_OTHER, EXPRESSION_KINDS
};

/* The family of RULE (an expression rule; IS_CFA: the CFA's), in a signal
 * frame's FDE or not. */
enum expression_kind expression_kind_of(const struct unwind_rule *rule, int is_cfa, int signal_frame);

/* "signal", "plt", ... */
const char *expression_kind_name(enum expression_kind kind);

#endif
