#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Unwinding tests: dwcompile's gate and outputs, and the dwunwind runtime
# (eh_elfs, then the DWARF fallback) against libgcc and libunwind on the
# stacks of tests/unwind/check_unwind.c, plus corrupted copies of them, and
# on stacks sampled at random instructions of make bench's workloads.
set -u
build=${1:?usage: run.sh BUILD}
dwcompile=$build/bin/dwcompile
exe=$build/tests/check_unwind
work=$build/tests/unwind
eh=$work/eh
rm -rf "$work" && mkdir -p "$eh"
. "$(dirname "$0")/../lib.sh"

libc=$(ldd "$exe" | awk '$1 ~ /^libc\.so/ { print $3 }')

# 1. The gate: libc has CFI bugs dwcheck reports (glibc's mpn routines), so
# dwcompile refuses it, lists the findings and writes nothing.
out=$("$dwcompile" -o "$work/refused.eh_elf.so" "$libc" 2>&1); rc=$?
if [ $rc -eq 1 ] && [ ! -e "$work/refused.eh_elf.so" ] && grep -q "refused: verification reports" <<< "$out" &&
   grep -q "error: " <<< "$out"; then
    ok "dwcompile refuses a binary with verification errors (exit 1, findings listed, no output)"
else
    not_ok "dwcompile refuses a binary with verification errors (exit $rc)" "$out"
fi

# 2. The eh_elfs: the test program (clean) and libc (--force).
if "$dwcompile" -q -o "$eh/check_unwind.eh_elf.so" --emit-c "$work/check_unwind.c" "$exe"; then
    ok "dwcompile: the test program's eh_elf"
else
    not_ok "dwcompile: the test program's eh_elf"
fi
if "$dwcompile" -q --force -o "$eh/libc.so.6.eh_elf.so" "$libc" > /dev/null 2>&1; then
    ok "dwcompile --force: libc's eh_elf"
else
    not_ok "dwcompile --force: libc's eh_elf"
fi
# The generated C is warning-free under the project's own warnings.
if cc -O2 -fPIC -shared -Wall -Wextra -Werror -o "$work/warnings.so" "$work/check_unwind.c" 2>&1; then
    ok "generated C compiles with -Wall -Wextra -Werror"
else
    not_ok "generated C compiles with -Wall -Wextra -Werror"
fi

# 3. Every row of the eh_elfs of libc, libstdc++, libz3 and the corpus
# (200 binaries) unwinds exactly as the runtime's interpreter unwinds it, and
# as the DWARF fallback unwinds it from the file's own .eh_frame (same table,
# same answer, whichever path), and the runtime's check of eh_elf files
# (runtime/eh_elf_file.h) accepts them.
equiv() {   # OBJECT EH_ELF
    "$build/tests/eh_elf_equiv" "$1" "$2" 2>&1 &&
        "$build/tests/eh_elf_check" --load "$2" > /dev/null
}
libstdcxx=/usr/lib/x86_64-linux-gnu/libstdc++.so.6
libz3=/usr/lib/x86_64-linux-gnu/libz3.so.4
for lib in "$libc" "$libstdcxx" "$libz3"; do
    base=$(basename "$lib")
    force=()
    [ "$lib" = "$libc" ] && force=(--force)   # its reported CFI bugs, see 1.
    if "$dwcompile" -q "${force[@]}" -o "$eh/$base.eh_elf.so" "$lib" > /dev/null 2>&1 &&
       out=$(equiv "$lib" "$eh/$base.eh_elf.so"); then
        ok "$out"
    else
        not_ok "$base: eh_elf agrees with its table" "${out:-dwcompile failed}"
    fi
done
# The corpus: no verification errors (no --force), and every row agrees.
corpus=$(find "$build/corpus" -type f -perm -u+x | sort)
compiled=0 refused=() differ=() drap=0
for bin in $corpus; do
    if ! "$dwcompile" -q -o "$work/corpus.eh_elf.so" "$bin" > "$work/corpus.log" 2>&1; then
        refused+=("$bin")
    elif ! out=$(equiv "$bin" "$work/corpus.eh_elf.so"); then
        differ+=("$out")
    else
        compiled=$((compiled + 1))
        drap=$((drap + $(sed -nE 's/.*simple addresses \(([0-9]+) of DRAP frames\).*/\1/p' <<< "$out")))
    fi
