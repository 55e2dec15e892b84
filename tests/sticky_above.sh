#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sticky_above.sh DIR: prints the sticky directories writable by others
# (as /tmp) on DIR's canonical path, one a line, nothing when there is
# none.  The runtime loads eh_elfs only from paths without one
# (runtime/trusted_path.h: OpenSSH's StrictModes) unless
# DWUNWIND_TRUST_STICKY=1: the Makefile sets it for the tests and
# benchmarks of a clone under such a directory, whose eh_elfs live in it.
dir=$(realpath -m -- "${1:?usage: sticky_above.sh DIR}") || exit 2
while :; do
    if [ -d "$dir" ]; then
        mode=$(stat -c %a -- "$dir") || exit 2
        # Four octal digits: sticky (1xxx) and others' write bit (xxx2).
        case $mode in
        1??[2367]) printf '%s\n' "$dir" ;;
        esac
    fi
    [ "$dir" = / ] && break
    dir=$(dirname -- "$dir")
done
