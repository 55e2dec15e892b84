/* SPDX-License-Identifier: Apache-2.0 */
/*
 * object_file: an object's file, opened for address spaces (see the header).
 */
#include "object_file.h"

#include "eh_elf_find.h"
#include "row_memo.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_mutex_t files_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dwu_object_file *open_files;
static unsigned kept;                     /* files in OPEN_FILES with no reference */
static unsigned long long releases;       /* a clock for their eviction */

/* [OFF, OFF + LEN) lies inside the file. */
static int in_file(const struct dwu_object_file *f, uint64_t off, uint64_t len)
{
    return off <= f->size && len <= f->size - off;
}

static const Elf64_Phdr *phdr_of(const struct dwu_object_file *f, const Elf64_Ehdr *eh, unsigned i)
{
    return (const Elf64_Phdr *)(const void *)(f->image + eh->e_phoff + (uint64_t)i * sizeof(Elf64_Phdr));
}

/* The load segment whose addresses hold VADDR, or NULL. */
static const struct dwu_load_segment *segment_of_vaddr(const struct dwu_object_file *f, uint64_t vaddr)
{
    for (unsigned i = 0; i < f->nloads; i++)
        if (vaddr >= f->loads[i].vaddr && vaddr - f->loads[i].vaddr < f->loads[i].filesz)
            return &f->loads[i];
    return NULL;
}

const struct dwu_load_segment *dwu_object_file_segment_at(const struct dwu_object_file *f, uint64_t offset)
{
    /* A mapping starts at a page boundary at or below its segment's offset. */
    const uint64_t page = 4096;
    for (unsigned i = 0; i < f->nloads; i++) {
        const struct dwu_load_segment *s = &f->loads[i];
        if (offset >= (s->offset & ~(page - 1)) && offset < s->offset + s->filesz)
            return s;
    }
    return NULL;
}

/* Read the ELF and program headers of the mapped file: 0, or -1 when it is
 * not an x86_64 ELF object whose headers lie inside it. */
static int read_headers(struct dwu_object_file *f)
{
    if (f->size < sizeof(Elf64_Ehdr))
        return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)f->image;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_X86_64 ||
        eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff % 8 != 0 ||
        !in_file(f, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr)))
        return -1;
    const Elf64_Phdr *hdr = NULL;
    for (unsigned i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph = phdr_of(f, eh, i);
        if (ph->p_type == PT_LOAD) {
            if (f->nloads == DWU_OBJECT_MAX_LOADS || ph->p_filesz > ph->p_memsz ||
                !in_file(f, ph->p_offset, ph->p_filesz))
                return -1;
            f->loads[f->nloads++] = (struct dwu_load_segment){ph->p_offset, ph->p_vaddr, ph->p_filesz,
                                                              ph->p_memsz, ph->p_flags};
        } else if (ph->p_type == PT_GNU_EH_FRAME) {
            hdr = ph;
        } else if (ph->p_type == PT_NOTE && !f->build_id.kind && in_file(f, ph->p_offset, ph->p_filesz)) {
            dwu_identity_from_notes(f->image + ph->p_offset, ph->p_filesz, &f->build_id);
        }
    }
    f->id = f->build_id;
    /* .eh_frame_hdr, and the segment the fallback may read .eh_frame in. */
    const struct dwu_load_segment *s = hdr ? segment_of_vaddr(f, hdr->p_vaddr) : NULL;
    if (s && hdr->p_filesz == hdr->p_memsz && hdr->p_vaddr - s->vaddr <= s->filesz &&
        hdr->p_filesz <= s->filesz - (hdr->p_vaddr - s->vaddr)) {
        f->readable_start = f->image + s->offset;
        f->readable_end = f->readable_start + s->filesz;
        f->eh_frame_hdr = f->readable_start + (hdr->p_vaddr - s->vaddr);
        f->table_bias = (uint64_t)(uintptr_t)f->readable_start - s->vaddr;
        if (!f->id.kind)
            dwu_identity_from_hdr(f->eh_frame_hdr, hdr->p_filesz, &f->id);
    }
    return 0;
}

static unsigned long long mtime_ns(const struct stat *st)
{
    return (unsigned long long)st->st_mtim.tv_sec * 1000000000ull + (unsigned long long)st->st_mtim.tv_nsec;
}

static struct dwu_object_file *shared_file(const struct stat *st)
{
    for (struct dwu_object_file *f = open_files; f; f = f->next)
        if (f->dev == (unsigned long long)st->st_dev && f->ino == (unsigned long long)st->st_ino &&
            f->size == (size_t)st->st_size && f->mtime_ns == mtime_ns(st))
            return f;
    return NULL;
}

