/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_meta: what a perf.data recording says about itself, for perf_data
 * (internal): its events (the attributes, the sample ids that belong to
 * each, their names) and the build-ids of the objects it touched.
 *
 * They come from the file header's attribute and feature sections (file
 * mode) or from records (pipe mode: HEADER_ATTR, HEADER_FEATURE,
 * EVENT_UPDATE, HEADER_EVENT_TYPE, HEADER_BUILD_ID); both paths end in the
 * same parsers.  Every parser takes bytes of the input with their length and
 * checks each size read from them against it; a malformed part is refused
 * (-1, a sentence in WHY, PERF_WHY_LEN bytes) and what was added before it
 * stays.
 *
 * Invariants: every attribute has a name (a default made from its type and
 * config until a description names it); IDS is sorted by id; BUILD_IDS is
 * sorted by filename.  Adding an attribute may move ATTRS (pipe mode).
 */
#ifndef DWCHECK_PROFILE_PERF_META_H
#define DWCHECK_PROFILE_PERF_META_H

#include <stddef.h>
#include <stdint.h>

#include "profile/perf_event.h"

struct perf_meta_id {
    uint64_t id;
    size_t attr;                   /* index in attrs */
};

/* An attribute's name as owned here; GIVEN once a description named the
 * event (until then a default name, which any description replaces). */
struct perf_meta_name {
    char *owned;
    int given;
};

struct perf_meta_build_id {
    char *filename;
    uint64_t hash;                 /* of FILENAME: the table is sorted by (hash, filename, pid) */
    int32_t pid;                   /* -1: any process */
    uint8_t len;
    uint8_t id[20];
};

struct perf_meta {
    struct perf_attr *attrs;
    struct perf_meta_name *names;  /* parallel to attrs */
    size_t n_attrs, cap_attrs, cap_names;
    struct perf_meta_id *ids;
    size_t n_ids, cap_ids;
    struct perf_meta_build_id *build_ids;
    size_t n_build_ids, cap_build_ids;
};

void perf_meta_release(struct perf_meta *m);

/* An attribute of SIZE bytes (a perf_event_attr as recorded: fields past
 * SIZE read as 0) and its N_IDS sample ids (little-endian u64s at IDS). */
int perf_meta_add_attr(struct perf_meta *m, const uint8_t *attr, size_t size, const uint8_t *ids,
                       uint64_t n_ids, char *why);

/* The records: each REC of LEN bytes, header included. */
int perf_meta_attr_record(struct perf_meta *m, const uint8_t *rec, size_t len, char *why);
int perf_meta_feature_record(struct perf_meta *m, const uint8_t *rec, size_t len, char *why);
int perf_meta_event_update(struct perf_meta *m, const uint8_t *rec, size_t len, char *why);
int perf_meta_event_type(struct perf_meta *m, const uint8_t *rec, size_t len, char *why);
int perf_meta_build_id_record(struct perf_meta *m, const uint8_t *rec, size_t len, char *why);

/* Feature FEATURE's section (HEADER_BUILD_ID and HEADER_EVENT_DESC are
 * read, the others ignored): SIZE bytes at P. */
int perf_meta_feature(struct perf_meta *m, uint64_t feature, const uint8_t *p, size_t size,
                      char *why);

/* The attribute with sample id ID, or NULL. */
const struct perf_attr *perf_meta_attr_by_id(const struct perf_meta *m, uint64_t id);

/* The build-id of FILENAME in process PID (an entry for PID, else one for
 * any process), or NULL. */
const struct perf_meta_build_id *perf_meta_build_id(const struct perf_meta *m, uint32_t pid,
                                                    const char *filename);

#endif
