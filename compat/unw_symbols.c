/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_symbols: function names from an object's file, as libunwind finds
 * them (see the header).
 */
#include "compat/unw_symbols.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compat/unw_abi.h"
#include "runtime/identity.h"

/* A file mapped read-only, whole. */
struct image {
    const uint8_t *bytes;
    uint64_t size;
};

static void image_release(struct image *im)
{
    if (im->bytes)
        munmap((void *)(uintptr_t)im->bytes, im->size);
    im->bytes = NULL;
}

/* libunwind's test of an ELF image it will read: the magic, 64-bit, a
 * version it knows. */
static int valid_elf(const struct image *im)
{
    return im->size > EI_VERSION && memcmp(im->bytes, ELFMAG, SELFMAG) == 0 && im->bytes[EI_CLASS] == ELFCLASS64 &&
           im->bytes[EI_VERSION] != EV_NONE && im->bytes[EI_VERSION] <= EV_CURRENT;
}

/* Map PATH; with CANONICAL (PATH_MAX bytes, may be NULL) the name the
 * kernel gives the file opened.  0, or -1. */
static int image_map(const char *path, struct image *im, char *canonical)
{
    im->bytes = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED && canonical) {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, canonical, PATH_MAX - 1);
        if (n <= 0 || canonical[0] != '/')
            snprintf(canonical, PATH_MAX, "%s", path);
        else
            canonical[n] = '\0';
    }
    close(fd);
    if (p == MAP_FAILED)
        return -1;
    im->bytes = p;
    im->size = (uint64_t)st.st_size;
    if (!valid_elf(im)) {
        image_release(im);
        return -1;
    }
    return 0;
}

/* Section header I of IM in *S (copied: a damaged file may misalign it),
 * or NULL when the table or the entry lies outside. */
static const Elf64_Shdr *section(const struct image *im, unsigned i, Elf64_Shdr *s)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)im->bytes;
    if (im->size < sizeof *eh || eh->e_shentsize < sizeof(Elf64_Shdr) || i >= eh->e_shnum)
        return NULL;
    uint64_t at = eh->e_shoff + (uint64_t)i * eh->e_shentsize;
    if (eh->e_shoff > im->size || at > im->size || im->size - at < sizeof(Elf64_Shdr))
        return NULL;
    memcpy(s, im->bytes + at, sizeof *s);
    return s;
}

/* The bytes of section S, within IM; NULL when they lie outside. */
static const uint8_t *section_bytes(const struct image *im, const Elf64_Shdr *s)
{
    if (!s || s->sh_offset > im->size || s->sh_size > im->size - s->sh_offset)
        return NULL;
    return im->bytes + s->sh_offset;
}

/* The NUL-terminated string at OFF of the string table S, or NULL. */
static const char *string_at(const struct image *im, const Elf64_Shdr *s, uint64_t off)
{
    const uint8_t *t = section_bytes(im, s);
    if (!t || off >= s->sh_size || !memchr(t + off, 0, s->sh_size - off))
        return NULL;
    return (const char *)t + off;
}

/* The .gnu_debuglink name of IM, or NULL. */
static const char *debuglink_of(const struct image *im)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)im->bytes;
    if (im->size < sizeof *eh)
        return NULL;
    Elf64_Shdr names_header, header;
    const Elf64_Shdr *names = section(im, eh->e_shstrndx, &names_header);
    for (unsigned i = 0; names && i < eh->e_shnum; i++) {
        const Elf64_Shdr *s = section(im, i, &header);
        const char *name = s ? string_at(im, names, s->sh_name) : NULL;
        if (!name || strcmp(name, ".gnu_debuglink") != 0)
            continue;
        const uint8_t *b = section_bytes(im, s);
        if (!b || s->sh_size >= PATH_MAX || !memchr(b, 0, s->sh_size))
            return NULL;
        return (const char *)b;
    }
    return NULL;
}

/* Replace IM (the file at PATH) by its separate debug file when its
 * .gnu_debuglink names one in PATH's directory or its .debug/. */
static void follow_debuglink(struct image *im, const char *path)
{
    const char *link = debuglink_of(im);
    const char *slash = strrchr(path, '/');
    if (!link || !slash)
        return;
    static const char *const places[] = {"%.*s/%s", "%.*s/.debug/%s"};
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        char candidate[PATH_MAX];
        int n = snprintf(candidate, sizeof candidate, places[i], (int)(slash - path), path, link);
        struct image debug;
        if (n > 0 && (size_t)n < sizeof candidate && image_map(candidate, &debug, NULL) == 0) {
            image_release(im);
            *im = debug;
            return;
        }
    }
}

/* The nearest function symbol at or below ADDR among IM's symbol tables
 * (values plus BIAS): libunwind's lookup_symbol. */
