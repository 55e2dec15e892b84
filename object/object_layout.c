/* SPDX-License-Identifier: Apache-2.0 */
/*
 * object_layout: a relocatable object placed and relocated (object_layout.h).
 */
#include "object_layout.h"

#include <stdlib.h>
#include <string.h>

#include "sys/error.h"

#define LAYOUT_LIMIT ((uint64_t)1 << 47)

static struct elf_section *by_index(struct elf_file *ef, size_t index)
{
    /* Sections are read in index order, from 1: the guess is right but in
     * a file whose table libelf could not read whole. */
    if (index >= 1 && index - 1 < ef->nsections && ef->sections[index - 1].index == index)
        return &ef->sections[index - 1];
    for (size_t i = 0; i < ef->nsections; i++)
        if (ef->sections[i].index == index)
            return &ef->sections[i];
    return NULL;
}

static int own(struct elf_file *ef, uint8_t *p)
{
    uint8_t **o = realloc(ef->owned, (ef->nowned + 1) * sizeof *o);
    if (!o)
        return -1;
    ef->owned = o;
    ef->owned[ef->nowned++] = p;
    return 0;
}

/* Place the allocated sections, code (EXEC) or not, from *AT. */
static int place(struct elf_file *ef, int exec, uint64_t *at, char *err, size_t errlen)
{
    for (size_t i = 0; i < ef->nsections; i++) {
        struct elf_section *s = &ef->sections[i];
        if (!(s->flags & SHF_ALLOC) || !(s->flags & SHF_EXECINSTR) != !exec)
            continue;
        GElf_Shdr sh;
        uint64_t align = gelf_getshdr(s->scn, &sh) && sh.sh_addralign > 1 ? sh.sh_addralign : 1;
        if (align > 4096 || (align & (align - 1)))
            align = align > 4096 ? 4096 : 16;
        *at = (*at + align - 1) & ~(align - 1);
        if (s->size > LAYOUT_LIMIT || *at + s->size > LAYOUT_LIMIT)
            return error_set(err, errlen, "section %s is too large to lay out (%llu bytes)", s->name,
                             (unsigned long long)s->size);
        s->addr = *at;
        *at += s->size ? s->size : 1;
    }
    return 0;
}

/* A private, writable copy of S's bytes, for the relocations. */
static uint8_t *writable(struct elf_file *ef, struct elf_section *s, char *err, size_t errlen)
{
    uint64_t n;
    const uint8_t *bytes = elf_file_section_bytes(ef, s, &n, err, errlen);
    if (!bytes)
        return NULL;
    if (s->type == SHT_NOBITS || n == 0)
        return NULL;
    for (size_t i = 0; i < ef->nowned; i++)
        if (ef->owned[i] == bytes)
            return (uint8_t *)ef->owned[i];
    uint8_t *copy = malloc(n);
    if (!copy || own(ef, copy) != 0) {
        free(copy);
        error_set(err, errlen, "out of memory");
        return NULL;
    }
    memcpy(copy, bytes, n);
    s->bytes = copy;
    return copy;
}

