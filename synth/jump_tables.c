/* SPDX-License-Identifier: Apache-2.0 */
/*
 * jump_tables: switch tables and computed gotos (see jump_tables.h).
 */
#include "jump_tables.h"

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "dataflow.h"

#define JUMP_TABLE_MAX 65536
#define TABLE_MAX_PASSED_OVER 4

/* The table an earlier pass found from values for the jump at index J, or
 * NULL.  (One whose entries name nothing of the function is not sought
 * again.) */
static const struct known_table *find_known(const struct known_table *known, size_t n, size_t j)
{
    for (size_t k = 0; k < n; k++)
        if (known[k].jump == j)
            return &known[k];
    return NULL;
}

/* The table pattern before an indirect jump (see x86_decode.c). */
struct table_pattern {
    size_t load;                 /* the movslq of an entry */
    size_t add;                  /* the add of the base, or (size_t)-1 */
    uint8_t table_reg;           /* the movslq's base register */
    uint8_t other_reg;           /* -O0's load: the other register, which may hold the table */
    uint8_t base_reg;            /* what entries are relative to: the add's other register */
    uint64_t table_at, other_at, base_at;   /* from leas of the block, or 0 */
};

/* The pattern before the indirect jump at index J, back through its
 * straight-line code: perhaps an add of the base to the jump register, the
 * load of an entry into it (movslq, or -O0's mov through two registers, one
 * of them the table), and the leas of the table and of the base (the
 * table, unless the add names another register) that last wrote them.
 * Returns 1 when the load is found. */
static int table_pattern_of(const struct function_code *fc, size_t j, struct table_pattern *p)
{
    const struct ir_insn *jmp = &fc->insns[j];
    *p = (struct table_pattern){(size_t)-1, (size_t)-1, IR_REG_NONE, IR_REG_NONE, IR_REG_NONE, 0, 0, 0};
    if (jmp->aux != IR_AUX_JMP_REG)
        return 0;
    for (size_t k = j, steps = 0; k-- > 0 && steps < 12 && fc->insns[k].flow == IR_FLOW_NEXT; steps++) {
        const struct ir_insn *in = &fc->insns[k];
        if (p->table_reg == IR_REG_NONE && p->base_reg == IR_REG_NONE && in->aux == IR_AUX_ADD_REG &&
            in->aux_reg[0] == jmp->aux_reg[0]) {
            p->base_reg = in->aux_reg[1];
            p->add = k;
            continue;
        }
        if (p->table_reg == IR_REG_NONE &&
            (in->aux == IR_AUX_LOAD_REL32 || in->aux == IR_AUX_LOAD32_PAIR) &&
            (in->aux_reg[0] == jmp->aux_reg[0] || steps < 3)) {
            p->table_reg = in->aux_reg[1];
            if (in->aux == IR_AUX_LOAD32_PAIR)
                p->other_reg = in->aux_reg[2];
            p->load = k;
            /* movslq (%t,%i,4),%r; add %r,%t; jmp *%t: the entry is added
             * to the base the jump register holds. */
            if (p->base_reg == in->aux_reg[0] && p->add != (size_t)-1)
                p->base_reg = jmp->aux_reg[0];
            if (p->base_reg == p->table_reg) {
                p->base_reg = IR_REG_NONE;
                p->add = (size_t)-1;
            }
            continue;
        }
        for (int which = 0; which < 3; which++) {
            uint8_t r = which == 0 ? p->table_reg : which == 1 ? p->base_reg : p->other_reg;
            uint64_t *at = which == 0 ? &p->table_at : which == 1 ? &p->base_at : &p->other_at;
            if (r == IR_REG_NONE || *at == (uint64_t)-1 || *at || !ir_writes_reg(in, r))
                continue;
            /* Another write last: the register is not a lea's here. */
            *at = in->aux == IR_AUX_LEA_RIP && in->aux_reg[0] == r ? in->target : (uint64_t)-1;
        }
    }
    if (p->table_at == (uint64_t)-1)
        p->table_at = 0;
    if (p->base_at == (uint64_t)-1)
        p->base_at = 0;
    if (p->other_at == (uint64_t)-1)
        p->other_at = 0;
    if (p->other_at && !p->table_at) {   /* the table is the load's other register */
        uint8_t r = p->table_reg;
        p->table_reg = p->other_reg;
        p->other_reg = r;
        p->table_at = p->other_at;
        p->other_at = 0;
    }
    return p->table_reg != IR_REG_NONE;
}

