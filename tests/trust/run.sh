#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Trust: no code or result another user could have written is used (the
# rule of runtime/trusted_path.h).  Run as root: a second user,
# dwtrust-other (created if absent), plants eh_elfs, cache entries,
# symbolic links and symbol tables.  A planted eh_elf is a real eh_elf of
# the program (so that nothing but the rule refuses it) with a constructor
# that creates a marker file: the marker must not appear.  Each refusal has
# a control beside it (the same file in a trusted place is loaded: the
# marker appears), so that an absent marker means a refusal.
#   1. dwu_backtrace in a program linked with libdwunwind.a: the user's own
#      eh_elf in a sticky world-writable directory (refused by default,
#      loaded with DWUNWIND_TRUST_STICKY=1); an eh_elf planted next to it
#      in such a directory, admitted; the user's own eh_elf in a
#      world-writable directory, another user's directory, a
#      group-writable one, group-writable itself or another user's file;
#      DWUNWIND_PATH naming a world-writable or another user's directory.
#      A refusal is said once, in DWUNWIND_LOG or to the callback, never on
#      stderr by default.
#   2. dwperf on recordings: the planted eh_elf next to a recorded program
#      (--compile=never); another user's --cache and a world-writable one
#      (warned about, not used, nothing written in it); by default, one
#      under a sticky directory (not used, not made).
#   3. dwperf's own cache: an eh_elf and a symbol table replaced by links to
#      a victim file (the victim unchanged); another user's symbol table (not
#      used: the output is the one without it); leftovers of killed runs
#      removed, a live temporary and a young empty one kept.
#   4. dwcheck --cache: a forged entry (libz's clean result under libc's key,
#      its checksum recomputed; taken when it is the user's own) owned by
#      the other user (audited again: libc's errors reported); the other
#      user's cache, a world-writable one (refused, exit 2); an entry
#      replaced by a link to a victim (unchanged); leftovers removed.
#   5. dwcompile: the temporaries of runs killed with SIGKILL are removed by
#      the next run writing the same output.
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../lib.sh"
if [ "$(id -u)" -ne 0 ]; then
    echo "trust: skipped: needs root (a second user plants the files: useradd, runuser)"
    exit 0
fi
other=dwtrust-other
if ! id -u "$other" > /dev/null 2>&1 && ! useradd -m "$other" > /dev/null 2>&1; then
    echo "trust: skipped: cannot create the user $other"
    exit 0
fi
other_uid=$(id -u "$other")
as_other() { runuser -u "$other" -- "$@"; }
build=$(cd "$build" && pwd)
dwperf=$build/bin/dwperf dwcheck=$build/bin/dwcheck dwcompile=$build/bin/dwcompile
work=$build/tests/trust
rm -rf "$work" && mkdir -p "$work" && chmod 755 "$work"
marker=$work/marker
holders=()
trap 'for p in "${holders[@]}"; do kill "$p" 2> /dev/null; done' EXIT

# The programs: probe walks its stack with dwu_backtrace (and with
# --callback, sets the error callback and calls dwu_init twice); spin is a
# busy loop for perf to record.
cat > "$work/probe.c" << 'EOF'
#include "runtime/dwunwind.h"
#include <stdio.h>
#include <string.h>
static void report(const char *message, void *arg)
{
    (void)arg;
    printf("callback: %s\n", message);
}
__attribute__((noinline)) static int walk(void)
{
    void *ips[64];
    return dwu_backtrace(ips, 64);
}
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--callback") == 0) {
        dwu_set_error_callback(report, NULL);
        dwu_init();
        dwu_init();
    }
    int n = walk() + walk();
    printf("frames: %d\n", n);
    return n > 0 ? 0 : 1;
}
EOF
cat > "$work/spin.c" << 'EOF'
#include <stdlib.h>
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
    for (int i = 0; i < 1000; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
    return x;
}
__attribute__((noinline)) static unsigned long middle(unsigned long x)
{
    return leaf(x) ^ leaf(x + 1);
}
int main(int argc, char **argv)
{
    double end = now() + (argc > 1 ? atof(argv[1]) : 0.3);
    unsigned long x = 1;
    while (now() < end)
        x = middle(x);
    return x == 42;
}
EOF
# (SAN_FLAGS: a sanitizer build's runtime is linked with the sanitizers)
if ! out=$(cc -O1 -g ${SAN_FLAGS:-} -I"$repo" -o "$work/probe" "$work/probe.c" "$build/lib/libdwunwind.a" -ldl -lpthread 2>&1 &&
           cc -O2 -fomit-frame-pointer -o "$work/spin" "$work/spin.c" 2>&1); then
    not_ok "the test programs build" "$out"
    finish trust
