#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Outputs and compiler children:
#   - an output that exists and is not a regular file (device, FIFO,
#     directory) is refused before any work, and left as it was; a symbolic
#     link is written through (the link stays);
#   - no path reaches the generated C of an eh_elf unescaped;
#   - an interrupted dwcompile or dwsynth annotate stops its compiler's
#     process group, leaves no temporary file and dies of the signal;
#   - the compiler runs within a memory and a time limit, named when hit;
#   - a full disk is said as such, naming the output;
#   - an eh_elf is byte-reproducible.
set -u
build=${1:?usage: outputs.sh BUILD}
bin=$build/bin
work=$build/tests/outputs
rm -rf "$work"
mkdir -p "$work"
. "$(dirname "$0")/../lib.sh"

# The tools' temporary directories, checked empty at the end.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

sample=$work/sample
cc -O2 -g0 -o "$sample" tests/bad/sample.c || { echo "cannot build the sample"; exit 1; }
san=
ldd "$bin/dwsynth" 2>/dev/null | grep -q libasan && san=1

# leftovers DIR: the temporary files an output left in DIR.
leftovers() { find "$1" -maxdepth 1 -name '*.tmp-*' | sed 's|.*/||'; }

# refused NAME KIND-TEST PATH EXPECTED-MESSAGE CMD...: CMD exits 2 with
# EXPECTED-MESSAGE (a regex for the whole line), PATH still passes
# `test KIND-TEST`, and no temporary file is left beside it.
refused() {
    local name=$1 kind=$2 path=$3 expected=$4 err rc
    shift 4
    err=$(timeout 60 "$@" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -ne 2 ]; then
        not_ok "$name: exit status $rc, expected 2" "$err"
    elif ! grep -qxE "$expected" <<< "$err"; then
        not_ok "$name: message" "$err"
    elif ! test "$kind" "$path"; then
        not_ok "$name: $path was replaced" "$(ls -l "$path" 2>&1)"
    elif [ -n "$(leftovers "$(dirname "$path")")" ]; then
        not_ok "$name: temporary files left" "$(leftovers "$(dirname "$path")")"
    else
        ok "$name: $err"
    fi
}
# A regex matching TEXT literally.
quote() { printf '%s' "$1" | sed 's/[][\.*^$/(){}+?|]/\\&/g'; }

# ---- outputs that are not regular files --------------------------------------
out=$work/out
mkdir -p "$out"
mkfifo "$out/fifo"
q=$(quote "$out")
refused "dwcompile -o FIFO" -p "$out/fifo" "dwcompile: $q/fifo: not a regular file \\(FIFO\\)" \
    "$bin/dwcompile" -q -o "$out/fifo" "$sample"
refused "dwcompile --emit-c FIFO" -p "$out/fifo" "dwcompile: $q/fifo: not a regular file \\(FIFO\\)" \
    "$bin/dwcompile" -q -o "$out/x.so" --emit-c "$out/fifo" "$sample"
[ -e "$out/x.so" ] && not_ok "dwcompile --emit-c FIFO: the eh_elf was written anyway"
refused "dwcompile -o FIFO, before any work (the input is missing)" -p "$out/fifo" \
    "dwcompile: $q/fifo: not a regular file \\(FIFO\\)" "$bin/dwcompile" -q -o "$out/fifo" "$work/missing"
mkdir -p "$out/dir"
refused "dwcompile -o DIR" -d "$out/dir" "dwcompile: $q/dir: not a regular file \\(directory\\)" \
    "$bin/dwcompile" -q -o "$out/dir" "$sample"
ln -s fifo "$out/to-fifo"
refused "dwcompile -o LINK-TO-FIFO" -p "$out/fifo" \
    "dwcompile: $q/to-fifo: not a regular file \\(a link to $q/fifo: FIFO\\)" \
    "$bin/dwcompile" -q -o "$out/to-fifo" "$sample"
# A character device of our own (/dev/null itself would be at stake if this regressed).
if mknod "$out/null" c 1 3 2>/dev/null; then
    refused "dwcompile -o CHARACTER-DEVICE" -c "$out/null" \
        "dwcompile: $q/null: not a regular file \\(character device\\)" "$bin/dwcompile" -q -o "$out/null" "$sample"
    refused "dwsynth annotate -o CHARACTER-DEVICE" -c "$out/null" \
        "dwsynth: $q/null: not a regular file \\(character device\\)" \
        "$bin/dwsynth" annotate -o "$out/null" tests/annotate/frames.s
else
    ok "dwcompile -o CHARACTER-DEVICE: # SKIP mknod is not allowed here"
