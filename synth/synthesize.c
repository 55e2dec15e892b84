/*
 * synthesize: decode, CFG, fixpoint, emission for one function.
 */
#include "synthesize.h"

#include <stdlib.h>
#include <string.h>

#include "semantics/abi.h"
#include "semantics/lsda.h"

/* How a block got its state (flows of a later kind never change an earlier one's). */
#define SEED_INNER 1    /* a jump from another fragment of the frame */
#define SEED_GUESS 2    /* the unreached-block rules of seed_unreached */

#define PAD_ROUNDS_MAX 64   /* landing-pad rounds (a pad's calls may land in another) */

struct block {
    size_t first, last;          /* instruction indices, inclusive */
    int reached;                 /* (IN is meaningful only once it is set) */
    int seeded;                  /* how it was first reached: 0 from the entry or a landing pad,
                                    SEED_INNER from another fragment, SEED_GUESS by a guess */
    int queued;                  /* on the worklist (each block is there at most once) */
    int pad_calls;               /* has a call that a landing pad catches */
    struct abs_state in;
};

struct function_code {
    struct ir_insn *insns;
    size_t n;
    struct block *blocks;
    size_t nblocks;
    size_t *block_of;            /* instruction index -> block index */
    uint16_t *call_facts;        /* per instruction: for a direct call, the registers the
                                    callee gives back, and SYNTH_NEVER_RETURNS */
    size_t *worklist;
    size_t nwork;
    int seeding;                 /* the kind of flows now: 0, SEED_INNER or SEED_GUESS */
    const struct synth_request *rq;
    int returns;
    uint32_t clobbered;          /* registers some return does not give back (all of them
                                    once the function leaves by a tail call) */
    struct landing_pad *pads;    /* from the function's LSDA */
    size_t npads;
    size_t *table_targets;       /* resolved jump-table targets, as instruction indices */
    size_t *table_first;         /* per instruction: its targets start here (indirect jumps) */
    uint32_t *table_count;       /* per instruction: how many (0: unresolved) */
    uint8_t *table_read;         /* per instruction: a table was found for it and read
                                    (TABLE_OF_LABELS: its entries are relative to a label
                                    of the code, a computed goto's) */
    size_t ntable_targets;
    struct table_exit *table_exits;   /* cases of bounded tables outside the function */
    size_t ntable_exits, table_exits_cap;
    struct leaving *leaving;          /* control leaving the function in this pass's flows */
    size_t nleaving, leaving_cap;
    const struct known_table *known;   /* tables the interpreter's values found (second pass) */
    size_t nknown;
    size_t *labels;              /* address-taken labels (computed gotos), instruction indices */
    size_t nlabels;
    int labels_sought;
};

/* Control leaving the function (see synth_exit_fn), held until the flows
 * are final: a pass the table search discards would hand on states from
 * a graph that was wrong. */
struct leaving {
    uint64_t target;
    int kind;                    /* 0, SYNTH_EXIT_CALL or SYNTH_EXIT_TABLE_CASE */
    struct abs_state state;
};

/* A case of a bounded jump table that leaves the function (for its .cold
 * part): the frame continues there. */
struct table_exit {
    size_t jump;
    uint64_t target;
};

/* A jump table: the indirect jump at index JUMP reads TABLE; entries are
 * 32-bit offsets from BASE, or addresses (BASE 0); BOUND is how many there
 * are when the code bounds the index before (cmp $N,%i; ja default), else 0.
 * Found from the code, or from the values the registers hold at the jump
 * (see tables_from_values). */
struct known_table {
    size_t jump;
    uint64_t table, base, bound;
};

/* A landing pad and the calls whose exceptions land there. */
struct landing_pad {
    uint64_t start, end;         /* call sites [start, end) */
    size_t insn;                 /* index of the landing pad's instruction, (size_t)-1 outside */
    uint64_t target;             /* the landing pad's address */
    int have_state;
    int seeded;                  /* the surest way those calls were reached (see block) */
    struct abs_state state;      /* join of the states after those calls reached so */
};

/* Free what build_blocks and the flows made, keeping the instructions. */
static void cfg_release(struct function_code *fc)
{
    free(fc->pads);
    free(fc->table_targets);
    free(fc->table_first);
    free(fc->table_count);
    free(fc->table_read);
    free(fc->table_exits);
    free(fc->leaving);
    free(fc->blocks);
    free(fc->block_of);
    free(fc->call_facts);
    free(fc->worklist);
    fc->pads = NULL;
    fc->table_targets = fc->table_first = NULL;
    fc->table_count = NULL;
    fc->table_read = NULL;
    fc->table_exits = NULL;
    fc->ntable_exits = fc->table_exits_cap = 0;
    fc->leaving = NULL;
    fc->nleaving = fc->leaving_cap = 0;
    fc->blocks = NULL;
    fc->block_of = fc->worklist = NULL;
    fc->call_facts = NULL;
    fc->npads = fc->ntable_targets = fc->nblocks = fc->nwork = 0;
    fc->returns = 0;
    fc->clobbered = 0;
}

static void function_code_release(struct function_code *fc)
{
    cfg_release(fc);
    free(fc->labels);
    if (!fc->rq->insns && !fc->rq->keep_insns)
        free(fc->insns);
}

/* Index of the instruction starting at ADDR, or (size_t)-1. */
static size_t insn_at(const struct function_code *fc, uint64_t addr)
{
    size_t lo = 0, hi = fc->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fc->insns[mid].addr < addr)
            lo = mid + 1;
        else if (fc->insns[mid].addr > addr)
            hi = mid;
        else
            return mid;
    }
    return (size_t)-1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/*
 * Decode [f->lo, f->hi) linearly, but start an instruction at every address
 * of MUST (sorted): where the sweep would run across one, the bytes up to it
 * become a stop (code reached there overlaps code decoded from elsewhere).
 * Returns 0, or -1 when out of memory.
 */
static int decode_linear(struct x86_decoder *dec, const uint8_t *bytes, uint64_t base,
                         const struct function_range *f, const uint64_t *must, size_t nmust,
                         struct function_code *fc)
{
    size_t cap = (size_t)(f->hi - f->lo) / 3 + 4, m = 0;
    struct ir_insn *insns = malloc(cap * sizeof *insns);
    if (!insns)
        return -1;
    size_t n = 0;
    for (uint64_t addr = f->lo; addr < f->hi;) {
        if (n == cap) {
            cap *= 2;
            struct ir_insn *p = realloc(insns, cap * sizeof *p);
            if (!p) {
                free(insns);
                return -1;
            }
            insns = p;
        }
        while (m < nmust && must[m] <= addr)
            m++;
        struct ir_insn *in = &insns[n++];
        x86_decode(dec, bytes + (addr - base), (size_t)(f->hi - addr), addr, in);
        if (m < nmust && addr + in->len > must[m]) {
            memset(in, 0, sizeof *in);
            in->addr = addr;
            in->len = (uint8_t)(must[m] - addr);
            in->flow = IR_FLOW_STOP;
            in->cmp_a = in->cmp_b = IR_REG_NONE;
        }
        addr += in->len;
    }
    free(fc->insns);
    fc->insns = insns;
    fc->n = n;
    return 0;
}

