#!/bin/bash
# The README's first command (`make run`): print the unwind table of a real
# binary (the system C library by default), look up one function's row, and
# cross-check the whole table against readelf -wF.
set -u
build=${1:?usage: demo.sh BUILD [FILE]}
file=${2:-/usr/lib/x86_64-linux-gnu/libc.so.6}
dwtable=$build/bin/dwtable
out=$build/$(basename "$file").table

if ! "$dwtable" "$file" > "$out"; then
    echo "dwtable could not read $file" >&2
    exit 2
fi
lines=$(wc -l < "$out")
fdes=$(grep -c ' FDE cie=' "$out")
cies=$(grep -c ' CIE "' "$out")
echo "== dwtable $file: $cies CIEs, $fdes FDEs, $lines lines (full table in $out); the first FDEs:"
awk '/ FDE cie=/ { n++ } n >= 1 && n <= 4' "$out"

func=$(nm -D --defined-only "$file" 2>/dev/null | awk '$2 == "T" && $3 ~ /^(malloc|main)(@|$)/ { sub(/@.*/, "", $3); print $1, $3; exit }')
if [ -n "$func" ]; then
    set -- $func
    addr=$(printf '0x%x' $((16#$1 + 4)))
    echo
    echo "== the row that covers $2+4 ($addr): dwtable --address=$addr"
    "$dwtable" --address="$addr" "$file"
fi

echo
if diff -q <(readelf -wF "$file" 2>/dev/null | sed -e '/^Contents of the/d' -e "/NOBITS type/d") \
           <(sed -e '/^Contents of the/d' "$out") > /dev/null; then
    echo "== cross-check: identical to readelf -wF ($lines lines)"
else
    echo "== cross-check: DIFFERS from readelf -wF" >&2
    exit 1
fi
