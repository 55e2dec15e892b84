/*
 * vdso: this machine's vDSO as a file (see the header).
 */
#include "vdso.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_dir.h"
#include "object/identity.h"

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
    char hex[2 * DWU_IDENTITY_MAX + 1];
    for (unsigned i = 0; i < id.len; i++)
        snprintf(hex + 2 * i, 3, "%02x", id.bytes[i]);
    if (snprintf(path, sizeof path, "%s/vdso-%s.so", dir, hex) >= (int)sizeof path)
        return NULL;
    if (strcmp(path, ready) == 0)
        return path;   /* every process of a recording maps it */
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == size)
        return strcpy(ready, path);
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
    cache_dir_create(dir);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return NULL;
    int ok = write(fd, image, size) == (ssize_t)size;
    ok = close(fd) == 0 && ok && rename(tmp, path) == 0;
    if (!ok) {
        unlink(tmp);
        return NULL;
    }
    return strcpy(ready, path);
}
