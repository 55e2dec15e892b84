#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/baseline/run.sh BUILD: dwcheck --baseline, --write-baseline, and
# SARIF for code scanning, on a small project with CFI bugs written on
# purpose (tests/baseline/project.S, built with cc into a shared library):
#   1. A baseline written from version 1 passes version 1 (exit 0 with
#      --fail-on=error).  Version 2 adds a function before the old bugs
#      (every address moves) and one new bug: it fails with exactly the new
#      one; in SARIF the new one is "new", the old ones "unchanged", with
#      the partialFingerprints they had in version 1 though their addresses
#      moved; rules have help texts; the document is valid against the
#      SARIF 2.1.0 schema (sarif-schema-2.1.0.json, vendored).
#   2. Version 3 fixes an old bug: its entry is reported absent (text, and a
#      SARIF result of baselineState "absent" with its old fingerprint).
#      Version 4 adds an instruction inside a function before its bug: the
#      bug's instruction index is part of its identity, so it is new there.
#   3. Suppressions by function and by kind (with their reason in SARIF);
#      one for another function suppresses nothing.
#   4. Files: a rewrite keeps --baseline's suppressions and is the same
#      twice; --merge applies a baseline as the audit does; a corrupt or
#      unusable baseline is exit 2 with `dwcheck: FILE: reason`, nothing
#      audited; --write-baseline refuses a non-regular file before any work
#      and writes nothing when a file could not be audited.
# sarif-schema-2.1.0.json is the OASIS SARIF TC's schema, unchanged: from
# github.com/oasis-tcs/sarif-spec, sarif-2.1/schema/sarif-schema-2.1.0.json
# (commit a560296ca8c921f3bdb8d4a8db57ab83dae968a7; its "id" names the
# 2.1.0 errata01 OASIS standard).
set -u
build=${1:-build}
dwcheck=$build/bin/dwcheck
here=$(dirname "$0")
. "$here/../lib.sh"
schema=$here/sarif-schema-2.1.0.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Debian's python3-jsonschema (install-deps), or a python3 first on PATH
# that has the module.
python=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import jsonschema' 2> /dev/null; then python=$p; break; fi
done
if [ -z "$python" ]; then
    echo "baseline: no python3 with jsonschema (Debian's python3-jsonschema: make deps)" >&2
    exit 1
fi
build_version() {   # DIR CPPFLAGS...
    mkdir -p "$work/$1" && cc -g -shared -nostdlib -Wl,--build-id=none "${@:2}" -o "$work/$1/libproj.so" \
        "$here/project.S"
}
build_version v1 && build_version v2 -DADDED -DNEW_BUG && build_version v3 -DADDED -DNEW_BUG -DFIXED &&
    build_version v4 -DINSIDE || exit 1
v1=$work/v1/libproj.so v2=$work/v2/libproj.so v3=$work/v3/libproj.so v4=$work/v4/libproj.so
sarif() { "$python" "$here/sarif_check.py" "$schema" "$1"; }

# ---- 1. version 1's baseline, version 2 --------------------------------------
"$dwcheck" -j1 --write-baseline="$work/base.txt" "$v1" > "$work/v1.txt"; rc=$?
entries=$(grep -c '^finding ' "$work/base.txt" 2> /dev/null)
[ "$rc" -eq 1 ] && [ "$entries" = 3 ] && head -1 "$work/base.txt" | grep -qx 'dwcheck-baseline 1' &&
    ok "--write-baseline: version 1's 3 findings written, the run itself unchanged (exit 1)" ||
    not_ok "--write-baseline (exit $rc, $entries entries)" "$(cat "$work/base.txt" 2>&1)"
grep -q 'insn=' "$work/base.txt" && ! grep -qi 'address\|0x' "$work/base.txt" &&
    ok "baseline entries hold an instruction index, no address" || not_ok "baseline entries" "$(cat "$work/base.txt")"

out=$("$dwcheck" -j1 --fail-on=error --baseline="$work/base.txt" "$v1"); rc=$?
[ "$rc" -eq 0 ] && ! grep -q ': error: ' <<< "$out" && grep -q '^baseline: 0 new, 3 known, 0 suppressed, 0 absent$' <<< "$out" &&
    ok "version 1 against its baseline: exit 0 with --fail-on=error, 3 known" ||
    not_ok "version 1 against its baseline (exit $rc)" "$out"

out=$("$dwcheck" -j1 --fail-on=error --baseline="$work/base.txt" "$v2"); rc=$?
errors=$(grep ': error: ' <<< "$out")
[ "$rc" -eq 1 ] && [ "$(wc -l <<< "$errors")" -eq 1 ] && grep -q 'error: ra-mismatch: .*new_bug+0x[0-9a-f]*' <<< "$errors" &&
    grep -q '^baseline: 1 new, 3 known, 0 suppressed, 0 absent$' <<< "$out" &&
    ok "version 2 (code moved, one new bug): exit 1, only new_bug's ra-mismatch reported" ||
    not_ok "version 2 against version 1's baseline (exit $rc)" "$out"

