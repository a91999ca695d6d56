#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# version_test.sh PROGRAM EXPECTED: PROGRAM --version prints exactly the line
# EXPECTED, of the form "NAME X.Y.Z (COMMIT)" with COMMIT a hash or "unknown",
# and exits 0.
set -u
out=$("$1" --version 2>&1)
status=$?
fail() { printf 'version_test: %s\n' "$*"; exit 1; }
[ "$status" -eq 0 ] || fail "$1 --version exited with $status: $out"
printf '%s\n' "$out" | grep -Eqx '[a-z]+ [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{7,40}|unknown)\)' ||
  fail "expected NAME VERSION (COMMIT), got: $out"
[ "$out" = "$2" ] || fail "expected '$2', got '$out'"