fi

# BINARY's eh_elf (dwcompile's C) with a constructor that creates the marker, into OUT.
planted_eh_elf() {   # BINARY OUT
    "$dwcompile" -q -o "$work/genuine.so" --emit-c "$work/planted.c" "$1" > /dev/null || return 1
    cat >> "$work/planted.c" << 'EOF'

#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void planted(void)
{
    int fd = open(MARKER, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd >= 0)
        close(fd);
}
EOF
    cc -O2 -fPIC -shared -fno-asynchronous-unwind-tables -DMARKER="\"$marker\"" -o "$2" "$work/planted.c"
}
planted_eh_elf "$work/probe" "$work/probe.planted.so" && planted_eh_elf "$work/spin" "$work/spin.planted.so" ||
    { not_ok "the planted eh_elfs build"; finish trust; }
chmod 644 "$work/probe.planted.so" "$work/spin.planted.so"

# Hold a lock on FILE (flock, as a live maker of a temporary does) until
# the suite ends; returns once it is held.
hold_lock() {   # FILE
    rm -f "$work/held"
    python3 -c 'import fcntl, sys, time
f = open(sys.argv[1])
fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(120)' "$1" "$work/held" < /dev/null > /dev/null 2>&1 &
    holders+=($!)
    for _ in $(seq 50); do [ -e "$work/held" ] && return; sleep 0.1; done
}

# 0 when CMD... ran the planted constructor (the marker appeared); its
# stdout and stderr in $work/cmd.out and $work/cmd.err.
marker_from() {
    rm -f "$marker"
    "$@" > "$work/cmd.out" 2> "$work/cmd.err"
    local found=1
    [ -e "$marker" ] && found=0
    rm -f "$marker"
    return $found
}

# ---- 1. in-process: dwu_backtrace ---------------------------------------------
# Directories: trusted (root's, 0755), sticky and sticky-own (1777, as
# /tmp), world (0777), otherdir (the other user's, 0755), group (0775),
# plain (no eh_elf); fileperm and fileowner (0755, the eh_elf group-writable
# or the other user's).
for d in trusted sticky sticky-own world otherdir group plain fileperm fileowner; do
    mkdir -p "$work/$d" && cp "$work/probe" "$work/spin" "$work/$d/"
done
chmod 1777 "$work/sticky" "$work/sticky-own"
chmod 0777 "$work/world"
chmod 0775 "$work/group"
chown "$other" "$work/otherdir"
for d in trusted sticky-own world otherdir group fileperm fileowner; do
    cp "$work/probe.planted.so" "$work/$d/probe.eh_elf.so"
done
as_other cp "$work/probe.planted.so" "$work/sticky/probe.eh_elf.so"
chmod 664 "$work/fileperm/probe.eh_elf.so"
chown "$other" "$work/fileowner/probe.eh_elf.so"

if marker_from "$work/trusted/probe"; then
    ok "control: an eh_elf next to the program in a trusted directory is loaded (its constructor ran)"
else
    not_ok "control: the eh_elf in a trusted directory is loaded" "$(cat "$work/cmd.out" "$work/cmd.err")"