"$dwcheck" -j1 --format=sarif --baseline="$work/base.txt" "$v1" > "$work/v1.sarif" 2> /dev/null
"$dwcheck" -j1 --format=sarif --fail-on=error --baseline="$work/base.txt" "$v2" > "$work/v2.sarif" 2> /dev/null; rc=$?
r1=$(sarif "$work/v1.sarif" 2>&1) && r2=$(sarif "$work/v2.sarif" 2>&1); valid=$?
[ "$valid" -eq 0 ] && [ "$rc" -eq 1 ] &&
    ok "sarif: valid against the SARIF 2.1.0 schema; ruleIndex, rule texts, fingerprints, logical locations" ||
    not_ok "sarif documents (exit $rc)" "$r1
$r2"
states=$(awk '{print $1, $2, $4}' <<< "$r2" | LC_ALL=C sort)
want="cfa-mismatch unchanged stale_cfa
clobbered-not-described unchanged undescribed_save
ra-mismatch new new_bug
reg-mismatch unchanged wrong_slot"
[ "$states" = "$want" ] && ok "sarif: baselineState new for the new bug, unchanged for the 3 old ones" ||
    not_ok "sarif baselineState" "$states"
same=0 moved=0
while read -r rule _ fp func addr _; do
    read -r _ _ fp1 _ addr1 _ < <(grep "^$rule " <<< "$r2")
    [ "$fp" = "$fp1" ] && same=$((same + 1))
    [ "$addr" != "$addr1" ] && moved=$((moved + 1))
done <<< "$r1"
[ "$same" -eq 3 ] && [ "$moved" -eq 3 ] &&
    ok "sarif: the 3 old findings moved (addresses differ) and keep their partialFingerprints" ||
    not_ok "fingerprints across the rebuild ($same kept, $moved moved)" "$r1
$r2"
lines=$(awk '$6 != "-"' <<< "$r2" | wc -l)
[ "$lines" -eq 4 ] && python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["runs"][0]["results"]:
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"].endswith("project.S"), loc
    rel = r["relatedLocations"][0]["physicalLocation"]
    assert rel["artifactLocation"]["uri"].endswith("/libproj.so") and "absoluteAddress" in rel["address"], rel
' "$work/v2.sarif" && ok "sarif: the source file and region.startLine from the line table; the binary and address related" ||
    not_ok "sarif source locations ($lines with a line)" "$r2"

# ---- 2. a fixed bug ----------------------------------------------------------
out=$("$dwcheck" -j1 --baseline="$work/base.txt" "$v3"); rc=$?
grep -q '^baseline: absent: libproj.so: wrong_slot, instruction 1: reg-mismatch (rule c-24, synthesis c-16)$' <<< "$out" &&
    grep -q '^baseline: 1 new, 2 known, 0 suppressed, 1 absent$' <<< "$out" &&
    ok "version 3 (wrong_slot fixed): its entry reported absent" || not_ok "absent entry (exit $rc)" "$out"
"$dwcheck" -j1 --format=sarif --baseline="$work/base.txt" "$v3" > "$work/v3.sarif" 2> /dev/null
r3=$(sarif "$work/v3.sarif" 2>&1)
fp_old=$(awk '$1 == "reg-mismatch" {print $3}' <<< "$r1")
grep -q "^reg-mismatch absent $fp_old wrong_slot " <<< "$r3" &&
    ok "sarif: the fixed bug is a result of baselineState absent, with its old fingerprint" ||
    not_ok "sarif absent result" "$r3"
"$dwcheck" -j1 "$v3" | grep -q 'wrong_slot' && not_ok "version 3 still has wrong_slot's bug" ||
    ok "version 3 has no finding in wrong_slot (the fix is real)"

out=$("$dwcheck" -j1 --baseline="$work/base.txt" "$v4"); rc=$?
grep -q '^baseline: absent: libproj.so: stale_cfa, instruction 2: cfa-mismatch' <<< "$out" &&
    grep -q 'project.S:[0-9]*: error: cfa-mismatch: .* \[v4/libproj.so: stale_cfa+0x[0-9a-f]*' <<< "${out//$work\//}" &&
    grep -q '^baseline: 1 new, 2 known, 0 suppressed, 1 absent$' <<< "$out" &&
    ok "version 4 (an instruction added in stale_cfa before its bug): the bug's place moved, a new finding" ||
    not_ok "instruction index in the identity (exit $rc)" "$out"

