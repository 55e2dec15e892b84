/* SPDX-License-Identifier: Apache-2.0 */
/*
 * inputs: dwcheck's FILE arguments turned into the distinct files to audit.
 *
 * An argument is one of:
 *   - a directory: walked recursively, in bytewise order of names; the
 *     regular files in it that begin with the ELF magic are taken, the
 *     others (text, archives, devices ...) are passed over silently.  A
 *     symbolic link to a regular file is followed when the file lies inside
 *     the directory named (a link out of the tree is not); a link to a
 *     directory is never followed, so a walk cannot loop;
 *   - a Debian package (.deb): its ELF files, read from memory by the
 *     reader of packages the front end hands in (tools/deb_input), each
 *     named PACKAGE.deb:/usr/lib/...; a package named again (by device and
 *     inode) is not read again;
 *   - anything else: taken as it is, ELF or not (the audit then skips a
 *     file that is not ELF, or fails on one it cannot read, with the
 *     reason, as before).
 *
 * Files are distinct by device and inode (after symbolic links): a file
 * reached by several names — hard links, links to it, the same name given
 * twice, named on the command line and found in a directory — is one
 * input, audited once and reported once, under the first of its names,
 * with all of them listed (input_file.names, in the order met).  Names that
 * cannot be stat'ed (missing files) stay one input each, so that each gets
 * its error.
 *
 * Ownership: an input_list owns its files, their names and paths;
 * inputs_free frees them.  Errors are returned (-1, out of memory) with a
 * reason in ERR; a directory that cannot be read is an input of its own
 * carrying the reason (input_file.error), never a stop.
 */
#ifndef DWCHECK_INPUTS_H
#define DWCHECK_INPUTS_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct input_file {
    char *path;          /* what the audit opens */
    char **names;        /* [nnames] what the reports call it: names[0] first */
    size_t nnames;
    char *error;         /* non-NULL: not to be audited, for this reason */
    dev_t dev;
    ino_t ino;
    int identified;      /* dev and ino are known */
};

struct input_list {
    struct input_file *files;
    size_t n, cap;
    size_t dirs;              /* directory arguments walked */
    size_t dirs_without_elf;  /* ... that held no ELF file */
    size_t packages;          /* Debian packages read (tools/deb_input) */
    size_t packages_without_elf;
    int *fds;                 /* [nfds] memory files holding packages' members */
    size_t nfds;
    struct stat *debs;        /* [ndebs] the packages read, by device and inode:
                                 one named twice is read once */
    size_t ndebs;
};

/* A reader of packages, handed in by the front end (tools/deb_input's
 * deb_input_packages), so that expanding arguments needs nothing of it:
 * whether PATH is a package, and its files added to LIST (0, or -1 out of
 * memory; a package that cannot be read is an input not audited). */
struct input_packages {
    int (*is_package)(const char *path);
    int (*expand)(struct input_list *list, const char *path);
};

/* Expand the NARGS ARGS into LIST (initialised here), packages read with
 * PACKAGES (NULL: none is a package).  Returns 0, or -1 with a reason in
 * ERR (out of memory: LIST then freed). */
int inputs_expand(char **args, int nargs, const struct input_packages *packages, struct input_list *list,
                  char *err, size_t errlen);

/* Add the file PATH as an input called NAME (deduplicated by device and
 * inode).  Used by the walk, and by readers of archives (tools/deb_input).
 * Returns 0, or -1 out of memory. */
int inputs_add(struct input_list *list, const char *path, const char *name);

/* Add an input called NAME that is not audited, for REASON.  0, or -1. */
int inputs_add_error(struct input_list *list, const char *name, const char *reason);

/* Keep in LIST only the files of shard K of N (tools/shard), each file
 * counted once by its first name, so that the names of one file go to one
 * shard and a directory's files are shared out.  0, or -1 out of memory
 * (LIST unchanged). */
int inputs_shard(struct input_list *list, unsigned k, unsigned n);

/* Why a run over LIST audited no file, SKIPPED of them skipped (not ELF)
 * and FAILED not audited: "3 directories held no ELF file, 1 file skipped
 * (not ELF)" into BUF. */
void inputs_why_none(const struct input_list *list, size_t skipped, size_t failed, char *buf, size_t len);

void inputs_free(struct input_list *list);

#endif
