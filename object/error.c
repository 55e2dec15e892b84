/*
 * error: format a tool error's reason.
 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int error_set(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
