# SPDX-License-Identifier: Apache-2.0
# tests/profile/workloads.sh: the programs and recordings that dwperf is
# tested (tests/profile/run.sh) and measured (bench/dwperf.sh) on, sourced.
#
#   profile_can_record DIR        0 when `perf record --call-graph dwarf` records here;
#                                 else 1, the reason on stdout
#   profile_build DIR             builds into DIR, all without frame pointers:
#       workload                  tests/profile/workload.cc, g++ -O2 -fomit-frame-pointer
#       loop-CC-OPT               the corpus programs that return (make bench's set) compiled
#                                 with CC at -OPT -fomit-frame-pointer, each main renamed
#                                 corpus_NAME, and a main that calls them in turn for
#                                 SECONDS (its argument): every sample of them reaches main
#   profile_record OUT CMD...     perf record -e cpu-clock -F $PROFILE_FREQ --call-graph dwarf
#                                 into OUT (no build-id cache update), CMD's stdout discarded
#   profile_record_all DIR BUILD SCALE
#                                 the recordings, DIR/NAME.data, SCALE times the base length:
#       cxx                       workload, 1.5 s
#       corpus-gcc, corpus-clang  every loop-CC-OPT of the compiler, 0.3 s each
#                                 (-O0 -O1 -O2 -O3 -Os, -fomit-frame-pointer)
#       corpus-exec               make corpus's own binaries (BUILD/corpus/CC/OPT-omitfp/NAME),
#                                 each run whole, 20 x SCALE times over: many short
#                                 processes, most samples in exec and the dynamic loader
#                                 (before main), the rest in the programs
#                                 PROFILE_RECORDINGS lists their names.
PROFILE_FREQ=${PROFILE_FREQ:-2000}
PROFILE_CORPUS="recursion many_registers large_frames alloca_vla switch_tables varargs aligned_locals"
PROFILE_LEVELS="O0 O1 O2 O3 Os"
PROFILE_RECORDINGS="cxx corpus-gcc corpus-clang corpus-exec"
profile_src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

profile_can_record() {
    local out
    if ! command -v perf > /dev/null; then
        echo "no perf command"
        return 1
    fi
    if ! out=$(perf record -e cpu-clock -F "$PROFILE_FREQ" --call-graph dwarf -N -q -o "$1/probe.data" \
               -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done' 2>&1) ||
       [ ! -s "$1/probe.data" ]; then
        echo "perf record fails: $(head -3 <<< "$out" | tr '\n' ' ')"
        return 1
    fi
    rm -f "$1/probe.data"
}

# The loop driver's main: the corpus programs in turn until the time is up.
profile_loop_main() {
    local p
    printf '#include <stdlib.h>\n#include <time.h>\n'
    for p in $PROFILE_CORPUS; do printf 'int corpus_%s(void);\n' "$p"; done
    printf 'static int (*const programs[])(void) = {\n'
    for p in $PROFILE_CORPUS; do printf '    corpus_%s,\n' "$p"; done
    cat << 'EOF'
};

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    double end = seconds_now() + (argc > 1 ? atof(argv[1]) : 1.0);
    do
        for (size_t i = 0; i < sizeof programs / sizeof *programs; i++)
            if (programs[i]() != 0)
                return 1;
    while (seconds_now() < end);
    return 0;
}
EOF
}

profile_build() {
    local dir=$1 cc opt p objs extra
    g++ -std=gnu++17 -O2 -fomit-frame-pointer -Wall -Wextra -Werror -o "$dir/workload" \
        "$profile_src/tests/profile/workload.cc" || return 1
    profile_loop_main > "$dir/loop_main.c"
    for cc in gcc clang; do
        for opt in $PROFILE_LEVELS; do
            objs=()
            for p in $PROFILE_CORPUS; do
                extra=
                [ "$p" = large_frames ] && extra=-fstack-clash-protection   # as corpus.mk builds it
                "$cc" -std=gnu11 -"$opt" -fomit-frame-pointer -g0 -fasynchronous-unwind-tables -w $extra \
                    -Dmain="corpus_$p" -c "$profile_src/corpus/$p.c" -o "$dir/$cc-$opt-$p.o" || return 1
                objs+=("$dir/$cc-$opt-$p.o")
            done
            "$cc" -std=gnu11 -"$opt" -fomit-frame-pointer -g0 -fasynchronous-unwind-tables -w \
                -o "$dir/loop-$cc-$opt" "$dir/loop_main.c" "${objs[@]}" || return 1
        done
    done
}

profile_record() {
    local out=$1
    shift
    perf record -e cpu-clock -F "$PROFILE_FREQ" --call-graph dwarf -N -q -o "$out" -- "$@" > /dev/null 2> "$out.log"
}

profile_record_all() {
    local dir=$1 build=$2 scale=$3 cc opt script runs
    profile_record "$dir/cxx.data" "$dir/workload" "$(awk -v s="$scale" 'BEGIN { print 1.5 * s }')" || return 1
    for cc in gcc clang; do
        script=
        for opt in $PROFILE_LEVELS; do
            script="$script \"$dir/loop-$cc-$opt\" $(awk -v s="$scale" 'BEGIN { print 0.3 * s }') || exit 1;"
        done
        profile_record "$dir/corpus-$cc.data" sh -c "$script" || return 1
    done
    # make corpus's binaries, exec'd whole: a few levels of each compiler.
    local bins=()
    for cc in gcc clang; do
        for opt in O0 O2 O3 Os; do
            for p in recursion large_frames many_registers alloca_vla exceptions; do
                [ -x "$build/corpus/$cc/$opt-omitfp/$p" ] && bins+=("$build/corpus/$cc/$opt-omitfp/$p")
            done
        done
    done
    [ ${#bins[@]} -gt 0 ] || { echo "no corpus binaries in $build/corpus (make corpus)" >&2; return 1; }
    runs=$(awk -v s="$scale" 'BEGIN { n = int(20 * s); print n < 1 ? 1 : n }')
    profile_record "$dir/corpus-exec.data" sh -c \
        'n=$1; shift; i=0; while [ $i -lt $n ]; do i=$((i + 1)); for b in "$@"; do "$b" || exit 1; done; done' \
        sh "$runs" "${bins[@]}"
}
