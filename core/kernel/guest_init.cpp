// SPDX-License-Identifier: Apache-2.0
#include "kernel/guest_init.h"

namespace wb {

std::string guest_init_script()
{
    // busybox ash. Every step that can fail says so on the console and
    // powers off, so the host never waits for a guest that gave up.
    return R"SH(#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t debugfs debugfs /sys/kernel/debug

say() { echo "wakebench-guest: $*"; }
fail() { echo "wakebench-guest: error: $*"; poweroff -f; sleep 600; }

say "up: $(uname -r)"
if [ -f /modules/order ]; then
  for m in $(cat /modules/order); do
    insmod /modules/$m.ko || fail "insmod $m failed"
  done
fi

run=; features=; buffer_kb=32768
for w in $(cat /proc/cmdline); do
  case "$w" in
    wb.run=*) run="${w#wb.run=}" ;;
    wb.features=*) features="${w#wb.features=}" ;;
    wb.buffer_kb=*) buffer_kb="${w#wb.buffer_kb=}" ;;
  esac
done
[ -n "$run" ] || fail "no wb.run= on the kernel command line"

# The port appears when virtio_console has probed the device.
port=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  for p in /sys/class/virtio-ports/*; do
    [ -f "$p/name" ] && [ "$(cat $p/name)" = wakebench ] && port=/dev/${p##*/}
  done
  [ -n "$port" ] && [ -c "$port" ] && break
  sleep 0.5
done
[ -c "$port" ] || fail "no virtio serial port named wakebench: the kernel needs virtio_pci and virtio_console, built in or as modules (--modules DIR)"
exec 3>"$port"

send() {
  echo "@@wakebench-file $1" >&3
  cat "$2" >&3
  echo >&3
  echo "@@wakebench-end $1" >&3
}

F=/sys/kernel/debug/sched/features
[ -f $F ] || fail "no $F: the kernel needs CONFIG_SCHED_DEBUG and debugfs"
for f in $(echo "$features" | tr , ' '); do
  echo "$f" > $F 2>/dev/null || fail "the kernel has no sched feature $f; its features are: $(cat $F)"
done

D=/sys/kernel/debug/sched/domains
for d in $D/cpu*/domain*; do
  [ -d "$d" ] && echo "${d#$D/} $(cat $d/name) $(cat $d/flags)"
done > /tmp/domains
{ uname -r; cat /proc/version; } > /tmp/version

T=/sys/kernel/tracing
mount -t tracefs tracefs $T 2>/dev/null
[ -f $T/trace ] || T=/sys/kernel/debug/tracing
[ -f $T/trace ] || fail "no tracefs: the kernel needs CONFIG_FTRACE and CONFIG_EVENT_TRACING"
echo 0 > $T/tracing_on
echo "$buffer_kb" > $T/buffer_size_kb || fail "cannot give the trace buffer $buffer_kb KB per CPU: too little guest memory"
echo local > $T/trace_clock
echo > $T/trace
echo > $T/set_event
for e in sched_waking sched_wakeup sched_wakeup_new sched_switch sched_migrate_task; do
  echo "sched:$e" >> $T/set_event || fail "the kernel has no tracepoint sched:$e"
done

set -- $(echo "$run" | tr @ ' ')
prog=$1
shift
say "running $prog $*"
echo 1 > $T/tracing_on
/bin/$prog "$@" > /tmp/workload.out 2>&1
echo $? > /tmp/workload.status
echo 0 > $T/tracing_on
say "workload ended with status $(cat /tmp/workload.status); sending the trace"

for c in $T/per_cpu/cpu*; do
  echo "${c##*/} $(tr '\n' ';' < $c/stats)"
done > /tmp/ring-stats

send version /tmp/version
send features $F
send domains /tmp/domains
send schedstat /proc/schedstat
send workload.out /tmp/workload.out
send workload.status /tmp/workload.status
send ring-stats /tmp/ring-stats
send trace $T/trace
for f in /proc/cpuinfo /sys/devices/system/cpu/online /sys/devices/system/node/online \
         /sys/devices/system/cpu/cpu[0-9]*/topology/*_list /sys/devices/system/cpu/cpu[0-9]*/topology/*_id \
         /sys/devices/system/cpu/cpu[0-9]*/cache/index*/level /sys/devices/system/cpu/cpu[0-9]*/cache/index*/type \
         /sys/devices/system/cpu/cpu[0-9]*/cache/index*/shared_cpu_list \
         /sys/devices/system/node/node[0-9]*/cpulist /sys/devices/system/node/node[0-9]*/distance; do
  [ -f "$f" ] && send "sysfs$f" "$f"
done
echo "@@wakebench-done" >&3
say "done"
poweroff -f
)SH";
}

}  // namespace wb
