#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Annotation tests: `dwsynth annotate` on hand-written functions without CFI
# (frames.s, intel.s, cpp.S), linked with a C++ driver whose callback throws
# through all of them; gdb's backtrace from the callback; dwcheck on the
# result; idempotence; byte-identity of every line not added; bad input; a
# function with wrong CFI; functions that cannot be annotated exactly; and
# the compilers' own assembly for the corpus, emitted without CFI.
set -u
build=${1:?usage: run.sh BUILD}
dwsynth=$build/bin/dwsynth
dwcheck=$build/bin/dwcheck
src=tests/annotate
work=$build/tests/annotate
rm -rf "$work" && mkdir -p "$work"
. "$(dirname "$0")/../lib.sh"

# The flags of each source (cpp.S needs FRAME, see its header).
flags_of() { case $1 in cpp.S) echo -DFRAME=32 ;; esac; }

# only_cfi_added IN OUT: OUT is IN with lines added, each a .cfi_ directive.
only_cfi_added() {
    local d
    d=$(diff "$1" "$2")
    ! grep -q '^[<]' <<< "$d" && ! grep -v '^[0-9,]*a[0-9,]*$' <<< "$d" | grep -v -q $'^> \t\\.cfi_[a-z_]*'
}

# 1. Annotate the suite: every function, exactly.
total=0
for f in frames.s intel.s cpp.S; do
    # shellcheck disable=SC2046
    "$dwsynth" annotate -v "$src/$f" -o "$work/$f" -- $(flags_of "$f") 2> "$work/$f.log"
    rc=$?
    summary=$(grep -o '[0-9]* functions: .*' "$work/$f.log")
    n=${summary%% *}
    if [ $rc -eq 0 ] && [ -s "$work/$f" ] && grep -q "^[0-9]* functions: $n annotated, 0 inexactly, 0 not annotated" <<< "$summary"; then
        ok "annotate $f: $summary"
        total=$((total + n))
    else
        not_ok "annotate $f (exit $rc)" "$(cat "$work/$f.log")"
    fi
    if only_cfi_added "$src/$f" "$work/$f"; then
        ok "$f: every input line kept byte for byte; only .cfi_ lines added ($(grep -c $'^\t\\.cfi_' "$work/$f"))"
    else
        not_ok "$f: lines other than .cfi_ directives changed" "$(diff "$src/$f" "$work/$f" | head -20)"
    fi
done

# 1b. The expression rules written (.cfi_escape: ann_realign, ann_drap) are
#     proved by the prover in the result before it is written, not taken on trust.
escapes=$(grep -c '\.cfi_escape' "$work/frames.s")
proved=$(sed -n 's/.*the prover proved the expression rules of the result at \([0-9]*\) instruction addresses.*/\1/p' \
         "$work/frames.s.log")
if [ "$escapes" -gt 0 ] && [ "${proved:-0}" -gt 0 ] && ! grep -q 'could not decide' "$work/frames.s.log"; then
    ok "frames.s: $escapes .cfi_escape expression rules written, the prover proved them at $proved addresses"
else
    not_ok "frames.s: the expression rules written are proved by the prover ($escapes written)" "$(cat "$work/frames.s.log")"
fi

