/* SPDX-License-Identifier: Apache-2.0 */
/*
 * object_file: an object's file, opened for address spaces (space.c).
 *
 * The file is mapped read-only, whole, and its ELF header and program
 * headers are read with every offset and size checked against the file:
 * its loadable segments (to place a mapping's addresses in the object's
 * own), its identity (the build-id note, else the hash of .eh_frame_hdr,
 * as dwcompile computes it), and for the DWARF fallback where
 * .eh_frame_hdr and the segment that holds it are in the mapped file.
 * Its eh_elf is looked for by that identity (eh_elf_find).
 *
 * Files are shared: opening a file already open (the same device, inode,
 * size and modification time) takes a reference to it, and so does opening
 * a path already open with the build-id the caller expects, without a
 * system call (a profiler maps the same libraries into every process it
 * sees).  A file no space refers to any more stays mapped while it is one
 * of the last DWU_OBJECT_FILES_KEPT released, for the next process to take.
 * The table of open files is guarded by its own lock; an object_file itself
 * is read-only after it is opened, except its eh_elf
 * (object_file_find_eh_elf_again, under the lock).
 */
#ifndef DWUNWIND_OBJECT_FILE_H
#define DWUNWIND_OBJECT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "dwunwind.h"
#include "identity.h"

#define DWU_OBJECT_MAX_LOADS 16
#define DWU_OBJECT_FILES_KEPT 64

struct dwu_load_segment {
    uint64_t offset, vaddr, filesz, memsz;
    uint32_t flags;                   /* PF_* */
};

struct dwu_object_file {
    unsigned refs;                    /* 0: kept after its last release */
    unsigned long long released;      /* when it was last released (a count), for eviction */
    unsigned long long dev, ino, mtime_ns;
    char *path;                       /* the path it was first opened by */
    const uint8_t *image;             /* the file, mapped */
    size_t size;
    struct dwu_identity id;           /* DWU_IDENTITY_NONE: none could be computed */
    struct dwu_identity build_id;     /* the build-id note's, or kind NONE */
    struct dwu_load_segment loads[DWU_OBJECT_MAX_LOADS];
    unsigned nloads;
    const uint8_t *eh_frame_hdr;      /* in IMAGE, or NULL */
    const uint8_t *readable_start;    /* the file bytes of the segment that holds it */
    const uint8_t *readable_end;
    uint64_t table_bias;              /* IMAGE address minus own address, in that segment */
    dwu_eh_elf_step_fn step;          /* its eh_elf, or NULL */
    struct dwu_row_memo *memo;        /* the rows interpreted from its .eh_frame (row_memo.h), or NULL */
    struct dwu_object_file *next;     /* in the table of open files */
};

/* The object file at PATH, opened or shared (a new reference): one opened
 * by PATH before whose build-id is BUILD_ID (BUILD_ID_LEN bytes; 0: none
 * expected) is taken as it is.  Its eh_elf is looked for with CACHE_DIR when
 * it is first opened.  NULL with *STATUS a dwu_map_status (DWU_MAP_NO_FILE,
 * DWU_MAP_NOT_ELF, DWU_MAP_NO_MEMORY). */
struct dwu_object_file *dwu_object_file_open(const char *path, const uint8_t *build_id, size_t build_id_len,
                                             const char *cache_dir, int *status);

/* Another reference to F. */
void dwu_object_file_ref(struct dwu_object_file *f);

/* Drop a reference; after the last one the file is kept mapped for a while
 * (see above), then unmapped (its eh_elf stays loaded). */
void dwu_object_file_release(struct dwu_object_file *f);

/* The load segment holding file offset OFFSET, or NULL. */
const struct dwu_load_segment *dwu_object_file_segment_at(const struct dwu_object_file *f, uint64_t offset);

/* Look for F's eh_elf again if it has none (one may have been compiled
 * into CACHE_DIR since); returns whether it has one now. */
int dwu_object_file_find_eh_elf_again(struct dwu_object_file *f, const char *path, const char *cache_dir);

#endif
