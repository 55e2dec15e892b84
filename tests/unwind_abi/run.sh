#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# libgcc's _Unwind_* interface in the drop-in libunwind.so.8
# (compat/unwind_abi.c): C++ programs run with it in LD_PRELOAD print what
# they print with libgcc_s's, line for line, and exit the same.
#   1. the exports: the _Unwind_* names with libgcc_s.so.1's versions;
#   2. exceptions.cc (g++, and clang++ when installed): a throw caught 6
#      frames up with destructors in order, `throw;`, the personality's
#      calls in each phase (_UA_HANDLER_FRAME), nested try/catch,
#      catch(...), through C frames built with -fexceptions, an uncaught
#      exception (std::terminate: SIGABRT), _Unwind_Backtrace's frames,
#      _Unwind_ForcedUnwind with a stop function as glibc's (destructors
#      and C cleanups run), _Unwind_Find_FDE, pthread_exit (glibc's own
#      unwinder: libgcc_s's, whose personality calls reach the drop-in),
#      pthread_cancel (destructors and pthread_cleanup_push's cleanups),
#      glibc's backtrace() (libunwind's under the preload);
#      thrown by value and type, a throw inside a handler,
#      std::exception_ptr, 8 threads throwing at once, a throw from a
#      dlopen'ed library, a foreign exception caught by catch(...), a throw
#      through noexcept (std::terminate);
#      callee-saved registers intact at the catch (tests/repair/thrower.cc);
#   3. the routing happened: LD_DEBUG=bindings shows each call bound to the
#      drop-in (lazy binding: bound when called), glibc's backtrace() too,
#      and glibc's forced unwind bound to libgcc_s.so.1 (dlsym on its
#      handle);
#   4. the validated table: a C++ exception through a C library built
#      without unwind tables terminates the program with libgcc, and is
#      caught with the drop-in once dwcompile --repair's eh_elf of the
#      library lies beside it; no binary rewritten;
#   5. each fails without its mechanism: a mutated drop-in per mechanism.
#   tests/unwind_abi/run.sh BUILD     (COMPAT_SRCS: the drop-in's C sources)
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib.sh"
cd "$root" || exit 2
build=$(cd "$build" && pwd)
work=$build/tests/unwind_abi
rm -rf "$work" && mkdir -p "$work/bin" "$work/out" "$work/repair" "$work/mutant/obj" || exit 2
. "$here/../dropin_lib.sh"

# ---- 1. the exports ---------------------------------------------------------------
want=$(gcc_versions '^_Unwind_' "$libgcc")
got=$(gcc_versions '^_Unwind_' "$dropin")
[ -n "$want" ] && [ "$got" = "$want" ] &&
    ok "the drop-in exports libgcc_s's $(wc -l <<< "$want") _Unwind_* names with its versions" ||
    not_ok "the _Unwind_* names and versions: libgcc_s's against the drop-in's" "$(diff <(echo "$want") <(echo "$got"))"

# ---- 2. the programs ----------------------------------------------------------------
compilers=(g++)
command -v clang++ > /dev/null && compilers+=(clang++)
step cc -O2 -fexceptions -c -o "$work/c_frames.o" "$here/c_frames.c" || { not_ok "building c_frames.c" "$(tail -5 "$log")"; finish unwind-abi; }
for cxx in "${compilers[@]}"; do
    step "$cxx" -O2 -g -Wall -Wextra -Werror -pthread -o "$work/bin/exceptions.$cxx" "$here/exceptions.cc" \
        "$work/c_frames.o" -ldl ||
        { not_ok "building exceptions.cc with $cxx" "$(tail -5 "$log")"; finish unwind-abi; }
done
# The library the dlopen case loads, beside the programs.
step c++ -O2 -fPIC -shared -o "$work/bin/libthrows.so" "$here/library_throw.cc" ||
    { not_ok "building library_throw.cc" "$(tail -5 "$log")"; finish unwind-abi; }
