/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli: what every dwcheck front end shares.
 *
 * Exit statuses, every tool's: 0 clean, 1 findings, 2 usage or I/O error.
 * Tool errors read `tool: FILE: reason` on stderr and never mix with the
 * tool's output on stdout.
 */
#ifndef DWCHECK_CLI_H
#define DWCHECK_CLI_H

#include <stdarg.h>
#include <stdio.h>

#define EXIT_CLEAN 0
#define EXIT_FINDINGS 1
#define EXIT_TROUBLE 2

#define DWCHECK_VERSION "0.3.0"

/* Set once by main() from argv[0]'s base name. */
extern const char *cli_tool_name;

/* `tool: FILE: reason` (FILE may be NULL: `tool: reason`). */
void cli_error(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* `tool --version` output. */
void cli_print_version(void);

/* Parse an address: 0x-prefixed hex, or decimal.  Returns 0, or -1. */
int cli_parse_address(const char *text, unsigned long long *out);

/*
 * The index of TEXT in NAMES (NULL-terminated), for options that take one
 * word of a list (--format=json).  When TEXT is none of them, prints
 * `tool: unknown OPTION 'TEXT' (use a, b or c)` and returns -1.
 */
int cli_pick(const char *option, const char *text, const char *const *names);

/* The most worker processes -j asks for, and the default's bound. */
#define CLI_JOBS_MAX 256

/* The default for -j: the number of online cores, at least 1 and at most
 * CLI_JOBS_MAX (a machine with more cores gets as many workers as -j allows). */
int cli_default_jobs(void);

/* Parse -j's argument (1 to CLI_JOBS_MAX) into *JOBS; on error print it and
 * return -1. */
int cli_parse_jobs(const char *text, int *jobs);

/* Parse OPTION's count TEXT, LO to HI, into *OUT; on error print it
 * (`tool: bad OPTION 'TEXT' (LO to HI)`) and return -1. */
int cli_parse_count(const char *option, const char *text, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out);

/* The end of every front end's option switch, for getopt's C: --help
 * ('h': USAGE on stdout, EXIT_CLEAN), --version ('V', where the tool has it:
 * the version, EXIT_CLEAN), anything else (USAGE on stderr, EXIT_TROUBLE).
 * Returns the status to exit with. */
int cli_end_of_options(int c, void (*usage)(FILE *));

/* Give stdout a large buffer (tools print a lot, line by line). */
void cli_buffer_stdout(void);

/* Flush stdout; a write error (full disk, closed pipe) is reported and turns
 * STATUS into EXIT_TROUBLE.  Returns the status to exit with. */
int cli_finish_stdout(int status);

#endif
