#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Reproduce: glibc's __mpn_addmul_1 and __mpn_submul_1 (libc.so.6) push rbx
# and rbp without telling the unwind table; everywhere after the pushes the
# table still says CFA = rsp+8, so the return address is read from the slot
# that holds the saved rbp.
#
# Builds strtod_mpn.c (strtod("1e300") reaches __mpn_addmul_1, strtod("1e-300")
# reaches __mpn_submul_1) and runs it under gdb:
#   run 1 and 2: stop in the function at its entry (outside the wrong range),
#     after the two pushes (inside) and at its ret (outside again) and print
#     gdb's backtrace; at the ret also walk the stack with libgcc's
#     _Unwind_Backtrace from a SIGUSR1 handler (what backtrace() and sampling
#     profilers do);
#   run 3 and 4: the same _Unwind_Backtrace walk with the signal landing
#     inside the function.
#
# Needs: cc, gdb, readelf, libc6-dbg (the two functions are not exported; their
# symbols come from libc6-dbg).  Exit: 0 the bug shows as described, 1 it does
# not, 77 something needed is missing.
#
# The helpers (need_tools, make_work, print_fde, build, gdb_prologue,
# gdb_last_signal, run_gdb, show_gdb, run, part, frame, walk_crashed, pass,
# fail, verdict) are in ../common/lib.sh; the program's SIGUSR1 handler is in
# ../common/unwind_probe.h.
set -u
LIBC=/usr/lib/x86_64-linux-gnu/libc.so.6
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/lib.sh"

need_tools cc gdb readelf awk timeout
[ -r "$LIBC" ] || skip "$LIBC not found"
make_work mpn-unwind

