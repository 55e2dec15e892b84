#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Reproduce: the epilogues of OpenSSL's x25519_fe64_sqr and x25519_fe51_sqr
# (libcrypto.so.3) say ".cfi_adjust_cfa_offset 88" after releasing the frame
# with "lea 8*9(%rsp),%rsp" / "lea 8*11(%rsp),%rsp": the sign is wrong, so at
# the final ret the table says CFA = rsp+168 (fe64) / rsp+184 (fe51) where it
# is rsp+8.  Every x25519_fe64_mul/sqr (x25519_fe51_mul/sqr/mul121666) call
# returns through that ret.
#
# Builds x25519_derive.c (one X25519 key derivation) and runs it under gdb
# twice, with the CPU's own capabilities (BMI2+ADX: the fe64 code) and with
# OPENSSL_ia32cap=":~0x80100" (BMI2 and ADX masked: the fe51 code).  In each
# run it stops
#   - at the lea before the ret   (outside the wrong row: backtrace right),
#   - at the ret                  (inside: backtrace wrong),
#   - after the ret, in the caller (outside: backtrace right),
# and prints gdb's backtrace; then, at a later call, it raises SIGUSR1 at the
# lea and at the ret so that the program walks its own stack with libgcc's
# _Unwind_Backtrace from the signal handler (what backtrace() and sampling
# profilers do).
#
# The functions are not exported and Debian ships no symbols for them here, so
# the epilogues are found by their code bytes (the register restores, the lea
# and the ret, as written in x25519-x86_64.pl); run-time addresses are computed
# from the exported EVP_PKEY_derive.
#
# Needs: cc, gdb, readelf, objdump, libssl-dev.  Exit: 0 the bug shows as
# described, 1 it does not, 77 something needed is missing.
#
# The helpers (need_tools, make_work, find_code, dynsym_addr, AWK_HEX, at,
# build, gdb_prologue, gdb_last_signal, run_gdb, show_gdb, run, part,
# walk_results, walk_crashed, pass, fail, verdict) are in ../common/lib.sh;
# the program's SIGUSR1 handler is in ../common/unwind_probe.h.
set -u
LIB=/usr/lib/x86_64-linux-gnu/libcrypto.so.3
ANCHOR=EVP_PKEY_derive
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/lib.sh"

need_tools cc gdb readelf objdump nm grep awk timeout
[ -r "$LIB" ] || skip "$LIB not found (libssl3)"
[ -r /usr/include/openssl/evp.h ] || skip "OpenSSL headers not found (install libssl-dev)"
make_work x25519-unwind

# --- locate the two epilogues ------------------------------------------------
#           mov 8*3(%rsp),%r15 ... mov 8*8(%rsp),%rbp; lea 8*9(%rsp),%rsp; repz ret
FE64=4c8b7c24184c8b7424204c8b6c24284c8b642430488b5c2438488b6c2440488d642448f3c3
#           mov 8*5(%rsp),%r15 ... mov 8*10(%rsp),%rbp; lea 8*11(%rsp),%rsp; repz ret
FE51=4c8b7c24284c8b7424304c8b6c24384c8b642440488b5c2448488b6c2450488d642458f3c3
e64=$(find_code "$LIB" "$FE64") && e51=$(find_code "$LIB" "$FE51") || {
    echo "FAIL: the x25519 epilogues were not found (once each) in $LIB;"
    echo "      a different OpenSSL build?"
    exit 1
}
LEA64=$(printf '0x%x' $((e64 + 30))) RET64=$(printf '0x%x' $((e64 + 35)))
LEA51=$(printf '0x%x' $((e51 + 30))) RET51=$(printf '0x%x' $((e51 + 35)))
A=$(dynsym_addr "$LIB" "$ANCHOR")
[ -n "$A" ] || { echo "FAIL: no $ANCHOR in $LIB"; exit 1; }

echo "== $LIB ($ANCHOR at $A)"
show() { # $1 name, $2 lea, $3 ret
    echo "-- $1: lea at $2, ret at $3"
    objdump -d --no-show-raw-insn --start-address=$(($2 - 25)) --stop-address=$(($3 + 2)) "$LIB" |
        awk '/^ *[0-9a-f]+:/'
    echo "   readelf -wF, the last rows of the FDE that covers $3:"
    readelf -wF "$LIB" 2>/dev/null | awk -v want=$(($3)) "$AWK_HEX"'
        / FDE / { split($0, a, "pc="); split(a[2], r, "\\.\\."); lo = hex(r[1]); hi = hex(r[2])
                  inside = (want >= lo && want < hi); n = 0; if (inside) hdr = $0; next }
        inside && /^ +LOC/ { head = $0; next }
        inside && /^[0-9a-f]+ / { rows[++n] = $0 }
        inside && /^$/ { print "   " hdr; print "   " head; for (i = (n > 4 ? n - 3 : 1); i <= n; i++) print "   " rows[i]; exit }'
}
show "x25519_fe64_sqr epilogue" "$LEA64" "$RET64"
show "x25519_fe51_sqr epilogue" "$LEA51" "$RET51"

