/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_layout: place a copy's new bytes (elf_layout.h; the layout in
 * elf_rewrite.h).
 */
#include "elf_layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "checked_math.h"
#include "sys/error.h"

#define PAGE 0x1000u
#define PHDR_SIZE ELF_PHDR_SIZE
#define SHDR_SIZE ELF_SHDR_SIZE
#define MAX_PHDRS ELF_MAX_PHDRS
#define ORIG_SUFFIX ".orig"
#define MAX_ORIG 99
/* Linux maps nothing below vm.mmap_min_addr, 64 KiB by default. */
#define LOWEST_MAPPABLE 0x10000u
/* The top of x86_64's user address space (4-level paging); no input's
 * segment or file offset lies past it, so sums of them fit an int64_t. */
#define USER_TOP 0x7ffffffff000ull

void elf_layout_release(struct elf_layout *l)
{
    free(l->phdrs);
    free(l->sec_offset);
    free(l->names);
    free(l->name_at);
    free(l->orig_at);
    memset(l, 0, sizeof *l);
}

const char *elf_layout_section_name(struct elf_file *ef, size_t shstrndx, size_t index)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(ef->elf, index);
    const char *name = scn && gelf_getshdr(scn, &sh) ? elf_strptr(ef->elf, shstrndx, sh.sh_name) : NULL;
    return name ? name : "";
}

/* What elf_file_open checks, again (EF may come from elf_file_open_object),
 * and what this module needs besides: the entry sizes it writes, the
 * section headers, no extended numbering. */
static int check_input(struct elf_file *ef, struct elf_layout *l, char *err, size_t errlen)
{
    const GElf_Ehdr *eh = &ef->ehdr;
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
        eh->e_machine != EM_X86_64)
        return error_set(err, errlen, "not a little-endian ELF64 x86_64 file");
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
        return error_set(err, errlen, "not an executable or shared object (ET_EXEC, ET_DYN): "
                         "only linked files are rewritten");
    if (eh->e_shoff == 0 || eh->e_shnum == 0)
        return error_set(err, errlen, "no section headers: the new sections could not be named");
    if (eh->e_phnum == PN_XNUM || eh->e_shstrndx == SHN_XINDEX)
        return error_set(err, errlen, "extended section or program header numbering is not supported");
    if (eh->e_phentsize != PHDR_SIZE || eh->e_shentsize != SHDR_SIZE)
        return error_set(err, errlen, "unexpected program or section header entry size (%u, %u)",
                         eh->e_phentsize, eh->e_shentsize);
    if (eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= eh->e_shnum)
        return error_set(err, errlen, "no section name table (e_shstrndx %u)", eh->e_shstrndx);
    size_t shnum;
    if (elf_getshdrnum(ef->elf, &shnum) != 0 || shnum != eh->e_shnum || ef->nphdrs != eh->e_phnum)
        return error_set(err, errlen, "cannot read the section or program headers: %s", elf_errmsg(-1));
    struct stat st;
    if (fstat(ef->fd, &st) != 0)
        return error_set(err, errlen, "%s", strerror(errno));
    l->file_size = (uint64_t)st.st_size;
    l->shnum = shnum;
    l->shstrndx = eh->e_shstrndx;
    return 0;
}

static int check_new_sections(const struct elf_new_section *secs, size_t n, char *err, size_t errlen)
{
    if (n == 0)
        return error_set(err, errlen, "no section to add");
    for (size_t i = 0; i < n; i++) {
        if (!secs[i].name || !secs[i].name[0])
            return error_set(err, errlen, "new section %zu has no name", i);
        uint64_t a = secs[i].align;
        if (a == 0 || (a & (a - 1)) || a > PAGE)
            return error_set(err, errlen, "section %s: alignment %#llx is not a power of two up to "
                             "a page", secs[i].name, (unsigned long long)a);
        for (size_t j = 0; j < i; j++)
            if (strcmp(secs[i].name, secs[j].name) == 0)
                return error_set(err, errlen, "two new sections named %s", secs[i].name);
    }
    return 0;
}

/* What the new segments' places depend on: the first PT_LOAD's address and
 * p_vaddr - p_offset (DELTA, which may be negative: a segment an earlier
 * repair put below an ET_EXEC's), and the end of the highest. */
struct loads {
    uint64_t first_addr, last_addr, end;
    int64_t delta;
};

