#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwperf against perf script --no-inline on recordings made here
# (tests/profile/workloads.sh: a C++ workload; the corpus programs built by
# gcc and clang at -O0..-Os without frame pointers, called in a loop; make
# corpus's binaries exec'd one after the other), each recorded with
# `perf record -e cpu-clock --call-graph dwarf`:
#   1. on every sample whose perf stack reaches main, dwperf --format=script
#      gives the same (dso, address) frames in the same order, on at least
#      99% of them (tests/profile/compare_script.py, which also counts where
#      perf stops early and dwperf goes further); the comparison itself
#      fails on an altered output;
#   2. the same with --compile=never (the DWARF interpreter, no eh_elfs)
#      and --compile=always (eh_elfs from each object's first frame);
#   3. --format=folded counts every sample once;
#   4. pipe mode: a recording written to a pipe, read from standard input,
#      gives the frames perf script gives, and `perf record -o - | dwperf -i -`;
#   5. bad input (a truncated recording, a random file, an empty file, a
#      missing one, one whose every sample is malformed): exit 2 with
#      "dwperf: FILE: reason", no crash.
# Skips (exit 0) when perf record cannot record on this machine.
# PROFILE_KEEP=1 keeps the recordings and outputs (their directory is printed).
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
. "$here/workloads.sh"
dwperf=$build/bin/dwperf
compare=$here/compare_script.py
work=$(mktemp -d "${TMPDIR:-/tmp}/dwperf-test.XXXXXX") || exit 1
if [ -n "${PROFILE_KEEP:-}" ]; then
    echo "profile: recordings and outputs kept in $work"
else
    trap 'rm -rf "$work"' EXIT
fi
cache=$work/cache
mkdir -p "$cache"

# The comparison's own cases first (it must be able to fail).
if out=$(python3 "$compare" --self-test 2>&1); then
    ok "$(tail -1 <<< "$out")"
else
    not_ok "the comparison's self-test" "$out"
fi

if ! why=$(profile_can_record "$work"); then
    echo "profile: skipped: perf cannot record here ($why)"
    exit 0
fi
if ! out=$(profile_build "$work" 2>&1); then
    not_ok "the workloads build" "$out"
    finish profile
fi
if ! profile_record_all "$work" "$build" 1; then
    not_ok "the recordings" "$(cat "$work"/*.log 2>/dev/null | tail -5)"
    finish profile
fi

# dwperf [OPTION...] -i FILE > OUT; what it said on stderr in OUT.err.
run_dwperf() {   # OUT OPTION...
    local out=$1
    shift
    "$dwperf" --cache="$cache" "$@" > "$out" 2> "$out.err"
}

# A crash is an exit status of 128 or more (a signal) or one the tool does
# not use.
status_word() {
    case $1 in
        0 | 1 | 2) echo "exit $1" ;;
        *) echo "exit $1 (crash?)" ;;
    esac
}

# 1. Same frames, each recording.
for name in $PROFILE_RECORDINGS; do
    data=$work/$name.data
    perf script --no-inline -i "$data" > "$work/$name.perf" 2> "$work/$name.perf.err"
    run_dwperf "$work/$name.dwperf" --format=script -i "$data"; rc=$?
    if [ $rc -ne 0 ]; then
        not_ok "$name: dwperf --format=script ($(status_word $rc))" "$(head -5 "$work/$name.dwperf.err")"
        continue
    fi
    # corpus-exec: few samples reach main (most are in exec and the
    # dynamic loader), but those few must be right too.
    out=$(python3 "$compare" --label "$name" "$work/$name.perf" "$work/$name.dwperf" 2>&1); rc=$?
    echo "$out" | grep -E "^$name: [0-9]+ samples|^$name: (reaching|perf's)" | sed 's/^/  /'
    if [ $rc -eq 0 ]; then
        ok "$name: dwperf --format=script: the same frames as perf script --no-inline"
    else
        not_ok "$name: dwperf --format=script: the same frames as perf script --no-inline" "$out"
    fi
    echo "  $(tail -1 "$work/$name.dwperf.err")"
done

# The comparison can fail: the C++ recording's output with one frame
# changed in every tenth sample that reaches main.
python3 - "$work/cxx.dwperf" "$work/cxx.altered" << 'EOF'
import re, sys
samples = open(sys.argv[1]).read().split("\n\n")
reaching = [i for i, s in enumerate(samples) if re.search(r"\smain\+0x", s)]
for i in reaching[::10]:   # the last digit of the first frame's address
    samples[i] = re.sub(r"(\n\s+[0-9a-f]*)([0-9a-f]) ", lambda m: m.group(1) + "01"[m.group(2) == "0"] + " ",
                        samples[i], count=1)