static int decode_function(struct synth_session *ss, const struct function_range *f,
                           struct function_code *fc, const char **reason)
{
    if (fc->rq->insns) {
        fc->insns = fc->rq->insns;
        fc->n = fc->rq->ninsns;
        return 0;
    }
    struct elf_section *sec = elf_file_section_at(ss->ef, f->lo);
    if (!sec || sec->type == SHT_NOBITS || f->hi - sec->addr > sec->size) {
        *reason = "function lies outside the file's sections";
        return -1;
    }
    uint64_t nbytes;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = elf_file_section_bytes(ss->ef, sec, &nbytes, err, sizeof err);
    if (!bytes || f->hi - sec->addr > nbytes) {
        *reason = "function bytes cannot be read";
        return -1;
    }
    /* Instructions must start where jumps land: entries from other fragments
     * first, then the function's own jump targets, which a plain sweep can
     * miss after bytes it decoded out of step (data, or code jumped into
     * the middle of what the sweep took for one instruction). */
    size_t nmust = 0, cap = fc->rq->nmore_entries + 16;
    uint64_t *must = malloc(cap * sizeof *must);
    if (!must) {
        *reason = "out of memory";
        return -1;
    }
    for (size_t k = 0; k < fc->rq->nmore_entries; k++)
        if (fc->rq->more_entries[k].addr > f->lo && fc->rq->more_entries[k].addr < f->hi)
            must[nmust++] = fc->rq->more_entries[k].addr;
    int rc = 0;
    for (int round = 0; round < 3 && rc == 0; round++) {
        qsort(must, nmust, sizeof *must, cmp_u64);
        if (decode_linear(ss->decoder, bytes, sec->addr, f, must, nmust, fc) != 0) {
            rc = -1;
            break;
        }
        size_t before = nmust;
        for (size_t i = 0; i < fc->n; i++) {
            const struct ir_insn *in = &fc->insns[i];
            if ((in->flow != IR_FLOW_JUMP && in->flow != IR_FLOW_COND) || in->target <= f->lo ||
                in->target >= f->hi || insn_at(fc, in->target) != (size_t)-1)
                continue;
            if (nmust == cap) {
                cap *= 2;
                uint64_t *p = realloc(must, cap * sizeof *p);
                if (!p) {
                    rc = -1;
                    break;
                }
                must = p;
            }
            must[nmust++] = in->target;
        }
        if (nmust == before)
            break;
    }
    free(must);
    if (rc != 0)
        *reason = "out of memory";
    return rc;
}

static int is_call(const struct ir_insn *in)
{
    return in->flow == IR_FLOW_CALL || in->flow == IR_FLOW_CALL_INDIRECT;
}

/* The caller-saved registers that the call at instruction I leaves alone. */
static uint32_t registers_given_back(const struct function_code *fc, size_t i)
{
    return fc->call_facts[i] & ~SYNTH_NEVER_RETURNS;
}

static int ends_block(const struct function_code *fc, size_t i)
{
    switch (fc->insns[i].flow) {
    case IR_FLOW_JUMP: case IR_FLOW_COND: case IR_FLOW_RET: case IR_FLOW_STOP:
    case IR_FLOW_JUMP_INDIRECT: case IR_FLOW_INVALID:
        return 1;
    default:
        return (fc->call_facts[i] & SYNTH_NEVER_RETURNS) != 0;
    }
}

struct pad_collector {
    struct function_code *fc;
    const struct function_range *f;
    size_t cap;
    int oom;
};

static int collect_pad(void *arg, const struct lsda_call_site *site)
{
    struct pad_collector *pc = arg;
    struct function_code *fc = pc->fc;
    if (!site->landing_pad)
        return 0;
    /* A pad outside the function (in its .cold part) is another fragment's
     * entry: its state is handed on through the exits callback. */
    int inside = site->landing_pad >= pc->f->lo && site->landing_pad < pc->f->hi;
    size_t at = inside ? insn_at(fc, site->landing_pad) : (size_t)-1;
    if (inside && at == (size_t)-1)
        return 0;
    if (fc->npads == pc->cap) {
        size_t ncap = pc->cap ? pc->cap * 2 : 8;
        struct landing_pad *p = realloc(fc->pads, ncap * sizeof *p);
        if (!p) {
            pc->oom = 1;
            return 1;
        }
        fc->pads = p;
        pc->cap = ncap;
    }
    struct landing_pad *pad = &fc->pads[fc->npads++];
    memset(pad, 0, sizeof *pad);
    pad->start = site->start;
    pad->end = site->start + site->len;
    pad->insn = at;
    pad->target = site->landing_pad;
    return 0;
}

/* Landing pads from the function's entry in .gcc_except_table.  A missing or
 * malformed table only loses them (the unreached-block rule still applies). */
static int find_landing_pads(struct synth_session *ss, struct function_code *fc)
{
    const struct function_range *f = fc->rq->func;
    if (!f->lsda || !ss->ef)
        return 0;
    struct elf_section *sec = elf_file_section_at(ss->ef, f->lsda);
    uint64_t n;
    char err[ELF_FILE_ERRLEN];
    const uint8_t *bytes = sec ? elf_file_section_bytes(ss->ef, sec, &n, err, sizeof err) : NULL;
    if (!bytes)
        return 0;
    struct pad_collector pc = {fc, f, 0, 0};
    const char *error;
    lsda_parse(bytes, n, sec->addr, f->lsda, f->lo, collect_pad, &pc, &error);
    return pc.oom ? -1 : 0;
}

#define JUMP_TABLE_MAX 65536
#define TABLE_OF_LABELS 2
#define TABLE_MAX_PASSED_OVER 4
#define MAX_TABLE_PASSES 3

/* Whether IN writes register R. */
static int writes_reg(const struct ir_insn *in, uint8_t r)
{
    for (unsigned e = 0; e < in->neffects; e++)
        if (in->effects[e].kind != IR_STORE && in->effects[e].dst == r)
            return 1;
    return 0;
}

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

static const struct known_table *known_table_of(const struct function_code *fc, size_t j)
{
    return find_known(fc->known, fc->nknown, j);
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
            if (p->base_reg == p->table_reg) {
                p->base_reg = IR_REG_NONE;
                p->add = (size_t)-1;
            }
            continue;
        }
        for (int which = 0; which < 3; which++) {
            uint8_t r = which == 0 ? p->table_reg : which == 1 ? p->base_reg : p->other_reg;
            uint64_t *at = which == 0 ? &p->table_at : which == 1 ? &p->base_at : &p->other_at;
            if (r == IR_REG_NONE || *at == (uint64_t)-1 || *at || !writes_reg(in, r))
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
                   !writes_reg(&fc->insns[c], load->aux_reg[1]))
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
            if (writes_reg(in, load->aux_reg[1]))
                return 0;
        } else if (in->aux == IR_AUX_WIDEN_SELF && in->aux_reg[0] == i) {
            used = in->aux_reg[1];
        } else if (writes_reg(in, i)) {
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
        if (!writes_reg(in, p->other_reg))
            continue;
        return in->aux == IR_AUX_LEA_SCALED4 && in->aux_reg[0] == p->other_reg
                   ? table_bound_of(fc, k, in->aux_reg[1]) : 0;
    }
    return 0;
}

/* The table the indirect jump at index J reads, in *T (see struct
 * known_table); 1, or 0 when none is found. */
