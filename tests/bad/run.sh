#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Bad input: every malformed file gets `dwtable: FILE: reason` on stderr and
# exit status 2, without a crash or a sanitizer report, and the other files on
# the command line are still printed.
set -u
build=${1:?usage: run.sh BUILD}
dwtable=$build/bin/dwtable
mutate=$build/tests/mutate_cfi
work=$build/tests/bad
mkdir -p "$work"
. "$(dirname "$0")/../lib.sh"

# expect_error NAME FILE: exit 2, one `dwtable: FILE: reason` line, no crash.
expect_error() {
    local name=$1 file=$2 out err rc
    err=$("$dwtable" "$file" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -ne 2 ]; then
        not_ok "$name: exit status $rc, expected 2" "$err"
    elif grep -qE 'Sanitizer|runtime error|Segmentation' <<< "$err"; then
        not_ok "$name: sanitizer report" "$err"
    elif ! grep -qE "^dwtable: $(printf '%s' "$file" | sed 's/[.[\*^$/]/\\&/g'): .+" <<< "$err"; then
        not_ok "$name: message is not 'dwtable: FILE: reason'" "$err"
    else
        ok "$name: $(head -1 <<< "$err")"
    fi
}

sample=$work/sample
cc -O2 -g0 -o "$sample" tests/bad/sample.c || { echo "cannot build the sample"; exit 1; }

expect_error "missing file" "$work/does-not-exist"
: > "$work/empty"
expect_error "empty file" "$work/empty"
printf 'this is not an ELF file\n' > "$work/text"
expect_error "non-ELF file" "$work/text"
head -c 700 "$sample" > "$work/truncated-headers"
expect_error "truncated ELF (section headers cut off)" "$work/truncated-headers"
mkdir -p "$work/a-directory"
expect_error "directory" "$work/a-directory"
objcopy --remove-section .eh_frame --remove-section .eh_frame_hdr "$sample" "$work/no-unwind"
expect_error "ELF without unwind sections" "$work/no-unwind"
for m in cie-outside cie-loop length-past-end unknown-opcode overlong-leb truncate section-past-end; do
    if "$mutate" "$sample" "$work/$m" "$m"; then
        expect_error "$m" "$work/$m"
    else
        not_ok "$m: mutation failed"
    fi
done

# Files no tool can read are refused at load, by every front end alike:
# exit 2 and `tool: FILE: reason` with the true reason, under a timeout so
# that a tool waiting on a FIFO fails rather than hangs the suite.
dwsynth=$build/bin/dwsynth dwcheck=$build/bin/dwcheck dwcompile=$build/bin/dwcompile
# expect_refused NAME FILE REASON-REGEX
# (TOOLS: the tools that refuse it, all four by default.)
expect_refused() {
    local name=$1 file=$2 reason=$3 tool err rc out=$work/refused.eh_elf.so
    local qfile
    qfile=$(printf '%s' "$file" | sed 's/[.[\*^$/]/\\&/g')
    for tool in ${TOOLS:-dwtable dwsynth dwcheck dwcompile}; do
        rm -f "$out"
        case $tool in
        dwcompile) err=$(timeout 10 "$build/bin/$tool" -q -o "$out" "$file" 2>&1 >/dev/null) ;;
        *) err=$(timeout 10 "$build/bin/$tool" "$file" 2>&1 >/dev/null) ;;
        esac
        rc=$?
        if [ "$rc" -ne 2 ]; then
            not_ok "$tool, $name: exit status $rc, expected 2" "$err"
        elif grep -qE 'Sanitizer|runtime error|Segmentation' <<< "$err"; then
            not_ok "$tool, $name: sanitizer report" "$err"
        elif ! grep -qE "^$tool: $qfile: $reason" <<< "$err"; then
            not_ok "$tool, $name: message is not '$tool: FILE: $reason'" "$err"
        elif [ -e "$out" ]; then
            not_ok "$tool, $name: an eh_elf was written" "$err"
        else
            ok "$tool, $name: $(head -1 <<< "$err")"
        fi
    done
}
# patch FILE OFFSET BYTES...: write bytes (octal escapes) into FILE at OFFSET.
patch() {
    local file=$1 offset=$2
    shift 2
    printf "$@" | dd of="$file" bs=1 seek="$offset" conv=notrunc status=none
}

head -c 10 "$sample" > "$work/header-10"
expect_refused "10 bytes of an ELF file" "$work/header-10" 'truncated ELF header'
head -c 52 "$sample" > "$work/header-52"
expect_refused "52 bytes of an ELF file" "$work/header-52" 'truncated ELF header'
cp "$sample" "$work/bad-class" && patch "$work/bad-class" 4 '\011'
expect_refused "invalid EI_CLASS" "$work/bad-class" 'corrupt ELF header'

