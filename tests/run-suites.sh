#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# make check's driver: runs each suite (a make target, check-NAME) in turn,
# every one of them even when one fails, then prints one line per suite
# ("NAME: N passed, M failed") and the whole run's ("check: N passed, M
# failed"), and exits 1 if anything failed.
#   MAKE=make BUILD=build tests/run-suites.sh check-unit check-golden ...
# A suite's checks are the "N passed, M failed" lines its scripts print
# (tests/lib.sh's finish, tests/run-unit.sh), added up; a suite that prints
# none counts as one check, passed when it exits 0.  A suite that exits
# non-zero with no failure counted (a build error, a crash) counts one more
# failure.  Each suite's output is shown as it runs and kept in
# BUILD/check-logs/NAME.log.  A suite still running after SUITE_TIMEOUT
# seconds (default 1500) is stopped, with every process it started, and
# counts as failed: a hang names its suite instead of outlasting CI.
set -u
suite_timeout=${SUITE_TIMEOUT:-1500}
make_cmd=${MAKE:-make}
logs=${BUILD:-build}/check-logs
mkdir -p "$logs"
count_line='^([A-Za-z][A-Za-z -]*: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$'
summary=() total_pass=0 total_fail=0 failed_suites=()
for target in "$@"; do
    name=${target#check-}
    log=$logs/$name.log
    start=$SECONDS
    timeout -k 30 "$suite_timeout" $make_cmd --no-print-directory "$target" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        echo "$name: stopped after $suite_timeout s (SUITE_TIMEOUT)" | tee -a "$log"
    fi
    read -r pass fail counted < <(grep -E "$count_line" "$log" |
        sed -E 's/^([A-Za-z][A-Za-z -]*: )?([0-9]+) passed, ([0-9]+) failed.*$/\2 \3/' |
        awk '{ p += $1; f += $2; n++ } END { print p + 0, f + 0, n + 0 }')
    if [ "$counted" -eq 0 ]; then
        if [ "$rc" -eq 0 ]; then pass=1; else fail=1; fi
    elif [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
        fail=1
    fi
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail))
    [ "$fail" -gt 0 ] && failed_suites+=("$name")
    summary+=("$(printf '%-10s %d passed, %d failed (%d s)' "$name:" "$pass" "$fail" $((SECONDS - start)))")
done
echo
echo "=== make check: one line per suite (logs in $logs/)"
printf '%s\n' "${summary[@]}"
[ "${#failed_suites[@]}" -gt 0 ] && echo "failed suites: ${failed_suites[*]}"
echo "check: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