# thrower.cc against a C library with tables: the registers at the catch.
step cc -O2 -fPIC -shared -o "$work/bin/libnotables.so" tests/repair/notables.c &&
step c++ -O2 -o "$work/bin/thrower" tests/repair/thrower.cc -L"$work/bin" -lnotables -Wl,-rpath,'$ORIGIN' ||
    { not_ok "building thrower.cc" "$(tail -5 "$log")"; finish unwind-abi; }

cases=(throw rethrow phases nested cframes uncaught backtrace forced accessors thread cancel types inhandler eptr
       threads dlopen foreign noexcept)
# glibc's backtrace(): under the sanitizers their runtime, preloaded first,
# intercepts it (its own frame added), so only without them.
[ -z "$san" ] && cases+=(execinfo)
# run NAME PROGRAM ARGS...: output and exit status in out/NAME.
run() {
    local name=$1; shift
    "$@" > "$work/out/$name" 2>&1
    echo "exit $?" >> "$work/out/$name"
}
# same_as_libgcc LIB CXX CASE: the case's output with LIB preloaded is libgcc's.
same_as_libgcc() {
    run "$3.$2.libgcc" "$work/bin/exceptions.$2" "$3"
    LD_PRELOAD="$(preloaded "$1")" run "$3.$2.dropin" "$work/bin/exceptions.$2" "$3"
    diff "$work/out/$3.$2.libgcc" "$work/out/$3.$2.dropin" > "$work/out/$3.$2.diff" &&
        grep -qv '^exit\|^==' "$work/out/$3.$2.libgcc"
}
for cxx in "${compilers[@]}"; do
    for c in "${cases[@]}"; do
        if same_as_libgcc "$dropin" "$cxx" "$c"; then
            ok "$cxx, $c: as with libgcc ($(grep -v '^==' "$work/out/$c.$cxx.libgcc" | wc -l) lines, $(tail -1 "$work/out/$c.$cxx.libgcc"))"
        else
            not_ok "$cxx, $c: the drop-in's output differs from libgcc's" "$(head -12 "$work/out/$c.$cxx.diff")"
        fi
    done
done
grep -q '^terminate called' "$work/out/uncaught.g++.dropin" && grep -q '^exit 134' "$work/out/uncaught.g++.dropin" &&
    ok "uncaught: std::terminate, SIGABRT (exit 134), as with libgcc" ||
    not_ok "uncaught: terminate and SIGABRT" "$(cat "$work/out/uncaught.g++.dropin")"
out=$(LD_PRELOAD="$preload" "$work/bin/thrower" 2>&1)
grep -q '^caught: ' <<< "$out" && grep -q 'registers intact' <<< "$out" &&
    ok "thrower: caught in main through the C library, callee-saved registers intact" ||
    not_ok "thrower: caught, registers intact" "$out"

# ---- 3. the routing ------------------------------------------------------------------
bindings=$(LD_DEBUG=bindings LD_PRELOAD="$preload" "$work/bin/exceptions.g++" throw rethrow backtrace forced accessors \
    2>&1 >/dev/null | sed -n 's/.*binding file \([^ ]*\) .* to \([^ ]*\) .*symbol `\(_Unwind_[A-Za-z_]*\)'"'"'.*/\1 \2 \3/p')
to_dropin=$(awk -v d="$dropin" '$2 == d { print $3 }' <<< "$bindings" | sort -u | tr '\n' ' ')
to_libgcc=$(awk -v g="$libgcc" '$2 == g { print $3 }' <<< "$bindings" | sort -u | tr '\n' ' ')
missing=
for f in _Unwind_RaiseException _Unwind_Resume _Unwind_Resume_or_Rethrow _Unwind_Backtrace _Unwind_ForcedUnwind \
         _Unwind_GetLanguageSpecificData _Unwind_GetRegionStart _Unwind_GetIPInfo _Unwind_SetGR _Unwind_SetIP \
         _Unwind_GetIP _Unwind_GetCFA _Unwind_Find_FDE _Unwind_FindEnclosingFunction _Unwind_DeleteException; do
    grep -qw "$f" <<< "$to_dropin" || missing+="$f "
