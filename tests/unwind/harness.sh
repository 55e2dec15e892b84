#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# harness.sh: reproductions of three defects of the dwunwind runtime, to show
# a fix working.  Builds the test programs into OUT and runs them:
#   1. signal_harness.c: dwu_backtrace in a SIGPROF handler while the main
#      thread dlopen()s, calls and dlclose()s libraries, malloc()s and prints;
#      the first dwu_backtrace made in a handler; handlers interrupting a
#      dwu_backtrace in progress.  Each case runs RUNS times (under timeout):
#      crashes, hangs and bad walks are counted.
#   2. same_address.c: a library loaded at the address of one unloaded.
#   3. thread_churn.c: 16 threads walking while others load and unload
#      libraries, every walk compared with libgcc's.
# Each case runs without eh_elfs (the DWARF fallback) and with them (the
# programs', the libraries', libc's and ld.so's, from OUT/eh by
# DWUNWIND_PATH).
#
#   tests/unwind/harness.sh OUT
#
# BUILD: the build directory whose lib/libdwunwind.a and bin/dwcompile are
# used (build/ of this tree by default).  OUT must not be under a group- or
# world-writable directory such as /tmp, where a runtime may refuse to load
# eh_elfs (the eh_elfs checks then fail, saying so).  The short run takes
# about two minutes on two cores (20 runs of 0.5 s per signal case, 40 of
# 0.1 s for the first call, 6 runs of 50000 thread walks: the races of
# defect 3 show most in a run's first walks); HARNESS_LONG=1 the long one,
# about ten (40 runs of 1.5 s, 200 first calls, 20 runs of 100000 walks).
# SIGNAL_RUNS, SIGNAL_SECONDS, FIRST_RUNS, THREAD_RUNS and THREAD_WALKS
# override the sizes.
# Prints "ok - ..." or "not ok - ..." per check, then
# "harness: N passed, M failed"; exit status 1 on any failure.
set -u
out=${1:?usage: harness.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${BUILD:-$root/build}" && pwd) || exit 2
. "$here/../lib.sh"

if [ "${HARNESS_LONG:-0}" = 1 ]; then
    runs=${SIGNAL_RUNS:-40} seconds=${SIGNAL_SECONDS:-1.5} first_runs=${FIRST_RUNS:-200}
    thread_runs=${THREAD_RUNS:-20} walks=${THREAD_WALKS:-100000}
else
    runs=${SIGNAL_RUNS:-20} seconds=${SIGNAL_SECONDS:-0.5} first_runs=${FIRST_RUNS:-40}
    thread_runs=${THREAD_RUNS:-6} walks=${THREAD_WALKS:-50000}
fi
rm -rf "$out/bin" "$out/lib" "$out/eh" && mkdir -p "$out/bin" "$out/lib" "$out/eh" || exit 2
out=$(cd "$out" && pwd)
bin=$out/bin lib=$out/lib eh=$out/eh

# ---- building ------------------------------------------------------------------
cc=${CC:-cc}
cflags=(-std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes)
# libgcc_s first, as the Makefile links check_unwind (libgcc_walk.h).
libgcc_first=(-Wl,--push-state,--no-as-needed -lgcc_s -Wl,--pop-state)
log=$out/build.log
: > "$log"
step() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1; }

program() {   # NAME [MORE SOURCES]
    local name=$1; shift
    step "$cc" "${cflags[@]}" -I"$root" -pthread -o "$bin/$name" "$here/$name.c" "$@" "$here/libgcc_walk.c" \
        "$build/lib/libdwunwind.a" "${libgcc_first[@]}" -ldl -lpthread
}