# ---- 3. suppressions -----------------------------------------------------------
{ cat "$work/base.txt"; echo 'suppress function=new_bug reason="fixed upstream in 2.1"'; } > "$work/by_func.txt"
{ cat "$work/base.txt"; echo 'suppress kind="ra-mismatch" reason="ra rules are checked by the linker"'; } > "$work/by_kind.txt"
{ cat "$work/base.txt"; echo 'suppress function="helper" kind="ra-mismatch" reason="not this one"'; } > "$work/other.txt"
out=$("$dwcheck" -j1 --fail-on=error --baseline="$work/by_func.txt" "$v2"); rc=$?
[ "$rc" -eq 0 ] && ! grep -q ': error: ' <<< "$out" && grep -q '^baseline: 0 new, 3 known, 1 suppressed, 0 absent$' <<< "$out" &&
    ok "suppress function=new_bug: version 2 passes, 1 suppressed" || not_ok "suppression by function (exit $rc)" "$out"
out=$("$dwcheck" -j1 --fail-on=error --baseline="$work/by_kind.txt" "$v2"); rc=$?
[ "$rc" -eq 0 ] && grep -q '^baseline: 0 new, 3 known, 1 suppressed, 0 absent$' <<< "$out" &&
    ok "suppress kind=ra-mismatch: version 2 passes, 1 suppressed" || not_ok "suppression by kind (exit $rc)" "$out"
out=$("$dwcheck" -j1 --fail-on=error --baseline="$work/other.txt" "$v2"); rc=$?
[ "$rc" -eq 1 ] && grep -q '^baseline: 1 new, 3 known, 0 suppressed, 0 absent$' <<< "$out" &&
    ok "a suppression needs both its kind and its function to match (helper's: nothing suppressed)" ||
    not_ok "suppression of another function (exit $rc)" "$out"
"$dwcheck" -j1 --format=sarif --baseline="$work/by_func.txt" "$v2" > "$work/sup.sarif" 2> /dev/null
rs=$(sarif "$work/sup.sarif" 2>&1)
grep -q '^ra-mismatch new [0-9a-f]* new_bug .* fixed_upstream_in_2.1$' <<< "$rs" &&
    ok "sarif: the suppressed finding has a suppression with its reason" || not_ok "sarif suppression" "$rs"

# ---- 4. the files --------------------------------------------------------------
"$dwcheck" -j1 --baseline="$work/by_func.txt" --write-baseline="$work/again.txt" "$v2" > /dev/null
"$dwcheck" -j1 --baseline="$work/again.txt" --write-baseline="$work/again2.txt" "$v2" > /dev/null
grep -qx 'suppress function="new_bug" reason="fixed upstream in 2.1"' "$work/again.txt" &&
    [ "$(grep -c '^finding ' "$work/again.txt")" -eq 4 ] && cmp -s "$work/again.txt" "$work/again2.txt" &&
    ok "a rewritten baseline keeps the suppressions, records every finding, and reads back the same" ||
    not_ok "rewriting a baseline" "$(cat "$work/again.txt" "$work/again2.txt")"
