/*
 * check_space: the address-space API (dwu_space_*) against the in-process
 * walk, which check_unwind checks against libgcc and libunwind.
 *
 *   check_space [--cache DIR] [--expect-eh-elf NAME]...
 *
 * At the bottom of chains of every depth from 1 to 40 through
 * tests/unwind/frames.c (and libc's qsort), the stack is copied and the
 * process's executable file mappings (/proc/self/maps) are described to a
 * space, as a profiler describes a recorded process.  Then:
 *   - the space's walk over the copy gives the IPs and end status of the
 *     in-process walk over the same copy, frame for frame; so do a clone of
 *     the space, and dwu_space_step taken one frame at a time;
 *   - a mapping declared with another build-id is refused
 *     (DWU_MAP_OTHER_BUILD) and the walk stops at its first frame with
 *     DWU_ENOINFO; so does the walk once the executable is unmapped;
 *   - dwu_space_mapping_at names the executable;
 *   - files that are not objects (a directory, a FIFO, text, the program
 *     truncated at many lengths, or with its program headers pointing out
 *     of the file) are mapped with an error status, and an address in them
 *     unwinds to DWU_ENOINFO, without a crash or a hang;
 *   - a file is shared by path and build-id: a copy of the program, mapped
 *     in one space and released, then renamed, is mapped again by its old
 *     path in a new space when the mapping gives its build-id (and not
 *     without it), until DWU_OBJECT_FILES_KEPT other files have been
 *     released since.
 * Each mapping's status is printed ("NAME: eh_elf" or "NAME: dwarf");
 * --expect-eh-elf NAME fails unless NAME's mapping uses an eh_elf, and
 * --cache DIR is the space's cache directory.  Exit status 1 on a failure.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frames.h"
#include "runtime/dwunwind.h"
#include "runtime/object_file.h"

#define MAX_FRAMES 256
#define MAX_DEPTH 40
#define COPY_MAX (256 * 1024)

static const char *cache_dir;
static const char *expect_eh_elf[8];
static int nexpect;
static int failures;
static long frames_compared;
static uint64_t stack_top;

static void fail(const char *fmt, const char *what, long a, long b)
{
    if (failures++ < 20) {
        fprintf(stderr, fmt, what, a, b);
        fputc('\n', stderr);
    }
}

/* Describe this process's executable file mappings to SPACE.  Returns the
 * number of mappings; EXE_START receives the executable's. */
static int map_self(struct dwu_space *space, uint64_t *exe_start, int print)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096], exe[4096] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    int count = 0;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long lo, hi, off;
        char perms[8], path[4096] = "";
        if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &lo, &hi, perms, &off, path) < 4)
            continue;
        if (strchr(perms, 'x') == NULL || path[0] != '/')
            continue;
        if (strstr(path, ".eh_elf.so") || strstr(path, "/proc/self/fd"))
            continue;   /* compiled tables, not objects of the recorded process */
        struct dwu_mapping m = {.start = lo, .size = hi - lo, .offset = off, .path = path};
        int st = dwu_space_map(space, &m);
        const char *base = strrchr(path, '/') + 1;
        if (print)
            printf("%s: %s\n", base, st == DWU_MAP_EH_ELF ? "eh_elf" : st == DWU_MAP_DWARF ? "dwarf"
                                                                      : dwu_map_strerror(st));
        for (int i = 0; print && i < nexpect; i++)
            if (strcmp(base, expect_eh_elf[i]) == 0 && st != DWU_MAP_EH_ELF)
                fail("%s: expected an eh_elf, status %ld%ld", base, st, 0);
        if (strcmp(path, exe) == 0 && !*exe_start)
            *exe_start = lo;
        count++;
    }
    if (f)
        fclose(f);
    return count;
}

struct copy {
    struct dwu_stack_copy c;
    struct dwu_memory mem;
    struct dwu_regs regs;
};

static void compare(int depth, const char *what, const uint64_t *want, int nwant, int want_rc,
                    const uint64_t *got, int ngot, int got_rc)
{
    if (nwant != ngot || want_rc != got_rc) {
        fail("%s: %ld frames (in-process), %ld in the space", what, nwant, ngot);
        return;
    }
    for (int i = 0; i < nwant; i++)
        if (want[i] != got[i]) {
            fail("%s: frame %ld differs (depth %ld)", what, i, depth);
            return;
        }
    frames_compared += nwant;
}

