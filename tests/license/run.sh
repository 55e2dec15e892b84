#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The licence: LICENSE is Apache-2.0, and every source file of the project
# (C, assembly, scripts, makefiles, manual pages: what git tracks by those
# names) says so in an SPDX line near its top, or at its end for the test
# fixtures and corpus programs whose line numbers the tests' expected
# outputs name; data files (recordings, fuzz seeds, JSON) carry none.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
tag='SPDX-License-Identifier: Apache-2.0'
if grep -q 'Apache License' LICENSE 2> /dev/null && grep -q 'Version 2.0, January 2004' LICENSE; then
    ok "LICENSE: the Apache License, Version 2.0"
else
    not_ok "LICENSE: the Apache License, Version 2.0" "$(head -3 LICENSE 2>&1)"
fi
sources=$(git ls-files -- '*.c' '*.h' '*.cc' '*.S' '*.s' '*.sh' '*.py' '*.mk' '*.map' '*.supp' \
    '*.1' '*.3' Makefile install-deps debian/rules .ci/run 2> /dev/null)
total=$(wc -l <<< "$sources")
missing=$(while read -r f; do
    [ -f "$f" ] && ! { head -3 "$f"; tail -2 "$f"; } | grep -q "$tag" && echo "$f"
done <<< "$sources")
if [ "$total" -gt 100 ] && [ -z "$missing" ]; then
    ok "$total source files carry an SPDX line ($tag)"
else
    not_ok "source files without an SPDX line: $(wc -w <<< "$missing") of $total" "$missing"
fi
finish "license"
