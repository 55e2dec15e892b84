/* SPDX-License-Identifier: Apache-2.0 */
/*
 * eh_elf_file: the checks a file passes before dlopen loads it as an eh_elf
 * (see eh_elf_file.h).  Each check is one the dynamic loader skips: what it
 * would read, write or call through, checked against the file's bytes.
 */
#include "eh_elf_file.h"

#include "dwunwind.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE 4096u                            /* x86_64's page: what mmap needs */
#define MAX_DYN 512u                          /* entries of the dynamic section */
#define MAX_SYMS 65536u                       /* dynamic symbols */
#define MAX_STRSZ ((uint64_t)1 << 20)         /* dynamic string table */
#define MAX_TABLE ((uint64_t)64 << 20)        /* any table read whole */
#define MAX_SLOTS 1024u                       /* init and fini array entries */
#define MAX_VERSION_ENTRIES 4096u             /* Verdef, Verneed, Vernaux entries */
#define MAX_RELOCS 65536u                     /* relocations that write */

/* The dynamic tags whose values the checks use (the last one of each wins,
 * as in the loader). */
enum {
    D_STRTAB, D_STRSZ, D_SYMTAB, D_SYMENT, D_HASH, D_GNU_HASH, D_RELA, D_RELASZ, D_RELAENT,
    D_JMPREL, D_PLTRELSZ, D_PLTREL, D_RELR, D_RELRSZ, D_RELRENT, D_INIT, D_FINI, D_INIT_ARRAY,
    D_INIT_ARRAYSZ, D_FINI_ARRAY, D_FINI_ARRAYSZ, D_VERSYM, D_VERDEF, D_VERNEED, D_PLTGOT, D_FLAGS,
    D_RELACOUNT, D_COUNT
};
static const int64_t tracked_tags[D_COUNT] = {
    [D_STRTAB] = DT_STRTAB, [D_STRSZ] = DT_STRSZ, [D_SYMTAB] = DT_SYMTAB, [D_SYMENT] = DT_SYMENT,
    [D_HASH] = DT_HASH, [D_GNU_HASH] = DT_GNU_HASH, [D_RELA] = DT_RELA, [D_RELASZ] = DT_RELASZ,
    [D_RELAENT] = DT_RELAENT, [D_JMPREL] = DT_JMPREL, [D_PLTRELSZ] = DT_PLTRELSZ,
    [D_PLTREL] = DT_PLTREL, [D_RELR] = DT_RELR, [D_RELRSZ] = DT_RELRSZ, [D_RELRENT] = DT_RELRENT,
    [D_INIT] = DT_INIT, [D_FINI] = DT_FINI, [D_INIT_ARRAY] = DT_INIT_ARRAY,
    [D_INIT_ARRAYSZ] = DT_INIT_ARRAYSZ, [D_FINI_ARRAY] = DT_FINI_ARRAY,
    [D_FINI_ARRAYSZ] = DT_FINI_ARRAYSZ, [D_VERSYM] = DT_VERSYM, [D_VERDEF] = DT_VERDEF,
    [D_VERNEED] = DT_VERNEED, [D_PLTGOT] = DT_PLTGOT, [D_FLAGS] = DT_FLAGS,
    [D_RELACOUNT] = DT_RELACOUNT,
};
/* A table and the tags the loader reads with it, without looking whether
 * they are there (a missing one is a null pointer in the loader). */
static const int sized[][2] = {
    {D_STRTAB, D_STRSZ}, {D_RELA, D_RELASZ}, {D_RELA, D_RELAENT}, {D_JMPREL, D_PLTRELSZ},
    {D_JMPREL, D_PLTREL}, {D_RELR, D_RELRSZ}, {D_RELR, D_RELRENT}, {D_INIT_ARRAY, D_INIT_ARRAYSZ},
    {D_FINI_ARRAY, D_FINI_ARRAYSZ},
};
/* The other tags a linker writes into a shared object that eh_elfs may
 * carry.  Any other tag refuses the file: the loader files tags by their
 * low 32 bits, so that a damaged tag can turn into DT_FILTER or DT_AUDIT
 * (which load other files); nor does an eh_elf need REL relocations (the
 * x86_64 loader asserts they are absent), text relocations,
 * pre-initialisation arrays, or a DT_SONAME (by which the loader would
 * take it for a library the program opens later). */
