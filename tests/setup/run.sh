#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Set-up: the build on a machine without the Debian packages, and `make
# deps`.  Only `make deps` may install packages: a plain `make` (or `make
# install`, `make check`) that lacks some must stop before compiling
# anything, name them and say "run: make deps", and never call apt-get.
# The real ./install-deps runs, with stand-ins first in PATH: dpkg-query
# says libcapstone-dev (a build package) and parallel (a test package) are
# not installed until apt-get, which only writes down how it was called,
# has "installed" them; pkg-config knows capstone only after that.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/path"

cat > "$work/path/dpkg-query" <<SH
#!/bin/sh
for pkg; do :; done
case \$pkg in libcapstone-dev|parallel) [ -e "$work/installed" ] || exit 1 ;; esac
exec /usr/bin/dpkg-query "\$@"
SH
cat > "$work/path/apt-get" <<SH
#!/bin/sh
echo "apt-get \$*" >> "$work/apt.log"
case " \$* " in *" install "*) touch "$work/installed" ;; esac
SH
cat > "$work/path/sudo" <<'SH'
#!/bin/sh
exec "$@"
SH
cat > "$work/pkg-config" <<SH
#!/bin/sh
[ -e "$work/installed" ] || { echo "Package capstone was not found" >&2; exit 1; }
exec pkg-config "\$@"
SH
chmod +x "$work/path/"* "$work/pkg-config"
run_make() {
    PATH="$work/path:$PATH" make --no-print-directory BUILD="$work/build" PKG_CONFIG="$work/pkg-config" "$@" 2>&1
}

# 1. make, make install and make check on the fresh machine: the reason, no apt-get, nothing built.
for goal in "$work/build/bin/dwcheck" "install DESTDIR=$work/root" "check CHECK_SUITES="; do
    # shellcheck disable=SC2086
    out=$(run_make $goal)
    rc=$?
    name="make ${goal//$work\//} without the packages"
    if [ "$rc" -ne 0 ] && grep -q "missing packages:.*libcapstone-dev" <<< "$out" &&
       grep -qx "run: make deps" <<< "$out" && ! grep -q "parallel" <<< "$out" &&
       [ ! -e "$work/apt.log" ] && [ ! -e "$work/build/obj" ] && [ ! -e "$work/root" ]; then
        ok "$name: fails, names libcapstone-dev, says run: make deps, runs no apt-get"
    else
        not_ok "$name (exit $rc)" "$(tail -5 <<< "$out"; cat "$work/apt.log" 2>/dev/null)"
    fi
done

# 2. make deps installs every missing package (build and test), then writes the flags.
out=$(run_make deps)
rc=$?
if [ "$rc" -eq 0 ] && grep -q "install .*libcapstone-dev.*parallel" "$work/apt.log" 2>/dev/null &&
   grep -qF -- "$(pkg-config --libs capstone)" "$work/build/config.mk" 2>/dev/null; then
    ok "make deps: apt-get installs libcapstone-dev and parallel, then config.mk has the flags"
else
    not_ok "make deps (exit $rc)" "$(tail -5 <<< "$out"; cat "$work/apt.log" 2>/dev/null)"
fi

# 3. Then the link gets every library (-n prints the commands).
out=$(run_make -n "$work/build/bin/dwcheck")
link=$(grep -E -- "-o $work/build/bin/dwcheck\$" <<< "$out")
want=$(pkg-config --libs libelf capstone z3)
if [ -n "$link" ] && grep -qF -- "$want" <<< "$link"; then
    ok "after make deps: the link gets $want"
else
    not_ok "after make deps: the link command lacks $want" "${link:-$(tail -5 <<< "$out")}"
fi

# 4. make deps X on a fresh machine: deps first, then X (the README's two commands).
rm -rf "$work/build" "$work/installed" "$work/apt.log"
out=$(run_make deps check CHECK_SUITES=)
rc=$?
if [ "$rc" -eq 0 ] && [ -e "$work/installed" ] && grep -q "^check: 0 passed, 0 failed" <<< "$out"; then
    ok "make deps check on a fresh machine: packages installed before check looks for them"
else
    not_ok "make deps check on a fresh machine (exit $rc)" "$(tail -5 <<< "$out")"
fi

# 5. A test package missing: make check says which (the build has all it needs).
rm -f "$work/installed"
touch "$work/build/config.mk"
out=$(run_make check CHECK_SUITES=)
rc=$?
if [ "$rc" -ne 0 ] && grep -q "make check: missing packages:.*parallel" <<< "$out" && grep -qx "run: make deps" <<< "$out"; then
    ok "make check without parallel: fails, names it, says run: make deps"
else
    not_ok "make check without parallel (exit $rc)" "$(tail -5 <<< "$out")"
fi
finish "set-up"
