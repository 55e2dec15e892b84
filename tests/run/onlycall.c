/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: the programs of `dwcheck --run --only`.
 *   onlycall threads N   rec_walk(N) (recurse.s) in the main thread and in
 *                        two threads, all at once, the sums printed
 *   onlycall exit N      two threads as above, and the main thread leaves
 *                        them to it (pthread_exit), its sums printed by the
 *                        last thread
 *   onlycall fork N      rec_walk(N), then a fork whose child calls it
 *                        too and prints, then the parent again
 *   onlycall dl LIB N    LIB dlopen'ed, its dyn_wrong(N) called
 *   onlycall cut N       small_escape() (recurse.s) longjmp'ed out of, then
 *                        big_frame(N) from the same place */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

long rec_walk(long n);
void small_escape(void);
long big_frame(long n);
void escape(void);

static jmp_buf cut;

void escape(void)
{
    longjmp(cut, 1);
}

static long depth;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int walkers_done;

static void *walker(void *arg)
{
    long s = 0;
    for (int i = 0; i < 20; i++)
        s += rec_walk(depth);
    if (arg) {   /* onlycall exit: the last one prints */
        pthread_mutex_lock(&lock);
        if (++walkers_done == 2)
            printf("exit: %ld\n", s);
        pthread_mutex_unlock(&lock);
    }
    return (void *)s;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    if (strcmp(argv[1], "threads") == 0) {
        depth = atol(argv[2]);
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            if (pthread_create(&t[i], NULL, walker, NULL) != 0)
                return 1;
        long s = (long)walker(NULL);
        for (int i = 0; i < 2; i++) {
            void *r;
            pthread_join(t[i], &r);
            s += (long)r;
        }
        printf("threads: %ld\n", s);
        return 0;
    }
    if (strcmp(argv[1], "exit") == 0) {
        depth = atol(argv[2]);
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            if (pthread_create(&t[i], NULL, walker, &t[i]) != 0)
                return 1;
        pthread_exit(NULL);
    }
    if (strcmp(argv[1], "fork") == 0) {
        long n = atol(argv[2]);
        printf("parent: %ld\n", rec_walk(n));
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            printf("child: %ld\n", rec_walk(n + 1));
            return 0;
        }
        int status;
        waitpid(pid, &status, 0);
        printf("child status: %d; parent again: %ld\n", status, rec_walk(n + 2));
        return 0;
    }
    if (strcmp(argv[1], "cut") == 0) {
        if (!setjmp(cut))
            small_escape();
        printf("cut: %ld\n", big_frame(atol(argv[2])));
        return 0;
    }
    if (strcmp(argv[1], "dl") == 0 && argc == 4) {
        void *lib = dlopen(argv[2], RTLD_NOW);
        long (*f)(long) = lib ? (long (*)(long))dlsym(lib, "dyn_wrong") : NULL;
        if (!f)
            return 1;
        printf("dl: %ld\n", f(atol(argv[3])));
        return 0;
    }
    return 2;
}
