#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# mk/name_prefixes.sh [-C DIR] FOLDER...
#
# Fails when a module exports a name that does not start with the module's
# name.  A module is NAME.c and NAME.h of one folder (NAME_private.h counts
# as NAME); what it exports is what its headers declare at the start of a
# line: each function's prototype and each `extern` variable (a `static`
# definition, a type, a macro and a line in capitals that uses one are no
# export).  The rule (docs/architecture.md, Layout): an exported name
# starts with the module's name or the module's first word (up to its
# first `_`), optionally after its stage's namespace:
#
#   runtime/  dwu_      the library's namespace (runtime/dwunwind.h, the
#                       public API itself, is exempt)
#   synth/    synth_
#   compat/   lu_       the drop-in's own names; a module named unw_NAME is
#                       named NAME by them.  libunwind's and libgcc's ABI
#                       names (unw_*, _U*, _Unwind_*) are exempt.
#
# Names that are an ABI and cannot change are allowed by ALLOW below, each
# with its reason.  Every name that breaks the rule is printed as
# `HEADER:LINE: NAME: not MODULE's`, then a count, and the exit status is 1;
# else nothing is printed and it is 0.  `make check-modules` runs it on the
# product folders, and tests/modules/run.sh shows it fail on a planted name.
set -u
if [ "${1-}" = -C ]; then
    cd "${2:?usage: name_prefixes.sh [-C DIR] FOLDER...}" || exit 2
    shift 2
fi
[ $# -gt 0 ] || { echo "usage: name_prefixes.sh [-C DIR] FOLDER..." >&2; exit 2; }

# HEADER NAME: exports allowed although they break the rule.
#   _ReadULEB, _ReadSLEB: libunwind's ABI, exported by libunwind.so.8.
#   _dwunwind_*: the symbols the drop-in's two libraries share, named in
#   compat/libunwind.map and compat/libunwind-x86_64.map.
ALLOW='compat/unw_api.h _ReadULEB
compat/unw_api.h _ReadSLEB
compat/unw_api.h _dwunwind_lu_local_space
compat/unw_api.h _dwunwind_remote_flush_cache
compat/unw_api.h _dwunwind_remote_get_accessors'

headers=$(for f in "$@"; do
    [ -d "$f" ] && find "$f" -type f -name '*.h'
done | LC_ALL=C sort)
[ -n "$headers" ] || { echo "name_prefixes.sh: no header in: $*" >&2; exit 2; }

echo "$headers" | tr '\n' '\0' | xargs -0 awk -v allow="$ALLOW" '
BEGIN {
    n = split(allow, line, "\n")
    for (i = 1; i <= n; i++) { split(line[i], w, " "); allowed[w[1] " " w[2]] = 1 }
    n = split("void char short int long float double signed unsigned const volatile struct union enum _Bool", w, " ")
    for (i = 1; i <= n; i++) keyword[w[i]] = 1
}
FNR == 1 {
    incomment = 0
    path = FILENAME
    module = path; sub(/.*\//, "", module); sub(/\.h$/, "", module); sub(/_private$/, "", module)
    stage = path; sub(/\/.*/, "", stage)
    exempt = (path == "runtime/dwunwind.h")
    nprefix = 0
    prefix[++nprefix] = module
    first = module; sub(/_.*/, "", first)
    if (first != module) prefix[++nprefix] = first
    # compat: a module named unw_NAME is named NAME by the drop-in'\''s lu_ names.
    if (stage == "compat" && module ~ /^unw_./) {
        rest = substr(module, 5)
        prefix[++nprefix] = rest
        first = rest; sub(/_.*/, "", first)
        if (first != rest) prefix[++nprefix] = first
    }
    namespace = stage == "runtime" ? "dwu_" : stage == "synth" ? "synth_" : stage == "compat" ? "lu_" : ""
}
{
    text = $0
    # Comments out, a comment left open carried to the next line.
    if (incomment) {
        if (!sub(/^([^*]|\*+[^*\/])*\*+\//, "", text)) next
        incomment = 0
    }
    gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", text)
    if (sub(/\/\*.*/, "", text)) incomment = 1
    sub(/\/\/.*/, "", text)
    if (exempt || text !~ /^[A-Za-z_]/) next
    if (text ~ /^(static|typedef|#)/ || text ~ /^extern "C"/) next
    gsub(/__attribute__[ \t]*\(\([^()]*(\([^()]*\)[^()]*)*\)\)/, "", text)
    name = ""
    if (text ~ /^extern[ \t]/) {
        if (match(text, /[A-Za-z_][A-Za-z0-9_]*[ \t]*(\[[^]]*\][ \t]*)*(=.*)?;/)) {
            name = substr(text, RSTART, RLENGTH); sub(/[^A-Za-z0-9_].*/, "", name)
        }
    } else {
        # The first word before a "(" that is no keyword: void (*f(int))(int) is f.
        while (match(text, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
            name = substr(text, RSTART, RLENGTH); sub(/[ \t]*\($/, "", name)
            text = substr(text, RSTART + RLENGTH)
            if (!(name in keyword)) break
            name = ""
        }
    }
    # A macro used (in capitals) or an assertion declares no name.
    if (name == "" || name ~ /^[A-Z0-9_]+$/ || name == "_Static_assert") next
    if (stage == "compat" && name ~ /^(unw_|_U|_Unwind_)/) next
    if ((path " " name) in allowed) next
    bare = name
    if (namespace != "" && index(name, namespace) == 1) bare = substr(name, length(namespace) + 1)
    for (i = 1; i <= nprefix; i++) {
        p = prefix[i]
        if (name == p || bare == p || index(name, p "_") == 1 || index(bare, p "_") == 1) next
    }
    printf "%s:%d: %s: not %s'\''s\n", path, FNR, name, module
    bad++
}
END {
    if (bad) {
        printf "%d exported name%s without %s module'\''s prefix (docs/architecture.md, Layout)\n",
            bad, bad == 1 ? "" : "s", bad == 1 ? "its" : "their"
        exit 1
    }
}' || exit 1
