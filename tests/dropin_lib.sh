# SPDX-License-Identifier: Apache-2.0
# tests/dropin_lib.sh: what the drop-in's suites (unwind_abi, register_frame)
# share (sourced after tests/lib.sh, with root, build and work set, work/mutant
# made):
#   dropin, libgcc          the drop-in libunwind.so.8 and libgcc_s.so.1
#   compat_srcs, san        the drop-in's C sources and the sanitizer flags
#   step CMD...             run CMD, its output in $log
#   preloaded LIB           LD_PRELOAD's value for LIB (after the sanitizers'
#                           runtime, which must come first in a process);
#                           preload is the drop-in's
#   gcc_versions REGEX LIB  LIB's GCC_* versioned names matching REGEX, sorted
#   mutant_build FILE SED   the drop-in with SED applied to compat/FILE, built
#                           as make builds it, in $work/mutant/libunwind.so.8
dropin=$build/lib/dwunwind/libunwind.so.8
libgcc=/lib/x86_64-linux-gnu/libgcc_s.so.1
compat_srcs=${COMPAT_SRCS:?COMPAT_SRCS: the C sources of the drop-in}
san=${SAN_FLAGS:-}
log=$work/build.log
: > "$log"
step() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1; }

asan=
if [ -n "$san" ]; then
    asan=$(cc -print-file-name=libasan.so)
    export ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
fi
preloaded() { echo ${asan:+"$asan "}"$1"; }
preload=$(preloaded "$dropin")

gcc_versions() { objdump -T "$2" | awk -v re="$1" '$NF ~ re && $(NF-1) ~ /^GCC_/ { print $NF, $(NF-1) }' | sort; }

mutant_build() {
    local src=$work/mutant objs=() f
    rm -rf "$src/compat" "$src/obj" && mkdir -p "$src/compat" "$src/obj" && cp compat/* "$src/compat/" || return 1
    sed -i "$2" "$src/compat/$1" && ! cmp -s "compat/$1" "$src/compat/$1" || { echo "the mutation did not apply"; return 1; }
    for f in $compat_srcs; do
        cc -std=c11 -D_GNU_SOURCE -O2 -fPIC -fvisibility=hidden $san -I"$src" -I"$root" -c "$src/$f" \
            -o "$src/obj/$(basename "$f" .c).o" || return 1
        objs+=("$src/obj/$(basename "$f" .c).o")
    done
    cc $san -I"$src" -c "$src/compat/unw_context.S" -o "$src/obj/unw_context.o" &&
    cc $san -shared -Wl,-soname,libunwind.so.8 -Wl,--version-script="$src/compat/libunwind.map" "${objs[@]}" \
        "$src/obj/unw_context.o" -Wl,--whole-archive "$build/lib/libdwunwind.a" -Wl,--no-whole-archive \
        -Wl,--exclude-libs,ALL -ldl -lpthread -o "$src/libunwind.so.8"
}
