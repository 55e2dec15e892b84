#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/prove/run.sh BUILD: dwcheck's verdicts on DWARF expression rules
# against fixtures whose truth is known by construction, each built so that
# evaluating the rule on a few sample stacks cannot decide it.
#   1. holds/*.s, one function a file: rules right for every stack the ABI
#      allows (an odd formula, a rounding, alignment, the 2^47 bound, a
#      branch, a loop, a save, a copy, GCC's DRAP): no finding, no address
#      left unchecked.
#   2. fails_cfa.s, fails_saves.s: rules wrong at rare stacks or values:
#      exactly the expected findings (kind, function, first address and
#      number of addresses, from readelf -wF and objdump, not from dwcheck),
#      each with a counterexample that validate_counterexample.py checks
#      with an evaluator of its own, and its line in the text output.
#   3. bad/*.s: malformed or endless expressions: a malformed-cfi finding or
#      the addresses left unchecked, exit 0 or 1, no sanitizer report, within
#      seconds.
#   4. dwcompile refuses a binary whose expression rule z3 refutes and
#      compiles one whose rule z3 proves; --prove=all agrees with the fast
#      path on every fixture.
#   5. --prove=all on libc, libstdc++, libcrypto, libmvec and the corpus:
#      every rule decided by z3 and by the fast path, no difference.
# The validator's own self-test runs first.
set -u
build=${1:?usage: run.sh BUILD}
dwcheck=$build/bin/dwcheck
here=$(cd "$(dirname "$0")" && pwd)
validate=$here/validate_counterexample.py
work=$build/tests/prove
mkdir -p "$work"
. "$here/../lib.sh"
started=$(date +%s%N)

# 0. The validator, on hand-made counterexamples and expressions.
out=$(python3 "$validate" --self-test 2>&1) && ok "validator: ${out##*$'\n'}" || not_ok "validator self-test" "$out"

# so NAME SOURCE: build SOURCE into $work/NAME.so (the linker's complaints
# about a malformed .eh_frame kept in NAME.ld.log).
so() {
    cc -shared -nostdlib -Wl,--build-id=none -o "$work/$1.so" "$2" 2> "$work/$1.ld.log" ||
        { not_ok "build $1.so" "$(cat "$work/$1.ld.log")"; return 1; }
}

# audit NAME: dwcheck --format=json on NAME.so into NAME.json, its exit
# status in $rc.  The verdicts are the test, not z3's speed: a query may
# take 5 s (the sanitizer build on a loaded machine exceeded the default).
audit() {
    "$dwcheck" --prove-timeout=5000 --format=json "$work/$1.so" > "$work/$1.json" 2> "$work/$1.err"
    rc=$?
}

# facts NAME: "addresses_checked unchecked reasons instructions": the file's
# figures (reasons: the sum of unchecked_reasons, which also counts rules
# left undecided at addresses that are otherwise checked) and the number of
# instructions objdump finds in it.
facts() {
    python3 - "$work/$1.json" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read())
print(d["addresses_checked"], d["unchecked"], sum(d["unchecked_reasons"].values()))
PY
}
instructions() { objdump -d --no-show-raw-insn "$work/$1.so" | grep -cE '^ +[0-9a-f]+:'; }

# findings NAME: one line per finding, "function kind address addresses",
# each finding also written whole to finding.NAME.FUNCTION.KIND.json.
findings() {
    python3 - "$work" "$1" <<'PY'
import json, sys
work, name = sys.argv[1:]
for f in json.loads(open("%s/%s.json" % (work, name)).read())["findings"]:
    func = f["function"] or "-"
    print(func, f["kind"], f["address"], f["addresses"])
    with open("%s/finding.%s.%s.%s.json" % (work, name, func, f["kind"]), "w") as out:
        json.dump(f, out)
PY
}

