/*
 * perf_unwind_bench: the samples of `perf record --call-graph dwarf`
 * recordings unwound again, by libunwind's remote API as perf script
 * drives it and by a dwunwind address space as dwperf does, timed on the
 * same samples (make bench: bench/dwperf.sh).
 *
 *   perf_unwind_bench [--cache=DIR] [--passes=N] FILE...
 *
 * Each recording is read whole first (profile/perf_data.h): the samples'
 * user registers and stack copies, and per process its executable
 * mappings (a fork starts with its parent's, an exec with none).  Outside
 * the timed region: each object file is mapped and its headers read once;
 * each process gets a libunwind address space (UNW_CACHE_GLOBAL, as perf
 * makes one per process) and a dwu_space (eh_elfs from DIR, dwperf's
 * cache, else the DWARF interpreter); both unwinders walk every sample once
 * to warm up.  Then N passes (5), each walking every sample with libunwind
 * and then with dwu_space_unwind.  Printed per recording: the samples,
 * the frames, on how many samples the two walk the same IPs, each one's
 * median ns per frame over the passes, and the ratio.
 *
 * libunwind's side is what a remote unwinder must do, as perf's
 * util/unwind-libunwind-local.c does it: find_proc_info finds the object
 * mapped at the IP and hands its .eh_frame_hdr table to libunwind's
 * dwarf_search_unwind_table, which reads it (and the FDEs and CIEs)
 * through access_mem; access_mem reads the stack copy, or the object's
 * file where the address is in an object; access_reg reads the sample's
 * registers.
 *
 * dwunwind's side is the unwinding as dwperf drives it: dwperf learns of
 * a sample before it prints the previous one, and asks for the memory the
 * new sample's walk reads first (dwu_space_prefetch) before that; here,
 * with no printing, the request for sample i + 1 comes before the walk of
 * sample i, the same call one sample ahead.  libunwind's side gets no
 * such request: perf script makes none.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench_stats.h"
#include "profile/perf_data.h"
#include "runtime/dwunwind.h"

#define MAX_FRAMES 512
#define DEFAULT_PASSES 5
#define MISMATCHES_SHOWN 3

/* libunwind's binary search of an .eh_frame_hdr table it reads through
 * access_mem (not in its headers; perf declares it the same way). */
extern int _Ux86_64_dwarf_search_unwind_table(unw_addr_space_t as, unw_word_t ip, unw_dyn_info_t *di,
                                              unw_proc_info_t *pi, int need_unwind_info, void *arg);

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("perf_unwind_bench: out of memory\n", stderr);
        exit(1);
    }
    return q;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

#define GROW(array, count, cap)                                                   \
    do {                                                                          \
        if ((count) == (cap)) {                                                   \
            (cap) = (cap) ? 2 * (cap) : 16;                                       \
            (array) = xrealloc((array), (cap) * sizeof *(array));                 \
        }                                                                         \
    } while (0)

/* ---- object files, mapped once ------------------------------------------------ */

struct object_file {
    char *path;
    const uint8_t *data;            /* the whole file, read-only; NULL when unusable */
    size_t size;
    const Elf64_Phdr *phdr;
    int phnum;
    uint64_t hdr_vaddr, nfdes;      /* its .eh_frame_hdr's binary-search table */
    int has_table;
};

static struct object_file **files;
static size_t nfiles, files_cap;

/* The table of an .eh_frame_hdr in the encodings every linker writes
 * (version 1, a 4-byte count: DW_EH_PE_udata4, data-relative 4-byte
 * entries: DW_EH_PE_datarel | DW_EH_PE_sdata4). */
enum { EH_PE_UDATA4 = 0x03, EH_PE_DATAREL_SDATA4 = 0x3b };

static void read_eh_frame_hdr(struct object_file *f, const Elf64_Phdr *p)
{
    if (p->p_offset > f->size || f->size - p->p_offset < 12)
        return;
    const uint8_t *h = f->data + p->p_offset;
    if (h[0] != 1 || h[2] != EH_PE_UDATA4 || h[3] != EH_PE_DATAREL_SDATA4)
        return;
    uint32_t n;
    memcpy(&n, h + 8, 4);
    f->hdr_vaddr = p->p_vaddr;
    f->nfdes = n;
    f->has_table = 1;
}

