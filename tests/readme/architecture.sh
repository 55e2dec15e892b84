#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# docs/architecture.md stays the design in the repository:
#   - its layout table (the "## Layout" section) has a row for every module
#     of the product folders (kit/, the Makefile's STAGES, and runtime/), and no
#     row for a module that is gone: a module is NAME.c and NAME.h
#     (NAME_private.h counts as NAME), or either alone, or NAME.S; its row
#     is | `FOLDER/NAME` | one line |, at most MAX_ROW characters;
#   - no file of the tree (what git tracks, but this script) cites a design
#     outside it: DESIGN.md, ../shared;
#   - README.md points at it, and every link of README.md and docs/*.md to
#     a file of the tree leads to one.
#   tests/readme/architecture.sh        (run by tests/readme/run.sh)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. tests/lib.sh
doc=docs/architecture.md
self=tests/readme/architecture.sh
MAX_ROW=160

folders="kit $(sed -n 's/^STAGES := //p' Makefile) runtime"
if [ "$(wc -w <<< "$folders")" -lt 5 ]; then
    not_ok "the product folders: the Makefile's STAGES, and runtime/" "found: $folders"
fi

# The modules on disk, FOLDER/NAME, one a line.
modules=$(for f in $folders; do
    [ -d "$f" ] && find "$f" -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' \)
done | sed -E 's/\.(c|h|S)$//; s/_private$//' | LC_ALL=C sort -u)

# The layout table's rows of product folders, FOLDER/NAME, one a line.
layout=$(awk '/^## /{ inside = ($0 == "## Layout") } inside && /^\| `/' "$doc" 2> /dev/null)
rows=$(sed -nE 's/^\| `([a-z0-9_]+\/[a-z0-9_/]*[a-z0-9_])` \|.*/\1/p' <<< "$layout" |
    while read -r r; do
        for f in $folders; do [ "${r%%/*}" = "$f" ] && echo "$r"; done
    done)

if [ -z "$modules" ] || [ "$(wc -l <<< "$modules")" -lt 100 ]; then
    not_ok "the product folders hold the modules" "$(wc -l <<< "$modules") found in: $folders"
fi
missing=$(LC_ALL=C comm -23 <(echo "$modules") <(LC_ALL=C sort -u <<< "$rows"))
if [ -n "$rows" ] && [ -z "$missing" ]; then
    ok "$doc: a layout row for each of the $(wc -l <<< "$modules") modules of $folders"
else
    not_ok "$doc: a layout row for every module of the product folders" \
        "no row for: $(echo $missing)"
fi
stale=$(LC_ALL=C comm -13 <(echo "$modules") <(LC_ALL=C sort -u <<< "$rows"))
twice=$(LC_ALL=C sort <<< "$rows" | uniq -d)
if [ -z "$stale" ] && [ -z "$twice" ]; then
    ok "$doc: each layout row names one module of the tree, once"
else
    not_ok "$doc: each layout row names one module of the tree, once" \
        "rows of no module: $(echo $stale)${twice:+; rows twice: $(echo $twice)}"
fi
long=$(awk -v max=$MAX_ROW 'length > max { print "  " length ": " substr($0, 1, 60) "..." }' <<< "$layout")
if [ -z "$long" ]; then
    ok "$doc: each layout row is one line of at most $MAX_ROW characters"
else
    not_ok "$doc: each layout row is one line of at most $MAX_ROW characters" "$long"
fi

# Citations of a design outside the tree.
pattern='DESIGN\.md|\.\./shared([^A-Za-z0-9_.-]|$)'
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    cites=$(git grep -n -I -E "$pattern" -- . ":(exclude)$self")
else
    cites=$(grep -rnI -E "$pattern" --exclude-dir=.git --exclude-dir='build*' . | grep -v "^\./$self:")
fi
if [ -z "$cites" ]; then
    ok "no file of the tree cites DESIGN.md or ../shared"
else
    not_ok "no file of the tree cites DESIGN.md or ../shared" "$cites"
fi

# Links.
if grep -q '](docs/architecture\.md)' README.md; then
    ok "README.md links $doc"
else
    not_ok "README.md links $doc"
fi
broken=$(for md in README.md docs/*.md; do
    dir=$(dirname "$md")
    grep -oE '\]\([^) ]+\)' "$md" | sed -E 's/^\]\(//; s/\)$//; s/#.*//' |
        grep -vE '^($|[a-z]+:)' | while read -r target; do
            [ -e "$dir/$target" ] || echo "$md: $target"
        done
done)
if [ -z "$broken" ]; then
    ok "every link of README.md and docs/*.md to a file of the tree leads to one"
else
    not_ok "every link of README.md and docs/*.md to a file of the tree leads to one" "$broken"
fi
finish "architecture"
