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
 * Memory: the inputs are read twice, a line at a time, and a line's
 * findings one at a time (report/json_record's reader): the first pass
 * checks each record, keeping its name, place and the line's hash for the
 * sort; the second reads each line again (found unchanged by its hash, or
 * `FILE:LINE: changed while being merged`, the record left out) and hands
 * its findings to the renderings one by one (tools/run_report), so that it
 * holds the line and one finding (a struct finding, 5.8 KB), however many
 * findings a file has: a line of 20,000 findings (9 MB) is merged in about
 * 20 MB, where holding them took 145 MB.  The HTML report, when asked for,
 * keeps a compact copy of every finding (report/html_report.h).
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
