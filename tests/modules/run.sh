#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The build's check that no modules include each other in a cycle
# (mk/module_cycles.sh, the Makefile's modules.ok): it passes on the tree,
# finds cycles in small trees made here (two modules, a private header, a
# path from the root, three modules round a folder), names the files and
# lines of one path round each, and stops `make` before it compiles anything.
# Then the check that each module's exports start with its name
# (mk/name_prefixes.sh): it passes on the tree and on a small tree of what
# the rule admits (namespaces, exemptions, what is no export), names each
# export of a small tree that breaks it, and fails `make check-modules` on
# a name planted in the tree.
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

# Names: the tree's exports start with their modules' names.
names=$root/mk/name_prefixes.sh
out=$("$names" $folders kit 2>&1)
if [ $? -eq 0 ] && [ -z "$out" ]; then
    ok "every export in $folders kit starts with its module's name"
else
    not_ok "every export in $folders kit starts with its module's name" "$out"
fi

# headers NAME FILE LINE...: FILE of tree NAME holds the LINEs.
headers() {
    local file=$work/$1/$2
    shift 2
    mkdir -p "$(dirname "$file")"
    printf '%s\n' "$@" > "$file"
}
# expect_names NAME STATUS LINE...: name_prefixes.sh's status on tree NAME,
# and lines its output must hold; with status 0, nothing else.
expect_names() {
    local name=$1 status=$2 got line missing=
    shift 2
    out=$("$names" -C "$work/$name" a runtime synth compat 2>&1)
    got=$?
    for line in "$@"; do grep -qxF -- "$line" <<< "$out" || missing="$missing$line"$'\n'; done
    if [ "$got" -eq "$status" ] && [ -z "$missing" ] && { [ "$status" -ne 0 ] || [ -z "$out" ]; }; then
        ok "names $name: status $status${1:+, each bad export named with its file and line}"
    else
        not_ok "names $name: status $status and the lines expected" \
            "status $got; missing: ${missing:-none}; output:"$'\n'"$out"
    fi
}

rm -rf "$work/names-good" "$work/names-bad"
headers names-good a/widget.h '/* gadget_open(x) is named in a comment */' 'int widget_open(void);' \
    'struct widget *widget(int n);' 'extern int widget_count;' 'static inline int helper(void) { return 0; }' \
    'typedef int (*hook_fn)(int);' 'DECLARE_HOOK(widget_hook)' '_Static_assert(1, "x");' \
    '__attribute__((noreturn)) void widget_abort(void);' 'const char *widget_name(int n);' \
    'void (*widget_handler(int sig))(int);'
headers names-good a/two_words.h 'void two_things(void);'
headers names-good a/store_private.h 'int store_put(int v);'
headers names-good runtime/objects.h 'int dwu_objects_at(int ip);' 'int objects_count(void);'
headers names-good runtime/dwunwind.h 'int dwu_step(void *cursor);'
headers names-good synth/program.h 'int synth_program_open(void);'
headers names-good compat/unw_cursor.h 'int lu_cursor_step(void *c);' 'int unw_step(void *c);' \
    'void _Unwind_Resume(void *e);' 'int _Ux86_64_getcontext(void *uc);'
headers names-good compat/unw_api.h 'unsigned long _ReadULEB(unsigned char **p);'
expect_names names-good 0
headers names-bad a/widget.h 'int gadget_open(void);' 'extern int gadgets;' 'int widgets_count(void);'
headers names-bad a/store_private.h 'char *stock_get(int v);'
headers names-bad runtime/objects.h 'int dwu_object_at(int ip);'
headers names-bad synth/emit_row.h 'void synth_row(void);'
headers names-bad compat/unw_rows.h 'int lu_step(void);' 'unsigned long _ReadULEB(unsigned char **p);'
expect_names names-bad 1 \
    "a/widget.h:1: gadget_open: not widget's" \
    "a/widget.h:2: gadgets: not widget's" \
    "a/widget.h:3: widgets_count: not widget's" \
    "a/store_private.h:1: stock_get: not store's" \
    "runtime/objects.h:1: dwu_object_at: not objects's" \
    "synth/emit_row.h:1: synth_row: not emit_row's" \
    "compat/unw_rows.h:1: lu_step: not unw_rows's" \
    "compat/unw_rows.h:2: _ReadULEB: not unw_rows's" \
    "8 exported names without their module's prefix (docs/architecture.md, Layout)"

# make check-modules: the tree's sources with one bad name added fail it.
copy=$work/names-make
mkdir -p "$copy" && cp -r Makefile install-deps mk corpus $folders kit "$copy"/ || exit 1
echo 'int planted_name(void);' >> "$copy/synth/ir.h"
line=$(wc -l < "$copy/synth/ir.h")
out=$(make -C "$copy" --no-print-directory BUILD="$work/names-build" check-modules 2>&1)
status=$?
if [ $status -ne 0 ] && grep -qxF "synth/ir.h:$line: planted_name: not ir's" <<< "$out"; then
    ok "make check-modules fails on a name planted in synth/ir.h, and names it"
else
    not_ok "make check-modules fails on a name planted in synth/ir.h, and names it" "status $status:"$'\n'"$out"
fi
finish "modules"
