#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# libgcc's __register_frame family in the drop-in libunwind.so.8
# (compat/registered_frames.c): code made at run time, as a JIT makes it,
# unwinds once its .eh_frame is registered, with libgcc_s and with the
# drop-in preloaded alike.
#   1. the exports: the nine names with libgcc_s.so.1's versions;
#   2. jit.cc (g++, and clang++ when installed), each case's output with
#      the drop-in preloaded is libgcc's, line for line, and says what it
#      should: _Unwind_Backtrace from a callback crosses the JIT frame to
#      its callers; a C++ exception thrown above the JIT frame is caught
#      below it (a destructor between runs); _Unwind_Find_FDE gives the
#      FDE and the function, and nothing after __deregister_frame;
#      pthread_exit above the JIT frame runs the destructor below it
#      (glibc's forced unwind is libgcc_s's, whose _Unwind_Find_FDE calls
#      bind to the drop-in); __register_frame_info and _table give the
#      caller's object back at deregistration; one FDE registered alone;
#      a JIT frame's personality routine (its CIE's, direct or through a
#      word) called in both phases with the FDE's LSDA and region start;
#      the same code described anew between two throws (the second sees
#      the new FDE);
#   3. LD_DEBUG=bindings: the program's registrations bound to the
#      drop-in, and libgcc_s's own _Unwind_Find_FDE too;
#   4. signal_walk.c: walks from a signal handler find the JIT frame's
#      registered procedure and go on past it, while another thread maps,
#      registers, deregisters and unmaps JIT code (not under the
#      sanitizers: their runtime is not async-signal-safe); grace.c:
#      a deregistration does not return while a search reads the section;
#   5. each fails without its mechanism: a mutated drop-in per mechanism.
#   tests/register_frame/run.sh BUILD     (COMPAT_SRCS: the drop-in's C sources)
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib.sh"
cd "$root" || exit 2
build=$(cd "$build" && pwd)
work=$build/tests/register_frame
rm -rf "$work" && mkdir -p "$work/bin" "$work/out" "$work/mutant" || exit 2
. "$here/../dropin_lib.sh"

# ---- 1. the exports -------------------------------------------------------------------
want=$(gcc_versions '^__(de)?register_frame' "$libgcc")
got=$(gcc_versions '^__(de)?register_frame' "$dropin")
[ "$(wc -l <<< "$want")" -eq 9 ] && [ "$got" = "$want" ] &&
    ok "the drop-in exports libgcc_s's $(wc -l <<< "$want") __register_frame names with its versions" ||
    not_ok "the __register_frame names and versions: libgcc_s's against the drop-in's" "$(diff <(echo "$want") <(echo "$got"))"

# ---- 2. the programs ---------------------------------------------------------------------
compilers=(g++)
command -v clang++ > /dev/null && compilers+=(clang++)
for cxx in "${compilers[@]}"; do
    step "$cxx" -O2 -g -Wall -Wextra -Werror -pthread -o "$work/bin/jit.$cxx" "$here/jit.cc" ||
        { not_ok "building jit.cc with $cxx" "$(tail -5 "$log")"; finish register-frame; }
done
step cc -std=gnu11 -O2 -g -Wall -Wextra -Werror $san -o "$work/bin/signal_walk" "$here/signal_walk.c" "$dropin" -lpthread ||
    { not_ok "building signal_walk.c" "$(tail -5 "$log")"; finish register-frame; }
# grace.c against the registry's object file OBJ, into OUT.
build_grace() { step cc -std=gnu11 -O2 -g -Wall -Wextra -Werror $san -I. -o "$2" "$here/grace.c" "$1" "$build/lib/libdwunwind.a" -lpthread; }
build_grace "$build/pic/compat/registered_frames.o" "$work/bin/grace" ||
    { not_ok "building grace.c" "$(tail -5 "$log")"; finish register-frame; }

