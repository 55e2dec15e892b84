#!/bin/bash
# Run the cmocka unit-test binaries given as arguments; print a total.
set -u
pass=0 fail=0 status=0
for t in "$@"; do
    out=$("$t" 2>&1)
    rc=$?
    echo "$out" | grep -E '^\[  (PASSED|FAILED)  \]|^\[  FAILED  \]|\[  ERROR   \]' | sed "s|^|$(basename "$t"): |"
    p=$(echo "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    f=$(echo "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
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
