#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Run the cmocka unit-test binaries given as arguments; print each one's
# summary, every failed test with all it printed (its assertion's whole
# message), and a total.
set -u
pass=0 fail=0 status=0
for t in "$@"; do
    out=$("$t" 2>&1)
    rc=$?
    echo "$out" | grep -oE '\[  (PASSED|FAILED)  \] [0-9]+ test.*' | sed "s|^|$(basename "$t"): |"
    # (cmocka's stdout and stderr may share a line: match anywhere in it)
    p=$(echo "$out" | grep -o '\[  PASSED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
    f=$(echo "$out" | grep -o '\[  FAILED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-0}))
    [ "$rc" -eq 0 ] && continue
    status=1
    [ -z "$f" ] && fail=$((fail + 1))
    # each failed test: the lines from its "[ RUN ]" to its "[ FAILED ]"
    blocks=$(echo "$out" | awk -v bin="$(basename "$t")" '
        /\[ RUN      \] / { n = 0; name = $NF }
        { block[n++] = $0 }
        /\[  FAILED  \] [^0-9]/ && name != "" && $NF == name {
            print "--- " bin ": " name " failed:"
            for (i = 0; i < n; i++) print "    " block[i]
            name = ""; n = 0
        }')
    if [ -n "$blocks" ]; then
        echo "$blocks"
    else
        # no failed test to show: the binary died, or its group set-up failed
        echo "--- $(basename "$t") exited with status $rc; its last lines:"
        echo "$out" | tail -40 | sed "s|^|    |"
    fi
done
echo "unit tests: $pass passed, $fail failed"
exit $status