static const int64_t other_tags[] = {
    DT_NEEDED, DT_RPATH, DT_RUNPATH, DT_SYMBOLIC, DT_BIND_NOW, DT_FLAGS_1, DT_VERDEFNUM, DT_VERNEEDNUM,
};
/* Tags whose value is an offset in the string table. */
static const int64_t string_tags[] = {DT_NEEDED, DT_RPATH, DT_RUNPATH};

struct image {
    int fd;
    uint64_t size;                            /* the file's */
    Elf64_Phdr load[DWU_EH_ELF_MAX_PHDRS];    /* the PT_LOADs, ascending */
    unsigned nload;
    uint64_t dynamic_at, dynamic_size;        /* the PT_DYNAMIC's memory */
    uint64_t dyn[D_COUNT];
    uint32_t have;                            /* bit D_*: the tag is present */
    const char *strtab;                       /* NUL-terminated at strsz - 1 */
    uint64_t strsz;
    const Elf64_Sym *syms;
    uint64_t nsyms;
    uint8_t *slot_relocated;                  /* init slots, then fini slots */
    uint64_t ninit, nfini;
    uint64_t *written;                        /* what relocations write */
    uint64_t nwritten, capwritten;
};

/* [OFF, OFF + LEN) lies in [LO, HI). */
static int within(uint64_t off, uint64_t len, uint64_t lo, uint64_t hi)
{
    return lo <= off && off <= hi && len <= hi - off;
}

static int has(const struct image *im, int d)
{
    return (im->have >> d) & 1;
}

static int read_at(const struct image *im, uint64_t off, void *buf, uint64_t len)
{
    if (!within(off, len, 0, im->size))
        return -1;
    uint8_t *p = buf;
    while (len) {
        ssize_t n = pread(im->fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        off += (uint64_t)n;
        len -= (uint64_t)n;
    }
    return 0;
}

enum { MAPPED, FILE_BYTES };

/* The PT_LOAD with at least FLAGS whose memory holds [VADDR, VADDR + LEN)
 * (FILE_BYTES: in the part mapped from the file), or NULL. */
static const Elf64_Phdr *load_of(const struct image *im, uint64_t vaddr, uint64_t len, int part,
                                 uint32_t flags)
{
    for (unsigned i = 0; i < im->nload; i++) {
        const Elf64_Phdr *ph = &im->load[i];
        uint64_t end = ph->p_vaddr + (part == FILE_BYTES ? ph->p_filesz : ph->p_memsz);
        if ((ph->p_flags & flags) == flags && within(vaddr, len, ph->p_vaddr, end))
            return ph;
    }
    return NULL;
}

/* The LEN bytes the loader will map at VADDR, which must be readable. */
static int read_vaddr(const struct image *im, uint64_t vaddr, void *buf, uint64_t len)
{
    const Elf64_Phdr *ph = load_of(im, vaddr, len, FILE_BYTES, PF_R);
    return ph ? read_at(im, ph->p_offset + (vaddr - ph->p_vaddr), buf, len) : -1;
}

/* A table of LEN bytes at VADDR, read whole (malloc'd), or NULL. */
static void *read_table(const struct image *im, uint64_t vaddr, uint64_t len)
{
    if (len > MAX_TABLE)
        return NULL;
    void *p = malloc(len ? len : 1);
    if (p && read_vaddr(im, vaddr, p, len) != 0) {
        free(p);
        p = NULL;
    }
    return p;
}

static int check_headers(const struct image *im, Elf64_Ehdr *ehdr, Elf64_Phdr *ph, unsigned *nph)
{
    if (read_at(im, 0, ehdr, sizeof *ehdr) != 0)
        return -1;
    const Elf64_Ehdr eh = *ehdr;
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_ident[EI_VERSION] != EV_CURRENT ||
        eh.e_type != ET_DYN || eh.e_machine != EM_X86_64 || eh.e_version != EV_CURRENT ||
        eh.e_ehsize != sizeof eh || eh.e_phentsize != sizeof *ph || eh.e_phnum == 0 ||
        eh.e_phnum > DWU_EH_ELF_MAX_PHDRS)
        return -1;
    *nph = eh.e_phnum;
    return read_at(im, eh.e_phoff, ph, (uint64_t)eh.e_phnum * sizeof *ph);
}

/* Whether the PT_LOAD L maps the file bytes of segment P where P says. */
static int maps_file_bytes(const Elf64_Phdr *l, const Elf64_Phdr *p)
{
    return l && p->p_filesz == p->p_memsz && l->p_offset + (p->p_vaddr - l->p_vaddr) == p->p_offset;
}

