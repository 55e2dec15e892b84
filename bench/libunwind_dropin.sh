#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The drop-in libunwind (BUILD/lib/dwunwind) against Debian's, on the same
# binary: bench/libunwind_user.c, built with -lunwind, walks its stack with
# unw_step as a libunwind user writes the loop (ip and sp read at each
# frame) and prints ns per frame.  It runs RUNS times with each library in
# turn — Debian's libunwind.so.8, the drop-in without eh_elfs (rows read
# from .eh_frame, kept by address), the drop-in with the eh_elfs of the
# program and libc in DWUNWIND_PATH — and the medians are printed with the ratio
# Debian's / the drop-in's.  Every run has an environment of the same size
# (the stack the same).
set -u
. "$(dirname "$0")/median.sh"
build=${1:?usage: libunwind_dropin.sh BUILD}
runs=${DROPIN_RUNS:-7}
work=$(cd "$build" && pwd)/bench/dropin
rm -rf "$work" && mkdir -p "$work/lib/debian" "$work/lib/dropin" "$work/eh/none" "$work/eh/elfs" || exit 1
for lib in libunwind.so.8 libunwind-x86_64.so.8; do
    ln -s "/usr/lib/x86_64-linux-gnu/$lib" "$work/lib/debian/$lib"
    ln -s "$(cd "$build/lib/dwunwind" && pwd)/$lib" "$work/lib/dropin/$lib"
done
exe=$work/libunwind_user
cc -std=gnu11 -O2 -g -I. -o "$exe" bench/libunwind_user.c tests/unwind/frames.c -lunwind || exit 1
libc=$(ldd "$exe" | awk '$1 ~ /^libc\.so/ { print $3 }')
"$build/bin/dwcompile" -q -o "$work/eh/elfs/libunwind_user.eh_elf.so" "$exe" || exit 1
"$build/bin/dwcompile" -q --force -o "$work/eh/elfs/libc.so.6.eh_elf.so" "$libc" > /dev/null 2>&1 || exit 1

# libunwind_user: STACK: F frames, unw_step N ns per frame
one() {   # LIBS EH: "LIBS EH STACK FRAMES NS" lines
    LD_LIBRARY_PATH=$work/lib/$1 DWUNWIND_PATH=$work/eh/$2 "$exe" |
        sed -n "s/^libunwind_user: \([a-z]*\): \([0-9]*\) frames, unw_step \([0-9.]*\) ns.*/$1 $2 \1 \2 \3/p"
}
: > "$work/results"
for ((i = 0; i < runs; i++)); do
    for mode in "debian none" "dropin none" "dropin elfs"; do
        # shellcheck disable=SC2086
        one $mode >> "$work/results"
    done
done
echo
echo "unw_step walks as a libunwind user writes them (bench/libunwind_user.c, the same binary on each library; median of $runs alternating runs)"
awk "$median_awk"'
    NF == 5 { key = $3 " " $1 " " $2; v[key, n[key]++] = $5; frames[$3] = $4; if (!($3 in seen)) { seen[$3] = 1; order[ns++] = $3 } }
    END {
        for (k in n) { for (i = 0; i < n[k]; i++) t[i] = v[k, i]; m[k] = med(t, n[k]) }
        printf "  %-62s %5s %9s %17s\n", "stack, library", "runs", "ns/frame", "Debian / drop-in"
        for (s = 0; s < ns; s++) {
            st = order[s]; d = m[st " debian none"]; a = m[st " dropin none"]; e = m[st " dropin elfs"]
            if (!d || !a || !e) { print "  " st ": no figures"; bad = 1; continue }
            printf "  %-62s %5d %9.2f %17s\n", st " (" frames[st] " frames), Debian libunwind.so.8", n[st " debian none"], d, "1.00"
            printf "  %-62s %5d %9.2f %17.2f\n", st ", drop-in, no eh_elf (.eh_frame rows kept by address)", n[st " dropin none"], a, d / a
            printf "  %-62s %5d %9.2f %17.2f\n", st ", drop-in, eh_elfs in DWUNWIND_PATH", n[st " dropin elfs"], e, d / e
        }
        exit bad
    }' "$work/results"
