#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The drop-in libunwind (compat/, built into BUILD/lib/dwunwind): programs
# written against libunwind's API, run with Debian's libunwind and with the
# drop-in on LD_LIBRARY_PATH, must print the same, line for line.
#   1. the libraries: SONAMEs, libc only, the names Debian's export;
#      the ABI (sizes, offsets, constants) against Debian's headers;
#   2. walk.c (UNW_LOCAL_ONLY, and without: libunwind-x86_64.so.8's
#      names): every frame's name, offset, ip, sp, registers, procedure,
#      save locations, through signal frames, frames without unwind
#      information, unw_resume, unw_backtrace, the API's answers; with
#      Debian's, with the drop-in without eh_elfs, and with eh_elfs for the
#      program and libc in DWUNWIND_PATH (seen loaded);
#   3. the drop-in is the library the programs use (ldd, LD_DEBUG=bindings);
#   4. the remote API, handed to Debian's library (remote_copy.c);
#   5. trust: eh_elfs another user could have written are not loaded; bad
#      input: the objects' files damaged or replaced on disk (bad_symbols.c);
#   6. signal-safety: walks in a SIGPROF handler interrupting malloc,
#      stdio, dlopen and dlclose (signals.c), without and with eh_elfs;
#   7. each of those fails without its mechanism: a mutated drop-in, or
#      eh_elf, per mechanism.
# Programs run without address randomisation (setarch -R) and with
# environments of the same size, so that their stacks compare.
#   tests/libunwind/run.sh BUILD     (COMPAT_SRCS: the drop-in's C sources)
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib.sh"
cd "$root" || exit 2
build=$(cd "$build" && pwd)
work=$build/tests/libunwind
rm -rf "$work" && mkdir -p "$work/bin" "$work/lib/debian" "$work/lib/dropin" "$work/lib/mutant" \
    "$work/eh/none" "$work/eh/elfs" "$work/eh/open" "$work/eh/mutd" "$work/log" "$work/out" || exit 2
dropin=$build/lib/dwunwind
declare -A names eh_elfs
system=/usr/lib/x86_64-linux-gnu
compat_srcs=${COMPAT_SRCS:-compat/libunwind.c compat/unw_cursor.c compat/unw_rows.c compat/unw_proc_info.c compat/unw_symbols.c compat/unw_reg_states.c}
cc=${CC:-cc}
san=${SAN_FLAGS:-}
cflags=(-std=gnu11 -O2 -g -Wall -Wextra -Werror -I"$root" $san)
log=$work/build.log
: > "$log"
step() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1; }

for lib in libunwind.so.8 libunwind-x86_64.so.8; do
    ln -s "$system/$lib" "$work/lib/debian/$lib"
    ln -s "$dropin/$lib" "$work/lib/dropin/$lib"
done

# ---- building ------------------------------------------------------------------
if ! { step "$cc" "${cflags[@]}" -fexceptions -DUNW_LOCAL_ONLY -o "$work/bin/walk" "$here/walk.c" "$here/nocfi.S" \
           tests/unwind/frames.c -lunwind &&
       step "$cc" "${cflags[@]}" -fexceptions -o "$work/bin/walk_generic" "$here/walk.c" "$here/nocfi.S" \
           tests/unwind/frames.c -lunwind-generic -lunwind &&
       step "$cc" "${cflags[@]}" -o "$work/bin/remote" "$here/remote_copy.c" tests/unwind/frames.c \
           -lunwind-generic -lunwind &&
       step "$cc" "${cflags[@]}" -o "$work/bin/signals" "$here/signals.c" tests/unwind/frames.c -lunwind -ldl &&
       step "$cc" "${cflags[@]}" -fPIC -shared -nostartfiles -o "$work/bin/churn.so" tests/unwind/churn_lib.c &&
       step "$cc" "${cflags[@]}" -fPIC -shared -nostartfiles -DCHURN_ID=1 -o "$work/bin/churn1.so" \
           tests/unwind/churn_lib.c &&
       step "$cc" "${cflags[@]}" -o "$work/bin/bad_symbols" "$here/bad_symbols.c" -lunwind -ldl &&
       step "$cc" "${cflags[@]}" -o "$work/bin/abi_debian" "$here/abi_layout.c" &&
       step "$cc" "${cflags[@]}" -DDROPIN -o "$work/bin/abi_dropin" "$here/abi_layout.c"; }; then
    not_ok "the test programs build" "$(tail -20 "$log")"
    finish libunwind