/* The next PT_LOAD, P (already within the file): after the previous ones
 * in memory and in the file (a load that maps the bytes of another is a
 * damaged offset), all of them within DWU_EH_ELF_MAX_SPAN, mappable (offset
 * and address congruent modulo the page), zero-filled memory only in a
 * writable segment. */
static int add_load(struct image *im, const Elf64_Phdr *p)
{
    const Elf64_Phdr *last = im->nload ? &im->load[im->nload - 1] : NULL;
    uint64_t first = last ? im->load[0].p_vaddr : p->p_vaddr;
    if (last && (p->p_vaddr < last->p_vaddr + last->p_memsz || p->p_offset < last->p_offset + last->p_filesz))
        return -1;
    if (first > ((uint64_t)1 << 47) || p->p_memsz == 0 ||
        !within(p->p_vaddr - first, p->p_memsz, 0, DWU_EH_ELF_MAX_SPAN) || p->p_filesz > p->p_memsz ||
        (!(p->p_flags & PF_W) && p->p_filesz != p->p_memsz) || (p->p_vaddr - p->p_offset) % PAGE != 0 ||
        (p->p_align & (p->p_align - 1)) != 0)
        return -1;
    im->load[im->nload++] = *p;
    return 0;
}

/* Segments in the file; the loads well-formed (add_load); the others inside
 * a load.  *DYNAMIC: the PT_DYNAMIC. */
static int check_segments(struct image *im, const Elf64_Ehdr *eh, const Elf64_Phdr *ph, unsigned n,
                          const Elf64_Phdr **dynamic)
{
    for (unsigned i = 0; i < n; i++) {
        const Elf64_Phdr *p = &ph[i];
        if (!within(p->p_offset, p->p_filesz, 0, im->size) || (p->p_type == PT_LOAD && add_load(im, p) != 0))
            return -1;
    }
    if (!im->nload)
        return -1;
    *dynamic = NULL;
    for (unsigned i = 0; i < n; i++) {
        const Elf64_Phdr *p = &ph[i];
        switch (p->p_type) {
        case PT_LOAD:
            break;
        case PT_TLS:
            return -1;
        case PT_GNU_STACK:   /* an executable stack would be the whole process's */
            if (p->p_flags & PF_X)
                return -1;
            break;
        case PT_GNU_RELRO: {
            /* The loader makes the whole pages it covers read-only: they
             * must be pages of one writable load (not the code's). */
            const Elf64_Phdr *l = load_of(im, p->p_vaddr, p->p_memsz ? 1 : 0, MAPPED, PF_W);
            if (p->p_memsz > DWU_EH_ELF_MAX_SPAN || !l ||
                ((p->p_vaddr + p->p_memsz) & ~(uint64_t)(PAGE - 1)) > l->p_vaddr + l->p_memsz + PAGE - 1)
                return -1;
            break;
        }
        case PT_DYNAMIC:
        case PT_NOTE:
        case PT_GNU_PROPERTY:
        case PT_GNU_EH_FRAME:
        case PT_PHDR:
            /* Read in memory, by the loader or by unwinders (PT_PHDR is
             * what dl_iterate_phdr shows): the bytes mapped there must be
             * the file bytes of the segment, which are the ones checked. */
            if (!maps_file_bytes(load_of(im, p->p_vaddr, p->p_filesz, FILE_BYTES, PF_R), p) ||
                (p->p_type == PT_PHDR && (p->p_offset != eh->e_phoff || p->p_filesz != n * sizeof *p)))
                return -1;
            if (p->p_type == PT_DYNAMIC) {
                if (*dynamic)
                    return -1;
                *dynamic = p;
                im->dynamic_at = p->p_vaddr;
                im->dynamic_size = p->p_memsz;
            }
            break;
        default:
            if (p->p_memsz && !load_of(im, p->p_vaddr, p->p_memsz, MAPPED, 0))
                return -1;
        }
    }
    return *dynamic ? 0 : -1;
}

static int in_list(int64_t tag, const int64_t *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == tag)
            return 1;
    return 0;
}

/* The dynamic section: a DT_NULL ends it, every tag is known, the tracked
 * ones are noted; *DYN (malloc'd) and *N its entries before the DT_NULL. */
