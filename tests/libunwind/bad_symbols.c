/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bad_symbols: unw_get_proc_name reads the object's file, which may have
 * been replaced on disk since it was loaded (an upgrade, a damaged copy):
 * it must answer, never crash.  LIBRARY (built from tests/unwind/
 * churn_lib.c) is loaded; then, ROUNDS times, a copy of its file with 1
 * to 16 random bytes changed (a third of them in the ELF header and the
 * section headers, where the reader's bounds are) is renamed over it, or
 * the file truncated, and a frame of the library is named.
 *
 * Last, a library of another build (OTHER) is renamed over it: libunwind
 * names nothing then (the mapped file is gone), and neither may the
 * drop-in read the new file's symbols.
 *
 *   bad_symbols LIBRARY ROUNDS OTHER
 *
 * Prints "bad_symbols: N names read from damaged files: A named, B not
 * found, C unreadable, D cut short" and "another build: RC"; exit status
 * 0 (a crash is the failure).
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <elf.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int answers[4];   /* 0, -UNW_ENOINFO, -UNW_EUNSPEC, -UNW_ENOMEM */
static int last;

/* Called at the bottom of the library's frames: name the frame above. */
static int name_caller(int depth)
{
    unw_context_t uc;
    unw_cursor_t c;
    char name[64];
    unw_word_t off;
    unw_getcontext(&uc);
    unw_init_local(&c, &uc);
    unw_step(&c);   /* the library's frame */
    int rc = last = unw_get_proc_name(&c, name, sizeof name, &off);
    answers[rc == 0 ? 0 : rc == -UNW_ENOINFO ? 1 : rc == -UNW_EUNSPEC ? 2 : 3]++;
    return depth;
}

/* PATH's bytes (malloc'd, *SIZE of them), or NULL. */
static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    unsigned char *bytes = NULL;
    if (f && fstat(fileno(f), &st) == 0 && (bytes = malloc((size_t)st.st_size + 1)) &&
        fread(bytes, 1, (size_t)st.st_size, f) == (size_t)st.st_size) {
        *size = (size_t)st.st_size;
    } else {
        free(bytes);
        bytes = NULL;
    }
    if (f)
        fclose(f);
    return bytes;
}

/* PATH replaced by a new file of N BYTES, written to TEMPORARY first. */
static int replace(const char *path, const char *temporary, const unsigned char *bytes, size_t n)
{
    FILE *out = fopen(temporary, "wb");
    if (!out)
        return -1;
    int ok = fwrite(bytes, 1, n, out) == n;
    return fclose(out) == 0 && ok && rename(temporary, path) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    const char *path = argv[1];
    int rounds = atoi(argv[2]);
    size_t size;
    unsigned char *original = read_file(path, &size), *copy = malloc(size);
    if (!original || !copy)
        return 2;
    void *lib = dlopen(path, RTLD_NOW);
    int (*work)(int, int (*)(int)) = lib ? (int (*)(int, int (*)(int)))dlsym(lib, "churn_work") : NULL;
    if (!work)
        return 2;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)original;
    uint64_t headers = eh->e_shoff, headers_size = (uint64_t)eh->e_shnum * eh->e_shentsize;
    char damaged[4096];
    snprintf(damaged, sizeof damaged, "%s.damaged", path);
    srand(31);
    for (int r = 0; r < rounds; r++) {
        memcpy(copy, original, size);
        size_t keep = size;
        if (r % 10 == 9) {
            keep = (size_t)rand() % size;   /* truncated */
        } else {
            int n = 1 + rand() % 16;
            for (int i = 0; i < n; i++) {
                size_t at;
                switch (rand() % 3) {
                case 0: at = (size_t)rand() % sizeof(Elf64_Ehdr); break;
                case 1: at = headers + (headers_size ? (size_t)rand() % headers_size : 0); break;
                default: at = (size_t)rand() % size; break;
                }
                if (at < size)
                    copy[at] = (unsigned char)rand();
            }
        }
        if (replace(path, damaged, copy, keep) != 0)
            return 2;
        work(3, name_caller);
    }
    printf("bad_symbols: %d names read from damaged files: %d named, %d not found, %d unreadable, %d cut short\n",
           rounds, answers[0], answers[1], answers[2], answers[3]);
    size_t other_size;
    unsigned char *other = read_file(argv[3], &other_size);
    if (!other || replace(path, damaged, other, other_size) != 0)
        return 2;
    work(3, name_caller);
    printf("another build: %d\n", last);
    free(other);
    free(copy);
    free(original);
    return 0;
}