# --- build -------------------------------------------------------------------
build x25519_derive.c -O1 -g -rdynamic -I../common -o "$work/x25519_derive" x25519_derive.c -lcrypto -ldl

# --- gdb runs ----------------------------------------------------------------
# $1 name, $2 lea, $3 ret, $4 environment setting for the program (or "")
gdb_script() {
    gdb_prologue "$4"
    cat <<EOF
break $ANCHOR
continue
delete
tbreak *$(at "$2")
continue
echo @@@ $1: lea before the ret (outside the wrong row)\\n
x/i \$pc
bt
stepi
echo @@@ $1: ret (inside)\\n
x/i \$pc
bt
stepi
echo @@@ $1: after the ret, in the caller (outside)\\n
x/i \$pc
bt
tbreak *$(at "$2")
continue
tbreak *$(at "$3")
echo @@@ $1: SIGUSR1 at the lea (outside)\\n
signal SIGUSR1
echo @@@ $1: SIGUSR1 at the ret (inside)\\n
x/i \$pc
EOF
    gdb_last_signal
}

gdb_x25519() { # $1 title; the gdb script on stdin
    run_gdb "$1" ./x25519_derive
    show_gdb -e '^Temporary breakpoint [0-9]* at'
}
# the fe64 code needs BMI2 and ADX (x25519_fe64_eligible)
fe64=no
grep -qw bmi2 /proc/cpuinfo 2>/dev/null && grep -qw adx /proc/cpuinfo 2>/dev/null && fe64=yes
if [ $fe64 = yes ]; then
    gdb_script fe64 "$LEA64" "$RET64" "" | gdb_x25519 "1: own CPU capabilities (x25519_fe64_*)"
else
    echo
    echo "== this CPU lacks BMI2 or ADX: OpenSSL never uses x25519_fe64_*; that run is left out"
fi
gdb_script fe51 "$LEA51" "$RET51" "set environment OPENSSL_ia32cap=:~0x80100" |
    gdb_x25519 "2: OPENSSL_ia32cap=:~0x80100 (x25519_fe51_*)"

# --- verdict -----------------------------------------------------------------
# run N: the output of gdb run N (its title starts with "N:")
stop() { run "$1" | part @@@ "$2"; }
right() { # the backtrace goes through derive to main, nothing bogus
    bt_=$(stop "$1" "$2")
    printf '%s\n' "$bt_" | grep -q '^#[0-9]* .* in derive ' &&
        printf '%s\n' "$bt_" | grep -q '^#[0-9]* .* in main ' &&
        ! printf '%s\n' "$bt_" | grep -q -e 'Backtrace stopped' -e '^#[0-9]* *0x0* in ?? ()'
}

check() { # $1 run, $2 name
    r=$1 n=$2
    if right "$r" "$n: lea"; then pass "$n lea: gdb's backtrace reaches derive and main"
    else fail "$n lea: gdb's backtrace is not the expected one"; fi
    if right "$r" "$n: ret"; then fail "$n ret: gdb's backtrace is right (bug not shown)"
    else pass "$n ret: gdb's backtrace is cut: $(stop "$r" "$n: ret" | grep '^#' | sed -n '2,$p' | sed 's/^#[0-9]* *//' | tr '\n' ';' | sed 's/;$//')"; fi
    if right "$r" "$n: after"; then pass "$n after the ret: gdb's backtrace reaches derive and main"
    else fail "$n after the ret: gdb's backtrace is not the expected one"; fi
    walks=$(run "$r" | walk_results)
    case $walks in
    "reached main|did NOT reach main|")
        pass "$n: _Unwind_Backtrace from a signal at the lea reaches main, at the ret it does not" ;;
    "reached main|")
        if run "$r" | walk_crashed; then
            pass "$n: _Unwind_Backtrace from a signal at the lea reaches main, at the ret it crashes (SIGSEGV)"
        else fail "$n: _Unwind_Backtrace results: $walks"; fi ;;
    *) fail "$n: _Unwind_Backtrace results: $walks" ;;
    esac
}
echo
echo "== verdict"
[ $fe64 = yes ] && check 1 fe64
check 2 fe51

verdict "OpenSSL x25519_fe64_sqr/x25519_fe51_sqr: CFA offset +88 instead of -88 at the ret"