static int read_dynamic(struct image *im, const Elf64_Phdr *p, Elf64_Dyn **dyn, size_t *n)
{
    if (p->p_filesz == 0 || p->p_filesz % sizeof **dyn || p->p_filesz > MAX_DYN * sizeof **dyn)
        return -1;
    Elf64_Dyn *d = malloc(p->p_filesz);
    if (!d || read_at(im, p->p_offset, d, p->p_filesz) != 0) {
        free(d);
        return -1;
    }
    size_t count = p->p_filesz / sizeof *d, i;
    for (i = 0; i < count && d[i].d_tag != DT_NULL; i++) {
        int known = in_list(d[i].d_tag, other_tags, sizeof other_tags / sizeof *other_tags);
        for (int k = 0; k < D_COUNT; k++)
            if (d[i].d_tag == tracked_tags[k]) {
                im->dyn[k] = d[i].d_un.d_val;
                im->have |= 1u << k;
                known = 1;
            }
        if (!known) {
            free(d);
            return -1;
        }
    }
    int unsized = 0;
    for (size_t k = 0; k < sizeof sized / sizeof *sized; k++)
        unsized |= has(im, sized[k][0]) && !has(im, sized[k][1]);
    if (i == count || unsized) {   /* no DT_NULL, or a table without its size */
        free(d);
        return -1;
    }
    *dyn = d;
    *n = i;
    return 0;
}

/* DT_HASH: buckets and chains that end (no symbol reached twice). */
static int check_sysv_hash(const struct image *im, uint64_t *nsyms)
{
    uint32_t h[2];
    if (read_vaddr(im, im->dyn[D_HASH], h, sizeof h) != 0 || h[0] == 0 || h[0] > MAX_SYMS ||
        h[1] > MAX_SYMS)
        return -1;
    uint32_t nbucket = h[0], nchain = h[1];
    uint32_t *t = read_table(im, im->dyn[D_HASH], (2 + (uint64_t)nbucket + nchain) * 4);
    uint8_t *seen = calloc((size_t)nchain + 1, 1);
    int rc = t && seen ? 0 : -1;
    const uint32_t *chain = t ? t + 2 + nbucket : NULL;
    for (uint32_t b = 0; rc == 0 && b < nbucket; b++)
        for (uint32_t s = t[2 + b]; s != 0; s = chain[s]) {
            if (s >= nchain || seen[s]) {
                rc = -1;
                break;
            }
            seen[s] = 1;
        }
    free(t);
    free(seen);
    *nsyms = nchain;
    return rc;
}

/* DT_GNU_HASH: a power-of-two Bloom filter, buckets at or above the first
 * hashed symbol, and the chain of the last bucket ending in the table (all
 * others end before it).  *NSYMS: the symbols the table covers. */
static int check_gnu_hash(const struct image *im, uint64_t *nsyms)
{
    uint64_t at = im->dyn[D_GNU_HASH];
    uint32_t h[4];   /* nbuckets, symoffset, bloom_size, bloom_shift */
    if (read_vaddr(im, at, h, sizeof h) != 0 || h[0] == 0 || h[0] > MAX_SYMS || h[1] > MAX_SYMS ||
        h[2] == 0 || h[2] > MAX_SYMS || (h[2] & (h[2] - 1)) != 0)
        return -1;
    uint32_t nbuckets = h[0], symoffset = h[1];
    uint64_t buckets_at = at + 16 + (uint64_t)h[2] * 8, chains_at = buckets_at + (uint64_t)nbuckets * 4;
    if (!load_of(im, at, chains_at - at, FILE_BYTES, PF_R))
        return -1;
    uint32_t *buckets = read_table(im, buckets_at, (uint64_t)nbuckets * 4);
    if (!buckets)
        return -1;
    uint32_t last = 0;
    int rc = 0;
    for (uint32_t b = 0; b < nbuckets; b++) {
        if (buckets[b] && buckets[b] < symoffset)
            rc = -1;
        if (buckets[b] > last)
            last = buckets[b];
    }
    free(buckets);
    uint64_t n = symoffset;
    if (rc == 0 && last) {
        for (n = last;; n++) {
            uint32_t c;
            if (n >= MAX_SYMS || read_vaddr(im, chains_at + (n - symoffset) * 4, &c, 4) != 0)
                return -1;
            if (c & 1)
                break;
        }
        n++;
        /* Every other chain runs within the ones before this last. */
        if (!load_of(im, chains_at, (n - symoffset) * 4, FILE_BYTES, PF_R))
            return -1;
    }
    *nsyms = n;
    return rc;
}

