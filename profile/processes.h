/* SPDX-License-Identifier: Apache-2.0 */
/*
 * processes: the recorded processes, rebuilt from a recording's records as
 * perf rebuilds them — each process's address space (a dwu_space of its
 * executable file mappings, shared by its threads) and each thread's
 * command name.
 *
 *   MMAP/MMAP2   an executable mapping is added to the process's space
 *                (file-backed or not: "[vdso]" and anonymous code are
 *                mappings without unwind information, named for output);
 *   COMM         the thread's name; with exec, the process's mappings go;
 *   FORK         a new process starts with a copy of its parent's space
 *                (a new thread shares its process's);
 *   EXIT         nothing: samples of a thread may still follow in time.
 *
 * The table owns the spaces and names; pointers it returns stay valid
 * until processes_free.
 */
#ifndef DWCHECK_PROFILE_PROCESSES_H
#define DWCHECK_PROFILE_PROCESSES_H

#include <stdint.h>

#include "profile/perf_data.h"
#include "runtime/dwunwind.h"

struct processes;

/* An empty table; CACHE_DIR (may be NULL) is where the spaces look for
 * eh_elfs by build-id. */
struct processes *processes_new(const char *cache_dir);
void processes_free(struct processes *p);

/* Apply a MMAP, COMM, FORK or EXIT event (SAMPLEs are ignored). */
void processes_apply(struct processes *p, const struct perf_event *ev);

/* The address space of process PID (created empty when unknown); NULL
 * only when out of memory. */
struct dwu_space *processes_space(struct processes *p, uint32_t pid);

/* Thread TID's command name, or ":TID" as perf prints an unknown one
 * (written into BUF, BUFLEN bytes). */
const char *processes_comm(struct processes *p, uint32_t tid, char *buf, unsigned buflen);

/* Call FN on every process's space (after an eh_elf was compiled). */
void processes_each_space(struct processes *p, void (*fn)(struct dwu_space *space, void *arg), void *arg);

#endif
