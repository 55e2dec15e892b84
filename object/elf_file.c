/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_file: load sections, symbols and program headers with libelf.
 */
#include "elf_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/error.h"

static int libelf_ready(void)
{
    static int ready = -1;
    if (ready < 0)
        ready = elf_version(EV_CURRENT) != EV_NONE;
    return ready;
}

static int read_sections(struct elf_file *ef, char *err, size_t errlen)
{
    size_t shnum, shstrndx;
    if (elf_getshdrnum(ef->elf, &shnum) != 0)
        return error_set(err, errlen, "cannot read section header count: %s", elf_errmsg(-1));
    if (shnum == 0)
        return 0;
    if (elf_getshdrstrndx(ef->elf, &shstrndx) != 0)
        return error_set(err, errlen, "cannot read section name table index: %s", elf_errmsg(-1));
    ef->sections = calloc(shnum, sizeof *ef->sections);
    if (!ef->sections)
        return error_set(err, errlen, "out of memory");
    Elf_Scn *scn = NULL;
    size_t n = 0;
    while ((scn = elf_nextscn(ef->elf, scn)) != NULL && n < shnum) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            return error_set(err, errlen, "cannot read section header: %s", elf_errmsg(-1));
        struct elf_section *s = &ef->sections[n++];
        const char *name = elf_strptr(ef->elf, shstrndx, sh.sh_name);
        s->name = name ? name : "";
        s->index = elf_ndxscn(scn);
        s->type = sh.sh_type;
        s->flags = sh.sh_flags;
        s->addr = sh.sh_addr;
        s->offset = sh.sh_offset;
        s->size = sh.sh_size;
        s->scn = scn;
    }
    if (elf_errno() != 0 && n == 0)
        return error_set(err, errlen, "cannot read section table: %s", elf_errmsg(-1));
    ef->nsections = n;
    return 0;
}

static int read_phdrs(struct elf_file *ef, char *err, size_t errlen)
{
    size_t phnum;
    if (elf_getphdrnum(ef->elf, &phnum) != 0)
        return error_set(err, errlen, "cannot read program header count: %s", elf_errmsg(-1));
    if (phnum == 0)
        return 0;
    ef->phdrs = calloc(phnum, sizeof *ef->phdrs);
    if (!ef->phdrs)
        return error_set(err, errlen, "out of memory");
    for (size_t i = 0; i < phnum; i++)
        if (!gelf_getphdr(ef->elf, (int)i, &ef->phdrs[i]))
            return error_set(err, errlen, "cannot read program header %zu: %s", i, elf_errmsg(-1));
    ef->nphdrs = phnum;
    return 0;
}

/* A cut-off file is named as such rather than left to libelf's "invalid data". */
static int check_header_tables(const GElf_Ehdr *eh, uint64_t file_size, char *err, size_t errlen)
{
    if (eh->e_phnum && (eh->e_phoff > file_size ||
                        (uint64_t)eh->e_phnum * eh->e_phentsize > file_size - eh->e_phoff))
        return error_set(err, errlen, "truncated file: program headers lie past the end of the file");
    if (eh->e_shnum && (eh->e_shoff > file_size ||
                        (uint64_t)eh->e_shnum * eh->e_shentsize > file_size - eh->e_shoff))
        return error_set(err, errlen, "truncated file: section headers lie past the end of the file");
    return 0;
}