/* The file opened by PATH whose build-id is ID (LEN bytes), or NULL. */
static struct dwu_object_file *shared_by_build_id(const char *path, const uint8_t *id, size_t len)
{
    for (struct dwu_object_file *f = open_files; f && len; f = f->next)
        if (f->build_id.kind == DWU_IDENTITY_BUILD_ID && f->build_id.len == len &&
            memcmp(f->build_id.bytes, id, len) == 0 && strcmp(f->path, path) == 0)
            return f;
    return NULL;
}

/* A new reference to F, which may be a kept file. */
static struct dwu_object_file *take(struct dwu_object_file *f)
{
    if (f->refs++ == 0)
        kept--;
    return f;
}

static void unmap_file(struct dwu_object_file *f)
{
    dwu_row_memo_free(f->memo);
    munmap((void *)(uintptr_t)f->image, f->size);
    free(f->path);
    free(f);
}

static struct dwu_object_file *map_file(int fd, const struct stat *st, int *status)
{
    struct dwu_object_file *f = calloc(1, sizeof *f);
    if (!f) {
        *status = DWU_MAP_NO_MEMORY;
        return NULL;
    }
    f->refs = 1;
    f->dev = (unsigned long long)st->st_dev;
    f->ino = (unsigned long long)st->st_ino;
    f->mtime_ns = mtime_ns(st);
    f->size = (size_t)st->st_size;
    void *image = f->size ? mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    if (image == MAP_FAILED) {
        free(f);
        *status = DWU_MAP_NOT_ELF;
        return NULL;
    }
    f->image = image;
    if (read_headers(f) != 0) {
        munmap(image, f->size);
        free(f);
        *status = DWU_MAP_NOT_ELF;
        return NULL;
    }
    if (f->eh_frame_hdr)
        f->memo = dwu_row_memo_new();   /* NULL when out of memory: rows interpreted each time */
    return f;
}

struct dwu_object_file *dwu_object_file_open(const char *path, const uint8_t *build_id, size_t build_id_len,
                                             const char *cache_dir, int *status)
{
    struct stat st;
    pthread_mutex_lock(&files_lock);
    struct dwu_object_file *f = shared_by_build_id(path, build_id, build_id_len);
    if (f)
        take(f);
    pthread_mutex_unlock(&files_lock);
    /* Else one system call finds a file open already (the same inode,
     * size and time); a new one is opened and checked again. */
    if (!f && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        pthread_mutex_lock(&files_lock);
        if ((f = shared_file(&st)) != NULL)
            take(f);
        pthread_mutex_unlock(&files_lock);
    }
    if (f)
        return f;
    /* O_NONBLOCK: a FIFO must not block the open; it is then refused. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        *status = DWU_MAP_NO_FILE;
        return NULL;
    }
    pthread_mutex_lock(&files_lock);
    f = shared_file(&st);
    if (f) {
        take(f);
    } else if ((f = map_file(fd, &st, status)) != NULL && !(f->path = strdup(path))) {
        unmap_file(f);
        f = NULL;
        *status = DWU_MAP_NO_MEMORY;
    } else if (f) {
        if (f->id.kind) {   /* the lock order: files, then eh_elfs */
            dwu_eh_elf_lock();
            f->step = dwu_eh_elf_find(path, &f->id, cache_dir);
            dwu_eh_elf_unlock();
        }
        f->next = open_files;
        open_files = f;
    }
    pthread_mutex_unlock(&files_lock);
    close(fd);
    return f;
}

int dwu_object_file_find_eh_elf_again(struct dwu_object_file *f, const char *path, const char *cache_dir)
{
    if (!f->step && f->id.kind) {
        dwu_eh_elf_lock();
        dwu_eh_elf_step_fn step = dwu_eh_elf_find(path, &f->id, cache_dir);
        dwu_eh_elf_unlock();
        __atomic_store_n(&f->step, step, __ATOMIC_RELEASE);
    }
    return f->step != NULL;
}

void dwu_object_file_ref(struct dwu_object_file *f)
{
    pthread_mutex_lock(&files_lock);
    f->refs++;
    pthread_mutex_unlock(&files_lock);
}

void dwu_object_file_release(struct dwu_object_file *f)
{
    pthread_mutex_lock(&files_lock);
    struct dwu_object_file *evicted = NULL;
    if (--f->refs == 0) {
        f->released = ++releases;
        /* Kept; beyond the bound, the one released longest ago goes. */
        if (++kept > DWU_OBJECT_FILES_KEPT) {
            struct dwu_object_file **oldest = NULL;
            for (struct dwu_object_file **p = &open_files; *p; p = &(*p)->next)
                if (!(*p)->refs && (!oldest || (*p)->released < (*oldest)->released))
                    oldest = p;
            evicted = *oldest;
            *oldest = evicted->next;
            kept--;
        }
    }
    pthread_mutex_unlock(&files_lock);
    if (evicted)
        unmap_file(evicted);
}
