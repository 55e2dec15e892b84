/* SPDX-License-Identifier: Apache-2.0 */
/*
 * function_index: function ranges and names.
 */
#include "function_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/grow.h"
#include "kit/sorted_search.h"
#include "object/code_bounds.h"
#include "sys/error.h"

#define PLT_STUB_SIZE 16
/* What the "name@plt" strings may take in all: a .rela.plt whose entries
 * all name one long symbol cannot make them take more. */
#define PLT_NAMES_MAX ((size_t)16 << 20)

static int by_lo(const void *a, const void *b)
{
    const struct function_range *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->hi < y->hi ? -1 : x->hi > y->hi;
}

static int by_addr(const void *a, const void *b)
{
    const struct named_address *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* Prefer sized symbols, then shorter names (foo over foo_alias_long). */
    if ((x->size == 0) != (y->size == 0))
        return x->size == 0 ? 1 : -1;
    return (int)strlen(x->name) - (int)strlen(y->name);
}

struct growable {
    void *items;
    size_t n, cap, size;
};

/* Room for one more item at the end: the item, or NULL. */
static void *grow(struct growable *g)
{
    void *items = grow_array(g->items, &g->cap, g->n + 1, g->size);
    if (!items)
        return NULL;
    g->items = items;
    return (char *)g->items + g->size * g->n++;
}

/* Section NAME when it holds PLT stubs: code the file holds (see
 * code_bounds_check_sections, which refuses a header claiming more), else NULL. */
static struct elf_section *stub_section(struct elf_file *ef, const struct code_bounds *code, const char *name)
{
    struct elf_section *sec = elf_file_section(ef, name);
    if (!sec || sec->type == SHT_NOBITS || !(sec->flags & SHF_EXECINSTR) ||
        !code_bounds_holds(code, sec->addr, sec->size))
        return NULL;
    return sec;
}

/* Names of the .plt / .plt.sec stubs, from .rela.plt (stub k <-> relocation k). */
static int add_plt_names(struct function_index *ix, struct elf_file *ef, const struct code_bounds *code,
                         struct growable *names, struct growable *funcs, char *err, size_t errlen)
{
    struct elf_section *plt = stub_section(ef, code, ".plt");
    struct elf_section *plt_sec = stub_section(ef, code, ".plt.sec");
    struct elf_section *plt_got = stub_section(ef, code, ".plt.got");
    struct elf_section *rela = elf_file_section(ef, ".rela.plt");
    struct elf_section *stub_secs[] = {plt, plt_sec, plt_got};

    /* Every stub is a function of its own. */
    for (unsigned s = 0; s < 3; s++) {
        struct elf_section *sec = stub_secs[s];
        if (!sec)
            continue;
        for (uint64_t off = 0; off + PLT_STUB_SIZE <= sec->size; off += PLT_STUB_SIZE) {
            struct function_range *f = grow(funcs);
            if (!f)
                return error_set(err, errlen, "out of memory");
            *f = (struct function_range){sec->addr + off, sec->addr + off + PLT_STUB_SIZE, "",
                                         FUNC_FROM_PLT, NULL, 0, NULL};
        }
    }
    if (!rela || rela->type != SHT_RELA || !(plt || plt_sec))
        return 0;
    GElf_Shdr sh;
    Elf_Data *d = elf_getdata(rela->scn, NULL);
    if (!d || !gelf_getshdr(rela->scn, &sh) || sh.sh_entsize == 0)
        return 0;
    Elf_Scn *dynsym = elf_getscn(ef->elf, sh.sh_link);
    GElf_Shdr dsh;
    Elf_Data *dd = dynsym ? elf_getdata(dynsym, NULL) : NULL;
    if (!dd || !gelf_getshdr(dynsym, &dsh))
        return 0;
    struct elf_section *stubs = plt_sec ? plt_sec : plt;
    uint64_t first = plt_sec ? 0 : 1;   /* .plt starts with the resolver stub */
    /* Relocations past the last stub name nothing. */
    size_t count = d->d_size / sh.sh_entsize, nstubs = (size_t)(stubs->size / PLT_STUB_SIZE);
    if (count > (nstubs > first ? nstubs - first : 0))
        count = nstubs > first ? nstubs - first : 0;
    /* Room for "name@plt" strings, allocated once. */
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        GElf_Rela r;
        GElf_Sym sym;
        const char *name;
        if (gelf_getrela(d, (int)i, &r) && gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym) &&
            (name = elf_strptr(ef->elf, dsh.sh_link, sym.st_name)) != NULL &&
            strlen(name) + 5 <= PLT_NAMES_MAX - total)
            total += strlen(name) + 5;
    }
    ix->plt_names = malloc(total + 1);
    if (!ix->plt_names)
        return error_set(err, errlen, "out of memory");
    char *p = ix->plt_names;
    for (size_t i = 0; i < count; i++) {
        GElf_Rela r;
        GElf_Sym sym;
        const char *name;
        if (!gelf_getrela(d, (int)i, &r) || !gelf_getsym(dd, (int)GELF_R_SYM(r.r_info), &sym) ||
            (name = elf_strptr(ef->elf, dsh.sh_link, sym.st_name)) == NULL)
            continue;
        size_t len = strlen(name) + 4;
        if (len + 1 > PLT_NAMES_MAX - (size_t)(p - ix->plt_names))
            continue;   /* past the budget, as above: the stub stays unnamed */
        struct named_address *n = grow(names);
        if (!n)
            return error_set(err, errlen, "out of memory");
        sprintf(p, "%s@plt", name);
        *n = (struct named_address){stubs->addr + (first + i) * PLT_STUB_SIZE, PLT_STUB_SIZE, p, 0};
        p += len + 1;
    }
    return 0;
}

