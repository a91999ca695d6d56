// SPDX-License-Identifier: Apache-2.0
//
// The guest's /init: a busybox shell script that the initramfs runs as PID 1.
// It is the same for every run of a kernel; what a run asks for comes on the
// kernel command line, so that an initramfs is built once per kernel and
// cached:
//   wb.run=PROGRAM@ARG@...   the workload program under /bin and its arguments
//   wb.features=A,NO_B       written one by one to /sys/kernel/debug/sched/features
//   wb.buffer_kb=N           the trace ring buffer per CPU (tracefs buffer_size_kb)
// It loads the modules listed in /modules/order, finds the virtio serial port
// named "wakebench", sets the features, records the five sched events while
// the program runs, and sends back over the port, as bundle files
// (guest_bundle.h): version, features, domains, schedstat, the workload's
// output and status, the trace and each CPU's ring-buffer statistics, and
// the sysfs topology files `wakesim topology import --sysfs` reads. Then it
// powers off. Progress and failures go to the console as
// "wakebench-guest: ..." lines, so that the host can quote them.
#pragma once

#include <string>

namespace wb {

inline constexpr const char* kGuestConsolePrefix = "wakebench-guest: ";
inline constexpr const char* kGuestErrorPrefix = "wakebench-guest: error: ";

// The script's text.
std::string guest_init_script();

}  // namespace wb