static void open_object_file(struct object_file *f)
{
    int fd = open(f->path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof(Elf64_Ehdr)) {
        close(fd);
        return;
    }
    void *at = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (at == MAP_FAILED)
        return;
    const Elf64_Ehdr *eh = at;
    size_t size = (size_t)st.st_size;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_machine != EM_X86_64 || eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > size ||
        (size - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum) {
        munmap(at, size);
        return;
    }
    f->data = at;
    f->size = size;
    f->phdr = (const Elf64_Phdr *)(f->data + eh->e_phoff);
    f->phnum = eh->e_phnum;
    for (int i = 0; i < f->phnum; i++)
        if (f->phdr[i].p_type == PT_GNU_EH_FRAME)
            read_eh_frame_hdr(f, &f->phdr[i]);
}

/* The file at PATH, opened on first use (never NULL; ->data NULL when it
 * cannot be read or is not an x86_64 ELF file). */
static struct object_file *object_file_get(const char *path)
{
    for (size_t i = 0; i < nfiles; i++)
        if (strcmp(files[i]->path, path) == 0)
            return files[i];
    struct object_file *f = xrealloc(NULL, sizeof *f);
    *f = (struct object_file){.path = xstrdup(path)};
    if (path[0] == '/')
        open_object_file(f);
    GROW(files, nfiles, files_cap);
    files[nfiles++] = f;
    return f;
}

/* ---- what the recording holds ------------------------------------------------------ */

struct mapping {                    /* an executable mmap, as recorded */
    uint64_t start, len, pgoff;
    char *path;
    uint8_t *build_id;
    size_t build_id_len;
};

/* An object file mapped into a process: its executable mapping [lo, hi)
 * and its whole image [image_lo, image_hi), at run-time addresses. */
struct object {
    uint64_t lo, hi;                /* first: holding() searches by them */
    uint64_t image_lo, image_hi;
    uint64_t bias;                  /* run-time address - the file's own address */
    const struct object_file *file;
};

struct image {                      /* objects sorted by their images, for access_mem */
    uint64_t lo, hi;
    const struct object *object;
};

/* A process from a fork or an exec to the next exec. */
struct process {
    uint32_t pid;
    int current;                    /* the pid's process now (a later exec or fork replaces it) */
    struct mapping *maps;
    size_t nmaps, maps_cap;
    size_t nsamples;
    /* Made before the timed passes: */
    struct object *objects;         /* by lo, later mappings replacing earlier ones */
    size_t nobjects;
    struct image *images;
    size_t nimages;
    unw_addr_space_t unw;
    struct dwu_space *dwu;
};

struct sample {
    struct process *process;
    struct dwu_regs regs;           /* the interrupted user registers, DWARF numbers */
    struct dwu_stack_copy copy;     /* data owned */
};

struct recording {
    const char *path;
    struct process **processes;
    size_t nprocesses, processes_cap;
    struct sample *samples;
    size_t nsamples, samples_cap;
    size_t without_stack;           /* samples without user registers or stack */
    size_t map_status[8];           /* dwu_space_map's results: [0] eh_elf, [1] DWARF, [1 - status] errors */
};

static void append_mapping(struct process *p, uint64_t start, uint64_t len, uint64_t pgoff, const char *path,
                           const uint8_t *build_id, size_t build_id_len)
{
    GROW(p->maps, p->nmaps, p->maps_cap);
    struct mapping *c = &p->maps[p->nmaps++];
    *c = (struct mapping){.start = start, .len = len, .pgoff = pgoff, .path = xstrdup(path)};
    if (build_id && build_id_len) {
        c->build_id = memcpy(xrealloc(NULL, build_id_len), build_id, build_id_len);
        c->build_id_len = build_id_len;
    }
}

/* A new process PID (a fork of PARENT, with its mappings, or an exec). */
static struct process *process_new(struct recording *r, uint32_t pid, const struct process *parent)
{
    for (size_t i = 0; i < r->nprocesses; i++)
        if (r->processes[i]->pid == pid)
            r->processes[i]->current = 0;
    struct process *p = xrealloc(NULL, sizeof *p);
    *p = (struct process){.pid = pid, .current = 1};
    for (size_t i = 0; parent && i < parent->nmaps; i++) {
        const struct mapping *m = &parent->maps[i];
        append_mapping(p, m->start, m->len, m->pgoff, m->path, m->build_id, m->build_id_len);
    }
    GROW(r->processes, r->nprocesses, r->processes_cap);
    r->processes[r->nprocesses++] = p;
    return p;
}

