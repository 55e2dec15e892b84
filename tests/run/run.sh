#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwcheck --run: programs run under ptrace, every executed row checked
# against a shadow stack of true frames (execute/, report/execution_report).
#   tests/run/run.sh BUILD
# A library of hand-written assembly (dynadj.s) whose dyn_wrong moves rsp by
# an amount known only at run time and whose CFI forgets it (the static
# audit leaves those rows undecided): the run refutes them with a witness,
# and says the static audit did not judge them; its twin dyn_right is
# clean; a misplaced rbx save, which the audit finds too, is confirmed, and
# so is a signal handler's wrong CFA.  Ordinary programs (-O2 C, threads,
# longjmp, a C++ exception, a handled signal, a fork, an exec) run clean,
# their output, input and exit status their own.  Bad input: no program,
# one that cannot be run.
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/lib.sh"
dwcheck=$(cd "$build/bin" && pwd)/dwcheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

cc -shared -o libdynadj.so "$here/dynadj.s" &&
cc -O2 -o dyncall "$here/dyncall.c" -L. -ldynadj -Wl,-rpath,'$ORIGIN' &&
for p in plain jump signal status; do cc -O2 -o $p "$here/$p.c" || exit 2; done &&
cc -O2 -o handled "$here/handled.c" "$here/handler.s" &&
c++ -O2 -o throw "$here/throw.cc" &&
cc -O2 -pthread -o threads "$here/threads.c" || { echo "run: the fixtures do not build" >&2; exit 2; }

# json FIELD... < report: the run's JSON line (the last of stderr) queried by tests/run/query.py.
json() { python3 "$here/query.py" "$@"; }

# run NAME ARGS...: the program run alone, then under dwcheck --run
# --format=json; NAME.out/.err alone, NAME.tout/.terr traced, NAME.rc the
# traced dwcheck's status, NAME.prc the untraced program's.
run() {
    local name=$1; shift
    "$@" < /dev/null > "$name.out" 2> "$name.err"; echo $? > "$name.prc"
    "$dwcheck" --run --format=json -- "$@" < /dev/null > "$name.tout" 2> "$name.terr"; echo $? > "$name.rc"
}

# clean NAME ARGS...: run clean, same output, no finding, dwcheck exits 0.
clean() {
    local name=$1
    run "$@"
    local findings; findings=$(json findings < "$name.terr")
    if [ "$(cat "$name.rc")" = 0 ] && [ "$findings" = 0 ] && cmp -s "$name.out" "$name.tout" &&
       [ "$(json exit_status < "$name.terr")" = "$(cat "$name.prc")" ]; then
        ok "$name: no finding, output and exit status unchanged ($(json steps_checked < "$name.terr") steps checked)"
    else
        not_ok "$name: no finding, output and exit status unchanged" \
            "dwcheck status $(cat "$name.rc"), findings $findings; $(diff "$name.out" "$name.tout" | head -5)
$(tail -c 2000 "$name.terr")"
    fi
}

# (a) the wrong twin: refuted at run time, with a witness; the static audit cannot say.
run wrong ./dyncall wrong 3
static=$("$dwcheck" libdynadj.so)
if ! grep -q 'dyn_wrong' <<< "$static" && [ "$(cat wrong.rc)" = 1 ] &&
   [ "$(json findings-in libdynadj.so dyn_wrong < wrong.terr)" -gt 0 ] &&
   [ "$(json findings-not-in dyn_wrong < wrong.terr)" = 0 ]; then
    ok "dyn_wrong: refuted at run time (the static audit: no finding there, $(grep -o '[0-9]* unchecked' <<< "$static") in the file)"
else
    not_ok "dyn_wrong: refuted at run time" "status $(cat wrong.rc); static: $static
$(tail -c 3000 wrong.terr)"
fi
# Its witness: the CFA rule rsp+16 read rsp, gave rsp+16, and the truth is 3*16 bytes higher.
w=$(json witness dyn_wrong < wrong.terr)
if [ "$w" = "cfa-mismatch rsp+16 reads-rsp gave=rsp+16 truth-gave=48 execution=1" ]; then
    ok "dyn_wrong: the witness names the thread, rip, rsp read, what the rule gave and the true CFA"
else
    not_ok "dyn_wrong: the witness" "got: $w"
fi
# Joined with the static audit: which did not judge those rows (cfa-unknown).
statics=$(json statics dyn_wrong < wrong.terr)
[ "$statics" = not-judged ] && ok "dyn_wrong: the static audit did not judge those rows: decided by execution" ||
    not_ok "dyn_wrong: joined with the static audit" "got: $statics"
cmp -s wrong.out wrong.tout && ok "dyn_wrong: the program's output unchanged" || not_ok "dyn_wrong: output unchanged"
"$dwcheck" --run -- ./dyncall wrong 2 > /dev/null 2> wrong-text.err
if grep -q '^.*libdynadj.so: dyn_wrong+0x[0-9a-f]*: error: cfa-mismatch: at run time the CFA rule rsp+16 gave' wrong-text.err &&
   grep -q '^  witness: thread [0-9]*, rip 0x[0-9a-f]*, read rsp=0x[0-9a-f]*; execution 1 of [0-9]*$' wrong-text.err &&
   grep -q '^  static audit: did not judge this row: decided by execution$' wrong-text.err &&
   grep -q '[0-9]* steps in [0-9.]* s ([0-9]* steps/s)' wrong-text.err; then
    ok "dyn_wrong: the text report, witness and steps per second"
