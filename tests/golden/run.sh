#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Golden tests: dwtable on small shared objects built from hand-written CFI
# (tests/golden/*.s).  The table is compared against readelf -wF, an
# independent reader; --address and JSON are checked against rows written out
# by hand from the directives in the sources.
set -u
build=${1:?usage: run.sh BUILD}
dwtable=$build/bin/dwtable
work=$build/tests/golden
mkdir -p "$work"
. "$(dirname "$0")/../lib.sh"

so=$work/cfi_shapes.so
cc -shared -nostdlib -Wl,--build-id=none -o "$so" tests/golden/cfi_shapes.s tests/golden/cfi_signal.s ||
    { echo "cannot assemble the golden sources"; exit 1; }

# 1. The whole table, against readelf (both .eh_frame and .debug_frame).
norm() { sed -e '/^Contents of the .* section.*:$/d'; }
if diff <(readelf -wF "$so" | norm) <("$dwtable" "$so" | norm) > "$work/diff"; then
    ok "dwtable = readelf -wF on cfi_shapes.so"
else
    not_ok "dwtable = readelf -wF on cfi_shapes.so" "$(head -20 "$work/diff")"
fi
grep -q '^Contents of the .debug_frame section' <("$dwtable" "$so") && ok ".debug_frame is printed" ||
    not_ok ".debug_frame is printed"

# 2. --address: the one row covering an address (symbol + offset from nm, rows by hand).
sym() { nm "$so" | awk -v s="$1" '$3 == s { print $1 }'; }
expect_row() {   # NAME ADDRESS EXPECTED-ROW-REGEX
    local got
    got=$("$dwtable" --address="$2" "$so" 2>&1 | grep -E '^[0-9a-f]{16} ' | head -1)
    if grep -qE "$3" <<< "$got"; then ok "$1"; else not_ok "$1" "got: $got"$'\n'"want: $3"; fi
}
fp=$((16#$(sym frame_pointer)))
# push %rbx (1 byte), push %rbp (1), mov %rsp,%rbp (3): rows at +0 +1 +2 +5.
expect_row "entry row"            $((fp + 0)) '^[0-9a-f]+ rsp\+8 +u +u +c-8 +$'
expect_row "after push rbx"       $((fp + 1)) '^[0-9a-f]+ rsp\+16 +c-16 +u +c-8 +$'
expect_row "after push rbp"       $((fp + 2)) ' rsp\+24 +c-16 +c-24 +c-8 +$'
expect_row "frame pointer set"    $((fp + 7)) ' rbp\+24 +c-16 +c-24 +c-8 +$'
# testq (3) + je (2) put the early pops at +10 and +11; the restored state at +13.
expect_row "restore after pop rbp" $((fp + 11)) ' rsp\+16 +c-16 +u +c-8 +$'
expect_row "restore_state"        $((fp + 13)) ' rbp\+24 +c-16 +c-24 +c-8 +$'
ex=$((16#$(sym expressions)))
expect_row "def_cfa_expression"   $((ex + 4)) ' exp +u +u +u +u +c-8 +$'
expect_row "def_cfa_sf (-4 * -8)" $((ex + 8)) ' rsp\+32 +exp +vexp +u +u +c-8 +$'
expect_row "negative_offset_extended r12 = c+24" $((ex + 9)) ' rsp\+32 +exp +vexp +c\+24 +u +c-8 +$'
expect_row "offset_extended_sf r13 = c-16" $((ex + 10)) ' rsp\+32 +exp +vexp +c\+24 +c-16 +c-8 +$'
od=$((16#$(sym odd_rules)))
expect_row "register r12 in rax"  $((od + 3)) ' rsp\+8 +u +r0 \(rax\) +u +u +u +c-8 +u +$'
expect_row "advance_loc2 / xmm6"  $((od + 6 + 300)) ' s +c-8 +c-32 +$'
out=$("$dwtable" --address=1 "$so" 2>&1); rc=$?
[ "$rc" -eq 1 ] && grep -q 'no FDE covers address 0x1' <<< "$out" && ok "uncovered address: exit 1" ||
    not_ok "uncovered address: exit 1" "$out"

# 2b. 64-bit DWARF: length escape, 8-byte CIE id and pointer (hand-built section).
d64=$work/cfi_dwarf64.so
cc -shared -nostdlib -Wl,--build-id=none -o "$d64" tests/golden/cfi_dwarf64.s ||
    { echo "cannot assemble cfi_dwarf64.s"; exit 1; }
if diff <(readelf -wF "$d64" | norm) <("$dwtable" "$d64" | norm) > "$work/diff64"; then
    ok "dwtable = readelf -wF on a DWARF64 .debug_frame"
else
    not_ok "dwtable = readelf -wF on a DWARF64 .debug_frame" "$(head -20 "$work/diff64")"
fi
grep -q '^00000000 0000000000000014 ffffffffffffffff CIE ""' <("$dwtable" "$d64") &&
    ok "DWARF64 CIE header: 16-digit CIE id" || not_ok "DWARF64 CIE header: 16-digit CIE id"
d=$((16#$(nm "$d64" | awk '$3 == "d64" { print $1 }')))
got=$("$dwtable" --address=$((d + 5)) "$d64" | grep -E '^[0-9a-f]{16} ')
# advance 1, cfa 16, rbx c-16; advance 4; remember; cfa 8; restore rbx: row at +5.
grep -qE ' rsp\+8 +u +c-8 +$' <<< "$got" && ok "DWARF64: remember, restore rbx at +5" ||
    not_ok "DWARF64: remember, restore rbx at +5" "$got"

# 3. JSON: decoded rules, by hand from the .cfi_escape bytes.
json=$("$dwtable" --format=json "$so")
expect_json() {
    if grep -qF "$2" <<< "$json"; then ok "$1"; else not_ok "$1" "missing: $2"; fi
}
expect_json "JSON: CFA expression decoded" '"cfa":{"rule":"expression","bytes":"7720","ops":"DW_OP_breg7 (rsp): 32"}'
expect_json "JSON: val_expression decoded" '"rbp":{"rule":"val_expression","bytes":"77103122","ops":"DW_OP_breg7 (rsp): 16; DW_OP_lit1; DW_OP_plus"}'
expect_json "JSON: signal-frame CFA" '"ops":"DW_OP_breg7 (rsp): 160; DW_OP_deref"'
expect_json "JSON: signal-frame CIE" '"augmentation":"zRS","version":1,"code_align":1,"data_align":-8,"ra":16,"signal_frame":true'
expect_json "JSON: val_offset" '"r13":{"rule":"val_offset","offset":-8}'
expect_json "JSON: same_value" '"r15":{"rule":"same_value"}'
expect_json "JSON: register" '"r12":{"rule":"register","reg":"rax"}'
expect_json "JSON: FDE range" "\"pc_begin\":$fp,\"pc_end\":$((fp + 16))"
[ "$(wc -l <<< "$json")" -eq 1 ] && ok "JSON: one line per file" || not_ok "JSON: one line per file"

finish "golden"
