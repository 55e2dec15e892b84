/* SPDX-License-Identifier: Apache-2.0 */
/* tests/run: threads that compute and return while the main thread waits. */
#include <pthread.h>
#include <stdio.h>

static long work(long n)
{
    long s = 0;
    for (long i = 1; i <= n; i++)
        s += i % 7 ? i : -i;
    return s;
}

static void *thread_main(void *arg)
{
    long n = (long)arg;
    return (void *)work(n * 100);
}

int main(void)
{
    pthread_t t[3];
    for (long i = 0; i < 3; i++)
        if (pthread_create(&t[i], NULL, thread_main, (void *)(i + 1)) != 0)
            return 1;
    long total = 0;
    for (int i = 0; i < 3; i++) {
        void *r;
        pthread_join(t[i], &r);
        total += (long)r;
    }
    printf("threads: %ld\n", total);
    return 0;
}
