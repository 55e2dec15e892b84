#!/bin/bash
# Run the cmocka unit-test binaries given as arguments; print a total.
set -u
pass=0 fail=0 status=0
for t in "$@"; do
    out=$("$t" 2>&1)
    rc=$?
    echo "$out" | grep -oE '\[  (PASSED|FAILED)  \] [0-9]+ test.*|\[  ERROR   \].*' | sed "s|^|$(basename "$t"): |"
    # (cmocka's stdout and stderr may share a line: match anywhere in it)
    p=$(echo "$out" | grep -o '\[  PASSED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
    f=$(echo "$out" | grep -o '\[  FAILED  \] [0-9]* test' | grep -o '[0-9]*' | tail -1)
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-0}))
    if [ "$rc" -ne 0 ]; then
        status=1
        [ -z "$f" ] && fail=$((fail + 1))
        echo "$out" | tail -20
    fi
done
echo "unit tests: $pass passed, $fail failed"
exit $status