# Other architectures: e_machine (offset 18, little-endian) and EI_CLASS patched.
cp "$sample" "$work/aarch64" && patch "$work/aarch64" 18 '\267\000'
expect_refused "AArch64 (patched e_machine)" "$work/aarch64" 'not an x86_64 ELF file \(machine AArch64\)$'
cp "$sample" "$work/riscv" && patch "$work/riscv" 18 '\363\000'
expect_refused "RISC-V (patched e_machine)" "$work/riscv" 'not an x86_64 ELF file \(machine RISC-V\)$'
cp "$sample" "$work/i386" && patch "$work/i386" 18 '\003\000'
expect_refused "i386 (patched e_machine)" "$work/i386" 'not an x86_64 ELF file \(machine i386\)$'
cp "$sample" "$work/x32" && patch "$work/x32" 4 '\001'
expect_refused "x32 (patched EI_CLASS)" "$work/x32" 'not an x86_64 ELF file \(machine x32\)$'
cp "$sample" "$work/machine-4242" && patch "$work/machine-4242" 18 '\222\020'
expect_refused "unknown machine" "$work/machine-4242" 'not an x86_64 ELF file \(machine 4242\)$'
# Real i386 and x32 code, where this gcc can make it: no headers and no C
# library (there may be none for them here), linked when it can be.
printf 'int f(int x) { return x * 3; }\nint main(void) { return f(2); }\n' > "$work/bare.c"
for m in 32:i386 x32:x32; do
    flag=${m%%:*} machine=${m#*:}
    if cc -m"$flag" -O2 -nostdlib -static -Wl,-e,main -o "$work/real-$machine" "$work/bare.c" 2>/dev/null ||
       cc -m"$flag" -O2 -c -o "$work/real-$machine" "$work/bare.c" 2>/dev/null; then
        expect_refused "$machine code from cc -m$flag" "$work/real-$machine" \
            "not an x86_64 ELF file \\(machine $machine\\)\$"
    else
        ok "$machine code from cc -m$flag: # SKIP cc cannot build it here"
    fi
done
cp "$sample" "$work/big-endian" && patch "$work/big-endian" 5 '\002'
expect_refused "big-endian (patched EI_DATA)" "$work/big-endian" 'big-endian ELF file: '

# Files that are not regular: a FIFO without a writer must not block.
rm -f "$work/fifo" && mkfifo "$work/fifo"
expect_refused "FIFO without a writer" "$work/fifo" 'not a regular file \(FIFO\)$'
expect_refused "/dev/null" /dev/null 'not a regular file \(character device\)$'
expect_refused "/dev/zero" /dev/zero 'not a regular file \(character device\)$'

# Not linked, or not a program: refused with the true reason.
cc -O2 -c -o "$work/sample.o" tests/bad/sample.c
# (dwcheck audits objects: tests/check/inputs.sh.)
TOOLS="dwtable dwsynth dwcompile" \
    expect_refused "relocatable object (cc -c)" "$work/sample.o" 'relocatable object \(ET_REL\): link it first'
cp "$sample" "$work/core" && patch "$work/core" 16 '\004\000'
expect_refused "core file (patched e_type)" "$work/core" 'core dump \(ET_CORE\)'

# What every tool reads still is: a PIE (ET_DYN) and a fixed-address executable (ET_EXEC).
cc -O2 -g0 -no-pie -o "$work/sample-exec" tests/bad/sample.c
for f in "$sample" "$work/sample-exec"; do
    for tool in dwtable dwsynth dwcheck dwcompile; do
        case $tool in
        dwcompile) err=$(timeout 60 "$build/bin/$tool" -q -o "$work/sample.eh_elf.so" "$f" 2>&1 >/dev/null) ;;
        *) err=$(timeout 60 "$build/bin/$tool" "$f" 2>&1 >/dev/null) ;;
        esac
        rc=$?
        [ "$rc" -eq 0 ] && ok "$tool reads $(basename "$f") ($(readelf -h "$f" | awk '/Type:/ { print $2 }'))" ||
            not_ok "$tool reads $(basename "$f"): exit $rc" "$err"
    done
done

# dwcheck skips (exit 0, with a note) what is not ELF at all, and only that.
for f in "$work/text" "$work/empty"; do
    err=$(timeout 10 "$dwcheck" "$f" "$sample" 2>&1 >/dev/null)
    rc=$?
    [ "$rc" -eq 0 ] && grep -qE "^dwcheck: $(printf '%s' "$f" | sed 's/[.[\*^$/]/\\&/g'): skipped: " <<< "$err" &&
        ok "dwcheck skips $(basename "$f"): $err" || not_ok "dwcheck skips $(basename "$f") (exit $rc)" "$err"
done
err=$(timeout 10 "$dwcheck" "$work/text" "$work/header-52" "$sample" 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] && grep -q "skipped: not an ELF file" <<< "$err" && grep -q "header-52: truncated ELF header" <<< "$err" &&
    ok "dwcheck: a truncated ELF file among others fails the run" ||
    not_ok "dwcheck: a truncated ELF file among others fails the run (exit $rc)" "$err"

# The other files on the command line are still printed, in order.
good=$("$dwtable" "$sample" 2>/dev/null)
both=$("$dwtable" "$work/cie-loop" "$sample" 2>/dev/null)
rc=$?
if [ "$rc" -eq 2 ] && grep -qF "$(tail -n 3 <<< "$good")" <<< "$both" && grep -q "^File: $sample\$" <<< "$both"; then
    ok "a bad file does not stop the others"
else
    not_ok "a bad file does not stop the others (exit $rc)"
fi

# Usage errors.
"$dwtable" >/dev/null 2>&1; [ $? -eq 2 ] && ok "no arguments: exit 2" || not_ok "no arguments: exit 2"
"$dwtable" --format=xml "$sample" >/dev/null 2>&1; [ $? -eq 2 ] && ok "bad --format: exit 2" || not_ok "bad --format: exit 2"
"$dwtable" --address=zz "$sample" >/dev/null 2>&1; [ $? -eq 2 ] && ok "bad --address: exit 2" || not_ok "bad --address: exit 2"
"$dwtable" --help | grep -q '^Usage: dwtable' && ok "--help" || not_ok "--help"
"$dwtable" --version | grep -q '^dwtable (dwcheck) ' && ok "--version" || not_ok "--version"

finish "bad input"