static int jump_table_of(const struct function_code *fc, size_t j, struct known_table *t)
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
        if (!writes_reg(&fc->insns[k], jmp->aux_reg[0]))
            continue;
        if (fc->insns[k].aux != IR_AUX_LOAD_ABS64 || fc->insns[k].aux_reg[0] != jmp->aux_reg[0])
            break;
        t->table = fc->insns[k].target;
        t->bound = table_bound_of(fc, k, fc->insns[k].aux_reg[1]);
        return 1;
    }
    const struct known_table *known = known_table_of(fc, j);
    if (known) {
        *t = *known;
        return 1;
    }
    struct table_pattern p;
    if (!table_pattern_of(fc, j, &p))
        return 0;
    /* Registers set before the block (a table kept in a register across a
     * loop) are left to tables_from_values. */
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
static int add_table_exit(struct function_code *fc, size_t j, uint64_t target)
{
    for (size_t k = fc->ntable_exits; k-- > 0 && fc->table_exits[k].jump == j;)
        if (fc->table_exits[k].target == target)
            return 0;   /* the many cases that share a .cold default */
    if (fc->ntable_exits == fc->table_exits_cap) {
        size_t cap = fc->table_exits_cap ? 2 * fc->table_exits_cap : 8;
        struct table_exit *p = realloc(fc->table_exits, cap * sizeof *p);
        if (!p)
            return -1;
        fc->table_exits = p;
        fc->table_exits_cap = cap;
    }
    fc->table_exits[fc->ntable_exits++] = (struct table_exit){j, target};
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
static int resolve_jump_tables(struct synth_session *ss, struct function_code *fc)
{
    if (!ss->ef)
        return 0;
    const struct function_range *f = fc->rq->func;
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
        if (fc->insns[j].flow == IR_FLOW_JUMP_INDIRECT && jump_table_of(fc, j, &found[nfound])) {
            sorted[nfound] = found[nfound].table;
            nfound++;
        }
    qsort(sorted, nfound, sizeof *sorted, by_address);
    for (size_t k = 0; k < nfound; k++) {
        size_t j = found[k].jump;
        uint64_t table = found[k].table, base = found[k].base;
        int rel32 = base != 0;
        struct elf_section *sec = elf_file_section_at(ss->ef, table);
        uint64_t n;
        char err[ELF_FILE_ERRLEN];
        const uint8_t *bytes = sec ? elf_file_section_bytes(ss->ef, sec, &n, err, sizeof err) : NULL;
        if (!bytes)
            continue;
        if (!fc->table_first) {
            fc->table_first = calloc(fc->n, sizeof *fc->table_first);
            fc->table_count = calloc(fc->n, sizeof *fc->table_count);
            fc->table_read = calloc(fc->n, 1);
            if (!fc->table_first || !fc->table_count || !fc->table_read)
                goto oom;
        }
        fc->table_first[j] = fc->ntable_targets;
        fc->table_read[j] = rel32 && base != table && base >= f->lo && base < f->hi ? TABLE_OF_LABELS : 1;
        unsigned size = rel32 ? 4 : 8, passed_over = 0;
        uint64_t bound = found[k].bound;
        /* The cases outside the function: its .cold part, one range. */
        size_t exits_from = fc->ntable_exits, cold = (size_t)-1;
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
            if (!rel32 && elf_file_relative_at(ss->ef, table + e * size, &relocated))
                v = relocated;
            uint64_t target = rel32 ? base + (uint64_t)(int64_t)(int32_t)v : v;
            size_t t = target >= f->lo && target < f->hi ? insn_at(fc, target) : (size_t)-1;
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
                if ((target < f->lo || target > f->hi) && in_code_section(ss->ef, target)) {
                    size_t range = ss->index ? function_index_at(ss->index, target) : (size_t)-1;
                    if (fc->ntable_exits == exits_from) {
                        cold = range;
                        before_exits = fc->table_count[j];
                    } else if (range != cold) {
                        /* Cases in two other functions: the compare bounds
                         * something else (LLVM knows ranges it does not
                         * show), and the table ended before its first
                         * case outside. */
                        fc->ntable_exits = exits_from;
                        fc->ntable_targets -= fc->table_count[j] - before_exits;
                        fc->table_count[j] = before_exits;
                        break;
                    }
                    if (add_table_exit(fc, j, target) != 0)
                        goto oom;
                }
                continue;
            }
            if (target == f->hi)
                continue;
            if (!rel32 && (target < f->lo || target >= f->hi) && (v == 0 || in_code_section(ss->ef, target))) {
                if (++passed_over > TABLE_MAX_PASSED_OVER)
                    break;
                continue;
            }
            if (!usable)
                break;
            passed_over = 0;
            if (fc->ntable_targets == cap) {
                cap = cap ? cap * 2 : 64;
                size_t *p = realloc(fc->table_targets, cap * sizeof *p);
                if (!p)
                    goto oom;
                fc->table_targets = p;
            }
            fc->table_targets[fc->ntable_targets++] = t;
            fc->table_count[j]++;
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
static int add_label(struct function_code *fc, size_t t, size_t *cap)
{
    for (size_t k = 0; k < fc->nlabels; k++)
        if (fc->labels[k] == t)
            return 0;
    if (fc->nlabels == *cap) {
        size_t n = *cap ? 2 * *cap : 16;
        size_t *p = realloc(fc->labels, n * sizeof *p);
        if (!p)
            return -1;
        fc->labels = p;
        *cap = n;
    }
    fc->labels[fc->nlabels++] = t;
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
static size_t find_address_taken_labels(struct synth_session *ss, struct function_code *fc)
{
    const struct function_range *f = fc->rq->func;
    fc->labels_sought = 1;
    int unexplained = 0;
    for (size_t b = 0; b < fc->nblocks && !unexplained; b++) {
        size_t j = fc->blocks[b].last;
        unexplained = fc->blocks[b].reached && fc->insns[j].flow == IR_FLOW_JUMP_INDIRECT &&
                      !(fc->table_count && fc->table_count[j]);
    }
    if (!unexplained || !ss->ef || f->source == FUNC_FROM_PLT)
        return 0;
    size_t cap = 0;
    for (size_t j = 0; fc->table_read && j < fc->n; j++)
        for (uint32_t k = 0; fc->table_read[j] == TABLE_OF_LABELS && k < fc->table_count[j]; k++)
            if (add_label(fc, fc->table_targets[fc->table_first[j] + k], &cap) != 0)
                return (size_t)-1;
    for (size_t i = 0; i < fc->n; i++) {
        const struct ir_insn *in = &fc->insns[i];
        if (in->aux != IR_AUX_LEA_RIP)
            continue;
        if (in->target >= f->lo && in->target < f->hi) {
            /* lea 0(%rip): the current address (sanitizers report it), no label. */
            if (in->target == in->addr + in->len)
                continue;
            size_t t = insn_at(fc, in->target);
            if (t != (size_t)-1 && t > 0 && add_label(fc, t, &cap) != 0)
                return (size_t)-1;
            continue;
        }
        unsigned passed_over = 0;
        for (uint64_t e = 0; e < LABEL_TABLE_MAX; e++) {
            uint64_t v;
            if (!address_stored_at(ss->ef, in->target + 8 * e, &v))
                break;
            size_t t = v > f->lo && v < f->hi ? insn_at(fc, v) : (size_t)-1;
            if (t == (size_t)-1) {
                if (++passed_over > TABLE_MAX_PASSED_OVER)
                    break;
                continue;
            }
            passed_over = 0;
            if (add_label(fc, t, &cap) != 0)
                return (size_t)-1;
        }
    }
    return fc->nlabels;
}

/*
 * Jump tables the code before their jumps does not explain: from the values
 * the interpreter found in the registers.  A table of offsets whose address
 * is kept in a register across a loop, or copied from another: the
 * registers at the movslq and at the add, where they are constants (an
 * address a lea computed on every path).  A table of addresses whose entry
 * was loaded in other blocks (each jumping to one shared jmp *%r): the
 * jump's register, where it is an entry of one table on every path.
 * Returns how many were added to *KNOWN after FC's (grown as needed), or
 * (size_t)-1 when out of memory.
 */
static size_t tables_from_values(const struct function_code *fc, struct known_table **known, size_t *cap)
{
    size_t n = fc->nknown, added = 0;
    for (size_t b = 0; b < fc->nblocks; b++) {
        const struct block *blk = &fc->blocks[b];
        size_t j = blk->last;
        const struct ir_insn *jmp = &fc->insns[j];
        /* *KNOWN, not FC->known: growing it below may have moved it. */
        if (!blk->reached || jmp->flow != IR_FLOW_JUMP_INDIRECT || (fc->table_read && fc->table_read[j]) ||
            find_known(*known, fc->nknown, j))
            continue;
        struct table_pattern p;
        int pattern = table_pattern_of(fc, j, &p) && p.load >= blk->first &&
                      (p.add == (size_t)-1 || p.add >= blk->first);
        if (!pattern && jmp->aux != IR_AUX_JMP_REG)
            continue;
        struct abs_state st = blk->in;
        struct absval table = {0}, base = {0};
        for (size_t i = blk->first; i < j; i++) {
            if (pattern && i == p.load) {
                table = st.reg[p.table_reg];
                if (table.kind != AV_CONST && p.other_reg != IR_REG_NONE)
                    table = st.reg[p.other_reg];
            }
            if (pattern && i == p.add)
                base = st.reg[p.base_reg];
            abs_state_step(&st, &fc->insns[i]);
            if (is_call(&fc->insns[i]))
                abs_state_after_call(&st, registers_given_back(fc, i));
        }
        uint64_t bound = 0;
        if (!pattern) {
            /* An entry of a table of addresses, loaded in the block or
             * before it (one jump shared by every dispatch: CPython's
             * interpreter loop). */
            struct absval target = st.reg[jmp->aux_reg[0]];
            if (target.kind != AV_TABLE_ENTRY || target.off <= 0)
                continue;
            table = target;
            base = (struct absval){AV_CONST, 0, 0};
            for (size_t i = j; i-- > blk->first;) {
                const struct ir_insn *in = &fc->insns[i];
                if (!writes_reg(in, jmp->aux_reg[0]))
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
        if (n == *cap) {
            size_t c = *cap ? 2 * *cap : 8;
            struct known_table *k = realloc(*known, c * sizeof *k);
            if (!k)
                return (size_t)-1;
            *known = k;
            *cap = c;
        }
        (*known)[n++] = (struct known_table){j, (uint64_t)table.off, (uint64_t)base.off, bound};
        added++;
    }
    return added;
}

static int build_blocks(struct synth_session *ss, struct function_code *fc, const char **reason)
{
    if (find_landing_pads(ss, fc) != 0 || resolve_jump_tables(ss, fc) != 0) {
        *reason = "out of memory";
        return -1;
    }
    uint8_t *leader = calloc(fc->n + 1, 1);
    fc->call_facts = calloc(fc->n + 1, sizeof *fc->call_facts);
    fc->block_of = malloc((fc->n + 1) * sizeof *fc->block_of);
    if (!leader || !fc->call_facts || !fc->block_of) {
        free(leader);
        *reason = "out of memory";
        return -1;
    }
    leader[0] = 1;
    for (size_t k = 0; k < fc->npads; k++)
        if (fc->pads[k].insn != (size_t)-1)
            leader[fc->pads[k].insn] = 1;
    for (size_t k = 0; k < fc->ntable_targets; k++)
        leader[fc->table_targets[k]] = 1;
    for (size_t k = 0; k < fc->nlabels; k++)
        leader[fc->labels[k]] = 1;
    for (size_t k = 0; k < fc->rq->nmore_entries; k++) {
        size_t at = insn_at(fc, fc->rq->more_entries[k].addr);
        if (at != (size_t)-1)
            leader[at] = 1;
    }
    for (size_t i = 0; i < fc->n; i++) {
        const struct ir_insn *in = &fc->insns[i];
        if (in->flow == IR_FLOW_CALL) {
            uint32_t facts = ss->callee_at ? ss->callee_at(ss->callee_arg, in->target) : 0;
            if (function_index_noreturn_at(ss->index, in->target))
                facts |= SYNTH_NEVER_RETURNS;
            fc->call_facts[i] = (uint16_t)facts;
        }
        if (in->flow == IR_FLOW_JUMP || in->flow == IR_FLOW_COND) {
            size_t t = insn_at(fc, in->target);
            if (t != (size_t)-1)
                leader[t] = 1;
        }
        if (ends_block(fc, i) && i + 1 < fc->n)
            leader[i + 1] = 1;
    }
    size_t nblocks = 0;
    for (size_t i = 0; i < fc->n; i++)
        nblocks += leader[i];
    /* Not zeroed: a block's entry state is written when it is first
     * reached, and read only after. */
    fc->blocks = malloc(nblocks * sizeof *fc->blocks);
    fc->worklist = malloc((nblocks + 1) * sizeof *fc->worklist);
    if (!fc->blocks || !fc->worklist) {
        free(leader);
        *reason = "out of memory";
        return -1;
    }
    size_t b = (size_t)-1;
    for (size_t i = 0; i < fc->n; i++) {
        if (leader[i]) {
            b++;
            fc->blocks[b].first = i;
            fc->blocks[b].reached = fc->blocks[b].seeded = fc->blocks[b].queued = fc->blocks[b].pad_calls = 0;
        }
        fc->blocks[b].last = i;
        fc->block_of[i] = b;
        for (size_t p = 0; p < fc->npads && is_call(&fc->insns[i]) && !fc->blocks[b].pad_calls; p++)
            fc->blocks[b].pad_calls = fc->insns[i].addr >= fc->pads[p].start && fc->insns[i].addr < fc->pads[p].end;
    }
    fc->nblocks = nblocks;
    free(leader);
    return 0;
}

/* Control leaves the function for TARGET (KIND: see synth_exit_fn) with state
 * ST: held for rq->exits (when memory runs out, handed on at once). */
static void leave(struct function_code *fc, uint64_t target, int kind, const struct abs_state *st)
{
    if (!fc->rq->exits)
        return;
    if (fc->nleaving == fc->leaving_cap) {
        size_t cap = fc->leaving_cap ? 2 * fc->leaving_cap : 16;
        struct leaving *p = realloc(fc->leaving, cap * sizeof *p);
        if (!p) {
            fc->rq->exits(fc->rq->exits_arg, target, kind, st);
            return;
        }
        fc->leaving = p;
        fc->leaving_cap = cap;
    }
    fc->leaving[fc->nleaving++] = (struct leaving){target, kind, *st};
}

/* The frame is gone (rsp at the return address, as for a tail call), or
 * where rsp is is not known. */
static int frame_popped(const struct abs_state *st)
{
    return st->reg[ABI_RSP].kind != AV_CFA || st->reg[ABI_RSP].off >= -8;
}

/* Flow into block B with state ST; queue B when its entry state changed.
 * Returns whether it changed. */
static int flow_into(struct function_code *fc, size_t b, const struct abs_state *st)
{
    struct block *blk = &fc->blocks[b];
    int changed;
    /* A guess never changes what surer paths established, and they replace
     * what it gave. */
    if (fc->seeding && blk->reached && blk->seeded < fc->seeding)
        return 0;
    if (!blk->reached || fc->seeding < blk->seeded) {
        abs_state_copy(&blk->in, st);
        blk->reached = 1;
        blk->seeded = fc->seeding;
        changed = 1;
    } else {
        changed = abs_state_join(&blk->in, st);
    }
    if (changed && !blk->queued) {
        blk->queued = 1;
        fc->worklist[fc->nwork++] = b;
    }
    return changed;
}

/* Run block B from its entry state; OBSERVE sees each instruction's state.
 * Returns the state after its last instruction in *OUT. */
/* Run block B from its entry state: OBSERVE (may be NULL) sees each
 * instruction's state; the state after the block is left in *OUT, and, when
 * AFTER_CALL is not NULL and the block has a call, the state after its last
 * call in *AFTER_CALL (with *HAVE_CALL set). */
static void run_block(const struct function_code *fc, size_t b, struct abs_state *out,
                      synth_insn_fn observe, void *arg, struct abs_state *after_call, int *have_call)
{
    const struct block *blk = &fc->blocks[b];
    abs_state_copy(out, &blk->in);
    for (size_t i = blk->first; i <= blk->last; i++) {
        const struct ir_insn *in = &fc->insns[i];
        if (observe)
            observe(arg, in, out, 1);
        abs_state_step(out, in);
        if (is_call(in)) {
            abs_state_after_call(out, registers_given_back(fc, i));
            if (after_call) {
                abs_state_copy(after_call, out);
                *have_call = 1;
            }
        }
    }
}

/*
 * The state where the registers CMP compared are equal.  Returns 1 with *EQ
 * refined (what is known of one is known of the other), -1 when they cannot
 * be equal (same symbolic base, different offsets: that edge is never taken
 * in this state), 0 when the comparison tells nothing.
 */
static int equal_edge_state(const struct ir_insn *cmp, const struct abs_state *st,
                            struct abs_state *eq)
{
    uint8_t a = cmp->cmp_a, b = cmp->cmp_b;
    if (a >= STATE_GPRS || b >= STATE_GPRS)
        return 0;
    struct absval va = st->reg[a], vb = st->reg[b];
    if (va.kind != AV_UNKNOWN && vb.kind != AV_UNKNOWN)   /* entries of one table may be equal */
        return va.kind == vb.kind && va.kind != AV_TABLE_ENTRY && va.reg == vb.reg && va.off != vb.off ? -1 : 0;
    if (va.kind == AV_UNKNOWN && vb.kind == AV_UNKNOWN)
        return 0;
    *eq = *st;
    if (va.kind == AV_UNKNOWN)
        eq->reg[a] = vb;
    else
        eq->reg[b] = va;
    return 1;
}

/* Whether a call is reachable.  Only a leaf's returns are trusted to give
 * registers back: across a call, a register kept in the frame may be
 * written through a pointer to it, which the states do not follow. */
static int reaches_a_call(const struct function_code *fc)
{
    for (size_t b = 0; b < fc->nblocks; b++)
        for (size_t i = fc->blocks[b].first; fc->blocks[b].reached && i <= fc->blocks[b].last; i++)
            if (is_call(&fc->insns[i]))
                return 1;
    return 0;
}

/* The registers (bit R) that hold their own entry value in ST. */
static uint32_t registers_as_entered(const struct abs_state *st)
{
    uint32_t m = 0;
    for (unsigned r = 0; r < STATE_GPRS; r++)
        if (st->reg[r].kind == AV_ENTRY && st->reg[r].reg == r && st->reg[r].off == 0)
            m |= 1u << r;
    return m;
}

static void fixpoint(struct function_code *fc)
{
    struct abs_state out;
    int phase = fc->seeding;
    while (fc->nwork > 0) {
        size_t b = fc->worklist[--fc->nwork];
        fc->blocks[b].queued = 0;
        /* What a block hands on is no surer than how it was reached. */
        fc->seeding = fc->blocks[b].seeded > phase ? fc->blocks[b].seeded : phase;
        run_block(fc, b, &out, NULL, NULL, NULL, NULL);
        size_t last = fc->blocks[b].last;
        const struct ir_insn *in = &fc->insns[last];
        int falls = 0;
        /* On the edge where a `cmp %a,%b` found them equal, what is known of
         * one is known of the other. */
        struct abs_state equal;
        const struct abs_state *taken = &out, *fallthrough = &out;
        int refined = 0;
        if (in->flow == IR_FLOW_COND && in->cond && last > fc->blocks[b].first)
            refined = equal_edge_state(&fc->insns[last - 1], &out, &equal);
        if (refined) {
            const struct abs_state *eq_state = refined > 0 ? &equal : NULL;
            if (in->cond == IR_COND_EQ)
                taken = eq_state;
            else
                fallthrough = eq_state;
        }
        switch (in->flow) {
        case IR_FLOW_NEXT: case IR_FLOW_CALL: case IR_FLOW_CALL_INDIRECT:
            falls = !(fc->call_facts[last] & SYNTH_NEVER_RETURNS);
            break;
        case IR_FLOW_COND:
            falls = 1;
            /* fall through */
        case IR_FLOW_JUMP: {
            size_t t = insn_at(fc, in->target);
            if (t != (size_t)-1) {
                if (taken)
                    flow_into(fc, fc->block_of[t], taken);
            } else if (in->target < fc->rq->func->lo || in->target >= fc->rq->func->hi) {
                /* A tail call, or a jump to another fragment of this function
                 * (GCC's .cold parts): either continues this frame. */
                fc->returns = 1;
                fc->clobbered = ~0u;
                leave(fc, in->target, 0, &out);
            }
            break;
        }
        case IR_FLOW_JUMP_INDIRECT:
            for (size_t k = 0; k < fc->ntable_exits; k++)
                if (fc->table_exits[k].jump == last)
                    leave(fc, fc->table_exits[k].target, SYNTH_EXIT_TABLE_CASE, &out);
            if (fc->table_count && fc->table_count[last]) {
                for (uint32_t k = 0; k < fc->table_count[last]; k++)
                    flow_into(fc, fc->block_of[fc->table_targets[fc->table_first[last] + k]], &out);
                break;
            }
            /* Unresolved: a computed goto to any of the function's
             * address-taken labels, or an indirect tail call (the frame
             * popped: its state goes to no label, which may be a handler
             * or a return address other code resumes at). */
            for (size_t k = 0; k < fc->nlabels && !frame_popped(&out); k++)
                flow_into(fc, fc->block_of[fc->labels[k]], &out);
            fc->returns = 1;
            fc->clobbered = ~0u;
            /* A lazy-binding PLT stub (jmp *GOT; push $n; jmp PLT0): until
             * the symbol is bound, its GOT entry holds the address just
             * after this jump.  (Padding follows the others.) */
            if (fc->rq->func->source == FUNC_FROM_PLT && last + 1 < fc->n && !fc->insns[last + 1].is_padding)
                flow_into(fc, fc->block_of[last + 1], &out);
            break;
        case IR_FLOW_RET:
            fc->returns = 1;
            fc->clobbered |= ~registers_as_entered(&out);
            break;
        default:
            break;
        }
        if (in->flow == IR_FLOW_CALL)
            leave(fc, in->target, SYNTH_EXIT_CALL, &out);
        if (falls && fallthrough && last + 1 < fc->n)
            flow_into(fc, fc->block_of[last + 1], fallthrough);
    }
    fc->seeding = phase;
}

static int is_padding_block(const struct function_code *fc, size_t b)
{
    for (size_t i = fc->blocks[b].first; i <= fc->blocks[b].last; i++)
        if (!fc->insns[i].is_padding)
            return 0;
    return 1;
}

/* A block of traps only (ud2, hlt, padding) right after a call: what
 * compilers put after a call that does not return.  No guess is made for
 * it: nothing runs there. */
static int is_trap_after_call(const struct function_code *fc, size_t b)
{
    if (b == 0 || !is_call(&fc->insns[fc->blocks[b - 1].last]))
        return 0;
    for (size_t i = fc->blocks[b].first; i <= fc->blocks[b].last; i++)
        if (!fc->insns[i].is_padding && fc->insns[i].flow != IR_FLOW_STOP)
            return 0;
    return 1;
}

/* Landing pads start in the state after their call sites (the unwinder
 * resumes there with the frame as the call left it).  Returns how many pads'
 * states changed (another round is needed only then). */
static size_t flow_to_landing_pads(struct function_code *fc)
{
    if (!fc->npads)
        return 0;
    for (size_t p = 0; p < fc->npads; p++)
        fc->pads[p].have_state = 0;
    for (size_t b = 0; b < fc->nblocks; b++) {
        const struct block *blk = &fc->blocks[b];
        if (!blk->reached || !blk->pad_calls)
            continue;
        struct abs_state st = blk->in;
        for (size_t i = blk->first; i <= blk->last; i++) {
            const struct ir_insn *in = &fc->insns[i];
            abs_state_step(&st, in);
            if (!is_call(in))
                continue;
            abs_state_after_call(&st, registers_given_back(fc, i));
            for (size_t p = 0; p < fc->npads; p++) {
                struct landing_pad *pad = &fc->pads[p];
                if (in->addr < pad->start || in->addr >= pad->end)
                    continue;
                if (!pad->have_state || blk->seeded < pad->seeded) {
                    pad->state = st;
                    pad->seeded = blk->seeded;
                } else if (blk->seeded == pad->seeded) {
                    abs_state_join(&pad->state, &st);
                }
                pad->have_state = 1;
            }
        }
    }
    size_t n = 0;
    int phase = fc->seeding;
    for (size_t p = 0; p < fc->npads; p++) {
        const struct landing_pad *pad = &fc->pads[p];
        if (!pad->have_state)
            continue;
        if (pad->insn == (size_t)-1) {
            leave(fc, pad->target, 0, &pad->state);
            continue;
        }
        fc->seeding = pad->seeded > phase ? pad->seeded : phase;
        n += flow_into(fc, fc->block_of[pad->insn], &pad->state);
    }
    fc->seeding = phase;
    return n;
}

/*
 * Blocks nothing reached: a jump-table target takes the state of the indirect
 * jumps of the function; a landing pad (reached by the unwinder from a call
 * site) takes the state after the nearest call before it; failing both, the
 * state at the end of the block before.  These are guesses (SEED_GUESS).
 */
static size_t seed_unreached(struct function_code *fc)
{
    struct abs_state indirect, out, after_call;
    int have_indirect = 0, have_call = 0;
    size_t seeded = 0;
    /* Jump tables may sit before or after their targets: join every
     * indirect jump's state first. */
    for (size_t b = 0; b < fc->nblocks; b++) {
        if (!fc->blocks[b].reached || fc->insns[fc->blocks[b].last].flow != IR_FLOW_JUMP_INDIRECT)
            continue;
        int unused = 0;
        run_block(fc, b, &out, NULL, NULL, &after_call, &unused);
        if (!have_indirect)
            indirect = out;
        else
            abs_state_join(&indirect, &out);
        have_indirect = 1;
    }
    have_call = 0;
    for (size_t b = 0; b < fc->nblocks; b++) {
        struct block *blk = &fc->blocks[b];
        if (blk->reached) {
            if (!have_indirect)
                run_block(fc, b, &out, NULL, NULL, &after_call, &have_call);
            continue;
        }
        if (is_padding_block(fc, b) || is_trap_after_call(fc, b))
            continue;
        if (have_indirect) {
            flow_into(fc, b, &indirect);
        } else if (have_call) {
            flow_into(fc, b, &after_call);
        } else if (b > 0 && fc->blocks[b - 1].reached) {
            /* Nothing better: carry on the state before it, as CFI does. */
            run_block(fc, b - 1, &out, NULL, NULL, &after_call, &have_call);
            have_call = 0;
            flow_into(fc, b, &out);
        } else {
            continue;
        }
        seeded++;
    }
    return seeded;
}

/* Expression bytes of the last row built (see synthesize.h). */
#define SYNTH_EXPR_MAX 24
static uint8_t row_exprs[UNWIND_COLUMNS + 1][SYNTH_EXPR_MAX];

static size_t put_sleb(uint8_t *p, int64_t v)
{
    size_t n = 0;
    for (;;) {
        uint8_t b = v & 0x7f;
        v >>= 7;
        int done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
        p[n++] = done ? b : (uint8_t)(b | 0x80);
        if (done)
            return n;
    }
}

/* A register that addresses the realigned frame: rbp (as GCC describes it),
 * else rsp.  Returns its number and ALIGNED-offset, or -1. */
static int aligned_anchor(const struct abs_state *st, int64_t *k)
{
    static const unsigned prefer[] = {ABI_RBP, ABI_RSP};
    for (unsigned i = 0; i < 2; i++)
        if (st->reg[prefer[i]].kind == AV_ALIGNED) {
            *k = st->reg[prefer[i]].off;
            return (int)prefer[i];
        }
    return -1;
}

/* DW_OP_breg<reg> <off> [DW_OP_deref [DW_OP_plus_uconst <plus>]] into BUF. */
static uint32_t breg_expr(uint8_t *buf, int reg, int64_t off, int deref, int64_t plus)
{
    size_t n = 0;
    buf[n++] = (uint8_t)(0x70 + reg);   /* DW_OP_breg0 + reg */
    n += put_sleb(buf + n, off);
    if (deref) {
        buf[n++] = 0x06;                /* DW_OP_deref */
        if (plus > 0) {
            buf[n++] = 0x23;            /* DW_OP_plus_uconst */
            n += put_sleb(buf + n, plus) ;   /* small positive: same bytes as ULEB */
        }
    }
    return (uint32_t)n;
}

/* The CFA by a slot of the realigned frame that holds CFA + c (GCC's DRAP
 * save): DW_OP_breg<anchor> <off>; DW_OP_deref.  LIVE_ONLY: a slot still on
 * the stack (at or above rsp, when rsp is known), not one already popped.
 * Returns 1 when ROW's CFA was set. */
static int drap_slot_cfa(const struct abs_state *st, int anchor, int64_t k, int live_only,
                         struct unwind_row *row)
{
    const struct absval rsp = st->reg[ABI_RSP];
    for (unsigned i = 0; anchor >= 0 && i < st->nslots; i++) {
        const struct stack_slot *s = &st->slot[i];
        if (s->base != AV_ALIGNED || s->value.kind != AV_CFA || s->value.off > 0)
            continue;
        if (live_only && rsp.kind == AV_ALIGNED && s->off < rsp.off)
            continue;
        uint8_t *buf = row_exprs[UNWIND_COLUMNS];
        row->cfa.kind = CFA_RULE_EXPRESSION;
        row->cfa.expr = buf;
        row->cfa.expr_len = breg_expr(buf, anchor, s->off - k, 1, -s->value.off);
        return 1;   /* the lowest such slot */
    }
    return 0;
}

void synth_row_from_state(const struct abs_state *st, struct unwind_row *row)
{
    memset(&row->cfa, 0, sizeof row->cfa);
    memset(row->reg, 0, sizeof row->reg);
    const struct absval rsp = st->reg[ABI_RSP], rbp = st->reg[ABI_RBP];
    int64_t k = 0;
    int anchor = aligned_anchor(st, &k);
    if (st->frame_pointer && rbp.kind == AV_CFA) {
        row->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RBP, .offset = -rbp.off};
    } else if (rsp.kind == AV_CFA) {
        row->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = ABI_RSP, .offset = -rsp.off};
    } else {
        /* GCC's DRAP save while it is on the stack: from the push of the
         * DRAP register to its pop, GCC describes the CFA by that slot, not
         * by the register.  Only the slot survives a call: an unwinder
         * evaluates a call site's row with the callee's registers, where a
         * caller-saved register such as r10 holds garbage. */
        row->cfa.kind = CFA_RULE_UNKNOWN;
        if (!drap_slot_cfa(st, anchor, k, 1, row)) {
            /* Any register holding CFA + k: rbp without the prologue idiom,
             * or a DRAP register such as r10 around a realignment. */
            for (unsigned r = 0; r < STATE_GPRS; r++)
                if (st->reg[r].kind == AV_CFA) {
                    row->cfa = (struct unwind_rule){.kind = CFA_RULE_REG_OFFSET, .reg = (uint16_t)r,
                                                    .offset = -st->reg[r].off};
                    break;
                }
        }
        if (row->cfa.kind == CFA_RULE_UNKNOWN)
            drap_slot_cfa(st, anchor, k, 0, row);
    }
    /* The return address and the callee-saved registers: by the slot that
     * holds their entry value (the highest one: the push of the prologue);
     * in the realigned frame, by an expression on its anchor register. */
    unsigned cols[ABI_NCALLEE_SAVED + 1];
    memcpy(cols, abi_callee_saved_regs, sizeof abi_callee_saved_regs);
    cols[ABI_NCALLEE_SAVED] = ABI_RA;
    for (unsigned c = 0; c <= ABI_NCALLEE_SAVED; c++) {
        unsigned r = cols[c];
        struct unwind_rule *rule = &row->reg[r];
        rule->kind = REG_RULE_UNKNOWN;
        const struct stack_slot *aligned_save = NULL;
        for (int i = st->nslots - 1; i >= 0; i--) {
            const struct stack_slot *s = &st->slot[i];
            if (s->value.kind != AV_ENTRY || s->value.reg != r || s->value.off != 0)
                continue;
            if (s->base == AV_CFA) {
                *rule = (struct unwind_rule){.kind = REG_RULE_OFFSET, .offset = s->off};
                break;
            }
            if (!aligned_save)
                aligned_save = s;
        }
        if (rule->kind == REG_RULE_UNKNOWN && aligned_save && anchor >= 0) {
            uint8_t *buf = row_exprs[r];
            rule->kind = REG_RULE_EXPRESSION;
            rule->expr = buf;
            rule->expr_len = breg_expr(buf, anchor, aligned_save->off - k, 0, 0);
        }
        if (rule->kind == REG_RULE_UNKNOWN && r != ABI_RA && st->reg[r].kind == AV_ENTRY &&
            st->reg[r].reg == r && st->reg[r].off == 0)
            rule->kind = REG_RULE_UNREFERENCED;   /* never saved: still its entry value */
    }
}

struct emitter {
    int how;                     /* what run_block's "reached" means: 1 or SYNTH_GUESSED */
    const struct function_code *fc;
    size_t prev;                 /* index of the instruction emitted last, or (size_t)-1 */
    int prev_reached;
    int prev_keeps_row;          /* the last instruction cannot change the row */
    struct unwind_table *t;
    int oom;
    synth_insn_fn observe;
    void *arg;
};

static void emit_row(struct emitter *em, const struct ir_insn *in, const struct unwind_row *row)
{
    struct unwind_table *t = em->t;
    if (t->nrows > 0) {
        struct unwind_row *prev = &t->rows[t->nrows - 1];
        if (prev->end == in->addr && unwind_row_rules_equal(prev, row)) {
            prev->end = in->addr + in->len;
            return;
        }
    }
    struct unwind_row *r = unwind_table_append(t, in->addr, in->addr + in->len);
    if (!r) {
        em->oom = 1;
        return;
    }
    r->cfa = row->cfa;
    memcpy(r->reg, row->reg, sizeof r->reg);
    /* Synthesised expressions live in static storage until the next row. */
    struct unwind_rule *rules[UNWIND_COLUMNS + 1];
    rules[0] = &r->cfa;
    for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
        rules[c + 1] = &r->reg[c];
    for (unsigned c = 0; c <= UNWIND_COLUMNS; c++)
        if (rules[c]->expr_len && !(rules[c]->expr = unwind_table_keep_expr(t, rules[c]->expr,
                                                                            rules[c]->expr_len)))
            em->oom = 1;
}

/* Whether executing IN in state PRE leaves the row synth_row_from_state
 * builds unchanged: it only writes registers that are neither rsp, rbp nor
 * callee-saved, that held no frame address and get none. */
static int keeps_row(const struct ir_insn *in, const struct abs_state *pre)
{
    if (is_call(in))
        return 0;
    for (unsigned k = 0; k < in->neffects; k++) {
        const struct ir_effect *e = &in->effects[k];
        if (e->kind == IR_STORE || e->dst >= STATE_GPRS || e->dst == ABI_RSP || e->dst == ABI_RBP ||
            abi_callee_saved(e->dst))
            return 0;
        uint8_t old = pre->reg[e->dst].kind;
        if (old == AV_CFA || old == AV_ALIGNED)
            return 0;
        if (e->kind == IR_SET && e->src < STATE_GPRS &&
            (pre->reg[e->src].kind == AV_CFA || pre->reg[e->src].kind == AV_ALIGNED))
            return 0;
        if (e->kind == IR_LOAD)
            return 0;   /* may load a frame address from a slot */
    }
    return 1;
}

static void emit_observer(void *arg, const struct ir_insn *in, const struct abs_state *st, int reached)
{
    struct emitter *em = arg;
    if (reached == 1)
        reached = em->how;
    if (em->observe)
        em->observe(em->arg, in, st, reached);
    if (!em->t)
        return;   /* observing only */
    /* Within a block, after an instruction that cannot change the row, the
     * row is the same: extend it instead of building it again. */
    const struct function_code *fc = em->fc;
    size_t i = (size_t)(in - fc->insns);
    size_t prev = em->prev;
    int prev_reached = em->prev_reached, prev_keeps_row = em->prev_keeps_row;
    em->prev = i;
    em->prev_reached = reached;
    em->prev_keeps_row = reached && keeps_row(in, st);
    struct unwind_table *t = em->t;
    if (prev != (size_t)-1 && prev + 1 == i && prev_reached == reached && prev_keeps_row &&
        fc->block_of[i] == fc->block_of[prev] && t->nrows > 0 &&
        t->rows[t->nrows - 1].end == in->addr) {
        t->rows[t->nrows - 1].end = in->addr + in->len;
        return;
    }
    struct unwind_row row;
    if (reached) {
        synth_row_from_state(st, &row);
    } else {
        memset(&row, 0, sizeof row);
        row.cfa.kind = CFA_RULE_UNKNOWN;
        for (unsigned c = 0; c < UNWIND_COLUMNS; c++)
            row.reg[c].kind = REG_RULE_UNKNOWN;
    }
    emit_row(em, in, &row);
}

static void unknown_table(struct unwind_table *t, const struct function_range *f)
{
    unwind_table_init(t, f->lo, f->hi);
    struct unwind_row *r = unwind_table_append(t, f->lo, f->hi);
    if (r) {
        r->cfa.kind = CFA_RULE_UNKNOWN;
        for (unsigned c = 0; c < ABI_NCALLEE_SAVED; c++)
            r->reg[abi_callee_saved_regs[c]].kind = REG_RULE_UNKNOWN;
        r->reg[ABI_RA].kind = REG_RULE_UNKNOWN;
    }
}

/* Give up on FC's function: release what it holds and, when a table was
 * asked for, make T one unknown row.  Returns -1. */
static int abandon(struct function_code *fc, struct known_table *known, struct unwind_table *t)
{
    const struct synth_request *rq = fc->rq;
    function_code_release(fc);
    free(known);
    if (rq->emit && !rq->no_table)
        unknown_table(t, rq->func);
    return -1;
}

/* Landing pads until their states settle: a pad's own calls may land in
 * another (each round is bounded; states only grow, so few are needed). */
static void flow_to_landing_pads_until_stable(struct function_code *fc)
{
    for (int round = 0; round < PAD_ROUNDS_MAX && flow_to_landing_pads(fc); round++)
        fixpoint(fc);
}

/* The flows from what is known to enter the function: its entry, the
 * landing pads of its calls, and jumps from other fragments of its frame. */
static void run_known_flows(struct function_code *fc, const struct synth_request *rq)
{
    struct abs_state entry;
    abs_state_entry(&entry);
    /* Jumps from other fragments of the frame reach what the entry does not;
     * where both reach, the function's own paths decide — unless nothing is
     * known to enter at its start, when those jumps are its real entries. */
    fc->seeding = rq->entry_is_guess ? SEED_INNER : 0;
    flow_into(fc, 0, rq->entry ? rq->entry : &entry);
    if (!rq->entry_is_guess) {
        fixpoint(fc);
        flow_to_landing_pads_until_stable(fc);
    }
    fc->seeding = rq->entry_is_guess ? 0 : SEED_INNER;
    for (size_t k = 0; k < rq->nmore_entries; k++) {
        size_t at = insn_at(fc, rq->more_entries[k].addr);
        if (at != (size_t)-1 && fc->blocks[fc->block_of[at]].first == at)
            flow_into(fc, fc->block_of[at], &rq->more_entries[k].state);
    }
    fixpoint(fc);
    /* The landing pads of calls that only those jumps reach (a .cold part
     * whose path from its start ends in a call that never returns). */
    if (rq->entry_is_guess)
        fc->seeding = 0;
    if (rq->nmore_entries)
        flow_to_landing_pads_until_stable(fc);
}

int synthesize_function(struct synth_session *ss, const struct synth_request *rq,
                        struct unwind_table *t, struct synth_outcome *out)
{
    const struct function_range *f = rq->func;
    struct function_code fc = {.rq = rq};
    memset(out, 0, sizeof *out);
    if (f->flaw) {
        out->reason = f->flaw;
        if (rq->emit && !rq->no_table)
            unknown_table(t, f);
        return -1;
    }
    int decoded = decode_function(ss, f, &fc, &out->reason);
    if (rq->keep_insns && !rq->insns) {
        out->kept_insns = fc.insns;
        out->nkept_insns = fc.n;
    }
    struct known_table *known = NULL;
    size_t known_cap = 0;
    /* Again when a pass's values explain jump tables the patterns did not:
     * the blocks are cut again with their targets (which may reach more
     * tables: a switch inside a case), at most MAX_TABLE_PASSES times. */
    for (int pass = 0;; pass++) {
        if (decoded != 0 || build_blocks(ss, &fc, &out->reason) != 0)
            return abandon(&fc, known, t);
        run_known_flows(&fc, rq);
        size_t found = pass < MAX_TABLE_PASSES && ss->ef ? tables_from_values(&fc, &known, &known_cap) : 0;
        size_t labels = !found && !fc.labels_sought ? find_address_taken_labels(ss, &fc) : 0;
        if (found == (size_t)-1 || labels == (size_t)-1) {
            out->reason = "out of memory";
            return abandon(&fc, known, t);
        }
        if (!found && !labels)
            break;
        /* Again, the blocks cut at the labels too. */
        cfg_release(&fc);
        fc.known = known;
        fc.nknown += found;
    }
    fc.seeding = SEED_GUESS;
    for (int round = 0; round < 4; round++) {
        size_t seeded = seed_unreached(&fc);
        out->seeded_blocks += seeded;
        if (!seeded)
            break;
        fixpoint(&fc);
    }
    for (size_t k = 0; k < fc.nleaving; k++)
        rq->exits(rq->exits_arg, fc.leaving[k].target, fc.leaving[k].kind, &fc.leaving[k].state);
    out->returns = fc.returns;
    /* Registers given back only when every way out is a return that the
     * analysis saw (no tail call, no code reached only by a guess) of a leaf;
     * only a run that builds no table (synth_program's first pass) hands
     * this summary on. */
    if (!rq->emit && fc.returns && !out->seeded_blocks && !reaches_a_call(&fc))
        for (unsigned r = 0; r < STATE_GPRS; r++)
            if (abi_call_clobbered(r) && !(fc.clobbered & (1u << r)))
                out->preserved |= 1u << r;
    out->insns = fc.n;
    /* A reachable instruction that does not decode makes the function unknown. */
    for (size_t b = 0; b < fc.nblocks; b++) {
        const struct block *blk = &fc.blocks[b];
        if (blk->reached && fc.insns[blk->last].flow == IR_FLOW_INVALID) {
            out->reason = "invalid instruction on a reachable path";
            return abandon(&fc, known, t);
        }
    }
    if (!rq->emit) {
        function_code_release(&fc);
        free(known);
        return 0;
    }

    if (!rq->no_table)
        unwind_table_init(t, f->lo, f->hi);
    struct emitter em = {.t = rq->no_table ? NULL : t, .observe = rq->observe, .arg = rq->observe_arg,
                         .fc = &fc, .prev = (size_t)-1};
    struct abs_state last;
    for (size_t b = 0; b < fc.nblocks; b++) {
        const struct block *blk = &fc.blocks[b];
        if (blk->reached) {
            em.how = blk->seeded == SEED_GUESS ? SYNTH_GUESSED : 1;
            run_block(&fc, b, &last, emit_observer, &em, NULL, NULL);
        } else if ((is_padding_block(&fc, b) || is_trap_after_call(&fc, b)) && b > 0 && fc.blocks[b - 1].reached) {
            /* Alignment padding, and the ud2 after a call that does not
             * return, carry on the row of the instruction before them: the
             * compiler's CFI for the next block starts at its label. */
            for (size_t i = blk->first; i <= blk->last; i++)
                emit_observer(&em, &fc.insns[i], &last, SYNTH_PADDING);
        } else if (is_padding_block(&fc, b) && b + 1 < fc.nblocks && fc.blocks[b + 1].reached) {
            struct abs_state next = fc.blocks[b + 1].in;
            for (size_t i = blk->first; i <= blk->last; i++)
                emit_observer(&em, &fc.insns[i], &next, SYNTH_PADDING);
        } else {
            for (size_t i = blk->first; i <= blk->last; i++)
                emit_observer(&em, &fc.insns[i], &last, 0);
            out->unreached += blk->last - blk->first + 1;
        }
    }
    function_code_release(&fc);
    free(known);
    if (em.oom) {
        out->reason = "out of memory";
        if (em.t) {
            unwind_table_release(t);
            unknown_table(t, f);
        }
        return -1;
    }
    return 0;
}
