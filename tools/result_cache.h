/* SPDX-License-Identifier: Apache-2.0 */
/*
 * result_cache: audit results kept between runs, so that a file that has
 * not changed is not audited again (dwcheck --cache=DIR).
 *
 * The key.  A result depends on the file's bytes, on the dwcheck that
 * audited it and on the options that change results.  An entry is keyed by
 *   - the file's identity: its GNU build-id (runtime/identity.h's, read the
 *     way the runtime reads it), and its size; a file without a build-id by
 *     a 64-bit FNV-1a hash of all its bytes (dwu_fnv1a: not the hash of
 *     .eh_frame_hdr that identity_of_file falls back to, which stays the same
 *     when code changes without moving);
 *   - dwcheck's version (DWCHECK_VERSION) and the identity of the running
 *     executable itself, the same way (so a rebuilt dwcheck, whose checks
 *     may have changed under the same version, never reuses another's
 *     results, and copies of one build on many machines share them);
 *   - --prove and --prove-timeout.
 * Not in it: the path (a file audited under one name is found under any
 * other, on any machine), and separate debug files (which name functions
 * and source lines: installing a -dbg package, or a file whose build-id
 * was kept through a binary patch, calls for a new DIR).  A result whose
 * z3 queries ran out of time is kept as it was.
 *
 * An entry is one file, DIR/XX/HASH (HASH the key's FNV-1a in hex, XX its
 * first two digits): a header — a magic, the layout's number, the sizes of
 * struct check_result and struct finding, the number of findings, a
 * checksum of what follows, the whole key — then the check_result and its
 * findings, the bytes a worker sends over its pipe.  An entry is trusted
 * only when all of that holds and its size is exactly what the header
 * says; anything else (cut short, damaged, another build's layout, another
 * key whose hash collides) is a miss, audited again and written over.
 *
 * Trust.  An entry is a verdict: a forged one (its checksum recomputed)
 * would turn findings into "0 errors".  So DIR is used only when it and
 * every directory above it pass the trust rule (runtime/trusted_path.h:
 * owned by the user or root, not writable by group or others; /tmp fails),
 * it is created so (mode 0700, as are its subdirectories), and an entry is
 * read only from a regular file of the user or root that no one else may
 * write, opened with O_NOFOLLOW (anything else is a damaged entry: audited
 * again and replaced).  DIR is opened once and everything is done under
 * that descriptor (openat): an entry is written to a temporary (O_EXCL, a
 * random name, locked while written) renamed over it, so a link in the
 * cache is replaced, never written through, and runs that share DIR (one
 * user's, on one machine or over a network file system with atomic rename)
 * never read half an entry; two runs that write one entry both write the
 * same result.  Opening the cache removes the temporaries of killed runs.
 * One entry is in memory at a time.  Errors fill ERR (the reason; callers name
 * the file) and return -1; nothing here prints.
 *
 * Ownership: the cache owns its directory name; entries loaded are owned by
 * the caller's check_result (release with check_result_release).  A cache
 * opened before workers are forked is shared with them read-only.
 */
#ifndef DWCHECK_RESULT_CACHE_H
#define DWCHECK_RESULT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/identity.h"
#include "verify/audit/check.h"

struct result_cache;

/* What a result is keyed by (above).  A plain value, compared bytewise:
 * result_cache_key fills every byte, padding included. */
struct result_cache_key {
    struct dwu_identity file;
    uint64_t file_size;
    struct dwu_identity tool;
    char version[16];
    uint32_t prove, timeout_ms;
};

/*
 * Open the cache in DIR (created, with its parents, mode 0700, if missing)
 * for results checked with OPT.  Returns the cache, or NULL with a reason
 * in ERR (DIR not a directory, cannot be created, not trusted: `not used as
 * a cache: directory /tmp: writable by others (mode 1777)`, the running
 * dwcheck unreadable).
 */
struct result_cache *result_cache_open(const char *dir, const struct check_options *opt, char *err, size_t errlen);
void result_cache_free(struct result_cache *c);

/* The key of the file PATH.  Returns 0, or -1 when PATH has none (it is
 * not ELF, or cannot be read: it is not cached then). */
int result_cache_key(const struct result_cache *c, const char *path, struct result_cache_key *key);

enum result_cache_lookup {
    RESULT_CACHE_HIT,               /* R holds the result */
    RESULT_CACHE_ABSENT,            /* no entry for KEY */
    RESULT_CACHE_DAMAGED,           /* an entry not to be trusted: ignored */
};

/* Look KEY up; on a hit, R (initialised here) holds the result. */
enum result_cache_lookup result_cache_load(const struct result_cache *c, const struct result_cache_key *key,
                                           struct check_result *r);

/* Keep R as KEY's result, replacing any entry.  Returns 0, or -1 with ERR. */
int result_cache_store(const struct result_cache *c, const struct result_cache_key *key,
                       const struct check_result *r, char *err, size_t errlen);

#endif