fi
if ! setarch -R true 2> /dev/null; then
    not_ok "setarch -R (no address randomisation) runs here"
    finish libunwind
fi

# PROGRAM's output (stdout) with LIBS (debian, dropin, mutant) on
# LD_LIBRARY_PATH and EH (none, elfs, open, mutd) as DWUNWIND_PATH, its
# stderr and the runtime's log in OUT.err and OUT.log.  (Every name in the
# environment has the same length in every run.)
runs=0
run() {   # OUT LIBS EH PROGRAM [ARGS...]
    local out=$work/out/$1 libs=$2 eh=$3 log rc
    shift 3
    runs=$((runs + 1))
    log=$work/log/$(printf '%06d' $runs)
    LD_LIBRARY_PATH=$work/lib/$libs DWUNWIND_PATH=$work/eh/$eh DWUNWIND_LOG=$log setarch -R "$@" \
        > "$out" 2> "$out.err"
    rc=$?
    rm -f "$out.log"
    [ -e "$log" ] && mv "$log" "$out.log"
    return $rc
}

# Whether OUT-A and OUT-B are the same (DIFF holds the first lines that are not).
same() {
    diff=$(diff "$work/out/$1" "$work/out/$2" | head -12)
    [ -z "$diff" ] && [ -s "$work/out/$1" ]
}

