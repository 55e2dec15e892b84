#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Reproduce: glibc's libmvec _ZGVcN4vvv_sincos (libmvec.so.1; the AVX 4-lane
# vector sincos, macro WRAPPER_IMPL_AVX_fFF_vvv in svml_d_sincos4_core_avx.S)
# has no CFI at all for its x86_64 body: "push %rbp; mov %rsp,%rbp;
# and $-32,%rsp; sub $160,%rsp", two calls, "mov %rbp,%rsp; pop %rbp; ret".
# Its FDE keeps CFA = rsp+8 throughout, so from the push to the pop the
# return address is read from the wrong place, and nothing it calls can be
# unwound past it either.
#
# Builds vsincos.c (three calls of _ZGVcN4vvv_sincos) and runs it under gdb.
# In the first call it stops
#   - at the entry                    (outside the wrong range: right),
#   - after "push %rbp"               (inside: wrong),
#   - at the first call instruction   (inside: wrong),
#   - in the callee, one stepi later  (a function with a correct FDE; the
#                                      frame above it is wrong),
#   - at the ret                      (outside again: right),
# and prints gdb's backtrace; at the ret it also raises SIGUSR1 so that the
# program walks its own stack with libgcc's _Unwind_Backtrace from the signal
# handler (what backtrace() and sampling profilers do).  In the second call it
# raises SIGUSR1 at the call instruction, in the third inside the callee.
#
# Offsets come from the disassembly of the exported symbol (nm -D -S gives its
# address and size).  Needs: cc, gdb, objdump, readelf, nm, libc6-dev (for
# libmvec.so).  Exit: 0 the bug shows as described, 1 it does not, 77
# something needed is missing.
#
# The helpers (need_tools, make_work, AWK_HEX, print_fde, build, gdb_prologue,
# gdb_epilogue, run_gdb, show_gdb, part, frame, walk_results, walk_crashed,
# pass, fail, verdict) are in ../common/lib.sh; the program's SIGUSR1 handler
# is in ../common/unwind_probe.h.
set -u
LIB=/usr/lib/x86_64-linux-gnu/libmvec.so.1
SYM=_ZGVcN4vvv_sincos
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/lib.sh"

need_tools cc gdb readelf objdump nm grep awk timeout
[ -r "$LIB" ] || skip "$LIB not found"
[ -e /usr/lib/x86_64-linux-gnu/libmvec.so ] || skip "libmvec.so not found (install libc6-dev)"
grep -q -w avx /proc/cpuinfo 2>/dev/null || skip "this CPU has no AVX"
make_work mvec-unwind

