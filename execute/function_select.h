/* SPDX-License-Identifier: Apache-2.0 */
/*
 * function_select: the functions `dwcheck --run --only=NAME` names, found
 * in a traced process.
 *
 * Each object with an .eh_frame mapped in the process (execute/live_objects:
 * code without a table has nothing to check) is searched once for STT_FUNC
 * symbols (.symtab and .dynsym, object/elf_file) of the names asked; the
 * load address of each is handed to the caller to break on.  The dynamic
 * loader's `_dl_debug_state`, where its r_debug.r_brk points (the loader
 * runs it each time it has mapped or unmapped objects: the standard
 * debugger's hook for dlopen), is found the same way.  A name is known
 * found once any object defined it; names never found are the caller's to
 * complain of at the end (a later dlopen may still bring them).
 *
 * Without names, with an audit_select: each object is audited when first
 * searched (execute/audit_select) and the entries of the functions its
 * audit leaves in doubt are handed instead; the run_result's selection
 * figures (functions_selected ...) are counted here.
 */
#ifndef DWCHECK_FUNCTION_SELECT_H
#define DWCHECK_FUNCTION_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "audit_select.h"
#include "live_objects.h"

struct function_select {
    char *const *names;            /* borrowed */
    size_t nnames;
    unsigned char *found;          /* per name: defined by some object */
    struct audit_select *audit;    /* borrowed, or NULL: select by the audit */
    int scanned;                   /* a scan was made (the objects mapped at the start) */
    const struct live_object **searched;   /* objects searched since the image began */
    size_t nsearched, capsearched;
};

/* Select NAMES[0..N-1] (borrowed: they must outlive FS), or with N 0 the
 * functions AUDIT (borrowed, or NULL: none) leaves in doubt.  0, or -1 when
 * out of memory. */
int function_select_init(struct function_select *fs, char *const *names, size_t n, struct audit_select *audit);
void function_select_release(struct function_select *fs);
/* A new image (an exec): every object is searched again. */
void function_select_forget(struct function_select *fs);

/* Search the objects mapped now (LO's maps read again) and not searched
 * yet: FOUND(ARG, ADDR, LOADER) for each selected function's load address
 * (LOADER 0) and for the loader's r_brk (LOADER 1). */
void function_select_scan(struct function_select *fs, struct live_objects *lo,
                          void (*found)(void *arg, uint64_t addr, int loader), void *arg);

/* The first name no object defined, or NULL. */
const char *function_select_missing(const struct function_select *fs);

#endif
