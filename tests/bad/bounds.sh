#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Sizes read from headers and tables are bounded by the file: a section, an
# FDE or a symbol that claims more than the file's executable segments hold
# is refused (exit 2, `tool: FILE: reason`) or left out with a finding, and
# never sizes an allocation or a loop.  Every run is limited (20 s; without
# sanitizers also 2 GB of address space, which ASan cannot run under) and
# must end with the status expected, no crash or sanitizer report (a leak
# turns a sanitizer build's exit status into 1) and at most 10,000 lines.
set -u
build=${1:?usage: bounds.sh BUILD}
mutate=$build/tests/mutate_headers
work=$build/tests/bounds
mkdir -p "$work"
. "$(dirname "$0")/../lib.sh"

# The path as an extended regex.
quote() { printf '%s' "$1" | sed 's/[.[\*^$/+?(){}|]/\\&/g'; }

# expect NAME STATUS PATTERN TOOL ARGS...: TOOL, limited, exits with STATUS
# and prints a line matching PATTERN (an extended regex; "" for any) on
# stderr or stdout.
expect() {
    local name=$1 want=$2 pattern=$3 tool=$4 err rc lines
    shift 4
    err=$( (if [ -z "${SAN:-}" ]; then ulimit -v 2000000; fi
            exec timeout 20 "$build/bin/$tool" "$@") 2>&1 >"$work/stdout")
    rc=$?
    lines=$(wc -l < "$work/stdout")
    if [ "$rc" -ne "$want" ]; then
        not_ok "$tool, $name: exit status $rc, expected $want" "$(head -5 <<< "$err")"
    elif grep -qE 'Sanitizer|runtime error|Segmentation|out of memory' <<< "$err"; then
        not_ok "$tool, $name: crash, sanitizer report or exhausted memory" "$(head -5 <<< "$err")"
    elif [ "$lines" -ge 10000 ]; then
        not_ok "$tool, $name: $lines lines of output"
    elif [ -n "$pattern" ] && ! { grep -qE -- "$pattern" <<< "$err" || head -c 1000000 "$work/stdout" | grep -qE -- "$pattern"; }; then
        not_ok "$tool, $name: nothing matches '$pattern'" "$(head -5 <<< "$err"; head -5 "$work/stdout")"
    else
        ok "$tool, $name: $(grep -m1 -E -- "${pattern:-.}" <<< "$err" || grep -m1 -E -- "${pattern:-.}" "$work/stdout")"
    fi
}

# small NAME FILE MAX: FILE exists and has at most MAX bytes.
small() {
    local size
    size=$(stat -c %s "$2" 2>/dev/null || echo missing)
    [ "$size" != missing ] && [ "$size" -le "$3" ] && ok "$1: $size bytes" || not_ok "$1: $size bytes (at most $3)"
}

sample=$work/sample
cc -O2 -g0 -o "$sample" tests/bad/sample.c || { echo "cannot build the sample"; exit 1; }
# IBT's second PLT, .plt.sec, where the linker makes one.
stubs=$sample secs=".plt .plt.got"
if cc -O2 -g0 -fcf-protection -Wl,-z,ibtplt -o "$work/sample-ibt" tests/bad/sample.c 2>/dev/null &&
   readelf -SW "$work/sample-ibt" | grep -q ' \.plt\.sec '; then
    stubs=$work/sample-ibt secs=".plt .plt.got .plt.sec"
fi

# 1. A PLT section's sh_size claiming 1 TiB, or 256 MiB: one function per
#    16 bytes of it was 24 GB, or 16 M lines.  Refused: past the end of the file.
for sec in $secs; do
    for size in 1099511627776 268435456; do
        f=$work/plt-$sec-$size
        "$mutate" "$stubs" "$f" "section-size:$sec" "$size" || { not_ok "mutate $sec"; continue; }
        q=$(quote "$f")
        for tool in dwsynth dwcheck; do
            expect "$sec of $size bytes" 2 "^$tool: $q: section $sec claims $size bytes at file offset 0x[0-9a-f]+, past the end of the file" \
                "$tool" "$f"
        done
        rm -f "$work/plt.eh_elf.so"
        expect "$sec of $size bytes" 2 "^dwcompile: $q: section $sec claims $size bytes" \
            dwcompile --force -q -o "$work/plt.eh_elf.so" "$f"
        [ -e "$work/plt.eh_elf.so" ] && not_ok "dwcompile, $sec of $size bytes: an eh_elf was written"
    done
done

# 2. .plt claiming 8 KiB: in the file, but past the end of its executable
#    segment (the stubs would be decoded from what follows it).
f=$work/plt-past-segment
"$mutate" "$sample" "$f" section-size:.plt 0x2000
for tool in dwsynth dwcheck; do
    expect ".plt past its segment" 2 "^$tool: $(quote "$f"): section \.plt claims \[0x[0-9a-f]+, 0x[0-9a-f]+\), which no executable segment holds" \
        "$tool" "$f"
done