# ---- 1. the libraries ------------------------------------------------------------------
exports() { nm -D --defined-only "$1" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort; }
soname_of() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
needed_of() {   # (but the sanitizers' runtimes, under SAN=1)
    readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v -e '^libasan' -e '^libubsan' | tr '\n' ' '
}
if [ "$(soname_of "$dropin/libunwind.so.8")" = libunwind.so.8 ] &&
   [ "$(soname_of "$dropin/libunwind-x86_64.so.8")" = libunwind-x86_64.so.8 ] &&
   [ "$(needed_of "$dropin/libunwind.so.8")" = "libc.so.6 " ] &&
   [ "$(needed_of "$dropin/libunwind-x86_64.so.8")" = "libunwind.so.8 libc.so.6 " ] &&
   ! nm -D --defined-only "$dropin"/*.so.8 | grep -v -E ' (_Unwind_[A-Za-z_]*|__(de)?register_frame[a-z_]*)@@GCC_[0-9.]*$' |
       grep -q '@'; then
    ok "libunwind.so.8 and libunwind-x86_64.so.8: their SONAMEs, libc alone needed, libunwind's symbols unversioned as Debian's (libgcc's _Unwind_* and __register_frame family with libgcc_s's versions)"
else
    not_ok "the drop-in's SONAMEs and needed libraries" \
        "$(readelf -d "$dropin"/*.so.8 | grep -E 'SONAME|NEEDED')"
fi
# Every name Debian's libraries export, but _Unwind_GetBSP (IA-64's),
# libunwind's aliases of the _Unwind_* names (__libunwind_Unwind_*) and
# its internal helpers of libunwind-ptrace, which reach
# libunwind-x86_64.so.8's; and no other name but the symbol versions,
# libgcc_s's _Unwind_Find_FDE and __register_frame family (libgcc's,
# which Debian's libunwind has not: tests/register_frame), and
# the one libunwind-x86_64.so.8 uses (compat/ is built with hidden
# visibility: nothing else leaks; under the sanitizers, AddressSanitizer's
# ODR indicators of the exported variables too).
extra=$(comm -13 <(exports "$system/libunwind.so.8") <(exports "$dropin/libunwind.so.8") |
        grep -v -x -e 'GCC_[0-9.]*' -e '_Unwind_Find_FDE' -e '__register_frame[a-z_]*' -e '__deregister_frame[a-z_]*' \
            -e '_dwunwind_lu_local_space' -e '__odr_asan\..*')
[ -z "$extra" ] && ok "libunwind.so.8 exports no name but Debian's, libgcc_s's _Unwind_Find_FDE and __register_frame family, and its own for libunwind-x86_64.so.8" ||
    not_ok "libunwind.so.8 exports names Debian's does not" "$extra"
missing=$(comm -23 <(exports "$system/libunwind.so.8" |
                     grep -v -e '^_Unwind_GetBSP$' -e '^__libunwind_Unwind_' -e '^_ULx86_64_dwarf_' \
                         -e '^_Ux86_64_get_elf_image$' -e '^_Ux86_64_get_exe_image_path$') \
                  <(exports "$dropin/libunwind.so.8"))
missing_generic=$(comm -23 <(exports "$system/libunwind-x86_64.so.8") <(exports "$dropin/libunwind-x86_64.so.8"))
if [ -z "$missing$missing_generic" ]; then
    ok "every symbol of Debian's libunwind.so.8 ($(exports "$system/libunwind.so.8" | wc -l), but _Unwind_GetBSP, the __libunwind_Unwind_* aliases and 4 internal helpers) and libunwind-x86_64.so.8 ($(exports "$system/libunwind-x86_64.so.8" | wc -l)) is exported"
else
    not_ok "symbols Debian's libraries export that the drop-in's do not" "$missing $missing_generic"
fi
if "$work/bin/abi_debian" > "$work/out/abi.debian" && "$work/bin/abi_dropin" > "$work/out/abi.dropin" &&
   same abi.debian abi.dropin; then
    ok "the ABI: $(grep -c . "$work/out/abi.debian") sizes, offsets and constants as Debian's headers declare them"
else
    not_ok "the ABI differs from Debian's headers" "$diff"
fi

# ---- 2. walk.c, frame by frame -----------------------------------------------------------------
"$build/bin/dwcompile" -q -o "$work/eh/elfs/walk.eh_elf.so" "$work/bin/walk" >> "$log" 2>&1 &&
"$build/bin/dwcompile" -q -o "$work/eh/elfs/walk_generic.eh_elf.so" "$work/bin/walk_generic" >> "$log" 2>&1 &&
"$build/bin/dwcompile" -q --force -o "$work/eh/elfs/libc.so.6.eh_elf.so" "$system/libc.so.6" >> "$log" 2>&1 ||
    not_ok "dwcompile: the eh_elfs of walk and libc" "$(tail -5 "$log")"

compare_walk() {   # PROGRAM EH: the drop-in's walk against Debian's
    run "$1.debian" debian none "$work/bin/$1" && run "$1.$2" dropin "$2" "$work/bin/$1" &&
        same "$1.debian" "$1.$2"
}
names=([walk]="UNW_LOCAL_ONLY" [walk_generic]="the names of libunwind-x86_64.so.8")
eh_elfs=([none]="no eh_elf" [elfs]="eh_elfs in DWUNWIND_PATH")
for program in walk walk_generic; do
    for eh in none elfs; do
        what="$program (${names[$program]}), ${eh_elfs[$eh]}"
        if compare_walk $program $eh; then
            ok "$what: the drop-in prints what Debian's libunwind prints ($(grep -c '^  #' "$work/out/$program.debian") frames, $(wc -l < "$work/out/$program.debian") lines)"
        else
            not_ok "$what: the drop-in prints what Debian's libunwind prints" "$diff"
        fi
    done
done
# What walk.c went through, as those lines show it.
absent=
expect() { grep -q -- "$2" "$work/out/walk.debian" || absent="$absent$1 (no line with: $2)"$'\n'; }
expect "a signal frame (unw_is_signal_frame)" 'sig=1 proc'
expect "the signal trampoline (__restore_rt, named as libunwind names it)" '__sigaction+0x40'
expect "a personality routine" 'handler=libgcc_s'
expect "a frame without unwind information" 'nocfi_call+0xc (0)'
expect "code outside every object" '+0 (-1) ip=anon'
expect "a JIT's procedure named (_U_dyn_register)" 'jit_code+0xc (0)'
[ -z "$san" ] && expect "a thread's stack" "a thread's stack (to clone3)"
expect "unw_resume into a frame above the signal frame" 'chain returned 77 into fault_target; kept 129'
expect "unw_resume up the stack" 'chain returned 4242 into resume_target; kept 209'
# (under the sanitizers, backtrace is theirs)
[ -z "$san" ] && expect "unw_backtrace = backtrace" 'unw_backtrace, recursion of 30: [0-9]* frames (backtrace() [0-9]*, the same'
expect "the signal mask after unw_resume, cached" 'SIGSEGV not blocked after the resume'
expect "the signal mask after unw_resume, not cached" 'SIGSEGV blocked after the resume'
expect "save locations in the stack" 'RBX(0)=m:s-'
expect "the rows of a frame, one applied" 'unw_apply_reg_state of row [0-9]*: 1, .* the same frame'
if [ -z "$absent" ]; then
    ok "walk.c went through signal frames, a personality routine, frames without unwind information, a JIT's registered procedure, a thread, unw_resume (twice through a signal frame), unw_backtrace, save locations and rows"
else
    not_ok "walk.c's output lacks what it tests" "$absent"
fi
# The eh_elfs were used: mapped by the drop-in's runtime (walk.c lists
# them on stderr), none by Debian's.
if grep -qx "mapped: walk.eh_elf.so" "$work/out/walk.elfs.err" &&
   grep -qx "mapped: libc.so.6.eh_elf.so" "$work/out/walk.elfs.err" && ! grep -q mapped "$work/out/walk.none.err"; then
    ok "with eh_elfs in DWUNWIND_PATH, the program's and libc's are loaded (without, none)"
else
    not_ok "with eh_elfs, the drop-in loads the program's and libc's" "$(cat "$work/out/walk.elfs.err")"
fi

# ---- 3. the library used ---------------------------------------------------------------------------
bound() {   # PROGRAM SYMBOL: the file LD_DEBUG=bindings says SYMBOL of PROGRAM was bound to
    LD_LIBRARY_PATH=$dropin LD_DEBUG=bindings "$work/bin/$1" 2>&1 > /dev/null |
        sed -n "s|.*binding file $work/bin/$1 \[0\] to \([^ ]*\) \[0\]: normal symbol \`$2'.*|\1|p" | head -1
}
libs=$(LD_LIBRARY_PATH=$dropin ldd "$work/bin/walk_generic" | awk '/libunwind/ { print $3 }' | tr '\n' ' ')
step_to=$(bound walk _ULx86_64_step) backtrace_to=$(bound walk backtrace) generic_to=$(bound walk_generic _Ux86_64_step)
if [ "$libs" = "$dropin/libunwind-x86_64.so.8 $dropin/libunwind.so.8 " ] &&
   [ "$step_to" = "$dropin/libunwind.so.8" ] && { [ "$backtrace_to" = "$dropin/libunwind.so.8" ] || [ -n "$san" ]; } &&
   [ "$generic_to" = "$dropin/libunwind-x86_64.so.8" ]; then
    ok "with LD_LIBRARY_PATH=$dropin: ldd and LD_DEBUG=bindings show the drop-in used (unw_step, backtrace, _Ux86_64_step)"
else
    not_ok "the drop-in is the library used" "ldd: $libs; _ULx86_64_step: $step_to; backtrace: $backtrace_to; _Ux86_64_step: $generic_to"
fi

# ---- 4. the remote API -------------------------------------------------------------------------------
compare_remote() {   # [LIBS]
    run remote.debian debian none "$work/bin/remote" && run remote.${1:-dropin} "${1:-dropin}" none "$work/bin/remote" &&
        same remote.debian "remote.${1:-dropin}"
}
loaded_by=$(LD_LIBRARY_PATH=$dropin LD_DEBUG=files "$work/bin/remote" 2>&1 > /dev/null |
    sed -n "s|.*file=$system/libunwind-x86_64.so.8 .*dynamically loaded by \([^ ]*\) .*|\1|p" | head -1)
# (under the sanitizers, dlopen is theirs: it loads on the drop-in's behalf)
if compare_remote && { [ "$loaded_by" = "$dropin/libunwind-x86_64.so.8" ] || { [ -n "$san" ] && [ -n "$loaded_by" ]; }; }; then
    ok "the remote API (a copied stack unwound through accessors, $(grep -c '^  #' "$work/out/remote.debian") frames): the same, Debian's library loaded by the drop-in's"
else
    not_ok "the remote API through the drop-in (loaded by: ${loaded_by:-none})" "$diff"
fi

# ---- 5. trust ------------------------------------------------------------------------------------------
cp "$work/eh/elfs/walk.eh_elf.so" "$work/eh/open/"
chmod g+w "$work/eh/open/walk.eh_elf.so"
if run walk.debian debian open "$work/bin/walk" && run walk.open dropin open "$work/bin/walk" &&
   same walk.debian walk.open && grep -q "walk.eh_elf.so: not loaded" "$work/out/walk.open.log"; then
    ok "a group-writable eh_elf in DWUNWIND_PATH is not loaded (said in DWUNWIND_LOG), the walk the same"
else
    not_ok "a group-writable eh_elf is refused" "$diff$(cat "$work/out/walk.open.log" 2>/dev/null)"
fi

# ---- 5b. bad input: the object's file damaged or replaced on disk ------------------------------------
bad_symbols() {   # LIBS: OUT
    cp "$work/bin/churn.so" "$work/bin/victim.so" &&
    LD_LIBRARY_PATH=$work/lib/$1 timeout 120 "$work/bin/bad_symbols" "$work/bin/victim.so" 300 "$work/bin/churn1.so"
}
debian=$(bad_symbols debian 2>&1 | grep '^another build')
bad_symbols_ok() {   # LIBS: no crash, and the answer for another build Debian's
    out=$(bad_symbols "$1" 2>&1) && grep -q "^bad_symbols: 300 names read" <<< "$out" &&
        [ "$(grep '^another build' <<< "$out")" = "$debian" ]
}
if bad_symbols_ok dropin; then
    ok "unw_get_proc_name with the object's file damaged on disk: no crash ($(sed -n 's/^bad_symbols: //p' <<< "$out")); replaced by another build: ${debian#another build: }, as Debian's"
else
    not_ok "unw_get_proc_name with the object's file damaged or replaced" "$out / Debian's: $debian"
fi

# ---- 6. signal-safety -----------------------------------------------------------------------------------
signals_ok() {   # LIBS EH
    LD_LIBRARY_PATH=$work/lib/$1 DWUNWIND_PATH=$work/eh/$2 timeout 30 "$work/bin/signals" "${SIGNAL_SECONDS:-2}" \
        "$work/bin/churn.so" > "$work/out/signals" 2>&1
}
if [ -n "$san" ]; then
    echo "libunwind: the signal harness skipped under the sanitizers (their runtime is not async-signal-safe)"
else
    for eh in none elfs; do
        if signals_ok dropin $eh; then
            ok "unw_backtrace and unw_step in a SIGPROF handler ($eh): $(cat "$work/out/signals")"
        else
            not_ok "unw_backtrace and unw_step in a SIGPROF handler ($eh, exit $?)" "$(tail -3 "$work/out/signals")"
        fi
    done
fi

# ---- 7. each mechanism, taken away ----------------------------------------------------------------------
# A mutant drop-in: compat/ copied, one sed expression applied to FILE,
# built as make builds it, then CHECK must fail on it.
mutant_build() {   # FILE SED
    local src=$work/mutant
    rm -rf "$src" && mkdir -p "$src/compat" "$src/obj" && cp compat/* "$src/compat/" || return 1
    sed -i "$2" "$src/compat/$1" && ! cmp -s "compat/$1" "$src/compat/$1" || { echo "the mutation did not apply"; return 1; }
    local objs=() f
    for f in $compat_srcs; do
        "$cc" -std=c11 -D_GNU_SOURCE -O2 -fPIC -I"$src" -I"$root" -c "$src/$f" -o "$src/obj/$(basename "$f" .c).o" ||
            return 1
        objs+=("$src/obj/$(basename "$f" .c).o")
    done
    "$cc" -I"$src" -c "$src/compat/unw_context.S" -o "$src/obj/unw_context.o" &&
    "$cc" -shared -Wl,-soname,libunwind.so.8 -Wl,--version-script="$src/compat/libunwind.map" "${objs[@]}" \
        "$src/obj/unw_context.o" -Wl,--whole-archive "$build/lib/libdwunwind.a" -Wl,--no-whole-archive \
        -ldl -lpthread -o "$work/lib/mutant/libunwind.so.8" &&
    "$cc" -std=c11 -D_GNU_SOURCE -O2 -fPIC -I"$src" -I"$root" -shared -Wl,-soname,libunwind-x86_64.so.8 \
        -Wl,--version-script="$src/compat/libunwind-x86_64.map" "$src/compat/libunwind_generic.c" \
        "$work/lib/mutant/libunwind.so.8" -ldl -o "$work/lib/mutant/libunwind-x86_64.so.8"
}
walk_mutant_ok() {   # PROGRAM EH: the mutant's walk against Debian's
    run "$1.debian" debian none "$work/bin/$1" && run "$1.mutant" mutant "$2" "$work/bin/$1" &&
        same "$1.debian" "$1.mutant"
}
mutants=(
    "unw_cursor.c@s/^    keep(c, lu_regs(c));//@walk_mutant_ok walk none@libunwind's same-value rule (rax ... r11 kept from frame to frame)"
    "unw_cursor.c@s/c->signal_frame = 1;/c->signal_frame = 0;/@walk_mutant_ok walk none@unw_is_signal_frame after a step through a signal frame"
    "unw_cursor.c@s/cfa = prev_sp + 16;/cfa = prev_sp + 8;/@walk_mutant_ok walk none@the frame-chain guess where there is no unwind information"
    "unw_cursor.c@s/? step_without_info(c) : rc;/? 0 : rc;/@walk_mutant_ok walk elfs@the step where there is no unwind information"
    "unw_cursor.c@s/if (!(lu_regs(c)->valid \& (1u << DWU_RBP))) {/if (0) {/@walk_mutant_ok walk none@the end of the walk at a row that leaves rbp undefined"
    "unw_cursor.c@s/c->sigcontext = in->r\[DWU_RSP\];/c->sigcontext = 0;/@walk_mutant_ok walk none@unw_resume through the signal frame (signal mask restored)"
    "unw_context.S@/movq    24(%rdi), %rbx/d@walk_mutant_ok walk none@unw_resume restoring the callee-saved registers"
    "libunwind.c@s/lu_cursor_set_caching(policy != UNW_CACHE_NONE)/(void)policy/@walk_mutant_ok walk none@unw_set_caching_policy(UNW_CACHE_NONE): no resume through a signal frame"
    "libunwind.c@s/\*off = offset + (rc == 0 ? lu_regs(c)->r\[DWU_RIP\] - pc : 0);/*off = offset;/@walk_mutant_ok walk none@unw_get_proc_name's offset from the return address"
    "libunwind.c@s/if (!no_info || n <= 0 || n >= max)/if (1)/@walk_mutant_ok walk elfs@unw_backtrace going on where the runtime's walk stops"
    "libunwind.c@s/c->signal_frame = signal;/(void)signal;/@walk_mutant_ok walk none@unw_get_proc_info telling unw_is_signal_frame the frame's kind"
    "unw_proc_info.c@s/memcpy(\&handler, (const void \*)(uintptr_t)handler, 8);/(void)0;/@walk_mutant_ok walk none@the personality routine read through its GOT slot"
    "unw_rows.c@s/if (set\[i\].pc == pc \&\& /if (/@walk_mutant_ok walk none@the rows kept by address, each for its own address"
    "unw_symbols.c@s/if (addr - value >= \*best)/if (addr - value > *best)/@walk_mutant_ok walk none@the first of the symbols at one address (libunwind's choice)"
    "unw_symbols.c@s/if (loaded.kind \&\& (/if (0 \&\& (/@bad_symbols_ok mutant@the symbols of a file replaced by another build refused"
    "unw_reg_states.c@s/case REG_RULE_OFFSET: loc\[r\] = (struct loc){LOC_MEMORY, cfa + (uint64_t)rule->offset}; break;/case REG_RULE_OFFSET: break;/@walk_mutant_ok walk none@unw_get_save_loc's slots"
    "libunwind_generic.c@s/if (lu_cursor_is_ours(c))/if (c)/@compare_remote mutant@the remote API's cursors handed to Debian's library"
    "unw_cursor.c@s/^int lu_cursor_step(struct lu_cursor \*c)\$/int lu_cursor_step2(struct lu_cursor *c);\n&\n{ void *volatile p = malloc(8192); free(p); return lu_cursor_step2(c); }\nint lu_cursor_step2(struct lu_cursor *c)/;s/^#include <link.h>/#include <stdlib.h>\n&/@signals_ok mutant none@the walk allocating nothing (a handler interrupts malloc)"
)
for m in "${mutants[@]}"; do
    IFS='@' read -r file expr check what <<< "$m"
    [ -n "$san" ] && [[ $check == signals_ok* ]] && continue
    if ! out=$(mutant_build "$file" "$expr" 2>&1); then
        not_ok "mutant of compat/$file ($what) builds" "$out"
    elif ! $check > /dev/null 2>&1; then
        ok "without $what (compat/$file mutated), the check fails"
    else
        not_ok "without $what (compat/$file mutated), the check still passes"
    fi
done
# An eh_elf with one offset changed, in DWUNWIND_PATH: the walk differs
# (the eh_elf is what the drop-in steps with).
"$build/bin/dwcompile" -q --emit-c "$work/mutant_eh.c" -o "$work/out/unused.so" "$work/bin/walk" >> "$log" 2>&1
sed '0,/cfa + (uint64_t)-16ll/s//cfa + (uint64_t)-24ll/' "$work/mutant_eh.c" > "$work/mutant_eh2.c"
if ! cmp -s "$work/mutant_eh.c" "$work/mutant_eh2.c" &&
   "$cc" -O2 -fPIC -shared -o "$work/eh/mutd/walk.eh_elf.so" "$work/mutant_eh2.c" >> "$log" 2>&1 &&
   cp "$work/eh/elfs/libc.so.6.eh_elf.so" "$work/eh/mutd/" && ! compare_walk walk mutd; then
    ok "with a mutated eh_elf (one offset changed), the walk differs from Debian's"
else
    not_ok "with a mutated eh_elf (one offset changed), the walk differs from Debian's"
fi
finish libunwind