/* Whether an instruction after index FROM and before index TO stores over
 * the place LOAD (IR_AUX_LOAD_MEM) reads, through the same base register. */
static int stored_between(const struct function_code *fc, size_t from, size_t to, const struct ir_insn *load)
{
    int64_t at = (int64_t)load->target, size = load->aux_reg[2];
    for (size_t m = from + 1; m < to; m++)
        for (unsigned e = 0; e < fc->insns[m].neffects; e++) {
            const struct ir_effect *x = &fc->insns[m].effects[e];
            if (x->kind == IR_STORE && x->base == load->aux_reg[1] && x->imm < at + size && at < x->imm + x->size)
                return 1;
        }
    return 0;
}

/* How many entries the code before the table load at index K lets its
 * index register I reach: cmp $N,%i; ja default (N + 1), or jae (N), then
 * straight-line code that at most widens i in place or copies it into
 * another register (of 32 bits or more) that becomes the index.  Or the
 * switch's value in memory: cmp $N,D(%b); ja, then i loaded from the same D(%b), of the
 * same size, b unchanged, no store through b over it between (the compiler
 * reads it again only where none can change it); up to four moves, loads,
 * stores or leas may stand between that compare and its jump.  A compare
 * narrower than what a widening or a copy keeps of it bounds nothing.  0
 * when not so. */
static uint64_t table_bound_of(const struct function_code *fc, size_t k, uint8_t i)
{
    const struct ir_insn *load = NULL;   /* of i from memory, after the jump */
    size_t load_at = 0;
    unsigned used = 0;                   /* bytes of the compared register the index keeps */
    for (size_t m = k, steps = 0; i != IR_REG_NONE && m-- > 1 && steps < 16; steps++) {
        const struct ir_insn *in = &fc->insns[m];
        if (in->flow == IR_FLOW_COND) {
            if (in->aux != IR_AUX_JA && in->aux != IR_AUX_JAE)
                return 0;
            size_t c = m - 1;
            while (load && c > 0 && m - c <= 4 && fc->insns[c].flow == IR_FLOW_NEXT && !fc->insns[c].writes_cf_zf &&
                   !ir_writes_reg(&fc->insns[c], load->aux_reg[1]))
                c--;
            const struct ir_insn *cmp = &fc->insns[c];
            uint64_t n = cmp->target & 0xffffffffu;
            int holds = load ? cmp->aux == IR_AUX_CMP_IMM_MEM && cmp->aux_reg[0] == load->aux_reg[1] &&
                                   cmp->aux_reg[1] == load->aux_reg[2] &&
                                   (uint32_t)(cmp->target >> 32) == (uint32_t)load->target &&
                                   !stored_between(fc, c, load_at, load)
                             : cmp->aux == IR_AUX_CMP_IMM && cmp->aux_reg[0] == i && cmp->aux_reg[1] >= used;
            if (!holds || n >= JUMP_TABLE_MAX)
                return 0;
            return n + (in->aux == IR_AUX_JA);
        }
        if (in->flow != IR_FLOW_NEXT)
            return 0;
        if (load) {
            if (ir_writes_reg(in, load->aux_reg[1]))
                return 0;
        } else if (in->aux == IR_AUX_WIDEN_SELF && in->aux_reg[0] == i) {
            used = in->aux_reg[1];
        } else if (ir_writes_reg(in, i)) {
            if (in->aux == IR_AUX_COPY_REG && in->aux_reg[0] == i && in->aux_reg[1] != i) {
                i = in->aux_reg[1];   /* the compare was of the copy's source */
                used = in->aux_reg[2];
                continue;
            }
            if (in->aux != IR_AUX_LOAD_MEM || in->aux_reg[0] != i)
                return 0;
            load = in;
            load_at = m;
        }
    }
    return 0;
}

