/* SPDX-License-Identifier: Apache-2.0 */
#include "tracer.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frame_watch.h"
#include "live_objects.h"

enum thread_kind { KIND_UNKNOWN, KIND_THREAD, KIND_FORK };

struct thread {
    struct watched_thread w;
    enum thread_kind kind;
    int started;                   /* its first stop was seen and passed */
    int waiting;                   /* stopped before we knew what it is: not resumed */
};

struct trace {
    pid_t pid;                     /* the process (its first thread) */
    struct thread **threads;
    size_t n;
    struct live_objects objects;
    struct run_result *result;
    uint64_t max_steps;
};

static struct thread *thread_find(struct trace *tr, pid_t tid)
{
    for (size_t i = 0; i < tr->n; i++)
        if (tr->threads[i]->w.tid == tid)
            return tr->threads[i];
    return NULL;
}

static struct thread *thread_add(struct trace *tr, pid_t tid, enum thread_kind kind)
{
    struct thread *t = calloc(1, sizeof *t);
    struct thread **grown = realloc(tr->threads, (tr->n + 1) * sizeof *grown);
    if (!t || !grown) {
        free(t);
        if (grown)
            tr->threads = grown;
        return NULL;
    }
    tr->threads = grown;
    t->w.tid = tid;
    t->kind = kind;
    shadow_stack_init(&t->w.stack);
    tr->threads[tr->n++] = t;
    if (kind == KIND_THREAD)
        tr->result->threads++;
    return t;
}

static void thread_remove(struct trace *tr, pid_t tid)
{
    for (size_t i = 0; i < tr->n; i++) {
        if (tr->threads[i]->w.tid != tid)
            continue;
        shadow_stack_release(&tr->threads[i]->w.stack);
        free(tr->threads[i]);
        tr->threads[i] = tr->threads[--tr->n];
        return;
    }
}

/* Let thread T go on: one more step, or (past --max-steps, or a fork) free. */
static void resume(struct trace *tr, struct thread *t, int sig)
{
    if (t->kind == KIND_FORK || tr->result->max_steps_reached) {
        if (t->kind == KIND_FORK)
            tr->result->forks_detached++;
        ptrace(PTRACE_DETACH, t->w.tid, NULL, (void *)(intptr_t)sig);
        thread_remove(tr, t->w.tid);
        return;
    }
    t->w.signal_injected = sig != 0;
    ptrace(PTRACE_SINGLESTEP, t->w.tid, NULL, (void *)(intptr_t)sig);
}

static void dwarf_regs(const struct user_regs_struct *u, uint64_t *r)
{
    r[ABI_RAX] = u->rax, r[ABI_RDX] = u->rdx, r[ABI_RCX] = u->rcx, r[ABI_RBX] = u->rbx;
    r[ABI_RSI] = u->rsi, r[ABI_RDI] = u->rdi, r[ABI_RBP] = u->rbp, r[ABI_RSP] = u->rsp;
    r[ABI_R8] = u->r8, r[ABI_R9] = u->r9, r[ABI_R10] = u->r10, r[ABI_R11] = u->r11;
    r[ABI_R12] = u->r12, r[ABI_R13] = u->r13, r[ABI_R14] = u->r14, r[ABI_R15] = u->r15;
    r[ABI_RA] = u->rip;
}

/* A thread or a fork announced by an event of its parent. */
static void announced(struct trace *tr, pid_t tid, enum thread_kind kind)
{
    struct thread *t = thread_find(tr, tid);
    if (!t) {
        thread_add(tr, tid, kind);
        return;
    }
    t->kind = kind;
    if (kind == KIND_THREAD)
        tr->result->threads++;
    if (t->waiting) {
        t->waiting = 0;
        t->started = 1;
        resume(tr, t, 0);
    }
}

static void on_event(struct trace *tr, struct thread *t, int event)
{
    unsigned long msg = 0;
    ptrace(PTRACE_GETEVENTMSG, t->w.tid, NULL, &msg);
    if (event == PTRACE_EVENT_CLONE)
        announced(tr, (pid_t)msg, KIND_THREAD);
    else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK)
        announced(tr, (pid_t)msg, KIND_FORK);
    else if (event == PTRACE_EVENT_EXEC) {
        /* A new image: the old one's frames and mappings mean nothing now. */
        for (size_t i = 0; i < tr->n; i++) {
            tr->threads[i]->w.stack.n = 0;
            tr->threads[i]->w.have_before = 0;
        }
        live_objects_forget_maps(&tr->objects);
        tr->result->execs++;
    }
    resume(tr, t, 0);
}