/* Strings, symbols (as many as the hash tables reach) and their names. */
static int check_symbols(struct image *im)
{
    if (!has(im, D_STRTAB) || !has(im, D_STRSZ) || !has(im, D_SYMTAB) ||
        !(has(im, D_HASH) || has(im, D_GNU_HASH)) ||
        (has(im, D_SYMENT) && im->dyn[D_SYMENT] != sizeof(Elf64_Sym)))
        return -1;
    im->strsz = im->dyn[D_STRSZ];
    if (im->strsz == 0 || im->strsz > MAX_STRSZ)
        return -1;
    char *strtab = read_table(im, im->dyn[D_STRTAB], im->strsz);
    im->strtab = strtab;
    if (!strtab || strtab[im->strsz - 1] != 0)
        return -1;
    uint64_t n_sysv = 0, n_gnu = 0;
    if ((has(im, D_HASH) && check_sysv_hash(im, &n_sysv) != 0) ||
        (has(im, D_GNU_HASH) && check_gnu_hash(im, &n_gnu) != 0))
        return -1;
    im->nsyms = n_sysv > n_gnu ? n_sysv : n_gnu;
    if (im->nsyms == 0)
        return -1;
    im->syms = read_table(im, im->dyn[D_SYMTAB], im->nsyms * sizeof *im->syms);
    if (!im->syms)
        return -1;
    for (uint64_t i = 0; i < im->nsyms; i++) {
        const Elf64_Sym *s = &im->syms[i];
        int type = ELF64_ST_TYPE(s->st_info);
        if (s->st_name >= im->strsz)
            return -1;
        /* dlsym would call an IFUNC's resolver; TLS needs a module; the
         * loader resolves to an undefined symbol with a value (as to an
         * executable's PLT entry), which a shared object never has. */
        if ((s->st_shndx != SHN_UNDEF && (type == STT_GNU_IFUNC || type == STT_TLS)) ||
            (s->st_shndx == SHN_UNDEF && s->st_value != 0))
            return -1;
    }
    return 0;
}

/* A relocation writes 8 bytes at VADDR: an aligned word of a writable
 * segment, not in the dynamic section (which the loader reads again at
 * exit), each word written once (see check_relocations).  In an init or
 * fini array, it must be relative, to code (ADDEND): the loader calls what
 * the slot holds. */
static int check_write(struct image *im, uint64_t vaddr, int relative, uint64_t addend)
{
    if (vaddr % 8 || !load_of(im, vaddr, 8, MAPPED, PF_W) || im->nwritten == MAX_RELOCS ||
        (vaddr + 8 > im->dynamic_at && vaddr < im->dynamic_at + im->dynamic_size))
        return -1;
    if (im->nwritten == im->capwritten) {
        uint64_t cap = im->capwritten ? im->capwritten * 2 : 64;
        uint64_t *n = realloc(im->written, cap * sizeof *n);
        if (!n)
            return -1;
        im->written = n;
        im->capwritten = cap;
    }
    im->written[im->nwritten++] = vaddr;
    const uint64_t arrays[2] = {im->dyn[D_INIT_ARRAY], im->dyn[D_FINI_ARRAY]};
    const uint64_t counts[2] = {im->ninit, im->nfini};
    for (int a = 0; a < 2; a++) {
        if (!counts[a] || !within(vaddr, 1, arrays[a], arrays[a] + counts[a] * 8))
            continue;
        uint64_t slot = vaddr - arrays[a];
        if (slot % 8 || !relative || !load_of(im, addend, 1, MAPPED, PF_X))
            return -1;
        im->slot_relocated[(a ? im->ninit : 0) + slot / 8] = 1;
    }
    return 0;
}

/* RELA relocations; the first RELATIVE of them (DT_RELACOUNT: the loader
 * applies those without looking at their type) must be relative; the PLT's
 * (PLT) are all JUMP_SLOT (the words the PLT jumps through). */