done
[ -z "$missing" ] && [ -z "$to_libgcc" ] &&
    ok "LD_DEBUG=bindings: every call bound to the drop-in ($(wc -w <<< "$to_dropin") names), none to libgcc_s" ||
    not_ok "the bindings: not to the drop-in: ${missing:-none}; to libgcc_s: ${to_libgcc:-none}" "$bindings"
bindings=$(LD_DEBUG=bindings LD_PRELOAD="$preload" "$work/bin/exceptions.g++" thread 2>&1 >/dev/null)
grep -q "binding file $libgcc .* to $libgcc .*symbol \`_Unwind_ForcedUnwind'" <<< "$bindings" &&
grep -q "binding file $libgcc .* to $dropin .*symbol \`_Unwind_GetLanguageSpecificData'" <<< "$bindings" &&
    ok "pthread_exit: glibc's forced unwind is libgcc_s's (dlsym on its handle), its personalities' calls the drop-in's" ||
    not_ok "pthread_exit's bindings" "$(grep -E '_Unwind_(ForcedUnwind|GetLanguageSpecificData)' <<< "$bindings")"
if [ -z "$san" ]; then   # (the sanitizers' runtime intercepts backtrace())
    bindings=$(LD_DEBUG=bindings LD_PRELOAD="$preload" "$work/bin/exceptions.g++" execinfo 2>&1 >/dev/null)
    grep -q "binding file $work/bin/exceptions.g++ .* to $dropin .*symbol \`backtrace'" <<< "$bindings" &&
        ok "glibc's backtrace(): the program's call bound to the drop-in's (libunwind's)" ||
        not_ok "backtrace()'s binding" "$(grep -E 'symbol .backtrace' <<< "$bindings")"
fi

# ---- 4. the validated table ------------------------------------------------------------
nounwind="-O2 -fno-asynchronous-unwind-tables -fno-unwind-tables"
r=$work/repair
step cc $nounwind -fPIC -shared -o "$r/libnotables.so" tests/repair/notables.c &&
step c++ -O2 -o "$r/thrower" tests/repair/thrower.cc -L"$r" -lnotables -Wl,-rpath,'$ORIGIN' ||
    { not_ok "building the thrower without tables" "$(tail -5 "$log")"; finish unwind-abi; }
sums=$(md5sum "$r/libnotables.so" "$r/thrower")
out=$(LD_PRELOAD="$preload" "$r/thrower" 2>&1); rc=$?
[ "$rc" -ne 0 ] && grep -q 'terminate called' <<< "$out" &&
    ok "no table, no eh_elf: the throw through the C library terminates with the drop-in too (exit $rc)" ||
    not_ok "without the eh_elf the program should terminate (exit $rc)" "$out"
step "$build/bin/dwcompile" --repair -o "$r/libnotables.so.eh_elf.so" "$r/libnotables.so" ||
    not_ok "dwcompile --repair libnotables.so" "$(tail -5 "$log")"
out=$("$r/thrower" 2>&1); rc=$?
[ "$rc" -ne 0 ] && grep -q 'terminate called' <<< "$out" &&
    ok "with the eh_elf beside it, libgcc still terminates (exit $rc): it reads .eh_frame alone" ||
    not_ok "libgcc with the eh_elf present (exit $rc)" "$out"
out=$(LD_PRELOAD="$preload" "$r/thrower" 2>&1); rc=$?
[ "$rc" -eq 0 ] && grep -q '^caught: ' <<< "$out" && grep -q 'registers intact' <<< "$out" &&
    [ "$(md5sum "$r/libnotables.so" "$r/thrower")" = "$sums" ] &&
    ok "with --repair's eh_elf beside it, the drop-in carries the exception across the library: caught, registers intact, no binary rewritten" ||
    not_ok "the exception across the library with its eh_elf (exit $rc)" "$out"