build_all() {
    local i
    # Libraries without crt files: all their code has CFI (crtstuff's has none).
    # 20: thread_churn's 4 churners and 16 unwinders have one each.
    for ((i = 0; i < 20; i++)); do
        step "$cc" "${cflags[@]}" -fPIC -shared -nostartfiles -DCHURN_ID=$i -o "$lib/churn_lib$i.so" \
            "$here/churn_lib.c" || return 1
    done
    step "$cc" "${cflags[@]}" -fPIC -shared -nostartfiles -o "$lib/same_address_a.so" "$here/same_address_a.c" &&
    step "$cc" "${cflags[@]}" -fPIC -shared -nostartfiles -fno-omit-frame-pointer -o "$lib/same_address_b.so" \
        "$here/same_address_b.c" &&
    program signal_harness && program same_address && program thread_churn "$here/frames.c" || return 1
    # Two at a time (each runs the C compiler).
    printf '%s\0' "$bin"/* "$lib"/*.so |
        xargs -0 -P 2 -I{} sh -c '"$1" -q -o "$2/$(basename "$3").eh_elf.so" "$3"' sh "$build/bin/dwcompile" "$eh" {} \
        >> "$log" 2>&1 || return 1
    # libc and ld.so have CFI bugs dwcheck reports (run.sh): --force.
    local libc ldso
    libc=$(ldd "$bin/signal_harness" | awk '$1 ~ /^libc\.so/ { print $3 }')
    ldso=$(ldd "$bin/signal_harness" | awk '$1 ~ /ld-linux/ { print $1 }')
    step "$build/bin/dwcompile" -q --force -o "$eh/$(basename "$libc").eh_elf.so" "$libc" &&
    step "$build/bin/dwcompile" -q --force -o "$eh/$(basename "$ldso").eh_elf.so" "$ldso"
}

if build_all; then
    ok "built the programs, $(ls "$lib" | wc -l) libraries and $(ls "$eh" | wc -l) eh_elfs into $out (runtime: $build)"
else
    not_ok "building into $out" "$(tail -20 "$log")"
    finish harness
fi

# ---- running ----------------------------------------------------------------------
# A MODE's environment: dwarf (no eh_elf is found: the DWARF fallback) or
# eh_elfs (DWUNWIND_PATH; a runtime that can say why it refuses one says it
# on stderr).  In eh_elfs mode a passing run must report at least 2 objects
# with an eh_elf (the program and libc), and the libraries loaded later are
# given to a runtime that has dwu_init through it (--dwu-init) where noted.
set_mode() {   # MODE
    if [ "$1" = dwarf ]; then
        with=(env -u DWUNWIND_PATH) need_eh_elfs=0 init=()
    else
        with=(env DWUNWIND_PATH="$eh" DWUNWIND_LOG=stderr) need_eh_elfs=2 init=(--dwu-init)
    fi
}

# Empty when OUTPUT (a passing run's) reports enough objects with an eh_elf
# for the mode; else why not.
eh_elfs_missing() {   # OUTPUT
    local line n
    [ "$need_eh_elfs" -eq 0 ] && return
    line=$(grep -h "with an eh_elf" <<< "$1" | tail -1)
    n=$(sed -n 's/.* \([0-9][0-9]*\) with an eh_elf.*/\1/p' <<< "$line")
    [ -n "$line" ] && [ "${n:-0}" -ge "$need_eh_elfs" ] && return
    echo "but the eh_elfs were not used (${line:-no count printed}): is $out under a group- or world-writable" \
        "directory such as /tmp, which a runtime may refuse to load code from?"
}

# How a run ended: ok, wrong (exit 1), hang (timeout), crash (a signal), error.
ending() {   # STATUS
    case $1 in
    0) echo ok ;;
    1) echo wrong ;;
    124|137) echo hang ;;
    *) if [ "$1" -gt 128 ]; then echo "crash SIG$(kill -l $(($1 - 128)))"; else echo "error $1"; fi ;;
    esac
}

# "N SIGX, M SIGY" from a list of signal names.
count_signals() {   # NAME...
    [ $# -gt 0 ] && printf '%s\n' "$@" | sort | uniq -c | awk '{ printf "%s%d %s", sep, $1, $2; sep = ", " }'
}

# Run COMMAND RUNS times, each under a timeout; ok when every run exits 0.
# (In a subshell that waits, its stderr dropped: bash's "Segmentation fault"
# lines about the run.)
run_many() {   # NAME RUNS TIMEOUT COMMAND...
    local name=$1 runs=$2 limit=$3; shift 3
    local i rc end passed=0 wrong=0 hung=0 errors=0 first="" last="" signals=()
    for ((i = 1; i <= runs; i++)); do
        (timeout -k 2 "$limit" "$@" > "$out/run.log" 2>&1; exit $?) 2> /dev/null; rc=$?
        end=$(ending $rc)
        case $end in
        ok) passed=$((passed + 1)); last=$(grep -h "with an eh_elf" "$out/run.log") ;;
        wrong) wrong=$((wrong + 1)) ;;
        hang) hung=$((hung + 1)) ;;
        crash*) signals+=("${end#crash }") ;;
        *) errors=$((errors + 1)) ;;
        esac
        [ "$end" != ok ] && [ -z "$first" ] && first="run $i: $end (exit $rc):
