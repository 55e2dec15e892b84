#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# tests/merge/run.sh BUILD: auditing past one machine.
#   1. Two shards (--shard=1/2, 2/2) run by GNU parallel, locally and through
#      its --sshlogin machinery (`-S :`, the local machine without ssh),
#      take every file exactly once; `dwcheck --merge` of their JSON Lines
#      gives what one run over the same files gives, finding for finding:
#      text (stdout and stderr), JSON, SARIF, the exit status, --fail-on,
#      whatever the order of the inputs; and an HTML report of every file,
#      its findings without windows (JSON has none), and saying so.
#      The files: the tests' fixtures (findings, counterexamples of every
#      kind, a clean file), system libraries, a file that is not ELF, a
#      missing one, and a second name (with a space) of a fixture.
#   2. --cache=DIR: a second run audits nothing, is faster, prints the
#      same; a truncated entry, or one damaged in place, is audited again
#      (same output); a copy of a file under another name is found; other
#      --prove-timeout, no hit; two runs filling one cache at once agree.
#   3. Usage errors (exit 2): --shard=0/2, 3/2, garbage; --merge with an
#      audit's options or no file; malformed JSON Lines (`FILE:LINE: reason`,
#      nothing on stdout), counts of 2^63 or more, sums past 2^64 - 1; a
#      line of many findings checked, and merged in every format, in about
#      the line's memory (findings streamed one at a time).
set -u
build=${1:?usage: run.sh BUILD}
dwcheck_binary=$(realpath "$build/bin/dwcheck")
work=$build/tests/merge
rm -rf "$work" && mkdir -p "$work/fixtures" && work=$(realpath "$work")
. "$(dirname "$0")/../lib.sh"
# Runs are compared byte for byte, z3's figures included: a query must not
# run out of time in one run and not in another because the machine was
# busier, so every audit here has a time limit no query comes near (10 s;
# the default 100 ms is what a loaded machine can miss).  A run that sets
# its own, and --merge (which audits nothing), are left as they are.
dwcheck=$work/dwcheck
printf '%s\n' '#!/bin/bash' \
    'for a; do case $a in --merge|--prove-timeout=*) exec "$DWCHECK_BINARY" "$@" ;; esac; done' \
    'exec "$DWCHECK_BINARY" --prove-timeout=10000 "$@"' > "$dwcheck" && chmod +x "$dwcheck" || exit 1
export DWCHECK_BINARY=$dwcheck_binary

command -v parallel > /dev/null || { not_ok "GNU parallel is installed (./install-deps)"; finish merge; }

# The files: fixtures built here, system libraries, trouble.
fx=$work/fixtures
for s in tests/check/buggy.s tests/synth/shapes.s tests/prove/fails_cfa.s tests/prove/fails_saves.s; do
    cc -shared -nostdlib -Wl,--build-id=none -o "$fx/$(basename "$s" .s).so" "$s" || exit 1
