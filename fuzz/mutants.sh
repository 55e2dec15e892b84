#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Mutation runs: mutants of real binaries through every front end, under
# AddressSanitizer and UndefinedBehaviorSanitizer, with memory and time bounds.
#
#   fuzz/mutants.sh BUILD [--count N] [--from K] [--jobs J] [--timeout S] [--seed FILE]...
#
# BUILD is a sanitizer build (make SAN=1): its bin/dwtable, dwsynth, dwcheck,
# dwcompile and tests/mutate_elf are used.  The seeds are small binaries made
# here or found on every Debian system: tests/bad/sample.c built plainly, with
# CET's .plt.sec, and with .debug_frame; corpus/exceptions.cc (C++,
# .gcc_except_table); /bin/true (stripped); libz.so.1 (a shared library);
# libgcc_s.so.1 (hand-written CFI: expressions, signal frames); and any
# --seed FILE.  Mutant M, for M from K to K+N-1, is
# `mutate_elf SEED M` with SEED the seeds' (M mod #seeds)th: the same M always
# gives the same file.  Each mutant goes through the four front ends (their
# output formats and dwcompile's --force taken in turn by M), J at a time.
#
# A run passes when it exits 0, 1 or 2 with nothing from a sanitizer.  It
# fails on a crash (a signal), a sanitizer report, a timeout (S seconds), any
# other status, a peak RSS over 2 GiB, the C compiler failing on the code
# dwcompile generated, or a process or temporary file the run leaves behind.  A failing mutant is kept in BUILD/mutants/failures/
# SEED-M/ with the mutation, each failing command and its stderr.
#
# The 2 GiB bound.  ASan reserves about 20 TiB of address space (shadow
# memory and allocator regions) at start, so `ulimit -v` cannot express
# 2 GiB for an instrumented process: the tools get `ulimit -v` of 22 TiB,
# which only stops runaway mappings beyond ASan's own, and the bound is
# enforced by ASan itself: max_allocation_size_mb=2048 makes any single
# request above 2 GiB a report (allocation-size-too-big) rather than a
# mapping, and hard_rss_limit_mb=2048 makes its background thread stop the
# process with a report once its resident set passes 2 GiB.  The C compiler
# that dwcompile runs is not instrumented: CC is a wrapper that runs cc under
# `ulimit -v` of 2 GiB, so a compiler asked to build an enormous file fails
# (and dwcompile's "compiler failed" fails the run).  Finally every run is
# measured by /usr/bin/time (%M: the peak RSS of the tool or of the largest
# of the children it waited for, such as cc1), and a peak above 2 GiB fails
# the run even if no limit was hit; the largest is printed at the end.
set -u
usage() { echo "usage: mutants.sh BUILD [--count N] [--from K] [--jobs J] [--timeout S] [--seed FILE]..." >&2; exit 2; }
build=${1:-}
[ -n "$build" ] || usage
shift
count=300 from=0 jobs=2 timeout_s=20 extra_seeds=()
while [ $# -gt 0 ]; do
    case $1 in
    --count) count=${2:?}; shift 2 ;;
    --from) from=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    --timeout) timeout_s=${2:?}; shift 2 ;;
    --seed) extra_seeds+=("$(realpath "${2:?}")"); shift 2 ;;
    *) usage ;;
    esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd) || exit 2
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"

bin=$build/bin
mutate=$build/tests/mutate_elf
for t in "$bin/dwtable" "$bin/dwsynth" "$bin/dwcheck" "$bin/dwcompile" "$mutate"; do
    [ -x "$t" ] || { echo "mutants: $t is missing (make SAN=1 all $build/tests/mutate_elf)" >&2; exit 2; }
done
if ! nm "$bin/dwtable" 2>/dev/null | grep -q __asan_init; then
    echo "mutants: $bin/dwtable is not built with the sanitizers (make SAN=1)" >&2
    exit 2
fi

