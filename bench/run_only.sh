#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwcheck --run: stepping every instruction (--step-all) against
# --only=FUNC and against the default (the functions the static audit
# leaves in doubt), on corpus programs (gcc -O2), whole runs of each, in
# this run: steps per second of full stepping, and the wall time of full
# stepping over that of --only (which steps the function named and runs the
# rest at full speed), with the share of --only's wall time spent stepping;
# the default's wall time (its audits included) and steps.  ONLY_RUNS (3)
# alternating runs of each, medians.  All must report the same findings
# (none: the corpus is clean).
set -u
build=${1:?usage: run_only.sh BUILD}
. "$(dirname "$0")/median.sh"
dwcheck=$build/bin/dwcheck
runs=${ONLY_RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/run-only-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# PROGRAM FUNCTION: a corpus program and a function it calls often.
cases="switch_tables interpret
setjmp_longjmp thrower"

# one MODE PROGRAM FUNCTION: one run; prints wall seconds, steps, steps/s,
# stepped share, findings (from the JSON report).
one() {
    local mode=$1 prog=$2 func=$3 start end
    local only=(); [ "$mode" = only ] && only=(--only="$func"); [ "$mode" = full ] && only=(--step-all)
    start=$(date +%s%N)
    "$dwcheck" --run --format=json "${only[@]}" -- "$build/corpus/gcc/O2/$prog" > /dev/null 2> "$work/err"
    end=$(date +%s%N)
    grep '^{"run"' "$work/err" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print("%.4f %d %d %.4f %d" % ('"$((end - start))"' / 1e9, r["steps"], r["steps_per_second"], r["stepped_share"], len(r["findings"])))'
}

echo
echo "dwcheck --run, every instruction stepped against --only=FUNC and the default (the audit's), whole runs (median of $runs alternating runs)"
printf '  %-16s %-10s %9s %10s %9s %9s %12s %9s %9s %9s %11s\n' program function "full s" "full steps" "steps/s" "only s" "only steps" \
    "stepped" "full/only" "audit s" "audit steps"
results=$work/results
: > "$results"
while read -r prog func; do
    [ -x "$build/corpus/gcc/O2/$prog" ] || { echo "  $prog: not built (make corpus)"; continue; }
    : > "$work/full" && : > "$work/only" && : > "$work/audit"
    for _ in $(seq "$runs"); do
        one full "$prog" "$func" >> "$work/full"
        one only "$prog" "$func" >> "$work/only"
        one audit "$prog" "$func" >> "$work/audit"
    done
    paste "$work/full" "$work/only" "$work/audit" | awk "$median_awk"' BEGIN { n = 0 } {
            fs[n] = $1; st[n] = $2; sps[n] = $3; os[n] = $6; ost[n] = $7; sh[n] = $9; as[n] = $11; ast[n] = $12
            bad += $5 != $10 || $5 != $15; n++ }
        END {
            f = med(fs, n); o = med(os, n); ratio = o > 0 ? f / o : 0; differ = bad ? "  FINDINGS DIFFER" : ""
            printf "  %-16s %-10s %9.3f %10d %9d %9.3f %12d %8.1f%% %9.1f %9.3f %11d%s\n", prog, fn, f, med(st, n), med(sps, n), o,
                med(ost, n), 100 * med(sh, n), ratio, med(as, n), med(ast, n), differ
            a = med(as, n); print med(sps, n), ratio, (a > 0 ? f / a : 0) >> results
        }' prog="$prog" fn="$func" results="$results"
done <<< "$cases"
awk "$median_awk"' BEGIN { n = 0 } { s[n] = $1; r[n] = $2; d[n++] = $3 }
    END { if (n) printf "  median: %d steps/s stepping every instruction; --only runs the programs %.0f times faster, the default %.1f times\n",
              med(s, n), med(r, n), med(d, n) }' "$results"
