// SPDX-License-Identifier: Apache-2.0
//
// The qemu-system-x86_64 command line that boots a guest kernel on a
// QemuTopology: the vCPUs (-smp), one RAM backend per NUMA node with its
// vCPUs and distances (-numa), the kernel and initramfs, the console on the
// first serial port and a virtio serial port named "wakebench" through which
// the guest sends its trace back. Nothing else: no disk, no network, no VGA
// (-nodefaults), so a boot under TCG spends its time on the kernel.
#pragma once

#include <string>
#include <vector>

#include "kernel/qemu_topology.h"

namespace wb {

enum class Accel { Kvm, Tcg };

// The name of the virtio serial port the guest looks for.
inline constexpr const char* kGuestPortName = "wakebench";

struct QemuOptions {
    std::string binary = "qemu-system-x86_64";
    Accel accel = Accel::Tcg;
    std::string kernel;        // bzImage / vmlinuz
    std::string initrd;        // newc cpio
    std::string append;        // kernel command line
    int memory_mb = 512;       // the whole guest's; split evenly across nodes
    std::string console_path;  // the first serial port (console=ttyS0) written here
    std::string output_path;   // the "wakebench" virtio serial port written here
};

std::vector<std::string> qemu_command(const QemuTopology& topology, const QemuOptions& options);

// The command as a shell would take it, for messages and --keep.
std::string shell_quote(const std::vector<std::string>& argv);

}  // namespace wb
