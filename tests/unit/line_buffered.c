/*
 * line_buffered: linked into every cmocka test binary, so that its standard
 * output is written a line at a time, as its standard error is.  cmocka
 * prints a failed assertion's message on stderr and the test's name on
 * stdout: read through a pipe (tests/run-unit.sh), each message then stays
 * between its test's "[ RUN ]" and "[ FAILED ]" lines.
 */
#include <stdio.h>

__attribute__((constructor)) static void line_buffered_stdout(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
}
/* SPDX-License-Identifier: Apache-2.0 */
