#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwsynth repair: a copy of a binary whose unwind table is its validated
# table.  Judged by what unwinders do with it, not by dwcheck alone:
#   - C code built without unwind tables, thrown through from a C++
#     callback: the program terminates as built, and catches the exception
#     (callee-saved registers intact) once repaired; gdb's backtrace from the
#     innermost C function names every frame up to main.  As a shared
#     library and inside a non-PIE executable.
#   - libc.so.6: dwcheck finds no error in the repaired copy, readelf -wF
#     prints what dwtable prints, programs run with it, an exception thrown
#     through qsort is caught, and the reproduction of the __mpn_addmul_1 /
#     __mpn_submul_1 bug (docs/bugs) no longer shows: gdb and libgcc's
#     _Unwind_Backtrace are right inside the functions.
#   - --sframe (V1, V2, V3) on libc, libstdc++ and the corpus: the .sframe
#     read back equals the copy's .eh_frame in SFrame's columns at every
#     address of every function written, every other function is listed
#     with its reason (sframe_compare.py); V1 read by libsframe and readelf;
#     PT_GNU_SFRAME locates it; a file's own .sframe renamed; the copies
#     run, throw and unwind under gdb.
#   - bad input: exit 2 with the reason, nothing written.
set -u
build=${1:?usage: run.sh BUILD}
dwsynth=$build/bin/dwsynth
dwcheck=$build/bin/dwcheck
dwtable=$build/bin/dwtable
work=$(cd "$build" && pwd)/tests/repair
rm -rf "$work"
mkdir -p "$work/repaired"
. "$(dirname "$0")/../lib.sh"
here=tests/repair

# --- exceptions through code without tables ------------------------------------
nounwind="-O2 -fno-asynchronous-unwind-tables -fno-unwind-tables"
cc $nounwind -fPIC -shared -o "$work/libnotables.so" "$here/notables.c" || exit 1
c++ -O2 -o "$work/thrower" "$here/thrower.cc" -L"$work" -lnotables -Wl,-rpath,'$ORIGIN' || exit 1
cp "$work/thrower" "$work/repaired/"
cc $nounwind -c -o "$work/notables.o" "$here/notables.c" || exit 1
c++ -O2 -no-pie -o "$work/thrower-nopie" "$here/thrower.cc" "$work/notables.o" || exit 1

out=$("$work/thrower" 2>&1); rc=$?
[ "$rc" -ne 0 ] && grep -q 'terminate called' <<< "$out" &&
    ok "as built without tables: the throw through the C library terminates the program (exit $rc)" ||
    not_ok "as built: the program should terminate" "$out"
out=$("$dwsynth" repair "$work/libnotables.so" -o "$work/repaired/libnotables.so" 2>&1); rc=$?
[ "$rc" -eq 0 ] && ok "repair libnotables.so: $(head -1 <<< "$out" | sed 's/^[^:]*: //')" ||
    not_ok "repair libnotables.so: exit $rc" "$out"
out=$("$work/repaired/thrower" 2>&1); rc=$?
[ "$rc" -eq 0 ] && grep -q '^caught: ' <<< "$out" && grep -q 'registers intact' <<< "$out" &&
    ok "repaired library: the exception is caught in main, callee-saved registers intact" ||
    not_ok "repaired library: exception caught, registers intact (exit $rc)" "$out"

# gdb from the innermost C function: every frame up to main, named.
backtrace() {
    (cd "$(dirname "$1")" && timeout 60 gdb -nx -batch -ex 'set debuginfod enabled off' \
        -ex 'set breakpoint pending on' -ex 'break vla_frame' -ex run -ex 'bt 12' "./$(basename "$1")" 2>&1) |
        awk '/^#[0-9]+ / { name = ($3 == "in") ? $4 : $2; sub(/\(.*/, "", name); printf "%s ", name }'
}
want="vla_frame big_frame alloca_frame saves_registers work main "
if command -v gdb >/dev/null; then
    got=$(backtrace "$work/thrower")
    [ "$got" != "$want" ] && ok "gdb bt from vla_frame in the library as built is wrong: $(cut -c1-60 <<< "$got")..." ||
        not_ok "gdb bt in the library as built was expected wrong" "$got"
    got=$(backtrace "$work/repaired/thrower")
    [ "$got" = "$want" ] && ok "gdb bt from vla_frame in the repaired library: $got" ||
        not_ok "gdb bt in the repaired library: want '$want'" "$got"
fi

out=$("$work/thrower-nopie" 2>&1); rc=$?
[ "$rc" -ne 0 ] && ok "non-PIE executable as built: terminates (exit $rc)" ||
    not_ok "non-PIE as built should terminate" "$out"
out=$("$dwsynth" repair "$work/thrower-nopie" -o "$work/repaired/thrower-nopie" 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ "$(readelf -hW "$work/repaired/thrower-nopie" | awk '/Type:/ {print $2}')" = EXEC ] &&
    ok "repair the non-PIE executable: $(head -1 <<< "$out" | sed 's/^[^:]*: //')" ||
    not_ok "repair thrower-nopie: exit $rc" "$out"
out=$("$work/repaired/thrower-nopie" 2>&1); rc=$?
[ "$rc" -eq 0 ] && grep -q 'registers intact' <<< "$out" &&
    ok "repaired non-PIE executable: the exception is caught, registers intact" ||
    not_ok "repaired non-PIE executable (exit $rc)" "$out"
if command -v gdb >/dev/null; then
    got=$(backtrace "$work/repaired/thrower-nopie")
    [ "$got" = "$want" ] && ok "gdb bt from vla_frame in the repaired executable: $got" ||
        not_ok "gdb bt in the repaired executable: want '$want'" "$got"
fi

