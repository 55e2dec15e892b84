/* SPDX-License-Identifier: Apache-2.0 */
/*
 * identity: an opened ELF file's identity, read with libelf.
 *
 * The model (struct dwu_identity) and its byte readers are the runtime's
 * (runtime/identity.h: header-only and pure, so that the runtime computes
 * a build's identity exactly as dwcompile writes it); this is their use on
 * an elf_file, compiled into the tools only.  Nothing here owns memory: an
 * identity is a value.
 */
#ifndef DWCHECK_OBJECT_IDENTITY_H
#define DWCHECK_OBJECT_IDENTITY_H

#include <stddef.h>

#include "runtime/identity.h"

struct elf_file;

/*
 * The identity of the opened file EF: its build-id, else the hash of its
 * .eh_frame_hdr.  Returns 0, or -1 with a reason in ERR when it has
 * neither (the runtime could not find its tables, nor tell its builds
 * apart).
 */
int identity_of_file(struct elf_file *ef, struct dwu_identity *id, char *err, size_t errlen);

#endif
