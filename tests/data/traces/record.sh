#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Records the five sched events of one command, as root, in the three text
# formats `wakesim trace import` reads:
#   NAME.tracefs.txt    cat /sys/kernel/tracing/trace after the run
#   NAME.trace-cmd.txt  trace-cmd report of the same ring buffer (trace-cmd extract)
#   NAME.perf.txt       perf script of a second run of the command under perf record -a
# usage: record.sh NAME COMMAND [ARGS]...   (needs trace-cmd and linux-perf:
# scripts/install-deps --trace-tools)
set -eu
name=$1; shift
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
events="sched_waking sched_wakeup sched_wakeup_new sched_switch sched_migrate_task"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo 0 > $T/tracing_on
echo > $T/trace
echo local > $T/trace_clock
echo 4096 > $T/buffer_size_kb
echo > $T/set_event
for e in $events; do echo "sched:$e" >> $T/set_event; done
echo 1 > $T/tracing_on
"$@" > "$tmp/out" 2>&1
echo 0 > $T/tracing_on
echo > $T/set_event
cat $T/trace > "$name.tracefs.txt"
trace-cmd extract -o "$tmp/trace.dat" > /dev/null 2>&1
trace-cmd report -i "$tmp/trace.dat" > "$name.trace-cmd.txt" 2>/dev/null

perf_events=""
for e in $events; do perf_events="$perf_events -e sched:$e"; done
# shellcheck disable=SC2086
perf record -q -a -o "$tmp/perf.data" $perf_events -- "$@" > "$tmp/out" 2>&1
perf script -i "$tmp/perf.data" > "$name.perf.txt" 2>/dev/null

for f in "$name.tracefs.txt" "$name.trace-cmd.txt" "$name.perf.txt"; do
  if [ "$(wc -c < "$f")" -gt 1048576 ]; then gzip -9 -n -f "$f"; fi
done
