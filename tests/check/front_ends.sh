#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The front ends' own machinery, watched through a preloaded library
# (tests/check/preload.c) rather than hooks in the tools:
#
# 1. The job count's bound.  dwcheck's default -j is the number of online
#    cores; on a machine with more cores than -j allows (256) it must stay
#    within what the worker pool holds, and every file must still be audited,
#    in order.  The machine is simulated: sysconf reports 1000 online
#    processors, and 1000 distinct files (empty: each is skipped quickly)
#    would give a worker to each were the count not bounded.  (Unbounded,
#    dwcheck wrote its 1000 workers into arrays of 256 on its stack: a crash,
#    from about 600 on; under ASan, from 257.)
# 2. dwcompile opens its input once: the audit and the compilation share one
#    reading of the file.
set -u
build=${1:?usage: front_ends.sh BUILD}
dwcheck=$build/bin/dwcheck
dwcompile=$build/bin/dwcompile
preload=$(realpath "$build/tests/preload.so")
work=$build/tests/check/front_ends
. "$(dirname "$0")/../lib.sh"

rm -rf "$work" && mkdir -p "$work/files" || exit 1
# An ASan build checks that its runtime comes first; the preloaded library has none.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# 1. The simulation works: a program that asks sees 1000 cores.
seen=$(MANY_CORES=1000 LD_PRELOAD=$preload getconf _NPROCESSORS_ONLN)
[ "$seen" = 1000 ] && ok "preload: getconf sees 1000 cores" || not_ok "preload: getconf sees 1000 cores (got $seen)"

files=()
for i in $(seq -w 1 1000); do
    : > "$work/files/f$i"
    files+=("$work/files/f$i")
done
log=$work/cores.log
out=$(MANY_CORES=1000 PRELOAD_LOG=$log LD_PRELOAD=$preload "$dwcheck" --format=json "${files[@]}" 2> "$work/stderr")
rc=$?
grep -qx "sysconf cores" "$log" 2> /dev/null && ok "dwcheck asked for the core count (1000)" ||
    not_ok "dwcheck asked for the core count (the preloaded library was not used)"
want=$(for f in "${files[@]}"; do printf '{"file":"%s","skipped":"file is empty"}\n' "$f"; done)
# (All skipped, none audited: exit 2, tools/inputs.)
[ "$rc" -eq 2 ] && [ "$out" = "$want" ] &&
    grep -qxF "dwcheck: no file audited: 1000 files skipped (not ELF)" "$work/stderr" &&
    ok "1000 cores, 1000 files, default -j: 1000 records in order (none audited: exit 2)" ||
    not_ok "1000 cores, 1000 files, default -j: 1000 records in order (none audited: exit 2; exit $rc)" \
        "$(head -c 2000 <<< "$out"; echo; head -c 2000 "$work/stderr")"
[ "$(grep -c ': skipped: ' "$work/stderr")" -eq 1000 ] && ok "1000 files named as skipped on stderr" ||
    not_ok "1000 files named as skipped on stderr" "$(head -c 2000 "$work/stderr")"
# -j above the bound is refused, and names it.
err=$("$dwcheck" -j 257 "${files[0]}" 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -qF "(1 to 256)" <<< "$err" && ok "-j 257 refused" || not_ok "-j 257 refused (exit $rc)" "$err"

# 2. dwcompile reads its input once (it used to open it for the audit, then
# again for the tables).
input=$work/shapes.so
cc -shared -nostdlib -Wl,--build-id -o "$input" tests/synth/shapes.s || exit 1
log=$work/open.log
out=$(PRELOAD_WATCH=$input PRELOAD_LOG=$log LD_PRELOAD=$preload "$dwcompile" -o "$work/shapes.eh_elf.so" "$input" 2>&1)
rc=$?
opens=$(grep -cxF "open $input" "$log" 2> /dev/null)
[ "$rc" -eq 0 ] && [ -s "$work/shapes.eh_elf.so" ] && [ "$opens" = 1 ] &&
    ok "dwcompile: compiled, its input opened once" ||
    not_ok "dwcompile: compiled, its input opened once (exit $rc, opened ${opens:-0} times)" "$out"

rm -rf "$work"
finish "front ends"
