#!/bin/bash
# Set-up: the README's first command on a fresh machine.  The Debian
# packages are missing until install-deps has run, so flags that make asked
# pkg-config for before that were empty (the first `make run` linked without
# -lcapstone).  Here a stand-in install-deps "installs" them, and a stand-in
# pkg-config knows them only after that: the link command must still get
# every library.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/install-deps" <<SH
#!/bin/sh
touch "$work/installed"
SH
cat > "$work/pkg-config" <<SH
#!/bin/sh
[ -e "$work/installed" ] || { echo "Package capstone was not found" >&2; exit 1; }
exec pkg-config "\$@"
SH
chmod +x "$work/install-deps" "$work/pkg-config"

# -n prints the commands; make still runs install-deps and writes the flags
# first, since they are a makefile it reads.
out=$(make -n BUILD="$work/build" INSTALL_DEPS="$work/install-deps" PKG_CONFIG="$work/pkg-config" \
      "$work/build/bin/dwcheck" 2>&1)
link=$(grep -E -- "-o $work/build/bin/dwcheck\$" <<< "$out")
want=$(pkg-config --libs libelf capstone z3)
if [ -e "$work/installed" ] && [ -n "$link" ] && grep -qF -- "$want" <<< "$link"; then
    ok "first make on a fresh machine: install-deps, then the link gets $want"
else
    not_ok "first make on a fresh machine: the link command lacks $want" "${link:-$(tail -5 <<< "$out")}"
fi

# Without the packages, the build stops with the reason, not a link error.
rm -rf "$work/build" "$work/installed"
cat > "$work/install-deps" <<SH
#!/bin/sh
exit 0
SH
out=$(make -n BUILD="$work/build" INSTALL_DEPS="$work/install-deps" PKG_CONFIG="$work/pkg-config" \
      "$work/build/bin/dwcheck" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] && grep -q "finds no libelf capstone z3 json-c: run" <<< "$out" && ! grep -q 'undefined reference' <<< "$out"; then
    ok "packages still missing after install-deps: make says so"
else
    not_ok "packages still missing after install-deps: make says so (exit $rc)" "$(tail -5 <<< "$out")"
fi
finish "set-up"
