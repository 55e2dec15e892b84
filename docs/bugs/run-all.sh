#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run every */reproduce.sh next to this script, one after the other.
#
#   sh run-all.sh        print each reproduction's verdict
#   sh run-all.sh -v     print each reproduction's whole output
#
# Exit 0 only if every reproduction shows its bug (wrong backtraces inside the
# faulty range, right ones outside); 1 if one does not; 77 if none failed but
# one could not run (a needed package is missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
verbose=no
[ "${1:-}" = -v ] && verbose=yes

out=$(mktemp "${TMPDIR:-/tmp}/run-all.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT

failed=0 skipped=0 passed=0
summary=
start=$(date +%s)
for script in "$here"/*/reproduce.sh; do
    name=$(basename "$(dirname "$script")")
    t0=$(date +%s)
    sh "$script" >"$out" 2>&1
    rc=$?
    t=$(($(date +%s) - t0))
    echo "=== $name (exit $rc, ${t}s)"
    if [ $verbose = yes ] || [ $rc -ne 0 ]; then
        cat "$out"
    else
        sed -n '/^== verdict/,$p' "$out"
    fi
    case $rc in
    0) passed=$((passed + 1)); st=reproduced ;;
    77) skipped=$((skipped + 1)); st="skipped ($(grep -m1 '^SKIP' "$out"))" ;;
    *) failed=$((failed + 1)); st="NOT reproduced (exit $rc)" ;;
    esac
    summary="$summary
  $name: $st"
    echo
done
echo "=== summary ($(($(date +%s) - start))s)$summary"
echo "  reproduced $passed, not reproduced $failed, skipped $skipped"
[ $failed -gt 0 ] && exit 1
[ $skipped -gt 0 ] && exit 77
[ $passed -gt 0 ] || exit 1
exit 0