work=$build/mutants
rm -rf "$work/runs" "$work/failures"
mkdir -p "$work/seeds" "$work/runs" "$work/failures"

# ---- the seeds -----------------------------------------------------------
seeds=()
add_seed() { [ -s "$1" ] && seeds+=("$1"); }
s=$work/seeds
cc -O2 -g0 -o "$s/sample" "$root/tests/bad/sample.c" && add_seed "$s/sample"
cc -O2 -g0 -fcf-protection -Wl,-z,ibtplt -o "$s/sample-plt-sec" "$root/tests/bad/sample.c" 2>/dev/null &&
    add_seed "$s/sample-plt-sec"
cc -O1 -g -fno-asynchronous-unwind-tables -fdebug-prefix-map="$root"=. -o "$s/sample-debug-frame" \
    "$root/tests/bad/sample.c" &&
    add_seed "$s/sample-debug-frame"
c++ -O2 -g0 -o "$s/exceptions" "$root/corpus/exceptions.cc" && add_seed "$s/exceptions"
cp /bin/true "$s/true" && add_seed "$s/true"
for lib in libz.so.1 libgcc_s.so.1; do
    for d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64; do
        if [ -f "$d/$lib" ]; then
            cp -L "$d/$lib" "$s/$lib" && add_seed "$s/$lib"
            break
        fi
    done