static void put(uint8_t *p, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Apply the relocations of RELA (SHT_RELA) to its target. */
static int relocate(struct elf_file *ef, struct elf_section *rela, char *err, size_t errlen)
{
    GElf_Shdr sh;
    if (!gelf_getshdr(rela->scn, &sh) || sh.sh_entsize == 0)
        return error_set(err, errlen, "%s has no entry size", rela->name);
    struct elf_section *target = by_index(ef, sh.sh_info), *symtab = by_index(ef, sh.sh_link);
    if (!target || !(target->flags & SHF_ALLOC) || target->type == SHT_NOBITS)
        return 0;   /* debug sections and the like: not read as code or tables */
    if (!symtab || symtab->type != SHT_SYMTAB)
        return error_set(err, errlen, "%s: no symbol table", rela->name);
    uint8_t *bytes = writable(ef, target, err, errlen);
    if (!bytes)
        return target->size ? -1 : 0;
    uint64_t n = target->nbytes;
    Elf_Data *d = elf_getdata(rela->scn, NULL), *syms = elf_getdata(symtab->scn, NULL);
    if (!d || !syms)
        return error_set(err, errlen, "cannot read %s: %s", rela->name, elf_errmsg(-1));
    size_t count = d->d_size / sh.sh_entsize;
    for (size_t i = 0; i < count; i++) {
        GElf_Rela r;
        GElf_Sym sym;
        if (!gelf_getrela(d, (int)i, &r))
            return error_set(err, errlen, "cannot read relocation %zu of %s", i, rela->name);
        unsigned type = (unsigned)GELF_R_TYPE(r.r_info);
        size_t symi = GELF_R_SYM(r.r_info);
        if (!gelf_getsym(syms, (int)symi, &sym))
            return error_set(err, errlen, "%s: relocation %zu names symbol %zu, which does not exist",
                             rela->name, i, symi);
        uint64_t S = 0;
        if (sym.st_shndx == SHN_ABS) {
            S = sym.st_value;
        } else if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE) {
            struct elf_section *in = by_index(ef, sym.st_shndx);
            S = (in ? in->addr : 0) + sym.st_value;
        }
        uint64_t A = (uint64_t)r.r_addend, P = target->addr + r.r_offset, v;
        unsigned width;
        switch (type) {
        case R_X86_64_64: v = S + A, width = 8; break;
        case R_X86_64_PC64: v = S + A - P, width = 8; break;
        case R_X86_64_32:
        case R_X86_64_32S: v = S + A, width = 4; break;
        case R_X86_64_PC32:
        case R_X86_64_PLT32:
        case R_X86_64_GOTPCREL:
        case R_X86_64_GOTPCRELX:
        case R_X86_64_REX_GOTPCRELX: v = S + A - P, width = 4; break;
        case R_X86_64_16: v = S + A, width = 2; break;
        case R_X86_64_PC16: v = S + A - P, width = 2; break;
        case R_X86_64_8: v = S + A, width = 1; break;
        case R_X86_64_PC8: v = S + A - P, width = 1; break;
        default: continue;   /* NONE, TLS: data, not code or tables */
        }
        if (r.r_offset > n || width > n - r.r_offset)
            return error_set(err, errlen, "%s: relocation %zu at 0x%llx lies past the end of %s", rela->name, i,
                             (unsigned long long)r.r_offset, target->name);
        put(bytes + r.r_offset, v, width);
    }
    return 0;
}

int object_layout_place(struct elf_file *ef, char *err, size_t errlen)
{
    if (elf_file_load_symbols(ef, err, errlen) != 0)
        return -1;
    uint64_t at = OBJECT_LAYOUT_BASE;
    if (place(ef, 1, &at, err, errlen) != 0)
        return -1;
    at = (at + 0xfff) & ~(uint64_t)0xfff;
    if (place(ef, 0, &at, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < ef->nsections; i++)
        if (ef->sections[i].type == SHT_RELA && relocate(ef, &ef->sections[i], err, errlen) != 0)
            return -1;
    for (size_t i = 0; i < ef->nsymbols; i++) {
        struct elf_symbol *s = &ef->symbols[i];
        if (s->shndx != SHN_UNDEF && s->shndx < SHN_LORESERVE) {
            struct elf_section *in = by_index(ef, s->shndx);
            if (in && (in->flags & SHF_ALLOC))
                s->value += in->addr;
        }
    }
    /* Program headers: a segment per allocated section. */
    size_t nloads = 0;
    for (size_t i = 0; i < ef->nsections; i++)
        nloads += (ef->sections[i].flags & SHF_ALLOC) != 0;
    GElf_Phdr *ph = calloc(nloads + 1, sizeof *ph);
    if (!ph)
        return error_set(err, errlen, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < ef->nsections; i++) {
        struct elf_section *s = &ef->sections[i];
        if (!(s->flags & SHF_ALLOC))
            continue;
        ph[k++] = (GElf_Phdr){.p_type = PT_LOAD,
                              .p_flags = PF_R | (s->flags & SHF_EXECINSTR ? PF_X : 0) |
                                         (s->flags & SHF_WRITE ? PF_W : 0),
                              .p_offset = s->offset,
                              .p_vaddr = s->addr,
                              .p_paddr = s->addr,
                              .p_filesz = s->type == SHT_NOBITS ? 0 : s->size,
                              .p_memsz = s->size,
                              .p_align = 1};
    }
    free(ef->phdrs);
    ef->phdrs = ph;
    ef->nphdrs = k;
    return 0;
}
