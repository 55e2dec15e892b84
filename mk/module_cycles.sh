#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mk/module_cycles.sh [-C DIR] FOLDER...
#
# Fails when modules include each other in a cycle.  A module is NAME.c and
# NAME.h of one folder (NAME_private.h counts as NAME; a file without its
# pair is a module too, and so is NAME.S); module A reads module B when one
# of A's files has `#include "..."` of one of B's, found as the compiler
# finds it (beside the file, then from the root: -I.).  Includes of files
# outside the FOLDERs (system headers, generated ones) are no edge.
#
# Every strongly connected component of more than one module is a cycle:
# each is printed with its modules and one path of includes round it, file
# and line, and the exit status is 1; else nothing is printed and it is 0.
# The Makefile runs it on the product folders before it compiles anything
# (modules.ok), so that a cycle fails the build; between folders, the
# link-time layer check (layers.ok) keeps the stages in order too.
# tests/modules/run.sh shows it find cycles and stop make.
set -u
if [ "${1-}" = -C ]; then
    cd "${2:?usage: module_cycles.sh [-C DIR] FOLDER...}" || exit 2
    shift 2
fi
[ $# -gt 0 ] || { echo "usage: module_cycles.sh [-C DIR] FOLDER..." >&2; exit 2; }

files=$(for f in "$@"; do
    [ -d "$f" ] && find "$f" -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' \)
done | LC_ALL=C sort)
[ -n "$files" ] || { echo "module_cycles.sh: no C file in: $*" >&2; exit 2; }

# Input: the files, one a line, then a line "--", then grep -Hn's includes.
{ echo "$files"; echo --; echo "$files" | tr '\n' '\0' |
    xargs -0 grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' /dev/null; } |
LC_ALL=C awk '
function module(path) {
    sub(/\.[chS]$/, "", path)
    sub(/_private$/, "", path)
    return path
}
# A path with its "." and ".." parts resolved.
function normal(path,    n, part, out, i, k) {
    n = split(path, part, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (part[i] == "" || part[i] == ".") continue
        if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
        out[++k] = part[i]
    }
    path = out[1]
    for (i = 2; i <= k; i++) path = path "/" out[i]
    return path
}
function add_module(m) {
    if (!(m in seen)) { seen[m] = 1; order[++nmod] = m }
}
function strongconnect(v,    i, w) {
    num[v] = low[v] = ++counter
    stack[++sp] = v; onstack[v] = 1
    for (i = 1; i <= nsucc[v]; i++) {
        w = succ[v, i]
        if (!(w in num)) {
            strongconnect(w)
            if (low[w] < low[v]) low[v] = low[w]
        } else if (onstack[w] && num[w] < low[v]) {
            low[v] = num[w]
        }
    }
    if (low[v] == num[v]) {
        ncomp++
        do {
            w = stack[sp--]; onstack[w] = 0
            comp[w] = ncomp; members[ncomp, ++size[ncomp]] = w
        } while (w != v)
    }
}
# The shortest path of includes from the component c'"'"'s first module back to it.
function print_cycle(c,    i, j, k, t, first, head, tail, queue, from, u, w, path, n) {
    n = size[c]
    for (i = 2; i <= n; i++) {          # members in order, for stable output
        t = members[c, i]
        for (j = i - 1; j >= 1 && members[c, j] > t; j--) members[c, j + 1] = members[c, j]
        members[c, j + 1] = t
    }
    line = members[c, 1]
    for (i = 2; i <= n; i++) line = line " " members[c, i]
    printf "module cycle: %d modules include each other: %s\n", n, line
    first = members[c, 1]
    head = tail = 1; queue[1] = first
    while (head <= tail) {
        u = queue[head++]
        for (i = 1; i <= nsucc[u]; i++) {
            w = succ[u, i]
            if (comp[w] != c) continue
            if (w == first) { head = tail + 1; from[first] = u; break }
            if (!(w in from)) { from[w] = u; queue[++tail] = w }
        }
    }
    k = 0; w = first
    do { path[++k] = from[w]; w = from[w] } while (w != first)
    for (i = k; i >= 1; i--) {
        u = path[i]; w = (i > 1) ? path[i - 1] : first
        printf "  %s\n", witness[u, w]
    }
}
$0 == "--" { includes = 1; next }
!includes { file[$0] = 1; add_module(module($0)); next }
{
    # FILE:LINE:#include "NAME"
    src = $0; sub(/:.*/, "", src)
    rest = substr($0, length(src) + 2)
    lineno = rest; sub(/:.*/, "", lineno)
    text = substr(rest, length(lineno) + 2)
    name = text; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
    dir = src; sub(/\/[^\/]*$/, "", dir)
    if (dir == src) dir = "."
    target = normal(dir "/" name)
    if (!(target in file)) target = normal(name)
    if (!(target in file)) next
    a = module(src); b = module(target)
    if (a == b || (a, b) in witness) next
    witness[a, b] = src ":" lineno ": " text
    succ[a, ++nsucc[a]] = b
}
END {
    for (i = 1; i <= nmod; i++) if (!(order[i] in num)) strongconnect(order[i])
    cycles = 0
    for (c = 1; c <= ncomp; c++) if (size[c] > 1) cycles++
    if (cycles == 0) exit 0
    # Components in the order of their first module.
    for (i = 1; i <= nmod; i++) {
        c = comp[order[i]]
        if (size[c] > 1 && !(c in printed)) { printed[c] = 1; print_cycle(c) }
    }
    printf "%d module cycle%s: a module may not read, through its includes, a module that reads it\n", \
        cycles, (cycles > 1 ? "s" : "")
    exit 1
}'