static int read_loads(const struct elf_file *ef, uint64_t file_size, struct loads *ld, char *err, size_t errlen)
{
    int seen = 0;
    memset(ld, 0, sizeof *ld);
    for (size_t i = 0; i < ef->nphdrs; i++) {
        const GElf_Phdr *p = &ef->phdrs[i];
        if (p->p_type != PT_LOAD)
            continue;
        uint64_t file_end, mem_end;
        if (!checked_add(p->p_offset, p->p_filesz, &file_end) || file_end > file_size)
            return error_set(err, errlen, "truncated file: segment %zu lies past the end of the file", i);
        if (!checked_add(p->p_vaddr, p->p_memsz, &mem_end) || p->p_filesz > p->p_memsz)
            return error_set(err, errlen, "corrupt program header %zu: its addresses wrap around or "
                             "hold less than its file bytes", i);
        if (mem_end > USER_TOP)
            return error_set(err, errlen, "segment %zu lies past the user address space", i);
        if (seen && p->p_vaddr < ld->last_addr)
            return error_set(err, errlen, "PT_LOAD %zu lies below the one before it: the ELF specification "
                             "sorts them by address, and new ones could not be placed among them", i);
        ld->last_addr = p->p_vaddr;
        if (!seen) {
            /* A new segment may keep this difference (elf_rewrite.h); it must
             * be a whole number of pages for the loaders to map it. */
            ld->delta = (int64_t)p->p_vaddr - (int64_t)p->p_offset;   /* both below 2^62 */
            if (ld->delta % (int64_t)PAGE)
                return error_set(err, errlen, "the first PT_LOAD's address and offset differ by "
                                 "no whole number of pages");
            ld->first_addr = p->p_vaddr;
        }
        seen = 1;
        if (mem_end > ld->end)
            ld->end = mem_end;
    }
    return seen ? 0 : error_set(err, errlen, "no PT_LOAD segment");
}

/* The end of the last page of the PT_LOADs of EF whose pages SIZE bytes
 * at ADDR would share; 0 when none. */
static uint64_t pages_taken_until(const struct elf_file *ef, uint64_t addr, uint64_t size)
{
    uint64_t lo = addr / PAGE * PAGE, hi = (addr + size + PAGE - 1) / PAGE * PAGE, until = 0;
    for (size_t i = 0; i < ef->nphdrs; i++) {
        const GElf_Phdr *p = &ef->phdrs[i];
        uint64_t end = (p->p_vaddr + p->p_memsz + PAGE - 1) / PAGE * PAGE;   /* below USER_TOP */
        if (p->p_type == PT_LOAD && p->p_vaddr / PAGE * PAGE < hi && lo < end && end > until)
            until = end;
    }
    return until;
}

/* Whether SIZE bytes at ADDR take pages no PT_LOAD of EF takes, at FLOOR
 * or above and within the user address space. */
static int pages_free(const struct elf_file *ef, int64_t addr, uint64_t size, uint64_t floor)
{
    return addr >= 0 && size <= USER_TOP && (uint64_t)addr / PAGE * PAGE >= floor &&
           (uint64_t)addr <= USER_TOP - size && pages_taken_until(ef, (uint64_t)addr, size) == 0;
}

/* The least offset T >= FROM, 8-aligned, at which SIZE bytes mapped at T +
 * DELTA take free pages (pages_free): a PT_LOAD in the way moves T past its
 * last page.  0, or -1 when none is left below the user address space. */
static int first_free_offset(const struct elf_file *ef, uint64_t from, uint64_t size, int64_t delta,
                             uint64_t floor, uint64_t *t)
{
    int64_t at = (int64_t)from;
    if (at + delta < (int64_t)floor)
        at = (int64_t)floor - delta;
    at = (at + 7) / 8 * 8;
    /* Each turn moves past a PT_LOAD: at most one turn each. */
    for (size_t turns = 0; turns <= ef->nphdrs; turns++) {
        if (pages_free(ef, at + delta, size, floor)) {
            *t = (uint64_t)at;
            return 0;
        }
        uint64_t past = (uint64_t)(at + delta) <= USER_TOP - size
                            ? pages_taken_until(ef, (uint64_t)(at + delta), size) : 0;
        if (past == 0)
            return -1;
        at = (int64_t)past - delta;
    }
    return -1;
}

