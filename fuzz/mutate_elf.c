/*
 * mutate_elf: write mutant N of a real x86_64 ELF file, for the mutation
 * runs of fuzz/mutants.sh.
 *
 *   mutate_elf SEED N OUT
 *
 * The mutant is a copy of SEED with 1 to 3 mutations.  Each one picks a
 * target -- an ELF header field; a program header field (the executable
 * PT_LOAD, PT_GNU_EH_FRAME and PT_DYNAMIC most often); a section header
 * field (sh_size, sh_offset, sh_addr most often) of a section the tools read
 * (.eh_frame, .eh_frame_hdr, .plt, .plt.sec, .plt.got, .rela.plt, the symbol
 * and string tables, .gcc_except_table, .text) or of any section; a field of
 * a CIE or FDE in .eh_frame (or .debug_frame): length, CIE pointer,
 * pc_begin, pc_range, version, augmentation, alignment factors, return
 * address column, pointer encodings, instructions; a field of .eh_frame_hdr
 * (encodings, count, table entries); a symbol's st_name, st_info, st_shndx,
 * st_value or st_size; a relocation of .rela.plt or .rela.dyn; a .dynamic
 * entry; bytes of .plt*, .gcc_except_table or .text; or the file's length --
 * and changes it to an interesting value (0, 1, -1, 0x7fffffff, 0x80000000,
 * 2^32, 2^40, 2^63, the value plus or minus a little, another field's value),
 * a flipped bit, swapped bytes, or a random value.
 *
 * The choices come from N alone (splitmix64), so the same SEED and N always
 * give the same file: a failing mutant is regenerated from its seed and
 * number.  The seed is parsed here by hand, once, before any change; every
 * write is bounds-checked, so any SEED is accepted.  Prints what was changed
 * on stdout, one line per mutation, e.g.
 *
 *   eh_frame FDE@0x90 pc_range: 0x2a -> 0x80000000
 *
 * Exit status 0, or 2 when SEED cannot be read or OUT written.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- random choices ---------------------------------------------------- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A number in [0, n); 0 when n is 0. */
static uint64_t below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

/* ---- the file ---------------------------------------------------------- */

static uint8_t *bytes;     /* the mutant, changed in place */
static size_t size;        /* the seed's length */
static size_t out_size;    /* the mutant's length (a truncation lowers it) */

