/* SPDX-License-Identifier: Apache-2.0 */
/*
 * finding_identity: a finding's identity across builds (finding_identity.h).
 */
#include "finding_identity.h"

#include <stdio.h>
#include <string.h>

#include "runtime/identity.h"
#include "semantics/print/table_print.h"

void finding_identity_of(struct finding_identity *id, const char *path, const struct finding *f)
{
    memset(id, 0, sizeof *id);
    const char *slash = strrchr(path, '/');
    snprintf(id->kind, sizeof id->kind, "%s", finding_kind_name((enum finding_kind)f->kind));
    snprintf(id->object, sizeof id->object, "%s", slash ? slash + 1 : path);
    snprintf(id->function, sizeof id->function, "%s", f->function);
    id->insn = f->insn_index < 0 ? -1 : (long)f->insn_index;
    id->column = f->column < 0 ? -1 : f->column;
    /* readelf's `u` for both (synthesis's own `undefined`, clone's child's
     * return address, was always spelt out). */
    int rule_u = !strcmp(f->dwarf, RULE_TEXT_UNCHANGED) || !strcmp(f->dwarf, RULE_TEXT_UNDEFINED);
    snprintf(id->rule, sizeof id->rule, "%s", rule_u ? "u" : f->dwarf);
    snprintf(id->synth, sizeof id->synth, "%s", !strcmp(f->synth, RULE_TEXT_UNCHANGED) ? "u" : f->synth);
}

int finding_identity_equal(const struct finding_identity *a, const struct finding_identity *b)
{
    return a->insn == b->insn && a->column == b->column && !strcmp(a->kind, b->kind) &&
           !strcmp(a->object, b->object) && !strcmp(a->function, b->function) && !strcmp(a->rule, b->rule) &&
           !strcmp(a->synth, b->synth);
}

void finding_identity_fingerprint(char *buf, const struct finding_identity *id)
{
    char insn[24], column[16];
    snprintf(insn, sizeof insn, "%ld", id->insn);
    snprintf(column, sizeof column, "%d", id->column);
    uint64_t h = DWU_FNV1A_BASIS;
    const char *fields[] = {"v1", id->kind, id->object, id->function, insn, column, id->rule, id->synth};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        h = dwu_fnv1a_more(h, fields[i], strlen(fields[i]) + 1);   /* each with its NUL */
    snprintf(buf, FINDING_FINGERPRINT_LEN, "%016llx", (unsigned long long)h);
}