else
    not_ok "dyn_wrong: the text report" "$(tail -c 2000 wrong-text.err)"
fi

# A wrong callee-saved rule: rbx's slot misplaced.
run reg ./dyncall reg 3
if [ "$(cat reg.rc)" = 1 ] && [ "$(json kinds-in reg_wrong < reg.terr)" = "reg-mismatch:rbx" ] &&
   [ "$(json findings-not-in reg_wrong < reg.terr)" = 0 ]; then
    ok "reg_wrong: its rbx rule refuted ($(json findings < reg.terr) addresses), and nothing else"
else
    not_ok "reg_wrong: its rbx rule refuted" "$(tail -c 2000 reg.terr)"
fi
[ "$(json statics reg_wrong < reg.terr)" = confirmed ] &&
    ok "reg_wrong: the static audit's error there confirmed by execution" ||
    not_ok "reg_wrong: confirmed" "got: $(json statics reg_wrong < reg.terr)"

# (b) the right twin, and ordinary programs.
clean right ./dyncall right 3
clean plain ./plain
clean threads ./threads
[ "$(json threads < threads.terr)" -ge 4 ] && ok "threads: every thread followed" ||
    not_ok "threads: every thread followed" "$(tail -c 1000 threads.terr)"
clean jump ./jump
clean signal ./signal
grep -q '^signals handled: 2$' signal.tout && ok "signal: the handler ran, both times" ||
    not_ok "signal: the handler ran" "$(cat signal.tout)"
# A handler is a frame of its own, entered by the kernel: its wrong CFA is seen.
run handled ./handled
if [ "$(cat handled.rc)" = 1 ] && [ "$(json findings-in handled wrong_handler < handled.terr)" = 2 ] &&
   [ "$(json findings-not-in wrong_handler < handled.terr)" = 0 ] && cmp -s handled.out handled.tout &&
   [ "$(json statics wrong_handler < handled.terr)" = confirmed ]; then
    ok "handled: a signal handler's wrong CFA refuted at both its addresses, the audit's error confirmed"
else
    not_ok "handled: a signal handler's wrong CFA refuted" "$(tail -c 2000 handled.terr)"
fi
clean throw ./throw
clean exec env ./plain
[ "$(json execs < exec.terr)" -ge 1 ] && ok "exec: followed into the new image" || not_ok "exec: followed"

# Input, both outputs, a fork and an exit status of its own.
echo "a line" | ./status one two > status.out 2> status.err; prc=$?
echo "a line" | "$dwcheck" --run --format=json -- ./status one two > status.tout 2> status.terr; rc=$?
if [ $prc = 3 ] && [ $rc = 0 ] && cmp -s status.out status.tout && [ "$(json exit_status < status.terr)" = 3 ] &&
   [ "$(head -1 status.terr)" = "$(cat status.err)" ] && [ "$(json forks_detached < status.terr)" = 1 ]; then
    ok "status: stdin, stdout, stderr, the forked child and exit status 3 passed through"
else
    not_ok "status: passed through" "program $prc, dwcheck $rc; $(diff status.out status.tout)
$(tail -c 1000 status.terr)"
fi

# --max-steps: the rest runs untraced, to the same end.
"$dwcheck" --run --format=json --max-steps=2000 -- ./plain > max.tout 2> max.terr; rc=$?
if [ $rc = 0 ] && cmp -s plain.out max.tout && [ "$(json max_steps_reached < max.terr)" = True ] &&
   [ "$(json steps < max.terr)" = 2000 ]; then
    ok "--max-steps=2000: 2000 steps traced, the rest run untraced, output unchanged"
else
    not_ok "--max-steps" "status $rc; $(tail -c 1000 max.terr)"
fi

# Bad input: exit 2, `dwcheck: PROGRAM: reason`.
bad() {
    local want=$1; shift
    local err; err=$("$dwcheck" "$@" 2>&1 > /dev/null); local rc=$?
    if [ $rc = 2 ] && [ "$err" = "$want" ]; then ok "bad: dwcheck $*: $want"; else
        not_ok "bad: dwcheck $*" "status $rc: $err"; fi
}
bad "dwcheck: --run needs a PROGRAM: dwcheck --run -- PROGRAM [ARG]..." --run
bad "dwcheck: ./no-such-program: No such file or directory" --run -- ./no-such-program
touch not-executable
bad "dwcheck: ./not-executable: Permission denied" --run -- ./not-executable
bad "dwcheck: --max-steps goes with --run" --max-steps=5 libdynadj.so
bad "dwcheck: --run takes only --max-steps, --format=text|json and --fail-on besides" --run --format=sarif -- ./plain

finish run
