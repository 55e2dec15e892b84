/* SPDX-License-Identifier: Apache-2.0 */
/*
 * symbol_table: the symbol table perf builds for an object, and its lookups (see
 * the header).
 *
 * The table is built as perf 6.1 builds it (tools/perf/util/symbol.c
 * dso__load, symbol-elf.c dso__load_sym and dso__synthesize_plt_symbols):
 * symbols are inserted one by one into a red-black tree keyed by their
 * start, the tree's in-order walk fixes the ends of symbols without a size
 * and drops all but one symbol of each address, then the PLT's symbols
 * are inserted.  perf finds an address's symbol by a descent of that tree
 * (symbols__find), which is not an interval search: where symbols overlap
 * (the PLT's inside `_init` stretched to the next symbol, a sized function
 * over a label) the symbol found, or none, depends on the tree's shape.
 * So the tree is built node for node, with the same insertions and
 * erasures, and its descent is then evaluated once at every address where
 * its answer can change; lookups binary-search those ranges.
 *
 * perf keeps symbol addresses as file offsets (st_value - (sh_addr -
 * sh_offset) of the symbol's section) and looks up map__map_ip(ip), the
 * file offset of the address in its mapping; the table does the same and
 * converts the caller's own addresses with the object's PT_LOAD headers.
 */
#include "symbol_table_private.h"

#include "demangle.h"
#include "symbol_sources.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "object/elf_file.h"
#include "runtime/identity.h"

/* ---- reading an object's symbols: dso__load_sym ------------------------------------------- */

static int is_function(const struct elf_symbol *s)
{
    return (s->type == STT_FUNC || s->type == STT_GNU_IFUNC) && s->name[0] && s->shndx != SHN_UNDEF;
}

static int is_object(const struct elf_symbol *s)
{
    return s->type == STT_OBJECT && s->name[0] && s->shndx != SHN_UNDEF;
}

static int is_label(const struct elf_symbol *s)
{
    return s->type == STT_NOTYPE && s->name[0] && s->shndx != SHN_UNDEF && s->shndx != SHN_ABS;
}

/* NAME as perf shows it (demangled), then SUFFIX: in memory the caller
 * frees, or NULL when out of memory. */
static char *perf_name(const char *name, const char *suffix)
{
    char *d = demangle_symbol(name);
    const char *base = d ? d : name;
    size_t len = strlen(base) + strlen(suffix) + 1;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s%s", base, suffix);
    free(d);
    return s;
}

/*
 * The symbols of SYMS (its .symtab, else its .dynsym) as dso__load_sym
 * reads them: functions (STT_FUNC, STT_GNU_IFUNC), objects (STT_OBJECT) and
 * labels (STT_NOTYPE) in a section named *text*, named and defined, in an
 * allocated section; absolute ones (SHN_ABS) are skipped.  A section SYMS
 * has as NOBITS (a debug file) is RUNTIME's.  Addresses become file
 * offsets.  A symbol whose section does not exist ends the reading, as
 * perf's `goto out_elf_end`: then nothing is fixed up and no PLT symbol is
 * made (returns 0 then, 1 when complete, -1 out of memory).
 */
static int read_symbols(struct symbol_table *t, struct symbol_source *syms, struct symbol_source *runtime)
{
    const struct elf_symbol *list = syms->symtab ? syms->static_syms : syms->dynamic_syms;
    size_t n = syms->symtab ? syms->nstatic : syms->dynsym ? syms->ndynamic : 0;
    for (size_t i = 0; i < n; i++) {
        const struct elf_symbol *sym = &list[i];
        int label = is_label(sym);
        if (!label && !is_function(sym) && !is_object(sym))
            continue;
        if (sym->shndx == SHN_ABS)
            continue;   /* libc's version names (GLIBC_2.8): perf skips them */
        struct elf_section *sec = symbol_section_by_index(&syms->ef, sym->shndx);
        if (!sec)
            return 0;
        if (!(sec->flags & SHF_ALLOC))
            continue;
        if (sec->type == SHT_NOBITS && !(sec = symbol_section_by_index(&runtime->ef, sym->shndx)))
            return 0;
        if (label && !strstr(sec->name, "text"))
            continue;
        char *name = perf_name(sym->name, "");
        int r = name ? symbol_table_add(t, sym->value - (sec->addr - sec->offset), sym->size, sym->bind, sym->type,
                                  name, strlen(name))
                     : -1;
        free(name);
        if (r != 0)
            return -1;
    }
    return 1;
}

