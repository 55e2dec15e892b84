/* SPDX-License-Identifier: Apache-2.0 */
/*
 * debug_file: lay out and write a separate debug file (debug_file.h shows
 * the layout).
 *
 * The plan, the output's section headers, is computed from the input's
 * (every offset and size checked against the file's size) before anything
 * is written; the writing copies the bytes the plan keeps, in order.  The
 * headers are encoded field by field (little-endian, whatever the host).
 */
#include "debug_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checked_math.h"
#include "sys/error.h"
#include "runtime/identity.h"
#include "kit/byte_writer.h"
#include "sys/output_file.h"

#define PAGE 0x1000u
#define EHDR_SIZE 64u            /* sizeof(Elf64_Ehdr) */
#define SHDR_SIZE 64u            /* sizeof(Elf64_Shdr) */
#define ORIG_SUFFIX ".orig"
#define CHUNK (1u << 14)         /* of the input copied at once */

/* The output, section by section. */
struct plan {
    uint64_t file_size;          /* of the input */
    size_t shnum, shstrndx;      /* the input's section count (with index 0), .shstrtab's index */
    GElf_Shdr *shdrs;            /* the output's headers: the input's SHNUM, then the new ones */
    size_t total;                /* SHNUM + the new sections */
    uint64_t *source;            /* per input section with bytes: where they lie in the input */
    uint64_t str_in_offset, str_in_size;   /* the input's .shstrtab */
    char *names;                 /* a NUL, each new NAME, NAME.orig: appended to .shstrtab */
    size_t names_len;
    uint64_t shdr_offset;        /* the section header table */
};

static void plan_release(struct plan *p)
{
    free(p->shdrs);
    free(p->source);
    free(p->names);
    memset(p, 0, sizeof *p);
}

/* What this module needs of EF besides what elf_file_open checks (an
 * x86_64 ELF64 little-endian file): a linked one (elf_file_open_object
 * takes ET_REL too), section headers of the size it writes, a section name
 * table, no extended numbering. */
static int check_input(struct elf_file *ef, struct plan *p, char *err, size_t errlen)
{
    const GElf_Ehdr *eh = &ef->ehdr;
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
        return error_set(err, errlen, "not an executable or shared object (ET_EXEC, ET_DYN): "
                         "only linked files get a debug file");
    if (eh->e_shoff == 0 || eh->e_shnum == 0)
        return error_set(err, errlen, "no section headers: gdb could not place a debug file's sections");
    if (eh->e_shstrndx == SHN_XINDEX || eh->e_shentsize != SHDR_SIZE)
        return error_set(err, errlen, "extended section numbering or section headers of %u bytes "
                         "are not supported", eh->e_shentsize);
    if (eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= eh->e_shnum)
        return error_set(err, errlen, "no section name table (e_shstrndx %u)", eh->e_shstrndx);
    size_t shnum;
    struct stat st;
    if (elf_getshdrnum(ef->elf, &shnum) != 0 || shnum != eh->e_shnum)
        return error_set(err, errlen, "cannot read the section headers: %s", elf_errmsg(-1));
    if (fstat(ef->fd, &st) != 0)
        return error_set(err, errlen, "%s", strerror(errno));
    p->file_size = (uint64_t)st.st_size;
    p->shnum = shnum;
    p->shstrndx = eh->e_shstrndx;
    return 0;
}

static int check_new_sections(const struct debug_section *secs, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        const char *name = secs[i].name;
        if (!name || !name[0])
            return error_set(err, errlen, "new section %zu has no name", i);
        if (strcmp(name, ".shstrtab") == 0)
            return error_set(err, errlen, "a new section is named .shstrtab, the section name table");
        if (secs[i].size && !secs[i].bytes)
            return error_set(err, errlen, "section %s has no bytes", name);
        uint64_t a = secs[i].align;
        if (a == 0 || (a & (a - 1)) || a > PAGE)
            return error_set(err, errlen, "section %s: alignment %#llx is not a power of two up to "
                             "a page", name, (unsigned long long)a);
        for (size_t j = 0; j < i; j++)
            if (strcmp(name, secs[j].name) == 0)
                return error_set(err, errlen, "two new sections named %s", name);
    }
    return 0;
}