open(sys.argv[2], "w").write("\n\n".join(samples))
EOF
if ! cmp -s "$work/cxx.dwperf" "$work/cxx.altered" &&
   ! python3 "$compare" --label altered "$work/cxx.perf" "$work/cxx.altered" > "$work/altered.out" 2>&1; then
    ok "the comparison fails on an altered output ($(grep -o 'differing [0-9]*' "$work/altered.out" | head -1))"
else
    not_ok "the comparison fails on an altered output" "$(tail -3 "$work/altered.out" 2>/dev/null)"
fi

# 2. Each way of unwinding alone: the DWARF interpreter (no eh_elfs), and
# eh_elfs compiled at each object's first frame.
for mode in never always; do
    run_dwperf "$work/cxx.$mode" --compile=$mode --format=script -i "$work/cxx.data"; rc=$?
    out=$(python3 "$compare" --label "cxx --compile=$mode" "$work/cxx.perf" "$work/cxx.$mode" 2>&1); crc=$?
    if [ $rc -eq 0 ] && [ $crc -eq 0 ]; then
        ok "cxx: dwperf --compile=$mode: the same frames as perf script --no-inline"
        grep "reaching main" <<< "$out" | sed 's/^/  /'
    else
        not_ok "cxx: dwperf --compile=$mode: the same frames ($(status_word $rc))" "$out
$(head -3 "$work/cxx.$mode.err")"
    fi
done

# 3. Folded stacks: LINE = FRAMES COUNT, the counts totalling the samples.
for name in cxx corpus-gcc; do
    run_dwperf "$work/$name.folded" --format=folded -i "$work/$name.data"; rc=$?
    samples=$(grep -c '^[^[:space:]]' "$work/$name.perf")
    total=$(awk '$NF !~ /^[0-9]+$/ { bad++ } { t += $NF } END { print bad ? "malformed" : t + 0 }' "$work/$name.folded")
    if [ $rc -eq 0 ] && [ "$total" = "$samples" ]; then
        ok "$name: --format=folded counts the $samples samples ($(wc -l < "$work/$name.folded") stacks)"
    else
        not_ok "$name: --format=folded counts the samples ($(status_word $rc); $total for $samples)" \
            "$(head -3 "$work/$name.folded.err")"
    fi
done

# 4. Pipe mode: a recording written to a pipe, read back from standard input
# by both; then dwperf at the end of perf record's pipe.
perf record -e cpu-clock -F "$PROFILE_FREQ" --call-graph dwarf -N -q -o - -- "$work/workload" 0.4 \
    2> /dev/null > "$work/pipe.data"
perf script --no-inline -i - < "$work/pipe.data" > "$work/pipe.perf" 2> /dev/null
"$dwperf" --cache="$cache" --format=script -i - < "$work/pipe.data" > "$work/pipe.dwperf" 2> "$work/pipe.err"; rc=$?
out=$(python3 "$compare" --label pipe "$work/pipe.perf" "$work/pipe.dwperf" 2>&1); crc=$?
if [ $rc -eq 0 ] && [ $crc -eq 0 ]; then
    ok "pipe mode: dwperf -i - < recording: the same frames as perf script -i -"
    grep "reaching main" <<< "$out" | sed 's/^/  /'
else
    not_ok "pipe mode: dwperf -i - < recording ($(status_word $rc))" "$out
$(head -3 "$work/pipe.err")"
fi
perf record -e cpu-clock -F "$PROFILE_FREQ" --call-graph dwarf -N -q -o - -- "$work/workload" 0.3 2> /dev/null |
    "$dwperf" --cache="$cache" --format=script -i - > "$work/live.dwperf" 2> "$work/live.err"
rc=${PIPESTATUS[1]}
samples=$(grep -c '^[^[:space:]]' "$work/live.dwperf")
reaching=$(awk 'BEGIN { RS = "" } / main\+/ { n++ } END { print n + 0 }' "$work/live.dwperf")
if [ $rc -eq 0 ] && [ "$samples" -gt 20 ] && [ "$reaching" -gt $((samples * 9 / 10)) ]; then
    ok "pipe mode: perf record -o - | dwperf -i -: $samples samples, $reaching reaching main"
else
    not_ok "pipe mode: perf record -o - | dwperf -i - ($(status_word $rc), $samples samples, $reaching reaching main)" \
        "$(head -3 "$work/live.err")"
fi

