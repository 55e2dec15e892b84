#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The Debian packages: a fresh clone of this repository's HEAD (committed
# work only) built with dpkg-buildpackage -b -us -uc, no apt-get run by the
# build; the three packages (dwcheck, libdwunwind0, libdwunwind-dev)
# installed with dpkg -i; the tools' --version, pkg-config's flags, a
# program linked against the installed library run; then dpkg -r and
# dpkg -P, after which no file the packages held is left.  Also make
# install and make uninstall into a DESTDIR from the same build.
# Needs root (dpkg -i), debhelper and dpkg-dev, and none of the three
# packages installed beforehand.  Not in make check: it builds the whole
# project again (make check-package; make check-full runs it too).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
repo=$(pwd)
packages=(dwcheck libdwunwind0 libdwunwind-dev)
version=$(sed -n 's/^#define DWCHECK_VERSION "\(.*\)"/\1/p' tools/cli.h)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)

if [ "$(id -u)" -ne 0 ]; then
    echo "package: skipped (dpkg -i needs root)"
    finish package
fi
for tool in dh dpkg-buildpackage; do
    command -v "$tool" > /dev/null ||
        { not_ok "$tool is installed (apt-get install debhelper dpkg-dev)"; finish package; }
done
for p in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        not_ok "$p is not installed before the test (it would be replaced, then removed)"
        finish package
    fi
done

