#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
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
#      document printed parses;
#   5. dwcheck's audit of .sframe (verify/sframe/sframe_check; the JSON lines judged
#      by tests/sframe/sframe_audit.py): over the corpus of part 1 and the
#      annotate tests' assembly, every SFrame row checked and no error of
#      an SFrame kind but the DWARF rows' own, repeated, with every other
#      finding as without .sframe; shapes.s's cfa_in_r10 (gas 2.40 writes
#      `.cfi_def_cfa %r10, 0` as CFA = rsp+0) found at its one address and
#      nothing else in the file; tests/sframe/audit.s's functions, one per
#      kind of finding, and a header whose fixed RA offset is wrong; the V2
#      and V3 rewrites audited as V1; mutated sections (part 4's mutations,
#      on a V1 and a V3 seed) through dwcheck under the sanitizers when a
#      sanitizer build's dwcheck with the audit is at hand: no crash, every
#      file audited, the targeted mutations reported malformed-sframe with
#      their reasons, every change of rows noticed.
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

# ---- 5. dwcheck: every SFrame row judged in the synthesised states --------------
# (verify/sframe/sframe_check; tests/sframe/sframe_audit.py judges the JSON lines)
dwcheck=$build/bin/dwcheck
audit=$here/sframe_audit.py
mkdir -p "$work/nosf" "$work/audit"

# without_sframe FILE...: copies of FILEs in $work/nosf without .sframe (the
# same bytes otherwise: the build without --gsframe, to compare with).
without_sframe() {
    local f
    for f in "$@"; do
        objcopy --remove-section .sframe "$f" "$work/nosf/$(basename "$f")" || return 1
    done
}
# audit_pair NAME [--every-row] FILE...: dwcheck's lines over FILEs with
# and without .sframe, and their SFrame tables, judged by sframe_audit.py
# corpus (with --every-row: every SFrame row checked).
audit_pair() {
    local name=$1 every=
    shift
    [ "$1" = --every-row ] && every=$1 && shift
    without_sframe "$@" || return 1
    "$dwcheck" --format=json --fail-on=never -j2 "$@" > "$work/audit/$name.with" 2> "$work/audit/$name.err"
    "$dwcheck" --format=json --fail-on=never -j2 "${@/#*\//$work/nosf/}" > "$work/audit/$name.without" \
        2>> "$work/audit/$name.err"
    "$dwtable" --sframe --format=json "$@" > "$work/audit/$name.tables" 2>> "$work/audit/$name.err"
    python3 "$audit" corpus $every "$work/audit/$name.with" "$work/audit/$name.without" "$work/audit/$name.tables"
}

# 5a. The corpus built with --gsframe: every SFrame row checked; no error of
#     an SFrame kind that is not the DWARF row's own, but at the heads of
#     gcc's stack-clash probe loops, whose `.cfi_def_cfa %r11, N` gas 2.40
#     writes as sp+N: wrong on the loop's first turn, which synthesis's
#     state on the first path into the loop shows, and which readelf and
#     objdump show too (sframe_audit.py's gas_r11_row; the rest of such a
#     row, where the joined turns leave rsp unknown, is an
#     sframe-eh-frame-differ warning); and the other findings those of the
#     file without .sframe.
linked=()
for f in "$work"/bin/*; do
    case "$f" in *.o|*/shapes.so) ;; *) linked+=("$f") ;; esac
done
if out=$(audit_pair corpus --every-row "${linked[@]}"); then
    ok "dwcheck over the corpus built with --gsframe, other findings as without .sframe: $(head -1 <<< "$out")"
    sed 's/^/# /' <<< "$out" | tail -n +2
else
    not_ok "dwcheck over the corpus with SFrame" "$out"
fi

