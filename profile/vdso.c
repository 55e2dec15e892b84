/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vdso: this machine's vDSO as a file (see the header).
 */
#include "vdso.h"

#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_dir.h"
#include "runtime/identity.h"

/* The vDSO's image: its start and size (through its section headers, which
 * it ends with), and its build-id; -1 when there is none. */
static int own_vdso(const uint8_t **image, size_t *size, struct dwu_identity *id)
{
    const uint8_t *p = (const uint8_t *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
    if (!p)
        return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)p;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_phentsize != sizeof(Elf64_Phdr))
        return -1;
    uint64_t end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
    if (end > (1u << 20))
        return -1;
    *id = (struct dwu_identity){0};
    for (unsigned i = 0; i < eh->e_phnum && !id->kind; i++) {
        const Elf64_Phdr *ph = (const Elf64_Phdr *)(const void *)(p + eh->e_phoff + i * sizeof *ph);
        if (ph->p_type == PT_NOTE && ph->p_offset + ph->p_filesz <= end)
            dwu_identity_from_notes(p + ph->p_offset, ph->p_filesz, id);
    }
    *image = p;
    *size = end;
    return id->kind ? 0 : -1;
}

const char *vdso_image_path(const char *dir, const uint8_t *build_id, size_t len)
{
    static char path[PATH_MAX], ready[PATH_MAX];   /* READY: the last path found or written */
    const uint8_t *image;
    size_t size;
    struct dwu_identity id;
    if (!dir || !build_id || own_vdso(&image, &size, &id) != 0 || len != id.len ||
        memcmp(build_id, id.bytes, len) != 0)
        return NULL;
    char name[2 * DWU_IDENTITY_MAX + 16];
    snprintf(name, sizeof name, "vdso-");
    for (unsigned i = 0; i < id.len; i++)
        snprintf(name + 5 + 2 * i, 3, "%02x", id.bytes[i]);
    strcat(name, ".so");
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return NULL;
    if (strcmp(path, ready) == 0)
        return path;   /* every process of a recording maps it */
    int dirfd = cache_dir_open(dir);
    if (dirfd < 0)
        return NULL;
    /* The copy there, if it is this image (and the user's, not a link). */
    int fd = cache_dir_read(dirfd, name);
    struct stat st;
    int same = fd >= 0 && fstat(fd, &st) == 0 && (size_t)st.st_size == size;
    if (same) {
        uint8_t buf[4096];
        for (size_t at = 0; same && at < size; at += sizeof buf) {
            size_t n = size - at < sizeof buf ? size - at : sizeof buf;
            same = pread(fd, buf, n, (off_t)at) == (ssize_t)n && memcmp(buf, image + at, n) == 0;
        }
    }
    if (fd >= 0)
        close(fd);
    if (!same && cache_dir_write(dirfd, name, image, size) != 0)
        return NULL;
    return strcpy(ready, path);
}
