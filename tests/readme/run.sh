#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The console examples of README.md and docs/*.md (where the README's
# reference went): every `$ command` of a ```console block runs
# with the tools just built first on PATH, in a scratch directory that holds
# the inputs the examples name (the files of tests/readme/ but this script
# and its two checkers), and prints what the file shows; the sentences that
# quote an example's figures are checked against its output.  How many
# examples each file holds is printed, and fewer than before the split
# fails.  How shown and printed lines are compared:
# tests/readme/console_examples.py.  First, tests/readme/architecture.sh:
# docs/architecture.md names every module, and nothing cites a design
# outside the tree.
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$build/bin" && pwd) || exit 1
work=$build/tests/readme
rm -rf "$work" && mkdir -p "$work" || exit 1
for f in "$here"/*; do
    case ${f##*/} in run.sh | console_examples.py | architecture.sh) ;; *) cp "$f" "$work/" ;; esac
done
unset DWUNWIND_PATH
root=$(cd "$here/../.." && pwd)
files=(README.md)
for f in "$root"/docs/*.md; do files+=("docs/${f##*/}"); done
"$here/architecture.sh"
architecture=$?
PATH=$bin:$PATH LC_ALL=C python3 "$here/console_examples.py" "$work" "$root" "${files[@]}"
examples=$?
[ "$architecture" -eq 0 ] && [ "$examples" -eq 0 ]
