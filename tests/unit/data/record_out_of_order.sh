#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Makes out_of_order.data, the fixture of test_perf_data's
# test_recording_out_of_time_order: a perf recording whose file holds
# samples out of time order.  perf record writes each CPU's buffer in turn
# at every wake-up (a round), so with two CPUs sampling, a round's second
# buffer starts before the first one's last sample; a one-page buffer (-m 1)
# wakes perf often.  Whether a given recording shows it is chance, which is
# why the test reads this file rather than a recording of its own: this
# script records until the file holds at least 10 such places.
#   tests/unit/data/record_out_of_order.sh        (needs perf and 2 CPUs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/busy.c" <<'C'
#include <pthread.h>
static volatile unsigned long sink;
static void *work(void *arg) { for (unsigned long i = 0; i < 200000000UL; i++) sink += i; return arg; }
int main(void) { pthread_t t; pthread_create(&t, 0, work, 0); work(0); pthread_join(t, 0); return 0; }
C
cc -O1 -pthread "$work/busy.c" -o "$work/busy"
for try in 1 2 3 4 5 6 7 8 9 10; do
    (cd "$work" && perf record -q -m 1 -e cpu-clock -F 2000 -o out.data -- ./busy >/dev/null 2>&1)
    n=$(perf report -D --disable-order -i "$work/out.data" 2>/dev/null |
        awk '/PERF_RECORD_SAMPLE\(/ { if ($1 < last) n++; last = $1 } END { print n + 0 }')
    if [ "$n" -ge 10 ]; then
        cp "$work/out.data" "$here/out_of_order.data"
        echo "out_of_order.data: $n samples follow a later one (try $try)"
        exit 0
    fi
done
echo "record_out_of_order.sh: no recording held 10 samples out of order in 10 tries" >&2
exit 1
