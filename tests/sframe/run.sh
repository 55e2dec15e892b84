#!/bin/bash
# SFrame (make check-sframe BUILD): dwtable --sframe against binutils'
# readelf and libsframe, on files assembled here with `as --gsframe`
# (Debian 12: binutils 2.40, SFrame V1):
#   1. the corpus sources (corpus/*.c, *.cc) built by gcc and by clang (with
#      GNU as: -fno-integrated-as) at -O0..-Os, with and without frame
#      pointers, and tests/sframe/shapes.s (hand-written CFI: frame pointer,
#      remember/restore, 2- and 4-byte offsets and FRE addresses, CFI that
#      SFrame cannot hold) as an object and as a shared library:
#      `dwtable --sframe F` prints byte for byte what `readelf --sframe F`
#      prints, and exits 0; and so do V1 variants of one of them that
#      readelf 2.40 prints through its odd paths (both flags, a fixed FP
#      offset, a header without the fixed RA, mangled-RA bits);
#   2. the rows of H (dwtable --sframe --format=json) against Debian 12's
#      libsframe (binutils-dev), which decodes the section itself: at every
#      address of every PCINC function, the row its own lookup
#      (sframe_find_fre) finds; every FRE of a PCMASK (PLT) function, in
#      every 16-byte block (tests/sframe/libsframe_oracle.c);
#   3. the same sections rewritten as V2 and V3 (tests/sframe/sframe_tool.py
#      convert, each version's FDE layout, PC-relative start addresses) give
#      V1's rows, and print;
#   4. mutated sections (header fields: version, flags, magic, ABI, counts,
#      lengths and offsets; FDE and FRE fields; a truncated section; random
#      bytes, in V1 and in V3) through dwtable, text and JSON, under
#      AddressSanitizer and UndefinedBehaviorSanitizer when a sanitizer
#      build's dwtable is at hand (BUILD's, else build-san's), else plain:
#      no crash and no sanitizer report; a mutant that no longer decodes
#      exits 2 with `dwtable: FILE: .sframe at offset 0xN: reason`, and each
#      targeted one with the reason its mutation calls for; every JSON
#      document printed parses.
# Skips (exit 0) when the assembler has no --gsframe.
# SFRAME_KEEP=1 keeps the work directory (its path is printed).
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib.sh"
dwtable=$build/bin/dwtable
tool=$here/sframe_tool.py
work=$(mktemp -d "${TMPDIR:-/tmp}/sframe-test.XXXXXX") || exit 1
if [ -n "${SFRAME_KEEP:-}" ]; then
    echo "sframe: work directory kept in $work"
else
    trap 'rm -rf "$work"' EXIT
fi

if ! printf 'nop\n' | as --gsframe -o "$work/probe.o" - 2>/dev/null; then
    echo "sframe: this assembler has no --gsframe (binutils before 2.40): skipped"
    exit 0
fi

# ---- 1. build and compare with readelf ----------------------------------------
mkdir -p "$work/bin" "$work/logs"
jobs=()
for src in "$root"/corpus/*.c "$root"/corpus/*.cc; do
    prog=$(basename "${src%.*}")
    for cc in gcc clang; do
        for o in O0 O1 O2 O3 Os; do
            for fp in fp omitfp; do
                jobs+=("$cc $o $fp $src $work/bin/$cc-$o-$fp-$prog")
            done
        done
    done
done
build_one() {
    local cc=$1 o=$2 fp=$3 src=$4 out=$5 driver flags
    case "$src" in *.cc) driver=${cc/gcc/g++}; driver=${driver/clang/clang++} ;; *) driver=$cc ;; esac
    [ "$cc" = clang ] && driver="$driver -fno-integrated-as"
    flags="-$o -g0 -w -fasynchronous-unwind-tables -Wa,--gsframe"
    [ "$fp" = fp ] && flags="$flags -fno-omit-frame-pointer" || flags="$flags -fomit-frame-pointer"
    case "$src" in *large_frames*) flags="$flags -fstack-clash-protection" ;; esac
    $driver $flags -o "$out" "$src" 2> "${out%/bin/*}/logs/${out##*/}" || echo "$out"
}
export -f build_one
failed_builds=$(printf '%s\n' "${jobs[@]}" | xargs -P 2 -L 1 bash -c 'build_one "$@"' _)
[ -z "$failed_builds" ] && ok "built ${#jobs[@]} corpus programs with --gsframe" \
    || not_ok "building the corpus with --gsframe" "$failed_builds"
cc -c -Wa,--gsframe "$here/shapes.s" -o "$work/bin/shapes.o" 2> "$work/logs/shapes"
cc -shared -nostdlib -Wa,--gsframe "$here/shapes.s" -o "$work/bin/shapes.so" 2>> "$work/logs/shapes"

