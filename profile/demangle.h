/* SPDX-License-Identifier: Apache-2.0 */
/*
 * demangle: C++ symbol names as perf 6.1 prints them in `perf script`:
 * libiberty's cplus_demangle without DMGL_PARAMS — a function's qualified
 * name without its parameters or return type, ".cold", ".constprop.0" and
 * "@VERSION" suffixes dropped — computed from libstdc++'s __cxa_demangle.
 */
#ifndef DWCHECK_PROFILE_DEMANGLE_H
#define DWCHECK_PROFILE_DEMANGLE_H

/* NAME demangled as perf prints it, in memory the caller frees; NULL when
 * NAME is not a C++ name perf demangles. */
char *demangle_symbol(const char *name);

#endif