/* The bound of the table load of pattern P: a movslq's index register's;
 * for -O0's load through two registers, that of the index the other one
 * was scaled from (lea 0(,%i,4),%r, then straight-line code that leaves r). */
static uint64_t load_bound(const struct function_code *fc, const struct table_pattern *p)
{
    const struct ir_insn *load = &fc->insns[p->load];
    if (load->aux == IR_AUX_LOAD_REL32)
        return table_bound_of(fc, p->load, load->aux_reg[2]);
    for (size_t k = p->load, steps = 0; p->other_reg != IR_REG_NONE && k-- > 0 && steps < 8 &&
                                        fc->insns[k].flow == IR_FLOW_NEXT; steps++) {
        const struct ir_insn *in = &fc->insns[k];
        if (!ir_writes_reg(in, p->other_reg))
            continue;
        return in->aux == IR_AUX_LEA_SCALED4 && in->aux_reg[0] == p->other_reg
                   ? table_bound_of(fc, k, in->aux_reg[1]) : 0;
    }
    return 0;
}

/* The table the indirect jump at index J reads, in *T (see struct
 * known_table); 1, or 0 when none is found. */
static int jump_table_of(const struct function_code *fc, const struct known_tables *kt, size_t j,
                         struct known_table *t)
{
    const struct ir_insn *jmp = &fc->insns[j];
    *t = (struct known_table){j, 0, 0, 0};
    if (jmp->aux == IR_AUX_JMP_ABS64) {
        t->table = jmp->target;
        t->bound = table_bound_of(fc, j, jmp->aux_reg[1]);
        return 1;
    }
    /* mov T(,%i,8),%r; jmp *%r: a table of addresses. */
    for (size_t k = j, steps = 0; jmp->aux == IR_AUX_JMP_REG && k-- > 0 && steps < 4 &&
                                  fc->insns[k].flow == IR_FLOW_NEXT; steps++) {
        if (!ir_writes_reg(&fc->insns[k], jmp->aux_reg[0]))
            continue;
        if (fc->insns[k].aux != IR_AUX_LOAD_ABS64 || fc->insns[k].aux_reg[0] != jmp->aux_reg[0])
            break;
        t->table = fc->insns[k].target;
        t->bound = table_bound_of(fc, k, fc->insns[k].aux_reg[1]);
        return 1;
    }
    const struct known_table *known = find_known(kt->table, kt->n, j);
    if (known) {
        *t = *known;
        return 1;
    }
    struct table_pattern p;
    if (!table_pattern_of(fc, j, &p))
        return 0;
    /* Registers set before the block (a table kept in a register across a
     * loop) are left to jump_tables_from_values. */
    uint64_t base_at = p.base_reg == IR_REG_NONE ? p.table_at : p.base_at;
    if (!p.table_at || !base_at)
        return 0;
    t->table = p.table_at;
    t->base = base_at;
    t->bound = load_bound(fc, &p);
    return 1;
}