static int in_file(uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

static uint64_t get(uint64_t off, unsigned width)
{
    uint64_t v = 0;
    if (!in_file(off, width))
        return 0;
    for (unsigned i = 0; i < width; i++)
        v |= (uint64_t)bytes[off + i] << (8 * i);
    return v;
}

static void put(uint64_t off, unsigned width, uint64_t v)
{
    if (!in_file(off, width))
        return;
    for (unsigned i = 0; i < width; i++)
        bytes[off + i] = (uint8_t)(v >> (8 * i));
}

static uint64_t width_mask(unsigned width)
{
    return width >= 8 ? ~0ull : (1ull << (8 * width)) - 1;
}

/* ---- what the seed holds (parsed before any change) --------------------- */

static Elf64_Ehdr ehdr;
static int have_ehdr;

struct section {
    size_t index;
    uint64_t hdr;          /* file offset of its section header */
    Elf64_Shdr sh;
    const char *name;      /* points into the pristine copy, or "" */
};
static struct section *sections;
static size_t nsections;

struct segment {
    uint64_t hdr;          /* file offset of its program header */
    Elf64_Phdr ph;
};
static struct segment *segments;
static size_t nsegments;

static uint8_t *pristine;  /* the seed, never changed */

/* Values found in the seed's headers, for "another field's value". */
static uint64_t pool[512];
static size_t npool;

static void pool_add(uint64_t v)
{
    if (npool < sizeof pool / sizeof pool[0])
        pool[npool++] = v;
}

static const struct section *section_named(const char *name)
{
    for (size_t i = 0; i < nsections; i++)
        if (strcmp(sections[i].name, name) == 0)
            return &sections[i];
    return NULL;
}

/* A section whose bytes lie in the file. */
static int has_bytes(const struct section *s)
{
    return s && s->sh.sh_type != SHT_NOBITS && s->sh.sh_size > 0 &&
           in_file(s->sh.sh_offset, s->sh.sh_size);
}

static void parse_headers(void)
{
    if (size < sizeof ehdr || memcmp(pristine, ELFMAG, SELFMAG) != 0 ||
        pristine[EI_CLASS] != ELFCLASS64 || pristine[EI_DATA] != ELFDATA2LSB)
        return;
    memcpy(&ehdr, pristine, sizeof ehdr);
    have_ehdr = 1;
    pool_add(size);

    if (ehdr.e_phentsize == sizeof(Elf64_Phdr) &&
        in_file(ehdr.e_phoff, (uint64_t)ehdr.e_phnum * sizeof(Elf64_Phdr))) {
        segments = calloc(ehdr.e_phnum + 1u, sizeof *segments);
        for (size_t i = 0; segments && i < ehdr.e_phnum; i++) {
            struct segment *g = &segments[nsegments++];
            g->hdr = ehdr.e_phoff + i * sizeof(Elf64_Phdr);
            memcpy(&g->ph, pristine + g->hdr, sizeof g->ph);
            pool_add(g->ph.p_offset);
            pool_add(g->ph.p_vaddr);
            pool_add(g->ph.p_filesz);
            pool_add(g->ph.p_memsz);
        }
    }

    if (ehdr.e_shentsize != sizeof(Elf64_Shdr) ||
        !in_file(ehdr.e_shoff, (uint64_t)ehdr.e_shnum * sizeof(Elf64_Shdr)))
        return;
    sections = calloc(ehdr.e_shnum + 1u, sizeof *sections);
    for (size_t i = 0; sections && i < ehdr.e_shnum; i++) {
        struct section *s = &sections[nsections++];
        s->index = i;
        s->hdr = ehdr.e_shoff + i * sizeof(Elf64_Shdr);
        memcpy(&s->sh, pristine + s->hdr, sizeof s->sh);
        s->name = "";
        pool_add(s->sh.sh_offset);
        pool_add(s->sh.sh_addr);
        pool_add(s->sh.sh_size);
    }
    if (ehdr.e_shstrndx < nsections) {
        const Elf64_Shdr *strtab = &sections[ehdr.e_shstrndx].sh;
        for (size_t i = 0; i < nsections; i++) {
            uint64_t at = strtab->sh_offset + sections[i].sh.sh_name;
            if (sections[i].sh.sh_name < strtab->sh_size && in_file(strtab->sh_offset, strtab->sh_size) &&
                memchr(pristine + at, 0, strtab->sh_offset + strtab->sh_size - at))
                sections[i].name = (const char *)pristine + at;
        }
    }
}

/* ---- CIEs and FDEs ------------------------------------------------------ */

struct cfi_entry {
    uint64_t off;          /* file offset of the length field */
    int is_cie;
    uint64_t id_off;       /* CIE id, or the FDE's CIE pointer */
    uint64_t end;          /* file offset just past the entry */
    /* CIE */
    uint64_t version_off, aug_off, aug_len, code_align_off, data_align_off, ra_off;
    uint64_t augdata_len_off, augdata_off, augdata_len;
    int fde_encoding;      /* the 'R' encoding, DW_EH_PE_* */
    /* FDE */
    uint64_t pc_begin_off, pc_range_off;
    unsigned ptr_width;
    uint64_t fde_augdata_len_off;
    /* both */
    uint64_t insn_off;
};

struct cfi_section {
    const struct section *sec;
    int is_eh;             /* .eh_frame (CIE pointers relative) or .debug_frame */
    struct cfi_entry *entries;
    size_t n;
};
static struct cfi_section cfi[2];

static uint64_t skip_leb(uint64_t p, uint64_t end)
{
    while (p < end && (pristine[p] & 0x80))
        p++;
    return p < end ? p + 1 : end;
}

static uint64_t read_uleb(uint64_t p, uint64_t end)
{
    uint64_t v = 0;
    for (unsigned shift = 0; p < end && shift < 64; shift += 7) {
        v |= (uint64_t)(pristine[p] & 0x7f) << shift;
        if (!(pristine[p++] & 0x80))
            break;
    }
    return v;
}

static unsigned encoded_width(int enc)
{
    switch (enc & 0x0f) {
    case 0x02: case 0x0a: return 2;
    case 0x03: case 0x0b: return 4;
    default: return 8;     /* absptr, udata8, sdata8 */
    }
}

static void parse_cfi(struct cfi_section *c, const struct section *sec, int is_eh)
{
    c->sec = sec;
    c->is_eh = is_eh;
    if (!has_bytes(sec))
        return;
    uint64_t start = sec->sh.sh_offset, end = start + sec->sh.sh_size;
    size_t cap = 0;
    for (uint64_t p = start; p + 8 <= end;) {
        uint64_t len = get(p, 4);
        if (len == 0 || len >= 0xfffffff0u || len > end - p - 4)
            break;
        struct cfi_entry e = { .off = p, .id_off = p + 4, .end = p + 4 + len, .ptr_width = 4 };
        uint64_t id = get(p + 4, 4);
        e.is_cie = is_eh ? id == 0 : id == 0xffffffffu;
        uint64_t q = p + 8;
        if (e.is_cie) {
            e.version_off = q++;
            e.aug_off = q;
            while (q < e.end && pristine[q])
                q++;
            e.aug_len = q - e.aug_off;
            q++;
            if (!is_eh && pristine[e.version_off] >= 4)
                q += 2;    /* address_size, segment_size */
            e.code_align_off = q;
            q = skip_leb(q, e.end);
            e.data_align_off = q;
            q = skip_leb(q, e.end);
            e.ra_off = q;
            q = pristine[e.version_off] == 1 ? q + 1 : skip_leb(q, e.end);
            e.fde_encoding = is_eh ? 0x00 : -1;
            if (e.aug_len && pristine[e.aug_off] == 'z') {
                e.augdata_len_off = q;
                e.augdata_len = read_uleb(q, e.end);
                q = skip_leb(q, e.end);
                e.augdata_off = q;
                uint64_t a = q;
                for (uint64_t k = 1; k < e.aug_len && a < e.end; k++) {
                    char ch = (char)pristine[e.aug_off + k];
                    if (ch == 'R')
                        e.fde_encoding = pristine[a++];
                    else if (ch == 'L')
                        a++;
                    else if (ch == 'P') {
                        int penc = pristine[a++];
                        a += encoded_width(penc);
                    }
                }
                q += e.augdata_len;
            }
        } else {
            /* The CIE this FDE names, to learn the pointer width. */
            uint64_t cie_off = is_eh ? e.id_off - id : start + id;
            unsigned width = is_eh ? 4 : 8;
            int augmented = 0;
            for (size_t i = 0; i < c->n; i++)
                if (c->entries[i].is_cie && c->entries[i].off == cie_off) {
                    if (c->entries[i].fde_encoding >= 0)
                        width = encoded_width(c->entries[i].fde_encoding);
                    augmented = c->entries[i].augdata_len_off != 0;
                }
            e.ptr_width = width;
            e.pc_begin_off = q;
            e.pc_range_off = q + width;
            q += 2 * width;
            if (augmented) {
                e.fde_augdata_len_off = q;
                uint64_t n = read_uleb(q, e.end);
                q = skip_leb(q, e.end) + n;
            }
        }
        e.insn_off = q < e.end ? q : e.end;
        if (c->n == cap) {
            cap = cap ? 2 * cap : 64;
            struct cfi_entry *grown = realloc(c->entries, cap * sizeof *grown);
            if (!grown)
                return;
            c->entries = grown;
        }
        c->entries[c->n++] = e;
        p = e.end;
    }
}

/* ---- changing one value ------------------------------------------------- */

static const uint64_t interesting[] = {
    0, 1, 2, 3, 4, 7, 8, 16, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
    0x10000, 0x7fffffff, 0x80000000, 0xfffffff0, 0xffffffff, 1ull << 32,
    (1ull << 32) + 1, 1ull << 40, 0x7fffffffffffffffull, 1ull << 63, ~0ull,
    ~0ull - 1, 0x10000000, 0x40000000,
};

static char what[4096];    /* the lines printed at the end */

static void note(const char *fmt, ...)
{
    size_t used = strlen(what);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what + used, sizeof what - used, fmt, ap);
    va_end(ap);
}