static int check_rela(struct image *im, uint64_t at, uint64_t size, uint64_t relative, int plt)
{
    if (size % sizeof(Elf64_Rela) || relative > size / sizeof(Elf64_Rela))
        return -1;
    Elf64_Rela *r = read_table(im, at, size);
    if (!r)
        return -1;
    int rc = 0;
    for (uint64_t i = 0; rc == 0 && i < size / sizeof *r; i++) {
        uint32_t type = ELF64_R_TYPE(r[i].r_info);
        uint64_t sym = ELF64_R_SYM(r[i].r_info);
        if ((i < relative && type != R_X86_64_RELATIVE) || (plt && type != R_X86_64_JUMP_SLOT)) {
            rc = -1;
            break;
        }
        if (type == R_X86_64_NONE)
            continue;
        /* A symbol's address goes to a symbol the eh_elf imports, with
         * default visibility (the code calls __cxa_finalize or
         * __gmon_start__ through such a word when it is not zero): the
         * loader would resolve a local or hidden symbol, or one defined
         * here, to the eh_elf's own bytes. */
        int symbolic = type == R_X86_64_64 || type == R_X86_64_GLOB_DAT || type == R_X86_64_JUMP_SLOT;
        if (type != R_X86_64_RELATIVE && !symbolic)
            rc = -1;
        else if (symbolic && (sym == 0 || sym >= im->nsyms || im->syms[sym].st_shndx != SHN_UNDEF ||
                              ELF64_ST_BIND(im->syms[sym].st_info) == STB_LOCAL ||
                              ELF64_ST_VISIBILITY(im->syms[sym].st_other) != STV_DEFAULT))
            rc = -1;
        else
            rc = check_write(im, r[i].r_offset, type == R_X86_64_RELATIVE, (uint64_t)r[i].r_addend);
    }
    free(r);
    return rc;
}

/* DT_RELR: an even word is an address, an odd one a bitmap of the 63
 * words after the last address; each adds the load bias to the word. */