# rule_range NAME FUNCTION COLUMN: "first count": the first address where
# COLUMN (CFA, ra, rbx...) of FUNCTION's FDE is an expression (readelf -wF
# prints exp or vexp), and how many instructions (objdump) lie in the run of
# rows that keep that rule.  Nothing when readelf shows no such row.
rule_range() {
    python3 - "$work/$1.so" "$2" "$3" <<'PY'
import re, subprocess, sys
so, func, column = sys.argv[1:]
run = lambda *cmd: subprocess.run(cmd, capture_output=True, text=True).stdout
start = [int(l.split()[0], 16) for l in run("nm", so).splitlines() if l.split()[-1:] == [func]]
fdes, fde = [], None
for line in run("readelf", "-wF", so).splitlines():
    m = re.search(r"pc=([0-9a-f]+)\.\.([0-9a-f]+)", line)
    if m:
        fde = {"lo": int(m.group(1), 16), "hi": int(m.group(2), 16), "rows": []}
        fdes.append(fde)
    elif fde is not None and line.split()[:1] == ["LOC"]:
        fde["cols"] = line.split()[1:]
    elif fde is not None and re.match(r"[0-9a-f]{16} ", line):
        loc, *values = line.split()
        fde["rows"].append((int(loc, 16), dict(zip(fde["cols"], values))))
fde = next((f for f in fdes if start and f["lo"] == start[0]), None)
if fde:
    rows = fde["rows"] + [(fde["hi"], {})]
    first = next((i for i, (_, r) in enumerate(rows) if r.get(column, "").endswith("exp")), None)
    if first is not None:
        rule = rows[first][1][column]
        end = next(loc for loc, r in rows[first + 1:] if r.get(column) != rule)
        insns = [int(m.group(1), 16) for m in re.finditer(r"^ +([0-9a-f]+):", run("objdump", "-d", so), re.M)]
        print(rows[first][0], sum(rows[first][0] <= a < end for a in insns))
PY
}

