#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwu_backtrace as a user calls it: linked as libdwunwind.so, called inside
# programs the benchmark did not write (corpus programs that call memset,
# gcc and clang, -O0 and -O2), with eh_elfs for each program, libc and the
# calling library and then with none, against libunwind's unw_backtrace on
# the same stacks
# (bench/backtrace_preload.c).  Prints ns per call, the ratio, and the
# medians for shallow stacks (the programs' own, 8 frames) and deep ones
# (large_frames' recursion, about 40 frames).  Then the shape the in-process
# bar names, which no corpus program calls out of: a deep recursion of small
# functions built -O2 -fomit-frame-pointer (bench/deep_recursion.c), per
# frame against unw_backtrace and unw_step.
set -u
build=${1:?usage: backtrace.sh BUILD}
dwcompile=$build/bin/dwcompile
work=$(cd "$build" && pwd)/bench/backtrace
rm -rf "$work" && mkdir -p "$work/shared" || exit 1
lib=$(cd "$build/lib" && pwd)
preload=$work/backtrace_preload.so
cc -O2 -fPIC -shared -I. -o "$preload" bench/backtrace_preload.c -L"$lib" -ldwunwind -lunwind -ldl \
    -Wl,-rpath,"$lib" || exit 1
libc=$(ldd "$preload" | awk '$1 ~ /^libc\.so/ { print $3 }')
"$dwcompile" -q -o "$work/shared/backtrace_preload.so.eh_elf.so" "$preload" || exit 1
"$dwcompile" -q --force -o "$work/shared/libc.so.6.eh_elf.so" "$libc" > /dev/null 2>&1 || exit 1

# Each figure twice: with eh_elfs (each program's, libc's and the calling
# library's, from DWUNWIND_PATH), and with none anywhere (every row read
# from .eh_frame, then kept as a descriptor by return address).
for mode in eh_elfs none; do
echo
echo "dwu_backtrace (libdwunwind.so, $mode) against unw_backtrace, called at each memset of corpus programs (median ns per call)"
printf '  %-30s %7s %8s %14s %14s %9s\n' program samples frames dwu_backtrace unw_backtrace "unw/dwu"
results=$work/results-$mode
: > "$results"
for compiler in gcc clang; do
    for opt in O0 O2; do
        for prog in aligned_locals alloca_vla large_frames; do
            bin=corpus/$compiler/$opt/$prog
            exe=$build/$bin
            [ -x "$exe" ] || continue
            eh=$work/$compiler-$opt-$prog
            if [ $mode = eh_elfs ]; then
                mkdir -p "$eh" && ln -sf "$work"/shared/*.eh_elf.so "$eh/"
                "$dwcompile" -q -o "$eh/$prog.eh_elf.so" "$exe" > /dev/null 2>&1 || { echo "  $bin: no eh_elf"; continue; }
            else
                eh=$work/no-eh-elfs
            fi
            line=$(DWUNWIND_PATH=$eh LD_PRELOAD=$preload "$exe" 2>&1 >/dev/null | grep '^backtrace_preload:')
            # backtrace_preload: NAME: S samples, F frames, dwu_backtrace D ns, unw_backtrace U ns, M mismatches
            read -r samples frames dwu unw mism < <(sed -E 's/.*: ([0-9]+) samples, ([0-9]+) frames, dwu_backtrace ([0-9.]+) ns, unw_backtrace ([0-9.]+) ns, ([0-9]+) mismatches/\1 \2 \3 \4 \5/' <<< "$line")
            [ -n "${mism:-}" ] || { echo "  $bin: no samples"; continue; }
            awk -v b="$bin" -v s="$samples" -v f="$frames" -v d="$dwu" -v u="$unw" -v m="$mism" 'BEGIN {
                printf "  %-30s %7d %8d %14.1f %14.1f %9.2f%s\n", b, s, f, d, u, u / d, (m > 0 ? "  (" m " stacks differ)" : "") }'
            echo "$frames $dwu $unw $mism" >> "$results"
        done
    done
done
awk -v mode="$mode" '{ if ($1 < 16) { s[ns++] = $3 / $2 } else { d[nd++] = $3 / $2 }; bad += $4 }
    function med(a, n,   i, j, t) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n ? a[int(n / 2)] : 0 }
    END { printf "  median unw_backtrace / dwu_backtrace (%s): shallow stacks %.2f (%d programs), deep stacks %.2f (%d); %d stacks differ\n",
          mode, med(s, ns), ns, med(d, nd), nd, bad }' "$results"
done

# A deep recursion of small functions, -O2 -fomit-frame-pointer, with its
# eh_elf (in DWUNWIND_PATH) and with none.
deep=$work/deep_recursion
cc -O2 -fomit-frame-pointer -I. -o "$deep" bench/deep_recursion.c -L"$lib" -ldwunwind -lunwind \
    -Wl,-rpath,"$lib" || exit 1
"$dwcompile" -q -o "$work/shared/deep_recursion.eh_elf.so" "$deep" || exit 1
for mode in eh_elfs none; do
    path=$work/shared
    [ $mode = none ] && path=$work/no-eh-elfs
    # deep_recursion: F frames, dwu_backtrace D ns, unw_backtrace U ns, unw_step S ns, M mismatches
    line=$(DWUNWIND_PATH=$path "$deep")
    read -r frames dwu unw step mism < <(sed -E 's/.*: ([0-9]+) frames, dwu_backtrace ([0-9.]+) ns, unw_backtrace ([0-9.]+) ns, unw_step ([0-9.]+) ns, ([0-9]+) mismatches/\1 \2 \3 \4 \5/' <<< "$line")
    if [ -n "${mism:-}" ]; then
        awk -v f="$frames" -v d="$dwu" -v u="$unw" -v s="$step" -v m="$mism" -v mode="$mode" 'BEGIN {
            printf "  deep recursion of small functions (bench/deep_recursion.c, -O2 -fomit-frame-pointer, %d frames, %s), median ns per frame:\n", f, mode
            printf "    dwu_backtrace %.2f, unw_backtrace %.2f (dwu/unw %.2f), unw_step %.1f (unw_step/dwu %.0fx)%s\n",
                   d, u, d / u, s, s / d, (m > 0 ? "; " m " stacks differ" : "") }'
    else
        echo "  deep recursion ($mode): no figures ($line)"
    fi
done
