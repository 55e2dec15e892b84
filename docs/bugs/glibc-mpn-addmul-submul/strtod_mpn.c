/* Reaches glibc's __mpn_addmul_1 and __mpn_submul_1 (sysdeps/x86_64/addmul_1.S)
   through strtod.

   strtod("1e300")  multiplies multi-limb numbers: __mpn_mul -> __mpn_addmul_1
   strtod("1e-300") divides them:                   strtod   -> __mpn_submul_1

   SIGUSR1 runs a handler that walks the stack with libgcc's _Unwind_Backtrace
   (what glibc's backtrace() and many profilers use), starting from the
   interrupted instruction, and says whether the walk got back to main.
   reproduce.sh sends the signal from gdb at chosen instructions.

   Build: cc -O1 -g -rdynamic -o strtod_mpn strtod_mpn.c -ldl  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <unwind.h>

struct walk {
    int n;
    int reached_main;
};

static void say(const char *s) { (void)!write(2, s, strlen(s)); }

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
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

static void on_sigusr1(int sig)
{
    struct walk w = {0, 0};
    (void)sig;
    say("_Unwind_Backtrace from a SIGUSR1 handler:\n");
    _Unwind_Backtrace(step, &w);
    say(w.reached_main ? "_Unwind_Backtrace: reached main\n"
                       : "_Unwind_Backtrace: did NOT reach main\n");
}

__attribute__((noinline)) double parse(const char *s)
{
    double d = strtod(s, NULL);
    __asm__ volatile("" ::: "memory"); /* keep the call a call */
    return d;
}

int main(int argc, char **argv)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigusr1;
    sigaction(SIGUSR1, &sa, NULL);

    for (int i = 1; i < argc; i++)
        printf("strtod(\"%s\") = %g\n", argv[i], parse(argv[i]));
    return 0;
}
