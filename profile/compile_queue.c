/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compile_queue: eh_elfs compiled on demand (see the header).
 */
#include "compile_queue.h"

#include "cache_dir.h"
#include "runtime/trusted_path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A step of the DWARF fallback (make bench: a few hundred ns to a few us,
 * the FDE search and the CFA program's run), and a compilation's cost per
 * byte of the object's file (dwcompile --repair on libc: 1.6 s for 2 MB). */
#define FALLBACK_STEP_NS 1000.0
#define COMPILE_NS_PER_BYTE 800.0

enum object_state { WAITING, QUEUED, RUNNING, DONE, FAILED };

struct object {
    char *path;
    char name[2 * 64 + 16];          /* BUILDID.eh_elf.so */
    double budget_steps;             /* fallback steps worth one compilation */
    double steps;
    enum object_state state;
};

struct compile_queue {
    char *cache_dir, *dwcompile;
    int dirfd;                       /* the cache, opened once (cache_dir_open) */
    struct dwu_trusted_temp work;            /* the running compilation's directory in it */
    enum compile_policy policy;
    struct object *objects;
    size_t n, cap;
    pid_t running;                   /* 0: none */
    size_t running_index;
    unsigned compiled, failed, ready;
    const char *last_path;           /* the object of the last step noted */
    size_t last_index;
};

struct compile_queue *compile_queue_new(const char *cache_dir, const char *dwcompile, enum compile_policy policy)
{
    int dirfd = cache_dir_open(cache_dir);
    if (dirfd < 0)
        return NULL;
    struct compile_queue *q = calloc(1, sizeof *q);
    if (!q || !(q->cache_dir = strdup(cache_dir)) || !(q->dwcompile = strdup(dwcompile))) {
        compile_queue_free(q);
        return NULL;
    }
    q->dirfd = dirfd;
    q->work.fd = -1;
    q->policy = policy;
    return q;
}

static struct object *object_for(struct compile_queue *q, const struct dwu_mapping *m)
{
    if (q->last_path && q->last_index < q->n && strcmp(q->objects[q->last_index].path, m->path) == 0)
        return &q->objects[q->last_index];
    for (size_t i = 0; i < q->n; i++)
        if (strcmp(q->objects[i].path, m->path) == 0) {
            q->last_index = i;
            q->last_path = q->objects[i].path;
            return &q->objects[i];
        }
    if (!m->build_id || !m->build_id_len || m->build_id_len > 64)
        return NULL;
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 16;
        struct object *n = realloc(q->objects, cap * sizeof *n);
        if (!n)
            return NULL;
        q->objects = n;
        q->cap = cap;
    }
    struct object *o = &q->objects[q->n];
    memset(o, 0, sizeof *o);
    if (!(o->path = strdup(m->path)))
        return NULL;
    size_t at = 0;
    for (uint64_t i = 0; i < m->build_id_len; i++)
        at += (size_t)snprintf(o->name + at, sizeof o->name - at, "%02x", m->build_id[i]);
    snprintf(o->name + at, sizeof o->name - at, ".eh_elf.so");
    struct stat st;
    double size = stat(m->path, &st) == 0 ? (double)st.st_size : 1e6;
    o->budget_steps = q->policy == COMPILE_ALWAYS ? 0 : size * COMPILE_NS_PER_BYTE / FALLBACK_STEP_NS;
    q->last_index = q->n++;
    q->last_path = o->path;
    return o;
}

static void start_next(struct compile_queue *q)
{
    if (q->running)
        return;
    for (size_t i = 0; i < q->n; i++) {
        struct object *o = &q->objects[i];
        if (o->state != QUEUED)
            continue;
        /* Into a directory of its own in the cache (0700, a random name,
         * locked while it runs), renamed into the cache when it is done:
         * nothing is written through a link in the cache. */
        char out[4096 + 2 * NAME_MAX];
        if (dwu_trusted_temp_create(q->dirfd, o->name, "", 1, &q->work) != 0 ||
            snprintf(out, sizeof out, "%s/%s/%s", q->cache_dir, q->work.name, o->name) >= (int)sizeof out) {
            dwu_trusted_temp_discard(q->dirfd, &q->work);
            o->state = FAILED;
            q->failed++;
            continue;
        }
        char *argv[] = {q->dwcompile, "--repair", "-q", "-o", out, o->path, NULL};
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        pid_t pid;
        int rc = posix_spawnp(&pid, q->dwcompile, &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        if (rc != 0) {
            dwu_trusted_temp_discard(q->dirfd, &q->work);
            o->state = FAILED;
            q->failed++;
            continue;
        }
        o->state = RUNNING;
        q->running = pid;
        q->running_index = i;
        return;
    }
}

void compile_queue_note_fallback(struct compile_queue *q, struct dwu_space *space, uint64_t pc)
{
    if (!q || q->policy == COMPILE_NEVER)
        return;
    struct dwu_mapping m;
    int status;
    if (dwu_space_mapping_at(space, pc, &m, &status) != 0 || status != DWU_MAP_DWARF)
        return;
    struct object *o = object_for(q, &m);
    if (!o || o->state != WAITING)
        return;
    if (++o->steps >= o->budget_steps) {
        o->state = QUEUED;
        start_next(q);
    }
}

/* One finished compilation, STATUS from waitpid. */
static void finished(struct compile_queue *q, int status)
{
    struct object *o = &q->objects[q->running_index];
    q->running = 0;
    int placed = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                 renameat(q->work.fd, o->name, q->dirfd, o->name) == 0;
    dwu_trusted_temp_discard(q->dirfd, &q->work);
    if (placed) {
        o->state = DONE;
        q->compiled++;
        q->ready++;
    } else {
        o->state = FAILED;
        q->failed++;
    }
}

int compile_queue_poll(struct compile_queue *q)
{
    if (!q)
        return 0;
    int status;
    if (q->running && waitpid(q->running, &status, WNOHANG) == q->running) {
        finished(q, status);
        start_next(q);
    }
    int ready = (int)q->ready;
    q->ready = 0;
    return ready;
}

int compile_queue_wait(struct compile_queue *q)
{
    if (!q)
        return 0;
    while (q->running) {
        int status;
        if (waitpid(q->running, &status, 0) == q->running)
            finished(q, status);
        else if (errno != EINTR)
            q->running = 0;
        start_next(q);
    }
    int ready = (int)q->ready;
    q->ready = 0;
    return ready;
}

void compile_queue_stats(const struct compile_queue *q, struct compile_stats *st)
{
    *st = (struct compile_stats){0};
    if (!q)
        return;
    st->compiled = q->compiled;
    st->failed = q->failed;
    for (size_t i = 0; i < q->n; i++)
        st->pending += q->objects[i].state == QUEUED || q->objects[i].state == RUNNING;
}

void compile_queue_free(struct compile_queue *q)
{
    if (!q)
        return;
    if (q->running) {
        kill(q->running, SIGTERM);
        waitpid(q->running, NULL, 0);
        dwu_trusted_temp_discard(q->dirfd, &q->work);
    }
    for (size_t i = 0; i < q->n; i++)
        free(q->objects[i].path);
    free(q->objects);
    free(q->cache_dir);
    free(q->dwcompile);
    free(q);
}