# 5b. shapes.s: gas 2.40 writes cfa_in_r10's `.cfi_def_cfa %r10, 0` as
#     CFA = rsp+0 (at the nop after the lea, 5 bytes in): that address is an
#     sframe-cfa-mismatch, and nothing else is found but escaped's missing
#     FDE (.cfi_escape: gas drops it).
sym() { printf '0x%x' $((16#$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }') + ${3:-0})); }
so=$work/bin/shapes.so
"$dwcheck" --format=json --fail-on=never "$so" > "$work/audit/shapes.json"
if out=$(python3 "$audit" expect "$work/audit/shapes.json" "sframe-cfa-mismatch@$(sym "$so" cfa_in_r10 5)/1" \
             "sframe-missing-fde@$(sym "$so" escaped)"); then
    ok "shapes.so: gas's CFA in r10 written as rsp+0 found at cfa_in_r10+0x5 and nowhere else; escaped's FDE missing"
else
    not_ok "shapes.so: the CFA in r10 found at cfa_in_r10+0x5, nothing else" "$out"
fi
# Its line of figures, and --merge of its JSON line (read back: the same line, the same text).
"$dwcheck" --fail-on=never "$so" > "$work/audit/shapes.txt"
"$dwcheck" --merge --fail-on=never "$work/audit/shapes.json" > "$work/audit/shapes.merged.txt" 2>&1
"$dwcheck" --merge --format=json --fail-on=never "$work/audit/shapes.json" > "$work/audit/shapes.merged.json" 2>&1
if grep -q "; SFrame V1: 9 FDEs, [0-9]* addresses checked in [0-9]* rows, 0 unchecked; 1 errors, 0 warnings, 1 notes$" \
        "$work/audit/shapes.txt" && cmp -s "$work/audit/shapes.txt" "$work/audit/shapes.merged.txt" &&
   cmp -s "$work/audit/shapes.json" "$work/audit/shapes.merged.json"; then
    ok "the line of figures counts SFrame's; --merge reads the JSON line back to the same text and line"
else
    not_ok "SFrame's figures, and --merge" "$(cat "$work/audit/shapes.txt"; diff "$work/audit/shapes.txt" "$work/audit/shapes.merged.txt")"
fi

# 5c. tests/sframe/audit.s: a wrong rbp slot (DWARF's and SFrame's), an
#     outermost frame SFrame V1 cannot say, functions gas drops (DRAP,
#     .cfi_register) with their reasons; and the same shapes.so whose header
#     puts the return address at CFA-16: sframe-ra-mismatch in each of its 8
#     functions that SFrame covers, at their first address.
cc -shared -nostdlib -Wa,--gsframe "$here/audit.s" -o "$work/audit.so" 2> "$work/logs/audit"
a=$work/audit.so
"$dwcheck" --format=json --fail-on=never "$a" > "$work/audit/audit.json"
if out=$(python3 "$audit" expect "$work/audit/audit.json" "reg-mismatch@$(sym "$a" wrong_slot 1)/2" \
             "sframe-fp-mismatch@$(sym "$a" wrong_slot 1)/2" "sframe-eh-frame-differ@$(sym "$a" thread_start)/2" \
             "sframe-missing-fde@$(sym "$a" drap)" "sframe-missing-fde@$(sym "$a" in_register)") &&
   grep -q "DWARF expression (GCC's DRAP" "$work/audit/audit.json" &&
   grep -q "keeps rbx in another register" "$work/audit/audit.json"; then
    ok "audit.s: sframe-fp-mismatch, sframe-eh-frame-differ, sframe-missing-fde (DRAP, .cfi_register) where they are, nothing else"
else
    not_ok "audit.s: the SFrame findings of each function" "$out"
fi
python3 - "$here" "$so" "$work/ra16.so" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import sframe_tool
data = bytearray(open(sys.argv[2], "rb").read())
_, offset, _, _ = sframe_tool.sframe_of(data)
data[offset + 6] = 0xf0              # the header's fixed RA offset: -16
open(sys.argv[3], "wb").write(data)
PY
ra_expect=()
for fn in leaf framed pushes big_frames long_2 long_4 rbp_based cfa_in_r10; do
    ra_expect+=("sframe-ra-mismatch@$(sym "$so" $fn)")
done
"$dwcheck" --format=json --fail-on=never "$work/ra16.so" > "$work/audit/ra16.json"
if out=$(python3 "$audit" expect "$work/audit/ra16.json" "${ra_expect[@]}" "sframe-cfa-mismatch@$(sym "$so" cfa_in_r10 5)" \
             "sframe-missing-fde@$(sym "$so" escaped)"); then
    ok "an SFrame header's fixed RA offset of -16: sframe-ra-mismatch over each function SFrame covers"
else
    not_ok "an SFrame header's fixed RA offset of -16: sframe-ra-mismatch in each function" "$out"
fi

# 5c'. SFrame V3's flexible rows (FLEX FDE: CFA = *(rbp-8), rbp saved at
#     *(rbp+0)), written for audit.s's drap, GCC's DRAP prologue, in place
#     of its V1 section: every row checked, the dereferencing rules proved;
#     with rbp said to be at *(rbp-8), the prover refutes that rule, with a
#     counterexample (sframe-fp-mismatch at drap+0x11, 4 addresses).
drap_v3_audit() {   # NAME [FP_OFFSET]: its dwcheck JSON line in $work/audit/NAME.json
    # shellcheck disable=SC2086
    python3 "$audit" drap-v3 "$(sym "$a" drap)" "$work/$1.sec" ${2:-} &&
        objcopy --rename-section .sframe=.sframe_v1 --add-section ".sframe=$work/$1.sec" "$a" "$work/$1.so" &&
        "$dwcheck" --format=json --fail-on=never "$work/$1.so" > "$work/audit/$1.json"
}
if drap_v3_audit drap3 && drap_v3_audit drap3-wrong -8 &&
   python3 - "$work/audit/drap3.json" "$work/audit/drap3-wrong.json" "$(sym "$a" drap 0x11)" <<'PY'
import json, sys
right, wrong = (json.load(open(p)) for p in sys.argv[1:3])
def errors(r):
    return [(f["kind"], f["address"], f["addresses"], "counterexample" in f) for f in r["findings"]
            if f["kind"].startswith("sframe-") and f["severity"] == "error"]
ok = (right["sframe"]["version"] == 3 and right["sframe"]["rows_checked"] == 7 and right["sframe"]["unchecked"] == 0
      and not errors(right) and errors(wrong) == [("sframe-fp-mismatch", int(sys.argv[3], 16), 4, True)])
sys.exit(0 if ok else 1)
PY
then
    ok "V3 flexible rows of a DRAP prologue: all 7 checked, *(rbp-8) proved; rbp said at *(rbp-8) refuted with a counterexample"
else
    not_ok "V3 flexible rows of a DRAP prologue" "$(cat "$work/audit/drap3.json" "$work/audit/drap3-wrong.json" 2>&1 | cut -c1-600)"
fi

# 5d. The annotate tests' assembly with --gsframe: checked.s as written, and
#     what dwsynth annotate writes into the others (their CFI is its; not
#     syntax.s, which does not assemble).  As 5a; checked.s's wrong_cfi and
#     problems.s's two_in_one have wrong DWARF rows on purpose, which their
#     SFrame rows repeat.
dwsynth=$build/bin/dwsynth
mkdir -p "$work/annotate"
ann=()
for f in "$root"/tests/annotate/*.s "$root"/tests/annotate/*.S; do
    b=$(basename "$f")
    flags=
    [ "$b" = cpp.S ] && flags=-DFRAME=32
    if ! grep -q '\.cfi_startproc' "$f"; then
        # shellcheck disable=SC2086
        "$dwsynth" annotate "$f" -o "$work/annotate/$b" -- $flags > /dev/null 2>&1
        f=$work/annotate/$b
    fi
    grep -q '\.cfi_startproc' "$f" 2> /dev/null || continue
    # A shared object, or (code that is not position-independent) a program
    # whose calls out stay unresolved: only its tables and code are read.
    lib=$work/annotate/${b%.*}.so
    flags="$flags -I$root/tests/annotate -Wa,--gsframe"
    # shellcheck disable=SC2086
    cc -shared -nostdlib $flags "$f" -o "$lib" 2>> "$work/logs/annotate" ||
        cc -nostdlib -no-pie -Wl,--unresolved-symbols=ignore-all -Wl,-e,0 $flags "$f" -o "$lib" \
            2>> "$work/logs/annotate" && ann+=("$lib")
done
if [ ${#ann[@]} -ge 5 ] && out=$(audit_pair annotate --every-row "${ann[@]}"); then
    ok "dwcheck over the annotate tests' assembly built with --gsframe, as above: $(head -1 <<< "$out")"
    sed 's/^/# /' <<< "$out" | tail -n +2
else
    not_ok "dwcheck over the annotate tests' assembly with SFrame (${#ann[@]} files built)" "${out:-$(tail -5 "$work/logs/annotate")}"
fi

# 5e. The same tables as V2 and V3 (part 3's rewrites, in place of the V1
#     section): the same SFrame figures and findings (by kind, address and
#     count).
same_audit=0 v_bad=()
for f in "$work"/bin/gcc-O2-fp-* "$so" "$a"; do
    "$dwcheck" --format=json --fail-on=never "$f" > "$work/audit/v1.json"
    for v in 2 3; do
        python3 "$tool" convert "$f" $v "$work/sec$v" &&
            objcopy --rename-section .sframe=.sframe_v1 --add-section ".sframe=$work/sec$v" "$f" "$work/audit/v$v.so" ||
            { v_bad+=("$f: V$v rewrite failed"); continue; }
        "$dwcheck" --format=json --fail-on=never "$work/audit/v$v.so" > "$work/audit/v$v.json"
        if python3 - "$work/audit/v1.json" "$work/audit/v$v.json" $v <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
version = b["sframe"].pop("version")
a["sframe"].pop("version")
# A missing FDE's reason may name what the version cannot say (V1: an
# outermost frame): the findings compare by kind, place and addresses.
same = [sorted((f["kind"], f["severity"], f["address"], f["addresses"]) for f in r["findings"]) for r in (a, b)]
sys.exit(0 if a["sframe"] == b["sframe"] and same[0] == same[1] and version == int(sys.argv[3]) else 1)
PY
        then
            same_audit=$((same_audit + 1))
        else
            v_bad+=("$(basename "$f") as V$v: $(diff "$work/audit/v1.json" "$work/audit/v$v.json" | head -3)")
        fi
    done
done
[ ${#v_bad[@]} -eq 0 ] && [ $same_audit -gt 0 ] && ok "V2 and V3: $same_audit rewritten sections audited as their V1 original" \
    || not_ok "V2 and V3 audited as V1" "$(printf '%s\n' "${v_bad[@]:0:3}")"

# 5f. Mutated .sframe sections through dwcheck, under AddressSanitizer and
#     UndefinedBehaviorSanitizer when a sanitizer build's dwcheck is at hand
#     (BUILD's, BUILD-san's, build-san's: one with the SFrame audit), else
#     plain: no crash, every file audited; each targeted mutation a
#     malformed-sframe finding with its reason, and every mutant whose rows
#     differ from the seed's noticed.  Seeds: part 4's V1 program, and
#     shapes.so with its section as V3.
san_check=$dwcheck sanitized=no
for cand in "$dwcheck" "${build%/}-san/bin/dwcheck" "$root/build-san/bin/dwcheck"; do
    if [ -x "$cand" ] && nm -D "$cand" 2>/dev/null | grep -q __asan_init && nm "$cand" | grep -q ' sframe_check_open$'; then
        san_check=$cand sanitized=yes
        break
    fi
done
python3 "$tool" convert "$so" 3 "$work/sec3" &&
    objcopy --rename-section .sframe=.sframe_v1 --add-section ".sframe=$work/sec3" "$so" "$work/shapes-v3.so"
mut_bad=() mut_runs=0
for seed in "$seed_file" "$work/shapes-v3.so"; do
    d=$work/dwcheck-mutants/$(basename "$seed")
    python3 "$tool" mutants "$seed" "$d" "${SFRAME_MUTANTS:-200}" 7 .sframe || { mut_bad+=("writing the mutants of $seed"); continue; }
    "$dwcheck" --format=json --fail-on=never "$seed" > "$d/seed.json"
    "$dwtable" --sframe --format=json "$seed" > "$d/seed.rows" 2> /dev/null
    while read -r name _; do
        ASAN_OPTIONS=detect_leaks=1 timeout 60 "$san_check" --format=json --fail-on=never -j1 "$d/$name" \
            > "$d/$name.json" 2> "$d/$name.err"
        rc=$?
        mut_runs=$((mut_runs + 1))
        # (exit 2 only where the ELF file is unreadable: sframe_audit.py says which)
        if [ $rc -ne 0 ] && [ $rc -ne 2 ] || grep -qE 'Sanitizer|runtime error' "$d/$name.err" ||
           { [ $rc -eq 2 ] && ! grep -q "^dwcheck: $d/$name: ." "$d/$name.err"; }; then
            mut_bad+=("$(basename "$seed")/$name: exit $rc: $(grep -m2 -E 'ERROR|runtime error|.' "$d/$name.err")")
        fi
        "$dwtable" --sframe --format=json "$d/$name" > "$d/$name.rows" 2> /dev/null
    done < "$d/list"
    out=$(python3 "$audit" mutants "$d/seed.json" "$d/list" "$d" "$d/seed.rows") \
        && echo "# $(basename "$seed"): $out" || mut_bad+=("$(basename "$seed"): $out")
done
if [ ${#mut_bad[@]} -eq 0 ] && [ $mut_runs -gt 0 ]; then
    what="no crash, each audited; malformed-sframe for each targeted mutation, with its reason"
    ok "mutated sections: $mut_runs runs of dwcheck (sanitizers: $sanitized), $what"
else
    not_ok "mutated sections through dwcheck (sanitizers: $sanitized): ${#mut_bad[@]} problems in $mut_runs runs" \
        "$(printf '%s\n' "${mut_bad[@]:0:4}")"
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
