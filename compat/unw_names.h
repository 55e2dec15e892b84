/* SPDX-License-Identifier: Apache-2.0 */
/*
 * unw_names: libunwind 1.6's names of x86_64 registers (unw_regname) and
 * of its error codes (unw_strerror), which both drop-in libraries export.
 * Pure; async-signal-safe.
 */
#ifndef DWUNWIND_COMPAT_UNW_NAMES_H
#define DWUNWIND_COMPAT_UNW_NAMES_H

#include "compat/unw_abi.h"

/* "RAX" ... "RIP", or "???" (libunwind reads before its table for a
 * negative number; this does not). */
static inline const char *lu_regname(unw_regnum_t reg)
{
    static const char *const names[] = {"RAX", "RDX", "RCX", "RBX", "RSI", "RDI", "RBP", "RSP", "R8",
                                        "R9",  "R10", "R11", "R12", "R13", "R14", "R15", "RIP"};
    return reg >= 0 && reg < (int)(sizeof names / sizeof names[0]) ? names[reg] : "???";
}

/* The sentence for -CODE, an UNW_E* code negated. */
static inline const char *lu_strerror(int code)
{
    switch (-code) {
    case UNW_ESUCCESS: return "no error";
    case UNW_EUNSPEC: return "unspecified (general) error";
    case UNW_ENOMEM: return "out of memory";
    case UNW_EBADREG: return "bad register number";
    case UNW_EREADONLYREG: return "attempt to write read-only register";
    case UNW_ESTOPUNWIND: return "stop unwinding";
    case UNW_EINVALIDIP: return "invalid IP";
    case UNW_EBADFRAME: return "bad frame";
    case UNW_EINVAL: return "unsupported operation or bad value";
    case UNW_EBADVERSION: return "unwind info has unsupported version";
    case UNW_ENOINFO: return "no unwind info found";
    default: return "invalid error code";
    }
}

#endif