/* The process PID is now, made if the recording has not shown it yet. */
static struct process *process_of(struct recording *r, uint32_t pid)
{
    for (size_t i = r->nprocesses; i-- > 0;)
        if (r->processes[i]->pid == pid && r->processes[i]->current)
            return r->processes[i];
    return process_new(r, pid, NULL);
}

static void add_mapping(struct recording *r, const struct perf_mmap *m)
{
    if (m->executable)
        append_mapping(process_of(r, m->pid), m->start, m->len, m->pgoff, m->filename, m->build_id,
                       m->build_id_len);
}

/* perf's register numbers for each DWARF number (rax 0 ... r15 15, rip 16). */
static const int perf_reg_of_dwarf[DWU_NREGS] = {
    PERF_X86_AX, PERF_X86_DX, PERF_X86_CX, PERF_X86_BX, PERF_X86_SI, PERF_X86_DI, PERF_X86_BP, PERF_X86_SP,
    PERF_X86_R8, PERF_X86_R9, PERF_X86_R10, PERF_X86_R11, PERF_X86_R12, PERF_X86_R13, PERF_X86_R14, PERF_X86_R15,
    PERF_X86_IP,
};

static void add_sample(struct recording *r, const struct perf_sample *s)
{
    uint64_t need = (1ull << PERF_X86_SP) | (1ull << PERF_X86_IP);
    if (s->regs_abi == 0 || (s->regs_mask & need) != need || !s->stack || s->stack_size < 8) {
        r->without_stack++;
        return;
    }
    GROW(r->samples, r->nsamples, r->samples_cap);
    struct sample *out = &r->samples[r->nsamples++];
    *out = (struct sample){.process = process_of(r, s->pid)};
    for (int d = 0; d < DWU_NREGS; d++)
        if (s->regs_mask & (1ull << perf_reg_of_dwarf[d])) {
            out->regs.r[d] = s->regs[perf_reg_of_dwarf[d]];
            out->regs.valid |= 1u << d;
        }
    /* Interrupted, not stopped at a call: the first frame's row is at rip. */
    out->regs.flags = DWU_FLAG_EXACT_IP;
    uint8_t *copy = xrealloc(NULL, s->stack_size);
    memcpy(copy, s->stack, s->stack_size);
    out->copy = (struct dwu_stack_copy){s->regs[PERF_X86_SP], copy, s->stack_size};
    out->process->nsamples++;
}

/* Read PATH whole into R.  Returns 0, or -1 with a message on stderr. */
static int read_recording(const char *path, struct recording *r)
{
    char err[256];
    struct perf_data *pd = perf_data_open(path, err, sizeof err);
    if (!pd) {
        fprintf(stderr, "perf_unwind_bench: %s: %s\n", path, err);
        return -1;
    }
    r->path = path;
    struct perf_event ev;
    int rc;
    while ((rc = perf_data_next(pd, &ev)) == 1) {
        switch (ev.kind) {
        case PERF_EVENT_SAMPLE:
            add_sample(r, &ev.u.sample);
            break;
        case PERF_EVENT_MMAP:
            add_mapping(r, &ev.u.mmap);
            break;
        case PERF_EVENT_COMM:
            if (ev.u.comm.exec)
                process_new(r, ev.u.comm.pid, NULL);
            break;
        case PERF_EVENT_FORK:
            if (ev.u.task.pid != ev.u.task.ppid)   /* a new process, not a thread */
                process_new(r, ev.u.task.pid, process_of(r, ev.u.task.ppid));
            break;
        case PERF_EVENT_EXIT:
            break;
        }
    }
    if (rc < 0)
        fprintf(stderr, "perf_unwind_bench: %s: %s (the samples before it are used)\n", path, perf_data_error(pd));
    perf_data_close(pd);
    return 0;
}

/* ---- each process's objects and address spaces ---------------------------------- */

