#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwcheck's inputs (tools/inputs): directories walked, a file reached by
# several names audited and reported once with all its names, runs that
# audit nothing refused.
set -u
build=${1:?usage: inputs.sh BUILD}
dwcheck=$build/bin/dwcheck
work=$build/tests/inputs
rm -rf "$work"
mkdir -p "$work"
. "$(dirname "$0")/../lib.sh"

# A tree: an ELF file with a hard link and a link to it inside, a link out
# of the tree, a text file, a nested directory holding nothing.
tree=$work/tree
mkdir -p "$tree/sub/deeper" "$work/empty" "$work/text"
cc -shared -nostdlib -Wl,--build-id=none -o "$tree/a.so" tests/synth/shapes.s || exit 1
cc -shared -nostdlib -Wl,--build-id=none -o "$work/outside.so" tests/check/buggy.s || exit 1
ln "$tree/a.so" "$tree/sub/hard.so"
ln -s ../a.so "$tree/sub/link.so"
ln -s ../outside.so "$tree/out.so"
echo text > "$tree/readme.txt"
echo text > "$work/text/notes"

# 1. The walk: one audit, one report, every name listed (text and JSON).
out=$("$dwcheck" -j2 "$tree" 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ "$(grep -c 'FDEs, ' <<< "$out")" -eq 1 ] &&
    grep -qxF "$tree/a.so: also named: $tree/sub/hard.so, $tree/sub/link.so" <<< "$out" &&
    ok "directory: one file by three names audited once, its names listed" ||
    not_ok "directory: one file by three names audited once, its names listed (exit $rc)" "$out"
grep -q 'outside\|out\.so\|readme\|skipped' <<< "$out" &&
    not_ok "directory: no link out of the tree followed, no file that is not ELF named" "$out" ||
    ok "directory: no link out of the tree followed, no file that is not ELF named"
json=$("$dwcheck" --format=json "$tree" "$tree/a.so" "$tree/sub/link.so"); rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l <<< "$json")" -eq 1 ] &&
    grep -qF "\"names\":[\"$tree/a.so\",\"$tree/sub/hard.so\",\"$tree/sub/link.so\"]}" <<< "$json" &&
    ok "JSON: names given again on the command line add no line, the names listed" ||
    not_ok "JSON: names given again on the command line add no line, the names listed (exit $rc)" "$json"
# The same file twice on the command line, by a link: one report.
out=$("$dwcheck" "$work/outside.so" "$work/outside.so" "$tree/out.so"); rc=$?
[ "$rc" -eq 1 ] && [ "$(grep -c 'FDEs, ' <<< "$out")" -eq 1 ] &&
    grep -qxF "$work/outside.so: also named: $tree/out.so" <<< "$out" &&
    ok "a file named twice and by a link: audited and reported once" ||
    not_ok "a file named twice and by a link: audited and reported once (exit $rc)" "$out"

# Shards share out the files found (not the arguments), a file's names in one.
s1=$("$dwcheck" --format=json --shard=1/2 "$tree" "$work/outside.so" 2> /dev/null)
s2=$("$dwcheck" --format=json --shard=2/2 "$tree" "$work/outside.so" 2> /dev/null)
[ "$(wc -l <<< "$s1")" -eq 1 ] && [ "$(wc -l <<< "$s2")" -eq 1 ] &&
    grep -qF '"names":["'"$tree/a.so"'"' <<< "$s1$s2" && grep -qF '"file":"'"$work/outside.so"'"' <<< "$s1$s2" &&
    ok "--shard=K/2 over a directory and a file: one file each, a file's names together" ||
    not_ok "--shard=K/2 over a directory and a file" "$s1"$'\n'"$s2"