/* Whether the section SH has bytes in the file. */
static int has_bytes(const GElf_Shdr *sh)
{
    return sh->sh_type != SHT_NOBITS && sh->sh_type != SHT_NULL;
}

/* The input's headers, each turned into the output's (debug_file.h), with
 * its place left to place_sections.  Kept bytes must lie in the file. */
static int read_headers(struct plan *p, struct elf_file *ef, char *err, size_t errlen)
{
    for (size_t j = 1; j < p->shnum; j++) {
        GElf_Shdr *sh = &p->shdrs[j];
        Elf_Scn *scn = elf_getscn(ef->elf, j);
        uint64_t end;
        if (!scn || !gelf_getshdr(scn, sh))
            return error_set(err, errlen, "cannot read section header %zu: %s", j, elf_errmsg(-1));
        if ((sh->sh_flags & SHF_ALLOC) && sh->sh_type != SHT_NOTE)
            sh->sh_type = SHT_NOBITS;
        if (!has_bytes(sh) || j == p->shstrndx)
            continue;
        if (!checked_add(sh->sh_offset, sh->sh_size, &end) || end > p->file_size)
            return error_set(err, errlen, "truncated file: section %zu lies past the end of the file", j);
        p->source[j] = sh->sh_offset;
    }
    GElf_Shdr *str = &p->shdrs[p->shstrndx];
    uint64_t str_end;
    if (str->sh_type != SHT_STRTAB || (str->sh_flags & SHF_ALLOC) ||
        !checked_add(str->sh_offset, str->sh_size, &str_end) || str_end > p->file_size)
        return error_set(err, errlen, "section %zu is no section name table within the file", p->shstrndx);
    p->str_in_offset = str->sh_offset;
    p->str_in_size = str->sh_size;
    return 0;
}

/* The new sections' headers, their names and the NAME.orig of input
 * sections named like them, appended to the input's .shstrtab (after a
 * NUL: its last name may lack one). */
static int name_sections(struct plan *p, struct elf_file *ef, const struct debug_section *secs,
                         size_t n, char *err, size_t errlen)
{
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += 2 * strlen(secs[i].name) + sizeof ORIG_SUFFIX + 1;
    if (!(p->names = malloc(cap)))
        return error_set(err, errlen, "out of memory");
    if (p->str_in_size + cap > UINT32_MAX)   /* sh_name is 32 bits */
        return error_set(err, errlen, "the section name table would be too large");
    size_t k = 0;
    p->names[k++] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(secs[i].name);
        p->shdrs[p->shnum + i] = (GElf_Shdr){.sh_name = (uint32_t)(p->str_in_size + k),
                                             .sh_type = SHT_PROGBITS, .sh_size = secs[i].size,
                                             .sh_addralign = secs[i].align};
        memcpy(p->names + k, secs[i].name, len + 1);
        k += len + 1;
        int renamed = 0;
        for (size_t j = 0; j < ef->nsections; j++)
            if (strcmp(ef->sections[j].name, secs[i].name) == 0 && ef->sections[j].index < p->shnum) {
                p->shdrs[ef->sections[j].index].sh_name = (uint32_t)(p->str_in_size + k);
                renamed = 1;
            }
        if (renamed) {
            memcpy(p->names + k, secs[i].name, len);
            memcpy(p->names + k + len, ORIG_SUFFIX, sizeof ORIG_SUFFIX);
            k += len + sizeof ORIG_SUFFIX;
        }
    }
    p->names_len = k;
    p->shdrs[p->shstrndx].sh_size = p->str_in_size + k;
    return 0;
}

/* Every section's sh_offset, in index order after the ELF header: those
 * with bytes at their alignment (up to a page: a file offset needs no
 * more), the others where they would lie; then the section header table. */
