#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run_installed.sh ROOT SOURCE_DIR OUT PLUGIN: install_test.sh's checks of the
# programs unpacked under ROOT, run in the mount namespace it makes. With
# WB_SOURCE_HIDDEN=1 it first mounts an empty folder over SOURCE_DIR. OUT
# takes the programs' output; PLUGIN is the example policy built against
# the package's SDK.
set -eu
root=$1; source=$2; out=$3; plugin=$4
fail() { printf 'install_test: %s\n' "$*"; exit 1; }
if [ "${WB_SOURCE_HIDDEN:-}" = 1 ]; then
  mount -t tmpfs none "$source"
  [ ! -e "$source/topologies" ] || fail "the source tree is still visible"
fi
export XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data" XDG_CACHE_HOME="$out/cache"
wakesim=$root/usr/bin/wakesim
wakebench=$root/usr/bin/wakebench
scenarios=$root/usr/share/wakebench/scenarios

"$wakesim" list topologies >"$out/list.txt" || fail "wakesim list topologies failed"
grep -q '^ampere-altra-80 ' "$out/list.txt" || fail "list topologies: no ampere-altra-80 in: $(cat "$out/list.txt")"
grep -q 'amd-ryzen-7950x' "$out/list.txt" && fail "list topologies read the source tree: it lists the deleted amd-ryzen-7950x"

"$wakesim" --plugin "$plugin" list policies >"$out/policies.txt" ||
  fail "the installed wakesim cannot load the example policy: $(cat "$out/policies.txt")"
grep -q '^prefer-idle-prev-llc' "$out/policies.txt" || fail "the example policy is not listed: $(cat "$out/policies.txt")"

"$wakesim" run --topology teaching-8 --workload pipe:loops=2000 >"$out/run.txt" ||
  fail "wakesim run failed: $(cat "$out/run.txt")"
grep -q 'Executed 2000 pipe operations' "$out/run.txt" || fail "wakesim run: unexpected output: $(cat "$out/run.txt")"

"$wakesim" run --scenario "$scenarios/teaching-8-classroom.json" --case pipe >"$out/scenario.txt" ||
  fail "wakesim run --scenario failed: $(cat "$out/scenario.txt")"
grep -q 'pipe operations' "$out/scenario.txt" || fail "run --scenario: unexpected output: $(cat "$out/scenario.txt")"

# The error lists the shipped case ids: those of the root, without the deleted one.
status=0
"$wakesim" validate --case no-such-case >"$out/validate.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "validate --case no-such-case: expected exit status 2, got $status"
grep -q 'v1-spr-tee' "$out/validate.txt" || fail "validate: the shipped cases are missing: $(cat "$out/validate.txt")"
grep -q 'v5-altra-no-regression' "$out/validate.txt" && fail "validate read the source tree: $(cat "$out/validate.txt")"

QT_QPA_PLATFORM=offscreen "$wakebench" --scenario "$scenarios/teaching-8-classroom.json" --case pipe --at 1ms \
  --screenshot "$out/window.png" >"$out/wakebench.txt" 2>&1 || fail "wakebench --screenshot failed: $(cat "$out/wakebench.txt")"
# A PNG of the window's default size: the width and height of its IHDR.
size=$(od -An -tu1 -j16 -N8 "$out/window.png" | awk '{ printf "%dx%d", $3 * 256 + $4, $7 * 256 + $8 }')
[ "$size" = "1280x800" ] || fail "wakebench --screenshot: expected a 1280x800 PNG, got $size"

# As the menu entry opens it, with no scenario: the default one, whose
# machine is a shipped one found by name.
QT_QPA_PLATFORM=offscreen "$wakebench" --screenshot "$out/default.png" >"$out/default.txt" 2>&1 ||
  fail "wakebench without a scenario failed: $(cat "$out/default.txt")"