# 2. Nothing audited: exit 2 with the reason.
for args in "$work/empty" "$work/text" "$work/empty $work/text/notes" "$work/missing"; do
    # shellcheck disable=SC2086
    err=$("$dwcheck" $args 2>&1 >/dev/null); rc=$?
    [ "$rc" -eq 2 ] && grep -q '^dwcheck: no file audited: ' <<< "$err" &&
        ok "nothing audited ($args): exit 2, the reason" ||
        not_ok "nothing audited ($args): exit 2, the reason (exit $rc)" "$err"
done
err=$("$dwcheck" "$work/empty" 2>&1 >/dev/null)
grep -qxF "dwcheck: no file audited: 1 of 1 directory held no ELF file" <<< "$err" &&
    ok "an empty directory is named as the reason" || not_ok "an empty directory is named as the reason" "$err"
# An empty directory beside a file audited is no failure.
"$dwcheck" "$work/empty" "$tree/a.so" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 0 ] && ok "an empty directory beside a file audited: exit 0" ||
    not_ok "an empty directory beside a file audited: exit $rc"

# 3. A file with no unwind table at all: a no-unwind-table warning (with
# whether it has a .debug_frame), not a failure; --fail-on=warning fails.
printf 'int g(int x) { return x * 3; }\nint main(void) { return g(2); }\n' > "$work/plain.c"
for debug in "" -g; do
    gcc $debug -O1 -fno-asynchronous-unwind-tables -fno-unwind-tables -o "$work/plain" "$work/plain.c" &&
        objcopy --remove-section=.eh_frame --remove-section=.eh_frame_hdr "$work/plain" "$work/bare" || exit 1
    if readelf -S "$work/bare" | grep -q eh_frame; then not_ok "objcopy left an .eh_frame"; continue; fi
    want="no .debug_frame either"
    [ -n "$debug" ] && want="it has a .debug_frame"
    out=$("$dwcheck" "$work/bare" 2>&1); rc=$?
    [ "$rc" -eq 0 ] && grep -q "^$work/bare: \.text+0x0: warning: no-unwind-table: no \.eh_frame: .*$want" <<< "$out" &&
        grep -q "0 errors, 1 warnings" <<< "$out" &&
        ok "no .eh_frame ($debug): a no-unwind-table warning ($want), exit 0" ||
        not_ok "no .eh_frame ($debug): a no-unwind-table warning ($want), exit 0 (exit $rc)" "$out"
done
"$dwcheck" --fail-on=warning "$work/bare" > /dev/null 2>&1; rc=$?
[ "$rc" -eq 1 ] && ok "no .eh_frame: --fail-on=warning exits 1" || not_ok "no .eh_frame: --fail-on=warning exits $rc"
json=$("$dwcheck" --format=json "$work/bare"); rc=$?
[ "$rc" -eq 0 ] && grep -qF '"kind":"no-unwind-table","severity":"warning"' <<< "$json" &&
    "$dwcheck" --format=json "$work/bare" > "$work/bare.jsonl" && "$dwcheck" --merge "$work/bare.jsonl" | grep -q "no-unwind-table" &&
    ok "no .eh_frame: the JSON finding, read back by --merge" || not_ok "no .eh_frame: the JSON finding (exit $rc)" "$json"

# 4. A Debian package: its ELF files audited from memory, named
# PACKAGE.deb:/PATH, with the findings the same files have extracted.
pkg=$work/pkg
mkdir -p "$pkg/DEBIAN" "$pkg/usr/lib/x86_64-linux-gnu" "$pkg/usr/share/doc/t"
printf 'Package: t\nVersion: 1.0\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: t\n' \
    > "$pkg/DEBIAN/control"
