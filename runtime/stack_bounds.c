/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stack_bounds: the stack memory a walk may read (see stack_bounds.h).
 */
#include "stack_bounds.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* A mapping found: [lo, hi) may be read; a stack pointer in [grows_to,
 * hi) is on it.  GROWS_TO is LO but for the main thread's stack, which the
 * kernel grows downwards as it is touched: no other mapping is placed
 * within 128 MiB below its top (mmap_base keeps at least that gap), so a
 * stack pointer up to 8 MiB below its top is on it, however far it has
 * grown, and the file need not be read again at each new depth. */
struct known_range {
    struct dwu_stack_range readable;
    uint64_t grows_to;
};
#define MAIN_STACK_WINDOW (8u << 20)

/* The last two anonymous read-write mappings this thread looked up.  SEQ
 * is odd while one is being written: a signal handler that interrupts the
 * writing sees it and scans the file itself. */
static __thread __attribute__((tls_model("initial-exec"))) struct {
    struct known_range range[2];
    unsigned seq;
} known;

/* One line of /proc/self/maps, parsed as it streams by. */
struct maps_line {
    unsigned field;          /* 0 "start-end", 1 perms, 2 offset, 3 device, 4 inode, 5 path */
    int in_end;              /* past the '-' of field 0 */
    uint64_t start, end, inode;
    char perms[4];
    unsigned nperms;
    char path[8];            /* its first characters */
    unsigned npath;
    int space;               /* the last character was a separator */
};

static int hex_digit(char c, uint64_t *v)
{
    if (c >= '0' && c <= '9')
        *v = *v * 16 + (uint64_t)(c - '0');
    else if (c >= 'a' && c <= 'f')
        *v = *v * 16 + (uint64_t)(c - 'a' + 10);
    else
        return -1;
    return 0;
}

static void line_char(struct maps_line *l, char c)
{
    if (c == ' ') {
        if (!l->space && l->field < 5)
            l->field++;
        l->space = 1;
        return;
    }
    l->space = 0;
    switch (l->field) {
    case 0:
        if (c == '-')
            l->in_end = 1;
        else
            hex_digit(c, l->in_end ? &l->end : &l->start);
        break;
    case 1:
        if (l->nperms < 4)
            l->perms[l->nperms++] = c;
        break;
    case 4:
        l->inode = l->inode * 10 + (uint64_t)(c >= '0' && c <= '9' ? c - '0' : 0);
        break;
    case 5:
        if (l->npath < sizeof l->path)
            l->path[l->npath++] = c;
        break;
    default:
        break;
    }
}

/* ADDR's mapping, when it is anonymous and read-write (a stack), in *R.
 * Returns 0, or -1.  The lines are in address order: the first that ends
 * past ADDR decides. */
static int scan_maps(uint64_t addr, struct known_range *r)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[512];
    struct maps_line l;
    memset(&l, 0, sizeof l);
    int found = -1, decided = 0;
    ssize_t n;
    while (!decided && (n = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n && !decided; i++) {
            if (buf[i] != '\n') {
                line_char(&l, buf[i]);
                continue;
            }
            if (addr < l.end) {
                decided = 1;
                if (addr >= l.start && l.nperms == 4 && l.perms[0] == 'r' && l.perms[1] == 'w' &&
                    l.perms[3] == 'p' && l.inode == 0) {
                    r->readable.lo = l.start;
                    r->readable.hi = l.end;
                    r->grows_to = l.start;
                    if (l.npath == 7 && memcmp(l.path, "[stack]", 7) == 0 && l.end > MAIN_STACK_WINDOW &&
                        l.end - MAIN_STACK_WINDOW < l.start)
                        r->grows_to = l.end - MAIN_STACK_WINDOW;
                    found = 0;
                }
            }
            memset(&l, 0, sizeof l);
        }
    }
    close(fd);
    return found;
}

/* The range this thread knows that holds ADDR (in [grows_to, hi)), or
 * NULL; SEQ is known.seq read before, and what is read of the range holds
 * only if known.seq is still SEQ after (a handler may have written it). */
static inline const struct known_range *known_range_of(uint64_t addr, unsigned seq)
{
    if (seq & 1)
        return NULL;
    for (int i = 0; i < 2; i++)
        if (addr >= known.range[i].grows_to && addr < known.range[i].readable.hi)
            return &known.range[i];
    return NULL;
}

/* ADDR's mapping: one this thread knows, or one looked up (and kept). */
static int range_of(uint64_t addr, struct known_range *r)
{
    unsigned seq = known.seq;
    __asm__ volatile("" ::: "memory");
    const struct known_range *k = known_range_of(addr, seq);
    if (k) {
        *r = *k;
        __asm__ volatile("" ::: "memory");
        if (known.seq == seq)
            return 0;
    }
    if (scan_maps(addr, r) != 0)
        return -1;
    if (!(seq & 1) && known.seq == seq) {
        known.seq = seq + 1;
        __asm__ volatile("" ::: "memory");
        known.range[1] = known.range[0];
        known.range[0] = *r;
        __asm__ volatile("" ::: "memory");
        known.seq = seq + 2;
    }
    return 0;
}

void dwu_stack_bounds_init(struct dwu_stack_bounds *b, uint64_t sp)
{
    memset(b, 0, sizeof *b);
    /* The usual case first, field by field: a walk starts on a stack this
     * thread knows (a copy of the whole range, read back at once, would
     * wait on its stores). */
    unsigned seq = known.seq;
    __asm__ volatile("" ::: "memory");
    const struct known_range *k = known_range_of(sp, seq);
    if (k) {
        uint64_t hi = k->readable.hi;
        __asm__ volatile("" ::: "memory");
        if (known.seq == seq) {
            b->start.lo = sp;
            b->start.hi = hi;
            return;
        }
    }
    struct known_range r;
    if (range_of(sp, &r) == 0) {
        b->start.lo = sp;
        b->start.hi = r.readable.hi;
    } else if (sp && (sp ^ (uint64_t)(uintptr_t)__builtin_frame_address(0)) < 4096) {
        /* no /proc: the page of the stack pointer, when it is the page this
         * call runs on (mapped) */
        b->start.lo = sp;
        b->start.hi = (sp | 4095) + 1;
    }
}

int dwu_stack_bounds_reach(struct dwu_stack_bounds *b, uint64_t addr)
{
    if (b->reaches >= DWU_STACK_REACHES)
        return 0;
    b->reaches++;
    struct known_range r;
    if (range_of(addr, &r) != 0 || addr < r.readable.lo)
        return 0;
    b->other = r.readable;
    return dwu_stack_readable(b, addr);
}

/* (Not checked by AddressSanitizer: see read_other_word in unwind.c.) */
__attribute__((no_sanitize("address"))) int dwu_stack_read_within_bounds(void *arg, uint64_t addr, uint64_t *value)
{
    struct dwu_stack_bounds *b = arg;
    if (!dwu_stack_readable(b, addr) && !dwu_stack_bounds_reach(b, addr))
        return -1;
    memcpy(value, (const void *)(uintptr_t)addr, 8);
    return 0;
}
