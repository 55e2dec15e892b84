/* SPDX-License-Identifier: Apache-2.0 */
#include "tracer.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frame_watch.h"
#include "live_objects.h"
#include "selective.h"

enum thread_kind { KIND_UNKNOWN, KIND_THREAD, KIND_FORK };

struct thread {
    struct watched_thread w;
    enum thread_kind kind;
    int started;                   /* its first stop was seen and passed */
    int waiting;                   /* stopped before we knew what it is: not resumed */
    int vfork;                     /* a vfork's child: it shares the parent's memory */
    /* --only */
    int run;                       /* resumed at full speed (PTRACE_CONT), else stepped */
    uint64_t over;                 /* an int3 of ours lies at rip, to step over: its address */
    int in_flight;                 /* resumed, its next stop not yet seen */
    int stop_sent;                 /* a SIGSTOP of ours is on its way to it: not the program's */
    int parked;                    /* its stop, parked_status, seen while another stepped over
                                      an int3: not yet handled */
    int parked_status;
};

struct trace {
    pid_t pid;                     /* the process (its first thread) */
    struct thread **threads;
    size_t n;
    struct live_objects objects;
    struct run_result *result;
    uint64_t max_steps;
    struct selective *sel;         /* --only, or NULL: every instruction stepped */
    size_t nparked;                /* threads parked */
    int nstepping;                 /* --only: threads being stepped */
    struct timespec stepping_since;   /* since when nstepping > 0 */
};

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* --only: one thread more (DELTA 1) or fewer (-1) stepped; the wall time
 * during which some thread was stepped is summed. */
static void stepping(struct trace *tr, int delta)
{
    struct timespec now;
    if (!tr->sel)
        return;
    if (tr->nstepping == 0 && delta > 0)
        clock_gettime(CLOCK_MONOTONIC, &tr->stepping_since);
    tr->nstepping += delta;
    if (tr->nstepping == 0 && delta < 0) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        tr->result->stepped_seconds += seconds_between(&tr->stepping_since, &now);
    }
}

static void set_run(struct trace *tr, struct thread *t, int run)
{
    if (t->run != run)
        stepping(tr, run ? -1 : 1);
    t->run = run;
}

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
    t->run = tr->sel != NULL;
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
        set_run(tr, tr->threads[i], 1);
        if (tr->threads[i]->parked)
            tr->nparked--;
        shadow_stack_release(&tr->threads[i]->w.stack);
        free(tr->threads[i]);
        tr->threads[i] = tr->threads[--tr->n];
        return;
    }
}

static void step_over(struct trace *tr, struct thread *t, int sig);

/* A SIGSTOP of ours is still on its way to T, about to be let go: take it
 * now (it comes at once when T resumes), or the program, untraced, would
 * stop.  0 when T is gone meanwhile. */
static int swallow_stop(struct thread *t)
{
    int status;
    t->stop_sent = 0;
    if (ptrace(PTRACE_SINGLESTEP, t->w.tid, NULL, NULL) != 0)
        return 0;
    while (waitpid(t->w.tid, &status, __WALL) < 0)
        if (errno != EINTR)
            return 0;
    return WIFSTOPPED(status);
}

/* Let thread T go on: one more step, or at full speed (--only), or (past
 * --max-steps, or a fork) free. */
static void resume(struct trace *tr, struct thread *t, int sig)
{
    if (t->kind == KIND_FORK || tr->result->max_steps_reached) {
        if (t->kind == KIND_FORK) {
            tr->result->forks_detached++;
            /* A fork's memory is a copy, int3s and all: give it back its
             * bytes.  A vfork's child shares its parent's: left as it is. */
            if (tr->sel && !t->vfork)
                selective_unlay(tr->sel, t->w.tid);
        }
        if (t->stop_sent && !swallow_stop(t)) {
            thread_remove(tr, t->w.tid);
            return;
        }
        ptrace(PTRACE_DETACH, t->w.tid, NULL, (void *)(intptr_t)sig);
        thread_remove(tr, t->w.tid);
        return;
    }
    if (t->over) {
        step_over(tr, t, sig);
        return;
    }
    t->w.signal_injected = sig != 0;
    ptrace(t->run ? PTRACE_CONT : PTRACE_SINGLESTEP, t->w.tid, NULL, (void *)(intptr_t)sig);
    t->in_flight = 1;
}

/* Whether thread TID of process PID has exited (a zombie: a main thread
 * that called pthread_exit is one until the last thread ends, and reports
 * no stop before). */
static int thread_exited(pid_t pid, pid_t tid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid, (int)tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
}

/* --only: every other thread resumed is stopped (a SIGSTOP of ours, not
 * delivered when it comes) and its stop parked, to be handled after. */