# 2b. .rela.dyn claiming 4 KiB: in the file, but over the addresses of the
#    code after it, whose bytes were then read from the relocations.
f=$work/section-over-code
"$mutate" "$sample" "$f" section-size:.rela.dyn 0x1000
for tool in dwsynth dwcheck; do
    expect "section over the code" 2 "^$tool: $(quote "$f"): sections \.rela\.dyn and [.a-z]+ both claim 0x[0-9a-f]+, and one of them is code" \
        "$tool" "$f"
done

# A program whose .eh_frame is written by hand, with 8-byte absolute
# pointers: one FDE for f, of PC_RANGE bytes, whose program is INSNS.
# frame_sample FILE PC_RANGE INSNS
frame_sample() {
    cat > "$1.s" <<EOF
	.text
	.globl	_start
	.type	_start, @function
_start:
	call	f
	xor	%edi, %edi
	mov	\$60, %eax
	syscall
	.size	_start, .-_start
	.type	f, @function
f:
	push	%rbp
	mov	%rsp, %rbp
	pop	%rbp
	ret
	.size	f, .-f

	.section .eh_frame,"a",@progbits
cie:	.long	cie_end - cie_id
cie_id:	.long	0			/* CIE id */
	.byte	1			/* version */
	.string	"zR"
	.uleb128 1			/* code alignment */
	.sleb128 -8			/* data alignment */
	.uleb128 16			/* return address column */
	.uleb128 1			/* augmentation data: */
	.byte	0x00			/* DW_EH_PE_absptr, 8-byte pc_begin and pc_range */
	.byte	0x0c, 7, 8		/* DW_CFA_def_cfa: rsp+8 */
	.byte	0x90, 1			/* DW_CFA_offset: ra at CFA-8 */
	.balign	8
cie_end:
fde:	.long	fde_end - fde_ptr
fde_ptr: .long	fde_ptr - cie
	.quad	f			/* pc_begin */
	.quad	$2			/* pc_range */
	.uleb128 0
	$3
	.balign	8
fde_end:
	.long	0
EOF
    cc -nostdlib -no-pie -static -o "$1" "$1.s"
}

# 3. An FDE whose range wraps around the address space (pc_begin + pc_range
#    < pc_begin): decoding sized a buffer from it ("out of memory"; a
#    sanitizer build aborted).  A malformed-cfi finding; every tool leaves
#    the FDE out.
f=$work/wrapping-fde
if frame_sample "$f" -8 ""; then
    expect "FDE whose range wraps" 1 "error: malformed-cfi: FDE at offset 0x18: its range, 0xfffffffffffffff8 bytes from 0x[0-9a-f]+, wraps around the address space" \
        dwcheck "$f"
    expect "FDE whose range wraps" 0 "" dwsynth "$f"
    expect "FDE whose range wraps" 0 "" dwtable "$f"
    rm -f "$work/wrap.c"
    expect "FDE whose range wraps" 0 "compiling despite 1 verification error" \
        dwcompile --force -o "$work/wrap.eh_elf.so" --emit-c "$work/wrap.c" "$f"
    small "dwcompile, FDE whose range wraps: the C" "$work/wrap.c" 100000
else
    not_ok "cannot build the wrapping FDE's sample"
fi

# 3b. A 4-byte FDE whose program advances 2 GiB (DW_CFA_advance_loc4) before
#    its second row: the first row ran 2 GiB past the FDE, and so did the C.
#    Rows are cut to their FDE; dwtable still prints what readelf prints.
f=$work/advance-2gib
if frame_sample "$f" 4 ".byte 0x04; .long 0x7ffff000; .byte 0x0e, 16"; then
    expect "row advancing 2 GiB past its FDE" 1 "error: cfa-mismatch" dwcheck "$f"
    rm -f "$work/advance.c"
    expect "row advancing 2 GiB past its FDE" 0 "compiling despite 1 verification error" \
        dwcompile --force -o "$work/advance.eh_elf.so" --emit-c "$work/advance.c" "$f"
    small "dwcompile, row advancing 2 GiB past its FDE: the C" "$work/advance.c" 100000
    diff <(readelf -wF "$f" | sed -n '/^Contents/,$p') <("$build/bin/dwtable" "$f" | sed -n '/^Contents/,$p') >/dev/null &&
        ok "dwtable, row advancing 2 GiB past its FDE: as readelf prints it" ||
        not_ok "dwtable, row advancing 2 GiB past its FDE: not as readelf prints it"
else
    not_ok "cannot build the advancing FDE's sample"
fi

# 4. An FDE of 2 GiB (its pc_range field): dwcompile --force wrote 373 MB of C.
#    An FDE larger than the segment it starts in is malformed, left out.
f=$work/fde-2gib
"$mutate" "$sample" "$f" fde-range 0x7ffff000
expect "FDE of 2 GiB" 1 "error: malformed-cfi: FDE at offset 0x[0-9a-f]+ covers \[0x[0-9a-f]+, 0x[0-9a-f]+\), 0x7ffff000 bytes, past the end of the executable segment it starts in" \
    dwcheck "$f"