static int in_plt(struct elf_file *ef, uint64_t addr)
{
    struct elf_section *s = elf_file_section_at(ef, addr);
    return s && strncmp(s->name, ".plt", 4) == 0;
}

static uint64_t function_lo_key(const void *funcs, size_t i)
{
    return ((const struct function_range *)funcs)[i].lo;
}

static uint64_t name_addr_key(const void *names, size_t i)
{
    return ((const struct named_address *)names)[i].addr;
}

int function_index_build(struct function_index *ix, struct elf_file *ef,
                         const struct cfi_section *eh, char *err, size_t errlen)
{
    memset(ix, 0, sizeof *ix);
    struct growable funcs = {.size = sizeof(struct function_range)};
    struct growable names = {.size = sizeof(struct named_address)};
    /* Code sections (the PLT's among them) whose headers claim more than the
     * file's executable segments hold are refused here, so that every range
     * below lies in code the file holds, or is flawed. */
    struct code_bounds code;
    if (code_bounds_init(&code, ef, err, errlen) != 0)
        return -1;
    if (code_bounds_check_sections(&code, ef, err, errlen) != 0 ||
        elf_file_load_symbols(ef, err, errlen) != 0) {
        code_bounds_release(&code);
        return -1;
    }
    for (size_t i = 0; i < ef->nsymbols; i++) {
        const struct elf_symbol *s = &ef->symbols[i];
        if (s->type != STT_FUNC && s->type != STT_GNU_IFUNC)
            continue;
        if (s->shndx == SHN_UNDEF || !s->name[0] || s->value == 0)
            continue;   /* imports and placeholders */
        struct named_address *n = grow(&names);
        if (!n)
            goto oom;
        *n = (struct named_address){s->value, s->size, s->name, 0};
    }
    if (add_plt_names(ix, ef, &code, &names, &funcs, err, errlen) != 0)
        goto fail_out;
    if (names.n)
        qsort(names.items, names.n, names.size, by_addr);
    ix->names = names.items;
    ix->nnames = names.n;
    for (size_t i = 0; i < ix->nnames; i++)
        ix->names[i].noreturn = function_name_is_noreturn(ix->names[i].name);

    /* FDE ranges, except the PLT's (its stubs are listed one by one) and
     * those that are not code of the file (cfi_reader.h). */
    for (size_t i = 0; eh && i < eh->nfdes; i++) {
        const struct eh_frame_fde *fde = &eh->fdes[i];
        if (fde->pc_range == 0 || fde->fault != FDE_SOUND || in_plt(ef, fde->pc_begin))
            continue;
        struct function_range *f = grow(&funcs);
        if (!f)
            goto oom;
        *f = (struct function_range){fde->pc_begin, fde->pc_begin + fde->pc_range, "", FUNC_FROM_FDE,
                                     NULL, fde->lsda, fde};
    }
    if (funcs.n)
        qsort(funcs.items, funcs.n, funcs.size, by_lo);

    /* Symbols whose start no FDE covers: code without unwind data. */
    size_t nfde_funcs = funcs.n;
    struct function_range *sorted = funcs.items;
    for (size_t i = 0; i < ix->nnames; i++) {
        const struct named_address *n = &ix->names[i];
        if (n->size == 0 || (i > 0 && ix->names[i - 1].addr == n->addr) || in_plt(ef, n->addr))
            continue;
        size_t lo = sorted_count_at_most(sorted, nfde_funcs, function_lo_key, n->addr);
        if (lo > 0 && n->addr < sorted[lo - 1].hi)
            continue;
        /* A function symbol outside executable code is bogus: listed, so
         * that it is reported, but not synthesised.  (Code sections lie in
         * code the file holds: code_bounds_check_sections.) */
        struct elf_section *sec = elf_file_section_at(ef, n->addr);
        const char *flaw = NULL;
        if (!sec)
            flaw = "symbol lies outside the file's sections";
        else if (!(sec->flags & SHF_EXECINSTR))
            flaw = "symbol lies in a section that is not code";
        else if (n->addr + n->size < n->addr || n->addr + n->size - sec->addr > sec->size)
            flaw = "symbol's size runs past the end of its section";
        struct function_range *f = grow(&funcs);
        if (!f)
            goto oom;
        sorted = funcs.items;
        *f = (struct function_range){n->addr, n->addr + n->size, n->name, FUNC_FROM_SYMBOL, flaw, 0, NULL};
    }
    if (funcs.n)
        qsort(funcs.items, funcs.n, funcs.size, by_lo);
    ix->funcs = funcs.items;
    ix->nfuncs = funcs.n;
    /* A function starting inside one before it overlaps it: its bytes are
     * someone else's instructions, so it is reported rather than trusted.
     * The functions synthesised are then disjoint, and decoding them all
     * reads each byte of code once (a crafted table cannot make it read a
     * segment once per FDE). */
    uint64_t covered = 0;   /* the end of the furthest function so far */
    for (size_t i = 0; i < ix->nfuncs; i++) {
        struct function_range *f = &ix->funcs[i];
        if (i > 0 && f->lo < covered && !f->flaw && f->source != FUNC_FROM_PLT)
            f->flaw = "overlaps the function before it";
        if (!f->flaw && f->hi > covered)
            covered = f->hi;
    }
    for (size_t i = 0; i < ix->nfuncs; i++) {
        const char *name = function_index_name_at(ix, ix->funcs[i].lo);
        if (name && !ix->funcs[i].name[0])
            ix->funcs[i].name = name;
    }
    code_bounds_release(&code);
    return 0;
oom:
    error_set(err, errlen, "out of memory");
fail_out:
    code_bounds_release(&code);
    free(funcs.items);
    free(names.items);
    ix->names = NULL;
    function_index_release(ix);
    return -1;
}

