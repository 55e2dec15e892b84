/* SPDX-License-Identifier: Apache-2.0 */
/* The stack walk shared by the reproductions' programs.

   unwind_probe_install() makes SIGUSR1 run a handler that walks the stack
   with libgcc's _Unwind_Backtrace (what glibc's backtrace() and many
   profilers use), starting from the interrupted instruction; it prints one
   line a frame to stderr,

     unwind #N 0x<ip> <file>+0x<offset in the file> [(<symbol>+0x<offset>)]

   and then "_Unwind_Backtrace: reached main" or "_Unwind_Backtrace: did NOT
   reach main".  Each reproduce.sh sends the signal from gdb at chosen
   instructions and reads those lines.

   Include this header before any system header (it defines _GNU_SOURCE for
   dladdr).  reproduce.sh copies it next to the program; to build a program
   by hand in its own directory, add -I../common.  Link with -rdynamic (so
   that dladdr can name the program's main) and -ldl.  */
#ifndef UNWIND_PROBE_H
#define UNWIND_PROBE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

struct walk {
    int n;
    int reached_main;
};

static inline void say(const char *s) { (void)!write(2, s, strlen(s)); }

static inline _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
    struct walk *w = arg;
    uintptr_t ip = _Unwind_GetIP(ctx);
    char line[256];
    Dl_info di;
    const char *where = "?";
    uintptr_t off = ip;
    const char *sym = NULL;
    uintptr_t soff = 0;

    if (ip && dladdr((void *)ip, &di) && di.dli_fname) {
        where = strrchr(di.dli_fname, '/') ? strrchr(di.dli_fname, '/') + 1
                                          : di.dli_fname;
        off = ip - (uintptr_t)di.dli_fbase;
        /* Only the program's own symbols: for a library, dladdr knows the
           exported symbols only and would name the wrong function. */
        if (di.dli_sname && di.dli_saddr && !strstr(where, ".so")) {
            sym = di.dli_sname;
            soff = ip - (uintptr_t)di.dli_saddr;
            if (strcmp(sym, "main") == 0)
                w->reached_main = 1;
        }
    }
    if (sym)
        snprintf(line, sizeof line, "  unwind #%d 0x%016lx %s+0x%lx (%s+0x%lx)\n",
                 w->n, (unsigned long)ip, where, (unsigned long)off, sym,
                 (unsigned long)soff);
    else
        snprintf(line, sizeof line, "  unwind #%d 0x%016lx %s+0x%lx\n", w->n,
                 (unsigned long)ip, where, (unsigned long)off);
    say(line);
    if (++w->n >= 24)
        return _URC_END_OF_STACK;
    return _URC_NO_REASON;
}

static inline void on_sigusr1(int sig)
{
    struct walk w = {0, 0};
    (void)sig;
    say("_Unwind_Backtrace from a SIGUSR1 handler:\n");
    _Unwind_Backtrace(step, &w);
    say(w.reached_main ? "_Unwind_Backtrace: reached main\n"
                       : "_Unwind_Backtrace: did NOT reach main\n");
}

/* Call first thing in main. */
static inline void unwind_probe_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigusr1;
    sigaction(SIGUSR1, &sa, NULL);
}

#endif