# 1. Rules that hold: no finding, every instruction checked, nothing
#    undecided.
for src in "$here"/holds/*.s; do
    name=$(basename "$src" .s)
    so "$name" "$src" || continue
    audit "$name"
    read -r checked unchecked reasons <<< "$(facts "$name")"
    insns=$(instructions "$name")
    [ "$rc" -eq 0 ] && grep -qF '"findings":[]' "$work/$name.json" &&
        [ "$unchecked" = 0 ] && [ "$reasons" = 0 ] && [ "$checked" = "$insns" ] &&
        ok "holds: $name: no finding, all $insns addresses checked, nothing undecided" ||
        not_ok "holds: $name: no finding, all $insns addresses checked, nothing undecided (exit $rc)" \
            "$(cat "$work/$name.json" "$work/$name.err")"
done

# 2. Rules that fail.  Each line: FILE FUNCTION KIND COLUMN TRUTH...: the
#    finding expected (the only one in FUNCTION), and what its
#    counterexample must satisfy besides being one of the rule (Python over
#    the registers, cfa, code and mem(ADDR); see validate_counterexample.py).
expected=(
    "fails_cfa b_one_address cfa-mismatch CFA|code == rsp + 32|rsp == 0x7ffe0000"
    "fails_cfa c_one_in_4096 cfa-mismatch CFA|code == rsp + 32|(rsp & 0xfff0) == 0x1230"
    "fails_cfa g_branch_rare cfa-mismatch CFA|code == rsp + 32|(rsp & 0xffff0) == 0xabcd0"
    "fails_cfa g_drap_wrong cfa-mismatch CFA|code == rbp + 16|mem(rbp - 8) == cfa"
    "fails_saves e_rare_save reg-mismatch rbx|code == cfa - 16|(cfa & 0xfff0) == 0x4560"
    "fails_saves e_rare_ra ra-mismatch ra|code == cfa - 8|(cfa & 0xfff0) == 0x2220"
    "fails_saves f_copy_plus8 reg-mismatch rbx|code == r12"
    "fails_saves f_rare_value reg-mismatch rbx|code == r12|r12 == 0x123456789"
)
for name in fails_cfa fails_saves; do
    so "$name" "$here/$name.s" || continue
    audit "$name"
    "$dwcheck" "$work/$name.so" > "$work/$name.txt" 2>&1
    found=$(findings "$name")
    want=0
    for line in "${expected[@]}"; do
        IFS='|' read -r head truths_joined <<< "$line"
        read -r file func kind column <<< "$head"
        [ "$file" = "$name" ] || continue
        want=$((want + 1))
        IFS='|' read -r -a truths <<< "$truths_joined"
        shown=${truths_joined//|/; }
        read -r first count <<< "$(rule_range "$name" "$func" "$column")"
        got=$(awk -v f="$func" -v k="$kind" '$1 == f && $2 == k { print $3, $4 }' <<< "$found")
        where=$(printf '0x%x' "${first:-0}")
        [ -n "$first" ] && [ "$got" = "$first $count" ] &&
            ok "$name: $func: $kind at $where, $count addresses" ||
            not_ok "$name: $func: $kind at $where, $count addresses" "got: ${got:-no such finding}"
        # The counterexample, checked by the validator.
        json=$work/finding.$name.$func.$kind.json
        cx=$([ -n "$got" ] && python3 -c 'import json, sys
cx = json.load(open(sys.argv[1])).get("counterexample")
print(cx["rule"], cx["code"] or "null") if isinstance(cx, dict) else None' "$json" 2>/dev/null)
        if [ -z "$got" ]; then
            not_ok "$name: $func: counterexample valid" "no finding to take it from"
        elif [ -z "$cx" ]; then
            not_ok "$name: $func: counterexample valid" "the finding has none: $(cat "$json")"
        else
            args=()
            for t in "${truths[@]}"; do args+=(--truth "$t"); done
            msg=$(python3 "$validate" --source "$here/$name.s" --function "$func" --column "$column" \
                  --finding "$(cat "$json")" "${args[@]}" 2>&1) &&
                ok "$name: $func: counterexample valid ($shown)" ||
                not_ok "$name: $func: counterexample valid ($shown)" "$msg
$(cat "$json")"
        fi
        # Its line in the text output, among the finding's: for a CFA rule
        # "  counterexample: REGISTERS: the rule gives CFA=RULE, the code
        # CODE" (b_one_address's in full); for the others, a line that
        # names the rule's and the code's values.
        read -r rule code <<< "${cx:-RULE CODE}"
        text=$(awk -v head="$work/$name.so: $func+" -v kind=": $kind: " '
            index($0, head) == 1 && index($0, kind) { inside = 1; next }
            /^[^ ]/ { inside = 0 }
            inside && /^  counterexample: / { print; exit }' "$work/$name.txt")
        if [ "$func" = b_one_address ]; then
            line='  counterexample: rsp=0x7ffe0000: the rule gives CFA=0x7ffe0028, the code 0x7ffe0020'
            [ "$text" = "$line" ] && ok "$name: $func: text: $line" ||
                not_ok "$name: $func: text: $line" "$(cat "$work/$name.txt")"
        elif [ "$column" = CFA ]; then
            [[ "$text" == "  counterexample: "*": the rule gives CFA=$rule, the code $code" ]] &&
                ok "$name: $func: text: counterexample: ...: the rule gives CFA=$rule, the code $code" ||
                not_ok "$name: $func: text: counterexample: ...: the rule gives CFA=$rule, the code $code" \
                    "$(cat "$work/$name.txt")"
        else
            [[ "$text" == "  counterexample: "*"$rule"* && "$text" == *"$code"* ]] &&
                ok "$name: $func: text: a counterexample line with $rule and $code" ||
                not_ok "$name: $func: text: a counterexample line with $rule and $code" "$(cat "$work/$name.txt")"
        fi
    done
    n=$(grep -c . <<< "$found")
    [ "$n" -eq "$want" ] && ok "$name: no other finding ($want in all)" ||
        not_ok "$name: no other finding ($want expected, $n found)" "$found"
    read -r checked unchecked reasons <<< "$(facts "$name")"
    [ "$rc" -eq 1 ] && [ "$unchecked" = 0 ] && [ "$reasons" = 0 ] && [ "$checked" = "$(instructions "$name")" ] &&
        ok "$name: exit 1, every address checked, nothing undecided" ||
        not_ok "$name: exit 1, every address checked, nothing undecided (exit $rc)" "$(cat "$work/$name.json")"
done

# 3. Bad expressions: never a crash, a sanitizer report, or a run past a few
#    seconds; either a malformed-cfi finding or the rule's addresses left
#    unchecked (never a verdict on an expression no unwinder applies).
limit_ms=10000
for src in "$here"/bad/*.s; do
    name=$(basename "$src" .s)
    so "$name" "$src" || continue
    t0=$(date +%s%N)
    timeout 60 "$dwcheck" --format=json "$work/$name.so" > "$work/$name.json" 2> "$work/$name.err"
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    { [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; } && [ "$ms" -lt "$limit_ms" ] &&
        ! grep -qE 'Sanitizer|runtime error|^ERROR|^==[0-9]+==' "$work/$name.err" &&
        ok "bad: $name: exit $rc in ${ms} ms, no sanitizer report" ||
        not_ok "bad: $name: exit 0 or 1 within $limit_ms ms, no sanitizer report (exit $rc, $ms ms)" \
            "$(head -c 2000 "$work/$name.err")"
    read -r first count <<< "$(rule_range "$name" "$name" CFA)"
    verdict=$(python3 - "$work/$name.json" "${count:-}" <<'PY' 2>&1
import json, sys
d = json.loads(open(sys.argv[1]).read())
kinds = sorted({f["kind"] for f in d["findings"]})
unchecked = max(d["unchecked"], sum(d["unchecked_reasons"].values()))
need = int(sys.argv[2]) if sys.argv[2] else None
if kinds not in ([], ["malformed-cfi"]):
    print("findings other than malformed-cfi: %s" % kinds)
elif kinds == [] and (need is None or unchecked < need):
    print("no malformed-cfi finding, and %d addresses unchecked of the rule's %s" % (unchecked, need))
else:
    print("ok: %s" % ("malformed-cfi" if kinds else "%d addresses unchecked" % unchecked))
PY
)
    [[ "$verdict" == ok:* ]] && ok "bad: $name: ${verdict#ok: }" ||
        not_ok "bad: $name: a malformed-cfi finding or the rule's addresses unchecked" "$verdict
$(cat "$work/$name.json")"
done

# 4. The other users of the prover.  dwcompile compiles the expressions it
#    is given only once verification passed: a rule z3 refutes stops it (no
#    eh_elf written), one z3 proves is compiled.  --prove=all decides every
#    rule with z3 and must agree with the fast path on these fixtures.
if [ -f "$work/fails_cfa.so" ] && [ -f "$work/g_drap.so" ]; then
    rm -f "$work/refuted.eh_elf.so" "$work/proved.eh_elf.so"
    "$build/bin/dwcompile" -q -o "$work/refuted.eh_elf.so" "$work/fails_cfa.so" > /dev/null 2> "$work/refuted.err"
    rc=$?
    [ "$rc" -eq 1 ] && [ ! -e "$work/refuted.eh_elf.so" ] && grep -q 'refused: verification reports' "$work/refuted.err" &&
        ok "dwcompile: a refuted expression rule stops the compilation (exit 1, nothing written)" ||
        not_ok "dwcompile: a refuted expression rule stops the compilation (exit $rc)" "$(cat "$work/refuted.err")"
    "$build/bin/dwcompile" -q -o "$work/proved.eh_elf.so" "$work/g_drap.so" > /dev/null 2> "$work/proved.err" &&
        [ -s "$work/proved.eh_elf.so" ] &&
        ok "dwcompile: a proved expression rule is compiled" ||
        not_ok "dwcompile: a proved expression rule is compiled" "$(cat "$work/proved.err")"
fi
# Every rendering carries the counterexample: SARIF's message, the HTML report.
if [ -f "$work/fails_cfa.so" ]; then
    "$dwcheck" --format=sarif --html="$work/html" "$work/fails_cfa.so" > "$work/fails_cfa.sarif" 2>/dev/null
    grep -q 'counterexample: rsp=0x7ffe0000: the rule gives CFA=' "$work/fails_cfa.sarif" &&
        grep -q 'counterexample: rsp=0x7ffe0000: the rule gives CFA=' "$work/html/index.html" &&
        ok "sarif and html: the counterexample of b_one_address" ||
        not_ok "sarif and html: the counterexample of b_one_address" "$(head -c 1500 "$work/fails_cfa.sarif")"
fi
for so_file in "$work"/*.so; do
    case $so_file in *.eh_elf.so) continue ;; esac
    n=$("$dwcheck" --prove=all --format=json "$so_file" 2>/dev/null |
        python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["prover"]["disagreements"])' 2>&1)
    [ "$n" = 0 ] || not_ok "--prove=all on ${so_file##*/}: the fast path and z3 disagree ($n)"
    [ "$n" = 0 ] && agreed=$(( ${agreed:-0} + 1 ))