static int unwind_in_process(const struct copy *cp, uint64_t *ips, int *rc)
{
    struct dwu_regs r = cp->regs;
    return dwu_unwind(&r, &cp->mem, ips, MAX_FRAMES, rc);
}

static void check_space_walks(int depth, const struct copy *cp)
{
    uint64_t want[MAX_FRAMES], got[MAX_FRAMES];
    int want_rc, got_rc;
    int nwant = unwind_in_process(cp, want, &want_rc);
    if (nwant < depth)
        fail("in-process walk: %s%ld frames at depth %ld", "", nwant, depth);

    struct dwu_space *space = dwu_space_create(cache_dir);
    uint64_t exe_start = 0;
    map_self(space, &exe_start, depth == 1);
    struct dwu_regs r = cp->regs;
    int ngot = dwu_space_unwind(space, &r, &cp->mem, got, MAX_FRAMES, &got_rc);
    compare(depth, "dwu_space_unwind", want, nwant, want_rc, got, ngot, got_rc);

    /* Asking for a sample's memory ahead changes nothing, whatever its rsp
     * (in the copy, below it, past it). */
    static const uint64_t rsp_moves[] = {0, (uint64_t)-4096, 1u << 20};
    for (size_t k = 0; k < sizeof rsp_moves / sizeof *rsp_moves; k++) {
        r = cp->regs;
        r.r[DWU_RSP] += rsp_moves[k];
        dwu_space_prefetch(space, &r, &cp->mem);
    }
    r = cp->regs;
    ngot = dwu_space_unwind(space, &r, &cp->mem, got, MAX_FRAMES, &got_rc);
    compare(depth, "dwu_space_unwind after dwu_space_prefetch", want, nwant, want_rc, got, ngot, got_rc);

    /* A clone walks the same. */
    struct dwu_space *clone = dwu_space_clone(space);
    r = cp->regs;
    ngot = dwu_space_unwind(clone, &r, &cp->mem, got, MAX_FRAMES, &got_rc);
    compare(depth, "a clone's walk", want, nwant, want_rc, got, ngot, got_rc);

    /* One step at a time. */
    r = cp->regs;
    ngot = 0;
    got_rc = DWU_OK;
    while (ngot < MAX_FRAMES) {
        got[ngot++] = r.r[DWU_RIP];
        uint64_t sp = r.r[DWU_RSP];
        if ((got_rc = dwu_space_step(space, &r, &cp->mem)) != DWU_OK)
            break;
        if (r.r[DWU_RSP] <= sp && !(r.flags & DWU_FLAG_EXACT_IP)) {
            got_rc = DWU_ELOOP;
            break;
        }
        if (r.r[DWU_RIP] == 0) {
            got_rc = DWU_END;
            break;
        }
    }
    compare(depth, "dwu_space_step", want, nwant, want_rc, got, ngot, got_rc);

    /* The executable named, then unmapped: the walk stops in it. */
    struct dwu_mapping m;
    int st;
    if (dwu_space_mapping_at(space, cp->regs.r[DWU_RIP], &m, &st) != 0 || m.start != exe_start)
        fail("dwu_space_mapping_at: %s%ld %ld", "no executable mapping, or another: ", (long)m.start,
             (long)exe_start);
    dwu_space_unmap(space, m.start, m.size);
    r = cp->regs;
    ngot = dwu_space_unwind(space, &r, &cp->mem, got, MAX_FRAMES, &got_rc);
    if (ngot != 1 || got_rc != DWU_ENOINFO)
        fail("after unmapping the executable: %s%ld frames, status %ld", "", ngot, got_rc);

    /* Another build: refused, and no unwinding through it. */
    static const uint8_t other_build[20] = {1, 2, 3};
    struct dwu_mapping wrong;
    dwu_space_mapping_at(clone, cp->regs.r[DWU_RIP], &wrong, &st);   /* its path: the clone's */
    wrong.build_id = other_build;
    wrong.build_id_len = sizeof other_build;
    if ((st = dwu_space_map(clone, &wrong)) != DWU_MAP_OTHER_BUILD)
        fail("a mapping of another build: %s%ld, not %ld", "status ", st, DWU_MAP_OTHER_BUILD);
    r = cp->regs;
    ngot = dwu_space_unwind(clone, &r, &cp->mem, got, MAX_FRAMES, &got_rc);
    if (ngot != 1 || got_rc != DWU_ENOINFO)
        fail("through a mapping of another build: %s%ld frames, status %ld", "", ngot, got_rc);
    dwu_space_destroy(clone);
    dwu_space_destroy(space);
}

