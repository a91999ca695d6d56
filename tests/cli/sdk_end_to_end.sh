#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# sdk_end_to_end.sh BUILD_DIR EXAMPLE_DIR: the policy SDK as a user outside
# the tree meets it. Installs the build into a prefix; builds the example
# plugin and a scaffold per hook (`wakesim policy new`) against that prefix alone;
# runs their unit tests; loads them into the installed wakesim and checks
# what they change against baseline.
set -eu
build=$1
example=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { printf 'sdk_end_to_end: %s\n' "$*"; exit 1; }

cmake --install "$build" --prefix "$tmp/sdk" >/dev/null
wakesim=$tmp/sdk/bin/wakesim
[ -f "$tmp/sdk/include/wakebench/policy.h" ] || fail "the SDK headers are not installed"
# Only the public headers: nothing of the engine.
[ "$(ls "$tmp/sdk/include/wakebench")" = "$(printf 'cpu_set.h\npolicy.h\npolicy_info.h\nsched_view.h\ntesting.h')" ] ||
  fail "unexpected installed headers: $(ls "$tmp/sdk/include/wakebench")"

build_against_sdk() {
  cmake -S "$1" -B "$2" -DCMAKE_PREFIX_PATH="$tmp/sdk" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" >"$2.log" 2>&1 ||
    { cat "$2.log"; fail "configuring $1 failed"; }
  cmake --build "$2" >>"$2.log" 2>&1 || { cat "$2.log"; fail "building $1 failed"; }
  ctest --test-dir "$2" --output-on-failure >>"$2.log" 2>&1 || { cat "$2.log"; fail "the tests of $1 failed"; }
}

# The example: prefer-idle-prev-llc keeps a wakee on its idle prev before
# wake_affine() can move the target. On the Altra's pipe pair the baseline
# ends with the pair in one 2-CPU cluster; the example keeps each task on
# the CPU it forked to, another cluster of the same LLC.
build_against_sdk "$example" "$tmp/example"
plugin=$tmp/example/libprefer-idle-prev-llc.so
[ -f "$plugin" ] || fail "no $plugin"
"$wakesim" --plugin "$plugin" compare --topology ampere-altra-80 --workload pipe:loops=20000 \
  --policies baseline,prefer-idle-prev-llc --runs 2 >"$tmp/example.txt"
grep -E '^baseline .* cluster 99\.[0-9]%' "$tmp/example.txt" >/dev/null ||
  { cat "$tmp/example.txt"; fail "baseline: expected the pair in one cluster"; }
grep -E '^prefer-idle-prev-llc .* llc 99\.[0-9]%' "$tmp/example.txt" >/dev/null ||
  { cat "$tmp/example.txt"; fail "prefer-idle-prev-llc: expected the pair kept apart in the LLC"; }

# The scaffold at every hook `wakesim list hooks` names: each builds, its
# generated test passes, and the installed wakesim runs it.
hooks=$("$wakesim" list hooks | awk '/^[a-z]/ { print $1 }')
[ "$(printf '%s\n' "$hooks" | wc -l)" -ge 10 ] || fail "expected the hooks listed, got: $hooks"
for hook in $hooks; do
  "$wakesim" policy new my-idea --hook "$hook" --dir "$tmp/my-idea-$hook" >/dev/null
  build_against_sdk "$tmp/my-idea-$hook" "$tmp/my-idea-$hook/build"
  "$wakesim" --plugin "$tmp/my-idea-$hook/build/libmy-idea.so" compare --topology ampere-altra-80 \
    --workload pipe:loops=2000 --policies baseline,my-idea --runs 1 >"$tmp/my-idea-$hook.txt"
  grep -E '^my-idea +[0-9.]+' "$tmp/my-idea-$hook.txt" >/dev/null ||
    { cat "$tmp/my-idea-$hook.txt"; fail "no figure for my-idea at $hook"; }
done
echo "sdk_end_to_end: ok"