done
# GCC's DRAP frames (corpus/aligned_locals.c at -O0) are among the rows
# compared as descriptors, not left to the full step.
if [ "$drap" -gt 0 ]; then
    ok "corpus: $drap addresses of DRAP frames have descriptors, each applied as the step does"
else
    not_ok "corpus: DRAP frames have descriptors" "none among the corpus' rows"
fi
if [ -n "$corpus" ] && [ ${#refused[@]} -eq 0 ] && [ ${#differ[@]} -eq 0 ]; then
    ok "corpus: $compiled eh_elfs built without --force, every row identical to the interpreter's and the DWARF fallback's, each file accepted"
else
    not_ok "corpus: $compiled agree, ${#refused[@]} refused, ${#differ[@]} differ" \
        "$(printf '%s\n' "${refused[@]}" "${differ[@]}" | head -20)"
fi
# CFI at the shared bounds (semantics/unwind_limits.h) and rules whose
# evaluation fails: remember_state six deep, a CFA expression of 99
# operations, a division by zero, a register no frame knows, DW_OP_stack_value,
# a loop of 18000 operations.  The eh_elf, the interpreter and the DWARF
# fallback give the same status (ereg and ebadrule among them) or registers;
# the C of those expressions (dup, stack_value, branches) is warning-free.
if cc -shared -nostdlib -o "$work/limits.so" "$(dirname "$0")/limits.S" &&
   "$dwcompile" -q --force -o "$work/limits.eh_elf.so" --emit-c "$work/limits.c" "$work/limits.so" > /dev/null 2>&1 &&
   out=$(equiv "$work/limits.so" "$work/limits.eh_elf.so") && grep -q "ereg [1-9].*ebadrule [1-9]" <<< "$out" &&
   cc -O2 -fPIC -shared -Wall -Wextra -Werror -o "$work/limits_warnings.so" "$work/limits.c" > "$work/limits_cc.log" 2>&1; then
    ok "limits and failing rules: $out"
else
    not_ok "limits and failing rules: the eh_elf, the interpreter and the DWARF fallback agree" \
        "${out:-build failed}$(cat "$work/limits_cc.log" 2>/dev/null)"
fi
# The check can fail: one changed offset in one row body is caught.
sed '0,/cfa + (uint64_t)-16ll/s//cfa + (uint64_t)-24ll/' "$work/check_unwind.c" > "$work/mutated.c"
if cc -O2 -fPIC -shared -o "$work/mutated.so" "$work/mutated.c" && ! equiv "$exe" "$work/mutated.so" > /dev/null; then
    ok "a mutated eh_elf (one offset changed) is caught"
else
    not_ok "a mutated eh_elf (one offset changed) is caught"
fi
# ... and so is one page of the index that names the wrong row body (an odd
# body number, lowered by one: another body of the same eh_elf).
awk '/^static const uint32_t page\[/ { inpage = 1 }
     inpage && !done { n = split($0, v, ",")
         for (i = 1; i <= n; i++) if (v[i] + 0 >= 2147483648 && (v[i] % 2) == 1) { v[i] = v[i] - 1; done = 1; break }
         if (done) { line = v[1]; for (j = 2; j <= n; j++) line = line "," v[j]; $0 = line } }
     { print }' "$work/check_unwind.c" > "$work/mutated_page.c"
if ! cmp -s "$work/check_unwind.c" "$work/mutated_page.c" &&
    cc -O2 -fPIC -shared -o "$work/mutated_page.so" "$work/mutated_page.c" &&
    ! equiv "$exe" "$work/mutated_page.so" > /dev/null; then
    ok "a mutated eh_elf (one page of the index names another row body) is caught"
else
    not_ok "a mutated eh_elf (one page of the index names another row body) is caught"
fi

# 4. dwunwind against libgcc and libunwind: with eh_elfs, then DWARF only.
expect_identical() {
    local name=$1 out=$2 rc=$3 eh_elfs=$4
    local with
    with=$(awk '/code segments/ { print $4 }' <<< "$out")
    if [ "$rc" -eq 0 ] && grep -q "; 0 mismatches" <<< "$out" && [ "${with:-0}" -ge "$eh_elfs" ]; then
        ok "$name: $(grep stacks <<< "$out")"
    else
        not_ok "$name (exit $rc, ${with:-?} eh_elfs)" "$out"
    fi
}
out=$(DWUNWIND_PATH=$eh "$exe" --corrupt "${CORRUPT_RUNS:-2500}" 2>&1); rc=$?
expect_identical "eh_elfs" "$out" $rc 2
if grep -q "corrupted stacks: [1-9][0-9]* unwound without a crash" <<< "$out"; then
    ok "$(grep corrupted <<< "$out")"
else
    not_ok "corrupted stacks" "$out"
fi
out=$("$exe" --dwarf 2>&1); rc=$?
expect_identical "DWARF fallback" "$out" $rc 0
# An eh_elf of another build (here: libstdc++'s, under the test program's
# name) is not used: its identity differs, and the DWARF fallback unwinds.
mkdir -p "$work/stale"
cp "$eh/libstdc++.so.6.eh_elf.so" "$work/stale/check_unwind.eh_elf.so"
out=$(DWUNWIND_PATH=$work/stale "$exe" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q ", 0 with an eh_elf" <<< "$out" && grep -q "; 0 mismatches" <<< "$out"; then
    ok "a stale eh_elf is ignored (its identity differs)"
else
    not_ok "a stale eh_elf is ignored (its identity differs)" "$out"
fi

# eh_elf ABI versions: one of the oldest version the runtime reads
# (DWU_EH_ELF_ABI_OLDEST, whose descriptors are a subset) is used; one of a
# version newer than the runtime's, whose descriptors it might misread, is
# refused, and the DWARF fallback unwinds.
oldest=$(sed -nE 's/^#define DWU_EH_ELF_ABI_OLDEST ([0-9]+).*/\1/p' runtime/dwunwind.h)
current=$(sed -nE 's/^#define DWU_EH_ELF_ABI ([0-9]+).*/\1/p' runtime/dwunwind.h)
for version in "$oldest" $((current + 1)); do
    mkdir -p "$work/abi$version"
    sed "s/^const unsigned dwu_eh_elf_abi = DWU_EH_ELF_ABI;/const unsigned dwu_eh_elf_abi = $version;/" \
        "$work/check_unwind.c" > "$work/abi$version.c"
    if ! grep -q "dwu_eh_elf_abi = $version;" "$work/abi$version.c" ||
       ! cc -O2 -fPIC -shared -o "$work/abi$version/check_unwind.eh_elf.so" "$work/abi$version.c"; then
        not_ok "an eh_elf of ABI $version" "cannot build it from the emitted C"
        continue
    fi
    out=$(DWUNWIND_PATH=$work/abi$version "$exe" 2>&1); rc=$?
    if [ "$version" -le "$current" ]; then
        expect_identical "an eh_elf of ABI $version (the oldest read; this runtime's is $current) is used" "$out" $rc 1
    elif [ $rc -eq 0 ] && grep -q ", 0 with an eh_elf" <<< "$out" && grep -q "; 0 mismatches" <<< "$out"; then
        ok "an eh_elf of ABI $version (newer than this runtime's $current) is refused"
    else
        not_ok "an eh_elf of ABI $version (newer than this runtime's $current) is refused" "$out"
    fi
done

# The registry built again (as after a dlopen) finds the same eh_elfs, loaded
# once (their names are /proc/self/fd/N), and takes none for an object.
segments=$("$exe" --dwarf 2>&1 | awk '/code segments/ { print $1 }')
out=$(DWUNWIND_PATH=$eh "$exe" --rebuild 2>&1); rc=$?
if grep -q "^$segments code segments" <<< "$out"; then
    expect_identical "eh_elfs, objects listed twice" "$out" $rc 2
else
    not_ok "eh_elfs, objects listed twice: $segments code segments expected" "$out"
fi

# Linkers and options dwcompile may meet through \$CC: eh_elfs with a SysV
# hash table, with both, with packed relative relocations (DT_RELR), from
# clang, from lld.  The runtime's check accepts them, and they unwind.
variants=("cc -Wl,--hash-style=sysv" "cc -Wl,--hash-style=both" "cc -Wl,-z,pack-relative-relocs"
          "clang" "clang -fuse-ld=lld")
for v in "${variants[@]}"; do
    dir=$work/cc/$(tr -c 'a-z0-9' _ <<< "$v")
    mkdir -p "$dir"
    if CC=$v "$dwcompile" -q -o "$dir/check_unwind.eh_elf.so" "$exe" > "$dir/log" 2>&1 &&
       "$build/tests/eh_elf_check" "$dir/check_unwind.eh_elf.so" >> "$dir/log" 2>&1; then
        out=$(DWUNWIND_PATH=$dir "$exe" 2>&1); rc=$?
        expect_identical "an eh_elf made by $v" "$out" $rc 1
    else
        not_ok "an eh_elf made by $v" "$(cat "$dir/log")"
    fi
done

# A file that is not a well-formed eh_elf, found where an eh_elf is looked
# for, is ignored (runtime/eh_elf_file.h): the program neither crashes
# (dlopen died of SIGBUS on a truncated file) nor hangs (opening a FIFO
# waited for a writer), and the DWARF fallback unwinds.  Each maker makes
# the bad file DST from the good eh_elf SRC, for the test program and libc.
u16() { od -An -tu2 -j "$2" -N2 "$1" | tr -d ' '; }
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
u64() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }
put64() {   # FILE OFFSET VALUE: writes VALUE there, little-endian
    local bytes='' i
    for i in 0 1 2 3 4 5 6 7; do bytes+=$(printf '\\x%02x' $(( ($3 >> (8 * i)) & 255 ))); done
    printf "$bytes" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
phdr() {   # FILE TYPE FLAGS: the offset of the first program header of TYPE with FLAGS (R 4, W 2, X 1)
    local phoff phnum i at
    phoff=$(u64 "$1" 32) phnum=$(u16 "$1" 56)
    for ((i = 0; i < phnum; i++)); do
        at=$((phoff + 56 * i))
        if [ "$(u32 "$1" $at)" -eq "$2" ] && [ $(($(u32 "$1" $((at + 4))) & 7)) -eq "$3" ]; then
            echo $at
            return
        fi
    done
    echo "run.sh: $1: no program header of type $2 with flags $3" >&2
    return 1
}
truncated() { head -c 8192 "$1" > "$2"; }
fifo() { mkfifo "$2"; }
directory() { mkdir "$2"; }
add64() {   # FILE OFFSET N: adds N to the word there
    local word
    word=$(u64 "$1" "$2") && put64 "$1" "$2" $((word + $3))
}
code_past_eof() {   # the code segment (p_filesz, p_memsz) 1 MiB longer than the file
    local at
    cp "$1" "$2" && at=$(phdr "$2" 1 5) && add64 "$2" $((at + 32)) $((1 << 20)) &&
        add64 "$2" $((at + 40)) $((1 << 20))
}
data_past_eof() {   # the data segment's bytes (p_offset) 1 MiB further on, past the end
    local at
    cp "$1" "$2" && at=$(phdr "$2" 1 6) && add64 "$2" $((at + 8)) $((1 << 20))
}
executable_stack() {   # PT_GNU_STACK RWX: the loader would make every stack executable
    local at
    cp "$1" "$2" && at=$(phdr "$2" $((0x6474e551)) 6) && put64 "$2" $at $((0x6474e551 | (7 << 32)))
}
wild_relocation() {   # the first dynamic relocation writes 1 TiB away
    # dwcompile's eh_elfs have no relocations (no start files): the test
    # program's is built again from its C with them, which brings some.
    # libc's is left out (only the test program's is there, bad).
    local rela
    case $1 in *check_unwind.eh_elf.so) ;; *) return 0 ;; esac
    cc -O2 -fPIC -shared -o "$2" "$work/check_unwind.c" &&
        rela=$(readelf -SW "$2" | sed -n 's/.*\] \.rela\.dyn *RELA *[0-9a-f]* \([0-9a-f]*\) .*/\1/p') &&
        [ -n "$rela" ] && put64 "$2" $((16#$rela)) $((1 << 40))
}
for bad in truncated fifo directory code_past_eof data_past_eof executable_stack wild_relocation; do
    dir=$work/bad/$bad
    mkdir -p "$dir"
    made=1
    for base in check_unwind libc.so.6; do
        "$bad" "$eh/$base.eh_elf.so" "$dir/$base.eh_elf.so" || made=0
    done
    out=$(DWUNWIND_PATH=$dir timeout 20 "$exe" 2>&1); rc=$?
    [ $rc -eq 124 ] && out="timed out (20 s)"
    [ $rc -gt 128 ] && out="killed by signal $((rc - 128)) ${out}"
    if [ $made -eq 1 ] && [ $rc -eq 0 ] && grep -q ", 0 with an eh_elf" <<< "$out" &&
       grep -q "; 0 mismatches" <<< "$out"; then
        ok "a bad eh_elf ($bad) is ignored, the DWARF fallback unwinds"
    else
        not_ok "a bad eh_elf ($bad) is ignored, the DWARF fallback unwinds (exit $rc)" "$out"
    fi
done

# A loaded object whose program headers overstate a segment the runtime
# reads in memory (its notes, where the build-id is looked for, or its
# .eh_frame_hdr, which is hashed when there is none): what it reads is kept
# within the object's loaded segments, and the object is unwound from DWARF.
if cc -O2 -fPIC -shared -Wl,--build-id=none -o "$work/lying.so" tests/unwind/lying_object.c \
      2> "$work/lying.log"; then
    for segment in note:4 eh_frame_hdr:$((0x6474e550)); do
        name=${segment%%:*} lying=$work/lying_${segment%%:*}.so
        cp "$work/lying.so" "$lying"
        at=$(phdr "$lying" "${segment#*:}" 4) && put64 "$lying" $((at + 40)) $((1 << 30))
        # (ASan wants to come first among the libraries; it does not need to here.)
        out=$(LD_PRELOAD=$lying ASAN_OPTIONS=verify_asan_link_order=0 timeout 20 "$exe" 2>&1); rc=$?
        [ $rc -gt 128 ] && out="killed by signal $((rc - 128)) ${out}"
        if [ $rc -eq 0 ] && grep -q "^$((segments + 1)) code segments" <<< "$out" &&
           grep -q "; 0 mismatches" <<< "$out"; then
            ok "an object whose $name segment claims 1 GiB: read within its mapping, unwound from DWARF"
        else
            not_ok "an object whose $name segment claims 1 GiB (exit $rc)" "$out"
        fi
    done
else
    not_ok "tests/unwind/lying_object.c compiles" "$(cat "$work/lying.log")"
fi

# A set-group-ID (or set-user-ID) program does not read DWUNWIND_PATH:
# whoever runs it must not choose the code it loads.  (The same copy
# without the bit uses the eh_elfs there.)
if [ "$(id -u)" -eq 0 ]; then
    mkdir -p "$work/secure"
    cp "$exe" "$work/secure/check_unwind"
    plain=$(DWUNWIND_PATH=$eh "$work/secure/check_unwind" 2>&1)
    chgrp "$(id -g nobody)" "$work/secure/check_unwind" && chmod 2755 "$work/secure/check_unwind"
    out=$(DWUNWIND_PATH=$eh "$work/secure/check_unwind" 2>&1); rc=$?
    if grep -q ", [1-9][0-9]* with an eh_elf" <<< "$plain" && [ $rc -eq 0 ] &&
       grep -q ", 0 with an eh_elf" <<< "$out" && grep -q "; 0 mismatches" <<< "$out"; then
        ok "a set-group-ID program ignores DWUNWIND_PATH"
    else
        not_ok "a set-group-ID program ignores DWUNWIND_PATH (exit $rc)" "$plain
$out"
    fi
else
    echo "# skipped: a set-group-ID program ignores DWUNWIND_PATH (needs root to make one)"
fi

# 4b. Address spaces (dwu_space_*): the process's own mappings described to
# a space, as a profiler describes a recorded process, walk its copied
# stacks as the in-process walk does (checked above against libgcc and
# libunwind): with the DWARF fallback, with eh_elfs from DWUNWIND_PATH, and
# with libc's eh_elf found by its build-id in a cache directory.
space=$build/tests/check_space
"$dwcompile" -q -o "$eh/check_space.eh_elf.so" "$space" > /dev/null 2>&1
expect_space() {   # NAME OUTPUT STATUS
    if [ "$3" -eq 0 ] && grep -q "; 0 failures" <<< "$2"; then
        ok "address spaces, $1: $(grep 'space walks' <<< "$2")"
    else
        not_ok "address spaces, $1 (exit $3)" "$2"
    fi
}
out=$("$space" 2>&1); expect_space "DWARF fallback" "$out" $?
out=$(DWUNWIND_PATH=$eh "$space" --expect-eh-elf check_space --expect-eh-elf libc.so.6 2>&1)
expect_space "eh_elfs from DWUNWIND_PATH" "$out" $?
build_id=$(readelf -n "$libc" | awk '/Build ID/ { print $3 }')
mkdir -p "$work/cache" && cp "$eh/libc.so.6.eh_elf.so" "$work/cache/$build_id.eh_elf.so"
out=$("$space" --cache "$work/cache" --expect-eh-elf libc.so.6 2>&1)
expect_space "libc's eh_elf from the cache, by build-id" "$out" $?
# The cache's file must carry libc's identity: under libc's build-id, the
# program's eh_elf is refused.
rm -f "$work/cache/"*.eh_elf.so && cp "$eh/check_space.eh_elf.so" "$work/cache/$build_id.eh_elf.so"
out=$("$space" --cache "$work/cache" 2>&1)
if grep -q "^libc.so.6: dwarf" <<< "$out" && grep -q "; 0 failures" <<< "$out"; then
    ok "address spaces: an eh_elf of another build in the cache is not used"
else
    not_ok "address spaces: an eh_elf of another build in the cache is not used" "$out"
fi

# 5. Stacks sampled at random instructions: make bench's workloads (the
# corpus programs, small libz3 problems) briefly, untimed here.  eh_elf's IPs
# equal libunwind's and libgcc's and its callee-saved registers libunwind's;
# the stacks recorded as perf records them walk as the live stacks did, and
# as libunwind's remote API walks them.  Not under the sanitizers: the
# unwinders read the stack's redzones, as they must.
if [ -z "${SAN_FLAGS:-}" ]; then
    bench=$build/bench/unwind_bench
    out=$("$dwcompile" -q -o "$eh/unwind_bench.eh_elf.so" "$bench" 2>&1 &&
          DWUNWIND_PATH=$eh "$bench" --seconds "${SAMPLE_SECONDS:-0.5}" 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ "$(grep -c "IP sequences: 0 mismatches" <<< "$out")" -eq 3 ] &&
       grep -q "registers of the captured stacks: [1-9][0-9]* compared with libunwind's, 0 mismatches" <<< "$out"; then
        ok "sampled stacks, live and recorded: $(grep -o '[0-9]* frames checked' <<< "$out" | awk '{ n += $1 } END { print n }') frames and $(grep -o '[0-9]* compared' <<< "$out" | awk '{ print $1 }') callee-saved registers agree with libunwind and libgcc"
    else
        not_ok "sampled stacks (exit $rc)" "$(grep -v '^  ' <<< "$out" | head -40)"
    fi
    # dwu_backtrace inside the corpus programs (make bench's
    # bench/backtrace_preload.c, untimed: at each memset the program
    # calls), with eh_elfs and without: the frames unw_backtrace finds.
    # aligned_locals' DRAP frames and alloca_vla's frames of changing size
    # are among them.
    lib=$(cd "$build/lib" && pwd)
    preload=$work/backtrace_preload.so
    if cc -O2 -fPIC -shared -DREPS=1 -I. -o "$preload" bench/backtrace_preload.c -L"$lib" -ldwunwind -lunwind \
          -ldl -Wl,-rpath,"$lib"; then
        for mode in eh_elfs dwarf; do
            samples=0 programs=0 bad=()
            for prog in "$build"/corpus/{gcc,clang}/{O0,O2}/{aligned_locals,alloca_vla,large_frames}; do
                [ -x "$prog" ] || continue
                path=$work/no-eh-elfs
                if [ $mode = eh_elfs ]; then
                    path=$work/preload_eh/$(basename "$(dirname "$(dirname "$prog")")")-$(basename "$(dirname "$prog")")
                    mkdir -p "$path" && ln -sf "$(cd "$eh" && pwd)/libc.so.6.eh_elf.so" "$path/" &&
                        "$dwcompile" -q -o "$path/$(basename "$prog").eh_elf.so" "$prog" > /dev/null 2>&1
                fi
                line=$(DWUNWIND_PATH=$path LD_PRELOAD=$preload "$prog" 2>&1 >/dev/null | grep '^backtrace_preload:')
                n=$(sed -nE 's/.*: ([0-9]+) samples,.* 0 mismatches$/\1/p' <<< "$line")
                [ -n "$line" ] || continue   # the program calls no memset through its PLT
                if [ -n "$n" ]; then
                    samples=$((samples + n)) programs=$((programs + 1))
                else
                    bad+=("$prog: $line")
                fi
            done
            if [ ${#bad[@]} -eq 0 ] && [ "$programs" -ge 6 ]; then
                ok "$mode: dwu_backtrace in $programs corpus programs at $samples calls: the frames unw_backtrace finds"
            else
                not_ok "$mode: dwu_backtrace in corpus programs ($programs agree)" "$(printf '%s\n' "${bad[@]}")"
            fi
        done
    else
        not_ok "dwu_backtrace in corpus programs: bench/backtrace_preload.c does not build"
    fi
fi

# 6. Bad input: a clear error, exit 2, nothing written.
expect_trouble() {
    local name=$1; shift
    local out rc
    out=$("$dwcompile" "$@" 2>&1); rc=$?
    if [ $rc -eq 2 ] && grep -q "^dwcompile: " <<< "$out" && [ ! -e "$work/bad.eh_elf.so" ]; then
        ok "$name: $(head -1 <<< "$out")"
    else
        not_ok "$name (exit $rc)" "$out"
    fi
}
expect_trouble "missing file" -o "$work/bad.eh_elf.so" "$work/no-such-file"
printf 'not an ELF file\n' > "$work/text"
expect_trouble "not an ELF file" -o "$work/bad.eh_elf.so" "$work/text"
expect_trouble "no input" -o "$work/bad.eh_elf.so"
expect_trouble "unwritable output" -o /proc/bad.eh_elf.so "$exe"
# A good eh_elf is not replaced when a later run fails.
cp "$eh/check_unwind.eh_elf.so" "$work/keep.eh_elf.so"
CC=false "$dwcompile" -q -o "$work/keep.eh_elf.so" "$exe" 2> /dev/null
if [ $? -eq 2 ] && cmp -s "$eh/check_unwind.eh_elf.so" "$work/keep.eh_elf.so" &&
   [ -z "$(ls "$work" | grep tmp-)" ]; then
    ok "a failed compilation leaves the existing eh_elf and no temporary files"
else
    not_ok "a failed compilation leaves the existing eh_elf and no temporary files" "$(ls "$work")"
fi

# 7. Fabricated stacks: random words between guard pages, walked from random
# registers by dwu_backtrace's walk and by dwu_unwind with no reader, with
# eh_elfs and without: every word read is checked first, so none faults.
fab=$build/tests/fabricated_stacks
fab_eh=$work/fab_eh
mkdir -p "$fab_eh"
if "$dwcompile" -q -o "$fab_eh/fabricated_stacks.eh_elf.so" "$fab" &&
   ln -sf "$(cd "$eh" && pwd)/libc.so.6.eh_elf.so" "$fab_eh/"; then
    for mode in eh_elfs dwarf; do
        path=$fab_eh
        [ $mode = dwarf ] && path=$work/no-eh-elfs
        out=$(DWUNWIND_PATH=$path "$fab" "${FABRICATED_WALKS:-200000}" 2>&1); rc=$?
        want=" 0 of"
        [ $mode = eh_elfs ] && want=" 2 of"
        if [ $rc -eq 0 ] && grep -q "none faulted" <<< "$out" && grep -q "$want [0-9]* objects with eh_elfs" <<< "$out"; then
            ok "$mode: $out"
        else
            not_ok "$mode: fabricated stacks (exit $rc)" "$out"
        fi
    done
else
    not_ok "fabricated stacks: the test program's eh_elf"
fi

# A handler that interrupts dwu_backtrace where the walk holds its
# thread's row cache, made to happen there (tests/unwind/nested_walk.c),
# walks with another cache, and both walks find libgcc's frames.
out=$("$build/tests/nested_walk" 2>&1); rc=$?
if [ $rc -eq 0 ]; then
    ok "$out"
else
    not_ok "a handler interrupting a walk that holds its cache (exit $rc)" "$out"
fi

# 8. make install: a program built with pkg-config against the shared library.
prefix=$(cd "$work" && pwd)/prefix
if make -s install PREFIX="$prefix" BUILD="$build" > "$work/install.log" 2>&1 &&
   cc -O1 ${SAN_FLAGS:-} -o "$work/installed" tests/unwind/installed.c \
      $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs dwunwind) 2>> "$work/install.log" &&
   out=$(LD_LIBRARY_PATH=$prefix/lib "$work/installed" 2>&1); then
    ok "installed header, library and dwunwind.pc: $out"
else
    not_ok "installed header, library and dwunwind.pc" "$(cat "$work/install.log") ${out:-}"
fi

finish "unwinding"
