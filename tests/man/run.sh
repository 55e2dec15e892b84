#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The manual pages of man/: every long option a tool's --help prints (and
# those of dwsynth annotate and dwsynth repair) appears in the tool's page;
# every page has the sections a page must have, and renders without a
# warning, by man (as a user reads it, 80 columns) and by groff -ww.
#   tests/man/run.sh BUILD
set -u
build=${1:?usage: run.sh BUILD}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$build/bin
. "$root/tests/lib.sh"

# The page's text as written: roff escapes of - and the zero-width \& and
# font changes taken out, so that `\-\-format=json` reads --format=json.
page_text() {
    sed -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\f[BIRP]//g' -e 's/\\c$//' "$1"
}

# check_options PAGE HELP-COMMAND...: each --option the command prints is in PAGE.
check_options() {
    local page=$1; shift
    local help missing=() opt
    if ! help=$("$@" 2>&1); then
        not_ok "${*#"$bin/"}: prints its help" "$help"
        return
    fi
    local text; text=$(page_text "$root/man/$page")
    for opt in $(grep -oE -- '--[a-z][a-z0-9-]*' <<< "$help" | sort -u); do
        grep -qF -- "$opt" <<< "$text" || missing+=("$opt")
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        ok "man/$page has every long option of \`${*#"$bin/"}\`"
    else
        not_ok "man/$page has every long option of \`${*#"$bin/"}\`" "missing: ${missing[*]}"
    fi
}

check_options dwcheck.1 "$bin/dwcheck" --help
check_options dwtable.1 "$bin/dwtable" --help
check_options dwsynth.1 "$bin/dwsynth" --help
check_options dwsynth.1 "$bin/dwsynth" annotate --help
check_options dwsynth.1 "$bin/dwsynth" repair --help
check_options dwcompile.1 "$bin/dwcompile" --help
check_options dwperf.1 "$bin/dwperf" --help

pages=(dwcheck.1 dwtable.1 dwsynth.1 dwcompile.1 dwperf.1 libdwunwind.3)
for page in "${pages[@]}"; do
    f=$root/man/$page
    if [ ! -f "$f" ]; then
        not_ok "man/$page exists"
        continue
    fi
    sections=(NAME SYNOPSIS DESCRIPTION "EXIT STATUS" EXAMPLES "SEE ALSO")
    case $page in
        *.1) sections+=(OPTIONS) ;;
        *.3) sections+=("RETURN VALUE" ENVIRONMENT ATTRIBUTES) ;;
    esac
    [ "$page" = dwcheck.1 ] && sections+=("RULE NOTATION")
    [ "$page" = libdwunwind.3 ] && sections=("${sections[@]/EXIT STATUS/}")
    absent=()
    for s in "${sections[@]}"; do
        [ -z "$s" ] && continue
        grep -qE "^\.SH \"?$s\"?\$" "$f" || absent+=("$s")
    done
    if [ "${#absent[@]}" -eq 0 ]; then ok "man/$page has its sections"
    else not_ok "man/$page has its sections" "missing: ${absent[*]}"; fi

    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
    warnings+=$(groff -man -ww -z "$f" 2>&1 | sed "1s|^|${warnings:+\n}|")
    if [ -z "$warnings" ]; then ok "man/$page renders without warnings"
    else not_ok "man/$page renders without warnings" "$warnings"; fi
done

finish man