static int by_lo(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The entry of SORTED (N entries of SIZE bytes, each starting with lo, hi)
 * that holds ADDR, or NULL. */
static const void *holding(const void *sorted, size_t n, size_t size, uint64_t addr)
{
    size_t a = 0, b = n;
    while (a < b) {
        size_t m = (a + b) / 2;
        const uint64_t *e = (const uint64_t *)((const char *)sorted + m * size);
        if (addr < e[0])
            b = m;
        else if (addr >= e[1])
            a = m + 1;
        else
            return e;
    }
    return NULL;
}

/* M as an object of its file: the load bias from the segment that holds
 * the mapped file offset, the image from the file's PT_LOADs.  0, or -1
 * when the file cannot be used. */
static int object_of_mapping(const struct mapping *m, struct object *o)
{
    const struct object_file *f = object_file_get(m->path);
    if (!f->data)
        return -1;
    const Elf64_Phdr *seg = NULL;
    uint64_t image_lo = UINT64_MAX, image_hi = 0;
    for (int i = 0; i < f->phnum; i++) {
        const Elf64_Phdr *p = &f->phdr[i];
        if (p->p_type != PT_LOAD)
            continue;
        if (p->p_vaddr < image_lo)
            image_lo = p->p_vaddr;
        if (p->p_vaddr + p->p_memsz > image_hi)
            image_hi = p->p_vaddr + p->p_memsz;
        uint64_t page = p->p_align > 1 ? p->p_align : 4096;
        if (m->pgoff >= (p->p_offset & ~(page - 1)) && m->pgoff < p->p_offset + p->p_filesz &&
            (!seg || (p->p_flags & PF_X)))
            seg = p;
    }
    if (!seg)
        return -1;
    /* File offset X is at m->start + (X - pgoff), and is the file's own address X - p_offset + p_vaddr. */
    uint64_t bias = m->start + seg->p_offset - seg->p_vaddr - m->pgoff;
    *o = (struct object){m->start, m->start + m->len, bias + image_lo, bias + image_hi, bias, f};
    return 0;
}

static int overlaps(const struct object *a, const struct object *b)
{
    return a->lo < b->hi && b->lo < a->hi;
}

static unw_accessors_t accessors;

/* The objects, the libunwind address space and the dwu_space of P. */
static int prepare_process(struct recording *r, struct process *p, const char *cache)
{
    p->objects = xrealloc(NULL, (p->nmaps ? p->nmaps : 1) * sizeof *p->objects);
    for (size_t i = 0; i < p->nmaps; i++) {
        struct object o;
        if (object_of_mapping(&p->maps[i], &o) != 0)
            continue;
        size_t kept = 0;   /* a later mapping replaces what it overlaps, as mmap does */
        for (size_t k = 0; k < p->nobjects; k++)
            if (!overlaps(&p->objects[k], &o))
                p->objects[kept++] = p->objects[k];
        p->nobjects = kept;
        p->objects[p->nobjects++] = o;
    }
    qsort(p->objects, p->nobjects, sizeof *p->objects, by_lo);
    p->images = xrealloc(NULL, (p->nobjects ? p->nobjects : 1) * sizeof *p->images);
    for (size_t i = 0; i < p->nobjects; i++)
        p->images[p->nimages++] = (struct image){p->objects[i].image_lo, p->objects[i].image_hi, &p->objects[i]};
    qsort(p->images, p->nimages, sizeof *p->images, by_lo);

    if (!(p->unw = unw_create_addr_space(&accessors, 0)) || !(p->dwu = dwu_space_create(cache))) {
        fputs("perf_unwind_bench: cannot make an address space\n", stderr);
        return -1;
    }
    unw_set_caching_policy(p->unw, UNW_CACHE_GLOBAL);
    for (size_t i = 0; i < p->nmaps; i++) {
        const struct mapping *m = &p->maps[i];
        struct dwu_mapping dm = {.start = m->start, .size = m->len, .offset = m->pgoff, .path = m->path,
                                 .build_id = m->build_id, .build_id_len = m->build_id_len};
        int status = dwu_space_map(p->dwu, &dm);
        int slot = status >= 0 ? status : 1 - status;   /* 0 eh_elf, 1 DWARF, 2.. the errors */
        if (slot < 8)
            r->map_status[slot]++;
    }
    return 0;
}

/* ---- libunwind's accessors, as perf writes them ------------------------------------- */

/* What one walk reads: the sample's registers and stack copy, its process's objects. */
struct sample_view {
    const struct process *process;
    const struct sample *sample;
};

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, int need_unwind_info,
                          void *arg)
{
    const struct sample_view *v = arg;
    const struct object *o = holding(v->process->objects, v->process->nobjects, sizeof *o, ip);
    if (!o || !o->file->has_table)
        return -UNW_ENOINFO;
    unw_dyn_info_t di = {.start_ip = o->lo, .end_ip = o->hi, .format = UNW_INFO_FORMAT_REMOTE_TABLE};
    di.u.rti.segbase = o->bias + o->file->hdr_vaddr;
    di.u.rti.table_data = di.u.rti.segbase + 12;
    di.u.rti.table_len = o->file->nfdes * 8 / sizeof(unw_word_t);
    return _Ux86_64_dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
}