fi
# NAME DIR REASON: the eh_elf next to DIR/probe is not loaded, the refusal is
# one line of DWUNWIND_LOG with REASON, and nothing is said on stderr.
refused_beside() {
    local name=$1 dir=$work/$2 reason=$3 log=$work/$2.log
    if marker_from env DWUNWIND_LOG="$log" "$dir/probe"; then
        not_ok "$name: not loaded" "the constructor ran"
    elif [ "$(grep -c "^dwunwind: $dir/probe.eh_elf.so: not loaded: .*$reason" "$log" 2> /dev/null)" != 1 ] ||
         [ "$(wc -l < "$log")" != 1 ] || [ -s "$work/cmd.err" ] || ! grep -q "^frames: [1-9]" "$work/cmd.out"; then
        not_ok "$name: not loaded, said once in DWUNWIND_LOG" "$(cat "$log" "$work/cmd.err" 2> /dev/null)"
    else
        ok "$name: not loaded; DWUNWIND_LOG: $(sed "s|$work/||g" "$log")"
    fi
}
# A sticky directory (/tmp) lets others add entries, not replace the
# user's.  StrictModes refuses it all the same; DWUNWIND_TRUST_STICKY=1
# admits it, and then each entry is still checked: another user's file
# there is refused.
sticky_reason="writable by others (mode 1777; DWUNWIND_TRUST_STICKY=1 admits a sticky directory)"
log=$work/sticky-own.log
if marker_from env -u DWUNWIND_TRUST_STICKY DWUNWIND_LOG="$log" "$work/sticky-own/probe"; then
    not_ok "by default, the user's own eh_elf in a sticky world-writable directory: not loaded" "the constructor ran"
elif [ "$(grep -cF "$sticky_reason" "$log" 2> /dev/null)" = 1 ] && grep -q "^frames: [1-9]" "$work/cmd.out"; then
    ok "by default (StrictModes), the user's own eh_elf in a sticky world-writable directory (as /tmp) is not loaded; DWUNWIND_LOG: $(sed "s|$work/||g; s|.*not loaded: ||" "$log")"
else
    not_ok "by default, the sticky directory refused and said once" "$(cat "$log" "$work/cmd.err" 2> /dev/null)"
fi
if marker_from env DWUNWIND_TRUST_STICKY=1 "$work/sticky-own/probe" && grep -q "^frames: [1-9]" "$work/cmd.out"; then
    ok "with DWUNWIND_TRUST_STICKY=1, the user's own eh_elf in a sticky world-writable directory is loaded"
else
    not_ok "with DWUNWIND_TRUST_STICKY=1, the user's own eh_elf in a sticky directory is loaded" "$(cat "$work/cmd.err")"
fi
# From here on sticky directories are admitted (the harder case for the
# rule, and the only one where the tests' eh_elfs load when the clone is
# under /tmp): what is refused is refused for its own sake.
export DWUNWIND_TRUST_STICKY=1
refused_beside "planted by another user in a sticky world-writable directory" sticky "owned by uid $other_uid"
refused_beside "the user's own eh_elf in a world-writable directory" world "writable by others (mode 0777)"
refused_beside "the user's own eh_elf in another user's directory" otherdir "otherdir: owned by uid $other_uid"
refused_beside "in a group-writable directory" group "writable by its group (mode 0775)"
refused_beside "a group-writable eh_elf" fileperm "writable by its group (mode 0664)"
refused_beside "another user's eh_elf in a trusted directory" fileowner "owned by uid $other_uid"

# Nothing on stderr by default; the callback hears each refusal once.
if ! marker_from "$work/sticky/probe" && [ ! -s "$work/cmd.err" ]; then
    ok "without DWUNWIND_LOG or a callback, a refusal prints nothing on the program's stderr"
else
    not_ok "a refusal prints nothing by default" "$(cat "$work/cmd.err")"
fi
if ! marker_from "$work/sticky/probe" --callback && [ ! -s "$work/cmd.err" ] &&
   [ "$(grep -c "^callback: $work/sticky/probe.eh_elf.so: not loaded: owned by uid $other_uid" "$work/cmd.out")" = 1 ] &&
   [ "$(grep -c '^callback:' "$work/cmd.out")" = 1 ]; then
    ok "dwu_set_error_callback: the refusal said once to the callback (dwu_init twice after setting it)"
else
    not_ok "the callback hears the refusal once" "$(cat "$work/cmd.out" "$work/cmd.err")"
fi

# DWUNWIND_PATH.
if marker_from env DWUNWIND_PATH="$work/trusted" "$work/plain/probe"; then
    ok "control: DWUNWIND_PATH naming a trusted directory: its eh_elf is loaded"
else
    not_ok "control: DWUNWIND_PATH naming a trusted directory" "$(cat "$work/cmd.err")"
