/* SPDX-License-Identifier: Apache-2.0 */
/*
 * code_bounds: the file-backed parts of the executable segments.
 */
#include "code_bounds.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sys/error.h"

static int by_lo(const void *a, const void *b)
{
    const struct code_region *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int file_size(const struct elf_file *ef, uint64_t *size, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(ef->fd, &st) != 0)
        return error_set(err, errlen, "%s", strerror(errno));
    *size = (uint64_t)st.st_size;
    return 0;
}

int code_bounds_init(struct code_bounds *b, const struct elf_file *ef, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    uint64_t size = 0;
    if (file_size(ef, &size, err, errlen) != 0)
        return -1;
    b->regions = calloc(ef->nphdrs + 1, sizeof *b->regions);
    if (!b->regions)
        return error_set(err, errlen, "out of memory");
    for (size_t i = 0; i < ef->nphdrs; i++) {
        const GElf_Phdr *ph = &ef->phdrs[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || ph->p_offset >= size)
            continue;
        /* Past the end of the file a segment holds nothing to read. */
        uint64_t filesz = ph->p_filesz < size - ph->p_offset ? ph->p_filesz : size - ph->p_offset;
        if (filesz == 0 || ph->p_vaddr + filesz < ph->p_vaddr)
            continue;
        b->regions[b->n++] = (struct code_region){ph->p_vaddr, ph->p_vaddr + filesz};
    }
    qsort(b->regions, b->n, sizeof *b->regions, by_lo);
    return 0;
}

void code_bounds_release(struct code_bounds *b)
{
    free(b->regions);
    memset(b, 0, sizeof *b);
}

const struct code_region *code_bounds_at(const struct code_bounds *b, uint64_t addr)
{
    /* Segments may overlap in a crafted file: few enough to scan them all. */
    for (size_t i = 0; i < b->n && b->regions[i].lo <= addr; i++)
        if (addr < b->regions[i].hi)
            return &b->regions[i];
    return NULL;
}

int code_bounds_holds(const struct code_bounds *b, uint64_t lo, uint64_t size)
{
    if (lo + size < lo)
        return 0;
    for (size_t i = 0; i < b->n && b->regions[i].lo <= lo; i++)
        if (lo < b->regions[i].hi && size <= b->regions[i].hi - lo)
            return 1;
    return 0;
}

static const char *section_name(const struct elf_section *s)
{
    return s->name[0] ? s->name : "(unnamed)";
}

static int by_addr(const void *a, const void *b)
{
    const struct elf_section *x = *(const struct elf_section *const *)a;
    const struct elf_section *y = *(const struct elf_section *const *)b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Sections of the image (SECS, N of them, each inside the file) that
 * overlap where one of them is code: the addresses of that code would be
 * looked up in the other one's bytes.  Returns 0, or -1 with ERR. */
static int check_overlaps(const struct elf_section **secs, size_t n, char *err, size_t errlen)
{
    qsort(secs, n, sizeof *secs, by_addr);
    const struct elf_section *furthest = NULL, *furthest_code = NULL;   /* ends furthest so far */
    for (size_t i = 0; i < n; i++) {
        const struct elf_section *s = secs[i], *over = NULL;
        if (furthest_code && s->addr - furthest_code->addr < furthest_code->size)
            over = furthest_code;
        else if ((s->flags & SHF_EXECINSTR) && furthest && s->addr - furthest->addr < furthest->size)
            over = furthest;
        if (over)
            return error_set(err, errlen, "sections %s and %s both claim 0x%llx, and one of them is code",
                             section_name(over), section_name(s), (unsigned long long)s->addr);
        if (!furthest || s->addr + s->size > furthest->addr + furthest->size)
            furthest = s;
        if ((s->flags & SHF_EXECINSTR) &&
            (!furthest_code || s->addr + s->size > furthest_code->addr + furthest_code->size))
            furthest_code = s;
    }
    return 0;
}

int code_bounds_check_sections(const struct code_bounds *b, const struct elf_file *ef, char *err,
                               size_t errlen)
{
    uint64_t size = 0;
    if (file_size(ef, &size, err, errlen) != 0)
        return -1;
    const struct elf_section **image = calloc(ef->nsections + 1, sizeof *image);
    if (!image)
        return error_set(err, errlen, "out of memory");
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < ef->nsections && rc == 0; i++) {
        const struct elf_section *s = &ef->sections[i];
        if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS || s->size == 0)
            continue;
        if (s->offset > size || s->size > size - s->offset)
            rc = error_set(err, errlen, "section %s claims %llu bytes at file offset 0x%llx, past the "
                           "end of the file (%llu bytes)", section_name(s), (unsigned long long)s->size,
                           (unsigned long long)s->offset, (unsigned long long)size);
        else if (s->addr + s->size < s->addr)
            rc = error_set(err, errlen, "section %s claims %llu bytes at 0x%llx, which wraps around the "
                           "address space", section_name(s), (unsigned long long)s->size,
                           (unsigned long long)s->addr);
        else if ((s->flags & SHF_EXECINSTR) && !code_bounds_holds(b, s->addr, s->size))
            rc = error_set(err, errlen, "section %s claims [0x%llx, 0x%llx), which no executable "
                           "segment holds", section_name(s), (unsigned long long)s->addr,
                           (unsigned long long)(s->addr + s->size));
        else
            image[n++] = s;
    }
    if (rc == 0)
        rc = check_overlaps(image, n, err, errlen);
    free(image);
    return rc;
}