/* libunwind hands back the unwind info it allocated for find_proc_info
 * without a way to free it from outside (perf leaves it too). */
static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
    (void)as, (void)pi, (void)arg;
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
    (void)as, (void)addr, (void)arg;
    return -UNW_ENOINFO;
}

/* A word of an object's file at run-time address ADDR: the PT_LOAD that
 * holds it, the bytes the file has there. */
static int read_object(const struct object *o, uint64_t addr, unw_word_t *value)
{
    const struct object_file *f = o->file;
    uint64_t own = addr - o->bias;
    for (int i = 0; i < f->phnum; i++) {
        const Elf64_Phdr *p = &f->phdr[i];
        if (p->p_type != PT_LOAD || own < p->p_vaddr || own - p->p_vaddr >= p->p_filesz)
            continue;
        uint64_t at = p->p_offset + (own - p->p_vaddr);
        if (p->p_filesz - (own - p->p_vaddr) < 8 || at > f->size || f->size - at < 8)
            return -UNW_EINVAL;
        memcpy(value, f->data + at, 8);
        return 0;
    }
    return -UNW_EINVAL;
}

/* The stack from the copy; code and tables from the objects' files. */
static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *value, int write, void *arg)
{
    (void)as;
    const struct sample_view *v = arg;
    const struct dwu_stack_copy *c = &v->sample->copy;
    if (write)
        return -UNW_EINVAL;
    if (addr >= c->base && addr - c->base <= c->size - 8) {
        memcpy(value, c->data + (addr - c->base), 8);
        return 0;
    }
    const struct image *im = holding(v->process->images, v->process->nimages, sizeof *im, addr);
    return im ? read_object(im->object, addr, value) : -UNW_EINVAL;
}

/* libunwind numbers x86_64's registers as DWARF does, like dwu_regs. */
static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *value, int write, void *arg)
{
    (void)as;
    const struct sample_view *v = arg;
    const struct dwu_regs *regs = &v->sample->regs;
    if (write || reg < 0 || reg >= DWU_NREGS || !(regs->valid & (1u << reg)))
        return -UNW_EBADREG;
    *value = regs->r[reg];
    return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *value, int write, void *arg)
{
    (void)as, (void)reg, (void)value, (void)write, (void)arg;
    return -UNW_EBADREG;
}

static int resume(unw_addr_space_t as, unw_cursor_t *cursor, void *arg)
{
    (void)as, (void)cursor, (void)arg;
    return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t ip, char *buf, size_t len, unw_word_t *offset, void *arg)
{
    (void)as, (void)ip, (void)buf, (void)len, (void)offset, (void)arg;
    return -UNW_ENOINFO;
}

static unw_accessors_t accessors = {
    .find_proc_info = find_proc_info,
    .put_unwind_info = put_unwind_info,
    .get_dyn_info_list_addr = get_dyn_info_list_addr,
    .access_mem = access_mem,
    .access_reg = access_reg,
    .access_fpreg = access_fpreg,
    .resume = resume,
    .get_proc_name = get_proc_name,
};

/* ---- the two walks -------------------------------------------------------------------- */

enum unwinder { LIBUNWIND, DWUNWIND, NUNWINDERS };