cp "$work/outside.so" "$pkg/usr/lib/x86_64-linux-gnu/libbuggy.so.1"
ln "$pkg/usr/lib/x86_64-linux-gnu/libbuggy.so.1" "$pkg/usr/lib/x86_64-linux-gnu/libbuggy-hard.so.1"
cp "$tree/a.so" "$pkg/usr/lib/x86_64-linux-gnu/libshapes.so.1"
echo doc > "$pkg/usr/share/doc/t/README"
# Symbolic links: to a file, to that link (relative, through ..), to nothing, to a text.
ln -s libshapes.so.1 "$pkg/usr/lib/x86_64-linux-gnu/libshapes.so"
ln -s ../x86_64-linux-gnu/./libshapes.so "$pkg/usr/lib/x86_64-linux-gnu/libshapes-up.so"
ln -s nothing.so "$pkg/usr/lib/x86_64-linux-gnu/dangling.so"
ln -s /usr/share/doc/t/README "$pkg/usr/lib/x86_64-linux-gnu/readme.so"
deb=$work/t_1.0_amd64.deb
for z in xz gzip zstd; do
    dpkg-deb -Z$z --root-owner-group -b "$pkg" "$deb" > /dev/null || { not_ok "dpkg-deb -Z$z"; continue; }
    out=$("$dwcheck" -j2 "$deb" 2>&1); rc=$?
    [ "$rc" -eq 1 ] && [ "$(grep -c 'FDEs, ' <<< "$out")" -eq 2 ] &&
        grep -q "^$deb:/usr/lib/x86_64-linux-gnu/libbuggy-hard.so.1: stale_cfa+0x1: error: cfa-mismatch" <<< "$out" &&
        grep -qxF "$deb:/usr/lib/x86_64-linux-gnu/libbuggy-hard.so.1: also named: $deb:/usr/lib/x86_64-linux-gnu/libbuggy.so.1" <<< "$out" &&
        grep -q "^$deb:/usr/lib/x86_64-linux-gnu/libshapes.so.1: 11 FDEs" <<< "$out" &&
        grep -qxF "$deb:/usr/lib/x86_64-linux-gnu/libshapes.so.1: also named: $deb:/usr/lib/x86_64-linux-gnu/libshapes.so, $deb:/usr/lib/x86_64-linux-gnu/libshapes-up.so" <<< "$out" &&
        ok "package (data.tar, $z): its two ELF files audited, named PACKAGE:PATH, a hard link and symbolic links listed" ||
        not_ok "package (data.tar, $z): its two ELF files audited (exit $rc)" "$out"
done
out=$("$dwcheck" "$deb" "$deb" 2>&1)
[ "$(grep -c ' FDEs, ' <<< "$out")" -eq 2 ] && ok "a package named twice is read once" ||
    not_ok "a package named twice is read once" "$out"
# The same findings as the files extracted (the names aside).
rm -rf "$work/x" && dpkg-deb -x "$deb" "$work/x" || exit 1
a=$("$dwcheck" --format=json "$deb" | sed 's/"file":"[^"]*"//; s/,"names":.*}$/}/')
b=$("$dwcheck" --format=json "$work/x" | sed 's/"file":"[^"]*"//; s/,"names":.*}$/}/')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "package: the same results as its files extracted" ||
    not_ok "package: the same results as its files extracted" "$(diff <(echo "$a") <(echo "$b"))"
# Bounds: a member whose tar header claims more than the limit is refused
# before it is read; a package cut short fails with the reason; a package
# with no ELF file audits nothing.
python3 - "$work/big" << 'PY' || exit 1
import io, sys, tarfile
info = tarfile.TarInfo("./usr/lib/huge.so")
info.size = 600 << 20
with open(sys.argv[1] + ".tar", "wb") as f:
    f.write(info.tobuf(format=tarfile.GNU_FORMAT) + b"\x7fELF" + b"\0" * (256 << 10))  # then cut short
open(sys.argv[1] + ".bin", "w").write("2.0\n")
PY
tar czf "$work/control.tar.gz" -C "$pkg/DEBIAN" control || exit 1
(cd "$work" && cp big.bin debian-binary && cp big.tar data.tar &&
    rm -f big.deb && ar q big.deb debian-binary control.tar.gz data.tar 2> /dev/null) || exit 1