work=$(mktemp -d)
installed=no
cleanup() {
    [ "$installed" = yes ] && dpkg -P "${packages[@]}" > /dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT

# 1. Build from a fresh clone, with an apt-get that only writes down that it ran.
git clone -q "$repo" "$work/dwcheck" || { not_ok "git clone"; finish package; }
mkdir -p "$work/path"
cat > "$work/path/apt-get" <<SH
#!/bin/sh
echo "apt-get \$*" >> "$work/apt.log"
exit 1
SH
chmod +x "$work/path/apt-get"
start=$SECONDS
(cd "$work/dwcheck" && PATH="$work/path:$PATH" dpkg-buildpackage -b -us -uc > "$work/build.log" 2>&1)
rc=$?
seconds=$((SECONDS - start))
debs=()
for p in "${packages[@]}"; do
    debs+=("$work/${p}_${version}_amd64.deb")
done
if [ "$rc" -eq 0 ] && ls "${debs[@]}" > /dev/null 2>&1; then
    ok "dpkg-buildpackage -b -us -uc in a fresh clone: ${packages[*]} ($version) in $seconds s"
else
    not_ok "dpkg-buildpackage -b -us -uc in a fresh clone (exit $rc)" \
        "$(tail -15 "$work/build.log"; ls "$work"/*.deb 2>&1)"
    finish package
fi
if [ ! -e "$work/apt.log" ]; then
    ok "the package build runs no apt-get"
else
    not_ok "the package build runs apt-get" "$(cat "$work/apt.log")"
fi
grep -q "PREFIX=/usr" "$work/build.log" && ok "the build is passed PREFIX=/usr" ||
    not_ok "the build is passed PREFIX=/usr" "$(grep -m3 'make' "$work/build.log")"

# make install into a DESTDIR, then make uninstall: no file left (the clone is built).
root=$work/root
if (cd "$work/dwcheck" && make -s install DESTDIR="$root" PREFIX=/usr/local > "$work/install.log" 2>&1); then
    n=$(find "$root" ! -type d | wc -l)
    pages=$(cd "$root/usr/local/share/man" 2> /dev/null && ls man1/*.1 man3/*.3 2> /dev/null | tr '\n' ' ')
    if [ "$pages" = "man1/dwcheck.1 man1/dwcompile.1 man1/dwperf.1 man1/dwsynth.1 man1/dwtable.1 man3/libdwunwind.3 " ]; then
        ok "make install puts the six manual pages: $pages"
    else
        not_ok "make install's manual pages" "${pages:-none}"
    fi
    (cd "$work/dwcheck" && make -s uninstall DESTDIR="$root" PREFIX=/usr/local >> "$work/install.log" 2>&1)
    left=$(find "$root" ! -type d)
    if [ "$n" -gt 10 ] && [ -z "$left" ]; then
        ok "make install wrote $n files and links, make uninstall removed every one"
    else
        not_ok "make uninstall leaves files ($n installed)" "$left"
    fi
else
    not_ok "make install DESTDIR=... PREFIX=/usr/local" "$(tail -5 "$work/install.log")"
fi

# 2. What each package holds.
contents() { dpkg-deb -c "$1" | awk '{ print $6 }' | sed 's|^\./|/|'; }
lib=/usr/lib/$multiarch
check_holds() {
    local deb=$1; shift
    local list missing=""
    list=$(contents "$deb")
    for f in "$@"; do
        grep -qx -- "$f" <<< "$list" || missing="$missing $f"
    done
    if [ -z "$missing" ]; then
        ok "$(basename "$deb") holds $*"
    else
        not_ok "$(basename "$deb") lacks$missing" "$list"
    fi
}
check_holds "${debs[0]}" /usr/bin/dwcheck /usr/bin/dwtable /usr/bin/dwsynth /usr/bin/dwcompile /usr/bin/dwperf \
    /usr/share/man/man1/dwcheck.1.gz /usr/share/man/man1/dwtable.1.gz /usr/share/man/man1/dwsynth.1.gz \
    /usr/share/man/man1/dwcompile.1.gz /usr/share/man/man1/dwperf.1.gz
check_holds "${debs[1]}" "$lib/libdwunwind.so.$version" "$lib/libdwunwind.so.0" "$lib/dwunwind/libunwind.so.8" \
    "$lib/dwunwind/libunwind-x86_64.so.8"
check_holds "${debs[2]}" /usr/include/dwunwind.h "$lib/libdwunwind.a" "$lib/libdwunwind.so" "$lib/pkgconfig/dwunwind.pc" \
    /usr/share/man/man3/libdwunwind.3.gz
mkdir -p "$work/x" && dpkg-deb -x "${debs[1]}" "$work/x"
soname=$(readelf -d "$work/x$lib/libdwunwind.so.$version" 2>&1 | grep SONAME)
grep -q '\[libdwunwind.so.0\]' <<< "$soname" && ok "libdwunwind.so.$version's SONAME is libdwunwind.so.0" ||
    not_ok "libdwunwind.so.$version's SONAME" "$soname"

# 3. Install, use.
if out=$(dpkg -i "${debs[@]}" 2>&1); then
    installed=yes
    ok "dpkg -i ${packages[*]}"
else
    installed=yes
    not_ok "dpkg -i ${packages[*]}" "$(tail -10 <<< "$out")"
    finish package
fi
for tool in dwcheck dwtable dwsynth dwcompile dwperf; do
    line=$("/usr/bin/$tool" --version 2>&1)
    [ "$line" = "$tool (dwcheck) $version" ] && ok "$tool --version: $line" || not_ok "$tool --version" "$line"
done
# The installed dwcheck audits the installed library.
if out=$(/usr/bin/dwcheck --fail-on=never "$lib/libdwunwind.so.$version" 2>&1); then
    ok "the installed dwcheck audits $lib/libdwunwind.so.$version"
else
    not_ok "the installed dwcheck audits $lib/libdwunwind.so.$version" "$(tail -5 <<< "$out")"
fi
libs=$(pkg-config --libs dwunwind 2>&1 | xargs)
mod=$(pkg-config --modversion dwunwind 2>&1)
[ "$libs" = "-ldwunwind" ] && [ "$mod" = "$version" ] && ok "pkg-config --libs dwunwind: $libs (version $mod)" ||
    not_ok "pkg-config --libs dwunwind" "$libs / $mod"
cat > "$work/probe.c" <<'C'
#include <dwunwind.h>
#include <stdio.h>
int main(void)
{
    void *ips[64];
    dwu_init();
    int n = dwu_backtrace(ips, 64);
    printf("%d\n", n);
    return n > 0 ? 0 : 1;
}
C
# shellcheck disable=SC2046
if cc -o "$work/probe" "$work/probe.c" $(pkg-config --cflags --libs dwunwind) 2> "$work/cc.log" &&
   frames=$("$work/probe") && ldd "$work/probe" | grep -Eq "libdwunwind\.so\.0 => (/usr)?/lib/$multiarch/libdwunwind\.so\.0 "; then
    ok "a program linked with pkg-config's flags loads libdwunwind.so.0 from the package and walks $frames frames"
else
    not_ok "a program linked against the installed library" "$(cat "$work/cc.log"; ldd "$work/probe" 2>&1)"
fi

# 4. Remove, purge: nothing of theirs left.
files=$(dpkg -L "${packages[@]}" 2>/dev/null | sort -u)
files_only=$(while read -r f; do [ -d "$f" ] || echo "$f"; done <<< "$files")
nfiles=$(grep -c . <<< "$files_only")
if out=$(dpkg -r libdwunwind-dev dwcheck libdwunwind0 2>&1) && out=$(dpkg -P "${packages[@]}" 2>&1); then
    installed=no
    ok "dpkg -r, then dpkg -P"
else
    not_ok "dpkg -r, then dpkg -P" "$(tail -5 <<< "$out")"
fi
left=$(while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done <<< "$files_only")
status=$(for p in "${packages[@]}"; do dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null; done)
if [ -z "$left" ] && ! grep -q 'i' <<< "$status" && [ "$nfiles" -gt 10 ]; then
    ok "after dpkg -P: none of the $nfiles files the packages held is left, none is installed"
else
    not_ok "after dpkg -P: files left or packages installed ($status)" "$left"
fi
for d in /usr/share/doc/dwcheck /usr/share/doc/libdwunwind0 /usr/share/doc/libdwunwind-dev; do
    [ -e "$d" ] && not_ok "$d is left"
done
finish package
