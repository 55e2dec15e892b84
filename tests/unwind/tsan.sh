#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# ThreadSanitizer over the runtime: thread_churn (16 threads walking while 4
# load and unload libraries, every walk against libgcc's) built with the
# runtime's sources under -fsanitize=thread, without eh_elfs and with them
# (dwu_init after each dlopen, which gives records their eh_elfs while
# other threads walk).  Uses the libraries and eh_elfs harness.sh made in
# OUT.  Only the loader's races are suppressed (tests/unwind/tsan.supp says
# which and why).
#   tests/unwind/tsan.sh OUT
set -u
out=${1:?usage: tsan.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib.sh"
exe=$out/bin/thread_churn_tsan
# the runtime's sources, as the Makefile lists them
mapfile -t runtime < <(sed -n '/^RUNTIME_SRCS :=/,/^RUNTIME_OBJS/p' "$root/Makefile" | grep -o '[a-z_/]\+\.c' |
    sed "s|^|$root/|")
if ! gcc -std=gnu11 -D_GNU_SOURCE -O1 -g -fsanitize=thread -Wno-tsan -w -I"$root" -pthread -o "$exe" "$here/thread_churn.c" \
        "$here/frames.c" "$here/libgcc_walk.c" "${runtime[@]}" "$root/runtime/capture.S" \
        -Wl,--push-state,--no-as-needed -lgcc_s -Wl,--pop-state -ldl > "$out/tsan-build.log" 2>&1; then
    not_ok "thread_churn built with -fsanitize=thread" "$(tail -20 "$out/tsan-build.log")"
    finish tsan
fi
for mode in dwarf eh_elfs; do
    args=(--libs "$out/lib" --walks "${TSAN_WALKS:-20000}")
    path=$out/no-eh-elfs
    [ $mode = eh_elfs ] && { path=$out/eh; args+=(--dwu-init); }
    log=$out/tsan-$mode.log
    DWUNWIND_PATH=$path TSAN_OPTIONS="halt_on_error=0 suppressions=$here/tsan.supp" timeout 600 "$exe" "${args[@]}" > "$log" 2>&1
    rc=$?
    reports=$(grep -c "WARNING: ThreadSanitizer" "$log")
    if [ $rc -eq 0 ] && [ "$reports" -eq 0 ]; then
        ok "ThreadSanitizer ($mode): $(grep -m1 'walks on' "$log")"
    else
        not_ok "ThreadSanitizer ($mode): exit $rc, $reports reports" "$(grep -A14 -m3 'WARNING: ThreadSanitizer' "$log" | head -40)"
    fi
done
finish tsan
