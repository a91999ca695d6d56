#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# install_test.sh DEB SOURCE_DIR: the package as a user meets it, with
# nothing but what it installs. Unpacks DEB into a throwaway root (dpkg -x:
# a prefix the programs were not built for) and builds the example policy
# against the SDK in it. Then hides the source tree behind an empty folder
# in a private mount namespace and runs the installed wakesim and wakebench
# from there (run_installed.sh): listing machines, a run, a scenario, the
# validation cases, the plugin and a screenshot. One machine file and one
# validation case are deleted from the root first: a program that read the
# source tree instead would still list them.
set -eu
deb=$(realpath "$1")
source=$(realpath "$2")
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { printf 'install_test: %s\n' "$*"; exit 1; }

dpkg -x "$deb" "$tmp/root"
share=$tmp/root/usr/share/wakebench
[ -f "$source/topologies/amd-ryzen-7950x.json" ] && [ -f "$source/resources/validation/v5-altra-no-regression.json" ] ||
  fail "$source is not the source tree the package was built from"
for f in topologies/amd-ryzen-7950x.json validation/v5-altra-no-regression.json; do
  [ -f "$share/$f" ] || fail "the package lacks share/wakebench/$f"
  rm "$share/$f"
done

# The policy SDK: the example policy configured and built against the
# package's headers and CMake package alone; the installed wakesim loads it
# below.
cp -R "$source/examples/policy-plugin" "$tmp/example"
cmake -S "$tmp/example" -B "$tmp/example/build" -DCMAKE_PREFIX_PATH="$tmp/root/usr" >"$tmp/example.log" 2>&1 &&
  cmake --build "$tmp/example/build" --target prefer-idle-prev-llc >>"$tmp/example.log" 2>&1 ||
  { cat "$tmp/example.log"; fail "the example policy does not build against the package's SDK"; }
grep -qx "Wakebench_DIR:PATH=$tmp/root/usr/lib/cmake/Wakebench" "$tmp/example/build/CMakeCache.txt" ||
  fail "the example found another SDK: $(grep '^Wakebench_DIR' "$tmp/example/build/CMakeCache.txt")"

# The programs run with the source tree out of reach; where no user
# namespace can mount a folder (a locked-down container), the deletions
# above still tell the source tree from the root.
mkdir "$tmp/out"
plugin=$tmp/example/build/libprefer-idle-prev-llc.so
if unshare --mount --map-root-user mount -t tmpfs none "$tmp/out" 2>/dev/null; then
  WB_SOURCE_HIDDEN=1 unshare --mount --map-root-user sh "$here/run_installed.sh" "$tmp/root" "$source" "$tmp/out" "$plugin"
  echo "install_test: the installed programs ran from a dpkg -x root, with the source tree hidden"
else
  sh "$here/run_installed.sh" "$tmp/root" "$source" "$tmp/out" "$plugin"
  echo "install_test: the installed programs ran from a dpkg -x root (no mount namespace to hide the source tree)"
fi