static int nearest_symbol(const struct image *im, uint64_t addr, uint64_t bias, char *buf, size_t len,
                          uint64_t *best)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)im->bytes;
    int rc = -UNW_ENOINFO;
    if (im->size < sizeof *eh)
        return rc;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        Elf64_Shdr header, strings_header;
        const Elf64_Shdr *s = section(im, i, &header);
        if (!s)
            break;
        if (s->sh_type != SHT_SYMTAB && s->sh_type != SHT_DYNSYM)
            continue;
        const uint8_t *syms = section_bytes(im, s);
        const Elf64_Shdr *strings = section(im, s->sh_link, &strings_header);
        if (!syms || !section_bytes(im, strings) || s->sh_entsize < sizeof(Elf64_Sym))
            continue;
        for (uint64_t off = 0; off <= s->sh_size && s->sh_size - off >= sizeof(Elf64_Sym); off += s->sh_entsize) {
            Elf64_Sym sym;
            memcpy(&sym, syms + off, sizeof sym);
            if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF)
                continue;
            uint64_t value = sym.st_value + (sym.st_shndx != SHN_ABS ? bias : 0);
            if (addr - value >= *best)
                continue;
            const char *name = string_at(im, strings, sym.st_name);
            if (!name)
                continue;
            *best = addr - value;
            size_t n = strlen(name);
            memcpy(buf, name, n < len ? n : len - 1);
            buf[n < len ? n : len - 1] = '\0';
            rc = n >= len ? -UNW_ENOMEM : 0;
        }
    }
    return rc;
}

/* The build-id of the object F describes (its notes, in memory, through
 * the program headers in its first page): *ID's kind 0 when there is
 * none. */
static void loaded_build_id(const struct dl_find_object *f, struct dwu_identity *id)
{
    const ElfW(Phdr) *ph;
    uint64_t start = (uint64_t)(uintptr_t)f->dlfo_map_start, end = (uint64_t)(uintptr_t)f->dlfo_map_end;
    const Elf64_Ehdr *eh = f->dlfo_map_start;
    uint64_t limit = end - start < 4096 ? end - start : 4096;
    memset(id, 0, sizeof *id);
    if (limit < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_phentsize != sizeof(ElfW(Phdr)) ||
        eh->e_phoff > limit || eh->e_phnum > (limit - eh->e_phoff) / sizeof(ElfW(Phdr)))
        return;
    ph = (const ElfW(Phdr) *)(uintptr_t)(start + eh->e_phoff);
    uint64_t bias = f->dlfo_link_map->l_addr;
    for (unsigned i = 0; i < eh->e_phnum && !id->kind; i++) {
        uint64_t at = bias + ph[i].p_vaddr;
        if (ph[i].p_type == PT_NOTE && at >= start && at <= end && ph[i].p_filesz <= end - at)
            dwu_identity_from_notes((const uint8_t *)(uintptr_t)at, ph[i].p_filesz, id);
    }
}

/* The build-id of the file IM (its notes, through its program headers). */
static void file_build_id(const struct image *im, struct dwu_identity *id)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)im->bytes;
    memset(id, 0, sizeof *id);
    if (im->size < sizeof *eh || eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > im->size ||
        eh->e_phnum > (im->size - eh->e_phoff) / sizeof(Elf64_Phdr))
        return;
    for (unsigned i = 0; i < eh->e_phnum && !id->kind; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, im->bytes + eh->e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
        if (ph.p_type == PT_NOTE && ph.p_offset <= im->size && ph.p_filesz <= im->size - ph.p_offset)
            dwu_identity_from_notes(im->bytes + ph.p_offset, ph.p_filesz, id);
    }
}

int lu_symbols_name(uint64_t addr, char *buf, size_t len, uint64_t *offset)
{
    if (!buf || len == 0)
        return -UNW_EINVAL;
    buf[0] = '\0';
    struct dl_find_object f;
    if (_dl_find_object((void *)(uintptr_t)addr, &f) != 0 || !f.dlfo_link_map)
        return -UNW_EUNSPEC;
    const char *name = f.dlfo_link_map->l_name;
    const char *path = name && name[0] ? name : "/proc/self/exe";
    char canonical[PATH_MAX];
    struct image im;
    if (image_map(path, &im, canonical) != 0)
        return -UNW_EUNSPEC;
    /* A file replaced since it was loaded (an upgrade) is another build:
     * libunwind finds the mapping's file gone, and names nothing. */
    struct dwu_identity loaded, on_disk;
    loaded_build_id(&f, &loaded);
    file_build_id(&im, &on_disk);
    if (loaded.kind && (loaded.kind != on_disk.kind || loaded.len != on_disk.len ||
                        memcmp(loaded.bytes, on_disk.bytes, loaded.len) != 0)) {
        image_release(&im);
        return -UNW_EUNSPEC;
    }
    follow_debuglink(&im, canonical);
    uint64_t best = UINT64_MAX;
    int rc = nearest_symbol(&im, addr, f.dlfo_link_map->l_addr, buf, len, &best);
    uint64_t size = im.size;
    image_release(&im);
    if (best >= size)
        return -UNW_ENOINFO;   /* (BUF keeps the name found too far, as libunwind's) */
    if (offset)
        *offset = best;
    return rc;
}
