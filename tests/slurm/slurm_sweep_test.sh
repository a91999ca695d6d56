#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# slurm_sweep_test.sh WAKESIM SOURCE_DIR SWEEP SHARDS
#
# The sweep on a real Slurm, as a user would run it: Slurm and munge from
# Debian (scripts/install-deps --slurm), a one-node cluster on localhost
# (scripts/slurm-cluster), `wakesim sweep --emit slurm` and the submit
# command it prints, the array's shards, the merge job after them; then the
# merged result against an unsharded run on this machine, byte for byte.
# Everything it starts is stopped on the way out. Needs root (the daemons).
set -eu
wakesim=$1
src=$2
sweep=$3
shards=$4

if [ "$(id -u)" -ne 0 ]; then
  echo "slurm_sweep_test: needs root to start munged, slurmctld and slurmd; skipped"
  exit 77
fi
"$src/scripts/install-deps" --slurm

work=$(mktemp -d /tmp/wb-slurm-test.XXXXXX)
cleanup() {
  "$src/scripts/slurm-cluster" stop "$work/cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
eval "$("$src/scripts/slurm-cluster" start "$work/cluster")"

"$wakesim" sweep "$sweep" --emit slurm --shards "$shards" --out "$work/job" > "$work/submit" 2> "$work/emit.log"
echo "submit: $(cat "$work/submit")"
sh -c "$(cat "$work/submit")" > "$work/submitted"
cat "$work/submitted"  # "Submitted batch job N": the merge, which waits for the array
merge=$(tr -dc 0-9 < "$work/submitted")
[ -n "$merge" ] || { echo "no job id in what sbatch printed"; exit 1; }

# Done when the queue is empty: the array and the merge that waits for it.
i=0
while [ -n "$(squeue -h -o %i)" ]; do
  i=$((i + 1))
  if [ $i -gt 600 ]; then
    echo "the jobs did not finish within 10 minutes:"; squeue; exit 1
  fi
  sleep 1
done
state=$(scontrol show job "$merge" | tr ' ' '\n' | sed -n 's/^JobState=//p')
tasks=$(ls "$work/job/logs" | grep -c '^shard-')
echo "merge job $merge: $state, after $tasks array tasks"
if [ "$state" != "COMPLETED" ] || [ "$tasks" -ne "$shards" ] || [ ! -f "$work/job/result.json" ]; then
  for log in "$work/job/logs/"*; do echo "== $log"; cat "$log"; done
  tail -n 30 "$work/cluster/log/"*.log
  exit 1
fi

"$wakesim" sweep "$sweep" --json "$work/local.json" --jobs 2 2> /dev/null
cmp "$work/job/result.json" "$work/local.json"
echo "the merged result of $shards array tasks is byte-identical to the unsharded run ($(wc -c < "$work/local.json") bytes)"