static int place_sections(struct plan *p, char *err, size_t errlen)
{
    uint64_t at = EHDR_SIZE, end;
    for (size_t j = 1; j < p->total; j++) {
        GElf_Shdr *sh = &p->shdrs[j];
        uint64_t align = sh->sh_addralign > PAGE ? PAGE : sh->sh_addralign ? sh->sh_addralign : 1;
        if (!has_bytes(sh)) {
            sh->sh_offset = at;
            continue;
        }
        if ((align & (align - 1)) || !checked_align(at, align, &sh->sh_offset) ||
            !checked_add(sh->sh_offset, sh->sh_size, &at))
            return error_set(err, errlen, "section %zu: alignment %#llx is no power of two, or the "
                             "file would be too large", j, (unsigned long long)sh->sh_addralign);
    }
    if (!checked_align(at, 8, &p->shdr_offset) || !checked_add(p->shdr_offset, p->total * SHDR_SIZE, &end) ||
        end > INT64_MAX)
        return error_set(err, errlen, "the debug file would be too large");
    return 0;
}

static int plan_file(struct elf_file *ef, const struct debug_section *secs, size_t n, struct plan *p,
                     char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (check_input(ef, p, err, errlen) != 0 || check_new_sections(secs, n, err, errlen) != 0)
        return -1;
    p->total = p->shnum + n;
    if (p->total >= SHN_LORESERVE)
        return error_set(err, errlen, "too many sections (%zu)", p->total);
    p->shdrs = calloc(p->total, sizeof *p->shdrs);
    p->source = calloc(p->shnum, sizeof *p->source);
    if (!p->shdrs || !p->source)
        return error_set(err, errlen, "out of memory");
    return read_headers(p, ef, err, errlen) || name_sections(p, ef, secs, n, err, errlen) ||
           place_sections(p, err, errlen) ? -1 : 0;
}

/* ---- writing --------------------------------------------------------------- */

/* The file being written, in order: its stream and the offset reached. */
struct sink {
    FILE *f;
    uint64_t at;
    struct elf_file *ef;
    const struct plan *p;
    const struct debug_section *secs;
    int input_changed;           /* a short read of the input */
};

static int put(struct sink *s, const void *b, uint64_t len)
{
    if (len && fwrite(b, 1, len, s->f) != len)
        return -1;
    s->at += len;
    return 0;
}

/* Zeros up to the offset TO. */
static int pad_to(struct sink *s, uint64_t to)
{
    static const uint8_t zeros[256];
    while (s->at < to)
        if (put(s, zeros, to - s->at < sizeof zeros ? to - s->at : sizeof zeros) != 0)
            return -1;
    return 0;
}

/* LEN bytes of the input at FROM.  A short read means that it changed under us. */
static int copy_input(struct sink *s, uint64_t from, uint64_t len)
{
    uint8_t buf[CHUNK];
    while (len) {
        ssize_t r = pread(s->ef->fd, buf, len < CHUNK ? (size_t)len : CHUNK, (off_t)from);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            s->input_changed = r == 0;
            return -1;
        }
        if (put(s, buf, (uint64_t)r) != 0)
            return -1;
        from += (uint64_t)r, len -= (uint64_t)r;
    }
    return 0;
}

static int put_shdr(struct sink *s, const GElf_Shdr *sh)
{
    uint8_t b[SHDR_SIZE];
    le_store(b, sh->sh_name, 4), le_store(b + 4, sh->sh_type, 4), le_store(b + 8, sh->sh_flags, 8);
    le_store(b + 16, sh->sh_addr, 8), le_store(b + 24, sh->sh_offset, 8), le_store(b + 32, sh->sh_size, 8);
    le_store(b + 40, sh->sh_link, 4), le_store(b + 44, sh->sh_info, 4);
    le_store(b + 48, sh->sh_addralign, 8), le_store(b + 56, sh->sh_entsize, 8);
    return put(s, b, sizeof b);
}

/* The ELF header: the input's identity, no program headers. */
static int put_ehdr(struct sink *s, size_t total)
{
    const GElf_Ehdr *in = &s->ef->ehdr;
    uint8_t b[EHDR_SIZE] = {0};
    memcpy(b, in->e_ident, EI_NIDENT);
    le_store(b + 16, in->e_type, 2), le_store(b + 18, in->e_machine, 2), le_store(b + 20, in->e_version, 4);
    le_store(b + 24, in->e_entry, 8), le_store(b + 40, s->p->shdr_offset, 8), le_store(b + 48, in->e_flags, 4);
    le_store(b + 52, EHDR_SIZE, 2), le_store(b + 58, SHDR_SIZE, 2);
    le_store(b + 60, total, 2), le_store(b + 62, s->p->shstrndx, 2);
    return put(s, b, sizeof b);
}

