/*
 * cli: shared front-end helpers.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

const char *cli_tool_name = "dwcheck";

void cli_error(const char *file, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s: ", cli_tool_name);
    if (file)
        fprintf(stderr, "%s: ", file);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_print_version(void)
{
    printf("%s (dwcheck) %s\n", cli_tool_name, DWCHECK_VERSION);
}

int cli_parse_address(const char *text, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!*text || *text == '-')
        return -1;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}
