#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Reproduce: OpenSSL's bn_gather5 (libcrypto.so.3, crypto/bn/asm/x86_64-mont5.pl)
# keeps the caller's rsp in r10 ("lea (%rsp),%r10"), then moves rsp with
# "sub $0x108,%rsp" and "and $-16,%rsp", and gives it back with
# "lea (%r10),%rsp" just before its ret; its FDE has no row after the initial
# CFA = rsp+8, so in the whole body the return address is read from the
# function's scratch area.
#
# Builds bn_modexp.c (two BN_mod_exp_mont_consttime calls, each calling
# bn_gather5 once) and runs it under gdb.  In the first call it stops
#   - at bn_gather5's entry            (outside the wrong range: right),
#   - after the "sub $0x108,%rsp"      (inside: wrong),
#   - at the final "lea (%r10),%rsp"   (inside: wrong),
#   - at the ret                       (outside again: right),
# and prints gdb's backtrace; at the ret it also raises SIGUSR1 so that the
# program walks its own stack with libgcc's _Unwind_Backtrace from the signal
# handler (what backtrace() and sampling profilers do).  In the second call it
# raises SIGUSR1 at the final lea, inside the wrong range.
#
# bn_gather5 is not exported and Debian ships no symbols for it here, so it is
# found by its first two instructions, which x86_64-mont5.pl writes as .byte
# (4c 8d 14 24 48 81 ec 08 01 00 00), and its end by "lea (%r10),%rsp; repz
# ret" (49 8d 22 f3 c3); run-time addresses are computed from the exported
# BN_mod_exp_mont_consttime.
#
# Needs: cc, gdb, readelf, objdump, libssl-dev.  Exit: 0 the bug shows as
# described, 1 it does not, 77 something needed is missing.
#
# The helpers (need_tools, make_work, find_code, dynsym_addr, at, print_fde,
# build, gdb_prologue, gdb_last_signal, run_gdb, show_gdb, part, frame,
# walk_results, walk_crashed, pass, fail, verdict) are in ../common/lib.sh;
# the program's SIGUSR1 handler is in ../common/unwind_probe.h.
set -u
LIB=/usr/lib/x86_64-linux-gnu/libcrypto.so.3
ANCHOR=BN_mod_exp_mont_consttime
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/lib.sh"

need_tools cc gdb readelf objdump nm grep awk timeout
[ -r "$LIB" ] || skip "$LIB not found (libssl3)"
[ -r /usr/include/openssl/bn.h ] || skip "OpenSSL headers not found (install libssl-dev)"
make_work gather5-unwind

# --- locate bn_gather5 ---------------------------------------------------------
ENTRY=$(find_code "$LIB" 4c8d14244881ec08010000) && END=$(find_code "$LIB" 498d22f3c3) &&
    [ $((END)) -gt $((ENTRY)) ] && [ $((END - ENTRY)) -lt 4096 ] || {
    echo "FAIL: bn_gather5 was not found in $LIB; a different OpenSSL build?"
    exit 1
}
IN1=$(printf '0x%x' $((ENTRY + 11)))    # after the sub
IN2=$END                                # lea (%r10),%rsp
RET=$(printf '0x%x' $((END + 3)))       # repz ret
O_IN1=$((IN1 - ENTRY)) O_IN2=$((IN2 - ENTRY)) O_RET=$((RET - ENTRY))
A=$(dynsym_addr "$LIB" "$ANCHOR")
[ -n "$A" ] || { echo "FAIL: no $ANCHOR in $LIB"; exit 1; }

echo "== $LIB ($ANCHOR at $A)"
echo "bn_gather5 at $ENTRY: stops at +0, +$O_IN1 (after the sub), +$O_IN2 (lea (%r10),%rsp), +$O_RET (ret)"
objdump -d --no-show-raw-insn --start-address=$((ENTRY)) --stop-address=$((ENTRY + 0x1a)) "$LIB" |
    awk '/^ *[0-9a-f]+:/'
echo "   ..."
objdump -d --no-show-raw-insn --start-address=$((END - 0x11)) --stop-address=$((RET + 2)) "$LIB" |
    awk '/^ *[0-9a-f]+:/'
echo "== readelf -wF: the FDE that covers $ENTRY (no row after the initial one)"
print_fde "$LIB" "$ENTRY"

# --- build -------------------------------------------------------------------
build bn_modexp.c -O1 -g -rdynamic -I../common -o "$work/bn_modexp" bn_modexp.c -lcrypto -ldl

# --- gdb run -----------------------------------------------------------------
gdb_script() {
    gdb_prologue
    cat <<EOF
tbreak *$(at "$ENTRY")
continue
echo @@@ entry (outside the wrong range)\\n
x/i \$pc
bt
tbreak *$(at "$IN1")
continue
echo @@@ +$O_IN1, after sub \$0x108,%rsp (inside)\\n
x/i \$pc
bt
tbreak *$(at "$IN2")
continue
echo @@@ +$O_IN2, lea (%r10),%rsp (inside)\\n
x/i \$pc
bt
stepi
echo @@@ +$O_RET, ret (outside again), SIGUSR1 here\\n
x/i \$pc
bt
tbreak *$(at "$IN2")
signal SIGUSR1
echo @@@ second call: +$O_IN2, lea (%r10),%rsp (inside), SIGUSR1 here\\n
x/i \$pc
EOF
    gdb_last_signal
}
gdb_script | run_gdb "" ./bn_modexp
show_gdb -e '^Temporary breakpoint [0-9]* at'

# --- verdict -----------------------------------------------------------------
stop() { part @@@ "$1" <"$log"; }
right() { # bn_gather5's caller is right and the backtrace reaches modexp and main
    bt_=$(stop "$1")
    printf '%s\n' "$bt_" | grep -q "^#[0-9]* .* in $ANCHOR " &&
        printf '%s\n' "$bt_" | grep -q '^#[0-9]* .* in modexp ' &&
        printf '%s\n' "$bt_" | grep -q '^#[0-9]* .* in main ' &&
        ! printf '%s\n' "$bt_" | grep -q -e 'Backtrace stopped' -e '^#[0-9]* *0x0* in ?? ()$'
}
caller() { stop "$1" | frame 1; }

echo
echo "== verdict"
if right "entry"; then pass "entry: gdb: bn_gather5 <- libcrypto <- $ANCHOR <- modexp <- main"
else fail "entry: gdb's backtrace is not the expected one"; fi
for s in "+$O_IN1" "+$O_IN2"; do
    if right "$s"; then fail "$s: gdb's backtrace is right (bug not shown)"
    else pass "$s: gdb's caller frame is bogus: $(caller "$s") (no $ANCHOR, no main)"; fi
done
if right "+$O_RET"; then pass "ret: gdb: bn_gather5 <- libcrypto <- $ANCHOR <- modexp <- main"
else fail "ret: gdb's backtrace is not the expected one"; fi
walks=$(walk_results <"$log")
case $walks in
"reached main|did NOT reach main|")
    pass "_Unwind_Backtrace from a signal at the ret reaches main, inside it does not" ;;
"reached main|")
    if walk_crashed <"$log"; then
        pass "_Unwind_Backtrace from a signal at the ret reaches main, inside it crashes (SIGSEGV)"
    else fail "_Unwind_Backtrace results: $walks"; fi ;;
*) fail "_Unwind_Backtrace results: $walks" ;;
esac

verdict "OpenSSL bn_gather5: CFA left at rsp+8 while rsp is moved; should be r10+8"