/*
 * dso__synthesize_plt_symbols (perf 6.1): NAME@plt for each relocation of
 * .rela.plt (else .rel.plt) linked to .dynsym, in order, one .plt entry
 * each (sh_entsize of .plt) after the first, its header; at file offsets.
 * Relocations of no symbol (R_X86_64_IRELATIVE) give "@plt".  perf 6.1
 * knows no .plt.sec nor .plt.got: their entries get no symbol of their
 * own.  Returns 0, or -1 out of memory.
 */
static int synthesize_plt(struct symbol_table *t, struct symbol_source *rt)
{
    if (!rt->dynsym)
        return 0;
    struct elf_section *rel = elf_file_section(&rt->ef, ".rela.plt");
    if (!rel)
        rel = elf_file_section(&rt->ef, ".rel.plt");
    struct elf_section *plt = elf_file_section(&rt->ef, ".plt");
    if (!rel || !plt)
        return 0;
    GElf_Shdr rsh, psh;
    if (!gelf_getshdr(rel->scn, &rsh) || rsh.sh_link != rt->dynsym->index || rsh.sh_entsize == 0 ||
        !gelf_getshdr(plt->scn, &psh) || (rsh.sh_type != SHT_RELA && rsh.sh_type != SHT_REL))
        return 0;
    Elf_Data *data = elf_getdata(rel->scn, NULL);
    if (!data)
        return 0;
    uint64_t count = rsh.sh_size / rsh.sh_entsize, at = psh.sh_offset + psh.sh_entsize;
    const char *name = "";   /* perf reuses the last symbol when one cannot be read */
    for (uint64_t i = 0; i < count && i < (uint64_t)INT32_MAX; i++) {
        uint64_t info;
        if (rsh.sh_type == SHT_RELA) {
            GElf_Rela r;
            if (!gelf_getrela(data, (int)i, &r))
                break;
            info = r.r_info;
        } else {
            GElf_Rel r;
            if (!gelf_getrel(data, (int)i, &r))
                break;
            info = r.r_info;
        }
        uint64_t index = GELF_R_SYM(info);
        if (index == 0)
            name = "";
        else if (index - 1 < rt->ndynamic)
            name = rt->dynamic_syms[index - 1].name;
        char *full = perf_name(name, "@plt");
        size_t len = full ? strlen(full) : 0;   /* perf's buffer: 1024 bytes */
        int r = full ? symbol_table_add(t, at, psh.sh_entsize, STB_GLOBAL, STT_FUNC, full, len > 1023 ? 1023 : len)
                     : -1;
        free(full);
        if (r != 0)
            return -1;
        at += psh.sh_entsize;
    }
    return 0;
}

static int read_segments(struct symbol_table *t, struct elf_file *ef)
{
    for (size_t i = 0; i < ef->nphdrs; i++)
        if (ef->phdrs[i].p_type == PT_LOAD)
            t->nsegments++;
    if (!t->nsegments)
        return 0;
    t->segments = calloc(t->nsegments, sizeof *t->segments);
    if (!t->segments) {
        t->nsegments = 0;
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < ef->nphdrs; i++) {
        const GElf_Phdr *p = &ef->phdrs[i];
        if (p->p_type == PT_LOAD)
            t->segments[k++] = (struct segment){p->p_vaddr, p->p_memsz, p->p_offset};
    }
    return 0;
}

#define MAX_CANDIDATES 10

struct symbol_table *symbol_table_open(const char *path, const uint8_t *build_id, size_t len)
{
    struct symbol_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->root = NONE;
    struct symbol_build_id id = {.len = 0};
    if (build_id && len) {
        id.len = len < sizeof id.bytes ? len : sizeof id.bytes;
        memcpy(id.bytes, build_id, id.len);
    }
    struct symbol_source *found = calloc(MAX_CANDIDATES + 1, sizeof *found);
    char (*paths)[4096] = calloc(MAX_CANDIDATES, sizeof *paths);
    if (!found || !paths) {
        free(found);
        free(paths);
        free(t);
        return NULL;
    }
    /* The object itself (its program headers, its .gnu_debuglink) is the last of FOUND. */
    struct symbol_source *object = &found[MAX_CANDIDATES];
    struct symbol_build_id none = {.len = 0};
    int have_object = symbol_regular_file(path) && symbol_source_open(object, path, &none) == 0;
    if (have_object && !id.len)
        symbol_build_id_read(&object->ef, &id);   /* dso__load reads it when perf.data has none */

