/* SPDX-License-Identifier: Apache-2.0 */
/*
 * live_objects: the code of a traced process, mapped to the objects it comes
 * from and their .eh_frame rows.
 *
 * The executable mappings of /proc/PID/maps, each with its load bias and the
 * object (ELF file) it maps; an object is opened (object/elf_file), its
 * .eh_frame read (semantics/cfi_reader) and looked up (semantics/fde_lookup)
 * the first time code of it runs.  A pc in no known mapping makes the maps
 * be read again (a library loaded since); code without a file (the vDSO,
 * generated code) or whose file cannot be read, or has no .eh_frame, has no
 * table here.  The objects' paths are interned in a run_result, whose
 * indices name them in records.
 *
 * Owns every elf_file and section it opens; live_objects_release frees them.
 */
#ifndef DWCHECK_LIVE_OBJECTS_H
#define DWCHECK_LIVE_OBJECTS_H

#include <stdint.h>
#include <sys/types.h>

#include "object/elf_file.h"
#include "semantics/cfi_reader.h"
#include "semantics/fde_lookup.h"
#include "run_result.h"

struct live_object {
    char *path;
    int index;                     /* in run_result.objects */
    int state;                     /* 0 not opened, 1 has a table, -1 none */
    struct elf_file ef;
    struct cfi_section eh_frame;
    struct fde_lookup lookup;
};

struct live_mapping {
    uint64_t start, end;           /* [start, end) of an executable mapping */
    uint64_t bias;                 /* load address - file address */
    struct live_object *object;    /* NULL: no file */
};

struct live_objects {
    pid_t pid;
    struct live_mapping *maps;
    size_t nmaps;
    struct live_object **objects;
    size_t nobjects;
    struct run_result *result;     /* borrowed: where paths are interned */
};

void live_objects_init(struct live_objects *lo, pid_t pid, struct run_result *result);
void live_objects_release(struct live_objects *lo);
/* Forget the mappings (after an exec); the objects stay open. */
void live_objects_forget_maps(struct live_objects *lo);
/* Read /proc/PID/maps again now (objects mapped or unmapped since). */
void live_objects_refresh(struct live_objects *lo);

/* Where PC runs: 1 with *OBJECT (whose table is ready), the file address in
 * *ADDR and the row covering it in *ROW (and its FDE in *FDE); 0 when no
 * table covers PC. */
int live_objects_row(struct live_objects *lo, uint64_t pc, struct live_object **object, uint64_t *addr,
                     const struct unwind_row **row, const struct eh_frame_fde **fde);

/* The FDE covering PC (and its object), without its row; NULL when none. */
const struct eh_frame_fde *live_objects_fde(struct live_objects *lo, uint64_t pc, struct live_object **object,
                                       uint64_t *bias);

#endif
