#!/bin/bash
# dwsynth against a bare Capstone decode of the same executable sections, in
# the same run (bench/decode_reference: Capstone with the same settings —
# x86_64, details on — and nothing else).  Runs alternate between the two;
# medians are compared.  Target (synthesis issue): ratio <= 3, and peak memory
# on libz3 <= 1 GiB.
set -u
build=${1:?usage: dwsynth_vs_decode.sh BUILD}
dwsynth=$build/bin/dwsynth
ref=$build/bench/decode_reference
files=(/usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libz3.so.4)

now_ns() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-12s %5s %12s %12s %7s %10s\n' file runs "dwsynth ms" "decode ms" ratio "peak MiB"
for f in "${files[@]}"; do
    [ -f "$f" ] || { echo "bench: $f: missing, skipped"; continue; }
    size=$(stat -c %s "$f")
    runs=$(( size > 8000000 ? 5 : 11 ))
    : > /tmp/bench.$$.s; : > /tmp/bench.$$.r
    for ((i = 0; i < runs; i++)); do
        t0=$(now_ns); "$dwsynth" "$f" > /dev/null 2>&1; t1=$(now_ns)
        "$ref" "$f" > /dev/null; t2=$(now_ns)
        echo $((t1 - t0)) >> /tmp/bench.$$.s
        echo $((t2 - t1)) >> /tmp/bench.$$.r
    done
    /usr/bin/time -o /tmp/bench.$$.m -f '%M' "$dwsynth" "$f" > /dev/null 2>&1
    peak=$(tail -1 /tmp/bench.$$.m)
    s=$(median < /tmp/bench.$$.s); r=$(median < /tmp/bench.$$.r)
    awk -v f="$(basename "$f")" -v n="$runs" -v s="$s" -v r="$r" -v m="$peak" \
        'BEGIN { printf "%-12s %5d %12.1f %12.1f %7.2f %10.0f\n", f, n, s / 1e6, r / 1e6, s / r, m / 1024 }'
done
rm -f /tmp/bench.$$.s /tmp/bench.$$.r /tmp/bench.$$.m
echo "ratio = dwsynth / bare Capstone decode, median wall time (target <= 3); peak = max RSS of one dwsynth run"
