#!/bin/bash
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
# (200 binaries) unwinds exactly as the runtime's interpreter unwinds it.
equiv() {   # OBJECT EH_ELF
    "$build/tests/eh_elf_equiv" "$1" "$2" 2>&1
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
compiled=0 refused=() differ=()
for bin in $corpus; do
    if ! "$dwcompile" -q -o "$work/corpus.eh_elf.so" "$bin" > "$work/corpus.log" 2>&1; then
        refused+=("$bin")
    elif ! out=$(equiv "$bin" "$work/corpus.eh_elf.so"); then
        differ+=("$out")
    else
        compiled=$((compiled + 1))
    fi
done
if [ -n "$corpus" ] && [ ${#refused[@]} -eq 0 ] && [ ${#differ[@]} -eq 0 ]; then
    ok "corpus: $compiled eh_elfs built without --force, every row identical to the interpreter's"
else
    not_ok "corpus: $compiled agree, ${#refused[@]} refused, ${#differ[@]} differ" \
        "$(printf '%s\n' "${refused[@]}" "${differ[@]}" | head -20)"
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

# 7. make install: a program built with pkg-config against the shared library.
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