/* A new value for a field of WIDTH bytes that holds OLD. */
static uint64_t new_value(uint64_t old, unsigned width)
{
    uint64_t mask = width_mask(width), v;
    unsigned r = (unsigned)below(100);
    if (r < 40) {
        v = interesting[below(sizeof interesting / sizeof interesting[0])];
        if (below(4) == 0)   /* negative, as the field's own width sees it */
            v = (0 - v) & mask;
    } else if (r < 55) {
        uint64_t d = below(3) ? 1 : 1 + below(64);
        v = below(2) ? old + d : old - d;
    } else if (r < 67) {
        v = npool ? pool[below(npool)] + (below(3) ? 0 : below(2) ? 1 : ~0ull) : old ^ 1;
    } else if (r < 75) {
        v = old + (1ull << below(8 * width));
    } else if (r < 87) {
        v = old ^ (1ull << below(8 * width));
    } else if (r < 94 && width > 1) {
        /* byte swap: reversed, or two bytes exchanged */
        v = 0;
        if (below(2)) {
            for (unsigned i = 0; i < width; i++)
                v |= ((old >> (8 * i)) & 0xff) << (8 * (width - 1 - i));
        } else {
            unsigned a = (unsigned)below(width), b = (unsigned)below(width);
            uint64_t ba = (old >> (8 * a)) & 0xff, bb = (old >> (8 * b)) & 0xff;
            v = old & ~(0xffull << (8 * a)) & ~(0xffull << (8 * b));
            v |= ba << (8 * b) | bb << (8 * a);
        }
    } else {
        v = rnd();
    }
    v &= mask;
    if (v == (old & mask))
        v = (old ^ (1ull << below(8 * width))) & mask;
    return v;
}

/* Change the field of WIDTH bytes at OFF, named NAME in the output. */
static void mutate_field(uint64_t off, unsigned width, const char *name)
{
    if (!in_file(off, width))
        return;
    uint64_t old = get(off, width), v = new_value(old, width);
    put(off, width, v);
    note("%s @0x%" PRIx64 ": 0x%" PRIx64 " -> 0x%" PRIx64 "\n", name, off, old, v);
}

/* Set the field to V, or change it otherwise if it holds V already. */
static void set_field(uint64_t off, unsigned width, uint64_t v, const char *name)
{
    if (!in_file(off, width))
        return;
    uint64_t old = get(off, width);
    if (old == (v & width_mask(width))) {
        mutate_field(off, width, name);
        return;
    }
    put(off, width, v & width_mask(width));
    note("%s @0x%" PRIx64 ": 0x%" PRIx64 " -> 0x%" PRIx64 "\n", name, off, old, v & width_mask(width));
}