static int has_phdr(const struct elf_file *ef, uint32_t type)
{
    for (size_t i = 0; i < ef->nphdrs; i++)
        if (ef->phdrs[i].p_type == type)
            return 1;
    return 0;
}

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME 0x6474e554   /* binutils 2.40's elf/common.h; not in every <elf.h> */
#endif

/* The new sections a program header locates, so that loaders and
 * unwinders find them without section headers: its type and alignment. */
static const struct {
    const char *section;
    uint32_t type;
    uint64_t align;
} located[] = {
    {".eh_frame_hdr", PT_GNU_EH_FRAME, 4},
    {".sframe", PT_GNU_SFRAME, 8},
};
#define NLOCATED (sizeof located / sizeof located[0])

/* The index in SECS of the new section named NAME, or -1. */
static long new_section(const struct elf_new_section *secs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(secs[i].name, name) == 0)
            return (long)i;
    return -1;
}

/* Whether the table needs a new entry for located[K]: its section is new
 * and the input has no such entry to re-point. */
static int adds_phdr(const struct elf_file *ef, const struct elf_new_section *secs, size_t n, size_t k)
{
    return new_section(secs, n, located[k].section) >= 0 && !has_phdr(ef, located[k].type);
}

/* Whether the table needs a PT_PHDR first: a shared object that has none.
 * ld.so (glibc) then takes the table from it, instead of the first PT_LOAD
 * that maps e_phoff with its pages: the last page of the input's data
 * segment may map where the table now lies, and be .bss in memory. */
static int adds_pt_phdr(const struct elf_file *ef)
{
    return ef->ehdr.e_type == ET_DYN && !has_phdr(ef, PT_PHDR);
}

/* Whether EF names a library it needs (DT_NEEDED in its SHT_DYNAMIC). */
static int needs_libraries(struct elf_file *ef)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || sh.sh_entsize == 0)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        GElf_Dyn dyn;
        for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize && gelf_getdyn(d, (int)i, &dyn); i++)
            if (dyn.d_tag == DT_NEEDED)
                return 1;
    }
    return 0;
}

/* Whether the kernel may run EF, or EF read its own program headers at its
 * base + e_phoff: an ET_EXEC, a file with PT_INTERP, or one with an entry
 * point that needs no library (ld.so, a static PIE; a library some linkers
 * gave an entry point needs libc).  Its table must then be at the first
 * PT_LOAD's p_vaddr - p_offset + e_phoff (elf_rewrite.h). */
static int may_run(struct elf_file *ef)
{
    return ef->ehdr.e_type == ET_EXEC || has_phdr(ef, PT_INTERP) ||
           (ef->ehdr.e_entry != 0 && !needs_libraries(ef));
}

/* Point the entries of the new table that describe it, and those that
 * locate a new section (PT_GNU_EH_FRAME, PT_GNU_SFRAME), at their new places. */
static void retarget_phdrs(struct elf_layout *l, const struct elf_new_section *secs, size_t n)
{
    for (size_t i = 0; i < l->nphdrs; i++) {
        GElf_Phdr *p = &l->phdrs[i];
        if (p->p_type == PT_PHDR) {
            p->p_offset = l->phdr_offset;
            p->p_vaddr = p->p_paddr = l->phdr_addr;
            p->p_filesz = p->p_memsz = l->nphdrs * PHDR_SIZE;
        }
        for (size_t k = 0; k < NLOCATED; k++) {
            long s = new_section(secs, n, located[k].section);
            if (p->p_type != located[k].type || s < 0)
                continue;
            p->p_offset = l->sec_offset[s];
            p->p_vaddr = p->p_paddr = l->seg_addr + (l->sec_offset[s] - l->seg_offset);
            p->p_filesz = p->p_memsz = secs[s].size;
        }
    }
}

/* The new program header table: a PT_PHDR first when adds_pt_phdr, the
 * input's entries with each new PT_LOAD before the first PT_LOAD above it
 * (after the last when none is), so that they stay sorted by address, and
 * at the end the PT_GNU_EH_FRAME and PT_GNU_SFRAME the input lacks for its
 * new sections. */