# What each case must say (a line of its output), with libgcc as with the drop-in.
declare -A says=(
    [backtrace]='^registered: jit through_jit print_backtrace$'
    [throw]='^caught: thrown above the JIT frame$'
    [find]='^registered: _Unwind_Find_FDE: the FDE, function at the code$'
    [deregister]='^deregistered: _Unwind_Find_FDE: none$'
    [exit]="^destructor of the exiting thread's frame below the JIT frame$"
    [info]='^__deregister_frame_info: the object$'
    [table]='^table deregistered: _Unwind_Find_FDE: none$'
    [single]='^one FDE registered: _Unwind_Find_FDE: the FDE, function at the code$'
    [personality]="^JIT frame's personality: version 1, cleanup phase, LSDA the FDE's, region start the code$"
    [personality-indirect]="^JIT frame's personality: version 1, cleanup phase, LSDA the FDE's, region start the code$"
    [replaced]="^JIT frame's personality: version 1, cleanup phase, LSDA the FDE's, region start the code$"
)
cases=(backtrace throw find deregister exit info table single personality personality-indirect replaced)
# run NAME PROGRAM ARGS...: output and exit status in out/NAME (the
# shell's word of a program killed by a signal, a mutant's abort, not on
# the terminal).
run() {
    local name=$1; shift
    { "$@" > "$work/out/$name" 2>&1; echo "exit $?" >> "$work/out/$name"; } 2> /dev/null
}
# same_as_libgcc LIB CXX CASE: the case's output with LIB preloaded is
# libgcc's, which says what it should and exits 0.
same_as_libgcc() {
    run "$3.$2.libgcc" "$work/bin/jit.$2" "$3"
    LD_PRELOAD="$(preloaded "$1")" run "$3.$2.dropin" "$work/bin/jit.$2" "$3"
    diff "$work/out/$3.$2.libgcc" "$work/out/$3.$2.dropin" > "$work/out/$3.$2.diff" &&
        grep -q "${says[$3]}" "$work/out/$3.$2.libgcc" && grep -qx 'exit 0' "$work/out/$3.$2.libgcc"
}
for cxx in "${compilers[@]}"; do
    for c in "${cases[@]}"; do
        if same_as_libgcc "$dropin" "$cxx" "$c"; then
            ok "$cxx, $c: as with libgcc ($(grep -c . "$work/out/$c.$cxx.libgcc") lines, \"$(grep "${says[$c]}" "$work/out/$c.$cxx.libgcc")\")"
        else
            not_ok "$cxx, $c: the drop-in's output differs from libgcc's, or says not what it should" \
                "$(head -12 "$work/out/$c.$cxx.diff"; echo "-- libgcc:"; head -8 "$work/out/$c.$cxx.libgcc")"
        fi
    done
done

# ---- 3. the routing ---------------------------------------------------------------------
bindings=$(LD_DEBUG=bindings LD_PRELOAD="$preload" "$work/bin/jit.g++" "${cases[@]}" 2>&1 >/dev/null |
    sed -n 's/.*binding file \([^ ]*\) .* to \([^ ]*\) .*symbol `\(__[a-z_]*frame[a-z_]*\|_Unwind_Find_FDE\)'"'"'.*/\1 \2 \3/p')
missing=
for f in __register_frame __deregister_frame __register_frame_info __deregister_frame_info __register_frame_info_table; do
    grep -q "^$work/bin/jit.g++ $dropin $f\$" <<< "$bindings" || missing+="$f "
done
grep -q "^$libgcc $dropin _Unwind_Find_FDE\$" <<< "$bindings" || missing+="libgcc_s's _Unwind_Find_FDE "
to_libgcc=$(awk -v g="$libgcc" '$2 == g { print $1, $3 }' <<< "$bindings")
[ -z "$missing" ] && [ -z "$to_libgcc" ] &&
    ok "LD_DEBUG=bindings: the registrations bound to the drop-in, and libgcc_s's own _Unwind_Find_FDE (its forced unwinds search them)" ||
    not_ok "the bindings: not to the drop-in: ${missing:-none}; to libgcc_s: ${to_libgcc:-none}" "$bindings"

