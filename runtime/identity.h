/* SPDX-License-Identifier: Apache-2.0 */
/*
 * identity: which build of an object an eh_elf was compiled from — the
 * runtime's view of object/identity.h, whose model and byte readers are
 * header-only and pure (the runtime links only libc and libdl; it never
 * calls object_identity, the libelf half compiled into the tools).
 */
#ifndef DWUNWIND_IDENTITY_H
#define DWUNWIND_IDENTITY_H

#include "object/identity.h"

#endif
