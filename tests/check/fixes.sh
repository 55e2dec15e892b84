#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The fixes of dwcheck's findings, checked by writing them: the functions of
# tests/check/fixes.s have known wrong CFI; the directives each finding's
# fix prints (text, JSON and SARIF alike: tests/check/apply_fixes.py writes
# them where each says), written into the source and reassembled, leave no
# finding in the functions fixed, and readelf -wF of the new object shows
# synthesis's rule at each finding's address.  A function whose wrong
# addresses take several fixes gets them from successive audits; one whose
# paths disagree gets none.  The fix also shows in --explain, and comes
# back whole from dwcheck --merge.
set -u
build=${1:?usage: fixes.sh BUILD}
dwcheck=$build/bin/dwcheck
here=$(dirname "$0")
work=$build/tests/check/fixes
rm -rf "$work" && mkdir -p "$work" || exit 1
. "$here/../lib.sh"

# Assembled with its line table, from a copy (the fixed copies sit beside it).
cp "$here/fixes.s" "$work/fixes.s" || exit 1
assemble() { cc -g -shared -nostdlib -Wl,--build-id=none -o "$2" "$1"; }
assemble "$work/fixes.s" "$work/fixes.so" || exit 1
"$dwcheck" "$work/fixes.so" > "$work/report.txt"
"$dwcheck" --format=json "$work/fixes.so" > "$work/report.jsonl"
"$dwcheck" --format=sarif "$work/fixes.so" > "$work/report.sarif"
text=$(cat "$work/report.txt")

# 1. What the text says: the first line as compilers print it, then the
#    table's claim, the code, and the fix, where each is known.
grep -qE "^(/.*/)?fixes.s:25: error: cfa-mismatch: CFA rule rsp\+8 does not give the CFA \[$work/fixes.so: fx_once_stale_cfa\+0x1, and 1 more addresses\]$" <<< "$text" &&
    grep -qxF "  table: the CFA is rsp+8" <<< "$text" &&
    grep -qxF '  code:  `push rbp` at +0x0 moved rsp down 8: the CFA is rsp+16' <<< "$text" &&
    grep -qxF '  fix:   write after `push rbp` (+0x0, line 23), before line 25:' <<< "$text" &&
    ok "text: FILE:LINE: severity: kind: first, the object and place after; table, code and fix under it" ||
    not_ok "text: a finding's lines" "$text"
grep -A2 -F "fx_once_undescribed+0x4" <<< "$text" | grep -qxF "  table: rbx is not described: unwinders take it as unchanged" &&
    grep -A5 -F "fx_once_imprecise+0x1" <<< "$text" | grep -qxF "  table: rbx is undefined: unwinders cannot restore it" &&
    grep -qF '"dwarf":"unchanged"' "$work/report.jsonl" && grep -qF '"dwarf":"undefined"' "$work/report.jsonl" &&
    ok "a register the table does not mention is 'unchanged', DW_CFA_undefined 'undefined' (never both 'u')" ||
    not_ok "unchanged and undefined told apart" "$text"
# A push and its pop without directives: the fix puts the CFA back after the pop.
want=$(printf '%s\n' '  fix:   write after `push rbx` (+0x0, line 86), before line 87:' \
    '           .cfi_def_cfa_offset 16' '           .cfi_offset %rbx, -16' \
    '         then after `pop rbx` (+0x9, line 89), before line 90, as the table had it:' \
    '           .cfi_def_cfa_offset 8')
[ "$(grep -A8 -F "fx_once_forgotten_pair+0x1" <<< "$text" | sed -n 4,8p)" = "$want" ] &&
    ok "a push and its pop undescribed: the directives after the push, and after the pop the table's rule again" ||
    not_ok "the forgotten pair's fix" "$text"
grep -A7 -F "fx_once_clone_child+0x10" <<< "$text" | grep -qxF "           .cfi_undefined %rip" &&
    grep -A7 -F "fx_once_clone_child+0x10" <<< "$text" | grep -qxF "           .cfi_offset %rip, -8" &&
    ok "clone's child: .cfi_undefined %rip on its path, the return address again where the parent goes on" ||
    not_ok "clone's child's fix" "$text"