# ---- 4. from a signal handler --------------------------------------------------------------
if [ -n "$san" ]; then
    ok "signal_walk: skipped under the sanitizers (their runtime is not async-signal-safe)"
else
    out=$(LD_LIBRARY_PATH=$build/lib/dwunwind timeout 120 "$work/bin/signal_walk" 2000 2>&1) &&
        ok "signal_walk: $out" || not_ok "signal_walk: every walk from the handler finds the registered JIT frame" "$out"
fi

out=$(timeout 60 "$work/bin/grace" 2>&1) &&
    ok "grace: $out" || not_ok "grace: deregistration waits for the search that reads the section" "$out"

# ---- 5. mutants --------------------------------------------------------------------------
# Each: a drop-in with one sed expression applied to compat/FILE
# (mutant_build); CHECK must then fail.
cases_differ() {   # every case named differs from libgcc's with the mutant
    local c
    for c in "$@"; do
        same_as_libgcc "$work/mutant/libunwind.so.8" g++ "$c" && return 1
    done
    return 0
}
grace_fails() { build_grace "$work/mutant/obj/registered_frames.o" "$work/mutant/grace" && ! timeout 60 "$work/mutant/grace" > /dev/null 2>&1; }
signal_walk_fails() { ! LD_LIBRARY_PATH=$work/mutant timeout 120 "$work/bin/signal_walk" 500 > /dev/null 2>&1; }
mutants=(
    "registered_frames.c@s/^    register_frames(begin, NULL, 0);/    (void)begin;/@cases_differ backtrace throw find exit@__register_frame's registration"
    "registered_frames.c@s/^    register_frames(begin, NULL, 0);/    (void)begin;/@signal_walk_fails@__register_frame's registration, from a signal handler"
    "registered_frames.c@s/int single = e.kind == FRAME_ENTRY_FDE;/int single = 0;/@cases_differ single@an FDE registered alone"
    "registered_frames.c@s/^    deregister_frames(begin);/    (void)begin;/@cases_differ deregister@__deregister_frame's deregistration"
    "registered_frames.c@s/^            group = s->group;/            group = s->group; s->object = NULL;/@cases_differ info table@the caller's object given back"
    "registered_frames.c@s/^            while (atomic_load(\&s->readers) != 0)/            while (0)/@grace_fails@deregistration's wait for the searches in the section"
    "registered_frames.c@s/out->handler = read_word(out->handler);/(void)0;/@cases_differ personality-indirect@an indirect personality pointer read through its word"
    "unw_proc_info.c@s/pi->handler = r.handler;/pi->handler = 0;/@cases_differ personality personality-indirect@a registered procedure's personality routine"
    "unw_proc_info.c@s/pi->lsda = r.lsda;/pi->lsda = 0;/@cases_differ personality@a registered procedure's LSDA"
    "unw_cursor.c@s/rc = lu_registered_frames_step(pc, in, out, mem);/(void)0;/@cases_differ backtrace throw@the step by a registered FDE"
    "unw_proc_info.c@s/^        return r.fde;/        return 0;/@cases_differ find@_Unwind_Find_FDE's search of the registrations"
    "throw_memo.h@s/return e->pc == pc \&\& e->serial == m->serial;/return e->pc == pc;/@cases_differ replaced@a throw's procedures kept for that throw alone"
    "unw_proc_info.c@s/return registered_proc_info(pc, pi, signal);/return -UNW_ENOINFO;/@signal_walk_fails@unw_get_proc_info's search of the registrations"
)
for m in "${mutants[@]}"; do
    IFS=@ read -r file expr check what <<< "$m"
    if [ -n "$san" ] && [ "$check" = signal_walk_fails ]; then
        continue
    fi
    if ! err=$(mutant_build "$file" "$expr" 2>&1); then
        not_ok "mutant ($what): the build failed" "$err"
    elif $check; then
        ok "without $what (compat/$file mutated), the check fails"
    else
        not_ok "without $what (compat/$file mutated), the check still passes"
    fi
done
finish register-frame