static uint16_t get16(const uint8_t *p, int big_endian)
{
    return big_endian ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

/* M's name as readelf and people say it, for a file of CLASS; NULL when not known here. */
static const char *machine_name(unsigned m, unsigned class)
{
    switch (m) {
    case EM_X86_64: return class == ELFCLASS32 ? "x32" : "x86_64";
    case EM_386: return "i386";
    case EM_AARCH64: return "AArch64";
    case EM_ARM: return "ARM";
    case 243: return "RISC-V";                 /* EM_RISCV */
    case 258: return "LoongArch";              /* EM_LOONGARCH */
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "S/390";
    case EM_MIPS: return "MIPS";
    case EM_SPARC: case EM_SPARC32PLUS: case EM_SPARCV9: return "SPARC";
    case EM_IA_64: return "IA-64";
    case EM_68K: return "m68k";
    case EM_SH: return "SuperH";
    case EM_PARISC: return "PA-RISC";
    case EM_ALPHA: return "Alpha";
    case 247: return "BPF";                    /* EM_BPF */
    case EM_NONE: return "none";
    default: return NULL;
    }
}

/* Why a file of machine M and CLASS is refused. */
static int not_x86_64(unsigned m, unsigned class, int big_endian, char *err, size_t errlen)
{
    char machine[32];
    const char *name = machine_name(m, class);
    if (name)
        snprintf(machine, sizeof machine, "%s", name);
    else
        snprintf(machine, sizeof machine, "%u", m);
    if (big_endian)
        return error_set(err, errlen, "big-endian ELF file: only little-endian x86_64 ELF files "
                         "are read (machine %s)", machine);
    return error_set(err, errlen, "not an x86_64 ELF file (machine %s)", machine);
}

/*
 * Read the ELF header of FD ourselves before libelf does, so that every
 * front end refuses, with the true reason, what it cannot read: a cut-off or
 * corrupt header, another byte order or architecture, a file that is not
 * linked.  ACCEPT_REL lets a relocatable object through.
 */
static int check_elf_header(int fd, int accept_rel, char *err, size_t errlen)
{
    uint8_t h[sizeof(Elf64_Ehdr)];
    size_t n = 0;
    while (n < sizeof h) {
        ssize_t r = pread(fd, h + n, sizeof h - n, (off_t)n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return error_set(err, errlen, "%s", strerror(errno));
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n < SELFMAG || memcmp(h, ELFMAG, SELFMAG) != 0)
        return error_set(err, errlen, ELF_FILE_NOT_ELF);
    unsigned class = n > EI_CLASS ? h[EI_CLASS] : ELFCLASS64;
    if (class != ELFCLASS32 && class != ELFCLASS64)
        return error_set(err, errlen, "corrupt ELF header: invalid class %u (EI_CLASS)", class);
    size_t need = class == ELFCLASS32 ? sizeof(Elf32_Ehdr) : sizeof(Elf64_Ehdr);
    if (n < need)
        return error_set(err, errlen, "truncated ELF header (%zu of %zu bytes)", n, need);
    unsigned data = h[EI_DATA];
    if (data != ELFDATA2LSB && data != ELFDATA2MSB)
        return error_set(err, errlen, "corrupt ELF header: invalid byte order %u (EI_DATA)", data);
    if (h[EI_VERSION] != EV_CURRENT)
        return error_set(err, errlen, "corrupt ELF header: invalid version %u (EI_VERSION)",
                         h[EI_VERSION]);
    int big = data == ELFDATA2MSB;
    unsigned type = get16(h + 16, big), machine = get16(h + 18, big);
    if (big)
        return not_x86_64(machine, class, 1, err, errlen);
    if (class != ELFCLASS64 || machine != EM_X86_64)
        return not_x86_64(machine, class, 0, err, errlen);
    switch (type) {
    case ET_EXEC:
    case ET_DYN:
        return 0;
    case ET_REL:
        if (accept_rel)
            return 0;
        return error_set(err, errlen, "relocatable object (ET_REL): link it first; only executables "
                         "and shared libraries (ET_EXEC, ET_DYN) are read");
    case ET_CORE:
        return error_set(err, errlen, "core dump (ET_CORE): only executables and shared libraries "
                         "(ET_EXEC, ET_DYN) are read");
    default:
        return error_set(err, errlen, "ELF file of type %u: only executables and shared libraries "
                         "(ET_EXEC, ET_DYN) are read", type);
    }
}

static int open_file(struct elf_file *ef, const char *path, int accept_rel, char *err, size_t errlen)
{
    memset(ef, 0, sizeof *ef);
    ef->fd = -1;
    if (!libelf_ready())
        return error_set(err, errlen, "libelf is out of date");

    /* O_NONBLOCK: a FIFO without a writer must not hold the open up; it is
     * refused below, with every other file that is not a regular one. */
    ef->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (ef->fd < 0)
        return error_set(err, errlen, "%s", strerror(errno));
    struct stat st;
    if (fstat(ef->fd, &st) != 0) {
        error_set(err, errlen, "%s", strerror(errno));
        goto bad;
    }
    if (S_ISDIR(st.st_mode)) {
        error_set(err, errlen, "is a directory");
        goto bad;
    }
    if (!S_ISREG(st.st_mode)) {
        error_set(err, errlen, "not a regular file (%s)", error_file_kind(st.st_mode));
        goto bad;
    }
    int flags = fcntl(ef->fd, F_GETFL);
    if (flags < 0 || fcntl(ef->fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        error_set(err, errlen, "%s", strerror(errno));
        goto bad;
    }
    if (st.st_size == 0) {
        error_set(err, errlen, ELF_FILE_EMPTY);
        goto bad;
    }
    if (check_elf_header(ef->fd, accept_rel, err, errlen) != 0)
        goto bad;
    ef->elf = elf_begin(ef->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
    if (!ef->elf)
        ef->elf = elf_begin(ef->fd, ELF_C_READ, NULL);
    if (!ef->elf || elf_kind(ef->elf) != ELF_K_ELF) {
        error_set(err, errlen, "corrupt ELF header: %s", elf_errmsg(-1));
        goto bad;
    }
    if (!gelf_getehdr(ef->elf, &ef->ehdr)) {
        error_set(err, errlen, "corrupt ELF header: %s", elf_errmsg(-1));
        goto bad;
    }
    ef->is_64 = gelf_getclass(ef->elf) == ELFCLASS64;
    if (check_header_tables(&ef->ehdr, (uint64_t)st.st_size, err, errlen) != 0)
        goto bad;
    if (read_sections(ef, err, errlen) != 0 || read_phdrs(ef, err, errlen) != 0)
        goto bad;
    ef->path = strdup(path);
    if (!ef->path) {
        error_set(err, errlen, "out of memory");
        goto bad;
    }
    return 0;
bad:
    elf_file_close(ef);
    return -1;
}

int elf_file_open(struct elf_file *ef, const char *path, char *err, size_t errlen)
{
    return open_file(ef, path, 0, err, errlen);
}

int elf_file_open_object(struct elf_file *ef, const char *path, char *err, size_t errlen)
{
    return open_file(ef, path, 1, err, errlen);
}

void elf_file_close(struct elf_file *ef)
{
    if (ef->elf)
        elf_end(ef->elf);
    if (ef->fd >= 0)
        close(ef->fd);
    free(ef->sections);
    free(ef->symbols);
    free(ef->phdrs);
    free(ef->relatives);
    for (size_t i = 0; i < ef->nowned; i++)
        free(ef->owned[i]);
    free(ef->owned);
    free(ef->path);
    memset(ef, 0, sizeof *ef);
    ef->fd = -1;
}

struct elf_section *elf_file_section(struct elf_file *ef, const char *name)
{
    for (size_t i = 0; i < ef->nsections; i++)
        if (strcmp(ef->sections[i].name, name) == 0)
            return &ef->sections[i];
    return NULL;
}

struct elf_section *elf_file_section_at(struct elf_file *ef, uint64_t addr)
{
    for (size_t i = 0; i < ef->nsections; i++) {
        struct elf_section *s = &ef->sections[i];
        if ((s->flags & SHF_ALLOC) && addr >= s->addr && addr - s->addr < s->size)
            return s;
    }
    return NULL;
}

const uint8_t *elf_file_section_bytes(struct elf_file *ef, struct elf_section *sec,
                                      uint64_t *nbytes, char *err, size_t errlen)
{
    static const uint8_t empty[1];
    if (sec->loaded) {
        *nbytes = sec->nbytes;
        return sec->bytes;
    }
    if (sec->type == SHT_NOBITS || sec->size == 0) {
        sec->bytes = empty;
        sec->nbytes = 0;
        sec->loaded = 1;
        *nbytes = 0;
        return empty;
    }
    struct stat st;
    if (fstat(ef->fd, &st) == 0 &&
        (sec->offset > (uint64_t)st.st_size || sec->size > (uint64_t)st.st_size - sec->offset)) {
        error_set(err, errlen, "section %s lies past the end of the file (truncated?)", sec->name);
        return NULL;
    }
    if ((sec->flags & SHF_COMPRESSED) && elf_compress(sec->scn, 0, 0) < 0) {
        error_set(err, errlen, "cannot decompress section %s: %s", sec->name, elf_errmsg(-1));
        return NULL;
    }
    Elf_Data *d = elf_rawdata(sec->scn, NULL);
    if (sec->flags & SHF_COMPRESSED)
        d = elf_getdata(sec->scn, NULL);
    if (!d) {
        error_set(err, errlen, "cannot read section %s: %s", sec->name, elf_errmsg(-1));
        return NULL;
    }
    sec->bytes = d->d_buf ? d->d_buf : empty;
    sec->nbytes = d->d_size;
    sec->loaded = 1;
    *nbytes = sec->nbytes;
    return sec->bytes;
}

static int append_symbols(struct elf_file *ef, struct elf_section *sec, int dynamic,
                          size_t *cap, char *err, size_t errlen)
{
    Elf_Data *d = elf_getdata(sec->scn, NULL);
    if (!d)
        return error_set(err, errlen, "cannot read %s: %s", sec->name, elf_errmsg(-1));
    GElf_Shdr sh;
    if (!gelf_getshdr(sec->scn, &sh) || sh.sh_entsize == 0)
        return error_set(err, errlen, "%s has no entry size", sec->name);
    size_t count = d->d_size / sh.sh_entsize;
    for (size_t i = 1; i < count; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym))
            return error_set(err, errlen, "cannot read symbol %zu of %s", i, sec->name);
        if (ef->nsymbols == *cap) {
            size_t ncap = *cap ? *cap * 2 : 256;
            struct elf_symbol *n = realloc(ef->symbols, ncap * sizeof *n);
            if (!n)
                return error_set(err, errlen, "out of memory");
            ef->symbols = n;
            *cap = ncap;
        }
        const char *name = elf_strptr(ef->elf, sh.sh_link, sym.st_name);
        struct elf_symbol *s = &ef->symbols[ef->nsymbols++];
        s->name = name ? name : "";
        s->value = sym.st_value;
        s->size = sym.st_size;
        s->shndx = sym.st_shndx;
        s->type = GELF_ST_TYPE(sym.st_info);
        s->bind = GELF_ST_BIND(sym.st_info);
        s->dynamic = (uint8_t)dynamic;
    }
    return 0;
}

int elf_file_load_symbols(struct elf_file *ef, char *err, size_t errlen)
{
    if (ef->symbols_loaded)
        return 0;
    size_t cap = 0;
    for (size_t i = 0; i < ef->nsections; i++) {
        struct elf_section *s = &ef->sections[i];
        if (s->type == SHT_SYMTAB || s->type == SHT_DYNSYM)
            if (append_symbols(ef, s, s->type == SHT_DYNSYM, &cap, err, errlen) != 0)
                return -1;
    }
    ef->symbols_loaded = 1;
    return 0;
}

static int by_relative_addr(const void *a, const void *b)
{
    uint64_t x = ((const struct elf_relative *)a)->addr, y = ((const struct elf_relative *)b)->addr;
    return x < y ? -1 : x > y;
}

/* Append SEC's R_X86_64_RELATIVE relocations; -1 when out of memory. */
static int append_relatives(struct elf_file *ef, struct elf_section *sec, size_t *cap)
{
    Elf_Data *d = elf_getdata(sec->scn, NULL);
    GElf_Shdr sh;
    if (!d || !gelf_getshdr(sec->scn, &sh) || sh.sh_entsize == 0)
        return 0;
    size_t count = d->d_size / sh.sh_entsize;
    for (size_t i = 0; i < count; i++) {
        GElf_Rela r;
        if (!gelf_getrela(d, (int)i, &r))
            break;
        if (GELF_R_TYPE(r.r_info) != R_X86_64_RELATIVE)
            continue;
        if (ef->nrelatives == *cap) {
            size_t ncap = *cap ? *cap * 2 : 1024;
            struct elf_relative *n = realloc(ef->relatives, ncap * sizeof *n);
            if (!n)
                return -1;
            ef->relatives = n;
            *cap = ncap;
        }
        ef->relatives[ef->nrelatives++] = (struct elf_relative){r.r_offset, (uint64_t)r.r_addend};
    }
    return 0;
}

int elf_file_relative_at(struct elf_file *ef, uint64_t addr, uint64_t *value)
{
    if (!ef->relatives_loaded) {
        ef->relatives_loaded = 1;
        size_t cap = 0;
        for (size_t i = 0; i < ef->nsections; i++) {
            struct elf_section *s = &ef->sections[i];
            if (s->type == SHT_RELA && (s->flags & SHF_ALLOC) && append_relatives(ef, s, &cap) != 0) {
                free(ef->relatives);
                ef->relatives = NULL;
                ef->nrelatives = 0;
                break;
            }
        }
        if (ef->nrelatives)
            qsort(ef->relatives, ef->nrelatives, sizeof *ef->relatives, by_relative_addr);
    }
    struct elf_relative key = {addr, 0};
    const struct elf_relative *r = ef->nrelatives ? bsearch(&key, ef->relatives, ef->nrelatives,
                                                            sizeof key, by_relative_addr) : NULL;
    if (!r)
        return 0;
    *value = r->value;
    return 1;
}
