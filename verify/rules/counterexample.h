/* SPDX-License-Identifier: Apache-2.0 */
/*
 * counterexample: the values under which a DWARF rule gives the wrong
 * answer, as the prover found them (verify/rules/prover).
 *
 * A flat value (findings travel between processes as bytes): the CFA, the
 * registers the rule reads and the stack words it dereferences, what the
 * rule gives there and what the code gives.  `what` says which: a CFA rule
 * gives the CFA; a value rule (val_expression, same_value ...) a register's
 * value, to compare with its value on entry; an address rule (offset,
 * expression) the address of a register's save, to compare with the slot
 * where the code keeps its entry value (has_code 0: no tracked slot does).
 * Substituted back into the rule, the registers and words give `rule`.
 */
#ifndef DWCHECK_COUNTEREXAMPLE_H
#define DWCHECK_COUNTEREXAMPLE_H

#include <stddef.h>
#include <stdint.h>

enum cx_what { CX_CFA, CX_VALUE, CX_ADDRESS };

#define CX_MAX_REGS 8
#define CX_MAX_WORDS 4

struct counterexample {
    uint8_t present;                /* 0: the finding has none */
    uint8_t what;                   /* enum cx_what */
    uint8_t column;                 /* CX_VALUE, CX_ADDRESS: the register the rule is for */
    uint8_t has_code;               /* CX_ADDRESS: `code` is a slot holding the entry value */
    uint8_t nregs, nwords;
    uint8_t reg[CX_MAX_REGS];       /* DWARF register numbers, in the order first read */
    uint64_t reg_value[CX_MAX_REGS];
    uint64_t word_addr[CX_MAX_WORDS], word_value[CX_MAX_WORDS];
    uint64_t cfa;
    uint64_t rule;                  /* what the rule gives */
    uint64_t code;                  /* what the code gives */
};

/* "what" as JSON names it: "cfa", "value", "address". */
const char *counterexample_what(const struct counterexample *cx);

/* The text form: "rsp=0x7ffe0000, [0x7ffe0008]=0x7ffe0020: the rule gives
 * CFA=0x7ffe0018, the code 0x7ffe0010".  Writes at most SIZE bytes. */
void counterexample_format(char *buf, size_t size, const struct counterexample *cx);

#endif
