#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The readelf oracle: dwtable FILE must print what `readelf -wF FILE` prints,
# from the first CIE/FDE line to the end, for system binaries; and the
# section parser must list what libdwarf lists, entry by entry, and find
# each FDE again through .eh_frame_hdr (BUILD/tests/frame_parse_libdwarf).
#
#   tests/oracle/run.sh BUILD --sample N   every k-th file, N files (inside make check)
#   tests/oracle/run.sh BUILD --all        every file (make check-full)
#
# Normalisation rules (each is a readelf behaviour, not a dwtable difference):
#  1. Section headings: readelf writes "Contents of the S section (loaded from F):"
#     when it has found a separate debug file through .gnu_debuglink or the
#     build-id; the heading is not table content, so both sides drop it.
#  2. "section '.eh_frame' has the NOBITS type - its contents are unreliable.":
#     readelf's warning about the separate debug file's empty .eh_frame
#     (Debian -dbg packages); that file has no table to compare.
# Files are compared whole; none is excluded.  A file neither tool prints a
# table for (no .eh_frame) passes when dwtable says so on stderr.
set -u
build=${1:?usage: run.sh BUILD --sample N | --all}
mode=${2:---sample}
sample=${3:-60}
dwtable=$build/bin/dwtable
libdwarf_oracle=$build/tests/frame_parse_libdwarf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

is_elf() { [ -f "$1" ] && [ "$(head -c4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }

files=()
for f in /usr/lib/x86_64-linux-gnu/*.so* /usr/bin/*; do
    is_elf "$f" && files+=("$f")
done
if [ "$mode" = "--sample" ] && [ "${#files[@]}" -gt "$sample" ]; then
    step=$(( ${#files[@]} / sample ))
    picked=()
    for ((i = 0; i < ${#files[@]}; i += step)); do picked+=("${files[$i]}"); done
    # Always include the two large references of the benchmarks.
    for f in /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libz3.so.4; do
        [ -f "$f" ] && picked+=("$f")
    done
    files=("${picked[@]}")
fi

normalise() {
    sed -e '/^Contents of the .* section.*:$/d' \
        -e "/^section '.*' has the NOBITS type - its contents are unreliable\.\$/d" \
        -e '/^File: /d'
}

compare_one() {
    local f=$1 id=$2
    local r="$tmp/$id.readelf" d="$tmp/$id.dwtable" e="$tmp/$id.err"
    readelf -wF "$f" 2>/dev/null | normalise > "$r"
    "$dwtable" "$f" 2> "$e" | normalise > "$d"
    local rc=${PIPESTATUS[0]}
    local parser
    parser=$("$libdwarf_oracle" "$f" 2>&1)
    local prc=$?
    if [ "$prc" -ne 0 ] && [ "$prc" -ne 2 ]; then
        echo "FAIL $f (the parser against libdwarf)"
        head -8 <<< "$parser" | sed 's/^/    /'
    elif [ ! -s "$r" ] && [ "$rc" -eq 2 ] && grep -q 'no unwind information' "$e"; then
        echo "ok $f (no unwind sections)"
    elif [ "$rc" -eq 0 ] && cmp -s "$r" "$d"; then
        echo "ok $f"
    else
        echo "FAIL $f (dwtable exit $rc)"
        diff "$r" "$d" | head -8 | sed 's/^/    /'
        head -3 "$e" | sed 's/^/    /'
    fi
    rm -f "$r" "$d" "$e"
}
# (The file travels as $1, not $0: bash named after a file called rbash runs
# restricted and refuses redirections.)
export -f compare_one normalise
export dwtable libdwarf_oracle tmp

total=${#files[@]}
printf '%s\n' "${files[@]}" | awk '{print NR "\t" $0}' |
    xargs -P "$(nproc)" -d '\n' -n 1 bash -c 'IFS=$'"'"'\t'"'"' read -r id f <<< "$1"; compare_one "$f" "$id"' compare \
    > "$tmp/results"
pass=$(grep -c '^ok ' "$tmp/results")
fail=$((total - pass))
grep -v '^ok ' "$tmp/results" | head -60
echo "readelf oracle: $pass of $total files identical"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
