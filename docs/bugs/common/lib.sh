# SPDX-License-Identifier: Apache-2.0
# Shell functions shared by the reproductions' reproduce.sh scripts.
#
# Sourced by each script after it has set `here` (its own directory):
#   here=$(cd "$(dirname "$0")" && pwd)
#   . "$here/../common/lib.sh"
# The exit codes are the scripts': 0 the bug shows, 1 it does not, 77 something
# needed is missing (skip).

# --- requirements and the work directory ------------------------------------
skip() { echo "SKIP: $*"; exit 77; }

# need_tools TOOL...: skip unless every TOOL is on PATH
need_tools() {
    for t in "$@"; do
        command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
    done
}

# make_work NAME: a fresh directory $work, removed when the script exits;
# the gdb output collected by run_gdb goes to $log in it
make_work() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
    trap 'rm -rf "$work"' EXIT
    log=$work/gdb.log
    : >"$log"
}

# --- looking at the library --------------------------------------------------
# print_fde FILE ADDR: readelf -wF's FDE of FILE that starts at ADDR, with rows
print_fde() {
    readelf -wF "$1" 2>/dev/null | awk -v pc="$(printf 'pc=%016x' "$2")" \
        'index($0, pc) { p = 1 } p && /^$/ { exit } p'
}

# dynsym_addr FILE SYMBOL: the address (0x...) of an exported symbol of FILE
dynsym_addr() {
    nm -D --defined-only "$1" | awk -v s="$2" '{ n = $3; sub(/@.*/, "", n) } n == s { print "0x" $1; exit }'
}

# vaddr FILE OFFSET: the virtual address of a file offset, through the PT_LOAD
# program headers
vaddr() {
    readelf -lW "$1" | while read -r type off va pa fsz rest; do
        [ "$type" = LOAD ] || continue
        if [ $(($2)) -ge $((off)) ] && [ $(($2)) -lt $((off + fsz)) ]; then
            printf '0x%x\n' $(($2 - off + va))
            break
        fi
    done
}

# find_code FILE HEX: the virtual address of the only occurrence of the bytes
# HEX (e.g. 498d22f3c3) in FILE; fails if they occur never or more than once
find_code() {
    pat=$(printf '%s' "$2" | sed 's/\(..\)/\\x\1/g')
    hits=$(LC_ALL=C grep -obUaP "$pat" "$1" | cut -d: -f1)
    [ "$(printf '%s\n' "$hits" | grep -c .)" -eq 1 ] || return 1
    vaddr "$1" "$hits"
}

# an awk function: hex("7b5a") = 31578
AWK_HEX='function hex(s,   i, c, v) { v = 0; s = tolower(s)
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)); v = v * 16 + c - 1 }
    return v }'

# at ADDR: a gdb expression for the run-time address of the library's file
# address ADDR, relative to the exported symbol $ANCHOR at file address $A
at() { echo "((char *)$ANCHOR - $A + $1)"; }

# --- the program -------------------------------------------------------------
# build SOURCE CC-ARGUMENT...: run "cc CC-ARGUMENT..." in the directory of
# reproduce.sh, where SOURCE is, to build the program SOURCE into $work.  The
# arguments name the source relative to that directory and find
# unwind_probe.h with -I../common, so gdb names the files "SOURCE" and
# "../common/unwind_probe.h".
build() {
    src=$1
    shift
    (cd "$here" && cc "$@") || { echo "FAIL: cannot build $src"; exit 1; }
}

# --- gdb ---------------------------------------------------------------------
# gdb_prologue [LINE]: the start of every gdb script: quiet batch settings,
# LINE (e.g. "set environment ..."), then run to main
gdb_prologue() {
    cat <<EOF
set pagination off
set width 0
set confirm off
set debuginfod enabled off
set print frame-arguments none
EOF
    [ -z "${1:-}" ] || printf '%s\n' "$1"
    printf 'break main\nrun\n'
}

# gdb_last_signal: the end of a gdb script that raises SIGUSR1 at the stop it
# has reached, which may kill the program (then gdb_epilogue)
gdb_last_signal() {
    printf '%s\n' 'signal SIGUSR1' 'echo @@@ after the signal\n'
    gdb_epilogue
}

# gdb_epilogue: the end of a gdb script after a signal that may have killed
# the program: if it still lives, where it is, then kill it
gdb_epilogue() {
    cat <<'EOF'
if $_isvoid($_exitcode)
  bt 6
  kill
end
echo @@@ end\n
EOF
}

# run_gdb TITLE PROGRAM [ARGUMENT...]: run the gdb script on stdin on PROGRAM
# (in $work); append "@@@@ TITLE" and gdb's output to $log and leave the output
# in $work/run.log; print the heading "== gdb: TITLE" ("== gdb" if TITLE is
# empty).  The caller shows the output with show_gdb.
run_gdb() {
    title=$1
    shift
    cat >"$work/cmds.gdb"
    (cd "$work" && timeout 60 gdb -nx -batch -x cmds.gdb --args "$@") >"$work/run.log" 2>&1
    { echo "@@@@ $title"; cat "$work/run.log"; } >>"$log"
    echo
    echo "== gdb${title:+: $title}"
}

# show_gdb [-e PATTERN]...: $work/run.log without gdb's chatter (and without
# the lines that match a PATTERN)
show_gdb() {
    grep -v -e '^\[Thread debugging' -e '^Using host libthread_db' \
        -e '^\[Inferior 1 (process' -e '^Breakpoint 1' -e '^[0-9]*[ 	]*{$' \
        -e '^$' "$@" "$work/run.log"
}

# --- the verdict -------------------------------------------------------------
# part MARK TITLE: of stdin, the lines after the one that starts with
# "MARK TITLE", up to the next line that starts with "MARK "
part() {
    awk -v m="$1 " -v s="$1 $2" 'index($0, s) == 1 { p = 1; next } index($0, m) == 1 { p = 0 } p'
}
# run TITLE: the gdb output of run_gdb TITLE
run() { part @@@@ "$1" <"$log"; }

# frame N: of the backtrace on stdin, frame #N without its number
frame() { grep -m1 "^#$1 " | sed "s/^#$1 *//"; }

# walk_results: the results of the _Unwind_Backtrace walks in the output on
# stdin, e.g. "reached main|did NOT reach main|"
walk_results() { grep '^_Unwind_Backtrace: ' | sed 's/^_Unwind_Backtrace: //' | tr '\n' '|'; }

# walk_crashed: the output on stdin shows a SIGSEGV inside _Unwind_Backtrace
walk_crashed() {
    out_=$(cat)
    printf '%s\n' "$out_" | grep -q SIGSEGV && printf '%s\n' "$out_" | grep -q '_Unwind_Backtrace ()'
}

bad=0
pass() { echo "ok:   $*"; }
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }

# verdict DESCRIPTION: print the result of the checks and exit with it
verdict() {
    if [ $bad -eq 0 ]; then
        echo "RESULT: reproduced ($1)"
        exit 0
    fi
    echo "RESULT: NOT reproduced ($bad check(s) failed)"
    exit 1
}