# --- where the functions are, and the offsets of the stops -------------------
# From gdb's disassembly of the function (symbols from libc6-dbg):
#   inside = the instruction after "push %rbp", ret = the "ret".
offsets() {
    gdb -nx -batch -ex 'set debuginfod enabled off' \
        -ex "info address $1" -ex "disassemble $1" "$LIBC" 2>/dev/null |
    awk '
        /is a function at address/ { a = $NF; sub(/\.$/, "", a) }
        /<\+[0-9]+>:/ {
            match($0, /<\+[0-9]+>/); off = substr($0, RSTART + 2, RLENGTH - 3)
            if (after_push_rbp && inside == "") inside = off
            after_push_rbp = ($0 ~ /push +%rbp/)
            if ($0 ~ /[ \t]ret[ \t]*$/) ret = off
        }
        END { if (a != "" && inside != "" && ret != "") print a, inside, ret }'
}
set -- $(offsets __mpn_addmul_1)
[ $# -eq 3 ] || skip "no symbol __mpn_addmul_1 for $LIBC (install libc6-dbg)"
ADD_ADDR=$1 ADD_IN=$2 ADD_RET=$3
set -- $(offsets __mpn_submul_1)
[ $# -eq 3 ] || skip "no symbol __mpn_submul_1 for $LIBC (install libc6-dbg)"
SUB_ADDR=$1 SUB_IN=$2 SUB_RET=$3

echo "== $LIBC"
echo "__mpn_addmul_1 at $ADD_ADDR: inside stop +$ADD_IN, ret at +$ADD_RET"
echo "__mpn_submul_1 at $SUB_ADDR: inside stop +$SUB_IN, ret at +$SUB_RET"
for a in "$ADD_ADDR" "$SUB_ADDR"; do
    echo "== readelf -wF: the FDE at $a (no row after the initial one)"
    print_fde "$LIBC" "$a"
done

# --- build -------------------------------------------------------------------
build strtod_mpn.c -O1 -g -rdynamic -I../common -o "$work/strtod_mpn" strtod_mpn.c -ldl

# --- gdb runs ----------------------------------------------------------------
prologue() { # $1 function: run to its first call
    gdb_prologue
    printf 'break %s\ncontinue\ndelete\n' "$1"
}
# $1 function, $2 inside offset, $3 ret offset
walk_script() {
    prologue "$1"
    cat <<EOF
echo @@@ $1 entry (outside the wrong range)\\n
x/i \$pc
bt
tbreak *($1+$2)
continue
echo @@@ $1 +$2, after push %rbx; push %rbp (inside)\\n
x/i \$pc
bt
tbreak *($1+$3)
continue
echo @@@ $1 ret (outside again), SIGUSR1 here\\n
x/i \$pc
bt
signal SIGUSR1
echo @@@ end\\n
EOF
}
# $1 function, $2 inside offset
profile_script() {
    prologue "$1"
    cat <<EOF
tbreak *($1+$2)
continue
echo @@@ $1 +$2 (inside), SIGUSR1 here\\n
x/i \$pc
EOF
    gdb_last_signal
}

gdb_strtod() { # $1 title; the gdb script on stdin
    run_gdb "$1" ./strtod_mpn 1e300 1e-300
    show_gdb -e 'No such file or directory\.$' -e '^[0-9]*[ 	]*in \.\./sysdeps'
}
walk_script __mpn_addmul_1 "$ADD_IN" "$ADD_RET" | gdb_strtod "1: __mpn_addmul_1, backtraces"
walk_script __mpn_submul_1 "$SUB_IN" "$SUB_RET" | gdb_strtod "2: __mpn_submul_1, backtraces"
profile_script __mpn_addmul_1 "$ADD_IN" | gdb_strtod "3: __mpn_addmul_1, signal inside"
profile_script __mpn_submul_1 "$SUB_IN" | gdb_strtod "4: __mpn_submul_1, signal inside"

# --- verdict -----------------------------------------------------------------
# run N: the output of gdb run N (its title starts with "N:")
# stop N STOP: the lines of stop STOP ("F entry", "F +", "F ret") of run N
stop() { run "$1" | part @@@ "$2"; }
frame1() { stop "$1" "$2" | frame 1; }
reaches_main() { stop "$1" "$2" | grep -q '^#[0-9]* .* in main '; }

check() { # $1 run of the backtraces, $2 run of the signal inside, $3 function, $4 caller
    r=$1 p=$2 f=$3 caller=$4
    if frame1 "$r" "$f entry" | grep -q "$caller" && reaches_main "$r" "$f entry"; then
        pass "$f entry: gdb: $f <- $caller <- ... <- main"
    else fail "$f entry: gdb's backtrace is not the expected one"; fi
    if frame1 "$r" "$f +" | grep -q "$caller"; then
        fail "$f inside: gdb's backtrace is right (bug not shown)"
    else pass "$f inside: gdb's caller frame is bogus: $(frame1 "$r" "$f +")"; fi
    if frame1 "$r" "$f ret" | grep -q "$caller" && reaches_main "$r" "$f ret"; then
        pass "$f ret: gdb: $f <- $caller <- ... <- main"
    else fail "$f ret: gdb's backtrace is not the expected one"; fi
    if run "$r" | grep -q '^_Unwind_Backtrace: reached main'; then
        pass "$f ret: _Unwind_Backtrace from the signal handler reaches main"
    else fail "$f ret: _Unwind_Backtrace did not reach main"; fi
    if run "$p" | grep -q '^_Unwind_Backtrace: did NOT reach main'; then
        pass "$f inside: _Unwind_Backtrace stops at the bogus return address, short of main"
    elif run "$p" | walk_crashed; then
        pass "$f inside: _Unwind_Backtrace crashes (SIGSEGV) on the bogus return address"
    else fail "$f inside: _Unwind_Backtrace was not misled"; fi
}
echo
echo "== verdict"
check 1 3 __mpn_addmul_1 __mpn_mul
check 2 4 __mpn_submul_1 strtod_l_internal

verdict "glibc __mpn_addmul_1/__mpn_submul_1: push rbx/rbp without CFI"