fi
for d in world otherdir sticky; do
    if marker_from env DWUNWIND_PATH="$work/$d" DWUNWIND_LOG="$work/path-$d.log" "$work/plain/probe"; then
        not_ok "DWUNWIND_PATH naming $d: not loaded" "the constructor ran"
    elif grep -q "^dwunwind: $work/$d/probe.eh_elf.so: not loaded: " "$work/path-$d.log" 2> /dev/null; then
        ok "DWUNWIND_PATH naming $d: not loaded ($(sed "s|.*not loaded: ||; s|$work/||g" "$work/path-$d.log"))"
    else
        not_ok "DWUNWIND_PATH naming $d: the refusal is said" "$(cat "$work/path-$d.log" 2> /dev/null)"
    fi
done

# ---- 2. dwperf on recordings ---------------------------------------------------
record() {   # OUT CMD...
    local out=$1
    shift
    perf record -e cpu-clock -F 999 --call-graph dwarf -N -q -o "$out" -- "$@" > /dev/null 2>&1 && [ -s "$out" ]
}
build_id() { readelf -n "$1" | awk '/Build ID/ { print $3 }'; }
perf_ok=1
if ! command -v perf > /dev/null || ! record "$work/trusted.data" "$work/trusted/spin" 0.3; then
    perf_ok=0
    echo "trust: dwperf's checks skipped: perf cannot record here"