    /* dso__load: the first candidate with a .symtab gives the symbols, the
     * first with a .dynsym the PLT and the sections of NOBITS ones. */
    size_t n = symbol_sources_candidates(path, have_object ? &object->ef : NULL, &id, paths, MAX_CANDIDATES);
    struct symbol_source *syms = NULL, *runtime = NULL;
    size_t nfound = 0;
    for (size_t i = 0; i < n && !(syms && runtime); i++) {
        struct symbol_source *s = &found[nfound];
        if (symbol_source_open(s, paths[i], &id) != 0)
            continue;
        symbol_source_load(s);
        int used = 0;
        if (!syms && s->symtab)
            syms = s, used = 1;
        if (!runtime && s->dynsym)
            runtime = s, used = 1;
        if (used)
            nfound++;
        else
            symbol_source_close(s);
    }
    if (!syms)
        syms = runtime;
    if (!runtime)
        runtime = syms;
    int failed = 0;
    if (syms) {
        snprintf(t->source, sizeof t->source, "%s", syms->path);
        int r = read_symbols(t, syms, runtime);
        if (r < 0)
            failed = 1;
        if (r > 0 && t->in_tree) {
            symbol_table_fixup_end(t, 0);
            symbol_table_fixup_duplicates(t);
            if (synthesize_plt(t, runtime) != 0)
                failed = 1;
        }
    }
    /* The mapping perf prints offsets in is the object's; a file of
     * another build-id is not it. */
    struct symbol_build_id own_id;
    if (have_object && id.len)
        symbol_build_id_read(&object->ef, &own_id);
    int object_is_it = have_object && (!id.len || (own_id.len && symbol_build_id_same(&id, &own_id)));
    struct elf_file *phdrs = object_is_it ? &object->ef : runtime ? &runtime->ef : NULL;
    if (phdrs && read_segments(t, phdrs) != 0)
        failed = 1;
    for (size_t i = 0; i < nfound; i++)
        symbol_source_close(&found[i]);
    symbol_source_close(object);
    free(found);
    free(paths);
    if (failed || symbol_table_build_ranges(t) != 0) {
        symbol_table_free(t);
        return NULL;
    }
    return t;
}

/* ---- the kernel: /proc/kallsyms -------------------------------------------------------- */

/*
 * perf reads the running kernel's symbols from /proc/kallsyms
 * (dso__load_kallsyms; its build-id cache keeps a copy): the text, weak,
 * data and bss symbols (types T W D B, either case), every one without a
 * size, local for a lower-case type; names starting with '$' are skipped.
 * Then the ends are fixed up and aliases merged as for an object, with the
 * kernel's rule at a module's edge, and module symbols ("name\t[module]")
 * lose their module's name.
 */
struct symbol_table *symbol_table_open_kallsyms_file(const char *path)
{
    struct symbol_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->root = NONE;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    FILE *f = NULL;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (f = fdopen(fd, "r")))
        fd = -1;
    if (fd >= 0)
        close(fd);
    int failed = 0;
    if (f) {
        snprintf(t->source, sizeof t->source, "%s", path);
        char line[1024];
        while (!failed && fgets(line, sizeof line, f)) {
            size_t len = strcspn(line, "\n");
            int whole = line[len] == '\n' || feof(f);
            line[len] = '\0';
            if (!whole) {   /* a line longer than a kernel symbol can be: skip it */
                int c;
                while ((c = fgetc(f)) != EOF && c != '\n')
                    ;
                continue;
            }
            char *end;
            unsigned long long addr = strtoull(line, &end, 16);
            if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
                continue;
            char type = end[1];
            const char *name = end + 3;
            char up = (char)toupper((unsigned char)type);
            if ((up != 'T' && up != 'W' && up != 'D' && up != 'B') || name[0] == '$')
                continue;
            uint8_t bind = up == 'W' ? STB_WEAK : isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
            uint8_t kind = up == 'T' || up == 'W' ? STT_FUNC : STT_OBJECT;
            if (symbol_table_add(t, addr, 0, bind, kind, name, strlen(name)) != 0)
                failed = 1;
        }
        fclose(f);
    }
    if (!failed && t->in_tree) {
        symbol_table_fixup_end(t, 1);
        symbol_table_fixup_duplicates(t);
        for (size_t i = 0; i < t->nsymbols; i++) {   /* "name\t[module]" -> "name" */
            char *tab = strchr(t->names + t->symbols[i].name, '\t');
            if (tab)
                *tab = '\0';
        }
    }
    if (failed || symbol_table_build_ranges(t) != 0) {
        symbol_table_free(t);
        return NULL;
    }
    return t;
}