printf 'dwcheck-baseline 1\nsuppress function="a\\"b\\\\c\\x09d\xc3\xa9" reason=bare\n' > "$work/esc.txt"
"$dwcheck" -j1 --baseline="$work/esc.txt" --write-baseline="$work/esc2.txt" "$v1" > /dev/null
"$dwcheck" -j1 --baseline="$work/esc2.txt" --write-baseline="$work/esc3.txt" "$v1" > /dev/null
line=$(grep '^suppress' "$work/esc2.txt")
[ "$line" = "$(printf 'suppress function="a\\"b\\\\c\\x09d\xc3\xa9" reason="bare"')" ] && cmp -s "$work/esc2.txt" "$work/esc3.txt" &&
    ok "quotes, backslashes, control and UTF-8 bytes in values survive a rewrite" ||
    not_ok "escapes in a baseline" "$(cat "$work/esc.txt" "$work/esc2.txt")"
[ -z "$(find "$work" -name '*.tmp-*')" ] && ok "no temporary file left by the writes" || not_ok "temporary files left"

"$dwcheck" -j1 --format=json "$v2" > "$work/v2.jsonl"
direct=$("$dwcheck" -j1 --baseline="$work/base.txt" "$v2" 2>&1 | sed "s|$work/||g"); rc1=$?
merged=$("$dwcheck" --merge --baseline="$work/base.txt" "$work/v2.jsonl" 2>&1 | sed "s|$work/||g"); rc2=$?
[ "$direct" = "$merged" ] && [ "$rc1" -eq "$rc2" ] && ok "--merge applies a baseline as the audit does (insn_index in JSON Lines)" ||
    not_ok "--merge with a baseline" "$(diff <(echo "$direct") <(echo "$merged"))"

bad() {   # NAME CONTENT(printf format) EXPECTED-REASON
    printf "$2" > "$work/bad.txt"
    local err out rc
    out=$("$dwcheck" -j1 --baseline="$work/bad.txt" "$v1" 2> "$work/err"); rc=$?
    err=$(cat "$work/err")
    [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(wc -l < "$work/err")" -eq 1 ] &&
        grep -q "^dwcheck: $work/bad.txt: $3" <<< "$err" && ok "corrupt baseline, $1: exit 2, $err" |
        sed "s|$work/||" || not_ok "corrupt baseline, $1 (exit $rc)" "$out$err"
}
bad "empty" '' 'empty: not a dwcheck baseline'
bad "no header" 'finding kind=x\n' 'line 1: not a dwcheck baseline'
bad "a later version" 'dwcheck-baseline 2\n' 'line 1: unsupported baseline version "2"'
bad "an unknown record" 'dwcheck-baseline 1\nfind kind=cfa-mismatch\n' 'line 2: unknown record "find"'
bad "a missing key" 'dwcheck-baseline 1\nfinding kind=cfa-mismatch object=a.so function=f insn=1 column=-1 rule=x\n' \
    'line 2: a finding record has no synth'
bad "an unknown kind" 'dwcheck-baseline 1\nsuppress kind=nope reason=r\n' 'line 2: unknown finding kind "nope"'
bad "no reason" 'dwcheck-baseline 1\n# c\n\nsuppress function=f\n' 'line 4: a suppress record has no reason'
bad "an unclosed quote" 'dwcheck-baseline 1\nsuppress function="f reason=r\n' 'line 2: value of function: no closing quote'
bad "a bad number" \
    'dwcheck-baseline 1\nfinding kind=cfa-mismatch object=a.so function=f insn=-7 column=-1 rule=x synth=y\n' \
    'line 2: insn "-7" is not a number from -1'
bad "a key twice" 'dwcheck-baseline 1\nsuppress kind=ret-jump kind=ret-jump reason=r\n' 'line 2: key kind given twice'
bad "a path as object" \
    'dwcheck-baseline 1\nfinding kind=cfa-mismatch object=/a.so function=f insn=1 column=-1 rule=x synth=y\n' \
    "line 2: object must be a file's base name"
bad "a NUL byte" 'dwcheck-baseline 1\n\0\n' 'a NUL byte'
bad "a line too long" "dwcheck-baseline 1\nsuppress reason=$(head -c 9000 /dev/zero | tr '\0' a)\n" \
    'line 2: longer than 8192 bytes'
bad "a value too long" "dwcheck-baseline 1\nsuppress function=$(head -c 200 /dev/zero | tr '\0' a) reason=r\n" \
    "line 2: a suppress record's function or reason is too long"
head -c 100000 /dev/urandom > "$work/random.txt"
"$dwcheck" -j1 --baseline="$work/random.txt" "$v1" > /dev/null 2> "$work/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "^dwcheck: $work/random.txt: " "$work/err" && ok "random bytes as a baseline: exit 2" ||
    not_ok "random baseline (exit $rc)" "$(cat "$work/err")"
for f in "$work" "$work/missing.txt"; do
    "$dwcheck" -j1 --baseline="$f" "$v1" > /dev/null 2> "$work/err"; rc=$?
    [ "$rc" -eq 2 ] && grep -q "^dwcheck: $f: " "$work/err" && ok "a baseline that is $(basename "$f"): exit 2, $(sed "s|$work/||" "$work/err")" ||
        not_ok "baseline $f (exit $rc)" "$(cat "$work/err")"
done

mkfifo "$work/fifo"
out=$(timeout 20 "$dwcheck" -j1 --write-baseline="$work/fifo" "$v1" 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "^dwcheck: $work/fifo: not a regular file" <<< "$out" && ! grep -q 'libproj' <<< "$out" &&
    ok "--write-baseline to a FIFO: refused before any work (exit 2)" || not_ok "--write-baseline to a FIFO (exit $rc)" "$out"
cp "$work/base.txt" "$work/keep.txt"
out=$("$dwcheck" -j1 --write-baseline="$work/keep.txt" "$v2" "$work/missing.so" 2>&1); rc=$?
[ "$rc" -eq 2 ] && cmp -s "$work/base.txt" "$work/keep.txt" && grep -q "keep.txt: baseline not written" <<< "$out" &&
    ok "a file not audited: the baseline is left as it was (exit 2)" || not_ok "baseline with a failed file (exit $rc)" "$out"

help=$("$dwcheck" --help)
grep -q -- '--baseline=FILE' <<< "$help" && grep -q -- '--write-baseline=FILE' <<< "$help" &&
    ok "--help documents --baseline and --write-baseline" || not_ok "--help"
finish baseline