static int build_phdrs(struct elf_layout *l, const struct elf_file *ef, const struct elf_new_section *secs,
                       size_t n, char *err, size_t errlen)
{
    l->phdrs = calloc(l->nphdrs, sizeof *l->phdrs);
    if (!l->phdrs)
        return error_set(err, errlen, "out of memory");
    const uint64_t table_size = l->nphdrs * PHDR_SIZE;
    GElf_Phdr loads[2] = {
        {.p_type = PT_LOAD, .p_flags = PF_R, .p_offset = l->phdr_offset, .p_vaddr = l->phdr_addr,
         .p_paddr = l->phdr_addr, .p_filesz = table_size, .p_memsz = table_size, .p_align = PAGE},
        {.p_type = PT_LOAD, .p_flags = PF_R, .p_offset = l->seg_offset, .p_vaddr = l->seg_addr,
         .p_paddr = l->seg_addr, .p_filesz = l->seg_size, .p_memsz = l->seg_size, .p_align = PAGE},
    };
    size_t next = l->phdr_apart ? 0 : 1, last_load = 0, k = 0;   /* the table's first, when apart: lower */
    for (size_t i = 0; i < ef->nphdrs; i++)
        if (ef->phdrs[i].p_type == PT_LOAD)
            last_load = i;
    if (adds_pt_phdr(ef))
        l->phdrs[k++] = (GElf_Phdr){.p_type = PT_PHDR, .p_flags = PF_R, .p_align = 8};
    for (size_t i = 0; i < ef->nphdrs; i++) {
        const GElf_Phdr *p = &ef->phdrs[i];
        while (next < 2 && p->p_type == PT_LOAD && p->p_vaddr > loads[next].p_vaddr)
            l->phdrs[k++] = loads[next++];
        l->phdrs[k++] = *p;
        while (next < 2 && i == last_load)
            l->phdrs[k++] = loads[next++];
    }
    for (size_t j = 0; j < NLOCATED; j++)
        if (adds_phdr(ef, secs, n, j))
            l->phdrs[k++] = (GElf_Phdr){.p_type = located[j].type, .p_flags = PF_R, .p_align = located[j].align};
    return 0;
}

/* Each new section's offset from START, the segment's size from
 * l->seg_offset. */
static int place_sections(struct elf_layout *l, const struct elf_new_section *secs, size_t n, uint64_t start,
                          char *err, size_t errlen)
{
    uint64_t off = start;
    for (size_t i = 0; i < n; i++)
        if (!checked_align(off, secs[i].align, &l->sec_offset[i]) ||
            !checked_add(l->sec_offset[i], secs[i].size, &off) || off > INT64_MAX)
            return error_set(err, errlen, "section %s does not fit the file", secs[i].name);
    l->seg_size = off - l->seg_offset;
    return 0;
}

/* The address, in *ADDR, of a segment of SIZE bytes at OFFSET ending in the
 * pages below the first PT_LOAD's, and not below LOWEST_MAPPABLE: 0, or -1
 * when it does not fit there. */
static int below_first_load(uint64_t first_addr, uint64_t offset, uint64_t size, uint64_t *addr)
{
    uint64_t in_page = offset % PAGE, pages;
    if (!checked_align(in_page + size, PAGE, &pages) || first_addr / PAGE * PAGE < LOWEST_MAPPABLE + pages)
        return -1;
    *addr = first_addr / PAGE * PAGE - pages + in_page;
    return 0;
}

/* The copy of .shstrtab at START, then the section header table, 8-aligned,
 * unless it stays in place: their end in *END. */
static int place_names(struct elf_layout *l, size_t n, uint64_t start, uint64_t *end, char *err, size_t errlen)
{
    l->str_offset = start;
    if (!checked_add(l->str_offset, l->str_size, end) ||
        (!l->shdr_in_place && (!checked_align(*end, 8, &l->shdr_offset) ||
                               !checked_add(l->shdr_offset, (uint64_t)(l->shnum + n) * SHDR_SIZE, end))) ||
        *end > INT64_MAX)
        return error_set(err, errlen, "the output would be too large");
    return 0;
}

/* Where the new bytes go, from TAIL on (elf_rewrite.h): the segment, the
 * program header table, the names, the section headers. */
