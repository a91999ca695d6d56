#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# expect.sh STATUS PATTERN COMMAND...: runs COMMAND and fails unless it exits
# with STATUS and its output (stdout and stderr together) contains PATTERN
# (a fixed string).
status=$1; pattern=$2; shift 2
out=$("$@" 2>&1); got=$?
if [ "$got" -ne "$status" ]; then
  printf 'expected exit status %s, got %s from: %s\n%s\n' "$status" "$got" "$*" "$out"; exit 1
fi
if ! printf '%s' "$out" | grep -qF -- "$pattern"; then
  printf 'expected output containing: %s\nfrom: %s\n%s\n' "$pattern" "$*" "$out"; exit 1
fi
