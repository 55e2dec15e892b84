/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dwsynth_repair: the `dwsynth repair` front end (its options, help and
 * exit statuses); the work is repair/repair_file's.
 */
#ifndef DWCHECK_DWSYNTH_REPAIR_H
#define DWCHECK_DWSYNTH_REPAIR_H

/* dwsynth repair ...: ARGV[0] is "repair".  Returns the exit status. */
int dwsynth_repair_main(int argc, char **argv);

#endif