fi
if [ $perf_ok = 1 ]; then
    cp "$work/spin.planted.so" "$work/trusted/spin.eh_elf.so"
    as_other cp "$work/spin.planted.so" "$work/sticky/spin.eh_elf.so"
    record "$work/sticky.data" "$work/sticky/spin" 0.3
    record "$work/plain.data" "$work/plain/spin" 0.3
    spin_id=$(build_id "$work/spin")
    if marker_from "$dwperf" --compile=never --cache="$work/cache" -i "$work/trusted.data"; then
        ok "control: dwperf loads the eh_elf next to a recorded program in a trusted directory"
    else
        not_ok "control: dwperf loads the eh_elf next to a recorded program" "$(head -3 "$work/cmd.err")"
    fi
    if marker_from "$dwperf" --compile=never --cache="$work/cache" -i "$work/sticky.data"; then
        not_ok "dwperf: an eh_elf planted next to a recorded program: not loaded" "the constructor ran"
    elif [ "$(grep -c "^dwperf: $work/sticky/spin.eh_elf.so: not loaded: owned by uid $other_uid" "$work/cmd.err")" = 1 ] &&
         grep -q "sticky/spin" "$work/cmd.out"; then
        ok "dwperf --compile=never: the eh_elf planted next to a recorded program is not loaded (said once on stderr)"
    else
        not_ok "dwperf: the planted eh_elf refused and said once, the recording still printed" "$(cat "$work/cmd.err")"
    fi

    # Caches by build-id: a trusted one (control), another user's, a world-writable one.
    mkdir -p "$work/cache-control"
    chmod 700 "$work/cache-control"
    cp "$work/spin.planted.so" "$work/cache-control/$spin_id.eh_elf.so"
    if marker_from "$dwperf" --compile=never --cache="$work/cache-control" -i "$work/plain.data"; then
        ok "control: dwperf loads BUILDID.eh_elf.so from a trusted cache"
    else
        not_ok "control: dwperf loads an eh_elf from a trusted cache" "$(head -3 "$work/cmd.err")"
    fi
    mkdir -p "$work/cache-other" && chown "$other" "$work/cache-other"
    as_other cp "$work/spin.planted.so" "$work/cache-other/$spin_id.eh_elf.so"
    mkdir -p "$work/cache-world"
    chmod 777 "$work/cache-world"
    cp "$work/spin.planted.so" "$work/cache-world/$spin_id.eh_elf.so"
    for c in cache-other cache-world; do
        dir=$work/$c
        if marker_from "$dwperf" --compile=always --cache="$dir" -i "$work/plain.data"; then
            not_ok "dwperf --cache=$c: not used" "the constructor ran"
        elif ! grep -q "^dwperf: $dir: not used as a cache: " "$work/cmd.err" || ! grep -q "plain/spin" "$work/cmd.out" ||
             [ -n "$(find "$dir" -user root ! -path "$dir" ! -name "$spin_id.eh_elf.so")" ]; then
            not_ok "dwperf --cache=$c: warned about, nothing written in it" "$(head -3 "$work/cmd.err"; ls -l "$dir")"
        else
            ok "dwperf --cache=$c: not used, nothing written in it: $(grep -m1 "not used as a cache" "$work/cmd.err" | sed "s|$work/||g")"
        fi
    done
    # By default a cache under a sticky directory is not used either.
    if env -u DWUNWIND_TRUST_STICKY "$dwperf" --compile=never --cache="$work/sticky-own/cache" -i "$work/plain.data" \
           > "$work/cmd.out" 2> "$work/cmd.err" &&
       grep -qF "not used as a cache: directory" "$work/cmd.err" && grep -qF "$sticky_reason" "$work/cmd.err" &&
       [ ! -e "$work/sticky-own/cache" ]; then
        ok "by default, dwperf does not use or make a cache under a sticky directory: $(grep -m1 "not used as a cache" "$work/cmd.err" | sed "s|$work/||g")"
    else
        not_ok "by default, dwperf's cache under a sticky directory is not used" "$(head -3 "$work/cmd.err")"
    fi

    # ---- 3. dwperf's own cache ------------------------------------------------------
    cache=$work/cache3
    "$dwperf" --compile=always --cache="$cache" -i "$work/plain.data" > /dev/null 2> "$work/fill.err"
    entry=$cache/$spin_id.eh_elf.so
    syms=$(ls "$cache"/symbols-"$spin_id"-*.sym 2> /dev/null | head -1)
    if [ -f "$entry" ] && [ -n "$syms" ] && [ "$(stat -c %a "$cache")" = 700 ]; then
        ok "dwperf's cache: created 0700, the program's eh_elf and symbol table stored"
    else
        not_ok "dwperf's cache filled" "$(ls -la "$cache" 2>&1; cat "$work/fill.err")"
    fi
    "$dwperf" --compile=never --cache="$cache" -i "$work/plain.data" > "$work/clean.txt" 2> /dev/null
    printf 'victim\n' > "$work/victim"
    ln -sf "$work/victim" "$entry"
    ln -sf "$work/victim" "$syms"
    "$dwperf" --compile=always --cache="$cache" -i "$work/plain.data" > /dev/null 2> "$work/links.err"
    if [ "$(cat "$work/victim")" = victim ] && [ -f "$entry" ] && [ ! -L "$entry" ] && [ ! -L "$syms" ]; then
        ok "dwperf: an eh_elf and a symbol table in the cache replaced by links: the victim unchanged, the links replaced"
    else
        not_ok "dwperf: links in the cache are not written through" "$(ls -l "$work/victim" "$entry" "$syms"; head -c 200 "$work/victim")"
    fi
    # Another user's symbol table (libc's, under the program's name): not used.
    libc_syms=$(ls -S "$cache"/symbols-*.sym | grep -v "$spin_id" | head -1)
    cp "$libc_syms" "$syms"
    chown "$other" "$syms"
    "$dwperf" --compile=never --cache="$cache" -i "$work/plain.data" > "$work/planted-syms.txt" 2> /dev/null
    if cmp -s "$work/clean.txt" "$work/planted-syms.txt" && [ "$(stat -c %U "$syms")" = root ]; then
        ok "dwperf: another user's symbol table in the cache is not used (the same output; the table rebuilt)"
    else
        not_ok "dwperf: another user's symbol table is not used" "$(diff "$work/clean.txt" "$work/planted-syms.txt" | head -5)"
    fi
    # Leftovers: removed when dead (unlocked) and not empty or old; a live
    # one (locked) and a young empty one kept.
    printf 'x' > "$cache/0123.eh_elf.so.tmp-AbC123"
    : > "$cache/vdso-00.so.tmp-Zz9Zz9"
    touch -d '1 minute ago' "$cache/vdso-00.so.tmp-Zz9Zz9"
    mkdir -p "$cache/4567.eh_elf.so.tmp-Qq1Qq1/4567.eh_elf.so.tmp-Rr2Rr2" &&
        printf 'x' > "$cache/4567.eh_elf.so.tmp-Qq1Qq1/4567.eh_elf.so.tmp-Rr2Rr2/4567.eh_elf.so"
    printf 'x' > "$cache/live.sym.tmp-Ll0Ll0"
    hold_lock "$cache/live.sym.tmp-Ll0Ll0"
    : > "$cache/young.sym.tmp-Yy0Yy0"
    "$dwperf" --compile=never --cache="$cache" -i "$work/plain.data" > /dev/null 2>&1
    left=$(cd "$cache" && ls -d *.tmp-* 2> /dev/null | sort | tr '\n' ' ')
    if [ "$left" = "live.sym.tmp-Ll0Ll0 young.sym.tmp-Yy0Yy0 " ]; then
        ok "dwperf: leftovers of killed runs in the cache removed (a live temporary and a young empty one kept)"
    else
        not_ok "dwperf: leftovers removed" "left: $left"
    fi
