#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# sweep_end_to_end.sh WAKESIM SWEEP: `wakesim sweep` as a user runs it. One
# result, the same bytes whatever the threads, from three shards merged, and
# from a run stopped by SIGTERM (the way Slurm ends a job) and run again.
set -eu
wakesim=$1
sweep=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$wakesim" sweep "$sweep" --json "$dir/one.json" --jobs 1 2> "$dir/log"
grep -q "sweep: 12/12 points done, 0 left" "$dir/log" || { cat "$dir/log"; exit 1; }
test ! -e "$dir/one.json.partial"

"$wakesim" sweep "$sweep" --json "$dir/two.json" --jobs 2 2> /dev/null
cmp "$dir/one.json" "$dir/two.json"

for i in 0 1 2; do
  "$wakesim" sweep "$sweep" --shard "$i/3" --json "$dir/out.json.$i" --jobs 1 2> /dev/null
done
"$wakesim" sweep merge "$dir"/out.json.* --json "$dir/merged.json" 2> /dev/null
cmp "$dir/one.json" "$dir/merged.json"

# Waits until OUT.partial ($1) holds a point.
wait_for_a_point() {
  i=0
  until [ "$(cat "$1" 2> /dev/null | wc -l)" -ge 2 ] || [ $i -ge 3000 ]; do
    sleep 0.01
    i=$((i + 1))
  done
}

# Ctrl-C: the runs under way finish and are kept; exit status 130.
"$wakesim" sweep "$sweep" --json "$dir/ctrl-c.json" --jobs 1 2> "$dir/log" &
pid=$!
wait_for_a_point "$dir/ctrl-c.json.partial"
kill -INT "$pid"
status=0
wait "$pid" || status=$?
if [ "$status" -ne 130 ] || ! grep -q "stopped; the finished points are in $dir/ctrl-c.json.partial" "$dir/log"; then
  echo "Ctrl-C: expected exit status 130 and the partial file named, got $status:"; cat "$dir/log"; exit 1
fi

# Killed once it has kept a point or two, then the same command again.
"$wakesim" sweep "$sweep" --json "$dir/int.json" --jobs 1 2> /dev/null &
pid=$!
wait_for_a_point "$dir/int.json.partial"
kill -TERM "$pid" 2> /dev/null || true
wait "$pid" 2> /dev/null || true
if [ -e "$dir/int.json" ]; then
  echo "the run ended before it could be interrupted: make the sweep longer"; exit 1
fi
kept=$(($(wc -l < "$dir/int.json.partial") - 1))
"$wakesim" sweep "$sweep" --json "$dir/int.json" --jobs 2 2> "$dir/log"
grep -q "sweep: $kept/12 points done" "$dir/log" || { echo "expected $kept points resumed:"; cat "$dir/log"; exit 1; }
cmp "$dir/one.json" "$dir/int.json"
echo "the same $(wc -c < "$dir/one.json") bytes from 1 and 2 threads, 3 shards merged, and a run killed with $kept points kept, then resumed"
