/* SPDX-License-Identifier: Apache-2.0 */
/*
 * throw_memo: a throw's procedures by address, per thread (see the
 * header).
 */
#include "compat/throw_memo.h"

#include <pthread.h>
#include <stdlib.h>

/* The pointer alone is thread-local, initial-exec: the library needs libc
 * alone (no __tls_get_addr), and a dlopen of it finds room for a word. */
static __thread __attribute__((tls_model("initial-exec"))) struct lu_throw_memo *thread_memo;
static pthread_key_t memo_key;
static pthread_once_t memo_key_once = PTHREAD_ONCE_INIT;
static int memo_key_made;

static void memo_free(void *m)
{
    thread_memo = NULL;   /* a throw in a later destructor makes another */
    free(m);
}

static void memo_key_make(void)
{
    memo_key_made = pthread_key_create(&memo_key, memo_free) == 0;
}

static struct lu_throw_memo *memo_of_thread(void)
{
    struct lu_throw_memo *m = thread_memo;
    if (!m) {
        pthread_once(&memo_key_once, memo_key_make);
        if (!memo_key_made || !(m = calloc(1, sizeof *m)))
            return NULL;
        if (pthread_setspecific(memo_key, m) != 0) {
            free(m);
            return NULL;
        }
        thread_memo = m;
    }
    return m;
}

struct lu_throw_memo *lu_throw_memo_begin(const struct _Unwind_Exception *exc)
{
    struct lu_throw_memo *m = memo_of_thread();
    if (!m)
        return NULL;
    m->exc = exc;
    m->serial++;
    m->objects[0] = m->objects[1] = NULL;
    return m;
}

struct lu_throw_memo *lu_throw_memo_of(const struct _Unwind_Exception *exc)
{
    struct lu_throw_memo *m = thread_memo;
    return m && m->exc == exc ? m : NULL;
}
