#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# libgcc's _Unwind_* interface: the drop-in libunwind.so.8 (compat/
# unwind_abi.c, LD_PRELOAD) against libgcc_s.so.1 on the same binary:
# bench/throw_catch.cc throws an int caught 1, 5, 20 and 100 frames up (a
# destructor in each frame) and prints ns per throw.  At each depth it
# runs RUNS times with each in turn — libgcc_s, the drop-in without
# eh_elfs (.eh_frame rows kept by address), the drop-in with the eh_elfs of
# the program, libstdc++, libgcc_s and libc in DWUNWIND_PATH — and the
# medians are printed with the ratio libgcc's / the drop-in's (above 1: the
# drop-in is faster).
set -u
. "$(dirname "$0")/median.sh"
build=${1:?usage: unwind_abi.sh BUILD}
runs=${UNWIND_ABI_RUNS:-7}
throws=${UNWIND_ABI_THROWS:-20000}
work=$(cd "$build" && pwd)/bench/unwind_abi
dropin=$(cd "$build/lib/dwunwind" && pwd)/libunwind.so.8
rm -rf "$work" && mkdir -p "$work/eh/none" "$work/eh/elfs" || exit 1
exe=$work/throw_catch
c++ -O2 -g -o "$exe" bench/throw_catch.cc || exit 1
"$build/bin/dwcompile" -q -o "$work/eh/elfs/throw_catch.eh_elf.so" "$exe" || exit 1
for lib in libc.so.6 libstdc++.so.6 libgcc_s.so.1; do
    path=$(ldd "$exe" | awk -v l="$lib" '$1 == l { print $3 }')
    "$build/bin/dwcompile" -q --force -o "$work/eh/elfs/$lib.eh_elf.so" "$path" > /dev/null 2>&1 || exit 1
done
one() {   # MODE DEPTH THROWS: "MODE NS" (libgcc, none, elfs)
    local pre=
    [ "$1" != libgcc ] && pre=$dropin
    LD_PRELOAD=$pre DWUNWIND_PATH=$work/eh/$1 "$exe" "$3" "$2" |
        sed -n "s/^throw_catch: .* \([0-9.]*\) ns per throw$/$1 \1/p"
}
status=0
for depth in ${UNWIND_ABI_DEPTHS:-1 5 20 100}; do
    n=$(( throws * 20 / (depth > 20 ? depth : 20) ))   # about the same time at each depth
    : > "$work/results-$depth"
    for ((i = 0; i < runs; i++)); do
        for mode in libgcc none elfs; do
            one $mode "$depth" "$n" >> "$work/results-$depth"
        done
    done
    frames=frames
    [ "$depth" = 1 ] && frames=frame
    echo
    echo "a C++ throw caught $depth $frames up (bench/throw_catch.cc, the same binary; median of $runs alternating runs of $n throws)"
    awk "$median_awk"'
        NF == 2 { v[$1, n[$1]++] = $2 }
        END {
            for (k in n) { for (i = 0; i < n[k]; i++) t[i] = v[k, i]; m[k] = med(t, n[k]) }
            g = m["libgcc"]; a = m["none"]; e = m["elfs"]
            if (!g || !a || !e) { print "  no figures"; exit 1 }
            printf "  %-60s %5s %10s %16s\n", "unwinder", "runs", "ns/throw", "libgcc / it"
            printf "  %-60s %5d %10.0f %16s\n", "libgcc_s.so.1", n["libgcc"], g, "1.00"
            printf "  %-60s %5d %10.0f %16.2f\n", "drop-in (LD_PRELOAD), no eh_elf (.eh_frame rows)", n["none"], a, g / a
            printf "  %-60s %5d %10.0f %16.2f\n", "drop-in (LD_PRELOAD), eh_elfs in DWUNWIND_PATH", n["elfs"], e, g / e
        }' "$work/results-$depth" || status=1
done
exit $status