struct symbol_table *symbol_table_open_kallsyms(void)
{
    return symbol_table_open_kallsyms_file("/proc/kallsyms");
}

/* ---- the vdso ------------------------------------------------------------------------------ */

/*
 * perf script names [vdso] frames with the symbols of its own process's
 * vdso (vdso.c: __machine__findnew_vdso copies it to a temporary file),
 * which is the recorded one when the kernel is the same; so does this:
 * the image at AT_SYSINFO_EHDR, as long as /proc/self/maps says its
 * mapping is, copied to a temporary file and read as an object.
 */
struct symbol_table *symbol_table_open_vdso(void)
{
    uint64_t base = getauxval(AT_SYSINFO_EHDR), size = 0;
    FILE *maps = base ? fopen("/proc/self/maps", "r") : NULL;
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long long start, end;
        if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &start, &end) == 2 && start == base && end > start)
            size = end - start;
    }
    if (maps)
        fclose(maps);
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/dwcheck-vdso.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = size ? mkstemp(path) : -1;
    int written = fd >= 0 && write(fd, (const void *)(uintptr_t)base, size) == (ssize_t)size;
    if (fd >= 0)
        close(fd);
    struct symbol_table *t = symbol_table_open(written ? path : "", NULL, 0);
    if (fd >= 0)
        unlink(path);
    if (t && written)
        snprintf(t->source, sizeof t->source, "[vdso]");
    return t;
}

/* ---- lookups -------------------------------------------------------------------------- */

/* The address perf looks up and prints for own address ADDR: its file
 * offset, by the PT_LOAD that holds it (else the last one below it). */
static uint64_t perf_address(const struct symbol_table *t, uint64_t addr)
{
    const struct segment *best = NULL;
    for (size_t i = 0; i < t->nsegments; i++) {
        const struct segment *s = &t->segments[i];
        if (addr >= s->vaddr && addr - s->vaddr < s->memsz)
            return addr - s->vaddr + s->offset;
        if (addr >= s->vaddr && (!best || s->vaddr > best->vaddr))
            best = s;
    }
    return best ? addr - best->vaddr + best->offset : addr;
}

uint64_t symbol_table_printed_address(const struct symbol_table *t, uint64_t addr)
{
    return t ? perf_address(t, addr) : addr;
}

/* How many of the N ranges at BASE (STRIDE bytes apart, each starting
 * with its start address, in increasing order) start at or before AT. */
static size_t ranges_through(const void *base, size_t n, size_t stride, uint64_t at)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t start;
        memcpy(&start, (const char *)base + mid * stride, sizeof start);
        if (start <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int symbol_table_lookup(const struct symbol_table *t, uint64_t addr, const char **name, uint64_t *offset)
{
    if (!t || !t->nranges)
        return -1;
    uint64_t at = perf_address(t, addr);
    if (t->stored_ranges) {
        size_t lo = ranges_through(t->stored_ranges, t->nranges, sizeof *t->stored_ranges, at);
        const struct stored_range *r = lo ? &t->stored_ranges[lo - 1] : NULL;
        if (!r || r->name == STORED_NO_NAME)
            return -1;
        *name = t->stored_names + r->name;
        *offset = at - r->symbol_start;
        return 0;
    }
    size_t lo = ranges_through(t->ranges, t->nranges, sizeof *t->ranges, at);
    if (lo == 0 || t->ranges[lo - 1].symbol == NONE)
        return -1;
    const struct symbol *s = &t->symbols[t->ranges[lo - 1].symbol];
    *name = t->names + s->name;
    *offset = at - s->start;
    return 0;
}

size_t symbol_table_count(const struct symbol_table *t)
{
    return t ? t->in_tree : 0;
}

const char *symbol_table_source(const struct symbol_table *t)
{
    return t ? t->source : "";
}

void symbol_table_free(struct symbol_table *t)
{
    if (!t)
        return;
    free(t->symbols);
    free(t->names);
    free(t->ranges);
    free(t->segments);
    if (t->map)
        munmap(t->map, t->map_size);
    free(t);
}
