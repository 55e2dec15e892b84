#!/bin/bash
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