# 2. Directives derived by hand from the code.
block() { awk -v f="$1" '$0 == f ":" { on = 1 } on { print } on && /^\t\.size/ { exit }' "$2"; }
# ann_pushes: the frame directives only (the movs in between left out).
got_pushes=$(block ann_pushes "$work/frames.s" | grep -E '^ann_pushes:|\.cfi_|pushq|popq|subq|addq|ret|call')
want_pushes=$'ann_pushes:\n\t.cfi_startproc'
for r in rbp:16 rbx:24 r12:32 r13:40 r14:48 r15:56; do
    want_pushes+=$'\n\tpushq\t%'${r%:*}$'\n\t.cfi_def_cfa_offset '${r#*:}$'\n\t.cfi_offset %'${r%:*}', -'${r#*:}
done
want_pushes+=$'\n\tsubq\t$8, %rsp\n\t.cfi_def_cfa_offset 64\n\tcall\tann_realign\n\taddq\t$8, %rsp\n\t.cfi_def_cfa_offset 56'
off=56
for r in r15 r14 r13 r12 rbx rbp; do
    off=$((off - 8))
    want_pushes+=$'\n\tpopq\t%'$r$'\n\t.cfi_def_cfa_offset '$off
done
want_pushes+=$'\n\tret\n\t.cfi_endproc'
[ "$got_pushes" = "$want_pushes" ] && ok "ann_pushes: the CFI of six pushes and a frame, as derived by hand" ||
    not_ok "ann_pushes: CFI as derived by hand" "$(diff <(echo "$want_pushes") <(echo "$got_pushes"))"

want_early=$(cat <<'EOF'
ann_early_exit:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset %rbx, -16
	pushq	%r12
	.cfi_def_cfa_offset 24
	.cfi_offset %r12, -24
	subq	$8, %rsp
	.cfi_def_cfa_offset 32
	movq	%rdi, %rbx
	cmpq	$-1, %rdi
	jne	.Lbody
	xorl	%eax, %eax
	addq	$8, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 24
	popq	%r12
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
.Lbody:
	.cfi_restore_state
	movq	$-10, %r12
	call	ann_jump_table
	testq	%rax, %rax
	js	2f
	addq	$8, %rsp
	.cfi_remember_state
	.cfi_def_cfa_offset 24
	popq	%r12
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_restore_state
2:	negq	%rax
	addq	$8, %rsp
	.cfi_def_cfa_offset 24
	popq	%r12
	.cfi_def_cfa_offset 16
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	ann_early_exit, .-ann_early_exit
EOF
)
got_early=$(block ann_early_exit "$work/frames.s")
[ "$got_early" = "$want_early" ] && ok "ann_early_exit: remember/restore around both early exits, as derived by hand" ||
    not_ok "ann_early_exit: CFI as derived by hand" "$(diff <(echo "$want_early") <(echo "$got_early"))"

# Registers spelt as the syntax in force wants them; the frame pointer's CFA.
for line in $'\t.cfi_offset rbx, -24' $'\t.cfi_def_cfa_register rbp' $'\t.cfi_def_cfa rsp, 8'; do
    grep -qxF "$line" "$work/intel.s" && ok "intel.s (noprefix): $line" || not_ok "intel.s: $line" "$(cat "$work/intel.s")"
done
grep -A1 -xF $'\tmovq\t%rsp, %rbp' "$work/frames.s" | grep -qxF $'\t.cfi_def_cfa_register %rbp' &&
    ok "frames.s: the CFA follows rbp once it is the frame pointer" || not_ok "frames.s: .cfi_def_cfa_register %rbp"

# 3. Assemble and link with the C++ driver; the exception crosses every
# function and is caught, with the driver's callee-saved registers intact.
objs=() raw_objs=()
for f in frames.s intel.s cpp.S; do
    base=${f%.*}
    # shellcheck disable=SC2046
    cc -c -Wa,--noexecstack -I"$src" $(flags_of "$f") -o "$work/$base.o" "$work/$f" &&
        cc -c -Wa,--noexecstack -I"$src" $(flags_of "$f") -o "$work/raw_$base.o" "$src/$f" ||
        not_ok "assemble $f"
    objs+=("$work/$base.o") raw_objs+=("$work/raw_$base.o")
done
driver=$work/driver
${CXX:-c++} -O2 -g -no-pie -o "$driver" "$src/driver.cc" "${objs[@]}" || not_ok "link the driver"
out=$("$driver" 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q '^caught: thrown by the callback; callee-saved registers restored$' <<< "$out" &&
    ok "driver: the exception crosses every annotated function and is caught; callee-saved registers restored" ||
    not_ok "driver: exception through the annotated functions (exit $rc)" "$out"
# The check can fail: without CFI, the exception is not caught.
${CXX:-c++} -O2 -g -no-pie -o "$work/raw_driver" "$src/driver.cc" "${raw_objs[@]}" &&
    out=$("$work/raw_driver" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q 'terminate called' <<< "$out" &&
    ok "without CFI the same program terminates (exit $rc): the check can fail" ||
    not_ok "the unannotated program should terminate (exit $rc)" "$out"

# 4. gdb's backtrace from the callback shows every frame, in order
# (ann_tail_only left by a tail call: its frame is gone).
frames="callback ann_cpp ann_intel ann_drap ann_other_section ann_macro ann_untyped ann_mov_saves ann_tail_call
ann_jump_table ann_early_exit ann_alloca ann_realign ann_pushes main"
bt_names() {
    gdb -nx -batch -ex 'set debuginfod enabled off' -ex 'break callback' -ex run -ex bt "$1" 2>/dev/null |
        awk '/^#[0-9]+ / { for (i = 2; i < NF; i++) if ($i == "in") { print $(i + 1); next } print $2 }' |
        tr '\n' ' '
}
want_bt=$(echo $frames)
got_bt=$(bt_names "$driver")
[ "${got_bt% }" = "$want_bt" ] && ok "gdb bt from the callback: $(wc -w <<< "$want_bt") frames, every one named in order" ||
    not_ok "gdb bt from the callback" "want: $want_bt"$'\n'"got:  $got_bt"
got_raw=$(bt_names "$work/raw_driver")
[ "${got_raw%% *}" = callback ] && [ "${got_raw% }" != "$want_bt" ] && ok "without CFI gdb's backtrace stops early ($(wc -w <<< "$got_raw") frames): the check can fail" ||
    not_ok "gdb bt of the unannotated program should be incomplete" "$got_raw"

# 5. dwcheck on the linked result: no errors.
out=$("$dwcheck" "$driver" 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q '; 0 errors' <<< "$out" && ok "dwcheck on the linked driver: ${out##*: }" ||
    not_ok "dwcheck on the linked driver (exit $rc)" "$out"

# 6. Idempotence: annotating an annotated file changes nothing.
for f in frames.s intel.s cpp.S; do
    # shellcheck disable=SC2046
    "$dwsynth" annotate -v "$work/$f" -o "$work/again-$f" -- -I"$src" $(flags_of "$f") 2> "$work/again-$f.log"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$work/$f" "$work/again-$f" && grep -q ' 0 annotated, .* with CFI checked (0 errors)' "$work/again-$f.log"; then
        ok "idempotent: $f annotates to itself, its CFI checked clean"
    else
        not_ok "idempotent: $f (exit $rc)" "$(cat "$work/again-$f.log"; diff "$work/$f" "$work/again-$f" | head)"
    fi
done

# 7. Bad input: the assembler's messages, exit 2, nothing written, an
# existing output untouched.
rm -f "$work/syntax-out.s"
"$dwsynth" annotate "$src/syntax.s" -o "$work/syntax-out.s" 2> "$work/syntax.err"; rc=$?
[ $rc -eq 2 ] && grep -q "syntax.s:8: Error: no such instruction: .frobnicate" "$work/syntax.err" &&
    [ ! -e "$work/syntax-out.s" ] && [ -z "$(ls "$work" | grep 'syntax-out.s.')" ] &&
    ok "bad input: the assembler's message, exit 2, no output file" ||
    not_ok "bad input (exit $rc)" "$(cat "$work/syntax.err"; ls "$work")"
echo "keep me" > "$work/syntax-out.s"
"$dwsynth" annotate "$src/syntax.s" -o "$work/syntax-out.s" 2> /dev/null; rc=$?
[ $rc -eq 2 ] && [ "$(cat "$work/syntax-out.s")" = "keep me" ] && ok "bad input: an existing output file is left untouched" ||
    not_ok "bad input: existing output changed (exit $rc)"
out=$("$dwsynth" annotate 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q '^dwsynth: annotate: no input source' <<< "$out" && ok "no input: usage error, exit 2" ||
    not_ok "no input (exit $rc)" "$out"
out=$("$dwsynth" annotate "$work/missing.s" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "^dwsynth: $work/missing.s: cannot read the source" <<< "$out" &&
    ok "missing input: dwsynth: FILE: reason, exit 2" || not_ok "missing input (exit $rc)" "$out"

# 8. CFI a function carries is left as it is and checked.
"$dwsynth" annotate "$src/checked.s" -o "$work/checked.s" 2> "$work/checked.err"; rc=$?
want="dwsynth: $src/checked.s: wrong_cfi (line 7): its CFI: error: cfa-mismatch at line 13"
[ $rc -eq 1 ] && grep -q "^$want" "$work/checked.err" && ! grep -q right_cfi "$work/checked.err" &&
    ok "wrong CFI reported at its line (exit 1); right CFI not" ||
    not_ok "wrong CFI reported (exit $rc)" "$(cat "$work/checked.err")"
[ "$(block wrong_cfi "$work/checked.s")" = "$(block wrong_cfi "$src/checked.s")" ] &&
    [ "$(block right_cfi "$work/checked.s")" = "$(block right_cfi "$src/checked.s")" ] &&
    block plain "$work/checked.s" | grep -q '\.cfi_offset %r12, -16' && only_cfi_added "$src/checked.s" "$work/checked.s" &&
    ok "functions with CFI untouched; the one without annotated" ||
    not_ok "checked.s output" "$(diff "$src/checked.s" "$work/checked.s")"

# 9. What cannot be annotated exactly is named with the reason (exit 1);
# the rest is annotated.
"$dwsynth" annotate -v "$src/problems.s" -o "$work/problems.s" 2> "$work/problems.err"; rc=$?
err=$(cat "$work/problems.err")
for want in "bad_bytes (line 7): not annotated: cannot synthesise: invalid instruction on a reachable path" \
            "two_in_one: line 23: the frame changes inside the line" \
            "3 functions: 1 annotated, 1 inexactly, 1 not annotated"; do
    [ $rc -eq 1 ] && grep -qF "dwsynth: $src/problems.s: $want" <<< "$err" && ok "problems.s: $want" ||
        not_ok "problems.s (exit $rc): $want" "$err"
done
! block bad_bytes "$work/problems.s" | grep -q cfi && block fine "$work/problems.s" | grep -q '\.cfi_offset %rbx, -16' &&
    cc -c -o "$work/problems.o" "$work/problems.s" && ok "problems.s: bad_bytes left without CFI; the output assembles" ||
    not_ok "problems.s output" "$(cat "$work/problems.s")"

# 10. CRLF lines and a last line without a newline stay as they are.
printf '\t.text\r\n\t.globl f\r\n\t.type f, @function\r\nf:\r\n\tpush %%rbx\r\n\tcall g\r\n\tpop %%rbx\r\n\tret' > "$work/crlf.s"
"$dwsynth" annotate "$work/crlf.s" -o "$work/crlf-out.s" 2> /dev/null; rc=$?
want=$(printf '\t.text\r\n\t.globl f\r\n\t.type f, @function\r\nf:\r\n\t.cfi_startproc\r\n\tpush %%rbx\r\n\t.cfi_def_cfa_offset 16\r\n\t.cfi_offset %%rbx, -16\r\n\tcall g\r\n\tpop %%rbx\r\n\t.cfi_def_cfa_offset 8\r\n\tret\r\n\t.cfi_endproc\r\n' | od -c)
[ $rc -eq 0 ] && [ "$(od -c < "$work/crlf-out.s")" = "$want" ] && ok "CRLF source: CRLF kept, directives in CRLF" ||
    not_ok "CRLF source (exit $rc)" "$(od -c < "$work/crlf-out.s" | head)"

# 11. The help names the subcommand and its exit statuses.
"$dwsynth" annotate --help | grep -q '^Usage: dwsynth annotate' && "$dwsynth" --help | grep -q 'dwsynth annotate' &&
    ok "--help documents annotate" || not_ok "--help documents annotate"

# 12. Compiler output without CFI (the corpus's C programs, gcc and clang,
# -O0/-O2/-Os, with and without a frame pointer): annotated in full, only
# .cfi_ lines added; the programs link and run, and dwcheck finds no error.
corpus_files=0 corpus_funcs=0 corpus_bad=()
for compiler in gcc clang; do
    command -v $compiler > /dev/null || continue
    extra=()
    [ $compiler = clang ] && extra=(-fno-addrsig)
    for c in corpus/*.c; do
        for opt in -O0 -O2 -Os; do
            for fp in -fomit-frame-pointer -fno-omit-frame-pointer; do
                t=$work/cc-$compiler-$(basename "$c" .c)$opt$fp
                $compiler $opt $fp "${extra[@]}" -fno-asynchronous-unwind-tables -S -o "$t.s" "$c" 2> /dev/null ||
                    continue
                corpus_files=$((corpus_files + 1))
                if ! "$dwsynth" annotate -v "$t.s" -o "$t.ann.s" 2> "$t.log"; then
                    corpus_bad+=("$t: $(grep -v ' annotated: ' "$t.log" | head -3)")
                elif ! only_cfi_added "$t.s" "$t.ann.s"; then
                    corpus_bad+=("$t: lines other than .cfi_ directives changed")
                elif ! $compiler $opt -o "$t" "$t.ann.s" -lm 2> "$t.link" || ! timeout 20 "$t" > /dev/null 2>&1; then
                    corpus_bad+=("$t: does not link or run: $(head -3 "$t.link")")
                elif ! "$dwcheck" "$t" 2>&1 | grep -q '; 0 errors'; then
                    corpus_bad+=("$t: $("$dwcheck" "$t" 2>&1 | head -3)")
                else
                    n=$(grep -o '^dwsynth: .*: [0-9]* functions: ' "$t.log" | grep -o '[0-9]* functions' | grep -o '[0-9]*')
                    corpus_funcs=$((corpus_funcs + n))
                fi
            done
        done
    done
done
if [ $corpus_files -gt 0 ] && [ ${#corpus_bad[@]} -eq 0 ] && [ $corpus_funcs -gt 0 ]; then
    ok "compiler output without CFI: $corpus_files files, $corpus_funcs functions annotated; programs run, dwcheck: 0 errors"
else
    not_ok "compiler output without CFI: ${#corpus_bad[@]} of $corpus_files files fail" "$(printf '%s\n' "${corpus_bad[@]}" | head -20)"
fi

echo "annotate: $total functions annotated in the suite"
finish "annotate"