/* The IPs U walks from S's registers over its stack copy (at most MAX_FRAMES). */
static int walk(enum unwinder u, const struct sample *s, uint64_t *ips)
{
    struct process *p = s->process;
    if (u == DWUNWIND) {
        struct dwu_regs regs = s->regs;
        struct dwu_memory mem = {dwu_read_stack_copy, (void *)&s->copy};
        return dwu_space_unwind(p->dwu, &regs, &mem, ips, MAX_FRAMES, NULL);
    }
    struct sample_view view = {p, s};
    unw_cursor_t cursor;
    if (unw_init_remote(&cursor, p->unw, &view) != 0)
        return 0;
    int n = 0;
    do {
        unw_word_t ip;
        if (unw_get_reg(&cursor, UNW_REG_IP, &ip) != 0)
            break;
        ips[n++] = ip;
    } while (n < MAX_FRAMES && unw_step(&cursor) > 0);
    return n;
}

/* Ask for the memory dwu_space_unwind of S reads first, as dwperf does a
 * sample ahead (see the top of this file). */
static void prefetch_sample(const struct sample *s)
{
    struct dwu_memory mem = {dwu_read_stack_copy, (void *)&s->copy};
    dwu_space_prefetch(s->process->dwu, &s->regs, &mem);
}

/* Every sample once with U: its frames, the time in *NS. */
static long walk_all(enum unwinder u, const struct recording *r, double *ns)
{
    static uint64_t ips[MAX_FRAMES];
    long frames = 0;
    double t0 = now_ns();
    for (size_t i = 0; i < r->nsamples; i++) {
        if (u == DWUNWIND && i + 1 < r->nsamples)
            prefetch_sample(&r->samples[i + 1]);
        frames += walk(u, &r->samples[i], ips);
    }
    *ns = now_ns() - t0;
    return frames;
}

static void show_mismatch(const struct recording *r, const struct sample *s, const uint64_t *a, int na,
                          const uint64_t *b, int nb)
{
    fprintf(stderr, "  %s: sample of pid %u at 0x%llx: the IPs differ\n    %-18s %-18s\n", r->path, s->process->pid,
            (unsigned long long)s->regs.r[DWU_RIP], "libunwind", "dwu_space_unwind");
    for (int i = 0; i < na || i < nb; i++) {
        char x[24] = "", y[24] = "";
        if (i < na)
            snprintf(x, sizeof x, "%llx", (unsigned long long)a[i]);
        if (i < nb)
            snprintf(y, sizeof y, "%llx", (unsigned long long)b[i]);
        fprintf(stderr, "  %c %-18s %-18s\n", i < na && i < nb && a[i] == b[i] ? ' ' : '*', x, y);
    }
}

/* How many samples the two unwinders walk to the same IPs. */
static size_t agreeing_samples(const struct recording *r)
{
    static uint64_t ips[NUNWINDERS][MAX_FRAMES];
    size_t same = 0, shown = 0;
    for (size_t i = 0; i < r->nsamples; i++) {
        int a = walk(LIBUNWIND, &r->samples[i], ips[LIBUNWIND]);
        int b = walk(DWUNWIND, &r->samples[i], ips[DWUNWIND]);
        if (a == b && memcmp(ips[LIBUNWIND], ips[DWUNWIND], (size_t)a * sizeof **ips) == 0)
            same++;
        else if (shown++ < MISMATCHES_SHOWN)
            show_mismatch(r, &r->samples[i], ips[LIBUNWIND], a, ips[DWUNWIND], b);
    }
    return same;
}

struct result {
    long frames[NUNWINDERS];
    double ns_per_frame[NUNWINDERS];   /* medians over the passes */
    size_t same;
};

static struct result measure(const struct recording *r, int passes)
{
    struct result res = {0};
    double *per_frame[NUNWINDERS];
    for (int u = 0; u < NUNWINDERS; u++)
        per_frame[u] = xrealloc(NULL, (size_t)passes * sizeof **per_frame);
    res.same = agreeing_samples(r);   /* also the warm-up: every object, eh_elf and cache entry met once */
    for (int k = 0; k < passes; k++)
        for (int u = 0; u < NUNWINDERS; u++) {
            double ns;
            res.frames[u] = walk_all((enum unwinder)u, r, &ns);
            per_frame[u][k] = res.frames[u] ? ns / (double)res.frames[u] : 0;
        }
    for (int u = 0; u < NUNWINDERS; u++) {
        res.ns_per_frame[u] = median(per_frame[u], (size_t)passes);
        free(per_frame[u]);
    }
    return res;
}