grep -A3 -F "fx_paths_disagree+0x5" <<< "$text" |
    grep -qxF "  fix:   none: the paths into +0x5 disagree on the CFA: no one rule holds on all of them" &&
    ok "paths that disagree (a .cold part's jump back with another frame): a finding, no fix" ||
    not_ok "no fix where the paths disagree" "$text"

python3 "$here/../baseline/sarif_check.py" "$here/../baseline/sarif-schema-2.1.0.json" "$work/report.sarif" \
    > /dev/null 2> "$work/sarif-check.err" && [ "$(grep -o '"fixes"' "$work/report.sarif" | wc -l)" -ge 9 ] &&
    ok "sarif: valid SARIF 2.1.0, with the fixes as insertions (fixes, artifactChanges, replacements)" ||
    not_ok "sarif: valid, with fixes" "$(cat "$work/sarif-check.err")"

# The HTML page shows each finding's claim, code and fix (the directives
# the JSON gives it), read back by Python's HTML parser.
"$dwcheck" --html="$work/html" "$work/fixes.so" > /dev/null
if msg=$(python3 - "$work/report.jsonl" "$work/html/index.html" 2>&1 <<'PY'
import html.parser, json, sys
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.fixes, self.text, self.in_fix = [], [], False
    def handle_starttag(self, tag, attrs):
        if tag == "pre" and ("class", "fix") in attrs:
            self.in_fix = True
            self.fixes.append("")
    def handle_endtag(self, tag):
        if tag == "pre":
            self.in_fix = False
    def handle_data(self, data):
        self.text.append(data)
        if self.in_fix:
            self.fixes[-1] += data
page = Page()
page.feed(open(sys.argv[2], encoding="utf-8").read())
text = "".join(page.text)
findings = [f for line in open(sys.argv[1]) for f in json.loads(line).get("findings", [])]
known = [f for f in findings if "directives" in f.get("fix", {})]
assert known, "no fix in the JSON"
assert len(page.fixes) == len([f for f in findings if "fix" in f]), (len(page.fixes), len(findings))
for f in known:
    assert any(all(d in fx for d in f["fix"]["directives"]) for fx in page.fixes), f["fix"]
    assert "table: " + f["claim"] in text and "code: " + f["code"] in text, (f["claim"], f["code"])
print(len(known))
PY
); then
    ok "html: each finding's claim, code and fix on its detail ($msg fixes with their directives)"
else
    not_ok "html: claims, code and fixes on the page" "$msg"
fi

# 2. Each output's fixes, written into the source: the fx_once_* functions
#    are clean, fx_paths_disagree is not (it had no fix).
for mode in text json sarif; do
    case $mode in text) report=report.txt ;; json) report=report.jsonl ;; sarif) report=report.sarif ;; esac
    n=$(python3 "$here/apply_fixes.py" "$mode" "$work/$report" "$work/fixes.s" "$work/fixed-$mode.s" fx_once_) ||
        { not_ok "$mode: the fixes written" "$n"; continue; }
    assemble "$work/fixed-$mode.s" "$work/fixed-$mode.so" || { not_ok "$mode: the fixed source assembles"; continue; }
    after=$("$dwcheck" "$work/fixed-$mode.so")
    if ! grep -q "fx_once_" <<< "$after" && grep -q "fx_paths_disagree+0x5" <<< "$after" && [ "$n" -ge 9 ]; then
        ok "$mode: its $n fixes written into the source, the functions fixed have no finding left"
    else
        not_ok "$mode: the functions fixed have no finding left ($n places written)" "$after"
    fi
done

