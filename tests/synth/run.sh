#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Synthesis tests: dwsynth against CFI written by hand (tests/synth/shapes.s),
# its output formats, bad input, and agreement with the compilers' own tables
# on a bounded sample of system binaries (and on the corpus when built).
set -u
build=${1:?usage: run.sh BUILD}
dwsynth=$build/bin/dwsynth
dwtable=$build/bin/dwtable
work=$build/tests/synth
mkdir -p "$work"
. "$(dirname "$0")/../lib.sh"

# figure LABEL OUTPUT: the percentage on the line starting with LABEL.
figure() { awk -v l="$1" 'index($0, l) { for (i = 1; i <= NF; i++) if ($i ~ /%$/) { sub(/%/, "", $i); print $i; exit } }' <<< "$2"; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# expect_figures NAME OUTPUT MIN_SYNTH MIN_CFA MIN_RA MIN_CALLEE
expect_figures() {
    local name=$1 out=$2 s c r k
    s=$(figure "synthesised row" "$out"); c=$(figure "CFA agrees (text)" "$out")
    r=$(figure "ra holds" "$out"); k=$(figure "callee-saved hold" "$out")
    if [ -n "$s" ] && at_least "$s" "$3" && at_least "$c" "$4" && at_least "$r" "$5" && at_least "$k" "$6"; then
        ok "$name: synthesised $s%, CFA $c%, ra $r%, callee-saved $k%"
    else
        not_ok "$name: synthesised ${s:-?}% (>= $3), CFA ${c:-?}% (>= $4), ra ${r:-?}% (>= $5), callee-saved ${k:-?}% (>= $6)" "$out"
    fi
}

# 1. Hand-written CFI is the oracle: full agreement on every figure.
shapes=$work/shapes.so
cc -shared -nostdlib -Wl,--build-id=none -o "$shapes" tests/synth/shapes.s || exit 1
expect_figures "shapes.s against its hand-written CFI" "$("$dwsynth" --compare --causes=20 "$shapes")" 100 100 100 100
# Stripped, the `.cold` fragment and the functions lose their names: the
# fragment is still recognised by the jumps into it.
strip -o "$work/shapes-stripped.so" "$shapes" || exit 1
expect_figures "shapes.s stripped" "$("$dwsynth" --compare --causes=20 "$work/shapes-stripped.so")" 100 100 100 100

# The rows of one function print exactly as dwtable prints the FDE's.
fde_rows() { awk -v pc="$1" '/ FDE / { on = index($0, "pc=" pc) > 0; next } on && /^[0-9a-f]+ / { print }'; }
lo=$(nm "$shapes" | awk '$3 == "pushes" { print $1 }')
want=$("$dwtable" "$shapes" | fde_rows "$lo")
got=$("$dwsynth" --function=pushes "$shapes" | grep -E '^[0-9a-f]{16} ')
[ -n "$want" ] && [ "$want" = "$got" ] && ok "pushes: dwsynth rows = dwtable rows" ||
    not_ok "pushes: dwsynth rows = dwtable rows" "$(diff <(echo "$want") <(echo "$got"))"

# 2. Formats.  CFI directives for `pushes`, derived by hand from its code:
# push %r12 (2 bytes), push %rbx (1), sub $40,%rsp (4).
cfi=$("$dwsynth" --function=pushes --format=cfi "$shapes")
for line in $'pushes+0x2:\t.cfi_def_cfa_offset 16' $'pushes+0x2:\t.cfi_offset %r12, -16' \
            $'pushes+0x3:\t.cfi_offset %rbx, -24' $'pushes+0x7:\t.cfi_def_cfa_offset 64'; do
    grep -qF "$line" <<< "$cfi" && ok "cfi: $line" || not_ok "cfi: $line" "$cfi"
done
json=$("$dwsynth" --format=json "$shapes")
grep -q '"name":"realigned","lo":[0-9]*,"hi":[0-9]*,"source":"fde","status":"ok"' <<< "$json" &&
    ok "json: function entry" || not_ok "json: function entry"
grep -q '"cfa":{"rule":"reg_offset","reg":"rbp","offset":16}' <<< "$json" &&
    ok "json: rbp-based CFA" || not_ok "json: rbp-based CFA"

# 3. Bad input: only the affected functions are unknown, with their reasons.
bad=$work/bad.so
cc -shared -nostdlib -Wl,--build-id=none -o "$bad" tests/synth/bad.s || exit 1
out=$("$dwsynth" "$bad" 2> "$work/bad.err"); rc=$?
err=$(cat "$work/bad.err")
[ "$rc" -eq 1 ] && ok "bad.s: exit status 1 (functions not synthesised)" || not_ok "bad.s: exit status $rc"
for want in "invalid_bytes (0x1006): cannot synthesise: invalid instruction on a reachable path" \
            "inner (0x100c): cannot synthesise: overlaps the function before it" \
            "bogus (0x7fff0000): cannot synthesise: symbol lies outside the file's sections"; do
    grep -qxF "dwsynth: $bad: $want" <<< "$err" && ok "reported: ${want%% *}" || not_ok "reported: $want" "$err"
done
grep -A4 '^good pc=' <<< "$out" | grep -qE ' rsp\+16 +c-16 +c-8 +$' && ok "good is still synthesised" ||
    not_ok "good is still synthesised" "$out"
# phantom jumps into victim before its undecodable byte: that jump must not
# hand victim phantom's frame (rbp saved where victim saved rbx).
victim=$("$dwsynth" --function=victim "$bad" 2>&1)
if grep -q ' rsp+16 *c-16 *c-8 *$' <<< "$victim" && ! grep -q 'rbp\|?' <<< "$victim"; then
    ok "a function with undecodable code hands no states to others"
else
    not_ok "a function with undecodable code hands no states to others" "$victim"
fi
json=$("$dwsynth" --format=json "$bad" 2>/dev/null)
grep -q '"name":"bogus".*"status":"unknown","reason":"symbol lies outside the file' <<< "$json" &&
    ok "json lists the unknown function and its reason" || not_ok "json lists the unknown function"
"$dwsynth" /dev/null 2>&1 | grep -q '^dwsynth: /dev/null: ' && ok "non-ELF input: tool: FILE: reason" ||
    not_ok "non-ELF input: tool: FILE: reason"

# 4. Agreement with the compilers on system binaries (a bounded sample).
sample=()
for f in /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libm.so.6 \
         /usr/lib/x86_64-linux-gnu/libstdc++.so.6 /usr/lib/x86_64-linux-gnu/libz.so.1 \
         /usr/lib/x86_64-linux-gnu/libelf.so.1 /usr/lib/x86_64-linux-gnu/libdwarf.so.1 \
         /usr/bin/ls /usr/bin/bash /usr/bin/gdb /usr/bin/make; do
    [ -f "$f" ] && sample+=("$f")
done
expect_figures "system sample (${#sample[@]} files)" "$("$dwsynth" --compare --causes=5 "${sample[@]}")" 99 99.5 99.5 99.5

# 5. The corpus (built by `make corpus`): every frame shape, both compilers.
if [ -d "$build/corpus" ]; then
    mapfile -t corpus < <(find "$build/corpus" -type f -perm -u+x | sort)
    if [ "${#corpus[@]}" -gt 0 ]; then
        expect_figures "corpus (${#corpus[@]} binaries)" "$("$dwsynth" --compare --causes=10 "${corpus[@]}")" 99.9 99.9 99.9 99.9
    fi
fi

finish "synthesis"