static int by_address(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether ADDR starts one of the N tables of SORTED (ascending). */
static int starts_table(const uint64_t *sorted, size_t n, uint64_t addr)
{
    return bsearch(&addr, sorted, n, sizeof *sorted, by_address) != NULL;
}

/* Whether ADDR is in an executable section of EF. */
static int in_code_section(struct elf_file *ef, uint64_t addr)
{
    const struct elf_section *sec = elf_file_section_at(ef, addr);
    return sec && (sec->flags & SHF_EXECINSTR);
}

/* Record that the jump at index J may leave for TARGET; -1 when out of memory. */
static int add_table_exit(struct jump_tables *jt, size_t j, uint64_t target)
{
    for (size_t k = jt->nexits; k-- > 0 && jt->exits[k].jump == j;)
        if (jt->exits[k].target == target)
            return 0;   /* the many cases that share a .cold default */
    if (jt->nexits == jt->exits_cap) {
        size_t cap = jt->exits_cap ? 2 * jt->exits_cap : 8;
        struct table_exit *p = realloc(jt->exits, cap * sizeof *p);
        if (!p)
            return -1;
        jt->exits = p;
        jt->exits_cap = cap;
    }
    jt->exits[jt->nexits++] = (struct table_exit){j, target};
    return 0;
}

/* Whether instruction T, padding, is an empty case of the bounded table
 * the jump at index J reads: at -O0 GCC gives one a lone one-byte nop before
 * code (alignment padding is longer, or not followed by code). */
static int empty_case(const struct function_code *fc, size_t j, size_t t)
{
    struct table_pattern p;
    return fc->insns[t].len == 1 && fc->insns[t].flow == IR_FLOW_NEXT && t + 1 < fc->n &&
           !fc->insns[t + 1].is_padding && (t == 0 || !fc->insns[t - 1].is_padding) &&
           table_pattern_of(fc, j, &p) && fc->insns[p.load].aux == IR_AUX_LOAD32_PAIR;
}

/* Resolve jump tables.  Where the code bounds the index (cmp $N,%i; ja),
 * exactly that many entries are read, each a case (at -O0 an empty one is
 * a lone nop).  Otherwise entries are taken while they name instructions of
 * this function other than alignment padding (no
 * compiler jumps there) or its start, up to where another of the
 * function's tables starts; a table of addresses may hold a few null
 * entries, or entries into other code, between its cases. */
int jump_tables_resolve(struct jump_tables *jt, const struct function_code *fc, struct elf_file *ef,
                        const struct function_index *index, const struct known_tables *kt)
{
    if (!ef)
        return 0;
    const struct function_range *f = fc->func;
    size_t cap = 0, njumps = 0;
    for (size_t j = 0; j < fc->n; j++)
        njumps += fc->insns[j].flow == IR_FLOW_JUMP_INDIRECT;
    if (!njumps)
        return 0;
    struct known_table *found = calloc(njumps, sizeof *found);
    uint64_t *sorted = calloc(njumps, sizeof *sorted);
    size_t nfound = 0;
    if (!found || !sorted)
        goto oom;
    for (size_t j = 0; j < fc->n; j++)
        if (fc->insns[j].flow == IR_FLOW_JUMP_INDIRECT && jump_table_of(fc, kt, j, &found[nfound])) {
            sorted[nfound] = found[nfound].table;
            nfound++;
        }
    qsort(sorted, nfound, sizeof *sorted, by_address);
    for (size_t k = 0; k < nfound; k++) {
        size_t j = found[k].jump;
        uint64_t table = found[k].table, base = found[k].base;
        int rel32 = base != 0;
        struct elf_section *sec = elf_file_section_at(ef, table);
        uint64_t n;
        char err[ELF_FILE_ERRLEN];
        const uint8_t *bytes = sec ? elf_file_section_bytes(ef, sec, &n, err, sizeof err) : NULL;
        if (!bytes)
            continue;
        if (!jt->first) {
            jt->first = calloc(fc->n, sizeof *jt->first);
            jt->count = calloc(fc->n, sizeof *jt->count);
            jt->read = calloc(fc->n, 1);
            if (!jt->first || !jt->count || !jt->read)
                goto oom;
        }
        jt->first[j] = jt->ntargets;
        jt->read[j] = rel32 && base != table && base >= f->lo && base < f->hi ? TABLE_OF_LABELS : 1;
        unsigned size = rel32 ? 4 : 8, passed_over = 0;
        uint64_t bound = found[k].bound;
        /* The cases outside the function: its .cold part, one range. */
        size_t exits_from = jt->nexits, cold = (size_t)-1;
        uint32_t before_exits = 0;
        for (uint64_t e = 0; e < (bound ? bound : JUMP_TABLE_MAX); e++) {
            uint64_t at = table - sec->addr + e * size;
            if (at + size > n || (!bound && e > 0 && starts_table(sorted, nfound, table + e * size)))
                break;
            uint64_t v = 0;
            for (unsigned b = 0; b < size; b++)
                v |= (uint64_t)bytes[at + b] << (8 * b);
            /* A position-independent file's addresses are its relocations'. */
            uint64_t relocated;
            if (!rel32 && elf_file_relative_at(ef, table + e * size, &relocated))
                v = relocated;
            uint64_t target = rel32 ? base + (uint64_t)(int64_t)(int32_t)v : v;
            size_t t = target >= f->lo && target < f->hi ? function_code_insn_at(fc, target) : (size_t)-1;
            /* Within a bound the code sets, every entry is a case: those
             * that leave the function (its .cold part, or its end where
             * clang drops an unreachable default) are passed over.
             * Without one: the function's end any number of times; and a
             * table of addresses may name nothing, or code outside the
             * function, between its cases: a few such entries in a row are
             * passed over; more end the table, as does the function's own
             * start (a pointer to the function: data). */
            int usable = t != (size_t)-1 && (!fc->insns[t].is_padding || (bound && empty_case(fc, j, t))) &&
                         target != f->lo;
            if (bound && !usable) {
                if ((target < f->lo || target > f->hi) && in_code_section(ef, target)) {
                    size_t range = index ? function_index_at(index, target) : (size_t)-1;
                    if (jt->nexits == exits_from) {
                        cold = range;
                        before_exits = jt->count[j];
                    } else if (range != cold) {
                        /* Cases in two other functions: the compare bounds
                         * something else (LLVM knows ranges it does not
                         * show), and the table ended before its first
                         * case outside. */
                        jt->nexits = exits_from;
                        jt->ntargets -= jt->count[j] - before_exits;
                        jt->count[j] = before_exits;
                        break;
                    }
                    if (add_table_exit(jt, j, target) != 0)
                        goto oom;
                }
                continue;
            }
            if (target == f->hi)
                continue;
            if (!rel32 && (target < f->lo || target >= f->hi) && (v == 0 || in_code_section(ef, target))) {
                if (++passed_over > TABLE_MAX_PASSED_OVER)
                    break;
                continue;
            }
            if (!usable)
                break;
            passed_over = 0;
            if (jt->ntargets == cap) {
                cap = cap ? cap * 2 : 64;
                size_t *p = realloc(jt->targets, cap * sizeof *p);
                if (!p)
                    goto oom;
                jt->targets = p;
            }
            jt->targets[jt->ntargets++] = t;
            jt->count[j]++;
        }
    }
    free(found);
    free(sorted);
    return 0;
oom:
    free(found);
    free(sorted);
    return -1;
}

void jump_tables_release(struct jump_tables *jt)
{
    free(jt->targets);
    free(jt->first);
    free(jt->count);
    free(jt->read);
    free(jt->exits);
    memset(jt, 0, sizeof *jt);
}

#define LABEL_TABLE_MAX 4096

/* The address a table of addresses holds at ADDR: a position-independent
 * file's relocation, or an executable's stored word (not in code).  1 and
 * *V, or 0. */
static int address_stored_at(struct elf_file *ef, uint64_t addr, uint64_t *v)
{
    if (elf_file_relative_at(ef, addr, v))
        return 1;
    struct elf_section *sec = ef->ehdr.e_type == ET_EXEC ? elf_file_section_at(ef, addr) : NULL;
    uint64_t n;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = sec && !(sec->flags & SHF_EXECINSTR) ? elf_file_section_bytes(ef, sec, &n, err, sizeof err)
                                                               : NULL;
    if (!bytes || addr - sec->addr > n || n - (addr - sec->addr) < 8)
        return 0;
    memcpy(v, bytes + (addr - sec->addr), 8);
    return 1;
}

/* Record instruction index T as an address-taken label (once); -1 when out
 * of memory. */
static int add_label(struct address_taken_labels *lb, size_t t, size_t *cap)
{
    for (size_t k = 0; k < lb->n; k++)
        if (lb->at[k] == t)
            return 0;
    if (lb->n == *cap) {
        size_t n = *cap ? 2 * *cap : 16;
        size_t *p = realloc(lb->at, n * sizeof *p);
        if (!p)
            return -1;
        lb->at = p;
        *cap = n;
    }
    lb->at[lb->n++] = t;
    return 0;
}

/*
 * The labels whose addresses the function takes, as GCC's computed gotos
 * (`&&label`, threaded interpreters: Oniguruma, CPython's sre) do: the
 * instructions of the function a lea of its own names (but the next one:
 * that is the current address), those a table of addresses names that a
 * lea of the function points at (a few entries that name something else
 * are passed over), and the cases of tables read relative to a label of the
 * code (glibc's vfprintf: &&label - &&base).  A computed goto may only
 * reach labels of its own function, so every jump the tables do not explain
 * (its frame still in place) may go to each of them.  Sought once, when the
 * function has such a jump; the count found, or (size_t)-1 when out of
 * memory.
 */
size_t jump_tables_find_labels(struct address_taken_labels *lb, const struct jump_tables *jt,
                               const struct cfg *g, struct elf_file *ef)
{
    const struct function_code *fc = g->code;
    const struct function_range *f = fc->func;
    lb->sought = 1;
    int unexplained = 0;
    for (size_t b = 0; b < g->nblocks && !unexplained; b++) {
        size_t j = g->blocks[b].last;
        unexplained = g->blocks[b].reached && fc->insns[j].flow == IR_FLOW_JUMP_INDIRECT &&
                      !(jt->count && jt->count[j]);
    }
    if (!unexplained || !ef || f->source == FUNC_FROM_PLT)
        return 0;
    size_t cap = 0;
    for (size_t j = 0; jt->read && j < fc->n; j++)
        for (uint32_t k = 0; jt->read[j] == TABLE_OF_LABELS && k < jt->count[j]; k++)
            if (add_label(lb, jt->targets[jt->first[j] + k], &cap) != 0)
                return (size_t)-1;
    /* An immediate is an address only where code is not moved at load
     * time (ET_EXEC): in a PIE or a library it is a number. */
    int fixed = ef->ehdr.e_type == ET_EXEC;
    for (size_t i = 0; i < fc->n; i++) {
        const struct ir_insn *in = &fc->insns[i];
        if (in->aux != IR_AUX_LEA_RIP && !(in->aux == IR_AUX_MOV_IMM && fixed))
            continue;
        if (in->target >= f->lo && in->target < f->hi) {
            /* lea 0(%rip): the current address (sanitizers report it), no label. */
            if (in->target == in->addr + in->len)
                continue;
            size_t t = function_code_insn_at(fc, in->target);
            if (t != (size_t)-1 && t > 0 && add_label(lb, t, &cap) != 0)
                return (size_t)-1;
            continue;
        }
        if (in->aux == IR_AUX_MOV_IMM)
            continue;   /* a number, or an address elsewhere: no table of labels */
        unsigned passed_over = 0;
        for (uint64_t e = 0; e < LABEL_TABLE_MAX; e++) {
            uint64_t v;
            if (!address_stored_at(ef, in->target + 8 * e, &v))
                break;
            size_t t = v > f->lo && v < f->hi ? function_code_insn_at(fc, v) : (size_t)-1;
            if (t == (size_t)-1) {
                if (++passed_over > TABLE_MAX_PASSED_OVER)
                    break;
                continue;
            }
            passed_over = 0;
            if (add_label(lb, t, &cap) != 0)
                return (size_t)-1;
        }
    }
    return lb->n;
}

/*
 * Jump tables the code before their jumps does not explain: from the values
 * the interpreter found in the registers.  A table of offsets whose address
 * is kept in a register across a loop, or copied from another: the
 * registers at the movslq and at the add, where they are constants (an
 * address a lea computed on every path).  A table of addresses whose entry
 * was loaded in other blocks (each jumping to one shared jmp *%r): the
 * jump's register, where it is an entry of one table on every path.
 * Returns how many were appended to KT (grown as needed), or (size_t)-1
 * when out of memory.
 */
size_t jump_tables_from_values(struct known_tables *kt, const struct jump_tables *jt, const struct cfg *g)
{
    const struct function_code *fc = g->code;
    size_t committed = kt->n, added = 0;
    for (size_t b = 0; b < g->nblocks; b++) {
        const struct block *blk = &g->blocks[b];
        size_t j = blk->last;
        const struct ir_insn *jmp = &fc->insns[j];
        if (!blk->reached || jmp->flow != IR_FLOW_JUMP_INDIRECT || (jt->read && jt->read[j]) ||
            find_known(kt->table, committed, j))
            continue;
        struct table_pattern p;
        int pattern = table_pattern_of(fc, j, &p) && p.load >= blk->first &&
                      (p.add == (size_t)-1 || p.add >= blk->first);
        if (!pattern && jmp->aux != IR_AUX_JMP_REG)
            continue;
        struct abstract_state st = blk->in;
        struct abstract_value table = {0}, base = {0};
        for (size_t i = blk->first; i < j; i++) {
            if (pattern && i == p.load) {
                table = st.reg[p.table_reg];
                if (table.kind != AV_CONST && p.other_reg != IR_REG_NONE)
                    table = st.reg[p.other_reg];
            }
            if (pattern && i == p.add)
                base = st.reg[p.base_reg];
            dataflow_transfer(g, i, &st);
        }
        uint64_t bound = 0;
        if (!pattern) {
            /* An entry of a table of addresses, loaded in the block or
             * before it (one jump shared by every dispatch: CPython's
             * interpreter loop). */
            struct abstract_value target = st.reg[jmp->aux_reg[0]];
            if (target.kind != AV_TABLE_ENTRY || target.off <= 0)
                continue;
            table = target;
            base = (struct abstract_value){AV_CONST, 0, 0};
            for (size_t i = j; i-- > blk->first;) {
                const struct ir_insn *in = &fc->insns[i];
                if (!ir_writes_reg(in, jmp->aux_reg[0]))
                    continue;
                if (in->aux == IR_AUX_LOAD_INDEX64 || in->aux == IR_AUX_LOAD_ABS64)
                    bound = table_bound_of(fc, i, in->aux_reg[in->aux == IR_AUX_LOAD_INDEX64 ? 2 : 1]);
                break;
            }
        } else {
            if (p.base_reg == IR_REG_NONE)
                base = table;
            if (table.kind != AV_CONST || base.kind != AV_CONST || table.off <= 0 || base.off <= 0)
                continue;
            bound = load_bound(fc, &p);
        }
        if (kt->n == kt->cap) {
            size_t c = kt->cap ? 2 * kt->cap : 8;
            struct known_table *k = realloc(kt->table, c * sizeof *k);
            if (!k)
                return (size_t)-1;
            kt->table = k;
            kt->cap = c;
        }
        kt->table[kt->n++] = (struct known_table){j, (uint64_t)table.off, (uint64_t)base.off, bound};
        added++;
    }
    return added;
}