/* Pointer encodings, DW_EH_PE_*: valid ones, and a few that are not. */
static const uint8_t encodings[] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x09, 0x0a, 0x0b, 0x0c, 0x10, 0x1b, 0x1c, 0x30,
    0x3b, 0x50, 0x80, 0x9b, 0xff, 0x0f, 0x07, 0x70, 0x40,
};

static void mutate_encoding(uint64_t off, const char *name)
{
    if (below(2))
        set_field(off, 1, encodings[below(sizeof encodings)], name);
    else
        mutate_field(off, 1, name);
}

/* Bytes: instructions of the CFA machine, when CFA is set. */
static uint8_t interesting_byte(int cfa)
{
    static const uint8_t plain[] = { 0x00, 0x01, 0x7f, 0x80, 0xff, 0xc3, 0x55, 0xe8, 0xe9, 0xcc };
    static const uint8_t ops[] = {
        0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d,
        0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x2e, 0x2f, 0x1c, 0x3f,
    };
    if (!cfa)
        return below(3) ? plain[below(sizeof plain)] : (uint8_t)rnd();
    switch (below(5)) {
    case 0: return (uint8_t)(0x40 | below(64));      /* advance_loc */
    case 1: return (uint8_t)(0x80 | below(20));      /* offset, reg */
    case 2: return (uint8_t)(0xc0 | below(20));      /* restore, reg */
    case 3: return (uint8_t)rnd();
    default: return ops[below(sizeof ops)];
    }
}

/* Change bytes in [OFF, OFF + LEN): a flipped bit, an interesting byte, two
 * bytes exchanged, an interesting 4-byte value, or a run of continuation
 * bytes (an overlong LEB128). */
static void mutate_bytes(uint64_t off, uint64_t len, const char *name, int cfa)
{
    if (len == 0 || !in_file(off, len))
        return;
    uint64_t at = off + below(len);
    switch (below(cfa ? 6 : 5)) {
    case 0: {
        uint8_t old = bytes[at];
        bytes[at] ^= (uint8_t)(1u << below(8));
        note("%s byte @0x%" PRIx64 ": 0x%02x -> 0x%02x\n", name, at, old, bytes[at]);
        break;
    }
    case 1:
    case 2: {
        uint8_t old = bytes[at];
        bytes[at] = interesting_byte(cfa);
        note("%s byte @0x%" PRIx64 ": 0x%02x -> 0x%02x\n", name, at, old, bytes[at]);
        break;
    }
    case 3: {
        uint64_t other = off + below(len);
        if (other == at && len > 1)
            other = off + (at - off + 1) % len;
        uint8_t t = bytes[at];
        bytes[at] = bytes[other];
        bytes[other] = t;
        note("%s bytes @0x%" PRIx64 " and @0x%" PRIx64 " exchanged\n", name, at, other);
        break;
    }
    case 4:
        if (at + 4 <= off + len)
            mutate_field(at, 4, name);
        else
            mutate_field(at, 1, name);
        break;
    default: {
        uint64_t n = 1 + below(12);
        if (at + n > off + len)
            n = off + len - at;
        memset(bytes + at, 0x80 | (uint8_t)below(2), n);
        note("%s bytes @0x%" PRIx64 ": %" PRIu64 " continuation bytes\n", name, at, n);
        break;
    }
    }
}

/* ---- the targets -------------------------------------------------------- */

static int mutate_ehdr(void)
{
    static const struct { unsigned off, width; const char *name; } f[] = {
        { EI_CLASS, 1, "ehdr e_ident[EI_CLASS]" }, { EI_DATA, 1, "ehdr e_ident[EI_DATA]" },
        { EI_VERSION, 1, "ehdr e_ident[EI_VERSION]" }, { EI_OSABI, 1, "ehdr e_ident[EI_OSABI]" },
        { 16, 2, "ehdr e_type" }, { 18, 2, "ehdr e_machine" }, { 20, 4, "ehdr e_version" },
        { 24, 8, "ehdr e_entry" }, { 32, 8, "ehdr e_phoff" }, { 40, 8, "ehdr e_shoff" },
        { 48, 4, "ehdr e_flags" }, { 52, 2, "ehdr e_ehsize" }, { 54, 2, "ehdr e_phentsize" },
        { 56, 2, "ehdr e_phnum" }, { 58, 2, "ehdr e_shentsize" }, { 60, 2, "ehdr e_shnum" },
        { 62, 2, "ehdr e_shstrndx" },
    };
    /* The offsets, counts and string table index most often. */
    static const unsigned often[] = { 8, 9, 13, 15, 16, 5, 1 };
    size_t i = below(3) ? often[below(sizeof often / sizeof often[0])] : below(sizeof f / sizeof f[0]);
    mutate_field(f[i].off, f[i].width, f[i].name);
    return 1;
}