expect "FDE of 2 GiB" 0 "" dwsynth "$f"
rm -f "$work/fde-2gib.c" "$work/fde-2gib.eh_elf.so"
expect "FDE of 2 GiB" 0 "compiling despite 1 verification error" \
    dwcompile --force -o "$work/fde-2gib.eh_elf.so" --emit-c "$work/fde-2gib.c" "$f"
small "dwcompile, FDE of 2 GiB: the C" "$work/fde-2gib.c" 4000000
small "dwcompile, FDE of 2 GiB: the eh_elf" "$work/fde-2gib.eh_elf.so" 4000000

# 5. FDEs that each cover the rest of a 256 KiB function, one byte further
#    each time, between one-byte ones: each was decoded whole and kept (15 s
#    and 1.5 GB for 300).  A function that starts inside any earlier one is
#    flawed, so the code is decoded once.
{
    printf '\t.text\n\t.globl _start\n_start:\n\txor %%edi, %%edi\n\tmov $60, %%eax\n\tsyscall\n'
    printf 'f:\n\t.fill 262144, 1, 0x90\n\tret\nf_end:\n'
    printf '\t.section .eh_frame,"a",@progbits\ncie:\t.long cie_end - cie_id\ncie_id:\t.long 0\n'
    printf '\t.byte 1\n\t.string "zR"\n\t.uleb128 1\n\t.sleb128 -8\n\t.uleb128 16\n\t.uleb128 1\n\t.byte 0\n'
    printf '\t.byte 0x0c, 7, 8\n\t.byte 0x90, 1\n\t.balign 8\ncie_end:\n'
    for k in $(seq 0 499); do
        printf '\t.long 8f - 7f\n7:\t.long 7b - cie\n\t.quad f + %d\n\t.quad 1\n\t.uleb128 0\n\t.balign 8\n8:\n' $((2 * k))
        printf '\t.long 8f - 7f\n7:\t.long 7b - cie\n\t.quad f + %d\n\t.quad f_end - f - %d\n\t.uleb128 0\n\t.balign 8\n8:\n' \
            $((2 * k + 1)) $((2 * k + 1))
    done
    printf '\t.long 0\n'
} > "$work/nested.s"
f=$work/nested-fdes
if cc -nostdlib -no-pie -static -o "$f" "$work/nested.s" 2>/dev/null; then
    expect "1000 nested FDEs" 1 "cannot synthesise: overlaps the function before it" dwsynth "$f"
    expect "1000 nested FDEs" 1 "error: fde-overlap" dwcheck "$f"
else
    not_ok "cannot build the nested FDEs' sample"
fi

# 6. What the bounds must not refuse: an executable segment whose p_filesz
#    runs past the end of the file (the part in the file is the code), and a
#    symbol claiming 1 TiB (flawed, named, not decoded).
f=$work/segment-past-end
"$mutate" "$sample" "$f" exec-filesz 1099511627776
expect "executable segment past the end of the file" 0 "" dwsynth "$f"
expect "executable segment past the end of the file" 0 "" dwcheck "$f"
f=$work/symbol-1tib
"$mutate" "$sample" "$f" symbol-size:_fini 1099511627776
expect "symbol of 1 TiB" 1 "_fini \(0x[0-9a-f]+\): cannot synthesise: symbol's size runs past the end of its section" \
    dwsynth "$f"

# 7. A relocation section whose sh_info names no section: libdwarf refused
#    the whole file when it parsed .eh_frame (its error object leaked and
#    dwsynth exited 0).  The section parser reads the call-frame section
#    alone, so nothing the tools read is wrong: each must give the sample's
#    own result.
f=$work/bad-rela-info
"$mutate" "$sample" "$f" section-info:.rela.dyn 0x7fffffff
for tool in dwtable dwsynth dwcheck; do
    expect "relocation section naming no section" 0 "" "$tool" "$f"
    "$build/bin/$tool" "$sample" 2>&1 | sed "s|$sample|FILE|g" > "$work/want"
    if "$build/bin/$tool" "$f" 2>&1 | sed "s|$f|FILE|g" | cmp -s - "$work/want"; then
        ok "$tool, relocation section naming no section: the sample's result"
    else
        not_ok "$tool, relocation section naming no section: not the sample's result"
    fi
done

# 8. Malformed CFI: exit 2 (not a leak's 1) from every tool; dwcompile --force
#    leaked the section it could not compile.
for m in cie-loop length-past-end section-past-end; do
    f=$work/cfi-$m
    "$build/tests/mutate_cfi" "$sample" "$f" "$m" || { not_ok "mutate_cfi $m"; continue; }
    for tool in dwtable dwsynth dwcheck; do
        expect "malformed CFI ($m)" 2 "^$tool: $(quote "$f"): " "$tool" "$f"
    done
done
f=$work/cfi-unknown-opcode
"$build/tests/mutate_cfi" "$sample" "$f" unknown-opcode
expect "malformed CFI (unknown-opcode), --force" 2 "^dwcompile: $(quote "$f"): \.eh_frame: FDE for 0x[0-9a-f]+: unknown DW_CFA opcode" \
    dwcompile --force -q -o "$work/unknown-opcode.eh_elf.so" "$f"

finish "bounds"
