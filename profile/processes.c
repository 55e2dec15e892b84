/* SPDX-License-Identifier: Apache-2.0 */
/*
 * processes: the recorded processes and threads (see processes.h).
 *
 * Two open-addressing hash tables keyed by id: processes (pid -> space)
 * and threads (tid -> command name).
 */
#include "processes.h"

#include "vdso.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct process {
    uint32_t pid;
    int used;
    struct dwu_space *space;
};

struct thread {
    uint32_t tid;
    int used;
    char comm[32];
};

struct processes {
    char *cache_dir;
    struct process *procs;
    size_t nprocs, capprocs;
    struct thread *threads;
    size_t nthreads, capthreads;
};

static size_t slot_of(uint32_t id, size_t cap)
{
    return (id * 2654435761u) & (cap - 1);
}

struct processes *processes_new(const char *cache_dir)
{
    struct processes *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (cache_dir && !(p->cache_dir = strdup(cache_dir))) {
        free(p);
        return NULL;
    }
    return p;
}

void processes_free(struct processes *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->capprocs; i++)
        if (p->procs[i].used)
            dwu_space_destroy(p->procs[i].space);
    free(p->procs);
    free(p->threads);
    free(p->cache_dir);
    free(p);
}

/* Make room for one more entry in TABLE (N used of CAP, a power of two),
 * rehashing by KEY; returns NULL from the enclosing function when out of
 * memory. */
#define GROW(table, n, cap, type, key)                                                            \
    do {                                                                                          \
        if (2 * ((n) + 1) > (cap)) {                                                              \
            size_t ncap = (cap) ? 2 * (cap) : 64;                                                 \
            type *nt = calloc(ncap, sizeof *nt);                                                  \
            if (!nt)                                                                              \
                return NULL;                                                                      \
            for (size_t i_ = 0; i_ < (cap); i_++)                                                 \
                if ((table)[i_].used) {                                                           \
                    size_t s_ = slot_of((table)[i_].key, ncap);                                   \
                    while (nt[s_].used)                                                           \
                        s_ = (s_ + 1) & (ncap - 1);                                               \
                    nt[s_] = (table)[i_];                                                         \
                }                                                                                 \
            free(table);                                                                          \
            (table) = nt;                                                                         \
            (cap) = ncap;                                                                         \
        }                                                                                         \
    } while (0)

static struct process *process(struct processes *p, uint32_t pid, int create)
{
    if (create)
        GROW(p->procs, p->nprocs, p->capprocs, struct process, pid);
    if (!p->capprocs)
        return NULL;
    size_t s = slot_of(pid, p->capprocs);
    while (p->procs[s].used && p->procs[s].pid != pid)
        s = (s + 1) & (p->capprocs - 1);
    if (p->procs[s].used || !create)
        return p->procs[s].used ? &p->procs[s] : NULL;
    struct dwu_space *space = dwu_space_create(p->cache_dir);
    if (!space)
        return NULL;
    p->procs[s] = (struct process){pid, 1, space};
    p->nprocs++;
    return &p->procs[s];
}

static struct thread *thread(struct processes *p, uint32_t tid, int create)
{
    if (create)
        GROW(p->threads, p->nthreads, p->capthreads, struct thread, tid);
    if (!p->capthreads)
        return NULL;
    size_t s = slot_of(tid, p->capthreads);
    while (p->threads[s].used && p->threads[s].tid != tid)
        s = (s + 1) & (p->capthreads - 1);
    if (p->threads[s].used || !create)
        return p->threads[s].used ? &p->threads[s] : NULL;
    p->threads[s] = (struct thread){.tid = tid, .used = 1};
    p->nthreads++;
    return &p->threads[s];
}

struct dwu_space *processes_space(struct processes *p, uint32_t pid)
{
    struct process *proc = process(p, pid, 1);
    return proc ? proc->space : NULL;
}

const char *processes_comm(struct processes *p, uint32_t tid, char *buf, unsigned buflen)
{
    const struct thread *t = thread(p, tid, 0);
    if (t)
        return t->comm;
    snprintf(buf, buflen, ":%u", tid);
    return buf;
}

static void set_comm(struct processes *p, uint32_t tid, const char *comm)
{
    struct thread *t = thread(p, tid, 1);
    if (t)
        snprintf(t->comm, sizeof t->comm, "%s", comm);
}

static void apply_mmap(struct processes *p, const struct perf_mmap *m)
{
    if (!m->executable || !m->len)
        return;
    struct dwu_mapping map = {
        .start = m->start, .size = m->len, .offset = m->pgoff, .path = m->filename,
        .build_id = m->build_id, .build_id_len = m->build_id_len,
    };
    /* perf's name for the vDSO: read from this machine's copy when it is
     * the one recorded. */
    const char *vdso = strcmp(m->filename, "[vdso]") == 0
                           ? vdso_image_path(p->cache_dir, m->build_id, m->build_id_len) : NULL;
    if (vdso) {
        map.path = vdso;
        map.name = m->filename;
    }
    struct dwu_space *space = processes_space(p, m->pid);
    if (space)
        dwu_space_map(space, &map);
}

static void apply_fork(struct processes *p, const struct perf_task *t)
{
    /* The child thread is named as its parent thread (perf does the same
     * until the child's COMM). */
    const struct thread *parent_thread = thread(p, t->ptid, 0);
    if (parent_thread && !thread(p, t->tid, 0)) {
        char comm[sizeof parent_thread->comm];
        memcpy(comm, parent_thread->comm, sizeof comm);
        set_comm(p, t->tid, comm);
    }
    if (t->pid == t->ppid)
        return;   /* a thread: it shares its process's space */
    struct process *parent = process(p, t->ppid, 0);
    if (!parent)
        return;
    struct dwu_space *copy = dwu_space_clone(parent->space);
    struct process *child = process(p, t->pid, 1);
    if (!child)
        dwu_space_destroy(copy);
    else if (copy) {
        dwu_space_destroy(child->space);
        child->space = copy;
    }
}

void processes_apply(struct processes *p, const struct perf_event *ev)
{
    struct dwu_space *space;
    switch (ev->kind) {
    case PERF_EVENT_MMAP:
        apply_mmap(p, &ev->u.mmap);
        break;
    case PERF_EVENT_COMM:
        set_comm(p, ev->u.comm.tid, ev->u.comm.comm);
        if (ev->u.comm.exec && (space = processes_space(p, ev->u.comm.pid)))
            dwu_space_unmap(space, 0, UINT64_MAX);
        break;
    case PERF_EVENT_FORK:
        apply_fork(p, &ev->u.task);
        break;
    default:
        break;
    }
}

void processes_each_space(struct processes *p, void (*fn)(struct dwu_space *space, void *arg), void *arg)
{
    for (size_t i = 0; i < p->capprocs; i++)
        if (p->procs[i].used)
            fn(p->procs[i].space, arg);
}
