/* SPDX-License-Identifier: Apache-2.0 */
/*
 * frame_exit: rets and jumps between FDEs (see the header).
 */
#include "frame_exit.h"

#include <stdio.h>
#include <string.h>

#include "semantics/abi.h"
#include "semantics/print/table_print.h"
#include "verify/rules/slot_truth.h"

enum rule_verdict frame_exit_ret(const struct abstract_state *st, char *why, size_t size)
{
    struct abstract_value rsp = st->reg[ABI_RSP];
    if (rsp.kind != AV_CFA)
        return RULE_UNDECIDED;
    if (rsp.off != -ABI_ENTRY_CFA_OFFSET) {
        snprintf(why, size, "rsp is CFA%+lld, not CFA-8: it pops %s", (long long)rsp.off,
                 rsp.off < -ABI_ENTRY_CFA_OFFSET ? "a word of its own frame" : "a word of its caller's frame");
        return RULE_FAILS;
    }
    enum rule_verdict v = slot_truth_holds_entry(abstract_state_slot(st, -ABI_ENTRY_CFA_OFFSET), STATE_RA);
    if (v == RULE_FAILS)
        snprintf(why, size, "the word at CFA-8 it pops is not the return address");
    return v;
}

int frame_exit_is_push_jump(const struct ir_insn *prev, const struct ir_insn *in)
{
    /* As the decoder lowers `push %r` or `push $imm`: rsp -= 8, then 8 bytes stored at rsp. */
    return in->flow == IR_FLOW_RET && prev && prev->neffects == 2 && prev->effects[0].kind == IR_SET &&
           prev->effects[0].dst == ABI_RSP && prev->effects[0].src == ABI_RSP && prev->effects[0].imm == -8 &&
           prev->effects[1].kind == IR_STORE && prev->effects[1].base == ABI_RSP && prev->effects[1].imm == 0 &&
           prev->effects[1].size == 8;
}

enum rule_verdict frame_exit_cross_fde(struct rule_judge *j, struct fde_lookup *l, const struct eh_frame_fde *from,
                                       const struct ir_insn *in, const struct abstract_state *st,
                                       struct cross_fde *out)
{
    memset(out, 0, sizeof *out);
    if (in->flow != IR_FLOW_JUMP && in->flow != IR_FLOW_COND)
        return RULE_UNDECIDED;
    return frame_exit_into(j, l, from, in->target, st, out);
}

enum rule_verdict frame_exit_into(struct rule_judge *j, struct fde_lookup *l, const struct eh_frame_fde *from,
                                  uint64_t target, const struct abstract_state *st, struct cross_fde *out)
{
    memset(out, 0, sizeof *out);
    if (!from || (target >= from->pc_begin && target - from->pc_begin < from->pc_range))
        return RULE_UNDECIDED;
    const struct eh_frame_fde *to;
    const struct unwind_row *row = fde_lookup_row(l, target, &to);
    if (!row || !to || to == from || to->cie->signal_frame || row->reg[ABI_RA].kind == REG_RULE_UNDEFINED)
        return RULE_UNDECIDED;
    out->target_fde = to;
    out->target = target;
    enum rule_verdict all = rule_eval_cfa(j, &row->cfa, st, target, &out->answer);
    if (all == RULE_FAILS) {
        out->column = -1;
        table_print_cfa_rule(out->rule, sizeof out->rule, &row->cfa);
        return RULE_FAILS;
    }
    if (all == RULE_UNDECIDED)
        return RULE_UNDECIDED;   /* the rules of the registers are relative to the CFA */
    for (unsigned i = 0; i <= ABI_NCALLEE_SAVED; i++) {
        unsigned reg = i < ABI_NCALLEE_SAVED ? abi_callee_saved_regs[i] : ABI_RA;
        struct rule_answer a;
        enum rule_verdict v = rule_eval_reg(j, &row->reg[reg], reg, st, target, &a);
        if (v == RULE_FAILS) {
            out->column = (int)reg;
            out->answer = a;
            table_print_reg_rule_plain(out->rule, sizeof out->rule, &row->reg[reg]);
            return RULE_FAILS;
        }
        if (v == RULE_UNDECIDED)
            all = RULE_UNDECIDED;
    }
    return all;
}
