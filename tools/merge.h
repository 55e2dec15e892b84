/* SPDX-License-Identifier: Apache-2.0 */
/*
 * merge: dwcheck --merge, the JSON Lines of earlier runs as one run.
 *
 * A distribution audited in shards (--shard=K/N, each shard's
 * `--format=json` in a file of its own, on as many machines) becomes one
 * result here: every line of every input is read back (report/json_record)
 * and rendered as if one run had audited all the files, in any format
 * dwcheck prints, with the HTML report and the exit status (--fail-on)
 * that run would have.  Records of files that could not be audited, or
 * were skipped, are kept, named on stderr as dwcheck names them.
 *
 * Order: records are rendered sorted by file name (bytewise, as strcmp;
 * the records of one name in the order of the inputs, then of their
 * lines), so the result does not depend on the order of the inputs or
 * which shard took a file; it equals one run's over the names sorted
 * (`LC_ALL=C sort`).  Empty lines are allowed.
 *
 * All input is read and checked before anything is printed: a malformed
 * line, a count of 2^63 or more, or a count whose sum over the inputs (as
 * the summaries add them) would pass 2^64 - 1, is `dwcheck: FILE:LINE:
 * reason` on stderr and the merge prints nothing else (exit status 2).
 *
 * Memory: the inputs are read twice.  The first pass checks each record
 * finding by finding (report/json_record's reader: about the line's
 * length), keeping each record's name and place for the sort; the second
 * renders one record at a time, whole, as the renderings take a result
 * (struct finding: about 3.8 KB a finding, some 12 times its JSON); the
 * HTML report, when asked for, keeps every result (report/html_report).
 */
#ifndef DWCHECK_MERGE_H
#define DWCHECK_MERGE_H

#include "run_report.h"

/*
 * Render the records of the INPUTS (NINPUTS JSON Lines files) in FORMAT,
 * with FAIL_ON (enum severity, -1 never) and HTML_DIR (NULL: none), as
 * run_report does, and RB's baselines (NULL: none).  Returns the exit status.
 */
int merge_run(char **inputs, int ninputs, enum run_format format, int fail_on, const char *html_dir,
              const struct run_baseline *rb);

#endif