# 5. Bad input.
size=$(stat -c %s "$work/cxx.data")
head -c $((size / 2)) "$work/cxx.data" > "$work/truncated-data.data"
head -c 200 "$work/cxx.data" > "$work/truncated-header.data"
head -c 100000 /dev/urandom > "$work/random.data"
: > "$work/empty.data"
for bad in truncated-data truncated-header random empty missing; do
    file=$work/$bad.data
    "$dwperf" --cache="$cache" --format=script -i "$file" > /dev/null 2> "$work/$bad.err"; rc=$?
    if [ $rc -eq 2 ] && grep -q "^dwperf: $file: ." "$work/$bad.err" && ! grep -q "^dwperf: $file: $file:" "$work/$bad.err"; then
        ok "bad input: $bad: exit 2, $(grep -m1 "^dwperf: $file: " "$work/$bad.err" | sed "s|$work/||g")"
    else
        not_ok "bad input: $bad: exit 2 with dwperf: FILE: reason, the file named once ($(status_word $rc))" \
            "$(head -3 "$work/$bad.err")"
    fi
done
# Every sample malformed (each one's callchain said longer than its record):
# perf script fails on it, and so does dwperf, saying why.
python3 - "$work/cxx.data" "$work/malformed.data" << 'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
attrs, _, data, size = struct.unpack_from("<QQQQ", b, 24)       # perf_file_header
sample_type = struct.unpack_from("<Q", b, attrs + 24)[0]         # the first perf_event_attr's
assert sample_type & (1 << 5) and not sample_type & (1 << 4)     # CALLCHAIN, no READ
# The words before the callchain: IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD.
before = sum(1 for bit in (16, 0, 1, 2, 3, 6, 9, 7, 8) if sample_type & (1 << bit))
at = data
while at + 8 <= data + size:
    kind, _, length = struct.unpack_from("<IHH", b, at)
    if kind == 9:                                                # PERF_RECORD_SAMPLE
        struct.pack_into("<Q", b, at + 8 + 8 * before, 1 << 40)
    at += max(length, 8)
open(sys.argv[2], "wb").write(b)
EOF
file=$work/malformed.data
perf script -i "$file" > /dev/null 2>&1; perf_rc=$?
"$dwperf" --cache="$cache" -i "$file" > /dev/null 2> "$work/malformed.err"; rc=$?
if [ $perf_rc -ne 0 ] && [ $rc -eq 2 ] &&
   grep -q "^dwperf: $file: no sample could be read: [0-9]* malformed records (first: .*callchain" "$work/malformed.err"; then
    ok "bad input: every sample malformed: exit 2 (perf script $perf_rc), $(grep -m1 "^dwperf: $file: " "$work/malformed.err" | sed "s|$work/||")"
else
    not_ok "bad input: every sample malformed: exit 2 with the reason ($(status_word $rc), perf script $perf_rc)" \
        "$(head -3 "$work/malformed.err")"
fi
# The same through standard input.
"$dwperf" --cache="$cache" -i - < "$work/random.data" > /dev/null 2> "$work/random-stdin.err"; rc=$?
if [ $rc -eq 2 ] && grep -q "^dwperf: .*: ." "$work/random-stdin.err"; then
    ok "bad input: a random file on standard input: exit 2, $(head -1 "$work/random-stdin.err")"
else
    not_ok "bad input: a random file on standard input ($(status_word $rc))" "$(head -3 "$work/random-stdin.err")"
fi

# Mutated recordings (bytes changed at random in a small recording: record
# sizes, sample fields, registers, stack copies): every run ends with exit
# status 0 or 2, never a signal or a hang.  Under the sanitizers when their
# build is there (make check builds it for the mutants of real binaries).
mutant_tool=$dwperf
[ -x build-san/bin/dwperf ] && [ "$build" != build-san ] && mutant_tool=build-san/bin/dwperf
python3 - "$work/pipe.data" "$work/mutant" <<'PY'
import random, sys
data = bytearray(open(sys.argv[1], 'rb').read())
rng = random.Random(1)
for i in range(60):
    m = bytearray(data)
    for _ in range(rng.choice([1, 2, 4, 16])):
        at = rng.randrange(len(m))
        m[at] = rng.choice([0, 0xff, 0x7f, 0x80, rng.randrange(256)])
    open(f"{sys.argv[2]}{i}.data", 'wb').write(m)
PY
crashed=0 handled=0 errors=0
for f in "$work"/mutant*.data; do
    timeout 20 "$mutant_tool" --cache="$cache" --compile=never -q -i "$f" > /dev/null 2> "$work/mutant.err"; rc=$?
    if [ $rc -eq 0 ] || [ $rc -eq 2 ]; then
        handled=$((handled + 1)); [ $rc -eq 2 ] && errors=$((errors + 1))
    else
        crashed=$((crashed + 1)); echo "  $(basename "$f"): exit $rc: $(head -2 "$work/mutant.err")"
    fi
done
if [ $crashed -eq 0 ] && [ $handled -gt 0 ]; then
    ok "mutated recordings through $(basename "$(dirname "$(dirname "$mutant_tool")")")/bin/dwperf: $handled handled ($errors refused with exit 2), none crashed or hung"
else
    not_ok "mutated recordings: $crashed of $((handled + crashed)) crashed or hung"
fi

finish profile