static int check_relr(struct image *im, uint64_t at, uint64_t size)
{
    if (size % 8 || (has(im, D_RELRENT) && im->dyn[D_RELRENT] != 8))
        return -1;
    uint64_t *w = read_table(im, at, size);
    if (!w)
        return -1;
    uint64_t where = 0;
    int rc = 0, started = 0;
    for (uint64_t i = 0; rc == 0 && i < size / 8; i++) {
        uint64_t word = w[i];
        if ((word & 1) == 0) {
            uint64_t value = 0;
            rc = read_vaddr(im, word, &value, 8) == 0 ? check_write(im, word, 1, value) : -1;
            where = word + 8;
            started = 1;
            continue;
        }
        if (!started)
            rc = -1;
        for (unsigned bit = 0; rc == 0 && (word >>= 1) != 0; bit++) {
            uint64_t value = 0, at_bit = where + bit * 8;
            if (word & 1)
                rc = read_vaddr(im, at_bit, &value, 8) == 0 ? check_write(im, at_bit, 1, value) : -1;
        }
        where += 63 * 8;
    }
    free(w);
    return rc;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Relocations, init and fini functions, and the PLT's reserved GOT words. */
static int check_relocations(struct image *im)
{
    if ((has(im, D_RELAENT) && im->dyn[D_RELAENT] != sizeof(Elf64_Rela)) ||
        (has(im, D_PLTREL) && im->dyn[D_PLTREL] != DT_RELA) ||
        (has(im, D_FLAGS) && (im->dyn[D_FLAGS] & DF_TEXTREL)))
        return -1;
    if ((has(im, D_INIT) && !load_of(im, im->dyn[D_INIT], 1, MAPPED, PF_X)) ||
        (has(im, D_FINI) && !load_of(im, im->dyn[D_FINI], 1, MAPPED, PF_X)))
        return -1;
    if (has(im, D_PLTGOT) && !load_of(im, im->dyn[D_PLTGOT], has(im, D_JMPREL) ? 24 : 8, MAPPED, PF_W))
        return -1;
    im->ninit = has(im, D_INIT_ARRAY) ? im->dyn[D_INIT_ARRAYSZ] / 8 : 0;
    im->nfini = has(im, D_FINI_ARRAY) ? im->dyn[D_FINI_ARRAYSZ] / 8 : 0;
    if ((has(im, D_INIT_ARRAY) && (im->dyn[D_INIT_ARRAYSZ] % 8 || im->ninit > MAX_SLOTS ||
                                   !load_of(im, im->dyn[D_INIT_ARRAY], im->ninit * 8, MAPPED, PF_W))) ||
        (has(im, D_FINI_ARRAY) && (im->dyn[D_FINI_ARRAYSZ] % 8 || im->nfini > MAX_SLOTS ||
                                   !load_of(im, im->dyn[D_FINI_ARRAY], im->nfini * 8, MAPPED, PF_W))))
        return -1;
    im->slot_relocated = calloc(im->ninit + im->nfini + 1, 1);
    if (!im->slot_relocated)
        return -1;
    /* The tables apart, but for the PLT's relocations at the end of DT_RELA,
     * which the loader then leaves out of it. */
    uint64_t relasz = im->dyn[D_RELASZ], pltrelsz = im->dyn[D_PLTRELSZ];
    if (has(im, D_RELA) && has(im, D_JMPREL) &&
        within(im->dyn[D_JMPREL], pltrelsz, im->dyn[D_RELA], im->dyn[D_RELA] + relasz)) {
        if (im->dyn[D_JMPREL] + pltrelsz != im->dyn[D_RELA] + relasz)
            return -1;
        relasz -= pltrelsz;
    }
    const uint64_t tables[3][2] = {{im->dyn[D_RELA], relasz}, {im->dyn[D_JMPREL], pltrelsz},
                                   {im->dyn[D_RELR], im->dyn[D_RELRSZ]}};
    const int present[3] = {has(im, D_RELA), has(im, D_JMPREL), has(im, D_RELR)};
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (present[a] && present[b] && tables[a][1] && tables[b][1] &&
                tables[a][0] < tables[b][0] + tables[b][1] && tables[b][0] < tables[a][0] + tables[a][1])
                return -1;
    if ((has(im, D_RELA) && check_rela(im, im->dyn[D_RELA], relasz, im->dyn[D_RELACOUNT], 0) != 0) ||
        (has(im, D_RELACOUNT) && !has(im, D_RELA)) ||
        (has(im, D_JMPREL) && check_rela(im, im->dyn[D_JMPREL], im->dyn[D_PLTRELSZ], 0, 1) != 0) ||
        (has(im, D_RELR) && check_relr(im, im->dyn[D_RELR], im->dyn[D_RELRSZ]) != 0))
        return -1;
    for (uint64_t i = 0; i < im->ninit + im->nfini; i++)
        if (!im->slot_relocated[i])
            return -1;
    /* Two relocations of one word: a damaged offset, which would have
     * replaced a pointer the code calls through (a GOT entry). */
    if (im->nwritten)   /* (an eh_elf built without start files has no relocations) */
        qsort(im->written, im->nwritten, sizeof *im->written, by_value);
    for (uint64_t i = 1; i < im->nwritten; i++)
        if (im->written[i] == im->written[i - 1])
            return -1;
    return 0;
}

/* Whether NAME (an offset in the string table) is a DT_NEEDED's. */
static int needed(const struct image *im, const Elf64_Dyn *d, size_t n, uint64_t name)
{
    for (size_t i = 0; i < n; i++)
        if (d[i].d_tag == DT_NEEDED && strcmp(im->strtab + d[i].d_un.d_val, im->strtab + name) == 0)
            return 1;
    return 0;
}

/* Version definitions and needs, walked as the loader walks them (to a
 * zero `next`), each need of a library the eh_elf needs (the loader asserts
 * it), and every DT_VERSYM index within what they define.  D, N: the
 * dynamic section. */
static int check_versions(const struct image *im, const Elf64_Dyn *d, size_t n)
{
    unsigned high = 1;   /* 0 local, 1 global */
    uint64_t at = im->dyn[D_VERDEF];
    for (unsigned k = 0; has(im, D_VERDEF); k++) {
        Elf64_Verdef vd;
        Elf64_Verdaux va;
        if (k == MAX_VERSION_ENTRIES || read_vaddr(im, at, &vd, sizeof vd) != 0 ||
            read_vaddr(im, at + vd.vd_aux, &va, sizeof va) != 0 || va.vda_name >= im->strsz)
            return -1;
        if ((vd.vd_ndx & 0x7fffu) > high)
            high = vd.vd_ndx & 0x7fffu;
        if (vd.vd_next == 0)
            break;
        at += vd.vd_next;
    }
    at = im->dyn[D_VERNEED];
    for (unsigned k = 0; has(im, D_VERNEED); k++) {
        Elf64_Verneed vn;
        if (k == MAX_VERSION_ENTRIES || read_vaddr(im, at, &vn, sizeof vn) != 0 || vn.vn_file >= im->strsz ||
            !needed(im, d, n, vn.vn_file))
            return -1;
        uint64_t aux = at + vn.vn_aux;
        for (;; k++) {
            Elf64_Vernaux va;
            if (k == MAX_VERSION_ENTRIES || read_vaddr(im, aux, &va, sizeof va) != 0 ||
                va.vna_name >= im->strsz)
                return -1;
            if ((va.vna_other & 0x7fffu) > high)
                high = va.vna_other & 0x7fffu;
            if (va.vna_next == 0)
                break;
            aux += va.vna_next;
        }
        if (vn.vn_next == 0)
            break;
        at += vn.vn_next;
    }
    if (!has(im, D_VERSYM))
        return 0;
    uint16_t *v = read_table(im, im->dyn[D_VERSYM], im->nsyms * 2);
    int rc = v ? 0 : -1;
    for (uint64_t i = 0; rc == 0 && i < im->nsyms; i++)
        if ((v[i] & 0x7fffu) > high)
            rc = -1;
    free(v);
    return rc;
}

/* A defined symbol NAME of TYPE, the only one of that name, or NULL. */
static const Elf64_Sym *abi_symbol(const struct image *im, const char *name, int type)
{
    const Elf64_Sym *found = NULL;
    for (uint64_t i = 1; i < im->nsyms; i++) {
        const Elf64_Sym *s = &im->syms[i];
        if (s->st_shndx == SHN_UNDEF || strcmp(im->strtab + s->st_name, name) != 0)
            continue;
        if (found || ELF64_ST_TYPE(s->st_info) != type || s->st_shndx >= SHN_LORESERVE)
            return NULL;
        found = s;
    }
    return found;
}

/* The eh_elf's ABI: the version word and the identity in read-only file
 * bytes (no relocation can change them), the step function in code. */
static int check_abi(const struct image *im, const struct dwu_identity *id)
{
    const Elf64_Sym *abi = abi_symbol(im, DWU_EH_ELF_VERSION, STT_OBJECT);
    const Elf64_Sym *identity = abi_symbol(im, DWU_EH_ELF_IDENTITY, STT_OBJECT);
    const Elf64_Sym *step = abi_symbol(im, DWU_EH_ELF_STEP, STT_FUNC);
    if (!abi || !identity || !step || !load_of(im, step->st_value, 1, MAPPED, PF_X))
        return -1;
    const Elf64_Phdr *l = load_of(im, abi->st_value, 4, FILE_BYTES, PF_R);
    uint32_t version;
    if (abi->st_size < 4 || !l || (l->p_flags & PF_W) || read_vaddr(im, abi->st_value, &version, 4) != 0 ||
        version < DWU_EH_ELF_ABI_OLDEST || version > DWU_EH_ELF_ABI)
        return -1;
    uint8_t bytes[2 + DWU_IDENTITY_MAX] = {0};
    uint64_t n = identity->st_size < sizeof bytes ? identity->st_size : sizeof bytes;
    l = load_of(im, identity->st_value, identity->st_size, FILE_BYTES, PF_R);
    if (n < 2 || !l || (l->p_flags & PF_W) || read_vaddr(im, identity->st_value, bytes, n) != 0 ||
        bytes[1] > n - 2)
        return -1;
    return id && !dwu_identity_equal(id, bytes) ? -1 : 0;
}

static int check_dynamic(struct image *im, const Elf64_Phdr *dynamic, const struct dwu_identity *id)
{
    Elf64_Dyn *d;
    size_t n;
    if (read_dynamic(im, dynamic, &d, &n) != 0)
        return -1;
    int rc = check_symbols(im);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (in_list(d[i].d_tag, string_tags, sizeof string_tags / sizeof *string_tags) &&
            d[i].d_un.d_val >= im->strsz)
            rc = -1;
    if (rc == 0)
        rc = check_relocations(im);
    if (rc == 0)
        rc = check_versions(im, d, n);
    if (rc == 0)
        rc = check_abi(im, id);
    free(d);
    return rc;
}

int dwu_eh_elf_file_check(int fd, const struct dwu_identity *id)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr) ||
        (uint64_t)st.st_size > DWU_EH_ELF_MAX_SPAN)
        return -1;
    struct image im = {.fd = fd, .size = (uint64_t)st.st_size};
    Elf64_Ehdr eh;
    Elf64_Phdr ph[DWU_EH_ELF_MAX_PHDRS];
    unsigned nph;
    const Elf64_Phdr *dynamic;
    int rc = check_headers(&im, &eh, ph, &nph) == 0 && check_segments(&im, &eh, ph, nph, &dynamic) == 0 &&
                     check_dynamic(&im, dynamic, id) == 0
                 ? 0
                 : -1;
    free((void *)im.strtab);
    free((void *)im.syms);
    free(im.slot_relocated);
    free(im.written);
    return rc;
}