static int place_new_bytes(struct elf_layout *l, struct elf_file *ef, const struct elf_new_section *secs,
                           size_t n, uint64_t tail, char *err, size_t errlen)
{
    struct loads ld;
    uint64_t end_page, names_end;
    if (read_loads(ef, l->file_size, &ld, err, errlen) != 0)
        return -1;
    l->sec_offset = calloc(n, sizeof *l->sec_offset);
    if (!l->sec_offset)
        return error_set(err, errlen, "out of memory");
    l->nphdrs = ef->nphdrs + 1 + (size_t)adds_pt_phdr(ef);   /* the new PT_LOAD, a PT_PHDR */
    for (size_t k = 0; k < NLOCATED; k++)
        l->nphdrs += (size_t)adds_phdr(ef, secs, n, k);
    /* O: the tail, 8-aligned (a segment's offset need only equal its
     * address modulo the page).  New segments lie above the first PT_LOAD's
     * page (an ET_DYN's stays first) or, in an ET_EXEC, anywhere mappable. */
    if (!checked_align(tail, 8, &l->seg_offset) || l->seg_offset > USER_TOP || !checked_align(ld.end, PAGE, &end_page))
        return error_set(err, errlen, "the file or its segments reach the end of the address space");
    const uint64_t floor = ef->ehdr.e_type == ET_EXEC ? LOWEST_MAPPABLE : ld.first_addr / PAGE * PAGE;
    const uint64_t in_page = l->seg_offset % PAGE;
    const int64_t o_addr = (int64_t)l->seg_offset + ld.delta;
    if (place_sections(l, secs, n, l->seg_offset + l->nphdrs * PHDR_SIZE, err, errlen) != 0)
        return -1;
    l->phdr_offset = l->seg_offset;
    if (!may_run(ef)) {
        /* A library: the table at the segment's start, at O + delta when
         * those pages are free, else in the first page above the segments. */
        l->seg_addr = pages_free(ef, o_addr, l->seg_size, floor) ? (uint64_t)o_addr : end_page + in_page;
    } else if (ef->ehdr.e_type == ET_EXEC &&
               below_first_load(ld.first_addr, l->seg_offset, l->seg_size, &l->seg_addr) == 0 &&
               pages_free(ef, (int64_t)l->seg_addr, l->seg_size, floor)) {
        /* The new first PT_LOAD, with the table at its start. */
    } else if (pages_free(ef, o_addr, l->seg_size, floor)) {
        l->seg_addr = (uint64_t)o_addr;   /* the table at O + delta: above the segments, or between them */
    } else {
        /* The table in a PT_LOAD of its own at T + delta, T past the
         * sections and names, which so fill the pages up to it; a hole for
         * what they do not fill.  The sections' PT_LOAD above every other. */
        l->phdr_apart = 1;
        l->nphdrs++;
        uint64_t table_end;
        if (place_sections(l, secs, n, l->seg_offset, err, errlen) != 0 ||
            place_names(l, n, l->seg_offset + l->seg_size, &names_end, err, errlen) != 0)
            return -1;
        if (first_free_offset(ef, names_end, l->nphdrs * PHDR_SIZE, ld.delta, floor, &l->phdr_offset) != 0)
            return error_set(err, errlen, "no pages left for the program headers in the address space");
        l->hole = l->phdr_offset - ((names_end + 7) / 8 * 8);
        l->phdr_addr = (uint64_t)((int64_t)l->phdr_offset + ld.delta);
        table_end = l->phdr_addr + l->nphdrs * PHDR_SIZE;
        l->seg_addr = ((table_end > end_page ? table_end : end_page) + PAGE - 1) / PAGE * PAGE + in_page;
    }
    if (!l->phdr_apart) {
        l->phdr_addr = l->seg_addr;
        if (place_names(l, n, l->seg_offset + l->seg_size, &names_end, err, errlen) != 0)
            return -1;
    }
    if (l->nphdrs > MAX_PHDRS)
        return error_set(err, errlen, "%zu program headers: Linux loads at most %u", l->nphdrs,
                         (unsigned)MAX_PHDRS);
    if (l->seg_size > USER_TOP || l->seg_addr > USER_TOP - l->seg_size || l->phdr_offset > USER_TOP)
        return error_set(err, errlen, "the new segment does not fit the address space");
    if (build_phdrs(l, ef, secs, n, err, errlen) != 0)
        return -1;
    retarget_phdrs(l, secs, n);
    return 0;
}

/* In OUT (room for NAME.origNN), the name an input's section NAME takes:
 * NAME.orig, or NAME.orig2 ... NAME.orig99 when a repaired file's own
 * NAME.orig is there.  -1 when they all are. */