static int mutate_phdr(void)
{
    if (nsegments == 0)
        return 0;
    const struct segment *g = &segments[below(nsegments)];
    if (below(2)) {   /* the segments the tools read */
        const struct segment *pick[64];
        size_t n = 0;
        for (size_t i = 0; i < nsegments && n < 64; i++) {
            const Elf64_Phdr *ph = &segments[i].ph;
            if ((ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) || ph->p_type == PT_GNU_EH_FRAME ||
                ph->p_type == PT_DYNAMIC)
                pick[n++] = &segments[i];
        }
        if (n)
            g = pick[below(n)];
    }
    static const struct { unsigned off, width; const char *name; } f[] = {
        { 0, 4, "p_type" }, { 4, 4, "p_flags" }, { 8, 8, "p_offset" }, { 16, 8, "p_vaddr" },
        { 24, 8, "p_paddr" }, { 32, 8, "p_filesz" }, { 40, 8, "p_memsz" }, { 48, 8, "p_align" },
        { 8, 8, "p_offset" }, { 16, 8, "p_vaddr" }, { 32, 8, "p_filesz" }, { 40, 8, "p_memsz" },
    };
    size_t i = below(sizeof f / sizeof f[0]);
    char name[64];
    snprintf(name, sizeof name, "phdr[%zu type 0x%x] %s", (size_t)((g->hdr - ehdr.e_phoff) / sizeof(Elf64_Phdr)),
             g->ph.p_type, f[i].name);
    if (f[i].off == 0 && below(2)) {
        static const uint32_t types[] = { PT_NULL, PT_LOAD, PT_DYNAMIC, PT_NOTE, PT_GNU_EH_FRAME,
                                          PT_GNU_STACK, PT_TLS, 0x7fffffff, 0xffffffff };
        set_field(g->hdr, 4, types[below(sizeof types / sizeof types[0])], name);
    } else {
        mutate_field(g->hdr + f[i].off, f[i].width, name);
    }
    return 1;
}

/* The sections the tools read, the unwind tables and the PLT first. */
static const char *const read_sections[] = {
    ".eh_frame", ".eh_frame", ".eh_frame", ".eh_frame_hdr", ".eh_frame_hdr", ".plt", ".plt",
    ".plt.sec", ".plt.sec", ".plt.got", ".plt.got", ".rela.plt", ".symtab", ".dynsym", ".strtab",
    ".dynstr", ".gcc_except_table", ".text", ".text", ".debug_frame", ".rela.dyn", ".dynamic",
    ".init", ".fini", ".got", ".got.plt", ".shstrtab",
};

static const struct section *pick_section(void)
{
    if (nsections == 0)
        return NULL;
    if (below(4)) {
        for (int tries = 0; tries < 8; tries++) {
            const struct section *s = section_named(read_sections[below(sizeof read_sections / sizeof read_sections[0])]);
            if (s)
                return s;
        }
    }
    return &sections[below(nsections)];
}

static int mutate_shdr(void)
{
    const struct section *s = pick_section();
    if (!s)
        return 0;
    static const struct { unsigned off, width; const char *name; } f[] = {
        { 0, 4, "sh_name" }, { 4, 4, "sh_type" }, { 8, 8, "sh_flags" }, { 16, 8, "sh_addr" },
        { 24, 8, "sh_offset" }, { 32, 8, "sh_size" }, { 40, 4, "sh_link" }, { 44, 4, "sh_info" },
        { 48, 8, "sh_addralign" }, { 56, 8, "sh_entsize" },
        { 32, 8, "sh_size" }, { 32, 8, "sh_size" }, { 24, 8, "sh_offset" }, { 16, 8, "sh_addr" },
    };
    size_t i = below(sizeof f / sizeof f[0]);
    char name[96];
    snprintf(name, sizeof name, "shdr[%zu %s] %s", s->index, s->name, f[i].name);
    if (f[i].off == 4 && below(2)) {
        static const uint32_t types[] = { SHT_NULL, SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_RELA,
                                          SHT_DYNAMIC, SHT_NOBITS, SHT_DYNSYM, SHT_REL, 0x70000001 };
        set_field(s->hdr + 4, 4, types[below(sizeof types / sizeof types[0])], name);
    } else if (f[i].off == 8 && below(2)) {
        set_field(s->hdr + 8, 8, s->sh.sh_flags ^ (below(2) ? SHF_EXECINSTR : SHF_ALLOC), name);
    } else {
        mutate_field(s->hdr + f[i].off, f[i].width, name);
    }
    return 1;
}