/* A stop with signal SIG that is no event. */
static void on_signal_stop(struct trace *tr, struct thread *t, int sig)
{
    if (!t->started) {
        /* A new thread's first stop, PTRACE_O_TRACECLONE's SIGSTOP (or a fork's). */
        if (t->kind == KIND_UNKNOWN) {
            t->waiting = 1;
            return;
        }
        t->started = 1;
        resume(tr, t, sig == SIGSTOP ? 0 : sig);
        return;
    }
    siginfo_t si;
    int have_info = ptrace(PTRACE_GETSIGINFO, t->w.tid, NULL, &si) == 0;
    if (sig == SIGTRAP && have_info && si.si_code > 0 && si.si_code != SI_KERNEL) {
        if (tr->max_steps && tr->result->steps >= tr->max_steps)
            tr->result->max_steps_reached = 1;
        struct user_regs_struct u;
        if (!tr->result->max_steps_reached && ptrace(PTRACE_GETREGS, t->w.tid, NULL, &u) == 0) {
            uint64_t regs[ABI_RA + 1];
            dwarf_regs(&u, regs);
            frame_watch_step(&t->w, regs, &tr->objects, tr->result);
        }
        resume(tr, t, 0);
        return;
    }
    /* A group-stop (no siginfo) is not kept; any other signal is delivered. */
    resume(tr, t, have_info ? sig : 0);
}

static void on_stop(struct trace *tr, pid_t tid, int status)
{
    struct thread *t = thread_find(tr, tid);
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
        if (tid == tr->pid) {
            tr->result->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            tr->result->exit_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        }
        thread_remove(tr, tid);
        return;
    }
    if (!WIFSTOPPED(status))
        return;
    if (!t && !(t = thread_add(tr, tid, KIND_UNKNOWN))) {
        ptrace(PTRACE_DETACH, tid, NULL, NULL);
        return;
    }
    int event = status >> 16;
    if (event)
        on_event(tr, t, event);
    else
        on_signal_stop(tr, t, WSTOPSIG(status));
}

/* The child: traced from its exec on.  A failed exec sends errno up FD. */
static void child(char *const *argv, int fd)
{
    ptrace(PTRACE_TRACEME, 0, NULL, NULL);
    execvp(argv[0], argv);
    int e = errno;
    if (write(fd, &e, sizeof e) < 0)
        _exit(127);
    _exit(127);
}

/* Start ARGV traced: its pid, stopped after its exec; -1 with ERR. */
static pid_t start(char *const *argv, char *err, size_t errlen)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fds[0]), close(fds[1]);
        return -1;
    }
    if (pid == 0)
        child(argv, fds[1]);
    close(fds[1]);
    int e = 0;
    ssize_t got = read(fds[0], &e, sizeof e);
    close(fds[0]);
    int status;
    if (got == (ssize_t)sizeof e) {
        waitpid(pid, &status, 0);
        snprintf(err, errlen, "%s", strerror(e));
        return -1;
    }
    if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
        snprintf(err, errlen, "cannot be traced (ptrace refused?)");
        return -1;
    }
    long options = PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC |
                   PTRACE_O_EXITKILL;
    if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)options) != 0) {
        snprintf(err, errlen, "ptrace: %s", strerror(errno));
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return -1;
    }
    return pid;
}

int tracer_run(char *const *argv, uint64_t max_steps, struct run_result *result, char *err, size_t errlen)
{
    pid_t pid = start(argv, err, errlen);
    if (pid < 0)
        return -1;
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    struct trace tr = {.pid = pid, .result = result, .max_steps = max_steps};
    live_objects_init(&tr.objects, pid, result);
    struct thread *first = thread_add(&tr, pid, KIND_THREAD);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (first) {
        first->started = 1;
        resume(&tr, first, 0);
    } else {
        ptrace(PTRACE_DETACH, pid, NULL, NULL);
    }
    int status;
    pid_t tid;
    while ((tid = waitpid(-1, &status, __WALL)) > 0 || (tid < 0 && errno == EINTR))
        if (tid > 0)
            on_stop(&tr, tid, status);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    result->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    while (tr.n)
        thread_remove(&tr, tr.threads[0]->w.tid);
    free(tr.threads);
    live_objects_release(&tr.objects);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return 0;
}