static void stop_others(struct trace *tr, struct thread *t)
{
    for (size_t i = 0; i < tr->n; i++) {
        struct thread *u = tr->threads[i];
        if (u != t && u->in_flight && thread_exited(tr->pid, u->w.tid))
            u->in_flight = 0;   /* nothing to stop; its end is reported at the process's */
        if (u != t && u->in_flight && !u->stop_sent) {
            syscall(SYS_tgkill, (int)tr->pid, (int)u->w.tid, SIGSTOP);
            u->stop_sent = 1;
        }
    }
    for (size_t i = 0; i < tr->n; i++) {
        struct thread *u = tr->threads[i];
        if (u == t || !u->in_flight)
            continue;
        /* Polled: a thread may end on its way (a main thread's
         * pthread_exit), and then reports nothing until the others end. */
        int status;
        pid_t got;
        struct timespec pause = {0, 20000};
        while ((got = waitpid(u->w.tid, &status, __WALL | WNOHANG)) == 0 || (got < 0 && errno == EINTR))
            if (got == 0 && thread_exited(tr->pid, u->w.tid))
                break;
            else if (got == 0)
                nanosleep(&pause, NULL);
        u->in_flight = 0;
        if (got == u->w.tid) {
            u->parked = 1;
            u->parked_status = status;
            tr->nparked++;
        }
    }
}

/* A thread stopped now other than T, or 0. */
static pid_t other_stopped(struct trace *tr, struct thread *t)
{
    for (size_t i = 0; i < tr->n; i++)
        if (tr->threads[i] != t && !tr->threads[i]->in_flight && tr->threads[i]->kind == KIND_THREAD)
            return tr->threads[i]->w.tid;
    return 0;
}

static int step_trap(pid_t tid, int status)
{
    siginfo_t si;
    return WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP && !(status >> 16) &&
           ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) == 0 && si.si_code > 0 && si.si_code != SI_KERNEL;
}

static void on_stop(struct trace *tr, pid_t tid, int status);

/* --only: T runs the instruction under its int3 at T->over.  The int3 stays
 * laid for every other thread: they are all stopped while the original
 * byte is back for T's one step (stop_others), so none can run past it. */
static void step_over(struct trace *tr, struct thread *t, int sig)
{
    pid_t tid = t->w.tid;
    uint64_t at = t->over;
    stop_others(tr, t);
    breakpoints_lift(&tr->sel->bps, tid, at, 1);
    t->w.signal_injected = sig != 0;
    ptrace(PTRACE_SINGLESTEP, tid, NULL, (void *)(intptr_t)sig);
    int status = 0;
    pid_t got;
    while ((got = waitpid(tid, &status, __WALL)) < 0 && errno == EINTR)
        ;
    int stopped = got == tid && WIFSTOPPED(status);
    pid_t via = stopped ? tid : other_stopped(tr, t);
    if (via && !(stopped && status >> 16 == PTRACE_EVENT_EXEC))
        breakpoints_lift(&tr->sel->bps, via, at, 0);
    t->over = 0;
    t->in_flight = 0;
    if (stopped) {
        struct user_regs_struct u;
        if (status >> 16 != PTRACE_EVENT_EXEC && ptrace(PTRACE_GETREGS, tid, NULL, &u) == 0 && u.rip == at)
            t->over = at;   /* not run: a signal came first */
        if (t->run && !t->over && step_trap(tid, status)) {
            resume(tr, t, 0);   /* at full speed: the step is nothing to see */
            return;
        }
    }
    if (got == tid)
        on_stop(tr, tid, status);
}

/* --max-steps reached: no int3 of --only left in the program (the table
 * is kept: a thread may have met one before, its stop not yet seen). */