/* SIZE bytes of the stack at SP into DATA, as perf copies them: every byte,
 * including what AddressSanitizer poisons between locals. */
__attribute__((no_sanitize("address"))) static void copy_stack(uint8_t *data, uint64_t sp, uint64_t size)
{
    const volatile uint8_t *from = (const volatile uint8_t *)(uintptr_t)sp;
    for (uint64_t i = 0; i < size; i++)
        data[i] = from[i];
}

static int at_leaf(void *arg)
{
    int depth = *(int *)arg;
    static uint8_t data[COPY_MAX];
    struct copy cp;
    dwu_capture(&cp.regs);
    uint64_t sp = cp.regs.r[DWU_RSP];
    uint64_t size = stack_top - sp < COPY_MAX ? stack_top - sp : COPY_MAX;
    copy_stack(data, sp, size);
    cp.c = (struct dwu_stack_copy){sp, data, size};
    cp.mem = (struct dwu_memory){dwu_read_stack_copy, &cp.c};
    check_space_walks(depth, &cp);
    return 0;
}

/* Map PATH as the executable's text would be, and check it is refused. */
static void expect_refused(const char *what, const char *path, uint64_t start, uint64_t offset)
{
    struct dwu_space *space = dwu_space_create(NULL);
    struct dwu_mapping m = {.start = start, .size = 0x10000, .offset = offset, .path = path};
    int st = dwu_space_map(space, &m);
    struct dwu_regs r = {.valid = (1u << DWU_RIP) | (1u << DWU_RSP), .flags = DWU_FLAG_EXACT_IP};
    r.r[DWU_RIP] = start + 0x100;
    r.r[DWU_RSP] = 0x1000;
    uint64_t word = 0;
    struct dwu_stack_copy c = {0x1000, (const uint8_t *)&word, sizeof word};
    struct dwu_memory mem = {dwu_read_stack_copy, &c};
    int rc = dwu_space_step(space, &r, &mem);
    if (st >= 0 || rc != DWU_ENOINFO)
        fail("%s: mapped with status %ld, a step gives %ld", what, st, rc);
    dwu_space_destroy(space);
}

static void check_bad_files(void)
{
    char dir[] = "/tmp/check_space.XXXXXX", path[64], self[4096];
    if (!mkdtemp(dir))
        return;
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = 0;
    FILE *in = fopen(self, "rb");
    static uint8_t image[1 << 22];
    size_t size = in ? fread(image, 1, sizeof image, in) : 0;
    if (in)
        fclose(in);
    snprintf(path, sizeof path, "%s/dir", dir);
    mkdir(path, 0700);
    expect_refused("a directory", path, 0x400000, 0);
    snprintf(path, sizeof path, "%s/fifo", dir);
    mkfifo(path, 0600);
    expect_refused("a FIFO", path, 0x400000, 0);
    remove(path);
    snprintf(path, sizeof path, "%s/text", dir);
    FILE *f = fopen(path, "w");
    fputs("not an object\n", f);
    fclose(f);
    expect_refused("a text file", path, 0x400000, 0);
    expect_refused("a missing file", "/nonexistent/object", 0x400000, 0);
    /* Truncated: every length up to the program headers' end, then a few
     * past them (a segment then runs out of the file). */
    static const size_t lengths[] = {0, 1, 16, 63, 64, 100, 200, 400, 600, 800, 1000, 4096, 8192};
    snprintf(path, sizeof path, "%s/truncated", dir);
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths && lengths[i] < size; i++) {
        f = fopen(path, "wb");
        fwrite(image, 1, lengths[i], f);
        fclose(f);
        char what[64];
        snprintf(what, sizeof what, "the program truncated to %zu bytes", lengths[i]);
        expect_refused(what, path, 0x400000, 0x1000);
    }
    /* The program headers' offset past the end of the file. */
    if (size > 64) {
        memset(image + 32, 0xff, 7);   /* e_phoff */
        f = fopen(path, "wb");
        fwrite(image, 1, size, f);
        fclose(f);
        expect_refused("e_phoff past the end of the file", path, 0x400000, 0x1000);
    }
    remove(path);
    snprintf(path, sizeof path, "%s/dir", dir);
    rmdir(path);
    rmdir(dir);
}