done
cc -shared -nostdlib -o "$fx/rare.so" tests/readme/rare_cfa.s || exit 1   # with a build-id
ln -s buggy.so "$fx/buggy alias.so"
echo "not an ELF file" > "$fx/notes.txt"
libs=/usr/lib/x86_64-linux-gnu
files=("$fx"/*.so "$fx/notes.txt" "$fx/missing.so")
for lib in libc.so.6 libz.so.1 libelf.so.1 libgcc_s.so.1; do
    [ -e "$libs/$lib" ] && files+=("$libs/$lib")
done
# One run's order, the merge's: sorted bytewise.
mapfile -t files < <(printf '%s\n' "${files[@]}" | LC_ALL=C sort)

# run NAME ARGS...: dwcheck ARGS into $work/NAME.out, .err and .rc.
run() {
    local name=$1
    shift
    "$dwcheck" "$@" > "$work/$name.out" 2> "$work/$name.err"
    echo $? > "$work/$name.rc"
}
# same WHAT A B: outputs A and B (and their exit statuses) are equal.
same() {
    if cmp -s "$work/$2.out" "$work/$3.out" && cmp -s "$work/$2.rc" "$work/$3.rc"; then
        ok "$1"
    else
        not_ok "$1 (exit $(cat "$work/$2.rc") and $(cat "$work/$3.rc"))" \
            "$(diff "$work/$2.out" "$work/$3.out" | head -20)"
    fi
}

# 1. Shards by GNU parallel, merged, against one run.
run single-json --format=json "${files[@]}"
run single-text "${files[@]}"
run single-sarif --format=sarif "${files[@]}"
q() { printf '%q ' "$@"; }
parallel --will-cite -j2 "$(q "$dwcheck") --format=json --shard={}/2 $(q "${files[@]}") > $(printf %q "$work")/shard{}.json" \
    ::: 1 2 2> "$work/parallel.err"
parallel --will-cite -S : "$(q "$dwcheck") --format=json --shard={}/2 $(q "${files[@]}") > $(printf %q "$work")/ssh-shard{}.json" \
    ::: 1 2 2> "$work/parallel-ssh.err"
n1=$(wc -l < "$work/shard1.json") n2=$(wc -l < "$work/shard2.json")
all=$(cat "$work/shard1.json" "$work/shard2.json" | python3 -c '
import json, sys
print("\n".join(sorted(n for l in sys.stdin for r in [json.loads(l)] for n in r.get("names", [r["file"]]))))')
if [ "$all" = "$(printf '%s\n' "${files[@]}")" ] && [ $((n1 - n2)) -ge -1 ] && [ $((n1 - n2)) -le 1 ]; then
    ok "two shards under parallel: every one of ${#files[@]} names exactly once ($n1 + $n2 lines: a file's names in one)"
else
    not_ok "two shards: every file exactly once ($n1 + $n2)" "$(diff <(printf '%s\n' "${files[@]}") <(echo "$all"))"
fi
cmp -s "$work/shard1.json" "$work/ssh-shard1.json" && cmp -s "$work/shard2.json" "$work/ssh-shard2.json" &&
    ok "parallel --sshlogin : gives the same shards" ||
    not_ok "parallel --sshlogin : gives the same shards" "$(cat "$work/parallel-ssh.err")"

run merged-json --merge --format=json "$work/shard1.json" "$work/shard2.json"
same "merged JSON Lines = one run's, line for line" single-json merged-json
run merged-text --merge "$work/shard2.json" "$work/shard1.json"
same "merged text (inputs in the other order) = one run's: findings, counterexamples, summary" single-text merged-text
cmp -s "$work/single-text.err" "$work/merged-text.err" &&
    ok "merged: the files not audited named on stderr as one run names them" ||
    not_ok "merged stderr = one run's" "$(diff "$work/single-text.err" "$work/merged-text.err")"
run merged-sarif --merge --format=sarif "$work/shard1.json" "$work/shard2.json"
same "merged SARIF = one run's" single-sarif merged-sarif
# (The alias and its file: one file audited, tools/inputs.)
grep -q "^summary: $((${#files[@]} - 3)) files audited, 1 skipped (not ELF), 1 could not be read" \
    "$work/merged-text.out" && grep -q ': counterexample: \|^  counterexample: ' "$work/merged-text.out" &&
    ok "merged summary counts every file; counterexamples kept" ||
    not_ok "merged summary" "$(tail -20 "$work/merged-text.out")"
run merged-html --merge --format=json --html="$work/html" "$work/shard1.json" "$work/shard2.json"
missing=$(for f in "${files[@]}"; do grep -qF "$(basename "$f")" "$work/html/index.html" || echo "$f"; done)
[ -z "$missing" ] && grep -q 'rounded_wrong' "$work/html/index.html" &&
    ok "merged --html: every file and finding in index.html" || not_ok "merged --html" "missing: $missing"
# Findings read back from JSON have no window: each detail says why, and
# the links, ids and kinds hold as in one run's report (tests/check/html_check.py).
report=$(python3 tests/check/html_check.py check "$work/html/index.html" --windows=none 2>&1) &&
    grep -qF 'No window: findings read back from JSON (dwcheck --merge) carry no code.' "$work/html/index.html" &&
    ok "merged --html: links, ids, kinds explained; no window, and why ($report)" ||
    not_ok "merged --html: links, ids, kinds explained; no window, and why" "$report"

# --fail-on, over files that all audit: exit 1 on findings, 0 with never.
audited=("$fx/buggy.so" "$fx/shapes.so")
for fail_on in error warning never; do
    run "fo-single-$fail_on" --format=json --fail-on=$fail_on "${audited[@]}"
    run "fo-shard-$fail_on" --format=json --shard=2/2 "${audited[@]}"
    "$dwcheck" --format=json --shard=1/2 "${audited[@]}" > "$work/fo-shard1.json" 2> /dev/null
    run "fo-merged-$fail_on" --merge --format=json --fail-on=$fail_on "$work/fo-shard1.json" \
        "$work/fo-shard-$fail_on.out"
    same "--fail-on=$fail_on: the merge's exit status is one run's ($(cat "$work/fo-single-$fail_on.rc"))" \
        "fo-single-$fail_on" "fo-merged-$fail_on"
done
# --prove=all's figures (disagreements) travel too.
proved=("$fx/buggy.so" "$fx/fails_cfa.so" "$fx/fails_saves.so")
run pa-single --prove=all "${proved[@]}"
for k in 1 2 3; do "$dwcheck" --prove=all --format=json --shard=$k/3 "${proved[@]}" > "$work/pa$k.json" 2> /dev/null; done
run pa-merged --merge "$work/pa3.json" "$work/pa1.json" "$work/pa2.json"
same "--prove=all in three shards, merged = one run (z3 and the fast path compared)" pa-single pa-merged
grep -q '^shard 2/3: 1 of 3 files$' <(tail -1 <("$dwcheck" --prove=all --shard=2/3 "${proved[@]}")) &&
    ok "a shard's summary says how many files it took" || not_ok "shard's summary line"

# 2. The cache.
cache=$work/cache
now() { date +%s%N; }
t0=$(now); run cache1 --cache="$cache" "${files[@]}"; t1=$(now)
run cache2 --cache="$cache" "${files[@]}"; t2=$(now)
first_ms=$(((t1 - t0) / 1000000)) second_ms=$(((t2 - t1) / 1000000))
distinct=$((${#files[@]} - 3))   # less the alias, the missing file, the text
same "a cached run prints what an audit prints" single-text cache2
same "the first run with the cache too" single-text cache1
grep -q "cache $cache: 0 files from the cache, $distinct audited, $distinct stored" "$work/cache1.err" &&
    grep -q "cache $cache: $distinct files from the cache, 0 audited, 0 stored, 2 not audited" "$work/cache2.err" &&
    ok "second run: $distinct files from the cache, none audited" ||
    not_ok "second run audits nothing" "$(cat "$work/cache1.err" "$work/cache2.err")"
[ "$second_ms" -lt "$first_ms" ] && ok "cached run faster: $first_ms ms, then $second_ms ms" ||
    not_ok "cached run faster: $first_ms ms, then $second_ms ms"
echo "# timings: first run $first_ms ms, cached run $second_ms ms (${#files[@]} names, $distinct files)"
entries=$(find "$cache" -type f | wc -l)
[ "$entries" -eq "$distinct" ] && ok "one entry a file, none for the files not audited" ||
    not_ok "$entries entries for $distinct files" "$(find "$cache" -type f)"

entry=$(find "$cache" -type f | LC_ALL=C sort | head -1)
truncate -s 200 "$entry"
run cache3 --cache="$cache" "${files[@]}"
same "a truncated entry: audited again, same output" single-text cache3
grep -q "$((distinct - 1)) files from the cache, 1 audited, 1 stored, 1 damaged entries replaced" "$work/cache3.err" &&
    ok "the truncated entry is counted as damaged and replaced" || not_ok "truncated entry" "$(cat "$work/cache3.err")"
size=$(stat -c %s "$entry")
printf 'XXXXXXXX' | dd of="$entry" bs=1 seek=$((size - 100)) conv=notrunc status=none
run cache4 --cache="$cache" "${files[@]}"
same "an entry damaged in place (same size): audited again, same output" single-text cache4
grep -q "1 audited, 1 stored, 1 damaged" "$work/cache4.err" && ok "the checksum catches it" ||
    not_ok "damaged in place" "$(cat "$work/cache4.err")"
printf 'garbage' > "$entry"
run cache5 --cache="$cache" --format=json "${files[@]}"
same "an entry of garbage: audited again, same JSON" single-json cache5

cp "$fx/buggy.so" "$work/elsewhere.so"
"$dwcheck" --cache="$cache" "$work/elsewhere.so" > /dev/null 2> "$work/elsewhere.err"
grep -q "1 files from the cache, 0 audited" "$work/elsewhere.err" &&
    ok "a copy under another name is found (the key is the content, not the path)" ||
    not_ok "copy under another name" "$(cat "$work/elsewhere.err")"
"$dwcheck" --cache="$cache" --prove-timeout=99 "$fx/buggy.so" > /dev/null 2> "$work/timeout.err"
grep -q "0 files from the cache, 1 audited" "$work/timeout.err" &&
    ok "another --prove-timeout: no hit" || not_ok "--prove-timeout in the key" "$(cat "$work/timeout.err")"

# Two runs fill one new cache at once; each prints one run's output, and a
# third finds every entry whole.
shared=$work/shared-cache
"$dwcheck" --cache="$shared/sub" "${files[@]}" > "$work/con1.out" 2> /dev/null &
"$dwcheck" --cache="$shared/sub" "${files[@]}" > "$work/con2.out" 2> /dev/null
wait
run con3 --cache="$shared/sub" "${files[@]}"
cmp -s "$work/single-text.out" "$work/con1.out" && cmp -s "$work/single-text.out" "$work/con2.out" &&
    cmp -s "$work/single-text.out" "$work/con3.out" && grep -q "0 audited, 0 stored" "$work/con3.err" &&
    ! find "$shared" -name '*.tmp-*' | grep -q . &&
    ok "two concurrent runs share a new cache (created with its parent): same output, whole entries, no temporary left" ||
    not_ok "concurrent runs" "$(cat "$work/con3.err")"
echo "a file" > "$work/not-a-dir"
run cache-file --cache="$work/not-a-dir" "$fx/buggy.so"
[ "$(cat "$work/cache-file.rc")" -eq 2 ] && [ ! -s "$work/cache-file.out" ] && grep -q "not a directory" "$work/cache-file.err" &&
    ok "--cache naming a file: exit 2 before any work" || not_ok "--cache naming a file" "$(cat "$work/cache-file.err")"

# 3. Usage errors and malformed input.
for bad in 0/2 3/2 garbage 1/0 /2 1/ 08/10x -1/2; do
    run usage --shard=$bad "$fx/buggy.so"
    [ "$(cat "$work/usage.rc")" -eq 2 ] && grep -q "bad --shard" "$work/usage.err" && [ ! -s "$work/usage.out" ] ||
        { not_ok "--shard=$bad: usage error, exit 2" "$(cat "$work/usage.err")"; continue; }
    ok "--shard=$bad: usage error, exit 2"
done
run usage --merge --cache="$cache" "$work/shard1.json"
[ "$(cat "$work/usage.rc")" -eq 2 ] && ok "--merge with --cache: exit 2" || not_ok "--merge with --cache"
run usage --merge
[ "$(cat "$work/usage.rc")" -eq 2 ] && ok "--merge without files: exit 2" || not_ok "--merge without files"

# malformed WHAT WANT: the merge of $work/bad.json fails with `FILE:LINE: WANT`.
malformed() {
    run malformed --merge --format=sarif "$work/shard1.json" "$work/bad.json"
    if [ "$(cat "$work/malformed.rc")" -eq 2 ] && [ ! -s "$work/malformed.out" ] &&
        grep -qF "dwcheck: $work/bad.json:$2" "$work/malformed.err"; then
        ok "malformed input ($1): $(cat "$work/malformed.err")"
    else
        not_ok "malformed input ($1): exit 2, FILE:LINE: reason, nothing printed" "$(cat "$work/malformed.err")"
    fi
}
{ echo; head -1 "$work/shard1.json"; echo 'not json'; } > "$work/bad.json"
malformed "not JSON" "3: not JSON"
head -c 300 "$work/single-json.out" > "$work/bad.json"
malformed "a line cut short" "1: not JSON: the object is cut off"
grep -F buggy.so "$work/single-json.out" | head -1 | sed 's/"kind":"cfa-mismatch"/"kind":"cfa-typo"/' > "$work/bad.json"
malformed "unknown kind" '1: finding 1: unknown finding kind "cfa-typo"'
# A fix is read whole or refused: cut short, it would be a wrong one.
grep -F buggy.so "$work/single-json.out" | head -1 | sed 's/"directives":\[[^]]*\]/"directives":[]/' > "$work/bad.json"
malformed "a fix without directives" '1: finding 1: fix: "directives" is empty'
grep -F buggy.so "$work/single-json.out" | head -1 |
    sed 's/"directives":\["/"directives":["x\\n/' > "$work/bad.json"
malformed "a directive of two lines" '1: finding 1: fix: a directive too long, or of more than one line'
echo '{"file":"a","fdes":3}' > "$work/bad.json"
malformed "fields missing" '1: no "unchecked_reasons"'
echo '[1,2]' > "$work/bad.json"
malformed "not an object" "1: not a JSON object"
# Counts past 2^63 are refused (json-c reads 2^64 and more as 2^64 - 1), and
# sums over the inputs that would pass 2^64 - 1.
line=$(grep -F buggy.so "$work/single-json.out" | head -1)
for big in 9223372036854775808 18446744073709551616; do
    sed "s/\"addresses_checked\":[0-9]*/\"addresses_checked\":$big/" <<< "$line" > "$work/bad.json"
    malformed "a count of $big" '1: "addresses_checked" is too large (2^63 or more)'
done
for i in 1 2; do sed "s/\"addresses_checked\":[0-9]*/\"addresses_checked\":9223372036854775807/" <<< "$line"; done \
    > "$work/bad.json"
malformed "counts whose sum passes 2^64 - 1" "2: the sum of addresses_checked over the inputs passes 2^64 - 1"

# A line changed between the two passes (pass 1 checks each line, pass 2
# reads it again to print it; tests/merge/change_on_reopen.c changes one
# digit of the second line as pass 2 opens the file): refused before any
# of it is printed, FILE:LINE, exit 2; the first line was printed.  The
# same merge without the change prints both.
head -2 "$work/single-json.out" > "$work/changing.json"
second=$(sed -n 2p "$work/changing.json")
second_file=$(sed -nE 's/^\{"file":"([^"]*)".*/\1/p' <<< "$second")
first_file=$(head -1 "$work/changing.json" | sed -nE 's/^\{"file":"([^"]*)".*/\1/p')
at=$(( $(head -1 "$work/changing.json" | wc -c) + $(grep -bo '"fdes":[0-9]' <<< "$second" | head -1 | cut -d: -f1) + 7 ))
if cc -O1 -fPIC -shared -o "$work/change_on_reopen.so" "$(dirname "$0")/change_on_reopen.c" -ldl &&
   [ -n "$first_file" ] && [ -n "$second_file" ]; then
    run unchanged --merge --format=json "$work/changing.json"
    CHANGE_FILE=$work/changing.json CHANGE_AT=$at LD_PRELOAD=$work/change_on_reopen.so \
        ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
        "$dwcheck_binary" --merge --format=json "$work/changing.json" > "$work/changed.out" 2> "$work/changed.err"
    rc=$?
    if [ "$(grep -c '"file"' "$work/unchanged.out")" -eq 2 ] && [ $rc -eq 2 ] &&
       [ "$(cat "$work/changed.err")" = "dwcheck: $work/changing.json:2: changed while being merged" ] &&
       grep -qF "\"file\":\"$first_file\"" "$work/changed.out" &&
       ! grep -qF "\"file\":\"$second_file\"" "$work/changed.out" && ! cmp -s "$work/changing.json" <(head -2 "$work/single-json.out"); then
        ok "a line changed between the passes: $(cat "$work/changed.err"), exit 2, none of it printed"
    else
        not_ok "a line changed between the passes: FILE:LINE, exit 2, none of it printed (exit $rc)" \
            "$(cat "$work/changed.err")"
    fi
else
    not_ok "a line changed between the passes: the test's shim and input"
fi

# Memory: a line's findings are read one at a time, so that refusing a
# line of 100,000 findings (78 MB) whose last is malformed costs about the
# line (reading it whole cost 16 times its size); and merging a line of
# 20,000 real findings (buggy.so's, over and over: 9 MB) holds one of them
# at a time with the line, in every format: at most twice its size and 32
# MiB (holding the record's findings, at 5.8 KB each, took 145 MB).  JSON
# read back renders the line it was read from: every finding came through.
# Not under ASan.
python3 - "$line" "$work/big.json" 100000 "$work/many.json" 20000 << 'EOF'
import json, sys
d = json.loads(sys.argv[1])
real = d["findings"]
f = dict(real[0], source="x" * 60, message="m" * 150)
d["findings"] = [dict(f, address=f["address"] + i) for i in range(int(sys.argv[3]))]
d["findings"][-1]["kind"] = "cfa-typo"
open(sys.argv[2], "w").write(json.dumps(d, separators=(",", ":")) + "\n")
d["findings"] = [real[i % len(real)] for i in range(int(sys.argv[5]))]
open(sys.argv[4], "w").write(json.dumps(d, separators=(",", ":")) + "\n")
EOF
# run_peak NAME ARGS...: as run, printing the run's peak resident size in KiB.
run_peak() {
    python3 -c 'import resource, subprocess, sys
with open(sys.argv[1] + ".out", "w") as out, open(sys.argv[1] + ".err", "w") as err:
    rc = subprocess.run(sys.argv[2:], stdout=out, stderr=err).returncode
open(sys.argv[1] + ".rc", "w").write("%d\n" % rc)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$work/$1" "$dwcheck" "${@:2}"
}
kib() { echo $(($(stat -c %s "$1") / 1024)); }
# (Under ASan, whose shadow memory is no measure, the 20,000 findings are
# merged and their outputs checked, with no bound.)
asan=0
if ldd "$dwcheck_binary" 2> /dev/null | grep -q libasan; then
    asan=1
    echo "# merge: the memory bounds are not measured under ASan"
else
    size_kb=$(kib "$work/big.json")
    peak=$(run_peak big --merge "$work/big.json")
    if [ "$peak" -lt $((3 * size_kb + 65536)) ] && [ "$(cat "$work/big.rc")" -eq 2 ] && [ ! -s "$work/big.out" ] &&
        grep -qF 'big.json:1: finding 100000: unknown finding kind' "$work/big.err"; then
        ok "a line of 100,000 findings ($size_kb KiB), the last malformed: refused with $peak KiB at most, nothing printed"
    else
        not_ok "a line of 100,000 findings ($size_kb KiB): refused with $peak KiB (at most 3 times the line), nothing printed" \
            "$(cat "$work/big.err")"
    fi
fi
size_kb=$(kib "$work/many.json")
for format in text json sarif; do
    peak=$(run_peak many --merge --format=$format "$work/many.json")
    if { [ $asan -eq 1 ] || [ "$peak" -lt $((2 * size_kb + 32768)) ]; } && [ "$(cat "$work/many.rc")" -eq 1 ] &&
        { [ $format != json ] || cmp -s "$work/many.json" "$work/many.out"; }; then
        ok "--merge --format=$format of a line of 20,000 findings ($size_kb KiB): $peak KiB at most$(
            [ $asan -eq 0 ] || echo ' (ASan: no bound)')"
    else
        not_ok "--merge --format=$format of a line of 20,000 findings ($size_kb KiB): $peak KiB" \
            "(at most twice the line and 32 MiB; exit $(cat "$work/many.rc")) $(head -c 300 "$work/many.err")"
    fi
done
# The HTML report keeps each finding (compactly): all 20,000 are on the page.
run many-html --merge --format=json --html="$work/many-html" "$work/many.json"
shown=$(grep -o '<div class="finding ' "$work/many-html/index.html" | wc -l)
[ "$shown" -eq 20000 ] && [ "$(cat "$work/many-html.rc")" -eq 1 ] &&
    ok "--merge --html of a line of 20,000 findings: every one on the page" ||
    not_ok "--merge --html of a line of 20,000 findings: $shown on the page" "$(head -c 300 "$work/many-html.err")"
run missing --merge "$work/no-such.jsonl"
[ "$(cat "$work/missing.rc")" -eq 2 ] && grep -q "no-such.jsonl: cannot open" "$work/missing.err" &&
    ok "a merge input that cannot be opened: exit 2" || not_ok "missing merge input" "$(cat "$work/missing.err")"

finish merge
