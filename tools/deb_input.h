/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deb_input: the ELF files inside a Debian package, as dwcheck inputs.
 *
 * A .deb is an ar archive whose data.tar{,.gz,.xz,.zst,.bz2} member holds
 * the files.  Both levels are read with libarchive, the inner tar streamed
 * from the outer member (never unpacked to disk): each regular file that
 * begins with the ELF magic is copied into an anonymous memory file
 * (memfd_create) and becomes an input (tools/inputs) opened through
 * /proc/self/fd/N — the audit's workers are forked, so they inherit it —
 * and named `PACKAGE.deb:/usr/lib/...` (the package's name as given, the
 * member's path with its leading "." dropped).  A hard link inside the tar
 * is another name of its target's input, and so is a symbolic link that
 * leads (relative or absolute, through "." and "..", or through other
 * links up to 8 deep) to an ELF member of the package: the names a
 * directory walk of the unpacked package would give.  Members that are
 * not ELF, and links to them or to nothing, are passed over.
 *
 * Memory bounds: a member larger than DEB_INPUT_MEMBER_MAX bytes is not
 * read — it becomes an input not audited, "member of N bytes: larger than
 * the 512 MiB limit" — and members held at once over one run total at most
 * DEB_INPUT_TOTAL_MAX bytes (beyond, each further ELF member is refused so).
 * Each member held is an open file descriptor: the soft limit of open
 * files is raised to the hard one, and members past it (less
 * DEB_INPUT_SPARE_FDS kept for the workers' pipes) are refused so too.
 * The member's size is the tar header's; a member whose data runs past it
 * or stops short is refused as corrupt.  Reading needs a buffer of 64 KiB.
 *
 * Errors: a package that cannot be read (not an ar archive, no data.tar, a
 * corrupt stream) is an input not audited named by the package, with
 * libarchive's reason; the ELF members read before the fault stay inputs.
 * Only running out of memory stops (-1).  The memory files belong to the
 * input_list (input_list.fds) and are closed by inputs_free.
 */
#ifndef DWCHECK_DEB_INPUT_H
#define DWCHECK_DEB_INPUT_H

#include <stdint.h>

#include "inputs.h"

#define DEB_INPUT_MEMBER_MAX ((uint64_t)512 << 20)
#define DEB_INPUT_TOTAL_MAX ((uint64_t)2 << 30)
#define DEB_INPUT_SPARE_FDS 512

/* Whether PATH is a Debian package: an ar archive whose first member is
 * debian-binary. */
int deb_input_is_deb(const char *path);

/* Add the ELF members of the package PATH to LIST.  0, or -1 out of memory. */
int deb_input_expand(struct input_list *list, const char *path);

/* The two, as the reader of packages inputs_expand takes. */
extern const struct input_packages deb_input_packages;

#endif
