#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwperf against perf script on the same recordings, made in this run
# (tests/profile/workloads.sh at twice the test's length: a C++ workload,
# the corpus programs by gcc and clang at -O0..-Os without frame pointers,
# make corpus's binaries exec'd whole; `perf record -e cpu-clock
# --call-graph dwarf`, a few thousand samples each):
#   (a) end to end, warm cache: dwperf --format=script -i F > /dev/null
#       (run once first with --compile=always to fill its cache: "first
#       run", compiling included) against perf script --no-inline
#       -i F > /dev/null, DWPERF_RUNS (5) alternating runs of each, medians
#       and the ratio (target >= 5);
#   (b) the unwinding alone: build/bench/perf_unwind_bench, libunwind's
#       remote unw_step against dwu_space_unwind on the same samples, with
#       the eh_elfs dwperf compiled (target >= 20 per frame).
# Skips when perf cannot record here.
set -u
build=${1:?usage: dwperf.sh BUILD}
. "$(dirname "$0")/../tests/profile/workloads.sh"
dwperf=$build/bin/dwperf
runs=${DWPERF_RUNS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/dwperf-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cache=$work/cache
mkdir -p "$cache"

echo
if ! why=$(profile_can_record "$work"); then
    echo "dwperf bench: skipped: perf cannot record here ($why)"
    exit 0
fi
profile_build "$work" > "$work/build.log" 2>&1 || { echo "dwperf bench: the workloads do not build"; cat "$work/build.log"; exit 1; }
profile_record_all "$work" "$build" 2 || { echo "dwperf bench: the recordings failed"; cat "$work"/*.log; exit 1; }

elapsed_ns() {   # COMMAND...: its wall time in ns, its output discarded
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s%N)
    echo $((end - start))
}

med() {   # NUMBER...: their median
    printf '%s\n' "$@" | sort -g | awk '{ v[n++] = $1 } END { print n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2 }'
}

echo "dwperf --format=script against perf script --no-inline, end to end on the same recording, warm cache (median of $runs alternating runs)"
printf '  %-14s %8s %8s %16s %12s %15s %13s\n' recording samples MB "perf script s" "dwperf s" "first run s" "perf/dwperf"
results=$work/results
: > "$results"
for name in $PROFILE_RECORDINGS; do
    data=$work/$name.data
    samples=$(perf script --no-inline -i "$data" 2> /dev/null | grep -c '^[^[:space:]]')
    # The first dwperf run compiles the eh_elfs of every object it meets
    # into the cache (--compile=always waits for them): timed apart.
    cold=$(elapsed_ns "$dwperf" --cache="$cache" --compile=always --format=script -i "$data")
    if ! "$dwperf" --cache="$cache" --format=script -i "$data" > /dev/null 2> "$work/$name.err"; then
        echo "  $name: dwperf fails: $(head -1 "$work/$name.err")"
        continue
    fi
    perf_ns=() dw_ns=()
    for ((i = 0; i < runs; i++)); do
        perf_ns+=("$(elapsed_ns perf script --no-inline -i "$data")")
        dw_ns+=("$(elapsed_ns "$dwperf" --cache="$cache" --format=script -i "$data")")
    done
    p=$(med "${perf_ns[@]}") d=$(med "${dw_ns[@]}")
    awk -v n="$name" -v s="$samples" -v mb="$(stat -c %s "$data")" -v p="$p" -v d="$d" -v c="$cold" 'BEGIN {
        printf "  %-14s %8d %8.1f %16.3f %12.3f %15.3f %13.1f\n", n, s, mb / 1048576, p / 1e9, d / 1e9, c / 1e9, p / d }'
    echo "$p $d" >> "$results"
done
awk '{ r[n++] = $1 / $2 }
    END { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
          if (n) printf "  median perf script / dwperf over the %d recordings: %.1f (target >= 5)\n", n, n % 2 ? r[int(n / 2)] : (r[n / 2 - 1] + r[n / 2]) / 2 }' "$results"

files=()
for name in $PROFILE_RECORDINGS; do files+=("$work/$name.data"); done
"$build/bench/perf_unwind_bench" --cache="$cache" "${files[@]}"
