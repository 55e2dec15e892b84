/* SPDX-License-Identifier: Apache-2.0 */
/*
 * elf_rewrite: a copy of an ELF file with new sections (elf_rewrite.h shows
 * the layout, object/elf_layout computes it).  The program and section
 * headers are encoded here field by field (little-endian, whatever the host).
 */
#include "elf_rewrite.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_layout.h"
#include "sys/error.h"
#include "kit/byte_writer.h"
#include "sys/output_file.h"

#define CHUNK (1u << 16)
#define SPARSE_BLOCK 4096u       /* CHUNK is a multiple of it */

int elf_rewrite_plan(struct elf_file *ef, struct elf_new_section *secs, size_t n,
                     struct elf_rewrite_segment *seg, char *err, size_t errlen)
{
    struct elf_layout l;
    if (elf_layout_plan(ef, secs, n, &l, err, errlen) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        secs[i].offset = l.sec_offset[i];
        secs[i].addr = l.seg_addr + (l.sec_offset[i] - l.seg_offset);
    }
    if (seg)
        *seg = (struct elf_rewrite_segment){l.seg_offset, l.seg_addr, l.seg_size, l.nphdrs, l.hole};
    elf_layout_release(&l);
    return 0;
}

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

/* Write the LEN bytes of P at offset OFF of FD but for their whole blocks
 * of zeros, left as holes (the copy is a new file, longer than the input:
 * they read as zeros, and take no disk, as in a sparse input). */
static int write_nonzero(int fd, uint64_t off, const uint8_t *p, size_t len)
{
    static const uint8_t zeros[SPARSE_BLOCK];
    for (size_t at = 0; at < len; at += SPARSE_BLOCK) {
        size_t n = len - at < SPARSE_BLOCK ? len - at : SPARSE_BLOCK;
        if ((n < SPARSE_BLOCK || memcmp(p + at, zeros, n) != 0) && write_at(fd, off + at, p + at, n) != 0)
            return -1;
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
        if (write_nonzero(out, to, buf, (size_t)r) != 0)
            return -1;
        from += (uint64_t)r, to += (uint64_t)r, len -= (uint64_t)r;
    }
    return 0;
}

static void put_phdr(uint8_t *b, const GElf_Phdr *ph)
{
    le_store(b, ph->p_type, 4), le_store(b + 4, ph->p_flags, 4), le_store(b + 8, ph->p_offset, 8);
    le_store(b + 16, ph->p_vaddr, 8), le_store(b + 24, ph->p_paddr, 8), le_store(b + 32, ph->p_filesz, 8);
    le_store(b + 40, ph->p_memsz, 8), le_store(b + 48, ph->p_align, 8);
}

static void put_shdr(uint8_t *b, const GElf_Shdr *sh)
{
    le_store(b, sh->sh_name, 4), le_store(b + 4, sh->sh_type, 4), le_store(b + 8, sh->sh_flags, 8);
    le_store(b + 16, sh->sh_addr, 8), le_store(b + 24, sh->sh_offset, 8), le_store(b + 32, sh->sh_size, 8);
    le_store(b + 40, sh->sh_link, 4), le_store(b + 44, sh->sh_info, 4);
    le_store(b + 48, sh->sh_addralign, 8), le_store(b + 56, sh->sh_entsize, 8);
}

/* The input whole, then the ELF header's fields that locate the tables. */
static int write_input(int fd, struct elf_file *ef, const struct elf_layout *l, size_t n, uint8_t *buf)
{
    uint8_t f[16];
    if (copy_at(fd, 0, ef->fd, 0, l->file_size, buf) != 0)
        return -1;
    le_store(f, l->phdr_offset, 8), le_store(f + 8, l->shdr_offset, 8);
    if (write_at(fd, 32, f, 16) != 0)                          /* e_phoff, e_shoff */
        return -1;
    le_store(f, l->nphdrs, 2), le_store(f + 2, l->shnum + n, 2);
    return write_at(fd, 56, f, 2) || write_at(fd, 60, f + 2, 2) ? -1 : 0;   /* e_phnum, e_shnum */
}

/* The new segment: the program header table, then the sections. */
static int write_segment(int fd, const struct elf_layout *l, const struct elf_new_section *secs, size_t n)
{
    uint8_t table[ELF_MAX_PHDRS * ELF_PHDR_SIZE];
    for (size_t i = 0; i < l->nphdrs; i++)
        put_phdr(table + i * ELF_PHDR_SIZE, &l->phdrs[i]);
    if (write_at(fd, l->phdr_offset, table, l->nphdrs * ELF_PHDR_SIZE) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (write_at(fd, secs[i].offset, secs[i].bytes, secs[i].size) != 0)
            return -1;
    return 0;
}

/* The input's section headers at their indices (renamed, .shstrtab moved),
 * then the new sections'. */
static int write_section_headers(int fd, struct elf_file *ef, const struct elf_layout *l,
                                 const struct elf_new_section *secs, size_t n)
{
    uint8_t b[ELF_SHDR_SIZE];
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
            if (l->orig_at[i] && strcmp(elf_layout_section_name(ef, l->shstrndx, j), secs[i].name) == 0)
                sh.sh_name = l->orig_at[i];
        if (j == l->shstrndx)
            sh.sh_offset = l->str_offset, sh.sh_size = l->str_size;
        put_shdr(b, &sh);
        if (write_at(fd, l->shdr_offset + j * ELF_SHDR_SIZE, b, sizeof b) != 0)
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
static int check_planned(const struct elf_layout *l, const struct elf_new_section *secs, size_t n,
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

static int write_all(int fd, struct elf_file *ef, const struct elf_layout *l,
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
    struct elf_layout l;
    if (elf_layout_plan(ef, secs, n, &l, err, errlen) != 0)
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
    elf_layout_release(&l);
    return rc;
}