fi
refused "dwsynth annotate -o FIFO" -p "$out/fifo" "dwsynth: $q/fifo: not a regular file \\(FIFO\\)" \
    "$bin/dwsynth" annotate -o "$out/fifo" tests/annotate/frames.s
refused "dwsynth annotate -o LINK-TO-FIFO" -p "$out/fifo" \
    "dwsynth: $q/to-fifo: not a regular file \\(a link to $q/fifo: FIFO\\)" \
    "$bin/dwsynth" annotate -o "$out/to-fifo" tests/annotate/frames.s
refused "dwcheck --html=FIFO" -p "$out/fifo" "dwcheck: $q/fifo: not a directory \\(FIFO\\)" \
    "$bin/dwcheck" --html="$out/fifo" "$sample"
mkdir -p "$out/report"
mkfifo "$out/report/index.html"
refused "dwcheck --html=DIR, DIR/index.html a FIFO" -p "$out/report/index.html" \
    "dwcheck: $q/report/index.html: not a regular file \\(FIFO\\)" "$bin/dwcheck" --html="$out/report" "$sample"

# Symbolic links are written through: the file they lead to is (created or)
# replaced, the link stays.
links=$work/links
mkdir -p "$links/real"
ln -s real/sample.eh_elf.so "$links/eh_elf"        # leads to nothing yet
ln -s real/sample.c "$links/c"
echo old > "$links/real/annotated.s"
ln -s real/annotated.s "$links/annotated"
ln -s real "$links/report"
ln -s page.html "$links/real/index.html"
err=$(timeout 60 "$bin/dwcompile" -q -o "$links/eh_elf" --emit-c "$links/c" "$sample" 2>&1 &&
      timeout 60 "$bin/dwsynth" annotate -o "$links/annotated" tests/annotate/frames.s 2>&1 &&
      timeout 60 "$bin/dwcheck" --html="$links/report" "$sample" 2>&1 >/dev/null)
rc=$?
if [ "$rc" -ne 0 ]; then
    not_ok "outputs through symbolic links: exit status $rc" "$err"
elif [ -L "$links/eh_elf" ] && [ -L "$links/c" ] && [ -L "$links/annotated" ] && [ -L "$links/real/index.html" ] &&
     readelf -h "$links/real/sample.eh_elf.so" 2>/dev/null | grep -q 'DYN' &&
     grep -q 'dwu_eh_elf_step' "$links/real/sample.c" && grep -q '\.cfi_startproc' "$links/real/annotated.s" &&
     grep -q '</html>' "$links/real/page.html" && [ -z "$(leftovers "$links/real")" ]; then
    ok "outputs through symbolic links: the files they lead to are written, the links kept"
else
    not_ok "outputs through symbolic links" "$(ls -lR "$links" 2>&1)"
fi

# ---- paths in the generated C -------------------------------------------------
# A directory named `a*` (an innocent `dir*/x` used to break the build), then
# a path that closes the comment, injects code, opens another, with a newline.
evil=$work/$'a*/ int x = ; /*\nb'
mkdir -p "$evil"
cp "$sample" "$evil/lib.so"
err=$(timeout 60 "$bin/dwcompile" -q -o "$work/evil.eh_elf.so" --emit-c "$work/evil.c" "$evil/lib.so" 2>&1)
rc=$?
if [ "$rc" -ne 0 ]; then
    not_ok "a path with */, /* and a newline: dwcompile exit status $rc" "$err"
elif ! err=$(cc -Wall -Wextra -Werror -fsyntax-only "$work/evil.c" 2>&1); then
    not_ok "a path with */, /* and a newline: the generated C does not compile cleanly" "$err"
elif cc -E -P "$work/evil.c" | grep -qF 'int x = ;'; then
    not_ok "a path with */, /* and a newline: the path reached the code" "$(cc -E -P "$work/evil.c" | grep -F 'int x = ;')"
elif [ "$(grep -n '\*/' "$work/evil.c" | head -1)" != "2: * Generated by dwcompile. */" ]; then
    not_ok "a path with */, /* and a newline: the first comment ends early" "$(head -3 "$work/evil.c")"
else
    ok "a path with */, /* and a newline: $(head -1 "$work/evil.c" | cut -c1-60)..."
fi

# ---- reproducible eh_elfs ------------------------------------------------------
# One input compiled twice, to outputs of other names in other directories
# (one given relative): the same bytes, no temporary's name in them.
repro=$(realpath "$work")/repro
mkdir -p "$repro/a" "$repro/b"
if ! err=$("$bin/dwcompile" -q -o "$repro/a/x.eh_elf.so" "$sample" 2>&1 &&
           cd "$repro/b" && "$(realpath "$OLDPWD/$bin")/dwcompile" -q -o other.so "$(realpath "$OLDPWD/$sample")" 2>&1); then
    not_ok "dwcompile twice, other outputs: it failed" "$err"