$(head -c 3000 "$out/run.log")"
    done
    local what="$passed/$runs runs passed: ${#signals[@]} crashed"
    [ ${#signals[@]} -gt 0 ] && what+=" ($(count_signals "${signals[@]}"))"
    what+=", $hung hung, $wrong with bad walks"
    [ $errors -gt 0 ] && what+=", $errors failed otherwise"
    [ -n "$last" ] && what+=" [last good run: ${last#*: }]"
    local missing
    missing=$(eh_elfs_missing "$last")
    if [ $passed -eq "$runs" ] && [ -z "$missing" ]; then
        ok "$name: $what"
    elif [ $passed -eq "$runs" ]; then
        not_ok "$name: $what, $missing" "$(head -c 3000 "$out/run.log")"
    else
        not_ok "$name: $what" "$first"
    fi
}

# 1. Signal handlers.
sig=("$bin/signal_harness" --libs "$lib")
limit=$(awk -v s="$seconds" 'BEGIN { print int(s * 3 + 4) }')   # seconds: a run that outlives it hangs
set_mode dwarf
run_many "signals, control: libgcc's _Unwind_Backtrace in the handler instead, during dlopen churn" \
    $(( (runs + 1) / 2 )) "$limit" "${with[@]}" "${sig[@]}" --seconds "$seconds" --walker libgcc
for mode in dwarf eh_elfs; do
    set_mode $mode
    run_many "signals during dlopen/call/dlclose, malloc, stdio ($mode; itimer + 10 kHz timer)" \
        "$runs" "$limit" "${with[@]}" "${sig[@]}" --seconds "$seconds"
    run_many "first dwu_backtrace made in a handler, no dlopen ($mode; 0.1 s runs)" \
        "$first_runs" 5 "${with[@]}" "${sig[@]}" --no-dlopen --seconds 0.1
    run_many "nested: handlers interrupt the main thread's dwu_backtrace, no dlopen ($mode)" \
        "$runs" "$limit" "${with[@]}" "${sig[@]}" --no-dlopen --nested --seconds "$seconds"
    run_many "nested, with dlopen churn and a pthread_kill sender ($mode${init:+, dwu_init after each dlopen})" \
        "$runs" "$limit" "${with[@]}" "${sig[@]}" --nested --sources thread,timer --seconds "$seconds" "${init[@]}"
done

# 2. A library at the address of one unloaded.
for mode in dwarf eh_elfs; do
    set_mode $mode
    o=$( (timeout -k 2 60 "${with[@]}" "$bin/same_address" --libs "$lib" 2>&1; exit $?) 2> /dev/null); rc=$?
    end=$(ending $rc)
    missing=$(eh_elfs_missing "$o")
    [ "$end" = ok ] && [ -n "$missing" ] && end="ok, $missing"
    case $end in
    ok) ok "same address ($mode): B at A's old address unwinds as libgcc unwinds it" ;;
    ok,*) not_ok "same address ($mode): B at A's old address unwinds as libgcc unwinds it, ${end#ok, }" "$o" ;;
    wrong) not_ok "same address ($mode): B, at A's old address, is not unwound as libgcc unwinds it" "$o" ;;
    *) if [ $rc -eq 3 ]; then
           not_ok "same address ($mode): not set up (B never at A's address, or no trap)" "$o"
       else
           not_ok "same address ($mode): $end after $(grep -c . <<< "$o") lines of output" "$o"
       fi ;;
    esac
done

# 3. Threads: THREAD_RUNS runs of THREAD_WALKS walks, their counts added up.
count_of() {   # WORD LINE: the number before WORD in LINE, or 0
    local n
    n=$(sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p" <<< "$2")
    echo "${n:-0}"
}
for mode in dwarf eh_elfs; do
    set_mode $mode
    name="threads ($mode${init:+, dwu_init after each dlopen}): $thread_runs runs"
    walked=0 truncated=0 different=0 failed=0 detail="" missing="" line=""
    for ((i = 1; i <= thread_runs; i++)); do
        o=$( (timeout -k 2 900 "${with[@]}" "$bin/thread_churn" --libs "$lib" --walks "$walks" "${init[@]}" 2>&1
              exit $?) 2> /dev/null)
        rc=$?
        line=$(grep -h "walks on" <<< "$o")
        walked=$((walked + $(sed -n 's/^thread_churn: \([0-9][0-9]*\) walks.*/\1/p' <<< "$line" | grep . || echo 0)))
        truncated=$((truncated + $(count_of truncated "$line")))
        different=$((different + $(count_of different "$line")))
        [ $rc -eq 0 ] && [ -z "$missing" ] && missing=$(eh_elfs_missing "$o")
        if [ $rc -ne 0 ]; then
            failed=$((failed + 1))
            [ -z "$detail" ] && detail="run $i: $(ending $rc) (exit $rc):
$(head -40 <<< "$o")"
        fi
    done
    what="$walked walks: $truncated truncated, $different different from libgcc's; $failed runs failed"
    setting=$(sed 's/^thread_churn: [0-9]* walks //; s/: [0-9]* identical.*//' <<< "$line")
    if [ $failed -eq 0 ] && [ -z "$missing" ]; then
        ok "$name: $what (${setting})"
    elif [ $failed -eq 0 ]; then
        not_ok "$name: $what, $missing" "$o"
    else
        not_ok "$name: $what" "$detail"
    fi
done

finish harness
