#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# kernel_check.sh WAKESIM SOURCE_DIR: one real boot. Debian 12's 6.12 kernel
# under QEMU (TCG, so that it runs the same everywhere) on 4 vCPUs (2 cores,
# SMT-2), a pipe ping-pong of 3000 loops traced in the guest. It installs
# what it needs (scripts/install-deps --kernel-check) and fetches the kernel
# into the user's cache folder, then checks that the trace lost no events,
# that the guest's sched domains are the model's, and that the comparison
# table and the replay's agreement are printed and written as JSON.
set -eu
wakesim=$1; source_dir=$2
"$source_dir/scripts/install-deps" --kernel-check
# The 6.12 package comes from the security archive: apt's lists must know it.
if ! apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' | grep -q .; then
  if [ "$(id -u)" -eq 0 ]; then apt-get -o DPkg::Lock::Timeout=600 update -qq; else sudo apt-get update -qq; fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
"$wakesim" kernel run --topology synthetic:node=1,llc=1,core=2,smt=2 --workload pipe:loops=3000 \
  --accel tcg --timeout 600 --json "$work/check.json" > "$work/out.txt" 2> "$work/err.txt" || status=$?
cat "$work/err.txt" "$work/out.txt"
fail() { echo "kernel_check: $*"; exit 1; }
[ "$status" -eq 0 ] || fail "wakesim kernel run exited with status $status"
grep -q "none lost" "$work/out.txt" || fail "no 'none lost' line: the trace's events were not all checked"
grep -q "sched domains: the guest's are the model's" "$work/out.txt" || fail "the guest's domains differ from the model's"
grep -q "placement of the workload's wakeups" "$work/out.txt" || fail "no placement table"
grep -q "chosen = prev" "$work/out.txt" || fail "no chosen = prev row"
grep -q "the kernel's CPU" "$work/out.txt" || fail "no replay agreement"
grep -q '"domains_match": true' "$work/check.json" || fail "the JSON does not say the domains match"
grep -q '"lost_events": 0' "$work/check.json" || fail "the JSON does not say no event was lost"
# The trace holds the whole run: every round trip makes at least one of
# the two tasks sleep in read() and be woken (about two in practice; under
# TCG a few percent find their task still switching out, with no selection).
wakeups=$(sed -n 's/^  wakeups *\([0-9]*\) .*/\1/p' "$work/out.txt")
[ "${wakeups:-0}" -ge 3000 ] || fail "the kernel's trace has ${wakeups:-no} wakeups of the pipe tasks, fewer than the 3000 round trips"
echo "kernel_check: passed"
