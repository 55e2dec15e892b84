/*
 * z3_workload: a small SMT problem through libz3's C API, so that the
 * unwinding benchmark samples stacks inside libz3 and libstdc++.
 */
#include <z3.h>

int z3_workload(void);

int z3_workload(void)
{
    Z3_config cfg = Z3_mk_config();
    Z3_context ctx = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    Z3_string result = Z3_eval_smtlib2_string(ctx, "(declare-const x Int) (declare-const y Int)"
                                                   "(assert (> (* x y) 12)) (assert (< (+ x y) 9))"
                                                   "(assert (distinct x y)) (check-sat)");
    int sat = result[0] == 's';
    Z3_del_context(ctx);
    return sat;
}
/* SPDX-License-Identifier: Apache-2.0 */