mkdir -p "$r/path" && mv "$r/libnotables.so.eh_elf.so" "$r/path/"
out=$(DWUNWIND_PATH=$r/path LD_PRELOAD="$preload" "$r/thrower" 2>&1); rc=$?
[ "$rc" -eq 0 ] && grep -q 'registers intact' <<< "$out" &&
    ok "the same with the eh_elf in DWUNWIND_PATH" ||
    not_ok "the eh_elf in DWUNWIND_PATH (exit $rc)" "$out"
mv "$r/path/libnotables.so.eh_elf.so" "$r/"

# ---- 5. mutants ----------------------------------------------------------------------------
# Each: a drop-in with one sed expression applied to compat/FILE
# (mutant_build); CHECK must then fail.
case_differs() { ! same_as_libgcc "$work/mutant/libunwind.so.8" g++ "$1"; }
thrower_fails() {   # the thrower of LIBRARY (with tables, or repaired)
    local out
    out=$(LD_PRELOAD="$(preloaded "$work/mutant/libunwind.so.8")" "$1" 2>&1)
    ! grep -q 'registers intact' <<< "$out"
}
mutants=(
    "unwind_abi.c@s/(handler ? _UA_HANDLER_FRAME : 0)/0/@case_differs phases@_UA_HANDLER_FRAME at the handler's frame in phase 2"
    "unwind_abi.c@s/exc->private_2 = frame_id(ctx);/exc->private_2 = 0;/@case_differs phases@the handler's frame kept from phase 1"
    "unwind_abi.c@s/^    lu_cursor_set_reg(cursor(ctx), reg, value);/    (void)value;/@case_differs throw@_Unwind_SetGR (the landing pad's rax and rdx)"
    "unwind_abi.c@s/^        cleanup(exc, \&ctx);/        ;/@case_differs throw@_Unwind_Resume going on with phase 2"
    "unwind_abi.c@/if (!exc->private_1)/{n;s/return throw_from(exc, \&ctx);/return _URC_END_OF_STACK;/}@case_differs rethrow@_Unwind_Resume_or_Rethrow raising anew"
    "unwind_abi.c@s/^        if (trace(\&ctx, argument) != _URC_NO_REASON)/        if (n > 2 \&\& trace(\&ctx, argument) != _URC_NO_REASON)/@case_differs backtrace@_Unwind_Backtrace calling the trace function at every frame"
    "unwind_abi.c@s/_Unwind_Reason_Code rc = pers(1, _UA_FORCE_UNWIND/_Unwind_Reason_Code rc = _URC_CONTINUE_UNWIND; (void)pers; (void)(1, _UA_FORCE_UNWIND/@case_differs forced@the personalities called in a forced unwind (destructors, C cleanups)"
    "unwind_abi.c@s/return !lu_cursor_is_ours(\&ctx->cursor);/return 0;/@case_differs thread@libgcc's contexts handed back to libgcc_s (pthread_exit)"
    "unwind_abi.c@s/return !lu_cursor_is_ours(\&ctx->cursor);/return 0;/@case_differs cancel@libgcc's contexts handed back to libgcc_s (pthread_cancel)"
    "unw_cursor.c@s/if (lu_cursor_value(c, r, \&v) == 0)/if (0)/@thrower_fails $work/bin/thrower@the callee-saved registers restored from the rules at the landing pad"
    "unw_cursor.c@s/dwu_eh_elf_step_fn step = __atomic_load_n(\&o->step, __ATOMIC_ACQUIRE);/dwu_eh_elf_step_fn step = NULL;/@thrower_fails $r/thrower@the eh_elf's rows for the library without a table"
)
for m in "${mutants[@]}"; do
    IFS=@ read -r file expr check what <<< "$m"
    if ! err=$(mutant_build "$file" "$expr" 2>&1); then
        not_ok "mutant ($what): the build failed" "$err"
    elif $check; then
        ok "without $what (compat/$file mutated), the check fails"
    else
        not_ok "without $what (compat/$file mutated), the check still passes"
    fi
done
finish unwind-abi