static void steps_exhausted(struct trace *tr, struct thread *t)
{
    tr->result->max_steps_reached = 1;
    if (tr->sel)
        selective_unlay(tr->sel, t->w.tid);
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
    else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK) {
        struct thread *child = thread_find(tr, (pid_t)msg);
        if (!child)
            child = thread_add(tr, (pid_t)msg, KIND_UNKNOWN);
        if (child)
            child->vfork = event == PTRACE_EVENT_VFORK;
        announced(tr, (pid_t)msg, KIND_FORK);
    }
    else if (event == PTRACE_EVENT_EXEC) {
        /* A new image: the old one's frames and mappings mean nothing now. */
        for (size_t i = 0; i < tr->n; i++) {
            tr->threads[i]->w.stack.n = 0;
            tr->threads[i]->w.have_before = 0;
            tr->threads[i]->over = 0;
            set_run(tr, tr->threads[i], tr->sel != NULL);
        }
        live_objects_forget_maps(&tr->objects);
        tr->result->execs++;
        if (tr->sel)
            selective_image(tr->sel, t->w.tid, 1);
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
    if (sig == SIGSTOP && t->stop_sent) {
        t->stop_sent = 0;   /* ours (stop_others): not delivered */
        resume(tr, t, 0);
        return;
    }
    siginfo_t si;
    int have_info = ptrace(PTRACE_GETSIGINFO, t->w.tid, NULL, &si) == 0;
    struct user_regs_struct u;
    uint64_t regs[ABI_RA + 1];
    if (sig == SIGTRAP && have_info && si.si_code > 0 && si.si_code != SI_KERNEL) {
        if (tr->max_steps && tr->result->steps >= tr->max_steps && !tr->result->max_steps_reached)
            steps_exhausted(tr, t);
        if (!tr->result->max_steps_reached && !(tr->sel && t->run) &&
            ptrace(PTRACE_GETREGS, t->w.tid, NULL, &u) == 0) {
            dwarf_regs(&u, regs);
            if (tr->sel) {
                int over;
                set_run(tr, t, selective_step(tr->sel, &t->w, regs, &over) == SELECTIVE_RUN);
                t->over = over ? u.rip : 0;
            } else {
                frame_watch_step(&t->w, regs, &tr->objects, tr->result);
            }
        }
        resume(tr, t, 0);
        return;
    }
    if (tr->sel && sig == SIGTRAP && have_info && si.si_code == SI_KERNEL &&
        ptrace(PTRACE_GETREGS, t->w.tid, NULL, &u) == 0) {
        /* An int3: ours (a function's entry, a return awaited, the loader's hook), or the program's. */
        enum selective_mode mode;
        int over;
        if ((!t->run || tr->result->max_steps_reached) && breakpoints_at(&tr->sel->bps, u.rip - 1)) {
            /* Laid under a thread being stepped, since its last stop (a
             * return another thread awaits there), or met before
             * --max-steps removed them all: run what it hid. */
            u.rip--;
            ptrace(PTRACE_SETREGS, t->w.tid, NULL, &u);
            t->over = u.rip;
            resume(tr, t, 0);
            return;
        }
        dwarf_regs(&u, regs);
        if (selective_hit(tr->sel, &t->w, regs, &mode, &over)) {
            u.rip = regs[ABI_RA];
            ptrace(PTRACE_SETREGS, t->w.tid, NULL, &u);
            set_run(tr, t, mode == SELECTIVE_RUN);
            t->over = over ? u.rip : 0;
            resume(tr, t, 0);
            return;
        }
    }
    /* A group-stop (no siginfo) is not kept; any other signal is delivered. */
    resume(tr, t, have_info ? sig : 0);
}

static void on_stop(struct trace *tr, pid_t tid, int status)
{
    struct thread *t = thread_find(tr, tid);
    if (t)
        t->in_flight = 0;
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

int tracer_run(char *const *argv, struct tracer_options *opt, struct run_result *result, char *err,
               size_t errlen)
{
    pid_t pid = start(argv, err, errlen);
    if (pid < 0)
        return -1;
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    struct trace tr = {.pid = pid, .result = result, .max_steps = opt->max_steps};
    live_objects_init(&tr.objects, pid, result);
    struct selective sel;
    if (opt->nonly || opt->audit) {
        if (selective_init(&sel, opt->only, opt->nonly, opt->audit, &tr.objects, result) != 0) {
            snprintf(err, errlen, "out of memory");
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            selective_release(&sel);
            live_objects_release(&tr.objects);
            return -1;
        }
        tr.sel = &sel;
        selective_image(&sel, pid, 0);
    }
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
    for (;;) {
        /* Stops parked while a thread stepped over an int3 come first. */
        struct thread *parked = NULL;
        for (size_t i = 0; tr.nparked && i < tr.n && !parked; i++)
            if (tr.threads[i]->parked)
                parked = tr.threads[i];
        if (parked) {
            parked->parked = 0;
            tr.nparked--;
            on_stop(&tr, parked->w.tid, parked->parked_status);
            continue;
        }
        if ((tid = waitpid(-1, &status, __WALL)) > 0)
            on_stop(&tr, tid, status);
        else if (errno != EINTR)
            break;
    }
    while (tr.n)
        thread_remove(&tr, tr.threads[0]->w.tid);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    result->seconds = seconds_between(&t0, &t1);
    if (!tr.sel)
        result->stepped_seconds = result->seconds;
    else {
        const char *missing = function_select_missing(&sel.select);
        if (missing)
            snprintf(opt->missing, sizeof opt->missing, "%s", missing);
        selective_release(&sel);
    }
    free(tr.threads);
    live_objects_release(&tr.objects);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    return 0;
}
