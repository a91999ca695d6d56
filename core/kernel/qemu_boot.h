// SPDX-License-Identifier: Apache-2.0
//
// One boot of a guest under QEMU, bounded in time: QEMU runs with its
// console and the guest's port written to files in a run folder, is watched
// every tenth of a second, and is killed when the time is up. With
// AccelChoice::Auto, KVM is used when /dev/kvm can be opened; if KVM fails
// to start the guest (QEMU exits or reports a KVM internal error before the
// guest's first console line), the boot is redone under TCG and the reason
// is kept for the report.
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>
#include <vector>

#include "kernel/qemu_command.h"

namespace wb {

enum class AccelChoice { Auto, Kvm, Tcg };

// /dev/kvm opens for reading and writing ("" if so, else why not).
std::string kvm_unusable_reason();

struct BootResult {
    Accel accel = Accel::Tcg;
    std::string accel_note;  // why not KVM, when Auto did not use it
    std::vector<std::string> argv;
    std::string output;   // what the guest sent over the port
    std::string console;  // the serial console, kernel and /init lines
    std::string qemu_stderr;
    int qemu_status = 0;
    bool timed_out = false;
    // Seconds from QEMU's start to: the guest's /init up, the workload
    // started, the workload ended, QEMU's exit (-1 when not seen).
    double up_s = -1, workload_start_s = -1, workload_end_s = -1, total_s = 0;
};

// Boots `topology` with `base` (kernel, initrd, append, memory), writing
// console.log, port.out and qemu.err into `run_dir`.
BootResult boot_guest(const QemuTopology& topology, QemuOptions base, AccelChoice accel, std::chrono::seconds timeout,
                      const std::string& run_dir, std::ostream& log);

// The line of QEMU's stderr that says what went wrong: the first naming an
// error, else the first that is not a warning ("" if none).
std::string qemu_error_line(const std::string& stderr_text);

// The last `n` lines of `text`.
std::string last_lines(const std::string& text, int n);

}  // namespace wb