# Which functions without CFI get an FDE (tests/repair/no_cfi.s): those
# synthesis has a row for wherever a known path reaches and it can say the
# CFA, dead code and a CFA it cannot follow getting rows that end the
# stack; not one another function jumps to with its frame in place or a
# callee-saved register changed.
cc -shared -nostdlib -Wl,--build-id -o "$work/no_cfi.so" "$here/no_cfi.s" || exit 1
out=$("$dwsynth" repair -n --format=json "$work/no_cfi.so" | python3 -c '
import json, sys
d = json.load(sys.stdin)
added = sorted(f["function"] for f in d["fdes"] if f["change"] == "added")
assert added == sorted(["plain_leaf", "pushes_rbx", "dynamic_frame", "passes_stack_argument", "call_tail",
                        "has_dead_code", "push_jump", "keeps_no_rbx", "plain_leaf@plt", "shared_tail@plt"]), added
assert d["functions_not_added"] == 2, d["functions_not_added"]
assert d["addresses"]["ending_stack"] == 6, d["addresses"]
print(" ".join(added))' 2>&1) && ok "functions without CFI given an FDE: $out; not shared_tail, after_rbx_changed" ||
    not_ok "functions without CFI: which get an FDE" "$out"
"$dwsynth" repair "$work/no_cfi.so" -o "$work/repaired/no_cfi.so" >/dev/null
fdes=$(readelf -wf "$work/repaired/no_cfi.so" | grep -c ' FDE cie=')
audit=$("$dwcheck" "$work/repaired/no_cfi.so" | tail -1)
[ "$fdes" -eq 10 ] && grep -q ' 0 errors' <<< "$audit" &&
    ok "the copy: readelf reads its 10 FDEs, dwcheck finds 0 errors" || not_ok "no_cfi copy: 10 FDEs, 0 errors" "$fdes; $audit"
# readelf's rows of has_dead_code: ra undefined from the instruction after
# its jmp up to the jmp's target (objdump's addresses), c-8 everywhere else.
rows=$(python3 - "$work/no_cfi.so" "$work/repaired/no_cfi.so" <<'PY' 2>&1
import re, subprocess, sys
dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", sys.argv[1]], capture_output=True, text=True).stdout
body = dis.split("<has_dead_code>:\n")[1].split("\n\n")[0].splitlines()
insns = [(int(l.split(":")[0], 16), l.split()[1:]) for l in body if l.strip()]
j = next(k for k, (a, ops) in enumerate(insns) if ops[0] == "jmp")
dead = (insns[j + 1][0], int(insns[j][1][1], 16))
fdes = subprocess.run(["readelf", "-wF", sys.argv[2]], capture_output=True, text=True).stdout.split("\n\n")
fde = next(f for f in fdes if re.search(r"pc=0*%x\.\." % insns[0][0], f))
seen = []
for line in fde.splitlines():
    m = re.match(r"([0-9a-f]{16}) .* (\S+)\s*$", line)
    if m:
        a, ra = int(m.group(1), 16), m.group(2)
        want = "u" if dead[0] <= a < dead[1] else "c-8"
        assert ra == want, "row at %x: ra %s, want %s (dead code %x..%x)" % (a, ra, want, *dead)
        seen.append("%x:%s" % (a, ra))
assert any(x.endswith(":u") for x in seen), seen
print("dead code %x..%x; rows %s" % (dead + (" ".join(seen),)))
PY
) && ok "has_dead_code's copy: ra undefined over its dead code only ($rows)" ||
    not_ok "has_dead_code: ra undefined over the dead code only" "$rows"

# Its eh_elf (dwcompile --repair) agrees with the copy's DWARF at every
# address, the dead code's included: there the walk ends.
out=$("$build/bin/dwcompile" -q --repair -o "$work/no_cfi.eh_elf.so" "$work/no_cfi.so" 2>&1) &&
    out=$("$build/tests/eh_elf_equiv" "$work/repaired/no_cfi.so" "$work/no_cfi.eh_elf.so" 2>&1); rc=$?
ends=$(grep -o 'end [0-9]*' <<< "$out" | tail -1)
[ "$rc" -eq 0 ] && [ "${ends#end }" -ge 2 ] 2>/dev/null &&
    ok "no_cfi.so's eh_elf and its copy agree, the walk ending in the dead code: $(tail -1 <<< "$out" | sed 's/^[^:]*: //')" ||
    not_ok "no_cfi.so's eh_elf against its copy (exit $rc)" "$out"

# The eh_elf of the validated table (dwcompile --repair): dwu_step tells
# which frames' rows were synthesised.  Without it, the walk stops in the
# library; dwcompile without --repair compiles the table as it is.
cc -O1 ${SAN_FLAGS:-} -rdynamic -I. -o "$work/provenance" "$here/provenance.c" -L"$work" -lnotables \
    -Wl,-rpath,"$work" "$build/lib/libdwunwind.a" -ldl || exit 1
out=$("$work/provenance" 2>&1)
grep -q '^vla_frame: no unwind information' <<< "$out" &&
    ok "no eh_elf, no table: the walk stops in vla_frame" || not_ok "the walk without an eh_elf" "$out"
out=$("$build/bin/dwcompile" --repair -o "$work/libnotables.so.eh_elf.so" "$work/libnotables.so" 2>&1); rc=$?
[ "$rc" -eq 0 ] && ok "dwcompile --repair libnotables.so: $(head -1 <<< "$out" | sed 's/^[^:]*: //')" ||
    not_ok "dwcompile --repair libnotables.so (exit $rc)" "$out"
out=$("$work/provenance" 2>&1)
want="vla_frame: synthesised big_frame: synthesised alloca_frame: synthesised saves_registers: synthesised main: dwarf"
[ "$(grep -v '^walk' <<< "$out" | tr '\n' ' ' | sed 's/ $//')" = "$want" ] &&
    ok "dwu_step's provenance flags: the library's four frames synthesised, main's DWARF" ||
    not_ok "provenance through dwu_step: want '$want'" "$out"

# A row is unchecked only where an address that executes was left
# undecided: the padding after a ret, in the ret's row, does not count.  A
# function so, fully audited: no row of its eh_elf (dwcompile --repair) is
# unchecked.
cat > "$work/padded.s" << 'EOF'
	.text
	.globl	padded
	.type	padded, @function
padded:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	movq	%rdi, %rbx
	leaq	1(%rbx), %rax
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.p2align 5
	.cfi_endproc
	.size	padded, .-padded
EOF
cc -shared -nostdlib -Wl,--build-id=none -o "$work/libpadded.so" "$work/padded.s" || exit 1
audit=$("$dwcheck" --format=json "$work/libpadded.so" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["addresses_checked"], d["unchecked"], d["unchecked_reasons"]["padding"], len(d["findings"]))')
out=$("$build/bin/dwcompile" -q --repair --emit-c="$work/padded.c" -o "$work/libpadded.eh_elf.so" "$work/libpadded.so" 2>&1)
rc=$?
bodies=$(grep -c 'out->flags = ' "$work/padded.c") unchecked=$(grep -c 'out->flags = DWU_FLAG_UNCHECKED' "$work/padded.c")
[ "$rc" -eq 0 ] && [ "$audit" = "5 2 2 0" ] && [ "$bodies" -ge 2 ] && [ "$unchecked" -eq 0 ] &&
    ok "padding after a ret, fully audited: no row of the eh_elf unchecked ($bodies row bodies)" ||
    not_ok "padding after a ret: no row unchecked (exit $rc; audit $audit; $unchecked of $bodies row bodies unchecked)" "$out"

# A library whose .bss reaches 64 MiB past its file: the copy grows by its
# new tables and the headers that locate and name them only (no hole), and
# a program still runs with it.  Stripped, the last page of its data maps
# the file's end, where the new program headers go, and is .bss in memory:
# ld.so must take them from the new PT_PHDR, or dl_iterate_phdr gives
# zeros for them (big_bss_main looks for its PT_GNU_EH_FRAME).
mkdir -p "$work/bss"
cc $nounwind -fPIC -shared -o "$work/libbig_bss.so" "$here/big_bss.c" && strip "$work/libbig_bss.so" || exit 1
cc -O2 -o "$work/bss/big_bss_main" "$here/big_bss_main.c" -L"$work" -lbig_bss -Wl,-rpath,'$ORIGIN' || exit 1
out=$("$dwsynth" repair "$work/libbig_bss.so" -o "$work/bss/libbig_bss.so" 2>&1); rc=$?
tables=$(grep -o '\.eh_frame [0-9]* bytes, \.eh_frame_hdr [0-9]* bytes' <<< "$out" | awk '{print $2 + $5}')
growth=$(( $(stat -c %s "$work/bss/libbig_bss.so") - $(stat -c %s "$work/libbig_bss.so") ))
[ "$rc" -eq 0 ] && [ -n "$tables" ] && [ "$growth" -lt $((tables + 4096)) ] && grep -q ', 0 of hole' <<< "$out" &&
    "$work/bss/big_bss_main" &&
    ok "a stripped library with a 64 MiB .bss grows by $growth bytes for $tables bytes of tables, runs, and ld.so gives its new program headers" ||
    not_ok "big .bss: growth $growth for ${tables:-?} bytes of tables (exit $rc)" "$out"

# The JSON report's "written" member against readelf and stat: the new
# sections' sizes, the growth, and of it the program headers, the two new
# section headers (the table stays in place) and .shstrtab's copy (with at
# most 8 bytes of alignment each).
out=$("$dwsynth" repair --format=json "$work/libbig_bss.so" -o "$work/bss/json.so" 2>&1); rc=$?
got=$(python3 -c '
import json, sys
w = json.loads(sys.argv[1])["written"]
print(w["eh_frame"] + w["eh_frame_hdr"], w["tables"], w["grew"], w["headers"], w["hole"], w["program_headers"])' "$out" 2>&1)
read -r sum tables grew headers hole phnum <<< "$got"
sec() { echo $((0x$(readelf -SW "$work/bss/json.so" | awk -v n="$1" '$2 == n { print $6 }'))); }
want_tables=$(( $(sec .eh_frame) + $(sec .eh_frame_hdr) ))
want_grew=$(( $(stat -c %s "$work/bss/json.so") - $(stat -c %s "$work/libbig_bss.so") ))
want_headers=$(( $(readelf -hW "$work/bss/json.so" | awk '/Number of program headers/ {print $5}') * 56 + 2 * 64 + $(sec .shstrtab) ))
[ "$rc" -eq 0 ] && [ "$sum" = "$tables" ] && [ "$tables" = "$want_tables" ] && [ "$grew" = "$want_grew" ] &&
    [ "$phnum" = "$(readelf -hW "$work/bss/json.so" | awk '/Number of program headers/ {print $5}')" ] &&
    [ "$hole" = 0 ] && [ "$headers" -ge "$want_headers" ] && [ "$headers" -lt $((want_headers + 24)) ] &&
    [ "$grew" -eq $((tables + headers)) ] &&
    ok "--format=json's \"written\": $tables bytes of tables, $headers of headers ($phnum program headers, 2 section headers, .shstrtab), as readelf and stat show" ||
    not_ok "--format=json's \"written\" (exit $rc): got '$got'; readelf: tables $want_tables, headers $want_headers; stat: grew $want_grew" "$out"

# --- libc.so.6 -------------------------------------------------------------------
libc=/lib/x86_64-linux-gnu/libc.so.6
mkdir -p "$work/libc"
out=$("$dwsynth" repair "$libc" -o "$work/libc/libc.so.6" 2>&1); rc=$?
[ "$rc" -eq 0 ] && ok "repair libc.so.6: $(head -1 <<< "$out" | sed 's/^[^:]*: //')" ||
    not_ok "repair libc.so.6: exit $rc" "$out"
before=$("$dwcheck" "$libc" | tail -1 | grep -o '[0-9]* errors')
after=$("$dwcheck" "$work/libc/libc.so.6" | tail -1 | grep -o '[0-9]* errors')
[ "$after" = "0 errors" ] && [ "$before" != "0 errors" ] &&
    ok "dwcheck on the repaired libc: $after (the original: $before)" ||
    not_ok "dwcheck on the repaired libc: 0 errors expected" "$before -> $after"
if cmp -s <("$dwtable" "$work/libc/libc.so.6" | grep -v '^Contents\|^$') \
          <(readelf -wF "$work/libc/libc.so.6" 2>/dev/null | grep -v '^Contents\|^$\|NOBITS'); then
    ok "readelf -wF prints what dwtable prints on the repaired libc"
else
    not_ok "readelf -wF and dwtable differ on the repaired libc"
fi
# Its section headers stay in place (its last bytes), but for the names and
# .shstrtab's place.
section_lines() { readelf -SW "$1" | grep '^  \[' | grep -v ' \.shstrtab ' | sed 's/\.orig / /' | tr -s ' '; }
shoff=$(readelf -hW "$libc" | awk '/Start of section headers/ {print $5}')
cmp -s -i 64 -n $((shoff - 64)) "$libc" "$work/libc/libc.so.6" &&
    cmp -s <(section_lines "$libc") <(section_lines "$work/libc/libc.so.6" | head -n "$(section_lines "$libc" | wc -l)") &&
    [ "$(readelf -SW "$work/libc/libc.so.6" | grep -c ' \.eh_frame\(_hdr\)\?\.orig ')" -eq 2 ] &&
    ok "the repaired libc keeps every byte of the original from its ELF header to its section headers, and those but for names; the old tables are named .eh_frame.orig, .eh_frame_hdr.orig" ||
    not_ok "the repaired libc's first bytes or section headers"
out=$("$build/bin/dwcompile" -q --repair -o "$work/libc/libc.so.6.eh_elf.so" "$libc" 2>&1) &&
    out=$("$build/tests/eh_elf_equiv" "$work/libc/libc.so.6" "$work/libc/libc.so.6.eh_elf.so" 2>&1); rc=$?
[ "$rc" -eq 0 ] && ok "dwcompile --repair libc: its eh_elf and the repaired copy's DWARF agree: $(tail -1 <<< "$out" | sed 's/^[^:]*: //')" ||
    not_ok "dwcompile --repair libc against the repaired copy (exit $rc)" "$out"
out=$(LD_LIBRARY_PATH=$work/libc ls / 2>&1); rc=$?
loaded=$(LD_LIBRARY_PATH=$work/libc LD_TRACE_LOADED_OBJECTS=1 /bin/ls 2>&1 | grep -c "$work/libc/libc.so.6")
[ "$rc" -eq 0 ] && [ -n "$out" ] && [ "$loaded" -eq 1 ] && ok "ls runs with the repaired libc (the one ld.so loads)" ||
    not_ok "ls with the repaired libc (exit $rc, loaded $loaded)" "$out"
c++ -O1 -o "$work/qsort_throw" "$here/qsort_throw.cc" || exit 1
out=$(LD_LIBRARY_PATH=$work/libc "$work/qsort_throw" 2>&1); rc=$?
[ "$rc" -eq 0 ] && ok "with the repaired libc, an exception thrown from a qsort callback is caught: $out" ||
    not_ok "exception through qsort with the repaired libc (exit $rc)" "$out"
repro=docs/bugs/glibc-mpn-addmul-submul/reproduce.sh
if command -v gdb >/dev/null && [ -d /usr/lib/debug/.build-id ]; then
    out=$(LD_LIBRARY_PATH=$work/libc timeout 300 sh "$repro" 2>&1); rc=$?
    flipped=$(grep -c '^FAIL: __mpn_\(add\|sub\)mul_1 inside: \(gdb.s backtrace is right\|_Unwind_Backtrace was not misled\)' <<< "$out")
    [ "$rc" -eq 1 ] && [ "$flipped" -eq 4 ] && [ "$(grep -c '^FAIL' <<< "$out")" -eq 4 ] &&
        ok "docs/bugs reproduction with the repaired libc: inside __mpn_addmul_1/__mpn_submul_1 gdb and _Unwind_Backtrace are right ($flipped checks)" ||
        not_ok "the mpn reproduction with the repaired libc: exactly the 4 inside checks should flip (exit $rc)" "$(grep '^ok\|^FAIL\|RESULT' <<< "$out")"
fi

# A Rust library whose landing pads follow calls with pushed arguments
# (DW_CFA_GNU_args_size): its repaired FDEs are encoded again with their
# argument areas, and the copy audits clean.
rav1e=/usr/lib/x86_64-linux-gnu/librav1e.so.0.5.1
if [ -r "$rav1e" ]; then
    out=$("$dwsynth" repair "$rav1e" -o "$work/repaired/librav1e.so" 2>&1); rc=$?
    audit=$("$dwcheck" "$work/repaired/librav1e.so" | tail -1)
    theirs=$(readelf -wf "$rav1e" | grep -c 'DW_CFA_GNU_args_size: [1-9]')
    ours=$(readelf -wf "$work/repaired/librav1e.so" | grep -c 'DW_CFA_GNU_args_size: [1-9]')
    [ "$rc" -eq 0 ] && grep -q ' 0 errors' <<< "$audit" && [ "$ours" -ge $((theirs * 95 / 100)) ] &&
        ok "librav1e: $(head -1 <<< "$out" | sed 's/^[^:]*: //'); the copy audits clean; argument areas kept ($ours of $theirs DW_CFA_GNU_args_size ops)" ||
        not_ok "librav1e repaired: exit 0, 0 errors, args_size kept (exit $rc; $theirs -> $ours)" "$out
$audit"
fi

# --debug-frame-only: the file left alone, the table as .debug_frame in a
# separate debug file named by build-id, which gdb prefers to the object's
# wrong .eh_frame (tests/repair/wrong_cfi.s: leaf's pushes undescribed).
cc -shared -nostdlib -Wl,--build-id -o "$work/libwrong.so" "$here/wrong_cfi.s" || exit 1
cc -O1 -o "$work/wrong_main" "$here/wrong_cfi_main.c" -L"$work" -lwrong -Wl,-rpath,"$work" || exit 1
frames() {   # frames [GDB COMMAND]...: the functions of gdb's bt from inner
    timeout 60 gdb -nx -batch -ex 'set debuginfod enabled off' "$@" -ex 'break inner' -ex run -ex 'bt 8' \
        "$work/wrong_main" 2>&1 |
        awk '/^#[0-9]+ / { name = ($3 == "in") ? $4 : $2; sub(/\(.*/, "", name); printf "%s ", name }'
}
before=$(md5sum < "$work/libwrong.so")
out=$("$dwsynth" repair --debug-frame-only "$work/libwrong.so" -o "$work/dbg" 2>&1); rc=$?
debug=$(ls "$work"/dbg/.build-id/*/*.debug 2>/dev/null)
[ "$rc" -eq 0 ] && [ -f "$debug" ] && [ "$(md5sum < "$work/libwrong.so")" = "$before" ] &&
    readelf -n "$debug" | grep -q 'Build ID' && [ "$(readelf -wf "$debug" | grep -c ' FDE ')" -ge 1 ] &&
    ok "--debug-frame-only: ${debug#$work/} written, the library untouched" ||
    not_ok "--debug-frame-only: a debug file by build-id, the library untouched (exit $rc)" "$out"
if command -v gdb >/dev/null; then
    without=$(frames)
    with=$(frames -ex "set debug-file-directory $work/dbg")
    [ "$with" = "inner leaf main " ] && [ "$without" != "$with" ] &&
        ok "gdb with the debug file: $with(without: $without)" ||
        not_ok "gdb with the debug file: want 'inner leaf main'" "with: $with
without: $without"
fi

# --- --sframe: the validated table as SFrame too ---------------------------------
# Round trip (tests/repair/sframe_compare.py): the .sframe repair writes, read
# back by dwtable --sframe, is the validated table — the copy's .eh_frame, as
# dwtable reads it — restricted to SFrame's columns (CFA, rbp, ra) at every
# address of every function written, and every function not written is
# listed in the report with its reason; V1 also through libsframe's own
# decoder and lookup (tests/sframe/libsframe_oracle.c) and readelf --sframe.
# Then PT_GNU_SFRAME locates the section, and the copies still run and
# unwind (libgcc, gdb).
mkdir -p "$work/sframe"
oracle=
if [ -f /usr/include/sframe-api.h ] && cc -O1 -o "$work/sframe/libsframe_oracle" tests/sframe/libsframe_oracle.c -lsframe \
        2> "$work/sframe/oracle.log"; then
    oracle=$work/sframe/libsframe_oracle
else
    echo "repair: no libsframe headers (Debian's binutils-dev): the V1 copies are not read by libsframe"
fi
sframe_section() {   # sframe_section FILE OUT.bin: .sframe's bytes into OUT.bin; prints its address
    python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
shoff, = struct.unpack_from("<Q", d, 0x28)
shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
heads = [struct.unpack_from("<IIQQQQ", d, shoff + 64 * i) for i in range(shnum)]
strs = heads[shstrndx][4]
for name, _, _, addr, off, size in heads:
    if d[strs + name:d.index(b"\0", strs + name)] == b".sframe":
        open(sys.argv[2], "wb").write(d[off:off + size])
        print(addr)
PY
}
# round_trip NAME VERSION FILE: repair FILE with --sframe=VERSION, compare; the figures in $round_trip_out.
round_trip() {
    local name=$1 v=$2 f=$3 d=$work/sframe/$1.v$2 rc extra= addr
    mkdir -p "$d"
    "$dwsynth" repair --sframe=$v --format=json "$f" -o "$d/copy" > "$d/report.json" 2> "$d/err"; rc=$?
    [ $rc -eq 0 ] || { round_trip_out="repair exit $rc: $(head -3 "$d/err")"; return 1; }
    "$dwtable" --format=json "$d/copy" > "$d/table.json" 2> "$d/err" &&
        "$dwtable" --sframe --format=json "$d/copy" > "$d/sframe.json" 2>> "$d/err" ||
        { round_trip_out="dwtable: $(head -3 "$d/err")"; return 1; }
    if [ "$v" = 1 ]; then
        readelf --sframe "$d/copy" > "$d/readelf.txt" 2>&1 && ! grep -qi "warning\|error" "$d/readelf.txt" &&
            grep -q "SFRAME_VERSION_1" "$d/readelf.txt" ||
            { round_trip_out="readelf --sframe: $(grep -im3 "warning\|error" "$d/readelf.txt")"; return 1; }
        if [ -n "$oracle" ]; then
            addr=$(sframe_section "$d/copy" "$d/sframe.bin") && "$oracle" "$d/sframe.bin" "$addr" > "$d/libsframe.txt" ||
                { round_trip_out="libsframe: $(head -2 "$d/libsframe.txt")"; return 1; }
            extra=$d/libsframe.txt
        fi
    fi
    round_trip_out=$(python3 "$here/sframe_compare.py" "$d/table.json" "$d/sframe.json" "$d/report.json" $extra 2>&1)
}
libstdcxx=/usr/lib/x86_64-linux-gnu/libstdc++.so.6
for spec in "libc 2 $libc" "libc 1 $libc" "libc 3 $libc" "libstdc++ 2 $libstdcxx" "libstdc++ 1 $libstdcxx"; do
    read -r name v f <<< "$spec"
    round_trip "$name" "$v" "$f" && ok "--sframe=$v $name round trip: $round_trip_out" ||
        not_ok "--sframe=$v $name round trip" "$round_trip_out"
done
# The corpus (make corpus): C and C++, gcc and clang, with and without frame
# pointers; GCC's and clang's stack realignment (aligned_locals) as V3's FLEX.
corpus=$build/corpus
if [ -d "$corpus/gcc/O2" ]; then
    for v in 2 1 3; do
        files=("$corpus"/gcc/O2/* "$corpus"/clang/O0-omitfp/* "$corpus"/gcc/O3-omitfp/* "$corpus"/clang/Os/*)
        [ "$v" = 3 ] && files=("$corpus"/*/*/aligned_locals "$corpus"/gcc/O2/exceptions "$corpus"/clang/O2/recursion \
            "$corpus"/gcc/O0/setjmp_longjmp "$corpus"/clang/O3-omitfp/switch_tables)
        : > "$work/sframe/corpus.v$v"
        bad=()
        for f in "${files[@]}"; do
            n=$(sed "s|^$corpus/||; s|/|-|g" <<< "$f")
            round_trip "corpus-$n" "$v" "$f" && echo "$round_trip_out" >> "$work/sframe/corpus.v$v" ||
                bad+=("$n: $round_trip_out")
        done
        # The sums of each file's figures (sframe_compare.py's line).
        sums=$(sed -E 's/^V[0-9]: ([0-9]+) functions written \(([0-9]+) FDEs, [0-9]+ PCMASK, ([0-9]+) FLEX, ([0-9]+) FREs\), ([0-9]+) left.*; ([0-9]+) rows, ([0-9]+) addresses.*/\1 \2 \3 \4 \5 \6 \7/' \
            "$work/sframe/corpus.v$v" | awk 'NF == 7 { for (i = 1; i <= 7; i++) t[i] += $i } NF != 7 { u++ } END {
                printf "%d functions written (%d FDEs, %d FLEX, %d FREs), %d left to .eh_frame; %d rows, %d addresses compared, 0 differ",
                    t[1], t[2], t[3], t[4], t[5], t[6], t[7]; if (u) printf " (%d lines of figures unread)", u }')
        left=$(cat "$work"/sframe/corpus-*.v$v/report.json | python3 -c '
import collections, json, sys
c = collections.Counter(l["reason"] for line in sys.stdin for l in json.loads(line)["sframe"]["left"])
print("; ".join("%d %s" % (n, r) for r, n in c.most_common()))')
        if [ ${#bad[@]} -eq 0 ] && [ -s "$work/sframe/corpus.v$v" ]; then
            ok "--sframe=$v corpus round trip, ${#files[@]} files: $sums${left:+ (left: $left)}$([ "$v" = 1 ] && [ -n "$oracle" ] && echo "; libsframe agrees on each")"
        else
            not_ok "--sframe=$v corpus round trip: ${#bad[@]} of ${#files[@]} files differ" "$(printf '%s\n' "${bad[@]:0:3}")"
        fi
    done
else
    not_ok "the corpus is not built (make BUILD=$build corpus)"
fi

# PT_GNU_SFRAME locates the new section (readelf -lW); the program headers
# are the input's, the new PT_LOADs (one, or two when the table has its
# own: object/elf_rewrite.h) and GNU_SFRAME appended.
loads() { readelf -lW "$1" | grep -c '^  LOAD '; }
new_loads() { local n=$(( $(loads "$2") - $(loads "$1") )); [ "$n" -ge 1 ] && [ "$n" -le 2 ] && echo "$n"; }
copy=$work/sframe/libc.v2/copy
sec=$(readelf -SW "$copy" | awk '$2 == ".sframe" { printf "0x%s 0x%s", $4, $6 }')
seg=$(readelf -lW "$copy" | awk '$1 == "GNU_SFRAME" { printf "%s %s", $3, $5 }')
read -r saddr ssize <<< "$sec"
read -r paddr psize <<< "$seg"
[ -n "$sec" ] && [ -n "$seg" ] && [ $((saddr)) -eq $((paddr)) ] && [ $((ssize)) -eq $((psize)) ] &&
    added=$(new_loads "$libc" "$copy") &&
    [ "$(readelf -hW "$copy" | awk '/Number of program headers/ {print $5}')" -eq \
      $(( $(readelf -hW "$libc" | awk '/Number of program headers/ {print $5}') + added + 1 )) ] &&
    ok "readelf -lW: GNU_SFRAME at $paddr, $psize bytes: the new .sframe" ||
    not_ok "GNU_SFRAME should locate .sframe" "section: $sec; segment: $seg"

# A file with an .sframe of its own (gcc -Wa,--gsframe): the old section
# renamed .sframe.orig, PT_GNU_SFRAME re-pointed (no new entry), and the
# copy runs.
if printf 'nop\n' | as --gsframe -o "$work/sframe/probe.o" - 2>/dev/null; then
    c++ -O2 -Wa,--gsframe -o "$work/sframe/own" "$here/qsort_throw.cc" || exit 1
    "$dwsynth" repair --sframe "$work/sframe/own" -o "$work/sframe/own-copy" > "$work/sframe/own.txt" 2>&1; rc=$?
    names=$(readelf -SW "$work/sframe/own-copy" | grep -o ' \.sframe[.a-z]*' | tr -d ' ' | sort | tr '\n' ' ')
    phs() { readelf -lW "$1" | grep -c '^  [A-Z]'; }
    out=$("$work/sframe/own-copy" 2>&1); run=$?
    sf_addr=$(readelf -SW "$work/sframe/own-copy" | awk '$2 == ".sframe" { print $4 }')
    [ "$rc" -eq 0 ] && [ "$names" = ".sframe .sframe.orig " ] && [ "$run" -eq 0 ] &&
        added=$(new_loads "$work/sframe/own" "$work/sframe/own-copy") &&
        [ "$(phs "$work/sframe/own-copy")" -eq $(( $(phs "$work/sframe/own") + added )) ] &&
        readelf -lW "$work/sframe/own-copy" | grep -q "GNU_SFRAME .* 0x0*$sf_addr " &&
        ok "a file with its own .sframe: renamed .sframe.orig, GNU_SFRAME re-pointed at the new one, the copy runs ($out)" ||
        not_ok "a file with its own .sframe (repair exit $rc, run $run)" "$names
$(readelf -lW "$work/sframe/own-copy" | grep GNU_SFRAME)
$out"
    # Without --sframe the old one stays, and the report says so.
    "$dwsynth" repair "$work/sframe/own" -o "$work/sframe/own-kept" | grep -q "note: it has an .sframe of its own" &&
        ok "without --sframe, a file's own .sframe is kept, and the report says so" ||
        not_ok "without --sframe: the note on the file's own .sframe"
fi

# The copies still run and unwind: libgcc's exceptions through the repaired
# library and libc, gdb's backtrace from the library's innermost function.
cp "$work/thrower" "$work/sframe/"
out=$("$dwsynth" repair --sframe "$work/libnotables.so" -o "$work/sframe/libnotables.so" 2>&1); rc=$?
run=$("$work/sframe/thrower" 2>&1); run_rc=$?
[ "$rc" -eq 0 ] && [ "$run_rc" -eq 0 ] && grep -q 'registers intact' <<< "$run" &&
    ok "--sframe libnotables.so: $(grep -o '[0-9]* functions written.*' <<< "$out"); the exception is caught, registers intact" ||
    not_ok "--sframe libnotables.so (exit $rc, run $run_rc)" "$out
$run"
if command -v gdb >/dev/null; then
    got=$(backtrace "$work/sframe/thrower")
    [ "$got" = "vla_frame big_frame alloca_frame saves_registers work main " ] &&
        ok "gdb bt from vla_frame in the library repaired with --sframe: $got" ||
        not_ok "gdb bt in the library repaired with --sframe" "$got"
fi
for v in 1 2 3; do
    mkdir -p "$work/sframe/libc.v$v/lib" && cp "$work/sframe/libc.v$v/copy" "$work/sframe/libc.v$v/lib/libc.so.6"
    ls_out=$(LD_LIBRARY_PATH=$work/sframe/libc.v$v/lib ls / 2>&1); ls_rc=$?
    q=$(LD_LIBRARY_PATH=$work/sframe/libc.v$v/lib "$work/qsort_throw" 2>&1); q_rc=$?
    [ "$ls_rc" -eq 0 ] && [ -n "$ls_out" ] && [ "$q_rc" -eq 0 ] &&
        ok "libc with its V$v .sframe: ls runs, an exception through qsort is caught" ||
        not_ok "libc with its V$v .sframe (ls exit $ls_rc, qsort_throw exit $q_rc)" "$q"
done
"$dwsynth" repair --help | grep -q -- '--sframe\[=1|2|3\]' && ok "--help names --sframe[=1|2|3]" ||
    not_ok "--help names --sframe"

# --- clone's child: the end of the stack ------------------------------------------
# tests/repair/clone_child.s: after a clone onto another stack, the path
# where rax is 0 runs only in the child, on its new stack.  clone_wrong's
# table keeps the parent's frame there; clone_right's ends the stack;
# fork_like clones with no stack of its own (its child goes on in this
# frame).  The child's addresses are read from objdump: from the `xor %ebp`
# after clone_wrong's test to its hlt.
cc -shared -nostdlib -Wl,--build-id -o "$work/libclone.so" "$here/clone_child.s" || exit 1
child=$(objdump -d --no-show-raw-insn "$work/libclone.so" |
    awk '/<clone_wrong>:/ { on = 1; next } /^$/ { on = 0 }
         on && /xor +%ebp,%ebp/ { go = 1 } on && go { a = $1; sub(/:$/, "", a); print a } on && go && /hlt/ { go = 0 }')
nchild=$(wc -l <<< "$child")
first=$(head -1 <<< "$child")
out=$("$dwcheck" "$work/libclone.so" 2>&1); rc=$?
findings=$(grep -c ': error: \|: warning: ' <<< "$out")
if [ "$rc" -eq 1 ] && [ "$findings" -eq 1 ] && [ "$nchild" -ge 5 ] &&
   grep -q "clone_wrong+0x$(printf '%x' $((0x$first - 0x$(nm "$work/libclone.so" | awk '$3 == "clone_wrong" { print $1 }')))): error: ra-mismatch: ra rule c-8 where only clone's child runs.*(and $((nchild - 1)) more addresses)" <<< "$out"; then
    ok "clone's child: dwcheck finds clone_wrong's $nchild child addresses (rip at c-8, the parent's frame), nothing in clone_right or fork_like"
else
    not_ok "clone's child: one finding, at clone_wrong's $nchild child addresses from 0x$first (exit $rc)" "$out"
fi
out=$("$dwsynth" repair "$work/libclone.so" -o "$work/repaired/libclone.so" 2>&1); rc=$?
rows=$(readelf -wF "$work/repaired/libclone.so" 2>&1)
# readelf's row in force at ADDR: its ra column (the last).
ra_at() {
    local want=$((0x$1)) inside=0 best= loc rest
    while read -r loc rest; do
        if [[ $rest == *" FDE "* ]]; then
            local range=${rest##*pc=}
            inside=$(( want >= 0x${range%%..*} && want < 0x${range##*..} ))
        elif [ "$inside" -eq 1 ] && [[ $loc =~ ^[0-9a-f]{16}$ ]] && [ $((0x$loc)) -le "$want" ]; then
            best=${rest##* }
        fi
    done <<< "$rows"
    echo "$best"
}
bad=0
for a in $child; do [ "$(ra_at "$a")" = u ] || bad=$((bad + 1)); done
parent=$(objdump -d --no-show-raw-insn "$work/libclone.so" | awk '/<clone_wrong>:/ { on = 1; next } /^$/ { on = 0 } on && /pop +%rbx/ { a = $1; sub(/:$/, "", a); print a }')
if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$(ra_at "$parent")" = c-8 ]; then
    ok "clone's child repaired: readelf shows rip undefined at its $nchild addresses, the parent's return at c-8"
else
    not_ok "clone's child repaired (exit $rc, $bad addresses without rip undefined, parent ${parent:-?}: $(ra_at "${parent:-0}"))" "$out
$rows"
fi

# The same source with its CFI taken out, annotated by dwsynth annotate:
# the child's rows end the stack there too.
sed -e 's/\.cfi_.*$//' "$here/clone_child.s" > "$work/clone_bare.s"
out=$("$dwsynth" annotate -o "$work/clone_annotated.s" "$work/clone_bare.s" 2>&1) &&
    cc -shared -nostdlib -Wl,--build-id -o "$work/libclone_annotated.so" "$work/clone_annotated.s" 2>&1; rc=$?
rows=$(readelf -wF "$work/libclone_annotated.so" 2>&1)
bad=0
for a in $child; do [ "$(ra_at "$a")" = u ] || bad=$((bad + 1)); done
if [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$(ra_at "$parent")" = c-8 ] &&
   [ "$("$dwcheck" "$work/libclone_annotated.so" 2>&1 | grep -c ': error: \|: warning: ')" -eq 0 ]; then
    ok "clone's child annotated: .cfi_undefined rip at its $nchild addresses (readelf), dwcheck finds nothing"
else
    not_ok "clone's child annotated (exit $rc, $bad addresses without rip undefined)" "$out
$(grep -v '^#' "$work/clone_annotated.s" 2>&1 | head -40)"
fi

# --- the report ----------------------------------------------------------------
out=$("$dwsynth" repair --dry-run --format=json "$libc" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["fdes_repaired"] >= 2, d["fdes_repaired"]
rows = [r for f in d["fdes"] for r in f["rows"]]
assert {r["provenance"] for r in rows} <= {"proved", "unchecked", "synthesised"}
fixed = [r for r in rows if r["provenance"] == "synthesised"]
assert fixed and all(r["replaced"] for r in fixed), fixed[:2]
names = sorted({f["function"] for f in d["fdes"]})
assert "__mpn_addmul_1" in names and "__mpn_submul_1" in names, names
print("%d FDEs, %d rows repaired: %s" % (d["fdes_repaired"], len(fixed), " ".join(names)))' 2>&1) &&
    ok "--dry-run --format=json: $out" || not_ok "--dry-run JSON" "$out"
[ ! -e "$work/dry" ] && "$dwsynth" repair -n "$libc" >/dev/null && ok "--dry-run writes nothing" || not_ok "--dry-run"

# --- bad input: exit 2, the reason, nothing written ------------------------------
refused() {   # refused NAME PATTERN OUT ARGS...: exit 2, PATTERN on stderr, OUT not created
    local name=$1 pattern=$2 outfile=$3; shift 3
    local err rc
    err=$("$dwsynth" repair "$@" 2>&1 >/dev/null); rc=$?
    [ "$rc" -eq 2 ] && grep -q "$pattern" <<< "$err" && [ ! -e "$outfile" ] &&
        ok "refused, nothing written: $name ($err)" || not_ok "$name: exit 2 and '$pattern' expected (exit $rc)" "$err"
}
python3 - "$work/libnotables.so" "$work/no-shdr.so" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
b[0x28:0x30] = b"\0" * 8        # e_shoff
b[0x3c:0x40] = b"\0" * 4        # e_shnum, e_shstrndx
open(sys.argv[2], "wb").write(b)
EOF
refused "no section headers" "section headers" "$work/out1" "$work/no-shdr.so" -o "$work/out1"
head -c 3000 "$work/libnotables.so" > "$work/truncated.so"
refused "a truncated file" "libnotables\|truncated\|past\|end" "$work/out2" "$work/truncated.so" -o "$work/out2"
printf 'not an ELF file\n' > "$work/text"
refused "not ELF" "ELF" "$work/out3" "$work/text" -o "$work/out3"
refused "an output directory that does not exist" "No such file\|directory" "$work/nodir/out" \
    "$work/libnotables.so" -o "$work/nodir/out"
cp "$work/libnotables.so" "$work/self.so"
before=$(md5sum < "$work/self.so")
err=$("$dwsynth" repair "$work/self.so" -o "$work/self.so" 2>&1); rc=$?
[ "$rc" -eq 2 ] && [ "$(md5sum < "$work/self.so")" = "$before" ] && ok "refused: the output is the input ($err)" ||
    not_ok "output = input: exit 2, the input unchanged (exit $rc)" "$err"
cc -shared -nostdlib -Wl,--build-id=none -o "$work/libnoid.so" "$here/wrong_cfi.s" || exit 1
refused "--debug-frame-only without a build-id" "build-id" "$work/dbg-noid" --debug-frame-only "$work/libnoid.so" -o "$work/dbg-noid"
refused "no output and no --dry-run" "no output" "$work/out4" "$work/libnotables.so"
refused "--sframe=4" "unknown --sframe" "$work/out-sf4" --sframe=4 "$work/libnotables.so" -o "$work/out-sf4"
refused "--sframe with --debug-frame-only" "not with --debug-frame-only" "$work/dbg-sf" --sframe --debug-frame-only \
    "$work/libwrong.so" -o "$work/dbg-sf"
strip -o "$work/stripped.so" "$work/libnotables.so"
out=$("$dwsynth" repair "$work/stripped.so" -o "$work/repaired/stripped.so" 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ -s "$work/repaired/stripped.so" ] && ok "a library stripped of .symtab is repaired: $(head -1 <<< "$out" | sed 's/^[^:]*: //')" ||
    not_ok "stripped library (exit $rc)" "$out"

# A rule synthesis has only on some paths into an address is no repair:
# fx_paths_disagree (tests/check/fixes.s) is entered at .Lback by its own
# path with the CFA at rsp+16 and by its .cold part's jump back at rsp+24;
# its table says rsp+24, wrong on the first path, but rsp+16 would be wrong
# on the second (synthesize_every_path).  The row stays the table's, not
# proved; the other functions' wrong rows are repaired.
cc -shared -nostdlib -Wl,--build-id=none -o "$work/libfixes.so" "$here/../check/fixes.s" || exit 1
out=$("$dwsynth" repair --dry-run "$work/libfixes.so" 2>&1)
if ! grep -q "fx_paths_disagree" <<< "$out" && grep -q "FDE at offset 0x[0-9a-f]* \[.*) fx_once_stale_cfa:" <<< "$out" &&
    "$dwsynth" repair "$work/libfixes.so" -o "$work/repaired/libfixes.so" > /dev/null &&
    "$dwcheck" "$work/repaired/libfixes.so" | grep -q "fx_paths_disagree+0x5: error: cfa-mismatch: CFA rule rsp+24"; then
    ok "paths that disagree on the CFA: no repair from either's rule (the table's row kept, its finding with it)"
else
    not_ok "paths that disagree: the row not repaired" "$out"
fi

finish "repair"