void function_index_release(struct function_index *ix)
{
    free(ix->funcs);
    free(ix->names);
    free(ix->plt_names);
    memset(ix, 0, sizeof *ix);
}

size_t function_index_at(const struct function_index *ix, uint64_t addr)
{
    size_t lo = sorted_count_at_most(ix->funcs, ix->nfuncs, function_lo_key, addr);
    /* Overlapping ranges: the last one starting at or before ADDR. */
    return lo > 0 && addr < ix->funcs[lo - 1].hi ? lo - 1 : (size_t)-1;
}

/* The named address function_index_name_at names, or NULL. */
static const struct named_address *named_at(const struct function_index *ix, uint64_t addr)
{
    size_t lo = sorted_count_at_most(ix->names, ix->nnames, name_addr_key, addr);
    if (lo == 0)
        return NULL;
    /* The first entry at that address is the preferred name (see by_addr). */
    const struct named_address *n = &ix->names[lo - 1];
    while (n > ix->names && (n - 1)->addr == n->addr)
        n--;
    return n->addr == addr || addr - n->addr < n->size ? n : NULL;
}

const char *function_index_name_at(const struct function_index *ix, uint64_t addr)
{
    const struct named_address *n = named_at(ix, addr);
    return n ? n->name : NULL;
}

int function_index_noreturn_at(const struct function_index *ix, uint64_t addr)
{
    const struct named_address *n = named_at(ix, addr);
    return n && n->noreturn;
}

int function_name_is_noreturn(const char *name)
{
    static const char *const names[] = {
        "abort", "exit", "_exit", "_Exit", "quick_exit", "__stack_chk_fail", "__assert_fail",
        "__assert_perror_fail", "__assert", "__cxa_throw", "__cxa_rethrow", "__cxa_bad_cast",
        "__cxa_bad_typeid", "__cxa_pure_virtual", "__cxa_call_unexpected",
        "__cxa_throw_bad_array_new_length", "_Unwind_Resume", "longjmp", "siglongjmp",
        "_longjmp", "__longjmp_chk", "__fortify_fail", "__chk_fail", "__libc_fatal",
        "pthread_exit", "err", "errx", "verr", "verrx", "__stack_chk_fail_local",
        "_ZSt9terminatev", "__ubsan_handle_builtin_unreachable", "__gnat_last_chance_handler",
        /* The GNAT run time's, declared No_Return (its own code never returns). */
        "__gnat_raise_exception", "__gnat_reraise", "__gnat_reraise_zcx", "__gnat_raise_with_msg",
        "__gnat_raise_constraint_error", "__gnat_raise_constraint_error_msg",
        "__gnat_raise_program_error", "__gnat_raise_program_error_msg",
        "__gnat_raise_storage_error", "__gnat_raise_storage_error_msg",
        "__gnat_unhandled_except_handler", "system__assertions__raise_assert_failure",
        "ada__exceptions__raise_exception", "ada__exceptions__raise_exception_no_defer",
        "ada__exceptions__reraise_occurrence_always", "ada__exceptions__reraise_occurrence_no_defer",
    };
    size_t len = strcspn(name, "@");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
            return 1;
    /* GNAT's run-time checks: __gnat_rcheck_CE_Index_Check ... */
    if (strncmp(name, "__gnat_rcheck_", 14) == 0)
        return 1;
    /* libstdc++'s std::__throw_* helpers: _ZSt16__throw_bad_allocv ... */
    return strncmp(name, "_ZSt", 4) == 0 && strstr(name, "__throw_") != NULL && strstr(name, "__throw_") < name + len;
}
