#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwsynth and dwcheck against a bare Capstone decode of the same executable
# sections, in the same run (bench/decode_reference: Capstone with the same
# settings — x86_64, details on — and nothing else).  Runs alternate between
# the three; medians are compared.  Targets: dwsynth <= 3 and peak memory on
# libz3 <= 1 GiB (synthesis issue); dwcheck <= 4 (verification issue), with
# its expression rules proved by z3; and dwcheck --prove=all, every rule
# through z3 (a cross-check, no target).
set -u
build=${1:?usage: dwsynth_vs_decode.sh BUILD}
dwsynth=$build/bin/dwsynth
dwcheck=$build/bin/dwcheck
ref=$build/bench/decode_reference
files=(/usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libz3.so.4)

now_ns() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-12s %5s %11s %11s %11s %11s %8s %8s %8s %9s\n' file runs "dwsynth ms" "dwcheck ms" "prove=all" "decode ms" \
    synth/dec check/dec all/dec "peak MiB"
for f in "${files[@]}"; do
    [ -f "$f" ] || { echo "bench: $f: missing, skipped"; continue; }
    size=$(stat -c %s "$f")
    runs=$(( size > 8000000 ? 5 : 11 ))
    : > /tmp/bench.$$.s; : > /tmp/bench.$$.r; : > /tmp/bench.$$.c; : > /tmp/bench.$$.a
    for ((i = 0; i < runs; i++)); do
        t0=$(now_ns); "$dwsynth" "$f" > /dev/null 2>&1; t1=$(now_ns)
        "$ref" "$f" > /dev/null; t2=$(now_ns)
        "$dwcheck" -j1 --fail-on=never "$f" > /dev/null 2>&1; t3=$(now_ns)
        "$dwcheck" -j1 --fail-on=never --prove=all "$f" > /dev/null 2>&1; t4=$(now_ns)
        echo $((t1 - t0)) >> /tmp/bench.$$.s
        echo $((t2 - t1)) >> /tmp/bench.$$.r
        echo $((t3 - t2)) >> /tmp/bench.$$.c
        echo $((t4 - t3)) >> /tmp/bench.$$.a
    done
    /usr/bin/time -o /tmp/bench.$$.m -f '%M' "$dwsynth" "$f" > /dev/null 2>&1
    peak=$(tail -1 /tmp/bench.$$.m)
    s=$(median < /tmp/bench.$$.s); r=$(median < /tmp/bench.$$.r); c=$(median < /tmp/bench.$$.c)
    a=$(median < /tmp/bench.$$.a)
    awk -v f="$(basename "$f")" -v n="$runs" -v s="$s" -v r="$r" -v c="$c" -v a="$a" -v m="$peak" \
        'BEGIN { printf "%-12s %5d %11.1f %11.1f %11.1f %11.1f %8.2f %8.2f %8.2f %9.0f\n", f, n, s / 1e6, c / 1e6, a / 1e6,
                 r / 1e6, s / r, c / r, a / r, m / 1024 }'
done
rm -f /tmp/bench.$$.s /tmp/bench.$$.r /tmp/bench.$$.c /tmp/bench.$$.a /tmp/bench.$$.m
echo "ratios = median wall time / bare Capstone decode (targets: dwsynth <= 3, dwcheck <= 4;"
echo "all/dec: dwcheck --prove=all, no target);"
echo "peak = max RSS of one dwsynth run"