static int mutate_cfi(void)
{
    struct cfi_section *c = &cfi[below(5) ? 0 : 1];
    if (c->n == 0)
        c = &cfi[0];
    if (c->n == 0)
        return 0;
    const char *sec = c->is_eh ? "eh_frame" : "debug_frame";
    size_t k = below(c->n);
    if (below(4) == 0)   /* a CIE more often than their share */
        for (size_t t = 0; t < c->n; t++)
            if (c->entries[(k + t) % c->n].is_cie) {
                k = (k + t) % c->n;
                break;
            }
    const struct cfi_entry *e = &c->entries[k];
    char name[96];
    unsigned r = (unsigned)below(100);
    if (r < 12) {
        snprintf(name, sizeof name, "%s %s@0x%" PRIx64 " length", sec, e->is_cie ? "CIE" : "FDE", e->off);
        if (below(5) == 0)
            set_field(e->off, 4, below(2) ? 0 : 0xffffffffu, name);   /* terminator, 64-bit escape */
        else
            mutate_field(e->off, 4, name);
        return 1;
    }
    if (r < 20) {
        snprintf(name, sizeof name, "%s %s@0x%" PRIx64 " %s", sec, e->is_cie ? "CIE" : "FDE", e->off,
                 e->is_cie ? "CIE id" : "CIE pointer");
        mutate_field(e->id_off, 4, name);
        return 1;
    }
    if (r < 60 && e->insn_off < e->end) {
        snprintf(name, sizeof name, "%s %s@0x%" PRIx64 " instructions", sec, e->is_cie ? "CIE" : "FDE", e->off);
        mutate_bytes(e->insn_off, e->end - e->insn_off, name, 1);
        return 1;
    }
    if (e->is_cie) {
        snprintf(name, sizeof name, "%s CIE@0x%" PRIx64, sec, e->off);
        size_t used = strlen(name);
        switch (below(7)) {
        case 0:
            snprintf(name + used, sizeof name - used, " version");
            mutate_field(e->version_off, 1, name);
            break;
        case 1:
            if (e->aug_len) {
                static const char letters[] = "zRPLSeh\0B";
                snprintf(name + used, sizeof name - used, " augmentation");
                set_field(e->aug_off + below(e->aug_len + 1), 1, (uint8_t)letters[below(sizeof letters)], name);
                break;
            }
            /* fall through */
        case 2:
            snprintf(name + used, sizeof name - used, " code_align");
            mutate_field(e->code_align_off, 1, name);
            break;
        case 3:
            snprintf(name + used, sizeof name - used, " data_align");
            mutate_field(e->data_align_off, 1, name);
            break;
        case 4:
            snprintf(name + used, sizeof name - used, " return_address_register");
            mutate_field(e->ra_off, 1, name);
            break;
        default:
            if (e->augdata_len_off) {
                snprintf(name + used, sizeof name - used, " augmentation data");
                if (below(3) == 0)
                    mutate_field(e->augdata_len_off, 1, name);
                else if (e->augdata_len)
                    mutate_encoding(e->augdata_off + below(e->augdata_len), name);
                else
                    mutate_field(e->augdata_len_off, 1, name);
            } else {
                snprintf(name + used, sizeof name - used, " version");
                mutate_field(e->version_off, 1, name);
            }
        }
        return 1;
    }
    snprintf(name, sizeof name, "%s FDE@0x%" PRIx64, sec, e->off);
    size_t used = strlen(name);
    switch (below(6)) {
    case 0:
    case 1:
        snprintf(name + used, sizeof name - used, " pc_begin");
        mutate_field(e->pc_begin_off, e->ptr_width, name);
        break;
    case 2:
    case 3:
        snprintf(name + used, sizeof name - used, " pc_range");
        mutate_field(e->pc_range_off, e->ptr_width, name);
        break;
    case 4: {
        /* Another FDE's pc_begin, as an address: the two overlap. */
        const struct cfi_entry *o = &c->entries[below(c->n)];
        snprintf(name + used, sizeof name - used, " pc_begin (FDE@0x%" PRIx64 "'s)", o->off);
        if (o->is_cie || !c->is_eh || e->ptr_width != 4) {
            mutate_field(e->pc_begin_off, e->ptr_width, name);
            break;
        }
        /* pcrel sdata4: address = section address + position + value */
        int64_t target = (int64_t)(int32_t)get(o->pc_begin_off, 4) + (int64_t)(o->pc_begin_off - e->pc_begin_off);
        set_field(e->pc_begin_off, 4, (uint64_t)(target + (int64_t)below(3)), name);
        break;
    }
    default:
        snprintf(name + used, sizeof name - used, " augmentation data");
        if (e->fde_augdata_len_off && e->fde_augdata_len_off < e->end) {
            if (below(2))
                mutate_field(e->fde_augdata_len_off, 1, name);
            else
                mutate_bytes(e->fde_augdata_len_off + 1, e->insn_off - e->fde_augdata_len_off - 1, name, 0);
        } else {
            mutate_field(e->pc_range_off, e->ptr_width, name);
        }
    }
    return 1;
}

static int mutate_eh_frame_hdr(void)
{
    const struct section *s = section_named(".eh_frame_hdr");
    if (!has_bytes(s) || s->sh.sh_size < 12)
        return 0;
    uint64_t o = s->sh.sh_offset;
    uint64_t count = (s->sh.sh_size - 12) / 8;
    switch (below(8)) {
    case 0:
        mutate_field(o, 1, "eh_frame_hdr version");
        break;
    case 1:
        mutate_encoding(o + 1 + below(3), "eh_frame_hdr encoding");
        break;
    case 2:
        mutate_field(o + 4, 4, "eh_frame_hdr eh_frame_ptr");
        break;
    case 3:
    case 4:
        mutate_field(o + 8, 4, "eh_frame_hdr fde_count");
        break;
    case 5:
        if (count >= 2) {   /* the table out of order */
            uint64_t a = o + 12 + 8 * below(count), b = o + 12 + 8 * below(count);
            uint64_t va = get(a, 8), vb = get(b, 8);
            put(a, 8, vb);
            put(b, 8, va);
            note("eh_frame_hdr table entries @0x%" PRIx64 " and @0x%" PRIx64 " exchanged\n", a, b);
            break;
        }
        /* fall through */
    default:
        if (count) {
            uint64_t at = o + 12 + 8 * below(count) + 4 * below(2);
            mutate_field(at, 4, at % 8 == (o + 12) % 8 ? "eh_frame_hdr table initial_loc" : "eh_frame_hdr table fde");
        } else {
            mutate_field(o + 8, 4, "eh_frame_hdr fde_count");
        }
    }
    return 1;
}

