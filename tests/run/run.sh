#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# dwcheck --run: programs run under ptrace, every executed row checked
# against a shadow stack of true frames (execute/, report/execution_report);
# with --only, only the functions named (execute/selective).
#   tests/run/run.sh BUILD
# A library of hand-written assembly (dynadj.s) whose dyn_wrong moves rsp by
# an amount known only at run time and whose CFI forgets it (the static
# audit leaves those rows undecided): the run refutes them with a witness,
# and says the static audit did not judge them; its twin dyn_right is
# clean; a misplaced rbx save, which the audit finds too, is confirmed, and
# so is a signal handler's wrong CFA.  Joined with the static audit where
# nothing is refuted: the rows of dyn_wrong 0 the audit could not judge ran
# and held; a library gone before the audit is said, not skipped.  A DRAP
# pair (drap.s): a CFA expression reading the wrong stack slot, undecided
# statically, refuted with a witness; its right twin clean.  A proof
# refuted (escape.s: a saved register's slot written by a callee) is
# dwcheck's internal error, exit 2; a static error the run cannot see
# (coincide.s) is listed as one that held.  SARIF (valid against the schema),
# HTML and --explain of a run.  gzip and sort: same output, no finding the
# static audit does not report.  Ordinary programs (-O2 C, threads,
# longjmp, a C++ exception, a handled signal, a fork, an exec) run clean,
# their output, input and exit status their own.  Bad input: no program,
# one that cannot be run, options --run does not take.  --only: dyn_wrong
# refuted as full stepping refutes it, in far fewer steps, also when
# dlopen'ed; a function recursing through another, in three threads at
# once, stepped to the instruction; forks, longjmps out, --max-steps with
# the breakpoints laid; bad names.  The default (no --only, no --step-all:
# the functions the static audit of each object leaves in doubt): dyn_wrong
# refuted as full stepping refutes it, in far fewer steps, the proved
# dyn_right not stepped; plain clean in few steps; dlopen'ed and exec'ed
# objects audited and selected; a `.cold` part (cold.s), in doubt, not
# broken on at its start, which is no entry.
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$root/tests/lib.sh"
dwcheck=$(cd "$build/bin" && pwd)/dwcheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

cc -shared -o libdynadj.so "$here/dynadj.s" "$here/drap.s" "$here/escape.s" "$here/coincide.s" &&
cc -O2 -o dyncall "$here/dyncall.c" -L. -ldynadj -Wl,-rpath,'$ORIGIN' &&
for p in plain jump signal status; do cc -O2 -o $p "$here/$p.c" || exit 2; done &&
cc -O2 -o handled "$here/handled.c" "$here/handler.s" &&
c++ -O2 -o throw "$here/throw.cc" &&
cc -O2 -pthread -o threads "$here/threads.c" &&
cc -shared -o libcold.so "$here/cold.s" &&
cc -O2 -pthread -o onlycall "$here/onlycall.c" "$here/recurse.s" -ldl || { echo "run: the fixtures do not build" >&2; exit 2; }

# json FIELD... < report: the run's JSON line (the last of stderr) queried by tests/run/query.py.
json() { python3 "$here/query.py" "$@"; }

