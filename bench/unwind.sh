#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Unwinding benchmark: compile the eh_elfs the benchmark's stacks need (the
# benchmark itself and libc), print libc's eh_elf size against its DWARF
# tables and its compile time, then run build/bench/unwind_bench, which
# prints ns/frame for every unwinder on the same stacks and the ratios.
set -u
build=${1:?usage: unwind.sh BUILD}
dwcompile=$build/bin/dwcompile
exe=$build/bench/unwind_bench
eh=$build/bench/eh
mkdir -p "$eh"
libc=$(ldd "$exe" | awk '$1 ~ /^libc\.so/ { print $3 }')

section_size() {   # FILE SECTION...: the sum of the sections' sizes
    local file=$1; shift
    local total=0 s hex
    for s in "$@"; do
        hex=$(readelf -SW "$file" | sed 's/^ *\[ *[0-9]*\] *//' | awk -v n="$s" '$1 == n { print $5 }')
        total=$((total + 16#${hex:-0}))
    done
    echo $total
}

"$dwcompile" -q -o "$eh/unwind_bench.eh_elf.so" "$exe" || exit 1
# libc's tables have CFI errors dwcheck reports (glibc's mpn routines):
# compiled with --force, as the report of those findings says.
start=$(date +%s.%N)
"$dwcompile" -q --force -o "$eh/libc.so.6.eh_elf.so" "$libc" > /dev/null 2>&1 || exit 1
end=$(date +%s.%N)
# Every other library the stacks pass through (libz3, libstdc++, libgcc_s,
# libunwind ...): without --force where verification allows it.
forced=()
for lib in $(ldd "$exe" | awk '$3 ~ /^\// && $1 !~ /^libc\.so/ { print $3 }'); do
    out=$eh/$(basename "$lib").eh_elf.so
    if ! "$dwcompile" -q -o "$out" "$lib" > /dev/null 2>&1; then
        "$dwcompile" -q --force -o "$out" "$lib" > /dev/null 2>&1 && forced+=("$(basename "$lib")")
    fi
done
[ ${#forced[@]} -gt 0 ] && echo "eh_elfs compiled with --force (verification errors): libc.so.6 ${forced[*]}"
code=$(section_size "$eh/libc.so.6.eh_elf.so" .text .rodata)
dwarf=$(section_size "$libc" .eh_frame .eh_frame_hdr)
awk -v c="$code" -v d="$dwarf" -v t="$(echo "$end - $start" | bc)" 'BEGIN {
    printf "libc.so.6 eh_elf: .text+.rodata %d bytes, .eh_frame+.eh_frame_hdr %d bytes: %.2fx (target <= 1.5); compiled in %.1f s (target <= 60)\n", c, d, c / d, t }'
DWUNWIND_PATH=$eh "$exe" --seconds "${UNWIND_SECONDS:-2}"