fi

# ---- 4. dwcheck --cache --------------------------------------------------------
libc=/usr/lib/x86_64-linux-gnu/libc.so.6 libz=/usr/lib/x86_64-linux-gnu/libz.so.1
[ -e "$libz" ] || libz=/lib/x86_64-linux-gnu/libz.so.1
"$dwcheck" --cache="$work/dwc-libc" "$libc" > "$work/libc.txt" 2> /dev/null
"$dwcheck" --cache="$work/dwc-libz" "$libz" > /dev/null 2>&1
errors=$(grep -o '[0-9]* errors' "$work/libc.txt" | tail -1)
libc_entry=$(find "$work/dwc-libc" -type f) libz_entry=$(find "$work/dwc-libz" -type f)
if [ -n "$libc_entry" ] && [ -n "$libz_entry" ] && [ "${errors%% *}" -gt 0 ] 2> /dev/null &&
   [ "$(stat -c %a "$work/dwc-libc")" = 700 ]; then
    ok "dwcheck --cache: created 0700; libc: $errors"
else
    not_ok "dwcheck --cache: the entries of libc and libz" "$(cat "$work/libc.txt" | tail -2)"
fi
# The forgery: libc's header and key, libz's clean result, the checksum recomputed.
forge() {   # LIBC_ENTRY LIBZ_ENTRY OUT
    python3 - "$@" << 'EOF'
import struct, sys
libc, libz = open(sys.argv[1], 'rb').read(), open(sys.argv[2], 'rb').read()
def fnv(b):
    h = 1469598103934665603
    for x in b:
        h = ((h ^ x) * 1099511628211) & 0xffffffffffffffff
    return h
result_size, finding_size, nfindings = struct.unpack_from('<III', libz, 12)
header = len(libz) - result_size - nfindings * finding_size
assert nfindings == 0 and libz[:8] == libc[:8]
result = libz[header:header + result_size]
checksum = fnv(struct.pack('<QQ', fnv(result), fnv(b'')))
out = bytearray(libc[:header])
struct.pack_into('<IQ', out, 20, 0, checksum)
open(sys.argv[3], 'wb').write(bytes(out) + result)
EOF
}
forge "$libc_entry" "$libz_entry" "$work/forged" && cp "$work/forged" "$libc_entry"
"$dwcheck" --cache="$work/dwc-libc" "$libc" > "$work/forged-own.txt" 2> /dev/null; rc=$?
if [ $rc -eq 0 ] && grep -q " 0 errors" "$work/forged-own.txt"; then
    ok "control: the forged entry, the user's own, is taken (libc: 0 errors, exit 0)"
else
    not_ok "control: the forged entry is a valid entry" "exit $rc: $(tail -1 "$work/forged-own.txt")"
fi
cp "$work/forged" "$libc_entry"
chown "$other" "$libc_entry"
"$dwcheck" --cache="$work/dwc-libc" "$libc" > "$work/forged-other.txt" 2> "$work/forged-other.err"; rc=$?
if [ $rc -eq 1 ] && grep -q " $errors" "$work/forged-other.txt" && [ "$(stat -c %U "$libc_entry")" = root ]; then
    ok "dwcheck: the forged entry of another user is not taken: libc audited again ($errors, exit 1), the entry replaced"
else
    not_ok "dwcheck: another user's forged entry is not taken" "exit $rc: $(tail -1 "$work/forged-other.txt"; cat "$work/forged-other.err")"