elif ! cmp "$repro/a/x.eh_elf.so" "$repro/b/other.so" > /dev/null; then
    not_ok "dwcompile twice, other outputs: the same bytes" "$(cmp "$repro/a/x.eh_elf.so" "$repro/b/other.so" 2>&1)"
else
    ok "dwcompile twice, to other names in other directories: the same bytes"
fi

# ---- a full disk ---------------------------------------------------------------
# The C written to a full file system (a 64 KiB tmpfs, filled) fails with
# the system's reason, naming the output (not "out of memory", not FILE),
# and leaves nothing.  Root only (mount).
full=$work/full
mkdir -p "$full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$full" 2>/dev/null; then
    head -c 61440 /dev/zero > "$full/fill" 2>/dev/null
    qf=$(quote "$full")
    refused "dwcompile -o FULL-DISK" -f "$full/fill" "dwcompile: $qf/x\.so: No space left on device" \
        "$bin/dwcompile" -q -o "$full/x.so" "$sample"
    refused "dwcompile --emit-c FULL-DISK" -f "$full/fill" "dwcompile: $qf/x\.c: No space left on device" \
        "$bin/dwcompile" -q -o "$out/full.so" --emit-c "$full/x.c" "$sample"
    if [ -e "$full/x.so" ] || [ -e "$full/x.c" ] || [ -e "$out/full.so" ]; then
        not_ok "a full disk: an output was written" "$(ls -l "$full" "$out")"
    fi
    umount "$full"
else
    ok "dwcompile on a full disk: # SKIP not root, or no tmpfs can be mounted here"
fi

