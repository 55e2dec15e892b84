/*
 * elf_rewrite: place new sections in a new segment at the end of a copy of
 * an ELF file, and write the copy (elf_rewrite.h shows the layout).
 *
 * Every number read from the file that places or sizes something is
 * checked against the file's size, and every sum of them against
 * overflow, before it is used.  The program and section headers are
 * encoded here field by field (little-endian, whatever the host).
 */
#include "elf_rewrite.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checked_math.h"
#include "error.h"
#include "output_file.h"

#define PAGE 0x1000u
#define PHDR_SIZE 56u            /* sizeof(Elf64_Phdr) */
#define SHDR_SIZE 64u            /* sizeof(Elf64_Shdr) */
/* Linux's binfmt_elf reads at most a page of program headers. */
#define MAX_PHDRS (PAGE / PHDR_SIZE)
#define ORIG_SUFFIX ".orig"
#define CHUNK (1u << 16)

/* Where everything goes; computed alike by both phases. */
struct layout {
    uint64_t file_size;
    uint64_t seg_offset, seg_addr, seg_size;
    GElf_Phdr *phdrs;            /* the new program header table */
    size_t nphdrs;
    uint64_t *sec_offset;        /* of each new section */
    size_t shnum, shstrndx;      /* the input's section count (with index 0), .shstrtab's index */
    uint64_t str_in_offset, str_in_size;   /* the input's .shstrtab */
    uint64_t str_offset, str_size;         /* its copy: the input's bytes, then NAMES */
    char *names;                 /* a NUL (the input's last name may lack one), each new NAME, NAME.orig */
    size_t names_len;
    uint32_t *name_at;           /* each new section's name in the copy */
    uint32_t *orig_at;           /* its NAME.orig, 0 when no section of the input is named NAME */
    uint64_t shdr_offset;        /* the section header table */
};

static void layout_release(struct layout *l)
{
    free(l->phdrs);
    free(l->sec_offset);
    free(l->names);
    free(l->name_at);
    free(l->orig_at);
    memset(l, 0, sizeof *l);
}

/* The name of section INDEX, or "" when it has none that can be read. */
static const char *section_name(struct elf_file *ef, size_t shstrndx, size_t index)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(ef->elf, index);
    const char *name = scn && gelf_getshdr(scn, &sh) ? elf_strptr(ef->elf, shstrndx, sh.sh_name) : NULL;
    return name ? name : "";
}

/* What elf_file_open checks, again (EF may come from elf_file_open_object),
 * and what this module needs besides: the entry sizes it writes, the
 * section headers, no extended numbering. */
static int check_input(struct elf_file *ef, struct layout *l, char *err, size_t errlen)
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

/* The first PT_LOAD's p_vaddr - p_offset in *BIAS, the end of the highest
 * one in *END, the index of the last one in *LAST. */
