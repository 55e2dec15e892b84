#!/bin/sh
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
set -u
LIB=/usr/lib/x86_64-linux-gnu/libcrypto.so.3
ANCHOR=EVP_PKEY_derive
here=$(cd "$(dirname "$0")" && pwd)

skip() { echo "SKIP: $*"; exit 77; }
for t in cc gdb readelf objdump nm grep awk timeout; do
    command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
[ -r "$LIB" ] || skip "$LIB not found (libssl3)"
[ -r /usr/include/openssl/evp.h ] || skip "OpenSSL headers not found (install libssl-dev)"

work=$(mktemp -d "${TMPDIR:-/tmp}/x25519-unwind.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# --- locate the two epilogues ------------------------------------------------
# file offset -> virtual address, through the PT_LOAD program headers
vaddr() {
    readelf -lW "$LIB" | while read -r type off va pa fsz rest; do
        [ "$type" = LOAD ] || continue
        if [ $(($1)) -ge $((off)) ] && [ $(($1)) -lt $((off + fsz)) ]; then
            printf '0x%x\n' $(($1 - off + va))
            break
        fi
    done
}
# $1: hex bytes; prints the virtual address of the only match
find_code() {
    pat=$(printf '%s' "$1" | sed 's/\(..\)/\\x\1/g')
    hits=$(LC_ALL=C grep -obUaP "$pat" "$LIB" | cut -d: -f1)
    [ "$(printf '%s\n' "$hits" | grep -c .)" -eq 1 ] || return 1
    vaddr "$hits"
}
#           mov 8*3(%rsp),%r15 ... mov 8*8(%rsp),%rbp; lea 8*9(%rsp),%rsp; repz ret
FE64=4c8b7c24184c8b7424204c8b6c24284c8b642430488b5c2438488b6c2440488d642448f3c3
#           mov 8*5(%rsp),%r15 ... mov 8*10(%rsp),%rbp; lea 8*11(%rsp),%rsp; repz ret
FE51=4c8b7c24284c8b7424304c8b6c24384c8b642440488b5c2448488b6c2450488d642458f3c3
e64=$(find_code "$FE64") && e51=$(find_code "$FE51") || {
    echo "FAIL: the x25519 epilogues were not found (once each) in $LIB;"
    echo "      a different OpenSSL build?"
    exit 1
}
LEA64=$(printf '0x%x' $((e64 + 30))) RET64=$(printf '0x%x' $((e64 + 35)))
LEA51=$(printf '0x%x' $((e51 + 30))) RET51=$(printf '0x%x' $((e51 + 35)))
A=$(nm -D --defined-only "$LIB" | awk -v s="$ANCHOR" '{ n = $3; sub(/@.*/, "", n) } n == s { print "0x" $1; exit }')
[ -n "$A" ] || { echo "FAIL: no $ANCHOR in $LIB"; exit 1; }

echo "== $LIB ($ANCHOR at $A)"
show() { # $1 name, $2 lea, $3 ret
    echo "-- $1: lea at $2, ret at $3"
    objdump -d --no-show-raw-insn --start-address=$(($2 - 25)) --stop-address=$(($3 + 2)) "$LIB" |
        awk '/^ *[0-9a-f]+:/'
    echo "   readelf -wF, the last rows of the FDE that covers $3:"
    readelf -wF "$LIB" 2>/dev/null | awk -v want=$(($3)) '
        function hex(s,   i, c, v) { v = 0; s = tolower(s)
            for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)); v = v * 16 + c - 1 }
            return v }
        / FDE / { split($0, a, "pc="); split(a[2], r, "\\.\\."); lo = hex(r[1]); hi = hex(r[2])
                  inside = (want >= lo && want < hi); n = 0; if (inside) hdr = $0; next }
        inside && /^ +LOC/ { head = $0; next }
        inside && /^[0-9a-f]+ / { rows[++n] = $0 }
        inside && /^$/ { print "   " hdr; print "   " head; for (i = (n > 4 ? n - 3 : 1); i <= n; i++) print "   " rows[i]; exit }'
}
show "x25519_fe64_sqr epilogue" "$LEA64" "$RET64"
show "x25519_fe51_sqr epilogue" "$LEA51" "$RET51"

# --- build -------------------------------------------------------------------
cp "$here/x25519_derive.c" "$work/" || exit 1
(cd "$work" && cc -O1 -g -rdynamic -o x25519_derive x25519_derive.c -lcrypto -ldl) ||
    { echo "FAIL: cannot build x25519_derive.c"; exit 1; }

