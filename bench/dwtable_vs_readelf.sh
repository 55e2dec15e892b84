#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwtable against readelf -wF on the same files, in the same run: runs
# alternate between the two tools and the median wall times are compared.
# Target (semantics issue): ratio <= 1.5.
set -u
build=${1:?usage: dwtable_vs_readelf.sh BUILD}
dwtable=$build/bin/dwtable
files=(/usr/lib/x86_64-linux-gnu/libz3.so.4 /usr/lib/x86_64-linux-gnu/libc.so.6)

now_ns() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-12s %6s %12s %12s %8s\n' file runs "dwtable ms" "readelf ms" ratio
for f in "${files[@]}"; do
    [ -f "$f" ] || { echo "bench: $f: missing, skipped"; continue; }
    size=$(stat -c %s "$f")
    runs=$(( size > 8000000 ? 9 : 31 ))
    : > /tmp/bench.$$.d; : > /tmp/bench.$$.r
    "$dwtable" "$f" > /dev/null; readelf -wF "$f" > /dev/null   # warm the page cache
    for ((i = 0; i < runs; i++)); do
        t0=$(now_ns); "$dwtable" "$f" > /dev/null; t1=$(now_ns)
        readelf -wF "$f" > /dev/null 2>&1; t2=$(now_ns)
        echo $((t1 - t0)) >> /tmp/bench.$$.d
        echo $((t2 - t1)) >> /tmp/bench.$$.r
    done
    d=$(median < /tmp/bench.$$.d); r=$(median < /tmp/bench.$$.r)
    awk -v f="$(basename "$f")" -v n="$runs" -v d="$d" -v r="$r" \
        'BEGIN { printf "%-12s %6d %12.2f %12.2f %8.2f\n", f, n, d / 1e6, r / 1e6, d / r }'
done
rm -f /tmp/bench.$$.d /tmp/bench.$$.r
echo "ratio = dwtable / readelf -wF median wall time (target <= 1.5)"
