# SPDX-License-Identifier: Apache-2.0
# tests/lib.sh: what the shell test suites share (sourced, not run).
#   ok NAME                 count and print a passed check
#   not_ok NAME [DETAILS]   count and print a failed one, DETAILS indented
#   finish SUITE            print "SUITE: N passed, N failed"; exit 1 on failures
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1"; [ -n "${2:-}" ] && sed 's/^/    /' <<< "$2"; return 0; }
finish() {
    echo "$1: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}