done
ok "--prove=all: z3 and the fast path agree on every rule of ${agreed:-0} fixtures"

# 5. The same cross-check on real code: libc, libstdc++ and every program of
#    the corpus (BUILD/corpus): every rule decided both ways, no difference.
real=()
# (libcrypto's bn_gather5 and libmvec's sincos realign their stack with no
# CFI saying so: the fast path must know the rounding as z3 does.)
for f in /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libstdc++.so.6 \
         /usr/lib/x86_64-linux-gnu/libcrypto.so.3 /usr/lib/x86_64-linux-gnu/libmvec.so.1; do
    [ -f "$f" ] && real+=("$f")
done
while IFS= read -r f; do real+=("$f"); done < <(find "$build/corpus" -type f -perm -u+x 2>/dev/null | sort)
if [ "${#real[@]}" -gt 4 ]; then
    summary=$("$dwcheck" --prove=all --format=json --fail-on=never "${real[@]}" 2>/dev/null | python3 -c '
import json, sys
files = rules = disagree = 0
first = ""
for line in sys.stdin:
    d = json.loads(line)
    if "prover" not in d:
        continue
    files += 1
    rules += d["prover"]["rules"]
    disagree += d["prover"]["disagreements"]
    if d["prover"]["disagreements"] and not first:
        first = d["file"] + ": " + d["prover"]["first_disagreement"]
print(files, rules, disagree, first)')
    read -r nfiles nrules ndisagree first <<< "$summary"
    [ "${ndisagree:-x}" = 0 ] && [ "${nfiles:-0}" -eq "${#real[@]}" ] &&
        ok "--prove=all on libc, libstdc++, libcrypto, libmvec and the corpus ($nfiles files): $nrules rules, z3 and the fast path agree on each" ||
        not_ok "--prove=all on libc, libstdc++ and the corpus: $ndisagree disagreements in $nfiles files" "$first"
    # Without --prove=all, every expression rule still goes to the prover,
    # whose first stage decides the linear ones (the PLT's, DRAP's) with no
    # solver call; --prove=all turns that stage off.
    stages=$( { "$dwcheck" --format=json --fail-on=never "${real[@]}"; echo "--prove=all"
               "$dwcheck" --prove=all --format=json --fail-on=never "${real[@]}"; } 2>/dev/null | python3 -c '
import json, sys
runs = [[0, 0, 0]]
for line in sys.stdin:
    if line.startswith("--prove=all"):
        runs.append([0, 0, 0])
        continue
    p = json.loads(line).get("prover")
    if p:
        r = runs[-1]
        r[0] += p["rules"]; r[1] += p["linear"]; r[2] += sum(sum(v.values()) for v in p["expressions"].values())
print(*runs[0], *runs[1])')
    read -r rules linear exprs all_rules all_linear all_exprs <<< "$stages"
    [ "${linear:-0}" -gt 0 ] && [ "$rules" -ge "$linear" ] && [ "$rules" -ge "$exprs" ] && [ "$all_linear" = 0 ] &&
        [ "$exprs" = "$all_exprs" ] &&
        ok "the prover decides every expression rule: $rules rules sent to it ($linear by exact linear evaluation) for $exprs addresses with an expression rule; --prove=all: $all_rules rules, none by the linear stage" ||
        not_ok "the prover decides every expression rule" "rules, linear, expression addresses: $stages"
else
    not_ok "--prove=all on real code: no corpus in $build/corpus (make corpus)"
fi

echo "run.sh: $((($(date +%s%N) - started) / 1000000)) ms"
finish "prove"