fi
# Another user's cache, a world-writable one: refused.
sub_name=$(basename "$(dirname "$libc_entry")") entry_name=$(basename "$libc_entry")
mkdir -p "$work/dwc-other" && chown "$other" "$work/dwc-other"
as_other mkdir -p "$work/dwc-other/$sub_name"
as_other cp "$work/forged" "$work/dwc-other/$sub_name/$entry_name"
mkdir -p "$work/dwc-world/$sub_name"
cp "$work/forged" "$work/dwc-world/$sub_name/$entry_name"
chmod 777 "$work/dwc-world"
for c in dwc-other dwc-world; do
    "$dwcheck" --cache="$work/$c" "$libc" > "$work/dwc.out" 2> "$work/dwc.err"; rc=$?
    if [ $rc -eq 2 ] && grep -q "^dwcheck: $work/$c: not used as a cache: " "$work/dwc.err" &&
       ! grep -q " 0 errors" "$work/dwc.out"; then
        ok "dwcheck --cache=$c: refused, exit 2 ($(sed "s|.*not used as a cache: ||; s|$work/||g" "$work/dwc.err"))"
    else
        not_ok "dwcheck --cache=$c: refused" "exit $rc: $(cat "$work/dwc.err"; tail -1 "$work/dwc.out")"
    fi
done
# A link in the cache: replaced, never written through.
printf 'victim\n' > "$work/victim2"
ln -sf "$work/victim2" "$libc_entry"
"$dwcheck" --cache="$work/dwc-libc" "$libc" > "$work/link.txt" 2> /dev/null; rc=$?
if [ "$(cat "$work/victim2")" = victim ] && [ -f "$libc_entry" ] && [ ! -L "$libc_entry" ] && [ $rc -eq 1 ] &&
   grep -q " $errors" "$work/link.txt"; then
    ok "dwcheck: an entry replaced by a link: the victim unchanged, the link replaced, libc audited ($errors)"
else
    not_ok "dwcheck: a link in the cache is not written through" "$(ls -l "$libc_entry"; head -c 100 "$work/victim2")"
fi
# Leftovers in the cache's subdirectories.
sub=$(dirname "$libc_entry")
printf 'x' > "$sub/0123456789abcd.tmp-AbC123"
: > "$sub/0123456789abce.tmp-Zz9Zz9"
touch -d '1 minute ago' "$sub/0123456789abce.tmp-Zz9Zz9"
printf 'x' > "$sub/0123456789abcf.tmp-Ll0Ll0"
hold_lock "$sub/0123456789abcf.tmp-Ll0Ll0"
"$dwcheck" --cache="$work/dwc-libc" "$libz" > /dev/null 2>&1
left=$(cd "$sub" && ls *.tmp-* 2> /dev/null | tr '\n' ' ')
if [ "$left" = "0123456789abcf.tmp-Ll0Ll0 " ]; then
    ok "dwcheck: leftovers of killed runs in the cache removed (a live temporary kept)"
else
    not_ok "dwcheck: leftovers removed" "left: $left"
fi

# ---- 5. dwcompile: runs killed with SIGKILL ---------------------------------------
mkdir -p "$work/out"
out=$work/out/libc.so.6.eh_elf.so
left=
for delay in 0.3 0.6 0.9 1.2; do
    "$dwcompile" -q --force -o "$out" "$libc" > /dev/null 2>&1 &
    pid=$!
    sleep $delay
    kill -KILL $pid 2> /dev/null
    wait $pid 2> /dev/null
    left=$(cd "$work/out" && ls -d libc.so.6.eh_elf.so.tmp-* 2> /dev/null)
    [ -n "$left" ] && break
done
# Past the age at which an empty one is taken for a leftover too (a killed
# run's directory is empty when its compiler was stopped with it).
sleep 0.5
touch -d '1 minute ago' "$work/out"/libc.so.6.eh_elf.so.tmp-* 2> /dev/null
"$dwcompile" -q --force -o "$out" "$libc" > /dev/null 2>&1; rc=$?
after=$(cd "$work/out" && ls -d libc.so.6.eh_elf.so.tmp-* 2> /dev/null)
if [ -n "$left" ] && [ -z "$after" ] && [ $rc -eq 0 ] && [ -f "$out" ]; then
    ok "dwcompile: the temporaries of a run killed with SIGKILL ($(echo $left | sed 's/libc.so.6.eh_elf.so//g')) are removed by the next run"
else
    not_ok "dwcompile: a killed run's temporaries removed by the next" "killed run left: ${left:-nothing}; after the next run: ${after:-nothing} (exit $rc)"
fi

finish trust