static int orig_name(struct elf_file *ef, const struct elf_layout *l, const char *name, char *out)
{
    for (int k = 1; k <= MAX_ORIG; k++) {
        if (k == 1)
            sprintf(out, "%s" ORIG_SUFFIX, name);
        else
            sprintf(out, "%s" ORIG_SUFFIX "%d", name, k);
        size_t j = 1;
        while (j < l->shnum && strcmp(elf_layout_section_name(ef, l->shstrndx, j), out) != 0)
            j++;
        if (j == l->shnum)
            return 0;
    }
    return -1;
}

/* The copy of .shstrtab (struct elf_layout): the input's bytes, then a NUL,
 * each new section's name, and NAME.orig for the input's section it
 * replaces. */
static int build_names(struct elf_layout *l, struct elf_file *ef, const struct elf_new_section *secs,
                       size_t n, char *err, size_t errlen)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(ef->elf, l->shstrndx);
    uint64_t str_end;
    if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB || (sh.sh_flags & SHF_ALLOC))
        return error_set(err, errlen, "section %zu is no section name table", l->shstrndx);
    if (!checked_add(sh.sh_offset, sh.sh_size, &str_end) || str_end > l->file_size)
        return error_set(err, errlen, "truncated file: the section name table lies past its end");
    l->str_in_offset = sh.sh_offset;
    l->str_in_size = sh.sh_size;
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += 2 * strlen(secs[i].name) + sizeof ORIG_SUFFIX + 2 + 1;   /* NAME, NAME.origNN */
    l->names = malloc(cap);
    l->name_at = calloc(n, sizeof *l->name_at);
    l->orig_at = calloc(n, sizeof *l->orig_at);
    if (!l->names || !l->name_at || !l->orig_at)
        return error_set(err, errlen, "out of memory");
    if (sh.sh_size + cap > UINT32_MAX)   /* sh_name is 32 bits */
        return error_set(err, errlen, "the section name table would be too large");
    size_t k = 0;
    l->names[k++] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(secs[i].name);
        l->name_at[i] = (uint32_t)(sh.sh_size + k);
        memcpy(l->names + k, secs[i].name, len + 1);
        k += len + 1;
        for (size_t j = 1; j < l->shnum && !l->orig_at[i]; j++)
            if (strcmp(elf_layout_section_name(ef, l->shstrndx, j), secs[i].name) == 0) {
                if (orig_name(ef, l, secs[i].name, l->names + k) != 0)
                    return error_set(err, errlen, "sections %s.orig to %s.orig%d are all taken", secs[i].name,
                                     secs[i].name, MAX_ORIG);
                l->orig_at[i] = (uint32_t)(sh.sh_size + k);
                k += strlen(l->names + k) + 1;
            }
    }
    l->names_len = k;
    l->str_size = sh.sh_size + k;
    if (l->shnum + n >= SHN_LORESERVE)
        return error_set(err, errlen, "too many sections (%zu)", l->shnum + n);
    return 0;
}

/* Where the new bytes may start: past the section header table when it
 * stays in place, as the input's last bytes (8-aligned, no byte after
 * it) so that its new entries follow it; else at the input's end. */
static uint64_t place_section_headers(struct elf_layout *l, const struct elf_file *ef, size_t n)
{
    uint64_t table_end;
    l->shdr_in_place = ef->ehdr.e_shoff % 8 == 0 &&
                       checked_add(ef->ehdr.e_shoff, (uint64_t)l->shnum * SHDR_SIZE, &table_end) &&
                       table_end == l->file_size;
    if (!l->shdr_in_place)
        return l->file_size;
    l->shdr_offset = ef->ehdr.e_shoff;
    return table_end + (uint64_t)n * SHDR_SIZE;
}

int elf_layout_plan(struct elf_file *ef, const struct elf_new_section *secs, size_t n,
                       struct elf_layout *l, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    if (check_input(ef, l, err, errlen) != 0 || check_new_sections(secs, n, err, errlen) != 0 ||
        build_names(l, ef, secs, n, err, errlen) != 0 ||
        place_new_bytes(l, ef, secs, n, place_section_headers(l, ef, n), err, errlen) != 0) {
        elf_layout_release(l);
        return -1;
    }
    return 0;
}
