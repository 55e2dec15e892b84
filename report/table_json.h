/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_json: the JSON form of H's rules, for dwtable's and dwsynth's
 * --format=json.
 *
 * A rule is an object with its kind and operands, the names and offsets
 * those of the readelf layout (semantics/print/table_print): {"rule":"offset",
 * "offset":-16}, {"rule":"reg_offset","reg":"rsp","offset":8}; an
 * expression carries its bytes in hex and its operations decoded
 * ("DW_OP_breg7 (rsp): 8"), or a decode_error.  It lives here, beside the
 * JSON string escaper, since table printing in semantics/ stays free of
 * JSON.  Writes to a FILE and never fails on its own.
 */
#ifndef DWCHECK_TABLE_JSON_H
#define DWCHECK_TABLE_JSON_H

#include <stdio.h>

#include "semantics/unwind_table.h"

/* RULE as a JSON object on OUT: a CFA rule when IS_CFA, else a register's. */
void table_json_rule(FILE *out, const struct unwind_rule *rule, int is_cfa);

#endif