files=() same=0 differ=()
for f in "$work"/bin/*; do
    files+=("$f")
    readelf --sframe "$f" > "$work/r" 2>&1
    "$dwtable" --sframe "$f" > "$work/d" 2> "$work/e"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$work/r" "$work/d"; then
        same=$((same + 1))
    else
        differ+=("$(basename "$f") (exit $rc): $(head -2 "$work/e")
$(diff "$work/r" "$work/d" | head -6)")
    fi
done
if [ ${#differ[@]} -eq 0 ] && [ $same -gt 0 ]; then
    ok "readelf --sframe ($(readelf --version | head -1 | grep -o "[0-9][0-9.]*$")): dwtable --sframe identical on $same of ${#files[@]} files"
else
    not_ok "readelf --sframe: dwtable --sframe identical on $same of ${#files[@]} files" \
        "$(printf '%s\n' "${differ[@]:0:3}")"
fi

# readelf 2.40's odd paths, on V1 variants it still prints (stdout only: a
# fixed FP offset with FP words is malformed for H, and dwtable says so).
python3 "$tool" quirks "$work/bin/gcc-O2-fp-exceptions" "$work/quirks"
quirk_same=0 quirk_bad=()
for f in "$work"/quirks/*; do
    readelf --sframe "$f" > "$work/r" 2>&1
    "$dwtable" --sframe "$f" > "$work/d" 2> /dev/null
    cmp -s "$work/r" "$work/d" && quirk_same=$((quirk_same + 1)) \
        || quirk_bad+=("$(basename "$f"): $(diff "$work/r" "$work/d" | head -4)")
done
[ ${#quirk_bad[@]} -eq 0 ] && [ $quirk_same -gt 0 ] && ok "readelf 2.40's quirks: $quirk_same V1 variants (flags, fixed FP, RA not fixed, mangled RA) print alike" \
    || not_ok "readelf 2.40's quirks" "$(printf '%s\n' "${quirk_bad[@]:0:3}")"

# ---- 2. libsframe --------------------------------------------------------------
if [ -f /usr/include/sframe-api.h ] && cc -O1 -o "$work/oracle" "$here/libsframe_oracle.c" -lsframe 2> "$work/oracle.log"; then
    addrs=0 fres=0 nfiles=0 bad=()
    for f in "${files[@]}"; do
        case "$f" in *.o) continue ;; esac   # relocatable: start addresses unrelocated, FDEs unsorted
        addr=$(python3 "$tool" extract "$f" "$work/sec") || { bad+=("$f: no .sframe"); continue; }
        "$work/oracle" "$work/sec" "$addr" > "$work/oracle.out" 2>&1 || { bad+=("$f: $(head -1 "$work/oracle.out")"); continue; }
        "$dwtable" --sframe --format=json "$f" > "$work/json" 2> /dev/null
        if out=$(python3 "$tool" oracle "$work/json" "$work/oracle.out"); then
            read -r a n _ <<< "$(tail -1 <<< "$out")"
            addrs=$((addrs + a)) fres=$((fres + n)) nfiles=$((nfiles + 1))
        else
            bad+=("$(basename "$f"): $(head -3 <<< "$out")")
        fi
    done
    if [ ${#bad[@]} -eq 0 ] && [ $addrs -gt 0 ] && [ $fres -gt 0 ]; then
        ok "libsframe: its rows at $addrs addresses and $fres PLT FREs of $nfiles files are H's"
    else
        not_ok "libsframe: rows of $nfiles files agree, ${#bad[@]} differ" "$(printf '%s\n' "${bad[@]:0:3}")"
    fi
else
    echo "sframe: no libsframe headers (Debian's binutils-dev): the libsframe cross-check is skipped"
fi

# ---- 3. the same tables as V2 and V3 -------------------------------------------
rows() { python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["sections"][0]["entries"]
print(json.dumps([(x["pc_begin"], x["pc_end"], x["pc_type"], x["rows"]) for x in e]))' "$1"; }
converted=0 conv_bad=()
for f in "$work"/bin/gcc-O2-fp-* "$work"/bin/clang-O0-omitfp-* "$work/bin/shapes.so"; do
    "$dwtable" --sframe --format=json "$f" > "$work/v1.json" 2> /dev/null
    for v in 2 3; do
        python3 "$tool" convert "$f" $v "$work/sec$v" && objcopy --add-section ".sframe$v=$work/sec$v" "$f" "$work/conv$v" \
            || { conv_bad+=("$f: V$v rewrite failed"); continue; }
        "$dwtable" --sframe=".sframe$v" --format=json "$work/conv$v" > "$work/v$v.json" 2> "$work/e"
        rc=$?
        "$dwtable" --sframe=".sframe$v" "$work/conv$v" > "$work/v$v.txt" 2>> "$work/e" || rc=$?
        if [ $rc -eq 0 ] && [ "$(rows "$work/v1.json")" = "$(rows "$work/v$v.json")" ] \
                && grep -q "Version: SFRAME_VERSION_$v" "$work/v$v.txt"; then
            converted=$((converted + 1))
        else
            conv_bad+=("$(basename "$f") as V$v (exit $rc): $(head -2 "$work/e")")
        fi
    done
done
[ ${#conv_bad[@]} -eq 0 ] && [ $converted -gt 0 ] \
    && ok "V2 and V3: $converted rewritten sections give V1's rows" \
    || not_ok "V2 and V3 rewrites give V1's rows" "$(printf '%s\n' "${conv_bad[@]:0:3}")"
cp "$work/conv3" "$work/v3-seed"   # shapes.so as V3: a seed of the mutants below

# ---- 4. mutated sections -------------------------------------------------------
san_tool=$dwtable sanitized=no
for cand in "$dwtable" "$root/build-san/bin/dwtable"; do
    if [ -x "$cand" ] && nm -D "$cand" 2>/dev/null | grep -q __asan_init && "$cand" --help | grep -q -- --sframe; then
        san_tool=$cand sanitized=yes
        break
    fi
done
seed_file=$(ls "$work"/bin/gcc-O2-omitfp-exceptions)
python3 "$tool" mutants "$seed_file" "$work/m1" "${SFRAME_MUTANTS:-200}" 1 \
    && python3 "$tool" mutants "$work/v3-seed" "$work/m3" "${SFRAME_MUTANTS:-200}" 3 .sframe3 \
    || not_ok "writing the mutants"
runs=0 rejected=0 crashes=() wrong=()
while read -r dir name expect; do
    m=$work/$dir/$name
    for fmt in readelf json; do
        section=.sframe
        [ "$dir" = m3 ] && section=.sframe3
        ASAN_OPTIONS=detect_leaks=1 timeout 20 "$san_tool" --sframe=$section --format=$fmt "$m" > "$work/o" 2> "$work/e"
        rc=$?
        runs=$((runs + 1))
        [ $fmt = json ] && [ -s "$work/o" ] && { printf '%s ' "$dir/$name"; cat "$work/o"; } >> "$work/json.lines"
        if [ $rc -ne 0 ] && [ $rc -ne 2 ] || grep -qE 'Sanitizer|runtime error' "$work/e"; then
            crashes+=("$dir/$name $fmt: exit $rc: $(grep -m2 -E 'ERROR|runtime error|.' "$work/e")")
        elif [ $rc -eq 2 ] && ! grep -q "^dwtable: $m: ." "$work/e"; then
            wrong+=("$dir/$name $fmt: exit 2 without 'dwtable: FILE: reason': $(head -1 "$work/e")")
        elif [ "$expect" != any ] && { [ $rc -ne 2 ] || ! grep -qF "${expect//_/ }" "$work/e"; }; then
            wrong+=("$dir/$name $fmt: expected '${expect//_/ }', got exit $rc: $(head -1 "$work/e")")
        fi
        [ $rc -eq 2 ] && rejected=$((rejected + 1))
    done
done < <(sed 's|^|m1 |' "$work/m1/list"; sed 's|^|m3 |' "$work/m3/list")
targeted=$(cat "$work/m1/list" "$work/m3/list" | grep -vc " any$")
# Every JSON document printed, whole or cut short by a malformed FDE, parses.
bad_json=$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    name, doc = line.split(" ", 1)
    try:
        json.loads(doc)
    except ValueError as e:
        print(name, e)' "$work/json.lines")
[ -n "$bad_json" ] && wrong+=("JSON that does not parse: $bad_json")
if [ ${#crashes[@]} -eq 0 ] && [ ${#wrong[@]} -eq 0 ]; then
    ok "mutated sections: $runs runs of dwtable --sframe (sanitizers: $sanitized), no crash; $rejected reported malformed, each of the $targeted targeted mutations with its reason"
else
    not_ok "mutated sections: ${#crashes[@]} crashes, ${#wrong[@]} wrong reports in $runs runs (sanitizers: $sanitized)" \
        "$(printf '%s\n' "${crashes[@]:0:3}" "${wrong[@]:0:3}")"
fi

# ---- the front end -------------------------------------------------------------
"$dwtable" --help | grep -q -- '--sframe' && ok "--help names --sframe" || not_ok "--help names --sframe"
"$dwtable" --sframe "$work/probe.o" > /dev/null 2> "$work/e"; rc=$?
[ $rc -eq 2 ] && grep -q "^dwtable: $work/probe.o: no SFrame information" "$work/e" \
    && ok "a file without .sframe: exit 2, $(sed "s|$work/||" "$work/e")" \
    || not_ok "a file without .sframe: exit 2 (got $rc)" "$(cat "$work/e")"
plt=$(readelf -SW "$work/bin/gcc-O2-fp-recursion" | awk '$2 == ".plt" { print $4 }')
"$dwtable" --sframe --address=0x$plt "$work/bin/gcc-O2-fp-recursion" > "$work/d" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'func idx' "$work/d" && ok "--sframe --address: the FDE and FRE of an address" \
    || not_ok "--sframe --address (exit $rc)" "$(cat "$work/d")"
"$dwtable" --sframe --address=0x1 "$work/bin/gcc-O2-fp-recursion" > /dev/null 2>&1
[ $? -eq 1 ] && ok "--sframe --address of an address no FDE covers: exit 1" || not_ok "--sframe --address: exit 1"

finish sframe