static int read_loads(const struct elf_file *ef, uint64_t file_size, uint64_t *bias, uint64_t *end,
                      size_t *last, char *err, size_t errlen)
{
    int seen = 0;
    *end = 0;
    for (size_t i = 0; i < ef->nphdrs; i++) {
        const GElf_Phdr *p = &ef->phdrs[i];
        if (p->p_type != PT_LOAD)
            continue;
        uint64_t file_end, mem_end;
        if (!add_ok(p->p_offset, p->p_filesz, &file_end) || file_end > file_size)
            return error_set(err, errlen, "truncated file: segment %zu lies past the end of the file", i);
        if (!add_ok(p->p_vaddr, p->p_memsz, &mem_end) || p->p_filesz > p->p_memsz)
            return error_set(err, errlen, "corrupt program header %zu: its addresses wrap around or "
                             "hold less than its file bytes", i);
        if (!seen) {
            /* The new segment keeps this difference (elf_rewrite.h); it must be
             * a whole number of pages for the loaders to map it. */
            if (p->p_vaddr < p->p_offset || (p->p_vaddr - p->p_offset) % PAGE)
                return error_set(err, errlen, "the first PT_LOAD's address and offset differ by "
                                 "no whole number of pages");
            *bias = p->p_vaddr - p->p_offset;
        }
        seen = 1;
        *last = i;
        if (mem_end > *end)
            *end = mem_end;
    }
    return seen ? 0 : error_set(err, errlen, "no PT_LOAD segment");
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

/* Point the entries of the new table that describe it, and those that
 * locate a new section (PT_GNU_EH_FRAME, PT_GNU_SFRAME), at their new places. */
static void retarget_phdrs(struct layout *l, const struct elf_new_section *secs, size_t n)
{
    for (size_t i = 0; i < l->nphdrs; i++) {
        GElf_Phdr *p = &l->phdrs[i];
        if (p->p_type == PT_PHDR) {
            p->p_offset = l->seg_offset;
            p->p_vaddr = p->p_paddr = l->seg_addr;
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

/* The new program header table: the input's, the new PT_LOAD after the
 * last PT_LOAD, and at the end the PT_GNU_EH_FRAME and PT_GNU_SFRAME the
 * input lacks for its new sections. */
static int build_phdrs(struct layout *l, const struct elf_file *ef, size_t last_load,
                       const struct elf_new_section *secs, size_t n, char *err, size_t errlen)
{
    l->phdrs = calloc(l->nphdrs, sizeof *l->phdrs);
    if (!l->phdrs)
        return error_set(err, errlen, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < ef->nphdrs; i++) {
        l->phdrs[k++] = ef->phdrs[i];
        if (i == last_load)
            l->phdrs[k++] = (GElf_Phdr){.p_type = PT_LOAD, .p_flags = PF_R, .p_offset = l->seg_offset,
                                        .p_vaddr = l->seg_addr, .p_paddr = l->seg_addr,
                                        .p_filesz = l->seg_size, .p_memsz = l->seg_size, .p_align = PAGE};
    }
    for (size_t j = 0; j < NLOCATED; j++)
        if (adds_phdr(ef, secs, n, j))
            l->phdrs[k++] = (GElf_Phdr){.p_type = located[j].type, .p_flags = PF_R, .p_align = located[j].align};
    return 0;
}

/* The new segment: at O and V (elf_rewrite.h), the table then SECS. */
static int place_segment(struct layout *l, const struct elf_file *ef, const struct elf_new_section *secs,
                         size_t n, char *err, size_t errlen)
{
    uint64_t bias = 0, load_end, end_page, off;
    size_t last_load = 0;
    if (read_loads(ef, l->file_size, &bias, &load_end, &last_load, err, errlen) != 0)
        return -1;
    l->nphdrs = ef->nphdrs + 1;   /* the new PT_LOAD */
    for (size_t k = 0; k < NLOCATED; k++)
        l->nphdrs += (size_t)adds_phdr(ef, secs, n, k);
    if (l->nphdrs > MAX_PHDRS)
        return error_set(err, errlen, "%zu program headers: Linux loads at most %u", l->nphdrs,
                         (unsigned)MAX_PHDRS);
    /* O: the file's end, 8-aligned (a segment's offset need only equal its
     * address modulo the page).  The segment's first page must lie past
     * every segment's last, END_PAGE. */
    if (!align_ok(l->file_size, 8, &l->seg_offset) || !align_ok(load_end, PAGE, &end_page) ||
        end_page > UINT64_MAX - PAGE || end_page < bias)
        return error_set(err, errlen, "the file or its segments reach the end of the address space");
    /* A shared library that is no program (no PT_INTERP) is only mapped by
     * ld.so, which finds the program headers in the PT_LOAD that holds
     * e_phoff: V is then the first page above the segments, and no hole
     * grows the file past a large .bss.  What the kernel may run keeps
     * V = O + bias (elf_rewrite.h). */
    int library = ef->ehdr.e_type == ET_DYN && !has_phdr(ef, PT_INTERP);
    if (!library && end_page - bias > l->seg_offset)   /* V = O + bias must lie above every segment */
        l->seg_offset = end_page - bias;               /* a hole: O and V at a page start */
    uint64_t in_page = l->seg_offset % PAGE;
    l->sec_offset = calloc(n, sizeof *l->sec_offset);
    if (!l->sec_offset)
        return error_set(err, errlen, "out of memory");
    if (!add_ok(l->seg_offset, l->nphdrs * PHDR_SIZE, &off))
        return error_set(err, errlen, "the new segment does not fit the file");
    for (size_t i = 0; i < n; i++)
        if (!align_ok(off, secs[i].align, &l->sec_offset[i]) ||
            !add_ok(l->sec_offset[i], secs[i].size, &off) || off > INT64_MAX)
            return error_set(err, errlen, "section %s does not fit the file", secs[i].name);
    l->seg_size = off - l->seg_offset;
    uint64_t seg_end;
    if (!add_ok(l->seg_offset, bias, &l->seg_addr))
        return error_set(err, errlen, "the new segment does not fit the address space");
    if (library && l->seg_addr - in_page < end_page)
        l->seg_addr = end_page + in_page;
    if (!add_ok(l->seg_addr, l->seg_size, &seg_end))
        return error_set(err, errlen, "the new segment does not fit the address space");
    if (build_phdrs(l, ef, last_load, secs, n, err, errlen) != 0)
        return -1;
    retarget_phdrs(l, secs, n);
    return 0;
}

/* The copy of .shstrtab (struct layout), then the section header table,
 * 8-aligned. */
static int place_names(struct layout *l, struct elf_file *ef, const struct elf_new_section *secs,
                       size_t n, char *err, size_t errlen)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(ef->elf, l->shstrndx);
    uint64_t str_end, end;
    if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB || (sh.sh_flags & SHF_ALLOC))
        return error_set(err, errlen, "section %zu is no section name table", l->shstrndx);
    if (!add_ok(sh.sh_offset, sh.sh_size, &str_end) || str_end > l->file_size)
        return error_set(err, errlen, "truncated file: the section name table lies past its end");
    l->str_in_offset = sh.sh_offset;
    l->str_in_size = sh.sh_size;
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += 2 * strlen(secs[i].name) + sizeof ORIG_SUFFIX + 1;
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
            if (strcmp(section_name(ef, l->shstrndx, j), secs[i].name) == 0) {
                l->orig_at[i] = (uint32_t)(sh.sh_size + k);
                memcpy(l->names + k, secs[i].name, len);
                memcpy(l->names + k + len, ORIG_SUFFIX, sizeof ORIG_SUFFIX);
                k += len + sizeof ORIG_SUFFIX;
            }
    }
    l->names_len = k;
    l->str_size = sh.sh_size + k;
    l->str_offset = l->seg_offset + l->seg_size;
    if (l->shnum + n >= SHN_LORESERVE)
        return error_set(err, errlen, "too many sections (%zu)", l->shnum + n);
    if (!align_ok(l->str_offset + l->str_size, 8, &l->shdr_offset) ||
        !add_ok(l->shdr_offset, (uint64_t)(l->shnum + n) * SHDR_SIZE, &end) || end > INT64_MAX)
        return error_set(err, errlen, "the output would be too large");
    return 0;
}

static int plan_layout(struct elf_file *ef, const struct elf_new_section *secs, size_t n,
                       struct layout *l, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    if (check_input(ef, l, err, errlen) != 0 || check_new_sections(secs, n, err, errlen) != 0 ||
        place_segment(l, ef, secs, n, err, errlen) != 0 || place_names(l, ef, secs, n, err, errlen) != 0) {
        layout_release(l);
        return -1;
    }
    return 0;
}

int elf_rewrite_plan(struct elf_file *ef, struct elf_new_section *secs, size_t n,
                     struct elf_rewrite_segment *seg, char *err, size_t errlen)
{
    struct layout l;
    if (plan_layout(ef, secs, n, &l, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        secs[i].offset = l.sec_offset[i];
        secs[i].addr = l.seg_addr + (l.sec_offset[i] - l.seg_offset);
    }
    if (seg)
        *seg = (struct elf_rewrite_segment){l.seg_offset, l.seg_addr, l.seg_size, l.nphdrs};
    layout_release(&l);
    return 0;
}

/* ---- writing --------------------------------------------------------------- */

/* Write LEN bytes of P at offset OFF of FD (a hole is left before it when
 * OFF lies past the end). */
static int write_at(int fd, uint64_t off, const void *p, size_t len)
{
    const uint8_t *b = p;
    while (len) {
        ssize_t w = pwrite(fd, b, len, (off_t)off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;
            return -1;
        }
        b += w, off += (uint64_t)w, len -= (size_t)w;
    }
    return 0;
}

/* Copy LEN bytes of the input IN at FROM to TO in OUT, a CHUNK at a time
 * through BUF.  A short read means the input changed under us (ENODATA). */
static int copy_at(int out, uint64_t to, int in, uint64_t from, uint64_t len, uint8_t *buf)
{
    while (len) {
        ssize_t r = pread(in, buf, len < CHUNK ? (size_t)len : CHUNK, (off_t)from);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = ENODATA;
            return -1;
        }
        if (write_at(out, to, buf, (size_t)r) != 0)
            return -1;
        from += (uint64_t)r, to += (uint64_t)r, len -= (uint64_t)r;
    }
    return 0;
}

static void put_le(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_phdr(uint8_t *b, const GElf_Phdr *ph)
{
    put_le(b, ph->p_type, 4), put_le(b + 4, ph->p_flags, 4), put_le(b + 8, ph->p_offset, 8);
    put_le(b + 16, ph->p_vaddr, 8), put_le(b + 24, ph->p_paddr, 8), put_le(b + 32, ph->p_filesz, 8);
    put_le(b + 40, ph->p_memsz, 8), put_le(b + 48, ph->p_align, 8);
}

static void put_shdr(uint8_t *b, const GElf_Shdr *sh)
{
    put_le(b, sh->sh_name, 4), put_le(b + 4, sh->sh_type, 4), put_le(b + 8, sh->sh_flags, 8);
    put_le(b + 16, sh->sh_addr, 8), put_le(b + 24, sh->sh_offset, 8), put_le(b + 32, sh->sh_size, 8);
    put_le(b + 40, sh->sh_link, 4), put_le(b + 44, sh->sh_info, 4);
    put_le(b + 48, sh->sh_addralign, 8), put_le(b + 56, sh->sh_entsize, 8);
}

/* The input whole, then the ELF header's fields that locate the tables. */
static int write_input(int fd, struct elf_file *ef, const struct layout *l, size_t n, uint8_t *buf)
{
    uint8_t f[16];
    if (copy_at(fd, 0, ef->fd, 0, l->file_size, buf) != 0)
        return -1;
    put_le(f, l->seg_offset, 8), put_le(f + 8, l->shdr_offset, 8);
    if (write_at(fd, 32, f, 16) != 0)                          /* e_phoff, e_shoff */
        return -1;
    put_le(f, l->nphdrs, 2), put_le(f + 2, l->shnum + n, 2);
    return write_at(fd, 56, f, 2) || write_at(fd, 60, f + 2, 2) ? -1 : 0;   /* e_phnum, e_shnum */
}

/* The new segment: the program header table, then the sections. */
static int write_segment(int fd, const struct layout *l, const struct elf_new_section *secs, size_t n)
{
    uint8_t table[MAX_PHDRS * PHDR_SIZE];
    for (size_t i = 0; i < l->nphdrs; i++)
        put_phdr(table + i * PHDR_SIZE, &l->phdrs[i]);
    if (write_at(fd, l->seg_offset, table, l->nphdrs * PHDR_SIZE) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (write_at(fd, secs[i].offset, secs[i].bytes, secs[i].size) != 0)
            return -1;
    return 0;
}

/* The input's section headers at their indices (renamed, .shstrtab moved),
 * then the new sections'. */
static int write_section_headers(int fd, struct elf_file *ef, const struct layout *l,
                                 const struct elf_new_section *secs, size_t n)
{
    uint8_t b[SHDR_SIZE];
    for (size_t j = 0; j < l->shnum + n; j++) {
        GElf_Shdr sh;
        if (j >= l->shnum) {
            const struct elf_new_section *s = &secs[j - l->shnum];
            sh = (GElf_Shdr){.sh_name = l->name_at[j - l->shnum], .sh_type = SHT_PROGBITS,
                             .sh_flags = SHF_ALLOC, .sh_addr = s->addr, .sh_offset = s->offset,
                             .sh_size = s->size, .sh_addralign = s->align};
        } else if (!elf_getscn(ef->elf, j) || !gelf_getshdr(elf_getscn(ef->elf, j), &sh)) {
            errno = EIO;
            return -1;
        }
        for (size_t i = 0; j && j < l->shnum && i < n; i++)
            if (l->orig_at[i] && strcmp(section_name(ef, l->shstrndx, j), secs[i].name) == 0)
                sh.sh_name = l->orig_at[i];
        if (j == l->shstrndx)
            sh.sh_offset = l->str_offset, sh.sh_size = l->str_size;
        put_shdr(b, &sh);
        if (write_at(fd, l->shdr_offset + j * SHDR_SIZE, b, sizeof b) != 0)
            return -1;
    }
    return 0;
}

/* Whether the output TARGET is the file EF reads (a link to it, or the same inode). */
static int is_input(const struct elf_file *ef, const char *target)
{
    struct stat in, out;
    return fstat(ef->fd, &in) == 0 && stat(target, &out) == 0 && in.st_dev == out.st_dev &&
           in.st_ino == out.st_ino;
}

/* SECS as the plan L places them, with their bytes. */
static int check_planned(const struct layout *l, const struct elf_new_section *secs, size_t n,
                         char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        if (secs[i].offset != l->sec_offset[i] ||
            secs[i].addr != l->seg_addr + (l->sec_offset[i] - l->seg_offset))
            return error_set(err, errlen, "section %s is not where elf_rewrite_plan placed it",
                             secs[i].name);
        if (secs[i].size && !secs[i].bytes)
            return error_set(err, errlen, "section %s has no bytes", secs[i].name);
    }
    return 0;
}

static int write_all(int fd, struct elf_file *ef, const struct layout *l,
                     const struct elf_new_section *secs, size_t n)
{
    uint8_t *buf = malloc(CHUNK);
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    int rc = write_input(fd, ef, l, n, buf) || write_segment(fd, l, secs, n) ||
             copy_at(fd, l->str_offset, ef->fd, l->str_in_offset, l->str_in_size, buf) ||
             write_at(fd, l->str_offset + l->str_in_size, l->names, l->names_len) ||
             write_section_headers(fd, ef, l, secs, n) ? -1 : 0;
    int e = errno;
    free(buf);
    errno = e;
    return rc;
}

int elf_rewrite_write(struct elf_file *ef, const struct elf_new_section *secs, size_t n,
                      const char *out_path, char *err, size_t errlen)
{
    struct layout l;
    if (plan_layout(ef, secs, n, &l, err, errlen) != 0)
        return -1;
    int rc = -1;
    char *target = NULL;
    struct stat st;
    if (check_planned(&l, secs, n, err, errlen) != 0 || !(target = output_target(out_path, err, errlen)))
        goto done;
    if (is_input(ef, target)) {
        error_set(err, errlen, "the output is the input file: write the copy elsewhere");
        goto done;
    }
    struct output_temp t;
    if (output_temp_create(&t, target, "", err, errlen) != 0)
        goto done;
    /* The copy runs like the input does (what objcopy and strip keep). */
    errno = 0;
    int failed = fstat(ef->fd, &st) != 0 || fchmod(t.fd, st.st_mode & 0777) != 0 ||
                 write_all(t.fd, ef, &l, secs, n) != 0;
    int e = errno;
    if (close(t.fd) != 0 && !failed)
        failed = 1, e = errno;
    if (failed) {
        output_temp_discard(&t);
        error_set(err, errlen, "cannot write the copy: %s",
                  e == ENODATA ? "the input file changed while it was copied" : strerror(e));
        goto done;
    }
    rc = output_temp_commit(&t, target, err, errlen);
done:
    free(target);
    layout_release(&l);
    return rc;
}