/* The bytes of the output's section J, at its offset. */
static int put_section(struct sink *s, size_t j)
{
    const struct plan *p = s->p;
    const GElf_Shdr *sh = &p->shdrs[j];
    if (!has_bytes(sh))
        return 0;
    if (pad_to(s, sh->sh_offset) != 0)
        return -1;
    if (j == p->shstrndx)
        return copy_input(s, p->str_in_offset, p->str_in_size) || put(s, p->names, p->names_len);
    if (j >= p->shnum)
        return put(s, s->secs[j - p->shnum].bytes, sh->sh_size);
    return copy_input(s, p->source[j], sh->sh_size);
}

/* The whole file, in the order of its offsets (place_sections). */
static int write_file(FILE *f, const void *arg)
{
    struct sink *s = (struct sink *)arg;
    size_t total = s->p->total;
    s->f = f;
    if (put_ehdr(s, total) != 0)
        return -1;
    for (size_t j = 1; j < total; j++)
        if (put_section(s, j) != 0)
            return -1;
    if (pad_to(s, s->p->shdr_offset) != 0)
        return -1;
    for (size_t j = 0; j < total; j++)
        if (put_shdr(s, &s->p->shdrs[j]) != 0)
            return -1;
    return 0;
}

/* `mkdir -p` of the directories above PATH. */
static int make_parents(const char *path, char *err, size_t errlen)
{
    char *dir = strdup(path);
    if (!dir)
        return error_set(err, errlen, "out of memory");
    for (char *s = strchr(dir[0] ? dir + 1 : dir, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            error_set(err, errlen, "cannot create directory %s: %s", dir, strerror(errno));
            free(dir);
            return -1;
        }
        *s = '/';
    }
    free(dir);
    return 0;
}

/* Whether the output PATH is the file EF reads (a link to it, or the same inode). */
static int is_input(const struct elf_file *ef, const char *path, char *err, size_t errlen)
{
    struct stat in, out;
    char *target = output_target(path, err, errlen);
    int same = target && fstat(ef->fd, &in) == 0 && stat(target, &out) == 0 &&
               in.st_dev == out.st_dev && in.st_ino == out.st_ino;
    if (same)
        error_set(err, errlen, "the output is the input file: write the debug file elsewhere");
    free(target);
    return !target || same;
}

int debug_file_write(struct elf_file *ef, const struct debug_section *secs, size_t n,
                     const char *out_path, char *err, size_t errlen)
{
    struct plan p;
    struct sink s = {.ef = ef, .p = &p, .secs = secs};
    int rc = -1;
    if (plan_file(ef, secs, n, &p, err, errlen) == 0 && make_parents(out_path, err, errlen) == 0 &&
        !is_input(ef, out_path, err, errlen)) {
        rc = output_write_stream(out_path, write_file, &s, err, errlen);
        if (rc != 0 && s.input_changed)
            error_set(err, errlen, "cannot write: the input file changed while it was copied");
    }
    plan_release(&p);
    return rc;
}

/* ---- where gdb looks ------------------------------------------------------- */

int debug_file_build_id_path(struct elf_file *ef, const char *dir, char *path, size_t size,
                             char *err, size_t errlen)
{
    struct dwu_identity id = {0};
    int found = 0;
    for (size_t i = 0; i < ef->nsections && !found; i++) {
        uint64_t nbytes;
        char ignored[ELF_FILE_ERRLEN];
        const uint8_t *notes = ef->sections[i].type != SHT_NOTE ? NULL :
            elf_file_section_bytes(ef, &ef->sections[i], &nbytes, ignored, sizeof ignored);
        found = notes && dwu_identity_from_notes(notes, (size_t)nbytes, &id) == 0;
    }
    if (!found)
        return error_set(err, errlen, "no build-id: gdb could not match a debug file to it");
    char hex[2 * DWU_IDENTITY_MAX + 1];
    for (size_t i = 0; i < id.len; i++)
        snprintf(hex + 2 * i, 3, "%02x", id.bytes[i]);
    int len = snprintf(path, size, "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2);
    if (len < 0 || (size_t)len >= size)
        return error_set(err, errlen, "the debug file's path is longer than %zu bytes", size);
    return 0;
}