# --- gdb runs ----------------------------------------------------------------
# $1 name, $2 lea, $3 ret, $4 environment setting for the program (or "")
gdb_script() {
    at() { echo "((char *)$ANCHOR - $A + $1)"; }
    cat <<EOF
set pagination off
set width 0
set confirm off
set debuginfod enabled off
set print frame-arguments none
$4
break main
run
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
signal SIGUSR1
echo @@@ after the signal\\n
if \$_isvoid(\$_exitcode)
  bt 6
  kill
end
echo @@@ end\\n
EOF
}

log=$work/gdb.log
: >"$log"
run_gdb() { # $1 title; the gdb script on stdin
    cat >"$work/cmds.gdb"
    (cd "$work" && timeout 60 gdb -nx -batch -x cmds.gdb ./x25519_derive) >"$work/run.log" 2>&1
    { echo "@@@@ $1"; cat "$work/run.log"; } >>"$log"
    echo
    echo "== gdb: $1"
    grep -v -e '^\[Thread debugging' -e '^Using host libthread_db' \
        -e '^\[Inferior 1 (process' -e '^Breakpoint 1' -e '^[0-9]*[ 	]*{$' \
        -e '^Temporary breakpoint [0-9]* at' -e '^$' "$work/run.log"
}
# the fe64 code needs BMI2 and ADX (x25519_fe64_eligible)
fe64=no
grep -qw bmi2 /proc/cpuinfo 2>/dev/null && grep -qw adx /proc/cpuinfo 2>/dev/null && fe64=yes
if [ $fe64 = yes ]; then
    gdb_script fe64 "$LEA64" "$RET64" "" | run_gdb "1: own CPU capabilities (x25519_fe64_*)"
else
    echo
    echo "== this CPU lacks BMI2 or ADX: OpenSSL never uses x25519_fe64_*; that run is left out"
fi
gdb_script fe51 "$LEA51" "$RET51" "set environment OPENSSL_ia32cap=:~0x80100" |
    run_gdb "2: OPENSSL_ia32cap=:~0x80100 (x25519_fe51_*)"

# --- verdict -----------------------------------------------------------------
run() { awk -v s="@@@@ $1" 'index($0, s) == 1 { p = 1; next } /^@@@@ / { p = 0 } p' "$log"; }
stop() { run "$1" | awk -v s="@@@ $2" 'index($0, s) == 1 { p = 1; next } /^@@@ / { p = 0 } p'; }
right() { # the backtrace goes through derive to main, nothing bogus
    bt_=$(stop "$1" "$2")
    printf '%s\n' "$bt_" | grep -q '^#[0-9]* .* in derive ' &&
        printf '%s\n' "$bt_" | grep -q '^#[0-9]* .* in main ' &&
        ! printf '%s\n' "$bt_" | grep -q -e 'Backtrace stopped' -e '^#[0-9]* *0x0* in ?? ()'
}

bad=0
pass() { echo "ok:   $*"; }
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }
check() { # $1 run, $2 name
    r=$1 n=$2
    if right "$r" "$n: lea"; then pass "$n lea: gdb's backtrace reaches derive and main"
    else fail "$n lea: gdb's backtrace is not the expected one"; fi
    if right "$r" "$n: ret"; then fail "$n ret: gdb's backtrace is right (bug not shown)"
    else pass "$n ret: gdb's backtrace is cut: $(stop "$r" "$n: ret" | grep '^#' | sed -n '2,$p' | sed 's/^#[0-9]* *//' | tr '\n' ';' | sed 's/;$//')"; fi
    if right "$r" "$n: after"; then pass "$n after the ret: gdb's backtrace reaches derive and main"
    else fail "$n after the ret: gdb's backtrace is not the expected one"; fi
    walks=$(run "$r" | grep '^_Unwind_Backtrace: ' | sed 's/^_Unwind_Backtrace: //' | tr '\n' '|')
    case $walks in
    "reached main|did NOT reach main|")
        pass "$n: _Unwind_Backtrace from a signal at the lea reaches main, at the ret it does not" ;;
    "reached main|")
        if run "$r" | grep -q SIGSEGV && run "$r" | grep -q '_Unwind_Backtrace ()'; then
            pass "$n: _Unwind_Backtrace from a signal at the lea reaches main, at the ret it crashes (SIGSEGV)"
        else fail "$n: _Unwind_Backtrace results: $walks"; fi ;;
    *) fail "$n: _Unwind_Backtrace results: $walks" ;;
    esac
}
echo
echo "== verdict"
[ $fe64 = yes ] && check 1 fe64
check 2 fe51

if [ $bad -eq 0 ]; then
    echo "RESULT: reproduced (OpenSSL x25519_fe64_sqr/x25519_fe51_sqr: CFA offset +88 instead of -88 at the ret)"
    exit 0
fi
echo "RESULT: NOT reproduced ($bad check(s) failed)"
exit 1