# run NAME ARGS...: the program run alone, then under dwcheck --run
# --step-all --format=json (every instruction stepped); NAME.out/.err alone, NAME.tout/.terr traced, NAME.rc the
# traced dwcheck's status, NAME.prc the untraced program's.
run() {
    local name=$1; shift
    "$@" < /dev/null > "$name.out" 2> "$name.err"; echo $? > "$name.prc"
    "$dwcheck" --run --step-all --format=json -- "$@" < /dev/null > "$name.tout" 2> "$name.terr"; echo $? > "$name.rc"
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
"$dwcheck" --run --step-all -- ./dyncall wrong 2 > /dev/null 2> wrong-text.err
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

# Joined with the static audit where the run refutes nothing: with N = 0,
# dyn_wrong's rows the audit could not judge ran and held.
run zero ./dyncall wrong 0
decided=$(json decided dyn_wrong < zero.terr)
if [ "$(cat zero.rc)" = 0 ] && [ "$(json findings < zero.terr)" = 0 ] && [ "${decided% *}" -ge 5 ] &&
   [ "${decided#* }" = not-judged ]; then
    ok "dyn_wrong 0: ${decided% *} addresses the static audit did not judge ran and held, per address in JSON"
else
    not_ok "dyn_wrong 0: addresses decided by the run" "got: $decided; $(tail -c 1500 zero.terr)"
fi
"$dwcheck" --run --step-all --html=zero-page -- ./dyncall wrong 0 > /dev/null 2> zero-text.err
if grep -q '^.*libdynadj.so: dyn_wrong: note: [0-9]* addresses the static audit left undecided ran and held ([0-9]* executions)$' zero-text.err &&
   grep -q '; static audit of [0-9]* files in [0-9.]* s$' zero-text.err; then
    ok "dyn_wrong 0: the text report's note for the function, and the static audit's cost"
else
    not_ok "dyn_wrong 0: the text note" "$(tail -c 1500 zero-text.err)"
fi
if grep -q '<h2>Left undecided by the static audit, held at run time</h2>' zero-page/index.html &&
   grep -q '<td class="where">dyn_wrong</td><td class="num">[0-9]*</td>' zero-page/index.html &&
   grep -q '<p>None: every rule checked held.</p>' zero-page/index.html; then
    ok "dyn_wrong 0: the HTML page's table of the addresses decided by the run"
else
    not_ok "dyn_wrong 0: the HTML page's table" "$(head -c 1500 zero-page/index.html 2>&1)"
fi

# A library gone before the static audit: said, never skipped in silence.
mkdir gone && cp dyncall libdynadj.so gone/ || exit 2
"$dwcheck" --run --step-all --format=json -- ./gone/dyncall right 3 gone/libdynadj.so > gone.tout 2> gone.terr
echo $? > gone.rc
if [ "$(json not-audited < gone.terr)" = "libdynadj.so: No such file or directory" ] &&
   [ "$(cat gone.rc)" = 0 ]; then
    ok "a library removed during the run: 'not audited: No such file or directory' in JSON"
else
    not_ok "a library removed during the run" "$(json not-audited < gone.terr); $(tail -c 1500 gone.terr)"
fi
cp libdynadj.so gone/ &&
    "$dwcheck" --run --step-all --html=gone-page -- ./gone/dyncall right 3 gone/libdynadj.so > /dev/null 2> gone-text.err
grep -q '^.*gone/libdynadj.so: not audited: No such file or directory$' gone-text.err &&
    grep -q '<p class="note">.*gone/libdynadj.so: not audited: No such file or directory</p>' gone-page/index.html &&
    ok "a library removed during the run: 'FILE: not audited: reason' in text and HTML" ||
    not_ok "a library removed: the text and HTML notes" "$(tail -c 1500 gone-text.err)"

# DRAP: the CFA an expression reading a stack slot, as GCC emits it.  The
# wrong twin reads the wrong slot: the static audit leaves that rule
# undecided (the slot holds a word loaded from memory), the run refutes it.
run drapw ./dyncall drap-wrong 41
at=$(json address drap_wrong < drapw.terr)
if [ "$(cat drapw.rc)" = 1 ] && ! grep -q 'drap_' <<< "$static" &&
   [ "$(json kinds-in drap_wrong < drapw.terr)" = "cfa-mismatch:cfa" ] &&
   [ "$(json findings-not-in drap_wrong < drapw.terr)" = 0 ] && [ "${at#* }" = "rbp gave" ] &&
   "$dwcheck" --explain="${at%% *}" libdynadj.so | grep -q '^  CFA  exp  *undecided ' &&
   [ "$(json statics drap_wrong < drapw.terr)" = not-judged ] && cmp -s drapw.out drapw.tout; then
    ok "drap_wrong: its CFA expression, undecided by the static audit, refuted at run time (the witness read rbp)"
else
    not_ok "drap_wrong: refuted at run time" "status $(cat drapw.rc); address $at; $(tail -c 2000 drapw.terr)"
fi
clean drapr ./dyncall drap-right 41

# The run's verdicts in SARIF (valid against the SARIF 2.1.0 schema, the
# witness in each result's properties), an HTML page, and --explain at the
# refuted address: the static explanation, then the run's verdict there.
python=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import jsonschema' 2> /dev/null; then python=$p; break; fi
done
schema=$root/tests/baseline/sarif-schema-2.1.0.json
"$dwcheck" --run --step-all --format=sarif --html=page --explain="libdynadj.so:${at%% *}" -- ./dyncall drap-wrong 41 \
    > sarif.tout 2> sarif.terr
echo $? > sarif.rc
if [ -z "$python" ]; then
    not_ok "--format=sarif: no python3 with jsonschema (Debian's python3-jsonschema: make deps)"
elif sarif=$("$python" "$here/sarif_run.py" "$schema" < sarif.terr) && [ "$(cat sarif.rc)" = 1 ] &&
     [ "$(grep -c '^cfa-mismatch drap_wrong+0x[0-9a-f]* not-judged rbp gave 1$' <<< "$sarif")" = \
       "$(json findings < drapw.terr)" ] && [ "$(wc -l <<< "$sarif")" = "$(json findings < drapw.terr)" ] &&
     cmp -s drapw.out sarif.tout; then
    ok "--format=sarif: valid SARIF 2.1.0, a result per refuted address with its witness"
else
    not_ok "--format=sarif" "status $(cat sarif.rc); $sarif; $(tail -c 1500 sarif.terr)"
fi
if [ "$(grep -c '<div class="finding" id="r-[0-9]*">' page/index.html)" = "$(json findings < drapw.terr)" ] &&
   grep -q 'drap_wrong+0x[0-9a-f]*</span>: cfa-mismatch<p class="msg">at run time the CFA rule exp gave' page/index.html &&
   grep -q '<p class="note">witness: thread [0-9]*, rip 0x[0-9a-f]*, read rbp=0x[0-9a-f]*; execution 1 of 1</p>' page/index.html &&
   grep -q '<b>[0-9]* addresses refuted</b>' page/index.html; then
    ok "--html=DIR: a page with each refutation, its witness and the static verdict"
else
    not_ok "--html=DIR" "$(head -c 1500 page/index.html 2>&1)"
fi
if grep -q "^the rules at ${at%% *}:\$" sarif.terr && grep -q '^  CFA  exp  *undecided ' sarif.terr &&
   grep -q "^the run at ${at%% *} of .*libdynadj.so: executed 1 times in a known frame: 0 held, 1 refuted\$" sarif.terr &&
   grep -q '^  witness: thread [0-9]*, rip 0x[0-9a-f]*, read rbp=' sarif.terr; then
    ok "--explain=OBJECT:ADDR with --run: the static explanation, then the run's verdict and witness"
else
    not_ok "--explain with --run" "$(grep -v '^{' sarif.terr | tail -20)"
fi

# A rule the audit proves and the run refutes: the saved rbx's slot,
# whose address escaped to a callee that wrote over it.  dwcheck's own
# error: printed loudly, exit 2, the program's output its own.
run escape ./dyncall escape 41
if [ "$(cat escape.rc)" = 2 ] && [ "$(json statics slot_escape < escape.terr)" = holds ] &&
   grep -q '^dwcheck: INTERNAL ERROR: the run refutes [0-9]* rules the static audit proved' escape.terr &&
   cmp -s escape.out escape.tout; then
    ok "slot_escape: a proved rule refuted at run time is dwcheck's internal error, exit 2"
else
    not_ok "slot_escape: internal error" "status $(cat escape.rc); $(tail -c 2000 escape.terr)"
fi

# A static error the run cannot see (coincide.s: the slot holds 0, and so
# does rbx at entry): listed as such, no refutation, exit 0.
run zero-slot ./dyncall zero-slot 4
"$dwcheck" --run --step-all -- ./dyncall zero-slot 4 > /dev/null 2> zero-slot-text.err
if [ "$(cat zero-slot.rc)" = 0 ] && [ "$(json findings < zero-slot.terr)" = 0 ] &&
   [ "$(json errors-held zero_slot < zero-slot.terr)" = 2 ] && grep -q 'zero_slot' <<< "$static" &&
   grep -q '^.*libdynadj.so: zero_slot: note: 2 addresses whose row the static audit finds wrong ran and held (2 executions)$' zero-slot-text.err; then
    ok "zero_slot: the static audit's error there ran and held, said in JSON and text, no refutation"
else
    not_ok "zero_slot: a static error that held" "status $(cat zero-slot.rc); $(tail -c 1500 zero-slot.terr)"
fi

# Real programs: the same output, and no finding the static audit of the
# same files does not report, every instruction stepped (gzip and sort
# take some 240000 and 170000 steps, a few seconds each), and by default
# (the functions the audit leaves in doubt).
printf 'hello, world\n' > tiny
printf 'pear\napple\nfig\n' > fruit
for prog in "gzip -c tiny" "sort fruit"; do
    name=${prog%% *}
    cmd=$(command -v "$name") || { not_ok "$name: not found"; continue; }
    LC_ALL=C $cmd ${prog#* } > "$name.out" 2> "$name.err"
    for mode in --step-all --format=json; do
        LC_ALL=C "$dwcheck" --run $mode --format=json -- $cmd ${prog#* } > "$name.tout" 2> "$name.terr"
        rc=$?
        least=100000
        [ "$mode" = --step-all ] || least=1
        if [ $rc -le 1 ] && cmp -s "$name.out" "$name.tout" && [ "$(json unconfirmed < "$name.terr")" = 0 ] &&
           [ "$(json max_steps_reached < "$name.terr")" = False ] && [ "$(json steps_checked < "$name.terr")" -ge $least ]; then
            ok "$name ($(json selection < "$name.terr")): output unchanged, $(json findings < "$name.terr") findings, each reported by the static audit too ($(json steps_checked < "$name.terr") steps checked)"
        else
            not_ok "$name ($mode): output unchanged, every finding the static audit's" "status $rc; $(tail -c 1500 "$name.terr")"
        fi
    done
done

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
echo "a line" | "$dwcheck" --run --step-all --format=json -- ./status one two > status.tout 2> status.terr; rc=$?
if [ $prc = 3 ] && [ $rc = 0 ] && cmp -s status.out status.tout && [ "$(json exit_status < status.terr)" = 3 ] &&
   [ "$(head -1 status.terr)" = "$(cat status.err)" ] && [ "$(json forks_detached < status.terr)" = 1 ]; then
    ok "status: stdin, stdout, stderr, the forked child and exit status 3 passed through"
else
    not_ok "status: passed through" "program $prc, dwcheck $rc; $(diff status.out status.tout)
$(tail -c 1000 status.terr)"
fi

# --max-steps: the rest runs untraced, to the same end.
"$dwcheck" --run --step-all --format=json --max-steps=2000 -- ./plain > max.tout 2> max.terr; rc=$?
if [ $rc = 0 ] && cmp -s plain.out max.tout && [ "$(json max_steps_reached < max.terr)" = True ] &&
   [ "$(json steps < max.terr)" = 2000 ]; then
    ok "--max-steps=2000: 2000 steps traced, the rest run untraced, output unchanged"
else
    not_ok "--max-steps" "status $rc; $(tail -c 1000 max.terr)"
fi

# --only: the selected functions stepped from a breakpoint at their entry,
# their calls and everything else at full speed.
# only NAME FUNCS PROGRAM ARGS...: like run, with --only=FUNCS.
only() {
    local name=$1 funcs=$2; shift 2
    "$@" < /dev/null > "$name.out" 2> "$name.err"; echo $? > "$name.prc"
    "$dwcheck" --run --format=json --only="$funcs" -- "$@" < /dev/null > "$name.tout" 2> "$name.terr"
    echo $? > "$name.rc"
}
only owrong dyn_wrong ./dyncall wrong 3
full=$(json steps < wrong.terr) part=$(json steps < owrong.terr)
if [ "$(cat owrong.rc)" = 1 ] && [ "$(json executions dyn_wrong < owrong.terr)" = "$(json executions dyn_wrong < wrong.terr)" ] &&
   [ "$(json findings-not-in dyn_wrong < owrong.terr)" = 0 ] && [ "$(json only < owrong.terr)" = True ] &&
   [ "$(json witness dyn_wrong < owrong.terr)" = "$(json witness dyn_wrong < wrong.terr)" ] &&
   [ $((part * 100)) -lt "$full" ] && cmp -s owrong.out owrong.tout; then
    ok "--only=dyn_wrong: the same refutations, executions and witness as full stepping, in $part steps, not $full"
else
    not_ok "--only=dyn_wrong: as full stepping, in fewer steps" "steps $part of $full; $(json executions dyn_wrong < owrong.terr)
against $(json executions dyn_wrong < wrong.terr)
$(tail -c 2000 owrong.terr)"
fi
only oright dyn_right ./dyncall right 3
if [ "$(cat oright.rc)" = 0 ] && [ "$(json findings < oright.terr)" = 0 ] && cmp -s oright.out oright.tout &&
   [ "$(json steps_checked < oright.terr)" -gt 20 ] && [ "$(json steps < oright.terr)" -lt 100 ]; then
    ok "--only=dyn_right: clean, $(json steps_checked < oright.terr) steps checked"
else
    not_ok "--only=dyn_right: clean" "$(tail -c 2000 oright.terr)"
fi
# rec_walk(10), 20 times in each of three threads at once: 9 instructions
# per level that recurses through bounce, 7 at the bottom, each checked,
# nothing else; every return to the breakpoint all levels share told by rsp.
only orec rec_walk ./onlycall threads 10
if [ "$(cat orec.rc)" = 0 ] && [ "$(json findings < orec.terr)" = 0 ] && cmp -s orec.out orec.tout &&
   [ "$(json steps_checked < orec.terr)" = $((3 * 20 * (9 * 10 + 7))) ] && [ "$(json steps < orec.terr)" = 5820 ] &&
   [ "$(json returns_missed < orec.terr)" = 0 ] && [ "$(json threads < orec.terr)" = 3 ]; then
    ok "--only=rec_walk: recursing through bounce in three threads at once, all 5820 instructions stepped and checked"
else
    not_ok "--only=rec_walk: recursion and threads" "$(tail -c 2000 orec.terr)"
fi
# main calls dyn_right through its PLT stub, which is not selected: the
# return awaited comes by a step, from dyn_right stepped from its entry.
only oplt main,dyn_right ./dyncall right 3
if [ "$(cat oplt.rc)" = 0 ] && [ "$(json findings < oplt.terr)" = 0 ] && cmp -s oplt.out oplt.tout &&
   [ "$(json returns_missed < oplt.terr)" = 0 ] && [ "$(json steps_checked < oplt.terr)" -gt 40 ]; then
    ok "--only=main,dyn_right: a call through a PLT stub to a selected function, its return seen"
else
    not_ok "--only=main,dyn_right: through a PLT stub" "$(tail -c 1000 oplt.terr)"
fi
# The main thread gone (pthread_exit), a zombie until the others end: not
# waited for when they step over a breakpoint, its memory read through them.
./onlycall exit 10 > oexit.out
timeout 120 "$dwcheck" --run --format=json --only=rec_walk -- ./onlycall exit 10 > oexit.tout 2> oexit.terr < /dev/null
echo $? > oexit.rc
if [ "$(cat oexit.rc)" = 0 ] && [ "$(json findings < oexit.terr)" = 0 ] && cmp -s oexit.out oexit.tout &&
   [ "$(json steps_checked < oexit.terr)" = $((2 * 20 * (9 * 10 + 7))) ]; then
    ok "--only=rec_walk: two threads on after the main thread's pthread_exit, all 3880 instructions checked"
else
    not_ok "--only=rec_walk: after pthread_exit" "status $(cat oexit.rc); $(tail -c 1000 oexit.terr)"
fi
# A library dlopen'ed: found when the loader stops at its r_brk.
only odl dyn_wrong ./onlycall dl ./libdynadj.so 3
if [ "$(cat odl.rc)" = 1 ] && [ "$(json executions dyn_wrong < odl.terr)" = "$(json executions dyn_wrong < wrong.terr)" ] &&
   cmp -s odl.out odl.tout; then
    ok "--only=dyn_wrong: found in a library dlopen'ed, refuted as in the linked one"
else
    not_ok "--only=dyn_wrong: dlopen'ed" "status $(cat odl.rc); $(tail -c 2000 odl.terr)"
fi
# A fork with the breakpoints laid: the child gets its own bytes back and runs untraced.
only ofork rec_walk ./onlycall fork 5
if [ "$(cat ofork.rc)" = 0 ] && cmp -s ofork.out ofork.tout && [ "$(json forks_detached < ofork.terr)" = 1 ] &&
   [ "$(json steps_checked < ofork.terr)" = $((9 * 5 + 7 + 9 * 7 + 7)) ]; then
    ok "--only=rec_walk: a fork's child runs untraced, the parent's calls stepped, output unchanged"
else
    not_ok "--only=rec_walk: a fork" "$(diff ofork.out ofork.tout)
$(tail -c 2000 ofork.terr)"
fi
# longjmp out of recursive frames: the return awaited never comes.
only ojump deepest ./jump
if [ "$(cat ojump.rc)" = 0 ] && cmp -s ojump.out ojump.tout && [ "$(json returns_missed < ojump.terr)" = 3 ] &&
   [ "$(json steps_checked < ojump.terr)" -gt 0 ]; then
    ok "--only=deepest: longjmp out of it three times, three returns never seen, clean"
else
    not_ok "--only=deepest: longjmp" "$(tail -c 2000 ojump.terr)"
fi
# A return awaited whose frame a longjmp cut is dropped at the next stop:
# big_frame's frame, over the place it was awaited, is stepped whole
# (small_escape's 2 instructions, then 3*10+4).
only ocut small_escape,big_frame ./onlycall cut 10
if [ "$(cat ocut.rc)" = 0 ] && cmp -s ocut.out ocut.tout && [ "$(json returns_missed < ocut.terr)" = 1 ] &&
   [ "$(json steps_checked < ocut.terr)" = $((2 + 3 * 10 + 4)) ]; then
    ok "--only=small_escape,big_frame: a return a longjmp cut forgotten, the next frame there stepped whole"
else
    not_ok "--only: a return a longjmp cut" "$(tail -c 1000 ocut.terr)"
fi
# --max-steps: the breakpoints removed, the rest untraced.
"$dwcheck" --run --format=json --only=rec_walk --max-steps=100 -- ./onlycall threads 10 > omax.tout 2> omax.terr; rc=$?
if [ $rc = 0 ] && cmp -s orec.out omax.tout && [ "$(json steps < omax.terr)" = 100 ] &&
   [ "$(json max_steps_reached < omax.terr)" = True ]; then
    ok "--only with --max-steps=100: the breakpoints removed, the rest untraced, output unchanged"
else
    not_ok "--only with --max-steps" "status $rc; $(tail -c 1000 omax.terr)"
fi
# A name no object defines: the run goes on (a later dlopen may bring it), then exit 2.
"$dwcheck" --run --format=json --only=rec_walk,no_such_function -- ./onlycall fork 1 > onone.tout 2> onone.terr; rc=$?
if [ $rc = 2 ] && [ "$(tail -1 onone.terr)" = "dwcheck: ./onlycall: no function no_such_function in it or in the objects it loaded (--only)" ] &&
   [ "$(json steps_checked < onone.terr)" -gt 0 ]; then
    ok "--only=no_such_function: the run reported, then exit 2 naming it"
else
    not_ok "--only=no_such_function" "status $rc; $(tail -c 1000 onone.terr)"
fi

# The default: the functions the static audit of each object leaves in
# doubt (wrong, undecided, not judged) stepped from their entries, the rest
# at full speed (execute/audit_select).
# audited NAME ARGS...: like run, without --step-all.
audited() {
    local name=$1; shift
    "$@" < /dev/null > "$name.out" 2> "$name.err"; echo $? > "$name.prc"
    "$dwcheck" --run --format=json -- "$@" < /dev/null > "$name.tout" 2> "$name.terr"; echo $? > "$name.rc"
}
audited awrong ./dyncall wrong 3
full=$(json steps < wrong.terr) part=$(json steps < awrong.terr)
if [ "$(cat awrong.rc)" = 1 ] && [ "$(json selection < awrong.terr)" = audit ] &&
   [ "$(json executions dyn_wrong < awrong.terr)" = "$(json executions dyn_wrong < wrong.terr)" ] &&
   [ "$(json witness dyn_wrong < awrong.terr)" = "$(json witness dyn_wrong < wrong.terr)" ] &&
   [ "$(json statics dyn_wrong < awrong.terr)" = not-judged ] &&
   [ "$(json findings-not-in dyn_wrong < awrong.terr)" = 0 ] && [ $((part * 5)) -lt "$full" ] &&
   cmp -s awrong.out awrong.tout; then
    ok "default: dyn_wrong, not judged by the audit, selected and refuted as full stepping refutes it, in $part steps, not $full"
else
    not_ok "default: dyn_wrong selected and refuted" "steps $part of $full; $(tail -c 2000 awrong.terr)"
fi
# The figures: objects audited before the run (the program, the loader)
# and during it (libdynadj, libc), each once: the join audits none again.
if [ "$(json objects_audited_before < awrong.terr)" = 2 ] && [ "$(json objects_audited_during < awrong.terr)" = 2 ] &&
   [ "$(json functions_selected < awrong.terr)" -gt 0 ] &&
   [ "$(json audit_seconds < awrong.terr)" = "$(json select_seconds < awrong.terr)" ]; then
    ok "default: $(json functions_selected < awrong.terr) functions selected from 2 objects audited before the run and 2 during it, none audited again"
else
    not_ok "default: the selection's figures" "$(tail -1 awrong.terr | head -c 1500)"
fi
"$dwcheck" --run -- ./dyncall wrong 3 > /dev/null 2> awrong-text.err
grep -q '^\./dyncall: selected by the static audit: [0-9]* functions it leaves in doubt ([0-9]* FDEs in doubt not selectable: they begin mid-frame), from 2 objects audited before the run and 2 during it in [0-9.]* s$' awrong-text.err &&
    grep -q '^\./dyncall: selected: [0-9]* breakpoint stops' awrong-text.err &&
    ok "default: the text report says how the functions stepped were selected" ||
    not_ok "default: the text figures" "$(tail -c 1000 awrong-text.err)"
# dyn_right, which the audit proves, is not stepped: --explain at its entry.
right_at=$(printf '0x%x' "$((16#$(nm libdynadj.so | awk '$3 == "dyn_right" {print $1}')))")
"$dwcheck" --run --explain="libdynadj.so:$right_at" -- ./dyncall right 3 > /dev/null 2> aright.err; rc=$?
"$dwcheck" --run --step-all --explain="libdynadj.so:$right_at" -- ./dyncall right 3 > /dev/null 2> sright.err
if [ $rc = 0 ] && grep -q "^the run at $right_at of .*libdynadj.so: not checked (never executed in a frame the shadow stack knows)\$" aright.err &&
   grep -q "^the run at $right_at of .*libdynadj.so: executed 1 times in a known frame: 1 held, 0 refuted\$" sright.err; then
    ok "default: dyn_right, proved by the audit, not selected (executed, checked only with --step-all)"
else
    not_ok "default: dyn_right not selected" "status $rc; $(tail -3 aright.err); $(tail -3 sright.err)"
fi
# An ordinary program: clean, in a small part of full stepping's steps.
audited aplain ./plain
if [ "$(cat aplain.rc)" = 0 ] && [ "$(json findings < aplain.terr)" = 0 ] && cmp -s plain.out aplain.tout &&
   [ $(($(json steps < aplain.terr) * 5)) -lt "$(json steps < plain.terr)" ]; then
    ok "default: plain clean, $(json steps < aplain.terr) steps, not $(json steps < plain.terr)"
else
    not_ok "default: plain clean and fast" "$(tail -c 1500 aplain.terr)"
fi
# Exec'ed: the new image's objects audited and selected too.
audited aexec env ./plain
if [ "$(cat aexec.rc)" = 0 ] && [ "$(json findings < aexec.terr)" = 0 ] && cmp -s plain.out aexec.tout &&
   [ "$(json execs < aexec.terr)" -ge 1 ] && [ "$(json objects_audited_during < aexec.terr)" -ge 2 ]; then
    ok "default: exec'ed, $(json objects_audited_during < aexec.terr) objects audited during the run, clean"
else
    not_ok "default: exec'ed" "$(tail -c 1500 aexec.terr)"
fi
# A library dlopen'ed: audited when the loader stops at its r_brk, its dyn_wrong selected.
audited adl ./onlycall dl ./libdynadj.so 3
if [ "$(cat adl.rc)" = 1 ] && [ "$(json executions dyn_wrong < adl.terr)" = "$(json executions dyn_wrong < wrong.terr)" ] &&
   [ "$(json findings-not-in dyn_wrong < adl.terr)" = 0 ] && cmp -s adl.out adl.tout; then
    ok "default: dyn_wrong selected in a library dlopen'ed, refuted as in the linked one"
else
    not_ok "default: dlopen'ed" "status $(cat adl.rc); $(tail -c 2000 adl.terr)"
fi
# A .cold part in doubt: its FDE begins mid-frame, not selectable; broken
# on, its CFA rsp+16 would be taken for rsp+8 and "refuted".
audited acold ./onlycall dl ./libcold.so 3
if [ "$(cat acold.rc)" = 0 ] && [ "$(json findings < acold.terr)" = 0 ] && cmp -s acold.out acold.tout &&
   [ "$(json fdes_not_selectable < acold.terr)" = $(($(json fdes_not_selectable < aplain.terr) + 1)) ]; then
    ok "default: a .cold part in doubt counted not selectable, not broken on at its start: clean"
else
    not_ok "default: a .cold part" "status $(cat acold.rc); $(tail -c 2000 acold.terr)"
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
bad "dwcheck: --run takes only --only, --step-all, --max-steps, --format, --html, --explain and --fail-on besides" --run --baseline=b -- ./plain
touch not-a-dir
bad "dwcheck: not-a-dir: not a directory (regular file)" --run --html=not-a-dir -- ./plain
bad "dwcheck: --explain=OBJECT:ADDR goes with --run; the static audit's is --explain=ADDR FILE" --explain=x:0x10 libdynadj.so
err=$("$dwcheck" --run --explain=nosuch.so:0x10 -- ./plain 2>&1 > /dev/null); rc=$?
if [ $rc = 2 ] && [ "$(tail -1 <<< "$err")" = "dwcheck: --explain: nosuch.so: no object of the run has that name (give OBJECT:ADDR)" ]; then
    ok "bad: --explain of an object the run has not: after the run's report, exit 2"
else
    not_ok "bad: --explain of an object the run has not" "status $rc: $(tail -3 <<< "$err")"
fi
bad "dwcheck: empty --only function name in ''" --run --only= -- ./plain
bad "dwcheck: empty --only function name in 'main,,f'" --run --only=main,,f -- ./plain
bad "dwcheck: --only goes with --run" --only=main libdynadj.so
bad "dwcheck: --step-all goes with --run" --step-all libdynadj.so
bad "dwcheck: --only and --step-all exclude each other: --only steps the functions named, --step-all every one" \
    --run --only=main --step-all -- ./plain

finish run
