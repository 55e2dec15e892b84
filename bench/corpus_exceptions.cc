// The corpus's C++ exceptions program as a function the unwinding benchmark
// calls in its workload loop (throws and catches through libstdc++ and
// libgcc's unwinder).
#define main corpus_exceptions_main
#include "corpus/exceptions.cc"
#undef main

extern "C" int corpus_exceptions(void)
{
    return corpus_exceptions_main();
}
/* SPDX-License-Identifier: Apache-2.0 */
