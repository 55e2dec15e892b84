/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli: shared front-end helpers.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int cli_default_jobs(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > CLI_JOBS_MAX ? CLI_JOBS_MAX : (int)cores;
}

int cli_parse_count(const char *option, const char *text, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out)
{
    if (cli_parse_address(text, out) != 0 || *out < lo || *out > hi) {
        cli_error(NULL, "bad %s '%s' (%llu to %llu)", option, text, lo, hi);
        return -1;
    }
    return 0;
}

int cli_parse_jobs(const char *text, int *jobs)
{
    unsigned long long n;
    if (cli_parse_count("--jobs", text, 1, CLI_JOBS_MAX, &n) != 0)
        return -1;
    *jobs = (int)n;
    return 0;
}

void cli_buffer_stdout(void)
{
    static char buffer[1 << 16];
    setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
}

int cli_finish_stdout(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error(NULL, "write error on standard output");
        return EXIT_TROUBLE;
    }
    return status;
}

int cli_pick(const char *option, const char *text, const char *const *names)
{
    size_t n = 0;
    for (; names[n]; n++)
        if (strcmp(text, names[n]) == 0)
            return (int)n;
    char list[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", names[i],
                                i + 2 < n ? ", " : i + 2 == n ? " or " : "");
    cli_error(NULL, "unknown %s '%s' (use %s)", option, text, list);
    return -1;
}

int cli_end_of_options(int c, void (*usage)(FILE *))
{
    if (c == 'V') {
        cli_print_version();
        return EXIT_CLEAN;
    }
    usage(c == 'h' ? stdout : stderr);
    return c == 'h' ? EXIT_CLEAN : EXIT_TROUBLE;
}