/* ---- main --------------------------------------------------------------------------------- */

/* PATH's file name without ".data". */
static void label_of(const char *path, char *label, size_t size)
{
    const char *slash = strrchr(path, '/');
    snprintf(label, size, "%s", slash ? slash + 1 : path);
    size_t n = strlen(label);
    if (n > 5 && strcmp(label + n - 5, ".data") == 0)
        label[n - 5] = 0;
}

int main(int argc, char **argv)
{
    const char *cache = NULL;
    int passes = DEFAULT_PASSES, first = 1;
    for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
        if (strncmp(argv[first], "--cache=", 8) == 0) {
            cache = argv[first] + 8;
        } else if (strncmp(argv[first], "--passes=", 9) == 0 && atoi(argv[first] + 9) > 0) {
            passes = atoi(argv[first] + 9);
        } else {
            fprintf(stderr, "usage: perf_unwind_bench [--cache=DIR] [--passes=N] FILE...\n");
            return 2;
        }
    }
    if (first == argc) {
        fprintf(stderr, "usage: perf_unwind_bench [--cache=DIR] [--passes=N] FILE...\n");
        return 2;
    }
    printf("\nperf.data samples unwound again, the same samples by each: libunwind's remote unw_step as perf "
           "drives it (.eh_frame_hdr searched with dwarf_search_unwind_table, UNW_CACHE_GLOBAL, one address "
           "space per process) against dwu_space_unwind (one space per process, each sample's memory asked for "
           "a sample ahead with dwu_space_prefetch as dwperf does; eh_elfs from %s), median of "
           "%d passes after a warm-up\n", cache ? cache : "(no cache)", passes);
    printf("  %-14s %8s %9s %16s %12s %12s %14s\n", "recording", "samples", "frames", "same IPs",
           "libunwind", "dwu_space", "libunwind/dwu");
    printf("  %-14s %8s %9s %16s %12s %12s %14s\n", "", "", "", "", "ns/frame", "ns/frame", "(target >= 20)");
    double ratios[argc];
    int nratios = 0, status = 0;
    for (int i = first; i < argc; i++) {
        struct recording r = {0};
        if (read_recording(argv[i], &r) != 0) {
            status = 1;
            continue;
        }
        for (size_t k = 0; k < r.nprocesses; k++)
            if (r.processes[k]->nsamples && prepare_process(&r, r.processes[k], cache) != 0)
                return 1;
        struct result res = measure(&r, passes);
        double ratio = res.ns_per_frame[DWUNWIND] > 0 ? res.ns_per_frame[LIBUNWIND] / res.ns_per_frame[DWUNWIND] : 0;
        char same[32];
        snprintf(same, sizeof same, "%zu (%.1f%%)", res.same, r.nsamples ? 100.0 * res.same / r.nsamples : 0);
        char label[64];
        label_of(r.path, label, sizeof label);
        printf("  %-14s %8zu %9ld %16s %12.1f %12.1f %14.1f\n", label, r.nsamples,
               res.frames[DWUNWIND], same, res.ns_per_frame[LIBUNWIND], res.ns_per_frame[DWUNWIND], ratio);
        size_t none = 0;
        for (int k = 2; k < 8; k++)
            none += r.map_status[k];
        printf("  %-14s mappings of the sampled processes: %zu by eh_elf, %zu by DWARF, %zu without unwind "
               "information; %zu samples without a stack; libunwind walked %ld frames\n", "",
               r.map_status[0], r.map_status[1], none, r.without_stack, res.frames[LIBUNWIND]);
        if (res.frames[DWUNWIND] > 0)
            ratios[nratios++] = ratio;
    }
    if (nratios > 1)
        printf("  median libunwind/dwu_space over the %d recordings: %.1f\n", nratios, median(ratios, (size_t)nratios));
    return status;
}
/* SPDX-License-Identifier: Apache-2.0 */