/* This program's executable mapping's file offset and size, or 0. */
static uint64_t own_text(uint64_t *size)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096], exe[4096] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    uint64_t offset = 0;
    while (f && fgets(line, sizeof line, f) && !offset) {
        unsigned long long lo, hi, off;
        char perms[8], path[4096] = "";
        if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &lo, &hi, perms, &off, path) == 5 &&
            strchr(perms, 'x') && strcmp(path, exe) == 0) {
            offset = off;
            *size = hi - lo;
        }
    }
    if (f)
        fclose(f);
    return offset;
}

/* Map PATH (a copy of this program) in a new space, with BUILD_ID (LEN
 * bytes, or none), release the space; the mapping's status.  *ID receives
 * the file's build-id when ID is not NULL. */
static int map_released(const char *path, const uint8_t *build_id, size_t len, uint8_t *id, size_t *idlen)
{
    uint64_t size = 0, offset = own_text(&size);
    struct dwu_space *space = dwu_space_create(NULL);
    struct dwu_mapping m = {.start = 0x400000, .size = size, .offset = offset, .path = path,
                            .build_id = build_id, .build_id_len = len};
    int st = dwu_space_map(space, &m);
    struct dwu_mapping got;
    if (id && dwu_space_mapping_at(space, 0x400000, &got, NULL) == 0 && got.build_id_len <= 20) {
        memcpy(id, got.build_id, got.build_id_len);
        *idlen = got.build_id_len;
    }
    dwu_space_destroy(space);
    return st;
}

static void check_sharing(void)
{
    char dir[] = "/tmp/check_space.XXXXXX", path[64], moved[64], self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (!mkdtemp(dir) || n <= 0)
        return;
    self[n] = 0;
    static uint8_t image[1 << 22];
    FILE *in = fopen(self, "rb");
    size_t size = in ? fread(image, 1, sizeof image, in) : 0;
    if (in)
        fclose(in);
    uint8_t id[20];
    size_t idlen = 0;
    snprintf(path, sizeof path, "%s/copy", dir);
    snprintf(moved, sizeof moved, "%s/moved", dir);
    FILE *f = fopen(path, "wb");
    fwrite(image, 1, size, f);
    fclose(f);
    int first = map_released(path, NULL, 0, id, &idlen);
    rename(path, moved);
    int by_id = map_released(path, id, idlen, NULL, NULL), no_id = map_released(path, NULL, 0, NULL, NULL);
    if (first < 0 || !idlen || by_id < 0 || no_id != DWU_MAP_NO_FILE)
        fail("%s: status %ld with its build-id, %ld without", "a released file mapped again by its old path",
             by_id, no_id);
    /* Released files are kept up to a bound: the oldest goes first. */
    for (int i = 0; i < DWU_OBJECT_FILES_KEPT; i++) {
        char other[80];
        snprintf(other, sizeof other, "%s/other%d", dir, i);
        f = fopen(other, "wb");
        fwrite(image, 1, size, f);
        fclose(f);
        map_released(other, NULL, 0, NULL, NULL);
        remove(other);
    }
    int evicted = map_released(path, id, idlen, NULL, NULL);
    if (evicted != DWU_MAP_NO_FILE)
        fail("%s past %ld others: status %ld", "a released file kept", DWU_OBJECT_FILES_KEPT, evicted);
    remove(moved);
    rmdir(dir);
}

static uint64_t find_stack_top(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    unsigned long long lo, hi, top = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, "[stack]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2)
            top = hi;
    if (f)
        fclose(f);
    return top;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--cache") == 0 && i + 1 < argc)
            cache_dir = argv[++i];
        else if (strcmp(argv[i], "--expect-eh-elf") == 0 && i + 1 < argc && nexpect < 8)
            expect_eh_elf[nexpect++] = argv[++i];
        else {
            fprintf(stderr, "usage: check_space [--cache DIR] [--expect-eh-elf NAME]...\n");
            return 2;
        }
    }
    stack_top = find_stack_top();
    for (int depth = 1; depth <= MAX_DEPTH; depth++)
        chain(depth, at_leaf, &depth);
    check_bad_files();
    check_sharing();
    printf("space walks: %ld frames compared with the in-process walk; %d failures\n", frames_compared,
           failures);
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: Apache-2.0 */