done
for f in "${extra_seeds[@]}"; do add_seed "$f"; done
[ ${#seeds[@]} -gt 0 ] || { echo "mutants: no seed could be made" >&2; exit 2; }

# A failure is reported by its seed and number: the same ones must give the same file.
"$mutate" "${seeds[0]}" "$from" "$work/same-1" > /dev/null 2>&1
"$mutate" "${seeds[0]}" "$from" "$work/same-2" > /dev/null 2>&1
if cmp -s "$work/same-1" "$work/same-2" && ! cmp -s "$work/same-1" "${seeds[0]}"; then
    ok "mutate_elf makes the same mutant from the same seed and number"
else
    not_ok "mutate_elf makes the same mutant from the same seed and number"
fi
rm -f "$work/same-1" "$work/same-2"

# The C compiler for dwcompile, bounded to 2 GiB of address space.
cat > "$work/cc-bounded" <<'EOF'
#!/bin/sh
ulimit -v 2097152
exec cc "$@"
EOF
chmod +x "$work/cc-bounded"

# ---- one mutant (run by xargs, in parallel) --------------------------------
export MUT_BIN=$bin MUT_MUTATE=$mutate MUT_WORK=$work MUT_TIMEOUT=$timeout_s MUT_SEEDS="${seeds[*]}"
export ASAN_OPTIONS=detect_leaks=1:exitcode=66:max_allocation_size_mb=2048:hard_rss_limit_mb=2048:abort_on_error=0:symbolize=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=66
export CC=$work/cc-bounded

# report_signature FILE: the sanitizer's report in FILE as one line: its kind
# and the first frame in the project's code.
# shellcheck disable=SC2317  # run by xargs
report_signature() {
    local kind frame
    kind=$(grep -m 1 -oE '[A-Za-z_0-9/.]+:[0-9]+:[0-9]+: runtime error: .{0,80}|ERROR: [A-Za-z]+Sanitizer: [a-zA-Z -]+|[A-Za-z]+Sanitizer: (hard rss limit exhausted|CHECK failed).{0,60}' "$1")
    frame=$(grep -m 1 -oE ' in [A-Za-z_0-9.]+ (object|semantics|synth|verify|report|compile|annotate|tools|runtime)/[A-Za-z_0-9]+\.c:[0-9]+' "$1" ||
        grep -v -e __interceptor -e libsanitizer "$1" | grep -m 1 -oE ' in [A-Za-z_0-9.]+ \(/[^+]+' |
        sed -E 's| \(/.*/| (|; s/$/)/')
    echo "${kind:-$(grep -m 1 Sanitizer "$1")}${frame:+ at${frame# in}}"
}
export -f report_signature

# one_mutant M: prints "M SEED pass|fail PEAK_KB" and, for a failure, one
# "  CLASS [TOOL]" line per failing run, then how to make and run it again.
# shellcheck disable=SC2317  # run by xargs
one_mutant() {
    local m=$1 seeds seed name dir file
    read -r -a seeds <<< "$MUT_SEEDS"
    seed=${seeds[$((m % ${#seeds[@]}))]}
    name=$(basename "$seed")
    dir=$MUT_WORK/runs/$name-$m
    # The mutant is not in the tools' working directory: a file there named
    # libgcc_s.so.1 is what the linker takes for -lgcc_s (its linker script
    # names it without a directory) when dwcompile links an eh_elf.
    mkdir -p "$dir/in"
    file=$dir/in/$name
    if ! "$MUT_MUTATE" "$seed" "$m" "$file" > "$dir/mutation" 2> "$dir/mutate.err"; then
        printf '%s\n' "$m $name fail 0
  mutator: $(head -n 1 "$dir/mutate.err")"
        mv "$dir" "$MUT_WORK/failures/"
        return
    fi
    local formats=(readelf json) synth=(--format=readelf --format=json --format=cfi "--compare -j 1")
    local checks=(--format=text --format=json --format=sarif "--html=$dir/html") force=
    [ $((m % 3)) -eq 0 ] && force=--force
    local commands=(
        "dwtable --format=${formats[$((m % 2))]}"
        "dwsynth ${synth[$((m / 2 % 4))]}"
        "dwcheck -j 1 ${checks[$((m / 3 % 4))]}"
        "dwcompile -q $force -o $dir/out.eh_elf.so"
    )
    local peak=0 failed=() left=() i cmd tool rc rss class err f
    for i in "${!commands[@]}"; do
        cmd=${commands[$i]}
        tool=${cmd%% *}
        err=$dir/$i.$tool.err
        # The tool's arguments are split on blanks on purpose.
        # shellcheck disable=SC2086
        (cd "$dir" && ulimit -v 23622320128 &&
            exec env TMPDIR="$dir" timeout -k 5 "$MUT_TIMEOUT" /usr/bin/time -f %M -o "$dir/$i.rss" \
                "$MUT_BIN/$tool" ${cmd#* } "$file") > /dev/null 2> "$err"
        rc=$?
        rss=$(tail -n 1 "$dir/$i.rss" 2>/dev/null)
        [[ $rss =~ ^[0-9]+$ ]] || rss=0
        [ "$rss" -gt "$peak" ] && peak=$rss
        class=
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            class="timeout after ${MUT_TIMEOUT} s"
        elif grep -qE 'Sanitizer|runtime error:' "$err"; then
            class="sanitizer: $(report_signature "$err")"
        elif [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ]; then
            class="crash: signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null))"
        elif [ "$rc" -gt 2 ]; then
            class="exit status $rc: $(head -n 1 "$err")"
        elif [ "$rss" -gt 2097152 ]; then
            class="memory: peak RSS ${rss} KB"
        elif grep -q 'failed on the generated code' "$err"; then
            class="compiler: $(grep -v '^dwcompile: ' "$err" | grep -m 1 -E 'error|memory|Killed|signal' ||
                grep -m 1 'failed on the generated code' "$err")"
        fi
        # Nothing may outlive the run: no temporary file in the output
        # directory or TMPDIR (and, below, no process).
        left=()
        for f in "$dir"/* "$dir"/.[!.]*; do
            [ -e "$f" ] || [ -L "$f" ] || continue
            [[ ${f##*/} =~ ^(in|html|out\.eh_elf\.so|mutation|mutate\.err|commands|[0-9]+\.[a-z]+\.err|[0-9]+\.rss)$ ]] ||
                left+=("${f##*/}")
        done
        if [ ${#left[@]} -gt 0 ]; then
            class="${class:+$class; }left files: ${left[*]}"
            (cd "$dir" && rm -rf -- "${left[@]}")
        fi
        if [ -n "$class" ]; then
            failed+=("$class [$tool]")
            printf 'cd %s && %s %s %s  # exit %s, peak %s KB\n' "$dir" "$MUT_BIN/$tool" "${cmd#* }" "$file" "$rc" "$rss" \
                >> "$dir/commands"
        fi
    done
    # Processes whose command line names the mutant's directory: a compiler
    # that dwcompile started and did not stop.
    mapfile -t left < <(pgrep -f -- "$dir/")
    if [ ${#left[@]} -gt 0 ]; then
        failed+=("left running: $(ps -o comm= -p "$(IFS=,; echo "${left[*]}")" | paste -sd ' ') [after the runs]")
        kill -9 "${left[@]}" 2> /dev/null
    fi
    if [ ${#failed[@]} -eq 0 ]; then
        echo "$m $name pass $peak"
        rm -rf "$dir"
        return
    fi
    # One write, so that the other job's lines do not come in between.
    local block
    block="$m $name fail $peak
$(printf '  %s\n' "${failed[@]}")
  regenerate: $MUT_MUTATE $seed $m OUT
$(sed 's/^/  mutation: /' "$dir/mutation")
$(sed 's/^/  run: /' "$dir/commands" 2> /dev/null)"
    printf '%s\n' "${block:0:3800}"
    rm -rf "$dir/html" "$dir/out.eh_elf.so"
    mv "$dir" "$MUT_WORK/failures/"
}
export -f one_mutant

# ---- all of them ------------------------------------------------------------
echo "mutants: $count mutants ($from..$((from + count - 1))) of ${#seeds[@]} seeds ($(for f in "${seeds[@]}"; do basename "$f"; done | paste -sd ' ')), $jobs at a time, ${timeout_s} s each"
start=$SECONDS
done_n=0 peak=0 peak_at=
progress() {
    if [ -t 1 ]; then
        printf '\r  %d/%d mutants, %d failed, %d s' "$done_n" "$count" "$fail" $((SECONDS - start))
    elif [ $((done_n % 500)) -eq 0 ] || [ "$done_n" -eq "$count" ]; then
        printf '  %d/%d mutants, %d failed, %d s\n' "$done_n" "$count" "$fail" $((SECONDS - start))
    fi
}
causes=()
while IFS= read -r line; do
    [ -n "$line" ] || continue
    if [[ $line == "  "* ]]; then
        [ -t 1 ] && printf '\r\033[K'
        echo "$line"
        [[ $line =~ ^\ \ (timeout|sanitizer|crash|exit\ status|memory|compiler|left|mutator) ]] && causes+=("${line#  }")
        continue
    fi
    read -r m name verdict rss <<< "$line"
    done_n=$((done_n + 1))
    if [ "$rss" -gt "$peak" ]; then
        peak=$rss peak_at="$name-$m"
    fi
    if [ "$verdict" = pass ]; then
        pass=$((pass + 1))
    else
        [ -t 1 ] && printf '\r\033[K'
        not_ok "mutant $m of $name (kept in $work/failures/$name-$m)"
    fi
    progress
done < <(seq "$from" $((from + count - 1)) | xargs -P "$jobs" -I{} bash -c 'one_mutant {}')
[ -t 1 ] && echo
echo "mutants: $done_n mutants in $((SECONDS - start)) s; largest peak RSS $((peak / 1024)) MiB ($peak_at)"
[ "$done_n" -eq "$count" ] || not_ok "only $done_n of $count mutants ran"
if [ ${#causes[@]} -gt 0 ]; then
    echo "mutants: failing runs by cause:"
    printf '%s\n' "${causes[@]}" | sed -E 's/0x[0-9a-f]+/0x.../g; s/[0-9]+ KB/N KB/' | sort | uniq -c | sort -rn
fi
finish mutants