err=$("$dwcheck" "$work/big.deb" 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qF "$work/big.deb:/usr/lib/huge.so: member of 629145600 bytes: larger than the 512 MiB limit" <<< "$err" &&
    ok "package: a member over the size limit refused, named" || not_ok "package: a member over the size limit (exit $rc)" "$err"
head -c 2000 "$deb" > "$work/cut.deb"
err=$("$dwcheck" "$work/cut.deb" 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "^dwcheck: $work/cut.deb: .*data.tar\|^dwcheck: $work/cut.deb: " <<< "$err" &&
    ok "package cut short: exit 2, the reason" || not_ok "package cut short: exit 2, the reason (exit $rc)" "$err"
# Each member held is an open file: past the limit (less 512 kept for the
# workers), members are refused by name and the others still audited.
mkdir -p "$work/many/DEBIAN" "$work/many/usr/lib"
cp "$pkg/DEBIAN/control" "$work/many/DEBIAN/"
for i in $(seq 1 60); do cp "$tree/a.so" "$work/many/usr/lib/l$i.so"; done
dpkg-deb --root-owner-group -b "$work/many" "$work/many.deb" > /dev/null || exit 1
out=$(ulimit -Sn 560 && ulimit -Hn 560 && "$dwcheck" -j2 "$work/many.deb" 2> "$work/many.err"); rc=$?
audited=$(grep -c ' FDEs, ' <<< "$out") refused=$(grep -c ': not read: .* open files allowed' "$work/many.err")
[ "$rc" -eq 2 ] && [ "$audited" -gt 10 ] && [ $((audited + refused)) -eq 60 ] &&
    ok "package past the open files allowed: $audited audited, $refused refused by name" ||
    not_ok "package past the open files allowed (exit $rc, $audited audited, $refused refused)" "$(head -5 "$work/many.err")"
rm -f "$pkg"/usr/lib/x86_64-linux-gnu/*.so.1
dpkg-deb --root-owner-group -b "$pkg" "$work/doc.deb" > /dev/null || exit 1
err=$("$dwcheck" "$work/doc.deb" 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qxF "dwcheck: no file audited: 1 of 1 package held no ELF file" <<< "$err" &&
    ok "package with no ELF file: nothing audited, exit 2" || not_ok "package with no ELF file (exit $rc)" "$err"

# 5. Relocatable objects: laid out and relocated as linked (object/object_layout),
# the findings of the linked file, named by section and function.
cc -c -o "$work/buggy.o" tests/check/buggy.s || exit 1
lo=$("$dwcheck" "$work/buggy.o" | grep -E ': (error|warning|info): ' | sed 's/^[^:]*: \.text://; s/ from 0x[0-9a-f]*//')
so=$("$dwcheck" "$work/outside.so" | grep -E ': (error|warning|info): ' | sed 's/^[^:]*: //; s/ from 0x[0-9a-f]*//')
[ -n "$lo" ] && [ "$lo" = "$so" ] && ok "object (cc -c buggy.s): the findings of the linked file, each in .text" ||
    not_ok "object (cc -c buggy.s): the findings of the linked file" "$(diff <(echo "$lo") <(echo "$so"))"
cc -c -o "$work/sections.o" tests/check/object_sections.s || exit 1
out=$("$dwcheck" "$work/sections.o"); rc=$?
fdes=$(readelf -wF "$work/sections.o" | grep -c ' FDE ')
[ "$rc" -eq 1 ] && grep -q "^$work/sections.o: \.text\.two:two+0x1: error: cfa-mismatch" <<< "$out" &&
    ! grep -q 'one+' <<< "$out" && grep -q ": $fdes FDEs, " <<< "$out" &&
    ok "object with a section per function: the finding names .text.two and two; $fdes FDEs as readelf -wF" ||
    not_ok "object with a section per function (exit $rc, readelf: $fdes FDEs)" "$out"

rm -rf "$work"
finish "inputs"