# --- offsets -------------------------------------------------------------------
set -- $(nm -D -S --defined-only "$LIB" | awk -v s="$SYM" '{ n = $4; sub(/@.*/, "", n) } n == s { print "0x" $1, "0x" $2; exit }')
[ $# -eq 2 ] || { echo "FAIL: no $SYM in $LIB"; exit 1; }
ADDR=$1 SIZE=$2
objdump -d --no-show-raw-insn --start-address=$((ADDR)) --stop-address=$((ADDR + SIZE)) "$LIB" |
    awk '/^ *[0-9a-f]+:/' >"$work/dis"
# inside 1 = the instruction after "push %rbp", inside 2 = the first call
set -- $(awk -v base=$((ADDR)) "$AWK_HEX"'
    { a = $1; sub(/:$/, "", a); off = hex(a) - base
      if (after_push && in1 == "") in1 = off
      after_push = ($0 ~ /push +%rbp/)
      if ($0 ~ /[ \t]call[ \t]/ && in2 == "") in2 = off
      if ($0 ~ /[ \t]ret[ \t]*$/) ret = off }
    END { if (in1 != "" && in2 != "" && ret != "") print in1, in2, ret }' "$work/dis")
[ $# -eq 3 ] || { echo "FAIL: $SYM does not look as expected (push %rbp ... call ... ret)"; exit 1; }
IN1=$1 IN2=$2 RET=$3

echo "== $LIB: $SYM at $ADDR, size $SIZE; stops at +0, +$IN1, +$IN2 (call), +$RET (ret)"
sed -n '1,10p' "$work/dis"
echo "   ..."
tail -n 4 "$work/dis"
echo "== readelf -wF: the FDE that covers $ADDR (no row after the initial one)"
print_fde "$LIB" "$ADDR"

# --- build -------------------------------------------------------------------
build vsincos.c -O1 -g -mavx -rdynamic -I../common -o "$work/vsincos" vsincos.c -lmvec -lm -ldl

# --- gdb run -----------------------------------------------------------------
gdb_script() {
    gdb_prologue
    cat <<EOF
tbreak *$SYM
continue
echo @@@ entry (outside the wrong range)\\n
x/i \$pc
bt
tbreak *($SYM+$IN1)
continue
echo @@@ +$IN1, after push %rbp (inside)\\n
x/i \$pc
bt
tbreak *($SYM+$IN2)
continue
echo @@@ +$IN2, the call (inside)\\n
x/i \$pc
bt
stepi
echo @@@ callee, one stepi later\\n
x/i \$pc
bt
tbreak *($SYM+$RET)
continue
echo @@@ +$RET, ret (outside again), SIGUSR1 here\\n
x/i \$pc
bt
tbreak *($SYM+$IN2)
signal SIGUSR1
echo @@@ second call: +$IN2, the call (inside), SIGUSR1 here\\n
x/i \$pc
tbreak *($SYM+$IN2)
signal SIGUSR1
echo @@@ after the signal\\n
if \$_isvoid(\$_exitcode)
  stepi
  echo @@@ third call: callee, SIGUSR1 here\\n
  x/i \$pc
  signal SIGUSR1
  echo @@@ after the signal\\n
end
EOF
    gdb_epilogue
}
gdb_script | run_gdb "" ./vsincos
show_gdb -e '^Temporary breakpoint [0-9]* at' -e '\.debug_info' -e '\.debug_aranges'

# --- verdict -----------------------------------------------------------------
stop() { part @@@ "$1" <"$log"; }
right() { # frame $2 (default #1) is sincos4, the backtrace reaches main
    bt_=$(stop "$1")
    printf '%s\n' "$bt_" | grep -q "^#${2:-1} .* in sincos4 " &&
        printf '%s\n' "$bt_" | grep -q '^#[0-9]* .* in main ' &&
        ! printf '%s\n' "$bt_" | grep -q 'Backtrace stopped'
}
caller() { stop "$1" | frame 1; }

echo
echo "== verdict"
if right "entry"; then pass "entry: gdb: $SYM <- sincos4 <- main"
else fail "entry: gdb's backtrace is not the expected one"; fi
for s in "+$IN1" "+$IN2"; do
    if right "$s"; then fail "$s: gdb's backtrace is right (bug not shown)"
    else pass "$s: gdb's backtrace is wrong, caller frame: $(caller "$s")"; fi
done
if caller "callee" | grep -q "$SYM" && ! right "callee" 2; then
    pass "callee: gdb gets to $SYM, then goes wrong: $(stop callee | frame 2)"
else fail "callee: gdb's backtrace is not the expected one"; fi
if right "+$RET"; then pass "ret: gdb: $SYM <- sincos4 <- main"
else fail "ret: gdb's backtrace is not the expected one"; fi
walks=$(walk_results <"$log")
crashed=no
walk_crashed <"$log" && crashed=yes
case "$walks/$crashed" in
"reached main|did NOT reach main|did NOT reach main|/no")
    pass "_Unwind_Backtrace from a signal at the ret reaches main; at the call and in the callee it does not" ;;
"reached main|did NOT reach main|/yes")
    pass "_Unwind_Backtrace from a signal at the ret reaches main; at the call it does not, in the callee it crashes (SIGSEGV)" ;;
"reached main|/yes")
    pass "_Unwind_Backtrace from a signal at the ret reaches main; at the call it crashes (SIGSEGV)" ;;
*) fail "_Unwind_Backtrace results: $walks (crash: $crashed)" ;;
esac

verdict "libmvec $SYM: push/mov/and/sub of the frame without CFI"