static int mutate_symbol(void)
{
    const struct section *s = section_named(".symtab"), *d = section_named(".dynsym");
    if (!has_bytes(s) || (has_bytes(d) && below(3) == 0))
        s = d;
    if (!has_bytes(s) || s->sh.sh_size < 2 * sizeof(Elf64_Sym))
        return 0;
    uint64_t n = s->sh.sh_size / sizeof(Elf64_Sym), k = 1 + below(n - 1);
    if (below(4)) {   /* a function most often */
        for (uint64_t t = 0; t < n; t++) {
            uint64_t j = 1 + (k - 1 + t) % (n - 1);
            if (ELF64_ST_TYPE(pristine[s->sh.sh_offset + j * sizeof(Elf64_Sym) + 4]) == STT_FUNC) {
                k = j;
                break;
            }
        }
    }
    uint64_t at = s->sh.sh_offset + k * sizeof(Elf64_Sym);
    static const struct { unsigned off, width; const char *name; } f[] = {
        { 0, 4, "st_name" }, { 4, 1, "st_info" }, { 5, 1, "st_other" }, { 6, 2, "st_shndx" },
        { 8, 8, "st_value" }, { 16, 8, "st_size" }, { 8, 8, "st_value" }, { 16, 8, "st_size" },
    };
    size_t i = below(sizeof f / sizeof f[0]);
    char name[96];
    snprintf(name, sizeof name, "%s[%" PRIu64 "] %s", s->name, k, f[i].name);
    if (f[i].off == 4 && below(2)) {
        static const uint8_t infos[] = { 0x12, 0x02, 0x22, 0x1a, 0x0a, 0x11, 0x00, 0x13, 0x16, 0xff };
        set_field(at + 4, 1, infos[below(sizeof infos)], name);
    } else if (f[i].off == 8 && below(3) == 0) {
        /* another symbol's value: two functions at one address */
        uint64_t other = s->sh.sh_offset + (1 + below(n - 1)) * sizeof(Elf64_Sym) + 8;
        set_field(at + 8, 8, get(other, 8) + below(2), name);
    } else {
        mutate_field(at + f[i].off, f[i].width, name);
    }
    return 1;
}

static int mutate_code_bytes(void)
{
    static const char *const code[] = { ".plt", ".plt.sec", ".plt.got", ".plt", ".plt.sec", ".gcc_except_table",
                                        ".gcc_except_table", ".text", ".init", ".fini" };
    const struct section *s = section_named(code[below(sizeof code / sizeof code[0])]);
    if (!has_bytes(s))
        return 0;
    char name[64];
    snprintf(name, sizeof name, "%s", s->name);
    if (strcmp(s->name, ".text") == 0 && below(2)) {
        /* An instruction that changes the frame or the control flow. */
        static const uint8_t insns[][8] = {
            { 1, 0x55 },                           /* push %rbp */
            { 1, 0xc3 },                           /* ret */
            { 1, 0xc9 },                           /* leave */
            { 2, 0x0f, 0x0b },                     /* ud2 */
            { 2, 0xff, 0xe0 },                     /* jmp *%rax */
            { 5, 0xe9, 0xf0, 0xff, 0xff, 0x7f },   /* jmp far ahead */
            { 5, 0xe8, 0x00, 0x00, 0x00, 0x80 },   /* call far behind */
            { 5, 0xe9, 0xfb, 0xff, 0xff, 0xff },   /* jmp to itself */
            { 7, 0x48, 0x81, 0xec, 0x00, 0x00, 0x00, 0x40 },   /* sub $0x40000000,%rsp */
            { 7, 0x48, 0x81, 0xc4, 0x00, 0x00, 0x00, 0x80 },   /* add $-0x80000000,%rsp */
            { 4, 0x48, 0x83, 0xc4, 0x80 },         /* add $-128,%rsp */
            { 3, 0x48, 0x89, 0xe5 },               /* mov %rsp,%rbp */
            { 3, 0x48, 0x89, 0xc4 },               /* mov %rax,%rsp */
            { 4, 0x48, 0x83, 0xe4, 0xf0 },         /* and $-16,%rsp */
        };
        size_t i = below(sizeof insns / sizeof insns[0]);
        unsigned n = insns[i][0];
        uint64_t at = s->sh.sh_offset + below(s->sh.sh_size);
        if (at + n <= s->sh.sh_offset + s->sh.sh_size) {
            memcpy(bytes + at, &insns[i][1], n);
            note("%s @0x%" PRIx64 ": %u bytes of instruction %zu written\n", name, at, n, i);
            return 1;
        }
    }
    mutate_bytes(s->sh.sh_offset, s->sh.sh_size, name, 0);
    return 1;
}