# 3. readelf -wF of the fixed object: at each finding's address, the rule
#    of its column is synthesis's (the fixes added no code: same addresses).
if msg=$(python3 - "$work/report.jsonl" "$work/fixed-json.so" 2>&1 <<'PY'
import json, re, subprocess, sys
findings = [f for f in json.loads(open(sys.argv[1]).readline())["findings"]
            if f["function"].startswith("fx_once_") and "fix" in f and "none" not in f["fix"]]
dump = subprocess.run(["readelf", "-wF", sys.argv[2]], capture_output=True, text=True, check=True).stdout
rows = []   # (start, end, {column: cell})
for block in dump.split("\n\n"):
    m = re.search(r"pc=([0-9a-f]+)\.\.([0-9a-f]+)", block)
    head = next((l for l in block.splitlines() if l.strip().startswith("LOC")), None)
    if not m or not head:
        continue
    cols = head.split()[1:]
    locs = [l.split() for l in block.splitlines() if re.match(r"^[0-9a-f]{16} ", l)]
    end = int(m.group(2), 16)
    for i, cells in enumerate(locs):
        nxt = int(locs[i + 1][0], 16) if i + 1 < len(locs) else end
        rows.append((int(cells[0], 16), nxt, dict(zip(cols, cells[1:]))))
names = {-1: "CFA", 16: "ra", 3: "rbx", 6: "rbp", 12: "r12", 13: "r13", 14: "r14", 15: "r15"}
checked = 0
for f in findings:
    row = next(r for r in rows if r[0] <= f["address"] < r[1])
    col = names[f.get("column", -1)]
    want = {"unchanged": "u", "undefined": "u"}.get(f["synth"], f["synth"])
    got = row[2].get(col, "u")
    assert got == want, "%s at %#x: readelf %s %s, synthesis %s" % (f["function"], f["address"], col, got, want)
    checked += 1
assert checked >= 9, checked
print(checked)
PY
); then
    ok "readelf -wF of the fixed object: synthesis's rule at each of the $msg findings' addresses"
else
    not_ok "readelf -wF of the fixed object shows synthesis's rules" "$msg"
fi

# 4. A function whose table is wrong at many places (pushes and pops
#    without a directive, two epilogues): each audit's fixes, written, and
#    the next audit's, until none is left.
cp "$work/fixes.s" "$work/steps.s"
rounds=0
while [ $rounds -lt 8 ]; do
    assemble "$work/steps.s" "$work/steps.so" || break
    "$dwcheck" --format=json "$work/steps.so" > "$work/steps.jsonl"
    grep -q '"function":"fx_steps_' "$work/steps.jsonl" || break
    rounds=$((rounds + 1))
    python3 "$here/apply_fixes.py" json "$work/steps.jsonl" "$work/steps.s" "$work/steps-next.s" fx_steps_ > /dev/null &&
        mv "$work/steps-next.s" "$work/steps.s" || break
done
if [ $rounds -ge 2 ] && [ $rounds -lt 8 ] && ! grep -q '"function":"fx_steps_' "$work/steps.jsonl"; then
    ok "pushes and pops without directives: clean after the fixes of $rounds audits"
else
    not_ok "fx_steps_no_cfi fixed in successive audits ($rounds rounds)" "$("$dwcheck" "$work/steps.so")"
fi

# 5. --explain shows the fix; --merge gives it back as the audit printed it.
out=$("$dwcheck" --explain=0x$(python3 -c '
import json, sys
print("%x" % next(f["address"] for f in json.loads(open(sys.argv[1]).readline())["findings"]
                  if f["function"] == "fx_once_stale_cfa"))' "$work/report.jsonl") "$work/fixes.so")
grep -qxF '       fix:   write after `push rbp` (+0x0, line 23), before line 25:' <<< "$out" &&
    grep -qxF '                .cfi_def_cfa_offset 16' <<< "$out" &&
    ok "--explain: the fix under the rule that fails" || not_ok "--explain shows the fix" "$out"
merged=$("$dwcheck" --merge "$work/report.jsonl")
[ "$merged" = "$text" ] && ok "--merge: claims, code and fixes read back, printed as the audit printed them" ||
    not_ok "--merge prints the fixes again" "$(diff <(echo "$text") <(echo "$merged"))"
finish "fixes"