# ---- interruptions ------------------------------------------------------------
# A compiler that never ends (it notes its pid in $HUNG_PIDS).
printf '#!/bin/sh\necho $$ >> "$HUNG_PIDS"\nexec sleep 60\n' > "$work/hung-cc"
chmod +x "$work/hung-cc"
export HUNG_PIDS=$work/hung.pids
# Job control, so that a background job's SIGINT is not ignored.
set -m
# descendants PID: PID's children and theirs.
descendants() { local c; for c in $(pgrep -P "$1"); do echo "$c"; descendants "$c"; done; }
# alive PIDS...: those still running (zombies are dead: whoever adopted them reaps them).
alive() {
    local p s
    for p in "$@"; do
        s=$(ps -o stat= -p "$p" 2>/dev/null) && [[ $s != Z* ]] && echo "$p"
    done
}
# interrupted NAME SIGNAL DIR READY CMD...: start CMD, wait until READY (a
# command given the tool's pid) succeeds, send SIGNAL; expect death by the
# signal, no process left of those it started, nothing left in DIR.
interrupted() {
    local name=$1 sig=$2 dir=$3 ready=$4 pid rc kids left i
    shift 4
    "$@" > /dev/null 2>&1 &
    pid=$!
    for ((i = 0; i < 1200; i++)); do
        "$ready" "$pid" && break
        sleep 0.05
    done
    kids=$(descendants "$pid")
    kill -s "$sig" "$pid"
    wait "$pid" 2>/dev/null
    rc=$?
    for ((i = 0; i < 10; i++)); do   # what was killed takes a moment to die
        left=$(alive $kids)
        [ -z "$left" ] && break
        sleep 0.05
    done
    local want=$((128 + $(kill -l "$sig")))
    if [ -z "$kids" ]; then
        not_ok "$name: the compiler never started"
    elif [ "$rc" -ne "$want" ]; then
        not_ok "$name: exit status $rc, expected $want (died of SIG$sig)"
    elif [ -n "$left" ]; then
        not_ok "$name: the compiler still runs" "$(ps -o pid,stat,args -p "${left//$'\n'/,}")"
        kill -9 $left 2>/dev/null
    elif [ -n "$(find "$dir" -mindepth 1 -not -name 'slow-cc')" ]; then
        not_ok "$name: files left" "$(find "$dir" -mindepth 1)"
    else
        ok "$name: exit status $rc, no compiler left, no temporary file"
    fi
}

# dwcompile on libc (a few seconds of cc1), stopped while cc1 runs.
cc1_runs() { local c; for c in $(pgrep -P "$1"); do pgrep -P "$c" -x cc1 > /dev/null && return 0; done; return 1; }
libc=/usr/lib/x86_64-linux-gnu/libc.so.6
mkdir -p "$work/kill-dwcompile"
interrupted "dwcompile on libc, SIGTERM while cc1 runs" TERM "$work/kill-dwcompile" cc1_runs \
    "$bin/dwcompile" -q --force -o "$work/kill-dwcompile/libc.eh_elf.so" "$libc"

# The same with a compiler that would run for a minute.
hangs() { pgrep -P "$1" -x sleep > /dev/null; }
mkdir -p "$work/kill-hung"
CC=$work/hung-cc interrupted "dwcompile, SIGTERM while a compiler that hangs runs" TERM "$work/kill-hung" hangs \
    "$bin/dwcompile" -q -o "$work/kill-hung/s.eh_elf.so" "$sample"

# dwsynth annotate, interrupted when its first compiler run has made the
# object and lingers: the temporary directory has a file in it then.
annotate_tmp=$work/kill-annotate
mkdir -p "$annotate_tmp"
printf '#!/bin/sh\ncc "$@" || exit\nexec sleep 60\n' > "$work/slow-cc"
chmod +x "$work/slow-cc"
# A SIGINT ignored by whoever started the tests stays ignored (as it should).
sigint=INT
(( (16#$(awk '/^SigIgn/ {print $2}' /proc/$$/status) >> 1) & 1 )) && sigint=HUP
TMPDIR=$annotate_tmp CC=$work/slow-cc \
    interrupted "dwsynth annotate, SIG$sigint while the assembler runs" "$sigint" "$annotate_tmp" hangs \
    "$bin/dwsynth" annotate -o "$annotate_tmp/out.s" tests/annotate/frames.s
set +m

# ---- limits ---------------------------------------------------------------------
# .include "/dev/zero" drives the assembler to any size: stopped at the
# memory limit (lowered here to be fast), and named.  Outside the sanitizer
# build, a ceiling on the whole run keeps a regression from eating the machine.
printf '\t.text\n\t.include "/dev/zero"\n' > "$work/zero.s"
start=$SECONDS
err=$( [ -z "$san" ] && ulimit -v $((4 * 1024 * 1024))
       DWCHECK_CC_MEMORY=256 timeout 60 "$bin/dwsynth" annotate -o "$work/zero.out.s" "$work/zero.s" 2>&1)
rc=$?
q=$(quote "$work/zero.s")
if [ "$rc" -ne 2 ]; then
    not_ok ".include \"/dev/zero\": exit status $rc, expected 2" "$err"
elif ! grep -qxE "dwsynth: $q: the assembler exceeded its memory limit \\(256 MiB\\)" <<< "$err"; then
    not_ok ".include \"/dev/zero\": message" "$err"
elif [ $((SECONDS - start)) -gt 20 ] || [ -e "$work/zero.out.s" ]; then
    not_ok ".include \"/dev/zero\": $((SECONDS - start)) s, or an output written" "$err"
else
    ok ".include \"/dev/zero\": $(tail -1 <<< "$err")"
fi

# A compiler that hangs is stopped at the time limit (lowered to 1 s).
mkdir -p "$work/hung"
for tool in dwsynth dwcompile; do
    start=$SECONDS
    if [ "$tool" = dwsynth ]; then
        err=$(DWCHECK_CC_SECONDS=1 CC=$work/hung-cc timeout 60 "$bin/dwsynth" annotate tests/annotate/frames.s 2>&1 >/dev/null)
        rc=$? in=tests/annotate/frames.s who="the assembler"
    else
        err=$(DWCHECK_CC_SECONDS=1 CC=$work/hung-cc timeout 60 "$bin/dwcompile" -q -o "$work/hung/s.so" "$sample" 2>&1)
        rc=$? in=$sample who="the C compiler \\($(quote "$work/hung-cc")\\)"
    fi
    if [ "$rc" -ne 2 ]; then
        not_ok "$tool, a compiler that hangs: exit status $rc, expected 2" "$err"
    elif ! grep -qxE "$tool: $(quote "$in"): $who was stopped after 1 s" <<< "$err"; then
        not_ok "$tool, a compiler that hangs: message" "$err"
    elif [ $((SECONDS - start)) -gt 10 ] || [ -n "$(ls -A "$work/hung")" ] || [ -n "$(alive $(cat "$HUNG_PIDS"))" ]; then
        not_ok "$tool, a compiler that hangs: $((SECONDS - start)) s, files or the compiler left" "$(ls -A "$work/hung")"
    else
        ok "$tool, a compiler that hangs: $err"
    fi
done

if [ -z "$(ls -A "$TMPDIR")" ]; then
    ok "no temporary directory left"
else
    not_ok "temporary directories left" "$(ls -A "$TMPDIR")"
fi

finish "outputs"