static int mutate_relocation(void)
{
    const struct section *s = section_named(below(3) ? ".rela.plt" : ".rela.dyn");
    if (!has_bytes(s) || s->sh.sh_size < sizeof(Elf64_Rela))
        return 0;
    uint64_t k = below(s->sh.sh_size / sizeof(Elf64_Rela));
    uint64_t at = s->sh.sh_offset + k * sizeof(Elf64_Rela);
    static const char *const f[] = { "r_offset", "r_info", "r_addend" };
    unsigned i = (unsigned)below(3);
    char name[64];
    snprintf(name, sizeof name, "%s[%" PRIu64 "] %s", s->name, k, f[i]);
    if (i == 1 && below(2))   /* the symbol index only */
        mutate_field(at + 12, 4, name);
    else
        mutate_field(at + 8 * i, 8, name);
    return 1;
}

static int mutate_dynamic(void)
{
    const struct section *s = section_named(".dynamic");
    if (!has_bytes(s) || s->sh.sh_size < sizeof(Elf64_Dyn))
        return 0;
    uint64_t k = below(s->sh.sh_size / sizeof(Elf64_Dyn));
    int value = below(3) != 0;
    char name[64];
    snprintf(name, sizeof name, ".dynamic[%" PRIu64 "] %s", k, value ? "d_val" : "d_tag");
    mutate_field(s->sh.sh_offset + k * sizeof(Elf64_Dyn) + (value ? 8 : 0), 8, name);
    return 1;
}

/* The file cut short: in .eh_frame, in the section headers, or anywhere. */
static int truncate_file(void)
{
    const struct section *eh = section_named(".eh_frame");
    uint64_t at;
    switch (below(3)) {
    case 0:
        if (has_bytes(eh)) {
            at = eh->sh.sh_offset + below(eh->sh.sh_size);
            break;
        }
        /* fall through */
    case 1:
        if (have_ehdr && ehdr.e_shoff < size) {
            at = ehdr.e_shoff + below(size - ehdr.e_shoff);
            break;
        }
        /* fall through */
    default:
        at = below(size);
    }
    if (at < out_size) {
        note("file cut at 0x%" PRIx64 " (of 0x%zx)\n", at, size);
        out_size = at;
    }
    return 1;
}

static int mutate_any_byte(void)
{
    mutate_bytes(0, size, "file", 0);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: mutate_elf SEED N OUT\n");
        return 2;
    }
    char *end;
    unsigned long long number = strtoull(argv[2], &end, 0);
    if (*end || !*argv[2]) {
        fprintf(stderr, "mutate_elf: N is not a number: %s\n", argv[2]);
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in || fseek(in, 0, SEEK_END) != 0) {
        fprintf(stderr, "mutate_elf: cannot read %s\n", argv[1]);
        return 2;
    }
    long length = ftell(in);
    rewind(in);
    size = length > 0 ? (size_t)length : 0;
    bytes = malloc(size + 1);
    pristine = malloc(size + 1);
    if (!bytes || !pristine || fread(bytes, 1, size, in) != size) {
        fprintf(stderr, "mutate_elf: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(in);
    memcpy(pristine, bytes, size);
    out_size = size;
    rng_state = number * 0x2545f4914f6cdd1dull + 0x1234567;

    parse_headers();
    parse_cfi(&cfi[0], section_named(".eh_frame"), 1);
    parse_cfi(&cfi[1], section_named(".debug_frame"), 0);

    /* Weights of the targets, in percent. */
    static const struct { unsigned weight; int (*mutate)(void); } targets[] = {
        { 6, mutate_ehdr }, { 10, mutate_phdr }, { 22, mutate_shdr }, { 25, mutate_cfi },
        { 8, mutate_eh_frame_hdr }, { 9, mutate_symbol }, { 9, mutate_code_bytes },
        { 4, mutate_relocation }, { 2, mutate_dynamic }, { 3, truncate_file }, { 2, mutate_any_byte },
    };
    unsigned count = 1 + (unsigned)below(3);
    for (unsigned done = 0, tries = 0; done < count && tries < 100; tries++) {
        unsigned r = (unsigned)below(100), i = 0;
        while (i + 1 < sizeof targets / sizeof targets[0] && r >= targets[i].weight)
            r -= targets[i++].weight;
        if (!have_ehdr && targets[i].mutate != mutate_any_byte && targets[i].mutate != truncate_file)
            continue;
        done += (unsigned)targets[i].mutate();
    }
    if (!*what)
        mutate_any_byte();

    FILE *out = fopen(argv[3], "wb");
    if (!out || fwrite(bytes, 1, out_size, out) != out_size || fclose(out) != 0) {
        fprintf(stderr, "mutate_elf: cannot write %s\n", argv[3]);
        return 2;
    }
    fputs(what, stdout);
    free(bytes);
    free(pristine);
    free(sections);
    free(segments);
    free(cfi[0].entries);
    free(cfi[1].entries);
    return 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
