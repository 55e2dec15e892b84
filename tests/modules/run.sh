#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The build's check that no modules include each other in a cycle
# (mk/module_cycles.sh, the Makefile's modules.ok): it passes on the tree,
# finds cycles in small trees made here (two modules, a private header, a
# path from the root, three modules round a folder), names the files and
# lines of one path round each, and stops `make` before it compiles anything.
#   tests/modules/run.sh BUILD        (make check-modules)
set -u
build=${1:?usage: run.sh BUILD}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
. tests/lib.sh
check=$root/mk/module_cycles.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/dwcheck-modules.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

folders="$(sed -n 's/^STAGES := //p' Makefile) runtime compat"
out=$("$check" $folders 2>&1)
if [ $? -eq 0 ] && [ -z "$out" ]; then
    ok "no module cycle in $folders"
else
    not_ok "no module cycle in $folders" "$out"
fi

# tree NAME FILE=INCLUDES...: a tree of empty modules, each FILE including
# the comma-separated INCLUDES.
tree() {
    local dir=$work/$1 spec f inc
    shift
    rm -rf "$dir" && mkdir -p "$dir"
    for spec in "$@"; do
        f=${spec%%=*}
        mkdir -p "$dir/$(dirname "$f")"
        : > "$dir/$f"
        [ "$spec" = "$f" ] && continue
        for inc in $(tr ',' ' ' <<< "${spec#*=}"); do
            printf '#include "%s"\n' "$inc" >> "$dir/$f"
        done
    done
}
# expect NAME STATUS PATTERN... : module_cycles.sh's status on tree NAME, and
# lines its output must hold.
expect() {
    local name=$1 status=$2 got pattern missing=
    shift 2
    out=$("$check" -C "$work/$name" a b 2>&1)
    got=$?
    for pattern in "$@"; do grep -qxF -- "$pattern" <<< "$out" || missing="$missing$pattern"$'\n'; done
    if [ "$got" -eq "$status" ] && [ -z "$missing" ]; then
        ok "$name: status $status${1:+, one path round each cycle, file and line}"
    else
        not_ok "$name: status $status and the lines expected" \
            "status $got; missing: ${missing:-none}; output:"$'\n'"$out"
    fi
}

tree dag a/x.c=x.h,y.h a/x.h=y.h a/y.c=y.h a/y.h b/z.c=a/x.h,z.h b/z.h=a/y.h
expect dag 0
tree pair a/x.c=x.h,y.h a/x.h a/y.c=y.h a/y.h=x.h a/x_private.h=y.h
expect pair 1 \
    "module cycle: 2 modules include each other: a/x a/y" \
    '  a/x.c:2: #include "y.h"' \
    '  a/y.h:1: #include "x.h"' \
    "1 module cycle: a module may not read, through its includes, a module that reads it"
tree private a/x.c=x_private.h a/x_private.h=y.h a/x.h a/y.c=x.h a/y.h
expect private 1 \
    "module cycle: 2 modules include each other: a/x a/y" \
    '  a/x_private.h:1: #include "y.h"' \
    '  a/y.c:1: #include "x.h"'
tree root a/x.c=b/z.h a/x.h b/z.c=../a/x.h b/z.h
expect root 1 \
    "module cycle: 2 modules include each other: a/x b/z" \
    '  a/x.c:1: #include "b/z.h"' \
    '  b/z.c:1: #include "../a/x.h"'
tree ring a/x.c=y.h a/x.h a/y.c=z.h a/y.h a/z.h=x.h a/w.c=x.h b/v.c=b/u.h b/u.h=v.h b/v.h
expect ring 1 \
    "module cycle: 3 modules include each other: a/x a/y a/z" \
    '  a/x.c:1: #include "y.h"' \
    '  a/y.c:1: #include "z.h"' \
    '  a/z.h:1: #include "x.h"' \
    "module cycle: 2 modules include each other: b/u b/v" \
    "2 module cycles: a module may not read, through its includes, a module that reads it"

# make: the tree's sources with one cycle added stop at modules.ok.
copy=$work/make
mkdir -p "$copy" && cp -r Makefile install-deps mk corpus $folders "$copy"/ || exit 1
echo '#include "synth/synthesize.h"' >> "$copy/synth/ir.h"
out=$(make -C "$copy" --no-print-directory -j2 BUILD="$work/make-build" all 2>&1)
status=$?
if [ $status -ne 0 ] && grep -qF 'synth/ir.h:' <<< "$out" && grep -q 'include each other' <<< "$out" &&
    [ ! -e "$work/make-build/stage/modules.ok" ] && [ ! -d "$work/make-build/obj" ]; then
    ok "make fails on a cycle added to synth/ir.h, names the file, compiles nothing"
else
    not_ok "make fails on a cycle added to synth/ir.h, names the file, compiles nothing" \
        "status $status:"$'\n'"$out"
fi
finish "modules"
