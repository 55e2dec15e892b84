/* SPDX-License-Identifier: Apache-2.0 */
/*
 * error: the message channel of tool errors.
 *
 * Functions that can fail take `char *err, size_t errlen`, fill it with the
 * reason (never the file name: the front end prints `tool: FILE: reason`)
 * and return -1.  error_set does the filling.
 */
#ifndef DWCHECK_ERROR_H
#define DWCHECK_ERROR_H

#include <stddef.h>

/* Format the reason into ERR; returns -1 so that `return error_set(...)` reads well. */
int error_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* What a file of st_mode MODE is, for a message refusing one that is not a
 * regular file: "directory", "FIFO", "character device" ... */
const char *error_file_kind(unsigned mode);

#endif
